/* summary.c: counts, first failure and the platform facts for all formats. */
#include "report.h"

#include <string.h>

#include "../core/check.h"

void report_summarize(const struct report *rep, struct summary *sum)
{
	memset(sum, 0, sizeof *sum);
	const struct result *root_failure = NULL, *root_warning = NULL;
	for (size_t i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];
		if (!rep->shown[i] || !r->ran)
			continue;
		enum status shown = result_shown_status(r);
		bool tol = result_tolerated(r);
		sum->shown++;
		sum->counts[shown]++;
		sum->real[r->status]++;
		if (tol)
			sum->tolerated++;
		else if (r->cut == CUT_BUDGET)
			sum->cut_short++;
		else if (r->cut == CUT_NOT_STARTED)
			sum->not_started++;
		if (r->cut == CUT_INTERRUPTED) {
			sum->interrupted++;
			if (!sum->interrupted_by)
				sum->interrupted_by = res_get(r, "interrupted_by");
		}
		bool root = !r->consequence_of;
		if (status_is_failure(shown) || shown == ST_WARN) {
			if (root)
				sum->problems++;
			else
				sum->consequences++;
		}
		if (result_fails_run(r)) {
			sum->failed++;
			if (root && !root_failure)
				root_failure = r;
			if (!sum->first_failure)
				sum->first_failure = r;
		}
		if (r->status == ST_WARN && !tol)
			sum->warnings++;
		if (shown == ST_WARN && root && !root_warning)
			root_warning = r;
		if (shown == ST_WARN && !sum->first_warning)
			sum->first_warning = r;
		if (shown == ST_UNKNOWN && !sum->first_unknown)
			sum->first_unknown = r;
	}
	/* the headline blames the root, not what follows from it */
	if (root_failure)
		sum->first_failure = root_failure;
	if (root_warning)
		sum->first_warning = root_warning;
	sum->status = sum->first_failure ? "fail" : sum->first_warning ? "warn" : "ok";
}

const struct result *report_find(const struct report *rep, const char *id)
{
	for (size_t i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];
		if (r->ran && r->def && strcmp(r->def->id, id) == 0)
			return r;
	}
	return NULL;
}

const char *report_platform(const struct report *rep, const char *key)
{
	const struct result *r = report_find(rep, "platform.kind");
	return r ? res_get(r, key) : NULL;
}
