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
 * Units of a narrow middle range (out of core, 2D blocks) are not whole
 * graphs: a unit counts only the edges a -> b with b in its range (ein of
 * its e source entries), and edge-merge's lanes merge the tail after b
 * with all of N(b), p/ein steps an edge on average, which w/e does not
 * see (R-MAT 26 at a quarter of an H200's memory, 113 units: auto picked
 * edge-merge for 64 of them, tails w/e of 0.1-4 but p/ein of 30-650 on
 * R-MAT 22's like units, and its units took the device 5.7 s against 2.1
 * s with mid-hash for every unit; raw
 * bench/raw/h200-2026-11-27-quarter-kernels/). So edge-merge also needs
 * p/ein <= 24, and mid-hash's entry term is ein (its passes take the
 * counted edges; lstc-hash's stays e: it tables every N(a) whole). The
 * tail stays w/e: a generated crawl cut as narrow has units of w/ein
 * 12-18 with p/ein 12-18, where edge-merge stays (on whole graphs of such
 * tails it beat mid-hash: web 2^21 x64 6.0 against 9.9 ms). A whole
 * graph's ein is its e, and on every whole graph where the rule picks
 * edge-merge p/e is at most 9.0 (cnr-2000; crawl 2^21 8.0, web 2^21 5.1,
 * Erdos-Renyi 2^22 5.3; R-MAT 21 with abc 0.45, where lstc-hash wins,
 * 25.2), so on whole graphs the rule picks as before.
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
	uint64_t entries_in; /* those pointing into its middle range (the edges
			      * it counts: block_plan_work); 0: all of them */
};

/* The kernel the rule above picks for a unit of this work. */
enum gpu_kernel kern_choose(const struct kern_unit_work *w, int per_vertex);

#endif
