/* interrupt.c: record SIGINT/SIGTERM for the work loops. See interrupt.h. */
#include "interrupt.h"

#include <string.h>

static volatile sig_atomic_t caught;
static struct sigaction old_int, old_term;
static int depth;

static void on_signal(int sig)
{
	caught = sig;
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
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
}

void interrupt_restore(void)
{
	if (depth == 0 || --depth > 0)
		return;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
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
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
}
