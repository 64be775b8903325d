/*
 * tsg_forge.c - rewrites one value of a .tsg with its checksums recomputed,
 * as someone who knows the format would: the damaged files of
 * tests/oriented.sh, which reach the structure checks instead of stopping
 * at a checksum. It knows only what docs/FORMAT.md states (links nothing
 * of the project, only xxHash): a 4096-byte header whose last 8 bytes are
 * the XXH3-64 of the rest, the section count at byte 20 and the table at
 * 64 (32 bytes a section: u32 kind, u32 zero, u64 offset, u64 size, u64
 * XXH3-64 of the section), all little-endian; and the row piece checksums
 * (kind 6: u64 piece size P, then the XXH3-64 of each P bytes of section
 * 2, the last piece short).
 *
 * usage: tsg_forge FILE [--stale] WHERE INDEX WIDTH VALUE
 *   WHERE 0: the header, INDEX a byte offset; else the section of that
 *   kind, INDEX an element of WIDTH bytes. WIDTH 4 or 8. The row piece
 *   checksums (where the file has them), every section's checksum and the
 *   header's are then recomputed; with --stale the pieces' and sections'
 *   are left as they were (the header's still recomputed), so the change
 *   shows as a checksum mismatch.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

enum { HEADER = 4096, TABLE = 64, ENTRY = 32 };

static void put(uint8_t *p, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static uint64_t get(const uint8_t *p, int width)
{
	uint64_t v = 0;
	for (int i = width - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int main(int argc, char **argv)
{
	const int stale = argc == 7 && strcmp(argv[2], "--stale") == 0;
	if (argc != 6 + stale) {
		fprintf(stderr, "usage: tsg_forge FILE [--stale] WHERE INDEX WIDTH VALUE\n");
		return 2;
	}
	const uint32_t where = (uint32_t)strtoul(argv[2 + stale], NULL, 0);
	const uint64_t index = strtoull(argv[3 + stale], NULL, 0);
	const int width = atoi(argv[4 + stale]);
	const uint64_t value = strtoull(argv[5 + stale], NULL, 0);
	FILE *f = fopen(argv[1], "r+b");
	long size = -1;
	if (f && fseek(f, 0, SEEK_END) == 0)
		size = ftell(f);
	uint8_t *b = size >= HEADER ? malloc((size_t)size) : NULL;
	if (!b || fseek(f, 0, SEEK_SET) != 0 || fread(b, 1, (size_t)size, f) != (size_t)size ||
	    (width != 4 && width != 8)) {
		fprintf(stderr, "tsg_forge: %s: cannot read a .tsg (or bad WIDTH)\n", argv[1]);
		return 1;
	}
	const uint32_t nsec = (uint32_t)get(b + 20, 4);
	uint64_t at = where == 0 ? index : UINT64_MAX;
	for (uint32_t i = 0; i < nsec && i < 8 && where; i++) {
		const uint8_t *e = b + TABLE + i * ENTRY;
		if (get(e, 4) == where)
			at = get(e + 8, 8) + index * (uint64_t)width;
	}
	if (at == UINT64_MAX || at + (uint64_t)width > (uint64_t)size) {
		fprintf(stderr, "tsg_forge: %s: no element %llu of %d bytes in section %u\n",
			argv[1], (unsigned long long)index, width, where);
		return 1;
	}
	put(b + at, value, width);
	uint64_t rows = UINT64_MAX, nrows = 0, sums = UINT64_MAX, nsums = 0;
	for (uint32_t i = 0; i < nsec && i < 8; i++) {
		const uint8_t *e = b + TABLE + i * ENTRY;
		const uint64_t off = get(e + 8, 8), len = get(e + 16, 8);
		if (off > (uint64_t)size || len > (uint64_t)size - off)
			continue;
		if (get(e, 4) == 2) {
			rows = off;
			nrows = len;
		} else if (get(e, 4) == 6) {
			sums = off;
			nsums = len;
		}
	}
	const uint64_t piece = sums != UINT64_MAX && nsums >= 8 ? get(b + sums, 8) : 0;
	for (uint64_t k = 0; rows != UINT64_MAX && piece && !stale && k * piece < nrows &&
			     16 + 8 * k <= nsums; k++) {
		const uint64_t n = nrows - k * piece < piece ? nrows - k * piece : piece;
		put(b + sums + 8 + 8 * k, XXH3_64bits(b + rows + k * piece, n), 8);
	}
	for (uint32_t i = 0; i < nsec && i < 8 && !stale; i++) {
		uint8_t *e = b + TABLE + i * ENTRY;
		const uint64_t off = get(e + 8, 8), len = get(e + 16, 8);
		if (off <= (uint64_t)size && len <= (uint64_t)size - off)
			put(e + 24, XXH3_64bits(b + off, len), 8);
	}
	put(b + HEADER - 8, XXH3_64bits(b, HEADER - 8), 8);
	if (fseek(f, 0, SEEK_SET) != 0 || fwrite(b, 1, (size_t)size, f) != (size_t)size ||
	    fclose(f) != 0) {
		fprintf(stderr, "tsg_forge: %s: cannot write it back\n", argv[1]);
		return 1;
	}
	free(b);
	return 0;
}
