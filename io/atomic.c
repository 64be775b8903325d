#include "io/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int io_unnamed_open(const char *path, mode_t mode)
{
#ifdef O_TMPFILE
	char *copy = strdup(path);
	if (!copy) {
		errno = ENOMEM;
		return -1;
	}
	const int fd = open(dirname(copy), O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
	const int e = errno;
	free(copy);
	errno = e;
	return fd;
#else
	(void)path;
	(void)mode;
	errno = EOPNOTSUPP;
	return -1;
#endif
}

int io_unnamed_publish(int fd, const char *path, struct tsg_err *err)
{
	char proc[64], tmp[4096];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0)
		return TSG_OK;
	if (errno != EEXIST)
		return tsg_fail_errno(err, TSG_EIO, errno, "%s: cannot link output", path);
	for (int attempt = 0; attempt < 100; attempt++) {
		snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%d", path, (long)getpid(), attempt);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0) {
			if (rename(tmp, path) != 0) {
				const int e = errno;
				unlink(tmp);
				return tsg_fail_errno(err, TSG_EIO, e, "%s: rename", path);
			}
			return TSG_OK;
		}
		if (errno != EEXIST)
			return tsg_fail_errno(err, TSG_EIO, errno, "%s: cannot link output", path);
	}
	return tsg_fail(err, TSG_EIO, "%s: cannot find a free temporary name", path);
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int io_output_is_input(const char *in, const char *out, int out_crawl, char *which, size_t len)
{
	static const char *const ext[] = { "", ".graph", ".offsets", ".properties" };
	enum { NEXT = sizeof(ext) / sizeof(*ext) };
	char a[4096];
	for (size_t j = 0; j < (out_crawl ? NEXT : 1); j++) {
		snprintf(which, len, "%s%s", out, ext[j]);
		for (size_t i = 0; i < NEXT; i++) {
			snprintf(a, sizeof(a), "%s%s", in, ext[i]);
			if (same_file(a, which))
				return 1;
		}
	}
	return 0;
}

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
	if (!(a->path = strdup(path)))
		return tsg_fail(err, TSG_ENOMEM, "out of memory");
	int fd = io_unnamed_open(path, 0644);
	if (fd >= 0) {
		a->unnamed = 1;
	} else { /* no O_TMPFILE here: a named temporary that abort removes */
		const size_t n = strlen(path) + 16;
		if (!(a->tmp = malloc(n))) {
			io_afile_abort(a);
			return tsg_fail(err, TSG_ENOMEM, "out of memory");
		}
		snprintf(a->tmp, n, "%s.tmp.XXXXXX", path);
		fd = mkstemp(a->tmp);
		/* mkstemp makes it 0600; a result is read by others like any output */
		if (fd >= 0 && fchmod(fd, 0644) != 0) {
			const int e = errno;
			close(fd);
			unlink(a->tmp);
			errno = e;
			fd = -1;
		}
		if (fd < 0) {
			const int e = errno;
			free(a->tmp);
			a->tmp = NULL;
			io_afile_abort(a);
			return tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot create",
					      path);
		}
	}
	if (!(a->f = fdopen(fd, "w"))) {
		const int e = errno;
		close(fd);
		io_afile_abort(a);
		return tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot create", path);
	}
	return TSG_OK;
}

int io_afile_commit(struct io_afile *a, struct tsg_err *err)
{
	int e = 0;
	errno = 0;
	if (fflush(a->f) != 0 || ferror(a->f) ||
	    ((a->tmp || a->unnamed) && fsync(fileno(a->f)) != 0))
		e = errno ? errno : EIO;
	if (!e && a->unnamed) {
		const int rc = io_unnamed_publish(fileno(a->f), a->path, err);
		if (rc) {
			io_afile_abort(a);
			return rc;
		}
	}
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
