#include "io/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

int io_temp_open(const char *path, char **tmp)
{
	return io_temp_open_as(path, "tmp", tmp);
}

int io_temp_open_as(const char *path, const char *tag, char **tmp)
{
	const size_t n = strlen(path) + strlen(tag) + 10;
	if (!(*tmp = malloc(n))) {
		errno = ENOMEM;
		return -1;
	}
	snprintf(*tmp, n, "%s.%s.XXXXXX", path, tag);
	int fd = mkstemp(*tmp), e = errno;
	/* mkstemp makes it 0600; an output is read by others like any */
	if (fd >= 0 && fchmod(fd, 0644) != 0) {
		e = errno;
		close(fd);
		unlink(*tmp);
		fd = -1;
	}
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
		errno = e;
	}
	return fd;
}

/* links the open file fd at path: 0, or the errno (EEXIST where path is taken) */
static int link_fd(int fd, const char *path)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
}

/* best effort: some file systems refuse a directory's fsync, and the file
 * is whole either way */
void io_sync_dir(const char *path)
{
	char *copy = strdup(path);
	if (!copy)
		return;
	const int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

int io_unnamed_publish(int fd, const char *path, struct tsg_err *err)
{
	char tmp[4096];
	int e = link_fd(fd, path);
	if (e == 0)
		return TSG_OK;
	if (e != EEXIST)
		return tsg_fail_errno(err, TSG_EIO, e, "%s: cannot link output", path);
	for (int attempt = 0; attempt < 100; attempt++) {
		snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%d", path, (long)getpid(), attempt);
		if ((e = link_fd(fd, tmp)) == 0) {
			if (rename(tmp, path) != 0) {
				e = errno;
				unlink(tmp);
				return tsg_fail_errno(err, TSG_EIO, e, "%s: rename", path);
			}
			return TSG_OK;
		}
		if (e != EEXIST)
			return tsg_fail_errno(err, TSG_EIO, e, "%s: cannot link output", path);
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
	/* a crawl's files, then its transpose's (BASE-t.*) */
	static const char *const ext[] = { "", ".graph", ".offsets", ".properties",
					   "-t.graph", "-t.offsets", "-t.properties" };
	enum { NEXT = sizeof(ext) / sizeof(*ext) };
	const size_t nout = out_crawl >= 2 ? NEXT : out_crawl ? 4 : 1;
	char a[4096];
	for (size_t j = 0; j < nout; j++) {
		snprintf(which, len, "%s%s", out, ext[j]);
		for (size_t i = 0; i < NEXT; i++) {
			snprintf(a, sizeof(a), "%s%s", in, ext[i]);
			if (same_file(a, which))
				return 1;
		}
	}
	return 0;
}

/* io_afile_open; new_only: never written in place (a new file is only
 * named where nothing is: a FIFO made there meanwhile must not be opened,
 * which would block) */
static int afile_open(const char *path, struct io_afile *a, int new_only, struct tsg_err *err)
{
	memset(a, 0, sizeof(*a));
	struct stat st;
	if (!new_only && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
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
		if ((fd = io_temp_open(path, &a->tmp)) < 0) {
			const int e = errno;
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

int io_afile_open(const char *path, struct io_afile *a, struct tsg_err *err)
{
	return afile_open(path, a, 0, err);
}

/* A new file's claim (io_afile_create_locked): set where a file was at the
 * target already; else the descriptor of the file named, locked before
 * it got the name */
struct claim {
	int taken;
	int fd;
};

/* Locks the unnamed or temporary file and keeps a descriptor of it, before
 * it is named: the lock is on the file, so no other process can lock it
 * between its naming and its creator's lock */
static int claim_lock(struct io_afile *a, struct claim *c)
{
	const int fd = fileno(a->f);
	const int flags = fcntl(fd, F_GETFL);
	if (flock(fd, LOCK_EX) != 0 || flags < 0 || fcntl(fd, F_SETFL, flags | O_APPEND) != 0 ||
	    (c->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return errno ? errno : EIO;
	return 0;
}

/* Names a's file at its target only where nothing is there (a link, not
 * a rename), before it is closed: 0 (c->taken set where something was) or
 * the errno. On a file system without hard links (FAT) the temporary is
 * renamed into place: looked for, then named, no worse than before. */
static int publish_new(struct io_afile *a, struct claim *c)
{
	int e = 0;
	if (a->unnamed)
		e = link_fd(fileno(a->f), a->path);
	else if (link(a->tmp, a->path) == 0)
		unlink(a->tmp); /* at once: nothing of it outlives a kill here */
	else if (errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS)
		e = rename(a->tmp, a->path) == 0 ? 0 : errno;
	else
		e = errno;
	if (e == EEXIST) {
		c->taken = 1;
		e = 0;
	}
	return e;
}

/* io_afile_commit's work; with c (a new file only), a file already at the
 * target is left as it is and c->taken set */
static int commit(struct io_afile *a, struct claim *c, struct tsg_err *err)
{
	int e = 0, named = 0;
	errno = 0;
	if (fflush(a->f) != 0 || ferror(a->f) ||
	    ((a->tmp || a->unnamed) && fsync(fileno(a->f)) != 0))
		e = errno ? errno : EIO;
	if (!e && c) {
		if (!(e = claim_lock(a, c)) && !(e = publish_new(a, c)))
			named = !c->taken;
	} else if (!e && a->unnamed) {
		const int rc = io_unnamed_publish(fileno(a->f), a->path, err);
		if (rc) {
			io_afile_abort(a);
			return rc;
		}
		named = 1;
	}
	if (fclose(a->f) != 0 && !e)
		e = errno ? errno : EIO;
	a->f = NULL;
	if (!e && !c && a->tmp) {
		if (rename(a->tmp, a->path) != 0)
			e = errno;
		else
			named = 1;
	}
	if (named && a->tmp) { /* gone under that name: abort must not remove it */
		free(a->tmp);
		a->tmp = NULL;
	}
	if (c && !named && c->fd >= 0) { /* failed or taken: no claim */
		close(c->fd);
		c->fd = -1;
	}
	if (e) {
		const int rc = tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot write",
					      a->path);
		io_afile_abort(a);
		return rc;
	}
	if (named)
		io_sync_dir(a->path);
	io_afile_abort(a); /* frees the names (and drops a temporary not named) */
	return TSG_OK;
}

int io_afile_commit(struct io_afile *a, struct tsg_err *err)
{
	return commit(a, NULL, err);
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

static int write_all(const char *path, const void *data, size_t len, struct claim *c,
		     struct tsg_err *err)
{
	struct io_afile a;
	int rc = afile_open(path, &a, c != NULL, err);
	if (rc)
		return rc;
	if (fwrite(data, 1, len, a.f) != len) {
		const int e = errno;
		io_afile_abort(&a);
		return tsg_fail_errno(err, tsg_status_from_errno(e), e, "%s: cannot write", path);
	}
	return commit(&a, c, err);
}

int io_afile_write_all(const char *path, const void *data, size_t len, struct tsg_err *err)
{
	return write_all(path, data, len, NULL, err);
}

int io_afile_create_locked(const char *path, const void *data, size_t len, int *fd,
			   struct tsg_err *err)
{
	struct claim c = { .taken = 0, .fd = -1 };
	const int rc = write_all(path, data, len, &c, err);
	*fd = rc == TSG_OK ? c.fd : -1; /* -1 where taken (commit closed it) */
	return rc;
}
