/*
 * test_api.c - the library interface (src/tristream.h) from C, linked with
 * libtristream.so as a program would be: the header alone, closed forms,
 * errors and their codes, a stop, a text file read by the count. Ends with
 * "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/tristream.h"

static int pass, fail;

static void check(const char *what, int ok)
{
	if (ok) {
		pass++;
	} else {
		fail++;
		printf("FAIL: %s\n", what);
	}
}

/* K_n as both directions of every pair, in CSR */
static tristream_graph *complete(uint32_t n)
{
	uint64_t off[17];
	uint32_t adj[16 * 15];
	struct tristream_error e;
	tristream_graph *g = NULL;
	off[0] = 0;
	for (uint32_t u = 0, k = 0; u < n; u++) {
		for (uint32_t v = 0; v < n; v++)
			if (v != u)
				adj[k++] = v;
		off[u + 1] = k;
	}
	if (tristream_graph_from_csr(n, off, adj, &g, &e))
		printf("from_csr: %s\n", e.message);
	return g;
}

static uint64_t choose(uint64_t n, uint64_t k)
{
	uint64_t r = 1;
	for (uint64_t i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

int main(void)
{
	struct tristream_error e;
	tristream_result *r = NULL;
	tristream_options *o = NULL;
	tristream_stop *s = NULL;
	char what[96];
	check("api version", tristream_api_version() == TRISTREAM_API_VERSION);
	for (uint32_t n = 3; n <= 16; n++) {
		tristream_graph *g = complete(n);
		check("K_n built", g && tristream_graph_vertices(g) == n &&
					   tristream_graph_edges(g) == n * (n - 1) / 2 &&
					   tristream_graph_degree(g, 0) == n - 1);
		snprintf(what, sizeof(what), "K_%u: C(n,3) triangles", n);
		check(what, g && tristream_count(g, NULL, NULL, &r, &e) == 0 &&
				    tristream_result_count(r) == choose(n, 3));
		tristream_result_free(r);
		r = NULL;
		for (uint32_t k = 4; k <= 6 && k <= n; k++) {
			char kv[8];
			snprintf(kv, sizeof(kv), "%u", k);
			snprintf(what, sizeof(what), "K_%u: C(n,%u) cliques", n, k);
			check(what, tristream_options_new(&o, &e) == 0 &&
					    tristream_options_set(o, "k", kv, &e) == 0 &&
					    tristream_count(g, o, NULL, &r, &e) == 0 &&
					    tristream_result_count(r) == choose(n, k));
			tristream_result_free(r);
			tristream_options_free(o);
			r = NULL;
			o = NULL;
		}
		tristream_graph_free(g);
	}
	/* per vertex, from edges with a loop and a repeat: a triangle and a tail */
	const uint32_t src[] = { 0, 1, 2, 2, 3, 1 }, dst[] = { 1, 2, 0, 3, 3, 0 };
	tristream_graph *g = NULL;
	check("from_edges", tristream_graph_from_edges(5, src, dst, 6, &g, &e) == 0 &&
				    tristream_graph_edges(g) == 4);
	check("per-vertex on", tristream_options_new(&o, &e) == 0 &&
				       tristream_options_set(o, "per-vertex", "1", &e) == 0 &&
				       tristream_count(g, o, NULL, &r, &e) == 0);
	const uint64_t *pv = tristream_result_per_vertex(r);
	const double *cl = tristream_result_clustering(r);
	check("per-vertex counts", pv && pv[0] == 1 && pv[1] == 1 && pv[2] == 1 && pv[3] == 0 &&
					   pv[4] == 0);
	check("clustering", cl && cl[0] == 1.0 && cl[2] == 1.0 / 3.0 && cl[3] == 0 && cl[4] == 0);
	check("transitivity 3/5", tristream_result_transitivity(r) == 3.0 / 5.0);
	check("JSON report", tristream_result_json(r) && tristream_result_json(r)[0] == '{' &&
				     strstr(tristream_result_json(r), "\"triangles\":1"));
	tristream_result_free(r);
	r = NULL;
	/* errors carry the command line's codes and name what is wrong */
	check("unknown option: 2", tristream_options_set(o, "colour", "red", &e) == 2 &&
					   e.code == 2 && strstr(e.message, "colour"));
	check("bad value: 2", tristream_options_set(o, "device", "tpu", &e) == 2 &&
				      strstr(e.message, "tpu"));
	check("k 4 with per-vertex: 2", tristream_options_set(o, "k", "4", &e) == 0 &&
						tristream_count(g, o, NULL, &r, &e) == 2);
	tristream_options_free(o);
	tristream_graph *bad = NULL;
	check("missing file: 3", tristream_graph_open("no/such/graph.tsg", &bad, &e) == 3 &&
					 strstr(e.message, "no/such/graph.tsg") && !bad);
	check("id out of range: 3", tristream_graph_from_edges(2, src, dst, 6, &bad, &e) == 3 &&
					    !bad);
	/* a stop requested before the count: nothing counted, status 8 */
	check("stop", tristream_stop_new(&s, &e) == 0);
	tristream_stop_request(s);
	check("stopped: 8", tristream_count(g, NULL, s, &r, &e) == 8 && !r &&
				    strstr(e.message, "stop"));
	tristream_stop_reset(s);
	check("reset: counts", tristream_count(g, NULL, s, &r, &e) == 0 &&
				       tristream_result_count(r) == 1);
	tristream_result_free(r);
	r = NULL;
	tristream_stop_free(s);
	/* the sweep is the command line's: refused, not reported as run */
	check("layout sweep: 2", tristream_options_new(&o, &e) == 0 &&
					 tristream_options_set(o, "layout", "sweep", &e) == 0 &&
					 tristream_count(g, o, NULL, &r, &e) == 2 && !r &&
					 strstr(e.message, "sweep"));
	tristream_options_free(o);
	tristream_graph_free(g);
	/* a text file, read by each count: K_5 (10 triangles, 5 4-cliques) and
	 * a pendant vertex 5, some pairs in both directions */
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/tristream-test-api-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	const int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	int wrote = f != NULL;
	for (int u = 0; u < 5 && f; u++)
		for (int v = 0; v < 5; v++)
			if (u != v && (v > u || (u + v) % 2))
				wrote &= fprintf(f, "%d %d\n", u, v) > 0;
	if (f) {
		wrote &= fprintf(f, "4 5\n") > 0;
		wrote &= fclose(f) == 0;
	}
	check("text file written", wrote);
	check("text file opened", tristream_graph_open(path, &g, &e) == 0);
	check("text file: 10 triangles", tristream_count(g, NULL, NULL, &r, &e) == 0 &&
						  tristream_result_count(r) == 10 &&
						  tristream_result_vertices(r) == 6 &&
						  tristream_result_edges(r) == 11 &&
						  strstr(tristream_result_json(r), "\"triangles\":10") &&
						  !strstr(tristream_result_json(r), "\"plan\":{"));
	tristream_result_free(r);
	r = NULL;
	check("text file per vertex", tristream_options_new(&o, &e) == 0 &&
					      tristream_options_set(o, "per-vertex", "1", &e) == 0 &&
					      tristream_options_set(o, "device", "cpu", &e) == 0 &&
					      tristream_count(g, o, NULL, &r, &e) == 0);
	pv = tristream_result_per_vertex(r);
	check("text file per-vertex counts", pv && pv[0] == 6 && pv[3] == 6 && pv[4] == 6 &&
						     pv[5] == 0);
	check("text file transitivity", tristream_result_transitivity(r) == 30.0 / 34.0);
	tristream_result_free(r);
	r = NULL;
	check("text file: 5 4-cliques", tristream_options_set(o, "per-vertex", "0", &e) == 0 &&
						tristream_options_set(o, "k", "4", &e) == 0 &&
						tristream_count(g, o, NULL, &r, &e) == 0 &&
						tristream_result_count(r) == 5);
	tristream_result_free(r);
	r = NULL;
	check("text file, layout sweep: 2", tristream_options_set(o, "k", "3", &e) == 0 &&
						    tristream_options_set(o, "layout", "sweep", &e) == 0 &&
						    tristream_count(g, o, NULL, &r, &e) == 2 && !r);
	tristream_options_free(o);
	tristream_graph_free(g);
	unlink(path);
	printf("%d passed, %d failed\n", pass, fail);
	return fail != 0;
}
