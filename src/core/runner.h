/*
 * runner: runs the selected checks, each in a forked child with a time limit,
 * concurrently where their dependencies allow, and collects their results.
 *
 * Isolation is the point: a probe that dlopens a vendor library that
 * segfaults, or runs an nvidia-smi that never returns, ends as a `crash` or
 * `timeout` result while every other check still reports. The child runs in
 * its own process group; on time-out the group, and the groups of commands
 * it started, are SIGKILLed.
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
 * Runs every check with want[i] set, plus the checks they depend on.
 * results[] (indexed like the registry) receives every check that ran;
 * want[] is updated to include the dependencies that ran.
 */
void runner_run(const struct run_opts *opts, bool *want, struct result *results);
/* The same over any table of checks (the tests use their own probes). */
void runner_run_table(const struct check_def *defs, size_t n, const struct run_opts *opts,
		      bool *want, struct result *results);

#endif
