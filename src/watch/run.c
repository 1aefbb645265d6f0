/*
 * run.c: the watch engine — start the command (or attach), tick, end.
 *
 * The command. It is started with fork and execv, not through proc_run:
 * it must inherit watch's stdin, stdout, stderr, process group and
 * terminal untouched, like a command run by a shell, and it has no time
 * limit. It stays in watch's process group, so keys typed at the terminal
 * (Ctrl-C, Ctrl-\, Ctrl-Z) reach it directly, and watch stops and
 * continues with it. A signal sent to watch itself by another process
 * (kill, timeout, a scheduler: si_code <= 0) is forwarded to the command;
 * one the terminal generated (SI_KERNEL) already reached the command and
 * is not sent twice. The command is looked up like a shell would (PATH,
 * through rootfs_which); not found is 127, found but not executable 126.
 * Watch's exit status is the command's: its status, or 128 + the signal
 * that killed it.
 *
 * Signals reach watch through a signalfd (SIGCHLD, SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT, SIGWINCH are blocked), so the loop is one poll over the
 * signalfd and the GPU sampler's pipe with the time to the next tick as
 * its timeout. The command gets the signal mask and SIGPIPE disposition
 * watch had when it started. SIGINT or SIGTERM before the command started
 * (while the GPU sampler starts) ends watch at once, 128 + the signal,
 * without starting it; after a signal, watch does not wait for the GPU
 * reading after the end (a hung sampler would hold the exit back).
 *
 * The end. When the command exits, waitid(WNOWAIT) leaves it a zombie
 * whose /proc/PID/stat still holds its final CPU time, so a last, partial
 * point is taken before it is reaped. For the GPU memory baseline a
 * reading is taken before the command starts and one after it ended.
 *
 * Windows' counters. On WSL with interop (--gpu-source=auto, the
 * default), a second sampler reads Windows' GPU counters through one
 * long-lived powershell.exe (gpumon.h): each GPU figure NVML does not give
 * (utilisation, on WSL) comes from there, and every point says where its
 * figures came from.
 *
 * Ticks are at start + k * interval; ticks missed while the machine was
 * suspended or overloaded are skipped, not caught up. New descendants are
 * looked for at every tick (at most twice a second), open files every five
 * seconds, mappings every thirty.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "../core/error.h"
#include "../core/atomicfile.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../facts/windows.h"
#include "../gpu/nvmlapi.h"
#include "watch.h"

/* Processes whose open files are looked at in one data scan. */
#define DATA_SCAN_PROCS 32
/* How often the slower looks happen (see tick). */
#define SCAN_MS 500.0
#define FULL_SCAN_MS 30000.0
#define DATA_SCAN_MS 5000.0
#define MAPS_SCAN_MS 30000.0
/* What kind of program each new process is, and the maps of Python
 * processes until a framework shows (it is imported after start). */
#define PROGRAM_MAPS_MS 2000.0
#define PROGRAM_SCAN_PROCS 64
/* A final interval shorter than this is too noisy to be a point. */
#define MIN_LAST_MS 50.0

static const int watched_signals[] = { SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH };

struct engine {
	const struct watch_opts *o;
	struct watch_report *r;
	int sfd;
	sigset_t oldmask;
	struct sigaction old_pipe;
	struct gpu_monitor gpu;
	struct gpu_monitor win;      /* Windows' counters, when used */
	struct strbuf win_host, win_enc;
	const char *win_argv[8];
	struct machine_reader mach;
	struct proc_tree tree;
	FILE *csv;
	bool output_failed; /* --csv, --json=FILE or --svg could not be written */
	int child;          /* run mode: the command's pid */
	int root;           /* the tree's root: child or --pid */
	bool live;          /* draw the status line */
	int width;
	bool drawn;         /* a status line is on screen */
	int stop_signal;    /* --pid: the signal that ended watching */
	int forwarded;      /* run mode: last signal forwarded */
	int interrupted;    /* SIGINT or SIGTERM came (from a process or the terminal) */
	long clk_tck, page;
	double start_ms;
	struct watch_raw prev;
	bool have_prev;
	unsigned ticks;
	struct gpu_reading gpu_before, gpu_after;
	unsigned long long first_cpu; /* the tree's CPU ticks at the start */
	bool mach_open;
	/* The busiest process, by name, over the run. */
	struct {
		char comm[32];
		double cores;
		int pid;   /* the last process of that name seen busiest */
	} top[16];
	size_t ntop;
	struct strbuf line;
};

static void term_width(struct engine *e)
{
	struct winsize ws;
	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		e->width = ws.ws_col;
	else
		e->width = 80;
}

/* Only a foreground watch draws: a background one would stop on SIGTTOU
 * (stty tostop) or scribble over the shell. */
static bool in_foreground(void)
{
	pid_t fg = tcgetpgrp(2);
	return fg >= 0 && fg == getpgrp();
}

static void clear_live(struct engine *e)
{
	if (e->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		e->drawn = false;
	}
}

static void draw_live(struct engine *e, const struct watch_point *p)
{
	if (!e->live || !in_foreground())
		return;
	sb_reset(&e->line);
	watch_live_line(&e->line, p, (now_ms() - e->start_ms) / 1000.0, &e->gpu, e->width);
	fprintf(stderr, "\r%s\033[K", e->line.buf);
	fflush(stderr);
	e->drawn = true;
}

static void note_top(struct engine *e, const struct watch_point *p, const struct tree_totals *t)
{
	if (isnan(p->v[WC_JOB_TOP]) || !t->top_comm[0])
		return;
	size_t i;
	for (i = 0; i < e->ntop; i++)
		if (!strcmp(e->top[i].comm, t->top_comm))
			break;
	if (i == e->ntop) {
		if (e->ntop == sizeof e->top / sizeof e->top[0])
			return;
		snprintf(e->top[i].comm, sizeof e->top[i].comm, "%s", t->top_comm);
		e->top[i].cores = 0;
		e->ntop++;
	}
	e->top[i].cores += p->v[WC_JOB_TOP];
	e->top[i].pid = t->top_pid;
}

static void read_raw(struct engine *e, struct watch_raw *raw)
{
	memset(raw, 0, sizeof *raw);
	machine_read(&e->mach, &raw->mc);
	raw->t_ms = raw->mc.t_ms;
	tree_sample(&e->tree, &raw->tree);
	raw->have_tree = true;
	gpumon_drain(&e->gpu);
	raw->gpu = e->gpu.last;
	gpumon_drain(&e->win);
	raw->win = e->win.last;
}

static void data_scan(struct engine *e, bool maps)
{
	for (size_t i = 0; i < e->tree.n && i < DATA_SCAN_PROCS; i++)
		datafs_scan(&e->r->data, e->tree.m[i].pid, maps);
}

/* One point from the previous reading to now. */

/* After a CSV row: a row that did not reach the file (a full disk,
 * /dev/full) is said once, and no more are written; watch then exits 3
 * (the file is incomplete) after the command ends as usual. err is errno
 * after the write. */
static void csv_written(struct engine *e, int err)
{
	if (!ferror(e->csv))
		return;
	errorf("--csv %s: %s; no more rows are written", e->o->csv, strerror(err ? err : EIO));
	fclose(e->csv);
	e->csv = NULL;
	e->output_failed = true;
}
static void take_point(struct engine *e, bool last)
{
	struct watch_raw cur;
	read_raw(e, &cur);
	if (e->have_prev && (!last || cur.t_ms - e->prev.t_ms >= MIN_LAST_MS)) {
		struct watch_point p;
		double stale = 3 * e->o->interval_ms + 1000;
		watch_point_from(&e->prev, &cur, e->start_ms, e->clk_tck, e->page, stale, &p);
		if (last) {
			/* States read at the very end (the root a zombie) say
			 * nothing about how the job ran. */
			p.v[WC_JOB_RUNNABLE] = NAN;
			p.v[WC_JOB_BLOCKED] = NAN;
		}
		series_add(&e->r->series, &p);
		note_top(e, &p, &cur.tree);
		if (e->csv) {
			watch_csv_row(e->csv, &p);
			csv_written(e, errno);
		}
		if (!last)
			draw_live(e, &p);
	}
	if (cur.mc.have_cpu && cur.mc.ncpu)
		e->r->ncpu = cur.mc.ncpu;
	if (cur.mc.have_mem)
		e->r->mem_total_mib = (double)cur.mc.mem.mem_total / 1048576.0;
	e->prev = cur;
	e->have_prev = true;
}

/* Whether this tick is one of those every period_ms (at least every tick). */
static bool ticks_due(const struct engine *e, double period_ms)
{
	unsigned every = (unsigned)ceil(period_ms / e->o->interval_ms);
	return e->ticks % (every ? every : 1) == 0;
}

static void tick(struct engine *e)
{
	e->ticks++;
	gpumon_check(&e->gpu);
	gpumon_check(&e->win);
	/* New descendants at every tick, but not more often than every 500 ms
	 * (on a machine where processes come and go all the time the scan is
	 * most of watch's cost); every 30 s a full scan, for reused pids. */
	if (ticks_due(e, SCAN_MS))
		tree_scan(&e->tree, ticks_due(e, FULL_SCAN_MS));
	/* Open files every 5 s, mappings every 30 s; both early too, so that
	 * a short job is looked at once. */
	if (e->ticks == 2 || ticks_due(e, DATA_SCAN_MS))
		data_scan(e, e->ticks == 2 || ticks_due(e, MAPS_SCAN_MS));
	if (e->ticks == 2 || ticks_due(e, SCAN_MS)) {
		bool maps = e->ticks == 2 || ticks_due(e, PROGRAM_MAPS_MS);
		for (size_t i = 0; i < e->tree.n && i < PROGRAM_SCAN_PROCS; i++)
			program_scan(&e->r->program, e->tree.m[i].pid, e->tree.m[i].comm, maps);
	}
	take_point(e, false);
}

/* ---- the command ---- */

static int resolve_command(const char *cmd, struct strbuf *path)
{
	sb_reset(path);
	if (strchr(cmd, '/')) {
		sb_add(path, cmd);
		return 0;
	}
	return rootfs_which(cmd, NULL, path, NULL);
}

/* Forks and execs; returns 0, or the exit status a shell would give
 * (126, 127) with the message printed. */
static int start_child(struct engine *e, const char *path)
{
	int ex[2];
	if (pipe2(ex, O_CLOEXEC) < 0) {
		errorf("pipe: %s", strerror(errno));
		return 126;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		errorf("fork: %s", strerror(errno));
		close(ex[0]);
		close(ex[1]);
		return 126;
	}
	if (pid == 0) {
		close(ex[0]);
		sigaction(SIGPIPE, &e->old_pipe, NULL);
		sigprocmask(SIG_SETMASK, &e->oldmask, NULL);
		execv(path, e->o->argv);
		int err = errno;
		ssize_t w = write(ex[1], &err, sizeof err);
		(void)w;
		_exit(127);
	}
	close(ex[1]);
	int err = 0;
	ssize_t got;
	do
		got = read(ex[0], &err, sizeof err);
	while (got < 0 && errno == EINTR);
	close(ex[0]);
	if (got == (ssize_t)sizeof err) {
		waitpid(pid, NULL, 0);
		errorf("%s: %s", e->o->argv[0], strerror(err));
		return err == ENOENT ? 127 : 126;
	}
	e->child = pid;
	return 0;
}

/* Whether the command has ended (left a zombie for us). */
static bool child_ended(struct engine *e)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	if (waitid(P_PID, (id_t)e->child, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno == ECHILD;
	return si.si_pid == e->child;
}

static void reap_child(struct engine *e)
{
	struct watch_report *r = e->r;
	int ws = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof ru);
	pid_t got;
	do
		got = wait4(e->child, &ws, 0, &ru);
	while (got < 0 && errno == EINTR);
	r->job_cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	char buf[16];
	if (got == e->child && WIFSIGNALED(ws)) {
		r->end_kind = "killed";
		r->status = WTERMSIG(ws);
		r->exit_code = 128 + r->status;
		sb_addf(&r->end, "was killed by %s%s", signal_name(r->status, buf),
			WCOREDUMP(ws) ? " (core dumped)" : "");
	} else if (got == e->child) {
		r->end_kind = "exited";
		r->status = WEXITSTATUS(ws);
		r->exit_code = r->status;
		sb_addf(&r->end, "exited with status %d", r->status);
	} else {
		r->end_kind = "ended";
		r->exit_code = EXIT_FAILURE;
		sb_add(&r->end, "ended (its status was lost)");
	}
}

/* ---- signals ---- */

static int setup_signals(struct engine *e)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof watched_signals / sizeof watched_signals[0]; i++)
		sigaddset(&set, watched_signals[i]);
	if (sigprocmask(SIG_BLOCK, &set, &e->oldmask) < 0)
		return -errno;
	e->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (e->sfd < 0) {
		int err = errno;
		sigprocmask(SIG_SETMASK, &e->oldmask, NULL);
		return -err;
	}
	/* A closed stdout or stderr must not kill watch before it reports. */
	struct sigaction ign;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &e->old_pipe);
	return 0;
}

static void restore_signals(struct engine *e)
{
	if (e->sfd >= 0)
		close(e->sfd);
	e->sfd = -1;
	sigaction(SIGPIPE, &e->old_pipe, NULL);
	sigprocmask(SIG_SETMASK, &e->oldmask, NULL);
}

/* Handles pending signals; returns true when watching should stop. */
static bool handle_signals(struct engine *e)
{
	struct signalfd_siginfo si;
	bool stop = false;
	while (read(e->sfd, &si, sizeof si) == (ssize_t)sizeof si) {
		int sig = (int)si.ssi_signo;
		if (sig == SIGCHLD)
			continue; /* the loop checks the command itself */
		if (sig == SIGWINCH) {
			term_width(e);
			continue;
		}
		if (sig == SIGINT || sig == SIGTERM)
			e->interrupted = sig;
		if (e->child > 0) {
			/* Sent by a process (kill, timeout): pass it on. From the
			 * terminal (SI_KERNEL): the command got it already. */
			if (si.ssi_code <= 0) {
				kill(e->child, sig);
				e->forwarded = sig;
			}
		} else {
			e->stop_signal = sig;
			stop = true;
		}
	}
	return stop;
}

/* ---- the end ---- */

static double cpu_of_self(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return NAN;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void summarize(struct engine *e)
{
	struct watch_report *r = e->r;
	struct watch_summary *s = &r->sum;
	const struct watch_series *ser = &r->series;
	memset(s, 0, sizeof *s);
	s->npoints = ser->nsamples;
	s->duration_s = r->duration_s;
	s->ncpu = r->ncpu;
	s->attached = e->o->pid > 0;

	const struct gpu_monitor *g = &e->gpu;
	s->gpu_present = ser->stat[WC_GPU_MEM].n > 0 || ser->stat[WC_GPU_UTIL].n > 0;
	s->gpu_util_known = ser->stat[WC_GPU_UTIL].n > 0;
	s->gpu_util_mean = series_mean(ser, WC_GPU_UTIL);
	s->gpu_util_max = series_max(ser, WC_GPU_UTIL);
	s->gpu_mem_known = ser->stat[WC_GPU_MEM].n > 0;
	s->gpu_mem_min = series_min(ser, WC_GPU_MEM);
	s->gpu_mem_max = series_max(ser, WC_GPU_MEM);
	const struct gpu_reading *ends[2] = { &e->gpu_before, &e->gpu_after };
	for (int i = 0; i < 2; i++)
		if (ends[i]->valid && ends[i]->mem_ok && s->gpu_mem_known) {
			if (ends[i]->mem_used_mib < s->gpu_mem_min)
				s->gpu_mem_min = ends[i]->mem_used_mib;
			if (ends[i]->mem_used_mib > s->gpu_mem_max)
				s->gpu_mem_max = ends[i]->mem_used_mib;
		}
	s->gpu_mem_bracketed = e->gpu_before.valid && e->gpu_before.mem_ok &&
			       e->gpu_after.valid && e->gpu_after.mem_ok;
	s->gpu_mem_total = g->last.mem_total_mib;
	r->gpu_mem_total_mib = g->last.mem_total_mib;
	r->ngpu = g->last.ndev;
	snprintf(r->gpu_name, sizeof r->gpu_name, "%s", g->name);

	r->gpu_util_source = gpu_src_names[series_gpu_src(ser, false)];
	r->gpu_mem_source = gpu_src_names[series_gpu_src(ser, true)];
	s->gpu_util_source = r->gpu_util_source;
	bool from_windows = strncmp(r->gpu_util_source, "windows", 7) == 0 ||
			    strncmp(r->gpu_mem_source, "windows", 7) == 0;
	if (!r->gpu_name[0] && e->win.name[0])
		snprintf(r->gpu_name, sizeof r->gpu_name, "%s", e->win.name);
	sb_reset(&r->win_note);
	if (e->win.state == GPUMON_GAVE_UP || e->win.state == GPUMON_UNAVAILABLE)
		sb_add(&r->win_note, sb_str(&e->win.note));
	else if (e->win_argv[0] && !e->win.nreadings)
		sb_add(&r->win_note, "powershell.exe gave no sample in time");
	sb_reset(&r->gpu_note);
	if (!from_windows && (g->state == GPUMON_GAVE_UP || g->state == GPUMON_UNAVAILABLE)) {
		r->gpu_state = g->state == GPUMON_GAVE_UP ? "gave-up" : "unavailable";
		sb_add(&r->gpu_note, sb_str(&g->note));
	} else if (!s->gpu_present) {
		r->gpu_state = "none";
		sb_add(&r->gpu_note, "the GPU sampler gave no reading in time");
	} else if (!s->gpu_util_known) {
		r->gpu_state = "util-unavailable";
		sb_addf(&r->gpu_note, "nvmlDeviceGetUtilizationRates answered %s",
			nvml_return_name(g->util_rc));
	} else {
		r->gpu_state = "ok";
	}
	if (r->gpu_note.len)
		s->gpu_note = r->gpu_note.buf;

	s->cpu_iowait_mean = series_mean(ser, WC_CPU_IOWAIT);
	s->job_cpu_mean = series_mean(ser, WC_JOB_CPU);
	s->job_cpu_max = series_max(ser, WC_JOB_CPU);
	s->job_top_mean = series_mean(ser, WC_JOB_TOP);
	double best = -1;
	for (size_t i = 0; i < e->ntop; i++)
		if (e->top[i].cores > best) {
			best = e->top[i].cores;
			s->top_comm = e->top[i].comm;
			s->top_pid = e->top[i].pid;
		}
	s->job_blocked_mean = series_mean(ser, WC_JOB_BLOCKED);
	s->job_runnable_mean = series_mean(ser, WC_JOB_RUNNABLE);
	double us = series_mean(ser, WC_CPU_USER), sy = series_mean(ser, WC_CPU_SYS);
	s->cpu_busy_mean = isnan(us) || isnan(sy) ? NAN : us + sy;
	s->job_rchar_mean = series_mean(ser, WC_JOB_RCHAR);
	s->job_read_mean = series_mean(ser, WC_JOB_READ);
	s->disk_read_mean = series_mean(ser, WC_DISK_READ);
	s->swap_known = ser->stat[WC_SWAP_IN].n > 0;
	s->swap_in_mean = series_mean(ser, WC_SWAP_IN);
	s->swap_out_mean = series_mean(ser, WC_SWAP_OUT);
	s->mem_known = ser->stat[WC_MEM_AVAIL].n > 0;
	s->mem_avail_min = series_min(ser, WC_MEM_AVAIL);
	s->mem_total = r->mem_total_mib;

	s->program = r->program.kind;
	const struct data_place *p = datafs_worst(&r->data);
	if (p) {
		s->data_mount = p->mount;
		s->data_what = p->what;
		s->data_kind = p->kind;
		s->data_example = p->example;
		s->data_files = p->files;
	}
}

/* Written as a whole by atomicfile: a reader never sees half a file, and
 * "-", /dev/stdout or a FIFO are written through, as everywhere else. */
static int write_output(const char *option, const char *path,
			void (*fn)(struct strbuf *, const struct watch_report *),
			const struct watch_report *r)
{
	struct strbuf data = STRBUF_INIT, err = STRBUF_INIT;
	fn(&data, r);
	int rc = atomic_write_file(path, data.buf, data.len, 0644, &err);
	if (rc)
		errorf("%s %s", option, sb_str(&err));
	sb_release(&data);
	sb_release(&err);
	return rc;
}

static void finish(struct engine *e)
{
	struct watch_report *r = e->r;
	const struct watch_opts *o = e->o;
	clear_live(e);
	summarize(e);
	watch_judge(&r->sum, &r->verdict);
	r->watch_cpu_s = cpu_of_self();
	r->sampler_cpu_s = e->gpu.sampler_cpu_s + e->win.sampler_cpu_s;
	if (!o->quiet)
		watch_print_summary(stderr, r);
	if (o->json && write_output("--json", o->json, watch_json, r))
		e->output_failed = true;
	if (o->svg && write_output("--svg", o->svg, watch_svg, r))
		e->output_failed = true;
	if (o->self_stats)
		fprintf(stderr, "watch-self-stats: watch_cpu_s=%.3f sampler_cpu_s=%.3f "
				"job_cpu_s=%.3f wall_s=%.3f points=%zu\n",
			r->watch_cpu_s, r->sampler_cpu_s, r->job_cpu_s, r->duration_s,
			r->series.nsamples);
}

/* Whether Windows programs can run from here: WSL sets WSL_INTEROP in a
 * session that has interop, and registers WSLInterop in binfmt_misc. */
static bool interop_works(void)
{
	const char *wi = getenv("WSL_INTEROP");
	if (wi && *wi)
		return true;
	struct strbuf bf = STRBUF_INIT;
	bool on = rootfs_read("/proc/sys/fs/binfmt_misc/WSLInterop", 4096, &bf, NULL) == 0 &&
		  !strncmp(sb_str(&bf), "enabled", 7);
	sb_release(&bf);
	return on;
}

static void start_windows(struct engine *e)
{
	const char *src = e->o->gpu_source ? e->o->gpu_source : "auto";
	if (!strcmp(src, "nvml") || (!strcmp(src, "auto") && !interop_works()))
		return;
	struct strbuf why = STRBUF_INIT;
	if (winload_command(e->o->interval_ms, &e->win_host, &e->win_enc, e->win_argv, &why) < 0) {
		sb_reset(&e->win.note);
		sb_add(&e->win.note, why.buf);
		e->win.state = GPUMON_UNAVAILABLE;
	} else {
		gpumon_start_windows(&e->win, e->o->interval_ms, e->win_argv);
	}
	sb_release(&why);
}

static bool pid_exists(int pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	struct stat st;
	return rootfs_stat(path, &st) == 0;
}

int watch_run(const struct watch_opts *o)
{
	struct watch_report rep;
	memset(&rep, 0, sizeof rep);
	rep.opts = o;
	rep.end_kind = "not-started";
	rep.gpu_state = "none";
	sb_init(&rep.end);
	sb_init(&rep.gpu_note);
	series_init(&rep.series);
	datafs_init(&rep.data);

	struct engine e;
	memset(&e, 0, sizeof e);
	e.o = o;
	e.r = &rep;
	e.sfd = -1;
	e.gpu.fd = -1; /* released even when never started */
	e.win.fd = -1;
	sb_init(&e.win.note);
	sb_init(&e.win_host);
	sb_init(&e.win_enc);
	sb_init(&rep.win_note);
	e.tree.fd_loadavg = -1;
	e.clk_tck = sysconf(_SC_CLK_TCK);
	e.page = sysconf(_SC_PAGESIZE);
	sb_init(&e.line);
	int rc = 0;
	struct strbuf path = STRBUF_INIT;

	if (o->pid > 0) {
		if (o->pid == getpid() || !pid_exists(o->pid)) {
			errorf("--pid %d: no such process", o->pid);
			rc = 2;
			goto out;
		}
	} else if (resolve_command(o->argv[0], &path) < 0) {
		errorf("%s: command not found", o->argv[0]);
		rc = 127;
		goto out;
	}
	if (o->csv) {
		e.csv = fopen(o->csv, "we"); /* e: O_CLOEXEC, the command must not inherit it */
		if (!e.csv) {
			errorf("--csv %s: %s", o->csv, strerror(errno));
			rc = 3; /* an output that cannot be written, as below */
			goto out;
		}
		watch_csv_header(e.csv);
		csv_written(&e, errno);
	}
	int err = setup_signals(&e);
	if (err < 0) {
		errorf("signalfd: %s", strerror(-err));
		rc = 3;
		goto out;
	}
	e.live = !o->quiet && isatty(2);
	term_width(&e);

	/* Windows' counters first: PowerShell takes longest to start. */
	start_windows(&e);
	/* The GPU sampler first: its first reading is the memory baseline. */
	gpumon_start(&e.gpu, o->interval_ms, o->nvml_lib ? o->nvml_lib : "libnvidia-ml.so.1");
	gpumon_wait(&e.gpu, 3000);
	e.gpu_before = e.gpu.last;
	machine_open(&e.mach);
	e.mach_open = true;

	/* Ctrl-C or kill while the sampler started: the command never runs. */
	sigset_t pending;
	int early = 0;
	if (sigpending(&pending) == 0)
		early = sigismember(&pending, SIGTERM) ? SIGTERM
			: sigismember(&pending, SIGINT) ? SIGINT : 0;
	if (early) {
		char buf[16];
		struct signalfd_siginfo si;
		while (read(e.sfd, &si, sizeof si) == (ssize_t)sizeof si)
			; /* consumed: it must not kill us when the mask is restored */
		errorf("interrupted by %s before %s", signal_name(early, buf),
			o->pid > 0 ? "watching began" : "the command started");
		rc = 128 + early;
		goto out;
	}
	rep.started = time(NULL);
	e.start_ms = now_ms();
	if (o->pid > 0) {
		e.root = o->pid;
	} else {
		rc = start_child(&e, path.buf);
		if (rc) {
			rep.exit_code = rc;
			goto out;
		}
		e.root = e.child;
	}
	tree_init(&e.tree, e.root);
	tree_scan(&e.tree, true);
	take_point(&e, false); /* the baseline reading */
	e.first_cpu = e.prev.tree.cpu;

	double next = e.start_ms + o->interval_ms;
	bool done = false;
	while (!done) {
		double wait = next - now_ms();
		struct pollfd pf[3] = { { .fd = e.sfd, .events = POLLIN },
					{ .fd = gpumon_fd(&e.gpu), .events = POLLIN },
					{ .fd = gpumon_fd(&e.win), .events = POLLIN } };
		int nfds = 3; /* poll skips a negative fd */
		/* While the command runs, a SIGCHLD on the signalfd wakes us. */
		if (wait > 0)
			poll(pf, (nfds_t)nfds, (int)ceil(wait));
		if (handle_signals(&e))
			done = true;
		gpumon_drain(&e.gpu);
		gpumon_drain(&e.win);
		if (e.child > 0 && child_ended(&e)) {
			take_point(&e, true);
			reap_child(&e);
			break;
		}
		if (done)
			break;
		double now = now_ms();
		if (now >= next) {
			tick(&e);
			while (next <= now_ms())
				next += o->interval_ms;
			if (o->pid > 0 && !e.prev.tree.root_alive) {
				sb_addf(&rep.end, "ended");
				rep.end_kind = "ended";
				break;
			}
		}
	}
	if (o->pid > 0 && e.stop_signal) {
		char buf[16];
		take_point(&e, true);
		rep.end_kind = "interrupted";
		rep.status = e.stop_signal;
		sb_addf(&rep.end, "was watched until %s", signal_name(e.stop_signal, buf));
		rep.exit_code = 128 + e.stop_signal;
	}
	rep.duration_s = (now_ms() - e.start_ms) / 1000.0;
	/* wait4 misses descendants nobody waited for (killed together with
	 * their parent, reaped by init); the tree saw them. */
	if (e.prev.tree.cpu >= e.first_cpu) {
		double tree_s = (double)(e.prev.tree.cpu - e.first_cpu) / (double)e.clk_tck;
		if (tree_s > rep.job_cpu_s)
			rep.job_cpu_s = tree_s;
	}
	/* A reading after the end, for the GPU memory baseline; not when told
	 * to stop: a hung sampler would hold the exit back. */
	if (e.gpu.state == GPUMON_RUNNING && !e.interrupted) {
		double w = o->interval_ms * 1.5;
		gpumon_wait(&e.gpu, w < 1500 ? w : 1500);
		e.gpu_after = e.gpu.last;
		if (e.gpu_after.t_ms <= e.prev.t_ms)
			e.gpu_after.valid = false; /* nothing new came */
	}
	gpumon_stop(&e.gpu);
	gpumon_stop(&e.win);
	if (e.csv && fclose(e.csv) != 0) {
		errorf("--csv %s: %s", o->csv, strerror(errno));
		e.output_failed = true;
	}
	e.csv = NULL;
	finish(&e);
	rc = rep.exit_code;
	if (e.output_failed) {
		/* Every write error exits 3, as for standard output; the job's
		 * own status is said, not lost. */
		errorf("exit status 3: an output was not written (the command %s)",
		       rep.end.len ? rep.end.buf : "ended");
		rc = 3;
	}

out:
	if (e.sfd >= 0)
		restore_signals(&e);
	gpumon_release(&e.gpu);
	gpumon_release(&e.win);
	sb_release(&e.win_host);
	sb_release(&e.win_enc);
	sb_release(&rep.win_note);
	if (e.csv)
		fclose(e.csv);
	if (e.mach_open)
		machine_close(&e.mach);
	tree_release(&e.tree);
	watch_verdict_release(&rep.verdict);
	series_release(&rep.series);
	datafs_release(&rep.data);
	sb_release(&rep.end);
	sb_release(&rep.gpu_note);
	sb_release(&e.line);
	sb_release(&path);
	return rc;
}
