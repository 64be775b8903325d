/*
 * cpu_merge.c - CPU triangle counting by sorted-list intersection.
 *
 * Technique: degree-oriented "forward" counting (Schank and Wagner, 2005;
 * the basis of GAPBS tc.cc's OrderedCount). For each source a and each
 * b in out(a), |out(a) ∩ out(b)| is taken by a linear merge; orientation by
 * (degree, id) bounds every out-degree by O(sqrt(m)).
 * Input: a tsg_dag or a 2D unit (kernels/dag.h) with increasing lists; for
 * a unit only out(a) from mid_lo on is intersected, and only b below mid_hi
 * walked.
 * Wins: needs no scratch memory and reads both lists sequentially; best
 * when out-lists are short and similar in length.
 *
 * cpu_hash (below, same file since the two share their driver): marks out(a)
 * in a per-thread bitmap and probes it with every element of every out(b),
 * one load per probe instead of a merge. Wins on skewed graphs where some
 * out(a) is long. Scratch: nv bits per thread.
 *
 * Parallel over sources in dynamic chunks: work per source is very uneven.
 *
 * kern_cpu_count_batch (an arrival batch, dag.h) merges too: the tail of
 * out(a) after b with out(b), for each edge the batch takes. It is the
 * host's reference for the arrival layout, which the GPU runs.
 */
#include "kernels/cpu.h"
#include "kernels/cpu_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int kern_cpu_parse(const char *s, enum kern_cpu_kind *out)
{
	if (strcmp(s, "merge") == 0)
		*out = KERN_CPU_MERGE;
	else if (strcmp(s, "hash") == 0)
		*out = KERN_CPU_HASH;
	else if (strcmp(s, "wedge") == 0)
		*out = KERN_CPU_WEDGE;
	else
		return TSG_EUSAGE;
	return TSG_OK;
}

const char *kern_cpu_name(enum kern_cpu_kind k)
{
	return k == KERN_CPU_MERGE ? "cpu-merge" : k == KERN_CPU_HASH ? "cpu-hash" : "cpu-wedge";
}

/* A source's lists: out(a) restricted to the table [tb, te) that c may come
 * from, of which [tb, we) are the middle vertices b to walk. */
struct job {
	const uint64_t *off;
	const uint32_t *adj;
	const uint32_t *src; /* tsg_dag: the source ids; NULL for a unit: source i is src_lo + i */
	uint32_t src_lo, mid_lo, mid_hi;
	uint64_t **bitmaps;  /* per thread, hash kind only */
	uint64_t *pv;        /* per-vertex counts, or NULL */
	const uint32_t *gid; /* a partition's global ids (dag.h) */
	struct acc *acc;     /* per thread, with pv */
	atomic_uint_fast64_t total;
};

/*
 * Per-vertex counts credit every hit c in out(a) ∩ out(b). An atomic add to
 * pv[c] per hit is a random read-modify-write per triangle (3 times slower
 * than the plain count on R-MAT 20); instead a thread counts the hits per
 * position of out(a) and credits each c once per source, when a is done.
 */
struct acc {
	uint32_t *n;  /* hits per position of the current source's table */
	size_t cap;
};

/* A zeroed counter per entry of [tb, te), or NULL (out of memory: per-hit
 * atomics then). */
static uint32_t *acc_for(struct acc *a, size_t len)
{
	if (len > a->cap) {
		uint32_t *n = calloc(len * 2, sizeof(*n));
		if (!n)
			return NULL;
		free(a->n);
		a->n = n;
		a->cap = len * 2;
	}
	return a->n;
}

/* Credits the table's entries with their hits and clears the counters. */
static void acc_flush(const struct job *j, uint32_t *n, const uint32_t *tb, const uint32_t *te)
{
	for (const uint32_t *p = tb; p < te; p++)
		if (n[p - tb]) {
			tsg_pv_add(j->pv, j->gid, *p, n[p - tb]);
			n[p - tb] = 0;
		}
}

static uint32_t source_id(const struct job *j, uint64_t i)
{
	return j->src ? j->src[i] : j->src_lo + (uint32_t)i;
}

static void source_lists(const struct job *j, uint64_t i, const uint32_t **tb, const uint32_t **we,
			 const uint32_t **te)
{
	const uint32_t a = source_id(j, i);
	const uint32_t *b = j->adj + j->off[a], *e = j->adj + j->off[a + 1];
	if (!j->src) { /* a unit: b in [mid_lo, mid_hi), and c > b */
		b = cpu_lower_bound(b, e, j->mid_lo);
		*we = cpu_lower_bound(b, e, j->mid_hi);
	} else {
		*we = e;
	}
	*tb = b;
	*te = e;
}

static uint64_t merge_count(const uint32_t *a, const uint32_t *ae, const uint32_t *b,
			    const uint32_t *be)
{
	uint64_t c = 0;
	while (a < ae && b < be) {
		uint32_t x = *a, y = *b;
		c += x == y;
		a += x <= y;
		b += y <= x;
	}
	return c;
}

/* merge_count that also credits every common id c: to its counter in
 * acc (indexed from a0, a's table) if given, else to pv at once. The
 * caller credits a and b with the total. */
static uint64_t merge_count_pv(const uint32_t *a, const uint32_t *ae, const uint32_t *b,
			       const uint32_t *be, uint32_t *acc, const uint32_t *a0, uint64_t *pv,
			       const uint32_t *gid)
{
	uint64_t c = 0;
	while (a < ae && b < be) {
		const uint32_t x = *a, y = *b;
		if (x == y) {
			if (acc)
				acc[a - a0]++;
			else
				tsg_pv_add(pv, gid, x, 1);
			c++;
		}
		a += x <= y;
		b += y <= x;
	}
	return c;
}

static void merge_range(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	struct job *j = arg;
	uint64_t sum = 0;
	for (uint64_t i = lo; i < hi; i++) {
		const uint32_t *tb, *we, *te;
		source_lists(j, i, &tb, &we, &te);
		if (!j->pv) {
			for (const uint32_t *p = tb; p < we; p++)
				sum += merge_count(tb, te, j->adj + j->off[*p], j->adj + j->off[*p + 1]);
			continue;
		}
		uint64_t at_a = 0;
		uint32_t *acc = acc_for(&j->acc[tid], (size_t)(te - tb));
		for (const uint32_t *p = tb; p < we; p++) {
			const uint64_t n = merge_count_pv(tb, te, j->adj + j->off[*p],
							  j->adj + j->off[*p + 1], acc, tb, j->pv,
							  j->gid);
			tsg_pv_add(j->pv, j->gid, *p, n);
			at_a += n;
		}
		if (acc)
			acc_flush(j, acc, tb, te);
		tsg_pv_add(j->pv, j->gid, source_id(j, i), at_a);
		sum += at_a;
	}
	atomic_fetch_add_explicit(&j->total, sum, memory_order_relaxed);
}

static void hash_range(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	struct job *j = arg;
	uint64_t *bm = j->bitmaps[tid], sum = 0;
	for (uint64_t i = lo; i < hi; i++) {
		const uint32_t *tb, *we, *te;
		source_lists(j, i, &tb, &we, &te);
		if (tb == we)
			continue;
		for (const uint32_t *p = tb; p < te; p++)
			bm[*p >> 6] |= 1ull << (*p & 63);
		uint64_t at_a = 0;
		uint32_t *acc = j->pv ? acc_for(&j->acc[tid], (size_t)(te - tb)) : NULL;
		for (const uint32_t *p = tb; p < we; p++) {
			if (p + 4 < we) /* out(b) lies in a random row: fetch ahead */
				__builtin_prefetch(j->adj + j->off[p[4]]);
			if (!j->pv) {
				for (uint64_t k = j->off[*p]; k < j->off[*p + 1]; k++)
					sum += (bm[j->adj[k] >> 6] >> (j->adj[k] & 63)) & 1;
				continue;
			}
			uint64_t n = 0;
			for (uint64_t k = j->off[*p]; k < j->off[*p + 1]; k++) {
				const uint32_t c = j->adj[k];
				if ((bm[c >> 6] >> (c & 63)) & 1) {
					if (acc) /* its place in out(a): a short search in cache */
						acc[cpu_lower_bound(tb, te, c) - tb]++;
					else
						tsg_pv_add(j->pv, j->gid, c, 1);
					n++;
				}
			}
			tsg_pv_add(j->pv, j->gid, *p, n);
			at_a += n;
		}
		if (acc)
			acc_flush(j, acc, tb, te);
		if (j->pv) {
			tsg_pv_add(j->pv, j->gid, source_id(j, i), at_a);
			sum += at_a;
		}
		for (const uint32_t *p = tb; p < te; p++)
			bm[*p >> 6] = 0;
	}
	atomic_fetch_add_explicit(&j->total, sum, memory_order_relaxed);
}

static int run(struct job *j, const struct tsg_unit *u, uint64_t nsrc, uint64_t nv,
	       enum kern_cpu_kind kind, unsigned threads, uint64_t *count, enum kern_cpu_kind *ran,
	       struct tsg_err *err)
{
	int rc = TSG_OK;
	if (kind == KERN_CPU_WEDGE && (!u || j->pv))
		kind = KERN_CPU_HASH; /* see cpu.h */
	if (ran)
		*ran = kind;
	atomic_init(&j->total, 0);
	if (threads == 0)
		threads = 1;
	if (kind != KERN_CPU_MERGE) {
		j->bitmaps = calloc(threads, sizeof(*j->bitmaps));
		if (!j->bitmaps) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory for hash kernel scratch");
			goto done;
		}
		for (unsigned t = 0; t < threads; t++)
			if (!(j->bitmaps[t] = calloc(nv / 64 + 1, 8))) {
				rc = tsg_fail(err, TSG_ENOMEM, "out of memory for hash kernel scratch "
					      "(%u threads x %llu bits)", threads, (unsigned long long)nv);
				goto done;
			}
	}
	if (kind == KERN_CPU_WEDGE && u) {
		rc = cpu_wedge_count_unit(u, threads, j->bitmaps, count, err);
		goto done;
	}
	if (j->pv && !(j->acc = calloc(threads, sizeof(*j->acc)))) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for per-vertex counters");
		goto done;
	}
	tsg_parallel_for(threads, nsrc, 256, kind == KERN_CPU_MERGE ? merge_range : hash_range, j);
	*count = atomic_load(&j->total);
done:
	if (j->bitmaps)
		for (unsigned t = 0; t < threads; t++)
			free(j->bitmaps[t]);
	free(j->bitmaps);
	if (j->acc)
		for (unsigned t = 0; t < threads; t++)
			free(j->acc[t].n);
	free(j->acc);
	return rc;
}

int kern_cpu_count(const struct tsg_dag *d, enum kern_cpu_kind kind, unsigned threads,
		   uint64_t *pv, uint64_t *count, enum kern_cpu_kind *ran, struct tsg_err *err)
{
	/* a partition's ids are not ranks: the wedge kernel's tails need them to be */
	struct job j = { .off = d->off, .adj = d->adj, .src = d->src, .pv = pv, .gid = d->gid };
	return run(&j, NULL, d->nsrc, d->nv, kind, threads, count, ran, err);
}

int kern_cpu_count_unit(const struct tsg_unit *u, enum kern_cpu_kind kind, unsigned threads,
			uint64_t *pv, uint64_t *count, enum kern_cpu_kind *ran,
			struct tsg_err *err)
{
	struct job j = { .off = u->off, .adj = u->adj, .src_lo = u->src_lo, .mid_lo = u->mid_lo,
			 .mid_hi = u->mid_hi, .pv = pv };
	return run(&j, u, u->src_hi - u->src_lo, u->nv, kind, threads, count, ran, err);
}

struct bjob {
	const struct tsg_batch *b;
	uint64_t *pv;
	atomic_uint_fast64_t total;
};

/* Triangles over edge a -> b: the tail of out(a) after b against out(b). */
static uint64_t batch_edge(const struct bjob *j, uint32_t a, uint32_t b, const uint32_t *tail,
			   const uint32_t *tail_end, const uint32_t *rb, const uint32_t *re)
{
	if (!j->pv)
		return merge_count(tail, tail_end, rb, re);
	const uint64_t n = merge_count_pv(tail, tail_end, rb, re, NULL, NULL, j->pv, NULL);
	tsg_pv_add(j->pv, NULL, a, n);
	tsg_pv_add(j->pv, NULL, b, n);
	return n;
}

/* An empty row may be NULL, and NULL + 0 is undefined in C. */
static inline const uint32_t *row_end(const uint32_t *row, uint32_t len)
{
	return len ? row + len : row;
}

/* The edges whose later-read endpoint is one of vertices lo .. hi-1 of the batch. */
static void batch_range(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	(void)tid;
	const struct bjob *j = arg;
	const struct tsg_batch *t = j->b;
	uint64_t sum = 0;
	for (uint64_t v = t->v_lo + lo; v < t->v_lo + hi; v++) {
		const uint32_t r = t->rank[v];
		const uint32_t *row = t->row[r], *end = row_end(row, t->row_len[r]);
		for (const uint32_t *p = row; p < end; p++) /* a = r */
			if (t->batch_of[*p] <= t->k)
				sum += batch_edge(j, r, *p, p + 1, end, t->row[*p],
						  row_end(t->row[*p], t->row_len[*p]));
		for (uint32_t i = 0; i < t->in_len[r]; i++) { /* b = r */
			const uint32_t a = t->in[r][i];
			const uint32_t *ar = t->row[a], *ae = row_end(ar, t->row_len[a]);
			const uint32_t *p = cpu_lower_bound(ar, ae, r);
			if (p < ae && *p == r) /* always, in a symmetric graph */
				sum += batch_edge(j, a, r, p + 1, ae, row, end);
		}
	}
	atomic_fetch_add_explicit((atomic_uint_fast64_t *)&j->total, sum, memory_order_relaxed);
}

int kern_cpu_count_batch(const struct tsg_batch *b, unsigned threads, uint64_t *pv,
			 uint64_t *count)
{
	struct bjob j = { .b = b, .pv = pv };
	atomic_init(&j.total, 0);
	tsg_parallel_for(threads ? threads : 1, b->v_hi - b->v_lo, 256, batch_range, &j);
	*count = atomic_load(&j.total);
	return TSG_OK;
}
