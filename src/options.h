/*
 * options.h - the options of `tristream count`, in one table.
 *
 * Every option is an entry of count_options: its name, the argument it
 * takes, its help line, and where it applies (which devices, layouts and
 * inputs). `count --help` is printed from the table, parsing reads it to
 * know the option, and the plan (src/plan.h) checks each option given
 * against what will run from the same entry, so that help, parsing and
 * validation cannot disagree. Parsing only records what the user asked
 * (struct count_request); deciding what runs is the plan's job.
 */
#ifndef SRC_OPTIONS_H
#define SRC_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "src/engine.h"
#include "src/pervertex.h"
#include "io/reader.h"
#include "base/error.h"

enum count_opt {
	COPT_DEVICE, COPT_GPU, COPT_GPUS, COPT_GPU_MEM, COPT_LAYOUT, COPT_BATCHES, COPT_PARTITIONS,
	COPT_SCHEME, COPT_PRUNE, COPT_SEED, COPT_KERNEL, COPT_CTA_POLICY, COPT_TILE,
	COPT_CPU_KERNEL, COPT_THREADS, COPT_IO, COPT_READ, COPT_PIN_HOST, COPT_ORIENT, COPT_OVERLAP,
	COPT_OVERLAP_CUT, COPT_HOST_MEM, COPT_SCRATCH_DIR, COPT_NO_TRANSPOSE, COPT_DECODE_FIRST,
	COPT_SKIP_BAD_LINES, COPT_ALLOW_EMPTY, COPT_CHECKPOINT, COPT_PER_VERTEX, COPT_PV_FORMAT,
	COPT_CLUSTERING, COPT_K, COPT_K_ALL, COPT_KCLIQUE_METHOD, COPT_KCLIQUE_SCHEME,
	COPT_KCLIQUE_GROUP, COPT_ORDER, COPT_STATS, COPT_PLAN_ONLY, COPT_MANIFEST, COPT_JSON,
	COPT_QUIET, COPT_HELP,
	COPT_COUNT_
};

/* Where an option applies: a bit for each device, layout and kind of
 * input. An option that names none of a dimension's bits applies to all
 * of that dimension (OPT_ANY_*). */
enum {
	OPT_CPU = 1u << 0,
	OPT_GPU = 1u << 1,
	OPT_BLOCK = 1u << 2,
	OPT_LSTC = 1u << 3,
	OPT_ARRIVAL = 1u << 4,
	OPT_TSG = 1u << 5,   /* a .tsg file */
	OPT_CRAWL = 1u << 6, /* a LAW WebGraph crawl */
	OPT_TEXT = 1u << 7,  /* a text edge list */
	/* on the other device a note, not a refusal: options that tune a GPU
	 * kernel, which scripts sweeping kernels pass on either device */
	OPT_SOFT_DEVICE = 1u << 8,
	OPT_SWEEP = 1u << 9, /* a crawl in bounded memory (src/sweep.h) */
};
#define OPT_DEVICES (OPT_CPU | OPT_GPU)
#define OPT_LAYOUTS (OPT_BLOCK | OPT_LSTC | OPT_ARRIVAL | OPT_SWEEP)
#define OPT_INPUTS (OPT_TSG | OPT_CRAWL | OPT_TEXT)

struct count_option {
	enum count_opt id;
	const char *name; /* without the leading "--" */
	const char *arg;  /* the argument as help shows it; NULL: a flag */
	unsigned where;   /* OPT_* bits */
	const char *help; /* one paragraph; --help wraps it */
};

/* The table, indexed by enum count_opt. */
extern const struct count_option count_options[COPT_COUNT_];

/* The devices, layouts and inputs opt applies to (a dimension it leaves
 * empty filled in: all of it). */
unsigned options_where(enum count_opt opt);

enum count_read { COUNT_READ_AUTO, COUNT_READ_ALL, COUNT_READ_HOST, COUNT_READ_RANGES };

/* What the user asked, as given: nothing resolved, nothing checked against
 * anything else (src/plan.h does that). Fields hold the defaults where an
 * option was not given; given[] says which were. */
struct count_request {
	unsigned char given[COPT_COUNT_];
	enum tsg_device device;
	int gpu_index;
	int gpu_list[ENGINE_MAX_GPUS]; /* --gpus: ngpus indexes, or gpus_all */
	uint32_t ngpus;
	int gpus_all;
	uint64_t gpu_mem;               /* 0: the device's free memory */
	enum engine_layout layout;
	uint32_t batches, partitions;   /* 0: auto */
	enum part_scheme scheme;
	enum part_prune prune;
	uint64_t seed;
	enum gpu_kernel gpu_kernel;     /* GPU_KERNEL_COUNT_: not given (the layout's own) */
	enum gpu_cta_policy cta_policy;
	unsigned tile;                  /* 0: the kernel's own */
	enum kern_cpu_kind cpu_kernel;
	unsigned threads;
	enum io_mode io;
	enum count_read read;
	int pin_host;                   /* 1 on, 0 off, -1 auto */
	enum part_orient_way orient;
	int overlap;                    /* an oriented .tsg: -1 off, 0 auto, N units */
	enum engine_overlap_cut overlap_cut;
	uint64_t host_mem;              /* 0: no bound */
	const char *scratch_dir;
	int no_transpose, decode_first, skip_bad_lines, allow_empty;
	const char *checkpoint, *per_vertex, *manifest;
	enum pv_format pv_format;
	int clustering;
	unsigned k;
	int k_all;
	enum kern_clique_method clique_method;
	enum kern_clique_scheme clique_scheme;
	unsigned clique_group;          /* 0: auto */
	int degeneracy;                 /* --order degeneracy */
	int stats, plan_only, json, quiet, help;
	/* the caller turns SIGBUS into an error (stop_on_sigbus: the CLI, not
	 * the library, which installs no handler): only then may --io auto map
	 * a cached file it was not asked to map, as a mapped file cut short
	 * while in use raises SIGBUS where buffered reads return an error */
	int sigbus_handled;
	char *const *graphs;            /* the GRAPH arguments */
	int ngraphs;
};

/* Parses `count`'s arguments (argv[0] is "count") into *req. A bad option
 * or value is TSG_EUSAGE with err's message one line naming it. */
int options_parse_count(int argc, char **argv, struct count_request *req, struct tsg_err *err);

/* count --help, from the table. */
void options_print_count_help(FILE *f);

/* A usage error of `command` on stderr, one line that ends by pointing at
 * its --help; returns TSG_EUSAGE. */
int options_usage_error(const char *command, const char *msg);

#endif
