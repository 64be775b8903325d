/*
 * pinned_arena.cuh - pinned host memory pinned ahead of need, taken in order.
 *
 * The arrival layout in groups saves each group's rows to pinned host
 * memory at the group's end, on the batch thread, and copies them back to
 * the device many times after. Pinning costs time in proportion to the
 * bytes (1.7-3 GB/s on an H200's host, bench/pinned_alloc.cu): 2.2-2.5 s
 * of R-MAT 26's group ends at a quarter were cudaMallocHost
 * (bench/RESULTS.md, session 39). An arena reserves the whole bound of
 * virtual memory at once and a thread of its own pins it chunk by chunk
 * from the start of the run, so that by a group's end its bytes are
 * (mostly) pinned already.
 *
 * Contract: pin_arena_open reserves `bytes` (rounded up to whole chunks)
 * and starts the thread on `device`; pin_arena_take hands out the next n
 * bytes (aligned to 256), waiting until they are pinned, or NULL where
 * the arena has no room or its thread failed (the caller allocates its
 * own then; *why says which); each chunk is its own registration, so a
 * copy to or from the arena goes through pin_arena_copy, which cuts it at
 * the chunks' bounds. pin_arena_close stops the thread and gives every
 * page back (after the device is done with them: the caller's to ensure).
 * One taker at a time; holds and copy may be called from any thread; no
 * global state.
 */
#ifndef TSG_PINNED_ARENA_CUH
#define TSG_PINNED_ARENA_CUH

#include <stdint.h>

#include <cuda_runtime.h>

struct pin_arena;

/* Reserves bytes of host memory in chunks of chunk bytes (a multiple of 2
 * MiB) and starts pinning them on device; portable: for every device's
 * copies, not only device's (other devices copy from it). */
cudaError_t pin_arena_open(struct pin_arena **out, int device, uint64_t bytes, uint64_t chunk,
			   int portable);
/* The next n bytes, pinned (*p), or *p NULL: no room left, or the pinning
 * thread failed (its error in *why; cudaSuccess: no room). *waited_s adds
 * the seconds this waited for the thread. */
void pin_arena_take(struct pin_arena *a, uint64_t n, void **p, cudaError_t *why,
		    double *waited_s);
/* Whether p lies in the arena. */
int pin_arena_holds(const struct pin_arena *a, const void *p);
/* cudaMemcpyAsync of n bytes where the host side (src for host-to-device,
 * dst for device-to-host) lies in the arena: one copy a chunk it spans. */
cudaError_t pin_arena_copy(const struct pin_arena *a, void *dst, const void *src, uint64_t n,
			   cudaMemcpyKind kind, cudaStream_t s);
/* Stops the thread and gives everything back; *pin_s the thread's seconds
 * pinning, *unpin_s the seconds giving back (either may be NULL). a may be
 * NULL. Returns the unpinning's first error (the thread's went to the taker). */
cudaError_t pin_arena_close(struct pin_arena *a, double *pin_s, double *unpin_s);

#endif
