/*
 * arrival.c - rows and in lists written as the lists arrive, batches handed
 * out in order as they complete (arrival.h).
 *
 * Workers (the feed's threads) write, for each vertex v of a range, its row
 * (sorted) and its in list into their own arenas, and add the range's
 * vertices to their batches' done counters. A consumer thread waits for
 * batch k's counter to reach its size and then calls the sink; the counter's
 * atomic add and the mutex order the rows' writes before the sink's reads.
 * Lists only, the workers just count; the same ordering then covers the
 * lists the reader and the checks wrote.
 */
#include "partition/arrival.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "partition/orient.h"
#include "partition/rows.h"
#include "base/util.h"

enum { GRAIN = 4096 };

struct actx {
	const struct tsg_graph *g;
	const struct part_arrival_plan *p;
	const struct part_arrival_sink *sink;
	const struct part_arrival_opts *o;
	uint32_t *rank, *batch_of, *row_len, *in_len;
	uint32_t **row, **in;
	uint32_t *scratch;            /* per thread: row_cap ids for the row sort */
	struct part_arena *rows, *ins; /* per thread */
	atomic_uint_fast64_t *done;   /* per batch: vertices written */
	atomic_uint_fast64_t max_out;
	atomic_int failed;            /* an arena could not grow */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int closed;                   /* the pass is over: no batch will grow */
	uint32_t handed;              /* batches the sink has returned from */
	int sink_rc;
	struct tsg_err sink_err;
	double t_last;                /* when the last batch returned */
};

static uint64_t batch_size(const struct actx *c, uint32_t k)
{
	return c->p->bound[k + 1] - c->p->bound[k];
}

/* The batch holding id v: the last k with bound[k] <= v. */
static uint32_t batch_of_id(const struct part_arrival_plan *p, uint64_t v)
{
	uint32_t lo = 0, hi = p->nbatches;
	while (hi - lo > 1) {
		const uint32_t m = (lo + hi) / 2;
		if (p->bound[m] <= v)
			lo = m;
		else
			hi = m;
	}
	return lo;
}

static void add_done(struct actx *c, uint32_t k, uint64_t n)
{
	if (n && atomic_fetch_add(&c->done[k], n) + n == batch_size(c, k)) {
		pthread_mutex_lock(&c->mu);
		pthread_cond_broadcast(&c->cv);
		pthread_mutex_unlock(&c->mu);
	}
}

/* Vertices b .. e-1, whose lists are in and checked, counted as done. */
static void count_done(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct actx *c = arg;
	for (uint32_t k = batch_of_id(c->p, b); b < e; k++) {
		const uint64_t end = c->p->bound[k + 1] < e ? c->p->bound[k + 1] : e;
		add_done(c, k, end - b);
		b = end;
	}
}

/* Rows and in lists of vertices b .. e-1, whose lists are in and checked. */
static void write_rows(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	struct actx *c = arg;
	const struct tsg_graph *g = c->g;
	const uint64_t *bound = c->p->bound, cap = c->p->row_cap;
	struct part_arena *rows = &c->rows[tid], *ins = &c->ins[tid];
	uint32_t *scratch = c->scratch + (uint64_t)tid * cap;
	uint32_t k = batch_of_id(c->p, b);
	uint64_t mx = 0, n_here = 0;
	for (uint64_t v = b; v < e; v++) {
		while (v >= bound[k + 1]) {
			add_done(c, k++, n_here);
			n_here = 0;
		}
		const uint64_t deg = io_graph_degree(g, v);
		if (part_arena_reserve(rows, deg < cap ? deg : cap) != 0 ||
		    part_arena_reserve(ins, deg) != 0) {
			atomic_store(&c->failed, 1);
			return;
		}
		const uint32_t r = c->rank[v];
		const uint64_t n = part_write_up(g, c->rank, v, cap, rows->cur);
		part_sort_ids(rows->cur, scratch, (size_t)n);
		c->row[r] = rows->cur;
		c->row_len[r] = (uint32_t)n;
		part_arena_take(rows, n);
		/* lists ascend by id, so the neighbours read before the batch are a prefix */
		uint32_t *q = ins->cur;
		for (uint64_t x = g->off[v]; x < g->off[v + 1] && g->adj[x] < bound[k]; x++) {
			const uint32_t w = c->rank[g->adj[x]];
			*q = w;
			q += w < r;
		}
		c->in[r] = ins->cur;
		c->in_len[r] = (uint32_t)(q - ins->cur);
		part_arena_take(ins, c->in_len[r]);
		mx = n > mx ? n : mx;
		n_here++;
	}
	add_done(c, k, n_here);
	tsg_atomic_max(&c->max_out, mx);
}

static void *consumer_main(void *arg)
{
	struct actx *c = arg;
	for (uint32_t k = 0; k < c->p->nbatches; k++) {
		pthread_mutex_lock(&c->mu);
		while (atomic_load(&c->done[k]) < batch_size(c, k) && !c->closed)
			pthread_cond_wait(&c->cv, &c->mu);
		const int ready = atomic_load(&c->done[k]) == batch_size(c, k);
		pthread_mutex_unlock(&c->mu);
		if (!ready)
			break; /* the pass ended early: its error is the one to report */
		const struct tsg_batch tb = {
			.k = k, .v_lo = c->p->bound[k], .v_hi = c->p->bound[k + 1],
			.rank = c->rank, .batch_of = c->batch_of, .row = c->row,
			.row_len = c->row_len, .in = c->in, .in_len = c->in_len,
		};
		const int rc = c->sink->batch(c->sink->ctx, &tb, &c->sink_err);
		if (rc) {
			c->sink_rc = rc;
			if (c->o->feed_stop) /* no batch will be taken: the rest is not wanted */
				c->o->feed_stop(c->o->feed_ctx);
			break;
		}
		c->handed = k + 1;
	}
	c->t_last = tsg_now();
	return NULL;
}

static void set_batch_of(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct actx *c = arg;
	for (uint64_t k = b; k < e; k++)
		for (uint64_t v = c->p->bound[k]; v < c->p->bound[k + 1]; v++)
			c->batch_of[c->rank[v]] = (uint32_t)k;
}

static void close_pass(struct actx *c)
{
	pthread_mutex_lock(&c->mu);
	c->closed = 1;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

int part_arrival_plan_new(const struct tsg_graph *g, uint32_t nbatches,
			  struct part_arrival_plan *p, struct tsg_err *err)
{
	/* by the degrees ranks come from: a crawl's bounds while it is decoded */
	const uint64_t *off = io_graph_rank_off(g), nadj = io_graph_rank_nadj(g);
	*p = (struct part_arrival_plan){ .nv = g->nv, .ne = nadj / 2,
					 .row_cap = part_orient_row_cap(nadj,
									io_graph_rank_max_degree(g)) };
	if (nbatches == 0) {
		const uint64_t k = nadj / PART_ARRIVAL_MIN_ENTRIES;
		nbatches = k < 1 ? 1 : k > PART_ARRIVAL_AUTO_BATCHES ? PART_ARRIVAL_AUTO_BATCHES : (uint32_t)k;
	}
	if (nbatches > PART_ARRIVAL_MAX_BATCHES)
		return tsg_fail(err, TSG_EUSAGE, "%u batches: at most %u", nbatches,
				PART_ARRIVAL_MAX_BATCHES);
	p->bound = malloc(((size_t)nbatches + 1) * sizeof(*p->bound));
	if (!p->bound)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	p->nbatches = nbatches;
	/* bound[k]: the first id whose list starts at or after k/K of the entries */
	p->bound[0] = 0;
	p->bound[nbatches] = g->nv;
	for (uint32_t k = 1; k < nbatches; k++) {
		const uint64_t t = (uint64_t)((unsigned __int128)nadj * k / nbatches);
		p->bound[k] = tsg_lower_bound_u64(off, p->bound[k - 1], g->nv, t);
	}
	for (uint32_t k = 0; k < nbatches; k++) {
		const uint64_t nvk = p->bound[k + 1] - p->bound[k];
		const uint64_t ne = off[p->bound[k + 1]] - off[p->bound[k]];
		p->max_vertices = nvk > p->max_vertices ? nvk : p->max_vertices;
		p->max_entries = ne > p->max_entries ? ne : p->max_entries;
	}
	return TSG_OK;
}

void part_arrival_plan_free(struct part_arrival_plan *p)
{
	free(p->bound);
	p->bound = NULL;
}

int part_arrival(const struct tsg_graph *g, const struct part_arrival_plan *p,
		 const struct part_arrival_opts *o, const struct part_arrival_sink *sink,
		 struct part_arrival_times *times, struct tsg_err *err)
{
	const uint64_t nv = g->nv, nvm = nv ? nv : 1;
	const unsigned threads = o->threads ? o->threads : 1;
	struct actx c = { .g = g, .p = p, .sink = sink, .o = o };
	struct part_arrival_times tm = { 0 };
	pthread_t consumer;
	int rc = TSG_OK, started = 0, sync_made = 0;
	uint64_t nzero = 0;
	double t = tsg_now();
	atomic_init(&c.max_out, 0);
	atomic_init(&c.failed, 0);
	c.rank = malloc(nvm * sizeof(*c.rank));
	c.batch_of = malloc(nvm * sizeof(*c.batch_of));
	c.done = calloc(p->nbatches, sizeof(*c.done));
	if (!o->lists_only) {
		c.row_len = calloc(nvm, sizeof(*c.row_len));
		c.in_len = calloc(nvm, sizeof(*c.in_len));
		c.row = calloc(nvm, sizeof(*c.row));
		c.in = calloc(nvm, sizeof(*c.in));
		c.scratch = malloc((uint64_t)threads * p->row_cap * sizeof(*c.scratch));
		c.rows = calloc(threads, sizeof(*c.rows));
		c.ins = calloc(threads, sizeof(*c.ins));
	}
	if (!c.rank || !c.batch_of || !c.done ||
	    (!o->lists_only && (!c.row_len || !c.in_len || !c.row || !c.in || !c.scratch ||
				!c.rows || !c.ins))) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory indexing %llu vertices",
			      (unsigned long long)nv);
		goto fail;
	}
	for (uint32_t k = 0; k < p->nbatches; k++)
		atomic_init(&c.done[k], 0);
	if (!o->lists_only) {
		for (unsigned i = 0; i < threads; i++)
			c.rows[i].seg_ids = c.ins[i].seg_ids =
				part_arena_seg_ids(io_graph_rank_nadj(g), threads);
		tsg_advise_huge(c.row, nvm * sizeof(*c.row));
		tsg_advise_huge(c.in, nvm * sizeof(*c.in));
	}
	if (part_rank(g, threads, c.rank, &nzero) != 0) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory ranking vertices by degree");
		goto fail;
	}
	tsg_parallel_for(threads, p->nbatches, 1, set_batch_of, &c);
	tm.rank_s = tsg_now() - t;
	if (sink->begin &&
	    (rc = sink->begin(sink->ctx, p, c.rank, c.batch_of, nzero, err)) != TSG_OK)
		goto fail;
	pthread_mutex_init(&c.mu, NULL);
	pthread_cond_init(&c.cv, NULL);
	sync_made = 1;
	if (pthread_create(&consumer, NULL, consumer_main, &c) != 0) {
		rc = tsg_fail(err, TSG_ENOMEM, "cannot start the batch thread");
		goto fail;
	}
	started = 1;
	t = tsg_now();
	const io_rows_fn fn = o->lists_only ? count_done : write_rows;
	if (o->feed)
		rc = o->feed(o->feed_ctx, fn, &c, err);
	else
		tsg_parallel_for(threads, nv, GRAIN, fn, &c);
	tm.rows_s = tsg_now() - t;
	t = tsg_now();
	close_pass(&c);
	pthread_join(consumer, NULL);
	started = 0;
	tm.tail_s = c.t_last > t ? c.t_last - t : 0;
	tm.max_out = atomic_load(&c.max_out);
	if (rc == TSG_EINTERRUPTED && c.sink_rc && o->feed_stop) {
		rc = TSG_OK; /* the feed stopped for the sink: the sink's error below */
		*err = (struct tsg_err){ 0 };
	}
	if (rc)
		goto fail;
	if (atomic_load(&c.failed)) {
		char b[32];
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory writing the oriented rows "
			      "(about %s)", tsg_fmt_bytes(g->nadj * 4, b, sizeof(b)));
		goto fail;
	}
	if (c.sink_rc) {
		rc = tsg_fail(err, c.sink_rc, "%s", c.sink_err.msg);
		goto fail;
	}
	/* the true count, now that every list is in (p->ne bounds it where
	 * the degrees came with the lists) */
	const uint64_t ne = g->nadj / 2;
	uint64_t kept = ne; /* lists only: the sink's to check */
	if (!o->lists_only)
		for (uint64_t r = kept = 0; r < nv; r++)
			kept += c.row_len[r];
	if (c.handed != p->nbatches || kept != ne)
		/* a validated graph is symmetric without loops, so half its entries point up */
		rc = tsg_fail(err, TSG_EINTERNAL, "arrival batches: %u of %u counted, %llu of %llu "
			      "edges kept", c.handed, p->nbatches, (unsigned long long)kept,
			      (unsigned long long)ne);
fail:
	if (started) {
		close_pass(&c);
		pthread_join(consumer, NULL);
	}
	if (sync_made) {
		pthread_mutex_destroy(&c.mu);
		pthread_cond_destroy(&c.cv);
	}
	for (unsigned i = 0; i < threads; i++) {
		if (c.rows)
			part_arena_free(&c.rows[i]);
		if (c.ins)
			part_arena_free(&c.ins[i]);
	}
	free(c.rows);
	free(c.ins);
	free(c.done);
	free(c.scratch);
	free(c.row);
	free(c.in);
	free(c.row_len);
	free(c.in_len);
	free(c.batch_of);
	free(c.rank);
	if (times)
		*times = tm;
	return rc;
}
