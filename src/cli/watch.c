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
#include "checkrun.h"
#include "cli.h"

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

static int opt_interval(struct parse_state *ps, const struct cli_option *o, const char *arg,
			void *value)
{
	(void)o;
	double ms = parse_interval(arg);
	if (ms < 10 || ms > 3600000)
		return parse_error(ps, "--interval %s: give a time from 10ms to 1h (1s, 100ms, 2.5)",
				   arg);
	*(double *)value = ms;
	return 0;
}

static int opt_pid(struct parse_state *ps, const struct cli_option *o, const char *arg,
		   void *value)
{
	(void)o;
	char *end;
	errno = 0;
	long pid = strtol(arg, &end, 10);
	if (errno || *end || pid <= 0 || pid > 0x7fffffff)
		return parse_error(ps, "--pid %s: not a process id", arg);
	*(int *)value = (int)pid;
	return 0;
}

/* --json alone: standard output, after the command ended. */
static int opt_json(struct parse_state *ps, const struct cli_option *o, const char *arg,
		    void *value)
{
	(void)ps, (void)o;
	*(const char **)value = arg && *arg ? arg : "-";
	return 0;
}

static int opt_gpu_source(struct parse_state *ps, const struct cli_option *o, const char *arg,
			  void *value)
{
	(void)o;
	if (strcmp(arg, "auto") && strcmp(arg, "nvml") && strcmp(arg, "windows"))
		return parse_error(ps, "--gpu-source %s: give auto, nvml or windows", arg);
	*(const char **)value = arg;
	return 0;
}

static int opt_root(struct parse_state *ps, const struct cli_option *o, const char *arg,
		    void *value)
{
	(void)o, (void)arg, (void)value;
	return parse_error(ps, "--root does not apply: watch samples the live /proc of this "
			   "machine");
}

#define ARGS struct watch_opts
static const struct cli_option watch_options[] = {
	OPT_CALLBACK(0, "interval", ARGS, interval_ms, "T",
		     "time between samples: 1s (default), 100ms, 2.5, 1m", opt_interval),
	OPT_OUTPUT_FILE(0, "csv", ARGS, csv, "FILE", "one row per sample, written as they are taken"),
	{ .type = OPTION_CALLBACK, .long_name = "json", .offset = offsetof(ARGS, json),
	  .argh = "FILE", .flags = OPT_OPTARG | OPT_OUTPUT, .callback = opt_json,
	  .complete = COMPLETE_FILE,
	  .help = "the result as JSON (wslgpu/watch/1) on stdout, after the command ended; "
		  "--json=FILE writes it to FILE instead" },
	OPT_OUTPUT_FILE(0, "svg", ARGS, svg, "FILE", "a line chart of the series over time"),
	{ .type = OPTION_CALLBACK, .long_name = "pid", .offset = offsetof(ARGS, pid), .argh = "PID",
	  .callback = opt_pid, .complete = COMPLETE_PID,
	  .help = "watch a running process and its children instead; ends when it exits or on "
		  "Ctrl-C (exit status 130)" },
	{ .type = OPTION_CALLBACK, .long_name = "gpu-source", .offset = offsetof(ARGS, gpu_source),
	  .argh = "SRC", .callback = opt_gpu_source,
	  .help = "where GPU figures come from: auto (NVML, and on WSL Windows' counters for what "
		  "NVML lacks), nvml, windows" },
	OPT_BOOL('q', "quiet", ARGS, quiet, "no status line and no summary (files are still written)"),
	/* for bench/watch-overhead.sh */
	{ .type = OPTION_BOOL, .long_name = "self-stats", .offset = offsetof(ARGS, self_stats),
	  .help = "print watch's own CPU time at the end", .flags = OPT_HIDDEN },
	/* for the tests: which libnvidia-ml the GPU sampler loads */
	{ .type = OPTION_STRING, .long_name = "nvml-lib", .offset = offsetof(ARGS, nvml_lib),
	  .argh = "LIB", .help = "the libnvidia-ml to load",
	  .flags = OPT_HIDDEN | OPT_OPTARG | OPT_NONEMPTY },
	{ .type = OPTION_CALLBACK, .long_name = "root", .argh = "DIR", .callback = opt_root,
	  .help = "does not apply: watch samples this machine", .flags = OPT_HIDDEN },
	OPT_END(),
};
#undef ARGS

static const char *const watch_usage[] = {
	"wslgpu watch [OPTIONS] -- COMMAND [ARGS...]",
	"wslgpu watch [OPTIONS] --pid PID",
	NULL,
};

const struct cli_command watch_command = {
	.name = "watch",
	.run = cmd_watch,
	.summary = "run or attach to a job: is it GPU-, input-, CPU- or memory-bound?",
	.root = ROOT_REFUSED,
	.usage = watch_usage,
	.about = "Runs COMMAND (or attaches to PID) and samples, every interval, the GPU\n"
		 "(utilisation and memory, from NVML where it reports them; on WSL what NVML\n"
		 "lacks comes from Windows' GPU counters through powershell.exe), the CPUs, the\n"
		 "disks, swap and free memory, and the CPU and I/O of the command's whole\n"
		 "process tree. On a terminal a status line is kept up to date on stderr.\n"
		 "At the end a summary with a verdict goes to stderr: GPU-bound, input-bound\n"
		 "(and where the data lives), CPU-bound, memory pressure, or GPU idle.\n"
		 "The command keeps the terminal; watch exits with the command's status\n"
		 "(128 + N when a signal N killed it; 127 command not found), or 3 when an\n"
		 "output file could not be written.\n",
	.options = watch_options,
	.epilog = "watch always samples this machine: --root does not apply.\n",
	.flags = PARSE_STOP_AT_NON_OPTION,
};

int cmd_watch(int argc, char **argv)
{
	struct watch_opts o;
	memset(&o, 0, sizeof o);
	o.interval_ms = 1000;
	int n = parse_options(&watch_command, argc, argv, &o);
	if (n < 0)
		return parse_exit(n);
	if (n > 0)
		o.argv = argv;
	if (o.pid && o.argv) {
		cli_usage_error("watch", "give either --pid or a command, not both");
		return EXIT_USAGE;
	}
	if (!o.pid && !o.argv) {
		cli_usage_error("watch", "no command to run (wslgpu watch -- python train.py)");
		return EXIT_USAGE;
	}
	/* the verdict's fix lines are chosen for this machine's platform,
	 * as check's are: no nvidia-smi.exe step on native Linux */
	o.platform = checkrun_platform_kind();
	return watch_run(&o);
}
