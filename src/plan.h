/*
 * plan.h - what a count runs, decided in one place from what was asked.
 *
 * plan_build turns a count_request (src/options.h: what the user asked)
 * into the job every graph is counted with: it resolves the `auto`
 * choices it can (the layout an option needs, the CPU's units under a
 * checkpoint, the ranks' shares), and checks every option given against
 * the device and layout that will run, from the option table's entry. An
 * option that cannot apply is refused: TSG_EUSAGE, one line naming the
 * option and why. The few kept for scripts' sake (a GPU kernel's options
 * on the CPU) are a note instead.
 *
 * plan_graph does the same for one graph once its kind is known (a .tsg,
 * a crawl, text): an input's option on another kind of input is refused,
 * or in a run of several graphs a note on the graphs it does not fit. It
 * decides how the input is prepared and where scratch files go. A .tsg
 * stored oriented (its header read here) is counted by the block layout,
 * whose oriented graph its rows are, k-cliques on the CPU: a layout or
 * option that needs the undirected lists is refused for it.
 *
 * Some choices are the engine's, made once the graph is open (device auto,
 * layout auto, kernel auto, the I/O mode auto): plan_settle records what
 * it chose, and notes any option given that turned out not to apply to
 * it. Every substitution after planning (plan_host_mem's --io mmap and
 * --orient two-pass when --host-mem spills) is recorded and noted: nothing
 * changes the plan silently. plan_json echoes it: for each choice what was
 * asked, whether it was given, what ran and why.
 */
#ifndef SRC_PLAN_H
#define SRC_PLAN_H

#include <stdint.h>

#include "src/dist.h"
#include "src/engine.h"
#include "src/hostmem.h"
#include "src/input.h"
#include "src/options.h"
#include "io/graph.h"
#include "io/text.h"
#include "base/error.h"
#include "base/json.h"

enum plan_item {
	PLAN_DEVICE, PLAN_LAYOUT, PLAN_KERNEL, PLAN_PARTITIONS, PLAN_BATCHES, PLAN_IO,
	PLAN_ORIENT, PLAN_INPUT, PLAN_SCRATCH_DIR, PLAN_OVERLAP,
	PLAN_ITEMS_
};

struct plan_choice {
	int used;          /* echoed: the item applies to this count */
	int given;         /* asked on the command line (else a default) */
	char asked[64];
	char chosen[4200]; /* "" until known (a directory, for scratch_dir) */
	char reason[320];  /* why it was chosen or changed, where a choice was made */
};

struct count_plan {
	const struct count_request *req;
	struct tsg_dist *dist;
	/* the job: what every graph is counted with */
	struct engine_opts o;
	struct io_load_opts lo;
	uint64_t host_mem;
	int several;               /* a run of more than one graph */
	int json;
	const char *ckpt;          /* --checkpoint: a file, or with ckpt_dir a directory */
	int ckpt_dir;
	uint64_t opts_key;         /* the options that decide the units */
	uint64_t ranks_key;        /* several ranks: the options every rank must share
				    * (what each counts, and which collectives it
				    * reaches); --gpu, --device, --gpu-mem, --threads may
				    * differ (the plan key then catches a plan that does) */
	int gpu_list[ENGINE_MAX_GPUS]; /* --gpus: o.gpus points here */
	unsigned layouts_ok;       /* the layouts (OPT_* bits) every option given applies to,
				    * where none was named: a crawl may go to the sweep */
	int device_known;          /* the device is settled before the count (given, or
				    * --plan-only, --gpus, a build without CUDA) */
	/* one graph's (plan_graph) */
	enum input_kind input;
	int oriented;              /* a .tsg stored oriented (its header says so): the
				    * block layout counts it, k-cliques on the CPU */
	int header_unread;         /* a .tsg whose header could not be read for the
				    * plan: the read reports why (exit 3), not an
				    * option that needs an oriented file (exit 2) */
	int input_known;           /* the file exists: its kind was told */
	struct input_opts in;      /* how it is made countable (src/input.h) */
	struct io_text_opts text;  /* in.to, with --skip-bad-lines */
	const char *scratch_dir;   /* where its scratch files go */
	int input_converted;       /* the input went through a scratch .tsg there */
	int crawl_in_memory;       /* --host-mem holds a crawl merged in memory on the
				    * CPU (sweep_in_memory_fits): no scratch .tsg */
	char scratch_buf[4096];
	const char *orient_why;    /* why auto's orientation is not one-pass, or NULL */
	struct hostmem_plan hp;    /* --host-mem: in memory or spilled */
	int have_hp;
	/* the echo */
	struct plan_choice item[PLAN_ITEMS_];
	char notes[1536];          /* "; " between them: JSON note, and stderr */
};

/* The job from what was asked, for a run of ngraphs graphs on dist's
 * ranks. TSG_EUSAGE, err's message naming the option and why, where an
 * option cannot apply. */
int plan_build(const struct count_request *req, struct tsg_dist *dist, size_t ngraphs,
	       struct count_plan *p, struct tsg_err *err);

/* p: job's plan for the graph at path, its kind told and its input
 * options checked (TSG_EUSAGE where one cannot apply, alone). For a crawl
 * it may ask the GPUs' count (src/sweep.h), which starts the CUDA runtime:
 * where auto may take the sweep, or --host-mem may hold it in memory. */
int plan_graph(const struct count_plan *job, const char *path, struct count_plan *p,
	       struct tsg_err *err);

/* The input made countable (input_prepare's info; gpath the .tsg opened,
 * NULL for lists built in memory): how, in the plan. */
void plan_input(struct count_plan *p, const struct input_info *in, const char *gpath);

/* --host-mem: from gpath's header, whether the count fits the budget; if
 * not, spill (src/hostmem.h): the file mapped, two-pass orientation, the
 * oriented graph and any decoded lists in scratch files in the plan's
 * scratch directory. Each change to what was asked is recorded and noted,
 * naming the graph by name (the user's path: gpath may be a converted
 * input's scratch, /proc/self/fd/N). TSG_ENOMEM if even spilling needs
 * more than the budget. */
int plan_host_mem(struct count_plan *p, const char *gpath, const char *name, struct tsg_err *err);

/* The device chosen before the engine runs (--device auto from the
 * header), with why; on the CPU, a checkpoint's units as --device cpu
 * would have them. */
void plan_device(struct count_plan *p, enum tsg_device d, const char *why);

/* After the count: what the engine chose (device, layout, kernel, units,
 * the I/O mode), and a note for each option given that did not apply to
 * it. auto_note: why auto took the CPU before the count, or "". */
void plan_settle(struct count_plan *p, const struct tsg_graph *g, const struct engine_result *r,
		 const char *auto_note);

/* Whether the host's ranks would build one oriented graph (src/hostbuild.h):
 * unless --read all or ranges says otherwise, on GPUs and on the CPU
 * alike. Decided by all of them together (dist_host_all), so the same on
 * each. */
int plan_host_build_wanted(const struct engine_opts *o);

/* Adds a note (printed on stderr unless --quiet, and in the JSON's note). */
void plan_note(struct count_plan *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "plan": { ... } into j. */
void plan_json(const struct count_plan *p, struct tsg_json *j);

#endif
