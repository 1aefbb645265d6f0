/*
 * text.c: the human report, in the habit of `flutter doctor`: one line per
 * check with a mark, and under each line that is not a pass, the cause and
 * the fix as commands to type. -v adds the evidence and the time each check
 * took. Lines are wrapped to the terminal's width (text_columns), each under
 * its own text; checks skipped because an earlier one failed are one line
 * under that failure ("17 checks skipped until this is fixed"), listed with
 * -v. Colour only when asked for by the caller (cli_want_color).
 */
#include <string.h>

#include "../core/check.h"
#include "../core/json.h"
#include "../core/text.h"
#include "../kb/kb.h"
#include "finding.h"
#include "report.h"

const char *report_status_colour(enum status s)
{
	switch (s) {
	case ST_PASS: return "\033[32m";
	case ST_WARN: return "\033[33m";
	case ST_FAIL: return "\033[31m";
	case ST_SKIP: return "\033[2m";
	case ST_CRASH: return "\033[35m";
	case ST_TIMEOUT: return "\033[33m";
	case ST_UNKNOWN: return "\033[36m";
	default: return "";
	}
}

/* Evidence and captured output under -v: "· key: value", continuation lines
 * under the value. */
#define EVIDENCE_COLUMN 28

static void put_evidence_line(struct strbuf *out, const char *key, const char *val,
			      const char *suffix)
{
	struct strbuf k = STRBUF_INIT, v = STRBUF_INIT;
	sb_addf(&k, "%s:", key);
	sb_addf(out, "      %s %-18s ", text_glyph("·", "*"), k.buf);
	text_sanitize(&v, val);
	sb_rtrim(&v);
	sb_add(&v, suffix);
	int col = 8 + (k.len > 18 ? (int)k.len : 18) + 1;
	struct text_wrap w = { text_columns(), col, EVIDENCE_COLUMN, 0, NULL };
	text_wrap(out, sb_str(&v), &w);
	sb_addc(out, '\n');
	sb_release(&k);
	sb_release(&v);
}

/* The failed check that blocked r (it was skipped until that one is
 * fixed), when that check is in the report; else NULL. */
static const struct result *blocker(const struct report *rep, const struct result *r)
{
	const char *by = r->status == ST_SKIP ? res_get(r, "blocked_by") : NULL;
	if (!by)
		return NULL;
	for (size_t i = 0; i < rep->n; i++)
		if (rep->shown[i] && rep->results[i].ran && rep->results[i].def &&
		    !strcmp(rep->results[i].def->id, by))
			return status_is_failure(rep->results[i].status) ? &rep->results[i] : NULL;
	return NULL;
}

/* The checks shown that b blocks. */
static int blocked_by(const struct report *rep, const struct result *b)
{
	int n = 0;
	for (size_t i = 0; i < rep->n; i++)
		if (rep->shown[i] && rep->results[i].ran && blocker(rep, &rep->results[i]) == b)
			n++;
	return n;
}

/* The finding under a check line, or NULL when the line stands alone. A
 * later check explained by the same entry with the same fixes (libcuda and
 * libnvml shadowed by one package) points at the first instead. */
static const struct result *same_finding(const struct report *rep, const struct result *r)
{
	for (size_t i = 0; i < rep->n && &rep->results[i] != r; i++) {
		const struct result *o = &rep->results[i];
		if (!rep->shown[i] || !o->ran || o->status == ST_PASS || o->status == ST_SKIP ||
		    !o->kb || strcmp(o->kb, r->kb))
			continue;
		struct finding_view a, b;
		finding_of_result(&a, r);
		finding_of_result(&b, o);
		bool same = a.nfix == b.nfix;
		for (size_t j = 0; same && j < a.nfix; j++)
			same = !strcmp(a.fix[j], b.fix[j]);
		finding_view_release(&a);
		finding_view_release(&b);
		if (same)
			return o;
	}
	return NULL;
}

static void put_check(struct strbuf *out, const struct report *rep, const struct result *r,
		      size_t idw)
{
	enum status shown = result_shown_status(r);
	const char *on = rep->color ? report_status_colour(shown) : "";
	const char *off = rep->color ? "\033[0m" : "";
	sb_addf(out, "%s%s%s %-*s ", on, status_mark(shown), off, (int)idw, r->def->id);
	struct strbuf line = STRBUF_INIT;
	text_sanitize_line(&line, r->detail && *r->detail ? r->detail : r->def->title);
	if (result_tolerated(r)) {
		if (status_is_failure(r->status))
			sb_addf(&line, " (tolerated by policy: %s)", status_name(r->status));
		else
			sb_add(&line, " (tolerated by policy)");
	}
	if (rep->verbose)
		sb_addf(&line, "  (%.0f ms)", r->ms);
	/* The detail wraps under itself, right of the id column. */
	int col = 2 + (int)idw + 1;
	struct text_wrap w = { text_columns(), col, col, 0, NULL };
	text_wrap(out, line.buf, &w);
	sb_addc(out, '\n');
	sb_release(&line);

	const struct kb_entry *e = kb_find(r->kb);
	if (r->consequence_of) {
		/* one cause, one problem: its cause and fix are the root's */
		struct strbuf f = STRBUF_INIT;
		const struct result *c = report_find(rep, r->consequence_of);
		sb_addf(&f, "follows from %s %s: the same cause, the same fix", r->consequence_of,
			c > r ? "below" : "above");
		struct text_wrap fw = { text_columns(), 6, 6, 0, NULL };
		sb_add(out, "      ");
		text_wrap(out, f.buf, &fw);
		sb_addc(out, '\n');
		sb_release(&f);
		if (rep->verbose && e) {
			struct finding_view v;
			finding_of_result(&v, r);
			finding_text(out, &v, 6, FT_CAUSE | FT_FIXES | FT_SOURCES | FT_MORE);
			finding_view_release(&v);
		}
	} else if (e && r->status != ST_SKIP && (r->status != ST_PASS || (rep->verbose && e->cause))) {
		const struct result *same = r->status == ST_PASS ? NULL : same_finding(rep, r);
		struct finding_view v;
		finding_of_result(&v, r);
		if (same) {
			sb_addf(out, "      cause and fix: as for %s above\n", same->def->id);
			if (rep->verbose)
				finding_text(out, &v, 6, FT_MORE);
		} else if (r->status == ST_PASS) { /* a pass with a KB note: harmless noise explained */
			finding_text(out, &v, 6, FT_CAUSE | FT_NOTE | (rep->verbose ? FT_MORE : 0));
		} else if (r->status == ST_UNKNOWN) { /* why it cannot tell, and how to find out */
			finding_text(out, &v, 6, FT_CAUSE | FT_NOTE | FT_FIXES |
					 (rep->verbose ? FT_SOURCES | FT_MORE : 0));
		} else {
			finding_text(out, &v, 6, FT_CAUSE | FT_FIXES |
					 (rep->verbose ? FT_SOURCES | FT_MORE : 0));
		}
		finding_view_release(&v);
	}
	/* The checks this one holds back: one line, as flutter doctor does;
	 * -v lists them where they belong. */
	int held = status_is_failure(r->status) ? blocked_by(rep, r) : 0;
	if (held)
		sb_addf(out, "      %d check%s skipped until this is fixed%s\n", held,
			held == 1 ? "" : "s", rep->verbose ? "" : " (-v lists them)");
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
		if (rep->shown[i] && rep->results[i].ran &&
		    (rep->verbose || !blocker(rep, &rep->results[i])))
			put_check(out, rep, &rep->results[i], idw);

	sb_addc(out, '\n');
	report_verdict(out, rep);
}

/* "; 1 could not be verified (toolkit.packages)": what a verdict without
 * failures leaves unproven. Unknown is no problem (flutter doctor does
 * not fail on a validator that is not available either), but "no
 * problems" must not read as "all verified". */
static void add_unknown(struct strbuf *v, const struct summary *sum)
{
	int n = sum->counts[ST_UNKNOWN];
	if (!n)
		return;
	sb_addf(v, "; %d%s could not be verified (%s%s)", n,
		sum->counts[ST_PASS] || sum->problems ? "" : n == 1 ? " check" : " checks",
		n == 1 ? "" : "first: ", sum->first_unknown->def->id);
}

void report_verdict(struct strbuf *out, const struct report *rep)
{
	struct summary sum;
	report_summarize(rep, &sum);
	struct strbuf v = STRBUF_INIT;
	const char *on = "", *off = rep->color ? "\033[0m" : "";
	if (sum.first_failure) {
		const struct result *r = sum.first_failure;
		if (rep->color)
			on = "\033[1;31m";
		sb_addf(&v, "%s%s Broken at the %s layer%s: ", on, status_mark(ST_FAIL),
			r->def->layer, off);
		text_sanitize_line(&v, r->detail);
		sb_addf(&v, " (%s).", r->def->id);
		if (sum.problems > 1)
			sb_addf(&v, " %zu problems in all; fix the first one first.", sum.problems);
		if (sum.consequences)
			sb_addf(&v, " %zu finding%s follow%s from %s.", sum.consequences,
				sum.consequences == 1 ? "" : "s", sum.consequences == 1 ? "s" : "",
				sum.problems > 1 ? "these" : "it");
		/* Only the checks this failure holds back wait for its fix. */
		int held = blocked_by(rep, r);
		if (held)
			sb_addf(&v, " %d check%s skipped until then.", held,
				held == 1 ? " is" : "s are");
	} else if (sum.interrupted) {
		/* "No problems found" would claim what was never checked. */
	} else if (sum.first_warning) {
		if (rep->color)
			on = "\033[1;33m";
		sb_addf(&v, "%s%s No failures%s, %d warning%s (first: %s)", on,
			status_mark(ST_WARN), off, (int)sum.problems,
			sum.problems == 1 ? "" : "s", sum.first_warning->def->id);
		add_unknown(&v, &sum);
		sb_addf(&v, "%s.", rep->strict ? "; --strict: warnings fail the run" : "");
	} else {
		if (rep->color)
			on = "\033[1;32m";
		int ran = sum.counts[ST_PASS];
		sb_addf(&v, "%s%s No problems found%s", on, status_mark(ST_PASS), off);
		if (ran || !sum.counts[ST_UNKNOWN])
			sb_addf(&v, " in %d check%s", ran, ran == 1 ? "" : "s");
		add_unknown(&v, &sum);
		sb_addc(&v, '.');
	}
	if (v.len)
		text_wrap_line(out, v.buf, 2, 0);
	if (sum.interrupted) {
		sb_reset(&v);
		if (rep->color)
			on = "\033[1;33m";
		sb_addf(&v, "%s- Interrupted by %s%s: %zu check%s did not finish (marked "
			"\"interrupted\" above)", on, sum.interrupted_by ? sum.interrupted_by : "a signal",
			off, sum.interrupted, sum.interrupted == 1 ? "" : "s");
		if (!sum.first_failure && sum.first_warning)
			sb_addf(&v, "; %d warning%s (first: %s) in those that did",
				sum.counts[ST_WARN], sum.counts[ST_WARN] == 1 ? "" : "s",
				sum.first_warning->def->id);
		else if (!sum.first_failure)
			sb_add(&v, "; those that did found no problem");
		sb_addc(&v, '.');
		text_wrap_line(out, v.buf, 2, 0);
	}
	sb_release(&v);
}
