/*
 * clique.cu - k-clique counting on the GPU, a warp per source vertex
 * (contract and methods: kernels/clique.h).
 *
 * Technique (Almasri, Chang, El Hajj, Nagi, Xiong and Hwu, "Parallel
 * K-clique counting on GPUs", ICS 2022): vertex-centric parallelism on the
 * oriented graph; each warp takes a source a, writes out(a)'s induced
 * subgraph as binary-encoded rows (a bitset per member, 32-bit words) in its
 * own scratch, and walks it with an explicit stack (no recursion): each
 * level's candidates are a bitset, a step is a word AND across the lanes
 * and a popcount reduced over the warp.
 *  - orient: the last two levels at once: a level needing two more
 *    vertices adds the edges among its candidates, a lane per candidate.
 *  - pivot (Jain and Seshadhri, hybrid as in the paper: the first level
 *    oriented): each level picks the candidate with the most neighbours
 *    among the candidates (a lane per candidate, then a warp argmax), and
 *    the stack holds per level the candidates, the non-neighbours of the
 *    pivot still to branch on, and the held and pivot counts. A leaf adds
 *    C(p, K - h).
 * Input: a partition (kernels/dag.h) whose lists increase; scratch of
 * kern_clique_geometry(max_out, k, pivot).words * 4 bytes a warp (the
 * launch uses as many warps as the scratch holds, up to 16 a
 * multiprocessor).
 * Counts: 64-bit per warp, added to the total with an overflow check (a
 * count past 2^64 - 1 sets c->overflow: the host fails, never wraps).
 * When it wins: against the CPU backend on graphs whose out-lists are a few
 * thousand or fewer (bench/RESULTS.md); sources are handed out one at a
 * time (atomic counter), so hubs do not hold the others back.
 */
#include "kernels/clique.h"
#include "kernels/gpu_internal.cuh"

#define CQ_WARPS_PER_BLOCK KERN_CLIQUE_MIN_WARPS

typedef struct kern_clique_geom cq_geom;

__device__ __forceinline__ uint32_t warp_sum32(uint32_t x)
{
	for (int o = 16; o > 0; o >>= 1)
		x += __shfl_xor_sync(0xffffffffu, x, o);
	return x;
}

__device__ __forceinline__ unsigned long long warp_sum64(unsigned long long x)
{
	for (int o = 16; o > 0; o >>= 1)
		x += __shfl_xor_sync(0xffffffffu, x, o);
	return x;
}

/* dst = a & b over w words (b NULL: a), and its popcount, on every lane. */
__device__ __forceinline__ uint32_t cq_and(uint32_t *dst, const uint32_t *a, const uint32_t *b,
					   uint32_t w, unsigned lane)
{
	uint32_t c = 0;
	for (uint32_t x = lane; x < w; x += 32) {
		const uint32_t v = b ? a[x] & b[x] : a[x];
		dst[x] = v;
		c += __popc(v);
	}
	return warp_sum32(c);
}

/* The first set bit of s at or after `from` (n or more if none), on every lane. */
__device__ uint32_t cq_next(const uint32_t *s, uint32_t w, uint32_t from, unsigned lane)
{
	for (uint32_t base = from / 32; base < w; base += 32) {
		const uint32_t x = base + lane;
		uint32_t v = x < w ? s[x] : 0;
		if (x == from / 32)
			v &= ~0u << (from % 32);
		else if (x < from / 32)
			v = 0;
		const unsigned any = __ballot_sync(0xffffffffu, v != 0);
		if (any) {
			const unsigned first = __ffs(any) - 1;
			const uint32_t word = __shfl_sync(0xffffffffu, v, first);
			return (base + first) * 32 + (__ffs(word) - 1);
		}
	}
	return 0xffffffffu;
}

/* out(a)'s induced subgraph: rows[i] bit j where L[i] -> L[j] (sym: both
 * ways). Lanes over the shorter of out(L[i]) and L, binary searching the
 * other. */
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

/* Orientation: the (K-1)-cliques of the rows' DAG, candidates all n. */
__device__ uint64_t cq_orient(const uint32_t *rows, uint32_t n, uint32_t w, unsigned k,
					uint32_t *sets, uint32_t *cur, unsigned lane, int *ovf)
{
	uint64_t total = 0;
	for (uint32_t x = lane; x < w; x += 32)
		sets[x] = x + 1 < w || n % 32 == 0 ? ~0u : (1u << (n % 32)) - 1;
	if (lane == 0)
		cur[0] = 0;
	__syncwarp();
	int l = 0;
	while (l >= 0) {
		uint32_t *cand = sets + (uint64_t)l * w;
		const unsigned need = k - 1 - (unsigned)l;
		if (need == 2) { /* the edges among the candidates: a lane per candidate */
			unsigned long long e = 0;
			for (uint32_t x = 0; x < w; x++) {
				const uint32_t bits = cand[x];
				if (bits >> lane & 1) {
					const uint32_t *r = rows + (uint64_t)(x * 32 + lane) * w;
					for (uint32_t y = 0; y < w; y++)
						e += __popc(cand[y] & r[y]);
				}
			}
			kern_clique_add(&total, warp_sum64(e), ovf);
			l--;
			continue;
		}
		const uint32_t j = cq_next(cand, w, cur[l], lane);
		__syncwarp();
		if (j >= n) {
			l--;
			continue;
		}
		if (lane == 0)
			cur[l] = j + 1;
		const uint32_t c = cq_and(cand + w, cand, rows + (uint64_t)j * w, w, lane);
		__syncwarp();
		if (c >= need - 1) {
			l++;
			if (lane == 0)
				cur[l] = 0;
			__syncwarp();
		}
	}
	return total;
}

/* Pivoting over the symmetric rows; a level holds P and the branches left
 * (todo), h held vertices (a counts), p pivots. */
__device__ uint64_t cq_pivot(const uint32_t *sym, uint32_t n, uint32_t w, unsigned k,
				       uint32_t *sets, uint32_t *state, unsigned lane, int *ovf)
{
	uint64_t total = 0;
	uint32_t *hs = state, *ps = state + (n + 2), *cur = state + 2 * (n + 2);
	uint32_t *P0 = sets;
	for (uint32_t x = lane; x < w; x += 32)
		P0[x] = x + 1 < w || n % 32 == 0 ? ~0u : (1u << (n % 32)) - 1;
	int l = 0;
	uint32_t h = 1, p = 0;
	int entering = 1;
	while (l >= 0) {
		uint32_t *P = sets + (uint64_t)l * 2 * w, *todo = P + w;
		if (entering) {
			entering = 0;
			__syncwarp();
			uint32_t size = 0;
			for (uint32_t x = lane; x < w; x += 32)
				size += __popc(P[x]);
			size = warp_sum32(size);
			if (h == k) { /* one leaf below keeps exactly these h */
				kern_clique_add(&total, 1, ovf);
				l--;
				goto resume;
			}
			if (h + p + size < k) {
				l--;
				goto resume;
			}
			if (size == 0) {
				kern_clique_add(&total, kern_clique_binom(p, k - h, ovf), ovf);
				l--;
				goto resume;
			}
			/* the pivot: a lane per candidate, then the warp's argmax */
			uint32_t best = 0, bu = 0xffffffffu;
			for (uint32_t x = 0; x < w; x++) {
				const uint32_t bits = P[x];
				if (bits >> lane & 1) {
					const uint32_t u = x * 32 + lane, *r = sym + (uint64_t)u * w;
					uint32_t c = 0;
					for (uint32_t y = 0; y < w; y++)
						c += __popc(P[y] & r[y]);
					if (bu == 0xffffffffu || c > best) {
						best = c;
						bu = u;
					}
				}
			}
			for (int o = 16; o > 0; o >>= 1) {
				const uint32_t ob = __shfl_xor_sync(0xffffffffu, best, o);
				const uint32_t ou = __shfl_xor_sync(0xffffffffu, bu, o);
				if (ou != 0xffffffffu && (bu == 0xffffffffu || ob > best ||
							  (ob == best && ou < bu))) {
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
			const uint32_t v = cq_next(todo, w, cur[l], lane);
			__syncwarp();
			if (v >= n) {
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
	return total;
}

__global__ void __launch_bounds__(CQ_WARPS_PER_BLOCK * 32)
	clique_kernel(dev_dag d, unsigned k, int pivot, cq_geom g, uint32_t *scratch,
		      dev_counters *c)
{
	const unsigned lane = threadIdx.x & 31;
	const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	uint32_t *rows = scratch + warp * g.words;
	uint32_t *sets = rows + (uint64_t)g.n * g.w;
	uint32_t *state = sets + (uint64_t)g.levels * g.w * (pivot ? 2 : 1);
	uint64_t total = 0;
	int ovf = 0;
	for (;;) {
		uint32_t x = 0;
		if (lane == 0)
			x = atomicAdd(&c->next_small, 1u);
		x = __shfl_sync(0xffffffffu, x, 0);
		if (x >= d.nsrc)
			break;
		const uint32_t a = d.src[x];
		const uint32_t n = (uint32_t)(d.off[a + 1] - d.off[a]);
		if (n < k - 1)
			continue;
		cq_rows(d, d.adj + d.off[a], n, (n + 31) / 32, pivot, rows, lane);
		if (pivot)
			kern_clique_add(&total, cq_pivot(rows, n, (n + 31) / 32, k, sets, state, lane, &ovf),
					&ovf);
		else
			kern_clique_add(&total, cq_orient(rows, n, (n + 31) / 32, k, sets, state, lane, &ovf),
			       &ovf);
	}
	ovf = __any_sync(0xffffffffu, ovf);
	if (lane == 0) {
		const unsigned long long old = atomicAdd(&c->triangles, (unsigned long long)total);
		if (ovf || old + total < old)
			atomicOr(&c->overflow, 1u);
	}
}

cudaError_t clique_launch(const dev_dag &d, uint32_t max_out, unsigned k, int pivot,
			  uint8_t *scratch, uint64_t scratch_bytes, dev_counters *c, int sms,
			  cudaStream_t s)
{
	const cq_geom g = kern_clique_geometry(max_out, k, pivot);
	uint64_t warps = scratch_bytes / (g.words * 4);
	const uint64_t most = (uint64_t)sms * 16;
	if (warps > most)
		warps = most;
	warps -= warps % CQ_WARPS_PER_BLOCK;
	if (warps == 0)
		return cudaErrorMemoryAllocation; /* the caller sized the scratch: not reached */
	clique_kernel<<<(unsigned)(warps / CQ_WARPS_PER_BLOCK), CQ_WARPS_PER_BLOCK * 32, 0, s>>>(
		d, k, pivot, g, (uint32_t *)scratch, c);
	GPU_LAUNCHED();
	return cudaSuccess;
}
