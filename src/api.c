/*
 * api.c - the library interface (src/tristream.h) over the engine.
 *
 * The options are a count_request, the command line's (src/options.h),
 * set by name; a count builds the plan from them (plan_build, plan_graph)
 * and counts through run_graph (src/run.h), as `tristream count` does for
 * one process, then keeps the numbers and the report, written to a buffer
 * instead of stdout. What the command line has beyond that (ranks,
 * checkpoints, --host-mem, per-vertex files, the sweep) is not offered
 * here. The rules between options are checked here first (resolve), in
 * the library's names.
 */
#include "src/tristream.h"

#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/dist.h"
#include "src/engine.h"
#include "src/input.h"
#include "src/options.h"
#include "src/plan.h"
#include "src/report.h"
#include "src/run.h"
#include "io/builder.h"
#include "io/check.h"
#include "io/graph.h"
#include "base/error.h"
#include "base/stop.h"
#include "base/util.h"
#include "version.h"

struct tristream_options {
	struct count_request req; /* given[] stays empty: see resolve */
	char *scratch_dir;        /* owned */
	int method_given;         /* kclique-method: k-cliques only */
	const char *unit_only;    /* an option the arrival layout does not have */
};

struct tristream_graph {
	char *path;               /* a file, read by each count; NULL: g */
	struct tsg_graph g;       /* built from arrays */
};

struct tristream_stop {
	struct tsg_stop s;        /* never begun: only its flag is used */
};

struct tristream_result {
	uint64_t count, nv, nedges;
	uint64_t *pv;             /* per-vertex triangles, or NULL */
	double *cl;               /* local clustering, or NULL */
	double transitivity, average_clustering;
	char *json;
};

static int fail_public(struct tristream_error *out, int rc, const struct tsg_err *e)
{
	if (out) {
		out->code = rc;
		snprintf(out->message, sizeof(out->message), "%s",
			 rc && e && e->msg[0] ? e->msg : rc ? tsg_status_name(rc) : "");
	}
	return rc;
}

static int usage(struct tristream_error *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int usage(struct tristream_error *out, const char *fmt, ...)
{
	struct tsg_err e = { .code = TSG_EUSAGE };
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	return fail_public(out, TSG_EUSAGE, &e);
}

const char *tristream_version(void)
{
	return TSG_VERSION;
}

int tristream_api_version(void)
{
	return TRISTREAM_API_VERSION;
}

const char *tristream_status_name(int code)
{
	return tsg_status_name(code);
}

int tristream_have_gpu(void)
{
	return engine_have_gpu();
}

int tristream_gpu_count(void)
{
	return engine_gpu_devices();
}

/* The command line's defaults (src/options.c, options_parse_count), quiet. */
int tristream_options_new(tristream_options **out, struct tristream_error *err)
{
	tristream_options *t = calloc(1, sizeof(*t));
	*out = t;
	if (!t) {
		const struct tsg_err e = { .msg = "out of memory" };
		return fail_public(err, TSG_ENOMEM, &e);
	}
	t->req = (struct count_request){
		.device = TSG_DEVICE_AUTO,
		.layout = ENGINE_LAYOUT_AUTO,
		.scheme = PART_EDGE,
		.prune = PART_PRUNE_AUTO,
		.seed = 1,
		.gpu_kernel = GPU_KERNEL_COUNT_, /* by layout, when counting */
		.cpu_kernel = KERN_CPU_HASH,
		.threads = tsg_default_threads(),
		.io = IO_MODE_AUTO,
		.pin_host = -1,
		.k = 3,
		.quiet = 1,
	};
	return fail_public(err, TSG_OK, NULL);
}

void tristream_options_free(tristream_options *o)
{
	if (o)
		free(o->scratch_dir);
	free(o);
}

static int parse_flag(const char *v, int *out)
{
	if (strcmp(v, "1") == 0 || strcmp(v, "true") == 0 || strcmp(v, "on") == 0)
		*out = 1;
	else if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0 || strcmp(v, "off") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

int tristream_options_set(tristream_options *t, const char *name, const char *v,
			  struct tristream_error *err)
{
	struct count_request *o = &t->req;
	uint64_t n;
	int flag;
	if (!name || !v)
		return usage(err, "%s", "an option's name and value must not be NULL");
	if (strcmp(name, "device") == 0) {
		if (strcmp(v, "cpu") == 0) o->device = TSG_DEVICE_CPU;
		else if (strcmp(v, "gpu") == 0) o->device = TSG_DEVICE_GPU;
		else if (strcmp(v, "auto") == 0) o->device = TSG_DEVICE_AUTO;
		else return usage(err, "device: unknown device '%s' (auto, cpu or gpu)", v);
	} else if (strcmp(name, "gpu") == 0) {
		if (tsg_parse_u64(v, 1024, &n))
			return usage(err, "gpu: bad GPU index '%s'", v);
		o->gpu_index = (int)n;
	} else if (strcmp(name, "gpu-mem") == 0) {
		if (strcmp(v, "auto") == 0 || strcmp(v, "0") == 0)
			o->gpu_mem = 0;
		else if (tsg_parse_size(v, &o->gpu_mem) || o->gpu_mem == 0)
			return usage(err, "gpu-mem: bad size '%s' (e.g. 8G)", v);
	} else if (strcmp(name, "threads") == 0) {
		if (strcmp(v, "auto") == 0 || strcmp(v, "0") == 0)
			o->threads = tsg_default_threads();
		else if (tsg_parse_u64(v, 4096, &n) || n == 0)
			return usage(err, "threads: bad thread count '%s'", v);
		else
			o->threads = (unsigned)n;
	} else if (strcmp(name, "k") == 0) {
		if (tsg_parse_u64(v, KERN_CLIQUE_MAX_K, &n) || n < 3)
			return usage(err, "k: takes 3 .. 32, not '%s'", v);
		o->k = (unsigned)n;
	} else if (strcmp(name, "per-vertex") == 0) { /* kept in memory: the counts and
						       * their clustering */
		if (parse_flag(v, &o->clustering))
			return usage(err, "per-vertex: takes 0 or 1, not '%s'", v);
	} else if (strcmp(name, "progress") == 0) {
		if (parse_flag(v, &flag))
			return usage(err, "progress: takes 0 or 1, not '%s'", v);
		o->quiet = !flag;
	} else if (strcmp(name, "decode-first") == 0) {
		if (parse_flag(v, &o->decode_first))
			return usage(err, "decode-first: takes 0 or 1, not '%s'", v);
	} else if (strcmp(name, "no-transpose") == 0) {
		if (parse_flag(v, &o->no_transpose))
			return usage(err, "no-transpose: takes 0 or 1, not '%s'", v);
	} else if (strcmp(name, "layout") == 0) {
		if (engine_layout_parse(v, &o->layout))
			return usage(err, "layout: unknown layout '%s'", v);
	} else if (strcmp(name, "partitions") == 0) {
		if (strcmp(v, "auto") == 0 || strcmp(v, "0") == 0) {
			o->partitions = 0;
		} else if (tsg_parse_u64(v, UINT32_MAX, &n) || n == 0) {
			return usage(err, "partitions: bad partition count '%s'", v);
		} else {
			o->partitions = (uint32_t)n;
			t->unit_only = "partitions";
		}
	} else if (strcmp(name, "kernel") == 0) {
		if (gpu_kernel_parse(v, &o->gpu_kernel))
			return usage(err, "kernel: unknown GPU kernel '%s'", v);
		if (o->gpu_kernel != GPU_KERNEL_MID_HASH && o->gpu_kernel != GPU_KERNEL_AUTO)
			t->unit_only = "kernel other than mid-hash or auto";
	} else if (strcmp(name, "cpu-kernel") == 0) {
		if (kern_cpu_parse(v, &o->cpu_kernel))
			return usage(err, "cpu-kernel: unknown CPU kernel '%s'", v);
		if (o->cpu_kernel != KERN_CPU_MERGE)
			t->unit_only = "cpu-kernel hash or wedge";
	} else if (strcmp(name, "kclique-method") == 0) {
		if (kern_clique_method_parse(v, &o->clique_method))
			return usage(err, "kclique-method: takes auto, orient or pivot, not '%s'", v);
		t->method_given = 1;
	} else if (strcmp(name, "order") == 0) {
		if (strcmp(v, "degeneracy") == 0)
			o->degeneracy = 1;
		else if (strcmp(v, "degree") == 0)
			o->degeneracy = 0;
		else
			return usage(err, "order: takes degree or degeneracy, not '%s'", v);
	} else if (strcmp(name, "io") == 0) {
		if (io_mode_parse(v, &o->io))
			return usage(err, "io: unknown I/O mode '%s'", v);
	} else if (strcmp(name, "scratch-dir") == 0) {
		char *s = strdup(v);
		if (!s) {
			const struct tsg_err e = { .msg = "out of memory" };
			return fail_public(err, TSG_ENOMEM, &e);
		}
		free(t->scratch_dir);
		o->scratch_dir = t->scratch_dir = s;
	} else {
		return usage(err, "unknown option '%s' (see tristream.h)", name);
	}
	return fail_public(err, TSG_OK, NULL);
}

/* The command line's rules between options (src/plan.c), those that apply
 * to the library, checked in its names: *req is what the plan is built
 * from, its layout settled where these rules settle it. The request's
 * given[] stays empty, so the plan applies no rule of its own on top (the
 * command line's refuses an option the device or input does not use,
 * which the library leaves unused), and echoes none (the library's report
 * has no plan). */
static int resolve(const tristream_options *t, struct count_request *req,
		   struct tristream_error *err)
{
	*req = t->req;
	const int cliques = req->k > 3;
	if (t->method_given && !cliques)
		return usage(err, "%s", "kclique-method needs k above 3");
	if (cliques && req->layout == ENGINE_LAYOUT_AUTO)
		req->layout = ENGINE_LAYOUT_LSTC; /* k-cliques need a part's whole out-lists */
	if (cliques && req->layout != ENGINE_LAYOUT_LSTC)
		return usage(err, "%s", "k-cliques are counted on LSTC parts (layout lstc)");
	if (req->degeneracy && req->layout != ENGINE_LAYOUT_LSTC)
		return usage(err, "%s", "order degeneracy orients LSTC parts: use it with layout "
			     "lstc or k above 3");
	if (t->unit_only && req->layout == ENGINE_LAYOUT_AUTO)
		req->layout = ENGINE_LAYOUT_BLOCK; /* asked for what only units have */
	if (t->unit_only && req->layout == ENGINE_LAYOUT_ARRIVAL)
		return usage(err, "%s does not apply to layout arrival", t->unit_only);
	if (cliques && req->clustering)
		return usage(err, "%s", "per-vertex counts triangles: not with k above 3");
	/* the sweep reports as it counts, on stdout: the command line's alone */
	if (req->layout == ENGINE_LAYOUT_SWEEP)
		return usage(err, "%s", "layout sweep is the command line's (tristream count "
			     "--layout sweep): the library counts in memory");
	/* scratch files: $TMPDIR, else /tmp (the command line's default is the
	 * graph's directory) */
	const char *tmp = getenv("TMPDIR");
	if (!req->scratch_dir)
		req->scratch_dir = tmp && *tmp ? tmp : "/tmp";
	return TSG_OK;
}

int tristream_stop_new(tristream_stop **out, struct tristream_error *err)
{
	tristream_stop *s = calloc(1, sizeof(*s));
	*out = s;
	if (!s) {
		const struct tsg_err e = { .msg = "out of memory" };
		return fail_public(err, TSG_ENOMEM, &e);
	}
	atomic_init(&s->s.signo, 0);
	return fail_public(err, TSG_OK, NULL);
}

void tristream_stop_request(tristream_stop *s)
{
	if (s)
		atomic_store(&s->s.signo, SIGINT);
}

void tristream_stop_reset(tristream_stop *s)
{
	if (s)
		atomic_store(&s->s.signo, 0);
}

void tristream_stop_free(tristream_stop *s)
{
	free(s);
}

int tristream_graph_open(const char *path, tristream_graph **out, struct tristream_error *err)
{
	struct tsg_err e = { 0 };
	*out = NULL;
	if (!path || !*path)
		return usage(err, "%s", "a graph's path must not be empty");
	/* a .tsg's header is checked now (a missing file is named here too);
	 * other inputs are read by the count */
	if (input_kind_of(path) == INPUT_TSG) {
		struct io_header h;
		const int rc = io_graph_peek(path, &h, &e);
		if (rc)
			return fail_public(err, rc, &e);
	}
	tristream_graph *g = calloc(1, sizeof(*g));
	if (!g || !(g->path = strdup(path))) {
		free(g);
		return fail_public(err, tsg_fail(&e, TSG_ENOMEM, "out of memory"), &e);
	}
	*out = g;
	return fail_public(err, TSG_OK, NULL);
}

/* The pairs of a graph from arrays, as the builder's keys. */
struct pairs {
	uint64_t nv, n;           /* vertices, pairs */
	const uint64_t *off;      /* CSR: pair i is (row of i, adj[i]) */
	const uint32_t *adj;
	const uint32_t *src, *dst; /* edges: pair i is (src[i], dst[i]) */
};

static int build_graph(const struct pairs *p, tristream_graph **out, struct tristream_error *err)
{
	struct tsg_err e = { 0 };
	struct io_builder *b = NULL;
	enum { CHUNK = 1 << 20 };
	uint64_t *keys = NULL;
	tristream_graph *g = NULL;
	int rc;
	*out = NULL;
	if (p->nv >= UINT32_MAX)
		return usage(err, "%s", "a graph from arrays has fewer than 2^32 - 1 vertices");
	const struct io_builder_opts bo = { .threads = tsg_default_threads(), .min_nv = p->nv };
	if (!(g = calloc(1, sizeof(*g))) || !(keys = malloc(CHUNK * sizeof(*keys)))) {
		rc = tsg_fail(&e, TSG_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = io_builder_new(&bo, &b, &e)))
		goto done;
	io_builder_reserve_vertices(b, p->nv);
	io_builder_expect(b, p->n);
	uint64_t row = 0;
	for (uint64_t i = 0; i < p->n && rc == TSG_OK; i += CHUNK) {
		const uint64_t end = i + CHUNK < p->n ? i + CHUNK : p->n;
		size_t k = 0;
		for (uint64_t j = i; j < end; j++) {
			uint64_t u, v;
			if (p->off) {
				while (p->off[row + 1] <= j) /* rows are checked: row < nv */
					row++;
				u = row;
				v = p->adj[j];
			} else {
				u = p->src[j];
				v = p->dst[j];
			}
			if (u >= p->nv || v >= p->nv) {
				rc = tsg_fail(&e, TSG_EINPUT, "%s %llu: vertex %llu is not below nv = %llu",
					      p->off ? "adj entry" : "edge", (unsigned long long)j,
					      (unsigned long long)(u >= p->nv ? u : v),
					      (unsigned long long)p->nv);
				break;
			}
			keys[k++] = u << 32 | v;
		}
		if (rc == TSG_OK)
			rc = io_builder_add(b, keys, k, &e);
	}
	if (rc)
		goto done;
	if (!io_builder_fits_memory(b)) {
		rc = tsg_fail(&e, TSG_ENOMEM, "the graph does not fit in memory to be built there: "
			      "write it to a file (tristream-convert) and count the file");
		goto done;
	}
	struct io_build_stats st;
	rc = io_builder_finish_mem(b, &g->g, &st, &e);
	b = NULL; /* freed by finish */
done:
	io_builder_free(b);
	free(keys);
	if (rc) {
		free(g);
		return fail_public(err, rc, &e);
	}
	*out = g;
	return fail_public(err, TSG_OK, NULL);
}

/* A CSR laid out directly, without the builder: each row copied, sorted,
 * its repeats and self-loops dropped, on every thread. What an undirected
 * graph's adjacency gives (NetworkX's): on 2 cores about a tenth of the
 * builder's time for 2 M entries. The rows must then be symmetric
 * (io_check_symmetry_exact); where they are not, the builder makes the
 * undirected graph of every pair instead. */
struct csr_ctx {
	uint64_t nv;
	const uint64_t *off;
	const uint32_t *adj;
	uint32_t *tmp;             /* off[nv] entries: each row sorted in place */
	uint64_t *noff;            /* nv + 1: kept entries of row v at noff[v + 1] */
	uint32_t *nadj;
	atomic_uint_fast64_t bad;  /* the first entry with an id not below nv */
};


static void csr_rows(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct csr_ctx *c = arg;
	for (uint64_t v = b; v < e; v++) {
		const uint64_t lo = c->off[v], n = c->off[v + 1] - lo;
		uint32_t *r = c->tmp + lo;
		uint64_t k = 0;
		for (uint64_t i = 0; i < n; i++) {
			if (c->adj[lo + i] >= c->nv) {
				tsg_atomic_min(&c->bad, lo + i);
				break;
			}
			r[i] = c->adj[lo + i];
		}
		tsg_sort_u32(r, NULL, n);
		for (uint64_t i = 0; i < n; i++) /* unique, without v itself */
			if (r[i] != v && (k == 0 || r[k - 1] != r[i]))
				r[k++] = r[i];
		c->noff[v + 1] = k;
	}
}

static void csr_place(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	struct csr_ctx *c = arg;
	for (uint64_t v = b; v < e; v++)
		memcpy(c->nadj + c->noff[v], c->tmp + c->off[v],
		       (c->noff[v + 1] - c->noff[v]) * sizeof(*c->nadj));
}

/* TSG_OK with g filled where the rows are symmetric, *again set where they
 * are not (the builder's turn), or an error. */
static int csr_direct(uint64_t nv, const uint64_t *off, const uint32_t *adj,
		      struct tsg_graph *g, int *again, struct tsg_err *err)
{
	const unsigned threads = tsg_default_threads();
	struct csr_ctx c = { .nv = nv, .off = off, .adj = adj };
	atomic_init(&c.bad, UINT64_MAX);
	*again = 0;
	c.tmp = malloc((off[nv] ? off[nv] : 1) * sizeof(*c.tmp));
	c.noff = malloc((nv + 1) * sizeof(*c.noff));
	if (!c.tmp || !c.noff) {
		free(c.tmp);
		free(c.noff);
		return tsg_fail(err, TSG_ENOMEM, "out of memory for the graph's lists");
	}
	tsg_parallel_for(threads, nv, 4096, csr_rows, &c);
	const uint64_t bad = atomic_load(&c.bad);
	if (bad != UINT64_MAX) {
		free(c.tmp);
		free(c.noff);
		return tsg_fail(err, TSG_EINPUT, "adj entry %llu: vertex %llu is not below nv = %llu",
				(unsigned long long)bad, (unsigned long long)adj[bad],
				(unsigned long long)nv);
	}
	uint64_t max_degree = 0;
	c.noff[0] = 0;
	for (uint64_t v = 0; v < nv; v++) {
		max_degree = c.noff[v + 1] > max_degree ? c.noff[v + 1] : max_degree;
		c.noff[v + 1] += c.noff[v];
	}
	c.nadj = malloc((c.noff[nv] ? c.noff[nv] : 1) * sizeof(*c.nadj));
	if (!c.nadj) {
		free(c.tmp);
		free(c.noff);
		return tsg_fail(err, TSG_ENOMEM, "out of memory for the graph's lists");
	}
	tsg_parallel_for(threads, nv, 4096, csr_place, &c);
	free(c.tmp);
	io_graph_adopt(g, nv, c.noff, c.nadj, max_degree, threads);
	struct tsg_err sym = { 0 };
	if (io_check_symmetry_exact(g, "CSR", threads, &sym) != TSG_OK) {
		io_graph_free(g);
		*again = 1;
	}
	return TSG_OK;
}

int tristream_graph_from_csr(uint64_t nv, const uint64_t *offsets, const uint32_t *adj,
			     tristream_graph **out, struct tristream_error *err)
{
	struct tsg_err e = { 0 };
	*out = NULL;
	if (!offsets || (offsets[nv] && !adj))
		return usage(err, "%s", "offsets (and adj, where it has entries) must not be NULL");
	if (offsets[0] != 0)
		return fail_public(err, tsg_fail(&e, TSG_EINPUT, "offsets[0] is %llu, not 0",
						 (unsigned long long)offsets[0]), &e);
	for (uint64_t v = 0; v < nv; v++)
		if (offsets[v + 1] < offsets[v])
			return fail_public(err, tsg_fail(&e, TSG_EINPUT, "offsets decrease at "
							 "vertex %llu", (unsigned long long)v), &e);
	if (nv >= UINT32_MAX)
		return usage(err, "%s", "a graph from arrays has fewer than 2^32 - 1 vertices");
	tristream_graph *g = calloc(1, sizeof(*g));
	int again = 0;
	if (!g)
		return fail_public(err, tsg_fail(&e, TSG_ENOMEM, "out of memory"), &e);
	const int rc = csr_direct(nv, offsets, adj, &g->g, &again, &e);
	if (rc == TSG_OK && !again) {
		*out = g;
		return fail_public(err, TSG_OK, NULL);
	}
	free(g);
	if (rc)
		return fail_public(err, rc, &e);
	const struct pairs p = { .nv = nv, .n = offsets[nv], .off = offsets, .adj = adj };
	return build_graph(&p, out, err);
}

int tristream_graph_from_edges(uint64_t nv, const uint32_t *src, const uint32_t *dst, uint64_t m,
			       tristream_graph **out, struct tristream_error *err)
{
	*out = NULL;
	if (m && (!src || !dst))
		return usage(err, "%s", "src and dst must not be NULL");
	const struct pairs p = { .nv = nv, .n = m, .src = src, .dst = dst };
	return build_graph(&p, out, err);
}

uint64_t tristream_graph_vertices(const tristream_graph *g)
{
	return g && !g->path ? g->g.nv : 0;
}

uint64_t tristream_graph_edges(const tristream_graph *g)
{
	return g && !g->path ? g->g.nadj / 2 : 0;
}

uint64_t tristream_graph_degree(const tristream_graph *g, uint64_t v)
{
	return g && !g->path && v < g->g.nv ? io_graph_degree(&g->g, v) : 0;
}

void tristream_graph_free(tristream_graph *g)
{
	if (!g)
		return;
	if (!g->path)
		io_graph_free(&g->g);
	free(g->path);
	free(g);
}

/* Local clustering by NetworkX's definition: 2 t / (d (d - 1)) in one
 * correctly rounded division of exact integers, as Python's int / int. */
struct cl_ctx {
	const struct tsg_graph *g;
	const uint64_t *pv;
	double *cl;
};

static void cl_range(void *arg, uint64_t b, uint64_t e, unsigned tid)
{
	(void)tid;
	const struct cl_ctx *c = arg;
	for (uint64_t v = b; v < e; v++) {
		const uint64_t d = io_graph_id_degree(c->g, v); /* an oriented file's too */
		c->cl[v] = d < 2 || !c->pv[v] ? 0.0 : (double)(2 * c->pv[v]) / (double)(d * (d - 1));
	}
}

/* What a count leaves the caller: its numbers and the report. */
static int keep_result(const char *name, const struct count_plan *pl, struct run_graph *rg,
		       tristream_result **out, struct tsg_err *err)
{
	const struct engine_opts *o = &pl->o;
	const struct tsg_graph *g = rg->g;
	struct engine_result *r = &rg->r;
	tristream_result *res = calloc(1, sizeof(*res));
	if (!res)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	res->count = r->triangles;
	res->nv = g->nv;
	res->nedges = io_graph_edges(g);
	res->transitivity = res->average_clustering = -1;
	if (o->per_vertex && r->pv) {
		res->transitivity = rg->cl.transitivity;
		res->average_clustering = rg->cl.average_clustering;
		res->cl = malloc((g->nv ? g->nv : 1) * sizeof(*res->cl));
		if (!res->cl) {
			free(res);
			return tsg_fail(err, TSG_ENOMEM, "out of memory for clustering");
		}
		struct cl_ctx c = { .g = g, .pv = r->pv, .cl = res->cl };
		tsg_parallel_for(o->threads, g->nv, 1 << 16, cl_range, &c);
		res->pv = r->pv; /* the result's from here */
		r->pv = NULL;
	}
	size_t len = 0;
	FILE *f = open_memstream(&res->json, &len);
	const struct report_extra x = { .cl = o->per_vertex ? &rg->cl : NULL,
					.vertices = rg->vertices };
	if (f) {
		report_count_json_to(f, name, g, o, r, NULL, &rg->in, rg->wall, &x);
		if (fclose(f) == 0 && len && res->json[len - 1] == '\n')
			res->json[len - 1] = 0;
	}
	if (!f || !res->json) {
		tristream_result_free(res);
		return tsg_fail(err, TSG_ENOMEM, "out of memory for the report");
	}
	*out = res;
	return TSG_OK;
}

/* A count's plan and state, too large for a caller's thread's stack. */
struct api_count {
	struct count_request req;
	struct tsg_dist one;      /* one process, whatever launched it */
	struct count_plan job, pl;
	struct run_graph rg;
};

int tristream_count(tristream_graph *g, const tristream_options *t, tristream_stop *stop,
		    tristream_result **out, struct tristream_error *err)
{
	struct tsg_err e = { 0 };
	tristream_options *defaults = NULL;
	struct api_count *c = NULL;
	*out = NULL;
	if (!g)
		return usage(err, "%s", "no graph given");
	if (!t) {
		const int rc = tristream_options_new(&defaults, err);
		if (rc)
			return rc;
		t = defaults;
	}
	if (!(c = calloc(1, sizeof(*c)))) {
		tristream_options_free(defaults);
		return fail_public(err, tsg_fail(&e, TSG_ENOMEM, "out of memory"), &e);
	}
	int rc = resolve(t, &c->req, err);
	if (rc) {
		free(c);
		tristream_options_free(defaults);
		return rc;
	}
	c->one = (struct tsg_dist){ .rank = 0, .size = 1, .host_size = 1, .host_most = 1 };
	/* a graph from arrays is counted where it is: the job's plan is its own */
	struct count_plan *pl = g->path ? &c->pl : &c->job;
	rc = plan_build(&c->req, &c->one, 1, &c->job, &e);
	if (rc == TSG_OK) {
		c->job.o.stop = stop ? &stop->s : NULL;
		c->job.layouts_ok &= ~(unsigned)OPT_SWEEP; /* a crawl is counted in memory */
		if (g->path)
			rc = plan_graph(&c->job, g->path, pl, &e);
	}
	if (rc == TSG_OK)
		rc = run_graph(pl, g->path, g->path ? NULL : &g->g, &c->rg, &e);
	if (rc == TSG_OK)
		rc = keep_result(g->path ? g->path : "(arrays)", pl, &c->rg, out, &e);
	run_graph_free(&c->rg);
	free(c);
	tristream_options_free(defaults);
	if (rc == TSG_EINTERRUPTED && stop) { /* the engine names a signal: it was this call */
		e = (struct tsg_err){ 0 };
		tsg_fail(&e, rc, "stopped by tristream_stop_request before the count was done");
	}
	return fail_public(err, rc, &e);
}

uint64_t tristream_result_count(const tristream_result *r)
{
	return r ? r->count : 0;
}

uint64_t tristream_result_vertices(const tristream_result *r)
{
	return r ? r->nv : 0;
}

uint64_t tristream_result_edges(const tristream_result *r)
{
	return r ? r->nedges : 0;
}

const uint64_t *tristream_result_per_vertex(const tristream_result *r)
{
	return r ? r->pv : NULL;
}

const double *tristream_result_clustering(const tristream_result *r)
{
	return r ? r->cl : NULL;
}

double tristream_result_transitivity(const tristream_result *r)
{
	return r ? r->transitivity : -1;
}

double tristream_result_average_clustering(const tristream_result *r)
{
	return r ? r->average_clustering : -1;
}

const char *tristream_result_json(const tristream_result *r)
{
	return r ? r->json : NULL;
}

void tristream_result_free(tristream_result *r)
{
	if (!r)
		return;
	free(r->pv);
	free(r->cl);
	free(r->json);
	free(r);
}
