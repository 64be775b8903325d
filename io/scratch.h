/*
 * scratch.h - big buffers backed by a file in a scratch directory.
 *
 * For bounded host memory (--host-mem): a buffer mapped from a file lives
 * in the page cache, which keeps what fits in RAM and writes the rest back
 * to the disk, so the buffer may be larger than the memory the run is
 * allowed, or than RAM.
 *
 * The file is made with O_TMPFILE where the file system has it (the file
 * has no name, so nothing is left behind even if the process is killed),
 * else with mkstemp and an immediate unlink. Its space is reserved with
 * posix_fallocate: a full disk is a clear error here, not a SIGBUS when a
 * page is first written through the mapping.
 */
#ifndef IO_SCRATCH_H
#define IO_SCRATCH_H

#include <stdint.h>

#include "base/error.h"

struct io_scratch {
	void *mem;      /* bytes of read-write memory */
	uint64_t bytes;
	int fd;
};

/* Maps a zeroed buffer of bytes (at least one page) backed by a new file in
 * dir. Errors (TSG_EIO, a full disk included) name dir. */
int io_scratch_map(const char *dir, uint64_t bytes, struct io_scratch **out, struct tsg_err *err);
void io_scratch_unmap(struct io_scratch *s); /* NULL is fine */

#endif
