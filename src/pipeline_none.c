/* pipeline_none.c - stands in for the GPU pipeline in builds without CUDA. */
#include "src/pipeline.h"

int engine_have_gpu(void) { return 0; }
int engine_gpu_devices(void) { return 0; }
uint64_t engine_gpu_memory(int index)
{
	(void)index;
	return 0;
}

void engine_gpu_warm_begin(const struct engine_opts *o, struct engine_warm **out)
{
	(void)o;
	*out = NULL;
}

void engine_gpu_warm_end(struct engine_warm *w) { (void)w; }

int engine_arrival_likely(const struct engine_opts *o, uint64_t nedges)
{
	(void)o;
	(void)nedges;
	return 0;
}

int engine_count_gpu(struct tsg_graph *g, const struct engine_opts *o,
		     struct engine_result *r, struct tsg_err *err)
{
	(void)g;
	(void)o;
	(void)r;
	return tsg_fail(err, TSG_EDEVICE, "this build of tristream has no CUDA backend");
}

/* The sweep (src/sweep.c) reaches the device through these: without the
 * backend no GPU opens, and nothing past gpu_open is ever called. */
int gpu_device_count(void) { return 0; }

int gpu_open(int index, uint64_t budget, uint64_t pv_vertices, struct gpu_ctx **out,
	     uint64_t *slot_bytes, struct tsg_err *err)
{
	(void)index;
	(void)budget;
	(void)pv_vertices;
	(void)slot_bytes;
	*out = NULL;
	return tsg_fail(err, TSG_EDEVICE, "this build of tristream has no CUDA backend");
}

static int no_gpu(struct tsg_err *err)
{
	return tsg_fail(err, TSG_EINTERNAL, "the GPU was called in a build without it");
}

void gpu_close(struct gpu_ctx *g) { (void)g; }
void engine_note_budget_reread(const struct gpu_ctx *g, struct engine_result *r)
{
	(void)g;
	(void)r;
}
const char *gpu_device_name(const struct gpu_ctx *g) { (void)g; return "none"; }
void *gpu_host_alloc(struct gpu_ctx *g, size_t bytes) { (void)g; (void)bytes; return NULL; }
void gpu_host_free(struct gpu_ctx *g, void *p) { (void)g; (void)p; }

int gpu_pv_fetch(struct gpu_ctx *g, uint64_t *host, struct tsg_err *err)
{
	(void)g;
	(void)host;
	return no_gpu(err);
}

int gpu_sweep_begin(struct gpu_ctx *g, uint64_t nv, const uint32_t *rank, const uint32_t *inv,
		    uint64_t max_entries, uint64_t max_vertices, uint32_t nchunks,
		    uint64_t block_limit, uint64_t *block_bytes, struct tsg_err *err)
{
	(void)g; (void)nv; (void)rank; (void)inv; (void)max_entries; (void)max_vertices;
	(void)nchunks; (void)block_limit; (void)block_bytes;
	return no_gpu(err);
}

int gpu_sweep_block(struct gpu_ctx *g, uint64_t s0, struct tsg_err *err)
{
	(void)g;
	(void)s0;
	return no_gpu(err);
}

int gpu_sweep_add(struct gpu_ctx *g, uint64_t lo, uint32_t nbv, const uint64_t *off,
		  const uint32_t *adj, int *fit, struct tsg_err *err)
{
	(void)g; (void)lo; (void)nbv; (void)off; (void)adj; (void)fit;
	return no_gpu(err);
}

int gpu_sweep_local(struct gpu_ctx *g, uint32_t k, struct tsg_err *err)
{
	(void)g;
	(void)k;
	return no_gpu(err);
}

int gpu_sweep_chunk(struct gpu_ctx *g, uint32_t k, uint64_t lo, uint32_t nbv, const uint64_t *off,
		    const uint32_t *adj, struct tsg_err *err)
{
	(void)g; (void)k; (void)lo; (void)nbv; (void)off; (void)adj;
	return no_gpu(err);
}

int gpu_sweep_collect(struct gpu_ctx *g, uint64_t *counts, uint32_t nchunks, double *device_ms,
		      struct tsg_err *err)
{
	(void)g; (void)counts; (void)nchunks; (void)device_ms;
	return no_gpu(err);
}
