/*
 * plan.c - one place that decides what a count runs (see plan.h).
 */
#include "src/plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/checkpoint.h"
#include "io/atomic.h"
#include "io/reader.h"
#include "src/sweep.h"
#include "base/util.h"

/* The CPU counts one unit by default, which a checkpoint records only when
 * the count is done; with --checkpoint it cuts this many blocks (21 units)
 * or LSTC parts instead, so an interrupted count keeps most of its work. */
enum { CKPT_CPU_BLOCKS = 6, CKPT_CPU_PARTS = 8 };

static const char *device_name(enum tsg_device d)
{
	return d == TSG_DEVICE_CPU ? "cpu" : d == TSG_DEVICE_GPU ? "gpu" : "auto";
}

static unsigned layout_bit(enum engine_layout l)
{
	return l == ENGINE_LAYOUT_BLOCK ? OPT_BLOCK : l == ENGINE_LAYOUT_LSTC ? OPT_LSTC
		: l == ENGINE_LAYOUT_ARRIVAL ? OPT_ARRIVAL : l == ENGINE_LAYOUT_SWEEP ? OPT_SWEEP
		: OPT_LAYOUTS;
}

/* "the block and lstc layouts" */
static const char *layouts_text(unsigned w, char *buf, size_t len)
{
	static const unsigned bits[] = { OPT_BLOCK, OPT_LSTC, OPT_ARRIVAL, OPT_SWEEP };
	static const char *const names[] = { "block", "lstc", "arrival", "sweep" };
	int total = 0, k = 0;
	size_t n = (size_t)snprintf(buf, len, "the ");
	for (int i = 0; i < 4; i++)
		total += (w & bits[i]) != 0;
	for (int i = 0; i < 4 && n < len; i++)
		if (w & bits[i])
			n += (size_t)snprintf(buf + n, len - n, "%s%s", k++ ? (k == total ? " and " : ", ")
					      : "", names[i]);
	if (n < len)
		snprintf(buf + n, len - n, " layout%s", total > 1 ? "s" : "");
	return buf;
}

static const char *input_text(enum input_kind k)
{
	return k == INPUT_TSG ? "a .tsg file" : k == INPUT_WEBGRAPH ? "a WebGraph crawl"
								    : "a text edge list";
}

static unsigned input_bit(enum input_kind k)
{
	return k == INPUT_TSG ? OPT_TSG : k == INPUT_WEBGRAPH ? OPT_CRAWL : OPT_TEXT;
}

void plan_note(struct count_plan *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->o.progress)
		fprintf(stderr, "tristream: note: %s\n", msg);
	const size_t n = strlen(p->notes);
	if (n + 3 < sizeof(p->notes))
		snprintf(p->notes + n, sizeof(p->notes) - n, "%s%s", n ? "; " : "", msg);
}

static void ask(struct count_plan *p, enum plan_item i, int given, const char *asked)
{
	struct plan_choice *c = &p->item[i];
	c->used = 1;
	c->given = given;
	snprintf(c->asked, sizeof(c->asked), "%s", asked);
}

static void choose(struct count_plan *p, enum plan_item i, const char *chosen, const char *reason)
{
	struct plan_choice *c = &p->item[i];
	c->used = 1;
	snprintf(c->chosen, sizeof(c->chosen), "%s", chosen);
	if (reason && reason[0]) /* a long engine note cut to the item's room */
		snprintf(c->reason, sizeof(c->reason), "%.*s", (int)sizeof(c->reason) - 1, reason);
}

static int refuse(struct tsg_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct tsg_err *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->code = TSG_EUSAGE;
	return TSG_EUSAGE;
}

/* The layouts option id applies to with the value it was given: some
 * values mean something to more layouts than the option does. */
static unsigned layouts_of(const struct count_plan *p, enum count_opt id)
{
	const struct count_request *req = p->req;
	switch (id) {
	case COPT_KERNEL: /* the arrival layout counts with mid-hash's step */
		return req->gpu_kernel == GPU_KERNEL_MID_HASH || req->gpu_kernel == GPU_KERNEL_AUTO
		       ? OPT_LAYOUTS : OPT_BLOCK | OPT_LSTC;
	case COPT_CPU_KERNEL: /* the arrival layout merges */
		return req->cpu_kernel == KERN_CPU_MERGE ? OPT_LAYOUTS : OPT_BLOCK | OPT_LSTC;
	case COPT_ORDER:
		return req->degeneracy ? OPT_LSTC : OPT_LAYOUTS;
	case COPT_READ:
		return req->read == COUNT_READ_RANGES ? OPT_BLOCK : OPT_LAYOUTS;
	case COPT_GPUS: /* one GPU counts as --gpu does; the sweep is one device's */
		return p->o.ngpus > 1 ? OPT_LAYOUTS & ~OPT_SWEEP : OPT_LAYOUTS;
	default:
		return options_where(id) & OPT_LAYOUTS;
	}
}

/* --gpus: the GPU backend; "all" resolved to the GPUs present. Returns
 * an exit status (0: go on). */
static int plan_gpus(const struct count_request *req, struct count_plan *p, struct tsg_err *err)
{
	struct engine_opts *o = &p->o;
	uint32_t n = req->ngpus;
	memcpy(p->gpu_list, req->gpu_list, sizeof(p->gpu_list));
	if (req->given[COPT_GPU])
		return refuse(err, "--gpu and --gpus: give one");
	if (req->device == TSG_DEVICE_CPU)
		return refuse(err, "--gpus counts on GPUs: not with --device cpu");
	o->device = TSG_DEVICE_GPU;
	if (req->gpus_all) {
		const int present = engine_gpu_devices();
		if (present <= 0)
			return tsg_fail(err, TSG_EDEVICE, "--gpus all: %s", engine_have_gpu()
					? "no usable CUDA GPU" : "this build of tristream has no "
					"CUDA backend");
		n = present < ENGINE_MAX_GPUS ? (uint32_t)present : ENGINE_MAX_GPUS;
		for (uint32_t i = 0; i < n; i++)
			p->gpu_list[i] = (int)i;
	}
	if (n == 1) { /* one GPU: the one-GPU path, as --gpu would pick it */
		o->gpu_index = p->gpu_list[0];
		return TSG_OK;
	}
	o->gpus = p->gpu_list;
	o->ngpus = n;
	return TSG_OK;
}

/* Layout auto, where what was asked settles it: k-cliques need LSTC parts;
 * else the layouts every option given applies to. */
static int resolve_layout(const struct count_request *req, struct count_plan *p,
			  struct tsg_err *err)
{
	struct engine_opts *o = &p->o;
	char a[64], b[64], why[200];
	if (o->layout != ENGINE_LAYOUT_AUTO)
		return TSG_OK;
	if (engine_cliques(o)) {
		o->layout = ENGINE_LAYOUT_LSTC;
		o->cliques_auto_one = 1;
		choose(p, PLAN_LAYOUT, "lstc", "k-cliques are counted on LSTC parts: a block unit "
		       "or arrival batch does not hold the edges among a vertex's out-neighbours");
		return TSG_OK;
	}
	/* the sweep is not one options pick: it takes a crawl that would not
	 * fit (plan_graph), where every option given applies to it too */
	unsigned m = OPT_LAYOUTS & ~OPT_SWEEP, sweep_ok = OPT_SWEEP;
	int first = -1, last = -1; /* last: the option that narrowed them last */
	for (int i = 0; i < COPT_COUNT_; i++) {
		const unsigned all = layouts_of(p, (enum count_opt)i), w = all & ~OPT_SWEEP;
		if (!req->given[i] || all == OPT_LAYOUTS)
			continue;
		sweep_ok &= all;
		if (!(m & w))
			return refuse(err, "--%s applies to %s, --%s to %s: they share no layout",
				      count_options[first].name, layouts_text(layouts_of(p,
				      (enum count_opt)first) & ~OPT_SWEEP, a, sizeof(a)),
				      count_options[i].name, layouts_text(w, b, sizeof(b)));
		if (first < 0)
			first = i;
		if ((m & w) != m)
			last = i;
		m &= w;
	}
	p->layouts_ok = m | sweep_ok; /* a crawl may still go to the sweep (plan_graph) */
	if (m == (OPT_LAYOUTS & ~OPT_SWEEP) || m == (OPT_BLOCK | OPT_ARRIVAL))
		return TSG_OK; /* the engine's choice (auto never takes lstc for triangles) */
	if (m & OPT_BLOCK)
		o->layout = ENGINE_LAYOUT_BLOCK;
	else if (m & OPT_ARRIVAL)
		o->layout = ENGINE_LAYOUT_ARRIVAL;
	else /* LSTC parts are asked for by name (or by --k) */
		return refuse(err, "--%s applies to --layout lstc: give --layout lstc (or --k K)",
			      count_options[last].name);
	snprintf(why, sizeof(why), "--%s applies to %s", count_options[last].name,
		 layouts_text(layouts_of(p, (enum count_opt)last) & ~OPT_SWEEP, a, sizeof(a)));
	choose(p, PLAN_LAYOUT, engine_layout_name(o->layout), why);
	return TSG_OK;
}

/* Every option given against the layout and the device, where known. */
static int check_where(const struct count_request *req, struct count_plan *p, struct tsg_err *err)
{
	const struct engine_opts *o = &p->o;
	char a[64];
	for (int i = 0; i < COPT_COUNT_; i++) {
		if (!req->given[i])
			continue;
		const struct count_option *op = &count_options[i];
		const unsigned w = layouts_of(p, (enum count_opt)i);
		if (o->layout != ENGINE_LAYOUT_AUTO && !(w & layout_bit(o->layout))) {
			if (req->given[COPT_LAYOUT])
				return refuse(err, "--%s does not apply to --layout %s: it applies to %s",
					      op->name, engine_layout_name(o->layout),
					      layouts_text(w, a, sizeof(a)));
			return refuse(err, "--%s does not apply to the %s layout (%s): it applies "
				      "to %s", op->name, engine_layout_name(o->layout),
				      p->item[PLAN_LAYOUT].reason, layouts_text(w, a, sizeof(a)));
		}
		const unsigned dev = options_where((enum count_opt)i) & OPT_DEVICES;
		if (!p->device_known || dev == OPT_DEVICES)
			continue;
		const int gpu = o->device == TSG_DEVICE_GPU;
		if (dev & (gpu ? OPT_GPU : OPT_CPU))
			continue;
		const char *why = req->given[COPT_GPUS] ? "--gpus"
				  : req->device != TSG_DEVICE_AUTO ? (gpu ? "--device gpu" : "--device cpu")
				  : req->plan_only ? "--plan-only, which builds on the host"
				  : "the CPU (this build has no CUDA backend)";
		if (!(op->where & OPT_SOFT_DEVICE) && (req->device != TSG_DEVICE_AUTO ||
						       req->plan_only || req->given[COPT_GPUS]))
			return refuse(err, "--%s applies to the %s: not with %s", op->name,
				      gpu ? "CPU" : "GPU", why);
		plan_note(p, "--%s applies to the %s: not used with %s", op->name,
			  gpu ? "CPU" : "GPU", why);
	}
	return TSG_OK;
}

/* The k-clique options among themselves, before a layout is resolved. */
static int check_cliques(const struct count_request *req, const struct count_plan *p,
			 struct tsg_err *err)
{
	const struct engine_opts *o = &p->o;
	const int method_given = req->given[COPT_KCLIQUE_METHOD] || req->given[COPT_KCLIQUE_SCHEME] ||
				 req->given[COPT_KCLIQUE_GROUP];
	if (o->k_all && req->given[COPT_K])
		return refuse(err, "--k-all counts every size: drop --k");
	if (o->k_all && o->clique_method == KERN_CLIQUE_ORIENT)
		return refuse(err, "--k-all counts by pivoting, not orientation");
	if (method_given && !engine_cliques(o))
		return refuse(err, "--kclique-method, -scheme and -group need --k K (K > 3) or "
			      "--k-all");
	if (engine_cliques(o) && o->layout != ENGINE_LAYOUT_LSTC && o->layout != ENGINE_LAYOUT_AUTO)
		return refuse(err, "k-cliques are counted on LSTC parts (--layout lstc; those of "
			      "an oriented .tsg from its rows, with no --layout): a block unit or "
			      "arrival batch does not hold the edges among a vertex's "
			      "out-neighbours");
	if (o->degeneracy && o->layout != ENGINE_LAYOUT_LSTC && !engine_cliques(o))
		return refuse(err, "--order degeneracy orients LSTC parts: use it with --layout "
			      "lstc or --k");
	return TSG_OK;
}

/* The rules between options beyond where each applies. */
static int check_pairs(const struct count_request *req, const struct count_plan *p,
		       struct tsg_err *err)
{
	const struct engine_opts *o = &p->o;
	if (o->read_ranges && o->layout != ENGINE_LAYOUT_BLOCK)
		return refuse(err, "--read ranges reads the rows of block units: use it with "
			      "--layout block (not lstc, arrival or --k)");
	if (req->given[COPT_CTA_POLICY] && o->gpu_kernel != GPU_KERNEL_SKIFF)
		return refuse(err, "--cta-policy applies to --kernel skiff");
	if (req->given[COPT_SEED] && req->scheme != PART_HASH && req->scheme != PART_METIS)
		/* (edge and contig cuts draw nothing at random: the seed would
		 * change the checkpoint's key and nothing else) */
		return refuse(err, "--seed seeds --scheme hash or metis: not --scheme %s",
			      part_scheme_name(req->scheme));
	if (req->given[COPT_TILE] && o->gpu_kernel != GPU_KERNEL_LSTC &&
	    o->gpu_kernel != GPU_KERNEL_LSTC_PAPER && o->gpu_kernel != GPU_KERNEL_MID_HASH &&
	    o->gpu_kernel != GPU_KERNEL_AUTO)
		return refuse(err, "--tile shapes --kernel lstc, lstc-paper and mid-hash (and "
			      "auto's mid-hash): not --kernel %s", gpu_kernel_name(o->gpu_kernel));
	if (req->given[COPT_PV_FORMAT] && !req->per_vertex)
		return refuse(err, "--per-vertex-format needs --per-vertex OUT");
	if (o->per_vertex && o->plan_only)
		return refuse(err, "--plan-only counts nothing per vertex");
	if (req->checkpoint && o->plan_only)
		return refuse(err, "--plan-only counts nothing to checkpoint");
	if (req->checkpoint && o->per_vertex)
		return refuse(err, "--checkpoint does not keep per-vertex counts yet: use it "
			      "without --per-vertex and --clustering");
	if (engine_cliques(o) && o->per_vertex)
		return refuse(err, "--per-vertex and --clustering count triangles: drop --k");
	if (p->dist->size > 1 && o->plan_only)
		return refuse(err, "--plan-only runs alone, not under mpirun");
	if (req->checkpoint && o->k_all)
		return refuse(err, "--checkpoint keeps one count a unit: not with --k-all");
	return TSG_OK;
}

/* Under mpirun: the host's CPUs shared by its ranks, where the launcher
 * left each rank the whole host (--bind-to none); a rank it bound to some
 * CPUs runs a thread on each of those (tsg_default_threads), no more. Open
 * MPI binds each rank to one core when it starts one or two (its default;
 * measured on two H200s: R-MAT 24's ranks read and oriented in 10-13 s
 * against 0.9 s unbound, bench/RESULTS.md), so a rank left fewer CPUs than
 * its share of the host says so, with the fix. */
static void rank_threads(struct count_plan *p, int threads_given)
{
	const char *local_size = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
	const int ranks_here = local_size ? atoi(local_size) : 1;
	const unsigned n = ranks_here > 1 ? (unsigned)ranks_here : 1;
	const unsigned online = tsg_online_cpus(), bound = tsg_default_threads();
	const unsigned share = online / n ? online / n : 1;
	if (!threads_given && bound >= online)
		p->o.threads = share;
	if (bound < share)
		plan_note(p, "rank %d may run on %u of this host's %u CPUs (%u ranks here): the "
			  "launcher bound it, and Open MPI binds each rank to one core when it "
			  "starts one or two. Reading and orienting then take many times longer: "
			  "give mpirun --bind-to none, or --map-by slot:PE=%u", p->dist->rank, bound,
			  online, n, share);
}

/* The units auto planned (nparts, set), with why. */
static void choose_units(struct count_plan *p, const char *why)
{
	char v[32];
	snprintf(v, sizeof(v), "%u", p->o.part.nparts);
	ask(p, PLAN_PARTITIONS, p->req->given[COPT_PARTITIONS], "auto");
	choose(p, PLAN_PARTITIONS, v, why);
}

/* A checkpoint on the CPU, whose default is one unit recorded only when
 * done: units enough that an interrupted count keeps some (the sweep's
 * source blocks too). Where the device is settled before the count:
 * asked for, or --device auto settled on the CPU (plan_device; a rerun
 * settles it the same way). */
static void ckpt_cpu_units(struct count_plan *p)
{
	struct engine_opts *o = &p->o;
	if (!p->ckpt || p->dist->size != 1 || o->part.nparts || o->layout == ENGINE_LAYOUT_ARRIVAL)
		return;
	const int lstc = o->layout == ENGINE_LAYOUT_LSTC;
	char why[200];
	o->part.nparts = lstc ? CKPT_CPU_PARTS : CKPT_CPU_BLOCKS;
	snprintf(why, sizeof(why), "--checkpoint on the CPU: %s, so that an interrupted count "
		 "keeps its finished units (the CPU's default is one unit, recorded only when "
		 "done)", lstc ? "8 parts" : o->layout == ENGINE_LAYOUT_SWEEP ? "6 source blocks or more"
					     : "6 blocks, 21 units");
	choose_units(p, why);
}

/* Ranks and a checkpoint: the units. The CPU's default is one unit: under
 * mpirun at least 4 a rank instead, and with --checkpoint several, so
 * that an interrupted count keeps what it did. */
static void plan_units(struct count_plan *p)
{
	struct engine_opts *o = &p->o;
	const struct tsg_dist *d = p->dist;
	const int lstc = o->layout == ENGINE_LAYOUT_LSTC;
	char why[200];
	if (o->part.nparts || o->layout == ENGINE_LAYOUT_ARRIVAL)
		return;
	if (d->size > 1 && o->device == TSG_DEVICE_CPU) { /* block: Q blocks, Q(Q+1)/2 units */
		uint32_t q = 1;
		while ((uint64_t)q * (q + 1) / 2 < 4ull * (uint32_t)d->size)
			q++;
		o->part.nparts = lstc ? 4u * (uint32_t)d->size : q;
		snprintf(why, sizeof(why), "%d ranks on the CPU: at least 4 units a rank (the CPU's "
			 "default is one unit)", d->size);
		choose_units(p, why);
	} else if (p->device_known && o->device != TSG_DEVICE_GPU) {
		ckpt_cpu_units(p);
	}
}

int plan_build(const struct count_request *req, struct tsg_dist *dist, size_t ngraphs,
	       struct count_plan *p, struct tsg_err *err)
{
	memset(p, 0, sizeof(*p));
	p->req = req;
	p->dist = dist;
	p->several = ngraphs > 1;
	p->json = req->json;
	p->host_mem = req->host_mem;
	p->ckpt = req->checkpoint;
	struct engine_opts *o = &p->o;
	*o = (struct engine_opts){
		.device = req->device,
		.gpu_index = req->gpu_index,
		.gpu_mem = req->gpu_mem,
		.gpu_kernel = req->gpu_kernel,
		.cpu_kernel = req->cpu_kernel,
		.layout = req->layout,
		.part = { .scheme = req->scheme, .prune = req->prune, .seed = req->seed,
			  .nparts = req->partitions },
		.threads = req->threads,
		.tile = req->tile,
		.cta_policy = req->cta_policy,
		.want_stats = req->stats,
		.plan_only = req->plan_only,
		.orient = req->orient,
		.pin_host = req->pin_host,
		.batches = req->batches,
		.overlap = req->overlap,
		.overlap_cut = req->overlap_cut,
		.progress = !req->quiet,
		.per_vertex = req->per_vertex || req->clustering,
		.k = req->k,
		.k_all = req->k_all,
		.clique_method = req->clique_method,
		.clique_scheme = req->clique_scheme,
		.clique_group = req->clique_group,
		.degeneracy = req->degeneracy,
		.read_ranges = req->read == COUNT_READ_RANGES,
		.read_all = req->read == COUNT_READ_ALL,
		.read_host = req->read == COUNT_READ_HOST,
	};
	ask(p, PLAN_DEVICE, req->given[COPT_DEVICE], device_name(req->device));
	ask(p, PLAN_LAYOUT, req->given[COPT_LAYOUT], engine_layout_name(req->layout));
	int rc;
	if (req->given[COPT_GPUS] && (rc = plan_gpus(req, p, err)))
		return rc;
	/* the device is settled where asked, or where only one can run */
	p->device_known = o->device != TSG_DEVICE_AUTO || req->plan_only || !engine_have_gpu();
	if (req->plan_only && o->device == TSG_DEVICE_GPU)
		return refuse(err, "--plan-only builds on the host: not with %s",
			      req->given[COPT_GPUS] ? "--gpus" : "--device gpu");
	if (p->device_known && o->device == TSG_DEVICE_AUTO)
		choose(p, PLAN_DEVICE, "cpu", req->plan_only ? "--plan-only builds on the host"
		       : "this build has no CUDA backend");
	else if (o->device != TSG_DEVICE_AUTO)
		choose(p, PLAN_DEVICE, device_name(o->device), req->given[COPT_GPUS] ? "--gpus" : "");
	if ((rc = check_cliques(req, p, err)) || (rc = resolve_layout(req, p, err)))
		return rc;
	/* the GPU kernel: the layout's own where not given (mid-hash needs ids
	 * in rank order for its saving, which only units have) */
	if (o->gpu_kernel == GPU_KERNEL_COUNT_)
		o->gpu_kernel = o->layout == ENGINE_LAYOUT_LSTC ? GPU_KERNEL_LSTC : GPU_KERNEL_AUTO;
	if ((rc = check_pairs(req, p, err)) || (rc = check_where(req, p, err)))
		return rc;
	if (req->given[COPT_READ] && dist->size == 1 && req->read != COUNT_READ_RANGES &&
	    req->read != COUNT_READ_AUTO)
		plan_note(p, req->read == COUNT_READ_ALL
				     ? "--read all makes every rank read every list: one process "
				       "does so anyway"
				     : "--read host shares the reading among the ranks of a host: "
				       "one process reads every list");
	o->rank = (uint32_t)dist->rank;
	o->nranks = (uint32_t)dist->size;
	o->dist = dist;
	if (dist->mpi)
		rank_threads(p, req->given[COPT_THREADS]);
	plan_units(p);
	if (dist->size > 1 && !req->given[COPT_GPU] && !o->gpus) {
		/* one GPU a rank, by the rank on its host */
		const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
		const int present = engine_gpu_devices();
		o->gpu_index = local ? atoi(local) : 0;
		if (present > 0 && o->gpu_index >= present)
			o->gpu_index %= present; /* more ranks than GPUs: they share */
	}
	p->lo = (struct io_load_opts){ .io = req->io, .threads = o->threads,
				       .progress = o->progress, .oriented = 1 };
	o->part.threads = o->threads;
	/* what decides the units: a checkpoint is valid only under the same.
	 * Auto under --host-mem keys as the block layout, which --host-mem
	 * set before it also allowed the arrival layout (2026-11-27): their
	 * units differ, and each unit's plan key tells them apart */
	const uint64_t key_layout = o->layout == ENGINE_LAYOUT_AUTO && req->host_mem
				    ? ENGINE_LAYOUT_BLOCK : o->layout;
	const uint64_t key_words[] = { o->device, key_layout, o->gpu_mem, o->part.nparts, o->batches,
				       o->part.scheme, o->part.seed, o->gpu_kernel,
				       req->host_mem != 0, o->k, o->clique_method, o->degeneracy };
	/* --overlap is not among them: the units it makes differ only where
	 * the plan key (every unit's definition) already tells them apart */
	p->opts_key = ckpt_key(key_words, sizeof(key_words) / 8, 0x636b7074);
	if (dist->size > 1) { /* the units a rank holds depend on the rank count */
		const uint64_t w = (uint64_t)dist->size;
		p->opts_key = ckpt_key(&w, 1, p->opts_key);
	}
	const uint64_t rank_words[] = { key_layout, o->part.nparts, o->batches, o->part.scheme,
					o->part.seed, req->host_mem != 0, o->k, o->k_all,
					o->degeneracy, o->plan_only, o->per_vertex,
					req->checkpoint != NULL, o->read_ranges, req->no_transpose,
					req->decode_first, o->read_all, o->read_host,
					(uint64_t)(int64_t)o->pin_host, req->scratch_dir != NULL };
	p->ranks_key = ckpt_key(rank_words, sizeof(rank_words) / 8, 0x72616e6b);
	if (ngraphs > 1 && req->per_vertex)
		return refuse(err, "--per-vertex takes one graph a run");
	return TSG_OK;
}

/* The default scratch directory: the graph's (a disk with room for
 * graphs, where tmpfs /tmp may be memory), unless it cannot be written or
 * the graph is stdin: $TMPDIR, else /tmp. */
static void plan_scratch(struct count_plan *p, const char *path)
{
	const char *dir = p->req->scratch_dir, *why = "--scratch-dir";
	char *buf = p->scratch_buf;
	const size_t len = sizeof(p->scratch_buf);
	if (!dir) {
		const char *slash = strrchr(path, '/');
		const char *tmp = getenv("TMPDIR");
		if (strcmp(path, "-") == 0)
			buf[0] = 0;
		else if (!slash)
			snprintf(buf, len, ".");
		else
			snprintf(buf, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
		why = "the graph's directory";
		if (!buf[0] || access(buf, W_OK | X_OK) != 0) {
			why = buf[0] ? "the graph's directory cannot be written: $TMPDIR, else /tmp"
				     : "stdin: $TMPDIR, else /tmp";
			snprintf(buf, len, "%s", tmp && *tmp ? tmp : "/tmp");
		}
		dir = buf;
	}
	p->scratch_dir = dir;
	ask(p, PLAN_SCRATCH_DIR, p->req->given[COPT_SCRATCH_DIR],
	    p->req->scratch_dir ? p->req->scratch_dir : "default");
	choose(p, PLAN_SCRATCH_DIR, dir, why);
}

/* Two CPU ranks on a 2-core machine counted 3-10% slower from the shared
 * block but built in 2.4 s against 5.6-6.4 s, and ran 7.8-8.2 s against
 * 10.4-11.4 s whole (ER 8M, bench/RESULTS.md). An earlier run of the same
 * command, which had the CPU left out, counted 2-5 times slower both ways,
 * for a reason not found. */
int plan_host_build_wanted(const struct engine_opts *o)
{
	return !o->read_all && !o->read_ranges; /* --read auto or host */
}

/* The options a count of an oriented graph takes beyond the block
 * layout's: its k-cliques are counted on the block layout too. */
static int oriented_takes(enum count_opt i)
{
	return i == COPT_K_ALL || i == COPT_KCLIQUE_METHOD || i == COPT_KCLIQUE_SCHEME ||
	       i == COPT_KCLIQUE_GROUP;
}

/* A .tsg stored oriented (tristream-convert --oriented): its rows are the
 * block layout's oriented graph, so the block layout counts it, and its
 * k-cliques from the same rows on the CPU; what needs the undirected lists
 * (another layout, reading by ranges, another order), or orients (the
 * way, pinned memory for the result), is refused. A header that cannot be
 * read is left to the open, which says why. */
static int plan_oriented(struct count_plan *p, const char *path, struct tsg_err *err)
{
	const struct count_request *req = p->req;
	struct engine_opts *o = &p->o;
	struct io_header h;
	struct tsg_err e = { 0 };
	char a[64];
	if (p->input != INPUT_TSG || strcmp(path, "-") == 0 || !p->input_known)
		return TSG_OK;
	if (io_graph_peek(path, &h, &e) != TSG_OK) {
		p->header_unread = 1;
		return TSG_OK;
	}
	if (!(h.flags & IO_FLAG_ORIENTED))
		return TSG_OK;
	p->oriented = 1;
	const int cliques = engine_cliques(o);
	if (o->layout != ENGINE_LAYOUT_AUTO && o->layout != ENGINE_LAYOUT_BLOCK &&
	    !(cliques && o->layout == ENGINE_LAYOUT_LSTC && !req->given[COPT_LAYOUT])) {
		if (req->given[COPT_LAYOUT])
			return refuse(err, "--layout %s needs the undirected lists: %s is an oriented "
				      ".tsg (each edge once, in rank order), counted by the block "
				      "layout", engine_layout_name(o->layout), path);
		return refuse(err, "the %s layout (%s) needs the undirected lists: %s is an "
			      "oriented .tsg (each edge once, in rank order), counted by the block "
			      "layout", engine_layout_name(o->layout), p->item[PLAN_LAYOUT].reason,
			      path);
	}
	if (o->read_ranges || req->read == COUNT_READ_HOST)
		return refuse(err, "--read %s shares the orienting of the undirected lists among "
			      "ranks: %s is stored oriented (each rank reads it whole)",
			      o->read_ranges ? "ranges" : "host", path);
	if (o->degeneracy)
		return refuse(err, "--order degeneracy orients the undirected lists: %s is stored "
			      "oriented, by (degree, id)", path);
	if (req->given[COPT_ORIENT] || req->given[COPT_PIN_HOST])
		return refuse(err, "--%s shapes how the graph is oriented: %s is stored oriented "
			      "(its rows are counted where they lie)",
			      req->given[COPT_ORIENT] ? "orient" : "pin-host", path);
	for (int i = 0; i < COPT_COUNT_; i++)
		if (req->given[i] && !oriented_takes((enum count_opt)i) &&
		    !(layouts_of(p, (enum count_opt)i) & OPT_BLOCK))
			return refuse(err, "--%s applies to %s: %s is an oriented .tsg, counted by "
				      "the block layout", count_options[i].name,
				      layouts_text(layouts_of(p, (enum count_opt)i) & ~OPT_SWEEP, a,
						   sizeof(a)), path);
	if (cliques && o->device == TSG_DEVICE_GPU)
		return refuse(err, "k-cliques of an oriented .tsg are counted on the CPU: not with "
			      "%s (%s)", req->given[COPT_GPUS] ? "--gpus" : "--device gpu", path);
	if (cliques && o->device == TSG_DEVICE_AUTO) {
		plan_device(p, TSG_DEVICE_CPU, "k-cliques of an oriented .tsg are counted on the "
			    "CPU");
		p->device_known = 1;
	}
	/* --gpus on a small oriented file: GPU 0 alone (engine's auto_one_gpu);
	 * from ENGINE_ALL_GPUS_ROWS of rows on, every GPU listed */
	o->oriented_auto_one = o->overlap == 0 && !cliques && 4 * h.nadj < ENGINE_ALL_GPUS_ROWS;
	if (o->layout != ENGINE_LAYOUT_BLOCK) {
		o->layout = ENGINE_LAYOUT_BLOCK;
		choose(p, PLAN_LAYOUT, "block", cliques ? "an oriented .tsg: k-cliques counted "
		       "from its rows, a range of sources a unit" : "an oriented .tsg: its rows "
		       "are the block layout's oriented graph");
	}
	return TSG_OK;
}

/* Whether a crawl that --host-mem holds counted in memory on the CPU is
 * merged with its transpose there, as without --host-mem, rather than
 * sorted through a scratch .tsg (cnr-2000: 0.17 s against 0.50, both
 * within the budget; bench/raw/cpu-2026-11-30-s61-hostmem-crawl/); if so,
 * p->hp says so with the figure. May start the CUDA runtime (the device
 * count, sweep_in_memory_fits). */
static int plan_crawl_in_memory(struct count_plan *p, const char *path)
{
	uint64_t need = 0;
	if (p->input != INPUT_WEBGRAPH || p->req->no_transpose || p->ckpt || p->dist->size != 1 ||
	    !sweep_in_memory_fits(path, &p->o, p->host_mem, &need))
		return 0;
	p->hp = (struct hostmem_plan){ .mode = HOSTMEM_MEMORY, .budget = p->host_mem,
				       .need_memory = need };
	p->have_hp = 1;
	return 1;
}

int plan_graph(const struct count_plan *job, const char *path, struct count_plan *p,
	       struct tsg_err *err)
{
	*p = *job;
	if (p->o.gpus) /* the list travels with the plan */
		p->o.gpus = p->gpu_list;
	const struct count_request *req = p->req;
	const struct tsg_dist *d = p->dist;
	struct engine_opts *o = &p->o;
	p->input = input_kind_of(path);
	p->input_known = strcmp(path, "-") == 0 || p->input != INPUT_TSG || access(path, F_OK) == 0;
	/* the per-vertex file is published over its path: never the graph's own
	 * (a crawl's files too) */
	char same[4096];
	if (req->per_vertex && io_output_is_input(path, req->per_vertex, 0, same, sizeof(same)))
		return refuse(err, "--per-vertex %s is the input %s itself: give another path", same,
			      path);
	/* a crawl or text converted through a scratch .tsg (--host-mem) is read
	 * as one: --io applies to it too, and is checked once it is known */
	for (int i = 0; i < COPT_COUNT_ && p->input_known; i++) {
		const unsigned w = options_where((enum count_opt)i) & OPT_INPUTS;
		const int fits = i == COPT_SCRATCH_DIR ? p->input != INPUT_TSG || p->host_mem
			       : i == COPT_IO ? p->input == INPUT_TSG || p->host_mem
			       : (w & input_bit(p->input)) != 0;
		if (!req->given[i] || fits || i == COPT_IO)
			continue;
		char what[64];
		if (i == COPT_SCRATCH_DIR)
			snprintf(what, sizeof(what), "crawls, text and --host-mem");
		else
			snprintf(what, sizeof(what), "%s", w == OPT_CRAWL ? "WebGraph crawls"
				 : w == OPT_TEXT ? "text edge lists" : ".tsg files");
		if (!p->several)
			return refuse(err, "--%s applies to %s: %s is %s", count_options[i].name, what,
				      path, input_text(p->input));
		plan_note(p, "--%s applies to %s: not used for %s, %s", count_options[i].name, what,
			  path, input_text(p->input));
	}
	int rc = plan_oriented(p, path, err);
	if (rc)
		return rc;
	for (int i = 0; i < 2; i++) {
		const int opt = i ? COPT_OVERLAP_CUT : COPT_OVERLAP;
		if (!p->req->given[opt] || p->oriented || p->header_unread)
			continue;
		if (!p->several)
			return refuse(err, "--%s applies to an oriented .tsg (tristream-convert "
				      "--oriented), whose rows come in rank order: %s is not one",
				      count_options[opt].name, path);
		plan_note(p, "--%s applies to an oriented .tsg: not used for %s",
			  count_options[opt].name, path);
	}
	/* a crawl past memory goes to the sweep (src/sweep.h): asked for, or
	 * where no layout was named, the options given allow it, and counting
	 * it in memory would not fit --host-mem or the memory available */
	if (o->layout == ENGINE_LAYOUT_SWEEP && p->input != INPUT_WEBGRAPH)
		return refuse(err, "--layout sweep counts a LAW crawl with its transpose: %s is %s",
			      path, input_text(p->input));
	if (o->layout == ENGINE_LAYOUT_SWEEP && d->size > 1)
		return refuse(err, "--layout sweep counts in one process, not under mpirun");
	char why[200];
	struct engine_opts as_auto = *o;
	as_auto.layout = ENGINE_LAYOUT_AUTO;
	if (p->input == INPUT_WEBGRAPH && o->layout != ENGINE_LAYOUT_SWEEP &&
	    (p->layouts_ok & OPT_SWEEP) && d->size == 1 && engine_gpu_count(o) <= 1 &&
	    !o->plan_only && sweep_wanted(path, &as_auto, p->host_mem, why, sizeof(why))) {
		o->layout = ENGINE_LAYOUT_SWEEP;
		choose(p, PLAN_LAYOUT, "sweep", why);
		/* the checkpoint's units were planned for the block layout: the
		 * same number, said as the sweep's source blocks */
		if (p->ckpt && !p->req->given[COPT_PARTITIONS] && p->item[PLAN_PARTITIONS].used &&
		    o->part.nparts == CKPT_CPU_BLOCKS) {
			o->part.nparts = 0;
			ckpt_cpu_units(p);
		}
	}
	p->crawl_in_memory = plan_crawl_in_memory(p, path);
	/* a crawl's ids are local (sites of consecutive ids), so the second
	 * pass's rank lookups cost about what the one pass's copy of every row
	 * does, and the copy's memory is saved: cnr-2000 and crawls of 1-16 M
	 * pages at 2 and 32 threads, the whole count at most 1% slower and up
	 * to 8% faster (16 M pages at 32: 0.91 s against 0.94), the peak
	 * 12-25% lower (2.9 GiB against 3.8; bench/orient_crawl.sh,
	 * bench/raw/h200x2-2026-11-30-s62-orient-crawl/). R-MAT's random ids
	 * keep one pass (2.86 s against 3.83 at 16 cores, RESULTS.md). */
	if (p->input == INPUT_WEBGRAPH && o->orient == PART_ORIENT_AUTO) {
		o->orient = PART_ORIENT_TWO_PASS;
		p->orient_why = "a crawl: its ids are local, so two passes over its lists take "
				"about the time of one and a copy of its rows, with less memory";
	}
	if (p->input != INPUT_TSG || p->host_mem)
		plan_scratch(p, path);
	if (p->crawl_in_memory) { /* merged and counted in memory: no file, plan or not */
		p->item[PLAN_SCRATCH_DIR].used = 0;
		if (req->given[COPT_SCRATCH_DIR])
			plan_note(p, "--scratch-dir: not used, --host-mem holds the crawl's count "
				  "in memory");
	}
	/* a crawl is decoded as it is counted where the arrival layout may
	 * take it (asked for, or a GPU's auto), and no key of its lists is
	 * needed first (ranks, checkpoints) */
	const int stream = !req->decode_first && !p->host_mem && d->size == 1 && !p->ckpt &&
			   !o->plan_only && !engine_cliques(o) &&
			   (o->layout == ENGINE_LAYOUT_ARRIVAL ||
			    (o->layout == ENGINE_LAYOUT_AUTO && o->device != TSG_DEVICE_CPU &&
			     engine_have_gpu()));
	/* a crawl is decoded by slices where the host's ranks may build one
	 * oriented graph (src/hostbuild.h) */
	const int host_build = d->host_most > 1 && d->hosts_share && o->layout == ENGINE_LAYOUT_BLOCK &&
			       o->pin_host <= 0 && !p->host_mem && !req->decode_first &&
			       plan_host_build_wanted(o);
	if (req->skip_bad_lines)
		p->text = (struct io_text_opts){ .skip_bad = 1, .progress = o->progress };
	p->in = (struct input_opts){ .threads = o->threads, .progress = o->progress,
				     .no_transpose = req->no_transpose, .mem_limit = p->host_mem,
				     .allow_empty = req->allow_empty,
				     .scratch_dir = p->scratch_dir,
				     .need_file = p->host_mem != 0 && !p->crawl_in_memory,
				     .stream = stream,
				     .ranges = d->size > 1 && !o->plan_only &&
					       (o->read_ranges || host_build),
				     .to = req->skip_bad_lines ? &p->text : NULL };
	static const char *const kinds[] = { [INPUT_TSG] = "tsg", [INPUT_WEBGRAPH] = "webgraph",
					     [INPUT_TEXT] = "text" };
	ask(p, PLAN_INPUT, req->given[COPT_DECODE_FIRST] || req->given[COPT_NO_TRANSPOSE],
	    kinds[p->input]);
	if (p->input == INPUT_TSG && !p->host_mem)
		p->item[PLAN_SCRATCH_DIR].used = 0;
	return TSG_OK;
}

/* A crawl opened to be decoded as it is counted (plan_input); plan_settle
 * takes it back where the layout taken read the lists whole first. */
static const char input_streamed[] = "decoded while counting, merged with its transpose";

void plan_input(struct count_plan *p, const struct input_info *in, const char *gpath)
{
	const struct count_request *req = p->req;
	const char *how, *why = "";
	char crawl_why[160], a[32], b[32];
	if (in->kind == INPUT_TSG)
		how = "opened";
	else if (in->kind == INPUT_WEBGRAPH && !gpath && !in->in_memory)
		how = in->streamed ? input_streamed
		      : p->in.ranges ? "decoded by slices, merged with its transpose"
				     : "decoded whole, merged with its transpose";
	else if (in->converted)
		how = "converted through a scratch .tsg";
	else
		how = "converted into lists in memory";
	if (in->kind == INPUT_WEBGRAPH && !in->transpose)
		why = req->no_transpose ? "--no-transpose: its arcs sorted"
		      : p->host_mem ? "--host-mem: through a scratch .tsg, its arcs sorted"
				    : "no transpose BASE-t: its arcs sorted";
	else if (in->kind == INPUT_WEBGRAPH && p->crawl_in_memory && !gpath) {
		snprintf(crawl_why, sizeof(crawl_why), "--host-mem %s holds its count in memory "
			 "on the CPU (about %s)", tsg_fmt_bytes(p->host_mem, a, sizeof(a)),
			 tsg_fmt_bytes(p->hp.need_memory, b, sizeof(b)));
		why = crawl_why;
	}
	else if (in->kind == INPUT_WEBGRAPH && !in->streamed && !p->in.ranges)
		why = req->decode_first ? "--decode-first"
		      : "decoded as counted only where the arrival layout counts it alone "
			"(no checkpoint, ranks, --host-mem or k-cliques)";
	else if (in->converted)
		why = p->host_mem ? "--host-mem needs a file" : "its sort did not fit in memory";
	choose(p, PLAN_INPUT, how, why);
	p->input_converted = in->converted;
	if (in->bad_lines)
		plan_note(p, "--skip-bad-lines: %llu line%s of %s that %s not an edge skipped",
			  (unsigned long long)in->bad_lines, in->bad_lines == 1 ? "" : "s",
			  in->format, in->bad_lines == 1 ? "is" : "are");
	/* --io reads a .tsg: a crawl or text that became lists in memory had none */
	if (req->given[COPT_IO] && !gpath && in->kind != INPUT_TSG)
		plan_note(p, "--io %s applies to .tsg files: not used, the input became lists in "
			  "memory", io_mode_name(req->io));
	if (!gpath)
		p->item[PLAN_IO].used = 0;
}

/* --host-mem's figures (p->hp) for the device that will count: the GPU's
 * where one may (asked for, or auto on a CUDA build), else the CPU's (its
 * kernel's bitmap of every id a thread, the wedge kernel's records). Under
 * auto both are figured: where the CPU's is over the budget (or the GPU's
 * fails), the device count is asked, only then, as it starts the CUDA
 * runtime on this thread before the read; with no GPU here the CPU's
 * figures decide, else the GPU's, and a GPU that proves unusable hands
 * the count to the CPU only where its figure fits (o->cpu_past_host_mem,
 * src/engine.c). *gpu: whether the GPU's figures were taken. */
static int host_mem_figures(struct count_plan *p, const struct io_header *h, int *gpu,
			    struct tsg_err *err)
{
	struct engine_opts *o = &p->o;
	/* the wedge kernel runs where the CPU counts rank-ordered units
	 * without per-vertex counts (kernels/cpu_merge.c's run, else hash) */
	struct hostmem_ask ask = {
		.io = p->lo.io, .threads = o->threads, .batches = o->batches, .pv = o->per_vertex,
		.one_pass = o->orient != PART_ORIENT_TWO_PASS,
		.wedge = o->cpu_kernel == KERN_CPU_WEDGE && !o->per_vertex &&
			 (o->layout == ENGINE_LAYOUT_AUTO || o->layout == ENGINE_LAYOUT_BLOCK),
	};
	o->cpu_past_host_mem = 0;
	*gpu = o->device != TSG_DEVICE_CPU && !o->plan_only && engine_have_gpu();
	ask.gpu = *gpu;
	ask.cpu = !*gpu;
	const int rg = hostmem_plan(h, &ask, p->host_mem, &p->hp, err);
	if (!*gpu || o->device != TSG_DEVICE_AUTO)
		return rg;
	struct hostmem_plan cp;
	struct tsg_err cerr = { 0 };
	ask.gpu = 0;
	ask.cpu = 1;
	const int rc = hostmem_plan(h, &ask, p->host_mem, &cp, &cerr);
	const int cpu_over = rc != TSG_OK || (rg == TSG_OK && (p->hp.mode == HOSTMEM_MEMORY
							       ? cp.need_memory : cp.need_spill) > p->host_mem);
	if (rg == TSG_OK && !cpu_over)
		return TSG_OK;
	if (engine_gpu_devices() == 0) { /* a CUDA build with no GPU here: the CPU counts */
		*gpu = 0;
		p->hp = cp;
		if (rc)
			*err = cerr;
		return rc;
	}
	o->cpu_past_host_mem = cpu_over;
	return rg;
}

int plan_host_mem(struct count_plan *p, const char *gpath, const char *name, struct tsg_err *err)
{
	struct engine_opts *o = &p->o;
	struct io_header h;
	int rc = io_graph_peek(gpath, &h, err);
	if (rc)
		return rc;
	int gpu = 0;
	if ((rc = host_mem_figures(p, &h, &gpu, err)))
		return rc;
	p->have_hp = 1;
	if (p->hp.mode == HOSTMEM_MEMORY)
		return TSG_OK;
	char a[32], b[32];
	const char *dir = p->scratch_dir;
	if (h.flags & IO_FLAG_ORIENTED) { /* nothing built: its rows stay in the page cache */
		if (p->lo.io != IO_MODE_MMAP) {
			if (p->req->given[COPT_IO])
				plan_note(p, "--io %s: mmap instead, as --host-mem is short (the page "
					  "cache keeps what fits of the mapped file)",
					  io_mode_name(p->lo.io));
			ask(p, PLAN_IO, p->req->given[COPT_IO], io_mode_name(p->lo.io));
			choose(p, PLAN_IO, "mmap", "--host-mem: the oriented file is mapped, so the "
			       "page cache keeps what fits");
		}
		p->lo.io = IO_MODE_MMAP;
		if (p->req->given[COPT_SCRATCH_DIR])
			plan_note(p, "--scratch-dir: not used, an oriented .tsg spills nothing (its "
				  "rows are mapped)");
		p->item[PLAN_SCRATCH_DIR].used = 0;
		plan_note(p, "%s needs about %s of host memory read whole, over --host-mem %s: its "
			  "rows are mapped instead (the page cache keeps what fits)", name,
			  tsg_fmt_bytes(p->hp.need_memory, a, sizeof(a)),
			  tsg_fmt_bytes(p->host_mem, b, sizeof(b)));
		return TSG_OK;
	}
	/* a GPU that holds every oriented row counts the mapped file as it is
	 * read (the arrival layout), with no rows on the host: tried first,
	 * and the spill below stays ready for where the GPU does not */
	o->arrival_mapped = gpu && (o->layout == ENGINE_LAYOUT_AUTO || o->layout == ENGINE_LAYOUT_ARRIVAL) &&
			    !engine_cliques(o) && p->hp.need_arrival && p->hp.need_arrival <= p->host_mem;
	o->arrival_budget = p->host_mem;
	o->arrival_only = o->arrival_mapped && p->host_mem < p->hp.need_spill;
	if (o->layout == ENGINE_LAYOUT_ARRIVAL && !o->arrival_mapped) {
		/* the CPU's batches write rows on the host, and an LZ4 file's
		 * lists are decoded into memory: neither stays within it */
		const char *what = p->req->given[COPT_LAYOUT] ? "--layout arrival"
							       : "the arrival layout (--batches)";
		if (!p->hp.need_arrival)
			return tsg_fail(err, TSG_EUSAGE, "%s under --host-mem %s: %s needs about "
					"%s in memory; only a GPU counting a plain .tsg holds no rows "
					"on the host (--layout block spills instead)", what,
					tsg_fmt_bytes(p->host_mem, b, sizeof(b)), name,
					tsg_fmt_bytes(p->hp.need_memory, a, sizeof(a)));
		return tsg_fail(err, TSG_ENOMEM, "%s under --host-mem %s: %s needs about %s over "
				"the mapped file (--layout block spills within less)", what,
				tsg_fmt_bytes(p->host_mem, b, sizeof(b)), name,
				tsg_fmt_bytes(p->hp.need_arrival, a, sizeof(a)));
	}
	if (p->lo.io != IO_MODE_MMAP) {
		if (p->req->given[COPT_IO])
			plan_note(p, "--io %s: mmap instead, as --host-mem %s (the page cache "
				  "keeps what fits of the mapped file)", io_mode_name(p->lo.io),
				  o->arrival_mapped ? "is short" : "spills");
		ask(p, PLAN_IO, p->req->given[COPT_IO], io_mode_name(p->lo.io));
		choose(p, PLAN_IO, "mmap", o->arrival_mapped
		       ? "--host-mem is short: the file is mapped, so the page cache keeps what fits"
		       : "--host-mem spills: the file is mapped, so the page cache keeps what fits");
	}
	if (o->orient != PART_ORIENT_TWO_PASS || p->orient_why) { /* (a crawl's, auto's) */
		p->orient_why = NULL;
		if (p->req->given[COPT_ORIENT] && o->orient != PART_ORIENT_TWO_PASS)
			plan_note(p, "--orient one-pass: two-pass instead, as --host-mem spills "
				  "(two passes need no second copy of the rows)");
		ask(p, PLAN_ORIENT, p->req->given[COPT_ORIENT],
		    o->orient == PART_ORIENT_ONE_PASS ? "one-pass" : "auto");
		choose(p, PLAN_ORIENT, "two-pass", "--host-mem spills: two passes need no second "
		       "copy of the rows");
	}
	p->lo.io = IO_MODE_MMAP;
	p->lo.scratch_dir = dir;
	o->orient = PART_ORIENT_TWO_PASS;
	o->scratch_dir = dir;
	if (o->arrival_mapped) {
		char c[32], d[32], el[160];
		if (o->arrival_only)
			snprintf(el, sizeof(el), "nothing else: spilling needs about %s",
				 tsg_fmt_bytes(p->hp.need_spill, d, sizeof(d)));
		else
			snprintf(el, sizeof(el), "spilling to scratch files in %s (slower)", dir);
		plan_note(p, "%s needs about %s of host memory in memory, over --host-mem %s: "
			  "the arrival layout over the mapped file where the GPU holds its rows "
			  "(about %s of host memory), else %s", name,
			  tsg_fmt_bytes(p->hp.need_memory, a, sizeof(a)),
			  tsg_fmt_bytes(p->host_mem, b, sizeof(b)),
			  tsg_fmt_bytes(p->hp.need_arrival, c, sizeof(c)), el);
		return TSG_OK;
	}
	plan_note(p, "%s needs about %s of host memory, over --host-mem %s: spilling to scratch "
		  "files in %s (slower)", name, tsg_fmt_bytes(p->hp.need_memory, a, sizeof(a)),
		  tsg_fmt_bytes(p->host_mem, b, sizeof(b)), dir);
	return TSG_OK;
}

void plan_device(struct count_plan *p, enum tsg_device d, const char *why)
{
	p->o.device = d;
	choose(p, PLAN_DEVICE, device_name(d), why);
	if (d == TSG_DEVICE_CPU)
		ckpt_cpu_units(p);
}

/* Why auto took the layout the run used, as it happened: in groups the
 * GPU did not hold every oriented row. */
static const char *auto_layout_reason(const struct engine_opts *o, const struct engine_result *r,
				      int gpu)
{
	const int arrival = r->layout == ENGINE_LAYOUT_ARRIVAL;
	const int grouped = arrival && r->arrival_groups.n > 0;
	if (!gpu)
		return "auto on the CPU: block";
	if (o->arrival_mapped && arrival)
		return grouped ? "--host-mem: arrival over the mapped file, in groups (the "
				 "oriented rows outgrow the GPU's budget), the host holding none"
			       : "--host-mem: arrival over the mapped file, as the GPU holds "
				 "every oriented row and the host then holds none";
	if (o->scratch_dir)
		return "--host-mem spills: block";
	if (grouped)
		return "auto on a GPU: arrival in groups, as the oriented rows outgrow the GPU's "
		       "budget (each group's edges with the earlier groups counted at its end)";
	return arrival ? "auto on a GPU: arrival, as the GPU holds every oriented row"
		       : "auto on a GPU: block, as the GPU cannot hold every oriented row";
}

void plan_settle(struct count_plan *p, const struct tsg_graph *g, const struct engine_result *r,
		 const char *auto_note)
{
	const struct count_request *req = p->req;
	const struct engine_opts *o = &p->o;
	const int gpu = r->device == TSG_DEVICE_GPU;
	char v[96], why[320];
	/* the device */
	if (!p->item[PLAN_DEVICE].chosen[0] || strcmp(p->item[PLAN_DEVICE].chosen,
						      device_name(r->device)) != 0) {
		const char *reason = auto_note && auto_note[0] ? auto_note
				     : gpu ? "auto: a usable GPU, and the graph large enough for it "
					     "to pay (engine_auto_device)"
				     : r->note;
		choose(p, PLAN_DEVICE, device_name(r->device), reason);
	}
	/* the input as it happened: a crawl opened to be decoded as counted
	 * whose layout (the CPU's block layout under auto, say) read it whole
	 * first (JSON input.decoded_while_counting says the same) */
	if (strcmp(p->item[PLAN_INPUT].chosen, input_streamed) == 0 && !r->lists_streamed) {
		snprintf(why, sizeof(why), "opened to be decoded as counted, but the %s layout on "
			 "the %s read its lists whole first", engine_layout_name(r->layout),
			 device_name(r->device));
		choose(p, PLAN_INPUT, "decoded whole, merged with its transpose", why);
	}
	if (p->have_hp && o->arrival_mapped && gpu && r->layout == ENGINE_LAYOUT_ARRIVAL) {
		p->hp.mode = HOSTMEM_ARRIVAL; /* nothing spilled */
		if (p->input == INPUT_TSG) { /* else a converted input's scratch .tsg went there */
			p->item[PLAN_SCRATCH_DIR].used = 0;
			if (req->given[COPT_SCRATCH_DIR])
				plan_note(p, "--scratch-dir: not used, the arrival layout over the "
					  "mapped file spilled nothing");
		}
		if (o->orient == PART_ORIENT_TWO_PASS && !req->given[COPT_ORIENT])
			p->item[PLAN_ORIENT].used = 0;
	}
	/* the scratch directory where nothing went: a crawl or text made lists
	 * in memory (its sort spilled no runs), and --host-mem found room */
	if (p->item[PLAN_SCRATCH_DIR].used && !o->plan_only && !p->input_converted &&
	    !(p->have_hp && p->hp.mode == HOSTMEM_SPILL)) {
		p->item[PLAN_SCRATCH_DIR].used = 0;
		if (req->given[COPT_SCRATCH_DIR])
			plan_note(p, "--scratch-dir: not used, nothing was spilled (%s)",
				  r->layout == ENGINE_LAYOUT_SWEEP ? "the sweep writes no file"
				  : p->have_hp			  ? "--host-mem had room"
								  : "the input fit in memory");
	}
	/* the layout */
	if (!p->item[PLAN_LAYOUT].reason[0] && !req->given[COPT_LAYOUT]) {
		choose(p, PLAN_LAYOUT, engine_layout_name(r->layout), auto_layout_reason(o, r, gpu));
	} else {
		choose(p, PLAN_LAYOUT, engine_layout_name(r->layout), NULL);
	}
	/* the kernel */
	if (gpu) {
		ask(p, PLAN_KERNEL, req->given[COPT_KERNEL], gpu_kernel_name(o->gpu_kernel));
		choose(p, PLAN_KERNEL, r->kernel, req->given[COPT_KERNEL] ? ""
		       : r->layout == ENGINE_LAYOUT_SWEEP ? "the sweep counts with mid-hash's step"
		       : r->layout == ENGINE_LAYOUT_ARRIVAL
		       ? "the arrival layout counts with mid-hash's step"
		       : o->layout == ENGINE_LAYOUT_LSTC ? "the lstc layout's default"
							 : "auto: a kernel for each unit");
	} else {
		ask(p, PLAN_KERNEL, req->given[COPT_CPU_KERNEL], kern_cpu_name(o->cpu_kernel));
		choose(p, PLAN_KERNEL, r->kernel, r->layout == ENGINE_LAYOUT_ARRIVAL
		       ? "the arrival layout merges" : r->layout == ENGINE_LAYOUT_SWEEP
		       ? "the sweep merges sorted lists" : "");
	}
	/* the units */
	if (!o->plan_only || r->nparts) {
		if (r->layout == ENGINE_LAYOUT_ARRIVAL) {
			ask(p, PLAN_BATCHES, req->given[COPT_BATCHES], req->batches ? "" : "auto");
			if (req->batches)
				snprintf(p->item[PLAN_BATCHES].asked, sizeof(p->item[0].asked), "%u",
					 req->batches);
			snprintf(v, sizeof(v), "%u", r->nparts);
			choose(p, PLAN_BATCHES, v, NULL);
			p->item[PLAN_PARTITIONS].used = 0;
		} else {
			if (!p->item[PLAN_PARTITIONS].used) {
				char a[16];
				snprintf(a, sizeof(a), "%u", req->partitions);
				ask(p, PLAN_PARTITIONS, req->given[COPT_PARTITIONS],
				    req->partitions ? a : "auto");
			}
			if (r->layout == ENGINE_LAYOUT_BLOCK)
				snprintf(v, sizeof(v), "%u block%s, %u unit%s", r->nblocks,
					 r->nblocks == 1 ? "" : "s", r->nparts, r->nparts == 1 ? "" : "s");
			else if (r->layout == ENGINE_LAYOUT_SWEEP)
				snprintf(v, sizeof(v), "%u pass%s (a source block each), %u chunks",
					 r->nparts, r->nparts == 1 ? "" : "es", r->sweep.chunks);
			else
				snprintf(v, sizeof(v), "%u part%s", r->nparts, r->nparts == 1 ? "" : "s");
			choose(p, PLAN_PARTITIONS, v, NULL);
		}
	}
	/* how the file was read */
	if (g->io_used != IO_MODE_AUTO) {
		if (!p->item[PLAN_IO].used)
			ask(p, PLAN_IO, req->given[COPT_IO], io_mode_name(req->io));
		why[0] = 0;
		if (g->io_note[0])
			snprintf(why, sizeof(why), "%s", g->io_note);
		else if (p->lo.io == IO_MODE_AUTO && g->io_cached >= 0)
			/* (one decimal, and the line: 89.7% must not read as 90%,
			 * where auto's choice changes) */
			snprintf(why, sizeof(why), "auto: %.1f%% of the file in the page cache "
				 "(%s %.0f%%)%s", 100.0 * g->io_cached,
				 g->io_cached >= io_cached_enough() ? "at least" : "below",
				 100.0 * io_cached_enough(), g->io_used != IO_MODE_MMAP ? ""
				 : r->layout == ENGINE_LAYOUT_ARRIVAL
				 ? ", mapped: the arrival layout sent its pages from where they lie"
				 : ", mapped for the arrival layout, which was not taken");
		choose(p, PLAN_IO, io_mode_name(g->io_used), why);
	}
	if (r->layout == ENGINE_LAYOUT_BLOCK && g->oriented) {
		ask(p, PLAN_ORIENT, 0, "auto");
		choose(p, PLAN_ORIENT, "none", "the file is stored oriented");
		char a[16];
		static const char *const cut[] = { "", ", columns", ", rows" };
		snprintf(a, sizeof(a), "%s%s", o->overlap < 0 ? "off" : o->overlap == 0 ? "auto" : "",
			 cut[o->overlap_cut]);
		if (o->overlap > 0)
			snprintf(a, sizeof(a), "%d%s", o->overlap, cut[o->overlap_cut]);
		ask(p, PLAN_OVERLAP, req->given[COPT_OVERLAP] || req->given[COPT_OVERLAP_CUT], a);
		if (r->stream.used && r->stream.columns && r->stream.down)
			snprintf(v, sizeof(v), "%u row block%s, read from the top rank down",
				 r->stream.columns, r->stream.columns == 1 ? "" : "s");
		else if (r->stream.used && r->stream.columns)
			snprintf(v, sizeof(v), "%u column%s", r->stream.columns,
				 r->stream.columns == 1 ? "" : "s");
		else if (r->stream.used)
			snprintf(v, sizeof(v), "%u units in read order%s", r->nparts,
				 r->stream.down ? ", read from the top rank down" : "");
		choose(p, PLAN_OVERLAP, r->stream.used ? v : "off", r->stream.why);
	} else if (r->layout == ENGINE_LAYOUT_BLOCK) {
		if (!p->item[PLAN_ORIENT].used)
			ask(p, PLAN_ORIENT, req->given[COPT_ORIENT], !req->given[COPT_ORIENT] ? "auto"
			    : o->orient == PART_ORIENT_TWO_PASS ? "two-pass" : "one-pass");
		/* (ranks that read by ranges or build one graph per host write
		 * the rows their own way: no reason of auto's for them) */
		choose(p, PLAN_ORIENT, o->orient == PART_ORIENT_TWO_PASS ? "two-pass" : "one-pass",
		       req->given[COPT_ORIENT] || r->ranges.used || r->host_build.used
			       ? NULL : p->orient_why);
	}
	/* options given that the engine's choices left unused */
	for (int i = 0; i < COPT_COUNT_; i++) {
		if (!req->given[i] || (i == COPT_HOST_MEM && p->have_hp &&
					p->hp.mode == HOSTMEM_ARRIVAL)) /* auto's, within it */
			continue;
		const unsigned w = options_where((enum count_opt)i);
		const unsigned lw = layouts_of(p, (enum count_opt)i);
		const struct count_option *op = &count_options[i];
		if (!p->device_known && !(w & (gpu ? OPT_GPU : OPT_CPU)))
			plan_note(p, "--%s applies to the %s: not used, as the %s counted", op->name,
				  gpu ? "CPU" : "GPU", gpu ? "GPU" : "CPU");
		else if (!(lw & layout_bit(r->layout)) && !(g->oriented && oriented_takes(i)))
			plan_note(p, "--%s does not apply to the %s layout, which ran", op->name,
				  engine_layout_name(r->layout));
	}
	if (p->ckpt && r->nparts == 1 && !r->resumed && !o->plan_only)
		plan_note(p, "--checkpoint: the count was one unit, so the checkpoint held nothing "
			  "until it was done (--partitions N cuts more)");
}

void plan_json(const struct count_plan *p, struct tsg_json *j)
{
	static const char *const names[PLAN_ITEMS_] = {
		[PLAN_DEVICE] = "device", [PLAN_LAYOUT] = "layout", [PLAN_KERNEL] = "kernel",
		[PLAN_PARTITIONS] = "partitions", [PLAN_BATCHES] = "batches", [PLAN_IO] = "io",
		[PLAN_ORIENT] = "orient", [PLAN_INPUT] = "input", [PLAN_SCRATCH_DIR] = "scratch_dir",
		[PLAN_OVERLAP] = "overlap",
	};
	json_key_obj(j, "plan");
	json_key_arr(j, "options"); /* what the command line gave */
	for (int i = 0; i < COPT_COUNT_; i++)
		if (p->req->given[i])
			json_str(j, NULL, count_options[i].name);
	json_close(j, ']');
	for (int i = 0; i < PLAN_ITEMS_; i++) {
		const struct plan_choice *c = &p->item[i];
		if (!c->used)
			continue;
		json_key_obj(j, names[i]);
		json_str(j, "asked", c->asked);
		json_bool(j, "given", c->given);
		if (c->chosen[0]) /* else not known: nothing is inferred */
			json_str(j, "chosen", c->chosen);
		if (c->reason[0])
			json_str(j, "reason", c->reason);
		json_close(j, '}');
	}
	json_close(j, '}');
}
