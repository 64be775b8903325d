/*
 * clique.h - k-clique counting (K >= 3) on a partition (kernels/dag.h): the
 * host kernel, and what the GPU's shares with it.
 *
 * Every K-clique has one lowest-rank vertex a, and its other K - 1 vertices
 * all lie in out(a). A kernel counts, for each source a of the DAG, the
 * (K-1)-cliques of the subgraph induced by out(a): each K-clique of the
 * graph whose lowest vertex is local to this partition, exactly once. An
 * LSTC part keeps every vertex a local vertex points to and every edge
 * among kept vertices (partition/part.h), so it holds out(a)'s induced
 * subgraph whole; counts over parts covering V sum to the graph's.
 *
 * Two methods (Almasri et al., "Parallel K-clique counting on GPUs", ICS
 * 2022, after Danisch et al. and Jain and Seshadhri):
 *  - orientation: a depth-first walk of out(a)'s induced DAG, the candidates
 *    of each level a bitset ANDed with the next vertex's row, the last level
 *    a popcount. Cost grows with the number of (K-1)-cliques below a: best
 *    for small K.
 *  - pivoting (Jain and Seshadhri, "The power of pivoting for exact clique
 *    counting", WSDM 2020), hybrid as in the paper: the first level by
 *    orientation (a and out(a)), then the succinct clique tree over out(a)'s
 *    undirected induced subgraph. A leaf with h held vertices and p pivots
 *    stands for C(p, j - h) cliques of each size j; each clique once. Cost
 *    grows with the tree, not with the cliques: best for large K, and it
 *    gives every size at once (--k-all).
 * Counts are 64-bit; a count that does not fit is an error (TSG_EOVERFLOW),
 * never a wrapped value.
 */
#ifndef KERN_CLIQUE_H
#define KERN_CLIQUE_H

#include <stdint.h>

#include "kernels/dag.h"
#include "base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KERN_CLIQUE_MAX_K 32

enum kern_clique_method {
	KERN_CLIQUE_AUTO,   /* CPU: the faster on a sample (kern_cpu_clique) */
	KERN_CLIQUE_ORIENT,
	KERN_CLIQUE_PIVOT,
};

int kern_clique_method_parse(const char *s, enum kern_clique_method *out);
const char *kern_clique_method_name(enum kern_clique_method m);

/*
 * Auto: neither method wins everywhere (orientation is up to 9x faster on
 * R-MAT at K = 4 on the CPU, pivoting 57x on ca-HepPh at K = 6: its large
 * cliques make orientation enumerate every subset; bench/RESULTS.md), and
 * no cheap statistic told them apart. So the two race on the host on
 * every stride-th source of d (counts discarded): pivoting is picked where
 * it takes under 1/ratio of orientation's time (ratio 1 for the CPU; the
 * GPU's orientation gains more on the host's than its pivoting does, so
 * its caller asks more). Rounds with a time limit growing 4x keep the
 * loser from running much past the winner (about the winner's time again,
 * at worst 4x). With fewer than 4 sources sampled: orientation, untimed.
 * most (0: no limit): no round's limit passes it, and a race still
 * undecided then returns KERN_CLIQUE_AUTO for the caller to decide.
 * *timed (if not NULL): whether the race decided.
 */
enum kern_clique_method kern_cpu_clique_pick(const struct tsg_dag *d, unsigned k, unsigned threads,
					     uint32_t stride, double ratio, double most, int *timed);

/*
 * Counts the K-cliques whose lowest vertex is a source of d with method m
 * (auto: kern_cpu_clique_pick) on threads threads, into counts[0]. With all (pivot only),
 * counts[j-1] receives the cliques of j vertices for j = 1 .. nsizes, where
 * nsizes <= d->max_out + 1 is set to the largest size found (counts must
 * hold d->max_out + 1 entries); k is then ignored. Adds to counts (parts
 * accumulate). Fails with TSG_EOVERFLOW if a count passes 2^64 - 1, TSG_ENOMEM
 * if the bit rows of the largest out-list do not fit in memory.
 */
int kern_cpu_clique(const struct tsg_dag *d, unsigned k, int all, enum kern_clique_method m,
		    unsigned threads, uint64_t *counts, uint32_t *nsizes, struct tsg_err *err);

/*
 * The GPU kernel (kernels/clique.cu). Its knobs, after the paper:
 *  - scheme: vertex-centric (a warp per source a, the subgraph induced by
 *    out(a)) or edge-centric (a warp per run of KERN_CLIQUE_CHUNK edges
 *    a -> b, the subgraph induced by out(a) ∩ out(b): smaller subgraphs,
 *    finer work, built more often). Auto: edge-centric from K = 5 (the
 *    paper: from 6; src/pipeline_gpu.c says what the H100 measured).
 *  - group: orientation splits a warp into groups of `group` lanes (1, 2,
 *    4, 8, 16 or 32), each walking the subtree below one vertex of the
 *    first level on its own (sub-warp partitioning, section 3.5); pivoting
 *    keeps the warp together and gives a lane to each pivot candidate.
 */
enum kern_clique_scheme {
	KERN_CLIQUE_SCHEME_AUTO,
	KERN_CLIQUE_VERTEX,
	KERN_CLIQUE_EDGE,
};

int kern_clique_scheme_parse(const char *s, enum kern_clique_scheme *out);
const char *kern_clique_scheme_name(enum kern_clique_scheme s);

struct kern_clique_gpu {
	unsigned k;                     /* 1 with all */
	int pivot;
	enum kern_clique_scheme scheme; /* resolved: vertex or edge */
	unsigned group;                 /* orientation: lanes a group, a power of 2 <= 32 */
	int all; /* every size (--k-all): pivoting, vertex-centric, k 1 */
};

/*
 * Tiers: a source whose out-list holds n vertices needs a warp with n x n
 * bits of rows, so sources are filed by n into tiers, tier 0 for n <=
 * KERN_CLIQUE_SMALL and tier t > 0 for KERN_CLIQUE_SMALL << (t - 1) < n <=
 * KERN_CLIQUE_SMALL << t. Each tier runs on warps sized for its own
 * longest list, one tier after another, each with the part's whole pool
 * of scratch: a pool that holds a few warps sized for a hub holds many
 * more for the many lists just over KERN_CLIQUE_SMALL. (With one class
 * sized for each part's longest list, the count at a quarter of R-MAT 20's
 * file took 19.5 s against 0.07 s in memory; with tiers 1.5 s:
 * bench/RESULTS.md, 2026-11-24, fifth session.)
 */
#define KERN_CLIQUE_SMALL 128
#define KERN_CLIQUE_TIERS 26 /* KERN_CLIQUE_SMALL << 25 = 2^32 */
/* Edges an edge-centric unit takes (one atomic hands them out). */
#define KERN_CLIQUE_CHUNK 8
/* Warps a block; a tier runs on at least one block. */
#define KERN_CLIQUE_MIN_WARPS 4
/* Warps a multiprocessor runs at most, tier 0 and the others: the launch's
 * caps, and what a planner reserves room for. */
#define KERN_CLIQUE_SMALL_WARPS_PER_SM 32
#define KERN_CLIQUE_LARGE_WARPS_PER_SM 16

/* Helpers both kernels use (host, and device under nvcc). */
#ifdef __CUDACC__
#define KERN_CLIQUE_HD __host__ __device__
#else
#define KERN_CLIQUE_HD
#endif

/* The tier of an out-list of n vertices. */
static inline KERN_CLIQUE_HD unsigned kern_clique_tier(uint32_t n)
{
	const uint32_t q = n ? (n - 1) / KERN_CLIQUE_SMALL : 0;
	unsigned t = 0;
	while (q >> t)
		t++;
	return t;
}

/* The longest out-list a warp of tier t meets where no list passes max_out. */
static inline uint32_t kern_clique_tier_n(unsigned t, uint32_t max_out)
{
	const uint64_t top = (uint64_t)KERN_CLIQUE_SMALL << t;
	return top < max_out ? (uint32_t)top : max_out;
}

/*
 * Levels of w words an orientation group's stack holds: below a (and, edge-
 * centric, b) the group takes the first level's vertex from the rows, the
 * walk stacks one candidate set a level while three or more vertices are
 * still to be chosen, and sums the last two at once: K - 4 levels at most
 * (vertex-centric; edge-centric one fewer).
 */
static inline KERN_CLIQUE_HD unsigned kern_clique_stack_levels(unsigned k)
{
	return k > 4 ? k - 4 : 0;
}

/*
 * A warp's scratch for subgraphs of up to max_n vertices, in 32-bit words,
 * each part 256-byte aligned: the subgraph (edge-centric, the common list
 * of w * 32 words; the bit rows, max_n x w) and the walk's stack
 * (orientation: a group's kern_clique_stack_levels of w words; pivoting:
 * candidate sets, max_n + 2 levels of two, and three words of state a
 * level).
 */
static inline KERN_CLIQUE_HD uint64_t kern_clique_rows_words(uint32_t max_n,
							     const struct kern_clique_gpu *c)
{
	const uint64_t n = max_n ? max_n : 1, w = (n + 31) / 32;
	return ((c->scheme == KERN_CLIQUE_EDGE ? w * 32 : 0) + n * w + 63) & ~(uint64_t)63;
}

static inline KERN_CLIQUE_HD uint64_t kern_clique_stack_words(uint32_t max_n,
							      const struct kern_clique_gpu *c)
{
	const uint64_t n = max_n ? max_n : 1, w = (n + 31) / 32;
	uint64_t words = c->pivot ? (n + 2) * 2 * w + 3 * (n + 2)
				  : (32 / c->group) * (uint64_t)kern_clique_stack_levels(c->k) * w;
	if (c->all) /* the warp's count a size, n + 2 of 64 bits, 8-byte aligned */
		words = (words + 1) / 2 * 2 + 2 * (n + 2);
	return (words + 63) & ~(uint64_t)63;
}

static inline uint64_t kern_clique_warp_words(uint32_t max_n, const struct kern_clique_gpu *c)
{
	return kern_clique_rows_words(max_n, c) + kern_clique_stack_words(max_n, c);
}

/*
 * Shared memory: where a tier-0 warp's stack fits KERN_CLIQUE_SHARED_WORDS
 * (orientation up to K = 16 with groups of one lane; pivoting's sets for
 * lists of 128), tier 0 keeps it in the block's shared memory, its rows in
 * the pool. The paper (section 3.3) keeps the stack's small parts in shared
 * memory and its vertex arrays in global memory. Rows in shared memory too
 * were measured and not kept: the shared memory a block takes comes out of
 * the L1 cache that holds every other tier's rows, and the count was no
 * faster (R-MAT 22, K = 5: 8% slower; bench/RESULTS.md, 2026-11-24 sixth
 * session). The bound lets a multiprocessor hold tier 0's
 * KERN_CLIQUE_SMALL_WARPS_PER_SM warps. A property of the configuration
 * alone (tier 0's lists are at most KERN_CLIQUE_SMALL long in every part),
 * so the result can say what ran.
 */
#define KERN_CLIQUE_SHARED_WORDS 1536u

static inline int kern_clique_tier_shared(unsigned t, const struct kern_clique_gpu *c)
{
	return t == 0 && kern_clique_stack_words(KERN_CLIQUE_SMALL, c) <= KERN_CLIQUE_SHARED_WORDS;
}

/* Words of a warp of tier t (lists up to max_n) in the pool. */
static inline uint64_t kern_clique_pool_words(unsigned t, uint32_t max_n,
					      const struct kern_clique_gpu *c)
{
	return kern_clique_tier_shared(t, c) ? kern_clique_rows_words(max_n, c)
					     : kern_clique_warp_words(max_n, c);
}

/* Warps tier t runs at most on sms multiprocessors. */
static inline uint64_t kern_clique_tier_warps(unsigned t, int sms)
{
	return (uint64_t)sms * (t ? KERN_CLIQUE_LARGE_WARPS_PER_SM : KERN_CLIQUE_SMALL_WARPS_PER_SM);
}

/* Pool bytes a part whose out-lists reach max_out needs at least: a block
 * of warps of its top tier (the lower tiers' are smaller). */
static inline uint64_t kern_clique_pool_least(uint32_t max_out, const struct kern_clique_gpu *c)
{
	return kern_clique_pool_words(kern_clique_tier(max_out), max_out, c) * 4 *
	       KERN_CLIQUE_MIN_WARPS;
}

/* Pool bytes that let every tier run as many warps as it may at once. */
static inline uint64_t kern_clique_pool_full(uint32_t max_out, const struct kern_clique_gpu *c,
					     int sms)
{
	uint64_t full = 0;
	for (unsigned t = 0; t <= kern_clique_tier(max_out); t++) {
		const uint64_t b = kern_clique_pool_words(t, kern_clique_tier_n(t, max_out), c) * 4 *
				   kern_clique_tier_warps(t, sms);
		full = b > full ? b : full;
	}
	return full;
}

/* Scratch besides the pool: per source, its place in the tiers' list (4
 * bytes) and its units, scanned in place (8 bytes), and room for CUB's
 * scan; fixed, the control words and that scan's state. */
#define KERN_CLIQUE_PREP_PER_SRC 14u
#define KERN_CLIQUE_PREP_FIXED (16u << 10)

/* With all, the part's count a size (64 bits each, sizes 1 to max_out + 2),
 * beside the prep; 256-byte aligned. */
static inline uint64_t kern_clique_sizes_bytes(uint32_t max_out, const struct kern_clique_gpu *c)
{
	return c->all ? (((uint64_t)max_out + 2) * 8 + 255) & ~(uint64_t)255 : 0;
}


/* *sum += x, or *ovf set where it passes 2^64 - 1. */
static inline KERN_CLIQUE_HD void kern_clique_add(uint64_t *sum, uint64_t x, int *ovf)
{
	const uint64_t s = *sum + x;
	if (s < *sum)
		*ovf = 1;
	*sum = s;
}

/* C(p, r) exactly, or *ovf set (and 0) where it passes 2^64 - 1. */
static inline KERN_CLIQUE_HD uint64_t kern_clique_binom(uint64_t p, uint64_t r, int *ovf)
{
	if (r > p)
		return 0;
	if (r > p - r)
		r = p - r;
	unsigned __int128 c = 1;
	for (uint64_t i = 0; i < r; i++) {
		c = c * (p - i) / (i + 1); /* exact: a product of i + 1 consecutive integers */
		if (c > (unsigned __int128)UINT64_MAX) {
			*ovf = 1;
			return 0;
		}
	}
	return (uint64_t)c;
}

#ifdef __cplusplus
}
#endif

#endif
