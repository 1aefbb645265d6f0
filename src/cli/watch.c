/*
 * watch.c: `wslgpu watch [OPTIONS] -- COMMAND [ARGS...]` and
 * `wslgpu watch --pid PID`: the command line of src/watch/ (see watch.h
 * there and doc/watch.md). Only options are parsed here; the engine
 * decides everything else.
 *
 * The command starts at the first word after "--", or at the first word
 * that is not an option (so `wslgpu watch python train.py` works too);
 * everything after it belongs to the command.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../watch/watch.h"
#include "cli.h"

static void usage(FILE *f)
{
	fputs("usage: wslgpu watch [OPTIONS] -- COMMAND [ARGS...]\n"
	      "       wslgpu watch [OPTIONS] --pid PID\n"
	      "\n"
	      "Runs COMMAND (or attaches to PID) and samples, every interval, the GPU\n"
	      "(utilisation and memory, from NVML where it reports them), the CPUs, the\n"
	      "disks, swap and free memory, and the CPU and I/O of the command's whole\n"
	      "process tree. On a terminal a status line is kept up to date on stderr.\n"
	      "At the end a summary with a verdict goes to stderr: GPU-bound, input-bound\n"
	      "(and where the data lives), CPU-bound, memory pressure, or GPU idle.\n"
	      "The command keeps the terminal; watch exits with the command's status\n"
	      "(128 + N when a signal N killed it; 127 command not found).\n"
	      "\n"
	      "options:\n"
	      "  --interval T     time between samples: 1s (default), 100ms, 2.5, 1m\n"
	      "  --csv FILE       one row per sample, written as they are taken\n"
	      "  --json           the result as JSON (wslgpu/watch/1) on stdout, after the\n"
	      "                   command ended; --json=FILE writes it to FILE instead\n"
	      "  --svg FILE       a line chart of the series over time\n"
	      "  --pid PID        watch a running process and its children instead; ends\n"
	      "                   when it exits or on Ctrl-C (exit status 130)\n"
	      "  -q, --quiet      no status line and no summary (files are still written)\n"
	      "\n"
	      "watch always samples this machine: --root does not apply.\n",
	      f);
}

/* "1s", "100ms", "2.5", "1m" → milliseconds; -1 when unreadable. */
static double parse_interval(const char *s)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v <= 0)
		return -1;
	if (!*end || !strcmp(end, "s"))
		return v * 1000;
	if (!strcmp(end, "ms"))
		return v;
	if (!strcmp(end, "m"))
		return v * 60000;
	return -1;
}

/* Whether argv word a is the option name, as "--name" or "--name=...". */
static bool is_opt(const char *a, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(a, name, n) && (a[n] == '\0' || a[n] == '=');
}

/* The value of the option at argv[*i] ("--name=V" or "--name V"); NULL
 * when it has none. */
static const char *opt_value(int argc, char **argv, int *i)
{
	const char *eq = strchr(argv[*i], '=');
	if (eq)
		return eq + 1;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

int cmd_watch(int argc, char **argv)
{
	struct watch_opts o;
	memset(&o, 0, sizeof o);
	o.interval_ms = 1000;
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			o.quiet = true;
		} else if (!strcmp(a, "--self-stats")) { /* for bench/watch-overhead.sh */
			o.self_stats = true;
		} else if (!strncmp(a, "--nvml-lib=", 11) && a[11]) {
			/* For the tests: which libnvidia-ml the GPU sampler loads. */
			o.nvml_lib = a + 11;
		} else if (!strcmp(a, "--json")) {
			o.json = "-";
		} else if (!strncmp(a, "--json=", 7)) {
			o.json = a[7] ? a + 7 : "-";
		} else if (is_opt(a, "--root")) {
			cli_usage_error("watch", "--root does not apply: watch samples the live "
						 "/proc of this machine");
			return EXIT_USAGE;
		} else if (is_opt(a, "--interval") || is_opt(a, "--csv") || is_opt(a, "--svg") ||
			   is_opt(a, "--pid")) {
			const char *v = opt_value(argc, argv, &i);
			if (!v || !*v) {
				cli_usage_error("watch", "%s needs a value", a);
				return EXIT_USAGE;
			}
			if (is_opt(a, "--csv")) {
				o.csv = v;
			} else if (is_opt(a, "--svg")) {
				o.svg = v;
			} else if (is_opt(a, "--interval")) {
				o.interval_ms = parse_interval(v);
				if (o.interval_ms < 10 || o.interval_ms > 3600000) {
					cli_usage_error("watch", "--interval %s: give a time from 10ms "
								 "to 1h (1s, 100ms, 2.5)", v);
					return EXIT_USAGE;
				}
			} else {
				char *end;
				errno = 0;
				long pid = strtol(v, &end, 10);
				if (errno || *end || pid <= 0 || pid > 0x7fffffff) {
					cli_usage_error("watch", "--pid %s: not a process id", v);
					return EXIT_USAGE;
				}
				o.pid = (int)pid;
			}
		} else {
			cli_usage_error("watch", "unknown option %s", a);
			return EXIT_USAGE;
		}
	}
	if (i < argc)
		o.argv = argv + i;
	if (o.pid && o.argv) {
		cli_usage_error("watch", "give either --pid or a command, not both");
		return EXIT_USAGE;
	}
	if (!o.pid && !o.argv) {
		cli_usage_error("watch", "no command to run (wslgpu watch -- python train.py)");
		return EXIT_USAGE;
	}
	return watch_run(&o);
}
