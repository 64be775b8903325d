/*
 * skiff.cu - Skiff's lock-free hopscotch tables and its CTA work policies
 * (kernel skiff, --cta-policy).
 *
 * Technique: Zheng, Wan, Jiang, Hu, Liu, Mumtaz and Du, "Lock-Free
 * Triangle Counting on GPU" (IEEE TC 2025; ../shared/seeds/000). Each
 * source a's N(a) is put into a hash table in shared memory; the entries
 * of every N(w), w in N(a), are looked up in it; a hit closes a->w->x.
 * As the paper has it:
 *  1. Hopscotch buckets (Algorithm 3): a key's home is x mod slots; it
 *     goes to the first free slot within H = 32 of its home (a node as
 *     wide as a warp, section IV-C), and bit i of the home's `dist` word
 *     says that slot home + i holds one of its keys. A lookup reads the
 *     home's word and compares only the slots it names: no probe chain.
 *     Values and `dist` words are separate arrays (SoA, section IV-C).
 *  2. Lock-free building (section IV-A, the optimistic policy): a thread
 *     claims a slot with one compare-and-swap and sets its home's bit with
 *     one atomic OR; no thread waits on another. A key whose neighbourhood
 *     is full goes to the next node, an overflow node whose entries are
 *     claimed by an atomic counter, and lookups read it when it is not
 *     empty (the paper's linked node; Algorithm 3's moving of keys toward
 *     their home needs locks between threads and is not done, as the
 *     lock-free policy of section IV-A also does not).
 *  3. CTA thread organisation (section IV-B), --cta-policy:
 *     block-degree  sources filed by degree: out-degree above 32 a block of
 *                   256 threads (its 8 warps taking the middle vertices in
 *                   turn), the rest a warp each (the default);
 *     block-index   runs of 32 consecutive sources (the level array's
 *                   index), a block a run, its sources one after another;
 *     warp-index    the same runs, a warp a run.
 *     The paper sizes each run's share as ceil(sum d / 32) warps or blocks;
 *     here blocks and warps take the next run from a counter, so a run's
 *     share of the GPU follows its work in the same proportion.
 *  4. Lookups in parallel over the searched list (Algorithm 3, phase 2): a
 *     warp takes a middle vertex w and its lanes take N(w)'s entries.
 * The table holds N(a) (Fig. 9: the source's list is the hashed one, since
 * every N(w) is looked up in it); an N(a) longer than half the table is
 * tabled a piece at a time, the middle lists re-read per piece.
 * Units (windowed): only ids >= lo of N(a) are tabled, the middle vertices
 * are those of N(a) in [lo, hi), as in lstc-hash.
 * Input: a tsg_dag or 2D unit resident in device memory; scratch of 8
 * bytes per source (block-degree's two classes).
 * Launch: 256-thread blocks, as many as are resident at once.
 * When it wins: never first on the graphs measured, but block-degree is
 * the second kernel on R-MAT (H100, R-MAT 21: 35.7 ms, mid-hash 18.7,
 * lstc 45.3, lstc-hash 95.2, trust 134.2; R-MAT 22: 97.4 vs mid-hash 47.6)
 * and 1.5x lstc-hash on crawl-like graphs (web 2^21: 2.87 vs 1.90 ms).
 * block-index is 1.5x slower than block-degree on R-MAT and 2.9x on web
 * (small sources leave a block idle); warp-index is 13x slower on R-MAT
 * (a hub's N(a) tabled in pieces of 256 by one warp) and 1.1x on web.
 * bench/RESULTS.md has the side-by-side.
 */
#include "kernels/gpu_internal.cuh"

enum {
	SK_THREADS = 256,
	SK_WARPS = SK_THREADS / 32,
	SK_H = 32,              /* a node's width: a warp */
	SK_SMALL_MAX = 32,      /* block-degree: out-degree up to this gets a warp */
	SK_BLOCK_SLOTS = 4096,  /* a block's table */
	SK_WARP_SLOTS = 64,     /* block-degree: a small source's table */
	SK_RANGE_SLOTS = 512,   /* warp-index: a warp's table */
	SK_RANGE = 32,          /* index policies: sources a run */
};

#define SK_EMPTY 0xffffffffu

/* A hopscotch table of mask + 1 slots; the overflow node holds up to half
 * the slots (a piece never has more keys). */
struct sk_table {
	uint32_t *val, *dist, *ov;
	unsigned int *ovn;
	uint32_t mask, width; /* width: the neighbourhood, at most SK_H */

	__device__ void insert(uint32_t x) const
	{
		const uint32_t home = x & mask;
		for (uint32_t i = 0; i < width; i++)
			if (atomicCAS(&val[(home + i) & mask], SK_EMPTY, x) == SK_EMPTY) {
				atomicOr(&dist[home], 1u << i);
				return;
			}
		ov[atomicAdd(ovn, 1u)] = x; /* the neighbourhood is full */
	}

	__device__ unsigned operator()(uint32_t x) const
	{
		const uint32_t home = x & mask;
		for (uint32_t b = dist[home]; b; b &= b - 1)
			if (val[(home + __ffs(b) - 1) & mask] == x)
				return 1;
		const uint32_t n = *ovn;
		for (uint32_t j = 0; j < n; j++)
			if (ov[j] == x)
				return 1;
		return 0;
	}
};

struct sk_block_sync {
	__device__ void operator()() const { __syncthreads(); }
};
struct sk_warp_sync {
	__device__ void operator()() const { __syncwarp(); }
};

/* Source k counted by a group of nthreads threads (a warp or a block;
 * tid its thread's index in it) with table t of `slots` slots. Every
 * thread of the group calls it. */
template <typename Sync>
__device__ unsigned long long sk_source(const dev_dag &d, uint32_t k, sk_table t, uint32_t slots,
					unsigned tid, unsigned nthreads, Sync sync)
{
	uint64_t ab, we, ae;
	dev_source(d, k, &ab, &we, &ae);
	const uint64_t dg = ae - ab, nw = we - ab;
	unsigned long long count = 0;
	if (dg < 2 || nw == 0)
		return 0;
	const unsigned lane = tid & 31, warp = tid >> 5, nwarps = nthreads / 32;
	for (uint64_t t0 = 0; t0 < dg; t0 += slots / 2) {
		const uint64_t tn = min((uint64_t)slots / 2, dg - t0);
		const uint32_t size = table_size(tn, SK_H);
		t.mask = size - 1;
		for (uint32_t i = tid; i < size; i += nthreads) {
			t.val[i] = SK_EMPTY;
			t.dist[i] = 0;
		}
		if (tid == 0)
			*t.ovn = 0;
		sync();
		for (uint64_t i = tid; i < tn; i += nthreads)
			t.insert(d.sadj[ab + t0 + i]);
		sync();
		for (uint64_t j = warp; j < nw; j += nwarps) {
			uint64_t wb, wend;
			dev_mid(d, d.sadj[ab + j], &wb, &wend);
			for (uint64_t i = wb + lane; i < wend; i += 32)
				count += t(d.adj[i]);
		}
		sync(); /* the table is rebuilt next */
	}
	return count;
}

/* A block a source (block-degree: large lists the sources) or a block a
 * run of SK_RANGE sources (block-index: large NULL). */
__global__ void __launch_bounds__(SK_THREADS)
sk_block_kernel(dev_dag d, const uint32_t *large, uint32_t width, dev_counters *c)
{
	__shared__ uint32_t s_val[SK_BLOCK_SLOTS], s_dist[SK_BLOCK_SLOTS], s_ov[SK_BLOCK_SLOTS / 2];
	__shared__ unsigned int s_ovn;
	const sk_table t = { s_val, s_dist, s_ov, &s_ovn, 0, width };
	const uint32_t n = large ? c->n_large : (d.nsrc + SK_RANGE - 1) / SK_RANGE;
	unsigned long long count = 0;
	for (;;) {
		const uint32_t k = block_take(&c->next_large);
		if (k >= n)
			break;
		const uint32_t first = large ? large[k] : k * SK_RANGE;
		const uint32_t runs = large ? 1 : min((uint32_t)SK_RANGE, d.nsrc - first);
		for (uint32_t i = 0; i < runs; i++)
			count += sk_source(d, first + i, t, SK_BLOCK_SLOTS, threadIdx.x, SK_THREADS,
					   sk_block_sync{});
	}
	block_add_count<SK_WARPS>(count, &c->triangles);
}

/* A warp a source (block-degree: small lists the sources) or a warp a run
 * of SK_RANGE sources (warp-index: small NULL), SLOTS slots a warp. */
template <uint32_t SLOTS>
__global__ void __launch_bounds__(SK_THREADS, 4) /* at 32 registers ptxas spills */
sk_warp_kernel(dev_dag d, const uint32_t *small, uint32_t width, dev_counters *c)
{
	__shared__ uint32_t s_val[SK_WARPS][SLOTS], s_dist[SK_WARPS][SLOTS], s_ov[SK_WARPS][SLOTS / 2];
	__shared__ unsigned int s_ovn[SK_WARPS];
	const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const sk_table t = { s_val[warp], s_dist[warp], s_ov[warp], &s_ovn[warp], 0, width };
	const uint32_t n = small ? c->n_small : (d.nsrc + SK_RANGE - 1) / SK_RANGE;
	unsigned long long count = 0;
	for (;;) {
		const uint32_t k = warp_take(&c->next_small, lane);
		if (k >= n)
			break;
		const uint32_t first = small ? small[k] : k * SK_RANGE;
		const uint32_t runs = small ? 1 : min((uint32_t)SK_RANGE, d.nsrc - first);
		for (uint32_t i = 0; i < runs; i++)
			count += sk_source(d, first + i, t, SLOTS, lane, 32, sk_warp_sync{});
	}
	block_add_count<SK_WARPS>(count, &c->triangles);
}

/* Blocks of `kernel` resident at once on the whole GPU. */
template <typename K>
static cudaError_t sk_grid(K kernel, int sms, unsigned *blocks)
{
	int per_sm = 0;
	const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
									    SK_THREADS, 0);
	*blocks = (unsigned)sms * (unsigned)max(1, per_sm);
	return e;
}

cudaError_t skiff_launch(const dev_dag &d, enum gpu_cta_policy policy, uint32_t hop,
			 uint32_t *lists, dev_counters *c, int sms, cudaStream_t s)
{
	if (d.nsrc == 0)
		return cudaSuccess;
	const uint32_t width = hop >= 1 && hop <= (uint32_t)SK_H ? hop : (uint32_t)SK_H;
	unsigned blocks = 0;
	cudaError_t e;
	switch (policy) {
	case GPU_CTA_BLOCK_INDEX:
		if ((e = sk_grid(sk_block_kernel, sms, &blocks)) != cudaSuccess)
			return e;
		sk_block_kernel<<<blocks, SK_THREADS, 0, s>>>(d, NULL, width, c);
		break;
	case GPU_CTA_WARP_INDEX:
		if ((e = sk_grid(sk_warp_kernel<SK_RANGE_SLOTS>, sms, &blocks)) != cudaSuccess)
			return e;
		sk_warp_kernel<SK_RANGE_SLOTS><<<blocks, SK_THREADS, 0, s>>>(d, NULL, width, c);
		break;
	default: /* block-degree */
		if ((e = sk_grid(sk_block_kernel, sms, &blocks)) != cudaSuccess ||
		    (e = src_bucket_launch(d, SK_SMALL_MAX, lists, lists + d.nsrc, c, sms, s)) !=
			    cudaSuccess)
			return e;
		sk_block_kernel<<<blocks, SK_THREADS, 0, s>>>(d, lists + d.nsrc, width, c);
		GPU_LAUNCHED();
		if ((e = sk_grid(sk_warp_kernel<SK_WARP_SLOTS>, sms, &blocks)) != cudaSuccess)
			return e;
		sk_warp_kernel<SK_WARP_SLOTS><<<blocks, SK_THREADS, 0, s>>>(d, lists, width, c);
	}
	return cudaGetLastError();
}
