#include "io/sort.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct pass {
	const uint64_t *src;
	uint64_t *dst;
	size_t n, slice;
	unsigned shift, threads;
	size_t (*hist)[256]; /* per thread */
};

static void histogram(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct pass *p = arg;
	for (uint64_t t = b; t < e; t++) {
		size_t *h = p->hist[t];
		memset(h, 0, 256 * sizeof(size_t));
		size_t lo = t * p->slice, hi = lo + p->slice < p->n ? lo + p->slice : p->n;
		for (size_t i = lo; i < hi; i++)
			h[(p->src[i] >> p->shift) & 255]++;
	}
}

static void scatter(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct pass *p = arg;
	for (uint64_t t = b; t < e; t++) {
		size_t *pos = p->hist[t]; /* turned into start positions by the caller */
		size_t lo = t * p->slice, hi = lo + p->slice < p->n ? lo + p->slice : p->n;
		for (size_t i = lo; i < hi; i++) {
			uint64_t k = p->src[i];
			p->dst[pos[(k >> p->shift) & 255]++] = k;
		}
	}
}

int io_sort_u64(uint64_t *keys, uint64_t *tmp, size_t n, unsigned threads)
{
	if (n < 2)
		return 0;
	if (threads < 1)
		threads = 1;
	if (n < (size_t)threads * 65536)
		threads = (unsigned)(n / 65536) + 1;
	struct pass p = { .n = n, .threads = threads, .slice = (n + threads - 1) / threads };
	p.hist = malloc(threads * sizeof(*p.hist));
	if (!p.hist)
		return -1;
	uint64_t or_all = 0, and_all = ~0ull;
	for (size_t i = 0; i < n; i++) {
		or_all |= keys[i];
		and_all &= keys[i];
	}
	const uint64_t varying = or_all ^ and_all;
	uint64_t *src = keys, *dst = tmp;
	for (unsigned shift = 0; shift < 64; shift += 8) {
		if (((varying >> shift) & 255) == 0)
			continue; /* every key has the same byte here */
		p.src = src;
		p.dst = dst;
		p.shift = shift;
		tsg_parallel_for(threads, threads, 1, histogram, &p);
		size_t sum = 0;
		for (unsigned d = 0; d < 256; d++)
			for (unsigned t = 0; t < threads; t++) {
				size_t c = p.hist[t][d];
				p.hist[t][d] = sum;
				sum += c;
			}
		tsg_parallel_for(threads, threads, 1, scatter, &p);
		uint64_t *x = src;
		src = dst;
		dst = x;
	}
	if (src != keys)
		memcpy(keys, src, n * sizeof(*keys));
	free(p.hist);
	return 0;
}

size_t io_unique_u64(uint64_t *keys, size_t n)
{
	if (n == 0)
		return 0;
	size_t out = 1;
	for (size_t i = 1; i < n; i++)
		if (keys[i] != keys[out - 1])
			keys[out++] = keys[i];
	return out;
}
