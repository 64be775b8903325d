/*
 * main.c - the tristream command line: `count`, `info`, help and version.
 *
 * Exit codes are the tsg_status values (base/error.h, README.md): 0 ok,
 * 2 usage, 3 bad input, 4 out of memory, 5 I/O error, 6 device error,
 * 7 internal error, 8 interrupted (the checkpoint holds what was done).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/dist.h"
#include "src/engine.h"
#include "src/hostmem.h"
#include "src/input.h"
#include "src/pervertex.h"
#include "src/report.h"
#include "src/reorder.h"
#include "io/check.h"
#include "io/graph.h"
#include "io/webgraph.h"
#include "io/writer.h"
#include "base/json.h"
#include "base/stop.h"
#include "base/util.h"
#include "version.h"

static const char usage_main[] =
	"usage: tristream <command> [options]\n"
	"\n"
	"commands:\n"
	"  count GRAPH   count triangles exactly (see tristream count --help)\n"
	"  info GRAPH    header, counts and degree histogram of a graph file\n"
	"  compress IN OUT    rewrite a graph with LZ4-compressed neighbour lists\n"
	"  decompress IN OUT  rewrite a graph uncompressed\n"
	"  reorder IN OUT     rewrite a graph renumbered by (degree, id), for ranks\n"
	"                     that read by ranges (count --read ranges)\n"
	"  help          this text\n"
	"  version       print the version\n"
	"\n"
	"Graphs are tristream binary files; make them with tristream-convert\n"
	"(text edge lists) or tristream-gen (synthetic graphs).\n";

static const char usage_count[] =
	"usage: tristream count [options] GRAPH... [--manifest FILE]\n"
	"\n"
	"Counts each graph in turn (the command line's, then FILE's, one path a\n"
	"line); a graph that fails is reported and the run goes on. Several\n"
	"graphs: a summary table last (--json: one line per graph, failed ones with\n"
	"\"error\" and \"exit_code\"); the exit code is 0 if every graph counted,\n"
	"else the first failure's.\n"
	"\n"
	"GRAPH is a .tsg file (fastest), a LAW WebGraph crawl (BASE, BASE.graph or\n"
	"BASE.properties: merged with its transpose BASE-t in memory, and counted\n"
	"as it is decoded where the arrival layout counts; else sorted),\n"
	"or a text edge list as tristream-convert reads it (gzip, - for stdin),\n"
	"converted first: into lists in memory where the sort fits, else into a\n"
	"scratch .tsg (in --scratch-dir, else $TMPDIR).\n"
	"\n"
	"  --device cpu|gpu|auto   backend (default auto: the GPU if usable, but the CPU\n"
	"                          where the header says the GPU's start-up would cost\n"
	"                          more than it saves; the note says so)\n"
	"  --gpu N                 GPU index (default 0; under mpirun: the rank's on its\n"
	"                          host, modulo the GPUs there)\n"
	"  --gpus all|N|LIST       count on several GPUs of this host (all of them, the\n"
	"                          first N, or indexes like 0,2): the block layout's\n"
	"                          units (or LSTC parts, and --k's), costliest first,\n"
	"                          each GPU taking the next when it is free; the graph\n"
	"                          is read and oriented once (not --layout arrival)\n"
	"  --gpu-mem SIZE          device memory budget, e.g. 8G (default: free memory)\n"
	"  --layout auto|arrival|block|lstc  how the graph is cut (default auto:\n"
	"                          arrival on a GPU that holds the oriented graph,\n"
	"                          else block; arrival: batches of the file counted as\n"
	"                          they are read; block: 2D units of the rank-ordered\n"
	"                          graph; lstc: LSTC vertex parts)\n"
	"  --batches N             arrival layout: N batches (default auto: up to 32)\n"
	"  --partitions N|auto     block layout: N rank blocks, N(N+1)/2 units; lstc\n"
	"                          layout: N parts (default auto: as few as fit the GPU\n"
	"                          budget; 1 on the CPU)\n"
	"  --scheme edge|contig|hash|metis  lstc layout: vertex partitioning (default\n"
	"                          edge; metis if built with libmetis)\n"
	"  --prune auto|local|lstc|closed  lstc layout: proxy pruning rule (default\n"
	"                          auto: closed, the edges on a part's triangles, for\n"
	"                          --k above 3 over several parts; local otherwise)\n"
	"  --kernel NAME           GPU kernel: auto (default: edge-merge, lstc-hash or\n"
	"                          mid-hash for each unit, from its estimated work),\n"
	"                          mid-hash (the arrival layout's only one), lstc\n"
	"                          (default with the lstc layout), lstc-paper,\n"
	"                          lstc-hash, trust (TRUST's bucketed hashing), fasttc\n"
	"                          (Fast TC's binary search, lists prefetched to shared\n"
	"                          memory), skiff (Skiff's lock-free hopscotch tables),\n"
	"                          edge-merge (a thread an edge, sorted lists merged)\n"
	"  --cta-policy P          skiff: block-degree (default: a block for out-degree\n"
	"                          above 32, else a warp), block-index or warp-index\n"
	"                          (a block or warp for each run of 32 sources)\n"
	"  --tile N                tile width (power of two): LSTC ids per tile (lstc\n"
	"                          1024, lstc-paper 128), mid-hash table slots per warp\n"
	"                          (64 .. 4096, default 1024)\n"
	"  --cpu-kernel merge|hash|wedge  CPU kernel (default hash; wedge: each\n"
	"                          oriented wedge once, block layout only)\n"
	"  --threads N             host threads (default: every CPU this process may\n"
	"                          run on; under mpirun, a rank not bound to some\n"
	"                          CPUs takes its share of the host's)\n"
	"  --io auto|mmap|pread|uring  how the file is read (default auto)\n"
	"  --read auto|all|host|ranges  under mpirun, --layout block: where several\n"
	"                          ranks share a host, each reads a slice of the\n"
	"                          lists and they build one oriented graph in memory\n"
	"                          they share (host, or auto, the default; JSON\n"
	"                          host_build); every rank reads every list and\n"
	"                          orients it alone (all); or each reads only its\n"
	"                          slice and the rows of its units (ranges). host\n"
	"                          and ranges read a .tsg (an LZ4 one too; a crawl\n"
	"                          by slices), else every list, and the note says so;\n"
	"                          a plain file's lists' checksum is then not\n"
	"                          checked, their structure and symmetry are; an LZ4\n"
	"                          file's chunks are each checked)\n"
	"  --seed N                seed for --scheme hash\n"
	"  --stats                 per-partition sizes (LSTC Tables 3-4)\n"
	"  --pin-host on|off|auto  block layout on a GPU: orient into pinned host memory\n"
	"                          (default auto, now off: units are copied through\n"
	"                          pinned staging buffers that all host threads fill)\n"
	"  --orient one-pass|two-pass  block layout: write the oriented rows in one pass\n"
	"                          over the lists and then move them (default), or\n"
	"                          count then fill in place (less memory)\n"
	"  --host-mem SIZE         block layout: keep host memory near SIZE, e.g. 16G;\n"
	"                          a graph that needs more is spilled: the file is\n"
	"                          mapped and the oriented graph goes to a scratch\n"
	"                          file (slower, but graphs larger than RAM count)\n"
	"  --scratch-dir DIR       where spilled data goes (default: the graph's\n"
	"                          directory); the files have no name and vanish\n"
	"  --no-transpose          WebGraph input: ignore BASE-t, symmetrize by sorting\n"
	"  --allow-empty           a text or crawl input with no edges counts as an\n"
	"                          empty graph (0 triangles) instead of failing (exit 3),\n"
	"                          as tristream-convert --allow-empty writes one\n"
	"  --decode-first          WebGraph input with BASE-t: decode the whole crawl, then\n"
	"                          count (default: where the arrival layout counts it,\n"
	"                          its batches are counted as the crawl is decoded)\n"
	"  --checkpoint PATH       record each unit's count durably in PATH and, on a\n"
	"                          rerun with the same graph and options, count only\n"
	"                          the rest; SIGINT/SIGTERM finish the unit in flight\n"
	"                          and exit 8. Several graphs: PATH is a directory, a\n"
	"                          file per graph, and graphs already done are skipped.\n"
	"                          Under mpirun: a file a rank, PATH.rankR\n"
	"  --per-vertex OUT        also write each vertex's triangle count to OUT\n"
	"                          (atomically; one graph per run)\n"
	"  --per-vertex-format text|binary  text: \"id count\" lines for vertices with\n"
	"                          an edge (default); binary: nv little-endian u64\n"
	"  --clustering            transitivity and average local clustering (NetworkX's\n"
	"                          definitions) in the result\n"
	"  --k K                   count K-cliques, 3 <= K <= 32 (default 3: triangles);\n"
	"                          K > 3 counts on LSTC parts (out of core as ever)\n"
	"  --k-all                 count the cliques of every size at once (pivoting)\n"
	"  --kclique-method auto|orient|pivot  k-cliques: orientation (a walk of each\n"
	"                          vertex's out-neighbourhood) or pivoting (Jain and\n"
	"                          Seshadhri); auto: the two race on the host on a\n"
	"                          sample (the CPU: the faster; the GPU: pivoting\n"
	"                          where 8x faster there)\n"
	"  --order degree|degeneracy  LSTC parts and k-cliques: orient by (degree, id)\n"
	"                          (default) or by degeneracy (k-core) order, which\n"
	"                          bounds out-lists by the degeneracy\n"
	"  --plan-only             build every partition or unit and report sizes and\n"
	"                          times, but count nothing (on the host)\n"
	"  --json                  one JSON object on stdout\n"
	"  --quiet                 no progress on stderr\n";

static const char usage_info[] =
	"usage: tristream info [--json] [--threads N] [--verify] GRAPH\n"
	"\n"
	"Prints the header, counts, degree statistics and a degree histogram.\n"
	"Loading validates every checksum and the structure of the lists, and\n"
	"symmetry by a hash sum (random damage passes it with odds of 2^-64; a\n"
	"file crafted to cancel the sum can pass). --verify checks symmetry\n"
	"exactly: every entry's reverse is looked up (one binary search each).\n";

static int usage_error(const char *usage, const char *fmt, const char *arg)
{
	fprintf(stderr, "tristream: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n\n%s", usage);
	return TSG_EUSAGE;
}

static int report(int rc, const struct tsg_err *err)
{
	if (rc)
		fprintf(stderr, "tristream: error: %s\n", err->msg[0] ? err->msg : tsg_status_name(rc));
	return rc;
}

enum {
	OPT_DEVICE = 256, OPT_GPU, OPT_GPU_MEM, OPT_PARTS, OPT_SCHEME, OPT_PRUNE, OPT_KERNEL,
	OPT_CPU_KERNEL, OPT_THREADS, OPT_IO, OPT_SEED, OPT_STATS, OPT_JSON, OPT_QUIET, OPT_HELP,
	OPT_VERIFY, OPT_TILE, OPT_LAYOUT, OPT_PLAN_ONLY, OPT_PIN, OPT_ORIENT, OPT_READ, OPT_LZ4, OPT_HOST_MEM,
	OPT_SCRATCH, OPT_BATCHES, OPT_NO_TRANSPOSE, OPT_DECODE_FIRST, OPT_MANIFEST, OPT_CHECKPOINT, OPT_PER_VERTEX,
	OPT_PV_FORMAT, OPT_CLUSTERING, OPT_K, OPT_K_ALL, OPT_KCLIQUE_METHOD,
	OPT_KCLIQUE_SCHEME, OPT_KCLIQUE_GROUP, OPT_ORDER, OPT_GPUS,
	OPT_CTA_POLICY,
	OPT_ALLOW_EMPTY, /* issue 51: one rule for empty inputs with tristream-convert */
};

static const struct option count_opts[] = {
	{ "device", required_argument, 0, OPT_DEVICE },
	{ "gpu", required_argument, 0, OPT_GPU },
	{ "gpus", required_argument, 0, OPT_GPUS },
	{ "gpu-mem", required_argument, 0, OPT_GPU_MEM },
	{ "partitions", required_argument, 0, OPT_PARTS },
	{ "scheme", required_argument, 0, OPT_SCHEME },
	{ "prune", required_argument, 0, OPT_PRUNE },
	{ "kernel", required_argument, 0, OPT_KERNEL },
	{ "cpu-kernel", required_argument, 0, OPT_CPU_KERNEL },
	{ "threads", required_argument, 0, OPT_THREADS },
	{ "io", required_argument, 0, OPT_IO },
	{ "seed", required_argument, 0, OPT_SEED },
	{ "stats", no_argument, 0, OPT_STATS },
	{ "json", no_argument, 0, OPT_JSON },
	{ "quiet", no_argument, 0, OPT_QUIET },
	{ "verify", no_argument, 0, OPT_VERIFY },
	{ "tile", required_argument, 0, OPT_TILE },
	{ "cta-policy", required_argument, 0, OPT_CTA_POLICY },
	{ "layout", required_argument, 0, OPT_LAYOUT },
	{ "plan-only", no_argument, 0, OPT_PLAN_ONLY },
	{ "pin-host", required_argument, 0, OPT_PIN },
	{ "host-mem", required_argument, 0, OPT_HOST_MEM },
	{ "scratch-dir", required_argument, 0, OPT_SCRATCH },
	{ "no-transpose", no_argument, 0, OPT_NO_TRANSPOSE },
	{ "allow-empty", no_argument, 0, OPT_ALLOW_EMPTY },
	{ "decode-first", no_argument, 0, OPT_DECODE_FIRST },
	{ "manifest", required_argument, 0, OPT_MANIFEST },
	{ "checkpoint", required_argument, 0, OPT_CHECKPOINT },
	{ "per-vertex", required_argument, 0, OPT_PER_VERTEX },
	{ "per-vertex-format", required_argument, 0, OPT_PV_FORMAT },
	{ "clustering", no_argument, 0, OPT_CLUSTERING },
	{ "k", required_argument, 0, OPT_K },
	{ "k-all", no_argument, 0, OPT_K_ALL },
	{ "kclique-method", required_argument, 0, OPT_KCLIQUE_METHOD },
	{ "kclique-scheme", required_argument, 0, OPT_KCLIQUE_SCHEME },
	{ "kclique-group", required_argument, 0, OPT_KCLIQUE_GROUP },
	{ "order", required_argument, 0, OPT_ORDER },
	{ "batches", required_argument, 0, OPT_BATCHES },
	{ "orient", required_argument, 0, OPT_ORIENT },
	{ "read", required_argument, 0, OPT_READ },
	{ "help", no_argument, 0, OPT_HELP },
	{ 0, 0, 0, 0 },
};

static int parse_threads(const char *s, unsigned *out)
{
	uint64_t v;
	if (tsg_parse_u64(s, 4096, &v) || v == 0)
		return TSG_EUSAGE;
	*out = (unsigned)v;
	return TSG_OK;
}

/* --host-mem: from the header, whether the count fits the budget; if not,
 * spill (src/hostmem.h): map the file, two-pass orientation, the oriented
 * graph and any decoded lists in scratch files in dir. */
static int plan_host_mem(const char *path, uint64_t budget, const char *scratch_dir,
			 struct io_load_opts *lo, struct engine_opts *o, struct hostmem_plan *hp,
			 char *dir, size_t dir_len, struct tsg_err *err)
{
	struct io_header h;
	int rc = io_graph_peek(path, &h, err);
	if (rc)
		return rc;
	const int gpu = o->device != TSG_DEVICE_CPU && !o->plan_only && engine_have_gpu();
	rc = hostmem_plan(&h, lo->io, o->threads, gpu, budget, hp, err);
	if (rc || hp->mode == HOSTMEM_MEMORY)
		return rc;
	if (scratch_dir) {
		snprintf(dir, dir_len, "%s", scratch_dir);
	} else { /* the graph's directory: a disk with room for graphs */
		const char *slash = strrchr(path, '/');
		if (!slash)
			snprintf(dir, dir_len, ".");
		else
			snprintf(dir, dir_len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	}
	lo->io = IO_MODE_MMAP;
	lo->scratch_dir = dir;
	o->orient = PART_ORIENT_TWO_PASS;
	o->scratch_dir = dir;
	if (o->progress) {
		char a[32], b[32];
		fprintf(stderr, "tristream: note: %s needs about %s of host memory, over --host-mem "
			"%s: spilling to scratch files in %s (slower)\n", path,
			tsg_fmt_bytes(hp->need_memory, a, sizeof(a)), tsg_fmt_bytes(budget, b, sizeof(b)),
			dir);
	}
	return TSG_OK;
}

/* The graphs of a count: the command line's, then the manifest's lines
 * (blank lines and '#' comments skipped; *mbuf holds them). TSG_EUSAGE if
 * there are none. */
static int gather_graphs(int argc, const char **argv, const char *manifest, const char ***out,
			 size_t *n, char **mbuf, struct tsg_err *err)
{
	size_t cap = (size_t)argc + 16, k = 0;
	const char **paths = malloc(cap * sizeof(*paths));
	if (!paths)
		return TSG_ENOMEM;
	for (int i = 0; i < argc; i++)
		paths[k++] = argv[i];
	if (manifest) {
		FILE *f = fopen(manifest, "r");
		if (!f) {
			free(paths);
			return tsg_fail_errno(err, errno == ENOENT ? TSG_EINPUT : TSG_EIO, errno,
					      "--manifest %s", manifest);
		}
		size_t len = 0;
		char *buf = NULL;
		FILE *m = open_memstream(&buf, &len);
		int c;
		while (m && (c = getc(f)) != EOF)
			putc(c, m);
		const int bad = !m || ferror(f);
		fclose(f);
		if (m)
			fclose(m);
		if (bad) {
			free(buf);
			free(paths);
			return tsg_fail(err, TSG_EIO, "--manifest %s: read error", manifest);
		}
		for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			line[strcspn(line, "\r")] = 0;
			while (*line == ' ' || *line == '\t')
				line++;
			if (!*line || *line == '#')
				continue;
			if (k == cap) {
				cap *= 2;
				const char **np = realloc(paths, cap * sizeof(*paths));
				if (!np) {
					free(buf);
					free(paths);
					return tsg_fail(err, TSG_ENOMEM, "out of memory");
				}
				paths = np;
			}
			paths[k++] = line;
		}
		*mbuf = buf;
	}
	*out = paths;
	*n = k;
	return k ? TSG_OK : TSG_EUSAGE;
}

/* What every graph of a count is counted with. */
struct count_job {
	struct tsg_dist *dist; /* the MPI ranks this job runs on (one without) */
	struct engine_opts o;
	struct io_load_opts lo;
	uint64_t host_mem;
	const char *scratch_dir;
	int no_transpose, decode_first, json;
	int allow_empty;       /* --allow-empty (input_opts.allow_empty) */
	const char *ckpt;      /* --checkpoint: a file, or with ckpt_dir a directory */
	int ckpt_dir;
	uint64_t opts_key;     /* the options that decide the units */
	uint64_t ranks_key;    /* several ranks: the options every rank must share
				* (what each counts, and which collectives it
				* reaches); --gpu, --device, --gpu-mem, --threads may
				* differ (the plan key then catches a plan that does) */
	const char *pv_path;   /* --per-vertex */
	enum pv_format pv_fmt;
	int clustering;
	int gpu_list[ENGINE_MAX_GPUS]; /* --gpus: o.gpus points here, as long as the job */
};

/* The graph's name in a checkpoint: its file's header checksum, or for a
 * graph built in memory (a merged crawl) a checksum of its lists. */
static uint64_t graph_key(const struct tsg_graph *g)
{
	if (g->identity)
		return g->identity;
	return io_checksum(g->off, (g->nv + 1) * 8) ^ (io_checksum(g->adj, g->nadj * 4) * 31 + 1);
}

/* In a checkpoint directory, a graph's file: its base name and a hash of
 * its full path, so two graphs of one name in two folders do not meet. */
static void ckpt_file_for(const struct count_job *job, const char *path, char *out, size_t len)
{
	if (!job->ckpt_dir) {
		snprintf(out, len, "%s", job->ckpt);
	} else {
		char *full = realpath(path, NULL);
		const char *name = full ? full : path;
		const char *base = strrchr(path, '/');
		snprintf(out, len, "%s/%.200s.%016llx.ckpt", job->ckpt, base ? base + 1 : path,
			 (unsigned long long)io_checksum(name, strlen(name)));
		free(full);
	}
	/* under mpirun each rank keeps its own units' counts: FILE.rankR */
	const size_t n = strlen(out);
	if (job->dist->size > 1 && n < len)
		snprintf(out + n, len - n, ".rank%d", job->dist->rank);
}

/* Several ranks: each counted its share of the units (rc its outcome);
 * every rank agrees on the outcome and on the plan, then the counts are
 * summed on every rank (and per-vertex counts, and clique sizes), and rank
 * 0 gets each rank's counting time. Every rank makes the same calls in the
 * same order. */
static int dist_sum_ranks(struct tsg_dist *d, int rc, const struct tsg_graph *g,
			  const struct engine_opts *o, struct engine_result *r, double synced,
			  double **rank_s, struct tsg_err *err)
{
	if ((rc = dist_agree(d, rc, err)))
		return rc;
	if (!dist_same_u64(d, r->plan_key))
		return tsg_fail(err, TSG_EUSAGE, "the ranks planned different units (device memory "
				"or options differ): give every rank the same --gpu-mem and "
				"--partitions");
	if ((rc = dist_sum_u64(d, &r->triangles, 1, err)))
		return rc;
	if (r->pv && (rc = dist_sum_u64(d, r->pv, g->nv, err)))
		return rc;
	if (o->k_all) { /* the same length on every rank: one graph, one orientation */
		if ((rc = dist_sum_u64(d, r->sizes, r->sizes_len, err)))
			return rc;
		engine_clique_top(r);
	}
	/* rank 0: each rank's times, bytes and units (enum report_rank_row) */
	*rank_s = d->rank == 0 ? calloc((size_t)REPORT_RANK_ROWS * (size_t)d->size, sizeof(**rank_s))
			       : NULL;
	uint32_t mine = 0; /* the units this rank counted */
	for (uint32_t k = 0; k < r->nparts; k++)
		mine += !r->parts[k].elsewhere && !r->parts[k].resumed;
	/* when this rank counted, from the moment the ranks left one reduction */
	const int timed = r->count_start > 0;
	double v[REPORT_RANK_ROWS];
	v[REPORT_RANK_READ_S] = g->read_seconds;
	v[REPORT_RANK_BUILD_S] = r->build_s;
	v[REPORT_RANK_COUNT_S] = r->count_s;
	v[REPORT_RANK_COUNT_WALL_S] = r->count_wall_s;
	v[REPORT_RANK_READ_BYTES] = (double)(r->ranges.used ? r->ranges.read_bytes
							     : r->host_build.read_bytes);
	v[REPORT_RANK_UNITS] = (double)mine;
	v[REPORT_RANK_COUNT_FROM] = timed ? r->count_start - synced : -1;
	v[REPORT_RANK_COUNT_TO] = timed ? r->count_start + r->count_wall_s - synced : -1;
	return dist_gather_rows(d, v, REPORT_RANK_ROWS, *rank_s, err);
}

/* Whether this rank would have its host's ranks build one oriented graph
 * (src/hostbuild.h): unless --read all or ranges says otherwise, on GPUs
 * and on the CPU alike. Two CPU ranks on a 2-core machine counted 3-10%
 * slower from the shared block but built in 2.4 s against 5.6-6.4 s, and
 * ran 7.8-8.2 s against 10.4-11.4 s whole (ER 8M, bench/RESULTS.md). An
 * earlier run of the same command, which had the CPU left out, counted
 * 2-5 times slower both ways, for a reason not found. */
static int host_build_wanted(const struct engine_opts *o)
{
	return !o->read_all && !o->read_ranges; /* --read auto or host */
}

/* A crawl or a text file is converted whole before its header is known
 * (input_prepare), so the GPU's context is made while it is, where the GPU
 * was asked for, or (crawls) where auto will take it for the fewest edges
 * the crawl can have (half its arcs) at a degree skew of 4, which the
 * crawls measured exceed by far (bench/RESULTS.md; engine_auto_device).
 * Should auto pick the CPU after all, the context is only torn down. */
static int warm_early(const char *path, const struct engine_opts *o)
{
	if (o->device == TSG_DEVICE_CPU || o->plan_only || !engine_have_gpu())
		return 0;
	const enum input_kind kind = input_kind_of(path);
	if (kind == INPUT_TSG)
		return 0;
	if (o->device == TSG_DEVICE_GPU)
		return 1;
	uint64_t nodes, arcs;
	struct tsg_err e = { 0 };
	char note[256];
	if (kind != INPUT_WEBGRAPH || io_webgraph_peek(path, &nodes, &arcs, &e) != TSG_OK)
		return 0;
	const uint64_t m = arcs / 2;
	const uint64_t skew4 = (uint64_t)(4.0 * sqrt((double)m)); /* the max degree of skew 4 */
	return engine_auto_device(nodes, m, skew4, o->k, note, sizeof(note)) == TSG_DEVICE_GPU;
}

/* Counts one graph and prints its result; returns its status (the error
 * in res->err, not yet reported). */
static int count_one(const char *path, const struct count_job *job, struct report_outcome *res)
{
	/* each graph starts from the options as parsed (--host-mem changes them) */
	struct engine_opts o = job->o;
	struct io_load_opts lo = job->lo;
	const uint64_t host_mem = job->host_mem;
	const char *scratch_dir = job->scratch_dir;
	struct tsg_graph g = { 0 }; /* filled by input_prepare only where it opens no file */
	struct tsg_err *err = &res->err;
	struct engine_result r = { 0 };
	struct hostmem_plan hp;
	struct ckpt *ck = NULL;
	struct pv_clustering cl;
	char dir[4096], ckpath[4400];
	const double t0 = tsg_now();
	/* text edge lists and WebGraph crawls are converted (or decoded) first */
	struct input_info in;
	const char *gpath;
	struct tsg_dist *d = job->dist;
	dist_begin(d); /* the graph before may have failed: this one starts clean */
	/* ranks launched with other options (by a wrapper script) would count
	 * other things or wait in other collectives: a partial count, or a hang */
	if (d->size > 1 && !dist_same_u64(d, job->ranks_key))
		return tsg_fail(err, TSG_EUSAGE, "the ranks were given different options (every "
				"rank must run the same count; --gpu, --device, --gpu-mem and "
				"--threads may differ)");
	/* a crawl is decoded as it is counted where the arrival layout may
	 * take it (asked for, or a GPU's auto on one GPU), and no key of its
	 * lists is needed first (ranks, checkpoints) */
	const int stream = !job->decode_first && !host_mem && !o.scratch_dir && d->size == 1 &&
			   !job->ckpt && !o.plan_only && !engine_cliques(&o) &&
			   engine_gpu_count(&o) <= 1 &&
			   (o.layout == ENGINE_LAYOUT_ARRIVAL ||
			    (o.layout == ENGINE_LAYOUT_AUTO && o.device != TSG_DEVICE_CPU &&
			     engine_have_gpu()));
	/* a crawl is decoded by slices where the host's ranks may build one
	 * oriented graph (src/hostbuild.h; a crawl opened so keeps --device
	 * auto on the GPU, below, so they do) */
	const int host_build = d->host_most > 1 && d->hosts_share && o.layout == ENGINE_LAYOUT_BLOCK &&
			       o.pin_host <= 0 && !o.scratch_dir && !host_mem && !job->decode_first &&
			       host_build_wanted(&o);
	const struct input_opts io_o = { .threads = o.threads, .progress = o.progress,
					 .no_transpose = job->no_transpose, .mem_limit = host_mem,
					 .allow_empty = job->allow_empty,
					 .scratch_dir = scratch_dir, .need_file = host_mem != 0,
					 .stream = stream,
					 .ranges = d->size > 1 && !o.plan_only &&
						   (o.read_ranges || host_build) };
	double *rank_s = NULL; /* rank 0: each rank's read, build and count times */
	struct dist_counter *take = NULL; /* several ranks: the units' shared count */
	struct engine_warm *warm = NULL;
	char auto_note[sizeof(r.note)] = "";
	if (warm_early(path, &o))
		engine_gpu_warm_begin(o.gpu_index, &warm);
	int rc = input_prepare(path, &io_o, &g, &gpath, &in, err);
	if (rc) { /* every rank agrees once after opening, whatever happened */
		engine_gpu_warm_end(warm);
		return dist_agree(d, rc, err);
	}
	if (o.device != TSG_DEVICE_CPU && !o.plan_only && engine_have_gpu()) {
		/* auto decides from the header, before the lists are read; the
		 * GPU's context is then made while they are */
		struct io_header h = { 0 };
		/* a crawl opened by ranges has no degrees yet: auto stays */
		const int known = gpath ? io_graph_peek(gpath, &h, err) == TSG_OK
					: !io_graph_degrees_pending(&g);
		if (!gpath) { /* a crawl decoded as counted: bounds of its edges and degrees */
			h.nv = g.nv;
			h.nedges = io_graph_rank_nadj(&g) / 2;
			h.max_degree = io_graph_rank_max_degree(&g);
		}
		/* the rule only ever moves auto to the CPU: where it says GPU, auto
		 * stays, so a GPU that cannot be used still falls back to the CPU.
		 * Where bounds say the CPU, the CPU could not count while decoding
		 * anyway: the crawl is decoded whole and the rule asked again with
		 * its true figures, which the note gives */
		if (o.device == TSG_DEVICE_AUTO && known && g.lists_src &&
		    engine_auto_device(h.nv, h.nedges, h.max_degree, o.k, auto_note,
				       sizeof(auto_note)) == TSG_DEVICE_CPU) {
			auto_note[0] = 0;
			if ((rc = io_graph_read_lists(&g, NULL, NULL, err))) {
				engine_gpu_warm_end(warm);
				io_graph_free(&g);
				return dist_agree(d, rc, err);
			}
			h.nedges = g.nadj / 2;
			h.max_degree = g.max_degree;
		}
		if (o.device == TSG_DEVICE_AUTO && known &&
		    engine_auto_device(h.nv, h.nedges, h.max_degree, o.k, auto_note,
				       sizeof(auto_note)) == TSG_DEVICE_CPU)
			o.device = TSG_DEVICE_CPU;
		err->msg[0] = 0; /* a header that cannot be read is reported by the open */
		if (o.device != TSG_DEVICE_CPU && !warm)
			engine_gpu_warm_begin(o.gpu_index, &warm);
	}
	if (o.device == TSG_DEVICE_CPU && warm) { /* begun early, and auto chose the CPU */
		engine_gpu_warm_end(warm);
		warm = NULL;
	}
	if (host_mem && gpath) {
		rc = plan_host_mem(gpath, host_mem, scratch_dir, &lo, &o, &hp, dir, sizeof(dir), err);
		if (rc) {
			input_done(&in);
			engine_gpu_warm_end(warm);
			return dist_agree(d, rc, err);
		}
	}
	if (gpath)
		rc = io_graph_open(gpath, &lo, &g, err);
	input_done(&in); /* a scratch .tsg lives on through the open graph's descriptors */
	if (rc) {
		engine_gpu_warm_end(warm);
		return dist_agree(d, rc, err);
	}
	if ((rc = dist_agree(d, TSG_OK, err)))
		goto done;
	/* whether the host's ranks build one oriented graph (host_build_wanted):
	 * decided by all of them here, where every rank is, so each takes the
	 * same way */
	o.host_build = dist_host_all(d, host_build_wanted(&o));
	/* for a graph built in memory the key checksums every list (about a
	 * second for a billion-edge crawl): only where ranks or a checkpoint
	 * need it */
	const uint64_t key = d->size > 1 || job->ckpt ? graph_key(&g) : 0;
	if (d->size > 1 && !dist_same_u64(d, key)) { /* the same verdict on every rank */
		rc = tsg_fail(err, TSG_EINPUT, "%s: the ranks opened different graphs (each "
			      "rank's copy must be the same file)", path);
		goto done;
	}
	/* every rank leaves that reduction at about the same moment: the ranks'
	 * counting times are told from it (job_count_wall_s) */
	const double synced = tsg_now();
	if (job->ckpt) {
		uint64_t total;
		ckpt_file_for(job, path, ckpath, sizeof(ckpath));
		rc = ckpt_open(ckpath, key, job->opts_key, &ck, err);
		if (d->size > 1) /* every rank opens its own, or none goes on */
			rc = dist_agree(d, rc, err);
		if (rc)
			goto done;
		/* one process: a finished graph is not even counted. Several ranks
		 * count again, each taking its units from its file: they must
		 * meet in the reductions whatever each file says */
		int finished = 0; /* issue 51: a total that does not add up is refused */
		if (d->size == 1 && (rc = ckpt_finished(ck, &finished, &total, err)))
			goto done;
		if (finished) {
			report_finished(path, &g, ckpath, total, job->o.k, job->json);
			res->triangles = total;
			res->seconds = tsg_now() - t0;
			goto done;
		}
		if (ckpt_info(ck)->torn && o.progress)
			fprintf(stderr, "tristream: note: checkpoint %s: an incomplete last record "
				"(a crash while writing it) was dropped; its unit is counted again\n",
				ckpath);
		o.ckpt = ck;
	}
	if (g.io_note[0] && o.progress)
		fprintf(stderr, "tristream: note: %s; reading with %s\n", g.io_note,
			io_mode_name(g.io_used));
	/* several ranks: the block layout's units go to whichever rank is free
	 * (dist.h); a checkpoint keeps the deal by cost, so that each rank's
	 * file resumes its own units */
	if (d->size > 1 &&
	    (rc = dist_agree(d, dist_counter_open(d, !job->ckpt && !o.plan_only, &take, err), err)))
		goto done;
	o.take = take;
	rc = engine_count(&g, &o, &r, err);
	if (!r.note[0] && auto_note[0])
		snprintf(r.note, sizeof(r.note), "%s", auto_note);
	if (r.note[0] && o.progress)
		fprintf(stderr, "tristream: note: %s\n", r.note);
	if (d->size > 1 && (rc = dist_sum_ranks(d, rc, &g, &o, &r, synced, &rank_s, err)))
		goto done;
	if (rc == TSG_OK && ck)
		rc = ckpt_finish(ck, r.triangles, err);
	struct ckpt_info cki = { 0 };
	if (ck) /* several ranks: what all their files did */
		cki = *ckpt_info(ck);
	if (d->size > 1 && ck && (rc = dist_agree(d, rc, err)) == TSG_OK) {
		uint64_t v[4] = { (uint64_t)cki.created, (uint64_t)cki.torn, cki.resumed,
				  cki.recorded };
		rc = dist_sum_u64(d, v, 4, err);
		cki.created = v[0] == (uint64_t)d->size;
		cki.torn = v[1] > 0;
		cki.resumed = (uint32_t)v[2];
		cki.recorded = (uint32_t)v[3];
		char *suffix = strrchr(ckpath, '.'); /* ".rankR": the files are FILE.rank* */
		if (suffix)
			snprintf(suffix, sizeof(ckpath) - (size_t)(suffix - ckpath), ".rank*");
	}
	if (rc == TSG_OK && job->pv_path && d->rank == 0)
		rc = pv_write(job->pv_path, job->pv_fmt, &g, r.pv, o.threads, err);
	if (rc == TSG_OK && job->clustering)
		pv_clustering(&g, r.pv, o.threads, &cl);
	/* several ranks: the shared counter and the host's oriented graph go
	 * inside the timed run, since giving back the host's block (4 KiB
	 * pages of /dev/shm, in whichever rank lets go last) takes a while on
	 * a large graph; on every rank, failed or not, so that the
	 * collectives pair up */
	const double rel0 = tsg_now();
	dist_counter_close(take);
	take = NULL;
	dist_host_free(d);
	const double release_s = tsg_now() - rel0;
	const double wall = tsg_now() - t0;
	if (rc == TSG_OK) {
		const struct report_extra x = { .ranges = r.ranges.used, .taken = r.taken,
						.release_s = release_s,
						.host_build = r.host_build.used,
						.cl = job->clustering ? &cl : NULL,
					       .pv_path = job->pv_path, .dist = d,
					       .rank_s = rank_s,
					       .ckpt_path = ck ? ckpath : NULL,
					       .ck = ck ? &cki : NULL };
		if (g.nv == 0 && o.progress)
			fprintf(stderr, "tristream: note: %s is an empty graph\n", path);
		if (job->json)
			report_count_json(path, &g, &o, &r, host_mem ? &hp : NULL, &in, wall, &x);
		else
			report_count_text(&g, &o, &r, wall, &x);
		res->triangles = r.triangles;
		res->seconds = wall;
	}
done:
	/* a collective, so only here: a rank that failed while counting meets
	 * the others first in an agreement (engine_count's, or dist_sum_ranks'),
	 * after which no rank makes another on the wire for this graph */
	dist_counter_close(take);
	dist_host_free(d); /* the oriented graph its host's ranks built, if they did */
	engine_gpu_warm_end(warm);
	free(rank_s);
	ckpt_close(ck);
	engine_result_free(&r);
	io_graph_free(&g);
	return rc;
}

/* Under mpirun: the host's CPUs shared by its ranks, where the launcher
 * left each rank the whole host (--bind-to none); a rank it bound to some
 * CPUs runs a thread on each of those (tsg_default_threads), no more. Open
 * MPI binds each rank to one core when it starts one or two (its default;
 * measured on two H200s: R-MAT 24's ranks read and oriented in 10-13 s
 * against 0.9 s unbound, bench/RESULTS.md), so a rank left fewer CPUs than
 * its share of the host says so, with the fix. */
static void rank_threads(const struct tsg_dist *d, int threads_given, int progress,
			 unsigned *threads)
{
	const char *local_size = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
	const int ranks_here = local_size ? atoi(local_size) : 1;
	const unsigned n = ranks_here > 1 ? (unsigned)ranks_here : 1;
	const unsigned online = tsg_online_cpus(), bound = tsg_default_threads();
	const unsigned share = online / n ? online / n : 1;
	if (!threads_given && bound >= online)
		*threads = share;
	if (progress && bound < share)
		fprintf(stderr, "tristream: note: rank %d may run on %u of this host's %u CPUs "
			"(%u ranks here): the launcher bound it, and Open MPI binds each rank to "
			"one core when it starts one or two. Reading and orienting then take many "
			"times longer: give mpirun --bind-to none, or --map-by slot:PE=%u\n",
			d->rank, bound, online, n, share);
}

/* --gpus: "all" (*all), a count N (the first N), or a list of distinct
 * indexes ("0,2"); 0 if it parses. With TRISTREAM_TEST_GPU_REPEAT=1 in the
 * environment a list may name a GPU more than once, each time a context of
 * its own sharing the device: tests/gpu/multi.sh runs the paths of several
 * GPUs so on a machine with one (for their exactness, not their speed). */
static int parse_gpus(const char *s, int *list, uint32_t *n, int *all)
{
	const char *repeat = getenv("TRISTREAM_TEST_GPU_REPEAT");
	const int repeat_ok = repeat && strcmp(repeat, "1") == 0;
	uint64_t v;
	*n = 0;
	*all = strcmp(s, "all") == 0;
	if (*all)
		return 0;
	if (!strchr(s, ',')) {
		if (tsg_parse_u64(s, ENGINE_MAX_GPUS, &v) || v == 0)
			return -1;
		for (uint32_t i = 0; i < v; i++)
			list[(*n)++] = (int)i;
		return 0;
	}
	char buf[512], *save = NULL;
	if (strlen(s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (*n == ENGINE_MAX_GPUS || tsg_parse_u64(t, 1024, &v))
			return -1;
		for (uint32_t i = 0; i < *n && !repeat_ok; i++)
			if (list[i] == (int)v)
				return -1;
		list[(*n)++] = (int)v;
	}
	/* "0,,1" and a trailing comma leave a hole strtok does not show */
	return *n >= 1 && !strstr(s, ",,") && s[0] != ',' && s[strlen(s) - 1] != ',' ? 0 : -1;
}

/* Applies --gpus to o: the GPU backend, and with several GPUs (which share
 * block units or LSTC parts) the block layout where none is asked for and
 * no k-cliques are. Returns an exit status (0: go on). */
static int use_gpus(struct engine_opts *o, int *list, uint32_t n, int all, int gpu_given)
{
	if (gpu_given)
		return usage_error(usage_count, "%s", "--gpu and --gpus: give one");
	if (o->device == TSG_DEVICE_CPU)
		return usage_error(usage_count, "%s", "--gpus counts on GPUs: not with --device cpu");
	o->device = TSG_DEVICE_GPU;
	if (all) {
		struct tsg_err err = { 0 };
		const int present = engine_gpu_devices();
		if (present <= 0)
			return report(tsg_fail(&err, TSG_EDEVICE, "--gpus all: %s", engine_have_gpu()
					       ? "no usable CUDA GPU" : "this build of tristream "
					       "has no CUDA backend"), &err);
		n = present < ENGINE_MAX_GPUS ? (uint32_t)present : ENGINE_MAX_GPUS;
		for (uint32_t i = 0; i < n; i++)
			list[i] = (int)i;
	}
	if (n == 1) { /* one GPU: the one-GPU path, as --gpu would pick it */
		o->gpu_index = list[0];
		return TSG_OK;
	}
	if (o->layout == ENGINE_LAYOUT_ARRIVAL)
		return usage_error(usage_count, "%s", "several GPUs (--gpus) share the block "
				   "layout's units or LSTC parts: not --layout arrival (its batches "
				   "are bound by the read, and every GPU would need every row)");
	if (o->layout == ENGINE_LAYOUT_AUTO && !engine_cliques(o))
		o->layout = ENGINE_LAYOUT_BLOCK; /* k-cliques: LSTC parts, set below */
	o->gpus = list;
	o->ngpus = n;
	return TSG_OK;
}

/* Parses count's options into *job (and *manifest, --manifest's file);
 * optind is left at the first graph. Returns a usage error's status, or
 * TSG_OK with *help set where --help was printed and nothing is to run. */
static int parse_count(int argc, char **argv, struct tsg_dist *dist, struct count_job *job,
		       const char **manifest, int *help)
{
	struct engine_opts o = {
		.device = TSG_DEVICE_AUTO,
		.gpu_kernel = GPU_KERNEL_COUNT_, /* by layout, below */
		.cpu_kernel = KERN_CPU_HASH,
		.part = { .scheme = PART_EDGE, .prune = PART_PRUNE_AUTO, .seed = 1 },
		.threads = tsg_default_threads(),
		.progress = 1,
		.pin_host = -1,
		.layout = ENGINE_LAYOUT_AUTO,
	};
	struct io_load_opts lo = { .io = IO_MODE_AUTO };
	uint64_t host_mem = 0;
	const char *scratch_dir = NULL;
	int json = 0, no_transpose = 0, decode_first = 0, c;
	int allow_empty = 0;
	const char *ckpt = NULL, *pv_path = NULL;
	enum pv_format pv_fmt = PV_TEXT;
	int pv_fmt_given = 0, clustering = 0, k_given = 0, method_given = 0, gpu_given = 0;
	uint64_t v;
	o.k = 3;
	const char *lstc_only = NULL; /* an option that means nothing to the block layout */
	const char *unit_only = NULL; /* one that means nothing to the arrival layout */
	int batches_given = 0;
	int gpu_list[ENGINE_MAX_GPUS], gpus_all = 0, threads_given = 0, cta_given = 0;
	uint32_t ngpus = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", count_opts, NULL)) != -1) {
		switch (c) {
		case OPT_DEVICE:
			if (strcmp(optarg, "cpu") == 0) o.device = TSG_DEVICE_CPU;
			else if (strcmp(optarg, "gpu") == 0) o.device = TSG_DEVICE_GPU;
			else if (strcmp(optarg, "auto") == 0) o.device = TSG_DEVICE_AUTO;
			else return usage_error(usage_count, "unknown device '%s'", optarg);
			break;
		case OPT_GPU:
			if (tsg_parse_u64(optarg, 1024, &v))
				return usage_error(usage_count, "bad GPU index '%s'", optarg);
			o.gpu_index = (int)v;
			gpu_given = 1;
			break;
		case OPT_GPUS:
			if (parse_gpus(optarg, gpu_list, &ngpus, &gpus_all))
				return usage_error(usage_count, "--gpus takes all, a count (1..64) or a "
						   "list of distinct indexes like 0,2, not '%s'", optarg);
			break;
		case OPT_GPU_MEM:
			if (tsg_parse_size(optarg, &o.gpu_mem) || o.gpu_mem == 0)
				return usage_error(usage_count, "bad size '%s'", optarg);
			break;
		case OPT_PARTS:
			if (strcmp(optarg, "auto") == 0)
				o.part.nparts = 0;
			else if (tsg_parse_u64(optarg, UINT32_MAX, &v) || v == 0)
				return usage_error(usage_count, "bad partition count '%s'", optarg);
			else
				o.part.nparts = (uint32_t)v;
			unit_only = "--partitions";
			break;
		case OPT_BATCHES:
			if (strcmp(optarg, "auto") == 0)
				o.batches = 0;
			else if (tsg_parse_u64(optarg, PART_ARRIVAL_MAX_BATCHES, &v) || v == 0)
				return usage_error(usage_count, "bad batch count '%s'", optarg);
			else
				o.batches = (uint32_t)v;
			batches_given = 1;
			break;
		case OPT_SCHEME:
			if (part_scheme_parse(optarg, &o.part.scheme))
				return usage_error(usage_count, "unknown scheme '%s'", optarg);
			if (!part_scheme_available(o.part.scheme))
				return usage_error(usage_count, "scheme '%s' is not in this build "
						   "(install libmetis-dev and rebuild)", optarg);
			lstc_only = "--scheme";
			break;
		case OPT_PRUNE:
			if (part_prune_parse(optarg, &o.part.prune))
				return usage_error(usage_count, "unknown pruning rule '%s'", optarg);
			lstc_only = "--prune";
			break;
		case OPT_LAYOUT:
			if (engine_layout_parse(optarg, &o.layout))
				return usage_error(usage_count, "unknown layout '%s'", optarg);
			break;
		case OPT_KERNEL:
			if (gpu_kernel_parse(optarg, &o.gpu_kernel))
				return usage_error(usage_count, "unknown GPU kernel '%s'", optarg);
			if (o.gpu_kernel != GPU_KERNEL_MID_HASH && o.gpu_kernel != GPU_KERNEL_AUTO)
				unit_only = "--kernel other than mid-hash or auto";
			break;
		case OPT_CPU_KERNEL:
			if (kern_cpu_parse(optarg, &o.cpu_kernel))
				return usage_error(usage_count, "unknown CPU kernel '%s'", optarg);
			if (o.cpu_kernel != KERN_CPU_MERGE)
				unit_only = "--cpu-kernel hash or wedge";
			break;
		case OPT_THREADS:
			if (parse_threads(optarg, &o.threads))
				return usage_error(usage_count, "bad thread count '%s'", optarg);
			threads_given = 1;
			break;
		case OPT_IO:
			if (io_mode_parse(optarg, &lo.io))
				return usage_error(usage_count, "unknown I/O mode '%s'", optarg);
			break;
		case OPT_SEED:
			if (tsg_parse_u64(optarg, UINT64_MAX, &o.part.seed))
				return usage_error(usage_count, "bad seed '%s'", optarg);
			lstc_only = "--seed";
			break;
		case OPT_STATS: o.want_stats = 1; unit_only = "--stats"; break;
		case OPT_PLAN_ONLY: o.plan_only = 1; unit_only = "--plan-only"; break;
		case OPT_ORIENT:
			if (strcmp(optarg, "one-pass") == 0) o.orient = PART_ORIENT_ONE_PASS;
			else if (strcmp(optarg, "two-pass") == 0) o.orient = PART_ORIENT_TWO_PASS;
			else return usage_error(usage_count, "--orient takes one-pass or two-pass, not '%s'", optarg);
			unit_only = "--orient";
			break;
		case OPT_READ:
			o.read_ranges = strcmp(optarg, "ranges") == 0;
			o.read_all = strcmp(optarg, "all") == 0;
			o.read_host = strcmp(optarg, "host") == 0;
			if (!o.read_ranges && !o.read_all && !o.read_host && strcmp(optarg, "auto") != 0)
				return usage_error(usage_count, "--read takes auto, all, host or ranges, "
						   "not '%s'", optarg);
			break;
		case OPT_PIN:
			if (strcmp(optarg, "on") == 0) o.pin_host = 1;
			else if (strcmp(optarg, "off") == 0) o.pin_host = 0;
			else if (strcmp(optarg, "auto") == 0) o.pin_host = -1;
			else return usage_error(usage_count, "--pin-host takes on, off or auto, not '%s'", optarg);
			unit_only = "--pin-host";
			break;
		case OPT_HOST_MEM:
			if (tsg_parse_size(optarg, &host_mem) || host_mem == 0)
				return usage_error(usage_count, "bad --host-mem size '%s'", optarg);
			unit_only = "--host-mem";
			break;
		case OPT_SCRATCH: scratch_dir = optarg; break;
		case OPT_NO_TRANSPOSE: no_transpose = 1; break;
		case OPT_ALLOW_EMPTY: allow_empty = 1; break;
		case OPT_DECODE_FIRST: decode_first = 1; break;
		case OPT_MANIFEST: *manifest = optarg; break;
		case OPT_CHECKPOINT: ckpt = optarg; break;
		case OPT_PER_VERTEX: pv_path = optarg; break;
		case OPT_PV_FORMAT:
			if (pv_format_parse(optarg, &pv_fmt))
				return usage_error(usage_count, "--per-vertex-format takes text or binary, "
						   "not '%s'", optarg);
			pv_fmt_given = 1;
			break;
		case OPT_CLUSTERING: clustering = 1; break;
		case OPT_K:
			if (tsg_parse_u64(optarg, KERN_CLIQUE_MAX_K, &v) || v < 3)
				return usage_error(usage_count, "--k takes 3 .. 32, not '%s'", optarg);
			o.k = (unsigned)v;
			k_given = 1;
			break;
		case OPT_K_ALL: o.k_all = 1; break;
		case OPT_KCLIQUE_METHOD:
			if (kern_clique_method_parse(optarg, &o.clique_method))
				return usage_error(usage_count, "--kclique-method takes auto, orient or "
						   "pivot, not '%s'", optarg);
			method_given = 1;
			break;
		case OPT_KCLIQUE_SCHEME:
			if (kern_clique_scheme_parse(optarg, &o.clique_scheme))
				return usage_error(usage_count, "--kclique-scheme takes auto, vertex or "
						   "edge, not '%s'", optarg);
			method_given = 1;
			break;
		case OPT_KCLIQUE_GROUP:
			if (strcmp(optarg, "auto") == 0)
				o.clique_group = 0;
			else if (tsg_parse_u64(optarg, 32, &v) || v == 0 || (v & (v - 1)))
				return usage_error(usage_count, "--kclique-group takes auto, 1, 2, 4, 8, "
						   "16 or 32, not '%s'", optarg);
			else
				o.clique_group = (unsigned)v;
			method_given = 1;
			break;
		case OPT_ORDER:
			if (strcmp(optarg, "degeneracy") == 0)
				o.degeneracy = 1;
			else if (strcmp(optarg, "degree") != 0)
				return usage_error(usage_count, "--order takes degree or degeneracy, not "
						   "'%s'", optarg);
			break;
		case OPT_JSON: json = 1; break;
		case OPT_QUIET: o.progress = 0; break;
		case OPT_VERIFY: break; /* loading always verifies */
		case OPT_CTA_POLICY:
			if (gpu_cta_policy_parse(optarg, &o.cta_policy))
				return usage_error(usage_count, "unknown CTA policy '%s' (block-degree, "
						   "block-index or warp-index)", optarg);
			cta_given = 1;
			break;
		case OPT_TILE:
			if (tsg_parse_u64(optarg, 16384, &v) || v < 64 || (v & (v - 1)))
				return usage_error(usage_count, "bad tile width '%s' (power of two, 64..16384)", optarg);
			o.tile = (unsigned)v;
			break;
		case OPT_HELP: fputs(usage_count, stdout); *help = 1; return TSG_OK;
		default: return usage_error(usage_count, "%s", "bad option");
		}
	}
	if (o.k_all && k_given)
		return usage_error(usage_count, "%s", "--k-all counts every size: drop --k");
	if (o.k_all && o.clique_method == KERN_CLIQUE_ORIENT)
		return usage_error(usage_count, "%s", "--k-all counts by pivoting, not orientation");
	if (method_given && !engine_cliques(&o))
		return usage_error(usage_count, "%s", "--kclique-method, -scheme and -group need "
				   "--k K (K > 3) or --k-all");
	if (ngpus || gpus_all) {
		const int grc = use_gpus(&o, gpu_list, ngpus, gpus_all, gpu_given);
		if (grc)
			return grc;
	}
	if (engine_cliques(&o) && o.layout == ENGINE_LAYOUT_AUTO)
		o.layout = ENGINE_LAYOUT_LSTC; /* k-cliques need a part's whole out-lists */
	if (engine_cliques(&o) && o.layout != ENGINE_LAYOUT_LSTC)
		return usage_error(usage_count, "%s", "k-cliques are counted on LSTC parts (--layout "
				   "lstc): a block unit or arrival batch does not hold the edges "
				   "among a vertex's out-neighbours");
	if (o.degeneracy && o.layout != ENGINE_LAYOUT_LSTC)
		return usage_error(usage_count, "%s", "--order degeneracy orients LSTC parts: use it "
				   "with --layout lstc or --k");
	if (lstc_only && o.layout != ENGINE_LAYOUT_LSTC)
		return usage_error(usage_count, "%s applies to --layout lstc", lstc_only);
	if (batches_given && o.layout == ENGINE_LAYOUT_AUTO)
		o.layout = ENGINE_LAYOUT_ARRIVAL;
	if (o.read_ranges && o.layout == ENGINE_LAYOUT_AUTO)
		o.layout = ENGINE_LAYOUT_BLOCK;
	if (o.read_ranges && o.layout != ENGINE_LAYOUT_BLOCK)
		return usage_error(usage_count, "%s", "--read ranges reads the rows of block units: "
				   "use it with --layout block (not lstc, arrival or --k)");
	if (unit_only && o.layout == ENGINE_LAYOUT_AUTO)
		o.layout = ENGINE_LAYOUT_BLOCK; /* asked for what only units have */
	if (unit_only && o.layout == ENGINE_LAYOUT_ARRIVAL)
		return usage_error(usage_count, "%s does not apply to --layout arrival", unit_only);
	if (batches_given && o.layout != ENGINE_LAYOUT_ARRIVAL)
		return usage_error(usage_count, "%s applies to --layout arrival", "--batches");
	/* mid-hash needs ids in rank order for its saving, which only units have */
	if (o.gpu_kernel == GPU_KERNEL_COUNT_)
		o.gpu_kernel = o.layout == ENGINE_LAYOUT_LSTC ? GPU_KERNEL_LSTC : GPU_KERNEL_AUTO;
	if (cta_given && o.gpu_kernel != GPU_KERNEL_SKIFF)
		return usage_error(usage_count, "%s", "--cta-policy applies to --kernel skiff");
	if (host_mem && o.layout != ENGINE_LAYOUT_BLOCK)
		return usage_error(usage_count, "%s", "--host-mem applies to the block layout");
	if (pv_fmt_given && !pv_path)
		return usage_error(usage_count, "%s", "--per-vertex-format needs --per-vertex OUT");
	o.per_vertex = pv_path || clustering;
	if (o.per_vertex && o.plan_only)
		return usage_error(usage_count, "%s", "--plan-only counts nothing per vertex");
	if (ckpt && o.plan_only)
		return usage_error(usage_count, "%s", "--plan-only counts nothing to checkpoint");
	if (ckpt && o.per_vertex)
		return usage_error(usage_count, "%s", "--checkpoint does not keep per-vertex counts "
				   "yet: use it without --per-vertex and --clustering");
	if (engine_cliques(&o) && o.per_vertex)
		return usage_error(usage_count, "%s", "--per-vertex and --clustering count "
				   "triangles: drop --k");
	if (dist->size > 1 && o.plan_only)
		return usage_error(usage_count, "%s", "--plan-only runs alone, not under mpirun");
	o.rank = (uint32_t)dist->rank;
	o.nranks = (uint32_t)dist->size;
	o.dist = dist;
	if (dist->size > 1 && o.part.nparts == 0 && o.device == TSG_DEVICE_CPU) {
		/* the CPU takes one unit by default: at least 4 a rank instead
		 * (block: Q blocks make Q(Q+1)/2 units) */
		uint32_t q = 1;
		while ((uint64_t)q * (q + 1) / 2 < 4ull * (uint32_t)dist->size)
			q++;
		o.part.nparts = o.layout == ENGINE_LAYOUT_LSTC ? 4u * (uint32_t)dist->size : q;
	}
	if (dist->mpi)
		rank_threads(dist, threads_given, o.progress, &o.threads);
	if (dist->size > 1 && !gpu_given && !o.gpus) { /* one GPU a rank, by the rank on its host */
		const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
		const int present = engine_gpu_devices();
		o.gpu_index = local ? atoi(local) : 0;
		if (present > 0 && o.gpu_index >= present)
			o.gpu_index %= present; /* more ranks than GPUs: they share */
	}
	if (ckpt && o.k_all)
		return usage_error(usage_count, "%s", "--checkpoint keeps one count a unit: not with "
				   "--k-all");
	lo.threads = o.threads;
	o.part.threads = o.threads;
	lo.progress = o.progress;
	/* what decides the units: a checkpoint is valid only under the same */
	const uint64_t key_words[] = { o.device, o.layout, o.gpu_mem, o.part.nparts, o.batches,
				       o.part.scheme, o.part.seed, o.gpu_kernel, host_mem != 0,
				       o.k, o.clique_method, o.degeneracy };
	*job = (struct count_job){ .dist = dist, .o = o, .lo = lo, .host_mem = host_mem,
				   .scratch_dir = scratch_dir, .no_transpose = no_transpose,
				   .decode_first = decode_first, .allow_empty = allow_empty,
				   .json = json, .ckpt = ckpt, .pv_path = pv_path, .pv_fmt = pv_fmt,
				   .clustering = clustering,
				   .opts_key = ckpt_key(key_words, sizeof(key_words) / 8, 0x636b7074) };
	/* the list outlives parsing in the job (a pointer to parse_count's own
	 * array once dangled: every GPU read as GPU 0) */
	if (o.gpus) {
		memcpy(job->gpu_list, o.gpus, o.ngpus * sizeof(*job->gpu_list));
		job->o.gpus = job->gpu_list;
	}
	if (dist->size > 1) { /* the units a rank holds depend on the rank count */
		const uint64_t w = (uint64_t)dist->size;
		job->opts_key = ckpt_key(&w, 1, job->opts_key);
	}
	const uint64_t rank_words[] = { o.layout, o.part.nparts, o.batches, o.part.scheme,
					o.part.seed, host_mem != 0, o.k, o.k_all, o.degeneracy,
					o.plan_only, o.per_vertex, ckpt != NULL, o.read_ranges,
					no_transpose, decode_first, o.read_all, o.read_host,
					(uint64_t)(int64_t)o.pin_host, o.scratch_dir != NULL };
	job->ranks_key = ckpt_key(rank_words, sizeof(rank_words) / 8, 0x72616e6b);
	return TSG_OK;
}

/* --checkpoint with several graphs, or naming a directory: a file a graph
 * there (made if need be); else the file itself. */
static int place_checkpoints(struct count_job *job, size_t n)
{
	struct stat st;
	const int is_dir = stat(job->ckpt, &st) == 0 && S_ISDIR(st.st_mode);
	if (n > 1 && !is_dir && mkdir(job->ckpt, 0777) != 0) {
		struct tsg_err e = { 0 };
		tsg_fail_errno(&e, TSG_EIO, errno, "--checkpoint %s: cannot make the directory "
			       "(several graphs keep a checkpoint each there)", job->ckpt);
		return report(TSG_EIO, &e);
	}
	job->ckpt_dir = n > 1 || is_dir;
	return TSG_OK;
}

/* Counts the n graphs in turn; a graph that fails is reported (--json with
 * several: a line with its error) and the run goes on, unless asked to
 * stop. Several graphs without --json: a summary table last. Returns the
 * first failure's status. */
static int count_graphs(const struct count_job *job, const char *const *paths, size_t n)
{
	int first_bad = TSG_OK;
	size_t ran = 0;
	struct report_outcome *res = calloc(n, sizeof(*res));
	if (!res)
		return report(TSG_ENOMEM, &(struct tsg_err){ .msg = "out of memory" });
	for (size_t i = 0; i < n; i++, ran++) {
		if (n > 1 && !job->json)
			printf("%s== %s\n", i ? "\n" : "", paths[i]);
		res[i].rc = count_one(paths[i], job, &res[i]);
		if (res[i].rc) {
			report(res[i].rc, &res[i].err);
			if (job->json && n > 1) /* a line for every graph, failed ones too */
				report_failed_json(paths[i], &res[i]);
			if (first_bad == TSG_OK)
				first_bad = res[i].rc;
		}
		fflush(stdout); /* an overnight job's log shows each graph as it is done */
		if (res[i].rc == TSG_EINTERRUPTED) { /* asked to stop: the rest waits for a rerun */
			first_bad = TSG_EINTERRUPTED;
			ran++;
			break;
		}
	}
	if (n > 1 && !job->json)
		report_summary(paths, res, ran);
	free(res);
	return first_bad;
}

/* Several ranks: a step every rank took, which failed on some (already
 * reported there, where rc is its status); every rank then fails, and
 * rank 0 says which rank, rather than the others waiting for it in the
 * first collective. Returns the job's status. */
static int ranks_agree(struct tsg_dist *dist, int rc)
{
	struct tsg_err e = { 0 };
	if (dist->size < 2)
		return rc;
	if (rc)
		snprintf(e.msg, sizeof(e.msg), "%s before any graph was opened (a rank's own "
			 "messages are not shown: run its command alone to see why)",
			 tsg_status_name(rc));
	const int all = dist_agree(dist, rc, &e);
	return all && !rc ? report(all, &e) : all;
}

static int cmd_count_ranks(int argc, char **argv, struct tsg_dist *dist)
{
	struct count_job job = { 0 };
	const char *manifest = NULL;
	const char **paths = NULL;
	char *mbuf = NULL;
	size_t n = 0;
	int help = 0;
	int rc = parse_count(argc, argv, dist, &job, &manifest, &help);
	if ((rc = ranks_agree(dist, rc)))
		return rc;
	/* a rank that only printed the help would leave the others waiting
	 * in their next collective */
	if (dist->size > 1 && !dist_same_u64(dist, (uint64_t)help)) {
		struct tsg_err e = { 0 };
		return report(tsg_fail(&e, TSG_EUSAGE, "--help was given to some ranks only (every "
				       "rank must run the same count)"), &e);
	}
	if (help)
		return TSG_OK;
	/* the graphs: the arguments, then the manifest's lines */
	struct tsg_err merr = { 0 };
	rc = gather_graphs(argc - optind, (const char **)argv + optind, manifest, &paths, &n, &mbuf,
			   &merr);
	if (rc == TSG_EUSAGE)
		rc = usage_error(usage_count, "%s", "count needs a GRAPH (or --manifest FILE)");
	else if (rc)
		rc = report(rc, &merr);
	else if (job.pv_path && n > 1)
		rc = usage_error(usage_count, "%s", "--per-vertex takes one graph a run");
	else if (job.ckpt)
		rc = place_checkpoints(&job, n);
	rc = ranks_agree(dist, rc);
	if (rc == TSG_OK) {
		/* SIGINT and SIGTERM: finish the unit in flight (before any thread) */
		struct tsg_stop stop;
		const int stopping = job.ckpt && stop_begin(&stop) == 0;
		job.o.stop = stopping ? &stop : NULL;
		rc = count_graphs(&job, paths, n);
		if (stopping)
			stop_end(&stop);
	}
	free(paths);
	free(mbuf);
	return rc;
}

static const struct option info_opts[] = {
	{ "json", no_argument, 0, OPT_JSON },
	{ "threads", required_argument, 0, OPT_THREADS },
	{ "io", required_argument, 0, OPT_IO },
	{ "verify", no_argument, 0, OPT_VERIFY },
	{ "help", no_argument, 0, OPT_HELP },
	{ 0, 0, 0, 0 },
};

static const struct option copy_opts[] = {
	{ "lz4", no_argument, 0, OPT_LZ4 },
	{ "json", no_argument, 0, OPT_JSON },
	{ "quiet", no_argument, 0, OPT_QUIET },
	{ "threads", required_argument, 0, OPT_THREADS },
	{ "help", no_argument, 0, OPT_HELP },
	{ 0, 0, 0, 0 },
};

static const char usage_copy[] =
	"usage: tristream compress|decompress [--threads N] [--json] [--quiet] IN OUT\n"
	"       tristream reorder [--lz4] [--threads N] [--json] [--quiet] IN OUT\n"
	"\n"
	"compress writes IN's neighbour lists as delta-encoded LZ4 chunks, each with\n"
	"its own checksum, decoded in parallel on load (docs/FORMAT.md); decompress\n"
	"writes the plain format. reorder renumbers the vertices by (degree, id),\n"
	"the order the engine ranks them by, so that a block unit's rows are one\n"
	"stretch of the file: what ranks reading by ranges (count --read ranges)\n"
	"need to read less than all of it; the count is unchanged. Every reader\n"
	"and command takes any of them. IN is fully validated first; OUT appears\n"
	"only when complete.\n";

enum copy_kind { COPY_PLAIN, COPY_LZ4, COPY_REORDER };

static int cmd_copy(int argc, char **argv, enum copy_kind kind)
{
	unsigned threads = tsg_default_threads();
	int json = 0, quiet = 0, c, lz4 = kind == COPY_LZ4;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", copy_opts, NULL)) != -1) {
		switch (c) {
		case OPT_LZ4:
			if (kind != COPY_REORDER)
				return usage_error(usage_copy, "%s", "--lz4 is reorder's");
			lz4 = 1;
			break;
		case OPT_JSON: json = 1; break;
		case OPT_QUIET: quiet = 1; break;
		case OPT_THREADS:
			if (parse_threads(optarg, &threads))
				return usage_error(usage_copy, "bad thread count '%s'", optarg);
			break;
		case OPT_HELP: fputs(usage_copy, stdout); return TSG_OK;
		default: return usage_error(usage_copy, "%s", "bad option");
		}
	}
	if (optind + 2 != argc)
		return usage_error(usage_copy, "%s", "give IN and OUT");
	const char *in = argv[optind], *out = argv[optind + 1];
	struct io_copy_stats st;
	struct tsg_err err = { 0 };
	int rc = kind == COPY_REORDER ? reorder_graph(in, out, lz4, threads, &st, &err)
				      : io_graph_copy(in, out, lz4, threads, &st, &err);
	if (rc)
		return report(rc, &err);
	const double ratio = st.out_bytes ? (double)st.in_bytes / (double)st.out_bytes : 0;
	if (json) {
		struct tsg_json j;
		json_begin(&j, stdout);
		json_str(&j, "input", in);
		json_str(&j, "output", out);
		json_str(&j, "compression", lz4 ? "lz4" : "none");
		json_bool(&j, "reordered", kind == COPY_REORDER);
		json_u64(&j, "input_bytes", st.in_bytes);
		json_u64(&j, "output_bytes", st.out_bytes);
		json_f64(&j, "ratio", ratio);
		json_f64(&j, "load_s", st.load_s);
		json_f64(&j, "write_s", st.write_s);
		json_end(&j);
	} else if (!quiet) {
		char a[32], b[32];
		printf("%s (%s) -> %s (%s): %.2fx; load %.3fs, write %.3fs\n", in,
		       tsg_fmt_bytes(st.in_bytes, a, sizeof(a)), out,
		       tsg_fmt_bytes(st.out_bytes, b, sizeof(b)), ratio, st.load_s, st.write_s);
	}
	return TSG_OK;
}

static int cmd_info(int argc, char **argv)
{
	struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = tsg_default_threads() };
	int json = 0, verify = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", info_opts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON: json = 1; break;
		case OPT_THREADS:
			if (parse_threads(optarg, &lo.threads))
				return usage_error(usage_info, "bad thread count '%s'", optarg);
			break;
		case OPT_IO:
			if (io_mode_parse(optarg, &lo.io))
				return usage_error(usage_info, "unknown I/O mode '%s'", optarg);
			break;
		case OPT_VERIFY: verify = 1; break;
		case OPT_HELP: fputs(usage_info, stdout); return TSG_OK;
		default: return usage_error(usage_info, "%s", "bad option");
		}
	}
	if (optind + 1 != argc)
		return usage_error(usage_info, "%s", "info takes exactly one GRAPH");
	const char *path = argv[optind];
	struct tsg_graph g;
	struct tsg_err err = { 0 };
	int rc = io_graph_load(path, &lo, &g, &err);
	if (rc)
		return report(rc, &err);
	if (verify && (rc = io_check_symmetry_exact(&g, path, lo.threads ? lo.threads :
						    tsg_default_threads(), &err))) {
		io_graph_free(&g);
		return report(rc, &err);
	}
	/* histogram of degrees in powers of two: bucket k holds [2^(k-1), 2^k) */
	uint64_t hist[34] = { 0 };
	for (uint64_t v = 0; v < g.nv; v++) {
		uint64_t d = io_graph_degree(&g, v);
		int k = 0;
		while (d >> k)
			k++;
		hist[k]++;
	}
	double mean = g.nv ? (double)g.nadj / (double)g.nv : 0;
	if (json) {
		struct tsg_json j;
		json_begin(&j, stdout);
		json_str(&j, "graph", path);
		json_u64(&j, "format_version", 1);
		json_str(&j, "compression", g.compressed ? "lz4" : "none");
		json_u64(&j, "vertices", g.nv);
		json_u64(&j, "edges", g.nadj / 2);
		json_u64(&j, "max_degree", g.max_degree);
		json_f64(&j, "mean_degree", mean);
		json_bool(&j, "checksums_ok", 1);
		json_bool(&j, "symmetry_exact", verify);
		json_key_arr(&j, "degree_histogram");
		for (int k = 0; k < 34; k++)
			if (hist[k]) {
				json_obj(&j);
				json_u64(&j, "min", k ? 1ull << (k - 1) : 0);
				json_u64(&j, "max", k ? (1ull << k) - 1 : 0);
				json_u64(&j, "vertices", hist[k]);
				json_close(&j, '}');
			}
		json_close(&j, ']');
		json_end(&j);
	} else {
		printf("file: %s\nformat: tristream binary v1\n", path);
		printf("vertices: %llu\nedges: %llu\n", (unsigned long long)g.nv,
		       (unsigned long long)(g.nadj / 2));
		printf("max degree: %llu\nmean degree: %.2f\n", (unsigned long long)g.max_degree, mean);
		printf("checksums and structure: ok\nsymmetry: %s\ndegree histogram:\n",
		       verify ? "ok (exact: every entry matched)" : "ok (hash sum; --verify checks "
		       "every entry)");
		for (int k = 0; k < 34; k++)
			if (hist[k])
				printf("  %10llu .. %-10llu %llu\n", k ? 1ull << (k - 1) : 0ull,
				       k ? (1ull << k) - 1 : 0ull, (unsigned long long)hist[k]);
	}
	io_graph_free(&g);
	return TSG_OK;
}

/* count as one of several MPI ranks (src/dist.h), or alone: rank 0 alone
 * prints (the others' stdout and stderr go nowhere: their errors reach
 * rank 0 through the agreements) */
static int cmd_count(int argc, char **argv)
{
	struct tsg_dist dist;
	struct tsg_err err = { 0 };
	int rc = dist_init(&dist, &argc, &argv, &err);
	if (rc)
		return report(rc, &err);
	if (dist.rank != 0 && (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)))
		rc = TSG_EIO;
	if (rc == TSG_OK)
		rc = cmd_count_ranks(argc, argv, &dist);
	const int frc = dist_finish(&dist); /* issue 51: MPI_Finalize's status too */
	return rc ? rc : frc;
}

static int run(int argc, char **argv)
{
	/* a file-size limit must surface as EFBIG from the write, not kill us */
	signal(SIGXFSZ, SIG_IGN);
	/* nor a mapped input cut short while in use */
	(void)stop_on_sigbus();
	if (argc < 2) {
		fputs(usage_main, stderr);
		return TSG_EUSAGE;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "count") == 0)
		return cmd_count(argc - 1, argv + 1);
	if (strcmp(cmd, "info") == 0)
		return cmd_info(argc - 1, argv + 1);
	if (strcmp(cmd, "compress") == 0 || strcmp(cmd, "decompress") == 0)
		return cmd_copy(argc - 1, argv + 1, cmd[0] == 'c' ? COPY_LZ4 : COPY_PLAIN);
	if (strcmp(cmd, "reorder") == 0)
		return cmd_copy(argc - 1, argv + 1, COPY_REORDER);
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		fputs(usage_main, stdout);
		return TSG_OK;
	}
	if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
		printf("tristream %s (%s backend%s)\n", TSG_VERSION,
		       engine_have_gpu() ? "CUDA and CPU" : "CPU",
		       part_scheme_available(PART_METIS) ? ", METIS" : "");
		return TSG_OK;
	}
	fprintf(stderr, "tristream: unknown command '%s'\n\n%s", cmd, usage_main);
	return TSG_EUSAGE;
}

int main(int argc, char **argv)
{
	return tsg_close_stdout(run(argc, argv), "tristream");
}
