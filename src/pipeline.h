/*
 * pipeline.h - the GPU streaming pipeline behind engine_count (internal).
 *
 * Built only with the CUDA backend; pipeline_none.c stands in otherwise.
 * Leaves r->nparts at 0 if it failed before counting anything, which tells
 * the engine that falling back to the CPU is safe.
 */
#ifndef TSG_PIPELINE_H
#define TSG_PIPELINE_H

#include "engine.h"

int engine_count_gpu(const struct tsg_graph *g, const struct engine_opts *o,
		     struct engine_result *r, struct tsg_err *err);

#endif
