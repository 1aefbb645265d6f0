/* interrupt.c: record SIGINT/SIGTERM/SIGHUP/SIGPIPE for the work loops. See interrupt.h. */
#include "interrupt.h"

#include <stdbool.h>
#include <string.h>

/* The signals that end the tool by default and that a run records. */
static const int handled[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
#define NHANDLED (sizeof handled / sizeof handled[0])

static volatile sig_atomic_t caught;
static struct sigaction old_sa[NHANDLED];
static int depth;

static void on_signal(int sig)
{
	/* the first one says why the run ended: a SIGPIPE from writing the
	 * report of a SIGHUP'd run to the closed terminal does not replace it */
	if (!caught)
		caught = sig;
}

static void on_xfsz(int sig)
{
	(void)sig;
}

void interrupt_catch_xfsz(void)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_xfsz;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	/* an XFSZ ignored by the caller stays ignored (it has the same effect) */
	sigaction(SIGXFSZ, NULL, &old);
	if (old.sa_handler == SIG_DFL)
		sigaction(SIGXFSZ, &sa, NULL);
}

void interrupt_install(void)
{
	if (depth++ > 0)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: interrupted calls return EINTR */
	caught = 0;
	for (size_t k = 0; k < NHANDLED; k++) {
		sigaction(handled[k], NULL, &old_sa[k]);
		/* nohup's ignored SIGHUP, a caller's ignored SIGPIPE: left ignored.
		 * Not SIGINT: a shell starts background commands with it ignored,
		 * and `kill -INT` must still end the run. */
		bool keep_ignored = handled[k] == SIGHUP || handled[k] == SIGPIPE;
		if (!keep_ignored || old_sa[k].sa_handler != SIG_IGN)
			sigaction(handled[k], &sa, NULL);
	}
}

void interrupt_restore(void)
{
	if (depth == 0 || --depth > 0)
		return;
	for (size_t k = 0; k < NHANDLED; k++)
		sigaction(handled[k], &old_sa[k], NULL);
	caught = 0; /* what it recorded was for the run that just ended */
}

int interrupt_signal(void)
{
	return (int)caught;
}

int interrupt_status(void)
{
	return caught ? 128 + (int)caught : 0;
}

void interrupt_sigset(sigset_t *set)
{
	sigemptyset(set);
	for (size_t k = 0; k < NHANDLED; k++)
		sigaddset(set, handled[k]);
}
