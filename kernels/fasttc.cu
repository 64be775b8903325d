/*
 * fasttc.cu - Fast TC's binary-search counting with index-assisted
 * prefetching (kernel fasttc).
 *
 * Technique: Gui, Zheng, Yao, Liao and Jin, "Fast Triangle Counting on
 * GPU" (HPEC 2019; ../shared/seeds/002). For each source a and each
 * middle vertex w in N(a), |N(a) ∩ N(w)| by binary search: the entries of
 * the shorter list are searched in the longer (Algorithm 1) with the
 * branch-free search of Algorithm 2. As the paper has it:
 *  1. Prefetching (section III-B): a source's N(a) is searched over and
 *     over, so it is brought into shared memory, and the next source's
 *     list is fetched while the current one is counted: in the block
 *     kernel warp 0 copies the next section into the second of two shared
 *     buffers, then joins the count; a warp prefetches its next source's
 *     list into registers. Sources are assigned statically (a block or
 *     warp takes every G-th one), which is what lets the next one be known
 *     in advance.
 *  2. Degree-based reordering (section III-C): the engine's ids are ranks
 *     in (degree, id) order and edges point to the higher rank, which is
 *     the paper's orientation (lower to higher degree) after its reordering.
 *  3. Thread, warp and block granularity (section III-D): a source of
 *     out-degree 2 .. 8 gets a thread, 9 .. 256 a warp (a lane a middle
 *     vertex, N(a) in the warp's shared buffer), above that a block of 256
 *     threads (a warp a middle vertex, N(a) in shared memory a section of
 *     4096 at a time: the paper's "neighbor list divided into small
 *     blocks"). The paper cuts its degree-sorted vertex list into three
 *     scopes by their average degrees; the sources here are filed by
 *     their own out-degree, the exact form of that cut. The three kernels
 *     of the paper run concurrently; here one grid does the three in turn,
 *     block by block, so a block that finishes its large sources starts on
 *     the warps' while others still work: the same overlap, one launch.
 * One change: in units, whose ids are ranks, only the entries of N(a)
 * after w (larger than w, as N(w)'s ids are) are searched, which halves
 * the work on average; LSTC parts keep their own ids and search all of
 * N(a). Either way a triangle is counted once, at its lowest vertex.
 * Units (windowed): the table part of N(a) is its ids >= lo, the middle
 * vertices those in [lo, hi), as in lstc-hash.
 * Input: a tsg_dag or 2D unit resident in device memory; scratch of 12
 * bytes per source (the three degree classes).
 * Launch: the filing kernel over sources, then 256-thread blocks, as many
 * as are resident at once (40 KiB of shared memory each).
 * When it wins: on none of the graphs measured (H100, R-MAT 21: 111.6 ms
 * against mid-hash's 18.7; web 2^21: 3.07 ms against lstc-hash's 1.90):
 * each membership test is log2 of a list's length of dependent loads,
 * where a hash table needs about one, and hubs with long lists dominate
 * R-MAT. It is closest on crawl-like graphs, whose lists are short.
 * bench/RESULTS.md has the side-by-side.
 */
#include "kernels/gpu_internal.cuh"

enum {
	FT_THREADS = 256,
	FT_WARPS = FT_THREADS / 32,
	FT_THREAD_MAX = 8,       /* out-degree up to this: a thread */
	FT_WARP_MAX = 256,       /* up to this: a warp */
	FT_SECTION = 4096,       /* a block's buffer: N(a) this much at a time */
	FT_PRE = FT_WARP_MAX / 32, /* a lane's prefetch registers */
};

/* Algorithm 2: whether x is in the sorted a[0 .. n), by a lower bound
 * whose halving steps have no branch. */
__device__ __forceinline__ unsigned ft_has(const uint32_t *a, uint32_t n, uint32_t x)
{
	if (n == 0)
		return 0;
	uint32_t at = 0;
	for (uint32_t len = n; len > 1;) {
		const uint32_t half = len >> 1;
		at += a[at + half] < x ? half : 0;
		len -= half;
	}
	at += a[at] < x;
	return at < n && a[at] == x;
}

/* Where N(a) ∩ N(w) can begin, for the middle vertex w at index j of
 * N(a): after w where ids are ranks (units: N(w) holds larger ids only);
 * anywhere in an LSTC part, whose ids are the graph's own. */
__device__ __forceinline__ uint32_t ft_after(const dev_dag &d, uint32_t j)
{
	return d.windowed ? j + 1 : 0;
}

/* Algorithm 1 for one pair, by one thread: the shorter list's entries
 * searched in the longer. */
__device__ __forceinline__ unsigned long long ft_pair(const uint32_t *p, uint32_t np,
						      const uint32_t *q, uint32_t nq)
{
	unsigned long long c = 0;
	if (np <= nq)
		for (uint32_t i = 0; i < np; i++)
			c += ft_has(q, nq, p[i]);
	else
		for (uint32_t i = 0; i < nq; i++)
			c += ft_has(p, np, q[i]);
	return c;
}

/* Large sources, a block each, N(a) a section at a time in shared memory;
 * the block's next section is copied by warp 0 into the other buffer
 * while the rest count. Every thread of the block calls it. */
__device__ unsigned long long ft_blocks(const dev_dag &d, const uint32_t *large, uint32_t n,
					uint32_t (*sec)[FT_SECTION], unsigned int *s_next)
{
	const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	unsigned long long count = 0;
	uint32_t k = blockIdx.x, cur = 0;
	uint64_t t0 = 0;
	if (threadIdx.x == 0)
		*s_next = 0;
	if (k < n) {
		uint64_t ab, we, ae;
		dev_source(d, large[k], &ab, &we, &ae);
		const uint64_t sn = min((uint64_t)FT_SECTION, ae - ab);
		for (uint32_t i = threadIdx.x; i < sn; i += FT_THREADS)
			sec[0][i] = d.sadj[ab + i];
	}
	__syncthreads();
	while (k < n) {
		uint64_t ab, we, ae;
		dev_source(d, large[k], &ab, &we, &ae);
		const uint64_t dg = ae - ab, nw = we - ab, send = min(dg, t0 + FT_SECTION);
		uint32_t nk = k;
		uint64_t nt = t0 + FT_SECTION;
		if (nt >= dg) {
			nk = k + gridDim.x;
			nt = 0;
		}
		if (warp == 0 && nk < n) { /* the prefetch */
			uint64_t nb, nwe, ne;
			dev_source(d, large[nk], &nb, &nwe, &ne);
			const uint64_t nn = min((uint64_t)FT_SECTION, ne - nb - nt);
			for (uint32_t i = lane; i < nn; i += 32)
				sec[cur ^ 1][i] = d.sadj[nb + nt + i];
		}
		for (;;) {
			const uint32_t j = warp_take(s_next, lane);
			if (j >= nw)
				break;
			const uint64_t from = max(t0, (uint64_t)ft_after(d, j));
			if (from >= send)
				continue;
			const uint32_t *s = sec[cur] + (from - t0);
			const uint32_t ns = (uint32_t)(send - from);
			uint64_t wb, wend;
			dev_mid(d, d.sadj[ab + j], &wb, &wend);
			const uint32_t dw = (uint32_t)(wend - wb);
			if (dw <= ns)
				for (uint32_t i = lane; i < dw; i += 32)
					count += ft_has(s, ns, d.adj[wb + i]);
			else
				for (uint32_t i = lane; i < ns; i += 32)
					count += ft_has(d.adj + wb, dw, s[i]);
		}
		__syncthreads(); /* sec[cur] read, sec[cur ^ 1] filled */
		if (threadIdx.x == 0)
			*s_next = 0;
		__syncthreads();
		cur ^= 1;
		k = nk;
		t0 = nt;
	}
	return count;
}

/* A lane's share of source k's list, FT_PRE registers: entries lane,
 * lane + 32, ... */
__device__ __forceinline__ void ft_prefetch(const dev_dag &d, const uint32_t *mid, uint32_t k,
					    unsigned lane, uint64_t *ab, uint64_t *we, uint64_t *ae,
					    uint32_t *pre)
{
	dev_source(d, mid[k], ab, we, ae);
	const uint32_t dg = (uint32_t)(*ae - *ab);
#pragma unroll
	for (int r = 0; r < FT_PRE; r++) {
		const uint32_t i = lane + 32u * r;
		pre[r] = i < dg ? d.sadj[*ab + i] : 0;
	}
}

/* Medium sources, a warp each, a lane a middle vertex; N(a) in the warp's
 * shared buffer, the next source's list in registers meanwhile. */
__device__ unsigned long long ft_warps(const dev_dag &d, const uint32_t *mid, uint32_t n,
				       uint32_t *buf)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t stride = gridDim.x * FT_WARPS;
	uint32_t k = blockIdx.x * FT_WARPS + (threadIdx.x >> 5);
	unsigned long long count = 0;
	uint32_t pre[FT_PRE];
	uint64_t ab = 0, we = 0, ae = 0;
	if (k < n)
		ft_prefetch(d, mid, k, lane, &ab, &we, &ae, pre);
	while (k < n) {
		const uint32_t dg = (uint32_t)(ae - ab), nw = (uint32_t)(we - ab);
		__syncwarp(); /* the last source's reads of buf are done */
#pragma unroll
		for (int r = 0; r < FT_PRE; r++)
			if (lane + 32u * r < dg)
				buf[lane + 32u * r] = pre[r];
		__syncwarp();
		const uint32_t nk = k + stride;
		if (nk < n)
			ft_prefetch(d, mid, nk, lane, &ab, &we, &ae, pre);
		for (uint32_t j = lane; j < nw; j += 32) {
			uint64_t wb, wend;
			dev_mid(d, buf[j], &wb, &wend);
			const uint32_t from = ft_after(d, j);
			count += ft_pair(d.adj + wb, (uint32_t)(wend - wb), buf + from, dg - from);
		}
		k = nk;
	}
	return count;
}

/* Small sources, a thread each, every list read from device memory. */
__device__ unsigned long long ft_threads(const dev_dag &d, const uint32_t *small, uint32_t n)
{
	unsigned long long count = 0;
	for (uint32_t k = blockIdx.x * FT_THREADS + threadIdx.x; k < n; k += gridDim.x * FT_THREADS) {
		uint64_t ab, we, ae;
		dev_source(d, small[k], &ab, &we, &ae);
		const uint32_t dg = (uint32_t)(ae - ab), nw = (uint32_t)(we - ab);
		const uint32_t *na = d.sadj + ab;
		for (uint32_t j = 0; j < nw; j++) {
			uint64_t wb, wend;
			dev_mid(d, na[j], &wb, &wend);
			const uint32_t from = ft_after(d, j);
			count += ft_pair(d.adj + wb, (uint32_t)(wend - wb), na + from, dg - from);
		}
	}
	return count;
}

__global__ void __launch_bounds__(FT_THREADS)
ft_kernel(dev_dag d, const uint32_t *small, const uint32_t *mid, const uint32_t *large,
	  dev_counters *c)
{
	__shared__ uint32_t sec[2][FT_SECTION];
	__shared__ uint32_t wbuf[FT_WARPS][FT_WARP_MAX];
	__shared__ unsigned int s_next;
	unsigned long long count = ft_blocks(d, large, c->n_large, sec, &s_next);
	count += ft_warps(d, mid, c->n_mid, wbuf[threadIdx.x >> 5]);
	count += ft_threads(d, small, c->n_small);
	block_add_count<FT_WARPS>(count, &c->triangles);
}

cudaError_t fasttc_launch(const dev_dag &d, uint32_t *lists, dev_counters *c, int sms,
			  cudaStream_t s)
{
	if (d.nsrc == 0)
		return cudaSuccess;
	int per_sm = 0;
	cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ft_kernel,
								      FT_THREADS, 0);
	if (e != cudaSuccess)
		return e;
	uint32_t *small = lists, *mid = lists + d.nsrc, *large = lists + 2ull * d.nsrc;
	e = src_class_launch(d, FT_THREAD_MAX, FT_WARP_MAX, small, mid, large, c, sms, s);
	if (e != cudaSuccess)
		return e;
	ft_kernel<<<(unsigned)sms * (unsigned)max(1, per_sm), FT_THREADS, 0, s>>>(d, small, mid,
									      large, c);
	return cudaGetLastError();
}
