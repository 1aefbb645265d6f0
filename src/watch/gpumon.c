/* gpumon.c: the isolated NVML sampler of watch. See gpumon.h. */
#include "gpumon.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/proc.h"
#include "../facts/windows.h"
#include "../gpu/nvmlapi.h"

#define GPU_MAX_DEVICES 16
/* NVML init can take seconds on a busy WSL host; a first word later than
 * this counts as a hang. */
#define GPUMON_START_MS 15000.0

enum { MSG_HELLO = 1, MSG_SAMPLE = 2, MSG_UNAVAILABLE = 3 };
#define MSG_MAGIC 0x55504757u /* "WGPU" */
enum { MSGF_UTIL_VM = 1, MSGF_MEM_VM = 2 };

struct gpu_msg {
	uint32_t magic;
	uint32_t type;
	int32_t ndev;
	int32_t util_n;  /* devices that reported utilisation */
	int32_t util_rc; /* NVML's answer for the first device that did not */
	int32_t mem_n;
	int32_t mem_rc;
	int32_t flags;   /* MSGF_*: Windows figures of WSL's VM */
	double util_sum;
	double mem_used, mem_total; /* bytes */
	char text[240];             /* HELLO: device name; UNAVAILABLE: why */
};

_Static_assert(sizeof(struct gpu_msg) <= 512, "a record must fit rbuf and PIPE_BUF");
_Static_assert(sizeof(struct gpu_msg) <= sizeof(((struct gpu_monitor *)0)->rbuf),
	       "rbuf holds a whole record");

/* ---- the sampler process ---- */

static void send_msg(int fd, const struct gpu_msg *m)
{
	ssize_t w;
	do
		w = write(fd, m, sizeof *m);
	while (w < 0 && errno == EINTR);
	if (w != (ssize_t)sizeof *m)
		_exit(0); /* the parent is gone or stopped listening */
}

static void send_text(int fd, uint32_t type, const char *text)
{
	struct gpu_msg m;
	memset(&m, 0, sizeof m);
	m.magic = MSG_MAGIC;
	m.type = type;
	snprintf(m.text, sizeof m.text, "%s", text);
	send_msg(fd, &m);
}

static void sleep_until(struct timespec *next, double interval_ms)
{
	long long ns = (long long)(interval_ms * 1e6);
	next->tv_sec += ns / 1000000000LL;
	next->tv_nsec += ns % 1000000000LL;
	if (next->tv_nsec >= 1000000000L) {
		next->tv_sec++;
		next->tv_nsec -= 1000000000L;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > next->tv_sec ||
	    (now.tv_sec == next->tv_sec && now.tv_nsec > next->tv_nsec))
		*next = now; /* late (suspended?): do not try to catch up */
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
}

static __attribute__((noreturn)) void sampler_main(int fd, double interval_ms, const char *lib)
{
	struct nvmlapi n;
	struct strbuf sb = STRBUF_INIT;
	if (nvmlapi_open(&n, lib, &sb) < 0) {
		struct strbuf why = STRBUF_INIT;
		sb_addf(&why, "%s could not be loaded: %s", lib, sb_str(&sb));
		send_text(fd, MSG_UNAVAILABLE, why.buf);
		_exit(0);
	}
	int rc = nvmlapi_init(&n);
	if (rc != NVML_SUCCESS) {
		sb_reset(&sb);
		sb_addf(&sb, "nvmlInit failed: %s (%s)", nvml_return_name(rc),
			nvmlapi_error_string(&n, rc));
		send_text(fd, MSG_UNAVAILABLE, sb.buf);
		_exit(0);
	}
	unsigned count = 0;
	rc = nvmlapi_device_count(&n, &count);
	if (rc != NVML_SUCCESS || count == 0) {
		sb_reset(&sb);
		if (rc != NVML_SUCCESS)
			sb_addf(&sb, "nvmlDeviceGetCount failed: %s", nvml_return_name(rc));
		else
			sb_add(&sb, "NVML sees no GPU");
		send_text(fd, MSG_UNAVAILABLE, sb.buf);
		_exit(0);
	}
	if (count > GPU_MAX_DEVICES)
		count = GPU_MAX_DEVICES;
	nvmlapi_device dev[GPU_MAX_DEVICES];
	unsigned ndev = 0;
	for (unsigned i = 0; i < count; i++)
		if (nvmlapi_device_handle(&n, i, &dev[ndev]) == NVML_SUCCESS)
			ndev++;
	if (!ndev) {
		send_text(fd, MSG_UNAVAILABLE, "nvmlDeviceGetHandleByIndex failed for every GPU");
		_exit(0);
	}
	sb_reset(&sb);
	if (nvmlapi_device_name(&n, dev[0], &sb) != NVML_SUCCESS)
		sb_add(&sb, "GPU 0");
	send_text(fd, MSG_HELLO, sb.buf);

	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		struct gpu_msg m;
		memset(&m, 0, sizeof m);
		m.magic = MSG_MAGIC;
		m.type = MSG_SAMPLE;
		m.ndev = (int32_t)ndev;
		for (unsigned i = 0; i < ndev; i++) {
			struct nvmlapi_utilization u;
			rc = nvmlapi_device_utilization(&n, dev[i], &u);
			if (rc == NVML_SUCCESS && u.gpu <= 100) {
				m.util_n++;
				m.util_sum += u.gpu;
			} else if (!m.util_rc) {
				m.util_rc = rc;
			}
			struct nvmlapi_memory mem;
			rc = nvmlapi_device_memory(&n, dev[i], &mem);
			if (rc == NVML_SUCCESS && mem.used <= mem.total) {
				m.mem_n++;
				m.mem_used += (double)mem.used;
				m.mem_total += (double)mem.total;
			} else if (!m.mem_rc) {
				m.mem_rc = rc;
			}
		}
		send_msg(fd, &m);
		sleep_until(&next, interval_ms);
	}
}

/* Windows' counters: runs cmd with its output on a pipe and sends a
 * record for each sample it prints. */
static __attribute__((noreturn)) void sampler_windows(int fd, const char *const *cmd)
{
	pid_t ps;
	int out = proc_start_reader(cmd, &ps);
	if (out < 0)
		_exit(1);

	struct strbuf in = STRBUF_INIT;
	bool hello = false;
	char chunk[4096];
	for (;;) {
		ssize_t n = read(out, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sb_addn(&in, chunk, (size_t)n);
		char *end;
		while (in.buf && (end = strstr(in.buf, WINLOAD_END)) != NULL) {
			struct winload l;
			size_t upto = (size_t)(end - in.buf);
			int rc = winload_parse(in.buf, upto, &l);
			char *nl = strchr(end, '\n');
			size_t used = nl ? (size_t)(nl + 1 - in.buf) : in.len;
			memmove(in.buf, in.buf + used, in.len - used);
			in.len -= used;
			in.buf[in.len] = '\0';
			if (rc < 0)
				continue;
			if (!hello) {
				struct strbuf name = STRBUF_INIT;
				sb_addf(&name, "Windows adapter %s", l.luid[0] ? l.luid : "(unnamed)");
				send_text(fd, MSG_HELLO, name.buf);
				sb_release(&name);
				hello = true;
			}
			struct gpu_msg m;
			memset(&m, 0, sizeof m);
			m.magic = MSG_MAGIC;
			m.type = MSG_SAMPLE;
			m.ndev = 1;
			/* The VM's share where the counters name its processes
			 * (the job runs in it), the GPU's otherwise. */
			if (l.vm_util_ok || l.util_ok) {
				m.util_n = 1;
				m.util_sum = l.vm_util_ok ? l.vm_util : l.util;
				m.flags |= l.vm_util_ok ? MSGF_UTIL_VM : 0;
			}
			if (l.vm_mem_ok || l.mem_ok) {
				m.mem_n = 1;
				m.mem_used = l.vm_mem_ok ? l.vm_mem : l.mem;
				m.flags |= l.vm_mem_ok ? MSGF_MEM_VM : 0;
			}
			send_msg(fd, &m);
		}
		/* A runaway line without a sample's end is dropped. */
		if (in.len > (4u << 20))
			sb_reset(&in);
	}
	int ws = 0;
	while (waitpid(ps, &ws, 0) < 0 && errno == EINTR)
		;
	if (!hello) {
		struct strbuf why = STRBUF_INIT;
		sb_addf(&why, "%s ", cmd[0]);
		if (WIFEXITED(ws))
			sb_addf(&why, "exited with status %d before its first sample", WEXITSTATUS(ws));
		else
			sb_addf(&why, "was killed by signal %d before its first sample", WTERMSIG(ws));
		send_text(fd, MSG_UNAVAILABLE, why.buf);
		sb_release(&why);
		_exit(0);
	}
	_exit(1); /* after samples: a crash, restarted by the parent */
}

/* ---- the parent side ---- */

static void spawn(struct gpu_monitor *g)
{
	int p[2];
	g->state = GPUMON_GAVE_UP;
	if (pipe2(p, O_CLOEXEC) < 0) {
		sb_reset(&g->note);
		sb_addf(&g->note, "no GPU sampler: pipe: %s", strerror(errno));
		return;
	}
	pid_t parent = getpid();
	fflush(NULL); /* nothing buffered may be written twice */
	pid_t pid = fork();
	if (pid < 0) {
		sb_reset(&g->note);
		sb_addf(&g->note, "no GPU sampler: fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0) {
		close(p[0]);
		/* Detached like a probe's child: NVML and the Windows query get
		 * no terminal to write to, change or be stopped by. */
		proc_child_setup(parent, 1, 2, &p[1], 1);
		/* The sampler ends only when the parent says so. */
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGPIPE, SIG_IGN);
		if (g->cmd)
			sampler_windows(p[1], g->cmd);
		sampler_main(p[1], g->interval_ms, g->lib);
	}
	close(p[1]);
	int fl = fcntl(p[0], F_GETFL);
	if (fl >= 0)
		fcntl(p[0], F_SETFL, fl | O_NONBLOCK);
	g->pid = pid;
	g->fd = p[0];
	g->rlen = 0;
	g->state = GPUMON_STARTING;
	g->last_msg_ms = now_ms();
}

void gpumon_start(struct gpu_monitor *g, double interval_ms, const char *lib)
{
	memset(g, 0, sizeof *g);
	sb_init(&g->note);
	g->fd = -1;
	g->interval_ms = interval_ms;
	g->lib = lib;
	spawn(g);
}

void gpumon_start_windows(struct gpu_monitor *g, double interval_ms, const char *const *cmd)
{
	memset(g, 0, sizeof *g);
	sb_init(&g->note);
	g->fd = -1;
	g->interval_ms = interval_ms;
	g->cmd = cmd;
	spawn(g);
}

int gpumon_fd(const struct gpu_monitor *g)
{
	return g->fd;
}

static void apply(struct gpu_monitor *g, const struct gpu_msg *m)
{
	g->last_msg_ms = now_ms();
	switch (m->type) {
	case MSG_HELLO:
		g->state = GPUMON_RUNNING;
		/* A device name is short; cut a long one to the field. */
		snprintf(g->name, sizeof g->name, "%.*s", (int)sizeof g->name - 1, m->text);
		break;
	case MSG_UNAVAILABLE:
		g->state = GPUMON_UNAVAILABLE;
		sb_reset(&g->note);
		sb_addf(&g->note, "%.*s", (int)sizeof m->text, m->text);
		break;
	case MSG_SAMPLE: {
		g->state = GPUMON_RUNNING;
		struct gpu_reading *r = &g->last;
		memset(r, 0, sizeof *r);
		r->valid = true;
		r->t_ms = g->last_msg_ms;
		r->ndev = m->ndev;
		r->util_ok = m->util_n > 0;
		r->util = r->util_ok ? m->util_sum / m->util_n : 0;
		r->mem_ok = m->mem_n > 0;
		r->mem_used_mib = m->mem_used / 1048576.0;
		r->mem_total_mib = m->mem_total / 1048576.0;
		r->util_vm = m->flags & MSGF_UTIL_VM;
		r->mem_vm = m->flags & MSGF_MEM_VM;
		if (!r->util_ok) {
			g->util_rc = m->util_rc;
			g->util_unsupported = nvml_rc_unavailable(m->util_rc);
		}
		g->nreadings++;
		break;
	}
	default:
		break;
	}
}

int gpumon_drain(struct gpu_monitor *g)
{
	int got = 0;
	while (g->fd >= 0) {
		ssize_t n = read(g->fd, g->rbuf + g->rlen, sizeof g->rbuf - g->rlen);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break; /* EAGAIN: nothing more now */
		}
		if (n == 0) { /* the sampler exited; gpumon_check reaps it */
			close(g->fd);
			g->fd = -1;
			break;
		}
		g->rlen += (size_t)n;
		while (g->rlen >= sizeof(struct gpu_msg)) {
			struct gpu_msg m;
			memcpy(&m, g->rbuf, sizeof m);
			memmove(g->rbuf, g->rbuf + sizeof m, g->rlen - sizeof m);
			g->rlen -= sizeof m;
			if (m.magic != MSG_MAGIC) { /* cannot happen short of a bug: resync */
				g->rlen = 0;
				break;
			}
			apply(g, &m);
			got++;
		}
	}
	return got;
}

static void add_rusage(struct gpu_monitor *g, const struct rusage *ru)
{
	g->sampler_cpu_s += (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
			    (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* Reaps the sampler (blocking when it was just killed). */
static bool reap(struct gpu_monitor *g, bool block, int *wstatus)
{
	struct rusage ru;
	memset(&ru, 0, sizeof ru);
	pid_t r;
	do
		r = wait4(g->pid, wstatus, block ? 0 : WNOHANG, &ru);
	while (r < 0 && errno == EINTR);
	if (r != g->pid)
		return false;
	add_rusage(g, &ru);
	g->pid = 0;
	if (g->fd >= 0) {
		gpumon_drain(g);
		if (g->fd >= 0)
			close(g->fd);
		g->fd = -1;
	}
	return true;
}

static void crashed(struct gpu_monitor *g, const char *how)
{
	g->crashes++;
	if (g->crashes < GPUMON_MAX_CRASHES) {
		spawn(g);
		return;
	}
	g->state = GPUMON_GAVE_UP;
	sb_reset(&g->note);
	sb_addf(&g->note, "the GPU sampler (%s) %s %d time%s; no GPU figures after that",
		g->cmd ? "powershell.exe" : "libnvidia-ml", how, g->crashes, g->crashes == 1 ? "" : "s");
}

void gpumon_check(struct gpu_monitor *g)
{
	if (g->pid <= 0)
		return;
	int ws = 0;
	if (reap(g, false, &ws)) {
		if (g->state == GPUMON_UNAVAILABLE)
			return; /* it said why and left */
		char buf[16];
		struct strbuf how = STRBUF_INIT;
		if (WIFSIGNALED(ws))
			sb_addf(&how, "was killed by %s", signal_name(WTERMSIG(ws), buf));
		else
			sb_addf(&how, "exited with status %d", WEXITSTATUS(ws));
		crashed(g, how.buf);
		sb_release(&how);
		return;
	}
	double limit = g->state == GPUMON_STARTING ? GPUMON_START_MS : GPUMON_HANG_MS;
	/* Three WMI queries on a busy Windows take longer than NVML's. */
	if (g->cmd && limit < 2 * GPUMON_HANG_MS)
		limit = 2 * GPUMON_HANG_MS;
	if (limit < 5 * g->interval_ms)
		limit = 5 * g->interval_ms;
	if (now_ms() - g->last_msg_ms > limit) {
		kill(g->pid, SIGKILL);
		reap(g, true, &ws);
		crashed(g, "hung");
	}
}

void gpumon_wait(struct gpu_monitor *g, double timeout_ms)
{
	double deadline = now_ms() + timeout_ms;
	unsigned long long before = g->nreadings;
	while (g->pid > 0 && g->nreadings == before && g->state != GPUMON_UNAVAILABLE) {
		double left = deadline - now_ms();
		if (left <= 0)
			break;
		if (g->fd >= 0) {
			struct pollfd pfd = { .fd = g->fd, .events = POLLIN };
			poll(&pfd, 1, (int)left + 1);
			gpumon_drain(g);
		} else {
			usleep(10000);
		}
		gpumon_check(g);
	}
}

void gpumon_stop(struct gpu_monitor *g)
{
	if (g->pid > 0) {
		kill(g->pid, SIGKILL);
		int ws;
		reap(g, true, &ws);
	}
	if (g->fd >= 0) {
		close(g->fd);
		g->fd = -1;
	}
}

void gpumon_release(struct gpu_monitor *g)
{
	gpumon_stop(g);
	sb_release(&g->note);
}
