/*
 * clique.cu - k-clique counting on the GPU (contract and methods:
 * kernels/clique.h).
 *
 * Technique (Almasri, Chang, El Hajj, Nagi, Xiong and Hwu, "Parallel
 * K-clique counting on GPUs", ICS 2022), on the oriented graph:
 *  - work: vertex-centric (a warp takes a source a and the subgraph induced
 *    by out(a)) or edge-centric (a warp takes a run of edges a -> b and, for
 *    each, the subgraph induced by out(a) ∩ out(b)); units are handed out
 *    one atomic at a time, so hubs do not hold the others back (section 3.2,
 *    3.6: as many warps as run at once, each reusing its scratch).
 *  - the induced subgraph as binary-encoded rows, a bitset per member, so
 *    every intersection is a word AND and a popcount (section 3.4).
 *  - orientation with sub-warp groups (section 3.5): after the warp has
 *    built the rows, groups of 1 to 32 lanes each take a vertex of the
 *    first level and walk its subtree alone with an explicit stack (no
 *    recursion, section 3.3); the last two levels are summed at once (a
 *    lane per candidate, its row ANDed with the candidates). Tier 0's
 *    warps keep their stacks in shared memory where they fit
 *    (kern_clique_tier_shared); rows, and the other tiers' stacks, lie in
 *    a pool of global scratch.
 *  - every size at once (--k-all, pivoting): a leaf of h held and p pivots
 *    adds C(p, j) cliques of h + j vertices, a lane per j, into the warp's
 *    own counts, added into the part's once at the warp's end.
 *  - pivoting (Jain and Seshadhri, hybrid as in the paper: the levels of a
 *    and, edge-centric, b oriented): the warp walks the succinct clique
 *    tree together, a lane per candidate to find the pivot (the candidate
 *    with the most neighbours among the candidates). A leaf adds C(p, K - h).
 * Tiers of units (kernels/clique.h), so that a part of any size keeps the
 * GPU busy: sources are filed by out-list length, and each tier runs on
 * warps sized for its own longest list, as many as the pool holds: all
 * tiers in one launch where the pool holds them at once, else one after
 * another, the hubs' first.
 * Input: a partition (kernels/dag.h) whose lists increase; scratch as
 * clique_launch says. Counts: 64-bit per warp, added with an overflow check
 * (a count past 2^64 - 1 sets c->overflow: the host fails, never wraps).
 * When it wins: against the CPU backend everywhere measured
 * (bench/RESULTS.md); the scheme and group size per K and graph as
 * measured there.
 */
#include "kernels/clique.h"
#include "kernels/gpu_internal.cuh"

#include <cub/device/device_scan.cuh>

#define CQ_NONE 0xffffffffu
#define CQ_FULL 0xffffffffu

typedef struct kern_clique_gpu cq_conf;

/* A group of `size` lanes of the warp (a power of 2), as the lane sees it. */
struct cq_grp {
	unsigned size, base, lane, mask;
};

__device__ __forceinline__ cq_grp cq_group(unsigned size)
{
	const unsigned lane = threadIdx.x & 31;
	cq_grp g;
	g.size = size;
	g.base = lane & ~(size - 1);
	g.lane = lane - g.base;
	g.mask = size == 32 ? CQ_FULL : ((1u << size) - 1) << g.base;
	return g;
}

template <typename T> __device__ __forceinline__ T grp_sum(T x, const cq_grp &g)
{
	for (unsigned o = g.size >> 1; o; o >>= 1)
		x += __shfl_xor_sync(g.mask, x, o);
	return x;
}

/* The first set bit of s (w words) at or after `from`, CQ_NONE if none;
 * the same on every lane of g. */
__device__ uint32_t grp_next(const uint32_t *s, uint32_t w, uint32_t from, const cq_grp &g)
{
	const unsigned own = g.size == 32 ? CQ_FULL : (1u << g.size) - 1;
	for (uint32_t base = from / 32; base < w; base += g.size) {
		const uint32_t x = base + g.lane;
		uint32_t v = x < w ? s[x] : 0;
		if (x == from / 32)
			v &= ~0u << (from % 32);
		const unsigned any = __ballot_sync(g.mask, v != 0) >> g.base & own;
		if (any) {
			const unsigned first = __ffs(any) - 1;
			const uint32_t word = __shfl_sync(g.mask, v, g.base + first);
			return (base + first) * 32 + (__ffs(word) - 1);
		}
	}
	return CQ_NONE;
}

/* dst = a & b over w words; its popcount on every lane of g. */
__device__ __forceinline__ uint32_t grp_and(uint32_t *dst, const uint32_t *a, const uint32_t *b,
					    uint32_t w, const cq_grp &g)
{
	__syncwarp(g.mask); /* dst may still be read by the group */
	uint32_t c = 0;
	for (uint32_t x = g.lane; x < w; x += g.size) {
		const uint32_t v = a[x] & b[x];
		dst[x] = v;
		c += __popc(v);
	}
	__syncwarp(g.mask);
	return grp_sum(c, g);
}

__device__ __forceinline__ uint32_t grp_popc(const uint32_t *s, uint32_t w, const cq_grp &g)
{
	uint32_t c = 0;
	for (uint32_t x = g.lane; x < w; x += g.size)
		c += __popc(s[x]);
	return grp_sum(c, g);
}

/* The edges among the members of s in the DAG rows: a lane per member.
 * (Members are in id order, the DAG's direction is rank order: a row may
 * hold earlier members too.) */
__device__ uint64_t grp_edges(const uint32_t *rows, uint32_t w, const uint32_t *s, const cq_grp &g)
{
	unsigned long long e = 0;
	for (uint32_t x = 0; x < w; x++) {
		const uint32_t bits = s[x];
		for (unsigned b = g.lane; b < 32; b += g.size)
			if (bits >> b & 1) {
				const uint32_t *r = rows + (uint64_t)(x * 32 + b) * w;
				for (uint32_t y = 0; y < w; y++)
					e += __popc(s[y] & r[y]);
			}
	}
	return grp_sum(e, g);
}

/* The cliques of `need` vertices (>= 1) among the members of s in the DAG
 * rows, walked depth first by group g with its stack (K levels of w). */
__device__ uint64_t grp_orient(const uint32_t *rows, uint32_t w, const uint32_t *s, unsigned need,
			       uint32_t *stack, const cq_grp &g, int *ovf)
{
	if (need == 1)
		return grp_popc(s, w, g);
	if (need == 2)
		return grp_edges(rows, w, s, g);
	uint32_t cur[KERN_CLIQUE_MAX_K]; /* the same on every lane of g */
	uint64_t total = 0;
	int l = 0;
	cur[0] = 0;
	while (l >= 0) {
		const uint32_t *c = l ? stack + (uint64_t)(l - 1) * w : s;
		const unsigned nd = need - (unsigned)l;
		if (nd == 2) {
			kern_clique_add(&total, grp_edges(rows, w, c, g), ovf);
			l--;
			continue;
		}
		const uint32_t j = grp_next(c, w, cur[l], g);
		if (j == CQ_NONE) {
			l--;
			continue;
		}
		cur[l] = j + 1;
		if (grp_and(stack + (uint64_t)l * w, c, rows + (uint64_t)j * w, w, g) >= nd - 1) {
			l++;
			cur[l] = 0;
		}
	}
	return total;
}

/* The subgraph induced by L (n ids, increasing): rows[i] bit j where
 * L[i] -> L[j] (sym: both ways). Lanes over the shorter of out(L[i]) and
 * L, binary searching the other. The whole warp. */
__device__ void cq_rows(const dev_dag &d, const uint32_t *L, uint32_t n, uint32_t w, int sym,
			uint32_t *rows, unsigned lane)
{
	for (uint64_t x = lane; x < (uint64_t)n * w; x += 32)
		rows[x] = 0;
	__syncwarp();
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t *o = d.adj + d.off[L[i]];
		const uint32_t no = (uint32_t)(d.off[L[i] + 1] - d.off[L[i]]);
		if (no <= n) {
			for (uint32_t t = lane; t < no; t += 32) {
				const uint32_t j = (uint32_t)dev_lower_bound(L, 0, n, o[t]);
				if (j < n && L[j] == o[t]) {
					atomicOr(&rows[(uint64_t)i * w + j / 32], 1u << (j % 32));
					if (sym)
						atomicOr(&rows[(uint64_t)j * w + i / 32], 1u << (i % 32));
				}
			}
		} else {
			for (uint32_t j = lane; j < n; j += 32) {
				const uint64_t p = dev_lower_bound(o, 0, no, L[j]);
				if (p < no && o[p] == L[j]) {
					atomicOr(&rows[(uint64_t)i * w + j / 32], 1u << (j % 32));
					if (sym)
						atomicOr(&rows[(uint64_t)j * w + i / 32], 1u << (i % 32));
				}
			}
		}
	}
	__syncwarp();
}

/* A ∩ B (both increasing) into out, in order; its size. The whole warp:
 * lanes over the shorter list, binary searching the longer. */
__device__ uint32_t cq_common(const uint32_t *A, uint32_t na, const uint32_t *B, uint32_t nb,
			      uint32_t *out, unsigned lane)
{
	const uint32_t *I = na <= nb ? A : B, *S = na <= nb ? B : A;
	const uint32_t ni = na <= nb ? na : nb, ns = na <= nb ? nb : na;
	uint32_t m = 0;
	for (uint32_t base = 0; base < ni; base += 32) {
		const uint32_t t = base + lane;
		uint32_t v = 0;
		int in = 0;
		if (t < ni) {
			v = I[t];
			const uint64_t p = dev_lower_bound(S, 0, ns, v);
			in = p < ns && S[p] == v;
		}
		const unsigned bal = __ballot_sync(CQ_FULL, in);
		if (in)
			out[m + __popc(bal & ((1u << lane) - 1))] = v;
		m += __popc(bal);
	}
	__syncwarp();
	return m;
}

/* Orientation over the rows of n members: groups take the first level's
 * vertices one at a time (from the warp's counter q) and count the cliques
 * of `need` more vertices below each. */
__device__ uint64_t cq_orient(const uint32_t *rows, uint32_t n, uint32_t w, unsigned need,
			      uint32_t *stacks, unsigned k, unsigned group, unsigned *q, int *ovf)
{
	const cq_grp g = cq_group(group);
	uint32_t *stack = stacks + (uint64_t)(g.base / group) * kern_clique_stack_levels(k) * w;
	uint64_t total = 0;
	if (g.base + g.lane == 0)
		*q = 0;
	__syncwarp();
	for (;;) {
		unsigned j = 0;
		if (g.lane == 0)
			j = atomicAdd(q, 1u);
		j = __shfl_sync(g.mask, j, g.base);
		if (j >= n)
			break;
		kern_clique_add(&total, grp_orient(rows, w, rows + (uint64_t)j * w, need, stack, g, ovf),
				ovf);
	}
	__syncwarp();
	if (g.lane != 0) /* a group's lanes all hold its sum */
		total = 0;
	return total;
}

/* A leaf of h held and p pivots, every size (all): C(p, j) cliques of h +
 * j vertices for j = 0 .. p, a lane per j, into the warp's counts; *top
 * (the same on every lane) the largest size met. */
__device__ __forceinline__ void cq_leaf_all(unsigned long long *cnt, uint32_t h, uint32_t p,
					    unsigned lane, uint32_t *top, int *ovf)
{
	for (uint32_t j = lane; j <= p; j += 32) {
		uint64_t c = cnt[h + j - 1];
		kern_clique_add(&c, kern_clique_binom(p, j, ovf), ovf);
		cnt[h + j - 1] = c;
	}
	*top = h + p > *top ? h + p : *top;
}

/* Pivoting over the symmetric rows of n members, h0 vertices already held
 * (the oriented levels); a level holds its candidates P and the branches
 * left (todo), hs/ps the held and pivot counts. The whole warp. With cnt
 * (all): every size into cnt, nothing pruned by K, and 0 returned. */
__device__ uint64_t cq_pivot(const uint32_t *sym, uint32_t n, uint32_t w, unsigned k, uint32_t h0,
			     uint32_t *sets, uint32_t *state, unsigned long long *cnt, uint32_t *top,
			     unsigned lane, int *ovf)
{
	uint64_t total = 0;
	uint32_t *hs = state, *ps = state + (n + 2), *cur = state + 2 * (n + 2);
	uint32_t *P0 = sets;
	for (uint32_t x = lane; x < w; x += 32)
		P0[x] = x + 1 < w || n % 32 == 0 ? ~0u : (1u << (n % 32)) - 1;
	const cq_grp warp = cq_group(32);
	int l = 0;
	uint32_t h = h0, p = 0;
	int entering = 1;
	while (l >= 0) {
		uint32_t *P = sets + (uint64_t)l * 2 * w, *todo = P + w;
		if (entering) {
			entering = 0;
			__syncwarp();
			const uint32_t size = grp_popc(P, w, warp);
			if (!cnt && h == k) { /* one leaf below keeps exactly these h */
				kern_clique_add(&total, 1, ovf);
				l--;
				goto resume;
			}
			if (!cnt && h + p + size < k) {
				l--;
				goto resume;
			}
			if (size == 0) {
				if (cnt)
					cq_leaf_all(cnt, h, p, lane, top, ovf);
				else
					kern_clique_add(&total, kern_clique_binom(p, k - h, ovf), ovf);
				l--;
				goto resume;
			}
			/* the pivot: a lane per candidate, then the warp's argmax */
			uint32_t best = 0, bu = CQ_NONE;
			for (uint32_t x = 0; x < w; x++) {
				const uint32_t bits = P[x];
				if (bits >> lane & 1) {
					const uint32_t u = x * 32 + lane, *r = sym + (uint64_t)u * w;
					uint32_t c = 0;
					for (uint32_t y = 0; y < w; y++)
						c += __popc(P[y] & r[y]);
					if (bu == CQ_NONE || c > best) {
						best = c;
						bu = u;
					}
				}
			}
			for (int o = 16; o > 0; o >>= 1) {
				const uint32_t ob = __shfl_xor_sync(CQ_FULL, best, o);
				const uint32_t ou = __shfl_xor_sync(CQ_FULL, bu, o);
				if (ou != CQ_NONE && (bu == CQ_NONE || ob > best || (ob == best && ou < bu))) {
					best = ob;
					bu = ou;
				}
			}
			const uint32_t *ru = sym + (uint64_t)bu * w;
			uint32_t *child = P + 2 * w;
			for (uint32_t x = lane; x < w; x += 32) {
				todo[x] = P[x] & ~ru[x];
				child[x] = P[x] & ru[x];
			}
			__syncwarp();
			if (lane == 0) {
				todo[bu / 32] &= ~(1u << (bu % 32));
				P[bu / 32] &= ~(1u << (bu % 32));
				hs[l] = h;
				ps[l] = p;
				cur[l] = 0;
			}
			__syncwarp();
			l++;
			p++; /* the pivot's child: h held, p + 1 pivots */
			entering = 1;
			continue;
		}
	resume:
		if (l < 0)
			break;
		{
			P = sets + (uint64_t)l * 2 * w;
			todo = P + w;
			__syncwarp();
			const uint32_t v = grp_next(todo, w, cur[l], warp);
			__syncwarp();
			if (v == CQ_NONE) {
				l--;
				goto resume;
			}
			const uint32_t *rv = sym + (uint64_t)v * w;
			uint32_t *child = P + 2 * w;
			for (uint32_t x = lane; x < w; x += 32)
				child[x] = P[x] & rv[x];
			__syncwarp();
			if (lane == 0) {
				cur[l] = v + 1;
				P[v / 32] &= ~(1u << (v % 32));
			}
			h = hs[l] + 1;
			p = ps[l];
			__syncwarp();
			l++;
			entering = 1;
		}
	}
	return lane == 0 ? total : 0;
}

/* A warp's scratch for subgraphs of up to maxn members (clique.h): the
 * subgraph at ws, the stack at stack. */
struct cq_space {
	uint32_t *list, *rows, *sets, *state;
	unsigned long long *cnt; /* all: the warp's count a size */
};

__device__ __forceinline__ cq_space cq_carve(uint32_t *ws, uint32_t *stack, uint32_t maxn,
					     int edge)
{
	const uint64_t n = maxn ? maxn : 1, w = (n + 31) / 32;
	cq_space sp;
	sp.list = ws; /* edge-centric only */
	sp.rows = ws + (edge ? w * 32 : 0);
	sp.sets = stack;
	sp.state = sp.sets + (n + 2) * 2 * w; /* pivoting's */
	sp.cnt = (unsigned long long *)(stack + ((n + 2) * 2 * w + 3 * (n + 2) + 1) / 2 * 2);
	return sp;
}

/* The K-cliques of one subgraph of n members listed in L, `held` of their
 * vertices already chosen (1: a; 2: a and b). */
__device__ uint64_t cq_subgraph(const dev_dag &d, const cq_conf &cf, const uint32_t *L, uint32_t n,
				unsigned held, const cq_space &sp, unsigned *q, uint32_t *top, int *ovf)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t w = (n + 31) / 32;
	cq_rows(d, L, n, w, cf.pivot, sp.rows, lane);
	if (cf.pivot)
		return cq_pivot(sp.rows, n, w, cf.k, held, sp.sets, sp.state, cf.all ? sp.cnt : nullptr,
				top, lane, ovf);
	/* a group per vertex of the next level, counting K - held - 1 below it */
	return cq_orient(sp.rows, n, w, cf.k - held - 1, sp.sets, cf.k, cf.group, q, ovf);
}

/* The control words and the tiers' list a launch fills before counting. */
struct cq_prep {
	unsigned *cnt;            /* [KERN_CLIQUE_TIERS]: sources a tier */
	unsigned *fill;           /* [KERN_CLIQUE_TIERS]: sources filed so far */
	unsigned *start;          /* [KERN_CLIQUE_TIERS + 1]: a tier's first entry */
	unsigned long long *next; /* [KERN_CLIQUE_TIERS]: units handed out a tier */
	uint32_t *list;           /* nsrc: the sources, tier after tier */
	unsigned long long *pre;  /* nsrc + 1: units before each entry */
	unsigned long long *sizes; /* all: the part's count a size (size j at j - 1) */
};

/* Source x's tier, or -1 where it heads no K-clique (out-degree below
 * K - 1); its out-list length in *n. */
__device__ __forceinline__ int cq_tier_of(const dev_dag &d, uint64_t x, unsigned k, uint32_t *a,
					  uint32_t *n)
{
	if (x >= d.nsrc)
		return -1;
	*a = d.src[x];
	*n = (uint32_t)(d.off[*a + 1] - d.off[*a]);
	return *n + 1 >= k ? (int)kern_clique_tier(*n) : -1;
}

/* Adds 1 to ctr[t] for each lane of the warp with tier t >= 0, an atomic a
 * tier the warp holds; each lane's place among its tier's. */
__device__ __forceinline__ unsigned cq_warp_add(unsigned *ctr, int t)
{
	const unsigned lane = threadIdx.x & 31;
	const unsigned peers = __match_any_sync(CQ_FULL, t);
	const unsigned lead = __ffs(peers) - 1;
	unsigned at = 0;
	if (t >= 0 && lane == lead)
		at = atomicAdd(&ctr[t], (unsigned)__popc(peers));
	at = __shfl_sync(CQ_FULL, at, lead);
	return at + __popc(peers & ((1u << lane) - 1));
}

/* Counts the sources of each tier. */
__global__ void clique_tally(dev_dag d, unsigned k, cq_prep p)
{
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); base < d.nsrc;
	     base += stride) {
		uint32_t a, n;
		cq_warp_add(p.cnt, cq_tier_of(d, base + (threadIdx.x & 31), k, &a, &n));
	}
}

/* Each tier's first entry in the list (one thread). */
__global__ void clique_starts(cq_prep p)
{
	unsigned at = 0;
	for (int t = 0; t < KERN_CLIQUE_TIERS; t++) {
		p.start[t] = at;
		at += p.cnt[t];
	}
	p.start[KERN_CLIQUE_TIERS] = at;
}

/* Files each source heading a K-clique in its tier, with its units (1, or
 * its runs of edges), to be scanned into the units before it. */
__global__ void clique_file(dev_dag d, unsigned k, int edge, cq_prep p)
{
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); base < d.nsrc;
	     base += stride) {
		uint32_t a = 0, n = 0;
		const int t = cq_tier_of(d, base + (threadIdx.x & 31), k, &a, &n);
		const unsigned at = cq_warp_add(p.fill, t);
		if (t >= 0) {
			const uint64_t i = p.start[t] + at;
			p.list[i] = a;
			p.pre[i] = edge ? (n + KERN_CLIQUE_CHUNK - 1) / KERN_CLIQUE_CHUNK : 1;
		}
	}
}

/* Tiers that run at once, in one launch: tier[r] on blocks first[r] ..
 * first[r + 1] - 1, its warps of words[r] words (sized for maxn[r]) from
 * word at[r] of the pool on; shared[r]: their stacks (stack[r] words a
 * warp) in the block's shared memory, not the pool (kern_clique_tier_shared). */
struct cq_run {
	unsigned n;
	unsigned tier[KERN_CLIQUE_TIERS], first[KERN_CLIQUE_TIERS + 1];
	uint32_t maxn[KERN_CLIQUE_TIERS];
	uint64_t words[KERN_CLIQUE_TIERS], at[KERN_CLIQUE_TIERS], stack[KERN_CLIQUE_TIERS];
	int shared[KERN_CLIQUE_TIERS];
};

__global__ void __launch_bounds__(KERN_CLIQUE_MIN_WARPS * 32)
	clique_kernel(dev_dag d, cq_conf cf, cq_prep p, cq_run run, uint32_t *pool, dev_counters *c)
{
	__shared__ unsigned q[KERN_CLIQUE_MIN_WARPS];
	extern __shared__ __align__(16) uint32_t cq_shared[]; /* the launch's shared tier's warps */
	const unsigned lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
	unsigned r = 0;
	while (r + 1 < run.n && blockIdx.x >= run.first[r + 1])
		r++;
	const unsigned t = run.tier[r];
	const uint64_t warp = (uint64_t)(blockIdx.x - run.first[r]) * KERN_CLIQUE_MIN_WARPS + wib;
	const int edge = cf.scheme == KERN_CLIQUE_EDGE;
	uint32_t *const ws = pool + run.at[r] + warp * run.words[r];
	const uint64_t rows = kern_clique_rows_words(run.maxn[r], &cf);
	const cq_space sp = cq_carve(ws, run.shared[r] ? cq_shared + wib * run.stack[r] : ws + rows,
				     run.maxn[r], edge);
	const uint64_t lo = p.start[t], hi = p.start[t + 1];
	const unsigned long long u_lo = p.pre[lo], u_hi = p.pre[hi];
	uint64_t total = 0;
	uint32_t top = 0; /* all: the largest size this warp met */
	int ovf = 0;
	if (cf.all) {
		for (uint32_t i = lane; i < run.maxn[r] + 2; i += 32)
			sp.cnt[i] = 0;
		__syncwarp();
	}
	for (;;) {
		unsigned long long u = 0;
		if (lane == 0)
			u = u_lo + atomicAdd(&p.next[t], 1ull);
		u = __shfl_sync(CQ_FULL, u, 0);
		if (u >= u_hi)
			break;
		uint64_t e_lo = lo, e_hi = hi; /* the entry whose units hold u */
		while (e_hi - e_lo > 1) {
			const uint64_t m = (e_lo + e_hi) / 2;
			if (p.pre[m] <= u)
				e_lo = m;
			else
				e_hi = m;
		}
		const uint32_t a = p.list[e_lo];
		const uint32_t *La = d.adj + d.off[a];
		const uint32_t n = (uint32_t)(d.off[a + 1] - d.off[a]);
		if (!edge) {
			kern_clique_add(&total, cq_subgraph(d, cf, La, n, 1, sp, &q[wib], &top, &ovf),
					&ovf);
			continue;
		}
		/* out(a) ∩ out(b) over the whole of out(a): lists are in id order,
		 * which is not the rank order that directs the edges */
		const uint32_t i0 = (uint32_t)(u - p.pre[e_lo]) * KERN_CLIQUE_CHUNK;
		const uint32_t i1 = min(i0 + KERN_CLIQUE_CHUNK, n);
		for (uint32_t i = i0; i < i1; i++) {
			const uint32_t b = La[i];
			const uint32_t m = cq_common(La, n, d.adj + d.off[b],
						     (uint32_t)(d.off[b + 1] - d.off[b]), sp.list, lane);
			if (m + 2 >= cf.k)
				kern_clique_add(&total,
						cq_subgraph(d, cf, sp.list, m, 2, sp, &q[wib], &top, &ovf),
						&ovf);
		}
	}
	/* each lane holds its share (a group's first lane its group's): their
	 * sum, checked for passing 2^64 - 1 as every addition is */
	for (int o = 16; o > 0; o >>= 1) {
		const uint64_t other = __shfl_xor_sync(CQ_FULL, total, o);
		kern_clique_add(&total, other, &ovf);
	}
	__syncwarp();
	for (uint32_t i = lane; cf.all && i < top; i += 32) { /* all: the warp's sizes */
		const unsigned long long v = sp.cnt[i];
		if (v && atomicAdd(&p.sizes[i], v) + v < v)
			ovf = 1;
	}
	ovf = __any_sync(CQ_FULL, ovf);
	if (lane == 0) {
		const unsigned long long old = atomicAdd(&c->triangles, (unsigned long long)total);
		if (ovf || old + total < old)
			atomicOr(&c->overflow, 1u);
	}
}

static uint64_t align256(uint64_t x) { return (x + 255) & ~(uint64_t)255; }

cudaError_t clique_launch(const dev_dag &d, const struct kern_clique_gpu *cf, uint32_t max_out,
			  uint8_t *scratch, uint64_t scratch_bytes, unsigned long long *sizes,
			  dev_counters *c, int sms, cudaStream_t s)
{
	if (d.nsrc == 0)
		return cudaSuccess;
	const uint64_t nsrc = d.nsrc, entries = nsrc + 1;
	size_t scan_bytes = 0;
	cudaError_t e = cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, (unsigned long long *)nullptr,
						      (unsigned long long *)nullptr, (int64_t)entries, s);
	if (e != cudaSuccess)
		return e;
	cq_prep p;
	uint8_t *at = scratch;
	p.cnt = (unsigned *)at;
	p.fill = p.cnt + KERN_CLIQUE_TIERS;
	p.start = p.fill + KERN_CLIQUE_TIERS;
	p.next = (unsigned long long *)(at + 512);
	at += 1024;
	p.list = (uint32_t *)at;
	at += align256(4 * nsrc);
	p.sizes = sizes;
	p.pre = (unsigned long long *)at;
	at += align256(8 * entries);
	uint8_t *scan_tmp = at;
	at += align256(scan_bytes);
	const uint64_t prep = (uint64_t)(at - scratch);
	const uint64_t top = kern_clique_tier(max_out);
	if (scratch_bytes < prep + kern_clique_pool_least(max_out, cf))
		return cudaErrorMemoryAllocation; /* the caller sized the scratch: not reached */
	const uint64_t pool_bytes = scratch_bytes - prep;
	uint32_t *pool = (uint32_t *)(scratch + prep);
	if (cf->all && (e = cudaMemsetAsync(sizes, 0, ((uint64_t)max_out + 2) * 8, s)) != cudaSuccess)
		return e;
	if ((e = cudaMemsetAsync(scratch, 0, 1024, s)) != cudaSuccess ||
	    (e = cudaMemsetAsync(p.pre, 0, 8 * entries, s)) != cudaSuccess)
		return e;
	const uint64_t cblocks = (nsrc + 255) / 256;
	const unsigned grid = (unsigned)(cblocks < (uint64_t)sms * 8 ? cblocks : (uint64_t)sms * 8);
	clique_tally<<<grid, 256, 0, s>>>(d, cf->k, p);
	GPU_LAUNCHED();
	clique_starts<<<1, 1, 0, s>>>(p);
	GPU_LAUNCHED();
	clique_file<<<grid, 256, 0, s>>>(d, cf->k, cf->scheme == KERN_CLIQUE_EDGE, p);
	GPU_LAUNCHED();
	e = cub::DeviceScan::ExclusiveSum(scan_tmp, scan_bytes, p.pre, p.pre, (int64_t)entries, s);
	if (e != cudaSuccess)
		return e;
	/* Tiers run together while the pool holds each at its most warps (in
	 * memory: all of them, so that no tier's last long units leave the GPU
	 * idle); a tier that does not fit beside the others runs after them,
	 * on the whole pool. The hubs' tier first: its units are the longest. */
	cq_run run;
	run.n = 0;
	run.first[0] = 0;
	uint64_t used = 0, shared = 0; /* shared: bytes a block of the launch */
	for (int64_t t = (int64_t)top; t >= 0; t--) {
		const uint32_t maxn = kern_clique_tier_n((unsigned)t, max_out);
		const uint64_t words = kern_clique_pool_words((unsigned)t, maxn, cf);
		const uint64_t blk = words * 4 * KERN_CLIQUE_MIN_WARPS;
		const uint64_t most = kern_clique_tier_warps((unsigned)t, sms) / KERN_CLIQUE_MIN_WARPS;
		const int in_shared = kern_clique_tier_shared((unsigned)t, cf);
		const uint64_t stack = kern_clique_stack_words(maxn, cf);
		const uint64_t sblk = in_shared ? stack * 4 * KERN_CLIQUE_MIN_WARPS : 0;
		if (run.n && used + most * blk > pool_bytes) { /* after the tiers so far */
			clique_kernel<<<run.first[run.n], KERN_CLIQUE_MIN_WARPS * 32, shared, s>>>(
				d, *cf, p, run, pool, c);
			GPU_LAUNCHED();
			run.n = 0;
			used = shared = 0;
		}
		uint64_t blocks = (pool_bytes - used) / blk;
		blocks = blocks < most ? blocks : most;
		run.tier[run.n] = (unsigned)t;
		run.maxn[run.n] = maxn;
		run.words[run.n] = words;
		run.at[run.n] = used / 4;
		run.shared[run.n] = in_shared;
		run.stack[run.n] = stack;
		run.first[run.n + 1] = run.first[run.n] + (unsigned)blocks;
		run.n++;
		used += blocks * blk;
		shared = sblk > shared ? sblk : shared;
	}
	clique_kernel<<<run.first[run.n], KERN_CLIQUE_MIN_WARPS * 32, shared, s>>>(d, *cf, p, run,
										     pool, c);
	GPU_LAUNCHED();
	return cudaSuccess;
}
