/*
 * choose.h - --kernel auto: which GPU kernel counts a unit, from estimates
 * the planner already makes.
 *
 * Three kernels win somewhere (bench/RESULTS.md, "edge-merge and the
 * chooser"): edge-merge (a thread an edge, sorted lists merged, no tables,
 * no grouping) where a unit's tails are short and even; lstc-hash (N(a)
 * tabled, every N(b) walked) where tails are longer but hubs few; mid-hash
 * (N(b) tabled, one probe a wedge, after grouping passes) where hubs have
 * long in-lists. From a unit's oriented wedges w (the sum of its tails),
 * probes p (N(b) entries walked for a tabled N(a)) and source entries e:
 *  - edge-merge where the mean tail w/e is at most 8, or at most 12 with
 *    p/w at most 1.5 (few hubs). A warp waits for its longest merge, which
 *    no linear model of w, p and e captured (R-MAT 18: mean tail 54, 23 ps
 *    a merge step; crawl 2^21: 7.2, 2 ps), so the rule is a threshold;
 *  - otherwise the faster by these least-squares fits (picoseconds):
 *      lstc-hash  0.861 p + 69.0 e + 0.198 w^2/e
 *      mid-hash   2.06 w + 0.843 p + 138 e
 *    (w^2/e grows with long tails: lstc-hash's table pieces and hubs).
 * Fitted on the H100 to twelve graphs, each counted as one unit by all
 * three (raw bench/raw/h100-2026-11-25-edge-merge/): tristream-gen web
 * 2^21, 2^22 and 2^21 at edge factor 64, crawl 2^21 and 2^22, Erdos-Renyi
 * 2^22 and 2^21 at 64, R-MAT 18, 21, 22 and 21 with abc 0.45,0.15,0.15,
 * and the LAW crawl cnr-2000; on each the rule picks the fastest kernel.
 * mid-hash's bitmaps (14th session) halved its time on R-MAT and left it
 * near where it was elsewhere, so its model above now overstates it on
 * skewed graphs; remeasured (bench/raw/h100-2026-11-25-bitmap/) on eight
 * of the twelve (R-MAT 18, 21, 22 and 21 abc 0.45: mid-hash 1.85, 9.31,
 * 21.2, 5.61 ms against lstc-hash 4.79, 95.5, 239, 4.39; Erdos-Renyi and
 * web 2^21 at 64, Erdos-Renyi 2^22, crawl and web 2^21, cnr-2000) and on
 * R-MAT 24 and 26, web 2^24, Erdos-Renyi 2^24, the rule still picks the
 * fastest on every one; the nearest call is R-MAT 21 abc 0.45 (lstc-hash
 * 1.28x faster). Not refitted.
 * trust, fasttc and skiff were never the fastest there, so auto does not
 * pick them. Per-vertex counts need mid-hash (only it counts them).
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

/* The kernel the rule above picks for a unit of this work. */
enum gpu_kernel kern_choose(const struct kern_unit_work *w, int per_vertex);

#endif
