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
 *  4. offsets by a prefix sum over the degrees (ranks too, with relabel);
 *  5. per bucket: its packed rows copied into the file (relabelled).
 * Buckets are handed out dynamically: a hub's bucket is one thread's work.
 */
#include "io/csr_build.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

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
	uint32_t *adj;           /* the file's lists */
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

/* Pass 3 for buckets [b, e). */
static void pack_buckets(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct csr_job *j = ctx;
	for (uint64_t k = b; k < e; k++) {
		const uint64_t s = j->start[k], m = j->start[k + 1] - s;
		const uint64_t r0 = k << j->shift;
		const uint64_t r1 = (k + 1) << j->shift < j->nv ? (k + 1) << j->shift : j->nv;
		j->packed[k] = 0;
		if (m == 0) {
			for (uint64_t r = r0; r < r1; r++)
				j->deg[r] = 0;
			continue;
		}
		/* columns by row into scratch (cur: per-row cursors), then each
		 * row sorted and deduplicated in place and packed at the span's
		 * front, which the scratch copy has freed */
		uint64_t *cur = calloc(r1 - r0 + 1, sizeof(*cur));
		uint32_t *col = malloc(m * sizeof(*col)), *tmp = NULL;
		if (!cur || !col) {
			j->oom = 1;
			free(cur);
			free(col);
			free(tmp);
			return;
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
		uint64_t at = 0, from = 0;
		for (uint64_t r = 0; r < r1 - r0; r++) {
			const size_t len = sort_unique_row(col + from, cur[r] - from, tmp);
			memcpy(out + at, col + from, len * sizeof(*out));
			j->deg[r0 + r] = len;
			at += len;
			from = cur[r];
		}
		j->packed[k] = at;
		free(cur);
		free(col);
		free(tmp);
	}
}

/* Pass 5 for buckets [b, e). */
static void copy_buckets(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct csr_job *j = ctx;
	for (uint64_t k = b; k < e; k++) {
		const uint32_t *in = (const uint32_t *)(j->ent + j->start[k]);
		/* a bucket's rows are consecutive, so its columns are too (rows
		 * dropped by relabel hold none) */
		uint32_t *dst = j->adj + j->deg[k << j->shift];
		if (!j->rank) {
			memcpy(dst, in, j->packed[k] * sizeof(*dst));
			continue;
		}
		for (uint64_t i = 0; i < j->packed[k]; i++)
			dst[i] = j->rank[in[i]]; /* increasing: rows stay sorted */
	}
	if (j->copied) {
		pthread_mutex_lock(&j->mu);
		memset(j->copied + b, 1, e - b);
		pthread_cond_signal(&j->cv);
		pthread_mutex_unlock(&j->mu);
	}
}

/* Pass 5's follower: as the buckets copied reach further without a gap,
 * their lists are folded into the section's checksum and handed to the
 * disk, so that committing the file neither reads the half gigabyte again
 * nor waits for all of it to be written (R-MAT 22 on the H100's host: 0.09
 * s of checksum and 0.25 s of writeback otherwise after the copy). */
struct trail {
	struct csr_job *j;
	XXH3_state_t *xs;
	int ok;
};

static void *trail_main(void *arg)
{
	struct trail *t = arg;
	struct csr_job *j = t->j;
	const uint8_t *base = (const uint8_t *)j->adj;
	uint64_t front = 0, done = 0; /* buckets, bytes followed */
	t->ok = XXH3_64bits_reset(t->xs) == XXH_OK;
	while (front < j->nbuckets) {
		pthread_mutex_lock(&j->mu);
		while (!j->copied[front])
			pthread_cond_wait(&j->cv, &j->mu);
		while (front < j->nbuckets && j->copied[front])
			front++;
		pthread_mutex_unlock(&j->mu);
		/* the lists of buckets [0, front) end where the next bucket's
		 * first row starts */
		const uint64_t row = front << j->shift < j->nv ? front << j->shift : j->nv;
		const uint64_t end = j->deg[row] * sizeof(*j->adj);
		t->ok &= XXH3_64bits_update(t->xs, base + done, end - done) == XXH_OK;
		io_writer_flush_begin(j->w, base + done, end - done);
		done = end;
	}
	return NULL;
}

int io_csr_build(uint64_t *keys, size_t n, uint64_t nv, int relabel, unsigned threads,
		 const struct io_csr_out *out, struct io_csr_stats *st, struct tsg_err *err)
{
	struct csr_job j = { .keys = keys, .n = n, .nv = nv };
	struct io_writer *w = NULL;
	uint64_t *moff = NULL;
	uint32_t *madj = NULL;
	const double t0 = tsg_now();
	int rc = TSG_OK;
	if (threads < 1)
		threads = 1;
	while ((nv - 1) >> j.shift >= (1u << MAX_BUCKET_BITS) && nv > 0)
		j.shift++;
	j.nbuckets = nv ? ((nv - 1) >> j.shift) + 1 : 1;
	j.nslices = n > (size_t)threads * 65536 ? 4 * threads : 1;
	j.slice = (n + j.nslices - 1) / j.nslices;
	j.hist = calloc((size_t)j.nslices * j.nbuckets, sizeof(*j.hist));
	j.start = malloc((j.nbuckets + 1) * sizeof(*j.start));
	j.packed = malloc(j.nbuckets * sizeof(*j.packed));
	j.deg = malloc((nv + 1) * sizeof(*j.deg));
	j.ent = malloc((n ? 2 * n : 1) * sizeof(*j.ent));
	if (j.ent)
		tsg_advise_huge(j.ent, 2 * n * sizeof(*j.ent));
	if (relabel)
		j.rank = malloc((nv ? nv : 1) * sizeof(*j.rank));
	if (!j.hist || !j.start || !j.packed || !j.deg || !j.ent || (relabel && !j.rank)) {
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
	tsg_parallel_for(threads, j.nbuckets, 1, pack_buckets, &j);
	if (j.oom) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory sorting the rows of a graph of %zu "
			      "edges (lower --mem-limit to sort through temporary files)", n);
		goto done;
	}
	/* degrees to offsets, dropping rows without edges under relabel */
	uint64_t out_nv = 0, nadj = 0, maxdeg = 0;
	for (uint64_t v = 0; v < nv; v++) {
		const uint64_t d = j.deg[v];
		if (relabel && d == 0) {
			j.deg[v] = nadj;
			continue;
		}
		if (relabel)
			j.rank[v] = (uint32_t)out_nv;
		j.deg[v] = nadj;
		nadj += d;
		maxdeg = d > maxdeg ? d : maxdeg;
		out_nv++;
	}
	j.deg[nv] = nadj;
	if (!relabel)
		out_nv = nv;
	uint64_t *off;
	if (out->path) {
		rc = io_writer_open(out->path, out_nv, nadj, &w, err);
		if (rc)
			goto done;
		j.adj = io_writer_neighbors(w);
		off = io_writer_offsets(w);
	} else {
		moff = malloc((out_nv + 1) * sizeof(*moff));
		madj = malloc((nadj ? nadj : 1) * sizeof(*madj));
		if (!moff || !madj) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory for a graph of %llu list entries",
				      (unsigned long long)nadj);
			goto done;
		}
		tsg_advise_huge(madj, nadj * sizeof(*madj));
		j.adj = madj;
		off = moff;
	}
	struct trail tr = { .j = &j, .xs = w ? XXH3_createState() : NULL };
	pthread_t th;
	int trailing = 0;
	if (tr.xs && (j.copied = calloc(j.nbuckets, 1))) {
		j.w = w;
		pthread_mutex_init(&j.mu, NULL);
		pthread_cond_init(&j.cv, NULL);
		trailing = pthread_create(&th, NULL, trail_main, &tr) == 0;
		if (!trailing) { /* copied alone: commit checksums the section */
			pthread_mutex_destroy(&j.mu);
			pthread_cond_destroy(&j.cv);
			free(j.copied);
			j.copied = NULL;
		}
	}
	tsg_parallel_for(threads, j.nbuckets, 16, copy_buckets, &j);
	if (trailing) {
		pthread_join(th, NULL);
		if (tr.ok)
			io_writer_set_checksum(w, IO_SEC_NEIGHBORS, XXH3_64bits_digest(tr.xs));
	}
	if (j.copied) {
		pthread_mutex_destroy(&j.mu);
		pthread_cond_destroy(&j.cv);
	}
	XXH3_freeState(tr.xs);
	if (!relabel) {
		memcpy(off, j.deg, (nv + 1) * sizeof(*off));
	} else {
		for (uint64_t v = 0; v < nv; v++)
			if (j.deg[v] != j.deg[v + 1])
				off[j.rank[v]] = j.deg[v];
		off[out_nv] = nadj;
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
	io_writer_abort(w);
	free(moff);
	free(madj);
	free(j.hist);
	free(j.start);
	free(j.packed);
	free(j.deg);
	free(j.ent);
	free(j.rank);
	free(j.copied);
	return rc;
}
