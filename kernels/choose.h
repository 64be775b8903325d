/*
 * choose.h - --kernel auto: which GPU kernel counts a unit, from estimates
 * the planner already makes.
 *
 * The two kernels that win somewhere (bench/RESULTS.md, "Kernels side by
 * side"): mid-hash does one probe per oriented wedge whose middle vertex
 * lies in the unit, after three passes over the unit's source entries that
 * group the wedges by middle vertex; lstc-hash tables N(a) and walks every
 * N(b), b in N(a), with no grouping. So mid-hash costs about
 *   t_mid = 4.65 ps a wedge (records included) + 160 ps a source entry
 * and lstc-hash
 *   t_lh  = 8.21 ps a probe + 75.6 ps a source entry,
 * fitted on the H100 to R-MAT 2^21 (wedges 2.98 G, probes 11.34 G, 31.8 M
 * entries: mid-hash 18.9 ms, lstc-hash 95.5 ms) and the crawl-like
 * tristream-gen web 2^22 (wedges 0.124 G, probes 0.161 G, 31.6 M entries:
 * 5.62 ms and 3.71 ms), raw bench/raw/h100-2026-11-24-kernels/. On skewed
 * graphs the probes outnumber the wedges 3 to 4 times (hubs have long
 * in-lists) and mid-hash wins by 5x; on graphs with locality and few hubs
 * the two are close (web: 1.29 probes a wedge) and the grouping passes
 * decide, for lstc-hash. trust does lstc-hash's work with TRUST's bucketed
 * tables and was never the fastest there, so auto does not pick it.
 * Per-vertex counts need mid-hash (only it counts them).
 */
#ifndef KERN_CHOOSE_H
#define KERN_CHOOSE_H

#include <stdint.h>

#include "kernels/gpu.h"

struct kern_unit_work {
	uint64_t wedges;  /* oriented wedges and records (block_plan_costs) */
	uint64_t probes;  /* N(b) entries walked for a tabled N(a) */
	uint64_t entries; /* the unit's source entries */
};

/* The kernel the model above says is faster for a unit of this work. */
enum gpu_kernel kern_choose(const struct kern_unit_work *w, int per_vertex);

#endif
