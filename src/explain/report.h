/*
 * report (explain): explain's answer as the views get it -- what was
 * recognised, each message's causes ranked (confirm.h) -- and its tally,
 * which decides explain's exit status. The views that write it (text and
 * JSON) are src/report/explain.h's.
 */
#ifndef WSLGPU_EXPLAIN_REPORT_H
#define WSLGPU_EXPLAIN_REPORT_H

#include <stdbool.h>

#include "confirm.h"
#include "matcher.h"
#include "paste.h"

struct explain_view {
	const struct explain_scan *scan;
	const char *source;        /* "argv", "stdin" or the file name */
	bool checked;              /* --check ran the checks */
	struct cause_rank **ranks; /* per scan->found[i]: its causes in show order */
	bool color;
	bool verbose;
	const struct result *platform; /* platform.kind's result, or NULL */
	const struct paste *paste;     /* what pasted listings show, or NULL */
	const struct rank_platform *log; /* the platform the causes were ranked for, or NULL */
	const char *application;         /* the application the paste names, or NULL */
};

/* Counts of what was recognised; status "problem" (a finding or a myth),
 * "ok" (only harmless noise) or "unknown" (nothing recognised). */
struct explain_tally {
	size_t findings, myths, noise;
	const char *status;
};
/* ranks (per match, in show order, or NULL) settle each match's kind: a
 * myth that applies only on another platform is no myth here. */
void explain_tally(const struct explain_scan *s, struct cause_rank *const *ranks,
		   struct explain_tally *t);
/* The kind of match i as shown: "finding", "myth" or "noise"
 * (explain_effective_kind of its signature and ranks[i], when given). */
const char *explain_match_kind(const struct explain_scan *s, struct cause_rank *const *ranks,
			       size_t i);

#endif
