#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"

int tsg_parse_size(const char *s, uint64_t *out)
{
	/* Digits, an optional fraction, then the suffix: strtod alone would
	 * also take " 4G", "+4G", "0x10" and "1e3", which no one means. */
	const char *p = s;
	while (isdigit((unsigned char)*p))
		p++;
	if (p == s)
		return TSG_EUSAGE;
	if (*p == '.') {
		const char *const frac = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == frac)
			return TSG_EUSAGE;
	}
	char *end;
	errno = 0;
	const double v = strtod(s, &end);
	if (end != p || errno || !(v >= 0))
		return TSG_EUSAGE;
	double mul = 1;
	switch (toupper((unsigned char)*end)) {
	case 'K': mul = 1024.0; end++; break;
	case 'M': mul = 1024.0 * 1024; end++; break;
	case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
	case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
	default: break;
	}
	if (mul > 1 && (*end == 'i' || *end == 'I'))
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end != '\0' || v * mul >= 1.8e19)
		return TSG_EUSAGE;
	*out = (uint64_t)(v * mul);
	return TSG_OK;
}

void tsg_stack_reserve(size_t bytes)
{
	if (bytes == 0)
		return;
	char pad[bytes];
	volatile char *const v = pad; /* touched a page at a time: the mapping grows */
	for (size_t i = 0; i < bytes; i += 4096)
		v[i] = 0;
	v[bytes - 1] = 0;
}

int tsg_name_index(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

int tsg_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return TSG_EUSAGE;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end != '\0' || v > max)
		return TSG_EUSAGE;
	*out = v;
	return TSG_OK;
}

uint64_t tsg_env_positive(const char *name, uint64_t dflt)
{
	const char *v = getenv(name);
	uint64_t t = 0;
	return v && tsg_parse_u64(v, UINT64_MAX, &t) == TSG_OK && t > 0 ? t : dflt;
}

void tsg_test_pause(const char *name, const char *what)
{
	const uint64_t ms = tsg_env_positive(name, 0);
	if (ms == 0 || ms >= 60000)
		return;
	fprintf(stderr, "tristream: %s: %s\n", name, what);
	usleep((useconds_t)ms * 1000);
}

const char *tsg_fmt_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

double tsg_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void tsg_profile_stamp(const char *what)
{
	const char *v = getenv("TSG_OPEN_PROFILE");
	if (!v || strcmp(v, "1") != 0)
		return;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(stderr, "process profile: %s at %lld.%06ld\n", what, (long long)ts.tv_sec,
		ts.tv_nsec / 1000);
}

unsigned tsg_default_threads(void)
{
	/* the CPUs this process may run on: a launcher or taskset may have
	 * bound it to fewer than the host has, and more threads than those
	 * only take turns */
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	return tsg_online_cpus();
}

unsigned tsg_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

uint64_t tsg_host_ram(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
}

/* The value of `key` (a line "key value [kB]") in a /proc or /sys file,
 * scaled by 1024 where the line says kB; 0 if absent. */
static uint64_t file_value(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[256];
	uint64_t v = 0;
	const size_t kl = strlen(key);
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, key, kl) == 0 && (line[kl] == ' ' || line[kl] == ':')) {
			char *end;
			v = strtoull(line + kl + 1 + (line[kl] == ':'), &end, 10);
			if (strstr(end, "kB"))
				v *= 1024;
			break;
		}
	if (f)
		fclose(f);
	return v;
}

/* A cgroup file holding one number ("max", or v1's near 2^63: no limit,
 * UINT64_MAX). */
static uint64_t cgroup_number(const char *dir, const char *name)
{
	char path[4400], buf[64] = "";
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	const int ok = f && fgets(buf, sizeof(buf), f) != NULL;
	if (f)
		fclose(f);
	if (!ok || strncmp(buf, "max", 3) == 0)
		return UINT64_MAX;
	const uint64_t v = strtoull(buf, NULL, 10);
	return v >= (1ull << 62) ? UINT64_MAX : v;
}

/* What the memory cgroup at root + path and each one above it leave: the
 * tightest limit less what its tasks hold (inactive page cache counted as
 * free, since it is given back first). v2 names its files memory.max,
 * memory.current and inactive_file; v1 memory.limit_in_bytes,
 * memory.usage_in_bytes and total_inactive_file. */
static uint64_t cgroup_left(const char *root, const char *path, int v2, uint64_t avail)
{
	char dir[4400], stat[4500];
	const size_t n = strlen(path);
	for (size_t len = n;; len--) {
		if (len == n || path[len] == '/' || len == 0) {
			snprintf(dir, sizeof(dir), "%s%.*s", root, (int)len, path);
			const uint64_t max = cgroup_number(dir, v2 ? "memory.max" : "memory.limit_in_bytes");
			const uint64_t cur = cgroup_number(dir, v2 ? "memory.current"
								 : "memory.usage_in_bytes");
			if (max != UINT64_MAX && cur != UINT64_MAX) {
				snprintf(stat, sizeof(stat), "%s/memory.stat", dir);
				const uint64_t idle = file_value(stat, v2 ? "inactive_file"
									   : "total_inactive_file");
				const uint64_t held = cur > idle ? cur - idle : 0;
				const uint64_t left = max > held ? max - held : 0;
				if (!avail || left < avail)
					avail = left;
			}
		}
		if (len == 0)
			break;
	}
	return avail;
}

uint64_t tsg_self_anon_bytes(void)
{
	return file_value("/proc/self/status", "RssAnon");
}

uint64_t tsg_host_available(void)
{
	uint64_t avail = file_value("/proc/meminfo", "MemAvailable");
	char line[4096];
	FILE *f = fopen("/proc/self/cgroup", "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = 0;
		const char *ctl = c1 + 1, *path = c2 + 1;
		if (strcmp(line, "0") == 0 && *ctl == 0) { /* v2, alone or beside v1 */
			avail = cgroup_left("/sys/fs/cgroup", path, 1, avail);
			avail = cgroup_left("/sys/fs/cgroup/unified", path, 1, avail);
		} else if (strstr(ctl, "memory")) {
			avail = cgroup_left("/sys/fs/cgroup/memory", path, 0, avail);
		}
	}
	if (f)
		fclose(f);
	return avail;
}

struct pfor {
	tsg_range_fn fn;
	void *ctx;
	uint64_t n, chunk;
	atomic_uint_fast64_t next;
};

struct pfor_arg {
	struct pfor *p;
	unsigned tid;
};

static void pfor_work(struct pfor *p, unsigned tid)
{
	for (;;) {
		uint64_t b = atomic_fetch_add_explicit(&p->next, p->chunk, memory_order_relaxed);
		if (b >= p->n)
			return;
		uint64_t e = b + p->chunk < p->n ? b + p->chunk : p->n;
		p->fn(p->ctx, b, e, tid);
	}
}

static void *pfor_main(void *arg)
{
	struct pfor_arg *a = arg;
	pfor_work(a->p, a->tid);
	return NULL;
}

void tsg_parallel_for(unsigned threads, uint64_t n, uint64_t chunk, tsg_range_fn fn, void *ctx)
{
	struct pfor p = { .fn = fn, .ctx = ctx, .n = n, .chunk = chunk ? chunk : 1 };
	atomic_init(&p.next, 0);
	if (threads <= 1 || n <= p.chunk) {
		pfor_work(&p, 0);
		return;
	}
	pthread_t *tids = calloc(threads, sizeof(*tids));
	struct pfor_arg *args = calloc(threads, sizeof(*args));
	unsigned started = 0;
	if (!tids || !args)
		goto run_here;
	for (unsigned t = 1; t < threads; t++) {
		args[t] = (struct pfor_arg){ &p, t };
		if (pthread_create(&tids[t], NULL, pfor_main, &args[t]) != 0)
			break;
		started = t;
	}
run_here:
	/* Even if no thread could be started the work completes here, on
	 * fewer threads: callers rely on the whole range being processed. */
	pfor_work(&p, 0);
	for (unsigned t = 1; t <= started; t++)
		pthread_join(tids[t], NULL);
	free(tids);
	free(args);
}

void tsg_advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t page = 4096, b = ((uintptr_t)p + page - 1) & ~(page - 1);
	const uintptr_t e = ((uintptr_t)p + bytes) & ~(page - 1);
	if (bytes >= (2u << 20) && e > b)
		(void)madvise((void *)b, e - b, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

int tsg_cmp_u32(const void *x, const void *y)
{
	const uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

void tsg_sort_u32(uint32_t *a, uint32_t *tmp, size_t n)
{
	if (n < 32) {
		for (size_t i = 1; i < n; i++) {
			const uint32_t x = a[i];
			size_t j = i;
			for (; j > 0 && a[j - 1] > x; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	if (n < 2048 || !tmp) {
		qsort(a, n, sizeof(uint32_t), tsg_cmp_u32);
		return;
	}
	uint32_t *from = a, *to = tmp;
	for (int shift = 0; shift < 33; shift += 11) {
		size_t cnt[1 << 11] = { 0 };
		for (size_t i = 0; i < n; i++)
			cnt[from[i] >> shift & 0x7ff]++;
		size_t at = 0;
		for (int d = 0; d < 1 << 11; d++) {
			const size_t c = cnt[d];
			cnt[d] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			to[cnt[from[i] >> shift & 0x7ff]++] = from[i];
		uint32_t *t = from;
		from = to;
		to = t;
	}
	if (from != a) /* three passes: the last went into tmp */
		memcpy(a, from, n * sizeof(uint32_t));
}

int tsg_main(int argc, char **argv, int (*run)(int, char **), const char *prog)
{
	tsg_stack_reserve(TSG_MAIN_STACK_RESERVE);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	tsg_profile_stamp("main");
	const int rc = tsg_close_stdout(run(argc, argv), prog);
	tsg_profile_stamp("main's return");
	return rc;
}
