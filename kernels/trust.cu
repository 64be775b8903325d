/*
 * trust.cu - TRUST's vertex-centric hashing (kernel trust).
 *
 * Technique: TRUST (Pan, Wang, Tian, Li, Ding et al., "TRUST: Triangle
 * Counting Reloaded on GPUs", TPDS 2021; ../shared/seeds/003). For each
 * source a, N(a) is hashed into a table of buckets, and every 2-hop
 * neighbour x in N(w), w in N(a), is searched in it; a hit closes a->w->x.
 * Work: sum over w of indeg(w) * outdeg(w) probes. As the paper has it:
 *  1. Buckets, not open addressing: HASH(x) = x mod buckets, every bucket
 *     the same depth, `len` counters in shared memory (atomicAdd hands
 *     out a bucket's next level), the first 6 levels of every bucket in
 *     shared memory and the deeper ones in device memory, levels stored
 *     interleaved (level j of every bucket together) so a warp's linear
 *     searches read consecutive words. A full bucket spills to the next
 *     one (the paper's linear probing); a search walks on while the
 *     buckets it meets are full.
 *  2. Degree-aware resources (section 4.3): a source of out-degree above
 *     100 gets a CTA of 1024 threads and 1024 buckets, one of 2 to 100 a
 *     warp and 32 buckets; out-degree below 2 closes nothing.
 *  3. Virtual combination (section 4.2, warp_combined): the 2-hop
 *     neighbours of 32 middle vertices at a time are dealt to lanes after
 *     a warp prefix sum, never copied.
 *  4. Dynamic work assignment: a warp or CTA takes its next source from an
 *     atomic counter, a chunk of 1 (the paper's best for most graphs).
 *  5. Reordering (section 4.1): not done. The engine's ids are ranks in
 *     (degree, id) order, consecutive by degree. Neither the paper's
 *     separate IN and OUT relabellings nor the step of TRUST's own
 *     preprocessing that renumbers the out-neighbours of each large vertex
 *     consecutively (reassignID in its code: they spread evenly over the
 *     buckets, x mod buckets, and their lists lie next to each other in
 *     memory) is done on top.
 * Differences, each forced by the engine and not by choice: the deepest
 * bucket holds 6 + L levels where L (at most the paper's 128 - 6) is what
 * the slot's memory left after the unit's rows allows for every resident
 * block (the paper spends 512 MB; a unit of an out-of-core plan gets less,
 * and a full bucket then spills, still exact); N(a) larger than half the
 * table is tabled a piece at a time, the middle lists re-read per piece.
 * Units (windowed): only ids >= lo of N(a) are tabled, the middle vertices
 * are those of N(a) in [lo, hi), as in lstc-hash.
 * Input: a tsg_dag or 2D unit resident in device memory; scratch of 8 bytes
 * per source (the two degree classes) and any further bytes for levels.
 * Launch: 1024 threads a block as in the paper's runs, as many persistent
 * blocks as fit the SMs (the paper launches 1024 blocks); first the large
 * sources (a CTA each), then the small (a warp each).
 * What it is, then: TRUST's technique, not TRUST's speed. Against TRUST's
 * own build (wzbxpy/TRUST at 90845c6) in the same run, on an H100, this
 * kernel takes 3.90x / 3.24x / 3.87x its time on R-MAT 21 / 22 / 24 and
 * 4.15x on R-MAT 26 (TRUST's kernel on bench/trust-prep's files), and
 * 0.90x on web-like 2^24, 1.07x on Erdos-Renyi 2^24
 * (bench/raw/h100-2026-11-25-all-kernels/kernels-all.txt,
 * kernels-all-rmat26.txt), 1.06x / 1.05x on web-like 2^21 / 2^22
 * (bench/raw/h100-2026-11-25-edge-merge/kernels-trust-32522e8-web21-web22.txt).
 * Both do the same probes (about 11.3 G at R-MAT 21), so the gap on R-MAT
 * is in how; the missing renumbering (5.) is the likely cause, not yet
 * measured. It is kept to compare with the paper and as a tested
 * alternative; --kernel auto never picks it (kernels/choose.h: edge-merge,
 * lstc-hash or mid-hash is faster on every graph measured).
 */
#include "kernels/gpu_internal.cuh"

enum {
	TR_SMALL_MAX = 100,      /* out-degree above this: a CTA (section 4.3) */
	TR_THREADS = 1024,
	TR_WARPS = TR_THREADS / 32,
	TR_SMALL_BUCKETS = 32,   /* a warp's table */
	TR_LARGE_BUCKETS = 1024, /* a CTA's table */
	TR_SHARED_LEVELS = 6,    /* levels cached in shared memory (Fig. 3) */
	TR_MAX_LEVELS = 128,     /* the paper's maximum collision */
};

/* A bucketed table: len[nb] and the first TR_SHARED_LEVELS levels in
 * shared memory, levels TR_SHARED_LEVELS .. cap-1 at gl; level j of bucket
 * h at j * nb + h (interleaved). */
struct tr_table {
	uint32_t *len, *sh, *gl;
	uint32_t nb, cap;

	__device__ uint32_t *at(uint32_t h, uint32_t j) const
	{
		return j < TR_SHARED_LEVELS ? &sh[j * nb + h]
					    : &gl[(uint64_t)(j - TR_SHARED_LEVELS) * nb + h];
	}

	__device__ void insert(uint32_t x) const
	{
		/* a bucket's len passes cap when it is full: later searches
		 * read min(len, cap) levels and know to go on */
		for (uint32_t h = x & (nb - 1);; h = (h + 1) & (nb - 1)) {
			const uint32_t j = atomicAdd(&len[h], 1u);
			if (j < cap) {
				*at(h, j) = x;
				return;
			}
		}
	}

	/* Whether x was inserted: terminates because at most half the levels
	 * are used, so some bucket is not full. */
	__device__ unsigned operator()(uint32_t x) const
	{
		for (uint32_t h = x & (nb - 1);; h = (h + 1) & (nb - 1)) {
			const uint32_t l = len[h], n = min(l, cap);
			for (uint32_t j = 0; j < n; j++)
				if (*at(h, j) == x)
					return 1;
			if (l < cap)
				return 0;
		}
	}
};

/* Sources of out-degree above TR_SMALL_MAX, a CTA and 1024 buckets each;
 * gl: the block's TR_LARGE_BUCKETS * glev words; cap: levels a bucket has
 * (at most TR_SHARED_LEVELS + glev). */
__global__ void __launch_bounds__(TR_THREADS)
tr_large_kernel(dev_dag d, const uint32_t *large, uint32_t *gl, uint32_t glev, uint32_t cap,
		dev_counters *c)
{
	__shared__ uint32_t s_len[TR_LARGE_BUCKETS];
	__shared__ uint32_t s_el[TR_SHARED_LEVELS * TR_LARGE_BUCKETS];
	const tr_table t = { s_len, s_el, gl + (uint64_t)blockIdx.x * TR_LARGE_BUCKETS * glev,
			     TR_LARGE_BUCKETS, cap };
	const uint32_t piece = TR_LARGE_BUCKETS * t.cap / 2, n = c->n_large;
	const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	unsigned long long count = 0;
	for (;;) {
		const uint32_t k = block_take(&c->next_large);
		if (k >= n)
			break;
		uint64_t ab, we, ae;
		dev_source(d, large[k], &ab, &we, &ae);
		const uint64_t dg = ae - ab, nw = we - ab;
		for (uint64_t t0 = 0; t0 < dg; t0 += piece) {
			const uint64_t tn = min((uint64_t)piece, dg - t0);
			for (uint32_t i = threadIdx.x; i < TR_LARGE_BUCKETS; i += TR_THREADS)
				s_len[i] = 0;
			__syncthreads();
			for (uint64_t i = threadIdx.x; i < tn; i += TR_THREADS)
				t.insert(d.sadj[ab + t0 + i]);
			__syncthreads();
			/* warps take 32 middle vertices at a time: no block barrier */
			for (uint64_t c0 = (uint64_t)warp * 32; c0 < nw; c0 += TR_THREADS)
				count += warp_combined(d, ab, nw, c0, lane, t);
			__syncthreads(); /* the table is rebuilt next */
		}
	}
	block_add_count<TR_WARPS>(count, &c->triangles);
}

/* Sources of out-degree 2 .. TR_SMALL_MAX, a warp and 32 buckets each; gl:
 * the block's TR_LARGE_BUCKETS * glev words, a 32nd to each warp. */
__global__ void __launch_bounds__(TR_THREADS)
tr_small_kernel(dev_dag d, const uint32_t *small, uint32_t *gl, uint32_t glev, uint32_t cap,
		dev_counters *c)
{
	__shared__ uint32_t s_len[TR_WARPS][TR_SMALL_BUCKETS];
	__shared__ uint32_t s_el[TR_WARPS][TR_SHARED_LEVELS * TR_SMALL_BUCKETS];
	const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const tr_table t = { s_len[warp], s_el[warp],
			     gl + ((uint64_t)blockIdx.x * TR_WARPS + warp) * TR_SMALL_BUCKETS * glev,
			     TR_SMALL_BUCKETS, cap };
	const uint32_t piece = TR_SMALL_BUCKETS * t.cap / 2, n = c->n_small;
	unsigned long long count = 0;
	for (;;) {
		const uint32_t k = warp_take(&c->next_small, lane);
		if (k >= n)
			break;
		uint64_t ab, we, ae;
		dev_source(d, small[k], &ab, &we, &ae);
		const uint32_t dg = (uint32_t)(ae - ab), nw = (uint32_t)(we - ab);
		for (uint32_t t0 = 0; t0 < dg; t0 += piece) {
			const uint32_t tn = min(piece, dg - t0);
			s_len[warp][lane] = 0; /* 32 buckets, one a lane */
			__syncwarp();
			for (uint32_t i = lane; i < tn; i += 32)
				t.insert(d.sadj[ab + t0 + i]);
			__syncwarp();
			for (uint32_t c0 = 0; c0 < nw; c0 += 32)
				count += warp_combined(d, ab, nw, c0, lane, t);
			__syncwarp(); /* the table is rebuilt next */
		}
	}
	block_add_count<TR_WARPS>(count, &c->triangles);
}

cudaError_t trust_launch(const dev_dag &d, uint32_t *small, uint32_t *large, uint8_t *tables,
			 uint64_t table_bytes, uint32_t max_levels, dev_counters *c, int sms,
			 cudaStream_t s)
{
	if (d.nsrc == 0)
		return cudaSuccess;
	int per_large = 0, per_small = 0;
	cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_large, tr_large_kernel,
								      TR_THREADS, 0);
	if (e == cudaSuccess)
		e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_small, tr_small_kernel,
								  TR_THREADS, 0);
	if (e != cudaSuccess)
		return e;
	const uint32_t per_sm = (uint32_t)max(1, min(per_large, per_small));
	const uint32_t blocks = (uint32_t)sms * per_sm;
	/* device levels: what the scratch holds for every block, both kernels
	 * using the same words (they run one after the other on one stream) */
	const uint64_t per_level = (uint64_t)blocks * TR_LARGE_BUCKETS * 4;
	const uint32_t glev = (uint32_t)min((uint64_t)(TR_MAX_LEVELS - TR_SHARED_LEVELS),
					    table_bytes / per_level);
	const uint32_t cap = max_levels ? min(max_levels, TR_SHARED_LEVELS + glev)
					: TR_SHARED_LEVELS + glev;
	e = src_bucket_launch(d, TR_SMALL_MAX, small, large, c, sms, s);
	if (e != cudaSuccess)
		return e;
	tr_large_kernel<<<blocks, TR_THREADS, 0, s>>>(d, large, (uint32_t *)tables, glev, cap, c);
	GPU_LAUNCHED();
	tr_small_kernel<<<blocks, TR_THREADS, 0, s>>>(d, small, (uint32_t *)tables, glev, cap, c);
	return cudaGetLastError();
}
