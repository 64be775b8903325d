/*
 * text_write.h - writing a graph as a plain text edge list.
 *
 * One line "u v\n" per undirected edge, u < v, in the order of the graph's
 * lists, no header or comments: the edge-list form that tristream-convert,
 * SNAP tools and GAPBS's converter (.el) all read. Lines are formatted by
 * every thread, a slice of the lists each, and written in order; the file
 * appears atomically (io/atomic.h) and every write is checked.
 */
#ifndef IO_TEXT_WRITE_H
#define IO_TEXT_WRITE_H

#include <stdint.h>

#include "base/error.h"

struct io_text_write_stats {
	uint64_t edges, bytes;
};

/* off/adj: a canonical graph's nv + 1 offsets and lists (io/graph.h). */
int io_text_write(const char *path, uint64_t nv, const uint64_t *off, const uint32_t *adj,
		  unsigned threads, struct io_text_write_stats *st, struct tsg_err *err);

#endif
