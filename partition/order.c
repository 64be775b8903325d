/*
 * order.c - degeneracy order by bucket peeling (contract: order.h).
 *
 * Vertices sit in buckets by remaining degree, as one array sorted by
 * degree (pos, start per degree); removing v moves each remaining
 * neighbour one bucket down by swapping it with its bucket's first vertex
 * (Batagelj and Zaversnik's O(m) core decomposition).
 */
#include "partition/order.h"

#include <stdlib.h>

int part_degeneracy_order(const struct tsg_graph *g, uint32_t *order, uint32_t *degeneracy,
			  struct tsg_err *err)
{
	int rc = TSG_OK;
	const uint64_t nv = g->nv;
	uint64_t maxd = 0;
	for (uint64_t v = 0; v < nv; v++)
		if (g->off[v + 1] - g->off[v] > maxd)
			maxd = g->off[v + 1] - g->off[v];
	uint32_t *deg = malloc((nv + 1) * sizeof(*deg));
	uint32_t *vert = malloc((nv + 1) * sizeof(*vert)); /* vertices by remaining degree */
	uint32_t *pos = malloc((nv + 1) * sizeof(*pos));   /* v's place in vert */
	uint64_t *start = calloc(maxd + 2, sizeof(*start)); /* first place of each degree */
	if (!deg || !vert || !pos || !start) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for the degeneracy order");
		goto done;
	}
	for (uint64_t v = 0; v < nv; v++) {
		deg[v] = (uint32_t)(g->off[v + 1] - g->off[v]);
		start[deg[v] + 1]++;
	}
	for (uint64_t d = 1; d <= maxd + 1; d++)
		start[d] += start[d - 1];
	for (uint64_t v = 0; v < nv; v++) { /* by id within a degree at the start */
		pos[v] = (uint32_t)start[deg[v]]++;
		vert[pos[v]] = (uint32_t)v;
	}
	for (uint64_t d = maxd + 1; d > 0; d--)
		start[d] = start[d - 1];
	start[0] = 0;
	uint32_t core = 0;
	for (uint64_t i = 0; i < nv; i++) {
		const uint32_t v = vert[i];
		order[v] = (uint32_t)i;
		if (deg[v] > core)
			core = deg[v];
		for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++) {
			const uint32_t u = g->adj[x];
			if (pos[u] <= i || deg[u] <= deg[v])
				continue; /* removed, or already at v's level */
			/* u moves to the front of its bucket, then down one */
			const uint64_t pu = pos[u], pw = start[deg[u]];
			const uint32_t w = vert[pw];
			if (u != w) {
				vert[pu] = w;
				pos[w] = (uint32_t)pu;
				vert[pw] = u;
				pos[u] = (uint32_t)pw;
			}
			start[deg[u]]++;
			deg[u]--;
		}
	}
	if (degeneracy)
		*degeneracy = core;
done:
	free(deg);
	free(vert);
	free(pos);
	free(start);
	return rc;
}
