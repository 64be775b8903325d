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
 * One step of our own: where rows are short (at most EM_SHORT entries a
 * source on average), a merge starts with one block step, the first 4 ids
 * of each list loaded at once and all 16 pairs compared, so the misses of
 * a short merge overlap instead of following one another (H100: web 2^22
 * 1.00 ms against 1.55 by plain steps; tristream-gen crawl 2^22, whose rows
 * are twice as long, 1.65 against 1.52, hence the threshold; raw
 * bench/raw/h100-2026-11-25-edge-merge/kexp-modes.jsonl), and runs 6
 * blocks an SM rather than 8 (web 2^22 0.96 against 1.12 ms; crawl 2^22 at
 * 6 blocks 1.68 against 1.51, so short rows only; kexp-occupancy.jsonl).
 * Input: a tsg_dag or 2D unit resident in device memory; lists strictly
 * increasing (dag.h). A unit (windowed) merges the tail after b; an LSTC
 * layout partition, whose ids are not ranks, merges the whole of out(a)
 * (still exact: c in out(a) and out(b) closes the triangle at a->b only).
 * No scratch. No per-vertex counts (the engine counts those with mid-hash).
 * Launch: 256 threads, as many blocks as fit an SM (6 for short rows),
 * persistent; a warp takes 32 sources at a time from c->next_chunk.
 * When it wins: short, even rows: H100, web 2^21 / 2^22 0.49 / 0.95 ms
 * against lstc-hash's 1.85 / 3.71 and TRUST's own build's 1.96 / 3.81
 * (4.0x), crawl and Erdos-Renyi 2.4-2.8x lstc-hash; it loses where rows
 * are long (Erdos-Renyi at edge factor 64: 10.3 against 7.3 ms) or skewed
 * (R-MAT 21: 105 against mid-hash's 19). bench/RESULTS.md, 2026-11-25;
 * choose.h has the rule auto follows.
 */
#include "kernels/gpu_internal.cuh"

enum { EM_THREADS = 256, EM_ROWS = 32, EM_BLK = 4, EM_SHORT = 10, EM_SHORT_BLOCKS = 6 };

/* |[a, ae) and [b, be) in common| for strictly increasing lists:
 * branch-free steps, so the lanes of a warp stay in step while they merge. */
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

/* One block step of the same merge: the first EM_BLK ids of each list
 * (loaded together), every pair compared; the block whose largest id is
 * the smaller is done with (both if equal), since every later id of the
 * other list is larger. Returns the pairs found and moves *a and *b on. */
__device__ __forceinline__ uint32_t em_block_step(const uint32_t **a, const uint32_t *ae,
						  const uint32_t **b, const uint32_t *be)
{
	if (*a >= ae || *b >= be)
		return 0;
	const int na = (int)min((long long)EM_BLK, (long long)(ae - *a));
	const int nb = (int)min((long long)EM_BLK, (long long)(be - *b));
	uint32_t x[EM_BLK], y[EM_BLK], n = 0;
#pragma unroll
	for (int i = 0; i < EM_BLK; i++) {
		x[i] = i < na ? (*a)[i] : 0;
		y[i] = i < nb ? (*b)[i] : 0;
	}
#pragma unroll
	for (int i = 0; i < EM_BLK; i++)
#pragma unroll
		for (int j = 0; j < EM_BLK; j++)
			n += (i < na && j < nb && x[i] == y[j]);
	uint32_t xm = x[0], ym = y[0];
#pragma unroll
	for (int i = 1; i < EM_BLK; i++) {
		xm = i < na ? x[i] : xm;
		ym = i < nb ? y[i] : ym;
	}
	if (xm <= ym)
		*a += na;
	if (ym <= xm)
		*b += nb;
	return n;
}

template <bool BLOCK>
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
			const uint32_t *a = d.sadj + (d.windowed ? p + 1 : otb), *ae = d.sadj + ote;
			const uint32_t *b = d.adj + mb, *be = d.adj + me;
			if (BLOCK)
				count += em_block_step(&a, ae, &b, be);
			count += em_merge(a, ae, b, be);
		}
	}
	count = warp_sum(count);
	if (lane == 0 && count)
		atomicAdd(&c->triangles, count);
}

template <bool BLOCK>
static cudaError_t em_launch_as(const dev_dag &d, dev_counters *c, int sms, cudaStream_t s)
{
	int per_sm = 0;
	const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&per_sm, em_count_kernel<BLOCK>, EM_THREADS, 0);
	if (e != cudaSuccess)
		return e;
	/* short rows: 6 blocks (48 warps) an SM, whose misses then fit L1
	 * better than 64 warps' (H100: web 2^22 0.96 ms against 1.12) */
	if (BLOCK && per_sm > EM_SHORT_BLOCKS)
		per_sm = EM_SHORT_BLOCKS;
	em_count_kernel<BLOCK><<<sms * (per_sm > 0 ? per_sm : 1), EM_THREADS, 0, s>>>(d, c);
	return cudaGetLastError();
}

cudaError_t edge_merge_launch(const dev_dag &d, uint64_t src_entries, dev_counters *c, int sms,
			      cudaStream_t s)
{
	if (d.nsrc == 0)
		return cudaSuccess;
	if (src_entries <= (uint64_t)EM_SHORT * d.nsrc) /* short rows: a block step first */
		return em_launch_as<true>(d, c, sms, s);
	return em_launch_as<false>(d, c, sms, s);
}
