/*
 * fuzz_lz4_chunk.c - the LZ4 chunk decoder on its own, past its checksum:
 * byte 0 is the vertex count n (0..63), the next n bytes their degrees, the
 * rest one chunk's compressed bytes, whose checksum is computed here so
 * every input reaches LZ4 and the delta decoding. The index is parsed as
 * the reader parses it, so a chunk it accepts must decode in bounds.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "io/compress.h"
#include "io/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const uint64_t nv = data[0] & 63;
	if (size < 1 + nv || nv == 0)
		return 0;
	uint64_t off[65] = { 0 };
	for (uint64_t v = 0; v < nv; v++)
		off[v + 1] = off[v] + data[1 + v];
	const uint8_t *z = data + 1 + nv;
	const uint64_t zsize = size - 1 - nv;
	uint8_t entry[IO_CHUNK_ENTRY_BYTES] = { 0 };
	const uint64_t v0 = 0, pos = 0, sum = io_checksum(z, zsize);
	const uint32_t csize = (uint32_t)zsize;
	memcpy(entry, &v0, 8);
	memcpy(entry + 8, &pos, 8);
	memcpy(entry + 16, &csize, 4);
	memcpy(entry + 24, &sum, 8);
	struct io_lz4_index ix;
	struct tsg_err err = { 0 };
	if (off[nv] == 0 || io_lz4_index_parse(nv, off, entry, sizeof(entry), zsize, "fuzz", &ix,
					       &err) != 0)
		return 0;
	uint32_t *adj = malloc(off[nv] * 4);
	uint8_t *scratch = malloc(ix.biggest ? ix.biggest : 1);
	if (adj && scratch)
		(void)io_lz4_decode_chunk(&ix, 0, off, z, adj, scratch);
	free(adj);
	free(scratch);
	io_lz4_index_free(&ix);
	return 0;
}
