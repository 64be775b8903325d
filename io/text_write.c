/*
 * text_write.c - a graph as "u v" lines (see text_write.h).
 *
 * The lists are cut into slices of SLICE list entries (a hub's list may
 * span several); a round formats one slice per buffer on every thread,
 * then the buffers are written in order. A slice's text is bounded by its
 * entries (each line is at most two 10-digit ids, a space and a newline),
 * so buffers are sized once.
 */
#include <errno.h>
#include <stdlib.h>

#include "io/text_write.h"
#include "io/atomic.h"
#include "base/util.h"

enum { SLICE = 1 << 20, LINE_MAX_BYTES = 22 };

struct fmt_round {
	const uint64_t *off;
	const uint32_t *adj;
	uint64_t nv, nadj;
	uint64_t first; /* the round's first slice */
	char **buf;
	size_t *len;
	uint64_t *edges;
};

static void format_slices(void *ctx, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct fmt_round *r = ctx;
	for (uint64_t k = b; k < e; k++) {
		const uint64_t lo = (r->first + k) * SLICE;
		const uint64_t hi = lo + SLICE < r->nadj ? lo + SLICE : r->nadj;
		/* the vertex whose list holds entry lo: the last u with off[u] <= lo */
		uint64_t u = tsg_lower_bound_u64(r->off, 0, r->nv + 1, lo + 1) - 1;
		char *p = r->buf[k];
		uint64_t edges = 0;
		for (uint64_t i = lo; i < hi; i++) {
			while (i >= r->off[u + 1])
				u++;
			if (r->adj[i] <= u)
				continue; /* each edge once, from its lower end */
			p = tsg_put_u64(p, u);
			*p++ = ' ';
			p = tsg_put_u64(p, r->adj[i]);
			*p++ = '\n';
			edges++;
		}
		r->len[k] = (size_t)(p - r->buf[k]);
		r->edges[k] = edges;
	}
}

int io_text_write(const char *path, uint64_t nv, const uint64_t *off, const uint32_t *adj,
		  unsigned threads, struct io_text_write_stats *st, struct tsg_err *err)
{
	const unsigned round = threads ? 2 * threads : 2;
	char **buf = calloc(round, sizeof(*buf));
	size_t *len = calloc(round, sizeof(*len));
	uint64_t *edges = calloc(round, sizeof(*edges));
	struct io_afile a;
	int opened = 0;
	int rc = buf && len && edges ? TSG_OK : tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (unsigned k = 0; rc == TSG_OK && k < round; k++)
		if (!(buf[k] = malloc((size_t)SLICE * LINE_MAX_BYTES)))
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
	if (rc == TSG_OK && (rc = io_afile_open(path, &a, err)) == TSG_OK)
		opened = 1;
	st->edges = st->bytes = 0;
	const uint64_t nadj = off[nv], slices = (nadj + SLICE - 1) / SLICE;
	int ok = 1;
	for (uint64_t first = 0; rc == TSG_OK && ok && first < slices; first += round) {
		const uint64_t n = slices - first < round ? slices - first : round;
		struct fmt_round fr = { off, adj, nv, nadj, first, buf, len, edges };
		tsg_parallel_for(threads ? threads : 1, n, 1, format_slices, &fr);
		for (uint64_t k = 0; ok && k < n; k++) {
			ok = fwrite(buf[k], 1, len[k], a.f) == len[k];
			st->bytes += len[k];
			st->edges += edges[k];
		}
	}
	if (opened && !ok) {
		rc = tsg_fail_errno(err, tsg_status_from_errno(errno), errno, "%s: write", path);
		io_afile_abort(&a);
	} else if (opened) {
		rc = io_afile_commit(&a, err); /* checks the last flush, syncs, names */
	}
	for (unsigned k = 0; buf && k < round; k++)
		free(buf[k]);
	free(buf);
	free(len);
	free(edges);
	return rc;
}
