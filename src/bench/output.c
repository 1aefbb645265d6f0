/*
 * output.c: the only code that formats benchmark results — the human
 * tables and bar charts, JSON (schema "wslgpu/bench/1", documented in
 * doc/bench.md) and CSV (one row per number, for spreadsheets and plots).
 *
 * Units: disk throughput in binary units (MiB/s, as fio prints first),
 * GPU copy bandwidth in decimal GB/s (as PCIe rates are quoted), times in
 * µs. JSON and CSV carry raw bytes, bytes/s and µs, never rounded text.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/json.h"
#include "../core/text.h"
#include "../report/finding.h"
#include "../gpu/cudaapi.h"
#include "../kb/kb.h"
#include "bench.h"
#include "stats.h"

const char *const bench_copy_names[BENCH_COPY__COUNT] = {
	"h2d_pageable", "d2h_pageable", "h2d_pinned", "d2h_pinned", "d2d",
};
const char *const bench_copy_titles[BENCH_COPY__COUNT] = {
	"host→device (pageable)", "device→host (pageable)", "host→device (pinned)",
	"device→host (pinned)", "device→device",
};

/* ---- shared pieces ---- */

static const char *mark(enum status s)
{
	return status_mark(s == ST_PASS || s == ST_WARN ? s : ST_FAIL);
}

static const char *colour(const struct bench_out *o, enum status s)
{
	if (!o->color)
		return "";
	switch (s) {
	case ST_PASS: return "\033[32m";
	case ST_WARN: return "\033[33m";
	default: return "\033[31m";
	}
}

static const char *reset(const struct bench_out *o)
{
	return o->color ? "\033[0m" : "";
}

static const char *dim(const struct bench_out *o)
{
	return o->color ? "\033[2m" : "";
}

/* Display width of UTF-8 text: columns, not bytes. */
static int width(const char *s)
{
	return text_width(s);
}

/* Appends s padded with spaces to w columns (or followed by one space). */
static void pad(struct strbuf *sb, const char *s, int w)
{
	struct strbuf clean = STRBUF_INIT;
	text_sanitize(&clean, s);
	sb_add(sb, sb_str(&clean));
	int n = width(sb_str(&clean));
	do
		sb_addc(sb, ' ');
	while (++n < w);
	sb_release(&clean);
}

/* A location in the first column of a table: padded to w, or, when it is
 * wider, on a line of its own with the row's figures under it. */
static void pad_location(struct strbuf *sb, const char *path, int w)
{
	struct strbuf clean = STRBUF_INIT;
	text_sanitize(&clean, path);
	if (width(clean.buf) < w) {
		pad(sb, clean.buf, w);
	} else {
		sb_addf(sb, "%s\n%*s", clean.buf, w, "");
	}
	sb_release(&clean);
}

static void put_us(struct strbuf *sb, double us)
{
	if (us < 10)
		sb_addf(sb, "%.1f µs", us);
	else if (us < 1000)
		sb_addf(sb, "%.0f µs", us);
	else if (us < 1e6)
		sb_addf(sb, "%.1f ms", us / 1000);
	else
		sb_addf(sb, "%.1f s", us / 1e6);
}

void bench_bar(struct strbuf *sb, double value, double max, int cells, bool utf8)
{
	static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	if (!(max > 0) || !(value > 0) || cells <= 0) {
		for (int i = 0; i < cells; i++)
			sb_addc(sb, ' ');
		return;
	}
	double frac = value >= max ? 1.0 : value / max;
	int total = (int)lround(frac * cells * 8);
	if (total == 0)
		total = 1; /* something measured shows as something */
	int full = total / 8, part = total % 8, used = 0;
	for (int i = 0; i < full; i++, used++)
		sb_add(sb, utf8 ? "█" : "#");
	if (part) {
		sb_add(sb, utf8 ? eighths[part] : (part >= 4 ? "#" : "."));
		used++;
	}
	for (; used < cells; used++)
		sb_addc(sb, ' ');
}

/* The finding lines: mark, detail, and once per KB entry its cause and fixes. */
static void put_findings(struct strbuf *sb, const struct bench_out *o,
			 const struct bench_verdict *v)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct result *r = &v->findings[i];
		struct strbuf d = STRBUF_INIT;
		sb_addf(&d, "%s%s%s ", colour(o, r->status), mark(r->status), reset(o));
		text_sanitize(&d, r->detail);
		text_wrap_line(sb, d.buf, 2, 0);
		sb_release(&d);
		const struct kb_entry *e = kb_find(r->kb);
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			if (v->findings[j].kb && r->kb && !strcmp(v->findings[j].kb, r->kb))
				seen = true;
		if (!e || seen || r->status == ST_PASS)
			continue;
		struct finding_view fv;
		finding_of_result(&fv, r);
		struct strbuf t = STRBUF_INIT;
		finding_text(&t, &fv, 6, FT_CAUSE | FT_FIXES | (o->verbose ? FT_SOURCES : 0));
		sb_addn(sb, t.buf, t.len);
		sb_reset(&t);
		finding_text(&t, &fv, 6, FT_MORE);
		sb_addf(sb, "%s%s%s", dim(o), t.buf, o->color ? reset(o) : "");
		sb_release(&t);
		finding_view_release(&fv);
	}
	if (v->n)
		sb_addc(sb, '\n');
	struct strbuf d = STRBUF_INIT;
	sb_addf(&d, "%s%s %s%s", colour(o, v->status), mark(v->status), v->summary, reset(o));
	text_wrap_line(sb, d.buf, 2, 0);
	sb_release(&d);
}

/* ---- io: text ---- */

static void spread_cell(struct strbuf *sb, const char *what, const struct bench_trials *t)
{
	struct bench_spread sp;
	bench_spread_of(t, &sp);
	if (sp.n > 1)
		sb_addf(sb, "%s ±%.0f %%  ", what, sp.noise * 100);
}

/* How far each location's trials spread: the largest distance of a trial
 * from the median the table shows. */
static void put_spread(struct strbuf *sb, const struct bench_io_loc *locs, size_t n, int pw)
{
	unsigned most = 0;
	for (size_t i = 0; i < n; i++)
		if (locs[i].state == BENCH_LOC_DONE && locs[i].trials > most)
			most = locs[i].trials;
	if (most < 2)
		return;
	struct strbuf l = STRBUF_INIT;
	sb_addc(sb, '\n');
	sb_addf(&l, "spread of the %u trials around the medians above (the locations took "
		    "turns)", most);
	text_wrap_line(sb, l.buf, 2, 0);
	for (size_t i = 0; i < n; i++) {
		const struct bench_io_loc *loc = &locs[i];
		if (loc->state != BENCH_LOC_DONE || loc->trials < 2)
			continue;
		sb_reset(&l);
		spread_cell(&l, "write", &loc->t_write);
		spread_cell(&l, "read", &loc->t_read);
		spread_cell(&l, "small files", &loc->t_small);
		sb_rtrim(&l);
		if (!l.len)
			continue;
		pad_location(sb, loc->path, pw);
		sb_addf(sb, "%s\n", l.buf);
	}
	sb_release(&l);
}

static void fs_label(struct strbuf *sb, const struct bench_io_loc *l)
{
	sb_add(sb, l->fstype ? l->fstype : "?");
	if (l->windows_drive)
		sb_add(sb, ", Windows drive");
	else if (l->source && *l->source && strcmp(l->source, "none") &&
		 strcmp(l->source, l->fstype))
		sb_addf(sb, " %s", l->source);
}

void bench_text_io(struct strbuf *sb, const struct bench_out *o, const struct bench_io_params *p,
		   const struct bench_io_loc *locs, size_t n, const struct bench_verdict *v)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	bench_format_size(&a, p->size);
	bench_format_size(&b, p->block);
	bench_format_size(&c, p->file_size);
	struct strbuf head = STRBUF_INIT;
	sb_addf(&head, "Disk I/O where the data lives: %s written and read in %s blocks; "
		       "%u file%s of %s; %u trial%s at each location, at most %g s a phase in all",
		a.buf, b.buf, p->files, p->files == 1 ? "" : "s", c.buf, p->trials,
		p->trials == 1 ? "" : "s", p->seconds);
	text_wrap_line(sb, head.buf, 2, 0);
	sb_addc(sb, '\n');
	sb_release(&head);
	/* The file system column is as wide as its widest entry; the
	 * locations get what the terminal leaves (a longer one goes on a line
	 * of its own). */
	int fsw = 11;
	for (size_t i = 0; i < n; i++) {
		sb_reset(&a);
		fs_label(&a, &locs[i]);
		if (locs[i].state == BENCH_LOC_DONE && width(a.buf) > fsw)
			fsw = width(a.buf);
	}
	fsw += 2;
	int pw = 8;
	for (size_t i = 0; i < n; i++)
		if (width(locs[i].path) > pw)
			pw = width(locs[i].path);
	pw += 2;
	int room = text_columns() - (fsw + 10 + 13 + 13 + 12);
	if (pw > room)
		pw = room < 10 ? 10 : room;

	pad(sb, "location", pw);
	pad(sb, "file system", fsw);
	pad(sb, "method", 10);
	pad(sb, "write", 13);
	pad(sb, "read", 13);
	sb_add(sb, "small files\n");
	bool foot_cache = false, foot_time = false;
	for (size_t i = 0; i < n; i++) {
		const struct bench_io_loc *l = &locs[i];
		pad_location(sb, l->path, pw);
		if (l->state != BENCH_LOC_DONE) {
			const char *what = l->state == BENCH_LOC_SKIPPED ? "skipped" : "failed";
			struct strbuf e = STRBUF_INIT;
			sb_addf(&e, "%s%s: ", l->state == BENCH_LOC_SKIPPED ? dim(o) : "", what);
			text_sanitize(&e, l->error ? l->error : "");
			sb_add(&e, l->state == BENCH_LOC_SKIPPED ? reset(o) : "");
			struct text_wrap w = { text_columns(), pw, pw, 0, NULL };
			text_wrap(sb, e.buf, &w);
			sb_addc(sb, '\n');
			sb_release(&e);
			continue;
		}
		sb_reset(&a);
		fs_label(&a, l);
		pad(sb, a.buf, fsw);
		pad(sb, !l->method ? "-" : l->direct ? "O_DIRECT" : "buffered", 10);
		sb_reset(&a);
		if (!l->method) {
			pad(sb, "-", 13);
			pad(sb, "-", 13);
			goto small;
		}
		bench_format_rate(&a, l->write.bytes_per_s);
		if (l->write.time_bound) {
			sb_addc(&a, '*');
			foot_time = true;
		}
		pad(sb, a.buf, 13);
		sb_reset(&a);
		bench_format_rate(&a, l->read.bytes_per_s);
		if (l->read.time_bound) {
			sb_addc(&a, '*');
			foot_time = true;
		}
		if (!l->direct && l->cache_resident_pct > 50) {
			sb_add(&a, text_glyph("†", "+"));
			foot_cache = true;
		}
		pad(sb, a.buf, 13);
	small:
		sb_reset(&a);
		if (l->files_created) {
			put_us(&a, l->per_file_us);
			sb_addf(sb, "%s/file\n", a.buf);
		} else {
			sb_add(sb, "-\n");
		}
	}
	if (foot_time)
		text_wrap_line(sb, "  * stopped at the time bound (--seconds) before all of --size", 4, 0);
	put_spread(sb, locs, n, pw);
	if (foot_cache) {
		struct strbuf f = STRBUF_INIT;
		sb_addf(&f, "  %s the page cache kept the file despite FADV_DONTNEED (tmpfs keeps "
			    "files in memory): this is memory speed, not disk speed",
			text_glyph("†", "+"));
		text_wrap_line(sb, f.buf, 4, 0);
		sb_release(&f);
	}

	size_t done = 0;
	double best = 0;
	for (size_t i = 0; i < n; i++)
		if (locs[i].state == BENCH_LOC_DONE && locs[i].files_created) {
			done++;
			if (locs[i].per_file_us > 0 && 1e6 / locs[i].per_file_us > best)
				best = 1e6 / locs[i].per_file_us;
		}
	if (done) {
		sb_add(sb, "\nsmall files, time per operation: median / p99\n");
		/* median/p99 per operation, in columns the terminal has room for */
		int opw = 17, lw = text_columns() - BENCH_OP__COUNT * opw;
		if (lw > pw)
			lw = pw;
		if (lw < 10)
			lw = 10;
		pad(sb, "location", lw);
		for (int k = 0; k < BENCH_OP__COUNT; k++)
			pad(sb, bench_op_names[k], opw);
		sb_rtrim(sb);
		sb_addc(sb, '\n');
		for (size_t i = 0; i < n; i++) {
			const struct bench_io_loc *l = &locs[i];
			if (l->state != BENCH_LOC_DONE || !l->files_created)
				continue;
			pad_location(sb, l->path, lw);
			for (int k = 0; k < BENCH_OP__COUNT; k++) {
				sb_reset(&a);
				put_us(&a, l->op[k].median_us);
				sb_add(&a, "/");
				put_us(&a, l->op[k].p99_us);
				pad(sb, a.buf, opw);
			}
			sb_rtrim(sb);
			sb_addc(sb, '\n');
		}
		sb_add(sb, "\nsmall files per second (create + stat + read + delete)\n");
		int bw = 8; /* the bars leave room for longer locations */
		for (size_t i = 0; i < n; i++)
			if (width(locs[i].path) > bw)
				bw = width(locs[i].path);
		bw += 2;
		if (bw > text_columns() - 39)
			bw = text_columns() - 39 < 10 ? 10 : text_columns() - 39;
		for (size_t i = 0; i < n; i++) {
			const struct bench_io_loc *l = &locs[i];
			if (l->state != BENCH_LOC_DONE || !l->files_created)
				continue;
			pad_location(sb, l->path, bw);
			double rate = l->per_file_us > 0 ? 1e6 / l->per_file_us : 0;
			bench_bar(sb, rate, best, 30, o->utf8);
			sb_addf(sb, " %.0f/s\n", rate);
		}
	}
	sb_addc(sb, '\n');
	put_findings(sb, o, v);
	sb_release(&a);
	sb_release(&b);
	sb_release(&c);
}

/* ---- gpu: text ---- */

void bench_text_gpu(struct strbuf *sb, const struct bench_out *o, const struct bench_gpu *g,
		    const struct bench_verdict *v)
{
	struct strbuf a = STRBUF_INIT, head = STRBUF_INIT;
	char ver[16];
	sb_add(&head, "GPU path: ");
	if (g->name[0]) {
		bench_format_size(&a, g->total_mem);
		pad(&head, g->name, 0);
		sb_addf(&head, "(GPU %d, compute %d.%d, %s)", g->device, g->cc_major, g->cc_minor,
			a.buf);
	} else {
		sb_add(&head, "no device reached");
	}
	if (g->driver_version > 0)
		sb_addf(&head, ", driver for CUDA %s",
			cuda_version_str(g->driver_version, ver, sizeof ver));
	text_wrap_line(sb, head.buf, 2, 0);
	sb_release(&head);
	if (g->library[0]) {
		sb_add(sb, "  library  ");
		pad(sb, g->library, 0);
		sb_rtrim(sb);
		sb_addc(sb, '\n');
	}
	double theo = bench_pcie_bytes_per_s(g->pcie_gen, g->pcie_width);
	if (theo > 0)
		sb_addf(sb, "  PCIe     %d.0 x%d: %.1f GB/s per direction in theory\n", g->pcie_gen,
			g->pcie_width, theo / 1e9);
	else if (g->name[0] && g->pcie_note[0]) {
		sb_reset(&a);
		sb_addf(&a, "  PCIe     unknown (%s)", g->pcie_note);
		text_wrap_line(sb, a.buf, 11, 0);
	}
	else if (g->name[0])
		sb_add(sb, "  PCIe     unknown\n");

	bool any = false;
	for (int c = 0; c < BENCH_COPY__COUNT; c++)
		for (size_t i = 0; i < g->nsizes; i++)
			any |= g->copy[c][i].measured;
	if (any) {
		sb_addf(sb, "\ncopies, GB/s (timed with CUDA events after a warm-up; data %s)\n",
			g->verified_copies ? "verified" : "NOT verified");
		pad(sb, "size", 10);
		static const char *const heads[] = { "h2d pageable", "d2h pageable", "h2d pinned",
						     "d2h pinned", "d2d" };
		for (int c = 0; c < BENCH_COPY__COUNT; c++)
			pad(sb, heads[c], 14);
		sb_rtrim(sb);
		sb_addc(sb, '\n');
		for (size_t i = 0; i < g->nsizes; i++) {
			sb_reset(&a);
			bench_format_size(&a, g->sizes[i]);
			pad(sb, a.buf, 10);
			for (int c = 0; c < BENCH_COPY__COUNT; c++) {
				const struct bench_gpu_point *pt = &g->copy[c][i];
				sb_reset(&a);
				if (pt->measured)
					sb_addf(&a, "%.2f", pt->bytes_per_s / 1e9);
				else
					sb_add(&a, "-");
				pad(sb, a.buf, 14);
			}
			sb_rtrim(sb);
			sb_addc(sb, '\n');
		}
		enum bench_copy chart = BENCH_H2D_PINNED;
		bool have = false;
		for (size_t i = 0; i < g->nsizes; i++)
			have |= g->copy[chart][i].measured;
		if (!have)
			chart = BENCH_H2D_PAGEABLE;
		double max = 0;
		for (size_t i = 0; i < g->nsizes; i++)
			if (g->copy[chart][i].measured && g->copy[chart][i].bytes_per_s > max)
				max = g->copy[chart][i].bytes_per_s;
		sb_addf(sb, "\n%s by copy size\n", bench_copy_titles[chart]);
		for (size_t i = 0; i < g->nsizes; i++) {
			const struct bench_gpu_point *pt = &g->copy[chart][i];
			sb_reset(&a);
			bench_format_size(&a, g->sizes[i]);
			sb_add(sb, "  ");
			pad(sb, a.buf, 9);
			bench_bar(sb, pt->measured ? pt->bytes_per_s : 0, max, 32, o->utf8);
			if (pt->measured)
				sb_addf(sb, " %.2f GB/s\n", pt->bytes_per_s / 1e9);
			else
				sb_add(sb, " -\n");
		}
	}
	if (g->sync_launches || g->stream_launches) {
		sb_add(sb, "\nkernel launches (an empty kernel)\n");
		if (g->sync_launches) {
			sb_reset(&a);
			sb_addf(&a, "  round trip, launch + cuCtxSynchronize: median %.1f µs, p99 %.1f µs "
				    "(%u launch%s)",
				g->sync_median_us, g->sync_p99_us, g->sync_launches,
				g->sync_launches == 1 ? "" : "es");
			text_wrap_line(sb, a.buf, 4, 0);
		}
		if (g->stream_launches) {
			sb_reset(&a);
			sb_addf(&a, "  back-to-back, %u launch%s then one sync: %.1f µs each (%.0f/s)",
				g->stream_launches, g->stream_launches == 1 ? "" : "es",
				g->stream_us_per_launch, g->stream_launches_per_s);
			text_wrap_line(sb, a.buf, 4, 0);
		}
	}
	sb_addc(sb, '\n');
	put_findings(sb, o, v);
	sb_release(&a);
}

/* ---- JSON ---- */

/* An empty string is no value. */
static const char *nonempty(const char *s)
{
	return s && *s ? s : NULL;
}

static void json_verdict(struct json_writer *jw, const struct bench_verdict *v)
{
	jw_kv_object(jw, "verdict");
	jw_kv_str(jw, "status", status_name(v->status));
	jw_kv_str(jw, "summary", v->summary ? v->summary : "");
	if (v->fastest)
		jw_kv_str(jw, "fastest", v->fastest);
	jw_kv_array(jw, "findings");
	for (size_t i = 0; i < v->n; i++) {
		const struct result *r = &v->findings[i];
		struct finding_view fv;
		finding_of_result(&fv, r);
		jw_object_begin(jw);
		jw_kv_str(jw, "status", status_name(r->status));
		jw_kv_str(jw, "kb", nonempty(r->kb));
		jw_kv_str(jw, "detail", r->detail ? r->detail : "");
		finding_json(jw, &fv, true);
		evidence_json(jw, "evidence", &r->ev);
		jw_end(jw);
		finding_view_release(&fv);
	}
	jw_end(jw);
	jw_end(jw);
}

void bench_json_begin(struct json_writer *jw)
{
	jw_object_begin(jw);
	jw_kv_str(jw, "schema", "wslgpu/bench/1");
}

void bench_json_end(struct json_writer *jw)
{
	jw_end(jw);
	sb_addc(jw->out, '\n');
}

/* A figure over the trials: each trial's value, and their spread. */
static void json_trials(struct json_writer *jw, const struct bench_trials *t)
{
	struct bench_spread sp;
	bench_spread_of(t, &sp);
	jw_kv_object(jw, "trials");
	jw_kv_array(jw, "values");
	for (unsigned i = 0; i < t->n; i++)
		jw_num(jw, t->v[i]);
	jw_end(jw);
	jw_kv_num(jw, "median", sp.median);
	jw_kv_num(jw, "min", sp.min);
	jw_kv_num(jw, "max", sp.max);
	if (sp.n > 1)
		jw_kv_num(jw, "noise_pct", sp.noise * 100);
	else
		jw_kv_null(jw, "noise_pct");
	jw_end(jw);
}

static void json_seq(struct json_writer *jw, const char *k, const struct bench_seq *s,
		     const struct bench_trials *t)
{
	jw_kv_object(jw, k);
	jw_kv_uint(jw, "bytes", s->bytes);
	jw_kv_num(jw, "seconds", s->seconds);
	jw_kv_num(jw, "bytes_per_s", s->bytes_per_s);
	jw_kv_bool(jw, "time_bound", s->time_bound);
	json_trials(jw, t);
	jw_end(jw);
}

static const char *state_name(enum bench_loc_state s)
{
	switch (s) {
	case BENCH_LOC_DONE: return "done";
	case BENCH_LOC_SKIPPED: return "skipped";
	case BENCH_LOC_FAILED: return "failed";
	default: return "pending";
	}
}

static void json_location(struct json_writer *jw, const struct bench_io_params *p,
			  const struct bench_io_loc *l)
{
	jw_object_begin(jw);
	jw_kv_str(jw, "path", l->path);
	jw_kv_str(jw, "resolved", nonempty(l->resolved));
	jw_kv_bool(jw, "named", l->named);
	jw_kv_str(jw, "role", nonempty(l->role));
	jw_kv_str(jw, "status", state_name(l->state));
	jw_kv_str(jw, "error", nonempty(l->error));
	jw_kv_str(jw, "kb", nonempty(l->kb));
	jw_kv_str(jw, "fstype", nonempty(l->fstype));
	jw_kv_str(jw, "source", nonempty(l->source));
	jw_kv_str(jw, "mount_point", nonempty(l->mount_point));
	jw_kv_bool(jw, "windows_drive", l->windows_drive);
	jw_kv_uint(jw, "free_bytes", l->free_bytes);
	jw_kv_uint(jw, "need_bytes", l->need_bytes);
	if (l->state == BENCH_LOC_DONE) {
		jw_kv_str(jw, "method", nonempty(l->method));
		jw_kv_bool(jw, "direct", l->direct);
		if (l->cache_resident_pct >= 0)
			jw_kv_int(jw, "cache_resident_pct", l->cache_resident_pct);
		else
			jw_kv_null(jw, "cache_resident_pct");
		jw_kv_uint(jw, "trials", l->trials);
		json_seq(jw, "write", &l->write, &l->t_write);
		json_seq(jw, "read", &l->read, &l->t_read);
		jw_kv_object(jw, "small_files");
		jw_kv_uint(jw, "files", l->files_created);
		jw_kv_uint(jw, "file_size_bytes", p->file_size);
		jw_kv_num(jw, "per_file_us", l->per_file_us);
		json_trials(jw, &l->t_small);
		jw_kv_object(jw, "ops");
		for (int k = 0; k < BENCH_OP__COUNT; k++) {
			const struct bench_opstats *s = &l->op[k];
			jw_kv_object(jw, bench_op_names[k]);
			jw_kv_uint(jw, "ops", s->ops);
			jw_kv_num(jw, "seconds", s->seconds);
			jw_kv_num(jw, "ops_per_s", s->ops_per_s);
			jw_kv_num(jw, "median_us", s->median_us);
			jw_kv_num(jw, "p99_us", s->p99_us);
			jw_kv_num(jw, "mean_us", s->mean_us);
			jw_end(jw);
		}
		jw_end(jw);
		jw_end(jw);
	}
	jw_end(jw);
}

void bench_json_io(struct json_writer *jw, const struct bench_io_params *p,
		   const struct bench_io_loc *locs, size_t n, const struct bench_verdict *v)
{
	jw_kv_object(jw, "io");
	jw_kv_object(jw, "params");
	jw_kv_uint(jw, "size_bytes", p->size);
	jw_kv_uint(jw, "block_bytes", p->block);
	jw_kv_uint(jw, "files", p->files);
	jw_kv_uint(jw, "file_size_bytes", p->file_size);
	jw_kv_num(jw, "seconds", p->seconds);
	jw_kv_uint(jw, "trials", p->trials);
	jw_end(jw);
	jw_kv_array(jw, "locations");
	for (size_t i = 0; i < n; i++)
		json_location(jw, p, &locs[i]);
	jw_end(jw);
	json_verdict(jw, v);
	jw_end(jw);
}

/* A positive count, or null for unknown. */
static void kv_positive(struct json_writer *jw, const char *key, long long v)
{
	if (v > 0)
		jw_kv_int(jw, key, v);
	else
		jw_kv_null(jw, key);
}

void bench_json_gpu(struct json_writer *jw, const struct bench_gpu *g, const struct bench_verdict *v)
{
	char ver[16];
	jw_kv_object(jw, "gpu");
	jw_kv_str(jw, "status", g->error[0] ? "error" : "ok");
	if (g->error[0]) {
		jw_kv_object(jw, "error");
		jw_kv_str(jw, "message", g->error);
		jw_kv_str(jw, "kb", nonempty(g->error_kb));
		jw_kv_str(jw, "call", nonempty(g->failed_call));
		jw_kv_int(jw, "code", g->failed_code);
		jw_kv_str(jw, "during", nonempty(g->step));
		jw_end(jw);
	} else {
		jw_kv_null(jw, "error");
	}
	jw_kv_str(jw, "library", nonempty(g->library));
	cuda_version_str(g->driver_version, ver, sizeof ver);
	jw_kv_str(jw, "driver_cuda_version", strcmp(ver, "unknown") ? ver : NULL);
	if (g->name[0]) {
		char cc[32];
		snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
		jw_kv_object(jw, "device");
		jw_kv_int(jw, "index", g->device);
		jw_kv_str(jw, "name", g->name);
		jw_kv_str(jw, "compute_capability", cc);
		jw_kv_uint(jw, "total_mem_bytes", g->total_mem);
		jw_end(jw);
	} else {
		jw_kv_null(jw, "device");
	}
	double theo = bench_pcie_bytes_per_s(g->pcie_gen, g->pcie_width);
	jw_kv_object(jw, "pcie");
	kv_positive(jw, "gen", g->pcie_gen);
	kv_positive(jw, "width", g->pcie_width);
	if (theo > 0)
		jw_kv_num(jw, "theoretical_bytes_per_s", theo);
	else
		jw_kv_null(jw, "theoretical_bytes_per_s");
	jw_kv_str(jw, "note", nonempty(g->pcie_note));
	jw_end(jw);
	jw_kv_array(jw, "copies");
	for (int c = 0; c < BENCH_COPY__COUNT; c++)
		for (size_t i = 0; i < g->nsizes; i++) {
			const struct bench_gpu_point *pt = &g->copy[c][i];
			if (!pt->measured)
				continue;
			jw_object_begin(jw);
			jw_kv_str(jw, "kind", bench_copy_names[c]);
			jw_kv_uint(jw, "size_bytes", pt->size);
			jw_kv_uint(jw, "reps", pt->reps);
			jw_kv_num(jw, "seconds", pt->seconds);
			jw_kv_num(jw, "bytes_per_s", pt->bytes_per_s);
			jw_kv_bool(jw, "verified", pt->verified);
			jw_end(jw);
		}
	jw_end(jw);
	if (g->pinned_failed_size)
		jw_kv_uint(jw, "pinned_alloc_failed_bytes", g->pinned_failed_size);
	else
		jw_kv_null(jw, "pinned_alloc_failed_bytes");
	jw_kv_str(jw, "pinned_error", nonempty(g->pinned_error));
	jw_kv_object(jw, "launch");
	jw_kv_str(jw, "kernel", "wslgpu_empty");
	jw_kv_object(jw, "sync");
	jw_kv_uint(jw, "launches", g->sync_launches);
	jw_kv_num(jw, "median_us", g->sync_median_us);
	jw_kv_num(jw, "p99_us", g->sync_p99_us);
	jw_end(jw);
	jw_kv_object(jw, "back_to_back");
	jw_kv_uint(jw, "launches", g->stream_launches);
	jw_kv_num(jw, "us_per_launch", g->stream_us_per_launch);
	jw_kv_num(jw, "launches_per_s", g->stream_launches_per_s);
	jw_end(jw);
	jw_end(jw);
	jw_kv_object(jw, "method");
	jw_kv_str(jw, "timing", "CUDA events (copies, back-to-back launches), monotonic clock "
				"(round trips)");
	jw_kv_uint(jw, "warmup_copies", g->warmup_copies);
	jw_kv_uint(jw, "warmup_launches", g->warmup_launches);
	jw_kv_uint(jw, "verified_copies", g->verified_copies);
	jw_kv_uint(jw, "allocations", g->allocations);
	jw_kv_uint(jw, "frees", g->frees);
	jw_end(jw);
	json_verdict(jw, v);
	jw_end(jw);
}

/* The CSV value of a number: %.6g, empty for none. */
static void csv_num(struct strbuf *sb, double v)
{
	if (!isnan(v) && !isinf(v))
		sb_addf(sb, "%.6g", v);
}

/* ---- CSV ---- */

static void csv_field(struct strbuf *sb, const char *s)
{
	if (strpbrk(s, ",\"\n\r")) {
		sb_addc(sb, '"');
		for (const char *p = s; *p; p++) {
			if (*p == '"')
				sb_addc(sb, '"');
			sb_addc(sb, *p);
		}
		sb_addc(sb, '"');
	} else {
		sb_add(sb, s);
	}
}

static void csv_row(struct strbuf *sb, const char *bench, const char *target, const char *metric,
		    const char *stat, uint64_t size, double value, const char *unit)
{
	csv_field(sb, bench);
	sb_addc(sb, ',');
	csv_field(sb, target);
	sb_addf(sb, ",%s,%s,", metric, stat);
	if (size)
		sb_addf(sb, "%llu", (unsigned long long)size);
	sb_addc(sb, ',');
	csv_num(sb, value);
	sb_addf(sb, ",%s\n", unit);
}

void bench_csv_header(struct strbuf *sb)
{
	sb_add(sb, "bench,target,metric,stat,size_bytes,value,unit\n");
}

void bench_csv_io(struct strbuf *sb, const struct bench_io_loc *locs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct bench_io_loc *l = &locs[i];
		if (l->state != BENCH_LOC_DONE)
			continue;
		csv_row(sb, "io", l->path, "seq_write", "rate", l->write.bytes, l->write.bytes_per_s,
			"B/s");
		csv_row(sb, "io", l->path, "seq_read", "rate", l->read.bytes, l->read.bytes_per_s,
			"B/s");
		for (int k = 0; k < BENCH_OP__COUNT; k++) {
			const struct bench_opstats *s = &l->op[k];
			csv_row(sb, "io", l->path, bench_op_names[k], "median", 0, s->median_us, "us");
			csv_row(sb, "io", l->path, bench_op_names[k], "p99", 0, s->p99_us, "us");
			csv_row(sb, "io", l->path, bench_op_names[k], "rate", 0, s->ops_per_s, "ops/s");
		}
		csv_row(sb, "io", l->path, "small_file", "mean", 0, l->per_file_us, "us");
	}
}

void bench_csv_gpu(struct strbuf *sb, const struct bench_gpu *g)
{
	const char *target = g->name[0] ? g->name : "gpu";
	for (int c = 0; c < BENCH_COPY__COUNT; c++)
		for (size_t i = 0; i < g->nsizes; i++) {
			const struct bench_gpu_point *pt = &g->copy[c][i];
			if (pt->measured)
				csv_row(sb, "gpu", target, bench_copy_names[c], "rate", pt->size,
					pt->bytes_per_s, "B/s");
		}
	if (g->sync_launches) {
		csv_row(sb, "gpu", target, "launch_sync", "median", 0, g->sync_median_us, "us");
		csv_row(sb, "gpu", target, "launch_sync", "p99", 0, g->sync_p99_us, "us");
	}
	if (g->stream_launches)
		csv_row(sb, "gpu", target, "launch_back_to_back", "mean", 0, g->stream_us_per_launch,
			"us");
}
