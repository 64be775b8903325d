/*
 * options.c - count's option table, its parser and its help (options.h).
 */
#include "src/options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define DEV OPT_DEVICES
#define LAY OPT_LAYOUTS
#define IN OPT_INPUTS
#define ALL (OPT_DEVICES | OPT_LAYOUTS | OPT_INPUTS)

const struct count_option count_options[COPT_COUNT_] = {
	[COPT_DEVICE] = { COPT_DEVICE, "device", "cpu|gpu|auto", ALL,
		"backend (default auto: the GPU if usable, but the CPU where the header says "
		"the GPU's start-up would cost more than it saves; the note says so)" },
	[COPT_GPU] = { COPT_GPU, "gpu", "N", OPT_GPU | LAY | IN,
		"GPU index (default 0; under mpirun: the rank's on its host, modulo the GPUs "
		"there)" },
	[COPT_GPUS] = { COPT_GPUS, "gpus", "all|N|LIST", OPT_GPU | OPT_ARRIVAL | OPT_BLOCK | OPT_LSTC | IN,
		"count on several GPUs of this host (all of them, the first N, or indexes "
		"like 0,2): the arrival layout's batches go to every GPU, each counting a "
		"share of their edges; the block layout's units (or LSTC parts, and --k's) "
		"costliest first, each GPU taking the next when it is free; the graph is "
		"read once" },
	[COPT_GPU_MEM] = { COPT_GPU_MEM, "gpu-mem", "SIZE", OPT_GPU | LAY | IN,
		"device memory budget, e.g. 8G (default: free memory); pieces are sized to "
		"fit" },
	[COPT_LAYOUT] = { COPT_LAYOUT, "layout", "auto|arrival|block|lstc|sweep", ALL,
		"how the graph is cut (default auto: arrival on a GPU that holds the oriented "
		"graph, or in groups where the rows reach 1.875 GiB and fill at most 12 "
		"groups (on every GPU under --gpus), else block; k-cliques: lstc; a crawl "
		"that would not fit --host-mem or "
		"the memory available: sweep). arrival: batches of the file counted as they "
		"are read (on a GPU that cannot hold the oriented rows, in groups: each "
		"group's edges with the earlier ones counted at its end, their rows copied "
		"back from host memory); block: 2D units of "
		"the rank-ordered graph; lstc: LSTC vertex parts; "
		"sweep: a LAW crawl with its transpose in bounded memory, source blocks of "
		"oriented rows held on the device and the crawl decoded past each" },
	[COPT_BATCHES] = { COPT_BATCHES, "batches", "N|auto", DEV | OPT_ARRIVAL | OPT_SWEEP | IN,
		"arrival: N batches (default auto: up to 32); sweep: at least N chunks a pass; "
		"alone, it asks for the arrival layout" },
	[COPT_PARTITIONS] = { COPT_PARTITIONS, "partitions", "N|auto",
		DEV | OPT_BLOCK | OPT_LSTC | OPT_SWEEP | IN,
		"block layout: N rank blocks, N(N+1)/2 units; lstc layout: N parts (default "
		"auto: as few as fit the GPU budget; 1 on the CPU, more with --checkpoint or "
		"under mpirun); sweep: source blocks of at most 1/N of the rows each (at "
		"least about N passes)" },
	[COPT_SCHEME] = { COPT_SCHEME, "scheme", "edge|contig|hash|metis", DEV | OPT_LSTC | IN,
		"vertex partitioning (default edge; metis if built with libmetis)" },
	[COPT_PRUNE] = { COPT_PRUNE, "prune", "auto|local|lstc|closed", DEV | OPT_LSTC | IN,
		"proxy pruning rule (default auto: closed, the edges on a part's triangles, "
		"for --k above 3 over several parts; local otherwise)" },
	[COPT_SEED] = { COPT_SEED, "seed", "N", DEV | OPT_LSTC | IN, "seed for --scheme hash or metis" },
	[COPT_KERNEL] = { COPT_KERNEL, "kernel", "NAME", OPT_GPU | OPT_SOFT_DEVICE | LAY | IN,
		"GPU kernel: auto (default: edge-merge, lstc-hash or mid-hash for each unit, "
		"from its estimated work), mid-hash (the arrival layout's only one), lstc "
		"(default with the lstc layout), lstc-paper, lstc-hash, trust (TRUST's "
		"bucketed hashing), fasttc (Fast TC's binary search, lists prefetched to "
		"shared memory), skiff (Skiff's lock-free hopscotch tables), edge-merge (a "
		"thread an edge, sorted lists merged)" },
	[COPT_CTA_POLICY] = { COPT_CTA_POLICY, "cta-policy", "P",
		OPT_GPU | OPT_SOFT_DEVICE | LAY | IN,
		"--kernel skiff's blocks: block-degree (default: a block for out-degree above "
		"32, else a warp), block-index or warp-index (a block or warp for each run of "
		"32 sources)" },
	[COPT_TILE] = { COPT_TILE, "tile", "N", OPT_GPU | OPT_SOFT_DEVICE | LAY | IN,
		"tile width (power of two) of --kernel lstc, lstc-paper, mid-hash and auto: "
		"LSTC ids per tile (lstc 1024, lstc-paper 128), mid-hash table slots per warp "
		"(64 .. 4096, default 1024)" },
	[COPT_CPU_KERNEL] = { COPT_CPU_KERNEL, "cpu-kernel", "merge|hash|wedge",
		OPT_CPU | OPT_SOFT_DEVICE | LAY | IN,
		"CPU kernel (default hash; the arrival layout merges; wedge: each oriented "
		"wedge once, block layout only)" },
	[COPT_THREADS] = { COPT_THREADS, "threads", "N", ALL,
		"host threads (default: every CPU this process may run on; under mpirun, a "
		"rank not bound to some CPUs takes its share of the host's)" },
	[COPT_IO] = { COPT_IO, "io", "auto|mmap|pread|uring", DEV | LAY | OPT_TSG,
		"how a .tsg file is read (default auto); text and crawls are not read so, "
		"except through the scratch .tsg of --host-mem" },
	[COPT_READ] = { COPT_READ, "read", "auto|all|host|ranges", DEV | OPT_BLOCK | IN,
		"under mpirun: where several ranks share a host, each reads a slice of the "
		"lists and they build one oriented graph in memory they share (host, or auto, "
		"the default; JSON host_build); every rank reads every list and orients it "
		"alone (all); or each reads only its slice and the rows of its units "
		"(ranges). host and ranges read a .tsg (an LZ4 one too; a crawl by slices), "
		"else every list, and the note says so; a plain file's lists' checksum is "
		"then not checked, their structure and symmetry are; an LZ4 file's chunks are "
		"each checked" },
	[COPT_PIN_HOST] = { COPT_PIN_HOST, "pin-host", "on|off|auto", OPT_GPU | OPT_BLOCK | IN,
		"orient into pinned host memory (default auto, now off: units are copied "
		"through pinned staging buffers that all host threads fill)" },
	[COPT_ORIENT] = { COPT_ORIENT, "orient", "one-pass|two-pass", DEV | OPT_BLOCK | IN,
		"write the oriented rows in one pass over the lists and then move them "
		"(default), or count then fill in place (less memory; the default for a "
		"crawl, and what --host-mem takes when it spills)" },
	[COPT_OVERLAP] = { COPT_OVERLAP, "overlap", "auto|off|N", DEV | OPT_BLOCK | OPT_TSG,
		"an oriented .tsg: count its units while the file is read (default auto: its "
		"rows come in rank order, so each unit is counted once the rows it reads are "
		"in; where they stay on the GPU, or on the CPU, the ranks are cut into up to "
		"16 units, N sets how many; --overlap-cut says how they are cut), or off: read "
		"the whole file, then count" },
	[COPT_OVERLAP_CUT] = { COPT_OVERLAP_CUT, "overlap-cut", "auto|columns|rows",
		DEV | OPT_BLOCK | OPT_TSG,
		"how --overlap cuts an oriented .tsg whose rows are held once: columns (the "
		"middle vertices by rank, the file read from rank 0 up) or rows (the source "
		"vertices by rank, the file read from its end down, the hubs' rows first); "
		"default auto: rows where the rows stay on the GPU, columns on the CPU" },
	[COPT_HOST_MEM] = { COPT_HOST_MEM, "host-mem", "SIZE", DEV | OPT_BLOCK | OPT_ARRIVAL | OPT_SWEEP | IN,
		"keep host memory near SIZE, e.g. 16G; a graph that needs more is spilled: "
		"the file is mapped (--io mmap), the orientation takes two passes (--orient "
		"two-pass) and the oriented graph goes to a scratch file (slower, but graphs "
		"larger than RAM count), except that a GPU holding every oriented row counts "
		"the mapped file as it is read (layout auto: arrival, no rows on the host); "
		"text is converted through a scratch .tsg; a crawl "
		"with its transpose that needs more is counted by the sweep (nothing decoded "
		"is held whole)" },
	[COPT_SCRATCH_DIR] = { COPT_SCRATCH_DIR, "scratch-dir", "DIR", ALL,
		"where scratch files go: a crawl or text converted through a scratch .tsg, "
		"its sort's runs, and what --host-mem spills (default: the graph's directory; "
		"for stdin or a directory that cannot be written, $TMPDIR, else /tmp); the "
		"files have no name and vanish" },
	[COPT_NO_TRANSPOSE] = { COPT_NO_TRANSPOSE, "no-transpose", NULL,
		DEV | OPT_BLOCK | OPT_LSTC | OPT_ARRIVAL | OPT_CRAWL,
		"ignore the crawl's transpose BASE-t, symmetrize by sorting" },
	[COPT_DECODE_FIRST] = { COPT_DECODE_FIRST, "decode-first", NULL,
		DEV | OPT_BLOCK | OPT_LSTC | OPT_ARRIVAL | OPT_CRAWL,
		"decode the whole crawl, then count (default: where the arrival layout counts "
		"a crawl with its transpose, its batches are counted as it is decoded)" },
	[COPT_SKIP_BAD_LINES] = { COPT_SKIP_BAD_LINES, "skip-bad-lines", NULL,
		DEV | LAY | OPT_TEXT,
		"skip lines that are not edges (counted: JSON input.bad_lines, and a note) "
		"instead of failing, as tristream-convert --skip-bad-lines; ids past 32 bits "
		"still fail" },
	[COPT_ALLOW_EMPTY] = { COPT_ALLOW_EMPTY, "allow-empty", NULL, ALL,
		"count a graph with no edges (0) rather than failing" },
	[COPT_CHECKPOINT] = { COPT_CHECKPOINT, "checkpoint", "PATH", ALL,
		"record each unit's count durably in PATH and, on a rerun with the same graph "
		"and options, count only the rest; SIGINT/SIGTERM finish the unit in flight "
		"and exit 8. Several graphs: PATH is a directory, a file per graph, and graphs "
		"already done are skipped. Under mpirun: a file a rank, PATH.rankR. On the "
		"CPU, --partitions auto then cuts several units (the CPU's default is one)" },
	[COPT_PER_VERTEX] = { COPT_PER_VERTEX, "per-vertex", "OUT", ALL,
		"also write each vertex's triangle count to OUT (atomically; one graph per "
		"run)" },
	[COPT_PV_FORMAT] = { COPT_PV_FORMAT, "per-vertex-format", "text|binary", ALL,
		"text: \"id count\" lines for vertices with an edge (default); binary: "
		"id-range little-endian u64" },
	[COPT_CLUSTERING] = { COPT_CLUSTERING, "clustering", NULL, ALL,
		"transitivity and average local clustering (NetworkX's definitions) in the "
		"result" },
	[COPT_K] = { COPT_K, "k", "K", ALL,
		"count K-cliques, 3 <= K <= 32 (default 3: triangles, on any layout); K > 3 "
		"counts on LSTC parts (out of core as ever)" },
	[COPT_K_ALL] = { COPT_K_ALL, "k-all", NULL, DEV | OPT_LSTC | IN,
		"count the cliques of every size at once (pivoting)" },
	[COPT_KCLIQUE_METHOD] = { COPT_KCLIQUE_METHOD, "kclique-method", "auto|orient|pivot",
		DEV | OPT_LSTC | IN,
		"k-cliques: orientation (a walk of each vertex's out-neighbourhood) or "
		"pivoting (Jain and Seshadhri); auto: the two race on the host on a sample "
		"(the CPU: the faster; the GPU: pivoting where 8x faster there)" },
	[COPT_KCLIQUE_SCHEME] = { COPT_KCLIQUE_SCHEME, "kclique-scheme", "auto|vertex|edge",
		OPT_GPU | OPT_SOFT_DEVICE | OPT_LSTC | IN,
		"k-cliques on the GPU: a warp per vertex (the subgraph of out(a)) or per run "
		"of edges a -> b (out(a) and out(b) intersected); auto: edge from K = 5" },
	[COPT_KCLIQUE_GROUP] = { COPT_KCLIQUE_GROUP, "kclique-group", "auto|1|2|4|8|16|32",
		OPT_GPU | OPT_SOFT_DEVICE | OPT_LSTC | IN,
		"k-cliques by orientation on the GPU: lanes of a group walking one subtree "
		"(default auto: 1)" },
	[COPT_ORDER] = { COPT_ORDER, "order", "degree|degeneracy", DEV | OPT_LSTC | IN,
		"LSTC parts and k-cliques: orient by (degree, id) (default) or by degeneracy "
		"(k-core) order, which bounds out-lists by the degeneracy" },
	[COPT_STATS] = { COPT_STATS, "stats", NULL, DEV | OPT_BLOCK | OPT_LSTC | IN,
		"per-partition sizes (LSTC Tables 3-4)" },
	[COPT_PLAN_ONLY] = { COPT_PLAN_ONLY, "plan-only", NULL, OPT_CPU | OPT_BLOCK | OPT_LSTC | IN,
		"build every partition or unit and report sizes and times, but count nothing "
		"(on the host)" },
	[COPT_MANIFEST] = { COPT_MANIFEST, "manifest", "FILE", ALL,
		"also count FILE's graphs, one path a line (blank lines and # comments "
		"skipped; a relative path is taken from FILE's directory)" },
	[COPT_JSON] = { COPT_JSON, "json", NULL, ALL,
		"one JSON object on stdout (a graph that fails: one with its error)" },
	[COPT_QUIET] = { COPT_QUIET, "quiet", NULL, ALL, "no progress on stderr" },
	[COPT_HELP] = { COPT_HELP, "help", NULL, ALL, "this text" },
};

unsigned options_where(enum count_opt opt)
{
	unsigned w = count_options[opt].where;
	if (!(w & OPT_DEVICES))
		w |= OPT_DEVICES;
	if (!(w & OPT_LAYOUTS))
		w |= OPT_LAYOUTS;
	if (!(w & OPT_INPUTS))
		w |= OPT_INPUTS;
	return w;
}

int options_usage_error(const char *command, const char *msg)
{
	fprintf(stderr, "tristream: %s; see tristream %s%s--help\n", msg, command ? command : "",
		command ? " " : "");
	return TSG_EUSAGE;
}

/* err's message, one line; TSG_EUSAGE. */
static int bad(struct tsg_err *err, const char *fmt, const char *arg)
{
	snprintf(err->msg, sizeof(err->msg), fmt, arg);
	err->code = TSG_EUSAGE;
	return TSG_EUSAGE;
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

/* "auto" (0) or a count 1 .. max. */
static int parse_auto_count(const char *s, uint64_t max, uint32_t *out)
{
	uint64_t v;
	if (strcmp(s, "auto") == 0) {
		*out = 0;
		return 0;
	}
	if (tsg_parse_u64(s, max, &v) || v == 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* One option's value into req. */
static int take(enum count_opt id, const char *a, struct count_request *req, struct tsg_err *err)
{
	uint64_t v;
	switch (id) {
	case COPT_DEVICE:
		if (strcmp(a, "cpu") == 0) req->device = TSG_DEVICE_CPU;
		else if (strcmp(a, "gpu") == 0) req->device = TSG_DEVICE_GPU;
		else if (strcmp(a, "auto") == 0) req->device = TSG_DEVICE_AUTO;
		else return bad(err, "unknown device '%s' (cpu, gpu or auto)", a);
		break;
	case COPT_GPU:
		if (tsg_parse_u64(a, 1024, &v))
			return bad(err, "bad GPU index '%s'", a);
		req->gpu_index = (int)v;
		break;
	case COPT_GPUS:
		if (parse_gpus(a, req->gpu_list, &req->ngpus, &req->gpus_all))
			return bad(err, "--gpus takes all, a count (1..64) or a list of distinct "
				   "indexes like 0,2, not '%s'", a);
		break;
	case COPT_GPU_MEM:
		if (tsg_parse_size(a, &req->gpu_mem) || req->gpu_mem == 0)
			return bad(err, "bad --gpu-mem size '%s'", a);
		break;
	case COPT_LAYOUT:
		if (engine_layout_parse(a, &req->layout))
			return bad(err, "unknown layout '%s' (auto, arrival, block or lstc)", a);
		break;
	case COPT_BATCHES:
		if (parse_auto_count(a, PART_ARRIVAL_MAX_BATCHES, &req->batches))
			return bad(err, "bad batch count '%s' (auto or 1..8192)", a);
		break;
	case COPT_OVERLAP:
		if (strcmp(a, "off") == 0)
			req->overlap = -1;
		else if (strcmp(a, "auto") == 0)
			req->overlap = 0;
		else if (tsg_parse_u64(a, 4096, &v) || v == 0)
			return bad(err, "--overlap takes auto, off or a column count 1..4096, not '%s'", a);
		else
			req->overlap = (int)v;
		break;
	case COPT_OVERLAP_CUT:
		if (strcmp(a, "auto") == 0)
			req->overlap_cut = ENGINE_CUT_AUTO;
		else if (strcmp(a, "columns") == 0)
			req->overlap_cut = ENGINE_CUT_COLUMNS;
		else if (strcmp(a, "rows") == 0)
			req->overlap_cut = ENGINE_CUT_ROWS;
		else
			return bad(err, "--overlap-cut takes auto, columns or rows, not '%s'", a);
		break;
	case COPT_PARTITIONS:
		if (parse_auto_count(a, UINT32_MAX, &req->partitions))
			return bad(err, "bad partition count '%s'", a);
		break;
	case COPT_SCHEME:
		if (part_scheme_parse(a, &req->scheme))
			return bad(err, "unknown scheme '%s'", a);
		if (!part_scheme_available(req->scheme))
			return bad(err, "scheme '%s' is not in this build (install libmetis-dev and "
				   "rebuild)", a);
		break;
	case COPT_PRUNE:
		if (part_prune_parse(a, &req->prune))
			return bad(err, "unknown pruning rule '%s'", a);
		break;
	case COPT_SEED:
		if (tsg_parse_u64(a, UINT64_MAX, &req->seed))
			return bad(err, "bad seed '%s'", a);
		break;
	case COPT_KERNEL:
		if (gpu_kernel_parse(a, &req->gpu_kernel))
			return bad(err, "unknown GPU kernel '%s'", a);
		break;
	case COPT_CTA_POLICY:
		if (gpu_cta_policy_parse(a, &req->cta_policy))
			return bad(err, "unknown CTA policy '%s' (block-degree, block-index or "
				   "warp-index)", a);
		break;
	case COPT_TILE:
		if (tsg_parse_u64(a, 16384, &v) || v < 64 || (v & (v - 1)))
			return bad(err, "bad tile width '%s' (power of two, 64..16384)", a);
		req->tile = (unsigned)v;
		break;
	case COPT_CPU_KERNEL:
		if (kern_cpu_parse(a, &req->cpu_kernel))
			return bad(err, "unknown CPU kernel '%s' (merge, hash or wedge)", a);
		break;
	case COPT_THREADS:
		if (tsg_parse_u64(a, 4096, &v) || v == 0)
			return bad(err, "bad thread count '%s'", a);
		req->threads = (unsigned)v;
		break;
	case COPT_IO:
		if (io_mode_parse(a, &req->io))
			return bad(err, "unknown I/O mode '%s' (auto, mmap, pread or uring)", a);
		break;
	case COPT_READ:
		if (strcmp(a, "auto") == 0) req->read = COUNT_READ_AUTO;
		else if (strcmp(a, "all") == 0) req->read = COUNT_READ_ALL;
		else if (strcmp(a, "host") == 0) req->read = COUNT_READ_HOST;
		else if (strcmp(a, "ranges") == 0) req->read = COUNT_READ_RANGES;
		else return bad(err, "--read takes auto, all, host or ranges, not '%s'", a);
		break;
	case COPT_PIN_HOST:
		if (strcmp(a, "on") == 0) req->pin_host = 1;
		else if (strcmp(a, "off") == 0) req->pin_host = 0;
		else if (strcmp(a, "auto") == 0) req->pin_host = -1;
		else return bad(err, "--pin-host takes on, off or auto, not '%s'", a);
		break;
	case COPT_ORIENT:
		if (strcmp(a, "one-pass") == 0) req->orient = PART_ORIENT_ONE_PASS;
		else if (strcmp(a, "two-pass") == 0) req->orient = PART_ORIENT_TWO_PASS;
		else return bad(err, "--orient takes one-pass or two-pass, not '%s'", a);
		break;
	case COPT_HOST_MEM:
		if (tsg_parse_size(a, &req->host_mem) || req->host_mem == 0)
			return bad(err, "bad --host-mem size '%s'", a);
		break;
	case COPT_SCRATCH_DIR: req->scratch_dir = a; break;
	case COPT_NO_TRANSPOSE: req->no_transpose = 1; break;
	case COPT_DECODE_FIRST: req->decode_first = 1; break;
	case COPT_SKIP_BAD_LINES: req->skip_bad_lines = 1; break;
	case COPT_ALLOW_EMPTY: req->allow_empty = 1; break;
	case COPT_CHECKPOINT: req->checkpoint = a; break;
	case COPT_PER_VERTEX: req->per_vertex = a; break;
	case COPT_PV_FORMAT:
		if (pv_format_parse(a, &req->pv_format))
			return bad(err, "--per-vertex-format takes text or binary, not '%s'", a);
		break;
	case COPT_CLUSTERING: req->clustering = 1; break;
	case COPT_K:
		if (tsg_parse_u64(a, KERN_CLIQUE_MAX_K, &v) || v < 3)
			return bad(err, "--k takes 3 .. 32, not '%s'", a);
		req->k = (unsigned)v;
		break;
	case COPT_K_ALL: req->k_all = 1; break;
	case COPT_KCLIQUE_METHOD:
		if (kern_clique_method_parse(a, &req->clique_method))
			return bad(err, "--kclique-method takes auto, orient or pivot, not '%s'", a);
		break;
	case COPT_KCLIQUE_SCHEME:
		if (kern_clique_scheme_parse(a, &req->clique_scheme))
			return bad(err, "--kclique-scheme takes auto, vertex or edge, not '%s'", a);
		break;
	case COPT_KCLIQUE_GROUP:
		if (strcmp(a, "auto") == 0)
			req->clique_group = 0;
		else if (tsg_parse_u64(a, 32, &v) || v == 0 || (v & (v - 1)))
			return bad(err, "--kclique-group takes auto, 1, 2, 4, 8, 16 or 32, not '%s'", a);
		else
			req->clique_group = (unsigned)v;
		break;
	case COPT_ORDER:
		if (strcmp(a, "degeneracy") == 0) req->degeneracy = 1;
		else if (strcmp(a, "degree") == 0) req->degeneracy = 0;
		else return bad(err, "--order takes degree or degeneracy, not '%s'", a);
		break;
	case COPT_STATS: req->stats = 1; break;
	case COPT_PLAN_ONLY: req->plan_only = 1; break;
	case COPT_MANIFEST: req->manifest = a; break;
	case COPT_JSON: req->json = 1; break;
	case COPT_QUIET: req->quiet = 1; break;
	case COPT_HELP: req->help = 1; break;
	case COPT_COUNT_: return bad(err, "%s", "bad option");
	}
	return TSG_OK;
}

int options_parse_count(int argc, char **argv, struct count_request *req, struct tsg_err *err)
{
	*req = (struct count_request){
		.device = TSG_DEVICE_AUTO,
		.layout = ENGINE_LAYOUT_AUTO,
		.scheme = PART_EDGE,
		.prune = PART_PRUNE_AUTO,
		.seed = 1,
		.gpu_kernel = GPU_KERNEL_COUNT_,
		.cpu_kernel = KERN_CPU_HASH,
		.threads = tsg_default_threads(),
		.io = IO_MODE_AUTO,
		.pin_host = -1,
		.k = 3,
		.sigbus_handled = 1, /* run() in src/main.c installs stop_on_sigbus */
	};
	struct option longs[COPT_COUNT_ + 1];
	for (int i = 0; i < COPT_COUNT_; i++)
		longs[i] = (struct option){ count_options[i].name,
					    count_options[i].arg ? required_argument : no_argument,
					    NULL, 256 + i };
	longs[COPT_COUNT_] = (struct option){ 0, 0, 0, 0 };
	int c;
	optind = 1;
	opterr = 0; /* our own one-line messages */
	while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
		if (c == 'h')
			c = 256 + COPT_HELP;
		if (c == '?') {
			if (optopt && optopt < 256) {
				const char s[3] = { '-', (char)optopt, 0 };
				return bad(err, "unknown option '%s'", s);
			}
			return bad(err, "unknown option '%s'", argv[optind - 1]);
		}
		if (c == ':') {
			const int id = optopt - 256;
			if (id >= 0 && id < COPT_COUNT_)
				return bad(err, "--%s needs a value", count_options[id].name);
			return bad(err, "%s needs a value", argv[optind - 1]);
		}
		const enum count_opt id = (enum count_opt)(c - 256);
		req->given[id] = 1;
		const int rc = take(id, optarg, req, err);
		if (rc)
			return rc;
		if (id == COPT_HELP)
			return TSG_OK;
	}
	req->graphs = argv + optind;
	req->ngraphs = argc - optind;
	return TSG_OK;
}

static const char count_intro[] =
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
	"scratch .tsg (see --scratch-dir).\n"
	"\n"
	"An option given where it does not apply (its [scope] below: a device, a\n"
	"layout, a kind of input) is a usage error (exit 2) naming it and why;\n"
	"GPU kernel options on the CPU, and an input's options on the other graphs\n"
	"of a run of several, are a note instead. JSON \"plan\" gives what was\n"
	"asked and what ran, and why.\n"
	"\n";

/* [scope] of an option: what it is limited to, or "" */
static void scope(enum count_opt id, char *out, size_t len)
{
	const unsigned w = options_where(id);
	size_t n = 0;
	out[0] = 0;
#define ADD(...) n += (size_t)snprintf(out + n, n < len ? len - n : 0, __VA_ARGS__)
	if ((w & OPT_DEVICES) != OPT_DEVICES)
		ADD("%s", w & OPT_GPU ? "GPU" : "CPU");
	if ((w & OPT_LAYOUTS) != OPT_LAYOUTS) {
		static const unsigned bits[] = { OPT_BLOCK, OPT_LSTC, OPT_ARRIVAL, OPT_SWEEP };
		static const char *const names[] = { "block", "lstc", "arrival", "sweep" };
		int k = 0, total = 0;
		for (int i = 0; i < 4; i++)
			total += (w & bits[i]) != 0;
		ADD("%s", n ? ", " : "");
		for (int i = 0; i < 4; i++)
			if (w & bits[i])
				ADD("%s%s", k++ ? (k == total ? " and " : ", ") : "", names[i]);
		ADD(" layout%s", total > 1 ? "s" : "");
	}
	if ((w & OPT_INPUTS) != OPT_INPUTS) {
		ADD("%s", n ? ", " : "");
		ADD("%s", w & OPT_CRAWL && w & OPT_TEXT ? "crawls and text"
			  : w & OPT_CRAWL		 ? "crawls"
			  : w & OPT_TEXT		 ? "text input"
							 : ".tsg files");
	}
#undef ADD
}

/* Prints s's words from column col (the first where the cursor is), the
 * rest wrapped at column 79 with continuation lines indented to indent. */
static void wrap(FILE *f, const char *s, int col, int indent)
{
	for (int first = 1; *s; first = 0) {
		const size_t w = strcspn(s, " ");
		if (!first && col + 1 + (int)w > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, w, f);
		col += (int)w;
		s += w;
		while (*s == ' ')
			s++;
	}
	fputc('\n', f);
}

void options_print_count_help(FILE *f)
{
	enum { INDENT = 26 };
	fputs(count_intro, f);
	for (int i = 0; i < COPT_COUNT_; i++) {
		const struct count_option *o = &count_options[i];
		char head[96], sc[96], text[1400];
		int n = snprintf(head, sizeof(head), "  --%s%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "", i == COPT_HELP ? ", -h" : "");
		fputs(head, f);
		/* the help starts at INDENT, or two spaces after a longer head */
		const int pad = n < INDENT - 1 ? INDENT - n : 2;
		fprintf(f, "%*s", pad, "");
		n += pad;
		scope((enum count_opt)i, sc, sizeof(sc));
		snprintf(text, sizeof(text), "%s%s%s%s", sc[0] ? "[" : "", sc, sc[0] ? "] " : "",
			 o->help);
		wrap(f, text, n, INDENT);
	}
}
