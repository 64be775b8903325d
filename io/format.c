#include "io/format.h"

#include <string.h>

#include "io/compress.h"
#include "io/hash.h"

/* Fixed little-endian field offsets (docs/FORMAT.md). */
enum {
	OFF_MAGIC = 0,
	OFF_VERSION = 8,
	OFF_FLAGS = 12,
	OFF_HSIZE = 16,
	OFF_NSEC = 20,
	OFF_NV = 24,
	OFF_NEDGES = 32,
	OFF_NADJ = 40,
	OFF_MAXDEG = 48,
	OFF_DEGREE_HINT = 56, /* oriented files: the undirected graph's maximum degree */
	OFF_SECTIONS = 64,
	SECTION_BYTES = 32,
	OFF_HCHECK = IO_HEADER_SIZE - 8,
};

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tristream stores arrays in host order and supports little-endian hosts only"
#endif

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

uint64_t io_checksum(const void *data, size_t len)
{
	return io_hash_once(data, len);
}

void io_header_encode(const struct io_header *h, uint8_t *buf)
{
	memset(buf, 0, IO_HEADER_SIZE);
	memcpy(buf + OFF_MAGIC, IO_MAGIC, 8);
	put32(buf + OFF_VERSION, h->version);
	put32(buf + OFF_FLAGS, h->flags);
	put32(buf + OFF_HSIZE, IO_HEADER_SIZE);
	put32(buf + OFF_NSEC, h->nsections);
	put64(buf + OFF_NV, h->nv);
	put64(buf + OFF_NEDGES, h->nedges);
	put64(buf + OFF_NADJ, h->nadj);
	if (h->flags & IO_FLAG_ORIENTED) {
		put64(buf + OFF_MAXDEG, h->max_out);
		put64(buf + OFF_DEGREE_HINT, h->max_degree);
	} else {
		put64(buf + OFF_MAXDEG, h->max_degree);
	}
	for (uint32_t i = 0; i < h->nsections && i < IO_MAX_SECTIONS; i++) {
		uint8_t *s = buf + OFF_SECTIONS + i * SECTION_BYTES;
		put32(s, h->sec[i].kind);
		put64(s + 8, h->sec[i].offset);
		put64(s + 16, h->sec[i].size);
		put64(s + 24, h->sec[i].xxh3);
	}
	put64(buf + OFF_HCHECK, io_checksum(buf, OFF_HCHECK));
}

uint64_t io_header_layout(struct io_header *h, uint64_t nv, uint64_t nadj, uint64_t max_degree)
{
	memset(h, 0, sizeof(*h));
	h->version = IO_VERSION;
	h->nv = nv;
	h->nadj = nadj;
	h->nedges = nadj / 2;
	h->max_degree = max_degree;
	h->nsections = 2;
	uint64_t pos = IO_HEADER_SIZE;
	h->sec[0] = (struct io_section){ .kind = IO_SEC_OFFSETS, .offset = pos, .size = (nv + 1) * 8 };
	pos += tsg_align_up(h->sec[0].size, IO_ALIGN);
	h->sec[1] = (struct io_section){ .kind = IO_SEC_NEIGHBORS, .offset = pos, .size = nadj * 4 };
	pos += tsg_align_up(h->sec[1].size, IO_ALIGN);
	return pos;
}

uint64_t io_header_layout_oriented(struct io_header *h, uint64_t nv, uint64_t ne, uint64_t max_out,
				   uint64_t max_degree)
{
	uint64_t pos = io_header_layout(h, nv, ne, max_degree);
	h->flags = IO_FLAG_ORIENTED;
	h->nedges = ne; /* each edge once */
	h->max_out = max_out;
	h->sec[2] = (struct io_section){ .kind = IO_SEC_RANK_IDS, .offset = pos, .size = nv * 4 };
	pos += tsg_align_up(h->sec[2].size, IO_ALIGN);
	h->sec[3] = (struct io_section){ .kind = IO_SEC_ROW_SUMS, .offset = pos,
					 .size = 8 + 8 * io_row_pieces(ne * 4, IO_ROW_PIECE) };
	h->nsections = 4;
	return pos + tsg_align_up(h->sec[3].size, IO_ALIGN);
}

uint64_t io_header_layout_lz4(struct io_header *h, uint64_t nv, uint64_t nadj,
			      uint64_t max_degree, uint64_t data_size, uint64_t index_size)
{
	uint64_t pos = io_header_layout(h, nv, nadj, max_degree);
	h->flags = IO_FLAG_LZ4;
	pos = h->sec[1].offset;
	h->sec[1] = (struct io_section){ .kind = IO_SEC_NEIGHBORS_LZ4, .offset = pos,
					 .size = data_size };
	pos += tsg_align_up(data_size, IO_ALIGN);
	h->sec[2] = (struct io_section){ .kind = IO_SEC_CHUNKS, .offset = pos, .size = index_size };
	h->nsections = 3;
	return pos + tsg_align_up(index_size, IO_ALIGN);
}

uint64_t io_header_layout_oriented_lz4(struct io_header *h, uint64_t nv, uint64_t ne,
				       uint64_t max_out, uint64_t max_degree, uint64_t data_size,
				       uint64_t index_size)
{
	uint64_t pos = io_header_layout_lz4(h, nv, ne, max_degree, data_size, index_size);
	h->flags = IO_FLAG_LZ4 | IO_FLAG_ORIENTED;
	h->nedges = ne; /* each edge once */
	h->max_out = max_out;
	h->sec[3] = (struct io_section){ .kind = IO_SEC_RANK_IDS, .offset = pos, .size = nv * 4 };
	h->nsections = 4;
	return pos + tsg_align_up(h->sec[3].size, IO_ALIGN);
}

const struct io_section *io_header_section(const struct io_header *h, uint32_t kind)
{
	for (uint32_t i = 0; i < h->nsections; i++)
		if (h->sec[i].kind == kind)
			return &h->sec[i];
	return NULL;
}

uint64_t io_row_pieces(uint64_t rows_size, uint64_t piece)
{
	return rows_size / piece + (rows_size % piece != 0);
}

int io_row_sums_check(const struct io_header *h, uint64_t piece, const char *path,
		      struct tsg_err *err)
{
	const struct io_section *rows = io_header_section(h, IO_SEC_NEIGHBORS);
	const struct io_section *sums = io_header_section(h, IO_SEC_ROW_SUMS);
	if (!rows || !sums)
		return tsg_fail(err, TSG_EINTERNAL, "%s: no row piece checksums to check", path);
	if (piece == 0 || piece % IO_ALIGN || piece > IO_ROW_PIECE_MAX)
		return tsg_fail(err, TSG_EINPUT, "%s: row piece checksums of pieces of %llu bytes "
				"(a multiple of %u up to %llu expected; file is corrupt)", path,
				(unsigned long long)piece, IO_ALIGN,
				(unsigned long long)IO_ROW_PIECE_MAX);
	if (sums->size != 8 + 8 * io_row_pieces(rows->size, piece))
		return tsg_fail(err, TSG_EINPUT, "%s: %llu bytes of row piece checksums, not the %llu "
				"that %llu row bytes in pieces of %llu take (file is corrupt)", path,
				(unsigned long long)sums->size,
				(unsigned long long)(8 + 8 * io_row_pieces(rows->size, piece)),
				(unsigned long long)rows->size, (unsigned long long)piece);
	return TSG_OK;
}

/* A plain or LZ4 file's counts (an undirected graph: every edge twice). */
static int decode_counts(const struct io_header *h, uint64_t file_size, const char *path,
			 struct tsg_err *err)
{
	/* each field on its own, without overflow: 2 * nedges must not wrap
	 * (nedges + 2^63 would pass a wrapped check); a simple graph of nv
	 * vertices has at most nv(nv - 1) list entries; a plain file holds 4
	 * bytes an entry, a compressed one is bounded below (sections) */
	if (h->nedges > UINT64_MAX / 2 || h->nadj != 2 * h->nedges ||
	    (h->nv < (1ull << 32) && h->nadj > h->nv * (h->nv ? h->nv - 1 : 0)) ||
	    (!(h->flags & IO_FLAG_LZ4) && h->nadj > file_size / 4))
		return tsg_fail(err, TSG_EINPUT, "%s: inconsistent counts (%llu edges, %llu list "
				"entries, file of %llu bytes)", path, (unsigned long long)h->nedges,
				(unsigned long long)h->nadj, (unsigned long long)file_size);
	if (h->max_degree > h->nadj || (h->nv == 0 && h->nadj != 0) ||
	    (h->nv > 0 && h->max_degree >= h->nv))
		return tsg_fail(err, TSG_EINPUT, "%s: inconsistent maximum degree %llu", path,
				(unsigned long long)h->max_degree);
	return TSG_OK;
}

/* LZ4 lists of nadj entries that z's bytes, in ix's chunks, could hold:
 * LZ4 expands a byte into at most 255, so more is a lie, refused before
 * any allocation it would justify (IO_LZ4_MAX_RATIO, io/compress.h). */
static int lz4_fits(const struct io_header *h, const struct io_section *z,
		    const struct io_section *ix, const char *path, struct tsg_err *err)
{
	if (h->nadj > z->size / 4 * IO_LZ4_MAX_RATIO + IO_LZ4_MAX_RATIO * (ix->size / 32 + 1))
		return tsg_fail(err, TSG_EINPUT, "%s: %llu list entries cannot come from %llu "
				"compressed bytes (file is corrupt)", path,
				(unsigned long long)h->nadj, (unsigned long long)z->size);
	return TSG_OK;
}

/* The sections of an oriented file, once the counts agree with each
 * other: offsets, rows (or, LZ4, their chunks and the chunk index) and
 * the rank map, each of its exact size; the rows' piece checksums, in a
 * file of plain rows only, of a size that some piece size fits. */
static int oriented_sections(const struct io_header *h, const char *path, struct tsg_err *err)
{
	const int lz4 = (h->flags & IO_FLAG_LZ4) != 0;
	const struct io_section *off = io_header_section(h, IO_SEC_OFFSETS);
	const struct io_section *rows = io_header_section(h, lz4 ? IO_SEC_NEIGHBORS_LZ4
								 : IO_SEC_NEIGHBORS);
	const struct io_section *ix = lz4 ? io_header_section(h, IO_SEC_CHUNKS) : NULL;
	const struct io_section *ids = io_header_section(h, IO_SEC_RANK_IDS);
	const struct io_section *sums = io_header_section(h, IO_SEC_ROW_SUMS);
	if (lz4 && sums) /* LZ4 chunks carry their own checksums */
		return tsg_fail(err, TSG_EINPUT, "%s: row piece checksums in a file of LZ4 rows (file "
				"is corrupt)", path);
	if (!off || !rows || (lz4 && !ix) || !ids)
		return tsg_fail(err, TSG_EINPUT, "%s: oriented file without its %s section", path,
				!off ? "offset" : !rows ? (lz4 ? "compressed row" : "row")
					: !ids ? "rank map" : "chunk index");
	if (lz4) {
		if (off->size != (h->nv + 1) * 8 || ix->size % 32 || ids->size != h->nv * 4)
			return tsg_fail(err, TSG_EINPUT, "%s: section sizes (%llu offset, %llu index, "
					"%llu rank map bytes) disagree with %llu vertices", path,
					(unsigned long long)off->size, (unsigned long long)ix->size,
					(unsigned long long)ids->size, (unsigned long long)h->nv);
		return lz4_fits(h, rows, ix, path, err);
	}
	if (off->size != (h->nv + 1) * 8 || rows->size != h->nadj * 4 || ids->size != h->nv * 4)
		return tsg_fail(err, TSG_EINPUT, "%s: section sizes (%llu offset, %llu row, %llu rank "
				"map bytes) disagree with %llu vertices and %llu edges", path,
				(unsigned long long)off->size, (unsigned long long)rows->size,
				(unsigned long long)ids->size, (unsigned long long)h->nv,
				(unsigned long long)h->nadj);
	/* the piece size is the section's first 8 bytes (io_row_sums_check);
	 * here, that some piece size fits its length: a checksum a piece of
	 * at least IO_ALIGN bytes bounds what a reader allocates for it */
	const uint64_t n = sums && sums->size >= 8 ? (sums->size - 8) / 8 : 0;
	if (sums && (sums->size < 8 || sums->size % 8 ||
		     n < io_row_pieces(rows->size, IO_ROW_PIECE_MAX) ||
		     n > io_row_pieces(rows->size, IO_ALIGN)))
		return tsg_fail(err, TSG_EINPUT, "%s: %llu bytes of row piece checksums cannot cover "
				"%llu row bytes (file is corrupt)", path, (unsigned long long)sums->size,
				(unsigned long long)rows->size);
	return TSG_OK;
}

/* An oriented file's counts (the sections are checked after the table):
 * every edge once, so at most nv(nv - 1)/2 of them, 4 bytes each in the
 * file; rows no longer than the largest degree, which is below nv. The
 * degree hint is checked for range only: it cannot change a count. */
static int decode_oriented(const struct io_header *h, uint64_t file_size, const char *path,
			   struct tsg_err *err)
{
	const uint64_t most = h->nv * (h->nv ? h->nv - 1 : 0) / 2; /* nv < 2^32: no wrap */
	/* a plain file holds 4 bytes a row entry; an LZ4 one is bounded by
	 * its sections (oriented_sections) */
	if (h->nadj != h->nedges || h->nadj > most ||
	    (!(h->flags & IO_FLAG_LZ4) && h->nadj > file_size / 4))
		return tsg_fail(err, TSG_EINPUT, "%s: inconsistent counts (%llu edges, %llu row "
				"entries, file of %llu bytes)", path, (unsigned long long)h->nedges,
				(unsigned long long)h->nadj, (unsigned long long)file_size);
	if (h->max_out > h->max_degree || h->max_degree > h->nadj ||
	    (h->nv > 0 && h->max_degree >= h->nv))
		return tsg_fail(err, TSG_EINPUT, "%s: inconsistent maximum degrees (%llu out, %llu "
				"in all)", path, (unsigned long long)h->max_out,
				(unsigned long long)h->max_degree);
	return TSG_OK;
}

int io_header_decode(const uint8_t *buf, size_t len, uint64_t file_size, const char *path,
		     struct io_header *h, struct tsg_err *err)
{
	memset(h, 0, sizeof(*h));
	if (len < IO_HEADER_SIZE || file_size < IO_HEADER_SIZE)
		return tsg_fail(err, TSG_EINPUT, "%s: file is %llu bytes, shorter than the %u-byte header "
				"(truncated, or not a tristream graph)", path,
				(unsigned long long)file_size, IO_HEADER_SIZE);
	if (memcmp(buf + OFF_MAGIC, IO_MAGIC, 8) != 0)
		return tsg_fail(err, TSG_EINPUT, "%s: bad magic: not a tristream binary graph "
				"(convert text graphs with tristream-convert)", path);
	h->version = get32(buf + OFF_VERSION);
	if (h->version != IO_VERSION)
		return tsg_fail(err, TSG_EINPUT, "%s: format version %u, this build reads version %u",
				path, h->version, IO_VERSION);
	if (get64(buf + OFF_HCHECK) != io_checksum(buf, OFF_HCHECK))
		return tsg_fail(err, TSG_EINPUT, "%s: header checksum mismatch (file is corrupt)", path);
	h->hcheck = get64(buf + OFF_HCHECK);
	h->flags = get32(buf + OFF_FLAGS);
	if (h->flags & ~IO_FLAGS_SUPPORTED)
		return tsg_fail(err, TSG_EINPUT, "%s: unsupported feature flags 0x%x (this build "
				"reads bit 1, LZ4 lists, and bit 2, oriented; not 64-bit ids or "
				"others)", path, h->flags);
	if (get32(buf + OFF_HSIZE) != IO_HEADER_SIZE)
		return tsg_fail(err, TSG_EINPUT, "%s: header size %u, expected %u", path,
				get32(buf + OFF_HSIZE), IO_HEADER_SIZE);
	h->nsections = get32(buf + OFF_NSEC);
	h->nv = get64(buf + OFF_NV);
	h->nedges = get64(buf + OFF_NEDGES);
	h->nadj = get64(buf + OFF_NADJ);
	h->max_degree = get64(buf + OFF_MAXDEG);
	if (h->flags & IO_FLAG_ORIENTED) {
		h->max_out = h->max_degree;
		h->max_degree = get64(buf + OFF_DEGREE_HINT);
	}
	if (h->nsections > IO_MAX_SECTIONS)
		return tsg_fail(err, TSG_EINPUT, "%s: %u sections, at most %u allowed", path,
				h->nsections, IO_MAX_SECTIONS);
	if (h->nv > IO_MAX_VERTICES)
		return tsg_fail(err, TSG_EINPUT, "%s: %llu vertices exceed the 32-bit id range", path,
				(unsigned long long)h->nv);
	int rc = h->flags & IO_FLAG_ORIENTED ? decode_oriented(h, file_size, path, err)
					      : decode_counts(h, file_size, path, err);
	if (rc)
		return rc;
	for (uint32_t i = 0; i < h->nsections; i++) {
		const uint8_t *s = buf + OFF_SECTIONS + i * SECTION_BYTES;
		struct io_section *sec = &h->sec[i];
		sec->kind = get32(s);
		sec->offset = get64(s + 8);
		sec->size = get64(s + 16);
		sec->xxh3 = get64(s + 24);
		if (sec->offset % IO_ALIGN || sec->offset < IO_HEADER_SIZE || sec->offset > file_size ||
		    sec->size > file_size - sec->offset)
			return tsg_fail(err, TSG_EINPUT, "%s: section %u (kind %u) at offset %llu, %llu "
					"bytes, lies outside the %llu-byte file (truncated?)", path, i,
					sec->kind, (unsigned long long)sec->offset,
					(unsigned long long)sec->size, (unsigned long long)file_size);
	}
	if (h->flags & IO_FLAG_ORIENTED)
		return oriented_sections(h, path, err);
	if (io_header_section(h, IO_SEC_ROW_SUMS))
		return tsg_fail(err, TSG_EINPUT, "%s: row piece checksums in a file not stored oriented "
				"(file is corrupt)", path);
	const struct io_section *off = io_header_section(h, IO_SEC_OFFSETS);
	if (h->flags & IO_FLAG_LZ4) {
		const struct io_section *z = io_header_section(h, IO_SEC_NEIGHBORS_LZ4);
		const struct io_section *ix = io_header_section(h, IO_SEC_CHUNKS);
		if (!off || !z || !ix)
			return tsg_fail(err, TSG_EINPUT, "%s: compressed file without its %s section",
					path, !off ? "offset" : !z ? "compressed neighbour" : "chunk index");
		if (off->size != (h->nv + 1) * 8 || ix->size % 32)
			return tsg_fail(err, TSG_EINPUT, "%s: section sizes (%llu offset bytes, %llu "
					"index bytes) disagree with %llu vertices", path,
					(unsigned long long)off->size, (unsigned long long)ix->size,
					(unsigned long long)h->nv);
		return lz4_fits(h, z, ix, path, err);
	}
	const struct io_section *nbr = io_header_section(h, IO_SEC_NEIGHBORS);
	if (!off || !nbr)
		return tsg_fail(err, TSG_EINPUT, "%s: missing %s section", path,
				off ? "neighbour" : "offset");
	if (off->size != (h->nv + 1) * 8 || nbr->size != h->nadj * 4)
		return tsg_fail(err, TSG_EINPUT, "%s: section sizes (%llu, %llu bytes) disagree with "
				"%llu vertices and %llu list entries", path,
				(unsigned long long)off->size, (unsigned long long)nbr->size,
				(unsigned long long)h->nv, (unsigned long long)h->nadj);
	return TSG_OK;
}
