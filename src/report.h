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
#include <stdio.h>

#include "src/checkpoint.h"
#include "src/dist.h"
#include "src/engine.h"
#include "src/hostmem.h"
#include "src/input.h"
#include "src/pervertex.h"
#include "src/plan.h"
#include "io/graph.h"
#include "base/error.h"

/* What a count adds to its result beyond the engine's. */
/* Several ranks: what rank 0 gathers of each (report_extra.rank_s), a
 * row each, size values a row. */
enum report_rank_row {
	REPORT_RANK_READ_S,       /* the stages' times: read, build (orientation, */
	REPORT_RANK_BUILD_S,      /* parts), count (device sums) and count wall */
	REPORT_RANK_COUNT_S,
	REPORT_RANK_COUNT_WALL_S,
	REPORT_RANK_READ_BYTES,   /* list bytes read by ranges */
	REPORT_RANK_UNITS,        /* units counted */
	REPORT_RANK_COUNT_FROM,   /* when its counting began and ended, seconds after */
	REPORT_RANK_COUNT_TO,     /* the ranks left one reduction; -1: not measured */
	REPORT_RANK_ROWS
};
struct report_extra {
	const struct tsg_dist *dist;    /* the ranks */
	const double *rank_s;           /* several ranks (rank 0): REPORT_RANK_ROWS rows of
					 * size values (enum report_rank_row) */
	int ranges;                     /* the ranks read by ranges (src/ranges.h) */
	int host_build;                 /* each host's ranks built one oriented graph
					 * (src/hostbuild.h) */
	double release_s;               /* several ranks: closing the shared counter and
					 * freeing the host's oriented graph */
	int taken;                      /* the units went to whichever rank was free
					 * (engine_result.taken), not dealt */
	const struct pv_clustering *cl; /* --clustering, else NULL */
	const char *pv_path;            /* --per-vertex, else NULL */
	const char *ckpt_path;          /* --checkpoint's file, else NULL */
	const struct ckpt_info *ck;
	uint64_t vertices;              /* the vertices with an edge (the id range is g->nv) */
	const struct count_plan *plan;  /* what was asked and what ran (its notes too) */
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

/* report_count_json written to f (the library's report: src/api.c). */
void report_count_json_to(FILE *f, const char *path, const struct tsg_graph *g,
			  const struct engine_opts *o, const struct engine_result *r,
			  const struct hostmem_plan *hp, const struct input_info *in, double wall,
			  const struct report_extra *x);

/* The same as lines of text, the count first. */
void report_count_text(const struct tsg_graph *g, const struct engine_opts *o,
		       const struct engine_result *r, double wall, const struct report_extra *x);

/* A graph a previous run finished (its checkpoint ckpath says so): its
 * recorded total, nothing counted now; k > 3: K-cliques. vertices: those
 * with an edge; note: the plan's notes, "" if none (JSON "note"). */
void report_finished(const char *path, const struct tsg_graph *g, uint64_t vertices,
		     const char *ckpath, uint64_t total, unsigned k, const char *note, int json);

/* `tristream info`: g's counts, degree statistics and a degree histogram
 * (in: how the input was made a graph; verified: symmetry checked exactly;
 * note: what an option did not change, "" if nothing, JSON "note" only: the
 * caller said it on stderr), as text or one JSON object. */
void report_info(const char *path, const struct tsg_graph *g, const struct input_info *in,
		 int verified, const char *note, int json);

/* An error on stderr, "tristream: error: ..." (the status's name where err
 * has no message), its bytes that are not printable text shown as '?' (a
 * message may quote a line of an input that is not text). Returns rc. */
int report_error(int rc, const struct tsg_err *err);

/* A graph that failed, as a JSON line of its own (several graphs, --json):
 * its error and exit code, no count. */
void report_failed_json(const char *path, const struct report_outcome *res);

/* Several graphs without --json: a table of the n that ran, and how many
 * counted. */
void report_summary(const char *const *paths, const struct report_outcome *res, size_t n);

#endif
