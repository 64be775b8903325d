/*
 * sweep.h - a crawl counted in bounded memory (layout "sweep"): source
 * blocks held, the crawl decoded past them once a block.
 *
 * A LAW crawl with its transpose (io/webgraph.h, io_crawl) is never held
 * whole: only its offsets (16 bytes a node), a rank (4 bytes a node) and
 * one source block of oriented rows. Vertices are ranked by (bound, id),
 * the bound being each node's outdegree in both files (any total order
 * counts exactly); edge a -> b goes from the lower rank to the higher.
 * Every triangle a -> b -> c (a lowest, b middle) is counted once, at b,
 * as |tail of out(a) after b ∩ out(b)|:
 *
 *  1. Source block S_p: the nodes of a run of chunks, in id order from
 *     where S_{p-1} ended, decoded (in parallel, used in order) and
 *     oriented: each node's out-row, its higher-ranked neighbours by rank,
 *     sorted. Rows are appended while they fit the device's (GPU) or the
 *     host's (CPU) budget; the first chunk that does not fit starts S_{p+1}.
 *  2. Sweep: every chunk after S_p decoded again, in parallel; for each
 *     node v of a chunk, out(v) is made from its list, and each neighbour
 *     u in S_p files, against out(v), the tail of out(u) after v where u
 *     is below v (u -> v -> c: u lowest, v middle), all of out(u) where u
 *     is above v (v -> u -> c: v lowest, u middle). So pass p counts every
 *     triangle whose two lowest vertices lie one in S_p and one in a later
 *     block; those with one in an earlier block S_q were counted in pass q,
 *     from the other side, and the chunks before S_p are not decoded.
 *  Passes go on until every node was in a source block. A chunk of block
 *  S_j is thus decoded j times (its fill and the sweeps of S_1 .. S_{j-1}),
 *  about (P + 1) / 2 decodes of the crawl for P blocks, and once for a
 *  crawl whose rows fit one block: the last pass sweeps nothing. (Until
 *  2026-11-27 a pass swept every chunk but its block's: P + 1 decodes.)
 *  Where the host budget leaves room (beside the block on the CPU, which
 *  only --partitions holds to a share), the last chunks' lists are kept
 *  in host memory once the first pass decodes them, and later passes copy
 *  them instead (sweep.c, keep_plan): with room for all, one decode.
 *
 * Chunks are cut once, by the bounds (a chunk's merged lists hold at most
 * its bounds' sum), so a chunk's buffers are sized before it is decoded.
 * On the GPU the rank of every node and the block lie on the device; the
 * host decodes chunks into pinned slots while the device orients and
 * counts (kernels/gpu.h, gpu_sweep_*; the mid-hash technique). On the CPU
 * every thread decodes a chunk and counts it.
 *
 * Checks: every list as it decodes (io_crawl_decode); once every node was
 * decoded in a pass, the arcs against the properties and the transpose
 * against the graph (io_crawl_check) before any count is reported; each
 * filed edge's b found in out(a) (a symmetric graph always has it).
 *
 * Checkpoints: unit p * nchunks + k is pass p's sweep of chunk k (the
 * block's own first chunk: the block against itself); a pass whose units
 * are all recorded is skipped whole, where its block ended read from a
 * marker unit of count 0 (sweep.c). The plan key covers the chunk cuts and
 * the block budget, from which the blocks follow.
 */
#ifndef TSG_SWEEP_H
#define TSG_SWEEP_H

#include <stdint.h>

#include "base/error.h"
#include "io/graph.h"
#include "io/webgraph.h"
#include "src/engine.h"

/* What the sweep holds beside its source blocks: the offsets of both
 * files, the ranks and the degree bounds (while ranking), for a crawl of
 * this many nodes. */
uint64_t sweep_fixed_bytes(uint64_t nodes);

/* What counting the crawl whole in memory (the other layouts) holds at its
 * peak where a GPU counts: its merged lists (8 bytes an arc of both files,
 * 4 each) and offsets, the offsets of both files, ranks, both .graph files
 * (graph_bytes, io_webgraph_graph_bytes; mapped), the CUDA runtime's host
 * memory and the threads' buffers: 13 bytes an arc, 36 a node, the files,
 * 128 MiB and 4 MiB a thread, above every peak measured on two H200s'
 * host (12.3-56.8 bytes an arc on cnr-2000 and crawls of 1-16 M pages at
 * 2 and 32 threads, bench/raw/h200x2-2026-11-30-s61-crawl-peak-gpu/;
 * crawls denser than 14 arcs a node not measured there). */
uint64_t sweep_in_memory_bytes(uint64_t nodes, uint64_t arcs, uint64_t graph_bytes,
			       unsigned threads);
/* Its share for the CUDA runtime's and context's host memory (about 100
 * MiB measured), which --host-mem leaves out as the other layouts do. */
#define SWEEP_GPU_RUNTIME (128ull << 20)

/* The same where the CPU counts: the oriented graph is the host's, with its
 * offsets, ranks and the block layout's arrays, and both .graph files
 * (graph_bytes, io_webgraph_graph_bytes) are mapped: 88 bytes a node,
 * 1.25 MiB a thread (16 threads held at most 1.2 MiB a thread more than
 * 2), the files and, per arc, 12 bytes where the rows are oriented in two
 * passes (auto's way for a crawl) or 16 in one (--orient one-pass: a
 * second copy of the rows), above every peak measured on cnr-2000 and
 * crawls of 0.4-4 M pages, 8-45 arcs a node, at 2 and 16 threads: less
 * the other terms, two passes held 2.6-10.1 bytes an arc
 * (bench/raw/cpu-2026-11-30-s62-crawl-peak-two-pass/), one 4-13.9
 * (cpu-2026-11-30-s60-crawl-peak/, cpu-2026-11-30-s61-crawl-peak-dense/). */
uint64_t sweep_in_memory_bytes_cpu(uint64_t nodes, uint64_t arcs, uint64_t graph_bytes,
				   unsigned threads, int one_pass);

/* Whether a crawl at path (with its transpose) is counted by the sweep:
 * asked for (layout sweep), or auto where counting it in memory would not
 * fit host_mem (--host-mem) or, without it, the memory available now
 * (MemAvailable). *why gets the reason for a note; 0 on any doubt (no
 * transpose, unreadable properties: the usual path reports them). */
int sweep_wanted(const char *path, const struct engine_opts *o, uint64_t host_mem, char *why,
		 size_t len);

/* Whether --host-mem (host_mem) holds a crawl at path (with its
 * transpose) counted whole in memory on the CPU, by the CPU's figure
 * (sweep_in_memory_bytes_cpu): only as it was measured, the CPU counting
 * for certain (--device cpu, or auto with no GPU here: asked last, as
 * asking starts the CUDA runtime) triangles under the block layout or
 * auto, without per-vertex counts or the wedge kernel (the caller leaves
 * out a checkpoint, several processes and --no-transpose, which o does
 * not say). *need: the figure where it was figured (it may be over
 * host_mem), else 0. Else 0: the crawl goes through a scratch .tsg,
 * which --host-mem bounds (src/hostmem.h). */
int sweep_in_memory_fits(const char *path, const struct engine_opts *o, uint64_t host_mem,
			 uint64_t *need);

/* A crawl opened for the sweep (its properties and offsets read and
 * checked, nothing decoded yet). */
struct sweep;
int sweep_open(const char *path, unsigned threads, struct sweep **out, struct tsg_err *err);
void sweep_close(struct sweep *s);
/* Its identity for a checkpoint: the nodes, arcs and both files' offsets. */
uint64_t sweep_identity(const struct sweep *s);
/* Its node count; its decoder's figures so far. */
uint64_t sweep_nodes(const struct sweep *s);
const struct io_webgraph_stats *sweep_stats(const struct sweep *s);

/* Counts the crawl. host_mem bounds the process (0: the memory available
 * now, less a margin); o->device, gpu_index, gpu_mem, threads, batches
 * (at least this many chunks), part.nparts (blocks of at most 1/N of the
 * rows' bound each: tests), progress, per_vertex, ckpt and stop apply; a
 * crawl of no arcs is TSG_EINPUT unless allow_empty. g
 * gets a shell for the report: nv, nadj and max_degree (no lists). r as
 * engine_count's: r->parts are the passes. Runs once a sweep. */
int sweep_count(struct sweep *s, const struct engine_opts *o, uint64_t host_mem, int allow_empty,
		struct tsg_graph *g, struct engine_result *r, struct tsg_err *err);

#endif
