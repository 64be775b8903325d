/*
 * cpu_internal.h - what the CPU kernel files share behind kernels/cpu.h.
 */
#ifndef KERN_CPU_INTERNAL_H
#define KERN_CPU_INTERNAL_H

#include <stdint.h>

#include "cpu.h"

/* The wedge kernel on a unit (cpu_wedge.c); bitmaps: one of u->nv bits per
 * thread, zeroed, and left zeroed. */
int cpu_wedge_count_unit(const struct tsg_unit *u, unsigned threads, uint64_t **bitmaps,
			 uint64_t *count, struct tsg_err *err);

#endif
