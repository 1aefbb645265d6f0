/*
 * cli: one entry point per command, cmd_<name>(argc, argv), dispatched from
 * the table in main.c (after git.c). Commands return the process exit
 * status; only they and main decide it. The statuses are documented in the
 * README and are stable:
 */
#ifndef WSLGPU_CLI_H
#define WSLGPU_CLI_H

#define EXIT_OK 0       /* no failures (warnings allowed, unless --strict) */
#define EXIT_FAILED 1   /* at least one fail, crash or timeout */
#define EXIT_USAGE 2    /* bad command line */
#define EXIT_INTERNAL 3 /* the tool itself could not run */

int cmd_check(int argc, char **argv);
int cmd_kb(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_smoke(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_fix(int argc, char **argv);

/* Shared option handling. */
int cli_set_root(const char *dir);            /* prints the error; returns exit code or 0 */
int cli_want_color(int fd, int forced);       /* forced: -1 auto, 0 never, 1 always */
void cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
