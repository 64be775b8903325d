/* choose.c - the rule of choose.h. */
#include "kernels/choose.h"

enum gpu_kernel kern_choose(const struct kern_unit_work *w, int per_vertex)
{
	if (per_vertex)
		return GPU_KERNEL_MID_HASH;
	/* doubles, so no product can overflow */
	const double we = (double)w->wedges, p = (double)w->probes;
	const double e = w->entries ? (double)w->entries : 1.0;
	const double ein = w->entries_in && w->entries_in < w->entries ? (double)w->entries_in : e;
	const double tail = we / e;
	if (p <= 24.0 * ein && (tail <= 8.0 || (tail <= 12.0 && p <= 1.5 * we)))
		return GPU_KERNEL_EDGE_MERGE;
	/* picoseconds (choose.h) */
	const double lh = 0.861 * p + 69.0 * e + 0.198 * we * tail;
	const double mid = 2.06 * we + 0.843 * p + 138.0 * ein;
	return lh < mid ? GPU_KERNEL_LSTC_HASH : GPU_KERNEL_MID_HASH;
}
