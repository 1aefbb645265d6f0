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
 *   not here    its platform: line excludes this machine's platform kind
 *               (a WSL-only cause on native Linux), known from
 *               platform.kind, which explain runs even without --check.
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
	V_NOT_HERE, /* the cause applies only on other platforms (its platform: line) */
};

/* R_OTHER: the check found a problem, but another cause (by its entry) */
enum open_reason { R_NONE, R_NO_CHECK, R_SKIPPED, R_NOT_RUN, R_OTHER };

struct cause_rank {
	const struct kb_entry *e;
	enum verdict v;
	enum open_reason why;          /* for V_OPEN */
	const struct result *by;       /* the result that decided, if any */
};

/* Fills out[0..sig->ncause) in the order to show. results is indexed like
 * defs (every check's result; ran false for those that did not run); pass
 * results NULL when no checks were run. platform is platform.kind's result
 * (NULL when it did not run): a cause whose platform: line excludes its
 * "kind" is V_NOT_HERE and goes last, with or without results. */
void rank_causes(const struct explain_sig *sig, const struct check_def *defs,
		 const struct result *results, size_t n, const struct result *platform,
		 struct cause_rank *out);
/* The kind to show for a recognised signature: its own (that of its first
 * cause), unless that cause does not apply on this platform; then the kind
 * of the first cause that does (ranks in show order, or NULL); "noise" when
 * none of its causes applies here. */
const char *explain_effective_kind(const struct explain_sig *sig, const struct cause_rank *ranks);

/* One line saying what decided the verdict ("platform.kind: ..."), or "". */
void cause_evidence(const struct cause_rank *r, struct strbuf *out);
/* "confirmed", "likely", "open", "ruled_out", or NULL for V_UNCHECKED. */
const char *verdict_name(enum verdict v);

#endif
