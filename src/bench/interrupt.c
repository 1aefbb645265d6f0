/* interrupt.c: record SIGINT/SIGTERM for the work loops. See interrupt.h. */
#include "interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t caught;
static struct sigaction old_int, old_term;
static int installed;

static void on_signal(int sig)
{
	caught = sig;
}

void bench_interrupt_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: interrupted calls return EINTR */
	caught = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	installed = 1;
}

void bench_interrupt_restore(void)
{
	if (!installed)
		return;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	installed = 0;
	caught = 0; /* what it recorded was for the run that just ended */
}

int bench_interrupted(void)
{
	return (int)caught;
}

int bench_interrupt_status(void)
{
	return caught ? 128 + (int)caught : 0;
}
