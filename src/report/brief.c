/*
 * brief.c: `wslgpu check --brief`, the first screen: one line per problem
 * (a failure or a warning, in chain order, so that the first is the one to
 * fix first) with its first fix under it, then the verdict the text report
 * ends with. What passed, the evidence, the causes and the other fixes are
 * `wslgpu check`'s; the whole plan is `wslgpu fix`'s.
 */
#include <string.h>

#include "../core/check.h"
#include "../core/text.h"
#include "../kb/kb.h"
#include "finding.h"
#include "format.h"
#include "report.h"

static bool is_problem(const struct report *rep, size_t i)
{
	const struct result *r = &rep->results[i];
	enum status s = r->ran ? result_shown_status(r) : ST_SKIP;
	return rep->shown[i] && !r->consequence_of && (status_is_failure(s) || s == ST_WARN);
}

/* "  also   cuda.load, libs.env": the findings that follow from r. */
static void consequences_line(struct strbuf *out, const struct report *rep, const struct result *r)
{
	struct strbuf ids = STRBUF_INIT;
	for (size_t i = 0; i < rep->n; i++) {
		const struct result *o = &rep->results[i];
		if (rep->shown[i] && o->ran && o->consequence_of && !strcmp(o->consequence_of, r->def->id))
			sb_addf(&ids, "%s%s", ids.len ? ", " : "", o->def->id);
	}
	if (ids.len) {
		struct strbuf line = STRBUF_INIT;
		sb_addf(&line, "%s (the same cause)", ids.buf);
		finding_text_line(out, 2, "also", line.buf);
		sb_release(&line);
	}
	sb_release(&ids);
}

/* "✗ bridge.nvidia_dev  the detail...": one line, the detail cut to the
 * width with an ellipsis when it does not fit. */
static void problem_line(struct strbuf *out, const struct report *rep, const struct result *r,
			 int idw)
{
	enum status s = result_shown_status(r);
	const char *on = rep->color ? report_status_colour(s) : "", *off = rep->color ? "\033[0m" : "";
	sb_addf(out, "%s%s%s %-*s ", on, status_mark(s), off, idw, r->def->id);
	struct strbuf detail = STRBUF_INIT, wrapped = STRBUF_INIT;
	text_sanitize_line(&detail, r->detail && *r->detail ? r->detail : r->def->title);
	const char *more = text_glyph(" …", " ...");
	int col = 2 + idw + 1;
	struct text_wrap w = { text_columns() - text_width(more), col, col, 0, NULL };
	text_wrap(&wrapped, detail.buf, &w);
	const char *nl = strchr(sb_str(&wrapped), '\n');
	if (nl) {
		sb_addn(out, wrapped.buf, (size_t)(nl - wrapped.buf));
		sb_add(out, more);
	} else {
		sb_add(out, sb_str(&wrapped));
	}
	sb_addc(out, '\n');
	sb_release(&detail);
	sb_release(&wrapped);
}

void check_brief(struct strbuf *out, const struct format_input *in)
{
	const struct report *rep = in->rep;
	int idw = 0;
	size_t problems = 0;
	for (size_t i = 0; i < rep->n; i++)
		if (is_problem(rep, i)) {
			int w = (int)strlen(rep->results[i].def->id);
			idw = w > idw ? w : idw;
			problems++;
		}
	for (size_t i = 0; i < rep->n; i++) {
		if (!is_problem(rep, i))
			continue;
		const struct result *r = &rep->results[i];
		problem_line(out, rep, r, idw);
		struct finding_view v;
		finding_of_result(&v, r);
		consequences_line(out, rep, r);
		if (v.nfix)
			finding_command_line(out, 2, "fix", v.fix[0]);
		finding_view_release(&v);
	}
	if (problems)
		sb_addc(out, '\n');
	report_verdict(out, rep);
}
