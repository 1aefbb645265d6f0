/*
 * consequence.c: one root cause, one problem (consequence.h).
 *
 * Three ways a finding follows from another, tried in this order:
 *   - a check it depends on failed: through its dependencies (the ones that
 *     hold it back and the "after:" ones in realises[]), the nearest failed
 *     ancestor is its cause; cuda.load failing once libs.libcuda predicted
 *     the wrong file is that prediction come true, and a check that
 *     still runs after a missing GPU device (bridge) fails for want of it;
 *   - the pairs in follows[]: the same root seen from two layers (a toolkit
 *     too new for the driver is found by host.driver and by toolkit.nvcc;
 *     the root is the toolkit, so host.driver's is the consequence, though
 *     it comes first);
 *   - the same first fix command as an earlier problem's: one fix, one
 *     problem (libs.libnvml and libs.env blaming the stubs directory that
 *     libs.libcuda blames, with the same `export LD_LIBRARY_PATH=...`).
 */
#include "consequence.h"

#include <stdlib.h>
#include <string.h>

#include "../core/check.h"
#include "../kb/finding.h"
#include "../kb/fixline.h"
#include "../kb/kb.h"
#include "kb_ids.h"

/* "after:" dependencies that are the same question asked again, so that
 * its failure is the first one's come true. (Other "after:" deps only
 * order a check to read context: toolkit.nvcc reads cuda.init's driver
 * version, and its finding is its own.) */
static const char *const realises[][2] = {
	{ "cuda.load", "libs.libcuda" },
};

/* The same root found by two checks: the consequence's KB entry (a
 * prefix), the cause's check and the cause's KB entry (a prefix). */
static const struct {
	const char *kb, *cause_check, *cause_kb;
} follows[] = {
	/* the toolkit is too new for the driver: the toolkit's problem */
	{ KB_HOST_DRIVER_TOOLKIT_TOO_NEW, "toolkit.nvcc", KB_TOOLKIT_NVCC_DRIVER_TOO_OLD },
	{ KB_HOST_DRIVER_TOOLKIT_MINOR_NEWER, "toolkit.nvcc", "toolkit.nvcc." },
	/* a container started without the GPU sees no kernel driver either */
	{ KB_HOST_DRIVER_STORE_NO_KERNEL_DRIVER, "bridge.nvidia_dev", KB_BRIDGE_NVIDIA_DEV_CONTAINER },
	{ "libs.kernel_modules.no_driver", "bridge.nvidia_dev", KB_BRIDGE_NVIDIA_DEV_CONTAINER },
	{ "host.driver_store.", "bridge.dxg", KB_BRIDGE_DXG_CONTAINER },
};

static bool is_problem(const struct result *r)
{
	return r->ran && r->def && (status_is_failure(r->status) || r->status == ST_WARN);
}

bool result_is_root_problem(const struct result *r)
{
	return is_problem(r) && !r->consequence_of;
}

static bool prefixed(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

static long find(struct result *results, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (results[i].def && !strcmp(results[i].def->id, id))
			return (long)i;
	return -1;
}

/* The cause a failed or warned check a stands for: itself, or its root. */
static const char *root_of(const struct result *a)
{
	return a->consequence_of ? a->consequence_of : a->def->id;
}

/* The nearest failed ancestor of results[i] through its dependencies;
 * depth bounds a cycle the registry should not have. */
static const struct result *failed_ancestor(struct result *results, size_t n, size_t i,
					    int depth)
{
	const struct check_def *d = results[i].def;
	if (depth > 16)
		return NULL;
	for (size_t k = 0; k < CHECK_MAX_DEPS && d->deps[k]; k++) {
		const char *dep = d->deps[k];
		if (prefixed(dep, CHECK_AFTER)) {
			dep += strlen(CHECK_AFTER);
			bool same_question = false;
			for (size_t q = 0; q < sizeof realises / sizeof *realises; q++)
				same_question |= !strcmp(realises[q][0], d->id) &&
						 !strcmp(realises[q][1], dep);
			if (!same_question)
				continue;
		}
		long j = find(results, n, dep);
		if (j < 0)
			continue;
		const struct result *a = &results[j];
		if (a->ran && status_is_failure(a->status))
			return a;
		/* through a check that was held back, never one that ran: its
		 * own answer stands between */
		if (a->ran && a->status != ST_SKIP)
			continue;
		const struct result *up = failed_ancestor(results, n, (size_t)j, depth + 1);
		if (up)
			return up;
	}
	return NULL;
}

/* The first fix line's command, without its remark. */
static char *first_fix(const struct result *r)
{
	struct finding_view v;
	finding_of_result(&v, r);
	char *cmd = NULL;
	if (v.nfix) {
		struct fix_command c;
		fix_classify(v.fix[0], &c);
		if (!c.instruction) {
			char *hash = strstr(c.text, " #");
			if (hash)
				*hash = '\0';
			size_t len = strlen(c.text);
			while (len && c.text[len - 1] == ' ')
				c.text[--len] = '\0';
			cmd = c.text;
			c.text = NULL;
		}
		free(c.text);
		free(c.note);
	}
	finding_view_release(&v);
	return cmd;
}

/* first_fix of results[i], worked out once a run: the loop below asks it
 * of each earlier root problem for each problem (a finding expanded from
 * the KB each time). */
static const char *fix_of(const struct result *results, size_t i, char **fixes, bool *known)
{
	if (!known[i]) {
		fixes[i] = first_fix(&results[i]);
		known[i] = true;
	}
	return fixes[i];
}

/* A consequence is never worse than its cause, so that folding it changes
 * neither the run's status nor its exit code. */
static bool may_fold(const struct result *r, const struct result *cause)
{
	return status_is_failure(cause->status) || !status_is_failure(r->status);
}

void consequences_mark(struct result *results, size_t n)
{
	char **fixes = xcalloc(n + 1, sizeof *fixes);
	bool *known = xcalloc(n + 1, sizeof *known);
	for (size_t i = 0; i < n; i++)
		results[i].consequence_of = NULL;
	/* the pairs first: a later cause may claim an earlier finding */
	for (size_t i = 0; i < n; i++) {
		struct result *r = &results[i];
		if (!is_problem(r))
			continue;
		for (size_t p = 0; p < sizeof follows / sizeof *follows; p++) {
			if (!prefixed(r->kb, follows[p].kb))
				continue;
			long j = find(results, n, follows[p].cause_check);
			if (j >= 0 && is_problem(&results[j]) &&
			    prefixed(results[j].kb, follows[p].cause_kb) && may_fold(r, &results[j])) {
				r->consequence_of = results[j].def->id;
				break;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct result *r = &results[i];
		if (!is_problem(r) || r->consequence_of)
			continue;
		const struct result *a = failed_ancestor(results, n, i, 0);
		if (a && may_fold(r, a)) {
			r->consequence_of = root_of(a);
			continue;
		}
		const char *fix = fix_of(results, i, fixes, known);
		for (size_t j = 0; fix && j < i; j++) {
			const struct result *o = &results[j];
			if (!result_is_root_problem(o) || !may_fold(r, o))
				continue;
			const char *ofix = fix_of(results, j, fixes, known);
			if (ofix && !strcmp(ofix, fix)) {
				r->consequence_of = o->def->id;
				break;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		free(fixes[i]);
	free(fixes);
	free(known);
	/* a root that is itself a consequence (a pair's cause claimed by an
	 * earlier one) hands its consequences on */
	for (size_t i = 0; i < n; i++) {
		struct result *r = &results[i];
		for (int hop = 0; r->consequence_of && hop < 8; hop++) {
			long j = find(results, n, r->consequence_of);
			if (j < 0 || !results[j].consequence_of || (size_t)j == i)
				break;
			r->consequence_of = results[j].consequence_of;
		}
	}
}
