/*
 * ranges.h - several MPI ranks, each reading only the lists its units need
 * (`mpirun -n R tristream count --read ranges GRAPH`, block layout).
 *
 * A block unit (partition/block.h) holds the rows of a source block and a
 * middle range, rank ranges of the oriented graph; a rank that counts some
 * units needs those rows, and they come from the lists of the vertices
 * with those ranks. But every rank must plan the same units, and the plan
 * needs every row's length and every unit's estimated work. So:
 *
 *  1. Every rank reads the offsets (all degrees, hence all ranks) and the
 *     lists of its slice: R slices of about equal list bytes, in file
 *     order, one a rank (io_graph_cut_lists, io_graph_read_slice). A
 *     crawl's degrees come only from its lists: each rank decodes its
 *     slice, the ranks exchange the slices' degrees and add up what
 *     checks the whole crawl (arcs, the transpose), and each places its
 *     slice (io_graph_place_slice); the vertices are ranked from there
 *     on. It counts its slice's out-degrees, the ranks
 *     exchange them (4 bytes a vertex), and each lays out the same
 *     offsets and writes its slice's rows (partition/held.h).
 *  2. Every rank plans the same units from the offsets, estimates each
 *     unit's work over the rows it holds, and the ranks sum the estimates:
 *     the sample rows are the single process's, so the sums are its. The
 *     plan cuts blocks by the file's list entries (block_opts.list_cum),
 *     what a rank reads, rather than by the out-lists' bytes: fixed plans
 *     in Q equal shares, automatic ones also at the cuts of 2p shares (p
 *     the side of a square of R ranks). By out-list bytes the top block
 *     of R-MAT 18 at Q = 8 held 0.39 of the lists, and the busiest of 64
 *     ranks read 0.57 of them; by the lists' entries 0.27 (web 2^20: 0.48
 *     against 0.27); CPU, bytes, RESULTS.md, 2026-11-25, 14th session.
 *  3. Units are dealt by that work, the costliest first, each to a rank
 *     whose load stays within RANGES_SLACK of an even share (else to the
 *     least loaded): of those, one whose list bytes would stay within the
 *     busiest rank's so far, the one that must read the fewest new bytes
 *     for it; if none would, the one with the fewest bytes in all. So
 *     units that share rows go to one rank, until it would become the
 *     busiest. Against the fewest new bytes alone (the first deal), on
 *     renumbered R-MAT 16, web 2^18, web 2,000,000 and web 20,000 at 4 to
 *     16 ranks (CPU; bytes do not depend on the machine; RESULTS.md,
 *     2026-11-25), the busiest rank read 0.53-0.89 of the lists against
 *     0.63-1.00, lower in 7 of 8 runs (web 20,000 at 9 ranks: 0.83
 *     against 0.78). Measured against cutting the
 *     units' Z-order (by the middles of their source and middle ranges)
 *     into R runs of equal work, on R-MAT 15 and web 2^16 renumbered, 4,
 *     9 and 16 ranks (CPU plans; bytes do not depend on the machine): the
 *     Z-order read a little less on the mean rank (0.41 against 0.36-0.47
 *     of the lists at 16 ranks), but its busiest rank read every list at
 *     R-MAT 15 (1.00 against 0.67-0.87), and the slowest rank sets the
 *     time. Automatic plans cut units to 1/(2p) of the oriented graph
 *     (p the side of a square of R ranks): with a budget that holds it
 *     all, a source block's one middle range is every row above it.
 *  4. Each rank reads the lists of the rows its units hold that its slice
 *     did not, in file order (runs closer than RANGES_GAP bytes are read
 *     as one), writes those rows, and counts its units. Every row a unit
 *     of this rank holds is then checked to be written.
 *
 * Checks: every list a rank reads is checked as a whole read checks it
 * (ids in range, increasing, no self-loop); the slices hold every list
 * once, so their symmetry hashes summed over the ranks check symmetry of
 * the whole graph. A plain file's lists' checksum covers them whole and
 * is not checked: no rank reads them all. An LZ4 file is read a chunk at
 * a time (whole chunks of about 1 MiB decoded, each checked against its
 * own checksum), so there every byte read is checked, and a rank reads
 * the chunks that hold its rows. A list read outside a rank's slice must
 * agree with the out-degree its slice's rank found, or the job fails.
 *
 * What it saves: a rank reads its slice (1/R) and the rest of its units'
 * rows. A unit's rows are a range of ranks, (degree, id) order: on a file
 * renumbered in that order (tristream reorder) they lie in few places;
 * in id order, scrambled or a crawl's URL order, they are spread over
 * every page, and almost no byte is saved (docs/SCALING.md; a crawl read
 * by ranges: busiest rank 1.00 of its files at 2-8 ranks). The JSON gives
 * each rank's list bytes read (compressed bytes for an LZ4 file, the
 * .graph files' bytes the decoded lists span for a crawl).
 */
#ifndef TSG_RANGES_H
#define TSG_RANGES_H

#include <stddef.h>

#include "src/dist.h"
#include "src/engine.h"
#include "src/pipeline.h"
#include "partition/block.h"

#define RANGES_SLACK 0.10         /* a rank's work may pass an even share by this */
#define RANGES_GAP (256u << 10)   /* list bytes between two runs read as one */

/* Whether g can be read by ranges under o; if not, why (for a note). The
 * same answer on every rank: it depends on the file and options only. */
int ranges_usable(const struct tsg_graph *g, const struct engine_opts *o, char *why,
		  size_t len);

/* Step 1 above for a group of ranks (dist.h: DIST_ALL, every rank reading
 * by ranges; DIST_HOST, the ranks of a host building one oriented graph,
 * src/hostbuild.h): n slices, this rank reading the me-th, the degrees
 * and out-degrees exchanged, and the same verdicts on every rank of the
 * group from the summed symmetry hash and out-degrees. */
struct ranges_slices {
	uint32_t *rank;        /* nv: each vertex's rank, as part_orient's */
	uint32_t *outdeg;      /* nv: each vertex's out-degree, by id */
	uint64_t *cut;         /* n + 1: slice q is vertices cut[q] .. cut[q + 1] - 1 */
	struct io_vrange mine; /* this rank's slice */
	uint64_t ne;           /* the out-degrees' sum: the oriented edges */
	uint32_t max_out;      /* the largest out-degree */
	uint64_t sym, bytes;   /* this rank's symmetry hash and list bytes read so far */
};
int ranges_slices(struct tsg_graph *g, const struct engine_opts *o, enum dist_group grp,
		  uint32_t n, uint32_t me, struct ranges_slices *s, struct tsg_err *err);
void ranges_slices_free(struct ranges_slices *s);

/* engine_block_prepare's work, by ranges (steps 1-4 above): d, plan,
 * r->parts, r->owner (the deal) and r->ranges. Collectives over o->dist,
 * each after an agreement. */
int ranges_block_prepare(struct tsg_graph *g, const struct engine_opts *o,
			 const struct block_opts *bo, part_alloc_fn alloc, void *alloc_ctx,
			 struct part_odag *d, struct block_plan *plan, struct engine_result *r,
			 struct tsg_err *err);

#endif
