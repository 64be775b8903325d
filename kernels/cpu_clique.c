/*
 * cpu_clique.c - k-clique counting on the host, by orientation or pivoting
 * (contract and methods: clique.h).
 *
 * Technique: for each source a, out(a)'s induced subgraph is written as
 * binary-encoded rows (Almasri et al., ICS 2022, section 4.3): row i is a
 * bitset over the positions of out(a), bit j set where out(a)[i] points to
 * out(a)[j] (orientation) or where the two are adjacent (pivoting). Every
 * intersection below is then a word AND and a popcount.
 *  - Orientation: the candidates of a level are a bitset; taking vertex j
 *    leaves cand & row j (the later vertices adjacent to all so far); the
 *    last level is a popcount, the one before a sum of popcounts.
 *  - Pivoting (Jain and Seshadhri 2020): at a node with candidates P, the
 *    vertex u of P with the most neighbours in P is the pivot; children are
 *    u itself (as a pivot, with P & row u) and each v of P not adjacent to u
 *    (held, with P & row v, P losing the v's already taken). A leaf with h
 *    held vertices and p pivots holds C(p, j - h) cliques of j vertices.
 * Input: a DAG whose lists increase (any order of ids: only adjacency is
 * read). Rows take |out(a)|^2 / 8 bytes per thread for the longest list
 * a thread meets; degree orientation bounds it by sqrt(2m).
 * When it wins: the CPU backend and the reference the GPU kernels are
 * checked against; which method wins depends on the graph's cliques, so
 * auto times both on a sample (kern_cpu_clique_pick); pivoting always for
 * --k-all (bench/RESULTS.md).
 */
#include "kernels/clique.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const method_names[] = { "auto", "orient", "pivot" };
static const char *const scheme_names[] = { "auto", "vertex", "edge" };

int kern_clique_method_parse(const char *s, enum kern_clique_method *out)
{
	const int i = tsg_name_index(method_names, KERN_CLIQUE_PIVOT + 1, s);
	if (i >= 0)
		*out = (enum kern_clique_method)i;
	return i < 0 ? -1 : 0;
}

const char *kern_clique_method_name(enum kern_clique_method m)
{
	return method_names[m];
}

int kern_clique_scheme_parse(const char *s, enum kern_clique_scheme *out)
{
	const int i = tsg_name_index(scheme_names, KERN_CLIQUE_EDGE + 1, s);
	if (i >= 0)
		*out = (enum kern_clique_scheme)i;
	return i < 0 ? -1 : 0;
}

const char *kern_clique_scheme_name(enum kern_clique_scheme s)
{
	return scheme_names[s];
}

/* ---- one thread's work and scratch ---- */

struct cq_run {
	const struct tsg_dag *d;
	unsigned k;
	int all;
	enum kern_clique_method m;
	uint32_t nsz;             /* counts per thread: 1, or max_out + 1 with all */
	uint64_t *counts;         /* threads x nsz */
	struct cq_ws *ws;         /* threads */
	atomic_int failed;        /* TSG_EOVERFLOW, TSG_ENOMEM or CQ_LATE */
};

enum { CQ_LATE = -1 }; /* a timed run passed its deadline */

struct cq_ws {
	uint64_t *rows, *stack;   /* rows: d x w words; stack: levels of candidates */
	size_t rows_cap, stack_cap; /* in words */
	uint32_t maxsize;         /* all: largest clique size met */
	int ovf;
	double deadline;          /* the run's (0: none), checked inside a source's tree: */
	int late;                 /* one source's tree can take seconds */
};

/* Whether a timed run has passed its deadline (sticky). */
static inline int cq_late(struct cq_ws *ws)
{
	if (ws->deadline > 0 && !ws->late && tsg_now() > ws->deadline)
		ws->late = 1;
	return ws->late;
}

/* Grows a buffer to n words (contents lost); 0 on failure. */
static int cq_grow(uint64_t **p, size_t *cap, size_t n)
{
	if (n <= *cap)
		return 1;
	free(*p);
	*p = malloc(n * sizeof(**p));
	*cap = *p ? n : 0;
	return *p != NULL;
}

static inline uint64_t cq_popcount(const uint64_t *x, size_t w)
{
	uint64_t n = 0;
	for (size_t i = 0; i < w; i++)
		n += (uint64_t)__builtin_popcountll(x[i]);
	return n;
}

/* out(a)'s induced subgraph as bit rows: directed (j where L[i] -> L[j])
 * or, sym, both ways. L and every list increase, so each row is a merge,
 * or binary searches where out(L[i]) is much longer than L. */
static void cq_rows(const struct tsg_dag *d, const uint32_t *L, uint32_t n, size_t w, int sym,
		    uint64_t *rows)
{
	memset(rows, 0, (size_t)n * w * sizeof(*rows));
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t *o = d->adj + d->off[L[i]], *oe = d->adj + d->off[L[i] + 1];
		if ((uint64_t)(oe - o) > 16 * (uint64_t)n) {
			const uint64_t no = (uint64_t)(oe - o);
			for (uint32_t j = 0; j < n; j++) {
				const uint64_t at = tsg_lower_bound_u32(o, 0, no, L[j]);
				if (at < no && o[at] == L[j]) {
					rows[i * w + j / 64] |= 1ull << (j % 64);
					if (sym)
						rows[(size_t)j * w + i / 64] |= 1ull << (i % 64);
				}
			}
			continue;
		}
		for (uint32_t j = 0; o < oe && j < n;) {
			if (*o < L[j]) {
				o++;
			} else if (*o > L[j]) {
				j++;
			} else {
				rows[i * w + j / 64] |= 1ull << (j % 64);
				if (sym)
					rows[(size_t)j * w + i / 64] |= 1ull << (i % 64);
				o++;
				j++;
			}
		}
	}
}

/* Orientation: the cliques of `need` more vertices within cand. */
static uint64_t cq_orient(const uint64_t *rows, size_t w, const uint64_t *cand, unsigned need,
			  uint64_t *next, struct cq_ws *ws)
{
	uint64_t n = 0;
	int *ovf = &ws->ovf;
	for (size_t x = 0; x < w; x++)
		for (uint64_t bits = cand[x]; bits; bits &= bits - 1) {
			if (need >= 3 && cq_late(ws))
				return n;
			const size_t j = x * 64 + (size_t)__builtin_ctzll(bits);
			const uint64_t *r = rows + j * w;
			uint64_t c = 0;
			for (size_t y = 0; y < w; y++) {
				next[y] = cand[y] & r[y];
				c += (uint64_t)__builtin_popcountll(next[y]);
			}
			if (need == 2)
				kern_clique_add(&n, c, ovf);
			else if (c >= need - 1)
				kern_clique_add(&n, cq_orient(rows, w, next, need - 1, next + w, ws), ovf);
		}
	return n;
}

struct cq_tree {
	const uint64_t *sym;
	size_t w;
	unsigned k;
	int all;
	uint64_t *counts;
	struct cq_ws *ws;
};

static void cq_leaf(const struct cq_tree *t, uint32_t h, uint32_t p)
{
	int *ovf = &t->ws->ovf;
	if (!t->all) {
		if (h <= t->k && t->k <= h + p)
			kern_clique_add(&t->counts[0], kern_clique_binom(p, t->k - h, ovf), ovf);
		return;
	}
	for (uint32_t j = h; j <= h + p; j++)
		kern_clique_add(&t->counts[j - 1], kern_clique_binom(p, j - h, ovf), ovf);
	if (h + p > t->ws->maxsize)
		t->ws->maxsize = h + p;
}

/* Pivoting: the subtree of candidates P (modified), h held, p pivots;
 * `stack` has room for two sets a level below. */
static void cq_pivot(const struct cq_tree *t, uint64_t *P, uint32_t h, uint32_t p,
		     uint64_t *stack)
{
	const size_t w = t->w;
	if (cq_late(t->ws))
		return;
	const uint64_t size = cq_popcount(P, w);
	if (!t->all) {
		if (h == t->k) { /* one leaf below keeps exactly these h: the pivots' path */
			kern_clique_add(&t->counts[0], 1, &t->ws->ovf);
			return;
		}
		if (h + p + size < t->k)
			return;
	}
	if (size == 0) {
		cq_leaf(t, h, p);
		return;
	}
	size_t u = 0;
	uint64_t best = 0;
	int have = 0;
	for (size_t x = 0; x < w; x++)
		for (uint64_t bits = P[x]; bits; bits &= bits - 1) {
			const size_t v = x * 64 + (size_t)__builtin_ctzll(bits);
			const uint64_t *r = t->sym + v * w;
			uint64_t c = 0;
			for (size_t y = 0; y < w; y++)
				c += (uint64_t)__builtin_popcountll(P[y] & r[y]);
			if (!have || c > best) {
				best = c;
				u = v;
				have = 1;
			}
		}
	uint64_t *child = stack, *todo = stack + w;
	const uint64_t *ru = t->sym + u * w;
	for (size_t y = 0; y < w; y++)
		todo[y] = P[y] & ~ru[y]; /* u itself first, then P's non-neighbours of u */
	todo[u / 64] &= ~(1ull << (u % 64));
	for (size_t y = 0; y < w; y++)
		child[y] = P[y] & ru[y];
	cq_pivot(t, child, h, p + 1, stack + 2 * w);
	P[u / 64] &= ~(1ull << (u % 64));
	for (size_t x = 0; x < w; x++)
		for (uint64_t bits = todo[x]; bits; bits &= bits - 1) {
			const size_t v = x * 64 + (size_t)__builtin_ctzll(bits);
			const uint64_t *r = t->sym + v * w;
			for (size_t y = 0; y < w; y++)
				child[y] = P[y] & r[y];
			cq_pivot(t, child, h + 1, p, stack + 2 * w);
			P[v / 64] &= ~(1ull << (v % 64));
		}
}

static void cq_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	struct cq_run *c = ctx;
	struct cq_ws *ws = &c->ws[tid];
	uint64_t *counts = c->counts + (size_t)tid * c->nsz;
	const struct tsg_dag *d = c->d;
	for (uint64_t x = b; x < e && !atomic_load_explicit(&c->failed, memory_order_relaxed); x++) {
		if (cq_late(ws)) {
			atomic_store(&c->failed, CQ_LATE);
			return;
		}
		const uint32_t a = d->src[x];
		const uint32_t n = (uint32_t)(d->off[a + 1] - d->off[a]);
		if (!c->all && n < c->k - 1)
			continue; /* too few neighbours for a K-clique */
		const size_t w = ((size_t)n + 63) / 64;
		const size_t levels = c->m == KERN_CLIQUE_PIVOT ? 2 * ((size_t)n + 2) : c->k + 1;
		if (!cq_grow(&ws->rows, &ws->rows_cap, (size_t)n * w + 1) ||
		    !cq_grow(&ws->stack, &ws->stack_cap, levels * w + 1)) {
			atomic_store(&c->failed, TSG_ENOMEM);
			return;
		}
		const int sym = c->m == KERN_CLIQUE_PIVOT;
		cq_rows(d, d->adj + d->off[a], n, w, sym, ws->rows);
		uint64_t *top = ws->stack;
		for (size_t y = 0; y < w; y++)
			top[y] = ~0ull;
		if (n % 64)
			top[w - 1] = (1ull << (n % 64)) - 1;
		if (sym) {
			const struct cq_tree t = { ws->rows, w, c->k, c->all, counts, ws };
			cq_pivot(&t, top, 1, 0, top + w);
		} else if (c->k == 3) {
			kern_clique_add(&counts[0], cq_popcount(ws->rows, (size_t)n * w), &ws->ovf);
		} else {
			kern_clique_add(&counts[0], cq_orient(ws->rows, w, top, c->k - 1, top + w, ws),
			       &ws->ovf);
		}
		if (ws->late) {
			atomic_store(&c->failed, CQ_LATE);
			return;
		}
		if (ws->ovf) {
			atomic_store(&c->failed, TSG_EOVERFLOW);
			return;
		}
	}
}

/* kern_cpu_clique with a deadline (0: none): CQ_LATE where it passed. */
static int cq_count(const struct tsg_dag *d, unsigned k, int all, enum kern_clique_method m,
		    unsigned threads, double deadline, uint64_t *counts, uint32_t *nsizes,
		    struct tsg_err *err)
{
	int rc = TSG_OK;
	struct cq_run c = { .d = d, .k = k, .all = all, .m = m,
			    .nsz = all ? d->max_out + 1 : 1 };
	atomic_init(&c.failed, 0);
	c.counts = calloc((size_t)threads * c.nsz, sizeof(*c.counts));
	c.ws = calloc(threads, sizeof(*c.ws));
	if (!c.counts || !c.ws) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for k-clique counts");
		goto done;
	}
	for (unsigned t = 0; t < threads; t++)
		c.ws[t].deadline = deadline;
	/* a few sources (a race's sample) one at a time, so every thread works */
	tsg_parallel_for(threads, d->nsrc, d->nsrc >= 64ull * threads ? 8 : 1, cq_range, &c);
	rc = atomic_load(&c.failed);
	if (rc == CQ_LATE)
		goto done;
	if (rc == TSG_ENOMEM) {
		rc = tsg_fail(err, rc, "out of memory for the bit rows of an out-list of up to "
			      "%u vertices", d->max_out);
		goto done;
	}
	uint32_t maxsize = 0;
	int ovf = rc == TSG_EOVERFLOW;
	for (unsigned t = 0; t < threads && !ovf; t++) {
		for (uint32_t j = 0; j < c.nsz; j++)
			kern_clique_add(&counts[j], c.counts[(size_t)t * c.nsz + j], &ovf);
		if (c.ws[t].maxsize > maxsize)
			maxsize = c.ws[t].maxsize;
	}
	if (ovf) {
		rc = tsg_fail(err, TSG_EOVERFLOW, "the %s count passes 2^64 - 1",
			      all ? "clique" : "k-clique");
		goto done;
	}
	if (all && nsizes && maxsize > *nsizes)
		*nsizes = maxsize;
done:
	for (unsigned t = 0; c.ws && t < threads; t++) {
		free(c.ws[t].rows);
		free(c.ws[t].stack);
	}
	free(c.ws);
	free(c.counts);
	return rc;
}

int kern_cpu_clique(const struct tsg_dag *d, unsigned k, int all, enum kern_clique_method m,
		    unsigned threads, uint64_t *counts, uint32_t *nsizes, struct tsg_err *err)
{
	if (threads == 0)
		threads = 1;
	if (all)
		m = KERN_CLIQUE_PIVOT;
	if (m == KERN_CLIQUE_AUTO)
		m = kern_cpu_clique_pick(d, k, threads, 64, 1.0, 0, NULL);
	if (!all && (k < 3 || k > KERN_CLIQUE_MAX_K))
		return tsg_fail(err, TSG_EUSAGE, "k-cliques: K = %u, not 3 .. %d", k,
				KERN_CLIQUE_MAX_K);
	return cq_count(d, k, all, m, threads, 0, counts, nsizes, err);
}

/* One method on the sample until done or until `limit` seconds: the
 * seconds it took, or a negative number where it ran out of time. */
static double cq_timed(const struct tsg_dag *s, unsigned k, enum kern_clique_method m,
		       unsigned threads, double limit)
{
	uint64_t n = 0;
	struct tsg_err e = { 0 };
	const double t0 = tsg_now();
	const int rc = cq_count(s, k, 0, m, threads, t0 + limit, &n, NULL, &e);
	/* a failure other than time (overflow, memory) fails the count later */
	return rc == CQ_LATE ? -1 : tsg_now() - t0;
}

enum kern_clique_method kern_cpu_clique_pick(const struct tsg_dag *d, unsigned k, unsigned threads,
					     uint32_t stride, double ratio, double most, int *timed)
{
	enum kern_clique_method best = KERN_CLIQUE_ORIENT;
	if (timed)
		*timed = 0;
	stride = stride ? stride : 1;
	if (d->nsrc / stride < 4)
		return best;
	struct tsg_dag s = *d;
	uint32_t *src = malloc((d->nsrc / stride + 1) * sizeof(*src));
	if (!src)
		return best;
	if (timed)
		*timed = 1;
	s.nsrc = 0;
	for (uint32_t x = 0; x < d->nsrc; x += stride)
		src[s.nsrc++] = d->src[x];
	s.src = src;
	/* a race in rounds, each limit 4x the last, so neither method runs
	 * much past the other's time: orientation within the limit is then
	 * matched against pivoting held to its time / ratio; orientation out
	 * of time loses if pivoting makes limit / ratio */
	best = KERN_CLIQUE_AUTO; /* undecided, unless a round decides */
	for (double limit = 0.01; !most || limit <= most; limit *= 4) {
		const double to = cq_timed(&s, k, KERN_CLIQUE_ORIENT, threads, limit);
		if (to >= 0) {
			const double tp = cq_timed(&s, k, KERN_CLIQUE_PIVOT, threads, to / ratio);
			best = tp >= 0 ? KERN_CLIQUE_PIVOT : KERN_CLIQUE_ORIENT;
			break;
		}
		if (cq_timed(&s, k, KERN_CLIQUE_PIVOT, threads, limit / ratio) >= 0) {
			best = KERN_CLIQUE_PIVOT;
			break;
		}
	}
	if (best == KERN_CLIQUE_AUTO && timed)
		*timed = 0; /* out of time: the caller decides */
	free(src);
	return best;
}
