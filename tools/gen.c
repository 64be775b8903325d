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
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/builder.h"
#include "io/sort.h"
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
	"                  sections: a crawl's redundancy too (about 3 bits a link\n"
	"                  as BVGraph, degree about 27)\n"
	"  clique          --vertices N      (C(N,3) triangles)\n"
	"  star            --vertices N      (no triangles)\n"
	"  grid            --rows R --cols C (no triangles)\n"
	"  empty           --vertices N      (no edges)\n"
	"options:\n"
	"  --seed N  --threads N  --mem-limit SIZE  --tmpdir DIR  --quiet\n"
	"  --webgraph  crawl only: its links as they are, directed, written as the\n"
	"              BVGraph OUTPUT.{graph,offsets,properties} with its transpose\n"
	"              OUTPUT-t.*, as LAW ships a crawl (counted, it is the same\n"
	"              undirected graph as the .tsg the same arguments make; made in\n"
	"              memory, about 24 bytes a link at the peak)\n";

enum { O_SCALE = 256, O_EF, O_ABC, O_N, O_M, O_ROWS, O_COLS, O_SEED, O_THREADS, O_MEM, O_TMP,
       O_QUIET, O_WEBGRAPH, O_HELP };

static const struct option opts[] = {
	{ "scale", required_argument, 0, O_SCALE }, { "edge-factor", required_argument, 0, O_EF },
	{ "abc", required_argument, 0, O_ABC }, { "vertices", required_argument, 0, O_N },
	{ "edges", required_argument, 0, O_M }, { "rows", required_argument, 0, O_ROWS },
	{ "cols", required_argument, 0, O_COLS }, { "seed", required_argument, 0, O_SEED },
	{ "threads", required_argument, 0, O_THREADS }, { "mem-limit", required_argument, 0, O_MEM },
	{ "tmpdir", required_argument, 0, O_TMP }, { "quiet", no_argument, 0, O_QUIET },
	{ "webgraph", no_argument, 0, O_WEBGRAPH },
	{ "help", no_argument, 0, O_HELP }, { 0, 0, 0, 0 },
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

/* ---- crawl: pages by site, chunk by chunk of pages ---- */

enum {
	CRAWL_CHUNK = 4096,	  /* pages a task makes */
	CRAWL_SPAN = 1 << 16,	  /* sites never cross a multiple of this */
	CRAWL_MAX_SITE = 8192,	  /* site sizes are log-uniform in 1 .. this */
	CRAWL_FAR = 1 << 20,	  /* reach of a link to a nearby site */
	CRAWL_EXTRA = 8 + 6 + 2, /* pagination, section, page: most links a page */
};

struct crawl {
	uint64_t n, seed, ef;	 /* ef: the largest menu (a site's first pages) */
	int lists;		 /* each chunk's links sorted, without repeats or loops */
	uint64_t first_chunk, cap; /* cap: edges a page may make */
	uint64_t *out, *count;	 /* a batch of chunks, cap * CRAWL_CHUNK each */
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

static void crawl_chunks(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	(void)tid;
	struct crawl *c = arg;
	for (uint64_t k = lo; k < hi; k++) {
		const uint64_t first = (c->first_chunk + k) * CRAWL_CHUNK;
		const uint64_t last = first + CRAWL_CHUNK < c->n ? first + CRAWL_CHUNK : c->n;
		uint64_t *out = c->out + k * c->cap * CRAWL_CHUNK, e = 0;
		uint64_t s0 = 0, z = 0;
		for (uint64_t u = first; u < last; u++) {
			if (u >= s0 + z)
				crawl_site(c, u, &s0, &z);
			uint64_t s = c->seed ^ (u * 0xd1b54a32d192ed03ull), site = s0 * 0x9e3779b97f4a7c15ull;
			/* the menu: the site's first pages, the same for every page */
			uint64_t menu = 1 + splitmix(&site) % c->ef;
			menu = menu < z ? menu : z;
			const int full = unit(&s) < 0.85;
			for (uint64_t i = 0; i < menu; i++)
				if (s0 + i != u && (full || unit(&s) < 0.5))
					out[e++] = u << 32 | (s0 + i);
			for (uint64_t j = 1; j <= 8 && u + j < s0 + z; j++) { /* next pages */
				out[e++] = u << 32 | (u + j);
				if (unit(&s) < 0.4)
					break;
			}
			/* a section (16 pages in a row) shares its links into the site
			 * and a far one: neighbouring lists repeat */
			uint64_t sec = c->seed ^ ((u / 16) * 0xa0761d6478bd642full) ^ 0xe7037ed1a0b428dbull;
			const uint64_t nsec = 2 + splitmix(&sec) % 4;
			for (uint64_t i = 0; i < nsec; i++) {
				const uint64_t w = crawl_within(&sec, s0, z, u / 16 * 16 > s0 ? u / 16 * 16 : s0);
				if (unit(&s) < 0.9)
					out[e++] = u << 32 | w;
			}
			if (unit(&sec) < 0.5) {
				const uint64_t w = crawl_far(c, &sec, u);
				if (unit(&s) < 0.9)
					out[e++] = u << 32 | w;
			}
			if (unit(&s) < 0.25) /* and, rarely, a page its own */
				out[e++] = u << 32 | crawl_within(&s, s0, z, u);
			if (unit(&s) < 0.1)
				out[e++] = u << 32 | crawl_far(c, &s, u);
		}
		if (c->lists) { /* keys grouped by page already: sorted, each page's links too */
			uint64_t kept = 0;
			for (uint64_t b = 0, a = 0; a < e; a = b) {
				for (b = a + 1; b < e && out[b] >> 32 == out[a] >> 32; b++)
					;
				for (uint64_t x = a + 1; x < b; x++) /* a page's few links */
					for (uint64_t y = x; y > a && out[y - 1] > out[y]; y--) {
						const uint64_t t = out[y];
						out[y] = out[y - 1];
						out[y - 1] = t;
					}
				for (uint64_t x = a; x < b; x++)
					if ((out[x] >> 32) != (out[x] & 0xffffffffu) &&
					    (x == a || out[x] != out[x - 1]))
						out[kept++] = out[x];
			}
			e = kept;
		}
		c->count[k] = e;
	}
}

/* Makes the crawl's links: into the builder b (an undirected graph), or,
 * where b is NULL, as sorted keys u<<32|v, page after page, into *keys
 * (*nkeys of them; the caller frees). */
static int gen_crawl(uint64_t n, uint64_t ef, uint64_t seed, struct io_builder *b,
		     uint64_t **keys, uint64_t *nkeys, unsigned threads, int quiet,
		     struct tsg_err *err)
{
	struct crawl c = { .n = n, .seed = seed, .ef = ef, .cap = ef + CRAWL_EXTRA, .lists = !b };
	uint64_t have = 0;
	if (!b) { /* room for the most links the pages can make: only address
		   * space until written */
		*keys = malloc((n ? n * c.cap : 1) * sizeof(uint64_t));
		if (!*keys)
			return tsg_fail(err, TSG_ENOMEM, "out of memory for %llu pages' links",
					(unsigned long long)n);
	}
	const uint64_t nchunks = (n + CRAWL_CHUNK - 1) / CRAWL_CHUNK, per = threads * 2;
	int rc = TSG_OK;
	c.out = malloc(per * c.cap * CRAWL_CHUNK * sizeof(uint64_t));
	c.count = malloc(per * sizeof(uint64_t));
	if (!c.out || !c.count) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto out;
	}
	double t0 = tsg_now(), last = t0;
	for (uint64_t at = 0; at < nchunks && rc == TSG_OK; at += per) {
		const uint64_t nb = nchunks - at < per ? nchunks - at : per;
		c.first_chunk = at;
		tsg_parallel_for(threads, nb, 1, crawl_chunks, &c);
		for (uint64_t k = 0; k < nb && rc == TSG_OK; k++) {
			const uint64_t *src = c.out + k * c.cap * CRAWL_CHUNK;
			if (b) {
				rc = io_builder_add(b, src, c.count[k], err);
			} else {
				memcpy(*keys + have, src, c.count[k] * sizeof(uint64_t));
				have += c.count[k];
			}
		}
		if (!quiet)
			gen_progress(t0, &last, at + nb, nchunks, CRAWL_CHUNK, n, "pages");
	}
out:
	free(c.out);
	free(c.count);
	if (!b)
		*nkeys = have;
	return rc;
}

/* Sorted keys u<<32|v (n pages) as lists: off[n + 1] and adj (m ids). */
static int keys_to_lists(const uint64_t *keys, uint64_t m, uint64_t n, uint64_t **off,
			 uint32_t **adj, struct tsg_err *err)
{
	*off = calloc(n + 1, sizeof(uint64_t));
	*adj = malloc((m ? m : 1) * sizeof(uint32_t));
	if (!*off || !*adj)
		return tsg_fail(err, TSG_ENOMEM, "out of memory for %llu pages' lists",
				(unsigned long long)n);
	for (uint64_t i = 0; i < m; i++) {
		(*off)[(keys[i] >> 32) + 1]++;
		(*adj)[i] = (uint32_t)keys[i];
	}
	for (uint64_t u = 0; u < n; u++)
		(*off)[u + 1] += (*off)[u];
	return TSG_OK;
}

/* --webgraph: the crawl's links as they are, as BVGraph BASE.* and its
 * transpose BASE-t.* (the keys reversed and sorted). */
static int gen_crawl_webgraph(uint64_t n, uint64_t ef, uint64_t seed, const char *base,
			      unsigned threads, int quiet, struct tsg_err *err)
{
	uint64_t *keys = NULL, *rev = NULL, *tmp = NULL, *off = NULL, *toff = NULL, m = 0;
	uint32_t *adj = NULL, *tadj = NULL;
	char tbase[4200];
	struct io_webgraph_wopts wo;
	io_webgraph_write_defaults(&wo);
	wo.threads = threads;
	int rc = TSG_OK;
	if ((size_t)snprintf(tbase, sizeof(tbase), "%s-t", base) >= sizeof(tbase)) {
		rc = tsg_fail(err, TSG_EUSAGE, "output name too long: %s", base);
		goto out;
	}
	if ((rc = gen_crawl(n, ef, seed, NULL, &keys, &m, threads, quiet, err)))
		goto out;
	rev = malloc((m ? m : 1) * sizeof(uint64_t));
	tmp = malloc((m ? m : 1) * sizeof(uint64_t));
	if (!rev || !tmp) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for the transpose of %llu links",
			      (unsigned long long)m);
		goto out;
	}
	for (uint64_t i = 0; i < m; i++)
		rev[i] = keys[i] << 32 | keys[i] >> 32;
	if (io_sort_u64(rev, tmp, m, threads)) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory sorting the transpose");
		goto out;
	}
	free(tmp); /* the keys, 8 bytes a link each, go as their lists are made */
	tmp = NULL;
	if ((rc = keys_to_lists(keys, m, n, &off, &adj, err)))
		goto out;
	free(keys);
	keys = NULL;
	if ((rc = keys_to_lists(rev, m, n, &toff, &tadj, err)))
		goto out;
	free(rev);
	rev = NULL;
	if ((rc = io_webgraph_write(base, n, off, adj, &wo, err)) ||
	    (rc = io_webgraph_write(tbase, n, toff, tadj, &wo, err)))
		goto out;
	if (!quiet)
		fprintf(stderr, "tristream-gen: %s.* and %s-t.*: %llu pages, %llu links (directed)\n",
			base, base, (unsigned long long)n, (unsigned long long)m);
out:
	free(keys);
	free(rev);
	free(tmp);
	free(off);
	free(toff);
	free(adj);
	free(tadj);
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
	/* a file-size limit must surface as EFBIG from the write, not kill us */
	signal(SIGXFSZ, SIG_IGN);
	struct gen g = { .a = 0.57, .b = 0.19, .c = 0.19, .seed = 1 };
	struct io_builder_opts bo = { 0 };
	uint64_t ef = 16, rows = 0, cols = 0, v, m = 0;
	int quiet = 0, webgraph = 0, c;
	unsigned threads = tsg_default_threads();
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
		case 'h':
		case O_HELP: fputs(usage, stdout); return TSG_OK;
		case ':': return bad("%s needs a value", argv[optind - 1]);
		default: return bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind + 2 != argc)
		return bad("%s", "need KIND and OUTPUT");
	const char *kind = argv[optind], *out = argv[optind + 1];
	struct tsg_err err = { 0 };
	if (webgraph) {
		if (strcmp(kind, "crawl") != 0)
			return bad("%s", "--webgraph is for crawl only (the other kinds are undirected)");
		if (!g.n)
			return bad("%s", "crawl needs --vertices");
		if (ef > 4096)
			return bad("%s", "crawl takes --edge-factor up to 4096 (the largest menu)");
		if (bo.mem_limit || bo.tmpdir)
			return bad("%s", "--webgraph makes the crawl and its transpose in memory: not "
				   "with --mem-limit or --tmpdir");
		const int rc = gen_crawl_webgraph(g.n, ef, g.seed, out, threads, quiet, &err);
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
		rc = gen_crawl(g.n, ef, g.seed, b, NULL, NULL, threads, quiet, &err);
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
	return tsg_close_stdout(run(argc, argv), "tristream-gen");
}
