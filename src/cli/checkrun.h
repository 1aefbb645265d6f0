/*
 * checkrun: the options and the run of checks that check, smoke, report and
 * fix share, so that --root, --only, --timeout... mean the same everywhere
 * and are declared and parsed in one place.
 *
 * A command puts OPT_RUN_OPTIONS(its struct, its struct checkrun member)
 * into its options (parse-options.h), then calls checkrun_execute() and
 * reads cr.results / cr.shown (or checkrun_report()).
 */
#ifndef WSLGPU_CHECKRUN_H
#define WSLGPU_CHECKRUN_H

#include <stdbool.h>
#include <stdio.h>

#include "../core/check.h"
#include "../report/report.h"
#include "cli.h"

/* The run options' callbacks; value is the struct checkrun. */
parse_opt_cb checkrun_opt_only, checkrun_opt_data, checkrun_opt_timeout, checkrun_opt_windows,
	checkrun_opt_python, checkrun_opt_docker_image, checkrun_opt_no_fork;

#define CHECKRUN_OPT(l, T, f, a, h, cb, ...) \
	{ .type = OPTION_CALLBACK, .long_name = (l), .offset = offsetof(T, f), .argh = (a), \
	  .help = (h), .callback = (cb), __VA_ARGS__ }
/* --root and --color, as every command that describes a machine takes them. */
#define OPT_ROOT(T, f, h) \
	CHECKRUN_OPT("root", T, f, "DIR", (h), cli_opt_root, .complete = COMPLETE_DIR)
#define OPT_COLOR(T, f) \
	CHECKRUN_OPT("color", T, f, "WHEN", "auto, always or never; NO_COLOR makes never the default", \
		     cli_opt_color, .complete = COMPLETE_WORDS, .words = "auto always never"), \
	CHECKRUN_OPT("no-color", T, f, NULL, "the same as --color never", cli_opt_no_color, \
		     .flags = OPT_HIDDEN)
#define OPT_RUN_TIMEOUT(T, f, h) CHECKRUN_OPT("timeout", T, f, "SEC", (h), checkrun_opt_timeout)
#define OPT_RUN_WINDOWS(T, f, h) CHECKRUN_OPT("windows", T, f, NULL, (h), checkrun_opt_windows)
/* Debugging only: the probes run in wslgpu's own process. */
#define OPT_RUN_NO_FORK(T, f) \
	CHECKRUN_OPT("no-fork", T, f, NULL, "run the probes in this process (debugging)", \
		     checkrun_opt_no_fork, .flags = OPT_HIDDEN)
/* The run options of check, smoke, report and fix: T's member f is their
 * struct checkrun. */
#define OPT_RUN_OPTIONS(T, f) \
	CHECKRUN_OPT("only", T, f, "LIST", "run only these layers or check ids (comma-separated)", \
		     checkrun_opt_only, .complete = COMPLETE_CHECKS), \
	OPT_ROOT(T, f, "describe the machine whose root file system is DIR"), \
	CHECKRUN_OPT("data", T, f, "PATH", "also check where this dataset lives (repeatable)", \
		     checkrun_opt_data, .complete = COMPLETE_FILE, .flags = OPT_NONEMPTY), \
	OPT_RUN_TIMEOUT(T, f, "time limit per probe, 0.1 to 3600 (default 10)"), \
	OPT_RUN_WINDOWS(T, f, "also ask the Windows side (needs interop)"), \
	CHECKRUN_OPT("python", T, f, "PATH", "also probe the frameworks of this Python (repeatable)", \
		     checkrun_opt_python, .complete = COMPLETE_FILE, .flags = OPT_NONEMPTY), \
	CHECKRUN_OPT("docker-image", T, f, "IMAGE", \
		     "also run 'docker run --rm --gpus all IMAGE nvidia-smi'", \
		     checkrun_opt_docker_image, .flags = OPT_NONEMPTY), \
	OPT_COLOR(T, f), \
	OPT_RUN_NO_FORK(T, f)

struct checkrun {
	const char *cmd;         /* for error messages: "check", "smoke"... */
	struct run_opts opts;
	size_t n;                /* registry size */
	bool *want;              /* selected by --only (or everything) */
	bool *shown;             /* what the report shows */
	struct result *results;  /* indexed like the registry; after execute */
	bool only;
	const char **data, **pythons;
	size_t ndata, npythons;
	bool progress;           /* show the progress line on a terminal's stderr */
	int interrupted;         /* SIGINT or SIGTERM ended the run (0: it finished) */
	double wall_ms;          /* how long the run of checks took */
	double end_ms;           /* when it ended (now_ms()) */
};

void checkrun_init(struct checkrun *cr, const char *cmd);
/* Marks the checks named by a comma-separated list ("libs,cuda.init");
 * 0, or -1 after a usage error (a name that is neither a layer nor a check
 * id, with the closest ones). */
int checkrun_select(struct checkrun *cr, const char *list);
/*
 * Runs the selected checks (everything when nothing was selected; the
 * policy layer never without opts.policy, and with it only what the caller
 * selected, since policy checks pull in the layers they judge), then also shows
 * any failing dependency of a shown check, so that --only never hides a
 * broken layer.
 */
void checkrun_execute(struct checkrun *cr);
void checkrun_report(const struct checkrun *cr, struct report *rep, bool verbose, int fd);
/* EXIT_OK, or EXIT_FAILED when something failed (or warned, with strict);
 * 128 + the signal when the run was interrupted. */
int checkrun_exit_status(const struct checkrun *cr, bool strict);
/*
 * After an interrupted run (sig != 0): says on stderr which signal ended it
 * and how many checks did not finish, and returns the exit status, 128 +
 * sig. Returns 0 and says nothing when sig is 0. For commands that run
 * checks themselves too (explain --check).
 */
int checkrun_interrupt_note(int sig, const struct result *results, size_t n);
/* "critical path: a → b → c (412 ms of 430 ms)\n": the chain of dependent
 * checks that took longest, against the run's wall time (check -v). */
void checkrun_critical_path(const struct checkrun *cr, struct strbuf *out);
void checkrun_release(struct checkrun *cr);
/* Runs check id alone (with what it depends on) on the machine the root
 * describes and returns its evidence key, allocated; NULL when it did not
 * run or has none. For a command that needs one fact, not a check run. */
char *checkrun_fact(const char *id, const char *key);
/* platform.kind's kind (kb_platform_kind): the platform a command that
 * runs no checks (watch, bench) chooses its fix lines for; NULL unknown. */
const char *checkrun_platform_kind(void);

#endif
