/*
 * edge_merge.cu - a thread per oriented edge, merging two sorted lists
 * (kernel edge-merge).
 *
 * Technique: the edge iterator. Every triangle a->b, a->c, b->c is found
 * at its edge a->b, as c in the intersection of the rest of out(a) (ids
 * after b, where c must lie: ids are ranks in a unit) and out(b); both
 * lists are sorted, so one thread merges them in |tail| + |out(b)| steps
 * at most, with no table to build and no grouping pass. It is the GPU
 * counters' earliest form (Polak, "Counting triangles in large graphs on
 * GPU", IPDPSW 2016; the merge-based method of Green et al., IA3 2014),
 * which Fast TC (002, section 2) sets aside for binary search because a
 * warp's lanes walk different lists (strided loads) and wait for the
 * longest. Both costs are small where out-degrees are small and even, and
 * there the tables of the hashing kernels cost more than they save. From
 * TRUST (003) comes the hand-out: a warp takes 32 source rows, numbers
 * their edges by a prefix sum (virtual combination, as warp_combined does
 * for probes) and deals them to lanes, so no lane idles on a short row.
 * Cost: per edge, one lane finds its row (a 5-step shuffle search shared by
 * 32 edges), reads two offsets and walks both lists; loads are L1 hits
 * after each list's first sector. A warp pays for its longest merge, so the
 * kernel wins where out-degrees are small and even: crawl-like graphs,
 * whose oriented out-degrees stay below a few dozen.
 * Input: a tsg_dag or 2D unit resident in device memory; lists strictly
 * increasing (dag.h). A unit (windowed) merges the tail after b; an LSTC
 * layout partition, whose ids are not ranks, merges the whole of out(a)
 * (still exact: c in out(a) and out(b) closes the triangle at a->b only).
 * No scratch. No per-vertex counts (the engine counts those with mid-hash).
 * Launch: 256 threads, as many blocks as fit an SM, persistent; a warp
 * takes 32 sources at a time from c->next_chunk.
 * When it wins: bench/RESULTS.md, "edge-merge"; choose.h has the rule.
 */
#include "kernels/gpu_internal.cuh"

enum { EM_THREADS = 256, EM_ROWS = 32 };

/* |[a, ae) and [b, be) in common| for strictly increasing lists: branch-free steps,
 * so the lanes of a warp stay in step while they merge. */
__device__ __forceinline__ uint32_t em_merge(const uint32_t *a, const uint32_t *ae, const uint32_t *b,
					     const uint32_t *be)
{
	uint32_t n = 0;
	while (a < ae && b < be) {
		const uint32_t x = *a, y = *b;
		a += x <= y;
		b += y <= x;
		n += x == y;
	}
	return n;
}

__global__ void __launch_bounds__(EM_THREADS) em_count_kernel(dev_dag d, dev_counters *c)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t chunks = (d.nsrc + EM_ROWS - 1) / EM_ROWS;
	unsigned long long count = 0;
	for (;;) {
		const uint32_t ch = warp_take(&c->next_chunk, lane);
		if (ch >= chunks)
			break;
		const uint32_t k = ch * EM_ROWS + lane;
		uint64_t tb = 0, we = 0, te = 0, pe = 0;
		if (k < d.nsrc) {
			dev_source(d, k, &tb, &we, &te);
			/* edges a->b that can close a triangle: in a unit, b in the
			 * window with a non-empty tail; in a partition, any b of a
			 * row of two or more */
			if (d.windowed)
				pe = te > tb ? min(we, te - 1) : tb;
			else
				pe = te - tb >= 2 ? te : tb;
			if (pe < tb)
				pe = tb;
		}
		const uint32_t ne = (uint32_t)(pe - tb);
		const uint32_t incl = warp_inclusive_sum(ne, lane);
		const uint32_t total = __shfl_sync(0xffffffffu, incl, 31), excl = incl - ne;
		for (uint32_t base = 0; base < total; base += 32) {
			const uint32_t idx = base + lane;
			const int own = warp_owner(excl, idx); /* whose row holds idx */
			const uint64_t otb = __shfl_sync(0xffffffffu, tb, own);
			const uint64_t ote = __shfl_sync(0xffffffffu, te, own);
			const uint32_t oex = __shfl_sync(0xffffffffu, excl, own);
			if (idx >= total)
				continue;
			const uint64_t p = otb + (idx - oex);
			uint64_t mb, me;
			dev_mid(d, d.sadj[p], &mb, &me);
			const uint32_t *tail = d.sadj + (d.windowed ? p + 1 : otb);
			count += em_merge(tail, d.sadj + ote, d.adj + mb, d.adj + me);
		}
	}
	count = warp_sum(count);
	if (lane == 0 && count)
		atomicAdd(&c->triangles, count);
}

cudaError_t edge_merge_launch(const dev_dag &d, dev_counters *c, int sms, cudaStream_t s)
{
	if (d.nsrc == 0)
		return cudaSuccess;
	int per_sm = 0;
	const cudaError_t e =
		cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, em_count_kernel, EM_THREADS, 0);
	if (e != cudaSuccess)
		return e;
	em_count_kernel<<<sms * (per_sm > 0 ? per_sm : 1), EM_THREADS, 0, s>>>(d, c);
	return cudaGetLastError();
}
