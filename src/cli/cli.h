/*
 * cli: one entry point per command, cmd_<name>(argc, argv), dispatched from
 * the table in main.c (after git.c). Commands return the process exit
 * status; only they and main decide it. The statuses are documented in the
 * README and are stable:
 */
#ifndef WSLGPU_CLI_H
#define WSLGPU_CLI_H

#include <stddef.h>

#define EXIT_OK 0       /* no failures (warnings allowed, unless --strict) */
#define EXIT_FAILED 1   /* at least one fail, crash or timeout */
#define EXIT_USAGE 2    /* bad command line */
#define EXIT_INTERNAL 3 /* the tool itself could not run, or could not write its
			 * standard output (a full disk: main checks at exit) */

int cmd_check(int argc, char **argv);
int cmd_kb(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_smoke(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_fix(int argc, char **argv);

/*
 * Shared option handling, so that an option means the same everywhere.
 * The table of every option (value, global or not, which commands) is in
 * main.c; global options are applied there before the command runs.
 */
/* --root DIR: 0, or EXIT_USAGE after printing why (also for "", and for a
 * directory that holds its machine in DIR/root, as a fixture does). */
int cli_set_root(const char *dir);
/* --color WHEN (and --no-color: "never"), global or after a command word:
 * 0, or -1 after a usage error for cmd (NULL: before the command word). */
int cli_color_option(const char *cmd, const char *when);
/* Whether to colour what goes to fd: --color, else NO_COLOR, TERM=dumb, a tty. */
int cli_want_color(int fd);
/* A number of seconds given as a plain decimal ("10", "2.5") from min to
 * max: 0, or -1 after a usage error naming opt and the range. */
int cli_parse_seconds(const char *cmd, const char *opt, const char *v, double min, double max,
		      double *out);
/* "Did you mean": the candidates closest to word (a typo, git's rule), at
 * most max of them into out; returns how many. */
size_t cli_similar(const char *word, const char *const *cands, size_t n, const char **out,
		   size_t max);
/* "wslgpu CMD: MESSAGE" and where to find help (cmd NULL: before a command). */
void cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
