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
#include "finding.h"
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

static void put_clean(struct strbuf *out, const char *s)
{
	text_sanitize(out, s);
}

/* Evidence and captured output under -v: "· key: value", continuation lines
 * under the value. */
static void put_evidence_line(struct strbuf *out, const char *key, const char *val,
			      const char *suffix)
{
	struct strbuf k = STRBUF_INIT, v = STRBUF_INIT;
	sb_addf(&k, "%s:", key);
	sb_addf(out, "      · %-18s ", k.buf);
	text_sanitize(&v, val);
	sb_rtrim(&v);
	const char *p = sb_str(&v);
	for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1)
		sb_addf(out, "%.*s\n%28s", (int)(nl - p), p, "");
	sb_addf(out, "%s%s\n", p, suffix);
	sb_release(&k);
	sb_release(&v);
}

static void put_check(struct strbuf *out, const struct report *rep, const struct result *r,
		      size_t idw)
{
	enum status shown = result_shown_status(r);
	const char *on = rep->color ? colour(shown) : "";
	const char *off = rep->color ? "\033[0m" : "";
	sb_addf(out, "%s%s%s %-*s ", on, status_mark(shown), off, (int)idw, r->def->id);
	put_clean(out, r->detail && *r->detail ? r->detail : r->def->title);
	if (result_tolerated(r)) {
		if (status_is_failure(r->status))
			sb_addf(out, " (tolerated by policy: %s)", status_name(r->status));
		else
			sb_add(out, " (tolerated by policy)");
	}
	if (rep->verbose)
		sb_addf(out, "  (%.0f ms)", r->ms);
	sb_addc(out, '\n');

	const struct kb_entry *e = kb_find(r->kb);
	if (e && r->status != ST_SKIP && (r->status != ST_PASS || (rep->verbose && e->cause))) {
		struct finding_view v;
		finding_expand(&v, e, &r->ev, r->def->id);
		if (r->status == ST_PASS) /* a pass with a KB note: harmless noise explained */
			finding_text(out, &v, 6, FT_CAUSE | FT_NOTE);
		else
			finding_text(out, &v, 6, FT_CAUSE | FT_FIXES | (rep->verbose ? FT_SOURCES : 0));
		finding_view_release(&v);
	}
	if (rep->verbose) {
		for (size_t i = 0; i < r->ev.n; i++)
			put_evidence_line(out, r->ev.v[i].key, r->ev.v[i].val, "");
		if (r->output && *r->output)
			put_evidence_line(out, "probe output", r->output,
					  r->output_truncated ? " [truncated]" : "");
	}
}

void report_text(struct strbuf *out, const struct report *rep)
{
	size_t idw = 0;
	for (size_t i = 0; i < rep->n; i++)
		if (rep->shown[i] && rep->results[i].ran && strlen(rep->results[i].def->id) > idw)
			idw = strlen(rep->results[i].def->id);

	for (size_t i = 0; i < rep->n; i++)
		if (rep->shown[i] && rep->results[i].ran)
			put_check(out, rep, &rep->results[i], idw);

	struct summary sum;
	report_summarize(rep, &sum);
	int skipped = sum.counts[ST_SKIP];
	sb_addc(out, '\n');
	const char *on = "", *off = rep->color ? "\033[0m" : "";
	if (sum.first_failure) {
		const struct result *r = sum.first_failure;
		if (rep->color)
			on = "\033[1;31m";
		sb_addf(out, "%s✗ Broken at the %s layer%s: ", on, r->def->layer, off);
		put_clean(out, r->detail);
		sb_addf(out, " (%s).", r->def->id);
		if (sum.failed > 1)
			sb_addf(out, " %zu problems in all; fix the first one first.", sum.failed);
		if (skipped)
			sb_addf(out, " %d check%s skipped until then.", skipped,
				skipped == 1 ? " is" : "s are");
		sb_addc(out, '\n');
	} else if (sum.interrupted) {
		/* "No problems found" would claim what was never checked. */
	} else if (sum.first_warning) {
		if (rep->color)
			on = "\033[1;33m";
		sb_addf(out, "%s! No failures%s, %d warning%s (first: %s)%s.\n", on, off,
			sum.counts[ST_WARN], sum.counts[ST_WARN] == 1 ? "" : "s",
			sum.first_warning->def->id,
			rep->strict ? "; --strict: warnings fail the run" : "");
	} else {
		if (rep->color)
			on = "\033[1;32m";
		int ran = sum.counts[ST_PASS];
		sb_addf(out, "%s✓ No problems found%s in %d check%s.\n", on, off, ran,
			ran == 1 ? "" : "s");
	}
	if (sum.interrupted) {
		if (rep->color)
			on = "\033[1;33m";
		sb_addf(out, "%s- Interrupted by %s%s: %zu check%s did not finish (marked "
			"\"interrupted\" above)", on, sum.interrupted_by ? sum.interrupted_by : "a signal",
			off, sum.interrupted, sum.interrupted == 1 ? "" : "s");
		if (!sum.first_failure && sum.first_warning)
			sb_addf(out, "; %d warning%s (first: %s) in those that did",
				sum.counts[ST_WARN], sum.counts[ST_WARN] == 1 ? "" : "s",
				sum.first_warning->def->id);
		else if (!sum.first_failure)
			sb_add(out, "; those that did found no problem");
		sb_add(out, ".\n");
	}
}
