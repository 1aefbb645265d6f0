/*
 * report (explain): what `wslgpu explain` prints — the text for people, the
 * JSON (schema "wslgpu/explain/1", doc/explain.md) for programs, the
 * signature list, and the hidden pattern dump the benchmark feeds to grep.
 *
 * Every byte that came from the input goes through text_sanitize (text) or
 * json_str (JSON), so a binary or hostile log cannot put escape sequences
 * on the terminal or invalid UTF-8 into the JSON.
 */
#ifndef WSLGPU_EXPLAIN_REPORT_H
#define WSLGPU_EXPLAIN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

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

void explain_report_text(FILE *f, const struct explain_view *v);
void explain_report_json(FILE *f, const struct explain_view *v);
void explain_list_text(FILE *f, const struct explain_db *db);
void explain_list_json(FILE *f, const struct explain_db *db);
/* One POSIX ERE per line, for grep -E -i -f (the benchmark's baseline). */
void explain_dump_patterns(FILE *f, const struct explain_db *db);
/* The automaton's signature keys, one per line, for grep -F -i -f: the
 * fixed strings explain looks for before it runs any regex. */
void explain_dump_keys(FILE *f, const struct explain_db *db);

#endif
