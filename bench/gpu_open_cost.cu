/* bench/gpu_open_cost.cu: what opening the GPUs costs a process here.
 *
 * tristream opens each GPU it counts on (kernels/gpu_runtime.cu, gpu_open):
 * the context (started early on threads by engine_gpu_warm_begin), the
 * free memory asked, and the budget allocated in one piece (by default
 * what is free less 5%). This times, in one fresh process, for N GPUs
 * (argument 1, default every GPU) either one after another (argument 2
 * "serial") or each on a thread of its own ("parallel", the default):
 * cudaGetDeviceCount (the runtime's start), the context (cudaSetDevice +
 * cudaFree(0)), cudaGetDeviceProperties, cudaMemGetInfo, cudaMalloc of
 * 95% of what is free, its cudaFree and cudaDeviceReset; each line a GPU,
 * seconds from the process's first call. Run it several times: a context
 * is never reused across processes.
 * Build: nvcc -O2 -o gpu_open_cost bench/gpu_open_cost.cu -lpthread */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

struct job {
	int dev;
	double t0, ctx, props, info, alloc, freed, reset;
	size_t bytes;
	int failed;
};

static void *open_one(void *arg)
{
	struct job *j = (struct job *)arg;
	size_t free_b = 0, total_b = 0;
	cudaDeviceProp p;
	void *m = NULL;
	j->failed = cudaSetDevice(j->dev) != cudaSuccess || cudaFree(0) != cudaSuccess;
	j->ctx = now() - j->t0;
	j->failed |= cudaGetDeviceProperties(&p, j->dev) != cudaSuccess;
	j->props = now() - j->t0;
	j->failed |= cudaMemGetInfo(&free_b, &total_b) != cudaSuccess;
	j->info = now() - j->t0;
	j->bytes = free_b / 20 * 19;
	j->failed |= cudaMalloc(&m, j->bytes) != cudaSuccess;
	j->alloc = now() - j->t0;
	j->failed |= cudaFree(m) != cudaSuccess;
	j->freed = now() - j->t0;
	j->failed |= cudaDeviceReset() != cudaSuccess;
	j->reset = now() - j->t0;
	return NULL;
}

int main(int argc, char **argv)
{
	const double t0 = now();
	int count = 0;
	if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
		fprintf(stderr, "gpu_open_cost: no GPU\n");
		return 77;
	}
	const double started = now() - t0;
	int n = argc > 1 ? atoi(argv[1]) : count;
	const int serial = argc > 2 && strcmp(argv[2], "serial") == 0;
	if (n < 1 || n > count || n > 16)
		n = count < 16 ? count : 16;
	struct job j[16];
	pthread_t th[16];
	for (int i = 0; i < n; i++) {
		memset(&j[i], 0, sizeof(j[i]));
		j[i].dev = i;
		j[i].t0 = t0;
	}
	for (int i = 0; i < n; i++) {
		if (serial)
			open_one(&j[i]);
		else if (pthread_create(&th[i], NULL, open_one, &j[i]) != 0)
			return 1;
	}
	for (int i = 0; !serial && i < n; i++)
		pthread_join(th[i], NULL);
	int bad = 0;
	printf("%s, %d GPU(s), runtime started at %.3f s\n", serial ? "serial" : "parallel", n,
	       started);
	for (int i = 0; i < n; i++) {
		printf("GPU %d: context %.3f props %.3f meminfo %.3f malloc(%.1f GB) %.3f free %.3f "
		       "reset %.3f s%s\n", j[i].dev, j[i].ctx, j[i].props, j[i].info,
		       (double)j[i].bytes / 1e9, j[i].alloc, j[i].freed, j[i].reset,
		       j[i].failed ? " FAILED" : "");
		bad |= j[i].failed;
	}
	return bad;
}
