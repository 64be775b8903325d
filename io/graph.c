/*
 * graph.c - opening a graph file: header, offsets, room for the lists.
 * The lists themselves are read by io/lists.c.
 */
#include "io/graph.h"

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
	int rc = hbuf ? io_file_open(path, IO_MODE_PREAD, &f, err)
		      : tsg_fail(err, TSG_ENOMEM, "out of memory");
	if (rc == TSG_OK)
		rc = read_header(f, hbuf, h, err);
	io_file_close(f);
	free(hbuf);
	return rc;
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
	rc = io_file_open(path, opts->io, &g->file, err);
	if (rc)
		goto fail;
	rc = read_header(g->file, hbuf, &h, err);
	if (rc)
		goto fail;
	g->nv = h.nv;
	g->nadj = h.nadj;
	g->max_degree = h.max_degree;
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
	memset(g, 0, sizeof(*g));
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
