/*
 * dist.h - running as one of several MPI ranks (`mpirun -n R tristream
 * count ...`), each on its own CPU or GPU, as one job.
 *
 * Every rank opens the graph itself (its own copy or a shared file
 * system), plans the same units (the plan is a function of the graph and
 * the options; ranks compare its key rather than trust it) and counts its
 * units: the block layout's taken as it becomes free (dist_counter below,
 * engine_opts.take), others dealt by cost (engine_opts.rank, nranks;
 * engine_deal). The counts are
 * gathered on rank 0, which sums them with an overflow check and alone
 * prints. A rank that fails makes the job fail: after each step every rank
 * takes part in one agreement (dist_agree), so no rank waits for one that
 * has given up, and rank 0 reports the first failed rank and its reason.
 *
 * Every MPI call's status is checked: one that fails (a collective above
 * all, where the ranks can no longer agree) ends every rank by MPI_Abort
 * with TSG_EDEVICE, exit 6, after a message naming the call; a rank that
 * cannot get the memory to start says so in the first collective, and
 * every rank ends with TSG_ENOMEM. MPI starts only under a launcher (Open MPI's or a PMIx environment): run
 * on its own, a build with MPI behaves as one without, a single rank. A
 * build without MPI (meson -Dmpi=disabled) has the same calls, for one rank.
 */
#ifndef TSG_DIST_H
#define TSG_DIST_H

#include <stdint.h>

#include "base/error.h"

struct dist_host;

struct tsg_dist {
	int rank, size; /* 0 of 1 when MPI is not running */
	int mpi;        /* MPI_Init ran (dist_finish must finalize) */
	int serialized; /* every rank's MPI takes calls from any one thread at a
			 * time (MPI_THREAD_SERIALIZED): dist_counter needs it */
	/* The ranks that share this rank's host (its memory): this one's index
	 * among them and their number; 0 of 1 without MPI. */
	int host_rank, host_size;
	/* Over the job: the most ranks a host has, and whether MPI makes
	 * memory that the ranks of each host share (not where its one-sided
	 * component cannot, e.g. `--mca osc pt2pt`); the same on every rank. */
	int host_most, hosts_share;
	struct dist_host *host; /* their communicator, and a block they share */
	/* The job's failure, once an agreement found one: every rank learns it
	 * in the same agreement, and later ones return it without a word on
	 * the wire, so a rank that failed early and skipped a step's
	 * agreements cannot leave the others waiting in the next. */
	struct tsg_err failed;
};

/* Starts MPI if launched by mpirun; fails only if that start fails. */
int dist_init(struct tsg_dist *d, int *argc, char ***argv, struct tsg_err *err);
/* Ends MPI: TSG_OK, or TSG_EDEVICE (said on stderr) if MPI_Finalize failed. */
int dist_finish(struct tsg_dist *d);
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

/* Which ranks a collective spans: all of them, or those of this rank's
 * host (host_rank of host_size, below). */
enum dist_group { DIST_ALL, DIST_HOST };

/* v[cut[q] .. cut[q + 1]) comes from the group's rank q, for every q below
 * the group's size: after it, every rank of the group has all of v. A
 * collective over the group. */
void dist_allgather_u32(const struct tsg_dist *d, enum dist_group grp, uint32_t *v,
			const uint64_t *cut);

/* Sums n values over the group's ranks modulo 2^64 (hashes), in place on
 * each. A collective over the group. */
void dist_sum_mod_u64(const struct tsg_dist *d, enum dist_group grp, uint64_t *v, uint64_t n);

/* Whether v is equal on every rank (a collective: every rank calls it). */
int dist_same_u64(const struct tsg_dist *d, uint64_t v);

/* Sums n counts over the ranks into v on every rank; TSG_EOVERFLOW if a
 * sum passes 2^64 - 1 (v then undefined). A collective. */
int dist_sum_u64(const struct tsg_dist *d, uint64_t *v, uint64_t n, struct tsg_err *err);

/* Gathers n doubles a rank to rank 0, in one collective: out[k * size + q]
 * is rank q's v[k] (out, n * size values, NULL except on rank 0). */
int dist_gather_rows(const struct tsg_dist *d, const double *v, int n, double *out,
		     struct tsg_err *err);

/*
 * The ranks of one host, sharing memory (MPI_Comm_split_type, SHARED): the
 * oriented graph is built once a host, each of its ranks writing a share
 * of the rows into one block that all of them map (src/hostbuild.h). Each call
 * is a collective over the host's ranks; every host makes the same calls.
 * Without MPI, or alone on the host, they act on this rank alone.
 */

/* One block of bytes that every rank of the host maps, at *p (each rank
 * its own address), in place of any block made before. Fails
 * with TSG_ENOMEM on every rank of the host if it cannot be made. */
int dist_host_alloc(struct tsg_dist *d, uint64_t bytes, void **p, struct tsg_err *err);
/* Every write to the block before the call, by any rank of the host, is
 * seen by every one of them after it. */
void dist_host_sync(const struct tsg_dist *d);
/* Frees the block, if one was made for this graph (every rank of the
 * host has one, or none: dist_host_alloc is a collective), and returns
 * once every rank of the host has let go of it. */
void dist_host_free(struct tsg_dist *d);
/* Whether v is nonzero on every rank of the host. */
int dist_host_all(const struct tsg_dist *d, int v);

/*
 * A count that every rank may advance at any time, without the others
 * taking part: 0, 1, 2, ... each value handed to exactly one caller over
 * all ranks (MPI one-sided fetch-and-add on a word of rank 0's). Ranks
 * take units of work by it as they become free, so a rank that counts
 * faster, or whose units were cheaper than estimated, takes more, and none
 * waits at the end on another's backlog. Its calls may come from any
 * thread, one at a time (the caller serialises them). Where Open MPI moves
 * one-sided operations by messages (ranks on several hosts without RDMA
 * atomics), a request is answered only while rank 0 is inside MPI: where
 * the ranks span hosts, or the host's cannot share memory, a thread of
 * rank 0 enters MPI every 0.2 ms from rank 0's first take until
 * dist_counter_rest, so rank 0 must make no other MPI call in that time.
 */
struct dist_counter;

/* A collective, called by every rank whether it wants the counter or not:
 * every rank gets the same counter, at 0, if every rank wants it. *c is
 * NULL (and callers deal work otherwise) with one rank, where some rank
 * does not want it (ranks launched with other options), or where some
 * rank's MPI cannot take calls from other threads. */
int dist_counter_open(const struct tsg_dist *d, int want, struct dist_counter **c,
		      struct tsg_err *err);
/* The counter's value into *v, and adds one to it. */
int dist_counter_next(struct dist_counter *c, uint64_t *v, struct tsg_err *err);
/* This rank takes no more (its count is done, or failed): called before
 * its next MPI call other than dist_counter_next. c may be NULL. */
void dist_counter_rest(struct dist_counter *c);
/* A collective; c may be NULL. */
void dist_counter_close(struct dist_counter *c);

#endif
