#include "src/pervertex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "io/atomic.h"

int pv_format_parse(const char *s, enum pv_format *out)
{
	if (strcmp(s, "text") == 0)
		*out = PV_TEXT;
	else if (strcmp(s, "binary") == 0)
		*out = PV_BINARY;
	else
		return TSG_EUSAGE;
	return TSG_OK;
}

/* Text lines are formatted in parallel, a chunk of vertices per buffer,
 * and written in order: one thread's printf formats about 10 M lines a
 * second, which is longer than a GPU count of the graph. */
enum { PV_CHUNK = 1 << 16, PV_LINE = 42 }; /* two u64 in decimal, a space, a newline */

struct pv_fmt {
	const struct tsg_graph *g;
	const uint64_t *pv;
	uint64_t first;   /* the round's first chunk */
	char **buf;       /* per chunk of the round */
	size_t *len;
};

static void pv_format_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct pv_fmt *f = ctx;
	const uint64_t k = b / PV_CHUNK; /* chunk of this round */
	char *p = f->buf[k];
	for (uint64_t i = b; i < e; i++) {
		const uint64_t v = f->first * PV_CHUNK + i;
		if (!io_graph_id_degree(f->g, v))
			continue;
		p = tsg_put_u64(p, v);
		*p++ = ' ';
		p = tsg_put_u64(p, f->pv[v]);
		*p++ = '\n';
	}
	f->len[k] = (size_t)(p - f->buf[k]);
}

static int write_text(FILE *out, const struct tsg_graph *g, const uint64_t *pv, unsigned threads)
{
	const uint64_t nchunks = (g->nv + PV_CHUNK - 1) / PV_CHUNK;
	const uint64_t round = threads ? 4ull * threads : 4;
	char **buf = calloc(round, sizeof(*buf));
	size_t *len = calloc(round, sizeof(*len));
	int ok = buf && len;
	for (uint64_t k = 0; ok && k < round; k++)
		ok = (buf[k] = malloc((size_t)PV_CHUNK * PV_LINE)) != NULL;
	if (!ok)
		errno = ENOMEM;
	for (uint64_t c = 0; ok && c < nchunks; c += round) {
		const uint64_t n = nchunks - c < round ? nchunks - c : round;
		const uint64_t last = (c + n) * PV_CHUNK < g->nv ? (c + n) * PV_CHUNK : g->nv;
		struct pv_fmt f = { .g = g, .pv = pv, .first = c, .buf = buf, .len = len };
		tsg_parallel_for(threads, last - c * PV_CHUNK, PV_CHUNK, pv_format_range, &f);
		for (uint64_t k = 0; ok && k < n; k++)
			ok = fwrite(buf[k], 1, len[k], out) == len[k];
	}
	for (uint64_t k = 0; buf && k < round; k++)
		free(buf[k]);
	free(buf);
	free(len);
	return ok;
}

int pv_write(const char *path, enum pv_format fmt, const struct tsg_graph *g, const uint64_t *pv,
	     unsigned threads, struct tsg_err *err)
{
	struct io_afile a;
	int rc = io_afile_open(path, &a, err);
	if (rc)
		return rc;
	int ok = 1;
	if (fmt == PV_BINARY) {
		uint8_t buf[8 * 4096];
		for (uint64_t v = 0; v < g->nv && ok;) {
			size_t n = 0;
			for (; v < g->nv && n < sizeof(buf); v++, n += 8)
				for (int i = 0; i < 8; i++)
					buf[n + i] = (uint8_t)(pv[v] >> 8 * i);
			ok = fwrite(buf, 1, n, a.f) == n;
		}
	} else {
		ok = write_text(a.f, g, pv, threads);
	}
	if (!ok) {
		const int e = errno;
		io_afile_abort(&a);
		return tsg_fail_errno(err, tsg_status_from_errno(e), e, "--per-vertex %s", path);
	}
	return io_afile_commit(&a, err);
}

/* One chunk's sums; chunks are summed in order, so the result does not
 * depend on how threads took them. */
struct cl_part {
	double sum_c;              /* local clustering coefficients */
	unsigned __int128 triples; /* connected triples */
	uint64_t vertices;         /* with an edge */
	uint64_t tri3;             /* per-vertex counts: 3 x triangles in all */
};

struct cl_job {
	const struct tsg_graph *g;
	const uint64_t *pv;
	struct cl_part *parts;
	uint64_t chunk;
};

static void cl_range(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct cl_job *j = ctx;
	struct cl_part p = { 0 };
	for (uint64_t v = b; v < e; v++) {
		const uint64_t d = io_graph_id_degree(j->g, v);
		p.vertices += d > 0;
		p.tri3 += j->pv[v];
		if (d < 2)
			continue;
		const unsigned __int128 pairs = (unsigned __int128)d * (d - 1) / 2;
		p.triples += pairs;
		p.sum_c += (double)j->pv[v] / (double)pairs;
	}
	j->parts[b / j->chunk] = p;
}

void pv_clustering(const struct tsg_graph *g, const uint64_t *pv, unsigned threads,
		   struct pv_clustering *out)
{
	memset(out, 0, sizeof(*out));
	struct cl_part one;
	struct cl_job j = { .g = g, .pv = pv, .chunk = 1 << 16 };
	uint64_t nchunks = (g->nv + j.chunk - 1) / j.chunk;
	j.parts = calloc(nchunks ? nchunks : 1, sizeof(*j.parts));
	if (!j.parts) { /* no room for the parts: one chunk, one thread */
		j.parts = &one;
		j.chunk = g->nv ? g->nv : 1;
		nchunks = 1;
		threads = 1;
		one = (struct cl_part){ 0 };
	}
	tsg_parallel_for(threads, g->nv, j.chunk, cl_range, &j);
	double sum = 0;
	unsigned __int128 triples = 0, tri3 = 0;
	for (uint64_t k = 0; k < nchunks; k++) {
		sum += j.parts[k].sum_c;
		triples += j.parts[k].triples;
		tri3 += j.parts[k].tri3;
		out->vertices += j.parts[k].vertices;
	}
	if (j.parts != &one)
		free(j.parts);
	out->average_clustering = out->vertices ? sum / (double)out->vertices : 0;
	out->triples = triples > UINT64_MAX ? UINT64_MAX : (uint64_t)triples;
	out->transitivity = triples ? (double)tri3 / (double)triples : 0;
}
