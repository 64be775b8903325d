/*
 * webgraph_write.c - writing BVGraph files (webgraph.h), as the reader in
 * webgraph.c decodes them (docs/FORMAT-WEBGRAPH.md).
 *
 * For each node the writer tries every list in the window as a reference
 * (and none), where the reference's own chain is shorter than maxrefcount,
 * and keeps the cheapest: the greedy choice of the Java implementation.
 * Successors not copied are cut into intervals of at least minint
 * consecutive ids and residuals. A way's cost is counted in one merge of
 * the list with its reference, from the codes' lengths, without writing;
 * only the way kept is written.
 *
 * Nodes are encoded in chunks, each into bit buffers of its own (any
 * thread), then appended in order by the streaming writer: a list's code
 * and its offset gap do not depend on where it starts. A node refers only
 * to lists of its own chunk, so that the reference chains a chunk sees are
 * its own (the cost: at most window nodes a chunk without a reference);
 * the file depends on where chunks are cut, never on the thread count.
 */
#include "io/webgraph.h"
#include "io/atomic.h"
#include "base/util.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void io_webgraph_write_defaults(struct io_webgraph_wopts *o)
{
	*o = (struct io_webgraph_wopts){ .window = 7, .maxref = 3, .minint = 4, .zetak = 3 };
}

/* ---- bits, most significant first, into a zeroed buffer ---- */

static inline uint64_t load_be64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return __builtin_bswap64(v);
}

static inline void store_be64(uint8_t *p, uint64_t v)
{
	v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

static inline unsigned bit_len(uint64_t x) { return x ? 64 - (unsigned)__builtin_clzll(x) : 0; }

/* Bits of a chunk: every byte past pos is zero (writing zeros is moving
 * pos), and cap leaves room for 8 bytes past the last bit written, which a
 * 64-bit store may touch. Room is made per list (wbits_room), so the puts
 * themselves never check. */
struct wbits {
	uint8_t *b;
	uint64_t pos, cap; /* bits written; bytes allocated */
};

static int wbits_room(struct wbits *w, uint64_t bits)
{
	const uint64_t need = (w->pos + bits) / 8 + 16;
	if (need <= w->cap)
		return 0;
	uint64_t cap = w->cap * 2 > need ? w->cap * 2 : need + 4096;
	uint8_t *nb = realloc(w->b, cap);
	if (!nb)
		return -1;
	memset(nb + w->cap, 0, cap - w->cap);
	w->b = nb;
	w->cap = cap;
	return 0;
}

/* v in n bits, n <= 56 (v < 2^n) */
static inline void put56(struct wbits *w, uint64_t v, unsigned n)
{
	if (!n)
		return;
	uint8_t *p = w->b + (w->pos >> 3);
	store_be64(p, load_be64(p) | v << (64 - (w->pos & 7) - n));
	w->pos += n;
}

static inline void put_bits(struct wbits *w, uint64_t v, unsigned n) /* n <= 64 */
{
	if (n > 56) {
		put56(w, v >> 32, n - 32);
		v &= 0xffffffffu;
		n = 32;
	}
	put56(w, v, n);
}

static inline void put_unary(struct wbits *w, uint64_t x)
{
	w->pos += x; /* zeros */
	put56(w, 1, 1);
}

static inline unsigned gamma_len(uint64_t x) { return 2 * bit_len(x + 1) - 1; }

static inline void put_gamma(struct wbits *w, uint64_t x)
{
	const unsigned l = bit_len(x + 1);
	if (2 * l - 1 <= 56) {
		put56(w, x + 1, 2 * l - 1); /* l - 1 zeros, then x + 1 */
	} else {
		w->pos += l - 1;
		put_bits(w, x + 1, l);
	}
}

/* zeta_k: h in unary where x + 1 lies in [2^(hk), 2^((h+1)k)); then x + 1
 * below 2^(hk+1) as x + 1 - 2^(hk) in hk + k - 1 bits, else x + 1 in
 * hk + k bits (the reader's minimal binary code). Lengths by bit length of
 * x + 1: base[l] bits, one more where x + 1 >= thr[l]. */
struct zeta {
	unsigned k;
	uint8_t base[66];
	uint64_t thr[66];
};

static void zeta_init(struct zeta *z, unsigned k)
{
	z->k = k;
	for (unsigned l = 1; l <= 65; l++) {
		const unsigned h = (l - 1) / k;
		z->base[l] = (uint8_t)(h + 1 + h * k + k - 1);
		z->thr[l] = h * k + 1 >= 64 ? UINT64_MAX : 2ull << (h * k);
	}
}

static inline unsigned zeta_len(const struct zeta *z, uint64_t x)
{
	const unsigned l = bit_len(x + 1);
	return z->base[l] + (x + 1 >= z->thr[l]);
}

static inline void put_zeta(struct wbits *w, const struct zeta *z, uint64_t x)
{
	const unsigned h = (bit_len(x + 1) - 1) / z->k, hk = h * z->k;
	const uint64_t left = 1ull << hk;
	put_unary(w, h);
	if (x + 1 < 2 * left)
		put_bits(w, x + 1 - left, hk + z->k - 1);
	else
		put_bits(w, x + 1, hk + z->k);
}

static inline uint64_t int2nat(int64_t v) { return v >= 0 ? (uint64_t)v << 1 : ((uint64_t)-v << 1) - 1; }

/* ---- one list ---- */

struct enc {
	const struct io_webgraph_wopts *o;
	struct zeta z;
};

/* The extras of a list, one at a time, in increasing order: runs of
 * consecutive ids, each an interval where at least minint long, else
 * residuals; their bits counted as they close. */
struct xcost {
	uint64_t bits, nint, ne;
	int64_t x, prev_right, prev_res;
	uint64_t rs, rl; /* the open run: start, length */
	int first_int, first_res;
};

static inline void xrun_close(const struct enc *e, struct xcost *c)
{
	if (!c->rl)
		return;
	const unsigned minint = e->o->minint;
	if (minint && c->rl >= minint) {
		const int64_t left = (int64_t)c->rs;
		c->bits += gamma_len(c->first_int ? int2nat(left - c->x) : (uint64_t)(left - c->prev_right - 1));
		c->bits += gamma_len(c->rl - minint);
		c->prev_right = left + (int64_t)c->rl;
		c->first_int = 0;
		c->nint++;
	} else {
		const int64_t v = (int64_t)c->rs;
		c->bits += zeta_len(&e->z, c->first_res ? int2nat(v - c->x) : (uint64_t)(v - c->prev_res - 1));
		c->bits += (c->rl - 1) * zeta_len(&e->z, 0); /* gaps of 0 inside the run */
		c->prev_res = v + (int64_t)c->rl - 1;
		c->first_res = 0;
	}
}

static inline void xadd(const struct enc *e, struct xcost *c, uint32_t v)
{
	c->ne++;
	if (c->rl && v == c->rs + c->rl) {
		c->rl++;
		return;
	}
	xrun_close(e, c);
	c->rs = v;
	c->rl = 1;
}

/* The bits node x's list l (n ids) takes with reference r (0: none) to the
 * list ref (rn ids): what encode would write, without writing it. */
static uint64_t list_cost(const struct enc *e, uint64_t x, const uint32_t *l, uint64_t n,
			  uint64_t r, const uint32_t *ref, uint64_t rn)
{
	uint64_t bits = gamma_len(n);
	if (n == 0)
		return bits;
	if (e->o->window)
		bits += r + 1;
	struct xcost c = { .x = (int64_t)x, .first_int = 1, .first_res = 1 };
	if (r == 0) {
		for (uint64_t i = 0; i < n; i++)
			xadd(e, &c, l[i]);
	} else {
		/* runs over the reference, copied or skipped, alternating from a
		 * copy run; the last one is implicit */
		uint64_t nr = 0, len = 0, i = 0, a = 0, bbits = 0;
		int copying = 1;
#define RUN_STEP(in)                                                            \
	do {                                                                    \
		if ((in) != copying) {                                          \
			bbits += gamma_len(nr == 0 ? len : len - 1);            \
			nr++;                                                   \
			copying = !copying;                                     \
			len = 0;                                                \
		}                                                               \
		len++;                                                          \
	} while (0)
		while (i < n && a < rn) {
			if (l[i] == ref[a]) {
				RUN_STEP(1);
				i++;
				a++;
			} else if (l[i] < ref[a]) {
				xadd(e, &c, l[i++]);
			} else {
				RUN_STEP(0);
				a++;
			}
		}
		for (; a < rn; a++)
			RUN_STEP(0);
#undef RUN_STEP
		for (; i < n; i++)
			xadd(e, &c, l[i]);
		bits += gamma_len(nr) + bbits;
	}
	if (c.ne == 0)
		return bits;
	xrun_close(e, &c);
	if (e->o->minint)
		bits += gamma_len(c.nint);
	return bits + c.bits;
}

/* Counts of what was written, summed over chunks into the .properties. */
struct wstats {
	uint64_t outdeg, refs, blocks, intervals, residuals; /* bits */
	uint64_t copied, intervalised, residual_arcs, chains, dists;
};

/* Writes node x's list l with reference r (as list_cost counted it);
 * extra (n entries) and runs (rn + 1) are scratch. */
static void encode(struct wbits *w, const struct enc *e, uint64_t x, const uint32_t *l, uint64_t n,
		   uint64_t r, const uint32_t *ref, uint64_t rn, uint32_t *extra, uint64_t *runs,
		   struct wstats *st)
{
	const struct io_webgraph_wopts *o = e->o;
	uint64_t at = w->pos;
	put_gamma(w, n);
	st->outdeg += w->pos - at;
	if (n == 0)
		return;
	at = w->pos;
	if (o->window)
		put_unary(w, r);
	st->refs += w->pos - at;
	uint64_t ne = 0;
	if (r > 0) {
		at = w->pos;
		uint64_t nr = 0, len = 0, i = 0;
		int copying = 1;
		for (uint64_t a = 0; a < rn; a++) {
			while (i < n && l[i] < ref[a])
				extra[ne++] = l[i++];
			const int in = i < n && l[i] == ref[a];
			i += in;
			if (in != copying) {
				runs[nr++] = len;
				copying = !copying;
				len = 0;
			}
			len++;
		}
		while (i < n)
			extra[ne++] = l[i++];
		put_gamma(w, nr);
		for (uint64_t k = 0; k < nr; k++)
			put_gamma(w, k == 0 ? runs[k] : runs[k] - 1);
		st->blocks += w->pos - at;
		st->copied += n - ne;
	} else {
		memcpy(extra, l, n * 4);
		ne = n;
	}
	if (ne == 0)
		return;
	if (o->minint > 0) {
		/* runs of at least minint consecutive ids become intervals; the rest,
		 * moved to the front of extra, residuals */
		at = w->pos;
		uint64_t nint = 0, nres = 0;
		for (uint64_t j = 0; j < ne;) {
			uint64_t k = j + 1;
			while (k < ne && extra[k] == extra[k - 1] + 1)
				k++;
			nint += k - j >= o->minint;
			j = k;
		}
		put_gamma(w, nint);
		int64_t prev = 0;
		for (uint64_t j = 0, first = 1; j < ne;) {
			uint64_t k = j + 1;
			while (k < ne && extra[k] == extra[k - 1] + 1)
				k++;
			if (k - j >= o->minint) {
				const int64_t left = extra[j];
				put_gamma(w, first ? int2nat(left - (int64_t)x) : (uint64_t)(left - prev - 1));
				put_gamma(w, k - j - o->minint);
				prev = left + (int64_t)(k - j);
				first = 0;
				st->intervalised += k - j;
			} else {
				for (uint64_t q = j; q < k; q++)
					extra[nres++] = extra[q];
			}
			j = k;
		}
		ne = nres;
		st->intervals += w->pos - at;
	}
	at = w->pos;
	for (uint64_t j = 0; j < ne; j++)
		put_zeta(w, &e->z, j == 0 ? int2nat((int64_t)extra[0] - (int64_t)x)
					  : extra[j] - extra[j - 1] - 1);
	st->residuals += w->pos - at;
	st->residual_arcs += ne;
}

/* ---- chunks ---- */

struct io_webgraph_chunk {
	struct wbits g, ob;   /* the lists' bits; their lengths as gamma codes */
	uint64_t x0, nodes, arcs;
	struct wstats st;
	uint8_t *chain;       /* reference chain length of each node */
	uint32_t *extra;
	uint64_t *runs;
	uint64_t nchain, nscratch;
};

struct io_webgraph_chunk *io_webgraph_chunk_new(void)
{
	return calloc(1, sizeof(struct io_webgraph_chunk));
}

void io_webgraph_chunk_free(struct io_webgraph_chunk *c)
{
	if (!c)
		return;
	free(c->g.b);
	free(c->ob.b);
	free(c->chain);
	free(c->extra);
	free(c->runs);
	free(c);
}

uint64_t io_webgraph_chunk_bytes(const struct io_webgraph_chunk *c)
{
	return c->g.cap + c->ob.cap + c->nchain + c->nscratch * 12;
}

uint64_t io_webgraph_chunk_bits(const struct io_webgraph_chunk *c) { return c->g.pos; }

static void wbits_reset(struct wbits *w)
{
	if (w->b)
		memset(w->b, 0, (w->pos + 7) / 8 + 8 < w->cap ? (w->pos + 7) / 8 + 8 : w->cap);
	w->pos = 0;
}

int io_webgraph_encode(struct io_webgraph_chunk *c, const struct io_webgraph_wopts *o, uint64_t x0,
		       uint64_t n, const uint64_t *off, const uint32_t *adj)
{
	struct enc e = { .o = o };
	zeta_init(&e.z, o->zetak ? o->zetak : 3);
	wbits_reset(&c->g);
	wbits_reset(&c->ob);
	memset(&c->st, 0, sizeof(c->st));
	c->x0 = x0;
	c->nodes = n;
	c->arcs = off[n] - off[0];
	uint64_t maxdeg = 0;
	for (uint64_t i = 0; i < n; i++)
		maxdeg = off[i + 1] - off[i] > maxdeg ? off[i + 1] - off[i] : maxdeg;
	if (n > c->nchain) {
		uint8_t *p = realloc(c->chain, n);
		if (!p)
			return TSG_ENOMEM;
		c->chain = p;
		c->nchain = n;
	}
	if (maxdeg + 2 > c->nscratch) {
		free(c->extra);
		free(c->runs);
		c->extra = malloc((maxdeg + 2) * sizeof(*c->extra));
		c->runs = malloc((maxdeg + 2) * sizeof(*c->runs));
		c->nscratch = c->extra && c->runs ? maxdeg + 2 : 0;
		if (!c->nscratch)
			return TSG_ENOMEM;
	}
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t x = x0 + i, len = off[i + 1] - off[i];
		const uint32_t *l = adj + off[i];
		uint64_t best_r = 0, best = UINT64_MAX;
		for (uint64_t r = 0; r <= o->window && r <= i; r++) {
			if (r > 0 && c->chain[i - r] >= o->maxref)
				continue;
			const uint64_t bits = list_cost(&e, x, l, len, r, adj + off[i - r],
							off[i - r + 1] - off[i - r]);
			if (bits < best) {
				best = bits;
				best_r = r;
			}
			if (len == 0)
				break; /* an empty list writes no reference */
		}
		/* room for the list: every code here is at most 2 * 33 + 2 bits,
		 * the unary reference r + 1, and one code a block (at most the
		 * reference's length + 1) and two an extra */
		const uint64_t rn = off[i - best_r + 1] - off[i - best_r];
		if (wbits_room(&c->g, 200 + best_r + (rn + 1) * 70 + len * 140) ||
		    wbits_room(&c->ob, 80))
			return TSG_ENOMEM;
		const uint64_t start = c->g.pos;
		encode(&c->g, &e, x, l, len, best_r, adj + off[i - best_r], rn, c->extra, c->runs,
		       &c->st);
		/* the reference was chosen by what list_cost counted: a list
		 * written in other bits than counted means the two disagree,
		 * and the choice (so the file) is not the one intended */
		if (c->g.pos - start != best)
			return TSG_EINTERNAL;
		c->chain[i] = best_r && len ? c->chain[i - best_r] + 1 : 0;
		c->st.chains += c->chain[i];
		c->st.dists += len ? best_r : 0;
		put_gamma(&c->ob, c->g.pos - start);
	}
	return TSG_OK;
}

/* ---- the files, streamed ---- */

enum { WBUF = 1 << 20 }; /* bytes a stream buffers before it writes */

struct wstream {
	struct io_afile f;
	uint8_t *buf;          /* WBUF + 32 bytes, zero past pos */
	uint64_t pos, written; /* bits in buf; bytes written to f before them */
};

/* Appends nbits bits from src (whole bytes, first bit the top of src[0]) at
 * bit pos of d, zero from pos on; writes up to 9 bytes past the last. */
static void copy_bits(uint8_t *d, uint64_t pos, const uint8_t *src, uint64_t nbits)
{
	uint8_t *p = d + (pos >> 3);
	const unsigned off = pos & 7;
	uint64_t i = 0;
	for (; i + 64 <= nbits; i += 64, p += 8) {
		const uint64_t v = load_be64(src + i / 8);
		store_be64(p, load_be64(p) | v >> off);
		if (off)
			p[8] = (uint8_t)(v << (8 - off));
	}
	const unsigned t = (unsigned)(nbits - i);
	if (t) {
		uint64_t v = 0;
		for (unsigned j = 0; j < (t + 7) / 8; j++)
			v |= (uint64_t)src[i / 8 + j] << (56 - 8 * j);
		v &= ~0ull << (64 - t);
		store_be64(p, load_be64(p) | v >> off);
		if (off)
			p[8] = (uint8_t)(v << (8 - off));
	}
}

static int stream_flush(struct wstream *s, int all, struct tsg_err *err)
{
	const uint64_t bytes = all ? (s->pos + 7) / 8 : s->pos / 8;
	if (bytes && fwrite(s->buf, 1, bytes, s->f.f) != bytes) {
		const int e = errno ? errno : EIO;
		return tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot write", s->f.path);
	}
	s->written += bytes;
	if (all) {
		memset(s->buf, 0, bytes + 9);
		s->pos = 0;
	} else {
		s->buf[0] = s->buf[bytes];
		memset(s->buf + 1, 0, bytes + 9);
		s->pos &= 7;
	}
	return TSG_OK;
}

static int stream_append(struct wstream *s, const uint8_t *src, uint64_t nbits, struct tsg_err *err)
{
	while (nbits) {
		const uint64_t room = (WBUF - s->pos / 8) * 8;
		if (room < 4096) {
			const int rc = stream_flush(s, 0, err);
			if (rc)
				return rc;
			continue;
		}
		const uint64_t take = nbits <= room ? nbits : room / 8 * 8;
		copy_bits(s->buf, s->pos, src, take);
		s->pos += take;
		src += take / 8;
		nbits -= take;
	}
	return TSG_OK;
}

struct io_webgraph_writer {
	struct io_webgraph_wopts o;
	struct wstream g, ob;
	struct io_afile props;
	uint64_t nodes, arcs;
	struct wstats st;
	char *base;
};

static void stream_abort(struct wstream *s)
{
	if (s->f.path)
		io_afile_abort(&s->f);
	free(s->buf);
	s->buf = NULL;
}

void io_webgraph_writer_abort(struct io_webgraph_writer *w)
{
	if (!w)
		return;
	stream_abort(&w->g);
	stream_abort(&w->ob);
	if (w->props.path)
		io_afile_abort(&w->props);
	free(w->base);
	free(w);
}

static int stream_open(struct wstream *s, const char *base, const char *ext, struct tsg_err *err)
{
	char path[4300];
	if ((size_t)snprintf(path, sizeof(path), "%s.%s", base, ext) >= sizeof(path))
		return tsg_fail(err, TSG_EUSAGE, "output name too long: %s", base);
	if (!(s->buf = calloc(WBUF + 32, 1)))
		return tsg_fail(err, TSG_ENOMEM, "out of memory writing %s", path);
	return io_afile_open(path, &s->f, err);
}

int io_webgraph_writer_open(const char *base, const struct io_webgraph_wopts *o,
			    struct io_webgraph_writer **out, struct tsg_err *err)
{
	struct io_webgraph_writer *w = calloc(1, sizeof(*w));
	*out = NULL;
	if (!w || !(w->base = strdup(base))) {
		free(w);
		return tsg_fail(err, TSG_ENOMEM, "out of memory writing %s", base);
	}
	w->o = *o;
	char path[4300];
	int rc = stream_open(&w->g, base, "graph", err);
	if (rc == TSG_OK)
		rc = stream_open(&w->ob, base, "offsets", err);
	if (rc == TSG_OK) {
		snprintf(path, sizeof(path), "%s.properties", base);
		rc = io_afile_open(path, &w->props, err);
	}
	if (rc) {
		io_webgraph_writer_abort(w);
		return rc;
	}
	w->ob.buf[0] = 0x80; /* the first offset: gamma(0), a single 1 */
	w->ob.pos = 1;
	*out = w;
	return TSG_OK;
}

int io_webgraph_writer_append(struct io_webgraph_writer *w, const struct io_webgraph_chunk *c,
			      struct tsg_err *err)
{
	if (c->x0 != w->nodes)
		return tsg_fail(err, TSG_EINTERNAL, "%s: chunk of node %llu appended after %llu nodes",
				w->base, (unsigned long long)c->x0, (unsigned long long)w->nodes);
	int rc = stream_append(&w->g, c->g.b, c->g.pos, err);
	if (rc == TSG_OK)
		rc = stream_append(&w->ob, c->ob.b, c->ob.pos, err);
	if (rc)
		return rc;
	w->nodes += c->nodes;
	w->arcs += c->arcs;
	const struct wstats *s = &c->st;
	w->st.outdeg += s->outdeg;
	w->st.refs += s->refs;
	w->st.blocks += s->blocks;
	w->st.intervals += s->intervals;
	w->st.residuals += s->residuals;
	w->st.copied += s->copied;
	w->st.intervalised += s->intervalised;
	w->st.residual_arcs += s->residual_arcs;
	w->st.chains += s->chains;
	w->st.dists += s->dists;
	return TSG_OK;
}

uint64_t io_webgraph_writer_bits(const struct io_webgraph_writer *w)
{
	return w->g.written * 8 + w->g.pos;
}

static int sync_stream(struct io_afile *f, struct tsg_err *err)
{
	errno = 0;
	if (fflush(f->f) != 0 || ferror(f->f) || ((f->tmp || f->unnamed) && fsync(fileno(f->f)) != 0)) {
		const int e = errno ? errno : EIO;
		return tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot write", f->path);
	}
	return TSG_OK;
}

int io_webgraph_unname(const char *base, struct tsg_err *err)
{
	char path[4300];
	if ((size_t)snprintf(path, sizeof(path), "%s.properties", base) >= sizeof(path))
		return tsg_fail(err, TSG_EUSAGE, "output name too long: %s", base);
	if (unlink(path) != 0 && errno != ENOENT)
		return tsg_fail_errno(err, tsg_status_from_errno(errno), errno, "%s: cannot remove "
				      "it", path);
	return TSG_OK;
}

/* Moves an existing BASE.properties aside (to BASE.properties.old.XXXXXX,
 * *aside, malloc'd; NULL where there was none) before the new files are
 * named. Why: three files cannot be renamed at once, and a crash between
 * two renames would leave a new .graph beside the old .properties and
 * .offsets, which a reader decodes with the old sizes and codes; with no
 * .properties, BASE is no graph to any reader (ours or LAW's) until the
 * last rename names the new one. A .properties written in place (a FIFO,
 * a device) is left where it is. */
static int props_aside(const struct io_afile *props, char **aside, struct tsg_err *err)
{
	struct stat st;
	*aside = NULL;
	if (!props->unnamed && !props->tmp)
		return TSG_OK;
	if (lstat(props->path, &st) != 0)
		return errno == ENOENT ? TSG_OK
				       : tsg_fail_errno(err, tsg_status_from_errno(errno), errno,
							"%s: cannot look at it", props->path);
	/* .old, not the writers' .tmp: told apart from a temporary of the new
	 * files (no O_TMPFILE) where a kill leaves both */
	const int fd = io_temp_open_as(props->path, "old", aside);
	if (fd < 0)
		return tsg_fail_errno(err, tsg_status_from_errno(errno), errno, "%s: cannot create "
				      "a name to move it to", props->path);
	close(fd);
	if (rename(props->path, *aside) != 0) {
		const int e = errno;
		unlink(*aside);
		free(*aside);
		*aside = NULL;
		return tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot move it aside",
				      props->path);
	}
	io_sync_dir(props->path); /* gone before any new name appears */
	return TSG_OK;
}

int io_webgraph_writer_finish(struct io_webgraph_writer *w, struct tsg_err *err)
{
	const uint64_t bits = io_webgraph_writer_bits(w), n = w->nodes, m = w->arcs;
	const double dn = n ? (double)n : 1;
	const struct wstats *s = &w->st;
	w->g.pos += (64 - bits % 64) % 64; /* .graph padded to 8 bytes, as LAW's */
	int rc = stream_flush(&w->g, 1, err);
	if (rc == TSG_OK)
		rc = stream_flush(&w->ob, 1, err);
	/* the statistics LAW's writer adds, where defined the same way: avgref
	 * the mean reference chain, avgdist the mean reference distance */
	if (rc == TSG_OK &&
	    fprintf(w->props.f,
		    "#BVGraph properties\n#written by tristream\n"
		    "graphclass=it.unimi.dsi.webgraph.BVGraph\nversion=0\nnodes=%llu\narcs=%llu\n"
		    "windowsize=%u\nmaxrefcount=%u\nminintervallength=%u\nzetak=%u\n"
		    "compressionflags=\nbitsperlink=%.3f\nbitspernode=%.3f\navgref=%.3f\n"
		    "avgdist=%.3f\ncopiedarcs=%llu\nintervalisedarcs=%llu\nresidualarcs=%llu\n"
		    "bitsforoutdegrees=%llu\nbitsforreferences=%llu\nbitsforblocks=%llu\n"
		    "bitsforintervals=%llu\nbitsforresiduals=%llu\navgbitsforoutdegrees=%.3f\n"
		    "avgbitsforreferences=%.3f\navgbitsforblocks=%.3f\navgbitsforintervals=%.3f\n"
		    "avgbitsforresiduals=%.3f\n",
		    (unsigned long long)n, (unsigned long long)m, w->o.window, w->o.maxref,
		    w->o.minint, w->o.zetak, m ? (double)bits / (double)m : 0.0, (double)bits / dn,
		    (double)s->chains / dn, (double)s->dists / dn, (unsigned long long)s->copied,
		    (unsigned long long)s->intervalised, (unsigned long long)s->residual_arcs,
		    (unsigned long long)s->outdeg, (unsigned long long)s->refs,
		    (unsigned long long)s->blocks, (unsigned long long)s->intervals,
		    (unsigned long long)s->residuals, (double)s->outdeg / dn, (double)s->refs / dn,
		    (double)s->blocks / dn, (double)s->intervals / dn, (double)s->residuals / dn) < 0) {
		const int e = errno ? errno : EIO;
		rc = tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot write", w->props.path);
	}
	/* all three on disk before any is named, so that a failure leaves the
	 * old files whole where it can */
	if (rc == TSG_OK)
		rc = sync_stream(&w->g.f, err);
	if (rc == TSG_OK)
		rc = sync_stream(&w->ob.f, err);
	if (rc == TSG_OK)
		rc = sync_stream(&w->props, err);
	char *aside = NULL;
	int graph_named = 0;
	if (rc == TSG_OK)
		rc = props_aside(&w->props, &aside, err);
	if (rc == TSG_OK) {
		graph_named = (rc = io_afile_commit(&w->g.f, err)) == TSG_OK;
		if (rc != TSG_OK && aside && rename(aside, w->props.path) == 0) {
			free(aside); /* nothing new named: the old set whole again */
			aside = NULL;
		}
	}
	if (rc == TSG_OK) {
		tsg_test_pause("TSG_TEST_WEBGRAPH_NAMING_PAUSE_MS", "the new .graph named, not "
			       "yet its .properties");
		rc = io_afile_commit(&w->ob.f, err);
	}
	if (rc == TSG_OK)
		rc = io_afile_commit(&w->props, err); /* last: it names the graph */
	if (rc != TSG_OK && aside) { /* said, with where the old .properties is */
		char why[sizeof(err->msg)];
		snprintf(why, sizeof(why), "%s", err->msg);
		err->code = TSG_OK; /* tsg_fail keeps a first error: this one replaces it */
		rc = graph_named ? tsg_fail(err, rc, "%s; %s.graph was replaced, so there is no "
					    "%s.properties (the old one is %s): write it again",
					    why, w->base, w->base, aside)
				 : tsg_fail(err, rc, "%s; the old %s.properties could not be put "
					    "back: it is %s", why, w->base, aside);
	} else if (aside) {
		unlink(aside);
	}
	free(aside);
	io_webgraph_writer_abort(w);
	return rc;
}

/* ---- a graph in memory ---- */

struct wjob {
	const struct io_webgraph_wopts *o;
	uint64_t nv, chunk, first;
	const uint64_t *off;
	const uint32_t *adj;
	struct io_webgraph_chunk **c;
	atomic_int rc; /* the first failure's code */
};

static void encode_chunks(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct wjob *j = ctx;
	for (uint64_t k = b; k < e && !atomic_load(&j->rc); k++) {
		const uint64_t x0 = (j->first + k) * j->chunk;
		const uint64_t n = x0 + j->chunk < j->nv ? j->chunk : j->nv - x0;
		const int rc = io_webgraph_encode(j->c[k], j->o, x0, n, j->off + x0, j->adj);
		int none = TSG_OK;
		if (rc)
			atomic_compare_exchange_strong(&j->rc, &none, rc);
	}
}

int io_webgraph_write(const char *base, uint64_t nv, const uint64_t *off, const uint32_t *adj,
		      const struct io_webgraph_wopts *o, struct tsg_err *err)
{
	const unsigned threads = o->threads ? o->threads : 1;
	struct wjob j = { .o = o, .nv = nv, .chunk = o->chunk ? o->chunk : 1u << 16,
			  .off = off, .adj = adj };
	const uint64_t nchunks = (nv + j.chunk - 1) / j.chunk, per = 4ull * threads;
	struct io_webgraph_writer *w = NULL;
	atomic_init(&j.rc, TSG_OK);
	int rc = TSG_OK;
	j.c = calloc(per, sizeof(*j.c));
	for (uint64_t k = 0; j.c && k < per; k++)
		if (!(j.c[k] = io_webgraph_chunk_new()))
			break;
	if (!j.c || !j.c[per - 1]) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory writing %s", base);
		goto done;
	}
	if ((rc = io_webgraph_writer_open(base, o, &w, err)))
		goto done;
	/* a window of chunks encoded in parallel, then appended in order */
	for (uint64_t at = 0; at < nchunks && rc == TSG_OK; at += per) {
		const uint64_t nb = nchunks - at < per ? nchunks - at : per;
		j.first = at;
		tsg_parallel_for(threads, nb, 1, encode_chunks, &j);
		if ((rc = atomic_load(&j.rc)) != TSG_OK) {
			rc = tsg_fail(err, rc, rc == TSG_ENOMEM ? "out of memory writing %s"
				      : "internal error writing %s (the BVGraph writer's cost and "
				      "its bits disagree)", base);
			break;
		}
		for (uint64_t k = 0; k < nb && rc == TSG_OK; k++)
			rc = io_webgraph_writer_append(w, j.c[k], err);
	}
	if (rc == TSG_OK)
		rc = io_webgraph_writer_finish(w, err);
	else
		io_webgraph_writer_abort(w);
done:
	for (uint64_t k = 0; j.c && k < per; k++)
		io_webgraph_chunk_free(j.c[k]);
	free(j.c);
	return rc;
}
