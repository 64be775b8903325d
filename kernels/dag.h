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
	uint32_t *gid;      /* NULL, or nv global ids of the local ones (per-vertex
			     * counts are kept by global id); lies after src, not
			     * counted in tsg_dag_bytes */
};

/*
 * Per-vertex counts (--per-vertex, --clustering): a kernel given a pv array
 * adds 1 to pv[x] for each of the three vertices x of every triangle it
 * counts, x in the id space of the whole graph: ranks for units and
 * batches, dag->gid[local id] for a partition. Additions are atomic (other
 * threads, other units); the engine maps ranks back to ids at the end.
 */
static inline void tsg_pv_add(uint64_t *pv, const uint32_t *gid, uint32_t x, uint64_t n)
{
	if (n)
		__atomic_fetch_add(&pv[gid ? gid[x] : x], n, __ATOMIC_RELAXED);
}

/*
 * A 2D work unit over the whole rank-ordered DAG (partition/orient.h and
 * block.h): ids are ranks, every list increasing. A unit counts the
 * triangles a->b, a->c, b->c with a in [src_lo, src_hi) and b in
 * [mid_lo, mid_hi). It reads source rows src_lo .. src_hi-1 (of each, only
 * the ids >= mid_lo, since c > b) and middle rows mid_lo .. mid_hi-1. Units
 * whose source ranges cover V, each source range's middle ranges covering
 * [src_lo, nv), count every triangle exactly once.
 */
struct tsg_unit {
	uint32_t src_lo, src_hi, mid_lo, mid_hi;
	uint32_t nv;         /* vertices of the whole DAG */
	const uint64_t *off; /* the whole DAG: nv + 1 offsets */
	const uint32_t *adj;
};

/*
 * An arrival batch (partition/arrival.h): the vertices whose lists were read
 * in one stretch of the file, ids v_lo .. v_hi-1. Ids in rows are ranks, as
 * in a unit. Batch k counts every edge a -> b whose later-read endpoint is
 * in it, as |out(a) ∩ out(b)| (the triangles whose two lowest vertices are
 * a and b, each once):
 *  - for a in the batch, each b in out(a) with batch_of[b] <= k;
 *  - for b in the batch, each a in in(b): the a -> b from earlier batches.
 * Rows lie where they were written, so they are reached by rank: row[r]
 * (row_len[r] ids, increasing) for every vertex of batches <= k, in[r]
 * (in_len[r] ids, any order) for the batch's own vertices. A batch handed
 * out lists only (part_arrival_opts.lists_only) has row, row_len, in and
 * in_len NULL: its sink orients the batch's lists itself.
 */
struct tsg_batch {
	uint32_t k;
	uint64_t v_lo, v_hi;
	const uint32_t *rank;      /* id -> rank, every vertex */
	const uint32_t *batch_of;  /* rank -> batch, every vertex */
	uint32_t *const *row;      /* by rank */
	const uint32_t *row_len;
	uint32_t *const *in;       /* by rank */
	const uint32_t *in_len;
};

/* Bytes rows lo .. hi-1 take as a slice: hi - lo + 1 offsets and their lists. */
static inline uint64_t tsg_rows_bytes(const uint64_t *off, uint32_t lo, uint32_t hi)
{
	return ((uint64_t)hi - lo + 1) * 8 + (off[hi] - off[lo]) * 4;
}

/* Whether a unit's source rows lie inside its middle rows (one slice serves both). */
static inline int tsg_unit_nested(const struct tsg_unit *u)
{
	return u->mid_lo <= u->src_lo && u->src_hi <= u->mid_hi;
}

/*
 * Device memory a kernel needs beyond the rows it counts, as planners see
 * it: bytes per source row, per middle row (every row a unit holds), per
 * list entry of the source rows, and a fixed amount per unit. Planners add
 * it to every unit so that the unit and its scratch fit the slot together.
 */
struct tsg_scratch {
	uint64_t per_src, per_mid, per_edge, fixed;
};

static inline uint64_t tsg_scratch_bytes(const struct tsg_scratch *s, uint64_t nsrc, uint64_t nmid,
					 uint64_t src_entries)
{
	return s->per_src * nsrc + s->per_mid * nmid + s->per_edge * src_entries + s->fixed;
}

/* Bytes the three arrays take (what a device copy of the DAG needs). */
static inline uint64_t tsg_dag_bytes(uint64_t nv, uint64_t ne, uint64_t nsrc)
{
	return (nv + 1) * 8 + ne * 4 + nsrc * 4;
}

#endif
