/*
 * hash_avx2.c - xxHash's XXH3 built for AVX2 (this file alone is compiled
 * with -mavx2; io/hash.c calls it only where the CPU has AVX2).
 */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "io/hash_impl.h"

void io_hash_avx2_update(struct io_hash *h, const void *data, size_t len)
{
	XXH3_64bits_update((XXH3_state_t *)h, data, len);
}

uint64_t io_hash_avx2_once(const void *data, size_t len)
{
	return XXH3_64bits(data, len);
}
