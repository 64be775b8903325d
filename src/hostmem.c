#include "src/hostmem.h"

#include "io/format.h"

#include "io/compress.h"
#include "kernels/gpu.h"
#include "partition/arrival.h"
#include "partition/orient.h"
#include "base/util.h"

const char *hostmem_mode_name(enum hostmem_mode m)
{
	return m == HOSTMEM_SPILL ? "spill" : m == HOSTMEM_ARRIVAL ? "arrival" : "in-memory";
}

/* The CPU's hash (and wedge) kernel marks a row in a bitmap of every id, a
 * thread each (kernels/cpu_merge.c): 1 MiB a thread at 8 M ids, 8 at 64 M.
 * Left out before: R-MAT 23 in memory on 32 threads peaked 15-25 MiB
 * over need_memory (two runs), its peak growing 1.2-1.5 MiB a thread
 * against the figure's 0.62 (bench/raw/cpu-2026-11-30-s61-hostmem-bitmaps/);
 * at 64 M ids the 8 MiB a thread left out would pass the +24 MiB the bound
 * allows at 4 threads. None where only a GPU may count. */
static uint64_t cpu_bitmap(const struct io_header *h, int cpu)
{
	return cpu ? (h->nv / 64 + 1) * 8 : 0;
}

/* The wedge kernel's records (kernels/cpu_wedge.c): 16 bytes for each
 * oriented edge a -> b of a unit, grouped by b, and 8 for each middle
 * vertex; one unit may be the whole graph, of ne oriented edges. Held
 * beside everything else, in memory or spilling: left out before, a 1
 * M-page crawl under --host-mem 270M peaked at about 390 MB. */
static uint64_t wedge_records(const struct io_header *h, uint64_t ne, const struct hostmem_ask *a)
{
	return a->wedge && a->cpu ? 16 * ne + 8 * (h->nv + 1) : 0;
}

/* The budget is below even the spill's need (`how`: mapped, or spilling
 * to scratch files; `what`: what that need holds): names what the wedge
 * kernel's records add, where they are part of it. */
static int too_small(const char *how, const char *what, uint64_t budget, uint64_t spill,
		     uint64_t wedge, struct tsg_err *err)
{
	char a[32], b[32], c[32];
	if (wedge)
		return tsg_fail(err, TSG_ENOMEM, "--host-mem %s is too small for this graph: even "
				"%s it needs about %s, of which %s are --cpu-kernel wedge's "
				"records (16 bytes an edge; --cpu-kernel hash holds none)",
				tsg_fmt_bytes(budget, a, sizeof(a)), how,
				tsg_fmt_bytes(spill, b, sizeof(b)), tsg_fmt_bytes(wedge, c, sizeof(c)));
	return tsg_fail(err, TSG_ENOMEM, "--host-mem %s is too small for this graph: even %s it "
			"needs about %s (%s; fewer --threads need less)",
			tsg_fmt_bytes(budget, a, sizeof(a)), how, tsg_fmt_bytes(spill, b, sizeof(b)),
			what);
}

/* An oriented file holds its rows, offsets and rank map unless mapped,
 * and nothing is built from them: the GPU's staging buffers and each
 * thread's buffers (as counted below) are what a mapped count keeps. */
static void plan_oriented(const struct io_header *h, const struct hostmem_ask *a,
			  uint64_t budget, struct hostmem_plan *out)
{
	const uint64_t spill = (a->gpu ? GPU_STAGE_BUFS * GPU_STAGE_BYTES : 0) +
			       (a->threads ? a->threads : 1) * ((64ull << 10) * 8 + cpu_bitmap(h, a->cpu)) +
			       wedge_records(h, h->nadj, a);
	const uint64_t memory = spill + (a->io == IO_MODE_MMAP ? 0
					 : 8 * (h->nv + 1) + 4 * h->nadj + 4 * h->nv);
	*out = (struct hostmem_plan){ .budget = budget, .need_memory = memory, .need_spill = spill,
				      .mode = budget >= memory ? HOSTMEM_MEMORY : HOSTMEM_SPILL };
}

uint64_t hostmem_arrival_bytes(uint64_t nv, uint64_t max_entries, uint64_t max_vertices,
			       unsigned threads, unsigned ngpus, int pv)
{
	/* one GPU pins batches k - 2 .. k + 1 (k's last page lies in k + 1's
	 * range, and batch k waits for k - 2's offsets, kernels/gpu_runtime.cu);
	 * with peers the leader unpins after every GPU has copied: one more.
	 * A mapped file's pages go back on a thread the batch thread waits
	 * for before it pins more (gpu_runtime.cu's unpin modes), so no more
	 * than these are held locked. A crawl placed as decoded gives them
	 * back on the batch thread after each batch is queued, which with
	 * small batches may keep a fifth range locked for a while (a review's
	 * finding, 2026-11-27; not bounded yet): pages of the process's own
	 * decoded lists, held whether locked or not, so no more memory */
	const uint64_t pinned = (ngpus > 1 ? 5 : 4) * 4 * max_entries;
	return 8 * nv /* rank, batch_of */ + 8 * (nv + 1) /* the offsets, though mapped */ +
	       (uint64_t)(threads ? threads : 1) * ((64ull << 10) * 8) /* ranking's histograms */ +
	       pinned + (uint64_t)(ngpus ? ngpus : 1) * 16 * (max_vertices + 1) /* offsets staged */ +
	       (pv ? 20 * nv : 0) /* per-vertex counts: by rank, by id, the ranks again */;
}

/* need_arrival from the header alone, a bound of what the engine then
 * checks with the true plan (src/pipeline_gpu.c) on one GPU: auto's
 * batches (else --batches) of equal entries, so none over nadj / k + one
 * list, and none of more than every vertex. */
static uint64_t arrival_need(const struct io_header *h, const struct hostmem_ask *a)
{
	const uint64_t k0 = h->nadj / PART_ARRIVAL_MIN_ENTRIES;
	const uint64_t k = a->batches ? a->batches
			   : k0 < 1 ? 1 : k0 > PART_ARRIVAL_AUTO_BATCHES ? PART_ARRIVAL_AUTO_BATCHES : k0;
	return hostmem_arrival_bytes(h->nv, h->nadj / k + h->max_degree, h->nv, a->threads, 1,
				     a->pv);
}

int hostmem_plan(const struct io_header *h, const struct hostmem_ask *a, uint64_t budget,
		 struct hostmem_plan *out, struct tsg_err *err)
{
	if (h->flags & IO_FLAG_ORIENTED) {
		plan_oriented(h, a, budget, out);
		if (budget >= out->need_spill)
			return TSG_OK;
		return too_small("mapped", "per-thread buffers", budget, out->need_spill,
				 wedge_records(h, h->nadj, a), err);
	}
	const uint64_t nv = h->nv, nadj = h->nadj, ne = nadj / 2, t = a->threads ? a->threads : 1;
	const int lz4 = (h->flags & IO_FLAG_LZ4) != 0, mapped = a->io == IO_MODE_MMAP;
	const struct io_section *lists =
		io_header_section(h, lz4 ? IO_SEC_NEIGHBORS_LZ4 : IO_SEC_NEIGHBORS);
	const struct io_section *index = lz4 ? io_header_section(h, IO_SEC_CHUNKS) : NULL;
	const uint64_t row_cap = part_orient_row_cap(nadj, h->max_degree);
	/* per thread: the rank's degree histogram, a row's sort scratch, a
	 * decoded chunk (a chunk is about IO_CHUNK_TARGET, or one whole list)
	 * and the CPU kernel's bitmap */
	const uint64_t chunk = lz4 ? IO_CHUNK_TARGET + h->max_degree * 4 : 0;
	const uint64_t per_thread = (64ull << 10) * 8 + row_cap * 4 + chunk + cpu_bitmap(h, a->cpu);
	const uint64_t staging = a->gpu ? GPU_STAGE_BUFS * GPU_STAGE_BYTES : 0;
	const uint64_t wedge = wedge_records(h, ne, a);
	const uint64_t spill = 4 * nv + 8 * (nv + 1) + t * per_thread + staging +
			       (index ? index->size : 0) + wedge;
	uint64_t memory = spill + 8 * (nv + 1) + 4 * ne /* the oriented graph */;
	if (a->one_pass)
		memory += 8 * nv /* where each row lies */ +
			  4 * ne + t * row_cap * 4 /* the gathered rows */;
	if (!mapped)
		memory += 8 * (nv + 1) + (lists ? lists->size : 0);
	if (lz4)
		memory += 4 * nadj; /* decoded lists */
	*out = (struct hostmem_plan){ .budget = budget, .need_memory = memory, .need_spill = spill,
				      .need_arrival = a->gpu && !lz4 ? arrival_need(h, a) : 0,
				      .mode = budget >= memory ? HOSTMEM_MEMORY : HOSTMEM_SPILL };
	/* below the spill's need, only the GPU's arrival layout may still do
	 * (the engine then fails where it cannot take it) */
	if (budget < spill && !(out->need_arrival && budget >= out->need_arrival))
		return too_small("spilling to scratch files",
				 "12 bytes a vertex and per-thread buffers", budget, spill, wedge, err);
	return TSG_OK;
}
