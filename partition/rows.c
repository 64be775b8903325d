/*
 * rows.c - rank, row sorts and arenas shared by the row writers (rows.h).
 */
#include "partition/rows.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

enum { INSERTION_MAX = 24, RADIX_MIN = 32 };

static void insertion_sort(uint32_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const uint32_t x = a[i];
		size_t j = i;
		for (; j > 0 && a[j - 1] > x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* Quicksort with a median-of-three pivot; recursion only on the smaller
 * side, so the stack stays O(log n). */
static void sort_u32(uint32_t *a, size_t n)
{
	while (n > INSERTION_MAX) {
		uint32_t x = a[0], y = a[n / 2], z = a[n - 1];
		const uint32_t pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
		size_t i = 0, j = n - 1;
		for (;;) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i >= j)
				break;
			const uint32_t t = a[i];
			a[i++] = a[j];
			a[j--] = t;
		}
		const size_t left = j + 1;
		if (left < n - left) {
			sort_u32(a, left);
			a += left;
			n -= left;
		} else {
			sort_u32(a + left, n - left);
			n = left;
		}
	}
	insertion_sort(a, n);
}

/* LSD radix sort, a byte at a time, skipping bytes all ids share (the high
 * ones, mostly). It has no data-dependent branches: for rows of 32 ids or
 * more it cut the row sorts of R-MAT 22 from 0.82 s to about 0.22 s (2
 * threads), the orientation from 1.43 s to 0.83 s. */
static void radix_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
	uint32_t cnt[4][256] = { { 0 } };
	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < 4; d++)
			cnt[d][a[i] >> (8 * d) & 255]++;
	uint32_t *src = a, *dst = tmp;
	for (int d = 0; d < 4; d++) {
		uint32_t *c = cnt[d];
		if (c[src[0] >> (8 * d) & 255] == n)
			continue; /* one bucket: this byte leaves the order as it is */
		uint32_t sum = 0;
		for (int k = 0; k < 256; k++) {
			const uint32_t x = c[k];
			c[k] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[src[i] >> (8 * d) & 255]++] = src[i];
		uint32_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

void part_sort_ids(uint32_t *a, uint32_t *scratch, size_t n)
{
	if (n >= RADIX_MIN)
		radix_sort(a, scratch, n);
	else
		sort_u32(a, n);
}

/* Rank: a counting sort by degree, stable in id order, which is (degree,
 * id) order. Degrees below DEG_EXACT are counted exactly, per thread over a
 * contiguous block of ids; the few vertices above (hubs) take the last
 * ranks and are sorted by (degree, id) among themselves. Two passes over
 * the offsets and a cache-resident histogram per thread: at R-MAT 27 the
 * radix sort of (degree, id) keys it replaces took 1.7-2.3 s of 16 cores. */
enum { DEG_EXACT = 1 << 16 };

struct rctx {
	const struct tsg_graph *g;
	uint32_t *rank;
	uint64_t nblocks;
	uint64_t *hist;    /* nblocks x DEG_EXACT: counts, then each block's next rank */
	int assign;        /* rank_pass: 0 counts, 1 assigns */
	uint64_t first;    /* the top bucket's first rank */
	uint64_t *hubs;    /* its (degree, id) keys, nv - first of them */
};

static uint64_t block_lo(const struct rctx *c, uint64_t b) { return c->g->nv * b / c->nblocks; }

/* Over whole blocks of ids: first (assign 0) each block's degree counts,
 * then (assign 1) the ranks, from the starts the prefix sums left in hist. */
static void rank_pass(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct rctx *c = arg;
	const uint64_t *off = io_graph_rank_off(c->g); /* a crawl's bounds, while decoded */
	for (uint64_t k = b; k < e; k++) {
		uint64_t *h = c->hist + k * DEG_EXACT;
		for (uint64_t v = block_lo(c, k); v < block_lo(c, k + 1); v++) {
			const uint64_t d = off[v + 1] - off[v];
			if (!c->assign)
				h[d < DEG_EXACT ? d : DEG_EXACT - 1]++;
			else if (d < DEG_EXACT - 1)
				c->rank[v] = (uint32_t)h[d]++;
			else /* a hub: its key goes to the top bucket's slot, sorted after */
				c->hubs[h[DEG_EXACT - 1]++ - c->first] = d << 32 | v;
		}
	}
}

static int cmp_u64(const void *x, const void *y)
{
	const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

int part_rank(const struct tsg_graph *g, unsigned threads, uint32_t *rank, uint64_t *nzero)
{
	const uint64_t nv = g->nv;
	struct rctx c = { .g = g, .rank = rank, .nblocks = threads };
	c.hist = calloc(c.nblocks * DEG_EXACT, sizeof(*c.hist));
	if (!c.hist)
		return -1;
	tsg_parallel_for(threads, c.nblocks, 1, rank_pass, &c);
	uint64_t next = 0;
	for (uint64_t d = 0; d < DEG_EXACT; d++)
		for (uint64_t k = 0; k < c.nblocks; k++) {
			const uint64_t n = c.hist[k * DEG_EXACT + d];
			c.hist[k * DEG_EXACT + d] = next;
			next += n;
		}
	if (nzero) /* degree 0 is the first bucket: degree 1's first rank */
		*nzero = c.hist[1];
	/* the top bucket, from its first rank on: hubs, ranked by (degree, id) */
	c.first = c.hist[DEG_EXACT - 1];
	const uint64_t nh = nv - c.first;
	c.hubs = malloc((nh ? nh : 1) * sizeof(*c.hubs));
	if (c.hubs) {
		c.assign = 1;
		tsg_parallel_for(threads, c.nblocks, 1, rank_pass, &c);
	}
	free(c.hist);
	if (!c.hubs)
		return -1;
	qsort(c.hubs, nh, sizeof(*c.hubs), cmp_u64);
	for (uint64_t i = 0; i < nh; i++)
		rank[(uint32_t)c.hubs[i]] = (uint32_t)(c.first + i);
	free(c.hubs);
	return 0;
}

uint64_t part_write_up(const struct tsg_graph *g, const uint32_t *rank, uint64_t v,
		       uint64_t row_cap, uint32_t *row)
{
	const uint32_t r = rank[v];
	const uint64_t b = g->off[v], e = g->off[v + 1];
	uint32_t *p = row;
	if (e - b <= row_cap) {
		for (uint64_t x = b; x < e; x++) {
			const uint32_t w = rank[g->adj[x]];
			*p = w;
			p += w > r; /* no branch to mispredict */
		}
	} else {
		for (uint64_t x = b; x < e && p < row + row_cap; x++) {
			const uint32_t w = rank[g->adj[x]];
			if (w > r)
				*p++ = w;
		}
	}
	return (uint64_t)(p - row);
}

uint64_t part_arena_seg_ids(uint64_t entries, unsigned threads)
{
	const uint64_t share = entries / (threads ? threads : 1); /* + 1 below: never 0 */
	return share >= PART_ARENA_IDS ? PART_ARENA_IDS : share < (1ull << 16) ? 1ull << 16 : share + 1;
}

int part_arena_reserve(struct part_arena *a, uint64_t ids)
{
	if (ids <= a->left)
		return 0;
	if (a->n == a->cap) {
		const size_t cap = a->cap ? 2 * a->cap : 16;
		uint32_t **s = realloc(a->segs, cap * sizeof(*s));
		if (!s)
			return -1;
		a->segs = s;
		a->cap = cap;
	}
	const uint64_t n = ids > a->seg_ids ? ids : a->seg_ids;
	uint32_t *m = malloc(n * sizeof(*m));
	if (!m)
		return -1;
	tsg_advise_huge(m, n * sizeof(*m));
	a->segs[a->n++] = m;
	a->cur = m;
	a->left = n;
	return 0;
}

void part_arena_free(struct part_arena *a)
{
	for (size_t k = 0; k < a->n; k++)
		free(a->segs[k]);
	free(a->segs);
	*a = (struct part_arena){ 0 };
}
