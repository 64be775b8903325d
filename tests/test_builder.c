/*
 * test_builder.c - the edge builder and radix sort: spilling to temporary
 * runs (forced by a tiny memory limit) gives exactly the in-memory result;
 * self-loops and duplicates are dropped and counted; relabel drops isolated
 * vertices and keeps lists sorted; a missing spill directory is a clear error.
 * The in-memory build (io/csr_build.c) against the merge of spilled runs on
 * hubs past its radix threshold, relabelling, declared vertex counts and
 * thread counts, into a file and into memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/builder.h"
#include "io/csr_build.h"
#include "io/format.h"
#include "io/sort.h"
#include "testlib.h"

static int build_t(const char *path, const uint64_t *e, size_t n, uint64_t mem, int relabel,
		   unsigned threads, uint64_t min_nv, struct tsg_graph *mem_g,
		   struct io_build_stats *bs, struct tsg_err *err)
{
	struct io_builder_opts bo = { .mem_limit = mem, .threads = threads, .relabel = relabel,
				      .tmpdir = t_tmpdir(), .min_nv = min_nv };
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
	if (mem_g)
		return io_builder_finish_mem(b, mem_g, bs, err);
	return io_builder_finish(b, path, bs, err);
}

static int build(const char *path, const uint64_t *e, size_t n, uint64_t mem, int relabel,
		 struct io_build_stats *bs, struct tsg_err *err)
{
	return build_t(path, e, n, mem, relabel, 2, 0, NULL, bs, err);
}

static int same_graph(const struct tsg_graph *a, const struct tsg_graph *b)
{
	return a->nv == b->nv && a->nadj == b->nadj && a->max_degree == b->max_degree &&
	       memcmp(a->off, b->off, (a->nv + 1) * 8) == 0 &&
	       (a->nadj == 0 || memcmp(a->adj, b->adj, a->nadj * 4) == 0);
}

/* The parallel in-memory build against the merge path (a memory limit
 * small enough to spill), on edges with hubs longer than the rows the
 * in-memory build sorts by radix, repeats both ways, and self-loops. */
static void csr_vs_merge(struct t_state *st, uint64_t *seed)
{
	enum { M = 40000, NV = 5000 };
	uint64_t *e = malloc(M * sizeof(*e));
	for (size_t i = 0; i < M; i++) {
		uint64_t u = t_rand(seed) % NV, v = t_rand(seed) % NV;
		if (i % 4 == 0)
			u = 7; /* a hub of degree about M / 4, past RADIX_ROW */
		if (i % 97 == 0)
			v = u; /* a self-loop */
		e[i] = i % 11 == 0 && i ? e[i - 1] >> 32 | e[i - 1] << 32 : u << 32 | v;
	}
	struct tsg_graph gf, gm; /* from the file, and built in memory */
	struct io_load_opts lo = { .io = IO_MODE_PREAD, .threads = 2 };
	struct tsg_err err = { 0 };
	char merge_path[4096], csr_path[4096];
	snprintf(merge_path, sizeof(merge_path), "%s", t_path("csr-merge.tsg"));
	snprintf(csr_path, sizeof(csr_path), "%s", t_path("csr-mem.tsg"));
	for (int relabel = 0; relabel < 2; relabel++)
		for (uint64_t min_nv = 0; min_nv <= 9000; min_nv += 9000)
			for (unsigned threads = 1; threads <= 3; threads += 2) {
				struct io_build_stats a, b, c;
				struct tsg_graph ref;
				int rc = build_t(merge_path, e, M, 16 * 1024, relabel, threads, min_nv,
						 NULL, &a, &err);
				rc = rc ? rc : build_t(csr_path, e, M, 64u << 20, relabel, threads,
						       min_nv, NULL, &b, &err);
				rc = rc ? rc : build_t(NULL, e, M, 64u << 20, relabel, threads, min_nv,
						       &gm, &c, &err);
				CHECK(st, rc == 0, "builds (relabel %d, min_nv %llu, %u threads): %s",
				      relabel, (unsigned long long)min_nv, threads, err.msg);
				if (rc)
					continue;
				CHECK(st, a.runs > 0 && b.runs == 0 && c.runs == 0, "merge path spilled");
				rc = io_graph_load(merge_path, &lo, &ref, &err);
				rc = rc ? rc : io_graph_load(csr_path, &lo, &gf, &err);
				CHECK(st, rc == 0, "load: %s", err.msg);
				if (rc) {
					io_graph_free(&gm);
					continue;
				}
				CHECK(st, same_graph(&ref, &gf) && same_graph(&ref, &gm),
				      "in-memory build equals the merge (relabel %d, min_nv %llu, %u "
				      "threads)", relabel, (unsigned long long)min_nv, threads);
				CHECK(st, a.self_loops == b.self_loops && a.duplicates == b.duplicates &&
				      b.duplicates == c.duplicates && a.isolated == b.isolated &&
				      a.nedges == c.nedges && a.max_degree == c.max_degree,
				      "same statistics");
				CHECK(st, ref.max_degree > 2048, "the hub passes the radix threshold");
				/* the in-memory build sized its output for every key before
				 * deduplication and cut it after: the file is exactly as long
				 * as the graph's layout, and repeats were there to drop */
				struct io_header lay;
				FILE *fc = fopen(csr_path, "rb");
				long csr_size = fc && fseek(fc, 0, SEEK_END) == 0 ? ftell(fc) : -1;
				if (fc)
					fclose(fc);
				CHECK(st, csr_size == (long)io_header_layout(&lay, gf.nv, gf.nadj, 0) &&
					      b.duplicates > 0,
				      "file cut to its lists: %ld bytes for %llu entries, %llu repeats dropped",
				      csr_size, (unsigned long long)gf.nadj,
				      (unsigned long long)b.duplicates);
				io_graph_free(&ref);
				io_graph_free(&gf);
				io_graph_free(&gm);
			}
	free(e);
}

/* Keys handed over in parts (io_builder_add_canon_parts: a text parser's
 * threads) build what the same edges added one by one build: in memory,
 * where the parts are copied on several threads, and under a memory limit
 * that fills the buffer part way through a call (spilled runs). Parts may
 * be empty; loops and the largest id travel with them. */
static void parts_vs_add(struct t_state *st, uint64_t *seed)
{
	enum { M = 30000, NV = 3000, NP = 7 };
	uint64_t *e = malloc(M * sizeof(*e)), *keys = malloc(M * sizeof(*keys));
	size_t nk = 0, cut[NP + 1];
	uint64_t loops = 0, max_id = 0;
	for (size_t i = 0; i < M; i++) {
		const uint64_t u = t_rand(seed) % NV, v = i % 50 == 0 ? u : t_rand(seed) % NV;
		e[i] = u << 32 | v;
		const uint64_t k = io_edge_key(u, v);
		if (!k) {
			loops++;
			continue;
		}
		keys[nk++] = k;
		max_id = (k & 0xffffffffu) > max_id ? k & 0xffffffffu : max_id;
	}
	for (unsigned i = 0; i <= NP; i++) /* part 2 is empty */
		cut[i] = i <= 2 ? nk * i / (NP + 1) : nk * (i - 1) / (NP - 1);
	cut[NP] = nk;
	const uint64_t mems[] = { 64u << 20, 64 * 1024 };
	for (unsigned m = 0; m < 2; m++) {
		struct tsg_graph ga, gb;
		struct io_build_stats sa, sb;
		struct tsg_err err = { 0 };
		int rc = build_t(NULL, e, M, 64u << 20, 0, 3, 0, &ga, &sa, &err);
		CHECK(st, rc == 0, "one by one: %s", err.msg);
		struct io_builder_opts bo = { .mem_limit = mems[m], .threads = 3, .tmpdir = t_tmpdir() };
		struct io_builder *b = NULL;
		struct io_key_part parts[NP];
		for (unsigned i = 0; i < NP; i++)
			parts[i] = (struct io_key_part){ .keys = keys + cut[i], .n = cut[i + 1] - cut[i],
							 .loops = i == 0 ? loops : 0,
							 .max_id = cut[i + 1] > cut[i] ? max_id : 0 };
		int rb = io_builder_new(&bo, &b, &err);
		/* two calls: the second lands on a buffer already part full */
		rb = rb ? rb : io_builder_add_canon_parts(b, parts, 3, &err);
		rb = rb ? rb : io_builder_add_canon_parts(b, parts + 3, NP - 3, &err);
		if (rb)
			io_builder_free(b);
		else if (m == 0)
			rb = io_builder_finish_mem(b, &gb, &sb, &err);
		else /* the spilled runs are merged only into a file */
			rb = io_builder_finish(b, t_path("parts.tsg"), &sb, &err);
		if (rb == 0 && m == 1) {
			struct io_load_opts lo = { .io = IO_MODE_PREAD, .threads = 2 };
			rb = io_graph_load(t_path("parts.tsg"), &lo, &gb, &err);
		}
		CHECK(st, rb == 0, "in parts (limit %llu): %s", (unsigned long long)mems[m], err.msg);
		if (rc == 0 && rb == 0) {
			CHECK(st, same_graph(&ga, &gb), "parts build the same graph (limit %llu)",
			      (unsigned long long)mems[m]);
			CHECK(st, sa.input_edges == sb.input_edges && sa.self_loops == sb.self_loops &&
				  sa.duplicates == sb.duplicates && (m == 0 || sb.runs > 0),
			      "stats (limit %llu): input %llu/%llu loops %llu/%llu dups %llu/%llu runs "
			      "%llu", (unsigned long long)mems[m],
			      (unsigned long long)sa.input_edges, (unsigned long long)sb.input_edges,
			      (unsigned long long)sa.self_loops, (unsigned long long)sb.self_loops,
			      (unsigned long long)sa.duplicates, (unsigned long long)sb.duplicates,
			      (unsigned long long)sb.runs);
		}
		if (rc == 0)
			io_graph_free(&ga);
		if (rb == 0)
			io_graph_free(&gb);
	}
	free(e);
	free(keys);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)n + 1)) &&
	    fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	if (f)
		fclose(f);
	*len = n > 0 ? (size_t)n : 0;
	return b;
}

/* The in-memory build's two orders give the same file byte for byte: each
 * bucket copied once the ones before it are sorted (into a file made for
 * every key, then cut), and every bucket sorted before any is copied (the
 * order relabel and a disk short of room for the bound take). Repeats and
 * a hub past the radix threshold included; memory output too. */
static void fused_vs_in_turn(struct t_state *st, const uint64_t *seed)
{
	enum { M = 50000, NV = 4000 };
	char paths[2][4096];
	snprintf(paths[0], sizeof(paths[0]), "%s", t_path("fused.tsg"));
	snprintf(paths[1], sizeof(paths[1]), "%s", t_path("in-turn.tsg"));
	struct tsg_graph g[2];
	int built[2] = { 0, 0 };
	for (unsigned order = 0; order < 2; order++)
		for (unsigned mem = 0; mem < 2; mem++) {
			uint64_t *keys = malloc(M * sizeof(*keys)), s2 = *seed;
			for (size_t i = 0; i < M; i++) {
				uint64_t u = t_rand(&s2) % NV, v = t_rand(&s2) % NV;
				u = i % 5 == 0 ? 11 : u; /* a hub past the radix threshold */
				keys[i] = io_edge_key(u, u == v ? (v + 1) % NV : v);
				if (i % 7 == 0 && i)
					keys[i] = keys[i - 1]; /* a repeat */
			}
			struct io_csr_out out = { .path = mem ? NULL : paths[order],
						  .mem = mem ? &g[order] : NULL, .in_turn = (int)order };
			struct io_csr_stats cs;
			struct tsg_err err = { 0 };
			const int rc = io_csr_build(keys, M, NV, 0, 3, &out, &cs, &err);
			CHECK(st, rc == 0 && cs.duplicates > 0, "build (%s, %s): %s",
			      order ? "in turn" : "fused", mem ? "memory" : "file", err.msg);
			if (mem)
				built[order] = rc == 0;
		}
	size_t la = 0, lb = 0;
	uint8_t *a = slurp(paths[0], &la), *b = slurp(paths[1], &lb);
	CHECK(st, a && b && la == lb && memcmp(a, b, la) == 0,
	      "fused and in-turn files identical (%zu and %zu bytes)", la, lb);
	CHECK(st, built[0] && built[1] && same_graph(&g[0], &g[1]) && g[0].max_degree > 2048,
	      "and in memory");
	free(a);
	free(b);
	for (unsigned i = 0; i < 2; i++)
		if (built[i])
			io_graph_free(&g[i]);
}

int main(void)
{
	struct t_state st = { 0 };
	uint64_t seed = 5;
	parts_vs_add(&st, &seed);
	fused_vs_in_turn(&st, &seed);
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

	/* the single-thread radix sort of one row */
	for (size_t n = 0; n < 100000; n = n * 5 + 3) {
		uint32_t *k = malloc((n + 1) * 4), *tmp = malloc((n + 1) * 4);
		uint64_t sum = 0, sum2 = 0;
		for (size_t i = 0; i < n; i++) {
			k[i] = (uint32_t)(t_rand(&seed) >> (t_rand(&seed) % 48));
			sum += k[i] * 0x9e3779b97f4a7c15ull;
		}
		io_sort_u32(k, tmp, n);
		int ok = 1;
		for (size_t i = 0; i < n; i++) {
			ok &= i == 0 || k[i - 1] <= k[i];
			sum2 += k[i] * 0x9e3779b97f4a7c15ull;
		}
		CHECK(&st, ok && sum == sum2, "32-bit radix sort of %zu keys", n);
		free(k);
		free(tmp);
	}
	csr_vs_merge(&st, &seed);

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
