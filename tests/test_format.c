/*
 * test_format.c - the binary format: round trips through every reader, and
 * every kind of damage (truncation, magic, version, flags, checksums, and
 * structural lies with valid checksums) gives TSG_EINPUT with a message
 * naming the file, never a crash or a count.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "io/format.h"
#include "io/hash.h"
#include "io/reader.h"
#include "io/check.h"
#include "testlib.h"
#include "io/writer.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(*len + 1);
	if (fread(b, 1, *len, f) != *len) {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

/* Writes a test file; a failure to write it is a failed test run, never a
 * silently missing or short file that a later load would misjudge. */
static void spit(const char *path, const uint8_t *b, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "FAIL: cannot write the test file %s\n", path);
		exit(1);
	}
}

/* Recomputes section and header checksums, so only structure is wrong. */
static void reseal(uint8_t *b, size_t len)
{
	struct io_header h;
	struct tsg_err err = { 0 };
	/* decode without the header checksum check: refresh it first */
	uint64_t c = io_checksum(b, IO_HEADER_SIZE - 8);
	memcpy(b + IO_HEADER_SIZE - 8, &c, 8);
	if (io_header_decode(b, len, len, "reseal", &h, &err) != 0)
		return;
	for (uint32_t i = 0; i < h.nsections; i++)
		h.sec[i].xxh3 = io_checksum(b + h.sec[i].offset, h.sec[i].size);
	io_header_encode(&h, b);
}

static const enum io_mode modes[] = { IO_MODE_MMAP, IO_MODE_PREAD, IO_MODE_URING };

static void expect_bad(struct t_state *st, const char *what, const uint8_t *b, size_t len,
		       const char *needle)
{
	const char *p = t_path("bad.tsg");
	spit(p, b, len);
	for (unsigned m = 0; m < 3; m++) {
		struct tsg_graph g;
		struct tsg_err err = { 0 };
		struct io_load_opts lo = { .io = modes[m], .threads = 2 };
		int rc = io_graph_load(p, &lo, &g, &err);
		CHECK(st, rc == TSG_EINPUT && strstr(err.msg, p) && (!needle || strstr(err.msg, needle)),
		      "%s (%s): rc %d, message '%s'", what, io_mode_name(modes[m]), rc, err.msg);
		if (rc == 0)
			io_graph_free(&g);
	}
}

/* The LZ4 variant: round trips through every reader (several chunks,
 * empty and edgeless graphs), and damage to chunks, the index or the
 * file's length is always an error naming the file. */
static void check_lz4(struct t_state *st)
{
	enum { N = 20000, M = 300000 };
	uint64_t *e = malloc(M * sizeof(*e)), seed = 5;
	struct tsg_graph raw;
	struct tsg_err err = { 0 };
	for (size_t i = 0; i < M; i++) /* ids with locality: small gaps, like a crawl */
		e[i] = (t_rand(&seed) % N) << 32 | 0;
	for (size_t i = 0; i < M; i++) {
		const uint64_t u = e[i] >> 32;
		e[i] = u << 32 | ((u + 1 + t_rand(&seed) % 64) % N);
	}
	const char *rp = strdup(t_path("lz4-raw.tsg")), *zp = strdup(t_path("lz4.tsg"));
	int rc = t_graph_from_edges(rp, e, M, N, &raw);
	free(e);
	CHECK(st, rc == 0, "lz4: base graph");
	if (rc)
		return;
	uint64_t zbytes = 0;
	rc = io_graph_write_lz4(zp, raw.nv, raw.off, raw.adj, 2, &zbytes, &err);
	CHECK(st, rc == 0, "lz4 write: %s", err.msg);
	size_t len = 0;
	uint8_t *orig = slurp(zp, &len), *b = malloc(len + 1);
	struct io_header h;
	CHECK(st, orig && io_header_decode(orig, len, len, zp, &h, &err) == 0 &&
	      (h.flags & IO_FLAG_LZ4) && len == zbytes, "lz4 header: %s", err.msg);
	const struct io_section *zs = io_header_section(&h, IO_SEC_NEIGHBORS_LZ4);
	const struct io_section *is = io_header_section(&h, IO_SEC_CHUNKS);
	CHECK(st, zs && is && is->size / 32 >= 2, "several chunks");
	CHECK(st, zs && zs->size < raw.nadj * 4 / 2, "lists with small gaps compress (%llu of %llu)",
	      (unsigned long long)(zs ? zs->size : 0), (unsigned long long)raw.nadj * 4);
	for (unsigned m = 0; m < 3; m++) {
		struct tsg_graph g;
		struct io_load_opts lo = { .io = modes[m], .threads = 3 };
		rc = io_graph_load(zp, &lo, &g, &err);
		CHECK(st, rc == 0 && g.compressed && g.nv == raw.nv && g.nadj == raw.nadj &&
		      memcmp(g.off, raw.off, (raw.nv + 1) * 8) == 0 &&
		      memcmp(g.adj, raw.adj, raw.nadj * 4) == 0, "lz4 round trip (%s): %s",
		      io_mode_name(modes[m]), err.msg);
		if (rc == 0)
			io_graph_free(&g);
	}
	if (!orig || !zs || !is)
		goto done;
	memcpy(b, orig, len); b[zs->offset + zs->size / 2] ^= 0x40;
	expect_bad(st, "lz4 chunk damaged", b, len, "checksum mismatch in compressed chunk");
	memcpy(b, orig, len); b[is->offset + 40] ^= 1;
	expect_bad(st, "lz4 index damaged", b, len, "chunk index");
	memcpy(b, orig, len); b[is->offset + 32] ^= 1; reseal(b, len); /* chunk 1 starts elsewhere */
	expect_bad(st, "lz4 index lie", b, len, "compressed chunk");
	memcpy(b, orig, len); b[is->offset + 8] = 1; reseal(b, len); /* chunk 0 not at 0 */
	expect_bad(st, "lz4 index offset lie", b, len, "bad index entry");
	{ /* bytes changed and the chunk checksum made to match: LZ4 or structure says no */
		memcpy(b, orig, len);
		uint32_t csize;
		memcpy(&csize, b + is->offset + 16, 4);
		for (uint32_t k = 0; k < csize; k += 7)
			b[zs->offset + k] ^= 0x5a;
		const uint64_t x = io_checksum(b + zs->offset, csize);
		memcpy(b + is->offset + 24, &x, 8);
		reseal(b, len);
		expect_bad(st, "lz4 stream garbled", b, len, NULL);
	}
	{ /* crafted headers, checksums recomputed (found by fuzzing): list
	   * entries the compressed bytes cannot hold, a vertex whose degree
	   * near 2^62 made 4 x count wrap, an edge count + 2^63 */
		const uint64_t counts[] = { raw.nadj + (1ull << 62), (1ull << 40) + 2, raw.nadj + 2 };
		for (int k = 0; k < 3; k++) {
			memcpy(b, orig, len);
			const uint64_t nadj = counts[k], ne = nadj / 2;
			memcpy(b + 40, &nadj, 8);
			memcpy(b + 32, &ne, 8);
			uint64_t last = nadj; /* the offsets and maximum degree agree with the lie */
			memcpy(b + 4096 + raw.nv * 8, &last, 8);
			const uint64_t maxdeg = nadj - raw.off[raw.nv - 1];
			memcpy(b + 48, &maxdeg, 8);
			reseal(b, len);
			expect_bad(st, "lz4 list entries beyond what the chunks hold", b, len, NULL);
		}
		memcpy(b, orig, len);
		const uint64_t ne = raw.nadj / 2 + (1ull << 63);
		memcpy(b + 32, &ne, 8);
		reseal(b, len);
		expect_bad(st, "lz4 edge count + 2^63", b, len, "inconsistent counts");
	}
	expect_bad(st, "lz4 cut in chunks", orig, zs->offset + zs->size / 2, "truncated");
	expect_bad(st, "lz4 cut in index", orig, is->offset + 16, "truncated");
	uint64_t fseed = 7;
	for (int i = 0; i < 100; i++) {
		memcpy(b, orig, len);
		const size_t at = t_rand(&fseed) % len;
		b[at] ^= (uint8_t)(1 + t_rand(&fseed) % 255);
		const char *p = t_path("fuzz-lz4.tsg");
		spit(p, b, len);
		struct tsg_graph g;
		struct io_load_opts lo = { .io = IO_MODE_PREAD, .threads = 2 };
		memset(&err, 0, sizeof(err));
		rc = io_graph_load(p, &lo, &g, &err);
		const int padding = (at >= 4096 + (raw.nv + 1) * 8 && at < zs->offset) ||
				    (at >= zs->offset + zs->size && at < is->offset) ||
				    at >= is->offset + is->size; /* the header checksum covers all 4 KiB */
		CHECK(st, rc == TSG_EINPUT || (rc == 0 && padding), "lz4 byte %zu damaged: rc %d %s", at,
		      rc, err.msg);
		if (rc == 0)
			io_graph_free(&g);
	}
	/* an empty graph and one without edges */
	for (int k = 0; k < 2; k++) {
		const uint64_t zoff[] = { 0, 0, 0, 0 };
		struct tsg_graph g;
		struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = 1 };
		rc = io_graph_write_lz4(zp, k ? 3 : 0, zoff, NULL, 1, NULL, &err);
		CHECK(st, rc == 0 && io_graph_load(zp, &lo, &g, &err) == 0 && g.nv == (k ? 3u : 0u) &&
		      g.nadj == 0, "lz4 edgeless graph %d: %s", k, err.msg);
		io_graph_free(&g);
	}
done:
	free(orig);
	free(b);
	io_graph_free(&raw);
	free((void *)rp);
	free((void *)zp);
}

/* The exact symmetry check: symmetric graphs pass, and an entry without its
 * reverse fails, also where the hash sum would cancel (an entry moved to a
 * list whose counts still balance). */
static void check_symmetry_exact(struct t_state *st)
{
	/* path 0-1-2 plus triangle 2-3-4: symmetric */
	static const uint64_t off[] = { 0, 1, 3, 6, 8, 10 };
	static const uint32_t adj[] = { 1, 0, 2, 1, 3, 4, 2, 4, 2, 3 };
	struct tsg_graph g = { .nv = 5, .nadj = 10, .max_degree = 3, .off = off, .adj = adj };
	struct tsg_err err = { 0 };
	for (unsigned t = 1; t <= 3; t++)
		CHECK(st, io_check_symmetry_exact(&g, "sym", t, &err) == 0, "symmetric: %s", err.msg);
	/* 4 lists 0 instead of 2: 4 -> 0 has no reverse */
	static const uint32_t bad1[] = { 1, 0, 2, 1, 3, 4, 2, 4, 0, 3 };
	g.adj = bad1;
	memset(&err, 0, sizeof(err));
	CHECK(st, io_check_symmetry_exact(&g, "sym", 2, &err) == TSG_EINPUT &&
	      strstr(err.msg, "not symmetric"), "4->0 unmatched: %s", err.msg);
	/* 0 lists 3 instead of 1, 3 lists 0 instead of 2: every entry that points
	 * down is matched, but 1 -> 0 and 2 -> 3 now point at lists without them */
	static const uint32_t bad2[] = { 3, 0, 2, 1, 3, 4, 0, 4, 2, 3 };
	g.adj = bad2;
	memset(&err, 0, sizeof(err));
	CHECK(st, io_check_symmetry_exact(&g, "sym", 2, &err) == TSG_EINPUT,
	      "swapped entries: rc ok, %s", err.msg);
	/* one entry pointing up with nothing pointing down: the counts disagree */
	static const uint64_t off3[] = { 0, 1, 1 };
	static const uint32_t adj3[] = { 1 };
	struct tsg_graph h = { .nv = 2, .nadj = 1, .max_degree = 1, .off = off3, .adj = adj3 };
	memset(&err, 0, sizeof(err));
	CHECK(st, io_check_symmetry_exact(&h, "sym", 1, &err) == TSG_EINPUT, "lone entry: %s", err.msg);
}

/* ready's calls: in order, growing, each a stretch already in place */
struct ready_log {
	const uint8_t *dst, *want;
	uint64_t last, calls;
	uint64_t len; /* a read down: the range's length */
	int bad;
};

/* ready for a read down: the last n bytes in place, n only growing */
static void on_ready_down(void *ctx, uint64_t n)
{
	struct ready_log *r = ctx;
	const uint64_t len = r->len;
	if (n <= r->last || n > len ||
	    memcmp(r->dst + len - n, r->want + len - n, n - r->last) != 0)
		r->bad = 1;
	r->last = n;
	r->calls++;
}

static void on_ready(void *ctx, uint64_t n)
{
	struct ready_log *r = ctx;
	if (n <= r->last || memcmp(r->dst + r->last, r->want + r->last, n - r->last) != 0)
		r->bad = 1;
	r->last = n;
	r->calls++;
}

/* The reader itself: --io auto's choice from the page cache, and ranges
 * read in every mode (buffered reads of a large range go on several
 * threads, in steps that complete out of order) with `ready` told only of
 * stretches in place; a file cut short is an error in every mode. */
static void test_reader(struct t_state *st)
{
	const size_t len = (37u << 20) + 12345; /* several read steps, not a whole one */
	uint8_t *data = malloc(len), *dst = aligned_alloc(4096, (len + 8191) / 4096 * 4096);
	const char *p = t_path("reader.bin");
	struct tsg_err err = { 0 };
	if (!data || !dst) {
		CHECK(st, 0, "out of memory");
		return;
	}
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		data[i] = (uint8_t)x;
	}
	spit(p, data, len);
	for (unsigned m = 0; m < 4; m++) {
		const enum io_mode mode = m < 3 ? modes[m] : IO_MODE_AUTO;
		/* offset 4096 and a length O_DIRECT has to pad */
		const uint64_t at = 4096, n = len - at - 100;
		struct io_file *f;
		struct ready_log r = { .dst = dst, .want = data + at };
		memset(dst, 0, n);
		int rc = io_file_open(p, mode, &f, &err);
		CHECK(st, rc == 0, "open %s: %s", io_mode_name(mode), err.msg);
		if (rc)
			continue;
		rc = io_file_read_stream(f, at, n, dst, on_ready, &r, &err);
		CHECK(st, rc == 0 && memcmp(dst, data + at, n) == 0 && !r.bad && r.last == n,
		      "read %s (%s): rc %d, ready %llu calls, last %llu of %llu, %s", io_mode_name(mode),
		      io_mode_name(io_file_mode(f)), rc, (unsigned long long)r.calls,
		      (unsigned long long)r.last, (unsigned long long)n,
		      r.bad ? "told of bytes not in place" : "in order");
		/* from the end down (an oriented file's rows, io_graph_read_lists_down):
		 * many steps, the last short, and one step of all of it */
		for (uint64_t step = 1u << 20; step; step = step == (1u << 20) ? n * 2 / 4096 * 4096 : 0) {
			struct ready_log d = { .dst = dst, .want = data + at, .len = n };
			memset(dst, 0, n);
			rc = io_file_read_stream_down(f, at, n, dst, step, on_ready_down, &d, &err);
			CHECK(st, rc == 0 && memcmp(dst, data + at, n) == 0 && !d.bad && d.last == n &&
				  d.calls == (n + step - 1) / step,
			      "read down in steps of %llu, %s: rc %d, %llu calls, last %llu of %llu, %s",
			      (unsigned long long)step, io_mode_name(io_file_mode(f)), rc,
			      (unsigned long long)d.calls, (unsigned long long)d.last,
			      (unsigned long long)n, d.bad ? "told of bytes not in place" : "in order");
		}
		CHECK(st, io_file_read_stream_down(f, at, n, dst, 4097, NULL, NULL, &err) ==
			      TSG_EINTERNAL, "a step that breaks O_DIRECT's alignment refused");
		err = (struct tsg_err){ 0 };
		/* the file was just written: in the page cache, so auto reads it
		 * buffered, and says how much it found there */
		if (mode == IO_MODE_AUTO)
			CHECK(st, io_file_cached(f) >= 0.9 && io_file_mode(f) == IO_MODE_PREAD,
			      "auto on a cached file: %s, %.2f cached", io_mode_name(io_file_mode(f)),
			      io_file_cached(f));
		else
			CHECK(st, io_file_cached(f) < 0, "no probe under %s", io_mode_name(mode));
		/* cut while open: every mode reports it, none reads past the end */
		if (truncate(p, (off_t)(len / 2)) == 0) {
			rc = io_file_read_stream(f, at, n, dst, NULL, NULL, &err);
			CHECK(st, rc != 0 && strstr(err.msg, p), "cut file under %s: rc %d '%s'",
			      io_mode_name(mode), rc, err.msg);
		} else {
			CHECK(st, 0, "cannot truncate %s", p);
		}
		io_file_close(f);
		spit(p, data, len);
	}
	/* out of the page cache (where the file system lets it go): auto
	 * keeps the direct reads, or says why it could not */
	int fd = open(p, O_RDONLY);
	if (fd >= 0 && fdatasync(fd) == 0 && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0) {
		struct io_file *f;
		if (io_file_open(p, IO_MODE_AUTO, &f, &err) == 0) {
			const double c = io_file_cached(f);
			CHECK(st, c >= 0.9 ? io_file_mode(f) == IO_MODE_PREAD
					   : io_file_mode(f) == IO_MODE_URING || io_file_note(f)[0],
			      "auto with %.2f cached read by %s", c, io_mode_name(io_file_mode(f)));
			if (c >= 0.9)
				printf("note: the file system kept %s cached (%.2f): the uncached "
				       "case was not reached\n", p, c);
			io_file_close(f);
		}
	}
	if (fd >= 0)
		close(fd);
	unlink(p);
	free(data);
	free(dst);
}

/* io/hash.h against libxxhash's own XXH3-64 (the reference the format
 * names): every length around the algorithm's block edges, and a stream
 * fed in uneven pieces, whichever vector build this CPU runs. */
static void check_hash(struct t_state *st)
{
	enum { N = (1u << 20) + 4099 };
	uint8_t *b = malloc(N);
	if (!b) {
		CHECK(st, 0, "out of memory");
		return;
	}
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		b[i] = (uint8_t)x;
	}
	unsigned bad = 0;
	for (size_t len = 0; len < 2200; len++)
		bad += io_hash_once(b + (len & 7), len) != XXH3_64bits(b + (len & 7), len);
	CHECK(st, bad == 0, "io_hash_once differs from XXH3_64bits at %u lengths", bad);
	const size_t step[] = { 1, 7, 64, 240, 1024, 4095, 65537 };
	for (size_t k = 0; k < sizeof(step) / sizeof(step[0]); k++) {
		struct io_hash *h = io_hash_new();
		if (!h) {
			CHECK(st, 0, "out of memory");
			break;
		}
		size_t at = 0;
		for (size_t i = 0; at < N; i++) {
			size_t n = step[k] * (1 + i % 3);
			n = n < N - at ? n : N - at;
			io_hash_update(h, b + at, n);
			at += n;
		}
		CHECK(st, io_hash_digest(h) == XXH3_64bits(b, N), "stream in pieces of %zu", step[k]);
		io_hash_free(h);
	}
	free(b);
}

int main(void)
{
	struct t_state st = { 0 };
	check_hash(&st);
	test_reader(&st);
	/* a small graph: a 4-cycle with one chord, and an isolated vertex 4 */
	const uint64_t off[] = { 0, 3, 5, 8, 10, 10 };
	const uint32_t adj[] = { 1, 2, 3, 0, 2, 0, 1, 3, 0, 2 };
	struct tsg_err err = { 0 };
	const char *good = strdup(t_path("good.tsg"));
	CHECK(&st, io_graph_write(good, 5, off, adj, &err) == 0, "write: %s", err.msg);

	for (unsigned m = 0; m < 3; m++) {
		struct tsg_graph g;
		struct io_load_opts lo = { .io = modes[m], .threads = 2 };
		memset(&err, 0, sizeof(err));
		int rc = io_graph_load(good, &lo, &g, &err);
		CHECK(&st, rc == 0, "load %s: %s", io_mode_name(modes[m]), err.msg);
		if (rc)
			continue;
		CHECK(&st, g.nv == 5 && g.nadj == 10 && g.max_degree == 3, "counts");
		CHECK(&st, memcmp(g.off, off, sizeof(off)) == 0 && memcmp(g.adj, adj, sizeof(adj)) == 0,
		      "arrays round trip (%s)", io_mode_name(modes[m]));
		CHECK(&st, t_ref_count(&g) == 2, "two triangles");
		io_graph_free(&g);
	}

	/* io_uring unavailable: the reader falls back and says why */
	setenv("TSG_DISABLE_URING", "1", 1);
	{
		struct tsg_graph g;
		struct io_load_opts lo = { .io = IO_MODE_URING, .threads = 1 };
		memset(&err, 0, sizeof(err));
		int rc = io_graph_load(good, &lo, &g, &err);
		CHECK(&st, rc == 0 && g.io_used == IO_MODE_PREAD && strstr(g.io_note, "io_uring"),
		      "fallback: rc %d mode %s note '%s'", rc, io_mode_name(g.io_used), g.io_note);
		if (rc == 0)
			io_graph_free(&g);
	}
	unsetenv("TSG_DISABLE_URING");

	/* an empty graph is valid */
	{
		const uint64_t zoff[] = { 0 };
		struct tsg_graph g;
		struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = 1 };
		const char *p = t_path("empty.tsg");
		memset(&err, 0, sizeof(err));
		CHECK(&st, io_graph_write(p, 0, zoff, NULL, &err) == 0, "write empty: %s", err.msg);
		CHECK(&st, io_graph_load(p, &lo, &g, &err) == 0 && g.nv == 0, "load empty: %s", err.msg);
		io_graph_free(&g);
	}

	size_t len;
	uint8_t *orig = slurp(good, &len), *b = malloc(len);
	CHECK(&st, orig && len % 4096 == 0, "file is padded to 4 KiB");
	if (!orig)
		return t_finish(&st);
	const size_t off_sec = 4096, adj_sec = 8192;

	expect_bad(&st, "empty file", orig, 0, "shorter than");
	expect_bad(&st, "header only, cut", orig, 100, "shorter than");
	expect_bad(&st, "cut after header", orig, 4096, "truncated");
	expect_bad(&st, "cut in neighbours", orig, adj_sec + 8, "truncated");
	memcpy(b, orig, len); b[0] ^= 1;
	expect_bad(&st, "magic", b, len, "magic");
	memcpy(b, orig, len); b[8] = 9; reseal(b, len);
	expect_bad(&st, "version", b, len, "version");
	memcpy(b, orig, len); b[12] = 1; reseal(b, len); /* 64-bit ids: not supported */
	expect_bad(&st, "flags", b, len, "flags");
	memcpy(b, orig, len); b[12] = 2; reseal(b, len); /* claims LZ4, has plain lists */
	expect_bad(&st, "LZ4 flag on a plain file", b, len, "compressed file without");
	memcpy(b, orig, len); b[30] ^= 1;
	expect_bad(&st, "header checksum", b, len, "header checksum");
	memcpy(b, orig, len); b[adj_sec + 4] ^= 0x10;
	expect_bad(&st, "neighbour checksum", b, len, "checksum mismatch");
	memcpy(b, orig, len); b[off_sec + 8] ^= 1;
	expect_bad(&st, "offset checksum", b, len, "checksum mismatch");
	/* structural lies behind valid checksums */
	uint32_t *badj = (uint32_t *)(b + adj_sec);
	uint64_t *boff = (uint64_t *)(b + off_sec);
	memcpy(b, orig, len); badj[0] = 77; reseal(b, len);
	expect_bad(&st, "id out of range", b, len, "vertex 0");
	memcpy(b, orig, len); badj[0] = 0; reseal(b, len);
	expect_bad(&st, "self-loop", b, len, "vertex 0");
	memcpy(b, orig, len); badj[0] = 2; badj[1] = 1; reseal(b, len);
	expect_bad(&st, "unsorted list", b, len, "vertex 0");
	memcpy(b, orig, len); boff[1] = 6; boff[2] = 5; reseal(b, len);
	expect_bad(&st, "offsets not monotone", b, len, NULL);
	memcpy(b, orig, len); badj[2] = 4; reseal(b, len);
	expect_bad(&st, "asymmetric", b, len, "symmetric");
	memcpy(b, orig, len); b[48] = 2; reseal(b, len);
	expect_bad(&st, "max degree lie", b, len, "maximum degree");
	memcpy(b, orig, len); b[24] = 200; reseal(b, len);
	expect_bad(&st, "vertex count lie", b, len, NULL);
	{ /* the edge count + 2^63: twice it wraps to the list-entry count */
		memcpy(b, orig, len);
		uint64_t ne;
		memcpy(&ne, b + 32, 8);
		ne += 1ull << 63;
		memcpy(b + 32, &ne, 8);
		reseal(b, len);
		expect_bad(&st, "edge count + 2^63", b, len, "inconsistent counts");
	}
	memcpy(b, orig, len); b[72] = 1; reseal(b, len);
	expect_bad(&st, "section offset unaligned", b, len, NULL);
	/* random single-byte damage anywhere never loads silently */
	uint64_t seed = 99;
	for (int i = 0; i < 200; i++) {
		memcpy(b, orig, len);
		size_t at = t_rand(&seed) % (adj_sec + sizeof(adj));
		b[at] ^= (uint8_t)(1 + t_rand(&seed) % 255);
		if (memcmp(b, orig, len) == 0)
			continue;
		const char *p = t_path("fuzz.tsg");
		spit(p, b, len);
		struct tsg_graph g;
		struct io_load_opts lo = { .io = IO_MODE_PREAD, .threads = 1 };
		memset(&err, 0, sizeof(err));
		int rc = io_graph_load(p, &lo, &g, &err);
		/* damage in padding after a section is not covered; everything else is */
		int in_padding = (at >= off_sec + sizeof(off) && at < adj_sec) || at >= adj_sec + sizeof(adj);
		CHECK(&st, rc == TSG_EINPUT || (rc == 0 && in_padding), "byte %zu damaged: rc %d", at, rc);
		if (rc == 0)
			io_graph_free(&g);
	}
	free(orig);
	free(b);
	free((void *)good);
	check_lz4(&st);
	check_symmetry_exact(&st);
	return t_finish(&st);
}
