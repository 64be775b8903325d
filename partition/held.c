/*
 * held.c - rows of the oriented graph for the lists this process read
 * (contract: held.h).
 */
#include "partition/held.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "partition/rows.h"
#include "base/util.h"

enum { GRAIN = 4096, OFF_GRAIN = 256 /* small: tests' graphs take several chunks */ };

struct deg_job {
	const struct tsg_graph *g;
	const uint32_t *rank;
	uint64_t b;
	uint32_t *out;
};

static void out_degrees(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct deg_job *j = ctx;
	const struct tsg_graph *g = j->g;
	for (uint64_t v = j->b + b; v < j->b + e; v++) {
		const uint32_t r = j->rank[v];
		uint32_t n = 0;
		for (uint64_t x = g->off[v]; x < g->off[v + 1]; x++)
			n += j->rank[g->adj[x]] > r;
		j->out[v - j->b] = n;
	}
}

void part_held_out_degrees(const struct tsg_graph *g, const uint32_t *rank, uint64_t b,
			   uint64_t e, unsigned threads, uint32_t *out)
{
	struct deg_job j = { .g = g, .rank = rank, .b = b, .out = out };
	tsg_parallel_for(threads ? threads : 1, e - b, GRAIN, out_degrees, &j);
}

/* The offsets in three parallel passes over chunks of ranks: each length
 * to its rank (a random write a vertex, the slow part: 67M at R-MAT 26),
 * each chunk's sum, then each chunk's prefix from the sums before it. */
struct off_job {
	const uint32_t *rank, *outdeg;
	uint64_t *off;
	uint64_t chunk;
	uint64_t *sums; /* a chunk's sum, then what comes before it */
	uint32_t *max;  /* a thread's largest out-degree */
};

static void off_scatter(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	struct off_job *j = ctx;
	uint32_t m = j->max[tid];
	for (uint64_t v = b; v < e; v++) {
		j->off[j->rank[v] + 1] = j->outdeg[v];
		m = j->outdeg[v] > m ? j->outdeg[v] : m;
	}
	j->max[tid] = m;
}

static void off_sum(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct off_job *j = ctx;
	uint64_t s = 0;
	for (uint64_t r = b; r < e; r++)
		s += j->off[r + 1];
	j->sums[b / j->chunk] = s;
}

static void off_scan(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct off_job *j = ctx;
	uint64_t run = j->sums[b / j->chunk];
	for (uint64_t r = b; r < e; r++) {
		run += j->off[r + 1];
		j->off[r + 1] = run;
	}
}

void part_held_offsets(uint64_t nv, const uint32_t *rank, const uint32_t *outdeg,
		       unsigned threads, struct part_odag *d)
{
	unsigned t = threads ? threads : 1;
	uint64_t chunk = nv / t + 1 > OFF_GRAIN ? nv / t + 1 : OFF_GRAIN;
	uint64_t *sums = calloc(nv / chunk + 1, sizeof(*sums)), one_sum = 0;
	uint32_t *max = calloc(t, sizeof(*max)), one_max = 0;
	const int heap = sums && max;
	if (!heap) { /* one thread, one chunk: nothing to allocate */
		free(sums);
		free(max);
		sums = &one_sum;
		max = &one_max;
		t = 1;
		chunk = nv + 1;
	}
	struct off_job j = { .rank = rank, .outdeg = outdeg, .off = d->off, .chunk = chunk,
			     .sums = sums, .max = max };
	d->off[0] = 0;
	tsg_parallel_for(t, nv, chunk, off_scatter, &j);
	tsg_parallel_for(t, nv, chunk, off_sum, &j);
	uint64_t before = 0, m = 0;
	for (uint64_t k = 0; k <= nv / chunk; k++) { /* each chunk's sum to what precedes it */
		const uint64_t s = sums[k];
		sums[k] = before;
		before += s;
	}
	tsg_parallel_for(t, nv, chunk, off_scan, &j);
	for (unsigned i = 0; i < t; i++)
		m = max[i] > m ? max[i] : m;
	d->nv = (uint32_t)nv;
	d->ne = d->off[nv];
	d->max_out = (uint32_t)m;
	if (heap) {
		free(sums);
		free(max);
	}
}

struct fill_job {
	const struct tsg_graph *g;
	const uint32_t *rank;
	uint64_t b;
	struct part_odag *d;
	uint8_t *held;
	uint32_t *scratch;         /* per thread: 2 * cap ids */
	uint64_t cap;
	atomic_uint_fast64_t bad;  /* the lowest vertex whose row disagrees */
};

static void fill_rows(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	struct fill_job *j = ctx;
	uint32_t *const tmp = j->scratch + (uint64_t)tid * 2 * j->cap, *const sort = tmp + j->cap;
	for (uint64_t v = j->b + b; v < j->b + e; v++) {
		const uint32_t r = j->rank[v];
		const uint64_t want = j->d->off[r + 1] - j->d->off[r];
		/* into scratch, not the row: a list with more upward neighbours
		 * than its row has room for must not write past it */
		const uint64_t n = part_write_up(j->g, j->rank, v, j->cap, tmp);
		if (n != want) {
			uint64_t seen = atomic_load(&j->bad);
			while (v < seen && !atomic_compare_exchange_weak(&j->bad, &seen, v))
				;
			continue;
		}
		part_sort_ids(tmp, sort, n);
		memcpy(j->d->adj + j->d->off[r], tmp, n * sizeof(*tmp));
		if (j->held)
			j->held[r] = 1;
	}
}

int part_held_fill(const struct tsg_graph *g, const uint32_t *rank, const struct io_vrange *r,
		   uint64_t n, unsigned threads, struct part_odag *d, uint8_t *held,
		   struct tsg_err *err)
{
	threads = threads ? threads : 1;
	const uint64_t cap = part_orient_row_cap(g->nadj, g->max_degree);
	struct fill_job j = { .g = g, .rank = rank, .d = d, .held = held, .cap = cap };
	atomic_init(&j.bad, UINT64_MAX);
	j.scratch = malloc((uint64_t)threads * 2 * cap * sizeof(*j.scratch));
	if (!j.scratch)
		return tsg_fail(err, TSG_ENOMEM, "out of memory orienting rows");
	for (uint64_t i = 0; i < n; i++) {
		j.b = r[i].b;
		tsg_parallel_for(threads, r[i].e - r[i].b, GRAIN, fill_rows, &j);
	}
	free(j.scratch);
	const uint64_t bad = atomic_load(&j.bad);
	if (bad != UINT64_MAX)
		return tsg_fail(err, TSG_EINPUT, "vertex %llu: its list has not as many neighbours "
				"of higher rank as the ranks' out-degrees say (the ranks' copies of "
				"the graph differ, or the file changed)",
				(unsigned long long)bad);
	return TSG_OK;
}
