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

void io_sort_u32(uint32_t *keys, uint32_t *tmp, size_t n)
{
	/* LSD over 11-bit digits: three passes cover 32 bits; a digit every
	 * key shares is skipped, as ids of one list often share high bits */
	size_t h[3][2048] = { { 0 } };
	uint32_t or_all = 0, and_all = ~0u;
	for (size_t i = 0; i < n; i++) {
		const uint32_t k = keys[i];
		or_all |= k;
		and_all &= k;
		h[0][k & 2047]++;
		h[1][(k >> 11) & 2047]++;
		h[2][k >> 22]++;
	}
	const uint32_t varying = or_all ^ and_all;
	uint32_t *src = keys, *dst = tmp;
	for (unsigned d = 0; d < 3; d++) {
		const unsigned shift = 11 * d;
		if (((varying >> shift) & 2047) == 0)
			continue;
		size_t sum = 0;
		for (unsigned b = 0; b < 2048; b++) {
			const size_t c = h[d][b];
			h[d][b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[h[d][(src[i] >> shift) & 2047]++] = src[i];
		uint32_t *x = src;
		src = dst;
		dst = x;
	}
	if (src != keys)
		memcpy(keys, src, n * sizeof(*keys));
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
