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
#include "compress.h"

#include <lz4.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "util.h"

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

struct dec {
	const uint64_t *off;
	const uint8_t *data;
	const struct chunk *ch;
	uint32_t *adj;
	uint8_t **scratch;        /* per thread: the chunk's byte planes */
	atomic_uint_fast64_t bad; /* first bad chunk + 1, or 0 */
	atomic_int bad_sum;       /* 1: checksum, 0: LZ4 stream */
};

static void decode_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	struct dec *c = arg;
	uint8_t *planes = c->scratch[tid];
	for (uint64_t i = b; i < e; i++) {
		const struct chunk *k = &c->ch[i];
		const uint64_t lo = c->off[k->v0], n = c->off[k->v1] - lo;
		const uint8_t *src = c->data + k->pos;
		int sum_ok = io_checksum(src, k->csize) == k->xxh3, ok = sum_ok;
		if (ok)
			ok = LZ4_decompress_safe((const char *)src, (char *)planes, (int)k->csize,
						 (int)(n * 4)) == (int)(n * 4);
		if (!ok) {
			uint_fast64_t cur = atomic_load(&c->bad);
			if (cur == 0 || i + 1 < cur) {
				atomic_store(&c->bad, i + 1);
				atomic_store(&c->bad_sum, !sum_ok);
			}
			continue;
		}
		uint32_t *out = c->adj + lo;
		for (uint64_t x = 0; x < n; x++)
			out[x] = (uint32_t)planes[x] | (uint32_t)planes[n + x] << 8 |
				 (uint32_t)planes[2 * n + x] << 16 | (uint32_t)planes[3 * n + x] << 24;
		for (uint64_t v = k->v0; v < k->v1; v++)
			for (uint64_t x = c->off[v] + 1; x < c->off[v + 1]; x++)
				c->adj[x] += c->adj[x - 1];
	}
}

int io_lz4_decode(uint64_t nv, const uint64_t *off, const uint8_t *data, uint64_t data_size,
		  const uint8_t *index, uint64_t index_size, uint32_t *adj, unsigned threads,
		  const char *path, struct tsg_err *err)
{
	const uint64_t n = index_size / IO_CHUNK_ENTRY_BYTES;
	struct chunk *ch = malloc((n ? n : 1) * sizeof(*ch));
	struct dec c = { .off = off, .data = data, .adj = adj };
	int rc = TSG_OK;
	if (!ch)
		return tsg_fail(err, TSG_ENOMEM, "%s: out of memory for the chunk index", path);
	if (index_size % IO_CHUNK_ENTRY_BYTES || (n == 0) != (off[nv] == 0)) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: chunk index of %llu bytes does not fit %llu list "
			      "entries", path, (unsigned long long)index_size,
			      (unsigned long long)off[nv]);
		goto done;
	}
	/* the index must tile the vertices and the data exactly, in order */
	for (uint64_t i = 0, pos = 0; i < n; i++) {
		uint32_t zero;
		get_entry(index + i * IO_CHUNK_ENTRY_BYTES, &ch[i], &zero);
		if ((i == 0 ? ch[i].v0 != 0 : ch[i].v0 <= ch[i - 1].v0) || ch[i].v0 >= nv || zero ||
		    ch[i].pos != pos || ch[i].csize > data_size - pos) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: chunk %llu of %llu has a bad index entry "
				      "(file is corrupt)", path, (unsigned long long)i,
				      (unsigned long long)n);
			goto done;
		}
		pos += ch[i].csize;
		if (i + 1 == n && pos != data_size) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: chunks hold %llu of the %llu compressed "
				      "bytes (file is corrupt)", path, (unsigned long long)pos,
				      (unsigned long long)data_size);
			goto done;
		}
	}
	for (uint64_t i = 0; i < n; i++) {
		ch[i].v1 = i + 1 < n ? ch[i + 1].v0 : nv;
		if ((off[ch[i].v1] - off[ch[i].v0]) * 4 > LZ4_MAX_INPUT_SIZE) {
			rc = tsg_fail(err, TSG_EINPUT, "%s: chunk %llu is too large (file is corrupt)",
				      path, (unsigned long long)i);
			goto done;
		}
	}
	threads = threads ? threads : 1;
	uint64_t biggest = 0;
	for (uint64_t i = 0; i < n; i++)
		biggest = off[ch[i].v1] - off[ch[i].v0] > biggest ? off[ch[i].v1] - off[ch[i].v0] : biggest;
	c.scratch = calloc(threads, sizeof(*c.scratch));
	for (unsigned t = 0; c.scratch && t < threads; t++)
		if (!(c.scratch[t] = malloc(biggest ? biggest * 4 : 4))) {
			rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory decoding chunks", path);
			goto done;
		}
	if (!c.scratch) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory decoding chunks", path);
		goto done;
	}
	c.ch = ch;
	atomic_init(&c.bad, 0);
	atomic_init(&c.bad_sum, 0);
	tsg_parallel_for(threads, n, 1, decode_range, &c);
	const uint64_t bad = atomic_load(&c.bad);
	if (bad)
		rc = tsg_fail(err, TSG_EINPUT, "%s: %s in compressed chunk %llu of %llu (vertices "
			      "%llu..%llu; file is corrupt)", path, atomic_load(&c.bad_sum) ?
			      "checksum mismatch" : "bad LZ4 data", (unsigned long long)(bad - 1),
			      (unsigned long long)n, (unsigned long long)ch[bad - 1].v0,
			      (unsigned long long)ch[bad - 1].v1 - 1);
done:
	for (unsigned t = 0; c.scratch && t < threads; t++)
		free(c.scratch[t]);
	free(c.scratch);
	free(ch);
	return rc;
}
