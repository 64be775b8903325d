/*
 * block.c - planning 2D units (the why and the proof are in block.h).
 *
 * All sizes come from the offsets alone: rows lo .. hi-1 take
 * 8 (hi - lo + 1) + 4 (off[hi] - off[lo]) bytes, monotone in hi, so the
 * longest range that fits a budget is one binary search.
 */
#include "partition/block.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct tsg_unit block_unit_of(const struct part_odag *d, const struct block_unit *b)
{
	return (struct tsg_unit){ .src_lo = b->src_lo, .src_hi = b->src_hi, .mid_lo = b->mid_lo,
				  .mid_hi = b->mid_hi, .nv = d->nv, .off = d->off, .adj = d->adj };
}

uint64_t block_unit_bytes(const struct part_odag *d, const struct block_unit *b,
			  const struct tsg_scratch *sc)
{
	const struct tsg_unit u = block_unit_of(d, b);
	uint64_t bytes = tsg_rows_bytes(d->off, b->mid_lo, b->mid_hi);
	if (sc)
		bytes += tsg_scratch_bytes(sc, b->src_hi - b->src_lo, b->mid_hi - b->mid_lo,
					   d->off[b->src_hi] - d->off[b->src_lo]);
	if (!tsg_unit_nested(&u))
		bytes += tsg_rows_bytes(d->off, b->src_lo, b->src_hi);
	return bytes;
}

void block_unit_stats(const struct part_odag *d, const struct block_unit *b,
		      struct part_stats *st)
{
	const struct tsg_unit u = block_unit_of(d, b);
	*st = (struct part_stats){ .v_local = b->src_hi - b->src_lo,
				   .v_res = b->mid_hi - b->mid_lo,
				   .e_res = d->off[b->mid_hi] - d->off[b->mid_lo],
				   .bytes = block_unit_bytes(d, b, NULL) };
	if (!tsg_unit_nested(&u)) {
		st->v_res += b->src_hi - b->src_lo;
		st->e_res += d->off[b->src_hi] - d->off[b->src_lo];
	}
}

/* The largest hi in [lo, nv] with rows lo .. hi-1 taking at most `avail`
 * bytes, where each row also costs `row` and each entry `entry` bytes more
 * (lo itself if nothing fits). */
static uint32_t extent(const struct part_odag *d, uint32_t lo, uint64_t avail, uint64_t row,
		       uint64_t entry)
{
	uint32_t a = lo, b = d->nv; /* the answer lies in [a, b] */
	while (a < b) {
		const uint32_t mid = a + (b - a + 1) / 2;
		if (tsg_rows_bytes(d->off, lo, mid) + row * (mid - lo) +
			    entry * (d->off[mid] - d->off[lo]) <= avail)
			a = mid;
		else
			b = mid - 1;
	}
	return a;
}

static int push(struct block_plan *p, uint32_t *cap, struct block_unit u, struct tsg_err *err)
{
	if (p->nunits == *cap) {
		const uint32_t ncap = *cap ? *cap * 2 : 64;
		struct block_unit *n = realloc(p->units, (size_t)ncap * sizeof(*n));
		if (!n)
			return tsg_fail(err, TSG_ENOMEM, "out of memory planning %u units", ncap);
		p->units = n;
		*cap = ncap;
	}
	p->units[p->nunits++] = u;
	return TSG_OK;
}

static int too_big(const struct part_odag *d, uint32_t r, uint64_t budget, struct tsg_err *err)
{
	char b[32];
	return tsg_fail(err, TSG_ENOMEM, "the out-list of rank %u (%llu edges) and its source block "
			"do not fit a unit budget of %s: raise --gpu-mem", r,
			(unsigned long long)(d->off[r + 1] - d->off[r]),
			tsg_fmt_bytes(budget, b, sizeof(b)));
}

/* The first of cut[0 .. n) above x, or nv (cut increasing; x < nv). */
static uint32_t cut_after(const uint32_t *cut, uint32_t n, uint32_t x, uint32_t nv)
{
	const uint64_t i = n ? tsg_lower_bound_u32(cut, 0, n, x + 1) : 0;
	return i < n ? cut[i] : nv;
}

/* The first rank whose row is not empty; 0 where no row has an entry.
 * Ranks go up with degree, so isolated vertices come first (half of R-MAT
 * 26's ids); a unit over them counts nothing, and no middle row below it
 * has an edge into it: a -> b with b below it would need a's row, below
 * b, not empty. */
static uint32_t first_row(const struct part_odag *d)
{
	if (d->nv == 0 || d->off[d->nv] == 0)
		return 0; /* no edges: the plan's units as before, all empty */
	/* the first r with off[r + 1] > 0 */
	return (uint32_t)tsg_lower_bound_u64(d->off, 1, (uint64_t)d->nv + 1, 1) - 1;
}

/* Units within the budget, source blocks as long as src_eighths / 8 of it
 * allows and ending at every cut and every mcut (each increasing; none:
 * NULL, 0), middle ranges ending at every mcut too; from the first rank
 * with a row (first_row). */
static int plan_auto(const struct part_odag *d, const struct block_opts *o, const uint32_t *cut,
		     uint32_t ncut, const uint32_t *mcut, uint32_t nmcut, uint32_t src_eighths,
		     struct block_plan *p, struct tsg_err *err)
{
	const struct tsg_scratch *sc = &o->scratch;
	const uint64_t B = o->budget > sc->fixed ? o->budget - sc->fixed : 0;
	uint32_t cap = 0;
	int rc = TSG_OK;
	if (d->nv > 0 && o->budget <= sc->fixed) {
		char b[32], f[32];
		return tsg_fail(err, TSG_ENOMEM, "a unit budget of %s is below the kernel's fixed "
				"scratch of %s: raise --gpu-mem", tsg_fmt_bytes(o->budget, b, sizeof(b)),
				tsg_fmt_bytes(sc->fixed, f, sizeof(f)));
	}
	/* src_eighths / 8 of B, exactly B / 2 at 4 */
	const uint64_t share = B / 8 * src_eighths + B % 8 * src_eighths / 8;
	for (uint32_t s_lo = first_row(d); s_lo < d->nv && rc == TSG_OK;) {
		uint32_t s_hi = extent(d, s_lo, share, sc->per_src + sc->per_mid, sc->per_edge);
		if (s_hi == s_lo)
			s_hi = s_lo + 1; /* a row over the source share is a block of its own */
		const uint32_t c1 = cut_after(cut, ncut, s_lo, d->nv);
		const uint32_t c2 = cut_after(mcut, nmcut, s_lo, d->nv);
		s_hi = c1 < s_hi ? c1 : s_hi;
		s_hi = c2 < s_hi ? c2 : s_hi;
		/* what the source block costs besides the middle rows */
		const uint64_t s_extra = sc->per_src * (s_hi - s_lo) +
					 sc->per_edge * (d->off[s_hi] - d->off[s_lo]);
		const uint64_t s_bytes = tsg_rows_bytes(d->off, s_lo, s_hi) + s_extra;
		/* nested: the middle slice starts at s_lo and includes the source rows */
		uint32_t m_hi = extent(d, s_lo, B > s_extra ? B - s_extra : 0, sc->per_mid, 0);
		if (m_hi < s_hi)
			return too_big(d, s_lo, o->budget, err);
		const uint32_t m_cut = cut_after(mcut, nmcut, s_hi - 1, d->nv);
		m_hi = m_cut < m_hi ? m_cut : m_hi; /* still >= s_hi */
		rc = push(p, &cap, (struct block_unit){ s_lo, s_hi, s_lo, m_hi }, err);
		for (uint32_t m_lo = m_hi; m_lo < d->nv && rc == TSG_OK; m_lo = m_hi) {
			m_hi = extent(d, m_lo, B > s_bytes ? B - s_bytes : 0, sc->per_mid, 0);
			if (m_hi == m_lo)
				return too_big(d, m_lo, o->budget, err);
			const uint32_t mc = cut_after(mcut, nmcut, m_lo, d->nv);
			m_hi = mc < m_hi ? mc : m_hi; /* > m_lo */
			rc = push(p, &cap, (struct block_unit){ s_lo, s_hi, m_lo, m_hi }, err);
		}
		p->nsrc_blocks++;
		s_lo = s_hi;
	}
	return rc;
}

/* The first rank r with cum[r] >= goal (cum increasing, nv + 1 values). */
static uint32_t cum_find(const uint64_t *cum, uint32_t nv, uint64_t goal)
{
	return (uint32_t)tsg_lower_bound_u64(cum, 0, nv, goal);
}

/* Q blocks of about equal bytes (of the out-lists, or of the lists list_cum
 * counts), and every pair (i, j >= i) of them. */
static int plan_fixed(const struct part_odag *d, uint32_t q, const uint64_t *list_cum,
		      struct block_plan *p, struct tsg_err *err)
{
	uint32_t *bound = malloc(((size_t)q + 1) * sizeof(*bound)), cap = 0;
	int rc = TSG_OK;
	if (!bound)
		return tsg_fail(err, TSG_ENOMEM, "out of memory planning %u blocks", q);
	const uint64_t total = list_cum ? list_cum[d->nv] : tsg_rows_bytes(d->off, 0, d->nv);
	for (uint32_t k = 0; k <= q; k++) {
		const uint64_t goal = (uint64_t)((double)total * k / q);
		bound[k] = k == q ? d->nv : list_cum ? cum_find(list_cum, d->nv, goal)
						      : extent(d, 0, goal, 0, 0);
		if (k > 0 && bound[k] < bound[k - 1])
			bound[k] = bound[k - 1];
	}
	for (uint32_t i = 0; i < q && rc == TSG_OK; i++) {
		if (bound[i] == bound[i + 1])
			continue;
		p->nsrc_blocks++;
		for (uint32_t j = i; j < q && rc == TSG_OK; j++)
			if (bound[j] < bound[j + 1])
				rc = push(p, &cap, (struct block_unit){ bound[i], bound[i + 1], bound[j],
									 bound[j + 1] }, err);
	}
	free(bound);
	return rc;
}

static void plan_sizes(const struct part_odag *d, const struct tsg_scratch *sc,
		       struct block_plan *p)
{
	p->max_bytes = p->total_bytes = 0;
	for (uint32_t k = 0; k < p->nunits; k++) {
		const uint64_t b = block_unit_bytes(d, &p->units[k], sc);
		p->max_bytes = b > p->max_bytes ? b : p->max_bytes;
		p->total_bytes += b;
	}
}

/* A row's work as block_plan_costs counts it over all middle ranges:
 * n(n-1)/2 wedges and n records for an out-list of n. */
static uint64_t row_cost(const struct part_odag *d, uint32_t a)
{
	const uint64_t n = d->off[a + 1] - d->off[a];
	return n * (n - 1) / 2 + n;
}

enum { CUT_CHUNKS = 1024 };

struct cut_job {
	const struct part_odag *d;
	uint32_t per;      /* rows a chunk */
	uint64_t *sum;     /* CUT_CHUNKS: each chunk's cost */
};

static void cut_sum(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct cut_job *j = ctx;
	for (uint64_t c = b; c < e; c++) {
		const uint64_t lo = c * j->per, hi = lo + j->per < j->d->nv ? lo + j->per : j->d->nv;
		uint64_t s = 0;
		for (uint64_t a = lo; a < hi; a++)
			s += row_cost(j->d, (uint32_t)a);
		j->sum[c] = s;
	}
}

/* The share of the whole work below the k-th of cut_count(q) blocks'
 * ends (0 < k < cut_count(q)): block_opts.min_units' schedule (with even,
 * k / cut_count(q): block_opts.resident). Half of the
 * work in q/2 blocks of 1/q each, the next quarter in q/2 of 1/(2q), the
 * last quarter in q of 1/(4q). The queue of several GPUs takes the
 * costliest units first, so it ends on small ones, and an estimate that
 * is off (R-MAT 24 on two H100s: units of equal estimated wedges took 12
 * to 38 ms) leaves the GPUs at most a small unit apart rather than a
 * large one. The small blocks are the top ranks, whose middle rows (every
 * rank above the block) are the fewest bytes to copy. */
static double cut_goal(uint32_t q, uint32_t k, int even)
{
	const double h = q / 2.0;
	if (even)
		return k / (2.0 * q);
	if (k <= h)
		return k / (double)q;
	if (k <= q)
		return 0.5 + (k - h) / (2.0 * q);
	return 0.75 + (k - q) / (4.0 * q);
}

/* How many blocks min_units = q asks for (cut_goal). */
static uint32_t cut_count(uint32_t q)
{
	return 2 * q;
}

/* Cuts the ranks into up to cut_count(q) source blocks of the work shares
 * of cut_goal (row_cost; a block ends where the running sum passes its
 * goal, so none exceeds its share by more than one row's): the inner cuts
 * into cut, their number into *n. Chunk sums first, on every thread; then
 * only the chunks that hold a cut are walked. */
static int cost_cuts(const struct part_odag *d, uint32_t q, int even, unsigned threads,
		     uint32_t *cut, uint32_t *n, struct tsg_err *err)
{
	uint64_t *sum = calloc(CUT_CHUNKS, sizeof(*sum)), total = 0;
	if (!sum)
		return tsg_fail(err, TSG_ENOMEM, "out of memory planning units");
	struct cut_job j = { .d = d, .per = d->nv / CUT_CHUNKS + 1, .sum = sum };
	tsg_parallel_for(threads ? threads : 1, CUT_CHUNKS, 1, cut_sum, &j);
	for (uint32_t c = 0; c < CUT_CHUNKS; c++)
		total += sum[c];
	*n = 0;
	uint64_t before = 0; /* the work of the chunks before c */
	uint32_t c = 0;
	for (uint32_t k = 1; k < cut_count(q) && total; k++) {
		const uint64_t goal = (uint64_t)((double)total * cut_goal(q, k, even));
		while (c < CUT_CHUNKS && before + sum[c] < goal)
			before += sum[c++];
		if (c == CUT_CHUNKS)
			break;
		uint64_t run = before;
		uint32_t a = c * j.per;
		while (a < d->nv && run < goal)
			run += row_cost(d, a++);
		if (a > 0 && a < d->nv && (*n == 0 || cut[*n - 1] < a))
			cut[(*n)++] = a;
	}
	free(sum);
	return TSG_OK;
}

/* The inner cuts of q equal shares of list_cum, increasing, into cut;
 * their number into *n. */
static void list_cuts(const uint64_t *list_cum, uint32_t nv, uint32_t q, uint32_t *cut,
		      uint32_t *n)
{
	*n = 0;
	for (uint32_t k = 1; k < q; k++) {
		const uint32_t a = cum_find(list_cum, nv,
					    (uint64_t)((double)list_cum[nv] * k / q));
		if (a > 0 && a < nv && (*n == 0 || cut[*n - 1] < a))
			cut[(*n)++] = a;
	}
}

/* The most source entries any unit of p has. */
static uint64_t max_src_entries(const struct part_odag *d, const struct block_plan *p)
{
	uint64_t most = 0;
	for (uint32_t i = 0; i < p->nunits; i++) {
		const uint64_t n = d->off[p->units[i].src_hi] - d->off[p->units[i].src_lo];
		most = n > most ? n : most;
	}
	return most;
}

int block_plan_new(const struct part_odag *d, const struct block_opts *o, struct block_plan *out,
		   struct tsg_err *err)
{
	int rc = TSG_OK;
	*out = (struct block_plan){ 0 };
	const uint32_t nl = o->list_cum && o->list_shares > 1 ? o->list_shares : 0;
	const uint32_t nc = o->min_units > 1 ? o->min_units : 0;
	uint32_t *cut = NULL, *lcut = NULL, ncut = 0, nlcut = 0; /* cost cuts, list cuts */
	const int even = nc && o->resident && o->budget && !o->nblocks &&
			 tsg_rows_bytes(d->off, 0, d->nv) <= o->budget;
	if (o->nblocks)
		rc = plan_fixed(d, o->nblocks, o->list_cum, out, err);
	else if (o->budget == 0)
		rc = plan_fixed(d, 1, NULL, out, err);
	else if ((nc && !(cut = malloc(cut_count(nc) * sizeof(*cut)))) ||
		 (nl && !(lcut = malloc(nl * sizeof(*lcut)))))
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory planning units");
	else if (!cut || (rc = cost_cuts(d, nc, even, o->threads, cut, &ncut, err)) == TSG_OK) {
		if (lcut)
			list_cuts(o->list_cum, d->nv, nl, lcut, &nlcut);
		rc = plan_auto(d, o, cut, ncut, lcut, nlcut, 4, out, err);
		/* with source rows kept: larger source blocks, fewer passes over
		 * the middle rows, where that copies less. Not where the whole
		 * graph fits a unit (one unit, or the resident graph, copies each
		 * row once anyway, and one unit would lose the copies' overlap
		 * with kernels), and no source block past what the halves have
		 * and mid-hash's 32-bit records take (BLOCK_SRC_ENTRIES_MAX: the
		 * kernel would fall back to lstc there). The model counts bytes,
		 * not units: R-MAT 26 at a quarter of its file, 182 units against
		 * 113 took 2.26 s of kernels against 2.11 s while the copies
		 * halved (bench/RESULTS.md, 2026-11-27, thirty-third session) */
		const int keep = rc == TSG_OK && o->src_keep &&
				 tsg_rows_bytes(d->off, 0, d->nv) > o->budget;
		uint64_t best = keep ? block_plan_copies(d, out, o->src_keep) : 0;
		const uint64_t cap_src = keep && max_src_entries(d, out) > BLOCK_SRC_ENTRIES_MAX
						 ? max_src_entries(d, out) : BLOCK_SRC_ENTRIES_MAX;
		for (uint32_t e = 5; keep && e <= 7; e++) {
			struct block_plan alt = { 0 };
			struct tsg_err aerr = { 0 };
			if (plan_auto(d, o, cut, ncut, lcut, nlcut, e, &alt, &aerr) == TSG_OK &&
			    max_src_entries(d, &alt) <= cap_src) {
				const uint64_t c = block_plan_copies(d, &alt, o->src_keep);
				if (c < best) {
					block_plan_free(out);
					*out = alt;
					alt = (struct block_plan){ 0 };
					best = c;
				}
			}
			block_plan_free(&alt); /* one that does not fit is no choice */
		}
	}
	free(cut);
	free(lcut);
	if (rc) {
		block_plan_free(out);
		return rc;
	}
	plan_sizes(d, &o->scratch, out);
	out->even = even;
	return TSG_OK;
}

static int unit_nested(const struct block_unit *u)
{
	return u->mid_lo <= u->src_lo && u->src_hi <= u->mid_hi;
}

uint64_t block_plan_copies(const struct part_odag *d, const struct block_plan *p,
			   uint32_t src_keep)
{
	uint64_t total = 0;
	for (uint32_t i = 0; i < p->nunits; i++) {
		const struct block_unit *u = &p->units[i];
		total += tsg_rows_bytes(d->off, u->mid_lo, u->mid_hi);
		if (unit_nested(u)) /* its middle rows hold its source rows */
			continue;
		const struct block_unit *before = src_keep && i >= src_keep ? &p->units[i - src_keep]
									      : NULL;
		if (!before || unit_nested(before) || before->src_lo != u->src_lo ||
		    before->src_hi != u->src_hi)
			total += tsg_rows_bytes(d->off, u->src_lo, u->src_hi);
	}
	return total;
}

/* The first position in row a (sorted) holding an id >= x. */
static uint64_t row_lower(const struct part_odag *d, uint32_t a, uint32_t x)
{
	uint64_t lo = d->off[a], hi = d->off[a + 1];
	while (lo < hi) {
		const uint64_t mid = lo + (hi - lo) / 2;
		if (d->adj[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct cost_job {
	const struct part_odag *d;
	const struct block_plan *p;
	const uint8_t *held; /* rows to count, or NULL: all */
	uint64_t *cost, *probes, *entries;
};

static void cost_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct cost_job *j = ctx;
	const struct part_odag *d = j->d;
	for (uint64_t k = b; k < e; k++) {
		const struct block_unit *u = &j->p->units[k];
		const uint32_t n = u->src_hi - u->src_lo;
		const uint32_t step = n > BLOCK_COST_SAMPLE ? n / BLOCK_COST_SAMPLE : 1;
		uint64_t sum = 0, probes = 0, entries = 0;
		for (uint32_t a = u->src_lo; a < u->src_hi; a += step) {
			if (j->held && !j->held[a])
				continue;
			/* entries i in [lo, hi) of a's row of length n_a: a wedge for
			 * each later entry (n_a - 1 - i), and a record each */
			const uint64_t base = d->off[a], n_a = d->off[a + 1] - base;
			const uint64_t lo = row_lower(d, a, u->mid_lo) - base;
			const uint64_t hi = row_lower(d, a, u->mid_hi) - base;
			const uint64_t len = hi - lo;
			entries += len;
			if (len)
				sum += len * (n_a - 1) - (lo + hi - 1) * len / 2 + len;
			for (uint64_t i = lo; j->probes && i < hi; i++) {
				const uint32_t b = d->adj[base + i];
				probes += d->off[b + 1] - d->off[b];
			}
		}
		j->cost[k] = sum * step;
		if (j->probes)
			j->probes[k] = probes * step;
		if (j->entries)
			j->entries[k] = entries * step;
	}
}

/* The estimates of every unit over the held rows (NULL: all), in parallel. */
static void costs_over(const struct part_odag *d, const struct block_plan *p, unsigned threads,
		       const uint8_t *held, uint64_t *cost, uint64_t *probes, uint64_t *entries)
{
	struct cost_job j = { .d = d, .p = p, .held = held, .cost = cost, .probes = probes,
			      .entries = entries };
	tsg_parallel_for(threads ? threads : 1, p->nunits, 1, cost_range, &j);
}

void block_plan_costs_held(const struct part_odag *d, const struct block_plan *p,
			   unsigned threads, const uint8_t *held, uint64_t *cost, uint64_t *probes)
{
	costs_over(d, p, threads, held, cost, probes, NULL);
}

void block_plan_work(const struct part_odag *d, const struct block_plan *p, unsigned threads,
		     uint64_t *cost, uint64_t *probes, uint64_t *entries)
{
	if (p->cost && p->probes) { /* summed over the ranks' rows */
		memcpy(cost, p->cost, p->nunits * sizeof(*cost));
		if (probes)
			memcpy(probes, p->probes, p->nunits * sizeof(*probes));
		/* the rows are not all here: each unit's source entries whole */
		for (uint32_t k = 0; entries && k < p->nunits; k++)
			entries[k] = d->off[p->units[k].src_hi] - d->off[p->units[k].src_lo];
		return;
	}
	costs_over(d, p, threads, NULL, cost, probes, entries);
}

void block_plan_costs(const struct part_odag *d, const struct block_plan *p, unsigned threads,
		      uint64_t *cost, uint64_t *probes)
{
	block_plan_work(d, p, threads, cost, probes, NULL);
}

/* The ranks cut into at most n ranges of about equal entries, none under
 * min_entries (at least one range): range (lo, hi) becomes the unit
 * make(lo, hi, nv). */
static int plan_by_entries(const struct part_odag *d, uint32_t n, uint64_t min_entries,
			   struct block_unit (*make)(uint32_t, uint32_t, uint32_t),
			   struct block_plan *out, struct tsg_err *err)
{
	uint64_t q = n ? n : 1;
	if (min_entries && d->ne / min_entries < q)
		q = d->ne / min_entries ? d->ne / min_entries : 1;
	uint32_t cap = 0, lo = 0;
	int rc = TSG_OK;
	for (uint64_t j = 1; j <= q && lo < d->nv && rc == TSG_OK; j++) {
		/* the first rank whose row starts at or past j/q of the entries */
		uint32_t hi = j == q ? d->nv : (uint32_t)tsg_lower_bound_u64(d->off, 0, d->nv,
									 d->ne / q * j);
		if (hi <= lo)
			continue;
		rc = push(out, &cap, make(lo, hi, d->nv), err);
		lo = hi;
	}
	if (rc == TSG_OK && out->nunits == 0 && d->nv > 0) /* no entries: one unit */
		rc = push(out, &cap, (struct block_unit){ 0, d->nv, 0, d->nv }, err);
	return rc;
}

/* Column (lo, hi): middles in it, sources below its top. */
static struct block_unit column(uint32_t lo, uint32_t hi, uint32_t nv)
{
	(void)nv;
	return (struct block_unit){ 0, hi, lo, hi };
}

/* Row block (lo, hi): sources in it, every middle from it up. */
static struct block_unit row_block(uint32_t lo, uint32_t hi, uint32_t nv)
{
	return (struct block_unit){ lo, hi, lo, nv };
}

/* A plan of plan_by_entries' units, sized; top_first: the last unit first. */
static int plan_cut(const struct part_odag *d, uint32_t n, uint64_t min_entries,
		    struct block_unit (*make)(uint32_t, uint32_t, uint32_t), int top_first,
		    const struct tsg_scratch *sc, struct block_plan *out, struct tsg_err *err)
{
	*out = (struct block_plan){ 0 };
	const int rc = plan_by_entries(d, n, min_entries, make, out, err);
	if (rc) {
		block_plan_free(out);
		return rc;
	}
	for (uint32_t i = 0, j = out->nunits ? out->nunits - 1 : 0; top_first && i < j; i++, j--) {
		const struct block_unit t = out->units[i];
		out->units[i] = out->units[j];
		out->units[j] = t;
	}
	out->nsrc_blocks = out->nunits;
	plan_sizes(d, sc, out);
	return TSG_OK;
}

int block_plan_rows_down(const struct part_odag *d, uint32_t nrows, uint64_t min_entries,
			 const struct tsg_scratch *sc, struct block_plan *out, struct tsg_err *err)
{
	return plan_cut(d, nrows, min_entries, row_block, 1, sc, out, err);
}

int block_plan_columns(const struct part_odag *d, uint32_t ncols, uint64_t min_entries,
		       const struct tsg_scratch *sc, struct block_plan *out, struct tsg_err *err)
{
	return plan_cut(d, ncols, min_entries, column, 0, sc, out, err);
}

static int cmp_top(const void *x, const void *y)
{
	const struct block_unit *a = x, *b = y;
	const uint32_t ta = block_unit_top(a), tb = block_unit_top(b);
	if (ta != tb)
		return (ta > tb) - (ta < tb);
	if (a->src_lo != b->src_lo)
		return (a->src_lo > b->src_lo) - (a->src_lo < b->src_lo);
	return (a->mid_lo > b->mid_lo) - (a->mid_lo < b->mid_lo);
}

void block_plan_by_top(struct block_plan *p)
{
	/* (top, source, middle) is unique among a plan's units: one order */
	if (p->nunits > 1)
		qsort(p->units, p->nunits, sizeof(*p->units), cmp_top);
}

static int cmp_low(const void *x, const void *y)
{
	const struct block_unit *a = x, *b = y;
	const uint32_t la = block_unit_low(a), lb = block_unit_low(b);
	if (la != lb)
		return (la < lb) - (la > lb); /* the highest first */
	if (a->src_lo != b->src_lo)
		return (a->src_lo > b->src_lo) - (a->src_lo < b->src_lo);
	return (a->mid_lo > b->mid_lo) - (a->mid_lo < b->mid_lo);
}

void block_plan_by_low(struct block_plan *p)
{
	if (p->nunits > 1)
		qsort(p->units, p->nunits, sizeof(*p->units), cmp_low);
}

void block_plan_free(struct block_plan *p)
{
	free(p->cost);
	free(p->probes);
	free(p->units);
	*p = (struct block_plan){ 0 };
}
