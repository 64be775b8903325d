/*
 * util.h - small helpers with no better home: sizes, clocks, thread counts,
 * and a dynamic parallel-for over an index range.
 */
#ifndef TSG_UTIL_H
#define TSG_UTIL_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#include "base/error.h"

/* Parses "123", "64K", "1.5G", "2GiB" (powers of 1024) into bytes: decimal
 * digits with an optional fraction, no sign, space, hex or exponent. */
int tsg_parse_size(const char *s, uint64_t *out);

/* Parses a non-negative decimal integer that must fit in max. */
int tsg_parse_u64(const char *s, uint64_t max, uint64_t *out);

/* A test hook's number: the environment variable name where it holds a
 * positive decimal integer, else dflt (unset, empty, 0 or not a number). */
uint64_t tsg_env_positive(const char *name, uint64_t dflt);
/* A test hook's pause: where the environment variable name holds N
 * (tsg_env_positive, under 60000), says so on stderr ("tristream: NAME:
 * what") and sleeps N ms, so that a test can act at that point of a run. */
void tsg_test_pause(const char *name, const char *what);

/* The index of s among names[0 .. n), or -1 (option values by name). */
int tsg_name_index(const char *const *names, int n, const char *s);

/* Formats bytes as "1.5 GiB" into buf; returns buf. */
const char *tsg_fmt_bytes(uint64_t bytes, char *buf, size_t len);

double tsg_now(void); /* monotonic seconds */
/* A bench's stamp: where TSG_OPEN_PROFILE=1, "process profile: WHAT at
 * EPOCH" on stderr, in wall-clock seconds since 1970 (CLOCK_REALTIME), so
 * that a script can set the process's own steps beside its launch and its
 * end as the shell saw them. Nothing otherwise. */
void tsg_profile_stamp(const char *what);

/* Grows the calling thread's stack by about bytes now (a program's main,
 * first): the stack's mapping keeps that size, so later calls within it
 * take no new address space. Why: under an address-space limit (ulimit -v)
 * the stack's growth on the out-of-memory path itself could fail, ending
 * the process with SIGSEGV rather than exit 4 (tests/oom.sh at 30 MB, one
 * run in six: in the dynamic linker's binding of an error path's first
 * call). */
void tsg_stack_reserve(size_t bytes);
#define TSG_MAIN_STACK_RESERVE (512u << 10) /* a program's main: what tsg_stack_reserve grows */

/* A program's main, the same for the three: the stack reserved
 * (TSG_MAIN_STACK_RESERVE), SIGPIPE and SIGXFSZ ignored (a closed pipe or
 * a file-size limit is then a failed write, EPIPE or EFBIG, exit 5 as
 * documented, not death by the signal: 141 or 153 in the shell),
 * run(argc, argv), and stdout flushed and closed with every error checked
 * (tsg_close_stdout, prog naming the program). Returns the exit status. */
int tsg_main(int argc, char **argv, int (*run)(int, char **), const char *prog);

/* The CPUs this process may run on (its affinity mask), at least 1. */
unsigned tsg_default_threads(void);
unsigned tsg_online_cpus(void); /* the host's online CPUs, at least 1 */
uint64_t tsg_host_ram(void);        /* physical RAM in bytes, 0 if unknown */
/* Memory this process could still take without swapping or meeting its
 * memory cgroup's limit: MemAvailable, lowered to what each cgroup (v2)
 * above the process leaves (memory.max less what it holds, its inactive
 * page cache counted as free). 0 if unknown. */
uint64_t tsg_host_available(void);
/* This process's anonymous resident memory in bytes (RssAnon of
 * /proc/self/status), 0 where it cannot be read. */
uint64_t tsg_self_anon_bytes(void);

/* Asks the kernel to back the whole pages of [p, p + bytes) with huge pages
 * (a hint; ignored where unsupported). Large buffers written once in
 * random order otherwise spend much of their first pass in page faults. */
void tsg_advise_huge(void *p, size_t bytes);

/*
 * Runs fn(ctx, begin, end, tid) over [0, n) in chunks of `chunk` items handed
 * out dynamically to `threads` threads (the caller's thread is one of them).
 * Dynamic hand-out matters because graph work per index is very skewed.
 * The whole range is always processed: if threads cannot be started, the
 * work runs on fewer of them. tid < threads identifies per-thread scratch.
 */
typedef void (*tsg_range_fn)(void *ctx, uint64_t begin, uint64_t end, unsigned tid);
void tsg_parallel_for(unsigned threads, uint64_t n, uint64_t chunk, tsg_range_fn fn, void *ctx);

/* Writes v in decimal at p (no terminator); returns the end. Formatting
 * millions of ids a second is a hot path of text outputs; printf's locale
 * and format parsing make it several times slower. */
static inline char *tsg_put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* Raises *m to at least v (lock-free; threads merge their local maxima). */
static inline void tsg_atomic_max(atomic_uint_fast64_t *m, uint64_t v)
{
	uint_fast64_t cur = atomic_load_explicit(m, memory_order_relaxed);
	while (v > cur && !atomic_compare_exchange_weak(m, &cur, v))
		;
}

/* Lowers *m to at most v (lock-free; threads merge their first offenders). */
static inline void tsg_atomic_min(atomic_uint_fast64_t *m, uint64_t v)
{
	uint_fast64_t cur = atomic_load_explicit(m, memory_order_relaxed);
	while (v < cur && !atomic_compare_exchange_weak(m, &cur, v))
		;
}

/* The first index in [lo, hi) of increasing a whose value is >= x (hi if none). */
static inline uint64_t tsg_lower_bound_u64(const uint64_t *a, uint64_t lo, uint64_t hi, uint64_t x)
{
	while (lo < hi) {
		const uint64_t m = lo + (hi - lo) / 2;
		if (a[m] < x)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

static inline uint64_t tsg_lower_bound_u32(const uint32_t *a, uint64_t lo, uint64_t hi, uint32_t x)
{
	while (lo < hi) {
		const uint64_t m = lo + (hi - lo) / 2;
		if (a[m] < x)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* qsort's comparison of uint32_t values. */
int tsg_cmp_u32(const void *a, const void *b);

/* Sorts n ids increasing: insertion sort below 32; from 2048 on, with tmp
 * (room for n ids), three passes of a radix sort by 11 bits; else qsort. */
void tsg_sort_u32(uint32_t *a, uint32_t *tmp, size_t n);

static inline uint64_t tsg_align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

#endif
