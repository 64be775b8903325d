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

static void scratch_name(const struct input_opts *o, char *out, size_t len)
{
	const char *dir = o->scratch_dir ? o->scratch_dir : getenv("TMPDIR");
	snprintf(out, len, "%s/tristream-count-%ld.tsg", dir && *dir ? dir : "/tmp", (long)getpid());
}

int input_prepare(const char *path, const struct input_opts *o, struct tsg_graph *g,
		  const char **graph_path, struct input_info *info, struct tsg_err *err)
{
	memset(info, 0, sizeof(*info));
	info->kind = input_kind_of(path);
	*graph_path = path;
	info->format = "tsg";
	if (info->kind == INPUT_TSG)
		return TSG_OK;
	const double t0 = tsg_now();
	int rc;
	scratch_name(o, info->scratch, sizeof(info->scratch));
	if (info->kind == INPUT_WEBGRAPH) {
		struct io_webgraph_stats ws = { 0 };
		info->format = "webgraph";
		const int merge = !o->no_transpose && !o->need_file && io_webgraph_has_transpose(path);
		if (o->progress)
			fprintf(stderr, "tristream: %s is a WebGraph crawl: %s\n", path, merge ?
				"decoding it with its transpose, merged in memory" :
				"decoding it and sorting its arcs into a scratch .tsg");
		if (merge) {
			info->scratch[0] = 0;
			rc = io_webgraph_load(path, o->threads, 1, NULL, 0, g, &ws, err);
			*graph_path = NULL;
		} else {
			struct io_builder_opts bo = { .threads = o->threads, .mem_limit = o->mem_limit,
						      .tmpdir = o->scratch_dir };
			struct io_builder *b;
			struct io_build_stats bs;
			memset(&ws, 0, sizeof(ws));
			rc = io_builder_new(&bo, &b, err);
			if (rc == TSG_OK) {
				rc = io_webgraph_feed(path, o->threads, b, &ws, err);
				if (rc == TSG_OK)
					rc = io_builder_finish(b, info->scratch, &bs, err); /* frees b */
				else
					io_builder_free(b);
			}
			info->converted = 1;
			*graph_path = info->scratch;
		}
		info->transpose = ws.transpose;
		info->offsets_scanned = ws.offsets_scanned;
		info->input_edges = ws.arcs;
	} else {
		struct io_text_opts to = { .format = IO_TEXT_AUTO, .threads = o->threads,
					   .progress = o->progress };
		struct io_builder_opts bo = { .threads = o->threads, .mem_limit = o->mem_limit,
					      .tmpdir = o->scratch_dir };
		struct io_text_stats ts = { 0 };
		struct io_build_stats bs;
		struct io_builder *b;
		if (o->progress)
			fprintf(stderr, "tristream: %s is not a .tsg file: converting it as a text edge "
				"list into a scratch .tsg (tristream-convert once, then count the .tsg, "
				"is faster for a graph counted often)\n", path);
		rc = io_builder_new(&bo, &b, err);
		if (rc == TSG_OK) {
			rc = io_text_read(path, &to, b, &ts, err);
			if (rc == TSG_OK)
				rc = io_builder_finish(b, info->scratch, &bs, err); /* frees b */
			else
				io_builder_free(b);
		}
		info->format = io_text_format_name(ts.format);
		info->input_edges = ts.edges;
		info->converted = 1;
		*graph_path = info->scratch;
	}
	info->seconds = tsg_now() - t0;
	if (rc)
		info->scratch[0] = 0; /* the builder wrote nothing under that name */
	return rc;
}

void input_done(struct input_info *info)
{
	if (info->scratch[0])
		unlink(info->scratch);
	info->scratch[0] = 0;
}
