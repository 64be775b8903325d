/*
 * sweep.cu - a crawl's source block held on the device, its chunks
 * oriented and counted against the block as they are decoded (layout
 * sweep, src/sweep.h; the mid-hash technique of mid_hash.cu).
 *
 * Technique: a triangle a -> b -> c (ranks a < b < c) is counted at its
 * middle vertex b as a wedge record: the tail of out(a) after b, probed
 * against a table of out(b) (mid_probe.cuh), exactly as mid-hash and the
 * arrival layout do. Here one of a and b is a node of the block (a source
 * block of nodes, its rows resident) and
 *  - the other is a node v of a chunk after the block (gpu_sweep_chunk):
 *    the host sends the chunk's merged lists as decoded (ids, sorted by
 *    id); the device orients them as arrival.cu does (a thread per list
 *    entry: ids become ranks, each node's row and its neighbours in the
 *    block counted, then written; a CUB segmented sort orders the rows),
 *    files each edge between a block node u and v under v (a thread per
 *    edge: u below v, the tail of out(u) after v, by binary search; u
 *    above v, v being the lowest vertex, all of out(u)), and probes the
 *    records against a table of out(v);
 *  - or both are nodes of the block (gpu_sweep_local): the block's rows are
 *    walked a thread per entry, in rounds of sources whose records fit the
 *    chunk's record buffer, and b's row is the block's.
 * The block is filled chunk by chunk (gpu_sweep_add: oriented as above,
 * appended while it fits): rows from the bottom of its area, their CSR
 * index (64-bit, node by node) from the top down, so that neither needs a
 * size before the block is known.
 * Input: chunks below 2^31 list entries; the rank and id of every node.
 * Launch: 256 threads a block; orient and file at most 16 blocks per SM,
 * count as mid-hash.
 * When it wins: the crawl is larger than the host's memory or the GPU's:
 * nothing but the block and one chunk is ever held; otherwise the arrival
 * layout, which decodes the crawl once, is faster.
 */
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <stdlib.h>

#include "kernels/gpu.h"
#include "kernels/gpu_internal.cuh"
#include "kernels/mid_probe.cuh"

struct sweep_dev {
	uint64_t nv, max_e, max_v;
	uint32_t nch;
	uint32_t *rank, *inv, *pos;
	uint64_t *off;
	uint32_t *lst, *tmp, *row_at, *in_at, *lo_at, *hi_at, *row_fill, *in_fill;
	uint2 *ins;
	ulonglong2 *rec;
	uint32_t *rec_a;               /* per-vertex counts: each record's source */
	void *scan_tmp, *sort_tmp;
	size_t scan_bytes, sort_bytes;
	dev_counters *cnt;
	unsigned long long *counts;    /* nch: each chunk's count this block */
	unsigned int *asym;            /* a filed middle vertex missing from out(a) */
	uint32_t *area;                /* the block: rows up from here ... */
	uint64_t *top;                 /* ... index down from here: idx(i) = top[-i - 1] */
	uint64_t area_words;           /* 32-bit words of the area */
	/* the block, as the host knows it */
	uint64_t s0, ns, used;         /* first node, nodes, row entries */
	uint64_t *bn, *bu;             /* at each chunk added: nodes and rows before it */
	uint32_t nb;                   /* chunks added */
	uint32_t *htotal;              /* pinned: a chunk's row total */
	cudaEvent_t copied, t0;
};

/* A chunk, as the launches see it: nodes lo .. lo+nbv-1, offsets from 0. */
struct sw_chunk {
	const uint64_t *off;
	uint32_t *lst, *tmp;
	uint2 *ins;
	uint32_t *row_at, *in_at, *lo_at, *hi_at, *row_fill, *in_fill;
	uint64_t lo;
	uint32_t nbv;
	uint64_t s0, s1;               /* the block's nodes: edges to them are filed */
};

/* The block's row i: [idx(i), idx(i + 1)) of area. */
struct sw_block {
	const uint32_t *area;
	const uint64_t *top;
	__device__ uint64_t idx(uint64_t i) const { return top[-(int64_t)i - 1]; }
};

/* The chunk node whose list holds entry y: the last i with off[i] <= y. */
__device__ __forceinline__ uint32_t sw_owner(const uint64_t *off, uint32_t nbv, uint64_t y)
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

/* Pass 0 (count): ids become ranks, in place; each node's row length
 * (higher ranks), neighbours in the block (of either rank), and how many
 * of its entries lie below s0 and below s1 (a list ascends by id, so the
 * block's entries are the stretch between). Pass 1 (write): rows to tmp,
 * block neighbours (u's index in the block, the chunk node) to ins. As arrival.cu's orient:
 * a thread per entry, lanes of one node adding up first. */
__global__ void sw_orient_kernel(sw_chunk c, const uint32_t *rank, int write)
{
	const unsigned lane = threadIdx.x & 31, below = (1u << lane) - 1;
	const uint64_t n = c.off[c.nbv];
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t x0 = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x - lane; x0 < n; x0 += stride) {
		const uint64_t x = x0 + lane;
		const bool ok = x < n;
		uint32_t i = 0, w = 0, rv = 0;
		bool in_blk = false, lo_b = false, hi_b = false;
		if (ok) {
			i = sw_owner(c.off, c.nbv, x);
			rv = rank[c.lo + i];
			w = c.lst[x];
			if (write) {
				const uint64_t j = x - c.off[i];
				in_blk = j >= c.lo_at[i] && j < c.hi_at[i];
			} else {
				lo_b = w < c.s0;
				hi_b = w < c.s1;
				in_blk = !lo_b && hi_b;
				c.lst[x] = w = rank[w];
			}
		}
		/* down: a block neighbour, of either rank (w != rv always holds:
		 * a chunk swept lies after the block) */
		const bool up = ok && w > rv, down = in_blk && w != rv;
		const unsigned peers = __match_any_sync(0xffffffffu, ok ? i : 0xffffffffu);
		const int leader = __ffs(peers) - 1;
		const unsigned mu = __ballot_sync(0xffffffffu, up) & peers;
		const unsigned md = __ballot_sync(0xffffffffu, down) & peers;
		const unsigned ml = write ? 0 : __ballot_sync(0xffffffffu, lo_b) & peers;
		const unsigned mh = write ? 0 : __ballot_sync(0xffffffffu, hi_b) & peers;
		uint32_t rbase = 0, ibase = 0;
		if (ok && (int)lane == leader) {
			if (!write) {
				if (mu)
					atomicAdd(&c.row_at[i], __popc(mu));
				if (md)
					atomicAdd(&c.in_at[i], __popc(md));
				if (ml)
					atomicAdd(&c.lo_at[i], __popc(ml));
				if (mh)
					atomicAdd(&c.hi_at[i], __popc(mh));
			} else {
				if (mu)
					rbase = atomicAdd(&c.row_fill[i], __popc(mu));
				if (md)
					ibase = atomicAdd(&c.in_fill[i], __popc(md));
			}
		}
		if (!write)
			continue;
		rbase = __shfl_sync(0xffffffffu, rbase, leader);
		ibase = __shfl_sync(0xffffffffu, ibase, leader);
		if (up)
			c.tmp[c.row_at[i] + rbase + __popc(mu & below)] = w;
		if (down) /* a's id from its rank: its place in the block */
			c.ins[c.in_at[i] + ibase + __popc(md & below)] = make_uint2(w, i);
	}
}

/* ins holds ranks; the block indexes by id: a -> a's index in the block. */
__global__ void sw_ins_index_kernel(sw_chunk c, const uint32_t *inv)
{
	const uint64_t nin = c.in_at[c.nbv], stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < nin; t += stride)
		c.ins[t].x = (uint32_t)(inv[c.ins[t].x] - c.s0);
}

/* Appends the chunk's sorted rows (lst) at `used` and indexes its nodes
 * from `ns` on (the last index entry is where the next chunk starts). */
__global__ void sw_place_kernel(sw_chunk c, uint32_t *area, uint64_t *top, uint64_t used,
				uint64_t ns)
{
	const uint64_t total = c.row_at[c.nbv];
	const uint64_t t = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t j = t; j < total; j += stride)
		area[used + j] = c.lst[j];
	for (uint64_t i = t; i <= c.nbv; i += stride)
		top[-(int64_t)(ns + i) - 1] = used + c.row_at[i];
}

__device__ __forceinline__ void sw_file(uint32_t *pos, ulonglong2 *rec, uint32_t *rec_a, int scatter,
					uint32_t a_rank, uint32_t b, uint64_t from, uint64_t end)
{
	if (!scatter) {
		atomicAdd(&pos[b], 1u);
		return;
	}
	const uint32_t at = atomicAdd(&pos[b], 1u);
	rec[at] = make_ulonglong2(from, end);
	if (rec_a) /* per-vertex counts: the source */
		rec_a[at] = a_rank;
}

/* Each edge between a block node u and a chunk node v, under v, where
 * out(v) is not empty: u below v (u -> v, v the middle vertex) files the
 * tail of out(u) after v; u above v (v -> u, u the middle vertex) files all
 * of out(u), every entry of which is above u, so above v. Either way the
 * probe against out(v) finds the triangles of the two. */
__global__ void sw_file_kernel(sw_chunk c, sw_block bl, const uint32_t *rank, uint32_t *pos,
			       ulonglong2 *rec, uint32_t *rec_a, unsigned int *asym, int scatter)
{
	const uint64_t nin = c.in_at[c.nbv], stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < nin; t += stride) {
		const uint2 q = c.ins[t];
		if (c.row_at[q.y + 1] == c.row_at[q.y])
			continue; /* out(v) empty: no wedge closes */
		const uint64_t ub = bl.idx(q.x), ue = bl.idx(q.x + 1);
		const uint32_t rv = rank[c.lo + q.y], ru = rank[c.s0 + q.x];
		uint64_t p = ub;
		if (ru < rv) {
			p = dev_lower_bound(bl.area, ub, ue, rv);
			if (p >= ue || bl.area[p] != rv) {
				*asym = 1; /* always there in a symmetric graph */
				continue;
			}
			p++;
		}
		if (p < ue)
			sw_file(pos, rec, rec_a, scatter, ru, q.y, p, ue);
	}
}

/* The block's source whose row holds entry x: the last a in [lo, hi) with
 * idx(a) <= x. */
__device__ __forceinline__ uint64_t sw_src_of(const sw_block &bl, uint64_t lo, uint64_t hi, uint64_t x)
{
	while (hi - lo > 1) {
		const uint64_t m = (lo + hi) >> 1;
		if (bl.idx(m) <= x)
			lo = m;
		else
			hi = m;
	}
	return lo;
}

/* The block against itself, sources a0 .. a1-1: each entry b of out(a)
 * that is a block node with a non-empty row files the tail after it. */
__global__ void sw_local_file_kernel(sw_block bl, uint64_t s0, uint64_t ns, uint64_t a0, uint64_t a1,
				     const uint32_t *rank, const uint32_t *inv, uint32_t *pos,
				     ulonglong2 *rec, uint32_t *rec_a, int scatter)
{
	const uint64_t e0 = bl.idx(a0), e1 = bl.idx(a1), stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t x = e0 + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; x < e1; x += stride) {
		const uint64_t j = (uint64_t)inv[bl.area[x]] - s0; /* wraps below s0 */
		if (j >= ns || bl.idx(j + 1) == bl.idx(j))
			continue;
		const uint64_t a = sw_src_of(bl, a0, a1, x), ae = bl.idx(a + 1);
		if (x + 1 < ae)
			sw_file(pos, rec, rec_a, scatter, rank[s0 + a], (uint32_t)j, x + 1, ae);
	}
}

/* mid_probe's rows: a chunk's (sorted in lst, by row_at), or the block's. */
struct sw_chunk_rows {
	const uint32_t *row_at, *tadj, *sadj, *rank;
	uint64_t lo;
	__device__ void mid(uint32_t b, uint64_t *mb, uint64_t *me) const
	{
		*mb = row_at[b];
		*me = row_at[b + 1];
	}
	__device__ uint32_t mid_id(uint32_t b) const { return rank[lo + b]; }
};

struct sw_block_rows {
	sw_block bl;
	const uint32_t *tadj, *sadj, *rank;
	uint64_t s0;
	__device__ void mid(uint32_t b, uint64_t *mb, uint64_t *me) const
	{
		*mb = bl.idx(b);
		*me = bl.idx(b + 1);
	}
	__device__ uint32_t mid_id(uint32_t b) const { return rank[s0 + b]; }
};

/* counts[k] += the count so far; the counter restarts. */
__global__ void sw_take_kernel(dev_counters *c, unsigned long long *counts, uint32_t k)
{
	counts[k] += c->triangles;
	c->triangles = 0;
}

template <class T> static void sw_take(uint8_t *base, uint64_t *at, T **p, uint64_t bytes)
{
	if (base)
		*p = (T *)(base + *at);
	*at += (bytes + 255) & ~(uint64_t)255;
}

/* The fixed part of the device's memory (base NULL: only sized). */
static uint64_t sw_layout(uint64_t nv, uint64_t max_e, uint64_t max_v, uint32_t nch, int pv,
			  sweep_dev *d, uint8_t *base, cudaError_t *e)
{
	uint64_t at = 0;
	const uint64_t npos = (nv > max_v ? nv : max_v) + 1;
	d->scan_bytes = arrival_scan_bytes((uint32_t)npos, e);
	d->sort_bytes = arrival_sort_bytes(max_e, (uint32_t)max_v, e);
	sw_take(base, &at, &d->cnt, sizeof(dev_counters));
	sw_take(base, &at, &d->asym, sizeof(unsigned int));
	sw_take(base, &at, &d->counts, (uint64_t)nch * 8);
	sw_take(base, &at, &d->rank, nv * 4);
	sw_take(base, &at, &d->inv, nv * 4);
	sw_take(base, &at, &d->pos, npos * 4);
	sw_take(base, &at, (uint8_t **)&d->scan_tmp, d->scan_bytes);
	sw_take(base, &at, (uint8_t **)&d->sort_tmp, d->sort_bytes);
	sw_take(base, &at, &d->rec, max_e * 16);
	if (pv)
		sw_take(base, &at, &d->rec_a, max_e * 4);
	sw_take(base, &at, &d->off, (max_v + 1) * 8);
	sw_take(base, &at, &d->lst, max_e * 4);
	sw_take(base, &at, &d->tmp, max_e * 4);
	sw_take(base, &at, &d->ins, max_e * 8);
	sw_take(base, &at, &d->row_at, (max_v + 1) * 4);
	sw_take(base, &at, &d->in_at, (max_v + 1) * 4);
	sw_take(base, &at, &d->lo_at, (max_v + 1) * 4);
	sw_take(base, &at, &d->hi_at, (max_v + 1) * 4);
	sw_take(base, &at, &d->row_fill, (max_v + 1) * 4);
	sw_take(base, &at, &d->in_fill, (max_v + 1) * 4);
	return at;
}

extern "C" uint64_t gpu_sweep_bytes(uint64_t nv, uint64_t max_entries, uint64_t max_vertices,
				    uint32_t nchunks, int pv)
{
	/* a chunk's rows, in-edges and records are indexed with 32 bits; CUB's
	 * scans and sorts take signed 32-bit offsets */
	if (max_entries >= (1ull << 31) || nv >= (1ull << 32) - 1 || max_vertices >= (1ull << 31))
		return 0;
	sweep_dev d = {};
	cudaError_t e = cudaSuccess;
	const uint64_t need = sw_layout(nv, max_entries, max_vertices, nchunks, pv, &d, NULL, &e);
	return e == cudaSuccess ? need + GPU_SLOT_OVERHEAD : 0;
}

extern "C" void gpu_sweep_free(struct gpu_ctx *g)
{
	sweep_dev *d = g ? g->sw : NULL;
	if (!d)
		return;
	if (d->copied)
		cudaEventDestroy(d->copied);
	if (d->t0)
		cudaEventDestroy(d->t0);
	if (d->htotal)
		cudaFreeHost(d->htotal);
	free(d->bn);
	free(d->bu);
	free(d);
	g->sw = NULL;
}

extern "C" int gpu_sweep_begin(struct gpu_ctx *g, uint64_t nv, const uint32_t *rank,
			       const uint32_t *inv, uint64_t max_entries, uint64_t max_vertices,
			       uint32_t nchunks, uint64_t block_limit, uint64_t *block_bytes,
			       struct tsg_err *err)
{
	int rc = TSG_OK;
	cudaError_t se = cudaSuccess;
	const cudaStream_t s = g->compute[0];
	const int pv = g->pv != NULL;
	const uint64_t need = gpu_sweep_bytes(nv, max_entries, max_vertices, nchunks, pv);
	const uint64_t budget = g->slot_bytes * GPU_SLOTS;
	/* the least block: the largest chunk's rows and index */
	const uint64_t least = max_entries * 4 + (max_vertices + 1) * 8 + 4096;
	if (need == 0 || need + least > budget)
		return tsg_fail(err, TSG_ENOMEM, "the sweep needs %llu MiB of the %llu MiB GPU "
				"budget for %llu nodes and chunks of %llu list entries, and room "
				"for a block (--gpu-mem)", (unsigned long long)((need + least) >> 20),
				(unsigned long long)(budget >> 20), (unsigned long long)nv,
				(unsigned long long)max_entries);
	gpu_sweep_free(g);
	sweep_dev *d = (sweep_dev *)calloc(1, sizeof(*d));
	if (!d)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	g->sw = d;
	d->nv = nv;
	d->max_e = max_entries;
	d->max_v = max_vertices;
	d->nch = nchunks;
	d->bn = (uint64_t *)malloc(((size_t)nchunks + 1) * sizeof(uint64_t));
	d->bu = (uint64_t *)malloc(((size_t)nchunks + 1) * sizeof(uint64_t));
	if (!d->bn || !d->bu) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto fail;
	}
	CK(cudaSetDevice(g->device), "selecting the device");
	{
		const uint64_t fixed = sw_layout(nv, max_entries, max_vertices, nchunks, pv, d,
						 g->dmem, &se);
		CK(se, "sizing CUB's scratch for the sweep");
		uint64_t words = (budget - fixed - GPU_SLOT_OVERHEAD) / 4 & ~(uint64_t)1;
		if (block_limit && words > block_limit / 4)
			words = block_limit / 4 & ~(uint64_t)1;
		d->area = (uint32_t *)(g->dmem + fixed);
		d->area_words = words;
		d->top = (uint64_t *)(d->area + words);
		*block_bytes = words * 4;
	}
	CK(cudaMallocHost(&d->htotal, sizeof(uint32_t)), "allocating a pinned counter");
	CK(cudaEventCreateWithFlags(&d->copied, cudaEventDisableTiming), "creating an event");
	CK(cudaEventCreate(&d->t0), "creating an event");
	CK(cudaMemsetAsync(d->cnt, 0, sizeof(dev_counters), s), "clearing counters");
	CK(cudaMemsetAsync(d->asym, 0, sizeof(unsigned int), s), "clearing counters");
	CK(cudaMemsetAsync(d->counts, 0, (size_t)nchunks * 8, s), "clearing counters");
	CK(cudaMemcpyAsync(d->rank, rank, nv * 4, cudaMemcpyHostToDevice, s), "copying the ranks");
	CK(cudaMemcpyAsync(d->inv, inv, nv * 4, cudaMemcpyHostToDevice, s), "copying the ranks");
	CK(cudaStreamSynchronize(s), "copying the ranks");
	return TSG_OK;
fail:
	gpu_sweep_free(g);
	return rc;
}

extern "C" int gpu_sweep_block(struct gpu_ctx *g, uint64_t s0, struct tsg_err *err)
{
	int rc = TSG_OK;
	sweep_dev *d = g->sw;
	d->s0 = s0;
	d->ns = d->used = 0;
	d->nb = 0;
	CK(cudaSetDevice(g->device), "selecting the device");
	CK(cudaEventRecord(d->t0, g->compute[0]), "recording an event");
	return TSG_OK;
fail:
	return rc;
}

/* Copies a chunk in and orients it: rows sorted into lst by row_at; with
 * s0 < s1, its neighbours in the block in ins (by block index). */
static int sw_orient(struct gpu_ctx *g, uint64_t lo, uint32_t nbv, const uint64_t *off,
		     const uint32_t *adj, uint64_t s0, uint64_t s1, sw_chunk *c, struct tsg_err *err)
{
	int rc = TSG_OK;
	sweep_dev *d = g->sw;
	const cudaStream_t s = g->compute[0];
	const uint64_t entries = off[nbv];
	if (nbv > d->max_v || entries > d->max_e || off[0] != 0)
		return tsg_fail(err, TSG_EINTERNAL, "a sweep chunk of %u nodes and %llu entries "
				"exceeds its plan", nbv, (unsigned long long)entries);
	*c = (sw_chunk){ d->off, d->lst, d->tmp, d->ins, d->row_at, d->in_at, d->lo_at, d->hi_at,
			 d->row_fill, d->in_fill, lo, nbv, s0, s1 };
	const unsigned flat = (unsigned)min((entries + 255) / 256 + 1, (uint64_t)g->sms * 16);
	size_t scan_bytes = d->scan_bytes, sort_bytes = d->sort_bytes;
	uint32_t *const zero[6] = { d->row_at, d->in_at, d->lo_at, d->hi_at, d->row_fill, d->in_fill };
	CK(cudaSetDevice(g->device), "selecting the device");
	CK(cudaMemcpyAsync(d->off, off, ((size_t)nbv + 1) * 8, cudaMemcpyHostToDevice, s),
	   "copying a chunk's offsets");
	CK(cudaMemcpyAsync(d->lst, adj, entries * 4, cudaMemcpyHostToDevice, s),
	   "copying a chunk's lists");
	CK(cudaEventRecord(d->copied, s), "recording an event");
	for (int z = 0; z < 6; z++)
		CK(cudaMemsetAsync(zero[z], 0, ((size_t)nbv + 1) * 4, s), "clearing a chunk's arrays");
	if (entries) {
		sw_orient_kernel<<<flat, 256, 0, s>>>(*c, d->rank, 0);
		CK(cudaGetLastError(), "orienting a chunk");
	}
	CK(cub::DeviceScan::ExclusiveSum(d->scan_tmp, scan_bytes, d->row_at, d->row_at,
					 (int64_t)nbv + 1, s), "scanning a chunk's rows");
	scan_bytes = d->scan_bytes;
	CK(cub::DeviceScan::ExclusiveSum(d->scan_tmp, scan_bytes, d->in_at, d->in_at,
					 (int64_t)nbv + 1, s), "scanning a chunk's block neighbours");
	if (entries) {
		sw_orient_kernel<<<flat, 256, 0, s>>>(*c, d->rank, 1);
		CK(cudaGetLastError(), "orienting a chunk");
		if (s1 > s0) {
			sw_ins_index_kernel<<<flat, 256, 0, s>>>(*c, d->inv);
			CK(cudaGetLastError(), "indexing a chunk's block neighbours");
		}
	}
	/* entries bounds the rows: it sizes CUB's work, row_at places them */
	CK(cub::DeviceSegmentedSort::SortKeys(d->sort_tmp, sort_bytes, d->tmp, d->lst,
					      (int64_t)entries, (int64_t)nbv, d->row_at,
					      d->row_at + 1, s), "sorting a chunk's rows");
	return TSG_OK;
fail:
	return rc;
}

extern "C" int gpu_sweep_add(struct gpu_ctx *g, uint64_t lo, uint32_t nbv, const uint64_t *off,
			     const uint32_t *adj, int *fit, struct tsg_err *err)
{
	int rc = TSG_OK;
	sweep_dev *d = g->sw;
	const cudaStream_t s = g->compute[0];
	sw_chunk c;
	*fit = 0;
	if (lo != d->s0 + d->ns)
		return tsg_fail(err, TSG_EINTERNAL, "sweep chunk at node %llu added after the block "
				"ends at %llu", (unsigned long long)lo,
				(unsigned long long)(d->s0 + d->ns));
	if ((rc = sw_orient(g, lo, nbv, off, adj, 0, 0, &c, err)))
		return rc;
	CK(cudaMemcpyAsync(d->htotal, d->row_at + nbv, 4, cudaMemcpyDeviceToHost, s),
	   "reading a chunk's row total");
	CK(cudaStreamSynchronize(s), "orienting a chunk");
	{
		const uint64_t total = *d->htotal;
		/* rows up to used + total, index entries ns + nbv + 1 (2 words each) */
		const uint64_t words = d->used + total + 2 * (d->ns + nbv + 1);
		if (words > d->area_words)
			return TSG_OK;
		const uint64_t place = (max((uint64_t)nbv + 1, total) + 255) / 256;
		sw_place_kernel<<<(unsigned)min(place, (uint64_t)g->sms * 8), 256, 0, s>>>(
			c, d->area, d->top, d->used, d->ns);
		CK(cudaGetLastError(), "placing a chunk's rows");
		d->bn[d->nb] = d->ns;
		d->bu[d->nb++] = d->used;
		d->ns += nbv;
		d->used += total;
		*fit = 1;
	}
	return TSG_OK;
fail:
	return rc;
}

/* Counts the records filed in pos/rec (nmid middle vertices) into counter k. */
template <class Rows>
static cudaError_t sw_count(struct gpu_ctx *g, const Rows &rows, uint32_t nmid, uint32_t k)
{
	sweep_dev *d = g->sw;
	const cudaStream_t s = g->compute[0];
	cudaError_t e = cudaMemsetAsync(&d->cnt->next_chunk, 0, sizeof(d->cnt->next_chunk), s);
	if (e != cudaSuccess)
		return e;
	const mh_pv pv = { g->pv, nullptr, d->rec_a };
	e = mh_count_launch(rows, d->pos, d->rec, nmid, g->tile ? g->tile : 1024, g->mid_hash_bits,
			    d->cnt, g->sms, pv, s);
	if (e != cudaSuccess)
		return e;
	sw_take_kernel<<<1, 1, 0, s>>>(d->cnt, d->counts, k);
	return cudaGetLastError();
}

/* Exclusive sum of pos[0 .. n] in place. */
static cudaError_t sw_scan_pos(sweep_dev *d, uint64_t n, cudaStream_t s)
{
	size_t bytes = d->scan_bytes;
	return cub::DeviceScan::ExclusiveSum(d->scan_tmp, bytes, d->pos, d->pos, (int64_t)n + 1, s);
}

extern "C" int gpu_sweep_chunk(struct gpu_ctx *g, uint32_t k, uint64_t lo, uint32_t nbv,
			       const uint64_t *off, const uint32_t *adj, struct tsg_err *err)
{
	int rc = TSG_OK;
	sweep_dev *d = g->sw;
	const cudaStream_t s = g->compute[0];
	sw_chunk c;
	if (k >= d->nch)
		return tsg_fail(err, TSG_EINTERNAL, "sweep chunk %u of %u", k, d->nch);
	if ((rc = sw_orient(g, lo, nbv, off, adj, d->s0, d->s0 + d->ns, &c, err)))
		return rc;
	{
		const sw_block bl = { d->area, d->top };
		const uint64_t entries = off[nbv];
		const unsigned flat = (unsigned)min((entries + 255) / 256 + 1, (uint64_t)g->sms * 16);
		uint32_t *rec_a = g->pv ? d->rec_a : nullptr;
		CK(cudaMemsetAsync(d->pos, 0, ((size_t)nbv + 1) * 4, s), "clearing a chunk's records");
		sw_file_kernel<<<flat, 256, 0, s>>>(c, bl, d->rank, d->pos, d->rec, rec_a, d->asym, 0);
		CK(cudaGetLastError(), "filing a chunk's wedges");
		CK(sw_scan_pos(d, nbv, s), "scanning a chunk's records");
		sw_file_kernel<<<flat, 256, 0, s>>>(c, bl, d->rank, d->pos, d->rec, rec_a, d->asym, 1);
		CK(cudaGetLastError(), "filing a chunk's wedges");
		const sw_chunk_rows rows = { d->row_at, d->lst, d->area, d->rank, lo };
		CK(sw_count(g, rows, nbv, k), "counting a chunk");
	}
	/* the host's buffers are free once copied (the copy waited for the
	 * chunk before: one stream) */
	CK(cudaEventSynchronize(d->copied), "copying a chunk");
	return TSG_OK;
fail:
	return rc;
}

/* Where block chunk i's rows start (i = nb: where the rows end). */
static uint64_t sw_rows_at(const sweep_dev *d, uint32_t i)
{
	return i < d->nb ? d->bu[i] : d->used;
}

extern "C" int gpu_sweep_local(struct gpu_ctx *g, uint32_t k, struct tsg_err *err)
{
	int rc = TSG_OK;
	sweep_dev *d = g->sw;
	const cudaStream_t s = g->compute[0];
	const sw_block bl = { d->area, d->top };
	uint32_t *rec_a = g->pv ? d->rec_a : nullptr;
	const sw_block_rows rows = { bl, d->area, d->area, d->rank, d->s0 };
	if (k >= d->nch)
		return tsg_fail(err, TSG_EINTERNAL, "sweep counter %u of %u", k, d->nch);
	CK(cudaSetDevice(g->device), "selecting the device");
	/* rounds of the block's chunks whose rows fit the record buffer (a
	 * chunk's rows never exceed its entries, the buffer's size) */
	for (uint32_t i = 0, j; i < d->nb; i = j) {
		for (j = i + 1; j < d->nb && sw_rows_at(d, j + 1) - d->bu[i] <= d->max_e; j++)
			;
		const uint64_t a0 = d->bn[i], a1 = j < d->nb ? d->bn[j] : d->ns;
		const uint64_t u0 = d->bu[i], u1 = sw_rows_at(d, j);
		if (u1 == u0)
			continue;
		const unsigned flat = (unsigned)min((u1 - u0 + 255) / 256 + 1, (uint64_t)g->sms * 16);
		CK(cudaMemsetAsync(d->pos, 0, (d->ns + 1) * 4, s), "clearing the block's records");
		sw_local_file_kernel<<<flat, 256, 0, s>>>(bl, d->s0, d->ns, a0, a1, d->rank, d->inv,
							   d->pos, d->rec, rec_a, 0);
		CK(cudaGetLastError(), "filing the block's wedges");
		CK(sw_scan_pos(d, d->ns, s), "scanning the block's records");
		sw_local_file_kernel<<<flat, 256, 0, s>>>(bl, d->s0, d->ns, a0, a1, d->rank, d->inv,
							   d->pos, d->rec, rec_a, 1);
		CK(cudaGetLastError(), "filing the block's wedges");
		CK(sw_count(g, rows, (uint32_t)d->ns, k), "counting the block");
	}
	return TSG_OK;
fail:
	return rc;
}

extern "C" int gpu_sweep_collect(struct gpu_ctx *g, uint64_t *counts, uint32_t nchunks,
				 double *device_ms, struct tsg_err *err)
{
	int rc = TSG_OK;
	sweep_dev *d = g->sw;
	const cudaStream_t s = g->compute[0];
	unsigned int asym = 0;
	float ms = 0;
	cudaEvent_t t1 = NULL;
	*device_ms = 0;
	if (nchunks != d->nch)
		return tsg_fail(err, TSG_EINTERNAL, "sweep counts of %u chunks, not %u", nchunks,
				d->nch);
	CK(cudaSetDevice(g->device), "selecting the device");
	CK(cudaEventCreate(&t1), "creating an event");
	CK(cudaEventRecord(t1, s), "recording an event");
	CK(cudaStreamSynchronize(s), "counting the block");
	CK(cudaEventElapsedTime(&ms, d->t0, t1), "timing the block");
	*device_ms = ms;
	CK(cudaMemcpy(counts, d->counts, (size_t)nchunks * 8, cudaMemcpyDeviceToHost),
	   "reading the counts");
	CK(cudaMemcpy(&asym, d->asym, sizeof(asym), cudaMemcpyDeviceToHost), "reading the counts");
	CK(cudaMemset(d->counts, 0, (size_t)nchunks * 8), "clearing the counts");
	if (asym)
		rc = tsg_fail(err, TSG_EINPUT, "the crawl is not symmetric once merged with its "
			      "transpose: an edge a -> b whose b is missing from a's list");
fail:
	if (t1)
		cudaEventDestroy(t1);
	return rc;
}
