#include "src/input.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "io/builder.h"
#include "io/format.h"
#include "io/text.h"
#include "io/webgraph.h"

enum input_kind input_kind_of(const char *path)
{
	if (strcmp(path, "-") == 0)
		return INPUT_TEXT;
	char magic[8];
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		const int is = read(fd, magic, 8) == 8 && memcmp(magic, IO_MAGIC, 8) == 0;
		close(fd);
		if (is)
			return INPUT_TSG;
	}
	if (io_webgraph_is(path))
		return INPUT_WEBGRAPH;
	/* a missing file is left to the .tsg opener, whose error names it */
	return fd < 0 ? INPUT_TSG : INPUT_TEXT;
}

/* Whether path's first bytes are not text: a NUL, or more than one in 32
 * control bytes other than tabs and line ends. gzip (its magic) counts
 * as text: what it holds is checked as it is read. */
static int looks_binary(const char *path)
{
	unsigned char b[4096];
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* the reader's error names it */
	const ssize_t n = read(fd, b, sizeof(b));
	close(fd);
	if (n < 2 || (b[0] == 0x1f && b[1] == 0x8b))
		return 0;
	ssize_t ctl = 0;
	for (ssize_t i = 0; i < n; i++) {
		if (b[i] == 0)
			return 1;
		ctl += (b[i] < 0x20 && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' && b[i] != '\f') ||
		       b[i] == 0x7f;
	}
	return ctl * 32 > n;
}

static int ends_with(const char *s, const char *tail)
{
	const size_t a = strlen(s), b = strlen(tail);
	return a >= b && strcmp(s + a - b, tail) == 0;
}

/* A file given as text that is not: a clear error, its bytes never shown. */
static int refuse_binary(const char *path, struct tsg_err *err)
{
	if (ends_with(path, ".graph") || ends_with(path, ".offsets"))
		return tsg_fail(err, TSG_EINPUT, "%s looks like a WebGraph crawl's %s, but "
				"%.*s.properties, which a crawl needs beside it, is missing", path,
				ends_with(path, ".graph") ? "lists" : "offsets",
				(int)(strlen(path) - (ends_with(path, ".graph") ? 6 : 8)), path);
	return tsg_fail(err, TSG_EINPUT, "%s is not a .tsg file, a WebGraph crawl or a text edge "
			"list (its first bytes are binary)", path);
}

/* The directory a scratch .tsg goes in, as a path in it (the file itself
 * is never named there: io_builder_finish_unnamed) */
static void scratch_dir_path(const struct input_opts *o, char *out, size_t len)
{
	const char *dir = o->scratch_dir ? o->scratch_dir : getenv("TMPDIR");
	snprintf(out, len, "%s/tristream-count-%ld.tsg", dir && *dir ? dir : "/tmp", (long)getpid());
}

int input_prepare(const char *path, const struct input_opts *o, struct tsg_graph *g,
		  const char **graph_path, struct input_info *info, struct tsg_err *err)
{
	memset(info, 0, sizeof(*info));
	info->scratch_fd = -1;
	info->kind = input_kind_of(path);
	if (info->kind == INPUT_WEBGRAPH && o->to && o->to->format != IO_TEXT_AUTO)
		info->kind = INPUT_TEXT; /* a text format was named */
	*graph_path = path;
	info->format = "tsg";
	if (info->kind == INPUT_TSG)
		return TSG_OK;
	/* the caller's builder and text options, completed from ours */
	struct io_builder_opts bo = o->bo ? *o->bo : (struct io_builder_opts){ 0 };
	struct io_text_opts to = o->to ? *o->to : (struct io_text_opts){ .progress = o->progress };
	bo.threads = bo.threads ? bo.threads : o->threads;
	bo.mem_limit = bo.mem_limit ? bo.mem_limit : o->mem_limit;
	bo.tmpdir = bo.tmpdir ? bo.tmpdir : o->scratch_dir;
	to.threads = to.threads ? to.threads : o->threads;
	if (info->kind == INPUT_TEXT && strcmp(path, "-") != 0 && looks_binary(path))
		return refuse_binary(path, err);
	const double t0 = tsg_now();
	struct io_webgraph_stats ws = { 0 };
	struct io_text_stats ts = { 0 };
	int rc;
	const int wg = info->kind == INPUT_WEBGRAPH;
	const int merge = wg && !o->no_transpose && !o->need_file && !bo.relabel &&
			  io_webgraph_has_transpose(path);
	if (o->progress)
		fprintf(stderr, wg ? "tristream: %s is a WebGraph crawl: %s\n"
				   : "tristream: %s is not a .tsg file: %s\n", path,
			merge && o->ranges ? "each rank decoding the lists it needs, with its "
					     "transpose, merged in memory"
			: merge && o->stream ? "decoding it with its transpose, merged in memory "
					       "as it is counted"
			: merge ? "decoding it with its transpose, merged in memory"
			: wg ? "decoding it and sorting its arcs (in memory where they fit, else "
			       "into a scratch .tsg)"
			     : "converting it as a text edge list (in memory where it fits, else "
			       "into a scratch .tsg; tristream-convert once, then count the .tsg, is "
			       "faster for a graph counted often)");
	/* no edge at all: an empty graph only where asked for (a crawl's arcs
	 * are known from its .properties, before its lists) */
	uint64_t nodes = 0, arcs = 1;
	struct tsg_err perr = { 0 }; /* a crawl that cannot be peeked: its opener says why */
	if (wg && !o->allow_empty && io_webgraph_peek(path, &nodes, &arcs, &perr) == TSG_OK &&
	    arcs == 0)
		return tsg_fail(err, TSG_EINPUT, "%s: no arcs (its .properties say arcs=0); use "
				"--allow-empty to take it as an empty graph", path);
	if (merge && o->ranges) {
		rc = io_webgraph_open_ranges(path, to.threads, g, &ws, err);
		*graph_path = NULL;
	} else if (merge && o->stream) {
		rc = io_webgraph_open_stream(path, to.threads, g, &ws, err);
		info->streamed = rc == TSG_OK;
		*graph_path = NULL;
	} else if (merge) {
		rc = io_webgraph_load(path, to.threads, 1, NULL, 0, g, &ws, err);
		*graph_path = NULL;
	} else { /* sorted by the builder: in memory where it fits, else into a
		  * scratch .tsg (not flushed to disk: it is unlinked after use) */
		struct io_builder *b;
		struct io_build_stats bs = { 0 };
		bo.scratch = 1;
		rc = io_builder_new(&bo, &b, err);
		if (rc == TSG_OK) {
			rc = wg ? io_webgraph_feed(path, to.threads, !o->no_transpose, b, &ws, err)
				: io_text_read(path, &to, b, &ts, err);
			if (rc == TSG_OK && !wg && ts.edges == 0 && !o->allow_empty)
				rc = tsg_fail(err, TSG_EINPUT, "%s: no edges found (%llu lines read); "
					      "use --allow-empty to take it as an empty graph", path,
					      (unsigned long long)ts.lines);
			if (rc) {
				io_builder_free(b);
			} else if (!o->need_file && io_builder_fits_memory(b)) {
				rc = io_builder_finish_mem(b, g, &bs, err); /* frees b */
				info->in_memory = 1;
				*graph_path = NULL;
			} else {
				/* written without a name and opened by its descriptor's
				 * (/proc/self/fd/N): a run killed at any moment, even
				 * before the count opens it, leaves no file behind.
				 * Without /proc: named until opened (input_done) */
				char where[sizeof(info->scratch)];
				scratch_dir_path(o, where, sizeof(where));
				if (access("/proc/self/fd", X_OK) == 0) {
					rc = io_builder_finish_unnamed(b, where, &info->scratch_fd,
								       &bs, err); /* frees b */
					if (rc == TSG_OK)
						snprintf(info->scratch, sizeof(info->scratch),
							 "/proc/self/fd/%d", info->scratch_fd);
				} else {
					rc = io_builder_finish(b, where, &bs, err); /* frees b */
					if (rc == TSG_OK)
						snprintf(info->scratch, sizeof(info->scratch), "%s", where);
				}
				info->converted = rc == TSG_OK;
				*graph_path = info->converted ? info->scratch : path;
			}
		}
		info->build_s = bs.build_s + bs.write_s;
		info->decoder = ts.decoder;
	}
	info->format = wg ? "webgraph" : io_text_format_name(ts.format);
	info->transpose = ws.transpose;
	info->offsets_scanned = ws.offsets_scanned;
	info->input_edges = wg ? ws.arcs : ts.edges;
	info->bad_lines = ts.bad_lines;
	info->seconds = tsg_now() - t0;
	if (rc)
		info->scratch[0] = 0; /* the builder made no file (scratch_fd is -1) */
	else if (info->converted) /* a test hook: tests/cli.sh kills the run here */
		tsg_test_pause("TSG_TEST_INPUT_PAUSE_MS", "the scratch .tsg is whole");
	return rc;
}

void input_done(struct input_info *info)
{
	if (info->scratch[0] && info->scratch_fd >= 0) /* never a zeroed info's fd 0 */
		close(info->scratch_fd);
	else if (info->scratch[0]) /* named: no /proc */
		unlink(info->scratch);
	info->scratch_fd = -1;
	info->scratch[0] = 0;
}
