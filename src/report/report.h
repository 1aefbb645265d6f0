/*
 * report: the only code that formats results for people and programs.
 * Each format lives in its own file (text.c, json.c, ...); summary.c holds
 * the verdict logic they share.
 */
#ifndef WSLGPU_REPORT_H
#define WSLGPU_REPORT_H

#include <stdbool.h>

#include "../core/result.h"

struct report {
	const struct result *results; /* indexed like the registry */
	const bool *shown;            /* which of them the user asked for */
	size_t n;
	bool verbose;
	bool color;
	bool strict; /* warnings fail the run: the verdict says so */
};

/* The one verdict of a run, counted once for every format and command. */
struct summary {
	int counts[ST__COUNT];  /* by the status people are shown (result_shown_status) */
	int real[ST__COUNT];    /* by the status each check really has (JUnit, Prometheus) */
	size_t shown;           /* checks that ran and were asked for */
	size_t failed;          /* failures that fail the run (not tolerated) */
	size_t warnings;        /* warnings, not tolerated */
	size_t tolerated;       /* warnings and failures the smoke policy tolerates */
	size_t cut_short;       /* cut short by the run's time budget (not tolerated) */
	size_t not_started;     /* never started: the budget was spent (not tolerated) */
	size_t interrupted;     /* did not finish: SIGINT or SIGTERM ended the run */
	const char *interrupted_by;         /* that signal's name ("SIGTERM"), or NULL */
	size_t problems;        /* root causes: failures and warnings that follow from no other */
	size_t consequences;    /* failures and warnings that follow from another (consequence_of) */
	/* first failure of the run that follows from no other, in chain order
	 * (a failure when every failure follows from one) */
	const struct result *first_failure;
	const struct result *first_warning; /* first shown warning, likewise */
	/* first check that could not find out (ST_UNKNOWN): no problem, but
	 * the verdict says that not everything was verified */
	const struct result *first_unknown;
	const char *status;                 /* "ok", "warn", "fail" */
};

void report_summarize(const struct report *rep, struct summary *sum);
/* The result of check id if it ran (shown or not), else NULL. */
const struct result *report_find(const struct report *rep, const char *id);
/* Platform facts for headers: kind, kernel, distro (from platform.kind). */
const char *report_platform(const struct report *rep, const char *key);

/* Each format appends to out. */
void report_text(struct strbuf *out, const struct report *rep);
/* The verdict under the checks ("✗ Broken at the libs layer: ..."), as the
 * text report ends; for the formats that end the same way. */
void report_verdict(struct strbuf *out, const struct report *rep);
/* The colour of a status's mark on a terminal ("\033[31m" for a failure). */
const char *report_status_colour(enum status s);
void report_json(struct strbuf *out, const struct report *rep);
/* The members of the check report, for a command that adds its own to the
 * same object (smoke's "smoke"): report_json_with calls members (when not
 * NULL) after them. */
struct json_writer;
void report_json_members(struct json_writer *jw, const struct report *rep);
void report_json_with(struct strbuf *out, const struct report *rep,
		      void (*members)(struct json_writer *jw, const void *ctx), const void *ctx);

#endif
