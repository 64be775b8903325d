/*
 * cpu_merge.c - CPU triangle counting by sorted-list intersection.
 *
 * Technique: degree-oriented "forward" counting (Schank and Wagner, 2005;
 * the basis of GAPBS tc.cc's OrderedCount). For each source a and each
 * b in out(a), |out(a) ∩ out(b)| is taken by a linear merge; orientation by
 * (degree, id) bounds every out-degree by O(sqrt(m)).
 * Input: a tsg_dag (kernels/dag.h) with increasing lists.
 * Wins: needs no scratch memory and reads both lists sequentially; best
 * when out-lists are short and similar in length.
 *
 * cpu_hash (below, same file since the two share their driver): marks out(a)
 * in a per-thread bitmap and probes it with every element of every out(b),
 * one load per probe instead of a merge. Wins on skewed graphs where some
 * out(a) is long. Scratch: nv bits per thread.
 *
 * Parallel over sources in dynamic chunks: work per source is very uneven.
 */
#include "cpu.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int kern_cpu_parse(const char *s, enum kern_cpu_kind *out)
{
	if (strcmp(s, "merge") == 0)
		*out = KERN_CPU_MERGE;
	else if (strcmp(s, "hash") == 0)
		*out = KERN_CPU_HASH;
	else
		return TSG_EUSAGE;
	return TSG_OK;
}

const char *kern_cpu_name(enum kern_cpu_kind k)
{
	return k == KERN_CPU_MERGE ? "cpu-merge" : "cpu-hash";
}

struct job {
	const struct tsg_dag *d;
	uint64_t **bitmaps; /* per thread, hash kind only */
	atomic_uint_fast64_t total;
};

static uint64_t merge_count(const uint32_t *a, const uint32_t *ae, const uint32_t *b,
			    const uint32_t *be)
{
	uint64_t c = 0;
	while (a < ae && b < be) {
		uint32_t x = *a, y = *b;
		c += x == y;
		a += x <= y;
		b += y <= x;
	}
	return c;
}

static void merge_range(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	(void)tid;
	struct job *j = arg;
	const struct tsg_dag *d = j->d;
	uint64_t sum = 0;
	for (uint64_t i = lo; i < hi; i++) {
		uint32_t a = d->src[i];
		const uint32_t *na = d->adj + d->off[a], *nae = d->adj + d->off[a + 1];
		for (const uint32_t *p = na; p < nae; p++)
			sum += merge_count(na, nae, d->adj + d->off[*p], d->adj + d->off[*p + 1]);
	}
	atomic_fetch_add_explicit(&j->total, sum, memory_order_relaxed);
}

static void hash_range(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	struct job *j = arg;
	const struct tsg_dag *d = j->d;
	uint64_t *bm = j->bitmaps[tid], sum = 0;
	for (uint64_t i = lo; i < hi; i++) {
		uint32_t a = d->src[i];
		const uint32_t *na = d->adj + d->off[a], *nae = d->adj + d->off[a + 1];
		for (const uint32_t *p = na; p < nae; p++)
			bm[*p >> 6] |= 1ull << (*p & 63);
		for (const uint32_t *p = na; p < nae; p++)
			for (uint64_t k = d->off[*p]; k < d->off[*p + 1]; k++)
				sum += (bm[d->adj[k] >> 6] >> (d->adj[k] & 63)) & 1;
		for (const uint32_t *p = na; p < nae; p++)
			bm[*p >> 6] = 0;
	}
	atomic_fetch_add_explicit(&j->total, sum, memory_order_relaxed);
}

int kern_cpu_count(const struct tsg_dag *d, enum kern_cpu_kind kind, unsigned threads,
		   uint64_t *count, struct tsg_err *err)
{
	struct job j = { .d = d };
	int rc = TSG_OK;
	atomic_init(&j.total, 0);
	if (threads == 0)
		threads = 1;
	if (kind == KERN_CPU_HASH) {
		j.bitmaps = calloc(threads, sizeof(*j.bitmaps));
		if (!j.bitmaps) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory for hash kernel scratch");
			goto done;
		}
		for (unsigned t = 0; t < threads; t++)
			if (!(j.bitmaps[t] = calloc(d->nv / 64 + 1, 8))) {
				rc = tsg_fail(err, TSG_ENOMEM, "out of memory for hash kernel scratch "
					      "(%u threads x %u bits)", threads, d->nv);
				goto done;
			}
	}
	tsg_parallel_for(threads, d->nsrc, 256, kind == KERN_CPU_HASH ? hash_range : merge_range, &j);
	*count = atomic_load(&j.total);
done:
	if (j.bitmaps)
		for (unsigned t = 0; t < threads; t++)
			free(j.bitmaps[t]);
	free(j.bitmaps);
	return rc;
}
