/*
 * export.c: watch's series for programs and plots.
 *
 *   CSV   a header, then one row per point as it is taken (flushed, so a
 *         file can be tailed or plotted while the job runs, and a killed
 *         watch leaves every row it took); an unavailable figure is empty
 *   JSON  schema "wslgpu/watch/1": the run, the GPU state, the summary per
 *         column, the verdict with its evidence, and the kept points as
 *         arrays under "columns" (NaN is null)
 *   SVG   a self-contained line chart, four panels over time
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/json.h"
#include "../version.h"
#include "watch.h"

static void num(struct strbuf *sb, double v, int decimals)
{
	if (isnan(v) || isinf(v))
		sb_add(sb, "null");
	else
		sb_addf(sb, "%.*f", decimals, v);
}

void watch_csv_header(FILE *f)
{
	for (int c = 0; c < WC__COUNT; c++)
		fprintf(f, "%s%s", c ? "," : "", watch_cols[c].name);
	fputc('\n', f);
	fflush(f);
}

void watch_csv_row(FILE *f, const struct watch_point *p)
{
	for (int c = 0; c < WC__COUNT; c++) {
		if (c)
			fputc(',', f);
		if (!isnan(p->v[c]))
			fprintf(f, "%.*f", watch_cols[c].decimals, p->v[c]);
	}
	fputc('\n', f);
	fflush(f);
}

static void kv_str(struct strbuf *sb, const char *k, const char *v)
{
	json_str(sb, k);
	sb_addc(sb, ':');
	if (v)
		json_str(sb, v);
	else
		sb_add(sb, "null");
}

static void kv_num(struct strbuf *sb, const char *k, double v, int decimals)
{
	json_str(sb, k);
	sb_addc(sb, ':');
	num(sb, v, decimals);
}

void watch_json(FILE *f, const struct watch_report *r)
{
	struct strbuf sb = STRBUF_INIT;
	const struct watch_opts *o = r->opts;
	sb_add(&sb, "{\"schema\":\"wslgpu/watch/1\",");
	kv_str(&sb, "version", WSLGPU_VERSION);
	sb_add(&sb, ",\"command\":");
	if (o->argv) {
		sb_addc(&sb, '[');
		for (char **a = o->argv; *a; a++) {
			if (a != o->argv)
				sb_addc(&sb, ',');
			json_str(&sb, *a);
		}
		sb_addc(&sb, ']');
	} else {
		sb_add(&sb, "null");
	}
	sb_add(&sb, ",\"pid\":");
	if (o->pid > 0)
		sb_addf(&sb, "%d", o->pid);
	else
		sb_add(&sb, "null");
	char when[32];
	struct tm tm;
	gmtime_r(&r->started, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	sb_addc(&sb, ',');
	kv_str(&sb, "started", when);
	sb_addc(&sb, ',');
	kv_num(&sb, "interval_s", o->interval_ms / 1000.0, 3);
	sb_addc(&sb, ',');
	kv_num(&sb, "duration_s", r->duration_s, 2);

	sb_add(&sb, ",\"end\":{");
	kv_str(&sb, "kind", r->end_kind);
	sb_addc(&sb, ',');
	kv_str(&sb, "text", r->end.buf ? r->end.buf : "");
	sb_add(&sb, ",\"status\":");
	if (!strcmp(r->end_kind, "exited"))
		sb_addf(&sb, "%d", r->status);
	else
		sb_add(&sb, "null");
	sb_add(&sb, ",\"signal\":");
	if (!strcmp(r->end_kind, "killed"))
		sb_addf(&sb, "%d", r->status);
	else
		sb_add(&sb, "null");
	sb_addf(&sb, ",\"exit_code\":%d}", r->exit_code);

	sb_addf(&sb, ",\"machine\":{\"ncpu\":%u,", r->ncpu);
	kv_num(&sb, "mem_total_mib", r->mem_total_mib > 0 ? r->mem_total_mib : NAN, 0);
	sb_addc(&sb, '}');

	sb_add(&sb, ",\"gpu\":{");
	kv_str(&sb, "state", r->gpu_state);
	sb_addc(&sb, ',');
	kv_str(&sb, "name", r->gpu_name[0] ? r->gpu_name : NULL);
	sb_addf(&sb, ",\"devices\":%d,\"util_available\":%s,", r->ngpu,
		r->sum.gpu_util_known ? "true" : "false");
	kv_num(&sb, "mem_total_mib", r->gpu_mem_total_mib > 0 ? r->gpu_mem_total_mib : NAN, 0);
	sb_addc(&sb, ',');
	kv_str(&sb, "note", r->gpu_note.len ? r->gpu_note.buf : NULL);
	sb_addc(&sb, '}');

	sb_add(&sb, ",\"data\":[");
	for (size_t i = 0; i < r->data.n; i++) {
		const struct data_place *p = &r->data.p[i];
		if (i)
			sb_addc(&sb, ',');
		sb_addc(&sb, '{');
		kv_str(&sb, "mount", p->mount);
		sb_addc(&sb, ',');
		kv_str(&sb, "kind", p->kind);
		sb_addc(&sb, ',');
		kv_str(&sb, "what", p->what);
		sb_addf(&sb, ",\"files\":%u,", p->files);
		kv_str(&sb, "example", p->example);
		sb_addc(&sb, '}');
	}
	sb_addc(&sb, ']');

	sb_add(&sb, ",\"summary\":{");
	bool first = true;
	for (int c = 1; c < WC__COUNT; c++) {
		const struct watch_stat *st = &r->series.stat[c];
		if (!first)
			sb_addc(&sb, ',');
		first = false;
		json_str(&sb, watch_cols[c].name);
		int dec = watch_cols[c].decimals;
		sb_addf(&sb, ":{\"n\":%zu,", st->n);
		kv_num(&sb, "mean", series_mean(&r->series, (enum watch_col)c), dec);
		sb_addc(&sb, ',');
		kv_num(&sb, "min", series_min(&r->series, (enum watch_col)c), dec);
		sb_addc(&sb, ',');
		kv_num(&sb, "max", series_max(&r->series, (enum watch_col)c), dec);
		sb_addc(&sb, '}');
	}
	sb_addc(&sb, '}');

	const struct watch_verdict *v = &r->verdict;
	sb_add(&sb, ",\"verdict\":{");
	kv_str(&sb, "id", v->name);
	sb_addc(&sb, ',');
	kv_str(&sb, "kb", v->kb);
	sb_addc(&sb, ',');
	kv_str(&sb, "status", status_name(v->ev.status));
	sb_addc(&sb, ',');
	kv_str(&sb, "headline", v->headline.buf);
	sb_addf(&sb, ",\"cpu_io_only\":%s,\"evidence\":{", v->cpu_io_only ? "true" : "false");
	for (size_t i = 0; i < v->ev.nev; i++) {
		if (i)
			sb_addc(&sb, ',');
		kv_str(&sb, v->ev.ev[i].key, v->ev.ev[i].val);
	}
	sb_add(&sb, "},\"also\":[");
	for (size_t i = 0; i < v->nalso; i++) {
		if (i)
			sb_addc(&sb, ',');
		json_str(&sb, watch_verdict_name(v->also[i]));
	}
	sb_add(&sb, "]}");

	sb_add(&sb, ",\"overhead\":{");
	kv_num(&sb, "watch_cpu_s", r->watch_cpu_s, 3);
	sb_addc(&sb, ',');
	kv_num(&sb, "gpu_sampler_cpu_s", r->sampler_cpu_s, 3);
	sb_addc(&sb, ',');
	kv_num(&sb, "job_cpu_s", r->job_cpu_s, 3);
	sb_addc(&sb, '}');

	sb_addf(&sb, ",\"points\":%zu,\"bucket\":%u,\"columns\":[", r->series.nsamples,
		r->series.bucket);
	for (int c = 0; c < WC__COUNT; c++) {
		if (c)
			sb_addc(&sb, ',');
		json_str(&sb, watch_cols[c].name);
	}
	sb_add(&sb, "],\"samples\":[");
	double *cols[WC__COUNT];
	size_t n = 0;
	for (int c = 0; c < WC__COUNT; c++)
		n = series_column(&r->series, (enum watch_col)c, &cols[c]);
	for (size_t i = 0; i < n; i++) {
		sb_add(&sb, i ? ",[" : "[");
		for (int c = 0; c < WC__COUNT; c++) {
			if (c)
				sb_addc(&sb, ',');
			num(&sb, cols[c][i], watch_cols[c].decimals);
		}
		sb_addc(&sb, ']');
	}
	for (int c = 0; c < WC__COUNT; c++)
		free(cols[c]);
	sb_add(&sb, "]}\n");
	fwrite(sb.buf, 1, sb.len, f);
	sb_release(&sb);
}

/* ---- SVG ---- */

#define SVG_W 960
#define SVG_PANEL_H 150
#define SVG_LEFT 70
#define SVG_RIGHT 20
#define SVG_TOP 40
#define SVG_GAP 40

struct line_def {
	enum watch_col c;
	const char *color;
};

struct panel_def {
	const char *title;
	const char *unit;
	struct line_def lines[4];
	size_t nlines;
	bool percent; /* fixed 0..100 axis */
};

static const struct panel_def panels[] = {
	{ "GPU and CPU busy", "%",
	  { { WC_GPU_UTIL, "#2ca02c" }, { WC_CPU_USER, "#1f77b4" }, { WC_CPU_SYS, "#ff7f0e" },
	    { WC_CPU_IOWAIT, "#d62728" } }, 4, true },
	{ "job CPU", "cores", { { WC_JOB_CPU, "#1f77b4" }, { WC_JOB_TOP, "#9467bd" },
				{ WC_JOB_BLOCKED, "#d62728" } }, 3, false },
	{ "I/O", "MB/s",
	  { { WC_DISK_READ, "#1f77b4" }, { WC_DISK_WRITE, "#ff7f0e" }, { WC_JOB_RCHAR, "#2ca02c" },
	    { WC_SWAP_IN, "#d62728" } }, 4, false },
	{ "memory", "MiB", { { WC_GPU_MEM, "#2ca02c" }, { WC_MEM_AVAIL, "#1f77b4" } }, 2, false },
};

static void svg_text(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	text_sanitize(&clean, s);
	for (const char *p = clean.buf; p && *p; p++) {
		switch (*p) {
		case '<': sb_add(sb, "&lt;"); break;
		case '>': sb_add(sb, "&gt;"); break;
		case '&': sb_add(sb, "&amp;"); break;
		case '"': sb_add(sb, "&quot;"); break;
		default: sb_addc(sb, *p);
		}
	}
	sb_release(&clean);
}

void watch_svg(FILE *f, const struct watch_report *r)
{
	size_t np = sizeof panels / sizeof panels[0];
	int h = SVG_TOP + (int)np * (SVG_PANEL_H + SVG_GAP) + 10;
	int pw = SVG_W - SVG_LEFT - SVG_RIGHT;
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		SVG_W, h, SVG_W, h);
	sb_add(&sb, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"22\" "
		    "font-size=\"15\">wslgpu watch: ");
	if (r->opts->argv) {
		struct strbuf cmd = STRBUF_INIT;
		for (char **a = r->opts->argv; *a; a++)
			sb_addf(&cmd, "%s%s", a == r->opts->argv ? "" : " ", *a);
		if (cmd.len > 80) {
			cmd.len = 77;
			sb_add(&cmd, "...");
		}
		svg_text(&sb, cmd.buf);
		sb_release(&cmd);
	} else {
		sb_addf(&sb, "pid %d", r->opts->pid);
	}
	sb_add(&sb, " \xe2\x80\x94 ");
	svg_text(&sb, r->verdict.name ? r->verdict.name : "");
	sb_add(&sb, "</text>\n");

	double *t;
	size_t n = series_column(&r->series, WC_T, &t);
	double tmax = n ? t[n - 1] : 0;
	if (!(tmax > 0))
		tmax = 1;
	for (size_t pi = 0; pi < np; pi++) {
		const struct panel_def *pd = &panels[pi];
		int y0 = SVG_TOP + (int)pi * (SVG_PANEL_H + SVG_GAP);
		double *vals[4] = { NULL };
		double ymax = pd->percent ? 100 : 0;
		for (size_t li = 0; li < pd->nlines; li++) {
			series_column(&r->series, pd->lines[li].c, &vals[li]);
			if (!pd->percent)
				for (size_t i = 0; i < n; i++)
					if (!isnan(vals[li][i]) && vals[li][i] > ymax)
						ymax = vals[li][i];
		}
		if (!(ymax > 0))
			ymax = 1;
		sb_addf(&sb, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">", SVG_LEFT, y0 - 8);
		svg_text(&sb, pd->title);
		sb_addf(&sb, " (%s)</text>\n", pd->unit);
		/* Legend, right-aligned above the panel. */
		int lx = SVG_LEFT + 220;
		for (size_t li = 0; li < pd->nlines; li++) {
			sb_addf(&sb, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"3\" fill=\"%s\"/>"
				     "<text x=\"%d\" y=\"%d\">", lx, y0 - 13, pd->lines[li].color,
				lx + 16, y0 - 8);
			svg_text(&sb, watch_cols[pd->lines[li].c].label);
			sb_add(&sb, "</text>\n");
			lx += 160;
		}
		sb_addf(&sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
			     "stroke=\"#999\"/>\n", SVG_LEFT, y0, pw, SVG_PANEL_H);
		sb_addf(&sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.*f</text>\n"
			     "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n",
			SVG_LEFT - 6, y0 + 10, ymax >= 10 ? 0 : 2, ymax, SVG_LEFT - 6,
			y0 + SVG_PANEL_H);
		sb_addf(&sb, "<text x=\"%d\" y=\"%d\">0 s</text><text x=\"%d\" y=\"%d\" "
			     "text-anchor=\"end\">%.1f s</text>\n",
			SVG_LEFT, y0 + SVG_PANEL_H + 14, SVG_LEFT + pw, y0 + SVG_PANEL_H + 14, tmax);
		for (size_t li = 0; li < pd->nlines; li++) {
			bool open = false;
			for (size_t i = 0; i < n; i++) {
				double v = vals[li][i];
				if (isnan(v) || isnan(t[i])) {
					if (open)
						sb_add(&sb, "\"/>\n");
					open = false;
					continue;
				}
				double x = SVG_LEFT + t[i] / tmax * pw;
				double y = y0 + SVG_PANEL_H - (v < 0 ? 0 : v > ymax ? ymax : v) / ymax *
									  SVG_PANEL_H;
				if (!open)
					sb_addf(&sb, "<polyline fill=\"none\" stroke=\"%s\" "
						     "stroke-width=\"1.5\" points=\"",
						pd->lines[li].color);
				sb_addf(&sb, "%s%.1f,%.1f", open ? " " : "", x, y);
				open = true;
			}
			if (open)
				sb_add(&sb, "\"/>\n");
			free(vals[li]);
		}
	}
	free(t);
	sb_add(&sb, "</svg>\n");
	fwrite(sb.buf, 1, sb.len, f);
	sb_release(&sb);
}
