/*
 * main.c - the tristream command line, each command's table of contents.
 * count: what was asked (src/options.h), the graphs, what runs
 * (src/plan.h), then each graph counted and reported (src/run.h,
 * src/report.h). info: any input made a graph (src/input.h) and described.
 * compress, decompress and reorder: a .tsg rewritten. help and version.
 *
 * Exit codes are the tsg_status values (base/error.h, README.md): 0 ok,
 * 2 usage, 3 bad input, 4 out of memory, 5 I/O error, 6 device error,
 * 7 internal error, 8 interrupted (the checkpoint holds what was done).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/dist.h"
#include "src/engine.h"
#include "src/input.h"
#include "src/options.h"
#include "src/plan.h"
#include "src/report.h"
#include "src/reorder.h"
#include "src/run.h"
#include "io/check.h"
#include "io/graph.h"
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
	"count and info take a tristream .tsg file, a LAW WebGraph crawl or a text\n"
	"edge list; tristream-convert makes .tsg files (the fastest to count\n"
	"again), tristream-gen synthetic graphs. -h is --help everywhere.\n";

static const char usage_info[] =
	"usage: tristream info [--json] [--threads N] [--io MODE] [--verify] GRAPH\n"
	"\n"
	"Prints the counts, degree statistics and a degree histogram of GRAPH: a\n"
	"tristream .tsg file, a LAW WebGraph crawl or a text edge list (converted\n"
	"first, as count does). vertices: those with an edge; the ids run over\n"
	"id_range. Loading a .tsg validates every checksum and the structure of\n"
	"the lists, and symmetry by a hash sum (random damage passes it with odds\n"
	"of 2^-64; a file crafted to cancel the sum can pass). --verify checks\n"
	"symmetry exactly: every entry's reverse is looked up (one binary search\n"
	"each). An oriented .tsg (tristream-convert --oriented) stores each edge\n"
	"once, so has no symmetry to check: its rows and rank map are checked on\n"
	"load, and --verify checks the header's maximum degree against its rows.\n"
	"--io auto|mmap|pread|uring: how a .tsg is read (auto: a file in the page\n"
	"cache mapped, else io_uring; JSON io says which). -h is --help.\n";

/* A usage error of a command other than count: one line, pointing at its
 * --help. */
static int usage_error(const char *command, const char *fmt, const char *arg)
{
	char msg[512];
	snprintf(msg, sizeof(msg), fmt, arg);
	return options_usage_error(command, msg);
}

enum { OPT_THREADS = 256, OPT_IO, OPT_JSON, OPT_QUIET, OPT_HELP, OPT_VERIFY, OPT_LZ4 };

static int parse_threads(const char *s, unsigned *out)
{
	uint64_t v;
	if (tsg_parse_u64(s, 4096, &v) || v == 0)
		return TSG_EUSAGE;
	*out = (unsigned)v;
	return TSG_OK;
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
	return all && !rc ? report_error(all, &e) : all;
}

/* count's table of contents: what was asked (options), the graphs, what
 * runs (plan), then each graph counted and reported (run). */
static int cmd_count_ranks(int argc, char **argv, struct tsg_dist *dist)
{
	struct count_request req;
	struct count_plan job;
	struct tsg_err err = { 0 };
	const char **paths = NULL;
	char *mbuf = NULL;
	size_t n = 0;
	int rc = options_parse_count(argc, argv, &req, &err);
	if (rc)
		rc = options_usage_error("count", err.msg);
	if ((rc = ranks_agree(dist, rc)))
		return rc;
	/* a rank that only printed the help would leave the others waiting
	 * in their next collective */
	if (dist->size > 1 && !dist_same_u64(dist, (uint64_t)req.help)) {
		struct tsg_err e = { 0 };
		return report_error(tsg_fail(&e, TSG_EUSAGE, "--help was given to some ranks only "
					     "(every rank must run the same count)"), &e);
	}
	if (req.help) {
		options_print_count_help(stdout);
		return TSG_OK;
	}
	rc = run_gather_graphs(req.ngraphs, (const char *const *)req.graphs, req.manifest, &paths,
			       &n, &mbuf, &err);
	if (rc == TSG_EUSAGE)
		rc = options_usage_error("count", "count needs a GRAPH (or --manifest FILE)");
	else if (rc)
		rc = report_error(rc, &err);
	else if ((rc = plan_build(&req, dist, n, &job, &err)))
		rc = rc == TSG_EUSAGE ? options_usage_error("count", err.msg) : report_error(rc, &err);
	else if (job.ckpt && (rc = run_place_checkpoints(&job, n, &err)))
		rc = report_error(rc, &err);
	rc = ranks_agree(dist, rc);
	if (rc == TSG_OK) {
		/* SIGINT and SIGTERM: finish the unit in flight (before any thread) */
		struct tsg_stop stop;
		const int stopping = job.ckpt && stop_begin(&stop) == 0;
		job.o.stop = stopping ? &stop : NULL;
		rc = run_count(&job, paths, n);
		if (stopping)
			stop_end(&stop);
	}
	free(paths);
	free(mbuf);
	return rc;
}

/* getopt_long's '?' or ':' for command as one line. */
static int getopt_error(const char *command, int c, char **argv, const struct option *longs)
{
	char name[64];
	if (c == ':') {
		for (const struct option *o = longs; o->name; o++)
			if (o->val == optopt)
				return usage_error(command, "--%s needs a value", o->name);
		return usage_error(command, "%s needs a value", argv[optind - 1]);
	}
	if (optopt && optopt < 256)
		snprintf(name, sizeof(name), "-%c", optopt);
	else
		snprintf(name, sizeof(name), "%.60s", argv[optind - 1]);
	return usage_error(command, "unknown option '%s'", name);
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
	"only when complete. -h is --help.\n";

enum copy_kind { COPY_PLAIN, COPY_LZ4, COPY_REORDER };

static int cmd_copy(int argc, char **argv, enum copy_kind kind)
{
	const char *cmd = argv[0];
	unsigned threads = tsg_default_threads();
	int json = 0, quiet = 0, c, lz4 = kind == COPY_LZ4;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", copy_opts, NULL)) != -1) {
		switch (c) {
		case OPT_LZ4:
			if (kind != COPY_REORDER)
				return usage_error(cmd, "%s", "--lz4 is reorder's");
			lz4 = 1;
			break;
		case OPT_JSON: json = 1; break;
		case OPT_QUIET: quiet = 1; break;
		case OPT_THREADS:
			if (parse_threads(optarg, &threads))
				return usage_error(cmd, "bad thread count '%s'", optarg);
			break;
		case 'h':
		case OPT_HELP: fputs(usage_copy, stdout); return TSG_OK;
		default: return getopt_error(cmd, c, argv, copy_opts);
		}
	}
	if (optind + 2 != argc)
		return usage_error(cmd, "%s", "give IN and OUT");
	const char *in = argv[optind], *out = argv[optind + 1];
	struct io_copy_stats st;
	struct tsg_err err = { 0 };
	int rc = kind == COPY_REORDER ? reorder_graph(in, out, lz4, threads, &st, &err)
				      : io_graph_copy(in, out, lz4, threads, &st, &err);
	if (rc)
		return report_error(rc, &err);
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

/* info's graph: a .tsg loaded, or any other input count takes made into
 * one first (src/input.h), in memory where it fits. */
static int info_load(const char *path, const struct io_load_opts *lo, struct tsg_graph *g,
		     struct input_info *in, struct tsg_err *err)
{
	const char *gpath = NULL;
	const struct input_opts io = { .threads = lo->threads };
	int rc = input_prepare(path, &io, g, &gpath, in, err);
	if (rc == TSG_OK && gpath)
		rc = io_graph_load(gpath, lo, g, err);
	input_done(in);
	return rc;
}

static int cmd_info(int argc, char **argv)
{
	/* a file in the page cache mapped, not copied out first: info only
	 * reads it once, in order (R-MAT 22 on 2 cores: 0.17 s against 0.24
	 * plain, 0.29 against 0.63 LZ4, bench/RESULTS.md; run() makes SIGBUS
	 * an error) */
	struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = tsg_default_threads(),
				   .oriented = 1, .cached_map = 1 };
	int json = 0, verify = 0, io_given = 0, c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", info_opts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON: json = 1; break;
		case OPT_THREADS:
			if (parse_threads(optarg, &lo.threads))
				return usage_error("info", "bad thread count '%s'", optarg);
			break;
		case OPT_IO:
			if (io_mode_parse(optarg, &lo.io))
				return usage_error("info", "unknown I/O mode '%s'", optarg);
			io_given = 1;
			break;
		case OPT_VERIFY: verify = 1; break;
		case 'h':
		case OPT_HELP: fputs(usage_info, stdout); return TSG_OK;
		default: return getopt_error("info", c, argv, info_opts);
		}
	}
	if (optind + 1 != argc)
		return usage_error("info", "%s", "info takes exactly one GRAPH");
	const char *path = argv[optind];
	struct tsg_graph g = { 0 };
	struct input_info in;
	struct tsg_err err = { 0 };
	int rc = info_load(path, &lo, &g, &in, &err);
	if (rc) {
		io_graph_free(&g);
		return report_error(rc, &err);
	}
	const unsigned threads = lo.threads ? lo.threads : tsg_default_threads();
	/* an oriented file's degrees by id come from a pass over its rows */
	if ((g.oriented && (rc = io_graph_load_degrees(&g, threads, &err))) ||
	    (verify && (rc = g.oriented ? io_check_oriented_exact(&g, path, threads, &err)
					: io_check_symmetry_exact(&g, path, threads, &err)))) {
		io_graph_free(&g);
		return report_error(rc, &err);
	}
	/* an input made into lists in memory read no .tsg: said, as count says it */
	char note[160] = "";
	if (io_given && lo.io != IO_MODE_AUTO && g.io_used == IO_MODE_AUTO) {
		snprintf(note, sizeof(note), "--io %s applies to .tsg files: not used, the %s "
			 "input became lists in memory", io_mode_name(lo.io), in.format);
		fprintf(stderr, "tristream: note: %s\n", note);
	}
	report_info(path, &g, &in, verify, note, json);
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
		return report_error(rc, &err);
	if (dist.rank != 0 && (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)))
		rc = TSG_EIO;
	if (rc == TSG_OK)
		rc = cmd_count_ranks(argc, argv, &dist);
	const int frc = dist_finish(&dist); /* MPI_Finalize's status too */
	return rc ? rc : frc;
}

static int run(int argc, char **argv)
{
	/* a mapped input cut short while in use must not kill us either
	 * (tsg_main ignores SIGPIPE and SIGXFSZ) */
	(void)stop_on_sigbus();
	if (argc < 2)
		return options_usage_error(NULL, "give a command");
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
	return usage_error(NULL, "unknown command '%s'", cmd);
}

int main(int argc, char **argv)
{
	return tsg_main(argc, argv, run, "tristream");
}
