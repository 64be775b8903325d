/*
 * tristream-gen - synthetic graphs, written straight to the binary format.
 *
 * rmat/kron: Graph500 Kronecker (R-MAT) graphs, a=0.57 b=0.19 c=0.19 by
 * default, edge factor 16, ids scrambled by a seeded bijection so that high
 * degrees are not clustered at low ids. er: Erdős–Rényi G(n, m). clique,
 * star, grid, empty: exact families with known triangle counts (C(n,3), 0,
 * 0, 0). Output depends only on the arguments and --seed, not on --threads:
 * edges come in fixed blocks, each with its own seeded generator.
 *
 * web links each page a log-uniform distance ahead or to a hub, page by page
 * at random: it has a crawl's id locality but not its redundancy (about 11
 * bits a link as BVGraph, against 2.3 for the symmetrized cnr-2000, and 0.1
 * triangles an edge against cnr-2000's 7.7). crawl adds what makes LAW's
 * crawls compress and close triangles: pages of a site are consecutive
 * ids, every page of a site links to the site's first pages (its menu, so
 * neighbouring lists repeat and a menu page's in-links are long runs of
 * ids), to the next pages (pagination), to a few pages of its site and to
 * a few far ones (nearby sites, hubs). The bench that counts a crawl from
 * its BVGraph file against a plain .tsg uses it (bench/webgraph_billion.sh).
 */
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/builder.h"
#include "io/webgraph.h"
#include "base/util.h"
#include "version.h"

static const char usage[] =
	"usage: tristream-gen [options] KIND OUTPUT\n"
	"\n"
	"kinds:\n"
	"  rmat (or kron)  --scale S [--edge-factor 16] [--abc 0.57,0.19,0.19]\n"
	"  er              --vertices N (--edges M | --edge-factor D)\n"
	"  web             --vertices N [--edge-factor 16]  links mostly to nearby ids,\n"
	"                  some to hubs: the locality of a crawl ordered by URL\n"
	"  crawl           --vertices N [--edge-factor 16]  sites of consecutive ids\n"
	"                  whose pages share a menu (up to edge-factor pages) and\n"
	"                  sections, and past edge factor 16 a page of the site\n"
	"                  more for every 4: a crawl's redundancy too (3.5-4 bits\n"
	"                  a link as BVGraph, degree about 27 at edge factor 16)\n"
	"  clique          --vertices N      (C(N,3) triangles)\n"
	"  star            --vertices N      (no triangles)\n"
	"  grid            --rows R --cols C (no triangles)\n"
	"  empty           --vertices N      (no edges)\n"
	"options:\n"
	"  --seed N  --threads N  --mem-limit SIZE  --tmpdir DIR  --quiet\n"
	"  --help  --version\n"
	"  --webgraph  crawl only: its links as they are, directed, written as the\n"
	"              BVGraph OUTPUT.{graph,offsets,properties} with its transpose\n"
	"              OUTPUT-t.*, as LAW ships a crawl (counted, it is the same\n"
	"              undirected graph as the .tsg the same arguments make; about\n"
	"              14 links a page at edge factor 16, 35 at 48: gsh-2015's).\n"
	"              Made in --mem-limit (default half the memory available):\n"
	"              4 bytes a page and some per thread, the transpose in as many\n"
	"              passes over the pages as its lists (8 bytes a page, 4 a link)\n"
	"              need; no scratch files. The files depend on the arguments and --seed\n"
	"              alone, not on --threads or --mem-limit.\n"
	"  --window W  with --webgraph: each list may refer to the W before it\n"
	"              (0-7; default 7, LAW's). Smaller encodes faster in about\n"
	"              the same bits (the crawl's menus repeat in the next pages):\n"
	"              other files, the same graph.\n";

enum { O_SCALE = 256, O_EF, O_ABC, O_N, O_M, O_ROWS, O_COLS, O_SEED, O_THREADS, O_MEM, O_TMP,
       O_QUIET, O_WEBGRAPH, O_WINDOW, O_HELP, O_VERSION };

static const struct option opts[] = {
	{ "scale", required_argument, 0, O_SCALE }, { "edge-factor", required_argument, 0, O_EF },
	{ "abc", required_argument, 0, O_ABC }, { "vertices", required_argument, 0, O_N },
	{ "edges", required_argument, 0, O_M }, { "rows", required_argument, 0, O_ROWS },
	{ "cols", required_argument, 0, O_COLS }, { "seed", required_argument, 0, O_SEED },
	{ "threads", required_argument, 0, O_THREADS }, { "mem-limit", required_argument, 0, O_MEM },
	{ "tmpdir", required_argument, 0, O_TMP }, { "quiet", no_argument, 0, O_QUIET },
	{ "webgraph", no_argument, 0, O_WEBGRAPH }, { "window", required_argument, 0, O_WINDOW },
	{ "help", no_argument, 0, O_HELP }, { "version", no_argument, 0, O_VERSION },
	{ 0, 0, 0, 0 },
};

enum { BLOCK = 1 << 20 };

struct gen {
	int kind; /* 0 rmat, 1 er, 2 web (crawl: gen_crawl) */
	unsigned scale;
	uint64_t n, m, seed;
	double a, b, c;
	uint64_t *out; /* batch of blocks */
	uint64_t first_block;
};

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double unit(uint64_t *s) { return (double)(splitmix(s) >> 11) * 0x1.0p-53; }

/* A bijection on [0, 2^scale): odd multiplies and xor-shifts, seeded. */
static uint64_t scramble(uint64_t x, unsigned scale, uint64_t seed)
{
	const uint64_t mask = scale >= 64 ? ~0ull : (1ull << scale) - 1;
	const unsigned sh = scale / 2 + 1;
	x = (x * (seed | 1) + (seed >> 17)) & mask;
	x ^= x >> sh;
	x = (x * 0x9e3779b97f4a7c15ull) & mask;
	x ^= x >> sh;
	return x & mask;
}

/* Every 5 s: done of steps made (each step `per` of the total `what`), and
 * the time left at the pace so far since t0. */
static void gen_progress(double t0, double *last, uint64_t done, uint64_t steps, uint64_t per,
			 uint64_t total, const char *what)
{
	const double now = tsg_now();
	if (now - *last <= 5)
		return;
	*last = now;
	fprintf(stderr, "tristream-gen: %llu / %llu %s (%.0f%%), ETA %.0fs\n",
		(unsigned long long)(done * per < total ? done * per : total),
		(unsigned long long)total, what, 100.0 * done / steps,
		(now - t0) / done * (steps - done));
}

static void gen_blocks(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	(void)tid;
	struct gen *g = arg;
	for (uint64_t blk = lo; blk < hi; blk++) {
		uint64_t global = g->first_block + blk, s = g->seed ^ (global * 0xd1b54a32d192ed03ull);
		uint64_t start = global * BLOCK, n = g->m - start < BLOCK ? g->m - start : BLOCK;
		uint64_t *out = g->out + blk * BLOCK;
		for (uint64_t e = 0; e < n; e++) {
			uint64_t u = 0, v = 0;
			if (g->kind == 0) {
				for (unsigned l = 0; l < g->scale; l++) {
					double r = unit(&s);
					unsigned bu = r >= g->a + g->b, bv = (r >= g->a && r < g->a + g->b) ||
									     r >= g->a + g->b + g->c;
					u = u << 1 | bu;
					v = v << 1 | bv;
				}
				u = scramble(u, g->scale, g->seed);
				v = scramble(v, g->scale, g->seed);
			} else if (g->kind == 2) {
				/* 9 in 10 links go a log-uniform distance (1 .. 1000) ahead,
				 * the rest to hubs, skewed towards low ids */
				u = splitmix(&s) % g->n;
				if (unit(&s) < 0.9) {
					v = (u + 1 + (uint64_t)exp(unit(&s) * 6.9)) % g->n;
				} else {
					const double x = unit(&s);
					v = (uint64_t)((double)g->n * x * x * x) % g->n;
				}
			} else {
				u = splitmix(&s) % g->n;
				v = splitmix(&s) % g->n;
			}
			out[e] = u << 32 | v;
		}
	}
}

static int gen_random(struct gen *g, struct io_builder *b, unsigned threads, int quiet,
		      struct tsg_err *err)
{
	uint64_t nblocks = (g->m + BLOCK - 1) / BLOCK, per = threads * 2;
	g->out = malloc(per * BLOCK * sizeof(uint64_t));
	if (!g->out)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	int rc = TSG_OK;
	double t0 = tsg_now(), last = t0;
	for (uint64_t at = 0; at < nblocks && rc == TSG_OK; at += per) {
		uint64_t nb = nblocks - at < per ? nblocks - at : per;
		g->first_block = at;
		tsg_parallel_for(threads, nb, 1, gen_blocks, g);
		uint64_t edges = (at + nb) * BLOCK < g->m ? nb * BLOCK : g->m - at * BLOCK;
		rc = io_builder_add(b, g->out, edges, err);
		if (!quiet)
			gen_progress(t0, &last, at + nb, nblocks, BLOCK, g->m, "edges");
	}
	free(g->out);
	return rc;
}

/* ---- crawl: pages by site ---- */

enum {
	CRAWL_CHUNK = 4096,	  /* pages a task makes for the .tsg */
	CRAWL_SPAN = 1 << 16,	  /* sites never cross a multiple of this */
	CRAWL_MAX_SITE = 8192,	  /* site sizes are log-uniform in 1 .. this */
	CRAWL_FAR = 1 << 20,	  /* reach of a link to a nearby site */
	CRAWL_EXTRA = 8 + 5 + 3, /* pagination, section, far and own: most links a page
				  * beside the menu and crawl_own's */
};

struct crawl {
	uint64_t n, seed, ef; /* ef: the largest menu (a site's first pages) */
	uint64_t cap;	      /* links a page may make: ef + crawl_own(ef) + CRAWL_EXTRA */
};

/* The site holding u: the span's sites are cut in order by a generator of
 * the span's own, so that any task finds them alone. */
static void crawl_site(const struct crawl *c, uint64_t u, uint64_t *start, uint64_t *size)
{
	const uint64_t span = u / CRAWL_SPAN;
	uint64_t s = c->seed ^ (span * 0x8cb92ba72f3d8dd7ull) ^ 0x5851f42d4c957f2dull;
	uint64_t at = span * CRAWL_SPAN, end = at + CRAWL_SPAN < c->n ? at + CRAWL_SPAN : c->n;
	for (;;) {
		uint64_t z = (uint64_t)exp(unit(&s) * log((double)CRAWL_MAX_SITE)) + 1;
		if (z > end - at)
			z = end - at;
		if (u < at + z) {
			*start = at;
			*size = z;
			return;
		}
		at += z;
	}
}

/* A page of u's site [s0, s0 + z) a log-uniform distance on from u. */
static uint64_t crawl_within(uint64_t *s, uint64_t s0, uint64_t z, uint64_t u)
{
	const uint64_t d = (uint64_t)exp(unit(s) * log((double)z)) % z;
	return s0 + (u - s0 + d) % z;
}

/* A page of a nearby site (log-uniform distance) or a hub (skewed to low
 * ids), even odds. */
static uint64_t crawl_far(const struct crawl *c, uint64_t *s, uint64_t u)
{
	if (unit(s) < 0.5)
		return (u + (uint64_t)exp(unit(s) * log((double)CRAWL_FAR))) % c->n;
	const double x = unit(s);
	return (uint64_t)((double)c->n * x * x * x) % c->n;
}

/* Links of a page to pages of its site picked on their own, one for every
 * 4 of the edge factor past 16 (none up to it: those crawls are as
 * before, byte for byte). A menu up to ef pages long is copied from list
 * to list, so without them a larger edge factor made a crawl more
 * redundant than any of LAW's: 1.8 bits a link at edge factor 64, where
 * cnr-2000 takes 2.9 and issue #49 asks 3-4 for gsh-2015's size. With
 * them, a million pages at edge factor 48: 34.6 links a page (gsh-2015:
 * 34.3) in 3.66 bits a link; at 64, 44.3 in 3.49 (bench/RESULTS.md,
 * 2026-11-27, twenty-ninth session). */
static uint64_t crawl_own(uint64_t ef)
{
	return ef > 16 ? (ef - 16) / 4 : 0;
}

/* Page u's links into out (at most cap), [s0, s0 + z) its site; returns
 * how many (repeats and u itself among them). They come from generators
 * seeded by the seed and u, u's section (u / 16) and its site alone, never
 * from a stream shared with other pages: any range of pages is made alike
 * by any thread, at any time, as often as asked. Every link but those of
 * crawl_far stays in u's site, so in u's span; far_only gives those alone,
 * drawing all the rest (the same draws, so the same far links) without
 * making it. */
static uint64_t crawl_page(const struct crawl *c, uint64_t u, uint64_t s0, uint64_t z, int far_only,
			   uint32_t *out)
{
	uint64_t e = 0;
	uint64_t s = c->seed ^ (u * 0xd1b54a32d192ed03ull), site = s0 * 0x9e3779b97f4a7c15ull;
	/* the menu: the site's first pages, the same for every page */
	uint64_t menu = 1 + splitmix(&site) % c->ef;
	menu = menu < z ? menu : z;
	const int full = unit(&s) < 0.85;
	for (uint64_t i = 0; i < menu && (!far_only || !full); i++)
		if (s0 + i != u && (full || unit(&s) < 0.5) && !far_only)
			out[e++] = (uint32_t)(s0 + i);
	for (uint64_t j = 1; j <= 8 && u + j < s0 + z; j++) { /* next pages */
		if (!far_only)
			out[e++] = (uint32_t)(u + j);
		if (unit(&s) < 0.4)
			break;
	}
	/* a section (16 pages in a row) shares its links into the site and a
	 * far one: neighbouring lists repeat */
	uint64_t sec = c->seed ^ ((u / 16) * 0xa0761d6478bd642full) ^ 0xe7037ed1a0b428dbull;
	const uint64_t nsec = 2 + splitmix(&sec) % 4;
	for (uint64_t i = 0; i < nsec; i++) {
		const uint64_t w = far_only ? (unit(&sec), 0)
					    : crawl_within(&sec, s0, z, u / 16 * 16 > s0 ? u / 16 * 16 : s0);
		if (unit(&s) < 0.9 && !far_only)
			out[e++] = (uint32_t)w;
	}
	if (unit(&sec) < 0.5) {
		const uint64_t w = crawl_far(c, &sec, u);
		if (unit(&s) < 0.9)
			out[e++] = (uint32_t)w;
	}
	if (unit(&s) < 0.25) { /* and, rarely, a page its own */
		if (far_only)
			(void)unit(&s);
		else
			out[e++] = (uint32_t)crawl_within(&s, s0, z, u);
	}
	if (unit(&s) < 0.1)
		out[e++] = (uint32_t)crawl_far(c, &s, u);
	for (uint64_t i = 0; i < crawl_own(c->ef); i++) { /* past edge factor 16 */
		const uint64_t w = crawl_within(&s, s0, z, u);
		if (!far_only)
			out[e++] = (uint32_t)w;
	}
	return e;
}

/* Pages [first, last) as lists, sorted, without repeats or loops: page
 * first + i's are adj[off[i] .. off[i + 1]), off[0] = 0; adj holds
 * (last - first) * cap ids. */
static void crawl_lists(const struct crawl *c, uint64_t first, uint64_t last, uint64_t *off,
			uint32_t *adj)
{
	uint64_t s0 = 0, z = 0, e = 0;
	off[0] = 0;
	for (uint64_t u = first; u < last; u++) {
		if (u >= s0 + z)
			crawl_site(c, u, &s0, &z);
		uint32_t *l = adj + e;
		const uint64_t d = crawl_page(c, u, s0, z, 0, l);
		for (uint64_t x = 1; x < d; x++) { /* a page's few links, the menu's in order */
			const uint32_t t = l[x];
			uint64_t y = x;
			for (; y > 0 && l[y - 1] > t; y--)
				l[y] = l[y - 1];
			l[y] = t;
		}
		uint64_t k = 0;
		for (uint64_t x = 0; x < d; x++)
			if (l[x] != u && (k == 0 || l[x] != l[k - 1]))
				l[k++] = l[x];
		e += k;
		off[u - first + 1] = e;
	}
}

/* ---- crawl, undirected: its links into the builder ---- */

struct crawl_batch {
	const struct crawl *c;
	uint64_t first_chunk;
	uint64_t *out, *count; /* a batch of chunks, cap * CRAWL_CHUNK keys each */
};

static void crawl_chunks(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	(void)tid;
	struct crawl_batch *cb = arg;
	const struct crawl *c = cb->c;
	for (uint64_t k = lo; k < hi; k++) {
		const uint64_t first = (cb->first_chunk + k) * CRAWL_CHUNK;
		const uint64_t last = first + CRAWL_CHUNK < c->n ? first + CRAWL_CHUNK : c->n;
		uint64_t *out = cb->out + k * c->cap * CRAWL_CHUNK, e = 0, s0 = 0, z = 0;
		uint32_t l[4096 + CRAWL_EXTRA];
		for (uint64_t u = first; u < last; u++) {
			if (u >= s0 + z)
				crawl_site(c, u, &s0, &z);
			const uint64_t d = crawl_page(c, u, s0, z, 0, l);
			for (uint64_t x = 0; x < d; x++)
				out[e++] = u << 32 | l[x];
		}
		cb->count[k] = e;
	}
}

/* Makes the crawl's links into the builder b (an undirected graph). */
static int gen_crawl(const struct crawl *c, struct io_builder *b, unsigned threads, int quiet,
		     struct tsg_err *err)
{
	struct crawl_batch cb = { .c = c };
	const uint64_t nchunks = (c->n + CRAWL_CHUNK - 1) / CRAWL_CHUNK, per = threads * 2;
	int rc = TSG_OK;
	cb.out = malloc(per * c->cap * CRAWL_CHUNK * sizeof(uint64_t));
	cb.count = malloc(per * sizeof(uint64_t));
	if (!cb.out || !cb.count) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto out;
	}
	double t0 = tsg_now(), last = t0;
	for (uint64_t at = 0; at < nchunks && rc == TSG_OK; at += per) {
		const uint64_t nb = nchunks - at < per ? nchunks - at : per;
		cb.first_chunk = at;
		tsg_parallel_for(threads, nb, 1, crawl_chunks, &cb);
		for (uint64_t k = 0; k < nb && rc == TSG_OK; k++)
			rc = io_builder_add(b, cb.out + k * c->cap * CRAWL_CHUNK, cb.count[k], err);
		if (!quiet)
			gen_progress(t0, &last, at + nb, nchunks, CRAWL_CHUNK, c->n, "pages");
	}
out:
	free(cb.out);
	free(cb.count);
	return rc;
}

/* ---- crawl --webgraph: the crawl and its transpose as BVGraph ----
 *
 * In memory bounded by --mem-limit, whatever the crawl's size. Spans of
 * 2^16 pages (the writer's chunks; no site crosses one) are the unit of
 * work, made from the crawl's generators alone, so that any span can be
 * made again at any time.
 *
 * The graph: each span's lists are made and encoded by one thread, and
 * appended to BASE in order (a ring of encoded spans, at most twice the
 * threads ahead of the last appended). The pages' in-degrees are counted
 * on the way (4 bytes a page, kept to the end).
 *
 * The transpose, in passes over ranges of spans whose in-lists (4 bytes a
 * link, 8 a page for offsets) fit what memory is left: each pass makes
 * every span's out-lists again, keeps the links into its range and puts
 * them in place: a link within its own span at the front of its target's
 * in-list, in order (one thread makes the span, so its pages come in
 * increasing order); a link from another span at the back, wherever a
 * shared cursor (the target's in-degree, counted down) says. The front of
 * a list is sorted already; its back, the few links from afar, is sorted
 * and merged in as the range's spans are encoded and appended to BASE-t.
 * Making the out-lists again costs a fraction of encoding them; the
 * passes need no scratch disk.
 *
 * Both sets of files are written as temporaries and named at the end
 * (io/webgraph.h's writer), the transpose first. The files depend on the arguments alone:
 * spans are cut at the same pages whatever the threads or the memory,
 * and a transposed list is a sorted set. */

struct cw_scratch { /* a thread's */
	uint64_t *off;	    /* CRAWL_SPAN + 1 */
	uint32_t *adj;	    /* CRAWL_SPAN * cap */
	uint32_t *cnt;	    /* CRAWL_SPAN: the span's own in-degrees, or cursors */
	uint32_t *tmp;	    /* a merged in-list */
	uint64_t ntmp;
};

struct cw {
	struct crawl c;
	uint64_t nspans;
	unsigned threads;
	int quiet;
	struct io_webgraph_wopts wo;
	_Atomic uint32_t *indeg; /* n: in-degrees; in a pass, counted down by links from afar */
	struct cw_scratch *scr;
	/* the pass: spans [s_lo, s_hi), their pages [v0, v1) */
	uint64_t s_lo, s_hi, v0, v1;
	uint64_t *poff; /* v1 - v0 + 1, in pass_buf */
	uint32_t *padj; /* the pass's links, after poff */
	uint64_t *pass_buf;
	uint64_t *span_arcs; /* nspans: in-links of each span's pages */
	/* progress: the stage, its spans done of its pages; the threads' time
	 * making and encoding spans, for the time left */
	char what[80];
	uint64_t stage_pages, budget;
	int passes;	     /* the transpose's, 0 until planned */
	double g_span, e_span; /* thread-ns a span's making and encoding took in the graph */
	atomic_uint_fast64_t spans_done, arcs_done, gen_ns, enc_ns, sweep_ns, sweep_spans, last_ms;
	double t0;
	pthread_mutex_t print_mu;
};

static uint64_t span_first(uint64_t s) { return s * CRAWL_SPAN; }
static uint64_t span_last(const struct cw *w, uint64_t s)
{
	return s * CRAWL_SPAN + CRAWL_SPAN < w->c.n ? s * CRAWL_SPAN + CRAWL_SPAN : w->c.n;
}

/* Every 5 s from whichever thread sees it first: the stage, its pages
 * done, the links written a second (both files), and the time left: the
 * graph's making and encoding of each span, a making of each in every pass
 * of the transpose, and an encoding of each again, each at the pace its
 * kind has had so far (until the passes are planned, guessed from the
 * memory; the passes' makings, until one is timed, as the graph's). */
static void cw_progress(struct cw *w)
{
	const uint64_t now_ms = (uint64_t)(tsg_now() * 1e3);
	if (w->quiet || now_ms - atomic_load(&w->last_ms) <= 5000 ||
	    pthread_mutex_trylock(&w->print_mu))
		return;
	const double now = tsg_now();
	if (now_ms - atomic_load(&w->last_ms) > 5000) {
		atomic_store(&w->last_ms, now_ms);
		const uint64_t done = atomic_load(&w->spans_done), pages = done * CRAWL_SPAN;
		const uint64_t swept = atomic_load(&w->sweep_spans);
		const double gen = (double)atomic_load(&w->gen_ns), enc = (double)atomic_load(&w->enc_ns);
		const double sweep = (double)atomic_load(&w->sweep_ns), ns = (double)w->nspans;
		double g = w->g_span, e = w->e_span, passes = w->passes;
		if (!passes) { /* in the graph still */
			g = done ? gen / (double)done : 0;
			e = done ? enc / (double)done : 0;
			const double m = done ? (double)atomic_load(&w->arcs_done) / (double)done * ns : 0;
			passes = ceil(((double)w->c.n * 8 + m * 4) / (double)(w->budget ? w->budget : 1));
		}
		const double sw = swept ? sweep / (double)swept : g;
		const double total = ns * (g + 2 * e + passes * sw), spent = gen + enc + sweep;
		fprintf(stderr, "tristream-gen: %s: %llu / %llu pages, %.1f M links/s into the "
			"files, ETA %.0fs\n",
			w->what, (unsigned long long)(pages < w->stage_pages ? pages : w->stage_pages),
			(unsigned long long)w->stage_pages,
			(double)atomic_load(&w->arcs_done) / (now - w->t0) / 1e6,
			spent > 0 && total > spent ? (total - spent) / spent * (now - w->t0) : 0.0);
	}
	pthread_mutex_unlock(&w->print_mu);
}

/* ---- the ordered ring: spans encoded by any thread, appended in order ---- */

struct cw_ring {
	struct cw *w;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t first, count, next; /* tasks k: span first + k; next: tasks appended */
	unsigned slots;
	struct io_webgraph_chunk **slot;
	uint8_t *done;
	int draining, rc;
	struct tsg_err err;
	struct io_webgraph_writer *out;
	int (*make)(struct cw *w, uint64_t span, unsigned tid, struct io_webgraph_chunk *c);
};

static void ring_fail(struct cw_ring *r, int rc, const struct tsg_err *err)
{
	if (!r->rc) {
		r->rc = rc;
		r->err = *err;
	}
	pthread_cond_broadcast(&r->cv);
}

static void ring_task(void *ctx, uint64_t lo, uint64_t hi, unsigned tid)
{
	struct cw_ring *r = ctx;
	for (uint64_t k = lo; k < hi; k++) {
		struct tsg_err err = { 0 };
		pthread_mutex_lock(&r->mu);
		while (!r->rc && k >= r->next + r->slots) /* its slot still waits to be appended */
			pthread_cond_wait(&r->cv, &r->mu);
		const int failed = r->rc;
		pthread_mutex_unlock(&r->mu);
		if (failed)
			return;
		struct io_webgraph_chunk *c = r->slot[k % r->slots];
		int rc = r->make(r->w, r->first + k, tid, c);
		pthread_mutex_lock(&r->mu);
		if (rc) {
			tsg_fail(&err, rc, rc == TSG_ENOMEM ? "out of memory encoding pages from %llu"
				 : "internal error encoding pages from %llu (the BVGraph writer's "
				 "cost and its bits disagree)", (unsigned long long)span_first(r->first + k));
			ring_fail(r, rc, &err);
			pthread_mutex_unlock(&r->mu);
			return;
		}
		r->done[k % r->slots] = 1;
		if (!r->draining) { /* append what is ready, in order, outside the lock */
			r->draining = 1;
			while (!r->rc && r->next < r->count && r->done[r->next % r->slots]) {
				const struct io_webgraph_chunk *a = r->slot[r->next % r->slots];
				pthread_mutex_unlock(&r->mu);
				rc = io_webgraph_writer_append(r->out, a, &err);
				pthread_mutex_lock(&r->mu);
				if (rc) {
					ring_fail(r, rc, &err);
					break;
				}
				r->done[r->next % r->slots] = 0;
				r->next++;
				atomic_fetch_add(&r->w->spans_done, 1);
				pthread_cond_broadcast(&r->cv);
			}
			r->draining = 0;
		}
		pthread_mutex_unlock(&r->mu);
		cw_progress(r->w);
	}
}

/* Makes spans [first, first + count) with make, appending them to out in
 * order, on w->threads threads. */
static int ring_run(struct cw *w, struct cw_ring *r, uint64_t first, uint64_t count,
		    struct tsg_err *err)
{
	r->first = first;
	r->count = count;
	r->next = 0;
	r->rc = 0;
	memset(r->done, 0, r->slots);
	atomic_store(&w->spans_done, 0);
	tsg_parallel_for(w->threads, count, 1, ring_task, r);
	if (r->rc) {
		*err = r->err;
		return r->rc;
	}
	if (r->next != count)
		return tsg_fail(err, TSG_EINTERNAL, "%llu of %llu spans appended",
				(unsigned long long)r->next, (unsigned long long)count);
	return TSG_OK;
}

/* The graph's span s: its lists made, its pages' in-degrees counted (its
 * own pages' first here, then added once each), and encoded into c. */
static int cw_make_out(struct cw *w, uint64_t s, unsigned tid, struct io_webgraph_chunk *c)
{
	struct cw_scratch *t = &w->scr[tid];
	const uint64_t first = span_first(s), last = span_last(w, s), np = last - first;
	const double t0 = tsg_now();
	crawl_lists(&w->c, first, last, t->off, t->adj);
	const double t1 = tsg_now();
	memset(t->cnt, 0, np * sizeof(*t->cnt));
	const uint64_t m = t->off[np];
	for (uint64_t x = 0; x < m; x++) {
		const uint64_t v = t->adj[x];
		if (v - first < np)
			t->cnt[v - first]++;
		else
			atomic_fetch_add_explicit(&w->indeg[v], 1, memory_order_relaxed);
	}
	for (uint64_t i = 0; i < np; i++)
		if (t->cnt[i])
			atomic_fetch_add_explicit(&w->indeg[first + i], t->cnt[i], memory_order_relaxed);
	const int rc = io_webgraph_encode(c, &w->wo, first, np, t->off, t->adj);
	const double t2 = tsg_now();
	atomic_fetch_add(&w->gen_ns, (uint64_t)((t1 - t0) * 1e9));
	atomic_fetch_add(&w->enc_ns, (uint64_t)((t2 - t1) * 1e9));
	atomic_fetch_add(&w->arcs_done, m);
	return rc;
}

/* Puts page u's link to v, if in the pass's range [v0, v1), in place: at
 * the back of v's in-list, counted down, where u is of another span. */
static inline void cw_put_far(struct cw *w, uint64_t u, uint64_t v)
{
	if (v - w->v0 < w->v1 - w->v0)
		w->padj[w->poff[v - w->v0] +
			atomic_fetch_sub_explicit(&w->indeg[v], 1, memory_order_relaxed) - 1] = (uint32_t)u;
}

/* A pass's making of span s: its links into [v0, v1) put in place. A span
 * of the range is made whole, its links within itself put in order at the
 * front of their in-lists; of any other span, only the far links are made
 * (the rest stays in its span, outside the range). */
static void cw_sweep(void *ctx, uint64_t lo, uint64_t hi, unsigned tid)
{
	struct cw *w = ctx;
	struct cw_scratch *t = &w->scr[tid];
	for (uint64_t s = lo; s < hi; s++) {
		const uint64_t first = span_first(s), last = span_last(w, s), np = last - first;
		const double t0 = tsg_now();
		if (s < w->s_lo || s >= w->s_hi) {
			uint64_t s0 = 0, z = 0;
			uint32_t far[2 + CRAWL_EXTRA];
			for (uint64_t u = first; u < last; u++) {
				if (u >= s0 + z)
					crawl_site(&w->c, u, &s0, &z);
				const uint64_t d = crawl_page(&w->c, u, s0, z, 1, far);
				if (d > 0)
					cw_put_far(w, u, far[0]);
				if (d > 1 && far[1] != far[0]) /* a list has no repeats */
					cw_put_far(w, u, far[1]);
			}
		} else {
			crawl_lists(&w->c, first, last, t->off, t->adj);
			memset(t->cnt, 0, np * sizeof(*t->cnt));
			for (uint64_t i = 0; i < np; i++)
				for (uint64_t x = t->off[i]; x < t->off[i + 1]; x++) {
					const uint64_t v = t->adj[x];
					if (v - first < np) /* from its own span: in order, at the front */
						w->padj[w->poff[v - w->v0] + t->cnt[v - first]++] =
							(uint32_t)(first + i);
					else
						cw_put_far(w, first + i, v);
				}
		}
		atomic_fetch_add(&w->sweep_ns, (uint64_t)((tsg_now() - t0) * 1e9));
		atomic_fetch_add(&w->sweep_spans, 1);
		atomic_fetch_add(&w->spans_done, 1);
		cw_progress(w);
	}
}


/* The transpose's span s, after its pass's making: each in-list's back
 * (links from afar, in any order) sorted and merged into its front. */
static int cw_make_in(struct cw *w, uint64_t s, unsigned tid, struct io_webgraph_chunk *c)
{
	struct cw_scratch *t = &w->scr[tid];
	const uint64_t first = span_first(s), last = span_last(w, s);
	const double t0 = tsg_now();
	for (uint64_t v = first; v < last; v++) {
		const uint64_t o = w->poff[v - w->v0], e = w->poff[v - w->v0 + 1];
		const uint64_t front = atomic_load_explicit(&w->indeg[v], memory_order_relaxed);
		uint32_t *l = w->padj + o, *back = l + front;
		const uint64_t nb = e - o - front;
		if (nb == 0)
			continue;
		tsg_sort_u32(back, NULL, nb);
		if (front == 0)
			continue;
		if (e - o > t->ntmp) {
			uint32_t *p = realloc(t->tmp, (e - o) * sizeof(*p));
			if (!p)
				return TSG_ENOMEM;
			t->tmp = p;
			t->ntmp = e - o;
		}
		uint64_t i = 0, j = 0, k = 0;
		while (i < front && j < nb)
			t->tmp[k++] = l[i] < back[j] ? l[i++] : back[j++];
		while (i < front)
			t->tmp[k++] = l[i++];
		while (j < nb)
			t->tmp[k++] = back[j++];
		memcpy(l, t->tmp, k * sizeof(*l));
	}
	const int rc = io_webgraph_encode(c, &w->wo, first, last - first, w->poff + (first - w->v0),
					  w->padj);
	atomic_fetch_add(&w->enc_ns, (uint64_t)((tsg_now() - t0) * 1e9));
	atomic_fetch_add(&w->arcs_done, w->poff[last - w->v0] - w->poff[first - w->v0]);
	return rc;
}

/* The offsets of a pass's in-lists: each span's from its in-degrees, after
 * the spans before it. */
static void cw_offsets(void *ctx, uint64_t lo, uint64_t hi, unsigned tid)
{
	(void)tid;
	struct cw *w = ctx;
	for (uint64_t s = lo; s < hi; s++) {
		const uint64_t first = span_first(s + w->s_lo), last = span_last(w, s + w->s_lo);
		uint64_t at = w->poff[first - w->v0];
		for (uint64_t v = first; v < last; v++) {
			at += atomic_load_explicit(&w->indeg[v], memory_order_relaxed);
			w->poff[v + 1 - w->v0] = at;
		}
	}
}

static void cw_span_arcs(void *ctx, uint64_t lo, uint64_t hi, unsigned tid)
{
	(void)tid;
	struct cw *w = ctx;
	for (uint64_t s = lo; s < hi; s++) {
		uint64_t sum = 0;
		for (uint64_t v = span_first(s); v < span_last(w, s); v++)
			sum += atomic_load_explicit(&w->indeg[v], memory_order_relaxed);
		w->span_arcs[s] = sum;
	}
}

/* MemAvailable of /proc/meminfo, or 0. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kb * 1024;
}

/* --webgraph's default memory: half of what the host has available. */
static uint64_t cw_default_mem(void)
{
	const uint64_t a = mem_available();
	return a ? a / 2 : tsg_host_ram() * 2 / 5;
}

static int cw_run(const struct crawl *cr, const char *base, unsigned threads, uint64_t mem_limit,
		  unsigned window, int quiet, struct tsg_err *err)
{
	struct cw w = { .c = *cr, .threads = threads, .quiet = quiet };
	struct cw_ring ring = { .w = &w };
	struct io_webgraph_writer *gw = NULL, *tw = NULL;
	char tbase[4200], b1[32], b2[32];
	const uint64_t n = cr->n;
	int rc = TSG_OK, ring_init = 0, pass = 0;
	io_webgraph_write_defaults(&w.wo);
	w.wo.window = window;
	w.wo.chunk = CRAWL_SPAN;
	w.nspans = (n + CRAWL_SPAN - 1) / CRAWL_SPAN;
	ring.slots = 2 * threads;
	pthread_mutex_init(&w.print_mu, NULL);
	if ((size_t)snprintf(tbase, sizeof(tbase), "%s-t", base) >= sizeof(tbase)) {
		rc = tsg_fail(err, TSG_EUSAGE, "output name too long: %s", base);
		goto out;
	}
	/* what stays to the end: the in-degrees, each thread's span and its
	 * cursors, the ring of encoded spans (each about a byte a link), the
	 * writers' buffers; the passes get the rest */
	const uint64_t per_thread = (CRAWL_SPAN + 1) * 8 + CRAWL_SPAN * cr->cap * 4 + CRAWL_SPAN * 4;
	const uint64_t per_slot = CRAWL_SPAN * (cr->cap + 3);
	const uint64_t fixed = n * 4 + threads * per_thread + ring.slots * per_slot + (5u << 20) +
			       w.nspans * 8;
	/* and a pass of a span, of about as many links as a page makes (known
	 * exactly, and checked again, once the graph is made) */
	const uint64_t least = fixed + CRAWL_SPAN * (8 + 4 * (cr->ef / 2 + 8));
	if (mem_limit < least) {
		rc = tsg_fail(err, TSG_ENOMEM, "--mem-limit %s is too small for %llu pages on %u "
			      "threads: at least %s", tsg_fmt_bytes(mem_limit, b1, sizeof(b1)),
			      (unsigned long long)n, threads, tsg_fmt_bytes(least, b2, sizeof(b2)));
		goto out;
	}
	w.indeg = calloc(n, sizeof(*w.indeg));
	w.scr = calloc(threads, sizeof(*w.scr));
	w.span_arcs = calloc(w.nspans, sizeof(*w.span_arcs));
	ring.slot = calloc(ring.slots, sizeof(*ring.slot));
	ring.done = calloc(ring.slots, 1);
	int ok = w.indeg && w.scr && w.span_arcs && ring.slot && ring.done;
	for (unsigned t = 0; ok && t < threads; t++) {
		struct cw_scratch *s = &w.scr[t];
		s->off = malloc((CRAWL_SPAN + 1) * sizeof(*s->off));
		s->adj = malloc(CRAWL_SPAN * cr->cap * sizeof(*s->adj));
		s->cnt = malloc(CRAWL_SPAN * sizeof(*s->cnt));
		ok = s->off && s->adj && s->cnt;
	}
	for (unsigned k = 0; ok && k < ring.slots; k++)
		ok = (ring.slot[k] = io_webgraph_chunk_new()) != NULL;
	if (!ok) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for %llu pages",
			      (unsigned long long)n);
		goto out;
	}
	pthread_mutex_init(&ring.mu, NULL);
	pthread_cond_init(&ring.cv, NULL);
	ring_init = 1;
	w.t0 = tsg_now();
	atomic_store(&w.last_ms, (uint64_t)(w.t0 * 1e3));
	w.budget = mem_limit - fixed;

	/* the graph, counting in-degrees */
	if ((rc = io_webgraph_writer_open(base, &w.wo, &gw, err)))
		goto out;
	ring.out = gw;
	ring.make = cw_make_out;
	snprintf(w.what, sizeof(w.what), "graph");
	w.stage_pages = n;
	if ((rc = ring_run(&w, &ring, 0, w.nspans, err)))
		goto out;
	const double t_graph = tsg_now() - w.t0;
	const uint64_t m = atomic_load(&w.arcs_done);
	w.g_span = (double)atomic_load(&w.gen_ns) / (double)w.nspans;
	w.e_span = (double)atomic_load(&w.enc_ns) / (double)w.nspans;

	/* the transpose's passes: ranges of spans whose in-lists (offsets and
	 * links) fit what is left once the ring's spans, as large as they came
	 * (and half again), are set aside */
	tsg_parallel_for(threads, w.nspans, 64, cw_span_arcs, &w);
	uint64_t held = 0, most = 0;
	for (unsigned k = 0; k < ring.slots; k++)
		held += io_webgraph_chunk_bytes(ring.slot[k]);
	const uint64_t fixed2 = fixed - ring.slots * per_slot + held + held / 2;
	const uint64_t budget = mem_limit > fixed2 ? mem_limit - fixed2 : 0;
	int passes = 0;
	for (uint64_t s = 0, need = 0; s < w.nspans; s++) {
		const uint64_t one = (span_last(&w, s) - span_first(s)) * 8 + w.span_arcs[s] * 4;
		if (s == 0 || need + one > budget) {
			passes++;
			need = 8;
		}
		need += one;
		most = need > most ? need : most;
	}
	if (most > budget) {
		rc = tsg_fail(err, TSG_ENOMEM, "--mem-limit %s is too small for the transpose of %llu "
			      "pages: at least %s", tsg_fmt_bytes(mem_limit, b1, sizeof(b1)),
			      (unsigned long long)n, tsg_fmt_bytes(fixed2 + most, b2, sizeof(b2)));
		goto out;
	}
	w.passes = passes;
	if (!quiet)
		fprintf(stderr, "tristream-gen: %s.*: %llu pages, %llu links in %.1fs; the transpose "
			"in %d pass%s of at most %s\n", base, (unsigned long long)n,
			(unsigned long long)m, t_graph, passes, passes == 1 ? "" : "es",
			tsg_fmt_bytes(most, b1, sizeof(b1)));
	/* one buffer for every pass, the largest's size: each pass's offsets,
	 * then its links */
	w.pass_buf = malloc(most);
	if (!w.pass_buf) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for the transpose (%s a pass)",
			      tsg_fmt_bytes(most, b1, sizeof(b1)));
		goto out;
	}
	tsg_advise_huge(w.pass_buf, most);
	if ((rc = io_webgraph_writer_open(tbase, &w.wo, &tw, err)))
		goto out;
	ring.out = tw;
	ring.make = cw_make_in;
	for (uint64_t s = 0; s < w.nspans && rc == TSG_OK; pass++) {
		uint64_t e = s, need = 8, nodes = 0; /* the pass's spans [s, e) */
		while (e < w.nspans) {
			const uint64_t np = span_last(&w, e) - span_first(e);
			const uint64_t one = np * 8 + w.span_arcs[e] * 4;
			if (e > s && need + one > budget)
				break;
			need += one;
			nodes += np;
			e++;
		}
		w.s_lo = s;
		w.s_hi = e;
		w.v0 = span_first(s);
		w.v1 = span_last(&w, e - 1);
		w.poff = w.pass_buf;
		w.padj = (uint32_t *)(w.poff + nodes + 1);
		w.poff[0] = 0;
		for (uint64_t k = s, at = 0; k < e; k++) { /* each span's start */
			w.poff[span_first(k) - w.v0] = at;
			at += w.span_arcs[k];
		}
		tsg_parallel_for(threads, e - s, 16, cw_offsets, &w);
		snprintf(w.what, sizeof(w.what), "transpose, pass %d of %d: making links", pass + 1,
			 passes);
		w.stage_pages = n;
		atomic_store(&w.spans_done, 0);
		tsg_parallel_for(threads, w.nspans, 1, cw_sweep, &w);
		snprintf(w.what, sizeof(w.what), "transpose, pass %d of %d: encoding", pass + 1, passes);
		w.stage_pages = w.v1 - w.v0;
		rc = ring_run(&w, &ring, s, e - s, err);
		s = e;
	}
	if (rc)
		goto out;
	const double gbl = m ? (double)io_webgraph_writer_bits(gw) / (double)m : 0;
	const double tbl = m ? (double)io_webgraph_writer_bits(tw) / (double)m : 0;
	/* both named only now (a failure before leaves neither), the graph
	 * first and its transpose last, BASE-t.properties removed before
	 * either (io_webgraph_unname): killed between, BASE has no transpose
	 * and is counted by sorting, never with an old transpose */
	char tb[4400];
	snprintf(tb, sizeof(tb), "%s-t", base);
	rc = io_webgraph_unname(tb, err);
	if (rc == TSG_OK)
		rc = io_webgraph_writer_finish(gw, err);
	gw = NULL;
	if (rc == TSG_OK)
		rc = io_webgraph_writer_finish(tw, err);
	tw = NULL;
	if (rc == TSG_OK && !quiet) {
		const double secs = tsg_now() - w.t0;
		fprintf(stderr,
			"tristream-gen: %s.* and %s-t.*: %llu pages, %llu links (directed), %.3f and "
			"%.3f bits a link, in %.1fs (%.1f M links/s into the files; threads' time "
			"%.0fs making lists, %.0fs making them again for %d transpose pass%s, %.0fs "
			"encoding)\n",
			base, base, (unsigned long long)n, (unsigned long long)m, gbl, tbl, secs,
			secs > 0 ? 2.0 * (double)m / secs / 1e6 : 0.0, (double)atomic_load(&w.gen_ns) / 1e9,
			(double)atomic_load(&w.sweep_ns) / 1e9, passes, passes == 1 ? "" : "es",
			(double)atomic_load(&w.enc_ns) / 1e9);
	}
out:
	io_webgraph_writer_abort(gw);
	io_webgraph_writer_abort(tw);
	if (ring_init) {
		pthread_mutex_destroy(&ring.mu);
		pthread_cond_destroy(&ring.cv);
	}
	pthread_mutex_destroy(&w.print_mu);
	for (unsigned k = 0; ring.slot && k < ring.slots; k++)
		io_webgraph_chunk_free(ring.slot[k]);
	free(ring.slot);
	free(ring.done);
	for (unsigned t = 0; w.scr && t < threads; t++) {
		free(w.scr[t].off);
		free(w.scr[t].adj);
		free(w.scr[t].cnt);
		free(w.scr[t].tmp);
	}
	free(w.scr);
	free((void *)w.indeg);
	free(w.span_arcs);
	free(w.pass_buf);
	return rc;
}

static int add1(struct io_builder *b, uint64_t u, uint64_t v, struct tsg_err *err)
{
	uint64_t k = u << 32 | v;
	return io_builder_add(b, &k, 1, err);
}

static int bad(const char *msg, const char *arg)
{
	fprintf(stderr, "tristream-gen: ");
	fprintf(stderr, msg, arg);
	fprintf(stderr, "; see tristream-gen --help\n");
	return TSG_EUSAGE;
}

static int run(int argc, char **argv)
{
	struct gen g = { .a = 0.57, .b = 0.19, .c = 0.19, .seed = 1 };
	struct io_builder_opts bo = { 0 };
	uint64_t ef = 16, rows = 0, cols = 0, v, m = 0;
	int quiet = 0, webgraph = 0, c;
	unsigned threads = tsg_default_threads(), window = 7, window_set = 0;
	opterr = 0; /* our own one-line messages */
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_SCALE:
			if (tsg_parse_u64(optarg, 32, &v) || v == 0) return bad("bad scale '%s' (1..32)", optarg);
			g.scale = (unsigned)v;
			break;
		case O_EF:
			if (tsg_parse_u64(optarg, 1u << 20, &ef)) return bad("bad edge factor '%s'", optarg);
			break;
		case O_ABC:
			if (sscanf(optarg, "%lf,%lf,%lf", &g.a, &g.b, &g.c) != 3 || g.a < 0 || g.b < 0 ||
			    g.c < 0 || g.a + g.b + g.c > 1)
				return bad("bad --abc '%s'", optarg);
			break;
		case O_N:
			if (tsg_parse_u64(optarg, 0xffffffffull, &g.n)) return bad("bad vertex count '%s'", optarg);
			break;
		case O_M:
			if (tsg_parse_u64(optarg, UINT64_MAX / 2, &m)) return bad("bad edge count '%s'", optarg);
			break;
		case O_ROWS:
			if (tsg_parse_u64(optarg, 0xffffffffull, &rows)) return bad("bad rows '%s'", optarg);
			break;
		case O_COLS:
			if (tsg_parse_u64(optarg, 0xffffffffull, &cols)) return bad("bad cols '%s'", optarg);
			break;
		case O_SEED:
			if (tsg_parse_u64(optarg, UINT64_MAX, &g.seed)) return bad("bad seed '%s'", optarg);
			break;
		case O_THREADS:
			if (tsg_parse_u64(optarg, 4096, &v) || v == 0) return bad("bad threads '%s'", optarg);
			threads = (unsigned)v;
			break;
		case O_MEM:
			if (tsg_parse_size(optarg, &bo.mem_limit)) return bad("bad size '%s'", optarg);
			break;
		case O_TMP: bo.tmpdir = optarg; break;
		case O_QUIET: quiet = 1; break;
		case O_WEBGRAPH: webgraph = 1; break;
		case O_WINDOW:
			if (tsg_parse_u64(optarg, 7, &v)) return bad("bad window '%s' (0..7)", optarg);
			window = (unsigned)v;
			window_set = 1;
			break;
		case 'h':
		case O_HELP: fputs(usage, stdout); return TSG_OK;
		case O_VERSION: printf("tristream-gen %s\n", TSG_VERSION); return TSG_OK;
		case ':': return bad("%s needs a value", argv[optind - 1]);
		default: return bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind + 2 != argc)
		return bad("%s", "need KIND and OUTPUT");
	const char *kind = argv[optind], *out = argv[optind + 1];
	struct tsg_err err = { 0 };
	if (window_set && !webgraph)
		return bad("%s", "--window is for --webgraph only (a .tsg has no references)");
	if (webgraph) {
		if (strcmp(kind, "crawl") != 0)
			return bad("%s", "--webgraph is for crawl only (the other kinds are undirected)");
		if (!g.n)
			return bad("%s", "crawl needs --vertices");
		if (ef > 4096)
			return bad("%s", "crawl takes --edge-factor up to 4096 (the largest menu)");
		if (bo.tmpdir)
			return bad("%s", "--webgraph writes no scratch files: not with --tmpdir");
		const struct crawl cr = { .n = g.n, .seed = g.seed, .ef = ef,
					  .cap = ef + crawl_own(ef) + CRAWL_EXTRA };
		const int rc = cw_run(&cr, out, threads, bo.mem_limit ? bo.mem_limit : cw_default_mem(),
				      window, quiet, &err);
		if (rc)
			fprintf(stderr, "tristream-gen: error: %s\n", err.msg);
		return rc;
	}
	struct io_builder *b;
	struct io_build_stats st;
	bo.threads = threads;
	int rc = io_builder_new(&bo, &b, &err);
	if (rc)
		goto done;
	double t0 = tsg_now();
	if (strcmp(kind, "rmat") == 0 || strcmp(kind, "kron") == 0) {
		if (!g.scale) {
			io_builder_free(b);
			return bad("%s", "rmat needs --scale");
		}
		g.kind = 0;
		g.m = ef << g.scale;
		io_builder_reserve_vertices(b, 1ull << g.scale);
		rc = gen_random(&g, b, threads, quiet, &err);
	} else if (strcmp(kind, "er") == 0) {
		if (!g.n) {
			io_builder_free(b);
			return bad("%s", "er needs --vertices");
		}
		g.kind = 1;
		g.m = m ? m : ef * g.n / 2;
		io_builder_reserve_vertices(b, g.n);
		rc = gen_random(&g, b, threads, quiet, &err);
	} else if (strcmp(kind, "web") == 0) {
		if (!g.n) {
			io_builder_free(b);
			return bad("%s", "web needs --vertices");
		}
		g.kind = 2;
		g.m = ef * g.n / 2;
		io_builder_reserve_vertices(b, g.n);
		rc = gen_random(&g, b, threads, quiet, &err);
	} else if (strcmp(kind, "crawl") == 0) {
		if (!g.n) {
			io_builder_free(b);
			return bad("%s", "crawl needs --vertices");
		}
		if (ef > 4096) {
			io_builder_free(b);
			return bad("%s", "crawl takes --edge-factor up to 4096 (the largest menu)");
		}
		io_builder_reserve_vertices(b, g.n);
		const struct crawl cr = { .n = g.n, .seed = g.seed, .ef = ef,
					  .cap = ef + crawl_own(ef) + CRAWL_EXTRA };
		rc = gen_crawl(&cr, b, threads, quiet, &err);
	} else if (strcmp(kind, "clique") == 0) {
		io_builder_reserve_vertices(b, g.n);
		for (uint64_t u = 0; u < g.n && !rc; u++)
			for (uint64_t w = u + 1; w < g.n && !rc; w++)
				rc = add1(b, u, w, &err);
	} else if (strcmp(kind, "star") == 0) {
		io_builder_reserve_vertices(b, g.n);
		for (uint64_t u = 1; u < g.n && !rc; u++)
			rc = add1(b, 0, u, &err);
	} else if (strcmp(kind, "grid") == 0) {
		io_builder_reserve_vertices(b, rows * cols);
		for (uint64_t r = 0; r < rows && !rc; r++)
			for (uint64_t q = 0; q < cols && !rc; q++) {
				if (q + 1 < cols)
					rc = add1(b, r * cols + q, r * cols + q + 1, &err);
				if (!rc && r + 1 < rows)
					rc = add1(b, r * cols + q, (r + 1) * cols + q, &err);
			}
	} else if (strcmp(kind, "empty") == 0) {
		io_builder_reserve_vertices(b, g.n);
	} else {
		io_builder_free(b);
		return bad("unknown kind '%s'", kind);
	}
	if (rc) {
		io_builder_free(b);
		goto done;
	}
	rc = io_builder_finish(b, out, &st, &err);
	if (rc == TSG_OK && !quiet)
		fprintf(stderr, "tristream-gen: %s: %llu vertices, %llu edges (%llu generated, %llu "
			"duplicates and %llu self-loops dropped) in %.2fs\n", out,
			(unsigned long long)st.nv, (unsigned long long)st.nedges,
			(unsigned long long)st.input_edges, (unsigned long long)st.duplicates,
			(unsigned long long)st.self_loops, tsg_now() - t0);
done:
	if (rc)
		fprintf(stderr, "tristream-gen: error: %s\n", err.msg);
	return rc;
}

int main(int argc, char **argv)
{
	return tsg_main(argc, argv, run, "tristream-gen");
}
