/*
 * watch: run a command (or attach to a process) and say, while it runs
 * and when it ends, whether it is GPU-, input-, CPU- or memory-bound.
 *
 *   run.c      the engine: starts the command, forwards signals, ticks
 *   sysread.c  machine-wide counters (/proc/stat, diskstats, vmstat, meminfo)
 *   tree.c     the job's process tree: CPU time and I/O
 *   gpumon.c   NVML (or Windows' counters) in an isolated sampler process
 *   datafs.c   which file systems the job's open files are on
 *   series.c   columns, points, statistics
 *   verdict.c  the rules (a pure function over a summary)
 *   render.c   the live status line and the summary for people
 *   export.c   CSV, JSON ("wslgpu/watch/1") and SVG
 *
 * Watch always samples this machine's live /proc: --root is refused. The
 * modules read through rootfs all the same, so the unit tests can feed
 * them recorded /proc files.
 */
#ifndef WSLGPU_WATCH_H
#define WSLGPU_WATCH_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "../core/strbuf.h"
#include "datafs.h"
#include "program.h"
#include "series.h"
#include "verdict.h"

struct watch_opts {
	char **argv;          /* the command, NULL-terminated; NULL with pid */
	int pid;              /* --pid: attach instead */
	double interval_ms;
	const char *csv;      /* --csv FILE, streamed */
	const char *svg;      /* --svg FILE, written at the end */
	const char *json;     /* --json ("-": stdout after the end) or --json=FILE */
	bool quiet;           /* no live line, no summary */
	bool self_stats;      /* print watch's own CPU time at the end */
	const char *nvml_lib; /* what the GPU sampler dlopens */
	const char *gpu_source; /* "auto" (NULL), "nvml", "windows" */
	const char *platform;   /* platform.kind's kind the verdict's fix lines are
				 * chosen for (finding_for_platform); NULL unknown */
};

/* Everything the outputs need once the job has ended. */
struct watch_report {
	const struct watch_opts *opts;
	time_t started;            /* wall clock */
	double duration_s;
	struct watch_series series;
	struct watch_summary sum;
	struct watch_verdict verdict;
	struct strbuf end;         /* "exited with status 0", "killed by SIGTERM", ... */
	const char *end_kind;      /* "exited", "killed", "ended", "interrupted", "not-started" */
	int status;                /* exit status or signal number, per end_kind */
	int exit_code;             /* what watch returns */
	unsigned ncpu;
	double mem_total_mib;
	const char *gpu_state;     /* "ok", "util-unavailable", "unavailable", "gave-up", "none" */
	char gpu_name[128];
	int ngpu;
	double gpu_mem_total_mib;
	struct strbuf gpu_note;
	const char *gpu_util_source; /* gpu_src_names: "nvml", "windows-vm", "windows-gpu", "" */
	const char *gpu_mem_source;
	struct strbuf win_note;      /* why Windows' counters gave nothing, "" otherwise */
	struct data_seen data;
	struct program_seen program; /* what kind of program the job is */
	double job_cpu_s;
	double watch_cpu_s, sampler_cpu_s;
};

/* Runs the whole thing; returns watch's exit status. */
int watch_run(const struct watch_opts *o);

/* render.c */
/* The one-line status, at most width columns (ASCII only). */
void watch_live_line(struct strbuf *out, const struct watch_point *p, double elapsed_s,
		     const struct gpu_monitor *g, int width);
void watch_print_summary(FILE *f, const struct watch_report *r);
/* width block characters for the values (NaN: blank), scaled to [0, hi]. */
void watch_sparkline(struct strbuf *out, const double *v, size_t n, size_t width, double hi);
/* "2m13s", "45.2s", "1h02m". */
void watch_duration(struct strbuf *out, double s);

/* export.c */
void watch_csv_header(FILE *f);
void watch_csv_row(FILE *f, const struct watch_point *p);
void watch_json(struct strbuf *out, const struct watch_report *r);
void watch_svg(struct strbuf *out, const struct watch_report *r);

#endif
