/*
 * csr_build.h - the canonical graph from unsorted edge keys held in memory,
 * on every thread.
 *
 * The builder's in-memory path (io/builder.h). Keys are canonical,
 * lo<<32|hi with lo < hi, in any order, duplicates allowed. Both
 * directions of every key are bucketed by the high bits of their row (one
 * parallel counting pass and one parallel scatter), then each bucket, on
 * one thread, places its entries by row, sorts and deduplicates each row,
 * and the rows are copied into the output, without relabel as soon as the
 * buckets before them are sorted (the output is made for every key and
 * cut after deduplication: io_writer_cut_neighbors). Unlike a global sort of the keys
 * followed by one serial fill, every pass runs on all threads; a text
 * converter spends most of its time here.
 *
 * Memory: the keys (8 bytes an edge) and the bucketed entries (16 bytes an
 * edge) at once during the scatter; the keys are freed right after it.
 * Degrees and relabel ranks: 12 bytes a vertex id.
 */
#ifndef IO_CSR_BUILD_H
#define IO_CSR_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "io/graph.h"

/* Bytes an edge and a vertex id need at the peak, for the caller's memory
 * budget. */
#define IO_CSR_BYTES_PER_EDGE 24
#define IO_CSR_BYTES_PER_ID 12

struct io_csr_stats {
	uint64_t duplicates; /* keys dropped as repeats */
	uint64_t isolated;   /* vertices dropped by relabel */
	uint64_t nv, nedges, max_degree;
	double build_s;      /* buckets, rows, offsets and the lists in place */
	double write_s;      /* checksums, flush to disk, naming (files only) */
};

/* Where the graph goes: a file (io/writer.h, atomically; sync: flushed to
 * disk before it is named, which a scratch file can skip), or memory. */
struct io_csr_out {
	const char *path;       /* a file, or NULL for memory */
	int sync;
	struct tsg_graph *mem;  /* path NULL: filled, lists owned (io_graph_free) */
	int *fd;                /* with path: the file is left unnamed in path's
				 * directory and its descriptor put here
				 * (io_writer_commit_unnamed) */
	int in_turn;            /* every bucket sorted before any is copied, the
				 * output made at its exact size: what relabel does,
				 * and what a file whose disk lacks room for the
				 * bound (2n entries) gets; tests set it to reach it */
};

/* Builds the graph of keys[0..n), all below nv, into out. keys is freed
 * by the call, on success or not. relabel: dense ids in the old order,
 * vertices without edges dropped. */
int io_csr_build(uint64_t *keys, size_t n, uint64_t nv, int relabel, unsigned threads,
		 const struct io_csr_out *out, struct io_csr_stats *st, struct tsg_err *err);

#endif
