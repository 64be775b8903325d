/*
 * ordered.h - items made in parallel, used in order, within a fixed window.
 *
 * Producer threads each take the next item k and make it into one of
 * `slots` slots (slot (k - first) % slots); the calling thread uses the
 * items strictly in order, k = first, first + 1, ..., as each is made. An
 * item is taken only once its slot is free again (the item slots before it
 * has been used), so at most `slots` items exist at once: memory stays
 * bounded by the slots, whatever the speeds. The consumer may stop the run
 * early (*stop): no item after the one it stopped at is used, items being
 * made are finished and dropped. A producer's or the consumer's non-zero
 * return ends the run with that code (the first one that happened).
 *
 * Used where work must be applied in order (a crawl's source block is
 * filled chunk by chunk until it is full, src/sweep.c) but making each
 * piece (decoding) is the expensive, parallel part.
 */
#ifndef TSG_ORDERED_H
#define TSG_ORDERED_H

#include <stdint.h>

/* Makes item k into slot `slot` on producer thread tid (< producers). */
typedef int (*tsg_produce_fn)(void *ctx, uint64_t k, unsigned slot, unsigned tid);
/* Uses item k, made in slot `slot`; sets *stop to end the run after it. */
typedef int (*tsg_consume_fn)(void *ctx, uint64_t k, unsigned slot, int *stop);

/* Runs items first .. end-1 as above with `producers` threads (at least
 * 1; if no thread can be started, the calling thread makes each item before
 * using it) and `slots` slots (at least producers + 1 is sensible).
 * *used gets one past the last item used (end, unless stopped or failed).
 * Returns 0 or the first non-zero code a producer or the consumer gave. */
int tsg_ordered_run(unsigned producers, uint64_t first, uint64_t end, unsigned slots,
		    tsg_produce_fn produce, tsg_consume_fn consume, void *ctx, uint64_t *used);

#endif
