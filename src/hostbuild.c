/*
 * hostbuild.c - the ranks of one host build one oriented graph together
 * (contract and method: hostbuild.h).
 */
#include "src/hostbuild.h"

#include <stdio.h>
#include <stdlib.h>

#include "src/dist.h"
#include "src/pipeline.h"
#include "src/ranges.h"
#include "partition/held.h"
#include "base/util.h"

int hostbuild_usable(const struct tsg_graph *g, const struct engine_opts *o,
		     const struct engine_block_mem *mem, char *why, size_t len)
{
	const struct tsg_dist *dist = o->dist;
	/* every rank of the job takes the same way: a host of one rank builds
	 * alone as the others build together (their steps are collectives) */
	const char *no = !dist || dist->host_most <= 1 || o->read_all ? ""
			 : o->layout != ENGINE_LAYOUT_BLOCK ? "the layout was not --layout block"
			 : !dist->hosts_share
				 ? "MPI cannot make memory the host's ranks share (its one-sided component)"
			 : !o->host_build ? "the host's ranks did not all ask for it"
			 : mem && mem->scratch_dir ? "the oriented graph goes to a scratch file"
			 : o->pin_host > 0 ? "--pin-host on orients into this rank's pinned memory"
			 : !g->lists_pending || (!g->file && !g->lists_src)
				 ? "the lists were already in memory"
			 : g->lists_src && !io_graph_degrees_pending(g)
				 ? "a crawl is decoded whole (not opened by ranges)"
				 : NULL;
	snprintf(why, len, "%s", no ? no : "");
	return no == NULL;
}

int hostbuild_block_prepare(struct tsg_graph *g, const struct engine_opts *o,
			    const struct block_opts *bo, struct engine_block_mem *mem,
			    struct part_odag *d, struct block_plan *plan,
			    struct engine_result *r, struct tsg_err *err)
{
	struct tsg_dist *dist = o->dist;
	const uint64_t nv = g->nv;
	const uint32_t nhost = (uint32_t)dist->host_size, me = (uint32_t)dist->host_rank;
	const unsigned threads = o->threads ? o->threads : 1;
	struct ranges_slices sl;
	const double t0 = tsg_now();
	void *block = NULL;
	*d = (struct part_odag){ 0 };
	/* step 1: this rank's slice of the host's lists, the host's degrees */
	int rc = ranges_slices(g, o, DIST_HOST, nhost, me, &sl, err);
	if ((rc = dist_agree(dist, rc, err)) ||
	    (rc = dist_agree(dist, dist_host_alloc(dist, part_odag_bytes(nv, sl.ne), &block, err),
			     err)))
		goto done;
	mem->host = 1; /* from here on d->off is the host's block */
	part_odag_place(d, block, nv);
	if (me == 0) /* step 2: one rank lays out the offsets, each writes its rows */
		part_held_offsets(nv, sl.rank, sl.outdeg, threads, d);
	else { /* the sizes it finds, known from the slices */
		d->nv = (uint32_t)nv;
		d->ne = sl.ne;
		d->max_out = sl.max_out;
	}
	dist_host_sync(dist);
	/* the host's slices cover every row: none needs marking */
	rc = part_held_fill(g, sl.rank, &sl.mine, 1, threads, d, NULL, err);
	dist_host_sync(dist); /* every row written, by one rank of the host or another */
	if ((rc = dist_agree(dist, rc, err)))
		goto done;
	const double t1 = tsg_now();
	r->build_s = t1 - t0;
	rc = block_plan_new(d, bo, plan, err); /* step 3: as one process would */
	r->plan_s = tsg_now() - t1;
	r->nblocks = plan->nsrc_blocks;
	if (rc == TSG_OK &&
	    !(r->parts = calloc(plan->nunits ? plan->nunits : 1, sizeof(*r->parts))))
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
	r->host_build = (struct engine_host_build){ .used = 1, .ranks = nhost,
						    .read_bytes = sl.bytes,
						    .lists_bytes = g->compressed || g->lists_src
									   ? g->lists_sec.size
									   : g->nadj * 4 };
done:
	ranges_slices_free(&sl);
	return rc;
}
