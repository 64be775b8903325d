/*
 * text_source.c - plain, libdeflate and zlib text sources (see
 * text_source.h).
 */
#include "io/text_source.h"

#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "io/reader.h"
#include "base/util.h"

enum mode { M_PLAIN, M_DEFLATE, M_ZLIB };

struct member {
	uint64_t at, len;  /* compressed bytes in the file */
	char *text;        /* decoded, or NULL */
	size_t text_len;
	int ok;
};

struct io_tsrc {
	enum mode mode;
	const char *path;
	int fd;
	uint64_t file_size, consumed;
	int eof;
	gzFile gz;
	/* libdeflate: the decoded members, served in order */
	struct member *mem;
	size_t nmem, at_mem, at_byte;
	uint64_t text_total, text_served;
};

static size_t grow_buf(struct io_tbuf *b, size_t want)
{
	if (b->len + want + 1 > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64u << 10;
		if (cap < b->len + want + 1)
			cap = b->len + want + 1;
		char *p = realloc(b->p, cap);
		if (!p)
			return 0;
		b->p = p;
		b->cap = cap;
	}
	return b->cap - b->len - 1;
}

int io_tbuf_put(struct io_tbuf *b, const char *p, size_t n)
{
	if (!grow_buf(b, n) && n)
		return 0;
	if (!b->p && !grow_buf(b, 1))
		return 0;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 1;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A gzip member header could start at p: magic, deflate, no reserved flags. */
static int header_at(const uint8_t *in, uint64_t n, uint64_t p)
{
	return p + 18 <= n && in[p] == 0x1f && in[p + 1] == 0x8b && in[p + 2] == 8 &&
	       (in[p + 3] & 0xe0) == 0;
}

/* The gzip magic at p, with at least its two bytes there. */
static int magic_at(const uint8_t *in, uint64_t n, uint64_t p)
{
	return p + 2 <= n && in[p] == 0x1f && in[p + 1] == 0x8b;
}

struct guess_job {
	const uint8_t *in;
	struct member *m;
	uint64_t budget;
};

/* Decodes each guess as the member that ends where the next guess starts;
 * its trailer's size says how much text to expect. A wrong guess fails
 * the decode, the length, the size or the CRC, and is dropped. */
static void decode_guesses(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct guess_job *j = ctx;
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	for (uint64_t i = b; d && i < e; i++) {
		struct member *m = &j->m[i];
		if (m->len < 18)
			continue; /* shorter than any member: header, empty block, trailer */
		const uint64_t isize = le32(j->in + m->at + m->len - 4);
		/* deflate expands at most 1032:1; a larger claim is not this member */
		if (isize > 1032 * m->len || isize > j->budget)
			continue;
		m->text = malloc(isize + 1); /* + 1: a reader may adopt it, NUL-terminated */
		size_t in_used = 0, out_used = 0;
		if (m->text &&
		    libdeflate_gzip_decompress_ex(d, j->in + m->at, m->len, m->text, isize, &in_used,
						  &out_used) == LIBDEFLATE_SUCCESS &&
		    in_used == m->len && out_used == isize) {
			m->text_len = out_used;
			m->ok = 1;
		} else {
			free(m->text);
			m->text = NULL;
		}
	}
	libdeflate_free_decompressor(d);
}

/* Decodes the member at p in order, its size unknown: the output grows
 * until it fits or passes budget. Returns TSG_OK, 1 when over budget, or
 * an error. */
static int decode_one(struct io_tsrc *s, const uint8_t *in, uint64_t n, uint64_t p,
		      uint64_t budget, struct member *m, struct tsg_err *err)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	/* the file's last 4 bytes give a single member's size (mod 2^32):
	 * one decode instead of a retry per doubling */
	const uint64_t last = n - p >= 4 ? le32(in + n - 4) : 0;
	size_t cap = last >= n - p && last <= 1032 * (n - p) ? last + 1 : 4 * (n - p);
	if (cap < (1u << 20))
		cap = 1u << 20;
	int rc = d ? TSG_OK : tsg_fail(err, TSG_ENOMEM, "out of memory");
	memset(m, 0, sizeof(*m));
	m->at = p;
	while (rc == TSG_OK) {
		if (cap > budget) {
			rc = 1;
			break;
		}
		char *t = realloc(m->text, cap + 1); /* + 1 as in decode_guesses */
		if (!t) {
			rc = 1; /* cannot hold it: stream it instead */
			break;
		}
		m->text = t;
		tsg_advise_huge(t, cap); /* a fresh gigabyte faults page by page otherwise */
		size_t in_used = 0, out_used = 0;
		const enum libdeflate_result r =
			libdeflate_gzip_decompress_ex(d, in + p, n - p, t, cap, &in_used, &out_used);
		if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
			cap *= 2;
			continue;
		}
		if (r != LIBDEFLATE_SUCCESS) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: corrupt gzip stream (member at byte %llu)",
				      s->path, (unsigned long long)p);
			break;
		}
		m->len = in_used;
		m->text_len = out_used;
		m->ok = 1;
		break;
	}
	libdeflate_free_decompressor(d);
	if (rc) {
		free(m->text);
		m->text = NULL;
	}
	return rc;
}

static void free_members(struct io_tsrc *s)
{
	for (size_t i = 0; i < s->nmem; i++)
		free(s->mem[i].text);
	free(s->mem);
	s->mem = NULL;
	s->nmem = 0;
}

/* The whole file through libdeflate. Returns TSG_OK, 1 where the text is
 * too large to hold (the caller streams it with zlib), or an error. */
static int deflate_all(struct io_tsrc *s, unsigned threads, struct tsg_err *err)
{
	const uint64_t n = s->file_size;
	const uint64_t budget = tsg_host_ram() ? tsg_host_ram() / 4 : 1ull << 30;
	void *map = mmap(NULL, n, PROT_READ, MAP_PRIVATE, s->fd, 0);
	if (map == MAP_FAILED)
		return 1;
	madvise(map, n, MADV_SEQUENTIAL);
	const uint8_t *in = map;
	struct member *g = NULL, *out = NULL;
	size_t ng = 0, nout = 0, capg = 0, capo = 0;
	uint64_t total = 0;
	int rc = TSG_OK;
	/* guesses: every header-like position */
	for (uint64_t p = 0; rc == TSG_OK && p < n;) {
		const uint8_t *x = memchr(in + p, 0x1f, n - p);
		if (!x)
			break;
		p = (uint64_t)(x - in);
		if (header_at(in, n, p)) {
			if (ng == capg) {
				capg = capg ? 2 * capg : 64;
				struct member *t = realloc(g, capg * sizeof(*t));
				if (!t) {
					rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
					break;
				}
				g = t;
			}
			g[ng++] = (struct member){ .at = p };
		}
		p++;
	}
	uint64_t claims = 0; /* what the guesses' trailers say they hold */
	for (size_t i = 0; i < ng; i++) {
		g[i].len = (i + 1 < ng ? g[i + 1].at : n) - g[i].at;
		claims += g[i].len >= 18 ? le32(in + g[i].at + g[i].len - 4) : 0;
	}
	if (rc == TSG_OK && ng > 1 && claims <= budget) {
		struct guess_job j = { in, g, budget };
		tsg_parallel_for(threads, ng, 1, decode_guesses, &j);
	}
	/* the chain from byte 0: a guess decoded where the chain arrives is
	 * taken; anywhere else the member is decoded now. Bytes that open
	 * with the gzip magic are a member, whole or not, as zlib takes them:
	 * a member cut short is an error, never a shorter text */
	size_t gi = 0;
	for (uint64_t p = 0; rc == TSG_OK && p < n && (p == 0 || magic_at(in, n, p));) {
		if (p > 0 && !header_at(in, n, p)) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: truncated gzip stream (the member at byte "
				      "%llu, %llu bytes, is cut short or damaged)", s->path,
				      (unsigned long long)p, (unsigned long long)(n - p));
			break;
		}
		while (gi < ng && g[gi].at < p)
			gi++;
		struct member m;
		if (gi < ng && g[gi].at == p && g[gi].ok) {
			m = g[gi];
			g[gi].text = NULL;
		} else {
			rc = decode_one(s, in, n, p, budget - total, &m, err);
			if (rc)
				break;
		}
		total += m.text_len;
		if (total > budget) {
			free(m.text);
			rc = 1;
			break;
		}
		if (nout == capo) {
			capo = capo ? 2 * capo : 64;
			struct member *t = realloc(out, capo * sizeof(*t));
			if (!t) {
				free(m.text);
				rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
				break;
			}
			out = t;
		}
		out[nout++] = m;
		p += m.len;
	}
	/* bytes after the last member that do not open with the gzip magic
	 * are ignored, as zlib and gzip do */
	for (size_t i = 0; i < ng; i++)
		free(g[i].text);
	free(g);
	munmap(map, n);
	s->mem = out;
	s->nmem = nout;
	s->text_total = total;
	if (rc) {
		free_members(s);
		return rc;
	}
	return TSG_OK;
}

/* Whether auto takes libdeflate: many threads, or members to share out
 * (a second member header within the first megabyte says bgzip or joined
 * files; a false match only costs the zlib stream's overlap). */
static int deflate_wins(int fd, uint64_t size, unsigned threads)
{
	if (threads >= 4)
		return 1;
	const size_t want = size < (1u << 20) ? (size_t)size : 1u << 20;
	uint8_t *head = malloc(want);
	const ssize_t n = head ? pread(fd, head, want, 0) : -1;
	int many = 0;
	for (ssize_t p = 1; !many && n > 0 && p < n; p++)
		many = header_at(head, (uint64_t)n, (uint64_t)p);
	free(head);
	return many;
}

int io_tsrc_open(const char *path, unsigned threads, enum io_gzip gzip, struct io_tsrc **out,
		 struct tsg_err *err)
{
	struct io_tsrc *s = calloc(1, sizeof(*s));
	if (!s)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	s->path = path;
	s->fd = strcmp(path, "-") == 0 ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		const int e = errno;
		free(s);
		return tsg_fail_errno(err, e == ENOENT ? TSG_EINPUT : TSG_EIO, e, "%s", path);
	}
	struct stat st;
	int rc = TSG_OK;
	if (fstat(s->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: is a directory", path);
		goto fail;
	}
	if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode))
		s->file_size = (uint64_t)st.st_size;
	uint8_t magic[2] = { 0, 0 };
	const int regular = s->file_size > 0;
	if (regular) {
		if (pread(s->fd, magic, 2, 0) < 0) {
			rc = tsg_fail_errno(err, TSG_EIO, errno, "%s: read", path);
			goto fail;
		}
		posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
	if (regular && !(magic[0] == 0x1f && magic[1] == 0x8b)) {
		s->mode = M_PLAIN;
	} else if (regular && gzip != IO_GZIP_ZLIB &&
		   (gzip == IO_GZIP_LIBDEFLATE || deflate_wins(s->fd, s->file_size, threads)) &&
		   (rc = deflate_all(s, threads ? threads : 1, err)) != 1) {
		if (rc)
			goto fail;
		s->mode = M_DEFLATE;
	} else {
		rc = TSG_OK;
		/* stdin, a pipe, or a text too large to hold: zlib streams it
		 * (and passes plain text through) */
		s->mode = M_ZLIB;
		const int fd2 = dup(s->fd);
		s->gz = fd2 >= 0 ? gzdopen(fd2, "rb") : NULL;
		if (!s->gz) {
			if (fd2 >= 0)
				close(fd2);
			rc = tsg_fail(err, TSG_ENOMEM, "%s: cannot start decompressor", path);
			goto fail;
		}
		gzbuffer(s->gz, s->file_size && s->file_size < (1u << 20) ? 64u << 10 : 1u << 20);
	}
	*out = s;
	return TSG_OK;
fail:
	io_tsrc_close(s);
	return rc;
}

/* A plain file's reads go on helper threads where large (io_pread_parallel:
 * one thread copies text out of the page cache at about 1.5 GB/s on the
 * H100's host, slower than sixteen threads parse it). Fewer bytes than
 * wanted, and no error: the end of the file. */
static int read_plain(struct io_tsrc *s, struct io_tbuf *b, size_t want, struct tsg_err *err)
{
	uint64_t got;
	const int e = io_pread_parallel(s->fd, s->consumed, want, b->p + b->len, NULL, NULL, &got);
	b->len += got;
	s->consumed += got;
	if (e)
		return tsg_fail_errno(err, TSG_EIO, e, "%s: read", s->path);
	s->eof = got < want;
	return TSG_OK;
}

static int read_zlib(struct io_tsrc *s, struct io_tbuf *b, size_t want, struct tsg_err *err)
{
	while (want > 0 && !s->eof) {
		const unsigned chunk = want > (1u << 30) ? 1u << 30 : (unsigned)want;
		const int r = gzread(s->gz, b->p + b->len, chunk);
		if (r < 0) {
			int zerr;
			const char *msg = gzerror(s->gz, &zerr);
			if (zerr == Z_ERRNO)
				return tsg_fail_errno(err, TSG_EIO, errno, "%s: read", s->path);
			if (zerr == Z_MEM_ERROR)
				return tsg_fail(err, TSG_ENOMEM, "%s: out of memory decompressing", s->path);
			return tsg_fail(err, TSG_EINPUT, "%s: corrupt gzip stream (%s)", s->path, msg);
		}
		if (r == 0) {
			/* zlib ends a truncated stream quietly: Z_BUF_ERROR is its
			 * only sign, and the text read so far must not pass as all */
			int zerr;
			gzerror(s->gz, &zerr);
			if (zerr == Z_BUF_ERROR)
				return tsg_fail(err, TSG_EINPUT, "%s: truncated gzip stream", s->path);
			s->eof = 1;
		}
		b->len += (size_t)r;
		want -= (size_t)r;
	}
	s->consumed = (uint64_t)gzoffset(s->gz);
	return TSG_OK;
}

/* Progress and the end, after members were served. */
static void members_served(struct io_tsrc *s)
{
	if (s->at_mem == s->nmem)
		s->eof = 1;
	s->consumed = s->text_total ? (uint64_t)((double)s->file_size * (double)s->text_served /
						 (double)s->text_total) : s->file_size;
}

/* Whether the next member is handed over whole: into an empty buffer, a
 * member not started and at least half a read. */
static int member_adoptable(const struct io_tsrc *s, const struct io_tbuf *b, size_t want)
{
	return s->mode == M_DEFLATE && b->len == 0 && s->at_mem < s->nmem && s->at_byte == 0 &&
	       s->mem[s->at_mem].text_len >= want / 2;
}

/* The buffer becomes the member's text, not a copy of it (decoders leave
 * a byte for the NUL). */
static void adopt_member(struct io_tsrc *s, struct io_tbuf *b)
{
	struct member *m = &s->mem[s->at_mem++];
	free(b->p);
	b->p = m->text;
	b->len = m->text_len;
	b->cap = m->text_len + 1;
	m->text = NULL;
	s->text_served += b->len;
	members_served(s);
}

static void read_members(struct io_tsrc *s, struct io_tbuf *b, size_t want)
{
	while (want > 0 && s->at_mem < s->nmem) {
		struct member *m = &s->mem[s->at_mem];
		const size_t left = m->text_len - s->at_byte, take = want < left ? want : left;
		memcpy(b->p + b->len, m->text + s->at_byte, take);
		b->len += take;
		want -= take;
		s->at_byte += take;
		s->text_served += take;
		if (s->at_byte == m->text_len) {
			free(m->text); /* served: its memory goes back at once */
			m->text = NULL;
			s->at_mem++;
			s->at_byte = 0;
		}
	}
	members_served(s);
}

int io_tsrc_read(struct io_tsrc *s, struct io_tbuf *b, size_t want, struct tsg_err *err)
{
	int rc = TSG_OK;
	if (member_adoptable(s, b, want))
		adopt_member(s, b);
	else if (!grow_buf(b, want))
		return tsg_fail(err, TSG_ENOMEM, "out of memory reading %s", s->path);
	else if (s->mode == M_PLAIN)
		rc = read_plain(s, b, want, err);
	else if (s->mode == M_ZLIB)
		rc = read_zlib(s, b, want, err);
	else
		read_members(s, b, want);
	b->p[b->len] = '\0';
	return rc;
}

int io_tsrc_eof(const struct io_tsrc *s) { return s->eof; }
uint64_t io_tsrc_file_size(const struct io_tsrc *s) { return s->file_size; }
uint64_t io_tsrc_plain_size(const struct io_tsrc *s)
{
	return s->mode == M_PLAIN ? s->file_size : 0;
}
uint64_t io_tsrc_consumed(const struct io_tsrc *s) { return s->consumed; }
uint64_t io_tsrc_members(const struct io_tsrc *s) { return s->mode == M_DEFLATE ? s->nmem : 0; }

const char *io_tsrc_decoder(const struct io_tsrc *s)
{
	static const char *const names[] = { "plain", "libdeflate", "zlib" };
	return names[s->mode];
}

void io_tsrc_close(struct io_tsrc *s)
{
	if (!s)
		return;
	if (s->gz)
		gzclose(s->gz);
	if (s->fd >= 0)
		close(s->fd);
	free_members(s);
	free(s);
}
