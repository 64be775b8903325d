/*
 * ranges.c - each rank reads only the lists its units need (contract and
 * method: ranges.h).
 */
#include "src/ranges.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/check.h"
#include "partition/held.h"
#include "partition/rows.h"
#include "base/util.h"

int ranges_usable(const struct tsg_graph *g, const struct engine_opts *o, char *why,
		  size_t len)
{
	const char *no = o->nranks <= 1 ? "one rank reads every list"
			 : !g->lists_pending || (!g->file && !g->lists_src)
				 ? "the lists were already in memory"
			 : g->lists_src && !io_graph_degrees_pending(g) ? "a crawl is decoded whole"
									  : NULL;
	snprintf(why, len, "%s", no ? no : "");
	return no == NULL;
}

/* p, the side of the least square grid of at least R ranks. */
static uint32_t grid_side(uint32_t nranks)
{
	uint32_t p = 1;
	while (p * p < nranks)
		p++;
	return p;
}

/* An automatic plan's unit budget when ranks read by ranges: a unit's rows
 * are what its rank must read, and a budget that holds the whole graph
 * makes one source block's middle range every row above it (measured on
 * an H100, R-MAT 22 renumbered, 9 ranks, 4 GiB budgets: some rank read
 * every list). So a unit keeps to 1/(2p) of the oriented graph, p the
 * side of a square grid of R ranks (TRUST's 2D partitions), and a rank's
 * units can share about 2/p of the rows (docs/SCALING.md). Smaller units
 * cost copies of source blocks on a GPU: the price of reading less. */
static uint64_t ranges_unit_budget(const struct block_opts *bo, const struct part_odag *d,
				   uint32_t nranks)
{
	const uint32_t p = grid_side(nranks);
	/* the rows' share, and the kernel's fixed scratch on top: a graph
	 * smaller than 2p times that scratch (a 5,000-vertex star on two
	 * GPUs) once left a budget below the scratch alone, and failed */
	const uint64_t share = part_odag_bytes(d->nv, d->ne) / (2 * p) + bo->scratch.fixed;
	if (bo->budget == 0 || p == 1)
		return bo->budget;
	return share < bo->budget ? share : bo->budget;
}

/* The deal of ranges.h step 3. Rows are grouped into atoms, the stretches
 * of ranks between any two unit bounds, so that what a rank already needs
 * is a set of atoms and a unit's new bytes are a sum over its atoms. */
struct deal {
	uint32_t natoms;
	uint32_t *at;          /* natoms + 1 bounds, increasing */
	uint64_t *bytes;       /* each atom's list bytes */
	uint8_t *have;         /* nranks * natoms: atoms a rank needs already */
};

static uint32_t atom_of(const struct deal *x, uint32_t r) /* the atom starting at rank r */
{
	uint32_t lo = 0, hi = x->natoms;
	while (lo < hi) {
		const uint32_t mid = lo + (hi - lo) / 2;
		if (x->at[mid] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int cmp_u32(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

struct item {
	uint64_t cost;
	uint32_t k;
};

static int cmp_item(const void *a, const void *b) /* costliest first, then by index */
{
	const struct item *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	return (x->k > y->k) - (x->k < y->k);
}

/* The atoms of unit u, source block then middle range (the first middle
 * range contains its source block: its atoms are taken once). */
static void unit_atoms(const struct deal *x, const struct block_unit *u, uint32_t s[2],
		       uint32_t m[2])
{
	s[0] = atom_of(x, u->src_lo);
	s[1] = atom_of(x, u->src_hi);
	m[0] = atom_of(x, u->mid_lo);
	m[1] = atom_of(x, u->mid_hi);
	if (m[0] < s[1] && m[1] > s[0]) { /* overlapping: one span */
		s[0] = s[0] < m[0] ? s[0] : m[0];
		s[1] = s[1] > m[1] ? s[1] : m[1];
		m[0] = m[1] = s[1];
	}
}

static uint64_t new_bytes(const struct deal *x, const uint8_t *have, const uint32_t s[2],
			  const uint32_t m[2])
{
	uint64_t b = 0;
	for (uint32_t a = s[0]; a < s[1]; a++)
		b += have[a] ? 0 : x->bytes[a];
	for (uint32_t a = m[0]; a < m[1]; a++)
		b += have[a] ? 0 : x->bytes[a];
	return b;
}

static int deal_near(const struct tsg_graph *g, const uint32_t *rank, const struct block_plan *p,
		     const uint64_t *cost, uint32_t nranks, uint32_t *owner, struct tsg_err *err)
{
	const uint32_t n = p->nunits;
	struct deal x = { 0 };
	struct item *it = malloc((n ? n : 1) * sizeof(*it));
	uint64_t *load = calloc(nranks, sizeof(*load));
	uint64_t *got = calloc(nranks, sizeof(*got)); /* list bytes each rank's units hold */
	uint64_t *deg = calloc(g->nv + 1, sizeof(*deg)); /* list entries by rank, summed */
	x.at = malloc(((uint64_t)4 * n + 2) * sizeof(*x.at));
	int rc = TSG_OK;
	if (!it || !load || !got || !deg || !x.at) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory dealing units to ranks");
		goto done;
	}
	for (uint64_t v = 0; v < g->nv; v++)
		deg[rank[v] + 1] = io_graph_degree(g, v);
	for (uint64_t r = 0; r < g->nv; r++)
		deg[r + 1] += deg[r];
	uint32_t nb = 0;
	x.at[nb++] = 0;
	x.at[nb++] = (uint32_t)g->nv;
	for (uint32_t k = 0; k < n; k++) {
		const struct block_unit *u = &p->units[k];
		x.at[nb++] = u->src_lo;
		x.at[nb++] = u->src_hi;
		x.at[nb++] = u->mid_lo;
		x.at[nb++] = u->mid_hi;
	}
	qsort(x.at, nb, sizeof(*x.at), cmp_u32);
	uint32_t na = 0;
	for (uint32_t i = 0; i < nb; i++)
		if (i == 0 || x.at[i] != x.at[na - 1])
			x.at[na++] = x.at[i];
	x.natoms = na - 1;
	x.bytes = malloc((x.natoms ? x.natoms : 1) * sizeof(*x.bytes));
	x.have = calloc((uint64_t)nranks * (x.natoms ? x.natoms : 1), 1);
	if (!x.bytes || !x.have) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory dealing units to ranks");
		goto done;
	}
	for (uint32_t a = 0; a < x.natoms; a++)
		x.bytes[a] = (deg[x.at[a + 1]] - deg[x.at[a]]) * 4;
	uint64_t total = 0;
	for (uint32_t k = 0; k < n; k++) {
		it[k] = (struct item){ cost[k] + 1, k }; /* + 1: empty units spread too */
		total += it[k].cost;
	}
	qsort(it, n, sizeof(*it), cmp_item);
	const uint64_t cap = (uint64_t)((double)total / nranks * (1.0 + RANGES_SLACK));
	uint64_t most = 0; /* the busiest rank's bytes so far */
	for (uint32_t i = 0; i < n; i++) {
		const struct block_unit *u = &p->units[it[i].k];
		uint32_t s[2], m[2], best = UINT32_MAX, least = 0;
		uint64_t best_key[2] = { 0, 0 }, best_new = 0;
		unit_atoms(&x, u, s, m);
		for (uint32_t q = 0; q < nranks; q++) {
			least = load[q] < load[least] ? q : least;
			if (load[q] + it[i].cost > cap && load[q] > 0)
				continue;
			/* a rank that stays within the busiest's bytes first, by the
			 * fewest new bytes; else the fewest bytes in all; then load */
			const uint64_t b = new_bytes(&x, x.have + (uint64_t)q * x.natoms, s, m);
			const uint64_t over = got[q] + b > most;
			const uint64_t key[2] = { over, over ? got[q] + b : b };
			if (best == UINT32_MAX || key[0] < best_key[0] ||
			    (key[0] == best_key[0] && (key[1] < best_key[1] ||
			     (key[1] == best_key[1] && load[q] < load[best])))) {
				best = q;
				best_key[0] = key[0];
				best_key[1] = key[1];
				best_new = b;
			}
		}
		const uint32_t q = best == UINT32_MAX ? least : best;
		if (best == UINT32_MAX)
			best_new = new_bytes(&x, x.have + (uint64_t)q * x.natoms, s, m);
		owner[it[i].k] = q;
		load[q] += it[i].cost;
		got[q] += best_new;
		most = got[q] > most ? got[q] : most;
		uint8_t *h = x.have + (uint64_t)q * x.natoms;
		memset(h + s[0], 1, s[1] - s[0]);
		memset(h + m[0], 1, m[1] - m[0]);
	}
done:
	free(it);
	free(load);
	free(got);
	free(deg);
	free(x.at);
	free(x.bytes);
	free(x.have);
	return rc;
}

/* Appends b .. e-1 to the runs, joined to the last one if the list bytes
 * between them are fewer than RANGES_GAP and none of them is held (the
 * slice: lists are read once). */
static int add_run(const struct tsg_graph *g, const struct io_vrange *held,
		   struct io_vrange **runs, uint64_t *n, uint64_t *cap, uint64_t b, uint64_t e)
{
	const uint64_t last = *n ? (*runs)[*n - 1].e : 0;
	if (*n && (g->off[b] - g->off[last]) * 4 < RANGES_GAP &&
	    (held->e <= last || held->b >= b || held->b == held->e)) {
		(*runs)[*n - 1].e = e;
		return 0;
	}
	if (*n == *cap) {
		const uint64_t c = *cap ? 2 * *cap : 1024;
		struct io_vrange *p = realloc(*runs, c * sizeof(*p));
		if (!p)
			return -1;
		*runs = p;
		*cap = c;
	}
	(*runs)[(*n)++] = (struct io_vrange){ b, e };
	return 0;
}

/* The vertices (by id, in runs) whose rows this rank's units hold and
 * that it does not hold yet; need gets, by rank, 1 for each row its
 * units hold. */
static int rows_to_read(const struct tsg_graph *g, const uint32_t *rank,
			const struct block_plan *p, const uint32_t *owner, uint32_t me,
			const struct io_vrange *mine, const uint8_t *held, uint8_t *need,
			struct io_vrange **runs, uint64_t *nruns)
{
	const uint64_t nv = g->nv;
	int32_t *diff = calloc(nv + 1, sizeof(*diff)); /* + at lo, - at hi */
	uint64_t cap = 0;
	if (!diff)
		return -1;
	for (uint32_t k = 0; k < p->nunits; k++) {
		if (owner[k] != me)
			continue;
		const struct block_unit *u = &p->units[k];
		diff[u->src_lo]++;
		diff[u->src_hi]--;
		diff[u->mid_lo]++;
		diff[u->mid_hi]--;
	}
	int64_t run = 0;
	for (uint64_t r = 0; r < nv; r++) {
		run += diff[r];
		need[r] = run > 0;
	}
	free(diff);
	*runs = NULL;
	*nruns = 0;
	for (uint64_t v = 0; v < nv;) {
		if (!need[rank[v]] || held[rank[v]]) {
			v++;
			continue;
		}
		uint64_t e = v + 1;
		while (e < nv && need[rank[e]] && !held[rank[e]])
			e++;
		if (add_run(g, mine, runs, nruns, &cap, v, e))
			return -1;
		v = e;
	}
	return 0;
}

int ranges_slices(struct tsg_graph *g, const struct engine_opts *o, enum dist_group grp,
		  uint32_t n, uint32_t me, struct ranges_slices *s, struct tsg_err *err)
{
	const uint64_t nv = g->nv;
	const unsigned threads = o->threads ? o->threads : 1;
	struct tsg_dist *dist = o->dist;
	uint64_t sums[2] = { 0, 0 };
	int rc = TSG_OK;
	*s = (struct ranges_slices){ .rank = malloc((nv ? nv : 1) * sizeof(*s->rank)),
				     .outdeg = malloc((nv ? nv : 1) * sizeof(*s->outdeg)),
				     .cut = malloc(((uint64_t)n + 1) * sizeof(*s->cut)) };
	if (!s->rank || !s->outdeg || !s->cut)
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory ranking %llu vertices",
			      (unsigned long long)nv);
	if (rc == TSG_OK) { /* this rank's slice, its degrees */
		io_graph_cut_lists(g, n, s->cut);
		s->mine = (struct io_vrange){ s->cut[me], s->cut[me + 1] };
		rc = io_graph_read_slice(g, s->mine.b, s->mine.e, s->outdeg + s->mine.b, sums,
					 &s->sym, &s->bytes, err);
	}
	if (io_graph_degrees_pending(g)) { /* a crawl: degrees known once every slice is */
		if ((rc = dist_agree(dist, rc, err)))
			return rc;
		dist_allgather_u32(dist, grp, s->outdeg, s->cut);
		dist_sum_mod_u64(dist, grp, sums, 2);
		rc = io_graph_place_slice(g, s->outdeg, sums, s->mine.b, s->mine.e, &s->sym, err);
	}
	if (rc == TSG_OK && part_rank(g, threads, s->rank, NULL) != 0)
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory ranking %llu vertices",
			      (unsigned long long)nv);
	if (rc == TSG_OK) /* and its out-degrees */
		part_held_out_degrees(g, s->rank, s->mine.b, s->mine.e, threads,
				      s->outdeg + s->mine.b);
	if ((rc = dist_agree(dist, rc, err)))
		return rc;
	dist_allgather_u32(dist, grp, s->outdeg, s->cut);
	uint64_t sym = s->sym;
	dist_sum_mod_u64(dist, grp, &sym, 1);
	for (uint64_t v = 0; v < nv; v++) {
		s->ne += s->outdeg[v];
		s->max_out = s->outdeg[v] > s->max_out ? s->outdeg[v] : s->max_out;
	}
	/* the same verdicts on every rank of the group, from the same sums */
	if (sym != 0)
		return io_check_fail_symmetry(io_graph_name(g), err);
	if (s->ne != g->nadj / 2)
		return tsg_fail(err, TSG_EINPUT, "%s: the lists point up %llu times, not half of "
				"their %llu entries (file is corrupt)", io_graph_name(g),
				(unsigned long long)s->ne, (unsigned long long)g->nadj);
	return TSG_OK;
}

void ranges_slices_free(struct ranges_slices *s)
{
	free(s->rank);
	free(s->outdeg);
	free(s->cut);
	*s = (struct ranges_slices){ 0 };
}

int ranges_block_prepare(struct tsg_graph *g, const struct engine_opts *o,
			 const struct block_opts *bo, part_alloc_fn alloc, void *alloc_ctx,
			 struct part_odag *d, struct block_plan *plan, struct engine_result *r,
			 struct tsg_err *err)
{
	const uint64_t nv = g->nv;
	const uint32_t nranks = o->nranks, me = o->rank;
	const unsigned threads = o->threads ? o->threads : 1;
	struct tsg_dist *dist = o->dist;
	struct ranges_slices sl;
	uint8_t *held = calloc(nv ? nv : 1, 1), *need = calloc(nv ? nv : 1, 1);
	struct io_vrange *runs = NULL;
	uint64_t nruns = 0, *list_cum = NULL;
	double t0 = tsg_now();
	*d = (struct part_odag){ 0 };
	int rc = ranges_slices(g, o, DIST_ALL, nranks, me, &sl, err);
	if (rc == TSG_OK && (!held || !need))
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory ranking %llu vertices",
			      (unsigned long long)nv);
	if ((rc = dist_agree(dist, rc, err)))
		goto done;
	const uint32_t *rank = sl.rank;
	const uint64_t ne = sl.ne;
	struct io_vrange mine = sl.mine;
	void *mem = alloc(alloc_ctx, part_odag_bytes(nv, ne));
	if (!mem) {
		char b[32];
		rc = tsg_fail(err, TSG_ENOMEM, "cannot allocate %s for the oriented graph",
			      tsg_fmt_bytes(part_odag_bytes(nv, ne), b, sizeof(b)));
	} else {
		part_odag_place(d, mem, nv);
		part_held_offsets(nv, rank, sl.outdeg, threads, d);
		rc = part_held_fill(g, rank, &mine, 1, threads, d, held, err);
	}
	const double t1 = tsg_now();
	if (rc == TSG_OK && !(list_cum = calloc(nv + 1, sizeof(*list_cum))))
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory planning units");
	if (rc == TSG_OK) { /* step 2: the plan, and each unit's work summed */
		for (uint64_t v = 0; v < nv; v++) /* what a rank reads: whole lists */
			list_cum[rank[v] + 1] = g->off[v + 1] - g->off[v];
		for (uint64_t r = 0; r < nv; r++)
			list_cum[r + 1] += list_cum[r];
		rc = block_plan_new(d, &(struct block_opts){ .nblocks = bo->nblocks,
					   .budget = ranges_unit_budget(bo, d, nranks),
					   .min_units = bo->min_units, .threads = bo->threads,
					   .scratch = bo->scratch, .list_cum = list_cum,
					   .list_shares = nranks > 1 ? 2 * grid_side(nranks) : 0 },
				    plan, err);
	}
	if ((rc = dist_agree(dist, rc, err)))
		goto done;
	if (!dist_same_u64(dist, engine_block_plan_key(plan))) {
		rc = tsg_fail(err, TSG_EUSAGE, "the ranks planned different units (device memory "
			      "or options differ): give every rank the same --gpu-mem and "
			      "--partitions");
		goto done;
	}
	const uint32_t n = plan->nunits;
	plan->cost = calloc(n ? n : 1, sizeof(*plan->cost));
	plan->probes = calloc(n ? n : 1, sizeof(*plan->probes));
	r->owner = malloc((n ? n : 1) * sizeof(*r->owner));
	r->parts = calloc(n ? n : 1, sizeof(*r->parts));
	if (!plan->cost || !plan->probes || !r->owner || !r->parts)
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
	else
		block_plan_costs_held(d, plan, threads, held, plan->cost, plan->probes);
	if ((rc = dist_agree(dist, rc, err)) || (rc = dist_sum_u64(dist, plan->cost, n, err)) ||
	    (rc = dist_sum_u64(dist, plan->probes, n, err)))
		goto done;
	r->plan_s = tsg_now() - t1;
	/* steps 3 and 4: the deal, and the rest of this rank's rows */
	rc = deal_near(g, rank, plan, plan->cost, nranks, r->owner, err);
	if (rc == TSG_OK && rows_to_read(g, rank, plan, r->owner, me, &mine, held, need, &runs,
					   &nruns))
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory listing the rows to read");
	if (rc == TSG_OK)
		rc = io_graph_read_ranges(g, runs, nruns, &sl.sym, &sl.bytes, err);
	if (rc == TSG_OK)
		rc = part_held_fill(g, rank, runs, nruns, threads, d, held, err);
	uint64_t nheld = 0;
	for (uint64_t v = 0; v < nv && rc == TSG_OK; v++) {
		if (need[v] && !held[v]) /* a unit would count over a row never written */
			rc = tsg_fail(err, TSG_EINTERNAL, "row %llu of a unit here was not read",
				      (unsigned long long)v);
		nheld += held[v];
	}
	r->build_s = tsg_now() - t0 - r->plan_s;
	r->nblocks = plan->nsrc_blocks;
	r->ranges = (struct engine_ranges){ .used = 1, .read_bytes = sl.bytes,
					     .lists_bytes = g->compressed || g->lists_src
								    ? g->lists_sec.size : g->nadj * 4,
					     .rows_held = nheld };
done:
	free(list_cum);
	ranges_slices_free(&sl);
	free(held);
	free(need);
	free(runs);
	return rc; /* d->off, if set, is the caller's block to free */
}
