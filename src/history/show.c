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
#include "../kb/kb.h"

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
	return !strcmp(v, "ok") ? "✓" : !strcmp(v, "warn") ? "!" : !strcmp(v, "fail") ? "✗" : "?";
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

static void put_clean(FILE *f, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	text_sanitize(&sb, s ? s : "");
	for (char *p = sb.buf; p && *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
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
	fprintf(f, "%*s  %-*s  %-16s  %-8s %-*s  %-*s  %s\n", (int)wid, "run", (int)wwhen, "when",
		"machine", "verdict", (int)wprob, "problems", (int)wdrv, "driver", "kernel");
	for (size_t i = 0; i < runs->n; i++) {
		const struct history_run *r = &runs->v[i];
		struct row *w = &rows[i];
		struct strbuf mach = STRBUF_INIT, verdict = STRBUF_INIT, drv = STRBUF_INIT;
		text_sanitize(&mach, r->machine);
		text_sanitize(&verdict, r->verdict);
		text_sanitize(&drv, w->driver ? w->driver : "-");
		fprintf(f, "%*lld  %-*s  %-16s  %s %-6s %-*s  %-*s  ", (int)wid, r->id, (int)wwhen,
			w->when.buf, mach.buf, verdict_mark(r->verdict), verdict.buf, (int)wprob,
			w->problems.len ? w->problems.buf : "-", (int)wdrv, drv.buf);
		sb_release(&mach);
		sb_release(&verdict);
		sb_release(&drv);
		put_clean(f, w->kernel ? w->kernel : "-");
		fputc('\n', f);
		sb_release(&w->when);
		sb_release(&w->problems);
	}
	free(rows);
	size_t m = count_machines(runs);
	fprintf(f, "\n%zu run%s of %zu machine%s in %s. What changed: wslgpu history --changes\n", runs->n,
		runs->n == 1 ? "" : "s", m, m == 1 ? "" : "s", db_path);
}

static void json_opt(struct strbuf *sb, const char *s)
{
	if (s)
		json_str(sb, s);
	else
		sb_add(sb, "null");
}

static void json_run_ref(struct strbuf *sb, const struct history_run *r)
{
	sb_addf(sb, "{\"id\":%lld,\"started_at\":", r->id);
	json_str(sb, r->started_at);
	sb_add(sb, "}");
}

static void print_runs_json(FILE *f, const char *db_path, const struct history_runs *runs)
{
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, "{\"schema\":\"wslgpu/history/1\",\"db\":");
	json_str(&sb, db_path);
	sb_add(&sb, ",\"runs\":[");
	for (size_t i = 0; i < runs->n; i++) {
		const struct history_run *r = &runs->v[i];
		sb_addf(&sb, "%s{\"id\":%lld,\"started_at\":", i ? "," : "", r->id);
		json_str(&sb, r->started_at);
		sb_addf(&sb, ",\"duration_ms\":%.1f,\"command\":", r->duration_ms);
		json_opt(&sb, r->command);
		sb_addf(&sb, ",\"exit_status\":%d,\"machine\":", r->exit_status);
		json_str(&sb, r->machine);
		sb_add(&sb, ",\"tool_version\":");
		json_opt(&sb, r->tool_version);
		sb_add(&sb, ",\"policy\":");
		json_opt(&sb, r->policy_path);
		sb_add(&sb, ",\"verdict\":");
		json_str(&sb, r->verdict);
		sb_add(&sb, ",\"first_failure\":");
		json_opt(&sb, r->first_failure);
		sb_add(&sb, ",\"failing\":[");
		size_t nf = 0;
		for (size_t c = 0; c < r->nchecks; c++)
			if (failing(r->checks[c].status)) {
				if (nf++)
					sb_addc(&sb, ',');
				json_str(&sb, r->checks[c].id);
			}
		sb_add(&sb, "],\"facts\":{");
		for (size_t k = 0; k < r->nfacts; k++) {
			if (k)
				sb_addc(&sb, ',');
			json_str(&sb, r->facts[k].key);
			sb_addc(&sb, ':');
			json_str(&sb, r->facts[k].val);
		}
		sb_add(&sb, "},\"checks\":[");
		for (size_t c = 0; c < r->nchecks; c++) {
			const struct history_check *k = &r->checks[c];
			sb_add(&sb, c ? ",{\"id\":" : "{\"id\":");
			json_str(&sb, k->id);
			sb_add(&sb, ",\"status\":");
			json_str(&sb, k->status);
			sb_add(&sb, ",\"kb\":");
			json_opt(&sb, k->kb);
			sb_add(&sb, ",\"detail\":");
			json_opt(&sb, k->detail);
			sb_addc(&sb, '}');
		}
		sb_add(&sb, "]}");
	}
	sb_add(&sb, "]}\n");
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
		const char *how, *mark;
	} marks[] = {
		{ "downgrade", "!" }, { "broke", "✗" }, { "warns", "!" }, { "cause", "!" },
		{ "fixed", "✓" },     { "skipped", "-" },
	};
	for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
		if (!strcmp(marks[i].how, c->how))
			return marks[i].mark;
	return "·";
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
static void change_result(const struct history_change *c, const char *label, struct result *r)
{
	result_init(r, NULL);
	res_ev(r, "old", "%s", c->old ? c->old : "(none)");
	res_ev(r, "new", "%s", c->new ? c->new : "(none)");
	res_ev(r, "what", "%s", label);
}

static void put_labelled(FILE *f, const char *label, const char *text)
{
	fprintf(f, "      %-6s ", label);
	put_clean(f, text);
	fputc('\n', f);
}

static void print_change_text(FILE *f, const struct history_transition *t,
			      const struct history_change *c)
{
	const char *label = c->is_check ? c->key : history_fact_label(c->key, platform_of(t->to));
	const struct kb_entry *e = kb_find(c->kb);
	fprintf(f, "  %s ", change_mark(c));
	put_clean(f, label);
	fputc(' ', f);
	put_clean(f, c->old ? c->old : "(none)");
	fputs(" → ", f);
	put_clean(f, c->new ? c->new : "(none)");
	fprintf(f, ": %s", how_words(c->how));
	if (c->is_check) {
		if (c->detail && *c->detail && strcmp(c->how, "skipped") != 0) {
			fputs(" — ", f);
			put_clean(f, c->detail);
		}
		fputc('\n', f);
		if (e && strcmp(c->how, "skipped") != 0)
			fprintf(f, "      see    wslgpu kb %s\n", e->id);
		return;
	}
	if (e && e->title) {
		/* "a downgrade — a Windows update may have reinstalled...": the
		 * title reads as the second half of the sentence. */
		fputs(" — ", f);
		bool acronym = e->title[0] && isupper((unsigned char)e->title[1]);
		fputc(acronym ? e->title[0] : tolower((unsigned char)e->title[0]), f);
		put_clean(f, e->title + 1);
	}
	fputc('\n', f);
	if (!e)
		return;
	/* A downgrade is the regression this command exists for: say why and
	 * what to do; any other change points at its entry. */
	if (!strcmp(c->how, "downgrade")) {
		struct result r;
		change_result(c, label, &r);
		struct strbuf sb = STRBUF_INIT;
		if (e->cause) {
			kb_expand(e->cause, &r, &sb);
			put_labelled(f, "cause", sb.buf);
		}
		for (size_t i = 0; i < e->fix.n; i++) {
			sb_reset(&sb);
			kb_expand(e->fix.v[i], &r, &sb);
			put_labelled(f, i ? "" : "fix", sb.buf);
		}
		sb_release(&sb);
		result_release(&r);
	} else {
		fprintf(f, "      see    wslgpu kb %s\n", e->id);
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
		fprintf(f, "%s%s → %s  (machine ", i ? "\n" : "", a.buf, b.buf);
		put_clean(f, t->to->machine);
		fprintf(f, ", runs %lld → %lld)\n", t->from->id, t->to->id);
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
		fprintf(f, "\n%zu change%s; %zu runs of %zu machine%s in %s.\n", total,
			total == 1 ? "" : "s", runs->n, m, m == 1 ? "" : "s", db_path);
	}
}

static void print_changes_json(FILE *f, const char *db_path, const struct history_runs *runs,
			       const struct history_changes *ch)
{
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, "{\"schema\":\"wslgpu/history-changes/1\",\"db\":");
	json_str(&sb, db_path);
	sb_addf(&sb, ",\"runs\":%zu,\"machines\":%zu,\"transitions\":[", runs->n, count_machines(runs));
	for (size_t i = 0; i < ch->n; i++) {
		const struct history_transition *t = &ch->v[i];
		sb_add(&sb, i ? ",{\"machine\":" : "{\"machine\":");
		json_str(&sb, t->to->machine);
		sb_add(&sb, ",\"from\":");
		json_run_ref(&sb, t->from);
		sb_add(&sb, ",\"to\":");
		json_run_ref(&sb, t->to);
		sb_add(&sb, ",\"changes\":[");
		for (size_t c = 0; c < t->n; c++) {
			const struct history_change *x = &t->v[c];
			const struct kb_entry *e = kb_find(x->kb);
			sb_addf(&sb, "%s{\"kind\":\"%s\",\"key\":", c ? "," : "", x->is_check ? "check" : "fact");
			json_str(&sb, x->key);
			sb_add(&sb, ",\"label\":");
			json_str(&sb, x->is_check ? x->key : history_fact_label(x->key, platform_of(t->to)));
			sb_add(&sb, ",\"old\":");
			json_opt(&sb, x->old);
			sb_add(&sb, ",\"new\":");
			json_opt(&sb, x->new);
			sb_add(&sb, ",\"how\":");
			json_str(&sb, x->how);
			sb_add(&sb, ",\"kb\":");
			json_opt(&sb, e ? e->id : x->kb);
			sb_add(&sb, ",\"title\":");
			json_opt(&sb, e ? e->title : NULL);
			if (x->is_check) {
				sb_add(&sb, ",\"detail\":");
				json_opt(&sb, x->detail);
			}
			sb_addc(&sb, '}');
		}
		sb_add(&sb, "]}");
	}
	sb_add(&sb, "]}\n");
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
