/* finding.c: an entry's texts filled from evidence. See finding.h. */
#include "finding.h"

#include <stdlib.h>
#include <string.h>

#include "../core/check.h"
#include "../core/strbuf.h"
#include "fixline.h"

void finding_expand(struct finding_view *v, const struct kb_entry *e, const struct evidence *ev,
		    const char *self_id)
{
	memset(v, 0, sizeof *v);
	v->e = e;
	if (!e)
		return;
	if (e->source.n) {
		v->source = xcalloc(e->source.n, sizeof *v->source);
		for (size_t i = 0; i < e->source.n; i++)
			v->source[v->nsource++] = e->source.v[i];
	}
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
	free(v->source);
	memset(v, 0, sizeof *v);
}

/* An entry's platform: line binds it to WSL, or to Linux outside WSL. */
static bool entry_wsl_only(const struct kb_entry *e)
{
	return e->platform && !kb_applies(e, "native") && !kb_applies(e, "container");
}

static bool entry_off_wsl_only(const struct kb_entry *e)
{
	return e->platform && !kb_applies(e, "wsl2") && !kb_applies(e, "wsl1") &&
	       !kb_applies(e, "container-in-wsl2");
}

/* Off WSL, WSL's pages go while another source is left; with the platform
 * unknown they follow the general ones. (No source is native Linux's
 * alone: on WSL every one stays.) */
static void sources_for_platform(struct finding_view *v, bool known, enum fix_platform other)
{
	const char **later = xcalloc(v->nsource + 1, sizeof *later);
	size_t k = 0, nl = 0;
	for (size_t i = 0; i < v->nsource; i++) {
		if (source_platform_of(v->source[i]) == FIX_WSL_ONLY && other != FIX_NATIVE_ONLY)
			later[nl++] = v->source[i];
		else
			v->source[k++] = v->source[i];
	}
	if (!known || !k)
		for (size_t i = 0; i < nl; i++)
			v->source[k++] = later[i];
	v->nsource = k;
	free(later);
}

/* What an entry bound to one side says is right there, whatever its lines
 * name (nodes in /dev/nvidia* made by hand on WSL). */
static bool entry_bound(const struct kb_entry *e)
{
	return entry_wsl_only(e) || entry_off_wsl_only(e);
}

static enum fix_platform other_side(const char *kind, bool *known)
{
	*known = kind && *kind && strcmp(kind, "unknown");
	return !*known ? FIX_ANY_PLATFORM : kb_kind_is_wsl(kind) ? FIX_NATIVE_ONLY : FIX_WSL_ONLY;
}

void finding_cause_for_platform(struct finding_view *v, const char *kind)
{
	bool known;
	enum fix_platform other = other_side(kind, &known);
	if (!v->e || !v->cause || !known || entry_bound(v->e))
		return;
	struct strbuf t = STRBUF_INIT;
	if (cause_text_for(v->cause, other, !strcmp(kind, "windows"), &t)) {
		free(v->cause);
		v->cause = sb_detach(&t);
	}
	sb_release(&t);
}

void finding_for_platform(struct finding_view *v, const char *kind)
{
	if (!v->e || entry_bound(v->e))
		return;
	finding_cause_for_platform(v, kind);
	if (kind && !strcmp(kind, "windows"))
		return;
	bool known;
	enum fix_platform other = other_side(kind, &known);
	sources_for_platform(v, known, other);
	if (!v->nfix)
		return;
	char **later = xcalloc(v->nfix, sizeof *later);
	size_t k = 0, nl = 0;
	struct strbuf t = STRBUF_INIT;
	for (size_t i = 0; i < v->nfix; i++) {
		enum fix_platform p = fix_platform_of(v->fix[i]);
		if (!known && p != FIX_ANY_PLATFORM) {
			later[nl++] = v->fix[i];
		} else if (known && p == other) {
			free(v->fix[i]);
		} else if (fix_remark_for(v->fix[i], other, &t)) {
			free(v->fix[i]);
			v->fix[k++] = sb_detach(&t);
		} else {
			v->fix[k++] = v->fix[i];
		}
	}
	for (size_t i = 0; i < nl; i++)
		v->fix[k++] = later[i];
	v->nfix = k;
	free(later);
	sb_release(&t);
}

void finding_of_result(struct finding_view *v, const struct result *r)
{
	finding_expand(v, r->kb ? kb_find(r->kb) : NULL, &r->ev, r->def ? r->def->id : NULL);
	finding_for_platform(v, r->platform);
}

void finding_mark_platform(struct result *results, size_t n)
{
	const char *kind = NULL;
	for (size_t i = 0; i < n; i++)
		if (results[i].ran && results[i].def && !strcmp(results[i].def->id, "platform.kind"))
			kind = kb_platform_kind(res_get(&results[i], "kind"));
	for (size_t i = 0; i < n; i++)
		results[i].platform = kind;
}
