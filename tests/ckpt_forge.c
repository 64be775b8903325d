/*
 * ckpt_forge.c - rewrites (or appends) one record of a checkpoint with its
 * checksum recomputed, as someone who knows the format would: the crafted
 * checkpoints of tests/repro.sh. It knows only the file format that
 * src/checkpoint.h states (links nothing of the project, only xxHash):
 * a 64-byte header whose last 8 bytes are its checksum, then 32-byte
 * records of type, index, two values and XXH3-64 of their first 24 bytes
 * xor the header's checksum, all little-endian.
 *
 * usage: ckpt_forge FILE RECORD TYPE INDEX VALUE
 *   RECORD: the record's number (0 is the plan), or the record count to
 *   append one; TYPE 1 plan, 2 unit, 3 total.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i); }
static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> 8 * i); }
static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: ckpt_forge FILE RECORD TYPE INDEX VALUE\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "r+b");
	uint8_t h[64], r[32];
	if (!f || fread(h, 1, 64, f) != 64) {
		fprintf(stderr, "ckpt_forge: %s: cannot read a header\n", argv[1]);
		return 1;
	}
	const long at = 64 + 32 * strtol(argv[2], NULL, 10);
	put32(r, (uint32_t)strtoul(argv[3], NULL, 10));
	put32(r + 4, (uint32_t)strtoul(argv[4], NULL, 10));
	put64(r + 8, strtoull(argv[5], NULL, 10));
	put64(r + 16, 0);
	put64(r + 24, XXH3_64bits(r, 24) ^ get64(h + 56));
	const int ok = fseek(f, at, SEEK_SET) == 0 && fwrite(r, 1, 32, f) == 32;
	if (fclose(f) != 0 || !ok) {
		fprintf(stderr, "ckpt_forge: %s: cannot write record at byte %ld\n", argv[1], at);
		return 1;
	}
	return 0;
}
