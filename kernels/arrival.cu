/*
 * arrival.cu - counting an arrival batch against the rows already resident
 * (layout arrival, partition/arrival.h; the mid-hash technique).
 *
 * Technique: the edges a batch completes (kernels/dag.h, struct tsg_batch)
 * are wedge records as in mid-hash (mid_hash.cu): edge a -> b files the
 * tail of out(a) after b under b, and out(b) is tabled and probed with it
 * (mid_probe.cuh). Every row stays on the device, appended in arrival
 * order, and is found by rank through rstart/rlen, so records hold 64-bit
 * indexes into the one row array.
 *  1. Place: the batch's rows were copied to the end of the row array;
 *     rstart/rlen of their ranks are set (a thread per vertex).
 *  2. File: a warp per batch vertex r files, for b in out(r) already
 *     resident (batch_of[b] <= k), the tail after b under b; and for each
 *     a in in(r) (earlier batches), the tail of out(a) after r under r,
 *     found by binary search. Count pass, CUB scan over all ranks, scatter
 *     pass; the count step finds its groups by binary search (sparse).
 *  3. Count: mid_probe.cuh's persistent warps.
 * Input: the batch staged by the host (struct gpu_batch_vertex table and
 * in lists in bbuf), at most 2^32 - 2^24 records (the runtime refuses more).
 * Launch: place 256 threads a block; file a warp per vertex, 256 threads,
 * 32 blocks per SM at most; count as mid-hash.
 * When it wins: the graph is read from disk and its oriented rows fit the
 * device: the count runs under the read, and only the last batch's is left
 * after it (bench/RESULTS.md).
 */
#include <cub/device/device_scan.cuh>

#include "gpu.h"
#include "mid_probe.cuh"

struct ar_batch {
	const struct gpu_batch_vertex *vt;
	const uint32_t *ins;
	uint32_t nbv, k;
	uint64_t base; /* where the batch's rows start in adj */
};

struct ar_state {
	uint64_t *rstart;
	uint32_t *rlen;
	const uint32_t *batch_of;
	const uint32_t *adj;
	uint32_t nv;
};

/* The resident rows, for the shared counting step. */
struct ar_rows {
	const uint64_t *rstart;
	const uint32_t *rlen;
	const uint32_t *tadj, *sadj;
	__device__ void mid(uint32_t b, uint64_t *mb, uint64_t *me) const
	{
		*mb = rstart[b];
		*me = *mb + rlen[b];
	}
};

__global__ void ar_place_kernel(ar_batch b, ar_state s)
{
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= b.nbv)
		return;
	const gpu_batch_vertex v = b.vt[i];
	s.rstart[v.rank] = b.base + v.row_off;
	s.rlen[v.rank] = v.row_len;
}

__device__ __forceinline__ void ar_file(uint32_t *pos, ulonglong2 *rec, int scatter, uint32_t b,
					uint64_t from, uint64_t end)
{
	if (scatter)
		rec[atomicAdd(&pos[b], 1u)] = make_ulonglong2(from, end);
	else
		atomicAdd(&pos[b], 1u);
}

__global__ void ar_file_kernel(ar_batch bt, ar_state s, uint32_t *pos, ulonglong2 *rec, int scatter)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t nwarps = (gridDim.x * blockDim.x) >> 5;
	for (uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; i < bt.nbv; i += nwarps) {
		const gpu_batch_vertex v = bt.vt[i];
		const uint64_t rb = bt.base + v.row_off, re = rb + v.row_len;
		for (uint64_t p = rb + lane; p + 1 < re; p += 32) { /* a = v: out-edges to resident b */
			const uint32_t b = s.adj[p];
			if (s.batch_of[b] <= bt.k && s.rlen[b] > 0)
				ar_file(pos, rec, scatter, b, p + 1, re);
		}
		if (v.row_len == 0)
			continue; /* out(b) empty: no in-edge closes a triangle */
		for (uint32_t t = lane; t < v.in_len; t += 32) { /* b = v: in-edges from earlier batches */
			const uint32_t a = bt.ins[v.in_off + t];
			const uint64_t ab = s.rstart[a], ae = ab + s.rlen[a];
			const uint64_t p = dev_lower_bound(s.adj, ab, ae, v.rank);
			if (p + 1 < ae && s.adj[p] == v.rank) /* always found in a symmetric graph */
				ar_file(pos, rec, scatter, v.rank, p + 1, ae);
		}
	}
}

size_t arrival_scan_bytes(uint32_t nv)
{
	size_t bytes = 0;
	cub::DeviceScan::ExclusiveSum(nullptr, bytes, (uint32_t *)nullptr, (uint32_t *)nullptr,
				      (int64_t)nv + 1);
	return bytes;
}

cudaError_t arrival_launch(const arrival_dev &a, const gpu_batch_vertex *vt, const uint32_t *ins,
			   uint32_t nbv, uint32_t k, uint64_t base, unsigned slots, dev_counters *c,
			   int sms, cudaStream_t s)
{
	const ar_batch bt = { vt, ins, nbv, k, base };
	const ar_state st = { a.rstart, a.rlen, a.batch_of, a.adj, a.nv };
	if (nbv == 0)
		return cudaSuccess;
	ar_place_kernel<<<(nbv + 255) / 256, 256, 0, s>>>(bt, st);
	cudaError_t e = cudaMemsetAsync(a.pos, 0, ((size_t)a.nv + 1) * 4, s);
	if (e == cudaSuccess)
		e = cudaMemsetAsync(&c->next_chunk, 0, sizeof(c->next_chunk), s);
	if (e != cudaSuccess)
		return e;
	const unsigned blocks = (unsigned)min((nbv + MH_WARPS - 1) / MH_WARPS, (uint32_t)sms * 32u);
	ar_file_kernel<<<blocks, MH_THREADS, 0, s>>>(bt, st, a.pos, a.rec, 0);
	size_t scan_bytes = a.scan_bytes;
	e = cub::DeviceScan::ExclusiveSum(a.scan_tmp, scan_bytes, a.pos, a.pos, (int64_t)a.nv + 1, s);
	if (e != cudaSuccess)
		return e;
	ar_file_kernel<<<blocks, MH_THREADS, 0, s>>>(bt, st, a.pos, a.rec, 1);
	const ar_rows rows = { a.rstart, a.rlen, a.adj, a.adj };
	return mh_count_launch(rows, a.pos, a.rec, a.nv, slots, c, sms, s);
}
