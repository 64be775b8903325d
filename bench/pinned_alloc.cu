/* bench/pinned_alloc.cu: what pinned host memory costs on this host.
 *
 * The arrival layout in groups saves each group's rows to pinned host
 * memory at the group's end (kernels/gpu_runtime.cu, ag_group_end); on
 * R-MAT 26 at a quarter that is 4.7 GB in 13 allocations, on the batch
 * thread. This times, for SIZE MiB pieces (argument 1, default 512) up to
 * TOTAL MiB (argument 2, default 4096): cudaMallocHost, cudaHostAlloc
 * with cudaHostAllocPortable, malloc + cudaHostRegister, one mapping asked
 * for huge pages registered a piece at a time (kernels/pinned_arena.cu's
 * way), and the frees,
 * each as GB/s; then a host-to-device copy from a pinned piece.
 * Build: nvcc -O2 -o pinned_alloc bench/pinned_alloc.cu */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define CK(x)                                                                   \
	do {                                                                    \
		cudaError_t e_ = (x);                                           \
		if (e_ != cudaSuccess) {                                        \
			fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); \
			return 1;                                               \
		}                                                               \
	} while (0)

int main(int argc, char **argv)
{
	const size_t mib = 1u << 20;
	const size_t size = (argc > 1 ? (size_t)atol(argv[1]) : 512) * mib;
	const size_t total = (argc > 2 ? (size_t)atol(argv[2]) : 4096) * mib;
	const int n = (int)(total / size);
	void **p = (void **)calloc((size_t)n, sizeof(void *));
	void *dev = NULL;
	CK(cudaFree(0));
	CK(cudaMalloc(&dev, size));
	for (int mode = 0; mode < 4; mode++) {
		const char *name[] = {"cudaMallocHost", "cudaHostAlloc(portable)", "malloc+register",
				      "mmap+hugepage+register"};
		uint8_t *map = NULL;
		if (mode == 3) { /* kernels/pinned_arena.cu's way: one mapping, pieces registered */
			map = (uint8_t *)mmap(NULL, total + (2u << 20), PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
			if (map == MAP_FAILED)
				return 1;
			uint8_t *b = (uint8_t *)(((uintptr_t)map + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1));
			madvise(b, total, MADV_HUGEPAGE);
			for (int i = 0; i < n; i++)
				p[i] = b + (size_t)i * size;
		}
		double t0 = now();
		for (int i = 0; i < n; i++) {
			if (mode == 0)
				CK(cudaMallocHost(&p[i], size));
			else if (mode == 1)
				CK(cudaHostAlloc(&p[i], size, cudaHostAllocPortable));
			else {
				if (mode == 2)
					p[i] = malloc(size);
				CK(cudaHostRegister(p[i], size, cudaHostRegisterDefault));
			}
		}
		double t1 = now();
		/* first touch after pinning: the pages are already there */
		for (int i = 0; i < n; i++)
			memset(p[i], 1, size);
		double t2 = now();
		CK(cudaMemcpy(dev, p[0], size, cudaMemcpyHostToDevice));
		double t3 = now();
		CK(cudaMemcpy(dev, p[0], size, cudaMemcpyHostToDevice));
		double t4 = now();
		for (int i = 0; i < n; i++) {
			if (mode >= 2) {
				CK(cudaHostUnregister(p[i]));
				if (mode == 2)
					free(p[i]);
			} else
				CK(cudaFreeHost(p[i]));
		}
		if (map)
			munmap(map, total + (2u << 20));
		double t5 = now();
		printf("%-24s %d x %zu MiB: pin %.3f s (%.2f GB/s), touch %.3f s, copy %.1f GB/s, "
		       "free %.3f s (%.2f GB/s)\n", name[mode], n, size / mib, t1 - t0,
		       total / (t1 - t0) / 1e9, t2 - t1, size / (t4 - t3) / 1e9, t5 - t4,
		       total / (t5 - t4) / 1e9);
		(void)t3;
	}
	cudaFree(dev);
	free(p);
	return 0;
}
