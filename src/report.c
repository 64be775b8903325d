/*
 * report.c - a count's result, as text or JSON (see report.h).
 */
#include "src/report.h"

#include <stdio.h>

#include "base/json.h"
#include "version.h"

static double rank_imbalance(const struct report_extra *x)
{
	const double *count_s = x->rank_s + REPORT_RANK_COUNT_S * x->dist->size;
	double sum = 0, max = 0;
	for (int i = 0; i < x->dist->size; i++) {
		sum += count_s[i];
		max = count_s[i] > max ? count_s[i] : max;
	}
	return sum > 0 ? max / (sum / x->dist->size) : 1.0;
}

/* Several ranks: from the first rank's start of counting to the last
 * one's end, each rank's times told from the moment they left one
 * reduction (ranks of one host share a clock; across hosts the error is
 * how far apart they left it). Where ranks take units as they become free
 * this is the counting part of the job: a rank that is ready first starts
 * first, so the slowest rank's own counting time says little. 0 where a
 * rank's times were not measured (some layouts). */
static int job_count_window(const struct report_extra *x, double *from, double *to)
{
	const int n = x->dist->size;
	const double *f = x->rank_s + REPORT_RANK_COUNT_FROM * n;
	const double *t = x->rank_s + REPORT_RANK_COUNT_TO * n;
	for (int i = 0; i < n; i++) {
		if (f[i] < 0)
			return 0;
		*from = i == 0 || f[i] < *from ? f[i] : *from;
		*to = i == 0 || t[i] > *to ? t[i] : *to;
	}
	return n > 0;
}

/* Several GPUs: the busiest GPU's time over the mean. */
static double gpu_imbalance(const struct engine_result *r)
{
	double sum = 0, max = 0;
	for (uint32_t i = 0; i < r->ngpus; i++) {
		sum += r->gpus[i].busy_s;
		max = r->gpus[i].busy_s > max ? r->gpus[i].busy_s : max;
	}
	return sum > 0 ? max / (sum / r->ngpus) : 1.0;
}

/* Whether every GPU's units read one copy of the graph there. */
static int graph_resident(const struct engine_result *r)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < r->ngpus; i++)
		n += r->gpus[i].resident != 0;
	return r->ngpus > 0 && n == r->ngpus;
}

static void print_gpus_json(struct tsg_json *j, const struct engine_result *r)
{
	json_key_arr(j, "gpus");
	for (uint32_t i = 0; i < r->ngpus; i++) {
		const struct engine_gpu *e = &r->gpus[i];
		json_obj(j);
		json_u64(j, "index", (uint64_t)e->index);
		json_str(j, "name", e->name);
		json_u64(j, "units", e->units);
		json_u64(j, "cost", e->cost);
		json_u64(j, "h2d_bytes", e->h2d_bytes);
		json_u64(j, "ahead_bytes", e->ahead_bytes);
		json_u64(j, "kept_bytes", e->kept_bytes);
		json_f64(j, "h2d_ms", e->h2d_ms);
		json_f64(j, "kernel_ms", e->kernel_ms);
		json_f64(j, "busy_s", e->busy_s);
		json_bool(j, "resident", e->resident);
		json_close(j, '}');
	}
	json_close(j, ']');
	json_f64(j, "gpu_imbalance", gpu_imbalance(r));
}

/* One row of x->rank_s as a JSON array under key, a value a rank (as
 * integers where whole). */
static void rank_row_json(struct tsg_json *j, const struct report_extra *x, const char *key,
			  enum report_rank_row row, int whole)
{
	const double *v = x->rank_s + (size_t)row * (size_t)x->dist->size;
	json_key_arr(j, key);
	for (int i = 0; i < x->dist->size; i++) {
		if (whole)
			json_u64(j, NULL, (uint64_t)v[i]);
		else
			json_f64(j, NULL, v[i]);
	}
	json_close(j, ']');
}

static void print_extra_json(struct tsg_json *j, const struct report_extra *x)
{
	json_u64(j, "ranks", x->dist ? (uint64_t)x->dist->size : 1);
	if (x->dist && x->dist->size > 1 && x->rank_s) {
		rank_row_json(j, x, "rank_read_s", REPORT_RANK_READ_S, 0);
		rank_row_json(j, x, "rank_build_s", REPORT_RANK_BUILD_S, 0);
		rank_row_json(j, x, "rank_count_s", REPORT_RANK_COUNT_S, 0);
		rank_row_json(j, x, "rank_count_wall_s", REPORT_RANK_COUNT_WALL_S, 0);
		json_f64(j, "rank_imbalance", rank_imbalance(x));
		/* how the units reached the ranks: taken by whichever was free,
		 * dealt by the rows each holds (by ranges), or by cost */
		json_str(j, "rank_deal", x->taken ? "taken" : x->ranges ? "rows" : "cost");
		rank_row_json(j, x, "rank_units", REPORT_RANK_UNITS, 1);
		double from = 0, to = 0;
		if (job_count_window(x, &from, &to))
			json_f64(j, "job_count_wall_s", to - from);
		if (x->ranges || x->host_build) /* each rank's list bytes */
			rank_row_json(j, x, "rank_read_bytes", REPORT_RANK_READ_BYTES, 1);
	}
	if (x->cl) {
		json_f64(j, "transitivity", x->cl->transitivity);
		json_f64(j, "average_clustering", x->cl->average_clustering);
		json_u64(j, "triples", x->cl->triples);
	}
	if (x->pv_path)
		json_str(j, "per_vertex", x->pv_path);
	if (x->ckpt_path) {
		json_key_obj(j, "checkpoint");
		json_str(j, "path", x->ckpt_path);
		json_bool(j, "created", x->ck->created);
		json_bool(j, "torn_record_dropped", x->ck->torn);
		json_u64(j, "units_resumed", x->ck->resumed);
		json_u64(j, "units_recorded", x->ck->recorded);
		json_close(j, '}');
	}
}

void report_count_json(const char *path, const struct tsg_graph *g, const struct engine_opts *o,
		       const struct engine_result *r, const struct hostmem_plan *hp,
		       const struct input_info *in, double wall, const struct report_extra *x)
{
	report_count_json_to(stdout, path, g, o, r, hp, in, wall, x);
}

void report_count_json_to(FILE *f, const char *path, const struct tsg_graph *g,
			  const struct engine_opts *o, const struct engine_result *r,
			  const struct hostmem_plan *hp, const struct input_info *in, double wall,
			  const struct report_extra *x)
{
	struct tsg_json j;
	json_begin(&j, f);
	json_str(&j, "version", TSG_VERSION);
	json_str(&j, "graph", path);
	json_str(&j, "input_format", in->format);
	if (in->kind != INPUT_TSG) { /* what happened to the input before counting */
		json_key_obj(&j, "input");
		json_bool(&j, "scratch_tsg", in->converted);
		json_bool(&j, "built_in_memory", in->in_memory);
		if (in->decoder)
			json_str(&j, "decoder", in->decoder);
		if (in->converted || in->in_memory)
			json_f64(&j, "build_seconds", in->build_s);
		json_bool(&j, "transpose_merged", in->transpose);
		/* decoded batch by batch as the arrival layout counted (seconds:
		 * the opening; the decoding is the read stage) */
		json_bool(&j, "decoded_while_counting", in->streamed && r->lists_streamed);
		json_bool(&j, "offsets_scanned", in->offsets_scanned);
		json_u64(&j, "input_edges", in->input_edges);
		if (in->kind == INPUT_TEXT) /* lines that are not edges, skipped */
			json_u64(&j, "bad_lines", in->bad_lines);
		json_f64(&j, "seconds", in->seconds);
		json_close(&j, '}');
	}
	if (!o->plan_only && engine_cliques(o)) {
		if (o->k_all) {
			json_key_arr(&j, "clique_counts"); /* [i]: cliques of i + 1 vertices */
			for (uint32_t i = 0; i < r->nsizes; i++)
				json_u64(&j, NULL, r->sizes[i]);
			json_close(&j, ']');
			json_u64(&j, "max_clique", r->nsizes);
		} else {
			json_u64(&j, "k", o->k);
			json_u64(&j, "cliques", r->triangles);
		}
		json_str(&j, "clique_method", kern_clique_method_name(r->clique_ran));
		if (r->clique_gpu.k) { /* the GPU counted: how its warps took the work */
			json_str(&j, "clique_scheme", kern_clique_scheme_name(r->clique_gpu.scheme));
			if (!r->clique_gpu.pivot)
				json_u64(&j, "clique_group", r->clique_gpu.group);
			/* whether tier 0's warps (lists up to 128) kept their
			 * stacks in shared memory, else in the pool */
			json_bool(&j, "clique_shared_tier0", kern_clique_tier_shared(0, &r->clique_gpu));
		}
		char how[96];
		snprintf(how, sizeof(how), "raced on the host on 1/%d of the sources: pivoting "
			 "where %gx faster", ENGINE_RACE_PARTS, ENGINE_GPU_PIVOT_RATIO);
		if (r->clique_picked && r->clique_gpu.k)
			json_str(&j, "clique_method_chosen", how);
		else if (r->clique_picked)
			json_str(&j, "clique_method_chosen", "raced on every 64th source");
		else if (r->clique_by_k)
			json_str(&j, "clique_method_chosen", "by K: pivoting from K = 7");
		json_u64(&j, "max_out_degree", r->max_out);
	} else if (!o->plan_only) {
		json_u64(&j, "triangles", r->triangles);
	}
	if (o->degeneracy) {
		json_str(&j, "order", "degeneracy");
		json_u64(&j, "degeneracy", r->degeneracy);
	}
	print_extra_json(&j, x);
	/* src/run.c's count (io_graph_vertices_with_edges), made inside the
	 * timed run: for an oriented graph a pass over its rows, or the ranks
	 * its rows reached as they were read */
	const uint64_t vertices = x->vertices;
	if (vertices != UINT64_MAX)
		json_u64(&j, "vertices", vertices); /* with an edge */
	json_u64(&j, "edges", io_graph_edges(g));
	json_u64(&j, "id_range", g->nv);       /* ids 0 .. id_range - 1 */
	json_str(&j, "device", r->device == TSG_DEVICE_GPU ? "gpu" : "cpu");
	json_str(&j, "device_name", r->device_name);
	json_str(&j, "kernel", r->kernel);
	if (r->device == TSG_DEVICE_GPU && o->gpu_kernel == GPU_KERNEL_SKIFF)
		json_str(&j, "cta_policy", gpu_cta_policy_name(o->cta_policy));
	if (r->kernel_fallbacks)
		json_u64(&j, "kernel_fallback_units", r->kernel_fallbacks);
	if (r->note[0] || (x->plan && x->plan->notes[0])) { /* the plan's, then the engine's */
		char note[sizeof(x->plan->notes) + sizeof(r->note) + 2];
		snprintf(note, sizeof(note), "%s%s%s", x->plan ? x->plan->notes : "",
			 x->plan && x->plan->notes[0] && r->note[0] ? "; " : "", r->note);
		json_str(&j, "note", note);
	}
	if (g->io_used != IO_MODE_AUTO) /* how a .tsg was read: none for a graph built in memory */
		json_str(&j, "io", io_mode_name(g->io_used));
	if (g->io_cached >= 0) /* a file read under --io auto */
		json_f64(&j, "io_cached", g->io_cached);
	json_str(&j, "compression", g->compressed ? "lz4" : "none");
	json_bool(&j, "oriented", g->oriented); /* a .tsg stored oriented */
	json_u64(&j, "threads", o->threads);
	json_u64(&j, "partitions", r->nparts);
	json_str(&j, "layout", engine_layout_name(r->layout));
	if (r->layout == ENGINE_LAYOUT_LSTC) {
		json_str(&j, "scheme", part_scheme_name(o->part.scheme));
		json_str(&j, "prune", part_prune_name(r->prune));
		if (r->share.used) {
			json_key_obj(&j, "clique_share");
			json_u64(&j, "pieces", r->share.pieces);
			json_u64(&j, "launches", r->share.launches);
			json_bool(&j, "shared", r->share.shared);
			json_f64(&j, "piece_s", r->share.piece_s);
			json_f64(&j, "foretold_s", r->share.foretold_s);
			json_close(&j, '}');
		}
	} else if (r->layout == ENGINE_LAYOUT_ARRIVAL) {
		json_u64(&j, "batches", r->nparts);
		if (r->device == TSG_DEVICE_GPU) { /* the device oriented the lists it was sent */
			json_u64(&j, "lists_bytes", r->lists_bytes);
			json_u64(&j, "lists_pinned_bytes", r->lists_pinned_bytes);
			json_u64(&j, "lists_pinned_most", r->arrival_host.locked_most);
			json_bool(&j, "lists_read_early", r->lists_early);
			/* the rows outgrew the device: counted in groups */
			json_u64(&j, "groups", r->arrival_groups.n);
			if (r->arrival_groups.n) {
				json_key_obj(&j, "arrival_groups");
				json_u64(&j, "group_rows", r->arrival_groups.rows);
				json_u64(&j, "rows_back_bytes", r->arrival_groups.back_bytes);
				json_u64(&j, "rows_out_bytes", r->arrival_groups.out_bytes);
				json_u64(&j, "pair_launches", r->arrival_groups.launches);
				json_u64(&j, "pair_tallies", r->arrival_groups.tallies);
				json_u64(&j, "pair_split", r->arrival_groups.split);
				json_u64(&j, "unit_launches", r->arrival_groups.units);
				if (r->arrival_groups.early_batch) {
					json_u64(&j, "early_batch", r->arrival_groups.early_batch);
					json_u64(&j, "early_pieces", r->arrival_groups.early_pieces);
				}
				json_f64(&j, "group_end_s", r->arrival_groups.end_s);
				json_f64(&j, "rows_alloc_s", r->arrival_groups.alloc_s);
				json_u64(&j, "rows_alloc_fallbacks", r->arrival_groups.alloc_fallbacks);
				if (r->arrival_groups.alloc_why[0])
					json_str(&j, "rows_alloc_fallback_why",
						 r->arrival_groups.alloc_why);
				json_close(&j, '}');
			}
		}
	} else if (r->layout == ENGINE_LAYOUT_SWEEP) {
		json_u64(&j, "passes", r->nparts);
		json_u64(&j, "chunks", r->sweep.chunks);
		json_u64(&j, "block_bytes", r->sweep.block_bytes);
		json_key_obj(&j, "sweep");
		json_u64(&j, "chunks_decoded", r->sweep.decoded);
		json_f64(&j, "fill_s", r->sweep.fill_s);
		json_f64(&j, "local_s", r->sweep.local_s);
		json_f64(&j, "past_s", r->sweep.past_s);
		json_f64(&j, "decode_thread_s", r->sweep.decode_s);
		json_f64(&j, "host_work_thread_s", r->sweep.host_work_s);
		json_f64(&j, "consume_s", r->sweep.consume_s);
		json_f64(&j, "device_s", r->sweep.device_s);
		json_f64(&j, "begin_s", r->sweep.begin_s);
		json_f64(&j, "buffers_s", r->sweep.buffers_s);
		json_f64(&j, "release_s", r->sweep.release_s);
		json_f64(&j, "pin_s", r->sweep.pin_s);
		json_u64(&j, "pin_buffers", r->sweep.pin_buffers);
		json_u64(&j, "pin_taken", r->sweep.pin_taken);
		json_u64(&j, "kept_chunks", r->sweep.kept_chunks);
		json_u64(&j, "kept_failed", r->sweep.kept_failed);
		json_u64(&j, "kept_bytes", r->sweep.kept_bytes);
		json_u64(&j, "decoded_from_kept", r->sweep.from_kept);
		json_u64(&j, "runtime_bytes", r->sweep.runtime_bytes);
		json_close(&j, '}');
	} else {
		json_u64(&j, "blocks", r->nblocks);
		json_bool(&j, "units_even", r->units_even);
		json_str(&j, "orient", g->oriented ? "none" /* stored oriented */
				       : o->orient == PART_ORIENT_TWO_PASS ? "two-pass" : "one-pass");
	}
	json_u64(&j, "h2d_bytes", r->h2d_bytes);
	if (r->layout == ENGINE_LAYOUT_BLOCK && r->device == TSG_DEVICE_GPU) {
		json_u64(&j, "h2d_kept_bytes", r->kept_bytes);
		json_bool(&j, "graph_resident", graph_resident(r));
	}
	json_bool(&j, "lists_streamed", r->lists_streamed);
	json_bool(&j, "read_ranges", r->ranges.used);
	if (r->ranges.used) /* what rank_read_bytes are out of (LZ4: compressed) */
		json_u64(&j, "ranges_lists_bytes", r->ranges.lists_bytes);
	json_bool(&j, "host_build", r->host_build.used);
	if (r->host_build.used) { /* this host's ranks built one oriented graph */
		json_u64(&j, "host_ranks", r->host_build.ranks);
		json_u64(&j, "host_lists_bytes", r->host_build.lists_bytes);
	}
	if (hp) {
		json_key_obj(&j, "host_mem");
		json_str(&j, "mode", hostmem_mode_name(hp->mode));
		json_u64(&j, "budget", hp->budget);
		json_u64(&j, "need_memory", hp->need_memory);
		if (hp->need_spill) /* 0: not figured (a crawl merged in memory) */
			json_u64(&j, "need_spill", hp->need_spill);
		if (hp->need_arrival)
			json_u64(&j, "need_arrival", hp->need_arrival);
		if (o->scratch_dir && hp->mode != HOSTMEM_ARRIVAL)
			json_str(&j, "scratch_dir", o->scratch_dir);
		json_close(&j, '}');
	}
	if (x->plan)
		plan_json(x->plan, &j);
	json_f64(&j, "seconds", wall);
	json_key_obj(&j, "stages");
	json_f64(&j, "read", g->read_seconds);
	json_f64(&j, "validate", g->check_seconds);
	json_f64(&j, "plan", r->plan_s);
	json_f64(&j, "build", r->build_s);
	if (r->layout == ENGINE_LAYOUT_ARRIVAL) {
		/* the build is the pass over the lists, with the count under it */
		json_f64(&j, "arrival_rank", r->arrival.rank_s);
		json_f64(&j, "arrival_rows", r->arrival.rows_s);
		json_f64(&j, "arrival_tail", r->arrival.tail_s);
		if (r->device == TSG_DEVICE_GPU) { /* host time pinning, unpinning, waiting */
			json_f64(&j, "arrival_pin", r->arrival_host.pin_s);
			json_f64(&j, "arrival_unpin", r->arrival_host.unpin_s);
			json_f64(&j, "arrival_wait", r->arrival_host.wait_s);
		}
	}
	if (r->layout == ENGINE_LAYOUT_BLOCK) {
		/* the build is the orientation: where its time went */
		json_f64(&j, "orient_rank", r->orient.rank_s);
		json_f64(&j, "orient_rows", r->orient.rows_s);
		json_f64(&j, "orient_place", r->orient.place_s);
		json_f64(&j, "orient_alloc_wait", r->orient.alloc_wait_s);
		if (r->stream.used) /* counted as read: units waiting for their rows */
			json_f64(&j, "read_wait", r->stream.wait_s);
	}
	json_f64(&j, "count", r->count_s);
	if (r->count_wall_s > 0)
		json_f64(&j, "count_wall", r->count_wall_s);
	json_f64(&j, "engine", r->total_s);
	if (x->dist && x->dist->size > 1)
		json_f64(&j, "release", x->release_s);
	json_close(&j, '}');
	if (r->device == TSG_DEVICE_GPU)
		json_f64(&j, "overlap", r->overlap);
	if (r->ngpus > 1)
		print_gpus_json(&j, r);
	json_f64(&j, "teps", r->total_s > 0 ? (double)io_graph_edges(g) / r->total_s : 0);
	json_key_arr(&j, "partition_stats");
	for (uint32_t i = 0; i < r->nparts; i++) {
		const struct engine_part *p = &r->parts[i];
		json_obj(&j);
		json_u64(&j, "triangles", p->triangles);
		if (p->resumed)
			json_bool(&j, "resumed", 1);
		if (p->kernel)
			json_str(&j, "kernel", p->kernel);
		if (r->ngpus > 1) {
			if (p->gpu >= 0)
				json_u64(&j, "gpu", (uint64_t)r->gpus[p->gpu].index);
			json_u64(&j, "cost", p->cost);
		}
		if (r->layout == ENGINE_LAYOUT_SWEEP)
			json_u64(&j, "block_chunks", p->block_chunks);
		json_u64(&j, "v_local", p->st.v_local);
		if (o->want_stats && r->layout == ENGINE_LAYOUT_LSTC) {
			json_u64(&j, "v_ind", p->st.v_ind);
			json_u64(&j, "e_ind", p->st.e_ind);
		}
		json_u64(&j, "v_res", p->st.v_res);
		json_u64(&j, "e_res", p->st.e_res);
		json_u64(&j, "bytes", p->st.bytes);
		json_f64(&j, "build_s", p->build_s);
		if (r->device == TSG_DEVICE_GPU) {
			json_f64(&j, "h2d_ms", p->h2d_ms);
			json_f64(&j, "kernel_ms", p->kernel_ms);
		} else {
			json_f64(&j, "count_s", p->count_s);
		}
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_end(&j);
}

void report_count_text(const struct tsg_graph *g, const struct engine_opts *o,
		       const struct engine_result *r, double wall, const struct report_extra *x)
{
	if (o->plan_only)
		printf("triangles: not counted (--plan-only)\n");
	else if (o->k_all)
		for (uint32_t i = 0; i < r->nsizes; i++)
			printf("%u-cliques: %llu\n", i + 1, (unsigned long long)r->sizes[i]);
	else if (engine_cliques(o))
		printf("%u-cliques: %llu\n", o->k, (unsigned long long)r->triangles);
	else
		printf("triangles: %llu\n", (unsigned long long)r->triangles);
	if (engine_cliques(o) && r->clique_gpu.k) {
		printf("clique scheme: %s-centric", kern_clique_scheme_name(r->clique_gpu.scheme));
		if (!r->clique_gpu.pivot)
			printf(", groups of %u lanes", r->clique_gpu.group);
		printf(", stacks of lists up to %u in %s memory", KERN_CLIQUE_SMALL,
		       kern_clique_tier_shared(0, &r->clique_gpu) ? "shared" : "global");
		putchar('\n');
	}
	if (engine_cliques(o)) {
		printf("clique method: %s", kern_clique_method_name(r->clique_ran));
		if (r->clique_picked && r->clique_gpu.k)
			printf(", raced on the host on 1/%d of the sources (pivoting where %gx "
			       "faster)", ENGINE_RACE_PARTS, ENGINE_GPU_PIVOT_RATIO);
		else if (r->clique_picked)
			printf(", the faster on every 64th source");
		else if (r->clique_by_k)
			printf(", by K (pivoting from 7)");
		printf(" (largest out-list %u%s)\n", r->max_out,
		       o->degeneracy ? ", degeneracy order" : "");
	}
	if (x->cl)
		printf("transitivity: %.6f\naverage clustering: %.6f\n", x->cl->transitivity,
		       x->cl->average_clustering);
	if (x->pv_path)
		printf("per-vertex counts: %s\n", x->pv_path);
	if (x->dist && x->dist->size > 1 && x->rank_s)
		printf("ranks: %d (counting time, slowest over mean: %.2f; units %s)\n",
		       x->dist->size, rank_imbalance(x),
		       x->taken ? "taken as ranks were free" : x->ranges ? "dealt by rows held"
								   : "dealt by cost");
	if (r->ngpus > 1)
		printf("gpus: %u (busy time, slowest over mean: %.2f)\n", r->ngpus, gpu_imbalance(r));
	if (r->layout == ENGINE_LAYOUT_BLOCK && graph_resident(r))
		printf("copies: the graph's rows went to each GPU once, its units read them there\n");
	if (x->ckpt_path)
		printf("checkpoint: %s (%u unit%s resumed, %u recorded%s)\n", x->ckpt_path,
		       x->ck->resumed, x->ck->resumed == 1 ? "" : "s", x->ck->recorded,
		       x->ck->torn ? "; an incomplete last record was dropped" : "");
	const uint64_t vertices = x->vertices; /* as in the JSON */
	if (vertices != UINT64_MAX)
		printf("graph: %llu vertices, ", (unsigned long long)vertices);
	else
		printf("graph: ");
	printf("%llu edges", (unsigned long long)io_graph_edges(g));
	if (vertices != g->nv) /* ids without an edge */
		printf(" (ids 0 .. %llu)", (unsigned long long)(g->nv - 1));
	if (g->oriented)
		printf(", stored oriented");
	putchar('\n');
	if (r->layout == ENGINE_LAYOUT_ARRIVAL)
		printf("device: %s, kernel %s, %u batch%s (arrival layout: counted as read)\n",
		       r->device_name, r->kernel, r->nparts, r->nparts == 1 ? "" : "es");
	else if (r->layout == ENGINE_LAYOUT_SWEEP)
		printf("device: %s, kernel %s, %u pass%s (sweep layout: a source block a pass, "
		       "the crawl decoded past it in %u chunks)\n", r->device_name, r->kernel,
		       r->nparts, r->nparts == 1 ? "" : "es", r->sweep.chunks);
	else if (r->layout == ENGINE_LAYOUT_LSTC)
		printf("device: %s, kernel %s, %u partition%s (lstc layout, %s, prune %s)\n",
		       r->device_name, r->kernel, r->nparts, r->nparts == 1 ? "" : "s",
		       part_scheme_name(o->part.scheme), part_prune_name(r->prune));
	else
		printf("device: %s, kernel %s, %u unit%s (block layout, %u source block%s)\n",
		       r->device_name, r->kernel, r->nparts, r->nparts == 1 ? "" : "s", r->nblocks,
		       r->nblocks == 1 ? "" : "s");
	printf("time: read %.3fs, validate %.3fs, plan %.3fs, build %.3fs, count %.3fs, total %.3fs%s\n",
	       g->read_seconds, g->check_seconds, r->plan_s, r->build_s, r->count_s, wall,
	       r->lists_streamed ? " (build ran under the read)"
	       : r->stream.used ? " (units counted as the rows were read)" : "");
	if (o->want_stats && r->layout == ENGINE_LAYOUT_BLOCK) {
		printf("%5s %12s %12s %14s %12s %14s\n", "unit", "src rows", "rows held", "edges held",
		       "bytes", "triangles");
		for (uint32_t i = 0; i < r->nparts; i++) {
			const struct engine_part *p = &r->parts[i];
			printf("%5u %12llu %12llu %14llu %12llu %14llu\n", i,
			       (unsigned long long)p->st.v_local, (unsigned long long)p->st.v_res,
			       (unsigned long long)p->st.e_res, (unsigned long long)p->st.bytes,
			       (unsigned long long)p->triangles);
		}
	} else if (o->want_stats) {
		printf("%5s %12s %12s %14s %12s %14s %12s %14s\n", "part", "V_local", "V_ind", "E_ind",
		       "V_res", "E_res", "bytes", "triangles");
		for (uint32_t i = 0; i < r->nparts; i++) {
			const struct engine_part *p = &r->parts[i];
			printf("%5u %12llu %12llu %14llu %12llu %14llu %12llu %14llu\n", i,
			       (unsigned long long)p->st.v_local, (unsigned long long)p->st.v_ind,
			       (unsigned long long)p->st.e_ind, (unsigned long long)p->st.v_res,
			       (unsigned long long)p->st.e_res, (unsigned long long)p->st.bytes,
			       (unsigned long long)p->triangles);
		}
	}
}

void report_finished(const char *path, const struct tsg_graph *g, uint64_t vertices,
		     const char *ckpath, uint64_t total, unsigned k, const char *note, int json)
{
	if (json) {
		struct tsg_json j;
		json_begin(&j, stdout);
		json_str(&j, "version", TSG_VERSION);
		json_str(&j, "graph", path);
		if (k > 3) {
			json_u64(&j, "k", k);
			json_u64(&j, "cliques", total);
		} else {
			json_u64(&j, "triangles", total);
		}
		/* known without decoding (not a sweep's crawl); an oriented
		 * graph's vertices need its rows, which were not read */
		if (vertices != UINT64_MAX && !g->oriented)
			json_u64(&j, "vertices", vertices);
		if (vertices != UINT64_MAX || g->oriented)
			json_u64(&j, "edges", io_graph_edges(g));
		json_u64(&j, "id_range", g->nv);
		json_key_obj(&j, "checkpoint");
		json_str(&j, "path", ckpath);
		json_bool(&j, "finished_earlier", 1);
		json_close(&j, '}');
		if (note[0])
			json_str(&j, "note", note);
		json_end(&j);
	} else {
		if (k > 3)
			printf("%u-cliques: %llu\n", k, (unsigned long long)total);
		else
			printf("triangles: %llu\n", (unsigned long long)total);
		printf("checkpoint: %s (counted by an earlier run; nothing counted now)\n", ckpath);
	}
}


/* Length of the well-formed UTF-8 sequence at c that prints (RFC 3629: no
 * overlong form, no surrogate, nothing past U+10FFFF; and no C0 or C1
 * control but tab), or 0. */
static int printable_seq(const unsigned char *c)
{
	if (c[0] < 0x80)
		return c[0] >= 0x20 && c[0] != 0x7f ? 1 : c[0] == '\t';
	int n;
	unsigned lo = 0x80, hi = 0xbf; /* the range of the second byte */
	if (c[0] >= 0xc2 && c[0] <= 0xdf)
		n = 2;
	else if (c[0] >= 0xe0 && c[0] <= 0xef)
		n = 3, lo = c[0] == 0xe0 ? 0xa0 : 0x80, hi = c[0] == 0xed ? 0x9f : 0xbf;
	else if (c[0] >= 0xf0 && c[0] <= 0xf4)
		n = 4, lo = c[0] == 0xf0 ? 0x90 : 0x80, hi = c[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (c[1] < lo || c[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if ((c[i] & 0xc0) != 0x80)
			return 0;
	if (c[0] == 0xc2 && c[1] < 0xa0) /* U+0080..U+009F: C1 controls */
		return 0;
	return n;
}

/* msg for a terminal or a JSON string: a printable UTF-8 sequence stays,
 * every other byte becomes '?' (a message may quote a line of an input that
 * is not text). */
static void printable(const struct tsg_err *err, int rc, char *msg, size_t len)
{
	snprintf(msg, len, "%s", err->msg[0] ? err->msg : tsg_status_name(rc));
	unsigned char *c = (unsigned char *)msg;
	while (*c) {
		const int n = printable_seq(c);
		if (!n)
			*c++ = '?';
		else
			c += n;
	}
}

int report_error(int rc, const struct tsg_err *err)
{
	if (!rc)
		return rc;
	char msg[sizeof(err->msg)];
	printable(err, rc, msg, sizeof(msg));
	fprintf(stderr, "tristream: error: %s\n", msg);
	return rc;
}

void report_failed_json(const char *path, const struct report_outcome *res)
{
	struct tsg_json j;
	json_begin(&j, stdout);
	json_str(&j, "version", TSG_VERSION);
	json_str(&j, "graph", path);
	char msg[sizeof(res->err.msg)];
	printable(&res->err, res->rc, msg, sizeof(msg));
	json_str(&j, "error", msg);
	json_u64(&j, "exit_code", (uint64_t)res->rc);
	json_end(&j);
}

void report_summary(const char *const *paths, const struct report_outcome *res, size_t n)
{
	size_t ok = 0;
	printf("\n%-40s %20s %10s  %s\n", "graph", "triangles", "seconds", "status");
	for (size_t i = 0; i < n; i++) {
		ok += res[i].rc == TSG_OK;
		if (res[i].rc == TSG_OK)
			printf("%-40s %20llu %10.3f  ok\n", paths[i],
			       (unsigned long long)res[i].triangles, res[i].seconds);
		else
			printf("%-40s %20s %10s  %s (exit %d)\n", paths[i], "-", "-",
			       tsg_status_name(res[i].rc), res[i].rc);
	}
	printf("%zu of %zu graphs counted\n", ok, n);
}

void report_info(const char *path, const struct tsg_graph *g, const struct input_info *in,
		 int verified, const char *note, int json)
{
	/* histogram of degrees in powers of two: bucket k holds [2^(k-1), 2^k)
	 * (an oriented graph's: of its undirected degrees, io_graph_load_degrees) */
	uint64_t hist[34] = { 0 }, maxdeg = 0;
	for (uint64_t v = 0; v < g->nv; v++) {
		uint64_t d = io_graph_id_degree(g, v);
		int k = 0;
		maxdeg = d > maxdeg ? d : maxdeg;
		while (d >> k)
			k++;
		hist[k]++;
	}
	const uint64_t with_edges = g->nv - hist[0]; /* bucket 0: degree 0 */
	const int tsg = in->kind == INPUT_TSG;
	double mean = with_edges ? 2.0 * (double)io_graph_edges(g) / (double)with_edges : 0;
	if (json) {
		struct tsg_json j;
		json_begin(&j, stdout);
		json_str(&j, "graph", path);
		json_str(&j, "input_format", in->format);
		if (tsg)
			json_u64(&j, "format_version", 1);
		json_str(&j, "compression", g->compressed ? "lz4" : "none");
		json_bool(&j, "oriented", g->oriented);
		json_u64(&j, "vertices", with_edges);
		json_u64(&j, "edges", io_graph_edges(g));
		json_u64(&j, "id_range", g->nv);
		json_u64(&j, "max_degree", maxdeg);
		if (g->oriented)
			json_u64(&j, "max_out_degree", g->max_degree);
		json_f64(&j, "mean_degree", mean);
		if (tsg) /* a graph built in memory has no checksums */
			json_bool(&j, "checksums_ok", 1);
		/* oriented: each edge once by construction; verified, its degree hint */
		json_bool(&j, "symmetry_exact", verified);
		if (g->io_used != IO_MODE_AUTO) /* how a .tsg was read (a text input's scratch too) */
			json_str(&j, "io", io_mode_name(g->io_used));
		if (in->bad_lines)
			json_u64(&j, "bad_lines", in->bad_lines);
		if (note[0])
			json_str(&j, "note", note);
		json_key_arr(&j, "degree_histogram");
		for (int k = 0; k < 34; k++)
			if (hist[k]) {
				json_obj(&j);
				json_u64(&j, "min", k ? 1ull << (k - 1) : 0);
				json_u64(&j, "max", k ? (1ull << k) - 1 : 0);
				json_u64(&j, "vertices", hist[k]);
				json_close(&j, '}');
			}
		json_close(&j, ']');
		json_end(&j);
	} else {
		printf("file: %s\nformat: %s\n", path, g->oriented ? "tristream binary v1, oriented: "
		       "rank-ordered rows, each edge once" : tsg ? "tristream binary v1"
		       : in->kind == INPUT_WEBGRAPH ? (in->transpose ? "LAW WebGraph crawl, merged with "
						      "its transpose" : "LAW WebGraph crawl, sorted")
		       : in->format);
		printf("vertices: %llu", (unsigned long long)with_edges);
		if (with_edges != g->nv)
			printf(" with an edge (ids 0 .. %llu)", (unsigned long long)(g->nv - 1));
		printf("\nedges: %llu\n", (unsigned long long)io_graph_edges(g));
		printf("max degree: %llu\n", (unsigned long long)maxdeg);
		if (g->oriented)
			printf("max out-degree: %llu\n", (unsigned long long)g->max_degree);
		printf("mean degree: %.2f\n", mean);
		if (g->oriented)
			printf("checksums and structure: ok (rows upward and increasing, rank map a "
			       "permutation)\nsymmetry: each edge stored once\ndegree hint: %s\n",
			       verified ? "ok (the header's maximum degree matches the rows)"
					: "not checked (--verify checks it)");
		else
			printf("%s: ok\nsymmetry: %s\n", tsg ? "checksums and structure" : "structure",
			       verified ? "ok (exact: every entry matched)" : tsg ? "ok (hash sum; "
			       "--verify checks every entry)" : "ok (built symmetric)");
		printf("degree histogram:\n");
		for (int k = 0; k < 34; k++)
			if (hist[k])
				printf("  %10llu .. %-10llu %llu\n", k ? 1ull << (k - 1) : 0ull,
				       k ? (1ull << k) - 1 : 0ull, (unsigned long long)hist[k]);
	}
}
