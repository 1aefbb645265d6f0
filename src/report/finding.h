/*
 * finding: one knowledge-base entry read with the evidence of this run
 * (src/kb/finding.h), shown for people and for programs. Every command
 * that explains something (check, smoke, explain, history, watch, bench,
 * report) shows findings through here, so a cause reads the same, and its
 * fixes are quoted the same, wherever it appears.
 */
#ifndef WSLGPU_FINDING_H
#define WSLGPU_FINDING_H

#include <stdbool.h>

#include "../core/json.h"
#include "../core/result.h"
#include "../core/strbuf.h"
#include "../kb/finding.h"
#include "../kb/kb.h"

/* The text layout: labelled lines whose text starts at column 13, wrapped
 * to the terminal's width with continuation lines at column 13,
 *     cause  ...
 *     fix    command
 *            command
 *     check  wslgpu check --only ...   (FT_CONFIRM)
 *     source https://...               (FT_SOURCES)
 *     more   wslgpu kb ID              (FT_MORE)
 * with indent spaces before the label (at most 11). */
enum {
	FT_CAUSE = 1 << 0,
	FT_FIXES = 1 << 1,
	FT_CONFIRM = 1 << 2,
	FT_SOURCES = 1 << 3,
	FT_MORE = 1 << 4,
	FT_NOTE = 1 << 5, /* label the cause "note" (a harmless pass explained) */
};
#define FINDING_TEXT_COLUMN 13

void finding_text(struct strbuf *out, const struct finding_view *v, int indent, unsigned what);
/* One labelled line in that layout, sanitised for a terminal and wrapped
 * to its width (text_columns) under the text's column: for callers that
 * add their own lines (evidence, a verdict) under a finding. */
void finding_text_line(struct strbuf *out, int indent, const char *label, const char *text);
/* The same for a command meant to be copied (a fix, "wslgpu kb ID"): it
 * stays whole on its line, however long; a note after it ("   (in
 * PowerShell)") wraps under it, and a fix that is words for a person
 * ("update the driver, then ...") wraps between its plain words. */
void finding_command_line(struct strbuf *out, int indent, const char *label, const char *text);

/* The members "cause" (null when none), "fix" (with_fix: each fix line as
 * a line of shell, fix_shell_of's, else []), "fix_steps" (the same lines
 * in parts: command, remark, where, kind) and "source" of the object
 * being written. */
void finding_json(struct json_writer *jw, const struct finding_view *v, bool with_fix);
/* Only "fix" and "fix_steps", for writers with their own "cause" and
 * "source" (explain's causes). */
void finding_fix_json(struct json_writer *jw, const struct finding_view *v, bool with_fix);

/* Evidence as a JSON object member named key: {"k":"v",...}, a repeated
 * key as an array of its values in order. */
void evidence_json(struct json_writer *jw, const char *key, const struct evidence *ev);

#endif
