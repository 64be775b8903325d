#include "base/stop.h"

#include "base/error.h"

#include <string.h>
#include <unistd.h>

static void *listener(void *arg)
{
	struct tsg_stop *s = arg;
	for (;;) {
		int sig = 0;
		if (sigwait(&s->set, &sig) != 0)
			continue;
		int none = 0;
		if (atomic_compare_exchange_strong(&s->signo, &none, sig)) {
			static const char msg[] = "tristream: signal received: finishing the unit in "
						  "flight (again to stop at once)\n";
			if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
				/* nothing to do: stderr is gone */
			}
			continue;
		}
		/* the second: die of it, as without a listener */
		signal(sig, SIG_DFL);
		pthread_sigmask(SIG_UNBLOCK, &s->set, NULL);
		raise(sig);
	}
	return NULL;
}

int stop_begin(struct tsg_stop *s)
{
	memset(s, 0, sizeof(*s));
	atomic_init(&s->signo, 0);
	sigemptyset(&s->set);
	sigaddset(&s->set, SIGINT);
	sigaddset(&s->set, SIGTERM);
	if (pthread_sigmask(SIG_BLOCK, &s->set, &s->old) != 0)
		return -1;
	if (pthread_create(&s->thread, NULL, listener, s) != 0) {
		pthread_sigmask(SIG_SETMASK, &s->old, NULL);
		return -1;
	}
	s->active = 1;
	return 0;
}

int stop_requested(const struct tsg_stop *s)
{
	return s ? atomic_load_explicit(&s->signo, memory_order_relaxed) : 0;
}

void stop_end(struct tsg_stop *s)
{
	if (!s->active)
		return;
	/* sigwait is a cancellation point */
	pthread_cancel(s->thread);
	pthread_join(s->thread, NULL);
	pthread_sigmask(SIG_SETMASK, &s->old, NULL);
	s->active = 0;
}

/* async-signal-safe: a write and _exit, no state */
static void on_sigbus(int sig)
{
	(void)sig;
	static const char msg[] = "error: an input file mapped into memory could not be "
				  "read: it was cut short while in use, or the disk failed "
				  "(SIGBUS)\n";
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing to do: stderr is gone */
	}
	_exit(TSG_EINPUT);
}

int stop_on_sigbus(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGBUS, &sa, NULL);
}
