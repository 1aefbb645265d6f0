/* format.c: the table of output formats. See format.h. */
#include "format.h"

#include <string.h>

#include "../core/error.h"
#include "explain.h"
#include "html.h"
#include "markdown.h"

/* The writers of the checks' results, each in its own file of report/
 * (text.c, json.c, markdown.c, junit.c, prom.c); of explain's answer
 * (explain.c); of fix's plan (src/fix/plan.c). */
static void check_text(struct strbuf *out, const struct format_input *in)
{
	report_text(out, in->rep);
}

static void check_json(struct strbuf *out, const struct format_input *in)
{
	report_json_with(out, in->rep, in->members, in->members_ctx);
}

static void markdown(struct strbuf *out, const struct format_input *in)
{
	report_markdown(out, in->rep, in->note);
}

static void junit(struct strbuf *out, const struct format_input *in)
{
	report_junit(out, in->rep, in->meta);
}

static void prom(struct strbuf *out, const struct format_input *in)
{
	report_prom(out, in->rep, in->meta);
}

static void explain_text(struct strbuf *out, const struct format_input *in)
{
	explain_report_text(out, in->explain);
}

static void explain_json(struct strbuf *out, const struct format_input *in)
{
	explain_report_json(out, in->explain);
}

static void fix_script(struct strbuf *out, const struct format_input *in)
{
	fix_plan_script(in->plan, in->fix_meta, out);
}

static void fix_json(struct strbuf *out, const struct format_input *in)
{
	fix_plan_json(in->plan, in->fix_meta, out);
}

format_writer check_brief; /* brief.c */
format_writer fix_commands; /* fixcommands.c */

static const struct format table[] = {
	{ "text", "check smoke", check_text, NULL, NULL },
	{ "json", "check", check_json, NULL, "print the report as JSON (schema wslgpu/check/2)" },
	{ "brief", "check", check_brief, NULL, "one line per problem and its first fix, then the verdict" },
	{ "json", "smoke", check_json, NULL, "print the report as JSON (wslgpu/check/2 plus \"smoke\")" },
	{ "junit", "smoke", junit, "FILE", "also write JUnit XML (atomically)" },
	{ "prom", "smoke", prom, "FILE", "also write Prometheus text (node_exporter textfile)" },
	{ "markdown", "report", markdown, NULL, "a compact Markdown report for a GitHub issue instead" },
	{ "html", "report", report_html, NULL,
	  "one self-contained HTML page (verdict, findings, watch, bench, history) instead" },
	{ "text", "explain", explain_text, NULL, NULL },
	{ "json", "explain", explain_json, NULL, "print JSON (schema wslgpu/explain/2)" },
	{ "script", "fix", fix_script, NULL, NULL },
	{ "json", "fix", fix_json, NULL, "print the plan as JSON (schema wslgpu/fix/1)" },
	{ "commands", "fix", fix_commands, NULL,
	  "print only the plan's commands for this shell, as a script (bash -n clean)" },
};
#define NFORMATS (sizeof table / sizeof table[0])
_Static_assert(NFORMATS <= FORMAT_MAX, "raise FORMAT_MAX");

const struct format *formats(size_t *n)
{
	*n = NFORMATS;
	return table;
}

bool format_offered(const struct format *f, const char *cmd)
{
	size_t n = strlen(cmd);
	for (const char *p = strstr(f->commands, cmd); p; p = strstr(p + 1, cmd))
		if ((p == f->commands || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

const struct format *format_find(const char *cmd, const char *name)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (format_offered(&table[i], cmd) &&
		    (name ? !strcmp(table[i].name, name) : !table[i].help))
			return &table[i];
	return NULL;
}

size_t format_index(const struct format *f)
{
	return (size_t)(f - table);
}

void format_write(const char *cmd, const char *name, struct strbuf *out,
		  const struct format_input *in)
{
	const struct format *f = format_find(cmd, name);
	if (!f)
		bugf("%s has no format %s", cmd, name ? name : "by default");
	f->write(out, in);
}
