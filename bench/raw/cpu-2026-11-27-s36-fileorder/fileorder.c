/* For #50's cold count at a quarter of the GPU (session 36): would an
 * orientation by (degree class, id) let the block layout's units start
 * during the read of a plain .tsg?
 *
 * The engine orients by (degree, id): a block of ranks holds vertices from
 * the whole file, so no unit is complete before the read ends. Ranked by
 * (floor(log2(degree)), id) instead, a block of ranks is a class's vertices
 * within a range of ids, whose lists lie in one stretch of the file: its
 * rows are complete once the read passes that stretch.
 *
 * For both orders this prints mid-hash's work (for every a, C(|out(a)|, 2):
 * the tail of out(a) after b, over each a -> b) and, for the class order,
 * the share of that work that is ready by each point of the read, where
 * work a -> b is ready once the blocks of a and b are both complete and a
 * block is up to ROWS/NB row entries of one class (NB from the command
 * line: the number of blocks the plan would cut at a budget; CBITS=k in
 * the environment makes a class k doublings of degree), its end the
 * file position (share of the lists' entries) of its last list. Also the
 * same with each vertex its own block (the finest plan possible).
 * Build: gcc -O2 -std=c11 -I. fileorder.c build/libtsg.a
 *        build/libtsg_hash_avx2.a -lpthread -lm -luring -llz4 -ldeflate */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/graph.h"

static const struct tsg_graph *G;
static uint64_t deg(uint32_t v) { return G->off[v + 1] - G->off[v]; }
static unsigned cbits = 1; /* a class: cbits of log2(degree) (CBITS in the environment) */
static unsigned cls(uint32_t v) { uint64_t d = deg(v); unsigned c = 0; while (d >>= 1) c++; return c / cbits; }
/* key order: 0 = (degree, id), 1 = (class, id) */
static int order;
static int before(uint32_t v, uint32_t w)
{
	const uint64_t kv = order ? cls(v) : deg(v), kw = order ? cls(w) : deg(w);
	return kv < kw || (kv == kw && v < w);
}

static int by_order(const void *x, const void *y)
{
	const uint32_t v = *(const uint32_t *)x, w = *(const uint32_t *)y;
	return v == w ? 0 : before(v, w) ? -1 : 1;
}

int main(int argc, char **argv)
{
	struct tsg_graph g; struct tsg_err err = {0};
	struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = 2 };
	if (argc < 3 || io_graph_load(argv[1], &lo, &g, &err)) { fprintf(stderr, "usage: fileorder G.tsg NB [NB...] %s\n", err.msg); return 1; }
	G = &g;
	if (getenv("CBITS")) cbits = (unsigned)atoi(getenv("CBITS"));
	printf("classes: floor(log2(degree) / %u)\n", cbits);
	const uint32_t nv = (uint32_t)g.nv;
	const double m2 = (double)g.off[nv];
	uint32_t *od = calloc(nv, 4);
	double work[2] = {0, 0};
	for (order = 0; order < 2; order++) {
		for (uint32_t v = 0; v < nv; v++) {
			uint32_t n = 0;
			for (uint64_t x = g.off[v]; x < g.off[v + 1]; x++) n += before(v, g.adj[x]);
			od[v] = n;
			work[order] += (double)n * (n - 1) / 2;
		}
	}
	order = 1; /* od now holds the class order's out-degrees */
	printf("%s: %u vertices, %.0f list entries\n", argv[1], nv, m2);
	printf("mid-hash work (wedges): by (degree, id) %.4g, by (class, id) %.4g: %.3fx\n", work[0], work[1], work[1] / work[0]);
	/* blocks: per class, consecutive ids up to rows/NB out-entries */
	uint64_t rows = 0; for (uint32_t v = 0; v < nv; v++) rows += od[v];
	uint32_t *blk = malloc(nv * 4); double *bend = NULL; double *pos = malloc(nv * sizeof(double));
	for (uint32_t v = 0; v < nv; v++) pos[v] = (double)g.off[v + 1] / m2;
	const double cuts[] = { 0.5, 0.75, 0.9, 0.95, 0.99, 0.999999 };
	for (int ai = 2; ai <= argc; ai++) {
		const int fine = ai == argc; /* last round: each vertex its own block */
		const uint64_t nb = fine ? 0 : strtoull(argv[ai], 0, 10), cap = fine ? 0 : rows / nb + 1;
		uint64_t nblk = 0;
		if (!fine) {
			uint64_t used[64] = {0}; int64_t cur[64]; memset(cur, -1, sizeof cur);
			free(bend); bend = malloc((nv + 64) * sizeof(double));
			for (uint32_t v = 0; v < nv; v++) {
				const unsigned c = cls(v);
				if (cur[c] < 0 || used[c] + od[v] > cap) { cur[c] = (int64_t)nblk++; used[c] = 0; bend[cur[c]] = 0; }
				used[c] += od[v]; blk[v] = (uint32_t)cur[c]; bend[cur[c]] = pos[v];
			}
		}
		double ready[6] = {0}, tot = 0;
		uint32_t *row = malloc((g.max_degree + 1) * 4);
		for (uint32_t a = 0; a < nv; a++) {
			uint64_t n = 0;
			for (uint64_t x = g.off[a]; x < g.off[a + 1]; x++)
				if (before(a, g.adj[x])) row[n++] = g.adj[x];
			qsort(row, n, 4, by_order);
			const double ta = fine ? pos[a] : bend[blk[a]];
			for (uint64_t i = 0; i < n; i++) { /* a -> row[i]: the tail after it */
				const uint32_t b = row[i];
				const double after = (double)(n - i - 1), tb = fine ? pos[b] : bend[blk[b]];
				const double t = ta > tb ? ta : tb;
				tot += after;
				for (int k = 0; k < 6; k++) if (t <= cuts[k]) ready[k] += after;
			}
		}
		free(row);
		printf(fine ? "each vertex its own block:" : "%llu blocks (NB %llu):", (unsigned long long)nblk, (unsigned long long)nb);
		for (int k = 0; k < 6; k++) printf("  by %.0f%% of the read %.3f", cuts[k] * 100 > 99.9999 ? 100 : cuts[k] * 100, ready[k] / tot);
		printf("  (work %.4g)\n", tot);
	}
	return 0;
}
