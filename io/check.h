/*
 * check.h - the rules a graph must meet before anything counts it.
 *
 * Offsets run from 0 to nadj and never decrease, and the largest degree is
 * the header's; lists hold ids below nv, strictly increasing, without
 * self-loops; and the graph is symmetric. Symmetry is checked in one pass
 * by a signed hash of each entry's unordered pair: u->v adds it, v->u
 * subtracts it, so a symmetric graph sums to zero whatever order the
 * stretches are checked in. That check is probabilistic: random damage
 * passes it with odds of about 2^-64, but a file crafted to cancel the sum
 * (its checksums recomputed) can pass. io_check_symmetry_exact is exact
 * and needs every list in memory; `tristream info --verify` runs it.
 * io_graph_open applies the offset rules; io/lists.c applies the list rules
 * stretch by stretch as lists arrive.
 *
 * An oriented graph (io/graph.h) has rules of its own for its rows: every
 * entry above its row and below nv, strictly increasing; each edge is
 * stored once, so there is no symmetry to check, and the largest row is
 * the header's maximum out-degree.
 */
#ifndef IO_CHECK_H
#define IO_CHECK_H

#include <stdint.h>

#include "base/error.h"
#include "io/graph.h"

/* A 64-bit mix of an ordered pair: unordered where callers put the smaller
 * id first (the symmetry hash), directed otherwise (a transpose's check:
 * io/webgraph.c). */
static inline uint64_t io_check_pair_hash(uint64_t a, uint64_t b)
{
	uint64_t x = (a << 32 | b) * 0x9e3779b97f4a7c15ull;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 32);
}

/* The offset rules, on `threads` threads; `name` is used in messages. */
int io_check_offsets(const struct tsg_graph *g, const char *name, unsigned threads,
		     struct tsg_err *err);

/* The list rules for vertices b .. e-1, whose offsets are checked: returns
 * the first vertex that breaks one, or UINT64_MAX, and adds the stretch's
 * symmetry hash to *sym (an oriented graph's rows: their rules, nothing
 * added). */
uint64_t io_check_lists(const struct tsg_graph *g, uint64_t b, uint64_t e, uint64_t *sym);

/* Exact symmetry of a loaded graph whose offsets and lists already meet
 * the rules: every entry u < v of v's list has v in u's list, and half the
 * entries point down. One binary search per entry, on `threads` threads. */
int io_check_symmetry_exact(const struct tsg_graph *g, const char *name, unsigned threads,
			    struct tsg_err *err);

/* What info --verify checks of an oriented graph beyond its load: each
 * row piece's checksum where the file has them (g->row_sums; a load read
 * up checks the section's instead), and the header's degree hint
 * (format.h) against the degrees its rows give (it computes them:
 * g->id_degree). */
int io_check_oriented_exact(struct tsg_graph *g, const char *name, unsigned threads,
			    struct tsg_err *err);

/* The error for a bad list at vertex v (an oriented graph's: row r). */
int io_check_fail_vertex(const char *name, uint64_t v, struct tsg_err *err);
int io_check_fail_row(const char *name, uint64_t r, struct tsg_err *err);
int io_check_fail_symmetry(const char *name, struct tsg_err *err);
/* The error for row piece k of g's failing its checksum (g->row_sums). */
int io_check_fail_piece(const struct tsg_graph *g, const char *name, uint64_t k,
			struct tsg_err *err);

#endif
