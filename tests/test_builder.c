/*
 * test_builder.c - the edge builder and radix sort: spilling to temporary
 * runs (forced by a tiny memory limit) gives exactly the in-memory result;
 * self-loops and duplicates are dropped and counted; relabel drops isolated
 * vertices and keeps lists sorted; a missing spill directory is a clear error.
 */
#include <stdlib.h>
#include <string.h>

#include "io/builder.h"
#include "io/sort.h"
#include "testlib.h"

static int build(const char *path, const uint64_t *e, size_t n, uint64_t mem, int relabel,
		 struct io_build_stats *bs, struct tsg_err *err)
{
	struct io_builder_opts bo = { .mem_limit = mem, .threads = 2, .relabel = relabel,
				      .tmpdir = t_tmpdir() };
	struct io_builder *b;
	int rc = io_builder_new(&bo, &b, err);
	if (rc)
		return rc;
	for (size_t at = 0; at < n && rc == 0; at += 1000)
		rc = io_builder_add(b, e + at, n - at < 1000 ? n - at : 1000, err);
	if (rc) {
		io_builder_free(b);
		return rc;
	}
	return io_builder_finish(b, path, bs, err);
}

int main(void)
{
	struct t_state st = { 0 };
	uint64_t seed = 5;
	/* radix sort against qsort-free check: sortedness and multiset (sum, xor) */
	for (size_t n = 0; n < 300000; n = n * 3 + 1) {
		uint64_t *k = malloc((n + 1) * 8), *tmp = malloc((n + 1) * 8), sum = 0, x = 0;
		for (size_t i = 0; i < n; i++) {
			k[i] = t_rand(&seed) >> (t_rand(&seed) % 40);
			sum += k[i];
			x ^= k[i] * 31;
		}
		io_sort_u64(k, tmp, n, 2);
		int ok = 1;
		uint64_t s2 = 0, x2 = 0;
		for (size_t i = 0; i < n; i++) {
			ok &= i == 0 || k[i - 1] <= k[i];
			s2 += k[i];
			x2 ^= k[i] * 31;
		}
		CHECK(&st, ok && s2 == sum && x2 == x, "radix sort of %zu keys", n);
		free(k);
		free(tmp);
	}

	enum { N = 60000 };
	uint64_t *e = malloc(N * sizeof(*e));
	for (size_t i = 0; i < N; i++) {
		uint64_t u = t_rand(&seed) % 3000, v = t_rand(&seed) % 3000;
		e[i] = u << 32 | v;
	}
	/* some self-loops and reversed duplicates */
	for (size_t i = 0; i < 100; i++)
		e[i] = (uint64_t)i << 32 | i;
	for (size_t i = 100; i < 200; i++)
		e[i] = (e[i + 1000] & 0xffffffffu) << 32 | e[i + 1000] >> 32;
	struct io_build_stats a, b;
	struct tsg_err err = { 0 };
	char *pa = strdup(t_path("mem.tsg")), *pb = strdup(t_path("spill.tsg"));
	CHECK(&st, build(pa, e, N, 64u << 20, 0, &a, &err) == 0, "in memory: %s", err.msg);
	CHECK(&st, build(pb, e, N, 16 * 1024, 0, &b, &err) == 0, "spilled: %s", err.msg);
	CHECK(&st, a.runs == 0 && b.runs > 4, "runs: %llu / %llu", (unsigned long long)a.runs,
	      (unsigned long long)b.runs);
	CHECK(&st, a.self_loops >= 100 && a.self_loops == b.self_loops, "self-loops counted");
	CHECK(&st, a.duplicates >= 100 && a.duplicates == b.duplicates, "duplicates counted: %llu %llu",
	      (unsigned long long)a.duplicates, (unsigned long long)b.duplicates);
	CHECK(&st, a.nedges == b.nedges && a.nedges + a.duplicates + a.self_loops == N, "edge balance");
	struct tsg_graph ga, gb;
	struct io_load_opts lo = { .io = IO_MODE_PREAD, .threads = 2 };
	CHECK(&st, io_graph_load(pa, &lo, &ga, &err) == 0, "%s", err.msg);
	CHECK(&st, io_graph_load(pb, &lo, &gb, &err) == 0, "%s", err.msg);
	CHECK(&st, ga.nv == gb.nv && ga.nadj == gb.nadj &&
	      memcmp(ga.off, gb.off, (ga.nv + 1) * 8) == 0 && memcmp(ga.adj, gb.adj, ga.nadj * 4) == 0,
	      "spilled build is identical to the in-memory one");
	uint64_t ref = t_ref_count(&ga);
	io_graph_free(&gb);

	/* relabel: spread ids far apart; same triangles, no isolated vertices */
	for (size_t i = 0; i < N; i++)
		e[i] = ((e[i] >> 32) * 1000003 % 4000000000u) << 32 | ((e[i] & 0xffffffffu) * 1000003 % 4000000000u);
	CHECK(&st, build(pb, e, N, 1u << 20, 1, &b, &err) == 0, "relabel: %s", err.msg);
	CHECK(&st, io_graph_load(pb, &lo, &gb, &err) == 0, "%s", err.msg);
	CHECK(&st, gb.nv <= 3000 && gb.nv == b.nv && b.isolated > 2000000000u, "relabelled to %llu",
	      (unsigned long long)gb.nv);
	int none_isolated = 1;
	for (uint64_t v = 0; v < gb.nv; v++)
		none_isolated &= io_graph_degree(&gb, v) > 0;
	CHECK(&st, none_isolated, "relabel leaves no isolated vertex");
	CHECK(&st, t_ref_count(&gb) == ref, "relabel keeps the triangles");
	io_graph_free(&ga);
	io_graph_free(&gb);

	/* a spill directory that does not exist */
	{
		struct io_builder_opts bo = { .mem_limit = 16 * 1024, .threads = 1,
					      .tmpdir = "/nonexistent/dir" };
		struct io_builder *bb;
		memset(&err, 0, sizeof(err));
		int rc = io_builder_new(&bo, &bb, &err);
		if (!rc)
			rc = io_builder_add(bb, e, N, &err);
		CHECK(&st, rc == TSG_EIO && strstr(err.msg, "/nonexistent/dir"), "rc %d: %s", rc, err.msg);
		io_builder_free(bb);
	}
	free(pa);
	free(pb);
	free(e);
	return t_finish(&st);
}
