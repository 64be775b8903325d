/*
 * graph.h - a canonical undirected graph in CSR form, loaded from a file.
 *
 * Loading validates everything a count depends on, so no later stage has to:
 * header and section checksums, monotone offsets ending at nadj, ids in
 * range, strictly increasing lists without self-loops, and symmetry (every
 * u->v has its v->u; checked in one streaming pass with a signed edge hash).
 * A file that passes cannot make the count wrong; one that fails gives a
 * TSG_EINPUT error naming the file and the first offending vertex.
 */
#ifndef IO_GRAPH_H
#define IO_GRAPH_H

#include <stdint.h>

#include "error.h"
#include "reader.h"

struct tsg_graph {
	uint64_t nv;         /* vertices; ids are 0 .. nv-1 */
	uint64_t nadj;       /* list entries, twice the undirected edges */
	uint64_t max_degree;
	const uint64_t *off; /* nv + 1 row offsets */
	const uint32_t *adj; /* nadj neighbour ids */
	/* ownership: either owned buffers or the mapped file */
	void *off_mem, *adj_mem;
	struct io_file *file;
	enum io_mode io_used;
	int compressed;      /* the file's lists were LZ4 chunks, decoded on load */
	char io_note[256];   /* why the reader fell back, or "" */
	double read_seconds, check_seconds;
};

struct io_load_opts {
	enum io_mode io;
	unsigned threads;
};

int io_graph_load(const char *path, const struct io_load_opts *opts, struct tsg_graph *g,
		  struct tsg_err *err);

/* Structural and symmetry validation; `name` is used in messages. */
int io_graph_check(const struct tsg_graph *g, const char *name, unsigned threads,
		   struct tsg_err *err);

void io_graph_free(struct tsg_graph *g);

static inline uint64_t io_graph_degree(const struct tsg_graph *g, uint64_t v)
{
	return g->off[v + 1] - g->off[v];
}

#endif
