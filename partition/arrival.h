/*
 * arrival.h - the edges cut by when they can be counted: arrival batches.
 *
 * Why: the block layout (block.h) cannot count before the last byte of the
 * file is in, since any unit needs rows from anywhere in it; on a cold file
 * the count then runs after the read instead of under it. Here the count
 * follows the read.
 *
 * Lists are read in id order. Cut the ids into K batches of about equal
 * list bytes. Vertex v's oriented row out(v) (its higher-rank neighbours,
 * orient.h) is complete once v's list is read, and an oriented edge a -> b
 * can be counted, as |out(a) ∩ out(b)|, once both rows are: in the batch of
 * its later-read endpoint. Batch k takes (kernels/dag.h, struct tsg_batch)
 *  - a in batch k, b in out(a) with batch(b) <= k, and
 *  - b in batch k, a -> b with batch(a) < k (b's "in" list, written from
 *    b's own list: the neighbours of lower rank read before the batch);
 * so every edge once, and every triangle once, at its two lowest vertices.
 * Batch k needs the rows of batches <= k only: it is handed to the sink as
 * soon as its own rows are written, while later batches are still read.
 *
 * The rows and in lists are written on the host (lists_only = 0: the CPU's
 * batches), or not at all (lists_only = 1): the sink then gets each batch's
 * ids once their lists are in place and checked, and orients them itself
 * (the GPU does, kernels/arrival.cu), so the host touches each list once.
 *
 * Memory: with rows, the rows (half the list entries), the in lists (at most
 * as many again, fewer when the file lists neighbours in arrival order) and
 * about 32 bytes a vertex; lists only, 8 bytes a vertex (rank and batch).
 */
#ifndef PART_ARRIVAL_H
#define PART_ARRIVAL_H

#include <stdint.h>

#include "kernels/dag.h"
#include "base/error.h"
#include "io/graph.h"

/* Auto: about 32 batches of at least 4 Mi list entries. More batches
 * shorten what is left after the read (the last batch's count) but cost the
 * device more: each batch tables its middle rows again. On the H100, R-MAT
 * 24 and 25 from the page cache, with rows written on the host
 * (bench/RESULTS.md): device time 0.59 / 1.08 / 1.56 s at 8 / 32 / 64
 * batches (scale 24), left after the read 0.065 / 0.055 / 0.27 s; 32 had
 * the lowest end-to-end time at both scales. With the device orienting,
 * 32 batches at scale 24 take 0.58 s of device time. */
#define PART_ARRIVAL_AUTO_BATCHES 32u
#define PART_ARRIVAL_MAX_BATCHES 8192u
#define PART_ARRIVAL_MIN_ENTRIES (4ull << 20)

struct part_arrival_plan {
	uint32_t nbatches;
	uint64_t *bound;        /* nbatches + 1 ids: batch k is bound[k] .. bound[k+1]-1 */
	uint64_t max_entries;   /* most list entries in one batch */
	uint64_t max_vertices;  /* most vertices in one batch */
	uint64_t nv, ne;        /* vertices; oriented edges (half the list entries), or
				 * where the degrees come with the lists (a crawl
				 * decoded as counted) a bound of them: the true count
				 * is the graph's nadj / 2 once its lists are in */
	uint64_t row_cap;       /* no row is longer (part_orient_row_cap) */
};

/* Cuts g's ids into nbatches batches (at most PART_ARRIVAL_MAX_BATCHES) of
 * about equal list entries; 0: auto. Needs the offsets only: those ranks
 * come from (io_graph_rank_off), so a crawl's bounds while it is decoded,
 * which then size every batch from above. */
int part_arrival_plan_new(const struct tsg_graph *g, uint32_t nbatches,
			  struct part_arrival_plan *p, struct tsg_err *err);
void part_arrival_plan_free(struct part_arrival_plan *p);

/* Where batches go. begin runs once, after ranking and before any list is
 * read (rank: id -> rank; batch_of: rank -> batch; both final; ranks 0 ..
 * nzero - 1 are the ids of degree 0, which a valid graph lists nowhere,
 * part_rank). batch runs
 * for k = 0, 1, ... in order, each once, on a thread of its own, while later
 * lists are read; its arrays, and the lists of ids up to b->v_hi, stay valid
 * and unchanged until part_arrival returns. An error from either stops the
 * handing out and is part_arrival's error. */
struct part_arrival_sink {
	int (*begin)(void *ctx, const struct part_arrival_plan *p, const uint32_t *rank,
		     const uint32_t *batch_of, uint64_t nzero, struct tsg_err *err);
	int (*batch)(void *ctx, const struct tsg_batch *b, struct tsg_err *err);
	void *ctx;
};

struct part_arrival_opts {
	unsigned threads;
	/* As in part_orient_opts: NULL reads g's lists from memory; else
	 * feed drives the pass as the lists arrive (io_graph_read_lists). */
	int (*feed)(void *feed_ctx, io_rows_fn fn, void *arg, struct tsg_err *err);
	/* NULL, or called (on the batch thread) where the sink failed, so
	 * that the feed may end early: a feed's TSG_EINTERRUPTED then loses
	 * to the sink's error */
	void (*feed_stop)(void *feed_ctx);
	void *feed_ctx;
	/* 1: write no rows or in lists; batches carry ids and ranks only
	 * (row, row_len, in, in_len NULL), and the edge total is the sink's
	 * to check. */
	int lists_only;
};

struct part_arrival_times {
	double rank_s;   /* ranks and the batch of every rank */
	double rows_s;   /* the pass over the lists (with the read, when fed) */
	double tail_s;   /* from the end of that pass to the last batch's return */
	uint64_t max_out; /* longest row (with rows) */
};

/* Ranks g, writes every row and in list as its list arrives (unless lists
 * only), and hands the batches of p to sink in order. A failure anywhere (the feed's checks
 * included) is returned after every batch handed out has returned, so a
 * sink's partial results must be dropped. */
int part_arrival(const struct tsg_graph *g, const struct part_arrival_plan *p,
		 const struct part_arrival_opts *o, const struct part_arrival_sink *sink,
		 struct part_arrival_times *times, struct tsg_err *err);

#endif
