/*
 * reader.h - reading byte ranges of a graph file, by mmap, pread or io_uring.
 *
 * One interface over three ways to get bytes off NVMe:
 *  - mmap: zero-copy; the caller reads through io_file_map() and the page
 *    cache does the I/O (madvise'd for sequential access).
 *  - pread: plain buffered reads, the fallback that always works.
 *  - uring: io_uring with O_DIRECT, many large reads in flight, bypassing the
 *    page cache; the fastest way to stream a cold file at device speed.
 * IO_MODE_AUTO picks uring for a file not in the page cache and pread for
 * one that is (90% of its pages or more, probed with mincore: O_DIRECT would
 * read a cached file from the disk again), or mmap for one that is where the
 * caller asks (IO_OPEN_CACHED_MAP: its reader takes the bytes from where
 * they lie, so copying them out first is only time). Where io_uring or O_DIRECT is unavailable
 * (old kernel, seccomp, tmpfs) the file falls back to pread and io_file_note()
 * says why, so the caller can say so once; the fallback never fails a run.
 * A submission the kernel refuses fails that read (TSG_EIO) once the reads
 * it had taken are in (they write into the caller's buffer); the file then
 * reads with buffered reads, and io_file_note() says why.
 */
#ifndef IO_READER_H
#define IO_READER_H

#include <stdint.h>

#include "base/error.h"

enum io_mode { IO_MODE_AUTO, IO_MODE_MMAP, IO_MODE_PREAD, IO_MODE_URING };

struct io_file;

int io_mode_parse(const char *s, enum io_mode *out);
const char *io_mode_name(enum io_mode m);

/* flags of io_file_open */
enum {
	/* under IO_MODE_AUTO, a file found in the page cache is mapped rather
	 * than read with buffered reads */
	IO_OPEN_CACHED_MAP = 1u << 0,
};

int io_file_open(const char *path, enum io_mode mode, unsigned flags, struct io_file **out,
		 struct tsg_err *err);
void io_file_close(struct io_file *f);

uint64_t io_file_size(const struct io_file *f);
enum io_mode io_file_mode(const struct io_file *f); /* after any fallback */
const char *io_file_note(const struct io_file *f);  /* why it fell back, or "" */
/* The share of the file found in the page cache when auto chose, 0 to 1;
 * -1 when the mode was not auto or the probe could not tell. */
double io_file_cached(const struct io_file *f);
/* The same probe of the file at path, before it is opened for reading
 * (a plan's question); -1 where it cannot be told. */
double io_path_cached(const char *path);
/* The share at which auto reads with buffered reads (CACHED_ENOUGH). */
double io_cached_enough(void);
const char *io_file_path(const struct io_file *f);

/* The whole file, in mmap mode only (NULL otherwise). */
const uint8_t *io_file_map(const struct io_file *f);

/* Asks the kernel to start reading [offset, offset + len) into the page
 * cache now (mmap and pread modes; uring reads bypass the cache: nothing).
 * Returns at once; a hint, so it never fails. Why: the page cache's own
 * readahead under a sequential walk of a mapping issues small requests,
 * and the lent hosts' disks stream far faster with large ones (cold
 * R-MAT 26 on an H100's host: mmap 5.9-6.6 s, dd with 64 MiB blocks
 * 4.5-4.7 s; bench/raw/h100-2026-11-27-s33-callA/io.txt). */
void io_file_willneed(struct io_file *f, uint64_t offset, uint64_t len);

/*
 * Reads exactly len bytes at offset into dst, handling short reads, EINTR
 * and EAGAIN. offset must be a multiple of 4096 and dst must be 4096-aligned
 * with room for len rounded up to 4096 (O_DIRECT's rules). Errors name the
 * file and the offset. Also fails if the file changed size since opening
 * (in mmap mode, checked before the copy: a file cut while it is being
 * copied out of a mapping faults, as any mapped file does).
 */
int io_file_read(struct io_file *f, uint64_t offset, uint64_t len, void *dst, struct tsg_err *err);

/*
 * io_file_read, telling `ready` how far it has got: bytes [0, n) of dst are
 * in place when ready(ctx, n) is called. n only grows, ends at len on
 * success, and comes every few MiB, so a consumer can work on the front
 * of a range while the rest is still being read. ready runs on the calling
 * thread, between reads; a slow one slows the read. ready returns 0 to go
 * on; anything else stops the read: no further read is issued, those in
 * flight are waited for, and the call returns TSG_EINTERRUPTED ("read
 * stopped"), dst holding what came. Why: a read begun before the work it
 * feeds was settled (src/lists_bg.h) is stopped when that work is refused,
 * rather than waited for to its end.
 */
typedef int (*io_ready_fn)(void *ctx, uint64_t n);
int io_file_read_stream(struct io_file *f, uint64_t offset, uint64_t len, void *dst,
			io_ready_fn ready, void *ctx, struct tsg_err *err);

/*
 * The same range read from its end down: ready(ctx, n) says the last n
 * bytes, [len - n, len) of dst, are in place; n only grows and ends at len
 * on success. In uring mode it is one stream of reads, 32 of 16 MiB in
 * flight from the end down without draining in between, and ready is
 * told after completions (every 16 MiB or so) of the stretch complete from
 * the end, nothing still in flight above it; step is then only checked.
 * In the other modes, steps of `step` bytes (0: IO_DOWN_STEP; a multiple
 * of 4096, so that each step keeps O_DIRECT's alignment), each read as
 * io_file_read_stream reads and told once it is in. Rules, errors and
 * where ready runs are io_file_read_stream's. Why: an oriented .tsg keeps
 * its rows in rank order, and the rows of the top ranks (the hubs, whose
 * rows the heaviest units need) are the ones a count wants first
 * (src/lists_bg.h).
 */
#define IO_DOWN_STEP (64ull << 20)
int io_file_read_stream_down(struct io_file *f, uint64_t offset, uint64_t len, void *dst,
			     uint64_t step, io_ready_fn ready, void *ctx, struct tsg_err *err);

/*
 * Buffered reads (pread) of len bytes at offset of fd into dst by a few
 * helper threads, each taking the next 8 MiB step, as one thread copying
 * out of the page cache would be the bottleneck (a range of one or two
 * steps, or where no thread can be had: on the calling thread). ready
 * (NULL: none) is told, on the calling thread, how far the steps done in
 * order reach, as io_file_read_stream tells it. *got: the bytes in place
 * from dst on without a gap, short of len where the file ends first or a
 * read fails. Returns 0, or the failed read's errno, or ECANCELED where
 * ready asked to stop (*got may then reach past the last n it was told).
 */
int io_pread_parallel(int fd, uint64_t offset, uint64_t len, void *dst, io_ready_fn ready,
		      void *ctx, uint64_t *got);

#endif
