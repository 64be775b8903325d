#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int fuzz_file(const uint8_t *data, size_t size, char *path, size_t path_len)
{
	const int fd = memfd_create("fuzz", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	for (size_t at = 0; at < size;) {
		const ssize_t n = write(fd, data + at, size - at);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		at += (size_t)n;
	}
	snprintf(path, path_len, "/proc/self/fd/%d", fd);
	return fd;
}

/* The process's one scratch directory: libFuzzer's entry point takes no
 * context, so it lives here, made on the first call and removed at exit. */
static char fuzz_dir_path[4096];

static void remove_dir(void)
{
	DIR *d = opendir(fuzz_dir_path);
	if (d) {
		char p[4400];
		for (const struct dirent *e; (e = readdir(d));)
			if (e->d_name[0] != '.') {
				snprintf(p, sizeof(p), "%s/%s", fuzz_dir_path, e->d_name);
				unlink(p);
			}
		closedir(d);
	}
	rmdir(fuzz_dir_path);
}

const char *fuzz_dir(const char *tag)
{
	if (fuzz_dir_path[0])
		return fuzz_dir_path;
	const char *t = getenv("TMPDIR");
	snprintf(fuzz_dir_path, sizeof(fuzz_dir_path), "%s/fuzz-%s-%ld", t && *t ? t : "/tmp", tag,
		 (long)getpid());
	if (mkdir(fuzz_dir_path, 0700) != 0) {
		fuzz_dir_path[0] = 0;
		return NULL;
	}
	atexit(remove_dir);
	return fuzz_dir_path;
}
