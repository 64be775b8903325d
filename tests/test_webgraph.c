/*
 * test_webgraph.c - BVGraph writing and reading (io/webgraph.h): every
 * graph written reads back list for list, for graphs of every shape (no
 * nodes, empty lists, self-loops, long runs of consecutive ids, lists that
 * repeat their neighbours', hubs, random and R-MAT) and every parameter the
 * reader takes (window 0, 1, 7; maxrefcount 0, 1, 3; minimum interval 0, 1,
 * 4; zeta 1..7), with and without .offsets, on 1 and 3 threads. The
 * undirected load merged with a transpose, and the one sorted without it,
 * give the same graph as the builder makes of the same arcs. The streaming
 * writer, fed chunks cut where io_webgraph_write cuts them, writes its
 * files byte for byte, and refuses a chunk out of order, leaving nothing.
 * A crawl counted as it is decoded, ranked by its degree bounds, lists no
 * id of the lowest ranks that part_rank gives the ids of bound 0.
 *
 * test_webgraph --transpose-of BASE: checks that BASE-t's lists are
 * exactly the transpose of BASE's (tests/gen.sh, on tristream-gen's
 * crawls); prints the arcs checked, exits 0 if so, 1 if not.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/atomic.h"
#include "io/builder.h"
#include "io/webgraph.h"
#include "partition/rows.h"
#include "testlib.h"

struct lists {
	uint64_t nv, *off;
	uint32_t *adj;
};

static int cmp_u32(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Lists of a directed graph of the given shape; sorted, no repeats. */
static void make(struct lists *l, int shape, uint64_t nv, uint64_t *seed)
{
	l->nv = nv;
	l->off = calloc(nv + 1, sizeof(uint64_t));
	uint64_t cap = 1024, n = 0;
	l->adj = malloc(cap * 4);
	uint32_t *tmp = malloc((nv + 64) * 4);
	for (uint64_t v = 0; v < nv; v++) {
		uint64_t d = 0;
		switch (shape) {
		case 0: break; /* every list empty */
		case 1: /* random, some self-loops */
			d = t_rand(seed) % 12;
			for (uint64_t i = 0; i < d; i++)
				tmp[i] = (uint32_t)(t_rand(seed) % nv);
			break;
		case 2: /* runs of consecutive ids around v (intervals), and v itself */
			d = 0;
			for (uint64_t a = v >= 3 ? v - 3 : 0; a < nv && a <= v + 40; a++)
				tmp[d++] = (uint32_t)a;
			break;
		case 3: /* neighbours copied from a few nodes back, with changes */
			d = 0;
			for (uint64_t k = 0; k < 20; k++)
				tmp[d++] = (uint32_t)((v / 8 * 8 + k * 7 + (t_rand(seed) % 4 == 0)) % nv);
			break;
		case 4: /* hubs: every vertex links to the first 50, vertex 0 to all */
			if (v == 0)
				for (uint64_t a = 0; a < nv; a++)
					tmp[d++] = (uint32_t)a;
			else
				for (uint64_t a = 0; a < 50 && a < nv; a++)
					tmp[d++] = (uint32_t)((a * 13 + v) % nv);
			break;
		case 5: /* a crawl's page: its site's menu (the first 12 pages of
			 * 64), the next pages, a section's links, a far page: runs
			 * in every part, and out- and in-lists that differ */
			for (uint64_t a = v / 64 * 64; a < v / 64 * 64 + 12 && a < nv; a++)
				tmp[d++] = (uint32_t)a;
			for (uint64_t a = v + 1; a < v + 1 + t_rand(seed) % 10 && a < nv; a++)
				tmp[d++] = (uint32_t)a;
			for (uint64_t k = 0; k < 9; k++)
				if (t_rand(seed) % 8)
					tmp[d++] = (uint32_t)((v / 16 * 16 + k * 5 + 20) % nv);
			tmp[d++] = (uint32_t)(t_rand(seed) % nv);
			break;
		default: { /* R-MAT-like: skewed ids */
			d = t_rand(seed) % 20;
			for (uint64_t i = 0; i < d; i++) {
				uint64_t x = 0;
				for (uint64_t b = nv; b > 1; b /= 2)
					x = x * 2 + (t_rand(seed) % 100 >= 70);
				tmp[i] = (uint32_t)(x % nv);
			}
		}
		}
		qsort(tmp, d, 4, cmp_u32);
		uint64_t k = 0;
		for (uint64_t i = 0; i < d; i++)
			if (i == 0 || tmp[i] != tmp[i - 1])
				tmp[k++] = tmp[i];
		while (n + k > cap) {
			cap *= 2;
			l->adj = realloc(l->adj, cap * 4);
		}
		memcpy(l->adj + n, tmp, k * 4);
		n += k;
		l->off[v + 1] = n;
	}
	free(tmp);
}

static void drop(struct lists *l)
{
	free(l->off);
	free(l->adj);
}

static int same(const struct lists *l, const struct tsg_graph *g)
{
	return g->nv == l->nv && g->nadj == l->off[l->nv] &&
	       memcmp(g->off, l->off, (l->nv + 1) * 8) == 0 &&
	       (l->off[l->nv] == 0 || memcmp(g->adj, l->adj, l->off[l->nv] * 4) == 0);
}

static int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int same = fa && fb;
	while (same) {
		const int ca = fgetc(fa), cb = fgetc(fb);
		same = ca == cb;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* The writer's file depends on its chunk size, never on its threads. */
static void thread_independence(struct t_state *st)
{
	uint64_t seed = 5;
	struct lists l;
	make(&l, 2, 2000, &seed);
	char a[4200], b[4200], fa[4300], fb[4300];
	snprintf(a, sizeof(a), "%s", t_path("thr1"));
	snprintf(b, sizeof(b), "%s", t_path("thr4"));
	struct io_webgraph_wopts o;
	io_webgraph_write_defaults(&o);
	o.chunk = 37;
	struct tsg_err err = { 0 };
	int rc = io_webgraph_write(a, l.nv, l.off, l.adj, &o, &err);
	o.threads = 4;
	if (rc == 0)
		rc = io_webgraph_write(b, l.nv, l.off, l.adj, &o, &err);
	CHECK(st, rc == 0, "write: %s", err.msg);
	for (int f = 0; rc == 0 && f < 2; f++) {
		const char *ext = f ? "offsets" : "graph";
		snprintf(fa, sizeof(fa), "%s.%s", a, ext);
		snprintf(fb, sizeof(fb), "%s.%s", b, ext);
		CHECK(st, same_file(fa, fb), "1 and 4 threads wrote different .%s files", ext);
	}
	free(l.off);
	free(l.adj);
}

static void round_trips(struct t_state *st)
{
	static const struct io_webgraph_wopts params[] = {
		/* window, maxref, minint, zetak, threads, chunk (0: 2^16): small
		 * chunks put references next to chunk edges */
		{ 7, 3, 4, 3, 1, 0 }, { 0, 3, 4, 3, 2, 5 }, { 1, 1, 4, 3, 3, 7 }, { 7, 0, 4, 3, 1, 1 },
		{ 7, 3, 0, 3, 2, 64 }, { 7, 3, 1, 1, 3, 3 }, { 3, 2, 2, 7, 1, 0 }, { 16, 8, 4, 2, 4, 100 },
	};
	static const uint64_t sizes[] = { 0, 1, 2, 9, 300, 2000 };
	uint64_t seed = 11;
	char base[4200];
	snprintf(base, sizeof(base), "%s", t_path("rt"));
	for (int shape = 0; shape < 7; shape++)
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
			for (size_t pi = 0; pi < sizeof(params) / sizeof(params[0]); pi++) {
				struct lists l;
				struct tsg_err err = { 0 };
				make(&l, shape, sizes[si], &seed);
				int rc = io_webgraph_write(base, l.nv, l.off, l.adj, &params[pi], &err);
				CHECK(st, rc == 0, "write shape %d n %llu params %zu: %s", shape,
				      (unsigned long long)l.nv, pi, err.msg);
				for (int pass = 0; rc == 0 && pass < 2; pass++) {
					if (pass == 1) { /* without .offsets: found by a scan */
						char o[4300];
						snprintf(o, sizeof(o), "%s.offsets", base);
						unlink(o);
					}
					for (unsigned th = 1; th <= 3; th += 2) {
						struct tsg_graph g;
						struct io_webgraph_stats ws;
						memset(&err, 0, sizeof(err));
						const int r2 = io_webgraph_read_directed(base, th, &g, &ws, &err);
						CHECK(st, r2 == 0 && same(&l, &g) && ws.offsets_scanned == pass,
						      "round trip shape %d n %llu params %zu pass %d threads %u: "
						      "%s", shape, (unsigned long long)l.nv, pi, pass, th, err.msg);
						if (r2 == 0)
							io_graph_free(&g);
					}
				}
				drop(&l);
			}
}

/* t = the transpose of l (in-lists come out sorted: u ascending). */
static void transpose(const struct lists *l, struct lists *t)
{
	t->nv = l->nv;
	t->off = calloc(l->nv + 1, 8);
	t->adj = malloc((l->off[l->nv] ? l->off[l->nv] : 1) * 4);
	for (uint64_t x = 0; x < l->off[l->nv]; x++)
		t->off[l->adj[x] + 1]++;
	for (uint64_t v = 0; v < l->nv; v++)
		t->off[v + 1] += t->off[v];
	uint64_t *fill = calloc(l->nv + 1, 8);
	for (uint64_t u = 0; u < l->nv; u++)
		for (uint64_t x = l->off[u]; x < l->off[u + 1]; x++)
			t->adj[t->off[l->adj[x]] + fill[l->adj[x]]++] = (uint32_t)u;
	free(fill);
}

/* A transpose of another graph with the same node and arc counts (one arc
 * of l moved to a successor its list lacks) is refused, not merged. */
static void wrong_transpose(struct t_state *st, const struct lists *l, const char *base)
{
	struct lists m = { l->nv, malloc((l->nv + 1) * 8), malloc((l->off[l->nv] + 1) * 4) }, t;
	memcpy(m.off, l->off, (l->nv + 1) * 8);
	memcpy(m.adj, l->adj, l->off[l->nv] * 4);
	uint64_t u = 0;
	while (u < l->nv && (l->off[u + 1] == l->off[u] || l->off[u + 1] - l->off[u] == l->nv))
		u++;
	if (u == l->nv) { /* no list with an arc to move */
		drop(&m);
		return;
	}
	uint32_t w = 0; /* the smallest id u's list lacks */
	for (uint64_t x = m.off[u]; x < m.off[u + 1] && m.adj[x] == w; x++)
		w++;
	m.adj[m.off[u]] = w;
	qsort(m.adj + m.off[u], m.off[u + 1] - m.off[u], 4, cmp_u32);
	transpose(&m, &t);
	char tbase[4300];
	struct io_webgraph_wopts o;
	struct tsg_err err = { 0 };
	struct tsg_graph g;
	struct io_webgraph_stats ws;
	io_webgraph_write_defaults(&o);
	snprintf(tbase, sizeof(tbase), "%s-t", base);
	int rc = io_webgraph_write(tbase, t.nv, t.off, t.adj, &o, &err);
	CHECK(st, rc == 0, "write a wrong transpose: %s", err.msg);
	rc = io_webgraph_load(base, 3, 1, t_path("wrong-scratch.tsg"), 0, &g, &ws, &err);
	CHECK(st, rc == TSG_EINPUT && strstr(err.msg, "is not the transpose"),
	      "a wrong transpose is refused: rc %d, %s", rc, err.msg);
	if (rc == 0)
		io_graph_free(&g);
	drop(&m);
	drop(&t);
}

/* The undirected graph three ways: merged with a transpose, sorted without
 * one, and the builder's from the same arcs. */
static void undirected(struct t_state *st)
{
	uint64_t seed = 5;
	for (int shape = 1; shape < 7; shape++) {
		struct lists l, t;
		struct tsg_err err = { 0 };
		make(&l, shape, 700, &seed);
		transpose(&l, &t);
		struct io_webgraph_wopts o;
		io_webgraph_write_defaults(&o);
		char base[4200], tbase[4300], ref[4200], sc[4200];
		snprintf(base, sizeof(base), "%s", t_path("und"));
		snprintf(tbase, sizeof(tbase), "%s-t", base);
		snprintf(ref, sizeof(ref), "%s", t_path("und-ref.tsg"));
		snprintf(sc, sizeof(sc), "%s", t_path("und-scratch.tsg"));
		int rc = io_webgraph_write(base, l.nv, l.off, l.adj, &o, &err);
		if (rc == 0)
			rc = io_webgraph_write(tbase, t.nv, t.off, t.adj, &o, &err);
		CHECK(st, rc == 0, "write shape %d: %s", shape, err.msg);
		/* the builder's graph of the same arcs */
		struct io_builder_opts bo = { .threads = 2, .min_nv = l.nv };
		struct io_builder *b;
		struct io_build_stats bs;
		struct tsg_graph want, got1, got2;
		struct io_webgraph_stats ws;
		rc = io_builder_new(&bo, &b, &err);
		for (uint64_t u = 0; rc == 0 && u < l.nv; u++)
			for (uint64_t x = l.off[u]; rc == 0 && x < l.off[u + 1]; x++) {
				const uint64_t e = u << 32 | l.adj[x];
				rc = io_builder_add(b, &e, 1, &err);
			}
		if (rc == 0)
			rc = io_builder_finish(b, ref, &bs, &err);
		struct io_load_opts lo = { .io = IO_MODE_PREAD, .threads = 2 };
		CHECK(st, rc == 0 && io_graph_load(ref, &lo, &want, &err) == 0, "reference: %s", err.msg);
		for (int way = 0; way < 2; way++) {
			memset(&err, 0, sizeof(err));
			struct tsg_graph *got = way ? &got2 : &got1;
			rc = io_webgraph_load(base, 3, way == 0, sc, 0, got, &ws, &err);
			CHECK(st, rc == 0 && ws.transpose == (way == 0) && got->nv == want.nv &&
			      got->nadj == want.nadj && memcmp(got->off, want.off, (want.nv + 1) * 8) == 0 &&
			      memcmp(got->adj, want.adj, want.nadj * 4) == 0,
			      "undirected shape %d, %s: %s", shape, way ? "sorted" : "merged", err.msg);
			if (rc == 0)
				io_graph_free(got);
		}
		wrong_transpose(st, &l, base);
		io_graph_free(&want);
		drop(&l);
		drop(&t);
	}
}

/* Files in the scratch directory whose names start with prefix. */
static int files_named(const char *prefix)
{
	DIR *d = opendir(t_tmpdir());
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	if (d)
		closedir(d);
	return n;
}

/* The streaming writer: chunks encoded one by one (in reverse, to show the
 * order of encoding does not matter), appended in order, give
 * io_webgraph_write's files; a chunk out of order is refused and abort
 * leaves no file, named or hidden. */
static void streaming(struct t_state *st)
{
	uint64_t seed = 9;
	struct lists l;
	make(&l, 5, 5000, &seed);
	struct io_webgraph_wopts o;
	io_webgraph_write_defaults(&o);
	o.chunk = 700;
	char a[4200], b[4200], fa[4300], fb[4300];
	snprintf(a, sizeof(a), "%s", t_path("whole"));
	snprintf(b, sizeof(b), "%s", t_path("streamed"));
	struct tsg_err err = { 0 };
	int rc = io_webgraph_write(a, l.nv, l.off, l.adj, &o, &err);
	CHECK(st, rc == 0, "write: %s", err.msg);
	const uint64_t nch = (l.nv + o.chunk - 1) / o.chunk;
	struct io_webgraph_chunk *c[8];
	for (uint64_t k = 0; k < nch; k++)
		c[k] = io_webgraph_chunk_new();
	for (uint64_t k = nch; k-- > 0;) {
		const uint64_t x0 = k * o.chunk, n = x0 + o.chunk < l.nv ? o.chunk : l.nv - x0;
		CHECK(st, c[k] && io_webgraph_encode(c[k], &o, x0, n, l.off + x0, l.adj) == 0,
		      "encode chunk %llu", (unsigned long long)k);
	}
	struct io_webgraph_writer *w;
	rc = io_webgraph_writer_open(b, &o, &w, &err);
	CHECK(st, rc == 0, "open: %s", err.msg);
	for (uint64_t k = 0; rc == 0 && k < nch; k++)
		rc = io_webgraph_writer_append(w, c[k], &err);
	CHECK(st, rc == 0 && io_webgraph_writer_bits(w) > 0, "append: %s", err.msg);
	if (rc == 0)
		rc = io_webgraph_writer_finish(w, &err);
	CHECK(st, rc == 0, "finish: %s", err.msg);
	for (int f = 0; rc == 0 && f < 3; f++) {
		static const char *const ext[] = { "graph", "offsets", "properties" };
		snprintf(fa, sizeof(fa), "%s.%s", a, ext[f]);
		snprintf(fb, sizeof(fb), "%s.%s", b, ext[f]);
		CHECK(st, same_file(fa, fb), "streamed and whole .%s differ", ext[f]);
	}
	/* out of order: refused, and nothing left once aborted */
	snprintf(b, sizeof(b), "%s", t_path("disorder"));
	memset(&err, 0, sizeof(err));
	rc = io_webgraph_writer_open(b, &o, &w, &err);
	CHECK(st, rc == 0, "open: %s", err.msg);
	if (rc == 0) {
		rc = io_webgraph_writer_append(w, c[1], &err);
		CHECK(st, rc == TSG_EINTERNAL && strstr(err.msg, "appended after"),
		      "a chunk out of order is refused: rc %d, %s", rc, err.msg);
		/* unnamed while written where the directory has O_TMPFILE, else
		 * three named temporaries */
		const int fd = io_unnamed_open(b, 0600);
		const int want = fd >= 0 ? 0 : 3;
		if (fd >= 0)
			close(fd);
		CHECK(st, files_named("disorder") + files_named(".disorder") == want,
		      "%d files while writing, not %d", files_named("disorder"), want);
		io_webgraph_writer_abort(w);
		CHECK(st, files_named("disorder") + files_named(".disorder") == 0,
		      "abort leaves no file: %d", files_named("disorder"));
	}
	for (uint64_t k = 0; k < nch; k++)
		io_webgraph_chunk_free(c[k]);
	drop(&l);
}

static void no_rows(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)ctx, (void)b, (void)e, (void)tid;
}

/* A crawl opened to be counted as it is decoded is ranked by degree
 * bounds (io_graph_rank_off: a node's outdegree in both files).
 * part_rank's nzero ids of bound 0, ranked lowest, must be listed nowhere
 * once the lists are merged: the GPU's groups keep rank -> id above them
 * alone (kernels/arrival.cu, ag_id), so such an entry would be dropped.
 * Isolated nodes, one with a self-loop alone (bound 2, degree 0) and one
 * with arcs in only (its bound from the transpose). */
static void stream_ranks(struct t_state *st)
{
	/* 0->1, 1->2, 2->0, 4->4, 5->6, 9->5; 3, 7 and 8 isolated */
	static const uint64_t off[] = { 0, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6 };
	static const uint32_t adj[] = { 1, 2, 0, 4, 6, 5 };
	const struct lists l = { 10, (uint64_t *)off, (uint32_t *)adj }; /* read only */
	struct lists t;
	transpose(&l, &t);
	struct io_webgraph_wopts o;
	io_webgraph_write_defaults(&o);
	char base[4200], tbase[4300];
	snprintf(base, sizeof(base), "%s", t_path("ranked"));
	snprintf(tbase, sizeof(tbase), "%s-t", base);
	struct tsg_err err = { 0 };
	int rc = io_webgraph_write(base, l.nv, l.off, l.adj, &o, &err);
	if (rc == 0)
		rc = io_webgraph_write(tbase, t.nv, t.off, t.adj, &o, &err);
	CHECK(st, rc == 0, "write: %s", err.msg);
	for (unsigned threads = 1; rc == 0 && threads <= 3; threads += 2) {
		struct tsg_graph g;
		struct io_webgraph_stats ws;
		uint32_t rank[10];
		uint64_t nzero = 99, low = 0, listed = 0;
		memset(&err, 0, sizeof(err));
		int r = io_webgraph_open_stream(base, threads, &g, &ws, &err);
		CHECK(st, r == 0 && g.nv == 10, "open as decoded, %u threads: %s", threads, err.msg);
		if (r != 0)
			continue;
		r = part_rank(&g, threads, rank, &nzero);
		if (r == 0)
			r = io_graph_read_lists(&g, no_rows, NULL, &err);
		for (uint64_t v = 0; r == 0 && v < g.nv; v++)
			low += rank[v] < nzero;
		for (uint64_t x = 0; r == 0 && x < g.nadj; x++)
			listed += rank[g.adj[x]] < nzero;
		CHECK(st, r == 0 && nzero == 3 && rank[3] < 3 && rank[7] < 3 && rank[8] < 3 &&
			      low == 3 && listed == 0 && g.nadj == 10,
		      "ranked by bounds, %u threads: rc %d (%s), nzero %llu, %llu ids below it, "
		      "%llu entries listing one, %llu entries", threads, r, err.msg,
		      (unsigned long long)nzero, (unsigned long long)low,
		      (unsigned long long)listed, (unsigned long long)g.nadj);
		io_graph_free(&g);
	}
	drop(&t);
}

/* --transpose-of BASE */
static int transpose_of(const char *base)
{
	char tbase[4300];
	snprintf(tbase, sizeof(tbase), "%s-t", base);
	struct tsg_graph g, h;
	struct io_webgraph_stats ws;
	struct tsg_err err = { 0 };
	if (io_webgraph_read_directed(base, 2, &g, &ws, &err) ||
	    io_webgraph_read_directed(tbase, 2, &h, &ws, &err)) {
		fprintf(stderr, "test_webgraph: %s\n", err.msg);
		return 1;
	}
	struct lists l = { g.nv, (uint64_t *)g.off, (uint32_t *)g.adj }, t; /* read only */
	transpose(&l, &t);
	const int ok = h.nv == t.nv && h.nadj == t.off[t.nv] &&
		       memcmp(h.off, t.off, (t.nv + 1) * 8) == 0 &&
		       (t.off[t.nv] == 0 || memcmp(h.adj, t.adj, t.off[t.nv] * 4) == 0);
	printf("%s: %llu arcs, %s\n", tbase, (unsigned long long)g.nadj,
	       ok ? "the transpose" : "NOT the transpose");
	drop(&t);
	io_graph_free(&g);
	io_graph_free(&h);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--transpose-of") == 0)
		return transpose_of(argv[2]);
	struct t_state st = { 0 };
	round_trips(&st);
	thread_independence(&st);
	undirected(&st);
	streaming(&st);
	stream_ranks(&st);
	t_cleanup();
	return t_finish(&st);
}
