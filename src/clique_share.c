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

struct share;
struct worker {
	struct share *sh;
	uint32_t i;
};

/* What the GPUs share, under mu: pieces 0 .. left-1 are still to take. */
struct share {
	struct clique_share *cs;
	const uint32_t *cut;
	pthread_mutex_t mu;
	pthread_cond_t cv;  /* wait_all: a GPU is past its hold */
	uint32_t ready;     /* wait_all: GPUs past their hold, the first's included */
	uint32_t left;
	uint32_t covered;   /* pieces counted, a merged rest as all it held */
	int merge;          /* the first GPU takes the rest in one launch */
	int decided;        /* decide ran */
	int rc;             /* the first failure (or stop): nobody takes more */
	struct tsg_err err;
	double t0;          /* the count's start */
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

/* Whether work is left to take: no failure, no stop asked, pieces left. */
static int work_left(struct share *sh)
{
	struct tsg_err e = { 0 };
	if (engine_check_stop(sh->cs->o, &e))
		return 0;
	pthread_mutex_lock(&sh->mu);
	const int left = sh->rc == TSG_OK && sh->left > 0;
	pthread_mutex_unlock(&sh->mu);
	return left;
}

/*
 * The pieces a launch takes once the first GPU's pieces foretold the rest
 * (guided self-scheduling): a share of what is left over every slot of
 * every GPU listed, so that launches shrink as the count nears its end and
 * no GPU is left with a long one; never under one piece a GPU listed
 * (1/16 of the part: ENGINE_SHARE_PIECES). Why launches of several pieces:
 * a launch lasts at least as long as its longest warp, however few its
 * sources. R-MAT 20's 6-cliques (15.0 s in one launch on one H200) took
 * 1.2 s for a piece of 1/32 of the sources alone and 20.8 s as 32 launches
 * of one piece, against 16.2 s as 16 (bench/raw/h200-2026-11-29-s56-callB);
 * on two H200s 32 launches of one piece made 13.8 s of the whole 16.9
 * (callA). Launches of 1/16 came within 7% of one launch.
 */
static uint32_t guided(uint32_t left, uint32_t want)
{
	uint32_t n = left / (GPU_SLOTS * want);
	if (n < want)
		n = want;
	return n < left ? n : left;
}

/* The next sources for GPU i into [*lo, *hi) and the pieces they hold
 * (*n): one piece until the first GPU's pieces foretold the rest, then
 * guided's share, or for the first GPU once it was found to need no help,
 * all that is left. 0 where none is (or the count failed, or a stop was
 * asked: *stop). */
static int take(struct share *sh, uint32_t i, uint32_t *lo, uint32_t *hi, uint32_t *n,
		int *stop, struct tsg_err *err)
{
	int have = 0;
	if ((*stop = engine_check_stop(sh->cs->o, err)))
		return 0;
	pthread_mutex_lock(&sh->mu);
	if (sh->rc == TSG_OK && sh->left) {
		const int all = i == 0 && sh->merge;
		*hi = sh->cut[sh->left];
		*n = all ? sh->left : sh->decided ? guided(sh->left, sh->cs->want) : 1;
		sh->left -= *n;
		*lo = sh->cut[sh->left];
		have = 1;
	}
	pthread_mutex_unlock(&sh->mu);
	return have;
}

static void *worker_main(void *arg);

/* The first GPU's second piece is in, `took` seconds after its first (0:
 * fewer pieces, or it failed first): the rest foretold, and either merged
 * into one launch or shared (the others opened, each on its own thread). */
static void decide(struct share *sh, double took)
{
	struct clique_share *cs = sh->cs;
	pthread_mutex_lock(&sh->mu);
	sh->decided = 1;
	const uint32_t left = sh->left;
	const int ok = sh->rc == TSG_OK;
	pthread_mutex_unlock(&sh->mu);
	cs->piece_s = took;
	cs->foretold_s = took * (left + 1); /* the piece in flight is the first GPU's too */
	if (!ok) {
		cs->alone = CLIQUE_SHARE_FAILED;
		return;
	}
	if (cs->keep_pieces) {
		cs->alone = CLIQUE_SHARE_KEPT;
		return;
	}
	if (!took || !left) {
		cs->alone = CLIQUE_SHARE_FEW;
		return;
	}
	if (cs->foretold_s < cs->min_s) {
		cs->alone = CLIQUE_SHARE_SHORT;
		pthread_mutex_lock(&sh->mu);
		sh->merge = 1;
		pthread_mutex_unlock(&sh->mu);
		return;
	}
	if (!work_left(sh)) { /* stopped meanwhile: open nothing */
		cs->alone = CLIQUE_SHARE_FAILED;
		return;
	}
	cs->alone = CLIQUE_SHARE_NONE_JOINED; /* until a piece is counted elsewhere */
	uint32_t started = 1;
	for (uint32_t i = 1; i < cs->want; i++) {
		sh->w[i] = (struct worker){ .sh = sh, .i = i };
		if (pthread_create(&sh->thread[i], NULL, worker_main, &sh->w[i]) != 0) {
			snprintf(cs->per[i].why, sizeof(cs->per[i].why), "no thread to drive it");
			continue;
		}
		sh->started[i] = 1;
		cs->opened_more = 1;
		started++;
	}
	if (!cs->wait_all)
		return;
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

/* Adds slot s's launch (GPU i, n pieces, sources sources) into the sums. */
static int collect(struct share *sh, uint32_t i, int s, uint32_t n, uint32_t sources,
		   struct tsg_err *err)
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
		cs->launches++;
		sh->covered += n;
		cs->per[i].pieces += n;
		cs->per[i].kernel_ms += t.kernel_ms;
		tsg_progress_update(&sh->prog, sh->covered, NULL);
		if (cs->profile)
			fprintf(stderr, "clique share: GPU %u slot %d: %u piece%s, %u sources, kernels "
				"%.1f ms, in at %.3f s\n", i, s, n, n == 1 ? "" : "s", sources,
				t.kernel_ms, tsg_now() - sh->t0);
	}
	pthread_mutex_unlock(&sh->mu);
	return rc;
}

/* GPU i: opened (i >= 1), the part held, then pieces until none is left;
 * submit the j-th, then collect the one before, as the parts' lanes do.
 * A GPU after the first opens, and takes the part, only while work is
 * left: one that comes too late stays out and says so. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct share *sh = w->sh;
	const uint32_t i = w->i;
	struct clique_share *cs = sh->cs;
	struct clique_share_gpu *me = &cs->per[i]; /* its own entry: no lock */
	struct tsg_err err = { 0 }, serr = { 0 };
	int rc = TSG_OK, stop = 0;
	uint32_t held = 0; /* pieces of the launch in the other slot, 0: none */
	uint32_t held_src = 0; /* its sources */
	double first_in = 0; /* when the first GPU's first piece was in */
	if (i && !work_left(sh)) {
		snprintf(me->why, sizeof(me->why), "not opened: no piece was left");
		held_now(sh);
		return NULL;
	}
	if (i && (rc = cs->open(cs->open_ctx, i, &cs->gpu[i], &err)) != TSG_OK) {
		snprintf(me->why, sizeof(me->why), "it did not open: %.150s", err.msg);
		held_now(sh);
		return NULL; /* the others take its pieces */
	}
	if (i && !work_left(sh)) { /* not a copy of the part for nothing */
		snprintf(me->why, sizeof(me->why), "opened, but no piece was left");
		held_now(sh);
		return NULL;
	}
	rc = gpu_clique_hold(cs->gpu[i], cs->part, &err);
	me->held = rc == TSG_OK;
	me->joined_s = tsg_now() - sh->t0;
	if (cs->profile)
		fprintf(stderr, "clique share: GPU %u held the part at %.3f s\n", i, me->joined_s);
	held_now(sh);
	if (rc) {
		snprintf(me->why, sizeof(me->why), "it did not take the part: %.150s", err.msg);
		if (i == 0)
			share_fail(sh, rc, &err);
		return NULL;
	}
	for (uint32_t j = 0; rc == TSG_OK; j++) {
		uint32_t lo = 0, hi = 0, n = 0;
		const int have = take(sh, i, &lo, &hi, &n, &stop, &serr);
		if (have)
			rc = gpu_clique_submit_sources(cs->gpu[i], (int)(j % GPU_SLOTS), lo, hi, &err);
		if (rc == TSG_OK && held) {
			rc = collect(sh, i, (int)((j - 1) % GPU_SLOTS), held, held_src, &err);
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
		held = have ? n : 0;
		held_src = hi - lo;
		if (!have)
			break;
	}
	gpu_clique_release(cs->gpu[i], &me->copy_ms, &me->bytes);
	me->busy_s = tsg_now() - sh->t0 - me->joined_s;
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
	const double t0 = tsg_now();
	cs->count = 0;
	cs->launches = 0;
	int rc = part_source_stripes(cs->part, cs->pieces, cut, &cs->npieces, err);
	if (rc) {
		free(cut);
		return rc;
	}
	sh.cut = cut;
	sh.left = cs->npieces;
	if (cs->profile)
		fprintf(stderr, "clique share: %u pieces dealt in %.3f s\n", cs->npieces,
			tsg_now() - t0);
	sh.t0 = tsg_now();
	tsg_progress_init(&sh.prog, "count", "pieces", cs->npieces, cs->progress && cs->npieces > 1);
	pthread_mutex_init(&sh.mu, NULL);
	pthread_cond_init(&sh.cv, NULL);
	sh.w[0] = (struct worker){ .sh = &sh, .i = 0 };
	worker_main(&sh.w[0]);
	if (!sh.decided) /* fewer than three pieces, or the first GPU failed first */
		decide(&sh, 0);
	for (uint32_t i = 1; i < cs->want; i++)
		if (sh.started[i])
			pthread_join(sh.thread[i], NULL);
	for (uint32_t i = 1; i < cs->want; i++)
		cs->shared |= cs->per[i].pieces > 0;
	if (cs->shared)
		cs->alone = CLIQUE_SHARE_HELPED;
	for (uint32_t i = 1; i < cs->want; i++) /* held, but every piece was taken first */
		if (cs->per[i].held && !cs->per[i].pieces && !cs->per[i].why[0])
			snprintf(cs->per[i].why, sizeof(cs->per[i].why), "it held the part once "
				 "every piece was taken");
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
