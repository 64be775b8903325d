/* For the #50 lead: how much of mid-hash's work (probes: the tail of out(a)
 * after b, for every edge a -> b) has its middle vertex b among the top
 * ranks T, against the edges pointing into T (the graph G_T the arrival
 * layout would hold during the read). Ranks are (degree, id) as the engine's. */
#include <stdio.h>
#include <stdlib.h>
#include "io/graph.h"
#include "partition/orient.h"
static void *heap(void *c, size_t b) { (void)c; return malloc(b); }
int main(int argc, char **argv)
{
	struct tsg_graph g; struct tsg_err err = {0};
	struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = 2 };
	if (io_graph_load(argv[1], &lo, &g, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
	struct part_odag d; struct part_orient_opts oo = { .threads = 2, .alloc = heap };
	if (part_orient(&g, &oo, &d, NULL, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
	uint64_t *indeg = calloc(d.nv, 8), *probes = calloc(d.nv, 8);
	for (uint32_t a = 0; a < d.nv; a++)
		for (uint64_t p = d.off[a]; p < d.off[a + 1]; p++) {
			const uint32_t b = d.adj[p];
			indeg[b]++;
			probes[b] += d.off[a + 1] - p - 1;
		}
	uint64_t tot_p = 0;
	for (uint32_t b = 0; b < d.nv; b++) tot_p += probes[b];
	printf("%s: nv %u, oriented edges %llu, probes %llu\n", argv[1], d.nv, (unsigned long long)d.ne, (unsigned long long)tot_p);
	printf("| edges into T (share of all) | top ranks in T | share of probes with b in T | rows of T's own vertices (share) |\n|---|---|---|---|\n");
	const double marks[] = { 0.02, 0.05, 0.10, 0.14, 0.20, 0.30, 0.40, 0.50, 0.70, 0.90, 2 };
	int m = 0; uint64_t e = 0, pr = 0, rows = 0;
	for (uint32_t b = d.nv; b-- > 0;) {
		e += indeg[b]; pr += probes[b]; rows += d.off[b + 1] - d.off[b];
		while (m < 10 && (double)e >= marks[m] * (double)d.ne) {
			printf("| %.2f | %u | %.3f | %.3f |\n", (double)e / d.ne, d.nv - b, (double)pr / tot_p, (double)rows / d.ne);
			m++;
		}
	}
	return 0;
}
