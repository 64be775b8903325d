/*
 * compress.h - the LZ4-chunked neighbour section (docs/FORMAT.md).
 *
 * A compressed file (IO_FLAG_LZ4) keeps the offsets raw, so degrees and
 * plans need no decoding, and stores the neighbour lists in chunks of
 * whole vertices, each independently decodable: every list is
 * delta-encoded (first id, then gaps, which are small on graphs with
 * locality), the chunk's 32-bit words are split into four byte planes
 * (all low bytes, then all second bytes, ...: the high planes of small
 * gaps are long runs of zeros) and the planes are LZ4-compressed. Measured
 * on this machine, the planes take LZ4 from 1.56x to 2.01x on a web-like
 * graph, 1.21x to 1.93x on R-MAT 20 and 2.39x to 3.50x on ego-Facebook. A chunk index
 * gives each chunk's first vertex, place, compressed size and XXH3-64 of its
 * compressed bytes, so chunks are checked and decoded in parallel, and a
 * damaged one is named.
 */
#ifndef IO_COMPRESS_H
#define IO_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "io/format.h"
#include "io/reader.h"

#define IO_CHUNK_ENTRY_BYTES 32u
#define IO_CHUNK_TARGET (1u << 20) /* raw bytes a chunk aims for */
/* LZ4 turns one compressed byte into at most 255 (a length byte adds 255):
 * a chunk may decode to at most this many bytes a compressed byte, with
 * room for its header, and nothing that claims more is believed. */
#define IO_LZ4_MAX_RATIO 256u

/* Compressed neighbour lists of a graph: data (the NEIGHBORS_LZ4 section)
 * and index (the CHUNKS section), both malloc'd, owned by the caller. */
struct io_lz4 {
	uint8_t *data, *index;
	uint64_t data_size, index_size, nchunks;
};

/* Compresses the lists of a graph of nv vertices (off, adj) on `threads`
 * threads. Fails with TSG_EINPUT if one vertex's list is too large for LZ4
 * (over about 2 GB), TSG_ENOMEM if memory runs out. */
int io_lz4_encode(uint64_t nv, const uint64_t *off, const uint32_t *adj, unsigned threads,
		  struct io_lz4 *out, struct tsg_err *err);
void io_lz4_free(struct io_lz4 *z);

/* The chunk index of a compressed file, checked against its offsets. */
struct io_lz4_chunk {
	uint64_t v0, v1;   /* the chunk's vertices, v0 .. v1-1 */
	uint64_t pos;      /* its place in the data section */
	uint32_t csize;    /* its compressed bytes */
	uint64_t xxh3;     /* of those bytes */
};

struct io_lz4_index {
	uint64_t n;
	struct io_lz4_chunk *ch; /* n entries, malloc'd */
	uint64_t biggest;        /* decoded bytes of the largest chunk */
};

/* Parses index (index_size bytes) of a data section of data_size bytes for
 * a graph of nv vertices whose offsets off are already validated: the
 * chunks must tile the vertices and the data exactly, in order, and fit
 * LZ4. Errors are TSG_EINPUT naming `path`, TSG_ENOMEM. */
int io_lz4_index_parse(uint64_t nv, const uint64_t *off, const uint8_t *index,
		       uint64_t index_size, uint64_t data_size, const char *path,
		       struct io_lz4_index *out, struct tsg_err *err);
void io_lz4_index_free(struct io_lz4_index *ix);

/* Reads file f's chunk index section sec, checks it against its checksum
 * and parses it (io_lz4_index_parse) for data_size bytes of chunks. */
int io_lz4_index_read(struct io_file *f, const struct io_section *sec, uint64_t nv,
		      const uint64_t *off, uint64_t data_size, struct io_lz4_index *out,
		      struct tsg_err *err);

enum io_lz4_status { IO_LZ4_OK, IO_LZ4_BAD_SUM, IO_LZ4_BAD_DATA };

/* Fails with TSG_EINPUT naming chunk i of path, its vertices and what was
 * wrong with it (st: IO_LZ4_BAD_SUM or IO_LZ4_BAD_DATA). */
int io_lz4_chunk_fail(const char *path, const struct io_lz4_index *ix, uint64_t i,
		      enum io_lz4_status st, struct tsg_err *err);

/* Checks chunk i's checksum and decodes it into adj (the whole graph's
 * lists, indexed by off); data is the data section, scratch holds
 * ix->biggest bytes. Safe to call on several threads for different i. */
enum io_lz4_status io_lz4_decode_chunk(const struct io_lz4_index *ix, uint64_t i,
				       const uint64_t *off, const uint8_t *data, uint32_t *adj,
				       uint8_t *scratch);

#endif
