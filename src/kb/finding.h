/*
 * finding (kb): one knowledge-base entry read with the evidence of a run --
 * its cause and fix lines with the {slots} filled (kb_expand,
 * kb_expand_fix). The model that the fix plan (src/fix/) and every view
 * (src/report/finding.h) start from, so that both read an entry the same.
 */
#ifndef WSLGPU_KB_FINDING_H
#define WSLGPU_KB_FINDING_H

#include <stddef.h>

#include "../core/result.h"
#include "kb.h"

/* An entry's texts filled from evidence (kb_expand / kb_expand_fix). */
struct finding_view {
	const struct kb_entry *e;
	char *cause;  /* NULL when the entry has none */
	char **fix;   /* commands, in the entry's order */
	size_t nfix;
	const char **source; /* the entry's, chosen for the platform as fix is */
	size_t nsource;
};

/* ev may be NULL (no machine evidence); self_id fills {id}. */
void finding_expand(struct finding_view *v, const struct kb_entry *e, const struct evidence *ev,
		    const char *self_id);
void finding_view_release(struct finding_view *v);

/*
 * The fix lines of v as shown on platform kind (platform.kind's "kind"; NULL
 * or "unknown": not established), rewritten in place. In an entry that
 * holds on both sides, a line for WSL (fix_platform_of) is left out where
 * the platform is established as Linux outside WSL (native, container),
 * and a line for native Linux where it is WSL's; the remark's clauses for
 * the other side go too (fix_remark_for). With the platform unknown both
 * kinds are kept, after the lines that hold everywhere. An entry bound to
 * one side by its platform: line keeps its lines; kind "windows" (a log
 * from Windows itself) is explain's order_fixes' to decide. Sources go the
 * same way (source_platform_of), except that the last ones are kept: a
 * claim keeps its reference even where only WSL's documents state it.
 */
void finding_for_platform(struct finding_view *v, const char *kind);
/* The part of it for the cause's text, which finding_for_platform does
 * first (for kind "windows" too): a sentence for another platform than an
 * established one is left out (cause_text_for, fixline.h), as a fix
 * line's aside is. */
void finding_cause_for_platform(struct finding_view *v, const char *kind);
/* finding_expand of r's own entry with its evidence, then
 * finding_for_platform for the platform r's fixes are chosen for
 * (r->platform): how every view and the plan read a result's finding. */
void finding_of_result(struct finding_view *v, const struct result *r);
/* Sets each result's platform (result.h) to platform.kind's "kind" among
 * results, when it ran and established one; NULL otherwise. */
void finding_mark_platform(struct result *results, size_t n);

#endif
