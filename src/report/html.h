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
#include "../history/history.h"
#include "format.h"

/* Text for HTML content and attribute values (& < > " ' escaped, control
 * characters made visible by text_sanitize). */
void html_escape(struct strbuf *out, const char *s);
void html_page_begin(struct strbuf *out, const char *title);
void html_page_end(struct strbuf *out);
/* The runs oldest first as an SVG timeline, one dot per run coloured by
 * its verdict, a marked line where the driver, kernel or WSL changed. */
void html_timeline(struct strbuf *out, const struct history_runs *runs);
/* The report's page (the format table's "html" row). */
format_writer report_html;

#endif
