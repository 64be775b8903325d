/* gpu_kernels.c - names of the GPU kernels, available in every build so the
 * command line parses --kernel the same way with or without CUDA. */
#include <string.h>

#include "gpu.h"

static const char *const names[GPU_KERNEL_COUNT_] = { "lstc", "lstc-paper", "lstc-hash" };

int gpu_kernel_parse(const char *s, enum gpu_kernel *out)
{
	for (int k = 0; k < GPU_KERNEL_COUNT_; k++)
		if (strcmp(s, names[k]) == 0) {
			*out = (enum gpu_kernel)k;
			return TSG_OK;
		}
	return TSG_EUSAGE;
}

const char *gpu_kernel_name(enum gpu_kernel k) { return names[k]; }
