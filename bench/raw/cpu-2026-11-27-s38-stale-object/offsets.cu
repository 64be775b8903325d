#include <cstdio>
#include <cstddef>
#include "kernels/gpu_internal.cuh"
int main() {
	printf("sw %zu size %zu\n", offsetof(gpu_ctx, sw), sizeof(gpu_ctx));
#ifdef NEW
	printf("ag_tallies %zu ag_split %zu ag_total %zu ag_prof %zu ag_pev %zu ag_prof_ms %zu ag_rounds %zu ag_pieces %zu ag_end_s %zu\n", offsetof(gpu_ctx, ag_tallies), offsetof(gpu_ctx, ag_split), offsetof(gpu_ctx, ag_total), offsetof(gpu_ctx, ag_prof), offsetof(gpu_ctx, ag_pev), offsetof(gpu_ctx, ag_prof_ms), offsetof(gpu_ctx, ag_rounds), offsetof(gpu_ctx, ag_pieces), offsetof(gpu_ctx, ag_end_s));
#endif
}
