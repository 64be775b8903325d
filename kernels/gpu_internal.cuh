/*
 * gpu_internal.cuh - what the runtime (gpu_runtime.cu) and the kernel files
 * share: a partition as it lies in a device slot, and the launchers.
 */
#ifndef KERN_GPU_INTERNAL_CUH
#define KERN_GPU_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stdint.h>

struct dev_dag {
	const uint64_t *off;
	const uint32_t *adj;
	const uint32_t *src;
	uint32_t nsrc;
};

/* Counters a slot keeps in device memory, zeroed before each partition. */
struct dev_counters {
	unsigned long long triangles;
	unsigned int n_small, n_large;   /* sources per degree bucket */
	unsigned int next_small, next_large; /* work hand-out for persistent grids */
};

cudaError_t lstc_paper_launch(const dev_dag &d, unsigned tile, dev_counters *c, cudaStream_t s);
cudaError_t lstc_hash_launch(const dev_dag &d, uint32_t *small, uint32_t *large, dev_counters *c,
			     int sms, cudaStream_t s);

#endif
