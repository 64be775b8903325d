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
 * in shared memory: a bitmap of N(b) over its span where that fits, else
 * TRUST's open-addressing hash (load at most 1/2).
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
 *     sum (as lstc-hash does for N(w)), 8 rounds of loads in flight at
 *     once; a lane counts its hits, one 64-bit atomic per warp at the end.
 *     The table is a bitmap of N(b) from its least to its greatest id
 *     where that span is under 32 ids per word of the region (most of the
 *     work: a heavy b is high in the degree order and N(b) holds the top
 *     ranks only), else a hash; a hashed N(b) longer than half the region
 *     is tabled a piece at a time, re-reading the records per piece.
 * Input: a tsg_dag or 2D unit in device memory (dev_source, dev_mid), its
 * source lists under 2^32 - 2^24 entries (a larger unit the runtime counts
 * with lstc, and the result says so per unit: kernel_fallback_units), and
 * scratch of 8 bytes per middle row and per source entry plus
 * CUB's scan state (mid_hash_scratch says how much).
 * Per-vertex counts (d.pv): 4 more bytes per source entry hold each
 * record's source, and every hit adds to its three vertices atomically
 * (mid_probe.cuh); a separate instance, so the plain count is unchanged.
 * Launch: tally and scatter with a warp per source, 256 threads, 32 blocks
 * per SM at most; count with 256 threads (8 warps), table of `slots` ids
 * per warp (default 1024: 32 KiB per block), as many blocks as fit an SM.
 * When it wins: skewed graphs, where hubs have long in-lists and short
 * out-lists after orientation and tails are short; bench/RESULTS.md.
 */
#include <cub/device/device_scan.cuh>

#include "kernels/mid_probe.cuh"

/* Files (scatter) or counts (tally) one record per source entry with a
 * non-empty tail whose middle vertex has out-neighbours. A lane looks at
 * each of 32 sources first: in a unit most sources may have no entry in
 * its middle range with a tail after it (a column of the rank order,
 * src/pipeline.h, scans every row below its top), and a warp spent on each
 * would cost two binary searches for nothing; the warp then takes the
 * sources that do, one at a time. */
__global__ void mh_file_kernel(dev_dag d, uint32_t *pos, uint2 *rec, uint32_t *rec_a, int scatter)
{
	const unsigned lane = threadIdx.x & 31;
	const uint64_t nwarps = (gridDim.x * blockDim.x) >> 5;
	const uint64_t warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	for (uint64_t k0 = warp * 32; k0 < d.nsrc; k0 += nwarps * 32) {
		bool live = false;
		if (k0 + lane < d.nsrc) {
			const uint32_t r = d.src ? d.src[k0 + lane] : (uint32_t)(k0 + lane);
			const uint64_t b = d.soff[r] - d.sbase, e = d.soff[r + 1] - d.sbase;
			/* two entries at least (a tail after b); windowed, one in
			 * [lo, hi) before the last */
			live = e - b >= 2 && (!d.windowed || (d.sadj[e - 2] >= d.lo && d.sadj[b] < d.hi));
		}
		for (unsigned m = __ballot_sync(0xffffffffu, live); m; m &= m - 1) {
			const uint32_t k = (uint32_t)(k0 + (unsigned)(__ffs(m) - 1));
			uint64_t tb, we, te;
			dev_source(d, k, &tb, &we, &te);
			for (uint64_t p = tb + lane; p < we; p += 32) {
				const uint32_t b = d.sadj[p];
				uint64_t mb, me;
				dev_mid(d, b, &mb, &me);
				/* ids are ranks in a unit, so c > b lies after b; a
				 * partition's ids are not in rank order, and the whole
				 * row is probed */
				const uint64_t from = d.windowed ? p + 1 : tb;
				if (from + 1 > te || (!d.windowed && te - tb < 2) || me == mb)
					continue;
				if (!scatter) {
					atomicAdd(&pos[b - d.lo], 1u);
					continue;
				}
				const uint32_t at = atomicAdd(&pos[b - d.lo], 1u);
				rec[at] = make_uint2((uint32_t)from, (uint32_t)te);
				if (rec_a) /* per-vertex counts: the source, global */
					rec_a[at] = d.src ? dev_global(d.gid, d.src[k]) : d.src_lo + k;
			}
		}
	}
}

/* A unit's middle rows, for the shared counting step (mid_probe.cuh). */
struct mh_unit_rows {
	dev_dag d;
	const uint32_t *tadj, *sadj;
	__device__ void mid(uint32_t b, uint64_t *mb, uint64_t *me) const { dev_mid(d, b + d.lo, mb, me); }
	__device__ uint32_t mid_id(uint32_t b) const { return dev_global(d.gid, b + d.lo); }
};

/* Scratch layout: pos (nmid + 1 uint32), CUB's state, records. */
static uint64_t mh_align(uint64_t x) { return (x + 255) & ~(uint64_t)255; }

static size_t mh_scan_bytes(uint32_t nmid, cudaError_t *e)
{
	size_t bytes = 0;
	const cudaError_t q = cub::DeviceScan::ExclusiveSum(nullptr, bytes, (uint32_t *)nullptr,
							    (uint32_t *)nullptr, (int64_t)nmid + 1);
	if (q != cudaSuccess && *e == cudaSuccess)
		*e = q;
	return bytes;
}

uint64_t mid_hash_scratch(uint32_t nmid, uint64_t src_entries, int pv, cudaError_t *e)
{
	return mh_align(((uint64_t)nmid + 1) * 4) + mh_align(mh_scan_bytes(nmid, e)) +
	       mh_align(src_entries * 8) + (pv ? src_entries * 4 : 0);
}

cudaError_t mid_hash_launch(const dev_dag &d, uint8_t *scratch, uint64_t src_entries,
			    unsigned slots, int bits, dev_counters *c, int sms, cudaStream_t s)
{
	if (d.nsrc == 0)
		return cudaSuccess;
	const uint32_t nmid = d.hi - d.lo;
	uint32_t *pos = (uint32_t *)scratch;
	void *scan_tmp = scratch + mh_align(((uint64_t)nmid + 1) * 4);
	cudaError_t e = cudaSuccess;
	size_t scan_bytes = mh_scan_bytes(nmid, &e);
	if (e != cudaSuccess)
		return e;
	uint2 *rec = (uint2 *)((uint8_t *)scan_tmp + mh_align(scan_bytes));
	/* per-vertex counts: each record's source, after the records */
	uint32_t *rec_a = d.pv ? (uint32_t *)((uint8_t *)rec + mh_align(src_entries * 8)) : nullptr;
	e = cudaMemsetAsync(pos, 0, ((size_t)nmid + 1) * 4, s);
	if (e != cudaSuccess)
		return e;
	const unsigned file_blocks = (unsigned)min((d.nsrc + MH_WARPS - 1) / MH_WARPS, (uint32_t)sms * 32u);
	mh_file_kernel<<<file_blocks, MH_THREADS, 0, s>>>(d, pos, rec, rec_a, 0);
	GPU_LAUNCHED();
	e = cub::DeviceScan::ExclusiveSum(scan_tmp, scan_bytes, pos, pos, (int64_t)nmid + 1, s);
	if (e != cudaSuccess)
		return e;
	mh_file_kernel<<<file_blocks, MH_THREADS, 0, s>>>(d, pos, rec, rec_a, 1);
	GPU_LAUNCHED();
	const mh_unit_rows rows = { d, d.adj, d.sadj };
	const mh_pv pv = { d.pv, d.gid, rec_a };
	return mh_count_launch(rows, pos, rec, nmid, slots, bits, c, sms, pv, s);
}
