/*
 * gpu_runtime.cu - device, memory, streams and events behind kernels/gpu.h.
 *
 * The whole budget is one cudaMalloc at open, split into GPU_SLOTS slots;
 * nothing is allocated per partition. Each slot has its own copy stream and
 * compute stream, so the copy of partition i+1 overlaps the kernels of
 * partition i; an event orders a slot's kernels after its copy.
 *
 * Copies from pinned memory go straight to the device. Copies from ordinary
 * memory go through a ring of pinned staging buffers filled by the caller's
 * copy function (gpu_set_host_copy: several host threads), not through the
 * driver's own staging, which one thread fills at a fraction of PCIe speed;
 * that spares pinning the whole oriented graph, which costs time in
 * proportion to its size (bench/RESULTS.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/clique.h"
#include "kernels/gpu.h"
#include "kernels/gpu_internal.cuh"
#include "kernels/pinned_arena.cuh"


static cudaError_t arrival_release(struct gpu_ctx *g);
static void resident_free(struct gpu_ctx *g);
/* base/util.h's bench stamp (that header's <stdatomic.h> is C's, not C++'s) */
extern "C" void tsg_profile_stamp(const char *what);


extern "C" void gpu_prewarm(int index)
{
	int count = 0;
	tsg_profile_stamp("prewarm begun"); /* (before the driver's own start, if it is first) */
	if (cudaGetDeviceCount(&count) != cudaSuccess || index < 0 || index >= count)
		return;
	if (cudaSetDevice(index) == cudaSuccess)
		cudaFree(0); /* forces the context into being */
	tsg_profile_stamp("prewarm done");
}

/* mid-hash's limit on a unit's source entries: 2^32 - 2^24 (kernel_scratch says why), or
 * for tests of the fall-back (tests/gpu), TSG_TEST_MID_HASH_MAX when set
 * to a smaller positive number: no graph a test can hold reaches 2^32. */
static uint64_t mid_hash_limit(void)
{
	const uint64_t limit = (1ull << 32) - (1ull << 24);
	const char *v = getenv("TSG_TEST_MID_HASH_MAX");
	char *end = NULL;
	const unsigned long long t = v ? strtoull(v, &end, 10) : 0;
	return v && *v && end && *end == 0 && t > 0 && t < limit ? t : limit;
}

/* Tests of trust's full buckets (tests/gpu): TSG_TEST_TRUST_LEVELS, 1 to
 * 128, the levels a bucket has; 0 (unset): what the memory allows. */
static uint32_t trust_test_levels(void)
{
	const char *v = getenv("TSG_TEST_TRUST_LEVELS");
	char *end = NULL;
	const unsigned long t = v ? strtoul(v, &end, 10) : 0;
	return v && *v && end && *end == 0 && t >= 1 && t <= 128 ? (uint32_t)t : 0;
}

/* Tests of skiff's overflow node (tests/gpu): TSG_TEST_SKIFF_HOP, 1 to
 * 32, the neighbourhood a key may take a slot in; 0 (unset): 32. */
static uint32_t skiff_test_hop(void)
{
	const char *v = getenv("TSG_TEST_SKIFF_HOP");
	char *end = NULL;
	const unsigned long t = v ? strtoul(v, &end, 10) : 0;
	return v && *v && end && *end == 0 && t >= 1 && t <= 32 ? (uint32_t)t : 0;
}

/* Tests of mid-hash's hashed rows (tests/gpu): TSG_TEST_MID_HASH_BITS=0
 * hashes every out(b), which a test graph's short spans would otherwise
 * leave to the bitmap; unset or anything else: bitmaps where they fit. */
static int mid_hash_test_bits(void)
{
	const char *v = getenv("TSG_TEST_MID_HASH_BITS");
	return !(v && strcmp(v, "0") == 0);
}

/* Tests of the budget's second read (tests/gpu/inputs.sh):
 * TSG_TEST_BUDGET_RACE=1 takes half the memory free on the device just
 * after gpu_open has read it, as a second process started beside this one
 * would, so that the default budget's allocation fails once; the memory
 * is given back at gpu_close. Unset or anything else: nothing taken. */
static int budget_test_race(void)
{
	const char *v = getenv("TSG_TEST_BUDGET_RACE");
	return v && strcmp(v, "1") == 0;
}

/* The default budget: what is free less a reserve for the context,
 * kernels and other users of the card (5%, at least 512 MiB). */
static uint64_t budget_default(uint64_t free_b)
{
	const uint64_t reserve = free_b / 20 > (512ull << 20) ? free_b / 20 : 512ull << 20;
	return free_b > reserve ? free_b - reserve : 0;
}

enum { BUDGET_READS = 4 }; /* reads of free memory for a default budget */

/*
 * Allocates g->dmem: the budget (0: budget_default of what is free) and
 * the per-vertex counts above it. Without --gpu-mem the memory free is
 * read, then taken: another process doing the same on the card between
 * the two (two jobs started together each take what they saw free) makes
 * the allocation fail, so a default budget is read again and retried, up
 * to BUDGET_READS times, each retry counted in g->budget_rereads; a budget
 * that has become too small is then the error, saying why. A --gpu-mem
 * budget is taken as given or not at all.
 */
static int budget_take(struct gpu_ctx *g, uint64_t budget, uint64_t pv_vertices,
		       struct tsg_err *err)
{
	int rc = TSG_OK;
	const int defaulted = budget == 0;
	const uint64_t pv_bytes = (pv_vertices * 8 + 255) & ~(uint64_t)255;
	size_t free_b = 0, total_b = 0;
	cudaError_t e = cudaErrorMemoryAllocation;
	for (int read = 0; read < BUDGET_READS && e == cudaErrorMemoryAllocation; read++) {
		if (read) {
			(void)cudaGetLastError(); /* not sticky: the context is sound */
			g->budget_rereads++;
		}
		CK(cudaMemGetInfo(&free_b, &total_b), "reading free device memory");
		if (read == 0 && budget_test_race())
			CK(cudaMalloc(&g->test_hog, free_b / 2), "taking memory for a test");
		if (defaulted)
			budget = budget_default(free_b);
		if (budget > free_b) {
			rc = tsg_fail(err, TSG_ENOMEM, "--gpu-mem %llu MiB exceeds the %llu MiB free "
				      "on %s", (unsigned long long)(budget >> 20),
				      (unsigned long long)(free_b >> 20), g->name);
			goto fail;
		}
		if (budget < pv_bytes + GPU_SLOTS * (GPU_SLOT_OVERHEAD + 4096)) {
			/* without --gpu-mem the budget is what is free: say how
			 * little that is, since another process on the card
			 * (each takes its free memory by default) is the usual cause */
			rc = tsg_fail(err, TSG_ENOMEM, "GPU memory budget of %llu bytes is too "
				      "small%s (%s: %llu of %llu MiB free%s)",
				      (unsigned long long)budget, pv_vertices ? " beside the "
				      "per-vertex counts (8 bytes a vertex)" : "", g->name,
				      (unsigned long long)(free_b >> 20),
				      (unsigned long long)(total_b >> 20),
				      defaulted ? "; other processes on it hold the rest? "
						  "--gpu-mem sets each one's budget" : "");
			goto fail;
		}
		g->budget = (budget - pv_bytes) & ~(uint64_t)255;
		e = cudaMalloc(&g->dmem, g->budget + pv_bytes);
		if (!defaulted)
			break;
	}
	if (e != cudaSuccess) {
		char what[160];
		snprintf(what, sizeof(what), "allocating the device budget%s",
			 defaulted && g->budget_rereads ? " (read again from the memory free, "
			 "each time taken first by another process on the card?)" : "");
		rc = cuda_fail(err, e, what);
		goto fail;
	}
	g->slot_bytes = (g->budget / GPU_SLOTS) & ~(uint64_t)255;
	if (pv_vertices) {
		g->pv = (unsigned long long *)(g->dmem + g->budget);
		g->pv_n = pv_vertices;
		CK(cudaMemset(g->pv, 0, pv_vertices * 8), "clearing per-vertex counts");
	}
fail:
	return rc;
}

extern "C" int gpu_open(int index, uint64_t budget, uint64_t pv_vertices, struct gpu_ctx **out,
			uint64_t *slot_bytes, struct tsg_err *err)
{
	int rc = TSG_OK, count = 0;
	struct gpu_ctx *g = NULL;
	cudaDeviceProp prop;
	*out = NULL;
	cudaError_t e = cudaGetDeviceCount(&count);
	if (e != cudaSuccess || count == 0)
		return tsg_fail(err, TSG_EDEVICE, "no usable CUDA GPU (%s)",
				e != cudaSuccess ? cudaGetErrorString(e) : "no device found");
	if (index < 0 || index >= count)
		return tsg_fail(err, TSG_EDEVICE, "GPU %d requested, %d present", index, count);
	g = (struct gpu_ctx *)calloc(1, sizeof(*g));
	if (!g)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	g->device = index;
	g->mid_hash_max = mid_hash_limit();
	g->trust_levels = trust_test_levels();
	g->skiff_hop = skiff_test_hop();
	g->mid_hash_bits = mid_hash_test_bits();
	CK(cudaSetDevice(index), "selecting the device");
	CK(cudaGetDeviceProperties(&prop, index), "reading device properties");
	snprintf(g->name, sizeof(g->name), "%s", prop.name);
	g->sms = prop.multiProcessorCount;
	tsg_profile_stamp("gpu_open: device selected");
	if ((rc = budget_take(g, budget, pv_vertices, err)) != TSG_OK)
		goto fail;
	tsg_profile_stamp("gpu_open: budget taken");
	CK(cudaMallocHost(&g->hcount, GPU_SLOTS * sizeof(dev_counters)), "allocating pinned counters");
	for (int s = 0; s < GPU_SLOTS; s++) {
		CK(cudaStreamCreateWithFlags(&g->copy[s], cudaStreamNonBlocking), "creating a stream");
		CK(cudaStreamCreateWithFlags(&g->compute[s], cudaStreamNonBlocking), "creating a stream");
		CK(cudaEventCreate(&g->h2d_start[s]), "creating an event");
		CK(cudaEventCreate(&g->h2d_end[s]), "creating an event");
		CK(cudaEventCreate(&g->k_start[s]), "creating an event");
		CK(cudaEventCreate(&g->k_end[s]), "creating an event");
	}
	for (int j = 0; j < GPU_STAGE_BUFS; j++)
		CK(cudaEventCreateWithFlags(&g->stage_free[j], cudaEventDisableTiming),
		   "creating an event");
	*slot_bytes = g->slot_bytes - GPU_SLOT_OVERHEAD;
	*out = g;
	tsg_profile_stamp("gpu_open: done");
	return TSG_OK;
fail:
	gpu_close(g);
	return rc;
}

extern "C" void gpu_close(struct gpu_ctx *g)
{
	if (!g)
		return;
	tsg_profile_stamp("gpu_close: begun");
	resident_free(g);
	gpu_sweep_free(g);
	(void)arrival_release(g); /* first: it waits on a stream, and unpins what a failed run
				    * left; a closing context has nowhere to report to (every
				    * run reports its own release in gpu_arrival_end) */
	for (int s = 0; s < GPU_SLOTS; s++) {
		if (g->copy[s]) cudaStreamDestroy(g->copy[s]);
		if (g->compute[s]) cudaStreamDestroy(g->compute[s]);
		if (g->h2d_start[s]) cudaEventDestroy(g->h2d_start[s]);
		if (g->h2d_end[s]) cudaEventDestroy(g->h2d_end[s]);
		if (g->k_start[s]) cudaEventDestroy(g->k_start[s]);
		if (g->k_end[s]) cudaEventDestroy(g->k_end[s]);
	}
	for (int j = 0; j < GPU_STAGE_BUFS; j++) {
		if (g->stage_free[j]) cudaEventDestroy(g->stage_free[j]);
		if (g->stage[j]) cudaFreeHost(g->stage[j]);
	}
	if (g->hcount)
		cudaFreeHost(g->hcount);
	if (g->hsizes)
		cudaFreeHost(g->hsizes);
	tsg_profile_stamp("gpu_close: streams and pinned freed");
	if (g->dmem)
		cudaFree(g->dmem);
	tsg_profile_stamp("gpu_close: budget freed");
	if (g->test_hog)
		cudaFree(g->test_hog);
	free(g);
}

extern "C" int gpu_device_count(void)
{
	int count = 0;
	return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

extern "C" uint64_t gpu_device_memory(int index)
{
	cudaDeviceProp p;
	return index >= 0 && index < gpu_device_count() &&
			       cudaGetDeviceProperties(&p, index) == cudaSuccess
		       ? (uint64_t)p.totalGlobalMem
		       : 0;
}

extern "C" int gpu_drain(struct gpu_ctx *g, struct tsg_err *err)
{
	if (!g)
		return TSG_OK;
	cudaError_t e = cudaSetDevice(g->device);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	return e == cudaSuccess ? TSG_OK : cuda_fail(err, e, "waiting for the device's work");
}

extern "C" int gpu_pv_fetch(struct gpu_ctx *g, uint64_t *host, struct tsg_err *err)
{
	int rc = TSG_OK;
	if (!g->pv)
		return tsg_fail(err, TSG_EINTERNAL, "no per-vertex counts on the device");
	CK(cudaSetDevice(g->device), "selecting the device");
	CK(cudaDeviceSynchronize(), "waiting for the device's work");
	CK(cudaMemcpy(host, g->pv, g->pv_n * 8, cudaMemcpyDeviceToHost), "reading per-vertex counts");
	return TSG_OK;
fail:
	return rc;
}

extern "C" const char *gpu_device_name(const struct gpu_ctx *g) { return g->name; }
extern "C" int gpu_device_index(const struct gpu_ctx *g) { return g->device; }
extern "C" int gpu_sms(const struct gpu_ctx *g) { return g->sms; }
extern "C" uint64_t gpu_budget(const struct gpu_ctx *g) { return g->budget; }
extern "C" unsigned gpu_budget_rereads(const struct gpu_ctx *g) { return g->budget_rereads; }

extern "C" void gpu_set_clique(struct gpu_ctx *g, const struct kern_clique_gpu *c)
{
	g->cq = c ? *c : kern_clique_gpu{};
	if (g->cq.k <= 3 && !g->cq.all)
		g->cq.k = 0;
}

extern "C" int gpu_clique_sizes(struct gpu_ctx *g, uint64_t len, struct tsg_err *err)
{
	int rc = TSG_OK;
	if (g->hsizes)
		cudaFreeHost(g->hsizes);
	g->hsizes = NULL;
	g->sizes_len = 0;
	CK(cudaMallocHost(&g->hsizes, GPU_SLOTS * len * sizeof(*g->hsizes)),
	   "allocating pinned clique counts");
	g->sizes_len = len;
	return TSG_OK;
fail:
	return rc;
}

extern "C" int gpu_collect_sizes(struct gpu_ctx *g, int s, uint64_t *sizes, uint64_t len,
				 struct tsg_err *err)
{
	const uint64_t *got = g->hsizes + (uint64_t)s * g->sizes_len;
	if (!g->hsizes || g->sizes_n[s] > len)
		return tsg_fail(err, TSG_EINTERNAL, "clique counts of %llu sizes for %llu",
				(unsigned long long)g->sizes_n[s], (unsigned long long)len);
	int ovf = 0;
	for (uint64_t i = 0; i < g->sizes_n[s]; i++) {
		kern_clique_add(&sizes[i], got[i], &ovf);
		if (ovf)
			return tsg_fail(err, TSG_EOVERFLOW, "the count of %llu-cliques passes "
					"2^64 - 1", (unsigned long long)i + 1);
	}
	return TSG_OK;
}

extern "C" int gpu_set_tile(struct gpu_ctx *g, unsigned tile)
{
	if (tile != 0 && (tile < 64 || tile > 16384 || (tile & (tile - 1))))
		return TSG_EUSAGE;
	g->tile = tile;
	return TSG_OK;
}

extern "C" void gpu_set_cta_policy(struct gpu_ctx *g, enum gpu_cta_policy p)
{
	g->cta = p;
}

extern "C" void gpu_set_host_copy(struct gpu_ctx *g, gpu_copy_fn fn, void *ctx)
{
	g->host_copy = fn;
	g->host_copy_ctx = ctx;
}

/* Copies bytes from host src to device dst on slot s's copy stream: at once
 * from pinned memory, else a staging buffer at a time. A buffer is refilled
 * only after the copy that last read it has finished (its event). */
static int copy_in(struct gpu_ctx *g, int s, void *dst, const void *src, uint64_t bytes,
		   struct tsg_err *err)
{
	int rc = TSG_OK;
	cudaPointerAttributes a;
	if (cudaPointerGetAttributes(&a, src) == cudaSuccess && a.type == cudaMemoryTypeHost) {
		CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, g->copy[s]), "copying");
		return TSG_OK;
	}
	(void)cudaGetLastError(); /* older runtimes report ordinary memory as an error */
	for (uint64_t at = 0; at < bytes;) {
		const unsigned j = g->stage_next;
		const uint64_t n = bytes - at < GPU_STAGE_BYTES ? bytes - at : GPU_STAGE_BYTES;
		if (!g->stage[j])
			CK(cudaMallocHost(&g->stage[j], GPU_STAGE_BYTES), "allocating pinned staging");
		CK(cudaEventSynchronize(g->stage_free[j]), "waiting for a staging buffer");
		if (g->host_copy)
			g->host_copy(g->host_copy_ctx, g->stage[j], (const uint8_t *)src + at, n);
		else
			memcpy(g->stage[j], (const uint8_t *)src + at, n);
		CK(cudaMemcpyAsync((uint8_t *)dst + at, g->stage[j], n, cudaMemcpyHostToDevice,
				   g->copy[s]), "copying");
		CK(cudaEventRecord(g->stage_free[j], g->copy[s]), "recording an event");
		g->stage_next = (j + 1) % GPU_STAGE_BUFS;
		at += n;
	}
	return TSG_OK;
fail:
	return rc;
}

extern "C" int gpu_stage_reserve(struct gpu_ctx *g, struct tsg_err *err)
{
	int rc = TSG_OK;
	CK(cudaSetDevice(g->device), "selecting the device");
	for (int j = 0; j < GPU_STAGE_BUFS; j++)
		if (!g->stage[j])
			CK(cudaMallocHost(&g->stage[j], GPU_STAGE_BYTES), "allocating pinned staging");
	return TSG_OK;
fail:
	return rc;
}

extern "C" void *gpu_host_alloc(struct gpu_ctx *g, size_t bytes)
{
	void *p = NULL;
	/* callers may be other host threads, whose current device is 0;
	 * portable: with several GPUs (--gpus) every device copies from it */
	if (cudaSetDevice(g->device) != cudaSuccess)
		return NULL;
	return cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocPortable) == cudaSuccess ? p : NULL;
}

extern "C" void gpu_host_free(struct gpu_ctx *g, void *p)
{
	(void)g;
	if (p)
		cudaFreeHost(p);
}

/* Device bytes kernel k needs beyond the rows: nsrc sources, nmid middle
 * rows, src_entries entries in the source rows. Sets *k to lstc where
 * mid-hash cannot take the unit: its records and their hand-out counter are
 * 32-bit, and the counter overshoots the record count by up to 256 per
 * resident warp, hence the margin below 2^32. */
static uint64_t kernel_scratch(const struct gpu_ctx *g, enum gpu_kernel *k, uint32_t nsrc,
			       uint32_t nmid, uint64_t src_entries, cudaError_t *e)
{
	if (*k == GPU_KERNEL_MID_HASH && src_entries >= g->mid_hash_max)
		*k = GPU_KERNEL_LSTC;
	if (*k == GPU_KERNEL_MID_HASH)
		return mid_hash_scratch(nmid, src_entries, g->pv != NULL, e);
	/* trust also takes what the slot has left, for bucket levels */
	const struct tsg_scratch sc = gpu_kernel_scratch(*k, g->pv != NULL);
	return tsg_scratch_bytes(&sc, nsrc, nmid, src_entries);
}

/* k-cliques (gpu_set_clique): what a part's launch needs beyond the rows. */
struct cq_part {
	uint32_t max_out;       /* its longest out-list */
	uint64_t scratch_bytes; /* what the slot has left after its rows */
};

/* Enqueues slot s's kernels after its copies (already enqueued between
 * h2d_start and h2d_end); `scratch` is what kernel_scratch asked for, at
 * the start of the slot's `left` bytes after the rows. */
static int enqueue_count(struct gpu_ctx *g, int s, const dev_dag &dv, uint8_t *scratch,
			 uint64_t left, uint64_t src_entries, enum gpu_kernel k,
			 const struct cq_part *cq, cudaEvent_t ready, struct tsg_err *err)
{
	int rc = TSG_OK;
	if (k == GPU_KERNEL_AUTO || k >= GPU_KERNEL_COUNT_)
		return tsg_fail(err, TSG_EINTERNAL, "kernel auto reached the device unresolved");
	if (g->cq.k && !cq)
		return tsg_fail(err, TSG_EINTERNAL, "k-cliques count on parts, not on units");
	if (g->pv && k != GPU_KERNEL_MID_HASH) /* only mid-hash counts per vertex */
		return tsg_fail(err, TSG_ENOMEM, "a unit of %llu source entries is too large for "
				"per-vertex counts (mid-hash takes under 2^32 - 2^24): use more "
				"--partitions", (unsigned long long)src_entries);
	dev_counters *cnt = (dev_counters *)(g->dmem + (uint64_t)s * g->slot_bytes);
	if (!ready) { /* the slot's own copies, on its own stream */
		CK(cudaEventRecord(g->h2d_end[s], g->copy[s]), "recording an event");
		ready = g->h2d_end[s];
	}
	CK(cudaStreamWaitEvent(g->compute[s], ready, 0), "ordering copy and kernel");
	CK(cudaEventRecord(g->k_start[s], g->compute[s]), "recording an event");
	CK(cudaMemsetAsync(cnt, 0, sizeof(*cnt), g->compute[s]), "clearing counters");
	if (g->cq.k) {
		/* with all: the part's count a size first, then the launch's scratch */
		const uint64_t sb = kern_clique_sizes_bytes(cq->max_out, &g->cq);
		unsigned long long *sizes = sb ? (unsigned long long *)scratch : NULL;
		if (sb && (!g->hsizes || (uint64_t)cq->max_out + 2 > g->sizes_len))
			return tsg_fail(err, TSG_EINTERNAL, "no room for the counts of every clique "
					"size (gpu_clique_sizes)");
		CK(clique_launch(dv, &g->cq, cq->max_out, scratch + sb, cq->scratch_bytes - sb, sizes,
				 cnt, g->sms, g->compute[s]), "launching the k-clique count");
		g->sizes_n[s] = sb ? (uint64_t)cq->max_out + 2 : 0;
		if (sb)
			CK(cudaMemcpyAsync(g->hsizes + (uint64_t)s * g->sizes_len, sizes,
					   g->sizes_n[s] * 8, cudaMemcpyDeviceToHost, g->compute[s]),
			   "reading the clique counts");
	} else if (k == GPU_KERNEL_LSTC_HASH) {
		uint32_t *b = (uint32_t *)scratch;
		CK(lstc_hash_launch(dv, b, b + dv.nsrc, cnt, g->sms, g->compute[s]),
		   "launching lstc-hash");
	} else if (k == GPU_KERNEL_TRUST) {
		uint32_t *b = (uint32_t *)scratch;
		const uint64_t lists = (8ull * dv.nsrc + 255) & ~255ull;
		CK(trust_launch(dv, b, b + dv.nsrc, scratch + lists, left > lists ? left - lists : 0,
				g->trust_levels, cnt, g->sms, g->compute[s]), "launching trust");
	} else if (k == GPU_KERNEL_FASTTC) {
		CK(fasttc_launch(dv, (uint32_t *)scratch, cnt, g->sms, g->compute[s]),
		   "launching fasttc");
	} else if (k == GPU_KERNEL_SKIFF) {
		CK(skiff_launch(dv, g->cta, g->skiff_hop, (uint32_t *)scratch, cnt, g->sms,
				g->compute[s]), "launching skiff");
	} else if (k == GPU_KERNEL_EDGE_MERGE) {
		CK(edge_merge_launch(dv, src_entries, cnt, g->sms, g->compute[s]), "launching edge-merge");
	} else if (k == GPU_KERNEL_MID_HASH) {
		CK(mid_hash_launch(dv, scratch, src_entries, g->tile ? g->tile : 1024,
				   g->mid_hash_bits, cnt, g->sms, g->compute[s]), "launching mid-hash");
	} else {
		const unsigned tile = g->tile ? g->tile : k == GPU_KERNEL_LSTC_PAPER ? 128 : 1024;
		CK(lstc_paper_launch(dv, tile, cnt, g->compute[s]), "launching the LSTC kernel");
	}
	CK(cudaMemcpyAsync(&g->hcount[s], cnt, sizeof(*cnt), cudaMemcpyDeviceToHost, g->compute[s]),
	   "reading the count");
	CK(cudaEventRecord(g->k_end[s], g->compute[s]), "recording an event");
	return TSG_OK;
fail:
	return rc;
}

static int slot_full(const struct gpu_ctx *g, uint64_t need, uint64_t rows, struct tsg_err *err)
{
	return tsg_fail(err, TSG_ENOMEM, "a partition of %llu KiB (%llu KiB of rows, the rest "
			"the kernel's scratch) does not fit the %llu KiB device slot: use more "
			"--partitions or --partitions auto", (unsigned long long)(need >> 10),
			(unsigned long long)(rows >> 10), (unsigned long long)(g->slot_bytes >> 10));
}

/* Device bytes a k-clique launch over all of d's sources needs beyond its
 * rows: the sources' preparation, --k-all's sizes, the least pool. */
static uint64_t clique_extra(const struct gpu_ctx *g, const struct tsg_dag *d)
{
	return (uint64_t)KERN_CLIQUE_PREP_PER_SRC * d->nsrc + KERN_CLIQUE_PREP_FIXED +
	       kern_clique_sizes_bytes(d->max_out, &g->cq) + kern_clique_pool_least(d->max_out, &g->cq);
}

/* d as kernels see it once its block (offsets, lists, sources) is copied
 * to dd. */
static dev_dag dag_at(uint8_t *dd, const struct tsg_dag *d)
{
	dev_dag dv = {};
	dv.off = dv.soff = (const uint64_t *)dd;
	dv.adj = dv.sadj = (const uint32_t *)(dd + ((uint64_t)d->nv + 1) * 8);
	dv.src = dv.adj + d->ne;
	dv.nsrc = d->nsrc;
	dv.hi = d->nv;
	return dv;
}

extern "C" int gpu_submit(struct gpu_ctx *g, int s, const struct tsg_dag *d, enum gpu_kernel k,
			  struct tsg_err *err)
{
	int rc = TSG_OK;
	/* first: the caller's thread may be new, and CUB sizes for the current device */
	const cudaError_t de = cudaSetDevice(g->device);
	if (de != cudaSuccess)
		return cuda_fail(err, de, "selecting the device");
	/* per-vertex counts: the part's global ids follow its arrays */
	const int gid = g->pv && d->gid;
	const uint64_t dag = tsg_dag_bytes(d->nv, d->ne, d->nsrc) + (gid ? (uint64_t)d->nv * 4 : 0);
	const uint64_t dag_al = (dag + 255) & ~(uint64_t)255;
	cudaError_t se = cudaSuccess;
	uint64_t need = dag_al + 256;
	uint8_t *dd = g->dmem + (uint64_t)s * g->slot_bytes + 256;
	struct cq_part cq = {};
	if (g->cq.k) { /* k-cliques: warps take what the slot has left */
		need += clique_extra(g, d);
		cq.max_out = d->max_out;
		cq.scratch_bytes = need <= g->slot_bytes ? g->slot_bytes - dag_al - 256 : 0;
	} else {
		need += kernel_scratch(g, &k, d->nsrc, d->nv, d->ne, &se);
	}
	g->ran[s] = k;
	if (se != cudaSuccess)
		return cuda_fail(err, se, "sizing CUB's scratch");
	if (need > g->slot_bytes)
		return slot_full(g, need, dag, err);
	dev_dag dv = dag_at(dd, d);
	dv.pv = g->pv;
	if (gid) {
		if (d->gid != d->src + d->nsrc)
			return tsg_fail(err, TSG_EINTERNAL, "a partition's ids do not follow its arrays");
		dv.gid = dv.src + d->nsrc;
	}
	g->bytes[s] = dag;
	g->ahead[s] = g->kept_bytes[s] = 0;
	g->kept[s].hoff = NULL; /* the part overwrites what the slot kept */
	CK(cudaEventRecord(g->h2d_start[s], g->copy[s]), "recording an event");
	rc = copy_in(g, s, dd, d->off, dag, err);
	return rc ? rc : enqueue_count(g, s, dv, dd + dag_al, g->slot_bytes - 256 - dag_al, d->ne, k,
				       &cq, NULL, err);
fail:
	return rc;
}

/*
 * One k-clique part held for pieces of its sources (kernels/gpu.h): the
 * part lies at the start of slot 0, as gpu_submit would place it; a
 * piece's launch takes slot 0's room after it, or all of slot 1's, so that
 * one piece's last long warps overlap the next one's start.
 */
extern "C" int gpu_clique_hold(struct gpu_ctx *g, const struct tsg_dag *d, struct tsg_err *err)
{
	int rc = TSG_OK;
	if (!g->cq.k || g->pv)
		return tsg_fail(err, TSG_EINTERNAL, "a part held for pieces of its sources: "
				"k-cliques only, no per-vertex counts");
	CK(cudaSetDevice(g->device), "selecting the device");
	{
		const uint64_t dag = tsg_dag_bytes(d->nv, d->ne, d->nsrc);
		const uint64_t dag_al = (dag + 255) & ~(uint64_t)255;
		const uint64_t need = dag_al + 256 + clique_extra(g, d);
		if (need > g->slot_bytes)
			return slot_full(g, need, dag, err);
		uint8_t *dd = g->dmem + 256;
		CK(cudaEventRecord(g->h2d_start[0], g->copy[0]), "recording an event");
		rc = copy_in(g, 0, dd, d->off, dag, err);
		const cudaError_t re = rc ? cudaSuccess : cudaEventRecord(g->h2d_end[0], g->copy[0]);
		/* waited for however it went: the caller frees the host part once
		 * every GPU is done with it */
		const cudaError_t se = cudaStreamSynchronize(g->copy[0]);
		if (rc)
			return rc;
		CK(re, "recording an event");
		CK(se, "copying the part");
		CK(cudaEventElapsedTime(&g->hold_ms, g->h2d_start[0], g->h2d_end[0]), "timing the copy");
		g->hold = dag_at(dd, d);
		g->hold_bytes = dag;
		g->hold_room = dag_al;
		g->hold_max_out = d->max_out;
	}
fail:
	return rc;
}

extern "C" int gpu_clique_submit_sources(struct gpu_ctx *g, int s, uint32_t lo, uint32_t hi,
					 struct tsg_err *err)
{
	int rc = TSG_OK;
	if (!g->hold_room || lo > hi || hi > g->hold.nsrc)
		return tsg_fail(err, TSG_EINTERNAL, "sources %u .. %u of a part not held", lo, hi);
	CK(cudaSetDevice(g->device), "selecting the device");
	{
		const uint64_t base = (uint64_t)s * g->slot_bytes + 256 + (s == 0 ? g->hold_room : 0);
		const uint64_t left = (uint64_t)(s + 1) * g->slot_bytes - base;
		struct cq_part cq = { g->hold_max_out, left };
		dev_dag dv = g->hold;
		dv.src += lo;
		dv.nsrc = hi - lo;
		g->ran[s] = GPU_KERNEL_LSTC; /* not read: a clique count names no kernel */
		g->bytes[s] = g->ahead[s] = g->kept_bytes[s] = 0;
		g->kept[s].hoff = NULL;
		CK(cudaEventRecord(g->h2d_start[s], g->copy[s]), "recording an event");
		rc = enqueue_count(g, s, dv, g->dmem + base, left, 0, GPU_KERNEL_LSTC, &cq, NULL, err);
	}
fail:
	return rc;
}

extern "C" void gpu_clique_release(struct gpu_ctx *g, double *copy_ms, uint64_t *bytes)
{
	if (copy_ms)
		*copy_ms = g->hold_room ? g->hold_ms : 0;
	if (bytes)
		*bytes = g->hold_room ? g->hold_bytes : 0;
	g->hold_room = 0;
}

/* Copies rows lo .. hi-1 of a whole DAG to dst (offsets, then lists at the
 * next 256-byte boundary); returns the bytes used. */
static int copy_rows(struct gpu_ctx *g, int s, const struct tsg_unit *u, uint32_t lo, uint32_t hi,
		     uint8_t *dst, const uint64_t **doff, const uint32_t **dadj, uint64_t *used,
		     struct tsg_err *err)
{
	const uint64_t obytes = ((uint64_t)hi - lo + 1) * 8, ab = u->off[lo], ae = u->off[hi];
	const uint64_t apos = (obytes + 255) & ~(uint64_t)255;
	int rc = copy_in(g, s, dst, u->off + lo, obytes, err);
	if (rc == TSG_OK && ae > ab)
		rc = copy_in(g, s, dst + apos, u->adj + ab, (ae - ab) * 4, err);
	if (rc)
		return rc;
	*doff = (const uint64_t *)dst;
	*dadj = (const uint32_t *)(dst + apos);
	*used = (apos + (ae - ab) * 4 + 255) & ~(uint64_t)255;
	g->bytes[s] += obytes + (ae - ab) * 4;
	return TSG_OK;
}

/*
 * The resident graph. Where the whole oriented graph and two slots of
 * kernel scratch fit the budget, units read one copy of it, not each a
 * copy of its own rows: a unit needs rows lo .. nv-1 (lo its lowest
 * source or middle row), so the device holds a suffix of the rows at their
 * own offsets and copies only what a unit adds below it. With units of
 * suffixes (the automatic plans for several GPUs or ranks) the unit that
 * holds every row copied them all again, once a unit (R-MAT 24 on two
 * GPUs: 3.2 GB moved for a 1.18 GB graph). Copies go down from the top in
 * pieces between the units' own row cuts, all on one stream, each with an
 * event, so a unit waits only for the piece that completes its rows.
 */
static uint64_t al(uint64_t x) { return (x + 255) & ~(uint64_t)255; }

/* What unit u needs in a slot beside the resident rows; *k as kernel_scratch sets it. */
static uint64_t unit_scratch(const struct gpu_ctx *g, const struct tsg_unit *u, enum gpu_kernel *k,
			     cudaError_t *e)
{
	return kernel_scratch(g, k, u->src_hi - u->src_lo, u->mid_hi - u->mid_lo,
			      u->off[u->src_hi] - u->off[u->src_lo], e) + 3 * 256;
}

static uint32_t unit_low(const struct tsg_unit *u)
{
	return u->src_lo < u->mid_lo ? u->src_lo : u->mid_lo;
}

static uint32_t unit_top(const struct tsg_unit *u)
{
	return u->src_hi > u->mid_hi ? u->src_hi : u->mid_hi;
}

static int cmp_u32(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static void resident_free(struct gpu_ctx *g)
{
	for (uint32_t j = 0; g->res_ev && j < g->res_ncut; j++)
		if (g->res_ev[j])
			cudaEventDestroy(g->res_ev[j]);
	free(g->res_ev);
	free(g->res_cut);
	if (g->res)
		g->slot_bytes = g->res_slot_bytes;
	g->res = NULL;
	g->res_ev = NULL;
	g->res_cut = NULL;
	g->res_ncut = g->res_have = 0;
	g->res_up = 0;
}

extern "C" int gpu_resident_begin(struct gpu_ctx *g, const struct tsg_unit *units,
				  const enum gpu_kernel *kernels, enum gpu_kernel k, uint32_t n,
				  int upward, int *on, struct tsg_err *err)
{
	int rc = TSG_OK;
	cudaError_t se = cudaSuccess;
	uint64_t need = 0;
	gpu_keep_sources(g, 0); /* the slots move */
	*on = 0;
	if (g->res || n == 0 || g->cq.k || g->ar_ev)
		return TSG_OK;
	const uint32_t nv = units[0].nv;
	const uint64_t ne = units[0].off[nv];
	const uint64_t offb = al(((uint64_t)nv + 1) * 8), graph = offb + al(ne * 4);
	CK(cudaSetDevice(g->device), "selecting the device");
	for (uint32_t i = 0; i < n; i++) {
		enum gpu_kernel ki = kernels ? kernels[i] : k;
		const uint64_t x = unit_scratch(g, &units[i], &ki, &se);
		CK(se, "sizing CUB's scratch");
		need = x > need ? x : need;
	}
	if (graph > g->budget || (g->budget - graph) / GPU_SLOTS < al(need) + 256)
		return TSG_OK;
	g->res_cut = (uint32_t *)malloc(((size_t)n + 1) * sizeof(*g->res_cut));
	g->res_ev = (cudaEvent_t *)calloc((size_t)n + 1, sizeof(*g->res_ev));
	if (!g->res_cut || !g->res_ev) {
		resident_free(g);
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < n; i++)
		g->res_cut[i] = upward ? unit_top(&units[i]) : unit_low(&units[i]);
	g->res_cut[n] = upward ? 0 : nv;
	qsort(g->res_cut, (size_t)n + 1, sizeof(*g->res_cut), cmp_u32);
	for (uint32_t i = 0; i <= n; i++)
		if (g->res_ncut == 0 || g->res_cut[g->res_ncut - 1] != g->res_cut[i])
			g->res_cut[g->res_ncut++] = g->res_cut[i];
	for (uint32_t j = 0; j < g->res_ncut; j++)
		CK(cudaEventCreateWithFlags(&g->res_ev[j], cudaEventDisableTiming),
		   "creating an event");
	g->res_slot_bytes = g->slot_bytes;
	g->slot_bytes = ((g->budget - graph) / GPU_SLOTS) & ~(uint64_t)255;
	g->res = g->dmem + (uint64_t)GPU_SLOTS * g->slot_bytes;
	g->res_hoff = units[0].off;
	g->res_hadj = units[0].adj;
	g->res_up = upward;
	g->res_nv = nv;
	/* nothing yet: the last cut is nv, or upward the first is 0 */
	g->res_have = upward ? 0 : g->res_ncut - 1;
	*on = 1;
	return TSG_OK;
fail:
	resident_free(g);
	return rc;
}

extern "C" void gpu_resident_end(struct gpu_ctx *g)
{
	gpu_keep_sources(g, 0);
	resident_free(g);
}

/* Whether every piece is on the device. */
static int resident_full(const struct gpu_ctx *g)
{
	return g->res_up ? g->res_have + 1 >= g->res_ncut : g->res_have == 0;
}

/* Copies the piece just below what the device holds (res_have > 0), or
 * upward just above it, on the first copy stream, its bytes into *bytes;
 * its event marks its rows as in (down: and every row above). */
static int resident_piece(struct gpu_ctx *g, uint64_t *bytes, struct tsg_err *err)
{
	int rc = TSG_OK;
	const uint32_t j = g->res_up ? g->res_have : g->res_have - 1; /* its event */
	const uint32_t nv = g->res_up ? g->res_nv : g->res_cut[g->res_ncut - 1];
	uint64_t *doff = (uint64_t *)g->res;
	uint32_t *dadj = (uint32_t *)(g->res + al(((uint64_t)nv + 1) * 8));
	const uint32_t a = g->res_cut[j], b = g->res_cut[j + 1];
	/* offsets a .. b-1, and b itself with the top piece; upward each piece
	 * brings its b too, the next one's first, rewritten with the same value
	 * (nothing reads it before its own piece's event) */
	const uint64_t no = (uint64_t)b - a + (b == nv || g->res_up);
	const uint64_t ab = g->res_hoff[a], ae = g->res_hoff[b];
	if ((rc = copy_in(g, 0, doff + a, g->res_hoff + a, no * 8, err)) ||
	    (ae > ab && (rc = copy_in(g, 0, dadj + ab, g->res_hadj + ab, (ae - ab) * 4, err))))
		return rc;
	CK(cudaEventRecord(g->res_ev[j], g->copy[0]), "recording an event");
	if (g->res_up)
		g->res_have++;
	else
		g->res_have--;
	*bytes += no * 8 + (ae - ab) * 4;
	return TSG_OK;
fail:
	return rc;
}

/* Copies the pieces below what the device holds, down to cut j (slot s's
 * timing events around them). */
static int resident_extend(struct gpu_ctx *g, int s, uint32_t j, struct tsg_err *err)
{
	int rc = TSG_OK;
	g->bytes[s] = g->ahead[s] = g->kept_bytes[s] = 0;
	CK(cudaEventRecord(g->h2d_start[s], g->copy[0]), "recording an event");
	while (g->res_up ? g->res_have < j : g->res_have > j)
		if ((rc = resident_piece(g, &g->bytes[s], err)))
			return rc;
	CK(cudaEventRecord(g->h2d_end[s], g->copy[0]), "recording an event");
	return TSG_OK;
fail:
	return rc;
}

extern "C" int gpu_resident_ahead(struct gpu_ctx *g, int s, int p, uint32_t avail, int *copied,
				  struct tsg_err *err)
{
	int rc = TSG_OK;
	*copied = 0;
	if (!g->res || resident_full(g) ||
	    (g->res_up ? g->res_cut[g->res_have + 1] > avail : g->res_cut[g->res_have - 1] < avail))
		return TSG_OK;
	CK(cudaSetDevice(g->device), "selecting the device");
	{
		const cudaError_t q = cudaEventQuery(g->k_end[p]);
		if (q == cudaSuccess)
			return TSG_OK;
		if (q != cudaErrorNotReady)
			CK(q, "running the kernel");
	}
	{
		uint64_t b = 0;
		if ((rc = resident_piece(g, &b, err)))
			return rc;
		g->bytes[s] += b;
		g->ahead[s] += b;
	}
	CK(cudaEventRecord(g->h2d_end[s], g->copy[0]), "recording an event");
	*copied = 1;
	return TSG_OK;
fail:
	return rc;
}

/* gpu_submit_unit on the resident graph: the rows the unit adds, then its
 * count once the piece that completes its rows is in. */
static int submit_resident(struct gpu_ctx *g, int s, const struct tsg_unit *u, enum gpu_kernel k,
			   struct tsg_err *err)
{
	cudaError_t se = cudaSuccess;
	/* down: the cut at its lowest row; upward: at its top, the pieces
	 * below it (event j - 1) */
	const uint32_t lo = g->res_up ? unit_top(u) : unit_low(u);
	const uint32_t *at = (const uint32_t *)bsearch(&lo, g->res_cut, g->res_ncut,
						       sizeof(*g->res_cut), cmp_u32);
	if (!at || u->off != g->res_hoff || u->adj != g->res_hadj || (g->res_up && at == g->res_cut))
		return tsg_fail(err, TSG_EINTERNAL, "a unit outside the resident graph's plan");
	const uint32_t j = (uint32_t)(at - g->res_cut);
	const uint64_t need = unit_scratch(g, u, &k, &se);
	if (se != cudaSuccess)
		return cuda_fail(err, se, "sizing CUB's scratch");
	if (need > g->slot_bytes)
		return slot_full(g, need, 0, err);
	const int rc = resident_extend(g, s, j, err);
	if (rc)
		return rc;
	g->ran[s] = k;
	const uint64_t *doff = (const uint64_t *)g->res;
	const uint32_t *dadj = (const uint32_t *)(g->res + al(((uint64_t)u->nv + 1) * 8));
	dev_dag dv = {};
	dv.nsrc = u->src_hi - u->src_lo;
	dv.lo = u->mid_lo;
	dv.hi = u->mid_hi;
	dv.windowed = 1;
	dv.src_lo = u->src_lo;
	dv.pv = g->pv;
	dv.off = doff + u->mid_lo;
	dv.adj = dadj + u->off[u->mid_lo];
	dv.base = u->off[u->mid_lo];
	/* kernels index a source's list from sbase, and search within it:
	 * sources below the middle rows get their own base, as a copy would */
	const int nested = tsg_unit_nested(u);
	dv.soff = doff + u->src_lo;
	dv.sadj = nested ? dv.adj : dadj + u->off[u->src_lo];
	dv.sbase = nested ? dv.base : u->off[u->src_lo];
	uint8_t *dd = g->dmem + (uint64_t)s * g->slot_bytes + 256;
	return enqueue_count(g, s, dv, dd, g->slot_bytes - 256, u->off[u->src_hi] - u->off[u->src_lo],
			     k, NULL, g->res_ev[g->res_up ? j - 1 : j], err);
}

extern "C" void gpu_keep_sources(struct gpu_ctx *g, int on)
{
	g->keep_src = on;
	for (int s = 0; s < GPU_SLOTS; s++)
		g->kept[s].hoff = NULL;
}

extern "C" int gpu_submit_unit(struct gpu_ctx *g, int s, const struct tsg_unit *u,
			       enum gpu_kernel k, struct tsg_err *err)
{
	int rc = TSG_OK;
	/* first: the caller's thread may be new, and CUB sizes for the current device */
	const cudaError_t de = cudaSetDevice(g->device);
	if (de != cudaSuccess)
		return cuda_fail(err, de, "selecting the device");
	if (g->res)
		return submit_resident(g, s, u, k, err);
	const int nested = tsg_unit_nested(u);
	const uint32_t nsrc = u->src_hi - u->src_lo;
	cudaError_t se = cudaSuccess;
	const uint64_t rows = tsg_rows_bytes(u->off, u->mid_lo, u->mid_hi) +
			      (nested ? 0 : tsg_rows_bytes(u->off, u->src_lo, u->src_hi));
	const uint64_t need = rows + kernel_scratch(g, &k, nsrc, u->mid_hi - u->mid_lo,
						    u->off[u->src_hi] - u->off[u->src_lo], &se) +
			      6 * 256;
	uint8_t *dd = g->dmem + (uint64_t)s * g->slot_bytes + 256;
	const uint8_t *const slot_end = g->dmem + (uint64_t)(s + 1) * g->slot_bytes;
	uint64_t used = 0;
	struct gpu_kept *const kp = &g->kept[s];
	g->ran[s] = k;
	if (se != cudaSuccess)
		return cuda_fail(err, se, "sizing CUB's scratch");
	if (need > g->slot_bytes)
		return slot_full(g, need, rows, err);
	dev_dag dv = {};
	dv.nsrc = nsrc;
	dv.lo = u->mid_lo;
	dv.hi = u->mid_hi;
	dv.windowed = 1;
	dv.src_lo = u->src_lo;
	dv.pv = g->pv;
	g->bytes[s] = g->ahead[s] = g->kept_bytes[s] = 0;
	CK(cudaEventRecord(g->h2d_start[s], g->copy[s]), "recording an event");
	/* the source rows first, at the slot's start, where the next unit of
	 * the same block finds them (gpu_keep_sources); a nested unit's lie in
	 * its middle rows, which overwrite whatever the slot kept */
	if (!nested && g->keep_src && kp->hoff == u->off && kp->hadj == u->adj &&
	    kp->lo == u->src_lo && kp->hi == u->src_hi) {
		dv.soff = kp->doff;
		dv.sadj = kp->dadj;
		used = kp->used;
		g->kept_bytes[s] = kp->bytes;
	} else if (!nested) {
		kp->hoff = NULL; /* overwritten until the copy below is queued */
		rc = copy_rows(g, s, u, u->src_lo, u->src_hi, dd, &dv.soff, &dv.sadj, &used, err);
		if (rc)
			return rc;
		if (g->keep_src)
			*kp = (struct gpu_kept){ .hoff = u->off, .hadj = u->adj, .lo = u->src_lo,
						 .hi = u->src_hi, .doff = dv.soff, .dadj = dv.sadj,
						 .used = used, .bytes = g->bytes[s] };
	} else {
		kp->hoff = NULL;
	}
	if (!nested) {
		dv.sbase = u->off[u->src_lo];
		dd += used;
	}
	rc = copy_rows(g, s, u, u->mid_lo, u->mid_hi, dd, &dv.off, &dv.adj, &used, err);
	if (rc)
		return rc;
	dv.base = u->off[u->mid_lo];
	dd += used;
	if (nested) {
		dv.soff = dv.off + (u->src_lo - u->mid_lo);
		dv.sadj = dv.adj;
		dv.sbase = dv.base;
	}
	return enqueue_count(g, s, dv, dd, slot_end - dd, u->off[u->src_hi] - u->off[u->src_lo], k,
			     NULL, NULL, err);
fail:
	return rc;
}

extern "C" int gpu_collect(struct gpu_ctx *g, int s, uint64_t *count, struct gpu_timing *t,
			   struct tsg_err *err)
{
	int rc = TSG_OK;
	float h2d = 0, kern = 0;
	CK(cudaSetDevice(g->device), "selecting the device");
	CK(cudaEventSynchronize(g->k_end[s]), "running the kernel");
	/* rows copied ahead with the unit may still be on their way */
	CK(cudaEventSynchronize(g->h2d_end[s]), "copying");
	CK(cudaEventElapsedTime(&h2d, g->h2d_start[s], g->h2d_end[s]), "timing the copy");
	CK(cudaEventElapsedTime(&kern, g->k_start[s], g->k_end[s]), "timing the kernel");
	*count = g->hcount[s].triangles;
	if (g->hcount[s].overflow && g->cq.all)
		return tsg_fail(err, TSG_EOVERFLOW, "a clique count passes 2^64 - 1");
	if (g->hcount[s].overflow)
		return tsg_fail(err, TSG_EOVERFLOW, "the %u-clique count passes 2^64 - 1", g->cq.k);
	if (t) {
		t->h2d_ms = h2d;
		t->kernel_ms = kern;
		t->bytes = g->bytes[s];
		t->ahead_bytes = g->ahead[s];
		t->kept_bytes = g->kept_bytes[s];
		t->ran = g->ran[s];
	}
	return TSG_OK;
fail:
	return rc;
}

/*
 * The arrival layout. Device memory, in order: counters, the fill mark,
 * then per vertex rstart, rlen, batch_of, rank, pos; scan and sort state;
 * per batch records, offsets, lists, rows before the sort, in-edges and five
 * per-vertex arrays; last the rows. ar_layout computes it, and with a base
 * also places it.
 */

template <class T> static void ar_take(uint8_t *base, uint64_t *at, T **p, uint64_t bytes)
{
	if (base)
		*p = (T *)(base + *at);
	*at += al(bytes);
}

/* One batch's arrays, both layouts': offsets, lists, rows before their
 * sort, in-edges and five per-vertex arrays. */
static void ar_take_batch(uint8_t *base, uint64_t *at, arrival_dev *d, uint64_t max_e,
			  uint64_t max_v)
{
	ar_take(base, at, &d->off, (max_v + 1) * 8);
	ar_take(base, at, &d->lst, max_e * 4);
	ar_take(base, at, &d->tmp, max_e * 4);
	ar_take(base, at, &d->ins, max_e * 8);
	ar_take(base, at, &d->row_at, (max_v + 1) * 4);
	ar_take(base, at, &d->in_at, (max_v + 1) * 4);
	ar_take(base, at, &d->pre, (max_v + 1) * 4);
	ar_take(base, at, &d->row_fill, (max_v + 1) * 4);
	ar_take(base, at, &d->in_fill, (max_v + 1) * 4);
}

static uint64_t ar_layout(uint64_t nv, uint64_t ne, uint64_t max_e, uint64_t max_v, int pv,
			  arrival_dev *a, uint8_t *base, cudaError_t *e)
{
	arrival_dev d = {};
	uint64_t at = 256; /* dev_counters */
	d.scan_bytes = arrival_scan_bytes((uint32_t)nv, e);
	d.sort_bytes = arrival_sort_bytes(max_e, (uint32_t)max_v, e);
	ar_take(base, &at, &d.fill, sizeof(arrival_fill));
	ar_take(base, &at, &d.rstart, nv * 8);
	ar_take(base, &at, &d.rlen, nv * 4);
	ar_take(base, &at, &d.batch_of, nv * 4);
	ar_take(base, &at, &d.rank, nv * 4);
	ar_take(base, &at, &d.pos, (nv + 1) * 4);
	ar_take(base, &at, (uint8_t **)&d.scan_tmp, d.scan_bytes);
	ar_take(base, &at, (uint8_t **)&d.scan_tmp2, d.scan_bytes);
	ar_take(base, &at, (uint8_t **)&d.sort_tmp, d.sort_bytes);
	ar_take(base, &at, &d.rec, max_e * 16);
	if (pv)
		ar_take(base, &at, &d.rec_a, max_e * 4);
	ar_take_batch(base, &at, &d, max_e, max_v);
	ar_take(base, &at, &d.adj, ne * 4);
	d.cap = ne;
	d.nv = (uint32_t)nv;
	if (a)
		*a = d;
	return at + GPU_SLOT_OVERHEAD;
}

extern "C" uint64_t gpu_arrival_bytes(uint64_t nv, uint64_t ne, uint64_t max_entries,
				      uint64_t max_vertices, int pv)
{
	/* a batch's rows, in lists and records are indexed with 32 bits; CUB's
	 * scans and sorts take signed 32-bit offsets */
	if (max_entries >= (1ull << 31) || nv >= (1ull << 32) - 1)
		return 0;
	cudaError_t e = cudaSuccess; /* a failed CUB size query: gpu_arrival_begin names it */
	const uint64_t need = ar_layout(nv, ne, max_entries, max_vertices, pv, NULL, NULL, &e);
	return e == cudaSuccess ? need : 0;
}

/* bench/ (docs/PERFORMANCE.md, groups): a divisor of region A, 1 to 1024,
 * from the environment, else dflt. */
static uint64_t ag_env_div(const char *name, uint64_t dflt)
{
	const char *v = getenv(name);
	const unsigned long n = v && *v ? strtoul(v, NULL, 10) : 0;
	return n >= 1 && n <= 1024 ? n : dflt;
}

/* Groups (arrival.cu): rank per id, id_of per rank from rank0 on (the
 * ranks below are the ids of degree 0, in no row: half of R-MAT 26's id
 * range, so region A about a tenth more); pos, scans and sort;
 * records; the batch arrays; then regions A and B with their ids' row
 * starts and lengths. Region B is two buffers (a piece copied in while the
 * one before is counted) of half of A each, the records a quarter (at
 * least a batch's entries): fewer pieces and launches for a smaller A won
 * on R-MAT 26 at a quarter (H200: 10.2 s cold against 11.4-12.5 with
 * buffers of a quarter and records an eighth, bench/RESULTS.md, session
 * 38). Each region takes ids in proportion to
 * its rows, the graph's nv / ne with a quarter to spare, at least a
 * batch's. */
static uint64_t ag_layout(uint64_t nv, uint64_t rank0, uint64_t ne, uint64_t max_e,
			  uint64_t max_v, int pv, uint64_t cap_a, arrival_dev *a, uint8_t *base,
			  cudaError_t *e)
{
	arrival_dev d = {};
	uint64_t at = 256; /* dev_counters */
	const double per = ne ? 1.25 * (double)nv / (double)ne : 1;
	const uint64_t nb = ag_env_div("TSG_ARRIVAL_GROUP_B", 2), nr = ag_env_div("TSG_ARRIVAL_GROUP_REC", 4);
	const uint64_t cap_b = cap_a / nb > max_e ? cap_a / nb : max_e; /* each of two */
	const uint64_t ids_a = (uint64_t)((double)cap_a * per) + max_v + 1;
	const uint64_t ids_b = (uint64_t)((double)cap_b * per) + max_v + 1;
	d.ids_a = ids_a < nv ? ids_a : nv;
	d.ids_b = ids_b < nv ? ids_b : nv;
	const uint64_t ids = d.ids_a > d.ids_b ? d.ids_a : d.ids_b;
	d.cap_rec = cap_a / nr > max_e ? cap_a / nr : max_e;
	d.scan_bytes = arrival_scan_bytes((uint32_t)(ids > max_v ? ids : max_v), e);
	d.sort_bytes = arrival_sort_bytes(max_e, (uint32_t)max_v, e);
	ar_take(base, &at, &d.fill, sizeof(arrival_fill));
	ar_take(base, &at, &d.rank, nv * 4);
	ar_take(base, &at, &d.id_of, (nv - rank0) * 4);
	ar_take(base, &at, &d.pos, (ids + 1) * 4);
	ar_take(base, &at, (uint8_t **)&d.scan_tmp, d.scan_bytes);
	ar_take(base, &at, (uint8_t **)&d.scan_tmp2, d.scan_bytes);
	ar_take(base, &at, (uint8_t **)&d.sort_tmp, d.sort_bytes);
	ar_take(base, &at, (uint8_t **)&d.rec, d.cap_rec * 8);
	if (pv)
		ar_take(base, &at, &d.rec_a, d.cap_rec * 4);
	ar_take_batch(base, &at, &d, max_e, max_v);
	ar_take(base, &at, &d.rs_a, d.ids_a * 4);
	ar_take(base, &at, &d.rl_a, d.ids_a * 4);
	ar_take(base, &at, &d.rs_b, 2 * d.ids_b * 4);
	ar_take(base, &at, &d.rl_b, 2 * d.ids_b * 4);
	ar_take(base, &at, &d.adj_a, cap_a * 4);
	ar_take(base, &at, &d.adj_b, 2 * cap_b * 4);
	d.cap_a = cap_a;
	d.cap_b = cap_b;
	d.nv = (uint32_t)nv;
	d.rank0 = (uint32_t)rank0;
	d.grouped = 1;
	if (a)
		*a = d;
	return at + GPU_SLOT_OVERHEAD;
}

/* Tests (tests/gpu): TSG_TEST_ARRIVAL_GROUP_ROWS, a positive number, caps
 * region A's rows there, so that a small graph takes many groups and
 * pieces; unset: what the budget holds. */
static uint64_t ag_test_rows(void)
{
	const char *v = getenv("TSG_TEST_ARRIVAL_GROUP_ROWS");
	char *end = NULL;
	const unsigned long long t = v ? strtoull(v, &end, 10) : 0;
	return v && *v && end && *end == 0 && t > 0 ? t : 0;
}

/* Region A's rows for a budget: the most that fit (the layout is linear
 * in them, so a bisection), within 2^32 - 1 (rows are found by 32-bit
 * starts) and the graph's rows; 0 if not a batch's entries fit. */
static uint64_t ag_cap_for(uint64_t nv, uint64_t rank0, uint64_t ne, uint64_t max_e,
			   uint64_t max_v, int pv, uint64_t budget, cudaError_t *e)
{
	uint64_t lo = 0, hi = ne + max_e < 0xffffffffull ? ne + max_e : 0xffffffffull;
	const uint64_t t = ag_test_rows();
	if (t && t < hi)
		hi = t;
	if (t && t < max_e) /* a batch must fit */
		hi = max_e;
	while (lo < hi) {
		const uint64_t m = lo + (hi - lo + 1) / 2;
		if (ag_layout(nv, rank0, ne, max_e, max_v, pv, m, NULL, NULL, e) <= budget)
			lo = m;
		else
			hi = m - 1;
	}
	return lo >= max_e && lo > 0 ? lo : 0;
}

extern "C" uint64_t gpu_arrival_group_rows(uint64_t nv, uint64_t rank0, uint64_t ne,
					   uint64_t max_entries, uint64_t max_vertices, int pv,
					   uint64_t budget)
{
	if (max_entries >= (1ull << 31) || nv >= (1ull << 32) - 1 || rank0 > nv)
		return 0;
	cudaError_t e = cudaSuccess;
	const uint64_t cap = ag_cap_for(nv, rank0, ne, max_entries, max_vertices, pv, budget, &e);
	return e == cudaSuccess ? cap : 0;
}

extern "C" void gpu_arrival_groups(struct gpu_ctx *g, int on) { g->ag_on = on; }

enum ar_pin_state { PIN_NOT, PIN_DONE, PIN_RELEASED, PIN_FAILED };

/* Range j of pages: where batch j's lists start, rounded down to a page,
 * to where batch j+1's do; the last one rounded up. Neighbouring batches
 * share no page, since a page is pinned once. */
static const uint8_t *ar_edge(const struct gpu_ctx *g, uint32_t j)
{
	const uintptr_t page = 4096, a = (uintptr_t)(g->ar_src.adj + g->ar_at[j]);
	return (const uint8_t *)(j == g->ar_nbatches ? (a + page - 1) / page * page : a / page * page);
}

/* The context that pins the lists: the leader of several, else this one. */
static const struct gpu_ctx *ar_pinner(const struct gpu_ctx *g)
{
	return g->ar_leader ? g->ar_leader : g;
}

/* The host's clock, for the submitting thread's own time. */
static double host_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void ar_pin(struct gpu_ctx *g, uint32_t j)
{
	if (g->ar_leader || j >= g->ar_nbatches || g->ar_pin[j] != PIN_NOT)
		return;
	const uint8_t *lo = ar_edge(g, j), *hi = ar_edge(g, j + 1);
	if (hi <= lo) {
		g->ar_pin[j] = PIN_RELEASED; /* nothing to pin */
		return;
	}
	const double t = host_now();
	const cudaError_t e = cudaHostRegister((void *)lo, (size_t)(hi - lo), g->ar_pin_flags);
	g->ar_pin_s += host_now() - t;
	if (e != cudaSuccess)
		(void)cudaGetLastError(); /* copied as ordinary memory instead */
	g->ar_pin[j] = e == cudaSuccess ? PIN_DONE : PIN_FAILED;
	if (e == cudaSuccess) { /* the unpinning thread counts down */
		const uint32_t now = __atomic_add_fetch(&g->ar_locked, 1u, __ATOMIC_RELAXED);
		g->ar_locked_most = now > g->ar_locked_most ? now : g->ar_locked_most;
	}
}

static cudaError_t ar_unpin(struct gpu_ctx *g, uint32_t j)
{
	cudaError_t e = cudaSuccess;
	if (g->ar_pin[j] == PIN_DONE) {
		const double t = host_now();
		e = cudaHostUnregister((void *)ar_edge(g, j));
		g->ar_unpin_s += host_now() - t;
		__atomic_sub_fetch(&g->ar_locked, 1u, __ATOMIC_RELAXED);
	}
	g->ar_pin[j] = PIN_RELEASED;
	return e;
}

/*
 * When the leader gives back the pages of a batch every device has copied.
 * cudaHostUnregister is slow where the batch thread calls it: R-MAT 26
 * warm on an H100, 2.10 s of a 3.4 s count went into unregistering 8.4
 * GB (0.31 s into registering it), about the device's own 2.23 s, and
 * the batches waited on it (bench/raw/h100-2026-11-27-s34-callC/).
 *  - inline: the batch thread, as it hands the next batch over;
 *  - thread: a thread of the leader's own, as the batch thread hands
 *    them to it (the default). Where the lists lie in the process's own
 *    memory, read into it whole, locking its pages a while longer holds
 *    nothing more. A mapped file's pages (--io mmap, --host-mem's arrival
 *    over the map, a cached file --io auto mapped) are what src/hostmem.c counts (the batches k - 2 ..
 *    k + 1, one more with peers), and the thread waits on the device, so
 *    it is held back: before the batch thread pins batch k's pages it
 *    waits until the thread has given back every range below k - 2 (k - 3
 *    with peers), which it does only where the device is that far behind
 *    (ar_hold_back; the wait is the JSON's arrival_wait). Inline, the
 *    batch thread waited on the device at every batch (R-MAT 26 at
 *    --host-mem 4G cold on an H100: 6.19 s inline, 5.40 s unbounded, in
 *    bench/raw/h100-2026-11-27-s34-callD/). Not for a crawl placed as
 *    decoded (its ranges' ends are learnt batch by batch): inline;
 *  - end: all at once, after the last batch.
 * TSG_ARRIVAL_UNPIN=inline|thread|end picks one, for benchmarks (thread
 * only where the default would take it).
 */
enum ar_unpin_mode { UNPIN_THREAD, UNPIN_INLINE, UNPIN_END };

static int ar_unpin_mode_env(void)
{
	const char *m = getenv("TSG_ARRIVAL_UNPIN");
	return m && strcmp(m, "inline") == 0 ? UNPIN_INLINE
	       : m && strcmp(m, "end") == 0  ? UNPIN_END
					      : UNPIN_THREAD;
}

static void *ar_unpin_main(void *arg)
{
	struct gpu_ctx *g = (struct gpu_ctx *)arg;
	cudaError_t first = cudaSetDevice(g->device);
	pthread_mutex_lock(&g->ar_mu);
	g->ar_unpin_err = first; /* at once: a held-back batch thread stops on it */
	for (;;) {
		while (g->ar_unpin_done < g->ar_unpin_upto) {
			const uint32_t j = g->ar_unpin_done;
			pthread_mutex_unlock(&g->ar_mu);
			/* range j is this thread's alone: the batch thread has
			 * moved past it (ar_copy_lists, ar_pin touch later ones) */
			const cudaError_t e = first == cudaSuccess ? ar_unpin(g, j) : cudaSuccess;
			pthread_mutex_lock(&g->ar_mu);
			if (first == cudaSuccess)
				first = g->ar_unpin_err = e;
			g->ar_unpin_done = j + 1;
			pthread_cond_broadcast(&g->ar_cv); /* a held-back batch thread */
		}
		if (g->ar_unpin_stop)
			break;
		pthread_cond_wait(&g->ar_cv, &g->ar_mu);
	}
	g->ar_unpin_err = first;
	pthread_mutex_unlock(&g->ar_mu);
	return NULL;
}

/* Starts the leader's unpinning thread, if it is to have one; without it
 * (or where it cannot start) the batch thread unpins inline. */
static void ar_unpinner_start(struct gpu_ctx *g)
{
	g->ar_unpin_mode = ar_unpin_mode_env();
	g->ar_unpin_upto = g->ar_unpin_done = 0;
	g->ar_unpin_stop = 0;
	g->ar_unpin_err = cudaSuccess;
	g->ar_unpin_hold = !g->ar_src.pin_ahead; /* pages the budget counts: see above */
	if (g->ar_unpin_mode == UNPIN_THREAD && !g->ar_src.at)
		g->ar_unpin_mode = UNPIN_INLINE;
	if (g->ar_leader || g->ar_unpin_mode != UNPIN_THREAD)
		return;
	if (pthread_mutex_init(&g->ar_mu, NULL) != 0)
		goto inline_;
	if (pthread_cond_init(&g->ar_cv, NULL) != 0) {
		pthread_mutex_destroy(&g->ar_mu);
		goto inline_;
	}
	if (pthread_create(&g->ar_unpinner, NULL, ar_unpin_main, g) != 0) {
		pthread_cond_destroy(&g->ar_cv);
		pthread_mutex_destroy(&g->ar_mu);
		goto inline_;
	}
	g->ar_unpinner_on = 1;
	return;
inline_:
	g->ar_unpin_mode = UNPIN_INLINE;
}

/* Stops the unpinning thread once it has given back what it was handed;
 * returns its first failure. */
static cudaError_t ar_unpinner_stop(struct gpu_ctx *g)
{
	if (!g->ar_unpinner_on)
		return cudaSuccess;
	pthread_mutex_lock(&g->ar_mu);
	g->ar_unpin_stop = 1;
	pthread_cond_signal(&g->ar_cv);
	pthread_mutex_unlock(&g->ar_mu);
	pthread_join(g->ar_unpinner, NULL);
	pthread_cond_destroy(&g->ar_cv);
	pthread_mutex_destroy(&g->ar_mu);
	g->ar_unpinner_on = 0;
	return g->ar_unpin_err;
}

/* The batch thread: ranges below upto every device has copied. */
static cudaError_t ar_release_upto(struct gpu_ctx *g, uint32_t upto)
{
	cudaError_t e = cudaSuccess;
	if (g->ar_unpin_mode == UNPIN_END || upto <= g->ar_released)
		return cudaSuccess;
	if (g->ar_unpinner_on) {
		pthread_mutex_lock(&g->ar_mu);
		g->ar_unpin_upto = upto;
		pthread_cond_broadcast(&g->ar_cv);
		pthread_mutex_unlock(&g->ar_mu);
		g->ar_released = upto;
		return cudaSuccess;
	}
	while (e == cudaSuccess && g->ar_released < upto)
		e = ar_unpin(g, g->ar_released++);
	return e;
}

/* Waits for the arrival layout's streams: both compute streams
 * (arrival_launch) and the copy streams, which carry a group's pieces back
 * from the leader's host arrays (ag_group_pairs). A compute stream waits for each
 * piece before its kernels, but a run that failed between the copy and
 * that wait leaves the copy in flight, and arrival_release frees the
 * arrays right after this. */
static cudaError_t ar_sync(struct gpu_ctx *g)
{
	cudaError_t first = cudaSuccess;
	for (int s = 0; s < 2; s++) {
		const cudaError_t e = cudaStreamSynchronize(g->compute[s]);
		const cudaError_t f = g->copy[s] ? cudaStreamSynchronize(g->copy[s]) : cudaSuccess;
		if (first == cudaSuccess)
			first = e != cudaSuccess ? e : f;
	}
	return first;
}

/* Unpins every range, syncing first, and frees what begin made; returns
 * the first error of the wait or the unpinning (everything is released
 * all the same). Safe to call twice, and on a context that never began. */
/* A group's host array, from the arena or (where it had no room)
 * cudaMallocHost. */
static void ag_host_free(const struct gpu_ctx *g, void *p)
{
	if (p && !pin_arena_holds(g->ag_arena, p))
		cudaFreeHost(p);
}

static cudaError_t arrival_release(struct gpu_ctx *g)
{
	cudaError_t e = cudaSuccess;
	if (g->ar_pin) {
		e = ar_sync(g);
		for (uint32_t i = 0; i < g->ar_npeers; i++) { /* they copy from the pages too */
			const cudaError_t w = ar_sync(g->ar_peer[i]);
			if (e == cudaSuccess)
				e = w;
		}
		const cudaError_t t = ar_unpinner_stop(g); /* before the ranges it holds */
		if (e == cudaSuccess)
			e = t;
		for (uint32_t j = 0; j < g->ar_nbatches; j++) {
			const cudaError_t u = ar_unpin(g, j);
			if (e == cudaSuccess)
				e = u;
		}
	}
	for (int i = 0; i < 2; i++) {
		if (g->ar_offs_free[i]) cudaEventDestroy(g->ar_offs_free[i]);
		if (g->ar_offs[i]) cudaFreeHost(g->ar_offs[i]);
		g->ar_offs_free[i] = NULL;
		g->ar_offs[i] = NULL;
	}
	for (uint32_t j = 0; g->ar_ev && j < 3 * g->ar_nbatches; j++)
		if (g->ar_ev[j]) cudaEventDestroy(g->ar_ev[j]);
	if (g->ar_placed) cudaEventDestroy(g->ar_placed);
	if (g->ar_filed) cudaEventDestroy(g->ar_filed);
	g->ar_placed = g->ar_filed = NULL;
	if (g->ar_cum)
		cudaFreeHost(g->ar_cum);
	/* the groups' rows, a group whose end failed midway (ag_n) too */
	for (uint32_t i = 0; g->ag && i <= g->ag_n; i++) {
		ag_host_free(g, g->ag[i].adj);
		ag_host_free(g, g->ag[i].rs);
		ag_host_free(g, g->ag[i].rl);
	}
	{ /* after every copy from it (ar_sync above) */
		const cudaError_t u = pin_arena_close(g->ag_arena, &g->ag_arena_pin_s,
						      &g->ag_arena_unpin_s);
		g->ag_arena = NULL;
		if (e == cudaSuccess)
			e = u;
	}
	if (g->ag_used)
		cudaFreeHost(g->ag_used);
	if (g->ag_total)
		cudaFreeHost(g->ag_total);
	g->ag_total = NULL;
	for (uint32_t j = 0; g->ag_saved_ev && j <= g->ar_nbatches; j++)
		if (g->ag_saved_ev[j]) cudaEventDestroy(g->ag_saved_ev[j]);
	free(g->ag_saved_ev);
	g->ag_saved_ev = NULL;
	for (int j = 0; j < 3; j++) {
		if (g->ag_pev[j]) cudaEventDestroy(g->ag_pev[j]);
		g->ag_pev[j] = NULL;
	}
	for (int u = 0; u < 2; u++) {
		if (g->ag_in[u]) cudaEventDestroy(g->ag_in[u]);
		if (g->ag_free[u]) cudaEventDestroy(g->ag_free[u]);
		if (g->ag_fill_ev[u]) cudaEventDestroy(g->ag_fill_ev[u]);
		g->ag_in[u] = g->ag_free[u] = g->ag_fill_ev[u] = NULL;
	}
	free(g->ag);
	free(g->ag_bound);
	free(g->ag_raw);
	g->ag = NULL;
	g->ag_bound = g->ag_raw = NULL;
	g->ag_used = NULL;
	g->ag_n = 0;
	free(g->ar_ev);
	free(g->ar_pin);
	free(g->ar_at);
	g->ar_ev = NULL;
	g->ar_pin = NULL;
	g->ar_at = NULL;
	g->ar_cum = NULL;
	g->ar_nbatches = 0;
	return e;
}

/* Copies n bytes of host memory that is not pinned, pinning it for the
 * copy if it can (the driver's own staging runs at a fraction of PCIe). */
static cudaError_t copy_in(void *dst, const void *src, size_t n, cudaStream_t s)
{
	if (n == 0)
		return cudaSuccess;
	const int pinned = cudaHostRegister((void *)src, n, cudaHostRegisterReadOnly) == cudaSuccess;
	if (!pinned)
		(void)cudaGetLastError();
	cudaError_t e = cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, s);
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(s);
	if (pinned) {
		const cudaError_t u = cudaHostUnregister((void *)src);
		if (e == cudaSuccess)
			e = u;
	}
	return e;
}

/* Groups on several devices build the same groups, so every region is
 * sized by the least budget among them (gpu_arrival_share has named them
 * all before any begins). */
static uint64_t ag_common_budget(const struct gpu_ctx *g)
{
	const struct gpu_ctx *lead = g->ar_leader ? g->ar_leader : g;
	uint64_t b = lead->slot_bytes * GPU_SLOTS;
	for (uint32_t i = 0; i < lead->ar_npeers; i++) {
		const uint64_t p = lead->ar_peer[i]->slot_bytes * GPU_SLOTS;
		b = p < b ? p : b;
	}
	return b;
}

extern "C" int gpu_arrival_begin(struct gpu_ctx *g, uint64_t nv, uint64_t ne, uint32_t nbatches,
				 uint64_t max_entries, uint64_t max_vertices, const uint32_t *rank,
				 const uint32_t *batch_of, uint64_t rank0,
				 const struct gpu_arrival_src *src, struct tsg_err *err)
{
	int rc = TSG_OK, ro = 0;
	const cudaStream_t s = g->compute[0];
	cudaError_t se = cudaSuccess;
	const int pv = g->pv != NULL, grouped = g->ag_on;
	const uint64_t budget = grouped ? ag_common_budget(g) : g->slot_bytes * GPU_SLOTS;
	const uint64_t cap_a = grouped ? gpu_arrival_group_rows(nv, rank0, ne, max_entries,
								max_vertices, pv, budget) : 0;
	const uint64_t need = grouped ? (cap_a ? budget : 0)
				      : gpu_arrival_bytes(nv, ne, max_entries, max_vertices, pv);
	if (rank0 > nv)
		return tsg_fail(err, TSG_EINTERNAL, "arrival: %llu ids of degree 0 of %llu",
				(unsigned long long)rank0, (unsigned long long)nv);
	if (need == 0 && max_entries < (1ull << 31) && nv < (1ull << 32) - 1) {
		if (grouped)
			ag_layout(nv, rank0, ne, max_entries, max_vertices, pv, max_entries, NULL,
				  NULL, &se);
		else
			ar_layout(nv, ne, max_entries, max_vertices, pv, NULL, NULL, &se);
		CK(se, "sizing CUB's scratch for the arrival layout");
	}
	if (need == 0 || need > budget)
		return tsg_fail(err, TSG_ENOMEM, "the arrival layout%s needs %llu MiB of the %llu MiB "
				"GPU budget: use --layout block", grouped ? " in groups" : "",
				(unsigned long long)((grouped ? ag_layout(nv, rank0, ne, max_entries,
									  max_vertices, pv,
									  max_entries, NULL,
									  NULL, &se)
							      : need) >> 20),
				(unsigned long long)(budget >> 20));
	CK(cudaSetDevice(g->device), "selecting the device");
	CK(arrival_release(g), "releasing an earlier arrival run");
	if (grouped)
		CK((ag_layout(nv, rank0, ne, max_entries, max_vertices, pv, cap_a, &g->ar, g->dmem,
			      &se),
		    se),
		   "sizing CUB's scratch for the arrival layout");
	else
		CK((ar_layout(nv, ne, max_entries, max_vertices, pv, &g->ar, g->dmem, &se), se),
		   "sizing CUB's scratch for the arrival layout");
	if (grouped && g->ar_leader &&
	    (g->ar.cap_a != g->ar_leader->ar.cap_a || g->ar.cap_b != g->ar_leader->ar.cap_b ||
	     g->ar.ids_a != g->ar_leader->ar.ids_a || g->ar.ids_b != g->ar_leader->ar.ids_b)) {
		rc = tsg_fail(err, TSG_EINTERNAL, "arrival groups: the devices' regions differ");
		goto fail;
	}
	g->ar.pv = g->pv; /* counts by rank */
	g->ar_nbatches = nbatches;
	g->ar_max_v = max_vertices;
	g->ar_max_e = max_entries;
	g->ar_bytes = g->ar_pinned = g->ar_listb = 0;
	g->ar_released = 0;
	g->ar_pin_s = g->ar_unpin_s = g->ar_wait_s = 0;
	g->ar_locked = g->ar_locked_most = 0;
	g->ar_src = *src;
	g->ar_at = (uint64_t *)malloc(((size_t)nbatches + 1) * sizeof(uint64_t));
	g->ar_pin = (uint8_t *)calloc((size_t)nbatches + 1, 1);
	g->ar_ev = (cudaEvent_t *)calloc(3 * (size_t)nbatches + 1, sizeof(*g->ar_ev));
	if (!g->ar_at || !g->ar_pin || !g->ar_ev) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto fail;
	}
	if (src->at)
		memcpy(g->ar_at, src->at, ((size_t)nbatches + 1) * sizeof(uint64_t));
	else /* each batch's end set as it is submitted */
		g->ar_at[0] = 0;
	/* pinned ahead, the pages are written after: they must stay writable */
	CK(cudaDeviceGetAttribute(&ro, cudaDevAttrHostRegisterReadOnlySupported, g->device),
	   "reading device attributes");
	g->ar_pin_flags = (src->pin_ahead || !ro ? cudaHostRegisterDefault : cudaHostRegisterReadOnly) |
			  (g->ar_npeers ? cudaHostRegisterPortable : 0);
	g->ar.share = g->ar_share;
	g->ar.nshares = g->ar_nshares ? g->ar_nshares : 1;
	CK(cudaMallocHost(&g->ar_cum, (nbatches ? nbatches : 1) * sizeof(uint64_t)),
	   "allocating pinned counters");
	for (int i = 0; i < 2; i++) {
		CK(cudaMallocHost(&g->ar_offs[i], (max_vertices + 1) * 8), "allocating pinned staging");
		CK(cudaEventCreateWithFlags(&g->ar_offs_free[i], cudaEventDisableTiming),
		   "creating an event");
	}
	for (uint32_t j = 0; j < 3 * nbatches; j++)
		CK(cudaEventCreateWithFlags(&g->ar_ev[j], j % 3 == 1 ? cudaEventDisableTiming : 0),
		   "creating an event");
	CK(cudaEventCreateWithFlags(&g->ar_placed, cudaEventDisableTiming), "creating an event");
	CK(cudaEventCreateWithFlags(&g->ar_filed, cudaEventDisableTiming), "creating an event");
	CK(cudaMemsetAsync(g->dmem, 0, 256, s), "clearing counters");
	CK(cudaMemsetAsync(g->ar.fill, 0, sizeof(arrival_fill), s), "clearing counters");
	g->ag_copied = g->ag_saved = g->ag_rounds = 0;
	g->ag_end_s = g->ag_alloc_s = g->ag_wait0_s = g->ag_fit_wait_s = 0;
	g->ag_t0 = host_now();
	if (grouped) {
		g->ag = (struct ar_group *)calloc((size_t)nbatches + 1, sizeof(*g->ag));
		g->ag_bound = (uint64_t *)calloc((size_t)nbatches + 1, sizeof(uint64_t));
		g->ag_raw = (uint64_t *)calloc((size_t)nbatches + 1, sizeof(uint64_t));
		if (!g->ag || !g->ag_bound || !g->ag_raw) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
			goto fail;
		}
		CK(cudaMallocHost(&g->ag_used, ((size_t)nbatches + 1) * sizeof(*g->ag_used)),
		   "allocating pinned counters");
		g->ag_saved_ev = (cudaEvent_t *)calloc((size_t)nbatches + 1, sizeof(cudaEvent_t));
		if (!g->ag_saved_ev) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
			goto fail;
		}
		for (uint32_t j = 0; j <= nbatches; j++)
			CK(cudaEventCreateWithFlags(&g->ag_saved_ev[j], cudaEventDisableTiming),
			   "creating an event");
		for (int u = 0; u < 2; u++) {
			g->ag_badj[u] = g->ar.adj_b + (size_t)u * g->ar.cap_b;
			g->ag_brs[u] = g->ar.rs_b + (size_t)u * g->ar.ids_b;
			g->ag_brl[u] = g->ar.rl_b + (size_t)u * g->ar.ids_b;
			CK(cudaEventCreateWithFlags(&g->ag_in[u], cudaEventDisableTiming), "creating an event");
			CK(cudaEventCreateWithFlags(&g->ag_free[u], cudaEventDisableTiming), "creating an event");
			CK(cudaEventCreateWithFlags(&g->ag_fill_ev[u], cudaEventDisableTiming),
			   "creating an event");
		}
		g->ag_pieces = g->ag_tallies = g->ag_split = 0;
		{ /* tests/gpu: TSG_TEST_ARRIVAL_PAIR_RECORDS under the record region
		   * makes pairs overflow one launch; a launch of one batch always
		   * fits the region (it holds a batch's entries) */
			const char *v = getenv("TSG_TEST_ARRIVAL_PAIR_RECORDS");
			const unsigned long long t = v && *v ? strtoull(v, NULL, 10) : 0;
			g->ag_pair_cap = t > 0 && t < g->ar.cap_rec ? t : g->ar.cap_rec;
		}
		CK(cudaMallocHost(&g->ag_total, sizeof(*g->ag_total)), "allocating pinned counters");
		{ /* every group's rows and index: ne rows and nv ids at most, each
		   * array aligned to 256 bytes. No arena (the mapping failed, or
		   * TSG_ARRIVAL_GROUP_ARENA=0 for a bench): cudaMallocHost a group */
			const char *v = getenv("TSG_ARRIVAL_GROUP_ARENA");
			const uint64_t bound = ne * 4 + (uint64_t)nv * 8 + 3 * 256 * ((uint64_t)nbatches + 1);
			const char *c = getenv("TSG_TEST_ARENA_CHUNK_MIB"); /* tests/gpu: arrays across chunks */
			const unsigned long cm = c && *c ? strtoul(c, NULL, 10) : 0;
			const uint64_t chunk = cm >= 2 && cm % 2 == 0 && cm <= 4096 ? cm << 20 : 64u << 20;
			g->ag_arena = NULL;
			g->ag_arena_wait_s = g->ag_arena_pin_s = g->ag_arena_unpin_s = 0;
			g->ag_arena_miss = 0;
			g->ag_arena_why = NULL;
			/* the leader saves the rows; the others copy from its arena */
			if (!g->ar_leader) {
				if (v && strcmp(v, "0") == 0) {
					g->ag_arena_why = "no arena (TSG_ARRIVAL_GROUP_ARENA=0)";
				} else {
					const cudaError_t ae = pin_arena_open(&g->ag_arena, g->device, bound,
									      chunk, g->ar_npeers != 0);
					if (ae != cudaSuccess) {
						g->ag_arena = NULL;
						g->ag_arena_why = cudaGetErrorString(ae);
					}
				}
			}
		}
		{
			const char *v = getenv("TSG_ARRIVAL_GROUP_PROFILE");
			g->ag_prof = v && strcmp(v, "1") == 0;
			g->ag_times = g->ag_prof || (v && strcmp(v, "2") == 0); /* said, not serialised */
			v = getenv("TSG_ARRIVAL_GROUP_TALLY");
			g->ag_tally = !(v && strcmp(v, "0") == 0);
			v = getenv("TSG_ARRIVAL_GROUP_UNITS");
			g->ag_units_on = !(v && strcmp(v, "0") == 0);
			g->ag_unit_raw = g->ag_units = 0;
			/* per mille of the batches, 1 .. 999 (ag_early) */
			v = getenv("TSG_ARRIVAL_GROUP_EARLY");
			const unsigned long pm = v && *v ? strtoul(v, NULL, 10) : 0;
			g->ag_early_at = pm >= 1 && pm <= 999
						 ? (uint32_t)((uint64_t)nbatches * pm / 1000)
						 : 0;
			g->ag_sub = g->ag_early_batch = 0;
			g->ag_early_pieces = 0;
			g->ag_early_s = 0;
		}
		memset(g->ag_prof_ms, 0, sizeof(g->ag_prof_ms));
		for (int j = 0; j < 3; j++)
			CK(cudaEventCreate(&g->ag_pev[j]), "creating an event");
		g->ag_n = g->ag_first = 0;
		g->ag_key = 0;
		g->ag_ne = ne;
		g->ag_rows = g->ag_copied = g->ag_saved = g->ag_rounds = 0;
		g->ag_end_s = 0;
		CK(copy_in(g->ar.rank, rank, nv * 4, s), "copying the ranks");
		CK(arrival_id_of_launch(g->ar, g->sms, s), "inverting the ranks");
	} else {
		CK(cudaMemsetAsync(g->ar.rstart, 0, nv * 8, s), "clearing the row index");
		CK(cudaMemsetAsync(g->ar.rlen, 0, nv * 4, s), "clearing the row index");
		CK(copy_in(g->ar.batch_of, batch_of, nv * 4, s), "copying the batches");
		CK(copy_in(g->ar.rank, rank, nv * 4, s), "copying the ranks");
	}
	if (src->pin_ahead && !g->ar_leader) { /* the file's first pages go straight into pinned memory */
		ar_pin(g, 0);
		ar_pin(g, 1);
	}
	ar_unpinner_start(g);
	g->ar_st.on = 0;
	return TSG_OK;
fail:
	(void)arrival_release(g); /* the failure that brought us here is the one reported */
	return rc;
}

/* Copies batch k's lists range by range of pages: a copy may not span two
 * registrations. */
static int ar_copy_lists(struct gpu_ctx *g, uint32_t k, cudaStream_t s, struct tsg_err *err)
{
	int rc = TSG_OK;
	const uint8_t *from = (const uint8_t *)(g->ar_src.adj + g->ar_at[k]);
	const uint8_t *to = (const uint8_t *)(g->ar_src.adj + g->ar_at[k + 1]);
	for (uint32_t j = k; j < g->ar_nbatches && from < to; j++) {
		const uint8_t *lo = ar_edge(g, j) > from ? ar_edge(g, j) : from;
		if (!g->ar_src.at && j == k + 1) {
			/* placed as decoded: the next range's end is unknown, so
			 * its pages are not pinned yet; the piece of it that is
			 * ours (under a page) goes as ordinary memory */
			CK(cudaMemcpyAsync((uint8_t *)g->ar.lst + (lo - from), lo, (size_t)(to - lo),
					   cudaMemcpyHostToDevice, s), "copying a batch's lists");
			break;
		}
		const uint8_t *hi = ar_edge(g, j + 1) < to ? ar_edge(g, j + 1) : to;
		if (hi <= lo)
			continue;
		ar_pin(g, j);
		CK(cudaMemcpyAsync((uint8_t *)g->ar.lst + (lo - from), lo, (size_t)(hi - lo),
				   cudaMemcpyHostToDevice, s), "copying a batch's lists");
		if (ar_pinner(g)->ar_pin[j] == PIN_DONE)
			g->ar_pinned += (uint64_t)(hi - lo);
	}
	g->ar_listb += (uint64_t)(to - from);
	return TSG_OK;
fail:
	return rc;
}

/* Whether every device has copied batch j's lists. */
static bool ar_copied(struct gpu_ctx *g, uint32_t j)
{
	for (uint32_t i = 0; i <= g->ar_npeers; i++) {
		const struct gpu_ctx *d = i ? g->ar_peer[i - 1] : g;
		const cudaError_t q = cudaEventQuery(d->ar_ev[3 * j + 1]);
		if (q != cudaSuccess) {
			(void)cudaGetLastError(); /* not ready is no error */
			return false;
		}
	}
	return true;
}

/* Before batch k's pages are pinned, where the unpinning thread's are
 * counted (ar_unpin_hold): waits until every range below k - 2 (k - 3
 * with peers) has been given back, handing over those the devices have
 * copied, and waiting for a copy where one is not done. Returns a failed
 * copy's error, or the thread's (which gives nothing back after one), at
 * once: the run then fails rather than holding more pages, or waiting for
 * ranges never handed over. */
static cudaError_t ar_hold_back(struct gpu_ctx *g, uint32_t k)
{
	const uint32_t keep = g->ar_npeers ? 3 : 2;
	if (!g->ar_unpinner_on || !g->ar_unpin_hold || k <= keep)
		return cudaSuccess;
	const uint32_t need = k - keep;
	cudaError_t e = cudaSuccess;
	while (e == cudaSuccess && g->ar_released < need) {
		uint32_t upto = g->ar_released;
		while (upto < need && ar_copied(g, upto))
			upto++;
		if (upto == g->ar_released) /* the oldest range's copy is not done */
			for (uint32_t i = 0; i <= g->ar_npeers && e == cudaSuccess; i++) {
				const struct gpu_ctx *d = i ? g->ar_peer[i - 1] : g;
				e = cudaEventSynchronize(d->ar_ev[3 * upto + 1]);
			}
		else
			e = ar_release_upto(g, upto);
	}
	const uint32_t given = e == cudaSuccess ? need : g->ar_released;
	pthread_mutex_lock(&g->ar_mu);
	while (g->ar_unpin_done < given && g->ar_unpin_err == cudaSuccess)
		pthread_cond_wait(&g->ar_cv, &g->ar_mu);
	if (e == cudaSuccess)
		e = g->ar_unpin_err;
	pthread_mutex_unlock(&g->ar_mu);
	return e;
}

extern "C" int gpu_arrival_share(struct gpu_ctx *g, struct gpu_ctx *leader,
				 struct gpu_ctx *const *peers, uint32_t npeers, uint32_t share,
				 uint32_t nshares, struct tsg_err *err)
{
	if (nshares == 0 || nshares > GPU_ARRIVAL_MAX_SHARES || share >= nshares ||
	    (leader ? npeers != 0 || share == 0 : npeers + 1 != nshares || share != 0))
		return tsg_fail(err, TSG_EINTERNAL, "arrival share %u of %u does not add up", share,
				nshares);
	g->ar_leader = leader;
	g->ar_npeers = npeers;
	for (uint32_t i = 0; i < npeers; i++)
		g->ar_peer[i] = peers[i];
	g->ar_share = share;
	g->ar_nshares = nshares;
	return TSG_OK;
}

/* Folds v into the hash h (gpu_ctx.ag_key): a check that ranks cut the
 * same groups, not a checksum of data. */
static uint64_t ag_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

/* Where batch j's rows start in group e's (its rows' end past the group). */
static uint64_t ag_row_at(const struct ar_group *e, const uint64_t *bound, uint32_t j)
{
	return j >= e->k1 || bound[j] >= e->hi ? e->rows : e->rs[bound[j] - e->lo];
}

/* TSG_ARRIVAL_GROUP_PROFILE: the launch just enqueued, waited for and
 * timed (filing, counting). */
static int ag_prof_take(struct gpu_ctx *g, int from_b, struct tsg_err *err)
{
	int rc = TSG_OK;
	float f = 0, k = 0;
	CK(cudaEventRecord(g->ag_pev[2], g->compute[1]), "recording an event");
	CK(cudaEventSynchronize(g->ag_pev[2]), "timing a pair launch");
	CK(cudaEventElapsedTime(&f, g->ag_pev[0], g->ag_pev[1]), "timing a pair launch");
	CK(cudaEventElapsedTime(&k, g->ag_pev[1], g->ag_pev[2]), "timing a pair launch");
	g->ag_prof_ms[2 * from_b] += f;
	g->ag_prof_ms[2 * from_b + 1] += k;
fail:
	return rc;
}

/* Counts the edges between region A and B whose tails lie in one region
 * (B: from_b), batches j0 .. j1-1 of group e (which lies there) as their
 * sources: a tally first (filing's first pass, read back: the host waits
 * for the device), then one launch where the records fit, as they mostly
 * do (a piece gets a fraction of a group's edges), so that each middle
 * row is tabled once for the pair, not once a launch; else (and with
 * TSG_ARRIVAL_GROUP_TALLY=0, for a bench) as many batches a launch as
 * their rows fit the records. On R-MAT 26 at a quarter the pairs'
 * counting took 3.47 s of the device's time cut by rows, 1.85 s tallied
 * (bench/RESULTS.md, session 38). */
static int ag_rounds(struct gpu_ctx *g, int from_b, const struct ar_group *e, uint32_t j0,
		     uint32_t j1, struct tsg_err *err)
{
	int rc = TSG_OK;
	dev_counters *cnt = (dev_counters *)g->dmem;
	if (!g->ag_tally)
		goto cut;
	CK(arrival_pair_tally(g->ar, from_b, g->ag_bound[j0], g->ag_bound[j1], g->sms, g->compute[1],
			      g->ag_total), "tallying a pair of groups");
	CK(cudaStreamSynchronize(g->compute[1]), "tallying a pair of groups");
	g->ag_tallies++;
	if (*g->ag_total <= g->ag_pair_cap) {
		if (*g->ag_total == 0)
			return TSG_OK;
		if (g->ag_prof)
			CK(cudaEventRecord(g->ag_pev[0], g->compute[1]), "recording an event");
		CK(arrival_pair_launch(g->ar, from_b, g->ag_bound[j0], g->ag_bound[j1],
				       g->tile ? g->tile : 1024, g->mid_hash_bits, cnt, g->sms,
				       g->compute[1], g->ag_prof ? g->ag_pev[1] : NULL, 1),
		   "launching a pair of groups");
		g->ag_rounds++;
		return g->ag_prof ? ag_prof_take(g, from_b, err) : TSG_OK;
	}
	g->ag_split++;
cut:
	for (uint32_t c0 = j0; c0 < j1;) {
		uint32_t c1 = c0 + 1;
		/* region A's own rows by its list entries, which bound them (its
		 * index is still on its way to the host); B's by its rows */
		uint64_t raw = g->ag_raw[c0];
		while (c1 < j1 && (from_b ? ag_row_at(e, g->ag_bound, c1 + 1) -
						    ag_row_at(e, g->ag_bound, c0)
					  : raw + g->ag_raw[c1]) <= g->ag_pair_cap)
			raw += g->ag_raw[c1++];
		if (g->ag_prof)
			CK(cudaEventRecord(g->ag_pev[0], g->compute[1]), "recording an event");
		CK(arrival_pair_launch(g->ar, from_b, g->ag_bound[c0], g->ag_bound[c1],
				       g->tile ? g->tile : 1024, g->mid_hash_bits, cnt, g->sms,
				       g->compute[1], g->ag_prof ? g->ag_pev[1] : NULL, 0),
		   "launching a pair of groups");
		if (g->ag_prof && (rc = ag_prof_take(g, from_b, err)))
			goto fail;
		g->ag_rounds++;
		c0 = c1;
	}
fail:
	return rc;
}

/* The rows the next group may take: region A, every group full. Groups
 * that shrink towards the end of the read (half of the rows still to
 * come, at least region A over TSG_ARRIVAL_GROUP_TAIL, a bench's knob)
 * were meant to leave the last group's pairs few, but each group copies
 * back every earlier row and pays a group end: on R-MAT 26 at a quarter
 * (H200, pinned ahead) full groups took 5.41-5.46 s warm against
 * 5.66-5.69 s at a half and 6.16 s at a quarter, and cold the same
 * median, 7.77 s, as a half (bench/RESULTS.md, session 39). At least two
 * batches. */
static uint64_t ag_target(const struct gpu_ctx *g)
{
	const uint64_t left = g->ag_ne > g->ag_rows ? g->ag_ne - g->ag_rows : 0;
	uint64_t t = left / 2, least = g->ar.cap_a / ag_env_div("TSG_ARRIVAL_GROUP_TAIL", 1);
	if (least < 2 * g->ar_max_e)
		least = 2 * g->ar_max_e;
	t = t < least ? least : t;
	return t < g->ar.cap_a ? t : g->ar.cap_a;
}

/* A group's host array of n bytes: from the arena, pinned ahead on its
 * thread, else (no room: the bound was short; or the thread failed) from
 * cudaMallocHost, counted in ag_arena_miss. */
static cudaError_t ag_host_alloc(struct gpu_ctx *g, void **p, uint64_t n)
{
	cudaError_t why = cudaSuccess;
	*p = NULL;
	if (g->ag_arena)
		pin_arena_take(g->ag_arena, n, p, &why, &g->ag_arena_wait_s);
	if (*p)
		return cudaSuccess;
	if (!g->ag_arena_why) /* the first fallback's reason, for the result */
		g->ag_arena_why = why != cudaSuccess ? cudaGetErrorString(why) : "no room left";
	g->ag_arena_miss++;
	return cudaHostAlloc(p, n ? n : 1, g->ar_npeers ? cudaHostAllocPortable : cudaHostAllocDefault);
}

/* A copy to or from a group's host array (the leader's ag_host_alloc's). */
static cudaError_t ag_copy(const struct gpu_ctx *g, void *dst, const void *src, uint64_t n,
			   cudaMemcpyKind kind, cudaStream_t s)
{
	const void *host = kind == cudaMemcpyHostToDevice ? src : dst;
	const struct pin_arena *arena = (g->ar_leader ? g->ar_leader : g)->ag_arena;
	if (n && pin_arena_holds(arena, host))
		return pin_arena_copy(arena, dst, src, n, kind, s);
	return cudaMemcpyAsync(dst, src, n, kind, s);
}

/* Ends the group of batches ag_first .. kend-1 (all submitted), in two
 * steps. ag_group_save: its rows and their index go to the host, where a
 * later group will read them (the leader's alone: on several devices the
 * others read the leader's; the last group's nowhere). ag_group_pairs:
 * unless count is 0, each earlier group's rows come back into region B a
 * piece at a time (on several devices every nshares-th piece, dealt from
 * the group's number on), and the edges between the piece and the group are
 * counted, both ways. All on the counting stream; region A is free again
 * (filed) once they are done. */
static int ag_group_save(struct gpu_ctx *g, uint32_t kend, struct tsg_err *err)
{
	int rc = TSG_OK;
	const cudaStream_t cs = g->compute[1];
	struct ar_group *gr = &g->ag[g->ag_n];
	const double t0 = host_now();
	double t1;
	gr->k0 = g->ag_first;
	gr->k1 = kend;
	gr->lo = g->ag_bound[gr->k0];
	gr->hi = g->ag_bound[kend];
	gr->end_at = t0 - g->ag_t0;
	const uint64_t nid = gr->hi - gr->lo;
	/* batch kend-1's fill mark: its copy is on the orienting stream (which
	 * may hold the next batch's list copies too, no more) */
	CK(cudaStreamSynchronize(g->compute[0]), "ending a group");
	t1 = host_now();
	g->ag_wait0_s += t1 - t0;
	gr->rows = g->ag_used[kend - 1];
	if (!g->ar_leader && kend < g->ar_nbatches) {
		CK(ag_host_alloc(g, (void **)&gr->adj, gr->rows * 4), "allocating a group's rows");
		CK(ag_host_alloc(g, (void **)&gr->rs, nid * 4), "allocating a group's rows");
		CK(ag_host_alloc(g, (void **)&gr->rl, nid * 4), "allocating a group's rows");
		g->ag_alloc_s += host_now() - t1;
		CK(ag_copy(g, gr->adj, g->ar.adj_a, gr->rows * 4, cudaMemcpyDeviceToHost, cs),
		   "saving a group's rows");
		CK(ag_copy(g, gr->rs, g->ar.rs_a, nid * 4, cudaMemcpyDeviceToHost, cs),
		   "saving a group's rows");
		CK(ag_copy(g, gr->rl, g->ar.rl_a, nid * 4, cudaMemcpyDeviceToHost, cs),
		   "saving a group's rows");
		CK(cudaEventRecord(g->ag_saved_ev[g->ag_n], cs), "recording an event");
		g->ag_saved += gr->rows * 4 + nid * 8;
	}
	g->ar.a_lo = gr->lo;
	g->ar.a_hi = gr->hi;
	gr->end_s = host_now() - t0;
	g->ag_end_s += gr->end_s;
fail:
	return rc;
}

/* Counts the edges between every earlier group, its rows back in region B
 * a piece at a time (on several devices every nshares-th piece, dealt
 * from the group's number on), and the current group's batches kf .. kt-1
 * in region A, both ways. Region A is narrowed to those batches' ids (its
 * bounds and index shifted) for the while and restored after: an edge
 * a -> b between the two needs out(a) and out(b) alone, so the group's
 * batches may be taken in two runs of them (ag_early) and every edge is
 * still counted once. On the counting stream, after the batches' own. */
static int ag_pieces_against(struct gpu_ctx *g, uint32_t kf, uint32_t kt, struct tsg_err *err)
{
	int rc = TSG_OK;
	const cudaStream_t cs = g->compute[1];
	const struct gpu_ctx *lead = g->ar_leader ? g->ar_leader : g;
	const uint32_t nshares = g->ar.nshares ? g->ar.nshares : 1;
	const uint64_t lo0 = g->ar.a_lo, hi0 = g->ar.a_hi;
	uint32_t *const rs0 = g->ar.rs_a, *const rl0 = g->ar.rl_a;
	const uint64_t shift = g->ag_bound[kf] - lo0;
	uint64_t piece = 0; /* every device cuts the same pieces */
	if (kf >= kt)
		return TSG_OK;
	g->ar.a_lo = g->ag_bound[kf];
	g->ar.a_hi = g->ag_bound[kt];
	g->ar.rs_a = rs0 + shift;
	g->ar.rl_a = rl0 + shift;
	for (uint32_t i = 0; i < g->ag_n; i++) {
		struct ar_group e = g->ag[i];
		const struct ar_group *saved = &lead->ag[i];
		if (saved->rows != e.rows || saved->lo != e.lo || saved->hi != e.hi) {
			rc = tsg_fail(err, TSG_EINTERNAL, "arrival groups: the devices' group %u differs",
				      i);
			goto fail;
		}
		e.adj = saved->adj;
		e.rs = saved->rs;
		e.rl = saved->rl;
		/* its index on the host (long done: a group's end ago) */
		CK(cudaEventSynchronize(lead->ag_saved_ev[i]), "saving a group's rows");
		for (uint32_t j0 = e.k0; j0 < e.k1;) {
			const uint64_t r0 = ag_row_at(&e, g->ag_bound, j0);
			uint32_t j1 = j0 + 1;
			while (j1 < e.k1 && ag_row_at(&e, g->ag_bound, j1 + 1) - r0 <= g->ar.cap_b &&
			       g->ag_bound[j1 + 1] - g->ag_bound[j0] <= g->ar.ids_b)
				j1++;
			/* dealt from the group's number on, so that a group end of
			 * few pieces does not fall on the leader each time */
			if ((piece++ + g->ag_n) % nshares != g->ar.share) { /* another device's */
				j0 = j1;
				continue;
			}
			const uint64_t r1 = ag_row_at(&e, g->ag_bound, j1);
			const uint64_t b_lo = g->ag_bound[j0], b_hi = g->ag_bound[j1];
			/* buffer u on the copy stream once its piece before is
			 * counted, counted once copied */
			const unsigned u = (unsigned)(g->ag_pieces++ % 2);
			const cudaStream_t cp = g->copy[0];
			CK(cudaStreamWaitEvent(cp, g->ag_free[u], 0), "waiting for a buffer");
			CK(ag_copy(g, g->ag_badj[u], e.adj + r0, (r1 - r0) * 4,
				   cudaMemcpyHostToDevice, cp), "copying a group's rows back");
			CK(ag_copy(g, g->ag_brs[u], e.rs + (b_lo - e.lo), (b_hi - b_lo) * 4,
				   cudaMemcpyHostToDevice, cp), "copying a group's rows back");
			CK(ag_copy(g, g->ag_brl[u], e.rl + (b_lo - e.lo), (b_hi - b_lo) * 4,
				   cudaMemcpyHostToDevice, cp), "copying a group's rows back");
			CK(cudaEventRecord(g->ag_in[u], cp), "recording an event");
			if (g->ag_prof) { /* the copy alone */
				const double t1 = host_now();
				CK(cudaEventSynchronize(g->ag_in[u]), "timing a piece's copy");
				g->ag_prof_ms[4] += 1000 * (host_now() - t1);
			}
			CK(cudaStreamWaitEvent(cs, g->ag_in[u], 0), "waiting for a piece");
			g->ag_copied += (r1 - r0) * 4 + (b_hi - b_lo) * 8;
			g->ar.adj_b = g->ag_badj[u];
			g->ar.rs_b = g->ag_brs[u];
			g->ar.rl_b = g->ag_brl[u];
			g->ar.b_lo = b_lo;
			g->ar.b_hi = b_hi;
			g->ar.b_base = (uint32_t)r0;
			if ((rc = ag_rounds(g, 0, NULL, kf, kt, err)) ||
			    (rc = ag_rounds(g, 1, &e, j0, j1, err)))
				goto fail;
			CK(cudaEventRecord(g->ag_free[u], cs), "recording an event");
			j0 = j1;
		}
	}
fail:
	g->ar.a_lo = lo0;
	g->ar.a_hi = hi0;
	g->ar.rs_a = rs0;
	g->ar.rl_a = rl0;
	return rc;
}

static int ag_group_pairs(struct gpu_ctx *g, int count, struct tsg_err *err)
{
	int rc = TSG_OK;
	const cudaStream_t cs = g->compute[1];
	struct ar_group *gr = &g->ag[g->ag_n];
	const double t0 = host_now();
	const uint64_t pieces0 = g->ag_pieces;
	/* the batches before ag_sub were counted against the earlier groups
	 * already (ag_early) */
	const uint32_t from = g->ag_sub > gr->k0 ? g->ag_sub : gr->k0;
	if (count && (rc = ag_pieces_against(g, from, gr->k1, err)))
		goto fail;
	/* region A starts over; the next batch's orientation waits for this */
	CK(cudaMemsetAsync(&g->ar.fill->used, 0, sizeof(g->ar.fill->used), cs), "clearing a group");
	CK(cudaEventRecord(g->ar_filed, cs), "recording an event");
	g->ag_rows += gr->rows;
	gr->end_s += host_now() - t0;
	gr->pieces = (uint32_t)(g->ag_pieces - pieces0);
	g->ag_n++;
	g->ag_key = ag_mix(ag_mix(g->ag_key, gr->k1), g->ag_sub);
	g->ag_first = g->ag_sub = gr->k1;
	g->ag_target = ag_target(g);
	g->ag_end_s += host_now() - t0;
	return TSG_OK;
fail:
	return rc;
}

/* TSG_ARRIVAL_GROUP_EARLY: once batch k is placed (and counted within its
 * group), where batch k + 1 is the knob's and not the last, the current
 * group's batches so far against the earlier groups, so that the last
 * group's end, which waits for the read's end, has fewer of its batches
 * left to count. Its cost: the earlier groups' rows come back twice, and
 * the batches' own counts wait on the counting stream meanwhile (free only
 * while the device waits on the read). One device alone. */
static int ag_early(struct gpu_ctx *g, uint32_t k, int count, struct tsg_err *err)
{
	int rc = TSG_OK;
	if (!g->ag_early_at || k + 1 != g->ag_early_at || k + 1 >= g->ar_nbatches ||
	    g->ag_n == 0 || g->ag_first > k || g->ar_leader || g->ar_npeers ||
	    (g->ar.nshares ? g->ar.nshares : 1) != 1)
		return TSG_OK;
	/* the group's end counts from here on whoever counts batch k: under
	 * mpirun batch k and the group's last may be other ranks' (count 0
	 * here), and the rank that ends the group must not count again what
	 * batch k's rank counted (a review's finding, session 48) */
	g->ag_sub = g->ag_early_batch = k + 1;
	if (!count)
		return TSG_OK;
	const double t0 = host_now(); /* (not on every batch: only where it acts) */
	const uint64_t pieces0 = g->ag_pieces;
	if ((rc = ag_pieces_against(g, g->ag_first, k + 1, err)))
		return rc;
	g->ag_early_pieces += g->ag_pieces - pieces0;
	g->ag_early_s += host_now() - t0;
	return TSG_OK;
}

/* Counts the pending unit of batches (if any) on the counting stream: the
 * edges its batches complete within their group, in one launch. A
 * batch's own launch tables each middle row it files under again, so
 * that the count's time grows with the launches: R-MAT 26 in one region
 * on an H200 took 3.11 s of device time in 241 batches against 2.14 s in
 * 32 (bench/RESULTS.md, session 52), and groups cut the batches small
 * (arrival_group_plan) so that a group holds many. */
static int ag_unit_flush(struct gpu_ctx *g, struct tsg_err *err)
{
	int rc = TSG_OK;
	if (!g->ag_unit_raw)
		return TSG_OK;
	CK(arrival_unit_launch(g->ar, g->ag_unit_lo, g->ag_unit_hi, g->tile ? g->tile : 1024,
			       g->mid_hash_bits, (dev_counters *)g->dmem, g->sms, g->compute[1]),
	   "launching a unit of batches");
	g->ag_units += g->ag_unit_hi > g->ag_unit_lo; /* (a unit of empty batches launches nothing) */
	g->ag_unit_raw = 0;
fail:
	return rc;
}

/* A batch (ids lo .. lo+nbv-1, entries list entries), placed, joins the
 * pending unit, or starts one; the unit is counted at once where the
 * largest batch would not fit beside it: its records, at most its list
 * entries, must fit the record region (ag_pair_cap, which holds a batch). */
static int ag_unit_add(struct gpu_ctx *g, uint64_t lo, uint32_t nbv, uint64_t entries,
		       struct tsg_err *err)
{
	if (!g->ag_unit_raw)
		g->ag_unit_lo = lo;
	g->ag_unit_hi = lo + nbv;
	g->ag_unit_raw += entries ? entries : 1;
	return g->ag_unit_raw + g->ar_max_e > g->ag_pair_cap ? ag_unit_flush(g, err) : TSG_OK;
}

/* Groups: whether batch k (entries list entries, ids lo .. lo+nbv-1)
 * still fits the current group, by what is known of it without waiting
 * for the device's last batches: the fill mark two batches back, and the
 * list entries since, which bound their rows; where that says no, the
 * fill mark one batch back (deterministic either way: the rows placed,
 * not when). On several devices the
 * leader decides (staged first) and the others follow, so that their
 * groups are the same by construction and they do not wait for their own
 * fill marks. */
static int ag_fits(struct gpu_ctx *g, uint32_t k, uint64_t lo, uint32_t nbv, uint64_t entries,
		   int *fits, struct tsg_err *err)
{
	int rc = TSG_OK;
	uint64_t rows = entries;
	const bool ids = lo + nbv - g->ar.a_lo <= g->ar.ids_a;
	const uint64_t room = g->ag_target < g->ar.cap_a ? g->ag_target : g->ar.cap_a;
	if (g->ar_leader) {
		const struct gpu_ctx *lead = g->ar_leader;
		if (!lead->ar_st.on || lead->ar_st.k != k)
			return tsg_fail(err, TSG_EINTERNAL, "arrival batch %u staged on a device "
					"before the leader", k);
		*fits = !lead->ar_st.pairs;
		return TSG_OK;
	}
	if (k >= 1 && k - 1 >= g->ag_first)
		rows += g->ag_raw[k - 1];
	if (k >= 2 && k - 2 >= g->ag_first) {
		const double t0 = host_now();
		/* batch k - 2's fill mark, copied on the orienting stream: not
		 * its end on the counting stream, which may hold a unit's count */
		CK(cudaEventSynchronize(g->ag_fill_ev[k % 2]), "reading a group's fill");
		g->ag_fit_wait_s += host_now() - t0;
		rows += g->ag_used[k - 2];
	}
	*fits = rows <= room && ids;
	/* batch k - 1 bounded by its entries (about twice its rows) says no:
	 * its rows as placed instead, once its place is done (a wait on the
	 * orienting stream where the bound says no: about once or twice a
	 * group), so that a group ends a batch later and fuller rather than a
	 * group more */
	if (!*fits && ids && k >= 1 && k - 1 >= g->ag_first) {
		const double t0 = host_now();
		CK(cudaEventSynchronize(g->ag_fill_ev[(k - 1) % 2]), "reading a group's fill");
		g->ag_fit_wait_s += host_now() - t0;
		*fits = entries + g->ag_used[k - 1] <= room;
	}
fail:
	return rc;
}

extern "C" int gpu_arrival_stage(struct gpu_ctx *g, uint32_t k, uint64_t lo, uint32_t nbv,
				 const uint64_t *off, int count, int *pairs, struct tsg_err *err)
{
	int rc = TSG_OK;
	const cudaStream_t s = g->compute[0];
	const uint64_t entries = off[nbv] - off[0];
	uint64_t *offs = g->ar_offs[k % 2];
	*pairs = 0;
	if (g->ar_st.on || k >= g->ar_nbatches || nbv > g->ar_max_v || entries > g->ar_max_e ||
	    (g->ar_src.at ? entries != g->ar_at[k + 1] - g->ar_at[k] : off[0] != g->ar_at[k]))
		return tsg_fail(err, TSG_EINTERNAL, "arrival batch %u does not match its plan", k);
	if (!g->ar_src.at) /* placed as decoded: batch k + 1 starts where k ends */
		g->ar_at[k + 1] = off[nbv];
	CK(cudaSetDevice(g->device), "selecting the device");
	{ /* both waits before the batch's start is recorded: host time, not
	   * the device's */
		const double tw = host_now();
		const cudaError_t he = g->ar_leader ? cudaSuccess : ar_hold_back(g, k);
		const cudaError_t we = cudaEventSynchronize(g->ar_offs_free[k % 2]);
		g->ar_wait_s += host_now() - tw;
		CK(he, "giving back a batch's pages");
		CK(we, "waiting for a staging buffer");
	}
	memcpy(offs, off, ((size_t)nbv + 1) * 8);
	CK(cudaEventRecord(g->ar_ev[3 * k], s), "recording an event");
	CK(cudaMemcpyAsync(g->ar.off, offs, ((size_t)nbv + 1) * 8, cudaMemcpyHostToDevice, s),
	   "copying a batch's offsets");
	CK(cudaEventRecord(g->ar_offs_free[k % 2], s), "recording an event");
	rc = ar_copy_lists(g, k, s, err);
	if (rc)
		goto fail;
	CK(cudaEventRecord(g->ar_ev[3 * k + 1], s), "recording an event");
	g->ar_st.k = k;
	g->ar_st.lo = lo;
	g->ar_st.nbv = nbv;
	g->ar_st.entries = entries;
	g->ar_st.count = count;
	g->ar_st.pairs = 0;
	g->ar_st.on = 1;
	if (g->ar.grouped) {
		g->ag_bound[k] = lo;
		g->ag_bound[k + 1] = lo + nbv;
		g->ag_raw[k] = entries;
		int fits = 0;
		if (k == 0) {
			g->ar.a_lo = lo;
			g->ag_target = ag_target(g);
		} else if ((rc = ag_fits(g, k, lo, nbv, entries, &fits, err))) {
			goto fail;
		}
		/* the last batch ends the last group in its second step */
		g->ar_st.pairs = k > 0 && !fits;
		/* a group that ends at the last batch is saved here, before any
		 * device's second step: there the last group's pieces read it
		 * back (the leader's save in its second step would race the
		 * others' reads; a review's finding, session 41) */
		if (g->ar_st.pairs && k + 1 == g->ar_nbatches && (rc = ag_group_save(g, k, err)))
			goto fail;
		*pairs = g->ar_st.pairs || k + 1 == g->ar_nbatches;
	}
	return TSG_OK;
fail:
	return rc;
}

extern "C" int gpu_arrival_finish(struct gpu_ctx *g, struct tsg_err *err)
{
	int rc = TSG_OK;
	const cudaStream_t s = g->compute[0];
	dev_counters *cnt = (dev_counters *)g->dmem;
	const uint32_t k = g->ar_st.k, nbv = g->ar_st.nbv;
	const uint64_t lo = g->ar_st.lo, entries = g->ar_st.entries;
	const int count = g->ar_st.count;
	if (!g->ar_st.on)
		return tsg_fail(err, TSG_EINTERNAL, "arrival batch finished but not staged");
	g->ar_st.on = 0;
	CK(cudaSetDevice(g->device), "selecting the device"); /* maybe on a thread of its own */
	if (g->ar.grouped) {
		/* a unit holds consecutive counted batches of one group. A
		 * device that counts only some batches (mpirun deals them among
		 * the ranks) counts each alone from the first it does not count
		 * on: its units would hold one batch each, and a unit re-reads
		 * region A's rows so far where a batch's own filing reads its
		 * rows and in-edges (a review's finding, session 52). (Batches
		 * a checkpoint holds come uncounted too, but groups take no
		 * checkpoint: src/pipeline_gpu.c.) */
		if (!count)
			g->ag_units_on = 0;
		const int unit = g->ag_units_on && count;
		if ((g->ar_st.pairs || !unit) && (rc = ag_unit_flush(g, err)))
			goto fail;
		/* the group's end here, on the device's own thread where several
		 * count at once: its save waits for the device */
		if (g->ar_st.pairs) {
			/* (saved in the first step where k is the last batch) */
			if ((k + 1 < g->ar_nbatches && (rc = ag_group_save(g, k, err))) ||
			    (rc = ag_group_pairs(g, count, err)))
				goto fail;
			g->ar.a_lo = lo;
		}
		CK(arrival_group_launch(g->ar, lo, nbv, entries, k, count, unit,
					g->tile ? g->tile : 1024, g->mid_hash_bits, cnt, g->sms, s,
					g->compute[1], g->ar_placed, g->ar_filed, &g->ag_used[k]),
		   "launching the arrival count");
		/* batch k's fill mark copied (ag_fits reads it one or two batches on) */
		CK(cudaEventRecord(g->ag_fill_ev[k % 2], s), "recording an event");
		if (unit && (rc = ag_unit_add(g, lo, nbv, entries, err)))
			goto fail;
		if (k + 1 == g->ar_nbatches && (rc = ag_unit_flush(g, err)))
			goto fail;
		if ((rc = ag_early(g, k, count, err)))
			goto fail;
		if (k + 1 == g->ar_nbatches &&
		    ((rc = ag_group_save(g, k + 1, err)) || (rc = ag_group_pairs(g, count, err))))
			goto fail;
	} else {
		CK(arrival_launch(g->ar, lo, nbv, entries, k, count, g->tile ? g->tile : 1024,
				  g->mid_hash_bits, cnt, g->sms, s, g->compute[1], g->ar_placed,
				  g->ar_filed),
		   "launching the arrival count");
	}
	CK(cudaMemcpyAsync(&g->ar_cum[k], &cnt->triangles, sizeof(uint64_t), cudaMemcpyDeviceToHost,
			   g->compute[1]), "reading the count");
	CK(cudaEventRecord(g->ar_ev[3 * k + 2], g->compute[1]), "recording an event");
	g->ar_bytes += ((uint64_t)nbv + 1) * 8 + entries * 4;
	/* the leader unpins the ranges whose batches every device has copied
	 * (the others' copies of batch k are staged before this call) and
	 * pins the next ones before the file reaches them */
	if (g->ar_leader)
		return TSG_OK;
	{
		uint32_t upto = g->ar_released;
		while (upto < k && ar_copied(g, upto))
			upto++;
		CK(ar_release_upto(g, upto), "unpinning a batch's lists");
	}
	if (g->ar_src.pin_ahead) {
		ar_pin(g, k + 1);
		ar_pin(g, k + 2);
	}
	return TSG_OK;
fail:
	return rc;
}

extern "C" int gpu_arrival_submit(struct gpu_ctx *g, uint32_t k, uint64_t lo, uint32_t nbv,
				  const uint64_t *off, int count, struct tsg_err *err)
{
	int pairs = 0;
	const int rc = gpu_arrival_stage(g, k, lo, nbv, off, count, &pairs, err);
	return rc ? rc : gpu_arrival_finish(g, err);
}

extern "C" int gpu_arrival_poll(struct gpu_ctx *g, uint32_t from, uint32_t upto, int wait,
				uint32_t *ndone, const uint64_t **cum, struct tsg_err *err)
{
	int rc = TSG_OK;
	uint32_t k = from;
	*cum = g->ar_cum;
	for (; k < upto && k < g->ar_nbatches; k++) {
		const cudaEvent_t ev = g->ar_ev[3 * k + 2];
		if (wait) {
			CK(cudaEventSynchronize(ev), "counting a batch");
			continue;
		}
		const cudaError_t q = cudaEventQuery(ev);
		if (q == cudaErrorNotReady) {
			(void)cudaGetLastError(); /* not ready is no error */
			break;
		}
		CK(q, "counting a batch");
	}
fail:
	*ndone = k;
	return rc;
}

extern "C" int gpu_arrival_end(struct gpu_ctx *g, uint64_t *per_batch, float *per_ms,
			       struct gpu_arrival_result *res, struct tsg_err *err)
{
	int rc = TSG_OK;
	arrival_fill fill = {};
	const double entered = host_now();
	*res = (struct gpu_arrival_result){};
	CK(ar_sync(g), "counting the batches");
	CK(cudaMemcpy(&fill, g->ar.fill, sizeof(fill), cudaMemcpyDeviceToHost), "reading the rows");
	res->count = g->ar_nbatches ? g->ar_cum[g->ar_nbatches - 1] : 0;
	res->rows = g->ar.grouped ? g->ag_rows : fill.used;
	res->groups = g->ar.grouped ? g->ag_n : 0;
	res->group_rows = g->ar.grouped ? g->ar.cap_a : 0;
	res->rows_back_bytes = g->ag_copied;
	res->rows_out_bytes = g->ag_saved;
	res->pair_launches = g->ag_rounds;
	res->pair_tallies = g->ag_tallies;
	res->pair_split = g->ag_split;
	res->unit_launches = g->ag_units;
	res->early_batch = g->ar.grouped ? g->ag_early_batch : 0;
	res->early_pieces = g->ar.grouped ? g->ag_early_pieces : 0;
	res->groups_key = g->ar.grouped ? ag_mix(g->ag_key, g->ag_n) : 0;
	res->group_end_s = g->ag_end_s;
	res->rows_alloc_s = g->ag_alloc_s;
	res->rows_alloc_fallbacks = g->ag_arena_miss;
	res->rows_alloc_why = g->ag_arena_miss ? g->ag_arena_why : NULL;
	if (g->ar.grouped && g->ag_times) /* bench/ only: on stderr */
		fprintf(stderr, "groups profile: A's sources file %.1f ms count %.1f ms; B's sources "
			"file %.1f ms count %.1f ms; copies %.1f ms; %llu launches, %llu tallies, %llu "
			"split; group ends %.1f ms, of them pinned allocations %.1f ms (the arena's "
			"wait %.1f ms, %u not from it), first waits %.1f ms; waits for a fill mark %.1f ms; "
			"the batches' waits %.1f ms, pinning %.1f ms\n",
			g->ag_prof_ms[0], g->ag_prof_ms[1], g->ag_prof_ms[2], g->ag_prof_ms[3],
			g->ag_prof_ms[4], (unsigned long long)g->ag_rounds,
			(unsigned long long)g->ag_tallies, (unsigned long long)g->ag_split,
			1000 * g->ag_end_s, 1000 * g->ag_alloc_s, 1000 * g->ag_arena_wait_s,
			g->ag_arena_miss, 1000 * g->ag_wait0_s, 1000 * g->ag_fit_wait_s,
			1000 * g->ar_wait_s, 1000 * g->ar_pin_s);
	for (uint32_t i = 0; g->ar.grouped && g->ag_times && i < g->ag_n; i++)
		fprintf(stderr, "group %u: batches %u-%u, %llu rows of %llu, %llu ids of %llu, ended "
			"at %.3f s for %.3f s, %u pieces back\n", i, g->ag[i].k0, g->ag[i].k1 - 1,
			(unsigned long long)g->ag[i].rows, (unsigned long long)g->ar.cap_a,
			(unsigned long long)(g->ag[i].hi - g->ag[i].lo),
			(unsigned long long)g->ar.ids_a, g->ag[i].end_at, g->ag[i].end_s,
			g->ag[i].pieces);
	if (g->ar.grouped && g->ag_times && g->ag_early_batch)
		fprintf(stderr, "early rounds: batches before %u against the earlier groups, %llu "
			"pieces back, %.3f s on the host\n", g->ag_early_batch,
			(unsigned long long)g->ag_early_pieces, g->ag_early_s);
	if (g->ar.grouped && g->ag_times)
		fprintf(stderr, "groups: gpu_arrival_end at %.3f s, the count read back at %.3f s\n",
			entered - g->ag_t0, host_now() - g->ag_t0);
	res->overflow = fill.overflow != 0;
	/* a batch's time: from its start, or the end of the batch before
	 * where that came later (their steps overlap: arrival_launch), to its
	 * end; so the device's time is counted once */
	for (uint32_t k = 0; k < g->ar_nbatches; k++) {
		float start = 0, end = 0, before = 0;
		CK(cudaEventElapsedTime(&start, g->ar_ev[0], g->ar_ev[3 * k]), "timing a batch");
		CK(cudaEventElapsedTime(&end, g->ar_ev[0], g->ar_ev[3 * k + 2]), "timing a batch");
		if (k)
			CK(cudaEventElapsedTime(&before, g->ar_ev[0], g->ar_ev[3 * k - 1]),
			   "timing a batch");
		const float from = before > start ? before : start;
		per_batch[k] = g->ar_cum[k] - (k ? g->ar_cum[k - 1] : 0);
		per_ms[k] = end > from ? end - from : 0;
		res->device_ms += per_ms[k];
	}
	res->bytes = g->ar_bytes + g->ag_copied;
	res->pinned_bytes = g->ar_pinned;
	res->list_bytes = g->ar_listb;
fail: {
	const cudaError_t re = arrival_release(g);
	res->pin_s = g->ar_pin_s;
	res->unpin_s = g->ar_unpin_s; /* the release's unpinning too */
	res->wait_s = g->ar_wait_s;
	res->locked_most = g->ar_locked_most;
	if (rc == TSG_OK && re != cudaSuccess)
		rc = cuda_fail(err, re, "releasing the pinned lists");
}
	if (g->ag_times)
		fprintf(stderr, "groups arena: pinned on its thread %.3f s, given back %.3f s\n",
			g->ag_arena_pin_s, g->ag_arena_unpin_s);
	g->ag_times = 0;
	g->ar_leader = NULL; /* a later run is on its own unless shared again */
	g->ag_on = 0;        /* and without groups unless asked again */
	g->ar_npeers = 0;
	g->ar_share = 0;
	g->ar_nshares = 1;
	return rc;
}
