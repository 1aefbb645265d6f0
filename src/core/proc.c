/* proc.c: run one external command, bounded in time and output. See proc.h. */
#include "proc.h"

#include "rootfs.h"
#include "sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
		{ SIGSTOP, "SIGSTOP" }, { SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" },
		{ SIGTTOU, "SIGTTOU" }, { SIGCONT, "SIGCONT" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].sig == sig)
			return names[i].name;
	snprintf(buf, 16, "signal %d", sig);
	return buf;
}

/* ---- what a child must not inherit, and what it leaves behind ---- */

static bool kept(int fd, const int *keep, size_t nkeep)
{
	for (size_t i = 0; i < nkeep; i++)
		if (keep[i] == fd)
			return true;
	return false;
}

/* close_range(2) where the kernel has it (5.9); -1 with ENOSYS otherwise. */
static int close_fd_range(unsigned lo, unsigned hi)
{
#ifdef SYS_close_range
	return (int)syscall(SYS_close_range, lo, hi, 0);
#else
	(void)lo;
	(void)hi;
	errno = ENOSYS;
	return -1;
#endif
}

/* Old kernels: the descriptors /proc/self/fd lists (read with getdents64,
 * which needs no malloc: this runs between fork and exec), else every
 * number up to the descriptor limit. */
static void close_fds_slowly(const int *keep, size_t nkeep)
{
	int dfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		char buf[4096];
		for (;;) {
			long n = syscall(SYS_getdents64, dfd, buf, sizeof buf);
			if (n <= 0)
				break;
			for (long off = 0; off < n;) {
				struct dirent64 *d = (struct dirent64 *)(buf + off);
				off += d->d_reclen;
				char *end;
				long fd = strtol(d->d_name, &end, 10);
				if (*end || end == d->d_name || fd < 3 || fd == dfd ||
				    kept((int)fd, keep, nkeep))
					continue;
				close((int)fd);
			}
		}
		close(dfd);
		return;
	}
	struct rlimit rl;
	long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
			   ? (long)rl.rlim_cur : 65536;
	if (max > 65536)
		max = 65536;
	for (long fd = 3; fd < max; fd++)
		if (!kept((int)fd, keep, nkeep))
			close((int)fd);
}

void proc_close_fds(const int *keep, size_t nkeep)
{
	/* The gaps between the kept descriptors, lowest first. */
	unsigned lo = 3;
	for (;;) {
		unsigned next = UINT_MAX;
		for (size_t i = 0; i < nkeep; i++)
			if (keep[i] >= (int)lo && (unsigned)keep[i] < next)
				next = (unsigned)keep[i];
		if (next > lo && close_fd_range(lo, next == UINT_MAX ? UINT_MAX : next - 1) < 0) {
			close_fds_slowly(keep, nkeep);
			return;
		}
		if (next == UINT_MAX)
			return;
		lo = next + 1;
	}
}

void proc_detach(void)
{
	/* A group leader cannot start a session; then at least a group. */
	if (setsid() < 0)
		setpgid(0, 0);
}

int proc_fd_high(int fd, int slot)
{
	struct rlimit rl;
	long top = 1024;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (long)rl.rlim_cur < top)
		top = (long)rl.rlim_cur;
	/* Not past 1024: a high number grows the descriptor table to it. */
	long want = top - 1 - slot;
	if (fd < 0 || want <= fd)
		return fd;
	int moved = fcntl(fd, F_DUPFD_CLOEXEC, (int)want);
	if (moved < 0)
		return fd;
	close(fd);
	return moved;
}

/* Appends the pids of this process's children (every thread's) to *v. */
static size_t list_children(pid_t **v, size_t *alloc)
{
	size_t n = 0;
	DIR *d = opendir("/proc/self/task");
	bool any = false;
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char path[300];
			snprintf(path, sizeof path, "/proc/self/task/%s/children", e->d_name);
			FILE *f = fopen(path, "re");
			if (!f)
				continue;
			any = true;
			long pid;
			while (fscanf(f, "%ld", &pid) == 1) {
				if (n == *alloc) {
					*alloc = *alloc ? *alloc * 2 : 16;
					*v = xrealloc(*v, *alloc * sizeof **v);
				}
				(*v)[n++] = (pid_t)pid;
			}
			fclose(f);
		}
		closedir(d);
	}
	if (any)
		return n;
	/* No children files (a kernel without CONFIG_PROC_CHILDREN): every
	 * process whose parent we are. */
	d = opendir("/proc");
	if (!d)
		return 0;
	pid_t self = getpid();
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		char path[300], buf[512];
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t got = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (got <= 0)
			continue;
		buf[got] = '\0';
		const char *rp = strrchr(buf, ')');
		int ppid;
		if (rp && sscanf(rp + 1, " %*c %d", &ppid) == 1 && ppid == self) {
			if (n == *alloc) {
				*alloc = *alloc ? *alloc * 2 : 16;
				*v = xrealloc(*v, *alloc * sizeof **v);
			}
			(*v)[n++] = (pid_t)atol(e->d_name);
		}
	}
	closedir(d);
	return n;
}

/* Whether this process (any of its threads) has a child, running or not
 * waited for, of any kind (__WALL): one system call, where listing them
 * takes a directory and a file per thread. */
static bool has_children(void)
{
	siginfo_t info;
	return waitid(P_ALL, 0, &info,
		      WEXITED | WSTOPPED | WCONTINUED | WNOHANG | WNOWAIT | __WALL) == 0 ||
	       errno != ECHILD;
}

size_t proc_end_children(const pid_t *keep, size_t nkeep)
{
	pid_t *v = NULL;
	size_t alloc = 0, ended = 0;
	/* A killed child's own children become ours (we are a subreaper), so
	 * go round until none is left; a bound against a fork bomb. */
	for (int round = 0; round < 64 && has_children(); round++) {
		size_t n = list_children(&v, &alloc), k = 0;
		for (size_t i = 0; i < n; i++) {
			bool keepit = false;
			for (size_t j = 0; j < nkeep && !keepit; j++)
				keepit = keep[j] == v[i];
			if (!keepit)
				v[k++] = v[i];
		}
		if (!k)
			break;
		for (size_t i = 0; i < k; i++) {
			kill(-v[i], SIGKILL); /* its group, if it leads one (setsid) */
			kill(v[i], SIGKILL);
		}
		for (size_t i = 0; i < k; i++)
			if (waitpid(v[i], NULL, 0) == v[i])
				ended++;
	}
	free(v);
	return ended;
}

void proc_result_init(struct proc_result *r)
{
	memset(r, 0, sizeof *r);
	sb_init(&r->out);
	sb_init(&r->err);
	sb_init(&r->ran_here);
}

void proc_result_release(struct proc_result *r)
{
	sb_release(&r->out);
	sb_release(&r->err);
	sb_release(&r->ran_here);
}

/* A child starts with no signal blocked and SIGPIPE's default (an exec keeps both). */
static void default_signals(void)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
}

int proc_child_setup(pid_t parent, int out, int err, const int *keep, size_t nkeep)
{
	proc_detach();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	int rc = 0;
	int devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0 && dup2(devnull, 0) < 0)
		rc = -1;
	if (dup2(out, 1) < 0 || dup2(err >= 0 ? err : devnull, 2) < 0)
		rc = -1;
	proc_close_fds(keep, nkeep);
	default_signals();
	return rc;
}

/*
 * Starting a command. A fork copies this process's page tables, and every
 * page either side writes afterwards faults to be copied: on a VM where a
 * fault costs tens of microseconds, the fork of a probe's child for one
 * exec cost more than the command's own start. So a command's child is a
 * clone that shares this process's memory until its exec (CLONE_VM |
 * CLONE_VFORK, what posix_spawn does): nothing is copied, this process
 * waits the few system calls until the exec. posix_spawn itself cannot
 * give the child what proc_child_setup and the sandbox do (the parent's
 * death signal, the seccomp filter, no_new_privs, a chroot in a user
 * namespace), so the child is ours; everything it calls until the exec
 * is a system call on its own stack, and what it needs -- the environment
 * included, never putenv in shared memory -- is made before the clone.
 * All signals are blocked across the clone and the child puts every
 * caught one back to its default before it unblocks any: a handler of
 * ours must not run on our memory in the child.
 */
struct spawn {
	pid_t parent;
	int out, err; /* its stdout, stderr (-1: /dev/null) */
	int ex;       /* where an exec error goes (-1: nowhere) */
	const char *const *argv;
	char *const *envp;
	const struct sandbox_cmd *sbx;
};

#ifndef _NSIG
#define _NSIG 65
#endif

static int spawn_child(void *arg)
{
	const struct spawn *sp = arg;
	for (int sig = 1; sig < _NSIG; sig++) {
		struct sigaction sa;
		if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &sa) < 0 ||
		    sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_DFL;
		sigaction(sig, &sa, NULL);
	}
	if (proc_child_setup(sp->parent, sp->out, sp->err, &sp->ex, sp->ex >= 0) < 0 &&
	    sp->ex < 0)
		_exit(127);
	const char *prog = sandbox_cmd_enter(sp->sbx, sp->argv[0]);
	if (prog)
		execve(prog, (char *const *)sp->argv, sp->envp);
	int e = errno;
	if (sp->ex >= 0) {
		ssize_t w = write(sp->ex, &e, sizeof e);
		(void)w;
	}
	_exit(127);
}

#if defined(__SANITIZE_ADDRESS__)
#define PROC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROC_ASAN 1
#endif
#endif
#ifdef PROC_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* Starts sp's command; its pid, or -errno. Returns once the child has
 * exec'd or died. */
static pid_t spawn_start(const struct spawn *sp)
{
	/* The child's stack, in this frame: this process is stopped while
	 * the child uses it. Aligned for any ABI. */
	_Alignas(64) char stack[64 << 10];
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid_t pid = clone(spawn_child, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD,
			  (void *)sp);
	int e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
#ifdef PROC_ASAN
	/* The child's frames poisoned what is our array again. */
	ASAN_UNPOISON_MEMORY_REGION(stack, sizeof stack);
#endif
	return pid < 0 ? -e : pid;
}

/* The environment for a command: ours with env_set's "NAME=value" entries
 * put in (NULL: ours as it is), made before the clone (the child must not
 * allocate). Free with free() (the strings are not copied). */
static char **spawn_env(const char *const *env_set)
{
	if (!env_set || !env_set[0])
		return NULL;
	size_t n = 0, k = 0, nset = 0;
	while (environ && environ[n])
		n++;
	while (env_set[nset])
		nset++;
	char **envp = xcalloc(n + nset + 1, sizeof *envp);
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(environ[i], "=");
		bool replaced = false;
		for (size_t j = 0; j < nset && !replaced; j++)
			replaced = !strncmp(env_set[j], environ[i], len) && env_set[j][len] == '=';
		if (!replaced)
			envp[k++] = environ[i];
	}
	for (size_t j = 0; j < nset; j++)
		envp[k++] = (char *)env_set[j];
	return envp;
}

/* A descriptor that polls readable when process pid has exited
 * (pidfd_open, Linux 5.3), or -1: then the caller polls for the exit. */
static int exit_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0); /* close-on-exec already */
#else
	(void)pid;
	return -1;
#endif
}

/* argv with the program named as the described machine names it, for a
 * command run chrooted into it (sandbox_cmd_plan said so). Free it. */
static const char **argv_in_root(const char *const *argv, const struct sandbox_cmd *sbx)
{
	size_t n = 0;
	while (argv[n])
		n++;
	const char **in_root = xcalloc(n + 1, sizeof *in_root);
	memcpy(in_root, argv, n * sizeof *in_root);
	in_root[0] = sbx->path.buf;
	return in_root;
}

int proc_start_reader(const char *const *argv, pid_t *pid_out)
{
	int p[2];
	struct sandbox_cmd sbx;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	sandbox_cmd_plan(argv[0], &sbx);
	const char *const *run = argv;
	const char **in_root = sbx.chroot ? argv_in_root(argv, &sbx) : NULL;
	if (in_root)
		run = in_root;
	struct spawn sp = { getpid(), p[1], -1, -1, run, environ, &sbx };
	pid_t pid = spawn_start(&sp);
	free(in_root);
	close(p[1]);
	sandbox_cmd_release(&sbx);
	if (pid < 0) {
		close(p[0]);
		return pid;
	}
	*pid_out = pid;
	return p[0];
}

int proc_start_pager(const char *const *argv, const char *const *env_set, pid_t *pid_out)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid_t parent = getpid(), pid = fork();
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent || dup2(p[0], 0) < 0)
			_exit(127);
		proc_close_fds(NULL, 0);
		default_signals();
		for (size_t i = 0; env_set && env_set[i]; i++)
			putenv((char *)env_set[i]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(p[0]);
	*pid_out = pid;
	return p[1];
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
	case PROC_STOPPED:
		sb_addf(sb, "was stopped by %s and killed", signal_name(r->sig, buf));
		break;
	case PROC_OUTPUT_OVER:
		if (r->out.len % 1024 == 0)
			sb_addf(sb, "printed more than %zu KiB and was stopped", r->out.len >> 10);
		else
			sb_addf(sb, "printed more than %zu bytes and was stopped", r->out.len);
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

static int proc_run_raw(const char *const *argv, const struct proc_opts *opts,
			struct proc_result *r, const struct sandbox_cmd *sbx);

int proc_run(const char *const *argv, const struct proc_opts *opts, struct proc_result *r)
{
	const struct proc_watch *watch = opts ? opts->watch : NULL;
	if (watch && watch->defer && watch->defer(watch->arg))
		return -EAGAIN;
	/* A program of the described machine runs in it, where it can; every
	 * command runs where it cannot change this machine (sandbox.h). */
	struct sandbox_cmd sbx;
	sandbox_cmd_plan(argv[0], &sbx);
	const char **in_root = sbx.chroot ? argv_in_root(argv, &sbx) : NULL;
	int rc = proc_run_raw(in_root ? in_root : argv, opts, r, &sbx);
	free(in_root);
	if (rc == 0 && sbx.here.len)
		sb_addf(&r->ran_here, "%s ran on this machine (its loader, libraries and "
			"files), not in the described machine: %s", sb_str(&sbx.path), sbx.here.buf);
	sandbox_cmd_release(&sbx);
	return rc;
}

static int proc_run_raw(const char *const *argv, const struct proc_opts *opts,
			struct proc_result *r, const struct sandbox_cmd *sbx)
{
	const struct proc_watch *watch = opts ? opts->watch : NULL;
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
	char **envp = spawn_env(opts ? opts->env_set : NULL);
	struct spawn sp = { getpid(), out[1], err[1], ex[1], argv, envp ? envp : environ, sbx };
	pid_t pid = spawn_start(&sp);
	free(envp);
	if (pid < 0) {
		close(out[0]); close(out[1]); close(err[0]); close(err[1]);
		close(ex[0]); close(ex[1]);
		return pid;
	}
	/* The child has exec'd or died (CLONE_VFORK; valgrind makes it a
	 * fork, where it may not have yet: the kills below by pid reach it
	 * before its setsid()). */
	if (watch && watch->started)
		watch->started(watch->arg, pid);
	close(out[1]);
	close(err[1]);
	close(ex[1]);
	/* Its exit wakes the waits below at once (no sleep between polls for
	 * it: a command's exit is often what the run waits for). */
	int xfd = exit_fd(pid);

	int exec_errno = 0;
	ssize_t got = read(ex[0], &exec_errno, sizeof exec_errno);
	close(ex[0]);

	bool stop_at_cap = opts && opts->stop_at_cap;
	bool out_open = true, err_open = true, timed_out = false, exited = false, over = false;
	int status = 0, stop_sig = 0;
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
			wait_ms = 50; /* a stop wakes nothing: look for it too */
		struct pollfd p[3] = { { out_open ? out[0] : -1, POLLIN, 0 },
				       { err_open ? err[0] : -1, POLLIN, 0 },
				       { exited ? -1 : xfd, POLLIN, 0 } };
		int n = poll(p, 3, wait_ms);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0) {
			if (out_open && (p[0].revents & (POLLIN | POLLHUP | POLLERR)))
				out_open = drain(out[0], &r->out, cap, &r->out_truncated);
			if (err_open && (p[1].revents & (POLLIN | POLLHUP | POLLERR)))
				err_open = drain(err[0], &r->err, cap, &r->err_truncated);
			if (stop_at_cap && r->out_truncated && !exited) {
				/* the rest could not be kept: reading it to its
				 * end only burns CPU (the group goes, grandchildren
				 * with it) */
				kill(-pid, SIGKILL);
				over = true;
				break;
			}
		}
		if (!exited && waitpid(pid, &status, WNOHANG | WUNTRACED) == pid) {
			if (WIFSTOPPED(status)) {
				/* Stopped, it would only run into the time
				 * limit and read as a hang: say what it is. */
				stop_sig = WSTOPSIG(status);
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				break;
			}
			exited = true;
			exit_grace = now_ms() + 200;
		}
	}
	close(out[0]);
	close(err[0]);
	/* Closing its output early is no reason to kill a command: wait for
	 * its exit status until the time limit (nvidia-smi closes its streams
	 * before it exits; killing it then reads as a crash). */
	while (!exited && !timed_out && !stop_sig) {
		if (waitpid(pid, &status, WNOHANG | WUNTRACED) == pid) {
			if (WIFSTOPPED(status)) {
				stop_sig = WSTOPSIG(status);
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				break;
			}
			exited = true;
			break;
		}
		double left = deadline - now_ms();
		if (left <= 0) {
			kill(-pid, SIGKILL);
			timed_out = true;
			break;
		}
		/* Until its exit (or a stop, looked for every 50 ms); without
		 * an exit descriptor, every 5 ms. */
		struct pollfd p = { xfd, POLLIN, 0 };
		int most = xfd >= 0 ? 50 : 5;
		poll(&p, xfd >= 0, left < most ? (int)left + 1 : most);
	}
	if (xfd >= 0)
		close(xfd);
	/* Its exit status collected, whatever is left in the group
	 * (grandchildren) goes. */
	kill(-pid, SIGKILL);
	if (!exited) {
		kill(pid, SIGKILL); /* before its setsid(), or stopped */
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	r->ms = now_ms() - start;
	if (got == (ssize_t)sizeof exec_errno) {
		r->end = PROC_EXEC_FAILED;
		r->code = exec_errno;
	} else if (stop_sig) {
		r->end = PROC_STOPPED;
		r->sig = stop_sig;
	} else if (timed_out) {
		r->end = PROC_TIMEOUT;
	} else if (over && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		r->end = PROC_OUTPUT_OVER;
	} else if (WIFSIGNALED(status)) {
		r->end = PROC_SIGNALED;
		r->sig = WTERMSIG(status);
	} else {
		r->end = PROC_EXITED;
		r->code = WEXITSTATUS(status);
	}
	return 0;
}
