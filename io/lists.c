/*
 * lists.c - reading a graph's lists while the work on them has begun.
 *
 * The reading thread (the caller) pulls the lists section off the disk in
 * order; `threads` workers take the section's units, in order, as soon as
 * their bytes are in: a unit is a run of vertices (plain files) or a
 * compressed chunk (LZ4 files, which the worker first checks and decodes).
 * A worker checks its unit's lists (io/check.h) and hands the vertices to
 * the caller's callback, so that checking, decoding and whatever the
 * callback does (orientation, in the engine) run under the read instead of
 * after it. The plain section's checksum covers it whole, so the reading
 * thread folds each new stretch into it in order; it is known only at the
 * end, and so is symmetry, which is why a failed load means throwing away
 * what the callback built.
 *
 * Read down (an oriented file's rows, io_graph_read_lists_down), the same
 * machinery runs mirrored: `ready` counts the bytes in place from the
 * section's end and the workers take the units from the last. A plain
 * section's checksum can only be folded in file order; where the file has
 * piece checksums (format.h, IO_SEC_ROW_SUMS) a thread of its own follows
 * `ready` down as the workers do and checks each piece once it is in, so
 * the verdict is ready when the read ends (one AVX2 thread hashes about
 * 8 GB/s, above what the disk gives); without them the whole section is
 * hashed once it is in. An LZ4 file's chunks carry their own checksums.
 */
#include "io/graph.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "io/check.h"
#include "io/compress.h"
#include "io/hash.h"
#include "base/progress.h"
#include "base/util.h"

/* A plain unit holds up to UNIT_MAX vertices, fewer on small graphs so
 * that every worker has several. */
enum { UNIT_MAX = 4096, UNIT_MIN = 64, MAP_STEP = 8u << 20, MAP_AHEAD = 64u << 20 };

/* Workers are woken every PUBLISH_STEP bytes, not at every completed read:
 * sixteen threads woken a thousand times a second cost the reader more than
 * the few MiB they wait for. */
#define PUBLISH_STEP (4u << 20)

struct lstream {
	struct tsg_graph *g;
	io_rows_fn rows;
	void *ctx;
	/* how many bytes of the section are in place (down: counted from its
	 * end); waited on by workers */
	atomic_uint_fast64_t ready;
	int down;
	int stop; /* the read failed */
	const atomic_int *halt; /* the caller's: nonzero stops the read (NULL: never) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* units, in file order */
	uint64_t nunits, unit_v;
	atomic_uint_fast64_t next;
	const struct io_lz4_index *ix; /* LZ4 files */
	uint8_t **scratch;
	uint32_t *out; /* where decoded lists go */
	/* the reading thread's running checksum of a plain section */
	struct io_hash *xs;
	/* read down with piece checksums: pieces still to check, from the
	 * top, and the first that failed (UINT64_MAX: none) */
	uint64_t pieces_left;
	atomic_uint_fast64_t bad_piece;
	const uint8_t *base; /* the section in memory */
	uint64_t hashed, published;
	struct tsg_progress prog;
	/* results */
	atomic_uint_fast64_t bad_vertex, bad_chunk, sym_sum;
};

struct worker {
	struct lstream *s;
	unsigned tid;
	pthread_t th;
};

static uint64_t unit_end(const struct lstream *s, uint64_t k)
{
	if (s->ix)
		return s->ix->ch[k].pos + s->ix->ch[k].csize;
	const uint64_t e = (k + 1) * s->unit_v;
	return s->g->off[e < s->g->nv ? e : s->g->nv] * 4;
}

/* Where unit k starts in the section. */
static uint64_t unit_begin(const struct lstream *s, uint64_t k)
{
	if (s->ix)
		return s->ix->ch[k].pos;
	const uint64_t b = k * s->unit_v;
	return s->g->off[b < s->g->nv ? b : s->g->nv] * 4;
}

/* The bytes that must be in place before unit k is read: down, every
 * byte from its start to the section's end. */
static uint64_t unit_need(const struct lstream *s, uint64_t k)
{
	return s->down ? s->g->lists_sec.size - unit_begin(s, k) : unit_end(s, k);
}

static void atomic_min(atomic_uint_fast64_t *a, uint64_t v)
{
	uint_fast64_t cur = atomic_load(a);
	while (v < cur && !atomic_compare_exchange_weak(a, &cur, v))
		;
}

/* Waits until bytes are in place; 0 if the read failed instead. */
static int wait_ready(struct lstream *s, uint64_t bytes)
{
	if (atomic_load_explicit(&s->ready, memory_order_acquire) >= bytes)
		return 1;
	pthread_mutex_lock(&s->mu);
	while (atomic_load(&s->ready) < bytes && !s->stop)
		pthread_cond_wait(&s->cv, &s->mu);
	const int ok = !s->stop || atomic_load(&s->ready) >= bytes;
	pthread_mutex_unlock(&s->mu);
	return ok;
}

static void do_unit(struct lstream *s, uint64_t k, unsigned tid)
{
	const struct tsg_graph *g = s->g;
	uint64_t b = k * s->unit_v, e = b + s->unit_v < g->nv ? b + s->unit_v : g->nv;
	if (s->ix) {
		b = s->ix->ch[k].v0;
		e = s->ix->ch[k].v1;
		const enum io_lz4_status st = io_lz4_decode_chunk(s->ix, k, g->off, s->base, s->out,
								  s->scratch[tid]);
		if (st != IO_LZ4_OK) {
			atomic_min(&s->bad_chunk, k);
			return;
		}
	}
	uint64_t sym = 0;
	const uint64_t bad = io_check_lists(g, b, e, &sym);
	if (bad != UINT64_MAX) {
		atomic_min(&s->bad_vertex, bad);
		return;
	}
	atomic_fetch_add(&s->sym_sum, sym);
	if (s->rows && b < e)
		s->rows(s->ctx, b, e, tid);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct lstream *s = w->s;
	for (;;) {
		const uint64_t i = atomic_fetch_add(&s->next, 1);
		if (i >= s->nunits)
			return NULL;
		const uint64_t k = s->down ? s->nunits - 1 - i : i;
		if (!wait_ready(s, unit_need(s, k)))
			return NULL;
		do_unit(s, k, w->tid);
	}
}

/* Checks the row pieces still unchecked against g->row_sums, the top one
 * first, each once it is in; stops at the first that fails, or where the
 * read failed before they came. The piece checker's thread, or where it
 * could not be had, the reading thread once the read is done. */
static void check_pieces(struct lstream *s)
{
	const struct tsg_graph *g = s->g;
	const uint64_t size = g->lists_sec.size, p = g->row_piece;
	for (; s->pieces_left > 0; s->pieces_left--) {
		const uint64_t k = s->pieces_left - 1, b = k * p, e = size - b < p ? size : b + p;
		if (!wait_ready(s, size - b))
			return;
		if (io_checksum(s->base + b, e - b) != g->row_sums[k]) {
			atomic_store(&s->bad_piece, k);
			return;
		}
	}
}

static void *pieces_main(void *arg)
{
	check_pieces(arg);
	return NULL;
}

static void publish(struct lstream *s, uint64_t n)
{
	s->published = n;
	pthread_mutex_lock(&s->mu);
	atomic_store_explicit(&s->ready, n, memory_order_release);
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	tsg_progress_update(&s->prog, n, NULL);
}

/* From the reader: bytes [0, n) are in place (down: the last n),
 * published every PUBLISH_STEP bytes (the end comes after the read). A
 * read down's first stretch is published at once however short: the top
 * rows are the ones wanted first. */
static int on_ready(void *ctx, uint64_t n)
{
	struct lstream *s = ctx;
	if (s->xs && !s->down) {
		io_hash_update(s->xs, s->base + s->hashed, n - s->hashed);
		s->hashed = n;
	}
	if (n - s->published >= PUBLISH_STEP || (s->down && s->published == 0))
		publish(s, n);
	return s->halt && atomic_load(s->halt);
}

/* Brings the section in at s->base: read into it, or, from a mapped file,
 * walk the mapping in order (hashing it if plain) so that the workers
 * follow a sequential read instead of faulting pages at random. */
static int read_section(struct lstream *s, struct tsg_err *err)
{
	const struct tsg_graph *g = s->g;
	const struct io_section *sec = &g->lists_sec;
	if (io_file_mode(g->file) != IO_MODE_MMAP)
		return s->down ? io_file_read_stream_down(g->file, sec->offset, sec->size,
							  (uint8_t *)s->base, 0, on_ready, s, err)
			       : io_file_read_stream(g->file, sec->offset, sec->size,
						     (uint8_t *)s->base, on_ready, s, err);
	uint64_t asked = 0; /* bytes asked for ahead (io_file_willneed), from the walk's start */
	for (uint64_t done = 0; done < sec->size;) {
		const uint64_t step = sec->size - done < MAP_STEP ? sec->size - done : MAP_STEP;
		/* MAP_AHEAD past this step in flight: large reads, not the page
		 * cache's small readahead behind the walk. Only where the walk
		 * touches the pages (down, or hashing them on the way up): an
		 * LZ4 section walked up is published at once, and asking for all
		 * of it could evict pages before its workers reach them */
		const uint64_t want = done + step + MAP_AHEAD < sec->size ? done + step + MAP_AHEAD
									  : sec->size;
		if ((s->down || s->xs) && want > asked) {
			io_file_willneed(g->file, s->down ? sec->offset + sec->size - want
							  : sec->offset + asked, want - asked);
			asked = want;
		}
		if (s->down) { /* touched from the end: the pages come in down */
			volatile uint8_t sink = 0;
			for (uint64_t at = sec->size - done; at > sec->size - done - step;) {
				at = at - 1 - (at - 1) % 4096; /* the page of the byte below */
				sink ^= s->base[at];
			}
			(void)sink;
		}
		done += step;
		if (on_ready(s, done) && done < sec->size)
			return tsg_fail(err, TSG_EINTERRUPTED, "%s: read stopped at offset %llu",
					io_file_path(g->file), (unsigned long long)(sec->offset + done));
	}
	return TSG_OK;
}

static int read_lists(struct tsg_graph *g, io_rows_fn rows, void *ctx, int down,
		      const atomic_int *halt, struct tsg_err *err)
{
	if (!g->lists_pending)
		return tsg_fail(err, TSG_EINTERNAL, "graph lists read twice");
	if (g->lists_src) { /* a decoder's lists: it places and checks them */
		const int rc = g->lists_src->read(g->lists_src, g, rows, ctx, err);
		if (rc == TSG_OK) {
			g->lists_src->release(g->lists_src);
			g->lists_src = NULL;
			g->lists_pending = 0;
			if (!rows) { /* nothing was ranked by the bounds: true degrees from here */
				free(g->rank_off);
				g->rank_off = NULL;
			}
		}
		return rc;
	}
	if (halt && atomic_load(halt)) /* stopped before it began: nothing read */
		return tsg_fail(err, TSG_EINTERRUPTED, "%s: read stopped before it began",
				io_file_path(g->file));
	const char *path = io_file_path(g->file);
	const unsigned threads = g->threads;
	struct lstream s = { .g = g, .rows = rows, .ctx = ctx, .down = down, .halt = halt };
	struct io_lz4_index ix = { 0 };
	struct worker *w = calloc(threads, sizeof(*w));
	uint8_t *zmem = NULL;
	unsigned started = 0;
	/* read down, a plain section's pieces are checked as they come */
	const int pieces = down && !g->compressed && g->row_sums;
	pthread_t pieces_th;
	int pieces_started = 0;
	double t0 = tsg_now();
	int rc = w ? TSG_OK : tsg_fail(err, TSG_ENOMEM, "out of memory");
	atomic_init(&s.ready, 0);
	atomic_init(&s.next, 0);
	atomic_init(&s.bad_vertex, UINT64_MAX);
	atomic_init(&s.bad_chunk, UINT64_MAX);
	atomic_init(&s.sym_sum, 0);
	atomic_init(&s.bad_piece, UINT64_MAX);
	pthread_mutex_init(&s.mu, NULL);
	pthread_cond_init(&s.cv, NULL);
	if (rc)
		goto done;
	const uint64_t size = g->lists_sec.size;
	s.out = g->adj_mem ? g->adj_mem : g->adj_scratch ? g->adj_scratch->mem : NULL;
	if (g->compressed) {
		rc = io_lz4_index_read(g->file, &g->index_sec, g->nv, g->off, size, &ix, err);
		if (rc)
			goto done;
		s.ix = ix.n ? &ix : NULL; /* no chunks: no lists, only vertices */
		s.nunits = ix.n;
		s.scratch = calloc(threads, sizeof(*s.scratch));
		for (unsigned t = 0; s.scratch && t < threads; t++)
			if (!(s.scratch[t] = malloc(ix.biggest ? ix.biggest : 1)))
				break;
		if (!s.scratch || !s.scratch[threads - 1]) {
			rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory for decoding", path);
			goto done;
		}
		if (io_file_mode(g->file) != IO_MODE_MMAP) {
			zmem = aligned_alloc(4096, tsg_align_up(size + 1, 4096));
			if (!zmem) {
				rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory for %llu compressed "
					      "bytes", path, (unsigned long long)size);
				goto done;
			}
		}
	} else if (pieces) {
		s.pieces_left = io_row_pieces(size, g->row_piece);
	} else {
		s.xs = io_hash_new();
		if (!s.xs) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
			goto done;
		}
	}
	if (!s.ix) { /* units of vertices: plain lists, or none at all */
		const uint64_t per = g->nv / (16ull * threads);
		s.unit_v = per > UNIT_MAX ? UNIT_MAX : per < UNIT_MIN ? UNIT_MIN : per;
		s.nunits = (g->nv + s.unit_v - 1) / s.unit_v;
	}
	/* plain lists are read where they stay, compressed ones beside them */
	if (io_file_mode(g->file) == IO_MODE_MMAP)
		s.base = io_file_map(g->file) + g->lists_sec.offset;
	else
		s.base = g->compressed ? zmem : (uint8_t *)s.out;
	tsg_progress_init(&s.prog, "read", "B", size, g->progress && size >= (64u << 20));
	for (unsigned t = 0; t < threads; t++) {
		w[t] = (struct worker){ .s = &s, .tid = t };
		if (pthread_create(&w[t].th, NULL, worker_main, &w[t]) != 0)
			break;
		started++;
	}
	if (started == 0) {
		rc = tsg_fail(err, TSG_ENOMEM, "cannot start reading threads");
		goto done;
	}
	/* no thread for the pieces: this one checks them after the read */
	pieces_started = pieces && pthread_create(&pieces_th, NULL, pieces_main, &s) == 0;
	rc = read_section(&s, err);
	if (rc == TSG_OK)
		publish(&s, size); /* also a section of 0 bytes */
	pthread_mutex_lock(&s.mu);
	s.stop = rc != TSG_OK;
	pthread_cond_broadcast(&s.cv);
	pthread_mutex_unlock(&s.mu);
	for (unsigned t = 0; t < started; t++)
		pthread_join(w[t].th, NULL);
	if (pieces_started)
		pthread_join(pieces_th, NULL);
	tsg_progress_done(&s.prog);
	if (rc)
		goto done;
	g->read_seconds += tsg_now() - t0;
	t0 = tsg_now();
	const uint64_t bad_chunk = atomic_load(&s.bad_chunk);
	if (pieces && atomic_load(&s.bad_piece) == UINT64_MAX)
		check_pieces(&s); /* none left where the thread ran */
	const uint64_t bad_piece = atomic_load(&s.bad_piece);
	if (s.xs && down)
		io_hash_update(s.xs, s.base, g->lists_sec.size);
	if (s.xs && io_hash_digest(s.xs) != g->lists_sec.xxh3) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: checksum mismatch in the %s section (file is "
			      "corrupt)", path, g->oriented ? "row" : "neighbour");
	} else if (bad_piece != UINT64_MAX) {
		rc = io_check_fail_piece(g, path, bad_piece, err);
	} else if (bad_chunk != UINT64_MAX) {
		const struct io_lz4_chunk *k = &ix.ch[bad_chunk];
		const int sum_ok = io_checksum(s.base + k->pos, k->csize) == k->xxh3;
		rc = io_lz4_chunk_fail(path, &ix, bad_chunk, sum_ok ? IO_LZ4_BAD_DATA : IO_LZ4_BAD_SUM,
				       err);
	} else if (atomic_load(&s.bad_vertex) != UINT64_MAX) {
		rc = g->oriented ? io_check_fail_row(path, atomic_load(&s.bad_vertex), err)
				 : io_check_fail_vertex(path, atomic_load(&s.bad_vertex), err);
	} else if (atomic_load(&s.sym_sum) != 0) {
		rc = io_check_fail_symmetry(path, err);
	}
	g->check_seconds = tsg_now() - t0;
	if (rc == TSG_OK) {
		g->lists_pending = 0;
		if (io_file_mode(g->file) != IO_MODE_MMAP) {
			io_file_close(g->file); /* the lists are in our buffers now */
			g->file = NULL;
		}
	}
done:
	for (unsigned t = 0; s.scratch && t < threads; t++)
		free(s.scratch[t]);
	free(s.scratch);
	if (g->compressed)
		free(zmem);
	io_hash_free(s.xs);
	io_lz4_index_free(&ix);
	pthread_mutex_destroy(&s.mu);
	pthread_cond_destroy(&s.cv);
	free(w);
	return rc;
}

int io_graph_read_lists(struct tsg_graph *g, io_rows_fn rows, void *ctx, struct tsg_err *err)
{
	return read_lists(g, rows, ctx, 0, NULL, err);
}

int io_graph_read_lists_down(struct tsg_graph *g, io_rows_fn rows, void *ctx,
			     struct tsg_err *err)
{
	return io_graph_read_lists_until(g, rows, ctx, 1, NULL, err);
}

int io_graph_read_lists_until(struct tsg_graph *g, io_rows_fn rows, void *ctx, int down,
			      const atomic_int *halt, struct tsg_err *err)
{
	if (down && (!g->oriented || g->lists_src || !g->lists_pending))
		return tsg_fail(err, TSG_EINTERNAL, "only an oriented file's pending rows are "
				"read down");
	if (halt && g->lists_src)
		return tsg_fail(err, TSG_EINTERNAL, "a decoder's lists are read to their end");
	return read_lists(g, rows, ctx, down, halt, err);
}
