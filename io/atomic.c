#include "io/atomic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int io_afile_open(const char *path, struct io_afile *a, struct tsg_err *err)
{
	memset(a, 0, sizeof(*a));
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device or a pipe (/dev/stdout, a FIFO): written as it is, since
		 * renaming over it would replace it */
		if (!(a->path = strdup(path)))
			return tsg_fail(err, TSG_ENOMEM, "out of memory");
		if (!(a->f = fopen(path, "w"))) {
			const int e = errno;
			io_afile_abort(a);
			return tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot open", path);
		}
		return TSG_OK;
	}
	const size_t n = strlen(path) + 16;
	a->path = strdup(path);
	a->tmp = malloc(n);
	if (!a->path || !a->tmp) {
		io_afile_abort(a);
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	}
	snprintf(a->tmp, n, "%s.tmp.XXXXXX", path);
	const int fd = mkstemp(a->tmp);
	/* mkstemp makes it 0600; a result is read by others like any output */
	if (fd < 0 || fchmod(fd, 0644) != 0 || !(a->f = fdopen(fd, "w"))) {
		const int e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(a->tmp);
		}
		free(a->tmp);
		a->tmp = NULL;
		io_afile_abort(a);
		return tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot create", path);
	}
	return TSG_OK;
}

int io_afile_commit(struct io_afile *a, struct tsg_err *err)
{
	int e = 0;
	errno = 0;
	if (fflush(a->f) != 0 || ferror(a->f) || (a->tmp && fsync(fileno(a->f)) != 0))
		e = errno ? errno : EIO;
	if (fclose(a->f) != 0 && !e)
		e = errno ? errno : EIO;
	a->f = NULL;
	if (!e && a->tmp && rename(a->tmp, a->path) != 0)
		e = errno;
	if (e) {
		const int rc = tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot write",
					      a->path);
		io_afile_abort(a);
		return rc;
	}
	free(a->tmp);
	a->tmp = NULL;
	io_afile_abort(a); /* frees the names */
	return TSG_OK;
}

void io_afile_abort(struct io_afile *a)
{
	if (a->f)
		fclose(a->f);
	if (a->tmp)
		unlink(a->tmp);
	free(a->tmp);
	free(a->path);
	memset(a, 0, sizeof(*a));
}

int io_afile_write_all(const char *path, const void *data, size_t len, struct tsg_err *err)
{
	struct io_afile a;
	int rc = io_afile_open(path, &a, err);
	if (rc)
		return rc;
	if (fwrite(data, 1, len, a.f) != len) {
		const int e = errno;
		io_afile_abort(&a);
		return tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot write", path);
	}
	return io_afile_commit(&a, err);
}
