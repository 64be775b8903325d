/*
 * cpu.h - triangle counting on the host: the CPU backend.
 *
 * Same contract as the GPU kernels (kernels/dag.h). Used by --device cpu, by
 * CI, and as the reference the GPU results are checked against.
 */
#ifndef KERN_CPU_H
#define KERN_CPU_H

#include <stdint.h>

#include "kernels/dag.h"
#include "base/error.h"

enum kern_cpu_kind {
	KERN_CPU_MERGE, /* sorted-list merge; no scratch memory */
	KERN_CPU_HASH,  /* bitmap of out(a) probed by each out(b); wins on skewed graphs */
	KERN_CPU_WEDGE, /* bitmap of out(b) probed by the tail of out(a) after b: each
			 * oriented wedge once (units only; partitions take hash) */
	KERN_CPU_COUNT_
};

int kern_cpu_parse(const char *s, enum kern_cpu_kind *out);
const char *kern_cpu_name(enum kern_cpu_kind k);

/* pv: NULL, or per-vertex counts to add to (dag.h, tsg_pv_add). With pv the
 * wedge kind runs hash (its records do not carry the source); *ran, if not
 * NULL, receives the kind that ran. */
int kern_cpu_count(const struct tsg_dag *d, enum kern_cpu_kind kind, unsigned threads,
		   uint64_t *pv, uint64_t *count, enum kern_cpu_kind *ran, struct tsg_err *err);

/* The same for a 2D unit (kernels/dag.h, struct tsg_unit). */
int kern_cpu_count_unit(const struct tsg_unit *u, enum kern_cpu_kind kind, unsigned threads,
			uint64_t *pv, uint64_t *count, enum kern_cpu_kind *ran,
			struct tsg_err *err);

/* An arrival batch (kernels/dag.h, struct tsg_batch), by merging; needs no
 * scratch and cannot fail. */
int kern_cpu_count_batch(const struct tsg_batch *b, unsigned threads, uint64_t *pv,
			 uint64_t *count);

#endif
