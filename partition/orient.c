/*
 * orient.c - relabel by rank and keep the upward half of every list.
 *
 * Rank comes from a counting sort by degree (part_rank, rows.h). Lists are then
 * written by parallel passes over the graph in id order, so the graph's
 * lists are read sequentially and only the rank lookups are random; each
 * written row is sorted, since ranks do not follow ids. TWO_PASS counts,
 * then fills rows in place; ONE_PASS gathers sorted rows into per-thread
 * segments and then places them (orient.h). The lookups, one per list
 * entry and pass, are what the passes cost on a big graph, so ONE_PASS
 * does them once (R-MAT 26, 16 cores: 2.86 s against 3.83 s for the whole
 * orientation; bench/RESULTS.md). The big arrays are advised onto huge pages
 * (tsg_advise_huge): their page faults otherwise cost as much as the
 * passes themselves. Out-degrees are at most sqrt(2m), so rows are short
 * and the sorts cheap.
 */
#include "partition/orient.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "partition/rows.h"
#include "base/util.h"

enum { GRAIN = 4096 };

struct octx {
	const struct tsg_graph *g;
	uint32_t *rank;
	struct part_odag *d;
	atomic_uint_fast64_t max_out;
	uint64_t *cnt;     /* out-degree of rank r at [r + 1] */
	uint32_t *scratch; /* per thread: row_cap ids for radix_sort */
	uint64_t row_cap;  /* no row is longer (sort scratch per thread) */
	/* ONE_PASS */
	struct part_arena *segs; /* one per thread */
	uint32_t **loc;        /* the row of rank r, in a segment */
	atomic_int failed;     /* a segment could not be allocated */
};

static void count_up(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct octx *c = arg;
	const struct tsg_graph *g = c->g;
	uint64_t mx = 0;
	for (uint64_t v = b; v < e; v++) {
		const uint32_t r = c->rank[v];
		uint64_t n = 0;
		for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++)
			n += c->rank[g->adj[x]] > r;
		c->cnt[r + 1] = n;
		mx = n > mx ? n : mx;
	}
	tsg_atomic_max(&c->max_out, mx);
}

static void fill_up(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	struct octx *c = arg;
	uint32_t *scratch = c->scratch + (uint64_t)tid * c->row_cap;
	const struct tsg_graph *g = c->g;
	for (uint64_t v = b; v < e; v++) {
		const uint32_t r = c->rank[v];
		uint32_t *row = c->d->adj + c->d->off[r], *p = row;
		for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++) {
			const uint32_t w = c->rank[g->adj[x]];
			if (w > r)
				*p++ = w;
		}
		part_sort_ids(row, scratch, (size_t)(p - row));
	}
}

/* ONE_PASS: each vertex's upward neighbours, by rank, sorted, appended to
 * the thread's segment; where the row lies goes to loc[rank]. A row has at
 * most min(degree, row_cap) ids (orient.h), so that much room is made first;
 * a vertex above row_cap (an invalid, asymmetric graph) has its writes
 * bounded, and the edge total check after the pass reports it. */
static void gather_up(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	struct octx *c = arg;
	struct part_arena *l = &c->segs[tid];
	uint32_t *scratch = c->scratch + (uint64_t)tid * c->row_cap;
	uint64_t mx = 0;
	for (uint64_t v = b; v < e; v++) {
		const uint64_t deg = io_graph_degree(c->g, v);
		if (part_arena_reserve(l, deg < c->row_cap ? deg : c->row_cap) != 0) {
			atomic_store(&c->failed, 1);
			return;
		}
		const uint32_t r = c->rank[v];
		const uint64_t n = part_write_up(c->g, c->rank, v, c->row_cap, l->cur);
		part_sort_ids(l->cur, scratch, (size_t)n);
		c->loc[r] = l->cur;
		c->cnt[r + 1] = n;
		part_arena_take(l, n);
		mx = n > mx ? n : mx;
	}
	tsg_atomic_max(&c->max_out, mx);
}

static void place_rows(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct octx *c = arg;
	const struct part_odag *d = c->d;
	for (uint64_t r = b; r < e; r++) {
		const uint64_t n = d->off[r + 1] - d->off[r];
		if (n)
			memcpy(d->adj + d->off[r], c->loc[r], n * sizeof(*d->adj));
	}
}


/* The oriented graph's block is allocated on a thread of its own while the
 * vertices are ranked and their rows gathered: pinning gigabytes
 * (cudaMallocHost) costs about as much as those passes, and needs none of
 * their results. */
struct alloc_job {
	part_alloc_fn alloc;
	void *ctx;
	uint64_t bytes;
	uint8_t *mem;
};

static void *alloc_main(void *arg)
{
	struct alloc_job *j = arg;
	j->mem = j->alloc(j->ctx, j->bytes);
	return NULL;
}

/* k upward neighbours all have degree >= k, so k * k <= nadj; never more
 * than the largest degree either. */
uint64_t part_orient_row_cap(uint64_t nadj, uint64_t max_degree)
{
	uint64_t k = 0;
	for (uint64_t bit = 1ull << 31; bit; bit >>= 1)
		if ((k | bit) * (k | bit) <= nadj)
			k |= bit;
	return (k < max_degree ? k : max_degree) + 1;
}

int part_orient(const struct tsg_graph *g, const struct part_orient_opts *o,
		struct part_odag *out, struct part_orient_times *times, struct tsg_err *err)
{
	const uint64_t nv = g->nv, ne = g->nadj / 2;
	const unsigned threads = o->threads ? o->threads : 1;
	const int one_pass = o->way != PART_ORIENT_TWO_PASS;
	uint64_t *cnt = malloc((nv + 1) * sizeof(*cnt));
	uint32_t **loc = one_pass ? malloc((nv ? nv : 1) * sizeof(*loc)) : NULL;
	uint32_t *rank = malloc((nv ? nv : 1) * sizeof(*rank));
	struct octx c = { .g = g, .rank = rank, .d = out, .row_cap = part_orient_row_cap(g->nadj, g->max_degree), .cnt = cnt,
			  .loc = loc };
	struct alloc_job job = { .alloc = o->alloc, .ctx = o->alloc_ctx,
				 .bytes = part_odag_bytes(nv, ne) };
	struct part_orient_times tm = { 0 };
	pthread_t th;
	int rc = TSG_OK, threaded = 0;
	char b[32];
	double t = tsg_now();
	*out = (struct part_odag){ .nv = (uint32_t)nv, .ne = ne };
	atomic_init(&c.max_out, 0);
	atomic_init(&c.failed, 0);
	c.scratch = malloc((uint64_t)threads * c.row_cap * sizeof(*c.scratch));
	if (!cnt || (one_pass && !loc) || !rank || !c.scratch) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory ranking %llu vertices",
			      (unsigned long long)nv);
		goto fail;
	}
	threaded = pthread_create(&th, NULL, alloc_main, &job) == 0;
	tsg_advise_huge(cnt, (nv + 1) * sizeof(*cnt));
	if (loc)
		tsg_advise_huge(loc, nv * sizeof(*loc));
	tsg_advise_huge(rank, nv * sizeof(*rank));
	if (part_rank(g, threads, rank, NULL) != 0) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory ranking vertices by degree");
		goto fail;
	}
	tm.rank_s = tsg_now() - t;
	t = tsg_now();
	if (one_pass) {
		c.segs = calloc(threads, sizeof(*c.segs));
		if (!c.segs) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
			goto fail;
		}
		for (unsigned i = 0; i < threads; i++)
			c.segs[i].seg_ids = part_arena_seg_ids(io_graph_rank_nadj(g), threads);
		if (o->feed)
			rc = o->feed(o->feed_ctx, gather_up, &c, err);
		else
			tsg_parallel_for(threads, nv, GRAIN, gather_up, &c);
		if (rc)
			goto fail;
		if (atomic_load(&c.failed)) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory gathering the oriented rows "
				      "(about %s)", tsg_fmt_bytes(ne * 4, b, sizeof(b)));
			goto fail;
		}
	} else if (o->feed) {
		rc = o->feed(o->feed_ctx, count_up, &c, err);
		if (rc)
			goto fail;
	} else {
		tsg_parallel_for(threads, nv, GRAIN, count_up, &c);
	}
	tm.rows_s = tsg_now() - t;
	t = tsg_now();
	if (threaded)
		pthread_join(th, NULL);
	else
		job.mem = o->alloc(o->alloc_ctx, job.bytes);
	threaded = 0;
	tm.alloc_wait_s = tsg_now() - t;
	if (!job.mem) {
		rc = tsg_fail(err, TSG_ENOMEM, "cannot allocate %s for the oriented graph",
			      tsg_fmt_bytes(job.bytes, b, sizeof(b)));
		goto fail;
	}
	tsg_advise_huge(job.mem, job.bytes); /* written once, row by row in rank order */
	part_odag_place(out, job.mem, nv);
	out->off[0] = 0;
	for (uint64_t r = 0; r < nv; r++)
		out->off[r + 1] = out->off[r] + cnt[r + 1];
	if (out->off[nv] != ne) {
		/* a validated graph is symmetric without loops, so half its entries point up */
		rc = tsg_fail(err, TSG_EINTERNAL, "orientation kept %llu of %llu edges",
			      (unsigned long long)out->off[nv], (unsigned long long)ne);
		goto fail;
	}
	out->max_out = (uint32_t)atomic_load(&c.max_out);
	t = tsg_now();
	if (one_pass)
		tsg_parallel_for(threads, nv, GRAIN * 4, place_rows, &c);
	else
		tsg_parallel_for(threads, nv, GRAIN, fill_up, &c);
	if (one_pass)
		tm.place_s = tsg_now() - t;
	else
		tm.rows_s += tsg_now() - t;
fail:
	if (threaded) {
		pthread_join(th, NULL);
		out->off = (uint64_t *)job.mem;
	}
	if (c.segs)
		for (unsigned i = 0; i < threads; i++)
			part_arena_free(&c.segs[i]);
	free(c.segs);
	free(c.scratch);
	free(cnt);
	free(loc);
	free(rank);
	if (times)
		*times = tm;
	return rc; /* out->off, if set, is the caller's block to free */
}
