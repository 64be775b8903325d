/*
 * clique_share.c - one k-clique part on several GPUs, its sources shared
 * in pieces (clique_share.h).
 */
#include "src/clique_share.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/progress.h"
#include "base/util.h"
#include "partition/part.h"
#include "src/pipeline.h"

/* What the GPUs share, under mu. Pieces go from the top: 0 .. left-1 are
 * still to take. */
struct share;
struct worker {
	struct share *sh;
	uint32_t i;
};

struct share {
	struct clique_share *cs;
	const uint32_t *cut;
	pthread_mutex_t mu;
	pthread_cond_t cv;  /* wait_all: a GPU has the part, or failed to */
	uint32_t ready;     /* wait_all: GPUs past their hold, the first's included */
	uint32_t left;
	int decided;    /* the first GPU's first piece is in */
	int rc;         /* the first failure: nobody takes more */
	struct tsg_err err;
	double t0;      /* the count's start */
	struct tsg_progress prog;
	struct worker w[ENGINE_MAX_GPUS];
	pthread_t thread[ENGINE_MAX_GPUS];
	int started[ENGINE_MAX_GPUS];
};

static void share_fail(struct share *sh, int rc, const struct tsg_err *err)
{
	pthread_mutex_lock(&sh->mu);
	if (sh->rc == TSG_OK) {
		sh->rc = rc;
		sh->err = *err;
	}
	pthread_mutex_unlock(&sh->mu);
}

/* The next sources for GPU i into [*lo, *hi): the top piece left, or for
 * the first GPU once it was found to need no help, all that is left. 0
 * where none is (or the count failed or was stopped: *stop). */
static int take(struct share *sh, uint32_t i, uint32_t *lo, uint32_t *hi, int *stop,
		struct tsg_err *err)
{
	int have = 0;
	if ((*stop = engine_check_stop(sh->cs->o, err)))
		return 0;
	pthread_mutex_lock(&sh->mu);
	if (sh->rc == TSG_OK && sh->left) {
		const int all = i == 0 && sh->cs->merged;
		*hi = sh->cut[sh->left];
		sh->left = all ? 0 : sh->left - 1;
		*lo = sh->cut[sh->left];
		have = 1;
	}
	pthread_mutex_unlock(&sh->mu);
	return have;
}

static void *worker_main(void *arg);

/* The first GPU's second piece is in, `took` seconds after its first:
 * the rest foretold, and either merged into one launch or shared (the
 * others opened, each on its own thread). */
static void decide(struct share *sh, double took)
{
	struct clique_share *cs = sh->cs;
	pthread_mutex_lock(&sh->mu);
	sh->decided = 1;
	cs->first_s = took;
	cs->foretold_s = took * sh->left;
	if (!cs->keep_pieces && (cs->foretold_s < cs->min_s || cs->want < 2))
		cs->merged = 1;
	const int more = !cs->merged && !cs->keep_pieces && sh->rc == TSG_OK && sh->left > 0;
	pthread_mutex_unlock(&sh->mu);
	for (uint32_t i = 1; more && i < cs->want; i++) {
		sh->w[i] = (struct worker){ .sh = sh, .i = i };
		if (pthread_create(&sh->thread[i], NULL, worker_main, &sh->w[i]) != 0) {
			snprintf(cs->per[i].why, sizeof(cs->per[i].why), "no thread to drive it");
			continue;
		}
		sh->started[i] = 1;
		cs->shared = 1;
	}
	if (!cs->wait_all)
		return;
	uint32_t started = 1;
	for (uint32_t i = 1; i < cs->want; i++)
		started += (uint32_t)sh->started[i];
	pthread_mutex_lock(&sh->mu);
	while (sh->ready < started)
		pthread_cond_wait(&sh->cv, &sh->mu);
	pthread_mutex_unlock(&sh->mu);
}

/* wait_all: GPU i is past its hold (held or not). */
static void held_now(struct share *sh)
{
	pthread_mutex_lock(&sh->mu);
	sh->ready++;
	pthread_cond_broadcast(&sh->cv);
	pthread_mutex_unlock(&sh->mu);
}

/* Adds slot s's piece (GPU i) into the sums. */
static int collect(struct share *sh, uint32_t i, int s, struct tsg_err *err)
{
	struct clique_share *cs = sh->cs;
	struct gpu_timing t;
	uint64_t count = 0;
	int rc = gpu_collect(cs->gpu[i], s, &count, &t, err);
	pthread_mutex_lock(&sh->mu);
	if (rc == TSG_OK && cs->sizes)
		rc = gpu_collect_sizes(cs->gpu[i], s, cs->sizes, cs->sizes_len, err);
	if (rc == TSG_OK && count > UINT64_MAX - cs->count)
		rc = tsg_fail(err, TSG_EOVERFLOW, "the clique count passes 2^64 - 1");
	if (rc == TSG_OK) {
		cs->count += count;
		cs->counted++;
		cs->per[i].count += count;
		cs->per[i].pieces++;
		cs->per[i].kernel_ms += t.kernel_ms;
		tsg_progress_update(&sh->prog, cs->counted, NULL);
	}
	pthread_mutex_unlock(&sh->mu);
	return rc;
}

/* GPU i: opened (i >= 1), the part held, then pieces until none is left;
 * submit the j-th, then collect the one before, as the parts' lanes do. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct share *sh = w->sh;
	const uint32_t i = w->i;
	struct clique_share *cs = sh->cs;
	struct clique_share_gpu *me = &cs->per[i]; /* its own entry: no lock */
	struct tsg_err err = { 0 }, serr = { 0 };
	int rc = TSG_OK, held = 0, stop = 0;
	double first_in = 0; /* when the first GPU's first piece was in */
	if (i && (rc = cs->open(cs->open_ctx, i, &cs->gpu[i], &err)) != TSG_OK) {
		snprintf(me->why, sizeof(me->why), "it did not open: %.150s", err.msg);
		held_now(sh);
		return NULL; /* the others take its pieces */
	}
	me->opened = 1;
	rc = gpu_clique_hold(cs->gpu[i], cs->part, &err);
	me->held = rc == TSG_OK;
	held_now(sh);
	if (rc) {
		snprintf(me->why, sizeof(me->why), "it did not take the part: %.150s", err.msg);
		if (i == 0)
			share_fail(sh, rc, &err);
		return NULL;
	}
	me->joined_s = tsg_now() - sh->t0;
	for (uint32_t j = 0; rc == TSG_OK; j++) {
		uint32_t lo = 0, hi = 0;
		const int have = take(sh, i, &lo, &hi, &stop, &serr);
		if (have)
			rc = gpu_clique_submit_sources(cs->gpu[i], (int)(j % GPU_SLOTS), lo, hi, &err);
		if (rc == TSG_OK && held) {
			rc = collect(sh, i, (int)((j - 1) % GPU_SLOTS), &err);
			/* a piece's time: between the first two pieces' ends (the
			 * second ran beside the first, as every later one runs
			 * beside the one before), not the first's own, which holds
			 * the kernels' first load: from it, R-MAT 22's 4-cliques
			 * (about 0.4 s of kernels in one launch) were foretold to
			 * take 1.83 s (one H200, bench/raw/h200-2026-11-29-s55-callC) */
			if (rc == TSG_OK && i == 0 && j == 1)
				first_in = tsg_now();
			if (rc == TSG_OK && i == 0 && j == 2)
				decide(sh, tsg_now() - first_in);
		}
		if (rc == TSG_OK && stop)
			rc = tsg_fail(&err, stop, "%s", serr.msg);
		held = have;
		if (!have)
			break;
	}
	gpu_clique_release(cs->gpu[i], &me->copy_ms, &me->bytes);
	me->busy_s = tsg_now() - sh->t0;
	if (rc)
		share_fail(sh, rc, &err);
	return NULL;
}

int clique_share_count(struct clique_share *cs, struct tsg_err *err)
{
	struct share sh = { .cs = cs };
	uint32_t *cut = calloc((size_t)cs->pieces + 1, sizeof(*cut));
	if (!cut)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	cs->count = 0;
	cs->counted = 0;
	int rc = part_source_stripes(cs->part, cs->pieces, cut, &cs->npieces, err);
	if (rc) {
		free(cut);
		return rc;
	}
	sh.cut = cut;
	sh.left = cs->npieces;
	sh.t0 = tsg_now();
	tsg_progress_init(&sh.prog, "count", "pieces", cs->npieces, cs->progress && cs->npieces > 1);
	pthread_mutex_init(&sh.mu, NULL);
	pthread_cond_init(&sh.cv, NULL);
	sh.w[0] = (struct worker){ .sh = &sh, .i = 0 };
	worker_main(&sh.w[0]);
	if (!sh.decided) /* no piece, or the first GPU failed before one was in */
		decide(&sh, 0);
	for (uint32_t i = 1; i < cs->want; i++)
		if (sh.started[i])
			pthread_join(sh.thread[i], NULL);
	rc = sh.rc;
	if (rc == TSG_OK && sh.left)
		rc = tsg_fail(&sh.err, TSG_EINTERNAL, "%u of %u pieces of the part's sources were "
			      "not counted", sh.left, cs->npieces);
	if (rc)
		*err = sh.err;
	tsg_progress_done(&sh.prog);
	pthread_cond_destroy(&sh.cv);
	pthread_mutex_destroy(&sh.mu);
	free(cut);
	return rc;
}
