/*
 * held.h - the oriented graph (orient.h) of which this process holds only
 * some rows.
 *
 * An MPI rank that reads only the lists its units need (src/ranges.h) must
 * still plan the same units as every other rank, and the plan needs every
 * row's length: each rank finds the out-degrees of a slice of the vertices
 * from that slice's lists (part_held_out_degrees), the ranks exchange them,
 * and every rank lays out the same offsets (part_held_offsets). Rows are
 * then written only for the vertices whose lists this rank read
 * (part_held_fill); the others keep their room and stay unwritten, and
 * held[] says which rows are real. Rows, ids and ranks are as in
 * part_orient, so a unit whose rows are all held counts exactly as it
 * would from the whole oriented graph.
 */
#ifndef PART_HELD_H
#define PART_HELD_H

#include <stdint.h>

#include "base/error.h"
#include "io/graph.h"
#include "partition/orient.h"

/* out[v - b] = the number of v's neighbours of higher rank, for v in
 * b .. e-1, whose lists must be in place. */
void part_held_out_degrees(const struct tsg_graph *g, const uint32_t *rank, uint64_t b,
			   uint64_t e, unsigned threads, uint32_t *out);

/* d->off (nv + 1 entries, in rank order) from every vertex's out-degree
 * (outdeg[v] by id), on up to threads threads; sets d->nv, d->ne (the
 * sum) and d->max_out. d->off must have room; d->adj is not touched. */
void part_held_offsets(uint64_t nv, const uint32_t *rank, const uint32_t *outdeg,
		       unsigned threads, struct part_odag *d);

/* Writes into d (offsets laid out) the rows of the vertices of the ranges
 * r[0 .. n), whose lists are in place, each sorted, and sets held[rank] to
 * 1 for each (held may be NULL where every row is written by some
 * process). A list whose upward neighbours are not as many as its row's
 * length (lists that disagree with the out-degrees the ranks exchanged)
 * fails with TSG_EINPUT naming the vertex. */
int part_held_fill(const struct tsg_graph *g, const uint32_t *rank, const struct io_vrange *r,
		   uint64_t n, unsigned threads, struct part_odag *d, uint8_t *held,
		   struct tsg_err *err);

#endif
