/*
 * csr_build.c - parallel bucketed construction of a canonical graph file
 * (see csr_build.h).
 *
 * Passes:
 *  1. per slice of the keys, counts of directed entries per bucket (a
 *     bucket is 2^shift consecutive rows; at most 2^16 buckets);
 *  2. the slices scatter (row<<32|col) entries into their buckets' spans;
 *     the keys are freed;
 *  3. per bucket: entries placed by row (counting sort), each row sorted
 *     and deduplicated, packed as 32-bit columns at the start of the
 *     bucket's span, and each row's final degree recorded;
 *  4. per bucket: its packed rows copied into the output, with their
 *     offsets. Without relabel, a bucket is copied as soon as every bucket
 *     before it is packed (its place is then known), by whichever thread is
 *     free, so the copy and the file's writeback run under the packing; the
 *     output is made for the most lists the keys can give (2n entries) and
 *     cut to what is left after deduplication. In turn instead (all buckets
 *     packed, then copied into an output of the exact size): with relabel,
 *     whose ranks need every row's degree first, and for a file whose disk
 *     lacks room for the bound.
 * Buckets are handed out dynamically: a hub's bucket is one thread's work.
 * Into a file, a thread follows the copy in bucket order, checksumming the
 * lists and starting the disk on them (trail_main).
 */
#include "io/csr_build.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "io/hash.h"
#include "io/sort.h"
#include "io/writer.h"
#include "base/util.h"

/* 2^11 buckets: few enough write streams for the scatter to stay in the
 * caches (2^16 made it the costliest pass), many enough to balance */
enum { MAX_BUCKET_BITS = 11, SMALL_ROW = 24, RADIX_ROW = 2048 };

struct csr_job {
	uint64_t *keys;
	size_t n, slice;
	unsigned nslices;
	unsigned shift;          /* row >> shift is the bucket */
	uint64_t nbuckets, nv;
	uint64_t *hist;          /* [slice][bucket] counts, then scatter cursors */
	uint64_t *start;         /* nbuckets + 1: each bucket's span in ent */
	uint64_t *ent;           /* 2n entries; after pass 3 each span starts
				  * with its bucket's packed uint32 columns */
	uint64_t *packed;        /* per bucket: columns kept */
	uint64_t *deg;           /* nv + 1: final degree, then offsets */
	uint32_t *rank;          /* relabel: new id of each old one, or NULL */
	uint32_t *adj;           /* the output's lists */
	uint64_t *off;           /* the output's offsets (fused passes), else NULL */
	uint64_t *pos;           /* nbuckets + 1: where each bucket's lists go, in
				  * entries (fused: known in order, under mu) */
	uint64_t *longest;       /* per bucket: its longest row */
	unsigned char *done;     /* fused: per bucket, packed (under mu) */
	uint64_t front;          /* fused: buckets packed without a gap (under mu) */
	atomic_uint_fast64_t copy_next; /* fused: the next bucket to copy */
	int stop;                /* the follower stops waiting (under mu) */
	int oom;
	/* pass 5 into a file: buckets copied, followed in order by a thread
	 * that hashes them and starts the disk on them (trail_main) */
	struct io_writer *w;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned char *copied;   /* per bucket, under mu */
};

static void count_slices(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct csr_job *j = ctx;
	for (uint64_t s = b; s < e; s++) {
		uint64_t *h = j->hist + s * j->nbuckets;
		const size_t lo = s * j->slice, hi = lo + j->slice < j->n ? lo + j->slice : j->n;
		for (size_t i = lo; i < hi; i++) {
			h[(j->keys[i] >> 32) >> j->shift]++;
			h[(j->keys[i] & 0xffffffffu) >> j->shift]++;
		}
	}
}

static void scatter_slices(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct csr_job *j = ctx;
	for (uint64_t s = b; s < e; s++) {
		uint64_t *cur = j->hist + s * j->nbuckets;
		const size_t lo = s * j->slice, hi = lo + j->slice < j->n ? lo + j->slice : j->n;
		for (size_t i = lo; i < hi; i++) {
			const uint64_t k = j->keys[i], u = k >> 32, v = k & 0xffffffffu;
			j->ent[cur[u >> j->shift]++] = k;
			j->ent[cur[v >> j->shift]++] = v << 32 | u;
		}
	}
}

static void insertion_sort(uint32_t *r, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const uint32_t x = r[i];
		size_t k = i;
		while (k > 0 && r[k - 1] > x) {
			r[k] = r[k - 1];
			k--;
		}
		r[k] = x;
	}
}

/* Quicksort for rows of moderate length (median of three; the smaller
 * side recursed, so depth stays logarithmic). */
static void quick_sort(uint32_t *r, size_t n)
{
	while (n > SMALL_ROW) {
		uint32_t a = r[0], b = r[n / 2], c = r[n - 1];
		const uint32_t p = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		size_t i = 0, k = n - 1;
		for (;;) {
			while (r[i] < p)
				i++;
			while (r[k] > p)
				k--;
			if (i >= k)
				break;
			const uint32_t t = r[i];
			r[i++] = r[k];
			r[k--] = t;
		}
		/* [0, k] <= p <= [k + 1, n) */
		if (k + 1 < n - k - 1) {
			quick_sort(r, k + 1);
			r += k + 1;
			n -= k + 1;
		} else {
			quick_sort(r + k + 1, n - k - 1);
			n = k + 1;
		}
	}
	insertion_sort(r, n);
}

/* Sorts a row and drops repeats; returns its new length. tmp: scratch for
 * rows past RADIX_ROW, or NULL. */
static size_t sort_unique_row(uint32_t *r, size_t n, uint32_t *tmp)
{
	if (n > RADIX_ROW && tmp)
		io_sort_u32(r, tmp, n);
	else
		quick_sort(r, n);
	size_t out = n ? 1 : 0;
	for (size_t i = 1; i < n; i++)
		if (r[i] != r[out - 1])
			r[out++] = r[i];
	return out;
}

static uint64_t bucket_end_row(const struct csr_job *j, uint64_t k)
{
	return (k + 1) << j->shift < j->nv ? (k + 1) << j->shift : j->nv;
}

/* Pass 3 for bucket k; 0 where its scratch cannot be had. */
static int pack_one(struct csr_job *j, uint64_t k)
{
	const uint64_t s = j->start[k], m = j->start[k + 1] - s;
	const uint64_t r0 = k << j->shift, r1 = bucket_end_row(j, k);
	j->packed[k] = 0;
	j->longest[k] = 0;
	if (m == 0) {
		for (uint64_t r = r0; r < r1; r++)
			j->deg[r] = 0;
		return 1;
	}
	/* columns by row into scratch (cur: per-row cursors), then each row
	 * sorted and deduplicated in place and packed at the span's front,
	 * which the scratch copy has freed */
	uint64_t *cur = calloc(r1 - r0 + 1, sizeof(*cur));
	uint32_t *col = malloc(m * sizeof(*col)), *tmp = NULL;
	if (!cur || !col) {
		free(cur);
		free(col);
		return 0;
	}
	const uint64_t *ent = j->ent + s;
	for (uint64_t i = 0; i < m; i++)
		cur[(ent[i] >> 32) - r0 + 1]++;
	uint64_t longest = 0;
	for (uint64_t r = 1; r <= r1 - r0; r++) {
		longest = cur[r] > longest ? cur[r] : longest;
		cur[r] += cur[r - 1];
	}
	if (longest > RADIX_ROW) /* radix scratch; quicksort where it cannot be had */
		tmp = malloc(longest * sizeof(*tmp));
	for (uint64_t i = 0; i < m; i++)
		col[cur[(ent[i] >> 32) - r0]++] = (uint32_t)ent[i];
	/* cur[r] is now the end of row r, and the start of row r + 1 */
	uint32_t *out = (uint32_t *)(j->ent + s);
	uint64_t at = 0, from = 0, kept = 0;
	for (uint64_t r = 0; r < r1 - r0; r++) {
		const size_t len = sort_unique_row(col + from, cur[r] - from, tmp);
		memcpy(out + at, col + from, len * sizeof(*out));
		j->deg[r0 + r] = len;
		kept = len > kept ? len : kept;
		at += len;
		from = cur[r];
	}
	j->packed[k] = at;
	j->longest[k] = kept;
	free(cur);
	free(col);
	free(tmp);
	return 1;
}

static void pack_buckets(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct csr_job *j = ctx;
	for (uint64_t k = b; k < e; k++)
		if (!pack_one(j, k))
			j->oom = 1;
}

/* Pass 4 for bucket k, whose place pos[k] is known: its lists, relabelled
 * or not, and in the fused passes its rows' offsets; then the follower is
 * told. A bucket's rows are consecutive, so its columns are too (rows
 * dropped by relabel hold none). */
static void copy_one(struct csr_job *j, uint64_t k)
{
	const uint32_t *in = (const uint32_t *)(j->ent + j->start[k]);
	uint32_t *dst = j->adj + j->pos[k];
	if (!j->rank)
		memcpy(dst, in, j->packed[k] * sizeof(*dst));
	else
		for (uint64_t i = 0; i < j->packed[k]; i++)
			dst[i] = j->rank[in[i]]; /* increasing: rows stay sorted */
	const uint64_t r1 = bucket_end_row(j, k);
	if (j->off) /* without relabel, rows are ids: their offsets follow */
		for (uint64_t r = k << j->shift, at = j->pos[k]; r < r1; r++) {
			j->off[r] = at;
			at += j->deg[r];
		}
	if (j->copied) {
		pthread_mutex_lock(&j->mu);
		j->copied[k] = 1;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
	}
}

static void copy_buckets(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	for (uint64_t k = b; k < e; k++)
		copy_one(ctx, k);
}

/* Fused passes: bucket k is packed; the front of buckets packed without a
 * gap moves on, fixing their places. */
static void publish_packed(struct csr_job *j, uint64_t k)
{
	pthread_mutex_lock(&j->mu);
	j->done[k] = 1;
	while (j->front < j->nbuckets && j->done[j->front]) {
		j->pos[j->front + 1] = j->pos[j->front] + j->packed[j->front];
		j->front++;
	}
	pthread_mutex_unlock(&j->mu);
}

/* Copies buckets whose place is known and that no thread has taken yet. */
static void copy_ready(struct csr_job *j)
{
	for (;;) {
		pthread_mutex_lock(&j->mu);
		const uint64_t front = j->front;
		pthread_mutex_unlock(&j->mu);
		uint_fast64_t c = atomic_load(&j->copy_next);
		if (c >= front)
			return;
		if (atomic_compare_exchange_weak(&j->copy_next, &c, c + 1))
			copy_one(j, c);
	}
}

static void pack_copy(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct csr_job *j = ctx;
	for (uint64_t k = b; k < e; k++) {
		if (!pack_one(j, k)) {
			j->oom = 1; /* the front stops here; the caller fails */
			return;
		}
		publish_packed(j, k);
		copy_ready(j);
	}
}

/* What the packing threads left to copy, on every thread. */
static void copy_rest(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)b;
	(void)e;
	(void)tid;
	copy_ready(ctx);
}

/* Pass 4's follower: as the buckets copied reach further without a gap,
 * their lists are folded into the section's checksum and handed to the
 * disk, so that committing the file neither reads the half gigabyte again
 * nor waits for all of it to be written (R-MAT 22 on the H100's host: 0.09
 * s of checksum and 0.25 s of writeback otherwise after the copy). */
struct trail {
	struct csr_job *j;
	struct io_hash *xs;
	int ok;
};

static void *trail_main(void *arg)
{
	struct trail *t = arg;
	struct csr_job *j = t->j;
	const uint8_t *base = (const uint8_t *)j->adj;
	uint64_t front = 0, done = 0; /* buckets, bytes followed */
	t->ok = 1;
	while (front < j->nbuckets) {
		pthread_mutex_lock(&j->mu);
		while (!j->copied[front] && !j->stop)
			pthread_cond_wait(&j->cv, &j->mu);
		if (!j->copied[front]) { /* stopped: the build failed */
			pthread_mutex_unlock(&j->mu);
			t->ok = 0;
			return NULL;
		}
		while (front < j->nbuckets && j->copied[front])
			front++;
		pthread_mutex_unlock(&j->mu);
		/* the lists of buckets [0, front) end where the next one's start */
		const uint64_t end = j->pos[front] * sizeof(*j->adj);
		io_hash_update(t->xs, base + done, end - done);
		io_writer_flush_begin(j->w, base + done, end - done);
		done = end;
	}
	return NULL;
}

/* The output for nv rows and room for nadj entries: a file's writer (*w),
 * or arrays in memory (*moff, *madj); *off is where the offsets go. */
static int open_output(const struct io_csr_out *out, uint64_t nv, uint64_t nadj,
		       struct io_writer **w, uint64_t **moff, uint32_t **madj, uint64_t **off,
		       struct tsg_err *err)
{
	if (out->path) {
		const int rc = io_writer_open(out->path, nv, nadj, w, err);
		*off = rc ? NULL : io_writer_offsets(*w);
		return rc;
	}
	*moff = malloc((nv + 1) * sizeof(**moff));
	*madj = malloc((nadj ? nadj : 1) * sizeof(**madj));
	if (!*moff || !*madj)
		return tsg_fail(err, TSG_ENOMEM, "out of memory for a graph of %llu list entries",
				(unsigned long long)nadj);
	tsg_advise_huge(*madj, nadj * sizeof(**madj));
	*off = *moff;
	return TSG_OK;
}

/* Points the copy at the output (a file's writer w, or the lists madj in
 * memory) and, into a file, starts its follower; 0 where none runs (then
 * commit checksums the lists itself). */
static int begin_copy(struct csr_job *j, struct io_writer *w, uint32_t *madj, struct trail *t,
		      pthread_t *th)
{
	j->adj = w ? io_writer_neighbors(w) : madj;
	j->w = w;
	t->xs = w ? io_hash_new() : NULL;
	if (!t->xs || !(j->copied = calloc(j->nbuckets, 1)))
		return 0;
	if (pthread_create(th, NULL, trail_main, t) == 0)
		return 1;
	free(j->copied);
	j->copied = NULL;
	return 0;
}

int io_csr_build(uint64_t *keys, size_t n, uint64_t nv, int relabel, unsigned threads,
		 const struct io_csr_out *out, struct io_csr_stats *st, struct tsg_err *err)
{
	struct csr_job j = { .keys = keys, .n = n, .nv = nv };
	struct io_writer *w = NULL;
	uint64_t *moff = NULL;
	uint32_t *madj = NULL;
	struct trail tr = { .j = &j };
	pthread_t th;
	int trailing = 0;
	const double t0 = tsg_now();
	int rc = TSG_OK;
	if (threads < 1)
		threads = 1;
	pthread_mutex_init(&j.mu, NULL);
	pthread_cond_init(&j.cv, NULL);
	atomic_init(&j.copy_next, 0);
	while ((nv - 1) >> j.shift >= (1u << MAX_BUCKET_BITS) && nv > 0)
		j.shift++;
	j.nbuckets = nv ? ((nv - 1) >> j.shift) + 1 : 1;
	j.nslices = n > (size_t)threads * 65536 ? 4 * threads : 1;
	j.slice = (n + j.nslices - 1) / j.nslices;
	j.hist = calloc((size_t)j.nslices * j.nbuckets, sizeof(*j.hist));
	j.start = malloc((j.nbuckets + 1) * sizeof(*j.start));
	j.packed = malloc(j.nbuckets * sizeof(*j.packed));
	j.longest = malloc(j.nbuckets * sizeof(*j.longest));
	j.pos = calloc(j.nbuckets + 1, sizeof(*j.pos));
	j.done = calloc(j.nbuckets, 1);
	j.deg = malloc((nv + 1) * sizeof(*j.deg));
	j.ent = malloc((n ? 2 * n : 1) * sizeof(*j.ent));
	if (j.ent)
		tsg_advise_huge(j.ent, 2 * n * sizeof(*j.ent));
	if (relabel)
		j.rank = malloc((nv ? nv : 1) * sizeof(*j.rank));
	if (!j.hist || !j.start || !j.packed || !j.longest || !j.pos || !j.done || !j.deg ||
	    !j.ent || (relabel && !j.rank)) {
		free(keys);
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory building a graph of %zu edges "
			      "(lower --mem-limit to sort through temporary files)", n);
		goto done;
	}
	tsg_parallel_for(threads, j.nslices, 1, count_slices, &j);
	/* bucket spans, and each slice's cursor inside every bucket */
	uint64_t sum = 0;
	for (uint64_t k = 0; k < j.nbuckets; k++) {
		j.start[k] = sum;
		for (unsigned s = 0; s < j.nslices; s++) {
			const uint64_t c = j.hist[(size_t)s * j.nbuckets + k];
			j.hist[(size_t)s * j.nbuckets + k] = sum;
			sum += c;
		}
	}
	j.start[j.nbuckets] = sum;
	tsg_parallel_for(threads, j.nslices, 1, scatter_slices, &j);
	free(keys);
	j.keys = NULL;
	uint64_t out_nv = nv, nadj = 0, maxdeg = 0;
	const int fused = !relabel && !out->in_turn &&
			  (!out->path || io_writer_room(out->path, nv, 2 * (uint64_t)n));
	if (fused) {
		/* the output made for every entry the keys hold (2n), cut to
		 * what deduplication leaves once all is copied */
		rc = open_output(out, nv, 2 * (uint64_t)n, &w, &moff, &madj, &j.off, err);
		if (rc)
			goto done;
		trailing = begin_copy(&j, w, madj, &tr, &th);
		tsg_parallel_for(threads, j.nbuckets, 1, pack_copy, &j);
		if (!j.oom)
			tsg_parallel_for(threads, threads, 1, copy_rest, &j);
		nadj = j.pos[j.nbuckets];
		j.off[nv] = nadj;
	} else {
		tsg_parallel_for(threads, j.nbuckets, 1, pack_buckets, &j);
	}
	if (j.oom) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory sorting the rows of a graph of %zu "
			      "edges (lower --mem-limit to sort through temporary files)", n);
		goto done;
	}
	for (uint64_t k = 0; k < j.nbuckets; k++)
		maxdeg = j.longest[k] > maxdeg ? j.longest[k] : maxdeg;
	if (!fused) {
		/* each bucket's place from what it kept; relabel's ranks skip
		 * rows without edges */
		for (uint64_t k = 0; k < j.nbuckets; k++)
			j.pos[k + 1] = j.pos[k] + j.packed[k];
		nadj = j.pos[j.nbuckets];
		if (relabel) {
			out_nv = 0;
			for (uint64_t v = 0; v < nv; v++)
				if (j.deg[v])
					j.rank[v] = (uint32_t)out_nv++;
		}
		uint64_t *off;
		rc = open_output(out, out_nv, nadj, &w, &moff, &madj, &off, err);
		if (rc)
			goto done;
		j.off = relabel ? NULL : off; /* ids kept: the copy writes the offsets */
		trailing = begin_copy(&j, w, madj, &tr, &th);
		tsg_parallel_for(threads, j.nbuckets, 16, copy_buckets, &j);
		for (uint64_t v = 0, at = 0; relabel && v < nv; at += j.deg[v], v++)
			if (j.deg[v])
				off[j.rank[v]] = at;
		off[out_nv] = nadj;
	}
	if (trailing) {
		pthread_join(th, NULL);
		trailing = 0;
	}
	if (w && fused)
		rc = io_writer_cut_neighbors(w, nadj, err);
	if (rc)
		goto done;
	if (w && tr.ok)
		io_writer_set_checksum(w, IO_SEC_NEIGHBORS, io_hash_digest(tr.xs));
	if (madj && fused) { /* give back what deduplication left unused */
		uint32_t *fit = realloc(madj, (nadj ? nadj : 1) * sizeof(*madj));
		madj = fit ? fit : madj;
	}
	st->duplicates = n - nadj / 2;
	st->isolated = nv - out_nv;
	st->nv = out_nv;
	st->nedges = nadj / 2;
	st->max_degree = maxdeg;
	st->build_s = tsg_now() - t0;
	st->write_s = 0;
	if (out->path) {
		const double t1 = tsg_now();
		if (!out->sync)
			io_writer_no_sync(w);
		rc = out->fd ? io_writer_commit_unnamed(w, maxdeg, out->fd, err)
			     : io_writer_commit(w, maxdeg, err);
		w = NULL;
		st->write_s = tsg_now() - t1;
	} else {
		io_graph_adopt(out->mem, out_nv, moff, madj, maxdeg, threads);
		moff = NULL;
		madj = NULL;
	}
done:
	if (trailing) { /* a failure while it waits: it stops */
		pthread_mutex_lock(&j.mu);
		j.stop = 1;
		pthread_cond_broadcast(&j.cv);
		pthread_mutex_unlock(&j.mu);
		pthread_join(th, NULL);
	}
	io_hash_free(tr.xs);
	pthread_mutex_destroy(&j.mu);
	pthread_cond_destroy(&j.cv);
	io_writer_abort(w);
	free(moff);
	free(madj);
	free(j.hist);
	free(j.start);
	free(j.packed);
	free(j.longest);
	free(j.pos);
	free(j.done);
	free(j.deg);
	free(j.ent);
	free(j.rank);
	free(j.copied);
	return rc;
}
