/* error.c: messages on standard error. See error.h. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "strbuf.h"
#include "text.h"

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
	/* Words about where a file went, for a person: wrapped to standard
	 * error's width, continuation lines indented (a path stays whole).
	 * Errors and warnings stay one line, for scripts that grep them. */
	struct strbuf sb = STRBUF_INIT;
	if (command)
		sb_addf(&sb, "wslgpu %s: ", command);
	else
		sb_add(&sb, "wslgpu: ");
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	struct strbuf out = STRBUF_INIT;
	struct text_wrap w = { text_terminal_columns(STDERR_FILENO), 0, 2, 0, NULL };
	text_wrap(&out, sb.buf, &w);
	fprintf(stderr, "%s\n", out.buf);
	sb_release(&out);
	sb_release(&sb);
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
