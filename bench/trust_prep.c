/*
 * trust-prep - TRUST's input files (begin.bin, adjacent.bin) from a
 * tristream graph, for bench/kernels.py only.
 *
 * TRUST's own preprocessing (wzbxpy/TRUST: Preprocess/fromDirectToUndirect
 * then preprocess_outdegree) reads text through stringstreams and sorts
 * vectors of lists with comparators that copy them, on one thread: 624 s
 * at R-MAT 24 on the device's CPU, about four times that at R-MAT 26, more
 * than a device machine is held. This is the same sequence of steps,
 * written here from their description (no code of TRUST's), in seconds:
 *
 *   1. drop vertices without edges, keeping id order (fromDirectToUndirect);
 *   2. order vertices by degree, ascending;
 *   3. orient each edge from the earlier to the later vertex of that order;
 *      an out-list holds its targets in descending id order (TRUST pops
 *      them from the back of an ascending list);
 *   4. order vertices by out-degree, descending;
 *   5. renumber: three classes by position (out-degree > 100, 2 .. 100,
 *      under 2), each numbered from its first position in the order that
 *      its vertices first appear in the out-lists of the vertices of
 *      out-degree > 2, scanned in order; then the vertices not yet
 *      numbered, in order;
 *   6. write (n + 1) int64 offsets and the int32 out-lists by new id.
 *
 * TRUST's two sorts are std::sort (unstable), so its order among vertices
 * of equal degree is the library's; here ties keep id order (step 2) and
 * step 2's order (step 4). The files therefore name the same DAG up to
 * those ties, not the same bytes; kernels.py's `--trust-prep both` runs
 * TRUST's kernel on both to show what the ties are worth.
 *
 * usage: trust-prep GRAPH DIR    (DIR must exist; files appear atomically)
 * Exit codes as tristream's (docs/CLI.md): 0 done, 2 usage, 3 bad or missing input,
 * 4 out of memory, 5 I/O error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/atomic.h"
#include "io/graph.h"
#include "base/error.h"
#include "base/util.h"

#define TP_BIG 100u  /* TRUST's `bounder`: out-degree of its first class */
#define TP_NONE 0xffffffffu

struct tp {
	const struct tsg_graph *g;
	uint32_t n;          /* vertices with edges */
	uint32_t *cid;       /* graph id -> compact id (TP_NONE: no edges) */
	uint32_t *gid;       /* compact id -> graph id */
	uint32_t *pos1;      /* compact id -> position by degree (step 2) */
	uint64_t *ooff;      /* out-list offsets by compact id (n + 1) */
	uint32_t *oadj;      /* out-lists, compact ids */
	uint32_t *order2;    /* position by out-degree (step 4) -> compact id */
	uint32_t *pos2;      /* compact id -> that position */
	uint32_t *newid;     /* compact id -> TRUST's id */
	uint32_t *byid;      /* TRUST's id -> compact id */
	uint64_t *noff;      /* offsets by TRUST's id (n + 1) */
	int32_t *nadj;       /* out-lists by TRUST's id */
};

/* Counting sort of compact ids by key (stable): key ascending, or
 * descending with desc; `in` names the order to keep among equal keys
 * (NULL: id order). */
static int tp_sort_by(uint32_t n, const uint32_t *key, uint64_t kmax, int desc,
		      const uint32_t *in, uint32_t *out)
{
	uint64_t *cnt = calloc(kmax + 2, sizeof(*cnt));
	if (!cnt)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		cnt[(desc ? kmax - key[i] : key[i]) + 1]++;
	for (uint64_t k = 0; k <= kmax; k++)
		cnt[k + 1] += cnt[k];
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t v = in ? in[i] : i;
		out[cnt[desc ? kmax - key[v] : key[v]]++] = v;
	}
	free(cnt);
	return 0;
}

/* Step 3, counting: out-degrees into ooff[c + 1]. */
static void tp_outdeg(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	struct tp *t = ctx;
	(void)tid;
	for (uint64_t c = b; c < e; c++) {
		const uint32_t v = t->gid[c];
		uint64_t k = 0;
		for (uint64_t j = t->g->off[v]; j < t->g->off[v + 1]; j++)
			k += t->pos1[t->cid[t->g->adj[j]]] > t->pos1[c];
		t->ooff[c + 1] = k;
	}
}

/* Step 3, filling: targets in descending id order (the graph's lists
 * ascend, and compact ids keep id order). */
static void tp_orient(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	struct tp *t = ctx;
	(void)tid;
	for (uint64_t c = b; c < e; c++) {
		const uint32_t v = t->gid[c];
		uint64_t at = t->ooff[c];
		for (uint64_t j = t->g->off[v + 1]; j-- > t->g->off[v];) {
			const uint32_t w = t->cid[t->g->adj[j]];
			if (t->pos1[w] > t->pos1[c])
				t->oadj[at++] = w;
		}
	}
}

/* Step 6: the out-lists by TRUST's ids, in the same order. */
static void tp_relabel(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	struct tp *t = ctx;
	(void)tid;
	for (uint64_t u = b; u < e; u++) {
		const uint32_t c = t->byid[u];
		int32_t *o = t->nadj + t->noff[u];
		for (uint64_t j = t->ooff[c]; j < t->ooff[c + 1]; j++)
			*o++ = (int32_t)t->newid[t->oadj[j]];
	}
}

/* Step 5: TRUST's renumbering by classes of position in order2. */
static void tp_renumber(struct tp *t)
{
	const uint32_t n = t->n;
	uint32_t s2 = n, s3 = n;
	for (uint32_t q = n; q-- > 0;) {
		const uint32_t c = t->order2[q], od = (uint32_t)(t->ooff[c + 1] - t->ooff[c]);
		if (od <= TP_BIG)
			s2 = q;
		if (od < 2)
			s3 = q;
	}
	uint32_t next[3] = { 0, s2, s3 };
	for (uint32_t c = 0; c < n; c++)
		t->newid[c] = TP_NONE;
	for (uint32_t q = 0; q < n; q++) {
		const uint32_t c = t->order2[q];
		if (t->ooff[c + 1] - t->ooff[c] <= 2)
			break;
		for (uint64_t j = t->ooff[c]; j < t->ooff[c + 1]; j++) {
			const uint32_t w = t->oadj[j], p = t->pos2[w];
			if (t->newid[w] == TP_NONE)
				t->newid[w] = next[p >= s3 ? 2 : p >= s2 ? 1 : 0]++;
		}
	}
	for (uint32_t q = 0; q < n; q++) {
		const uint32_t c = t->order2[q];
		if (t->newid[c] == TP_NONE)
			t->newid[c] = next[q >= s3 ? 2 : q >= s2 ? 1 : 0]++;
	}
}

static int tp_write(const char *dir, const char *name, const void *p, size_t bytes,
		    struct tsg_err *err)
{
	char path[4096];
	struct io_afile a;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return tsg_fail(err, TSG_EUSAGE, "trust-prep: %s: path too long", dir);
	int rc = io_afile_open(path, &a, err);
	if (rc)
		return rc;
	if (bytes && fwrite(p, 1, bytes, a.f) != bytes) {
		io_afile_abort(&a);
		return tsg_fail(err, TSG_EIO, "trust-prep: writing %s failed", path);
	}
	return io_afile_commit(&a, err);
}

static int tp_run(const char *gpath, const char *dir, struct tsg_err *err)
{
	struct tsg_graph g;
	struct tp t = { .g = &g };
	uint32_t *deg = NULL, *order1 = NULL;
	const unsigned threads = tsg_default_threads();
	const struct io_load_opts lo = { .io = IO_MODE_AUTO, .threads = threads };
	int rc = io_graph_load(gpath, &lo, &g, err);
	if (rc)
		return rc;
	rc = TSG_ENOMEM;
	if (g.nv > UINT32_MAX - 1 || g.nadj / 2 > INT32_MAX) {
		rc = tsg_fail(err, TSG_EINPUT, "trust-prep: %s: too large for TRUST's int ids",
			      gpath);
		goto out;
	}
	t.cid = malloc(g.nv * sizeof(*t.cid) + 1);
	t.gid = malloc(g.nv * sizeof(*t.gid) + 1);
	if (!t.cid || !t.gid)
		goto out;
	for (uint64_t v = 0; v < g.nv; v++) {
		t.cid[v] = io_graph_degree(&g, v) ? t.n : TP_NONE;
		if (io_graph_degree(&g, v))
			t.gid[t.n++] = (uint32_t)v;
	}
	const size_t nb = (size_t)t.n * sizeof(uint32_t) + 1;
	deg = calloc(t.n ? t.n : 1, sizeof(*deg)); /* zeroed: gcc cannot see the loop below fill it */
	order1 = malloc(nb);
	t.pos1 = malloc(nb);
	t.order2 = malloc(nb);
	t.pos2 = malloc(nb);
	t.newid = malloc(nb);
	t.byid = malloc(nb);
	t.ooff = malloc(((size_t)t.n + 1) * sizeof(*t.ooff));
	t.noff = malloc(((size_t)t.n + 1) * sizeof(*t.noff));
	if (!deg || !order1 || !t.pos1 || !t.order2 || !t.pos2 || !t.newid || !t.byid ||
	    !t.ooff || !t.noff)
		goto out;
	for (uint32_t c = 0; c < t.n; c++)
		deg[c] = (uint32_t)io_graph_degree(&g, t.gid[c]);
	if (tp_sort_by(t.n, deg, g.max_degree, 0, NULL, order1))
		goto out;
	for (uint32_t i = 0; i < t.n; i++)
		t.pos1[order1[i]] = i;
	t.ooff[0] = 0;
	tsg_parallel_for(threads, t.n, 4096, tp_outdeg, &t);
	for (uint32_t c = 0; c < t.n; c++) {
		deg[c] = (uint32_t)t.ooff[c + 1]; /* now the out-degree */
		t.ooff[c + 1] += t.ooff[c];
	}
	if (!(t.oadj = malloc(t.ooff[t.n] * sizeof(*t.oadj) + 1)) ||
	    !(t.nadj = malloc(t.ooff[t.n] * sizeof(*t.nadj) + 1)))
		goto out;
	tsg_parallel_for(threads, t.n, 4096, tp_orient, &t);
	if (tp_sort_by(t.n, deg, g.max_degree, 1, order1, t.order2))
		goto out;
	for (uint32_t q = 0; q < t.n; q++)
		t.pos2[t.order2[q]] = q;
	tp_renumber(&t);
	for (uint32_t c = 0; c < t.n; c++)
		t.byid[t.newid[c]] = c;
	t.noff[0] = 0;
	for (uint32_t u = 0; u < t.n; u++)
		t.noff[u + 1] = t.noff[u] + deg[t.byid[u]];
	tsg_parallel_for(threads, t.n, 4096, tp_relabel, &t);
	if ((rc = tp_write(dir, "begin.bin", t.noff, ((size_t)t.n + 1) * sizeof(*t.noff), err)) ||
	    (rc = tp_write(dir, "adjacent.bin", t.nadj, t.noff[t.n] * sizeof(*t.nadj), err)))
		goto out;
	printf("trust-prep: %s: %u vertices with edges, %llu out-list entries\n", gpath, t.n,
	       (unsigned long long)t.noff[t.n]);
out:
	if (rc == TSG_ENOMEM)
		tsg_fail(err, TSG_ENOMEM, "trust-prep: out of memory");
	free(deg);
	free(order1);
	free(t.cid);
	free(t.gid);
	free(t.pos1);
	free(t.ooff);
	free(t.oadj);
	free(t.order2);
	free(t.pos2);
	free(t.newid);
	free(t.byid);
	free(t.noff);
	free(t.nadj);
	io_graph_free(&g);
	return rc;
}

int main(int argc, char **argv)
{
	struct tsg_err err = { 0 };
	if (argc != 3) {
		fprintf(stderr, "usage: trust-prep GRAPH DIR\n");
		return TSG_EUSAGE;
	}
	const int rc = tp_run(argv[1], argv[2], &err);
	if (rc)
		fprintf(stderr, "%s\n", err.msg);
	return tsg_close_stdout(rc, "trust-prep");
}
