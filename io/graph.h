/*
 * graph.h - a canonical undirected graph in CSR form, loaded from a file.
 *
 * Loading validates everything a count depends on, so no later stage has to:
 * header and section checksums, monotone offsets ending at nadj, ids in
 * range, strictly increasing lists without self-loops, and symmetry (every
 * u->v has its v->u; checked in one streaming pass with a signed edge hash).
 * A file that passes cannot make the count wrong; one that fails gives a
 * TSG_EINPUT error naming the file and the first offending vertex.
 *
 * An oriented file (format.h, IO_FLAG_ORIENTED) loads as its DAG instead,
 * where the caller takes one (io_load_opts.oriented): off and adj are the
 * rows of the ranks, each strictly increasing and above its rank, every
 * edge once (nadj edges), and rank_id maps each rank to its vertex id, a
 * permutation; max_degree is then the largest row. Those are its checks
 * (no symmetry to check): any total order counts exactly, the rank order
 * only bounds the work.
 *
 * Loading comes in two steps so that work can start before the lists are
 * in memory: io_graph_open reads and checks the header and the offsets
 * (degrees, so ranks, are known then), io_graph_read_lists reads the lists
 * and hands each checked stretch of vertices to a callback while the rest
 * is still on its way from the disk (or being decompressed).
 */
#ifndef IO_GRAPH_H
#define IO_GRAPH_H

#include <stdatomic.h>
#include <stdint.h>

#include "base/error.h"
#include "io/format.h"
#include "io/reader.h"
#include "io/scratch.h"

/* Called with vertices b .. e-1, whose lists are in place and checked (ids
 * in range, increasing, no self-loop), on worker tid < the load's threads.
 * Ranges come in about file order, each once, several at a time. */
typedef void (*io_rows_fn)(void *ctx, uint64_t b, uint64_t e, unsigned tid);

struct tsg_graph;

/* Vertices b .. e-1. */
struct io_vrange {
	uint64_t b, e;
};

/* Lists that come from a decoder, not from a .tsg file: a crawl decoded
 * with its transpose (io/webgraph.h). read places each range's lists and
 * offsets before rows sees it, and sets nadj and max_degree once all are
 * in, as io_graph_read_lists does for a file; release frees the decoder.
 * A decoder that ranks can read in part (io_webgraph_open_ranges) also
 * has the steps of io_graph_cut_lists, io_graph_read_slice,
 * io_graph_place_slice and io_graph_read_ranges (NULL: it has not; read
 * is then the only way in): weights (nv + 1 increasing: what is read
 * before each vertex's list, by which slices are cut), slice (decoded,
 * not yet placed: deg gets their degrees, sums what the slices add up
 * to), place (every
 * vertex's degree known: offsets laid out, the slice put in place) and
 * ranges (into their places, each list's length checked against deg). */
struct io_lists_src {
	int (*read)(struct io_lists_src *s, struct tsg_graph *g, io_rows_fn rows, void *ctx,
		    struct tsg_err *err);
	void (*release)(struct io_lists_src *s);
	const uint64_t *(*weights)(const struct io_lists_src *s);
	int (*slice)(struct io_lists_src *s, uint64_t b, uint64_t e, uint32_t *deg,
		     uint64_t sums[2], uint64_t *bytes, struct tsg_err *err);
	int (*place)(struct io_lists_src *s, struct tsg_graph *g, const uint32_t *deg,
		     const uint64_t sums[2], struct tsg_err *err);
	int (*ranges)(struct io_lists_src *s, const struct io_vrange *r, uint64_t n,
		      uint64_t *bytes, struct tsg_err *err);
	const char *name;        /* for messages: the file it decodes, or NULL */
};

struct tsg_graph {
	uint64_t nv;         /* vertices; ids are 0 .. nv-1 */
	uint64_t nadj;       /* list entries, twice the undirected edges (oriented:
			      * the edges, each once) */
	uint64_t max_degree; /* the longest list (oriented: row) */
	const uint64_t *off; /* nv + 1 row offsets */
	const uint32_t *adj; /* nadj neighbour ids */
	/* ownership: either owned buffers or the mapped file */
	void *off_mem, *adj_mem;
	struct io_file *file;
	enum io_mode io_used; /* after any fallback; IO_MODE_AUTO: read from no file */
	double io_cached;    /* share in the page cache when --io auto chose, or -1
			      * (another mode, or a graph built in memory) */
	int compressed;      /* the file's lists were LZ4 chunks, decoded on load */
	int lists_pending;   /* opened; io_graph_read_lists has not run yet */
	struct io_section lists_sec, index_sec; /* where the lists lie in the file */
	struct io_scratch *adj_scratch; /* decoded lists in a scratch file, or NULL */
	unsigned threads;
	int progress;
	char io_note[256];   /* why the reader fell back, or "" */
	uint64_t identity;   /* the file's header checksum (format.h, hcheck); 0 for a
			      * graph built in memory */
	double read_seconds, check_seconds;
	/* A graph whose degrees are not known before its lists (a crawl:
	 * lists_src) ranks and plans by upper bounds of them: rank_off, nv + 1
	 * offsets of those bounds (owned), with their sum and maximum. Any
	 * total order counts exactly; everything ranked must rank the same
	 * way, so rank_off stays once something was built from the lists as
	 * they came (rows), and goes where they were read whole first. NULL:
	 * off serves (io_graph_rank_off). */
	uint64_t *rank_off;
	uint64_t rank_nadj, rank_max_degree;
	struct io_lists_src *lists_src; /* while lists_pending, or NULL: the file */
	/* LZ4 lists read by ranges: a flag for each chunk decoded so far, so a
	 * chunk that two calls' ranges share is read once (io/ranges.c) */
	uint8_t *chunks_read;
	/* an oriented file (see above): rows by rank, and the id of each rank
	 * (mapped, or rank_id_mem); degree_hint is the header's maximum degree
	 * of the undirected graph, unchecked (format.h); id_degree, once
	 * io_graph_load_degrees ran, each id's undirected degree (owned) */
	int oriented;
	const uint32_t *rank_id;
	void *rank_id_mem;
	uint64_t degree_hint;
	uint32_t *id_degree;
	/* a plain oriented file's row piece checksums (format.h, IO_SEC_ROW_SUMS),
	 * checked against their section checksum and the rows' size at open:
	 * row_sums[k] is the XXH3-64 of bytes k * row_piece .. (k + 1) *
	 * row_piece - 1 of lists_sec (the last piece short), mapped or in
	 * row_sums_mem (owned). NULL: none (LZ4 rows, another kind of file, or
	 * one written before them) */
	uint64_t row_piece;
	const uint64_t *row_sums;
	void *row_sums_mem;
	/* an oriented graph's ranks that some row reaches, a bit each, marked
	 * as its rows came (io_graph_reach_rows; owned), complete once
	 * reached_full: io_graph_vertices_with_edges then needs no pass */
	uint64_t *reached;
	int reached_full;
};

struct io_load_opts {
	enum io_mode io;
	unsigned threads;
	int progress;            /* bytes read, rate and ETA on stderr */
	const char *scratch_dir; /* non-NULL: a buffer for decoded lists is a file
				  * there, not memory (bounded host memory) */
	int oriented;            /* an oriented file is taken as its DAG (g->oriented);
				  * 0: refused (TSG_EINPUT, naming the file), as by
				  * every reader that needs the undirected lists */
	int cached_map;          /* under IO_MODE_AUTO, a file in the page cache is
				  * mapped (IO_OPEN_CACHED_MAP), not copied out */
};

/* g's name in messages: its file, or its decoder's. */
const char *io_graph_name(const struct tsg_graph *g);

/* Reads and checks path's header only: what a graph needs is known
 * before anything is allocated for it. */
int io_graph_peek(const char *path, struct io_header *h, struct tsg_err *err);

/* Opens path: reads and checks the header and the offsets, and makes room
 * for the lists (their bytes, unless mapped). The graph's degrees are
 * usable; its lists are not until io_graph_read_lists. */
int io_graph_open(const char *path, const struct io_load_opts *opts, struct tsg_graph *g,
		  struct tsg_err *err);

/* Reads the lists of an opened graph, checking (and decoding) them on the
 * load's threads as they arrive and passing each checked range to rows
 * (NULL: none) while the rest is still being read. Then finishes the checks
 * that need everything (section checksum, symmetry). On an error rows may
 * have seen some ranges, and what it built from them must be dropped. */
int io_graph_read_lists(struct tsg_graph *g, io_rows_fn rows, void *ctx, struct tsg_err *err);
/* The same for an oriented file's rows (plain or LZ4 chunks), read from
 * the section's end down (io_file_read_stream_down): rows reaches the
 * ranges in about decreasing rank order, the top ranks first. Plain rows
 * with piece checksums (g->row_sums) have each piece checked as soon as it
 * is in, on a thread of its own, the top piece first; the section's own
 * checksum can only be taken in file order, so without them it is taken
 * once every row is in. LZ4 chunks are checked each on its own, as they
 * come. A mismatch is TSG_EINPUT naming the file (and the piece) once the
 * read has ended, as for the other checks. TSG_EINTERNAL for any other
 * graph. */
int io_graph_read_lists_down(struct tsg_graph *g, io_rows_fn rows, void *ctx,
			     struct tsg_err *err);
/* Either of the two (down: io_graph_read_lists_down), stopped once *halt
 * (NULL: never) reads nonzero: no further read is issued, the load's
 * threads end, and it returns TSG_EINTERRUPTED ("read stopped"), the lists
 * still pending (a later read starts over), unless the read had ended
 * first (then its own verdict). Not for a decoder's lists (TSG_EINTERNAL).
 * Why: a read begun before the work it feeds is settled (src/lists_bg.h)
 * is stopped when that work is refused, not waited for to the file's end. */
int io_graph_read_lists_until(struct tsg_graph *g, io_rows_fn rows, void *ctx, int down,
			      const atomic_int *halt, struct tsg_err *err);

/* Reads only the lists of the vertex ranges r[0 .. n) (increasing, not
 * overlapping) of an opened .tsg whose lists are still pending, into their
 * places (a mapped plain file: their pages only), and checks them as
 * io_graph_read_lists does, but for the two checks that need every list:
 * a plain file's lists' checksum is not checked (an LZ4 file's chunks each
 * are, as they are decoded), and the ranges' symmetry hash is added to
 * *sym (ranges that together hold every list once sum to 0 on a symmetric
 * graph). An LZ4 file decodes the chunks that hold the ranges' vertices
 * (whole chunks: some vertices around the ranges come too), each once over
 * all calls. The bytes read (plain lists, or compressed chunks) are added
 * to *bytes. The graph's other lists stay unread and undefined, and
 * lists_pending stays set: a later io_graph_read_lists reads them all.
 * A crawl opened by ranges (io_lists_src.ranges) decodes the ranges' lists
 * into their places once io_graph_place_slice has laid them out; bytes are
 * then the .graph files' bits the lists span, in both files. Other crawls'
 * lists are TSG_EINTERNAL. */
int io_graph_read_ranges(struct tsg_graph *g, const struct io_vrange *r, uint64_t n,
			 uint64_t *sym, uint64_t *bytes, struct tsg_err *err);

/* Reading by ranges starts with a slice: ranks that each read one of n
 * slices (cut[q] .. cut[q + 1], cut[0] = 0, cut[n] = nv, about equal
 * bytes to read, in file order) read every list once between them. */
void io_graph_cut_lists(const struct tsg_graph *g, uint32_t n, uint64_t *cut);

/* Reads the slice b .. e-1 of an opened graph whose lists are pending and
 * gives its degrees, deg[0 .. e-b). For a file it is io_graph_read_ranges
 * of that one range (its symmetry hash added to *sym, sums zero). Where
 * io_graph_degrees_pending, the slice's lists are decoded but not placed
 * and no offset is known yet: every slice's degrees go to
 * io_graph_place_slice, with sums[0 .. 1] added up over all slices (mod
 * 2^64). */
int io_graph_read_slice(struct tsg_graph *g, uint64_t b, uint64_t e, uint32_t *deg,
			uint64_t sums[2], uint64_t *sym, uint64_t *bytes, struct tsg_err *err);

/* Whether g's degrees come from its slices (a crawl opened by ranges). */
static inline int io_graph_degrees_pending(const struct tsg_graph *g)
{
	return g->lists_src && g->lists_src->place;
}

/* With deg[v] for every vertex and the slices' sums added up: checks the
 * sums (the whole file's arc count; the transpose's arcs against the
 * graph's), lays out g's offsets (nadj, max_degree), puts the slice of the
 * last io_graph_read_slice in place and checks its lists (*sym as
 * io_graph_read_ranges). Every rank given the same deg and sums reaches
 * the same verdict on them. */
int io_graph_place_slice(struct tsg_graph *g, const uint32_t *deg, const uint64_t sums[2],
			 uint64_t b, uint64_t e, uint64_t *sym, struct tsg_err *err);

/* io_graph_open and io_graph_read_lists with no callback. */
int io_graph_load(const char *path, const struct io_load_opts *opts, struct tsg_graph *g,
		  struct tsg_err *err);

void io_graph_free(struct tsg_graph *g);

/* g becomes the graph of the malloc'd arrays off (nv + 1) and adj, which
 * it owns from here on (io_graph_free frees them): a graph built in
 * memory, with no file behind it. */
void io_graph_adopt(struct tsg_graph *g, uint64_t nv, uint64_t *off, uint32_t *adj,
		    uint64_t max_degree, unsigned threads);

/* The offsets, sum and maximum of the degrees that ranks and plans use:
 * g's own, or the upper bounds of a graph whose lists come later. */
static inline const uint64_t *io_graph_rank_off(const struct tsg_graph *g)
{
	return g->rank_off ? g->rank_off : g->off;
}

static inline uint64_t io_graph_rank_nadj(const struct tsg_graph *g)
{
	return g->rank_off ? g->rank_nadj : g->nadj;
}

static inline uint64_t io_graph_rank_max_degree(const struct tsg_graph *g)
{
	return g->rank_off ? g->rank_max_degree : g->max_degree;
}

static inline uint64_t io_graph_degree(const struct tsg_graph *g, uint64_t v)
{
	return g->off[v + 1] - g->off[v];
}

/* The undirected graph's edges: half the list entries, or an oriented
 * graph's rows' entries. */
static inline uint64_t io_graph_edges(const struct tsg_graph *g)
{
	return g->oriented ? g->nadj : g->nadj / 2;
}

/* An oriented graph's undirected degree of each id, out- plus in-degree
 * of its rank (g->id_degree; one pass over the rows): for what reports
 * degrees by id (per-vertex counts, clustering, info). A no-op for an
 * undirected graph, whose lists are the degrees, or once done. Needs the
 * lists in place. */
int io_graph_load_degrees(struct tsg_graph *g, unsigned threads, struct tsg_err *err);

/* Vertex id v's undirected degree: its list's length, or for an oriented
 * graph g->id_degree[v] (io_graph_load_degrees must have run). */
static inline uint64_t io_graph_id_degree(const struct tsg_graph *g, uint64_t v)
{
	return g->oriented ? g->id_degree[v] : g->off[v + 1] - g->off[v];
}

/* The vertices with at least one edge (a text file's ids need not be
 * dense), on `threads` threads. An oriented graph's needs its rows (one
 * pass over them, unless id_degree is there): UINT64_MAX where they are
 * pending or no memory could be had for the pass. */
uint64_t io_graph_vertices_with_edges(const struct tsg_graph *g, unsigned threads);

/* That pass made as an oriented graph's rows arrive, on the threads that
 * check them (src/lists_bg.h): io_graph_reach_begin makes the bitmap (0 if
 * no memory: the pass is then made later, as without it), each range of
 * rows is marked once (any thread), and io_graph_reach_done, once every
 * row was, lets io_graph_vertices_with_edges count the bits instead. */
int io_graph_reach_begin(struct tsg_graph *g);
void io_graph_reach_rows(struct tsg_graph *g, uint64_t b, uint64_t e);
void io_graph_reach_done(struct tsg_graph *g);

#endif
