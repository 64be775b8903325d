/*
 * webgraph_write.c - writing BVGraph files (webgraph.h), as the reader in
 * webgraph.c decodes them (docs/FORMAT-WEBGRAPH.md).
 *
 * For each node the writer tries every list in the window as a reference
 * (and none), where the reference's own chain is shorter than maxrefcount,
 * encodes each way into a bit count, and keeps the cheapest: the greedy
 * choice of the Java implementation. Successors not copied are cut into
 * intervals of at least minint consecutive ids and residuals.
 *
 * Nodes are encoded in chunks (wopts.chunk nodes) on every thread, each
 * chunk into bit buffers of its own, then appended in order: a list's code
 * and its offset gap do not depend on where it starts. A node refers only
 * to lists of its own chunk, so that the reference chains a chunk sees are
 * its own (the cost: at most window nodes a chunk without a reference);
 * the file depends on the chunk size, never on the thread count.
 */
#include "io/webgraph.h"
#include "io/atomic.h"
#include "base/util.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void io_webgraph_write_defaults(struct io_webgraph_wopts *o)
{
	*o = (struct io_webgraph_wopts){ .window = 7, .maxref = 3, .minint = 4, .zetak = 3 };
}

/* ---- bits, most significant first; a NULL buffer only counts ---- */

struct wbits {
	uint8_t *b;
	uint64_t pos, cap; /* bits written; bytes allocated */
	int oom;
};

static void put_bits(struct wbits *w, uint64_t v, unsigned n) /* n <= 64 */
{
	if (!w->b) {
		w->pos += n;
		return;
	}
	if ((w->pos + n + 7) / 8 + 8 > w->cap) {
		uint64_t cap = w->cap * 2 + 4096;
		uint8_t *nb = realloc(w->b, cap);
		if (!nb) {
			w->oom = 1;
			return;
		}
		memset(nb + w->cap, 0, cap - w->cap);
		w->b = nb;
		w->cap = cap;
	}
	while (n > 0) { /* a byte's free bits at a time */
		const unsigned room = 8 - (unsigned)(w->pos & 7), take = n < room ? n : room;
		const uint64_t bits = (v >> (n - take)) & ((1ull << take) - 1);
		w->b[w->pos >> 3] |= (uint8_t)(bits << (room - take));
		w->pos += take;
		n -= take;
	}
}

/* Appends src's bits to w. */
static void put_all(struct wbits *w, const struct wbits *src)
{
	uint64_t at = 0;
	for (; at + 64 <= src->pos; at += 64) {
		uint64_t v = 0;
		for (int i = 0; i < 8; i++)
			v = v << 8 | src->b[at / 8 + (uint64_t)i];
		put_bits(w, v, 64);
	}
	for (; at < src->pos; at++)
		put_bits(w, (src->b[at >> 3] >> (7 - (at & 7))) & 1, 1);
}

static unsigned bit_len(uint64_t x) { return x ? 64 - (unsigned)__builtin_clzll(x) : 0; }

static void put_unary(struct wbits *w, uint64_t x)
{
	while (x >= 32) {
		put_bits(w, 0, 32);
		x -= 32;
	}
	put_bits(w, 1, (unsigned)x + 1);
}

static void put_gamma(struct wbits *w, uint64_t x)
{
	const unsigned h = bit_len(x + 1) - 1;
	put_unary(w, h);
	put_bits(w, (x + 1) & ((1ull << h) - 1), h);
}

/* zeta_k: h in unary where x + 1 lies in [2^(hk), 2^((h+1)k)); then x + 1
 * below 2^(hk+1) as x + 1 - 2^(hk) in hk + k - 1 bits, else x + 1 in
 * hk + k bits (the reader's minimal binary code) */
static void put_zeta(struct wbits *w, uint64_t x, unsigned k)
{
	const unsigned h = (bit_len(x + 1) - 1) / k;
	const uint64_t left = 1ull << (h * k);
	put_unary(w, h);
	if (x + 1 < 2 * left)
		put_bits(w, x + 1 - left, h * k + k - 1);
	else
		put_bits(w, x + 1, h * k + k);
}

static inline uint64_t int2nat(int64_t v) { return v >= 0 ? (uint64_t)v << 1 : ((uint64_t)-v << 1) - 1; }

/* ---- one list ---- */

struct list {
	const uint32_t *v;
	uint64_t n;
};

/* Encodes node x's list l with reference r (0: none, ref unused); extra
 * (l.n entries) and runs (ref.n + 1) are scratch. */
static void encode(struct wbits *w, const struct io_webgraph_wopts *o, uint64_t x, struct list l,
		   uint64_t r, struct list ref, uint32_t *extra, uint64_t *runs)
{
	put_gamma(w, l.n);
	if (l.n == 0)
		return;
	if (o->window)
		put_unary(w, r);
	uint64_t ne = 0;
	if (r > 0) {
		/* runs over the reference, copied (in l) or skipped, alternating from a
		 * copy run; the last run is implicit: an even count copies the rest,
		 * an odd one skips it */
		uint64_t nr = 0, len = 0, k = 0;
		int copying = 1;
		for (uint64_t a = 0; a < ref.n; a++) {
			while (k < l.n && l.v[k] < ref.v[a])
				k++;
			const int in = k < l.n && l.v[k] == ref.v[a];
			if (in != copying) {
				runs[nr++] = len;
				copying = !copying;
				len = 0;
			}
			len++;
		}
		put_gamma(w, nr);
		for (uint64_t i = 0; i < nr; i++)
			put_gamma(w, i == 0 ? runs[i] : runs[i] - 1);
		uint64_t a = 0; /* the extras: l's ids the reference lacks */
		for (uint64_t b = 0; b < l.n; b++) {
			while (a < ref.n && ref.v[a] < l.v[b])
				a++;
			if (!(a < ref.n && ref.v[a] == l.v[b]))
				extra[ne++] = l.v[b];
		}
	} else {
		memcpy(extra, l.v, l.n * 4);
		ne = l.n;
	}
	if (ne == 0)
		return;
	if (o->minint > 0) {
		/* runs of at least minint consecutive ids become intervals; the rest,
		 * moved to the front of extra, residuals */
		uint64_t nint = 0, nres = 0;
		for (uint64_t j = 0; j < ne;) {
			uint64_t e = j + 1;
			while (e < ne && extra[e] == extra[e - 1] + 1)
				e++;
			nint += e - j >= o->minint;
			j = e;
		}
		put_gamma(w, nint);
		int64_t prev = 0;
		for (uint64_t j = 0, first = 1; j < ne;) {
			uint64_t e = j + 1;
			while (e < ne && extra[e] == extra[e - 1] + 1)
				e++;
			if (e - j >= o->minint) {
				const int64_t left = extra[j];
				put_gamma(w, first ? int2nat(left - (int64_t)x) : (uint64_t)(left - prev - 1));
				put_gamma(w, e - j - o->minint);
				prev = left + (int64_t)(e - j);
				first = 0;
			} else {
				for (uint64_t q = j; q < e; q++)
					extra[nres++] = extra[q];
			}
			j = e;
		}
		ne = nres;
	}
	for (uint64_t j = 0; j < ne; j++)
		put_zeta(w, j == 0 ? int2nat((int64_t)extra[0] - (int64_t)x) : extra[j] - extra[j - 1] - 1,
			 o->zetak);
}

/* ---- files ---- */

/* One thread's encoding of whole chunks. */
struct wchunk {
	struct wbits g, ob; /* the lists' bits, their lengths as gamma codes */
};

struct wjob {
	const struct io_webgraph_wopts *o;
	uint64_t nv, chunk;
	const uint64_t *off;
	const uint32_t *adj;
	struct wchunk *c;
	uint32_t **extra; /* per thread: the longest list */
	uint64_t **runs;
	uint8_t *chain;   /* reference chain length of each node */
	atomic_int oom;
};

static void encode_chunks(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	struct wjob *j = ctx;
	const struct io_webgraph_wopts *o = j->o;
	const uint64_t *off = j->off;
	for (uint64_t ch = b; ch < e && !atomic_load(&j->oom); ch++) {
		struct wchunk *c = &j->c[ch];
		const uint64_t x0 = ch * j->chunk, x1 = x0 + j->chunk < j->nv ? x0 + j->chunk : j->nv;
		c->g.cap = c->ob.cap = 4096;
		c->g.b = calloc(c->g.cap, 1);
		c->ob.b = calloc(c->ob.cap, 1);
		if (!c->g.b || !c->ob.b) {
			atomic_store(&j->oom, 1);
			return;
		}
		for (uint64_t x = x0; x < x1; x++) {
			const struct list l = { j->adj + off[x], off[x + 1] - off[x] };
			uint64_t best_r = 0, best = UINT64_MAX;
			for (uint64_t r = 0; r <= o->window && r <= x - x0; r++) {
				if (r > 0 && j->chain[x - r] >= o->maxref)
					continue;
				const struct list ref = { j->adj + off[x - r], off[x - r + 1] - off[x - r] };
				struct wbits cnt = { 0 };
				encode(&cnt, o, x, l, r, ref, j->extra[tid], j->runs[tid]);
				if (cnt.pos < best) {
					best = cnt.pos;
					best_r = r;
				}
				if (l.n == 0)
					break; /* an empty list writes no reference */
			}
			const uint64_t start = c->g.pos;
			const struct list ref = { j->adj + off[x - best_r],
						  off[x - best_r + 1] - off[x - best_r] };
			encode(&c->g, o, x, l, best_r, ref, j->extra[tid], j->runs[tid]);
			j->chain[x] = best_r && l.n ? j->chain[x - best_r] + 1 : 0;
			put_gamma(&c->ob, c->g.pos - start);
		}
		if (c->g.oom || c->ob.oom)
			atomic_store(&j->oom, 1);
	}
}

int io_webgraph_write(const char *base, uint64_t nv, const uint64_t *off, const uint32_t *adj,
		      const struct io_webgraph_wopts *o, struct tsg_err *err)
{
	struct wbits g = { 0 }, ob = { 0 };
	const unsigned threads = o->threads ? o->threads : 1;
	struct wjob j = { .o = o, .nv = nv, .chunk = o->chunk ? o->chunk : 1u << 16,
			  .off = off, .adj = adj };
	const uint64_t nchunks = (nv + j.chunk - 1) / j.chunk;
	char path[4300];
	int rc = TSG_OK;
	uint64_t maxdeg = 0;
	for (uint64_t v = 0; v < nv; v++)
		maxdeg = off[v + 1] - off[v] > maxdeg ? off[v + 1] - off[v] : maxdeg;
	atomic_init(&j.oom, 0);
	j.c = calloc(nchunks ? nchunks : 1, sizeof(*j.c));
	j.extra = calloc(threads, sizeof(*j.extra));
	j.runs = calloc(threads, sizeof(*j.runs));
	j.chain = calloc(nv ? nv : 1, 1);
	g.cap = 1 << 16;
	g.b = calloc(g.cap, 1);
	ob.cap = 1 << 16;
	ob.b = calloc(ob.cap, 1);
	int ok = j.c && j.extra && j.runs && j.chain && g.b && ob.b;
	for (unsigned t = 0; ok && t < threads; t++) {
		j.extra[t] = malloc((maxdeg ? maxdeg : 1) * sizeof(**j.extra));
		j.runs[t] = malloc((maxdeg + 2) * sizeof(**j.runs));
		ok = j.extra[t] && j.runs[t];
	}
	if (!ok) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory writing %s", base);
		goto done;
	}
	tsg_parallel_for(threads, nchunks, 1, encode_chunks, &j);
	put_gamma(&ob, 0);
	for (uint64_t ch = 0; ch < nchunks && !atomic_load(&j.oom); ch++) {
		put_all(&g, &j.c[ch].g);
		put_all(&ob, &j.c[ch].ob);
		free(j.c[ch].g.b);
		free(j.c[ch].ob.b);
		j.c[ch].g.b = j.c[ch].ob.b = NULL;
	}
	if (atomic_load(&j.oom) || g.oom || ob.oom) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory writing %s", base);
		goto done;
	}
	snprintf(path, sizeof(path), "%s.graph", base);
	rc = io_afile_write_all(path, g.b, (g.pos + 63) / 64 * 8, err); /* padded to 8 bytes, as LAW's */
	snprintf(path, sizeof(path), "%s.offsets", base);
	if (rc == TSG_OK)
		rc = io_afile_write_all(path, ob.b, (ob.pos + 7) / 8, err);
	if (rc == TSG_OK) {
		char props[1024];
		const int n = snprintf(props, sizeof(props),
			"#BVGraph properties\n#written by tristream\ngraphclass=it.unimi.dsi.webgraph.BVGraph\n"
			"version=0\nnodes=%llu\narcs=%llu\nwindowsize=%u\nmaxrefcount=%u\n"
			"minintervallength=%u\nzetak=%u\ncompressionflags=\nbitsperlink=%.3f\n",
			(unsigned long long)nv, (unsigned long long)off[nv], o->window, o->maxref,
			o->minint, o->zetak, off[nv] ? (double)g.pos / (double)off[nv] : 0.0);
		snprintf(path, sizeof(path), "%s.properties", base);
		rc = io_afile_write_all(path, props, (size_t)n, err);
	}
done:
	for (uint64_t ch = 0; j.c && ch < nchunks; ch++) {
		free(j.c[ch].g.b);
		free(j.c[ch].ob.b);
	}
	for (unsigned t = 0; t < threads; t++) {
		free(j.extra ? j.extra[t] : NULL);
		free(j.runs ? j.runs[t] : NULL);
	}
	free(j.c);
	free(j.extra);
	free(j.runs);
	free(j.chain);
	free(g.b);
	free(ob.b);
	return rc;
}
