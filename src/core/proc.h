/*
 * proc: the single place that starts external commands (after git's
 * run-command.c). A command gets /dev/null as stdin, a session of its own
 * (no controlling terminal: it cannot open /dev/tty, change the terminal's
 * settings or be stopped by it), a time limit after which the whole group is SIGKILLed, and captured,
 * capped stdout and stderr. It inherits no other descriptor, and a command
 * that closes its output early is still waited for until its time limit:
 * its exit status, not the pipes' end, says how it ended. It is never run through a shell: argv[0] is an
 * absolute host path that rootfs_which resolved. Its child shares the
 * caller's memory until the exec (CLONE_VM | CLONE_VFORK, as posix_spawn):
 * no page tables copied, no page copied on write for one exec.
 */
#ifndef WSLGPU_PROC_H
#define WSLGPU_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "strbuf.h"

/* Captured output per stream; the rest is read and thrown away. */
#define PROC_OUTPUT_CAP (256u << 10)

enum proc_end {
	PROC_EXITED,   /* code holds the exit status */
	PROC_SIGNALED, /* sig holds the signal */
	PROC_TIMEOUT,  /* killed at the time limit */
	PROC_EXEC_FAILED, /* code holds the errno of execve */
	PROC_STOPPED,  /* sig holds the signal that stopped it; then killed */
	PROC_OUTPUT_OVER, /* its stdout passed the cap (stop_at_cap); then killed */
};

struct proc_result {
	enum proc_end end;
	int code;
	int sig;
	struct strbuf out;
	struct strbuf err;
	bool out_truncated;
	bool err_truncated;
	double ms;
	/* Set when a program of a --root machine could not run inside it and
	 * ran on this machine instead: why (core/sandbox.h). */
	struct strbuf ran_here;
};

/*
 * Who watches the commands a run starts: the probe runner gives one to
 * each probe's context (struct probe_ctx, src/core/check.h), and
 * probe_run puts it in the options of every command the probe runs. As
 * git's run-command.c keeps such callbacks in struct child_process, they
 * travel with the command, never in a global. Either may be NULL.
 */
struct proc_watch {
	/* Returns true to run nothing: proc_run returns -EAGAIN (the runner's
	 * shared child hands a probe that wants to run a command over to a
	 * child of its own, CHECK_COMMANDS). */
	bool (*defer)(void *arg);
	/* Called in the forking process with the command's process group id,
	 * so that the runner can kill it if the probe itself is killed. */
	void (*started)(void *arg, pid_t pgid);
	void *arg;
};

struct proc_opts {
	int timeout_ms;        /* <= 0: 10 s */
	size_t cap;            /* 0: PROC_OUTPUT_CAP */
	const char *const *env_set; /* extra "NAME=value" entries, NULL-terminated */
	const struct proc_watch *watch; /* NULL: nobody watches */
	/* Once stdout passes the cap, kill the command's group rather than
	 * read the rest to its end: for a command whose output past the cap
	 * cannot be used (the Python probe's result lines; a Python that
	 * prints a gigabyte cost seconds of CPU to drain). */
	bool stop_at_cap;
};

void proc_result_init(struct proc_result *r);
void proc_result_release(struct proc_result *r);
/* Runs argv (argv[0] an absolute path). Returns 0 when the command was
 * started (whatever its end), -EAGAIN when the watch deferred it, -errno
 * when it could not even be forked. */
int proc_run(const char *const *argv, const struct proc_opts *opts, struct proc_result *r);
/*
 * Starts argv (argv[0] an absolute path) as proc_run starts a command (no
 * terminal, no inherited descriptor, the commands' sandbox, killed when
 * this process dies) with its standard output on a pipe, for a program
 * that keeps printing (watch's sampler of Windows' counters). Returns the
 * pipe's read end (close on exec) and the pid in *pid, or -errno.
 */
int proc_start_reader(const char *const *argv, pid_t *pid);
/*
 * Starts a pager, argv (argv[0] an absolute path), for a person to read
 * what this process writes into the pipe whose write end it returns: the
 * pager keeps the terminal (it reads its keys from /dev/tty, so no session
 * of its own and no sandbox: it is the user's program, run on the user's
 * behalf, as git runs $PAGER), with env_set ("NAME=value", NULL-ended)
 * added to the environment. It dies with this process (PR_SET_PDEATHSIG),
 * so it never outlives the tool; the caller waits for it at the end.
 * Returns the write end (close on exec) and the pid in *pid, or -errno.
 */
int proc_start_pager(const char *const *argv, const char *const *env_set, pid_t *pid);
/*
 * Replaces the process with argv (argv[0] an absolute path), keeping the
 * terminal and the environment: for a program the user reads, such as
 * man(1) for `wslgpu help CMD` (as git help execs man). Flushes stdio
 * first. Returns -errno only when the exec failed.
 */
int proc_exec_replace(const char *const *argv);
/* One-line description: "exited with status 3", "killed by SIGSEGV", ... */
void proc_describe_end(const struct proc_result *r, struct strbuf *sb);

/*
 * Closes every descriptor from 3 up except the nkeep in keep[]: what a
 * command or vendor code must not inherit (the caller's open files, our
 * pipes). close_range(2), or /proc/self/fd on kernels before 5.9, or every
 * number up to RLIMIT_NOFILE. Safe between fork and exec.
 */
void proc_close_fds(const int *keep, size_t nkeep);
/*
 * Between fork and exec (or before a probe runs vendor code): a session of
 * its own, so the child has no controlling terminal (/dev/tty cannot be
 * opened, the terminal's settings are out of reach) and the terminal's job
 * control signals cannot stop it (its process group is orphaned: only
 * SIGSTOP stops it); its process group id is its pid. Only a child that is
 * not yet a process group leader can do it, so the parent must not
 * setpgid() it first.
 */
void proc_detach(void);
/*
 * Right after fork, in a child that runs a command (before its exec) or
 * vendor code of its own (bench gpu's measuring child, watch's sampler):
 * no terminal (proc_detach: nothing written to the user's terminal, its
 * settings untouched, no stop by it), killed if parent (the caller's pid
 * before the fork) is, /dev/null as standard input (and as standard error
 * when err is -1), out as standard output, and nothing else of ours or of
 * whoever started us but keep[] (a pipe the child writes to). The signal
 * mask is emptied and SIGPIPE set to its default. -1 when a descriptor
 * could not be set; the child exits (127) when parent is already gone.
 */
int proc_child_setup(pid_t parent, int out, int err, const int *keep, size_t nkeep);
/*
 * Moves fd to a high descriptor number (below 1024 and the descriptor
 * limit; slot 0 the highest, 1 the next), close on exec, and returns the
 * new number (fd itself when it cannot). Code that writes into a small
 * descriptor number it does not own (a driver with a number from its own
 * caller's environment) then misses the pipes of ours that a child keeps.
 */
int proc_fd_high(int fd, int slot);
/*
 * Kills (SIGKILL, with the process group each leads) and reaps every child
 * of this process but the nkeep pids in keep[], and then the children they
 * leave to it, until none is left. A process that is a child subreaper
 * (prctl PR_SET_CHILD_SUBREAPER) inherits what its descendants orphaned,
 * setsid()ed daemons included, so this ends everything it started.
 * Returns how many it ended.
 */
size_t proc_end_children(const pid_t *keep, size_t nkeep);

/* "SIGSEGV" for 11; "signal 77" for unknown numbers. */
const char *signal_name(int sig, char buf[16]);

/* Monotonic milliseconds. */
double now_ms(void);

#endif
