/*
 * outputs: the machine-readable results a smoke run feeds to other systems.
 *   junit.c  JUnit XML, one testcase per check (CI systems)
 *   prom.c   Prometheus text exposition (node_exporter's textfile collector)
 *   push.c   the same metrics PUT to a Prometheus Pushgateway (libcurl)
 * The writers only format; smoke decides what to write where.
 */
#ifndef WSLGPU_OUTPUTS_H
#define WSLGPU_OUTPUTS_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "../core/strbuf.h"
#include "report.h"

struct output_meta {
	const char *suite;      /* "wslgpu smoke" */
	time_t when;            /* start of the run */
	double duration_ms;
	int exit_status;
	const char *policy_path; /* NULL: none */
	int budget_ms;           /* the run's time budget; 0: not known */
	bool budget_spent;       /* the budget ran out: a check cut short or never started */
};

/* JUnit XML (the common Jenkins/Ant dialect), UTF-8, escaped. */
void report_junit(struct strbuf *out, const struct report *rep, const struct output_meta *meta);
/* Prometheus text exposition format 0.0.4; every label value escaped. */
void report_prom(struct strbuf *out, const struct report *rep, const struct output_meta *meta);

/*
 * PUTs body (text exposition) to URL/metrics/job/JOB/instance/INSTANCE
 * (Pushgateway API), within timeout_ms. Returns 0, or -1 with a one-line
 * message in err ("cannot reach http://...: Connection refused").
 * Built without libcurl (make static), it always fails and says so.
 */
int prom_push(const char *url, const char *job, const char *instance, const char *body,
	      int timeout_ms, struct strbuf *err);
/* DELETEs that group (a retired machine's metrics); the same URL checks,
 * time limit and messages as prom_push. */
int prom_push_delete(const char *url, const char *job, const char *instance, int timeout_ms,
		     struct strbuf *err);
/* The URL as messages and JSON may show it: "http://user:secret@gw/" and
 * "http://gw/?token=..." would put a secret into cron mail and CI logs, so
 * user:password becomes "<credentials>" and a query or fragment "?<query>"
 * or "#<fragment>". The caller frees it. */
char *prom_url_shown(const char *url);

#endif
