/*
 * gpu_internal.cuh - what the runtime (gpu_runtime.cu) and the kernel files
 * share: a partition as it lies in a device slot, and the launchers.
 */
#ifndef KERN_GPU_INTERNAL_CUH
#define KERN_GPU_INTERNAL_CUH

#include <pthread.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "kernels/clique.h"
#include "kernels/gpu.h"

/* After a launch in a function returning cudaError_t: a launch's own error
 * (bad configuration, too many resources) returns at the launch that
 * caused it, not at some later synchronisation. */
#define GPU_LAUNCHED()                                          \
	do {                                                    \
		const cudaError_t le_ = cudaGetLastError();     \
		if (le_ != cudaSuccess)                         \
			return le_;                             \
	} while (0)

/*
 * A partition (tsg_dag) or a 2D unit (tsg_unit) as kernels see it. Middle
 * vertex w's list is adj[off[w - lo] - base .. off[w - lo + 1] - base); source
 * k's list is row (src ? src[k] : k) of soff/sadj, addressed the same way
 * with sbase. For a unit (windowed), only b in [lo, hi) is walked and only
 * ids >= lo of a source's list are tabled, since c > b.
 */
struct dev_dag {
	const uint64_t *off, *soff;
	const uint32_t *adj, *sadj;
	const uint32_t *src;
	uint64_t base, sbase;
	uint32_t nsrc, lo, hi;
	int windowed;
	uint32_t src_lo;            /* a unit: the global rank of source 0 */
	unsigned long long *pv;     /* per-vertex counts by global id, or NULL */
	const uint32_t *gid;        /* a partition's local -> global ids (NULL: global) */
};

/* Per-vertex counting (kernels/dag.h): every triangle adds 1 to pv[id] of
 * each of its vertices, id global (gid maps a partition's local ids);
 * rec_a holds each wedge record's source, global. pv NULL: off. */
struct mh_pv {
	unsigned long long *pv;
	const uint32_t *gid;
	const uint32_t *rec_a;
};

__device__ __forceinline__ uint32_t dev_global(const uint32_t *gid, uint32_t x)
{
	return gid ? gid[x] : x;
}

/* The first index in [lo, hi) whose id is >= x (hi if none). */
__device__ __forceinline__ uint64_t dev_lower_bound(const uint32_t *a, uint64_t lo, uint64_t hi,
						   uint32_t x)
{
	while (lo < hi) {
		const uint64_t m = (lo + hi) >> 1;
		if (a[m] < x)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* Source k's table [*tb, *te) and middle vertices [*tb, *we), as indexes into d.sadj. */
__device__ __forceinline__ void dev_source(const dev_dag &d, uint32_t k, uint64_t *tb, uint64_t *we,
					   uint64_t *te)
{
	const uint32_t r = d.src ? d.src[k] : k;
	uint64_t b = d.soff[r] - d.sbase, e = d.soff[r + 1] - d.sbase;
	*te = e;
	if (!d.windowed) {
		*tb = b;
		*we = e;
		return;
	}
	*tb = dev_lower_bound(d.sadj, b, e, d.lo);
	*we = dev_lower_bound(d.sadj, *tb, e, d.hi);
}

/* Slots of a hash table for n keys: the least power of two from min
 * (itself a power of two) that is at least 2n, so the load stays at most
 * one half. */
__device__ __forceinline__ uint32_t table_size(uint64_t n, uint32_t min)
{
	uint32_t s = min;
	while (s < 2 * n)
		s <<= 1;
	return s;
}

/* Inclusive sum of x over the warp's 32 lanes; every lane must call it. */
__device__ __forceinline__ uint32_t warp_inclusive_sum(uint32_t x, unsigned lane)
{
	for (int o = 1; o < 32; o <<= 1) {
		const uint32_t y = __shfl_up_sync(0xffffffffu, x, o);
		if (lane >= (unsigned)o)
			x += y;
	}
	return x;
}

/* Given each lane's exclusive start excl (increasing over the lanes), the
 * last lane whose start is at or before idx: a 5-step shuffle search, so a
 * warp spreads the lanes' ranges over its threads. Every lane must call it. */
__device__ __forceinline__ int warp_owner(uint32_t excl, uint32_t idx)
{
	int own = 0;
	for (int step = 16; step > 0; step >>= 1)
		if (__shfl_sync(0xffffffffu, excl, own + step) <= idx)
			own += step;
	return own;
}

/* The next item of a warp's work from a hand-out counter: one atomic by
 * lane 0, shared with the warp. Every lane must call it. */
__device__ __forceinline__ uint32_t warp_take(unsigned int *next, unsigned lane)
{
	uint32_t k = 0;
	if (lane == 0)
		k = atomicAdd(next, 1u);
	return __shfl_sync(0xffffffffu, k, 0);
}

/* The same for a whole block: one atomic by thread 0. Every thread must
 * call it. */
__device__ __forceinline__ uint32_t block_take(unsigned int *next)
{
	__shared__ uint32_t s_k;
	if (threadIdx.x == 0)
		s_k = atomicAdd(next, 1u);
	__syncthreads();
	const uint32_t k = s_k;
	__syncthreads(); /* everyone has read s_k before thread 0 rewrites it */
	return k;
}

/* The sum of count over the warp's lanes, in lane 0. Every lane must call it. */
__device__ __forceinline__ unsigned long long warp_sum(unsigned long long count)
{
	for (int o = 16; o > 0; o >>= 1)
		count += __shfl_down_sync(0xffffffffu, count, o);
	return count;
}

/* Middle vertex w's list [*b, *e) as indexes into d.adj. */
__device__ __forceinline__ void dev_mid(const dev_dag &d, uint32_t w, uint64_t *b, uint64_t *e)
{
	*b = d.off[w - d.lo] - d.base;
	*e = d.off[w - d.lo + 1] - d.base;
}

/*
 * Virtual combination (TRUST, Pan et al., section 4.2): the lists N(w) of
 * the 32 middle vertices w = sadj[wbeg + c0 ..] (of nw in all) are numbered
 * as if copied one after another, by a warp prefix sum of their lengths,
 * and the combined entries are dealt to lanes round-robin; a lane finds
 * whose list holds its entry by a 5-step shuffle search. So a warp never
 * idles on a short N(w), and reads of each N(w) stay coalesced. has(x) says
 * whether x is in the source's table; returns this lane's hits. Every lane
 * must call it.
 */
template <typename Probe>
__device__ __forceinline__ unsigned long long
warp_combined(const dev_dag &d, uint64_t wbeg, uint64_t nw, uint64_t c0, unsigned lane,
	      const Probe &has)
{
	const uint64_t j = c0 + lane;
	uint64_t wb = 0, we = 0;
	if (j < nw)
		dev_mid(d, d.sadj[wbeg + j], &wb, &we);
	const uint32_t dw = (uint32_t)(we - wb);
	const uint32_t incl = warp_inclusive_sum(dw, lane);
	const uint32_t total = __shfl_sync(0xffffffffu, incl, 31), excl = incl - dw;
	unsigned long long count = 0;
	for (uint32_t base = 0; base < total; base += 32) {
		const uint32_t idx = base + lane;
		const int lo = warp_owner(excl, idx); /* whose range holds idx */
		const uint64_t owb = __shfl_sync(0xffffffffu, wb, lo);
		const uint32_t oex = __shfl_sync(0xffffffffu, excl, lo);
		if (idx < total)
			count += has(d.adj[owb + (idx - oex)]);
	}
	return count;
}

/* Counters a slot keeps in device memory, zeroed before each partition. */
struct dev_counters {
	unsigned long long triangles;
	unsigned int n_small, n_large;   /* sources per degree bucket */
	unsigned int n_mid;              /* fasttc: its third class (src_class_launch) */
	unsigned int next_small, next_large; /* work hand-out for persistent grids */
	unsigned int next_chunk;             /* mid-hash: the next run of records */
	unsigned int overflow;               /* k-cliques: a count passed 2^64 - 1 */
};

/* Adds the counts of a block's NWARPS warps to *total: a warp sum, then
 * one 64-bit atomic for the block. Every thread must call it, once. */
template <int NWARPS>
__device__ __forceinline__ void block_add_count(unsigned long long count, unsigned long long *total)
{
	__shared__ unsigned long long sums[NWARPS];
	count = warp_sum(count);
	if ((threadIdx.x & 31) == 0)
		sums[threadIdx.x >> 5] = count;
	__syncthreads();
	if (threadIdx.x == 0) {
		unsigned long long sum = 0;
		for (int w = 0; w < NWARPS; w++)
			sum += sums[w];
		if (sum)
			atomicAdd(total, sum);
	}
}

cudaError_t lstc_paper_launch(const dev_dag &d, unsigned tile, dev_counters *c, cudaStream_t s);
cudaError_t lstc_hash_launch(const dev_dag &d, uint32_t *small, uint32_t *large, dev_counters *c,
			     int sms, cudaStream_t s);
/* Files the sources that can close a triangle (out-degree 2 or more, a
 * middle vertex in the window) by out-degree: at most small_max into small,
 * the rest into large; their numbers in c->n_small, c->n_large
 * (lstc_hash.cu; lstc-hash and trust share it). */
cudaError_t src_bucket_launch(const dev_dag &d, uint32_t small_max, uint32_t *small,
			      uint32_t *large, dev_counters *c, int sms, cudaStream_t s);
/* The same in three classes: out-degree up to small_max into small, up to
 * mid_max into mid, the rest into large; c->n_mid counts mid. */
cudaError_t src_class_launch(const dev_dag &d, uint32_t small_max, uint32_t mid_max,
			     uint32_t *small, uint32_t *mid, uint32_t *large, dev_counters *c,
			     int sms, cudaStream_t s);

/* Fast TC's binary search with prefetching (fasttc.cu): lists holds 3 *
 * nsrc uint32 for the degree classes. */
cudaError_t fasttc_launch(const dev_dag &d, uint32_t *lists, dev_counters *c, int sms,
			  cudaStream_t s);

/* Skiff's lock-free hopscotch tables under one of its CTA policies
 * (skiff.cu): lists holds 2 * nsrc uint32 (block-degree's classes); hop,
 * if not 0, narrows the neighbourhood (tests: overflow nodes). */
cudaError_t skiff_launch(const dev_dag &d, enum gpu_cta_policy policy, uint32_t hop, uint32_t *lists,
			 dev_counters *c, int sms, cudaStream_t s);

/* TRUST's vertex-centric hashing (trust.cu): sources filed as above into
 * small and large (4 * nsrc bytes each), and `table_bytes` of device memory
 * at `tables` for the bucket levels that do not fit shared memory;
 * max_levels, if not 0, lowers the levels a bucket has (tests: spills). */
cudaError_t trust_launch(const dev_dag &d, uint32_t *small, uint32_t *large, uint8_t *tables,
			 uint64_t table_bytes, uint32_t max_levels, dev_counters *c, int sms,
			 cudaStream_t s);

/* The edge iterator, a thread per edge merging sorted lists (edge_merge.cu):
 * no scratch; c->next_chunk hands out runs of 32 sources; src_entries (the
 * source rows' entries) picks the first step. */
cudaError_t edge_merge_launch(const dev_dag &d, uint64_t src_entries, dev_counters *c, int sms,
			      cudaStream_t s);

/* K-cliques of a partition whose out-lists are at most max_out long
 * (kernels/clique.cu): scratch_bytes must hold KERN_CLIQUE_PREP_PER_SRC
 * bytes a source, KERN_CLIQUE_PREP_FIXED, and the least pool
 * (kern_clique_pool_least); each tier's warps take what is left, up to
 * what runs at once. With cf->all, sizes (max_out + 2 entries, zeroed
 * here) receives the count of every clique size, size j at j - 1. */
struct kern_clique_gpu;
cudaError_t clique_launch(const dev_dag &d, const struct kern_clique_gpu *cf, uint32_t max_out,
			  uint8_t *scratch, uint64_t scratch_bytes, unsigned long long *sizes,
			  dev_counters *c, int sms, cudaStream_t s);

/* Bytes of scratch mid-hash needs for nmid middle rows and src_entries
 * source list entries (below 2^32), with per-vertex counts if pv; a
 * failure of CUB's size query is recorded in *e (if *e holds no error yet). */
uint64_t mid_hash_scratch(uint32_t nmid, uint64_t src_entries, int pv, cudaError_t *e);
/* slots: table words per warp; bits 0 hashes every out(b) (tests: the
 * bitmap would take all the short spans). */
cudaError_t mid_hash_launch(const dev_dag &d, uint8_t *scratch, uint64_t src_entries,
			    unsigned slots, int bits, dev_counters *c, int sms, cudaStream_t s);

/* The arrival layout's state (arrival.cu, gpu_runtime.cu): every row in
 * adj (cap ids), found by rank through rstart/rlen; the rank of every id;
 * one batch's offsets, lists, rows before their sort, in-edges and
 * per-vertex arrays (nbv + 1 long); pos, scan and sort state and records
 * for one batch. */
struct arrival_fill {
	unsigned long long used; /* row ids placed */
	unsigned int overflow;   /* a batch did not fit, or a unit's records (groups) */
};

struct arrival_dev {
	uint64_t *rstart, *off;
	uint32_t *rlen, *batch_of, *rank, *adj, *pos;
	uint32_t *lst, *tmp, *row_at, *in_at, *pre, *row_fill, *in_fill;
	uint2 *ins;
	void *scan_tmp, *sort_tmp;
	void *scan_tmp2;         /* the counting stream's (arrival_launch) */
	size_t scan_bytes, sort_bytes;
	ulonglong2 *rec;
	uint32_t *rec_a;         /* per-vertex counts: each record's source */
	unsigned long long *pv;  /* per-vertex counts by rank, or NULL */
	arrival_fill *fill;
	uint64_t cap;
	uint32_t nv;
	uint32_t share, nshares; /* several devices: the edges this one files (arrival.cu) */
	/* groups (rows past the device, arrival.cu): rank -> id; region A, the
	 * group being read (ids a_lo .. a_hi-1, cap_a row ids, ids_a ids), and
	 * region B, a piece of an earlier group (ids b_lo .. b_hi-1, its rows
	 * from b_base of the group's), each row found by id (rs, rl) */
	int grouped;
	uint32_t *id_of;         /* id of rank rank0 + i (the ranks below: no row holds them) */
	uint32_t rank0;
	uint32_t *adj_a, *rs_a, *rl_a, *adj_b, *rs_b, *rl_b;
	uint64_t cap_a, cap_b, ids_a, ids_b, cap_rec;
	uint64_t a_lo, a_hi, b_lo, b_hi;
	uint32_t b_base;
};

/* CUB's scratch for the batch scans and sorts; a failed size query is
 * recorded in *e (if *e holds no error yet). */
size_t arrival_scan_bytes(uint32_t n, cudaError_t *e);
size_t arrival_sort_bytes(uint64_t entries, uint32_t nbv, cudaError_t *e);
/* Orients batch k (ids lo .. lo+nbv-1, entries list ids), whose offsets
 * and lists are in a.off and a.lst, places its rows, and counts its edges
 * unless count is 0 (a batch a checkpoint holds: later batches still need
 * its rows). Orients and places on s once the event filed has passed (the
 * batch before filed its edges), then records placed; files and counts on
 * cs after placed, recording filed in between. What is queued on s after
 * the call (the next batch's copies) may run beside the count. */
cudaError_t arrival_launch(const arrival_dev &a, uint64_t lo, uint32_t nbv, uint64_t entries,
			   uint32_t k, int count, unsigned slots, int bits, dev_counters *c, int sms,
			   cudaStream_t s, cudaStream_t cs, cudaEvent_t placed, cudaEvent_t filed);

/* Groups: orients and places batch k in region A (a.a_lo its group's
 * first id) as arrival_launch does, writes A's fill mark after it to
 * *used (pinned) on s, and counts the edges it completes within its group
 * unless count is 0 or defer is set (a unit of batches counts them,
 * arrival_unit_launch; filed is then recorded on s). */
cudaError_t arrival_group_launch(const arrival_dev &a, uint64_t lo, uint32_t nbv,
				 uint64_t entries, uint32_t k, int count, int defer, unsigned slots,
				 int bits, dev_counters *c, int sms, cudaStream_t s, cudaStream_t cs,
				 cudaEvent_t placed, cudaEvent_t filed, unsigned long long *used);
/* Groups: counts on cs, in one launch, the edges within region A (ids
 * a.a_lo .. u_hi-1, placed) with an end at u_lo or later: those that the
 * batches of ids u_lo .. u_hi-1 complete within their group, as the
 * batches' own launches would (with several devices, a.share's share).
 * Their records must fit a.cap_rec: the batches' list entries bound them
 * (each such edge is in the list of its later end). */
cudaError_t arrival_unit_launch(const arrival_dev &a, uint64_t u_lo, uint64_t u_hi,
				unsigned slots, int bits, dev_counters *c, int sms, cudaStream_t cs);
/* Groups: counts on cs the edges a -> b with a among ids c0 .. c1-1 of
 * region B (from_b) or A and b in the other region; the records of so
 * many sources must fit a.cap_rec (their rows' entries bound them);
 * filed, if not NULL, is recorded between filing and counting. */
cudaError_t arrival_pair_launch(const arrival_dev &a, int from_b, uint64_t c0, uint64_t c1,
				unsigned slots, int bits, dev_counters *c, int sms, cudaStream_t cs,
				cudaEvent_t filed, int tallied);
/* Groups: the first filing pass of the same launch and its scan, on cs,
 * and the records it makes to *total (pinned) once cs has them; a launch
 * of the same sources right after may then be tallied (skips them). */
cudaError_t arrival_pair_tally(const arrival_dev &a, int from_b, uint64_t c0, uint64_t c1,
			       int sms, cudaStream_t cs, uint32_t *total);

/* Groups: id_of from rank, on s. */
cudaError_t arrival_id_of_launch(const arrival_dev &a, int sms, cudaStream_t s);

/* The runtime's state of one device (gpu_runtime.cu; the sweep's calls in
 * sweep.cu use it too). */
struct sweep_dev;
/* A source block a slot keeps (gpu_keep_sources). */
struct gpu_kept {
	const uint64_t *hoff;   /* the host DAG it came from; NULL: none */
	const uint32_t *hadj;
	uint32_t lo, hi;
	const uint64_t *doff;   /* where it lies in the slot */
	const uint32_t *dadj;
	uint64_t used, bytes;   /* slot bytes it takes; bytes it copied */
};

/* A finished group (gpu_runtime.cu): ids lo .. hi-1, batches k0 .. k1-1,
 * its rows and their index by id on the host (pinned). */
struct ar_group {
	uint64_t lo, hi, rows;
	uint32_t k0, k1;
	uint32_t *adj, *rs, *rl;
	double end_at, end_s;   /* its end: host seconds after the begin, and taken */
	uint32_t pieces;        /* pieces of earlier groups copied back at its end */
};

struct gpu_ctx {
	int device, sms;
	char name[256];
	uint64_t budget, slot_bytes;   /* budget: what slots or the arrival layout may use */
	unsigned budget_rereads;       /* default budget: free memory read again (budget_take) */
	void *test_hog;                /* TSG_TEST_BUDGET_RACE's memory, or NULL */
	unsigned long long *pv;        /* per-vertex counts, above the budget, or NULL */
	uint64_t pv_n;
	unsigned tile;
	uint8_t *dmem;
	cudaStream_t copy[GPU_SLOTS], compute[GPU_SLOTS];
	cudaEvent_t h2d_start[GPU_SLOTS], h2d_end[GPU_SLOTS], k_start[GPU_SLOTS], k_end[GPU_SLOTS];
	dev_counters *hcount; /* pinned, one per slot */
	uint64_t bytes[GPU_SLOTS];
	uint64_t ahead[GPU_SLOTS];    /* of them, copied ahead (gpu_resident_ahead) */
	enum gpu_kernel ran[GPU_SLOTS]; /* what each slot's count ran (kernel_scratch) */
	/* gpu_keep_sources: the source block each slot holds from its last
	 * unit (at the slot's start), which the next unit with the same one
	 * reads again instead of copying it */
	int keep_src;
	struct gpu_kept kept[GPU_SLOTS];
	uint64_t kept_bytes[GPU_SLOTS]; /* a unit's source bytes read from the slot */
	uint64_t mid_hash_max;          /* source entries mid-hash takes, below 2^32 */
	uint32_t trust_levels;          /* trust's bucket depth for tests, 0: its own */
	uint32_t skiff_hop;             /* skiff's neighbourhood for tests, 0: its own */
	int mid_hash_bits;              /* mid-hash's bitmaps, 0 for tests: hash alone */
	enum gpu_cta_policy cta;        /* skiff's CTA policy */
	uint8_t *stage[GPU_STAGE_BUFS]; /* pinned, allocated on the first staged copy */
	cudaEvent_t stage_free[GPU_STAGE_BUFS]; /* recorded after a buffer's copy */
	unsigned stage_next;
	gpu_copy_fn host_copy;
	void *host_copy_ctx;
	/* the arrival layout */
	arrival_dev ar;
	uint32_t ar_nbatches;
	uint64_t ar_max_v, ar_max_e;
	uint64_t ar_bytes, ar_pinned, ar_listb; /* bytes copied: all, lists pinned, lists */
	struct gpu_arrival_src ar_src;
	uint64_t *ar_at;              /* a copy of ar_src.at */
	uint8_t *ar_pin;              /* per batch range of pages: enum ar_pin_state */
	uint32_t ar_released;         /* ranges below this one are unpinned */
	uint32_t ar_locked;           /* ranges pinned now (both threads, atomics) */
	uint32_t ar_locked_most;      /* ... at most, after a pin (the batch thread's) */
	unsigned ar_pin_flags;
	uint64_t *ar_offs[2];         /* pinned: a batch's offsets */
	cudaEvent_t ar_offs_free[2];
	cudaEvent_t *ar_ev;           /* per batch: start, lists copied, end */
	cudaEvent_t ar_placed, ar_filed; /* arrival_launch's, between compute[0] and [1] */
	uint64_t *ar_cum;             /* pinned: the running count after each batch */
	struct gpu_ctx *ar_leader;    /* several devices: the one that pins (NULL: this one) */
	struct gpu_ctx *ar_peer[GPU_ARRIVAL_MAX_SHARES]; /* the leader's: the others */
	uint32_t ar_npeers;
	uint32_t ar_share, ar_nshares; /* gpu_arrival_share's, for the next begin */
	double ar_pin_s, ar_unpin_s;  /* host seconds in registering / unregistering pages */
	/* the leader's unpinning (enum ar_unpin_mode): a thread of its own
	 * unregisters the ranges below ar_unpin_upto as the batch thread
	 * hands them over (ar_unpin_done: those it has), under ar_mu */
	int ar_unpin_mode;
	int ar_unpin_hold;            /* the batch thread waits for it (ar_hold_back) */
	int ar_unpinner_on, ar_unpin_stop;
	pthread_t ar_unpinner;
	pthread_mutex_t ar_mu;
	pthread_cond_t ar_cv;
	uint32_t ar_unpin_upto, ar_unpin_done;
	cudaError_t ar_unpin_err;
	double ar_wait_s;             /* host seconds waiting for an offsets buffer, or
				       * for pages given back (ar_hold_back) */
	/* groups (gpu_arrival_groups, arrival.cu): the rows past the device */
	int ag_on;                    /* asked for: the next begin takes groups */
	struct ar_group *ag;          /* the finished groups, ag_n of them */
	uint32_t ag_n, ag_first;      /* the current group's first batch */
	uint64_t *ag_bound;           /* per batch: its first id (nbatches + 1) */
	uint64_t *ag_raw;             /* per batch: its list entries */
	unsigned long long *ag_used;  /* pinned, per batch: region A's fill mark after it */
	uint64_t ag_ne, ag_rows;      /* the graph's oriented edges (a bound); rows of groups ended */
	uint64_t ag_target;           /* the current group's rows, at most */
	uint64_t ag_copied, ag_saved; /* bytes of rows copied back in / out */
	uint64_t ag_rounds;           /* pair launches */
	uint64_t ag_pieces;           /* pieces copied back, in all: piece n takes buffer n % 2 */
	uint32_t *ag_badj[2], *ag_brs[2], *ag_brl[2]; /* region B's two buffers */
	cudaEvent_t ag_in[2], ag_free[2]; /* a buffer's copy done; its counting done */
	cudaEvent_t ag_fill_ev[2];    /* batch k's fill mark copied (on the orienting stream): k % 2 */
	cudaEvent_t *ag_saved_ev;     /* per group: its rows and index on the host */
	double ag_end_s;              /* host seconds in group ends */
	/* TSG_ARRIVAL_GROUP_PROFILE=1 (bench/): each pair launch timed alone,
	 * filing and counting, by direction (0: A's sources), and the pieces'
	 * copies; said on stderr at the end */
	int ag_prof;
	int ag_times;                 /* =2: the times said, launches not serialised */
	int ag_tally;                 /* pairs tallied first (TSG_ARRIVAL_GROUP_TALLY=0: not, bench/) */
	uint32_t *ag_total;           /* pinned: a tally's records (arrival_pair_tally) */
	uint64_t ag_tallies, ag_split; /* tallies; of them, too many records for one launch */
	uint64_t ag_pair_cap;         /* records one pair launch may take: the region's (tests: fewer) */
	/* units (arrival_unit_launch): the within-group edges of consecutive
	 * counted batches in one launch, not one a batch; off with
	 * TSG_ARRIVAL_GROUP_UNITS=0 (bench/), and from the first batch not
	 * counted here on (another rank's). The pending unit: its first
	 * id, the end of its last batch, its list entries (0: none) */
	int ag_units_on;
	uint64_t ag_unit_lo, ag_unit_hi, ag_unit_raw;
	uint64_t ag_units;            /* unit launches */
	cudaEvent_t ag_pev[3];
	double ag_prof_ms[5];         /* file 0, count 0, file 1, count 1, copies */
	double ag_t0;                 /* host time at the begin */
	double ag_alloc_s, ag_wait0_s; /* host seconds in group ends: pinned allocations; the first wait */
	double ag_fit_wait_s;         /* host seconds waiting for a fill mark (ag_fits) */
	/* TSG_ARRIVAL_GROUP_EARLY=N (bench/, one device): after batch
	 * ag_early_at - 1 (N per mille of the batches) the current group's
	 * batches so far are counted against the earlier groups at once; its end
	 * then counts the pieces against its batches from ag_sub on alone */
	uint32_t ag_early_at, ag_sub, ag_early_batch; /* ag_early_batch: where it acted, or 0 */
	uint64_t ag_early_pieces;
	/* each group's last batch and where its end began counting (ag_sub),
	 * hashed: under mpirun every rank must cut the same groups (a rank
	 * counts whole group ends and early runs for the others), which
	 * budgets or environments that differ would break; the ranks compare
	 * it (gpu_arrival_result.groups_key) */
	uint64_t ag_key;
	double ag_early_s;            /* host seconds in it */
	/* the groups' host rows, pinned ahead by a thread (pinned_arena.cuh);
	 * the batch thread's seconds waiting for it, the thread's pinning and
	 * the release's unpinning seconds, arrays it had no room for, and
	 * why the first of them was not from it (a static string) */
	struct pin_arena *ag_arena;
	double ag_arena_wait_s, ag_arena_pin_s, ag_arena_unpin_s;
	uint32_t ag_arena_miss;
	const char *ag_arena_why;
	/* gpu_arrival_stage's batch, for gpu_arrival_finish (on: one is staged;
	 * pairs: it ended a group whose pieces are still to count) */
	struct {
		uint64_t lo, entries;
		uint32_t k, nbv;
		int count, pairs, on;
	} ar_st;
	/* k-cliques (gpu_set_clique): cq.k 0 for triangles */
	struct kern_clique_gpu cq;
	uint64_t *hsizes;             /* cq.all: pinned, sizes_len a slot (gpu_clique_sizes) */
	uint64_t sizes_len;
	uint64_t sizes_n[GPU_SLOTS];  /* entries slot s's part counted */
	/* gpu_clique_hold's part at slot 0's start (hold_room bytes, 0: none) */
	dev_dag hold;
	uint64_t hold_room, hold_bytes;
	uint32_t hold_max_out;
	float hold_ms;                /* its copy */
	/* the resident graph (gpu_resident_begin): rows res_cut[j] .. nv-1 lie
	 * on the device at their own offsets once res_ev[j] has passed, for
	 * j >= res_have; upward (res_up), rows res_cut[j] .. res_cut[j+1]-1
	 * once res_ev[j] has, for j < res_have (res_cut[0] = 0); res NULL:
	 * each unit copies its rows into its slot */
	uint8_t *res;
	const uint64_t *res_hoff;     /* the host's whole DAG */
	const uint32_t *res_hadj;
	uint32_t *res_cut;            /* ascending, the last one nv */
	cudaEvent_t *res_ev;          /* one a cut but the last */
	uint32_t res_ncut, res_have;
	int res_up;
	uint32_t res_nv;              /* the DAG's vertices */
	uint64_t res_slot_bytes;      /* slot_bytes before */
	/* the sweep (gpu_sweep_begin, kernels/sweep.cu), or NULL */
	struct sweep_dev *sw;
};

/* A CUDA failure as the runtime reports it: TSG_ENOMEM for device memory,
 * else TSG_EDEVICE, with CUDA's message. */
static inline int cuda_fail(struct tsg_err *err, cudaError_t e, const char *what)
{
	const int code = e == cudaErrorMemoryAllocation ? TSG_ENOMEM : TSG_EDEVICE;
	return tsg_fail(err, code, "CUDA: %s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

#define CK(call, what)                                           \
	do {                                                     \
		cudaError_t e_ = (call);                         \
		if (e_ != cudaSuccess) {                         \
			rc = cuda_fail(err, e_, what);           \
			goto fail;                               \
		}                                                \
	} while (0)

/* Frees the sweep's state (sweep.cu), if any; gpu_close calls it. */
extern "C" void gpu_sweep_free(struct gpu_ctx *g);

#endif
