/*
 * sort.h - parallel LSD radix sort of 64-bit keys (edge keys u<<32|v).
 *
 * Radix beats comparison sorting by a wide margin on the billions of edge
 * keys a converter sorts; passes whose byte is constant across all keys are
 * skipped, so small id ranges cost fewer passes.
 */
#ifndef IO_SORT_H
#define IO_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Sorts keys[0..n) ascending using tmp[0..n) as scratch; threads >= 1.
 * Returns 0, or -1 if scratch for per-thread histograms cannot be had. */
int io_sort_u64(uint64_t *keys, uint64_t *tmp, size_t n, unsigned threads);

/* Sorts keys[0..n) ascending on the calling thread, tmp[0..n) scratch:
 * one neighbour list of a hub, too long for insertion sort. */
void io_sort_u32(uint32_t *keys, uint32_t *tmp, size_t n);

/* Removes adjacent duplicates from a sorted array; returns the new length. */
size_t io_unique_u64(uint64_t *keys, size_t n);

#endif
