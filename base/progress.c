#include "base/progress.h"

#include <stdio.h>
#include <unistd.h>

#include "base/util.h"

void tsg_progress_init(struct tsg_progress *p, const char *what, const char *unit,
		       uint64_t total, int enabled)
{
	*p = (struct tsg_progress){ .what = what, .unit = unit, .total = total, .enabled = enabled };
	p->tty = isatty(STDERR_FILENO);
	p->start = p->last = tsg_now();
}

static void fmt_amount(const struct tsg_progress *p, double v, char *buf, size_t len)
{
	if (p->unit[0] == 'B' && p->unit[1] == '\0')
		tsg_fmt_bytes((uint64_t)v, buf, len);
	else
		snprintf(buf, len, "%.0f %s", v, p->unit);
}

void tsg_progress_update(struct tsg_progress *p, uint64_t done, const char *note)
{
	if (!p->enabled)
		return;
	double now = tsg_now();
	if (now - p->last < (p->tty ? 0.25 : 10.0))
		return;
	p->last = now;
	double el = now - p->start, rate = el > 0 ? done / el : 0;
	char d[32], t[32], r[32];
	fmt_amount(p, (double)done, d, sizeof(d));
	fmt_amount(p, rate, r, sizeof(r));
	if (p->total) {
		fmt_amount(p, (double)p->total, t, sizeof(t));
		double eta = rate > 0 && done < p->total ? (p->total - done) / rate : 0;
		fprintf(stderr, "%s%s: %s / %s (%.0f%%), %s/s, ETA %.0fs%s%s%s", p->tty ? "\r" : "",
			p->what, d, t, 100.0 * done / p->total, r, eta, note ? ", " : "",
			note ? note : "", p->tty ? "\033[K" : "\n");
	} else {
		fprintf(stderr, "%s%s: %s, %s/s%s%s%s", p->tty ? "\r" : "", p->what, d, r,
			note ? ", " : "", note ? note : "", p->tty ? "\033[K" : "\n");
	}
	p->drawn = p->tty;
	fflush(stderr);
}

void tsg_progress_done(struct tsg_progress *p)
{
	if (p->enabled && p->drawn)
		fputc('\n', stderr);
	p->drawn = 0;
}
