/*
 * fuzz_text.c - the text readers (edge list, Matrix Market, TSV; plain or
 * gzip, detected from the bytes) and the builder that sorts and writes
 * what they read. The first byte picks the format (auto, edgelist, mtx,
 * tsv), --skip-bad-lines, the thread count, relabelling and the gzip
 * decoder (auto or libdeflate, whose member guessing is its own code); the
 * rest is the file. Any
 * outcome but a crash, a sanitizer report or a leak is fine: the readers
 * must turn every input into a graph or a clear error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"
#include "io/builder.h"
#include "io/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char path[64], out[4096];
	const int fd = fuzz_file(data + 1, size - 1, path, sizeof(path));
	if (fd < 0)
		return 0;
	struct io_text_opts to = { .format = (enum io_text_format)(data[0] & 3),
				   .skip_bad = (data[0] >> 2) & 1,
				   .threads = 1 + ((data[0] >> 3) & 1),
				   .gzip = (data[0] >> 5) & 1 ? IO_GZIP_LIBDEFLATE : IO_GZIP_AUTO };
	/* relabelled unless bit 4 asks otherwise: ids used as given make the
	 * vertex count the largest id, and writing a million empty rows per run
	 * (legitimate, but slow) would starve the search */
	struct io_builder_opts bo = { .mem_limit = 1 << 16, .threads = to.threads,
				      .relabel = !((data[0] >> 4) & 1) };
	struct io_builder *b = NULL;
	struct io_text_stats ts;
	struct io_build_stats bs;
	struct tsg_err err = { 0 };
	if (io_builder_new(&bo, &b, &err) == 0) {
		const int rc = io_text_read(path, &to, b, &ts, &err);
		/* a declared vertex count is the user's word: writing billions of
		 * empty rows is right, but not what a fuzzer should spend time on */
		if (rc == 0 && ts.header_vertices < (1u << 16)) {
			const char *tmp = getenv("TMPDIR");
			snprintf(out, sizeof(out), "%s/fuzz-text-%ld.tsg", tmp ? tmp : "/tmp",
				 (long)getpid());
			if (io_builder_finish(b, out, &bs, &err) == 0) /* frees b */
				unlink(out);
		} else {
			io_builder_free(b);
		}
	}
	close(fd);
	return 0;
}
