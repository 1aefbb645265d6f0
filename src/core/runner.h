/*
 * runner: runs the selected checks in child processes with a time limit,
 * concurrently where their dependencies allow, and collects their results.
 *
 * Isolation is the point: a probe that dlopens a vendor library that
 * segfaults, or runs an nvidia-smi that never returns, ends as a `crash` or
 * `timeout` result while every other check still reports. A child runs in
 * its own process group, closes every descriptor it inherited but its
 * result pipe, dies with the runner (PR_SET_PDEATHSIG), and is a child
 * subreaper: when a probe returns, everything it started and left running
 * is killed, daemons that setsid() included. The time limit holds until
 * the result is complete, not until the child exits; at the limit the
 * child's group, the groups of the commands it started and its orphans
 * are SIGKILLed.
 *
 * Which probes share a child: those of our own code that only read files
 * (CHECK_FILES, src/core/check.h) run one after another in one child, as
 * many as can run once the ones before them did (one fork for the file
 * layers); a probe that runs vendor code (a library, a command) gets a
 * child of its own, with the checks of its own chain after it (cuda.load,
 * cuda.init, ...), never an independent one. A child that is done waits
 * for more work on a control pipe: a file probe that becomes ready later
 * runs in the shared child, a vendor probe in the child of its chain
 * (nvml.devices after nvml.init), with the results done since sent along.
 * A probe that would run a command (CHECK_COMMANDS) in a shared child is
 * handed back and runs alone. Each member keeps its own time limit,
 * output and result; when one crashes or hangs, the members not begun run
 * again, each alone.
 *
 * SIGINT and SIGTERM (src/core/interrupt.h) end the run: every child and
 * what it started is killed, the checks that did not finish are marked
 * interrupted (status skip, cut CUT_INTERRUPTED) and the signal returned.
 * While it runs, the process is a child subreaper and every child it has
 * that is not a probe's is an orphan of one, to be killed: call it with no
 * other child of your own running.
 *
 * Dependencies: a check runs only after its deps finished. If a dep failed
 * (fail/crash/timeout) or was itself skipped because something before it
 * failed, the check is skipped with "skipped: <id> failed, fix that first";
 * a dep skipped as not applicable (bridge.dxg on native Linux) blocks
 * nothing. A dep "after:ID" (CHECK_AFTER) only orders and never blocks.
 */
#ifndef WSLGPU_RUNNER_H
#define WSLGPU_RUNNER_H

#include <stdbool.h>

#include "check.h"

/* Probe output captured per check (stdout+stderr of the probe process). */
#define RUNNER_OUTPUT_CAP (64u << 10)

/*
 * Runs every check of defs[0..n) with want[i] set, plus the checks they
 * depend on. The table is the caller's: the commands pass the chain of
 * checks (src/probes/registry.h), the tests their own probes; core knows
 * no probe. results[] (indexed like defs) receives every check that ran;
 * want[] is updated to include the dependencies that ran. Returns the
 * signal that interrupted the run, or 0.
 */
int runner_run_table(const struct check_def *defs, size_t n, const struct run_opts *opts,
		     bool *want, struct result *results);
/*
 * The critical path of a finished run: the chain of dependent checks
 * (deps and after: deps) whose times add up to the most. Stores its check
 * indices, first to last, in path[] (room for n), its total in *ms, and
 * returns its length.
 */
size_t runner_critical_path(const struct check_def *defs, size_t n, const struct result *results,
			    size_t *path, double *ms);

#endif
