/*
 * mid_hash.cu - wedges checked at their middle vertex, against a hashed N(b)
 * (kernel mid-hash).
 *
 * Technique: every triangle is a wedge a->b, a->c (b < c, both in N(a))
 * closed by b->c. LSTC (Tamboli and Jatala) and TRUST (Pan et al., TPDS
 * 2021) take a source a, table N(a) and walk N(b) for each b in N(a): work
 * sum over b of indeg(b) * outdeg(b). Here the table is N(b) instead, and
 * what is probed is the tail of N(a) after b, the only place a c can lie:
 * work sum over a of outdeg(a)^2 / 2, the number of oriented wedges. On a
 * degree-oriented R-MAT graph that is 3.8 times less: 2.98 G probes against
 * 11.26 G on scale 21 (counted on the host from the same DAG). Probes stay
 * in shared memory, with TRUST's open-addressing hash (load at most 1/2).
 *  1. Grouping by middle vertex: for every source entry p (b = sadj[p]) whose
 *     tail is not empty and whose b has out-neighbours, a record (p + 1,
 *     end of a's row) is filed under b: a count pass, a CUB exclusive scan,
 *     a scatter pass. Within b the records' order does not matter. The
 *     tail needs ids in rank order, as in the block layout's units; an LSTC
 *     layout partition numbers its vertices otherwise, so there a record
 *     is a's whole row (still exact: c in N(a) and N(b) means b -> c, and
 *     the wedge is found at b alone), with none of the saving.
 *  2. Counting: persistent warps take runs of MH_CHUNK consecutive records
 *     (so a hub's thousands of in-edges are shared among many warps), table
 *     N(b) of each b they meet in a warp-private shared region, and deal
 *     the records' tail entries to lanes round-robin after a warp prefix
 *     sum (as lstc-hash does for N(w)); a lane counts its hits, one 64-bit
 *     atomic per warp at the end. N(b) longer than half the table is tabled
 *     a piece at a time, re-reading the records per piece.
 * Input: a tsg_dag or 2D unit in device memory (dev_source, dev_mid), its
 * source lists under 2^32 - 2^24 entries (the runtime falls back to lstc above
 * that), and scratch of 8 bytes per middle row and per source entry plus
 * CUB's scan state (mid_hash_scratch says how much).
 * Launch: tally and scatter with a warp per source, 256 threads, 32 blocks
 * per SM at most; count with 256 threads (8 warps), table of `slots` ids
 * per warp (default 1024: 32 KiB per block), as many blocks as fit an SM.
 * When it wins: skewed graphs, where hubs have long in-lists and short
 * out-lists after orientation and tails are short; bench/RESULTS.md.
 */
#include <cub/device/device_scan.cuh>

#include "gpu_internal.cuh"

enum { MH_THREADS = 256, MH_WARPS = MH_THREADS / 32, MH_CHUNK = 256 };

#define MH_EMPTY 0xffffffffu

/* Files (scatter) or counts (tally) one record per source entry with a
 * non-empty tail whose middle vertex has out-neighbours; a warp per source. */
__global__ void mh_file_kernel(dev_dag d, uint32_t *pos, uint2 *rec, int scatter)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t nwarps = (gridDim.x * blockDim.x) >> 5;
	for (uint32_t k = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; k < d.nsrc; k += nwarps) {
		uint64_t tb, we, te;
		dev_source(d, k, &tb, &we, &te);
		for (uint64_t p = tb + lane; p < we; p += 32) {
			const uint32_t b = d.sadj[p];
			uint64_t mb, me;
			dev_mid(d, b, &mb, &me);
			/* ids are ranks in a unit, so c > b lies after b; a partition's
			 * ids are not in rank order, and the whole row is probed */
			const uint64_t from = d.windowed ? p + 1 : tb;
			if (from + 1 > te || (!d.windowed && te - tb < 2) || me == mb)
				continue;
			if (scatter)
				rec[atomicAdd(&pos[b - d.lo], 1u)] = make_uint2((uint32_t)from, (uint32_t)te);
			else
				atomicAdd(&pos[b - d.lo], 1u);
		}
	}
}

__device__ __forceinline__ uint32_t mh_slot(uint32_t x, uint32_t mask)
{
	return (x * 2654435761u) >> 7 & mask;
}

/* Counts the tail entries of records [r, re) found in N(b) = adj[mb, me). */
__device__ unsigned long long mh_vertex(const dev_dag &d, const uint2 *rec, uint32_t r, uint32_t re,
					uint64_t mb, uint64_t me, uint32_t *table, uint32_t slots,
					unsigned lane)
{
	unsigned long long count = 0;
	for (uint64_t t0 = mb; t0 < me; t0 += slots / 2) {
		const uint32_t tn = (uint32_t)min((uint64_t)slots / 2, me - t0);
		uint32_t size = 64;
		while (size < 4 * tn && size < slots)
			size <<= 1;
		const uint32_t mask = size - 1;
		for (uint32_t i = lane; i < size; i += 32)
			table[i] = MH_EMPTY;
		__syncwarp();
		for (uint32_t i = lane; i < tn; i += 32) {
			const uint32_t x = d.adj[t0 + i];
			uint32_t h = mh_slot(x, mask);
			while (atomicCAS(&table[h], MH_EMPTY, x) != MH_EMPTY)
				h = (h + 1) & mask; /* ids in a list are distinct */
		}
		__syncwarp();
		const uint32_t tmin = d.adj[t0], tmax = d.adj[t0 + tn - 1];
		for (uint32_t r0 = r; r0 < re; r0 += 32) {
			uint2 q = make_uint2(0, 0);
			if (r0 + lane < re)
				q = rec[r0 + lane];
			const uint32_t len = q.y - q.x;
			const uint32_t incl = warp_inclusive_sum(len, lane);
			const uint32_t total = __shfl_sync(0xffffffffu, incl, 31), excl = incl - len;
			for (uint32_t base = 0; base < total; base += 32) {
				const uint32_t idx = base + lane;
				const int own = warp_owner(excl, idx); /* whose tail holds idx */
				const uint32_t start = __shfl_sync(0xffffffffu, q.x, own);
				const uint32_t oex = __shfl_sync(0xffffffffu, excl, own);
				if (idx >= total)
					continue;
				const uint32_t x = d.sadj[start + (idx - oex)];
				if (x < tmin || x > tmax)
					continue;
				for (uint32_t h = mh_slot(x, mask);; h = (h + 1) & mask) {
					const uint32_t v = table[h];
					if (v == x) {
						count++;
						break;
					}
					if (v == MH_EMPTY)
						break;
				}
			}
		}
		__syncwarp(); /* the table is rebuilt next */
	}
	return count;
}

__global__ void __launch_bounds__(MH_THREADS)
mh_count_kernel(dev_dag d, const uint32_t *pos, const uint2 *rec, uint32_t nmid, uint32_t slots,
		dev_counters *c)
{
	extern __shared__ uint32_t tables[];
	const unsigned lane = threadIdx.x & 31;
	uint32_t *table = tables + (threadIdx.x >> 5) * slots;
	const uint32_t nrec = pos[nmid];
	unsigned long long count = 0;
	for (;;) {
		uint32_t r = 0;
		if (lane == 0)
			r = atomicAdd(&c->next_chunk, (unsigned)MH_CHUNK);
		r = __shfl_sync(0xffffffffu, r, 0);
		if (r >= nrec)
			break;
		const uint32_t r1 = min(r + (uint32_t)MH_CHUNK, nrec);
		/* pos[b] is now the end of b's records: find the first b ending after r */
		uint32_t lo = 0, hi = nmid;
		while (lo < hi) {
			const uint32_t m = (lo + hi) >> 1;
			if (pos[m] <= r)
				lo = m + 1;
			else
				hi = m;
		}
		for (uint32_t b = lo; r < r1; b++) {
			const uint32_t end = pos[b];
			if (end <= r)
				continue; /* no records */
			const uint32_t re = min(end, r1);
			uint64_t mb, me;
			dev_mid(d, b + d.lo, &mb, &me);
			count += mh_vertex(d, rec, r, re, mb, me, table, slots, lane);
			r = re;
		}
	}
	for (int o = 16; o > 0; o >>= 1)
		count += __shfl_down_sync(0xffffffffu, count, o);
	if (lane == 0 && count)
		atomicAdd(&c->triangles, count);
}

/* Scratch layout: pos (nmid + 1 uint32), CUB's state, records. */
static uint64_t mh_align(uint64_t x) { return (x + 255) & ~(uint64_t)255; }

static size_t mh_scan_bytes(uint32_t nmid)
{
	size_t bytes = 0;
	cub::DeviceScan::ExclusiveSum(nullptr, bytes, (uint32_t *)nullptr, (uint32_t *)nullptr,
				      (int64_t)nmid + 1);
	return bytes;
}

uint64_t mid_hash_scratch(uint32_t nmid, uint64_t src_entries)
{
	return mh_align(((uint64_t)nmid + 1) * 4) + mh_align(mh_scan_bytes(nmid)) + src_entries * 8;
}

cudaError_t mid_hash_launch(const dev_dag &d, uint8_t *scratch, unsigned slots, dev_counters *c,
			    int sms, cudaStream_t s)
{
	if (d.nsrc == 0)
		return cudaSuccess;
	const uint32_t nmid = d.hi - d.lo;
	uint32_t *pos = (uint32_t *)scratch;
	void *scan_tmp = scratch + mh_align(((uint64_t)nmid + 1) * 4);
	size_t scan_bytes = mh_scan_bytes(nmid);
	uint2 *rec = (uint2 *)((uint8_t *)scan_tmp + mh_align(scan_bytes));
	const size_t smem = (size_t)MH_WARPS * slots * sizeof(uint32_t);
	cudaError_t e = cudaFuncSetAttribute(mh_count_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
					     (int)smem);
	int per_sm = 0;
	if (e == cudaSuccess)
		e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mh_count_kernel, MH_THREADS, smem);
	if (e == cudaSuccess)
		e = cudaMemsetAsync(pos, 0, ((size_t)nmid + 1) * 4, s);
	if (e != cudaSuccess)
		return e;
	const unsigned file_blocks = (unsigned)min((d.nsrc + MH_WARPS - 1) / MH_WARPS, (uint32_t)sms * 32u);
	mh_file_kernel<<<file_blocks, MH_THREADS, 0, s>>>(d, pos, rec, 0);
	e = cub::DeviceScan::ExclusiveSum(scan_tmp, scan_bytes, pos, pos, (int64_t)nmid + 1, s);
	if (e != cudaSuccess)
		return e;
	mh_file_kernel<<<file_blocks, MH_THREADS, 0, s>>>(d, pos, rec, 1);
	mh_count_kernel<<<sms * (per_sm > 0 ? per_sm : 1), MH_THREADS, smem, s>>>(d, pos, rec, nmid,
										 slots, c);
	return cudaGetLastError();
}
