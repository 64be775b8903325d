/*
 * replay.c - a main for the fuzz targets where libFuzzer is not linked (the
 * ordinary gcc build): runs the target once on each file named, so the
 * corpus and every crash ever found run as regression tests in CI.
 * Prints "N passed, 0 failed"; a crash is the test's failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

int main(int argc, char **argv)
{
	unsigned n = 0;
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, got;
		do {
			if (len == cap) {
				cap = cap ? 2 * cap : 65536;
				uint8_t *nb = realloc(buf, cap);
				if (!nb) {
					fprintf(stderr, "replay: out of memory\n");
					return 1;
				}
				buf = nb;
			}
			got = fread(buf + len, 1, cap - len, f);
			len += got;
		} while (got > 0);
		const int bad = ferror(f);
		fclose(f);
		if (bad) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		n++;
	}
	printf("%u passed, 0 failed\n", n);
	return n ? 0 : 1;
}
