/* For the quarter's kernel time: mid-hash tables out(b) once for each run
 * of up to 256 records it meets under b, in each unit. Out of core, b's
 * records are split over the units of every source block, so out(b) is
 * tabled more often. Counts, for the block plan at a budget, the table
 * entries built (sum over units and b of |out(b)| * ceil(records_b / 256))
 * against one unit over the whole graph, beside the probes (the same). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/graph.h"
#include "partition/orient.h"
#include "partition/block.h"
static void *heap(void *c, size_t b) { (void)c; return malloc(b); }
static void tally(const struct part_odag *d, const struct block_unit *u, uint32_t *rec,
		  uint64_t *tables, uint64_t *records, uint64_t *probes, uint64_t *mids)
{
	memset(rec + u->mid_lo, 0, (size_t)(u->mid_hi - u->mid_lo) * 4);
	for (uint32_t a = u->src_lo; a < u->src_hi; a++)
		for (uint64_t p = d->off[a]; p + 1 < d->off[a + 1]; p++) {
			const uint32_t b = d->adj[p];
			if (b < u->mid_lo || b >= u->mid_hi || d->off[b + 1] == d->off[b])
				continue;
			rec[b]++;
			*probes += d->off[a + 1] - p - 1;
		}
	for (uint32_t b = u->mid_lo; b < u->mid_hi; b++)
		if (rec[b]) {
			*records += rec[b];
			*tables += (d->off[b + 1] - d->off[b]) * ((rec[b] + 255) / 256);
			(*mids)++;
		}
}
int main(int argc, char **argv)
{
	struct tsg_graph g; struct tsg_err err = {0};
	struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = 2 };
	if (io_graph_load(argv[1], &lo, &g, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
	struct part_odag d; struct part_orient_opts oo = { .threads = 2, .alloc = heap };
	if (part_orient(&g, &oo, &d, NULL, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
	uint32_t *rec = calloc(d.nv + 1, 4);
	const struct block_unit all = { 0, d.nv, 0, d.nv };
	uint64_t t0 = 0, r0 = 0, p0 = 0, m0 = 0;
	tally(&d, &all, rec, &t0, &r0, &p0, &m0);
	printf("%s: nv %u, edges %llu, rows %.2f GB\n", argv[1], d.nv, (unsigned long long)d.ne,
	       tsg_rows_bytes(d.off, 0, d.nv) / 1e9);
	printf("| budget | units | source blocks | table entries built | x one unit | records | probes | middle vertices tabled |\n|---|---|---|---|---|---|---|---|\n");
	printf("| whole | 1 | 1 | %llu | 1.00 | %llu | %llu | %llu |\n", (unsigned long long)t0,
	       (unsigned long long)r0, (unsigned long long)p0, (unsigned long long)m0);
	for (int i = 2; i < argc; i++) {
		const uint64_t budget = strtoull(argv[i], 0, 10);
		struct block_opts bo = { .budget = budget, .scratch = { .per_src = 8, .per_mid = 8, .per_edge = 8, .fixed = 16u << 10 }, .threads = 2 };
		struct block_plan p;
		if (block_plan_new(&d, &bo, &p, &err)) { printf("fail %s\n", err.msg); continue; }
		uint64_t t = 0, r = 0, pr = 0, m = 0;
		for (uint32_t k = 0; k < p.nunits; k++)
			tally(&d, &p.units[k], rec, &t, &r, &pr, &m);
		printf("| %.0f MB | %u | %u | %llu | %.2f | %llu | %llu | %llu |\n", budget / 1e6, p.nunits, p.nsrc_blocks,
		       (unsigned long long)t, (double)t / t0, (unsigned long long)r, (unsigned long long)pr, (unsigned long long)m);
		block_plan_free(&p);
	}
	return 0;
}
