/*
 * dag.h - what every counting kernel takes: one partition as an oriented CSR.
 *
 * The partitioner (partition/) renumbers the vertices a partition keeps to
 * 0 .. nv-1 and orients every edge from lower to higher global rank, where
 * rank orders vertices by (degree, id) in the whole graph. The graph is
 * then a DAG; each triangle has exactly one source vertex a (its lowest
 * rank) with a->b, a->c and b->c. A kernel counts, for every a in src[],
 * the pairs b, c in out(a) with c in out(b): every triangle whose source is
 * local to this partition, each exactly once.
 *
 * Lists are strictly increasing, so merge and binary-search intersections
 * work. Counts are 64-bit everywhere.
 */
#ifndef KERN_DAG_H
#define KERN_DAG_H

#include <stdint.h>

struct tsg_dag {
	uint32_t nv;        /* vertices kept: local ones and proxies */
	uint32_t nsrc;      /* local vertices, the sources of counting */
	uint64_t ne;        /* directed edges */
	uint32_t max_out;   /* largest out-degree */
	uint64_t *off;      /* nv + 1 offsets into adj */
	uint32_t *adj;      /* ne out-neighbours, each list increasing */
	uint32_t *src;      /* nsrc local vertex ids, increasing */
};

/* Bytes the three arrays take (what a device copy of the DAG needs). */
static inline uint64_t tsg_dag_bytes(uint64_t nv, uint64_t ne, uint64_t nsrc)
{
	return (nv + 1) * 8 + ne * 4 + nsrc * 4;
}

#endif
