/*
 * dist.h - running as one of several MPI ranks (`mpirun -n R tristream
 * count ...`), each on its own CPU or GPU, as one job.
 *
 * Every rank opens the graph itself (its own copy or a shared file
 * system), plans the same units (the plan is a function of the graph and
 * the options; ranks compare its key rather than trust it) and counts the
 * units dealt to it by cost (engine_opts.rank, nranks; engine_deal). The counts are
 * gathered on rank 0, which sums them with an overflow check and alone
 * prints. A rank that fails makes the job fail: after each step every rank
 * takes part in one agreement (dist_agree), so no rank waits for one that
 * has given up, and rank 0 reports the first failed rank and its reason.
 *
 * MPI starts only under a launcher (Open MPI's or a PMIx environment): run
 * on its own, a build with MPI behaves as one without, a single rank. A
 * build without MPI (meson -Dmpi=disabled) has the same calls, for one rank.
 */
#ifndef TSG_DIST_H
#define TSG_DIST_H

#include <stdint.h>

#include "base/error.h"

struct tsg_dist {
	int rank, size; /* 0 of 1 when MPI is not running */
	int mpi;        /* MPI_Init ran (dist_finish must finalize) */
	/* The job's failure, once an agreement found one: every rank learns it
	 * in the same agreement, and later ones return it without a word on
	 * the wire, so a rank that failed early and skipped a step's
	 * agreements cannot leave the others waiting in the next. */
	struct tsg_err failed;
};

/* Starts MPI if launched by mpirun; fails only if that start fails. */
int dist_init(struct tsg_dist *d, int *argc, char ***argv, struct tsg_err *err);
void dist_finish(struct tsg_dist *d);
/* Whether this build can run several ranks. */
int dist_available(void);

/* Every rank passes its status and error; every rank gets the job's: the
 * lowest failed rank's code, its message prefixed with "rank R: " (*err
 * is overwritten on every rank), and TSG_OK only if all succeeded. Once
 * one has failed, later ones return that failure at once (see failed)
 * until dist_begin. Any two agreements meet, wherever they are called, so
 * a step that may fail on one rank puts one before each other collective. */
int dist_agree(struct tsg_dist *d, int rc, struct tsg_err *err);

/* A new graph of a run: the failure of the one before is forgotten. */
void dist_begin(struct tsg_dist *d);

/* v[cut[q] .. cut[q + 1]) comes from rank q, for every q < size: after it,
 * every rank has all of v[0 .. cut[size]). A collective. */
void dist_allgather_u32(const struct tsg_dist *d, uint32_t *v, const uint64_t *cut);

/* Sums n values over the ranks modulo 2^64 (hashes), in place on every
 * rank. A collective. */
void dist_sum_mod_u64(const struct tsg_dist *d, uint64_t *v, uint64_t n);

/* Whether v is equal on every rank (a collective: every rank calls it). */
int dist_same_u64(const struct tsg_dist *d, uint64_t v);

/* Sums n counts over the ranks into v on every rank; TSG_EOVERFLOW if a
 * sum passes 2^64 - 1 (v then undefined). A collective. */
int dist_sum_u64(const struct tsg_dist *d, uint64_t *v, uint64_t n, struct tsg_err *err);

/* Gathers one double a rank to out[size] on rank 0 (out NULL elsewhere). */
void dist_gather_f64(const struct tsg_dist *d, double v, double *out);

#endif
