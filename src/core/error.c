/* error.c: messages on standard error. See error.h. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *command;

void error_set_command(const char *cmd)
{
	command = cmd;
}

const char *error_command(void)
{
	return command;
}

/* One fprintf per message part, with stderr unbuffered: a message is
 * written whole before anything else the process prints after it. */
static void say(const char *kind, const char *fmt, va_list ap)
{
	if (command)
		fprintf(stderr, "wslgpu %s: %s", command, kind);
	else
		fprintf(stderr, "wslgpu: %s", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int errorf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
	return -1;
}

void warningf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}

void infof(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

void bugf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "wslgpu: internal error: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}
