/*
 * lstc_paper.cu - LSTC's counting kernel (kernels lstc and lstc-paper).
 *
 * Technique: Algorithm 3 of Tamboli and Jatala, "LSTC: Large-Scale Triangle
 * Counting on Single GPU". One thread block per local source vertex a; the
 * out-neighbourhood N(a) is tiled into shared memory, TILE ids at a time;
 * for each tile the block walks every N(w), w in N(a), round-robin
 * (thread t takes elements t, t+B, ...: consecutive threads read
 * consecutive ids, coalesced) and binary-searches each element in the
 * tile. A block reduction then adds one 64-bit count per block.
 * Input: a tsg_dag or a 2D unit (kernels/dag.h) resident in device memory;
 * for a unit, a source tiles only its ids >= the middle range's start and
 * walks only the middle vertices in range (dev_source).
 * Launch: grid = nsrc blocks (past 2^30 sources, each block takes every
 * 2^30-th source in turn: a grid holds at most 2^31 - 1 blocks), 128
 * threads, TILE * 4 bytes of shared memory.
 * The paper's tile is 128 (best on its V100): --kernel lstc-paper. On the
 * H100 a 1024-wide tile measured fastest (45.7 ms against 97.4 ms on R-MAT
 * 21; 64..4096 measured, bench/RESULTS.md): a source of out-degree d makes
 * ceil(d / TILE) passes over every N(w), and the wider tile removes most
 * repeat passes at little cost in occupancy. That is --kernel lstc, the
 * default. When it wins: graphs whose out-degrees mostly fit one tile.
 */
#include "kernels/gpu_internal.cuh"

enum { PAPER_THREADS = 128 };
static const uint32_t PAPER_MAX_GRID = 1u << 30;

__global__ void lstc_paper_kernel(dev_dag d, unsigned tile, dev_counters *c)
{
	extern __shared__ uint32_t tile_ids[];
	unsigned long long count = 0;
	for (uint32_t a = blockIdx.x; a < d.nsrc; a += gridDim.x) {
	uint64_t abeg, wend, aend;
	dev_source(d, a, &abeg, &wend, &aend);
	for (uint64_t t0 = abeg; t0 < aend && abeg < wend; t0 += tile) {
		const uint32_t tn = (uint32_t)min((uint64_t)tile, aend - t0);
		for (uint32_t k = threadIdx.x; k < tn; k += blockDim.x)
			tile_ids[k] = d.sadj[t0 + k];
		__syncthreads();
		for (uint64_t i = abeg; i < wend; i++) {
			uint64_t wb, we;
			dev_mid(d, d.sadj[i], &wb, &we);
			for (uint64_t k = wb + threadIdx.x; k < we; k += blockDim.x) {
				const uint32_t x = d.adj[k];
				uint32_t lo = 0, hi = tn;
				while (lo < hi) {
					const uint32_t mid = (lo + hi) >> 1;
					if (tile_ids[mid] < x)
						lo = mid + 1;
					else
						hi = mid;
				}
				count += lo < tn && tile_ids[lo] == x;
			}
		}
		__syncthreads();
	}
	}
	block_add_count<PAPER_THREADS / 32>(count, &c->triangles);
}

cudaError_t lstc_paper_launch(const dev_dag &d, unsigned tile, dev_counters *c, cudaStream_t s)
{
	if (d.nsrc == 0)
		return cudaSuccess;
	const size_t smem = (size_t)tile * sizeof(uint32_t);
	if (smem > 48 * 1024) {
		cudaError_t e = cudaFuncSetAttribute(lstc_paper_kernel,
						     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
		if (e != cudaSuccess)
			return e;
	}
	lstc_paper_kernel<<<min(d.nsrc, PAPER_MAX_GRID), PAPER_THREADS, smem, s>>>(d, tile, c);
	return cudaGetLastError();
}
