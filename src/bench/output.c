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
	switch (s) {
	case ST_PASS: return "✓";
	case ST_WARN: return "!";
	default: return "✗";
	}
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

/* Display width of UTF-8 text: code points, not bytes (good enough for
 * the box-drawing-free text we print). */
static int width(const char *s)
{
	int w = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p & 0xC0) != 0x80)
			w++;
	return w;
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
		text_sanitize(&d, r->detail);
		sb_addf(sb, "%s%s%s %s\n", colour(o, r->status), mark(r->status), reset(o),
			sb_str(&d));
		sb_release(&d);
		const struct kb_entry *e = kb_find(r->kb);
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			if (v->findings[j].kb && r->kb && !strcmp(v->findings[j].kb, r->kb))
				seen = true;
		if (!e || seen || r->status == ST_PASS)
			continue;
		struct strbuf t = STRBUF_INIT, c = STRBUF_INIT;
		if (e->cause) {
			kb_expand(e->cause, r, &t);
			text_sanitize(&c, t.buf);
			sb_addf(sb, "      %-7s%s\n", "cause", c.buf);
		}
		for (size_t k = 0; k < e->fix.n; k++) {
			sb_reset(&t);
			sb_reset(&c);
			kb_expand_fix(e->fix.v[k], r, &t);
			text_sanitize(&c, t.buf);
			sb_addf(sb, "      %-7s%s\n", k ? "" : "fix", c.buf);
		}
		if (o->verbose)
			for (size_t k = 0; k < e->source.n; k++)
				sb_addf(sb, "      %-7s%s\n", k ? "" : "source", e->source.v[k]);
		sb_addf(sb, "      %s%-7s%s%s\n", dim(o), "more", "wslgpu kb ", e->id);
		if (o->color)
			sb_add(sb, reset(o));
		sb_release(&t);
		sb_release(&c);
	}
	if (v->n)
		sb_addc(sb, '\n');
	sb_addf(sb, "%s%s %s%s\n", colour(o, v->status), mark(v->status), v->summary, reset(o));
}

/* ---- io: text ---- */

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
	sb_addf(sb, "Disk I/O where the data lives: %s written and read in %s blocks; "
		    "%u files of %s; at most %g s a phase\n\n",
		a.buf, b.buf, p->files, c.buf, p->seconds);
	int pw = 8;
	for (size_t i = 0; i < n; i++)
		if (width(locs[i].path) > pw)
			pw = width(locs[i].path);
	if (pw > 44)
		pw = 44;
	pw += 2;

	pad(sb, "location", pw);
	pad(sb, "file system", 20);
	pad(sb, "method", 10);
	pad(sb, "write", 13);
	pad(sb, "read", 13);
	sb_add(sb, "small files\n");
	bool foot_cache = false, foot_time = false;
	for (size_t i = 0; i < n; i++) {
		const struct bench_io_loc *l = &locs[i];
		pad(sb, l->path, pw);
		if (l->state != BENCH_LOC_DONE) {
			const char *what = l->state == BENCH_LOC_SKIPPED ? "skipped" : "failed";
			struct strbuf e = STRBUF_INIT;
			text_sanitize(&e, l->error ? l->error : "");
			sb_addf(sb, "%s%s: %s%s\n", l->state == BENCH_LOC_SKIPPED ? dim(o) : "", what,
				e.buf, l->state == BENCH_LOC_SKIPPED ? reset(o) : "");
			sb_release(&e);
			continue;
		}
		sb_reset(&a);
		fs_label(&a, l);
		pad(sb, a.buf, 20);
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
			sb_add(&a, "†");
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
		sb_add(sb, "  * stopped at the time bound (--seconds) before all of --size\n");
	if (foot_cache)
		sb_add(sb, "  † the page cache kept the file despite FADV_DONTNEED (tmpfs keeps "
			   "files in memory): this is memory speed, not disk speed\n");

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
		pad(sb, "location", pw);
		for (int k = 0; k < BENCH_OP__COUNT; k++)
			pad(sb, bench_op_names[k], 20);
		sb_rtrim(sb);
		sb_addc(sb, '\n');
		for (size_t i = 0; i < n; i++) {
			const struct bench_io_loc *l = &locs[i];
			if (l->state != BENCH_LOC_DONE || !l->files_created)
				continue;
			pad(sb, l->path, pw);
			for (int k = 0; k < BENCH_OP__COUNT; k++) {
				sb_reset(&a);
				put_us(&a, l->op[k].median_us);
				sb_add(&a, " / ");
				put_us(&a, l->op[k].p99_us);
				pad(sb, a.buf, 20);
			}
			sb_rtrim(sb);
			sb_addc(sb, '\n');
		}
		sb_add(sb, "\nsmall files per second (create + stat + read + delete)\n");
		for (size_t i = 0; i < n; i++) {
			const struct bench_io_loc *l = &locs[i];
			if (l->state != BENCH_LOC_DONE || !l->files_created)
				continue;
			pad(sb, l->path, pw);
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
	struct strbuf a = STRBUF_INIT;
	char ver[16];
	sb_add(sb, "GPU path: ");
	if (g->name[0]) {
		bench_format_size(&a, g->total_mem);
		pad(sb, g->name, 0);
		sb_addf(sb, "(GPU %d, compute %d.%d, %s)", g->device, g->cc_major, g->cc_minor,
			a.buf);
	} else {
		sb_add(sb, "no device reached");
	}
	if (g->driver_version > 0)
		sb_addf(sb, ", driver for CUDA %s", cuda_version_str(g->driver_version, ver, sizeof ver));
	sb_addc(sb, '\n');
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
	else if (g->name[0] && g->pcie_note[0])
		sb_addf(sb, "  PCIe     unknown (%s)\n", g->pcie_note);
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
		if (g->sync_launches)
			sb_addf(sb, "  round trip, launch + cuCtxSynchronize: median %.1f µs, p99 %.1f µs "
				    "(%u launches)\n",
				g->sync_median_us, g->sync_p99_us, g->sync_launches);
		if (g->stream_launches)
			sb_addf(sb, "  back-to-back, %u launches then one sync: %.1f µs each (%.0f/s)\n",
				g->stream_launches, g->stream_us_per_launch, g->stream_launches_per_s);
	}
	sb_addc(sb, '\n');
	put_findings(sb, o, v);
	sb_release(&a);
}

/* ---- JSON ---- */

static void jnum(struct strbuf *sb, double v)
{
	if (isnan(v) || isinf(v))
		sb_add(sb, "null");
	else
		sb_addf(sb, "%.6g", v);
}

static void jstr_or_null(struct strbuf *sb, const char *s)
{
	if (s && *s)
		json_str(sb, s);
	else
		sb_add(sb, "null");
}

static void jkey(struct strbuf *sb, const char *k)
{
	json_str(sb, k);
	sb_addc(sb, ':');
}

static void json_verdict(struct strbuf *sb, const struct bench_verdict *v)
{
	sb_add(sb, "\"verdict\":{\"status\":");
	json_str(sb, status_name(v->status));
	sb_add(sb, ",\"summary\":");
	json_str(sb, v->summary ? v->summary : "");
	if (v->fastest) {
		sb_add(sb, ",\"fastest\":");
		json_str(sb, v->fastest);
	}
	sb_add(sb, ",\"findings\":[");
	for (size_t i = 0; i < v->n; i++) {
		const struct result *r = &v->findings[i];
		if (i)
			sb_addc(sb, ',');
		sb_add(sb, "{\"status\":");
		json_str(sb, status_name(r->status));
		sb_add(sb, ",\"kb\":");
		jstr_or_null(sb, r->kb);
		sb_add(sb, ",\"detail\":");
		json_str(sb, r->detail ? r->detail : "");
		const struct kb_entry *e = kb_find(r->kb);
		sb_add(sb, ",\"fix\":[");
		for (size_t k = 0; e && k < e->fix.n; k++) {
			struct strbuf t = STRBUF_INIT;
			kb_expand_fix(e->fix.v[k], r, &t);
			if (k)
				sb_addc(sb, ',');
			json_str(sb, t.buf);
			sb_release(&t);
		}
		sb_add(sb, "],\"evidence\":{");
		for (size_t k = 0; k < r->nev; k++) {
			if (k)
				sb_addc(sb, ',');
			jkey(sb, r->ev[k].key);
			json_str(sb, r->ev[k].val);
		}
		sb_add(sb, "}}");
	}
	sb_add(sb, "]}");
}

void bench_json_begin(struct strbuf *sb)
{
	sb_add(sb, "{\"schema\":\"wslgpu/bench/1\"");
}

void bench_json_end(struct strbuf *sb)
{
	sb_add(sb, "}\n");
}

static void json_seq(struct strbuf *sb, const char *k, const struct bench_seq *s)
{
	jkey(sb, k);
	sb_addf(sb, "{\"bytes\":%llu,\"seconds\":", (unsigned long long)s->bytes);
	jnum(sb, s->seconds);
	sb_add(sb, ",\"bytes_per_s\":");
	jnum(sb, s->bytes_per_s);
	sb_addf(sb, ",\"time_bound\":%s}", s->time_bound ? "true" : "false");
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

void bench_json_io(struct strbuf *sb, const struct bench_io_params *p,
		   const struct bench_io_loc *locs, size_t n, const struct bench_verdict *v)
{
	sb_addf(sb, ",\"io\":{\"params\":{\"size_bytes\":%llu,\"block_bytes\":%llu,\"files\":%u,"
		    "\"file_size_bytes\":%llu,\"seconds\":",
		(unsigned long long)p->size, (unsigned long long)p->block, p->files,
		(unsigned long long)p->file_size);
	jnum(sb, p->seconds);
	sb_add(sb, "},\"locations\":[");
	for (size_t i = 0; i < n; i++) {
		const struct bench_io_loc *l = &locs[i];
		if (i)
			sb_addc(sb, ',');
		sb_add(sb, "{\"path\":");
		json_str(sb, l->path);
		sb_add(sb, ",\"resolved\":");
		jstr_or_null(sb, l->resolved);
		sb_addf(sb, ",\"named\":%s,\"role\":", l->named ? "true" : "false");
		jstr_or_null(sb, l->role);
		sb_add(sb, ",\"status\":");
		json_str(sb, state_name(l->state));
		sb_add(sb, ",\"error\":");
		jstr_or_null(sb, l->error);
		sb_add(sb, ",\"kb\":");
		jstr_or_null(sb, l->kb);
		sb_add(sb, ",\"fstype\":");
		jstr_or_null(sb, l->fstype);
		sb_add(sb, ",\"source\":");
		jstr_or_null(sb, l->source);
		sb_add(sb, ",\"mount_point\":");
		jstr_or_null(sb, l->mount_point);
		sb_addf(sb, ",\"windows_drive\":%s,\"free_bytes\":%llu,\"need_bytes\":%llu",
			l->windows_drive ? "true" : "false", (unsigned long long)l->free_bytes,
			(unsigned long long)l->need_bytes);
		if (l->state == BENCH_LOC_DONE) {
			sb_add(sb, ",\"method\":");
			jstr_or_null(sb, l->method);
			sb_addf(sb, ",\"direct\":%s,\"cache_resident_pct\":", l->direct ? "true" : "false");
			if (l->cache_resident_pct >= 0)
				sb_addf(sb, "%d", l->cache_resident_pct);
			else
				sb_add(sb, "null");
			sb_addc(sb, ',');
			json_seq(sb, "write", &l->write);
			sb_addc(sb, ',');
			json_seq(sb, "read", &l->read);
			sb_addf(sb, ",\"small_files\":{\"files\":%u,\"file_size_bytes\":%llu,"
				    "\"per_file_us\":",
				l->files_created, (unsigned long long)p->file_size);
			jnum(sb, l->per_file_us);
			sb_add(sb, ",\"ops\":{");
			for (int k = 0; k < BENCH_OP__COUNT; k++) {
				const struct bench_opstats *s = &l->op[k];
				if (k)
					sb_addc(sb, ',');
				jkey(sb, bench_op_names[k]);
				sb_addf(sb, "{\"ops\":%zu,\"seconds\":", s->ops);
				jnum(sb, s->seconds);
				sb_add(sb, ",\"ops_per_s\":");
				jnum(sb, s->ops_per_s);
				sb_add(sb, ",\"median_us\":");
				jnum(sb, s->median_us);
				sb_add(sb, ",\"p99_us\":");
				jnum(sb, s->p99_us);
				sb_add(sb, ",\"mean_us\":");
				jnum(sb, s->mean_us);
				sb_addc(sb, '}');
			}
			sb_add(sb, "}}");
		}
		sb_addc(sb, '}');
	}
	sb_add(sb, "],");
	json_verdict(sb, v);
	sb_addc(sb, '}');
}

void bench_json_gpu(struct strbuf *sb, const struct bench_gpu *g, const struct bench_verdict *v)
{
	char ver[16];
	sb_addf(sb, ",\"gpu\":{\"status\":\"%s\",\"error\":", g->error[0] ? "error" : "ok");
	if (g->error[0]) {
		sb_add(sb, "{\"message\":");
		json_str(sb, g->error);
		sb_add(sb, ",\"kb\":");
		jstr_or_null(sb, g->error_kb);
		sb_add(sb, ",\"call\":");
		jstr_or_null(sb, g->failed_call);
		sb_addf(sb, ",\"code\":%d,\"during\":", g->failed_code);
		jstr_or_null(sb, g->step);
		sb_addc(sb, '}');
	} else {
		sb_add(sb, "null");
	}
	sb_add(sb, ",\"library\":");
	jstr_or_null(sb, g->library);
	sb_add(sb, ",\"driver_cuda_version\":");
	cuda_version_str(g->driver_version, ver, sizeof ver);
	if (strcmp(ver, "unknown"))
		json_str(sb, ver);
	else
		sb_add(sb, "null");
	sb_add(sb, ",\"device\":");
	if (g->name[0]) {
		sb_addf(sb, "{\"index\":%d,\"name\":", g->device);
		json_str(sb, g->name);
		sb_addf(sb, ",\"compute_capability\":\"%d.%d\",\"total_mem_bytes\":%llu}",
			g->cc_major, g->cc_minor, (unsigned long long)g->total_mem);
	} else {
		sb_add(sb, "null");
	}
	double theo = bench_pcie_bytes_per_s(g->pcie_gen, g->pcie_width);
	sb_add(sb, ",\"pcie\":{\"gen\":");
	if (g->pcie_gen > 0)
		sb_addf(sb, "%d", g->pcie_gen);
	else
		sb_add(sb, "null");
	sb_add(sb, ",\"width\":");
	if (g->pcie_width > 0)
		sb_addf(sb, "%d", g->pcie_width);
	else
		sb_add(sb, "null");
	sb_add(sb, ",\"theoretical_bytes_per_s\":");
	if (theo > 0)
		jnum(sb, theo);
	else
		sb_add(sb, "null");
	sb_add(sb, ",\"note\":");
	jstr_or_null(sb, g->pcie_note);
	sb_add(sb, "},\"copies\":[");
	bool first = true;
	for (int c = 0; c < BENCH_COPY__COUNT; c++)
		for (size_t i = 0; i < g->nsizes; i++) {
			const struct bench_gpu_point *pt = &g->copy[c][i];
			if (!pt->measured)
				continue;
			if (!first)
				sb_addc(sb, ',');
			first = false;
			sb_addf(sb, "{\"kind\":\"%s\",\"size_bytes\":%llu,\"reps\":%u,\"seconds\":",
				bench_copy_names[c], (unsigned long long)pt->size, pt->reps);
			jnum(sb, pt->seconds);
			sb_add(sb, ",\"bytes_per_s\":");
			jnum(sb, pt->bytes_per_s);
			sb_addf(sb, ",\"verified\":%s}", pt->verified ? "true" : "false");
		}
	sb_add(sb, "],\"pinned_alloc_failed_bytes\":");
	if (g->pinned_failed_size)
		sb_addf(sb, "%llu", (unsigned long long)g->pinned_failed_size);
	else
		sb_add(sb, "null");
	sb_add(sb, ",\"pinned_error\":");
	jstr_or_null(sb, g->pinned_error);
	sb_addf(sb, ",\"launch\":{\"kernel\":\"wslgpu_empty\",\"sync\":{\"launches\":%u,\"median_us\":",
		g->sync_launches);
	jnum(sb, g->sync_median_us);
	sb_add(sb, ",\"p99_us\":");
	jnum(sb, g->sync_p99_us);
	sb_addf(sb, "},\"back_to_back\":{\"launches\":%u,\"us_per_launch\":", g->stream_launches);
	jnum(sb, g->stream_us_per_launch);
	sb_add(sb, ",\"launches_per_s\":");
	jnum(sb, g->stream_launches_per_s);
	sb_addf(sb, "}},\"method\":{\"timing\":\"CUDA events (copies, back-to-back launches), "
		    "monotonic clock (round trips)\",\"warmup_copies\":%u,\"warmup_launches\":%u,"
		    "\"verified_copies\":%u,\"allocations\":%u,\"frees\":%u},",
		g->warmup_copies, g->warmup_launches, g->verified_copies, g->allocations, g->frees);
	json_verdict(sb, v);
	sb_addc(sb, '}');
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
	jnum(sb, value);
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
