/*
 * part.c - building LSTC partitions.
 *
 * Why each part counts exactly its own triangles. Orient every edge from
 * lower to higher rank, rank = (degree, id) over the whole graph. A triangle
 * {a, b, c} with a lowest and b below c has a->b, a->c, b->c; it is counted
 * from its source a and nowhere else. Part i counts sources in L_i, so it
 * counts the triangles whose source is in L_i, and the parts, being
 * disjoint and covering V, count each triangle once. Part i must therefore
 * keep, for each local a, out(a) and the edges b->c among out(a):
 *
 *  - PART_PRUNE_LOCAL keeps K = L_i ∪ {w : a->w for some a in L_i} and all
 *    edges among K. b and c are in out(a) so in K; b->c joins two vertices
 *    of K so it is kept. Exact.
 *  - PART_PRUNE_LSTC (Algorithm 2) starts from L_i ∪ N(L_i) and removes
 *    proxies whose in-degree is zero, repeatedly. A proxy w with an edge
 *    a->w from a local a always has in-degree >= 1 (locals are never
 *    removed), so it survives: Algorithm 2 keeps a superset of K and every
 *    edge among what it keeps. Exact, and never smaller than LOCAL's result,
 *    which is why LOCAL is the default (bench/ measures the difference).
 *  - PART_PRUNE_CLOSED keeps an edge only if it lies on a triangle whose
 *    source is local, and the vertices of those edges (and every local).
 *    A clique of K >= 3 vertices whose lowest vertex a is local has every
 *    edge on such a triangle: a->b and a->c on {a, b, c} for any third
 *    member c, and b->c on {a, b, c}. So every edge it needs is kept, in
 *    rows that are sublists of the graph's: what a count from a sees,
 *    rows intersected with out(a), is unchanged. Edges and vertices on no
 *    triangle are gone, so it is not for counting edges (--k-all's sizes 1
 *    and 2). Why it matters: under LOCAL a part keeps every edge among the
 *    out-neighbours of its locals, and in a skewed graph almost every
 *    local points at hubs, so every part carries the edges among the hubs
 *    (half of R-MAT 20's edges in each of 64 parts); CLOSED keeps only the
 *    hub edges its own locals close triangles with.
 */
#include "partition/part.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "io/format.h"

#ifdef TSG_HAVE_METIS
#include <metis.h>
#endif

enum { MARK_IND = 1, MARK_KEEP = 2, SCAN_CHUNK = 1 << 16, GRAIN = 1024 };

struct part_plan {
	const struct tsg_graph *g;
	struct part_opts o;
	uint32_t nparts;
	uint64_t *bounds;           /* ranges: nparts + 1 vertex bounds; NULL for hash */
	uint32_t *part_of;          /* hash: part of each vertex */
	uint64_t *mstart;           /* hash: nparts + 1 starts into members */
	uint32_t *members;          /* hash: vertices grouped by part, increasing */
	_Atomic uint8_t *mark;      /* per vertex, MARK_* bits for the part being built */
	uint32_t *newid;            /* per vertex: id in the part (or in-degree while peeling) */
	uint32_t *kept;             /* kept vertices of the part, global ids, increasing */
	uint32_t *outdeg;           /* per kept vertex */
	uint64_t *chunk;            /* per scan chunk counts */
	uint64_t max_bytes;
	/* PART_PRUNE_CLOSED: the graph oriented, its out-degrees summed by id
	 * (ooff: a range's oriented edges), its out-lists stored by rank in
	 * the orientation order (roff; radj holds ranks, each list's entries
	 * in id order, so that parts come out as by id), and a bit per
	 * oriented edge at its place in radj, set for the part being built.
	 * Why by rank: the listing walks the out-lists of out-neighbours, the
	 * hubs, which rank order packs together, and their bits in the
	 * thread's bitmap with them, where ids scatter both */
	uint64_t *ooff, *roff;
	uint32_t *radj;
	uint32_t *rank, *idof;      /* rank of each id, id of each rank */
	_Atomic uint64_t *emark;
	uint64_t *tbits;            /* per thread: two bitmaps of nv bits */
	/* the greedy plan's marks of each part (emark as the part closed, NULL
	 * where they did not fit PART_RECIPE_ROOM), so building it replays them
	 * rather than listing its triangles again */
	uint64_t **recipe;
	uint64_t recipe_bytes;
};

static const char *const scheme_names[] = { "contig", "edge", "hash", "metis" };
static const char *const prune_names[] = { "local", "lstc", "closed", "auto" };

int part_scheme_parse(const char *s, enum part_scheme *out)
{
	const int i = tsg_name_index(scheme_names, PART_METIS + 1, s);
	if (i < 0)
		return TSG_EUSAGE;
	*out = (enum part_scheme)i;
	return TSG_OK;
}

int part_scheme_available(enum part_scheme s)
{
#ifdef TSG_HAVE_METIS
	(void)s;
	return 1;
#else
	return s != PART_METIS;
#endif
}

const char *part_scheme_name(enum part_scheme s) { return scheme_names[s]; }

int part_prune_parse(const char *s, enum part_prune *out)
{
	const int i = tsg_name_index(prune_names, PART_PRUNE_AUTO + 1, s);
	if (i < 0)
		return TSG_EUSAGE;
	*out = (enum part_prune)i;
	return TSG_OK;
}

const char *part_prune_name(enum part_prune p) { return prune_names[p]; }

uint32_t part_plan_count(const struct part_plan *p) { return p->nparts; }
enum part_prune part_plan_prune(const struct part_plan *p) { return p->o.prune; }
uint64_t part_plan_max_bytes(const struct part_plan *p) { return p->max_bytes; }

uint32_t part_plan_recipes(const struct part_plan *p, uint64_t *bytes)
{
	uint32_t n = 0;
	for (uint32_t i = 0; p->recipe && i < p->nparts; i++)
		n += p->recipe[i] != NULL;
	*bytes = p->recipe_bytes;
	return n;
}

void part_plan_forget_recipes(struct part_plan *p)
{
	for (uint32_t i = 0; p->recipe && i < p->nparts; i++)
		free(p->recipe[i]);
	free(p->recipe);
	p->recipe = NULL;
	p->recipe_bytes = 0;
}

uint32_t part_plan_owner(const struct part_plan *p, uint32_t v)
{
	if (!p->bounds)
		return p->part_of[v];
	uint32_t lo = 0, hi = p->nparts; /* the last range whose start is <= v */
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		if (p->bounds[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static inline uint64_t deg(const uint64_t *off, uint32_t v) { return off[v + 1] - off[v]; }

/* v comes before w in the orientation order: (degree, id), or order's
 * (part_opts.order) */
static inline int orient_before(const uint64_t *off, const uint32_t *order, uint32_t v, uint32_t w)
{
	if (order)
		return order[v] < order[w];
	const uint64_t dv = deg(off, v), dw = deg(off, w);
	return dv < dw || (dv == dw && v < w);
}

static inline int before(const struct part_plan *p, uint32_t v, uint32_t w)
{
	return orient_before(p->g->off, p->o.order, v, w);
}

struct max_out_ctx {
	const struct tsg_graph *g;
	const uint32_t *order;
	atomic_uint_fast64_t max;
};

static void max_out_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct max_out_ctx *c = ctx;
	const uint64_t *off = c->g->off;
	uint64_t mx = 0;
	for (uint64_t v = b; v < e; v++) {
		uint64_t n = 0;
		for (uint64_t x = off[v]; x < off[v + 1]; x++)
			n += orient_before(off, c->order, (uint32_t)v, c->g->adj[x]);
		mx = n > mx ? n : mx;
	}
	tsg_atomic_max(&c->max, mx);
}

uint32_t part_max_out(const struct tsg_graph *g, const uint32_t *order, unsigned threads)
{
	struct max_out_ctx c = { .g = g, .order = order };
	atomic_init(&c.max, 0);
	tsg_parallel_for(threads ? threads : 1, g->nv, 1 << 14, max_out_range, &c);
	return (uint32_t)atomic_load(&c.max);
}

uint64_t part_plan_weight(const struct part_plan *p, uint32_t i)
{
	const uint64_t *off = p->g->off;
	if (p->bounds)
		return off[p->bounds[i + 1]] - off[p->bounds[i]];
	uint64_t w = 0;
	for (uint64_t k = p->mstart[i]; k < p->mstart[i + 1]; k++)
		w += deg(off, p->members[k]);
	return w;
}

static inline int is_local(const struct part_plan *p, uint32_t i, uint32_t v)
{
	return p->bounds ? v >= p->bounds[i] && v < p->bounds[i + 1] : p->part_of[v] == i;
}

static inline uint64_t nlocal(const struct part_plan *p, uint32_t i)
{
	return p->bounds ? p->bounds[i + 1] - p->bounds[i] : p->mstart[i + 1] - p->mstart[i];
}

static inline uint32_t local_at(const struct part_plan *p, uint32_t i, uint64_t k)
{
	return p->bounds ? (uint32_t)(p->bounds[i] + k) : p->members[p->mstart[i] + k];
}

static inline void set_mark(_Atomic uint8_t *m, uint8_t bits)
{
	/* a plain load first: most marks are already set, and the RMW is costly */
	if ((atomic_load_explicit(m, memory_order_relaxed) & bits) != bits)
		atomic_fetch_or_explicit(m, bits, memory_order_relaxed);
}

static inline uint8_t get_mark(_Atomic uint8_t *m)
{
	return atomic_load_explicit(m, memory_order_relaxed);
}

/* ---- assignment of vertices to parts */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Groups vertices by p->part_of into members/mstart (increasing ids). */
static int group_members(struct part_plan *p, uint32_t nparts, struct tsg_err *err)
{
	const uint64_t nv = p->g->nv;
	free(p->mstart);
	p->mstart = calloc((size_t)nparts + 2, sizeof(*p->mstart));
	if (!p->mstart)
		return tsg_fail(err, TSG_ENOMEM, "out of memory planning %u parts", nparts);
	p->nparts = nparts;
	for (uint64_t v = 0; v < nv; v++)
		p->mstart[p->part_of[v] + 2]++;
	for (uint32_t i = 2; i < nparts + 2; i++)
		p->mstart[i] += p->mstart[i - 1];
	for (uint64_t v = 0; v < nv; v++) /* counting sort keeps members increasing */
		p->members[p->mstart[p->part_of[v] + 1]++] = (uint32_t)v;
	return TSG_OK;
}

static int assign_hash(struct part_plan *p, uint32_t nparts, struct tsg_err *err)
{
	for (uint64_t v = 0; v < p->g->nv; v++)
		p->part_of[v] = (uint32_t)(mix64(v ^ p->o.seed) % nparts);
	return group_members(p, nparts, err);
}

#ifdef TSG_HAVE_METIS
/* METIS k-way on the symmetric graph. Vertex weights are degree + 1, so
 * parts balance edges (the work) rather than vertices. METIS takes 32-bit
 * indices here (Debian's build), so graphs past 2^31 list entries are
 * refused with a clear error rather than truncated. */
static int assign_metis(struct part_plan *p, uint32_t nparts, struct tsg_err *err)
{
	const struct tsg_graph *g = p->g;
	idx_t *xadj = NULL, *adjncy = NULL, *vwgt = NULL, *part = NULL;
	int rc = TSG_OK;
	if (nparts == 1 || g->nv <= nparts) {
		for (uint64_t v = 0; v < g->nv; v++)
			p->part_of[v] = nparts == 1 ? 0 : (uint32_t)v;
		return group_members(p, nparts, err);
	}
	if (g->nadj > (uint64_t)INT32_MAX || g->nv > (uint64_t)INT32_MAX)
		return tsg_fail(err, TSG_EUSAGE, "--scheme metis: %llu list entries exceed METIS's "
				"32-bit indices; use --scheme edge", (unsigned long long)g->nadj);
	xadj = malloc((g->nv + 1) * sizeof(*xadj));
	adjncy = malloc((g->nadj ? g->nadj : 1) * sizeof(*adjncy));
	vwgt = malloc(g->nv * sizeof(*vwgt));
	part = malloc(g->nv * sizeof(*part));
	if (!xadj || !adjncy || !vwgt || !part) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory copying the graph for METIS");
		goto fail;
	}
	for (uint64_t v = 0; v <= g->nv; v++)
		xadj[v] = (idx_t)g->off[v];
	for (uint64_t k = 0; k < g->nadj; k++)
		adjncy[k] = (idx_t)g->adj[k];
	for (uint64_t v = 0; v < g->nv; v++)
		vwgt[v] = (idx_t)(g->off[v + 1] - g->off[v] + 1);
	idx_t nvtx = (idx_t)g->nv, ncon = 1, np = (idx_t)nparts, cut = 0;
	idx_t opts[METIS_NOPTIONS];
	METIS_SetDefaultOptions(opts);
	opts[METIS_OPTION_SEED] = (idx_t)(p->o.seed & 0x7fffffff);
	const int mrc = METIS_PartGraphKway(&nvtx, &ncon, xadj, adjncy, vwgt, NULL, NULL, &np, NULL,
					    NULL, opts, &cut, part);
	if (mrc != METIS_OK) {
		rc = tsg_fail(err, mrc == METIS_ERROR_MEMORY ? TSG_ENOMEM : TSG_EINTERNAL,
			      "METIS failed (%d) partitioning into %u parts", mrc, nparts);
		goto fail;
	}
	for (uint64_t v = 0; v < g->nv; v++)
		p->part_of[v] = (uint32_t)part[v];
	rc = group_members(p, nparts, err);
fail:
	free(xadj);
	free(adjncy);
	free(vwgt);
	free(part);
	return rc;
}
#else
static int assign_metis(struct part_plan *p, uint32_t nparts, struct tsg_err *err)
{
	(void)p;
	(void)nparts;
	return tsg_fail(err, TSG_EUSAGE, "this build has no METIS (install libmetis-dev and "
			"rebuild); use --scheme edge, contig or hash");
}
#endif

static int assign_ranges(struct part_plan *p, uint32_t nparts, struct tsg_err *err)
{
	const struct tsg_graph *g = p->g;
	free(p->bounds);
	p->bounds = malloc(((size_t)nparts + 1) * sizeof(*p->bounds));
	if (!p->bounds)
		return tsg_fail(err, TSG_ENOMEM, "out of memory planning %u parts", nparts);
	p->nparts = nparts;
	for (uint32_t k = 0; k <= nparts; k++) {
		if (p->o.scheme == PART_CONTIG || g->nadj == 0) {
			p->bounds[k] = g->nv * k / nparts;
			continue;
		}
		/* off[] is the prefix sum of degrees: the first vertex whose
		 * offset reaches k/P of the entries starts part k */
		uint64_t target = (uint64_t)((double)g->nadj * k / nparts), lo = 0, hi = g->nv;
		while (lo < hi) {
			uint64_t mid = (lo + hi) / 2;
			if (g->off[mid] < target)
				lo = mid + 1;
			else
				hi = mid;
		}
		p->bounds[k] = k == nparts ? g->nv : lo;
	}
	return TSG_OK;
}

/* ---- the phases of building one part */

struct bctx {
	struct part_plan *p;
	uint32_t i;
	uint8_t up_bits, other_bits; /* marks for upward / other neighbours of locals */
	int measure_ind;             /* scan_count also sizes the induced subgraph */
	uint64_t nkept, v_ind, e_ind;
	uint64_t *off;
	uint32_t *adj, *src;
	atomic_uint_fast64_t v_ind_acc, e_ind_acc, max_out;
};

static void mark_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bctx *c = arg;
	struct part_plan *p = c->p;
	const struct tsg_graph *g = p->g;
	for (uint64_t k = b; k < e; k++) {
		uint32_t a = local_at(p, c->i, k);
		set_mark(&p->mark[a], MARK_IND | MARK_KEEP);
		for (uint64_t x = g->off[a]; x < g->off[a + 1]; x++) {
			uint32_t w = g->adj[x];
			uint8_t bits = before(p, a, w) ? c->up_bits : c->other_bits;
			if (bits)
				set_mark(&p->mark[w], bits);
		}
	}
}

/* Counts kept vertices per chunk of ids (and, for stats, the induced
 * subgraph's vertices and edges). */
static void scan_count(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bctx *c = arg;
	struct part_plan *p = c->p;
	const struct tsg_graph *g = p->g;
	for (uint64_t ch = b; ch < e; ch++) {
		uint64_t lo = ch * SCAN_CHUNK, hi = lo + SCAN_CHUNK < g->nv ? lo + SCAN_CHUNK : g->nv;
		uint64_t kept = 0, ind = 0, eind = 0;
		for (uint64_t v = lo; v < hi; v++) {
			uint8_t m = get_mark(&p->mark[v]);
			kept += (m & MARK_KEEP) != 0;
			if (c->measure_ind && (m & MARK_IND)) {
				ind++;
				for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++)
					eind += (get_mark(&p->mark[g->adj[x]]) & MARK_IND) &&
						before(p, (uint32_t)v, g->adj[x]);
			}
		}
		p->chunk[ch] = kept;
		if (c->measure_ind) {
			atomic_fetch_add(&c->v_ind_acc, ind);
			atomic_fetch_add(&c->e_ind_acc, eind);
		}
	}
}

static void scan_write(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bctx *c = arg;
	struct part_plan *p = c->p;
	for (uint64_t ch = b; ch < e; ch++) {
		uint64_t lo = ch * SCAN_CHUNK, hi = lo + SCAN_CHUNK < p->g->nv ? lo + SCAN_CHUNK : p->g->nv;
		uint64_t at = p->chunk[ch];
		for (uint64_t v = lo; v < hi; v++)
			if (get_mark(&p->mark[v]) & MARK_KEEP) {
				p->newid[v] = (uint32_t)at;
				p->kept[at++] = (uint32_t)v;
			}
	}
}

static void count_out(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bctx *c = arg;
	struct part_plan *p = c->p;
	const struct tsg_graph *g = p->g;
	uint64_t mx = 0;
	for (uint64_t k = b; k < e; k++) {
		uint32_t v = p->kept[k], n = 0;
		for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++) {
			uint32_t w = g->adj[x];
			n += (get_mark(&p->mark[w]) & MARK_KEEP) && before(p, v, w);
		}
		p->outdeg[k] = n;
		mx = n > mx ? n : mx;
	}
	tsg_atomic_max(&c->max_out, mx);
}

static void fill_out(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bctx *c = arg;
	struct part_plan *p = c->p;
	const struct tsg_graph *g = p->g;
	for (uint64_t k = b; k < e; k++) {
		uint32_t v = p->kept[k];
		uint64_t at = c->off[k];
		for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++) {
			uint32_t w = g->adj[x];
			if ((get_mark(&p->mark[w]) & MARK_KEEP) && before(p, v, w))
				c->adj[at++] = p->newid[w];
		}
	}
}

static void fill_src(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bctx *c = arg;
	for (uint64_t k = b; k < e; k++)
		c->src[k] = c->p->newid[local_at(c->p, c->i, k)];
}

static void clear_marks(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct part_plan *p = arg;
	for (uint64_t v = b; v < e; v++)
		atomic_store_explicit(&p->mark[v], 0, memory_order_relaxed);
}

/* Algorithm 2 of the LSTC paper: peel proxies of in-degree zero. In-degree
 * counts edges from vertices still kept; locals are never removed. */
static int peel_lstc(struct bctx *c, struct tsg_err *err)
{
	struct part_plan *p = c->p;
	const struct tsg_graph *g = p->g;
	uint32_t *queue = malloc((c->nkept ? c->nkept : 1) * sizeof(*queue));
	if (!queue)
		return tsg_fail(err, TSG_ENOMEM, "out of memory peeling proxies");
	uint64_t head = 0, tail = 0;
	uint32_t *indeg = p->newid; /* free until ids are assigned */
	for (uint64_t k = 0; k < c->nkept; k++) {
		uint32_t v = p->kept[k];
		if (is_local(p, c->i, v))
			continue;
		uint32_t n = 0;
		for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++)
			n += (get_mark(&p->mark[g->adj[x]]) & MARK_KEEP) && before(p, g->adj[x], v);
		indeg[v] = n;
		if (n == 0)
			queue[tail++] = v;
	}
	while (head < tail) {
		uint32_t v = queue[head++];
		atomic_fetch_and(&p->mark[v], (uint8_t)~MARK_KEEP);
		for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++) {
			uint32_t w = g->adj[x];
			if ((get_mark(&p->mark[w]) & MARK_KEEP) && !is_local(p, c->i, w) &&
			    before(p, v, w) && --indeg[w] == 0)
				queue[tail++] = w;
		}
	}
	free(queue);
	return TSG_OK;
}

/* ---- PART_PRUNE_CLOSED */

static inline int edge_set(const _Atomic uint64_t *w, uint64_t x)
{
	return (atomic_load_explicit(&w[x >> 6], memory_order_relaxed) >> (x & 63)) & 1;
}

/* What the greedy planner (plan_closed) learns from marking: the edges and
 * vertices that were new, counted, and a journal of them (edge x as
 * x << 1, vertex v as v << 1 | 1) to undo a chunk or clear a part. */
struct closed_track {
	uint64_t *log;
	size_t n, cap;
	uint64_t new_edges, new_kept;
	int oom;
};

static void track_push(struct closed_track *t, uint64_t e)
{
	if (t->n == t->cap) {
		const size_t cap = t->cap ? t->cap * 2 : 4096;
		uint64_t *log = realloc(t->log, cap * sizeof(*log));
		if (!log) {
			t->oom = 1;
			return;
		}
		t->log = log;
		t->cap = cap;
	}
	t->log[t->n++] = e;
}

/* Marks the edges of bits in emark word x (one atomic for up to 64). */
static inline void keep_edges(struct part_plan *p, uint64_t x, uint64_t bits,
			      struct closed_track *t)
{
	if ((atomic_load_explicit(&p->emark[x], memory_order_relaxed) & bits) == bits)
		return;
	const uint64_t old = atomic_fetch_or_explicit(&p->emark[x], bits, memory_order_relaxed);
	if (!t)
		return;
	for (uint64_t nw = bits & ~old; nw; nw &= nw - 1) {
		t->new_edges++;
		track_push(t, (x << 6 | (uint64_t)__builtin_ctzll(nw)) << 1);
	}
}

static inline void keep_vertex(struct part_plan *p, uint32_t v, struct closed_track *t)
{
	if (atomic_load_explicit(&p->mark[v], memory_order_relaxed) & MARK_KEEP)
		return;
	const uint8_t old = atomic_fetch_or_explicit(&p->mark[v], MARK_KEEP, memory_order_relaxed);
	if (t && !(old & MARK_KEEP)) {
		t->new_kept++;
		track_push(t, (uint64_t)v << 1 | 1);
	}
}

/* Lists the triangles a -> b -> c of a local a and marks their edges and
 * vertices (and a), the way kernels/cpu_merge.c's hash kernel counts:
 * out(a) is set in the thread's bitmap `in`, and every out(b) probes it.
 * A hit is b -> c; `hit` notes each vertex of out(a) met on a triangle,
 * which marks a -> b and a -> c. t (may be NULL) tracks what was new.
 * Without branches on the hits (in a profile the branch on a probe's bit
 * was the listing's costliest instruction; without it the build of R-MAT
 * 20's closed parts went from 5.8 to 5.2 s on 2 threads): out(b)'s hits
 * gather into the emark word they fall in, marked by one atomic as the
 * probe leaves it. */
static void closed_source(struct part_plan *p, uint32_t a, uint64_t *in, uint64_t *hit,
			  struct closed_track *t)
{
	const uint64_t *off = p->roff; /* by rank: every vertex below is a rank */
	const uint32_t *adj = p->radj, ra = p->rank[a];
	const uint64_t a0 = off[ra], a1 = off[ra + 1];
	keep_vertex(p, a, t);
	for (uint64_t x = a0; x < a1; x++)
		in[adj[x] >> 6] |= 1ull << (adj[x] & 63);
	for (uint64_t x = a0; x < a1; x++) {
		const uint32_t v = adj[x];
		if (x + 4 < a1) /* out(v): a row of another rank, far off for a low one */
			__builtin_prefetch(adj + off[adj[x + 4]]);
		uint64_t any = 0, word = 0;
		const uint64_t z0 = off[v], z1 = off[v + 1];
		for (uint64_t z = z0; z < z1; z++) {
			const uint32_t w = adj[z];
			const uint64_t bit = (in[w >> 6] >> (w & 63)) & 1;
			hit[w >> 6] |= bit << (w & 63);
			word |= bit << (z & 63);
			any |= bit;
			if ((z & 63) == 63 || z + 1 == z1) {
				if (word)
					keep_edges(p, z >> 6, word, t);
				word = 0;
			}
		}
		if (any)
			hit[v >> 6] |= 1ull << (v & 63);
	}
	for (uint64_t x = a0; x < a1; x++) {
		const uint32_t v = adj[x];
		if ((hit[v >> 6] >> (v & 63)) & 1) {
			keep_edges(p, x >> 6, 1ull << (x & 63), t);
			keep_vertex(p, p->idof[v], t);
		}
	}
	for (uint64_t x = a0; x < a1; x++) /* whole words: after every test */
		in[adj[x] >> 6] = hit[adj[x] >> 6] = 0;
}

static inline uint64_t *thread_bits(const struct part_plan *p, unsigned tid)
{
	return p->tbits + (size_t)tid * 2 * (p->g->nv / 64 + 1);
}

static void closed_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	struct bctx *c = arg;
	struct part_plan *p = c->p;
	uint64_t *in = thread_bits(p, tid), *hit = in + p->g->nv / 64 + 1;
	for (uint64_t k = b; k < e; k++)
		closed_source(p, local_at(p, c->i, k), in, hit, NULL);
}

static void closed_count_out(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bctx *c = arg;
	struct part_plan *p = c->p;
	uint64_t mx = 0;
	for (uint64_t k = b; k < e; k++) {
		const uint32_t r = p->rank[p->kept[k]];
		uint32_t n = 0;
		for (uint64_t x = p->roff[r]; x < p->roff[r + 1]; x++)
			n += (uint32_t)edge_set(p->emark, x);
		p->outdeg[k] = n;
		mx = n > mx ? n : mx;
	}
	tsg_atomic_max(&c->max_out, mx);
}

static void closed_fill_out(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bctx *c = arg;
	struct part_plan *p = c->p;
	for (uint64_t k = b; k < e; k++) {
		const uint32_t r = p->rank[p->kept[k]];
		uint64_t at = c->off[k];
		for (uint64_t x = p->roff[r]; x < p->roff[r + 1]; x++)
			if (edge_set(p->emark, x))
				c->adj[at++] = p->newid[p->idof[p->radj[x]]];
	}
}

/* Every marked edge leaves a kept vertex: clearing the kept rows' words
 * clears them all, in time for the part rather than the graph. */
static void closed_clear(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct bctx *c = arg;
	struct part_plan *p = c->p;
	for (uint64_t k = b; k < e; k++) {
		const uint32_t r = p->rank[p->kept[k]];
		const uint64_t x0 = p->roff[r], x1 = p->roff[r + 1];
		if (x0 == x1)
			continue;
		for (uint64_t w = x0 >> 6; w <= (x1 - 1) >> 6; w++)
			atomic_store_explicit(&p->emark[w], 0, memory_order_relaxed);
	}
}

static void orient_count(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct part_plan *p = arg;
	const struct tsg_graph *g = p->g;
	for (uint64_t v = b; v < e; v++) {
		uint64_t n = 0;
		for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++)
			n += before(p, (uint32_t)v, g->adj[x]);
		p->ooff[v + 1] = n;
	}
}

static void ranks_of(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct part_plan *p = arg;
	for (uint64_t r = b; r < e; r++) {
		const uint32_t v = p->idof[r];
		p->rank[v] = (uint32_t)r;
		p->roff[r + 1] = p->ooff[v + 1] - p->ooff[v];
	}
}

static void orient_fill(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct part_plan *p = arg;
	const struct tsg_graph *g = p->g;
	for (uint64_t r = b; r < e; r++) {
		const uint32_t v = p->idof[r];
		uint64_t at = p->roff[r];
		for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++)
			if (before(p, v, g->adj[x]))
				p->radj[at++] = p->rank[g->adj[x]];
	}
}

/* idof: the ids in the orientation order (before()): order's inverse, or
 * by (degree, id), a counting sort by degree over ids taken in order */
static int closed_order(struct part_plan *p, struct tsg_err *err)
{
	const struct tsg_graph *g = p->g;
	const uint64_t nv = g->nv;
	if (p->o.order) {
		for (uint64_t v = 0; v < nv; v++)
			p->idof[p->o.order[v]] = (uint32_t)v;
		return TSG_OK;
	}
	uint64_t dmax = 0;
	for (uint64_t v = 0; v < nv; v++)
		dmax = deg(g->off, (uint32_t)v) > dmax ? deg(g->off, (uint32_t)v) : dmax;
	uint64_t *at = calloc(dmax + 2, sizeof(*at));
	if (!at)
		return tsg_fail(err, TSG_ENOMEM, "out of memory orienting the graph for "
				"--prune closed");
	for (uint64_t v = 0; v < nv; v++)
		at[deg(g->off, (uint32_t)v) + 1]++;
	for (uint64_t d = 0; d <= dmax; d++)
		at[d + 1] += at[d];
	for (uint64_t v = 0; v < nv; v++)
		p->idof[at[deg(g->off, (uint32_t)v)]++] = (uint32_t)v;
	free(at);
	return TSG_OK;
}

/* The oriented lists by rank and the edge bits for PART_PRUNE_CLOSED. */
static int closed_prepare(struct part_plan *p, struct tsg_err *err)
{
	const uint64_t nv = p->g->nv;
	p->ooff = malloc((nv + 1) * sizeof(*p->ooff));
	p->roff = malloc((nv + 1) * sizeof(*p->roff));
	p->rank = malloc((nv ? nv : 1) * sizeof(*p->rank));
	p->idof = malloc((nv ? nv : 1) * sizeof(*p->idof));
	if (!p->ooff || !p->roff || !p->rank || !p->idof)
		return tsg_fail(err, TSG_ENOMEM, "out of memory orienting the graph for "
				"--prune closed");
	p->ooff[0] = p->roff[0] = 0;
	tsg_parallel_for(p->o.threads, nv, 1 << 14, orient_count, p);
	for (uint64_t v = 0; v < nv; v++)
		p->ooff[v + 1] += p->ooff[v];
	int rc = closed_order(p, err);
	if (rc)
		return rc;
	tsg_parallel_for(p->o.threads, nv, 1 << 14, ranks_of, p);
	for (uint64_t r = 0; r < nv; r++)
		p->roff[r + 1] += p->roff[r];
	const uint64_t ne = p->ooff[nv];
	p->radj = malloc((ne ? ne : 1) * sizeof(*p->radj));
	p->emark = calloc(ne / 64 + 1, sizeof(*p->emark));
	p->tbits = calloc((size_t)p->o.threads * 2 * (nv / 64 + 1), sizeof(*p->tbits));
	if (!p->radj || !p->emark || !p->tbits)
		return tsg_fail(err, TSG_ENOMEM, "out of memory orienting the graph for "
				"--prune closed (%llu edges)", (unsigned long long)ne);
	tsg_parallel_for(p->o.threads, nv, 1 << 14, orient_fill, p);
	return TSG_OK;
}

/* Kept vertices counted per chunk of ids, then numbered in id order. */
static void number_kept(struct bctx *c)
{
	struct part_plan *p = c->p;
	const unsigned t = p->o.threads;
	const uint64_t nchunks = (p->g->nv + SCAN_CHUNK - 1) / SCAN_CHUNK;
	tsg_parallel_for(t, nchunks, 1, scan_count, c);
	uint64_t sum = 0;
	for (uint64_t ch = 0; ch < nchunks; ch++) {
		const uint64_t n = p->chunk[ch];
		p->chunk[ch] = sum;
		sum += n;
	}
	c->nkept = sum;
	if (c->measure_ind) {
		c->v_ind = atomic_load(&c->v_ind_acc);
		c->e_ind = atomic_load(&c->e_ind_acc);
	}
	tsg_parallel_for(t, nchunks, 1, scan_write, c);
}

/* A part's edges from its recipe: the plan's emark words back, and every
 * vertex on a marked edge kept (as closed_source keeps them), with the
 * locals (closed_source keeps a local with no triangle too). */
struct replay {
	struct part_plan *p;
	const uint64_t *words;
};

static void replay_words(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct replay *r = arg;
	for (uint64_t w = b; w < e; w++)
		atomic_store_explicit(&r->p->emark[w], r->words[w], memory_order_relaxed);
}

static void replay_rows(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct replay *rp = arg;
	struct part_plan *p = rp->p;
	for (uint64_t r = b; r < e; r++) { /* by rank */
		const uint64_t x0 = p->roff[r], x1 = p->roff[r + 1];
		int any = 0;
		for (uint64_t w = x0 >> 6; x0 < x1 && w <= (x1 - 1) >> 6; w++) {
			uint64_t bits = rp->words[w];
			if (w == x0 >> 6)
				bits &= ~0ull << (x0 & 63);
			if (w == (x1 - 1) >> 6 && (x1 & 63))
				bits &= ~(~0ull << (x1 & 63));
			for (; bits; bits &= bits - 1) {
				set_mark(&p->mark[p->idof[p->radj[w << 6 |
								   (uint64_t)__builtin_ctzll(bits)]]],
					 MARK_KEEP);
				any = 1;
			}
		}
		if (any)
			set_mark(&p->mark[p->idof[r]], MARK_KEEP);
	}
}

static void replay_locals(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct bctx *c = arg;
	for (uint64_t k = b; k < e; k++)
		set_mark(&c->p->mark[local_at(c->p, c->i, k)], MARK_KEEP);
}

/* Phases shared by measure and build: mark, prune, count kept vertices and
 * out-degrees. Leaves marks set; clear_part clears them. */
static int select_part(struct part_plan *p, uint32_t i, int want_ind, struct bctx *c,
		       struct tsg_err *err)
{
	const unsigned t = p->o.threads;
	memset(c, 0, sizeof(*c));
	c->p = p;
	c->i = i;
	atomic_init(&c->v_ind_acc, 0);
	atomic_init(&c->e_ind_acc, 0);
	atomic_init(&c->max_out, 0);
	const int lstc = p->o.prune == PART_PRUNE_LSTC;
	const int closed = p->o.prune == PART_PRUNE_CLOSED;
	if (closed) { /* MARK_IND only, for the stats; the triangles set MARK_KEEP */
		c->up_bits = c->other_bits = want_ind ? MARK_IND : 0;
		if (want_ind)
			tsg_parallel_for(t, nlocal(p, i), GRAIN, mark_range, c);
		if (p->recipe && p->recipe[i]) {
			const struct replay r = { .p = p, .words = p->recipe[i] };
			tsg_parallel_for(t, p->ooff[p->g->nv] / 64 + 1, SCAN_CHUNK, replay_words,
					 (void *)&r);
			tsg_parallel_for(t, p->g->nv, GRAIN * 16, replay_rows, (void *)&r);
			tsg_parallel_for(t, nlocal(p, i), GRAIN * 16, replay_locals, c);
		} else {
			tsg_parallel_for(t, nlocal(p, i), 64, closed_range, c);
		}
	} else {
		c->up_bits = MARK_KEEP | (want_ind || lstc ? MARK_IND : 0);
		c->other_bits = want_ind || lstc ? (MARK_IND | (lstc ? MARK_KEEP : 0)) : 0;
		tsg_parallel_for(t, nlocal(p, i), GRAIN, mark_range, c);
	}
	c->measure_ind = want_ind;
	number_kept(c);
	if (lstc) {
		int rc = peel_lstc(c, err);
		if (rc)
			return rc;
		/* re-scan: peeling removed some of the kept vertices */
		c->measure_ind = 0;
		number_kept(c);
	}
	tsg_parallel_for(t, c->nkept, GRAIN, closed ? closed_count_out : count_out, c);
	return TSG_OK;
}

/* Clears what select_part marked, for the next part. */
static void clear_part(struct part_plan *p, struct bctx *c)
{
	if (p->o.prune == PART_PRUNE_CLOSED)
		tsg_parallel_for(p->o.threads, c->nkept, GRAIN, closed_clear, c);
	tsg_parallel_for(p->o.threads, p->g->nv, SCAN_CHUNK, clear_marks, p);
}

static uint64_t sum_outdeg(const struct part_plan *p, uint64_t nkept)
{
	uint64_t ne = 0;
	for (uint64_t k = 0; k < nkept; k++)
		ne += p->outdeg[k];
	return ne;
}

static void fill_stats(const struct part_plan *p, uint32_t i, const struct bctx *c, uint64_t ne,
		       double t0, struct part_stats *st)
{
	if (!st)
		return;
	st->v_local = nlocal(p, i);
	st->v_ind = c->v_ind;
	st->e_ind = c->e_ind;
	st->v_res = c->nkept;
	st->e_res = ne;
	st->bytes = tsg_dag_bytes(c->nkept, ne, nlocal(p, i));
	st->seconds = tsg_now() - t0;
}

int part_measure(struct part_plan *p, uint32_t i, struct part_stats *st, struct tsg_err *err)
{
	struct bctx c;
	double t0 = tsg_now();
	int rc = select_part(p, i, 0, &c, err);
	if (rc == TSG_OK)
		fill_stats(p, i, &c, sum_outdeg(p, c.nkept), t0, st);
	clear_part(p, &c);
	return rc;
}

int part_build(struct part_plan *p, uint32_t i, part_alloc_fn alloc, void *alloc_ctx,
	       int want_ind, struct tsg_dag *dag, struct part_stats *st, struct tsg_err *err)
{
	struct bctx c;
	double t0 = tsg_now();
	memset(dag, 0, sizeof(*dag));
	int rc = select_part(p, i, want_ind, &c, err);
	if (rc)
		goto done;
	uint64_t ne = sum_outdeg(p, c.nkept), nsrc = nlocal(p, i);
	uint64_t bytes = tsg_dag_bytes(c.nkept, ne, nsrc) + (p->o.want_gid ? c.nkept * 4 : 0);
	uint8_t *mem = alloc(alloc_ctx, bytes);
	if (!mem) {
		char b[32];
		rc = tsg_fail(err, TSG_ENOMEM, "cannot allocate %s for partition %u",
			      tsg_fmt_bytes(bytes, b, sizeof(b)), i);
		goto done;
	}
	c.off = (uint64_t *)mem;
	c.adj = (uint32_t *)(mem + (c.nkept + 1) * 8);
	c.src = c.adj + ne;
	c.off[0] = 0;
	for (uint64_t k = 0; k < c.nkept; k++)
		c.off[k + 1] = c.off[k] + p->outdeg[k];
	tsg_parallel_for(p->o.threads, c.nkept, GRAIN,
			 p->o.prune == PART_PRUNE_CLOSED ? closed_fill_out : fill_out, &c);
	tsg_parallel_for(p->o.threads, nsrc, GRAIN * 16, fill_src, &c);
	*dag = (struct tsg_dag){ .nv = (uint32_t)c.nkept, .nsrc = (uint32_t)nsrc, .ne = ne,
				 .max_out = (uint32_t)atomic_load(&c.max_out), .off = c.off,
				 .adj = c.adj, .src = c.src };
	if (p->o.want_gid) { /* kept[] is the part's local -> global map */
		dag->gid = c.src + nsrc;
		memcpy(dag->gid, p->kept, c.nkept * 4);
	}
	fill_stats(p, i, &c, ne, t0, st);
done:
	clear_part(p, &c);
	return rc;
}

/* ---- planning */

uint64_t part_plan_digest(const struct part_plan *p)
{
	const uint64_t head[2] = { p->nparts, p->bounds ? 1 : 2 };
	const uint64_t body = p->bounds ? io_checksum(p->bounds, ((size_t)p->nparts + 1) * 8)
					: io_checksum(p->part_of, p->g->nv * 4);
	return io_checksum(head, sizeof(head)) ^ body;
}

void part_plan_free(struct part_plan *p)
{
	if (!p)
		return;
	part_plan_forget_recipes(p);
	free(p->bounds);
	free(p->part_of);
	free(p->mstart);
	free(p->members);
	free(p->mark);
	free(p->newid);
	free(p->kept);
	free(p->outdeg);
	free(p->chunk);
	free(p->ooff);
	free(p->roff);
	free(p->radj);
	free(p->rank);
	free(p->idof);
	free(p->emark);
	free(p->tbits);
	free(p);
}

static int assign(struct part_plan *p, uint32_t nparts, struct tsg_err *err)
{
	switch (p->o.scheme) {
	case PART_HASH: return assign_hash(p, nparts, err);
	case PART_METIS: return assign_metis(p, nparts, err);
	default: return assign_ranges(p, nparts, err);
	}
}

/* What a part of nsrc locals, nkept vertices and ne edges takes on the
 * device: its arrays and the kernel's scratch (ne bounds the entries of
 * the local rows). */
static uint64_t unit_cost(const struct part_plan *p, uint64_t nsrc, uint64_t nkept, uint64_t ne)
{
	return tsg_dag_bytes(nkept, ne, nsrc) + tsg_scratch_bytes(&p->o.scratch, nsrc, nkept, ne);
}

static uint64_t part_cost(const struct part_plan *p, const struct part_stats *st)
{
	return unit_cost(p, st->v_local, st->v_res, st->e_res);
}

/* The cost of the whole graph as one part pruned local: every vertex a
 * source, every edge kept. */
static uint64_t whole_bytes(const struct part_plan *p)
{
	return unit_cost(p, p->g->nv, p->g->nv, p->g->nadj / 2);
}

/* The error for a vertex whose part alone is over the budget. */
static int alone_over_budget(const struct part_plan *p, uint64_t v, struct tsg_err *err)
{
	char b[32];
	return tsg_fail(err, TSG_ENOMEM, "vertex %llu (degree %llu) alone needs more than the "
			"partition budget of %s: raise --gpu-mem", (unsigned long long)v,
			(unsigned long long)deg(p->g->off, (uint32_t)v),
			tsg_fmt_bytes(p->o.budget, b, sizeof(b)));
}

enum { COST_UNKNOWN = 0 }; /* a measured part costs at least its offsets' bytes */

/* Splits every range over budget into ceil(cost / budget) ranges of about
 * equal edges (a part's cost falls more slowly than its share of edges, so
 * this is the fewest that can fit); fails if an over-budget range is a
 * single vertex. Ranges kept whole keep their measured cost in *cost. */
static int split_ranges(struct part_plan *p, uint64_t **cost, struct tsg_err *err)
{
	const struct tsg_graph *g = p->g;
	const uint64_t *c = *cost, budget = p->o.budget;
	uint64_t add = 0;
	for (uint32_t i = 0; i < p->nparts; i++)
		if (c[i] > budget) {
			const uint64_t n = p->bounds[i + 1] - p->bounds[i], want = c[i] / budget + 1;
			add += (want < n ? want : n) - 1;
		}
	if (p->nparts + add > UINT32_MAX - 1)
		return tsg_fail(err, TSG_ENOMEM, "more than 2^32 parts would be needed: raise "
				"--gpu-mem");
	const uint64_t total = p->nparts + add;
	uint64_t *nb = malloc((total + 1) * sizeof(*nb)), *nc = calloc(total, sizeof(*nc));
	if (!nb || !nc) {
		free(nb);
		free(nc);
		return tsg_fail(err, TSG_ENOMEM, "out of memory planning parts");
	}
	uint32_t k = 0;
	for (uint32_t i = 0; i < p->nparts; i++) {
		const uint64_t lo = p->bounds[i], hi = p->bounds[i + 1];
		nc[k] = c[i];
		nb[k++] = lo;
		if (c[i] <= budget)
			continue;
		if (hi - lo < 2) {
			free(nb);
			free(nc);
			return alone_over_budget(p, lo, err);
		}
		uint64_t want = c[i] / budget + 1, at = lo;
		want = want < hi - lo ? want : hi - lo;
		nc[k - 1] = COST_UNKNOWN;
		for (uint64_t j = 1; j < want; j++) { /* the first vertex at j/want of the edges */
			const uint64_t target = g->off[lo] + (g->off[hi] - g->off[lo]) * j / want;
			uint64_t mid = at + 1;
			while (mid < hi - (want - j) && g->off[mid] < target)
				mid++;
			nc[k] = COST_UNKNOWN;
			nb[k++] = at = mid;
		}
	}
	nb[k] = g->nv;
	free(p->bounds);
	free(*cost);
	p->bounds = nb;
	p->nparts = k;
	*cost = nc;
	return TSG_OK;
}

static int plan_auto(struct part_plan *p, struct tsg_err *err)
{
	const struct tsg_graph *g = p->g;
	const uint64_t whole = whole_bytes(p);
	uint64_t np = p->o.budget ? (whole + p->o.budget - 1) / p->o.budget : 1;
	np = np < p->o.min_parts ? p->o.min_parts : np;
	np = np < 1 ? 1 : np > g->nv && g->nv > 0 ? g->nv : np;
	if (np == 1 && p->o.prune == PART_PRUNE_LOCAL) {
		/* one part pruned local keeps every vertex and edge: its cost is
		 * whole, known without a pass */
		p->max_bytes = whole;
		return assign(p, 1, err);
	}
	int rc = assign(p, (uint32_t)np, err);
	uint64_t *cost = rc ? NULL : calloc(p->nparts, sizeof(*cost));
	if (rc == TSG_OK && !cost)
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory planning parts");
	while (rc == TSG_OK) {
		uint32_t nover = 0;
		p->max_bytes = 0;
		for (uint32_t i = 0; i < p->nparts && rc == TSG_OK; i++) {
			if (cost[i] == COST_UNKNOWN) { /* only new parts are measured */
				struct part_stats st;
				rc = part_measure(p, i, &st, err);
				cost[i] = part_cost(p, &st);
			}
			p->max_bytes = cost[i] > p->max_bytes ? cost[i] : p->max_bytes;
			nover += cost[i] > p->o.budget;
		}
		if (rc || nover == 0)
			break;
		if (!p->bounds) { /* hash, metis: more parts, assigned afresh */
			if ((uint64_t)p->nparts * 2 > g->nv * 2 || p->nparts > UINT32_MAX / 2) {
				rc = tsg_fail(err, TSG_ENOMEM, "no %s partitioning fits the budget; "
					      "raise --gpu-mem or use --scheme edge",
					      part_scheme_name(p->o.scheme));
				break;
			}
			rc = assign(p, p->nparts * 2, err);
			free(cost);
			cost = rc ? NULL : calloc(p->nparts, sizeof(*cost));
			if (rc == TSG_OK && !cost)
				rc = tsg_fail(err, TSG_ENOMEM, "out of memory planning parts");
		} else {
			rc = split_ranges(p, &cost, err);
		}
	}
	free(cost);
	return rc;
}

/* ---- the greedy plan for PART_PRUNE_CLOSED ranges */

struct greedy {
	struct part_plan *p;
	uint64_t lo;                 /* the chunk's first local */
	struct closed_track *track;  /* per thread */
	size_t *mark_at;             /* per thread: its journal's length before the chunk */
};

static void greedy_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	struct greedy *gr = arg;
	struct part_plan *p = gr->p;
	uint64_t *in = thread_bits(p, tid), *hit = in + p->g->nv / 64 + 1;
	for (uint64_t k = b; k < e; k++)
		closed_source(p, (uint32_t)(gr->lo + k), in, hit, &gr->track[tid]);
}

/* Undoes a thread's journal from entry `from` on. */
static void greedy_undo(struct part_plan *p, struct closed_track *t, size_t from)
{
	for (size_t k = from; k < t->n; k++) {
		const uint64_t e = t->log[k];
		if (e & 1)
			atomic_fetch_and_explicit(&p->mark[e >> 1], (uint8_t)~MARK_KEEP,
						  memory_order_relaxed);
		else
			atomic_fetch_and_explicit(&p->emark[e >> 7], ~(1ull << (e >> 1 & 63)),
						  memory_order_relaxed);
	}
	t->n = from;
}

/* Every thread's journal undone at once, back to mark_at (the chunk) or
 * to 0 (the part): the journals hold a part's every edge and vertex, too
 * many to undo on one thread while the others wait. */
struct undo_ctx {
	struct greedy *gr;
	int whole;
};

static void undo_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct undo_ctx *u = arg;
	for (uint64_t t = b; t < e; t++)
		greedy_undo(u->gr->p, &u->gr->track[t], u->whole ? 0 : u->gr->mark_at[t]);
}

static void greedy_undo_all(struct greedy *gr, int whole)
{
	const struct undo_ctx u = { .gr = gr, .whole = whole };
	tsg_parallel_for(gr->p->o.threads, gr->p->o.threads, 1, undo_range, (void *)&u);
}

/* Host memory the plan's recipes may take: as much again as the graph's
 * lists. Past it a part is built by listing its triangles again. */
#define PART_RECIPE_ROOM(g) ((g)->nadj * 4 + ((g)->nv + 1) * 8)

struct copy_words {
	uint64_t *dst;
	const _Atomic uint64_t *src;
};

static void copy_words_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct copy_words *c = arg;
	for (uint64_t w = b; w < e; w++)
		c->dst[w] = atomic_load_explicit(&c->src[w], memory_order_relaxed);
}

/* A copy of emark's words, the part's edges as it closes, if room (bytes)
 * holds it and memory allows; else NULL (the build lists the part again). */
static uint64_t *keep_recipe(const struct part_plan *p, uint64_t words, uint64_t room)
{
	if (words * 8 > room)
		return NULL;
	struct copy_words c = { .dst = malloc(words * 8), .src = p->emark };
	if (c.dst)
		tsg_parallel_for(p->o.threads, words, SCAN_CHUNK, copy_words_range, &c);
	return c.dst;
}

/* Where a part starting at local `start` reaches `share` oriented edges:
 * the first v > start with ooff[v] - ooff[start] >= share, or nv. */
static uint64_t share_end(const struct part_plan *p, uint64_t start, uint64_t share)
{
	const uint64_t nv = p->g->nv;
	if (share == UINT64_MAX || start >= nv || p->ooff[nv] - p->ooff[start] < share)
		return nv;
	uint64_t lo = start + 1, hi = nv; /* ooff[hi] - ooff[start] >= share */
	while (lo < hi) {
		const uint64_t mid = lo + (hi - lo) / 2;
		if (p->ooff[mid] - p->ooff[start] >= share)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Ranges for PART_PRUNE_CLOSED in one pass over the triangles. A part's
 * cost grows with each local by what its triangles add and no other part
 * changes it, so the plan fills a range chunk by chunk, counting the edges
 * and vertices each chunk marks new (exact), until the budget is nearly
 * met: each chunk aims at 90% of the room left at the rate the part has
 * added so far (a part's cost grows more slowly than its locals, as their
 * hubs are shared, so the aim rarely overshoots); a chunk that overshoots
 * is undone from the journal and retried at half. A part closes within 2%
 * of the budget, or where one more vertex would not fit. Against planning
 * by measuring parts and splitting (plan_auto), which lists the triangles
 * again each round, this lists them about once.
 */
static int plan_closed(struct part_plan *p, struct tsg_err *err)
{
	const uint64_t nv = p->g->nv, budget = p->o.budget;
	const unsigned threads = p->o.threads;
	struct greedy gr = { .p = p };
	uint64_t *bounds = NULL, nb = 0, cap = 0, **recipe = NULL;
	const uint64_t words = p->ooff[nv] / 64 + 1;
	uint64_t room_left = PART_RECIPE_ROOM(p->g);
	int rc = TSG_OK;
	gr.track = calloc(threads, sizeof(*gr.track));
	gr.mark_at = calloc(threads, sizeof(*gr.mark_at));
	if (!gr.track || !gr.mark_at) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory planning parts");
		goto done;
	}
	p->max_bytes = 0;
	const uint64_t empty = unit_cost(p, 0, 0, 0);
	/* min_parts: a part also closes at its share of the oriented edges */
	const uint64_t share = p->o.min_parts > 1 ? p->ooff[nv] / p->o.min_parts + 1 : UINT64_MAX;
	uint64_t start = 0, v = 0, step = 64, nkept = 0, ne = 0, cost = empty;
	uint64_t lim = share_end(p, 0, share);
	while (start < nv || nb == 0) {
		int close = v == nv;
		if (!close) {
			const uint64_t end = v + step < lim ? v + step : lim;
			uint64_t dk = 0, de = 0;
			int oom = 0;
			for (unsigned t = 0; t < threads; t++) {
				gr.mark_at[t] = gr.track[t].n;
				gr.track[t].new_edges = gr.track[t].new_kept = 0;
			}
			gr.lo = v;
			const uint64_t n = end - v, grain = n / (threads * 8ull) + 1;
			tsg_parallel_for(threads, n, grain, greedy_range, &gr);
			for (unsigned t = 0; t < threads; t++) {
				dk += gr.track[t].new_kept;
				de += gr.track[t].new_edges;
				oom |= gr.track[t].oom;
			}
			if (oom) {
				rc = tsg_fail(err, TSG_ENOMEM, "out of memory planning parts");
				goto done;
			}
			const uint64_t c = unit_cost(p, end - start, nkept + dk, ne + de);
			if (c <= budget) {
				nkept += dk;
				ne += de;
				cost = c;
				v = end;
				const uint64_t room = budget - cost;
				close = v == nv || v == lim || room < budget / 50;
				/* the rate so far (cost per local) aims the next chunk */
				const double rate = (double)(cost - empty) / (double)(v - start);
				step = rate > 0 ? (uint64_t)(0.9 * (double)room / rate) : step * 2;
				step = step ? step : 1;
			} else {
				greedy_undo_all(&gr, 0);
				if (n > 1) {
					step = n / 2;
					continue;
				}
				if (v == start) {
					rc = alone_over_budget(p, v, err);
					goto done;
				}
				close = 1;
			}
		}
		if (!close)
			continue;
		if (nb == cap) {
			cap = cap ? cap * 2 : 64;
			uint64_t *nbounds = realloc(bounds, (cap + 1) * sizeof(*nbounds));
			if (nbounds)
				bounds = nbounds;
			uint64_t **nrecipe = realloc(recipe, cap * sizeof(*nrecipe));
			if (nrecipe)
				recipe = nrecipe;
			if (!nbounds || !nrecipe) {
				rc = tsg_fail(err, TSG_ENOMEM, "out of memory planning parts");
				goto done;
			}
		}
		if (nb >= UINT32_MAX - 1) {
			rc = tsg_fail(err, TSG_ENOMEM, "more than 2^32 parts would be needed: raise "
				      "--gpu-mem");
			goto done;
		}
		recipe[nb] = keep_recipe(p, words, room_left);
		room_left -= recipe[nb] ? words * 8 : 0;
		bounds[nb++] = start;
		p->max_bytes = cost > p->max_bytes ? cost : p->max_bytes;
		greedy_undo_all(&gr, 1); /* clear the part's marks */
		/* the next part starts where this one's rate left off */
		step = v > start ? (v - start) / 2 + 1 : 64;
		start = v;
		lim = share_end(p, start, share);
		nkept = ne = 0;
		cost = empty;
		if (start == nv)
			break;
	}
	bounds[nb] = nv;
	free(p->bounds);
	p->bounds = bounds;
	p->nparts = (uint32_t)nb;
	p->recipe = recipe;
	p->recipe_bytes = PART_RECIPE_ROOM(p->g) - room_left;
	bounds = NULL;
	recipe = NULL;
done:
	for (uint64_t i = 0; recipe && i < nb; i++)
		free(recipe[i]);
	free(recipe);
	if (gr.track)
		greedy_undo_all(&gr, 1);
	for (unsigned t = 0; gr.track && t < threads; t++)
		free(gr.track[t].log);
	free(gr.track);
	free(gr.mark_at);
	free(bounds);
	return rc;
}

int part_plan_new(const struct tsg_graph *g, const struct part_opts *o, struct part_plan **out,
		  struct tsg_err *err)
{
	int rc = TSG_OK;
	struct part_plan *p = calloc(1, sizeof(*p));
	const uint64_t nv = g->nv, nchunks = (nv + SCAN_CHUNK - 1) / SCAN_CHUNK + 1;
	*out = NULL;
	if (!p)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	p->g = g;
	p->o = *o;
	if (p->o.threads == 0)
		p->o.threads = tsg_default_threads();
	p->mark = calloc(nv + 1, 1);
	p->newid = malloc((nv + 1) * sizeof(*p->newid));
	p->kept = malloc((nv + 1) * sizeof(*p->kept));
	p->outdeg = malloc((nv + 1) * sizeof(*p->outdeg));
	p->chunk = malloc(nchunks * sizeof(*p->chunk));
	const int grouped = o->scheme == PART_HASH || o->scheme == PART_METIS;
	if (grouped) {
		p->part_of = malloc((nv + 1) * sizeof(*p->part_of));
		p->members = malloc((nv + 1) * sizeof(*p->members));
	}
	if (!p->mark || !p->newid || !p->kept || !p->outdeg || !p->chunk ||
	    (grouped && (!p->part_of || !p->members))) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for partitioning scratch (%llu "
			      "vertices)", (unsigned long long)nv);
		goto fail;
	}
	if (p->o.prune == PART_PRUNE_AUTO) {
		const int one = o->nparts == 1 ||
				(o->nparts == 0 && (!o->budget || whole_bytes(p) <= o->budget));
		p->o.prune = one && o->min_parts <= 1 ? PART_PRUNE_LOCAL : PART_PRUNE_CLOSED;
	}
	if (p->o.prune == PART_PRUNE_CLOSED && (rc = closed_prepare(p, err)))
		goto fail;
	if (o->nparts == 0 && o->budget && p->o.prune == PART_PRUNE_CLOSED &&
	    (o->scheme == PART_EDGE || o->scheme == PART_CONTIG))
		rc = plan_closed(p, err);
	else if (o->nparts == 0 && o->budget)
		rc = plan_auto(p, err);
	else
		rc = assign(p, o->nparts ? o->nparts : 1, err);
	if (rc)
		goto fail;
	*out = p;
	return TSG_OK;
fail:
	part_plan_free(p);
	return rc;
}

int part_source_stripes(struct tsg_dag *d, uint32_t pieces, uint32_t *cut, uint32_t *n,
			struct tsg_err *err)
{
	const uint32_t made = pieces < d->nsrc ? pieces : d->nsrc;
	*n = made;
	cut[0] = 0;
	if (made == 0)
		return TSG_OK;
	uint32_t *was = malloc((size_t)d->nsrc * sizeof(*was));
	if (!was)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	memcpy(was, d->src, (size_t)d->nsrc * sizeof(*was));
	uint32_t at = 0;
	for (uint32_t j = 0; j < made; j++) {
		for (uint64_t x = j; x < d->nsrc; x += made)
			d->src[at++] = was[x];
		cut[j + 1] = at;
	}
	free(was);
	return TSG_OK;
}
