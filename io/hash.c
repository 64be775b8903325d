/*
 * hash.c - the dispatch, and the build of xxHash for any x86-64 (SSE2) or
 * other CPU. The state is xxHash's own (inlined from the same header as
 * io/hash_avx2.c, so both builds read and write one layout).
 */
#include "io/hash.h"

#include <stdlib.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "io/hash_impl.h"

static int use_avx2(void)
{
#if defined(TSG_HASH_AVX2) && defined(__x86_64__)
	return __builtin_cpu_supports("avx2");
#else
	return 0;
#endif
}

struct io_hash *io_hash_new(void)
{
	XXH3_state_t *s = XXH3_createState();
	if (s && XXH3_64bits_reset(s) != XXH_OK) {
		XXH3_freeState(s);
		s = NULL;
	}
	return (struct io_hash *)s;
}

void io_hash_update(struct io_hash *h, const void *data, size_t len)
{
#ifdef TSG_HASH_AVX2
	if (use_avx2()) {
		io_hash_avx2_update(h, data, len);
		return;
	}
#endif
	(void)use_avx2;
	XXH3_64bits_update((XXH3_state_t *)h, data, len);
}

uint64_t io_hash_digest(const struct io_hash *h)
{
	return XXH3_64bits_digest((const XXH3_state_t *)h);
}

void io_hash_free(struct io_hash *h)
{
	XXH3_freeState((XXH3_state_t *)h);
}

uint64_t io_hash_once(const void *data, size_t len)
{
#ifdef TSG_HASH_AVX2
	if (use_avx2())
		return io_hash_avx2_once(data, len);
#endif
	return XXH3_64bits(data, len);
}
