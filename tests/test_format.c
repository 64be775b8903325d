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

/* An oriented file's rows read as a count reads them: up (as io_graph_load
 * does) or from the end down; 0 or the error, g freed on an error. */
static int load_oriented(const char *p, enum io_mode m, int down, struct tsg_graph *g,
			 struct tsg_err *err)
{
	const struct io_load_opts lo = { .io = m, .threads = 3, .oriented = 1 };
	memset(err, 0, sizeof(*err));
	int rc = io_graph_open(p, &lo, g, err);
	if (rc == 0)
		rc = down ? io_graph_read_lists_down(g, NULL, NULL, err)
			  : io_graph_read_lists(g, NULL, NULL, err);
	if (rc)
		io_graph_free(g);
	return rc;
}

/* b's file (len bytes) loaded in every mode, up and down: refused with
 * TSG_EINPUT naming the file and holding needle (NULL: any), or where
 * up_ok, loaded read up (the rows' pieces are not read up) and refused
 * only down. */
static void expect_oriented(struct t_state *st, const char *what, const uint8_t *b, size_t len,
			    const char *needle, int up_ok)
{
	const char *p = t_path("bad-oriented.tsg");
	spit(p, b, len);
	for (unsigned k = 0; k < 6; k++) {
		struct tsg_graph g;
		struct tsg_err err;
		const int down = k % 2, rc = load_oriented(p, modes[k / 2], down, &g, &err);
		if (up_ok && !down)
			CHECK(st, rc == 0, "%s (%s, up): loads, rc %d %s", what,
			      io_mode_name(modes[k / 2]), rc, err.msg);
		else
			CHECK(st, rc == TSG_EINPUT && strstr(err.msg, p) &&
				  (!needle || strstr(err.msg, needle)),
			      "%s (%s, %s): rc %d, message '%s'", what, io_mode_name(modes[k / 2]),
			      down ? "down" : "up", rc, err.msg);
		if (rc == 0)
			io_graph_free(&g);
	}
}

/* A plain oriented file's file of pieces of `piece` bytes: its row piece
 * checksum section (the file's last) rewritten for them and the file cut
 * to fit, every checksum recomputed. *len changes; b has room. */
static void refit_pieces(uint8_t *b, size_t *len, uint64_t piece)
{
	struct io_header h;
	struct tsg_err err = { 0 };
	if (io_header_decode(b, *len, *len, "refit", &h, &err) != 0 || h.nsections != 4)
		return;
	const struct io_section *rows = io_header_section(&h, IO_SEC_NEIGHBORS);
	struct io_section *sums = &h.sec[3];
	const uint64_t n = io_row_pieces(rows->size, piece);
	sums->size = 8 + 8 * n;
	memcpy(b + sums->offset, &piece, 8);
	for (uint64_t k = 0; k < n; k++) {
		const uint64_t at = k * piece, x = io_checksum(b + rows->offset + at,
							       rows->size - at < piece
								       ? rows->size - at : piece);
		memcpy(b + sums->offset + 8 + 8 * k, &x, 8);
	}
	*len = sums->offset + (sums->size + 4095) / 4096 * 4096;
	for (uint32_t i = 0; i < h.nsections; i++)
		h.sec[i].xxh3 = io_checksum(b + h.sec[i].offset, h.sec[i].size);
	io_header_encode(&h, b);
}

/* b's section table with one more entry (kind, offset, size), resealed. */
static void add_section(uint8_t *b, size_t len, uint32_t kind, uint64_t offset, uint64_t size)
{
	uint32_t nsec;
	memcpy(&nsec, b + 20, 4);
	uint8_t *e = b + 64 + 32 * nsec;
	memset(e, 0, 32);
	memcpy(e, &kind, 4);
	memcpy(e + 8, &offset, 8);
	memcpy(e + 16, &size, 8);
	nsec++;
	memcpy(b + 20, &nsec, 4);
	reseal(b, len);
}

/* The rows' piece checksums (format.h, IO_SEC_ROW_SUMS): laid out after
 * the rank map in plain oriented files only; every piece checked read
 * down, the top one first, and by info --verify; each lie about them
 * refused naming the file; a file without them read as before. */
static void check_row_sums(struct t_state *st)
{
	enum { NV = 3000, W = 8 };
	struct io_header h;
	struct tsg_err err = { 0 };
	/* layouts: 8 bytes and a checksum a 16 MiB piece, the last short */
	const uint64_t nes[] = { 0, 1, IO_ROW_PIECE / 4, IO_ROW_PIECE / 4 + 1,
				 10 * IO_ROW_PIECE / 4 - 3 };
	const uint64_t want[] = { 8, 16, 16, 24, 88 };
	for (unsigned k = 0; k < 5; k++) {
		const uint64_t size = io_header_layout_oriented(&h, 100, nes[k], 1, 2);
		const struct io_section *r = io_header_section(&h, IO_SEC_RANK_IDS);
		const struct io_section *x = io_header_section(&h, IO_SEC_ROW_SUMS);
		CHECK(st, h.nsections == 4 && x == &h.sec[3] && r && x->size == want[k] &&
			  x->offset == r->offset + 4096 && x->offset % 4096 == 0 &&
			  size == x->offset + 4096,
		      "layout of %llu edges: row piece checksums of %llu bytes at %llu, file %llu",
		      (unsigned long long)nes[k], (unsigned long long)(x ? x->size : 0),
		      (unsigned long long)(x ? x->offset : 0), (unsigned long long)size);
	}
	io_header_layout_oriented_lz4(&h, 100, 1000, 1, 2, 5000, 64);
	CHECK(st, !io_header_section(&h, IO_SEC_ROW_SUMS), "an LZ4 layout has no piece checksums");
	/* rank r's row: r + 1 .. r + W, below NV; the rank map the identity */
	uint64_t *off = malloc((NV + 1) * sizeof(*off));
	uint32_t *adj = malloc(NV * W * sizeof(*adj)), *id = malloc(NV * sizeof(*id));
	if (!off || !adj || !id) {
		CHECK(st, 0, "out of memory");
		goto done;
	}
	off[0] = 0;
	for (uint32_t r = 0; r < NV; r++) {
		id[r] = r;
		off[r + 1] = off[r];
		for (uint32_t w = r + 1; w <= r + W && w < NV; w++)
			adj[off[r + 1]++] = w;
	}
	const uint64_t ne = off[NV], rows_size = ne * 4;
	char *op = strdup(t_path("rows.o.tsg")), *zp = strdup(t_path("rows.oz.tsg"));
	int rc = io_graph_write_oriented(op, NV, off, adj, id, 2 * W, 2, 0, &err);
	CHECK(st, rc == 0, "oriented write: %s", err.msg);
	rc = rc ? rc : io_graph_write_oriented(zp, NV, off, adj, id, 2 * W, 2, 1, &err);
	CHECK(st, rc == 0, "oriented LZ4 write: %s", err.msg);
	size_t len = 0, zlen = 0;
	uint8_t *orig = rc ? NULL : slurp(op, &len), *z = rc ? NULL : slurp(zp, &zlen);
	uint8_t *b = orig ? malloc(len + (1u << 20)) : NULL;
	if (!orig || !z || !b) {
		CHECK(st, 0, "oriented files not read back");
		goto files;
	}
	rc = io_header_decode(orig, len, len, op, &h, &err);
	const struct io_section *rs = io_header_section(&h, IO_SEC_NEIGHBORS);
	const struct io_section *xs = io_header_section(&h, IO_SEC_ROW_SUMS);
	uint64_t piece = 0, sum0 = 0;
	if (rc == 0 && xs && xs->size == 16) {
		memcpy(&piece, orig + xs->offset, 8);
		memcpy(&sum0, orig + xs->offset + 8, 8);
	}
	CHECK(st, rc == 0 && h.nsections == 4 && rs && rs->size == rows_size && piece == IO_ROW_PIECE &&
		  sum0 == XXH3_64bits(orig + rs->offset, rows_size),
	      "written: one piece of %llu bytes, its checksum the rows' XXH3-64: %s",
	      (unsigned long long)piece, err.msg);
	CHECK(st, io_header_decode(z, zlen, zlen, zp, &h, &err) == 0 &&
		  !io_header_section(&h, IO_SEC_ROW_SUMS), "the LZ4 file has none: %s", err.msg);
	/* pieces of 4 KiB: several, the last short */
	memcpy(b, orig, len);
	refit_pieces(b, &len, 4096);
	free(orig);
	orig = malloc(len);
	memcpy(orig, b, len);
	const uint64_t np = io_row_pieces(rows_size, 4096);
	CHECK(st, np > 4 && rows_size % 4096, "%llu pieces, the last short", (unsigned long long)np);
	spit(op, orig, len);
	for (unsigned k = 0; k < 6; k++) {
		struct tsg_graph g;
		rc = load_oriented(op, modes[k / 2], k % 2, &g, &err);
		CHECK(st, rc == 0 && g.row_sums && g.row_piece == 4096 && g.nadj == ne &&
			  !memcmp(g.off, off, (NV + 1) * 8) && !memcmp(g.adj, adj, rows_size),
		      "pieces of 4 KiB, %s %s: %s", io_mode_name(modes[k / 2]), k % 2 ? "down" : "up",
		      err.msg);
		if (rc == 0) {
			CHECK(st, io_check_oriented_exact(&g, op, 2, &err) == 0, "verify: %s", err.msg);
			io_graph_free(&g);
		}
	}
	rc = io_header_decode(orig, len, len, op, &h, &err);
	rs = io_header_section(&h, IO_SEC_NEIGHBORS);
	xs = io_header_section(&h, IO_SEC_ROW_SUMS);
	if (rc || !rs || !xs) {
		CHECK(st, 0, "refitted file: %s", err.msg);
		goto files;
	}
	/* a row's last entry one higher, still a valid row: near the rows'
	 * end (the top piece, read first down) and at their start (piece 0).
	 * The section's checksum made to match, the pieces' left stale: read
	 * up it loads, read down the piece is named, and verify names it */
	const uint32_t at_rank[] = { NV - W - 10, 0 };
	for (unsigned k = 0; k < 2; k++) {
		const uint64_t x = off[at_rank[k] + 1] - 1, pk = x * 4 / 4096;
		char name[64];
		snprintf(name, sizeof(name), "piece %llu (", (unsigned long long)pk);
		CHECK(st, k ? pk == 0 : pk == np - 1, "damage in piece %llu", (unsigned long long)pk);
		memcpy(b, orig, len);
		((uint32_t *)(b + rs->offset))[x]++;
		reseal(b, len);
		expect_oriented(st, "a row changed, its pieces' checksum stale", b, len, name, 1);
		struct tsg_graph g;
		rc = load_oriented(t_path("bad-oriented.tsg"), IO_MODE_PREAD, 0, &g, &err);
		if (rc == 0) {
			rc = io_check_oriented_exact(&g, "verified", 2, &err);
			CHECK(st, rc == TSG_EINPUT && strstr(err.msg, name),
			      "verify of a stale piece: rc %d '%s'", rc, err.msg);
			io_graph_free(&g);
		}
		/* the section's checksum stale too: up, the section's mismatch */
		memcpy(b, orig, len);
		((uint32_t *)(b + rs->offset))[x]++;
		expect_oriented(st, "a row changed, both checksums stale", b, len, NULL, 0);
	}
	memcpy(b, orig, len);
	b[rs->offset + 8] ^= 1;
	expect_oriented(st, "a row byte changed", b, len, "checksum mismatch in the row section", 0);
	/* the piece checksums themselves */
	memcpy(b, orig, len);
	b[xs->offset + 8 + 8 * 2] ^= 1;
	expect_oriented(st, "a piece checksum changed", b, len, "row piece checksum section", 0);
	memcpy(b, orig, len);
	b[xs->offset + 8 + 8 * 2] ^= 1;
	reseal(b, len);
	expect_oriented(st, "a piece checksum changed, resealed", b, len, "piece 2 (", 1);
	const uint64_t lies[] = { 0, 4097, 2ull << 30, 8192, 1ull << 30 };
	for (unsigned k = 0; k < 5; k++) {
		memcpy(b, orig, len);
		memcpy(b + xs->offset, &lies[k], 8);
		reseal(b, len);
		char what[64];
		snprintf(what, sizeof(what), "pieces of %llu bytes", (unsigned long long)lies[k]);
		expect_oriented(st, what, b, len, "row piece checksums", 0);
	}
	const uint64_t sizes[] = { xs->size - 8, xs->size + 8, xs->size - 3, 0, 4 };
	for (unsigned k = 0; k < 5; k++) {
		memcpy(b, orig, len);
		memcpy(b + 64 + 32 * 3 + 16, &sizes[k], 8);
		reseal(b, len);
		char what[64];
		snprintf(what, sizeof(what), "a piece checksum section of %llu bytes",
			 (unsigned long long)sizes[k]);
		expect_oriented(st, what, b, len, "row piece checksums", 0);
	}
	/* kind 6 where it has no place: LZ4 rows, an undirected file */
	if (zlen <= len) {
		memcpy(b, z, zlen);
		add_section(b, zlen, IO_SEC_ROW_SUMS, 4096, 8);
		expect_oriented(st, "piece checksums in an LZ4 file", b, zlen, "LZ4 rows", 0);
	} else {
		CHECK(st, 0, "the LZ4 file is larger than the plain one");
	}
	{
		size_t ulen = 0;
		uint8_t *u = slurp(t_path("good.tsg"), &ulen);
		if (u && ulen <= len) {
			memcpy(b, u, ulen);
			add_section(b, ulen, IO_SEC_ROW_SUMS, 4096, 8);
			expect_bad(st, "piece checksums in an undirected file", b, ulen,
				   "not stored oriented");
		} else {
			CHECK(st, 0, "good.tsg not read back");
		}
		free(u);
	}
	/* written before them: section 6 gone from the table, read as before
	 * (down, the whole section's checksum once it is in) */
	memcpy(b, orig, len);
	{
		const uint32_t three = 3;
		memset(b + 64 + 32 * 3, 0, 32);
		memcpy(b + 20, &three, 4);
		reseal(b, len);
	}
	spit(op, b, len);
	for (unsigned k = 0; k < 6; k++) {
		struct tsg_graph g;
		rc = load_oriented(op, modes[k / 2], k % 2, &g, &err);
		CHECK(st, rc == 0 && !g.row_sums && !memcmp(g.adj, adj, rows_size),
		      "without piece checksums, %s %s: %s", io_mode_name(modes[k / 2]),
		      k % 2 ? "down" : "up", err.msg);
		if (rc == 0)
			io_graph_free(&g);
	}
	b[rs->offset + rows_size - 5] ^= 1;
	expect_oriented(st, "without piece checksums, a row byte changed", b, len,
			"checksum mismatch in the row section (file is corrupt)", 0);
	/* no rows: a piece size and no piece */
	{
		const uint64_t zoff[4] = { 0 };
		const uint32_t zid[3] = { 2, 0, 1 };
		rc = io_graph_write_oriented(op, 3, zoff, NULL, zid, 0, 1, 0, &err);
		for (unsigned k = 0; rc == 0 && k < 6; k++) {
			struct tsg_graph g;
			rc = load_oriented(op, modes[k / 2], k % 2, &g, &err);
			CHECK(st, rc == 0 && g.row_sums && g.nv == 3 && g.nadj == 0,
			      "no rows, %s: %s", k % 2 ? "down" : "up", err.msg);
			if (rc == 0)
				io_graph_free(&g);
		}
		CHECK(st, rc == 0, "no rows: %s", err.msg);
	}
files:
	free(orig);
	free(z);
	free(b);
	free(op);
	free(zp);
done:
	free(off);
	free(adj);
	free(id);
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
	uint64_t stop_at; /* nonzero: ready asks the read to stop once n reaches it */
	int bad;
};

/* ready for a read down: the last n bytes in place, n only growing */
static int on_ready_down(void *ctx, uint64_t n)
{
	struct ready_log *r = ctx;
	const uint64_t len = r->len;
	if (n <= r->last || n > len ||
	    memcmp(r->dst + len - n, r->want + len - n, n - r->last) != 0)
		r->bad = 1;
	r->last = n;
	r->calls++;
	return r->stop_at && n >= r->stop_at;
}

static int on_ready(void *ctx, uint64_t n)
{
	struct ready_log *r = ctx;
	if (n <= r->last || memcmp(r->dst + r->last, r->want + r->last, n - r->last) != 0)
		r->bad = 1;
	r->last = n;
	r->calls++;
	return r->stop_at && n >= r->stop_at;
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
	for (unsigned m = 0; m < 5; m++) { /* the three, auto, auto mapping a cached file */
		const enum io_mode mode = m < 3 ? modes[m] : IO_MODE_AUTO;
		const unsigned flags = m == 4 ? IO_OPEN_CACHED_MAP : 0;
		/* offset 4096 and a length O_DIRECT has to pad */
		const uint64_t at = 4096, n = len - at - 100;
		struct io_file *f;
		struct ready_log r = { .dst = dst, .want = data + at };
		memset(dst, 0, n);
		int rc = io_file_open(p, mode, flags, &f, &err);
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
		 * many steps, the last short, and one step of all of it; io_uring
		 * reads it as one stream whatever the step, telling of what is in
		 * place from the end after completions, and the others a step at a
		 * time. Lengths around the reads' 1 MiB and O_DIRECT's 4 KiB too. */
		const uint64_t lens[] = { n, 5000, 1u << 20, (1u << 20) + 4096, (3u << 20) + 1 };
		const uint64_t steps[] = { 1u << 20, n * 2 / 4096 * 4096 };
		for (unsigned k = 0; k < 2 * sizeof(lens) / sizeof(lens[0]); k++) {
			const uint64_t dn = lens[k / 2], step = steps[k % 2];
			struct ready_log d = { .dst = dst, .want = data + at, .len = dn };
			const int uring = io_file_mode(f) == IO_MODE_URING;
			memset(dst, 0, n);
			rc = io_file_read_stream_down(f, at, dn, dst, step, on_ready_down, &d, &err);
			CHECK(st, rc == 0 && memcmp(dst, data + at, dn) == 0 && !d.bad && d.last == dn &&
				  (uring ? d.calls >= 1 : d.calls == (dn + step - 1) / step),
			      "read %llu bytes down in steps of %llu, %s: rc %d, %llu calls, last %llu, %s",
			      (unsigned long long)dn, (unsigned long long)step,
			      io_mode_name(io_file_mode(f)), rc, (unsigned long long)d.calls,
			      (unsigned long long)d.last, d.bad ? "told of bytes not in place" : "in order");
		}
		CHECK(st, io_file_read_stream_down(f, at, n, dst, 4097, NULL, NULL, &err) ==
			      TSG_EINTERNAL, "a step that breaks O_DIRECT's alignment refused");
		err = (struct tsg_err){ 0 };
		/* ready asking to stop: the read ends there with TSG_EINTERRUPTED, up
		 * and down, having told of no byte not in place; one that asks only
		 * at the end changes nothing */
		for (int down = 0; down < 2; down++) {
			struct ready_log h = { .dst = dst, .want = data + at, .len = n, .stop_at = 1 };
			memset(dst, 0, n);
			rc = down ? io_file_read_stream_down(f, at, n, dst, 1u << 20, on_ready_down, &h,
							     &err)
				  : io_file_read_stream(f, at, n, dst, on_ready, &h, &err);
			/* (io_uring's reads may all complete before ready is first told:
			 * the whole is in at its one call, nothing left to stop) */
			const int whole = rc == 0 && h.calls == 1 && h.last == n &&
					  memcmp(dst, data + at, n) == 0;
			CHECK(st, whole || (rc == TSG_EINTERRUPTED && strstr(err.msg, "stopped") && !h.bad &&
					    h.last < n && h.calls >= 1),
			      "stopped read %s under %s: rc %d, %llu calls, last %llu of %llu '%s'",
			      down ? "down" : "up", io_mode_name(io_file_mode(f)), rc,
			      (unsigned long long)h.calls, (unsigned long long)h.last,
			      (unsigned long long)n, err.msg);
			err = (struct tsg_err){ 0 };
			h = (struct ready_log){ .dst = dst, .want = data + at, .len = n, .stop_at = n };
			memset(dst, 0, n);
			rc = down ? io_file_read_stream_down(f, at, n, dst, 1u << 20, on_ready_down, &h,
							     &err)
				  : io_file_read_stream(f, at, n, dst, on_ready, &h, &err);
			CHECK(st, rc == 0 && memcmp(dst, data + at, n) == 0 && !h.bad && h.last == n,
			      "a stop asked at the end %s under %s: rc %d '%s'", down ? "down" : "up",
			      io_mode_name(io_file_mode(f)), rc, err.msg);
		}
		/* the file was just written: in the page cache, so auto reads it
		 * buffered (mapped where asked), and says how much it found there */
		if (mode == IO_MODE_AUTO)
			CHECK(st, io_file_cached(f) >= 0.9 &&
				  io_file_mode(f) == (flags ? IO_MODE_MMAP : IO_MODE_PREAD) &&
				  (io_file_map(f) != NULL) == (flags != 0),
			      "auto%s on a cached file: %s, %.2f cached", flags ? " (mapping)" : "",
			      io_mode_name(io_file_mode(f)), io_file_cached(f));
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
		for (unsigned flags = 0; flags <= IO_OPEN_CACHED_MAP; flags += IO_OPEN_CACHED_MAP) {
			struct io_file *f;
			if (io_file_open(p, IO_MODE_AUTO, flags, &f, &err) != 0)
				continue;
			const double c = io_file_cached(f);
			CHECK(st, c >= 0.9 ? io_file_mode(f) == (flags ? IO_MODE_MMAP : IO_MODE_PREAD)
					   : io_file_mode(f) == IO_MODE_URING || io_file_note(f)[0],
			      "auto%s with %.2f cached read by %s", flags ? " (mapping)" : "", c,
			      io_mode_name(io_file_mode(f)));
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

/* A submission io_uring refuses (TSG_TEST_URING_FAIL_SUBMIT: the first,
 * second or fifth of a read in 4 KiB requests, so that reads the kernel
 * took are in flight): the read fails with TSG_EIO naming the file, after
 * waiting for those reads (their buffer is the caller's); the file then
 * reads on with buffered reads, up and down, whole and exact, and its note
 * says why. Where io_uring or O_DIRECT is not to be had here: said, and
 * not checked. */
static void test_uring_refused(struct t_state *st)
{
	const size_t len = (3u << 20) + 4096;
	uint8_t *data = malloc(len), *dst = aligned_alloc(4096, len);
	const char *p = t_path("refused.bin");
	if (!data || !dst) {
		CHECK(st, 0, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < len; i++)
		data[i] = (uint8_t)(i * 2654435761u >> 13);
	spit(p, data, len);
	static const char *const at[] = { "1", "2", "5" };
	for (unsigned k = 0; k < 3; k++) {
		struct tsg_err err = { 0 };
		struct io_file *f = NULL;
		setenv("TSG_URING_CHUNK_KIB", "4", 1);
		setenv("TSG_TEST_URING_FAIL_SUBMIT", at[k], 1);
		int rc = io_file_open(p, IO_MODE_URING, 0, &f, &err);
		unsetenv("TSG_URING_CHUNK_KIB");
		unsetenv("TSG_TEST_URING_FAIL_SUBMIT");
		CHECK(st, rc == 0, "open %s: %s", p, err.msg);
		if (rc)
			break;
		if (io_file_mode(f) != IO_MODE_URING) {
			printf("note: %s: %s; a refused io_uring submission not checked\n", p,
			       io_file_note(f));
			io_file_close(f);
			break;
		}
		memset(dst, 0, len);
		rc = io_file_read(f, 0, len, dst, &err);
		CHECK(st, rc == TSG_EIO && strstr(err.msg, p) && strstr(err.msg, "io_uring submit"),
		      "submission %s refused: rc %d '%s'", at[k], rc, err.msg);
		CHECK(st, io_file_mode(f) == IO_MODE_PREAD && strstr(io_file_note(f), "io_uring refused"),
		      "submission %s refused: then %s, note '%s'", at[k], io_mode_name(io_file_mode(f)),
		      io_file_note(f));
		memset(dst, 0, len);
		err = (struct tsg_err){ 0 };
		rc = io_file_read(f, 0, len, dst, &err);
		CHECK(st, rc == 0 && memcmp(dst, data, len) == 0,
		      "after submission %s was refused, read up: rc %d '%s'", at[k], rc, err.msg);
		memset(dst, 0, len);
		rc = io_file_read_stream_down(f, 0, len, dst, 0, NULL, NULL, &err);
		CHECK(st, rc == 0 && memcmp(dst, data, len) == 0,
		      "after submission %s was refused, read down: rc %d '%s'", at[k], rc, err.msg);
		io_file_close(f);
	}
	unlink(p);
done:
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

/* An oriented graph's undirected degrees by id (io_graph_load_degrees) on
 * 1, 2 and 3 threads against a count made here: ranks past 2^18 (the top
 * ones in each thread's own counters, the rest atomic), a band a row and
 * three hubs every row points to, ids a permutation of the ranks. */
static void check_degrees(struct t_state *st)
{
	enum { NV = (1u << 18) + 4096, W = 4, HUBS = 3 };
	struct tsg_err err = { 0 };
	uint64_t *off = malloc((NV + 1) * sizeof(*off));
	uint32_t *adj = malloc((uint64_t)NV * (W + HUBS) * sizeof(*adj));
	uint32_t *id = malloc(NV * sizeof(*id)), *want = calloc(NV, sizeof(*want));
	char *p = strdup(t_path("degrees.o.tsg"));
	if (!off || !adj || !id || !want || !p) {
		CHECK(st, 0, "out of memory");
		goto done;
	}
	off[0] = 0;
	for (uint32_t r = 0; r < NV; r++) {
		id[r] = (uint32_t)(((uint64_t)r * 7 + 3) % NV); /* 7 is prime to NV */
		off[r + 1] = off[r];
		for (uint32_t w = r + 1; w <= r + W && w < NV - HUBS; w++)
			adj[off[r + 1]++] = w;
		for (uint32_t w = NV - HUBS; w < NV; w++)
			if (w > r)
				adj[off[r + 1]++] = w;
	}
	uint32_t most = 0;
	for (uint32_t r = 0; r < NV; r++) {
		want[id[r]] += (uint32_t)(off[r + 1] - off[r]);
		for (uint64_t x = off[r]; x < off[r + 1]; x++)
			want[id[adj[x]]]++;
	}
	for (uint32_t v = 0; v < NV; v++)
		most = want[v] > most ? want[v] : most;
	int rc = io_graph_write_oriented(p, NV, off, adj, id, most, 2, 0, &err);
	CHECK(st, rc == 0, "oriented write: %s", err.msg);
	for (unsigned t = 1; rc == 0 && t <= 3; t++) {
		struct tsg_graph g;
		rc = load_oriented(p, IO_MODE_PREAD, 0, &g, &err);
		CHECK(st, rc == 0, "oriented load: %s", err.msg);
		if (rc)
			break;
		rc = io_graph_load_degrees(&g, t, &err);
		uint32_t bad = 0;
		for (uint32_t v = 0; rc == 0 && v < NV; v++)
			bad += io_graph_id_degree(&g, v) != want[v];
		CHECK(st, rc == 0 && bad == 0, "degrees on %u threads: %u of %u ids wrong (%s)", t,
		      bad, (unsigned)NV, err.msg);
		io_graph_free(&g);
	}
done:
	free(off);
	free(adj);
	free(id);
	free(want);
	free(p);
}

int main(void)
{
	struct t_state st = { 0 };
	check_hash(&st);
	check_degrees(&st);
	test_reader(&st);
	test_uring_refused(&st);
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
	check_row_sums(&st);
	check_symmetry_exact(&st);
	return t_finish(&st);
}
