/*
 * pager.c: long output for reading goes through a pager, as git's does
 * (pager.c): on a terminal only, never on a pipe or into a file.
 *
 * Which pager: $WSLGPU_PAGER, else $PAGER, else less; set to the empty
 * string or to "cat" it means none, and so does --no-pager. A pager whose
 * program is not found (its first word on PATH, or the path it names) is
 * none too: the output then goes to the terminal as it would without one.
 * less gets LESS=FRX when LESS is unset (quit when the text fits one
 * screen, show colours, leave the text on the screen) and lv LV=-c, as
 * git sets them. The command runs through /bin/sh, so a value with
 * options ("less -S") works.
 *
 * The pager reads what the command writes to standard output (and
 * standard error, when that is the terminal too) through a pipe; the
 * command waits for it at exit, so the shell's prompt never comes back
 * while it shows. A person who quits the pager before the end stops the
 * reading: the command's writes then fail with EPIPE (SIGPIPE is ignored
 * while it pages) and it ends quietly, with its own status. Ctrl-C goes
 * to the pager (less uses it), not to the command, which has finished its
 * work when it starts paging. The pager dies with the command
 * (proc_start_pager), so it never outlives it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/proc.h"
#include "../core/strbuf.h"
#include "cli.h"

static bool disabled;
static pid_t pager_pid = -1;
static int saved_stderr = -1;

void pager_disable(void)
{
	disabled = true;
}

bool pager_in_use(void)
{
	return pager_pid > 0;
}

/* The pager's command, or NULL for none. */
static const char *pager_command(void)
{
	const char *v = getenv("WSLGPU_PAGER");
	if (!v)
		v = getenv("PAGER");
	if (!v)
		v = "less";
	while (*v == ' ' || *v == '\t')
		v++;
	if (!*v || !strcmp(v, "cat"))
		return NULL;
	return v;
}

/* Whether the program the command starts with can be run: a path, or a
 * name found on PATH. */
static bool program_found(const char *cmd)
{
	size_t n = strcspn(cmd, " \t");
	char *prog = xstrndup(cmd, n);
	bool ok = false;
	if (strchr(prog, '/')) {
		ok = access(prog, X_OK) == 0;
	} else {
		const char *path = getenv("PATH");
		if (!path)
			path = "/usr/bin:/bin";
		struct strbuf p = STRBUF_INIT;
		for (const char *d = path; !ok;) {
			size_t dl = strcspn(d, ":");
			sb_reset(&p);
			sb_addf(&p, "%.*s/%s", (int)dl, dl ? d : ".", prog);
			struct stat st;
			ok = stat(p.buf, &st) == 0 && S_ISREG(st.st_mode) && access(p.buf, X_OK) == 0;
			if (!d[dl])
				break;
			d += dl + 1;
		}
		sb_release(&p);
	}
	free(prog);
	return ok;
}

static void pager_wait_atexit(void)
{
	pager_stop();
}

void pager_start(void)
{
	if (disabled || pager_pid > 0 || !isatty(STDOUT_FILENO))
		return;
	const char *cmd = pager_command();
	if (!cmd || !program_found(cmd))
		return;
	const char *env[3];
	size_t ne = 0;
	if (!getenv("LESS"))
		env[ne++] = "LESS=FRX";
	if (!getenv("LV"))
		env[ne++] = "LV=-c";
	env[ne] = NULL;
	/* exec: the shell becomes the pager, which then dies with us */
	char *line = xasprintf("exec %s", cmd);
	const char *argv[] = { "/bin/sh", "-c", line, NULL };
	fflush(stdout);
	fflush(stderr);
	pid_t pid;
	int fd = proc_start_pager(argv, env, &pid);
	free(line);
	if (fd < 0)
		return;
	pager_pid = pid;
	dup2(fd, STDOUT_FILENO);
	if (isatty(STDERR_FILENO)) {
		saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
		dup2(fd, STDERR_FILENO);
	}
	close(fd);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	atexit(pager_wait_atexit);
}

void pager_stop(void)
{
	if (pager_pid <= 0)
		return;
	fflush(stdout);
	fflush(stderr);
	/* The pager sees the end of its input once no descriptor of ours
	 * holds the pipe: standard output on /dev/null, standard error back
	 * on the terminal. */
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull >= 0) {
		dup2(devnull, STDOUT_FILENO);
		close(devnull);
	}
	if (saved_stderr >= 0) {
		dup2(saved_stderr, STDERR_FILENO);
		close(saved_stderr);
		saved_stderr = -1;
	}
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}
