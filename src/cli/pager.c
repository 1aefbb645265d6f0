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
 * git sets them. The value is split into words at blanks and its program
 * run directly, found on PATH (no shell: the project starts no command
 * through one, tests/e2e/security.sh), so a value with options ("less
 * -S") works and shell syntax (quotes, pipes) does not.
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

/* The program the command starts with, as a path that can be run (a path,
 * or a name found on PATH), or NULL. */
static char *program_path(const char *cmd)
{
	size_t n = strcspn(cmd, " \t");
	char *prog = xstrndup(cmd, n);
	if (strchr(prog, '/')) {
		if (access(prog, X_OK) == 0)
			return prog;
		free(prog);
		return NULL;
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	struct strbuf p = STRBUF_INIT;
	bool ok = false;
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
	free(prog);
	if (!ok) {
		sb_release(&p);
		return NULL;
	}
	return sb_detach(&p);
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
	char *prog = cmd ? program_path(cmd) : NULL;
	if (!prog)
		return;
	const char *env[3];
	size_t ne = 0;
	if (!getenv("LESS"))
		env[ne++] = "LESS=FRX";
	if (!getenv("LV"))
		env[ne++] = "LV=-c";
	env[ne] = NULL;
	/* its words: the program found above, then the options */
	char *words = xstrdup(cmd);
	const char *argv[32];
	size_t na = 0;
	argv[na++] = prog;
	char *save = NULL;
	strtok_r(words, " \t", &save); /* the program's own word */
	for (char *w; na < sizeof argv / sizeof argv[0] - 1 && (w = strtok_r(NULL, " \t", &save));)
		argv[na++] = w;
	argv[na] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid_t pid;
	int fd = proc_start_pager(argv, env, &pid);
	free(words);
	free(prog);
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
