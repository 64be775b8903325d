/*
 * atomic.h - a small output file that appears whole or not at all.
 *
 * io_afile_open makes a hidden temporary beside the target and hands out a
 * stdio stream to it; io_afile_commit checks every write, flushes, syncs
 * and renames it into place; io_afile_abort (or any failure) removes it.
 * A killed run leaves at most the hidden temporary, never a partial target.
 * A target that exists and is not a regular file (a device, a FIFO) is
 * written in place: renaming over it would replace it.
 * For per-vertex results and checkpoint headers; graph files have
 * io/writer.h.
 */
#ifndef IO_ATOMIC_H
#define IO_ATOMIC_H

#include <stdio.h>

#include "base/error.h"

struct io_afile {
	FILE *f;     /* write here */
	char *path, *tmp;
};

int io_afile_open(const char *path, struct io_afile *a, struct tsg_err *err);
/* Finishes a (success or not); the file is in place only on TSG_OK. */
int io_afile_commit(struct io_afile *a, struct tsg_err *err);
void io_afile_abort(struct io_afile *a);

/* The whole of a small file, len bytes, atomically. */
int io_afile_write_all(const char *path, const void *data, size_t len, struct tsg_err *err);

#endif
