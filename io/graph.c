#include "graph.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compress.h"
#include "format.h"
#include "util.h"

static void *alloc_section(uint64_t size)
{
	/* O_DIRECT wants aligned buffers and whole 4 KiB blocks */
	const uint64_t bytes = tsg_align_up(size ? size : 1, 4096);
	void *p = aligned_alloc(4096, bytes);
	if (p)
		tsg_advise_huge(p, bytes);
	return p;
}

static int load_section(struct io_file *f, const struct io_section *sec, const char *what,
			void **mem, const void **view, int verify, struct tsg_err *err)
{
	const char *path = io_file_path(f);
	if (io_file_mode(f) == IO_MODE_MMAP) {
		*view = io_file_map(f) + sec->offset;
	} else {
		*mem = alloc_section(sec->size);
		if (!*mem)
			return tsg_fail(err, TSG_ENOMEM, "%s: cannot allocate %llu bytes for the %s",
					path, (unsigned long long)sec->size, what);
		int rc = io_file_read(f, sec->offset, sec->size, *mem, err);
		if (rc)
			return rc;
		*view = *mem;
	}
	if (verify && io_checksum(*view, sec->size) != sec->xxh3)
		return tsg_fail(err, TSG_EINPUT, "%s: checksum mismatch in the %s section (file is "
				"corrupt)", path, what);
	return TSG_OK;
}

/* The LZ4 variant: every chunk is checked by its own checksum while it is
 * decoded in parallel (io/compress.h), so the data section is not hashed
 * twice; the index is checked whole. */
static int load_lz4(struct tsg_graph *g, const struct io_header *h, const char *path,
		    unsigned threads, struct tsg_err *err)
{
	void *zmem = NULL, *imem = NULL;
	const void *zview, *iview;
	const struct io_section *zs = io_header_section(h, IO_SEC_NEIGHBORS_LZ4);
	const struct io_section *is = io_header_section(h, IO_SEC_CHUNKS);
	int rc = load_section(g->file, is, "chunk index", &imem, &iview, 1, err);
	if (!rc)
		rc = load_section(g->file, zs, "compressed neighbour", &zmem, &zview, 0, err);
	if (rc)
		goto done;
	/* chunks are placed by the offsets: they must be sane before decoding */
	if (g->off[0] != 0 || g->off[g->nv] != g->nadj) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: row offsets must run from 0 to %llu", path,
			      (unsigned long long)g->nadj);
		goto done;
	}
	for (uint64_t v = 0; v < g->nv; v++)
		if (g->off[v + 1] < g->off[v]) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: row offsets decrease at vertex %llu", path,
				      (unsigned long long)v);
			goto done;
		}
	g->adj_mem = alloc_section(g->nadj * 4);
	if (!g->adj_mem) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: cannot allocate %llu bytes for the neighbour lists",
			      path, (unsigned long long)g->nadj * 4);
		goto done;
	}
	rc = io_lz4_decode(g->nv, g->off, zview, zs->size, iview, is->size, g->adj_mem, threads,
			   path, err);
	g->adj = g->adj_mem;
done:
	free(zmem);
	free(imem);
	return rc;
}

int io_graph_load(const char *path, const struct io_load_opts *opts, struct tsg_graph *g,
		  struct tsg_err *err)
{
	memset(g, 0, sizeof(*g));
	uint8_t *hbuf = alloc_section(IO_HEADER_SIZE);
	struct io_header h;
	const void *view;
	double t0 = tsg_now();
	int rc = hbuf ? TSG_OK : tsg_fail(err, TSG_ENOMEM, "out of memory");
	if (rc)
		goto fail;
	rc = io_file_open(path, opts->io, &g->file, err);
	if (rc)
		goto fail;
	uint64_t fsize = io_file_size(g->file);
	if (fsize < IO_HEADER_SIZE) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: file is %llu bytes, shorter than the %u-byte "
			      "header (truncated, empty, or not a tristream graph)", path,
			      (unsigned long long)fsize, IO_HEADER_SIZE);
		goto fail;
	}
	rc = io_file_read(g->file, 0, IO_HEADER_SIZE, hbuf, err);
	if (!rc)
		rc = io_header_decode(hbuf, IO_HEADER_SIZE, fsize, path, &h, err);
	if (rc)
		goto fail;
	g->nv = h.nv;
	g->nadj = h.nadj;
	g->max_degree = h.max_degree;
	g->io_used = io_file_mode(g->file);
	snprintf(g->io_note, sizeof(g->io_note), "%s", io_file_note(g->file));
	rc = load_section(g->file, io_header_section(&h, IO_SEC_OFFSETS), "offset", &g->off_mem,
			  &view, 1, err);
	if (rc)
		goto fail;
	g->off = view;
	g->compressed = (h.flags & IO_FLAG_LZ4) != 0;
	if (g->compressed) {
		rc = load_lz4(g, &h, path, opts->threads, err);
	} else {
		rc = load_section(g->file, io_header_section(&h, IO_SEC_NEIGHBORS), "neighbour",
				  &g->adj_mem, &view, 1, err);
		g->adj = view;
	}
	if (rc)
		goto fail;
	g->read_seconds = tsg_now() - t0;
	t0 = tsg_now();
	rc = io_graph_check(g, path, opts->threads, err);
	if (rc)
		goto fail;
	g->check_seconds = tsg_now() - t0;
	if (io_file_mode(g->file) != IO_MODE_MMAP) {
		io_file_close(g->file); /* data is in our buffers now */
		g->file = NULL;
	}
	free(hbuf);
	return TSG_OK;
fail:
	free(hbuf);
	io_graph_free(g);
	return rc;
}

void io_graph_free(struct tsg_graph *g)
{
	free(g->off_mem);
	free(g->adj_mem);
	io_file_close(g->file);
	memset(g, 0, sizeof(*g));
}

/* A 64-bit mix of an unordered pair; entries u->v add it, v->u subtract it,
 * so a symmetric graph sums to zero and an asymmetric one almost surely not. */
static uint64_t pair_hash(uint64_t a, uint64_t b)
{
	uint64_t x = (a << 32 | b) * 0x9e3779b97f4a7c15ull;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 32);
}

struct check_ctx {
	const struct tsg_graph *g;
	atomic_uint_fast64_t bad_vertex; /* smallest offending vertex, or UINT64_MAX */
	atomic_uint_fast64_t sym_sum;
	atomic_uint_fast64_t maxdeg;
};

static void check_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct check_ctx *c = arg;
	const struct tsg_graph *g = c->g;
	uint64_t sum = 0, maxdeg = 0;
	for (uint64_t v = b; v < e; v++) {
		uint64_t lo = g->off[v], hi = g->off[v + 1];
		if (hi < lo || hi > g->nadj)
			goto bad;
		if (hi - lo > maxdeg)
			maxdeg = hi - lo;
		for (uint64_t i = lo; i < hi; i++) {
			uint32_t w = g->adj[i];
			if (w >= g->nv || w == v || (i > lo && w <= g->adj[i - 1]))
				goto bad;
			sum += v < w ? pair_hash(v, w) : -pair_hash(w, v);
		}
		continue;
bad:;
		uint_fast64_t cur = atomic_load(&c->bad_vertex);
		while (v < cur && !atomic_compare_exchange_weak(&c->bad_vertex, &cur, v))
			;
		return;
	}
	atomic_fetch_add(&c->sym_sum, sum);
	tsg_atomic_max(&c->maxdeg, maxdeg);
}

int io_graph_check(const struct tsg_graph *g, const char *name, unsigned threads,
		   struct tsg_err *err)
{
	if (g->nv > IO_MAX_VERTICES)
		return tsg_fail(err, TSG_EINPUT, "%s: %llu vertices exceed 32-bit ids", name,
				(unsigned long long)g->nv);
	if (g->off[0] != 0 || g->off[g->nv] != g->nadj)
		return tsg_fail(err, TSG_EINPUT, "%s: row offsets must start at 0 and end at %llu "
				"(they run from %llu to %llu)", name, (unsigned long long)g->nadj,
				(unsigned long long)g->off[0], (unsigned long long)g->off[g->nv]);
	struct check_ctx c = { .g = g };
	atomic_init(&c.bad_vertex, UINT64_MAX);
	atomic_init(&c.sym_sum, 0);
	atomic_init(&c.maxdeg, 0);
	tsg_parallel_for(threads, g->nv, 4096, check_range, &c);
	uint64_t bad = atomic_load(&c.bad_vertex);
	if (bad != UINT64_MAX)
		return tsg_fail(err, TSG_EINPUT, "%s: vertex %llu has a bad neighbour list (offsets "
				"not monotone, id out of range, self-loop, or list not strictly "
				"increasing)", name, (unsigned long long)bad);
	if (atomic_load(&c.sym_sum) != 0)
		return tsg_fail(err, TSG_EINPUT, "%s: graph is not symmetric (some edge u-v is "
				"missing from v's list)", name);
	if (atomic_load(&c.maxdeg) != g->max_degree)
		return tsg_fail(err, TSG_EINPUT, "%s: header says maximum degree %llu, lists say "
				"%llu", name, (unsigned long long)g->max_degree,
				(unsigned long long)atomic_load(&c.maxdeg));
	return TSG_OK;
}
