/*
 * ranges.c - reading only some of a graph's lists (io_graph_read_ranges).
 *
 * Several MPI ranks that each count a share of the units need only the
 * lists of the rows those units hold (src/ranges.h). This reads the lists
 * of given vertex ranges into their places in the graph's buffer (or, from
 * a mapped file, touches only their pages), and checks each list as a whole
 * read does, all but the two checks that need every list: the section's
 * checksum, which covers it whole and cannot be split, and symmetry, whose
 * signed hash it returns so that ranks that read disjoint ranges covering
 * every list can add theirs up and check it together.
 */
#include "io/graph.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "io/check.h"
#include "base/util.h"

struct check_job {
	const struct tsg_graph *g;
	uint64_t b;                 /* first vertex */
	atomic_uint_fast64_t bad;   /* the lowest bad vertex seen, or UINT64_MAX */
	atomic_uint_fast64_t sym;
};

enum { CHECK_GRAIN = 4096 };

static void check_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct check_job *j = ctx;
	uint64_t sym = 0;
	const uint64_t bad = io_check_lists(j->g, j->b + b, j->b + e, &sym);
	atomic_fetch_add(&j->sym, sym);
	uint64_t seen = atomic_load(&j->bad);
	while (bad < seen && !atomic_compare_exchange_weak(&j->bad, &seen, bad))
		;
}

/* Brings the lists of b .. e-1 into g->adj: read (whole 4 KiB blocks, as
 * O_DIRECT wants) into the buffer, or nothing to do for a mapping. */
static int read_one(struct tsg_graph *g, uint64_t b, uint64_t e, uint64_t *bytes,
		    struct tsg_err *err)
{
	const uint64_t lo = g->off[b] * 4, hi = g->off[e] * 4;
	if (hi == lo)
		return TSG_OK;
	*bytes += hi - lo;
	if (io_file_mode(g->file) == IO_MODE_MMAP)
		return TSG_OK; /* the checks fault the pages in */
	uint8_t *const out = g->adj_mem ? g->adj_mem : g->adj_scratch->mem;
	const uint64_t at = lo & ~(uint64_t)4095; /* the section starts on a block */
	return io_file_read(g->file, g->lists_sec.offset + at, hi - at, out + at, err);
}

int io_graph_read_ranges(struct tsg_graph *g, const struct io_vrange *r, uint64_t n,
			 uint64_t *sym, uint64_t *bytes, struct tsg_err *err)
{
	const char *path = g->file ? io_file_path(g->file) : "graph";
	if (!g->lists_pending || g->compressed || g->lists_src || !g->file)
		return tsg_fail(err, TSG_EINTERNAL, "%s: only a plain file's unread lists can be "
				"read by ranges", path);
	const double t0 = tsg_now();
	uint64_t got = 0;
	int rc = TSG_OK;
	for (uint64_t i = 0; i < n && rc == TSG_OK; i++) {
		if (r[i].b > r[i].e || r[i].e > g->nv || (i && r[i].b < r[i - 1].e)) {
			rc = tsg_fail(err, TSG_EINTERNAL, "vertex ranges out of order");
			break;
		}
		rc = read_one(g, r[i].b, r[i].e, &got, err);
		if (rc)
			break;
		struct check_job j = { .g = g, .b = r[i].b };
		atomic_init(&j.bad, UINT64_MAX);
		atomic_init(&j.sym, 0);
		tsg_parallel_for(g->threads ? g->threads : 1, r[i].e - r[i].b, CHECK_GRAIN,
				 check_range, &j);
		if (atomic_load(&j.bad) != UINT64_MAX)
			rc = io_check_fail_vertex(path, atomic_load(&j.bad), err);
		*sym += atomic_load(&j.sym);
	}
	*bytes += got;
	g->read_seconds += tsg_now() - t0;
	return rc;
}
