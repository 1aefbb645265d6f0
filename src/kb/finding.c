/* finding.c: an entry's texts filled from evidence. See finding.h. */
#include "finding.h"

#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "fixline.h"

void finding_expand(struct finding_view *v, const struct kb_entry *e, const struct evidence *ev,
		    const char *self_id)
{
	memset(v, 0, sizeof *v);
	v->e = e;
	if (!e)
		return;
	struct strbuf t = STRBUF_INIT, u = STRBUF_INIT;
	if (e->cause) {
		kb_expand(e->cause, ev, self_id, &t);
		v->cause = sb_detach(&t);
	}
	if (e->fix.n)
		v->fix = xcalloc(e->fix.n, sizeof *v->fix);
	for (size_t i = 0; i < e->fix.n; i++) {
		kb_expand_fix(e->fix.v[i], ev, self_id, &t);
		/* A fix held wholly in a condition this run does not meet
		 * ({?key:...}) is not advice here. */
		if (strspn(sb_str(&t), " \t") == t.len) {
			sb_reset(&t);
			continue;
		}
		/* With a machine's evidence the line is for its user: sudo as
		 * they can type it (fixline.h). Every view gets the line here. */
		if (ev && fix_for_user(t.buf, fix_user_get(), &u)) {
			v->fix[v->nfix++] = sb_detach(&u);
			sb_reset(&t);
			continue;
		}
		v->fix[v->nfix++] = sb_detach(&t);
	}
	sb_release(&t);
	sb_release(&u);
}

void finding_view_release(struct finding_view *v)
{
	free(v->cause);
	for (size_t i = 0; i < v->nfix; i++)
		free(v->fix[i]);
	free(v->fix);
	memset(v, 0, sizeof *v);
}
