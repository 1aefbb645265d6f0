/*
 * cli: one entry point per command, cmd_<name>(argc, argv), declared with
 * its options in a struct cli_command (parse-options.h) and dispatched from
 * the table in main.c (after git.c). Commands return the process exit
 * status; only they and main decide it. The statuses are documented in the
 * README, doc/wslgpu.1 and every command's --help, and are stable:
 */
#ifndef WSLGPU_CLI_H
#define WSLGPU_CLI_H

#include <stddef.h>

#include "parse-options.h"

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

/* The commands, each declared once in its file (parse-options.h): the
 * entry point, its summary, its options and its help. */
extern const struct cli_command check_command, explain_command, bench_command, watch_command,
	smoke_command, history_command, report_command, fix_command, kb_command;

/*
 * Shared option handling, so that an option means the same everywhere.
 * Each command declares its options (parse-options.h); the global ones
 * are main.c's, applied there before the command runs.
 */
/* --root DIR: 0, or EXIT_USAGE after printing why (also for "", and for a
 * directory that holds its machine in DIR/root, as a fixture does). */
int cli_set_root(const char *dir);
/* --color WHEN (and --no-color: "never"), global or after a command word:
 * 0, or -1 after a usage error for cmd (NULL: before the command word). */
int cli_color_option(const char *cmd, const char *when);
/* The same as option callbacks, for every command that takes them. */
parse_opt_cb cli_opt_color, cli_opt_no_color, cli_opt_root;
/* Whether to colour what goes to fd: --color, else NO_COLOR, TERM=dumb, a tty. */
int cli_want_color(int fd);

/* The pager (pager.c): long output for reading, on a terminal. */
/* --no-pager: none for this run. */
void pager_disable(void);
/* Output for reading follows: pipe standard output through the pager when
 * it is a terminal and a pager resolves; else nothing changes. */
void pager_start(void);
/* Whether standard output goes to a pager now. */
bool pager_in_use(void);
/* Flushes, ends the pager's input and waits for the person to quit it
 * (also at exit). */
void pager_stop(void);
/* A number of seconds given as a plain decimal ("10", "2.5") from min to
 * max: 0, or -1 after a usage error naming opt and the range. */
int cli_parse_seconds(const char *cmd, const char *opt, const char *v, double min, double max,
		      double *out);
/* "Did you mean": the candidates closest to word (a typo, git's rule), at
 * most max of them into out; returns how many. */
size_t cli_similar(const char *word, const char *const *cands, size_t n, const char **out,
		   size_t max);
/* "wslgpu CMD: MESSAGE" and where to find help (cmd NULL: before a
 * command). What the user typed is in the message, so control characters
 * are shown escaped (text_escape): a usage error stays one line. */
void cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
