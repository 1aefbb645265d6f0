/*
 * export.c: watch's series for programs and plots.
 *
 *   CSV   a header, then one row per point as it is taken (flushed, so a
 *         file can be tailed or plotted while the job runs, and a killed
 *         watch leaves every row it took); an unavailable figure is empty;
 *         the last two columns say where the GPU figures came from
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
#include "../report/finding.h"
#include "../version.h"
#include "watch.h"

void watch_csv_header(FILE *f)
{
	for (int c = 0; c < WC__COUNT; c++)
		fprintf(f, "%s%s", c ? "," : "", watch_cols[c].name);
	fputs(",gpu_util_source,gpu_mem_source\n", f);
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
	fprintf(f, ",%s,%s\n", gpu_src_names[p->util_src < GSRC__COUNT ? p->util_src : 0],
		gpu_src_names[p->mem_src < GSRC__COUNT ? p->mem_src : 0]);
	fflush(f);
}

void watch_json(struct strbuf *out, const struct watch_report *r)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;
	const struct watch_opts *o = r->opts;
	jw_init(&jw, &sb);
	jw_object_begin(&jw);
	jw_kv_str(&jw, "schema", "wslgpu/watch/1");
	jw_kv_str(&jw, "version", WSLGPU_VERSION);
	if (o->argv) {
		jw_kv_array(&jw, "command");
		for (char **a = o->argv; *a; a++)
			jw_str(&jw, *a);
		jw_end(&jw);
	} else {
		jw_kv_null(&jw, "command");
	}
	if (o->pid > 0)
		jw_kv_int(&jw, "pid", o->pid);
	else
		jw_kv_null(&jw, "pid");
	char when[32];
	struct tm tm;
	gmtime_r(&r->started, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	jw_kv_str(&jw, "started", when);
	jw_kv_fixed(&jw, "interval_s", 3, o->interval_ms / 1000.0);
	jw_kv_fixed(&jw, "duration_s", 2, r->duration_s);

	jw_kv_object(&jw, "end");
	jw_kv_str(&jw, "kind", r->end_kind);
	jw_kv_str(&jw, "text", r->end.buf ? r->end.buf : "");
	if (!strcmp(r->end_kind, "exited"))
		jw_kv_int(&jw, "status", r->status);
	else
		jw_kv_null(&jw, "status");
	if (!strcmp(r->end_kind, "killed"))
		jw_kv_int(&jw, "signal", r->status);
	else
		jw_kv_null(&jw, "signal");
	jw_kv_int(&jw, "exit_code", r->exit_code);
	jw_end(&jw);

	jw_kv_object(&jw, "machine");
	jw_kv_uint(&jw, "ncpu", r->ncpu);
	jw_kv_fixed(&jw, "mem_total_mib", 0, r->mem_total_mib > 0 ? r->mem_total_mib : NAN);
	jw_end(&jw);

	jw_kv_object(&jw, "gpu");
	jw_kv_str(&jw, "state", r->gpu_state);
	jw_kv_str(&jw, "name", r->gpu_name[0] ? r->gpu_name : NULL);
	jw_kv_int(&jw, "devices", r->ngpu);
	jw_kv_bool(&jw, "util_available", r->sum.gpu_util_known);
	jw_kv_fixed(&jw, "mem_total_mib", 0, r->gpu_mem_total_mib > 0 ? r->gpu_mem_total_mib : NAN);
	jw_kv_str(&jw, "note", r->gpu_note.len ? r->gpu_note.buf : NULL);
	/* Where the figures came from: "nvml", "windows-vm" (Windows' counters
	 * of WSL's VM processes), "windows-gpu" (the whole adapter's). */
	jw_kv_str(&jw, "util_source", r->gpu_util_source && *r->gpu_util_source ? r->gpu_util_source : NULL);
	jw_kv_str(&jw, "mem_source", r->gpu_mem_source && *r->gpu_mem_source ? r->gpu_mem_source : NULL);
	jw_kv_str(&jw, "windows_note", r->win_note.len ? r->win_note.buf : NULL);
	jw_end(&jw);

	/* What the job is, which chooses its advice (program.h). */
	jw_kv_object(&jw, "program");
	jw_kv_str(&jw, "kind", program_name(r->program.kind));
	jw_kv_str(&jw, "seen", r->program.what[0] ? r->program.what : NULL);
	jw_end(&jw);

	jw_kv_array(&jw, "data");
	for (size_t i = 0; i < r->data.n; i++) {
		const struct data_place *p = &r->data.p[i];
		jw_object_begin(&jw);
		jw_kv_str(&jw, "mount", p->mount);
		jw_kv_str(&jw, "kind", p->kind);
		jw_kv_str(&jw, "what", p->what);
		jw_kv_uint(&jw, "files", p->files);
		jw_kv_str(&jw, "example", p->example);
		jw_end(&jw);
	}
	jw_end(&jw);

	jw_kv_object(&jw, "summary");
	for (int c = 1; c < WC__COUNT; c++) {
		const struct watch_stat *st = &r->series.stat[c];
		int dec = watch_cols[c].decimals;
		jw_kv_object(&jw, watch_cols[c].name);
		jw_kv_uint(&jw, "n", st->n);
		jw_kv_fixed(&jw, "mean", dec, series_mean(&r->series, (enum watch_col)c));
		jw_kv_fixed(&jw, "min", dec, series_min(&r->series, (enum watch_col)c));
		jw_kv_fixed(&jw, "max", dec, series_max(&r->series, (enum watch_col)c));
		jw_end(&jw);
	}
	jw_end(&jw);

	const struct watch_verdict *v = &r->verdict;
	jw_kv_object(&jw, "verdict");
	jw_kv_str(&jw, "id", v->name);
	jw_kv_str(&jw, "kb", v->kb);
	jw_kv_str(&jw, "status", status_name(v->status));
	jw_kv_str(&jw, "headline", v->headline.buf);
	jw_kv_bool(&jw, "cpu_io_only", v->cpu_io_only);
	evidence_json(&jw, "evidence", &v->ev);
	jw_kv_array(&jw, "also");
	for (size_t i = 0; i < v->nalso; i++)
		jw_str(&jw, watch_verdict_name(v->also[i]));
	jw_end(&jw);
	jw_end(&jw);

	jw_kv_object(&jw, "overhead");
	jw_kv_fixed(&jw, "watch_cpu_s", 3, r->watch_cpu_s);
	jw_kv_fixed(&jw, "gpu_sampler_cpu_s", 3, r->sampler_cpu_s);
	jw_kv_fixed(&jw, "job_cpu_s", 3, r->job_cpu_s);
	jw_end(&jw);

	jw_kv_uint(&jw, "points", r->series.nsamples);
	jw_kv_uint(&jw, "bucket", r->series.bucket);
	jw_kv_array(&jw, "columns");
	for (int c = 0; c < WC__COUNT; c++)
		jw_str(&jw, watch_cols[c].name);
	jw_end(&jw);
	jw_kv_array(&jw, "samples");
	double *cols[WC__COUNT];
	size_t n = 0;
	for (int c = 0; c < WC__COUNT; c++)
		n = series_column(&r->series, (enum watch_col)c, &cols[c]);
	for (size_t i = 0; i < n; i++) {
		jw_array_begin(&jw);
		for (int c = 0; c < WC__COUNT; c++)
			jw_fixed(&jw, watch_cols[c].decimals, cols[c][i]);
		jw_end(&jw);
	}
	for (int c = 0; c < WC__COUNT; c++)
		free(cols[c]);
	jw_end(&jw);
	jw_end(&jw);
	sb_addc(&sb, '\n');
	sb_addn(out, sb.buf, sb.len);
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

void watch_svg(struct strbuf *out, const struct watch_report *r)
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
	sb_addn(out, sb.buf, sb.len);
	sb_release(&sb);
}
