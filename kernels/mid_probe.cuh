/*
 * mid_probe.cuh - mid-hash's counting step, shared by the unit kernel
 * (mid_hash.cu) and the arrival kernel (arrival.cu).
 *
 * Records are filed by middle vertex b in pos/rec: b's records are
 * rec[pos[b-1] .. pos[b]) (pos[-1] = 0), each a tail [from, end) of some
 * out(a) to probe against a table of out(b). Persistent warps take runs of
 * MH_CHUNK records (a hub's thousands share many warps), table out(b) in a
 * warp-private shared region of `slots` words and deal the tails' entries
 * to lanes after a warp prefix sum, MH_UNROLL rounds at a time; one 64-bit
 * atomic per warp at the end. The table is a bitmap of out(b) over its own
 * span where that span is under slots * 32 ids (a bitmap in the style of
 * Bisson and Fatica's, but per middle vertex and bounded by the row's
 * span, not by n): one load a probe, no chains, no pieces. In the
 * degree order the heavy middle vertices are the high-rank ones, whose
 * out-lists hold only the highest ranks, so their spans are short: on
 * R-MAT 21 93% of the probes meet a span of at most 2^15 ids, on R-MAT 22
 * 88% (counted on the host). Elsewhere out(b) is hashed (TRUST's open
 * addressing, load at most 1/2, pieces of slots/2 ids for longer rows).
 * Bitmap and unrolling together: R-MAT 21 18.9 -> 9.3 ms, R-MAT 22 47.4 ->
 * 21.1 ms on the H100 (bench/RESULTS.md).
 * Rows gives out(b) as [mb, me) in rows.tadj and tails index rows.sadj;
 * rows.mid_id(b) is b's global id, for per-vertex counts (mh_pv: each hit
 * adds to c and to the record's source, each b its hits).
 * Launch: 256 threads (8 warps), slots ids of table per warp (32 KiB per
 * block at 1024), as many blocks as fit an SM; c->next_chunk zeroed first.
 */
#ifndef KERN_MID_PROBE_CUH
#define KERN_MID_PROBE_CUH

#include "kernels/gpu_internal.cuh"

enum { MH_THREADS = 256, MH_WARPS = MH_THREADS / 32, MH_CHUNK = 256, MH_UNROLL = 8 };

/* Slot of id x in a table of mask + 1 slots (a power of two). */
__device__ __forceinline__ uint32_t mh_slot(uint32_t x, uint32_t mask)
{
	return (x * 2654435761u) >> 7 & mask;
}

/* out(b) as a bitmap over its own span [lo, lo + span): a probe is one
 * shared load, no chain to walk (R-MAT 21: 93% of the probes meet an out(b)
 * spanning at most 2^15 ids, the bits of a 1024-slot region). */
struct mh_bits {
	const uint32_t *words;
	uint32_t lo;
	__device__ bool has(uint32_t x) const
	{
		const uint32_t y = x - lo;
		return words[y >> 5] >> (y & 31) & 1;
	}
};

/* out(b), or a piece of it, hashed: open addressing, x stored as x + 1 so
 * that the zeroed region reads empty (ids are below 2^32 - 1). */
struct mh_hash {
	const uint32_t *slots;
	uint32_t mask;
	__device__ bool has(uint32_t x) const
	{
		for (uint32_t h = mh_slot(x, mask);; h = (h + 1) & mask) {
			const uint32_t v = slots[h];
			if (v == x + 1)
				return true;
			if (v == 0)
				return false;
		}
	}
};

/* Deals the tail entries of records [r, re) to the lanes after a warp
 * prefix sum of their lengths and counts those in [tmin, tmax] that t has.
 * MH_UNROLL rounds of 32 entries at a time, so that a lane's loads of
 * them are in flight together: on R-MAT 21 one round at a time left the
 * count bound by their latency (10.6 ms; 2 rounds 10.2, 4 9.4, 8 9.3). */
template <class Rec, bool PV, class Table>
__device__ __forceinline__ unsigned long long
mh_deal(const uint32_t *sadj, const Rec *rec, uint32_t r, uint32_t re, uint32_t tmin,
	uint32_t tmax, const Table &t, unsigned lane, const mh_pv &pv)
{
	unsigned long long count = 0;
	for (uint32_t r0 = r; r0 < re; r0 += 32) {
		Rec q = {};
		if (r0 + lane < re)
			q = rec[r0 + lane];
		const uint32_t len = (uint32_t)(q.y - q.x);
		const uint32_t incl = warp_inclusive_sum(len, lane);
		const uint32_t total = __shfl_sync(0xffffffffu, incl, 31), excl = incl - len;
		for (uint32_t base = 0; base < total; base += 32 * MH_UNROLL) {
			uint32_t x[MH_UNROLL];
			int own[MH_UNROLL];
#pragma unroll
			for (int u = 0; u < MH_UNROLL; u++) {
				const uint32_t idx = base + 32 * u + lane;
				own[u] = warp_owner(excl, idx); /* whose tail holds idx */
				const auto start = __shfl_sync(0xffffffffu, q.x, own[u]);
				const uint32_t oex = __shfl_sync(0xffffffffu, excl, own[u]);
				x[u] = idx < total ? sadj[start + (idx - oex)] : 0xffffffffu; /* above tmax */
			}
#pragma unroll
			for (int u = 0; u < MH_UNROLL; u++) {
				if (x[u] < tmin || x[u] > tmax || !t.has(x[u]))
					continue;
				count++;
				if (PV) { /* c, and the record's source a */
					atomicAdd(&pv.pv[dev_global(pv.gid, x[u])], 1ull);
					atomicAdd(&pv.pv[pv.rec_a[r0 + own[u]]], 1ull);
				}
			}
		}
	}
	return count;
}

/* Counts the tail entries of records [r, re) found in out(b) = tadj[mb, me).
 * Rec is uint2 or ulonglong2: (from, end) indexes into sadj. The warp's
 * region (slots words) is zero on entry and is left zero; out(b) is a
 * bitmap where its span is under bit_span ids (at most slots * 32), else
 * hashed in pieces of slots / 2 ids at load at most 1/2. */
template <class Rec, bool PV>
__device__ unsigned long long mh_vertex(const uint32_t *tadj, const uint32_t *sadj, const Rec *rec,
					uint32_t r, uint32_t re, uint64_t mb, uint64_t me,
					uint32_t *table, uint32_t slots, uint32_t bit_span, unsigned lane,
					const mh_pv &pv)
{
	const uint32_t lo = tadj[mb], hi = tadj[me - 1];
	if (hi - lo < bit_span) { /* the bitmap fits */
		const uint32_t n = (uint32_t)(me - mb), words = ((hi - lo) >> 5) + 1;
		for (uint32_t i = lane; i < n; i += 32) {
			const uint32_t y = tadj[mb + i] - lo;
			atomicOr(&table[y >> 5], 1u << (y & 31));
		}
		__syncwarp();
		const unsigned long long count =
			mh_deal<Rec, PV>(sadj, rec, r, re, lo, hi, mh_bits{ table, lo }, lane, pv);
		__syncwarp();
		if (words <= n) /* zero the span, or the words out(b) set */
			for (uint32_t i = lane; i < words; i += 32)
				table[i] = 0;
		else
			for (uint32_t i = lane; i < n; i += 32)
				table[(tadj[mb + i] - lo) >> 5] = 0;
		__syncwarp();
		return count;
	}
	unsigned long long count = 0;
	for (uint64_t t0 = mb; t0 < me; t0 += slots / 2) { /* pieces of at most slots / 2 ids */
		const uint32_t tn = (uint32_t)min((uint64_t)slots / 2, me - t0);
		uint32_t size = 64;
		while (size < 4 * tn && size < slots)
			size <<= 1;
		const uint32_t mask = size - 1;
		for (uint32_t i = lane; i < tn; i += 32) {
			const uint32_t x = tadj[t0 + i];
			uint32_t h = mh_slot(x, mask);
			while (atomicCAS(&table[h], 0u, x + 1) != 0u)
				h = (h + 1) & mask; /* ids in a list are distinct */
		}
		__syncwarp();
		count += mh_deal<Rec, PV>(sadj, rec, r, re, tadj[t0], tadj[t0 + tn - 1],
					  mh_hash{ table, mask }, lane, pv);
		__syncwarp();
		for (uint32_t i = lane; i < size; i += 32)
			table[i] = 0;
		__syncwarp(); /* the region is zero again */
	}
	return count;
}

/* The first b in [lo, n) whose records end after r: a few steps forward
 * (middle vertices are dense in a unit), then a binary search (sparse in a
 * batch, whose pos spans the whole graph). */
__device__ __forceinline__ uint32_t mh_group_of(const uint32_t *pos, uint32_t lo, uint32_t n,
						uint32_t r)
{
	for (int i = 0; i < 4 && lo < n; i++, lo++)
		if (pos[lo] > r)
			return lo;
	uint32_t hi = n;
	while (lo < hi) {
		const uint32_t m = (lo + hi) >> 1;
		if (pos[m] <= r)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

template <class Rows, class Rec, bool PV>
__global__ void __launch_bounds__(MH_THREADS)
mh_count_kernel(Rows rows, const uint32_t *pos, const Rec *rec, uint32_t nmid, uint32_t slots,
		uint32_t bit_span, dev_counters *c, mh_pv pv)
{
	extern __shared__ uint32_t tables[];
	const unsigned lane = threadIdx.x & 31;
	uint32_t *table = tables + (threadIdx.x >> 5) * slots;
	const uint32_t nrec = pos[nmid];
	for (uint32_t i = lane; i < slots; i += 32)
		table[i] = 0; /* mh_vertex's entry state */
	__syncwarp();
	unsigned long long count = 0;
	for (;;) {
		uint32_t r = 0;
		if (lane == 0)
			r = atomicAdd(&c->next_chunk, (unsigned)MH_CHUNK);
		r = __shfl_sync(0xffffffffu, r, 0);
		if (r >= nrec)
			break;
		const uint32_t r1 = min(r + (uint32_t)MH_CHUNK, nrec);
		for (uint32_t b = mh_group_of(pos, 0, nmid, r); r < r1;) {
			const uint32_t re = min(pos[b], r1);
			uint64_t mb, me;
			rows.mid(b, &mb, &me);
			const unsigned long long n = mh_vertex<Rec, PV>(rows.tadj, rows.sadj, rec, r, re,
									  mb, me, table, slots, bit_span,
									  lane, pv);
			if (PV && n) /* the middle vertex b */
				atomicAdd(&pv.pv[rows.mid_id(b)], n);
			count += n;
			r = re;
			if (r < r1)
				b = mh_group_of(pos, b + 1, nmid, r);
		}
	}
	count = warp_sum(count);
	if (lane == 0 && count)
		atomicAdd(&c->triangles, count);
}

template <class Rows, class Rec, bool PV>
cudaError_t mh_count_launch_as(const Rows &rows, const uint32_t *pos, const Rec *rec, uint32_t nmid,
			       unsigned slots, int bits, dev_counters *c, int sms, const mh_pv &pv,
			       cudaStream_t s)
{
	const size_t smem = (size_t)MH_WARPS * slots * sizeof(uint32_t);
	cudaError_t e = cudaFuncSetAttribute(mh_count_kernel<Rows, Rec, PV>,
					     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
	int per_sm = 0;
	if (e == cudaSuccess)
		e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			&per_sm, mh_count_kernel<Rows, Rec, PV>, MH_THREADS, smem);
	if (e != cudaSuccess)
		return e;
	mh_count_kernel<Rows, Rec, PV><<<sms * (per_sm > 0 ? per_sm : 1), MH_THREADS, smem, s>>>(
		rows, pos, rec, nmid, slots, bits ? slots * 32u : 0u, c, pv);
	return cudaGetLastError();
}

/* Per-vertex counting is a separate instance: the plain count keeps its code. */
template <class Rows, class Rec>
cudaError_t mh_count_launch(const Rows &rows, const uint32_t *pos, const Rec *rec, uint32_t nmid,
			    unsigned slots, int bits, dev_counters *c, int sms, const mh_pv &pv,
			    cudaStream_t s)
{
	if (pv.pv)
		return mh_count_launch_as<Rows, Rec, true>(rows, pos, rec, nmid, slots, bits, c,
							   sms, pv, s);
	return mh_count_launch_as<Rows, Rec, false>(rows, pos, rec, nmid, slots, bits, c, sms,
						    pv, s);
}

#endif
