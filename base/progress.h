/*
 * progress.h - progress lines on stderr for long work.
 *
 * On a terminal the line is redrawn in place a few times a second; in a
 * batch job (stderr not a terminal) a full line is printed every 10 seconds
 * so logs stay short. Nothing is printed when disabled (--quiet).
 */
#ifndef TSG_PROGRESS_H
#define TSG_PROGRESS_H

#include <stdint.h>

struct tsg_progress {
	const char *what;  /* "convert", "count", ... */
	const char *unit;  /* "B" for bytes (printed as MiB/GiB), else a noun */
	uint64_t total;    /* 0 if unknown: no percentage or ETA */
	int enabled, tty, drawn;
	double start, last;
};

void tsg_progress_init(struct tsg_progress *p, const char *what, const char *unit,
		       uint64_t total, int enabled);
/* Reports `done` units (and an optional extra note) if enough time passed. */
void tsg_progress_update(struct tsg_progress *p, uint64_t done, const char *note);
/* Ends an in-place line so later messages start on a fresh one. */
void tsg_progress_done(struct tsg_progress *p);

#endif
