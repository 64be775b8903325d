/*
 * held_offsets.c - times part_held_offsets (partition/held.h), the step
 * in which one rank lays out the offsets of the oriented graph that ranks
 * reading by ranges, or a host's ranks building one graph, fill.
 *
 *   build/bench/held-offsets NV THREADS [RUNS]
 *
 * Ranks are a fixed pseudo-random permutation of NV vertices (the
 * (degree, id) order scatters a file's ids about as much), out-degrees
 * 0..6. Prints each run's seconds and the edge sum, which must not depend
 * on THREADS.
 */
#include <stdio.h>
#include <stdlib.h>

#include "partition/held.h"
#include "base/util.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: held-offsets NV THREADS [RUNS]\n");
		return 2;
	}
	const uint64_t nv = strtoull(argv[1], NULL, 10);
	const unsigned threads = (unsigned)atoi(argv[2]);
	const int runs = argc > 3 ? atoi(argv[3]) : 3;
	uint32_t *rank = malloc((nv ? nv : 1) * sizeof(*rank));
	uint32_t *outdeg = malloc((nv ? nv : 1) * sizeof(*outdeg));
	struct part_odag d = { .off = malloc((nv + 1) * sizeof(*d.off)) };
	if (!rank || !outdeg || !d.off) {
		fprintf(stderr, "held-offsets: out of memory\n");
		return 1;
	}
	for (uint64_t v = 0; v < nv; v++) {
		rank[v] = (uint32_t)v;
		outdeg[v] = (uint32_t)((v * 2654435761u) % 7);
	}
	for (uint64_t v = nv; v > 1; v--) { /* a fixed shuffle (an LCG's high bits) */
		const uint64_t j = ((v * 6364136223846793005ull + 1442695040888963407ull) >> 20) % v;
		const uint32_t t = rank[v - 1];
		rank[v - 1] = rank[j];
		rank[j] = t;
	}
	for (int r = 0; r < runs; r++) {
		const double t0 = tsg_now();
		part_held_offsets(nv, rank, outdeg, threads, &d);
		printf("nv %llu threads %u run %d: %.3f s, ne %llu, max %u\n", (unsigned long long)nv,
		       threads, r, tsg_now() - t0, (unsigned long long)d.ne, d.max_out);
	}
	free(rank);
	free(outdeg);
	free(d.off);
	return fflush(stdout) == 0 ? 0 : 1;
}
