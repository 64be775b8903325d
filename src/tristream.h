/*
 * tristream.h - tristream as a library: exact triangle and k-clique counts,
 * per-vertex triangle counts and clustering, from a program.
 *
 * The public interface of libtristream.so (src/api.c); it includes nothing
 * of the project, and every name in it begins with tristream_. The command
 * line and this library run the same engine: a count here equals
 * `tristream count` on the same graph and options.
 *
 *   tristream_graph *g;
 *   tristream_result *r;
 *   struct tristream_error e;
 *   if (tristream_graph_open("web.tsg", &g, &e) == 0 &&
 *       tristream_count(g, NULL, NULL, &r, &e) == 0) {
 *       printf("%llu\n", (unsigned long long)tristream_result_count(r));
 *       tristream_result_free(r);
 *   }
 *   tristream_graph_free(g);
 *
 * Errors: every fallible call returns 0 or a status below (the command
 * line's exit codes, README) and fills the caller's struct tristream_error
 * with a message naming the file or argument at fault. Nothing here prints
 * unless the option "progress" is on, exits, or installs signal handlers.
 *
 * Threads: a graph, options and result are used by one thread at a time;
 * different objects may be used from different threads at once, and
 * tristream_stop_request may be called from any thread (or a signal
 * handler) while another is in tristream_count.
 */
#ifndef TRISTREAM_H
#define TRISTREAM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a declaration below changes incompatibly (additions do not). */
#define TRISTREAM_API_VERSION 1

enum tristream_status {
	TRISTREAM_OK = 0,
	TRISTREAM_EUSAGE = 2,       /* a bad option, value or argument */
	TRISTREAM_EINPUT = 3,       /* malformed, corrupt or unsupported input */
	TRISTREAM_ENOMEM = 4,       /* host or device memory exhausted */
	TRISTREAM_EIO = 5,          /* a read or write failed */
	TRISTREAM_EDEVICE = 6,      /* no usable GPU, or a CUDA error */
	TRISTREAM_EINTERNAL = 7,    /* a bug, never bad input */
	TRISTREAM_EINTERRUPTED = 8, /* stopped by tristream_stop_request */
	TRISTREAM_EOVERFLOW = 9     /* a count passes 2^64 - 1 (k-cliques) */
};

struct tristream_error {
	int code;          /* the status returned, 0 if none */
	char message[1024];
};

/* The library's version ("0.1.0") and API version (TRISTREAM_API_VERSION). */
const char *tristream_version(void);
int tristream_api_version(void);
/* A status's name ("bad input", ...). */
const char *tristream_status_name(int code);
/* Whether this build counts on GPUs (the CUDA backend), and how many it sees. */
int tristream_have_gpu(void);
int tristream_gpu_count(void);

/*
 * Options: a set of the command line's count options by name and value,
 * checked as they are set. NULL options are the defaults. Names:
 *   device       auto (default), cpu, gpu
 *   gpu          the GPU's index (default 0)
 *   gpu-mem      device memory budget, a size like 8G (default: free memory)
 *   threads      host threads (default: every CPU this process may use)
 *   k            clique size, 3 (triangles, default) .. 32
 *   per-vertex   0 or 1: each vertex's triangles, local clustering,
 *                transitivity and average clustering (triangles only)
 *   layout       auto, block, lstc, arrival
 *   partitions   auto or N (block: blocks; lstc: parts)
 *   kernel       GPU kernel (auto, mid-hash, lstc, lstc-paper, lstc-hash,
 *                trust, fasttc, skiff, edge-merge)
 *   cpu-kernel   hash (default), merge, wedge
 *   kclique-method  auto, orient, pivot
 *   order        degree (default), degeneracy
 *   io           auto, mmap, pread, uring (how a file is read)
 *   scratch-dir  where a converted text input's scratch file goes
 *   decode-first 0 or 1: a WebGraph crawl decoded whole before counting
 *   no-transpose 0 or 1: a crawl's BASE-t ignored (arcs sorted instead)
 *   progress     0 (default) or 1: progress and notes on stderr
 * Combinations are checked by tristream_count (TRISTREAM_EUSAGE).
 */
typedef struct tristream_options tristream_options;

int tristream_options_new(tristream_options **out, struct tristream_error *err);
int tristream_options_set(tristream_options *o, const char *name, const char *value,
			  struct tristream_error *err);
void tristream_options_free(tristream_options *o);

/*
 * Graphs. A graph opened from a path is read by each count, as the command
 * line reads it: a .tsg file, a WebGraph crawl (BASE with BASE-t), or a text
 * edge list (converted first). A graph from arrays is built once, in
 * memory, as a simple undirected graph on vertices 0 .. nv-1: every pair
 * given makes an undirected edge (either direction, or both), self-loops
 * and repeats are dropped. The caller's arrays are only read, and may be
 * freed once the call returns.
 */
typedef struct tristream_graph tristream_graph;

/* Checks that path exists and names a graph tristream reads. */
int tristream_graph_open(const char *path, tristream_graph **out, struct tristream_error *err);
/* CSR: offsets[0 .. nv] (offsets[0] = 0, non-decreasing), adj[offsets[v] ..
 * offsets[v + 1]) the neighbours of v, each below nv. nv < 2^32 - 1. */
int tristream_graph_from_csr(uint64_t nv, const uint64_t *offsets, const uint32_t *adj,
			     tristream_graph **out, struct tristream_error *err);
/* Edges: (src[i], dst[i]) for i < m, each below nv. */
int tristream_graph_from_edges(uint64_t nv, const uint32_t *src, const uint32_t *dst, uint64_t m,
			       tristream_graph **out, struct tristream_error *err);
/* A graph from arrays: its vertices and undirected edges (0 for a path,
 * whose figures are the result's). */
uint64_t tristream_graph_vertices(const tristream_graph *g);
uint64_t tristream_graph_edges(const tristream_graph *g);
/* A graph from arrays: vertex v's degree in the simple graph. */
uint64_t tristream_graph_degree(const tristream_graph *g, uint64_t v);
void tristream_graph_free(tristream_graph *g);

/*
 * Stopping a count: tristream_stop_request, from any thread or a signal
 * handler, makes a count given this stop end with TRISTREAM_EINTERRUPTED at
 * its next safe point (before each unit of work). A stop once requested
 * stays so until tristream_stop_reset.
 */
typedef struct tristream_stop tristream_stop;

int tristream_stop_new(tristream_stop **out, struct tristream_error *err);
void tristream_stop_request(tristream_stop *s);
void tristream_stop_reset(tristream_stop *s);
void tristream_stop_free(tristream_stop *s);

/* Counts g with options o (NULL: defaults); stop may be NULL. */
typedef struct tristream_result tristream_result;

int tristream_count(tristream_graph *g, const tristream_options *o, tristream_stop *stop,
		    tristream_result **out, struct tristream_error *err);

/* Triangles, or k-cliques where k > 3. */
uint64_t tristream_result_count(const tristream_result *r);
/* The graph's vertices (ids 0 .. n-1) and undirected edges as counted. */
uint64_t tristream_result_vertices(const tristream_result *r);
uint64_t tristream_result_edges(const tristream_result *r);
/* With per-vertex: each vertex's triangles and local clustering (NetworkX's
 * definitions: c(v) = 2 t(v) / (d(v) (d(v) - 1)), 0 where d(v) < 2), by id,
 * result_vertices entries owned by r; NULL without per-vertex. */
const uint64_t *tristream_result_per_vertex(const tristream_result *r);
const double *tristream_result_clustering(const tristream_result *r);
/* With per-vertex: transitivity (3 triangles / connected triples, 0
 * without triples), and the mean of c(v) over the vertices that have an
 * edge (the report's; NetworkX's average_clustering takes every vertex:
 * the mean of tristream_result_clustering); -1 without per-vertex. */
double tristream_result_transitivity(const tristream_result *r);
double tristream_result_average_clustering(const tristream_result *r);
/* The count's report: the JSON object `tristream count --json` prints (one
 * line, no newline at the end), owned by r. */
const char *tristream_result_json(const tristream_result *r);
void tristream_result_free(tristream_result *r);

#ifdef __cplusplus
}
#endif

#endif
