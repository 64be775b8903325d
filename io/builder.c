#include "io/builder.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/csr_build.h"
#include "io/format.h"
#include "io/sort.h"
#include "base/util.h"
#include "io/writer.h"

enum { MERGE_BATCH = 1 << 16 };

struct run {
	int fd;
	uint64_t len;      /* keys in the run */
	uint64_t pos;      /* keys consumed */
	uint64_t *buf;
	size_t have, at;   /* buffered keys, next one */
};

struct io_builder {
	struct io_builder_opts o;
	char *tmpdir;
	uint64_t *keys, *tmp;
	size_t n, cap, cap_max;
	struct run *runs;
	size_t nruns;
	uint64_t max_id;
	int any;
	struct io_build_stats st;
};

int io_builder_new(const struct io_builder_opts *opts, struct io_builder **out, struct tsg_err *err)
{
	struct io_builder *b = calloc(1, sizeof(*b));
	if (!b)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	b->o = *opts;
	if (b->o.mem_limit == 0)
		b->o.mem_limit = tsg_host_ram() / 5 * 2;
	if (b->o.threads == 0)
		b->o.threads = tsg_default_threads();
	/* keys + radix scratch, 16 bytes an edge; at least a small buffer */
	b->cap_max = b->o.mem_limit / 16;
	if (b->cap_max < 1024)
		b->cap_max = 1024;
	const char *dir = opts->tmpdir ? opts->tmpdir : getenv("TMPDIR");
	b->tmpdir = strdup(dir && *dir ? dir : "/tmp");
	if (!b->tmpdir) {
		free(b);
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	}
	*out = b;
	return TSG_OK;
}

void io_builder_reserve_vertices(struct io_builder *b, uint64_t nv)
{
	if (nv > b->o.min_nv)
		b->o.min_nv = nv;
}

void io_builder_free(struct io_builder *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nruns; i++) {
		close(b->runs[i].fd);
		free(b->runs[i].buf);
	}
	free(b->runs);
	free(b->keys);
	free(b->tmp);
	free(b->tmpdir);
	free(b);
}

static int grow(struct io_builder *b, size_t need, struct tsg_err *err)
{
	size_t cap = b->cap ? b->cap : 1 << 16;
	while (cap < need)
		cap *= 2;
	if (cap > b->cap_max)
		cap = b->cap_max;
	uint64_t *k = realloc(b->keys, cap * sizeof(*k));
	if (!k)
		return tsg_fail(err, TSG_ENOMEM, "out of memory for %zu edge keys (lower "
				"--mem-limit)", cap);
	tsg_advise_huge(k, cap * sizeof(*k)); /* filled by every thread: faults are dear */
	b->keys = k;
	b->cap = cap;
	return TSG_OK;
}

static int sort_buffer(struct io_builder *b, struct tsg_err *err)
{
	free(b->tmp);
	b->tmp = malloc((b->n ? b->n : 1) * sizeof(*b->tmp));
	if (!b->tmp || io_sort_u64(b->keys, b->tmp, b->n, b->o.threads) != 0)
		return tsg_fail(err, TSG_ENOMEM, "out of memory sorting %zu edges (lower "
				"--mem-limit)", b->n);
	free(b->tmp);
	b->tmp = NULL;
	size_t u = io_unique_u64(b->keys, b->n);
	b->st.duplicates += b->n - u;
	b->n = u;
	return TSG_OK;
}

static int write_all(int fd, const void *p, size_t len)
{
	const char *c = p;
	while (len > 0) {
		ssize_t w = write(fd, c, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno;
		c += w;
		len -= (size_t)w;
	}
	return 0;
}

static int spill(struct io_builder *b, struct tsg_err *err)
{
	int rc = sort_buffer(b, err);
	if (rc)
		return rc;
	struct run *r = realloc(b->runs, (b->nruns + 1) * sizeof(*r));
	if (!r)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	b->runs = r;
	int fd = open(b->tmpdir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		char name[4096];
		snprintf(name, sizeof(name), "%s/tristream-run-XXXXXX", b->tmpdir);
		fd = mkstemp(name);
		if (fd >= 0)
			unlink(name); /* anonymous from here on: gone on any exit */
	}
	if (fd < 0)
		return tsg_fail_errno(err, TSG_EIO, errno, "%s: cannot create a temporary run file",
				      b->tmpdir);
	int e = write_all(fd, b->keys, b->n * sizeof(uint64_t));
	if (e) {
		close(fd);
		return tsg_fail_errno(err, TSG_EIO, e, "%s: writing a temporary run of %zu edges%s",
				      b->tmpdir, b->n, e == ENOSPC ? " (disk full)" : "");
	}
	b->runs[b->nruns++] = (struct run){ .fd = fd, .len = b->n };
	b->n = 0;
	return TSG_OK;
}

int io_builder_add(struct io_builder *b, const uint64_t *edges, size_t n, struct tsg_err *err)
{
	for (size_t i = 0; i < n; i++) {
		const uint64_t key = io_edge_key(edges[i] >> 32, edges[i] & 0xffffffffu);
		b->st.input_edges++;
		if (!key) {
			b->st.self_loops++;
			continue;
		}
		if ((key & 0xffffffffu) > b->max_id)
			b->max_id = key & 0xffffffffu;
		b->any = 1;
		if (b->n == b->cap) {
			int rc = b->cap < b->cap_max ? grow(b, b->n + 1, err) : spill(b, err);
			if (rc)
				return rc;
		}
		b->keys[b->n++] = key;
	}
	return TSG_OK;
}

int io_builder_add_canon(struct io_builder *b, const uint64_t *keys, size_t n, uint64_t loops,
			 uint64_t max_id, struct tsg_err *err)
{
	b->st.input_edges += n + loops;
	b->st.self_loops += loops;
	if (n == 0)
		return TSG_OK;
	if (max_id > b->max_id)
		b->max_id = max_id;
	b->any = 1;
	while (n > 0) {
		if (b->n == b->cap) {
			int rc = b->cap < b->cap_max ? grow(b, b->n + n, err) : spill(b, err);
			if (rc)
				return rc;
		}
		const size_t take = b->cap - b->n < n ? b->cap - b->n : n;
		memcpy(b->keys + b->n, keys, take * sizeof(*keys));
		b->n += take;
		keys += take;
		n -= take;
	}
	return TSG_OK;
}

struct copy_job {
	uint64_t *dst;
	const struct io_key_part *parts;
	const size_t *at; /* where each part goes in dst */
};

static void copy_parts(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct copy_job *j = arg;
	for (uint64_t i = b; i < e; i++)
		memcpy(j->dst + j->at[i], j->parts[i].keys, j->parts[i].n * sizeof(*j->dst));
}

void io_builder_expect(struct io_builder *b, uint64_t n)
{
	struct tsg_err ignored;
	if (n > b->cap_max)
		n = b->cap_max;
	if (n > b->cap && b->nruns == 0)
		(void)grow(b, (size_t)n, &ignored); /* a hint: where it fails, growth as before */
}

int io_builder_add_canon_parts(struct io_builder *b, const struct io_key_part *parts,
			       unsigned nparts, struct tsg_err *err)
{
	size_t total = 0, *at = malloc((nparts ? nparts : 1) * sizeof(*at));
	uint64_t loops = 0, max_id = 0;
	int rc = at ? TSG_OK : tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (unsigned i = 0; rc == TSG_OK && i < nparts; i++) {
		at[i] = b->n + total;
		total += parts[i].n;
		loops += parts[i].loops;
		max_id = parts[i].max_id > max_id ? parts[i].max_id : max_id;
	}
	if (rc == TSG_OK && b->n + total > b->cap && b->n + total <= b->cap_max)
		rc = grow(b, b->n + total, err);
	if (rc == TSG_OK && b->n + total > b->cap) {
		/* the buffer fills up on the way: part by part, spilling as needed */
		for (unsigned i = 0; i < nparts && rc == TSG_OK; i++)
			rc = io_builder_add_canon(b, parts[i].keys, parts[i].n, parts[i].loops,
						  parts[i].max_id, err);
	} else if (rc == TSG_OK) {
		struct copy_job j = { .dst = b->keys, .parts = parts, .at = at };
		if (total)
			tsg_parallel_for(b->o.threads < nparts ? b->o.threads : nparts, nparts, 1,
					 copy_parts, &j);
		b->n += total;
		b->any |= total > 0;
		b->max_id = total && max_id > b->max_id ? max_id : b->max_id;
		b->st.input_edges += total + loops;
		b->st.self_loops += loops;
	}
	free(at);
	return rc;
}

/* ---- iteration over the sorted unique edges, in memory or merged from runs */

struct edge_iter {
	struct io_builder *b;
	size_t mem_at;
	uint64_t last;
	int have_last;
	size_t *heap, nheap; /* run indices, min-heap on current key */
	uint64_t dups;       /* the same edge met again in another run */
	int err;
};

static int run_fill(struct run *r)
{
	if (r->at < r->have)
		return 1;
	uint64_t left = r->len - r->pos;
	if (left == 0)
		return 0;
	size_t want = left < MERGE_BATCH ? (size_t)left : MERGE_BATCH;
	size_t got = 0;
	while (got < want * 8) {
		ssize_t x = pread(r->fd, (char *)r->buf + got, want * 8 - got,
				  (off_t)(r->pos * 8 + got));
		if (x < 0 && errno == EINTR)
			continue;
		if (x <= 0)
			return -1;
		got += (size_t)x;
	}
	r->pos += want;
	r->have = want;
	r->at = 0;
	return 1;
}

static uint64_t run_key(const struct io_builder *b, size_t i)
{
	return b->runs[i].buf[b->runs[i].at];
}

static void heap_down(struct edge_iter *it, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < it->nheap && run_key(it->b, it->heap[l]) < run_key(it->b, it->heap[m]))
			m = l;
		if (l + 1 < it->nheap && run_key(it->b, it->heap[l + 1]) < run_key(it->b, it->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		size_t t = it->heap[i];
		it->heap[i] = it->heap[m];
		it->heap[m] = t;
		i = m;
	}
}

static int iter_start(struct edge_iter *it, struct io_builder *b, struct tsg_err *err)
{
	memset(it, 0, sizeof(*it));
	it->b = b;
	if (b->nruns == 0)
		return TSG_OK;
	it->heap = malloc(b->nruns * sizeof(*it->heap));
	if (!it->heap)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (size_t i = 0; i < b->nruns; i++) {
		struct run *r = &b->runs[i];
		r->pos = r->have = r->at = 0;
		if (!r->buf && !(r->buf = malloc(MERGE_BATCH * 8)))
			return tsg_fail(err, TSG_ENOMEM, "out of memory");
		int f = run_fill(r);
		if (f < 0)
			return tsg_fail_errno(err, TSG_EIO, errno, "reading a temporary run");
		if (f > 0)
			it->heap[it->nheap++] = i;
	}
	for (size_t i = it->nheap; i-- > 0;)
		heap_down(it, i);
	return TSG_OK;
}

/* Fills out with up to max unique keys; returns the count (0 at the end, and
 * sets it->err on a read failure). */
static size_t iter_next(struct edge_iter *it, uint64_t *out, size_t max)
{
	struct io_builder *b = it->b;
	size_t n = 0;
	if (b->nruns == 0) {
		n = b->n - it->mem_at < max ? b->n - it->mem_at : max;
		if (n) /* no keys at all: b->keys may be NULL, and memcpy's arguments must not be */
			memcpy(out, b->keys + it->mem_at, n * 8);
		it->mem_at += n;
		return n;
	}
	while (n < max && it->nheap > 0) {
		size_t ri = it->heap[0];
		struct run *r = &b->runs[ri];
		uint64_t k = r->buf[r->at++];
		if (!it->have_last || k != it->last) {
			out[n++] = k;
			it->last = k;
			it->have_last = 1;
		} else {
			it->dups++;
		}
		int f = run_fill(r);
		if (f < 0) {
			it->err = errno ? errno : EIO;
			return 0;
		}
		if (f == 0)
			it->heap[0] = it->heap[--it->nheap];
		heap_down(it, 0);
	}
	return n;
}

static void iter_end(struct edge_iter *it)
{
	free(it->heap);
	it->heap = NULL;
	it->nheap = 0;
}

/* Dense ids for relabel from a bitmap of the ids in use and a rank per
 * 64-bit word: memory grows with the id range in bits, not in words, so
 * sparse 32-bit ids relabel in at most 768 MiB. */
struct relabel {
	uint64_t *bits;
	uint32_t *rank;
};

static inline uint64_t relabel_id(const struct relabel *r, uint64_t v)
{
	const uint64_t below = r->bits[v >> 6] & ((1ull << (v & 63)) - 1);
	return r->rank[v >> 6] + (uint64_t)__builtin_popcountll(below);
}

static inline uint64_t map_id(const struct relabel *r, uint64_t v)
{
	return r->bits ? relabel_id(r, v) : v;
}

static uint64_t vertex_count(const struct io_builder *b)
{
	const uint64_t nv = b->any ? b->max_id + 1 : 0;
	return b->o.min_nv > nv ? b->o.min_nv : nv;
}

uint64_t io_builder_vertex_count(const struct io_builder *b) { return vertex_count(b); }

int io_builder_relabels(const struct io_builder *b) { return b->o.relabel; }

/* Whether relabel renumbers the keys in memory first (compact_keys): where
 * the id range is over 8 ids a key, the ranks over every id the parallel
 * build keeps would cost more than the keys themselves (a 10-byte file
 * with an id near 2^32 took gigabytes). */
static int compacts(const struct io_builder *b)
{
	return b->o.relabel && b->nruns == 0 && vertex_count(b) / 8 > (uint64_t)b->n;
}

int io_builder_fits_memory(const struct io_builder *b)
{
	/* the parallel build also holds 12 bytes an id (degrees, relabel ranks),
	 * for at most 2 ids a key where the keys are renumbered first (whose
	 * sort of the ids, 16 bytes a key, fits the 24 of the scatter); sparse
	 * ids spilled under --relabel take the merge path, whose bitmap needs
	 * 1.5 bits an id */
	const uint64_t ids = compacts(b) ? 2 * (uint64_t)b->n : vertex_count(b);
	return b->nruns == 0 && (uint64_t)b->n * IO_CSR_BYTES_PER_EDGE +
				(ids + 1) * IO_CSR_BYTES_PER_ID <= b->o.mem_limit;
}

struct compact_job {
	uint64_t *keys;
	const uint32_t *ids; /* sorted, unique */
	uint64_t nids;
};

static void compact_range(void *arg, uint64_t lo, uint64_t hi, unsigned tid)
{
	(void)tid;
	const struct compact_job *j = arg;
	for (uint64_t i = lo; i < hi; i++) {
		const uint64_t k = j->keys[i];
		const uint64_t u = tsg_lower_bound_u32(j->ids, 0, j->nids, (uint32_t)(k >> 32));
		const uint64_t v = tsg_lower_bound_u32(j->ids, 0, j->nids, (uint32_t)k);
		j->keys[i] = u << 32 | v; /* ranks keep the order: still lo < hi */
	}
}

/* Relabel in memory in proportion to the keys: the ids that have an edge,
 * sorted, are the new ids by rank (dense, in the old order, as relabel's
 * ranks over every id give them); *nv gets their number. */
static int compact_keys(struct io_builder *b, uint64_t *nv, struct tsg_err *err)
{
	const size_t n = b->n;
	uint32_t *ids = malloc((2 * n + 1) * sizeof(*ids)), *tmp = malloc((2 * n + 1) * sizeof(*tmp));
	if (!ids || !tmp) {
		free(ids);
		free(tmp);
		return tsg_fail(err, TSG_ENOMEM, "out of memory renumbering the ids of %zu edges", n);
	}
	for (size_t i = 0; i < n; i++) {
		ids[2 * i] = (uint32_t)(b->keys[i] >> 32);
		ids[2 * i + 1] = (uint32_t)b->keys[i];
	}
	io_sort_u32(ids, tmp, 2 * n);
	free(tmp);
	uint64_t m = 0;
	for (size_t i = 0; i < 2 * n; i++)
		if (m == 0 || ids[i] != ids[m - 1])
			ids[m++] = ids[i];
	struct compact_job j = { .keys = b->keys, .ids = ids, .nids = m };
	tsg_parallel_for(b->o.threads, n, 1 << 16, compact_range, &j);
	free(ids);
	*nv = m;
	return TSG_OK;
}

/* The in-memory build (io/csr_build.h) into out; the keys go to it, and b
 * is freed. */
static int finish_csr(struct io_builder *b, const struct io_csr_out *out,
		      struct io_build_stats *stats, struct tsg_err *err)
{
	const uint64_t nv = vertex_count(b);
	uint64_t kept = nv;
	struct io_csr_stats cs;
	int rc = TSG_OK;
	if (nv > IO_MAX_VERTICES) {
		rc = tsg_fail(err, TSG_EINPUT, "%llu vertices exceed the 32-bit id range",
			      (unsigned long long)nv);
	} else {
		const int compact = compacts(b);
		if (compact)
			rc = compact_keys(b, &kept, err);
		if (rc == TSG_OK) {
			/* renumbered: the dense ids relabel would give */
			rc = io_csr_build(b->keys, b->n, kept, b->o.relabel && !compact,
					  b->o.threads, out, &cs, err);
			b->keys = NULL; /* io_csr_build took them */
		}
	}
	if (rc == TSG_OK) {
		b->st.duplicates += cs.duplicates;
		b->st.isolated = cs.isolated + (nv - kept);
		b->st.nv = cs.nv;
		b->st.nedges = cs.nedges;
		b->st.max_degree = cs.max_degree;
		b->st.build_s = cs.build_s;
		b->st.write_s = cs.write_s;
		if (stats)
			*stats = b->st;
	}
	io_builder_free(b);
	return rc;
}

int io_builder_finish_mem(struct io_builder *b, struct tsg_graph *g, struct io_build_stats *stats,
			  struct tsg_err *err)
{
	if (!io_builder_fits_memory(b)) {
		io_builder_free(b);
		return tsg_fail(err, TSG_EINTERNAL, "the graph does not fit the builder's memory");
	}
	const struct io_csr_out out = { .mem = g };
	return finish_csr(b, &out, stats, err);
}

/* io_builder_finish, or with fd io_builder_finish_unnamed. */
static int finish_file(struct io_builder *b, const char *path, int *fd,
		       struct io_build_stats *stats, struct tsg_err *err)
{
	struct edge_iter it = { 0 };
	struct io_writer *w = NULL;
	struct relabel rl = { 0 };
	uint64_t *deg = NULL, *batch = NULL;
	if (io_builder_fits_memory(b)) {
		/* everything in memory: built on every thread (csr_build.h) */
		const struct io_csr_out out = { .path = path, .sync = !b->o.scratch, .fd = fd };
		return finish_csr(b, &out, stats, err);
	}
	int rc = TSG_OK;
	const uint64_t nv = vertex_count(b);
	if (nv > IO_MAX_VERTICES) {
		rc = tsg_fail(err, TSG_EINPUT, "%llu vertices exceed the 32-bit id range",
			      (unsigned long long)nv);
		goto fail;
	}
	const double t0 = tsg_now();
	rc = b->nruns ? (b->n ? spill(b, err) : TSG_OK) : sort_buffer(b, err);
	if (rc)
		goto fail;
	batch = malloc(MERGE_BATCH * sizeof(*batch));
	if (!batch) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto fail;
	}
	size_t got;
	uint64_t out_nv = nv;
	if (b->o.relabel) {
		const uint64_t words = nv / 64 + 1;
		rl.bits = calloc(words, sizeof(*rl.bits));
		rl.rank = malloc(words * sizeof(*rl.rank));
		if (!rl.bits || !rl.rank) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory for the relabel map");
			goto fail;
		}
		if ((rc = iter_start(&it, b, err)))
			goto fail;
		while ((got = iter_next(&it, batch, MERGE_BATCH)) > 0)
			for (size_t i = 0; i < got; i++) {
				uint64_t u = batch[i] >> 32, v = batch[i] & 0xffffffffu;
				rl.bits[u >> 6] |= 1ull << (u & 63);
				rl.bits[v >> 6] |= 1ull << (v & 63);
			}
		iter_end(&it);
		if (it.err) {
			rc = tsg_fail_errno(err, TSG_EIO, it.err, "reading a temporary run");
			goto fail;
		}
		out_nv = 0;
		for (uint64_t k = 0; k < words; k++) {
			rl.rank[k] = (uint32_t)out_nv; /* rank order keeps every list sorted */
			out_nv += (uint64_t)__builtin_popcountll(rl.bits[k]);
		}
		b->st.isolated = nv - out_nv;
	}
	deg = calloc(out_nv + 1, sizeof(*deg));
	if (!deg) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory for %llu vertices",
			      (unsigned long long)out_nv);
		goto fail;
	}
	/* pass 1: degrees */
	uint64_t nedges = 0;
	if ((rc = iter_start(&it, b, err)))
		goto fail;
	while ((got = iter_next(&it, batch, MERGE_BATCH)) > 0) {
		for (size_t i = 0; i < got; i++) {
			deg[map_id(&rl, batch[i] >> 32)]++;
			deg[map_id(&rl, batch[i] & 0xffffffffu)]++;
		}
		nedges += got;
	}
	b->st.duplicates += it.dups;
	iter_end(&it);
	if (it.err) {
		rc = tsg_fail_errno(err, TSG_EIO, it.err, "reading a temporary run");
		goto fail;
	}
	rc = io_writer_open(path, out_nv, 2 * nedges, &w, err);
	if (rc)
		goto fail;
	uint64_t *off = io_writer_offsets(w), maxdeg = 0, sum = 0;
	uint32_t *adj = io_writer_neighbors(w);
	for (uint64_t v = 0; v < out_nv; v++) {
		maxdeg = deg[v] > maxdeg ? deg[v] : maxdeg;
		off[v] = sum;
		sum += deg[v];
		deg[v] = off[v]; /* from here on: the fill cursor */
	}
	off[out_nv] = sum;
	/* pass 2: fill. Keys arrive sorted by (lo, hi), so each list receives
	 * its smaller neighbours in order, then its larger ones in order. */
	if ((rc = iter_start(&it, b, err)))
		goto fail;
	while ((got = iter_next(&it, batch, MERGE_BATCH)) > 0) {
		for (size_t i = 0; i < got; i++) {
			uint64_t u = map_id(&rl, batch[i] >> 32), v = map_id(&rl, batch[i] & 0xffffffffu);
			adj[deg[u]++] = (uint32_t)v;
			adj[deg[v]++] = (uint32_t)u;
		}
	}
	iter_end(&it);
	if (it.err) {
		rc = tsg_fail_errno(err, TSG_EIO, it.err, "reading a temporary run");
		goto fail;
	}
	b->st.nv = out_nv;
	b->st.nedges = nedges;
	b->st.max_degree = maxdeg;
	b->st.runs = b->nruns;
	if (b->o.scratch)
		io_writer_no_sync(w);
	const double t1 = tsg_now();
	b->st.build_s = t1 - t0;
	rc = fd ? io_writer_commit_unnamed(w, maxdeg, fd, err) : io_writer_commit(w, maxdeg, err);
	b->st.write_s = tsg_now() - t1;
	w = NULL;
	if (rc)
		goto fail;
	if (stats)
		*stats = b->st;
	free(deg);
	free(batch);
	free(rl.bits);
	free(rl.rank);
	io_builder_free(b);
	return TSG_OK;
fail:
	iter_end(&it);
	io_writer_abort(w);
	free(deg);
	free(batch);
	free(rl.bits);
	free(rl.rank);
	io_builder_free(b);
	return rc;
}

int io_builder_finish(struct io_builder *b, const char *path, struct io_build_stats *stats,
		      struct tsg_err *err)
{
	return finish_file(b, path, NULL, stats, err);
}

int io_builder_finish_unnamed(struct io_builder *b, const char *path, int *fd,
			      struct io_build_stats *stats, struct tsg_err *err)
{
	*fd = -1;
	return finish_file(b, path, fd, stats, err);
}
