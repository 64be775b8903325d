#include "io/text.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/progress.h"
#include "base/util.h"
#include "io/format.h"
#include "io/text_source.h"

enum {
	PIECE = 4u << 20,          /* bytes of text a thread parses per round */
	MAX_ID = 0xfffffffeu,      /* so that nv = max id + 1 fits 32 bits */
	SNIPPET = 80,
};

/* LINE_BIG and LINE_RANGE stop the read even with skip_bad: dropping
 * their edges would change the count */
enum line_kind { LINE_EDGE, LINE_SKIP, LINE_BAD, LINE_BIG, LINE_RANGE };

static int hard_kind(enum line_kind k) { return k == LINE_BIG || k == LINE_RANGE; }

static const char *const format_names[] = { "auto", "edgelist", "mtx", "tsv" };

int io_text_format_parse(const char *s, enum io_text_format *out)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(s, format_names[i]) == 0 || (i == 1 && strcmp(s, "snap") == 0)) {
			*out = (enum io_text_format)i;
			return TSG_OK;
		}
	return TSG_EUSAGE;
}

const char *io_text_format_name(enum io_text_format f) { return format_names[f]; }

/* Between two ids. Not '\r': a lone CR ends a line (below). */
static int is_sep(char c) { return c == ' ' || c == '\t' || c == ','; }

/* A digit test without the locale tables of isdigit: this loop is the
 * converter's hottest. */
static int is_digit(char c) { return (unsigned char)(c - '0') < 10; }

static const char *parse_id(const char *s, const char *e, uint64_t *v, int *big)
{
	if (s >= e || !is_digit(*s))
		return NULL;
	uint64_t x = 0;
	for (; s < e && is_digit(*s); s++) {
		if (x > (UINT64_MAX - 9) / 10)
			*big = 1;
		else
			x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return s;
}

/* Line ends: '\n', "\r\n" (one end), or a lone '\r' (old Mac files): a
 * CR taken for a blank would join every line of such a file into one,
 * whose first edge alone would be read. */

/* Where the line holding s ends: its '\n' or '\r', or e. */
static const char *line_end(const char *s, const char *e)
{
	while (s < e && *s != '\n' && *s != '\r')
		s++;
	return s;
}

/* The start of the line after the one that ends at t (line_end's). */
static const char *line_next(const char *t, const char *e)
{
	if (t >= e)
		return e;
	return *t == '\r' && t + 1 < e && t[1] == '\n' ? t + 2 : t + 1;
}

/* Whether a line ends just before p[i], 0 < i <= len: after a '\n', or
 * after a '\r' whose next byte is known (i < len) and no '\n'. Buffers
 * and pieces are cut only there, so a CRLF is never split. */
static int ends_line(const char *p, size_t i, size_t len)
{
	return p[i - 1] == '\n' || (p[i - 1] == '\r' && i < len && p[i] != '\n');
}

/* Parses the line starting at s (pieces end on line boundaries, at e) and
 * sets *next to the start of the following one. base is 1 for 1-based
 * formats. The line end is found by the parse itself, not by a search
 * ahead: lines are short and a search per line costs as much as parsing. */
static enum line_kind parse_line(const char *s, const char *e, unsigned base, uint64_t *pu,
				 uint64_t *pv, const char **next)
{
	const char *t = s;
	while (t < e && (*t == ' ' || *t == '\t'))
		t++;
	if (t == e || *t == '\n' || *t == '\r' || *t == '#' || *t == '%') {
		*next = line_next(line_end(t, e), e);
		return LINE_SKIP;
	}
	uint64_t u, v;
	int big = 0;
	if (!(t = parse_id(t, e, &u, &big)) || t == e || !is_sep(*t))
		goto bad;
	while (t < e && is_sep(*t))
		t++;
	if (!(t = parse_id(t, e, &v, &big)))
		goto bad;
	if (t < e && *t != '\n' && *t != '\r') {
		if (!is_sep(*t))
			goto bad;
		t = line_end(t, e); /* columns after the second are ignored */
	}
	*next = line_next(t, e);
	if (base && (u == 0 || v == 0))
		return LINE_BAD; /* 0 in a 1-based file */
	u -= base;
	v -= base;
	if (big || u > MAX_ID || v > MAX_ID)
		return LINE_BIG;
	*pu = u;
	*pv = v;
	return LINE_EDGE;
bad:
	*next = line_next(line_end(s, e), e);
	return LINE_BAD;
}

/* A piece's edges are made canonical (lo<<32|hi) here, on the parsing
 * threads, with self-loops counted and dropped, so the builder only
 * copies them (io_builder_add_canon). */
struct piece {
	const char *s, *e;
	uint64_t *keys;
	size_t nkeys, cap;
	uint64_t lines, entries, bad, loops, max_id; /* entries: lines not blank or comments */
	int64_t first_bad;      /* line index in the piece, -1 if none */
	enum line_kind bad_kind;
	char snippet[SNIPPET + 1];
	int oom;
};

struct parse_job {
	struct piece *pieces;
	unsigned base;
	uint64_t rows, cols;    /* Matrix Market: ids (0-based) must lie below; else no bound */
};

static void parse_piece(void *arg, uint64_t b, uint64_t end, unsigned tid)
{
	(void)tid;
	struct parse_job *job = arg;
	for (uint64_t pi = b; pi < end; pi++) {
		struct piece *p = &job->pieces[pi];
		const char *s = p->s;
		p->nkeys = p->lines = p->entries = p->bad = p->loops = p->max_id = 0;
		p->first_bad = -1;
		/* room for a line of every 6 bytes up front: doubling a large
		 * array copies it, and untouched pages cost nothing */
		const size_t guess = (size_t)(p->e - p->s) / 6 + 1024;
		if (p->cap < guess) {
			free(p->keys);
			p->cap = 0;
			if (!(p->keys = malloc(guess * sizeof(*p->keys)))) {
				p->oom = 1;
				return;
			}
			p->cap = guess;
		}
		while (s < p->e) {
			const char *next;
			uint64_t u = 0, v = 0;
			enum line_kind k = parse_line(s, p->e, job->base, &u, &v, &next);
			if (k == LINE_EDGE && (u >= job->rows || v >= job->cols))
				k = LINE_RANGE; /* past a Matrix Market size line */
			p->entries += k != LINE_SKIP;
			const uint64_t key = k == LINE_EDGE ? io_edge_key(u, v) : 0;
			if (k == LINE_EDGE && !key) {
				p->loops++;
			} else if (k == LINE_EDGE) {
				if (p->nkeys == p->cap) {
					size_t cap = p->cap ? p->cap * 2 : 1 << 16;
					uint64_t *nk = realloc(p->keys, cap * sizeof(*nk));
					if (!nk) {
						p->oom = 1;
						return;
					}
					p->keys = nk;
					p->cap = cap;
				}
				p->max_id = (key & 0xffffffffu) > p->max_id ? key & 0xffffffffu : p->max_id;
				p->keys[p->nkeys++] = key;
			} else if (k != LINE_SKIP) {
				if (p->first_bad < 0 || (hard_kind(k) && !hard_kind(p->bad_kind))) {
					p->first_bad = (int64_t)p->lines;
					p->bad_kind = k;
					const char *le = line_end(s, p->e);
					size_t n = (size_t)(le - s) < SNIPPET ? (size_t)(le - s) : SNIPPET;
					memcpy(p->snippet, s, n);
					p->snippet[n] = '\0';
					while (n > 0 && (p->snippet[n - 1] == '\r'))
						p->snippet[--n] = '\0';
				}
				p->bad++;
			}
			p->lines++;
			s = next;
		}
	}
}

/* The reader thread: fills the next buffer while the current one parses. */
struct fill_job {
	struct io_tsrc *src;
	struct io_tbuf *buf;
	size_t want;
	int rc;
	struct tsg_err err;
};

static void *fill_thread(void *arg)
{
	struct fill_job *f = arg;
	f->rc = io_tsrc_read(f->src, f->buf, f->want, &f->err);
	return NULL;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* A Matrix Market size line: rows, columns, entries (nnz). Entries must
 * lie within rows x cols, and the file must hold exactly nnz of them. */
struct mtx_size {
	uint64_t rows, cols, nnz;
	uint64_t line; /* where it was */
};

/* Consumes a Matrix Market banner, comments and size line from the front of
 * the buffer: *used gets the bytes consumed, *lines the lines, *sz the
 * size line. */
static int mtx_header(const char *path, struct io_tbuf *src, uint64_t *lines, size_t *used,
		      struct mtx_size *sz, struct tsg_err *err)
{
	size_t at = 0;
	*lines = 0;
	for (;;) {
		const char *e = src->p + src->len;
		char *nl = (char *)line_end(src->p + at, e);
		if (nl == e)
			return tsg_fail(err, TSG_EINPUT, "%s: Matrix Market header incomplete", path);
		const char *after = line_next(nl, e);
		*nl = '\0';
		char *line = src->p + at;
		(*lines)++;
		at = (size_t)(after - src->p);
		if (*lines == 1) {
			char obj[32], fmt[32], field[32], sym[32];
			if (sscanf(line, "%%%%MatrixMarket %31s %31s %31s %31s", obj, fmt, field, sym) != 4 ||
			    strcasecmp(obj, "matrix") != 0)
				return tsg_fail(err, TSG_EINPUT, "%s:1: bad Matrix Market banner '%.80s'",
						path, line);
			if (strcasecmp(fmt, "coordinate") != 0)
				return tsg_fail(err, TSG_EINPUT, "%s:1: Matrix Market '%s' format holds no "
						"edge list (need coordinate)", path, fmt);
			if (strcasecmp(field, "complex") == 0)
				return tsg_fail(err, TSG_EINPUT, "%s:1: complex Matrix Market values are "
						"not supported", path);
			continue;
		}
		if (line[0] == '%')
			continue;
		unsigned long long r, c, nnz;
		char extra;
		if (sscanf(line, "%llu %llu %llu %c", &r, &c, &nnz, &extra) != 3)
			return tsg_fail(err, TSG_EINPUT, "%s:%llu: bad Matrix Market size line '%.80s'",
					path, (unsigned long long)*lines, line);
		const uint64_t nv = r > c ? r : c;
		if (nv > (uint64_t)MAX_ID + 1)
			return tsg_fail(err, TSG_EINPUT, "%s:%llu: %llu vertices exceed the 32-bit id "
					"range", path, (unsigned long long)*lines,
					(unsigned long long)nv);
		*sz = (struct mtx_size){ .rows = r, .cols = c, .nnz = nnz, .line = *lines };
		*used = at;
		return TSG_OK;
	}
}

/* Some edge lists open with a line holding only the vertex count. Consumes
 * it if the first line that is not a comment is a single integer. */
static int count_header(const struct io_tbuf *src, uint64_t *lines, size_t *used, uint64_t *nv)
{
	size_t at = 0;
	uint64_t n = 0;
	while (at < src->len) {
		const char *s = src->p + at, *e = line_end(s, src->p + src->len);
		const size_t next = (size_t)(line_next(e, src->p + src->len) - src->p);
		n++;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (s == e || *s == '#' || *s == '%') {
			at = next;
			continue;
		}
		int big = 0;
		uint64_t v;
		const char *p = parse_id(s, e, &v, &big);
		if (!p || big || v > (uint64_t)MAX_ID + 1)
			return 0;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p != e)
			return 0; /* an edge (or garbage): not a header */
		*nv = v;
		*lines = n;
		*used = next;
		return 1;
	}
	return 0;
}

/* A file named .tsg is a tristream graph or nothing: never read as text.
 * One that is empty or lacks the magic is truncated or damaged, and reading
 * it as an edge list would make it an empty graph, or a wrong one. */
static int not_a_tsg(const char *path, struct tsg_err *err)
{
	if (!has_suffix(path, ".tsg"))
		return TSG_OK;
	char magic[8];
	struct stat st;
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return TSG_OK; /* the opener names the failure */
	const int size_ok = fstat(fd, &st) == 0;
	const ssize_t n = read(fd, magic, sizeof(magic));
	close(fd);
	if (size_ok && st.st_size == 0)
		return tsg_fail(err, TSG_EINPUT, "%s: empty file (0 bytes): not a tristream graph, "
				"and a file named .tsg is never read as a text edge list", path);
	if (n == (ssize_t)sizeof(magic) && memcmp(magic, IO_MAGIC, sizeof(magic)) == 0)
		return tsg_fail(err, TSG_EINPUT, "%s is a tristream graph already, not a text edge "
				"list (tristream count and info read it as it is)", path);
	return tsg_fail(err, TSG_EINPUT, "%s: no tristream magic in its first bytes (truncated or "
			"damaged?): not a tristream graph, and a file named .tsg is never read as a "
			"text edge list", path);
}

/* Vertices are ids 0 .. the largest (or a leading count line's number):
 * every one of them costs memory (about 36 bytes in a count), an edge or
 * not. Where the id range is far beyond anything the text could touch, a
 * 10-byte file would take gigabytes: such ids are refused, with the way
 * out (--relabel renumbers the ids that have edges densely, in memory in
 * proportion to the edges; the triangle count is the same). */
enum {
	SPARSE_SLACK = 1u << 20, /* vertices any file may have */
	SPARSE_PER_LINE = 16,    /* and this many more a line of text */
};

static int sparse_ids(const char *path, const struct io_builder *b,
		      const struct io_text_stats *stats, struct tsg_err *err)
{
	const uint64_t nv = io_builder_vertex_count(b);
	if (io_builder_relabels(b) || nv <= SPARSE_SLACK ||
	    nv / SPARSE_PER_LINE <= stats->lines)
		return TSG_OK;
	char what[96];
	if (stats->header_vertices == nv)
		snprintf(what, sizeof(what), "declares %llu vertices",
			 (unsigned long long)stats->header_vertices);
	else
		snprintf(what, sizeof(what), "has ids up to %llu", (unsigned long long)nv - 1);
	return tsg_fail(err, TSG_EINPUT, "%s %s in %llu lines (%llu edges): nearly every vertex "
			"would be without an edge, yet take memory; renumber the ids densely "
			"(tristream-convert --relabel, which drops the isolated vertices; the "
			"triangle count is the same)", path, what, (unsigned long long)stats->lines,
			(unsigned long long)stats->edges);
}

int io_text_read(const char *path, const struct io_text_opts *opts, struct io_builder *b,
		 struct io_text_stats *stats, struct tsg_err *err)
{
	struct io_tsrc *src = NULL;
	struct io_tbuf bufs[2] = { { 0 } }, *cur = &bufs[0], *nxt = &bufs[1];
	const unsigned threads = opts->threads ? opts->threads : tsg_default_threads();
	const size_t round = (size_t)PIECE * threads;
	struct piece *pieces = calloc(threads, sizeof(*pieces));
	struct io_key_part *parts = calloc(threads, sizeof(*parts));
	struct tsg_progress prog;
	uint64_t line_base = 0, entries = 0;
	int rc = pieces && parts ? not_a_tsg(path, err) : tsg_fail(err, TSG_ENOMEM, "out of memory");
	if (rc == TSG_OK)
		rc = io_tsrc_open(path, threads, opts->gzip, &src, err);
	if (rc) {
		free(pieces);
		free(parts);
		return rc;
	}
	memset(stats, 0, sizeof(*stats));
	stats->decoder = io_tsrc_decoder(src);
	stats->gzip_members = io_tsrc_members(src);
	tsg_progress_init(&prog, "convert", "B", io_tsrc_file_size(src), opts->progress);
	/* an edge line takes 4 bytes at least ("0 1\n"): a bound on the keys of
	 * a plain file (a compressed one's text size is not known here) */
	if (io_tsrc_plain_size(src))
		io_builder_expect(b, io_tsrc_plain_size(src) / 4 + 1);
	rc = io_tsrc_read(src, cur, round, err);
	if (rc)
		goto done;
	enum io_text_format fmt = opts->format;
	if (fmt == IO_TEXT_AUTO) {
		if (strncmp(cur->p, "%%MatrixMarket", 14) == 0)
			fmt = IO_TEXT_MTX;
		else if (has_suffix(path, ".tsv") || has_suffix(path, ".tsv.gz"))
			fmt = IO_TEXT_TSV;
		else
			fmt = IO_TEXT_EDGELIST;
	}
	stats->format = fmt;
	struct parse_job job = { .pieces = pieces, .base = fmt == IO_TEXT_EDGELIST ? 0 : 1,
				 .rows = UINT64_MAX, .cols = UINT64_MAX };
	size_t start = 0;
	struct mtx_size sz = { 0 };
	if (fmt == IO_TEXT_MTX) {
		rc = mtx_header(path, cur, &line_base, &start, &sz, err);
		if (rc)
			goto done;
		job.rows = sz.rows;
		job.cols = sz.cols;
		stats->header_vertices = sz.rows > sz.cols ? sz.rows : sz.cols;
		io_builder_reserve_vertices(b, stats->header_vertices);
	} else if (fmt == IO_TEXT_EDGELIST) {
		uint64_t nv = 0;
		if (count_header(cur, &line_base, &start, &nv)) {
			stats->header_vertices = nv;
			io_builder_reserve_vertices(b, nv);
		}
	}
	for (;;) {
		/* cut the buffer into pieces that end on line boundaries */
		size_t end = cur->len;
		const int eof = io_tsrc_eof(src);
		if (!eof) {
			while (end > start && !ends_line(cur->p, end, cur->len))
				end--;
			if (end == start) { /* a line longer than the buffer: read more */
				rc = io_tsrc_read(src, cur, round, err);
				if (rc)
					goto done;
				continue;
			}
		}
		/* the unparsed tail opens the next buffer, which the reader
		 * thread fills while this one is parsed */
		nxt->len = 0;
		if (!io_tbuf_put(nxt, cur->p + end, cur->len - end)) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory reading %s", path);
			goto done;
		}
		struct fill_job fj = { .src = src, .buf = nxt, .want = round };
		pthread_t reader;
		const int threaded = !eof && pthread_create(&reader, NULL, fill_thread, &fj) == 0;
		size_t span = end - start, per = span / threads + 1;
		const char *s = cur->p + start;
		unsigned np = 0;
		while (s < cur->p + end && np < threads) {
			const char *e = np + 1 == threads || s + per >= cur->p + end ? cur->p + end
				       : s + per;
			while (e < cur->p + end && !ends_line(cur->p, (size_t)(e - cur->p), end))
				e++;
			pieces[np].s = s;
			pieces[np].e = e;
			np++;
			s = e;
		}
		tsg_parallel_for(threads, np, 1, parse_piece, &job);
		if (threaded)
			pthread_join(reader, NULL);
		else if (!eof)
			fill_thread(&fj);
		for (unsigned i = 0; i < np; i++) {
			struct piece *p = &pieces[i];
			if (p->oom) {
				rc = tsg_fail(err, TSG_ENOMEM, "out of memory parsing %s", path);
				goto done;
			}
			if (p->first_bad >= 0 && (hard_kind(p->bad_kind) || !opts->skip_bad)) {
				char why[160];
				if (p->bad_kind == LINE_RANGE)
					snprintf(why, sizeof(why), "entry outside the %llu x %llu matrix "
						 "of the size line (line %llu)",
						 (unsigned long long)sz.rows, (unsigned long long)sz.cols,
						 (unsigned long long)sz.line);
				else
					snprintf(why, sizeof(why), "%s", p->bad_kind == LINE_BIG
						 ? "vertex id does not fit 32 bits (the format stores "
						   "ids below 2^32-1)"
						 : "malformed edge line (expected two non-negative "
						   "integer ids)");
				rc = tsg_fail(err, TSG_EINPUT, "%s:%llu: %s: '%s'", path,
					      (unsigned long long)(line_base + p->first_bad + 1), why,
					      p->snippet);
				goto done;
			}
			stats->bad_lines += p->bad;
			line_base += p->lines;
			entries += p->entries;
			parts[i] = (struct io_key_part){ .keys = p->keys, .n = p->nkeys,
							 .loops = p->loops, .max_id = p->max_id };
			stats->edges += p->nkeys + p->loops;
		}
		rc = io_builder_add_canon_parts(b, parts, np, err);
		if (rc)
			goto done;
		stats->bytes += end - start;
		if (fj.rc) {
			*err = fj.err;
			rc = fj.rc;
			goto done;
		}
		struct io_tbuf *t = cur;
		cur = nxt;
		nxt = t;
		start = 0;
		if (eof && cur->len == 0)
			break;
		tsg_progress_update(&prog, io_tsrc_consumed(src), NULL);
	}
	stats->lines = line_base;
	if (fmt == IO_TEXT_MTX && entries != sz.nnz) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: %llu entries, but the size line (line %llu) says "
			      "%llu (file is truncated or corrupt)", path, (unsigned long long)entries,
			      (unsigned long long)sz.line, (unsigned long long)sz.nnz);
		goto done;
	}
	rc = sparse_ids(path, b, stats, err);
done:
	tsg_progress_done(&prog);
	for (unsigned i = 0; i < threads; i++)
		free(pieces[i].keys);
	free(pieces);
	free(parts);
	free(bufs[0].p);
	free(bufs[1].p);
	io_tsrc_close(src);
	return rc;
}
