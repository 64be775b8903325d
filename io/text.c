#include "io/text.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/progress.h"
#include "base/util.h"

enum {
	PIECE = 4u << 20,          /* bytes of text a thread parses per round */
	MAX_ID = 0xfffffffeu,      /* so that nv = max id + 1 fits 32 bits */
	SNIPPET = 80,
};

enum line_kind { LINE_EDGE, LINE_SKIP, LINE_BAD, LINE_BIG };

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

static int is_sep(char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r'; }

static const char *parse_id(const char *s, const char *e, uint64_t *v, int *big)
{
	if (s >= e || !isdigit((unsigned char)*s))
		return NULL;
	uint64_t x = 0;
	for (; s < e && isdigit((unsigned char)*s); s++) {
		if (x > (UINT64_MAX - 9) / 10)
			*big = 1;
		else
			x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return s;
}

/* One line [s, e) without its '\n'. base is 1 for 1-based formats. */
static enum line_kind parse_line(const char *s, const char *e, unsigned base, uint64_t *key)
{
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s == e || *s == '#' || *s == '%')
		return LINE_SKIP;
	uint64_t u, v;
	int big = 0;
	if (!(s = parse_id(s, e, &u, &big)) || s == e || !is_sep(*s))
		return LINE_BAD;
	while (s < e && is_sep(*s))
		s++;
	if (!(s = parse_id(s, e, &v, &big)) || (s < e && !is_sep(*s)))
		return LINE_BAD;
	if (base && (u == 0 || v == 0))
		return LINE_BAD; /* 0 in a 1-based file */
	u -= base;
	v -= base;
	if (big || u > MAX_ID || v > MAX_ID)
		return LINE_BIG;
	*key = u << 32 | v;
	return LINE_EDGE;
}

struct piece {
	const char *s, *e;
	uint64_t *keys;
	size_t nkeys, cap;
	uint64_t lines, bad;
	int64_t first_bad;      /* line index in the piece, -1 if none */
	enum line_kind bad_kind;
	char snippet[SNIPPET + 1];
	int oom;
};

struct parse_job {
	struct piece *pieces;
	unsigned base;
};

static void parse_piece(void *arg, uint64_t b, uint64_t end, unsigned tid)
{
	(void)tid;
	struct parse_job *job = arg;
	for (uint64_t pi = b; pi < end; pi++) {
		struct piece *p = &job->pieces[pi];
		const char *s = p->s;
		p->nkeys = p->lines = p->bad = 0;
		p->first_bad = -1;
		while (s < p->e) {
			const char *nl = memchr(s, '\n', (size_t)(p->e - s));
			const char *le = nl ? nl : p->e;
			uint64_t key;
			enum line_kind k = parse_line(s, le, job->base, &key);
			if (k == LINE_EDGE) {
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
				p->keys[p->nkeys++] = key;
			} else if (k != LINE_SKIP) {
				if (p->first_bad < 0 || (k == LINE_BIG && p->bad_kind != LINE_BIG)) {
					p->first_bad = (int64_t)p->lines;
					p->bad_kind = k;
					size_t n = (size_t)(le - s) < SNIPPET ? (size_t)(le - s) : SNIPPET;
					memcpy(p->snippet, s, n);
					p->snippet[n] = '\0';
					while (n > 0 && (p->snippet[n - 1] == '\r'))
						p->snippet[--n] = '\0';
				}
				p->bad++;
			}
			p->lines++;
			s = nl ? nl + 1 : p->e;
		}
	}
}

struct source {
	gzFile gz;
	const char *path;
	uint64_t file_size; /* compressed, 0 if unknown */
	char *buf;
	size_t len, cap;
	int eof;
};

static int source_open(struct source *src, const char *path, struct tsg_err *err)
{
	memset(src, 0, sizeof(*src));
	src->path = path;
	int fd = strcmp(path, "-") == 0 ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tsg_fail_errno(err, errno == ENOENT ? TSG_EINPUT : TSG_EIO, errno, "%s", path);
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		src->file_size = (uint64_t)st.st_size;
	else if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return tsg_fail(err, TSG_EINPUT, "%s: is a directory", path);
	}
	src->gz = gzdopen(fd, "rb"); /* reads plain text transparently too */
	if (!src->gz) {
		close(fd);
		return tsg_fail(err, TSG_ENOMEM, "%s: cannot start decompressor", path);
	}
	/* zlib's buffers: 1 MiB for large inputs, less where the file is small */
	gzbuffer(src->gz, src->file_size && src->file_size < (1u << 20) ? 64u << 10 : 1u << 20);
	return TSG_OK;
}

/* Appends up to `want` more bytes; sets eof at the end of input. */
static int source_fill(struct source *src, size_t want, struct tsg_err *err)
{
	while (want > 0 && !src->eof) {
		/* the buffer grows as text arrives (doubling, up to what is wanted),
		 * so a small file does not pay for a round's full PIECE buffers */
		if (src->len + 1 >= src->cap) {
			size_t cap = src->cap ? 2 * src->cap : 64u << 10;
			if (cap > src->len + want + 1)
				cap = src->len + want + 1;
			char *nb = realloc(src->buf, cap);
			if (!nb)
				return tsg_fail(err, TSG_ENOMEM, "out of memory reading %s", src->path);
			src->buf = nb;
			src->cap = cap;
		}
		const size_t room = src->cap - src->len - 1;
		const size_t take = want < room ? want : room;
		unsigned chunk = take > (1u << 30) ? 1u << 30 : (unsigned)take;
		int r = gzread(src->gz, src->buf + src->len, chunk);
		if (r < 0) {
			int zerr;
			const char *msg = gzerror(src->gz, &zerr);
			if (zerr == Z_ERRNO)
				return tsg_fail_errno(err, TSG_EIO, errno, "%s: read", src->path);
			if (zerr == Z_MEM_ERROR)
				return tsg_fail(err, TSG_ENOMEM, "%s: out of memory decompressing", src->path);
			return tsg_fail(err, TSG_EINPUT, "%s: corrupt gzip stream (%s)", src->path, msg);
		}
		if (r == 0)
			src->eof = 1;
		src->len += (size_t)r;
		want -= (size_t)r;
	}
	if (!src->buf && !(src->buf = malloc(src->cap = 1)))
		return tsg_fail(err, TSG_ENOMEM, "out of memory reading %s", src->path);
	src->buf[src->len] = '\0';
	return TSG_OK;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Consumes a Matrix Market banner, comments and size line from the front of
 * the buffer: *used gets the bytes consumed, *lines the lines, *nv the
 * declared vertex count. */
static int mtx_header(struct source *src, uint64_t *lines, size_t *used, uint64_t *nv,
		      struct tsg_err *err)
{
	size_t at = 0;
	*lines = 0;
	for (;;) {
		char *nl = memchr(src->buf + at, '\n', src->len - at);
		if (!nl)
			return tsg_fail(err, TSG_EINPUT, "%s: Matrix Market header incomplete", src->path);
		*nl = '\0';
		char *line = src->buf + at;
		(*lines)++;
		at = (size_t)(nl - src->buf) + 1;
		if (*lines == 1) {
			char obj[32], fmt[32], field[32], sym[32];
			if (sscanf(line, "%%%%MatrixMarket %31s %31s %31s %31s", obj, fmt, field, sym) != 4 ||
			    strcasecmp(obj, "matrix") != 0)
				return tsg_fail(err, TSG_EINPUT, "%s:1: bad Matrix Market banner '%.80s'",
						src->path, line);
			if (strcasecmp(fmt, "coordinate") != 0)
				return tsg_fail(err, TSG_EINPUT, "%s:1: Matrix Market '%s' format holds no "
						"edge list (need coordinate)", src->path, fmt);
			if (strcasecmp(field, "complex") == 0)
				return tsg_fail(err, TSG_EINPUT, "%s:1: complex Matrix Market values are "
						"not supported", src->path);
			continue;
		}
		if (line[0] == '%')
			continue;
		unsigned long long r, c, nnz;
		char extra;
		if (sscanf(line, "%llu %llu %llu %c", &r, &c, &nnz, &extra) != 3)
			return tsg_fail(err, TSG_EINPUT, "%s:%llu: bad Matrix Market size line '%.80s'",
					src->path, (unsigned long long)*lines, line);
		*nv = r > c ? r : c;
		if (*nv > (uint64_t)MAX_ID + 1)
			return tsg_fail(err, TSG_EINPUT, "%s:%llu: %llu vertices exceed the 32-bit id "
					"range", src->path, (unsigned long long)*lines,
					(unsigned long long)*nv);
		*used = at;
		return TSG_OK;
	}
}

/* Some edge lists open with a line holding only the vertex count. Consumes
 * it if the first line that is not a comment is a single integer. */
static int count_header(struct source *src, uint64_t *lines, size_t *used, uint64_t *nv)
{
	size_t at = 0;
	uint64_t n = 0;
	while (at < src->len) {
		char *nl = memchr(src->buf + at, '\n', src->len - at);
		size_t end = nl ? (size_t)(nl - src->buf) : src->len;
		const char *s = src->buf + at, *e = src->buf + end;
		n++;
		while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == e || *s == '#' || *s == '%') {
			at = end + 1;
			continue;
		}
		int big = 0;
		uint64_t v;
		const char *p = parse_id(s, e, &v, &big);
		if (!p || big || v > (uint64_t)MAX_ID + 1)
			return 0;
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p != e)
			return 0; /* an edge (or garbage): not a header */
		*nv = v;
		*lines = n;
		*used = nl ? end + 1 : end;
		return 1;
	}
	return 0;
}

int io_text_read(const char *path, const struct io_text_opts *opts, struct io_builder *b,
		 struct io_text_stats *stats, struct tsg_err *err)
{
	struct source src;
	unsigned threads = opts->threads ? opts->threads : tsg_default_threads();
	struct piece *pieces = calloc(threads, sizeof(*pieces));
	struct tsg_progress prog;
	uint64_t line_base = 0;
	int rc = pieces ? source_open(&src, path, err) : tsg_fail(err, TSG_ENOMEM, "out of memory");
	if (rc) {
		free(pieces);
		return rc;
	}
	memset(stats, 0, sizeof(*stats));
	tsg_progress_init(&prog, "convert", "B", src.file_size, opts->progress);
	rc = source_fill(&src, (size_t)PIECE * threads, err);
	if (rc)
		goto done;
	enum io_text_format fmt = opts->format;
	if (fmt == IO_TEXT_AUTO) {
		if (strncmp(src.buf, "%%MatrixMarket", 14) == 0)
			fmt = IO_TEXT_MTX;
		else if (has_suffix(path, ".tsv") || has_suffix(path, ".tsv.gz"))
			fmt = IO_TEXT_TSV;
		else
			fmt = IO_TEXT_EDGELIST;
	}
	stats->format = fmt;
	struct parse_job job = { .pieces = pieces, .base = fmt == IO_TEXT_EDGELIST ? 0 : 1 };
	size_t start = 0;
	if (fmt == IO_TEXT_MTX) {
		uint64_t nv = 0;
		rc = mtx_header(&src, &line_base, &start, &nv, err);
		if (rc)
			goto done;
		stats->header_vertices = nv;
		io_builder_reserve_vertices(b, nv);
	} else if (fmt == IO_TEXT_EDGELIST) {
		uint64_t nv = 0;
		if (count_header(&src, &line_base, &start, &nv)) {
			stats->header_vertices = nv;
			io_builder_reserve_vertices(b, nv);
		}
	}
	for (;;) {
		/* cut the buffer into pieces that end on line boundaries */
		size_t end = src.len;
		if (!src.eof) {
			while (end > start && src.buf[end - 1] != '\n')
				end--;
			if (end == start) { /* a line longer than the buffer: read more */
				rc = source_fill(&src, (size_t)PIECE * threads, err);
				if (rc)
					goto done;
				continue;
			}
		}
		size_t span = end - start, per = span / threads + 1;
		const char *s = src.buf + start;
		unsigned np = 0;
		while (s < src.buf + end && np < threads) {
			const char *e = np + 1 == threads || s + per >= src.buf + end ? src.buf + end
				       : s + per;
			while (e < src.buf + end && e[-1] != '\n')
				e++;
			pieces[np].s = s;
			pieces[np].e = e;
			np++;
			s = e;
		}
		tsg_parallel_for(threads, np, 1, parse_piece, &job);
		for (unsigned i = 0; i < np; i++) {
			struct piece *p = &pieces[i];
			if (p->oom) {
				rc = tsg_fail(err, TSG_ENOMEM, "out of memory parsing %s", path);
				goto done;
			}
			if (p->first_bad >= 0 && (p->bad_kind == LINE_BIG || !opts->skip_bad)) {
				rc = tsg_fail(err, TSG_EINPUT, "%s:%llu: %s: '%s'", path,
					      (unsigned long long)(line_base + p->first_bad + 1),
					      p->bad_kind == LINE_BIG
						      ? "vertex id does not fit 32 bits (the format "
							"stores ids below 2^32-1)"
						      : "malformed edge line (expected two non-negative "
							"integer ids)",
					      p->snippet);
				goto done;
			}
			stats->bad_lines += p->bad;
			line_base += p->lines;
			rc = io_builder_add(b, p->keys, p->nkeys, err);
			if (rc)
				goto done;
			stats->edges += p->nkeys;
		}
		stats->bytes += end - start;
		/* keep the unparsed tail, then read more */
		memmove(src.buf, src.buf + end, src.len - end);
		src.len -= end;
		start = 0;
		if (src.eof && src.len == 0)
			break;
		rc = source_fill(&src, (size_t)PIECE * threads, err);
		if (rc)
			goto done;
		tsg_progress_update(&prog, src.file_size ? (uint64_t)gzoffset(src.gz) : stats->bytes,
				    NULL);
	}
	stats->lines = line_base;
done:
	tsg_progress_done(&prog);
	for (unsigned i = 0; i < threads; i++)
		free(pieces[i].keys);
	free(pieces);
	free(src.buf);
	gzclose(src.gz);
	return rc;
}
