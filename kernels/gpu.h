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

#include "kernels/dag.h"
#include "base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gpu_kernel {
	GPU_KERNEL_LSTC,       /* LSTC Algorithm 3, measured-best tile (1024): lstc layout's default */
	GPU_KERNEL_LSTC_PAPER, /* LSTC Algorithm 3 as published: tile 128 */
	GPU_KERNEL_LSTC_HASH,  /* hashed N(a), degree buckets, persistent warps */
	GPU_KERNEL_MID_HASH,   /* wedges checked at their middle vertex: hashed N(b) */
	GPU_KERNEL_TRUST,      /* TRUST: bucketed N(a), warp or CTA by degree */
	GPU_KERNEL_AUTO,       /* a choice per unit (kernels/choose.h); resolved
				* by the engine, never submitted */
	/* after auto so that the values above (a checkpoint's key holds
	 * them) stay as they were */
	GPU_KERNEL_FASTTC,     /* Fast TC: binary search, N(a) prefetched to shared */
	GPU_KERNEL_SKIFF,      /* Skiff: lock-free hopscotch tables, --cta-policy */
	GPU_KERNEL_EDGE_MERGE, /* a thread per edge, sorted lists merged */
	GPU_KERNEL_COUNT_
};

/* Skiff's CTA thread organisations (kernels/skiff.cu). */
enum gpu_cta_policy {
	GPU_CTA_BLOCK_DEGREE, /* the default */
	GPU_CTA_BLOCK_INDEX,
	GPU_CTA_WARP_INDEX,
	GPU_CTA_COUNT_
};

#define GPU_SLOTS 2
/* Pinned staging for copies from ordinary memory: buffers and their size. */
#define GPU_STAGE_BUFS 3
#define GPU_STAGE_BYTES (64ull << 20)

struct gpu_ctx;

struct gpu_timing {
	double h2d_ms, kernel_ms; /* from CUDA events */
	uint64_t bytes;
	uint64_t ahead_bytes;     /* of them, rows copied ahead (gpu_resident_ahead) */
	uint64_t kept_bytes;      /* source rows read from the slot, not copied
				   * (gpu_keep_sources): not in bytes */
	enum gpu_kernel ran;      /* the kernel that counted: the one asked for, or
				   * lstc where mid-hash cannot take the unit (a
				   * source side of 2^32 - 2^24 entries or more) */
};

int gpu_kernel_parse(const char *s, enum gpu_kernel *out);
const char *gpu_kernel_name(enum gpu_kernel k);
int gpu_cta_policy_parse(const char *s, enum gpu_cta_policy *out);
const char *gpu_cta_policy_name(enum gpu_cta_policy p);

/* Device scratch kernel k needs beyond the rows it counts (dag.h), with
 * per-vertex counts (pv) or without; the planners add it to each unit or
 * part. */
struct tsg_scratch gpu_kernel_scratch(enum gpu_kernel k, int pv);
#define GPU_SLOT_OVERHEAD 4096u

/* Tile width (64 .. 16384, power of two): ids per shared tile for the LSTC
 * kernels, table slots per warp for mid-hash (256 .. 4096); 0 restores each
 * kernel's default (lstc 1024, lstc-paper 128, mid-hash 1024). */
int gpu_set_tile(struct gpu_ctx *g, unsigned tile);

/* The CTA policy skiff runs under from now on (default block-degree). */
void gpu_set_cta_policy(struct gpu_ctx *g, enum gpu_cta_policy p);

/* From now on gpu_submit counts each part's K-cliques (kernels/clique.h,
 * kernels/clique.cu) as c says (method, scheme and group resolved)
 * instead of its triangles, and its kernel argument is ignored; c NULL or
 * K <= 3 restores triangles. A count past 2^64 - 1 makes gpu_collect fail
 * with TSG_EOVERFLOW. */
struct kern_clique_gpu;
void gpu_set_clique(struct gpu_ctx *g, const struct kern_clique_gpu *c);
/* With c->all (every clique size, pivoting): room for len sizes a part
 * (its longest out-list + 2 at most), in pinned host memory; call after
 * gpu_set_clique and before the first gpu_submit. gpu_collect_sizes adds
 * slot s's counts into sizes[0 .. len - 1] (size j at j - 1), after its
 * gpu_collect; TSG_EOVERFLOW where a sum passes 2^64 - 1. */
int gpu_clique_sizes(struct gpu_ctx *g, uint64_t len, struct tsg_err *err);
int gpu_collect_sizes(struct gpu_ctx *g, int s, uint64_t *sizes, uint64_t len,
		      struct tsg_err *err);

/* Opens device `index` with `budget` bytes (0: free memory minus a reserve,
 * read again where another process took memory before it was allocated:
 * gpu_budget_rereads).
 * *slot_bytes receives what one partition slot may hold. pv_vertices > 0
 * keeps per-vertex counts for that many vertices (8 bytes each, taken from
 * the budget first, zeroed): every count that follows adds to them, by
 * global id (kernels/dag.h), and only mid-hash runs (gpu_submit* fail for a
 * unit it cannot take). */
/* Creates device `index`'s primary context (the CUDA runtime's start-up,
 * about 0.3 s), so that a later gpu_open finds it made. Safe on any
 * thread; errors are left for gpu_open to report. */
void gpu_prewarm(int index);

/* CUDA devices present (0 where none is usable). */
int gpu_device_count(void);
/* Device `index`'s memory in bytes (0 where it cannot be asked); asks the
 * runtime, not the device's context, which it does not make. */
uint64_t gpu_device_memory(int index);

/* Each call below selects its context's device on the calling thread, so
 * contexts of several devices may be driven from several host threads
 * (one thread a context at a time). */
int gpu_open(int index, uint64_t budget, uint64_t pv_vertices, struct gpu_ctx **out,
	     uint64_t *slot_bytes, struct tsg_err *err);
/* Waits for the device and copies the per-vertex counts to host (pv_vertices). */
int gpu_pv_fetch(struct gpu_ctx *g, uint64_t *host, struct tsg_err *err);
void gpu_close(struct gpu_ctx *g);
/* Waits for all work on the device; a device fault found there is
 * TSG_EDEVICE with the CUDA error named. */
int gpu_drain(struct gpu_ctx *g, struct tsg_err *err);
const char *gpu_device_name(const struct gpu_ctx *g);
int gpu_device_index(const struct gpu_ctx *g);
int gpu_sms(const struct gpu_ctx *g); /* its multiprocessors */
uint64_t gpu_budget(const struct gpu_ctx *g);
/* How often a default budget (gpu_open's budget 0) was read again from
 * the memory free, as its allocation failed: another process on the card
 * took memory between the read and the allocation. 0 normally. */
unsigned gpu_budget_rereads(const struct gpu_ctx *g);

/* How copies from ordinary host memory fill a pinned staging buffer: the
 * engine passes a multi-threaded memcpy (the default is memcpy). */
typedef void (*gpu_copy_fn)(void *ctx, void *dst, const void *src, size_t bytes);
void gpu_set_host_copy(struct gpu_ctx *g, gpu_copy_fn fn, void *ctx);

/* Allocates the pinned staging buffers now rather than at the first copy
 * from ordinary memory (which nothing else hides); a no-op once done. */
int gpu_stage_reserve(struct gpu_ctx *g, struct tsg_err *err);

/* Pinned host memory, NULL on failure; callable from any host thread. */
void *gpu_host_alloc(struct gpu_ctx *g, size_t bytes);
void gpu_host_free(struct gpu_ctx *g, void *p);

/* Enqueues copy and count of d (whose arrays lie in one block starting at
 * d->off) into slot s. From pinned memory it returns at once; from ordinary
 * memory it returns once the last staging buffer is filled. */
int gpu_submit(struct gpu_ctx *g, int s, const struct tsg_dag *d, enum gpu_kernel k,
	       struct tsg_err *err);
/*
 * One k-clique part (gpu_set_clique first; no per-vertex counts) held on
 * the device so that pieces of its sources are counted one launch each
 * (src/clique_share.h): gpu_clique_hold copies d (one block at d->off, as
 * gpu_submit takes it) to the start of slot 0 and waits for the copy, or
 * fails as gpu_submit would where the part and the least clique scratch
 * do not fit a slot. gpu_clique_submit_sources then enqueues, on slot s,
 * the count of the K-cliques whose lowest vertex is one of the sources
 * d->src[lo .. hi-1] (slot 0's launch takes the room after the part, slot
 * 1's all of its own); gpu_collect takes it as any slot's. Over pieces
 * that cover 0 .. nsrc-1 the counts sum to the part's. gpu_clique_release
 * forgets the part (after the last collect) and gives its copy's time and
 * bytes (NULL: not asked).
 */
int gpu_clique_hold(struct gpu_ctx *g, const struct tsg_dag *d, struct tsg_err *err);
int gpu_clique_submit_sources(struct gpu_ctx *g, int s, uint32_t lo, uint32_t hi,
			      struct tsg_err *err);
void gpu_clique_release(struct gpu_ctx *g, double *copy_ms, uint64_t *bytes);
/* The same for a 2D unit: copies its middle rows and, unless nested, its
 * source rows from the whole DAG (pinned or ordinary memory, as above). */
int gpu_submit_unit(struct gpu_ctx *g, int s, const struct tsg_unit *u, enum gpu_kernel k,
		    struct tsg_err *err);
/* From now on (on = 1) each slot keeps the source rows of the last unit
 * gpu_submit_unit copied into it, and a later unit in that slot with the
 * same source block over the same host DAG reads them there instead of
 * copying them again (its timing's kept_bytes); on = 0 forgets them.
 * Why: a plan's units walk each source block's middle ranges in turn, and
 * a quarter of R-MAT 26's file of GPU memory moved 79 GB for a 4.5 GB DAG,
 * the copies outlasting the kernels (bench/RESULTS.md). The caller keeps
 * the host DAG's rows unchanged meanwhile and turns it off before another
 * count reuses the slots. */
void gpu_keep_sources(struct gpu_ctx *g, int on);
/* Units read one copy of the graph on the device from now on, where it
 * fits: units[0 .. n-1] are a plan's units over one whole DAG (their off and
 * adj), kernels[i] (or k where kernels is NULL) what each runs. If the
 * DAG and two slots of the largest unit's kernel scratch fit the budget,
 * the slots shrink to what is left, the DAG's rows lie on the device at
 * their own offsets, and gpu_submit_unit copies only the rows below those
 * it holds (down from the top, in pieces between the units' lowest rows,
 * each unit waiting only for its own: units taken top down, as the rows of
 * an oriented file read down arrive), or with upward the rows above them
 * (up from rank 0, in pieces between the units' top rows: units taken in
 * the order their rows arrive, src/pipeline.h); *on = 1. Else *on = 0 and nothing
 * changes. Call with no slot in use, not while counting k-cliques or the
 * arrival layout; gpu_submit_unit then takes only these units (others:
 * TSG_EINTERNAL). gpu_resident_end restores the slots (after gpu_drain). */
int gpu_resident_begin(struct gpu_ctx *g, const struct tsg_unit *units,
		       const enum gpu_kernel *kernels, enum gpu_kernel k, uint32_t n, int upward,
		       int *on, struct tsg_err *err);
void gpu_resident_end(struct gpu_ctx *g);
/* With the resident graph, copies the next piece of rows below (upward:
 * above) those the device holds (the rows of units still to come) if slot
 * p's kernel is still running and the piece lies in the rows the host has
 * (avail: down, rows avail .. nv-1, 0 all; upward, rows 0 .. avail-1,
 * UINT32_MAX all: an upward graph is only one counted as read, whose
 * caller always has the read's mark to give), and sets *copied; its bytes and copy time go with slot s,
 * the unit submitted last (gpu_timing.ahead_bytes). *copied = 0 and nothing
 * copied without a resident graph, once every row is in, or once slot p's
 * kernel has ended: the caller then collects p and submits the next unit,
 * so a GPU keeps a kernel queued while its thread copies. */
int gpu_resident_ahead(struct gpu_ctx *g, int s, int p, uint32_t avail, int *copied,
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
 * The host sends a batch's lists as read, and the device orients them. The
 * lists are copied from where they lie, pinned in place a batch at a time
 * (cudaHostRegister), never through a staging copy. Memory the process
 * owns (pin_ahead) is pinned a batch or two before the file reaches it, so
 * the reader and the LZ4 decoders write into pinned pages; a mapped file's
 * pages are pinned read-only once in. Pages that cannot be pinned are
 * copied as ordinary memory (slower), and gpu_arrival_end says how many.
 */
struct gpu_arrival_src {
	const uint32_t *adj;  /* every list, in id order */
	const uint64_t *at;   /* nbatches + 1: batch k's lists are adj[at[k] .. at[k+1]);
			       * NULL: the lists are placed as they are decoded, batch
			       * after batch from adj[0], each known when submitted */
	int pin_ahead;        /* adj is this process's own memory, page-aligned and
			       * whole pages long */
};

/*
 * Several devices on one arrival run: every device orients and places
 * every batch (an edge may need any row) and files one share of the
 * batch's edges, so the counts add up to the graph's. The lists are pinned
 * once, by the leader, for every device (portable), and a range is
 * unpinned only after every device has copied it. Call on each device
 * before gpu_arrival_begin: the leader (share 0) with leader NULL and the
 * others in peers, each other with the leader; submit each batch to the
 * leader first, and end the others before the leader.
 */
#define GPU_ARRIVAL_MAX_SHARES 16
int gpu_arrival_share(struct gpu_ctx *g, struct gpu_ctx *leader, struct gpu_ctx *const *peers,
		      uint32_t npeers, uint32_t share, uint32_t nshares, struct tsg_err *err);

/* Device bytes the arrival layout needs: nv vertices, ne oriented edges,
 * batches of at most max_entries list entries and max_vertices vertices,
 * with per-vertex counts (pv: their records' sources; the counts themselves
 * are outside, gpu_open);
 * 0 if it cannot take them at all (a batch of 2^31 entries or more). Needs
 * an open device (CUB sizes its work). */
uint64_t gpu_arrival_bytes(uint64_t nv, uint64_t ne, uint64_t max_entries, uint64_t max_vertices,
			   int pv);
/* Groups (arrival.cu): where the rows outgrow the device, the batches are
 * cut into groups of consecutive ids whose rows fit region A; each batch
 * counts the edges within its group as it comes, and at a group's end its
 * rows go to the host (pinned memory, half the lists' bytes in all) and
 * the edges between it and each earlier group are counted, the earlier
 * rows copied back a piece at a time. No checkpoint key of its own: the
 * groups follow the budget. gpu_arrival_group_rows is region A's rows
 * under budget (0: not even a batch fits); gpu_arrival_groups(g, 1) makes
 * the next gpu_arrival_begin take groups (gpu_arrival_end clears it).
 *
 * On several devices (gpu_arrival_share, every one asked for groups) each
 * builds the same groups in a region A of the least budget among them,
 * files its share of each batch's edges as without groups, and counts
 * every nshares-th piece of the earlier groups (dealt from the group's
 * number on, so a group end of few pieces does not fall on one) against
 * the group; the leader alone saves the rows, which the others copy back
 * from its pinned memory. So that the devices count their pieces at once,
 * hand each batch over in two steps: gpu_arrival_stage on every device
 * (the leader first), then gpu_arrival_finish on each, on a thread a
 * device where *pairs came back set (a group ended: its rows are saved
 * and the pieces counted there; a group that ends at the last batch is
 * saved in the first step, as the last group's pieces read it), in any
 * order, at once. gpu_arrival_submit is both steps: one device only, in
 * groups. */
uint64_t gpu_arrival_group_rows(uint64_t nv, uint64_t rank0, uint64_t ne, uint64_t max_entries,
				uint64_t max_vertices, int pv, uint64_t budget);
void gpu_arrival_groups(struct gpu_ctx *g, int on);
/* Sets up the resident rows: rank (id -> rank) and batch_of (rank -> batch),
 * nv entries each, are copied; src is kept until gpu_arrival_end. Ranks
 * 0 .. rank0 - 1 are the ids of degree 0 (part_rank's nzero): no row holds
 * them, so groups keep rank -> id for the others alone (and
 * gpu_arrival_group_rows, given rank0, sizes region A so; given 0, as
 * where every id had entries, it sizes it from below). */
int gpu_arrival_begin(struct gpu_ctx *g, uint64_t nv, uint64_t ne, uint32_t nbatches,
		      uint64_t max_entries, uint64_t max_vertices, const uint32_t *rank,
		      const uint32_t *batch_of, uint64_t rank0, const struct gpu_arrival_src *src,
		      struct tsg_err *err);
/* Copies batch k (ids lo .. lo+nbv-1, whose nbv + 1 offsets are off, and
 * whose lists are in place) and enqueues its orientation, and its count
 * unless count is 0 (a checkpoint holds it; its rows are still placed). */
int gpu_arrival_submit(struct gpu_ctx *g, uint32_t k, uint64_t lo, uint32_t nbv,
		       const uint64_t *off, int count, struct tsg_err *err);
/* gpu_arrival_submit in two steps (groups on several devices, above):
 * the copy, and *pairs set where batch k ends a group (or is the last,
 * which ends the last group); then the group's rows saved, its pieces
 * counted and the batch launched. Every staged
 * batch must be finished before the next is staged. */
int gpu_arrival_stage(struct gpu_ctx *g, uint32_t k, uint64_t lo, uint32_t nbv,
		      const uint64_t *off, int count, int *pairs, struct tsg_err *err);
int gpu_arrival_finish(struct gpu_ctx *g, struct tsg_err *err);
/* Batches from .. upto-1 submitted: *ndone is the first of them not yet
 * counted (waiting for each if wait), and *cum the running totals, cum[k]
 * the count of batches 0..k once batch k is done (a batch submitted
 * without its count adds nothing). Valid until gpu_arrival_end. */
int gpu_arrival_poll(struct gpu_ctx *g, uint32_t from, uint32_t upto, int wait, uint32_t *ndone,
		     const uint64_t **cum, struct tsg_err *err);

struct gpu_arrival_result {
	uint64_t count;         /* triangles */
	uint64_t rows;          /* row ids placed: the graph's oriented edges */
	int overflow;           /* a batch brought more rows than the graph has, or a
				 * unit of batches more records than its lists' entries */
	double device_ms;       /* sum over the batches */
	uint64_t bytes;         /* copied to the device */
	uint64_t pinned_bytes;  /* of which, list bytes copied from pinned pages */
	uint64_t list_bytes;    /* list bytes copied */
	/* host seconds: registering the lists' pages (the leader's batch
	 * thread), giving them back (the leader's own thread where it has one,
	 * else its batch thread; the release after the last batch too), and
	 * the batch thread waiting for a batch's offsets buffer (the device
	 * two batches behind) or for pages given back (a mapped file's, which
	 * the unpinning thread may not let pile up) */
	double pin_s, unpin_s, wait_s;
	/* groups: how many, region A's rows, row bytes copied back to the
	 * device (in bytes above) and out to the host, pair launches, host
	 * seconds ending groups (the batch thread's) */
	uint32_t groups;
	uint64_t group_rows, rows_back_bytes, rows_out_bytes, pair_launches;
	uint64_t pair_tallies, pair_split; /* tallies; those whose records took several launches */
	uint64_t unit_launches;       /* launches counting units of batches within their group */
	/* TSG_ARRIVAL_GROUP_EARLY (bench/): the batch before which a group's
	 * batches were counted against the earlier groups ahead of its end
	 * (under mpirun on every rank, whichever counted them), and the pieces
	 * copied back for it here; 0 where it did not act */
	uint32_t early_batch;
	uint64_t early_pieces;
	/* the groups as cut (each one's batches, where its end began
	 * counting), hashed; 0 without groups. Ranks under mpirun compare it,
	 * as each counts group ends for the others */
	uint64_t groups_key;
	double group_end_s;
	/* of group_end_s, taking pinned host memory for the rows (pinned ahead
	 * by a thread, kernels/pinned_arena.cuh); arrays that were not, for
	 * want of room or a failed pinning, and were cudaMallocHost'd there */
	double rows_alloc_s;
	uint32_t rows_alloc_fallbacks;
	const char *rows_alloc_why; /* the first fallback's reason (static), or NULL */
	uint32_t locked_most;   /* ranges of the lists' pages pinned at once, at most (a
				 * range: a batch's pages; src/hostmem.c counts 4, 5 with
				 * peers, where they are a mapped file's) */
};
/* Waits for every batch, unpins what is still pinned (also after a
 * failure, which it then returns), and gives each batch's count and device
 * time (nbatches of each). */
int gpu_arrival_end(struct gpu_ctx *g, uint64_t *per_batch, float *per_ms,
		    struct gpu_arrival_result *res, struct tsg_err *err);

/*
 * The sweep (src/sweep.h): a crawl larger than the device, counted a source
 * block at a time. The device holds the rank and the id of every rank
 * (rank, inv), one chunk's buffers and, in the rest of the budget, the
 * block: the oriented rows of a run of nodes from s0 on, in id order,
 * found by a CSR index. Chunks come as decoded (ids, merged lists, in id
 * order) from pinned host memory; the device orients them (kernels/
 * sweep.cu). Calls are made from one host thread.
 */
/* Device bytes the sweep needs beside its block, for nv nodes, chunks of
 * at most max_entries list entries and max_vertices nodes, and nchunks
 * chunks; 0 if it cannot take them (a chunk of 2^31 entries or more). */
uint64_t gpu_sweep_bytes(uint64_t nv, uint64_t max_entries, uint64_t max_vertices,
			 uint32_t nchunks, int pv);
/* Sets up the sweep; *block_bytes gets what the block may hold (at most
 * block_limit where that is not 0). With per-vertex counts (gpu_open's
 * pv_vertices = nv) they are kept by rank. */
int gpu_sweep_begin(struct gpu_ctx *g, uint64_t nv, const uint32_t *rank, const uint32_t *inv,
		    uint64_t max_entries, uint64_t max_vertices, uint32_t nchunks,
		    uint64_t block_limit, uint64_t *block_bytes, struct tsg_err *err);
/* Empties the block; it starts at node s0. */
int gpu_sweep_block(struct gpu_ctx *g, uint64_t s0, struct tsg_err *err);
/* Orients the chunk of nodes lo .. lo+nbv-1 (off: nbv + 1 offsets from 0,
 * adj their lists; pinned) and appends its rows to the block, lo being
 * where the block ends, if they fit (*fit); returns once done. */
int gpu_sweep_add(struct gpu_ctx *g, uint64_t lo, uint32_t nbv, const uint64_t *off,
		  const uint32_t *adj, int *fit, struct tsg_err *err);
/* The triangles whose two lowest-ranked vertices are both in the block
 * (the block against itself), into chunk counter k; enqueued. */
int gpu_sweep_local(struct gpu_ctx *g, uint32_t k, struct tsg_err *err);
/* The triangles whose two lowest vertices are a block node and a node of
 * this chunk (outside the block), either way round, into counter k; enqueued,
 * and returns once off and adj were copied (the caller may reuse them). */
int gpu_sweep_chunk(struct gpu_ctx *g, uint32_t k, uint64_t lo, uint32_t nbv, const uint64_t *off,
		    const uint32_t *adj, struct tsg_err *err);
/* Waits for the block's work: counts[k] gets counter k (the chunks'
 * counts since gpu_sweep_block), each then zeroed; a filed edge whose
 * middle vertex its source's row lacks (an asymmetric graph) is
 * TSG_EINPUT. *device_ms: the device's time since gpu_sweep_block. */
int gpu_sweep_collect(struct gpu_ctx *g, uint64_t *counts, uint32_t nchunks, double *device_ms,
		      struct tsg_err *err);

#ifdef __cplusplus
}
#endif

#endif
