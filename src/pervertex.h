/*
 * pervertex.h - what per-vertex triangle counts give a user: the counts
 * written to a file (--per-vertex), and clustering (--clustering).
 *
 * Definitions are NetworkX's, so results compare directly:
 *  - transitivity = 3 x triangles / connected triples, a triple being a
 *    path of two edges (sum over v of d(v)(d(v)-1)/2); 0 without triples;
 *  - local clustering c(v) = t(v) / (d(v)(d(v)-1)/2), 0 where d(v) < 2;
 *    average_clustering is its mean over the vertices that have an edge
 *    (an edge list names no others; a vertex id with no edge is a gap in
 *    the numbering, not a vertex of the user's graph).
 * Degrees are by id (io_graph_id_degree): an oriented graph's need
 * io_graph_load_degrees first (engine_count runs it for per-vertex counts).
 */
#ifndef TSG_PERVERTEX_H
#define TSG_PERVERTEX_H

#include <stdint.h>

#include "base/error.h"
#include "io/graph.h"

enum pv_format { PV_TEXT, PV_BINARY };

int pv_format_parse(const char *s, enum pv_format *out);

/* Writes pv (nv counts by id) to path atomically: text "id count" lines
 * (vertices with an edge only; formatted on `threads` threads), or binary:
 * nv little-endian u64, every id. */
int pv_write(const char *path, enum pv_format fmt, const struct tsg_graph *g, const uint64_t *pv,
	     unsigned threads, struct tsg_err *err);

struct pv_clustering {
	double transitivity, average_clustering;
	uint64_t triples;        /* connected triples: sum of d(d-1)/2, saturating */
	uint64_t vertices;       /* vertices with an edge: average_clustering's count */
};

void pv_clustering(const struct tsg_graph *g, const uint64_t *pv, unsigned threads,
		   struct pv_clustering *out);

#endif
