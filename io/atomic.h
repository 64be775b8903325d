/*
 * atomic.h - a small output file that appears whole or not at all.
 *
 * io_afile_open makes a file without a name beside the target (O_TMPFILE;
 * where the file system lacks it, a temporary named TARGET.tmp.XXXXXX)
 * and hands out a stdio stream to it; io_afile_commit checks every write,
 * flushes, syncs and gives it the target's name (its directory synced
 * after, so the name lasts); io_afile_abort (or any
 * failure) drops it. A killed run leaves nothing (with O_TMPFILE) or at
 * most the named temporary, never a partial target.
 * A target that exists and is not a regular file (a device, a FIFO) is
 * written in place: renaming over it would replace it.
 * For per-vertex results, text and BVGraph output, checkpoint headers;
 * graph files have io/writer.h, which names its files the same way
 * (io_unnamed_open, io_unnamed_publish).
 */
#ifndef IO_ATOMIC_H
#define IO_ATOMIC_H

#include <stdio.h>
#include <sys/types.h>

#include "base/error.h"

struct io_afile {
	FILE *f;     /* write here */
	char *path;
	char *tmp;   /* the fallback's temporary name; NULL: unnamed or in place */
	int unnamed; /* an O_TMPFILE, named at commit */
};

int io_afile_open(const char *path, struct io_afile *a, struct tsg_err *err);
/* Finishes a (success or not); the file is in place only on TSG_OK. */
int io_afile_commit(struct io_afile *a, struct tsg_err *err);
void io_afile_abort(struct io_afile *a);

/* The whole of a small file, len bytes, atomically. */
int io_afile_write_all(const char *path, const void *data, size_t len, struct tsg_err *err);
/* The same, only where nothing is at path when the file gets its name (a
 * link, not a rename), the file locked (flock, LOCK_EX) before it is
 * named: *fd its descriptor (read-write, appending, the lock held), or -1
 * with TSG_OK where something was there (made by another process since the
 * caller looked; left as it is). Why: two runs creating one checkpoint each
 * replaced the other's, and a lock taken after the naming could go to the
 * other run first. On a file system without hard links (FAT) the file is
 * renamed into place: the old check-then-name race, no worse. */
int io_afile_create_locked(const char *path, const void *data, size_t len, int *fd,
			   struct tsg_err *err);

/* Whether writing out would replace the input in: the same existing file
 * (device and inode, through links) as in or a crawl's in.graph, .offsets
 * or .properties, or its transpose's in-t.*; with out_crawl 1, out's own
 * crawl files too (a crawl is written at OUT.*), with 2 its transpose's
 * OUT-t.* as well (--to webgraph writes both). *which (len bytes) gets
 * the output path found. Why: an output published over its input (or the
 * transpose read with it) replaces it before, or while, it is read. */
int io_output_is_input(const char *in, const char *out, int out_crawl, char *which, size_t len);

/* A file without a name, open read-write, in the directory of path (the
 * file to be): its descriptor, or -1 with errno set where the directory
 * cannot have one (no O_TMPFILE there: the caller falls back to a name). */
int io_unnamed_open(const char *path, mode_t mode);

/* A named temporary beside path, PATH.tmp.XXXXXX, mode 0644 (mkstemp's
 * 0600 would keep an output from others), for where the directory cannot
 * have an unnamed file: its descriptor and *tmp its name (malloc'd), or -1
 * with errno set and *tmp NULL. */
int io_temp_open(const char *path, char **tmp);
/* The same, named PATH.TAG.XXXXXX (a name told apart from the temporaries). */
int io_temp_open_as(const char *path, const char *tag, char **tmp);

/* Gives the unnamed file fd the name path, replacing a file there. Where
 * path is free the link is the whole publication; over an existing file
 * a unique temporary name is linked and renamed over it. */
int io_unnamed_publish(int fd, const char *path, struct tsg_err *err);

/* Syncs the directory of path, after a rename or link there: the file's
 * bytes synced before it got its name are lasting only with its name
 * (without it a power loss can take the name back, and a checkpoint or a
 * result with it). Best effort: errors are ignored. */
void io_sync_dir(const char *path);

#endif
