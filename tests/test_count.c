/*
 * test_count.c - every CPU kernel, partition scheme, pruning rule and
 * partition count gives the brute-force count, on random and degenerate
 * graphs; each partition counts exactly the triangles whose source it owns;
 * LOCAL pruning keeps no more than LSTC's Algorithm 2; automatic planning
 * respects its budget. The same for the block layout: the oriented graph
 * holds every edge once, upward, and 2D units count exactly the triangles
 * of their source blocks, for fixed block counts and automatic budgets.
 * And the engine orients a graph while it is read (io_graph_open, then
 * engine_count), with every reader, plain and compressed, both ways.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "partition/block.h"
#include "partition/held.h"
#include "partition/order.h"
#include "kernels/choose.h"
#include "kernels/cpu.h"
#include "src/engine.h"
#include "io/reader.h"
#include "src/hostmem.h"
#include "src/pipeline.h"
#include "partition/part.h"
#include "partition/rows.h"
#include "testlib.h"
#include "io/writer.h"

static void *heap(void *ctx, size_t bytes)
{
	(void)ctx;
	return malloc(bytes ? bytes : 1);
}

/* contig, edge, hash, and metis where this build has it */
static int nschemes(void) { return part_scheme_available(PART_METIS) ? 4 : 3; }

struct casegraph {
	const char *name;
	struct tsg_graph g;
	uint64_t ref;
	uint64_t *by_src;
};

static size_t gen_er(uint64_t *e, uint32_t n, size_t m, uint64_t seed)
{
	for (size_t i = 0; i < m; i++)
		e[i] = (t_rand(&seed) % n) << 32 | (t_rand(&seed) % n);
	return m;
}

static size_t gen_rmat(uint64_t *e, unsigned scale, size_t m, uint64_t seed)
{
	for (size_t i = 0; i < m; i++) {
		uint64_t u = 0, v = 0;
		for (unsigned l = 0; l < scale; l++) {
			double r = (double)(t_rand(&seed) >> 11) * 0x1.0p-53;
			u = u << 1 | (r >= 0.76);
			v = v << 1 | ((r >= 0.57 && r < 0.76) || r >= 0.95);
		}
		e[i] = u << 32 | v;
	}
	return m;
}

static size_t gen_clique(uint64_t *e, uint32_t n)
{
	size_t k = 0;
	for (uint64_t u = 0; u < n; u++)
		for (uint64_t v = u + 1; v < n; v++)
			e[k++] = u << 32 | v;
	return k;
}

/* a star whose leaves also form a path: many triangles through the hub */
static size_t gen_fan(uint64_t *e, uint32_t n)
{
	size_t k = 0;
	for (uint64_t u = 1; u < n; u++) {
		e[k++] = (uint64_t)0 << 32 | u;
		if (u + 1 < n)
			e[k++] = u << 32 | (u + 1);
	}
	return k;
}

static void check_plan(struct t_state *st, struct casegraph *c, enum part_scheme scheme,
		       enum part_prune prune, uint32_t np)
{
	struct part_opts po = { .scheme = scheme, .prune = prune, .nparts = np, .seed = 7,
				.threads = 2 };
	struct part_plan *plan;
	struct tsg_err err = { 0 };
	int rc = part_plan_new(&c->g, &po, &plan, &err);
	CHECK(st, rc == 0, "%s: plan: %s", c->name, err.msg);
	if (rc)
		return;
	uint64_t total[KERN_CPU_COUNT_] = { 0 };
	for (uint32_t i = 0; i < part_plan_count(plan); i++) {
		struct tsg_dag d;
		struct part_stats ps;
		rc = part_build(plan, i, heap, NULL, 1, &d, &ps, &err);
		CHECK(st, rc == 0, "%s: build part %u: %s", c->name, i, err.msg);
		if (rc)
			break;
		uint64_t expect = 0;
		for (uint32_t v = 0; v < c->g.nv; v++)
			if (part_plan_owner(plan, v) == i)
				expect += c->by_src[v];
		for (int k = 0; k < KERN_CPU_COUNT_; k++) {
			uint64_t got = 0;
			rc = kern_cpu_count(&d, (enum kern_cpu_kind)k, 2, NULL, &got, NULL, &err);
			total[k] += got;
			CHECK(st, rc == 0 && got == expect, "%s %s/%s P=%u part %u %s: %llu, expected %llu",
			      c->name, part_scheme_name(scheme), part_prune_name(prune), np, i,
			      kern_cpu_name((enum kern_cpu_kind)k), (unsigned long long)got,
			      (unsigned long long)expect);
		}
		CHECK(st, ps.v_res <= ps.v_ind && ps.e_res <= ps.e_ind && ps.v_local <= ps.v_res,
		      "%s: part %u sizes local %llu res %llu ind %llu", c->name, i,
		      (unsigned long long)ps.v_local, (unsigned long long)ps.v_res,
		      (unsigned long long)ps.v_ind);
		free(d.off);
	}
	for (int k = 0; k < KERN_CPU_COUNT_; k++)
		CHECK(st, total[k] == c->ref, "%s %s/%s P=%u: sum %llu, expected %llu", c->name,
		      part_scheme_name(scheme), part_prune_name(prune), np,
		      (unsigned long long)total[k], (unsigned long long)c->ref);
	part_plan_free(plan);
}

/* LOCAL keeps a subset of what Algorithm 2 keeps, and CLOSED a subset of
 * LOCAL, part by part; CLOSED's parts count the same 4- and 5-cliques as
 * LOCAL's, part by part. order: part_opts.order (NULL: degree). */
static void check_prune_order(struct t_state *st, struct casegraph *c, uint32_t np,
			      const uint32_t *order)
{
	struct part_plan *pl[3];
	struct tsg_err err = { 0 };
	for (int k = 0; k < 3; k++) {
		struct part_opts po = { .scheme = PART_EDGE, .prune = (enum part_prune)k, .nparts = np,
					.threads = 2, .order = order };
		if (part_plan_new(&c->g, &po, &pl[k], &err)) {
			CHECK(st, 0, "plan: %s", err.msg);
			while (k--)
				part_plan_free(pl[k]);
			return;
		}
	}
	for (uint32_t i = 0; i < np; i++) {
		struct part_stats a, b, z;
		const int ra = part_measure(pl[0], i, &a, &err), rb = part_measure(pl[1], i, &b, &err),
			  rz = part_measure(pl[2], i, &z, &err);
		CHECK(st, ra == 0 && rb == 0 && rz == 0, "%s P=%u part %u: measure failed: %s",
		      c->name, np, i, err.msg);
		if (ra || rb || rz)
			continue;
		CHECK(st, a.v_res <= b.v_res && a.e_res <= b.e_res, "%s P=%u part %u: local %llu/%llu "
		      "lstc %llu/%llu", c->name, np, i, (unsigned long long)a.v_res,
		      (unsigned long long)a.e_res, (unsigned long long)b.v_res,
		      (unsigned long long)b.e_res);
		CHECK(st, z.v_res <= a.v_res && z.e_res <= a.e_res && z.v_local == a.v_local,
		      "%s P=%u part %u: closed %llu/%llu local %llu/%llu", c->name, np, i,
		      (unsigned long long)z.v_res, (unsigned long long)z.e_res,
		      (unsigned long long)a.v_res, (unsigned long long)a.e_res);
		for (unsigned k = 4; k <= 5; k++) {
			uint64_t got[2] = { 0, 0 };
			for (int q = 0; q < 2; q++) {
				struct tsg_dag d;
				if (part_build(pl[q ? 2 : 0], i, heap, NULL, 0, &d, NULL, &err) == 0) {
					if (kern_cpu_clique(&d, k, 0, KERN_CLIQUE_ORIENT, 2, &got[q], NULL,
							    &err))
						got[q] = UINT64_MAX - q; /* a failure never matches */
					free(d.off);
				} else {
					got[q] = UINT64_MAX - q;
				}
			}
			CHECK(st, got[0] == got[1], "%s P=%u part %u K=%u: closed %llu, local %llu",
			      c->name, np, i, k, (unsigned long long)got[1], (unsigned long long)got[0]);
		}
	}
	for (int k = 0; k < 3; k++)
		part_plan_free(pl[k]);
}

/* A part's sources dealt into pieces for several GPUs (part_source_stripes,
 * src/clique_share.h): the pieces are the sources, each once, piece j
 * every P-th from the j-th in increasing order, their sizes within one of
 * each other, at most as many as asked; and the K-cliques of the pieces'
 * sources sum to the part's (what each GPU's launch over a piece relies
 * on), for K = 4 and 5 on the CPU's kernel. */
static void check_source_pieces(struct t_state *st, struct casegraph *c)
{
	struct part_opts po = { .scheme = PART_EDGE, .nparts = 1, .threads = 2 };
	struct part_plan *pl;
	struct tsg_dag d;
	struct tsg_err err = { 0 };
	if (part_plan_new(&c->g, &po, &pl, &err)) {
		CHECK(st, 0, "%s: plan: %s", c->name, err.msg);
		return;
	}
	if (part_build(pl, 0, heap, NULL, 0, &d, NULL, &err)) {
		CHECK(st, 0, "%s: build: %s", c->name, err.msg);
		part_plan_free(pl);
		return;
	}
	const uint32_t asks[] = { 1, 2, 3, 7, 32, d.nsrc + 5 };
	uint32_t *cut = malloc(((size_t)d.nsrc + 6) * sizeof(*cut));
	uint32_t *was = malloc(((size_t)d.nsrc + 1) * sizeof(*was));
	uint64_t whole[2] = { 0, 0 };
	for (unsigned k = 4; cut && was && k <= 5; k++)
		CHECK(st, kern_cpu_clique(&d, k, 0, KERN_CLIQUE_ORIENT, 2, &whole[k - 4], NULL, &err) == 0,
		      "%s K=%u: whole part: %s", c->name, k, err.msg);
	for (unsigned a = 0; cut && was && a < sizeof(asks) / sizeof(asks[0]); a++) {
		memcpy(was, d.src, (size_t)d.nsrc * sizeof(*was)); /* increasing: the build's */
		uint32_t n = UINT32_MAX;
		const uint32_t want = asks[a] < d.nsrc ? asks[a] : d.nsrc;
		const int rc = part_source_stripes(&d, asks[a], cut, &n, &err);
		int ok = rc == 0 && n == want && cut[0] == 0 && cut[n] == d.nsrc;
		for (uint32_t j = 0; ok && j < n; j++) {
			const uint32_t len = cut[j + 1] - cut[j];
			ok = len == d.nsrc / n || len == d.nsrc / n + 1;
			for (uint32_t x = cut[j], y = j; ok && x < cut[j + 1]; x++, y += n)
				ok = y < d.nsrc && d.src[x] == was[y];
		}
		CHECK(st, ok, "%s: %u pieces (%u made): not every P-th source, in order", c->name,
		      asks[a], n);
		for (unsigned k = 4; ok && k <= 5; k++) {
			uint64_t sum = 0, got = 0;
			for (uint32_t j = 0; ok && j < n; j++) {
				struct tsg_dag piece = d;
				piece.src = d.src + cut[j];
				piece.nsrc = cut[j + 1] - cut[j];
				ok = kern_cpu_clique(&piece, k, 0, KERN_CLIQUE_ORIENT, 2, &got, NULL,
						     &err) == 0;
				sum += got;
				got = 0;
			}
			CHECK(st, ok && sum == whole[k - 4], "%s K=%u %u pieces: %llu, whole part %llu",
			      c->name, k, asks[a], (unsigned long long)sum,
			      (unsigned long long)whole[k - 4]);
		}
		memcpy(d.src, was, (size_t)d.nsrc * sizeof(*was));
	}
	CHECK(st, cut && was, "out of memory");
	free(cut);
	free(was);
	free(d.off);
	part_plan_free(pl);
}

/* The greedy plan of closed ranges (part.c, plan_closed): every part fits
 * the budget, the plan's largest part is what building them measures (its
 * counts of new edges and vertices are exact), and the parts count the
 * graph's triangles. order: part_opts.order (NULL: degree; the plan's
 * lists are stored in that order, partition/part.c). */
static void check_closed_plan(struct t_state *st, struct casegraph *c, const uint32_t *order)
{
	const uint64_t whole = tsg_dag_bytes(c->g.nv, c->g.nadj / 2, c->g.nv);
	for (uint64_t div = 2; div <= 16; div *= 2) {
		struct part_opts po = { .scheme = PART_EDGE, .prune = PART_PRUNE_CLOSED,
					.budget = whole / div + 64, .threads = 2, .order = order };
		struct part_plan *pl;
		struct tsg_err err = { 0 };
		if (part_plan_new(&c->g, &po, &pl, &err)) {
			CHECK(st, strstr(err.msg, "budget") != NULL, "%s closed plan /%llu: %s",
			      c->name, (unsigned long long)div, err.msg);
			continue;
		}
		uint64_t most = 0, sum = 0;
		const uint32_t np = part_plan_count(pl);
		struct tsg_dag *d = calloc(np, sizeof(*d)); /* kept for the comparison below */
		for (uint32_t i = 0; d && i < np; i++) {
			struct part_stats ps;
			if (part_build(pl, i, heap, NULL, 0, &d[i], &ps, &err)) {
				CHECK(st, 0, "%s closed part %u: %s", c->name, i, err.msg);
				break;
			}
			uint64_t got = 0;
			if (kern_cpu_count(&d[i], KERN_CPU_MERGE, 2, NULL, &got, NULL, &err) == 0)
				sum += got;
			CHECK(st, ps.bytes <= po.budget, "%s closed /%llu part %u: %llu > %llu", c->name,
			      (unsigned long long)div, i, (unsigned long long)ps.bytes,
			      (unsigned long long)po.budget);
			most = ps.bytes > most ? ps.bytes : most;
		}
		CHECK(st, most == part_plan_max_bytes(pl), "%s closed /%llu: largest part %llu, "
		      "planned %llu", c->name, (unsigned long long)div, (unsigned long long)most,
		      (unsigned long long)part_plan_max_bytes(pl));
		CHECK(st, sum == c->ref, "%s closed /%llu: %llu triangles, expected %llu", c->name,
		      (unsigned long long)div, (unsigned long long)sum, (unsigned long long)c->ref);
		/* the parts above were built from the plan's recipes (those that
		 * fit their room; the rest listed): the same parts, byte for byte,
		 * as listing every part's triangles again builds */
		uint64_t rbytes;
		const uint32_t nrec = part_plan_recipes(pl, &rbytes);
		CHECK(st, nrec >= 1 && nrec <= np && rbytes > 0, "%s closed /%llu: %u recipes of %u "
		      "parts", c->name, (unsigned long long)div, nrec, np);
		part_plan_forget_recipes(pl);
		for (uint32_t i = 0; d && i < np && d[i].off; i++) {
			struct tsg_dag b;
			if (part_build(pl, i, heap, NULL, 0, &b, NULL, &err)) {
				CHECK(st, 0, "%s closed part %u: %s", c->name, i, err.msg);
				break;
			}
			CHECK(st, b.nv == d[i].nv && b.ne == d[i].ne && b.nsrc == d[i].nsrc &&
				  b.max_out == d[i].max_out &&
				  memcmp(b.off, d[i].off, tsg_dag_bytes(b.nv, b.ne, b.nsrc)) == 0,
			      "%s closed /%llu part %u: replayed and listed parts differ", c->name,
			      (unsigned long long)div, i);
			free(b.off);
		}
		for (uint32_t i = 0; d && i < np; i++)
			free(d[i].off);
		free(d);
		part_plan_free(pl);
	}
}

/* part_opts.min_parts (parts shared by GPUs or ranks): a budget that holds
 * the whole graph still gives several parts, pruned closed, each within the
 * budget, and together they count the graph's triangles; without it the
 * same budget gives one part. */
static void check_min_parts(struct t_state *st, struct casegraph *c)
{
	const uint64_t whole = tsg_dag_bytes(c->g.nv, c->g.nadj / 2, c->g.nv);
	for (int s = 0; s < 3; s++) { /* edge, contig (plan_closed); hash (plan_auto) */
		const enum part_scheme scheme = s == 0 ? PART_EDGE : s == 1 ? PART_CONTIG : PART_HASH;
		for (uint32_t want = 0; want <= 8; want += 8) {
			struct part_opts po = { .scheme = scheme, .prune = PART_PRUNE_AUTO,
						.budget = 2 * whole + 4096, .min_parts = want,
						.seed = 3, .threads = 2 };
			struct part_plan *pl;
			struct tsg_err err = { 0 };
			if (part_plan_new(&c->g, &po, &pl, &err)) {
				CHECK(st, 0, "%s min_parts %u %s: %s", c->name, want,
				      part_scheme_name(scheme), err.msg);
				continue;
			}
			const uint32_t np = part_plan_count(pl);
			const uint64_t edges = c->g.nadj / 2;
			if (want == 0)
				CHECK(st, np == 1 && part_plan_prune(pl) == PART_PRUNE_LOCAL,
				      "%s %s: the whole graph fits: %u parts", c->name,
				      part_scheme_name(scheme), np);
			else
				/* each range closes at 1/8 of the oriented edges (or
				 * the hash scheme makes 8 groups): at least 4 parts
				 * where there are edges to cut, and not many more */
				CHECK(st, part_plan_prune(pl) == PART_PRUNE_CLOSED &&
					  (edges < 64 || np >= 4) && np <= 2 * want + 1,
				      "%s %s min_parts 8: %u parts (%s)", c->name,
				      part_scheme_name(scheme), np, part_prune_name(part_plan_prune(pl)));
			uint64_t sum = 0;
			for (uint32_t i = 0; i < np; i++) {
				struct tsg_dag d;
				struct part_stats ps;
				if (part_build(pl, i, heap, NULL, 0, &d, &ps, &err)) {
					CHECK(st, 0, "%s min_parts part %u: %s", c->name, i, err.msg);
					break;
				}
				uint64_t got = 0;
				if (kern_cpu_count(&d, KERN_CPU_MERGE, 2, NULL, &got, NULL, &err) == 0)
					sum += got;
				CHECK(st, ps.bytes <= po.budget, "%s min_parts part %u: %llu bytes > %llu",
				      c->name, i, (unsigned long long)ps.bytes,
				      (unsigned long long)po.budget);
				free(d.off);
			}
			CHECK(st, sum == c->ref, "%s %s min_parts %u: %llu triangles, expected %llu",
			      c->name, part_scheme_name(scheme), want, (unsigned long long)sum,
			      (unsigned long long)c->ref);
			part_plan_free(pl);
		}
	}
}

static void check_auto(struct t_state *st, struct casegraph *c)
{
	struct engine_opts o = { .device = TSG_DEVICE_CPU, .cpu_kernel = KERN_CPU_MERGE, .threads = 2,
				 .layout = ENGINE_LAYOUT_LSTC };
	struct engine_result r;
	struct tsg_err err = { 0 };
	uint64_t whole = tsg_dag_bytes(c->g.nv, c->g.nadj / 2, c->g.nv);
	/* the smallest budget any plan can meet: the largest one-vertex part */
	uint64_t floor = 0;
	{
		struct part_opts po = { .scheme = PART_CONTIG, .nparts = (uint32_t)c->g.nv, .threads = 2 };
		struct part_plan *pl;
		if (part_plan_new(&c->g, &po, &pl, &err) == 0) {
			for (uint32_t i = 0; i < c->g.nv; i++) {
				struct part_stats ps;
				const int rm = part_measure(pl, i, &ps, &err);
				CHECK(st, rm == 0, "%s: measure part %u: %s", c->name, i, err.msg);
				if (rm)
					break;
				floor = ps.bytes > floor ? ps.bytes : floor;
			}
			part_plan_free(pl);
		}
	}
	for (uint64_t div = 1; div <= 8; div *= 2) {
		for (int s = 0; s < nschemes() * 2; s++) { /* each scheme, pruned local or closed */
			o.part = (struct part_opts){ .scheme = (enum part_scheme)(s / 2),
						     .prune = s % 2 ? PART_PRUNE_CLOSED : PART_PRUNE_LOCAL,
						     .budget = whole / div + 64, .threads = 2 };
			memset(&err, 0, sizeof(err));
			int rc = engine_count(&c->g, &o, &r, &err);
			int feasible = o.part.budget >= floor;
			CHECK(st, (rc == 0 && r.triangles == c->ref) ||
			      (rc == TSG_ENOMEM && (!feasible || s / 2 >= PART_HASH)),
			      "%s auto budget/%llu %s: rc %d %s", c->name, (unsigned long long)div,
			      part_scheme_name((enum part_scheme)(s / 2)), rc, err.msg);
			if (feasible && s / 2 < PART_HASH) /* grouped schemes may not find a fit */
				CHECK(st, rc == 0, "%s: budget %llu >= floor %llu must be met (%s)", c->name,
				      (unsigned long long)o.part.budget, (unsigned long long)floor,
				      part_scheme_name((enum part_scheme)(s / 2)));
			for (uint32_t i = 0; rc == 0 && i < r.nparts; i++)
				CHECK(st, r.parts[i].st.bytes <= o.part.budget, "%s part %u: %llu > %llu",
				      c->name, i, (unsigned long long)r.parts[i].st.bytes,
				      (unsigned long long)o.part.budget);
			engine_result_free(&r);
		}
	}
	if (c->g.max_degree > 4) {
		o.part = (struct part_opts){ .scheme = PART_EDGE, .budget = 16, .threads = 2 };
		memset(&err, 0, sizeof(err));
		int rc = engine_count(&c->g, &o, &r, &err);
		CHECK(st, rc == TSG_ENOMEM && strstr(err.msg, "budget"),
		      "%s: a hopeless budget must fail clearly (rc %d: %s)", c->name, rc, err.msg);
		engine_result_free(&r);
	}
}

static int cmp_u64(const void *x, const void *y)
{
	const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

/* rank[v] computed the slow, obvious way: sort (degree, id) keys */
static uint32_t *ref_ranks(const struct tsg_graph *g)
{
	uint64_t *key = malloc((g->nv + 1) * sizeof(*key));
	uint32_t *rank = malloc((g->nv + 1) * sizeof(*rank));
	for (uint32_t v = 0; v < g->nv; v++)
		key[v] = (g->off[v + 1] - g->off[v]) << 32 | v;
	qsort(key, g->nv, sizeof(*key), cmp_u64);
	for (uint32_t r = 0; r < g->nv; r++)
		rank[(uint32_t)key[r]] = r;
	free(key);
	return rank;
}

static int row_has(const struct part_odag *d, uint32_t r, uint32_t x)
{
	for (uint64_t k = d->off[r]; k < d->off[r + 1]; k++)
		if (d->adj[k] == x)
			return 1;
	return 0;
}

/* Both ways of orienting must give the same rows, each the upward
 * neighbours by rank, increasing. */
static void check_orient(struct t_state *st, struct casegraph *c, const uint32_t *rank,
			 enum part_orient_way way)
{
	struct part_odag d;
	struct tsg_err err = { 0 };
	const struct part_orient_opts oo = { .threads = 2, .way = way, .alloc = heap };
	int rc = part_orient(&c->g, &oo, &d, NULL, &err);
	CHECK(st, rc == 0, "%s: orient: %s", c->name, err.msg);
	if (rc) {
		free(d.off);
		return;
	}
	CHECK(st, d.ne == c->g.nadj / 2 && d.off[d.nv] == d.ne, "%s: %llu oriented edges", c->name,
	      (unsigned long long)d.ne);
	uint64_t bad = 0, missing = 0, mx = 0;
	for (uint32_t r = 0; r < d.nv; r++) {
		for (uint64_t k = d.off[r]; k < d.off[r + 1]; k++)
			bad += d.adj[k] <= r || (k > d.off[r] && d.adj[k] <= d.adj[k - 1]);
		mx = d.off[r + 1] - d.off[r] > mx ? d.off[r + 1] - d.off[r] : mx;
	}
	for (uint32_t v = 0; v < c->g.nv; v++)
		for (uint64_t k = c->g.off[v]; k < c->g.off[v + 1]; k++) {
			const uint32_t a = rank[v], b = rank[c->g.adj[k]];
			missing += a < b && !row_has(&d, a, b);
		}
	CHECK(st, bad == 0 && missing == 0 && mx == d.max_out, "%s: orient: %llu bad, %llu missing, "
	      "max out %llu/%u", c->name, (unsigned long long)bad, (unsigned long long)missing,
	      (unsigned long long)mx, d.max_out);
	free(d.off);
}

/* Runs a block plan with both CPU kernels: each source block must count the
 * triangles whose source ranks lie in it; units must fit `budget` if set. */
/* Each unit's cost against the wedges and records enumerated pair by pair:
 * exact below the sampling size, near it above (the hubs' blocks). */
static void check_costs(struct t_state *st, const struct casegraph *c, const struct part_odag *d,
			const struct block_plan *plan)
{
	uint64_t *cost = malloc((plan->nunits + 1) * sizeof(*cost));
	uint64_t *probes = malloc((plan->nunits + 1) * sizeof(*probes));
	uint64_t *entries = malloc((plan->nunits + 1) * sizeof(*entries));
	uint64_t *cost2 = malloc((plan->nunits + 1) * sizeof(*cost2));
	if (!cost || !probes || !entries || !cost2) {
		CHECK(st, 0, "out of memory");
		goto done;
	}
	block_plan_costs(d, plan, 3, cost, probes);
	block_plan_work(d, plan, 2, cost2, NULL, entries);
	for (uint32_t k = 0; k < plan->nunits; k++) {
		const struct block_unit *u = &plan->units[k];
		const int sampled = u->src_hi - u->src_lo > BLOCK_COST_SAMPLE;
		uint64_t want = 0, want_probes = 0, want_in = 0;
		for (uint32_t a = u->src_lo; a < u->src_hi; a++)
			for (uint64_t i = d->off[a]; i < d->off[a + 1]; i++) {
				const uint32_t b = d->adj[i];
				if (b < u->mid_lo || b >= u->mid_hi)
					continue;
				want++; /* the record of a -> b */
				want_in++;
				for (uint64_t j = d->off[a]; j < d->off[a + 1]; j++)
					want += d->adj[j] > b; /* a wedge a -> b, a -> c, b < c */
				for (uint64_t j = d->off[b]; j < d->off[b + 1]; j++)
					want_probes++; /* N(b) walked against N(a) */
			}
		/* a sampled block's estimate: within a tenth (and a few wedges) here */
		const uint64_t diff = cost[k] > want ? cost[k] - want : want - cost[k];
		CHECK(st, sampled ? diff <= want / 10 + 64 : diff == 0, "%s: unit %u (src %u..%u, mid "
		      "%u..%u) costs %llu, enumerated %llu", c->name, k, u->src_lo, u->src_hi,
		      u->mid_lo, u->mid_hi, (unsigned long long)cost[k], (unsigned long long)want);
		const uint64_t pdiff = probes[k] > want_probes ? probes[k] - want_probes
							       : want_probes - probes[k];
		CHECK(st, sampled ? pdiff <= want_probes / 10 + 64 : pdiff == 0, "%s: unit %u probes "
		      "%llu, enumerated %llu", c->name, k, (unsigned long long)probes[k],
		      (unsigned long long)want_probes);
		/* the edges it counts, from the same sample as its cost */
		const uint64_t ediff = entries[k] > want_in ? entries[k] - want_in
							    : want_in - entries[k];
		CHECK(st, (sampled ? ediff <= want_in / 10 + 64 : ediff == 0) && cost2[k] == cost[k],
		      "%s: unit %u counts %llu edges, enumerated %llu (cost %llu, %llu)", c->name, k,
		      (unsigned long long)entries[k], (unsigned long long)want_in,
		      (unsigned long long)cost2[k], (unsigned long long)cost[k]);
	}
done:
	free(cost);
	free(probes);
	free(entries);
	free(cost2);
}

/* Source blocks cut by work (block_opts.min_units = q): none holds more
 * than 1/q of the whole by more than one row's work (a row's wedges and
 * records, enumerated); one that starts past half of the work, no more
 * than 1/(2q), past three quarters, no more than 1/(4q) (the small units
 * the queue ends on), or with plan->even none more than 1/(2q); and every
 * block's units tile its middle ranks. */
static void check_balance(struct t_state *st, const struct casegraph *c, const struct part_odag *d,
			  const struct block_plan *plan, uint32_t q)
{
	uint64_t total = 0, max_row = 0;
	for (uint32_t a = 0; a < d->nv; a++) {
		uint64_t w = 0;
		for (uint64_t i = d->off[a]; i < d->off[a + 1]; i++)
			w += 1 + (d->off[a + 1] - 1 - i); /* its record, and a wedge per later entry */
		total += w;
		max_row = w > max_row ? w : max_row;
	}
	uint64_t before = 0; /* the work of the blocks below this one */
	for (uint32_t k = 0; k < plan->nunits;) {
		const uint32_t lo = plan->units[k].src_lo, hi = plan->units[k].src_hi;
		uint64_t w = 0;
		for (uint32_t a = lo; a < hi; a++)
			for (uint64_t i = d->off[a]; i < d->off[a + 1]; i++)
				w += 1 + (d->off[a + 1] - 1 - i);
		const uint64_t share = plan->even ? total / (2 * (uint64_t)q)
				       : 4 * before >= 3 * total ? total / (4 * (uint64_t)q)
				       : 2 * before >= total   ? total / (2 * (uint64_t)q)
							       : total / q;
		CHECK(st, w <= share + max_row + 1, "%s: source block %u..%u holds %llu of %llu "
		      "(q %u%s, %llu below it, largest row %llu)", c->name, lo, hi,
		      (unsigned long long)w, (unsigned long long)total, q,
		      plan->even ? ", even" : "", (unsigned long long)before,
		      (unsigned long long)max_row);
		before += w;
		while (k < plan->nunits && plan->units[k].src_lo == lo)
			k++;
	}
}

/* A unit's place in a multiset check: its four bounds mixed. */
static uint64_t unit_mix(const struct block_unit *u)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	const uint32_t f[4] = { u->src_lo, u->src_hi, u->mid_lo, u->mid_hi };
	for (int i = 0; i < 4; i++) {
		h ^= f[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 33;
	}
	return h;
}

/* block_plan_by_low (the order of an oriented file's units where its read
 * runs down but the GPUs took the budget's units): the same units, their
 * lowest rows never rising from one to the next. */
static void check_by_low(struct t_state *st, const struct casegraph *c,
			 const struct block_plan *plan)
{
	struct block_plan p = { .nunits = plan->nunits };
	p.units = malloc((plan->nunits ? plan->nunits : 1) * sizeof(*p.units));
	if (!p.units) {
		CHECK(st, 0, "%s: out of memory", c->name);
		return;
	}
	memcpy(p.units, plan->units, plan->nunits * sizeof(*p.units));
	block_plan_by_low(&p);
	uint64_t sum_a = 0, sum_b = 0, xor_a = 0, xor_b = 0;
	for (uint32_t i = 0; i < p.nunits; i++) {
		sum_a += unit_mix(&plan->units[i]);
		xor_a ^= unit_mix(&plan->units[i]);
		sum_b += unit_mix(&p.units[i]);
		xor_b ^= unit_mix(&p.units[i]);
		if (i)
			CHECK(st, block_unit_low(&p.units[i]) <= block_unit_low(&p.units[i - 1]),
			      "%s: by_low: unit %u's lowest row %u above unit %u's %u", c->name, i,
			      block_unit_low(&p.units[i]), i - 1, block_unit_low(&p.units[i - 1]));
	}
	CHECK(st, sum_a == sum_b && xor_a == xor_b, "%s: by_low changed the plan's units", c->name);
	free(p.units);
}

static void check_block_plan(struct t_state *st, struct casegraph *c, const uint32_t *rank,
			     const struct block_opts *bo, int expect_fit)
{
	struct part_odag d;
	struct block_plan plan;
	struct tsg_err err = { 0 };
	const struct part_orient_opts oo = { .threads = 2, .alloc = heap };
	if (part_orient(&c->g, &oo, &d, NULL, &err)) {
		CHECK(st, 0, "%s: orient: %s", c->name, err.msg);
		free(d.off);
		return;
	}
	uint64_t *by_rank_src = calloc(d.nv + 1, sizeof(*by_rank_src));
	for (uint32_t v = 0; v < c->g.nv; v++)
		by_rank_src[rank[v]] = c->by_src[v];
	int rc = block_plan_new(&d, bo, &plan, &err);
	CHECK(st, rc == 0 || !expect_fit, "%s: block plan Q=%u budget %llu: %s", c->name,
	      bo->nblocks, (unsigned long long)bo->budget, err.msg);
	if (rc) {
		CHECK(st, rc == TSG_ENOMEM && strstr(err.msg, "budget"), "%s: infeasible budget %llu "
		      "must fail clearly: rc %d %s", c->name, (unsigned long long)bo->budget, rc, err.msg);
		goto done;
	}
	/* equal shares only where asked and the whole DAG (its offsets and
	 * entries) fits the budget, which no fixed plan is cut by */
	const int even = bo->resident && bo->min_units > 1 && !bo->nblocks && bo->budget &&
			 8 * ((uint64_t)d.nv + 1) + 4 * d.off[d.nv] <= bo->budget;
	CHECK(st, plan.even == even, "%s: plan even %d, expected %d (budget %llu)", c->name,
	      plan.even, even, (unsigned long long)bo->budget);
	if (bo->min_units && !strncmp(c->name, "er-", 3)) /* work spread evenly */
		CHECK(st, plan.nunits >= bo->min_units, "%s: %u units, at least %u asked", c->name,
		      plan.nunits, bo->min_units);
	check_costs(st, c, &d, &plan);
	check_by_low(st, c, &plan);
	if (bo->min_units > 1)
		check_balance(st, c, &d, &plan, bo->min_units);
	for (int k = 0; k < KERN_CPU_COUNT_; k++) {
		uint64_t total = 0;
		for (uint32_t i = 0; i < plan.nunits;) {
			const struct block_unit *b = &plan.units[i];
			uint64_t expect = 0, got = 0;
			for (uint32_t r = b->src_lo; r < b->src_hi; r++)
				expect += by_rank_src[r];
			uint32_t next_mid = b->src_lo; /* middle ranges tile [src_lo, nv) in order */
			for (; i < plan.nunits && plan.units[i].src_lo == b->src_lo; i++) {
				const struct tsg_unit u = block_unit_of(&d, &plan.units[i]);
				uint64_t n = 0;
				rc = kern_cpu_count_unit(&u, (enum kern_cpu_kind)k, 2, NULL, &n, NULL, &err);
				CHECK(st, rc == 0, "%s: unit %u: %s", c->name, i, err.msg);
				CHECK(st, u.mid_lo == next_mid && u.src_hi == b->src_hi, "%s: unit %u "
				      "middle %u..%u after %u", c->name, i, u.mid_lo, u.mid_hi, next_mid);
				next_mid = u.mid_hi;
				if (bo->budget)
					CHECK(st, block_unit_bytes(&d, &plan.units[i], &bo->scratch) <=
					      bo->budget, "%s: unit %u over budget %llu", c->name, i,
					      (unsigned long long)bo->budget);
				got += n;
			}
			CHECK(st, next_mid == d.nv, "%s: source block %u.. middles end at %u of %u",
			      c->name, b->src_lo, next_mid, d.nv);
			CHECK(st, got == expect, "%s Q=%u budget %llu %s: source block %u..%u: %llu, "
			      "expected %llu", c->name, bo->nblocks, (unsigned long long)bo->budget,
			      kern_cpu_name((enum kern_cpu_kind)k), b->src_lo, b->src_hi,
			      (unsigned long long)got, (unsigned long long)expect);
			total += got;
		}
		CHECK(st, total == c->ref, "%s Q=%u budget %llu %s: %llu, expected %llu", c->name,
		      bo->nblocks, (unsigned long long)bo->budget, kern_cpu_name((enum kern_cpu_kind)k),
		      (unsigned long long)total, (unsigned long long)c->ref);
	}
	block_plan_free(&plan);
done:
	free(by_rank_src);
	free(d.off);
}

static void check_blocks(struct t_state *st, struct casegraph *c, const uint32_t *parts,
			 unsigned nparts);

/* engine_units_by_block: a permutation of the units it is given (every
 * other one left out, from the end, as a resumed checkpoint leaves them),
 * each block's units together and in plan order, the blocks' summed costs
 * in non-increasing classes (a class spans at most 2^0.33). */
static void check_by_block(struct t_state *st, struct casegraph *c, const struct part_odag *d,
			   const struct block_plan *p)
{
	struct engine_result r = { 0 };
	uint32_t *todo = malloc(p->nunits * sizeof(*todo)), n = 0;
	uint8_t *seen = calloc(p->nunits, 1);
	struct tsg_err err = { 0 };
	r.parts = calloc(p->nunits, sizeof(*r.parts));
	if (!todo || !seen || !r.parts) {
		CHECK(st, 0, "%s: out of memory", c->name);
		goto done;
	}
	for (uint32_t k = 0; k < p->nunits; k++) {
		r.parts[k].cost = (uint64_t)(k * 2654435761u % 1000) * (p->units[k].src_lo + 1);
		block_unit_stats(d, &p->units[k], &r.parts[k].st);
	}
	for (uint32_t k = p->nunits; k-- > 0;) /* backwards: any order in */
		if (k % 2 == 0 || k < p->nunits / 2)
			todo[n++] = k;
	CHECK(st, engine_units_by_block(p, &r, todo, n, &err) == TSG_OK, "%s: by block: %s",
	      c->name, err.msg);
	double last = -1;
	for (uint32_t i = 0; i < n; i++) {
		CHECK(st, todo[i] < p->nunits && !seen[todo[i]] && (todo[i] % 2 == 0 ||
		      todo[i] < p->nunits / 2), "%s: by block: unit %u twice or not given", c->name,
		      todo[i]);
		if (todo[i] < p->nunits)
			seen[todo[i]] = 1;
		if (i == 0 || p->units[todo[i]].src_lo != p->units[todo[i - 1]].src_lo) {
			for (uint32_t j = 0; j < i; j++) /* a block comes once */
				CHECK(st, p->units[todo[j]].src_lo != p->units[todo[i]].src_lo,
				      "%s: by block: block %u split", c->name, p->units[todo[i]].src_lo);
			uint64_t sum = 0;
			for (uint32_t j = i; j < n && p->units[todo[j]].src_lo == p->units[todo[i]].src_lo; j++)
				sum += r.parts[todo[j]].cost;
			const double lg = sum ? log2((double)sum) : -1;
			CHECK(st, last < 0 || lg <= last + 0.34, "%s: by block: block %u's cost 2^%.2f "
			      "after 2^%.2f", c->name, p->units[todo[i]].src_lo, lg, last);
			last = lg;
		} else {
			CHECK(st, todo[i] > todo[i - 1], "%s: by block: units %u, %u out of plan order",
			      c->name, todo[i - 1], todo[i]);
		}
	}
done:
	free(todo);
	free(seen);
	free(r.parts);
}

/* block_opts.src_keep: the plan kept copies no more bytes, with its source
 * rows kept, than the plan by halves (block_plan_copies, the device's
 * order); and no plan has a unit below the first rank with a row
 * (isolated vertices come first in the rank order and count nothing). */
static void check_kept_copies(struct t_state *st, struct casegraph *c, const struct block_opts *half)
{
	struct part_odag d;
	struct block_plan a = { 0 }, b = { 0 };
	struct tsg_err err = { 0 };
	const struct part_orient_opts oo = { .threads = 2, .alloc = heap };
	struct block_opts keep = *half;
	keep.src_keep = 2;
	if (part_orient(&c->g, &oo, &d, NULL, &err)) {
		CHECK(st, 0, "%s: orient: %s", c->name, err.msg);
		free(d.off);
		return;
	}
	if (block_plan_new(&d, half, &a, &err) == TSG_OK &&
	    block_plan_new(&d, &keep, &b, &err) == TSG_OK) {
		const uint64_t ca = block_plan_copies(&d, &a, 2), cb = block_plan_copies(&d, &b, 2);
		CHECK(st, cb <= ca, "%s budget %llu: kept plan copies %llu, the halves' %llu",
		      c->name, (unsigned long long)half->budget, (unsigned long long)cb,
		      (unsigned long long)ca);
		CHECK(st, block_plan_copies(&d, &a, 2) <= block_plan_copies(&d, &a, 0),
		      "%s: keeping source rows copies more", c->name);
		uint32_t first = 0;
		while (first < d.nv && d.off[first + 1] == 0)
			first++;
		for (uint32_t i = 0; d.off[d.nv] > 0 && i < b.nunits; i++)
			CHECK(st, b.units[i].src_lo >= first && b.units[i].mid_lo >= first,
			      "%s: unit %u starts below the first row %u", c->name, i, first);
	}
	if (b.nunits > 0)
		check_by_block(st, c, &d, &b);
	block_plan_free(&a);
	block_plan_free(&b);
	free(d.off);
}

/* Hubs above the orientation's exact degree buckets (partition/orient.c
 * ranks degrees of 65535 and more by a sort of their own): three hubs, 0
 * and 1 of equal degree (the id breaks the tie), 2 of a lower one, over
 * overlapping sets of leaves that form a path, so triangles run through
 * hubs and leaves alike and each hub's rank shows in the leaves' rows. */
static void check_hubs(struct t_state *st)
{
	enum { LEAVES = 70000 };
	struct casegraph c = { .name = "hubs" };
	uint64_t *e = malloc((4 * LEAVES + 16) * sizeof(*e));
	size_t n = 0;
	if (!e) {
		CHECK(st, 0, "hubs: out of memory");
		return;
	}
	for (uint64_t l = 3; l < 3 + LEAVES; l++) {
		e[n++] = 0ull << 32 | l;
		if (l % 1000)
			e[n++] = 2ull << 32 | l; /* a lower degree than 0 and 1 */
		e[n++] = 1ull << 32 | (l + 100);
		if (l + 1 < 3 + LEAVES)
			e[n++] = l << 32 | (l + 1);
	}
	e[n++] = 0ull << 32 | 1;
	e[n++] = 1ull << 32 | 2;
	e[n++] = 0ull << 32 | 2;
	if (t_graph_from_edges(t_path("hubs"), e, n, 0, &c.g) != 0) {
		CHECK(st, 0, "cannot build hubs");
		free(e);
		return;
	}
	free(e);
	CHECK(st, c.g.max_degree >= 65535, "hubs: max degree %llu", (unsigned long long)c.g.max_degree);
	c.ref = t_ref_count(&c.g);
	c.by_src = t_ref_by_source(&c.g);
	const uint32_t parts[] = { 1, 3 };
	check_blocks(st, &c, parts, 2);
	free(c.by_src);
	io_graph_free(&c.g);
}

/* Plans for ranks reading by ranges (block_opts.list_cum): exact like any
 * plan, and no block (fixed plans), source block or middle range
 * (automatic plans) holds more than its share of the file's lists plus
 * one list. */
static void check_list_shares(struct t_state *st, struct casegraph *c, const uint32_t *rank)
{
	const uint32_t nv = (uint32_t)c->g.nv;
	uint64_t *cum = calloc((size_t)nv + 1, sizeof(*cum)), longest = 0;
	for (uint32_t v = 0; v < nv; v++) {
		const uint64_t n = c->g.off[v + 1] - c->g.off[v];
		cum[rank[v] + 1] = n;
		longest = n > longest ? n : longest;
	}
	for (uint32_t r = 0; r < nv; r++)
		cum[r + 1] += cum[r];
	const uint64_t whole = 8 * ((uint64_t)nv + 1) + 2 * c->g.nadj + 64;
	const uint64_t least = 4 * (4 * longest + 32); /* four times the longest row's unit */
	const uint64_t quarter = whole / 4 > least ? whole / 4 : least;
	const struct block_opts opts[] = {
		{ .nblocks = 3, .list_cum = cum },
		{ .nblocks = 8, .list_cum = cum },
		{ .budget = whole, .list_cum = cum, .list_shares = 6 },
		{ .budget = quarter, .list_cum = cum, .list_shares = 4, .min_units = 4, .threads = 2 },
	};
	struct part_odag d;
	struct tsg_err err = { 0 };
	const struct part_orient_opts oo = { .threads = 2, .alloc = heap };
	if (part_orient(&c->g, &oo, &d, NULL, &err)) {
		CHECK(st, 0, "%s: orient: %s", c->name, err.msg);
		free(d.off);
		free(cum);
		return;
	}
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		const struct block_opts *bo = &opts[k];
		check_block_plan(st, c, rank, bo, 1);
		struct block_plan plan;
		if (block_plan_new(&d, bo, &plan, &err)) {
			CHECK(st, 0, "%s: list shares plan %zu: %s", c->name, k, err.msg);
			continue;
		}
		const uint32_t q = bo->nblocks ? bo->nblocks : bo->list_shares;
		const uint64_t cap = cum[nv] / q + longest;
		for (uint32_t i = 0; i < plan.nunits; i++) {
			const struct block_unit *u = &plan.units[i];
			CHECK(st, cum[u->src_hi] - cum[u->src_lo] <= cap, "%s: plan %zu unit %u: source "
			      "block %u..%u holds %llu list entries, share %llu", c->name, k, i,
			      u->src_lo, u->src_hi, (unsigned long long)(cum[u->src_hi] - cum[u->src_lo]),
			      (unsigned long long)cap);
			/* a nested unit's middle range starts at its source block */
			const uint32_t m_lo = u->mid_lo == u->src_lo ? u->src_hi : u->mid_lo;
			CHECK(st, u->mid_hi <= m_lo || cum[u->mid_hi] - cum[m_lo] <= cap,
			      "%s: plan %zu unit %u: middle %u..%u holds %llu list entries, share %llu",
			      c->name, k, i, u->mid_lo, u->mid_hi,
			      (unsigned long long)(cum[u->mid_hi] - cum[m_lo]), (unsigned long long)cap);
		}
		block_plan_free(&plan);
	}
	free(d.off);
	free(cum);
}

static void check_blocks(struct t_state *st, struct casegraph *c, const uint32_t *parts,
			 unsigned nparts)
{
	uint32_t *rank = ref_ranks(&c->g);
	check_orient(st, c, rank, PART_ORIENT_TWO_PASS);
	check_orient(st, c, rank, PART_ORIENT_ONE_PASS);
	for (unsigned p = 0; p < nparts; p++) {
		const struct block_opts bo = { .nblocks = parts[p] ? parts[p] : (uint32_t)c->g.nv + 5 };
		check_block_plan(st, c, rank, &bo, 1);
	}
	check_list_shares(st, c, rank);
	/* automatic: the largest single row (with its offsets and the kernel's
	 * scratch) is the floor of what can fit; above fixed scratch plus four
	 * times that every budget must work. Two scratch shapes: per source
	 * (lstc-hash) and per middle row and entry (mid-hash). */
	const struct tsg_scratch shapes[2] = { { .per_src = 8 },
					       { .per_mid = 8, .per_edge = 8, .fixed = 64 } };
	for (int k = 0; k < 2; k++) {
		const struct tsg_scratch *sc = &shapes[k];
		uint64_t row = 0;
		for (uint32_t v = 0; v < c->g.nv; v++) {
			const uint64_t d = c->g.off[v + 1] - c->g.off[v];
			const uint64_t b = (4 + sc->per_edge) * d + 16 + sc->per_src + sc->per_mid + 8;
			row = b > row ? b : row;
		}
		const uint64_t whole = 8 * (c->g.nv + 1) + 2 * c->g.nadj +
				       tsg_scratch_bytes(sc, c->g.nv, c->g.nv, c->g.nadj / 2);
		for (uint64_t div = 1; div <= 64; div *= 2) {
			const struct block_opts bo = { .budget = whole / div + 64, .scratch = *sc };
			check_block_plan(st, c, rank, &bo, bo.budget >= sc->fixed + 4 * row);
			/* source rows kept in two slots: larger source blocks where
			 * they copy less (exact and within the budget all the same) */
			const struct block_opts keep = { .budget = bo.budget, .scratch = *sc,
							 .src_keep = 2 };
			check_block_plan(st, c, rank, &keep, bo.budget >= sc->fixed + 4 * row);
			check_kept_copies(st, c, &bo);
		}
		/* units spread over devices: blocks of equal work where one unit
		 * would do, and within smaller budgets too */
		for (uint64_t div = 1; div <= 4; div *= 4)
			for (int res = 0; res < 2; res++) {
				const struct block_opts bo = { .budget = whole / div + 64,
							       .scratch = *sc, .min_units = 8,
							       .resident = res, .threads = 3 };
				check_block_plan(st, c, rank, &bo, bo.budget >= sc->fixed + 4 * row);
			}
		if (c->g.nadj > 0) {
			const struct block_opts bo = { .budget = 16 + sc->fixed, .scratch = *sc };
			check_block_plan(st, c, rank, &bo, 0);
		}
		if (sc->fixed && c->g.nv > 0) { /* nothing fits below the fixed part */
			const struct block_opts bo = { .budget = sc->fixed, .scratch = *sc };
			check_block_plan(st, c, rank, &bo, 0);
		}
	}
	free(rank);
}

/* Counts c's file as the command does: opened, then read by the engine,
 * whose orientation works on the lists as they arrive. */
static void check_streamed(struct t_state *st, struct casegraph *c)
{
	char plain[4096], lz4[4096 + 8];
	struct io_copy_stats cs;
	struct tsg_err err = { 0 };
	snprintf(plain, sizeof(plain), "%s", t_path(c->name));
	snprintf(lz4, sizeof(lz4), "%s.lz4", plain);
	CHECK(st, io_graph_copy(plain, lz4, 1, 2, &cs, &err) == 0, "%s: compress: %s", c->name,
	      err.msg);
	const char *files[2] = { plain, lz4 };
	const enum io_mode modes[3] = { IO_MODE_PREAD, IO_MODE_MMAP, IO_MODE_URING };
	for (int f = 0; f < 2; f++)
		for (int m = 0; m < 3; m++)
			for (unsigned t = 1; t <= 3; t += 2)
				for (int way = PART_ORIENT_TWO_PASS; way <= PART_ORIENT_ONE_PASS; way++) {
					const struct io_load_opts lo = { .io = modes[m], .threads = t };
					struct engine_opts o = {
						.device = TSG_DEVICE_CPU, .cpu_kernel = KERN_CPU_MERGE,
						.threads = t, .layout = ENGINE_LAYOUT_BLOCK,
						.orient = (enum part_orient_way)way,
						.part = { .nparts = 1 + (uint32_t)m } };
					struct engine_result r = { 0 };
					struct tsg_graph g;
					memset(&err, 0, sizeof(err));
					int rc = io_graph_open(files[f], &lo, &g, &err);
					if (rc == 0)
						rc = engine_count(&g, &o, &r, &err);
					CHECK(st, rc == 0 && r.triangles == c->ref && r.lists_streamed &&
					      !g.lists_pending, "%s %s io %s, %u threads, way %d: rc %d "
					      "(%s), %llu triangles, want %llu", c->name,
					      f ? "lz4" : "plain", io_mode_name(modes[m]), t, way, rc,
					      err.msg, (unsigned long long)r.triangles,
					      (unsigned long long)c->ref);
					engine_result_free(&r);
					if (rc == 0)
						io_graph_free(&g);
				}
	/* other layouts read the lists first, then count */
	const struct io_load_opts lo = { .io = IO_MODE_PREAD, .threads = 2 };
	struct engine_opts o = { .device = TSG_DEVICE_CPU, .cpu_kernel = KERN_CPU_MERGE,
				 .threads = 2, .layout = ENGINE_LAYOUT_LSTC,
				 .part = { .nparts = 2, .threads = 2 } };
	struct engine_result r = { 0 };
	struct tsg_graph g;
	int rc = io_graph_open(lz4, &lo, &g, &err);
	if (rc == 0)
		rc = engine_count(&g, &o, &r, &err);
	CHECK(st, rc == 0 && r.triangles == c->ref && !r.lists_streamed, "%s lstc after open: rc "
	      "%d (%s)", c->name, rc, err.msg);
	engine_result_free(&r);
	if (rc == 0)
		io_graph_free(&g);
}

/* --host-mem's arrival layout: the plan's need_arrival, from the header
 * alone, bounds what the engine checks with the true batches
 * (hostmem_arrival_bytes on part_arrival_plan_new's plan), so a budget of
 * need_arrival never turns the arrival the plan chose into a spill. */
static void check_arrival_need(struct t_state *st, struct casegraph *c)
{
	struct io_header h;
	struct tsg_err err = { 0 };
	if (io_graph_peek(t_path(c->name), &h, &err)) {
		CHECK(st, 0, "%s: cannot read its header: %s", c->name, err.msg);
		return;
	}
	const uint32_t batches[] = { 0, 1, 3, 64 };
	const unsigned threads[] = { 1, 4 };
	for (unsigned b = 0; b < sizeof(batches) / sizeof(batches[0]); b++)
		for (unsigned t = 0; t < 2; t++)
			for (int pv = 0; pv <= 1; pv++) {
				struct hostmem_plan hp;
				struct part_arrival_plan ap = { 0 };
				const struct hostmem_ask ask = { .io = IO_MODE_MMAP,
					.threads = threads[t], .gpu = 1, .batches = batches[b], .pv = pv,
					.one_pass = 1 };
				if (hostmem_plan(&h, &ask, UINT64_MAX / 4, &hp, &err) ||
				    part_arrival_plan_new(&c->g, batches[b], &ap, &err)) {
					CHECK(st, 0, "%s K=%u: %s", c->name, batches[b], err.msg);
					part_arrival_plan_free(&ap);
					return;
				}
				const uint64_t exact = hostmem_arrival_bytes(
					ap.nv, ap.max_entries, ap.max_vertices, threads[t], 1, pv);
				CHECK(st, hp.need_arrival > 0 && exact <= hp.need_arrival,
				      "%s K=%u, %u threads, pv %d: need_arrival %llu below the "
				      "plan's %llu", c->name, batches[b], threads[t], pv,
				      (unsigned long long)hp.need_arrival, (unsigned long long)exact);
				part_arrival_plan_free(&ap);
			}
	/* no GPU, or an LZ4 file: not offered */
	struct hostmem_plan hp;
	const struct hostmem_ask cpu = { .io = IO_MODE_MMAP, .threads = 2, .cpu = 1,
					 .one_pass = 1 };
	CHECK(st, hostmem_plan(&h, &cpu, UINT64_MAX / 4, &hp, &err) == 0 &&
		  hp.need_arrival == 0, "%s: need_arrival without a GPU", c->name);
}

/* The arrival layout: every batch count, threads, lists in memory or read
 * as they arrive (plain and LZ4); the batches' counts must sum to the total. */
static void check_arrival(struct t_state *st, struct casegraph *c)
{
	char plain[4096], lz4[4096 + 8];
	snprintf(plain, sizeof(plain), "%s", t_path(c->name));
	snprintf(lz4, sizeof(lz4), "%s.lz4", plain); /* made by check_streamed */
	const uint32_t batches[] = { 1, 2, 3, 7, 16, (uint32_t)c->g.nv + 5, 0 };
	for (unsigned b = 0; b < sizeof(batches) / sizeof(batches[0]); b++)
		for (unsigned t = 1; t <= 3; t += 2)
			for (int src = 0; src < 3; src++) {
				const struct io_load_opts lo = { .io = src == 1 ? IO_MODE_URING : IO_MODE_PREAD,
								 .threads = t };
				struct engine_opts o = { .device = TSG_DEVICE_CPU, .threads = t,
							 .layout = ENGINE_LAYOUT_ARRIVAL,
							 .batches = batches[b] };
				struct engine_result r = { 0 };
				struct tsg_err err = { 0 };
				struct tsg_graph g, *gp = &c->g;
				int rc = 0;
				if (src > 0) {
					rc = io_graph_open(src == 1 ? plain : lz4, &lo, &g, &err);
					gp = &g;
				}
				if (rc == 0)
					rc = engine_count(gp, &o, &r, &err);
				uint64_t sum = 0;
				for (uint32_t k = 0; k < r.nparts; k++)
					sum += r.parts[k].triangles;
				CHECK(st, rc == 0 && r.triangles == c->ref && sum == c->ref &&
				      r.layout == ENGINE_LAYOUT_ARRIVAL && r.lists_streamed == (src > 0) &&
				      (batches[b] == 0 || r.nparts == batches[b]),
				      "%s arrival K=%u, %u threads, %s: rc %d (%s), %llu triangles "
				      "(batches sum to %llu), want %llu", c->name, batches[b], t,
				      src == 0 ? "in memory" : src == 1 ? "plain" : "lz4", rc, err.msg,
				      (unsigned long long)r.triangles, (unsigned long long)sum,
				      (unsigned long long)c->ref);
				engine_result_free(&r);
				if (src > 0 && rc == 0)
					io_graph_free(&g);
			}
}

/* Lists only (the GPU's way): each batch handed once, in order, with no
 * rows, once its lists are in place and equal to the reference's, and the
 * batch of every rank set before the first. */
struct lists_sink {
	const struct tsg_graph *ref, *g;
	const uint32_t *rank;
	uint32_t next, bad;
};

static int ls_begin(void *ctx, const struct part_arrival_plan *p, const uint32_t *rank,
		    const uint32_t *batch_of, uint64_t nzero, struct tsg_err *err)
{
	(void)err;
	struct lists_sink *s = ctx;
	s->rank = rank;
	for (uint32_t k = 0; k < p->nbatches; k++)
		for (uint64_t v = p->bound[k]; v < p->bound[k + 1]; v++)
			s->bad += batch_of[rank[v]] != k;
	/* the ranks below nzero are exactly the ids of degree 0 (the GPU's
	 * groups keep rank -> id for the others only) */
	for (uint64_t v = 0; v < s->ref->nv; v++)
		s->bad += (s->ref->off[v + 1] == s->ref->off[v]) != (rank[v] < nzero);
	return TSG_OK;
}

static int ls_batch(void *ctx, const struct tsg_batch *b, struct tsg_err *err)
{
	(void)err;
	struct lists_sink *s = ctx;
	const uint64_t *o = s->ref->off;
	s->bad += b->k != s->next++ || b->row || b->in || b->row_len || b->rank != s->rank;
	s->bad += memcmp(s->g->off + b->v_lo, o + b->v_lo, (b->v_hi - b->v_lo + 1) * 8) != 0;
	s->bad += memcmp(s->g->adj + o[b->v_lo], s->ref->adj + o[b->v_lo],
			 (o[b->v_hi] - o[b->v_lo]) * 4) != 0;
	return TSG_OK;
}

static int feed_read(void *ctx, io_rows_fn fn, void *arg, struct tsg_err *err)
{
	return io_graph_read_lists(ctx, fn, arg, err);
}

static void check_arrival_lists(struct t_state *st, struct casegraph *c)
{
	char lz4[4096 + 8];
	snprintf(lz4, sizeof(lz4), "%s.lz4", t_path(c->name)); /* made by check_streamed */
	const uint32_t batches[] = { 1, 3, 16, (uint32_t)c->g.nv + 5 };
	/* src: 0 in memory, 1 plain, 2 LZ4, 3 plain read on a thread of its
	 * own begun first, the pass following it (lists_bg_feed: the GPU's
	 * early read, src/pipeline_gpu.c) */
	for (unsigned b = 0; b < sizeof(batches) / sizeof(batches[0]); b++)
		for (unsigned t = 1; t <= 3; t += 2)
			for (int src = 0; src < 4; src++) {
				const struct io_load_opts lo = { .io = src == 1 ? IO_MODE_URING :
								       IO_MODE_PREAD, .threads = t };
				struct lists_bg bg = { 0 };
				struct part_arrival_plan p = { 0 };
				struct tsg_err err = { 0 };
				struct tsg_graph g, *gp = &c->g;
				struct lists_sink s = { .ref = &c->g };
				struct part_arrival_opts ao = { .threads = t, .lists_only = 1 };
				const struct part_arrival_sink sink = { .begin = ls_begin,
									.batch = ls_batch, .ctx = &s };
				int rc = 0, opened = 0;
				if (src > 0) {
					rc = io_graph_open(src == 2 ? lz4 : t_path(c->name), &lo, &g, &err);
					opened = rc == 0;
					gp = &g;
					ao.feed = feed_read;
					ao.feed_ctx = &g;
				}
				if (src == 3 && rc == 0 && (rc = lists_bg_begin(&bg, &g, 0, &err)) == 0) {
					ao.feed = lists_bg_feed;
					ao.feed_ctx = &bg;
				}
				s.g = gp;
				if (rc == 0)
					rc = part_arrival_plan_new(gp, batches[b], &p, &err);
				if (rc == 0)
					rc = part_arrival(gp, &p, &ao, &sink, NULL, &err);
				if (bg.started) {
					struct tsg_err berr = { 0 };
					const int brc = lists_bg_end(&bg, &berr);
					if (rc == 0 && brc)
						err = berr;
					rc = rc ? rc : brc;
				}
				CHECK(st, rc == 0 && s.next == p.nbatches && s.bad == 0 &&
					      (src == 0 || !g.lists_pending),
				      "%s arrival lists only, K=%u, %u threads, %s: rc %d (%s), %u of %u "
				      "batches, %u wrong", c->name, batches[b], t,
				      (const char *[]){ "in memory", "plain", "lz4", "plain read early" }[src],
				      rc, err.msg, s.next, p.nbatches, s.bad);
				part_arrival_plan_free(&p);
				if (opened)
					io_graph_free(&g);
			}
}

/* rows for a read stopped partway: the first checked range asks it to stop */
static void halt_on_rows(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)b, (void)e, (void)tid;
	atomic_store((atomic_int *)ctx, 1);
}

/* a sink whose first batch fails, as a GPU's could */
static int fail_batch(void *ctx, const struct tsg_batch *b, struct tsg_err *err)
{
	(void)ctx, (void)b;
	return tsg_fail(err, TSG_EDEVICE, "the first batch failed (a test's sink)");
}

static void stop_bg(void *ctx)
{
	lists_bg_stop(ctx);
}

/* Reads g's lists again after a stop (still pending) and compares them
 * with ref's. */
static void check_read_again(struct t_state *st, struct tsg_graph *g, const struct tsg_graph *ref,
			     const char *what)
{
	struct tsg_err err = { 0 };
	const int rc = io_graph_read_lists(g, NULL, NULL, &err);
	CHECK(st, rc == 0 && g->nadj == ref->nadj && memcmp(g->adj, ref->adj, ref->nadj * 4) == 0,
	      "read again after %s: rc %d (%s)", what, rc, err.msg);
}

/*
 * A read stopped (io_graph_read_lists_until's halt, lists_bg_stop): it
 * ends with TSG_EINTERRUPTED, the lists still pending, and a read after
 * it brings every list in exactly; asked to stop before it begins, it
 * reads nothing; asked by the first checked range, partway (the readers'
 * own stops are test_format's). Through lists_bg the stop may come after
 * the read ended: then its own verdict, and no stop said.
 */
static void check_read_stop(struct t_state *st)
{
	enum { M = 4000000 };
	uint64_t *e = malloc(M * sizeof(*e));
	const char *path = t_path("stop.tsg");
	struct tsg_graph ref = { 0 };
	if (!e || t_graph_from_edges(path, e, gen_rmat(e, 20, M, 11), 0, &ref) != 0) {
		CHECK(st, 0, "cannot build the read-stop graph");
		free(e);
		return;
	}
	free(e);
	/* past a reader's first step (8 MiB buffered, 16 MiB io_uring, 8 MiB
	 * walked), so that a stop through lists_bg may land inside */
	CHECK(st, ref.nadj * 4 > (24ull << 20), "read-stop graph: %llu list bytes",
	      (unsigned long long)(ref.nadj * 4));
	const enum io_mode modes[] = { IO_MODE_PREAD, IO_MODE_URING, IO_MODE_MMAP };
	for (unsigned m = 0; m < 3; m++)
		for (int via_bg = 0; via_bg < 2; via_bg++) {
			const struct io_load_opts lo = { .io = modes[m], .threads = 2 };
			struct tsg_graph g;
			struct tsg_err err = { 0 };
			int rc = io_graph_open(path, &lo, &g, &err), stopped = 1;
			if (rc) {
				CHECK(st, 0, "open %s: %s", io_mode_name(modes[m]), err.msg);
				continue;
			}
			if (via_bg) {
				struct lists_bg bg;
				rc = lists_bg_begin(&bg, &g, 0, &err);
				lists_bg_stop(&bg);
				if (rc == 0)
					rc = lists_bg_end(&bg, &err);
				stopped = bg.stopped;
				CHECK(st, stopped ? rc == TSG_EINTERRUPTED && g.lists_pending
						  : rc == 0 && !g.lists_pending,
				      "lists_bg stopped under %s: rc %d, stopped %d, pending %d (%s)",
				      io_mode_name(modes[m]), rc, stopped, g.lists_pending, err.msg);
			} else {
				atomic_int halt;
				atomic_init(&halt, 1);
				rc = io_graph_read_lists_until(&g, NULL, NULL, 0, &halt, &err);
				CHECK(st, rc == TSG_EINTERRUPTED && g.lists_pending &&
					      strstr(err.msg, "stopped"),
				      "a read asked to stop before it began, %s: rc %d, pending %d '%s'",
				      io_mode_name(modes[m]), rc, g.lists_pending, err.msg);
			}
			if (stopped) /* read again, whole */
				check_read_again(st, &g, &ref, io_mode_name(modes[m]));
			io_graph_free(&g);
		}
	/* stopped partway, its threads working and part of the lists in (the
	 * first checked range asks; io_uring may have it all in by then, its
	 * verdict then stands), then read again; and the arrival pass over an
	 * early read whose first batch fails: the batch's error is returned,
	 * the read stopped (or ended), the lists still whole when read again */
	enum { STOP_TRIES = 16 };
	int partway = 0;
	for (unsigned m = 0; m < 3; m++)
		for (int pass = 0; pass < 2; pass++) {
			const struct io_load_opts lo = { .io = modes[m], .threads = 2 };
			struct tsg_graph g;
			struct tsg_err err = { 0 };
			int rc = io_graph_open(path, &lo, &g, &err);
			if (rc) {
				CHECK(st, 0, "open %s: %s", io_mode_name(modes[m]), err.msg);
				continue;
			}
			if (pass == 0) {
				/* whether the stop lands before the read's end is a
				 * race (the reader does not wait for the checks), lost
				 * on a loaded machine: a read that ended is checked
				 * whole and tried again, a few times, on a fresh open */
				for (int tries = 0; tries < STOP_TRIES; tries++) {
					atomic_int halt;
					atomic_init(&halt, 0);
					rc = io_graph_read_lists_until(&g, halt_on_rows, &halt, 0,
								       &halt, &err);
					CHECK(st, rc == TSG_EINTERRUPTED ? g.lists_pending != 0
							: rc == 0 && !g.lists_pending &&
								  memcmp(g.adj, ref.adj,
									 ref.nadj * 4) == 0,
					      "a read stopped partway under %s: rc %d, pending %d (%s)",
					      io_mode_name(modes[m]), rc, g.lists_pending, err.msg);
					if (rc == TSG_EINTERRUPTED) {
						partway++;
						check_read_again(st, &g, &ref, "a stop partway");
						break;
					}
					io_graph_free(&g); /* zeroed: the free below is a no-op */
					if (tries + 1 < STOP_TRIES &&
					    (rc = io_graph_open(path, &lo, &g, &err)) != 0) {
						CHECK(st, 0, "open %s again: %s",
						      io_mode_name(modes[m]), err.msg);
						break;
					}
				}
			} else {
				struct lists_bg bg;
				struct part_arrival_plan p = { 0 };
				struct lists_sink ls = { .ref = &ref, .g = &g };
				const struct part_arrival_sink sink = { .begin = ls_begin,
									.batch = fail_batch, .ctx = &ls };
				struct part_arrival_opts ao = { .threads = 2, .lists_only = 1,
								.feed = lists_bg_feed,
								.feed_stop = stop_bg, .feed_ctx = &bg };
				rc = part_arrival_plan_new(&g, 16, &p, &err);
				if (rc == 0 && (rc = lists_bg_begin(&bg, &g, 0, &err)) == 0) {
					rc = part_arrival(&g, &p, &ao, &sink, NULL, &err);
					struct tsg_err berr = { 0 };
					const int brc = lists_bg_end(&bg, &berr);
					CHECK(st, rc == TSG_EDEVICE && strstr(err.msg, "first batch failed") &&
						      (bg.stopped ? brc == TSG_EINTERRUPTED && g.lists_pending
								  : brc == 0 && !g.lists_pending),
					      "arrival over an early read, its first batch failed, %s: rc %d "
					      "'%s', read rc %d, stopped %d", io_mode_name(modes[m]), rc,
					      err.msg, brc, bg.stopped);
					if (bg.stopped)
						check_read_again(st, &g, &ref, "a failed batch's stop");
				} else {
					CHECK(st, 0, "arrival over an early read, %s: rc %d (%s)",
					      io_mode_name(modes[m]), rc, err.msg);
				}
				part_arrival_plan_free(&p);
			}
			io_graph_free(&g);
		}
	/* buffered reads and the walk of a mapping stop at their next step */
	CHECK(st, partway >= 1, "no read was stopped partway (%d of 3)", partway);
	io_graph_free(&ref);
}

/* engine_arrival_all_gpus: every GPU of --gpus for the arrival layout
 * only where the oriented rows reach ENGINE_ALL_GPUS_ROWS, the file is
 * cached as --io auto's buffered reads want it, and nothing else rules it
 * out (k-cliques, a named layout, one GPU, ranks, --plan-only, a spill,
 * --host-mem's arrival over the map). */
static void check_arrival_all_gpus(struct t_state *st)
{
	static const int list[2] = { 0, 1 };
	const uint64_t big = ENGINE_ALL_GPUS_ROWS / 4, small = big - 1;
	const struct engine_opts base = { .gpus = list, .ngpus = 2, .layout = ENGINE_LAYOUT_AUTO,
					  .k = 3 };
	struct engine_opts o = base;
	CHECK(st, engine_arrival_all_gpus(&o, big, 1.0), "all GPUs: large, cached");
	CHECK(st, engine_arrival_all_gpus(&o, big, io_cached_enough()), "all GPUs at the line");
	CHECK(st, !engine_arrival_all_gpus(&o, small, 1.0), "one GPU: small");
	CHECK(st, !engine_arrival_all_gpus(&o, big, io_cached_enough() - 0.01), "one GPU: cold");
	CHECK(st, !engine_arrival_all_gpus(&o, big, -1), "one GPU: not known");
	o.k = 4;
	CHECK(st, !engine_arrival_all_gpus(&o, big, 1.0), "k-cliques");
	o = base;
	o.layout = ENGINE_LAYOUT_ARRIVAL;
	CHECK(st, !engine_arrival_all_gpus(&o, big, 1.0), "a named layout");
	o = base;
	o.ngpus = 1;
	CHECK(st, !engine_arrival_all_gpus(&o, big, 1.0), "one GPU listed");
	o = base;
	o.nranks = 2;
	CHECK(st, !engine_arrival_all_gpus(&o, big, 1.0), "ranks");
	o = base;
	o.plan_only = 1;
	CHECK(st, !engine_arrival_all_gpus(&o, big, 1.0), "--plan-only");
	o = base;
	o.scratch_dir = "/tmp";
	CHECK(st, !engine_arrival_all_gpus(&o, big, 1.0), "a spill");
	o = base;
	o.arrival_mapped = 1; /* its budget counts one GPU's batches */
	CHECK(st, !engine_arrival_all_gpus(&o, big, 1.0), "--host-mem's arrival over the map");
}

/* engine_arrival_likely: the arrival layout on a GPU, told from the
 * options and the header alone (where a plain file's read begins before
 * the GPUs open, and --io auto maps a cached one): named, or auto's; not
 * the CPU, another layout, k-cliques, --plan-only, ranks, checkpoints,
 * --read ranges, a --tile the kernel refuses, too many batches, a spill;
 * auto at --gpu-mem below twice the rows under auto's groups takes the
 * block layout. A build without the CUDA backend: never. */
static void check_arrival_likely(struct t_state *st)
{
	const uint64_t e = 1000000, rows = 4 * e; /* 4 bytes an oriented edge */
	const struct engine_opts base = { .layout = ENGINE_LAYOUT_AUTO, .k = 3,
					  .device = TSG_DEVICE_AUTO };
	struct engine_opts o = base;
#ifndef TSG_TEST_CUDA
	(void)rows;
	CHECK(st, !engine_arrival_likely(&o, e), "no CUDA backend: never");
	o.layout = ENGINE_LAYOUT_ARRIVAL;
	CHECK(st, !engine_arrival_likely(&o, e), "no CUDA backend: never, named");
#else
	CHECK(st, engine_arrival_likely(&o, e), "auto");
	o.device = TSG_DEVICE_GPU;
	CHECK(st, engine_arrival_likely(&o, e), "--device gpu");
	o.device = TSG_DEVICE_CPU;
	CHECK(st, !engine_arrival_likely(&o, e), "--device cpu");
	o = base;
	o.layout = ENGINE_LAYOUT_ARRIVAL;
	CHECK(st, engine_arrival_likely(&o, e), "--layout arrival");
	o.gpu_mem = rows; /* named: in groups */
	CHECK(st, engine_arrival_likely(&o, e), "--layout arrival at --gpu-mem below the rows");
	o.layout = ENGINE_LAYOUT_BLOCK;
	CHECK(st, !engine_arrival_likely(&o, e), "--layout block");
	o = base;
	o.k = 4;
	CHECK(st, !engine_arrival_likely(&o, e), "k-cliques");
	o = base;
	o.plan_only = 1;
	CHECK(st, !engine_arrival_likely(&o, e), "--plan-only");
	o = base;
	o.nranks = 2;
	CHECK(st, !engine_arrival_likely(&o, e), "ranks");
	o = base;
	o.read_ranges = 1;
	CHECK(st, !engine_arrival_likely(&o, e), "--read ranges");
	o = base;
	o.ckpt = (struct ckpt *)&o; /* only its presence is asked */
	CHECK(st, !engine_arrival_likely(&o, e), "a checkpoint");
	o = base;
	o.gpu_kernel = GPU_KERNEL_AUTO;
	o.tile = 32; /* mid-hash (auto's kernel) refuses below 64 */
	CHECK(st, !engine_arrival_likely(&o, e), "--tile 32");
	o.tile = 64;
	CHECK(st, engine_arrival_likely(&o, e), "--tile 64");
	o = base;
	o.batches = PART_ARRIVAL_MAX_BATCHES;
	CHECK(st, engine_arrival_likely(&o, e), "the most batches");
	o.batches = PART_ARRIVAL_MAX_BATCHES + 1;
	CHECK(st, !engine_arrival_likely(&o, e), "more batches than the layout takes");
	o = base;
	o.scratch_dir = "/tmp";
	CHECK(st, !engine_arrival_likely(&o, e), "a spill");
	o.arrival_mapped = 1;
	CHECK(st, engine_arrival_likely(&o, e), "--host-mem's arrival over the map");
	/* auto and --gpu-mem: the block layout below twice the rows, unless
	 * they reach auto's groups */
	o = base;
	o.gpu_mem = 2 * rows;
	CHECK(st, !engine_arrival_likely(&o, e), "auto, --gpu-mem twice the rows");
	o.gpu_mem = 2 * rows + 2;
	CHECK(st, engine_arrival_likely(&o, e), "auto, --gpu-mem past twice the rows");
	o.gpu_mem = 1ull << 20;
	CHECK(st, engine_arrival_likely(&o, ENGINE_AUTO_GROUPS_ROWS / 4), "auto's groups");
	CHECK(st, !engine_arrival_likely(&o, ENGINE_AUTO_GROUPS_ROWS / 4 - 1), "under auto's groups");
#endif
}

/* engine_rows_past_gpu: every GPU started early only where the oriented
 * rows (4 bytes an edge) pass --gpu-mem, else the first GPU's memory, and
 * auto would count on every GPU (triangles, no layout named, one rank). */
static void check_rows_past_gpu(struct t_state *st)
{
	static const int list[2] = { 0, 1 };
	const uint64_t gib = 1ull << 30;
	const struct engine_opts base = { .gpus = list, .ngpus = 2, .layout = ENGINE_LAYOUT_AUTO,
					  .k = 3 };
	struct engine_opts o = base;
	CHECK(st, engine_rows_past_gpu(&o, gib / 4 + 1, gib), "past the GPU's memory");
	CHECK(st, !engine_rows_past_gpu(&o, gib / 4, gib), "at the GPU's memory: fits");
	CHECK(st, !engine_rows_past_gpu(&o, gib, 0), "memory not known");
	o.gpu_mem = gib;
	CHECK(st, engine_rows_past_gpu(&o, gib / 4 + 1, 80 * gib), "past --gpu-mem");
	CHECK(st, !engine_rows_past_gpu(&o, gib / 4, 0), "within --gpu-mem");
	o = base;
	o.k = 4;
	CHECK(st, !engine_rows_past_gpu(&o, gib, gib), "k-cliques");
	o = base;
	o.layout = ENGINE_LAYOUT_BLOCK;
	CHECK(st, !engine_rows_past_gpu(&o, gib, gib), "a named layout");
	o = base;
	o.ngpus = 1;
	CHECK(st, !engine_rows_past_gpu(&o, gib, gib), "one GPU listed");
	o = base;
	o.nranks = 2;
	CHECK(st, !engine_rows_past_gpu(&o, gib, gib), "ranks");
	o = base;
	o.plan_only = 1;
	CHECK(st, !engine_rows_past_gpu(&o, gib, gib), "--plan-only");
}

/* --device auto's rule on the graphs it was measured on (engine.c): the
 * faster device on each, and the GPU beyond the measured range. */
static void check_auto_device(struct t_state *st)
{
	static const struct {
		uint64_t nv, m, dmax;
		enum tsg_device faster;
	} rows[] = {
		{ 1u << 21, 15815923, 13177, TSG_DEVICE_CPU },  /* web 2^21 */
		{ 1u << 22, 31635737, 20882, TSG_DEVICE_CPU },  /* web 2^22 */
		{ 1u << 23, 63271493, 33258, TSG_DEVICE_CPU },  /* web 2^23 */
		{ 1u << 18, 3805173, 25144, TSG_DEVICE_CPU },   /* R-MAT 18 */
		{ 1u << 19, 7741960, 40345, TSG_DEVICE_CPU },   /* R-MAT 19 */
		{ 1u << 20, 15700770, 64644, TSG_DEVICE_GPU },  /* R-MAT 20 */
		{ 1u << 21, 31769763, 102652, TSG_DEVICE_GPU }, /* R-MAT 21 */
		{ 1u << 22, 64155238, 163866, TSG_DEVICE_GPU }, /* R-MAT 22 */
		{ 3000, 4498500, 2999, TSG_DEVICE_GPU },        /* a clique: too dense to judge */
		/* below the least skew measured the CPU's cost is not extended
		 * down: a large crawl of low skew (s = 1.5) takes the GPU, a
		 * small one the CPU */
		{ 30000000, 408000000, 30300, TSG_DEVICE_GPU },
		{ 1000000, 8000000, 4243, TSG_DEVICE_CPU },
	};
	char note[256];
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		note[0] = 0;
		const enum tsg_device d = engine_auto_device(rows[i].nv, rows[i].m, rows[i].dmax, 3,
							     note, sizeof(note));
		CHECK(st, d == rows[i].faster, "auto device for %llu edges, max degree %llu: %s",
		      (unsigned long long)rows[i].m, (unsigned long long)rows[i].dmax,
		      d == TSG_DEVICE_CPU ? "cpu" : "gpu");
		CHECK(st, (d == TSG_DEVICE_CPU) == (note[0] != 0), "a CPU choice says why");
	}
	CHECK(st, engine_auto_device(1000, 3000, 50, 4, note, sizeof(note)) == TSG_DEVICE_GPU,
	      "k-cliques take the GPU");
}

/* An LZ4 file read by ranges (io/ranges.c): a graph of several chunks,
 * ids with locality. The middle third alone reads some chunks, not all,
 * and places its lists as a whole read does; three slices then read every
 * chunk once over the calls (compressed bytes: the section's), their
 * symmetry hashes sum to zero, and every list equals the plain file's. */
/* part_arena_seg_ids: a thread's share of the entries, from 2^16 ids up
 * to PART_ARENA_IDS (the orientation's arenas; each thread's first
 * segment is taken whatever the graph). */
static void check_arena_seg(struct t_state *st)
{
	CHECK(st, part_arena_seg_ids(0, 16) == 1ull << 16, "no entries: the least segment");
	CHECK(st, part_arena_seg_ids(100, 0) == 1ull << 16, "no threads named: one");
	CHECK(st, part_arena_seg_ids(16ull << 20, 16) == (1ull << 20) + 1, "a thread's share");
	CHECK(st, part_arena_seg_ids(1ull << 40, 16) == PART_ARENA_IDS, "at most PART_ARENA_IDS");
	CHECK(st, part_arena_seg_ids(UINT64_MAX, 1) == PART_ARENA_IDS, "no overflow");
}

static void check_held_lz4(struct t_state *st)
{
	enum { N = 30000, M = 400000 };
	uint64_t *e = malloc(M * sizeof(*e)), seed = 11;
	struct tsg_graph raw = { 0 }, g = { 0 };
	struct tsg_err err = { 0 };
	for (size_t i = 0; e && i < M; i++) {
		const uint64_t u = t_rand(&seed) % N;
		e[i] = u << 32 | ((u + 1 + t_rand(&seed) % 64) % N);
	}
	char *rp = strdup(t_path("held-lz4-raw.tsg")), *zp = strdup(t_path("held-lz4.tsg"));
	int rc = e && rp && zp ? t_graph_from_edges(rp, e, M, N, &raw) : -1;
	uint64_t zbytes = 0;
	if (rc == 0)
		rc = io_graph_write_lz4(zp, raw.nv, raw.off, raw.adj, 2, &zbytes, &err);
	const struct io_load_opts lo = { .io = IO_MODE_PREAD, .threads = 2 };
	if (rc == 0)
		rc = io_graph_open(zp, &lo, &g, &err);
	CHECK(st, rc == 0 && g.compressed, "lz4 ranges: files: %s", err.msg);
	if (rc == 0) {
		const uint64_t nv = g.nv, size = g.lists_sec.size;
		const struct io_vrange r[3] = { { 0, nv / 3 }, { nv / 3, 2 * nv / 3 },
						{ 2 * nv / 3, nv } };
		uint64_t sym = 0, bytes = 0;
		CHECK(st, io_graph_read_ranges(&g, &r[1], 1, &sym, &bytes, &err) == 0,
		      "lz4 ranges: middle third: %s", err.msg);
		const uint64_t b = raw.off[r[1].b], n = raw.off[r[1].e] - b;
		CHECK(st, bytes > 0 && bytes < size && !memcmp(g.adj + b, raw.adj + b, n * 4),
		      "lz4 ranges: middle third read %llu of %llu bytes", (unsigned long long)bytes,
		      (unsigned long long)size);
		const uint64_t first = bytes;
		sym = bytes = 0;
		for (int s = 0; s < 3; s++)
			CHECK(st, io_graph_read_ranges(&g, &r[s], 1, &sym, &bytes, &err) == 0,
			      "lz4 ranges: slice %d: %s", s, err.msg);
		CHECK(st, sym == 0 && !memcmp(g.adj, raw.adj, raw.nadj * 4),
		      "lz4 ranges: slices' lists or symmetry differ");
		CHECK(st, bytes > 0 && first + bytes == size, "lz4 ranges: %llu then %llu bytes, "
		      "the chunks %llu", (unsigned long long)first, (unsigned long long)bytes,
		      (unsigned long long)size);
	}
	io_graph_free(&g);
	io_graph_free(&raw);
	free(e);
	free(rp);
	free(zp);
}

/* --kernel auto on the twelve graphs its rule was fitted to (choose.h):
 * each unit's work as the planner estimates it for one unit, and the
 * kernel that was fastest there on the H100 (bench/raw/
 * h100-2026-11-25-edge-merge/kexp-*.jsonl). */
static void check_auto_kernel(struct t_state *st)
{
	static const struct {
		const char *name;
		uint64_t wedges, probes, entries;
		enum gpu_kernel fastest;
	} rows[] = {
		{ "web 2^21", 62217128, 80394666, 15815923, GPU_KERNEL_EDGE_MERGE },
		{ "web 2^22", 124469076, 160949595, 31635737, GPU_KERNEL_EDGE_MERGE },
		{ "ER 2^22", 141757408, 177934316, 33554357, GPU_KERNEL_EDGE_MERGE },
		{ "crawl 2^21", 204915578, 225797618, 28453135, GPU_KERNEL_EDGE_MERGE },
		{ "crawl 2^22", 400824726, 442110319, 56330845, GPU_KERNEL_EDGE_MERGE },
		{ "cnr-2000", 29304003, 24596748, 2738969, GPU_KERNEL_EDGE_MERGE },
		{ "ER 2^21 x64", 1281401138, 1429638408, 67107825, GPU_KERNEL_LSTC_HASH },
		{ "web 2^21 x64", 882928228, 1032328877, 56254257, GPU_KERNEL_LSTC_HASH },
		{ "R-MAT 21 abc .45", 328624723, 843018632, 33513465, GPU_KERNEL_LSTC_HASH },
		{ "R-MAT 18", 204735467, 659496408, 3805173, GPU_KERNEL_MID_HASH },
		{ "R-MAT 21", 2981801323, 11343906268, 31769763, GPU_KERNEL_MID_HASH },
		{ "R-MAT 22", 7209514975, 28934272857, 64155238, GPU_KERNEL_MID_HASH },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct kern_unit_work w = { rows[i].wedges, rows[i].probes, rows[i].entries, 0 };
		const enum gpu_kernel k = kern_choose(&w, 0);
		CHECK(st, k == rows[i].fastest, "auto kernel for %s: %s, fastest %s", rows[i].name,
		      gpu_kernel_name(k), gpu_kernel_name(rows[i].fastest));
		CHECK(st, kern_choose(&w, 1) == GPU_KERNEL_MID_HASH, "per-vertex counts take mid-hash");
	}
	const struct kern_unit_work none = { 0, 0, 0, 0 };
	CHECK(st, kern_choose(&none, 0) < GPU_KERNEL_COUNT_ && kern_choose(&none, 0) != GPU_KERNEL_AUTO,
	      "an empty unit gets a kernel");
	/* units of narrow middle ranges (R-MAT 22 oriented, 2D blocks of
	 * about 70 MB; w, p, e and the edges they count, ein, from
	 * block_plan_work): short tails over their source rows, but N(b)s
	 * of 10-430 entries an edge to merge. Not edge-merge where p/ein is
	 * above 24 (choose.h); the same numbers taken as whole units (ein
	 * unknown) keep the old pick, edge-merge */
	static const struct {
		uint64_t wedges, probes, entries, entries_in;
		int merge; /* edge-merge wanted */
	} narrow[] = {
		{ 335995, 1490000, 2645250, 147621, 1 },	   /* p/ein 10.1, tail 2.3 */
		{ 547575, 35332370, 2645250, 217136, 0 },	   /* p/ein 163 */
		{ 7302048, 44425836, 7471140, 565019, 0 },	   /* p/ein 79 */
		{ 29172086, 508704486, 8268523, 1184410, 0 },   /* p/ein 430 */
	};
	for (size_t i = 0; i < sizeof(narrow) / sizeof(narrow[0]); i++) {
		const struct kern_unit_work w = { narrow[i].wedges, narrow[i].probes,
						  narrow[i].entries, narrow[i].entries_in };
		const struct kern_unit_work whole = { narrow[i].wedges, narrow[i].probes,
						      narrow[i].entries, 0 };
		CHECK(st, (kern_choose(&w, 0) == GPU_KERNEL_EDGE_MERGE) == narrow[i].merge,
		      "narrow unit %zu: %s", i, gpu_kernel_name(kern_choose(&w, 0)));
		CHECK(st, kern_choose(&whole, 0) == GPU_KERNEL_EDGE_MERGE || narrow[i].probes >
		      24 * narrow[i].entries, "unit %zu taken whole: %s", i,
		      gpu_kernel_name(kern_choose(&whole, 0)));
	}
}

/* Ranks that each read some lists (src/ranges.h), played in one process:
 * three slices of the file, read by ranges (pread, a mapping and io_uring),
 * hold every list once, so their symmetry hashes sum to zero and their
 * bytes to the lists'; their out-degrees lay out part_orient's offsets;
 * each slice's rows are part_orient's; unit costs summed over the slices'
 * held rows are the whole graph's. Ranges out of order are refused. */
static void check_held(struct t_state *st, struct casegraph *c)
{
	struct part_odag full = { 0 }, d = { 0 };
	struct tsg_err err = { 0 };
	const struct part_orient_opts oo = { .threads = 2, .alloc = heap };
	if (part_orient(&c->g, &oo, &full, NULL, &err)) {
		CHECK(st, 0, "%s: orient: %s", c->name, err.msg);
		free(full.off);
		return;
	}
	const uint64_t nv = c->g.nv;
	uint32_t *rank = ref_ranks(&c->g);
	uint32_t *outdeg = calloc(nv + 1, sizeof(*outdeg));
	uint8_t *held[3] = { calloc(nv + 1, 1), calloc(nv + 1, 1), calloc(nv + 1, 1) };
	void *mem = malloc(part_odag_bytes(nv, full.ne));
	struct block_plan plan = { 0 };
	const struct block_opts bo = { .nblocks = 3 };
	CHECK(st, block_plan_new(&full, &bo, &plan, &err) == 0, "%s: plan: %s", c->name, err.msg);
	uint64_t *want = calloc(plan.nunits + 1, sizeof(*want)), *sum = calloc(plan.nunits + 1, 8);
	uint64_t *part = calloc(plan.nunits + 1, sizeof(*part));
	const enum io_mode modes[3] = { IO_MODE_PREAD, IO_MODE_MMAP, IO_MODE_URING };
	for (int m = 0; m < 3; m++) {
		struct tsg_graph g;
		const struct io_load_opts lo = { .io = modes[m], .threads = 2 };
		if (io_graph_open(t_path(c->name), &lo, &g, &err)) {
			CHECK(st, 0, "%s: open: %s", c->name, err.msg);
			continue;
		}
		const struct io_vrange r[3] = { { 0, nv / 3 }, { nv / 3, 2 * nv / 3 },
						{ 2 * nv / 3, nv } };
		uint64_t sym = 0, bytes = 0;
		for (int s = 0; s < 3; s++) {
			CHECK(st, io_graph_read_ranges(&g, &r[s], 1, &sym, &bytes, &err) == 0,
			      "%s: read slice %d: %s", c->name, s, err.msg);
			part_held_out_degrees(&g, rank, r[s].b, r[s].e, 2, outdeg + r[s].b);
		}
		CHECK(st, sym == 0 && bytes == g.nadj * 4, "%s: slices: symmetry %llu, %llu of %llu "
		      "bytes", c->name, (unsigned long long)sym, (unsigned long long)bytes,
		      (unsigned long long)g.nadj * 4);
		part_odag_place(&d, mem, nv);
		part_held_offsets(nv, rank, outdeg, 1 + (unsigned)m, &d); /* 1, 2, 3 threads */
		CHECK(st, d.ne == full.ne && d.max_out == full.max_out &&
		      !memcmp(d.off, full.off, (nv + 1) * 8), "%s: held offsets differ", c->name);
		memset(d.adj, 0xff, full.ne * 4);
		for (int s = 0; s < 3; s++) {
			memset(held[s], 0, nv + 1);
			CHECK(st, part_held_fill(&g, rank, &r[s], 1, 2, &d, held[s], &err) == 0,
			      "%s: fill slice %d: %s", c->name, s, err.msg);
			uint64_t n = 0;
			for (uint64_t v = 0; v < nv; v++)
				n += held[s][v];
			CHECK(st, n == r[s].e - r[s].b, "%s: slice %d holds %llu rows", c->name, s,
			      (unsigned long long)n);
		}
		CHECK(st, !memcmp(d.adj, full.adj, full.ne * 4), "%s: held rows differ", c->name);
		block_plan_costs(&full, &plan, 2, want, NULL);
		memset(sum, 0, (plan.nunits + 1) * 8);
		for (int s = 0; s < 3; s++) {
			block_plan_costs_held(&d, &plan, 2, held[s], part, NULL);
			for (uint32_t k = 0; k < plan.nunits; k++)
				sum[k] += part[k];
		}
		CHECK(st, !memcmp(sum, want, plan.nunits * 8), "%s: costs summed over slices differ",
		      c->name);
		const struct io_vrange bad[2] = { { 0, nv }, { 0, nv } };
		CHECK(st, nv == 0 || io_graph_read_ranges(&g, bad, 2, &sym, &bytes, &err) ==
		      TSG_EINTERNAL, "%s: overlapping ranges taken", c->name);
		io_graph_free(&g);
	}
	block_plan_free(&plan);
	free(want);
	free(sum);
	free(part);
	free(mem);
	for (int s = 0; s < 3; s++)
		free(held[s]);
	free(outdeg);
	free(rank);
	free(full.off);
}

int main(void)
{
	struct t_state st = { 0 };
	enum { MAXE = 200000 };
	uint64_t *e = malloc(MAXE * sizeof(*e));
	struct casegraph cases[16];
	int nc = 0;
	size_t n;
#define ADD(nm, count, minnv)                                                            \
	do {                                                                             \
		cases[nc].name = nm;                                                     \
		if (t_graph_from_edges(t_path(nm), e, count, minnv, &cases[nc].g) == 0) \
			nc++;                                                            \
		else                                                                     \
			CHECK(&st, 0, "cannot build %s", nm);                            \
	} while (0)
	n = gen_er(e, 60, 300, 1);           ADD("er-60", n, 60);
	n = gen_er(e, 300, 6000, 2);         ADD("er-300-dense", n, 300);
	n = gen_er(e, 2000, 30000, 3);       ADD("er-2000", n, 2000);
	n = gen_rmat(e, 10, 16384, 4);       ADD("rmat-10", n, 1024);
	n = gen_rmat(e, 12, 65536, 5);       ADD("rmat-12", n, 4096);
	n = gen_clique(e, 12);               ADD("clique-12", n, 0);
	n = gen_clique(e, 40);               ADD("clique-40", n, 0);
	n = gen_fan(e, 200);                 ADD("fan-200", n, 0);
	n = gen_clique(e, 0);                ADD("empty", n, 0);
	n = 0;                               ADD("isolated-10", n, 10);
	e[0] = 3ull << 32 | 7;               ADD("one-edge", 1, 0);
	e[0] = 0ull << 32 | 1; e[1] = 1ull << 32 | 2; e[2] = 2ull << 32 | 0; e[3] = 5ull << 32 | 5;
	                                     ADD("triangle-and-loop", 4, 9);
	for (int i = 0; i < nc; i++) {
		cases[i].ref = t_ref_count(&cases[i].g);
		cases[i].by_src = t_ref_by_source(&cases[i].g);
	}
	/* the exact families have known counts: the reference must agree */
	for (int i = 0; i < nc; i++) {
		if (!strcmp(cases[i].name, "clique-12"))
			CHECK(&st, cases[i].ref == 220, "C(12,3)");
		if (!strcmp(cases[i].name, "clique-40"))
			CHECK(&st, cases[i].ref == 9880, "C(40,3)");
		if (!strcmp(cases[i].name, "fan-200"))
			CHECK(&st, cases[i].ref == 198, "fan");
		if (!strcmp(cases[i].name, "triangle-and-loop"))
			CHECK(&st, cases[i].ref == 1, "one triangle");
	}
	const uint32_t parts[] = { 1, 2, 3, 4, 7, 16, 0 /* more parts than vertices */ };
	for (int i = 0; i < nc; i++) {
		for (unsigned p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
			uint32_t np = parts[p] ? parts[p] : (uint32_t)cases[i].g.nv + 5;
			for (int s = 0; s < nschemes(); s++)
				for (int r = 0; r <= PART_PRUNE_CLOSED; r++)
					check_plan(&st, &cases[i], (enum part_scheme)s, (enum part_prune)r, np);
		}
		/* the degeneracy order too (--order degeneracy): the closed
		 * plan stores its lists in the orientation order */
		uint32_t *dorder = malloc((cases[i].g.nv + 1) * sizeof(*dorder));
		struct tsg_err oerr = { 0 };
		const int have_order = dorder &&
				       part_degeneracy_order(&cases[i].g, dorder, NULL, &oerr) == TSG_OK;
		CHECK(&st, have_order, "%s: degeneracy order: %s", cases[i].name, oerr.msg);
		check_prune_order(&st, &cases[i], 5, NULL);
		check_source_pieces(&st, &cases[i]);
		if (have_order)
			check_prune_order(&st, &cases[i], 5, dorder);
		check_blocks(&st, &cases[i], parts, sizeof(parts) / sizeof(parts[0]));
		check_streamed(&st, &cases[i]);
		check_arrival(&st, &cases[i]);
		check_arrival_lists(&st, &cases[i]);
		check_arrival_need(&st, &cases[i]);
		if (cases[i].g.nv > 0)
			check_auto(&st, &cases[i]);
		check_closed_plan(&st, &cases[i], NULL);
		if (have_order)
			check_closed_plan(&st, &cases[i], dorder);
		free(dorder);
		check_min_parts(&st, &cases[i]);
		check_held(&st, &cases[i]);
	}
	/* a clique split so that every vertex is its own part */
	for (int i = 0; i < nc; i++)
		if (!strcmp(cases[i].name, "clique-40"))
			for (int s = 0; s < nschemes(); s++)
				check_plan(&st, &cases[i], (enum part_scheme)s, PART_PRUNE_LOCAL, 40);
	for (int i = 0; i < nc; i++) {
		free(cases[i].by_src);
		io_graph_free(&cases[i].g);
	}
	free(e);
	check_hubs(&st);
	check_read_stop(&st);
	check_auto_device(&st);
	check_arrival_all_gpus(&st);
	check_arrival_likely(&st);
	check_rows_past_gpu(&st);
	check_auto_kernel(&st);
	check_held_lz4(&st);
	check_arena_seg(&st);
	return t_finish(&st);
}
