/*
 * json.c: the machine-readable report, schema "wslgpu/check/2" (doc/json.md).
 * Ids, keys and status names are stable once released; members are only
 * ever added.
 */
#include <string.h>

#include "../core/check.h"
#include "../core/json.h"
#include "../kb/kb.h"
#include "../version.h"
#include "finding.h"
#include "report.h"

static const char *cut_name(enum cut c)
{
	switch (c) {
	case CUT_TIMEOUT: return "timeout";
	case CUT_BUDGET: return "budget";
	case CUT_NOT_STARTED: return "not_started";
	case CUT_INTERRUPTED: return "interrupted";
	default: return NULL;
	}
}

static void put_check(struct json_writer *jw, const struct report *rep, const struct result *r)
{
	struct finding_view v;
	finding_of_result(&v, r);
	jw_object_begin(jw);
	jw_kv_str(jw, "id", r->def->id);
	jw_kv_str(jw, "layer", r->def->layer);
	jw_kv_str(jw, "status", status_name(result_shown_status(r)));
	jw_kv_str(jw, "title", r->def->title);
	jw_kv_str(jw, "detail", r->detail ? r->detail : "");
	jw_kv_str(jw, "kb", r->kb);
	if (r->consequence_of) /* one problem: the views show it under that check */
		jw_kv_str(jw, "consequence_of", r->consequence_of);
	finding_json(jw, &v, r->status != ST_PASS);
	/* the platform its fix lines are chosen for (finding_for_platform) */
	jw_kv_str(jw, "fixes_for", r->platform ? r->platform : "unknown");
	evidence_json(jw, "evidence", &r->ev);
	if (r->cut != CUT_NONE)
		jw_kv_str(jw, "cut", cut_name(r->cut));
	if (result_tolerated(r)) {
		jw_kv_str(jw, "tolerated_by", r->tolerated_by);
		jw_kv_str(jw, "original_status", status_name(r->status));
	}
	if (rep->verbose && r->output)
		jw_kv_str(jw, "output", r->output);
	jw_kv_fixed(jw, "ms", 1, r->ms);
	jw_end(jw);
	finding_view_release(&v);
}

void report_json_members(struct json_writer *jw, const struct report *rep)
{
	struct summary sum;
	report_summarize(rep, &sum);
	jw_kv_str(jw, "schema", "wslgpu/check/2");
	jw_kv_object(jw, "tool");
	jw_kv_str(jw, "name", "wslgpu");
	jw_kv_str(jw, "version", WSLGPU_VERSION);
	jw_end(jw);
	jw_kv_object(jw, "platform");
	const char *kind = report_platform(rep, "kind");
	jw_kv_str(jw, "kind", kind ? kind : "unknown");
	jw_kv_str(jw, "kernel", report_platform(rep, "kernel"));
	jw_kv_str(jw, "distro", report_platform(rep, "distro"));
	jw_end(jw);
	jw_kv_array_lines(jw, "checks");
	for (size_t i = 0; i < rep->n; i++)
		if (rep->shown[i] && rep->results[i].ran)
			put_check(jw, rep, &rep->results[i]);
	jw_end(jw);
	jw_kv_object(jw, "summary");
	jw_kv_str(jw, "status", sum.status);
	jw_kv_str(jw, "first_failure", sum.first_failure ? sum.first_failure->def->id : NULL);
	jw_kv_int(jw, "problems", (intmax_t)sum.problems);
	jw_kv_int(jw, "consequences", (intmax_t)sum.consequences);
	if (sum.interrupted_by) /* the status covers only the checks that finished */
		jw_kv_str(jw, "interrupted", sum.interrupted_by);
	jw_kv_object(jw, "counts");
	for (int s = 0; s < ST__COUNT; s++)
		jw_kv_int(jw, status_name((enum status)s), sum.counts[s]);
	jw_end(jw);
	jw_end(jw);
}

void report_json_with(struct strbuf *out, const struct report *rep,
		      void (*members)(struct json_writer *jw, const void *ctx), const void *ctx)
{
	struct json_writer jw;
	jw_init(&jw, out);
	jw_object_begin(&jw);
	report_json_members(&jw, rep);
	if (members)
		members(&jw, ctx);
	jw_end(&jw);
	sb_addc(out, '\n');
}

void report_json(struct strbuf *out, const struct report *rep)
{
	report_json_with(out, rep, NULL, NULL);
}
