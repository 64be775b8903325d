/*
 * format.h - the tristream binary graph format (docs/FORMAT.md), version 1.
 *
 * A file is a 4 KiB header followed by sections, each starting on a 4 KiB
 * boundary so that any section can be read with O_DIRECT. The header holds
 * a section table with one XXH3-64 checksum per section and a checksum of
 * the header itself. The graph stored is canonical: undirected, every edge
 * in both lists, lists strictly increasing, no self-loops. Or, with
 * IO_FLAG_ORIENTED, the same graph already oriented (tristream-convert
 * --oriented): vertices relabelled by rank (degree, id), each row the
 * vertex's higher-ranked neighbours, so every edge once, and a section
 * mapping each rank back to its id; with plain rows, also a checksum of
 * each piece of the rows, so that a read from the rows' end down can check
 * them as they come (the section checksum needs file order).
 *
 * This module only encodes and decodes headers; io/graph.h loads graphs and
 * io/writer.h writes them.
 */
#ifndef IO_FORMAT_H
#define IO_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/util.h"

#define IO_MAGIC "TRISTRM\x1a"
#define IO_VERSION 1u
#define IO_ALIGN 4096u
#define IO_HEADER_SIZE 4096u
#define IO_MAX_SECTIONS 8u
#define IO_MAX_VERTICES 0xffffffffull /* ids are 32-bit in version 1 */

enum io_flag {
	IO_FLAG_IDS64 = 1u << 0, /* reserved: 64-bit neighbour ids */
	IO_FLAG_LZ4 = 1u << 1,   /* neighbours in LZ4 chunks (io/compress.h) */
	IO_FLAG_ORIENTED = 1u << 2, /* rows of the rank-ordered DAG, each edge once */
};
#define IO_FLAGS_SUPPORTED (IO_FLAG_LZ4 | IO_FLAG_ORIENTED)

enum io_section_kind {
	IO_SEC_OFFSETS = 1,   /* (nv + 1) x uint64 row offsets */
	IO_SEC_NEIGHBORS = 2, /* nadj x uint32 neighbour ids */
	IO_SEC_NEIGHBORS_LZ4 = 3, /* IO_FLAG_LZ4: compressed chunks, back to back */
	IO_SEC_CHUNKS = 4,    /* IO_FLAG_LZ4: the chunk index, 32 bytes a chunk */
	IO_SEC_RANK_IDS = 5,  /* IO_FLAG_ORIENTED: nv x uint32, the id of each rank */
	IO_SEC_ROW_SUMS = 6,  /* IO_FLAG_ORIENTED without LZ4, optional: uint64 piece
			       * size P, then the XXH3-64 of each P bytes of section 2 */
};

/* The piece size of IO_SEC_ROW_SUMS that the writer uses, and the bounds a
 * reader takes: a multiple of IO_ALIGN, at most IO_ROW_PIECE_MAX. */
#define IO_ROW_PIECE (16ull << 20)
#define IO_ROW_PIECE_MAX (1ull << 30)

struct io_section {
	uint32_t kind;
	uint64_t offset; /* from file start, multiple of IO_ALIGN */
	uint64_t size;   /* bytes, unpadded */
	uint64_t xxh3;   /* XXH3-64 of the size bytes */
};

struct io_header {
	uint32_t version;
	uint32_t flags;
	uint64_t nv;         /* vertices */
	uint64_t nedges;     /* undirected edges */
	uint64_t nadj;       /* directed entries = 2 * nedges (oriented: = nedges) */
	uint64_t max_degree; /* the undirected graph's largest degree: bytes 48, or in
			      * an oriented file bytes 56, a hint that only --device
			      * auto reads and only info --verify checks */
	uint64_t max_out;    /* oriented: the largest row (out-degree), bytes 48; else 0 */
	uint32_t nsections;
	struct io_section sec[IO_MAX_SECTIONS];
	uint64_t hcheck;     /* the header checksum, set by io_header_decode: it covers
			      * every section's checksum, so it names the file's
			      * content (checkpoints use it) */
};

/* Serialises h into buf (IO_HEADER_SIZE bytes), header checksum included. */
void io_header_encode(const struct io_header *h, uint8_t *buf);

/*
 * Parses and fully validates a header read from `path` of `file_size`
 * bytes: magic, version, flags, header checksum, counts that agree with each
 * other, and sections of the right sizes that lie inside the file. Errors
 * are TSG_EINPUT and name the file.
 */
int io_header_decode(const uint8_t *buf, size_t len, uint64_t file_size, const char *path,
		     struct io_header *h, struct tsg_err *err);

/* Fills h's counts and section table for a graph of nv vertices and nadj
 * entries (checksums left zero). Returns the total file size. */
uint64_t io_header_layout(struct io_header *h, uint64_t nv, uint64_t nadj, uint64_t max_degree);

/* The same for an oriented file (IO_FLAG_ORIENTED) of nv vertices and ne
 * edges: offsets, rows, the rank map and the rows' piece checksums
 * (IO_ROW_PIECE bytes a piece). */
uint64_t io_header_layout_oriented(struct io_header *h, uint64_t nv, uint64_t ne, uint64_t max_out,
				   uint64_t max_degree);

/* The same for an LZ4 file whose compressed lists and chunk index take
 * data_size and index_size bytes. */
uint64_t io_header_layout_lz4(struct io_header *h, uint64_t nv, uint64_t nadj,
			      uint64_t max_degree, uint64_t data_size, uint64_t index_size);

/* The same for an oriented file whose rows are LZ4 chunks (both flags):
 * offsets, the compressed rows, the chunk index and the rank map. */
uint64_t io_header_layout_oriented_lz4(struct io_header *h, uint64_t nv, uint64_t ne,
				       uint64_t max_out, uint64_t max_degree, uint64_t data_size,
				       uint64_t index_size);

const struct io_section *io_header_section(const struct io_header *h, uint32_t kind);

/* The pieces of piece bytes (nonzero) that rows_size bytes are cut into,
 * the last one short: ceil(rows_size / piece). */
uint64_t io_row_pieces(uint64_t rows_size, uint64_t piece);

/* The piece size read from the start of a decoded header's IO_SEC_ROW_SUMS
 * section (h has one): nonzero, a multiple of IO_ALIGN, at most
 * IO_ROW_PIECE_MAX, and the section exactly 8 bytes plus 8 a piece of
 * section 2. io_header_decode checks what the header alone can tell (the
 * section fits some such piece size); this, what needs the section's first
 * 8 bytes. Errors are TSG_EINPUT and name the file. */
int io_row_sums_check(const struct io_header *h, uint64_t piece, const char *path,
		      struct tsg_err *err);

uint64_t io_checksum(const void *data, size_t len);

#endif
