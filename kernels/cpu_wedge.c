/*
 * cpu_wedge.c - CPU counting with each oriented wedge checked once, at its
 * middle vertex (the host twin of the GPU's mid-hash, kernels/mid_hash.cu).
 *
 * Technique: a triangle a -> b -> c (ranks a < b < c) is the wedge b, c in
 * out(a) closed by c in out(b). cpu-hash tables out(a) and walks every
 * out(b); here out(b) is marked in a per-thread bitmap and what is probed
 * is only the tail of out(a) after b, where c must lie since ids are ranks.
 * Work: the number of oriented wedges (2.98 G on R-MAT 21) instead of the
 * sum of out(b) over every edge a -> b (11.26 G). A tail ascends, so its
 * walk stops at the largest id of out(b).
 * The edges a -> b are first grouped by b (a count pass, a prefix sum, a
 * scatter pass), 16 bytes each: the tail's bounds in adj.
 * Input: a 2D unit (kernels/dag.h) with ids in rank order. An LSTC
 * partition numbers its vertices otherwise; kern_cpu_count takes cpu-hash
 * for it.
 * Wins: on the GPU by 2.4 times (mid-hash); on the host by about 1.4 times
 * (R-MAT 21, 2 threads: count 4.8 s against cpu-hash's 6.0-6.7 s), less
 * than the work suggests since the grouping scatter (1.7 s) and the
 * probes, tails of random rows, are bound by memory latency; fetching the
 * tail eight records ahead took the kernel from 6.3 to 4.8 s. Not yet the
 * default: measured on the 2-core machine only, and it needs 16 bytes of
 * scratch per edge.
 * Scratch: 8 bytes per middle vertex, 16 per source entry, nv bits per
 * thread.
 */
#include "kernels/cpu_internal.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "base/util.h"

/* A wedge record: the tail of out(a) after b, as indexes into adj. Holding
 * the indexes rather than (a, position) saves the random load of off[a]
 * per record. */
struct wrec {
	uint64_t from, end;
};

struct wjob {
	const struct tsg_unit *u;
	atomic_uint_fast64_t *pos; /* per middle vertex: counts, then offsets, then ends */
	struct wrec *rec;          /* grouped by b */
	uint64_t **bitmaps;
	int scatter;
	atomic_uint_fast64_t total;
};

/* Files an edge a -> b, b in the middle range, whose tail after b is not
 * empty and whose b has out-neighbours. */
static void file_range(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	(void)tid;
	struct wjob *j = arg;
	const struct tsg_unit *u = j->u;
	for (uint64_t i = lo; i < hi; i++) {
		const uint32_t a = u->src_lo + (uint32_t)i;
		const uint64_t ae = u->off[a + 1];
		const uint32_t *row = u->adj + u->off[a], *end = u->adj + ae;
		const uint64_t pb = (uint64_t)(cpu_lower_bound(row, end, u->mid_lo) - u->adj);
		const uint64_t pe = (uint64_t)(cpu_lower_bound(u->adj + pb, end, u->mid_hi) - u->adj);
		for (uint64_t p = pb; p < pe && p + 1 < ae; p++) {
			const uint32_t b = u->adj[p];
			if (u->off[b + 1] == u->off[b])
				continue;
			atomic_uint_fast64_t *slot = &j->pos[b - u->mid_lo];
			if (!j->scatter) {
				atomic_fetch_add_explicit(slot, 1, memory_order_relaxed);
				continue;
			}
			const uint64_t k = atomic_fetch_add_explicit(slot, 1, memory_order_relaxed);
			j->rec[k] = (struct wrec){ p + 1, ae };
		}
	}
}

static void probe_range(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	struct wjob *j = arg;
	const struct tsg_unit *u = j->u;
	uint64_t *bm = j->bitmaps[tid], sum = 0;
	for (uint64_t m = lo; m < hi; m++) {
		const uint64_t rb = m ? atomic_load_explicit(&j->pos[m - 1], memory_order_relaxed) : 0;
		const uint64_t re = atomic_load_explicit(&j->pos[m], memory_order_relaxed);
		if (rb == re)
			continue;
		const uint32_t b = u->mid_lo + (uint32_t)m;
		const uint32_t *nb = u->adj + u->off[b], *ne = u->adj + u->off[b + 1];
		const uint32_t top = ne[-1];
		for (const uint32_t *p = nb; p < ne; p++)
			bm[*p >> 6] |= 1ull << (*p & 63);
		for (uint64_t r = rb; r < re; r++) {
			if (r + 8 < re) /* tails lie in random rows: fetch ahead */
				__builtin_prefetch(u->adj + j->rec[r + 8].from);
			const uint32_t *x = u->adj + j->rec[r].from, *xe = u->adj + j->rec[r].end;
			for (; x < xe && *x <= top; x++)
				sum += (bm[*x >> 6] >> (*x & 63)) & 1;
		}
		for (const uint32_t *p = nb; p < ne; p++)
			bm[*p >> 6] = 0;
	}
	atomic_fetch_add_explicit(&j->total, sum, memory_order_relaxed);
}

int cpu_wedge_count_unit(const struct tsg_unit *u, unsigned threads, uint64_t **bitmaps,
			 uint64_t *count, struct tsg_err *err)
{
	const uint64_t nsrc = u->src_hi - u->src_lo, nmid = u->mid_hi - u->mid_lo;
	struct wjob j = { .u = u, .bitmaps = bitmaps };
	int rc = TSG_OK;
	atomic_init(&j.total, 0);
	j.pos = malloc((nmid + 1) * sizeof(*j.pos));
	if (!j.pos) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory grouping %llu middle vertices",
			      (unsigned long long)nmid);
		goto done;
	}
	for (uint64_t m = 0; m <= nmid; m++)
		atomic_init(&j.pos[m], 0);
	tsg_parallel_for(threads, nsrc, 256, file_range, &j);
	uint64_t sum = 0; /* exclusive prefix: pos[m] = first record of m */
	for (uint64_t m = 0; m < nmid; m++) {
		const uint64_t c = atomic_load_explicit(&j.pos[m], memory_order_relaxed);
		atomic_store_explicit(&j.pos[m], sum, memory_order_relaxed);
		sum += c;
	}
	j.rec = malloc((sum ? sum : 1) * sizeof(*j.rec));
	if (!j.rec) {
		char b[32];
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for %s of wedge records",
			      tsg_fmt_bytes(sum * sizeof(*j.rec), b, sizeof(b)));
		goto done;
	}
	j.scatter = 1;
	tsg_parallel_for(threads, nsrc, 256, file_range, &j); /* pos[m] ends as m's end */
	tsg_parallel_for(threads, nmid, 64, probe_range, &j);
	*count = atomic_load(&j.total);
done:
	free(j.rec);
	free(j.pos);
	return rc;
}
