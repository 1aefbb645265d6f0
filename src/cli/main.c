/*
 * main.c: the command table and dispatch. `wslgpu` alone means
 * `wslgpu check`. Options may come before the command (wslgpu --root DIR
 * check -v); the command word is found and the rest handed to it.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/buildinfo.h"
#include "../core/rootfs.h"
#include "../core/strbuf.h"
#include "../version.h"
#include "cli.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "check", cmd_check, "prove the GPU compute chain, layer by layer (default)" },
	{ "explain", cmd_explain, "paste an error or a log: get the layer, cause and fix" },
	{ "bench", cmd_bench, "measure disk I/O where the data lives, and the GPU path" },
	{ "watch", cmd_watch, "run or attach to a job and say whether it is GPU-, input-, CPU- or memory-bound" },
	{ "smoke", cmd_smoke, "scheduled smoke test: checks + policy, history, JUnit/Prometheus output" },
	{ "history", cmd_history, "list recorded smoke runs and what changed between them" },
	{ "report", cmd_report, "write a support bundle (redacted) or a Markdown report" },
	{ "fix", cmd_fix, "print the remediation plan for the current findings (--apply runs safe steps)" },
	{ "kb", cmd_kb, "show knowledge-base entries (causes and fixes)" },
};

/* Options that take a value, so that their value is not taken for the command. */
static const char *const valued[] = { "--root", "--only", "--timeout", "--data", "-o",
					"--python", "--pid", "--interval", "--csv", "--svg", "--size",
					"--files", "--file-size", "--seconds", "-f", "--docker-image",
					"--policy", "--db", "--junit", "--prom", "--push", "--job",
					"--instance", "--budget", "--limit", "--since", "--output", NULL };

static void usage(FILE *f)
{
	fprintf(f, "usage: wslgpu [COMMAND] [OPTIONS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "  %-8s %s\n", "help", "show help for a command (wslgpu help check)");
	fprintf(f, "\nRun 'wslgpu COMMAND --help' for a command's options.\n");
}

int cli_set_root(const char *dir)
{
	int rc = rootfs_set(dir);
	if (rc < 0) {
		fprintf(stderr, "wslgpu: --root %s: %s\n", dir, strerror(-rc));
		return EXIT_USAGE;
	}
	return 0;
}

int cli_want_color(int fd, int forced)
{
	if (forced >= 0)
		return forced;
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		return 0;
	const char *term = getenv("TERM");
	if (term && strcmp(term, "dumb") == 0)
		return 0;
	return isatty(fd);
}

void cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "wslgpu %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'wslgpu %s --help'.\n", cmd);
}

int main(int argc, char **argv)
{
	int cmd_at = -1;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (argv[i][0] == '-') {
			for (const char *const *v = valued; *v; v++)
				if (strcmp(argv[i], *v) == 0)
					i++;
			continue;
		}
		cmd_at = i;
		break;
	}
	if (cmd_at < 0) {
		for (int i = 1; i < argc; i++) {
			if (strcmp(argv[i], "--version") == 0) {
				struct strbuf sb = STRBUF_INIT;
				buildinfo_describe(&sb);
				fputs(sb.buf, stdout);
				sb_release(&sb);
				return EXIT_OK;
			}
			if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
				usage(stdout);
				return EXIT_OK;
			}
		}
	}
	const char *name = cmd_at < 0 ? "check" : argv[cmd_at];
	char **args = calloc((size_t)argc + 2, sizeof *args);
	if (!args)
		return EXIT_INTERNAL;
	int n = 0;
	args[n++] = (char *)name;
	bool help = false;
	if (strcmp(name, "help") == 0) {
		if (cmd_at + 1 < argc) {
			name = argv[cmd_at + 1];
			args[0] = (char *)name;
			help = true;
		} else {
			usage(stdout);
			free(args);
			return EXIT_OK;
		}
	}
	for (int i = 1; i < argc; i++)
		if (i != cmd_at && !(help && i == cmd_at + 1))
			args[n++] = argv[i];
	if (help)
		args[n++] = "--help";
	args[n] = NULL;
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0) {
			int rc = commands[i].fn(n, args);
			free(args);
			return rc;
		}
	fprintf(stderr, "wslgpu: '%s' is not a command.\n\n", name);
	usage(stderr);
	free(args);
	return EXIT_USAGE;
}
