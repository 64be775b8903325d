/*
 * graph.c - opening a graph file: header, offsets, room for the lists.
 * The lists themselves are read by io/lists.c.
 */
#include "io/graph.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/check.h"
#include "io/compress.h"
#include "base/util.h"

static void *alloc_section(uint64_t size)
{
	/* O_DIRECT wants aligned buffers and whole 4 KiB blocks */
	const uint64_t bytes = tsg_align_up(size ? size : 1, 4096);
	void *p = aligned_alloc(4096, bytes);
	if (p)
		tsg_advise_huge(p, bytes);
	return p;
}

/* Room for the lists: a view of the mapped file, a scratch file (bounded
 * host memory) or memory. */
static int lists_room(struct tsg_graph *g, const char *scratch_dir, struct tsg_err *err)
{
	char b[32];
	const uint64_t bytes = g->nadj * 4;
	if (!g->compressed && io_file_mode(g->file) == IO_MODE_MMAP) {
		g->adj = (const uint32_t *)(io_file_map(g->file) + g->lists_sec.offset);
		return TSG_OK;
	}
	if (scratch_dir) {
		int rc = io_scratch_map(scratch_dir, tsg_align_up(bytes ? bytes : 1, 4096),
					&g->adj_scratch, err);
		if (rc == TSG_OK)
			g->adj = g->adj_scratch->mem;
		return rc;
	}
	g->adj_mem = alloc_section(bytes);
	if (!g->adj_mem)
		return tsg_fail(err, TSG_ENOMEM, "%s: cannot allocate %s for the neighbour lists",
				io_file_path(g->file), tsg_fmt_bytes(bytes, b, sizeof(b)));
	g->adj = g->adj_mem;
	return TSG_OK;
}

/* hbuf: IO_HEADER_SIZE bytes, 4096-aligned */
static int read_header(struct io_file *f, uint8_t *hbuf, struct io_header *h, struct tsg_err *err)
{
	const uint64_t fsize = io_file_size(f);
	if (fsize < IO_HEADER_SIZE)
		return tsg_fail(err, TSG_EINPUT, "%s: file is %llu bytes, shorter than the %u-byte "
				"header (truncated, empty, or not a tristream graph)", io_file_path(f),
				(unsigned long long)fsize, IO_HEADER_SIZE);
	int rc = io_file_read(f, 0, IO_HEADER_SIZE, hbuf, err);
	if (rc == TSG_OK)
		rc = io_header_decode(hbuf, IO_HEADER_SIZE, fsize, io_file_path(f), h, err);
	return rc;
}

int io_graph_peek(const char *path, struct io_header *h, struct tsg_err *err)
{
	struct io_file *f = NULL;
	uint8_t *hbuf = alloc_section(IO_HEADER_SIZE);
	int rc = hbuf ? io_file_open(path, IO_MODE_PREAD, 0, &f, err)
		      : tsg_fail(err, TSG_ENOMEM, "out of memory");
	if (rc == TSG_OK)
		rc = read_header(f, hbuf, h, err);
	io_file_close(f);
	free(hbuf);
	return rc;
}

struct perm_ctx {
	const uint32_t *id;
	uint64_t nv;
	_Atomic uint64_t *seen;        /* a bit an id */
	atomic_uint_fast64_t bad;      /* the first rank whose id is out of range or
					* seen before, or UINT64_MAX */
};

static void perm_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct perm_ctx *c = arg;
	for (uint64_t r = b; r < e; r++) {
		const uint64_t v = c->id[r], bit = 1ull << (v & 63);
		if (v >= c->nv ||
		    (atomic_fetch_or_explicit(&c->seen[v >> 6], bit, memory_order_relaxed) & bit)) {
			tsg_atomic_min(&c->bad, r);
			return;
		}
	}
}

/* Section s of g's file in place, its checksum checked: the mapping
 * itself, or read into a buffer of its own (*mem, freed with the graph).
 * what names it in messages. */
static int section_in_place(struct tsg_graph *g, const struct io_section *s, const char *what,
			    const char *path, void **mem, const void **at, struct tsg_err *err)
{
	if (io_file_mode(g->file) == IO_MODE_MMAP) {
		*at = io_file_map(g->file) + s->offset;
	} else {
		if (!(*mem = alloc_section(s->size)))
			return tsg_fail(err, TSG_ENOMEM, "%s: cannot allocate %llu bytes for the %s",
					path, (unsigned long long)s->size, what);
		const int rc = io_file_read(g->file, s->offset, s->size, *mem, err);
		if (rc)
			return rc;
		*at = *mem;
	}
	if (io_checksum(*at, s->size) != s->xxh3)
		return tsg_fail(err, TSG_EINPUT, "%s: checksum mismatch in the %s section (file is "
				"corrupt)", path, what);
	return TSG_OK;
}

/* An oriented file's rank map: in place, its checksum, and a permutation
 * of 0 .. nv-1 (nv ids below nv, none twice). */
static int open_rank_ids(struct tsg_graph *g, const struct io_header *h, const char *path,
			 struct tsg_err *err)
{
	const void *at = NULL;
	void *mem = NULL;
	int rc = section_in_place(g, io_header_section(h, IO_SEC_RANK_IDS), "rank map", path, &mem,
				  &at, err);
	g->rank_id_mem = mem;
	if (rc)
		return rc;
	g->rank_id = at;
	struct perm_ctx c = { .id = g->rank_id, .nv = g->nv,
			      .seen = calloc((g->nv + 63) / 64 + 1, sizeof(uint64_t)) };
	if (!c.seen)
		return tsg_fail(err, TSG_ENOMEM, "%s: out of memory checking the rank map", path);
	atomic_init(&c.bad, UINT64_MAX);
	tsg_parallel_for(g->threads, g->nv, 1u << 16, perm_range, &c);
	free((void *)c.seen);
	const uint64_t bad = atomic_load(&c.bad);
	if (bad != UINT64_MAX)
		return tsg_fail(err, TSG_EINPUT, "%s: the rank map is not a permutation of the "
				"vertices (rank %llu maps to id %u, out of range or taken twice)",
				path, (unsigned long long)bad, g->rank_id[bad]);
	return TSG_OK;
}

/* A plain oriented file's row piece checksums, where it has them: in
 * place, their section checksum, and their piece size against the rows'
 * (format.h, io_row_sums_check). The header bounded the section by the
 * rows' size before this allocates it. */
static int open_row_sums(struct tsg_graph *g, const struct io_header *h, const char *path,
			 struct tsg_err *err)
{
	const struct io_section *s = io_header_section(h, IO_SEC_ROW_SUMS);
	const void *at = NULL;
	void *mem = NULL;
	if (!s)
		return TSG_OK;
	int rc = section_in_place(g, s, "row piece checksum", path, &mem, &at, err);
	g->row_sums_mem = mem;
	if (rc)
		return rc;
	const uint64_t *sums = at;
	if ((rc = io_row_sums_check(h, sums[0], path, err)))
		return rc;
	g->row_piece = sums[0];
	g->row_sums = sums + 1;
	return TSG_OK;
}

int io_graph_open(const char *path, const struct io_load_opts *opts, struct tsg_graph *g,
		  struct tsg_err *err)
{
	memset(g, 0, sizeof(*g));
	uint8_t *hbuf = alloc_section(IO_HEADER_SIZE);
	struct io_header h;
	const double t0 = tsg_now();
	int rc = hbuf ? TSG_OK : tsg_fail(err, TSG_ENOMEM, "out of memory");
	if (rc)
		goto fail;
	g->threads = opts->threads ? opts->threads : 1;
	g->progress = opts->progress;
	rc = io_file_open(path, opts->io, opts->cached_map ? IO_OPEN_CACHED_MAP : 0, &g->file,
			  err);
	if (rc)
		goto fail;
	rc = read_header(g->file, hbuf, &h, err);
	if (rc)
		goto fail;
	g->oriented = (h.flags & IO_FLAG_ORIENTED) != 0;
	if (g->oriented && !opts->oriented) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: an oriented .tsg (tristream-convert --oriented: "
			      "each edge once, in rank order): this command needs the undirected "
			      "lists (tristream count, info, compress and decompress read it; convert the original input "
			      "without --oriented for the rest)", path);
		goto fail;
	}
	g->nv = h.nv;
	g->nadj = h.nadj;
	g->max_degree = g->oriented ? h.max_out : h.max_degree;
	g->degree_hint = h.max_degree;
	g->identity = h.hcheck;
	g->io_used = io_file_mode(g->file);
	g->io_cached = io_file_cached(g->file);
	g->compressed = (h.flags & IO_FLAG_LZ4) != 0;
	snprintf(g->io_note, sizeof(g->io_note), "%s", io_file_note(g->file));
	const struct io_section *os = io_header_section(&h, IO_SEC_OFFSETS);
	if (g->io_used == IO_MODE_MMAP) {
		g->off = (const uint64_t *)(io_file_map(g->file) + os->offset);
	} else {
		g->off_mem = alloc_section(os->size);
		if (!g->off_mem) {
			rc = tsg_fail(err, TSG_ENOMEM, "%s: cannot allocate %llu bytes for the offsets",
				      path, (unsigned long long)os->size);
			goto fail;
		}
		rc = io_file_read(g->file, os->offset, os->size, g->off_mem, err);
		if (rc)
			goto fail;
		g->off = g->off_mem;
	}
	if (io_checksum(g->off, os->size) != os->xxh3) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: checksum mismatch in the offset section (file "
			      "is corrupt)", path);
		goto fail;
	}
	rc = io_check_offsets(g, path, g->threads, err);
	if (rc == TSG_OK && g->oriented)
		rc = open_rank_ids(g, &h, path, err);
	if (rc == TSG_OK && g->oriented)
		rc = open_row_sums(g, &h, path, err);
	if (rc)
		goto fail;
	if (g->compressed) {
		g->lists_sec = *io_header_section(&h, IO_SEC_NEIGHBORS_LZ4);
		g->index_sec = *io_header_section(&h, IO_SEC_CHUNKS);
	} else {
		g->lists_sec = *io_header_section(&h, IO_SEC_NEIGHBORS);
	}
	rc = lists_room(g, opts->scratch_dir, err);
	if (rc)
		goto fail;
	g->lists_pending = 1;
	g->read_seconds = tsg_now() - t0;
	free(hbuf);
	return TSG_OK;
fail:
	free(hbuf);
	io_graph_free(g);
	return rc;
}

int io_graph_load(const char *path, const struct io_load_opts *opts, struct tsg_graph *g,
		  struct tsg_err *err)
{
	int rc = io_graph_open(path, opts, g, err);
	if (rc == TSG_OK)
		rc = io_graph_read_lists(g, NULL, NULL, err);
	if (rc)
		io_graph_free(g);
	return rc;
}

const char *io_graph_name(const struct tsg_graph *g)
{
	if (g->file)
		return io_file_path(g->file);
	return g->lists_src && g->lists_src->name ? g->lists_src->name : "graph";
}

void io_graph_free(struct tsg_graph *g)
{
	if (g->lists_src) /* first: a decoder may still be writing the lists */
		g->lists_src->release(g->lists_src);
	free(g->off_mem);
	free(g->adj_mem);
	io_scratch_unmap(g->adj_scratch);
	io_file_close(g->file);
	free(g->rank_off);
	free(g->chunks_read);
	free(g->rank_id_mem);
	free(g->row_sums_mem);
	free(g->id_degree);
	free(g->reached);
	memset(g, 0, sizeof(*g));
}

/* Ranks from hot_lo up (the highest degrees: ranks follow degree, and an
 * entry points up, so most entries land there) are counted in each
 * thread's own counters, hot_n of them a thread, and summed after; the
 * others atomically. With every entry an atomic add, 32 threads queued on
 * the hubs' words: `tristream info` of R-MAT 26 stored oriented took
 * 2.87-3.44 s, longer than a count of it (two H200s' host, 32 cores,
 * bench/raw/h200x2-2026-11-29-s55-callA/summary.txt). */
#define DEG_HOT_MOST (1u << 18)

struct deg_ctx {
	const struct tsg_graph *g;
	uint32_t *by_rank, *by_id;
	uint32_t *hot;    /* [threads][hot_n], or NULL: every count atomic */
	uint64_t hot_lo, hot_n;
	unsigned threads;
};

static inline void deg_add(const struct deg_ctx *c, uint32_t *mine, uint64_t rank, uint32_t n)
{
	if (mine && rank >= c->hot_lo)
		mine[rank - c->hot_lo] += n;
	else
		__atomic_fetch_add(&c->by_rank[rank], n, __ATOMIC_RELAXED);
}

/* Every row's entries each add one to their rank's in-degree, and every
 * row its length to its own rank's. */
static void deg_rows(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	const struct deg_ctx *c = arg;
	const struct tsg_graph *g = c->g;
	uint32_t *mine = c->threads == 1 ? c->by_rank /* hot_lo 0: all its own */
			 : c->hot ? c->hot + (uint64_t)tid * c->hot_n : NULL;
	for (uint64_t r = b; r < e; r++) {
		for (uint64_t x = g->off[r]; x < g->off[r + 1]; x++)
			deg_add(c, mine, g->adj[x], 1);
		deg_add(c, mine, r, (uint32_t)(g->off[r + 1] - g->off[r]));
	}
}

/* The threads' own counts of the hot ranks into by_rank. */
static void deg_hot_sum(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct deg_ctx *c = arg;
	for (uint64_t i = b; i < e; i++) {
		uint32_t sum = 0;
		for (unsigned t = 0; t < c->threads; t++)
			sum += c->hot[(uint64_t)t * c->hot_n + i];
		c->by_rank[c->hot_lo + i] += sum;
	}
}

static void deg_scatter(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct deg_ctx *c = arg;
	for (uint64_t r = b; r < e; r++)
		c->by_id[c->g->rank_id[r]] = c->by_rank[r];
}

int io_graph_load_degrees(struct tsg_graph *g, unsigned threads, struct tsg_err *err)
{
	if (!g->oriented || g->id_degree)
		return TSG_OK;
	if (g->lists_pending)
		return tsg_fail(err, TSG_EINTERNAL, "degrees of an oriented graph before its rows");
	const uint64_t n = g->nv ? g->nv : 1;
	struct deg_ctx c = { .g = g, .by_rank = calloc(n, sizeof(uint32_t)),
			     .by_id = malloc(n * sizeof(uint32_t)) };
	if (!c.by_rank || !c.by_id) {
		free(c.by_rank);
		free(c.by_id);
		return tsg_fail(err, TSG_ENOMEM, "%s: out of memory for the degrees of %llu vertices",
				io_graph_name(g), (unsigned long long)g->nv);
	}
	c.threads = threads ? threads : 1;
	if (c.threads > 1) { /* (one thread counts into by_rank itself) */
		c.hot_n = g->nv < DEG_HOT_MOST ? g->nv : DEG_HOT_MOST;
		c.hot_lo = g->nv - c.hot_n;
		c.hot = calloc(c.threads * c.hot_n + 1, sizeof(uint32_t)); /* NULL: all atomic */
	}
	tsg_parallel_for(c.threads, g->nv, 1u << 12, deg_rows, &c);
	if (c.hot)
		tsg_parallel_for(c.threads, c.hot_n, 1u << 12, deg_hot_sum, &c);
	tsg_parallel_for(c.threads, g->nv, 1u << 16, deg_scatter, &c);
	free(c.hot);
	free(c.by_rank);
	g->id_degree = c.by_id;
	return TSG_OK;
}

/* The vertices with an edge: rows that are not empty; an oriented graph's
 * degrees where known, else rows that are not empty and the empty ones
 * some row reaches (marked in reached, a bit a rank). */
struct with_ctx {
	const struct tsg_graph *g;
	_Atomic uint64_t *reached; /* NULL: no marking */
	int marked;                /* reached is g's, complete: nothing to mark */
	atomic_uint_fast64_t n;
};

/* Marks the ranks rows b .. e-1 reach. */
static void mark_reached(const struct tsg_graph *g, _Atomic uint64_t *reached, uint64_t b,
			 uint64_t e)
{
	for (uint64_t x = g->off[b]; x < g->off[e]; x++) {
		const uint32_t w = g->adj[x];
		const uint64_t bit = 1ull << (w & 63);
		/* looked at first: most targets are marked already */
		if (!(atomic_load_explicit(&reached[w >> 6], memory_order_relaxed) & bit))
			atomic_fetch_or_explicit(&reached[w >> 6], bit, memory_order_relaxed);
	}
}

int io_graph_reach_begin(struct tsg_graph *g)
{
	if (!g->oriented || g->reached)
		return g->reached != NULL;
	g->reached = calloc((g->nv + 63) / 64 + 1, sizeof(*g->reached));
	g->reached_full = 0;
	return g->reached != NULL;
}

void io_graph_reach_rows(struct tsg_graph *g, uint64_t b, uint64_t e)
{
	if (g->reached)
		mark_reached(g, (_Atomic uint64_t *)g->reached, b, e);
}

void io_graph_reach_done(struct tsg_graph *g)
{
	g->reached_full = g->reached != NULL;
}

static void with_rows(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct with_ctx *c = arg;
	const struct tsg_graph *g = c->g;
	uint64_t n = 0;
	for (uint64_t v = b; v < e; v++)
		n += g->id_degree ? g->id_degree[v] != 0 : g->off[v + 1] != g->off[v];
	atomic_fetch_add(&c->n, n);
	if (c->reached && !c->marked)
		mark_reached(g, c->reached, b, e);
}

static void with_reached(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct with_ctx *c = arg;
	const uint64_t *off = c->g->off;
	uint64_t n = 0;
	for (uint64_t r = b; r < e; r++)
		n += off[r + 1] == off[r] &&
		     (atomic_load_explicit(&c->reached[r >> 6], memory_order_relaxed) >> (r & 63) & 1);
	atomic_fetch_add(&c->n, n);
}

uint64_t io_graph_vertices_with_edges(const struct tsg_graph *g, unsigned threads)
{
	if (!g->off || g->nv == 0)
		return 0;
	threads = threads ? threads : 1;
	struct with_ctx c = { .g = g };
	atomic_init(&c.n, 0);
	if (g->oriented && !g->id_degree && g->reached && g->reached_full) {
		c.reached = (_Atomic uint64_t *)g->reached; /* marked as the rows came */
		c.marked = 1;
	} else if (g->oriented && !g->id_degree) {
		if (g->lists_pending || !g->adj)
			return UINT64_MAX;
		c.reached = calloc((g->nv + 63) / 64 + 1, sizeof(*c.reached));
		if (!c.reached)
			return UINT64_MAX;
	}
	tsg_parallel_for(threads, g->nv, 1u << 14, with_rows, &c);
	if (c.reached)
		tsg_parallel_for(threads, g->nv, 1u << 16, with_reached, &c);
	if (!c.marked)
		free((void *)c.reached);
	return atomic_load(&c.n);
}

void io_graph_adopt(struct tsg_graph *g, uint64_t nv, uint64_t *off, uint32_t *adj,
		    uint64_t max_degree, unsigned threads)
{
	memset(g, 0, sizeof(*g));
	g->nv = nv;
	g->nadj = off[nv];
	g->max_degree = max_degree;
	g->off = g->off_mem = off;
	g->adj = g->adj_mem = adj;
	g->io_cached = -1; /* read from no file */
	g->threads = threads;
}
