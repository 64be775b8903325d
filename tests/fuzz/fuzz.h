/*
 * fuzz.h - what the fuzz targets share: the libFuzzer entry point each
 * defines, and a file made of the fuzzer's bytes (a memfd, named by its
 * /proc/self/fd path, so the readers open it as they open any file).
 */
#ifndef TSG_FUZZ_H
#define TSG_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes data to a fresh memfd; fills path; returns the fd (close it) or -1. */
int fuzz_file(const uint8_t *data, size_t size, char *path, size_t path_len);

/* A directory of this process's own for a target's files (in $TMPDIR,
 * else /tmp), made on the first call and removed with its files at exit;
 * NULL where it cannot be made. */
const char *fuzz_dir(const char *tag);

#endif
