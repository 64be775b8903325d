/*
 * fuzz_graph.c - the binary reader (header, sections, offsets, lists,
 * plain and LZ4) and the engine that counts what it reads.
 *
 * The first byte: bit 0 reseals the file (recomputes the header, section
 * and LZ4 chunk checksums, as a crafted file would have them, so mutations
 * reach the structure checks instead of dying at a checksum); bit 1 picks
 * pread or mmap; bits 2-3 the layout (block, arrival, lstc). The rest is
 * the file. The graph is opened and counted on the CPU, its lists checked
 * as they stream in. A file that counts must be a valid graph (exact
 * symmetry) whose count equals the plain count below, which shares no code
 * with the engine's kernels: any other outcome of a counted file aborts.
 * A file stored oriented (format.h) is taken too: counted (the block
 * layout; the others refuse it), it must load again, and the plain count
 * of its rows, which counts each triangle u < v < w once from its stored
 * edges, must equal the engine's.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "io/check.h"
#include "io/compress.h"
#include "io/format.h"
#include "src/engine.h"

static void reseal(uint8_t *b, size_t len)
{
	struct io_header h;
	struct tsg_err err = { 0 };
	if (len < IO_HEADER_SIZE)
		return;
	const uint64_t c = io_checksum(b, IO_HEADER_SIZE - 8);
	memcpy(b + IO_HEADER_SIZE - 8, &c, 8);
	if (io_header_decode(b, len, len, "reseal", &h, &err) != 0)
		return;
	const struct io_section *z = io_header_section(&h, IO_SEC_NEIGHBORS_LZ4);
	const struct io_section *ix = io_header_section(&h, IO_SEC_CHUNKS);
	for (uint64_t i = 0; z && ix && i < ix->size / IO_CHUNK_ENTRY_BYTES; i++) {
		uint8_t *e = b + ix->offset + i * IO_CHUNK_ENTRY_BYTES;
		uint64_t pos;
		uint32_t csize;
		memcpy(&pos, e + 8, 8);
		memcpy(&csize, e + 16, 4);
		if (pos <= z->size && csize <= z->size - pos) {
			const uint64_t x = io_checksum(b + z->offset + pos, csize);
			memcpy(e + 24, &x, 8);
		}
	}
	for (uint32_t i = 0; i < h.nsections; i++)
		h.sec[i].xxh3 = io_checksum(b + h.sec[i].offset, h.sec[i].size);
	io_header_encode(&h, b);
}

/* Triangles u < v < w of a valid graph, by merging sorted lists (an
 * oriented graph's rows hold only the entries above their row: the same
 * walk). */
static uint64_t plain_count(const struct tsg_graph *g)
{
	uint64_t t = 0;
	for (uint64_t u = 0; u < g->nv; u++)
		for (uint64_t x = g->off[u]; x < g->off[u + 1]; x++) {
			const uint32_t v = g->adj[x];
			if (v <= u)
				continue;
			uint64_t a = x + 1, b = g->off[v];
			while (a < g->off[u + 1] && b < g->off[v + 1]) {
				if (g->adj[a] < g->adj[b])
					a++;
				else if (g->adj[a] > g->adj[b])
					b++;
				else {
					t += g->adj[a] > v;
					a++;
					b++;
				}
			}
		}
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > (1u << 22))
		return 0;
	uint8_t *b = malloc(size);
	if (!b)
		return 0;
	memcpy(b, data + 1, size - 1);
	if (data[0] & 1)
		reseal(b, size - 1);
	char path[64];
	const int fd = fuzz_file(b, size - 1, path, sizeof(path));
	free(b);
	if (fd < 0)
		return 0;
	static const enum engine_layout layouts[] = { ENGINE_LAYOUT_BLOCK, ENGINE_LAYOUT_ARRIVAL,
						      ENGINE_LAYOUT_LSTC, ENGINE_LAYOUT_BLOCK };
	struct io_load_opts lo = { .io = data[0] & 2 ? IO_MODE_MMAP : IO_MODE_PREAD, .threads = 2,
				   .oriented = 1 };
	struct engine_opts eo = { .device = TSG_DEVICE_CPU, .cpu_kernel = KERN_CPU_MERGE,
				  .layout = layouts[(data[0] >> 2) & 3], .threads = 2,
				  .part = { .nparts = 2, .threads = 2 } };
	struct tsg_graph g;
	struct engine_result r = { 0 };
	struct tsg_err err = { 0 };
	if (io_graph_open(path, &lo, &g, &err) == 0) {
		const int rc = engine_count(&g, &eo, &r, &err);
		io_graph_free(&g);
		engine_result_free(&r);
		if (rc == 0 && io_graph_load(path, &lo, &g, &err) == 0) {
			/* it counted: it must be valid, and its count right */
			if ((!g.oriented && io_check_symmetry_exact(&g, path, 1, &err) != 0) ||
			    plain_count(&g) != r.triangles)
				abort();
			io_graph_free(&g);
		} else if (rc == 0) {
			abort(); /* counted once, refused the second time */
		}
	}
	close(fd);
	return 0;
}
