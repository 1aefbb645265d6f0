/*
 * markdown.c: `wslgpu report --markdown`, a compact report for a GitHub
 * issue (see markdown.h). Short on purpose: one row per layer instead of
 * one per check, the first failure's cause and fix, the other problems as
 * one line each, and the evidence collapsed. Placeholders such as <user-1>
 * would vanish as HTML tags, so text outside code blocks is escaped.
 */
#include "finding.h"
#include "markdown.h"

#include <stdlib.h>
#include <string.h>

#include "../core/check.h"
#include "../core/json.h"
#include "../core/layers.h"
#include "../kb/fixline.h"
#include "../kb/kb.h"
#include "../version.h"

/* The <details> block: lines in all, evidence items per check (the bundle
 * and `wslgpu check -v` have the rest). */
#define MD_DETAIL_LINES 30
#define MD_EVIDENCE_PER_CHECK 6
#define MD_VALUE_MAX 300

/* Inline text: one line, HTML and table syntax escaped. */
static void md_inline(struct strbuf *sb, const char *s)
{
	struct strbuf t = STRBUF_INIT;
	text_sanitize(&t, s ? s : "");
	for (const char *p = sb_str(&t); *p; p++) {
		switch (*p) {
		case '<': sb_add(sb, "&lt;"); break;
		case '>': sb_add(sb, "&gt;"); break;
		case '&': sb_add(sb, "&amp;"); break;
		case '|': sb_add(sb, "\\|"); break;
		case '\n':
		case '\t': sb_addc(sb, ' '); break;
		default: sb_addc(sb, *p);
		}
	}
	sb_release(&t);
}

/* Text inside a ``` block: sanitised, and unable to close the block. */
static void md_code(struct strbuf *sb, const char *s, size_t max)
{
	struct strbuf t = STRBUF_INIT;
	text_sanitize(&t, s ? s : "");
	size_t n = t.len;
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		if (t.buf[i] == '`' && i + 2 < t.len && t.buf[i + 1] == '`' && t.buf[i + 2] == '`') {
			sb_add(sb, "'''");
			i += 2;
			continue;
		}
		sb_addc(sb, t.buf[i]);
	}
	if (t.len > max)
		sb_addf(sb, " [... %zu more bytes]", t.len - max);
	sb_release(&t);
}

static bool bad(enum status s)
{
	return s == ST_WARN || status_is_failure(s);
}

/* Named in the layer table and the list under the first problem: the
 * problems and the checks that could not find out. */
static bool named(enum status s)
{
	return bad(s) || s == ST_UNKNOWN;
}

static const char *driver_version(const struct report *rep)
{
	const struct result *r = report_find(rep, "host.driver");
	return r ? res_get(r, "driver_version") : NULL;
}

static void put_layers(struct strbuf *sb, const struct report *rep)
{
	size_t nl;
	const struct layer *layers = layers_in_order(&nl);
	sb_add(sb, "| layer | | checks |\n|---|---|---|\n");
	for (size_t l = 0; l < nl; l++) {
		int counts[ST__COUNT] = { 0 };
		enum status worst = ST_SKIP;
		bool any = false;
		struct strbuf ids = STRBUF_INIT;
		for (size_t i = 0; i < rep->n; i++) {
			const struct result *r = &rep->results[i];
			if (!rep->shown[i] || !r->ran || strcmp(r->def->layer, layers[l].name) != 0)
				continue;
			any = true;
			counts[r->status]++;
			if (r->status != ST_SKIP &&
			    status_severity(r->status, false) > status_severity(worst, false))
				worst = r->status;
			if (named(r->status))
				sb_addf(&ids, "%s%s `%s`", ids.len ? ", " : "", status_mark(r->status), r->def->id);
		}
		if (!any)
			continue;
		sb_addf(sb, "| %s | %s | ", layers[l].name, status_mark(worst));
		sb_addn(sb, ids.buf ? ids.buf : "", ids.len);
		const char *sep = ids.len ? "; " : "";
		if (counts[ST_PASS]) {
			sb_addf(sb, "%s%d passed", sep, counts[ST_PASS]);
			sep = ", ";
		}
		if (counts[ST_UNKNOWN]) {
			sb_addf(sb, "%s%d unknown", sep, counts[ST_UNKNOWN]);
			sep = ", ";
		}
		if (counts[ST_SKIP])
			sb_addf(sb, "%s%d skipped", sep, counts[ST_SKIP]);
		sb_add(sb, " |\n");
		sb_release(&ids);
	}
}

static void put_first(struct strbuf *sb, const struct result *r)
{
	sb_addf(sb, "\n**%s `%s`**: ", status_mark(r->status), r->def->id);
	md_inline(sb, r->detail);
	sb_add(sb, "\n");
	const struct kb_entry *e = kb_find(r->kb);
	if (!e)
		return;
	struct finding_view v;
	finding_of_result(&v, r);
	if (v.cause) {
		sb_add(sb, "\n> **Cause:** ");
		md_inline(sb, v.cause);
		sb_add(sb, "\n");
	}
	if (v.nfix) {
		sb_add(sb, "\n**Fix** (`wslgpu kb ");
		sb_add(sb, e->id);
		sb_add(sb, "`):\n\n```\n");
		for (size_t i = 0; i < v.nfix; i++) {
			/* as the terminal shows it: a remark is a comment, and
			 * words for a person are one, so each line pastes */
			struct fix_shell fs;
			fix_shell_of(v.fix[i], &fs);
			md_code(sb, fs.line, MD_VALUE_MAX);
			sb_addc(sb, '\n');
			fix_shell_release(&fs);
		}
		sb_add(sb, "```\n");
	}
	finding_view_release(&v);
}

/* Appends text to the details block, counting lines against the cap. */
static bool detail_add(struct strbuf *sb, size_t *lines, const char *text)
{
	if (*lines >= MD_DETAIL_LINES)
		return false;
	for (const char *p = text; *p; p++)
		if (*p == '\n')
			++*lines;
	sb_add(sb, text);
	return true;
}

static void put_details(struct strbuf *sb, const struct report *rep)
{
	struct strbuf body = STRBUF_INIT, t = STRBUF_INIT;
	size_t lines = 0, left = 0;
	for (size_t i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];
		if (!rep->shown[i] || !r->ran || !bad(r->status))
			continue;
		sb_reset(&t);
		sb_addf(&t, "%s %s (%s, %.0f ms): ", status_mark(r->status), r->def->id,
			status_name(r->status), r->ms);
		md_code(&t, r->detail, MD_VALUE_MAX);
		sb_addc(&t, '\n');
		for (size_t k = 0; k < r->ev.n; k++) {
			if (k == MD_EVIDENCE_PER_CHECK) {
				sb_addf(&t, "    [... %zu more]\n", r->ev.n - k);
				break;
			}
			sb_addf(&t, "    %s: ", r->ev.v[k].key);
			struct strbuf v = STRBUF_INIT;
			md_code(&v, r->ev.v[k].val, MD_VALUE_MAX);
			for (const char *p = sb_str(&v); *p; p++) {
				sb_addc(&t, *p);
				if (*p == '\n')
					sb_add(&t, "        ");
			}
			sb_release(&v);
			sb_addc(&t, '\n');
		}
		if (!detail_add(&body, &lines, t.buf))
			left++;
	}
	if (!body.len) {
		sb_release(&body);
		sb_release(&t);
		return;
	}
	sb_add(sb, "\n<details><summary>Evidence of the checks that did not pass "
		   "(<code>wslgpu check -v</code>)</summary>\n\n```\n");
	sb_addn(sb, body.buf, body.len);
	if (left)
		sb_addf(sb, "[... %zu more check%s: run wslgpu check -v]\n", left, left == 1 ? "" : "s");
	sb_add(sb, "```\n\n</details>\n");
	sb_release(&body);
	sb_release(&t);
}

void report_markdown(struct strbuf *out, const struct report *rep, const char *note)
{
	struct strbuf sb = STRBUF_INIT;
	struct summary sum;
	report_summarize(rep, &sum);

	sb_add(&sb, "### wslgpu check: ");
	if (sum.first_failure) {
		sb_addf(&sb, "✗ broken at the %s layer (`%s`)\n", sum.first_failure->def->layer,
			sum.first_failure->def->id);
	} else if (sum.first_warning) {
		sb_addf(&sb, "! no failures, %zu warning%s\n", sum.problems,
			sum.problems == 1 ? "" : "s");
	} else if (sum.interrupted) {
		sb_add(&sb, "- no problems found in the checks that finished\n");
	} else {
		sb_add(&sb, "✓ no problems found\n");
	}
	if (sum.counts[ST_UNKNOWN] && !sum.first_failure)
		sb_addf(&sb, "\n%d check%s could not be verified (%s `%s`).\n",
			sum.counts[ST_UNKNOWN], sum.counts[ST_UNKNOWN] == 1 ? "" : "s",
			status_mark(ST_UNKNOWN), sum.first_unknown->def->id);
	if (sum.interrupted)
		sb_addf(&sb, "\n**Interrupted by %s**: %zu check%s did not finish.\n",
			sum.interrupted_by ? sum.interrupted_by : "a signal", sum.interrupted,
			sum.interrupted == 1 ? "" : "s");
	const char *kind = report_platform(rep, "kind"), *kernel = report_platform(rep, "kernel"),
		   *distro = report_platform(rep, "distro"), *driver = driver_version(rep);
	sb_add(&sb, "\n**");
	md_inline(&sb, kind ? kind : "unknown");
	sb_add(&sb, "** · kernel ");
	md_inline(&sb, kernel ? kernel : "unknown");
	sb_add(&sb, " · ");
	md_inline(&sb, distro ? distro : "unknown distribution");
	sb_add(&sb, " · driver ");
	md_inline(&sb, driver ? driver : "unknown");
	sb_addf(&sb, " · wslgpu %s\n\n", WSLGPU_VERSION);

	put_layers(&sb, rep);
	const struct result *first = sum.first_failure ? sum.first_failure : sum.first_warning;
	if (first)
		put_first(&sb, first);
	bool header = false;
	for (size_t i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];
		if (!rep->shown[i] || !r->ran || !named(r->status) || r == first)
			continue;
		if (!header) /* with no problem, only what could not be verified is left */
			sb_add(&sb, first ? "\nAlso:\n" : "\nNot verified:\n");
		header = true;
		sb_addf(&sb, "- %s `%s`: ", status_mark(r->status), r->def->id);
		md_inline(&sb, r->detail);
		if (r->consequence_of) /* one cause, one problem */
			sb_addf(&sb, " (follows from `%s`: the same cause)", r->consequence_of);
		sb_addc(&sb, '\n');
	}
	put_details(&sb, rep);
	if (note) {
		sb_add(&sb, "\n<sub>");
		md_inline(&sb, note);
		sb_add(&sb, "</sub>\n");
	}
	sb_addn(out, sb.buf, sb.len);
	sb_release(&sb);
}
