#include "io/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

enum {
	URING_DEPTH = 32,            /* enough reads in flight to saturate NVMe */
	/* 16 MiB a request: the lent hosts' virtual disks stream faster with
	 * large requests. Cold R-MAT 26 (8.95 GB) by `tristream info` on an
	 * H100's host, 2 runs each: 7.41/7.52 s at 1 MiB, 7.63/7.75 at 4 MiB,
	 * 6.13/6.53 at 16 MiB, 6.35/6.73 at 64 MiB, dd 5.20/5.62 s
	 * (bench/raw/h100-2026-11-27-s33-callB/io.txt); R-MAT 24 on the
	 * build machine, 3 runs each: 2.3-5.5 s at 1 MiB, 1.23-1.30 at 16 */
	URING_CHUNK = 16u << 20,
	PREAD_CHUNK = 1u << 23,      /* a reader's step: small enough to stream */
	PREAD_HELPERS = 4,           /* threads copying a cached file out in parallel */
	PROBE_WINDOWS = 256,         /* page-cache probes of a large file */
	PROBE_WINDOW = 1u << 18,     /* 256 KiB each */
};

/* auto reads a file with buffered reads when at least this share of it is
 * already in the page cache: O_DIRECT would fetch it from the disk again
 * (about 1.3 GB/s on the H100's host) where copying out of the cache runs
 * at several GB/s. */
#define CACHED_ENOUGH 0.9

struct io_file {
	char *path;
	int fd;       /* O_DIRECT in uring mode */
	int plain_fd; /* always buffered */
	enum io_mode mode;
	uint64_t size;
	uint8_t *map;
	double cached; /* share found in the page cache under auto, or -1 */
	struct io_uring ring;
	uint64_t chunk; /* uring: bytes a read (URING_CHUNK, or TSG_URING_CHUNK_KIB) */
	int ring_ok;
	/* uring: submissions made, and the one that is to fail as if the
	 * kernel refused it (TSG_TEST_URING_FAIL_SUBMIT, for tests; 0: none) */
	unsigned submits, fail_submit;
	char note[256];
};

int io_mode_parse(const char *s, enum io_mode *out)
{
	static const char *const names[] = { "auto", "mmap", "pread", "uring" };
	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum io_mode)i;
			return TSG_OK;
		}
	return TSG_EUSAGE;
}

const char *io_mode_name(enum io_mode m)
{
	static const char *const names[] = { "auto", "mmap", "pread", "uring" };
	return names[m];
}

/*
 * The share of the file's pages in the page cache, by mincore(2) over a
 * mapping that touches no page: the whole file up to PROBE_WINDOWS windows'
 * worth, past that PROBE_WINDOWS windows spread evenly over it (a few
 * hundred syscalls' worth of page-cache lookups however large the file).
 * -1 where it cannot be told (mapping or mincore refused).
 */
static double cached_share(int fd, uint64_t size)
{
	const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	if (size == 0)
		return -1;
	void *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -1;
	const uint64_t whole = (uint64_t)PROBE_WINDOWS * PROBE_WINDOW;
	const uint64_t windows = size <= whole ? 1 : PROBE_WINDOWS;
	const uint64_t span = size <= whole ? size : PROBE_WINDOW;
	unsigned char vec[(PROBE_WINDOWS * (uint64_t)PROBE_WINDOW) / 4096];
	uint64_t seen = 0, in = 0;
	double share = -1;
	for (uint64_t w = 0; w < windows; w++) {
		/* window starts on a page boundary; the last one ends at the file's end */
		uint64_t at = windows == 1 ? 0 : (size - span) / (windows - 1) * w / page * page;
		uint64_t len = size - at < span ? size - at : span;
		uint64_t pages = (len + page - 1) / page;
		if (pages > sizeof(vec) || mincore((uint8_t *)map + at, len, vec) != 0)
			goto done;
		for (uint64_t i = 0; i < pages; i++)
			in += vec[i] & 1;
		seen += pages;
	}
	share = seen ? (double)in / (double)seen : -1;
done:
	munmap(map, size);
	return share;
}

static int open_uring(struct io_file *f, const char *path)
{
	const char *off = getenv("TSG_DISABLE_URING"); /* lets tests take the fallback path */
	if (off && *off && strcmp(off, "0") != 0) {
		snprintf(f->note, sizeof(f->note), "io_uring disabled by TSG_DISABLE_URING");
		return -1;
	}
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		snprintf(f->note, sizeof(f->note), "O_DIRECT unavailable on this file system (%s)",
			 strerror(errno));
		return -1;
	}
	int rc = io_uring_queue_init(URING_DEPTH, &f->ring, 0);
	if (rc < 0) {
		snprintf(f->note, sizeof(f->note), "io_uring unavailable (%s)", strerror(-rc));
		close(fd);
		return -1;
	}
	f->fd = fd;
	f->ring_ok = 1;
	/* a bench's knob, for trying other request sizes on a disk (dd of
	 * R-MAT 26 on an H100's host: 4.5 s with 64 MiB blocks, 5.8-7.3 s
	 * with 1 MiB; bench/raw/h100-2026-11-27-s33-callA/io.txt) */
	f->chunk = URING_CHUNK;
	const char *kib = getenv("TSG_URING_CHUNK_KIB");
	if (kib && *kib) {
		char *end;
		const unsigned long long k = strtoull(kib, &end, 10);
		if (*end == '\0' && k >= 4 && k <= 65536 && k % 4 == 0)
			f->chunk = k << 10;
	}
	const uint64_t fail = tsg_env_positive("TSG_TEST_URING_FAIL_SUBMIT", 0);
	f->fail_submit = fail <= 1000000 ? (unsigned)fail : 0;
	return 0;
}

/*
 * After the kernel refused a submission (err_no): the reads it had taken
 * before (submitted: those in flight less those still in the ring) write
 * into the caller's buffer, so they are waited for before the read
 * returns; then the ring, which still holds the refused entries, is taken
 * down and the file read with buffered reads from here on (the note says
 * so). Where even the wait fails nothing more can be done than the ring's
 * teardown, which cancels what it can.
 */
static void ring_retire(struct io_file *f, unsigned submitted, int err_no)
{
	while (submitted > 0) {
		struct io_uring_cqe *cqe;
		const int w = io_uring_wait_cqe(&f->ring, &cqe);
		if (w == -EINTR || w == -EAGAIN)
			continue;
		if (w < 0)
			break;
		io_uring_cqe_seen(&f->ring, cqe);
		submitted--;
	}
	io_uring_queue_exit(&f->ring);
	f->ring_ok = 0;
	if (f->fd != f->plain_fd)
		close(f->fd);
	f->fd = f->plain_fd;
	f->mode = IO_MODE_PREAD;
	snprintf(f->note, sizeof(f->note), "io_uring refused a submission (%s): buffered reads "
		 "from there on", strerror(err_no));
}

int io_file_open(const char *path, enum io_mode mode, unsigned flags, struct io_file **out,
		 struct tsg_err *err)
{
	int rc = TSG_OK;
	struct io_file *f = calloc(1, sizeof(*f));
	if (f) {
		f->fd = f->plain_fd = -1;
		f->cached = -1;
	}
	if (!f || !(f->path = strdup(path))) {
		rc = tsg_fail(err, TSG_ENOMEM, "%s: out of memory opening file", path);
		goto fail;
	}
	f->plain_fd = open(path, O_RDONLY | O_CLOEXEC);
	f->fd = f->plain_fd;
	if (f->plain_fd < 0) {
		rc = tsg_fail_errno(err, errno == ENOENT ? TSG_EINPUT : TSG_EIO, errno, "%s", path);
		goto fail;
	}
	struct stat st;
	if (fstat(f->plain_fd, &st) != 0) {
		rc = tsg_fail_errno(err, TSG_EIO, errno, "%s: stat", path);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = tsg_fail(err, TSG_EINPUT, "%s: not a regular file", path);
		goto fail;
	}
	f->size = (uint64_t)st.st_size;
	f->mode = mode == IO_MODE_AUTO ? IO_MODE_URING : mode;
	if (mode == IO_MODE_AUTO) {
		f->cached = cached_share(f->plain_fd, f->size);
		if (f->cached >= CACHED_ENOUGH)
			f->mode = flags & IO_OPEN_CACHED_MAP ? IO_MODE_MMAP : IO_MODE_PREAD;
	}
	if (f->mode == IO_MODE_MMAP && f->size > 0) {
		f->map = mmap(NULL, f->size, PROT_READ, MAP_SHARED, f->plain_fd, 0);
		if (f->map == MAP_FAILED) {
			f->map = NULL;
			snprintf(f->note, sizeof(f->note), "mmap failed (%s)", strerror(errno));
			f->mode = IO_MODE_PREAD;
		} else {
			madvise(f->map, f->size, MADV_SEQUENTIAL);
		}
	} else if (f->mode == IO_MODE_MMAP) {
		f->mode = IO_MODE_PREAD; /* an empty file cannot be mapped */
	}
	if (f->mode == IO_MODE_URING && open_uring(f, path) != 0)
		f->mode = IO_MODE_PREAD;
	*out = f;
	return TSG_OK;
fail:
	io_file_close(f);
	*out = NULL;
	return rc;
}

void io_file_close(struct io_file *f)
{
	if (!f)
		return;
	if (f->map)
		munmap(f->map, f->size);
	if (f->ring_ok)
		io_uring_queue_exit(&f->ring);
	if (f->fd >= 0 && f->fd != f->plain_fd)
		close(f->fd);
	if (f->plain_fd >= 0)
		close(f->plain_fd);
	free(f->path);
	free(f);
}

uint64_t io_file_size(const struct io_file *f) { return f->size; }
enum io_mode io_file_mode(const struct io_file *f) { return f->mode; }
const char *io_file_note(const struct io_file *f) { return f->note; }
double io_file_cached(const struct io_file *f) { return f->cached; }
double io_cached_enough(void) { return CACHED_ENOUGH; }

double io_path_cached(const char *path)
{
	struct stat st;
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	const double share = fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
				     ? cached_share(fd, (uint64_t)st.st_size) : -1;
	close(fd);
	return share;
}
const char *io_file_path(const struct io_file *f) { return f->path; }
const uint8_t *io_file_map(const struct io_file *f) { return f->map; }

static int check_size(struct io_file *f, struct tsg_err *err)
{
	struct stat st;
	if (fstat(f->plain_fd, &st) != 0)
		return tsg_fail_errno(err, TSG_EIO, errno, "%s: stat", f->path);
	if ((uint64_t)st.st_size != f->size)
		return tsg_fail(err, TSG_EIO, "%s: file changed size while being read (%llu -> %llu "
				"bytes)", f->path, (unsigned long long)f->size,
				(unsigned long long)st.st_size);
	return TSG_OK;
}

/* pread until len bytes are in, the file ends or a read fails (*e: its
 * errno, else 0); the bytes read. */
static uint64_t pread_full(int fd, uint8_t *dst, uint64_t len, uint64_t at, int *e)
{
	uint64_t got = 0;
	*e = 0;
	while (got < len) {
		const ssize_t r = pread(fd, dst + got, len - got, (off_t)(at + got));
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0) {
			*e = r < 0 ? errno : 0;
			break;
		}
		got += (uint64_t)r;
	}
	return got;
}

/* io_pread_parallel's shared state: steps handed out in order, each
 * recorded when read. */
struct par_read {
	int fd;
	uint64_t offset, len, nsteps;
	uint8_t *dst;
	atomic_uint_fast64_t next;  /* the next step to take */
	uint64_t *got;              /* per step: bytes read, under mu */
	unsigned char *done;        /* per step, under mu */
	int failed, err;            /* a step came short; its errno (0: end of file) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static uint64_t step_len(const struct par_read *p, uint64_t k)
{
	const uint64_t at = k * PREAD_CHUNK;
	return p->len - at < PREAD_CHUNK ? p->len - at : PREAD_CHUNK;
}

static void *par_read_main(void *arg)
{
	struct par_read *p = arg;
	for (;;) {
		const uint64_t k = atomic_fetch_add(&p->next, 1);
		if (k >= p->nsteps)
			return NULL;
		int e;
		const uint64_t n = step_len(p, k);
		const uint64_t got = pread_full(p->fd, p->dst + k * PREAD_CHUNK, n,
						p->offset + k * PREAD_CHUNK, &e);
		pthread_mutex_lock(&p->mu);
		p->got[k] = got;
		p->done[k] = 1;
		if (got < n && !p->failed) {
			p->failed = 1;
			p->err = e;
			atomic_store(&p->next, p->nsteps); /* the others stop at their next step */
		}
		pthread_cond_signal(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

int io_pread_parallel(int fd, uint64_t offset, uint64_t len, void *dst, io_ready_fn ready,
		      void *ctx, uint64_t *got)
{
	struct par_read p = { .fd = fd, .offset = offset, .len = len, .dst = dst,
			      .nsteps = (len + PREAD_CHUNK - 1) / PREAD_CHUNK };
	pthread_t th[PREAD_HELPERS];
	unsigned started = 0;
	uint64_t front = 0; /* steps done in order */
	int e = 0, stopped = 0;
	const int helped = p.nsteps > 2; /* a step or two: not worth a thread */
	p.got = helped ? calloc(p.nsteps, sizeof(*p.got)) : NULL;
	p.done = helped ? calloc(p.nsteps, 1) : NULL;
	atomic_init(&p.next, 0);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	for (unsigned i = 0; p.got && p.done && i < PREAD_HELPERS; i++)
		if (pthread_create(&th[i], NULL, par_read_main, &p) == 0)
			started++;
	if (started == 0) { /* short, or no threads or memory to be had: this
			     * thread reads, a step at a time */
		*got = 0;
		for (uint64_t k = 0; k < p.nsteps && e == 0; k++) {
			const uint64_t n = step_len(&p, k), r = pread_full(fd, (uint8_t *)dst + *got, n,
									   offset + *got, &e);
			*got += r;
			if (ready && r && ready(ctx, *got) && r == n && *got < len) {
				e = ECANCELED;
				break;
			}
			if (r < n)
				break;
		}
		goto done;
	}
	pthread_mutex_lock(&p.mu);
	while (front < p.nsteps && !p.failed) {
		if (!p.done[front]) {
			pthread_cond_wait(&p.cv, &p.mu);
			continue;
		}
		while (front < p.nsteps && p.done[front])
			front++;
		if (ready) { /* outside the lock: the helpers go on meanwhile */
			pthread_mutex_unlock(&p.mu);
			const int halt = ready(ctx, front == p.nsteps ? len : front * PREAD_CHUNK);
			pthread_mutex_lock(&p.mu);
			if (halt && front < p.nsteps) {
				stopped = 1;
				atomic_store(&p.next, p.nsteps); /* the helpers stop at their next step */
				break;
			}
		}
	}
	pthread_mutex_unlock(&p.mu);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	*got = 0; /* the stretch read without a gap */
	for (uint64_t k = 0; k < p.nsteps && p.done[k]; k++) {
		*got += p.got[k];
		if (p.got[k] < step_len(&p, k))
			break;
	}
	e = p.failed ? p.err : stopped ? ECANCELED : 0;
done:
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	free(p.got);
	free(p.done);
	return e;
}

/* Buffered reads (io_pread_parallel: a large range on helper threads, as
 * one thread copies a file out of the page cache at about 2 GB/s on the
 * H100's host, slower than O_DIRECT reads it from the disk). A short file
 * is an input error, a failed read an I/O error, each at its offset. */
static int read_plain(struct io_file *f, uint64_t offset, uint64_t len, uint8_t *dst,
		      io_ready_fn ready, void *ctx, struct tsg_err *err)
{
	uint64_t got;
	const int e = io_pread_parallel(f->plain_fd, offset, len, dst, ready, ctx, &got);
	if (e == ECANCELED)
		return tsg_fail(err, TSG_EINTERRUPTED, "%s: read stopped at offset %llu", f->path,
				(unsigned long long)(offset + got));
	if (e)
		return tsg_fail_errno(err, TSG_EIO, e, "%s: read at offset %llu", f->path,
				      (unsigned long long)(offset + got));
	if (got < len)
		return tsg_fail(err, TSG_EINPUT, "%s: unexpected end of file at offset %llu "
				"(truncated?)", f->path, (unsigned long long)(offset + got));
	return TSG_OK;
}

/*
 * Keeps URING_DEPTH reads of f->chunk bytes (URING_CHUNK) in flight on the
 * O_DIRECT descriptor.
 * Reads are padded to 4096 bytes as O_DIRECT requires; the format pads every
 * section, so padding stays inside the file. The rare short read (or
 * EINTR/EAGAIN completion) is finished synchronously on the buffered
 * descriptor, which has no alignment rules, instead of being resubmitted.
 * down: the reads are issued from the range's end down, each starting on
 * a multiple of URING_CHUNK from the range's start (the top one, which
 * ends at the padded end, short), so they keep its alignment, and ready is
 * told the bytes in place from the end (io_file_read_stream_down); the
 * queue never drains in between.
 */
static int read_uring(struct io_file *f, uint64_t offset, uint64_t len, uint8_t *dst, int down,
		      io_ready_fn ready, void *ctx, struct tsg_err *err)
{
	struct req { uint64_t pos, len; } reqs[URING_DEPTH];
	unsigned free_slot[URING_DEPTH], nfree = URING_DEPTH, inflight = 0;
	/* next: the bytes issued, from the start up (down: from padded down) */
	uint64_t padded = tsg_align_up(len, 4096), next = 0, told = 0;
	int rc = TSG_OK;
	for (unsigned i = 0; i < URING_DEPTH; i++)
		free_slot[i] = i;
	/* after a failure or a stop nothing more is issued; what is in flight
	 * is drained (its buffers are dst's) */
	while ((rc == TSG_OK && next < padded) || inflight > 0) {
		while (rc == TSG_OK && next < padded && nfree > 0) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&f->ring);
			if (!sqe)
				break;
			unsigned s = free_slot[--nfree];
			if (down) {
				reqs[s].pos = (padded - next - 1) / f->chunk * f->chunk;
				reqs[s].len = padded - next - reqs[s].pos;
			} else {
				reqs[s].pos = next;
				reqs[s].len = padded - next < f->chunk ? padded - next : f->chunk;
			}
			io_uring_prep_read(sqe, f->fd, dst + reqs[s].pos, (unsigned)reqs[s].len,
					   offset + reqs[s].pos);
			io_uring_sqe_set_data64(sqe, s);
			next += reqs[s].len;
			inflight++;
		}
		const int src = ++f->submits == f->fail_submit ? -EIO
							       : io_uring_submit_and_wait(&f->ring, 1);
		if (src < 0 && src != -EINTR && src != -EAGAIN) {
			rc = tsg_fail_errno(err, TSG_EIO, -src, "%s: io_uring submit", f->path);
			ring_retire(f, inflight - io_uring_sq_ready(&f->ring), -src);
			inflight = 0;
			break;
		}
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		io_uring_for_each_cqe(&f->ring, head, cqe) {
			unsigned s = (unsigned)io_uring_cqe_get_data64(cqe);
			int res = cqe->res;
			seen++;
			inflight--;
			free_slot[nfree++] = s;
			if (rc != TSG_OK)
				continue; /* drain the ring, the first error stands */
			if (res < 0 && res != -EINTR && res != -EAGAIN) {
				rc = tsg_fail_errno(err, TSG_EIO, -res, "%s: read at offset %llu", f->path,
						    (unsigned long long)(offset + reqs[s].pos));
				continue;
			}
			uint64_t got = res > 0 ? (uint64_t)res : 0;
			uint64_t need = reqs[s].pos + reqs[s].len <= len ? reqs[s].len
				       : len > reqs[s].pos ? len - reqs[s].pos : 0;
			if (got < need)
				rc = read_plain(f, offset + reqs[s].pos + got, need - got,
						dst + reqs[s].pos + got, NULL, NULL, err);
		}
		io_uring_cq_advance(&f->ring, seen);
		if (rc != TSG_OK && inflight == 0)
			break;
		if (rc == TSG_OK && ready) {
			/* completions come out of order: what is in place is
			 * everything below the lowest read still in flight (down:
			 * above the highest, counted from the end) */
			uint64_t front = down ? padded - next : next;
			unsigned char is_free[URING_DEPTH] = { 0 };
			for (unsigned i = 0; i < nfree; i++)
				is_free[free_slot[i]] = 1;
			for (unsigned i = 0; i < URING_DEPTH; i++) {
				if (is_free[i])
					continue;
				if (down && reqs[i].pos + reqs[i].len > front)
					front = reqs[i].pos + reqs[i].len;
				else if (!down && reqs[i].pos < front)
					front = reqs[i].pos;
			}
			const uint64_t n = down ? (front < len ? len - front : 0)
						: (front < len ? front : len);
			if (n > told && ready(ctx, told = n) && told < len)
				rc = tsg_fail(err, TSG_EINTERRUPTED, "%s: read stopped at offset %llu",
					      f->path, (unsigned long long)(offset + told));
		}
	}
	return rc;
}

/* TSG_OK where [offset, offset + len) lies inside the file as opened; else
 * TSG_EINPUT naming the file. */
static int in_file(const struct io_file *f, uint64_t offset, uint64_t len, struct tsg_err *err)
{
	if (offset > f->size || len > f->size - offset)
		return tsg_fail(err, TSG_EINPUT, "%s: range of %llu bytes at offset %llu runs past the "
				"end of the %llu-byte file (truncated?)", f->path,
				(unsigned long long)len, (unsigned long long)offset,
				(unsigned long long)f->size);
	return TSG_OK;
}

int io_file_read_stream_down(struct io_file *f, uint64_t offset, uint64_t len, void *dst,
			     uint64_t step, io_ready_fn ready, void *ctx, struct tsg_err *err)
{
	int rc = TSG_OK;
	if (step == 0)
		step = IO_DOWN_STEP;
	if (step % 4096)
		return tsg_fail(err, TSG_EINTERNAL, "a downward read's step of %llu bytes",
				(unsigned long long)step);
	if (f->mode == IO_MODE_URING) {
		/* one queue over the whole range: a read a step would let it
		 * drain to nothing at every step's end */
		rc = in_file(f, offset, len, err);
		if (rc == TSG_OK)
			rc = read_uring(f, offset, len, dst, 1, ready, ctx, err);
		if (rc == TSG_OK)
			rc = check_size(f, err);
		return rc;
	}
	/* the steps start at multiples of step from the range's start, so
	 * each keeps O_DIRECT's alignment where the range has it */
	for (uint64_t hi = len; hi > 0 && rc == TSG_OK;) {
		const uint64_t lo = (hi - 1) / step * step;
		rc = io_file_read_stream(f, offset + lo, hi - lo, (uint8_t *)dst + lo, NULL, NULL,
					 err);
		if (rc == TSG_OK && ready && ready(ctx, len - lo) && lo > 0)
			rc = tsg_fail(err, TSG_EINTERRUPTED, "%s: read stopped %llu bytes from the "
				      "range's end", f->path, (unsigned long long)(len - lo));
		hi = lo;
	}
	return rc;
}

void io_file_willneed(struct io_file *f, uint64_t offset, uint64_t len)
{
	if (offset >= f->size || len == 0)
		return;
	if (len > f->size - offset)
		len = f->size - offset;
	const uint64_t lo = offset - offset % 4096; /* madvise wants a page start */
	if (f->mode == IO_MODE_MMAP && f->map)
		(void)madvise(f->map + lo, len + (offset - lo), MADV_WILLNEED);
	else if (f->mode == IO_MODE_PREAD)
		(void)posix_fadvise(f->plain_fd, (off_t)offset, (off_t)len, POSIX_FADV_WILLNEED);
}

int io_file_read(struct io_file *f, uint64_t offset, uint64_t len, void *dst, struct tsg_err *err)
{
	return io_file_read_stream(f, offset, len, dst, NULL, NULL, err);
}

int io_file_read_stream(struct io_file *f, uint64_t offset, uint64_t len, void *dst,
			io_ready_fn ready, void *ctx, struct tsg_err *err)
{
	int rc = in_file(f, offset, len, err);
	if (rc)
		return rc;
	if (f->mode == IO_MODE_MMAP) {
		/* a mapping past the file's end faults (SIGBUS): a file cut since
		 * it was opened is caught here; one cut during the copy is not
		 * (reader.h) */
		if ((rc = check_size(f, err)) != TSG_OK)
			return rc;
		for (uint64_t done = 0; done < len;) {
			const uint64_t n = len - done < PREAD_CHUNK ? len - done : PREAD_CHUNK;
			memcpy((uint8_t *)dst + done, f->map + offset + done, n);
			done += n;
			if (ready && ready(ctx, done) && done < len)
				return tsg_fail(err, TSG_EINTERRUPTED, "%s: read stopped at offset %llu",
						f->path, (unsigned long long)(offset + done));
		}
		rc = TSG_OK;
	} else if (f->mode == IO_MODE_URING) {
		rc = read_uring(f, offset, len, dst, 0, ready, ctx, err);
	} else {
		rc = read_plain(f, offset, len, dst, ready, ctx, err);
	}
	if (rc == TSG_OK)
		rc = check_size(f, err);
	return rc;
}
