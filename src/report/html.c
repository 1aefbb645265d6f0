/* html.c: the self-contained HTML page of report and history. See html.h. */
#include "html.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/check.h"
#include "../core/rootfs.h"
#include "../kb/finding.h"
#include "../kb/fixline.h"
#include "../kb/kb.h"
#include "../version.h"
#include "report.h"

/* The state directory's files the report shows when they are there (the
 * history database's directory): a watch chart (watch --svg) and bench
 * results (bench --csv). Bounded: a page is for reading. */
#define HTML_ASSET_MAX (4u << 20)

void html_escape(struct strbuf *out, const char *s)
{
	struct strbuf t = STRBUF_INIT;
	text_sanitize(&t, s ? s : "");
	for (const char *p = sb_str(&t); *p; p++) {
		switch (*p) {
		case '&': sb_add(out, "&amp;"); break;
		case '<': sb_add(out, "&lt;"); break;
		case '>': sb_add(out, "&gt;"); break;
		case '"': sb_add(out, "&quot;"); break;
		case '\'': sb_add(out, "&#39;"); break;
		default: sb_addc(out, *p);
		}
	}
	sb_release(&t);
}

void html_page_begin(struct strbuf *out, const char *title)
{
	sb_add(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    /* No script, no request: nothing on the page may load or run. */
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		    "style-src 'unsafe-inline'; img-src data:\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	html_escape(out, title);
	sb_add(out, "</title>\n<style>\n"
		    "body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;"
		    "padding:0 1rem;color:#1d1d1f}\n"
		    "h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}\n"
		    ".verdict{font-size:1.15rem;padding:.7rem 1rem;border-radius:6px}\n"
		    ".ok{background:#e6f4ea}.warn{background:#fef7e0}.fail{background:#fce8e6}\n"
		    ".finding{border-left:4px solid #d93025;padding:.2rem 1rem;margin:1rem 0}\n"
		    ".finding.warn{border-color:#f9ab00;background:none}\n"
		    "pre{background:#f5f5f5;padding:.5rem;overflow-x:auto;white-space:pre-wrap}\n"
		    "table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.2rem .5rem;"
		    "border-bottom:1px solid #eee;vertical-align:top}\n"
		    ".st-pass{color:#188038}.st-warn{color:#b06000}.st-fail,.st-crash,.st-timeout{color:#d93025}"
		    ".st-skip{color:#777}.st-unknown{color:#1a73e8}\n"
		    "img,svg{max-width:100%;height:auto}\n.muted{color:#666}\n"
		    "</style>\n</head>\n<body>\n");
}

void html_page_end(struct strbuf *out)
{
	sb_addf(out, "<p class=\"muted\">Made by wslgpu %s. This page loads nothing and runs "
		     "nothing.</p>\n</body>\n</html>\n", WSLGPU_VERSION);
}

const char *html_verdict_class(const char *v)
{
	return !v ? "warn" : !strcmp(v, "ok") ? "ok" : !strcmp(v, "fail") ? "fail" : "warn";
}

/* ---- the report ---- */

static void put_finding(struct strbuf *out, const struct result *r)
{
	const char *st = status_name(r->status);
	sb_addf(out, "<article class=\"finding %s\">\n<h3><span class=\"st-%s\">%s</span> ",
		r->status == ST_WARN ? "warn" : "fail", st, status_mark(r->status));
	html_escape(out, r->def->id);
	sb_add(out, "</h3>\n<p>");
	html_escape(out, r->detail);
	sb_add(out, "</p>\n");
	const struct kb_entry *e = kb_find(r->kb);
	if (e) {
		struct finding_view v;
		finding_of_result(&v, r);
		if (v.cause) {
			sb_add(out, "<p><b>Cause:</b> ");
			html_escape(out, v.cause);
			sb_add(out, "</p>\n");
		}
		if (v.nfix) {
			sb_add(out, "<p><b>Fix:</b></p>\n<pre>");
			for (size_t i = 0; i < v.nfix; i++) {
				struct fix_shell fs; /* a line that pastes */
				fix_shell_of(v.fix[i], &fs);
				html_escape(out, fs.line);
				sb_addc(out, '\n');
				fix_shell_release(&fs);
			}
			sb_add(out, "</pre>\n");
		}
		sb_add(out, "<p class=\"muted\">More: wslgpu kb ");
		html_escape(out, e->id);
		sb_add(out, "</p>\n");
		finding_view_release(&v);
	}
	sb_add(out, "</article>\n");
}

/* A file of the state directory the command named, or -1. */
static int read_state_file(const char *dir, const char *name, struct strbuf *out)
{
	if (!dir)
		return -1;
	struct strbuf path = STRBUF_INIT;
	sb_addf(&path, "%s/%s", dir, name);
	FILE *f = fopen(path.buf, "re");
	int rc = -1;
	if (f) {
		char buf[8192];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, f)) > 0 && out->len < HTML_ASSET_MAX)
			sb_addn(out, buf, n);
		rc = ferror(f) || out->len >= HTML_ASSET_MAX ? -1 : 0;
		fclose(f);
	}
	sb_release(&path);
	return rc;
}

/* The last watch chart: watch's own SVG, shown as an image (an image
 * cannot run script or load anything, whatever the file holds). */
static void put_watch(struct strbuf *out, const char *dir)
{
	struct strbuf svg = STRBUF_INIT;
	sb_add(out, "<h2>Last watch</h2>\n");
	if (read_state_file(dir, "watch.svg", &svg) < 0 || strncmp(sb_str(&svg), "<svg", 4)) {
		sb_add(out, "<p class=\"muted\">No chart: <code>wslgpu watch --svg "
			    "~/.local/state/wslgpu/watch.svg -- COMMAND</code> keeps one for the "
			    "report.</p>\n");
	} else {
		sb_add(out, "<img alt=\"watch chart\" src=\"data:image/svg+xml;base64,");
		sb_add_base64(out, (const unsigned char *)svg.buf, svg.len, false);
		sb_add(out, "\">\n");
	}
	sb_release(&svg);
}

/* bench --csv rows (bench,target,metric,stat,size_bytes,value,unit) as bars,
 * one scale per unit. */
static void put_bench(struct strbuf *out, const char *dir)
{
	struct strbuf csv = STRBUF_INIT;
	sb_add(out, "<h2>Last bench</h2>\n");
	if (read_state_file(dir, "bench.csv", &csv) < 0 || strncmp(sb_str(&csv), "bench,target,", 13)) {
		sb_add(out, "<p class=\"muted\">No results: <code>wslgpu bench --csv &gt; "
			    "~/.local/state/wslgpu/bench.csv</code> keeps them for the report.</p>\n");
		sb_release(&csv);
		return;
	}
	struct row {
		char label[160], unit[16];
		double v;
	} rows[64];
	size_t n = 0;
	char *save = NULL;
	for (char *line = strtok_r(csv.buf, "\n", &save); line && n < 64;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[7];
		size_t k = 0;
		char *s2 = NULL;
		for (char *c = strtok_r(line, ",", &s2); c && k < 7; c = strtok_r(NULL, ",", &s2))
			f[k++] = c;
		if (k != 7 || !strcmp(f[0], "bench"))
			continue;
		char *end;
		double v = strtod(f[5], &end);
		if (end == f[5] || !(v >= 0))
			continue;
		snprintf(rows[n].label, sizeof rows[n].label, "%s %s %s %s", f[0], f[1], f[2], f[3]);
		snprintf(rows[n].unit, sizeof rows[n].unit, "%s", f[6]);
		rows[n].v = v;
		n++;
	}
	sb_add(out, "<table class=\"bench\">\n");
	for (size_t i = 0; i < n; i++) {
		double hi = 0;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(rows[j].unit, rows[i].unit) && rows[j].v > hi)
				hi = rows[j].v;
		double w = hi > 0 ? 300.0 * rows[i].v / hi : 0;
		sb_add(out, "<tr><td>");
		html_escape(out, rows[i].label);
		sb_addf(out, "</td><td><svg width=\"310\" height=\"14\" viewBox=\"0 0 310 14\">"
			     "<rect width=\"%.1f\" height=\"12\" fill=\"#1a73e8\"/></svg></td><td>%.4g ",
			w, rows[i].v);
		html_escape(out, rows[i].unit);
		sb_add(out, "</td></tr>\n");
	}
	sb_add(out, "</table>\n");
	sb_release(&csv);
}

void report_html(struct strbuf *out, const struct format_input *in)
{
	const struct report *rep = in->rep;
	html_page_begin(out, "wslgpu report");
	sb_add(out, "<h1>wslgpu report</h1>\n<p class=\"muted\">");
	const char *kind = report_platform(rep, "kind"), *kernel = report_platform(rep, "kernel"),
		   *distro = report_platform(rep, "distro");
	html_escape(out, kind && *kind ? kind : "platform unknown");
	if (distro && *distro) {
		sb_add(out, " · ");
		html_escape(out, distro);
	}
	if (kernel && *kernel) {
		sb_add(out, " · kernel ");
		html_escape(out, kernel);
	}
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
	sb_addf(out, " · %s</p>\n", when);

	struct summary sum;
	report_summarize(rep, &sum);
	struct strbuf v = STRBUF_INIT;
	report_verdict(&v, rep);
	sb_addf(out, "<h2>Verdict</h2>\n<p class=\"verdict %s\" id=\"verdict\">",
		html_verdict_class(sum.status));
	html_escape(out, v.buf ? v.buf : "");
	sb_add(out, "</p>\n");
	sb_release(&v);

	sb_add(out, "<h2>Findings</h2>\n");
	size_t nf = 0;
	for (size_t i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];
		if (!r->def || (rep->shown && !rep->shown[i]) ||
		    !(r->status == ST_WARN || status_is_failure(r->status)))
			continue;
		put_finding(out, r);
		nf++;
	}
	if (!nf)
		sb_add(out, "<p>Nothing to fix.</p>\n");

	sb_add(out, "<h2>Checks</h2>\n<table>\n<tr><th></th><th>check</th><th>result</th></tr>\n");
	for (size_t i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];
		if (!r->def || (rep->shown && !rep->shown[i]))
			continue;
		sb_addf(out, "<tr><td class=\"st-%s\">%s</td><td>", status_name(r->status),
			status_mark(r->status));
		html_escape(out, r->def->id);
		sb_add(out, "</td><td>");
		html_escape(out, r->detail);
		sb_add(out, "</td></tr>\n");
	}
	sb_add(out, "</table>\n");

	put_watch(out, in->state_dir);
	put_bench(out, in->state_dir);

	sb_add(out, "<h2>History</h2>\n");
	if (in->history_html)
		sb_add(out, in->history_html);
	else
		sb_add(out, "<p class=\"muted\">No history.</p>\n");
	html_page_end(out);
}
