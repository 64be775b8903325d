/* pipeline_none.c - stands in for the GPU pipeline in builds without CUDA. */
#include "src/pipeline.h"

int engine_have_gpu(void) { return 0; }
int engine_gpu_devices(void) { return 0; }

void engine_gpu_warm_begin(int index, struct engine_warm **out)
{
	(void)index;
	*out = NULL;
}

void engine_gpu_warm_end(struct engine_warm *w) { (void)w; }

int engine_count_gpu(struct tsg_graph *g, const struct engine_opts *o,
		     struct engine_result *r, struct tsg_err *err)
{
	(void)g;
	(void)o;
	(void)r;
	return tsg_fail(err, TSG_EDEVICE, "this build of tristream has no CUDA backend");
}
