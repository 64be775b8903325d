/*
 * order.h - vertex orders for orienting a graph other than (degree, id).
 *
 * Degeneracy order (Matula and Beck, 1983): repeatedly remove a vertex of
 * least remaining degree; the order of removal, oriented from earlier to
 * later, gives every vertex at most d out-neighbours, d the graph's
 * degeneracy (its largest k-core). Degree order bounds out-degrees by
 * sqrt(2m) only; for k-cliques, whose cost grows with the out-lists, the
 * k-core order gives smaller lists (the GPU k-clique paper, section 4.1).
 */
#ifndef PART_ORDER_H
#define PART_ORDER_H

#include <stdint.h>

#include "base/error.h"
#include "io/graph.h"

/* order[v] = v's position in a degeneracy order of g (nv entries, a
 * permutation, deterministic); *degeneracy, if not NULL, the largest
 * remaining degree met. O(n + m), one thread (bucket queue). */
int part_degeneracy_order(const struct tsg_graph *g, uint32_t *order, uint32_t *degeneracy,
			  struct tsg_err *err);

#endif
