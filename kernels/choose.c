/* choose.c - the rule of choose.h. */
#include "kernels/choose.h"

enum gpu_kernel kern_choose(const struct kern_unit_work *w, int per_vertex)
{
	if (per_vertex)
		return GPU_KERNEL_MID_HASH;
	/* picoseconds (choose.h): doubles, so no product can overflow */
	const double mid = 4.65 * (double)w->wedges + 160.0 * (double)w->entries;
	const double lh = 8.21 * (double)w->probes + 75.6 * (double)w->entries;
	return lh < mid ? GPU_KERNEL_LSTC_HASH : GPU_KERNEL_MID_HASH;
}
