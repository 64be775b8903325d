/*
 * text.h - reading text edge lists into an io_builder.
 *
 * Formats: SNAP and plain edge lists ("u v", whitespace or comma separated,
 * '#' and '%' comment lines, 0-based ids used as given, columns after the
 * second ignored; a first line holding a single integer is taken as the
 * vertex count), Matrix Market coordinate files (pattern, integer or
 * real; general, symmetric, skew-symmetric or hermitian; 1-based), and Graph
 * Challenge TSV ("src dst weight", 1-based). Input may be gzip-compressed
 * (detected from the bytes; io/text_source.h) or "-" for stdin. Lines are
 * parsed by every thread on large blocks while a reader thread fetches the
 * next block; a line ends at '\n', "\r\n" or a lone '\r'.
 *
 * Matrix Market entries must lie within the size line's rows and columns,
 * and there must be exactly its nnz of them (exit 3 otherwise). A file
 * named .tsg is never read as text: it is a tristream graph or an error.
 * Ids (or a leading vertex count) far beyond what the text could touch,
 * more than 2^20 and over 16 a line, are refused unless the builder
 * relabels: each vertex takes memory, an edge or not (io_text_read names
 * --relabel as the way out).
 *
 * A malformed line stops the read with "FILE:LINE: ... 'text'" unless
 * skip_bad is set, in which case it is counted in the stats. Ids that do not
 * fit 32 bits are an error in either case: dropping edges silently would
 * change the count.
 */
#ifndef IO_TEXT_H
#define IO_TEXT_H

#include <stdint.h>

#include "io/builder.h"
#include "io/text_source.h"
#include "base/error.h"

enum io_text_format { IO_TEXT_AUTO, IO_TEXT_EDGELIST, IO_TEXT_MTX, IO_TEXT_TSV };

struct io_text_opts {
	enum io_text_format format;
	int skip_bad;
	unsigned threads;
	int progress;
	enum io_gzip gzip;
};

struct io_text_stats {
	enum io_text_format format; /* the one used */
	uint64_t lines, bad_lines, edges;
	uint64_t bytes;             /* bytes of (decompressed) text */
	uint64_t header_vertices;   /* declared: a leading vertex-count line or a Matrix
				     * Market size line; 0 if none */
	const char *decoder;        /* io/text_source.h: plain, libdeflate or zlib */
	uint64_t gzip_members;      /* decoded by libdeflate; 0 otherwise */
};

int io_text_format_parse(const char *s, enum io_text_format *out);
const char *io_text_format_name(enum io_text_format f);

int io_text_read(const char *path, const struct io_text_opts *opts, struct io_builder *b,
		 struct io_text_stats *stats, struct tsg_err *err);

#endif
