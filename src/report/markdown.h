/*
 * markdown: the compact report for pasting into a GitHub issue
 * (`wslgpu report --markdown`): a header line with the platform, kernel,
 * distribution and driver, the checks per layer with their marks, the
 * first failure's cause and fix, and the evidence of every check that did
 * not pass in a collapsed <details> block. The caller passes results that
 * are already redacted.
 */
#ifndef WSLGPU_MARKDOWN_H
#define WSLGPU_MARKDOWN_H

#include <stdio.h>

#include "report.h"

/* note: one line under the report (what was redacted), or NULL. */
void report_markdown(struct strbuf *out, const struct report *rep, const char *note);

#endif
