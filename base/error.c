#include "base/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int vfail(struct tsg_err *err, int code, int errnum, const char *fmt, va_list ap)
{
	if (!err || err->code != TSG_OK)
		return code;
	err->code = code;
	int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	if (errnum && n >= 0 && (size_t)n < sizeof(err->msg))
		snprintf(err->msg + n, sizeof(err->msg) - (size_t)n, ": %s", strerror(errnum));
	return code;
}

int tsg_fail(struct tsg_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(err, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

int tsg_fail_errno(struct tsg_err *err, int code, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(err, code, errnum, fmt, ap);
	va_end(ap);
	return code;
}

int tsg_status_from_errno(int errnum)
{
	return errnum == ENOMEM ? TSG_ENOMEM : TSG_EIO;
}

const char *tsg_status_name(int code)
{
	switch (code) {
	case TSG_OK: return "ok";
	case TSG_EUSAGE: return "usage error";
	case TSG_EINPUT: return "bad input";
	case TSG_ENOMEM: return "out of memory";
	case TSG_EIO: return "I/O error";
	case TSG_EDEVICE: return "device error";
	case TSG_EINTERRUPTED: return "interrupted";
	case TSG_EOVERFLOW: return "count overflow";
	default: return "internal error";
	}
}

int tsg_close_stdout(int rc, const char *prog)
{
	/* stdout is buffered: a full disk or closed pipe shows only at the flush,
	 * and a result that never arrived must not leave with exit 0 */
	const int bad = ferror(stdout) | (fflush(stdout) != 0);
	const int errnum = errno;
	const int closed = fclose(stdout) != 0;
	if (bad || closed) {
		fprintf(stderr, "%s: error: cannot write the result to standard output: %s\n", prog,
			strerror(bad ? errnum : errno));
		return rc ? rc : TSG_EIO;
	}
	return rc;
}
