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
};

/* ev may be NULL (no machine evidence); self_id fills {id}. */
void finding_expand(struct finding_view *v, const struct kb_entry *e, const struct evidence *ev,
		    const char *self_id);
void finding_view_release(struct finding_view *v);

#endif
