/*
 * compress.c - LZ4 chunks of delta-encoded neighbour lists (compress.h).
 *
 * A chunk of n entries decodes to 4n bytes: byte plane p (p = 0..3, least
 * significant first) is bytes p*n .. p*n+n-1; entry x of the chunk is the
 * gap (or first id) whose byte p is plane p's byte x.
 *
 * Chunk index entry, 32 bytes, little-endian: first vertex (u64), offset of
 * the chunk in the data section (u64), compressed size (u32), zero (u32),
 * XXH3-64 of the compressed bytes (u64). A chunk holds vertices from its
 * first vertex to the next chunk's (or nv); chunks lie back to back.
 */
#include "io/compress.h"

#include <lz4.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "io/format.h"
#include "base/util.h"

struct chunk {
	uint64_t v0, v1;
	uint64_t pos; /* in the data section */
	uint8_t *buf; /* compressed, while encoding */
	uint32_t csize;
	uint64_t xxh3;
};

static void put_entry(uint8_t *p, uint64_t v0, uint64_t pos, uint32_t csize, uint64_t xxh3)
{
	const uint32_t zero = 0;
	memcpy(p, &v0, 8);
	memcpy(p + 8, &pos, 8);
	memcpy(p + 16, &csize, 4);
	memcpy(p + 20, &zero, 4);
	memcpy(p + 24, &xxh3, 8);
}

static void get_entry(const uint8_t *p, struct chunk *c, uint32_t *zero)
{
	memcpy(&c->v0, p, 8);
	memcpy(&c->pos, p + 8, 8);
	memcpy(&c->csize, p + 16, 4);
	memcpy(zero, p + 20, 4);
	memcpy(&c->xxh3, p + 24, 8);
}

struct enc {
	const uint64_t *off;
	const uint32_t *adj;
	struct chunk *ch;
	atomic_int failed; /* out of memory in some chunk */
};

static void encode_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct enc *c = arg;
	for (uint64_t i = b; i < e; i++) {
		struct chunk *k = &c->ch[i];
		const uint64_t lo = c->off[k->v0], n = c->off[k->v1] - lo;
		const int raw = (int)(n * 4), bound = LZ4_compressBound(raw);
		uint8_t *planes = malloc(n ? n * 4 : 4);
		k->buf = malloc((size_t)bound);
		if (!planes || !k->buf) {
			free(planes);
			atomic_store(&c->failed, 1);
			continue;
		}
		for (uint64_t v = k->v0; v < k->v1; v++)
			for (uint64_t x = c->off[v]; x < c->off[v + 1]; x++) {
				const uint32_t d = x == c->off[v] ? c->adj[x] : c->adj[x] - c->adj[x - 1];
				for (int p = 0; p < 4; p++)
					planes[(uint64_t)p * n + (x - lo)] = (uint8_t)(d >> (8 * p));
			}
		const int cs = LZ4_compress_default((const char *)planes, (char *)k->buf, raw, bound);
		free(planes);
		if (cs <= 0) {
			atomic_store(&c->failed, 1);
			continue;
		}
		k->csize = (uint32_t)cs;
		k->xxh3 = io_checksum(k->buf, k->csize);
	}
}

int io_lz4_encode(uint64_t nv, const uint64_t *off, const uint32_t *adj, unsigned threads,
		  struct io_lz4 *out, struct tsg_err *err)
{
	struct enc c = { .off = off, .adj = adj };
	uint64_t n = 0, cap = 0;
	int rc = TSG_OK;
	memset(out, 0, sizeof(*out));
	atomic_init(&c.failed, 0);
	for (uint64_t v = 0, start = 0; v < nv && off[nv] > 0; v++) {
		if ((off[v + 1] - off[v]) * 4 > LZ4_MAX_INPUT_SIZE)
			return tsg_fail(err, TSG_EINPUT, "vertex %llu has %llu neighbours: too many "
					"for one LZ4 chunk", (unsigned long long)v,
					(unsigned long long)(off[v + 1] - off[v]));
		/* close the chunk at the target size, before a vertex that would take
		 * it past what LZ4 accepts, and at the end */
		const uint64_t raw = (off[v + 1] - off[start]) * 4;
		const uint64_t next = v + 1 < nv ? (off[v + 2] - off[v + 1]) * 4 : 0;
		if (raw >= IO_CHUNK_TARGET || raw + next > LZ4_MAX_INPUT_SIZE || v + 1 == nv) {
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				struct chunk *nc = realloc(c.ch, cap * sizeof(*nc));
				if (!nc) {
					rc = tsg_fail(err, TSG_ENOMEM, "out of memory for the chunk list");
					goto fail;
				}
				c.ch = nc;
			}
			c.ch[n++] = (struct chunk){ .v0 = start, .v1 = v + 1 };
			start = v + 1;
		}
	}
	tsg_parallel_for(threads ? threads : 1, n, 1, encode_range, &c);
	if (atomic_load(&c.failed)) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory compressing neighbour lists");
		goto fail;
	}
	uint64_t total = 0;
	for (uint64_t i = 0; i < n; i++)
		total += c.ch[i].csize;
	out->data = malloc(total ? total : 1);
	out->index = malloc(n ? n * IO_CHUNK_ENTRY_BYTES : 1);
	if (!out->data || !out->index) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for the compressed graph");
		goto fail;
	}
	for (uint64_t i = 0, pos = 0; i < n; i++) {
		memcpy(out->data + pos, c.ch[i].buf, c.ch[i].csize);
		put_entry(out->index + i * IO_CHUNK_ENTRY_BYTES, c.ch[i].v0, pos, c.ch[i].csize,
			  c.ch[i].xxh3);
		pos += c.ch[i].csize;
	}
	out->data_size = total;
	out->index_size = n * IO_CHUNK_ENTRY_BYTES;
	out->nchunks = n;
fail:
	for (uint64_t i = 0; i < n; i++)
		free(c.ch[i].buf);
	free(c.ch);
	if (rc)
		io_lz4_free(out);
	return rc;
}

void io_lz4_free(struct io_lz4 *z)
{
	free(z->data);
	free(z->index);
	memset(z, 0, sizeof(*z));
}

enum io_lz4_status io_lz4_decode_chunk(const struct io_lz4_index *ix, uint64_t i,
				       const uint64_t *off, const uint8_t *data, uint32_t *adj,
				       uint8_t *planes)
{
	const struct io_lz4_chunk *k = &ix->ch[i];
	const uint64_t lo = off[k->v0], n = off[k->v1] - lo;
	const uint8_t *src = data + k->pos;
	if (io_checksum(src, k->csize) != k->xxh3)
		return IO_LZ4_BAD_SUM;
	if (LZ4_decompress_safe((const char *)src, (char *)planes, (int)k->csize, (int)(n * 4)) !=
	    (int)(n * 4))
		return IO_LZ4_BAD_DATA;
	uint32_t *out = adj + lo;
	for (uint64_t x = 0; x < n; x++)
		out[x] = (uint32_t)planes[x] | (uint32_t)planes[n + x] << 8 |
			 (uint32_t)planes[2 * n + x] << 16 | (uint32_t)planes[3 * n + x] << 24;
	for (uint64_t v = k->v0; v < k->v1; v++)
		for (uint64_t x = off[v] + 1; x < off[v + 1]; x++)
			adj[x] += adj[x - 1];
	return IO_LZ4_OK;
}

int io_lz4_index_parse(uint64_t nv, const uint64_t *off, const uint8_t *index,
		       uint64_t index_size, uint64_t data_size, const char *path,
		       struct io_lz4_index *out, struct tsg_err *err)
{
	const uint64_t n = index_size / IO_CHUNK_ENTRY_BYTES;
	int rc = TSG_OK;
	memset(out, 0, sizeof(*out));
	if (index_size % IO_CHUNK_ENTRY_BYTES || (n == 0) != (off[nv] == 0))
		return tsg_fail(err, TSG_EINPUT, "%s: chunk index of %llu bytes does not fit %llu "
				"list entries", path, (unsigned long long)index_size,
				(unsigned long long)off[nv]);
	struct io_lz4_chunk *ch = malloc((n ? n : 1) * sizeof(*ch));
	if (!ch)
		return tsg_fail(err, TSG_ENOMEM, "%s: out of memory for the chunk index", path);
	for (uint64_t i = 0, pos = 0; i < n; i++) {
		struct chunk c;
		uint32_t zero;
		get_entry(index + i * IO_CHUNK_ENTRY_BYTES, &c, &zero);
		if ((i == 0 ? c.v0 != 0 : c.v0 <= ch[i - 1].v0) || c.v0 >= nv || zero ||
		    c.pos != pos || c.csize > data_size - pos) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: chunk %llu of %llu has a bad index entry "
				      "(file is corrupt)", path, (unsigned long long)i,
				      (unsigned long long)n);
			goto fail;
		}
		ch[i] = (struct io_lz4_chunk){ .v0 = c.v0, .pos = c.pos, .csize = c.csize,
					       .xxh3 = c.xxh3 };
		pos += c.csize;
		if (i + 1 == n && pos != data_size) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: chunks hold %llu of the %llu compressed "
				      "bytes (file is corrupt)", path, (unsigned long long)pos,
				      (unsigned long long)data_size);
			goto fail;
		}
	}
	for (uint64_t i = 0; i < n; i++) {
		ch[i].v1 = i + 1 < n ? ch[i + 1].v0 : nv;
		/* entries first, so 4 x entries cannot wrap; then what LZ4 can
		 * make of the chunk's compressed bytes */
		const uint64_t entries = off[ch[i].v1] - off[ch[i].v0];
		const uint64_t bytes = entries <= LZ4_MAX_INPUT_SIZE / 4 ? entries * 4 : UINT64_MAX;
		if (bytes > LZ4_MAX_INPUT_SIZE ||
		    bytes > (uint64_t)ch[i].csize * IO_LZ4_MAX_RATIO + IO_LZ4_MAX_RATIO) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: chunk %llu is too large (file is corrupt)",
				      path, (unsigned long long)i);
			goto fail;
		}
		out->biggest = bytes > out->biggest ? bytes : out->biggest;
	}
	out->n = n;
	out->ch = ch;
	return TSG_OK;
fail:
	free(ch);
	return rc;
}

void io_lz4_index_free(struct io_lz4_index *ix)
{
	free(ix->ch);
	memset(ix, 0, sizeof(*ix));
}

int io_lz4_index_read(struct io_file *f, const struct io_section *sec, uint64_t nv,
		      const uint64_t *off, uint64_t data_size, struct io_lz4_index *out,
		      struct tsg_err *err)
{
	const char *path = io_file_path(f);
	/* the index is small: in whole, checked, before any chunk */
	uint8_t *mem = aligned_alloc(4096, tsg_align_up(sec->size + 1, 4096));
	int rc = mem ? io_file_read(f, sec->offset, sec->size, mem, err)
		     : tsg_fail(err, TSG_ENOMEM, "out of memory");
	if (!rc && io_checksum(mem, sec->size) != sec->xxh3)
		rc = tsg_fail(err, TSG_EINPUT, "%s: checksum mismatch in the chunk index section "
			      "(file is corrupt)", path);
	if (!rc)
		rc = io_lz4_index_parse(nv, off, mem, sec->size, data_size, path, out, err);
	free(mem);
	return rc;
}

int io_lz4_chunk_fail(const char *path, const struct io_lz4_index *ix, uint64_t i,
		      enum io_lz4_status st, struct tsg_err *err)
{
	return tsg_fail(err, TSG_EINPUT, "%s: %s in compressed chunk %llu of %llu (vertices "
			"%llu..%llu; file is corrupt)", path,
			st == IO_LZ4_BAD_DATA ? "bad LZ4 data" : "checksum mismatch",
			(unsigned long long)i, (unsigned long long)ix->n,
			(unsigned long long)ix->ch[i].v0, (unsigned long long)ix->ch[i].v1 - 1);
}
