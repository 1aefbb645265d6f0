/*
 * text.c: the human report, in the habit of `flutter doctor`: one line per
 * check with a mark, and under each line that is not a pass, the cause and
 * the fix as commands to type. -v adds the evidence and the time each check
 * took. Colour only when asked for by the caller (a terminal, no NO_COLOR).
 */
#include <string.h>

#include "../core/check.h"
#include "../core/json.h"
#include "../kb/kb.h"
#include "report.h"

static const char *colour(enum status s)
{
	switch (s) {
	case ST_PASS: return "\033[32m";
	case ST_WARN: return "\033[33m";
	case ST_FAIL: return "\033[31m";
	case ST_SKIP: return "\033[2m";
	case ST_CRASH: return "\033[35m";
	case ST_TIMEOUT: return "\033[33m";
	default: return "";
	}
}

static void put_clean(FILE *f, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	text_sanitize(&sb, s);
	fputs(sb_str(&sb), f);
	sb_release(&sb);
}

/* Prints text wrapped under a label, continuation lines indented. */
static void put_labelled(FILE *f, const char *label, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	text_sanitize(&sb, text);
	const char *p = sb_str(&sb);
	fprintf(f, "      %-7s", label);
	for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1)
		fprintf(f, "%.*s\n             ", (int)(nl - p), p);
	fprintf(f, "%s\n", p);
	sb_release(&sb);
}

static void put_check(FILE *f, const struct report *rep, const struct result *r,
		      size_t idw)
{
	const char *on = rep->color ? colour(r->status) : "";
	const char *off = rep->color ? "\033[0m" : "";
	fprintf(f, "%s%s%s %-*s ", on, status_mark(r->status), off, (int)idw, r->def->id);
	put_clean(f, r->detail && *r->detail ? r->detail : r->def->title);
	if (rep->verbose)
		fprintf(f, "  (%.0f ms)", r->ms);
	fputc('\n', f);

	const struct kb_entry *e = kb_find(r->kb);
	if (r->status != ST_PASS && r->status != ST_SKIP && e) {
		struct strbuf sb = STRBUF_INIT;
		if (e->cause) {
			kb_expand(e->cause, r, &sb);
			put_labelled(f, "cause", sb.buf);
			sb_reset(&sb);
		}
		for (size_t i = 0; i < e->fix.n; i++) {
			kb_expand_fix(e->fix.v[i], r, &sb);
			put_labelled(f, i ? "" : "fix", sb.buf);
			sb_reset(&sb);
		}
		if (rep->verbose)
			for (size_t i = 0; i < e->source.n; i++)
				put_labelled(f, i ? "" : "source", e->source.v[i]);
		sb_release(&sb);
	} else if (r->status == ST_PASS && e && rep->verbose && e->cause) {
		/* A pass with a KB note (harmless noise explained). */
		struct strbuf sb = STRBUF_INIT;
		kb_expand(e->cause, r, &sb);
		put_labelled(f, "note", sb.buf);
		sb_release(&sb);
	}
	if (rep->verbose) {
		for (size_t i = 0; i < r->nev; i++) {
			struct strbuf k = STRBUF_INIT;
			sb_addf(&k, "%s:", r->ev[i].key);
			fprintf(f, "      · %-18s ", k.buf);
			sb_release(&k);
			struct strbuf v = STRBUF_INIT;
			text_sanitize(&v, r->ev[i].val);
			const char *p = sb_str(&v);
			for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1)
				fprintf(f, "%.*s\n%28s", (int)(nl - p), p, "");
			fprintf(f, "%s\n", p);
			sb_release(&v);
		}
		if (r->output && *r->output) {
			fprintf(f, "      · %-18s ", "probe output:");
			struct strbuf v = STRBUF_INIT;
			text_sanitize(&v, r->output);
			sb_rtrim(&v);
			const char *p = sb_str(&v);
			for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1)
				fprintf(f, "%.*s\n%28s", (int)(nl - p), p, "");
			fprintf(f, "%s%s\n", p, r->output_truncated ? " [truncated]" : "");
			sb_release(&v);
		}
	}
}

void report_text(FILE *f, const struct report *rep)
{
	size_t idw = 0;
	for (size_t i = 0; i < rep->n; i++)
		if (rep->shown[i] && rep->results[i].ran && strlen(rep->results[i].def->id) > idw)
			idw = strlen(rep->results[i].def->id);

	for (size_t i = 0; i < rep->n; i++)
		if (rep->shown[i] && rep->results[i].ran)
			put_check(f, rep, &rep->results[i], idw);

	struct summary sum;
	report_summarize(rep, &sum);
	int skipped = sum.counts[ST_SKIP];
	fputc('\n', f);
	const char *on = "", *off = rep->color ? "\033[0m" : "";
	if (sum.first_failure) {
		const struct result *r = sum.first_failure;
		if (rep->color)
			on = "\033[1;31m";
		fprintf(f, "%s✗ Broken at the %s layer%s: ", on, r->def->layer, off);
		put_clean(f, r->detail);
		fprintf(f, " (%s).", r->def->id);
		int bad = sum.counts[ST_FAIL] + sum.counts[ST_CRASH] + sum.counts[ST_TIMEOUT];
		if (bad > 1)
			fprintf(f, " %d problems in all; fix the first one first.", bad);
		if (skipped)
			fprintf(f, " %d check%s skipped until then.", skipped,
				skipped == 1 ? " is" : "s are");
		fputc('\n', f);
	} else if (sum.first_warning) {
		if (rep->color)
			on = "\033[1;33m";
		fprintf(f, "%s! No failures%s, %d warning%s (first: %s)%s.\n", on, off,
			sum.counts[ST_WARN], sum.counts[ST_WARN] == 1 ? "" : "s",
			sum.first_warning->def->id,
			rep->strict ? "; --strict: warnings fail the run" : "");
	} else {
		if (rep->color)
			on = "\033[1;32m";
		int ran = sum.counts[ST_PASS];
		fprintf(f, "%s✓ No problems found%s in %d check%s.\n", on, off, ran,
			ran == 1 ? "" : "s");
	}
}
