/*
 * engine.h - counting a loaded graph: plan partitions, build each, count it
 * on the chosen backend, sum the counts.
 *
 * Three layouts. The arrival layout (the default where the GPU holds every
 * oriented row: ne * 4 bytes and about 20 a vertex) counts while the file
 * is read: each batch of vertices, once its lists are in, is copied to the
 * device, which counts the edges it completes (partition/arrival.h); what
 * is left after the last byte is one batch's work. The block layout
 * (default otherwise) orients the whole graph once,
 * as its lists are read, into ordinary memory (a scratch file when it
 * spills, src/hostmem.h), and streams 2D units, slices of it, through two
 * device slots: the copy of unit i+1 overlaps the kernels of unit i.
 * The LSTC layout builds vertex parts with proxies; on the GPU a host
 * thread builds part i+1 into a pinned staging buffer while the device
 * copies and counts part i. On the CPU units or parts are counted in turn,
 * each using every thread. Results are identical everywhere; tests prove it.
 */
#ifndef TSG_ENGINE_H
#define TSG_ENGINE_H

#include <stdint.h>

#include "kernels/clique.h"
#include "kernels/cpu.h"
#include "base/error.h"
#include "base/stop.h"
#include "kernels/gpu.h"
#include "io/graph.h"
#include "src/dist.h"
#include "partition/arrival.h"
#include "partition/orient.h"
#include "partition/part.h"
#include "src/checkpoint.h"

enum tsg_device { TSG_DEVICE_AUTO, TSG_DEVICE_CPU, TSG_DEVICE_GPU };

/* How the graph is cut for counting (both exact; bench/ compares them). */
enum engine_layout {
	ENGINE_LAYOUT_BLOCK,   /* 2D units of the rank-ordered DAG (partition/block.h) */
	ENGINE_LAYOUT_LSTC,    /* LSTC vertex parts with proxies (partition/part.h) */
	ENGINE_LAYOUT_ARRIVAL, /* batches counted as the file is read (partition/arrival.h) */
	ENGINE_LAYOUT_AUTO,    /* arrival on a GPU that holds the graph's rows, else block;
				* a crawl past the host's memory: sweep */
	ENGINE_LAYOUT_SWEEP,   /* a crawl in bounded memory: source blocks held, the crawl
				* decoded past each (src/sweep.h) */
};

int engine_layout_parse(const char *s, enum engine_layout *out);
const char *engine_layout_name(enum engine_layout l);

/* --overlap-cut: an oriented .tsg counted as read, its rows held once,
 * cut into columns (middle ranges, read up) or row blocks (source ranges,
 * read down); auto: row blocks on a GPU, columns on the CPU. */
enum engine_overlap_cut { ENGINE_CUT_AUTO, ENGINE_CUT_COLUMNS, ENGINE_CUT_ROWS };

struct engine_opts {
	enum tsg_device device;
	int gpu_index;
	uint64_t gpu_mem;           /* 0: the device's free memory minus a reserve */
	enum gpu_kernel gpu_kernel;
	enum kern_cpu_kind cpu_kernel;
	enum engine_layout layout;
	struct part_opts part;      /* nparts 0 = auto (GPU: from gpu_mem; CPU: 1); with
				     * the block layout nparts is the number of blocks Q */
	unsigned threads;
	unsigned tile;              /* lstc-paper tile width, 0: default */
	enum gpu_cta_policy cta_policy; /* skiff's CTA organisation */
	int want_stats;             /* measure induced subgraphs too (LSTC Tables 3-4) */
	int plan_only;              /* CPU only: build every part or unit, count nothing */
	enum part_orient_way orient; /* block layout: how rows are written (orient.h) */
	const char *scratch_dir;    /* block layout: the oriented graph goes to a scratch
				     * file there, not memory (bounded host memory,
				     * src/hostmem.h); NULL: memory */
	int arrival_mapped;         /* --host-mem spills, yet the GPU's arrival layout may
				     * count the mapped file where the GPU holds its rows
				     * and its host need (src/hostmem.h) fits
				     * arrival_budget, --host-mem's SIZE */
	uint64_t arrival_budget;
	int arrival_only;           /* arrival_mapped, and the spill would not fit the
				     * budget: where the arrival layout cannot run, fail */
	int cpu_past_host_mem;      /* --host-mem planned for a GPU under auto, and the
				     * CPU's figure is over it: where no GPU can be
				     * used, fail rather than count on the CPU */
	int pin_host;               /* GPU block layout: orient into pinned memory: 1 yes,
				     * 0 no, -1 auto (now no: copies are staged) */
	uint32_t batches;           /* arrival layout: batches, 0 auto */
	int overlap;                /* an oriented .tsg on the block layout, counted as it
				     * is read (engine_block_streams): -1 no (read, then
				     * count), 0 auto, N: N columns where the rows are
				     * held once (block_plan_columns) */
	enum engine_overlap_cut overlap_cut; /* how those units are cut where the rows
				     * are held once (engine_block_stream_plan) */
	int cliques_auto_one;       /* k-cliques, no layout named: --gpus may count on
				     * the first GPU alone where one part holds the
				     * graph (pipeline_gpu.c, cliques_one_gpu) */
	int arrival_all_gpus;       /* --gpus, no layout named, a plain .tsg of at least
				     * ENGINE_ALL_GPUS_ROWS of rows found in the page
				     * cache (engine_arrival_all_gpus): the arrival
				     * layout on every GPU, all started early */
	int rows_past_gpu;          /* --gpus, no layout named, triangles: the oriented
				     * rows cannot fit the first GPU (engine_rows_past_gpu):
				     * every GPU counts, all started early */
	int oriented_auto_one;      /* an oriented .tsg with --overlap auto, below
				     * ENGINE_ALL_GPUS_ROWS of rows: --gpus may
				     * count on the first GPU alone (auto_one_gpu), so
				     * only it is started early */
	int progress;
	int per_vertex;             /* also count each vertex's triangles (r->pv) */
	struct ckpt *ckpt;          /* NULL, or where units are recorded and resumed
				     * from (src/checkpoint.h); not with per_vertex,
				     * plan_only, or the arrival layout on a GPU */
	const struct tsg_stop *stop; /* NULL, or checked before each unit: once asked,
				      * the run ends with TSG_EINTERRUPTED */
	unsigned k;                 /* clique size; 3 (triangles) unless k-cliques: K > 3
				     * counts on LSTC parts (kernels/clique.h) */
	int k_all;                  /* every clique size at once (pivoting) */
	enum kern_clique_method clique_method;
	enum kern_clique_scheme clique_scheme; /* GPU: a warp per vertex or edge */
	unsigned clique_group;      /* GPU orientation: lanes a group, 0 auto */
	int degeneracy;             /* LSTC parts oriented by degeneracy order
				     * (partition/order.h), not (degree, id) */
	uint32_t rank, nranks;      /* one of nranks processes (src/dist.h): this one
				     * counts the units dealt to it (engine_deal), or
				     * those it takes (take) */
	struct dist_counter *take;  /* several ranks, block layout (not read by
				     * ranges): units taken from this shared count
				     * as each rank becomes free, costliest first, not
				     * dealt (engine_next_unit); NULL: dealt */
	struct tsg_dist *dist;      /* those ranks, for the collectives of read_ranges */
	int read_ranges;            /* several ranks, block layout: each reads only the
				     * lists its units need (src/ranges.h) */
	int read_all;               /* --read all: every rank reads every list and
				     * orients them alone */
	int read_host;              /* --read host: the host's ranks build one oriented
				     * graph (as auto does) */
	int host_build;             /* the host's ranks build one oriented graph (block
				     * layout, src/hostbuild.h): decided by all of them
				     * together (src/main.c), so the same on each */
	const int *gpus;            /* several GPUs of this host (--gpus): ngpus device
				     * indexes, each counting units of the block layout
				     * taken from one queue; NULL: gpu_index alone */
	uint32_t ngpus;
};

#define ENGINE_MAX_GPUS 64
/* How much faster than orientation pivoting must be in the host's race to
 * count on the GPU (engine_clique_race; src/pipeline_gpu.c says why). */
#define ENGINE_GPU_PIVOT_RATIO 8.0
/* The GPU's race runs on a random 1/ENGINE_RACE_PARTS of the sources: on a
 * 64th, as the CPU's, it took 2.2 s before R-MAT 20's 1.0 s count at K = 5
 * (H100 host, 16 threads). */
#define ENGINE_RACE_PARTS 256
/* K-cliques of one part under --gpus (src/clique_share.h): the pieces its
 * sources are cut into, a GPU listed (enough for the last launch taken to
 * be short beside a GPU's share), and the time the first GPU's rest must
 * be foretold to take before the other GPUs are opened: opening one (its
 * context, about 0.3 s beside another), copying the part to it and closing
 * it at the end must be paid back by the half of the rest it takes. Both
 * from that model. Measured on two H200s only far above the threshold:
 * rests foretold at 5.5 and 15.6 s, shared, took the whole run to 1.5x
 * one GPU (bench/RESULTS.md, session 56); no count near 1 s was timed. */
#define ENGINE_SHARE_PIECES 16
#define ENGINE_SHARE_MIN_S 1.0
/* ... and its rounds' limits stop at this many seconds (at most about
 * twice that in all): undecided, the GPU goes by K. */
#define ENGINE_RACE_MOST_S 0.7

/* Oriented rows (4 bytes an edge) from which --gpus with no layout named
 * counts on every GPU listed where it would take the first alone: an
 * oriented file, and a plain one in the page cache counted by the arrival
 * layout (o->arrival_all_gpus). There the count, not the read and the
 * second GPU's start, is the run. Warm, medians of 3 on two H200s:
 *  - oriented: R-MAT 25 (about 2.1 GB of rows) 1.97 s on both GPUs
 *    against 1.57 s on one (bench/raw/h200x2-2026-11-27-rows-gpus/),
 *    R-MAT 26 (4.3 GB) 2.13 against 2.31 s
 *    (bench/raw/h200x2-2026-11-27-s34-callB/);
 *  - arrival: R-MAT 25 1.97 s on both against 1.93 s on the first alone,
 *    R-MAT 26 3.17 against 3.53 s (bench/raw/h200x2-2026-11-27-s34-callE/).
 * The line lies between the two graphs measured. */
#define ENGINE_ALL_GPUS_ROWS (3ull << 30)

/* Auto's groups (below) under --gpus: on every GPU listed, the file read
 * from disk or from the page cache. R-MAT 26 at a quarter, two H200s,
 * build e4cc842 (the GPUs' shares of a group end counted at once),
 * bench/raw/h200x2-2026-11-28-s41-overlap/: cold 6.40, 6.40 s on both
 * against 8.42, 7.42 on GPU 0 (dd 6.84, 6.49); warm, medians of 3, 4.96 s
 * on both against 5.82 on GPU 0. Session 40's build, which counted the
 * shares in turn, was slower warm on both, and auto then kept a cached
 * file on the first GPU (bench/raw/h100x2-2026-11-28-s40-groups-gpus/).
 * Not a macro of its own. */

/* Auto on one GPU whose budget cannot hold the oriented rows takes the
 * arrival layout in groups (kernels/gpu.h) over the block layout where
 * the rows reach ENGINE_AUTO_GROUPS_ROWS and fill at most
 * ENGINE_AUTO_GROUPS_MAX regions A (no checkpoint, no --host-mem, not
 * k-cliques). At a quarter of the file's size of GPU memory, one H200, 9
 * groups, medians (bench/raw/h200-2026-11-27-s39-auto-groups/): R-MAT 26
 * (3.9 GiB of rows) cold 6.75 s against the block layout's 8.09 (dd
 * 6.82), warm 5.07 against 5.93; R-MAT 25 (1.94 GiB) cold 3.61-3.65
 * against 4.06-4.16, warm level (2.77-3.00 against 2.90-3.10). With 13
 * and 15 groups (shrinking then) R-MAT 26 was still level or ahead cold
 * (session 39). The line lies just under R-MAT 25's rows, the smallest
 * graph measured; below it (the tests' graphs among them) the block
 * layout stays. */
#define ENGINE_AUTO_GROUPS_ROWS (15ull << 27)
#define ENGINE_AUTO_GROUPS_MAX 12

/* The GPUs o counts on: its --gpus list, else gpu_index alone. */
static inline uint32_t engine_gpu_count(const struct engine_opts *o)
{
	return o->gpus && o->ngpus > 1 ? o->ngpus : 1;
}

/* Whether o counts k-cliques (K > 3 or every size), not triangles. */
static inline int engine_cliques(const struct engine_opts *o)
{
	return o->k > 3 || o->k_all;
}

struct engine_part {
	uint64_t triangles;
	int resumed;              /* taken from the checkpoint, not counted now */
	int elsewhere;            /* another rank's unit: not counted here */
	int gpu;                  /* several GPUs: the one that counted it (index into
				     * engine_result.gpus), -1 if none did */
	uint64_t cost;            /* block layout, several GPUs or ranks: its estimated
				     * work (block_plan_costs), else 0 */
	const char *kernel;       /* the kernel that counted it (a static name); NULL
				     * where none did here (resumed, another rank's) or
				     * the layout has one kernel of its own (arrival) */
	const char *chosen;       /* --kernel auto: the one it chose (static), else NULL */
	struct part_stats st;
	uint32_t block_chunks;    /* layout sweep: the chunks of the pass's block */
	double build_s, h2d_ms, kernel_ms, count_s;
};

/* One GPU's share of a count on several (engine_opts.gpus). */
struct engine_gpu {
	int index;                /* the CUDA device */
	char name[96];
	uint32_t units;           /* units it counted */
	uint64_t cost;            /* their estimated work */
	uint64_t h2d_bytes;
	uint64_t ahead_bytes;     /* of them, rows copied ahead under kernels
				   * (gpu_resident_ahead) */
	uint64_t kept_bytes;      /* source rows its slots kept from the unit
				   * before, not copied (gpu_keep_sources) */
	double h2d_ms, kernel_ms; /* sums over its units, from CUDA events */
	double busy_s;            /* wall time from its first unit to its last count */
	int resident;             /* its units read one copy of the graph (gpu_resident_begin) */
};

struct engine_result {
	uint64_t triangles;       /* the count: triangles, or K-cliques */
	enum tsg_device device;
	char device_name[128];
	char kernel[32];          /* the kernel asked for, or where no unit ran it,
				     * the one that ran (engine_kernel_fallbacks) */
	uint32_t kernel_fallbacks; /* units counted by another kernel than asked */
	char note[1024];          /* why auto chose the CPU, if it did; fall-backs */
	uint32_t nparts;          /* parts or units counted */
	uint32_t nblocks;         /* block layout: source blocks */
	struct engine_stream {    /* an oriented .tsg counted as it was read */
		int used;         /* each unit counted once its rows were in */
		uint32_t columns; /* its units: columns (block_plan_columns) or,
				   * down, row blocks (block_plan_rows_down); or
				   * 0: the budget's units in read order */
		int down;         /* the rows read from the top rank down */
		double wait_s;    /* time spent waiting for the read */
		char why[256];    /* not used, or how it was cut: why */
	} stream;
	struct engine_share {     /* k-cliques of one part under --gpus (src/clique_share.h) */
		int used;         /* counted so */
		uint32_t pieces;  /* its sources' pieces */
		uint32_t launches; /* counts launched (the first GPU's merged rest: one) */
		int shared;       /* another GPU counted at least one piece */
		double piece_s, foretold_s; /* the first GPU's piece; the rest on it, foretold */
	} share;
	int units_even;           /* block layout: source blocks of equal work for a
				   * resident graph (block_plan.even) */
	struct engine_part *parts; /* nparts entries, owned */
	double plan_s, build_s, count_s, total_s;
	struct part_orient_times orient; /* block layout: inside build_s */
	double overlap;           /* sum of stage times / wall time (GPU) */
	uint64_t slot_bytes;
	uint64_t h2d_bytes;
	uint64_t kept_bytes;      /* block layout on a GPU: source rows read again
				   * from a slot instead of copied (not in h2d_bytes) */
	uint64_t lists_bytes, lists_pinned_bytes; /* arrival on the GPU: lists copied, and
						     * of those, from pinned pages */
	int lists_streamed;       /* the orientation ran as the lists were read */
	int lists_early;          /* arrival on a GPU: their read began before the GPUs
				   * were opened (src/pipeline_gpu.c, arrival_early) */
	enum engine_layout layout; /* the one used (auto resolved) */
	uint64_t *pv;             /* per_vertex: nv triangle counts by vertex id, owned */
	uint32_t resumed;         /* units taken from the checkpoint */
	struct part_arrival_times arrival; /* arrival layout: inside build_s */
	struct {                  /* the GPU's arrival layout, host seconds (gpu.h) */
		double pin_s;         /* registering the lists' pages (batch thread) */
		double unpin_s;       /* giving them back (their own thread, or inline) */
		double wait_s;        /* the batch thread waiting for the devices */
		uint32_t locked_most; /* batches' ranges of pages pinned at once, at most */
	} arrival_host;
	struct {                  /* the GPU's arrival layout in groups (gpu.h); n 0: none */
		uint32_t n;           /* groups */
		uint64_t rows;        /* region A: the rows a group may take */
		uint64_t back_bytes;  /* earlier groups' rows copied back to the device */
		uint64_t out_bytes;   /* groups' rows saved to the host */
		uint64_t launches;    /* pair launches */
		uint64_t tallies;     /* pairs of a piece and a group, one way, tallied */
		uint64_t split;       /* of them, cut into several launches (records) */
		uint64_t units;       /* launches counting consecutive batches within their group */
		double end_s;         /* host seconds ending groups (batch thread) */
		double alloc_s;       /* of them, taking pinned host memory for the rows */
		uint32_t alloc_fallbacks; /* arrays not pinned ahead (cudaMallocHost'd) */
		char alloc_why[80];   /* why the first of them was not ("" if none) */
		uint32_t early_batch; /* TSG_ARRIVAL_GROUP_EARLY acted before this batch (0: not) */
		uint64_t early_pieces; /* pieces it copied back */
	} arrival_groups;
	enum kern_clique_method clique_ran; /* k-cliques: the method that ran */
	struct kern_clique_gpu clique_gpu;  /* k-cliques on the GPU: what ran (k 0: none) */
	int clique_picked;        /* auto chose it by timing both on a sample (CPU) */
	int clique_by_k;          /* auto chose it by K (GPU: pivoting from K = 7) */
	uint64_t *sizes;          /* k_all: sizes[j - 1] cliques of j vertices, owned */
	uint64_t sizes_len;       /* k_all: entries of sizes (the same on every rank) */
	uint32_t nsizes;          /* k_all: the largest clique size */
	uint32_t degeneracy;      /* degeneracy order: the graph's degeneracy */
	uint32_t max_out;         /* k-cliques: the largest out-list counted from */
	enum part_prune prune;    /* lstc layout: the pruning rule used (auto resolved) */
	uint64_t plan_key;        /* what defines the units: equal on every rank */
	double count_wall_s;      /* units or parts (not arrival batches): from the first
				     * handed over to the last count taken; on the GPU
				     * count_s sums device times instead */
	double count_start;       /* when that began (tsg_now), 0 where not measured */
	struct engine_gpu *gpus;  /* several GPUs: each one's share, ngpus of them, owned */
	uint32_t ngpus;
	uint32_t *owner;          /* several ranks: each unit's rank (dealt by cost), owned */
	int taken;                /* several ranks: the units were taken from o->take as
				     * the ranks became free, not dealt */
	struct engine_ranges {    /* read_ranges: what this rank read (src/ranges.h) */
		int used;         /* 0: it read every list (the note says why) */
		uint64_t read_bytes;  /* list bytes this rank read (LZ4: compressed) */
		uint64_t lists_bytes; /* the graph's list bytes (LZ4: compressed) */
		uint64_t rows_held;   /* oriented rows it wrote (of nv) */
	} ranges;
	struct engine_sweep {     /* layout sweep (src/sweep.h) */
		uint32_t chunks;      /* a pass's chunks */
		uint64_t decoded;     /* chunks decoded, over every pass */
		uint64_t block_bytes; /* what a source block may hold */
		uint64_t vertices;    /* nodes with a neighbour once merged */
		double decode_s;      /* the threads' decoding, summed over them */
		double host_work_s;   /* their orienting and counting (CPU), summed */
		double consume_s;     /* the thread using chunks in order (GPU: submitting) */
		double fill_s, local_s, past_s; /* wall time filling blocks, counting them
						 * against themselves (CPU), sweeping past them */
		double device_s;      /* opening the device (context, its memory) */
		double begin_s;       /* the block's setup (GPU: ranks copied over) */
		double buffers_s;     /* the decoders and chunk buffers (GPU: pinned) */
		double release_s;     /* giving them back (after total_s) */
		double pin_s;         /* GPU: pinning the chunk buffers, by a thread of its
				       * own during the plan (buffers_s: what was left) */
		unsigned pin_buffers; /* GPU: chunk buffers (two a slot) ... */
		unsigned pin_taken;   /* ... of them pinned during the plan (the rest after,
				       * where the plan's chunks outgrew them) */
		uint32_t kept_chunks; /* chunks kept in host memory between passes ... */
		uint32_t kept_failed; /* ... and not, their memory refused (decoded again) */
		uint64_t kept_bytes;  /* what the kept ones held at most */
		uint64_t from_kept;   /* chunks copied from kept ones, not decoded */
		uint64_t runtime_bytes; /* GPU: host memory gpu_open added (the
				       * context, made before it, is not in it),
				       * held out of the kept chunks' room */
	} sweep;
	struct engine_host_build { /* the host's ranks built one oriented graph
				    * (src/hostbuild.h) */
		int used;
		uint32_t ranks;       /* the host's ranks that built it */
		uint64_t read_bytes;  /* list bytes this rank read (LZ4: compressed) */
		uint64_t lists_bytes; /* the graph's list bytes (LZ4: compressed) */
	} host_build;
};

/* With k_all: r->nsizes, the largest clique size, from r->sizes (a size
 * has cliques up to the largest and none past it). */
void engine_clique_top(struct engine_result *r);

/* Counts g. A graph whose lists are not read yet (io_graph_open) is read
 * here: the block layout orients it as it arrives, others read it first. */
int engine_count(struct tsg_graph *g, const struct engine_opts *o, struct engine_result *r,
		 struct tsg_err *err);
void engine_result_free(struct engine_result *r);

/* Whether this build has the CUDA backend. */
int engine_have_gpu(void);
/* The GPUs this host has (0 without the backend or a usable device). */
int engine_gpu_devices(void);
/* GPU `index`'s memory in bytes (0 without the backend, or not known). */
uint64_t engine_gpu_memory(int index);

/* The start-up (the context) of each GPU o counts on begun on a thread of
 * its own, so that it runs while the graph is read and several GPUs start
 * at once. *out is NULL where there is nothing to start (no CUDA backend,
 * no thread). engine_gpu_warm_end waits for them. */
struct engine_warm;
void engine_gpu_warm_begin(const struct engine_opts *o, struct engine_warm **out);
void engine_gpu_warm_end(struct engine_warm *w);

/* --device auto before anything is read: TSG_DEVICE_CPU where the GPU's
 * fixed costs (context, allocation, copies) would exceed what it saves on
 * a graph of nv vertices, nedges edges and this max_degree (cliques of k
 * vertices), else TSG_DEVICE_GPU; note says why the CPU. The rule and its
 * measurements: engine.c. */
enum tsg_device engine_auto_device(uint64_t nv, uint64_t nedges, uint64_t max_degree, uint32_t k,
				   char *note, size_t note_len);

/* Whether --gpus with no layout named counts a plain graph of nedges
 * edges, a share `cached` of whose file lies in the page cache (-1: not
 * known), by the arrival layout on every GPU listed rather than the first
 * alone: its oriented rows reach ENGINE_ALL_GPUS_ROWS and the file is
 * cached as much as --io auto's buffered reads want, so the read no longer
 * bounds the count. Never for k-cliques, MPI ranks, --plan-only, scratch
 * files or --host-mem's arrival over the map (whose budget counts the
 * batches of one GPU); the caller leaves out LZ4 files and --host-mem,
 * not measured this way. */
int engine_arrival_all_gpus(const struct engine_opts *o, uint64_t nedges, double cached);
/* Whether --gpus with no layout named, counting triangles, will count a
 * graph of nedges edges on every GPU listed because its oriented rows (4
 * bytes an edge) cannot fit the first: past --gpu-mem where given, else
 * past first_bytes (the first GPU's memory; 0: not known, no). The block
 * layout and the arrival layout's groups then both take every GPU, so
 * every context is started early (engine_gpu_warm_begin) where the
 * header is known before the start (a .tsg; a text file or a crawl, made
 * countable first, starts the first GPU alone while it is). Never for
 * k-cliques (their parts decide), MPI ranks or --plan-only. Measured on
 * R-MAT 26 at a quarter, cold, two H200s, medians of 3: 6.10 s against
 * the engine's own start of the second GPU's 6.19, within the runs'
 * spread (bench/raw/h200x2-2026-11-28-s42-callA/): kept as the read, not
 * the start, bounded those runs, and a slower start would not hide. */
int engine_rows_past_gpu(const struct engine_opts *o, uint64_t nedges, uint64_t first_bytes);
/* Whether a plain .tsg of nedges edges will likely be counted by the
 * arrival layout on a GPU, told from o and the header alone (no CUDA call):
 * the layout named, or auto's likely choice (not where --gpu-mem is below
 * twice the oriented rows and they are below auto's groups: the block
 * layout takes them); never on the CPU, for k-cliques, MPI ranks,
 * checkpoints, --read ranges, --plan-only, a --tile the kernel refuses or
 * more batches than the layout takes. Such a file's read begins before
 * the GPUs open, and one --io auto finds in the page cache is mapped
 * (IO_OPEN_CACHED_MAP: the layout pins its pages and copies them to the
 * GPU from the cache, where buffered reads copied all of it into memory
 * first; R-MAT 26 warm, the two paths named, --io mmap against auto as it
 * was: one H200 2.83 s against 3.18, bench/raw/h200-2026-11-28-s45-callB/;
 * the builds run for run on two H200s' host, one GPU 3.13 against 3.23 s,
 * bench/raw/h200x2-2026-11-28-s45-callC/). 0 in a build without CUDA. */
int engine_arrival_likely(const struct engine_opts *o, uint64_t nedges);

#endif
