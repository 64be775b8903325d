/*
 * stop.h - SIGINT and SIGTERM as a request to stop at the next safe point.
 *
 * A job that keeps a checkpoint (src/checkpoint.h) should not die in the
 * middle of a unit: the unit in flight finishes (or is abandoned cleanly),
 * its record is made durable, and the process exits with TSG_EINTERRUPTED.
 * The signals are blocked in every thread (stop_begin runs before any
 * thread is started, and threads inherit the mask) and received by one
 * thread in sigwait, so no handler runs and no global is touched: the
 * request is a flag in the caller's struct. A second signal ends the
 * process at once, as if nothing had been installed.
 */
#ifndef TSG_STOP_H
#define TSG_STOP_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

struct tsg_stop {
	atomic_int signo;  /* 0, or the signal that asked to stop */
	pthread_t thread;
	sigset_t set, old;
	int active;
};

/* Starts listening; returns 0 or -1 (then signals keep their default). */
int stop_begin(struct tsg_stop *s);
/* The signal that asked to stop, or 0. NULL is never stopped. */
int stop_requested(const struct tsg_stop *s);
/* Stops listening and restores the signal mask. */
void stop_end(struct tsg_stop *s);

/* A mapped input file whose pages cannot be read (cut short by another
 * program while in use, or a disk error) raises SIGBUS on the access,
 * which would end the process as a crash. After this call it ends it with
 * a message on stderr and exit status TSG_EINPUT instead (README: exit
 * codes). Outputs are written to temporary names and renamed when done,
 * so none is left half written; a temporary one may stay behind.
 * Returns 0 or -1 (then SIGBUS keeps its default). */
int stop_on_sigbus(void);

#endif
