/*
 * gpu.h - the GPU backend, callable from C.
 *
 * A gpu_ctx owns one device and one device allocation of the whole budget
 * (--gpu-mem), carved into two partition slots, so the run never calls
 * cudaMalloc per partition and never exceeds the budget. A partition lies
 * in pinned host memory (gpu_host_alloc) or ordinary memory (copied through
 * pinned staging buffers); it is submitted to a slot
 * (copy stream: host-to-device; compute stream: kernel, after an event), and
 * collected later: while slot 0 counts, slot 1 copies, and the host builds
 * the next partition. Every CUDA call is checked; failures are
 * TSG_EDEVICE (or TSG_ENOMEM for device memory) with CUDA's message.
 */
#ifndef KERN_GPU_H
#define KERN_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "dag.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gpu_kernel {
	GPU_KERNEL_LSTC,       /* LSTC Algorithm 3 with a measured-best tile (1024): default */
	GPU_KERNEL_LSTC_PAPER, /* LSTC Algorithm 3 as published: tile 128 */
	GPU_KERNEL_LSTC_HASH,  /* hashed N(a), degree buckets, persistent warps */
	GPU_KERNEL_MID_HASH,   /* wedges checked at their middle vertex: hashed N(b) */
	GPU_KERNEL_COUNT_
};

#define GPU_SLOTS 2
/* Pinned staging for copies from ordinary memory: buffers and their size. */
#define GPU_STAGE_BUFS 3
#define GPU_STAGE_BYTES (64ull << 20)

struct gpu_ctx;

struct gpu_timing {
	double h2d_ms, kernel_ms; /* from CUDA events */
	uint64_t bytes;
};

int gpu_kernel_parse(const char *s, enum gpu_kernel *out);
const char *gpu_kernel_name(enum gpu_kernel k);

/* Device scratch kernel k needs beyond the rows it counts (dag.h); the
 * planners add it to each unit or part. */
struct tsg_scratch gpu_kernel_scratch(enum gpu_kernel k);
#define GPU_SLOT_OVERHEAD 4096u

/* Tile width (64 .. 16384, power of two): ids per shared tile for the LSTC
 * kernels, table slots per warp for mid-hash (256 .. 4096); 0 restores each
 * kernel's default (lstc 1024, lstc-paper 128, mid-hash 1024). */
int gpu_set_tile(struct gpu_ctx *g, unsigned tile);

/* Opens device `index` with `budget` bytes (0: free memory minus a reserve).
 * *slot_bytes receives what one partition slot may hold. */
int gpu_open(int index, uint64_t budget, struct gpu_ctx **out, uint64_t *slot_bytes,
	     struct tsg_err *err);
void gpu_close(struct gpu_ctx *g);
void gpu_drain(struct gpu_ctx *g); /* waits for all work on the device */
const char *gpu_device_name(const struct gpu_ctx *g);
uint64_t gpu_budget(const struct gpu_ctx *g);

/* How copies from ordinary host memory fill a pinned staging buffer: the
 * engine passes a multi-threaded memcpy (the default is memcpy). */
typedef void (*gpu_copy_fn)(void *ctx, void *dst, const void *src, size_t bytes);
void gpu_set_host_copy(struct gpu_ctx *g, gpu_copy_fn fn, void *ctx);

/* Pinned host memory, NULL on failure; callable from any host thread. */
void *gpu_host_alloc(struct gpu_ctx *g, size_t bytes);
void gpu_host_free(struct gpu_ctx *g, void *p);

/* Enqueues copy and count of d (whose arrays lie in one block starting at
 * d->off) into slot s. From pinned memory it returns at once; from ordinary
 * memory it returns once the last staging buffer is filled. */
int gpu_submit(struct gpu_ctx *g, int s, const struct tsg_dag *d, enum gpu_kernel k,
	       struct tsg_err *err);
/* The same for a 2D unit: copies its middle rows and, unless nested, its
 * source rows from the whole DAG (pinned or ordinary memory, as above). */
int gpu_submit_unit(struct gpu_ctx *g, int s, const struct tsg_unit *u, enum gpu_kernel k,
		    struct tsg_err *err);
/* Waits for slot s and returns its count and timings. */
int gpu_collect(struct gpu_ctx *g, int s, uint64_t *count, struct gpu_timing *t,
		struct tsg_err *err);

/*
 * The arrival layout (partition/arrival.h): every oriented row stays on the
 * device, appended batch by batch in the order the file is read, and each
 * batch's edges are counted as it comes (kernels/arrival.cu). It takes the
 * whole budget; the slots above are not used meanwhile.
 *
 * A batch is staged by the host in a pinned buffer: nbv vertex records, then
 * at gpu_batch_rows_at(nbv) the rows (each row_len ids at row_off), then at
 * gpu_batch_ins_at(nbv, row entries) the in lists (in_len ids at in_off).
 */
struct gpu_batch_vertex {
	uint32_t rank, row_len, in_len, pad;
	uint64_t row_off, in_off; /* ids from the start of the rows, of the in lists */
};

static inline uint64_t gpu_batch_rows_at(uint64_t nbv) { return (nbv * 32 + 255) & ~255ull; }
static inline uint64_t gpu_batch_ins_at(uint64_t nbv, uint64_t row_entries)
{
	return (gpu_batch_rows_at(nbv) + row_entries * 4 + 255) & ~255ull;
}

/* Device bytes the arrival layout needs: nv vertices, ne oriented edges,
 * batches of at most max_entries list entries and max_vertices vertices;
 * 0 if it cannot take them at all (a batch past 32-bit record counts). */
uint64_t gpu_arrival_bytes(uint64_t nv, uint64_t ne, uint64_t max_entries, uint64_t max_vertices);
/* Sets up the resident rows (batch_of: rank -> batch, nv entries) and two
 * pinned staging buffers. */
int gpu_arrival_begin(struct gpu_ctx *g, uint64_t nv, uint64_t ne, uint32_t nbatches,
		      uint64_t max_entries, uint64_t max_vertices, const uint32_t *batch_of,
		      struct tsg_err *err);
/* Staging buffer i (0 or 1), once the device has finished copying from it. */
int gpu_arrival_stage(struct gpu_ctx *g, int i, void **mem, struct tsg_err *err);
/* Copies batch k from staging buffer i and enqueues its count. */
int gpu_arrival_submit(struct gpu_ctx *g, int i, uint32_t k, uint32_t nbv, uint64_t row_entries,
		       uint64_t in_entries, struct tsg_err *err);
/* Waits for every batch: the total; each batch's count and device time
 * (copies and kernels; nbatches of each); their sum; the bytes copied. */
int gpu_arrival_end(struct gpu_ctx *g, uint64_t *count, uint64_t *per_batch, float *per_ms,
		    double *device_ms, uint64_t *bytes, struct tsg_err *err);

#ifdef __cplusplus
}
#endif

#endif
