/*
 * explain (report): what `wslgpu explain` prints -- the text for people, the
 * JSON (schema "wslgpu/explain/2", doc/explain.md) for programs, the
 * signature list, and the hidden pattern dump the benchmark feeds to grep.
 * Each appends to out, as every writer of src/report/ does.
 *
 * Every byte that came from the input goes through text_sanitize (text) or
 * json_str (JSON), so a binary or hostile log cannot put escape sequences
 * on the terminal or invalid UTF-8 into the JSON.
 */
#ifndef WSLGPU_REPORT_EXPLAIN_H
#define WSLGPU_REPORT_EXPLAIN_H

#include "../core/strbuf.h"
#include "../explain/matcher.h"
#include "../explain/report.h"

void explain_report_text(struct strbuf *out, const struct explain_view *v);
void explain_report_json(struct strbuf *out, const struct explain_view *v);
void explain_list_text(struct strbuf *out, const struct explain_db *db);
void explain_list_json(struct strbuf *out, const struct explain_db *db);
/* One POSIX ERE per line, for grep -E -i -f (the benchmark's baseline). */
void explain_dump_patterns(struct strbuf *out, const struct explain_db *db);
/* The automaton's signature keys, one per line, for grep -F -i -f: the
 * fixed strings explain looks for before it runs any regex. */
void explain_dump_keys(struct strbuf *out, const struct explain_db *db);

#endif
