#include "src/engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partition/block.h"
#include "partition/order.h"
#include "partition/rows.h"
#include "src/pipeline.h"
#include "src/hostbuild.h"
#include "src/ranges.h"
#include "io/reader.h"
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
	if (m->host || m->adopted)
		return; /* dist_host_free's, with the graph; or the graph's own rows */
	if (m->file && p == m->file->mem) {
		io_scratch_unmap(m->file);
		m->file = NULL;
	} else {
		free(p);
	}
}

static const char *const layout_names[] = { "block", "lstc", "arrival", "auto", "sweep" };

int engine_layout_parse(const char *s, enum engine_layout *out)
{
	for (int i = 0; i < (int)(sizeof(layout_names) / sizeof(*layout_names)); i++)
		if (strcmp(s, layout_names[i]) == 0) {
			*out = (enum engine_layout)i;
			return TSG_OK;
		}
	return TSG_EUSAGE;
}

const char *engine_layout_name(enum engine_layout l) { return layout_names[l]; }

/* ---- checkpoints, stops and per-vertex counts, shared with pipeline_gpu.c */

int engine_ckpt_plan(const struct engine_opts *o, uint64_t key, uint32_t nunits,
		     struct engine_result *r, struct tsg_err *err)
{
	r->plan_key = ckpt_key(&key, 1, nunits); /* ranks compare it (src/dist.h) */
	return o->ckpt ? ckpt_plan(o->ckpt, key, nunits, err) : TSG_OK;
}

uint64_t engine_block_plan_key(const struct block_plan *p)
{
	uint64_t h = ckpt_key(NULL, 0, 1); /* 1: the block layout */
	for (uint32_t k = 0; k < p->nunits; k++) {
		const struct block_unit *u = &p->units[k];
		const uint64_t w[3] = { h, (uint64_t)u->src_lo << 32 | u->src_hi,
					(uint64_t)u->mid_lo << 32 | u->mid_hi };
		h = ckpt_key(w, 3, k);
	}
	return h;
}

struct deal_item {
	uint64_t cost;
	uint32_t k;
};

static int deal_cmp(const void *a, const void *b) /* costliest first, then by index */
{
	const struct deal_item *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	return x->k < y->k ? -1 : x->k > y->k;
}

int engine_deal(const struct engine_opts *o, const uint64_t *cost, uint32_t n,
		struct engine_result *r, struct tsg_err *err)
{
	if (o->nranks <= 1 || n == 0)
		return TSG_OK;
	struct deal_item *it = malloc(n * sizeof(*it));
	uint64_t *load = calloc(o->nranks, sizeof(*load));
	free(r->owner);
	r->owner = malloc(n * sizeof(*r->owner));
	int rc = TSG_OK;
	if (!it || !load || !r->owner) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory dealing units to ranks");
		goto done;
	}
	for (uint32_t k = 0; k < n; k++)
		it[k] = (struct deal_item){ cost[k] + 1, k }; /* + 1: empty units spread too */
	qsort(it, n, sizeof(*it), deal_cmp);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t best = 0;
		for (uint32_t q = 1; q < o->nranks; q++)
			if (load[q] < load[best])
				best = q;
		r->owner[it[i].k] = best;
		load[best] += it[i].cost;
	}
done:
	free(it);
	free(load);
	return rc;
}

int engine_unit_resume(const struct engine_opts *o, uint32_t k, struct engine_result *r)
{
	struct engine_part *ep = &r->parts[k];
	if (o->nranks > 1 && !r->taken &&
	    (r->owner ? r->owner[k] : k % o->nranks) != o->rank) { /* dealt to another rank */
		ep->elsewhere = 1;
		return 1;
	}
	if (!o->ckpt || !ckpt_take(o->ckpt, k, &ep->triangles))
		return 0;
	ep->resumed = 1;
	r->triangles += ep->triangles;
	r->resumed++;
	return 1;
}

int engine_ckpt_read_first(const struct tsg_graph *g, const struct engine_opts *o)
{
	return o->ckpt && g->lists_pending && !g->lists_src;
}

int engine_unit_done(const struct engine_opts *o, uint32_t k, uint64_t count, struct tsg_err *err)
{
	return o->ckpt ? ckpt_record(o->ckpt, k, count, err) : TSG_OK;
}

void engine_kernel_fallbacks(const char *asked, const char *why, struct engine_result *r)
{
	uint32_t counted = 0, other = 0;
	const char *ran = NULL, *first = NULL, *instead = asked;
	int uniform = 1;
	for (uint32_t k = 0; k < r->nparts; k++) {
		const char *name = r->parts[k].kernel;
		/* another rank's unit: what auto chose for it (the same plan and
		 * choice on every rank) */
		const char *seen = name ? name : r->parts[k].elsewhere ? r->parts[k].chosen : NULL;
		if (seen) {
			first = first ? first : seen;
			uniform &= strcmp(seen, first) == 0;
		}
		if (!name)
			continue;
		counted++;
		/* auto: each unit against what was chosen for it */
		const char *want = r->parts[k].chosen ? r->parts[k].chosen : asked;
		if (strcmp(name, want) != 0) {
			instead = other ? instead : want;
			other++;
			ran = ran ? ran : name;
		}
	}
	r->kernel_fallbacks = other;
	/* auto: the kernel that ran, when every unit ran the same one */
	if (strcmp(asked, "auto") == 0 && first && uniform)
		snprintf(r->kernel, sizeof(r->kernel), "%s", first);
	if (!other)
		return;
	if (other == counted)
		snprintf(r->kernel, sizeof(r->kernel), "%s", ran);
	const size_t used = strlen(r->note);
	snprintf(r->note + used, sizeof(r->note) - used, "%s%s ran instead of %s for %u of %u "
		 "units (%s)", used ? "; " : "", ran, instead, other, counted, why);
}

int engine_check_stop(const struct engine_opts *o, struct tsg_err *err)
{
	const int sig = stop_requested(o->stop);
	if (!sig)
		return TSG_OK;
	return tsg_fail(err, TSG_EINTERRUPTED, "stopped by signal %d%s", sig,
			o->ckpt ? ": every unit counted is in the checkpoint; rerun with it to go on"
				: "");
}

int engine_pv_alloc(const struct tsg_graph *g, const struct engine_opts *o, uint64_t **pv,
		    struct tsg_err *err)
{
	*pv = NULL;
	if (!o->per_vertex)
		return TSG_OK;
	*pv = calloc(g->nv ? g->nv : 1, sizeof(**pv));
	return *pv ? TSG_OK : tsg_fail(err, TSG_ENOMEM, "out of memory for per-vertex counts");
}

struct pv_map {
	const uint32_t *rank;
	const uint64_t *by_rank;
	uint64_t *by_id;
};

static void pv_map_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct pv_map *m = ctx;
	for (uint64_t v = b; v < e; v++)
		m->by_id[v] = m->by_rank[m->rank[v]];
}

struct pv_scatter {
	const uint32_t *rank_id;
	const uint64_t *by_rank;
	uint64_t *by_id;
};

static void pv_scatter_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct pv_scatter *m = ctx;
	for (uint64_t r = b; r < e; r++)
		m->by_id[m->rank_id[r]] = m->by_rank[r];
}

int engine_pv_from_ranks(const struct tsg_graph *g, const struct engine_opts *o,
			 uint64_t *by_rank, struct engine_result *r, struct tsg_err *err)
{
	uint64_t *by_id = malloc((g->nv ? g->nv : 1) * sizeof(*by_id));
	if (g->oriented) { /* the file's rank map: its degrees are not at hand to rank by */
		if (!by_id)
			return tsg_fail(err, TSG_ENOMEM, "out of memory for per-vertex counts");
		struct pv_scatter m = { .rank_id = g->rank_id, .by_rank = by_rank, .by_id = by_id };
		tsg_parallel_for(o->threads, g->nv, 1 << 16, pv_scatter_range, &m);
		r->pv = by_id;
		return TSG_OK;
	}
	uint32_t *rank = malloc((g->nv ? g->nv : 1) * sizeof(*rank));
	int rc = TSG_OK;
	if (!rank || !by_id || part_rank(g, o->threads, rank, NULL) != 0) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for per-vertex counts");
		free(by_id);
		goto done;
	}
	struct pv_map m = { .rank = rank, .by_rank = by_rank, .by_id = by_id };
	tsg_parallel_for(o->threads, g->nv, 1 << 16, pv_map_range, &m);
	r->pv = by_id;
done:
	free(rank);
	return rc;
}

/* The orientation's pass over the lists, run as they are read. */
static int feed_lists(void *ctx, io_rows_fn fn, void *arg, struct tsg_err *err)
{
	return io_graph_read_lists(ctx, fn, arg, err);
}

/* Sets *feed and *ctx to run a pass over g's lists as they are read, if
 * they are still to be read (else leaves them NULL); for a pass other than
 * the arrival layout's, a crawl's lists are read whole first. The read
 * uses the threads the graph was opened with, which the pass must not
 * exceed. */
static int lists_feed(struct tsg_graph *g, const struct engine_opts *o, struct engine_result *r,
		      int arrival, int (**feed)(void *, io_rows_fn, void *, struct tsg_err *),
		      void **ctx, struct tsg_err *err)
{
	if (!g->lists_pending)
		return TSG_OK;
	/* a crawl decoded as counted ranks by bounds of its degrees, which only
	 * the arrival layout's batches take: any other pass (the block layout,
	 * where the arrival layout was not taken) has it decoded whole first,
	 * and ranks by its true degrees (the LSTC layout's parts read every
	 * list before, engine_count) */
	if (g->lists_src && !arrival)
		return io_graph_read_lists(g, NULL, NULL, err);
	/* the arrival layout's batches are counted as they come: under
	 * --checkpoint, read whole and checked first (engine_ckpt_read_first;
	 * other passes only build, and count after the read's verdict) */
	if (arrival && engine_ckpt_read_first(g, o))
		return io_graph_read_lists(g, NULL, NULL, err);
	if (g->threads > (o->threads ? o->threads : 1))
		return tsg_fail(err, TSG_EINTERNAL, "graph read on more threads than the pass "
				"over its lists");
	*feed = feed_lists;
	*ctx = g;
	r->lists_streamed = 1;
	return TSG_OK;
}

int engine_deal_arrival(const struct engine_opts *o, const struct tsg_graph *g,
			const struct part_arrival_plan *p, struct engine_result *r,
			struct tsg_err *err)
{
	if (o->nranks <= 1)
		return TSG_OK;
	uint64_t *cost = malloc((p->nbatches ? p->nbatches : 1) * sizeof(*cost));
	if (!cost)
		return tsg_fail(err, TSG_ENOMEM, "out of memory dealing units to ranks");
	const uint64_t *off = io_graph_rank_off(g); /* a crawl's bounds, while decoded */
	for (uint32_t k = 0; k < p->nbatches; k++) /* a batch's list entries */
		cost[k] = off[p->bound[k + 1]] - off[p->bound[k]];
	const int rc = engine_deal(o, cost, p->nbatches, r, err);
	free(cost);
	return rc;
}

struct cost_key {
	uint32_t bucket;  /* the cost's size class: four to a power of two */
	uint64_t bytes;
	uint32_t group;   /* engine_units_by_block: the unit's source block; else 0 */
	uint32_t k;
};

/* Costliest first, by size class: costs are estimates, and within a class
 * (a factor of 2^(1/4)) the unit (or block) with fewer bytes goes first, so
 * that the first copy on each GPU, which no kernel hides, is short. Ties by
 * group, then unit number: every run alike. */
static int cost_desc(const void *a, const void *b)
{
	const struct cost_key *x = a, *y = b;
	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? 1 : -1;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static uint32_t cost_bucket(uint64_t c)
{
	if (c == 0)
		return 0;
	const uint32_t lg = 63u - (uint32_t)__builtin_clzll(c);
	/* the two bits after the leading one split each power of two in four */
	const uint32_t frac = lg >= 2 ? (uint32_t)(c >> (lg - 2)) & 3u : (uint32_t)(c << (2 - lg)) & 3u;
	return 1 + lg * 4 + frac;
}

/* Orders todo costliest first (cost_desc). */
static int order_by_cost(const struct engine_result *r, uint32_t *todo, uint32_t n,
			 struct tsg_err *err)
{
	struct cost_key *key = malloc((n ? n : 1) * sizeof(*key));
	if (!key)
		return tsg_fail(err, TSG_ENOMEM, "out of memory ordering units");
	for (uint32_t i = 0; i < n; i++) {
		const struct engine_part *p = &r->parts[todo[i]];
		key[i] = (struct cost_key){ cost_bucket(p->cost), p->st.bytes, 0, todo[i] };
	}
	qsort(key, n, sizeof(*key), cost_desc);
	for (uint32_t i = 0; i < n; i++)
		todo[i] = key[i].k;
	free(key);
	return TSG_OK;
}

static int u32_asc(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

int engine_units_by_block(const struct block_plan *p, const struct engine_result *r,
			  uint32_t *todo, uint32_t n, struct tsg_err *err)
{
	struct cost_key *key = malloc((n ? n : 1) * sizeof(*key));
	if (!key)
		return tsg_fail(err, TSG_ENOMEM, "out of memory ordering units");
	/* a block's units are consecutive in the plan: in plan order, sum
	 * each run of them */
	qsort(todo, n, sizeof(*todo), u32_asc);
	for (uint32_t i = 0; i < n;) {
		const uint32_t lo = p->units[todo[i]].src_lo;
		uint64_t cost = 0, bytes = 0;
		uint32_t j = i;
		for (; j < n && p->units[todo[j]].src_lo == lo; j++) {
			cost += r->parts[todo[j]].cost;
			bytes += r->parts[todo[j]].st.bytes;
		}
		for (; i < j; i++)
			key[i] = (struct cost_key){ cost_bucket(cost), bytes, lo, todo[i] };
	}
	qsort(key, n, sizeof(*key), cost_desc);
	for (uint32_t i = 0; i < n; i++)
		todo[i] = key[i].k;
	free(key);
	return TSG_OK;
}

int engine_units_todo(const struct engine_opts *o, struct engine_result *r, int by_cost,
		      uint32_t **todo, uint32_t *n, struct tsg_err *err)
{
	*n = 0;
	*todo = malloc((r->nparts ? r->nparts : 1) * sizeof(**todo));
	if (!*todo)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (uint32_t k = 0; k < r->nparts; k++)
		if (!engine_unit_resume(o, k, r))
			(*todo)[(*n)++] = k;
	return by_cost || r->taken ? order_by_cost(r, *todo, *n, err) : TSG_OK;
}

int engine_next_unit(const struct engine_opts *o, const struct engine_result *r,
		     const uint32_t *todo, uint32_t n, uint32_t *next, uint32_t *k, int *have,
		     struct tsg_err *err)
{
	uint64_t i = *next;
	*have = 0;
	if (r->taken) { /* every rank has the same todo: all units, in the same order */
		const int rc = dist_counter_next(o->take, &i, err);
		if (rc)
			return rc;
	} else if (i < n) {
		(*next)++;
	}
	if (i < n) {
		*k = todo[i];
		*have = 1;
	}
	return TSG_OK;
}

void engine_units_taken(const struct engine_opts *o, struct engine_result *r)
{
	if (r->taken)
		dist_counter_rest(o->take);
	for (uint32_t k = 0; r->taken && k < r->nparts; k++)
		r->parts[k].elsewhere = !r->parts[k].kernel;
}

int engine_block_share(const struct engine_opts *o, const struct part_odag *d,
		       const struct block_plan *p, int costs_known, struct engine_result *r,
		       struct tsg_err *err)
{
	if (o->nranks <= 1 && engine_gpu_count(o) <= 1)
		return TSG_OK;
	uint64_t *cost = malloc((p->nunits ? p->nunits : 1) * sizeof(*cost));
	if (!cost)
		return tsg_fail(err, TSG_ENOMEM, "out of memory dealing units");
	if (!costs_known)
		block_plan_costs(d, p, o->threads, cost, NULL);
	for (uint32_t k = 0; k < p->nunits; k++) {
		if (costs_known)
			cost[k] = r->parts[k].cost;
		else
			r->parts[k].cost = cost[k];
	}
	/* read by ranges: dealt already, by the rows the ranks hold; a shared
	 * count: taken as the ranks become free */
	r->taken = !r->ranges.used && o->take;
	const int rc = r->ranges.used || r->taken ? TSG_OK : engine_deal(o, cost, p->nunits, r, err);
	free(cost);
	return rc;
}

int engine_deal_parts(const struct engine_opts *o, const struct part_plan *p,
		      struct engine_result *r, struct tsg_err *err)
{
	if (o->nranks <= 1)
		return TSG_OK;
	const uint32_t n = part_plan_count(p);
	uint64_t *cost = malloc((n ? n : 1) * sizeof(*cost));
	if (!cost)
		return tsg_fail(err, TSG_ENOMEM, "out of memory dealing units to ranks");
	for (uint32_t k = 0; k < n; k++)
		cost[k] = part_plan_weight(p, k);
	const int rc = engine_deal(o, cost, n, r, err);
	free(cost);
	return rc;
}

void engine_plan_key_add(struct engine_result *r, uint64_t v)
{
	const uint64_t w[2] = { r->plan_key, v };
	r->plan_key = ckpt_key(w, 2, 5); /* 5: not a layout's own key */
}

uint64_t engine_arrival_plan_key(const struct part_arrival_plan *p)
{
	const uint64_t h = ckpt_key(p->bound, (uint64_t)p->nbatches + 1, 3); /* 3: arrival */
	return ckpt_key(&h, 1, p->nbatches);
}

/* --host-mem's arrival over the map that only a GPU keeps within the
 * budget: named, or below the spill's need (engine_count refuses the CPU) */
static int mapped_arrival_only(const struct engine_opts *o)
{
	return o->arrival_mapped && (o->layout == ENGINE_LAYOUT_ARRIVAL || o->arrival_only);
}

/* no usable GPU, found before any part was counted, under --device auto */
static int gpu_lost(const struct engine_opts *o, int rc, const struct engine_result *r)
{
	return rc == TSG_EDEVICE && o->device == TSG_DEVICE_AUTO && r->nparts == 0;
}

/* the CPU could not count within --host-mem: neither where only the
 * arrival layout over the mapped file fits it, nor where the CPU's own
 * figure is over it (src/plan.c's plan_host_mem) */
static int cpu_past_budget(const struct engine_opts *o)
{
	return mapped_arrival_only(o) || o->cpu_past_host_mem;
}

int engine_gpu_to_cpu(const struct engine_opts *o, int rc, const struct engine_result *r)
{
	return gpu_lost(o, rc, r) && !cpu_past_budget(o);
}

/* part_arrival_opts.feed_stop over an early read (a sink that failed) */
static void early_stop(void *ctx)
{
	lists_bg_stop(ctx);
}

int engine_arrival_run(struct tsg_graph *g, const struct engine_opts *o,
		       const struct part_arrival_plan *p, const struct part_arrival_sink *sink,
		       int lists_only, struct lists_bg *early, struct engine_result *r,
		       struct tsg_err *err)
{
	const double t0 = tsg_now();
	struct part_arrival_opts ao = { .threads = o->threads, .lists_only = lists_only };
	int rc = TSG_OK;
	if (early && early->started) { /* begun before: g->lists_pending is its to write */
		ao.feed = lists_bg_feed;
		ao.feed_stop = early_stop; /* a failed batch ends the read, not waits for it */
		ao.feed_ctx = early;
		r->lists_streamed = 1;
		r->lists_early = 1;
	} else if ((rc = lists_feed(g, o, r, 1, &ao.feed, &ao.feed_ctx, err))) {
		return rc;
	}
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
	uint64_t *pv; /* by rank */
};

/* A batch's rows are written whether or not it is counted: later batches
 * read them. */
static int cpu_batch(void *ctx, const struct tsg_batch *b, struct tsg_err *err)
{
	struct cpu_sink *s = ctx;
	struct engine_part *ep = &s->r->parts[b->k];
	ep->st.v_local = b->v_hi - b->v_lo;
	if (engine_unit_resume(s->o, b->k, s->r))
		return TSG_OK;
	int rc = engine_check_stop(s->o, err);
	if (rc)
		return rc;
	const double t = tsg_now();
	kern_cpu_count_batch(b, s->o->threads, s->pv, &ep->triangles);
	ep->count_s = tsg_now() - t;
	s->r->count_s += ep->count_s;
	s->r->triangles += ep->triangles;
	return engine_unit_done(s->o, b->k, ep->triangles, err);
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
	if ((rc = engine_pv_alloc(g, o, &s.pv, err)) ||
	    (rc = engine_ckpt_plan(o, engine_arrival_plan_key(&p), p.nbatches, r, err)) ||
	    (rc = engine_deal_arrival(o, g, &p, r, err)))
		goto done;
	snprintf(r->device_name, sizeof(r->device_name), "cpu (%u threads)", o->threads);
	snprintf(r->kernel, sizeof(r->kernel), "%s", kern_cpu_name(KERN_CPU_MERGE));
	rc = engine_arrival_run(g, o, &p, &sink, 0, NULL, r, err);
	if (rc)
		r->triangles = 0; /* a failed read's batches counted nothing that holds */
	else if (s.pv)
		rc = engine_pv_from_ranks(g, o, s.pv, r, err);
done:
	free(s.pv);
	part_arrival_plan_free(&p);
	return rc;
}

/* An oriented file's rows are the oriented graph: adopted where they lie
 * (the mapping, or the buffers they were read into), nothing ranked,
 * oriented or copied. Read here if still pending, checked as they come. */
static int adopt_rows(struct tsg_graph *g, struct engine_block_mem *mem, struct part_odag *d,
		      struct tsg_err *err)
{
	if (!mem)
		return tsg_fail(err, TSG_EINTERNAL, "an oriented graph's rows adopted with no "
				"block memory to mark");
	const int rc = g->lists_pending ? io_graph_read_lists(g, NULL, NULL, err) : TSG_OK;
	if (rc)
		return rc;
	mem->adopted = 1;
	/* the kernels and the planner only read them: the mapping is read-only */
	*d = (struct part_odag){ .nv = (uint32_t)g->nv, .ne = g->nadj,
				 .max_out = (uint32_t)g->max_degree, .off = (uint64_t *)g->off,
				 .adj = (uint32_t *)g->adj };
	return TSG_OK;
}

/* The block layout's units over d, and r->parts for them: bo's plan (in
 * read order up where cut is STREAM_CUT_BUDGET and by_top), or n columns
 * or row blocks (engine_block_stream_plan). */
static int plan_blocks(const struct part_odag *d, const struct block_opts *bo,
		       enum engine_stream_cut cut, uint32_t n, uint64_t min_entries, int by_top,
		       struct block_plan *plan, struct engine_result *r, struct tsg_err *err)
{
	const double t1 = tsg_now();
	const int rc = cut == STREAM_CUT_COLUMNS
			       ? block_plan_columns(d, n, min_entries, &bo->scratch, plan, err)
		       : cut == STREAM_CUT_ROWS_DOWN
			       ? block_plan_rows_down(d, n, min_entries, &bo->scratch, plan, err)
			       : block_plan_new(d, bo, plan, err);
	if (rc)
		return rc;
	if (by_top && cut == STREAM_CUT_BUDGET)
		block_plan_by_top(plan);
	r->plan_s = tsg_now() - t1;
	r->nblocks = plan->nsrc_blocks;
	r->parts = calloc(plan->nunits ? plan->nunits : 1, sizeof(*r->parts));
	if (!r->parts)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	return TSG_OK;
}

int engine_block_streams(const struct tsg_graph *g, const struct engine_opts *o,
			 struct engine_result *r)
{
	const char *why = NULL;
	if (!g->oriented)
		return 0;
	if (o->overlap < 0)
		why = "--overlap off: the file was read, then counted";
	else if (!g->lists_pending)
		why = "its rows were in memory before the count";
	else if (o->plan_only)
		why = "--plan-only counts nothing";
	else if (engine_cliques(o))
		why = "k-cliques are counted from the rows once read";
	else if (o->nranks > 1)
		why = "ranks share its units by their cost, which needs the rows";
	else if (engine_ckpt_read_first(g, o))
		why = "--checkpoint records units only from rows whose checksum was checked: the "
		      "file was read, then counted";
	if (why)
		snprintf(r->stream.why, sizeof(r->stream.why), "%s", why);
	return why == NULL;
}

void engine_block_stream_rows(const struct tsg_graph *g, struct engine_block_mem *mem,
			      struct part_odag *d)
{
	mem->adopted = 1;
	/* where the rows will lie (the mapping, or the buffers they are read
	 * into): offsets known from the header, entries as the read passes */
	*d = (struct part_odag){ .nv = (uint32_t)g->nv, .ne = g->nadj,
				 .max_out = (uint32_t)g->max_degree, .off = (uint64_t *)g->off,
				 .adj = (uint32_t *)g->adj };
}

int engine_block_stream_plan(const struct part_odag *d, const struct engine_opts *o,
			     const struct block_opts *bo, enum engine_stream_cut cut,
			     struct block_plan *plan, struct engine_result *r, struct tsg_err *err)
{
	/* a count asked for is kept; auto's are not cut too thin */
	const uint32_t n = cut == STREAM_CUT_BUDGET ? 0 : o->overlap > 0 ? (uint32_t)o->overlap
									 : ENGINE_STREAM_COLUMNS;
	const int rc = plan_blocks(d, bo, cut, n, o->overlap > 0 ? 0 : ENGINE_STREAM_MIN_ENTRIES,
				   1, plan, r, err);
	if (rc)
		return rc;
	r->stream.used = 1;
	r->stream.down = cut == STREAM_CUT_ROWS_DOWN;
	r->stream.columns = cut == STREAM_CUT_BUDGET ? 0 : plan->nunits;
	if (cut == STREAM_CUT_COLUMNS)
		snprintf(r->stream.why, sizeof(r->stream.why), "the rows in rank order, held once: "
			 "column j counts every a -> b with b in it, once its rows are read");
	else if (cut == STREAM_CUT_ROWS_DOWN)
		snprintf(r->stream.why, sizeof(r->stream.why), "the rows read from the top rank "
			 "down, held once: block j counts every a -> b with a in it, once the rows "
			 "from it up are read");
	else
		snprintf(r->stream.why, sizeof(r->stream.why), "units by the budget, each counted "
			 "once the rows it reads are in");
	return TSG_OK;
}

int engine_block_stream_end(struct lists_bg *bg, int rc, struct engine_result *r,
			    struct tsg_err *err)
{
	struct tsg_err rerr = { 0 };
	const int rrc = lists_bg_end(bg, &rerr);
	r->stream.wait_s = bg->waited_s;
	/* a bad file explains a failed wait; a read stopped for the caller's
	 * failure (or SIGINT's) leaves that failure the one told */
	if (rrc && rc != TSG_EINTERRUPTED && !(bg->stopped && rc)) {
		rc = rrc;
		*err = rerr;
	}
	if (rc)
		r->triangles = 0; /* no unit's count holds */
	return rc;
}

int engine_block_prepare(struct tsg_graph *g, const struct engine_opts *o,
			 const struct block_opts *bo, part_alloc_fn alloc, void *alloc_ctx,
			 struct engine_block_mem *mem, struct part_odag *d,
			 struct block_plan *plan, struct engine_result *r, struct tsg_err *err)
{
	if (g->oriented) { /* nothing to build: its read is the read stage's */
		const int rc = adopt_rows(g, mem, d, err);
		return rc ? rc : plan_blocks(d, bo, STREAM_CUT_BUDGET, 0, 0, 0, plan, r, err);
	}
	if (o->read_ranges) {
		char why[128];
		if (ranges_usable(g, o, why, sizeof(why)))
			return ranges_block_prepare(g, o, bo, alloc, alloc_ctx, d, plan, r, err);
		snprintf(r->note, sizeof(r->note), "--read ranges: %s: every list was read", why);
	} else if (mem) {
		char why[128];
		if (hostbuild_usable(g, o, mem, why, sizeof(why)))
			return hostbuild_block_prepare(g, o, bo, mem, d, plan, r, err);
		if (why[0])
			snprintf(r->note, sizeof(r->note), "each rank of this host oriented the "
				 "whole graph: %s", why);
	}
	const double t0 = tsg_now();
	struct part_orient_opts oo = { .threads = o->threads, .way = o->orient, .alloc = alloc,
				       .alloc_ctx = alloc_ctx };
	int rc = lists_feed(g, o, r, 0, &oo.feed, &oo.feed_ctx, err);
	if (rc)
		return rc;
	struct tsg_err oerr = { 0 };
	rc = part_orient(g, &oo, d, &r->orient, &oerr);
	if (rc) {
		/* a scratch file's failure says more than "cannot allocate" */
		const struct tsg_err *e = mem && mem->err.code ? &mem->err : &oerr;
		return tsg_fail(err, e->code, "%s", e->msg);
	}
	r->build_s = tsg_now() - t0;
	return plan_blocks(d, bo, STREAM_CUT_BUDGET, 0, 0, 0, plan, r, err);
}

/* The CPU kernel's name, and if it ran another for some unit, why. */
static void cpu_kernel_report(const struct engine_opts *o, enum kern_cpu_kind ran,
			      struct engine_result *r)
{
	snprintf(r->kernel, sizeof(r->kernel), "%s", kern_cpu_name(ran));
	if (ran != o->cpu_kernel)
		snprintf(r->note, sizeof(r->note), "%s ran instead of %s (%s)", kern_cpu_name(ran),
			 kern_cpu_name(o->cpu_kernel), o->per_vertex ? "per-vertex counts" :
			 "LSTC partitions are not in rank order");
}

static int count_cpu_block(struct tsg_graph *g, const struct engine_opts *o,
			   struct engine_result *r, struct tsg_err *err)
{
	struct engine_block_mem mem = { .scratch_dir = o->scratch_dir };
	struct part_odag d = { 0 };
	struct block_plan plan = { 0 };
	struct tsg_progress prog;
	const struct block_opts bo = { .nblocks = o->part.nparts, .budget = o->part.budget };
	uint64_t *pv = NULL; /* by rank */
	uint32_t *todo = NULL, ntodo = 0;
	enum kern_cpu_kind ran = o->cpu_kernel;
	struct lists_bg bg = { 0 };
	const int streams = engine_block_streams(g, o, r);
	int rc = TSG_OK;
	if (streams) { /* on the host every row is at hand: columns (R-MAT 22 on
			* 2 cores, 15 units: 10.2 s against 15.0 s for row blocks),
			* unless --partitions asks */
		const enum engine_stream_cut cut = bo.nblocks ? STREAM_CUT_BUDGET
						   : o->overlap_cut == ENGINE_CUT_ROWS ? STREAM_CUT_ROWS_DOWN
										       : STREAM_CUT_COLUMNS;
		engine_block_stream_rows(g, &mem, &d);
		if ((rc = engine_block_stream_plan(&d, o, &bo, cut, &plan, r, err)) == TSG_OK)
			rc = lists_bg_begin(&bg, g, cut == STREAM_CUT_ROWS_DOWN, err);
	} else {
		rc = engine_block_prepare(g, o, &bo, engine_block_alloc, &mem, &mem, &d, &plan, r,
					  err);
	}
	if (rc || (rc = engine_pv_alloc(g, o, &pv, err)) ||
	    (rc = engine_ckpt_plan(o, engine_block_plan_key(&plan), plan.nunits, r, err)) ||
	    (rc = engine_block_share(o, &d, &plan, 0, r, err)))
		goto done;
	r->nparts = plan.nunits;
	for (uint32_t k = 0; k < r->nparts; k++)
		block_unit_stats(&d, &plan.units[k], &r->parts[k].st);
	if ((rc = engine_units_todo(o, r, 0, &todo, &ntodo, err)))
		goto done;
	snprintf(r->device_name, sizeof(r->device_name), "cpu (%u threads)", o->threads);
	tsg_progress_init(&prog, "count", "units", r->nparts, o->progress && r->nparts > 1);
	const double wall0 = tsg_now();
	for (uint32_t next = 0, counted = r->nparts - ntodo;;) {
		uint32_t k = 0;
		int have = 0;
		if ((rc = engine_check_stop(o, err)) ||
		    (rc = engine_next_unit(o, r, todo, ntodo, &next, &k, &have, err)) || !have)
			break;
		struct engine_part *ep = &r->parts[k];
		const struct tsg_unit u = block_unit_of(&d, &plan.units[k]);
		if (streams && (rc = lists_bg_wait_unit(&bg, &plan.units[k], err)))
			break;
		double tc = tsg_now();
		if (!o->plan_only)
			rc = kern_cpu_count_unit(&u, o->cpu_kernel, o->threads, pv, &ep->triangles,
						 &ran, err);
		if (rc || (rc = engine_unit_done(o, k, ep->triangles, err)))
			break;
		if (!o->plan_only)
			ep->kernel = kern_cpu_name(ran);
		ep->count_s = tsg_now() - tc;
		r->count_s += ep->count_s;
		r->triangles += ep->triangles;
		tsg_progress_update(&prog, ++counted, NULL);
	}
	engine_units_taken(o, r);
	tsg_progress_done(&prog);
	r->count_wall_s = tsg_now() - wall0;
	r->count_start = wall0;
	cpu_kernel_report(o, ran, r);
done:
	if (streams) {
		if (rc) /* a failed unit or a stop: the rest of the file is not waited for */
			lists_bg_stop(&bg);
		rc = engine_block_stream_end(&bg, rc, r, err);
	}
	if (rc == TSG_OK && pv)
		rc = engine_pv_from_ranks(g, o, pv, r, err);
	free(todo);
	free(pv);
	block_plan_free(&plan);
	engine_block_release(&mem, d.off);
	return rc;
}

int engine_lstc_setup(const struct tsg_graph *g, const struct engine_opts *o,
			struct part_opts *po, uint32_t **order, struct engine_result *r,
			struct tsg_err *err)
{
	*order = NULL;
	if (po->prune == PART_PRUNE_AUTO && (!engine_cliques(o) || o->k_all))
		po->prune = PART_PRUNE_LOCAL; /* else the plan resolves it (part.h) */
	r->prune = po->prune;
	if (po->prune == PART_PRUNE_CLOSED && o->k_all)
		return tsg_fail(err, TSG_EUSAGE, "--prune closed keeps only edges on triangles: "
				"--k-all counts every edge too (use --prune local)");
	if (!engine_cliques(o) && !o->degeneracy)
		return TSG_OK;
	/* auto stays auto for the CPU (count_cpu times both on the first part) */
	r->clique_ran = o->k_all ? KERN_CLIQUE_PIVOT : o->clique_method;
	if (o->degeneracy) {
		*order = malloc((g->nv ? g->nv : 1) * sizeof(**order));
		if (!*order)
			return tsg_fail(err, TSG_ENOMEM, "out of memory for the degeneracy order");
		const int rc = part_degeneracy_order(g, *order, &r->degeneracy, err);
		if (rc)
			return rc;
		po->order = *order;
	}
	r->max_out = part_max_out(g, *order, o->threads);
	if (o->k_all) { /* no clique is larger than the longest out-list and its source */
		r->sizes_len = (uint64_t)r->max_out + 2;
		r->sizes = calloc(r->sizes_len, sizeof(*r->sizes));
		if (!r->sizes)
			return tsg_fail(err, TSG_ENOMEM, "out of memory for clique counts");
	}
	return TSG_OK;
}

int engine_clique_race(const struct tsg_graph *g, const struct engine_opts *o,
		       const uint32_t *order, double ratio, enum kern_clique_method *m,
		       int *raced, struct tsg_err *err)
{
	/* the sample: part 0 of ENGINE_RACE_PARTS hashed parts, its rows
	 * pruned local (one pass; the race runs on every source it has) */
	struct part_opts po = { .scheme = PART_HASH, .prune = PART_PRUNE_LOCAL,
				.nparts = ENGINE_RACE_PARTS,
				.seed = 1, .threads = o->threads, .order = order };
	struct part_plan *plan = NULL;
	struct tsg_dag d = { 0 };
	*raced = 0;
	*m = o->k >= 7 ? KERN_CLIQUE_PIVOT : KERN_CLIQUE_ORIENT; /* if no race: the paper's rule */
	if (g->nv < ENGINE_RACE_PARTS * 4)
		return TSG_OK;
	int rc = part_plan_new(g, &po, &plan, err);
	if (rc == TSG_OK)
		rc = part_build(plan, 0, heap_alloc, NULL, 0, &d, NULL, err);
	if (rc == TSG_OK) {
		const enum kern_clique_method p = kern_cpu_clique_pick(&d, o->k, o->threads, 1,
								       ratio, ENGINE_RACE_MOST_S, raced);
		*m = *raced ? p : *m;
	}
	free(d.off);
	part_plan_free(plan);
	return rc == TSG_ENOMEM ? TSG_OK : rc; /* no room for a sample: not a reason to fail */
}

static int count_cpu(const struct tsg_graph *g, const struct engine_opts *o,
		     struct engine_result *r, struct tsg_err *err)
{
	struct part_plan *plan = NULL;
	struct part_opts po = o->part;
	struct tsg_progress prog;
	double t0 = tsg_now();
	enum kern_cpu_kind ran = o->cpu_kernel;
	uint32_t *order = NULL;
	if (po.nparts == 0 && po.budget == 0)
		po.nparts = 1; /* the CPU holds the whole graph: one part unless asked */
	po.want_gid = o->per_vertex; /* counts by global id */
	int rc = engine_lstc_setup(g, o, &po, &order, r, err);
	if (rc == TSG_OK)
		rc = part_plan_new(g, &po, &plan, err);
	if (rc) {
		free(order);
		return rc;
	}
	r->plan_s = tsg_now() - t0;
	r->prune = part_plan_prune(plan);
	r->nparts = part_plan_count(plan);
	r->parts = calloc(r->nparts, sizeof(*r->parts));
	if (!r->parts) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = engine_pv_alloc(g, o, &r->pv, err)) ||
	    (rc = engine_ckpt_plan(o, part_plan_digest(plan), r->nparts, r, err)) ||
	    (rc = engine_deal_parts(o, plan, r, err)))
		goto done;
	snprintf(r->device_name, sizeof(r->device_name), "cpu (%u threads)", o->threads);
	tsg_progress_init(&prog, "count", "partitions", r->nparts, o->progress && r->nparts > 1);
	for (uint32_t i = 0; i < r->nparts; i++) {
		struct tsg_dag d;
		struct engine_part *ep = &r->parts[i];
		if (engine_unit_resume(o, i, r))
			continue;
		if ((rc = engine_check_stop(o, err)))
			goto done;
		double tb = tsg_now();
		rc = part_build(plan, i, heap_alloc, NULL, o->want_stats, &d, &ep->st, err);
		if (rc)
			goto done;
		double tc = tsg_now();
		ep->build_s = tc - tb;
		if (!o->plan_only && engine_cliques(o) && r->clique_ran == KERN_CLIQUE_AUTO) {
			/* timed on this part's sample, then kept for every part */
			r->clique_ran = kern_cpu_clique_pick(&d, o->k, o->threads, 64, 1.0, 0,
							     &r->clique_picked);
		}
		if (!o->plan_only && engine_cliques(o))
			rc = kern_cpu_clique(&d, o->k, o->k_all, r->clique_ran, o->threads,
					     o->k_all ? r->sizes : &ep->triangles, &r->nsizes, err);
		else if (!o->plan_only)
			rc = kern_cpu_count(&d, o->cpu_kernel, o->threads, r->pv, &ep->triangles, &ran,
					    err);
		free(d.off);
		if (!o->plan_only && !engine_cliques(o))
			ep->kernel = kern_cpu_name(ran);
		if (rc || (rc = engine_unit_done(o, i, ep->triangles, err)))
			goto done;
		ep->count_s = tsg_now() - tc;
		r->build_s += ep->build_s;
		r->count_s += ep->count_s;
		r->triangles += ep->triangles;
		tsg_progress_update(&prog, i + 1, NULL);
	}
	tsg_progress_done(&prog);
	if (engine_cliques(o)) {
		snprintf(r->kernel, sizeof(r->kernel), "cpu-clique-%s",
			 kern_clique_method_name(r->clique_ran));
		if (o->clique_scheme != KERN_CLIQUE_SCHEME_AUTO || o->clique_group) {
			const size_t used = strlen(r->note);
			snprintf(r->note + used, sizeof(r->note) - used, "%s--kclique-scheme and "
				 "--kclique-group shape the GPU's warps: not used on the CPU",
				 used ? "; " : "");
		}
	} else {
		cpu_kernel_report(o, ran, r);
	}
done:
	part_plan_free(plan);
	free(order);
	return rc;
}

void engine_clique_top(struct engine_result *r)
{
	r->nsizes = 0;
	for (uint64_t i = 0; i < r->sizes_len; i++)
		if (r->sizes[i])
			r->nsizes = (uint32_t)(i + 1);
}

/* What an oriented graph (io/graph.h) is counted with, into *oo: the block
 * layout, whose oriented graph its rows are; k-cliques on the CPU, from
 * the same rows (count_cpu_oriented_cliques). What needs the undirected
 * lists is refused, as the plan refuses it (src/plan.c): a caller that
 * skipped the plan still gets no count from what cannot apply. */
static int oriented_opts(const struct tsg_graph *g, const struct engine_opts *o,
			 struct engine_opts *oo, struct engine_result *r, struct tsg_err *err)
{
	const char *name = io_graph_name(g);
	*oo = *o;
	if (o->layout != ENGINE_LAYOUT_AUTO && o->layout != ENGINE_LAYOUT_BLOCK)
		return tsg_fail(err, TSG_EUSAGE, "%s is an oriented .tsg (each edge once, in rank "
				"order): the %s layout needs the undirected lists; it is counted by "
				"the block layout", name, engine_layout_name(o->layout));
	if (o->read_ranges)
		return tsg_fail(err, TSG_EUSAGE, "--read ranges reads the undirected lists of a "
				"block's ranks: %s is an oriented .tsg, which every rank reads whole",
				name);
	if (o->degeneracy)
		return tsg_fail(err, TSG_EUSAGE, "--order degeneracy orients the undirected lists: "
				"%s is stored oriented, by (degree, id)", name);
	if (engine_cliques(o) && o->device == TSG_DEVICE_GPU)
		return tsg_fail(err, TSG_EUSAGE, "k-cliques of an oriented .tsg (%s) are counted on "
				"the CPU (--device cpu): the GPU's take LSTC parts, built from the "
				"undirected lists", name);
	if (engine_cliques(o) && o->device == TSG_DEVICE_AUTO) {
		oo->device = TSG_DEVICE_CPU;
		snprintf(r->note, sizeof(r->note), "k-cliques of an oriented .tsg are counted on the "
			 "CPU");
	}
	oo->layout = ENGINE_LAYOUT_BLOCK;
	oo->pin_host = 0; /* its rows are counted where they lie */
	return TSG_OK;
}

/* k-cliques of an oriented graph: every K-clique's lowest rank a has the
 * others in out(a), whose induced subgraph the whole set of rows holds,
 * so each unit is the whole DAG with a range of ranks as its sources
 * (kernels/clique.h): o->part.nparts ranges (1 unless asked), for
 * checkpoints and ranks. */
static int count_cpu_oriented_cliques(struct tsg_graph *g, const struct engine_opts *o,
				      struct engine_result *r, struct tsg_err *err)
{
	const uint32_t nv = (uint32_t)g->nv;
	uint32_t n = o->part.nparts ? o->part.nparts : 1;
	n = nv && n > nv ? nv : n;
	int rc = g->lists_pending ? io_graph_read_lists(g, NULL, NULL, err) : TSG_OK;
	if (rc)
		return rc;
	struct tsg_progress prog;
	uint32_t *src = malloc((nv ? nv : 1) * sizeof(*src));
	r->parts = calloc(n, sizeof(*r->parts));
	r->max_out = (uint32_t)g->max_degree;
	r->sizes_len = o->k_all ? (uint64_t)r->max_out + 2 : 0; /* as engine_lstc_setup */
	r->sizes = o->k_all ? calloc(r->sizes_len, sizeof(*r->sizes)) : NULL;
	if (!src || !r->parts || (o->k_all && !r->sizes)) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for k-cliques of %u vertices", nv);
		goto done;
	}
	for (uint32_t v = 0; v < nv; v++)
		src[v] = v;
	r->layout = ENGINE_LAYOUT_BLOCK;
	r->nparts = r->nblocks = n;
	r->clique_ran = o->k_all ? KERN_CLIQUE_PIVOT : o->clique_method;
	const uint64_t key_words[] = { n, nv, g->nadj };
	if ((rc = engine_ckpt_plan(o, ckpt_key(key_words, 3, 4 /* 4: oriented cliques */), n, r,
				   err)))
		goto done;
	snprintf(r->device_name, sizeof(r->device_name), "cpu (%u threads)", o->threads);
	tsg_progress_init(&prog, "count", "units", n, o->progress && n > 1);
	const double wall0 = tsg_now();
	for (uint32_t k = 0; k < n; k++) {
		struct engine_part *ep = &r->parts[k];
		const uint32_t lo = (uint32_t)((uint64_t)nv * k / n);
		const uint32_t hi = (uint32_t)((uint64_t)nv * (k + 1) / n);
		ep->st.v_local = hi - lo;
		if (engine_unit_resume(o, k, r))
			continue;
		if ((rc = engine_check_stop(o, err)))
			break;
		const struct tsg_dag d = { .nv = nv, .nsrc = hi - lo, .ne = g->nadj,
					   .max_out = r->max_out, .off = (uint64_t *)g->off,
					   .adj = (uint32_t *)g->adj, .src = src + lo };
		const double tc = tsg_now();
		if (!o->plan_only && r->clique_ran == KERN_CLIQUE_AUTO) /* timed on this unit */
			r->clique_ran = kern_cpu_clique_pick(&d, o->k, o->threads, 64, 1.0, 0,
							     &r->clique_picked);
		if (!o->plan_only)
			rc = kern_cpu_clique(&d, o->k, o->k_all, r->clique_ran, o->threads,
					     o->k_all ? r->sizes : &ep->triangles, &r->nsizes, err);
		if (rc || (rc = engine_unit_done(o, k, ep->triangles, err)))
			break;
		ep->count_s = tsg_now() - tc;
		r->count_s += ep->count_s;
		r->triangles += ep->triangles;
		tsg_progress_update(&prog, k + 1, NULL);
	}
	tsg_progress_done(&prog);
	r->count_wall_s = tsg_now() - wall0;
	r->count_start = wall0;
	snprintf(r->kernel, sizeof(r->kernel), "cpu-clique-%s",
		 kern_clique_method_name(r->clique_ran));
	if (o->clique_scheme != KERN_CLIQUE_SCHEME_AUTO || o->clique_group) {
		const size_t used = strlen(r->note);
		snprintf(r->note + used, sizeof(r->note) - used, "%s--kclique-scheme and "
			 "--kclique-group shape the GPU's warps: not used on the CPU",
			 used ? "; " : "");
	}
done:
	free(src);
	return rc;
}

static int count_graph(struct tsg_graph *g, const struct engine_opts *o, struct engine_result *r,
		       struct tsg_err *err)
{
	double t0 = tsg_now();
	int rc;
	struct engine_opts oo;
	if (g->oriented) {
		if ((rc = oriented_opts(g, o, &oo, r, err)))
			return rc;
		o = &oo;
	}
	enum tsg_device dev = o->device;
	if (!g->oriented && engine_cliques(o) && (o->layout == ENGINE_LAYOUT_BLOCK ||
						  o->layout == ENGINE_LAYOUT_ARRIVAL))
		return tsg_fail(err, TSG_EUSAGE, "k-cliques are counted on LSTC parts (--layout "
				"lstc or auto): a %s does not hold the edges among a vertex's "
				"out-neighbours", o->layout == ENGINE_LAYOUT_BLOCK ? "block unit" :
				"arrival batch");
	if (o->degeneracy && o->layout != ENGINE_LAYOUT_LSTC && !engine_cliques(o))
		return tsg_fail(err, TSG_EUSAGE, "--order degeneracy orients LSTC parts: use it "
				"with --layout lstc or --k");
	/* the LSTC layout's parts need every list in place */
	if (g->lists_pending && (o->layout == ENGINE_LAYOUT_LSTC || engine_cliques(o))) {
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
		if (gpu_lost(o, rc, r) && mapped_arrival_only(o)) { /* (here dev is o->device) */
			/* the CPU's batches write every row on the host, and its
			 * block layout would spill past the budget: neither is
			 * within --host-mem, which the arrival was planned in */
			rc = tsg_fail(err, TSG_EDEVICE, "%.200s; the arrival layout under --host-mem "
				      "holds no rows on the host only on a GPU (%s)", gerr.msg,
				      o->arrival_only ? "and spilling needs more than the budget"
						      : "--layout block spills instead");
			r->total_s = tsg_now() - t0;
			return rc;
		} else if (gpu_lost(o, rc, r) && o->cpu_past_host_mem) {
			rc = tsg_fail(err, TSG_EDEVICE, "%.200s; on the CPU this count needs more than "
				      "--host-mem, which was planned for the GPU (--device cpu plans "
				      "for the CPU)", gerr.msg);
			r->total_s = tsg_now() - t0;
			return rc;
		} else if (engine_gpu_to_cpu(o, rc, r)) {
			/* no usable GPU: auto means the CPU will do */
			snprintf(r->note, sizeof(r->note), "%.200s; counting on the CPU", gerr.msg);
			engine_result_free(r);
			/* the GPU's race and clique setup (which may have run beside
			 * its open) are not the CPU's: it picks its own method */
			r->clique_picked = r->clique_by_k = 0;
			r->clique_gpu = (struct kern_clique_gpu){ 0 };
			dev = TSG_DEVICE_CPU;
		} else {
			if (rc)
				tsg_fail(err, rc, "%s", gerr.msg);
			else if (o->per_vertex && !r->pv)
				rc = tsg_fail(err, TSG_EINTERNAL, "the GPU path returned no "
					      "per-vertex counts");
			r->device = TSG_DEVICE_GPU;
			r->total_s = tsg_now() - t0;
			return rc;
		}
	}
	r->device = TSG_DEVICE_CPU;
	r->layout = o->layout != ENGINE_LAYOUT_AUTO ? o->layout
		    : engine_cliques(o)		   ? ENGINE_LAYOUT_LSTC
						   : ENGINE_LAYOUT_BLOCK;
	if (g->oriented && engine_cliques(o))
		rc = count_cpu_oriented_cliques(g, o, r, err);
	else if (r->layout == ENGINE_LAYOUT_ARRIVAL)
		rc = count_cpu_arrival(g, o, r, err);
	else if (r->layout == ENGINE_LAYOUT_BLOCK)
		rc = count_cpu_block(g, o, r, err);
	else
		rc = count_cpu(g, o, r, err);
	r->total_s = tsg_now() - t0;
	return rc;
}

int engine_count(struct tsg_graph *g, const struct engine_opts *o, struct engine_result *r,
		 struct tsg_err *err)
{
	memset(r, 0, sizeof(*r));
	int rc = count_graph(g, o, r, err);
	/* an oriented graph's counts by id are reported with each id's degree
	 * (src/pervertex.h), which only its rows give */
	if (rc == TSG_OK && g->oriented && o->per_vertex)
		rc = io_graph_load_degrees(g, o->threads, err);
	return rc;
}

/*
 * --device auto, decided from the header before anything is read.
 *
 * The GPU pays a fixed start-up F (context, the device budget, pinned
 * buffers, teardown; the context is made while the file is read, since
 * engine_gpu_warm_begin) and then about c_gpu a edge; the CPU (all
 * threads) starts at once but pays c_cpu a edge, which grows with the
 * degree skew s = max degree / sqrt(edges): hubs make wedges. The GPU is
 * taken where m (c_cpu(s) - c_gpu) > F.
 *
 * Measured by bench/fixed_costs.sh on the H100 host (16 cores), 2026-11-23,
 * end to end from a warm file, medians of 3 (raw:
 * bench/raw/h100-2026-11-23-inputs/inputs-run1.log):
 *   graph     edges   s     GPU s  CPU s   CPU ns/edge
 *   web 2^21  15.8 M  3.3   0.556  0.198   12.5
 *   web 2^22  31.6 M  3.7   0.656  0.365   11.5
 *   web 2^23  63.3 M  4.2   0.919  0.792   12.5
 *   R-MAT 18   3.8 M  12.9  0.481  0.145   38
 *   R-MAT 19   7.7 M  14.5  0.573  0.343   44
 *   R-MAT 20  15.7 M  16.3  0.620  0.707   45
 *   R-MAT 21  31.8 M  18.2  0.727  1.479   47
 *   R-MAT 22  64.2 M  20.5  1.032  3.646   57
 * Fit: F = 0.45 s, c_gpu = 8 ns, c_cpu = 12 + 3.2 (s - 4) ns. It picks the
 * faster device on every row above. Below the least skew measured (3.3)
 * the fit is not extended: it would fall under c_gpu by s = 2.75 and send
 * any crawl of low skew to the CPU however large (a 408 M-edge crawl was
 * given "the GPU would save about 0.00 s"); c_cpu stays at its value for
 * s = 3.3, about 9.8 ns, where the web rows' CPU cost stayed at 11.5 ns
 * and more. Outside what was measured (average
 * degree above 32, or s above 21) the GPU is taken: a dense or more skewed
 * graph makes far more wedges an edge than these, which the model cannot
 * tell, and a wrong GPU choice costs at most F where a wrong CPU choice
 * can cost many times the count. k-cliques (K > 3) take the GPU too.
 */
static const double AUTO_GPU_FIXED_S = 0.45, AUTO_GPU_NS = 8.0, AUTO_CPU_NS_BASE = 12.0,
		    AUTO_CPU_NS_PER_SKEW = 3.2, AUTO_SKEW_LEAST = 3.3;

/* Tests (tests/gpu/groups.sh): TSG_TEST_ALL_GPUS_EDGES, a positive number
 * of edges, stands for ENGINE_ALL_GPUS_ROWS / 4, so that the rule can be
 * tried on a small graph. */
static uint64_t all_gpus_edges(void)
{
	return tsg_env_positive("TSG_TEST_ALL_GPUS_EDGES", ENGINE_ALL_GPUS_ROWS / 4);
}

int engine_arrival_all_gpus(const struct engine_opts *o, uint64_t nedges, double cached)
{
	return engine_gpu_count(o) > 1 && o->layout == ENGINE_LAYOUT_AUTO && !engine_cliques(o) &&
	       o->nranks <= 1 && !o->plan_only && !o->scratch_dir && !o->arrival_mapped &&
	       nedges >= all_gpus_edges() && cached >= io_cached_enough();
}

int engine_rows_past_gpu(const struct engine_opts *o, uint64_t nedges, uint64_t first_bytes)
{
	const uint64_t room = o->gpu_mem ? o->gpu_mem : first_bytes;
	return engine_gpu_count(o) > 1 && o->layout == ENGINE_LAYOUT_AUTO && !engine_cliques(o) &&
	       o->nranks <= 1 && !o->plan_only && room && nedges > room / 4;
}

enum tsg_device engine_auto_device(uint64_t nv, uint64_t nedges, uint64_t max_degree, uint32_t k,
				   char *note, size_t note_len)
{
	if (k > 3)
		return TSG_DEVICE_GPU;
	if (nedges == 0) { /* nothing to count: no skew either (the rule divides by it) */
		snprintf(note, note_len, "--device auto: the CPU, as the graph has no edges");
		return TSG_DEVICE_CPU;
	}
	const double m = (double)nedges, s = (double)max_degree / sqrt(m);
	if (2 * m > 32.0 * (double)nv || s > 21.0)
		return TSG_DEVICE_GPU; /* beyond the measurements */
	const double cpu_ns = AUTO_CPU_NS_BASE +
			      AUTO_CPU_NS_PER_SKEW * ((s > AUTO_SKEW_LEAST ? s : AUTO_SKEW_LEAST) - 4.0);
	const double saved = m * (cpu_ns - AUTO_GPU_NS) * 1e-9;
	if (saved > AUTO_GPU_FIXED_S)
		return TSG_DEVICE_GPU;
	snprintf(note, note_len, "--device auto: the CPU, as the GPU would save about %.2f s on "
		 "%llu edges (max degree %llu), less than its start-up of %.2f s",
		 saved > 0 ? saved : 0.0, (unsigned long long)nedges,
		 (unsigned long long)max_degree, AUTO_GPU_FIXED_S);
	return TSG_DEVICE_CPU;
}

void engine_result_free(struct engine_result *r)
{
	free(r->pv);
	r->pv = NULL;
	free(r->sizes);
	r->sizes = NULL;
	free(r->owner);
	r->owner = NULL;
	free(r->gpus);
	r->gpus = NULL;
	r->ngpus = 0;
	free(r->parts);
	r->parts = NULL;
	r->nparts = 0;
}
