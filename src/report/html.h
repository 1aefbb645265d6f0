/*
 * html: one self-contained HTML page (no script, no network, no external
 * asset: CSS and SVG inline) for people and tickets: `wslgpu report --html`
 * (the verdict, the findings with their fixes, every check, the last watch
 * chart and bench results kept in the state directory, the history
 * timeline) and `wslgpu history --html` (the timeline alone). Every text
 * that comes from the machine is escaped: a finding cannot inject markup.
 */
#ifndef WSLGPU_HTML_H
#define WSLGPU_HTML_H

#include "../core/strbuf.h"
#include "format.h"

/* Text for HTML content and attribute values (& < > " ' escaped, control
 * characters made visible by text_sanitize). */
void html_escape(struct strbuf *out, const char *s);
void html_page_begin(struct strbuf *out, const char *title);
void html_page_end(struct strbuf *out);
/* "ok", "fail" or "warn": the CSS class of a verdict. */
const char *html_verdict_class(const char *verdict);
/* The report's page (the format table's "html" row). */
format_writer report_html;

#endif
