/* proc.c: run one external command, bounded in time and output. See proc.h. */
#include "proc.h"

#include "result.h"
#include "rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void (*proc_spawn_hook)(pid_t pgid);
struct result *proc_evidence;

double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

const char *signal_name(int sig, char buf[16])
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGHUP, "SIGHUP" },   { SIGINT, "SIGINT" },   { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" },   { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" },   { SIGFPE, "SIGFPE" },   { SIGKILL, "SIGKILL" },
		{ SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
		{ SIGSYS, "SIGSYS" },   { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].sig == sig)
			return names[i].name;
	snprintf(buf, 16, "signal %d", sig);
	return buf;
}

void proc_result_init(struct proc_result *r)
{
	memset(r, 0, sizeof *r);
	sb_init(&r->out);
	sb_init(&r->err);
}

void proc_result_release(struct proc_result *r)
{
	sb_release(&r->out);
	sb_release(&r->err);
}

int proc_exec_replace(const char *const *argv)
{
	fflush(NULL);
	execv(argv[0], (char *const *)argv);
	return -errno;
}

void proc_describe_end(const struct proc_result *r, struct strbuf *sb)
{
	char buf[16];
	switch (r->end) {
	case PROC_EXITED:
		sb_addf(sb, "exited with status %d", r->code);
		break;
	case PROC_SIGNALED:
		sb_addf(sb, "killed by %s", signal_name(r->sig, buf));
		break;
	case PROC_TIMEOUT:
		sb_addf(sb, "did not finish within %.1f s and was killed", r->ms / 1000.0);
		break;
	case PROC_EXEC_FAILED:
		sb_addf(sb, "could not be executed: %s", strerror(r->code));
		break;
	}
}

/* Reads what is available; keeps up to cap bytes, drains the rest. */
static bool drain(int fd, struct strbuf *sb, size_t cap, bool *truncated)
{
	char buf[16384];
	ssize_t n = read(fd, buf, sizeof buf);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return false;
	size_t keep = sb->len < cap ? cap - sb->len : 0;
	if ((size_t)n > keep)
		*truncated = true;
	sb_addn(sb, buf, (size_t)n < keep ? (size_t)n : keep);
	return true;
}

/* "ran" evidence: the guest path of argv[0] (the root's prefix taken off),
 * each argument (an inline script or a long one shown by its size only),
 * and the end. */
static void record_run(const char *const *argv, const struct proc_result *r)
{
	struct strbuf sb = STRBUF_INIT;
	rootfs_guest_path(argv[0], &sb); /* argv[0] as it is when not inside the root */
	for (size_t i = 1; argv[i]; i++) {
		if (strlen(argv[i]) > 64 || strchr(argv[i], '\n'))
			sb_addf(&sb, " <%zu bytes>", strlen(argv[i]));
		else
			sb_addf(&sb, " %s", argv[i]);
	}
	sb_add(&sb, " (");
	proc_describe_end(r, &sb);
	sb_addf(&sb, ", %.0f ms)", r->ms);
	res_ev(proc_evidence, "ran", "%s", sb.buf);
	sb_release(&sb);
}

static int proc_run_raw(const char *const *argv, const struct proc_opts *opts,
			struct proc_result *r);

int proc_run(const char *const *argv, const struct proc_opts *opts, struct proc_result *r)
{
	int rc = proc_run_raw(argv, opts, r);
	if (rc == 0 && proc_evidence)
		record_run(argv, r);
	return rc;
}

static int proc_run_raw(const char *const *argv, const struct proc_opts *opts,
			struct proc_result *r)
{
	int timeout_ms = opts && opts->timeout_ms > 0 ? opts->timeout_ms : 10000;
	size_t cap = opts && opts->cap ? opts->cap : PROC_OUTPUT_CAP;
	int out[2], err[2], ex[2];
	double start = now_ms();

	if (pipe2(out, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		int e = errno;
		close(out[0]);
		close(out[1]);
		return -e;
	}
	/* Carries execve's errno back; closed by a successful exec. */
	if (pipe2(ex, O_CLOEXEC) < 0) {
		int e = errno;
		close(out[0]); close(out[1]); close(err[0]); close(err[1]);
		return -e;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(out[0]); close(out[1]); close(err[0]); close(err[1]);
		close(ex[0]); close(ex[1]);
		return -e;
	}
	if (pid == 0) {
		setpgid(0, 0);
		/* If the probe that started us is killed, so are we. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		signal(SIGPIPE, SIG_DFL);
		if (opts && opts->env_set)
			for (const char *const *e = opts->env_set; *e; e++)
				putenv((char *)*e);
		execv(argv[0], (char *const *)argv);
		int e = errno;
		ssize_t w = write(ex[1], &e, sizeof e);
		(void)w;
		_exit(127);
	}
	setpgid(pid, pid); /* also here: no race with the child's own call */
	if (proc_spawn_hook)
		proc_spawn_hook(pid);
	close(out[1]);
	close(err[1]);
	close(ex[1]);

	int exec_errno = 0;
	ssize_t got = read(ex[0], &exec_errno, sizeof exec_errno);
	close(ex[0]);

	bool out_open = true, err_open = true, timed_out = false, exited = false;
	int status = 0;
	double deadline = start + timeout_ms;
	double exit_grace = 0; /* when the child exited, how long we still read */
	while (out_open || err_open) {
		double now = now_ms();
		if (!exited && now >= deadline) {
			kill(-pid, SIGKILL);
			timed_out = true;
			break;
		}
		if (exited && now >= exit_grace)
			break; /* a grandchild holds the pipe open; stop waiting for it */
		int wait_ms = (int)((exited ? exit_grace : deadline) - now) + 1;
		if (!exited && wait_ms > 50)
			wait_ms = 50; /* also poll for the exit itself */
		struct pollfd p[2] = { { out_open ? out[0] : -1, POLLIN, 0 },
				       { err_open ? err[0] : -1, POLLIN, 0 } };
		int n = poll(p, 2, wait_ms);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0) {
			if (out_open && (p[0].revents & (POLLIN | POLLHUP | POLLERR)))
				out_open = drain(out[0], &r->out, cap, &r->out_truncated);
			if (err_open && (p[1].revents & (POLLIN | POLLHUP | POLLERR)))
				err_open = drain(err[0], &r->err, cap, &r->err_truncated);
		}
		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = true;
			exit_grace = now_ms() + 200;
		}
	}
	close(out[0]);
	close(err[0]);
	/* Whatever is left in the group (grandchildren) goes too. */
	kill(-pid, SIGKILL);
	if (!exited)
		waitpid(pid, &status, 0);
	r->ms = now_ms() - start;
	if (got == (ssize_t)sizeof exec_errno) {
		r->end = PROC_EXEC_FAILED;
		r->code = exec_errno;
	} else if (timed_out) {
		r->end = PROC_TIMEOUT;
	} else if (WIFSIGNALED(status)) {
		r->end = PROC_SIGNALED;
		r->sig = WTERMSIG(status);
	} else {
		r->end = PROC_EXITED;
		r->code = WEXITSTATUS(status);
	}
	return 0;
}
