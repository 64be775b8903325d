/*
 * run.h - running a count job: its graphs one after another, each made
 * countable (src/input.h), planned for (src/plan.h), counted by the engine
 * and reported (src/report.h). A graph that fails is reported and the run
 * goes on; under mpirun every rank takes the same steps, and agrees with
 * the others after each that can fail on one alone (src/dist.h).
 *
 * run_graph is the count of one graph under its plan, everything but the
 * report: `tristream count` (run_count) and the library (src/api.c) both
 * count through it, so that a count is the same whoever asked for it.
 */
#ifndef SRC_RUN_H
#define SRC_RUN_H

#include <stddef.h>

#include "src/checkpoint.h"
#include "src/plan.h"
#include "src/pervertex.h"
#include "io/graph.h"
#include "base/error.h"

/* The graphs of a count: the command line's (argv, argc of them), then
 * the manifest's lines (blank lines and '#' comments skipped; a relative
 * path taken from the manifest's directory; *mbuf holds them, to be
 * freed). TSG_EUSAGE if there are none. */
int run_gather_graphs(int argc, const char *const *argv, const char *manifest, const char ***out,
		      size_t *n, char **mbuf, struct tsg_err *err);

/* --checkpoint with several graphs, or naming a directory: a file a graph
 * there (made if need be); else the file itself. */
int run_place_checkpoints(struct count_plan *job, size_t n, struct tsg_err *err);

/* Counts the n graphs in turn with job; a graph that fails is reported
 * (--json: an object with its error) and the run goes on, unless asked to
 * stop. Several graphs without --json: a summary table last. Returns the
 * first failure's status. */
int run_count(const struct count_plan *job, const char *const *paths, size_t n);

/* What run_graph leaves for the report (free it with run_graph_free). */
struct run_graph {
	struct tsg_graph *g;      /* the graph counted: own, or the caller's in memory */
	struct tsg_graph own;
	struct engine_result r;
	struct input_info in;     /* how the input was made countable */
	struct pv_clustering cl;  /* the request's clustering (req->clustering) */
	char auto_note[256];      /* why auto took the CPU before the count, or "" (as
				   * engine_result.note) */
	uint64_t vertices;        /* those with an edge (the id range is g->nv) */
	int finished;             /* its checkpoint says a run before counted it: total,
				   * and nothing counted now */
	uint64_t total;
	struct ckpt *ck;          /* --checkpoint, else NULL */
	struct ckpt_info cki;     /* several ranks: what all their files did */
	char ckpath[4400];
	double *rank_s;           /* several ranks (rank 0): each one's times, bytes and
				   * units (enum report_rank_row) */
	double release_s;         /* several ranks: the shared counter and the host's
				   * oriented graph given back */
	double t0, wall;          /* when it began; its whole time, once counted */
};

/* Counts the graph at path under pl, its plan (plan_graph's), or with
 * path NULL the graph mem, already in memory (pl then the job's plan):
 * the input made countable (the GPU's context made meanwhile), the device
 * chosen where auto, the checkpoint, engine_count, the ranks' counts
 * summed, per-vertex counts written and clustering computed, as the
 * request asks. pl is settled no further than the count (plan_settle is
 * the report's). Notes go to stderr with progress. Under mpirun every
 * rank calls it, and gets the job's status. *rg is filled whatever the
 * outcome, to be freed by run_graph_free. */
int run_graph(struct count_plan *pl, const char *path, struct tsg_graph *mem,
	      struct run_graph *rg, struct tsg_err *err);

/* Frees what run_graph kept (never the caller's graph in memory); rg
 * zeroed is freed too. */
void run_graph_free(struct run_graph *rg);

#endif
