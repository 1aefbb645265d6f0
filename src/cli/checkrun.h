/*
 * checkrun: the options and the run of checks that check, smoke, report and
 * fix share, so that --root, --only, --timeout... mean the same everywhere
 * and are parsed in one place.
 *
 * A command puts CHECKRUN_LONGOPTS into its getopt_long table, hands every
 * option it does not know itself to checkrun_option(), then calls
 * checkrun_execute() and reads cr.results / cr.shown (or checkrun_report()).
 */
#ifndef WSLGPU_CHECKRUN_H
#define WSLGPU_CHECKRUN_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "../core/check.h"
#include "../report/report.h"

enum {
	CR_OPT_ONLY = 1000,
	CR_OPT_ROOT,
	CR_OPT_DATA,
	CR_OPT_TIMEOUT,
	CR_OPT_WINDOWS,
	CR_OPT_PYTHON,
	CR_OPT_DOCKER_IMAGE,
	CR_OPT_COLOR,
	CR_OPT_NO_COLOR,
	CR_OPT_NO_FORK,
};

#define CHECKRUN_LONGOPTS                                                        \
	{ "only", required_argument, NULL, CR_OPT_ONLY },                        \
	{ "root", required_argument, NULL, CR_OPT_ROOT },                        \
	{ "data", required_argument, NULL, CR_OPT_DATA },                        \
	{ "timeout", required_argument, NULL, CR_OPT_TIMEOUT },                  \
	{ "windows", no_argument, NULL, CR_OPT_WINDOWS },                        \
	{ "python", required_argument, NULL, CR_OPT_PYTHON },                    \
	{ "docker-image", required_argument, NULL, CR_OPT_DOCKER_IMAGE },        \
	{ "color", required_argument, NULL, CR_OPT_COLOR },                      \
	{ "no-color", no_argument, NULL, CR_OPT_NO_COLOR },                      \
	{ "no-fork", no_argument, NULL, CR_OPT_NO_FORK }

/* The lines of --help for the options above (the command prints them). */
#define CHECKRUN_HELP                                                                    \
	"      --only LIST      run only these layers or check ids (comma-separated)\n"    \
	"      --root DIR       describe the machine whose root file system is DIR\n"      \
	"      --data PATH      also check where this dataset lives (repeatable)\n"        \
	"      --timeout SEC    time limit per probe, 0.1 to 3600 (default 10)\n"         \
	"      --windows        also ask the Windows side (needs interop)\n"               \
	"      --python PATH    also probe the frameworks of this Python (repeatable)\n" \
	"      --docker-image IMAGE\n"                                                     \
	"                       also run 'docker run --rm --gpus all IMAGE nvidia-smi'\n"  \
	"      --color WHEN     auto, always or never; NO_COLOR makes never the default\n"

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
/*
 * Handles one option returned by getopt_long. Returns 1 if it was a run
 * option and was fine, 0 if it is not a run option, or -1 after printing a
 * usage error (the command then exits EXIT_USAGE) -- also for --root errors.
 */
int checkrun_option(struct checkrun *cr, int c, const char *arg);
/*
 * The end of every command's getopt switch: a run option, an option that
 * lacks its value (':') or an unknown one. Returns 0 when c was a run option
 * and was fine, else EXIT_USAGE after printing the error.
 */
int checkrun_other_option(struct checkrun *cr, int c, const char *arg, char **argv);
/* EXIT_USAGE with a message when operands are left after the options. */
int checkrun_no_operands(struct checkrun *cr, int argc, char **argv);
/* Marks the checks named by a comma-separated list ("libs,cuda.init"). */
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

#endif
