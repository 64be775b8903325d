/*
 * ranges.c - reading only some of a graph's lists (io_graph_read_ranges).
 *
 * Several MPI ranks that each count a share of the units need only the
 * lists of the rows those units hold (src/ranges.h). This reads the lists
 * of given vertex ranges into their places in the graph's buffer (or, from
 * a mapped file, touches only their pages), and checks each list as a whole
 * read does, all but the two checks that need every list: the section's
 * checksum, which covers it whole and cannot be split, and symmetry, whose
 * signed hash it returns so that ranks that read disjoint ranges covering
 * every list can add theirs up and check it together. An LZ4 file's lists
 * come in whole chunks: every chunk that holds a vertex of a range is read
 * (a run of consecutive chunks at once), checked against its checksum and
 * decoded into place on the load's threads, once over all calls.
 */
#include "io/graph.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "io/check.h"
#include "io/compress.h"
#include "base/util.h"

struct check_job {
	const struct tsg_graph *g;
	uint64_t b;                 /* first vertex */
	atomic_uint_fast64_t bad;   /* the lowest bad vertex seen, or UINT64_MAX */
	atomic_uint_fast64_t sym;
};

enum { CHECK_GRAIN = 4096 };

static void check_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct check_job *j = ctx;
	uint64_t sym = 0;
	const uint64_t bad = io_check_lists(j->g, j->b + b, j->b + e, &sym);
	atomic_fetch_add(&j->sym, sym);
	uint64_t seen = atomic_load(&j->bad);
	while (bad < seen && !atomic_compare_exchange_weak(&j->bad, &seen, bad))
		;
}

/* Brings the lists of b .. e-1 into g->adj: read (whole 4 KiB blocks, as
 * O_DIRECT wants) into the buffer, or nothing to do for a mapping. */
static int read_one(struct tsg_graph *g, uint64_t b, uint64_t e, uint64_t *bytes,
		    struct tsg_err *err)
{
	const uint64_t lo = g->off[b] * 4, hi = g->off[e] * 4;
	if (hi == lo)
		return TSG_OK;
	*bytes += hi - lo;
	if (io_file_mode(g->file) == IO_MODE_MMAP)
		return TSG_OK; /* the checks fault the pages in */
	uint8_t *const out = g->adj_mem ? g->adj_mem : g->adj_scratch->mem;
	const uint64_t at = lo & ~(uint64_t)4095; /* the section starts on a block */
	return io_file_read(g->file, g->lists_sec.offset + at, hi - at, out + at, err);
}

/* The LZ4 chunks' state for one call: the index, the compressed bytes
 * (a buffer as large as the section, of which only the chunks read are
 * filled; a mapped file's own pages), a decoding scratch a thread, and the
 * chunks to decode; the lowest bad chunk (index * 2, + 1 if its checksum
 * held and its LZ4 data did not), or UINT64_MAX. */
struct zread {
	struct tsg_graph *g;
	struct io_lz4_index ix;
	uint8_t *zmem;
	const uint8_t *data;
	uint8_t **scratch;
	unsigned threads;
	uint64_t *list, nlist;
	atomic_uint_fast64_t bad;
};

static int zread_open(struct tsg_graph *g, struct zread *z, struct tsg_err *err)
{
	const uint64_t size = g->lists_sec.size;
	z->g = g;
	z->threads = g->threads ? g->threads : 1;
	atomic_init(&z->bad, UINT64_MAX);
	int rc = io_lz4_index_read(g->file, &g->index_sec, g->nv, g->off, size, &z->ix, err);
	if (rc)
		return rc;
	if (!g->chunks_read)
		g->chunks_read = calloc(z->ix.n ? z->ix.n : 1, 1);
	z->list = malloc((z->ix.n ? z->ix.n : 1) * sizeof(*z->list));
	z->scratch = calloc(z->threads, sizeof(*z->scratch));
	for (unsigned t = 0; z->scratch && t < z->threads; t++)
		if (!(z->scratch[t] = malloc(z->ix.biggest ? z->ix.biggest : 1)))
			break;
	if (io_file_mode(g->file) == IO_MODE_MMAP)
		z->data = io_file_map(g->file) + g->lists_sec.offset;
	else
		z->data = z->zmem = aligned_alloc(4096, tsg_align_up(size + 1, 4096));
	if (!g->chunks_read || !z->list || !z->scratch || !z->scratch[z->threads - 1] || !z->data)
		return tsg_fail(err, TSG_ENOMEM, "out of memory for %llu compressed bytes",
				(unsigned long long)size);
	return TSG_OK;
}

static void zread_close(struct zread *z)
{
	io_lz4_index_free(&z->ix);
	free(z->zmem);
	for (unsigned t = 0; z->scratch && t < z->threads; t++)
		free(z->scratch[t]);
	free(z->scratch);
	free(z->list);
}

/* Lists the chunks holding a vertex of the ranges that no call decoded
 * yet, in order, each once (chunks hold whole vertices). */
static void zread_collect(struct zread *z, const struct io_vrange *r, uint64_t n)
{
	const struct io_lz4_index *ix = &z->ix;
	z->nlist = 0;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t i = 0, hi = ix->n; /* the first chunk ending after r[k].b */
		while (i < hi) {
			const uint64_t m = i + (hi - i) / 2;
			if (ix->ch[m].v1 <= r[k].b)
				i = m + 1;
			else
				hi = m;
		}
		for (; r[k].b < r[k].e && i < ix->n && ix->ch[i].v0 < r[k].e; i++)
			if (!z->g->chunks_read[i] && (z->nlist == 0 || z->list[z->nlist - 1] != i))
				z->list[z->nlist++] = i;
	}
}

/* Reads the listed chunks' compressed bytes: each run of consecutive
 * chunks in one read, of whole 4 KiB blocks. */
static int zread_bytes(struct zread *z, struct tsg_err *err)
{
	const struct io_lz4_chunk *ch = z->ix.ch;
	for (uint64_t k = 0; z->zmem && k < z->nlist;) {
		uint64_t j = k + 1;
		while (j < z->nlist && z->list[j] == z->list[j - 1] + 1)
			j++;
		const struct io_lz4_chunk *last = &ch[z->list[j - 1]];
		const uint64_t at = ch[z->list[k]].pos & ~(uint64_t)4095;
		const int rc = io_file_read(z->g->file, z->g->lists_sec.offset + at,
					    last->pos + last->csize - at, z->zmem + at, err);
		if (rc)
			return rc;
		k = j;
	}
	return TSG_OK;
}

/* Checks and decodes listed chunks b .. e-1 into place (tsg_parallel_for). */
static void zread_decode(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	struct zread *z = ctx;
	struct tsg_graph *g = z->g;
	uint32_t *const out = g->adj_mem ? g->adj_mem : g->adj_scratch->mem;
	for (uint64_t k = b; k < e; k++) {
		const enum io_lz4_status st = io_lz4_decode_chunk(&z->ix, z->list[k], g->off, z->data,
								  out, z->scratch[tid]);
		const uint64_t bad = z->list[k] * 2 + (st == IO_LZ4_BAD_DATA);
		uint64_t seen = atomic_load(&z->bad);
		while (st != IO_LZ4_OK && bad < seen &&
		       !atomic_compare_exchange_weak(&z->bad, &seen, bad))
			;
	}
}

/* The LZ4 file's part of a call: every chunk the ranges need, read,
 * checked and decoded on the load's threads, each once over all calls. */
static int read_chunks(struct tsg_graph *g, const struct io_vrange *r, uint64_t n,
		       uint64_t *bytes, struct tsg_err *err)
{
	struct zread z = { 0 };
	int rc = zread_open(g, &z, err);
	if (rc == TSG_OK) {
		zread_collect(&z, r, n);
		rc = zread_bytes(&z, err);
	}
	if (rc == TSG_OK)
		tsg_parallel_for(z.threads, z.nlist, 1, zread_decode, &z);
	const uint64_t bad = atomic_load(&z.bad);
	if (rc == TSG_OK && bad != UINT64_MAX)
		rc = io_lz4_chunk_fail(io_file_path(g->file), &z.ix, bad / 2,
				       bad & 1 ? IO_LZ4_BAD_DATA : IO_LZ4_BAD_SUM, err);
	for (uint64_t k = 0; rc == TSG_OK && k < z.nlist; k++) {
		g->chunks_read[z.list[k]] = 1;
		*bytes += z.ix.ch[z.list[k]].csize;
	}
	zread_close(&z);
	return rc;
}

/* The list rules for b .. e-1, whose lists are in place, on the load's
 * threads; their symmetry hash added to *sym. */
static int check_lists(const struct tsg_graph *g, const char *path, uint64_t b, uint64_t e,
		       uint64_t *sym, struct tsg_err *err)
{
	struct check_job j = { .g = g, .b = b };
	atomic_init(&j.bad, UINT64_MAX);
	atomic_init(&j.sym, 0);
	tsg_parallel_for(g->threads ? g->threads : 1, e - b, CHECK_GRAIN, check_range, &j);
	*sym += atomic_load(&j.sym);
	if (atomic_load(&j.bad) != UINT64_MAX)
		return io_check_fail_vertex(path, atomic_load(&j.bad), err);
	return TSG_OK;
}

int io_graph_read_ranges(struct tsg_graph *g, const struct io_vrange *r, uint64_t n,
			 uint64_t *sym, uint64_t *bytes, struct tsg_err *err)
{
	const char *path = io_graph_name(g);
	const int decoded = g->lists_src && g->lists_src->ranges;
	if (!g->lists_pending || (g->lists_src && !decoded) || (!g->file && !decoded))
		return tsg_fail(err, TSG_EINTERNAL, "%s: only a file's or a crawl's unread lists "
				"can be read by ranges", path);
	if (g->oriented) /* its rows are read whole (src/ranges.h reads lists) */
		return tsg_fail(err, TSG_EINTERNAL, "%s: an oriented file read by ranges", path);
	for (uint64_t i = 0; i < n; i++)
		if (r[i].b > r[i].e || r[i].e > g->nv || (i && r[i].b < r[i - 1].e))
			return tsg_fail(err, TSG_EINTERNAL, "vertex ranges out of order");
	const double t0 = tsg_now();
	uint64_t got = 0;
	int rc = decoded	 ? g->lists_src->ranges(g->lists_src, r, n, &got, err)
		 : g->compressed ? read_chunks(g, r, n, &got, err)
				 : TSG_OK;
	for (uint64_t i = 0; i < n && rc == TSG_OK; i++) {
		if (!decoded && !g->compressed && (rc = read_one(g, r[i].b, r[i].e, &got, err)))
			break;
		rc = check_lists(g, path, r[i].b, r[i].e, sym, err);
	}
	*bytes += got;
	g->read_seconds += tsg_now() - t0;
	return rc;
}

void io_graph_cut_lists(const struct tsg_graph *g, uint32_t n, uint64_t *cut)
{
	/* a file's list entries, or what a decoder reads before each list */
	const uint64_t *w = io_graph_degrees_pending(g) ? g->lists_src->weights(g->lists_src)
							 : g->off;
	const uint64_t total = w[g->nv] - w[0];
	cut[0] = 0;
	for (uint32_t q = 1; q < n; q++)
		cut[q] = tsg_lower_bound_u64(w, cut[q - 1], g->nv,
					     w[0] + total / n * q + total % n * q / n);
	cut[n] = g->nv;
}

int io_graph_read_slice(struct tsg_graph *g, uint64_t b, uint64_t e, uint32_t *deg,
			uint64_t sums[2], uint64_t *sym, uint64_t *bytes, struct tsg_err *err)
{
	sums[0] = sums[1] = 0;
	if (io_graph_degrees_pending(g)) {
		const double t0 = tsg_now();
		const int rc = g->lists_src->slice(g->lists_src, b, e, deg, sums, bytes, err);
		g->read_seconds += tsg_now() - t0;
		return rc;
	}
	const struct io_vrange r = { b, e };
	const int rc = io_graph_read_ranges(g, &r, 1, sym, bytes, err);
	for (uint64_t v = b; rc == TSG_OK && v < e; v++)
		deg[v - b] = (uint32_t)io_graph_degree(g, v);
	return rc;
}

int io_graph_place_slice(struct tsg_graph *g, const uint32_t *deg, const uint64_t sums[2],
			 uint64_t b, uint64_t e, uint64_t *sym, struct tsg_err *err)
{
	if (!io_graph_degrees_pending(g))
		return TSG_OK; /* a file's offsets were known, its slice read in place */
	int rc = g->lists_src->place(g->lists_src, g, deg, sums, err);
	return rc ? rc : check_lists(g, io_graph_name(g), b, e, sym, err);
}
