/*
 * fuzz_webgraph.c - the BVGraph reader (io/webgraph.h). Byte 0 sets the
 * properties (window 0..7, minimum interval 0, 1, 2 or 4, zeta 1..4) and
 * byte 1 the node count (1..256); byte 2 bit 0 makes the graph its own
 * transpose (the merged load), else it is sorted through a builder. The
 * rest is the .graph file; there is no .offsets, so the sequential scan
 * finds the lists first and the parallel decoder reads them again. Any
 * outcome but a crash or a sanitizer report is fine; a graph that loads
 * must be symmetric.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "io/check.h"
#include "io/webgraph.h"

static int put(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	const int ok = fwrite(b, 1, n, f) == n;
	return fclose(f) == 0 && ok ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3 || size > (1u << 16))
		return 0;
	const char *const dir = fuzz_dir("wg");
	if (!dir)
		return 0;
	static const unsigned minint[] = { 0, 1, 2, 4 };
	char props[512], path[4400], tpath[4400], base[4200], scratch[4200];
	const unsigned nodes = 1 + data[1];
	const int n = snprintf(props, sizeof(props),
			       "nodes=%u\narcs=%u\nwindowsize=%u\nmaxrefcount=3\nminintervallength=%u\n"
			       "zetak=%u\ncompressionflags=\n", nodes, 0u, data[0] & 7,
			       minint[(data[0] >> 3) & 3], 1 + ((data[0] >> 5) & 3));
	snprintf(base, sizeof(base), "%s/g", dir);
	snprintf(scratch, sizeof(scratch), "%s/s.tsg", dir);
	/* arcs are unknown: a count that disagrees is an error like any other,
	 * so the properties claim what a first directed read finds */
	snprintf(path, sizeof(path), "%s.properties", base);
	put(path, props, (size_t)n);
	snprintf(path, sizeof(path), "%s.graph", base);
	put(path, data + 3, size - 3);
	snprintf(tpath, sizeof(tpath), "%s-t.properties", base);
	unlink(tpath);
	struct tsg_graph g;
	struct io_webgraph_stats st;
	struct tsg_err err = { 0 };
	/* a first directed read with 0 arcs claimed: its error says how many
	 * the lists really hold, if they decode at all */
	const int r0 = io_webgraph_read_directed(base, 2, &g, &st, &err);
	if (r0 == 0)
		io_graph_free(&g); /* every list empty */
	const char *m = r0 ? strstr(err.msg, " arcs decoded") : "";
	unsigned long long arcs = 0;
	if (m) {
		while (r0 && m > err.msg && m[-1] >= '0' && m[-1] <= '9')
			m--;
		arcs = r0 ? strtoull(m, NULL, 10) : 0;
		const int n2 = snprintf(props, sizeof(props),
					"nodes=%u\narcs=%llu\nwindowsize=%u\nmaxrefcount=3\n"
					"minintervallength=%u\nzetak=%u\ncompressionflags=\n", nodes, arcs,
					data[0] & 7, minint[(data[0] >> 3) & 3], 1 + ((data[0] >> 5) & 3));
		snprintf(path, sizeof(path), "%s.properties", base);
		put(path, props, (size_t)n2);
		if (data[2] & 1) { /* its own transpose */
			char a[4300], b[4300];
			for (int i = 0; i < 2; i++) {
				snprintf(a, sizeof(a), "%s.%s", base, i ? "graph" : "properties");
				snprintf(b, sizeof(b), "%s-t.%s", base, i ? "graph" : "properties");
				unlink(b);
				if (link(a, b) != 0)
					return 0;
			}
		}
		memset(&err, 0, sizeof(err));
		if (io_webgraph_load(base, 2, 1, scratch, 1 << 16, &g, &st, &err) == 0) {
			if (io_check_symmetry_exact(&g, "fuzz", 1, &err) != 0)
				abort();
			io_graph_free(&g);
		}
	}
	return 0;
}
