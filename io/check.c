#include "io/check.h"

#include <stdatomic.h>

#include "base/util.h"

/* An oriented graph's rows: every entry above its row and below nv,
 * strictly increasing. Each edge is then stored once, from its lower
 * rank: nothing to pair up. */
static uint64_t check_rows(const struct tsg_graph *g, uint64_t b, uint64_t e)
{
	for (uint64_t r = b; r < e; r++) {
		const uint64_t lo = g->off[r], hi = g->off[r + 1];
		for (uint64_t i = lo; i < hi; i++) {
			const uint32_t w = g->adj[i];
			if (w >= g->nv || w <= r || (i > lo && w <= g->adj[i - 1]))
				return r;
		}
	}
	return UINT64_MAX;
}

uint64_t io_check_lists(const struct tsg_graph *g, uint64_t b, uint64_t e, uint64_t *sym)
{
	if (g->oriented)
		return check_rows(g, b, e);
	uint64_t sum = 0;
	for (uint64_t v = b; v < e; v++) {
		const uint64_t lo = g->off[v], hi = g->off[v + 1];
		for (uint64_t i = lo; i < hi; i++) {
			const uint32_t w = g->adj[i];
			if (w >= g->nv || w == v || (i > lo && w <= g->adj[i - 1]))
				return v;
			sum += v < w ? io_check_pair_hash(v, w) : -io_check_pair_hash(w, v);
		}
	}
	*sym += sum;
	return UINT64_MAX;
}

int io_check_fail_row(const char *name, uint64_t r, struct tsg_err *err)
{
	return tsg_fail(err, TSG_EINPUT, "%s: rank %llu has a bad row (offsets not monotone, an "
			"entry not above its rank or out of range, or the row not strictly "
			"increasing)", name, (unsigned long long)r);
}

int io_check_fail_vertex(const char *name, uint64_t v, struct tsg_err *err)
{
	return tsg_fail(err, TSG_EINPUT, "%s: vertex %llu has a bad neighbour list (offsets not "
			"monotone, id out of range, self-loop, or list not strictly increasing)",
			name, (unsigned long long)v);
}

int io_check_fail_piece(const struct tsg_graph *g, const char *name, uint64_t k,
			struct tsg_err *err)
{
	const uint64_t size = g->nadj * 4, b = k * g->row_piece;
	const uint64_t e = size - b < g->row_piece ? size : b + g->row_piece;
	return tsg_fail(err, TSG_EINPUT, "%s: checksum mismatch in the row section, piece %llu "
			"(section bytes %llu..%llu) (file is corrupt)", name, (unsigned long long)k,
			(unsigned long long)b, (unsigned long long)(e - 1));
}

int io_check_fail_symmetry(const char *name, struct tsg_err *err)
{
	return tsg_fail(err, TSG_EINPUT, "%s: graph is not symmetric (some edge u-v is missing "
			"from v's list)", name);
}

struct check_ctx {
	const struct tsg_graph *g;
	atomic_uint_fast64_t bad_vertex; /* smallest offending vertex, or UINT64_MAX */
	atomic_uint_fast64_t maxdeg;
};

static void check_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct check_ctx *c = arg;
	const struct tsg_graph *g = c->g;
	uint64_t maxdeg = 0;
	for (uint64_t v = b; v < e; v++) {
		const uint64_t lo = g->off[v], hi = g->off[v + 1];
		if (hi < lo || hi > g->nadj) {
			tsg_atomic_min(&c->bad_vertex, v);
			return;
		}
		maxdeg = hi - lo > maxdeg ? hi - lo : maxdeg;
	}
	tsg_atomic_max(&c->maxdeg, maxdeg);
}

int io_check_offsets(const struct tsg_graph *g, const char *name, unsigned threads,
		     struct tsg_err *err)
{
	if (g->nv > IO_MAX_VERTICES)
		return tsg_fail(err, TSG_EINPUT, "%s: %llu vertices exceed 32-bit ids", name,
				(unsigned long long)g->nv);
	if (g->off[0] != 0 || g->off[g->nv] != g->nadj)
		return tsg_fail(err, TSG_EINPUT, "%s: row offsets must start at 0 and end at %llu "
				"(they run from %llu to %llu)", name, (unsigned long long)g->nadj,
				(unsigned long long)g->off[0], (unsigned long long)g->off[g->nv]);
	struct check_ctx c = { .g = g };
	atomic_init(&c.bad_vertex, UINT64_MAX);
	atomic_init(&c.maxdeg, 0);
	tsg_parallel_for(threads, g->nv, 4096, check_range, &c);
	const uint64_t bad = atomic_load(&c.bad_vertex);
	if (bad != UINT64_MAX)
		return g->oriented ? io_check_fail_row(name, bad, err)
				   : io_check_fail_vertex(name, bad, err);
	if (atomic_load(&c.maxdeg) != g->max_degree)
		return tsg_fail(err, TSG_EINPUT, "%s: header says maximum %s %llu, %s say %llu", name,
				g->oriented ? "out-degree" : "degree",
				(unsigned long long)g->max_degree, g->oriented ? "rows" : "lists",
				(unsigned long long)atomic_load(&c.maxdeg));
	return TSG_OK;
}

struct sym_ctx {
	const struct tsg_graph *g;
	atomic_uint_fast64_t bad_vertex; /* smallest vertex with an unmatched entry */
	atomic_uint_fast64_t down;       /* entries u of v's list with u < v */
};

static int list_has(const struct tsg_graph *g, uint64_t u, uint32_t v)
{
	const uint64_t at = tsg_lower_bound_u32(g->adj, g->off[u], g->off[u + 1], v);
	return at < g->off[u + 1] && g->adj[at] == v;
}

static void sym_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct sym_ctx *c = arg;
	const struct tsg_graph *g = c->g;
	uint64_t down = 0;
	for (uint64_t v = b; v < e; v++)
		for (uint64_t x = g->off[v]; x < g->off[v + 1] && g->adj[x] < v; x++, down++)
			if (!list_has(g, g->adj[x], (uint32_t)v)) {
				tsg_atomic_min(&c->bad_vertex, v);
				break;
			}
	atomic_fetch_add(&c->down, down);
}

struct piece_ctx {
	const struct tsg_graph *g;
	atomic_uint_fast64_t bad; /* the first piece whose checksum differs, or UINT64_MAX */
};

static void piece_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct piece_ctx *c = arg;
	const struct tsg_graph *g = c->g;
	const uint64_t size = g->nadj * 4, p = g->row_piece;
	for (uint64_t k = b; k < e; k++) {
		const uint64_t at = k * p;
		if (io_checksum((const uint8_t *)g->adj + at, size - at < p ? size - at : p) !=
		    g->row_sums[k]) {
			tsg_atomic_min(&c->bad, k);
			return;
		}
	}
}

int io_check_oriented_exact(struct tsg_graph *g, const char *name, unsigned threads,
			    struct tsg_err *err)
{
	/* the piece checksums, which a load read up (the whole section's
	 * checksum) does not look at */
	if (g->row_sums) {
		struct piece_ctx c = { .g = g };
		atomic_init(&c.bad, UINT64_MAX);
		tsg_parallel_for(threads ? threads : 1, io_row_pieces(g->nadj * 4, g->row_piece), 1,
				 piece_range, &c);
		const uint64_t bad = atomic_load(&c.bad);
		if (bad != UINT64_MAX)
			return io_check_fail_piece(g, name, bad, err);
	}
	int rc = io_graph_load_degrees(g, threads, err);
	if (rc)
		return rc;
	uint64_t most = 0;
	for (uint64_t v = 0; v < g->nv; v++)
		most = g->id_degree[v] > most ? g->id_degree[v] : most;
	if (most != g->degree_hint)
		return tsg_fail(err, TSG_EINPUT, "%s: header says the undirected graph's maximum "
				"degree is %llu, the rows say %llu", name,
				(unsigned long long)g->degree_hint, (unsigned long long)most);
	return TSG_OK;
}

int io_check_symmetry_exact(const struct tsg_graph *g, const char *name, unsigned threads,
			    struct tsg_err *err)
{
	if (g->oriented)
		return tsg_fail(err, TSG_EINTERNAL, "%s: symmetry of an oriented graph", name);
	struct sym_ctx c = { .g = g };
	atomic_init(&c.bad_vertex, UINT64_MAX);
	atomic_init(&c.down, 0);
	tsg_parallel_for(threads ? threads : 1, g->nv, 1024, sym_range, &c);
	if (atomic_load(&c.bad_vertex) != UINT64_MAX)
		return tsg_fail(err, TSG_EINPUT, "%s: graph is not symmetric: vertex %llu lists a "
				"lower neighbour u whose list lacks it", name,
				(unsigned long long)atomic_load(&c.bad_vertex));
	/* every entry u < v is matched by v in u's list, injectively (lists are
	 * strictly increasing); as many matches as half the entries leave no
	 * entry u > v unmatched: the graph is symmetric */
	if (2 * atomic_load(&c.down) != g->nadj)
		return tsg_fail(err, TSG_EINPUT, "%s: graph is not symmetric: %llu of %llu entries "
				"point down", name, (unsigned long long)atomic_load(&c.down),
				(unsigned long long)g->nadj);
	return TSG_OK;
}
