/*
 * rows.h - what every writer of oriented rows shares: the rank, the sort of
 * a row, and per-thread arenas that rows are appended to as lists arrive.
 *
 * orient.c (rows placed in rank order) and arrival.c (rows counted where
 * they were written) both rank the vertices by (degree, id), write each
 * vertex's higher-rank neighbours as its list is read, and sort the row,
 * since ranks do not follow ids.
 */
#ifndef PART_ROWS_H
#define PART_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "io/graph.h"

/* Rank of every vertex by (degree, id), lowest first: rank[v] for v < nv.
 * *nzero, where not NULL: how many ids have degree 0, which therefore take
 * ranks 0 .. *nzero - 1 and lie in no list (on a valid graph). Returns 0,
 * or -1 when out of memory. */
int part_rank(const struct tsg_graph *g, unsigned threads, uint32_t *rank, uint64_t *nzero);

/* Sorts n ids increasing; scratch holds n ids (a radix sort for long rows). */
void part_sort_ids(uint32_t *a, uint32_t *scratch, size_t n);

/* Writes v's higher-rank neighbours, by rank, unsorted, to row and returns
 * how many. row has room for min(degree, row_cap) ids (part_orient_row_cap):
 * a valid graph never has more; an asymmetric one may, and its writes stop
 * there (the edge total check after the pass reports it). */
uint64_t part_write_up(const struct tsg_graph *g, const uint32_t *rank, uint64_t v,
		       uint64_t row_cap, uint32_t *row);

#define PART_ARENA_IDS (16ull << 20) /* a segment: 64 MiB of ids, at most */

/* The segment for a pass of `threads` over lists of `entries` ids in all:
 * about a thread's share, from 2^16 ids up to PART_ARENA_IDS. Why: every
 * thread's first segment is taken even on a tiny graph, and under
 * MALLOC_PERTURB_ (meson test sets it) malloc writes all of it: 64 MiB a
 * thread made tests/test_count's hundreds of small passes take 7 minutes
 * alone and pass its 900 s limit on the 2-core CI machine (session 40). A
 * thread that takes more than its share adds segments. */
uint64_t part_arena_seg_ids(uint64_t entries, unsigned threads);

/* A thread's append-only arena of ids: segments of seg_ids, the last one
 * being filled. Rows written there stay where they are until it is freed. */
struct part_arena {
	uint32_t **segs;
	size_t n, cap;
	uint32_t *cur;  /* the next free id */
	uint64_t left;  /* ids free from cur on */
	uint64_t seg_ids;
};

/* Makes room for `ids` consecutive ids at a->cur (a new segment of
 * max(seg_ids, ids) if the current one is short). Returns 0 or -1. */
int part_arena_reserve(struct part_arena *a, uint64_t ids);

/* Marks n ids from a->cur as used. */
static inline void part_arena_take(struct part_arena *a, uint64_t n)
{
	if (n == 0)
		return; /* a->cur may still be NULL, and NULL + 0 is undefined in C */
	a->cur += n;
	a->left -= n;
}

void part_arena_free(struct part_arena *a);

#endif
