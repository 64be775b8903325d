/*
 * block.h - 2D blocks of the rank-ordered DAG: out-of-core work units that
 * do not repeat the graph's dense core.
 *
 * Why not only LSTC's vertex parts (part.h): a part keeps the out-lists of
 * every vertex its locals point to, and on a skewed graph almost every part
 * points to almost every hub, so each part repeats the hubs' lists (measured
 * on R-MAT 21: one part of 45 kept 20.4 M of the 31.8 M edges). Splitting
 * the middle vertex b as well as the source a bounds what a unit holds.
 *
 * Orient and relabel by rank once (orient.h); rank ranges are then slices.
 * Cut the ranks into source blocks S_i; for each, cut [lo(S_i), nv) into
 * middle ranges M_ij. Unit (S_i, M_ij) counts the triangles a->b->c, a->c
 * with a in S_i and b in M_ij (kernels/dag.h, struct tsg_unit). A triangle
 * has one a and one b, so exactly one unit counts it. The first middle
 * range of each source block starts at the block itself and contains it
 * (one slice serves both); later ones are disjoint from it.
 *
 * Sizes: a unit holds its middle rows plus, unless nested, its source rows,
 * plus the kernel's scratch (struct tsg_scratch) for its rows and entries. With a budget, source blocks
 * take at most half of it and middle ranges the rest, which keeps the bytes
 * moved near (number of source blocks + 1) / 2 times the DAG.
 */
#ifndef PART_BLOCK_H
#define PART_BLOCK_H

#include <stdint.h>

#include "kernels/dag.h"
#include "base/error.h"
#include "partition/orient.h"

/* A unit's source entries that GPU kernel mid-hash takes (its records and
 * their hand-out counter are 32-bit; kernels/gpu_runtime.cu): plans that
 * keep source rows (block_opts.src_keep) take no larger source block than
 * this, or than their plan by halves has. */
#define BLOCK_SRC_ENTRIES_MAX ((1ull << 32) - (1ull << 24))

struct block_unit {
	uint32_t src_lo, src_hi, mid_lo, mid_hi;
};

struct block_opts {
	uint32_t nblocks;         /* 0: automatic from budget; else Q equal blocks, Q(Q+1)/2 units */
	uint64_t budget;          /* bytes one unit may take (automatic only) */
	uint32_t min_units;       /* automatic, q > 1: source blocks also end at the
				   * cuts of 2q blocks of work (the n(n-1)/2 + n of
				   * block_plan_costs per row), in rank order half of
				   * it in q/2 blocks of 1/q, a quarter in q/2 of
				   * 1/(2q), the last quarter (the top ranks) in q of
				   * 1/(4q): work spread over several devices comes in
				   * units of 1/q of it or less, the last ones small;
				   * 0 or 1: by bytes only */
	int resident;             /* with min_units, where the whole DAG fits the
				   * budget (a device then holds one copy of it and
				   * copies each row once, kernels/gpu.h
				   * gpu_resident_begin): 2q blocks of equal work
				   * instead. The small top blocks above kept the last
				   * copies short, which one copy does not need; with
				   * equal shares the queue takes the blocks top down
				   * (fewer bytes first within a cost class), the
				   * first needing a short suffix of the rows while
				   * the rows below are copied under the kernels.
				   * Measured on two H200s (R-MAT 24): 0.089 s against
				   * 0.102 s; turned over (big blocks on top) the
				   * bottom block's few wedges made --kernel auto pick
				   * lstc-hash, 4x slower there */
	uint32_t src_keep;        /* automatic, by bytes: a device keeps a source
				   * block's rows for the next unit in the same
				   * slot, src_keep slots taken in turn
				   * (kernels/gpu.h, gpu_keep_sources), so a
				   * block's rows are copied at most src_keep
				   * times, not once a unit. Larger source
				   * blocks then mean fewer passes over the
				   * middle rows: source blocks of 1/2, 5/8, 3/4
				   * and 7/8 of the budget are planned and the
				   * plan that copies the fewest bytes
				   * (block_plan_copies) kept, where the whole
				   * graph does not fit the budget and no source
				   * block passes BLOCK_SRC_ENTRIES_MAX. 0: 1/2 */
	unsigned threads;         /* for those cuts' sums (0: one) */
	struct tsg_scratch scratch; /* a kernel's extra device bytes (dag.h) */
	/* Ranks reading by ranges (src/ranges.h) read the file's lists, whole:
	 * list_cum[r] is the list entries of ranks below r (nv + 1 values), or
	 * NULL. Given, fixed plans cut Q blocks of equal shares of those
	 * entries rather than of the out-lists' bytes, and automatic plans end
	 * source blocks and middle ranges also at the cuts of list_shares equal
	 * shares of them: in the degree order the top ranks are hubs, short
	 * out-lists and long lists (R-MAT 18, 8 blocks of equal out-list bytes:
	 * the last held 0.39 of the lists). */
	const uint64_t *list_cum;
	uint32_t list_shares;
};

struct block_plan {
	uint32_t nunits, nsrc_blocks;
	int even;                 /* block_opts.resident applied: equal shares */
	struct block_unit *units;
	uint64_t max_bytes;       /* the largest unit, with scratch */
	uint64_t total_bytes;     /* all units: what a device reads in all */
	/* Each unit's estimates where they are known without the rows: summed
	 * over ranks that each hold some rows (src/ranges.h), then handed out
	 * by block_plan_costs. NULL: computed from the rows. Owned. */
	uint64_t *cost, *probes;
};

/* Plans units over d. With nblocks 0, a single unit if the whole DAG fits
 * the budget; fails with TSG_ENOMEM naming the vertex if one row and its
 * source block cannot share the budget. */
int block_plan_new(const struct part_odag *d, const struct block_opts *o, struct block_plan *out,
		   struct tsg_err *err);
void block_plan_free(struct block_plan *p);

/* Units for rows that arrive in rank order (an oriented .tsg read as it
 * is counted, src/engine.h): the ranks cut into at most ncols columns of
 * about equal entries, none under min_entries (at least one column);
 * column j's unit has middle range C_j and source block [0, hi(C_j)),
 * which holds C_j: every a -> b with b in C_j (a < b) once, and nothing
 * above hi(C_j) read. Every row is a source of every later column, so
 * the units suit a device that holds the rows once (kernels/gpu.h,
 * gpu_resident_begin upward) or the host; their sizes are not bounded. */
int block_plan_columns(const struct part_odag *d, uint32_t ncols, uint64_t min_entries,
		       const struct tsg_scratch *sc, struct block_plan *out, struct tsg_err *err);

/* Units for rows read from the top rank down (src/lists_bg.h): the ranks
 * cut as block_plan_columns cuts them, unit j with source block R_j and
 * middle range [lo(R_j), nv) (nested: every a -> b with a in R_j once),
 * the top block first. Unit j reads no row below lo(R_j), and in the
 * degree order most of the work lies in the top blocks' rows, which come
 * in first. Like columns, for rows held once (gpu_resident_begin, down);
 * their sizes are not bounded. */
int block_plan_rows_down(const struct part_odag *d, uint32_t nrows, uint64_t min_entries,
			 const struct tsg_scratch *sc, struct block_plan *out, struct tsg_err *err);

/* The highest row unit u reads, plus one: it can be counted once rows
 * 0 .. block_unit_top(u)-1 are in. */
static inline uint32_t block_unit_top(const struct block_unit *u)
{
	return u->src_hi > u->mid_hi ? u->src_hi : u->mid_hi;
}

/* The lowest row unit u reads: read from the top down (src/lists_bg.h),
 * it can be counted once rows block_unit_low(u) .. nv-1 are in. */
static inline uint32_t block_unit_low(const struct block_unit *u)
{
	return u->src_lo < u->mid_lo ? u->src_lo : u->mid_lo;
}

/* The bytes a device copies for p's units taken in order, src_keep
 * slots in turn, each keeping its last unit's source rows
 * (block_opts.src_keep; 0: none kept): the middle rows of every unit,
 * the source rows of each unit not nested whose slot's unit before had
 * another source block or was nested. */
uint64_t block_plan_copies(const struct part_odag *d, const struct block_plan *p,
			   uint32_t src_keep);

/* Orders p's units by block_unit_top (ties: as they were), so that rows
 * arriving in rank order complete them in turn. */
void block_plan_by_top(struct block_plan *p);

/* Orders p's units by block_unit_low, highest first (ties: by source,
 * then middle block), so that rows arriving from the top rank down (an
 * oriented file read down) complete them in turn. */
void block_plan_by_low(struct block_plan *p);

/* Each unit's estimated work, the same on every run and machine: the
 * oriented wedges a->b, a->c (b < c) with a in its source block and b in
 * its middle range, plus one for each such b (the records of kernel
 * mid-hash, kernels/mid_hash.cu; what the other kernels do grows with the
 * same wedges). A row's entries in a middle range are consecutive (rows
 * are in rank order), so each source costs two binary searches. In a
 * source block of more than BLOCK_COST_SAMPLE rows, every s-th row is
 * taken and the sum scaled by s (rows are in degree order, so the sample
 * is spread over the block's degrees). cost gets p->nunits values.
 * probes, if not NULL, gets as many of a second estimate from the same
 * sample: the entries of N(b) over every such pair (a, b), what kernels
 * that table N(a) and walk each N(b) probe (lstc-hash, trust). */
#define BLOCK_COST_SAMPLE 4096u
void block_plan_costs(const struct part_odag *d, const struct block_plan *p, unsigned threads,
		      uint64_t *cost, uint64_t *probes);
/* The same, and if entries is not NULL, each unit's source entries that
 * point into its middle range (the edges a -> b it counts), from the same
 * sample: for a unit whose middle range is narrow, far fewer than its
 * source rows hold, and what --kernel auto's rule divides by
 * (kernels/choose.h). Where p knows its costs (summed over ranks), the
 * rows are not all here: entries gets each unit's source entries whole. */
void block_plan_work(const struct part_odag *d, const struct block_plan *p, unsigned threads,
		     uint64_t *cost, uint64_t *probes, uint64_t *entries);
/* block_plan_costs over the held rows only (held[a] set for source row a;
 * partition/held.h), from the rows even where p knows its costs: what
 * ranks that hold disjoint rows sum up to the whole graph's estimate. */
void block_plan_costs_held(const struct part_odag *d, const struct block_plan *p,
			   unsigned threads, const uint8_t *held, uint64_t *cost, uint64_t *probes);

/* A unit as kernels take it, over d's arrays. */
struct tsg_unit block_unit_of(const struct part_odag *d, const struct block_unit *b);

/* Bytes unit b needs on a device, scratch included. */
uint64_t block_unit_bytes(const struct part_odag *d, const struct block_unit *b,
			  const struct tsg_scratch *sc);

/* A unit's sizes in the terms of LSTC's tables: v_local = source rows,
 * v_res / e_res = rows and edges it holds, bytes without scratch. */
void block_unit_stats(const struct part_odag *d, const struct block_unit *b,
		      struct part_stats *st);

#endif
