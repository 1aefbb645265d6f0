/*
 * render.c: what a person sees — the live status line on a terminal and
 * the summary with sparklines and the verdict at the end. Both go to
 * stderr (the caller's choice): stdout belongs to the watched command.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/json.h"
#include "../core/text.h"
#include "../kb/kb.h"
#include "../report/finding.h"
#include "watch.h"

static const char *const blocks[8] = { "\u2581", "\u2582", "\u2583", "\u2584",
					"\u2585", "\u2586", "\u2587", "\u2588" };

void watch_sparkline(struct strbuf *out, const double *v, size_t n, size_t width, double hi)
{
	if (!n || !width)
		return;
	size_t cells = n < width ? n : width;
	for (size_t i = 0; i < cells; i++) {
		size_t a = i * n / cells, b = (i + 1) * n / cells;
		if (b <= a)
			b = a + 1;
		double sum = 0;
		size_t k = 0;
		for (size_t j = a; j < b && j < n; j++)
			if (!isnan(v[j])) {
				sum += v[j];
				k++;
			}
		if (!k) {
			sb_addc(out, ' ');
			continue;
		}
		double x = sum / (double)k;
		int level = hi > 0 ? (int)lround(x / hi * 7.0) : 0;
		if (level < 0)
			level = 0;
		if (level > 7)
			level = 7;
		sb_add(out, blocks[level]);
	}
}

void watch_duration(struct strbuf *out, double s)
{
	if (isnan(s) || s < 0)
		s = 0;
	if (s < 60) {
		sb_addf(out, "%.1fs", s);
		return;
	}
	long t = lround(s);
	if (t < 3600)
		sb_addf(out, "%ldm%02lds", t / 60, t % 60);
	else
		sb_addf(out, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
}

static void fmt_val(struct strbuf *sb, double v, int decimals)
{
	if (isnan(v))
		sb_add(sb, "-");
	else
		sb_addf(sb, "%.*f", decimals, v);
}

void watch_live_line(struct strbuf *out, const struct watch_point *p, double elapsed_s,
		     const struct gpu_monitor *g, int width)
{
	struct strbuf l = STRBUF_INIT;
	long t = lround(elapsed_s);
	sb_addf(&l, "watch %ld:%02ld", t / 60, t % 60);
	const double *v = p->v;
	if (!isnan(v[WC_GPU_UTIL]) || !isnan(v[WC_GPU_MEM])) {
		sb_add(&l, " | GPU ");
		if (isnan(v[WC_GPU_UTIL]))
			sb_add(&l, "util n/a");
		else
			sb_addf(&l, "%.0f%%", v[WC_GPU_UTIL]);
		if (!isnan(v[WC_GPU_MEM]) && g && g->last.mem_total_mib > 0)
			sb_addf(&l, " %.1f/%.1f GiB", v[WC_GPU_MEM] / 1024, g->last.mem_total_mib / 1024);
	} else {
		sb_add(&l, " | GPU -");
	}
	sb_add(&l, " | CPU ");
	fmt_val(&l, v[WC_CPU_USER], 0);
	sb_add(&l, "%us ");
	fmt_val(&l, v[WC_CPU_SYS], 0);
	sb_add(&l, "%sy ");
	fmt_val(&l, v[WC_CPU_IOWAIT], 0);
	sb_add(&l, "%io | job ");
	fmt_val(&l, v[WC_JOB_CPU], 2);
	sb_add(&l, " cores ");
	fmt_val(&l, v[WC_JOB_PROCS], 0);
	sb_add(&l, " procs");
	if (!isnan(v[WC_JOB_BLOCKED]) && v[WC_JOB_BLOCKED] > 0)
		sb_addf(&l, " %.0f in D", v[WC_JOB_BLOCKED]);
	sb_add(&l, " | disk r ");
	fmt_val(&l, v[WC_DISK_READ], 1);
	sb_add(&l, " w ");
	fmt_val(&l, v[WC_DISK_WRITE], 1);
	sb_add(&l, " MB/s | swap ");
	if (isnan(v[WC_SWAP_IN]))
		sb_add(&l, "-");
	else
		sb_addf(&l, "%.1f", v[WC_SWAP_IN] + v[WC_SWAP_OUT]);
	sb_add(&l, " MB/s | avail ");
	if (isnan(v[WC_MEM_AVAIL]))
		sb_add(&l, "-");
	else
		sb_addf(&l, "%.1f GiB", v[WC_MEM_AVAIL] / 1024);
	/* One column short of the width: a full line would wrap on some
	 * terminals and scroll. */
	size_t max = width > 1 ? (size_t)width - 1 : 0;
	if (l.len > max)
		l.len = max;
	sb_addn(out, l.buf, l.len);
	sb_release(&l);
}

enum row_kind { ROW_PCT, ROW_RATE, ROW_CORES, ROW_MEM_MAX, ROW_MEM_MIN };

static const struct {
	enum watch_col c;
	enum row_kind kind;
} rows[] = {
	{ WC_GPU_UTIL, ROW_PCT },    { WC_GPU_MEM, ROW_MEM_MAX },  { WC_CPU_USER, ROW_PCT },
	{ WC_CPU_SYS, ROW_PCT },     { WC_CPU_IOWAIT, ROW_PCT },   { WC_JOB_CPU, ROW_CORES },
	{ WC_JOB_RUNNABLE, ROW_RATE }, { WC_JOB_BLOCKED, ROW_RATE }, { WC_DISK_READ, ROW_RATE },  { WC_DISK_WRITE, ROW_RATE },
	{ WC_JOB_RCHAR, ROW_RATE },  { WC_SWAP_IN, ROW_RATE },     { WC_SWAP_OUT, ROW_RATE },
	{ WC_MEM_AVAIL, ROW_MEM_MIN },
};

#define SPARK_MAX 32
#define SPARK_MIN 8
#define LABEL_WIDTH 16 /* "memory available" */

/* A row's figures ("mean  84.0 %  max  91.3 %"), or false when the
 * column has no samples; hi is the top of its sparkline. */
static bool row_stats(const struct watch_report *r, enum watch_col c, enum row_kind kind,
		      struct strbuf *out, double *hi)
{
	const struct watch_series *s = &r->series;
	if (!s->stat[c].n)
		return false;
	double mean = series_mean(s, c), mx = series_max(s, c), mn = series_min(s, c);
	*hi = mx;
	switch (kind) {
	case ROW_PCT: *hi = 100; break;
	case ROW_CORES: *hi = r->ncpu ? r->ncpu : mx; break;
	case ROW_MEM_MAX: *hi = r->gpu_mem_total_mib > 0 ? r->gpu_mem_total_mib : mx; break;
	case ROW_MEM_MIN: *hi = r->mem_total_mib > 0 ? r->mem_total_mib : mx; break;
	case ROW_RATE:
		/* Noise of a few kB/s must not fill the sparkline. */
		if (*hi < 1)
			*hi = 1;
		break;
	}
	/* "max" starts in the same column on every row. */
	const char *u = watch_cols[c].unit;
	switch (kind) {
	case ROW_PCT:
		sb_addf(out, "mean %5.1f %%  max %5.1f %%", mean, mx);
		break;
	case ROW_CORES:
		sb_addf(out, "mean %5.2f    max %5.2f of %u CPU%s", mean, mx, r->ncpu,
			r->ncpu == 1 ? "" : "s");
		break;
	case ROW_RATE:
		sb_addf(out, "mean %5.1f    max %5.1f %s", mean, mx, u);
		break;
	case ROW_MEM_MAX:
		sb_addf(out, "min %6.0f   max %6.0f MiB", mn, mx);
		if (r->gpu_mem_total_mib > 0)
			sb_addf(out, " of %.0f", r->gpu_mem_total_mib);
		break;
	case ROW_MEM_MIN:
		sb_addf(out, "min %6.0f MiB", mn);
		if (r->mem_total_mib > 0)
			sb_addf(out, " of %.0f", r->mem_total_mib);
		break;
	}
	return true;
}

/* The sparklines get what the terminal leaves after the label and the
 * widest row's figures, up to SPARK_MAX cells. */
static size_t spark_cells(const struct watch_report *r)
{
	size_t widest = 0;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct strbuf st = STRBUF_INIT;
		double hi;
		if (row_stats(r, rows[i].c, rows[i].kind, &st, &hi) && st.len > widest)
			widest = st.len;
		sb_release(&st);
	}
	int room = text_columns() - (2 + LABEL_WIDTH + 1) - 2 - (int)widest;
	return room < SPARK_MIN ? SPARK_MIN : room > SPARK_MAX ? SPARK_MAX : (size_t)room;
}

static void print_row(FILE *f, const struct watch_report *r, enum watch_col c, enum row_kind kind,
		      size_t width)
{
	struct strbuf st = STRBUF_INIT;
	double hi;
	if (!row_stats(r, c, kind, &st, &hi)) {
		sb_release(&st);
		return;
	}
	double *v;
	size_t n = series_column(&r->series, c, &v);
	struct strbuf spark = STRBUF_INIT;
	watch_sparkline(&spark, v, n, width, hi);
	free(v);
	/* Pad by cells, not bytes: each block is 3 bytes of UTF-8. */
	size_t cells = n < width ? n : width;
	fprintf(f, "  %-*s %s%*s  %s\n", LABEL_WIDTH, watch_cols[c].label, spark.buf,
		(int)(width - cells), "", st.buf);
	sb_release(&st);
	sb_release(&spark);
}

static void print_command(struct strbuf *out, const struct watch_report *r)
{
	struct strbuf sb = STRBUF_INIT, clean = STRBUF_INIT;
	if (r->opts->argv) {
		for (char **a = r->opts->argv; *a; a++) {
			if (a != r->opts->argv)
				sb_addc(&sb, ' ');
			sb_add(&sb, *a);
		}
		if (sb.len > 120) {
			sb.len = 117;
			sb_add(&sb, "...");
		}
	} else {
		sb_addf(&sb, "pid %d", r->opts->pid);
	}
	text_sanitize(&clean, sb.buf);
	sb_add(out, clean.buf);
	sb_release(&sb);
	sb_release(&clean);
}

static void print_kb(FILE *f, const char *id, const struct evidence *ev, const char *platform)
{
	const struct kb_entry *e = kb_find(id);
	if (!e)
		return;
	struct finding_view v;
	struct strbuf sb = STRBUF_INIT;
	finding_expand(&v, e, ev, NULL);
	finding_for_platform(&v, platform);
	finding_text(&sb, &v, 2, FT_CAUSE | FT_FIXES);
	fputs(sb.buf, f);
	sb_release(&sb);
	finding_view_release(&v);
}

/* A figure's source (gpu_src_names) for people. */
static const char *source_words(const char *src)
{
	if (!src || !*src)
		return "nowhere";
	if (!strcmp(src, "windows-vm"))
		return "Windows' counters (WSL's VM)";
	if (!strcmp(src, "windows-gpu"))
		return "Windows' counters (the whole GPU)";
	return "NVML";
}

/* The byte range of the job's end in the summary's first line, where it
 * may not break (text_wrap's can_break). */
static size_t end_phrase[2];

static bool outside_end_phrase(const char *text, size_t at)
{
	(void)text;
	return at < end_phrase[0] || at >= end_phrase[1];
}

void watch_print_summary(FILE *f, const struct watch_report *r)
{
	/* The summary goes to f (stderr): wrapped to that terminal. */
	text_set_terminal(text_terminal_columns(fileno(f)), text_utf8());
	struct strbuf d = STRBUF_INIT, line = STRBUF_INIT;
	watch_duration(&d, r->duration_s);
	sb_add(&line, "wslgpu watch: ");
	print_command(&line, r);
	size_t keep = line.len; /* the command stays whole */
	sb_addf(&line, " %s", r->end.buf);
	/* ...and so does how it ended ("exited with status 0") */
	end_phrase[0] = keep + 1;
	end_phrase[1] = line.len;
	sb_addf(&line, " after %s (%zu point%s, every %.2g s", d.buf,
		r->series.nsamples, r->series.nsamples == 1 ? "" : "s",
		r->opts->interval_ms / 1000.0);
	if (r->series.bucket > 1)
		sb_addf(&line, "; plotted %u per point", r->series.bucket);
	sb_add(&line, ")");
	fputc('\n', f);
	struct strbuf wrapped = STRBUF_INIT;
	struct text_wrap tw = { text_columns(), 0, 2, keep, outside_end_phrase };
	text_wrap(&wrapped, line.buf, &tw);
	fprintf(f, "%s\n", wrapped.buf);
	sb_release(&wrapped);
	sb_reset(&line);
	sb_release(&d);

	struct strbuf note = STRBUF_INIT;
	text_sanitize(&note, r->gpu_note.buf ? r->gpu_note.buf : "");
	if (!strcmp(r->gpu_state, "ok") && !strcmp(source_words(r->gpu_util_source),
						      source_words(r->gpu_mem_source))) {
		sb_addf(&line, "GPU: %s%s: utilisation and memory from %s", r->gpu_name,
			r->ngpu > 1 ? " (and others; summed)" : "", source_words(r->gpu_util_source));
	} else if (!strcmp(r->gpu_state, "ok")) {
		sb_addf(&line, "GPU: %s%s: utilisation from %s, memory from %s", r->gpu_name,
			r->ngpu > 1 ? " (and others; summed)" : "", source_words(r->gpu_util_source),
			source_words(r->gpu_mem_source));
	} else if (!strcmp(r->gpu_state, "util-unavailable")) {
		sb_addf(&line, "GPU: %s: NVML gives memory but not utilisation here (%s), as is "
			       "usual on WSL (more: wslgpu kb watch.gpu_util_unavailable)",
			r->gpu_name, note.buf);
	} else {
		sb_addf(&line, "GPU: no figures: %s", note.len ? note.buf : "NVML not started");
	}
	if (r->win_note.len) {
		struct strbuf wn = STRBUF_INIT;
		text_sanitize(&wn, r->win_note.buf);
		sb_addf(&line, "; Windows' counters: %s", wn.buf);
		sb_release(&wn);
	}
	text_print_line(f, line.buf, 5, 0);
	sb_release(&note);
	sb_release(&line);
	if (r->job_cpu_s > 0)
		fprintf(f, "job CPU time: %.1f s\n", r->job_cpu_s);
	if (r->program.kind != WP_UNKNOWN) {
		/* what the advice below is fitted to, and why */
		struct strbuf pl = STRBUF_INIT, seen = STRBUF_INIT;
		text_sanitize(&seen, r->program.what);
		sb_addf(&pl, "program: %s (%s)", program_title(r->program.kind), seen.buf);
		text_print_line(f, pl.buf, 9, 0);
		sb_release(&pl);
		sb_release(&seen);
	}
	fputc('\n', f);

	size_t cells = spark_cells(r);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		print_row(f, r, rows[i].c, rows[i].kind, cells);

	const struct data_place *p = datafs_worst(&r->data);
	if (p) {
		struct strbuf ex = STRBUF_INIT, l = STRBUF_INIT;
		text_sanitize(&ex, p->example);
		sb_addf(&l, "  %-*s %s (%s): %u file%s open, e.g. %s", LABEL_WIDTH, "data on",
			p->mount, p->what, p->files, p->files == 1 ? "" : "s", ex.buf);
		text_print_line(f, l.buf, 2 + LABEL_WIDTH + 1, 0);
		sb_release(&ex);
		sb_release(&l);
	}

	const struct watch_verdict *v = &r->verdict;
	struct strbuf h = STRBUF_INIT;
	sb_add(&h, "verdict: ");
	text_sanitize(&h, v->headline.buf);
	fputc('\n', f);
	text_print_line(f, h.buf, 9, 0);
	sb_release(&h);
	struct strbuf out = STRBUF_INIT;
	if (v->cpu_io_only && v->id != WV_TOO_SHORT)
		finding_text_line(&out, 2, "note", "GPU utilisation was not available: this verdict "
				  "rests on CPU and I/O evidence only");
	fputs(sb_str(&out), f);
	sb_reset(&out);
	print_kb(f, v->kb, &v->ev, r->opts->platform);
	for (size_t i = 0; i < v->nalso; i++) {
		struct strbuf a = STRBUF_INIT;
		watch_verdict_headline(&r->sum, v->also[i], &a);
		sb_addf(&a, " (more: wslgpu kb %s)", watch_verdict_kb(v->also[i]));
		finding_text_line(&out, 2, i ? "" : "also", a.buf);
		sb_release(&a);
	}
	struct finding_view more = { .e = kb_find(v->kb) };
	finding_text(&out, &more, 2, FT_MORE);
	fputs(sb_str(&out), f);
	sb_release(&out);
}
