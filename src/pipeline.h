/*
 * pipeline.h - the GPU streaming pipeline behind engine_count (internal).
 *
 * Built only with the CUDA backend; pipeline_none.c stands in otherwise.
 * Leaves r->nparts at 0 if it failed before counting anything, which tells
 * the engine that falling back to the CPU is safe.
 */
#ifndef TSG_PIPELINE_H
#define TSG_PIPELINE_H

#include "partition/arrival.h"
#include "partition/block.h"
#include "src/engine.h"
#include "src/lists_bg.h"

/* The oriented graph's memory when it is not pinned: the heap, or with
 * o->scratch_dir (bounded host memory) a scratch file (io/scratch.h). */
struct engine_block_mem {
	const char *scratch_dir;
	struct io_scratch *file;
	struct tsg_err err; /* why the scratch file could not be made */
	int host;           /* the block is the host's ranks' (src/hostbuild.h),
			     * freed with the graph by dist_host_free */
	int adopted;        /* the block is an oriented file's rows (io/graph.h),
			     * the graph's own: nothing to free */
};

/* Adds to r->note, where g took its default budget at a second read of its
 * free memory (gpu_budget_rereads: another process on the card took memory
 * first), which GPU, how often and the budget: the layout and speed are
 * then less than the card's free memory suggested. Nothing for g NULL. */
void engine_note_budget_reread(const struct gpu_ctx *g, struct engine_result *r);

void *engine_block_alloc(void *ctx, size_t bytes); /* a part_alloc_fn; ctx: the mem */
void engine_block_release(struct engine_block_mem *m, void *p);

/* The block layout's common start (engine.c): orients g into memory from
 * alloc (whose failure mem, if not NULL, may explain), plans its units,
 * allocates r->parts for them and records r->build_s, r->plan_s and
 * r->nblocks. Leaves r->nparts to the caller. On failure *d may hold the
 * caller's block and *plan must still be freed. An oriented graph (its
 * rows read here if pending) is adopted instead: *d points at its rows,
 * alloc is not called, and mem (which must be given) is marked so that
 * engine_block_release leaves them to the graph. */
int engine_block_prepare(struct tsg_graph *g, const struct engine_opts *o,
			 const struct block_opts *bo, part_alloc_fn alloc, void *alloc_ctx,
			 struct engine_block_mem *mem, struct part_odag *d,
			 struct block_plan *plan, struct engine_result *r, struct tsg_err *err);

/*
 * An oriented .tsg counted as it is read (engine.c). Its rows are in rank
 * order, so block unit u reads nothing above block_unit_top(u) nor below
 * block_unit_low(u): counted in the order the rows come (up, or read from
 * the end down), each unit waits only for its own rows (src/lists_bg.h),
 * and the count runs under the read instead of after it.
 *  engine_block_streams: whether g is counted so (one process, its lists
 *   still pending, --overlap not off; several GPUs take the units in
 *   read order, each when free, every GPU holding the rows once where all
 *   can);
 *   if not, r->stream.why says why where g is oriented.
 *  engine_block_stream_rows: *d is g's rows where they will lie, mem is
 *   marked as for adopted rows. The caller plans, then starts the read
 *   (lists_bg_begin, down for STREAM_CUT_ROWS_DOWN's units).
 *  engine_block_stream_plan: units over d in read order by cut: columns
 *   (block_plan_columns, for a read up) or row blocks (block_plan_rows_down,
 *   for a read down), o->overlap of them (auto: ENGINE_STREAM_COLUMNS of at
 *   least ENGINE_STREAM_MIN_ENTRIES entries), both for rows held once;
 *   else bo's plan in read order up; r->parts, r->plan_s, r->nblocks and
 *   r->stream as engine_block_prepare's.
 * The caller waits (lists_bg_wait_unit) before each unit and ends with
 * engine_block_stream_end: the read's verdict (its checksum) joined to the
 * count's rc (the read's error wins, but for a stop: SIGINT's, or the
 * caller's lists_bg_stop after its own failure, whose rc then stands),
 * every count voided on failure; r->stream.wait_s.
 */
#define ENGINE_STREAM_COLUMNS 16u
#define ENGINE_STREAM_MIN_ENTRIES (4ull << 20)
enum engine_stream_cut { STREAM_CUT_BUDGET, STREAM_CUT_COLUMNS, STREAM_CUT_ROWS_DOWN };
int engine_block_streams(const struct tsg_graph *g, const struct engine_opts *o,
			 struct engine_result *r);
void engine_block_stream_rows(const struct tsg_graph *g, struct engine_block_mem *mem,
			      struct part_odag *d);
int engine_block_stream_plan(const struct part_odag *d, const struct engine_opts *o,
			     const struct block_opts *bo, enum engine_stream_cut cut,
			     struct block_plan *plan, struct engine_result *r, struct tsg_err *err);
int engine_block_stream_end(struct lists_bg *bg, int rc, struct engine_result *r,
			    struct tsg_err *err);

/* Whether a GPU run that failed with rc leaves the count to the CPU
 * (engine_count): auto's device, no GPU usable (TSG_EDEVICE) before any
 * unit was planned, and not --host-mem's arrival over the map that only a
 * GPU keeps within the budget. An early read is left to end where it does
 * (the CPU counts the lists it brings), else stopped. */
int engine_gpu_to_cpu(const struct engine_opts *o, int rc, const struct engine_result *r);

/* The arrival layout's common part (engine.c): reads g's lists (if
 * pending) through part_arrival into sink, with rows written on the host
 * or lists only (part_arrival_opts), recording r->layout, r->nparts
 * (batches), r->build_s and r->arrival. r->parts must hold p->nbatches.
 * early (NULL: none): the lists' read, begun up before (lists_bg_begin),
 * which the pass follows (lists_bg_feed) instead of reading them, and
 * stops where a batch fails (the batch's error is the one returned); the
 * caller ends it (lists_bg_end). */
int engine_arrival_run(struct tsg_graph *g, const struct engine_opts *o,
		       const struct part_arrival_plan *p, const struct part_arrival_sink *sink,
		       int lists_only, struct lists_bg *early, struct engine_result *r,
		       struct tsg_err *err);

/* Checkpoints, ranks, stops and per-vertex counts (engine.c), for every
 * layout: states the plan (r->plan_key; the checkpoint's, if any); the plan
 * keys of the block and arrival layouts (LSTC: part_plan_digest); skips
 * unit k (returns 1) if it was dealt to another rank (not with r->taken) or
 * the checkpoint holds it
 * (its count then goes into r); records a counted unit; fails with
 * TSG_EINTERRUPTED once a stop was asked. */
int engine_ckpt_plan(const struct engine_opts *o, uint64_t key, uint32_t nunits,
		     struct engine_result *r, struct tsg_err *err);
uint64_t engine_block_plan_key(const struct block_plan *p);
uint64_t engine_arrival_plan_key(const struct part_arrival_plan *p);
/* Adds to r->plan_key a choice made while counting that every rank must
 * have made alike (the arrival layout's groups, cut on the device). */
void engine_plan_key_add(struct engine_result *r, uint64_t v);
int engine_unit_resume(const struct engine_opts *o, uint32_t k, struct engine_result *r);
/* Several ranks: deals n units to the ranks by cost (r->owner):
 * the costliest first, each to the least loaded rank, the same on every
 * rank. The costs: an arrival batch's list entries, a block unit's
 * wedges (engine_block_share), an LSTC part's local degrees
 * (part_plan_weight). A no-op for
 * one rank. */
int engine_deal(const struct engine_opts *o, const uint64_t *cost, uint32_t n,
		struct engine_result *r, struct tsg_err *err);
int engine_deal_arrival(const struct engine_opts *o, const struct tsg_graph *g,
			const struct part_arrival_plan *p, struct engine_result *r,
			struct tsg_err *err);
/* The block layout's units shared by several ranks or GPUs: each unit's
 * estimated work (block_plan_costs) into r->parts[k].cost, unless
 * costs_known (already there), and the units dealt to the ranks by it, or
 * with o->take (not read by ranges) left to be taken (r->taken). A no-op
 * for one rank on one GPU. */
int engine_block_share(const struct engine_opts *o, const struct part_odag *d,
		       const struct block_plan *p, int costs_known, struct engine_result *r,
		       struct tsg_err *err);
int engine_deal_parts(const struct engine_opts *o, const struct part_plan *p,
		      struct engine_result *r, struct tsg_err *err);
/* The block layout's units this rank may count, into *todo (owned) and *n:
 * all but those the checkpoint holds or another rank was dealt
 * (engine_unit_resume), the costliest first where by_cost or r->taken
 * (by cost class, four to a power of two; within one, fewer bytes first:
 * the first copies, which no kernel hides, are short; ties by number), else
 * in plan order. */
int engine_units_todo(const struct engine_opts *o, struct engine_result *r, int by_cost,
		      uint32_t **todo, uint32_t *n, struct tsg_err *err);
/* Reorders todo (unit numbers, in any order) so that each source block's
 * units stay together, in plan
 * order, and the blocks go costliest first (their summed r->parts[].cost
 * by engine_units_todo's classes; within one, fewer bytes first). Why:
 * several GPUs taking units from one queue then take a block's units in
 * turn, so each GPU's slots keep the block's source rows between them
 * (kernels/gpu.h, gpu_keep_sources), while the work still ends on the
 * small blocks that the plan's cost cuts make last. */
int engine_units_by_block(const struct block_plan *p, const struct engine_result *r,
			  uint32_t *todo, uint32_t n, struct tsg_err *err);
/* The next of todo[0 .. n) to count, into *k (*have 0: none left): with
 * r->taken, the one the ranks' shared count hands out, else todo[*next]
 * (*next advances). After counting with r->taken (on every path, before
 * any other MPI call: dist_counter_rest), engine_units_taken marks the
 * units no kernel counted here as another rank's. */
int engine_next_unit(const struct engine_opts *o, const struct engine_result *r,
		     const uint32_t *todo, uint32_t n, uint32_t *next, uint32_t *k, int *have,
		     struct tsg_err *err);
void engine_units_taken(const struct engine_opts *o, struct engine_result *r);
int engine_unit_done(const struct engine_opts *o, uint32_t k, uint64_t count, struct tsg_err *err);
/* Whether a .tsg's pending lists must be read whole, and their checksum and
 * symmetry checked, before any unit is counted: under --checkpoint. A
 * record outlives its run, and the checkpoint names the graph by its header,
 * which damage to the lists leaves alone: counts made from lists that later
 * fail their checks would be resumed over the file restored, a wrong total
 * with exit 0 (a review's finding, session 49). A crawl decoded as counted
 * (lists_src) has no checksum to wait for. */
int engine_ckpt_read_first(const struct tsg_graph *g, const struct engine_opts *o);
int engine_check_stop(const struct engine_opts *o, struct tsg_err *err);
/* After counting: where some units ran another kernel than `asked` (or
 * than the one auto chose for them: each part's `chosen`), says so in
 * r->note (added to what is there) with `why`, counts them in
 * r->kernel_fallbacks, and if no unit ran `asked`, names the one that ran
 * in r->kernel; asked "auto": r->kernel names the kernel every unit ran,
 * or stays "auto" where they differ (each part names its own). A result
 * never names a kernel that did not run. */
void engine_kernel_fallbacks(const char *asked, const char *why, struct engine_result *r);
/* Per-vertex counts: a zeroed array of nv (NULL without o->per_vertex);
 * and r->pv by id from counts by rank. */
int engine_pv_alloc(const struct tsg_graph *g, const struct engine_opts *o, uint64_t **pv,
		    struct tsg_err *err);
int engine_pv_from_ranks(const struct tsg_graph *g, const struct engine_opts *o,
			 uint64_t *by_rank, struct engine_result *r, struct tsg_err *err);

/* What LSTC parts need before the plan: po->prune resolved where it is
 * not for the plan to resolve (auto: local but for k-cliques, where the
 * plan takes closed, a part kept to the edges on its triangles, if the
 * graph takes more than one part; the caller sets r->prune from the plan). For k-cliques (o->k > 3 or o->k_all): with
 * o->degeneracy, *order (owned by the caller, free it after the plan) gets
 * the degeneracy order and po->order points to it; with o->k_all,
 * r->sizes is allocated; r->clique_ran names the method (auto stays auto
 * for the callers to resolve). */
int engine_lstc_setup(const struct tsg_graph *g, const struct engine_opts *o,
			struct part_opts *po, uint32_t **order, struct engine_result *r,
			struct tsg_err *err);

/* Auto's clique method where no part is at hand yet (the GPU sizes its
 * scratch by method before planning): orientation and pivoting race on the
 * host over a random 1/ENGINE_RACE_PARTS of the sources (kern_cpu_clique_pick with this
 * ratio), for at most about 2 x ENGINE_RACE_MOST_S; *raced says whether
 * the race decided (too few vertices, no memory for the sample, or
 * undecided in time: orientation, or pivoting from K = 7). */
int engine_clique_race(const struct tsg_graph *g, const struct engine_opts *o,
		       const uint32_t *order, double ratio, enum kern_clique_method *m,
		       int *raced, struct tsg_err *err);

int engine_count_gpu(struct tsg_graph *g, const struct engine_opts *o,
		     struct engine_result *r, struct tsg_err *err);

#endif
