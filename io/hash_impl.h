/*
 * hash_impl.h - io/hash.c's entry points into the AVX2 build of xxHash
 * (io/hash_avx2.c, compiled with -mavx2 on x86-64 only; TSG_HASH_AVX2 says
 * it is linked). Private to io/hash.c.
 */
#ifndef IO_HASH_IMPL_H
#define IO_HASH_IMPL_H

#include <stddef.h>
#include <stdint.h>

struct io_hash;

void io_hash_avx2_update(struct io_hash *h, const void *data, size_t len);
uint64_t io_hash_avx2_once(const void *data, size_t len);

#endif
