/*
 * text_source.h - the bytes of a text input: a file, stdin, or gzip.
 *
 * Three decoders, chosen at open from the first bytes and the file:
 *  - plain: large blocks read by several threads at once (pread);
 *  - libdeflate: a gzip file whose text fits a quarter of RAM is mapped and
 *    decoded whole, its members on every thread (a gzip file may hold many
 *    members: bgzip, or files joined with cat). Member starts are guessed
 *    from header bytes, each guess decoded in parallel and kept only where
 *    the chain of members from the file's start meets it, its CRC and size
 *    checked; whatever the guesses miss is decoded in order. libdeflate
 *    decodes about twice as fast as zlib, and a member is decoded once;
 *  - zlib: streaming, for stdin and for texts too large to hold.
 * Reads append to a caller's buffer, so a reader thread can fill one
 * buffer while others parse the previous one (io/text.c).
 */
#ifndef IO_TEXT_SOURCE_H
#define IO_TEXT_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct io_tbuf {
	char *p;         /* NUL-terminated after every read */
	size_t len, cap;
};

/* Appends n bytes to b; returns 0 where memory cannot be had. */
int io_tbuf_put(struct io_tbuf *b, const char *p, size_t n);

struct io_tsrc;

/* How gzip input is decoded. AUTO: libdeflate where the file holds several
 * members (decoded in parallel) or where 4 or more threads parse (a whole
 * decode then a fast parse beats zlib's slower decode, even overlapped
 * with the parse); zlib streaming, overlapped with the parse, otherwise. */
enum io_gzip { IO_GZIP_AUTO, IO_GZIP_LIBDEFLATE, IO_GZIP_ZLIB };

/* path: a file, or "-" for stdin. threads: parsing threads, and those for
 * parallel gzip members. */
int io_tsrc_open(const char *path, unsigned threads, enum io_gzip gzip, struct io_tsrc **out,
		 struct tsg_err *err);

/* Appends up to `want` bytes to b (want > 0), growing it; fewer only at the
 * end of input. One exception: into an empty b, a libdeflate source may
 * hand a decoded member of at least want / 2 bytes over whole, without a
 * copy, however long it is. Errors: TSG_EIO (read), TSG_EINPUT (corrupt gzip),
 * TSG_ENOMEM. */
int io_tsrc_read(struct io_tsrc *s, struct io_tbuf *b, size_t want, struct tsg_err *err);

int io_tsrc_eof(const struct io_tsrc *s);
uint64_t io_tsrc_file_size(const struct io_tsrc *s); /* 0 if not a regular file */
/* The text's length where known before it is read: a plain file's size;
 * 0 for gzip and streams. */
uint64_t io_tsrc_plain_size(const struct io_tsrc *s);
uint64_t io_tsrc_consumed(const struct io_tsrc *s);  /* of file_size, for progress */
const char *io_tsrc_decoder(const struct io_tsrc *s); /* "plain", "libdeflate", "zlib" */
uint64_t io_tsrc_members(const struct io_tsrc *s);    /* gzip members (libdeflate) */

void io_tsrc_close(struct io_tsrc *s);

#endif
