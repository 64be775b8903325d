#include "fuzz.h"

#include <stdio.h>
#include <sys/mman.h>
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
