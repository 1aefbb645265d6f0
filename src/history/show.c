/*
 * show.c: `wslgpu history` output -- the table of runs, the changes
 * between them, and both as JSON (wslgpu/history/1,
 * wslgpu/history-changes/1). Everything printed from the database passes
 * through text_sanitize or json_str: the file is input like any other.
 */
#include "history.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../core/json.h"
#include "../core/text.h"
#include "../kb/kb.h"
#include "../report/finding.h"

static const char *const wdays[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
				      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

/* history_human_time with now's year (tm_year) known: a table converts
 * now once, not once a row. */
/* n in decimal, at least width digits (0-padded), in d; returns where it
 * begins there. By hand, not printf: a table of 100,000 runs formats a
 * million of these. */
static const char *num_text(long long n, int width, char d[24])
{
	int i = 23;
	d[i] = '\0';
	bool neg = n < 0;
	unsigned long long u = neg ? 0ULL - (unsigned long long)n : (unsigned long long)n;
	do {
		d[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u && i > 1);
	while (23 - i < width && i > 1)
		d[--i] = '0';
	if (neg)
		d[--i] = '-';
	return d + i;
}

static void add_num(struct strbuf *out, long long n, int width)
{
	char d[24];
	sb_add(out, num_text(n, width, d));
}

static void human_time(time_t t, int now_year, struct strbuf *out)
{
	struct tm tm;
	localtime_r(&t, &tm);
	/* English names whatever the locale: the output is also read by
	 * scripts and pasted into tickets. */
	sb_add(out, wdays[tm.tm_wday % 7]);
	sb_addc(out, ' ');
	add_num(out, tm.tm_mday, 1);
	sb_addc(out, ' ');
	sb_add(out, months[tm.tm_mon % 12]);
	if (tm.tm_year != now_year) {
		sb_addc(out, ' ');
		add_num(out, tm.tm_year + 1900LL, 1);
	}
	sb_addc(out, ' ');
	add_num(out, tm.tm_hour, 2);
	sb_addc(out, ':');
	add_num(out, tm.tm_min, 2);
}

static int year_of(time_t t)
{
	struct tm tm;
	localtime_r(&t, &tm);
	return tm.tm_year;
}

void history_human_time(time_t t, time_t now, struct strbuf *out)
{
	human_time(t, year_of(now), out);
}

static const char *verdict_mark(const char *v)
{
	return !strcmp(v, "ok")	    ? status_mark(ST_PASS)
	       : !strcmp(v, "warn") ? status_mark(ST_WARN)
	       : !strcmp(v, "fail") ? status_mark(ST_FAIL)
				    : "?";
}


/* Text from the database on one line: sanitised, newlines and tabs as spaces. */
static void add_clean(struct strbuf *out, const char *s)
{
	size_t at = out->len;
	text_sanitize(out, s ? s : "");
	for (size_t i = at; i < out->len; i++)
		if (out->buf[i] == '\n' || out->buf[i] == '\t')
			out->buf[i] = ' ';
}

static size_t count_machines(const struct history_runs *runs)
{
	size_t n = 0;
	for (size_t i = 0; i < runs->n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(runs->v[j].machine, runs->v[i].machine);
		n += !seen;
	}
	return n;
}

static const char *platform_of(const struct history_run *r)
{
	return history_run_fact(r, "platform");
}

/* ---- runs, from memory or streamed from the database ---- */

struct seq {
	const struct history_runs *runs; /* in memory, or NULL: */
	struct history_reader *r;        /* the database */
	const struct history_query *q;
	struct strbuf *err;
	struct history_counts c;
};

static void seq_of_runs(struct seq *s, const struct history_runs *runs)
{
	memset(s, 0, sizeof *s);
	s->runs = runs;
	s->c.runs = runs->n;
	s->c.machines = count_machines(runs);
	s->c.total = runs->total > runs->n ? runs->total : runs->n;
	s->c.total_machines = runs->total_machines > s->c.machines ? runs->total_machines
								    : s->c.machines;
}

static int seq_of_db(struct seq *s, struct history_reader *r, const struct history_query *q,
		     struct strbuf *err)
{
	memset(s, 0, sizeof *s);
	s->r = r;
	s->q = q;
	s->err = err;
	return history_count(r, q, &s->c, err);
}

static int seq_each(struct seq *s, history_run_fn fn, void *arg)
{
	if (!s->runs)
		return history_each(s->r, s->q, fn, arg, s->err);
	for (size_t i = 0; i < s->runs->n; i++) {
		int rc = fn(&s->runs->v[i], arg);
		if (rc)
			return rc;
	}
	return 0;
}

/* "3 runs of 2 machines"; when the limit left runs out, says so: "the
 * latest 20 of 41 runs (--limit 0 for all), of 1 machine (2 in all)". */
static void runs_phrase(struct strbuf *sb, const struct history_counts *c, bool capital)
{
	if (c->runs >= c->total) {
		sb_addf(sb, "%zu run%s of %zu machine%s", c->runs, c->runs == 1 ? "" : "s",
			c->machines, c->machines == 1 ? "" : "s");
		return;
	}
	sb_addf(sb, "%s latest %zu of %zu runs (--limit 0 for all), of %zu machine%s",
		capital ? "The" : "the", c->runs, c->total, c->machines,
		c->machines == 1 ? "" : "s");
	if (c->total_machines > c->machines)
		sb_addf(sb, " (%zu in all)", c->total_machines);
}

static void no_runs(FILE *f, const char *db_path)
{
	fprintf(f, "No runs recorded yet in %s.\nRecord one with: wslgpu smoke --record\n", db_path);
}

/* ---- the table of runs ---- */

/* A cell's text from the database, cleaned once (add_clean) and kept: the
 * same machines, verdicts, drivers and kernels come back row after row. */
struct cleaned {
	char *raw;
	struct strbuf text;
	int width;
};
#define CLEAN_CACHE 16

struct table {
	FILE *f;
	int now_year;
	size_t wid, wwhen, wprob, wdrv, wkern;
	bool kernel_below, problems_below; /* too wide for the terminal */
	bool header;                       /* printed */
	int cols;
	struct cleaned cache[CLEAN_CACHE];
	unsigned next;
	struct strbuf line, below, when, prob; /* reused row after row */
};

static const struct cleaned *clean(struct table *t, const char *raw)
{
	for (size_t i = 0; i < CLEAN_CACHE; i++)
		if (t->cache[i].raw && !strcmp(t->cache[i].raw, raw))
			return &t->cache[i];
	struct cleaned *c = &t->cache[t->next++ % CLEAN_CACHE];
	free(c->raw);
	c->raw = xstrdup(raw);
	sb_reset(&c->text);
	add_clean(&c->text, raw);
	c->width = text_width(sb_str(&c->text));
	return c;
}

static void table_release(struct table *t)
{
	for (size_t i = 0; i < CLEAN_CACHE; i++) {
		free(t->cache[i].raw);
		sb_release(&t->cache[i].text);
	}
	sb_release(&t->line);
	sb_release(&t->below);
	sb_release(&t->when);
	sb_release(&t->prob);
}

/* The failing checks, else the warning ones, at most three named. */
static void table_problems(struct table *t, const struct history_row *r)
{
	const char *const *ids = r->nfailing ? r->failing : r->warning;
	size_t n = r->nfailing ? r->nfailing : r->nwarning;
	sb_reset(&t->prob);
	for (size_t i = 0; i < n && i < 3; i++) {
		if (i)
			sb_addc(&t->prob, ',');
		sb_add(&t->prob, sb_str(&clean(t, ids[i])->text));
	}
	if (n > 3) {
		sb_add(&t->prob, " +");
		add_num(&t->prob, (long long)(n - 3), 1);
	}
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

static size_t digits_of(long long v)
{
	size_t n = 1 + (v < 0);
	for (; v >= 10 || v <= -10; v /= 10)
		n++;
	return n;
}

static void measure_row(struct table *t, const struct history_row *r)
{
	/* human_time's length: "Mon 3 Nov 09:00", " 2024" in another year. */
	struct tm tm;
	localtime_r(&r->when, &tm);
	size_t when = 3 + 1 + digits_of(tm.tm_mday) + 1 + 3 + 6;
	if (tm.tm_year != t->now_year)
		when += 1 + digits_of(tm.tm_year + 1900LL);
	table_problems(t, r);
	t->wid = max_size(t->wid, digits_of(r->id));
	t->wwhen = max_size(t->wwhen, when);
	t->wprob = max_size(t->wprob, t->prob.len);
	t->wdrv = max_size(t->wdrv, r->driver ? clean(t, r->driver)->text.len : 1);
	t->wkern = max_size(t->wkern, r->kernel ? (size_t)clean(t, r->kernel)->width : 1);
}

/* The layout, from the measured widths, and the header line. */
static void table_header(struct table *t)
{
	/* The kernel, last and the longest, and then the problems go on a
	 * line under their run when the table would not fit the terminal. */
	size_t fixed = t->wid + 2 + t->wwhen + 2 + 16 + 2 + 9;
	t->cols = text_columns();
	t->kernel_below = (int)(fixed + t->wprob + 2 + t->wdrv + 2 + t->wkern) > t->cols;
	t->problems_below = t->kernel_below && (int)(fixed + t->wprob + 2 + t->wdrv) > t->cols;
	fprintf(t->f, "%*s  %-*s  %-16s  %-8s ", (int)t->wid, "run", (int)t->wwhen, "when",
		"machine", "verdict");
	if (!t->problems_below)
		fprintf(t->f, "%-*s  ", (int)t->wprob, "problems");
	fprintf(t->f, "%-*s%s\n", (int)t->wdrv, "driver", t->kernel_below ? "" : "  kernel");
	t->header = true;
}

static void add_spaces(struct strbuf *sb, size_t n)
{
	static const char spaces[] = "                                ";
	for (; n > sizeof spaces - 1; n -= sizeof spaces - 1)
		sb_addn(sb, spaces, sizeof spaces - 1);
	sb_addn(sb, spaces, n);
}

/* s padded with spaces to width bytes (printf's %-*s), or right-aligned. */
static void add_cell(struct strbuf *sb, const char *s, size_t width, bool right)
{
	size_t n = strlen(s);
	if (right && n < width)
		add_spaces(sb, width - n);
	sb_addn(sb, s, n);
	if (!right && n < width)
		add_spaces(sb, width - n);
}

static void print_row(struct table *t, const struct history_row *r)
{
	struct strbuf *l = &t->line, *below = &t->below;
	sb_reset(l);
	sb_reset(below);
	sb_reset(&t->when);
	human_time(r->when, t->now_year, &t->when);
	table_problems(t, r);
	char id[24];
	add_cell(l, num_text(r->id, 1, id), t->wid, true);
	sb_add(l, "  ");
	add_cell(l, t->when.buf, t->wwhen, false);
	sb_add(l, "  ");
	add_cell(l, sb_str(&clean(t, r->machine)->text), 16, false);
	sb_add(l, "  ");
	sb_add(l, verdict_mark(r->verdict));
	sb_addc(l, ' ');
	add_cell(l, sb_str(&clean(t, r->verdict)->text), 6, false);
	sb_addc(l, ' ');
	if (!t->problems_below) {
		add_cell(l, t->prob.len ? t->prob.buf : "-", t->wprob, false);
		sb_add(l, "  ");
	}
	const char *drv = r->driver ? sb_str(&clean(t, r->driver)->text) : "-";
	const struct cleaned *kernel = r->kernel ? clean(t, r->kernel) : NULL;
	add_cell(l, drv, t->kernel_below ? 0 : t->wdrv, false);
	int below_width = 0; /* known from its parts, not measured again */
	if (t->problems_below && t->prob.len) {
		add_spaces(below, t->wid + 2);
		sb_add(below, "problems ");
		sb_addn(below, t->prob.buf, t->prob.len);
		sb_add(below, "  ");
		below_width = (int)t->wid + 2 + 9 + text_width(t->prob.buf) + 2;
	}
	if (t->kernel_below) {
		if (!below->len) {
			add_spaces(below, t->wid + 2);
			below_width = (int)t->wid + 2;
		}
		sb_add(below, "kernel ");
		sb_add(below, kernel ? sb_str(&kernel->text) : "-");
		below_width += 7 + (kernel ? kernel->width : 1);
	} else {
		sb_add(l, "  ");
		sb_add(l, kernel ? sb_str(&kernel->text) : "-");
	}
	sb_addc(l, '\n');
	fwrite(l->buf, 1, l->len, t->f);
	if (!below->len)
		return;
	/* Wrapped only when it does not fit (text_print_line would leave a
	 * line that fits as it is). */
	if (below_width <= t->cols) {
		sb_addc(below, '\n');
		fwrite(below->buf, 1, below->len, t->f);
	} else {
		text_print_line(t->f, below->buf, (int)t->wid + 2, 0);
	}
}

/* Pass 0 measures the columns, pass 1 prints the rows. */
static int table_row(const struct history_row *r, int pass, void *arg)
{
	struct table *t = arg;
	if (pass == 0) {
		measure_row(t, r);
		return 0;
	}
	if (!t->header)
		table_header(t);
	print_row(t, r);
	return 0;
}

static int print_runs_text(FILE *f, const char *db_path, struct seq *s)
{
	if (!s->c.runs) {
		no_runs(f, db_path);
		return 0;
	}
	struct table t = { .f = f, .now_year = year_of(time(NULL)), .wid = 3, .wwhen = 4, .wprob = 8,
			   .wdrv = 6, .wkern = 6 };
	if (s->runs) {
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < s->runs->n; i++) {
				struct history_row row;
				history_row_of_run(&s->runs->v[i], &row);
				table_row(&row, pass, &t);
			}
	} else if (history_each_row(s->r, s->q, 2, table_row, &t, s->err) < 0) {
		table_release(&t);
		return -1;
	}
	if (!t.header)
		table_header(&t); /* runs counted, none read (the database changed?) */
	table_release(&t);
	struct strbuf foot = STRBUF_INIT;
	runs_phrase(&foot, &s->c, true);
	sb_add(&foot, " in ");
	add_clean(&foot, db_path);
	sb_add(&foot, ". What changed: wslgpu history --changes");
	fputc('\n', f);
	text_print_line(f, foot.buf, 2, 0);
	sb_release(&foot);
	return 0;
}

static void json_run_ref(struct json_writer *jw, const char *key, const struct history_run *r)
{
	jw_kv_object(jw, key);
	jw_kv_int(jw, "id", r->id);
	jw_kv_str(jw, "started_at", r->started_at);
	jw_end(jw);
}

/* A JSON document written as it goes: whatever is complete is flushed. */
struct jstream {
	FILE *f;
	struct strbuf sb;
	struct json_writer jw;
};

static void js_init(struct jstream *js, FILE *f)
{
	js->f = f;
	sb_init(&js->sb);
	jw_init(&js->jw, &js->sb);
}

static void js_flush(struct jstream *js)
{
	if (js->sb.len)
		fwrite(js->sb.buf, 1, js->sb.len, js->f);
	sb_reset(&js->sb);
}

static void js_finish(struct jstream *js)
{
	sb_addc(&js->sb, '\n');
	js_flush(js);
	sb_release(&js->sb);
}

static void json_totals(struct json_writer *jw, const struct history_counts *c)
{
	/* What the filters match, the limit left out: "runs" may be fewer. */
	jw_kv_object(jw, "total");
	jw_kv_uint(jw, "runs", c->total);
	jw_kv_uint(jw, "machines", c->total_machines);
	jw_end(jw);
}

static int json_run(const struct history_run *r, void *arg)
{
	struct jstream *js = arg;
	struct json_writer *jw = &js->jw;
	jw_object_begin(jw);
	jw_kv_int(jw, "id", r->id);
	jw_kv_str(jw, "started_at", r->started_at);
	jw_kv_fixed(jw, "duration_ms", 1, r->duration_ms);
	jw_kv_str(jw, "command", r->command);
	jw_kv_int(jw, "exit_status", r->exit_status);
	jw_kv_str(jw, "machine", r->machine);
	jw_kv_str(jw, "tool_version", r->tool_version);
	jw_kv_str(jw, "policy", r->policy_path);
	jw_kv_str(jw, "verdict", r->verdict);
	jw_kv_str(jw, "first_failure", r->first_failure);
	jw_kv_array(jw, "failing");
	for (size_t c = 0; c < r->nchecks; c++)
		if (status_name_is_failure(r->checks[c].status))
			jw_str(jw, r->checks[c].id);
	jw_end(jw);
	jw_kv_object(jw, "facts");
	for (size_t k = 0; k < r->nfacts; k++)
		jw_kv_str(jw, r->facts[k].key, r->facts[k].val);
	jw_end(jw);
	jw_kv_array(jw, "checks");
	for (size_t c = 0; c < r->nchecks; c++) {
		const struct history_check *k = &r->checks[c];
		jw_object_begin(jw);
		jw_kv_str(jw, "id", k->id);
		jw_kv_str(jw, "status", k->status);
		jw_kv_str(jw, "kb", k->kb);
		jw_kv_str(jw, "detail", k->detail);
		jw_end(jw);
	}
	jw_end(jw);
	jw_end(jw);
	js_flush(js);
	return 0;
}

static int print_runs_json(FILE *f, const char *db_path, struct seq *s)
{
	struct jstream js;
	js_init(&js, f);
	jw_object_begin(&js.jw);
	jw_kv_str(&js.jw, "schema", "wslgpu/history/1");
	jw_kv_str(&js.jw, "db", db_path);
	json_totals(&js.jw, &s->c);
	jw_kv_array(&js.jw, "runs");
	int rc = seq_each(s, json_run, &js);
	/* A failure part-way still ends the document; the caller says why. */
	jw_end(&js.jw);
	jw_end(&js.jw);
	js_finish(&js);
	return rc < 0 ? -1 : 0;
}

void history_print_runs(FILE *f, const char *db_path, const struct history_runs *runs, bool json)
{
	struct seq s;
	seq_of_runs(&s, runs);
	if (json)
		print_runs_json(f, db_path, &s);
	else
		print_runs_text(f, db_path, &s);
}

int history_stream_runs(FILE *f, const char *db_path, struct history_reader *r,
			const struct history_query *q, bool json, struct strbuf *err)
{
	struct seq s;
	if (seq_of_db(&s, r, q, err) < 0)
		return -1;
	return json ? print_runs_json(f, db_path, &s) : print_runs_text(f, db_path, &s);
}

/* ---- changes ---- */

static const char *change_mark(const struct history_change *c)
{
	static const struct {
		const char *how;
		enum status mark;
	} marks[] = {
		{ "downgrade", ST_WARN }, { "broke", ST_FAIL }, { "warns", ST_WARN },
		{ "cause", ST_WARN },     { "fixed", ST_PASS }, { "skipped", ST_SKIP },
		{ "unverified", ST_UNKNOWN },
	};
	for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
		if (!strcmp(marks[i].how, c->how))
			return status_mark(marks[i].mark);
	return text_glyph("·", "*");
}

static const char *how_words(const char *how)
{
	static const struct {
		const char *how, *words;
	} words[] = {
		{ "downgrade", "a downgrade" }, { "upgrade", "an upgrade" },
		{ "added", "new" },            { "removed", "no longer found" },
		{ "broke", "broke" },          { "fixed", "fixed" },
		{ "warns", "now warns" },      { "cause", "another cause" },
		{ "skipped", "no longer runs (an earlier check fails)" },
		{ "unverified", "can no longer be verified" },
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(words[i].how, how))
			return words[i].words;
	return "changed";
}

/* {old}, {new} and {what} for the KB text of a fact change. */
static void change_evidence(const struct history_change *c, const char *label,
			    struct evidence *ev)
{
	ev_add(ev, "old", "%s", c->old ? c->old : "(none)");
	ev_add(ev, "new", "%s", c->new ? c->new : "(none)");
	ev_add(ev, "what", "%s", label);
}

/* platform: the kind the later run recorded; its fix lines are chosen for
 * it (finding_for_platform), as check chose them on that run. */
static void put_finding(FILE *f, const struct kb_entry *e, const struct evidence *ev,
			unsigned what, const char *platform)
{
	struct finding_view v;
	struct strbuf sb = STRBUF_INIT;
	finding_expand(&v, e, ev, NULL);
	finding_for_platform(&v, kb_platform_kind(platform));
	finding_text(&sb, &v, 6, what);
	fputs(sb.buf, f);
	sb_release(&sb);
	finding_view_release(&v);
}

static void print_change_text(FILE *f, const struct history_transition *t,
			      const struct history_change *c)
{
	const char *label = c->is_check ? c->key : history_fact_label(c->key, platform_of(t->to));
	const struct kb_entry *e = kb_find(c->kb);
	struct strbuf l = STRBUF_INIT;
	const char *arrow = text_glyph("→", "->"), *dash = text_glyph("—", "-");
	sb_addf(&l, "  %s ", change_mark(c));
	add_clean(&l, label);
	sb_addc(&l, ' ');
	add_clean(&l, c->old ? c->old : "(none)");
	sb_addf(&l, " %s ", arrow);
	add_clean(&l, c->new ? c->new : "(none)");
	sb_addf(&l, ": %s", how_words(c->how));
	if (c->is_check) {
		if (c->detail && *c->detail && strcmp(c->how, "skipped") != 0) {
			sb_addf(&l, " %s ", dash);
			add_clean(&l, c->detail);
		}
		text_print_line(f, l.buf, 4, 0);
		sb_release(&l);
		/* The old problem's entry is no explanation of a check that
		 * no longer runs or can no longer tell. */
		if (e && strcmp(c->how, "skipped") != 0 && strcmp(c->how, "unverified") != 0)
			put_finding(f, e, NULL, FT_MORE, NULL);
		return;
	}
	if (e && e->title) {
		/* "a downgrade — a Windows update may have reinstalled...": the
		 * title reads as the second half of the sentence. */
		sb_addf(&l, " %s ", dash);
		bool acronym = e->title[0] && isupper((unsigned char)e->title[1]);
		sb_addc(&l, acronym ? e->title[0] : (char)tolower((unsigned char)e->title[0]));
		add_clean(&l, e->title + 1);
	}
	text_print_line(f, l.buf, 4, 0);
	sb_release(&l);
	if (!e)
		return;
	/* A downgrade is the regression this command exists for: say why and
	 * what to do; any other change points at its entry. */
	if (!strcmp(c->how, "downgrade")) {
		struct evidence ev = EVIDENCE_INIT;
		change_evidence(c, label, &ev);
		put_finding(f, e, &ev, FT_CAUSE | FT_FIXES, platform_of(t->to));
		ev_release(&ev);
	} else {
		put_finding(f, e, NULL, FT_MORE, NULL);
	}
}

/* Changes as they are found: the first transition, the next ones, the end. */
struct changes_out {
	FILE *f;
	bool json;
	struct jstream js;
	time_t now;
	size_t transitions, changes;
};

static void changes_begin(struct changes_out *o, FILE *f, bool json, const char *db_path,
			  const struct history_counts *c)
{
	memset(o, 0, sizeof *o);
	o->f = f;
	o->json = json;
	o->now = time(NULL);
	if (!json)
		return;
	js_init(&o->js, f);
	struct json_writer *jw = &o->js.jw;
	jw_object_begin(jw);
	jw_kv_str(jw, "schema", "wslgpu/history-changes/1");
	jw_kv_str(jw, "db", db_path);
	jw_kv_uint(jw, "runs", c->runs);
	jw_kv_uint(jw, "machines", c->machines);
	json_totals(jw, c);
	jw_kv_array(jw, "transitions");
}

static void changes_one(struct changes_out *o, const struct history_transition *t)
{
	if (!t->n)
		return;
	if (o->json) {
		struct json_writer *jw = &o->js.jw;
		jw_object_begin(jw);
		jw_kv_str(jw, "machine", t->to->machine);
		json_run_ref(jw, "from", t->from);
		json_run_ref(jw, "to", t->to);
		jw_kv_array(jw, "changes");
		for (size_t c = 0; c < t->n; c++) {
			const struct history_change *x = &t->v[c];
			const struct kb_entry *e = kb_find(x->kb);
			jw_object_begin(jw);
			jw_kv_str(jw, "kind", x->is_check ? "check" : "fact");
			jw_kv_str(jw, "key", x->key);
			jw_kv_str(jw, "label", x->is_check ? x->key
							   : history_fact_label(x->key, platform_of(t->to)));
			jw_kv_str(jw, "old", x->old);
			jw_kv_str(jw, "new", x->new);
			jw_kv_str(jw, "how", x->how);
			jw_kv_str(jw, "kb", e ? e->id : x->kb);
			jw_kv_str(jw, "title", e ? e->title : NULL);
			if (x->is_check)
				jw_kv_str(jw, "detail", x->detail);
			jw_end(jw);
		}
		jw_end(jw);
		jw_end(jw);
		js_flush(&o->js);
	} else {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		history_human_time(t->from->when, o->now, &a);
		history_human_time(t->to->when, o->now, &b);
		const char *arrow = text_glyph("→", "->");
		struct strbuf h = STRBUF_INIT;
		sb_addf(&h, "%s %s %s  (machine ", a.buf, arrow, b.buf);
		add_clean(&h, t->to->machine);
		sb_addf(&h, ", runs %lld %s %lld)", t->from->id, arrow, t->to->id);
		if (o->transitions)
			fputc('\n', o->f);
		text_print_line(o->f, h.buf, 2, 0);
		sb_release(&h);
		for (size_t c = 0; c < t->n; c++)
			print_change_text(o->f, t, &t->v[c]);
		sb_release(&a);
		sb_release(&b);
	}
	o->transitions++;
	o->changes += t->n;
}

static void changes_end(struct changes_out *o, const char *db_path, const struct history_counts *c)
{
	if (o->json) {
		jw_end(&o->js.jw);
		jw_end(&o->js.jw);
		js_finish(&o->js);
		return;
	}
	if (!c->runs) {
		no_runs(o->f, db_path);
		return;
	}
	struct strbuf phrase = STRBUF_INIT;
	runs_phrase(&phrase, c, false);
	if (!o->transitions)
		fprintf(o->f, "Nothing changed: %s in %s.\n", phrase.buf, db_path);
	else
		fprintf(o->f, "\n%zu change%s; %s in %s.\n", o->changes, o->changes == 1 ? "" : "s",
			phrase.buf, db_path);
	sb_release(&phrase);
}

void history_print_changes(FILE *f, const char *db_path, const struct history_runs *runs,
			   const struct history_changes *ch, bool json)
{
	struct seq s;
	seq_of_runs(&s, runs);
	struct changes_out o;
	changes_begin(&o, f, json, db_path, &s.c);
	for (size_t i = 0; i < ch->n; i++)
		changes_one(&o, &ch->v[i]);
	changes_end(&o, db_path, &s.c);
}

struct streaming {
	struct history_tracker tr;
	struct changes_out *o;
};

static int track_run(const struct history_run *run, void *arg)
{
	struct streaming *st = arg;
	struct history_transition t;
	if (history_track(&st->tr, run, &t))
		changes_one(st->o, &t);
	free(t.v);
	return 0;
}

int history_stream_changes(FILE *f, const char *db_path, struct history_reader *r,
			   const struct history_query *q, bool json, struct strbuf *err)
{
	struct seq s;
	if (seq_of_db(&s, r, q, err) < 0)
		return -1;
	struct changes_out o;
	changes_begin(&o, f, json, db_path, &s.c);
	struct streaming st = { HISTORY_TRACKER_INIT, &o };
	int rc = seq_each(&s, track_run, &st);
	history_tracker_release(&st.tr);
	changes_end(&o, db_path, &s.c);
	return rc < 0 ? -1 : 0;
}
