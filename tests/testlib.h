/*
 * testlib.h - the few helpers the C tests share: checks that count instead
 * of aborting, a scratch directory, a random graph builder and the reference
 * triangle counter every kernel is compared with.
 */
#ifndef TSG_TESTLIB_H
#define TSG_TESTLIB_H

#include <stdint.h>
#include <stdio.h>

#include "io/graph.h"

struct t_state {
	unsigned passed, failed;
};

#define CHECK(st, cond, ...)                                                        \
	do {                                                                        \
		if (cond) {                                                         \
			(st)->passed++;                                             \
		} else {                                                            \
			(st)->failed++;                                             \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                               \
			fputc('\n', stderr);                                        \
		}                                                                   \
	} while (0)

/* Prints "N passed, N failed" and returns the exit status. */
int t_finish(const struct t_state *st);

/* A fresh directory under $TMPDIR (removed by t_cleanup). */
const char *t_tmpdir(void);
void t_cleanup(void);
/* t_tmpdir()/name, in a static buffer that the next call reuses. */
const char *t_path(const char *name);

/* Writes edges (u<<32|v, any order, duplicates and loops allowed) as a
 * canonical graph file at path and loads it. Returns 0 on success. */
int t_graph_from_edges(const char *path, const uint64_t *edges, size_t n, uint64_t min_nv,
		       struct tsg_graph *g);

/* Brute force: for u < v < w, u-v, v-w and u-w all edges. */
uint64_t t_ref_count(const struct tsg_graph *g);

/* Triangles whose lowest-(degree, id) vertex is v, for each v (caller frees). */
uint64_t *t_ref_by_source(const struct tsg_graph *g);

uint64_t t_rand(uint64_t *s);

#endif
