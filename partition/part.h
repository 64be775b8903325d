/*
 * part.h - LSTC workload partitioning (Tamboli and Jatala, "LSTC:
 * Large-Scale Triangle Counting on Single GPU", sections 4.2-4.3).
 *
 * The vertex set is cut into P disjoint parts. Part i's DAG holds its local
 * vertices L_i, the proxy vertices it needs from other parts, and the edges
 * among them oriented by global rank (degree, id), renumbered densely and
 * in id order (so lists stay sorted). Counting from L_i only counts each
 * triangle exactly once, in the part of its lowest-rank vertex, so the
 * per-part counts sum to the graph's count for any disjoint cover of V.
 *
 * Proxy pruning, two rules (see part.c for the proof that both are exact):
 *  - PART_PRUNE_LSTC: the paper's Algorithm 2: start from the subgraph induced
 *    on L_i and all neighbours of L_i; remove proxies of in-degree zero, and
 *    their out-edges, until none is left.
 *  - PART_PRUNE_LOCAL: keep a proxy only if a local vertex points to it, and
 *    every edge among kept vertices. One pass, and it keeps a subset of what
 *    Algorithm 2 keeps.
 *  - PART_PRUNE_CLOSED: keep only the edges of triangles whose source is
 *    local (found by listing those triangles on the host), and the vertices
 *    they touch. Exact for every clique of three or more vertices, not for
 *    edge or vertex counts; it is what makes k-cliques fit out of core,
 *    where LOCAL keeps the dense core of hubs in every part (part.c).
 *    Needs, while the plan lives, the oriented lists in host memory (4
 *    bytes a directed edge, 8 a vertex) and 2 bits a vertex per thread.
 *  - PART_PRUNE_AUTO: CLOSED where the graph takes more than one part,
 *    LOCAL where one (which holds every edge anyway: listing its triangles
 *    would save nothing). For callers counting cliques of 3 or more.
 *
 * Parts are built one at a time into memory the caller supplies (pinned
 * staging for a GPU), so host memory holds the graph, the plan's per-vertex
 * scratch (about 10 bytes a vertex) and the parts in flight.
 */
#ifndef PART_PART_H
#define PART_PART_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/dag.h"
#include "base/error.h"
#include "io/graph.h"

enum part_scheme {
	PART_CONTIG, /* equal vertex ranges */
	PART_EDGE,   /* ranges with equal edge counts (default) */
	PART_HASH,   /* pseudo-random assignment, seeded */
	PART_METIS,  /* METIS k-way, balancing degree + 1 (builds with libmetis only) */
};

enum part_prune { PART_PRUNE_LOCAL, PART_PRUNE_LSTC, PART_PRUNE_CLOSED, PART_PRUNE_AUTO };

struct part_opts {
	enum part_scheme scheme;
	enum part_prune prune;
	uint32_t nparts;      /* 0: automatic from budget */
	uint64_t budget;      /* bytes one part may take (auto only); includes scratch below */
	uint32_t min_parts;   /* auto only: at least about this many (parts shared by GPUs or
			       * ranks, so that the costliest-first queue can even them out) */
	struct tsg_scratch scratch; /* a kernel's extra device bytes (dag.h), for the budget */
	uint64_t seed;        /* PART_HASH */
	unsigned threads;
	int want_gid;         /* part_build keeps each part's global ids (tsg_dag.gid) */
	const uint32_t *order; /* NULL: orient by (degree, id); else by order[v], a
				* permutation of the ids (partition/order.h), kept
				* by the caller while the plan lives */
};

struct part_stats {
	uint64_t v_local;       /* |L_i| */
	uint64_t v_ind, e_ind;  /* induced subgraph on L_i and all neighbours (only with want_ind) */
	uint64_t v_res, e_res;  /* what is kept after pruning */
	uint64_t bytes;         /* tsg_dag_bytes of the result */
	double seconds;
};

/* Memory for a part's arrays: returns a block of at least `bytes` bytes,
 * 8-byte aligned, or NULL. The caller of part_build owns it afterwards. */
typedef void *(*part_alloc_fn)(void *ctx, size_t bytes);

struct part_plan;

int part_scheme_parse(const char *s, enum part_scheme *out);
/* Whether this build can run scheme s (METIS is optional). */
int part_scheme_available(enum part_scheme s);
const char *part_scheme_name(enum part_scheme s);
int part_prune_parse(const char *s, enum part_prune *out);
const char *part_prune_name(enum part_prune p);

/* Plans the parts. With nparts == 0, picks the smallest P whose largest
 * part fits o->budget (splitting over-large ranges further); fails with
 * TSG_ENOMEM if even a single vertex's part does not fit. */
int part_plan_new(const struct tsg_graph *g, const struct part_opts *o, struct part_plan **out,
		  struct tsg_err *err);
void part_plan_free(struct part_plan *p);

uint32_t part_plan_count(const struct part_plan *p);
/* The pruning rule the parts are built with (PART_PRUNE_AUTO resolved). */
enum part_prune part_plan_prune(const struct part_plan *p);
/* Bytes of the largest part (known after planning in auto mode, else 0). */
uint64_t part_plan_max_bytes(const struct part_plan *p);

/* The greedy plan of closed ranges (--prune closed, edge or contig
 * scheme, a budget) keeps each part's edges as it closes it, a bit per
 * oriented edge, while they fit as many bytes as the graph's lists: a part
 * with such a recipe is built from it, without listing its triangles
 * again. The parts that have one, and their bytes; forgetting them (tests,
 * or memory wanted back) makes every later build list. */
uint32_t part_plan_recipes(const struct part_plan *p, uint64_t *bytes);
void part_plan_forget_recipes(struct part_plan *p);

/* A digest of what defines the parts (their count and their vertices):
 * equal digests, equal parts. Checkpoints compare plans by it. */
uint64_t part_plan_digest(const struct part_plan *p);

/* The longest out-list of g oriented as parts orient it (order as in
 * part_opts.order): what sizes the k-clique kernels' bit rows. */
uint32_t part_max_out(const struct tsg_graph *g, const uint32_t *order, unsigned threads);

/* Part i's weight: the degrees of its local vertices summed (what its
 * count roughly costs). */
uint64_t part_plan_weight(const struct part_plan *p, uint32_t i);

/*
 * A built part's sources dealt into pieces for several GPUs to share
 * (src/clique_share.h): piece j takes every pieces-th source from the j-th
 * on (d->src[j], d->src[j + pieces], ...), so that each holds hubs and
 * small lists alike and the pieces cost about the same: the first ones
 * then foretell the rest, and GPUs taking them in turn end together. Runs
 * of the rank order cut at equal estimated cost (out-list length squared)
 * did not: the cost of a K-clique count grows faster than that with the
 * list, and the top run held few sources with the longest lists.
 * d->src is rewritten in place, piece after piece, each piece's sources
 * increasing; cut[0 .. *n] receives the pieces' bounds in it (cut[0] = 0,
 * cut[*n] = d->nsrc, strictly increasing), *n = min(pieces, d->nsrc).
 * cut holds pieces + 1 entries; pieces >= 1. Fails only for memory.
 */
int part_source_stripes(struct tsg_dag *d, uint32_t pieces, uint32_t *cut, uint32_t *n,
			struct tsg_err *err);

/* The part vertex v belongs to. */
uint32_t part_plan_owner(const struct part_plan *p, uint32_t v);

/* Builds part i into memory from alloc. Fills *dag with pointers into that
 * block (dag->off is the block's start, for freeing). want_ind also measures
 * the unpruned induced subgraph for st (costs one more pass). */
int part_build(struct part_plan *p, uint32_t i, part_alloc_fn alloc, void *alloc_ctx,
	       int want_ind, struct tsg_dag *dag, struct part_stats *st, struct tsg_err *err);

/* Sizes part i without building it. */
int part_measure(struct part_plan *p, uint32_t i, struct part_stats *st, struct tsg_err *err);

#endif
