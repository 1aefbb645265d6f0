/*
 * check: what a probe is, and what it may use while it runs.
 *
 * A check is one entry of a layer's table in src/probes/<layer>.c: a stable
 * id ("bridge.dxg"), the layer, a title, a one-line summary for --list, the
 * ids of checks that must not have failed before it runs, and the probe
 * function, and flags that say whether it runs vendor code. The probe runs
 * in a forked child (src/core/runner.c); it reads the machine only through
 * rootfs and proc, fills its result, and returns.
 * A probe never prints and never exits.
 *
 * A new check = one probe function + one KB entry + one fixture + one e2e
 * assertion (STYLE.md).
 */
#ifndef WSLGPU_CHECK_H
#define WSLGPU_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "proc.h"
#include "result.h"

#define CHECK_MAX_DEPS 6
/* A dep written "after:ID" only orders: the check waits until ID finished
 * and may read its evidence, but runs whatever ID's status was (a check that
 * cross-checks layers must run exactly when one of them failed). */
#define CHECK_AFTER "after:"

struct probe_ctx;
struct policy;

typedef void (*probe_fn)(struct probe_ctx *ctx, struct result *r);

/*
 * What a probe runs, for the runner (src/core/runner.c), which isolates
 * vendor code and batches our own. 0: it runs vendor code in its process
 * (dlopens libcuda, NVML): a child of its own.
 */
/* Our own code only: reads files through rootfs and the evidence of earlier
 * checks; no vendor library, no command. Such probes (fuzzed parsers)
 * share one child and run one after another. */
#define CHECK_FILES 1u
/* Like CHECK_FILES until it runs a command (probe_run): it looks for the
 * program in the shared child, and when it finds one to run, it is run
 * again in a child of its own (python3, docker, nvcc, nvidia-smi). */
#define CHECK_COMMANDS 2u
/* With CHECK_COMMANDS: its probe starts with the run, in a child of its
 * own, before its deps are done, so that its command runs beside them
 * (toolkit.nvcc's nvcc --version beside the CUDA chain it is judged
 * against); it calls probe_wait_deps before it reads their results. When
 * a dep fails, what it found is dropped and it is skipped as any check
 * is. */
#define CHECK_EARLY 4u

struct check_def {
	const char *id;
	const char *layer;
	const char *title;
	const char *summary;
	const char *deps[CHECK_MAX_DEPS]; /* NULL-terminated when shorter */
	probe_fn run;
	unsigned flags;                   /* CHECK_FILES... */
};

/* Options of the whole run that probes may consult. */
struct run_opts {
	int timeout_ms;        /* per probe */
	int max_parallel;
	const char **data_paths; /* --data PATH, repeatable */
	size_t ndata;
	bool windows;          /* --windows: also ask the Windows side */
	bool no_fork;          /* debugging only: run probes in-process */
	const char **pythons;  /* --python PATH, repeatable: also probe these */
	size_t npythons;
	const char *docker_image; /* --docker-image IMAGE: run a GPU container */
	/* The whole run's time budget: an absolute now_ms() after which no
	 * probe starts and running ones are cut short (0: none). smoke sets it. */
	double budget_end_ms;
	/* A parsed policy file (src/parse/policy.h): the policy layer's checks
	 * compare the machine with it; NULL runs no policy check. */
	const struct policy *policy;
	/* Called while waiting (at most every 100 ms) with how many checks
	 * finished and the one running longest; NULL for none. */
	void (*progress)(size_t done, size_t total, const char *waiting_for);
	/*
	 * Whether a CHECK_EARLY probe's start beside its deps can pay, asked
	 * in the runner's own process just before it would fork for it:
	 * false when the command it would run there is not on the described
	 * machine (no nvcc to find), and then it waits for its deps as any
	 * check and runs where they did -- in the shared child, no fork of
	 * its own. Our code only (a few lookups through rootfs); NULL, or
	 * true: early (registry_early_pays has the answers).
	 */
	bool (*early_pays)(const struct check_def *def);
	/* Called in the runner's process with each result a probe
	 * reported, as it comes, while later probes still run (NULL: none):
	 * work on a result that need not wait for the last one. Results the
	 * runner writes itself (a crash, a time-out, a skip) are not passed,
	 * and what it adds after (the probe's stdout as output) comes with
	 * the run's end. */
	void (*on_result)(void *arg, size_t i, const struct result *r);
	void *on_result_arg;
};

struct probe_ctx {
	const struct check_def *defs;
	struct result *results; /* indexed like defs */
	size_t n;
	const struct run_opts *opts;
	int wire_fd;            /* -1 when run in-process */
	/* The runner's watch on the commands the probe runs (probe_run);
	 * NULL in-process (--no-fork, tests). */
	const struct proc_watch *procs;
};

/* Result of an earlier check this probe depends on (NULL if not run). */
const struct result *probe_dep(struct probe_ctx *ctx, const char *id);
/* Evidence value of an earlier check, or NULL. */
const char *probe_dep_get(struct probe_ctx *ctx, const char *id, const char *key);
/*
 * Runs a command for the probe: proc_run (src/core/proc.h) under the
 * runner's watch (ctx->procs), which may hand the probe over to a child of
 * its own first (-EAGAIN) and kills what it started if the probe is
 * killed. Under that watch each command that ran is "ran" evidence of r:
 * the path it executed as the described machine names it, its arguments
 * and how it ended, so that `check -v` shows exactly which program ran.
 */
int probe_run(struct probe_ctx *ctx, struct result *r, const char *const *argv,
	      const struct proc_opts *opts, struct proc_result *pr);
/*
 * For a probe about to wait on a timer (perf.memory's swap sample): true
 * in the runner's shared child, where the wait would hold up the checks
 * after it; the probe returns at once and runs again in a child of its
 * own, where this is false. The same hand-over as probe_run's.
 */
bool probe_alone(struct probe_ctx *ctx);
/* A CHECK_EARLY probe: waits until its deps are done and their results
 * are in ctx (returns at once when they are, as outside the runner). */
void probe_wait_deps(struct probe_ctx *ctx);
/* Announces what the probe is about to wait for; a time-out names it. */
void probe_step(struct probe_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Platform facts every probe needs, from platform.kind's evidence. */
const char *probe_platform(struct probe_ctx *ctx); /* "wsl2", "native", ... */
bool probe_is_wsl2(struct probe_ctx *ctx);         /* wsl2 or container-in-wsl2 */
/* The image --docker-image named, as r's evidence "image": what a fix line
 * "docker run --gpus all IMAGE" fills in; inside a container nothing tells
 * its own image (hostname and cgroup name the container, not the image). */
void probe_image_ev(struct probe_ctx *ctx, struct result *r);

#endif
