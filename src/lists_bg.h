/*
 * lists_bg.h - an opened graph's lists read on a thread of their own, with
 * the prefix of vertices already in place and checked.
 *
 * Why: an oriented .tsg (io/graph.h) holds its rows in rank order, so the
 * block layout's unit (S, M) needs nothing above max(S, M)'s last row: it
 * can be counted once the read has passed that row, while the rest of the
 * file is still coming (src/engine.h, engine_block_stream). The reader
 * hands checked ranges over in about file order, several at a time; this
 * keeps the stretch 0 .. mark-1 that is complete, so a counter waits for
 * exactly the rows its unit reads.
 *
 * Read down (lists_bg_begin's down: io_graph_read_lists_down), the rows come
 * from the top rank, and the mark is the lowest row of the complete stretch
 * mark .. nv-1: a unit (S, M) then waits for its lowest row, min(S, M)'s
 * first. Why: in the degree order the top ranks are the hubs, whose rows
 * every middle vertex of much of the work needs; read up, the units that
 * hold the most work wait for the end of the file (measured on R-MAT 26:
 * the last two of 16 columns held 1.46 s of the 2.07 s of kernels).
 *
 * Exactness: a range is marked only after io_graph_read_lists has checked
 * its rows (a bad range never is, so nothing past it is ever used); the
 * checks that need the whole file (the section checksum) come at the end,
 * and lists_bg_end returns their verdict, which the caller must take
 * before reporting any count made from the rows.
 */
#ifndef SRC_LISTS_BG_H
#define SRC_LISTS_BG_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "base/error.h"
#include "io/graph.h"
#include "partition/block.h"

struct lists_bg {
	struct tsg_graph *g;
	pthread_t thread;
	int started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int down;               /* read from the top rank down */
	uint64_t mark;          /* vertices 0 .. mark-1 are in and checked (down:
				 * mark .. nv-1) */
	struct io_vrange *held; /* ranges done above the mark, unordered */
	uint64_t nheld, cap;
	int done, rc;           /* the read returned; its code */
	atomic_int halt;        /* lists_bg_stop asked the read to stop */
	int stopped;            /* it ended so, short of the lists' end */
	struct tsg_err err;
	double waited_s;        /* time callers spent in lists_bg_wait_unit */
	double done_at;         /* tsg_now() when the read returned */
};

/* Starts reading g's pending lists on a new thread: io_graph_read_lists, or
 * with down io_graph_read_lists_down (an oriented file's rows). */
int lists_bg_begin(struct lists_bg *b, struct tsg_graph *g, int down, struct tsg_err *err);

/* Waits until the rows block unit u reads are in and checked: 0 ..
 * block_unit_top(u)-1, or down block_unit_low(u) .. nv-1. Fails with the
 * read's error if it ended without them. */
int lists_bg_wait_unit(struct lists_bg *b, const struct block_unit *u, struct tsg_err *err);

/* The mark now (no wait): rows 0 .. mark-1 are in, or down mark .. nv-1. */
uint64_t lists_bg_mark(struct lists_bg *b);

/*
 * A pass's feed (partition/arrival.h, part_arrival_opts.feed) over lists
 * read up on b (ctx): calls rows(arg, lo, hi, 0) on the calling thread for
 * each stretch of vertices as the mark passes it, in order, every vertex
 * once, and returns the read's verdict (checksum included) once it ended
 * (b is still to be ended, lists_bg_end). rows sees only tid 0, one call at
 * a time. Why: a plain file's read begun before the GPUs were opened
 * (src/pipeline_gpu.c, arrival_early) feeds the arrival layout's batches,
 * whose host pass on the GPU only counts each batch's vertices in.
 */
int lists_bg_feed(void *ctx, io_rows_fn rows, void *arg, struct tsg_err *err);

/* Asks the read to stop (io_graph_read_lists_until): where the work it
 * feeds was refused, its end is not waited for. lists_bg_end then returns
 * TSG_EINTERRUPTED with b->stopped set, unless the read had ended first
 * (its own verdict). Any thread; safe on a b never begun. */
void lists_bg_stop(struct lists_bg *b);

/* Waits for the read to end and returns its verdict (checksum included);
 * frees what b holds. Safe on a b never begun (zeroed). */
int lists_bg_end(struct lists_bg *b, struct tsg_err *err);

#endif
