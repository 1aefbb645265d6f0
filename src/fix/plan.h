/*
 * plan: what `wslgpu fix` proposes, built from check results.
 *
 * One step per finding, failures first and then warnings, each in chain
 * order (the first failure is the one to fix first; later layers skipped
 * because of it have no step); a check's other problems (its "also"
 * evidence with an entry of its own, "also_kb") each get a step after its
 * first. A step carries the KB entry's title, the
 * cause in one line, and its fix lines, each classified by src/kb/fixline.h:
 * where it runs (the Linux shell, PowerShell, Windows settings), whether it
 * needs root, its risk with a reason, and whether it is a command or words
 * for a person.
 *
 * Edits are the only thing --apply may do: for a variable the findings
 * blame (LD_LIBRARY_PATH naming a culprit directory, CUDA_VISIBLE_DEVICES
 * hiding every GPU) the startup line that sets it (rcscan.h) is commented
 * out, or rewritten without the culprit directory. An edit is automatic
 * only in the user's own file under $HOME, owned by them, inside the root,
 * with the culprit written literally on the line; every other line is
 * shown with the reason it is left to the user.
 */
#ifndef WSLGPU_FIX_PLAN_H
#define WSLGPU_FIX_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/result.h"
#include "../core/strbuf.h"
#include "../kb/fixline.h"

struct fix_edit {
	char *file;          /* guest path */
	int line;
	char *before;        /* the line as it is */
	char *after;         /* the line that replaces it, or NULL: commented out only */
	const char *var;     /* "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES" */
	bool automatic;      /* --apply may make it */
	char *refused;       /* why not, when not automatic */
	char *env_after;     /* the variable in a new shell once edited; NULL: unset */
	int same_as;         /* an earlier step with the same edit, or 0 */
};

struct fix_step {
	int n;               /* 1-based */
	const struct result *r;
	const char *check;
	const char *kb;      /* NULL when the finding has no KB entry */
	char *title, *found, *why;
	char *note;          /* e.g. that no startup file sets the variable */
	char *also;          /* the checks whose findings follow from this one
			      * ("cuda.load, libs.env"), or NULL */
	enum fix_risk risk;
	const char *risk_reason;
	bool needs_root, windows;
	struct fix_command *cmd;
	size_t ncmd;
	struct fix_edit *edit;
	size_t nedit;
};

struct fix_plan {
	struct fix_step *steps;
	size_t n;
};

/* Describes the script's origin in its header. */
struct fix_meta {
	const char *version, *commit, *date, *root;
};

/*
 * results/shown are indexed like the registry (checkrun's cr.results and
 * cr.shown); home is $HOME on the described machine (may be NULL).
 */
void fix_plan_build(struct fix_plan *plan, const struct result *results, const bool *shown,
		    size_t n, const char *home);
void fix_plan_release(struct fix_plan *plan);
/* The steps that fix a problem (a failure or a warning): not those that
 * only find out what a check could not (ST_UNKNOWN), which change no exit
 * status. */
size_t fix_plan_problems(const struct fix_plan *plan);
/* Edits --apply may make (automatic, not a repeat of an earlier step's). */
size_t fix_plan_automatic(const struct fix_plan *plan);

void fix_plan_script(const struct fix_plan *plan, const struct fix_meta *meta, struct strbuf *out);
/* The note --apply writes into each line it comments out ("disabled by
 * wslgpu fix on 2026-12-02"); date starts "YYYY-MM-DD". */
void fix_edit_note(struct strbuf *out, const char *date);
/* The edit's lines as --apply writes them (the line commented out with
 * that note, then the replacement, if any), the first after first, the
 * next after next: the plan and --apply's preview show the same. */
void fix_edit_lines(struct strbuf *out, const struct fix_edit *e, const char *date,
		    const char *first, const char *next);
/* JSON, schema wslgpu/fix/1. */
void fix_plan_json(const struct fix_plan *plan, const struct fix_meta *meta, struct strbuf *out);

#endif
