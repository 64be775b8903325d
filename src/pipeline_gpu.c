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
 * LSTC layout (and k-cliques): a builder thread builds the parts into pinned
 * staging buffers, two a GPU, while a worker a GPU keeps its device busy
 * (struct parts_pipe below).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/choose.h"
#include "partition/block.h"
#include "src/hostmem.h"
#include "src/clique_share.h"
#include "src/pipeline.h"
#include "base/progress.h"
#include "base/util.h"

int engine_have_gpu(void) { return 1; }
int engine_gpu_devices(void) { return gpu_device_count(); }
uint64_t engine_gpu_memory(int index) { return gpu_device_memory(index); }

struct engine_warm {
	uint32_t n;                        /* threads started */
	pthread_t thread[ENGINE_MAX_GPUS];
	int index[ENGINE_MAX_GPUS];
};

static void *warm_thread(void *arg)
{
	gpu_prewarm(*(const int *)arg);
	return NULL;
}

void engine_gpu_warm_begin(const struct engine_opts *o, struct engine_warm **out)
{
	/* every GPU listed where a layout is named (it uses them all); under
	 * auto only the first, which auto_one_gpu may take alone: with the
	 * second started too, such a run took 2.57 s against --gpu 0's 2.27 s
	 * (R-MAT 25 warm, two H200s, medians of 3, 2026-11-26); where auto
	 * takes the block layout, or k-cliques several parts, it opens the
	 * others itself. Except where the plan found a large file in the page
	 * cache (o->arrival_all_gpus), or the oriented rows cannot fit the
	 * first GPU (o->rows_past_gpu: the block layout or groups on every
	 * GPU): auto then takes every GPU, started now */
	const int one = engine_cliques(o) ? o->cliques_auto_one
					  : !o->rows_past_gpu &&
						    ((o->layout == ENGINE_LAYOUT_AUTO &&
						      !o->arrival_all_gpus) ||
						     o->oriented_auto_one);
	const uint32_t n = one ? 1 : engine_gpu_count(o);
	struct engine_warm *w = calloc(1, sizeof(*w));
	*out = NULL;
	if (!w || n > ENGINE_MAX_GPUS) {
		free(w);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		w->index[w->n] = engine_gpu_count(o) > 1 ? o->gpus[i] : o->gpu_index;
		if (pthread_create(&w->thread[w->n], NULL, warm_thread, &w->index[w->n]) == 0)
			w->n++;
	}
	if (w->n == 0) {
		free(w);
		return;
	}
	*out = w;
}

void engine_gpu_warm_end(struct engine_warm *w)
{
	if (!w)
		return;
	for (uint32_t i = 0; i < w->n; i++)
		pthread_join(w->thread[i], NULL);
	free(w);
}

enum stage_state { STAGE_FREE, STAGE_BUILT };

struct staging {
	struct gpu_ctx *gpu;
	void *mem;
	size_t cap;
	enum stage_state state;
	uint32_t seq;     /* the position in its lane it holds */
	uint32_t k;       /* the part it holds */
	struct tsg_dag dag;
	double build_s;
	struct part_stats st;
};

/* One GPU of the LSTC pipeline: its two staging buffers, filled in turn. */
struct lane {
	struct parts_pipe *p;
	struct gpu_ctx *gpu;
	uint32_t which;   /* its entry in r->gpus */
	struct staging stage[GPU_SLOTS];
	uint32_t filled;  /* parts built for it (the builder's count) */
	uint32_t taken;   /* of them, those its worker has submitted */
	pthread_t thread;
};

/*
 * The LSTC layout's parts on one GPU or several. One builder thread builds
 * them (part_build uses every host thread, and one plan builds one part at
 * a time) in todo's order, each into the free staging buffer of the GPU
 * with the fewest built parts waiting, so a GPU that finishes early gets
 * the next part. A worker a GPU submits each part built for it (copy, then
 * kernels, on slot j % 2) before it collects the one before, so the copy
 * of one overlaps the kernels of the other and the build of the next
 * overlaps both. A staging buffer returns to the builder only once its
 * part has been collected, which is after its copy finished. The lanes,
 * the result, the checkpoint and the progress share one mutex, never held
 * while a device or a build is waited for.
 */
struct parts_pipe {
	struct part_plan *plan;
	const struct engine_opts *o;
	struct engine_result *r;
	const uint32_t *todo; /* the parts to count, in order (not the checkpoint's) */
	uint32_t ntodo, next; /* next: the next to build */
	uint32_t nlanes, done;
	struct lane lane[ENGINE_MAX_GPUS];
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int built_all;    /* the builder has built every part */
	int rc;           /* the first failure (builder or worker): everyone stops */
	struct tsg_err err;
	struct tsg_progress prog;
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

/* Records the pipe's first failure and wakes everyone; under p->mu. */
static void pipe_fail_locked(struct parts_pipe *p, int rc, const struct tsg_err *err)
{
	if (p->rc == TSG_OK) {
		p->rc = rc;
		p->err = *err;
	}
	pthread_cond_broadcast(&p->cv);
}

static void pipe_fail(struct parts_pipe *p, int rc, const struct tsg_err *err)
{
	pthread_mutex_lock(&p->mu);
	pipe_fail_locked(p, rc, err);
	pthread_mutex_unlock(&p->mu);
}

/* The lane to build for next: one whose next buffer is free, the fewest
 * parts waiting first; NULL if none is free. Under p->mu. */
static struct lane *free_lane(struct parts_pipe *p)
{
	struct lane *best = NULL;
	for (uint32_t i = 0; i < p->nlanes; i++) {
		struct lane *l = &p->lane[i];
		if (l->stage[l->filled % GPU_SLOTS].state == STAGE_FREE &&
		    (!best || l->filled - l->taken < best->filled - best->taken))
			best = l;
	}
	return best;
}

static void *builder_main(void *arg)
{
	struct parts_pipe *p = arg;
	for (;;) {
		struct lane *l = NULL;
		pthread_mutex_lock(&p->mu);
		while (p->rc == TSG_OK && p->next < p->ntodo && !(l = free_lane(p)))
			pthread_cond_wait(&p->cv, &p->mu);
		const int stop = p->rc != TSG_OK || p->next == p->ntodo;
		if (p->next == p->ntodo)
			p->built_all = 1;
		const uint32_t k = stop ? 0 : p->todo[p->next++];
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		if (stop)
			return NULL;
		struct staging *s = &l->stage[l->filled % GPU_SLOTS];
		const double t0 = tsg_now();
		struct tsg_err err = { 0 };
		const int rc = part_build(p->plan, k, stage_alloc, s, p->o->want_stats, &s->dag,
					  &s->st, &err);
		pthread_mutex_lock(&p->mu);
		if (rc) {
			pipe_fail_locked(p, rc, &err);
		} else {
			s->build_s = tsg_now() - t0;
			s->seq = l->filled++;
			s->k = k;
			s->state = STAGE_BUILT;
			pthread_cond_broadcast(&p->cv);
		}
		pthread_mutex_unlock(&p->mu);
		if (rc)
			return NULL;
	}
}

/* Waits until the lane's j-th part is built: 1, or 0 where none will be
 * (every part built, or the pipe failed). */
static int wait_built(struct lane *l, uint32_t j)
{
	struct parts_pipe *p = l->p;
	const struct staging *s = &l->stage[j % GPU_SLOTS];
	pthread_mutex_lock(&p->mu);
	while (!(s->state == STAGE_BUILT && s->seq == j) && p->rc == TSG_OK &&
	       !(p->built_all && l->filled <= j))
		pthread_cond_wait(&p->cv, &p->mu);
	const int have = p->rc == TSG_OK && s->state == STAGE_BUILT && s->seq == j;
	l->taken += have;
	pthread_mutex_unlock(&p->mu);
	return have;
}

/* Adds a counted unit or part (its count, its timing t) to the result and
 * to GPU eg's share, and moves the progress line on; under the caller's
 * lock. done: the units counted so far, this one included. */
static void account_unit(struct engine_result *r, struct engine_gpu *eg, uint64_t count,
			 const struct gpu_timing *t, struct tsg_progress *prog, uint32_t done)
{
	r->triangles += count;
	r->count_s += (t->h2d_ms + t->kernel_ms) / 1000.0;
	r->h2d_bytes += t->bytes;
	eg->units++;
	eg->h2d_bytes += t->bytes;
	eg->ahead_bytes += t->ahead_bytes;
	eg->kept_bytes += t->kept_bytes;
	r->kept_bytes += t->kept_bytes;
	eg->h2d_ms += t->h2d_ms;
	eg->kernel_ms += t->kernel_ms;
	char note[64], b[32];
	snprintf(note, sizeof(note), "%s copied to the GPU%s",
		 tsg_fmt_bytes(r->h2d_bytes, b, sizeof(b)), r->ngpus > 1 ? "s" : "");
	tsg_progress_update(prog, r->resumed + done, note);
}

/* Takes the lane's j-th part's count (slot j % GPU_SLOTS) into the result,
 * records it in the checkpoint and frees its staging buffer. */
static int lane_collect(struct lane *l, uint32_t j, struct tsg_err *err)
{
	struct parts_pipe *p = l->p;
	struct engine_result *r = p->r;
	struct staging *s = &l->stage[j % GPU_SLOTS];
	struct gpu_timing t;
	uint64_t count = 0;
	int rc = gpu_collect(l->gpu, (int)(j % GPU_SLOTS), &count, &t, err);
	pthread_mutex_lock(&p->mu);
	if (rc == TSG_OK && p->o->k_all) /* adds into the shared sums */
		rc = gpu_collect_sizes(l->gpu, (int)(j % GPU_SLOTS), r->sizes, r->sizes_len, err);
	if (rc == TSG_OK && (rc = engine_unit_done(p->o, s->k, count, err)) == TSG_OK) {
		struct engine_part *ep = &r->parts[s->k];
		struct engine_gpu *eg = &r->gpus[l->which];
		ep->triangles = count;
		ep->build_s = s->build_s;
		ep->st = s->st;
		ep->h2d_ms = t.h2d_ms;
		ep->kernel_ms = t.kernel_ms;
		ep->kernel = engine_cliques(p->o) ? NULL : gpu_kernel_name(t.ran);
		ep->gpu = (int)l->which;
		r->build_s += s->build_s;
		eg->cost += ep->cost;
		account_unit(r, eg, count, &t, &p->prog, ++p->done);
		s->state = STAGE_FREE;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return rc;
}

static void *lane_main(void *arg)
{
	struct lane *l = arg;
	struct parts_pipe *p = l->p;
	struct tsg_err err = { 0 }, serr = { 0 };
	const double t0 = tsg_now();
	int held = 0, rc = TSG_OK;
	/* submit the j-th, then collect the one before: copy and count overlap */
	for (uint32_t j = 0; rc == TSG_OK; j++) {
		const int stop = engine_check_stop(p->o, &serr);
		const int have = !stop && wait_built(l, j);
		if (have)
			rc = gpu_submit(l->gpu, (int)(j % GPU_SLOTS), &l->stage[j % GPU_SLOTS].dag,
					p->o->gpu_kernel, &err);
		if (rc == TSG_OK && held)
			rc = lane_collect(l, j - 1, &err);
		if (rc == TSG_OK && stop)
			rc = tsg_fail(&err, stop, "%s", serr.msg);
		held = have;
		if (!have)
			break;
	}
	if (rc)
		pipe_fail(p, rc, &err);
	p->r->gpus[l->which].busy_s = tsg_now() - t0; /* its own entry: no lock */
	return NULL;
}

/* Counts p's parts on the GPUs: the builder on a thread, the first lane on
 * this one. Returns the first failure (its error in err). */
static int run_lanes(struct parts_pipe *p, struct gpu_ctx *const *gpu, uint32_t ngpus,
		     struct tsg_err *err)
{
	pthread_t builder;
	uint32_t started = 1;
	p->nlanes = ngpus;
	for (uint32_t i = 0; i < ngpus; i++) {
		p->lane[i].p = p;
		p->lane[i].gpu = gpu[i];
		p->lane[i].which = i;
		for (int s = 0; s < GPU_SLOTS; s++)
			p->lane[i].stage[s].gpu = gpu[i];
	}
	if (pthread_create(&builder, NULL, builder_main, p) != 0)
		return tsg_fail(err, TSG_ENOMEM, "cannot start the builder thread");
	for (; started < ngpus; started++)
		if (pthread_create(&p->lane[started].thread, NULL, lane_main, &p->lane[started])) {
			const struct tsg_err e = { .code = TSG_ENOMEM,
						   .msg = "cannot start a GPU's thread" };
			pipe_fail(p, TSG_ENOMEM, &e);
			break;
		}
	lane_main(&p->lane[0]);
	for (uint32_t i = 1; i < started; i++)
		pthread_join(p->lane[i].thread, NULL);
	pthread_join(builder, NULL); /* done, or woken by the failure that stopped the lanes */
	if (p->rc)
		tsg_fail(err, p->rc, "%s", p->err.msg);
	return p->rc;
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

/*
 * The block layout's units on one GPU or several. Each GPU has a worker
 * that takes the next unit from one queue, submits it to its slot j % 2
 * and collects the one before, so each GPU copies one unit while it counts
 * another. With several GPUs the queue holds the units costliest first
 * (estimated wedges, block_plan_costs): an idle GPU always takes the
 * largest unit left, so none waits at the end on another's long unit
 * (greedy longest-first list scheduling; what each GPU ends up with
 * follows how fast it actually went, not a fixed deal). The queue, the
 * result, the checkpoint and the progress share one mutex, never held
 * while a device is waited for.
 */
struct block_queue {
	const struct engine_opts *o;
	const struct part_odag *d;
	const struct block_plan *plan;
	const enum gpu_kernel *kernels; /* --kernel auto: each unit's, else NULL */
	struct engine_result *r;
	enum gpu_kernel kernel; /* what units run where kernels is NULL */
	struct lists_bg *bg;    /* counted as read: a unit waits for its rows, or NULL */
	int choose_late;        /* --kernel auto counted as read: each unit's kernel
				 * chosen once its rows are in (choose_unit) */
	const uint32_t *todo;
	uint32_t ntodo, next, done;
	int rc;                 /* the first failure; the other workers then take no more */
	struct tsg_err err;
	pthread_mutex_t mu;
	struct tsg_progress prog;
};

struct block_worker {
	struct block_queue *q;
	struct gpu_ctx *gpu;
	uint32_t which; /* its entry in r->gpus */
	pthread_t thread;
};

/* The next unit to count into *k (engine_next_unit); 0 if none is left, a
 * worker failed, or a stop was asked or the ranks' count failed (*stop,
 * its reason in err). */
static int queue_take(struct block_queue *q, uint32_t *k, int *stop, struct tsg_err *err)
{
	int have = 0;
	if ((*stop = engine_check_stop(q->o, err)))
		return 0;
	pthread_mutex_lock(&q->mu);
	if (q->rc == TSG_OK)
		*stop = engine_next_unit(q->o, q->r, q->todo, q->ntodo, &q->next, k, &have, err);
	pthread_mutex_unlock(&q->mu);
	return have;
}

/* Whether units may be left to take: those of this process's queue, or
 * of a count the ranks share (not asked: it is on rank 0). */
static int queue_left(struct block_queue *q)
{
	pthread_mutex_lock(&q->mu);
	const int left = q->r->taken || q->next < q->ntodo;
	pthread_mutex_unlock(&q->mu);
	return left;
}

static void queue_fail(struct block_queue *q, int rc, const struct tsg_err *err)
{
	pthread_mutex_lock(&q->mu);
	if (q->rc == TSG_OK) {
		q->rc = rc;
		q->err = *err;
	}
	pthread_mutex_unlock(&q->mu);
}

/* Takes unit k's count from slot s of w's GPU into the result, and records
 * it in the checkpoint. */
static int worker_collect(struct block_worker *w, int s, uint32_t k, struct tsg_err *err)
{
	struct block_queue *q = w->q;
	struct engine_result *r = q->r;
	struct gpu_timing t;
	uint64_t count = 0;
	int rc = gpu_collect(w->gpu, s, &count, &t, err);
	if (rc)
		return rc;
	pthread_mutex_lock(&q->mu);
	if ((rc = engine_unit_done(q->o, k, count, err)) == TSG_OK) {
		struct engine_part *ep = &r->parts[k];
		struct engine_gpu *eg = &r->gpus[w->which];
		ep->triangles = count;
		ep->h2d_ms = t.h2d_ms;
		ep->kernel_ms = t.kernel_ms;
		ep->kernel = gpu_kernel_name(t.ran);
		ep->gpu = (int)w->which;
		eg->cost += ep->cost;
		account_unit(r, eg, count, &t, &q->prog, ++q->done);
	}
	pthread_mutex_unlock(&q->mu);
	return rc;
}

/* --kernel auto for unit k of a count made as the rows are read: from
 * its estimates (block_plan_costs of k alone, its rows now in), as
 * choose_kernels does for a whole plan. Each unit is one worker's. */
static enum gpu_kernel choose_unit(const struct block_queue *q, uint32_t k)
{
	const struct block_unit *u = &q->plan->units[k];
	const struct block_plan one = { .nunits = 1, .units = (struct block_unit *)u };
	uint64_t wedges = 0, probes = 0, in = 0;
	block_plan_work(q->d, &one, 1, &wedges, &probes, &in);
	const struct kern_unit_work w = { .wedges = wedges, .probes = probes,
					  .entries = q->d->off[u->src_hi] - q->d->off[u->src_lo],
					  .entries_in = in };
	const enum gpu_kernel kk = kern_choose(&w, q->o->per_vertex);
	q->r->parts[k].chosen = gpu_kernel_name(kk);
	q->r->parts[k].cost = wedges;
	return kk;
}

static void *worker_main(void *arg)
{
	struct block_worker *w = arg;
	struct block_queue *q = w->q;
	struct tsg_err err = { 0 }, serr = { 0 };
	const double t0 = tsg_now();
	uint32_t prev = 0;
	int held = 0, stop = 0, rc = TSG_OK;
	/* submit the j-th, then collect the one before: copy and count overlap */
	for (uint32_t j = 0; rc == TSG_OK; j++) {
		uint32_t k = 0;
		const int have = queue_take(q, &k, &stop, &serr);
		if (have && q->bg) /* the unit's rows: counted as read */
			rc = lists_bg_wait_unit(q->bg, &q->plan->units[k], &err);
		if (have && rc == TSG_OK) {
			const struct tsg_unit u = block_unit_of(q->d, &q->plan->units[k]);
			rc = gpu_submit_unit(w->gpu, (int)(j % GPU_SLOTS), &u,
					     q->kernels ? q->kernels[k] : q->choose_late ?
					     choose_unit(q, k) : q->kernel, &err);
		}
		/* while the kernel before this one runs, the rows of units to come
		 * (resident graph): they are then in when those units are taken;
		 * counted as read, only rows the read has passed */
		for (int more = have && held && queue_left(q); rc == TSG_OK && more;)
			rc = gpu_resident_ahead(w->gpu, (int)(j % GPU_SLOTS),
						(int)((j - 1) % GPU_SLOTS),
						q->bg ? (uint32_t)lists_bg_mark(q->bg) : 0,
						&more, &err);
		if (rc == TSG_OK && held)
			rc = worker_collect(w, (int)((j - 1) % GPU_SLOTS), prev, &err);
		held = have;
		prev = k;
		if (!have)
			break;
	}
	if (rc == TSG_OK && stop)
		rc = tsg_fail(&err, stop, "%s", serr.msg);
	if (rc)
		queue_fail(q, rc, &err);
	q->r->gpus[w->which].busy_s = tsg_now() - t0; /* its own entry: no lock */
	return NULL;
}

/* r->gpus: an entry a GPU, none of the units yet its (parts[k].gpu = -1). */
static int gpus_result(struct gpu_ctx *const *gpu, uint32_t ngpus, struct engine_result *r,
		       struct tsg_err *err)
{
	r->gpus = calloc(ngpus, sizeof(*r->gpus));
	if (!r->gpus)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	r->ngpus = ngpus;
	for (uint32_t i = 0; i < ngpus; i++) {
		r->gpus[i].index = gpu_device_index(gpu[i]);
		snprintf(r->gpus[i].name, sizeof(r->gpus[i].name), "%s", gpu_device_name(gpu[i]));
	}
	for (uint32_t k = 0; k < r->nparts; k++)
		r->parts[k].gpu = -1;
	return TSG_OK;
}

/* Runs the queue's workers, one a GPU: the first on this thread. Returns
 * the first failure (its error in err). */
static int run_workers(struct block_queue *q, struct gpu_ctx *const *gpu, uint32_t ngpus,
		       struct tsg_err *err)
{
	struct block_worker *w = calloc(ngpus, sizeof(*w));
	uint32_t started = 1;
	if (!w)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < ngpus; i++)
		w[i] = (struct block_worker){ .q = q, .gpu = gpu[i], .which = i };
	for (; started < ngpus; started++)
		if (pthread_create(&w[started].thread, NULL, worker_main, &w[started]) != 0) {
			const struct tsg_err e = { .code = TSG_ENOMEM,
						   .msg = "cannot start a GPU's thread" };
			queue_fail(q, TSG_ENOMEM, &e);
			break;
		}
	worker_main(&w[0]);
	for (uint32_t i = 1; i < started; i++)
		pthread_join(w[i].thread, NULL);
	free(w);
	if (q->rc)
		tsg_fail(err, q->rc, "%s", q->err.msg);
	return q->rc;
}

/* gpu_resident_begin on each of the GPUs with plan's units over d (each
 * running kernels[i], or k), on[i] set for each that holds the rows. */
static int resident_try(struct gpu_ctx *const *gpu, uint32_t ngpus, const struct part_odag *d,
			const struct block_plan *plan, const enum gpu_kernel *kernels,
			enum gpu_kernel k, int upward, int *on, struct tsg_err *err)
{
	const uint32_t n = plan->nunits;
	int rc = TSG_OK;
	struct tsg_unit *u = malloc(n * sizeof(*u));
	if (!u)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < n; i++)
		u[i] = block_unit_of(d, &plan->units[i]);
	for (uint32_t i = 0; i < ngpus && rc == TSG_OK; i++)
		rc = gpu_resident_begin(gpu[i], u, kernels, k, n, upward, &on[i], err);
	free(u);
	return rc;
}

/* "auto chose K for N of M units" (each kernel picked) added to r->note,
 * then why (may be ""). */
static void note_picked(struct engine_result *r, const uint32_t *picked, uint32_t n,
			const char *why)
{
	size_t used = strlen(r->note);
	const char *sep = used ? "; auto chose" : "auto chose";
	for (int j = 0; j < GPU_KERNEL_COUNT_ && used < sizeof(r->note); j++)
		if (picked[j]) {
			used += (size_t)snprintf(r->note + used, sizeof(r->note) - used, "%s %s for %u "
						 "of %u units", sep, gpu_kernel_name((enum gpu_kernel)j),
						 picked[j], n);
			sep = ",";
		}
	if (why[0] && used < sizeof(r->note))
		snprintf(r->note + used, sizeof(r->note) - used, "%s", why);
}

/* An oriented .tsg counted as it is read (src/pipeline.h): where the
 * rows and two slots of k's scratch fit the device, the rows are held once
 * on every GPU (gpu_resident_begin: *resident) and the units are row
 * blocks, the file read from its end down, the top ranks first (auto), or
 * with --overlap-cut columns, columns, the file read up; else the budget's
 * units (or --partitions') in read order up, each copying its rows. The
 * read starts once that is settled, unless stream_early began it (bg
 * started): it then runs down, and budget units go top first. */
static int stream_prepare(struct gpu_ctx *const *gpu, uint32_t ngpus, struct tsg_graph *g,
			  const struct engine_opts *o, const struct block_opts *bo, enum gpu_kernel k,
			  struct engine_block_mem *mem, struct part_odag *d,
			  struct block_plan *plan, struct lists_bg *bg, int *resident,
			  struct engine_result *r, struct tsg_err *err)
{
	const enum engine_stream_cut cut = o->overlap_cut == ENGINE_CUT_COLUMNS ? STREAM_CUT_COLUMNS
										: STREAM_CUT_ROWS_DOWN;
	const int early = bg->started; /* read down since before the GPUs opened */
	int rc = TSG_OK, tried = 0;
	*resident = 0;
	engine_block_stream_rows(g, mem, d);
	if (!bo->nblocks)
		rc = engine_block_stream_plan(d, o, bo, cut, plan, r, err);
	if (rc == TSG_OK && !bo->nblocks && plan->nunits >= 2) {
		int on[ENGINE_MAX_GPUS] = { 0 }; /* GPUs holding the rows: all, or none */
		tried = 1;
		rc = resident_try(gpu, ngpus, d, plan, NULL, k, cut == STREAM_CUT_COLUMNS, on, err);
		*resident = rc == TSG_OK;
		for (uint32_t i = 0; i < ngpus; i++)
			*resident &= on[i];
		for (uint32_t i = 0; !*resident && i < ngpus; i++)
			if (on[i])
				gpu_resident_end(gpu[i]);
	}
	if (rc == TSG_OK && !*resident) {
		/* one block, or the rows do not stay: units within the budget */
		block_plan_free(plan);
		free(r->parts);
		r->parts = NULL;
		rc = engine_block_stream_plan(d, o, bo, STREAM_CUT_BUDGET, plan, r, err);
		if (rc == TSG_OK && early) {
			block_plan_by_low(plan);
			r->stream.down = 1;
		}
	}
	if (rc == TSG_OK && early) { /* the plan says so: its reason is this why */
		const size_t at = strlen(r->stream.why);
		snprintf(r->stream.why + at, sizeof(r->stream.why) - at, "%s", *resident
			 ? "; the read begun before the GPUs were opened"
			 : tried ? "; the file read down, begun before the GPUs were opened, "
				   "whose memory then fell short of the rows"
				 : "; the file read down, begun before the GPUs were opened");
	}
	if (rc || early)
		return rc;
	return lists_bg_begin(bg, g, *resident && cut == STREAM_CUT_ROWS_DOWN, err);
}

/* Whether --tile is one mid-hash refuses (engine_count_gpu, once a GPU is
 * open). */
static int mid_hash_tile_bad(const struct engine_opts *o)
{
	return o->tile && (o->gpu_kernel == GPU_KERNEL_MID_HASH || o->gpu_kernel == GPU_KERNEL_AUTO) &&
	       (o->tile < 64 || o->tile > 4096);
}

/*
 * An oriented .tsg counted as read, --overlap not off nor columns and no
 * --partitions: its read down begins here (*bg), before the GPUs are
 * opened, rather than once their contexts, budgets and resident rows are
 * made; nothing of CUDA is asked first (the runtime's start alone held it
 * 0.07-0.25 s). Where the GPUs then hold the rows (stream_prepare), row
 * blocks follow it; where they cannot, the budget's units go top first
 * (block_plan_by_low), which beat them read up. Measured on two H200s,
 * R-MAT 26 stored oriented (bench/raw/h200x2-2026-11-28-s43/): warm, the
 * read began 0.45 s into the engine on one GPU and 0.6-0.7 s on two,
 * where two count in 0.8 s; cold at a quarter of the plain file's size,
 * one GPU, budget units read up 5.43 s (5.34-5.99), read down 4.50 s
 * (4.15-5.37), dd 2.77 s. Once it runs, g->lists_pending is the read's to
 * write: the caller takes it before.
 */
static int stream_early(struct tsg_graph *g, const struct engine_opts *o, struct lists_bg *bg,
			struct engine_result *r, struct tsg_err *err)
{
	/* not where the run will be refused: a read begun only to be stopped */
	if (!g->oriented || o->overlap_cut == ENGINE_CUT_COLUMNS || o->part.nparts ||
	    o->scratch_dir || mid_hash_tile_bad(o) || !engine_block_streams(g, o, r))
		return TSG_OK;
	return lists_bg_begin(bg, g, 1, err);
}

static uint64_t auto_groups_rows(void);

int engine_arrival_likely(const struct engine_opts *o, uint64_t nedges)
{
	const int arrival = o->layout == ENGINE_LAYOUT_ARRIVAL ||
			    (o->layout == ENGINE_LAYOUT_AUTO && (!o->scratch_dir || o->arrival_mapped));
	if (!arrival || o->device == TSG_DEVICE_CPU || engine_cliques(o) || o->plan_only ||
	    o->nranks > 1 || o->ckpt || o->read_ranges || mid_hash_tile_bad(o) ||
	    o->batches > PART_ARRIVAL_MAX_BATCHES)
		return 0;
	const uint64_t rows = nedges * 4;
	return !(o->layout == ENGINE_LAYOUT_AUTO && o->gpu_mem && rows >= o->gpu_mem / 2 &&
		 rows < auto_groups_rows());
}

/*
 * A plain .tsg (not a crawl being decoded) that the arrival layout will
 * count, named or likely auto's (engine_arrival_likely, from the header
 * alone, nothing of CUDA asked first): its read up begins here (*bg),
 * before the GPUs are opened, as stream_early's does for an oriented file,
 * and the batches follow it (lists_bg_feed) once the pass is set up. Not
 * where --host-mem's batches outgrow the budget (spilled on the block
 * layout). Where another layout is taken after all, the read is waited for
 * first (early_join). Nor where --io auto found the file in the page cache
 * and read it with buffered reads: warm, the copy into memory raced the
 * CUDA runtime's start (the GPU opened 0.43-0.66 s in against 0.13-0.15)
 * and the early read cost 0.08 s; such a file is mapped instead where the
 * arrival layout is likely (run.c, IO_OPEN_CACHED_MAP), and its walk goes
 * early. Measured on one H200, R-MAT 26 (8.95 GB), medians of 3, run for
 * run (bench/raw/h200-2026-11-28-s44-callA/): cold 6.65 -> 5.95 s (`dd`
 * 5.40), at a quarter of the file's size (groups) 7.53 -> 6.02 s,
 * --host-mem 4G 6.65 -> 6.25 s; warm 3.47 against 3.55 s.
 */
static int arrival_early(struct tsg_graph *g, const struct engine_opts *o, struct lists_bg *bg,
			 struct tsg_err *err)
{
	if (g->oriented || !g->lists_pending || g->lists_src || !engine_arrival_likely(o, g->nadj / 2) ||
	    (g->io_cached >= io_cached_enough() && g->io_used != IO_MODE_MMAP))
		return TSG_OK;
	if (o->arrival_mapped) {
		struct part_arrival_plan ap = { 0 };
		const int rc = part_arrival_plan_new(g, o->batches, &ap, err);
		const uint64_t host = hostmem_arrival_bytes(ap.nv, ap.max_entries, ap.max_vertices,
							    o->threads, engine_gpu_count(o),
							    o->per_vertex);
		part_arrival_plan_free(&ap);
		if (rc || host > o->arrival_budget)
			return rc;
	}
	/* no thread to be had: read after the GPU opens, as before */
	struct tsg_err berr = { 0 };
	(void)lists_bg_begin(bg, g, 0, &berr);
	return TSG_OK;
}

/* A plain file's early read (arrival_early) where a layout other than the
 * arrival's counts: waited for, its verdict taken, before that layout's
 * pass over the lists (which then finds them read), and said. */
static int early_join(struct tsg_graph *g, struct lists_bg *bg, struct engine_result *r,
		      struct tsg_err *err)
{
	if (!bg->started || g->oriented)
		return TSG_OK;
	const size_t at = strlen(r->note);
	snprintf(r->note + at, sizeof(r->note) - at, "%sthe lists, whose read began before the "
		 "GPUs were opened for the arrival layout, were oriented once all were in (the "
		 "arrival layout was not taken)", at ? "; " : "");
	return lists_bg_end(bg, err);
}

/* A GPU run's read on bg joined (engine_block_stream_end: its failure, a
 * bad file, winning over the run's), stopped first where the run failed,
 * unless the CPU will count (engine_gpu_to_cpu: the rows it leaves). */
static int early_end(struct lists_bg *bg, const struct engine_opts *o, int rc,
		     struct engine_result *r, struct tsg_err *err)
{
	if (rc && !engine_gpu_to_cpu(o, rc, r))
		lists_bg_stop(bg);
	return engine_block_stream_end(bg, rc, r, err);
}

/* --kernel auto: each unit's kernel (kernels/choose.h) from its estimated
 * wedges, probes and counted edges (block_plan_work) and its source
 * entries, into
 * *kernels (nunits) and r->parts[k].chosen; the wedges, the units' costs,
 * into r->parts[k].cost (engine_block_share then reuses them); "auto
 * chose ..." in the note. */
static int choose_kernels(const struct part_odag *d, const struct block_plan *plan,
			  const struct engine_opts *o, struct engine_result *r,
			  enum gpu_kernel **kernels, struct tsg_err *err)
{
	const uint32_t n = plan->nunits;
	uint64_t *wedges = malloc((n ? n : 1) * sizeof(*wedges));
	uint64_t *probes = malloc((n ? n : 1) * sizeof(*probes));
	uint64_t *in = malloc((n ? n : 1) * sizeof(*in));
	enum gpu_kernel *k = malloc((n ? n : 1) * sizeof(*k));
	uint32_t picked[GPU_KERNEL_COUNT_] = { 0 };
	int rc = TSG_OK;
	if (!wedges || !probes || !in || !k) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory choosing kernels");
		goto done;
	}
	block_plan_work(d, plan, o->threads, wedges, probes, in);
	for (uint32_t i = 0; i < n; i++) {
		const struct block_unit *u = &plan->units[i];
		const struct kern_unit_work w = { .wedges = wedges[i], .probes = probes[i],
						  .entries = d->off[u->src_hi] - d->off[u->src_lo],
						  .entries_in = in[i] };
		k[i] = kern_choose(&w, o->per_vertex);
		r->parts[i].chosen = gpu_kernel_name(k[i]);
		r->parts[i].cost = wedges[i];
		picked[k[i]]++;
	}
	note_picked(r, picked, n, "");
	*kernels = k;
	k = NULL;
done:
	free(wedges);
	free(probes);
	free(in);
	free(k);
	return rc;
}

/* How many of plan's units --kernel auto gives edge-merge (kernels/choose.h),
 * into *n; TSG_ENOMEM where the estimates find no memory. */
static int count_edge_merge(const struct part_odag *d, const struct block_plan *plan,
			    const struct engine_opts *o, uint32_t *n, struct tsg_err *err)
{
	const uint32_t m = plan->nunits;
	uint64_t *w = malloc((m ? m : 1) * 3 * sizeof(*w));
	if (!w)
		return tsg_fail(err, TSG_ENOMEM, "out of memory choosing kernels");
	block_plan_work(d, plan, o->threads, w, w + m, w + 2 * m);
	*n = 0;
	for (uint32_t i = 0; i < m; i++) {
		const struct block_unit *u = &plan->units[i];
		const struct kern_unit_work x = { .wedges = w[i], .probes = w[m + i],
						  .entries = d->off[u->src_hi] - d->off[u->src_lo],
						  .entries_in = w[2 * m + i] };
		*n += kern_choose(&x, o->per_vertex) == GPU_KERNEL_EDGE_MERGE;
	}
	free(w);
	return TSG_OK;
}

/* --kernel auto cuts units with room for the scratch of any kernel it may
 * pick (gpu_kernel_scratch: 8 bytes beside each source entry's 4), so a
 * graph whose every unit then takes edge-merge, which needs none, is cut
 * far finer than it needs (web 2^24 at a quarter of the plain file on an
 * H200: 150 units and 1.66 s, against 37 units and 1.18 s with --kernel
 * edge-merge; bench/raw/h200-2026-11-27-quarter-kernels/). There the
 * units are cut again with edge-merge's scratch, and the new plan is kept
 * where auto gives every unit of it edge-merge too (the note says so),
 * else the first. Not for units fixed by --partitions, costed over ranks
 * (their rows are not all here) or counted as read (no rows yet). */
static int auto_replan(const struct part_odag *d, const struct block_opts *bo,
		       const struct engine_opts *o, struct block_plan *plan,
		       struct engine_result *r, struct tsg_err *err)
{
	struct block_plan again = { 0 };
	uint32_t n = 0;
	if (o->gpu_kernel != GPU_KERNEL_AUTO || o->per_vertex || bo->nblocks || plan->nunits < 2 ||
	    plan->cost)
		return TSG_OK;
	int rc = count_edge_merge(d, plan, o, &n, err);
	if (rc || n < plan->nunits)
		return rc;
	struct block_opts b2 = *bo;
	b2.scratch = gpu_kernel_scratch(GPU_KERNEL_EDGE_MERGE, 0);
	if ((rc = block_plan_new(d, &b2, &again, err)) ||
	    (rc = count_edge_merge(d, &again, o, &n, err)) || again.nunits >= plan->nunits ||
	    n < again.nunits)
		goto done;
	struct engine_part *parts = calloc(again.nunits, sizeof(*parts));
	if (!parts) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto done;
	}
	const size_t used = strlen(r->note);
	snprintf(r->note + used, sizeof(r->note) - used, "%s%u units cut for edge-merge, not %u",
		 used ? "; " : "", again.nunits, plan->nunits);
	free(r->parts);
	r->parts = parts;
	r->nblocks = again.nsrc_blocks;
	struct block_plan first = *plan;
	*plan = again;
	again = first; /* freed below */
done:
	block_plan_free(&again);
	return rc;
}

/* Several units, each GPU's whole graph read once where it fits beside
 * their scratch (gpu_resident_begin): a GPU then copies each row at most
 * once rather than once a unit that holds it. Not for ranks reading by
 * ranges, whose rows outside their units were never read. */
static int resident_begin(struct gpu_ctx *const *gpu, uint32_t ngpus, const struct part_odag *d,
			  const struct block_plan *plan, const enum gpu_kernel *kernels,
			  const struct engine_opts *o, struct engine_result *r, struct tsg_err *err)
{
	int on[ENGINE_MAX_GPUS] = { 0 };
	if (plan->nunits < 2 || r->ranges.used || o->plan_only)
		return TSG_OK;
	const int rc = resident_try(gpu, ngpus, d, plan, kernels, o->gpu_kernel, 0, on, err);
	for (uint32_t i = 0; i < ngpus; i++)
		r->gpus[i].resident = on[i];
	return rc;
}

/* Whether some GPU holds the resident graph. */
static int graph_held(const struct engine_result *r)
{
	for (uint32_t i = 0; i < r->ngpus; i++)
		if (r->gpus[i].resident)
			return 1;
	return 0;
}

/* A GPU's staging buffers made on a thread of its own (stages_begin):
 * pinning 3 x 64 MiB takes about 0.1 s a GPU (cudaMallocHost pins about
 * 2 GB/s, bench/RESULTS.md session 39), which GPU after GPU on one thread
 * added up before the count (bench/raw/h200x2-2026-11-28-s43/).
 * gpu_stage_reserve sets its GPU on the thread. */
struct stage_job {
	struct gpu_ctx *gpu;
	int started; /* on its thread */
	pthread_t thread;
	int rc;
	struct tsg_err err;
};

static void *stage_main(void *arg)
{
	struct stage_job *j = arg;
	j->rc = gpu_stage_reserve(j->gpu, &j->err);
	return NULL;
}

/* Starts making the staging buffers of each of the n GPUs, each on a
 * thread, or here where none can be had. */
static void stages_begin(struct stage_job *jobs, struct gpu_ctx *const *gpu, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		jobs[i] = (struct stage_job){ .gpu = gpu[i] };
		jobs[i].started = pthread_create(&jobs[i].thread, NULL, stage_main, &jobs[i]) == 0;
		if (!jobs[i].started)
			stage_main(&jobs[i]);
	}
}

/* Waits for stages_begin's jobs; the first failure (its error in err). */
static int stages_end(struct stage_job *jobs, uint32_t n, struct tsg_err *err)
{
	int rc = TSG_OK;
	for (uint32_t i = 0; i < n; i++) {
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
		jobs[i].started = 0;
		if (jobs[i].rc && rc == TSG_OK)
			rc = tsg_fail(err, jobs[i].rc, "%s", jobs[i].err.msg);
	}
	return rc;
}

/* The block layout on ngpus GPUs; bg: the rows' read if stream_early
 * began it (else zeroed), ended here. */
static int count_gpu_block(struct gpu_ctx *const *gpu, uint32_t ngpus, uint64_t slot,
			   struct tsg_graph *g, const struct engine_opts *o, struct lists_bg *bg,
			   struct engine_result *r, struct tsg_err *err)
{
	const struct tsg_scratch sc = gpu_kernel_scratch(o->gpu_kernel, o->per_vertex);
	struct host_block hb = { .gpu = gpu[0], .want_pin = o->pin_host > 0 && !o->scratch_dir,
				 .mem = { .scratch_dir = o->scratch_dir } }; /* auto: off */
	struct part_odag d = { 0 };
	struct block_plan plan = { 0 };
	struct block_queue q = { .o = o, .d = &d, .plan = &plan, .r = r, .kernel = o->gpu_kernel };
	uint32_t *todo = NULL, ntodo = 0;
	enum gpu_kernel *kernels = NULL;
	/* begun early, the read owns g->lists_pending: it streams */
	const int streams = bg->started || engine_block_streams(g, o, r);
	int held_once = 0; /* streams: the rows held once (row blocks, or columns) */
	/* counted as read, auto has no rows yet to choose by: mid-hash for
	 * the units over rows held once (the kernel auto takes for the whole
	 * graph as one unit: R-MAT 26 on an H200, 1.28 s of kernels in one
	 * unit), else a unit's kernel once its rows are in */
	const enum gpu_kernel col_kernel = o->gpu_kernel == GPU_KERNEL_AUTO ? GPU_KERNEL_MID_HASH
									     : o->gpu_kernel;
	/* units shared by GPUs or ranks: source blocks of at most 1/4 of each
	 * one's share of the work, the last quarter in pieces four times
	 * smaller (block_opts.min_units), so the queue (or the deal) can even
	 * it out; equal bytes put most of a skewed graph's work in its last
	 * block (measured on two H200s: bench/RESULTS.md). Where the whole
	 * graph fits a unit's budget it will be resident (resident_begin), and
	 * the blocks hold equal shares instead (block_opts.resident) */
	const uint32_t sharers = ngpus * (o->nranks ? o->nranks : 1);
	/* the GPUs of one process take a block's units in turn (one GPU in
	 * plan order, several by engine_units_by_block), each slot keeping
	 * its source rows for its next unit (gpu_keep_sources): the plan may
	 * then take larger source blocks (block_opts.src_keep: each GPU's
	 * slot sees every 2 * ngpus-th unit, about); not where ranks share
	 * the units, or where they go in the order a read completes them */
	const int by_block = !streams && o->nranks <= 1;
	const struct block_opts bo = { .nblocks = o->part.nparts, .budget = slot, .scratch = sc,
				       .min_units = sharers > 1 ? 4 * sharers : 0, .resident = 1,
				       .src_keep = by_block ? GPU_SLOTS * ngpus : 0,
				       .threads = o->threads };
	int rc = TSG_OK;
	/* staged copies: their buffers made while the graph is prepared, every
	 * GPU's at once, not in the first copy */
	struct stage_job stage[ENGINE_MAX_GPUS];
	stages_begin(stage, gpu, hb.want_pin ? 0 : ngpus);
	if (streams)
		rc = stream_prepare(gpu, ngpus, g, o, &bo, col_kernel, &hb.mem, &d, &plan, bg, &held_once,
				    r, err);
	else if ((rc = engine_block_prepare(g, o, &bo, host_block_alloc, &hb, &hb.mem, &d, &plan, r,
					    err)) == TSG_OK)
		rc = auto_replan(&d, &bo, o, &plan, r, err);
	const int src = stages_end(stage, hb.want_pin ? 0 : ngpus, rc ? &(struct tsg_err){ 0 } : err);
	if (rc == TSG_OK)
		rc = src;
	if (d.off && hb.want_pin && !hb.pinned)
		snprintf(r->note, sizeof(r->note), "pinned host memory unavailable: copies are slower");
	if (rc)
		goto done;
	r->nparts = plan.nunits; /* from here on a failure is not a reason to fall back */
	r->units_even = plan.even;
	if ((rc = gpus_result(gpu, ngpus, r, err)))
		goto done;
	for (uint32_t k = 0; k < r->nparts; k++) {
		block_unit_stats(&d, &plan.units[k], &r->parts[k].st);
	}
	for (uint32_t i = 0; streams && i < ngpus; i++)
		r->gpus[i].resident = held_once;
	if (streams && o->gpu_kernel == GPU_KERNEL_AUTO) {
		q.kernel = col_kernel;
		q.choose_late = !held_once;
		for (uint32_t k = 0; held_once && k < r->nparts; k++)
			r->parts[k].chosen = gpu_kernel_name(col_kernel);
	}
	if ((o->gpu_kernel == GPU_KERNEL_AUTO && !streams &&
	     (rc = choose_kernels(&d, &plan, o, r, &kernels, err))) ||
	    (rc = engine_ckpt_plan(o, engine_block_plan_key(&plan), plan.nunits, r, err)) ||
	    /* counted as read, the units go in the order their rows come, to
	     * whichever GPU is free: no costs, which need the rows */
	    (!streams &&
	     (rc = engine_block_share(o, &d, &plan, o->gpu_kernel == GPU_KERNEL_AUTO, r, err))) ||
	    (rc = engine_units_todo(o, r, ngpus > 1 && !streams, &todo, &ntodo, err)))
		goto done;
	if (!streams && (rc = resident_begin(gpu, ngpus, &d, &plan, kernels, o, r, err)))
		goto done;
	/* several GPUs out of core: a block's units together, so that each
	 * GPU keeps source rows (the resident graph copies each row once
	 * anyway, and its units go by cost, the first ones short) */
	if (by_block && ngpus > 1 && !r->taken && !graph_held(r) &&
	    (rc = engine_units_by_block(&plan, r, todo, ntodo, err)))
		goto done;
	/* a GPU without the resident graph keeps each slot's source rows for
	 * the slot's next unit of the same block (gpu_keep_sources) */
	for (uint32_t i = 0; i < ngpus; i++)
		gpu_keep_sources(gpu[i], !r->gpus[i].resident);
	q.bg = streams ? bg : NULL;
	q.todo = todo;
	q.ntodo = ntodo;
	q.kernels = kernels;
	pthread_mutex_init(&q.mu, NULL);
	tsg_progress_init(&q.prog, "count", "units", r->nparts, o->progress && r->nparts > 1);
	const double wall0 = tsg_now();
	rc = run_workers(&q, gpu, ngpus, err);
	engine_units_taken(o, r);
	tsg_progress_done(&q.prog);
	pthread_mutex_destroy(&q.mu);
	r->count_wall_s = tsg_now() - wall0;
	r->count_start = wall0;
	/* per GPU: the share of the wall time its copies and kernels took */
	r->overlap = r->count_wall_s > 0 ? r->count_s / (r->count_wall_s * ngpus) : 0;
	if (streams && o->gpu_kernel == GPU_KERNEL_AUTO) {
		uint32_t picked[GPU_KERNEL_COUNT_] = { 0 };
		for (uint32_t k = 0; k < r->nparts; k++)
			for (int j = 0; j < GPU_KERNEL_COUNT_; j++)
				if (r->parts[k].chosen &&
				    strcmp(r->parts[k].chosen, gpu_kernel_name((enum gpu_kernel)j)) == 0)
					picked[j]++;
		note_picked(r, picked, r->nparts, held_once ? " (counted as read: no rows yet to "
			    "estimate by)" : " (each as its rows came in)");
	}
done:
	for (uint32_t i = 0; i < ngpus; i++) { /* copies may still read the oriented graph */
		const int drc = gpu_drain(gpu[i], err);
		if (rc == TSG_OK)
			rc = drc;
		gpu_resident_end(gpu[i]); /* and forgets the kept source rows */
	}
	if (streams)
		rc = early_end(bg, o, rc, r, err);
	free(todo);
	free(kernels);
	block_plan_free(&plan);
	if (hb.pinned)
		gpu_host_free(gpu[0], d.off);
	else
		engine_block_release(&hb.mem, d.off);
	return rc;
}

/* The arrival layout's sink: the batches' lists go to the device as read,
 * from where they lie (gpu.h pins them in place), and the device orients
 * them; the host writes no rows. With a checkpoint, each batch's count is
 * recorded once the device has it (polled as later batches are handed
 * over, waited for at the end), and a batch the checkpoint holds is placed
 * but not counted. On several GPUs each gets every batch and counts a
 * share of its edges (gpu_arrival_share); a batch is done when all are. */
struct gpu_sink {
	struct gpu_ctx *const *gpu;
	uint32_t ngpus;
	int grouped;        /* groups (gpu.h): several GPUs count a group's pieces at once */
	const struct tsg_graph *g;
	const struct engine_opts *o;
	struct engine_result *r;
	uint64_t *at;       /* where each batch's lists start */
	uint64_t *cum;      /* several GPUs: the summed running counts */
	uint32_t submitted; /* batches handed to the devices */
	uint32_t recorded;  /* of them, those whose count is recorded (or resumed) */
};

static int gs_begin(void *ctx, const struct part_arrival_plan *p, const uint32_t *rank,
		    const uint32_t *batch_of, uint64_t nzero, struct tsg_err *err)
{
	const struct gpu_sink *s = ctx;
	/* a crawl decoded as counted places its lists as they come: where each
	 * batch starts is known when it is handed over, and nothing is pinned
	 * ahead of the decoder */
	const int placed_later = s->g->lists_src != NULL;
	for (uint32_t k = 0; !placed_later && k <= p->nbatches; k++)
		s->at[k] = s->g->off[p->bound[k]];
	/* memory of our own is pinned before the file is read into it */
	const struct gpu_arrival_src src = { .adj = s->g->adj, .at = placed_later ? NULL : s->at,
					     .pin_ahead = !placed_later && s->g->adj_mem &&
							  s->g->adj == s->g->adj_mem };
	int rc = TSG_OK;
	for (uint32_t i = 0; i < s->ngpus && rc == TSG_OK; i++) {
		if (s->ngpus > 1)
			rc = gpu_arrival_share(s->gpu[i], i ? s->gpu[0] : NULL, s->gpu + 1,
					       i ? 0 : s->ngpus - 1, i, s->ngpus, err);
		if (rc == TSG_OK)
			rc = gpu_arrival_begin(s->gpu[i], p->nv, p->ne, p->nbatches, p->max_entries,
					       p->max_vertices, rank, batch_of, nzero, &src, err);
	}
	return rc;
}

/* Records the counts of the batches every device has finished (all those
 * submitted, if wait). */
static int gs_record(struct gpu_sink *s, int wait, struct tsg_err *err)
{
	uint32_t ndone = s->submitted;
	const uint64_t *cum = NULL;
	int rc = TSG_OK;
	if (!s->o->ckpt || s->recorded == s->submitted)
		return TSG_OK;
	for (uint32_t i = 0; i < s->ngpus && rc == TSG_OK; i++) {
		uint32_t d = s->recorded;
		rc = gpu_arrival_poll(s->gpu[i], s->recorded, s->submitted, wait, &d, &cum, err);
		ndone = d < ndone ? d : ndone;
		for (uint32_t k = s->recorded; s->ngpus > 1 && rc == TSG_OK && k < d; k++)
			s->cum[k] = (i ? s->cum[k] : 0) + cum[k];
	}
	if (s->ngpus > 1)
		cum = s->cum;
	for (uint32_t k = s->recorded; rc == TSG_OK && k < ndone; k++) {
		if (!s->r->parts[k].resumed)
			rc = engine_unit_done(s->o, k, cum[k] - (k ? cum[k - 1] : 0), err);
		if (rc == TSG_OK)
			s->recorded = k + 1;
	}
	return rc;
}

/* A GPU's second step of a batch (gpu_arrival_finish), on a thread. */
struct gs_finisher {
	struct gpu_ctx *gpu;
	pthread_t thread;
	int started, rc;
	struct tsg_err err;
};

static void *gs_finish_one(void *arg)
{
	struct gs_finisher *f = arg;
	f->rc = gpu_arrival_finish(f->gpu, &f->err);
	return NULL;
}

/* Groups on several GPUs: the batch staged on every GPU (the leader, which
 * pins, first), then finished, where it ended a group on every GPU at once
 * (each counts its pieces of the earlier groups: the host waits on each
 * pair's tally, so one thread would count the GPUs' shares in turn). */
static int gs_batch_groups(struct gpu_sink *s, const struct tsg_batch *b, int count,
			   struct tsg_err *err)
{
	struct gs_finisher f[GPU_ARRIVAL_MAX_SHARES] = { { 0 } };
	int rc = TSG_OK, pairs = 0;
	for (uint32_t i = 0; i < s->ngpus && rc == TSG_OK; i++) {
		int p = 0;
		rc = gpu_arrival_stage(s->gpu[i], b->k, b->v_lo, (uint32_t)(b->v_hi - b->v_lo),
				       s->g->off + b->v_lo, count, &p, err);
		pairs |= p;
	}
	/* the others' threads first, then the leader's step here, then any
	 * thread that could not be started, in turn (session 40 ran the
	 * leader's first: the GPUs then counted their shares one after the
	 * other) */
	for (uint32_t i = 0; i < s->ngpus && rc == TSG_OK; i++) {
		f[i].gpu = s->gpu[i];
		f[i].started = pairs && i > 0 &&
			       pthread_create(&f[i].thread, NULL, gs_finish_one, &f[i]) == 0;
	}
	for (uint32_t i = 0; i < s->ngpus && rc == TSG_OK; i++)
		if (!f[i].started)
			gs_finish_one(&f[i]);
	for (uint32_t i = 0; i < s->ngpus; i++) {
		if (f[i].started)
			pthread_join(f[i].thread, NULL);
		if (f[i].gpu && f[i].rc && rc == TSG_OK)
			rc = tsg_fail(err, f[i].rc, "%s", f[i].err.msg);
	}
	return rc;
}

static int gs_batch(void *ctx, const struct tsg_batch *b, struct tsg_err *err)
{
	struct gpu_sink *s = ctx;
	const int resumed = engine_unit_resume(s->o, b->k, s->r);
	int rc = resumed ? TSG_OK : engine_check_stop(s->o, err);
	if (rc == TSG_OK && s->grouped && s->ngpus > 1)
		rc = gs_batch_groups(s, b, !resumed, err);
	else
		for (uint32_t i = 0; i < s->ngpus && rc == TSG_OK; i++) /* the leader, which pins, first */
			rc = gpu_arrival_submit(s->gpu[i], b->k, b->v_lo,
						(uint32_t)(b->v_hi - b->v_lo), s->g->off + b->v_lo,
						!resumed, err);
	if (rc == TSG_OK) {
		s->submitted = b->k + 1;
		rc = gs_record(s, 0, err);
	}
	return rc;
}

/* Tests (tests/gpu/groups.sh): TSG_TEST_ARRIVAL_GROUPS=1 takes groups
 * under --layout arrival even where every row fits, so that any batch
 * count can be tried on a small graph. */
static int arrival_groups_test(void)
{
	const char *v = getenv("TSG_TEST_ARRIVAL_GROUPS");
	return v && strcmp(v, "1") == 0;
}

/* Ends the arrival run on every device, the others before the leader
 * (which unpins the lists they copy from), into res summed over the
 * devices and per / ms by batch (counts summed, device time the longest;
 * each GPU's own in each, if not NULL); every device is ended even after
 * one fails. */
static int gs_end(struct gpu_ctx *const *gpu, uint32_t ngpus, uint64_t *per, float *ms,
		  uint32_t nbatches, struct gpu_arrival_result *res, struct engine_gpu *each,
		  struct tsg_err *err)
{
	int rc = TSG_OK;
	uint64_t *p1 = per;
	float *m1 = ms;
	*res = (struct gpu_arrival_result){ 0 };
	if (ngpus > 1) {
		p1 = calloc(nbatches ? nbatches : 1, sizeof(*p1));
		m1 = calloc(nbatches ? nbatches : 1, sizeof(*m1));
		if (!p1 || !m1)
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
	}
	for (uint32_t j = ngpus; j-- > 0;) {
		struct gpu_arrival_result one;
		struct tsg_err e1 = { 0 };
		const int r1 = p1 && m1 ? gpu_arrival_end(gpu[j], p1, m1, &one, &e1)
					: gpu_arrival_end(gpu[j], per, ms, &one, &e1);
		if (r1 && rc == TSG_OK)
			rc = tsg_fail(err, r1, "%s", e1.msg);
		if (r1 || rc)
			continue;
		if (each) { /* every GPU takes every batch, and a share of its edges */
			each[j].units = nbatches;
			each[j].h2d_bytes = one.bytes;
			each[j].kernel_ms = one.device_ms;
			each[j].busy_s = one.device_ms / 1000.0;
		}
		res->count += one.count;
		res->overflow |= one.overflow;
		/* each device places every row: any difference is a fault */
		res->rows = j + 1 == ngpus || one.rows == res->rows ? one.rows : 0;
		res->device_ms = one.device_ms > res->device_ms ? one.device_ms : res->device_ms;
		res->bytes += one.bytes;
		res->pinned_bytes += one.pinned_bytes;
		res->list_bytes += one.list_bytes;
		res->pin_s += one.pin_s;
		res->unpin_s += one.unpin_s;
		res->wait_s += one.wait_s;
		res->locked_most += one.locked_most; /* the leader's alone pins */
		/* groups: every device the same; the pieces dealt among them, the
		 * rows saved by the leader alone; a group end as long as the
		 * longest device's */
		res->groups = one.groups;
		res->group_rows = one.group_rows;
		res->groups_key = one.groups_key; /* the leader's cuts, which the others follow */
		res->rows_back_bytes += one.rows_back_bytes;
		res->rows_out_bytes += one.rows_out_bytes;
		res->pair_launches += one.pair_launches;
		res->pair_tallies += one.pair_tallies;
		res->pair_split += one.pair_split;
		res->unit_launches += one.unit_launches;
		res->early_batch = one.early_batch > res->early_batch ? one.early_batch : res->early_batch;
		res->early_pieces += one.early_pieces;
		res->group_end_s = one.group_end_s > res->group_end_s ? one.group_end_s
								       : res->group_end_s;
		res->rows_alloc_s += one.rows_alloc_s;
		res->rows_alloc_fallbacks += one.rows_alloc_fallbacks;
		if (!res->rows_alloc_why)
			res->rows_alloc_why = one.rows_alloc_why;
		for (uint32_t k = 0; ngpus > 1 && k < nbatches; k++) {
			per[k] = (j + 1 == ngpus ? 0 : per[k]) + p1[k];
			ms[k] = j + 1 == ngpus || m1[k] > ms[k] ? m1[k] : ms[k];
		}
	}
	if (ngpus > 1) {
		free(p1);
		free(m1);
	}
	return rc;
}

static int count_gpu_arrival(struct gpu_ctx *const *gpu, uint32_t ngpus, int grouped,
			     struct tsg_graph *g, const struct engine_opts *o,
			     const struct part_arrival_plan *p, struct lists_bg *early,
			     struct engine_result *r, struct tsg_err *err)
{
	struct gpu_sink s = { .gpu = gpu, .ngpus = ngpus, .grouped = grouped, .g = g, .o = o,
			      .r = r };
	const struct part_arrival_sink sink = { .begin = gs_begin, .batch = gs_batch, .ctx = &s };
	struct gpu_arrival_result res;
	uint64_t *per = calloc(p->nbatches, sizeof(*per));
	float *ms = calloc(p->nbatches, sizeof(*ms));
	s.at = calloc((size_t)p->nbatches + 1, sizeof(*s.at));
	s.cum = calloc((size_t)p->nbatches + 1, sizeof(*s.cum));
	r->parts = calloc(p->nbatches, sizeof(*r->parts));
	int rc = TSG_OK;
	if (!per || !ms || !s.at || !s.cum || !r->parts) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = engine_ckpt_plan(o, engine_arrival_plan_key(p), p->nbatches, r, err)) ||
	    (rc = engine_deal_arrival(o, g, p, r, err)))
		goto done;
	if (ngpus > 1 && (rc = gpus_result(gpu, ngpus, r, err)))
		goto done;
	const double wall0 = tsg_now();
	rc = engine_arrival_run(g, o, p, &sink, 1, early, r, err);
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
	rc = gs_end(gpu, ngpus, per, ms, p->nbatches, &res, r->gpus, err);
	if (rc)
		goto done;
	if (res.overflow || res.rows != g->nadj / 2) { /* p->ne may be a crawl's bound */
		/* a validated graph is symmetric without loops, so half its entries point up */
		rc = tsg_fail(err, TSG_EINTERNAL, "arrival batches: %llu of %llu edges kept%s",
			      (unsigned long long)res.rows, (unsigned long long)(g->nadj / 2),
			      res.overflow ? ", rows or records past the device's arrays (lists not "
			      "symmetric?)" : "");
		goto done;
	}
	r->triangles += res.count; /* beside what the checkpoint held */
	r->h2d_bytes = res.bytes;
	r->lists_pinned_bytes = res.pinned_bytes;
	r->lists_bytes = res.list_bytes;
	r->arrival_host.pin_s = res.pin_s;
	r->arrival_host.unpin_s = res.unpin_s;
	r->arrival_host.wait_s = res.wait_s;
	r->arrival_host.locked_most = res.locked_most;
	r->arrival_groups.n = res.groups;
	r->arrival_groups.rows = res.group_rows;
	r->arrival_groups.back_bytes = res.rows_back_bytes;
	r->arrival_groups.out_bytes = res.rows_out_bytes;
	r->arrival_groups.launches = res.pair_launches;
	r->arrival_groups.tallies = res.pair_tallies;
	r->arrival_groups.split = res.pair_split;
	r->arrival_groups.units = res.unit_launches;
	r->arrival_groups.early_batch = res.early_batch;
	r->arrival_groups.early_pieces = res.early_pieces;
	r->arrival_groups.end_s = res.group_end_s;
	/* ranks must have cut the same groups, as each counts whole group
	 * ends for the others: budgets that differ (no --gpu-mem, a GPU
	 * shared) or the early knob on some ranks alone would count edges
	 * twice or not at all, so the cuts join the plan the ranks compare
	 * (src/run.c), which then fails instead */
	if (res.groups)
		engine_plan_key_add(r, res.groups_key);
	r->arrival_groups.alloc_s = res.rows_alloc_s;
	r->arrival_groups.alloc_fallbacks = res.rows_alloc_fallbacks;
	snprintf(r->arrival_groups.alloc_why, sizeof(r->arrival_groups.alloc_why), "%s",
		 res.rows_alloc_why ? res.rows_alloc_why : "");
	if (res.groups) { /* said, as the rows went to the host and back */
		char a[32], b[32];
		const size_t at = strlen(r->note);
		char on[96] = "";
		if (ngpus > 1)
			snprintf(on, sizeof(on), " on %u GPUs (each a share of every batch's edges and "
				 "of the pieces)", ngpus);
		snprintf(r->note + at, sizeof(r->note) - at, "%sthe arrival layout in %u groups%s%s: "
			 "the oriented rows (%s) %s, so each group's edges with the earlier groups "
			 "were counted at its end, their rows copied back (%s)", at ? "; " : "",
			 res.groups, on,
			 o->layout == ENGINE_LAYOUT_AUTO ? " (auto's choice over the block layout)" : "",
			 tsg_fmt_bytes(g->nadj / 2 * 4, a, sizeof(a)),
			 arrival_groups_test() ? "were put in groups by TSG_TEST_ARRIVAL_GROUPS"
					       : "outgrow the GPU's budget",
			 tsg_fmt_bytes(res.rows_back_bytes, b, sizeof(b)));
		if (res.early_batch) { /* a bench's knob acted: said */
			const size_t e = strlen(r->note);
			snprintf(r->note + e, sizeof(r->note) - e, "; TSG_ARRIVAL_GROUP_EARLY: the "
				 "group of batch %u counted its batches before it against the earlier "
				 "groups ahead of its end (%llu pieces copied back for it%s)",
				 res.early_batch, (unsigned long long)res.early_pieces,
				 o->nranks > 1 ? " by this rank" : "");
		}
	}
	if (res.pinned_bytes < res.list_bytes) { /* after what is there (auto's one GPU) */
		const size_t at = strlen(r->note);
		snprintf(r->note + at, sizeof(r->note) - at, "%s%.0f%% of the lists could not be "
			 "pinned: copies were slower", at ? "; " : "",
			 100.0 * (double)(res.list_bytes - res.pinned_bytes) / (double)res.list_bytes);
	}
	for (uint32_t k = 0; k < p->nbatches; k++) {
		if (!r->parts[k].resumed)
			r->parts[k].triangles = per[k];
		r->parts[k].kernel_ms = ms[k];
		r->parts[k].st.v_local = p->bound[k + 1] - p->bound[k];
		r->parts[k].gpu = -1; /* several GPUs: every one took it */
	}
	r->count_s = res.device_ms / 1000.0;
	const double wall = tsg_now() - wall0;
	r->overlap = wall > 0 ? (r->build_s + r->count_s) / wall : 0;
done:
	for (uint32_t i = 0; i < ngpus; i++) { /* copies may still read the lists */
		const int drc = gpu_drain(gpu[i], err);
		if (rc == TSG_OK)
			rc = drc;
	}
	free(per);
	free(ms);
	free(s.at);
	free(s.cum);
	return rc;
}

/* Per-vertex counts off the devices into r->pv, by id: each GPU's summed. */
static int fetch_pv(struct gpu_ctx *const *gpu, uint32_t ngpus, const struct tsg_graph *g,
		    const struct engine_opts *o, struct engine_result *r, struct tsg_err *err)
{
	uint64_t *pv = NULL, *more = NULL;
	int rc = engine_pv_alloc(g, o, &pv, err);
	if (rc == TSG_OK)
		rc = gpu_pv_fetch(gpu[0], pv, err);
	if (rc == TSG_OK && ngpus > 1 && (rc = engine_pv_alloc(g, o, &more, err)) == TSG_OK)
		for (uint32_t i = 1; i < ngpus && rc == TSG_OK; i++)
			if ((rc = gpu_pv_fetch(gpu[i], more, err)) == TSG_OK)
				for (uint64_t v = 0; v < g->nv; v++)
					pv[v] += more[v]; /* each a share of a count that fits */
	free(more);
	if (rc == TSG_OK && r->layout == ENGINE_LAYOUT_LSTC) { /* parts count by id */
		r->pv = pv;
		return TSG_OK;
	}
	if (rc == TSG_OK) /* units and batches count by rank */
		rc = engine_pv_from_ranks(g, o, pv, r, err);
	free(pv);
	return rc;
}

/* Every GPU of a --gpus list on this host (the driver is up: the first
 * one is open); the same error as gpu_open's for one missing. */
static int gpus_present(const int *gpus, uint32_t n, struct tsg_err *err)
{
	const int present = gpu_device_count();
	for (uint32_t i = 0; i < n; i++)
		if (gpus[i] < 0 || gpus[i] >= present)
			return tsg_fail(err, TSG_EDEVICE, "GPU %d requested, %d present", gpus[i],
					present);
	return TSG_OK;
}

/* Opens the GPUs of --gpus after the first (ctx[0]), each with the same
 * budget and copy threads; *slot becomes the smallest slot, which every
 * unit must fit. */
static int open_more(const struct engine_opts *o, uint64_t pv_vertices, struct gpu_ctx **ctx,
		     uint32_t n, uint64_t *slot, unsigned *copy_threads, struct engine_result *r,
		     struct tsg_err *err)
{
	int same = 1;
	size_t len = strlen(r->device_name);
	for (uint32_t i = 1; i < n; i++) {
		uint64_t s = 0;
		const int rc = gpu_open(o->gpus[i], o->gpu_mem, pv_vertices, &ctx[i], &s, err);
		if (rc)
			return rc;
		gpu_set_host_copy(ctx[i], parallel_copy, copy_threads);
		*slot = s < *slot ? s : *slot;
		same &= strcmp(gpu_device_name(ctx[i]), gpu_device_name(ctx[0])) == 0;
	}
	len = (size_t)snprintf(r->device_name, sizeof(r->device_name), "%s%s (GPUs",
			       gpu_device_name(ctx[0]), same ? "" : " and others");
	for (uint32_t i = 0; i < n && len < sizeof(r->device_name); i++)
		len += (size_t)snprintf(r->device_name + len, sizeof(r->device_name) - len, "%s%d%s",
					i ? "," : " ", o->gpus[i], i + 1 == n ? ")" : "");
	return TSG_OK;
}

/*
 * The GPU's k-clique configuration from the options (kernels/clique.h).
 * Auto, as measured on the H100 (bench/RESULTS.md, 2026-11-24 k-cliques):
 * edge-centric from K = 5 (R-MAT 20: K = 4 vertex-centric 0.068 s against
 * 0.83 s; K = 5 edge-centric 1.03 s against 2.38 s; the paper switches at
 * K = 6 on the V100), and groups of one lane (within 3% of the best group
 * size on every graph and K measured, up to 1.3x faster than 8).
 */
static struct kern_clique_gpu engine_clique_gpu(const struct engine_opts *o,
						enum kern_clique_method m)
{
	struct kern_clique_gpu c = { .k = o->k, .pivot = m == KERN_CLIQUE_PIVOT };
	c.scheme = o->clique_scheme != KERN_CLIQUE_SCHEME_AUTO ? o->clique_scheme
		   : o->k >= 5				 ? KERN_CLIQUE_EDGE
							 : KERN_CLIQUE_VERTEX;
	c.group = c.pivot ? 32 : o->clique_group ? o->clique_group : 1;
	if (o->k_all) { /* every size: a source's whole subgraph, the source a 1-clique */
		c.k = 1;
		c.all = 1;
		c.scheme = KERN_CLIQUE_VERTEX;
	}
	return c;
}

/*
 * What a part keeps free for the clique kernel beyond its rows: the tiers'
 * list (per source) and a pool for the warps (kernels/clique.h), enough for
 * every tier to run as many warps as it may at once, but at most half the
 * slot (and at least a block of the top tier's). A larger pool means
 * smaller parts, more of them: under --prune closed each source's
 * triangles are still listed once, but planning grew with the parts (R-MAT
 * 22 at 1/4 of its file: 39 -> 59 parts, plan 16.5 -> 20.1 s, count 14.0 ->
 * 3.6 s; bench/RESULTS.md, 2026-11-24 fifth session). The launch gives the
 * pool whatever more the part leaves.
 */
static struct tsg_scratch engine_clique_scratch(const struct kern_clique_gpu *c, uint32_t max_out,
						uint64_t slot, int sms)
{
	const uint64_t least = kern_clique_pool_least(max_out, c);
	const uint64_t full = kern_clique_pool_full(max_out, c, sms);
	uint64_t pool = full < slot / 2 ? full : slot / 2;
	pool = pool > least ? pool : least;
	return (struct tsg_scratch){ .per_src = KERN_CLIQUE_PREP_PER_SRC,
				     .fixed = KERN_CLIQUE_PREP_FIXED + pool +
					      kern_clique_sizes_bytes(max_out, c) };
}


/* Tests (tests/gpu/groups.sh): TSG_TEST_AUTO_GROUPS_ROWS, a positive
 * number of bytes, stands for ENGINE_AUTO_GROUPS_ROWS, so that auto's
 * choice of groups can be tried on a small graph. */
static uint64_t auto_groups_rows(void)
{
	return tsg_env_positive("TSG_TEST_AUTO_GROUPS_ROWS", ENGINE_AUTO_GROUPS_ROWS);
}

/* The arrival layout where the oriented rows outgrow the GPU: groups
 * (gpu.h), asked of every GPU of gpu (ngpus: each builds the same groups
 * in the least budget among them) if region A can hold a batch and, where
 * max_groups is not 0 (auto), the rows fill at most max_groups regions A;
 * *taken says whether they were. Unless --batches names them, the batches
 * are cut again small enough that a group holds many: a batch's list
 * entries at most 1/256 of the budget's bytes (its scratch takes about 24
 * bytes an entry), from 32 batches up. */
static int arrival_group_plan(const struct tsg_graph *g, const struct engine_opts *o,
			      struct part_arrival_plan *ap, struct gpu_ctx *const *gpu,
			      uint32_t ngpus, uint64_t max_groups, int *taken, struct tsg_err *err)
{
	int rc = TSG_OK;
	uint64_t budget = gpu_budget(gpu[0]);
	for (uint32_t i = 1; i < ngpus; i++)
		budget = gpu_budget(gpu[i]) < budget ? gpu_budget(gpu[i]) : budget;
	*taken = 0;
	if (!o->batches) {
		const uint64_t per = budget / 256 > 1 ? budget / 256 : 1;
		uint64_t nb = (io_graph_rank_nadj(g) + per - 1) / per;
		nb = nb < PART_ARRIVAL_AUTO_BATCHES ? PART_ARRIVAL_AUTO_BATCHES
		     : nb > PART_ARRIVAL_MAX_BATCHES ? PART_ARRIVAL_MAX_BATCHES : nb;
		part_arrival_plan_free(ap);
		if ((rc = part_arrival_plan_new(g, (uint32_t)nb, ap, err)))
			return rc;
	}
	/* before the ranks: as if every id had entries (region A sized from
	 * below; gpu_arrival_begin knows the ids of degree 0) */
	const uint64_t cap = gpu_arrival_group_rows(ap->nv, 0, ap->ne, ap->max_entries,
						    ap->max_vertices, o->per_vertex,
						    budget > 512 ? budget - 512 : 0);
	if (cap && (max_groups == 0 || ap->ne <= max_groups * cap)) {
		for (uint32_t i = 0; i < ngpus; i++)
			gpu_arrival_groups(gpu[i], 1);
		*taken = 1;
	}
	return rc;
}

/*
 * --gpus under --layout auto, where the arrival layout fits the first GPU:
 * that GPU alone (*ngpus = 1), said in the note. The arrival layout counts
 * each batch while the host reads and checks the next, and its device work
 * hid under that pass on every graph measured, so a second GPU, which
 * orients every batch again to count half its edges, shortened nothing:
 * two H200s, warm files, medians of 3, 2026-11-26 (bench/RESULTS.md): one
 * GPU / two, R-MAT 25 2.27 / 2.40 s; R-MAT 26 4.33 / 4.59 s, its LZ4 file
 * 3.98 / 4.00 s (a build whose two-GPU counts were off by a few, fixed
 * since); device time 0.86 s under a pass of 1.6-2.0 s (R-MAT 25), 2.14 s
 * under 3.1-4.2 s (R-MAT 26, either file). Named, the layouts use every
 * GPU listed. Since session 34, where the pages went back off the batch
 * thread and the device became the bound of a warm count, a plain file
 * the plan found in the page cache past ENGINE_ALL_GPUS_ROWS
 * (o->arrival_all_gpus) keeps every GPU (src/engine.h says where it was
 * measured), and so does an oriented file past that line.
 */
static int auto_one_gpu(const struct tsg_graph *g, const struct engine_opts *o,
			struct gpu_ctx *gpu, int first, int pending, uint32_t *ngpus,
			struct engine_result *r, struct tsg_err *err)
{
	if (g->oriented) {
		/* counted as read, every GPU holds every row and the units
		 * come one at a time: two H200s took 1.97 s where one took
		 * 1.57 s, and auto's one 1.47 s (R-MAT 25 oriented, warm,
		 * medians of 3, 2026-11-27, bench/raw/h200x2-2026-11-27-rows-gpus/);
		 * the plan leaves oriented_auto_one off for larger files
		 * (src/plan.c, ENGINE_ALL_GPUS_ROWS) */
		const struct tsg_scratch sc = gpu_kernel_scratch(GPU_KERNEL_MID_HASH, o->per_vertex);
		const uint64_t need = tsg_rows_bytes(g->off, 0, (uint32_t)g->nv) +
				      2 * (tsg_scratch_bytes(&sc, g->nv, g->nv, g->nadj) + 512);
		if (!o->oriented_auto_one || o->scratch_dir || o->plan_only || o->nranks > 1 ||
		    !pending || need > gpu_budget(gpu))
			return TSG_OK;
		snprintf(r->note, sizeof(r->note), "--gpus: counted on GPU %d alone, as an oriented "
			 ".tsg counted as it is read holds its rows there (a second GPU was slower "
			 "where measured); --overlap off or N counts on all %u", first, *ngpus);
		*ngpus = 1;
		return TSG_OK;
	}
	if (o->layout != ENGINE_LAYOUT_AUTO || (o->scratch_dir && !o->arrival_mapped) ||
	    engine_cliques(o))
		return TSG_OK;
	if (o->arrival_all_gpus && !o->arrival_mapped) /* every GPU (said once it ran) */
		return TSG_OK;
	struct part_arrival_plan ap = { 0 };
	const int rc = part_arrival_plan_new(g, o->batches, &ap, err);
	const uint64_t need = rc ? 0 : gpu_arrival_bytes(ap.nv, ap.ne, ap.max_entries,
							 ap.max_vertices, o->per_vertex);
	part_arrival_plan_free(&ap);
	if (rc || need == 0 || need + 512 > gpu_budget(gpu))
		return rc;
	snprintf(r->note, sizeof(r->note), "--gpus: counted on GPU %d alone, as the arrival layout "
		 "holds the graph there and its count hides under the read (a second GPU shortened "
		 "nothing where measured); --layout arrival or block counts on all %u", first, *ngpus);
	*ngpus = 1;
	return TSG_OK;
}

/*
 * --host-mem's arrival layout over the mapped file (o->arrival_mapped):
 * the true plan's host need (src/hostmem.h) against the budget. Sets
 * *fits to whether the arrival layout stays within both the GPU (gpu_fits)
 * and the budget; where it does not, auto spills on the block layout and
 * the note says why, and a named arrival layout, or one below the spill's
 * need (o->arrival_only), fails (exit 4).
 */
static int arrival_host_fits(const struct part_arrival_plan *ap, const struct engine_opts *o,
			     uint32_t ngpus, int gpu_fits, int *fits, struct engine_result *r,
			     struct tsg_err *err)
{
	char a[32], b[32];
	const uint64_t host = hostmem_arrival_bytes(ap->nv, ap->max_entries, ap->max_vertices,
						    o->threads, ngpus, o->per_vertex);
	*fits = gpu_fits && host <= o->arrival_budget;
	if (host > o->arrival_budget && (o->layout == ENGINE_LAYOUT_ARRIVAL || o->arrival_only))
		return tsg_fail(err, TSG_ENOMEM, "--host-mem %s: the arrival layout's batches hold "
				"about %s on the host (%s)", tsg_fmt_bytes(o->arrival_budget, a, sizeof(a)),
				tsg_fmt_bytes(host, b, sizeof(b)),
				o->arrival_only ? "and spilling needs more than that budget too"
						: "--layout block spills within less");
	if (!*fits && o->arrival_only)
		return tsg_fail(err, TSG_ENOMEM, "--host-mem %s: the GPU cannot hold every oriented "
				"row for the arrival layout, and spilling needs more than that budget",
				tsg_fmt_bytes(o->arrival_budget, a, sizeof(a)));
	if (*fits || o->layout == ENGINE_LAYOUT_ARRIVAL)
		return TSG_OK;
	const size_t used = strlen(r->note);
	snprintf(r->note + used, sizeof(r->note) - used, "%s--host-mem: not the arrival layout over "
		 "the mapped file, as %s; spilling on the block layout", used ? "; " : "",
		 !gpu_fits ? "the GPU cannot hold every oriented row"
			   : "its batches would hold more than the budget on the host");
	return TSG_OK;
}

/*
 * K-cliques under --gpus with no layout named: where one part holds the
 * whole graph on the first GPU (po's budget and scratch, no minimum of
 * parts), *plan is that part and *one is set: the GPUs then share its
 * sources (count_clique_shared), each holding all of it, or the first
 * counts it alone where the count is short. Else *plan is the parts the
 * first GPU alone would count, which the caller shares among every GPU
 * where they fit each (same_plan_fits), so that no second plan is made.
 * Why: more parts each repeat the hubs' out-lists, and building them on
 * the host is the run (R-MAT 22, K = 4, two H200s: 6.8 s in 8 parts on
 * both against 1.8 s in one on one GPU;
 * bench/raw/h200x2-2026-11-27-cliques-gpus/). Where one part did not hold
 * it, the parts were planned twice, once for the first GPU and thrown
 * away, then at least 4 a GPU: two GPUs took 11.8 s in 8 parts and 12.9
 * s in 2 at --gpu-mem 1G, against 6.6 and 7.3 s on one (same raw folder;
 * a plan lists every triangle, the expensive pass).
 */
static int cliques_one_gpu(const struct tsg_graph *g, const struct part_opts *po,
			   struct part_plan **plan, int *one, struct tsg_err *err)
{
	struct part_opts o1 = *po;
	o1.min_parts = 0;
	*one = 0;
	const int rc = part_plan_new(g, &o1, plan, err);
	if (rc || part_plan_count(*plan) != 1)
		return rc;
	*one = 1;
	return TSG_OK;
}

/* The share's way to open GPU i of --gpus (clique_share_open_fn), set for
 * the count as the first was. */
struct share_open {
	const struct engine_opts *o;
	const struct engine_result *r;
};

static int share_open(void *ctx, uint32_t i, struct gpu_ctx **out, struct tsg_err *err)
{
	const struct share_open *so = ctx;
	uint64_t slot = 0;
	int rc = gpu_open(so->o->gpus[i], so->o->gpu_mem, 0, out, &slot, err);
	if (rc == TSG_OK) {
		gpu_set_cta_policy(*out, so->o->cta_policy);
		gpu_set_clique(*out, &so->r->clique_gpu);
		if (so->o->k_all)
			rc = gpu_clique_sizes(*out, so->r->sizes_len, err);
	}
	return rc;
}

/* The note on what the share did: which GPUs counted and why. */
static void share_note(const struct clique_share *cs, int first, const char *list,
		       const char *took, struct engine_result *r)
{
	size_t at = strlen(r->note);
	const char *sep = at ? "; " : "";
	switch (cs->alone) {
	case CLIQUE_SHARE_HELPED:
		at += (size_t)snprintf(r->note + at, sizeof(r->note) - at, "%s--gpus: k-cliques of "
				       "one part held whole on GPUs %s, its sources shared in %u "
				       "pieces (%s), as GPU %d's first pieces foretold %.2f s for "
				       "the rest on it alone (%.1f s opens the others)", sep, list,
				       cs->npieces, took, first, cs->foretold_s, cs->min_s);
		break;
	case CLIQUE_SHARE_SHORT:
		at += (size_t)snprintf(r->note + at, sizeof(r->note) - at, "%s--gpus: k-cliques "
				       "counted on GPU %d alone: one part holds the graph there, and "
				       "its first pieces of %u foretold %.2f s for the rest, under the "
				       "%.1f s that opening another GPU must save, so the rest went "
				       "in one launch; --layout lstc cuts parts for all %u", sep,
				       first, cs->npieces, cs->foretold_s, cs->min_s, cs->want);
		break;
	case CLIQUE_SHARE_FEW:
		at += (size_t)snprintf(r->note + at, sizeof(r->note) - at, "%s--gpus: k-cliques "
				       "counted on GPU %d alone: one part holds the graph there, in "
				       "%u pieces, too few to foretell the rest by; --layout lstc "
				       "cuts parts for all %u", sep, first, cs->npieces, cs->want);
		break;
	case CLIQUE_SHARE_NONE_JOINED:
		at += (size_t)snprintf(r->note + at, sizeof(r->note) - at, "%s--gpus: k-cliques "
				       "counted on GPU %d alone: its first pieces of %u foretold %.2f "
				       "s for the rest, so the other GPUs were asked to share them, "
				       "and none counted one", sep, first, cs->npieces,
				       cs->foretold_s);
		break;
	case CLIQUE_SHARE_KEPT:
		at += (size_t)snprintf(r->note + at, sizeof(r->note) - at, "%sk-cliques of one part "
				       "in %u pieces on GPU %d (TSG_TEST_CLIQUE_SHARE=pieces: none "
				       "merged, no other GPU opened)", sep, cs->npieces, first);
		break;
	case CLIQUE_SHARE_FAILED:
		break; /* no count is reported */
	}
	for (uint32_t i = 1; i < cs->want && at < sizeof(r->note); i++)
		if (cs->per[i].why[0])
			at += (size_t)snprintf(r->note + at, sizeof(r->note) - at, "; GPU %d: %s",
					       cs->o->gpus[i], cs->per[i].why);
}

/* Writes what the share did into r: the part's count and timings, an
 * entry a GPU that counted pieces (the first always, in --gpus' order),
 * and the note. */
static int share_result(const struct clique_share *cs, struct gpu_ctx *const *ctx, double build_s,
			const struct part_stats *st, struct engine_result *r, struct tsg_err *err)
{
	uint32_t n = 0;
	double copy_ms = 0, kernel_ms = 0;
	uint64_t bytes = 0;
	for (uint32_t i = 0; i < cs->want; i++)
		n += i == 0 || cs->per[i].pieces > 0;
	struct engine_gpu *eg = calloc(n, sizeof(*eg));
	if (!eg)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	free(r->gpus);
	r->gpus = eg;
	r->ngpus = n;
	char list[160] = "", took[200] = "";
	size_t ll = 0, tl = 0;
	for (uint32_t i = 0, j = 0; i < cs->want; i++) {
		const struct clique_share_gpu *pg = &cs->per[i];
		/* a GPU that held the part but counted nothing: its copy still
		 * counts in the bytes and time moved */
		copy_ms += pg->copy_ms;
		bytes += pg->bytes;
		if (i && !pg->pieces)
			continue;
		eg[j] = (struct engine_gpu){ .index = gpu_device_index(ctx[i]), .units = pg->pieces,
					     .h2d_bytes = pg->bytes, .h2d_ms = pg->copy_ms,
					     .kernel_ms = pg->kernel_ms, .busy_s = pg->busy_s };
		snprintf(eg[j].name, sizeof(eg[j].name), "%s", gpu_device_name(ctx[i]));
		if (ll < sizeof(list))
			ll += (size_t)snprintf(list + ll, sizeof(list) - ll, "%s%d", j ? "," : "",
					       eg[j].index);
		if (tl < sizeof(took))
			tl += (size_t)snprintf(took + tl, sizeof(took) - tl, "%sGPU %d %u", j ? ", " : "",
					       eg[j].index, pg->pieces);
		kernel_ms += pg->kernel_ms;
		j++;
	}
	struct engine_part *ep = &r->parts[0];
	ep->triangles = cs->count;
	ep->build_s = build_s;
	ep->st = *st;
	ep->h2d_ms = copy_ms;
	ep->kernel_ms = kernel_ms;
	ep->gpu = 0;
	r->triangles += cs->count;
	r->share = (struct engine_share){ .used = 1, .pieces = cs->npieces,
					  .launches = cs->launches, .shared = cs->shared,
					  .piece_s = cs->piece_s, .foretold_s = cs->foretold_s };
	r->build_s += build_s;
	r->count_s += (copy_ms + kernel_ms) / 1000.0;
	r->h2d_bytes += bytes;
	share_note(cs, gpu_device_index(ctx[0]), list, took, r);
	if (n > 1)
		snprintf(r->device_name, sizeof(r->device_name), "%s (GPUs %s)",
			 gpu_device_name(ctx[0]), list);
	return TSG_OK;
}

/* Tests of the share (tests/gpu/multi.sh): TSG_TEST_CLIQUE_SHARE=1 opens
 * every GPU however short the count, and has the first wait for the
 * others to hold the part, so that a small graph's pieces are shared.
 * Benchmarks: TSG_TEST_CLIQUE_SHARE=pieces counts a one-part k-clique
 * count in pieces on the GPUs open, never merging the rest nor opening
 * more (on one GPU too), to set pieces against one launch. 0: neither. */
enum { SHARE_OFF, SHARE_FORCE, SHARE_PIECES };
static int share_test(void)
{
	const char *v = getenv("TSG_TEST_CLIQUE_SHARE");
	return !v ? SHARE_OFF : strcmp(v, "1") == 0 ? SHARE_FORCE
				: strcmp(v, "pieces") == 0 ? SHARE_PIECES : SHARE_OFF;
}

static int open_profile_asked(void);

/*
 * Whether one k-clique part's sources are shared in pieces
 * (count_clique_shared): where each source's work is cut into units of
 * KERN_CLIQUE_CHUNK edges (edge-centric orientation, auto's from K = 5).
 * Vertex-centric orientation and pivoting count a source on one warp, so
 * each piece waits on its longest list: R-MAT 22's 4-cliques (0.375 s in
 * one launch on an H200) took 55-75 ms of kernels a piece of 1/32 of the
 * sources, and under --gpus 2.11 s against 1.94 s for the process
 * (bench/raw/h200-2026-11-29-s55-callG, callH). Edge-centric pieces came
 * near one launch on one H200: R-MAT 22, K = 5, 16 pieces 7.13-7.34 s of
 * count against 7.60 s (callE); R-MAT 20, K = 6, 16.10 s against 15.06
 * (callE, callD).
 */
static int share_by_sources(const struct engine_result *r)
{
	return r->clique_gpu.scheme == KERN_CLIQUE_EDGE && !r->clique_gpu.pivot;
}

/* The note where one part is counted in one launch on the first GPU
 * under --gpus (not share_by_sources). */
static void one_launch_note(struct engine_result *r, int first, uint32_t want)
{
	const size_t at = strlen(r->note);
	snprintf(r->note + at, sizeof(r->note) - at, "%s--gpus: k-cliques counted on GPU %d alone, "
		 "in one launch: one part holds the graph there, and %s counts each source on one "
		 "warp, so pieces of its sources shared with other GPUs would each wait on their "
		 "longest list; --kclique-scheme edge shares them, --layout lstc cuts parts for "
		 "all %u", at ? "; " : "", first, r->clique_gpu.pivot ? "pivoting"
		 : "vertex-centric orientation", want);
}

/*
 * K-cliques of the one part that holds the graph, under --gpus (*plan's
 * only part): built once into pinned memory, then counted by
 * clique_share_count, which opens the other GPUs into ctx only where the
 * count is long enough to pay for them (src/clique_share.h). *ngpus
 * becomes the GPUs ctx may now hold (the caller drains and closes them).
 */
static int count_clique_shared(struct gpu_ctx **ctx, uint32_t want, uint32_t *ngpus,
			       const struct engine_opts *o, struct part_plan *plan,
			       struct engine_result *r, struct tsg_err *err)
{
	struct staging st = { .gpu = ctx[0] };
	struct tsg_dag d = { 0 };
	struct part_stats ps = { 0 };
	struct share_open so = { .o = o, .r = r };
	const int mode = share_test();
	struct clique_share cs = { .gpu = ctx, .want = want, .part = &d,
				   .pieces = ENGINE_SHARE_PIECES * want,
				   .min_s = mode == SHARE_FORCE ? 0 : ENGINE_SHARE_MIN_S,
				   .wait_all = mode == SHARE_FORCE, .keep_pieces = mode == SHARE_PIECES,
				   .profile = open_profile_asked(),
				   .sizes = o->k_all ? r->sizes : NULL,
				   .sizes_len = r->sizes_len, .o = o,
				   .progress = o->progress, .open = share_open, .open_ctx = &so };
	const double t0 = tsg_now();
	int rc = part_build(plan, 0, stage_alloc, &st, o->want_stats, &d, &ps, err);
	const double build_s = tsg_now() - t0;
	if (rc == TSG_OK)
		rc = clique_share_count(&cs, err);
	*ngpus = cs.opened_more ? want : 1; /* the contexts to drain and close */
	if (rc == TSG_OK)
		rc = engine_unit_done(o, 0, cs.count, err);
	if (rc == TSG_OK)
		rc = share_result(&cs, ctx, build_s, &ps, r, err);
	/* (every device's copy of the part was waited for: its pieces' collects) */
	gpu_host_free(ctx[0], st.mem);
	return rc;
}

/* Whether the parts planned for the first GPU (budget, scratch) fit every
 * GPU now open: the slot is the least of theirs, and the clique pool is
 * sized by the most multiprocessors, which may differ from the first's. */
static int same_plan_fits(const struct part_opts *planned, uint64_t slot,
			  const struct tsg_scratch *now)
{
	return slot >= planned->budget && now->per_src == planned->scratch.per_src &&
	       now->per_mid == planned->scratch.per_mid &&
	       now->per_edge == planned->scratch.per_edge && now->fixed <= planned->scratch.fixed;
}

/* The GPUs of --gpus after the first, opened late (k-cliques that did not
 * fit one part on the first): as open_more, and configured as the first
 * was (CTA policy, tile); the host's copy threads shared among all. */
static int open_the_rest(const struct tsg_graph *g, const struct engine_opts *o,
			 struct gpu_ctx **ctx, uint32_t n, uint64_t *slot, unsigned *copy_threads,
			 struct engine_result *r, struct tsg_err *err)
{
	*copy_threads = (o->threads ? o->threads : 1) / n ? (o->threads ? o->threads : 1) / n : 1;
	int rc = open_more(o, o->per_vertex ? g->nv : 0, ctx, n, slot, copy_threads, r, err);
	for (uint32_t i = 1; i < n && rc == TSG_OK; i++) {
		gpu_set_cta_policy(ctx[i], o->cta_policy);
		if (o->tile && gpu_set_tile(ctx[i], o->tile) != TSG_OK)
			rc = tsg_fail(err, TSG_EUSAGE, "tile width %u: use a power of two from 64 "
				      "to 16384", o->tile);
	}
	return rc;
}

void engine_note_budget_reread(const struct gpu_ctx *g, struct engine_result *r)
{
	if (!g || !gpu_budget_rereads(g))
		return;
	char b[32];
	const size_t at = strlen(r->note);
	snprintf(r->note + at, sizeof(r->note) - at, "%sGPU %d: its memory free fell before the "
		 "budget was allocated (another process on the card?): read again %u time%s, a "
		 "budget of %s", at ? "; " : "", gpu_device_index(g), gpu_budget_rereads(g),
		 gpu_budget_rereads(g) == 1 ? "" : "s", tsg_fmt_bytes(gpu_budget(g), b, sizeof(b)));
}

/* TSG_OPEN_PROFILE=1 (a bench's): when engine_count_gpu passed each step
 * of its start, on stderr (open_profile), and a line a k-clique launch
 * where one part is shared (src/clique_share.h). */
static int open_profile_asked(void)
{
	const char *v = getenv("TSG_OPEN_PROFILE");
	return v && strcmp(v, "1") == 0;
}

/* When engine_count_gpu passed a step, from its own start (t0 > 0). */
static void open_profile(double t0, const char *what)
{
	if (t0 > 0)
		fprintf(stderr, "open profile: %s at %.3f s\n", what, tsg_now() - t0);
}

/*
 * The LSTC layout's host setup: the order, the longest out-list and, for
 * k-cliques by auto's method, the race on a sample (engine_lstc_setup,
 * engine_clique_race). For k-cliques it runs on a thread of its own while
 * the first GPU opens (triangles run it in place), since neither
 * needs the other until the part's scratch is sized. The race alone took
 * about 1 s where it went undecided (R-MAT 22 and 20, K = 5 and 6: JSON
 * `plan` 1.5-1.7 s of which the GPU's open 0.45 s; K = 4, decided, 1.0
 * s; two H200s, bench/raw/h200x2-2026-11-29-s56-callA). Between start
 * and join the prep alone writes r's clique fields, the main thread only
 * opens the GPU.
 */
struct lstc_prep {
	struct tsg_graph *g;
	const struct engine_opts *o;
	struct engine_result *r;
	struct part_opts po;   /* out: as engine_lstc_setup leaves it */
	uint32_t *order;       /* out: the degeneracy order, or NULL */
	int rc;
	struct tsg_err err;
	pthread_t thread;
	int started;
};

static int lstc_prep_run(struct lstc_prep *cp)
{
	int rc = engine_lstc_setup(cp->g, cp->o, &cp->po, &cp->order, cp->r, &cp->err);
	/* auto on the GPU: a race on the host, pivoting to win by
	 * ENGINE_GPU_PIVOT_RATIO (the GPU speeds orientation up more than
	 * pivoting: H100 against 16 host threads, orientation 11x to 48x,
	 * pivoting 0.7x to 1.7x on R-MAT 20, cnr-2000 and ca-HepPh;
	 * bench/RESULTS.md, 2026-11-24 k-cliques); by K where no sample is
	 * had (the paper's rule, section 4.5) */
	if (rc == TSG_OK && engine_cliques(cp->o) && cp->r->clique_ran == KERN_CLIQUE_AUTO) {
		rc = engine_clique_race(cp->g, cp->o, cp->order, ENGINE_GPU_PIVOT_RATIO,
					&cp->r->clique_ran, &cp->r->clique_picked, &cp->err);
		cp->r->clique_by_k = !cp->r->clique_picked;
	}
	return rc;
}

static void *lstc_prep_main(void *arg)
{
	struct lstc_prep *cp = arg;
	cp->rc = lstc_prep_run(cp);
	return NULL;
}

/* The parts' options as the LSTC layout starts them. */
static void lstc_prep_init(struct lstc_prep *cp)
{
	cp->po = cp->o->part;
	cp->po.threads = cp->o->threads;
	cp->po.scratch = gpu_kernel_scratch(cp->o->gpu_kernel, cp->o->per_vertex);
}

/* Starts cp's setup on a thread, or leaves it to run inline
 * (lstc_prep_end) where no thread is had. */
static void lstc_prep_begin(struct lstc_prep *cp)
{
	lstc_prep_init(cp);
	cp->started = pthread_create(&cp->thread, NULL, lstc_prep_main, cp) == 0;
}

/* Joins cp's setup (or runs it here); its failure into err. */
static int lstc_prep_end(struct lstc_prep *cp, struct tsg_err *err)
{
	if (cp->started)
		pthread_join(cp->thread, NULL);
	else
		cp->rc = lstc_prep_run(cp);
	cp->started = 0;
	if (cp->rc)
		*err = cp->err;
	return cp->rc;
}

int engine_count_gpu(struct tsg_graph *g, const struct engine_opts *opts,
		     struct engine_result *r, struct tsg_err *err)
{
	/* only mid-hash counts per vertex: said in the result when it replaces
	 * another (auto's choice: no need); the lstc layout's parts, not in
	 * rank order, take auto as lstc (mid-hash loses its saving there) */
	struct engine_opts eo = *opts;
	if (eo.gpu_kernel == GPU_KERNEL_AUTO && (eo.per_vertex || eo.layout == ENGINE_LAYOUT_LSTC))
		eo.gpu_kernel = eo.per_vertex ? GPU_KERNEL_MID_HASH : GPU_KERNEL_LSTC;
	if (eo.per_vertex && eo.gpu_kernel != GPU_KERNEL_MID_HASH) {
		snprintf(r->note, sizeof(r->note), "per-vertex counts run mid-hash, not %s",
			 gpu_kernel_name(eo.gpu_kernel));
		eo.gpu_kernel = GPU_KERNEL_MID_HASH;
	}
	const struct engine_opts *o = &eo;
	if (o->k_all && o->clique_scheme == KERN_CLIQUE_EDGE)
		return tsg_fail(err, TSG_EUSAGE, "--k-all walks each source's whole subgraph (its "
				"1-clique too): not with --kclique-scheme edge");
	uint32_t ngpus = engine_gpu_count(o);
	if (ngpus > ENGINE_MAX_GPUS)
		return tsg_fail(err, TSG_EUSAGE, "at most %d GPUs", ENGINE_MAX_GPUS);
	struct gpu_ctx *ctx[ENGINE_MAX_GPUS] = { 0 };
	struct gpu_ctx *gpu = NULL;
	uint32_t *order = NULL;
	struct parts_pipe p = { .o = o, .r = r };
	uint32_t *todo = NULL;
	uint64_t slot = 0;
	double t0 = tsg_now();
	tsg_profile_stamp("gpu engine's clock"); /* its open profile's zero, for bench/steps.py */
	const int first = ngpus > 1 ? o->gpus[0] : o->gpu_index;
	struct lists_bg early = { 0 }; /* the file's read, begun before the GPUs */
	const int pending = g->lists_pending; /* before the early read may write it */
	const double prof = open_profile_asked() ? t0 : 0;
	struct lstc_prep prep = { .g = g, .o = o, .r = r };
	int rc = g->oriented ? stream_early(g, o, &early, r, err) : arrival_early(g, o, &early, err);
	open_profile(prof, early.started ? "read begun" : "no early read");
	/* k-cliques count on LSTC parts, their lists read before the engine */
	const int cliques = engine_cliques(o) && !early.started && !g->lists_pending;
	if (rc == TSG_OK && cliques)
		lstc_prep_begin(&prep);
	if (rc == TSG_OK)
		rc = gpu_open(first, o->gpu_mem, o->per_vertex ? g->nv : 0, &gpu, &slot, err);
	open_profile(prof, "first GPU opened");
	ctx[0] = gpu; /* (closed at done whatever fails next) */
	if (prep.started || (rc == TSG_OK && cliques)) {
		struct tsg_err perr = { 0 };
		const int prc = lstc_prep_end(&prep, &perr);
		order = prep.order;
		if (rc == TSG_OK && prc) {
			rc = prc;
			*err = perr;
		}
		open_profile(prof, "k-cliques' host setup joined");
	}
	if (rc)
		goto done;
	/* every GPU listed must be there, also where fewer are then used
	 * (auto_one_gpu, cliques_one_gpu): a --gpus list naming a GPU the host
	 * lacks is a mistake said at once, never an option quietly dropped */
	if (ngpus > 1 && (rc = gpus_present(o->gpus, ngpus, err)))
		goto done;
	if (ngpus > 1 && (rc = auto_one_gpu(g, o, gpu, first, pending, &ngpus, r, err)))
		goto done;
	/* k-cliques with no layout named may count on the first GPU alone
	 * (cliques_one_gpu): the others are opened once they are needed */
	const uint32_t want = ngpus;
	int one = 0; /* k-cliques: one part holds the graph (cliques_one_gpu) */
	if (ngpus > 1 && engine_cliques(o) && o->cliques_auto_one && o->nranks <= 1 &&
	    !o->scratch_dir)
		ngpus = 1;
	/* the host's threads fill the GPUs' staging buffers at once: a share each */
	unsigned copy_threads = o->threads ? o->threads : 1;
	copy_threads = copy_threads / ngpus ? copy_threads / ngpus : 1;
	gpu_set_host_copy(gpu, parallel_copy, &copy_threads);
	snprintf(r->device_name, sizeof(r->device_name), "%s (GPU %d)", gpu_device_name(gpu),
		 first);
	if (ngpus > 1 &&
	    (rc = open_more(o, o->per_vertex ? g->nv : 0, ctx, ngpus, &slot, &copy_threads, r, err)))
		goto done;
	open_profile(prof, "every GPU opened");
	r->slot_bytes = slot;
	snprintf(r->kernel, sizeof(r->kernel), "%s", gpu_kernel_name(o->gpu_kernel));
	if (mid_hash_tile_bad(o)) {
		rc = tsg_fail(err, TSG_EUSAGE, "tile width %u: mid-hash takes a power of two from "
			      "64 to 4096 (table slots per warp)", o->tile);
		goto done;
	}
	for (uint32_t i = 0; i < ngpus; i++)
		gpu_set_cta_policy(ctx[i], o->cta_policy);
	for (uint32_t i = 0; i < ngpus; i++)
		if (o->tile && gpu_set_tile(ctx[i], o->tile) != TSG_OK) {
			rc = tsg_fail(err, TSG_EUSAGE, "tile width %u: use a power of two from 64 "
				      "to 16384", o->tile);
			goto done;
		}
	if (o->layout == ENGINE_LAYOUT_ARRIVAL ||
	    (o->layout == ENGINE_LAYOUT_AUTO && (!o->scratch_dir || o->arrival_mapped) &&
	     !engine_cliques(o))) {
		/* every GPU must hold every row; else auto takes the block layout */
		struct part_arrival_plan ap = { 0 };
		rc = part_arrival_plan_new(g, o->batches, &ap, err);
		const uint64_t need = rc ? 0 : gpu_arrival_bytes(ap.nv, ap.ne, ap.max_entries,
								 ap.max_vertices, o->per_vertex);
		int fits = need != 0;
		for (uint32_t i = 0; i < ngpus; i++)
			fits &= need + 512 <= gpu_budget(ctx[i]);
		if (!fits && need && ngpus > 1 && o->arrival_all_gpus && o->layout == ENGINE_LAYOUT_AUTO &&
		    need + 512 <= gpu_budget(ctx[0])) { /* as auto_one_gpu would have had it */
			const size_t at = strlen(r->note);
			snprintf(r->note + at, sizeof(r->note) - at, "%s--gpus: counted on GPU %d "
				 "alone, as the arrival layout fits it but not every GPU listed",
				 at ? "; " : "", first);
			snprintf(r->device_name, sizeof(r->device_name), "%s (GPU %d)",
				 gpu_device_name(gpu), first);
			ngpus = 1;
			fits = 1;
		}
		/* groups: asked for, or auto's where the rows are large and
		 * fill few regions A (ENGINE_AUTO_GROUPS_ROWS says why) */
		int grouped = 0;
		if (rc == TSG_OK && (!fits || arrival_groups_test()) &&
		    o->layout == ENGINE_LAYOUT_ARRIVAL && !o->arrival_mapped && !o->ckpt)
			rc = arrival_group_plan(g, o, &ap, ctx, ngpus, 0, &grouped, err);
		else if (rc == TSG_OK && !fits && need && o->layout == ENGINE_LAYOUT_AUTO &&
			 !o->arrival_mapped && !o->ckpt && ap.ne * 4 >= auto_groups_rows())
			/* several GPUs: groups on every one, read from disk or from
			 * the page cache (src/engine.h, beside ENGINE_ALL_GPUS_ROWS,
			 * says why) */
			rc = arrival_group_plan(g, o, &ap, ctx, ngpus, ENGINE_AUTO_GROUPS_MAX, &grouped,
						err);
		if (rc == TSG_OK && o->arrival_mapped)
			rc = arrival_host_fits(&ap, o, ngpus, fits, &fits, r, err);
		if (rc == TSG_OK && (o->layout == ENGINE_LAYOUT_ARRIVAL || fits || grouped))
			rc = count_gpu_arrival(ctx, ngpus, grouped, g, o, &ap,
					       g->oriented ? NULL : &early, r, err);
		part_arrival_plan_free(&ap);
		if (prof > 0 && rc == TSG_OK && r->layout == ENGINE_LAYOUT_ARRIVAL)
			/* (the pass returned after the read: done_at is written) */
			fprintf(stderr, "open profile: arrival layout done at %.3f s, the read's end "
				"at %.3f s\n", tsg_now() - prof,
				early.done_at > 0 ? early.done_at - prof : -1.0);
		if (rc == TSG_OK && r->layout == ENGINE_LAYOUT_ARRIVAL && o->gpu_kernel == GPU_KERNEL_AUTO)
			snprintf(r->kernel, sizeof(r->kernel), "mid-hash"); /* its only one */
		/* (groups go on every GPU cached or not: their note says so) */
		if (rc == TSG_OK && r->layout == ENGINE_LAYOUT_ARRIVAL && o->arrival_all_gpus &&
		    ngpus > 1 && !grouped) {
			char b[32];
			const size_t at = strlen(r->note);
			snprintf(r->note + at, sizeof(r->note) - at, "%s--gpus: the arrival layout on "
				 "all %u GPUs, as the file was in the page cache and its oriented rows "
				 "(%s) reach %u GiB: each oriented every batch and counted a share of "
				 "its edges", at ? "; " : "", ngpus,
				 tsg_fmt_bytes(g->nadj / 2 * 4, b, sizeof(b)),
				 (unsigned)(ENGINE_ALL_GPUS_ROWS >> 30));
		}
		if (rc || r->layout == ENGINE_LAYOUT_ARRIVAL)
			goto done;
	}
	if ((rc = early_join(g, &early, r, err)))
		goto done;
	if (o->layout != ENGINE_LAYOUT_LSTC) {
		r->layout = ENGINE_LAYOUT_BLOCK;
		rc = count_gpu_block(ctx, ngpus, slot, g, o, &early, r, err);
		if (prof > 0)
			fprintf(stderr, "open profile: count from %.3f to %.3f s, the read's end at "
				"%.3f s\n", r->count_start - prof, r->count_start + r->count_wall_s - prof,
				early.done_at > 0 ? early.done_at - prof : -1.0);
		open_profile(prof, "block layout done");
		goto done;
	}
	r->layout = ENGINE_LAYOUT_LSTC;
	if (!cliques) { /* (else done beside the GPU's open) */
		lstc_prep_init(&prep);
		rc = lstc_prep_end(&prep, err);
		order = prep.order;
		if (rc)
			goto done;
	}
	struct part_opts po = prep.po;
	if (engine_cliques(o)) {
		r->clique_gpu = engine_clique_gpu(o, r->clique_ran);
		po.want_gid = o->per_vertex;
		struct part_opts first_po = po;
		if (want > ngpus && po.nparts == 0) { /* one GPU, if one part holds it */
			first_po.budget = slot;
			first_po.scratch = engine_clique_scratch(&r->clique_gpu, r->max_out, slot,
								 gpu_sms(ctx[0]));
			if ((rc = cliques_one_gpu(g, &first_po, &p.plan, &one, err)))
				goto done;
		}
		if (want > ngpus && !one) { /* several parts: every GPU, or one a part */
			uint32_t use = p.plan && part_plan_count(p.plan) < want
					       ? part_plan_count(p.plan) : want;
			use = use ? use : 1; /* no part at all (no edge): the first GPU */
			if ((rc = open_the_rest(g, o, ctx, use, &slot, &copy_threads, r, err)))
				goto done;
			ngpus = use;
			r->slot_bytes = slot;
		}
		int sms = 0; /* the pool for the GPU of most multiprocessors fits all */
		for (uint32_t i = 0; i < ngpus; i++)
			sms = gpu_sms(ctx[i]) > sms ? gpu_sms(ctx[i]) : sms;
		po.scratch = engine_clique_scratch(&r->clique_gpu, r->max_out, slot, sms);
		if (p.plan && !one) {
			if (same_plan_fits(&first_po, slot, &po.scratch)) {
				const size_t used = strlen(r->note);
				snprintf(r->note + used, sizeof(r->note) - used, "%s--gpus: k-cliques "
					 "in the %u parts GPU %d alone needs, shared by %u GPUs%s (more "
					 "parts would each repeat the hubs' lists); --partitions N "
					 "sets how many", used ? "; " : "", part_plan_count(p.plan),
					 gpu_device_index(ctx[0]), ngpus,
					 ngpus < want ? ", one a part" : "");
			} else { /* a GPU of less room or more multiprocessors: planned again */
				part_plan_free(p.plan);
				p.plan = NULL;
			}
		}
		for (uint32_t i = 0; i < ngpus && rc == TSG_OK; i++) {
			gpu_set_clique(ctx[i], &r->clique_gpu);
			if (o->k_all)
				rc = gpu_clique_sizes(ctx[i], r->sizes_len, err);
		}
		if (rc)
			goto done;
		snprintf(r->kernel, sizeof(r->kernel), "clique-%s",
			 kern_clique_method_name(r->clique_ran));
	}
	po.want_gid = o->per_vertex; /* parts count by global id */
	if (po.nparts == 0) {
		po.budget = slot;
		/* parts shared by GPUs or ranks: at least 4 each, even where
		 * one would fit, so that each has work and the costliest-first
		 * queue (or the deal) can even it out */
		const uint32_t sharers = ngpus * (o->nranks ? o->nranks : 1);
		po.min_parts = sharers > 1 ? 4 * sharers : 0;
	}
	if (!p.plan && (rc = part_plan_new(g, &po, &p.plan, err)))
		goto done;
	r->plan_s = tsg_now() - t0;
	r->prune = part_plan_prune(p.plan);
	r->parts = calloc(part_plan_count(p.plan), sizeof(*r->parts));
	if (!r->parts) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto done;
	}
	r->nparts = part_plan_count(p.plan); /* from here on a failure is not a reason to fall back */
	if ((rc = gpus_result(ctx, ngpus, r, err)))
		goto done;
	for (uint32_t k = 0; k < r->nparts; k++)
		r->parts[k].cost = ngpus > 1 ? part_plan_weight(p.plan, k) : 0;
	if ((rc = engine_ckpt_plan(o, part_plan_digest(p.plan), r->nparts, r, err)) ||
	    (rc = engine_deal_parts(o, p.plan, r, err)) ||
	    (rc = engine_units_todo(o, r, ngpus > 1, &todo, &p.ntodo, err)))
		goto done;
	p.todo = todo;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	tsg_progress_init(&p.prog, "count", "partitions", r->nparts, o->progress && r->nparts > 1);
	const double wall0 = tsg_now();
	const int mode = engine_cliques(o) ? share_test() : SHARE_OFF;
	if (p.ntodo && ((one && want > 1 && (share_by_sources(r) || mode == SHARE_FORCE)) ||
			(mode == SHARE_PIECES && r->nparts == 1)))
		rc = count_clique_shared(ctx, want, &ngpus, o, p.plan, r, err);
	else if ((rc = run_lanes(&p, ctx, ngpus, err)) == TSG_OK && one && want > 1)
		one_launch_note(r, gpu_device_index(ctx[0]), want);
	tsg_progress_done(&p.prog);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	r->count_wall_s = tsg_now() - wall0;
	r->count_start = wall0;
	/* per GPU: the share of the wall time its builds, copies and kernels took */
	r->overlap = r->count_wall_s > 0 ? (r->build_s + r->count_s) / (r->count_wall_s * ngpus)
					 : 0;
done:
	for (uint32_t i = 0; i < ngpus; i++) { /* after a failure, copies may still read */
		const int drc = gpu_drain(ctx[i], err);
		if (rc == TSG_OK)
			rc = drc;
	}
	if (rc == TSG_OK && o->per_vertex)
		rc = fetch_pv(ctx, ngpus, g, o, r, err);
	if (rc == TSG_OK && o->k_all)
		engine_clique_top(r);
	if (rc == TSG_OK)
		engine_kernel_fallbacks(gpu_kernel_name(o->gpu_kernel), "mid-hash takes a unit of "
					"under 2^32 - 2^24 source entries", r);
	if (rc == TSG_OK)
		for (uint32_t i = 0; i < ENGINE_MAX_GPUS; i++)
			engine_note_budget_reread(ctx[i], r);
	for (uint32_t i = 0; i < p.nlanes; i++)
		for (int s = 0; s < GPU_SLOTS; s++)
			gpu_host_free(p.lane[i].gpu, p.lane[i].stage[s].mem);
	free(todo);
	part_plan_free(p.plan);
	free(order);
	/* one after another, the first (an arrival leader, whose release
	 * syncs its peers' streams after a failed run) first */
	for (uint32_t i = 0; i < ENGINE_MAX_GPUS; i++) /* all opened: auto may use fewer */
		if (ctx[i])
			gpu_close(ctx[i]);
	open_profile(prof, "GPUs closed");
	if (early.started) {
		rc = early_end(&early, o, rc, r, err);
		if (early.stopped)
			open_profile(prof, "read stopped");
	}
	return rc;
}
