/*
 * tristream-convert - text edge lists to the tristream binary format.
 *
 * Reads SNAP/plain edge lists, Matrix Market and Graph Challenge TSV, plain
 * or gzip, from a file or stdin; writes the canonical graph (symmetric,
 * sorted, no self-loops or duplicates) and reports what it dropped. Inputs
 * larger than --mem-limit are sorted externally through temporary files.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/atomic.h"
#include "io/builder.h"
#include "base/json.h"
#include "base/stop.h"
#include "io/text.h"
#include "io/text_write.h"
#include "base/util.h"
#include "version.h"
#include "io/webgraph.h"
#include "io/writer.h"
#include "partition/orient.h"
#include "partition/rows.h"
#include "src/input.h"

static const char usage[] =
	"usage: tristream-convert [options] INPUT OUTPUT\n"
	"\n"
	"INPUT is a text edge list (gzip allowed), - for stdin, or a LAW WebGraph\n"
	"crawl (BASE, BASE.graph or BASE.properties; BVGraph), counted as undirected:\n"
	"with its transpose BASE-t beside it, out- and in-lists are merged as they\n"
	"are decoded; without, the arcs are sorted like text.\n"
	"  --format auto|edgelist|snap|mtx|tsv  input format (default auto)\n"
	"  --relabel           renumber ids densely, dropping isolated vertices\n"
	"  --skip-bad-lines    count malformed lines instead of stopping\n"
	"  --allow-empty       write a graph with no edges instead of failing\n"
	"  --mem-limit SIZE    memory for edge buffers before spilling (default 40% of RAM)\n"
	"  --tmpdir DIR        where spilled runs go (default $TMPDIR or /tmp)\n"
	"  --threads N         parser and sort threads (default: each CPU it may use)\n"
	"  --compress none|lz4 write neighbour lists as LZ4 chunks (default none)\n"
	"  --oriented          write the graph oriented as count orients it: each edge\n"
	"                      once, in rank order (about half the bytes); with\n"
	"                      --compress lz4, its rows in LZ4 chunks\n"
	"  --json              print the conversion report as JSON on stdout\n"
	"  --no-transpose      WebGraph: ignore BASE-t, symmetrize by sorting\n"
	"  --to tsg|webgraph|text  output format (default tsg); webgraph writes OUTPUT\n"
	"                      as a BVGraph basename (window 7, maxrefcount 3, minimum\n"
	"                      interval 4, zeta_3: the Java defaults), the undirected\n"
	"                      graph's lists, and OUTPUT-t, its transpose (the same\n"
	"                      files, hard-linked); text writes \"u v\" lines, each\n"
	"                      edge once with u < v; INPUT may also be a .tsg file\n"
	"                      (read as it is: --format, --relabel, --skip-bad-lines,\n"
	"                      --mem-limit and --gzip are refused there)\n"
	"  --gzip auto|libdeflate|zlib  gzip decoder: libdeflate decodes the whole file\n"
	"                      (its members on every thread) before the parse; zlib\n"
	"                      streams it beside the parse; auto takes libdeflate\n"
	"                      with several members or 4 or more threads\n"
	"  --quiet             no progress or report on stderr\n";

enum { O_FORMAT = 256, O_RELABEL, O_SKIP, O_EMPTY, O_MEM, O_TMP, O_THREADS, O_JSON, O_QUIET, O_HELP,
       O_COMPRESS, O_NO_T, O_TO, O_GZIP, O_ORIENTED };

static const struct option opts[] = {
	{ "format", required_argument, 0, O_FORMAT }, { "relabel", no_argument, 0, O_RELABEL },
	{ "skip-bad-lines", no_argument, 0, O_SKIP }, { "allow-empty", no_argument, 0, O_EMPTY },
	{ "mem-limit", required_argument, 0, O_MEM }, { "tmpdir", required_argument, 0, O_TMP },
	{ "threads", required_argument, 0, O_THREADS }, { "json", no_argument, 0, O_JSON },
	{ "quiet", no_argument, 0, O_QUIET }, { "help", no_argument, 0, O_HELP },
	{ "compress", required_argument, 0, O_COMPRESS }, { "no-transpose", no_argument, 0, O_NO_T },
	{ "to", required_argument, 0, O_TO }, { "gzip", required_argument, 0, O_GZIP },
	{ "oriented", no_argument, 0, O_ORIENTED },
	{ "version", no_argument, 0, 'V' }, { 0, 0, 0, 0 },
};

static int bad_usage(const char *msg, const char *arg)
{
	fprintf(stderr, "tristream-convert: ");
	fprintf(stderr, msg, arg);
	fprintf(stderr, "; see tristream-convert --help\n");
	return TSG_EUSAGE;
}

/* A crawl with its transpose: merged lists written straight out. */
static int convert_merged(const char *in, const char *out, unsigned threads, int lz4, int json,
			  int quiet, int allow_empty, double t0)
{
	struct tsg_graph g;
	struct io_webgraph_stats ws;
	struct tsg_err err = { 0 };
	uint64_t bytes = 0;
	int rc = io_webgraph_load(in, threads, 1, NULL, 0, &g, &ws, &err);
	if (rc == TSG_OK && ws.arcs == 0 && !allow_empty) { /* as sorted crawls and text */
		io_graph_free(&g);
		rc = tsg_fail(&err, TSG_EINPUT, "%s: no edges found (0 arcs); use --allow-empty to "
			      "write an empty graph", in);
	}
	if (rc == TSG_OK) {
		rc = lz4 ? io_graph_write_lz4(out, g.nv, g.off, g.adj, threads, &bytes, &err)
			 : io_graph_write(out, g.nv, g.off, g.adj, &err);
		if (rc == TSG_OK && !lz4) {
			struct stat sb;
			bytes = stat(out, &sb) == 0 ? (uint64_t)sb.st_size : 0;
		}
	}
	if (rc) {
		fprintf(stderr, "tristream-convert: error: %s\n", err.msg);
		return rc;
	}
	const double secs = tsg_now() - t0;
	if (json) {
		struct tsg_json j;
		json_begin(&j, stdout);
		json_str(&j, "input", in);
		json_str(&j, "output", out);
		json_str(&j, "format", "webgraph");
		json_bool(&j, "transpose", 1);
		json_bool(&j, "offsets_scanned", ws.offsets_scanned);
		json_u64(&j, "input_arcs", ws.arcs);
		json_u64(&j, "vertices", g.nv);
		json_u64(&j, "edges", g.nadj / 2);
		json_u64(&j, "max_degree", g.max_degree);
		json_str(&j, "compression", lz4 ? "lz4" : "none");
		json_u64(&j, "output_bytes", bytes);
		json_f64(&j, "decode_seconds", ws.decode_s);
		json_f64(&j, "open_seconds", ws.open_s);     /* of decode: offsets, mapping */
		json_f64(&j, "lists_seconds", ws.lists_s);   /* of decode: lists, in parallel */
		json_f64(&j, "assemble_seconds", ws.assemble_s); /* of decode: copy in place */
		json_f64(&j, "arcs_per_second", ws.arcs_per_s);
		json_f64(&j, "seconds", secs);
		json_end(&j);
	}
	if (!quiet)
		fprintf(stderr, "tristream-convert: %s (webgraph, merged with its transpose%s): %llu "
			"nodes, %llu arcs decoded at %.0f M arcs/s; wrote %llu vertices, %llu edges "
			"to %s in %.2fs\n", in, ws.offsets_scanned ? "; offsets found by a scan" : "",
			(unsigned long long)ws.nodes, (unsigned long long)ws.arcs, ws.arcs_per_s / 1e6,
			(unsigned long long)g.nv, (unsigned long long)(g.nadj / 2), out, secs);
	io_graph_free(&g);
	return TSG_OK;
}

/* --to webgraph: the undirected graph, from any input, as BVGraph files
 * OUT.* and OUT-t.* (a symmetric graph is its own transpose). */
static int write_webgraph(const char *in, const char *out, const struct tsg_graph *g,
			  unsigned threads, int json, int quiet, double t0, struct tsg_err *err)
{
	char a[4400], b[4400], tbase[4400];
	struct io_webgraph_wopts wo;
	io_webgraph_write_defaults(&wo);
	wo.threads = threads;
	/* the transpose: the same files under OUT-t, linked, its .properties
	 * removed before OUT's files change and linked last (as
	 * io_webgraph_writer_finish names OUT's), so that no reader pairs files
	 * of two graphs: killed between, OUT has no transpose and is counted
	 * by sorting. Where the file system has no hard links (FAT) it is
	 * written again. */
	snprintf(tbase, sizeof(tbase), "%s-t", out);
	int rc = io_webgraph_unname(tbase, err);
	if (rc == TSG_OK)
		rc = io_webgraph_write(out, g->nv, g->off, g->adj, &wo, err);
	static const char *const ext[] = { "graph", "offsets", "properties" };
	const int no_links = tsg_env_positive("TSG_TEST_NO_LINKS", 0) != 0; /* tests/cli.sh */
	int write_t = 0;
	for (int i = 0; rc == TSG_OK && !write_t && i < 3; i++) {
		snprintf(a, sizeof(a), "%s.%s", out, ext[i]);
		snprintf(b, sizeof(b), "%s-t.%s", out, ext[i]);
		if (unlink(b) != 0 && errno != ENOENT) {
			rc = tsg_fail_errno(err, tsg_status_from_errno(errno), errno, "%s", b);
		} else if (no_links || link(a, b) != 0) {
			const int e = no_links ? EPERM : errno;
			if (e == EPERM || e == EOPNOTSUPP || e == ENOSYS)
				write_t = 1;
			else
				rc = tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s", b);
		}
	}
	if (rc == TSG_OK && write_t)
		rc = io_webgraph_write(tbase, g->nv, g->off, g->adj, &wo, err);
	if (rc)
		return rc;
	if (!quiet)
		fprintf(stderr, "tristream-convert: %s -> %s.{graph,offsets,properties} and %s-t.*: "
			"%llu vertices, %llu edges (%llu arcs) in %.2fs\n", in, out, out,
			(unsigned long long)g->nv, (unsigned long long)(g->nadj / 2),
			(unsigned long long)g->nadj, tsg_now() - t0);
	if (json) {
		struct stat sb;
		snprintf(a, sizeof(a), "%s.graph", out);
		struct tsg_json j;
		json_begin(&j, stdout);
		json_str(&j, "input", in);
		json_str(&j, "output", out);
		json_str(&j, "to", "webgraph");
		json_u64(&j, "vertices", g->nv);
		json_u64(&j, "edges", g->nadj / 2);
		json_u64(&j, "arcs", g->nadj);
		json_u64(&j, "graph_bytes", stat(a, &sb) == 0 ? (uint64_t)sb.st_size : 0);
		json_f64(&j, "seconds", tsg_now() - t0);
		json_end(&j);
	}
	return TSG_OK;
}

/* --to text: "u v" lines, each undirected edge once. */
static int write_text(const char *in, const char *out, const struct tsg_graph *g,
		      unsigned threads, int json, int quiet, double t0, struct tsg_err *err)
{
	struct io_text_write_stats st;
	int rc = io_text_write(out, g->nv, g->off, g->adj, threads, &st, err);
	if (rc)
		return rc;
	if (!quiet)
		fprintf(stderr, "tristream-convert: %s -> %s: %llu edges, %llu bytes of text in "
			"%.2fs\n", in, out, (unsigned long long)st.edges,
			(unsigned long long)st.bytes, tsg_now() - t0);
	if (json) {
		struct tsg_json j;
		json_begin(&j, stdout);
		json_str(&j, "input", in);
		json_str(&j, "output", out);
		json_str(&j, "to", "text");
		json_u64(&j, "vertices", g->nv);
		json_u64(&j, "edges", st.edges);
		json_u64(&j, "output_bytes", st.bytes);
		json_f64(&j, "seconds", tsg_now() - t0);
		json_end(&j);
	}
	return TSG_OK;
}

/* --to webgraph|text: the undirected graph from any input, as count takes
 * it, written in another form. */
static int convert_to_other(const char *in, const char *out, int to_text,
			    const struct io_builder_opts *bo, const struct io_text_opts *to,
			    int merge, int json, int quiet, int allow_empty, double t0)
{
	struct tsg_graph g;
	struct tsg_err err = { 0 };
	struct input_info info;
	const char *gpath;
	/* any input, as count takes it: a .tsg, a crawl merged with its
	 * transpose, or sorted by the builder into a scratch .tsg */
	const struct input_opts io_o = { .threads = bo->threads ? bo->threads : tsg_default_threads(),
					 .no_transpose = !merge, .scratch_dir = bo->tmpdir,
					 .allow_empty = allow_empty, .bo = bo, .to = to };
	int rc = input_prepare(in, &io_o, &g, &gpath, &info, &err);
	if (rc == TSG_OK && gpath) {
		const struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = io_o.threads };
		rc = io_graph_load(gpath, &lo, &g, &err);
	}
	input_done(&info);
	if (rc == TSG_OK) {
		rc = to_text ? write_text(in, out, &g, io_o.threads, json, quiet, t0, &err)
			     : write_webgraph(in, out, &g, io_o.threads, json, quiet, t0, &err);
		io_graph_free(&g);
	}
	if (rc)
		fprintf(stderr, "tristream-convert: error: %s\n", err.msg);
	return rc;
}

static void *heap_alloc(void *ctx, size_t bytes)
{
	(void)ctx;
	return malloc(bytes ? bytes : 1);
}

/* The id of each rank: the inverse of part_rank's rank of each id, the
 * order part_orient relabels by. */
struct invert {
	const uint32_t *rank;
	uint32_t *id;
};

static void invert_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct invert *c = ctx;
	for (uint64_t v = b; v < e; v++)
		c->id[c->rank[v]] = (uint32_t)v;
}

/* g oriented as the count orients it (part_orient, the same code and
 * order) and written to out with its rank map. */
static int write_oriented(const char *out, const struct tsg_graph *g, unsigned threads, int lz4,
			  uint64_t *max_out, struct tsg_err *err)
{
	struct part_odag d = { 0 };
	const struct part_orient_opts oo = { .threads = threads, .alloc = heap_alloc };
	const uint64_t n = g->nv ? g->nv : 1;
	struct invert c = { .rank = NULL, .id = malloc(n * sizeof(uint32_t)) };
	uint32_t *rank = malloc(n * sizeof(uint32_t));
	int rc = rank && c.id ? TSG_OK : tsg_fail(err, TSG_ENOMEM, "out of memory for the ranks "
						  "of %llu vertices", (unsigned long long)g->nv);
	if (rc == TSG_OK && part_rank(g, threads, rank, NULL) != 0)
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory ranking vertices by degree");
	if (rc == TSG_OK) {
		c.rank = rank;
		tsg_parallel_for(threads, g->nv, 1u << 16, invert_range, &c);
		free(rank);
		rank = NULL;
		rc = part_orient(g, &oo, &d, NULL, err);
	}
	if (rc == TSG_OK) {
		*max_out = d.max_out;
		rc = io_graph_write_oriented(out, g->nv, d.off, d.adj, c.id, g->max_degree,
					     threads, lz4, err);
	}
	free(d.off); /* part_orient's one block, offsets first */
	free(rank);
	free(c.id);
	return rc;
}

/* --oriented: the undirected graph from any input, as count takes it,
 * oriented and written as a .tsg of the oriented kind (lz4: its rows in
 * LZ4 chunks). */
static int convert_oriented(const char *in, const char *out, const struct io_builder_opts *bo,
			    const struct io_text_opts *to, int merge, int lz4, int json, int quiet,
			    int allow_empty, double t0)
{
	struct tsg_graph g = { 0 };
	struct tsg_err err = { 0 };
	struct input_info info;
	const char *gpath;
	uint64_t max_out = 0;
	const unsigned threads = bo->threads ? bo->threads : tsg_default_threads();
	const struct input_opts io_o = { .threads = threads, .no_transpose = !merge,
					 .scratch_dir = bo->tmpdir, .allow_empty = allow_empty,
					 .bo = bo, .to = to };
	int rc = input_prepare(in, &io_o, &g, &gpath, &info, &err);
	if (rc == TSG_OK && gpath) {
		const struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = threads };
		rc = io_graph_load(gpath, &lo, &g, &err);
	}
	input_done(&info);
	const double read_s = tsg_now() - t0;
	if (rc == TSG_OK)
		rc = write_oriented(out, &g, threads, lz4, &max_out, &err);
	if (rc) {
		io_graph_free(&g);
		fprintf(stderr, "tristream-convert: error: %s\n", err.msg);
		return rc;
	}
	struct stat sb;
	const uint64_t bytes = stat(out, &sb) == 0 ? (uint64_t)sb.st_size : 0;
	const double secs = tsg_now() - t0;
	if (json) {
		struct tsg_json j;
		json_begin(&j, stdout);
		json_str(&j, "input", in);
		json_str(&j, "output", out);
		json_str(&j, "format", info.format);
		json_bool(&j, "oriented", 1);
		json_u64(&j, "vertices", g.nv);
		json_u64(&j, "edges", g.nadj / 2);
		json_u64(&j, "max_degree", g.max_degree);
		json_u64(&j, "max_out_degree", max_out);
		json_str(&j, "compression", lz4 ? "lz4" : "none");
		json_u64(&j, "output_bytes", bytes);
		json_f64(&j, "read_seconds", read_s);        /* input made undirected */
		json_f64(&j, "write_seconds", secs - read_s); /* ranked, oriented, written */
		json_f64(&j, "seconds", secs);
		json_end(&j);
	}
	if (!quiet)
		fprintf(stderr, "tristream-convert: %s (%s) -> %s, oriented%s: %llu vertices, %llu "
			"edges (each once), max degree %llu, max out-degree %llu, %llu bytes in "
			"%.2fs\n", in, info.format, out, lz4 ? ", LZ4" : "", (unsigned long long)g.nv,
			(unsigned long long)(g.nadj / 2), (unsigned long long)g.max_degree,
			(unsigned long long)max_out, (unsigned long long)bytes, secs);
	io_graph_free(&g);
	return TSG_OK;
}

static int run(int argc, char **argv)
{
	/* a mapped input cut short while in use must not kill us either
	 * (tsg_main ignores SIGPIPE and SIGXFSZ) */
	(void)stop_on_sigbus();
	struct io_text_opts to = { .format = IO_TEXT_AUTO, .progress = 1 };
	struct io_builder_opts bo = { 0 };
	int gzip_given = 0;
	int json = 0, quiet = 0, allow_empty = 0, lz4 = 0, no_t = 0, to_wg = 0, to_text = 0, c;
	int oriented = 0;
	uint64_t v;
	opterr = 0; /* our own one-line messages */
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_FORMAT:
			if (io_text_format_parse(optarg, &to.format))
				return bad_usage("unknown format '%s'", optarg);
			break;
		case O_RELABEL: bo.relabel = 1; break;
		case O_SKIP: to.skip_bad = 1; break;
		case O_EMPTY: allow_empty = 1; break;
		case O_MEM:
			if (tsg_parse_size(optarg, &bo.mem_limit) || bo.mem_limit == 0)
				return bad_usage("bad size '%s'", optarg);
			break;
		case O_TMP: bo.tmpdir = optarg; break;
		case O_THREADS:
			if (tsg_parse_u64(optarg, 4096, &v) || v == 0)
				return bad_usage("bad thread count '%s'", optarg);
			to.threads = bo.threads = (unsigned)v;
			break;
		case O_JSON: json = 1; break;
		case O_COMPRESS:
			if (strcmp(optarg, "lz4") != 0 && strcmp(optarg, "none") != 0)
				return bad_usage("unknown compression '%s' (none or lz4)", optarg);
			lz4 = strcmp(optarg, "lz4") == 0;
			break;
		case O_QUIET: quiet = 1; to.progress = 0; break;
		case O_NO_T: no_t = 1; break;
		case O_ORIENTED: oriented = 1; break;
		case O_TO:
			if (strcmp(optarg, "webgraph") != 0 && strcmp(optarg, "tsg") != 0 &&
			    strcmp(optarg, "text") != 0)
				return bad_usage("unknown output format '%s' (tsg, webgraph or text)",
						 optarg);
			to_wg = strcmp(optarg, "webgraph") == 0;
			to_text = strcmp(optarg, "text") == 0;
			break;
		case O_GZIP:
			gzip_given = 1;
			if (strcmp(optarg, "auto") == 0)
				to.gzip = IO_GZIP_AUTO;
			else if (strcmp(optarg, "libdeflate") == 0)
				to.gzip = IO_GZIP_LIBDEFLATE;
			else if (strcmp(optarg, "zlib") == 0)
				to.gzip = IO_GZIP_ZLIB;
			else
				return bad_usage("unknown gzip decoder '%s' (auto, libdeflate or zlib)",
						 optarg);
			break;
		case 'h':
		case O_HELP: fputs(usage, stdout); return TSG_OK;
		case ':': return bad_usage("%s needs a value", argv[optind - 1]);
		case 'V': printf("tristream-convert %s\n", TSG_VERSION); return TSG_OK;
		default: return bad_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind + 2 != argc)
		return bad_usage("%s", "need INPUT and OUTPUT");
	const char *in = argv[optind], *out = argv[optind + 1];
	/* the output is published over its path (a crawl's files at OUT.*):
	 * never over the input's own, which it would replace before or while
	 * it is read */
	char same[4096];
	if (strcmp(in, "-") != 0 && io_output_is_input(in, out, to_wg ? 2 : 1, same, sizeof(same)))
		return bad_usage("the output %s is the input itself (or its transpose): give "
				 "another path", same);
	struct tsg_err err = { 0 };
	int plain_fd = -1; /* --compress: the unnamed plain graph, compressed into out */
	uint64_t out_bytes = 0;
	struct io_builder *b;
	struct io_text_stats ts = { 0 };
	struct io_build_stats bs = { 0 };
	struct io_webgraph_stats ws = { 0 };
	double read_s = 0;
	const int wg = strcmp(in, "-") != 0 && to.format == IO_TEXT_AUTO && io_webgraph_is(in);
	const unsigned threads = bo.threads ? bo.threads : tsg_default_threads();
	double t0 = tsg_now();
	/* a .tsg is read as it is: the text parser's and builder's options
	 * would be dropped without a word (--relabel too: ids stay as stored) */
	const char *text_only = bo.relabel ? "--relabel" : to.format != IO_TEXT_AUTO ? "--format"
				: to.skip_bad ? "--skip-bad-lines" : gzip_given ? "--gzip"
				: bo.mem_limit ? "--mem-limit" : NULL;
	char why[4200];
	if (text_only && strcmp(in, "-") != 0 && input_kind_of(in) == INPUT_TSG) {
		snprintf(why, sizeof(why), "%s applies to a text edge list (or a crawl's "
			 "conversion), not to the .tsg %s", text_only, in);
		return bad_usage("%s", why);
	}
	if (no_t && !wg)
		return bad_usage("--no-transpose applies to a LAW WebGraph crawl: %s is not one", in);
	if ((to_wg || to_text) && lz4)
		return bad_usage("%s", "--compress applies to .tsg output");
	if (oriented && (to_wg || to_text))
		return bad_usage("%s", "--oriented writes a .tsg: not with --to webgraph or text");
	if (oriented)
		return convert_oriented(in, out, &bo, &to, wg && !no_t, lz4, json, quiet,
					allow_empty, t0);
	if (to_wg || to_text)
		return convert_to_other(in, out, to_text, &bo, &to, wg && !no_t, json, quiet,
					allow_empty, t0);
	if (wg && !no_t && !bo.relabel && io_webgraph_has_transpose(in))
		return convert_merged(in, out, threads, lz4, json, quiet, allow_empty, t0);
	int rc = io_builder_new(&bo, &b, &err);
	if (rc == TSG_OK) {
		if (wg) {
			rc = io_webgraph_feed(in, threads, !no_t, b, &ws, &err);
			ts.edges = ws.arcs;
		} else {
			rc = io_text_read(in, &to, b, &ts, &err);
		}
		read_s = tsg_now() - t0;
		if (rc == TSG_OK && ts.edges == 0 && !allow_empty && wg)
			rc = tsg_fail(&err, TSG_EINPUT, "%s: no edges found (0 arcs); use "
				      "--allow-empty to write an empty graph", in);
		if (rc == TSG_OK && ts.edges == 0 && !allow_empty)
			rc = tsg_fail(&err, TSG_EINPUT, "%s: no edges found (%llu lines read); use "
				      "--allow-empty to write an empty graph", in,
				      (unsigned long long)ts.lines);
		if (rc == TSG_OK)
			rc = lz4 ? io_builder_finish_unnamed(b, out, &plain_fd, &bs, &err)
				 : io_builder_finish(b, out, &bs, &err); /* frees b */
		else
			io_builder_free(b);
	}
	if (rc == TSG_OK && lz4) {
		/* the plain file, complete and checked, becomes the compressed
		 * one. It never had a name (io_builder_finish_unnamed), so a
		 * kill at any moment, even -9, leaves nothing but, at the end,
		 * the whole output */
		struct io_copy_stats cs;
		char src[64];
		snprintf(src, sizeof(src), "/proc/self/fd/%d", plain_fd);
		rc = io_graph_copy(src, out, 1, threads, &cs, &err);
		out_bytes = rc ? 0 : cs.out_bytes;
	}
	if (plain_fd >= 0)
		close(plain_fd);
	if (rc) {
		fprintf(stderr, "tristream-convert: error: %s\n", err.msg);
		return rc;
	}
	double secs = tsg_now() - t0;
	if (json) {
		struct tsg_json j;
		json_begin(&j, stdout);
		json_str(&j, "input", in);
		json_str(&j, "output", out);
		json_str(&j, "format", wg ? "webgraph" : io_text_format_name(ts.format));
		if (!wg) {
			json_str(&j, "decoder", ts.decoder ? ts.decoder : "plain");
			json_u64(&j, "gzip_members", ts.gzip_members);
		}
		if (wg) {
			json_bool(&j, "transpose", 0);
			json_bool(&j, "offsets_scanned", ws.offsets_scanned);
			json_f64(&j, "decode_seconds", ws.decode_s);
		}
		json_u64(&j, "lines", ts.lines);
		json_u64(&j, "bad_lines", ts.bad_lines);
		json_u64(&j, "input_edges", bs.input_edges);
		json_u64(&j, "self_loops", bs.self_loops);
		json_u64(&j, "duplicates", bs.duplicates);
		json_u64(&j, "isolated_dropped", bs.isolated);
		json_u64(&j, "vertices", bs.nv);
		json_u64(&j, "edges", bs.nedges);
		json_u64(&j, "max_degree", bs.max_degree);
		json_u64(&j, "spilled_runs", bs.runs);
		json_f64(&j, "read_seconds", read_s);   /* read, decode, parse */
		json_f64(&j, "build_seconds", bs.build_s);
		json_f64(&j, "write_seconds", bs.write_s); /* checksums, flush, naming */
		json_str(&j, "compression", lz4 ? "lz4" : "none");
		if (lz4)
			json_u64(&j, "output_bytes", out_bytes);
		json_f64(&j, "seconds", secs);
		json_end(&j);
	}
	if (!quiet)
		fprintf(stderr, "tristream-convert: %s (%s): %llu lines, %llu edges read; dropped %llu "
			"self-loops, %llu duplicate edges, %llu bad lines, %llu isolated vertices; "
			"wrote %llu vertices, %llu edges to %s in %.2fs%s\n", in,
			wg ? "webgraph, sorted" : io_text_format_name(ts.format), (unsigned long long)ts.lines,
			(unsigned long long)bs.input_edges, (unsigned long long)bs.self_loops,
			(unsigned long long)bs.duplicates, (unsigned long long)ts.bad_lines,
			(unsigned long long)bs.isolated, (unsigned long long)bs.nv,
			(unsigned long long)bs.nedges, out, secs,
			bs.runs ? " (external sort)" : "");
	return TSG_OK;
}

int main(int argc, char **argv)
{
	return tsg_main(argc, argv, run, "tristream-convert");
}
