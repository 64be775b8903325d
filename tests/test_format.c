/*
 * test_format.c - the binary format: round trips through every reader, and
 * every kind of damage (truncation, magic, version, flags, checksums, and
 * structural lies with valid checksums) gives TSG_EINPUT with a message
 * naming the file, never a crash or a count.
 */
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "reader.h"
#include "testlib.h"
#include "writer.h"

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

static void spit(const char *path, const uint8_t *b, size_t len)
{
	FILE *f = fopen(path, "wb");
	fwrite(b, 1, len, f);
	fclose(f);
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

int main(void)
{
	struct t_state st = { 0 };
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
		struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = 1 };
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
	memcpy(b, orig, len); b[12] = 2; reseal(b, len);
	expect_bad(&st, "flags", b, len, "flags");
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
	return t_finish(&st);
}
