/*
 * brute.c - the tests' independent reference counter. It shares no code
 * with tristream: it links nothing of the project, parses its inputs with
 * stdio, and counts by the plainest method there is.
 *
 *   brute [--k K | --per-vertex | --clustering] FILE
 *
 * FILE is a text edge list (two ids a line; lines starting with '#' or '%'
 * and lines that do not start with two integers are skipped; a gzip file
 * is refused) or a plain (not LZ4) tristream .tsg file, read from
 * docs/FORMAT.md's layout without its checksums. The graph is taken as
 * undirected, without self-loops or duplicate edges. Prints the number of K-cliques (default 3: triangles),
 * found by recursion over each vertex's higher-id neighbours, and exits 0;
 * on any failure prints nothing to stdout and exits 1. --per-vertex prints
 * "id triangles" for every vertex with an edge, each triangle found by a
 * triple loop; --clustering prints the transitivity and the average local
 * clustering over the vertices with an edge (NetworkX's definitions), %.6f.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct graph {
	uint64_t n;        /* vertices */
	uint64_t *start;   /* n + 1: higher-id neighbours of v are up[start[v] .. start[v+1]) */
	uint32_t *up;
};

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Builds the higher-id lists from edges stored as (lo << 32 | hi). */
static int build(uint64_t *e, size_t m, struct graph *g)
{
	if (m) /* an empty graph may have no array at all: qsort wants one */
		qsort(e, m, sizeof(*e), cmp_u64);
	size_t k = 0;
	uint64_t n = 0;
	for (size_t i = 0; i < m; i++)
		if (i == 0 || e[i] != e[i - 1]) {
			e[k++] = e[i];
			if ((e[i] & 0xffffffffu) + 1 > n)
				n = (e[i] & 0xffffffffu) + 1;
		}
	g->n = n;
	g->start = calloc(n + 1, sizeof(uint64_t));
	g->up = malloc((k ? k : 1) * sizeof(uint32_t));
	if (!g->start || !g->up)
		return -1;
	for (size_t i = 0; i < k; i++) {
		g->start[(e[i] >> 32) + 1]++;
		g->up[i] = (uint32_t)e[i];
	}
	for (uint64_t v = 0; v < n; v++)
		g->start[v + 1] += g->start[v];
	return 0;
}

static int push(uint64_t **e, size_t *m, size_t *cap, uint64_t u, uint64_t v)
{
	if (u == v)
		return 0;
	if (u > v) {
		const uint64_t t = u;
		u = v;
		v = t;
	}
	if (*m == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		uint64_t *ne = realloc(*e, *cap * sizeof(**e));
		if (!ne)
			return -1;
		*e = ne;
	}
	(*e)[(*m)++] = u << 32 | v;
	return 0;
}

static int read_tsg(FILE *f, uint64_t **e, size_t *m, size_t *cap)
{
	unsigned char h[4096];
	if (fread(h, 1, sizeof(h), f) != sizeof(h))
		return -1;
	uint32_t nsec, flags;
	uint64_t nv, offpos = 0, nbrpos = 0;
	memcpy(&flags, h + 12, 4);
	memcpy(&nsec, h + 20, 4);
	memcpy(&nv, h + 24, 8);
	if (flags != 0 || nsec > 8)
		return -1; /* LZ4 files are not read here */
	for (uint32_t i = 0; i < nsec; i++) {
		uint32_t kind;
		uint64_t pos;
		memcpy(&kind, h + 64 + 32 * i, 4);
		memcpy(&pos, h + 64 + 32 * i + 8, 8);
		if (kind == 1)
			offpos = pos;
		if (kind == 2)
			nbrpos = pos;
	}
	if (!offpos || !nbrpos)
		return -1;
	uint64_t *off = malloc((nv + 1) * sizeof(uint64_t));
	if (!off || fseeko(f, (off_t)offpos, SEEK_SET) || fread(off, 8, nv + 1, f) != nv + 1 ||
	    fseeko(f, (off_t)nbrpos, SEEK_SET)) {
		free(off);
		return -1;
	}
	int rc = 0;
	for (uint64_t v = 0; v < nv && !rc; v++)
		for (uint64_t x = off[v]; x < off[v + 1] && !rc; x++) {
			uint32_t w;
			if (fread(&w, 4, 1, f) != 1)
				rc = -1;
			else if (v < w)
				rc = push(e, m, cap, v, w);
		}
	free(off);
	return rc;
}

static int read_text(FILE *f, uint64_t **e, size_t *m, size_t *cap)
{
	char line[4096];
	while (fgets(line, sizeof(line), f)) {
		unsigned long long u, v;
		if (line[0] == '#' || line[0] == '%')
			continue;
		if (sscanf(line, "%llu%*[ \t,]%llu", &u, &v) == 2 && u <= 0xffffffffu &&
		    v <= 0xffffffffu && push(e, m, cap, u, v))
			return -1;
	}
	return ferror(f) ? -1 : 0;
}

/* Cliques of `left` more vertices among cand[0..nc), all higher-id
 * neighbours of every vertex chosen so far. */
static uint64_t cliques(const struct graph *g, const uint32_t *cand, uint64_t nc, unsigned left)
{
	if (left == 0)
		return 1;
	if (left == 1)
		return nc;
	uint64_t total = 0;
	uint32_t *next = malloc((nc ? nc : 1) * sizeof(uint32_t));
	if (!next) {
		fprintf(stderr, "brute: out of memory\n");
		exit(1);
	}
	for (uint64_t i = 0; i < nc; i++) {
		const uint32_t v = cand[i];
		uint64_t k = 0, a = i + 1, b = g->start[v];
		while (a < nc && b < g->start[v + 1]) { /* both sorted */
			if (cand[a] < g->up[b])
				a++;
			else if (cand[a] > g->up[b])
				b++;
			else {
				next[k++] = cand[a];
				a++;
				b++;
			}
		}
		total += cliques(g, next, k, left - 1);
	}
	free(next);
	return total;
}

static int has_up(const struct graph *g, uint32_t u, uint32_t w)
{
	for (uint64_t x = g->start[u]; x < g->start[u + 1]; x++)
		if (g->up[x] == w)
			return 1;
	return 0;
}

/* Per-vertex triangles by a triple loop, and the clustering figures. */
static int per_vertex(const struct graph *g, int clustering)
{
	uint64_t *t = calloc(g->n + 1, sizeof(uint64_t)), *deg = calloc(g->n + 1, sizeof(uint64_t));
	if (!t || !deg)
		return 1;
	for (uint64_t v = 0; v < g->n; v++)
		for (uint64_t i = g->start[v]; i < g->start[v + 1]; i++) {
			deg[v]++;
			deg[g->up[i]]++;
			for (uint64_t j = i + 1; j < g->start[v + 1]; j++)
				if (has_up(g, g->up[i], g->up[j])) {
					t[v]++;
					t[g->up[i]]++;
					t[g->up[j]]++;
				}
		}
	int bad = 0;
	if (clustering) {
		double sum = 0, tri3 = 0, triples = 0;
		uint64_t nv = 0;
		for (uint64_t v = 0; v < g->n; v++) {
			if (deg[v] == 0)
				continue;
			nv++;
			tri3 += (double)t[v];
			if (deg[v] < 2)
				continue;
			const double pairs = (double)deg[v] * (double)(deg[v] - 1) / 2;
			triples += pairs;
			sum += (double)t[v] / pairs;
		}
		bad = printf("%.6f %.6f\n", triples > 0 ? tri3 / triples : 0.0,
			     nv ? sum / (double)nv : 0.0) < 0;
	} else {
		for (uint64_t v = 0; v < g->n && !bad; v++)
			if (deg[v])
				bad = printf("%llu %llu\n", (unsigned long long)v,
					     (unsigned long long)t[v]) < 0;
	}
	free(t);
	free(deg);
	return bad || fflush(stdout) != 0;
}

int main(int argc, char **argv)
{
	unsigned k = 3;
	int a = 1, pv = 0, cl = 0;
	if (argc == 4 && strcmp(argv[1], "--k") == 0) {
		k = (unsigned)atoi(argv[2]);
		a = 3;
	} else if (argc == 3 && strcmp(argv[1], "--per-vertex") == 0) {
		pv = 1;
		a = 2;
	} else if (argc == 3 && strcmp(argv[1], "--clustering") == 0) {
		cl = 1;
		a = 2;
	}
	if (argc != a + 1 || k < 2 || k > 64) {
		fprintf(stderr, "usage: brute [--k K | --per-vertex | --clustering] FILE\n");
		return 1;
	}
	FILE *f = fopen(argv[a], "rb");
	if (!f) {
		perror(argv[a]);
		return 1;
	}
	char magic[8] = { 0 };
	const size_t got = fread(magic, 1, 8, f);
	const int is_tsg = got == 8 && memcmp(magic, "TRISTRM\x1a", 8) == 0;
	rewind(f);
	/* a compressed file read as text would skip every line: an empty graph
	 * and a reference of 0, where a test wants a refusal */
	if (got >= 2 && (unsigned char)magic[0] == 0x1f && (unsigned char)magic[1] == 0x8b) {
		fclose(f);
		fprintf(stderr, "brute: %s is gzip-compressed: give it the text\n", argv[a]);
		return 1;
	}
	uint64_t *e = NULL;
	size_t m = 0, cap = 0;
	struct graph g = { 0 };
	const int rc = is_tsg ? read_tsg(f, &e, &m, &cap) : read_text(f, &e, &m, &cap);
	fclose(f);
	if (rc || build(e, m, &g)) {
		fprintf(stderr, "brute: cannot read %s\n", argv[a]);
		return 1;
	}
	int out = 0;
	if (pv || cl)
		out = per_vertex(&g, cl);
	else {
		uint64_t total = 0;
		for (uint64_t v = 0; v < g.n; v++)
			total += cliques(&g, g.up + g.start[v], g.start[v + 1] - g.start[v], k - 1);
		out = printf("%llu\n", (unsigned long long)total) < 0 || fflush(stdout) != 0;
	}
	free(e);
	free(g.start);
	free(g.up);
	return out;
}
