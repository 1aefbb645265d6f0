/*
 * error: the one way a message reaches standard error (after git's
 * usage.c: error(), warning(), BUG()). Every message starts "wslgpu CMD: ",
 * CMD being the command main dispatched to ("wslgpu: " before one), so
 * that no caller spells the prefix, and a message in a pipeline or a cron
 * mail says which program and command it is from. Only main and the
 * commands decide the exit status; these only say why.
 */
#ifndef WSLGPU_ERROR_H
#define WSLGPU_ERROR_H

/* The command being run ("check"), named by every message; NULL: none. */
void error_set_command(const char *cmd);
const char *error_command(void);

/* "wslgpu CMD: MESSAGE\n"; returns -1, so that a function can end with
 * return errorf(...). */
int errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "wslgpu CMD: warning: MESSAGE\n": something the user should know that
 * does not stop the command. */
void warningf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "wslgpu CMD: MESSAGE\n" for what is not a problem (where a file went). */
void infof(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "wslgpu: internal error: MESSAGE\n", then abort(): a bug in wslgpu. */
void bugf(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
