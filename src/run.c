/*
 * run.c - a count job's graphs, one after another (see run.h).
 */
#include "src/run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/checkpoint.h"
#include "src/dist.h"
#include "src/engine.h"
#include "src/input.h"
#include "src/options.h"
#include "src/pervertex.h"
#include "src/report.h"
#include "src/sweep.h"
#include "io/format.h"
#include "io/graph.h"
#include "io/reader.h"
#include "io/webgraph.h"
#include "base/util.h"

/* Reads all of manifest into a string (*out, to be freed). */
static int read_manifest(const char *manifest, char **out, struct tsg_err *err)
{
	FILE *f = fopen(manifest, "r");
	if (!f)
		return tsg_fail_errno(err, errno == ENOENT ? TSG_EINPUT : TSG_EIO, errno,
				      "--manifest %s", manifest);
	size_t len = 0;
	char *buf = NULL;
	FILE *m = open_memstream(&buf, &len);
	int c;
	while (m && (c = getc(f)) != EOF)
		putc(c, m);
	const int bad = !m || ferror(f);
	fclose(f);
	if (m)
		fclose(m);
	if (bad) {
		free(buf);
		return tsg_fail(err, TSG_EIO, "--manifest %s: read error", manifest);
	}
	*out = buf;
	return TSG_OK;
}

int run_gather_graphs(int argc, const char *const *argv, const char *manifest, const char ***out,
		      size_t *n, char **mbuf, struct tsg_err *err)
{
	size_t cap = (size_t)argc + 16, k = 0;
	const char **paths = malloc(cap * sizeof(*paths));
	char *buf = NULL, *joined = NULL;
	int rc = TSG_OK;
	*mbuf = NULL;
	if (!paths)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (int i = 0; i < argc; i++)
		paths[k++] = argv[i];
	if (manifest && (rc = read_manifest(manifest, &buf, err)) == TSG_OK) {
		const size_t first = k;
		for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			line[strcspn(line, "\r")] = 0;
			while (*line == ' ' || *line == '\t')
				line++;
			if (!*line || *line == '#')
				continue;
			if (k == cap) {
				cap *= 2;
				const char **np = realloc(paths, cap * sizeof(*paths));
				if (!np) {
					rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
					goto done;
				}
				paths = np;
			}
			paths[k++] = line;
		}
		/* a relative path is the manifest's directory's, wherever the
		 * command runs: the lines laid out again behind that prefix */
		const char *slash = strrchr(manifest, '/');
		const size_t dl = slash ? (size_t)(slash - manifest) + 1 : 0;
		size_t total = 1;
		for (size_t i = first; i < k; i++)
			total += strlen(paths[i]) + 1 + dl;
		if (!(joined = malloc(total))) {
			rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
			goto done;
		}
		char *at = joined;
		for (size_t i = first; i < k; i++) {
			const int rel = paths[i][0] != '/' && strcmp(paths[i], "-") != 0;
			const int w = sprintf(at, "%.*s%s", rel ? (int)dl : 0, manifest, paths[i]);
			paths[i] = at;
			at += w + 1;
		}
		*mbuf = joined;
		joined = NULL;
	}
done:
	free(buf);
	free(joined);
	if (rc) {
		free(paths);
		return rc;
	}
	*out = paths;
	*n = k;
	return k ? TSG_OK : TSG_EUSAGE;
}

int run_place_checkpoints(struct count_plan *job, size_t n, struct tsg_err *err)
{
	struct stat st;
	const int is_dir = stat(job->ckpt, &st) == 0 && S_ISDIR(st.st_mode);
	if (n > 1 && !is_dir && mkdir(job->ckpt, 0777) != 0)
		return tsg_fail_errno(err, TSG_EIO, errno, "--checkpoint %s: cannot make the "
				      "directory (several graphs keep a checkpoint each there)",
				      job->ckpt);
	job->ckpt_dir = n > 1 || is_dir;
	return TSG_OK;
}

/* The graph's name in a checkpoint: its file's header checksum, or for a
 * graph built in memory (a merged crawl) a checksum of its lists. */
static uint64_t graph_key(const struct tsg_graph *g)
{
	if (g->identity)
		return g->identity;
	return io_checksum(g->off, (g->nv + 1) * 8) ^ (io_checksum(g->adj, g->nadj * 4) * 31 + 1);
}

/* In a checkpoint directory, a graph's file: its base name and a hash of
 * its full path, so two graphs of one name in two folders do not meet. */
static void ckpt_file_for(const struct count_plan *job, const char *path, char *out, size_t len)
{
	if (!job->ckpt_dir) {
		snprintf(out, len, "%s", job->ckpt);
	} else {
		char *full = realpath(path, NULL);
		const char *name = full ? full : path;
		const char *base = strrchr(path, '/');
		snprintf(out, len, "%s/%.200s.%016llx.ckpt", job->ckpt, base ? base + 1 : path,
			 (unsigned long long)io_checksum(name, strlen(name)));
		free(full);
	}
	/* under mpirun each rank keeps its own units' counts: FILE.rankR */
	const size_t n = strlen(out);
	if (job->dist->size > 1 && n < len)
		snprintf(out + n, len - n, ".rank%d", job->dist->rank);
}

/* Several ranks: each counted its share of the units (rc its outcome);
 * every rank agrees on the outcome and on the plan, then the counts are
 * summed on every rank (and per-vertex counts, and clique sizes), and rank
 * 0 gets each rank's counting time. Every rank makes the same calls in the
 * same order. */
static int dist_sum_ranks(struct tsg_dist *d, int rc, const struct tsg_graph *g,
			  const struct engine_opts *o, struct engine_result *r, double synced,
			  double **rank_s, struct tsg_err *err)
{
	if ((rc = dist_agree(d, rc, err)))
		return rc;
	if (!dist_same_u64(d, r->plan_key))
		return tsg_fail(err, TSG_EUSAGE, "the ranks planned different units or arrival "
				"groups (device memory, options, GPUs or environment differ): give "
				"every rank the same --gpu-mem, --partitions, number of --gpus and "
				"TSG_ variables");
	if ((rc = dist_sum_u64(d, &r->triangles, 1, err)))
		return rc;
	if (r->pv && (rc = dist_sum_u64(d, r->pv, g->nv, err)))
		return rc;
	if (o->k_all) { /* the same length on every rank: one graph, one orientation */
		if ((rc = dist_sum_u64(d, r->sizes, r->sizes_len, err)))
			return rc;
		engine_clique_top(r);
	}
	/* rank 0: each rank's times, bytes and units (enum report_rank_row) */
	*rank_s = d->rank == 0 ? calloc((size_t)REPORT_RANK_ROWS * (size_t)d->size, sizeof(**rank_s))
			       : NULL;
	uint32_t mine = 0; /* the units this rank counted */
	for (uint32_t k = 0; k < r->nparts; k++)
		mine += !r->parts[k].elsewhere && !r->parts[k].resumed;
	/* when this rank counted, from the moment the ranks left one reduction */
	const int timed = r->count_start > 0;
	double v[REPORT_RANK_ROWS];
	v[REPORT_RANK_READ_S] = g->read_seconds;
	v[REPORT_RANK_BUILD_S] = r->build_s;
	v[REPORT_RANK_COUNT_S] = r->count_s;
	v[REPORT_RANK_COUNT_WALL_S] = r->count_wall_s;
	v[REPORT_RANK_READ_BYTES] = (double)(r->ranges.used ? r->ranges.read_bytes
							     : r->host_build.read_bytes);
	v[REPORT_RANK_UNITS] = (double)mine;
	v[REPORT_RANK_COUNT_FROM] = timed ? r->count_start - synced : -1;
	v[REPORT_RANK_COUNT_TO] = timed ? r->count_start + r->count_wall_s - synced : -1;
	return dist_gather_rows(d, v, REPORT_RANK_ROWS, *rank_s, err);
}

/* A crawl or a text file is converted whole before its header is known
 * (input_prepare), so the GPU's context is made while it is, where the GPU
 * was asked for, or (crawls) where auto will take it for the fewest edges
 * the crawl can have (half its arcs) at a degree skew of 4, which the
 * crawls measured exceed by far (bench/RESULTS.md; engine_auto_device).
 * Should auto pick the CPU after all, the context is only torn down. */
static int warm_early(const struct count_plan *p, const char *path)
{
	const struct engine_opts *o = &p->o;
	if (o->device == TSG_DEVICE_CPU || o->plan_only || !engine_have_gpu())
		return 0;
	if (p->input == INPUT_TSG)
		return 0;
	if (o->device == TSG_DEVICE_GPU)
		return 1;
	uint64_t nodes, arcs;
	struct tsg_err e = { 0 };
	char note[256];
	if (p->input != INPUT_WEBGRAPH || io_webgraph_peek(path, &nodes, &arcs, &e) != TSG_OK)
		return 0;
	const uint64_t m = arcs / 2;
	const uint64_t skew4 = (uint64_t)(4.0 * sqrt((double)m)); /* the max degree of skew 4 */
	return engine_auto_device(nodes, m, skew4, o->k, note, sizeof(note)) == TSG_DEVICE_GPU;
}

/* A GPU that could not be opened at all: said so first, with CUDA's own
 * reason after. */
static void name_gpu_failure(const struct engine_opts *o, const struct engine_result *r, int rc,
			     struct tsg_err *err)
{
	if (rc != TSG_EDEVICE || o->device != TSG_DEVICE_GPU || r->nparts || !err->msg[0] ||
	    strstr(err->msg, "no usable"))
		return;
	char msg[sizeof(err->msg)];
	snprintf(msg, sizeof(msg), "no usable GPU: %.1000s", err->msg);
	memcpy(err->msg, msg, sizeof(msg));
}

/* A finished checkpoint is replayed, not counted: no device is opened, so
 * a GPU asked for is neither used nor checked to be there (the device's
 * kind is in the checkpoint's key; its index is not). Said, not silent. */
static void finished_notes(struct count_plan *pl)
{
	const struct count_request *req = pl->req;
	if (req->given[COPT_GPU] || req->given[COPT_GPUS])
		plan_note(pl, "--%s: not used, the checkpoint holds the finished count (no GPU "
			  "opened, none checked)", req->given[COPT_GPUS] ? "gpus" : "gpu");
}

/* A crawl counted by the sweep (src/sweep.h): opened, checkpointed,
 * counted and reported here, since it is never loaded as a graph. */
static int count_sweep(const char *path, struct count_plan *pl, struct report_outcome *res)
{
	struct engine_opts *o = &pl->o;
	struct tsg_err *err = &res->err;
	struct engine_result r = { 0 };
	struct tsg_graph g = { 0 };
	struct sweep *s = NULL;
	struct ckpt *ck = NULL;
	struct pv_clustering cl;
	struct engine_warm *warm = NULL;
	char ckpath[4400];
	const double t0 = tsg_now();
	/* the GPU's context is made while the offsets are read and ranked */
	if (o->device != TSG_DEVICE_CPU && engine_have_gpu())
		engine_gpu_warm_begin(o, &warm);
	int rc = sweep_open(path, o->threads, &s, err);
	if (rc)
		goto done;
	if (pl->ckpt) {
		uint64_t total;
		ckpt_file_for(pl, path, ckpath, sizeof(ckpath));
		if ((rc = ckpt_open(ckpath, sweep_identity(s), pl->opts_key, &ck, err)))
			goto done;
		int finished = 0; /* a total that does not add up is refused */
		if ((rc = ckpt_finished(ck, &finished, &total, err)))
			goto done;
		if (finished) {
			g.nv = sweep_nodes(s);
			finished_notes(pl);
			report_finished(path, &g, UINT64_MAX, ckpath, total, o->k, pl->notes, pl->json);
			res->triangles = total;
			res->seconds = tsg_now() - t0;
			goto done;
		}
		if (ckpt_info(ck)->torn)
			plan_note(pl, "checkpoint %s: an incomplete last record (a crash while writing "
				  "it) was dropped; its unit is counted again", ckpath);
		o->ckpt = ck;
	}
	engine_gpu_warm_end(warm);
	warm = NULL;
	rc = sweep_count(s, o, pl->host_mem, pl->req->allow_empty, &g, &r, err);
	name_gpu_failure(o, &r, rc, err);
	if (r.note[0] && o->progress)
		fprintf(stderr, "tristream: note: %s\n", r.note);
	if (rc == TSG_OK && ck)
		rc = ckpt_finish_recorded(ck, r.triangles, err);
	if (rc == TSG_OK && pl->req->per_vertex)
		rc = pv_write(pl->req->per_vertex, pl->req->pv_format, &g, r.pv, o->threads, err);
	if (rc == TSG_OK && pl->req->clustering)
		pv_clustering(&g, r.pv, o->threads, &cl);
	if (rc == TSG_OK) {
		const struct io_webgraph_stats *st = sweep_stats(s);
		struct ckpt_info cki = { 0 };
		if (ck)
			cki = *ckpt_info(ck);
		const struct input_info in = { .kind = INPUT_WEBGRAPH, .format = "webgraph",
					       .transpose = 1, .offsets_scanned = st->offsets_scanned,
					       .input_edges = st->arcs, .seconds = st->open_s };
		plan_settle(pl, &g, &r, "");
		const struct report_extra x = { .cl = pl->req->clustering ? &cl : NULL,
						.pv_path = pl->req->per_vertex, .dist = pl->dist,
						.ckpt_path = ck ? ckpath : NULL, .ck = ck ? &cki : NULL,
						.vertices = r.sweep.vertices, .plan = pl };
		const double wall = tsg_now() - t0;
		if (pl->json)
			report_count_json(path, &g, o, &r, NULL, &in, wall, &x);
		else
			report_count_text(&g, o, &r, wall, &x);
		res->triangles = r.triangles;
		res->seconds = wall;
	}
done:
	engine_gpu_warm_end(warm);
	ckpt_close(ck);
	engine_result_free(&r);
	io_graph_free(&g);
	sweep_close(s);
	return rc;
}

/* The device where auto is asked and a GPU might run: from the header
 * (gpath's, fh; NULL where it could not be read: the open reports why) or
 * the lists in memory, before the lists are read; the GPU's context is then
 * made while they are. Ended where the CPU was taken. */
static int choose_device(struct count_plan *pl, struct tsg_graph *g, const char *gpath,
			 const struct io_header *fh, struct engine_warm **warm, char *auto_note,
			 size_t len, struct tsg_err *err)
{
	struct engine_opts *o = &pl->o;
	if (o->device != TSG_DEVICE_CPU && !o->plan_only && engine_have_gpu()) {
		struct io_header h = gpath && fh ? *fh : (struct io_header){ 0 };
		/* a crawl opened by ranges has no degrees yet: auto stays */
		const int known = gpath ? fh != NULL : !io_graph_degrees_pending(g);
		if (!gpath) { /* lists in memory, or a crawl decoded as counted: bounds of
			       * its edges and degrees */
			h.nv = g->nv;
			h.nedges = io_graph_rank_nadj(g) / 2;
			h.max_degree = io_graph_rank_max_degree(g);
		}
		/* the rule only ever moves auto to the CPU: where it says GPU, auto
		 * stays, so a GPU that cannot be used still falls back to the CPU.
		 * Where bounds say the CPU, the CPU could not count while decoding
		 * anyway: the crawl is decoded whole and the rule asked again with
		 * its true figures, which the note gives */
		if (o->device == TSG_DEVICE_AUTO && known && g->lists_src &&
		    engine_auto_device(h.nv, h.nedges, h.max_degree, o->k, auto_note, len) ==
			    TSG_DEVICE_CPU) {
			auto_note[0] = 0;
			const int rc = io_graph_read_lists(g, NULL, NULL, err);
			if (rc)
				return rc;
			h.nedges = g->nadj / 2;
			h.max_degree = g->max_degree;
		}
		if (o->device == TSG_DEVICE_AUTO && known &&
		    engine_auto_device(h.nv, h.nedges, h.max_degree, o->k, auto_note, len) ==
			    TSG_DEVICE_CPU)
			plan_device(pl, TSG_DEVICE_CPU, auto_note);
		/* a large plain file in the page cache: the arrival layout on every
		 * GPU of --gpus, all started now (probed only where it could be) */
		o->arrival_all_gpus = 0;
		if (known && gpath && !(h.flags & (IO_FLAG_ORIENTED | IO_FLAG_LZ4)) &&
		    !pl->host_mem && engine_arrival_all_gpus(o, h.nedges, 1.0))
			o->arrival_all_gpus = engine_arrival_all_gpus(o, h.nedges, io_path_cached(gpath));
		/* rows past the first GPU: every GPU counts (block or groups).
		 * Its memory is asked (the CUDA runtime's start, on this thread,
		 * before the read) only where the rule could hold: past --gpu-mem,
		 * else rows past 4 GiB, which no GPU worth counting on lacks */
		o->rows_past_gpu = known && engine_rows_past_gpu(o, h.nedges, 4ull << 30) &&
				   (o->gpu_mem ||
				    engine_rows_past_gpu(o, h.nedges, engine_gpu_memory(o->gpus[0])));
		if (o->device != TSG_DEVICE_CPU && !*warm)
			engine_gpu_warm_begin(o, warm);
	}
	if (o->device == TSG_DEVICE_CPU && *warm) { /* begun early, and auto chose the CPU */
		engine_gpu_warm_end(*warm);
		*warm = NULL;
	}
	return TSG_OK;
}

/* Whether --io auto maps the file (its header fh) where it finds it in the
 * page cache: a plain .tsg the arrival layout will likely count on a GPU
 * (engine_arrival_likely), whose pages it sends from where they lie. Not
 * under a checkpoint (set on o only after the open), nor where the rows
 * cannot fit the first GPU (the block layout or groups on every GPU), nor
 * for a caller that leaves SIGBUS fatal (the library). A header that
 * cannot be read (fh NULL): no (the open reports it). */
static int cached_map(const struct count_plan *pl, const struct io_header *fh)
{
	return fh && pl->lo.io == IO_MODE_AUTO && pl->req->sigbus_handled && !pl->ckpt &&
	       !pl->o.rows_past_gpu && engine_have_gpu() &&
	       !(fh->flags & (IO_FLAG_ORIENTED | IO_FLAG_LZ4)) &&
	       engine_arrival_likely(&pl->o, fh->nedges);
}

/* The input made countable and opened (g), its device chosen; *warm the
 * GPU's context in the making, if it is. */
static int open_graph(struct count_plan *pl, const char *path, struct run_graph *rg,
		      struct engine_warm **warm, struct tsg_err *err)
{
	struct engine_opts *o = &pl->o;
	const char *gpath = NULL;
	if (warm_early(pl, path))
		engine_gpu_warm_begin(o, warm);
	int rc = input_prepare(path, &pl->in, rg->g, &gpath, &rg->in, err);
	if (rc)
		return rc;
	plan_input(pl, &rg->in, gpath);
	/* the header, read once for the device and the mapping, both only
	 * where a GPU might count */
	struct io_header fh;
	struct tsg_err peek_err = { 0 };
	const struct io_header *hp = NULL;
	if (gpath && engine_have_gpu() && io_graph_peek(gpath, &fh, &peek_err) == TSG_OK)
		hp = &fh;
	rc = choose_device(pl, rg->g, gpath, hp, warm, rg->auto_note, sizeof(rg->auto_note), err);
	if (rc == TSG_OK && pl->host_mem && gpath)
		rc = plan_host_mem(pl, gpath, path, err);
	if (rc == TSG_OK && gpath) {
		pl->lo.cached_map = cached_map(pl, hp);
		rc = io_graph_open(gpath, &pl->lo, rg->g, err);
	}
	input_done(&rg->in); /* a scratch .tsg lives on through the open graph's descriptors */
	return rc;
}

int run_graph(struct count_plan *pl, const char *path, struct tsg_graph *mem,
	      struct run_graph *rg, struct tsg_err *err)
{
	struct engine_opts *o = &pl->o;
	struct tsg_dist *d = pl->dist;
	struct dist_counter *take = NULL; /* several ranks: the units' shared count */
	struct engine_warm *warm = NULL;
	memset(rg, 0, sizeof(*rg));
	rg->t0 = tsg_now();
	tsg_profile_stamp("run begun");
	rg->g = mem ? mem : &rg->own;
	struct tsg_graph *g = rg->g;
	int rc = TSG_OK;
	if (mem) { /* lists built in memory: counted with the plan's threads */
		rg->in = (struct input_info){ .kind = INPUT_TSG, .format = "arrays" };
		g->threads = o->threads;
		g->progress = o->progress;
		rc = choose_device(pl, g, NULL, NULL, &warm, rg->auto_note, sizeof(rg->auto_note),
				   err);
	} else {
		rc = open_graph(pl, path, rg, &warm, err);
	}
	tsg_profile_stamp("graph opened");
	/* every rank agrees once after opening, whatever happened */
	if ((rc = dist_agree(d, rc, err)))
		goto done;
	/* whether the host's ranks build one oriented graph (plan_host_build_wanted):
	 * decided by all of them here, where every rank is, so each takes the
	 * same way */
	o->host_build = dist_host_all(d, plan_host_build_wanted(o));
	/* for a graph built in memory the key checksums every list (about a
	 * second for a billion-edge crawl): only where ranks or a checkpoint
	 * need it */
	const uint64_t key = d->size > 1 || pl->ckpt ? graph_key(g) : 0;
	if (d->size > 1 && !dist_same_u64(d, key)) { /* the same verdict on every rank */
		rc = tsg_fail(err, TSG_EINPUT, "%s: the ranks opened different graphs (each "
			      "rank's copy must be the same file)", path);
		goto done;
	}
	/* every rank leaves that reduction at about the same moment: the ranks'
	 * counting times are told from it (job_count_wall_s) */
	const double synced = tsg_now();
	if (pl->ckpt) {
		ckpt_file_for(pl, path, rg->ckpath, sizeof(rg->ckpath));
		rc = ckpt_open(rg->ckpath, key, pl->opts_key, &rg->ck, err);
		if (d->size > 1) /* every rank opens its own, or none goes on */
			rc = dist_agree(d, rc, err);
		if (rc)
			goto done;
		/* one process: a finished graph is not even counted. Several ranks
		 * count again, each taking its units from its file: they must
		 * meet in the reductions whatever each file says */
		if (d->size == 1 && (rc = ckpt_finished(rg->ck, &rg->finished, &rg->total, err)))
			goto done; /* a total that does not add up is refused */
		if (rg->finished) {
			rg->vertices = io_graph_vertices_with_edges(g, o->threads);
			goto done;
		}
		if (ckpt_info(rg->ck)->torn)
			plan_note(pl, "checkpoint %s: an incomplete last record (a crash while "
				  "writing it) was dropped; its unit is counted again", rg->ckpath);
		o->ckpt = rg->ck;
	}
	if (g->io_note[0])
		plan_note(pl, "%s; reading with %s", g->io_note, io_mode_name(g->io_used));
	/* several ranks: the block layout's units go to whichever rank is free
	 * (dist.h); a checkpoint keeps the deal by cost, so that each rank's
	 * file resumes its own units */
	if (d->size > 1 &&
	    (rc = dist_agree(d, dist_counter_open(d, !pl->ckpt && !o->plan_only, &take, err), err)))
		goto done;
	o->take = take;
	struct engine_result *r = &rg->r;
	tsg_profile_stamp("engine begun");
	rc = engine_count(g, o, r, err);
	tsg_profile_stamp("engine done");
	name_gpu_failure(o, r, rc, err);
	if (!r->note[0] && rg->auto_note[0])
		snprintf(r->note, sizeof(r->note), "%s", rg->auto_note);
	if (r->note[0] && o->progress)
		fprintf(stderr, "tristream: note: %s\n", r->note);
	if (d->size > 1 && (rc = dist_sum_ranks(d, rc, g, o, r, synced, &rg->rank_s, err)))
		goto done;
	if (rc == TSG_OK && rg->ck)
		rc = ckpt_finish(rg->ck, r->triangles, err);
	if (rg->ck) /* several ranks: what all their files did */
		rg->cki = *ckpt_info(rg->ck);
	if (d->size > 1 && rg->ck && (rc = dist_agree(d, rc, err)) == TSG_OK) {
		struct ckpt_info *cki = &rg->cki;
		uint64_t v[4] = { (uint64_t)cki->created, (uint64_t)cki->torn, cki->resumed,
				  cki->recorded };
		rc = dist_sum_u64(d, v, 4, err);
		cki->created = v[0] == (uint64_t)d->size;
		cki->torn = v[1] > 0;
		cki->resumed = (uint32_t)v[2];
		cki->recorded = (uint32_t)v[3];
		char *suffix = strrchr(rg->ckpath, '.'); /* ".rankR": the files are FILE.rank* */
		if (suffix)
			snprintf(suffix, sizeof(rg->ckpath) - (size_t)(suffix - rg->ckpath), ".rank*");
	}
	if (rc == TSG_OK && pl->req->per_vertex && d->rank == 0)
		rc = pv_write(pl->req->per_vertex, pl->req->pv_format, g, r->pv, o->threads, err);
	if (rc == TSG_OK && pl->req->clustering)
		pv_clustering(g, r->pv, o->threads, &rg->cl);
	/* several ranks: the shared counter and the host's oriented graph go
	 * inside the timed run, since giving back the host's block (4 KiB
	 * pages of /dev/shm, in whichever rank lets go last) takes a while on
	 * a large graph; on every rank, failed or not, so that the
	 * collectives pair up */
	const double rel0 = tsg_now();
	dist_counter_close(take);
	take = NULL;
	dist_host_free(d);
	rg->release_s = tsg_now() - rel0;
	/* inside the wall: an oriented graph's takes a pass over its rows
	 * where they were not marked as read (io_graph_reach_rows) */
	if (rc == TSG_OK)
		rg->vertices = io_graph_vertices_with_edges(g, o->threads);
	rg->wall = tsg_now() - rg->t0;
	tsg_profile_stamp("run's wall");
done:
	/* a collective, so only here: a rank that failed while counting meets
	 * the others first in an agreement (engine_count's, or dist_sum_ranks'),
	 * after which no rank makes another on the wire for this graph */
	dist_counter_close(take);
	dist_host_free(d); /* the oriented graph its host's ranks built, if they did */
	engine_gpu_warm_end(warm);
	tsg_profile_stamp("run's end");
	return rc;
}

void run_graph_free(struct run_graph *rg)
{
	free(rg->rank_s);
	ckpt_close(rg->ck);
	engine_result_free(&rg->r);
	io_graph_free(&rg->own);
	rg->rank_s = NULL;
	rg->ck = NULL;
}

/* Counts one graph and prints its result; returns its status (the error
 * in res->err, not yet reported). */
static int count_one(const char *path, const struct count_plan *job, struct report_outcome *res)
{
	struct count_plan pl;
	struct run_graph rg;
	struct tsg_err *err = &res->err;
	struct tsg_dist *d = job->dist;
	dist_begin(d); /* the graph before may have failed: this one starts clean */
	/* ranks launched with other options (by a wrapper script) would count
	 * other things or wait in other collectives: a partial count, or a hang */
	if (d->size > 1 && !dist_same_u64(d, job->ranks_key))
		return tsg_fail(err, TSG_EUSAGE, "the ranks were given different options (every "
				"rank must run the same count; --gpu, --device, --gpu-mem and "
				"--threads may differ)");
	int rc = plan_graph(job, path, &pl, err);
	if (rc)
		return dist_agree(d, rc, err);
	if (pl.o.layout == ENGINE_LAYOUT_SWEEP) /* one process: no rank waits on it */
		return count_sweep(path, &pl, res);
	rc = run_graph(&pl, path, NULL, &rg, err);
	const struct engine_opts *o = &pl.o;
	const struct tsg_graph *g = rg.g;
	if (rc == TSG_OK && rg.finished) {
		finished_notes(&pl);
		report_finished(path, g, rg.vertices, rg.ckpath, rg.total, o->k, pl.notes, job->json);
		res->triangles = rg.total;
		res->seconds = tsg_now() - rg.t0;
	} else if (rc == TSG_OK) {
		plan_settle(&pl, g, &rg.r, rg.auto_note);
		if (g->nv == 0)
			plan_note(&pl, "%s is an empty graph", path);
		const struct report_extra x = { .ranges = rg.r.ranges.used, .taken = rg.r.taken,
						.release_s = rg.release_s,
						.host_build = rg.r.host_build.used,
						.cl = pl.req->clustering ? &rg.cl : NULL,
						.pv_path = pl.req->per_vertex, .dist = d,
						.rank_s = rg.rank_s,
						.ckpt_path = rg.ck ? rg.ckpath : NULL,
						.ck = rg.ck ? &rg.cki : NULL,
						.vertices = rg.vertices, .plan = &pl };
		if (job->json)
			report_count_json(path, g, o, &rg.r, pl.have_hp ? &pl.hp : NULL, &rg.in,
					  rg.wall, &x);
		else
			report_count_text(g, o, &rg.r, rg.wall, &x);
		res->triangles = rg.r.triangles;
		res->seconds = rg.wall;
	}
	tsg_profile_stamp("reported");
	run_graph_free(&rg);
	tsg_profile_stamp("freed");
	return rc;
}

int run_count(const struct count_plan *job, const char *const *paths, size_t n)
{
	int first_bad = TSG_OK;
	size_t ran = 0;
	struct report_outcome *res = calloc(n, sizeof(*res));
	if (!res)
		return report_error(TSG_ENOMEM, &(struct tsg_err){ .msg = "out of memory" });
	for (size_t i = 0; i < n; i++, ran++) {
		if (n > 1 && !job->json)
			printf("%s== %s\n", i ? "\n" : "", paths[i]);
		res[i].rc = count_one(paths[i], job, &res[i]);
		if (res[i].rc == TSG_EUSAGE) /* an option this graph does not take */
			options_usage_error("count", res[i].err.msg);
		else if (res[i].rc)
			report_error(res[i].rc, &res[i].err);
		if (res[i].rc) {
			if (job->json) /* a JSON object for every graph, failed ones too */
				report_failed_json(paths[i], &res[i]);
			if (first_bad == TSG_OK)
				first_bad = res[i].rc;
		}
		fflush(stdout); /* an overnight job's log shows each graph as it is done */
		if (res[i].rc == TSG_EINTERRUPTED) { /* asked to stop: the rest waits for a rerun */
			first_bad = TSG_EINTERRUPTED;
			ran++;
			break;
		}
	}
	if (n > 1 && !job->json)
		report_summary(paths, res, ran);
	free(res);
	return first_bad;
}
