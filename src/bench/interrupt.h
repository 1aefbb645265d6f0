/*
 * interrupt: Ctrl-C and kill during a benchmark. A benchmark writes files
 * into the user's directories, so dying on SIGINT/SIGTERM would leave
 * hundreds of megabytes and thousands of small files behind. Instead the
 * handler only records the signal; the work loops check bench_interrupted()
 * between operations, stop, remove what they created, and the command
 * exits with 128 + the signal number (130 for SIGINT, 143 for SIGTERM), as
 * a shell reports a command killed by that signal.
 *
 * The handlers are installed without SA_RESTART, so a blocking call that
 * can be interrupted returns EINTR and the loop notices at once.
 */
#ifndef WSLGPU_BENCH_INTERRUPT_H
#define WSLGPU_BENCH_INTERRUPT_H

void bench_interrupt_install(void);
/* Puts the previous handlers back and forgets a recorded signal. */
void bench_interrupt_restore(void);
/* The signal that arrived (SIGINT or SIGTERM), or 0. */
int bench_interrupted(void);
/* Exit status for an interrupted run: 128 + signal. */
int bench_interrupt_status(void);

#endif
