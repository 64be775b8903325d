#include "io/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "io/atomic.h"
#include "io/compress.h"
#include "io/format.h"
#include "io/graph.h"
#include "base/util.h"

struct io_writer {
	char *path;
	char *tmp_path; /* named temporary, or NULL when O_TMPFILE worked */
	int fd;
	struct io_header h;
	uint64_t size;     /* of the file */
	uint64_t map_len;  /* of the mapping: the size it was opened with */
	uint8_t *map;
	int sync;       /* flush to disk before naming (io_writer_no_sync clears it) */
	uint32_t summed; /* bit i: section i's checksum was handed in */
};

static char *dir_of(const char *path)
{
	char *copy = strdup(path);
	if (!copy)
		return NULL;
	char *d = strdup(dirname(copy));
	free(copy);
	return d;
}

static int open_temp(struct io_writer *w, struct tsg_err *err)
{
	/* a .tsg is published by a rename over its path, which would replace a
	 * FIFO, a device (/dev/null, as root) or a link to one with a regular
	 * file; and it cannot go to a pipe, being written by offsets */
	struct stat st;
	if (stat(w->path, &st) == 0 && !S_ISREG(st.st_mode))
		return tsg_fail(err, TSG_EUSAGE, "%s: not a regular file (a .tsg is written whole "
				"and named at its end: give a file's path)", w->path);
	w->fd = io_unnamed_open(w->path, 0644);
	if (w->fd < 0) /* no O_TMPFILE here: a named temporary that abort removes */
		w->fd = io_temp_open(w->path, &w->tmp_path);
	if (w->fd < 0)
		return tsg_fail_errno(err, tsg_status_from_errno(errno), errno,
				      "%s: cannot create output file", w->path);
	return TSG_OK;
}

int io_writer_open_layout(const char *path, const struct io_header *h, uint64_t size,
			  struct io_writer **out, struct tsg_err *err)
{
	int rc;
	struct io_writer *w = calloc(1, sizeof(*w));
	if (w)
		w->sync = 1;
	*out = NULL;
	if (!w || !(w->path = strdup(path))) {
		free(w);
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	}
	w->fd = -1;
	if (h->nv > IO_MAX_VERTICES) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: %llu vertices exceed the 32-bit id range", path,
			      (unsigned long long)h->nv);
		goto fail;
	}
	w->h = *h;
	w->size = size;
	rc = open_temp(w, err);
	if (rc)
		goto fail;
	int e = posix_fallocate(w->fd, 0, (off_t)w->size);
	if (e != 0) {
		char need[32];
		rc = tsg_fail_errno(err, TSG_EIO, e, "%s: cannot reserve %s for the output%s", path,
				    tsg_fmt_bytes(w->size, need, sizeof(need)),
				    e == ENOSPC ? " (disk full)" : "");
		goto fail;
	}
	w->map_len = w->size;
	w->map = mmap(NULL, w->size, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, 0);
	if (w->map == MAP_FAILED) {
		w->map = NULL;
		rc = tsg_fail_errno(err, TSG_EIO, errno, "%s: cannot map the output", path);
		goto fail;
	}
	*out = w;
	return TSG_OK;
fail:
	io_writer_abort(w);
	return rc;
}

int io_writer_open(const char *path, uint64_t nv, uint64_t nadj, struct io_writer **out,
		   struct tsg_err *err)
{
	struct io_header h;
	const uint64_t size = io_header_layout(&h, nv, nadj, 0);
	return io_writer_open_layout(path, &h, size, out, err);
}

int io_writer_room(const char *path, uint64_t nv, uint64_t nadj)
{
	struct io_header h;
	struct statvfs fs;
	char *dir = dir_of(path);
	const int known = dir && statvfs(dir, &fs) == 0;
	free(dir);
	return !known || (uint64_t)fs.f_bavail * fs.f_frsize >= io_header_layout(&h, nv, nadj, 0);
}

uint8_t *io_writer_section(struct io_writer *w, uint32_t kind)
{
	const struct io_section *s = io_header_section(&w->h, kind);
	return s ? w->map + s->offset : NULL;
}

uint64_t *io_writer_offsets(struct io_writer *w)
{
	return (uint64_t *)io_writer_section(w, IO_SEC_OFFSETS);
}

uint32_t *io_writer_neighbors(struct io_writer *w)
{
	return (uint32_t *)io_writer_section(w, IO_SEC_NEIGHBORS);
}

void io_writer_abort(struct io_writer *w)
{
	if (!w)
		return;
	if (w->map)
		munmap(w->map, w->map_len);
	if (w->fd >= 0)
		close(w->fd);
	if (w->tmp_path)
		unlink(w->tmp_path);
	free(w->tmp_path);
	free(w->path);
	free(w);
}

static int publish(struct io_writer *w, struct tsg_err *err)
{
	if (!w->tmp_path) {
		const int rc = io_unnamed_publish(w->fd, w->path, err);
		if (rc)
			return rc;
	} else {
		if (rename(w->tmp_path, w->path) != 0)
			return tsg_fail_errno(err, TSG_EIO, errno, "%s: rename", w->path);
		free(w->tmp_path);
		w->tmp_path = NULL;
	}
	if (w->sync) /* a scratch file (no sync) need not outlast a power loss */
		io_sync_dir(w->path);
	return TSG_OK;
}

void io_writer_no_sync(struct io_writer *w) { w->sync = 0; }

int io_writer_cut_neighbors(struct io_writer *w, uint64_t nadj, struct tsg_err *err)
{
	struct io_header h;
	const uint64_t size = io_header_layout(&h, w->h.nv, nadj, w->h.max_degree);
	const struct io_section *now = io_header_section(&w->h, IO_SEC_NEIGHBORS);
	if (w->h.nsections != 2 || !now || now->offset != h.sec[1].offset || size > w->size)
		return tsg_fail(err, TSG_EINTERNAL, "%s: neighbour section cannot be cut to %llu "
				"entries", w->path, (unsigned long long)nadj);
	if (size < w->size && ftruncate(w->fd, (off_t)size) != 0)
		return tsg_fail_errno(err, TSG_EIO, errno, "%s: cannot shorten the output", w->path);
	h.flags = w->h.flags;
	w->h = h;
	w->summed = 0;
	w->size = size;
	return TSG_OK;
}

void io_writer_flush_begin(struct io_writer *w, const void *p, uint64_t len)
{
	if (w->sync && len) /* advisory, as in seal */
		(void)sync_file_range(w->fd, (off_t)((const uint8_t *)p - w->map), (off_t)len,
				      SYNC_FILE_RANGE_WRITE);
}

void io_writer_set_checksum(struct io_writer *w, uint32_t kind, uint64_t xxh3)
{
	for (uint32_t i = 0; i < w->h.nsections; i++)
		if (w->h.sec[i].kind == kind) {
			w->h.sec[i].xxh3 = xxh3;
			w->summed |= 1u << i;
		}
}

struct writeback {
	int fd;
	uint64_t size;
};

static void *writeback_main(void *arg)
{
	const struct writeback *wb = arg;
	(void)sync_file_range(wb->fd, 0, (off_t)wb->size, SYNC_FILE_RANGE_WRITE);
	return NULL;
}

/* Checksums and header, then the flush to disk the writer asks for. The
 * disk starts on the sections on a thread of its own while their checksums
 * are taken (they are final; only the header is written after):
 * sync_file_range blocks while it hands the disk half a gigabyte (0.25 s
 * on the H100's host), as long as the checksums take again. Advisory: where
 * it fails or no thread can be had, the msync below still writes
 * everything. */
static int seal(struct io_writer *w, uint64_t max_degree, struct tsg_err *err)
{
	struct writeback wb = { .fd = w->fd, .size = w->size };
	pthread_t th;
	const int threaded = w->sync && pthread_create(&th, NULL, writeback_main, &wb) == 0;
	w->h.max_degree = max_degree;
	for (uint32_t i = 0; i < w->h.nsections; i++)
		if (!(w->summed & 1u << i))
			w->h.sec[i].xxh3 = io_checksum(w->map + w->h.sec[i].offset, w->h.sec[i].size);
	if (threaded)
		pthread_join(th, NULL);
	io_header_encode(&w->h, w->map);
	if (w->sync && (msync(w->map, w->size, MS_SYNC) != 0 || fsync(w->fd) != 0))
		return tsg_fail_errno(err, TSG_EIO, errno, "%s: writing output", w->path);
	return TSG_OK;
}

int io_writer_commit(struct io_writer *w, uint64_t max_degree, struct tsg_err *err)
{
	int rc = seal(w, max_degree, err);
	if (rc == TSG_OK)
		rc = publish(w, err);
	io_writer_abort(w); /* unmaps, closes; removes the temporary only if unpublished */
	return rc;
}

int io_writer_commit_unnamed(struct io_writer *w, uint64_t max_degree, int *fd,
			     struct tsg_err *err)
{
	*fd = -1;
	w->sync = 0; /* a file without a name cannot outlive the process: no flush */
	int rc = seal(w, max_degree, err);
	if (rc == TSG_OK) {
		if (w->tmp_path) { /* the fallback's name goes now: the file lives on in fd */
			unlink(w->tmp_path);
			free(w->tmp_path);
			w->tmp_path = NULL;
		}
		*fd = w->fd;
		w->fd = -1;
	}
	io_writer_abort(w);
	return rc;
}

static uint64_t max_degree_of(uint64_t nv, const uint64_t *off)
{
	uint64_t maxdeg = 0;
	for (uint64_t v = 0; v < nv; v++)
		if (off[v + 1] - off[v] > maxdeg)
			maxdeg = off[v + 1] - off[v];
	return maxdeg;
}

int io_graph_write_lz4(const char *path, uint64_t nv, const uint64_t *off, const uint32_t *adj,
		       unsigned threads, uint64_t *bytes, struct tsg_err *err)
{
	struct io_lz4 z;
	struct io_header h;
	struct io_writer *w;
	int rc = io_lz4_encode(nv, off, adj, threads, &z, err);
	if (rc)
		return rc;
	const uint64_t size = io_header_layout_lz4(&h, nv, off[nv], 0, z.data_size, z.index_size);
	rc = io_writer_open_layout(path, &h, size, &w, err);
	if (rc)
		goto done;
	memcpy(io_writer_offsets(w), off, (nv + 1) * 8);
	memcpy(io_writer_section(w, IO_SEC_NEIGHBORS_LZ4), z.data, z.data_size);
	memcpy(io_writer_section(w, IO_SEC_CHUNKS), z.index, z.index_size);
	rc = io_writer_commit(w, max_degree_of(nv, off), err);
	if (rc == TSG_OK && bytes)
		*bytes = size;
done:
	io_lz4_free(&z);
	return rc;
}

int io_graph_write(const char *path, uint64_t nv, const uint64_t *off, const uint32_t *adj,
		   struct tsg_err *err)
{
	struct io_writer *w;
	uint64_t nadj = off[nv];
	int rc = io_writer_open(path, nv, nadj, &w, err);
	if (rc)
		return rc;
	memcpy(io_writer_offsets(w), off, (nv + 1) * 8);
	if (nadj)
		memcpy(io_writer_neighbors(w), adj, nadj * 4);
	return io_writer_commit(w, max_degree_of(nv, off), err);
}

struct piece_ctx {
	const uint8_t *rows;
	uint64_t size;
	uint64_t *sums;
};

static void piece_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct piece_ctx *c = arg;
	for (uint64_t k = b; k < e; k++) {
		const uint64_t at = k * IO_ROW_PIECE;
		c->sums[k] = io_checksum(c->rows + at,
					 c->size - at < IO_ROW_PIECE ? c->size - at : IO_ROW_PIECE);
	}
}

int io_graph_write_oriented(const char *path, uint64_t nv, const uint64_t *off, const uint32_t *adj,
			    const uint32_t *rank_id, uint64_t max_degree, unsigned threads, int lz4,
			    struct tsg_err *err)
{
	struct io_header h;
	struct io_writer *w;
	struct io_lz4 z = { 0 };
	const uint64_t ne = off[nv];
	threads = threads ? threads : 1;
	int rc = lz4 ? io_lz4_encode(nv, off, adj, threads, &z, err) : TSG_OK;
	if (rc)
		return rc;
	const uint64_t size = lz4
		? io_header_layout_oriented_lz4(&h, nv, ne, max_degree_of(nv, off), max_degree,
						z.data_size, z.index_size)
		: io_header_layout_oriented(&h, nv, ne, max_degree_of(nv, off), max_degree);
	if ((rc = io_writer_open_layout(path, &h, size, &w, err)))
		goto done;
	memcpy(io_writer_offsets(w), off, (nv + 1) * 8);
	if (lz4) {
		memcpy(io_writer_section(w, IO_SEC_NEIGHBORS_LZ4), z.data, z.data_size);
		memcpy(io_writer_section(w, IO_SEC_CHUNKS), z.index, z.index_size);
	} else {
		/* the piece size, then each piece's checksum, hashed from the
		 * caller's rows (the same bytes) on every thread */
		uint64_t *sums = (uint64_t *)io_writer_section(w, IO_SEC_ROW_SUMS);
		struct piece_ctx c = { .rows = (const uint8_t *)adj, .size = ne * 4,
				       .sums = sums + 1 };
		sums[0] = IO_ROW_PIECE;
		tsg_parallel_for(threads, io_row_pieces(c.size, IO_ROW_PIECE), 1, piece_range, &c);
		if (ne)
			memcpy(io_writer_neighbors(w), adj, ne * 4);
	}
	if (nv)
		memcpy(io_writer_section(w, IO_SEC_RANK_IDS), rank_id, nv * 4);
	rc = io_writer_commit(w, max_degree, err);
done:
	if (lz4)
		io_lz4_free(&z);
	return rc;
}

int io_graph_copy(const char *in, const char *out, int lz4, unsigned threads,
		  struct io_copy_stats *st, struct tsg_err *err)
{
	struct tsg_graph g;
	/* an oriented file stays one: its rows and rank map rewritten */
	const struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = threads, .oriented = 1 };
	struct stat sb;
	memset(st, 0, sizeof(*st));
	double t0 = tsg_now();
	int rc = io_graph_load(in, &lo, &g, err);
	if (rc)
		return rc;
	st->load_s = tsg_now() - t0;
	st->in_bytes = stat(in, &sb) == 0 ? (uint64_t)sb.st_size : 0;
	t0 = tsg_now();
	if (g.oriented) {
		rc = io_graph_write_oriented(out, g.nv, g.off, g.adj, g.rank_id, g.degree_hint,
					     threads, lz4, err);
		st->out_bytes = stat(out, &sb) == 0 && rc == TSG_OK ? (uint64_t)sb.st_size : 0;
	} else if (lz4) {
		rc = io_graph_write_lz4(out, g.nv, g.off, g.adj, threads, &st->out_bytes, err);
	} else {
		rc = io_graph_write(out, g.nv, g.off, g.adj, err);
		st->out_bytes = stat(out, &sb) == 0 && rc == TSG_OK ? (uint64_t)sb.st_size : 0;
	}
	st->write_s = tsg_now() - t0;
	io_graph_free(&g);
	return rc;
}
