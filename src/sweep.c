/*
 * sweep.c - a crawl counted in bounded memory (src/sweep.h).
 *
 * The driver: rank, cut chunks, size everything from the budgets, then
 * pass after pass fill a source block (chunks decoded on every thread, used
 * in order: base/ordered.h) and sweep the rest of the crawl past it. The
 * counting itself is kernels/cpu_sweep.c (CPU) or kernels/sweep.cu (GPU).
 */
#include "src/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include "base/ordered.h"
#include "base/progress.h"
#include "base/util.h"
#include "kernels/cpu.h"
#include "kernels/gpu.h"
#include "partition/rows.h"
#include "src/checkpoint.h"
#include "src/pipeline.h"

/* Held beside what is budgeted: stacks, decoders' windows, the C
 * library's arenas, the CUDA context's host side (what gpu_open adds
 * after it is measured apart: sweep.runtime_bytes, keep_plan). */
#define SWEEP_MARGIN (16ull << 20)
/* Chunks a pass is cut into, at least, per producer thread: in-order use
 * needs a few ready behind the one awaited. */
#define SWEEP_CHUNKS_PER_THREAD 8
/* What the chunks are sized to pin in all on the GPU, whatever the
 * threads: a slot a decoding thread, so at 8 GiB 32 cores pinned twice
 * what 16 did (5.4 GB for the 300 M-page crawl), and pinning runs at
 * about 2 GB/s (a 32-core host's bounded count 1.76x its in-memory one
 * against 1.47x on 16 cores, bench/RESULTS.md, 2026-11-27). Not a hard
 * cap: a node whose lists alone pass a chunk makes every chunk's room
 * that large (sweep_plan). */
#define SWEEP_PINNED_MAX (3ull << 30)
/* Units of a checkpoint: pass * nchunks + chunk for the first
 * SWEEP_CKPT_PASSES passes (each chunk's count), then for each pass the
 * chunk its block ended at, as the unit SWEEP_CKPT_PASSES * nchunks +
 * pass * (nchunks + 1) + end recorded with a count of 0, so that every
 * count recorded is a share of the total; the chunks are capped so that
 * they stay few (the checkpoint keeps 9 bytes a unit). */
#define SWEEP_MAX_CHUNKS 65535u
#define SWEEP_CKPT_PASSES 64u
/* What a kept chunk's one allocation may cost beyond its bytes: an
 * allocator maps a large one whole pages at a time. */
#define SWEEP_KEEP_SLACK 4096u

struct sweep_slot {
	uint64_t entries, max_list;  /* of its merged lists */
	uint64_t with_edges;         /* its nodes with a neighbour */
	uint64_t *off;               /* a chunk's nbv + 1 offsets (from 0) ... */
	uint32_t *adj;               /* ... and merged lists, as decoded */
	uint64_t *roff;              /* CPU, filling the block: its oriented rows */
	uint32_t *rows;
	uint64_t count;              /* CPU, sweeping: its triangles */
	struct io_crawl_sums sums;   /* what decoding it added */
	int decoded;                 /* it holds the chunk (decoded, or copied from kept) */
};

/* A chunk's merged lists kept in host memory for the passes after the one
 * that decoded them (keep_plan): one allocation of bytes, its nbv + 1
 * offsets then its lists, exactly as io_crawl_decode gave them. */
struct sweep_kept {
	uint64_t *off;               /* NULL: not kept (now) */
	size_t bytes;
};

/* The GPU's chunk buffers, pinned by a thread of their own while the plan
 * reads the bounds and ranks (pinning is the kernel's work, page by page:
 * 1.1-1.5 s for 17 slots on an H100's host, before the first chunk, when
 * done after the plan). Sized from the chunk size the plan is given; the
 * plan may outgrow it (a node whose lists alone pass a chunk), and
 * run_alloc pins such a slot's buffer again. */
struct sweep_pin {
	pthread_t thread;
	int started;
	struct gpu_ctx *gpu;
	unsigned n;
	size_t ob, ab;               /* each buffer's bytes: offsets, lists */
	void **off, **adj;           /* n each; NULL where not pinned (or taken) */
	double s;                    /* the thread's own time */
	unsigned taken;              /* of them, those a slot used */
};

struct sweep_thread {
	double decode_s, work_s;     /* decoding (or copying, kept chunks), and orienting
				      * or counting (CPU) */
	uint64_t decoded;            /* chunks decoded */
	uint64_t from_kept;          /* chunks copied from kept ones instead */
	uint32_t kept, kept_failed;  /* chunks it kept; those whose memory was refused */
	struct io_crawl_dec *dec;
	uint32_t *row, *tmp;         /* the longest list each (CPU) */
	struct tsg_err err;
};

enum sweep_phase { SWEEP_FILL, SWEEP_PAST };

struct sweep {
	struct io_crawl *c;
	struct io_webgraph_stats st;
	uint64_t nv;
	/* the plan */
	uint32_t *rank, *inv;
	uint64_t *cut;               /* nch + 1: chunk k is nodes cut[k] .. cut[k+1]-1 */
	uint64_t *room;              /* nch: list entries chunk k may bring, plus one */
	uint32_t nch;
	uint64_t max_e, max_v, max_list; /* the largest chunk's room and nodes; longest list */
	uint64_t bound_total;
	/* chunks keep_from .. nch-1 are kept once decoded, while a pass needs them */
	struct sweep_kept *kept;     /* nch */
	uint32_t keep_from;          /* nch: none */
	uint64_t kept_most;          /* bytes kept at most */
	uint64_t runtime_bytes;      /* GPU: host memory gpu_open added (not the context) */
	/* the run */
	const struct engine_opts *o;
	unsigned threads;            /* the host's threads: decoders (CPU: counters too) */
	unsigned producers;          /* of them, decoding chunks (GPU: one submits them) */
	struct sweep_thread *th;
	struct sweep_slot *slot;
	unsigned nslots;
	struct gpu_ctx *gpu;
	struct sweep_pin pin;
	enum sweep_phase phase;
	int hash;                    /* this pass checks the transpose and the arcs */
	struct io_crawl_sums sums;
	uint32_t a, b;               /* the block: chunks a .. b-1 */
	uint64_t fill_end;           /* where filling stopped: the chunk that did not fit */
	/* the block on the CPU (mapped: soff_len, sadj_len bytes) */
	uint64_t *soff;
	uint32_t *sadj;
	size_t soff_len, sadj_len;
	uint64_t ns, sused;
	uint64_t block_bytes;
	/* counts */
	uint64_t *count;             /* nch: this pass's chunk counts */
	uint8_t *resumed;            /* nch: this pass's chunks the checkpoint holds */
	uint64_t *pv;                /* per-vertex counts, by rank */
	uint32_t *deg;               /* per-vertex counts: each node's degree (the report's) */
	uint64_t pass_unit;          /* this pass's first checkpoint unit */
	uint32_t pass;
	uint64_t nadj, max_degree;   /* of the merged lists, from a pass that decodes all */
	uint64_t with_edges;         /* ... and the nodes with a neighbour */
	struct tsg_progress prog;
	uint64_t prog_done;
	double consume_s;            /* the calling thread, using chunks (GPU: submitting) */
	double fill_wall_s, past_wall_s, local_s;
	struct tsg_err *err;
};

uint64_t sweep_fixed_bytes(uint64_t nodes)
{
	/* offsets of both files; rank and inv; the bounds while ranking */
	return io_crawl_offsets_bytes(nodes) + nodes * 8 + (nodes + 1) * 8;
}

uint64_t sweep_in_memory_bytes(uint64_t nodes, uint64_t arcs, uint64_t graph_bytes,
			       unsigned threads)
{
	/* the merged lists (4 bytes an arc of both files) and their offsets,
	 * the offsets of both files, ranks, and 5 bytes an arc more. With 2
	 * there, and neither the files nor the runtime, a crawl held
	 * 12.3-12.8 bytes an arc at 16 M pages, 13.8-56.8 on smaller ones,
	 * where the CUDA runtime's and context's host memory (about 100 MiB)
	 * and the threads' buffers (up to 3.2 MiB each past 2) count most:
	 * a crawl counted in memory where the figure said it fit could be
	 * killed by a memory cgroup. The peaks grew by 11.9 bytes an arc from
	 * 1 to 16 M pages at 14 arcs a node, nodes and files in it: 13 an arc
	 * leaves room for denser crawls (on the CPU the bytes an arc grew
	 * with the density), not measured on a GPU's host
	 * (bench/raw/h200x2-2026-11-30-s61-crawl-peak-gpu/) */
	const uint64_t per_thread = 4u << 20;
	return arcs * 8 + arcs * 5 + nodes * 8 + io_crawl_offsets_bytes(nodes) + nodes * 12 +
	       graph_bytes + SWEEP_GPU_RUNTIME + (uint64_t)(threads ? threads : 1) * per_thread;
}

uint64_t sweep_in_memory_bytes_cpu(uint64_t nodes, uint64_t arcs, uint64_t graph_bytes,
				   unsigned threads, int one_pass)
{
	/* 10 bytes an arc (the GPU's figure before its runtime and files)
	 * held 17.9-20.7 on the CPU: the oriented copy is 4 bytes an arc, not
	 * 2, and the host's oriented graph brings its offsets, ranks and the
	 * layout's arrays (a crawl in a memory cgroup of 380-480 MiB, 2 M
	 * pages, was killed where its 334 MiB estimate said it fit). Less the
	 * node, thread and file terms, one pass held 4-11 bytes an arc at
	 * 10-14 arcs a node but 12.1-13.9 at 23-45 (denser LAW crawls have
	 * 25-45), over the 12 first taken for it
	 * (bench/raw/cpu-2026-11-30-s61-crawl-peak-dense/); two passes, which
	 * hold no second copy of the rows, 2.6-10.1 at 8-45
	 * (bench/raw/cpu-2026-11-30-s62-crawl-peak-two-pass/) */
	const uint64_t per_thread = 5u << 18; /* 1.25 MiB */
	return arcs * (one_pass ? 16 : 12) + nodes * 88 + graph_bytes +
	       (uint64_t)(threads ? threads : 1) * per_thread;
}

/* Whether the CPU may count the crawl: asked for; no GPU (a build with
 * CUDA on a host without one falls back to the CPU); or auto's rule
 * taking the CPU for a graph of this size at its least skew, as the
 * degrees are not known yet. The device count is asked last, as asking
 * starts the CUDA runtime. */
static int cpu_may_count(const struct engine_opts *o, uint64_t nodes, uint64_t arcs)
{
	char note[256];
	if (o->device == TSG_DEVICE_CPU || !engine_have_gpu())
		return 1;
	if (o->device == TSG_DEVICE_GPU)
		return 0;
	return engine_auto_device(nodes, arcs / 2, 0, o->k, note, sizeof(note)) == TSG_DEVICE_CPU ||
	       engine_gpu_devices() == 0;
}

/* Whether a GPU may count the crawl: asked for, or auto with a GPU here
 * (the device count asked last: asking starts the CUDA runtime, which
 * the read would then wait for). */
static int gpu_may_count(const struct engine_opts *o)
{
	return o->device == TSG_DEVICE_GPU ||
	       (o->device == TSG_DEVICE_AUTO && engine_have_gpu() && engine_gpu_devices() > 0);
}

/* A crawl at path with its transpose, its nodes and arcs read from its
 * .properties; 0 on any doubt (the usual path reports it). */
static int crawl_peek(const char *path, uint64_t *nodes, uint64_t *arcs)
{
	struct tsg_err e = { 0 };
	return io_webgraph_is(path) && io_webgraph_has_transpose(path) &&
	       io_webgraph_peek(path, nodes, arcs, &e) == TSG_OK;
}

static unsigned threads_of(const struct engine_opts *o)
{
	return o->threads ? o->threads : tsg_default_threads();
}

int sweep_wanted(const char *path, const struct engine_opts *o, uint64_t host_mem, char *why,
		 size_t len)
{
	uint64_t nodes, arcs;
	why[0] = 0;
	if (o->layout == ENGINE_LAYOUT_SWEEP)
		return 1;
	if (o->layout != ENGINE_LAYOUT_AUTO || engine_cliques(o) || !crawl_peek(path, &nodes, &arcs))
		return 0;
	const uint64_t have = host_mem ? host_mem : tsg_host_available();
	/* below what the sweep itself holds, the usual path's spill (sorted
	 * through a scratch .tsg, src/hostmem.h) is the one that can count it */
	if (have == 0 || have < sweep_fixed_bytes(nodes) + SWEEP_MARGIN + (4u << 20))
		return 0;
	const uint64_t gb = io_webgraph_graph_bytes(path);
	const unsigned threads = threads_of(o);
	/* the CUDA runtime's host memory is outside --host-mem, as in the
	 * other layouts' budgets (src/hostmem.h), not outside a cgroup's */
	const uint64_t need_gpu = sweep_in_memory_bytes(nodes, arcs, gb, threads) -
				  (host_mem ? SWEEP_GPU_RUNTIME : 0);
	const uint64_t need_cpu = sweep_in_memory_bytes_cpu(nodes, arcs, gb, threads,
							    o->orient == PART_ORIENT_ONE_PASS);
	if (need_gpu <= have && need_cpu <= have)
		return 0;
	/* one figure over: whether that device may count decides (asked only
	 * here, as asking may start the CUDA runtime) */
	uint64_t need = 0;
	if (need_cpu > have && cpu_may_count(o, nodes, arcs))
		need = need_cpu;
	else if (need_gpu > have && gpu_may_count(o))
		need = need_gpu;
	if (!need)
		return 0;
	char a[32], b[32];
	snprintf(why, len, "layout sweep: counting the crawl in memory needs about %s, more than "
		 "%s %s", tsg_fmt_bytes(need, a, sizeof(a)), host_mem ? "--host-mem's" : "the",
		 tsg_fmt_bytes(have, b, sizeof(b)));
	if (!host_mem)
		snprintf(why + strlen(why), len - strlen(why), " available");
	return 1;
}

int sweep_in_memory_fits(const char *path, const struct engine_opts *o, uint64_t host_mem,
			 uint64_t *need)
{
	uint64_t nodes, arcs;
	*need = 0;
	if (!host_mem || o->device == TSG_DEVICE_GPU ||
	    (o->layout != ENGINE_LAYOUT_AUTO && o->layout != ENGINE_LAYOUT_BLOCK) ||
	    engine_cliques(o) || o->per_vertex || o->cpu_kernel == KERN_CPU_WEDGE ||
	    !crawl_peek(path, &nodes, &arcs))
		return 0;
	*need = sweep_in_memory_bytes_cpu(nodes, arcs, io_webgraph_graph_bytes(path), threads_of(o),
					  o->orient == PART_ORIENT_ONE_PASS);
	/* the CPU counts for certain: asked, or no GPU (asked last) */
	return *need <= host_mem && !gpu_may_count(o);
}

/* ---- the plan: ranks and chunks ---- */

/* Ranks by (bound, id) through part_rank, and the chunks: runs of nodes
 * whose bounds (the most their merged lists can hold) add up to at most
 * `want` entries, and at most want / 8 nodes (a crawl's pages have a dozen
 * links or more: the offsets' buffers stay small); a node's own bound
 * above that is a chunk of its own. */
static int sweep_plan(struct sweep *s, unsigned threads, uint64_t want, struct tsg_err *err)
{
	uint64_t *bound = NULL, total = 0, mx = 0;
	int rc = io_crawl_bounds(s->c, threads, &bound, &total, &mx, err);
	if (rc)
		return rc;
	const uint64_t nv = s->nv;
	s->bound_total = total;
	s->rank = malloc((nv ? nv : 1) * sizeof(uint32_t));
	s->inv = malloc((nv ? nv : 1) * sizeof(uint32_t));
	/* ranked as a graph whose degrees are the bounds (io_graph_rank_off) */
	const struct tsg_graph shell = { .nv = nv, .rank_off = bound, .rank_nadj = total,
					 .rank_max_degree = mx };
	if (!s->rank || !s->inv || part_rank(&shell, threads, s->rank, NULL) != 0) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory ranking %llu nodes",
			      io_crawl_name(s->c), (unsigned long long)nv);
		goto done;
	}
	for (uint64_t v = 0; v < nv; v++)
		s->inv[s->rank[v]] = (uint32_t)v;
	if (want < mx + 1)
		want = mx + 1;
	/* at most SWEEP_MAX_CHUNKS chunks */
	if (total / want + nv / (want / 8 + 1) + 2 > SWEEP_MAX_CHUNKS)
		want = (total + 8 * nv) / (SWEEP_MAX_CHUNKS - 2) + 1;
	const uint64_t most_nodes = want / 8 > 4096 ? want / 8 : 4096;
	uint64_t n = 0;
	for (uint64_t lo = 0; lo < nv; n++) {
		uint64_t hi = tsg_lower_bound_u64(bound, lo + 1, nv + 1, bound[lo] + want + 1) - 1;
		hi = hi > lo + most_nodes ? lo + most_nodes : hi;
		lo = hi > lo ? hi : lo + 1;
	}
	s->nch = (uint32_t)n;
	s->cut = malloc((n + 1) * sizeof(uint64_t));
	s->room = malloc((n ? n : 1) * sizeof(uint64_t));
	s->count = calloc(n ? n : 1, sizeof(uint64_t));
	s->resumed = calloc(n ? n : 1, 1);
	if (!s->cut || !s->room || !s->count || !s->resumed) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto done;
	}
	n = 0;
	s->max_e = s->max_v = 0;
	for (uint64_t lo = 0; lo < nv; n++) {
		uint64_t hi = tsg_lower_bound_u64(bound, lo + 1, nv + 1, bound[lo] + want + 1) - 1;
		hi = hi > lo + most_nodes ? lo + most_nodes : hi;
		hi = hi > lo ? hi : lo + 1;
		s->cut[n] = lo;
		s->room[n] = bound[hi] - bound[lo] + 1;
		s->max_e = s->room[n] > s->max_e ? s->room[n] : s->max_e;
		s->max_v = hi - lo > s->max_v ? hi - lo : s->max_v;
		lo = hi;
	}
	s->cut[n] = nv;
	s->max_list = mx + 1;
done:
	free(bound);
	return rc;
}

/* ---- making chunks (producer threads) ---- */

static uint64_t chunk_of(const struct sweep *s, uint64_t item)
{
	/* sweeping: the chunks after the block's */
	return s->phase == SWEEP_PAST ? item + s->b : item;
}

/* Whether the pass of block a .. b-1 counts chunk k: the block against
 * itself at its first chunk, and the chunks after the block. */
static int pass_counts(uint64_t k, uint64_t a, uint64_t b)
{
	return k == a || k >= b;
}

/* Keeps chunk k's merged lists, as just decoded into sl, for the passes
 * after this one. Its producer alone writes s->kept[k] in this pass; the
 * passes after read it once this one's threads were joined. Memory
 * refused: not kept (counted), the chunk is decoded again when needed. */
static void keep_chunk(struct sweep *s, uint64_t k, const struct sweep_slot *sl,
		       struct sweep_thread *t)
{
	const uint64_t nbv = s->cut[k + 1] - s->cut[k];
	const size_t ob = (nbv + 1) * sizeof(uint64_t), ab = sl->off[nbv] * sizeof(uint32_t);
	uint64_t *p = malloc(ob + ab);
	if (!p) {
		t->kept_failed++;
		return;
	}
	memcpy(p, sl->off, ob);
	memcpy((char *)p + ob, sl->adj, ab);
	s->kept[k] = (struct sweep_kept){ p, ob + ab };
	t->kept++;
}

/* Chunk k (nbv nodes) from its kept copy into sl, as decoding it would. */
static void chunk_from_kept(const struct sweep_kept *kp, uint64_t nbv, struct sweep_slot *sl)
{
	const size_t ob = (nbv + 1) * sizeof(uint64_t);
	memcpy(sl->off, kp->off, ob);
	memcpy(sl->adj, (const char *)kp->off + ob, kp->bytes - ob);
}

static int produce(void *ctx, uint64_t item, unsigned slot, unsigned tid)
{
	struct sweep *s = ctx;
	struct sweep_slot *sl = &s->slot[slot];
	struct sweep_thread *t = &s->th[tid];
	const uint64_t k = chunk_of(s, item), lo = s->cut[k], hi = s->cut[k + 1];
	int rc = TSG_OK;
	sl->sums = (struct io_crawl_sums){ 0 };
	sl->count = 0;
	sl->decoded = 0;
	/* a chunk the checkpoint holds is decoded only where this pass checks
	 * the whole crawl */
	if (s->phase == SWEEP_PAST && s->resumed[k] && !s->hash)
		return TSG_OK;
	const double t0 = tsg_now();
	/* a kept chunk is copied only in a pass that checks nothing: one that
	 * checks (s->hash, the first) sums every list as it decodes */
	if (!s->hash && s->kept[k].off) {
		chunk_from_kept(&s->kept[k], hi - lo, sl);
		t->from_kept++;
	} else {
		rc = io_crawl_decode(t->dec, lo, hi, sl->off, sl->adj, s->room[k],
				     s->hash ? &sl->sums : NULL, &t->err);
		if (rc == TSG_OK)
			t->decoded++;
		/* the first pass decodes every chunk; those it sweeps past are
		 * the ones a later pass reads (its block's never are again) */
		if (rc == TSG_OK && s->hash && s->phase == SWEEP_PAST && k >= s->keep_from &&
		    !s->kept[k].off)
			keep_chunk(s, k, sl, t);
	}
	const double t1 = tsg_now();
	t->decode_s += t1 - t0;
	if (rc)
		return rc;
	sl->decoded = 1;
	for (uint64_t i = 0; s->deg && i < hi - lo; i++)
		s->deg[lo + i] = (uint32_t)(sl->off[i + 1] - sl->off[i]);
	sl->entries = sl->off[hi - lo];
	sl->max_list = sl->with_edges = 0;
	for (uint64_t i = 0; i < hi - lo; i++) {
		const uint64_t d = sl->off[i + 1] - sl->off[i];
		sl->max_list = d > sl->max_list ? d : sl->max_list;
		sl->with_edges += d > 0;
	}
	if (s->gpu)
		return TSG_OK;
	if (s->phase == SWEEP_FILL) {
		kern_sweep_orient(s->rank, lo, (uint32_t)(hi - lo), sl->off, sl->adj, sl->roff, sl->rows,
				  t->tmp);
		t->work_s += tsg_now() - t1;
		return TSG_OK;
	}
	if (s->resumed[k])
		return TSG_OK;
	const struct kern_sweep_block bl = { s->cut[s->a], s->ns, s->soff, s->sadj };
	rc = kern_sweep_chunk(&bl, s->rank, lo, (uint32_t)(hi - lo), sl->off, sl->adj, t->row, t->tmp,
			      s->pv, &sl->count);
	t->work_s += tsg_now() - t1;
	if (rc)
		return tsg_fail(&t->err, TSG_EINPUT, "%s: the crawl is not symmetric once merged with "
				"its transpose (node %llu's chunk)", io_crawl_name(s->c),
				(unsigned long long)lo);
	return TSG_OK;
}

/* ---- using chunks, in order (the calling thread) ---- */

/* A chunk used: what it adds to the pass's checks and the graph's figures
 * (in a pass that checks, every chunk is decoded and used once). */
static void chunk_used(struct sweep *s, const struct sweep_slot *sl)
{
	if (!s->hash)
		return;
	s->sums.arcs += sl->sums.arcs;
	s->sums.tsum += sl->sums.tsum;
	s->nadj += sl->entries;
	s->with_edges += sl->with_edges;
	s->max_degree = sl->max_list > s->max_degree ? sl->max_list : s->max_degree;
}

/* Filling: appends chunk k's rows to the block if they fit, else stops. */
static int consume_fill(struct sweep *s, uint64_t k, struct sweep_slot *sl, int *stop)
{
	const uint64_t lo = s->cut[k], nbv = s->cut[k + 1] - lo;
	int fit = 0, rc = TSG_OK;
	if (s->gpu) {
		if ((rc = gpu_sweep_add(s->gpu, lo, (uint32_t)nbv, sl->off, sl->adj, &fit, s->err)))
			return rc;
	} else {
		const uint64_t total = sl->roff[nbv];
		fit = 8 * (s->ns + nbv + 1) + 4 * (s->sused + total) <= s->block_bytes;
		if (fit) {
			memcpy(s->sadj + s->sused, sl->rows, total * sizeof(uint32_t));
			for (uint64_t i = 0; i <= nbv; i++)
				s->soff[s->ns + i] = s->sused + sl->roff[i];
			s->ns += nbv;
			s->sused += total;
		}
	}
	if (!fit) {
		s->fill_end = k;
		*stop = 1;
		return TSG_OK;
	}
	chunk_used(s, sl);
	return TSG_OK;
}

static int consume(void *ctx, uint64_t item, unsigned slot, int *stop)
{
	struct sweep *s = ctx;
	struct sweep_slot *sl = &s->slot[slot];
	const uint64_t k = chunk_of(s, item);
	const double t0 = tsg_now();
	int rc = engine_check_stop(s->o, s->err);
	if (rc)
		return rc;
	if (s->phase == SWEEP_FILL)
		rc = consume_fill(s, k, sl, stop);
	else {
		chunk_used(s, sl);
		if (s->resumed[k])
			;
		else if (s->gpu)
			rc = gpu_sweep_chunk(s->gpu, (uint32_t)k, s->cut[k], (uint32_t)(s->cut[k + 1] - s->cut[k]),
					     sl->off, sl->adj, s->err);
		else {
			s->count[k] = sl->count;
			if (s->o->ckpt)
				rc = ckpt_record(s->o->ckpt, (uint32_t)(s->pass_unit + k), sl->count, s->err);
		}
	}
	tsg_progress_update(&s->prog, ++s->prog_done, NULL);
	s->consume_s += tsg_now() - t0;
	return rc;
}

/* ---- one pass ---- */

/* The most bytes kept at once: they grow only while producers run, so
 * measured after each run of them (the calling thread, the producers
 * joined). */
static void keep_account(struct sweep *s)
{
	uint64_t held = 0;
	for (uint32_t k = s->keep_from; s->kept && k < s->nch; k++)
		held += s->kept[k].bytes;
	s->kept_most = held > s->kept_most ? held : s->kept_most;
}

/* Frees the kept chunks before chunk end: a pass from chunk a reads only
 * chunks a and after (its block's in its fill, those after it in its
 * sweep), so once a block is filled no later pass reads its chunks. */
static void keep_release(struct sweep *s, uint32_t end)
{
	for (uint32_t k = s->keep_from; s->kept && k < end && k < s->nch; k++) {
		free(s->kept[k].off);
		s->kept[k] = (struct sweep_kept){ 0 };
	}
}

/* The error of a failed run: the consumer's (in s->err), or the first
 * producer's. */
static int run_phase(struct sweep *s, uint64_t first, uint64_t end, const char *what)
{
	uint64_t used;
	char label[64];
	snprintf(label, sizeof(label), "sweep pass %u: %s", s->pass + 1, what);
	for (unsigned t = 0; t < s->threads; t++)
		s->th[t].err = (struct tsg_err){ 0 };
	s->err->code = TSG_OK;
	s->prog_done = 0;
	tsg_progress_init(&s->prog, label, "chunks", end - first, s->o->progress);
	int rc = tsg_ordered_run(s->producers, first, end, s->nslots, produce, consume, s, &used);
	tsg_progress_done(&s->prog);
	keep_account(s);
	if (rc == -1 && !s->err->code)
		return tsg_fail(s->err, TSG_ENOMEM, "out of memory starting the sweep's threads");
	if (rc && !s->err->code)
		for (unsigned t = 0; t < s->threads; t++)
			if (s->th[t].err.code) {
				*s->err = s->th[t].err;
				break;
			}
	return rc;
}

struct local_job {
	const struct sweep *s;
	const struct kern_sweep_block *bl;
	_Atomic uint64_t total;
};

static void local_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct local_job *j = arg;
	atomic_fetch_add(&j->total, kern_sweep_local(j->bl, j->s->rank, j->s->inv, b, e, j->s->pv));
}

/* The block against itself (unit pass_unit + a): on the GPU enqueued into
 * chunk counter a, on the CPU counted now. */
static int count_local(struct sweep *s)
{
	if (s->resumed[s->a])
		return TSG_OK;
	if (s->gpu)
		return gpu_sweep_local(s->gpu, s->a, s->err);
	const struct kern_sweep_block bl = { s->cut[s->a], s->ns, s->soff, s->sadj };
	struct local_job j = { .s = s, .bl = &bl };
	atomic_init(&j.total, 0);
	tsg_parallel_for(s->threads, s->ns, 256, local_range, &j);
	s->count[s->a] = atomic_load(&j.total);
	return s->o->ckpt ? ckpt_record(s->o->ckpt, (uint32_t)(s->pass_unit + s->a), s->count[s->a],
					s->err)
			  : TSG_OK;
}

/* Pass p from chunk a: fills the block, counts it against itself, sweeps
 * the rest; part gets the pass's count and times, *next the chunk after
 * the block. A pass the checkpoint holds whole is taken from it. */
static int sweep_pass(struct sweep *s, uint32_t p, uint32_t a, struct engine_part *part,
		      double *fill_s, uint32_t *next)
{
	const uint32_t nch = s->nch;
	const uint32_t end_base = SWEEP_CKPT_PASSES * nch + p * (nch + 1);
	struct ckpt *ck = s->o->ckpt;
	uint64_t b = 0;
	int rc;
	const double t0 = tsg_now();
	s->a = a;
	s->pass = p;
	s->pass_unit = (uint64_t)p * nch;
	keep_release(s, a); /* a pass the checkpoint held whole did not free them */
	memset(s->resumed, 0, nch);
	memset(s->count, 0, nch * sizeof(uint64_t));
	/* the checkpoint: a pass whose block end and every unit are in it is
	 * taken whole, unless this run has yet to check the crawl */
	uint64_t held_b = 0, sum = 0, c;
	for (uint32_t e = a + 1; ck && !held_b && e <= nch; e++)
		held_b = ckpt_peek(ck, end_base + e, &c) ? e : 0;
	const int held = held_b != 0;
	int whole = held;
	for (uint32_t k = 0; whole && k < nch; k++)
		if (pass_counts(k, a, held_b)) {
			whole = ckpt_peek(ck, (uint32_t)(s->pass_unit + k), &c);
			sum += c;
		}
	if (whole && !s->hash) {
		for (uint32_t k = 0; k < nch; k++)
			if (pass_counts(k, a, held_b))
				ckpt_take(ck, (uint32_t)(s->pass_unit + k), &c);
		part->triangles = sum;
		part->resumed = 1;
		part->block_chunks = (uint32_t)held_b - a;
		*next = (uint32_t)held_b;
		return TSG_OK;
	}
	/* fill the block from chunk a */
	s->phase = SWEEP_FILL;
	s->ns = s->sused = 0;
	s->fill_end = nch;
	if (s->gpu && (rc = gpu_sweep_block(s->gpu, s->cut[a], s->err)))
		return rc;
	double tw = tsg_now();
	if ((rc = run_phase(s, a, nch, "filling a block")))
		return rc;
	s->fill_wall_s += tsg_now() - tw;
	b = s->fill_end;
	*fill_s += tsg_now() - t0;
	keep_release(s, (uint32_t)b);
	if (b == a)
		return tsg_fail(s->err, TSG_ENOMEM, "%s: the sweep's block holds %llu bytes, less than "
				"the rows of chunk %u (nodes %llu..%llu): raise %s",
				io_crawl_name(s->c), (unsigned long long)s->block_bytes, a,
				(unsigned long long)s->cut[a], (unsigned long long)s->cut[a + 1] - 1,
				s->gpu ? "--gpu-mem" : "--host-mem");
	if (held && held_b != b)
		return tsg_fail(s->err, TSG_EUSAGE, "the checkpoint's block %u ends at chunk %llu, "
				"this run's at %llu: the budgets differ from the run that made it "
				"(give the same --host-mem and --gpu-mem)", p,
				(unsigned long long)held_b, (unsigned long long)b);
	s->b = (uint32_t)b;
	part->block_chunks = (uint32_t)(b - a);
	if (ck && !held && (rc = ckpt_record(ck, (uint32_t)(end_base + b), 0, s->err)))
		return rc;
	for (uint32_t k = 0; ck && k < nch; k++)
		if (pass_counts(k, a, b))
			s->resumed[k] = (uint8_t)ckpt_take(ck, (uint32_t)(s->pass_unit + k), &s->count[k]);
	tw = tsg_now();
	if ((rc = count_local(s)))
		return rc;
	s->local_s += tsg_now() - tw;
	/* sweep the chunks after the block: those before it met this block
	 * in their own pass, from the other side */
	s->phase = SWEEP_PAST;
	tw = tsg_now();
	if ((rc = run_phase(s, 0, nch - b, "sweeping past the block")))
		return rc;
	if (s->gpu) {
		uint64_t *dc = malloc(nch * sizeof(uint64_t));
		double ms = 0;
		if (!dc)
			return tsg_fail(s->err, TSG_ENOMEM, "out of memory");
		rc = gpu_sweep_collect(s->gpu, dc, nch, &ms, s->err);
		for (uint32_t k = 0; rc == TSG_OK && k < nch; k++)
			if (pass_counts(k, a, b) && !s->resumed[k]) {
				s->count[k] = dc[k];
				if (ck)
					rc = ckpt_record(ck, (uint32_t)(s->pass_unit + k), dc[k], s->err);
			}
		part->kernel_ms = ms;
		free(dc);
		if (rc)
			return rc;
	}
	s->past_wall_s += tsg_now() - tw;
	if (s->hash) { /* every node was decoded once in this pass */
		if ((rc = io_crawl_check(s->c, &s->sums, s->err)))
			return rc;
		s->hash = 0;
	}
	sum = 0;
	for (uint32_t k = 0; k < nch; k++)
		if (pass_counts(k, a, b)) {
			sum += s->count[k];
			part->resumed |= s->resumed[k];
		}
	part->triangles = sum;
	part->count_s = tsg_now() - t0;
	part->kernel = s->gpu ? "mid-hash" : "merge";
	*next = (uint32_t)b;
	return TSG_OK;
}

/* ---- the whole count ---- */

int sweep_open(const char *path, unsigned threads, struct sweep **out, struct tsg_err *err)
{
	struct sweep *s = calloc(1, sizeof(*s));
	*out = NULL;
	if (!s)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	const int rc = io_crawl_open(path, threads, &s->c, &s->st, err);
	if (rc) {
		free(s);
		return rc;
	}
	s->nv = io_crawl_nodes(s->c);
	*out = s;
	return TSG_OK;
}

uint64_t sweep_identity(const struct sweep *s) { return io_crawl_identity(s->c); }
uint64_t sweep_nodes(const struct sweep *s) { return s->nv; }
const struct io_webgraph_stats *sweep_stats(const struct sweep *s) { return &s->st; }

static void *pin_main(void *arg)
{
	struct sweep_pin *p = arg;
	const double t = tsg_now();
	for (unsigned i = 0; i < p->n; i++) {
		p->off[i] = gpu_host_alloc(p->gpu, p->ob);
		p->adj[i] = gpu_host_alloc(p->gpu, p->ab);
	}
	p->s = tsg_now() - t;
	return NULL;
}

/* Starts pinning the slots' buffers for chunks of at most want entries
 * (sweep_plan's bound on a chunk's room and nodes); on the CPU, or where
 * no thread starts, run_alloc allocates them itself. */
static void pin_begin(struct sweep *s, uint64_t want)
{
	struct sweep_pin *p = &s->pin;
	if (!s->gpu)
		return;
	p->gpu = s->gpu;
	p->n = s->nslots;
	p->ab = (want + 1) * 4;
	p->ob = ((want / 8 > 4096 ? want / 8 : 4096) + 1) * 8;
	p->off = calloc(p->n, sizeof(*p->off));
	p->adj = calloc(p->n, sizeof(*p->adj));
	if (!p->off || !p->adj) {
		free(p->off);
		free(p->adj);
		*p = (struct sweep_pin){ 0 };
		return;
	}
	p->started = pthread_create(&p->thread, NULL, pin_main, p) == 0;
}

static void pin_join(struct sweep *s)
{
	if (s->pin.started)
		pthread_join(s->pin.thread, NULL);
	s->pin.started = 0;
}

/* Buffer i of the pinned ones, if it holds bytes; one too small is given
 * back (the caller pins another). */
static void *pin_take(struct sweep *s, void **have, size_t got, size_t bytes, unsigned *taken)
{
	void *p = have ? *have : NULL;
	if (!p)
		return NULL;
	*have = NULL;
	if (got >= bytes) {
		(*taken)++;
		return p;
	}
	gpu_host_free(s->gpu, p);
	return NULL;
}

/* The pinned buffers no slot took, and the pin's arrays. */
static void pin_free(struct sweep *s)
{
	struct sweep_pin *p = &s->pin;
	pin_join(s);
	for (unsigned i = 0; i < p->n; i++) {
		if (p->off && p->off[i])
			gpu_host_free(p->gpu, p->off[i]);
		if (p->adj && p->adj[i])
			gpu_host_free(p->gpu, p->adj[i]);
	}
	free(p->off);
	free(p->adj);
	p->off = p->adj = NULL;
	p->n = 0;
}

/* The slots' and threads' buffers (pinned on the GPU), and the chunks
 * still kept. */
static void run_free(struct sweep *s)
{
	pin_free(s);
	keep_release(s, s->nch);
	for (unsigned i = 0; s->slot && i < s->nslots; i++) {
		struct sweep_slot *sl = &s->slot[i];
		if (s->gpu) {
			gpu_host_free(s->gpu, sl->off);
			gpu_host_free(s->gpu, sl->adj);
		} else {
			free(sl->off);
			free(sl->adj);
		}
		free(sl->roff);
		free(sl->rows);
	}
	for (unsigned t = 0; s->th && t < s->threads; t++) {
		io_crawl_dec_free(s->th[t].dec);
		free(s->th[t].row);
		free(s->th[t].tmp);
	}
	free(s->slot);
	free(s->th);
	s->slot = NULL;
	s->th = NULL;
	if (s->gpu)
		gpu_close(s->gpu);
	s->gpu = NULL;
}

void sweep_close(struct sweep *s)
{
	if (!s)
		return;
	run_free(s);
	io_crawl_close(s->c);
	free(s->rank);
	free(s->inv);
	free(s->cut);
	free(s->room);
	free(s->kept);
	free(s->count);
	free(s->resumed);
	if (s->soff)
		munmap(s->soff, s->soff_len);
	if (s->sadj)
		munmap(s->sadj, s->sadj_len);
	free(s->pv);
	free(s->deg);
	free(s);
}

/* Address space of len bytes, zero until written, or NULL. */
static void *map_anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Threads' decoders and scratch, the slots, and on the CPU the block. */
static int run_alloc(struct sweep *s, struct tsg_err *err)
{
	s->th = calloc(s->threads, sizeof(*s->th));
	s->slot = calloc(s->nslots, sizeof(*s->slot));
	if (!s->th || !s->slot)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (unsigned t = 0; t < s->threads; t++) {
		struct sweep_thread *th = &s->th[t];
		if (io_crawl_dec_new(s->c, &th->dec))
			return tsg_fail(err, TSG_ENOMEM, "out of memory for the decoders");
		if (!s->gpu && (!(th->row = malloc(s->max_list * 4)) || !(th->tmp = malloc(s->max_list * 4))))
			return tsg_fail(err, TSG_ENOMEM, "out of memory for %llu-entry rows",
					(unsigned long long)s->max_list);
	}
	pin_join(s);
	for (unsigned i = 0; i < s->nslots; i++) {
		struct sweep_slot *sl = &s->slot[i];
		const size_t ob = (s->max_v + 1) * 8, ab = s->max_e * 4;
		const int ahead = s->gpu && i < s->pin.n;
		if (ahead) {
			sl->off = pin_take(s, &s->pin.off[i], s->pin.ob, ob, &s->pin.taken);
			sl->adj = pin_take(s, &s->pin.adj[i], s->pin.ab, ab, &s->pin.taken);
		}
		if (!sl->off)
			sl->off = s->gpu ? gpu_host_alloc(s->gpu, ob) : malloc(ob);
		if (!sl->adj)
			sl->adj = s->gpu ? gpu_host_alloc(s->gpu, ab) : malloc(ab);
		if (!sl->off || !sl->adj)
			return tsg_fail(err, TSG_ENOMEM, "out of %smemory for the sweep's chunk buffers",
					s->gpu ? "pinned " : "");
		if (!s->gpu && (!(sl->roff = malloc(ob)) || !(sl->rows = malloc(ab))))
			return tsg_fail(err, TSG_ENOMEM, "out of memory for the sweep's chunk buffers");
	}
	if (s->gpu)
		return TSG_OK;
	/* the block: address space for every node's offset and the budget's
	 * rows, mapped, not allocated, so that only the pages the block fills
	 * are ever touched (an allocator may write the whole of a buffer it
	 * hands out: glibc does under MALLOC_PERTURB_) */
	s->soff_len = (s->nv + 1) * sizeof(uint64_t);
	s->sadj_len = s->block_bytes / 4 * sizeof(uint32_t) + 4;
	s->soff = map_anon(s->soff_len);
	s->sadj = map_anon(s->sadj_len);
	if (!s->soff || !s->sadj)
		return tsg_fail(err, TSG_ENOMEM, "out of memory for the sweep's block");
	return TSG_OK;
}

/* The device: the GPU asked for, or under auto one that opens (a note
 * where none does); on the GPU the calling thread submits chunks and waits
 * on the device while the others decode. */
static int open_device(struct sweep *s, const struct engine_opts *o, struct engine_result *r,
		       struct tsg_err *err)
{
	int gpu = o->device == TSG_DEVICE_GPU ||
		  (o->device == TSG_DEVICE_AUTO && engine_have_gpu() && engine_gpu_devices() > 0);
	if (gpu) {
		uint64_t slot_bytes;
		struct tsg_err ge = { 0 };
		/* host memory opening the device adds (keep_plan holds it out;
		 * the context, made earlier by the warm-up thread, is not in it) */
		const uint64_t anon0 = tsg_self_anon_bytes();
		const int rc = gpu_open(o->gpu_index, o->gpu_mem, o->per_vertex ? s->nv : 0, &s->gpu,
					&slot_bytes, &ge);
		const uint64_t anon1 = tsg_self_anon_bytes();
		s->runtime_bytes = rc == TSG_OK && anon1 > anon0 ? anon1 - anon0 : 0;
		if (rc && o->device == TSG_DEVICE_GPU) {
			*err = ge;
			return rc;
		}
		if (rc)
			snprintf(r->note, sizeof(r->note), "the GPU could not be used (%.160s): counted "
				 "on the CPU", ge.msg);
		else
			engine_note_budget_reread(s->gpu, r);
		gpu = rc == TSG_OK;
	}
	s->producers = gpu && s->threads > 1 ? s->threads - 1 : s->threads;
	s->nslots = s->producers + 2;
	return TSG_OK;
}

/* Which chunks are kept between passes (struct sweep_kept), decided here
 * once: the last ones, since a pass reads every chunk from its block's
 * first on, so the higher a chunk the more passes read it, as many as
 * their bounds (offsets, room, an allocation's slack: never less than
 * what is kept) fit in the room. That is what the budget leaves beside
 * `used` (what the plan holds) less the crawl's .graph files, left to the
 * page cache: every pass decodes from them mapped, and under a memory
 * cgroup of the budget, kept chunks taking that share would evict them
 * (each pass reading the crawl from the disk again, slower than decoding
 * it). `used` counts, on the GPU, what opening the device added to the
 * process's memory (s->runtime_bytes; not the context, made before it),
 * beyond SWEEP_MARGIN. No budget known (budget 0): none kept. TSG_TEST_SWEEP_KEEP=BYTES
 * lowers the room, for tests and benches (0: none kept). */
static int keep_plan(struct sweep *s, uint64_t budget, uint64_t used, struct tsg_err *err)
{
	const uint64_t files = (io_crawl_bits(s->c, s->nv) + 7) / 8;
	const uint64_t index = ((uint64_t)s->nch + 1) * sizeof(struct sweep_kept);
	uint64_t room = budget > used + files + index ? budget - used - files - index : 0;
	const char *v = getenv("TSG_TEST_SWEEP_KEEP");
	char *end = NULL;
	const unsigned long long cap = v ? strtoull(v, &end, 10) : 0;
	if (v && *v && end && *end == 0 && cap < room)
		room = cap;
	s->kept = calloc((uint64_t)s->nch + 1, sizeof(*s->kept));
	if (!s->kept)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	uint64_t sum = 0;
	for (s->keep_from = s->nch; s->keep_from > 0; s->keep_from--) {
		const uint32_t k = s->keep_from - 1;
		const uint64_t bound = (s->cut[k + 1] - s->cut[k] + 1) * sizeof(uint64_t) +
				       s->room[k] * sizeof(uint32_t) + SWEEP_KEEP_SLACK;
		if (sum + bound > room)
			break;
		sum += bound;
	}
	return TSG_OK;
}

/* Host memory: what is held whatever the budget (offsets, ranks, the
 * bounds while ranking), then the chunks (their size from the threads and
 * what is left), then on the CPU the block from the rest; on the GPU the
 * block is the device's. Ranks and cuts the chunks (sweep_plan). */
static int plan_memory(struct sweep *s, const struct engine_opts *o, uint64_t host_mem,
		       struct engine_result *r, struct tsg_err *err)
{
	const uint64_t nv = s->nv, arcs = io_crawl_arcs(s->c);
	const int gpu = s->gpu != NULL;
	const char *whose = host_mem ? "of --host-mem" : "available";
	char a[32], b[32];
	uint64_t budget = host_mem ? host_mem : tsg_host_available() / 10 * 9;
	const uint64_t known = budget; /* 0: unknown */
	if (!budget)
		budget = UINT64_MAX / 4; /* unknown: no bound of our own */
	const uint64_t per_node = io_crawl_offsets_bytes(nv) / (nv + 1) + 8 + (o->per_vertex ? 16 : 0);
	const uint64_t held = per_node * nv + SWEEP_MARGIN;
	if (held + (nv + 1) * 8 > budget)
		return tsg_fail(err, TSG_ENOMEM, "%s: the sweep holds %s for %llu nodes (offsets, "
				"ranks, bounds while ranking), more than the %s %s",
				io_crawl_name(s->c), tsg_fmt_bytes(held + (nv + 1) * 8, a, sizeof(a)),
				(unsigned long long)nv, tsg_fmt_bytes(budget, b, sizeof(b)), whose);
	/* chunks: SWEEP_CHUNKS_PER_THREAD a thread, within a share of what is
	 * left for the slots (a slot: a node's offset per 8 entries and the
	 * lists; on the CPU the rows too), at least --batches of them */
	const uint64_t spare = budget - held;
	const uint64_t per_entry = gpu ? 5 : 10;
	const uint64_t slots_cap = gpu ? (spare / 2 < SWEEP_PINNED_MAX ? spare / 2 : SWEEP_PINNED_MAX)
				       : spare / 4;
	const uint64_t want_mem = slots_cap / ((uint64_t)s->nslots * per_entry);
	uint64_t lo = gpu ? 1u << 18 : 1u << 12, hi = gpu ? 1u << 25 : 1u << 22;
	if (want_mem < lo)
		lo = want_mem > 64 ? want_mem : 64;
	hi = hi < want_mem ? hi : want_mem > lo ? want_mem : lo;
	uint64_t want = 2 * arcs / ((uint64_t)SWEEP_CHUNKS_PER_THREAD * s->threads); /* the bounds */
	want = want < lo ? lo : want > hi ? hi : want;
	if (o->batches && want > 2 * arcs / o->batches)
		want = 2 * arcs / o->batches + 1;
	pin_begin(s, want);
	const double tp = tsg_now();
	int rc = sweep_plan(s, s->threads, want, err);
	r->plan_s = tsg_now() - tp;
	if (rc)
		return rc;
	if (o->per_vertex && (!(s->pv = calloc(nv ? nv : 1, sizeof(uint64_t))) ||
			      !(s->deg = malloc((nv ? nv : 1) * sizeof(uint32_t)))))
		return tsg_fail(err, TSG_ENOMEM, "out of memory for per-vertex counts");
	/* the block: at least one chunk's rows and index */
	const uint64_t least = 4 * s->max_e + 8 * (s->max_v + 1) + 4096;
	const uint64_t slots = (uint64_t)s->nslots * ((s->max_v + 1) * 8 + s->max_e * 4) *
			       (gpu ? 1 : 2);
	const uint64_t scratch = gpu ? 0 : (uint64_t)s->threads * 8 * s->max_list;
	uint64_t limit = 0;
	if (o->part.nparts > 1) /* tests: blocks of a share of the rows' bound */
		limit = (s->bound_total * 2 + 8 * nv) / o->part.nparts;
	limit = limit && limit < least ? least : limit;
	if (gpu) {
		/* on the host: the pinned chunk buffers (those pinned during the
		 * plan, any larger, or those pinned again after it) */
		const uint64_t ob = (s->max_v + 1) * 8, ab = s->max_e * 4;
		const uint64_t pinned = (uint64_t)s->nslots * ((s->pin.ob > ob ? s->pin.ob : ob) +
							       (s->pin.ab > ab ? s->pin.ab : ab));
		if ((rc = gpu_sweep_begin(s->gpu, nv, s->rank, s->inv, s->max_e, s->max_v, s->nch, limit,
					  &s->block_bytes, err)))
			return rc;
		return keep_plan(s, known, held + pinned + s->runtime_bytes, err);
	}
	if (held + slots + scratch + least > budget)
		return tsg_fail(err, TSG_ENOMEM, "%s: the sweep needs at least %s (offsets and ranks, "
				"%u chunk buffers, a block), more than the %s %s", io_crawl_name(s->c),
				tsg_fmt_bytes(held + slots + scratch + least, a, sizeof(a)), s->nslots,
				tsg_fmt_bytes(budget, b, sizeof(b)), whose);
	s->block_bytes = budget - held - slots - scratch;
	s->block_bytes = limit && limit < s->block_bytes ? limit : s->block_bytes;
	/* the block takes the rest unless --partitions limits it */
	return keep_plan(s, known, held + slots + scratch + s->block_bytes, err);
}

/* Pass after pass until every node was in a block; r->parts the passes. */
static int run_passes(struct sweep *s, const struct engine_opts *o, struct engine_result *r,
		      struct tsg_err *err)
{
	uint32_t p = 0, next = 0;
	double fill_s = 0;
	const double tc = tsg_now();
	int rc = TSG_OK;
	r->parts = calloc(s->nch ? s->nch : 1, sizeof(*r->parts));
	if (!r->parts)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (uint32_t at = 0; at < s->nch && rc == TSG_OK; at = next, p++) {
		if (o->ckpt && p >= SWEEP_CKPT_PASSES)
			return tsg_fail(err, TSG_EUSAGE, "the sweep takes more than %u passes here, "
					"more than a checkpoint records: raise %s", SWEEP_CKPT_PASSES,
					s->gpu ? "--gpu-mem" : "--host-mem");
		struct engine_part *part = &r->parts[p];
		r->nparts = p + 1;
		rc = sweep_pass(s, p, at, part, &fill_s, &next);
		r->triangles += part->triangles;
		r->resumed += part->resumed;
	}
	r->build_s = fill_s;
	r->count_s = tsg_now() - tc;
	r->nblocks = p;
	if (rc)
		return rc;
	if (s->hash && s->nch == 0) /* no node: nothing decoded, and the arcs must be none */
		return io_crawl_check(s->c, &s->sums, err);
	if (s->hash) /* every pass came whole from the checkpoint: nothing was checked */
		return tsg_fail(err, TSG_EINTERNAL, "the sweep checked nothing");
	return TSG_OK;
}

/* Per-vertex counts by id, and the degrees the report and clustering
 * read (offsets of the merged lists, none of them held). */
static int gather_pv(struct sweep *s, struct tsg_graph *g, struct engine_result *r,
		     struct tsg_err *err)
{
	const uint64_t nv = s->nv;
	int rc;
	if (s->gpu && (rc = gpu_pv_fetch(s->gpu, s->pv, err)))
		return rc;
	r->pv = malloc((nv ? nv : 1) * sizeof(uint64_t));
	uint64_t *off = malloc((nv + 1) * sizeof(uint64_t));
	if (!r->pv || !off) {
		free(off);
		return tsg_fail(err, TSG_ENOMEM, "out of memory for per-vertex counts");
	}
	off[0] = 0;
	for (uint64_t v = 0; v < nv; v++) {
		r->pv[v] = s->pv[s->rank[v]];
		off[v + 1] = off[v] + s->deg[v];
	}
	g->off = g->off_mem = off;
	return TSG_OK;
}

int sweep_count(struct sweep *s, const struct engine_opts *o, uint64_t host_mem, int allow_empty,
		struct tsg_graph *g, struct engine_result *r, struct tsg_err *err)
{
	const double t0 = tsg_now();
	int rc;
	s->o = o;
	s->err = err;
	s->threads = o->threads ? o->threads : 1;
	s->hash = 1;
	memset(r, 0, sizeof(*r));
	r->layout = ENGINE_LAYOUT_SWEEP;
	*g = (struct tsg_graph){ .nv = s->nv, .io_used = IO_MODE_AUTO, .io_cached = -1,
				 .threads = s->threads, .identity = sweep_identity(s) };
	if (o->per_vertex && o->ckpt)
		return tsg_fail(err, TSG_EUSAGE, "--per-vertex and --checkpoint together");
	if (io_crawl_arcs(s->c) == 0 && !allow_empty) /* as src/input.c says of any input */
		return tsg_fail(err, TSG_EINPUT, "%s: no arcs (its .properties say arcs=0); use "
				"--allow-empty to take it as an empty graph", io_crawl_name(s->c));
	double t = tsg_now();
	if ((rc = open_device(s, o, r, err)))
		goto done;
	r->sweep.device_s = tsg_now() - t;
	t = tsg_now();
	if ((rc = plan_memory(s, o, host_mem, r, err)))
		goto done;
	r->sweep.begin_s = tsg_now() - t - r->plan_s;
	t = tsg_now();
	if ((rc = run_alloc(s, err)))
		goto done;
	r->sweep.buffers_s = tsg_now() - t;
	r->sweep.pin_s = s->pin.s;
	r->sweep.pin_taken = s->pin.taken;
	r->sweep.pin_buffers = 2 * (s->gpu ? s->nslots : 0);
	if (o->ckpt) {
		/* the units follow from the chunks and the block's budget */
		uint64_t w[4] = { s->nch, s->block_bytes, (uint64_t)(s->gpu != NULL), SWEEP_CKPT_PASSES };
		/* 0x5eea: a pass sweeps only the chunks after its block (0x5ee9
		 * swept every other chunk: its checkpoints must not mix in) */
		const uint64_t key = ckpt_key(s->cut, s->nch + 1, ckpt_key(w, 4, 0x5eea));
		if ((rc = engine_ckpt_plan(o, key, SWEEP_CKPT_PASSES * (2 * s->nch + 1), r, err)))
			goto done;
	}
	r->device = s->gpu ? TSG_DEVICE_GPU : TSG_DEVICE_CPU;
	if (s->gpu)
		snprintf(r->device_name, sizeof(r->device_name), "%s", gpu_device_name(s->gpu));
	else
		snprintf(r->device_name, sizeof(r->device_name), "cpu (%u threads)", s->threads);
	snprintf(r->kernel, sizeof(r->kernel), "%s", s->gpu ? "mid-hash" : "merge");
	r->sweep.chunks = s->nch;
	r->sweep.block_bytes = s->block_bytes;
	if ((rc = run_passes(s, o, r, err)) || (o->per_vertex && (rc = gather_pv(s, g, r, err))))
		goto done;
	g->nadj = s->nadj;
	g->max_degree = s->max_degree;
	for (unsigned t = 0; t < s->threads; t++) {
		r->sweep.decode_s += s->th[t].decode_s;
		r->sweep.host_work_s += s->th[t].work_s;
		r->sweep.decoded += s->th[t].decoded;
		r->sweep.from_kept += s->th[t].from_kept;
		r->sweep.kept_chunks += s->th[t].kept;
		r->sweep.kept_failed += s->th[t].kept_failed;
	}
	r->sweep.kept_bytes = s->kept_most;
	r->sweep.runtime_bytes = s->runtime_bytes;
	r->sweep.consume_s = s->consume_s;
	r->sweep.vertices = s->with_edges;
	r->sweep.fill_s = s->fill_wall_s;
	r->sweep.local_s = s->local_s;
	r->sweep.past_s = s->past_wall_s;
	s->st.decode_s = r->count_s;
done:
	r->total_s = tsg_now() - t0;
	t = tsg_now();
	run_free(s);
	r->sweep.release_s = tsg_now() - t;
	return rc;
}
