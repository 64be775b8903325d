/*
 * orient.c - relabel by rank and keep the upward half of every list.
 *
 * Rank comes from a counting sort by degree (rank_vertices). Lists are then
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
#include "orient.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum { GRAIN = 4096, INSERTION_MAX = 24, RADIX_MIN = 32 };

#define SEG_IDS (16ull << 20) /* ONE_PASS segment: 64 MiB of ids */

/* A thread's ONE_PASS segments; the last one is being filled. */
struct seg_list {
	uint32_t **segs;
	size_t n, cap;
	uint32_t *cur;     /* its next free id */
	uint64_t left;     /* ids free after cur */
};

struct octx {
	const struct tsg_graph *g;
	uint32_t *rank;
	struct part_odag *d;
	atomic_uint_fast64_t max_out;
	uint64_t *cnt;     /* out-degree of rank r at [r + 1] */
	uint32_t *scratch; /* per thread: row_cap ids for radix_sort */
	uint64_t row_cap;  /* no row is longer (sort scratch per thread) */
	/* ONE_PASS */
	struct seg_list *segs; /* one per thread */
	uint64_t seg_ids;
	uint32_t **loc;        /* the row of rank r, in a segment */
	atomic_int failed;     /* a segment could not be allocated */
};

static void insertion_sort(uint32_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const uint32_t x = a[i];
		size_t j = i;
		for (; j > 0 && a[j - 1] > x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* Quicksort with a median-of-three pivot; recursion only on the smaller
 * side, so the stack stays O(log n). */
static void sort_u32(uint32_t *a, size_t n)
{
	while (n > INSERTION_MAX) {
		uint32_t x = a[0], y = a[n / 2], z = a[n - 1];
		const uint32_t pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
		size_t i = 0, j = n - 1;
		for (;;) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i >= j)
				break;
			const uint32_t t = a[i];
			a[i++] = a[j];
			a[j--] = t;
		}
		const size_t left = j + 1;
		if (left < n - left) {
			sort_u32(a, left);
			a += left;
			n -= left;
		} else {
			sort_u32(a + left, n - left);
			n = left;
		}
	}
	insertion_sort(a, n);
}

/* LSD radix sort, a byte at a time, skipping bytes all ids share (the high
 * ones, mostly). It has no data-dependent branches: for rows of 32 ids or
 * more it cut the row sorts of R-MAT 22 from 0.82 s to about 0.22 s (2
 * threads), the orientation from 1.43 s to 0.83 s. */
static void radix_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
	uint32_t cnt[4][256] = { { 0 } };
	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < 4; d++)
			cnt[d][a[i] >> (8 * d) & 255]++;
	uint32_t *src = a, *dst = tmp;
	for (int d = 0; d < 4; d++) {
		uint32_t *c = cnt[d];
		if (c[src[0] >> (8 * d) & 255] == n)
			continue; /* one bucket: this byte leaves the order as it is */
		uint32_t sum = 0;
		for (int k = 0; k < 256; k++) {
			const uint32_t x = c[k];
			c[k] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[src[i] >> (8 * d) & 255]++] = src[i];
		uint32_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/* Rank: a counting sort by degree, stable in id order, which is (degree,
 * id) order. Degrees below DEG_EXACT are counted exactly, per thread over a
 * contiguous block of ids; the few vertices above (hubs) take the last
 * ranks and are sorted by (degree, id) among themselves. Two passes over
 * the offsets and a cache-resident histogram per thread: at R-MAT 27 the
 * radix sort of (degree, id) keys it replaces took 1.7-2.3 s of 16 cores. */
enum { DEG_EXACT = 1 << 16 };

struct rctx {
	const struct tsg_graph *g;
	uint32_t *rank;
	uint64_t nblocks;
	uint64_t *hist;    /* nblocks x DEG_EXACT: counts, then each block's next rank */
	int assign;        /* rank_pass: 0 counts, 1 assigns */
	uint64_t first;    /* the top bucket's first rank */
	uint64_t *hubs;    /* its (degree, id) keys, nv - first of them */
};

static uint64_t block_lo(const struct rctx *c, uint64_t b) { return c->g->nv * b / c->nblocks; }

/* Over whole blocks of ids: first (assign 0) each block's degree counts,
 * then (assign 1) the ranks, from the starts the prefix sums left in hist. */
static void rank_pass(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct rctx *c = arg;
	const uint64_t *off = c->g->off;
	for (uint64_t k = b; k < e; k++) {
		uint64_t *h = c->hist + k * DEG_EXACT;
		for (uint64_t v = block_lo(c, k); v < block_lo(c, k + 1); v++) {
			const uint64_t d = off[v + 1] - off[v];
			if (!c->assign)
				h[d < DEG_EXACT ? d : DEG_EXACT - 1]++;
			else if (d < DEG_EXACT - 1)
				c->rank[v] = (uint32_t)h[d]++;
			else /* a hub: its key goes to the top bucket's slot, sorted after */
				c->hubs[h[DEG_EXACT - 1]++ - c->first] = d << 32 | v;
		}
	}
}

static int cmp_u64(const void *x, const void *y)
{
	const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

static int rank_vertices(const struct tsg_graph *g, unsigned threads, uint32_t *rank)
{
	const uint64_t nv = g->nv;
	struct rctx c = { .g = g, .rank = rank, .nblocks = threads };
	c.hist = calloc(c.nblocks * DEG_EXACT, sizeof(*c.hist));
	if (!c.hist)
		return -1;
	tsg_parallel_for(threads, c.nblocks, 1, rank_pass, &c);
	uint64_t next = 0;
	for (uint64_t d = 0; d < DEG_EXACT; d++)
		for (uint64_t k = 0; k < c.nblocks; k++) {
			const uint64_t n = c.hist[k * DEG_EXACT + d];
			c.hist[k * DEG_EXACT + d] = next;
			next += n;
		}
	/* the top bucket, from its first rank on: hubs, ranked by (degree, id) */
	c.first = c.hist[DEG_EXACT - 1];
	const uint64_t nh = nv - c.first;
	c.hubs = malloc((nh ? nh : 1) * sizeof(*c.hubs));
	if (c.hubs) {
		c.assign = 1;
		tsg_parallel_for(threads, c.nblocks, 1, rank_pass, &c);
	}
	free(c.hist);
	if (!c.hubs)
		return -1;
	qsort(c.hubs, nh, sizeof(*c.hubs), cmp_u64);
	for (uint64_t i = 0; i < nh; i++)
		rank[(uint32_t)c.hubs[i]] = (uint32_t)(c.first + i);
	free(c.hubs);
	return 0;
}

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

static void sort_row(uint32_t *row, uint32_t *scratch, size_t n)
{
	if (n >= RADIX_MIN)
		radix_sort(row, scratch, n);
	else
		sort_u32(row, n);
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
		sort_row(row, scratch, (size_t)(p - row));
	}
}

static int seg_push(struct seg_list *l, uint64_t ids)
{
	if (l->n == l->cap) {
		const size_t cap = l->cap ? 2 * l->cap : 16;
		uint32_t **s = realloc(l->segs, cap * sizeof(*s));
		if (!s)
			return -1;
		l->segs = s;
		l->cap = cap;
	}
	uint32_t *m = malloc(ids * sizeof(*m));
	if (!m)
		return -1;
	tsg_advise_huge(m, ids * sizeof(*m));
	l->segs[l->n++] = m;
	l->cur = m;
	l->left = ids;
	return 0;
}

/* ONE_PASS: each vertex's upward neighbours, by rank, sorted, appended to
 * the thread's segment; where the row lies goes to loc[rank]. A row has at
 * most min(degree, row_cap) ids (orient.h), so that much room is made first;
 * a vertex above row_cap (an invalid, asymmetric graph) has its writes
 * bounded, and the edge total check after the pass reports it. */
static void gather_up(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	struct octx *c = arg;
	struct seg_list *l = &c->segs[tid];
	uint32_t *scratch = c->scratch + (uint64_t)tid * c->row_cap;
	const struct tsg_graph *g = c->g;
	uint64_t mx = 0;
	for (uint64_t v = b; v < e; v++) {
		const uint64_t deg = g->off[v + 1] - g->off[v];
		const uint64_t room = deg < c->row_cap ? deg : c->row_cap;
		if (room > l->left && seg_push(l, c->seg_ids) != 0) {
			atomic_store(&c->failed, 1);
			return;
		}
		const uint32_t r = c->rank[v];
		uint32_t *row = l->cur, *p = row;
		if (deg <= c->row_cap) {
			for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++) {
				const uint32_t w = c->rank[g->adj[x]];
				*p = w;
				p += w > r; /* no branch to mispredict */
			}
		} else {
			for (uint64_t x = g->off[v]; x < g->off[v + 1] && p < row + room; x++) {
				const uint32_t w = c->rank[g->adj[x]];
				if (w > r)
					*p++ = w;
			}
		}
		const uint64_t n = (uint64_t)(p - row);
		sort_row(row, scratch, (size_t)n);
		c->loc[r] = row;
		c->cnt[r + 1] = n;
		l->cur = p;
		l->left -= n;
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
	if (rank_vertices(g, threads, rank) != 0) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory ranking vertices by degree");
		goto fail;
	}
	tm.rank_s = tsg_now() - t;
	t = tsg_now();
	if (one_pass) {
		c.seg_ids = SEG_IDS > c.row_cap ? SEG_IDS : c.row_cap;
		c.segs = calloc(threads, sizeof(*c.segs));
		if (!c.segs) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
			goto fail;
		}
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
	out->off = (uint64_t *)job.mem;
	out->adj = (uint32_t *)(job.mem + (nv + 1) * 8);
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
		for (unsigned i = 0; i < threads; i++) {
			for (size_t k = 0; k < c.segs[i].n; k++)
				free(c.segs[i].segs[k]);
			free(c.segs[i].segs);
		}
	free(c.segs);
	free(c.scratch);
	free(cnt);
	free(loc);
	free(rank);
	if (times)
		*times = tm;
	return rc; /* out->off, if set, is the caller's block to free */
}
