/*
 * hash.h - XXH3-64 (xxHash, seed 0), the checksum of the .tsg format
 * (docs/FORMAT.md), on the widest vector unit this CPU has.
 *
 * Why: a section's checksum is one running hash over gigabytes, folded in on
 * the reading thread as the bytes arrive, so its speed bounds a warm read.
 * Debian's static libxxhash runs XXH3 with SSE2 only (about 6 GB/s a core);
 * the same code built for AVX2 runs about twice as fast. This module builds
 * xxHash's header implementation twice (io/hash.c, io/hash_avx2.c) and picks
 * the AVX2 build where the CPU has it, at every call: the results are the
 * same bytes whichever runs (XXH3's vector paths are specified to agree).
 *
 * Contract: io_hash_new returns a reset state or NULL (out of memory); a
 * state is used by one thread at a time.
 */
#ifndef IO_HASH_H
#define IO_HASH_H

#include <stddef.h>
#include <stdint.h>

struct io_hash;

struct io_hash *io_hash_new(void);
void io_hash_update(struct io_hash *h, const void *data, size_t len);
uint64_t io_hash_digest(const struct io_hash *h);
void io_hash_free(struct io_hash *h);

/* The XXH3-64 of one buffer. */
uint64_t io_hash_once(const void *data, size_t len);

#endif
