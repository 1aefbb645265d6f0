/*
 * interrupt: Ctrl-C, kill, a closed terminal or SSH session and a closed
 * pipe (SIGINT, SIGTERM, SIGHUP, SIGPIPE) during a run. Dying at once
 * would leave probes hung in vendor code behind (each in its own process
 * group, out of the terminal's reach) and a benchmark's scratch files on
 * the disk, and print nothing. Instead the handler only records the
 * signal; the work loops (the probe runner, the benchmarks) notice it,
 * end what they started, and the command prints what it found and exits
 * with 128 + the signal number (129 for SIGHUP, 130 for SIGINT, 141 for
 * SIGPIPE, 143 for SIGTERM), as a shell reports a command killed by that
 * signal. An ignored SIGHUP (nohup) or SIGPIPE stays ignored.
 *
 * The handlers are installed without SA_RESTART, so a blocking call that
 * can be interrupted returns EINTR and the loop notices at once. Installs
 * nest: the runner inside `bench` keeps bench's handlers and its record.
 */
#ifndef WSLGPU_INTERRUPT_H
#define WSLGPU_INTERRUPT_H

#include <signal.h>

void interrupt_install(void);
/* Undoes one interrupt_install; the outermost puts the previous handlers
 * back and forgets a recorded signal. */
void interrupt_restore(void);
/* The first signal that arrived (SIGINT, SIGTERM, SIGHUP, SIGPIPE), or 0. */
int interrupt_signal(void);
/* Exit status for an interrupted run: 128 + signal (0 when none came). */
int interrupt_status(void);
/* The signals handled, for a sigprocmask or ppoll around a wait. */
void interrupt_sigset(sigset_t *set);
/*
 * Once, at the start of main: a file size limit (ulimit -f) makes a write
 * fail with EFBIG, reported like any write error (the temporary file
 * removed), instead of SIGXFSZ killing the tool (exit 153) with a
 * temporary file left beside the output. A handler rather than SIG_IGN,
 * so that the commands the tool runs get the default back at exec.
 */
void interrupt_catch_xfsz(void);

#endif
