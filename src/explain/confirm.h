/*
 * confirm: which cause of a recognised message this machine shows.
 *
 * Every cause entry names, in `confirm:`, the `wslgpu check --only ...`
 * command that tells it apart. `wslgpu explain --check` runs those checks
 * and ranks each message's causes by what they found:
 *
 *   confirmed   a check result names this very KB entry (platform.kind
 *               fails with platform.kind.wsl1, so "WSL1" is the cause);
 *   likely      a check this cause names reports a problem of its own;
 *   open        its checks were skipped or did not run, or there is no
 *               check for it (a Windows-side cause, say);
 *   ruled out   every check it names ran and passed here;
 *   bound       its platform: line names the platform the log is thought
 *               to come from, but nothing established it (no marker in the
 *               text, no --platform: this machine's kind is only a prior):
 *               it goes after the causes that hold everywhere, marked;
 *   not here    its platform: line excludes the log's platform kind (a
 *               WSL-only cause on native Linux): the kind the text shows
 *               (textplat.h) or --platform states, else this machine's
 *               (platform.kind, which explain runs even without --check).
 *
 * Causes keep the KB order (most likely first) within each group. These
 * are pure functions over the results array so that the tests can feed
 * them any machine.
 */
#ifndef WSLGPU_EXPLAIN_CONFIRM_H
#define WSLGPU_EXPLAIN_CONFIRM_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/check.h"
#include "../core/strbuf.h"
#include "../kb/finding.h"
#include "../kb/fixline.h"
#include "matcher.h"

/* Registry indexes of the checks (and of every check of the layers) that a
 * confirm command names with --only. Returns how many were stored (at most
 * max); unknown names are skipped. */
size_t confirm_checks(const char *confirm, const struct check_def *defs, size_t ndefs,
		      size_t *idx, size_t max);

enum verdict {
	V_UNCHECKED, /* no --check */
	V_CONFIRMED,
	V_LIKELY,
	V_OPEN,
	V_RULED_OUT,
	V_BOUND,    /* the cause holds on one platform only, and the log's is not established */
	V_NOT_HERE, /* the cause applies only on other platforms (its platform: line) */
};

/* R_OTHER: the check found a problem, but another cause (by its entry);
 * R_UNKNOWN: the check could not find out (ST_UNKNOWN), which rules
 * nothing out; R_TEXT (for V_NOT_HERE): the text or --platform, not this
 * machine, decided. */
enum open_reason { R_NONE, R_NO_CHECK, R_SKIPPED, R_NOT_RUN, R_OTHER, R_TEXT, R_UNKNOWN };

#define RANK_WORDS 4

struct cause_rank {
	const struct kb_entry *e;
	int score;                     /* support words found, less twice the excluding ones */
	const char *support[RANK_WORDS]; /* the words of the paste that moved it */
	const char *exclude[RANK_WORDS];
	unsigned char nsupport, nexclude;
	enum verdict v;
	enum open_reason why;          /* for V_OPEN */
	const struct result *by;       /* the result that decided, if any */
	/* On a log established as Windows': every fix line of this cause
	 * that holds everywhere is a Linux command (fix_is_linux_only), so
	 * it goes after those with a step Windows can run. */
	bool linux_fixes;
	const char *marker;            /* V_BOUND on a Windows log: the text that showed it */
};

/* The pasted text, for the causes' support: and exclude: words (lower-cased
 * once, at the first word looked up; paste_words_release frees it). */
struct paste_words {
	const char *text;
	size_t len;
	char *lower;
	/* words already looked up (KB strings: compared by address), so that
	 * a word shared by the causes of many signatures is searched once; a
	 * long paste has every word of the built-in KB looked up at once, in
	 * one pass, at the first word asked (scanned) */
	const char **seen;
	bool *found;
	size_t nseen, aseen;
	bool scanned;
};
void paste_words_release(struct paste_words *w);

/* The platform the causes are ranked for. */
struct rank_platform {
	struct paste_words *words;   /* the paste, or NULL: no evidence words */
	const char *kind;         /* wsl2, native, container, windows...; NULL: unknown */
	bool established;         /* the text showed it or --platform stated it */
	const char *from;         /* "text", "option" or "machine" */
	const char *marker;       /* from "text": the words that showed it */
	const struct result *machine; /* platform.kind's result, or NULL */
};

/* Fills out[0..sig->ncause) in the order to show. results is indexed like
 * defs (every check's result; ran false for those that did not run); pass
 * results NULL when no checks were run. A cause whose platform: line
 * excludes pf->kind is V_NOT_HERE and goes last, with or without results;
 * when the kind is not established, a cause bound to one platform is
 * V_BOUND and goes after those that hold everywhere. A log established as
 * Windows' keeps a WSL cause, V_BOUND (a Windows user may run the program
 * in WSL), and puts a general cause whose fix lines are all Linux commands
 * after one with a step Windows can run. Within a verdict, causes whose
 * support: words the paste shows come first and those whose exclude: words
 * it shows last (KB order otherwise). pf may be NULL (platform unknown,
 * no paste). */
void rank_causes(const struct explain_sig *sig, const struct check_def *defs,
		 const struct result *results, size_t n, const struct rank_platform *pf,
		 struct cause_rank *out);
/* The platform from --platform (option, or NULL), the text's markers and
 * this machine's platform.kind result (or NULL), in that precedence. */
void rank_platform_pick(struct rank_platform *pf, const char *option,
			const char *text_kind, const char *text_marker,
			const struct result *machine);
/* The kind to show for a recognised signature: its own (that of its first
 * cause), unless that cause does not apply on this platform; then the kind
 * of the first cause that does (ranks in show order, or NULL); when none
 * applies here, "noise" for a myth (a step that is right elsewhere) and the
 * signature's own kind otherwise (the message still shows the problem). */
const char *explain_effective_kind(const struct explain_sig *sig, const struct cause_rank *ranks);

/*
 * The fix lines of cause r as they are shown for the log's platform pf
 * (fv from finding_expand, rewritten in place):
 *   - a cause that holds everywhere keeps its WSL-only lines (wsl.exe,
 *     PowerShell, /usr/lib/wsl, the Windows driver) last unless the log is
 *     established as WSL's, and drops them where it is established as
 *     another platform's; where that leaves a WSL-only line first (or
 *     none), the cause's check command comes first;
 *   - on a log established as Windows', a cause that is not WSL's drops
 *     its Linux-only lines (fix_is_linux_only) and keeps its Windows ones,
 *     those about WSL itself (fix_names_wsl) last;
 *     a WSL cause's lines say "in WSL:" (it is shown for a Windows user
 *     who runs the program in WSL);
 *     a cause of Linux (WSL's, or one native Linux shares) is WSL's there;
 *   - no change of the system (fix_changes_system: installs, removals,
 *     configuration, restarts) is first on a guess: unless this machine's
 *     checks confirm the cause, or the message establishes it (the KB's
 *     established:; a removal or a reinstall still waits for a check), the
 *     cause's first line that only looks (fix_only_looks) comes first, or,
 *     with none, its own check command, which tells the causes apart.
 */
void order_fixes(struct finding_view *fv, const struct cause_rank *r,
		 const struct rank_platform *pf);
/* Whether pf is a log established as one from Windows itself (not WSL's):
 * its causes and fixes are ranked and shown for Windows. */
bool log_is_windows(const struct rank_platform *pf);
/* fix_is_wsl_only, fix_is_linux_only, fix_names_wsl, fix_is_destructive,
 * fix_changes_system and fix_only_looks, which order_fixes reads, are
 * fixline.h's. */

/* One line saying what decided the verdict ("platform.kind: ..."), or "". */
void cause_evidence(const struct cause_rank *r, struct strbuf *out);
/* "confirmed", "likely", "open", "ruled_out", "platform_bound",
 * "not_applicable", or NULL for V_UNCHECKED. */
const char *verdict_name(enum verdict v);

#endif
