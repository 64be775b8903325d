/*
 * webgraph.h - LAW WebGraph crawls in the BVGraph format
 * (docs/FORMAT-WEBGRAPH.md): BASE.properties, BASE.graph, BASE.offsets,
 * and the transpose BASE-t.* that LAW ships with its crawls.
 *
 * A crawl is directed; tristream counts it as undirected (an edge wherever
 * either page links to the other, no self-loops). With the transpose, each
 * vertex's out-list and in-list are decoded side by side and merged, so the
 * symmetric lists come out sorted with no sort at all; without it, the
 * arcs go through the converter's external sort (io/builder.h).
 *
 * Decoding is parallel: vertex ranges of about equal bits, found from the
 * offsets, each decoded by a thread with its own window; a reference to a
 * list before the range is decoded by random access (its chain of
 * references walked and decoded back, without recursion). Without .offsets one sequential pass
 * finds them first (stats say so). Everything read is checked: codes that
 * run past the file's end, successors out of range or out of order,
 * references outside the window or chains deeper than maxrefcount allows,
 * offsets that disagree with the lists, degrees that disagree with the
 * arc count. Each is TSG_EINPUT naming the file; unsupported variants
 * (another version, little-endian, a code not implemented) name the key.
 */
#ifndef IO_WEBGRAPH_H
#define IO_WEBGRAPH_H

#include <stdint.h>

#include "base/error.h"
#include "io/builder.h"
#include "io/graph.h"

/* 1 if path names a BVGraph: BASE.graph, BASE.properties or a BASE with a
 * BASE.properties beside it. */
int io_webgraph_is(const char *path);

/* 1 if the crawl path names has its transpose BASE-t beside it. */
int io_webgraph_has_transpose(const char *path);

/* The bytes of the crawl's BASE.graph and BASE-t.graph together (a file
 * missing counts 0): what a count mapping both brings into memory. */
uint64_t io_webgraph_graph_bytes(const char *path);

/* The node and arc counts of the crawl's .properties, which are checked
 * but not its lists: enough to size work before the crawl is decoded. */
int io_webgraph_peek(const char *path, uint64_t *nodes, uint64_t *arcs, struct tsg_err *err);

struct io_webgraph_stats {
	uint64_t nodes, arcs;     /* of the directed graph */
	int transpose;            /* BASE-t was used */
	int offsets_scanned;      /* no .offsets: found by a sequential pass */
	uint64_t graph_bytes;     /* .graph bytes read (both graphs) */
	double decode_s;          /* decoding and merging */
	double open_s;            /* of decode_s: properties, mapping, offsets */
	double lists_s;           /* of decode_s: the lists decoded and merged, in parallel */
	double assemble_s;        /* of decode_s: the graph handed over (its lists and offsets
				   * are placed as they are decoded, in lists_s) */
	double arcs_per_s;        /* arcs decoded (both graphs) per second */
};

/* Loads the crawl as an undirected graph in memory (g owns its buffers).
 * Where use_transpose is set and BASE-t.properties exists, out- and
 * in-lists are merged as they are decoded; otherwise the arcs go through a
 * builder (external sort within mem_limit bytes, 0: its default) that
 * writes the undirected graph to scratch_path, which is loaded and then
 * removed. */
int io_webgraph_load(const char *path, unsigned threads, int use_transpose,
		     const char *scratch_path, uint64_t mem_limit, struct tsg_graph *g,
		     struct io_webgraph_stats *st, struct tsg_err *err);

/* Opens the crawl and its transpose BASE-t (which must exist) for a count
 * that runs while the lists are decoded: g's lists are pending and come
 * from the decoder (io_graph_read_lists: merged, placed and checked chunk
 * by chunk; the transpose is checked at the end, so a failure there voids
 * whatever was built). Degrees are known only as lists come, so g ranks
 * and plans by upper bounds (io_graph_rank_off): each node's outdegree in
 * both files, the first code of its lists, read after the offsets. */
int io_webgraph_open_stream(const char *path, unsigned threads, struct tsg_graph *g,
			    struct io_webgraph_stats *st, struct tsg_err *err);

/* Opens the crawl and its transpose BASE-t (which must exist) for ranks
 * that each read only some lists (src/ranges.h): g's lists are pending and
 * its degrees too (io_graph_degrees_pending); the offsets of both files are
 * read, the .graph files are not until io_graph_read_slice,
 * io_graph_place_slice and io_graph_read_ranges decode lists (nodes cut by
 * the bits of both files, io_graph_cut_lists). g->identity is a checksum
 * of both files' offsets and the arc count; g->lists_sec.size the bytes
 * of both .graph files. Only those calls read its lists: read whole
 * (io_graph_read_lists) it is TSG_EINTERNAL. A list that refers to lists
 * outside the ranges read decodes them too (their pages are read, and not
 * counted in the bytes). */
int io_webgraph_open_ranges(const char *path, unsigned threads, struct tsg_graph *g,
			    struct io_webgraph_stats *st, struct tsg_err *err);

/* The crawl's lists as they are (directed, self-loops kept) in g, which
 * owns them: for tests and tools, not for counting (g is no simple graph). */
int io_webgraph_read_directed(const char *path, unsigned threads, struct tsg_graph *g,
			      struct io_webgraph_stats *st, struct tsg_err *err);

/* Adds every arc u->v of the crawl (not its transpose) to b as an edge;
 * the builder makes the graph undirected, drops loops and duplicates.
 * With check_transpose, a transpose BASE-t beside the crawl is decoded too
 * and checked to be the graph's (as where the two are merged), so that a
 * wrong one is an error whichever way the crawl is read. */
int io_webgraph_feed(const char *path, unsigned threads, int check_transpose,
		     struct io_builder *b, struct io_webgraph_stats *st, struct tsg_err *err);

/* A crawl and its transpose BASE-t opened to be decoded by node ranges,
 * any number of times, in memory bounded by the caller: for counting a
 * crawl larger than the host's memory (src/sweep.h). Only the properties
 * and the offsets of both files are held (io_crawl_offsets_bytes); the
 * .graph files are mapped and read where ranges are decoded. Ranges decode
 * on as many threads as the caller runs, each with its own decoder
 * (io_crawl_dec), and need not come in order. What needs every list (the
 * arc count, the transpose being the graph's) is checked by
 * io_crawl_check on the sums of a set of ranges that cover every node
 * once. */
struct io_crawl;
struct io_crawl_dec;

int io_crawl_open(const char *path, unsigned threads, struct io_crawl **out,
		  struct io_webgraph_stats *st, struct tsg_err *err);
void io_crawl_close(struct io_crawl *c);
uint64_t io_crawl_nodes(const struct io_crawl *c);
uint64_t io_crawl_arcs(const struct io_crawl *c);    /* of the graph (and of its transpose) */
uint64_t io_crawl_identity(const struct io_crawl *c); /* the nodes, arcs and both offsets */
const char *io_crawl_name(const struct io_crawl *c);  /* BASE.graph */
/* Bits of both .graph files before node v's lists: ranges of about equal
 * decoding work are cut by them. */
uint64_t io_crawl_bits(const struct io_crawl *c, uint64_t v);
/* What io_crawl_open holds for a crawl of this many nodes. */
uint64_t io_crawl_offsets_bytes(uint64_t nodes);

/* Upper bounds of every node's merged degree (its outdegree in both
 * files, the lists' first codes; at most nodes - 1), as nodes + 1 prefix
 * offsets in *bound (malloc'd, the caller frees), with their sum and
 * largest. A range's merged lists never hold more entries than its bounds
 * add up to. */
int io_crawl_bounds(const struct io_crawl *c, unsigned threads, uint64_t **bound,
		    uint64_t *total, uint64_t *max, struct tsg_err *err);

/* A decoder for one thread; -1 when out of memory. */
int io_crawl_dec_new(const struct io_crawl *c, struct io_crawl_dec **out);
void io_crawl_dec_free(struct io_crawl_dec *d);

/* What decoded ranges add up to, for io_crawl_check. */
struct io_crawl_sums {
	uint64_t arcs; /* of both files */
	uint64_t tsum; /* + each arc of the graph, - each of the transpose reversed */
};

/* Decodes nodes lo .. hi-1 of both files and merges each node's lists:
 * off[0 .. hi-lo] (off[0] = 0) and adj (room for cap entries: the range's
 * bounds plus one) get the undirected lists, increasing, without self.
 * Each list is checked where it lies and as it decodes; the range's arcs
 * and transpose hash are added to *sums (NULL: not computed, a pass that
 * checks nothing). */
int io_crawl_decode(struct io_crawl_dec *d, uint64_t lo, uint64_t hi, uint64_t *off,
		    uint32_t *adj, uint64_t cap, struct io_crawl_sums *sums, struct tsg_err *err);

/* With the sums of ranges that covered every node once: the arc count
 * against the properties, and the transpose against the graph. */
int io_crawl_check(const struct io_crawl *c, const struct io_crawl_sums *s, struct tsg_err *err);

/* BVGraph writer parameters; io_webgraph_write_defaults gives the Java
 * implementation's: window 7, maxrefcount 3, minimum interval 4, zeta_3
 * residuals, gamma elsewhere, unary references; and one thread, chunks of
 * 2^16 nodes. Chunks are encoded in parallel, a node referring only to
 * lists of its own chunk: the file depends on chunk, not on threads. */
struct io_webgraph_wopts {
	unsigned window, maxref, minint, zetak;
	unsigned threads;  /* 0: 1 */
	uint64_t chunk;    /* nodes a chunk; 0: 2^16 */
};
void io_webgraph_write_defaults(struct io_webgraph_wopts *o);

/* Writes the graph (nv vertices, lists off/adj: each vertex's successors,
 * sorted, no duplicates) as BASE.graph, BASE.offsets and BASE.properties,
 * each atomically (io_webgraph_writer_finish). Chunks of wopts.chunk nodes,
 * a window of them encoded on wopts.threads threads, then appended. */
int io_webgraph_write(const char *base, uint64_t nv, const uint64_t *off, const uint32_t *adj,
		      const struct io_webgraph_wopts *o, struct tsg_err *err);

/* Streaming: a graph too large to hold is written chunk by chunk. A chunk
 * (consecutive nodes) is encoded on its own, by any thread, into a
 * io_webgraph_chunk (its bits, offsets and statistics, reusable), and
 * chunks are appended to the writer in node order. A node refers only to
 * lists of its own chunk, so the files depend on where chunks are cut and
 * on nothing else: cut at multiples of 2^16 they are io_webgraph_write's. */
struct io_webgraph_chunk;
struct io_webgraph_chunk *io_webgraph_chunk_new(void); /* NULL: out of memory */
void io_webgraph_chunk_free(struct io_webgraph_chunk *c);
uint64_t io_webgraph_chunk_bytes(const struct io_webgraph_chunk *c); /* memory it holds */
uint64_t io_webgraph_chunk_bits(const struct io_webgraph_chunk *c);  /* its .graph bits */

/* Encodes nodes x0 .. x0 + n - 1 into c, replacing what it held: node
 * x0 + i's successors are adj[off[i] .. off[i + 1]) (sorted, no
 * duplicates; off need not start at 0). TSG_OK, TSG_ENOMEM, or
 * TSG_EINTERNAL where a list took other bits than the reference search
 * counted for it (checked for every list: a bug, never the input). */
int io_webgraph_encode(struct io_webgraph_chunk *c, const struct io_webgraph_wopts *o, uint64_t x0,
		       uint64_t n, const uint64_t *off, const uint32_t *adj);

/* Opens BASE.graph, BASE.offsets and BASE.properties as hidden
 * temporaries (io/atomic.h); appends chunks in order (a chunk that does
 * not start at the next node is TSG_EINTERNAL; every write is checked);
 * finish writes the .properties (nodes and arcs as appended, and LAW's
 * statistics: bitsperlink, avgref, copiedarcs, bitsfor...), syncs all
 * three and only then names them, .properties last, an existing
 * BASE.properties moved aside (BASE.properties.old.XXXXXX) before the
 * first is named and removed after the last: killed between, BASE has
 * no .properties (no graph), never new files beside old ones. A failure
 * naming .graph puts the old .properties back; one after it leaves it
 * aside and says where. finish and abort free w; abort, or a failure
 * before the naming, leaves no file behind. */
struct io_webgraph_writer;

/* Removes BASE.properties where it is (nothing there is no error), so that
 * BASE is no graph to any reader until a writer names it again: before
 * the files of a graph read with BASE (its transpose BASE-t, written as
 * well) change, so that a run killed between the two sets leaves BASE
 * without a transpose (counted by sorting), never with another graph's. */
int io_webgraph_unname(const char *base, struct tsg_err *err);

int io_webgraph_writer_open(const char *base, const struct io_webgraph_wopts *o,
			    struct io_webgraph_writer **w, struct tsg_err *err);
int io_webgraph_writer_append(struct io_webgraph_writer *w, const struct io_webgraph_chunk *c,
			      struct tsg_err *err);
uint64_t io_webgraph_writer_bits(const struct io_webgraph_writer *w); /* .graph bits so far */
int io_webgraph_writer_finish(struct io_webgraph_writer *w, struct tsg_err *err);
void io_webgraph_writer_abort(struct io_webgraph_writer *w);

#endif
