/*
 * pinned_arena.cu - pinned host memory pinned ahead of need (pinned_arena.cuh).
 *
 * One anonymous mapping, asked for transparent huge pages (fewer faults
 * where the kernel gives them), registered with the driver a chunk at a
 * time by a thread of its own; the taker waits on a condition variable for
 * the chunks it needs.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "kernels/pinned_arena.cuh"

struct pin_arena {
	uint8_t *map;          /* the mapping as made (munmap's) */
	uint8_t *base;         /* its first chunk, aligned to 2 MiB */
	uint64_t map_bytes, chunk, nchunks;
	int device;
	unsigned flags;        /* cudaHostRegister's */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t pinned;       /* chunks registered (under mu) */
	int stop, done;        /* under mu */
	cudaError_t err;       /* the thread's first error (under mu) */
	uint64_t used;         /* bytes handed out (the taker's) */
	double pin_s;
};

static double arena_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *arena_pinner(void *arg)
{
	struct pin_arena *a = (struct pin_arena *)arg;
	cudaError_t e = cudaSetDevice(a->device);
	const double t0 = arena_now();
	for (uint64_t i = 0; e == cudaSuccess && i < a->nchunks; i++) {
		pthread_mutex_lock(&a->mu);
		const int stop = a->stop;
		pthread_mutex_unlock(&a->mu);
		if (stop)
			break;
		e = cudaHostRegister(a->base + i * a->chunk, a->chunk, a->flags);
		pthread_mutex_lock(&a->mu);
		if (e == cudaSuccess)
			a->pinned = i + 1;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
	}
	pthread_mutex_lock(&a->mu);
	a->err = e;
	a->done = 1;
	a->pin_s = arena_now() - t0;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

cudaError_t pin_arena_open(struct pin_arena **out, int device, uint64_t bytes, uint64_t chunk,
			   int portable)
{
	const uint64_t huge = 2u << 20;
	struct pin_arena *a = (struct pin_arena *)calloc(1, sizeof(*a));
	*out = NULL;
	if (!a || chunk == 0 || chunk % huge) {
		free(a);
		return cudaErrorInvalidValue;
	}
	a->chunk = chunk;
	a->nchunks = (bytes + chunk - 1) / chunk;
	a->map_bytes = a->nchunks * chunk + huge;
	a->device = device;
	a->flags = portable ? cudaHostRegisterPortable : cudaHostRegisterDefault;
	void *m = mmap(NULL, a->map_bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		free(a);
		return cudaErrorMemoryAllocation;
	}
	a->map = (uint8_t *)m;
	a->base = (uint8_t *)(((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1));
	(void)madvise(a->base, a->nchunks * chunk, MADV_HUGEPAGE); /* a hint: fewer faults */
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	if (pthread_create(&a->thread, NULL, arena_pinner, a) != 0) {
		pthread_cond_destroy(&a->cv);
		pthread_mutex_destroy(&a->mu);
		munmap(a->map, a->map_bytes);
		free(a);
		return cudaErrorOperatingSystem;
	}
	*out = a;
	return cudaSuccess;
}

void pin_arena_take(struct pin_arena *a, uint64_t n, void **p, cudaError_t *why, double *waited_s)
{
	const uint64_t at = (a->used + 255) & ~(uint64_t)255;
	*p = NULL;
	*why = cudaSuccess;
	if (at + n > a->nchunks * a->chunk)
		return;
	const uint64_t need = (at + n + a->chunk - 1) / a->chunk;
	const double t0 = arena_now();
	pthread_mutex_lock(&a->mu);
	while (a->pinned < need && !a->done)
		pthread_cond_wait(&a->cv, &a->mu);
	const int ready = a->pinned >= need;
	*why = ready ? cudaSuccess : a->err;
	pthread_mutex_unlock(&a->mu);
	*waited_s += arena_now() - t0;
	if (!ready)
		return;
	a->used = at + n;
	*p = a->base + at;
}

int pin_arena_holds(const struct pin_arena *a, const void *p)
{
	const uint8_t *q = (const uint8_t *)p;
	return a && q >= a->base && q < a->base + a->nchunks * a->chunk;
}

cudaError_t pin_arena_copy(const struct pin_arena *a, void *dst, const void *src, uint64_t n,
			   cudaMemcpyKind kind, cudaStream_t s)
{
	uint8_t *d = (uint8_t *)dst;
	const uint8_t *f = (const uint8_t *)src;
	const uint8_t *host = kind == cudaMemcpyHostToDevice ? f : d;
	cudaError_t e = cudaSuccess;
	while (n && e == cudaSuccess) {
		const uint64_t in = (uint64_t)(host - a->base) % a->chunk;
		const uint64_t piece = a->chunk - in < n ? a->chunk - in : n;
		e = cudaMemcpyAsync(d, f, piece, kind, s);
		d += piece;
		f += piece;
		host += piece;
		n -= piece;
	}
	return e;
}

cudaError_t pin_arena_close(struct pin_arena *a, double *pin_s, double *unpin_s)
{
	if (!a)
		return cudaSuccess;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->thread, NULL);
	const double t0 = arena_now();
	cudaError_t e = cudaSuccess; /* the thread's failure went to the taker */
	for (uint64_t i = 0; i < a->pinned; i++) {
		const cudaError_t u = cudaHostUnregister(a->base + i * a->chunk);
		if (e == cudaSuccess)
			e = u;
	}
	munmap(a->map, a->map_bytes);
	if (pin_s)
		*pin_s = a->pin_s;
	if (unpin_s)
		*unpin_s = arena_now() - t0;
	pthread_cond_destroy(&a->cv);
	pthread_mutex_destroy(&a->mu);
	free(a);
	return e;
}
