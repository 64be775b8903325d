/*
 * cpu.h - triangle counting on the host: the CPU backend.
 *
 * Same contract as the GPU kernels (kernels/dag.h). Used by --device cpu, by
 * CI, and as the reference the GPU results are checked against.
 */
#ifndef KERN_CPU_H
#define KERN_CPU_H

#include <stdint.h>

#include "kernels/dag.h"
#include "base/error.h"

enum kern_cpu_kind {
	KERN_CPU_MERGE, /* sorted-list merge; no scratch memory */
	KERN_CPU_HASH,  /* bitmap of out(a) probed by each out(b); wins on skewed graphs */
	KERN_CPU_WEDGE, /* bitmap of out(b) probed by the tail of out(a) after b: each
			 * oriented wedge once (units only; partitions take hash) */
	KERN_CPU_COUNT_
};

int kern_cpu_parse(const char *s, enum kern_cpu_kind *out);
const char *kern_cpu_name(enum kern_cpu_kind k);

/* pv: NULL, or per-vertex counts to add to (dag.h, tsg_pv_add). With pv the
 * wedge kind runs hash (its records do not carry the source); *ran, if not
 * NULL, receives the kind that ran. */
int kern_cpu_count(const struct tsg_dag *d, enum kern_cpu_kind kind, unsigned threads,
		   uint64_t *pv, uint64_t *count, enum kern_cpu_kind *ran, struct tsg_err *err);

/* The same for a 2D unit (kernels/dag.h, struct tsg_unit). */
int kern_cpu_count_unit(const struct tsg_unit *u, enum kern_cpu_kind kind, unsigned threads,
			uint64_t *pv, uint64_t *count, enum kern_cpu_kind *ran,
			struct tsg_err *err);

/* An arrival batch (kernels/dag.h, struct tsg_batch), by merging; needs no
 * scratch and cannot fail. */
int kern_cpu_count_batch(const struct tsg_batch *b, unsigned threads, uint64_t *pv,
			 uint64_t *count);

/*
 * The sweep (src/sweep.h) on the CPU: a source block of oriented rows held,
 * chunks of a crawl's merged lists (ids, increasing) counted against it.
 * Every triangle a -> b -> c is found at its middle vertex b as the common
 * ids of the tail of out(a) after b and out(b), one of a and b in the block
 * and the other in the chunk (kernels/cpu_sweep.c).
 */
struct kern_sweep_block {
	uint64_t s0, ns;        /* nodes s0 .. s0+ns-1 */
	const uint64_t *off;    /* ns + 1: node s0+i's row is rows[off[i] .. off[i+1]) */
	const uint32_t *rows;   /* ranks, each row increasing */
};

/* Node lo+i's oriented row (its neighbours of higher rank, by rank,
 * increasing) for i < nbv, into rows at roff[i] (roff[0] = 0); lists are
 * off/adj as decoded (off[0] = 0); tmp holds the longest list. */
void kern_sweep_orient(const uint32_t *rank, uint64_t lo, uint32_t nbv, const uint64_t *off,
		       const uint32_t *adj, uint64_t *roff, uint32_t *rows, uint32_t *tmp);

/* The triangles whose two lowest vertices are a block node and a node
 * lo+i of the chunk (outside the block), either way round; row and tmp
 * hold the longest list each. Per-vertex counts by rank into pv (NULL:
 * none). Returns -1 where an edge a -> b from the block finds no b in
 * out(a): the merged lists are not symmetric. */
int kern_sweep_chunk(const struct kern_sweep_block *bl, const uint32_t *rank, uint64_t lo,
		     uint32_t nbv, const uint64_t *off, const uint32_t *adj, uint32_t *row,
		     uint32_t *tmp, uint64_t *pv, uint64_t *count);

/* The triangles whose two lowest vertices are block nodes, the lowest
 * among s0+a0 .. s0+a1-1; inv maps a rank to its node. */
uint64_t kern_sweep_local(const struct kern_sweep_block *bl, const uint32_t *rank,
			  const uint32_t *inv, uint64_t a0, uint64_t a1, uint64_t *pv);

#endif
