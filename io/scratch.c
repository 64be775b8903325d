#include "io/scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/util.h"

static int open_tmp(const char *dir)
{
#ifdef O_TMPFILE
	const int tfd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (tfd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return tfd;
#endif
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/tristream-scratch-XXXXXX", dir) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	const int fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

int io_scratch_map(const char *dir, uint64_t bytes, struct io_scratch **out, struct tsg_err *err)
{
	int rc = TSG_OK;
	struct io_scratch *s = calloc(1, sizeof(*s));
	*out = NULL;
	if (!s)
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	s->bytes = bytes ? bytes : 1;
	s->mem = MAP_FAILED;
	s->fd = open_tmp(dir);
	if (s->fd < 0) {
		rc = tsg_fail_errno(err, TSG_EIO, errno, "cannot make a scratch file in %s", dir);
		goto fail;
	}
	const int e = posix_fallocate(s->fd, 0, (off_t)s->bytes);
	if (e) {
		char b[32];
		rc = tsg_fail_errno(err, TSG_EIO, e,
				    "cannot reserve %s of scratch space in %s",
				    tsg_fmt_bytes(s->bytes, b, sizeof(b)), dir);
		goto fail;
	}
	s->mem = mmap(NULL, s->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (s->mem == MAP_FAILED) {
		rc = tsg_fail_errno(err, TSG_ENOMEM, errno, "cannot map the scratch file in %s", dir);
		goto fail;
	}
	*out = s;
	return TSG_OK;
fail:
	io_scratch_unmap(s);
	return rc;
}

void io_scratch_unmap(struct io_scratch *s)
{
	if (!s)
		return;
	if (s->mem != MAP_FAILED && s->mem)
		munmap(s->mem, s->bytes);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}
