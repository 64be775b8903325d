/*
 * clique_share.h - one k-clique part counted on several GPUs of one
 * process: each GPU holds the whole part and counts pieces of its sources.
 *
 * Why: where one part holds the graph, cutting it into parts for more GPUs
 * repeats the hubs' out-lists in every part, and building them on the host
 * is then the run (R-MAT 22, K = 4, two H200s: 6.8 s in 8 parts against 1.8
 * s in one on one GPU; src/pipeline_gpu.c, cliques_one_gpu). Every K-clique
 * has one lowest vertex, a source of the part, so the part's sources can
 * be shared instead: a copy of the part on each GPU (its bytes again over
 * each GPU's own link), no second build, and the count, which dominates
 * from K = 5 (R-MAT 22: 7 s of kernels), split.
 *
 * How: the sources are dealt into pieces, piece j every P-th source from
 * the j-th (part_source_stripes), so that every piece holds hubs and small
 * lists alike and costs about the same. The first GPU holds
 * the part and counts pieces, two at a time on its two slots, so that one
 * piece's last long warps overlap the next one's start. Once its second
 * piece is in, the time since the first was foretells the rest (that
 * time, a piece, for each piece left; the first piece's own time holds
 * the kernels' first load). Where the rest would take the first GPU alone
 * under `min_s` (what opening, filling and closing another GPU should
 * cost: a model's figure, src/engine.h; no count near it timed), it
 * takes the rest in one launch, and no other GPU is opened.
 * Else each other GPU is opened on a thread of its own (`open`), takes a
 * copy of the part, and joins: every GPU takes the next piece once it is
 * free. From then on a launch takes several pieces, a share of those
 * left that shrinks toward the end (guided self-scheduling, never under
 * one piece a GPU listed): a launch lasts at least as long as its longest
 * warp, so launches of one small piece each waste the GPU (clique_share.c,
 * guided). A GPU that cannot open or hold the part stays out, and says why;
 * the others count its pieces. The count is exact either way: the pieces
 * cover the sources once. The caller shares only edge-centric counts
 * (src/pipeline_gpu.c, share_by_sources: a vertex-centric piece waits on
 * its longest list).
 */
#ifndef SRC_CLIQUE_SHARE_H
#define SRC_CLIQUE_SHARE_H

#include <stdint.h>

#include "base/error.h"
#include "kernels/dag.h"
#include "kernels/gpu.h"
#include "src/engine.h"

/* Opens the i-th GPU of the share (i >= 1) into *out, configured for the
 * count as the first was (gpu_set_clique, gpu_clique_sizes). Called on the
 * thread that will drive it. */
typedef int (*clique_share_open_fn)(void *ctx, uint32_t i, struct gpu_ctx **out,
				    struct tsg_err *err);

/* What one GPU did. */
struct clique_share_gpu {
	int held;              /* it held the part */
	uint32_t pieces;       /* pieces it counted (a merged rest: all it covered) */
	uint64_t bytes;        /* the part's copy */
	double copy_ms, kernel_ms;
	double joined_s;       /* from the count's start to holding the part */
	double busy_s;         /* from holding the part to its last piece's end */
	char why[200];         /* i >= 1 with no piece: why (not opened, not held,
				* nothing left once it held the part) */
};

/* Why the first GPU counted alone, if it did. */
enum clique_share_alone {
	CLIQUE_SHARE_HELPED,    /* another GPU counted pieces */
	CLIQUE_SHARE_FEW,       /* too few pieces to foretell the rest by */
	CLIQUE_SHARE_SHORT,     /* the rest foretold under min_s: merged */
	CLIQUE_SHARE_KEPT,      /* keep_pieces: nothing decided */
	CLIQUE_SHARE_NONE_JOINED, /* others opened or asked, none counted a piece */
	CLIQUE_SHARE_FAILED,    /* the count failed or was stopped first */
};

struct clique_share {
	/* in */
	struct gpu_ctx **gpu;          /* [want]: gpu[0] open and set; the others NULL, opened
					* by open and stored here (the caller closes them) */
	uint32_t want;                 /* GPUs listed, 1 .. ENGINE_MAX_GPUS */
	struct tsg_dag *part;          /* the one part, built in pinned memory (its src
					* dealt into pieces in place) */
	uint32_t pieces;               /* pieces to cut, >= 1 */
	double min_s;                  /* the rest's foretold time that opens more GPUs */
	int keep_pieces;               /* benchmarks: the rest never merged, no GPU opened */
	int wait_all;                  /* tests: once they are opened, the first GPU waits
					* until every other has the part (or failed), so
					* that each takes pieces however short the count */
	uint64_t *sizes;               /* --k-all: the sums a size, NULL otherwise */
	uint64_t sizes_len;
	const struct engine_opts *o;   /* for engine_check_stop */
	int progress;                  /* a progress line of pieces on stderr */
	int profile;                   /* benchmarks: a line a launch on stderr (its GPU,
					* sources, kernel time, when it was in) */
	clique_share_open_fn open;
	void *open_ctx;
	/* out */
	uint64_t count;
	uint32_t npieces;              /* dealt (part_source_stripes) */
	uint32_t launches;             /* counts launched (a merged rest: one) */
	int opened_more;               /* threads to open other GPUs were started: gpu[1 ..
					* want-1] may hold contexts (the caller drains and
					* closes them) */
	int shared;                    /* another GPU counted at least one piece */
	enum clique_share_alone alone; /* why not shared (CLIQUE_SHARE_HELPED where it was) */
	double piece_s, foretold_s;    /* a piece's time on the first GPU (between its
					* first two pieces' ends); the rest on it alone,
					* the piece in flight included, foretold */
	struct clique_share_gpu per[ENGINE_MAX_GPUS];
};

/* Counts cs->part's K-cliques as above into cs->count (and cs->sizes).
 * Returns the first failure of a GPU that held the part (a count short of
 * pieces is never returned as a count). */
int clique_share_count(struct clique_share *cs, struct tsg_err *err);

#endif
