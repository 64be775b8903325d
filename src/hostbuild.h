/*
 * hostbuild.h - the ranks of one host build one oriented graph together
 * (`mpirun -n R tristream count --layout block GRAPH`, where several ranks
 * run on a host, on GPUs or the CPU, unless `--read all` or `--read
 * ranges`; src/main.c decides, all of the host's ranks together:
 * engine_opts.host_build).
 *
 * Ranks that each read the whole file and orient it on their share of the
 * host's CPUs do the host's work R times, and become ready at different
 * moments: on two H200s of one host (R-MAT 24, 16 threads a rank) each
 * rank read and oriented in 0.9-1.1 s, one up to 0.15 s after the other,
 * and the first one ready took most units before the other could start
 * (bench/RESULTS.md). Instead the L ranks of a host (dist.h: host_rank of
 * host_size) build one oriented graph in a block of memory that all of
 * them map (dist_host_alloc):
 *
 *  1. Each reads a slice of the lists, 1/L of their bytes, and finds its
 *     slice's degrees (a crawl opened by ranges: decodes it, and the
 *     host's ranks exchange the degrees and place the slices), as the
 *     ranks reading by ranges do (src/ranges.h step 1), then its slice's
 *     out-degrees; the host's ranks exchange those (4 bytes a vertex).
 *  2. The host's first rank lays out the offsets in the block; each rank
 *     writes its slice's rows (partition/held.h, whose rows and ranks are
 *     part_orient's); every row is then written, once.
 *  3. After one synchronisation every rank of the host has the whole
 *     oriented graph, and plans the units as a single process would
 *     (block_plan_new over the same rows): the ranks of all hosts take
 *     them as each becomes free (dist.h, dist_counter), starting together.
 *
 * The CPU kernels read the rows where they lie: two CPU ranks counted
 * 3-10% slower from the shared block than from their own memory, and
 * gained more in the build (ER 8M: 7.8-8.2 s whole
 * against 10.4-11.4 s; bench/RESULTS.md). A GPU's units are copied from
 * it, once a GPU where the graph fits.
 *
 * Checks: the slices' symmetry hashes summed over the host's ranks check
 * the whole graph's symmetry; the out-degrees must add up to half the list
 * entries. Each host checks its own copy. A plain file's checksum over all
 * its lists is not checked, as no rank reads them all (an LZ4 file's chunks
 * are each checked as read). The block is the host's until the graph is
 * done (dist_host_free, a collective every rank reaches).
 */
#ifndef TSG_HOSTBUILD_H
#define TSG_HOSTBUILD_H

#include <stddef.h>

#include "src/engine.h"
#include "src/pipeline.h"
#include "partition/block.h"

/* Whether g's oriented graph can be built by its host's ranks under o
 * (mem: the block's memory as the caller would make it, NULL if ordinary);
 * if not, why (for a note; "" where no host runs several ranks). The same
 * answer on every rank of the job, since the steps are collectives: where
 * some host runs several ranks, a host of one builds alone in the same
 * steps (not timed; tests/mpi.sh runs hosts of 2 and 1 by a test
 * hook, TSG_TEST_RANKS_A_HOST, src/dist.c). */
int hostbuild_usable(const struct tsg_graph *g, const struct engine_opts *o,
		     const struct engine_block_mem *mem, char *why, size_t len);

/* engine_block_prepare's work, by the host's ranks (steps 1-3): d (in the
 * host's block: mem->host is set, so engine_block_release leaves it to
 * dist_host_free), plan and r->parts. Collectives over o->dist, each after
 * an agreement. */
int hostbuild_block_prepare(struct tsg_graph *g, const struct engine_opts *o,
			    const struct block_opts *bo, struct engine_block_mem *mem,
			    struct part_odag *d, struct block_plan *plan,
			    struct engine_result *r, struct tsg_err *err);

#endif
