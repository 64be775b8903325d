#include "src/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partition/block.h"
#include "src/pipeline.h"
#include "base/progress.h"
#include "base/util.h"

static void *heap_alloc(void *ctx, size_t bytes)
{
	(void)ctx;
	return malloc(bytes ? bytes : 1);
}

void *engine_block_alloc(void *ctx, size_t bytes)
{
	struct engine_block_mem *m = ctx;
	if (!m->scratch_dir)
		return malloc(bytes ? bytes : 1);
	return io_scratch_map(m->scratch_dir, bytes, &m->file, &m->err) == TSG_OK ? m->file->mem
										 : NULL;
}

void engine_block_release(struct engine_block_mem *m, void *p)
{
	if (m->file && p == m->file->mem) {
		io_scratch_unmap(m->file);
		m->file = NULL;
	} else {
		free(p);
	}
}

static const char *const layout_names[] = { "block", "lstc", "arrival", "auto" };

int engine_layout_parse(const char *s, enum engine_layout *out)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(s, layout_names[i]) == 0) {
			*out = (enum engine_layout)i;
			return TSG_OK;
		}
	return TSG_EUSAGE;
}

const char *engine_layout_name(enum engine_layout l) { return layout_names[l]; }

/* The orientation's pass over the lists, run as they are read. */
static int feed_lists(void *ctx, io_rows_fn fn, void *arg, struct tsg_err *err)
{
	return io_graph_read_lists(ctx, fn, arg, err);
}

/* Sets *feed and *ctx to run a pass over g's lists as they are read, if
 * they are still to be read (else leaves them NULL). The read uses the
 * threads the graph was opened with, which the pass must not exceed. */
static int lists_feed(struct tsg_graph *g, const struct engine_opts *o, struct engine_result *r,
		      int (**feed)(void *, io_rows_fn, void *, struct tsg_err *), void **ctx,
		      struct tsg_err *err)
{
	if (!g->lists_pending)
		return TSG_OK;
	if (g->threads > (o->threads ? o->threads : 1))
		return tsg_fail(err, TSG_EINTERNAL, "graph read on more threads than the pass "
				"over its lists");
	*feed = feed_lists;
	*ctx = g;
	r->lists_streamed = 1;
	return TSG_OK;
}

int engine_arrival_run(struct tsg_graph *g, const struct engine_opts *o,
		       const struct part_arrival_plan *p, const struct part_arrival_sink *sink,
		       int lists_only, struct engine_result *r, struct tsg_err *err)
{
	const double t0 = tsg_now();
	struct part_arrival_opts ao = { .threads = o->threads, .lists_only = lists_only };
	int rc = lists_feed(g, o, r, &ao.feed, &ao.feed_ctx, err);
	if (rc)
		return rc;
	r->layout = ENGINE_LAYOUT_ARRIVAL;
	r->nparts = p->nbatches;
	rc = part_arrival(g, p, &ao, sink, &r->arrival, err);
	r->build_s = tsg_now() - t0;
	return rc;
}

/* The CPU's batches: each counted when handed over, by every thread. */
struct cpu_sink {
	const struct engine_opts *o;
	struct engine_result *r;
};

static int cpu_batch(void *ctx, const struct tsg_batch *b, struct tsg_err *err)
{
	(void)err;
	struct cpu_sink *s = ctx;
	struct engine_part *ep = &s->r->parts[b->k];
	const double t = tsg_now();
	kern_cpu_count_batch(b, s->o->threads, &ep->triangles);
	ep->count_s = tsg_now() - t;
	ep->st.v_local = b->v_hi - b->v_lo;
	s->r->count_s += ep->count_s;
	s->r->triangles += ep->triangles;
	return TSG_OK;
}

static int count_cpu_arrival(struct tsg_graph *g, const struct engine_opts *o,
			     struct engine_result *r, struct tsg_err *err)
{
	struct part_arrival_plan p = { 0 };
	struct cpu_sink s = { .o = o, .r = r };
	const struct part_arrival_sink sink = { .batch = cpu_batch, .ctx = &s };
	int rc = part_arrival_plan_new(g, o->batches, &p, err);
	if (rc)
		return rc;
	r->parts = calloc(p.nbatches, sizeof(*r->parts));
	if (!r->parts) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto done;
	}
	snprintf(r->device_name, sizeof(r->device_name), "cpu (%u threads)", o->threads);
	snprintf(r->kernel, sizeof(r->kernel), "%s", kern_cpu_name(KERN_CPU_MERGE));
	rc = engine_arrival_run(g, o, &p, &sink, 0, r, err);
	if (rc)
		r->triangles = 0; /* a failed read's batches counted nothing that holds */
done:
	part_arrival_plan_free(&p);
	return rc;
}

int engine_block_prepare(struct tsg_graph *g, const struct engine_opts *o,
			 const struct block_opts *bo, part_alloc_fn alloc, void *alloc_ctx,
			 const struct engine_block_mem *mem, struct part_odag *d,
			 struct block_plan *plan, struct engine_result *r, struct tsg_err *err)
{
	const double t0 = tsg_now();
	struct part_orient_opts oo = { .threads = o->threads, .way = o->orient, .alloc = alloc,
				       .alloc_ctx = alloc_ctx };
	int rc = lists_feed(g, o, r, &oo.feed, &oo.feed_ctx, err);
	if (rc)
		return rc;
	struct tsg_err oerr = { 0 };
	rc = part_orient(g, &oo, d, &r->orient, &oerr);
	if (rc) {
		/* a scratch file's failure says more than "cannot allocate" */
		const struct tsg_err *e = mem && mem->err.code ? &mem->err : &oerr;
		return tsg_fail(err, e->code, "%s", e->msg);
	}
	const double t1 = tsg_now();
	r->build_s = t1 - t0;
	rc = block_plan_new(d, bo, plan, err);
	if (rc)
		return rc;
	r->plan_s = tsg_now() - t1;
	r->nblocks = plan->nsrc_blocks;
	r->parts = calloc(plan->nunits ? plan->nunits : 1, sizeof(*r->parts));
	if (!r->parts)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	return TSG_OK;
}

static int count_cpu_block(struct tsg_graph *g, const struct engine_opts *o,
			   struct engine_result *r, struct tsg_err *err)
{
	struct engine_block_mem mem = { .scratch_dir = o->scratch_dir };
	struct part_odag d = { 0 };
	struct block_plan plan = { 0 };
	struct tsg_progress prog;
	const struct block_opts bo = { .nblocks = o->part.nparts, .budget = o->part.budget };
	int rc = engine_block_prepare(g, o, &bo, engine_block_alloc, &mem, &mem, &d, &plan, r,
				      err);
	if (rc)
		goto done;
	r->nparts = plan.nunits;
	snprintf(r->device_name, sizeof(r->device_name), "cpu (%u threads)", o->threads);
	snprintf(r->kernel, sizeof(r->kernel), "%s", kern_cpu_name(o->cpu_kernel));
	tsg_progress_init(&prog, "count", "units", r->nparts, o->progress && r->nparts > 1);
	for (uint32_t k = 0; k < r->nparts; k++) {
		struct engine_part *ep = &r->parts[k];
		const struct tsg_unit u = block_unit_of(&d, &plan.units[k]);
		double tc = tsg_now();
		if (!o->plan_only)
			rc = kern_cpu_count_unit(&u, o->cpu_kernel, o->threads, &ep->triangles, err);
		if (rc)
			goto done;
		ep->count_s = tsg_now() - tc;
		block_unit_stats(&d, &plan.units[k], &ep->st);
		r->count_s += ep->count_s;
		r->triangles += ep->triangles;
		tsg_progress_update(&prog, k + 1, NULL);
	}
	tsg_progress_done(&prog);
done:
	block_plan_free(&plan);
	engine_block_release(&mem, d.off);
	return rc;
}

static int count_cpu(const struct tsg_graph *g, const struct engine_opts *o,
		     struct engine_result *r, struct tsg_err *err)
{
	struct part_plan *plan = NULL;
	struct part_opts po = o->part;
	struct tsg_progress prog;
	double t0 = tsg_now();
	if (po.nparts == 0 && po.budget == 0)
		po.nparts = 1; /* the CPU holds the whole graph: one part unless asked */
	int rc = part_plan_new(g, &po, &plan, err);
	if (rc)
		return rc;
	r->plan_s = tsg_now() - t0;
	r->nparts = part_plan_count(plan);
	r->parts = calloc(r->nparts, sizeof(*r->parts));
	if (!r->parts) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto done;
	}
	snprintf(r->device_name, sizeof(r->device_name), "cpu (%u threads)", o->threads);
	snprintf(r->kernel, sizeof(r->kernel), "%s", kern_cpu_name(o->cpu_kernel));
	tsg_progress_init(&prog, "count", "partitions", r->nparts, o->progress && r->nparts > 1);
	for (uint32_t i = 0; i < r->nparts; i++) {
		struct tsg_dag d;
		struct engine_part *ep = &r->parts[i];
		double tb = tsg_now();
		rc = part_build(plan, i, heap_alloc, NULL, o->want_stats, &d, &ep->st, err);
		if (rc)
			goto done;
		double tc = tsg_now();
		ep->build_s = tc - tb;
		if (!o->plan_only)
			rc = kern_cpu_count(&d, o->cpu_kernel, o->threads, &ep->triangles, err);
		free(d.off);
		if (rc)
			goto done;
		ep->count_s = tsg_now() - tc;
		r->build_s += ep->build_s;
		r->count_s += ep->count_s;
		r->triangles += ep->triangles;
		tsg_progress_update(&prog, i + 1, NULL);
	}
	tsg_progress_done(&prog);
done:
	part_plan_free(plan);
	return rc;
}

int engine_count(struct tsg_graph *g, const struct engine_opts *o, struct engine_result *r,
		 struct tsg_err *err)
{
	memset(r, 0, sizeof(*r));
	double t0 = tsg_now();
	int rc;
	enum tsg_device dev = o->device;
	/* the LSTC layout's parts need every list in place */
	if (g->lists_pending && o->layout == ENGINE_LAYOUT_LSTC) {
		rc = io_graph_read_lists(g, NULL, NULL, err);
		if (rc)
			return rc;
	}
	if (o->plan_only && dev == TSG_DEVICE_GPU)
		return tsg_fail(err, TSG_EUSAGE, "--plan-only runs on the host: use --device cpu");
	if (o->plan_only)
		dev = TSG_DEVICE_CPU;
	if (dev == TSG_DEVICE_GPU && !engine_have_gpu())
		return tsg_fail(err, TSG_EDEVICE, "this build of tristream has no CUDA backend "
				"(rebuild with -Dcuda=enabled), use --device cpu");
	if (dev == TSG_DEVICE_AUTO && !engine_have_gpu()) {
		snprintf(r->note, sizeof(r->note), "no CUDA backend in this build; counting on the CPU");
		dev = TSG_DEVICE_CPU;
	}
	if (dev != TSG_DEVICE_CPU) {
		struct tsg_err gerr = { 0 };
		rc = engine_count_gpu(g, o, r, &gerr);
		if (rc == TSG_EDEVICE && dev == TSG_DEVICE_AUTO && r->nparts == 0) {
			/* no usable GPU: auto means the CPU will do */
			snprintf(r->note, sizeof(r->note), "%.200s; counting on the CPU", gerr.msg);
			engine_result_free(r);
			dev = TSG_DEVICE_CPU;
		} else {
			if (rc)
				tsg_fail(err, rc, "%s", gerr.msg);
			r->device = TSG_DEVICE_GPU;
			r->total_s = tsg_now() - t0;
			return rc;
		}
	}
	r->device = TSG_DEVICE_CPU;
	r->layout = o->layout == ENGINE_LAYOUT_AUTO ? ENGINE_LAYOUT_BLOCK : o->layout;
	if (r->layout == ENGINE_LAYOUT_ARRIVAL)
		rc = count_cpu_arrival(g, o, r, err);
	else if (r->layout == ENGINE_LAYOUT_BLOCK)
		rc = count_cpu_block(g, o, r, err);
	else
		rc = count_cpu(g, o, r, err);
	r->total_s = tsg_now() - t0;
	return rc;
}

void engine_result_free(struct engine_result *r)
{
	free(r->parts);
	r->parts = NULL;
	r->nparts = 0;
}
