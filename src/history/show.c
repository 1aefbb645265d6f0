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

void history_human_time(time_t t, time_t now, struct strbuf *out)
{
	struct tm tm, tnow;
	localtime_r(&t, &tm);
	localtime_r(&now, &tnow);
	/* English names whatever the locale: the output is also read by
	 * scripts and pasted into tickets. */
	sb_addf(out, "%s %d %s", wdays[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12]);
	if (tm.tm_year != tnow.tm_year)
		sb_addf(out, " %d", tm.tm_year + 1900);
	sb_addf(out, " %02d:%02d", tm.tm_hour, tm.tm_min);
}

static const char *verdict_mark(const char *v)
{
	return !strcmp(v, "ok")	    ? status_mark(ST_PASS)
	       : !strcmp(v, "warn") ? status_mark(ST_WARN)
	       : !strcmp(v, "fail") ? status_mark(ST_FAIL)
				    : "?";
}

static bool failing(const char *s)
{
	return !strcmp(s, "fail") || !strcmp(s, "crash") || !strcmp(s, "timeout");
}

/* The failing checks, else the warning ones, at most three named. */
static void problems(const struct history_run *r, struct strbuf *out)
{
	for (int pass = 0; pass < 2 && !out->len; pass++) {
		size_t n = 0;
		for (size_t i = 0; i < r->nchecks; i++) {
			const char *s = r->checks[i].status;
			if (pass == 0 ? !failing(s) : strcmp(s, "warn") != 0)
				continue;
			if (n < 3)
				sb_addf(out, "%s%s", n ? "," : "", r->checks[i].id);
			n++;
		}
		if (n > 3)
			sb_addf(out, " +%zu", n - 3);
	}
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

static void put_clean(FILE *f, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	add_clean(&sb, s);
	fputs(sb_str(&sb), f);
	sb_release(&sb);
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

/* ---- the table of runs ---- */

struct row {
	struct strbuf when, problems;
	const char *driver, *kernel;
};

static void print_runs_text(FILE *f, const char *db_path, const struct history_runs *runs)
{
	if (!runs->n) {
		fprintf(f, "No runs recorded yet in %s.\nRecord one with: wslgpu smoke --record\n", db_path);
		return;
	}
	time_t now = time(NULL);
	struct row *rows = xcalloc(runs->n, sizeof *rows);
	size_t wid = 3, wwhen = 4, wprob = 8, wdrv = 6;
	for (size_t i = 0; i < runs->n; i++) {
		const struct history_run *r = &runs->v[i];
		struct row *w = &rows[i];
		sb_init(&w->when);
		sb_init(&w->problems);
		history_human_time(r->when, now, &w->when);
		problems(r, &w->problems);
		w->driver = history_run_fact(r, "driver.version");
		w->kernel = history_run_fact(r, "kernel");
		char id[32];
		size_t n = (size_t)snprintf(id, sizeof id, "%lld", r->id);
		wid = n > wid ? n : wid;
		wwhen = w->when.len > wwhen ? w->when.len : wwhen;
		wprob = w->problems.len > wprob ? w->problems.len : wprob;
		size_t d = w->driver ? strlen(w->driver) : 1;
		wdrv = d > wdrv ? d : wdrv;
	}
	/* The kernel, last and the longest, and then the problems go on a
	 * line under their run when the table would not fit the terminal. */
	size_t wkern = 6;
	for (size_t i = 0; i < runs->n; i++) {
		const char *k = rows[i].kernel;
		if (k && (size_t)text_width(k) > wkern)
			wkern = (size_t)text_width(k);
	}
	int cols = text_columns();
	bool kernel_below = (int)(wid + 2 + wwhen + 2 + 16 + 2 + 9 + wprob + 2 + wdrv + 2 + wkern) > cols;
	bool problems_below = kernel_below && (int)(wid + 2 + wwhen + 2 + 16 + 2 + 9 + wprob + 2 + wdrv) > cols;
	fprintf(f, "%*s  %-*s  %-16s  %-8s ", (int)wid, "run", (int)wwhen, "when", "machine", "verdict");
	if (!problems_below)
		fprintf(f, "%-*s  ", (int)wprob, "problems");
	fprintf(f, "%-*s%s\n", (int)wdrv, "driver", kernel_below ? "" : "  kernel");
	for (size_t i = 0; i < runs->n; i++) {
		const struct history_run *r = &runs->v[i];
		struct row *w = &rows[i];
		struct strbuf mach = STRBUF_INIT, verdict = STRBUF_INIT, drv = STRBUF_INIT;
		text_sanitize(&mach, r->machine);
		text_sanitize(&verdict, r->verdict);
		text_sanitize(&drv, w->driver ? w->driver : "-");
		fprintf(f, "%*lld  %-*s  %-16s  %s %-6s ", (int)wid, r->id, (int)wwhen, w->when.buf,
			mach.buf, verdict_mark(r->verdict), verdict.buf);
		if (!problems_below)
			fprintf(f, "%-*s  ", (int)wprob, w->problems.len ? w->problems.buf : "-");
		fprintf(f, "%-*s", (int)(kernel_below ? 0 : wdrv), drv.buf);
		sb_release(&mach);
		sb_release(&verdict);
		sb_release(&drv);
		struct strbuf below = STRBUF_INIT;
		if (problems_below && w->problems.len)
			sb_addf(&below, "%*sproblems %s  ", (int)wid + 2, "", w->problems.buf);
		if (kernel_below) {
			if (!below.len)
				sb_addf(&below, "%*s", (int)wid + 2, "");
			sb_add(&below, "kernel ");
			add_clean(&below, w->kernel ? w->kernel : "-");
		} else {
			fputs("  ", f);
			put_clean(f, w->kernel ? w->kernel : "-");
		}
		fputc('\n', f);
		if (below.len)
			text_print_line(f, below.buf, (int)wid + 2, 0);
		sb_release(&below);
		sb_release(&w->when);
		sb_release(&w->problems);
	}
	free(rows);
	size_t m = count_machines(runs);
	struct strbuf foot = STRBUF_INIT;
	sb_addf(&foot, "%zu run%s of %zu machine%s in ", runs->n, runs->n == 1 ? "" : "s", m,
		m == 1 ? "" : "s");
	add_clean(&foot, db_path);
	sb_add(&foot, ". What changed: wslgpu history --changes");
	fputc('\n', f);
	text_print_line(f, foot.buf, 2, 0);
	sb_release(&foot);
}

static void json_run_ref(struct json_writer *jw, const char *key, const struct history_run *r)
{
	jw_kv_object(jw, key);
	jw_kv_int(jw, "id", r->id);
	jw_kv_str(jw, "started_at", r->started_at);
	jw_end(jw);
}

static void print_runs_json(FILE *f, const char *db_path, const struct history_runs *runs)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;
	jw_init(&jw, &sb);
	jw_object_begin(&jw);
	jw_kv_str(&jw, "schema", "wslgpu/history/1");
	jw_kv_str(&jw, "db", db_path);
	jw_kv_array(&jw, "runs");
	for (size_t i = 0; i < runs->n; i++) {
		const struct history_run *r = &runs->v[i];
		jw_object_begin(&jw);
		jw_kv_int(&jw, "id", r->id);
		jw_kv_str(&jw, "started_at", r->started_at);
		jw_kv_fixed(&jw, "duration_ms", 1, r->duration_ms);
		jw_kv_str(&jw, "command", r->command);
		jw_kv_int(&jw, "exit_status", r->exit_status);
		jw_kv_str(&jw, "machine", r->machine);
		jw_kv_str(&jw, "tool_version", r->tool_version);
		jw_kv_str(&jw, "policy", r->policy_path);
		jw_kv_str(&jw, "verdict", r->verdict);
		jw_kv_str(&jw, "first_failure", r->first_failure);
		jw_kv_array(&jw, "failing");
		for (size_t c = 0; c < r->nchecks; c++)
			if (failing(r->checks[c].status))
				jw_str(&jw, r->checks[c].id);
		jw_end(&jw);
		jw_kv_object(&jw, "facts");
		for (size_t k = 0; k < r->nfacts; k++)
			jw_kv_str(&jw, r->facts[k].key, r->facts[k].val);
		jw_end(&jw);
		jw_kv_array(&jw, "checks");
		for (size_t c = 0; c < r->nchecks; c++) {
			const struct history_check *k = &r->checks[c];
			jw_object_begin(&jw);
			jw_kv_str(&jw, "id", k->id);
			jw_kv_str(&jw, "status", k->status);
			jw_kv_str(&jw, "kb", k->kb);
			jw_kv_str(&jw, "detail", k->detail);
			jw_end(&jw);
		}
		jw_end(&jw);
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_end(&jw);
	sb_addc(&sb, '\n');
	fputs(sb.buf, f);
	sb_release(&sb);
}

void history_print_runs(FILE *f, const char *db_path, const struct history_runs *runs, bool json)
{
	if (json)
		print_runs_json(f, db_path, runs);
	else
		print_runs_text(f, db_path, runs);
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

static void put_finding(FILE *f, const struct kb_entry *e, const struct evidence *ev,
			unsigned what)
{
	struct finding_view v;
	struct strbuf sb = STRBUF_INIT;
	finding_expand(&v, e, ev, NULL);
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
		if (e && strcmp(c->how, "skipped") != 0)
			put_finding(f, e, NULL, FT_MORE);
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
		put_finding(f, e, &ev, FT_CAUSE | FT_FIXES);
		ev_release(&ev);
	} else {
		put_finding(f, e, NULL, FT_MORE);
	}
}

static void print_changes_text(FILE *f, const char *db_path, const struct history_runs *runs,
			       const struct history_changes *ch)
{
	if (!runs->n) {
		fprintf(f, "No runs recorded yet in %s.\nRecord one with: wslgpu smoke --record\n", db_path);
		return;
	}
	time_t now = time(NULL);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	for (size_t i = 0; i < ch->n; i++) {
		const struct history_transition *t = &ch->v[i];
		sb_reset(&a);
		sb_reset(&b);
		history_human_time(t->from->when, now, &a);
		history_human_time(t->to->when, now, &b);
		const char *arrow = text_glyph("→", "->");
		struct strbuf h = STRBUF_INIT;
		sb_addf(&h, "%s %s %s  (machine ", a.buf, arrow, b.buf);
		add_clean(&h, t->to->machine);
		sb_addf(&h, ", runs %lld %s %lld)", t->from->id, arrow, t->to->id);
		if (i)
			fputc('\n', f);
		text_print_line(f, h.buf, 2, 0);
		sb_release(&h);
		for (size_t c = 0; c < t->n; c++)
			print_change_text(f, t, &t->v[c]);
	}
	sb_release(&a);
	sb_release(&b);
	size_t m = count_machines(runs);
	if (!ch->n)
		fprintf(f, "Nothing changed: %zu run%s of %zu machine%s in %s.\n", runs->n,
			runs->n == 1 ? "" : "s", m, m == 1 ? "" : "s", db_path);
	else {
		size_t total = 0;
		for (size_t i = 0; i < ch->n; i++)
			total += ch->v[i].n;
		struct strbuf foot = STRBUF_INIT;
		sb_addf(&foot, "%zu change%s; %zu run%s of %zu machine%s in ", total,
			total == 1 ? "" : "s", runs->n, runs->n == 1 ? "" : "s", m, m == 1 ? "" : "s");
		add_clean(&foot, db_path);
		sb_addc(&foot, '.');
		fputc('\n', f);
		text_print_line(f, foot.buf, 2, 0);
		sb_release(&foot);
	}
}

static void print_changes_json(FILE *f, const char *db_path, const struct history_runs *runs,
			       const struct history_changes *ch)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer jw;
	jw_init(&jw, &sb);
	jw_object_begin(&jw);
	jw_kv_str(&jw, "schema", "wslgpu/history-changes/1");
	jw_kv_str(&jw, "db", db_path);
	jw_kv_uint(&jw, "runs", runs->n);
	jw_kv_uint(&jw, "machines", count_machines(runs));
	jw_kv_array(&jw, "transitions");
	for (size_t i = 0; i < ch->n; i++) {
		const struct history_transition *t = &ch->v[i];
		jw_object_begin(&jw);
		jw_kv_str(&jw, "machine", t->to->machine);
		json_run_ref(&jw, "from", t->from);
		json_run_ref(&jw, "to", t->to);
		jw_kv_array(&jw, "changes");
		for (size_t c = 0; c < t->n; c++) {
			const struct history_change *x = &t->v[c];
			const struct kb_entry *e = kb_find(x->kb);
			jw_object_begin(&jw);
			jw_kv_str(&jw, "kind", x->is_check ? "check" : "fact");
			jw_kv_str(&jw, "key", x->key);
			jw_kv_str(&jw, "label", x->is_check ? x->key
							    : history_fact_label(x->key, platform_of(t->to)));
			jw_kv_str(&jw, "old", x->old);
			jw_kv_str(&jw, "new", x->new);
			jw_kv_str(&jw, "how", x->how);
			jw_kv_str(&jw, "kb", e ? e->id : x->kb);
			jw_kv_str(&jw, "title", e ? e->title : NULL);
			if (x->is_check)
				jw_kv_str(&jw, "detail", x->detail);
			jw_end(&jw);
		}
		jw_end(&jw);
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_end(&jw);
	sb_addc(&sb, '\n');
	fputs(sb.buf, f);
	sb_release(&sb);
}

void history_print_changes(FILE *f, const char *db_path, const struct history_runs *runs,
			   const struct history_changes *ch, bool json)
{
	if (json)
		print_changes_json(f, db_path, runs, ch);
	else
		print_changes_text(f, db_path, runs, ch);
}
