/*
 * lists_bg.c - the lists read on a thread of their own (lists_bg.h).
 */
#include "src/lists_bg.h"

#include <stdlib.h>

#include "base/util.h"

/* Whether range r continues the complete stretch at the mark. */
static int at_mark(const struct lists_bg *s, struct io_vrange r)
{
	return s->down ? r.e == s->mark : r.b == s->mark;
}

/* From the reader's workers: vertices b .. e-1 are in and checked. A range
 * at the mark advances it, then over every held range it now reaches. */
static void on_rows(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct lists_bg *s = ctx;
	/* the reporting pass over the rows, here on the checking threads
	 * while the rest is read, rather than after the count */
	io_graph_reach_rows(s->g, b, e);
	pthread_mutex_lock(&s->mu);
	if (!at_mark(s, (struct io_vrange){ b, e })) {
		if (s->nheld == s->cap) {
			const uint64_t cap = s->cap ? 2 * s->cap : 64;
			struct io_vrange *h = realloc(s->held, cap * sizeof(*h));
			if (!h) { /* the mark stops here: waiters fail at the end */
				if (s->err.code == TSG_OK)
					tsg_fail(&s->err, TSG_ENOMEM, "out of memory following the read");
				pthread_mutex_unlock(&s->mu);
				return;
			}
			s->held = h;
			s->cap = cap;
		}
		s->held[s->nheld++] = (struct io_vrange){ b, e };
		pthread_mutex_unlock(&s->mu);
		return;
	}
	s->mark = s->down ? b : e;
	for (uint64_t i = 0; i < s->nheld;) {
		if (at_mark(s, s->held[i])) {
			s->mark = s->down ? s->held[i].b : s->held[i].e;
			s->held[i] = s->held[--s->nheld];
			i = 0; /* the new mark may reach one seen before */
		} else {
			i++;
		}
	}
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

static void *read_main(void *arg)
{
	struct lists_bg *s = arg;
	struct tsg_err err = { 0 };
	const int rc = io_graph_read_lists_until(s->g, on_rows, s, s->down, &s->halt, &err);
	pthread_mutex_lock(&s->mu);
	s->done = 1;
	s->done_at = tsg_now();
	s->stopped = rc == TSG_EINTERRUPTED && atomic_load(&s->halt);
	s->rc = rc ? rc : s->err.code;
	if (rc)
		s->err = err;
	else if (s->rc == TSG_OK && (s->down ? s->mark > 0 : s->mark < s->g->nv))
		/* a read that passed skips no row */
		s->rc = tsg_fail(&s->err, TSG_EINTERNAL, "the read ended at vertex %llu of %llu",
				 (unsigned long long)s->mark, (unsigned long long)s->g->nv);
	if (s->rc == TSG_OK)
		io_graph_reach_done(s->g);
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

int lists_bg_begin(struct lists_bg *b, struct tsg_graph *g, int down, struct tsg_err *err)
{
	*b = (struct lists_bg){ .g = g, .down = down, .mark = down ? g->nv : 0 };
	atomic_init(&b->halt, 0);
	(void)io_graph_reach_begin(g); /* no memory for it: the pass comes later */
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cv, NULL);
	if (pthread_create(&b->thread, NULL, read_main, b) != 0) {
		pthread_cond_destroy(&b->cv);
		pthread_mutex_destroy(&b->mu);
		*b = (struct lists_bg){ 0 };
		return tsg_fail(err, TSG_ENOMEM, "cannot start the reading thread");
	}
	b->started = 1;
	return TSG_OK;
}

/* Whether the complete stretch lacks row need (down: reaches no lower
 * than need; up: ends at or below it, need being one past the last row). */
static int short_of(const struct lists_bg *b, uint64_t need)
{
	return b->down ? b->mark > need : b->mark < need;
}

int lists_bg_wait_unit(struct lists_bg *b, const struct block_unit *u, struct tsg_err *err)
{
	const double t0 = tsg_now();
	const uint64_t need = b->down ? block_unit_low(u) : block_unit_top(u);
	int rc = TSG_OK;
	pthread_mutex_lock(&b->mu);
	while (short_of(b, need) && !b->done)
		pthread_cond_wait(&b->cv, &b->mu);
	if (short_of(b, need))
		rc = tsg_fail(err, b->rc ? b->rc : TSG_EINTERNAL, "%s",
			      b->rc ? b->err.msg : "the read ended before the rows a unit needs");
	b->waited_s += tsg_now() - t0;
	pthread_mutex_unlock(&b->mu);
	return rc;
}

uint64_t lists_bg_mark(struct lists_bg *b)
{
	pthread_mutex_lock(&b->mu);
	const uint64_t m = b->mark;
	pthread_mutex_unlock(&b->mu);
	return m;
}

int lists_bg_feed(void *ctx, io_rows_fn rows, void *arg, struct tsg_err *err)
{
	struct lists_bg *b = ctx;
	uint64_t fed = 0;
	if (b->down)
		return tsg_fail(err, TSG_EINTERNAL, "a read down fed to a pass in file order");
	pthread_mutex_lock(&b->mu);
	for (;;) {
		while (b->mark == fed && !b->done)
			pthread_cond_wait(&b->cv, &b->mu);
		const uint64_t to = b->mark;
		const int done = b->done;
		pthread_mutex_unlock(&b->mu);
		if (to > fed && rows) /* outside the lock: the read's marks go on */
			rows(arg, fed, to, 0);
		fed = to;
		pthread_mutex_lock(&b->mu);
		if (done && b->mark == fed)
			break;
	}
	const int rc = b->rc;
	if (rc)
		tsg_fail(err, rc, "%s", b->err.msg);
	pthread_mutex_unlock(&b->mu);
	return rc;
}

void lists_bg_stop(struct lists_bg *b)
{
	if (b->started)
		atomic_store(&b->halt, 1);
}

int lists_bg_end(struct lists_bg *b, struct tsg_err *err)
{
	if (!b->started)
		return TSG_OK;
	pthread_join(b->thread, NULL);
	const int rc = b->rc;
	if (rc)
		tsg_fail(err, rc, "%s", b->err.msg);
	free(b->held);
	pthread_cond_destroy(&b->cv);
	pthread_mutex_destroy(&b->mu);
	b->started = 0;
	b->held = NULL;
	return rc;
}
