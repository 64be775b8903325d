/*
 * reorder.c - a graph renumbered by (degree, id) (contract: reorder.h).
 */
#include "src/reorder.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "io/graph.h"
#include "partition/rows.h"
#include "base/util.h"

struct relabel {
	const struct tsg_graph *g;
	const uint32_t *rank;
	const uint64_t *off; /* new offsets */
	uint32_t *adj;       /* new lists */
	uint32_t *scratch;   /* per thread: max_degree ids */
	uint64_t width;
};

/* v's list, as ranks, sorted, at its new place */
static void relabel_rows(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	const struct relabel *x = ctx;
	const struct tsg_graph *g = x->g;
	for (uint64_t v = b; v < e; v++) {
		uint32_t *row = x->adj + x->off[x->rank[v]];
		const uint64_t n = io_graph_degree(g, v);
		for (uint64_t i = 0; i < n; i++)
			row[i] = x->rank[g->adj[g->off[v] + i]];
		part_sort_ids(row, x->scratch + tid * x->width, n);
	}
}

int reorder_graph(const char *in, const char *out, int lz4, unsigned threads,
		  struct io_copy_stats *st, struct tsg_err *err)
{
	struct tsg_graph g;
	const struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = threads };
	struct stat sb;
	*st = (struct io_copy_stats){ 0 };
	double t0 = tsg_now();
	int rc = io_graph_load(in, &lo, &g, err);
	if (rc)
		return rc;
	st->load_s = tsg_now() - t0;
	st->in_bytes = stat(in, &sb) == 0 ? (uint64_t)sb.st_size : 0;
	t0 = tsg_now();
	const uint64_t nv = g.nv;
	uint32_t *rank = malloc((nv ? nv : 1) * sizeof(*rank));
	uint64_t *off = malloc((nv + 1) * sizeof(*off));
	uint32_t *adj = malloc((g.nadj ? g.nadj : 1) * sizeof(*adj));
	struct relabel x = { .g = &g, .rank = rank, .off = off, .adj = adj,
			     .width = g.max_degree ? g.max_degree : 1 };
	x.scratch = malloc((uint64_t)threads * x.width * sizeof(*x.scratch));
	if (!rank || !off || !adj || !x.scratch || part_rank(&g, threads, rank, NULL) != 0) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory renumbering %s", in);
		goto done;
	}
	off[0] = 0;
	for (uint64_t v = 0; v < nv; v++)
		off[rank[v] + 1] = io_graph_degree(&g, v);
	for (uint64_t r = 0; r < nv; r++)
		off[r + 1] += off[r];
	tsg_parallel_for(threads, nv, 4096, relabel_rows, &x);
	if (lz4) {
		rc = io_graph_write_lz4(out, nv, off, adj, threads, &st->out_bytes, err);
	} else {
		rc = io_graph_write(out, nv, off, adj, err);
		st->out_bytes = stat(out, &sb) == 0 && rc == TSG_OK ? (uint64_t)sb.st_size : 0;
	}
	st->write_s = tsg_now() - t0;
done:
	free(x.scratch);
	free(adj);
	free(off);
	free(rank);
	io_graph_free(&g);
	return rc;
}
