/* finding.c: expanding and showing knowledge-base findings. See finding.h. */
#include "finding.h"

#include <stdlib.h>
#include <string.h>

void finding_expand(struct finding_view *v, const struct kb_entry *e, const struct evidence *ev,
		    const char *self_id)
{
	memset(v, 0, sizeof *v);
	v->e = e;
	if (!e)
		return;
	struct strbuf t = STRBUF_INIT;
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
		v->fix[v->nfix++] = sb_detach(&t);
	}
	sb_release(&t);
}

void finding_view_release(struct finding_view *v)
{
	free(v->cause);
	for (size_t i = 0; i < v->nfix; i++)
		free(v->fix[i]);
	free(v->fix);
	memset(v, 0, sizeof *v);
}

void finding_text_line(struct strbuf *out, int indent, const char *label, const char *text)
{
	struct strbuf clean = STRBUF_INIT;
	text_sanitize(&clean, text ? text : "");
	int pad = FINDING_TEXT_COLUMN - indent - 1;
	if (pad < 1)
		pad = 1;
	sb_addf(out, "%*s%-*s ", indent, "", pad, label);
	const char *p = sb_str(&clean);
	for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1)
		sb_addf(out, "%.*s\n%*s", (int)(nl - p), p, FINDING_TEXT_COLUMN, "");
	sb_addf(out, "%s\n", p);
	sb_release(&clean);
}

void finding_text(struct strbuf *out, const struct finding_view *v, int indent, unsigned what)
{
	const struct kb_entry *e = v->e;
	if (!e)
		return;
	if ((what & FT_CAUSE) && v->cause)
		finding_text_line(out, indent, what & FT_NOTE ? "note" : "cause", v->cause);
	if (what & FT_FIXES)
		for (size_t i = 0; i < v->nfix; i++) {
			/* A line with <slots> is a template, not one to paste as is
			 * (kb_expand_fix has already marked one it could not fill). */
			bool tmpl = kb_fix_is_template(v->fix[i]) && !strstr(v->fix[i], "replace") &&
				    !strstr(v->fix[i], KB_TEMPLATE_MARK);
			char *t = tmpl ? xasprintf("%s   (a template: fill in each <...>)", v->fix[i]) : NULL;
			finding_text_line(out, indent, i ? "" : "fix", t ? t : v->fix[i]);
			free(t);
		}
	if ((what & FT_CONFIRM) && e->confirm)
		finding_text_line(out, indent, "check", e->confirm);
	if (what & FT_SOURCES)
		for (size_t i = 0; i < e->source.n; i++)
			finding_text_line(out, indent, i ? "" : "source", e->source.v[i]);
	if (what & FT_MORE) {
		struct strbuf m = STRBUF_INIT;
		sb_addf(&m, "wslgpu kb %s", e->id);
		finding_text_line(out, indent, "more", m.buf);
		sb_release(&m);
	}
}

void finding_json(struct json_writer *jw, const struct finding_view *v, bool with_fix)
{
	jw_kv_str(jw, "cause", v->cause);
	jw_kv_array(jw, "fix");
	for (size_t i = 0; with_fix && i < v->nfix; i++)
		jw_str(jw, v->fix[i]);
	jw_end(jw);
	jw_kv_array(jw, "source");
	for (size_t i = 0; v->e && i < v->e->source.n; i++)
		jw_str(jw, v->e->source.v[i]);
	jw_end(jw);
}

void evidence_json(struct json_writer *jw, const char *key, const struct evidence *ev)
{
	jw_kv_object(jw, key);
	for (size_t i = 0; ev && i < ev->n; i++) {
		const char *k = ev->v[i].key;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(ev->v[j].key, k) == 0;
		if (seen)
			continue;
		if (ev_count(ev, k) == 1) {
			jw_kv_str(jw, k, ev->v[i].val);
			continue;
		}
		jw_kv_array(jw, k);
		for (size_t j = i; j < ev->n; j++)
			if (strcmp(ev->v[j].key, k) == 0)
				jw_str(jw, ev->v[j].val);
		jw_end(jw);
	}
	jw_end(jw);
}
