/*
 * orient.h - the whole graph oriented once, in rank order.
 *
 * Rank orders vertices by (degree, id), lowest first. part_orient relabels
 * every vertex by its rank and keeps, for each vertex, its neighbours of
 * higher rank, increasing: the same DAG the LSTC partitions are cut from
 * (part.h), but whole and with ids that make rank ranges contiguous. That
 * is what 2D blocks (block.h) slice without copying: rows lo .. hi-1 are
 * one stretch of off[] and one of adj[].
 *
 * Every triangle {a, b, c} has one source a (lowest rank) with a->b, a->c,
 * b->c, and every out-degree is at most sqrt(2m) under this order.
 */
#ifndef PART_ORIENT_H
#define PART_ORIENT_H

#include <stdint.h>

#include "base/error.h"
#include "io/graph.h"
#include "partition/part.h"

struct part_odag {
	uint32_t nv;
	uint64_t ne;        /* directed edges, half the graph's list entries */
	uint32_t max_out;
	uint64_t *off;      /* nv + 1 offsets; the block from alloc starts here */
	uint32_t *adj;      /* ne ids (ranks), each list increasing */
};

/* Bytes of the oriented graph's arrays. */
static inline uint64_t part_odag_bytes(uint64_t nv, uint64_t ne)
{
	return (nv + 1) * 8 + ne * 4;
}

/* Points d's arrays into mem, a block of part_odag_bytes(nv, ne): the
 * offsets first, the rows after them. */
static inline void part_odag_place(struct part_odag *d, void *mem, uint64_t nv)
{
	d->off = (uint64_t *)mem;
	d->adj = (uint32_t *)((uint8_t *)mem + (nv + 1) * 8);
}

/*
 * Two ways to write the rows, identical in result (tests compare them):
 *  - TWO_PASS counts every vertex's upward neighbours in one pass over the
 *    lists, then fills the rows in place in a second: two rounds of random
 *    rank lookups, one per list entry each.
 *  - ONE_PASS writes each row, sorted, into per-thread segments as it reads
 *    the lists once, then moves the rows into rank order (a copy per row):
 *    one round of lookups, at the price of a second copy of the rows'
 *    bytes in memory while it runs.
 */
enum part_orient_way { PART_ORIENT_AUTO, PART_ORIENT_TWO_PASS, PART_ORIENT_ONE_PASS };

struct part_orient_opts {
	unsigned threads;
	enum part_orient_way way; /* AUTO: ONE_PASS */
	part_alloc_fn alloc;      /* the oriented graph's block; see part_orient */
	void *alloc_ctx;
	/* Where the lists come from. NULL: g's lists are in memory. Else feed
	 * drives the pass over the lists: it calls fn(arg, b, e, tid) once for
	 * every vertex range, tid < threads, as the lists arrive, and returns
	 * an error code; so the rows are written while the graph is still
	 * being read (io_graph_read_lists fits it). */
	int (*feed)(void *feed_ctx, io_rows_fn fn, void *arg, struct tsg_err *err);
	void *feed_ctx;
};

/* Where the time went, for --json and bench/. */
struct part_orient_times {
	double rank_s;  /* degree keys, their sort, the rank array */
	double rows_s;  /* the passes over the lists */
	double place_s; /* ONE_PASS: rows moved into rank order */
	double alloc_wait_s; /* waiting for the oriented graph's block */
};

/* One more than the most upward neighbours any vertex of a graph with nadj
 * list entries and this largest degree can have: the room a row needs. */
uint64_t part_orient_row_cap(uint64_t nadj, uint64_t max_degree);

/* Orients g into memory from o->alloc: one block, starting at out->off,
 * which the caller frees (also after a failure, if out->off is not NULL).
 * Uses o->threads host threads and about 20 bytes a vertex of scratch
 * (ONE_PASS: also about the oriented lists' size again, for a moment).
 * alloc is called once, on a thread of its own (it runs while vertices are
 * ranked), so it must be safe to call from any thread. times may be NULL. */
int part_orient(const struct tsg_graph *g, const struct part_orient_opts *o,
		struct part_odag *out, struct part_orient_times *times, struct tsg_err *err);

#endif
