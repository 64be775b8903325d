/* gpu_kernels.c - names of the GPU kernels, available in every build so the
 * command line parses --kernel the same way with or without CUDA. */
#include "kernels/gpu.h"
#include "base/util.h"

static const char *const names[GPU_KERNEL_COUNT_] = { "lstc", "lstc-paper", "lstc-hash",
							      "mid-hash", "trust", "auto",
							      "fasttc", "skiff", "edge-merge" };
static const char *const policies[GPU_CTA_COUNT_] = { "block-degree", "block-index",
							       "warp-index" };

int gpu_kernel_parse(const char *s, enum gpu_kernel *out)
{
	const int k = tsg_name_index(names, GPU_KERNEL_COUNT_, s);
	if (k < 0)
		return TSG_EUSAGE;
	*out = (enum gpu_kernel)k;
	return TSG_OK;
}

const char *gpu_kernel_name(enum gpu_kernel k) { return names[k]; }

int gpu_cta_policy_parse(const char *s, enum gpu_cta_policy *out)
{
	const int p = tsg_name_index(policies, GPU_CTA_COUNT_, s);
	if (p < 0)
		return TSG_EUSAGE;
	*out = (enum gpu_cta_policy)p;
	return TSG_OK;
}

const char *gpu_cta_policy_name(enum gpu_cta_policy p) { return policies[p]; }

struct tsg_scratch gpu_kernel_scratch(enum gpu_kernel k, int pv)
{
	switch (k) {
	case GPU_KERNEL_LSTC_HASH: /* two bucket lists of source indexes */
		return (struct tsg_scratch){ .per_src = 8 };
	case GPU_KERNEL_SKIFF: /* block-degree's two classes */
		return (struct tsg_scratch){ .per_src = 8, .fixed = 256 };
	case GPU_KERNEL_FASTTC: /* three degree classes */
		return (struct tsg_scratch){ .per_src = 12, .fixed = 256 };
	case GPU_KERNEL_TRUST:
		/* the same two lists; the buckets' deeper levels take whatever
		 * the slot has left (none needed: a full bucket spills) */
		return (struct tsg_scratch){ .per_src = 8, .fixed = 256 };
	case GPU_KERNEL_AUTO: /* either kernel auto picks: mid-hash's, and lstc-hash's lists */
		return (struct tsg_scratch){ .per_src = 8, .per_mid = pv ? 12 : 8,
					     .per_edge = pv ? 12 : 8, .fixed = 16u << 10 };
	case GPU_KERNEL_MID_HASH:
		/* a uint32 offset per middle row plus CUB's scan state (tile
		 * flags: well under a byte a row, and a few KiB), a (begin, end)
		 * record per source entry, 256-byte alignment of each */
		/* per-vertex counts: a record's source (4 bytes an entry), and a
		 * partition's global ids (4 bytes a row) */
		return (struct tsg_scratch){ .per_mid = pv ? 12 : 8, .per_edge = pv ? 12 : 8,
					     .fixed = 16u << 10 };
	default:
		return (struct tsg_scratch){ 0 };
	}
}
