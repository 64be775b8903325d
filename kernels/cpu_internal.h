/*
 * cpu_internal.h - what the CPU kernel files share behind kernels/cpu.h.
 */
#ifndef KERN_CPU_INTERNAL_H
#define KERN_CPU_INTERNAL_H

#include <stdint.h>

#include "kernels/cpu.h"

/* The first element of the increasing [b, e) that is >= x (e if none). */
static inline const uint32_t *cpu_lower_bound(const uint32_t *b, const uint32_t *e, uint32_t x)
{
	while (b < e) {
		const uint32_t *m = b + (e - b) / 2;
		if (*m < x)
			b = m + 1;
		else
			e = m;
	}
	return b;
}

/* The wedge kernel on a unit (cpu_wedge.c); bitmaps: one of u->nv bits per
 * thread, zeroed, and left zeroed. */
int cpu_wedge_count_unit(const struct tsg_unit *u, unsigned threads, uint64_t **bitmaps,
			 uint64_t *count, struct tsg_err *err);

#endif
