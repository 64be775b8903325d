/*
 * hostmem.h - bounded host memory (--host-mem): what a count holds in RAM,
 * and what it does when that exceeds the budget.
 *
 * In memory, a count (block layout) holds the offsets and lists (unless
 * the file is mapped), the orientation's per-vertex arrays and, for the
 * one-pass way, a second copy of the oriented rows, and the oriented graph.
 * When that is over the budget the count spills instead:
 *  - the input file is mapped, so the page cache keeps what fits and
 *    rereads the rest from the file;
 *  - decoded LZ4 lists and the oriented graph go to scratch files
 *    (io/scratch.h), which the page cache writes back as it must;
 *  - the orientation takes two passes, which need no second copy.
 * What stays in the process's own memory is then about 12 bytes a vertex
 * plus fixed per-thread buffers (and the GPU's staging buffers); a budget
 * below that is refused with the figure it would need. Spilling trades
 * speed for reach: once the graph outgrows the page cache its pages come
 * from the disk, but graphs larger than RAM count exactly. An oriented
 * file (io/format.h) builds nothing: in memory it holds its rows, offsets
 * and rank map, and spilling maps them (the per-thread buffers and the
 * GPU's staging buffers stay).
 *
 * On a GPU there is a third way for a plain (neither LZ4 nor oriented)
 * file: the arrival layout (partition/arrival.h) over the mapped file,
 * where the GPU holds every oriented row. The host then writes no rows: it
 * holds the ranks and batches (8 bytes a vertex), the ranking's
 * per-thread histograms and the few batches of lists pinned while they are
 * copied (mapped pages, released after), and the count follows the read
 * instead of spilling and counting after it. need_arrival estimates that
 * figure from the header; the engine takes the arrival layout only where
 * the GPU holds its rows and the true plan's figure
 * (hostmem_arrival_bytes) fits the budget, else it spills as above.
 */
#ifndef TSG_HOSTMEM_H
#define TSG_HOSTMEM_H

#include <stdint.h>

#include "base/error.h"
#include "io/format.h"
#include "io/reader.h"

/* ARRIVAL: spilling was planned, and the GPU's arrival layout counted the
 * mapped file instead (set once the engine has run) */
enum hostmem_mode { HOSTMEM_MEMORY, HOSTMEM_SPILL, HOSTMEM_ARRIVAL };

struct hostmem_plan {
	enum hostmem_mode mode;
	uint64_t budget;
	uint64_t need_memory; /* about what a count in memory holds at its peak */
	uint64_t need_spill;  /* what a spilling count still holds */
	uint64_t need_arrival; /* what the GPU's arrival layout over the mapped file
				* holds; 0: not offered (no GPU, LZ4 or oriented) */
};

/* What the count that hostmem_plan figures will run. */
struct hostmem_ask {
	enum io_mode io;  /* how the .tsg is read (IO_MODE_MMAP: its rows mapped) */
	unsigned threads; /* 0: one */
	int gpu;          /* a GPU may count: its staging buffers, and the
			   * arrival layout's figure is offered */
	int cpu;          /* the CPU may count: its kernel's bitmap of every id,
			   * a thread each (and the wedge kernel's records) */
	uint32_t batches; /* the arrival layout's, 0 auto */
	int pv;           /* per-vertex counts */
	int one_pass;     /* in memory, the rows are oriented in one pass
			   * (partition/orient.h): where each row lies and a copy
			   * of the rows besides */
	int wedge;        /* the CPU's wedge kernel is asked for where it runs
			   * (kernels/cpu_wedge.c): with cpu, its records, 16 bytes
			   * an oriented edge and 8 a vertex, are held whether in
			   * memory or spilling */
};

/* Plans a count of the graph whose header is h, run as `ask` says,
 * within budget bytes. Fails with TSG_ENOMEM, saying what would do, if
 * even spilling needs more than the budget and the arrival layout's
 * figure (on a GPU) does too. */
int hostmem_plan(const struct io_header *h, const struct hostmem_ask *ask, uint64_t budget,
		 struct hostmem_plan *out, struct tsg_err *err);

const char *hostmem_mode_name(enum hostmem_mode m);

/* What the GPU's arrival layout over a mapped plain file holds on the
 * host (the figure need_arrival estimates from the header): nv vertices,
 * batches of at most max_entries list entries and max_vertices vertices,
 * on `threads` threads and ngpus GPUs, with per-vertex counts (pv). The
 * CUDA context's own memory is not in it. */
uint64_t hostmem_arrival_bytes(uint64_t nv, uint64_t max_entries, uint64_t max_vertices,
			       unsigned threads, unsigned ngpus, int pv);

#endif
