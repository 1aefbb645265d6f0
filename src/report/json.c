/*
 * json.c: the machine-readable report, schema "wslgpu/check/1" (README,
 * "JSON output"). Ids, keys and status names are stable once released.
 */
#include <string.h>

#include "../core/check.h"
#include "../core/json.h"
#include "../kb/kb.h"
#include "../version.h"
#include "report.h"

static void put_kv(struct strbuf *sb, const char *k, const char *v, bool comma)
{
	json_str(sb, k);
	sb_addc(sb, ':');
	if (v)
		json_str(sb, v);
	else
		sb_add(sb, "null");
	if (comma)
		sb_addc(sb, ',');
}

static void put_evidence(struct strbuf *sb, const struct result *r)
{
	sb_add(sb, "\"evidence\":{");
	bool first = true;
	for (size_t i = 0; i < r->nev; i++) {
		const char *k = r->ev[i].key;
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			if (strcmp(r->ev[j].key, k) == 0)
				seen = true;
		if (seen)
			continue;
		size_t count = 0;
		for (size_t j = i; j < r->nev; j++)
			if (strcmp(r->ev[j].key, k) == 0)
				count++;
		if (!first)
			sb_addc(sb, ',');
		first = false;
		json_str(sb, k);
		sb_addc(sb, ':');
		if (count == 1) {
			json_str(sb, r->ev[i].val);
			continue;
		}
		sb_addc(sb, '[');
		bool f2 = true;
		for (size_t j = i; j < r->nev; j++)
			if (strcmp(r->ev[j].key, k) == 0) {
				if (!f2)
					sb_addc(sb, ',');
				f2 = false;
				json_str(sb, r->ev[j].val);
			}
		sb_addc(sb, ']');
	}
	sb_addc(sb, '}');
}

static void put_check(struct strbuf *sb, const struct report *rep, const struct result *r)
{
	const struct kb_entry *e = kb_find(r->kb);
	struct strbuf t = STRBUF_INIT;
	sb_addc(sb, '{');
	put_kv(sb, "id", r->def->id, true);
	put_kv(sb, "layer", r->def->layer, true);
	put_kv(sb, "status", status_name(r->status), true);
	put_kv(sb, "title", r->def->title, true);
	put_kv(sb, "detail", r->detail ? r->detail : "", true);
	put_kv(sb, "kb", r->kb, true);
	if (e && e->cause)
		kb_expand(e->cause, r, &t);
	put_kv(sb, "cause", e && e->cause ? t.buf : NULL, true);
	sb_add(sb, "\"fix\":[");
	for (size_t i = 0; e && r->status != ST_PASS && i < e->fix.n; i++) {
		sb_reset(&t);
		kb_expand_fix(e->fix.v[i], r, &t);
		if (i)
			sb_addc(sb, ',');
		json_str(sb, t.buf);
	}
	sb_add(sb, "],\"source\":[");
	for (size_t i = 0; e && i < e->source.n; i++) {
		if (i)
			sb_addc(sb, ',');
		json_str(sb, e->source.v[i]);
	}
	sb_add(sb, "],");
	put_evidence(sb, r);
	if (rep->verbose && r->output) {
		sb_addc(sb, ',');
		put_kv(sb, "output", r->output, false);
	}
	sb_addf(sb, ",\"ms\":%.1f}", r->ms);
	sb_release(&t);
}

void report_json(FILE *f, const struct report *rep)
{
	struct strbuf sb = STRBUF_INIT;
	struct summary sum;
	report_summarize(rep, &sum);

	sb_add(&sb, "{\"schema\":\"wslgpu/check/1\",\"tool\":{");
	put_kv(&sb, "name", "wslgpu", true);
	put_kv(&sb, "version", WSLGPU_VERSION, false);
	sb_add(&sb, "},\"platform\":{");
	const char *kind = report_platform(rep, "kind");
	put_kv(&sb, "kind", kind ? kind : "unknown", true);
	put_kv(&sb, "kernel", report_platform(rep, "kernel"), true);
	put_kv(&sb, "distro", report_platform(rep, "distro"), false);
	sb_add(&sb, "},\"checks\":[");
	bool first = true;
	for (size_t i = 0; i < rep->n; i++) {
		if (!rep->shown[i] || !rep->results[i].ran)
			continue;
		if (!first)
			sb_addc(&sb, ',');
		first = false;
		sb_add(&sb, "\n");
		put_check(&sb, rep, &rep->results[i]);
	}
	sb_add(&sb, "\n],\"summary\":{");
	put_kv(&sb, "status", sum.status, true);
	put_kv(&sb, "first_failure", sum.first_failure ? sum.first_failure->def->id : NULL, true);
	sb_add(&sb, "\"counts\":{");
	for (int s = 0; s < ST__COUNT; s++)
		sb_addf(&sb, "%s\"%s\":%d", s ? "," : "", status_name((enum status)s), sum.counts[s]);
	sb_add(&sb, "}}}\n");
	fputs(sb.buf, f);
	sb_release(&sb);
}
