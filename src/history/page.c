/*
 * page.c: the history as HTML, for `wslgpu history --html` and the history
 * section of `wslgpu report --html` (report/html.c draws the page; the
 * timeline is drawn here, where the runs are known).
 */
#include "page.h"

#include <string.h>
#include <time.h>

#include "../report/html.h"

/* The facts whose change is marked on the timeline. */
static const struct {
	const char *key, *label;
} marked[] = { { "driver.version", "driver" }, { "kernel", "kernel" }, { "wsl.version", "WSL" } };

void history_timeline_html(struct strbuf *out, const struct history_runs *runs)
{
	if (!runs || !runs->n) {
		sb_add(out, "<p class=\"muted\">No recorded runs (wslgpu smoke --record records "
			    "one).</p>\n");
		return;
	}
	size_t first = runs->n > HISTORY_TIMELINE_RUNS ? runs->n - HISTORY_TIMELINE_RUNS : 0;
	time_t t0 = runs->v[first].when, t1 = runs->v[runs->n - 1].when;
	double span = t1 > t0 ? (double)(t1 - t0) : 1.0;
	const double W = 900, x0 = 20, x1 = 880, y = 60;
	sb_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f 150\" "
		     "role=\"img\" aria-label=\"history timeline\">\n", W);
	sb_addf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#999\"/>\n", x0,
		y, x1, y);
	struct strbuf list = STRBUF_INIT;
	for (size_t i = first; i < runs->n; i++) {
		const struct history_run *r = &runs->v[i];
		double x = x0 + (x1 - x0) * (double)(r->when - t0) / span;
		const char *cls = html_verdict_class(r->verdict);
		const char *fill = !strcmp(cls, "ok") ? "#188038" : !strcmp(cls, "fail") ? "#d93025"
											 : "#f9ab00";
		sb_addf(out, "<circle cx=\"%.1f\" cy=\"%.0f\" r=\"5\" fill=\"%s\"><title>", x, y, fill);
		html_escape(out, r->started_at);
		sb_add(out, " ");
		html_escape(out, r->verdict);
		sb_add(out, "</title></circle>\n");
		/* A change from this machine's previous run. */
		const struct history_run *prev = NULL;
		for (size_t j = i; j-- > first;)
			if (!strcmp(runs->v[j].machine, r->machine)) {
				prev = &runs->v[j];
				break;
			}
		if (!prev)
			continue;
		for (size_t k = 0; k < sizeof marked / sizeof marked[0]; k++) {
			const char *a = history_run_fact(prev, marked[k].key);
			const char *b = history_run_fact(r, marked[k].key);
			if (!a || !b || !strcmp(a, b))
				continue;
			sb_addf(out, "<line x1=\"%.1f\" y1=\"20\" x2=\"%.1f\" y2=\"100\" stroke=\"#1a73e8\" "
				     "stroke-dasharray=\"3 2\"/>\n<text x=\"%.1f\" y=\"%zu\" font-size=\"11\" "
				     "fill=\"#1a73e8\">",
				x, x, x + 3, 112 + 12 * k);
			html_escape(out, marked[k].label);
			sb_add(out, "</text>\n");
			sb_add(&list, "<li>");
			html_escape(&list, r->started_at);
			sb_add(&list, ": ");
			html_escape(&list, marked[k].label);
			sb_add(&list, " ");
			html_escape(&list, a);
			sb_add(&list, " → ");
			html_escape(&list, b);
			sb_add(&list, "</li>\n");
		}
	}
	sb_add(out, "<text x=\"20\" y=\"40\" font-size=\"11\" fill=\"#666\">");
	html_escape(out, runs->v[first].started_at);
	sb_addf(out, "</text>\n<text x=\"880\" y=\"40\" font-size=\"11\" fill=\"#666\" "
		     "text-anchor=\"end\">");
	html_escape(out, runs->v[runs->n - 1].started_at);
	sb_add(out, "</text>\n</svg>\n");
	sb_addf(out, "<p class=\"muted\">%zu run%s; green ok, amber warn, red fail; dashed: a "
		     "change.</p>\n", runs->n - first, runs->n - first == 1 ? "" : "s");
	if (list.len) {
		sb_add(out, "<ul class=\"changes\">\n");
		sb_add(out, list.buf);
		sb_add(out, "</ul>\n");
	}
	sb_release(&list);
}

void history_timeline_section(struct strbuf *out, struct strbuf *state_dir)
{
	struct strbuf db = STRBUF_INIT, err = STRBUF_INIT;
	history_default_path(&db);
	sb_add(state_dir, db.buf);
	char *slash = strrchr(state_dir->buf, '/');
	if (slash)
		*slash = '\0';
	struct history_query q = { .limit = HISTORY_TIMELINE_RUNS };
	struct history_runs runs;
	memset(&runs, 0, sizeof runs);
	if (history_load(db.buf, &q, &runs, &err) == 0) {
		history_timeline_html(out, &runs);
	} else {
		sb_add(out, "<p class=\"muted\">No history: ");
		html_escape(out, err.buf ? err.buf : "");
		sb_add(out, "</p>\n");
	}
	history_runs_release(&runs);
	sb_release(&db);
	sb_release(&err);
}
