/*
 * run.h - running a count job: its graphs one after another, each made
 * countable (src/input.h), planned for (src/plan.h), counted by the engine
 * and reported (src/report.h). A graph that fails is reported and the run
 * goes on; under mpirun every rank takes the same steps, and agrees with
 * the others after each that can fail on one alone (src/dist.h).
 */
#ifndef SRC_RUN_H
#define SRC_RUN_H

#include <stddef.h>

#include "src/plan.h"
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

#endif
