/*
 * writer.h - writing a graph file atomically.
 *
 * io_writer_open reserves the whole file up front (posix_fallocate, so a full
 * disk is reported at once as an error instead of a SIGBUS later) in an
 * unnamed temporary file beside the target (O_TMPFILE, or a hidden named
 * one where the file system lacks it), and maps it so the caller can fill
 * the offset and neighbour arrays in place, even when they exceed RAM.
 * io_writer_commit checksums, writes the header, syncs and renames the file
 * into place; until then the target name is untouched, so a failed or killed
 * run never leaves a file that looks valid.
 */
#ifndef IO_WRITER_H
#define IO_WRITER_H

#include <stdint.h>

#include "base/error.h"
#include "io/format.h"

struct io_writer;

int io_writer_open(const char *path, uint64_t nv, uint64_t nadj, struct io_writer **out,
		   struct tsg_err *err);
/* Whether path's file system has room now for a file of nv vertices and
 * nadj entries (io_writer_open reserves it whole); 1 where it cannot tell. */
int io_writer_room(const char *path, uint64_t nv, uint64_t nadj);
/* Opens a writer for a file laid out by io_header_layout_lz4 (or any
 * layout h describes, total `size` bytes); sections are filled through
 * io_writer_section. */
int io_writer_open_layout(const char *path, const struct io_header *h, uint64_t size,
			  struct io_writer **out, struct tsg_err *err);
uint8_t *io_writer_section(struct io_writer *w, uint32_t kind);
uint64_t *io_writer_offsets(struct io_writer *w);   /* nv + 1 entries */
uint32_t *io_writer_neighbors(struct io_writer *w); /* nadj entries */

/* For a caller that fills a section in order and can follow behind its
 * own writes: the disk is started on [p, p + len) of the mapping now
 * (where the file is to be flushed; p inside the file), and a section's
 * checksum, taken as it was filled, is handed in so that commit need not
 * read the section again. The value must be io_checksum of the whole
 * section as committed. */
void io_writer_flush_begin(struct io_writer *w, const void *p, uint64_t len);
void io_writer_set_checksum(struct io_writer *w, uint32_t kind, uint64_t xxh3);

/* For a writer opened by io_writer_open with more neighbour entries than
 * the graph turned out to have (a bound known before deduplication): the
 * neighbour section, the file's last, is cut to nadj entries and the file
 * shortened to match. Entries past nadj must not have been written to. */
int io_writer_cut_neighbors(struct io_writer *w, uint64_t nadj, struct tsg_err *err);

/* The file need not reach the disk before it is named: for scratch files,
 * unlinked after use, where a crash loses nothing a flush would save. */
void io_writer_no_sync(struct io_writer *w);

/* Finishes the file and frees w, whether it succeeds or not. */
int io_writer_commit(struct io_writer *w, uint64_t max_degree, struct tsg_err *err);

/* Finishes the file but never names it: *fd gets a read-write descriptor
 * of the whole file (the caller closes it), -1 on failure; w is freed
 * either way. For intermediates that must leave nothing behind even when
 * the process is killed (-9): where the file system lacks O_TMPFILE, the
 * fallback's hidden name exists only until this call. Not flushed to disk:
 * without a name it cannot outlive the process. */
int io_writer_commit_unnamed(struct io_writer *w, uint64_t max_degree, int *fd,
			     struct tsg_err *err);

/* Discards the temporary file and frees w. */
void io_writer_abort(struct io_writer *w);

/* Convenience for graphs held in memory (tests, tools). */
int io_graph_write(const char *path, uint64_t nv, const uint64_t *off, const uint32_t *adj,
		   struct tsg_err *err);

/* Writes an oriented graph (format.h, IO_FLAG_ORIENTED) held in memory:
 * the rows off/adj of nv ranks (ne = off[nv] edges, each once, every row
 * increasing and above its rank), rank_id (nv ids, the vertex of each
 * rank) and max_degree, the undirected graph's largest degree (the
 * header's hint). The largest row is found here. lz4: 0, the rows as they
 * are, with their piece checksums (IO_SEC_ROW_SUMS); else LZ4 chunks
 * (IO_FLAG_LZ4 too, io/compress.h). Either is made on `threads` threads
 * (0: one). */
int io_graph_write_oriented(const char *path, uint64_t nv, const uint64_t *off, const uint32_t *adj,
			    const uint32_t *rank_id, uint64_t max_degree, unsigned threads, int lz4,
			    struct tsg_err *err);

/* Writes a graph held in memory in the LZ4 format (io/compress.h),
 * compressing on `threads` threads; *bytes gets the file's size. */
int io_graph_write_lz4(const char *path, uint64_t nv, const uint64_t *off, const uint32_t *adj,
		       unsigned threads, uint64_t *bytes, struct tsg_err *err);

struct io_copy_stats {
	uint64_t in_bytes, out_bytes;
	double load_s;  /* read, decode if compressed, validate */
	double write_s; /* encode if compressing, write, sync */
};

/* Rewrites graph file `in` as `out`, LZ4-compressed (lz4 != 0) or raw: what
 * tristream compress / decompress and tristream-convert --compress do; an
 * oriented file stays oriented (its rows, rank map and degree hint). The
 * input is fully validated first; the output appears only when whole. */
int io_graph_copy(const char *in, const char *out, int lz4, unsigned threads,
		  struct io_copy_stats *st, struct tsg_err *err);

#endif
