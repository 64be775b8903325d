#include "src/checkpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "io/atomic.h"
#include "io/format.h"

enum { HDR = 64, REC = 32 };
enum rec_type { REC_PLAN = 1, REC_UNIT = 2, REC_DONE = 3 };

#define CKPT_MAGIC "TSGCKPT1"

struct ckpt {
	char *path;
	int fd;
	uint64_t hcheck;          /* the header's checksum: records are tied to it */
	int have_plan, finished;
	uint64_t plan_key, total;
	uint64_t covered;         /* the total's units where not every one of the plan's
				   * (ckpt_finish_recorded), else 0 */
	uint32_t nunits;
	uint8_t *unit_done;       /* per unit, once planned */
	uint64_t *unit_count;
	/* unit records read before the plan was stated */
	uint32_t *pend_k;
	uint64_t *pend_n;
	size_t npend;
	struct ckpt_info info;
};

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i); }
static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> 8 * i); }
static uint32_t get32(const uint8_t *p) { uint32_t v = 0; for (int i = 3; i >= 0; i--) v = v << 8 | p[i]; return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v = 0; for (int i = 7; i >= 0; i--) v = v << 8 | p[i]; return v; }

uint64_t ckpt_key(const uint64_t *w, uint64_t n, uint64_t seed)
{
	uint8_t buf[8];
	uint64_t h = seed ^ 0x9e3779b97f4a7c15ull;
	for (uint64_t i = 0; i < n; i++) {
		put64(buf, w[i] ^ h);
		h = io_checksum(buf, 8) + i;
	}
	return h;
}

static void encode_rec(const struct ckpt *c, uint8_t *r, uint32_t type, uint32_t index,
		       uint64_t a, uint64_t b)
{
	put32(r, type);
	put32(r + 4, index);
	put64(r + 8, a);
	put64(r + 16, b);
	put64(r + 24, io_checksum(r, 24) ^ c->hcheck);
}

/* What a unit's record carries beside its index: a key of the plan and
 * the index, so that a record moved to another index, its checksum
 * recomputed, names a unit it was not counted for (never 0). */
static uint64_t unit_key(const struct ckpt *c, uint32_t k)
{
	const uint64_t w[2] = { c->plan_key, k };
	return ckpt_key(w, 2, c->hcheck) | 1;
}

static int append(struct ckpt *c, uint32_t type, uint32_t index, uint64_t a, uint64_t b,
		  struct tsg_err *err)
{
	uint8_t r[REC];
	encode_rec(c, r, type, index, a, b);
	const ssize_t n = write(c->fd, r, REC);
	if (n != REC || fdatasync(c->fd) != 0) {
		const int e = n < 0 || n == REC ? errno : ENOSPC;
		if (n > 0 && n < REC) /* take the piece back: the file stays whole records */
			(void)!ftruncate(c->fd, lseek(c->fd, 0, SEEK_END) - n);
		return tsg_fail_errno(err, tsg_status_from_errno(e), e, "checkpoint %s: cannot record",
				      c->path);
	}
	return TSG_OK;
}

/* A fresh checkpoint's header, named only where no file is there yet and
 * locked before it is named: *fd its descriptor, or -1 where a file came
 * since the caller looked. Two runs starting one checkpoint at once each
 * replaced the other's file (the one replaced went on recording into a
 * file no longer named); and a lock taken after the naming could go to the
 * other run, which would then count while the file's maker was refused. */
static int create(const char *path, uint64_t graph_key, uint64_t opts_key, int *fd,
		  struct tsg_err *err)
{
	uint8_t h[HDR] = { 0 };
	memcpy(h, CKPT_MAGIC, 8);
	put64(h + 8, graph_key);
	put64(h + 16, opts_key);
	put64(h + 56, io_checksum(h, 56));
	return io_afile_create_locked(path, h, HDR, fd, err);
}

static int damaged(const struct ckpt *c, const char *what, struct tsg_err *err)
{
	return tsg_fail(err, TSG_EINPUT, "checkpoint %s is damaged: %s (remove it to start over)",
			c->path, what);
}

struct unit_rec {
	uint32_t k;
	uint64_t n;
};

static int unit_cmp(const void *a, const void *b)
{
	const struct unit_rec *x = a, *y = b;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* What the records must add up to. The checksums find damage, not a
 * record rewritten with its checksum recomputed; what can be checked is
 * that the records agree with each other: each unit recorded once, and a
 * total that is the sum of the units (at least that sum: a rank's file
 * under mpirun holds its own units and the job's total; where every unit
 * of the plan is in the file, exactly it). A record that moves a count to
 * another unit, or changes one, and agrees with the rest is not found:
 * only counting the unit again could tell. */
static int check_sums(struct ckpt *c, struct tsg_err *err)
{
	char what[160];
	struct unit_rec *u = malloc((c->npend ? c->npend : 1) * sizeof(*u));
	if (!u)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	for (size_t i = 0; i < c->npend; i++)
		u[i] = (struct unit_rec){ c->pend_k[i], c->pend_n[i] };
	qsort(u, c->npend, sizeof(*u), unit_cmp);
	uint64_t sum = 0;
	int rc = TSG_OK;
	for (size_t i = 0; i < c->npend && rc == TSG_OK; i++) {
		if (i > 0 && u[i].k == u[i - 1].k) {
			snprintf(what, sizeof(what), "unit %u is recorded twice", u[i].k);
			rc = damaged(c, what, err);
		} else if (__builtin_add_overflow(sum, u[i].n, &sum)) {
			rc = damaged(c, "its units' counts sum past 2^64 - 1", err);
		}
	}
	free(u);
	if (rc || !c->finished)
		return rc;
	const int whole = c->covered ? c->npend == c->covered : c->npend == c->nunits;
	if (c->total < sum || (whole && c->total != sum) || (c->covered && !whole)) {
		snprintf(what, sizeof(what), "its total %llu is not the sum of its %zu units' "
			 "counts, %llu", (unsigned long long)c->total, c->npend,
			 (unsigned long long)sum);
		return damaged(c, what, err);
	}
	return TSG_OK;
}

/* Reads the records after the header. */
static int load(struct ckpt *c, uint64_t size, struct tsg_err *err)
{
	const uint64_t nrec = (size - HDR) / REC;
	if ((size - HDR) % REC) { /* a crash while appending: drop the piece */
		if (ftruncate(c->fd, (off_t)(HDR + nrec * REC)) != 0)
			return tsg_fail_errno(err, TSG_EIO, errno, "checkpoint %s", c->path);
		c->info.torn = 1;
	}
	if (nrec == 0)
		return TSG_OK;
	uint8_t *buf = malloc(nrec * REC);
	c->pend_k = malloc(nrec * sizeof(*c->pend_k));
	c->pend_n = malloc(nrec * sizeof(*c->pend_n));
	int rc = TSG_OK;
	if (!buf || !c->pend_k || !c->pend_n) {
		rc = tsg_fail(err, TSG_ENOMEM, "out of memory");
		goto done;
	}
	if (pread(c->fd, buf, nrec * REC, HDR) != (ssize_t)(nrec * REC)) {
		rc = tsg_fail_errno(err, TSG_EIO, errno, "checkpoint %s: read", c->path);
		goto done;
	}
	for (uint64_t i = 0; i < nrec && rc == TSG_OK; i++) {
		const uint8_t *r = buf + i * REC;
		const uint32_t type = get32(r), index = get32(r + 4);
		const uint64_t a = get64(r + 8);
		char what[160];
		snprintf(what, sizeof(what), "record %llu", (unsigned long long)i);
		if (get64(r + 24) != (io_checksum(r, 24) ^ c->hcheck))
			rc = damaged(c, strcat(what, " fails its checksum"), err);
		else if ((type == REC_PLAN) != (i == 0) || (type != REC_UNIT && type != REC_PLAN &&
							    type != REC_DONE))
			rc = damaged(c, strcat(what, " is out of place"), err);
		else if (c->finished) /* the total is the last record a run writes */
			rc = damaged(c, strcat(what, " follows the graph's total"), err);
		else if (type == REC_DONE && index != c->nunits) {
			snprintf(what + strlen(what), sizeof(what) - strlen(what), ", the total, names "
				 "%u units, the plan %u", index, c->nunits);
			rc = damaged(c, what, err);
		} else if (type == REC_PLAN) {
			c->have_plan = 1;
			c->plan_key = a;
			c->nunits = index;
		} else if (type == REC_DONE) {
			c->finished = 1;
			c->total = a;
			c->covered = get64(r + 16);
		} else if (index >= c->nunits) {
			rc = damaged(c, strcat(what, " names a unit past the plan"), err);
		} else if (get64(r + 16) != unit_key(c, index)) {
			rc = damaged(c, strcat(what, " carries another unit's key (moved, or made by "
					       "an older build)"), err);
		} else {
			c->pend_k[c->npend] = index;
			c->pend_n[c->npend++] = a;
		}
	}
	if (rc == TSG_OK)
		rc = check_sums(c, err);
done:
	free(buf);
	return rc;
}

int ckpt_open(const char *path, uint64_t graph_key, uint64_t opts_key, struct ckpt **out,
	      struct tsg_err *err)
{
	*out = NULL;
	struct ckpt *c = calloc(1, sizeof(*c));
	if (!c || !(c->path = strdup(path))) {
		free(c);
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	}
	c->fd = -1;
	int rc = TSG_OK;
	struct stat st;
	if (stat(path, &st) != 0) {
		if (errno != ENOENT) {
			rc = tsg_fail_errno(err, TSG_EIO, errno, "checkpoint %s", path);
			goto fail;
		}
		if (lstat(path, &st) == 0) { /* a link to nothing: the file cannot be named there */
			rc = tsg_fail(err, TSG_EUSAGE, "checkpoint %s is a symbolic link to a file that "
				      "does not exist; give the file's own path", path);
			goto fail;
		}
		/* a test hook: tests/batch.sh starts a second run in this pause */
		tsg_test_pause("TSG_TEST_CKPT_CREATE_PAUSE_MS", "no checkpoint yet: a pause before "
			       "creating it");
		if ((rc = create(path, graph_key, opts_key, &c->fd, err)))
			goto fail;
		c->info.created = c->fd >= 0; /* else another run's: opened, locked, checked as any */
	}
	if (c->fd < 0) {
		c->fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
		if (c->fd < 0) {
			rc = tsg_fail_errno(err, tsg_status_from_errno(errno), errno, "checkpoint %s",
					    path);
			goto fail;
		}
		if (flock(c->fd, LOCK_EX | LOCK_NB) != 0) {
			rc = tsg_fail(err, TSG_EUSAGE, "checkpoint %s is in use by another run", path);
			goto fail;
		}
	}
	uint8_t h[HDR];
	if (fstat(c->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = tsg_fail(err, TSG_EUSAGE, "checkpoint %s is not a regular file", path);
		goto fail;
	}
	if (st.st_size < HDR || pread(c->fd, h, HDR, 0) != HDR || memcmp(h, CKPT_MAGIC, 8) != 0 ||
	    get64(h + 56) != io_checksum(h, 56)) {
		rc = tsg_fail(err, TSG_EINPUT, "%s is not a tristream checkpoint, or its header is "
			      "damaged (remove it to start over)", path);
		goto fail;
	}
	c->hcheck = get64(h + 56);
	if (get64(h + 8) != graph_key) {
		rc = tsg_fail(err, TSG_EUSAGE, "checkpoint %s was made for another graph (or "
			      "another version of this file)", path);
		goto fail;
	}
	if (get64(h + 16) != opts_key) {
		rc = tsg_fail(err, TSG_EUSAGE, "checkpoint %s was made with other counting options "
			      "(device, layout, --gpu-mem, --partitions, --batches, --scheme, "
			      "--seed or --kernel); rerun with the same ones", path);
		goto fail;
	}
	if ((rc = load(c, (uint64_t)st.st_size, err)))
		goto fail;
	*out = c;
	return TSG_OK;
fail:
	ckpt_close(c);
	return rc;
}

void ckpt_close(struct ckpt *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	free(c->unit_done);
	free(c->unit_count);
	free(c->pend_k);
	free(c->pend_n);
	free(c->path);
	free(c);
}

int ckpt_finished(const struct ckpt *c, int *finished, uint64_t *total, struct tsg_err *err)
{
	*total = c->total;
	*finished = c->finished;
	if (c->finished && c->npend != (c->covered ? c->covered : c->nunits)) {
		char what[160];
		snprintf(what, sizeof(what), "it holds the graph's total but %zu of its %u units' "
			 "counts", c->npend, c->nunits);
		*finished = 0;
		return damaged(c, what, err);
	}
	return TSG_OK;
}

int ckpt_plan(struct ckpt *c, uint64_t plan_key, uint32_t nunits, struct tsg_err *err)
{
	if (c->have_plan && (c->plan_key != plan_key || c->nunits != nunits))
		return tsg_fail(err, TSG_EUSAGE, "checkpoint %s: the units planned now (%u) differ "
				"from the checkpoint's (%u): the plan depends on the free GPU memory "
				"unless --gpu-mem and --partitions (or --batches) are given, and on "
				"the build that made it; rerun with the values and the build of the "
				"first run, or remove the checkpoint", c->path,
				nunits, c->nunits);
	free(c->unit_done);
	free(c->unit_count);
	c->unit_done = calloc(nunits ? nunits : 1, 1);
	c->unit_count = calloc(nunits ? nunits : 1, sizeof(*c->unit_count));
	if (!c->unit_done || !c->unit_count)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	if (!c->have_plan) {
		c->plan_key = plan_key;
		c->nunits = nunits;
		int rc = append(c, REC_PLAN, nunits, plan_key, 0, err);
		if (rc)
			return rc;
		c->have_plan = 1;
	}
	for (size_t i = 0; i < c->npend; i++) { /* each once (check_sums) */
		c->unit_done[c->pend_k[i]] = 1;
		c->unit_count[c->pend_k[i]] = c->pend_n[i];
	}
	return TSG_OK;
}

int ckpt_take(struct ckpt *c, uint32_t k, uint64_t *count)
{
	if (!c->unit_done || k >= c->nunits || !c->unit_done[k])
		return 0;
	*count = c->unit_count[k];
	c->info.resumed++;
	return 1;
}

int ckpt_peek(const struct ckpt *c, uint32_t k, uint64_t *count)
{
	if (!c->unit_done || k >= c->nunits || !c->unit_done[k])
		return 0;
	*count = c->unit_count[k];
	return 1;
}

int ckpt_record(struct ckpt *c, uint32_t k, uint64_t count, struct tsg_err *err)
{
	if (!c->unit_done || k >= c->nunits)
		return tsg_fail(err, TSG_EINTERNAL, "checkpoint: unit %u recorded outside the plan", k);
	int rc = append(c, REC_UNIT, k, count, unit_key(c, k), err);
	if (rc == TSG_OK) {
		c->unit_done[k] = 1;
		c->unit_count[k] = count;
		c->info.recorded++;
		/* a test hook: a count slowed a record at a time, so that a
		 * signal after the first lands before the last (tests/gpu/run.sh) */
		tsg_test_pause("TSG_TEST_CKPT_RECORD_PAUSE_MS", "a unit recorded");
	}
	return rc;
}

static int finish(struct ckpt *c, uint64_t total, uint64_t covered, struct tsg_err *err)
{
	if (c->finished)
		return TSG_OK;
	int rc = append(c, REC_DONE, c->nunits, total, covered, err);
	if (rc == TSG_OK) {
		c->finished = 1;
		c->total = total;
		c->covered = covered;
	}
	return rc;
}

int ckpt_finish(struct ckpt *c, uint64_t total, struct tsg_err *err)
{
	return finish(c, total, 0, err);
}

int ckpt_finish_recorded(struct ckpt *c, uint64_t total, struct tsg_err *err)
{
	uint64_t n = 0;
	for (uint32_t k = 0; c->unit_done && k < c->nunits; k++)
		n += c->unit_done[k] != 0;
	return finish(c, total, n ? n : 1, err); /* 0 would mean every unit of the plan */
}

const struct ckpt_info *ckpt_info(const struct ckpt *c) { return &c->info; }
