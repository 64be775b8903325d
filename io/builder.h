/*
 * builder.h - turning an edge stream into a canonical graph file.
 *
 * Collects edges (any order, any direction, duplicates and self-loops
 * allowed), then writes the canonical graph: symmetric, sorted, unique,
 * loop-free. Edges are kept as 64-bit keys min<<32|max in a buffer bounded
 * by mem_limit; a full buffer is radix-sorted, deduplicated and spilled to
 * an unlinked temporary file (so it vanishes on any exit, kill -9 included),
 * and the runs are merged at the end. The output is filled in place through
 * io/writer.h, so neither input nor output has to fit in RAM; only the
 * per-vertex degrees (8 bytes a vertex; with relabel, 8 per vertex kept
 * plus 1.5 bits per id; relabel in memory, where ids are sparse, renumbers
 * the keys by a sort of their ids: memory in proportion to the edges) do.
 */
#ifndef IO_BUILDER_H
#define IO_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "io/graph.h"

struct io_builder_opts {
	uint64_t mem_limit;  /* bytes for edge buffers (0: 40% of RAM) */
	unsigned threads;
	const char *tmpdir;  /* spill directory (NULL: $TMPDIR or /tmp) */
	int relabel;         /* renumber densely, dropping isolated vertices */
	uint64_t min_nv;     /* at least this many vertices (e.g. a header's count) */
	int progress;        /* report merge progress on stderr */
	int scratch;         /* the file is temporary: not flushed to disk before it
			      * is named (io_writer_no_sync) */
};

struct io_build_stats {
	uint64_t input_edges;   /* edges added, as given */
	uint64_t self_loops;    /* dropped */
	uint64_t duplicates;    /* dropped (either direction counts as the same edge) */
	uint64_t isolated;      /* vertices dropped by relabel */
	uint64_t nv, nedges;    /* of the written graph */
	uint64_t max_degree;
	uint64_t runs;          /* spilled runs, 0 if everything fit in memory */
	double build_s;         /* sorting and laying out the lists */
	double write_s;         /* checksums, flush and naming of the file */
};

struct io_builder;

int io_builder_new(const struct io_builder_opts *opts, struct io_builder **out, struct tsg_err *err);

/* The canonical key of edge u-v, lo<<32|hi with lo < hi, or 0 for a
 * self-loop (never a key: hi > 0). What io_builder_add stores, and what
 * parsers that canonicalize on their own threads hand io_builder_add_canon. */
static inline uint64_t io_edge_key(uint64_t u, uint64_t v)
{
	const uint64_t lo = u < v ? u : v, hi = u ^ v ^ lo;
	return u == v ? 0 : lo << 32 | hi;
}

/* Adds n edges given as u<<32|v (u, v < 2^32 - 1). */
int io_builder_add(struct io_builder *b, const uint64_t *edges, size_t n, struct tsg_err *err);

/* Adds n edges already canonical: lo<<32|hi with lo < hi <= max_id, from
 * an input that also held `loops` self-loops (dropped by the caller).
 * For parsers that normalize on their own threads: this only copies. */
int io_builder_add_canon(struct io_builder *b, const uint64_t *keys, size_t n, uint64_t loops,
			 uint64_t max_id, struct tsg_err *err);

/* One parser thread's output for io_builder_add_canon_parts. */
struct io_key_part {
	const uint64_t *keys;
	size_t n;
	uint64_t loops, max_id; /* as for io_builder_add_canon */
};

/* io_builder_add_canon for several parts at once, in order, copied on the
 * builder's threads where they fit the buffer without a spill (one thread
 * copying every parsed key cost a text converter a fifth of its time). */
int io_builder_add_canon_parts(struct io_builder *b, const struct io_key_part *parts,
			       unsigned nparts, struct tsg_err *err);

/* A hint that about n keys will come (a bound from the input's size): the
 * buffer is made that large at once, untouched, so that it is not
 * reallocated and copied as it fills (on the H100's host a 512 MB buffer
 * regrown by doubling cost a text converter 0.3 s). Capped by the memory
 * limit; ignored where the room cannot be had. */
void io_builder_expect(struct io_builder *b, uint64_t n);

/* Makes the graph have at least nv vertices (a header's declared count). */
void io_builder_reserve_vertices(struct io_builder *b, uint64_t nv);

/* The vertices the graph has as things stand: the largest id + 1 (or a
 * reserved count, if larger); with relabel, fewer will be written. */
uint64_t io_builder_vertex_count(const struct io_builder *b);

/* Whether b renumbers the ids densely (io_builder_opts.relabel). */
int io_builder_relabels(const struct io_builder *b);

/* Writes the graph to path (atomically) and frees b, on success or not. */
int io_builder_finish(struct io_builder *b, const char *path, struct io_build_stats *stats,
		      struct tsg_err *err);

/* Like io_builder_finish, but the file, in path's directory, is never
 * named: *fd gets its descriptor (the caller closes it; -1 on failure),
 * so a kill at any moment leaves nothing behind (io_writer_commit_unnamed).
 * For intermediates such as the plain graph convert --compress compresses. */
int io_builder_finish_unnamed(struct io_builder *b, const char *path, int *fd,
			      struct io_build_stats *stats, struct tsg_err *err);

/* Whether io_builder_finish_mem can take the graph: nothing spilled, and
 * its parallel build fits the memory limit. */
int io_builder_fits_memory(const struct io_builder *b);

/* Builds the graph in memory (lists owned by g, io_graph_free) and frees
 * b, on success or not; only where io_builder_fits_memory. */
int io_builder_finish_mem(struct io_builder *b, struct tsg_graph *g, struct io_build_stats *stats,
			  struct tsg_err *err);

void io_builder_free(struct io_builder *b);

#endif
