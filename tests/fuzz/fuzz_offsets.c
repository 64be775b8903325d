/*
 * fuzz_offsets.c - a crawl's .offsets decoded on one thread and on several
 * (io/webgraph.c: the serial decode, and pieces parsed on their own that a
 * serial walk joins where they fall into step), differentially. Bytes 0-1
 * give the node count (1..65536), byte 2 the .graph file's size (256 bytes
 * to 64 KiB, zeros: the offsets must lie within its bits), byte 3 the
 * offsets' code (gamma, delta, unary or zeta_1..3, by compressionflags
 * and zetak); the rest
 * is the .offsets file, the transpose's the same. io_crawl_open on 1 and
 * on 4 threads must agree: the same exit, the same message, and where both
 * open, the same identity (a checksum of every offset of both files).
 * Anything else aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "io/webgraph.h"

static int put(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	const int ok = n == 0 || fwrite(b, 1, n, f) == n;
	return fclose(f) == 0 && ok ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t zeros[1 << 16];
	if (size < 4 || size > (1u << 18))
		return 0;
	const char *const dir = fuzz_dir("off");
	if (!dir)
		return 0;
	static const char *const codes[] = { "OFFSETS_GAMMA", "OFFSETS_DELTA", "OFFSETS_UNARY",
					     "OFFSETS_ZETA" };
	const unsigned nodes = 1 + (data[0] << 8 | data[1]);
	const size_t gbytes = 256 + (size_t)data[2] * 256;
	const unsigned code = data[3] % 6; /* gamma, delta, unary, zeta_1..3 */
	char props[512], path[4400];
	const int n = snprintf(props, sizeof(props),
			       "nodes=%u\narcs=0\nwindowsize=7\nmaxrefcount=3\nminintervallength=4\n"
			       "zetak=%u\ncompressionflags=%s\n", nodes, code >= 3 ? code - 2 : 3,
			       codes[code < 3 ? code : 3]);
	const char *const sfx[2] = { "", "-t" };
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/g%s.properties", dir, sfx[i]);
		if (put(path, props, (size_t)n))
			return 0;
		snprintf(path, sizeof(path), "%s/g%s.graph", dir, sfx[i]);
		if (put(path, zeros, gbytes))
			return 0;
		snprintf(path, sizeof(path), "%s/g%s.offsets", dir, sfx[i]);
		if (put(path, data + 4, size - 4))
			return 0;
	}
	snprintf(path, sizeof(path), "%s/g", dir);
	struct io_crawl *c[2] = { NULL, NULL };
	struct io_webgraph_stats st;
	struct tsg_err err[2] = { { 0 }, { 0 } };
	const unsigned threads[2] = { 1, 4 };
	int rc[2];
	for (int i = 0; i < 2; i++)
		rc[i] = io_crawl_open(path, threads[i], &c[i], &st, &err[i]);
	if (rc[0] != rc[1] || strcmp(err[0].msg, err[1].msg) != 0)
		abort();
	if (rc[0] == 0 && io_crawl_identity(c[0]) != io_crawl_identity(c[1]))
		abort();
	io_crawl_close(c[0]);
	io_crawl_close(c[1]);
	return 0;
}
