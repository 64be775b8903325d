/*
 * dist.c - MPI ranks as one job (contract: dist.h). Every collective here
 * is reached by every rank on every path: the callers call them after each
 * step whatever its outcome.
 */
#include "src/dist.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef TSG_HAVE_MPI
#include <mpi.h>
#include <unistd.h>

int dist_available(void) { return 1; }

/* Tests of the failure paths (tests/mpi.sh): TSG_TEST_MPI_FAIL=WHERE:R
 * makes rank R take the MPI call checked in function WHERE (or the
 * allocation dist_init checks, WHERE = dist_init_alloc) as failed. */
static int test_fail(const char *where)
{
	const char *v = getenv("TSG_TEST_MPI_FAIL");
	const char *colon = v ? strchr(v, ':') : NULL;
	int rank = -1;
	if (!colon || (size_t)(colon - v) != strlen(where) || strncmp(v, where, strlen(where)) != 0)
		return 0;
	return MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == atoi(colon + 1);
}

/* Every MPI call's status is checked (MPI_COMM_WORLD and the host's
 * communicator return errors: MPI_ERRORS_RETURN). One that fails ends the
 * job: a rank that has left a collective, or whose MPI is broken, cannot
 * meet the others in an agreement (dist_agree is a collective too), and
 * they would wait for it for ever. So every rank ends, by MPI_Abort with
 * TSG_EDEVICE (exit 6, README's exit codes), after this rank says which
 * call failed (rank 0's stderr is the job's; mpirun names the rank that
 * aborted). */
static void mpi_check(int rc, const char *call, const char *where)
{
	if (rc == MPI_SUCCESS && !test_fail(where))
		return;
	char msg[MPI_MAX_ERROR_STRING] = "a test's failure (TSG_TEST_MPI_FAIL)";
	int len = 0, rank = -1;
	if (rc != MPI_SUCCESS && MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
		snprintf(msg, sizeof(msg), "error %d", rc);
	(void)MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	fprintf(stderr, "tristream: error: rank %d: MPI: %s in %s failed: %s; every rank ends "
		"(exit %d)\n", rank, call, where, msg, TSG_EDEVICE);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, TSG_EDEVICE);
	_exit(TSG_EDEVICE); /* MPI_Abort does not return; if it did, this rank still ends */
}

#define MPI_OK(call) mpi_check((call), #call, __func__)

struct dist_host {
	MPI_Comm comm;
	MPI_Win win; /* the shared block, while have */
	int have;
};

/* A window of bytes (on the host's first rank; the others map it) that
 * the host's ranks share: whether every one of them made it, the same
 * answer on each. Where some did not, the window made on the others is
 * left, not freed: its free is a collective the rest would never join (a
 * hang). A collective of the host's ranks. */
static int host_window(MPI_Comm host, int first, MPI_Aint bytes, MPI_Win *win)
{
	void *base = NULL;
	const int rc = MPI_Win_allocate_shared(first ? bytes : 0, 1, MPI_INFO_NULL, host, &base,
					       win);
	int ok = rc == MPI_SUCCESS, all = 0;
	if (ok) /* a window's errors go to its own handler: returned too */
		MPI_OK(MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN));
	MPI_OK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, host));
	return all;
}

/* Whether MPI makes memory that the host's ranks share: not where the
 * one-sided components in use cannot (e.g. `--mca osc pt2pt`), where a
 * block for the host's build would fail after its reads. */
static int host_shareable(MPI_Comm host)
{
	MPI_Win win;
	const int all = host_window(host, 1, 8, &win);
	if (all)
		MPI_OK(MPI_Win_free(&win));
	return all;
}

/* Tests of ranks on several hosts, on one (tests/mpi.sh):
 * TSG_TEST_RANKS_A_HOST=K makes each K ranks of a host (in rank order) a
 * host of their own, the last one holding what is left. Their memory is
 * still shared, so the host build works within each; the rest of the job
 * sees several hosts. */
static MPI_Comm test_hosts(MPI_Comm host)
{
	const char *v = getenv("TSG_TEST_RANKS_A_HOST");
	const int k = v ? atoi(v) : 0;
	if (k < 1)
		return host;
	int me = 0;
	MPI_Comm split;
	MPI_OK(MPI_Comm_rank(host, &me));
	MPI_OK(MPI_Comm_split(host, me / k, me, &split));
	MPI_OK(MPI_Comm_free(&host));
	MPI_OK(MPI_Comm_set_errhandler(split, MPI_ERRORS_RETURN));
	return split;
}

/* Launched by mpirun (Open MPI) or another PMIx launcher. */
static int launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE");
}

int dist_init(struct tsg_dist *d, int *argc, char ***argv, struct tsg_err *err)
{
	*d = (struct tsg_dist){ .rank = 0, .size = 1, .host_size = 1, .host_most = 1 };
	if (!launched())
		return TSG_OK;
	/* serialized: several GPUs of a rank take units (dist_counter) from
	 * their own threads, one at a time */
	int provided = MPI_THREAD_SINGLE;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
		return tsg_fail(err, TSG_EDEVICE, "MPI could not start");
	d->mpi = 1;
	/* errors come back to be checked (mpi_check), not Open MPI's own abort,
	 * whose exit code is not ours */
	MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &d->rank));
	MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &d->size));
	/* the host's ranks: a block they share is failed, not aborted on. A
	 * rank without the memory says so to the others in the first
	 * collective, so none waits in the next for one that has gone */
	struct dist_host *h = test_fail("dist_init_alloc") ? NULL : calloc(1, sizeof(*h));
	int mine[2] = { provided, h != NULL }, least[2] = { 0, 0 };
	MPI_OK(MPI_Allreduce(mine, least, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
	if (!least[1]) {
		free(h);
		MPI_OK(MPI_Finalize());
		d->mpi = 0;
		return tsg_fail(err, TSG_ENOMEM, h ? "another rank ran out of memory starting MPI"
						   : "rank %d ran out of memory starting MPI", d->rank);
	}
	d->serialized = least[0] >= MPI_THREAD_SERIALIZED;
	MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, d->rank, MPI_INFO_NULL,
				   &h->comm));
	MPI_OK(MPI_Comm_set_errhandler(h->comm, MPI_ERRORS_RETURN));
	h->comm = test_hosts(h->comm);
	MPI_OK(MPI_Comm_rank(h->comm, &d->host_rank));
	MPI_OK(MPI_Comm_size(h->comm, &d->host_size));
	/* over the job: whether each host's ranks can build one graph, so
	 * that every rank takes the same steps (a host of one rank then
	 * builds alone, in a block of its own) */
	int v[2] = { -d->host_size, host_shareable(h->comm) };
	MPI_OK(MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
	d->host_most = -v[0];
	d->hosts_share = v[1];
	d->host = h;
	return TSG_OK;
}

int dist_finish(struct tsg_dist *d)
{
	int rc = MPI_SUCCESS;
	if (d->host) {
		dist_host_free(d);
		MPI_OK(MPI_Comm_free(&d->host->comm));
		free(d->host);
		d->host = NULL;
	}
	if (d->mpi)
		rc = MPI_Finalize(); /* past it, no MPI_Abort: said, and the exit code */
	d->mpi = 0;
	if (rc != MPI_SUCCESS) {
		fprintf(stderr, "tristream: error: rank %d: MPI: MPI_Finalize failed\n", d->rank);
		return TSG_EDEVICE;
	}
	return TSG_OK;
}

void dist_begin(struct tsg_dist *d) { d->failed = (struct tsg_err){ 0 }; }

int dist_agree(struct tsg_dist *d, int rc, struct tsg_err *err)
{
	if (!d->mpi)
		return rc;
	if (d->failed.code) {
		*err = d->failed;
		return err->code;
	}
	/* the lowest failed rank: min over (rank if failed, else size) */
	int mine = rc ? d->rank : d->size, first = d->size;
	MPI_OK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
	if (first == d->size)
		return TSG_OK;
	struct { int code; char msg[sizeof(err->msg)]; } m = { 0 };
	if (d->rank == first) {
		m.code = rc;
		snprintf(m.msg, sizeof(m.msg), "%s", err->msg);
	}
	MPI_OK(MPI_Bcast(&m, (int)sizeof(m), MPI_BYTE, first, MPI_COMM_WORLD));
	err->code = 0;
	err->msg[0] = 0;
	tsg_fail(err, m.code, "rank %d: %.*s", first, (int)sizeof(err->msg) - 16, m.msg);
	d->failed = *err;
	return err->code;
}

/* MPI counts are ints: big arrays go in pieces */
enum { DIST_PIECE = 1 << 28 };

static void allgather_u32(MPI_Comm comm, int size, uint32_t *v, const uint64_t *cut)
{
	for (int q = 0; q < size; q++)
		for (uint64_t at = cut[q]; at < cut[q + 1];) {
			const int c = cut[q + 1] - at > DIST_PIECE ? DIST_PIECE : (int)(cut[q + 1] - at);
			MPI_OK(MPI_Bcast(v + at, c, MPI_UINT32_T, q, comm));
			at += (uint64_t)c;
		}
}

static void sum_mod_u64(MPI_Comm comm, uint64_t *v, uint64_t n)
{
	for (uint64_t at = 0; at < n;) { /* unsigned sums wrap, as the hash wants */
		const int c = n - at > DIST_PIECE ? DIST_PIECE : (int)(n - at);
		MPI_OK(MPI_Allreduce(MPI_IN_PLACE, v + at, c, MPI_UINT64_T, MPI_SUM, comm));
		at += (uint64_t)c;
	}
}

void dist_allgather_u32(const struct tsg_dist *d, enum dist_group grp, uint32_t *v,
			const uint64_t *cut)
{
	if (grp == DIST_HOST && d->host)
		allgather_u32(d->host->comm, d->host_size, v, cut);
	else if (grp == DIST_ALL && d->mpi)
		allgather_u32(MPI_COMM_WORLD, d->size, v, cut);
}

void dist_sum_mod_u64(const struct tsg_dist *d, enum dist_group grp, uint64_t *v, uint64_t n)
{
	if (grp == DIST_HOST && d->host)
		sum_mod_u64(d->host->comm, v, n);
	else if (grp == DIST_ALL && d->mpi)
		sum_mod_u64(MPI_COMM_WORLD, v, n);
}

int dist_host_alloc(struct tsg_dist *d, uint64_t bytes, void **p, struct tsg_err *err)
{
	*p = NULL;
	if (!d->host)
		return tsg_fail(err, TSG_EINTERNAL, "no host block to make here");
	struct dist_host *h = d->host;
	dist_host_free(d); /* a pass before, given up (every rank of the host had one) */
	void *base = NULL;
	MPI_Aint size = 0;
	int unit = 1;
	if (!host_window(h->comm, d->host_rank == 0, (MPI_Aint)bytes, &h->win))
		return tsg_fail(err, TSG_ENOMEM, "cannot make a block of %llu bytes shared by "
				"the %d ranks of this host", (unsigned long long)bytes,
				d->host_size);
	MPI_OK(MPI_Win_shared_query(h->win, 0, &size, &unit, &base));
	/* a passive epoch for MPI_Win_sync (dist_host_sync) */
	MPI_OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, h->win));
	h->have = 1;
	*p = base;
	return TSG_OK;
}

int dist_host_all(const struct tsg_dist *d, int v)
{
	int all = v != 0;
	if (d->host)
		MPI_OK(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, d->host->comm));
	return all;
}

void dist_host_sync(const struct tsg_dist *d)
{
	if (!d->host)
		return;
	if (d->host->have)
		MPI_OK(MPI_Win_sync(d->host->win)); /* this rank's stores out */
	MPI_OK(MPI_Barrier(d->host->comm));
	if (d->host->have)
		MPI_OK(MPI_Win_sync(d->host->win)); /* and the others' in */
}

void dist_host_free(struct tsg_dist *d)
{
	if (!d->host || !d->host->have)
		return;
	MPI_OK(MPI_Win_unlock_all(d->host->win));
	MPI_OK(MPI_Win_free(&d->host->win));
	/* the block's pages go back in whichever rank unmaps it last (4.2 GB
	 * of 4 KiB pages: about 0.3 s on an H200 host, bench/RESULTS.md):
	 * every rank waits for that, so a rank's time includes it */
	MPI_OK(MPI_Barrier(d->host->comm));
	d->host->have = 0;
}

int dist_same_u64(const struct tsg_dist *d, uint64_t v)
{
	if (!d->mpi)
		return 1;
	uint64_t lo = 0, hi = 0;
	MPI_OK(MPI_Allreduce(&v, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD));
	MPI_OK(MPI_Allreduce(&v, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD));
	return lo == hi;
}

/* a + b, saturating at 2^64 - 1: a saturated sum is an overflow */
static void sat_add(void *in, void *inout, int *len, MPI_Datatype *t)
{
	(void)t;
	const uint64_t *a = in;
	uint64_t *b = inout;
	for (int i = 0; i < *len; i++)
		if (__builtin_add_overflow(a[i], b[i], &b[i]))
			b[i] = UINT64_MAX;
}

int dist_sum_u64(const struct tsg_dist *d, uint64_t *v, uint64_t n, struct tsg_err *err)
{
	if (!d->mpi || n == 0)
		return TSG_OK;
	MPI_Op op;
	MPI_OK(MPI_Op_create(sat_add, 1, &op));
	int ovf = 0;
	for (uint64_t at = 0; at < n;) { /* MPI counts are ints */
		const int c = n - at > (1u << 28) ? 1 << 28 : (int)(n - at);
		MPI_OK(MPI_Allreduce(MPI_IN_PLACE, v + at, c, MPI_UINT64_T, op, MPI_COMM_WORLD));
		for (int i = 0; i < c; i++)
			ovf |= v[at + (uint64_t)i] == UINT64_MAX;
		at += (uint64_t)c;
	}
	MPI_OK(MPI_Op_free(&op));
	return ovf ? tsg_fail(err, TSG_EOVERFLOW, "a count summed over the ranks passes "
			      "2^64 - 2") : TSG_OK;
}

int dist_gather_rows(const struct tsg_dist *d, const double *v, int n, double *out,
		     struct tsg_err *err)
{
	if (!d->mpi) {
		if (out)
			memcpy(out, v, (size_t)n * sizeof(*v));
		return TSG_OK;
	}
	/* rank q's values arrive together: rank 0 turns them into rows. Rank
	 * 0 says first whether it has room (out, and the buffer): a gather
	 * into nothing would fail on rank 0 alone */
	double *all = d->rank == 0 && out ? malloc((size_t)n * (size_t)d->size * sizeof(*all))
					  : NULL;
	int room = all != NULL;
	MPI_OK(MPI_Bcast(&room, 1, MPI_INT, 0, MPI_COMM_WORLD));
	if (!room)
		return tsg_fail(err, TSG_ENOMEM, "%s", d->rank == 0 ? "out of memory gathering the "
				"ranks' times" : "rank 0 ran out of memory gathering the ranks' times");
	MPI_OK(MPI_Gather(v, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD));
	for (int q = 0; all && q < d->size; q++)
		for (int k = 0; k < n; k++)
			out[(size_t)k * (size_t)d->size + (size_t)q] = all[(size_t)q * (size_t)n + (size_t)k];
	free(all);
	return TSG_OK;
}

/* Rank 0 holds the word; where Open MPI moves one-sided operations by
 * messages (osc/pt2pt: ranks on several hosts without RDMA atomics), a
 * rank's fetch is answered only while rank 0 is inside MPI. Measured with
 * `--mca osc pt2pt`, two CPU ranks, R-MAT 19 (bench/take.py,
 * bench/RESULTS.md): rank 1 took 8 of 36 units and the count's wall time
 * was 1.6 times the shared-memory one's. So while rank 0 counts (from its
 * first take to dist_counter_rest) a thread of its own enters MPI every
 * PUMP_NS: every MPI call of rank 0 in that time holds mu
 * (MPI_THREAD_SERIALIZED). Not on one host whose ranks share memory: there
 * the fetches go through it (osc/sm), and the pump's wake-ups only cost a
 * busy host's cores. */
#define PUMP_NS 200000L

struct dist_counter {
	MPI_Win win;
	MPI_Comm probe; /* a communicator of its own: its probes match nothing */
	int pumps;      /* rank 0, and the fetches may go by messages */
	pthread_mutex_t mu;
	pthread_cond_t wake;
	pthread_t pump;
	int pumping, resting; /* the pump started; asked to stop */
};

static void *pump_main(void *arg)
{
	struct dist_counter *c = arg;
	pthread_mutex_lock(&c->mu);
	while (!c->resting) {
		int flag = 0;
		/* any call into MPI lets Open MPI progress: the others' fetches
		 * waiting on this rank's word are answered */
		MPI_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c->probe, &flag, MPI_STATUS_IGNORE));
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t); /* the wake's clock (open) */
		t.tv_nsec += PUMP_NS;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		while (!c->resting && pthread_cond_timedwait(&c->wake, &c->mu, &t) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

int dist_counter_open(const struct tsg_dist *d, int want, struct dist_counter **c,
		      struct tsg_err *err)
{
	*c = NULL;
	if (!d->mpi || d->size < 2 || !d->serialized) /* the same on every rank */
		return TSG_OK;
	int all_want = 0;
	MPI_OK(MPI_Allreduce(&want, &all_want, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
	if (!all_want)
		return TSG_OK;
	struct dist_counter *n = calloc(1, sizeof(*n));
	uint64_t *word = NULL, zero = 0;
	/* collectives even when this rank is out of memory: it then takes
	 * part, and fails after */
	MPI_Win win;
	MPI_Comm probe;
	MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &probe));
	MPI_OK(MPI_Win_allocate(d->rank == 0 ? 8 : 0, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &word,
				&win));
	MPI_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	MPI_OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
	if (d->rank == 0) { /* set through the window: ordered before any rank's fetch */
		MPI_OK(MPI_Put(&zero, 1, MPI_UINT64_T, 0, 0, 1, MPI_UINT64_T, win));
		MPI_OK(MPI_Win_flush(0, win));
	}
	MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
	int ok = n != NULL, all = 0;
	MPI_OK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
	if (!all) {
		MPI_OK(MPI_Win_unlock_all(win));
		MPI_OK(MPI_Win_free(&win));
		MPI_OK(MPI_Comm_free(&probe));
		free(n);
		return tsg_fail(err, TSG_ENOMEM, "out of memory for the ranks' shared count");
	}
	n->win = win;
	n->probe = probe;
	n->pumps = d->rank == 0 && (d->host_size < d->size || !d->hosts_share);
	pthread_mutex_init(&n->mu, NULL);
	pthread_condattr_t ca; /* a pump's waits keep their length if the date is set */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&n->wake, &ca);
	pthread_condattr_destroy(&ca);
	*c = n;
	return TSG_OK;
}

int dist_counter_next(struct dist_counter *c, uint64_t *v, struct tsg_err *err)
{
	const uint64_t one = 1;
	pthread_mutex_lock(&c->mu);
	/* the owner's first take: its count begins, the pump with it (without
	 * one, the fetches wait as they would: slower, never wrong) */
	if (c->pumps && !c->pumping && !c->resting)
		c->pumping = pthread_create(&c->pump, NULL, pump_main, c) == 0;
	const int ok = MPI_Fetch_and_op(&one, v, MPI_UINT64_T, 0, 0, MPI_SUM, c->win) ==
			       MPI_SUCCESS &&
		       MPI_Win_flush(0, c->win) == MPI_SUCCESS;
	pthread_mutex_unlock(&c->mu);
	if (!ok)
		return tsg_fail(err, TSG_EDEVICE, "MPI: taking a unit from the ranks' shared count "
				"failed");
	return TSG_OK;
}

void dist_counter_rest(struct dist_counter *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->mu);
	c->resting = 1;
	pthread_cond_signal(&c->wake);
	const int pumping = c->pumping;
	c->pumping = 0;
	pthread_mutex_unlock(&c->mu);
	if (pumping)
		pthread_join(c->pump, NULL);
}

void dist_counter_close(struct dist_counter *c)
{
	if (!c)
		return;
	dist_counter_rest(c);
	MPI_OK(MPI_Win_unlock_all(c->win));
	MPI_OK(MPI_Win_free(&c->win));
	MPI_OK(MPI_Comm_free(&c->probe));
	pthread_cond_destroy(&c->wake);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

#else /* one rank */

int dist_available(void) { return 0; }

int dist_init(struct tsg_dist *d, int *argc, char ***argv, struct tsg_err *err)
{
	(void)argc;
	(void)argv;
	(void)err;
	*d = (struct tsg_dist){ .rank = 0, .size = 1, .host_size = 1, .host_most = 1 };
	return TSG_OK;
}

int dist_finish(struct tsg_dist *d)
{
	(void)d;
	return TSG_OK;
}
int dist_host_alloc(struct tsg_dist *d, uint64_t bytes, void **p, struct tsg_err *err)
{
	(void)d;
	(void)bytes;
	*p = NULL;
	return tsg_fail(err, TSG_EINTERNAL, "no ranks to share a host with");
}
void dist_host_sync(const struct tsg_dist *d) { (void)d; }
void dist_host_free(struct tsg_dist *d) { (void)d; }
int dist_host_all(const struct tsg_dist *d, int v)
{
	(void)d;
	return v != 0;
}
int dist_agree(struct tsg_dist *d, int rc, struct tsg_err *err)
{
	(void)d;
	(void)err;
	return rc;
}
void dist_begin(struct tsg_dist *d) { (void)d; }
void dist_allgather_u32(const struct tsg_dist *d, enum dist_group grp, uint32_t *v,
			const uint64_t *cut)
{
	(void)d;
	(void)grp;
	(void)v;
	(void)cut;
}
void dist_sum_mod_u64(const struct tsg_dist *d, enum dist_group grp, uint64_t *v, uint64_t n)
{
	(void)d;
	(void)grp;
	(void)v;
	(void)n;
}
int dist_same_u64(const struct tsg_dist *d, uint64_t v)
{
	(void)d;
	(void)v;
	return 1;
}
int dist_sum_u64(const struct tsg_dist *d, uint64_t *v, uint64_t n, struct tsg_err *err)
{
	(void)d;
	(void)v;
	(void)n;
	(void)err;
	return TSG_OK;
}
int dist_gather_rows(const struct tsg_dist *d, const double *v, int n, double *out,
		     struct tsg_err *err)
{
	(void)d;
	(void)err;
	if (out)
		memcpy(out, v, (size_t)n * sizeof(*v));
	return TSG_OK;
}
int dist_counter_open(const struct tsg_dist *d, int want, struct dist_counter **c,
		      struct tsg_err *err)
{
	(void)d;
	(void)want;
	(void)err;
	*c = NULL;
	return TSG_OK;
}
int dist_counter_next(struct dist_counter *c, uint64_t *v, struct tsg_err *err)
{
	(void)c;
	(void)v;
	return tsg_fail(err, TSG_EINTERNAL, "no ranks to share a count with");
}
void dist_counter_rest(struct dist_counter *c) { (void)c; }
void dist_counter_close(struct dist_counter *c) { (void)c; }

#endif
