/*
 * lstc_hash.cu - LSTC partitions counted with shared-memory hashing and
 * degree-bucketed, persistent warps and blocks.
 *
 * Technique: LSTC's block-per-source structure (Tamboli and Jatala), with
 * three changes, each aimed at what the paper kernel wastes on a modern GPU:
 *  1. Membership by hashing instead of binary search: N(a) goes into an
 *     open-addressing table in shared memory (as in TRUST's vertex-centric
 *     hashing, Pan et al., TPDS 2021), so each probe is about one shared
 *     load instead of log2(TILE) dependent ones.
 *  2. Degree buckets: sources of out-degree <= 128 get one warp each and a
 *     256-slot table; larger ones a 256-thread block and a table of up to
 *     16384 slots, tiled like LSTC when N(a) is larger still. Sources of
 *     out-degree < 2 close no triangle and are skipped.
 *  3. Flattened work: the (w, x in N(w)) pairs of 32 out-neighbours w at a
 *     time are numbered by a warp prefix sum of out-degrees and dealt to
 *     lanes round-robin (warp_combined, TRUST's virtual combination), so a
 *     warp never idles on a short N(w), reads of each N(w) stay coalesced,
 *     and no block-wide barrier is needed outside building the table.
 * Work is handed out by atomic counters to persistent grids (the heavy tail
 * of R-MAT sources otherwise leaves most of the GPU idle at the end), and
 * counts are reduced per warp/block, one 64-bit atomic each.
 * Input: a tsg_dag or 2D unit resident in device memory (dev_source gives a
 * source's table and middle range), plus 8 bytes per source of scratch for
 * the two bucket lists.
 * Launch: bucket_kernel over sources; large_kernel, 256 threads, 64 KiB of
 * dynamic shared memory, 3 blocks per SM; small_kernel, 256 threads (8
 * warps, 8 KiB), 8 blocks per SM.
 * When it wins: on graphs with few hubs whose rows are too long for
 * edge-merge (Erdos-Renyi and web at edge factor 64: 7.3 and 5.2 ms against
 * edge-merge's 10.3 and 6.1; R-MAT with abc 0.45,0.15,0.15), where it does
 * about as many probes as there are wedges and has no grouping passes, and
 * --kernel auto picks it there (choose.h). On graphs with short rows
 * edge-merge is 3.8x faster (web 2^21 1.85 against 0.49 ms); on skewed ones
 * mid-hash 5x (R-MAT 21 95 vs 19 ms); bench/RESULTS.md has the figures.
 */
#include "kernels/gpu_internal.cuh"

enum {
	SMALL_MAX = 128,
	WARP_SLOTS = 256,
	SMALL_THREADS = 256,
	BIG_THREADS = 256,
	BIG_SLOTS = 16384,
	BIG_BLOCKS_PER_SM = 3,
	SMALL_BLOCKS_PER_SM = 8,
};

#define EMPTY_SLOT 0xffffffffu

__device__ __forceinline__ uint32_t hash_slot(uint32_t x, uint32_t mask)
{
	return (x * 2654435761u) & mask;
}

__device__ __forceinline__ void hash_insert(uint32_t *t, uint32_t mask, uint32_t x)
{
	for (uint32_t h = hash_slot(x, mask);; h = (h + 1) & mask) {
		const uint32_t prev = atomicCAS(&t[h], EMPTY_SLOT, x);
		if (prev == EMPTY_SLOT || prev == x)
			return;
	}
}

__device__ __forceinline__ unsigned hash_has(const uint32_t *t, uint32_t mask, uint32_t x)
{
	for (uint32_t h = hash_slot(x, mask);; h = (h + 1) & mask) {
		const uint32_t v = t[h];
		if (v == x)
			return 1;
		if (v == EMPTY_SLOT)
			return 0;
	}
}


/* Membership in a source's open-addressing table, for warp_combined. */
struct oa_probe {
	const uint32_t *table;
	uint32_t mask;
	__device__ unsigned operator()(uint32_t x) const { return hash_has(table, mask, x); }
};

__global__ void bucket_kernel(dev_dag d, uint32_t small_max, uint32_t mid_max, uint32_t *small,
			      uint32_t *mid, uint32_t *large, dev_counters *c)
{
	for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < d.nsrc; k += gridDim.x * blockDim.x) {
		uint64_t tb, we, te;
		dev_source(d, k, &tb, &we, &te);
		const uint64_t deg = te - tb;
		if (deg < 2 || we == tb)
			continue;
		if (deg <= small_max)
			small[atomicAdd(&c->n_small, 1u)] = k;
		else if (deg <= mid_max)
			mid[atomicAdd(&c->n_mid, 1u)] = k;
		else
			large[atomicAdd(&c->n_large, 1u)] = k;
	}
}

__global__ void __launch_bounds__(SMALL_THREADS)
small_kernel(dev_dag d, const uint32_t *small, dev_counters *c)
{
	__shared__ uint32_t tables[SMALL_THREADS / 32][WARP_SLOTS];
	const unsigned lane = threadIdx.x & 31;
	uint32_t *table = tables[threadIdx.x >> 5];
	const uint32_t n = c->n_small;
	unsigned long long count = 0;
	for (;;) {
		const uint32_t k = warp_take(&c->next_small, lane);
		if (k >= n)
			break;
		uint64_t ab, we, ae;
		dev_source(d, small[k], &ab, &we, &ae);
		const uint32_t dg = (uint32_t)(ae - ab), nw = (uint32_t)(we - ab);
		const uint32_t mask = table_size(dg, 32) - 1;
		for (uint32_t i = lane; i <= mask; i += 32)
			table[i] = EMPTY_SLOT;
		__syncwarp();
		for (uint32_t i = lane; i < dg; i += 32)
			hash_insert(table, mask, d.sadj[ab + i]);
		__syncwarp();
		for (uint32_t c0 = 0; c0 < nw; c0 += 32)
			count += warp_combined(d, ab, nw, c0, lane, oa_probe{ table, mask });
		__syncwarp();
	}
	count = warp_sum(count);
	if (lane == 0 && count)
		atomicAdd(&c->triangles, count);
}

__global__ void __launch_bounds__(BIG_THREADS)
large_kernel(dev_dag d, const uint32_t *large, dev_counters *c, uint32_t slots)
{
	extern __shared__ uint32_t table[];
	const uint32_t n = c->n_large, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	unsigned long long count = 0;
	for (;;) {
		const uint32_t k = block_take(&c->next_large);
		if (k >= n)
			break;
		uint64_t ab, we, ae;
		dev_source(d, large[k], &ab, &we, &ae);
		const uint64_t dg = ae - ab, nw = we - ab;
		for (uint64_t t0 = 0; t0 < dg; t0 += slots / 2) {
			const uint64_t tn = min((uint64_t)slots / 2, dg - t0);
			const uint32_t mask = table_size(tn, 64) - 1;
			for (uint32_t i = tid; i <= mask; i += BIG_THREADS)
				table[i] = EMPTY_SLOT;
			__syncthreads();
			for (uint64_t i = tid; i < tn; i += BIG_THREADS)
				hash_insert(table, mask, d.sadj[ab + t0 + i]);
			__syncthreads();
			/* warps take chunks of 32 out-neighbours in turn: no block barrier */
			for (uint64_t c0 = (uint64_t)warp * 32; c0 < nw; c0 += BIG_THREADS)
				count += warp_combined(d, ab, nw, c0, lane, oa_probe{ table, mask });
			__syncthreads(); /* the table is rebuilt next */
		}
	}
	block_add_count<BIG_THREADS / 32>(count, &c->triangles);
}

cudaError_t src_class_launch(const dev_dag &d, uint32_t small_max, uint32_t mid_max,
			     uint32_t *small, uint32_t *mid, uint32_t *large, dev_counters *c,
			     int sms, cudaStream_t s)
{
	const unsigned blocks = (unsigned)min((d.nsrc + 255u) / 256u, (uint32_t)sms * 32u);
	bucket_kernel<<<blocks, 256, 0, s>>>(d, small_max, mid_max, small, mid, large, c);
	return cudaGetLastError();
}

cudaError_t src_bucket_launch(const dev_dag &d, uint32_t small_max, uint32_t *small,
			      uint32_t *large, dev_counters *c, int sms, cudaStream_t s)
{
	return src_class_launch(d, small_max, small_max, small, NULL, large, c, sms, s);
}

cudaError_t lstc_hash_launch(const dev_dag &d, uint32_t *small, uint32_t *large, dev_counters *c,
			     int sms, cudaStream_t s)
{
	if (d.nsrc == 0)
		return cudaSuccess;
	const size_t smem = (size_t)BIG_SLOTS * sizeof(uint32_t);
	cudaError_t e = cudaFuncSetAttribute(large_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)smem);
	if (e != cudaSuccess)
		return e;
	e = src_bucket_launch(d, SMALL_MAX, small, large, c, sms, s);
	if (e != cudaSuccess)
		return e;
	large_kernel<<<sms * BIG_BLOCKS_PER_SM, BIG_THREADS, smem, s>>>(d, large, c, BIG_SLOTS);
	GPU_LAUNCHED();
	small_kernel<<<sms * SMALL_BLOCKS_PER_SM, SMALL_THREADS, 0, s>>>(d, small, c);
	return cudaGetLastError();
}
