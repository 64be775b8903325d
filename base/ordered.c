#include "base/ordered.h"

#include <pthread.h>
#include <stdlib.h>

/* The window: items made but not yet used are in [used, taken); an item
 * is taken only below used + slots, so its slot is free. ready[slot] holds
 * the item made there plus one (0: none yet). */
struct ordered {
	tsg_produce_fn produce;
	void *ctx;
	uint64_t end;
	unsigned slots;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t taken, used;
	uint64_t first;
	uint64_t *ready;
	int rc;      /* the first failure, or 0 */
	int done;    /* stop taking items: failed, stopped or at the end */
};

struct worker {
	struct ordered *o;
	unsigned tid;
	pthread_t th;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct ordered *o = w->o;
	pthread_mutex_lock(&o->mu);
	for (;;) {
		while (!o->done && o->taken < o->end && o->taken >= o->used + o->slots)
			pthread_cond_wait(&o->cv, &o->mu);
		if (o->done || o->taken >= o->end)
			break;
		const uint64_t k = o->taken++;
		const unsigned slot = (unsigned)((k - o->first) % o->slots);
		pthread_mutex_unlock(&o->mu);
		const int rc = o->produce(o->ctx, k, slot, w->tid);
		pthread_mutex_lock(&o->mu);
		if (rc && !o->rc) {
			o->rc = rc;
			o->done = 1;
		}
		o->ready[slot] = k + 1;
		pthread_cond_broadcast(&o->cv);
	}
	pthread_mutex_unlock(&o->mu);
	return NULL;
}

int tsg_ordered_run(unsigned producers, uint64_t first, uint64_t end, unsigned slots,
		    tsg_produce_fn produce, tsg_consume_fn consume, void *ctx, uint64_t *used)
{
	struct ordered o = { .produce = produce, .ctx = ctx, .end = end,
			     .slots = slots ? slots : 1, .taken = first, .used = first,
			     .first = first };
	unsigned started = 0;
	int rc = 0, stop = 0;
	*used = first;
	producers = producers ? producers : 1;
	o.ready = calloc(o.slots, sizeof(*o.ready));
	struct worker *w = calloc(producers, sizeof(*w));
	if (!o.ready || !w) {
		free(o.ready);
		free(w);
		return -1;
	}
	pthread_mutex_init(&o.mu, NULL);
	pthread_cond_init(&o.cv, NULL);
	for (unsigned t = 0; t < producers && first < end; t++) {
		w[t] = (struct worker){ .o = &o, .tid = t };
		if (pthread_create(&w[t].th, NULL, worker_main, &w[t]) != 0)
			break;
		started++;
	}
	for (uint64_t k = first; k < end && !stop; k++) {
		const unsigned slot = (unsigned)((k - first) % o.slots);
		if (!started) { /* no thread: made here, just before it is used */
			o.taken = k + 1;
			if ((rc = produce(ctx, k, slot, 0)))
				break;
		} else {
			pthread_mutex_lock(&o.mu);
			while (o.ready[slot] != k + 1 && !o.rc)
				pthread_cond_wait(&o.cv, &o.mu);
			rc = o.rc;
			pthread_mutex_unlock(&o.mu);
			if (rc)
				break;
		}
		rc = consume(ctx, k, slot, &stop);
		pthread_mutex_lock(&o.mu);
		o.used = k + 1;
		if (rc && !o.rc)
			o.rc = rc;
		if (rc || stop)
			o.done = 1;
		pthread_cond_broadcast(&o.cv);
		pthread_mutex_unlock(&o.mu);
		if (rc)
			break;
		*used = k + 1;
	}
	pthread_mutex_lock(&o.mu);
	o.done = 1;
	pthread_cond_broadcast(&o.cv);
	pthread_mutex_unlock(&o.mu);
	for (unsigned t = 0; t < started; t++)
		pthread_join(w[t].th, NULL);
	if (!rc)
		rc = o.rc;
	pthread_mutex_destroy(&o.mu);
	pthread_cond_destroy(&o.cv);
	free(o.ready);
	free(w);
	return rc;
}
