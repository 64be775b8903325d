/*
 * cpu_sweep.c - the sweep's counting on the CPU (kernels/cpu.h, src/sweep.h).
 *
 * Technique: the edge iterator by middle vertex (wedges a -> b -> c closed
 * at b, as mid-hash files them on the GPU), with sorted-list intersection:
 * for each node v of a chunk, out(v) is made from its merged list (ids to
 * ranks, the higher kept, sorted); each neighbour u of v that lies in the
 * source block holds out(u) there. Where u is below v (u -> v: v is the
 * middle vertex), the tail of out(u) after v (found by binary search) is
 * intersected with out(v); where u is above v (v -> u: v is the lowest
 * vertex and u the middle one), all of out(u) is. Intersection merges, or,
 * where one list is 16 times the other, searches each entry of the shorter
 * in the rest of the longer. The block against itself walks each block
 * row a and each entry b of it that is a block node.
 * Input: the block's rows and the chunk's lists increasing (ranks, ids);
 * every node ranked. When it wins: only where the crawl does not fit
 * memory (the sweep's own reason to exist); the GPU counts the same way.
 */
#include "kernels/cpu.h"

#include "base/util.h"

/* Per-vertex counts by rank, where kept. */
static inline void pv_add(uint64_t *pv, uint32_t x, uint64_t n)
{
	if (pv)
		tsg_pv_add(pv, NULL, x, n);
}

/* |a ∩ b| of increasing lists, and each common c's count in pv. */
static uint64_t isect(const uint32_t *a, uint64_t na, const uint32_t *b, uint64_t nb, uint64_t *pv)
{
	uint64_t n = 0;
	if (na > nb) { /* a the shorter */
		const uint32_t *t = a;
		a = b;
		b = t;
		const uint64_t tn = na;
		na = nb;
		nb = tn;
	}
	if (na == 0)
		return 0;
	if (na * 16 < nb) { /* each of the few, searched in what is left of the many */
		uint64_t j = 0;
		for (uint64_t i = 0; i < na && j < nb; i++) {
			j = tsg_lower_bound_u32(b, j, nb, a[i]);
			if (j < nb && b[j] == a[i]) {
				n++;
				pv_add(pv, a[i], 1);
			}
		}
		return n;
	}
	uint64_t i = 0, j = 0;
	while (i < na && j < nb) {
		const uint32_t x = a[i], y = b[j];
		if (x == y) {
			n++;
			pv_add(pv, x, 1);
		}
		i += x <= y;
		j += y <= x;
	}
	return n;
}

/* v's neighbours of higher rank, by rank, sorted, into row; their number. */
static uint64_t up_row(const uint32_t *rank, uint32_t rv, const uint32_t *l, uint64_t n,
		       uint32_t *row, uint32_t *tmp)
{
	uint64_t k = 0;
	for (uint64_t x = 0; x < n; x++) {
		const uint32_t w = rank[l[x]];
		row[k] = w;
		k += w > rv; /* no branch to mispredict */
	}
	tsg_sort_u32(row, tmp, k);
	return k;
}

void kern_sweep_orient(const uint32_t *rank, uint64_t lo, uint32_t nbv, const uint64_t *off,
		       const uint32_t *adj, uint64_t *roff, uint32_t *rows, uint32_t *tmp)
{
	roff[0] = 0;
	for (uint32_t i = 0; i < nbv; i++)
		roff[i + 1] = roff[i] + up_row(rank, rank[lo + i], adj + off[i], off[i + 1] - off[i],
					       rows + roff[i], tmp);
}

int kern_sweep_chunk(const struct kern_sweep_block *bl, const uint32_t *rank, uint64_t lo,
		     uint32_t nbv, const uint64_t *off, const uint32_t *adj, uint32_t *row,
		     uint32_t *tmp, uint64_t *pv, uint64_t *count)
{
	uint64_t total = 0;
	for (uint32_t i = 0; i < nbv; i++) {
		const uint32_t *l = adj + off[i];
		const uint64_t n = off[i + 1] - off[i];
		/* the block's nodes are a stretch of the list, which ascends by id */
		const uint64_t x0 = tsg_lower_bound_u32(l, 0, n, (uint32_t)bl->s0);
		const uint64_t x1 = bl->s0 + bl->ns > UINT32_MAX ? n
				  : tsg_lower_bound_u32(l, x0, n, (uint32_t)(bl->s0 + bl->ns));
		if (x0 == x1)
			continue;
		const uint32_t rb = rank[lo + i];
		uint64_t nb = 0;
		int made = 0;
		for (uint64_t x = x0; x < x1; x++) {
			const uint32_t ra = rank[l[x]];
			if (ra == rb)
				continue; /* never: v lies after the block */
			if (!made) { /* out(b), once b has a neighbour in the block */
				nb = up_row(rank, rb, l, n, row, tmp);
				made = 1;
			}
			if (nb == 0)
				break;
			const uint64_t k = l[x] - bl->s0;
			const uint32_t *ra_row = bl->rows + bl->off[k];
			const uint64_t na = bl->off[k + 1] - bl->off[k];
			/* a below b: the tail of out(a) after b, which holds b in a
			 * symmetric graph; a above b (b -> a, b the lowest): all of
			 * out(a), every entry of which is above a, so above b */
			uint64_t p = 0;
			if (ra < rb) {
				p = tsg_lower_bound_u32(ra_row, 0, na, rb);
				if (p == na || ra_row[p] != rb)
					return -1;
				p++;
			}
			const uint64_t hits = isect(ra_row + p, na - p, row, nb, pv);
			total += hits;
			pv_add(pv, ra, hits);
			pv_add(pv, rb, hits);
		}
	}
	*count = total;
	return 0;
}

uint64_t kern_sweep_local(const struct kern_sweep_block *bl, const uint32_t *rank,
			  const uint32_t *inv, uint64_t a0, uint64_t a1, uint64_t *pv)
{
	uint64_t total = 0;
	for (uint64_t a = a0; a < a1; a++) {
		const uint32_t *ra = bl->rows + bl->off[a];
		const uint64_t na = bl->off[a + 1] - bl->off[a];
		for (uint64_t p = 0; p + 1 < na; p++) {
			const uint64_t j = (uint64_t)inv[ra[p]] - bl->s0; /* wraps below s0 */
			if (j >= bl->ns)
				continue;
			const uint64_t hits = isect(ra + p + 1, na - p - 1, bl->rows + bl->off[j],
						    bl->off[j + 1] - bl->off[j], pv);
			total += hits;
			pv_add(pv, rank[bl->s0 + a], hits);
			pv_add(pv, ra[p], hits);
		}
	}
	return total;
}
