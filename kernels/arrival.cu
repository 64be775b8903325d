/*
 * arrival.cu - orienting an arrival batch on the device and counting it
 * against the rows already resident (layout arrival, partition/arrival.h;
 * the mid-hash technique).
 *
 * Technique: the edges a batch completes (kernels/dag.h, struct tsg_batch)
 * are wedge records as in mid-hash (mid_hash.cu): edge a -> b files the
 * tail of out(a) after b under b, and out(b) is tabled and probed with it
 * (mid_probe.cuh). The host sends a batch's lists as the file holds them
 * (ids, id-sorted, straight from the pinned pages they were read or decoded
 * into), so the host writes no rows; the device orients them:
 *  1. Orient (a thread per list entry): each neighbour id becomes its rank,
 *     in place; count out(v) (higher rank) and in(v) (lower rank and an id
 *     before the batch: a prefix of the list, which ascends by id).
 *  2. CUB scans place every row and in list; the same pass, again, writes
 *     them; a CUB segmented sort orders each row by rank.
 *  3. Place: the rows are appended to the resident row array at its fill
 *     mark, kept on the device (the host never learns a batch's row count,
 *     so nothing waits for it), and rstart/rlen of their ranks are set. A
 *     batch that would overflow the array is not placed and is flagged: only
 *     an asymmetric graph brings one, and its read then fails.
 *  4. File: for b in out(v) already resident (batch_of[b] <= k), the tail
 *     of out(v) after b under b (a warp per vertex); for each in-edge a -> v
 *     from an earlier batch, the tail of out(a) after v under v, found by
 *     binary search (a thread per edge). Count pass, CUB scan over all
 *     ranks, scatter pass; the count step finds its groups by binary search
 *     (they are sparse).
 *  5. Count: mid_probe.cuh's persistent warps.
 * Steps 1-3 of batch k + 1 run on a stream of their own beside step 5 of
 * batch k (its rows go past the fill mark, and step 5 reads only rows
 * already placed), so the count's last warps and the next batch's
 * orienting and sorting share the device instead of taking turns (R-MAT
 * 26 on an H100: the device's time 2.28 -> 2.18 s with the single search
 * below; the count's persistent warps leave little room beside them,
 * bench/RESULTS.md, session 35); step 4
 * waits for both, as it reads what step 3 placed and writes the records
 * step 5 reads, and step 1 of the next batch waits for step 4, which reads
 * the in-edges and scratch that step 1 writes.
 * On several devices (gpu_arrival_share) each orients and places every
 * batch, since an edge may need any row, and files one share of its edges,
 * so the count is split and the orientation repeated; in groups, a share
 * of a unit's edges within its group (every nshares-th source,
 * ag_pair_file_kernel; a batch counted alone: ag_file_kernel's share, as
 * above), while the runtime deals the pieces of earlier groups among the
 * devices.
 * Input: one batch's offsets and lists, below 2^31 list entries (the
 * runtime refuses more), and the rank of every id.
 * Launch: 256 threads a block; orient 16 blocks per SM at most, file as
 * many as a warp per vertex or a thread per entry needs up to 32 per SM,
 * place 8; count as mid-hash.
 * When it wins: the graph is read from disk and its oriented rows fit the
 * device: the count runs under the read, and only the last batch's is left
 * after it (bench/RESULTS.md).
 */
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "kernels/gpu.h"
#include "kernels/mid_probe.cuh"

/* One batch, as the launch sees it (arrays of arrival_dev). */
struct ar_batch {
	const uint64_t *off;                 /* nbv + 1 list offsets, as in the file */
	uint32_t *lst, *tmp;
	uint2 *ins;                          /* in-edges (a, v): a -> v, ranks */
	uint32_t *row_at, *in_at, *pre, *row_fill, *in_fill; /* per batch vertex */
	uint64_t lo;                         /* the batch's first id */
	uint32_t nbv, k;
	uint32_t share, nshares;             /* this device files edges of its share only */
};

struct ar_state {
	uint64_t *rstart;
	uint32_t *rlen;
	const uint32_t *batch_of, *rank;
	uint32_t *adj;
	arrival_fill *fill;
	uint64_t cap;
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
	__device__ uint32_t mid_id(uint32_t b) const { return b; } /* ranks are global */
};

/* The batch vertex whose list holds entry y (an offset as in the file):
 * the last i with off[i] <= y. */
__device__ __forceinline__ uint32_t ar_owner(const uint64_t *off, uint32_t nbv, uint64_t y)
{
	uint32_t lo = 0, hi = nbv;
	while (hi - lo > 1) {
		const uint32_t m = (lo + hi) >> 1;
		if (off[m] <= y)
			lo = m;
		else
			hi = m;
	}
	return lo;
}

/* A thread per list entry, not a warp per vertex: a hub's list of a million
 * entries would hold one warp while the rest of the batch is done. Pass 0
 * (count): ids to ranks in lst, and each vertex's row, in-list and
 * early-prefix lengths. Pass 1 (write): rows to tmp, in-edges to ins, at
 * places claimed with one atomic per vertex and warp; order within a row
 * does not matter, the sort comes next. Lanes with the same vertex (a
 * warp's entries are consecutive) add up first, so a hub takes an atomic
 * per 32 entries. */
__global__ void ar_orient_kernel(ar_batch bt, ar_state s, int write)
{
	const unsigned lane = threadIdx.x & 31, below = (1u << lane) - 1;
	const uint64_t e0 = bt.off[0], n = bt.off[bt.nbv] - e0;
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t x0 = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x - lane; x0 < n; x0 += stride) {
		const uint64_t x = x0 + lane;
		const bool ok = x < n;
		uint32_t i = 0, w = 0, rv = 0;
		bool early = false;
		if (ok) {
			i = ar_owner(bt.off, bt.nbv, e0 + x);
			rv = s.rank[bt.lo + i];
			w = bt.lst[x];
			if (write) {
				early = e0 + x - bt.off[i] < bt.pre[i];
			} else {
				early = w < bt.lo; /* lists ascend by id: a prefix */
				bt.lst[x] = w = s.rank[w];
			}
		}
		const bool up = ok && w > rv, down = early && w < rv;
		const unsigned peers = __match_any_sync(0xffffffffu, ok ? i : 0xffffffffu);
		const int leader = __ffs(peers) - 1;
		const unsigned mu = __ballot_sync(0xffffffffu, up) & peers;
		const unsigned md = __ballot_sync(0xffffffffu, down) & peers;
		const unsigned me = write ? 0 : __ballot_sync(0xffffffffu, early) & peers;
		uint32_t rbase = 0, ibase = 0;
		if (ok && (int)lane == leader) {
			if (!write) {
				if (mu)
					atomicAdd(&bt.row_at[i], __popc(mu));
				if (md)
					atomicAdd(&bt.in_at[i], __popc(md));
				if (me)
					atomicAdd(&bt.pre[i], __popc(me));
			} else {
				if (mu)
					rbase = atomicAdd(&bt.row_fill[i], __popc(mu));
				if (md)
					ibase = atomicAdd(&bt.in_fill[i], __popc(md));
			}
		}
		if (!write)
			continue;
		rbase = __shfl_sync(0xffffffffu, rbase, leader);
		ibase = __shfl_sync(0xffffffffu, ibase, leader);
		if (up)
			bt.tmp[bt.row_at[i] + rbase + __popc(mu & below)] = w;
		if (down)
			bt.ins[bt.in_at[i] + ibase + __popc(md & below)] = make_uint2(w, rv);
	}
}

/* Appends the sorted rows (lst) at the fill mark and indexes them. */
__global__ void ar_place_kernel(ar_batch bt, ar_state s)
{
	const uint64_t used = s.fill->used, total = bt.row_at[bt.nbv];
	const uint64_t t = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	if (used + total > s.cap) {
		if (t == 0)
			s.fill->overflow = 1;
		return;
	}
	for (uint64_t j = t; j < total; j += stride)
		s.adj[used + j] = bt.lst[j];
	for (uint64_t i = t; i < bt.nbv; i += stride) {
		const uint32_t v = s.rank[bt.lo + i];
		s.rstart[v] = used + bt.row_at[i];
		s.rlen[v] = bt.row_at[i + 1] - bt.row_at[i];
	}
}

__global__ void ar_advance_kernel(ar_batch bt, ar_state s)
{
	const uint64_t total = bt.row_at[bt.nbv];
	if (s.fill->used + total <= s.cap)
		s.fill->used += total;
}

/* Counts (pass 0) or files (pass 1) record r, source a, under middle
 * index b; a record past cap is not written (a unit of batches' records
 * are bounded only where the lists are symmetric: ag_unit_clamp_kernel;
 * elsewhere the default cap folds away). */
template <class Rec>
__device__ __forceinline__ void ar_put(uint32_t *pos, Rec *rec, uint32_t *rec_a, int scatter,
				       uint32_t a, uint32_t b, Rec r, uint64_t cap = UINT64_MAX)
{
	if (!scatter) {
		atomicAdd(&pos[b], 1u);
		return;
	}
	const uint32_t at = atomicAdd(&pos[b], 1u);
	if (at >= cap)
		return;
	rec[at] = r;
	if (rec_a) /* per-vertex counts: the source */
		rec_a[at] = a;
}

__device__ __forceinline__ void ar_file(uint32_t *pos, ulonglong2 *rec, uint32_t *rec_a,
					int scatter, uint32_t a, uint32_t b, uint64_t from,
					uint64_t end)
{
	ar_put(pos, rec, rec_a, scatter, a, b, make_ulonglong2(from, end));
}

/* Out-edges a warp per vertex (a row is short: orientation bounds it);
 * in-edges a thread each, since a hub's in-list may hold most of a batch's
 * and each takes a binary search, done once: the count pass leaves where
 * the tail starts in tmp (free once the sort has read it), for the scatter
 * pass. With several devices (nshares), each
 * files the out-edges of every nshares-th batch vertex from its share on,
 * and the in-edges (a, v) with (a + v) mod nshares its share (by the edge,
 * not its place in ins, which differs from device to device): each edge
 * on one device, dealt finely so that a batch's hubs spread over them. */
__global__ void ar_file_kernel(ar_batch bt, ar_state s, uint32_t *pos, ulonglong2 *rec,
			       uint32_t *rec_a, int scatter)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t nwarps = (gridDim.x * blockDim.x) >> 5;
	const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	for (uint64_t i = (uint64_t)warp * bt.nshares + bt.share; i < bt.nbv;
	     i += (uint64_t)nwarps * bt.nshares) {
		const uint32_t v = s.rank[bt.lo + i];
		const uint64_t rb = s.rstart[v], re = rb + s.rlen[v]; /* empty if not placed */
		for (uint64_t p = rb + lane; p + 1 < re; p += 32) { /* a = v: out-edges to resident b */
			const uint32_t b = s.adj[p];
			if (s.batch_of[b] <= bt.k && s.rlen[b] > 0)
				ar_file(pos, rec, rec_a, scatter, v, b, p + 1, re);
		}
	}
	const uint64_t nin = bt.in_at[bt.nbv], stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < nin; t += stride) {
		const uint2 q = bt.ins[t]; /* b = q.y: in-edges from earlier batches */
		if (scatter) {
			const uint32_t tail = bt.tmp[t];
			if (tail != UINT32_MAX) {
				const uint64_t ab = s.rstart[q.x];
				ar_file(pos, rec, rec_a, 1, q.x, q.y, ab + tail, ab + s.rlen[q.x]);
			}
			continue;
		}
		uint32_t tail = UINT32_MAX;
		/* shared by the edge, not its place: each device writes its
		 * in-edges in its own order (atomics); an empty out(b) closes
		 * no triangle */
		if ((bt.nshares == 1 || (q.x + q.y) % bt.nshares == bt.share) && s.rlen[q.y] != 0) {
			const uint64_t ab = s.rstart[q.x], ae = ab + s.rlen[q.x];
			const uint64_t p = dev_lower_bound(s.adj, ab, ae, q.y);
			if (p + 1 < ae && s.adj[p] == q.y) { /* always found in a symmetric graph */
				ar_file(pos, rec, rec_a, 0, q.x, q.y, p + 1, ae);
				tail = (uint32_t)(p + 1 - ab);
			}
		}
		bt.tmp[t] = tail;
	}
}

size_t arrival_scan_bytes(uint32_t n, cudaError_t *e)
{
	size_t bytes = 0;
	const cudaError_t q = cub::DeviceScan::ExclusiveSum(nullptr, bytes, (uint32_t *)nullptr,
							    (uint32_t *)nullptr, (int64_t)n + 1);
	if (q != cudaSuccess && *e == cudaSuccess)
		*e = q;
	return bytes;
}

size_t arrival_sort_bytes(uint64_t entries, uint32_t nbv, cudaError_t *e)
{
	size_t bytes = 0;
	const cudaError_t q = cub::DeviceSegmentedSort::SortKeys(
		nullptr, bytes, (const uint32_t *)nullptr, (uint32_t *)nullptr, (int64_t)entries,
		(int64_t)nbv, (uint32_t *)nullptr, (uint32_t *)nullptr);
	if (q != cudaSuccess && *e == cudaSuccess)
		*e = q;
	return bytes;
}

/* Steps 1 and 2 on s, once filed has passed: batch bt's rows sorted in
 * a.lst by row_at, its in-edges in a.ins by in_at. */
static cudaError_t ar_orient(const arrival_dev &a, const ar_batch &bt, const ar_state &st,
			     uint64_t entries, unsigned flat, cudaStream_t s, cudaEvent_t filed)
{
	const uint32_t nbv = bt.nbv;
	/* the batch before is filed: its in-edges and tails are read */
	cudaError_t e = cudaStreamWaitEvent(s, filed, 0);
	uint32_t *zero[5] = { a.row_at, a.in_at, a.pre, a.row_fill, a.in_fill };
	for (int z = 0; z < 5 && e == cudaSuccess; z++)
		e = cudaMemsetAsync(zero[z], 0, ((size_t)nbv + 1) * 4, s);
	if (e != cudaSuccess)
		return e;
	ar_orient_kernel<<<flat, 256, 0, s>>>(bt, st, 0);
	GPU_LAUNCHED();
	size_t scan_bytes = a.scan_bytes, sort_bytes = a.sort_bytes;
	e = cub::DeviceScan::ExclusiveSum(a.scan_tmp, scan_bytes, a.row_at, a.row_at,
					  (int64_t)nbv + 1, s);
	if (e == cudaSuccess)
		e = cub::DeviceScan::ExclusiveSum(a.scan_tmp, scan_bytes, a.in_at, a.in_at,
						  (int64_t)nbv + 1, s);
	if (e != cudaSuccess)
		return e;
	ar_orient_kernel<<<flat, 256, 0, s>>>(bt, st, 1);
	GPU_LAUNCHED();
	/* entries bounds the rows (they are some of the lists' entries): it
	 * sizes CUB's work, the offsets say where each row is */
	return cub::DeviceSegmentedSort::SortKeys(a.sort_tmp, sort_bytes, a.tmp, a.lst,
						  (int64_t)entries, (int64_t)nbv, a.row_at,
						  a.row_at + 1, s);
}

cudaError_t arrival_launch(const arrival_dev &a, uint64_t lo, uint32_t nbv, uint64_t entries,
			   uint32_t k, int count, unsigned slots, int bits, dev_counters *c, int sms,
			   cudaStream_t s, cudaStream_t cs, cudaEvent_t placed, cudaEvent_t filed)
{
	const ar_batch bt = { a.off, a.lst, a.tmp, a.ins, a.row_at, a.in_at, a.pre, a.row_fill,
			      a.in_fill, lo, nbv, k, a.share, a.nshares ? a.nshares : 1 };
	const ar_state st = { a.rstart, a.rlen, a.batch_of, a.rank, a.adj, a.fill, a.cap };
	if (nbv == 0)
		return cudaSuccess;
	const unsigned warps = (unsigned)min((nbv + MH_WARPS - 1) / MH_WARPS, (uint32_t)sms * 32u);
	const unsigned flat = (unsigned)min((entries + 255) / 256 + 1, (uint64_t)sms * 16);
	cudaError_t e = ar_orient(a, bt, st, entries, flat, s, filed);
	if (e != cudaSuccess)
		return e;
	size_t scan_bytes;
	const uint64_t place = (max((uint64_t)nbv, entries) + 255) / 256;
	ar_place_kernel<<<(unsigned)min(place, (uint64_t)sms * 8), 256, 0, s>>>(bt, st);
	GPU_LAUNCHED();
	ar_advance_kernel<<<1, 1, 0, s>>>(bt, st);
	GPU_LAUNCHED();
	/* the rest on the counting stream once placed (and once the batch
	 * before is counted: the same stream) */
	e = cudaEventRecord(placed, s);
	if (e == cudaSuccess)
		e = cudaStreamWaitEvent(cs, placed, 0);
	if (e != cudaSuccess || !count)
		return e == cudaSuccess ? cudaEventRecord(filed, cs) : e;
	e = cudaMemsetAsync(a.pos, 0, ((size_t)a.nv + 1) * 4, cs);
	if (e == cudaSuccess)
		e = cudaMemsetAsync(&c->next_chunk, 0, sizeof(c->next_chunk), cs);
	if (e != cudaSuccess)
		return e;
	ar_file_kernel<<<max(warps, flat), MH_THREADS, 0, cs>>>(bt, st, a.pos, a.rec, a.pv ? a.rec_a : nullptr, 0);
	GPU_LAUNCHED();
	scan_bytes = a.scan_bytes;
	e = cub::DeviceScan::ExclusiveSum(a.scan_tmp2, scan_bytes, a.pos, a.pos, (int64_t)a.nv + 1, cs);
	if (e != cudaSuccess)
		return e;
	ar_file_kernel<<<max(warps, flat), MH_THREADS, 0, cs>>>(bt, st, a.pos, a.rec, a.pv ? a.rec_a : nullptr, 1);
	GPU_LAUNCHED();
	e = cudaEventRecord(filed, cs);
	if (e != cudaSuccess)
		return e;
	const ar_rows rows = { a.rstart, a.rlen, a.adj, a.adj };
	const mh_pv pv = { a.pv, nullptr, a.rec_a };
	return mh_count_launch(rows, a.pos, a.rec, a.nv, slots, bits, c, sms, pv, cs);
}

/*
 * Groups: the arrival layout where the oriented rows outgrow the device
 * (batch pairs, docs/PERFORMANCE.md; bench/pairs_study.py modelled it).
 * The batches are cut into groups of consecutive ids, each group's rows
 * small enough for region A. A batch is placed in A; the edges it
 * completes within its group are counted a unit of consecutive batches at
 * a time (arrival_unit_launch: every edge of A with an end in the unit,
 * found by a pass over A's rows so far, one launch for the unit, so that
 * a middle row is tabled once a unit, not once a batch), or, with
 * TSG_ARRIVAL_GROUP_UNITS=0, by each batch at once as above; the edges
 * between a group and the earlier ones wait for the group's end, when
 * its rows go to the host and every earlier group's rows come back a
 * piece at a time into region B: an edge a -> b between the two needs
 * out(a) and out(b) alone, one in A and one in B, whatever group c lies
 * in. So every edge is counted once, in the later of its endpoints'
 * groups. Rows are addressed by id within their region (rs/rl per id,
 * rank -> id through id_of), so the device keeps at most 8 bytes a vertex
 * (rank, id_of) and not a row index; id_of from rank0 on, as no row holds
 * an id of degree 0 (ag_id).
 */

/* A region's rows: ids lo .. hi-1, row of id at adj[rs[id - lo] - base ..
 * + rl[id - lo]) (base: where a piece of a group's rows began). */
struct ag_region {
	const uint32_t *adj;
	const uint32_t *rs, *rl;
	uint64_t lo, hi;
	uint32_t base;
	__device__ bool holds(uint64_t id) const { return id >= lo && id < hi; }
	__device__ uint32_t start(uint64_t id) const { return rs[id - lo] - base; }
	__device__ uint32_t len(uint64_t id) const { return rl[id - lo]; }
};

/* The count step's rows: middle vertices by index L in region t (its id
 * t.lo + L), tails in region s. */
struct ag_rows {
	ag_region t;
	const uint32_t *tadj, *sadj;
	const uint32_t *rank;
	__device__ void mid(uint32_t L, uint64_t *mb, uint64_t *me) const
	{
		*mb = t.start(t.lo + L);
		*me = *mb + t.len(t.lo + L);
	}
	__device__ uint32_t mid_id(uint32_t L) const { return rank[t.lo + L]; } /* pv by rank */
};

/* The id of rank r; for a rank below rank0 (an id of degree 0, which only
 * an asymmetric file lists, and its read then fails) UINT64_MAX, which no
 * region holds. */
__device__ __forceinline__ uint64_t ag_id(const uint32_t *id_of, uint32_t rank0, uint32_t r)
{
	return r >= rank0 ? id_of[r - rank0] : UINT64_MAX;
}

__device__ __forceinline__ void ag_put(uint32_t *pos, uint2 *rec, uint32_t *rec_a, int scatter,
				       uint32_t a, uint32_t L, uint32_t from, uint32_t end,
				       uint64_t cap = UINT64_MAX)
{
	ar_put(pos, rec, rec_a, scatter, a, L, make_uint2(from, end), cap);
}

/* After a unit's filing: a unit's records are bounded by its list
 * entries only where the lists are symmetric, which the read checks as
 * they come (io/check.h), so a crafted file could bring more than the
 * region holds (those not written: ar_put's cap). They leave none to
 * count (the count reads pos[nt] records) and mark the fill as
 * overflowed, which fails the run (gpu_arrival_end's overflow) rather
 * than count what was not filed. */
__global__ void ag_unit_clamp_kernel(uint32_t *pos, uint64_t nt, uint64_t cap, arrival_fill *fill)
{
	if (pos[nt] > cap) {
		pos[nt] = 0;
		fill->overflow = 1;
	}
}

/* Appends batch k's sorted rows at A's fill mark and indexes them by id. */
__global__ void ag_place_kernel(ar_batch bt, arrival_fill *fill, uint32_t *adj, uint32_t *rs,
				uint32_t *rl, uint64_t a_lo, uint64_t cap)
{
	const uint64_t used = fill->used, total = bt.row_at[bt.nbv];
	const uint64_t t = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	if (used + total > cap) {
		if (t == 0)
			fill->overflow = 1;
		return;
	}
	for (uint64_t j = t; j < total; j += stride)
		adj[used + j] = bt.lst[j];
	for (uint64_t i = t; i < bt.nbv; i += stride) {
		rs[bt.lo + i - a_lo] = (uint32_t)(used + bt.row_at[i]);
		rl[bt.lo + i - a_lo] = bt.row_at[i + 1] - bt.row_at[i];
	}
}

__global__ void ag_advance_kernel(ar_batch bt, arrival_fill *fill, uint64_t cap)
{
	const uint64_t total = bt.row_at[bt.nbv];
	if (fill->used + total <= cap)
		fill->used += total;
}

/* Batch k's edges within its group (region A, ids a.lo .. end of the
 * batch): out-edges v -> b with b placed, and in-edges a -> v from the
 * group's earlier batches (tails found by binary search in the count pass,
 * kept in tmp for the scatter pass, as ar_file_kernel does). With several
 * devices, the same share of them as ar_file_kernel's: every nshares-th
 * vertex's out-edges, the in-edges (a, v) by (a + v) mod nshares. */
__global__ void ag_file_kernel(ar_batch bt, ag_region a, const uint32_t *id_of, uint32_t rank0,
			       const uint32_t *rank, uint32_t *pos, uint2 *rec, uint32_t *rec_a,
			       int scatter)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t nwarps = (gridDim.x * blockDim.x) >> 5;
	const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	for (uint64_t i = (uint64_t)warp * bt.nshares + bt.share; i < bt.nbv;
	     i += (uint64_t)nwarps * bt.nshares) {
		const uint64_t v = bt.lo + i;
		const uint32_t rb = a.start(v), re = rb + a.len(v);
		for (uint32_t p = rb + lane; p + 1 < re; p += 32) {
			const uint64_t b = ag_id(id_of, rank0, a.adj[p]);
			if (a.holds(b) && a.len(b) > 0)
				ag_put(pos, rec, rec_a, scatter, rec_a ? rank[v] : 0,
				       (uint32_t)(b - a.lo), p + 1, re);
		}
	}
	const uint64_t nin = bt.in_at[bt.nbv], stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < nin; t += stride) {
		const uint2 q = bt.ins[t]; /* a -> v, ranks; a read before the batch */
		const uint64_t ia = ag_id(id_of, rank0, q.x), iv = ag_id(id_of, rank0, q.y);
		if (scatter) {
			const uint32_t tail = bt.tmp[t];
			if (tail != UINT32_MAX) {
				const uint32_t ab = a.start(ia);
				ag_put(pos, rec, rec_a, 1, q.x, (uint32_t)(iv - a.lo), ab + tail,
				       ab + a.len(ia));
			}
			continue;
		}
		uint32_t tail = UINT32_MAX;
		if ((bt.nshares == 1 || (q.x + q.y) % bt.nshares == bt.share) && a.holds(ia) &&
		    a.holds(iv) && a.len(iv) != 0) { /* a in the group; out(v) can close one */
			const uint32_t ab = a.start(ia), ae = ab + a.len(ia);
			const uint64_t p = dev_lower_bound(a.adj, ab, ae, q.y);
			if (p + 1 < ae && a.adj[p] == q.y) {
				ag_put(pos, rec, rec_a, 0, q.x, (uint32_t)(iv - a.lo), 0, 0);
				tail = (uint32_t)(p + 1 - ab);
			}
		}
		bt.tmp[t] = tail;
	}
}

/* The edges a -> b with a among ids c0 .. c1-1 of region s and b in region
 * t, and a or b at least late: the tail of out(a) after b, in s, filed
 * under b's index in t. Pairs of regions pass late 0; a unit of batches
 * (arrival_unit_launch) passes its first id, so that the edges both of
 * whose ends came before it, counted by an earlier unit, are left out.
 * With several devices, every nshares-th source (share). */
__global__ void ag_pair_file_kernel(ag_region s, uint64_t c0, uint64_t c1, ag_region t,
				    uint64_t late, uint32_t share, uint32_t nshares, uint64_t cap,
				    const uint32_t *id_of, uint32_t rank0, const uint32_t *rank,
				    uint32_t *pos, uint2 *rec, uint32_t *rec_a, int scatter)
{
	const unsigned lane = threadIdx.x & 31;
	const uint64_t nwarps = (gridDim.x * blockDim.x) >> 5;
	const uint64_t warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	for (uint64_t v = c0 + warp; v < c1; v += nwarps) {
		if (nshares > 1 && v % nshares != share)
			continue;
		const uint32_t rb = s.start(v), re = rb + s.len(v);
		for (uint32_t p = rb + lane; p + 1 < re; p += 32) {
			const uint64_t b = ag_id(id_of, rank0, s.adj[p]);
			if (t.holds(b) && t.len(b) > 0 && (v >= late || b >= late))
				ag_put(pos, rec, rec_a, scatter, rec_a ? rank[v] : 0,
				       (uint32_t)(b - t.lo), p + 1, re, cap);
		}
	}
}

static ag_region ag_region_a(const arrival_dev &a)
{
	return { a.adj_a, a.rs_a, a.rl_a, a.a_lo, a.a_hi, 0 };
}

static ag_region ag_region_b(const arrival_dev &a)
{
	return { a.adj_b, a.rs_b, a.rl_b, a.b_lo, a.b_hi, a.b_base };
}

/* Records of region t's middle vertices: pos cleared, filed twice around a
 * scan (as arrival_launch does), then counted; tallied: the first pass and
 * the scan are done already (arrival_pair_tally). */
template <class File>
static cudaError_t ag_count(const arrival_dev &a, const ag_region &t, const uint32_t *sadj,
			    const File &file, unsigned slots, int bits, dev_counters *c, int sms,
			    cudaStream_t cs, cudaEvent_t filed, int tallied = 0)
{
	const uint64_t nt = t.hi - t.lo;
	cudaError_t e = cudaMemsetAsync(&c->next_chunk, 0, sizeof(c->next_chunk), cs);
	if (e == cudaSuccess && !tallied)
		e = cudaMemsetAsync(a.pos, 0, ((size_t)nt + 1) * 4, cs);
	if (e == cudaSuccess && !tallied)
		e = file(0);
	size_t scan_bytes = a.scan_bytes;
	if (e == cudaSuccess && !tallied)
		e = cub::DeviceScan::ExclusiveSum(a.scan_tmp2, scan_bytes, a.pos, a.pos,
						  (int64_t)nt + 1, cs);
	if (e == cudaSuccess)
		e = file(1);
	if (e == cudaSuccess && filed)
		e = cudaEventRecord(filed, cs);
	if (e != cudaSuccess)
		return e;
	const ag_rows rows = { t, t.adj, sadj, a.rank };
	const mh_pv pv = { a.pv, nullptr, a.rec_a };
	return mh_count_launch(rows, a.pos, (const uint2 *)a.rec, (uint32_t)nt, slots, bits, c, sms,
			       pv, cs);
}

cudaError_t arrival_group_launch(const arrival_dev &a, uint64_t lo, uint32_t nbv,
				 uint64_t entries, uint32_t k, int count, int defer, unsigned slots,
				 int bits, dev_counters *c, int sms, cudaStream_t s, cudaStream_t cs,
				 cudaEvent_t placed, cudaEvent_t filed, unsigned long long *used)
{
	const ar_batch bt = { a.off, a.lst, a.tmp, a.ins, a.row_at, a.in_at, a.pre, a.row_fill,
			      a.in_fill, lo, nbv, k, a.share, a.nshares ? a.nshares : 1 };
	const ar_state st = { nullptr, nullptr, nullptr, a.rank, nullptr, a.fill, 0 };
	cudaError_t e = cudaSuccess;
	if (nbv == 0) { /* the fill mark as it stands, known once the batch's end is:
			  * after the batch before is filed, as ar_orient waits, since a
			  * group's end resets the mark on the counting stream (an empty
			  * batch first in a group read the mark before the reset) */
		e = cudaStreamWaitEvent(s, filed, 0);
		if (e == cudaSuccess)
			e = cudaMemcpyAsync(used, &a.fill->used, sizeof(*used),
					    cudaMemcpyDeviceToHost, s);
		if (e == cudaSuccess)
			e = cudaEventRecord(placed, s);
		return e == cudaSuccess ? cudaStreamWaitEvent(cs, placed, 0) : e;
	}
	const unsigned warps = (unsigned)min((nbv + MH_WARPS - 1) / MH_WARPS, (uint32_t)sms * 32u);
	const unsigned flat = (unsigned)min((entries + 255) / 256 + 1, (uint64_t)sms * 16);
	e = ar_orient(a, bt, st, entries, flat, s, filed);
	if (e != cudaSuccess)
		return e;
	const uint64_t place = (max((uint64_t)nbv, entries) + 255) / 256;
	ag_place_kernel<<<(unsigned)min(place, (uint64_t)sms * 8), 256, 0, s>>>(
		bt, a.fill, a.adj_a, a.rs_a, a.rl_a, a.a_lo, a.cap_a);
	GPU_LAUNCHED();
	ag_advance_kernel<<<1, 1, 0, s>>>(bt, a.fill, a.cap_a);
	GPU_LAUNCHED();
	e = cudaMemcpyAsync(used, &a.fill->used, sizeof(*used), cudaMemcpyDeviceToHost, s);
	if (e == cudaSuccess)
		e = cudaEventRecord(placed, s);
	if (e == cudaSuccess)
		e = cudaStreamWaitEvent(cs, placed, 0);
	/* deferred: nothing reads the batch's scratch after the place, so
	 * the next batch's orientation need not wait for the counting stream */
	if (e != cudaSuccess || !count || defer)
		return e == cudaSuccess ? cudaEventRecord(filed, defer ? s : cs) : e;
	ag_region ra = ag_region_a(a);
	ra.hi = lo + nbv; /* placed so far */
	const uint32_t *id_of = a.id_of, *rank = a.rank, rank0 = a.rank0;
	uint32_t *pos = a.pos, *rec_a = a.pv ? a.rec_a : nullptr;
	uint2 *rec = (uint2 *)a.rec;
	const unsigned grid = max(warps, flat);
	const auto file = [=](int scatter) {
		ag_file_kernel<<<grid, MH_THREADS, 0, cs>>>(bt, ra, id_of, rank0, rank, pos, rec,
							    rec_a, scatter);
		return cudaGetLastError();
	};
	return ag_count(a, ra, a.adj_a, file, slots, bits, c, sms, cs, filed);
}

cudaError_t arrival_pair_tally(const arrival_dev &a, int from_b, uint64_t c0, uint64_t c1,
			       int sms, cudaStream_t cs, uint32_t *total)
{
	const ag_region s = from_b ? ag_region_b(a) : ag_region_a(a);
	const ag_region t = from_b ? ag_region_a(a) : ag_region_b(a);
	const uint64_t nt = t.hi - t.lo;
	if (c1 <= c0 || t.hi <= t.lo) {
		*total = 0;
		return cudaSuccess;
	}
	const unsigned grid = (unsigned)min((c1 - c0 + MH_WARPS - 1) / MH_WARPS, (uint64_t)sms * 32u);
	cudaError_t e = cudaMemsetAsync(a.pos, 0, ((size_t)nt + 1) * 4, cs);
	if (e != cudaSuccess)
		return e;
	ag_pair_file_kernel<<<grid, MH_THREADS, 0, cs>>>(s, c0, c1, t, 0, 0, 1, a.cap_rec, a.id_of,
							 a.rank0, a.rank, a.pos, nullptr, nullptr,
							 0);
	GPU_LAUNCHED();
	size_t scan_bytes = a.scan_bytes;
	e = cub::DeviceScan::ExclusiveSum(a.scan_tmp2, scan_bytes, a.pos, a.pos, (int64_t)nt + 1, cs);
	return e == cudaSuccess ? cudaMemcpyAsync(total, a.pos + nt, sizeof(*total),
						  cudaMemcpyDeviceToHost, cs)
				: e;
}

cudaError_t arrival_pair_launch(const arrival_dev &a, int from_b, uint64_t c0, uint64_t c1,
				unsigned slots, int bits, dev_counters *c, int sms, cudaStream_t cs,
				cudaEvent_t filed, int tallied)
{
	const ag_region s = from_b ? ag_region_b(a) : ag_region_a(a);
	const ag_region t = from_b ? ag_region_a(a) : ag_region_b(a);
	if (c1 <= c0 || t.hi <= t.lo)
		return cudaSuccess;
	const uint32_t *id_of = a.id_of, *rank = a.rank, rank0 = a.rank0;
	uint32_t *pos = a.pos, *rec_a = a.pv ? a.rec_a : nullptr;
	uint2 *rec = (uint2 *)a.rec;
	const unsigned grid = (unsigned)min((c1 - c0 + MH_WARPS - 1) / MH_WARPS, (uint64_t)sms * 32u);
	const auto file = [=](int scatter) {
		ag_pair_file_kernel<<<grid, MH_THREADS, 0, cs>>>(s, c0, c1, t, 0, 0, 1, a.cap_rec,
								 id_of, rank0, rank, pos, rec,
								 rec_a, scatter);
		return cudaGetLastError();
	};
	return ag_count(a, t, s.adj, file, slots, bits, c, sms, cs, filed, tallied);
}

cudaError_t arrival_unit_launch(const arrival_dev &a, uint64_t u_lo, uint64_t u_hi,
				unsigned slots, int bits, dev_counters *c, int sms, cudaStream_t cs)
{
	ag_region ra = ag_region_a(a);
	ra.hi = u_hi; /* placed so far */
	const uint64_t c0 = a.a_lo, c1 = u_hi;
	if (c1 <= c0 || u_hi <= u_lo)
		return cudaSuccess;
	const uint32_t *id_of = a.id_of, *rank = a.rank, rank0 = a.rank0;
	uint32_t *pos = a.pos, *rec_a = a.pv ? a.rec_a : nullptr;
	uint2 *rec = (uint2 *)a.rec;
	const uint32_t share = a.share, nshares = a.nshares ? a.nshares : 1;
	const unsigned grid = (unsigned)min((c1 - c0 + MH_WARPS - 1) / MH_WARPS, (uint64_t)sms * 32u);
	const uint64_t cap = a.cap_rec, nt = u_hi - c0;
	arrival_fill *fill = a.fill;
	const auto file = [=](int scatter) {
		ag_pair_file_kernel<<<grid, MH_THREADS, 0, cs>>>(ra, c0, c1, ra, u_lo, share, nshares,
								 cap, id_of, rank0, rank, pos, rec,
								 rec_a, scatter);
		if (scatter)
			ag_unit_clamp_kernel<<<1, 1, 0, cs>>>(pos, nt, cap, fill);
		return cudaGetLastError();
	};
	return ag_count(a, ra, a.adj_a, file, slots, bits, c, sms, cs, nullptr);
}

/* rank: a permutation of 0 .. nv-1 (part_rank's) */
__global__ void ag_id_of_kernel(const uint32_t *rank, uint32_t *id_of, uint64_t nv, uint32_t rank0)
{
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < nv; i += stride)
		if (rank[i] >= rank0)
			id_of[rank[i] - rank0] = (uint32_t)i;
}

cudaError_t arrival_id_of_launch(const arrival_dev &a, int sms, cudaStream_t s)
{
	ag_id_of_kernel<<<sms * 8, 256, 0, s>>>(a.rank, a.id_of, a.nv, a.rank0);
	return cudaGetLastError();
}
