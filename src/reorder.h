/*
 * reorder.h - a graph file rewritten with its vertices renumbered by
 * (degree, id), lowest first (`tristream reorder IN OUT`).
 *
 * That is the order every layout ranks vertices by (partition/rows.h). In
 * a file written in it, a range of ranks - a block unit's source block or
 * middle range - is a range of ids, so one stretch of the offsets and one
 * of the lists: what lets ranks that read by ranges (src/ranges.h) read
 * less than the whole file. In id order, those vertices are spread over
 * every page. The count is the same: renumbering keeps every triangle.
 * A crawl's id locality (pages of a site together) is lost, which the
 * arrival layout and LZ4's delta coding feed on: reorder for ranks that
 * read ranges, not as a rule.
 */
#ifndef TSG_REORDER_H
#define TSG_REORDER_H

#include "base/error.h"
#include "io/writer.h"

/* Reads and validates in (any graph file), writes out renumbered, plain
 * or LZ4 (lz4 != 0), whole or not at all; st as io_graph_copy's. */
int reorder_graph(const char *in, const char *out, int lz4, unsigned threads,
		  struct io_copy_stats *st, struct tsg_err *err);

#endif
