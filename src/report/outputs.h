/*
 * outputs: the machine-readable results a smoke run feeds to other systems.
 *   junit.c  JUnit XML, one testcase per check (CI systems)
 *   prom.c   Prometheus text exposition (node_exporter's textfile collector)
 * The writers only format; smoke decides what to write where (a file, or
 * the Pushgateway through src/net/push.h).
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

#endif
