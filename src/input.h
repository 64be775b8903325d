/*
 * input.h - `tristream count` on whatever the user holds.
 *
 * A tristream .tsg file (known by its magic) is opened as it is, its lists
 * left to stream in while the engine works. A LAW WebGraph crawl
 * (io/webgraph.h) with its transpose is decoded and merged in memory: with
 * stream, opened so that its lists are decoded while the arrival layout
 * counts them (as a .tsg's are read), with ranges opened for ranks that
 * each decode only some lists (io_webgraph_open_ranges), else whole
 * before the count; any
 * other crawl, and a text edge list in any format tristream-convert reads
 * (gzip and stdin "-" too), is converted first: into lists in memory where
 * the sort fits the memory limit, else sorted through temporary runs into
 * a scratch .tsg in scratch_dir, which is never named there (O_TMPFILE;
 * where the file system lacks it, a temporary name while it is written)
 * and is opened through its descriptor, /proc/self/fd/N: once whole it
 * leaves nothing behind on any exit, a kill before the count included
 * (without /proc it is named until the count opens it, as it once was). Converting once and counting the .tsg many times is the
 * faster way for a graph counted more than once. An input to convert that
 * holds no edge (no edge line, a crawl of no arcs) is refused unless
 * allow_empty: the rule of tristream-convert --allow-empty. A .tsg file
 * is a graph, not an input to convert: one of no edges is counted.
 */
#ifndef SRC_INPUT_H
#define SRC_INPUT_H

#include <stdint.h>

#include "base/error.h"
#include "io/builder.h"
#include "io/graph.h"
#include "io/text.h"

enum input_kind { INPUT_TSG, INPUT_WEBGRAPH, INPUT_TEXT };

struct input_opts {
	unsigned threads;
	int progress;
	int no_transpose;        /* WebGraph: sort instead of merging with BASE-t */
	uint64_t mem_limit;      /* conversion's sort buffers, 0: the builder's default */
	const char *scratch_dir; /* where a scratch .tsg goes (NULL: $TMPDIR or /tmp) */
	int need_file;           /* the caller needs a .tsg file (e.g. --host-mem) */
	int stream;              /* a crawl with its transpose: decoded as counted */
	int ranges;              /* ... or opened for ranks that each decode only
				  * some lists (--read ranges under mpirun) */
	int allow_empty;         /* a text or crawl with no edges is an empty graph;
				  * else TSG_EINPUT, as tristream-convert says */
	/* the converter's own options, or NULL: a zero field takes the one above
	 * (a named text format reads a WebGraph basename as text; relabelling
	 * sorts a crawl instead of merging it) */
	const struct io_builder_opts *bo;
	const struct io_text_opts *to;
};

struct input_info {
	enum input_kind kind;
	const char *format;      /* "tsg", "webgraph", "edgelist", "mtx", "tsv" */
	int converted;           /* through a scratch .tsg */
	int in_memory;           /* sorted into lists in memory, no file */
	double build_s;          /* of seconds: the lists laid out (and written) */
	const char *decoder;     /* text: plain, libdeflate or zlib (io/text_source.h) */
	int transpose, offsets_scanned;
	int streamed;            /* a crawl opened to be decoded as counted (seconds: its
				  * opening; the decoding is the count's read stage) */
	uint64_t input_edges;    /* arcs or edge lines read (converted inputs) */
	uint64_t bad_lines;      /* text: lines that are not edges, skipped (skip_bad) */
	double seconds;          /* conversion or decoding */
	char scratch[4200];      /* the scratch .tsg's path while it is open
				  * (/proc/self/fd/N; without /proc its name), else "" */
	int scratch_fd;          /* its descriptor, else -1 */
};

enum input_kind input_kind_of(const char *path);

/* Makes path countable. A file that is neither a .tsg nor a crawl and
 * does not look like text (its first bytes hold NUL or other control
 * bytes, and it is not gzip) is TSG_EINPUT saying so, never parsed as
 * text: a crawl's BASE.graph without its BASE.properties is named as such.
 * For INPUT_TSG, and inputs converted through a
 * scratch file (always where need_file), *graph_path is path or the
 * scratch file, to be opened by the caller, who then calls input_done;
 * for a merged crawl or lists built in memory g is filled and loaded (a
 * streamed crawl, or one opened by ranges: opened, its lists pending),
 * and *graph_path is NULL. */
int input_prepare(const char *path, const struct input_opts *o, struct tsg_graph *g,
		  const char **graph_path, struct input_info *info, struct tsg_err *err);

/* Closes (or, named, removes) the scratch file, if any, after the graph
 * is open: it lives on through the graph's own descriptors. */
void input_done(struct input_info *info);

#endif
