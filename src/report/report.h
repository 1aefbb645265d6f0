/*
 * report: the only code that formats results for people and programs.
 * Each format lives in its own file (text.c, json.c, ...); summary.c holds
 * the verdict logic they share.
 */
#ifndef WSLGPU_REPORT_H
#define WSLGPU_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "../core/result.h"

struct report {
	const struct result *results; /* indexed like the registry */
	const bool *shown;            /* which of them the user asked for */
	size_t n;
	bool verbose;
	bool color;
	bool strict; /* warnings fail the run: the verdict says so */
};

struct summary {
	int counts[ST__COUNT];
	const struct result *first_failure; /* first fail/crash/timeout in chain order */
	const struct result *first_warning;
	const char *status;                  /* "ok", "warn", "fail" */
};

void report_summarize(const struct report *rep, struct summary *sum);
/* The result of check id if it ran (shown or not), else NULL. */
const struct result *report_find(const struct report *rep, const char *id);
/* Platform facts for headers: kind, kernel, distro (from platform.kind). */
const char *report_platform(const struct report *rep, const char *key);

void report_text(FILE *f, const struct report *rep);
void report_json(FILE *f, const struct report *rep);

#endif
