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

#include "error.h"
#include "graph.h"
#include "part.h"

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

/* Orients g into memory from alloc: one block, starting at out->off, which
 * the caller frees (also after a failure, if out->off is not NULL). Uses
 * `threads` host threads and about 20 bytes a vertex of scratch. alloc is
 * called once, on a thread of its own (it runs while vertices are ranked),
 * so it must be safe to call from any thread. */
int part_orient(const struct tsg_graph *g, unsigned threads, part_alloc_fn alloc, void *alloc_ctx,
		struct part_odag *out, struct tsg_err *err);

#endif
