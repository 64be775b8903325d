#include "testlib.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/builder.h"

static char dir[4096];
static char pathbuf[4096];

int t_finish(const struct t_state *st)
{
	t_cleanup();
	printf("%u passed, %u failed\n", st->passed, st->failed);
	return st->failed ? 1 : 0;
}

const char *t_tmpdir(void)
{
	if (!dir[0]) {
		const char *base = getenv("TMPDIR");
		snprintf(dir, sizeof(dir), "%s/tsg-test-XXXXXX", base && *base ? base : "/tmp");
		if (!mkdtemp(dir)) {
			perror("mkdtemp");
			exit(2);
		}
	}
	return dir;
}

void t_cleanup(void)
{
	if (dir[0]) {
		char cmd[4200];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "warning: could not remove %s\n", dir);
		dir[0] = '\0';
	}
}

const char *t_path(const char *name)
{
	snprintf(pathbuf, sizeof(pathbuf), "%s/%s", t_tmpdir(), name);
	return pathbuf;
}

int t_graph_from_edges(const char *path, const uint64_t *edges, size_t n, uint64_t min_nv,
		       struct tsg_graph *g)
{
	struct io_builder_opts bo = { .mem_limit = 64u << 20, .threads = 2, .min_nv = min_nv };
	struct io_builder *b;
	struct tsg_err err = { 0 };
	struct io_load_opts lo = { .io = IO_MODE_PREAD, .threads = 2 };
	int rc = io_builder_new(&bo, &b, &err);
	if (!rc)
		rc = io_builder_add(b, edges, n, &err);
	if (!rc)
		rc = io_builder_finish(b, path, NULL, &err);
	else
		io_builder_free(b);
	if (!rc)
		rc = io_graph_load(path, &lo, g, &err);
	if (rc)
		fprintf(stderr, "t_graph_from_edges: %s\n", err.msg);
	return rc;
}

static int has_edge(const struct tsg_graph *g, uint32_t u, uint32_t v)
{
	uint64_t lo = g->off[u], hi = g->off[u + 1];
	while (lo < hi) {
		uint64_t mid = (lo + hi) / 2;
		if (g->adj[mid] == v)
			return 1;
		if (g->adj[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

uint64_t t_ref_count(const struct tsg_graph *g)
{
	uint64_t c = 0;
	for (uint32_t u = 0; u < g->nv; u++)
		for (uint64_t i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t v = g->adj[i];
			if (v <= u)
				continue;
			for (uint64_t k = g->off[v]; k < g->off[v + 1]; k++)
				if (g->adj[k] > v && has_edge(g, u, g->adj[k]))
					c++;
		}
	return c;
}

static int lower(const struct tsg_graph *g, uint32_t a, uint32_t b)
{
	uint64_t da = io_graph_degree(g, a), db = io_graph_degree(g, b);
	return da < db || (da == db && a < b);
}

uint64_t *t_ref_by_source(const struct tsg_graph *g)
{
	uint64_t *t = calloc(g->nv + 1, sizeof(*t));
	for (uint32_t u = 0; u < g->nv; u++)
		for (uint64_t i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t v = g->adj[i];
			if (v <= u)
				continue;
			for (uint64_t k = g->off[v]; k < g->off[v + 1]; k++) {
				uint32_t w = g->adj[k];
				if (w <= v || !has_edge(g, u, w))
					continue;
				uint32_t s = u;
				if (lower(g, v, s))
					s = v;
				if (lower(g, w, s))
					s = w;
				t[s]++;
			}
		}
	return t;
}

uint64_t t_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
