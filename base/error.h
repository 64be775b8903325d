/*
 * error.h - status codes and error reports shared by every module.
 *
 * Every fallible function returns an int status (TSG_OK or one of the
 * codes below) and fills a caller-owned struct tsg_err with a message that
 * names the object (usually a file) and what is wrong. The status values
 * double as the process exit codes documented in README.md, so the CLI can
 * return them unchanged.
 */
#ifndef TSG_ERROR_H
#define TSG_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

enum tsg_status {
	TSG_OK = 0,
	TSG_EUSAGE = 2,   /* bad command line */
	TSG_EINPUT = 3,   /* malformed, corrupt or unsupported input */
	TSG_ENOMEM = 4,   /* host or device memory exhausted, or budget too small */
	TSG_EIO = 5,      /* read/write failure, full disk */
	TSG_EDEVICE = 6,  /* no usable GPU, or a CUDA error */
	TSG_EINTERNAL = 7, /* an invariant failed: a bug, never bad input */
	TSG_EINTERRUPTED = 8, /* stopped by SIGINT or SIGTERM; the checkpoint holds the
			       * units counted (rerun with it to go on) */
	TSG_EOVERFLOW = 9  /* a count passes 2^64 - 1 (k-cliques): never wrapped */
};

struct tsg_err {
	int code;
	char msg[1024];
};

/* Records the first error only: later calls on a filled report are ignored,
 * so the innermost (most specific) message survives unwinding. Returns code. */
int tsg_fail(struct tsg_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like tsg_fail, appending ": strerror(errnum)". */
int tsg_fail_errno(struct tsg_err *err, int code, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Maps an errno from a failed read/write/alloc to a status (ENOMEM ->
 * TSG_ENOMEM, everything else -> TSG_EIO). */
int tsg_status_from_errno(int errnum);

const char *tsg_status_name(int code);

/* Flushes and closes stdout at a program's end and returns its exit status:
 * rc if stdout took every byte, else TSG_EIO (when rc was TSG_OK) after an
 * error naming prog on stderr. Every program's main ends through it, so a
 * result lost to a full disk or a closed pipe is never a success. */
int tsg_close_stdout(int rc, const char *prog);

#ifdef __cplusplus
}
#endif

#endif
