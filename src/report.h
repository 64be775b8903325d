/*
 * report.h - a count's result as the user reads it: text on stdout, or
 * one JSON object a graph (--json), the same keys for every backend and
 * layout. These only print; the caller checks every write at the last
 * flush of stdout.
 */
#ifndef SRC_REPORT_H
#define SRC_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "src/checkpoint.h"
#include "src/dist.h"
#include "src/engine.h"
#include "src/hostmem.h"
#include "src/input.h"
#include "src/pervertex.h"
#include "io/graph.h"
#include "base/error.h"

/* What a count adds to its result beyond the engine's. */
#define REPORT_RANK_TIMES 4 /* then four more a rank: list bytes read by ranges, units,
			     * when its counting began and ended (rank_s' comment) */
struct report_extra {
	const struct tsg_dist *dist;    /* the ranks */
	const double *rank_s;           /* several ranks (rank 0): each one's read, build,
					 * count (device sums) and count wall times, then
					 * list bytes read by ranges, units counted, and
					 * when its counting began and ended (seconds after
					 * the ranks left one reduction, -1 where not
					 * measured), size entries each */
	int ranges;                     /* the ranks read by ranges (src/ranges.h) */
	int taken;                      /* the units went to whichever rank was free
					 * (engine_result.taken), not dealt */
	const struct pv_clustering *cl; /* --clustering, else NULL */
	const char *pv_path;            /* --per-vertex, else NULL */
	const char *ckpt_path;          /* --checkpoint's file, else NULL */
	const struct ckpt_info *ck;
};

/* Several ranks: the slowest rank's counting time over the mean. */

/* How one graph of a run went: its count and time, or its status and
 * error. */
struct report_outcome {
	uint64_t triangles;
	double seconds;
	int rc;
	struct tsg_err err;
};

/* The count of graph `path` as one JSON object on a line of its own. hp is
 * NULL without --host-mem; wall is the graph's whole time. */
void report_count_json(const char *path, const struct tsg_graph *g, const struct engine_opts *o,
		       const struct engine_result *r, const struct hostmem_plan *hp,
		       const struct input_info *in, double wall, const struct report_extra *x);

/* The same as lines of text, the count first. */
void report_count_text(const struct tsg_graph *g, const struct engine_opts *o,
		       const struct engine_result *r, double wall, const struct report_extra *x);

/* A graph a previous run finished (its checkpoint ckpath says so): its
 * recorded total, nothing counted now; k > 3: K-cliques. */
void report_finished(const char *path, const struct tsg_graph *g, const char *ckpath,
		     uint64_t total, unsigned k, int json);

/* A graph that failed, as a JSON line of its own (several graphs, --json):
 * its error and exit code, no count. */
void report_failed_json(const char *path, const struct report_outcome *res);

/* Several graphs without --json: a table of the n that ran, and how many
 * counted. */
void report_summary(const char *const *paths, const struct report_outcome *res, size_t n);

#endif
