/*
 * pipeline_gpu.c - streaming partitions through the GPU.
 *
 * Block layout: the whole graph is oriented once in host memory; units are
 * slices of it, submitted to the two slots in turn (submit i, then collect
 * i-1), so the copy of one unit overlaps the kernels of the other.
 *
 * Arrival layout: part_arrival's batch thread submits each batch as soon as
 * its lists are in; the runtime copies them from where they were read,
 * pinned in place, and the device orients and counts them while the file
 * is still being read. Nothing waits for the device until the end.
 *
 * LSTC layout: a builder thread builds partition i into pinned staging buffer i % 2
 * while the main thread keeps the device busy: it submits partition i
 * (copy, then kernels, on slot i % 2) before it collects partition i-1, so
 * the copy of i overlaps the kernels of i-1 and the build of i+1 overlaps
 * both. A staging buffer returns to the builder only once its partition has
 * been collected, which is after its copy finished.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partition/block.h"
#include "src/pipeline.h"
#include "base/progress.h"
#include "base/util.h"

int engine_have_gpu(void) { return 1; }

struct engine_warm {
	pthread_t thread;
	int index;
};

static void *warm_thread(void *arg)
{
	gpu_prewarm(((struct engine_warm *)arg)->index);
	return NULL;
}

void engine_gpu_warm_begin(int index, struct engine_warm **out)
{
	struct engine_warm *w = malloc(sizeof(*w));
	*out = NULL;
	if (!w)
		return;
	w->index = index;
	if (pthread_create(&w->thread, NULL, warm_thread, w) != 0) {
		free(w);
		return;
	}
	*out = w;
}

void engine_gpu_warm_end(struct engine_warm *w)
{
	if (!w)
		return;
	pthread_join(w->thread, NULL);
	free(w);
}

enum stage_state { STAGE_FREE, STAGE_BUILT };

struct staging {
	struct gpu_ctx *gpu;
	void *mem;
	size_t cap;
	enum stage_state state;
	uint32_t seq;     /* the position in the pipe's todo list it holds */
	struct tsg_dag dag;
	double build_s;
	struct part_stats st;
};

struct pipe {
	struct part_plan *plan;
	const struct engine_opts *o;
	const uint32_t *todo; /* the parts to count, in order (not the checkpoint's) */
	uint32_t ntodo;
	struct staging stage[GPU_SLOTS];
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int abort;        /* the consumer failed: stop building */
	int build_rc;     /* the builder failed */
	struct tsg_err build_err;
};

/* Grows a staging buffer in place of malloc: pinned memory is expensive to
 * allocate, so a buffer is reused for every partition that fits it. */
static void *stage_alloc(void *ctx, size_t bytes)
{
	struct staging *s = ctx;
	if (bytes <= s->cap)
		return s->mem;
	gpu_host_free(s->gpu, s->mem);
	size_t cap = bytes + bytes / 8;
	s->mem = gpu_host_alloc(s->gpu, cap);
	s->cap = s->mem ? cap : 0;
	return s->mem;
}

static void *builder_main(void *arg)
{
	struct pipe *p = arg;
	for (uint32_t j = 0; j < p->ntodo; j++) {
		struct staging *s = &p->stage[j % GPU_SLOTS];
		pthread_mutex_lock(&p->mu);
		while (s->state != STAGE_FREE && !p->abort)
			pthread_cond_wait(&p->cv, &p->mu);
		int stop = p->abort;
		pthread_mutex_unlock(&p->mu);
		if (stop)
			return NULL;
		double t0 = tsg_now();
		struct tsg_err err = { 0 };
		int rc = part_build(p->plan, p->todo[j], stage_alloc, s, p->o->want_stats, &s->dag,
				    &s->st, &err);
		pthread_mutex_lock(&p->mu);
		if (rc) {
			p->build_rc = rc;
			p->build_err = err;
		} else {
			s->build_s = tsg_now() - t0;
			s->seq = j;
			s->state = STAGE_BUILT;
		}
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		if (rc)
			return NULL;
	}
	return NULL;
}

/* Waits until the j-th partition to count is built (or the builder failed). */
static int wait_built(struct pipe *p, uint32_t j, struct tsg_err *err)
{
	struct staging *s = &p->stage[j % GPU_SLOTS];
	pthread_mutex_lock(&p->mu);
	while (!(s->state == STAGE_BUILT && s->seq == j) && !p->build_rc)
		pthread_cond_wait(&p->cv, &p->mu);
	int rc = p->build_rc;
	if (rc)
		tsg_fail(err, rc, "%s", p->build_err.msg);
	pthread_mutex_unlock(&p->mu);
	return rc;
}

static void release(struct pipe *p, uint32_t j)
{
	pthread_mutex_lock(&p->mu);
	p->stage[j % GPU_SLOTS].state = STAGE_FREE;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* Takes the j-th counted unit's result (unit k, slot j % GPU_SLOTS) into
 * r->parts[k] and records it in the checkpoint. */
static int collect_slot(struct gpu_ctx *gpu, const struct engine_opts *o, uint32_t j, uint32_t k,
			struct engine_result *r, struct tsg_progress *prog, struct tsg_err *err)
{
	struct gpu_timing t;
	struct engine_part *ep = &r->parts[k];
	int rc = gpu_collect(gpu, (int)(j % GPU_SLOTS), &ep->triangles, &t, err);
	if (rc || (rc = engine_unit_done(o, k, ep->triangles, err)))
		return rc;
	ep->h2d_ms = t.h2d_ms;
	ep->kernel_ms = t.kernel_ms;
	r->triangles += ep->triangles;
	r->count_s += (t.h2d_ms + t.kernel_ms) / 1000.0;
	r->h2d_bytes += t.bytes;
	char note[64], b[32];
	snprintf(note, sizeof(note), "%s copied to the GPU", tsg_fmt_bytes(r->h2d_bytes, b, sizeof(b)));
	tsg_progress_update(prog, r->resumed + j + 1, note);
	return TSG_OK;
}

static int collect(struct pipe *p, struct gpu_ctx *gpu, uint32_t j, struct engine_result *r,
		   struct tsg_progress *prog, struct tsg_err *err)
{
	int rc = collect_slot(gpu, p->o, j, p->todo[j], r, prog, err);
	if (rc == TSG_OK)
		release(p, j);
	return rc;
}

/* The units (or parts) of r not taken from the checkpoint, in order:
 * *todo (owned) and *n. */
static int units_to_count(const struct engine_opts *o, struct engine_result *r, uint32_t **todo,
			  uint32_t *n, struct tsg_err *err)
{
	*n = 0;
	*todo = malloc((r->nparts ? r->nparts : 1) * sizeof(**todo));
	if (!*todo)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (uint32_t k = 0; k < r->nparts; k++)
		if (!engine_unit_resume(o, k, r))
			(*todo)[(*n)++] = k;
	return TSG_OK;
}

/* The oriented graph's memory. Ordinary memory by default: units are
 * copied through the runtime's pinned staging buffers, which host threads
 * fill (parallel_copy) while the device counts the previous unit. Pinned
 * memory (--pin-host on) makes the copies direct, but pinning costs time in
 * proportion to the whole graph, and the time is not hidden: measured on
 * the H100 (bench/RESULTS.md). */
struct host_block {
	struct gpu_ctx *gpu;
	int want_pin, pinned;
	struct engine_block_mem mem; /* when not pinned */
};

static void *host_block_alloc(void *ctx, size_t bytes)
{
	struct host_block *h = ctx;
	void *m = h->want_pin ? gpu_host_alloc(h->gpu, bytes) : NULL;
	h->pinned = m != NULL;
	return m ? m : engine_block_alloc(&h->mem, bytes);
}

/* Fills a staging buffer with every host thread: one thread's memcpy
 * moves a fraction of what PCIe takes. */
struct pcopy {
	uint8_t *dst;
	const uint8_t *src;
};

static void pcopy_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct pcopy *c = ctx;
	memcpy(c->dst + b, c->src + b, e - b);
}

static void parallel_copy(void *ctx, void *dst, const void *src, size_t bytes)
{
	const unsigned *threads = ctx;
	struct pcopy c = { .dst = dst, .src = src };
	tsg_parallel_for(*threads, bytes, 1u << 20, pcopy_range, &c);
}

static int count_gpu_block(struct gpu_ctx *gpu, uint64_t slot, struct tsg_graph *g,
			   const struct engine_opts *o, struct engine_result *r, struct tsg_err *err)
{
	const struct tsg_scratch sc = gpu_kernel_scratch(o->gpu_kernel, o->per_vertex);
	struct host_block hb = { .gpu = gpu, .want_pin = o->pin_host > 0 && !o->scratch_dir,
				 .mem = { .scratch_dir = o->scratch_dir } }; /* auto: off */
	struct part_odag d = { 0 };
	struct block_plan plan = { 0 };
	struct tsg_progress prog;
	struct tsg_err serr = { 0 };
	uint32_t *todo = NULL, ntodo = 0;
	const struct block_opts bo = { .nblocks = o->part.nparts, .budget = slot,
				       .scratch = sc };
	int rc = engine_block_prepare(g, o, &bo, host_block_alloc, &hb, &hb.mem, &d, &plan, r,
				      err);
	if (d.off && hb.want_pin && !hb.pinned)
		snprintf(r->note, sizeof(r->note), "pinned host memory unavailable: copies are slower");
	if (rc)
		goto done;
	r->nparts = plan.nunits; /* from here on a failure is not a reason to fall back */
	for (uint32_t k = 0; k < r->nparts; k++)
		block_unit_stats(&d, &plan.units[k], &r->parts[k].st);
	if ((rc = engine_ckpt_plan(o, engine_block_plan_key(&plan), plan.nunits, r, err)) ||
	    (rc = engine_deal_block(o, &plan, d.off, r, err)) ||
	    (rc = units_to_count(o, r, &todo, &ntodo, err)))
		goto done;
	tsg_progress_init(&prog, "count", "units", r->nparts, o->progress && r->nparts > 1);
	const double wall0 = tsg_now();
	/* submit the j-th, then collect the one before: copy and count overlap */
	for (uint32_t j = 0; j <= ntodo && rc == TSG_OK; j++) {
		const int stop = j < ntodo ? engine_check_stop(o, &serr) : TSG_OK;
		if (j < ntodo && !stop) {
			const struct tsg_unit u = block_unit_of(&d, &plan.units[todo[j]]);
			rc = gpu_submit_unit(gpu, (int)(j % GPU_SLOTS), &u, o->gpu_kernel, err);
		}
		if (rc == TSG_OK && j > 0)
			rc = collect_slot(gpu, o, j - 1, todo[j - 1], r, &prog, err);
		if (rc == TSG_OK && stop)
			rc = tsg_fail(err, stop, "%s", serr.msg);
		if (stop)
			break;
	}
	tsg_progress_done(&prog);
	const double wall = tsg_now() - wall0;
	r->overlap = wall > 0 ? r->count_s / wall : 0;
done:
	{ /* copies may still read the oriented graph */
		const int drc = gpu_drain(gpu, err);
		if (rc == TSG_OK)
			rc = drc;
	}
	free(todo);
	block_plan_free(&plan);
	if (hb.pinned)
		gpu_host_free(gpu, d.off);
	else
		engine_block_release(&hb.mem, d.off);
	return rc;
}

/* The arrival layout's sink: the batches' lists go to the device as read,
 * from where they lie (gpu.h pins them in place), and the device orients
 * them; the host writes no rows. With a checkpoint, each batch's count is
 * recorded once the device has it (polled as later batches are handed
 * over, waited for at the end), and a batch the checkpoint holds is placed
 * but not counted. */
struct gpu_sink {
	struct gpu_ctx *gpu;
	const struct tsg_graph *g;
	const struct engine_opts *o;
	struct engine_result *r;
	uint64_t *at;       /* where each batch's lists start */
	uint32_t submitted; /* batches handed to the device */
	uint32_t recorded;  /* of them, those whose count is recorded (or resumed) */
};

static int gs_begin(void *ctx, const struct part_arrival_plan *p, const uint32_t *rank,
		    const uint32_t *batch_of, struct tsg_err *err)
{
	const struct gpu_sink *s = ctx;
	for (uint32_t k = 0; k <= p->nbatches; k++)
		s->at[k] = s->g->off[p->bound[k]];
	/* memory of our own is pinned before the file is read into it */
	const struct gpu_arrival_src src = { .adj = s->g->adj, .at = s->at,
					     .pin_ahead = s->g->adj_mem && s->g->adj == s->g->adj_mem };
	return gpu_arrival_begin(s->gpu, p->nv, p->ne, p->nbatches, p->max_entries, p->max_vertices,
				 rank, batch_of, &src, err);
}

/* Records the counts of the batches the device has finished (all those
 * submitted, if wait). */
static int gs_record(struct gpu_sink *s, int wait, struct tsg_err *err)
{
	uint32_t ndone = s->recorded;
	const uint64_t *cum = NULL;
	if (!s->o->ckpt || s->recorded == s->submitted)
		return TSG_OK;
	int rc = gpu_arrival_poll(s->gpu, s->recorded, s->submitted, wait, &ndone, &cum, err);
	for (uint32_t k = s->recorded; rc == TSG_OK && k < ndone; k++) {
		if (!s->r->parts[k].resumed)
			rc = engine_unit_done(s->o, k, cum[k] - (k ? cum[k - 1] : 0), err);
		if (rc == TSG_OK)
			s->recorded = k + 1;
	}
	return rc;
}

static int gs_batch(void *ctx, const struct tsg_batch *b, struct tsg_err *err)
{
	struct gpu_sink *s = ctx;
	const int resumed = engine_unit_resume(s->o, b->k, s->r);
	int rc = resumed ? TSG_OK : engine_check_stop(s->o, err);
	if (rc == TSG_OK)
		rc = gpu_arrival_submit(s->gpu, b->k, b->v_lo, (uint32_t)(b->v_hi - b->v_lo),
					s->g->off + b->v_lo, !resumed, err);
	if (rc == TSG_OK) {
		s->submitted = b->k + 1;
		rc = gs_record(s, 0, err);
	}
	return rc;
}

static int count_gpu_arrival(struct gpu_ctx *gpu, struct tsg_graph *g,
			     const struct engine_opts *o, const struct part_arrival_plan *p,
			     struct engine_result *r, struct tsg_err *err)
{
	struct gpu_sink s = { .gpu = gpu, .g = g, .o = o, .r = r };
	const struct part_arrival_sink sink = { .begin = gs_begin, .batch = gs_batch, .ctx = &s };
	struct gpu_arrival_result res;
	uint64_t *per = calloc(p->nbatches, sizeof(*per));
	float *ms = calloc(p->nbatches, sizeof(*ms));
	s.at = calloc((size_t)p->nbatches + 1, sizeof(*s.at));
	r->parts = calloc(p->nbatches, sizeof(*r->parts));
	int rc = TSG_OK;
	if (!per || !ms || !s.at || !r->parts) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = engine_ckpt_plan(o, engine_arrival_plan_key(p), p->nbatches, r, err)) ||
	    (rc = engine_deal_arrival(o, g, p, r, err)))
		goto done;
	const double wall0 = tsg_now();
	rc = engine_arrival_run(g, o, p, &sink, 1, r, err);
	if (rc == TSG_EINTERRUPTED) { /* the batches handed over finish and are kept */
		struct tsg_err rerr = { 0 };
		const int rrc = gs_record(&s, 1, &rerr);
		if (rrc)
			rc = tsg_fail(err, rrc, "%s", rerr.msg);
	}
	if (rc == TSG_OK)
		rc = gs_record(&s, 1, err);
	if (rc)
		goto done;
	rc = gpu_arrival_end(gpu, per, ms, &res, err);
	if (rc)
		goto done;
	if (res.overflow || res.rows != p->ne) {
		/* a validated graph is symmetric without loops, so half its entries point up */
		rc = tsg_fail(err, TSG_EINTERNAL, "arrival batches: %llu of %llu edges kept%s",
			      (unsigned long long)res.rows, (unsigned long long)p->ne,
			      res.overflow ? ", rows past the device's row array" : "");
		goto done;
	}
	r->triangles += res.count; /* beside what the checkpoint held */
	r->h2d_bytes = res.bytes;
	r->lists_pinned_bytes = res.pinned_bytes;
	r->lists_bytes = res.list_bytes;
	if (res.pinned_bytes < res.list_bytes)
		snprintf(r->note, sizeof(r->note), "%.0f%% of the lists could not be pinned: copies "
			 "were slower", 100.0 * (double)(res.list_bytes - res.pinned_bytes) /
			 (double)res.list_bytes);
	for (uint32_t k = 0; k < p->nbatches; k++) {
		if (!r->parts[k].resumed)
			r->parts[k].triangles = per[k];
		r->parts[k].kernel_ms = ms[k];
		r->parts[k].st.v_local = p->bound[k + 1] - p->bound[k];
	}
	r->count_s = res.device_ms / 1000.0;
	const double wall = tsg_now() - wall0;
	r->overlap = wall > 0 ? (r->build_s + r->count_s) / wall : 0;
done:
	{ /* copies may still read the lists */
		const int drc = gpu_drain(gpu, err);
		if (rc == TSG_OK)
			rc = drc;
	}
	free(per);
	free(ms);
	free(s.at);
	return rc;
}

/* Per-vertex counts off the device into r->pv, by id. */
static int fetch_pv(struct gpu_ctx *gpu, const struct tsg_graph *g, const struct engine_opts *o,
		    struct engine_result *r, struct tsg_err *err)
{
	uint64_t *pv = NULL;
	int rc = engine_pv_alloc(g, o, &pv, err);
	if (rc == TSG_OK)
		rc = gpu_pv_fetch(gpu, pv, err);
	if (rc == TSG_OK && r->layout == ENGINE_LAYOUT_LSTC) { /* parts count by id */
		r->pv = pv;
		return TSG_OK;
	}
	if (rc == TSG_OK) /* units and batches count by rank */
		rc = engine_pv_from_ranks(g, o, pv, r, err);
	free(pv);
	return rc;
}

int engine_count_gpu(struct tsg_graph *g, const struct engine_opts *opts,
		     struct engine_result *r, struct tsg_err *err)
{
	/* only mid-hash counts per vertex: said in the result when it replaces another */
	struct engine_opts eo = *opts;
	if (eo.per_vertex && eo.gpu_kernel != GPU_KERNEL_MID_HASH) {
		snprintf(r->note, sizeof(r->note), "per-vertex counts run mid-hash, not %s",
			 gpu_kernel_name(eo.gpu_kernel));
		eo.gpu_kernel = GPU_KERNEL_MID_HASH;
	}
	const struct engine_opts *o = &eo;
	if (o->k_all) /* nothing counted yet: auto goes on to the CPU */
		return tsg_fail(err, TSG_EDEVICE, "--k-all counts on the CPU backend only: use "
				"--device cpu");
	struct gpu_ctx *gpu = NULL;
	uint32_t *order = NULL;
	struct pipe p = { .o = o };
	struct tsg_progress prog;
	struct tsg_err serr = { 0 };
	uint32_t *todo = NULL;
	pthread_t builder;
	int started = 0;
	uint64_t slot = 0;
	double t0 = tsg_now();
	int rc = gpu_open(o->gpu_index, o->gpu_mem, o->per_vertex ? g->nv : 0, &gpu, &slot, err);
	if (rc)
		return rc;
	r->slot_bytes = slot;
	unsigned copy_threads = o->threads ? o->threads : 1;
	gpu_set_host_copy(gpu, parallel_copy, &copy_threads);
	snprintf(r->device_name, sizeof(r->device_name), "%s (GPU %d)", gpu_device_name(gpu),
		 o->gpu_index);
	snprintf(r->kernel, sizeof(r->kernel), "%s", gpu_kernel_name(o->gpu_kernel));
	if (o->tile && o->gpu_kernel == GPU_KERNEL_MID_HASH && (o->tile < 64 || o->tile > 4096)) {
		rc = tsg_fail(err, TSG_EUSAGE, "tile width %u: mid-hash takes a power of two from "
			      "64 to 4096 (table slots per warp)", o->tile);
		goto done;
	}
	if (o->tile && gpu_set_tile(gpu, o->tile) != TSG_OK) {
		rc = tsg_fail(err, TSG_EUSAGE, "tile width %u: use a power of two from 64 to 16384",
			      o->tile);
		goto done;
	}
	if (o->layout == ENGINE_LAYOUT_ARRIVAL ||
	    (o->layout == ENGINE_LAYOUT_AUTO && !o->scratch_dir)) {
		/* the GPU must hold every row; else auto takes the block layout */
		struct part_arrival_plan ap = { 0 };
		rc = part_arrival_plan_new(g, o->batches, &ap, err);
		const uint64_t need = rc ? 0 : gpu_arrival_bytes(ap.nv, ap.ne, ap.max_entries,
								 ap.max_vertices, o->per_vertex);
		const int fits = need && need + 512 <= gpu_budget(gpu);
		if (rc == TSG_OK && (o->layout == ENGINE_LAYOUT_ARRIVAL || fits))
			rc = count_gpu_arrival(gpu, g, o, &ap, r, err);
		part_arrival_plan_free(&ap);
		if (rc || r->layout == ENGINE_LAYOUT_ARRIVAL)
			goto done;
	}
	if (o->layout != ENGINE_LAYOUT_LSTC) {
		r->layout = ENGINE_LAYOUT_BLOCK;
		rc = count_gpu_block(gpu, slot, g, o, r, err);
		goto done;
	}
	r->layout = ENGINE_LAYOUT_LSTC;
	struct part_opts po = o->part;
	po.threads = o->threads;
	po.scratch = gpu_kernel_scratch(o->gpu_kernel, o->per_vertex);
	if ((rc = engine_clique_setup(g, o, &po, &order, r, err)))
		goto done;
	if (engine_cliques(o)) { /* each part keeps room for a block of warps' bit rows */
		/* auto on the GPU: orientation (pivoting there is slow for now:
		 * bench/RESULTS.md, R-MAT 20 at K = 4, 0.10 s against over 12 s) */
		if (r->clique_ran == KERN_CLIQUE_AUTO)
			r->clique_ran = KERN_CLIQUE_ORIENT;
		const int pivot = r->clique_ran == KERN_CLIQUE_PIVOT;
		po.scratch = (struct tsg_scratch){
			.fixed = kern_clique_geometry(r->max_out, o->k, pivot).words * 4 *
				 KERN_CLIQUE_MIN_WARPS };
		gpu_set_clique(gpu, o->k, pivot);
		snprintf(r->kernel, sizeof(r->kernel), "clique-%s",
			 kern_clique_method_name(r->clique_ran));
	}
	po.want_gid = o->per_vertex; /* parts count by global id */
	if (po.nparts == 0)
		po.budget = slot;
	rc = part_plan_new(g, &po, &p.plan, err);
	if (rc)
		goto done;
	r->plan_s = tsg_now() - t0;
	r->parts = calloc(part_plan_count(p.plan), sizeof(*r->parts));
	if (!r->parts) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto done;
	}
	r->nparts = part_plan_count(p.plan); /* from here on a failure is not a reason to fall back */
	if ((rc = engine_ckpt_plan(o, part_plan_digest(p.plan), r->nparts, r, err)) ||
	    (rc = engine_deal_parts(o, p.plan, r, err)) ||
	    (rc = units_to_count(o, r, &todo, &p.ntodo, err)))
		goto done;
	p.todo = todo;
	for (int s = 0; s < GPU_SLOTS; s++)
		p.stage[s].gpu = gpu;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	if (pthread_create(&builder, NULL, builder_main, &p) != 0) {
		rc = tsg_fail(err, TSG_ENOMEM, "cannot start the builder thread");
		goto done_sync;
	}
	started = 1;
	tsg_progress_init(&prog, "count", "partitions", r->nparts, o->progress && r->nparts > 1);
	double wall0 = tsg_now();
	for (uint32_t j = 0; j <= p.ntodo && rc == TSG_OK; j++) {
		const int stop = j < p.ntodo ? engine_check_stop(o, &serr) : TSG_OK;
		if (j < p.ntodo && !stop && (rc = wait_built(&p, j, err)) == TSG_OK) {
			struct staging *s = &p.stage[j % GPU_SLOTS];
			struct engine_part *ep = &r->parts[p.todo[j]];
			ep->build_s = s->build_s;
			ep->st = s->st;
			r->build_s += s->build_s;
			rc = gpu_submit(gpu, (int)(j % GPU_SLOTS), &s->dag, o->gpu_kernel, err);
		}
		if (rc == TSG_OK && j > 0)
			rc = collect(&p, gpu, j - 1, r, &prog, err);
		if (rc == TSG_OK && stop)
			rc = tsg_fail(err, stop, "%s", serr.msg);
		if (stop)
			break;
	}
	tsg_progress_done(&prog);
	double wall = tsg_now() - wall0;
	r->overlap = wall > 0 ? (r->build_s + r->count_s) / wall : 0;
	pthread_mutex_lock(&p.mu);
	p.abort = 1;
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);
done_sync:
	if (started)
		pthread_join(builder, NULL);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
done:
	{ /* after a failure, copies may still read the staging buffers */
		const int drc = gpu_drain(gpu, err);
		if (rc == TSG_OK)
			rc = drc;
	}
	if (rc == TSG_OK && o->per_vertex)
		rc = fetch_pv(gpu, g, o, r, err);
	for (int s = 0; s < GPU_SLOTS; s++)
		gpu_host_free(gpu, p.stage[s].mem);
	free(todo);
	part_plan_free(p.plan);
	free(order);
	gpu_close(gpu);
	return rc;
}
