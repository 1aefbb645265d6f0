/* explain.c: text, JSON, list and pattern dump for `wslgpu explain`. See explain.h. */
#include "explain.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/json.h"
#include "../core/layers.h"
#include "../core/text.h"
#include "../explain/codes.h"
#include "../explain/names.h"
#include "../explain/pattern.h"
#include "../version.h"
#include "finding.h"

/* Where unrecognised messages go, so that the next version knows them.
 * The project's issue tracker has no fixed address in the code yet. */
#define EXPLAIN_REPORT_HOW \
	"run 'wslgpu report --markdown' and open an issue for wslgpu with its output and these lines"
/* Unrecognised lines shown without -v. */
#define EXPLAIN_UNKNOWN_SHOW 3

/* ---- text ---- */

static const char *mark(const char *kind)
{
	return !strcmp(kind, "noise")  ? text_glyph("·", "*")
	       : !strcmp(kind, "myth") ? status_mark(ST_WARN)
				       : status_mark(ST_FAIL);
}

static const char *colour(const char *kind)
{
	return !strcmp(kind, "noise") ? "\033[2m" : !strcmp(kind, "myth") ? "\033[33m" : "\033[31m";
}

/* "    label    text", wrapped under the text (the finding layout). */
static void labelled(struct strbuf *out, const char *label, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	finding_text_line(&sb, 4, label, text);
	sb_add(out, sb.buf);
	sb_release(&sb);
}

/* A sentence of the verdict, wrapped under its first word; a command in
 * it ("wslgpu explain --check") is not broken. */
static bool outside_command(const char *text, size_t at)
{
	return !(at >= 6 && !strncmp(text + at - 6, "wslgpu", 6)) && text[at + 1] != '-';
}

static void put_wrapped(struct strbuf *out, const char *text, int indent)
{
	struct strbuf sb = STRBUF_INIT;
	struct text_wrap w = { text_columns(), 0, indent, 0, outside_command };
	text_wrap(&sb, text, &w);
	sb_addf(out, "%s\n", sb.buf);
	sb_release(&sb);
}

static const char *verdict_tag(enum verdict v)
{
	switch (v) {
	case V_CONFIRMED: return "[confirmed on this machine]";
	case V_LIKELY: return "[likely: its check reports a problem here]";
	case V_OPEN: return "[not determined here]";
	case V_RULED_OUT: return "[ruled out on this machine]";
	case V_BOUND: return "[only on one platform: which is the log's?]";
	case V_NOT_HERE: return "[not on this platform]";
	default: return "";
	}
}

/* What the paste showed of match mi, as evidence for the slots of its
 * causes' fixes (kb.h): the library file its lines name (paste_lib),
 * that file's major version (paste_lib_major) and what it is with that
 * version (paste_lib_what: "cuDNN 8") where they name exactly one,
 * every file where they name several (paste_libs: the template stays,
 * saying which to put in), and the application (paste_app). A file name is
 * taken only when it is a plain word of the characters a library's name
 * has, so a slot never carries shell syntax from a paste. */
static void paste_evidence(const struct explain_view *v, size_t mi, struct evidence *ev)
{
	const struct explain_match *m = v->scan->found[mi];
	char libs[4][64], major[4][8], what[4][96];
	size_t nlib = 0;
	for (size_t i = 0; i < m->nocc; i++) {
		struct names nm;
		names_read(m->occ[i].text, strlen(m->occ[i].text), &nm);
		for (size_t k = 0; k < nm.n; k++) {
			const struct name_hit *h = &nm.hit[k];
			size_t len = strlen(h->text);
			if (h->kind != NK_LIBRARY || !len ||
			    strspn(h->text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					    "0123456789._+-") != len)
				continue;
			bool seen = false;
			for (size_t j = 0; j < nlib && !seen; j++)
				seen = !strcasecmp(libs[j], h->text);
			if (!seen && nlib < 4) {
				snprintf(libs[nlib], sizeof libs[nlib], "%s", h->text);
				snprintf(major[nlib], sizeof major[nlib], "%s", h->version);
				snprintf(what[nlib], sizeof what[nlib], "%s", h->what);
				nlib++;
			}
		}
	}
	if (nlib == 1) {
		ev_add(ev, "paste_lib", "%s", libs[0]);
		if (major[0][0]) {
			ev_add(ev, "paste_lib_major", "%s", major[0]);
			ev_add(ev, "paste_lib_what", "%s", what[0]);
		}
	} else if (nlib > 1) {
		struct strbuf all = STRBUF_INIT;
		for (size_t j = 0; j < nlib; j++)
			sb_addf(&all, "%s%s", j ? (j + 1 == nlib ? " or " : ", ") : "", libs[j]);
		ev_add(ev, "paste_libs", "%s", all.buf);
		sb_release(&all);
	}
	if (v->application)
		ev_add(ev, "paste_app", "%s", v->application);
}

/* Whether an entry's texts have a slot the paste fills (paste_evidence):
 * only those are expanded with it, so that no other line is read as this
 * machine's (a fix expanded with evidence is written for this user). */
static bool uses_paste_slots(const struct kb_entry *e)
{
	if (e->cause && strstr(e->cause, "paste_"))
		return true;
	for (size_t i = 0; i < e->fix.n; i++)
		if (strstr(e->fix.v[i], "paste_"))
			return true;
	return false;
}

/* The evidence a cause's texts are filled from: the check result that
 * confirmed it, else what the paste showed where its texts ask for that. */
static const struct evidence *cause_fill(const struct cause_rank *r, const struct evidence *pasted)
{
	if (r->v == V_CONFIRMED && r->by)
		return &r->by->ev;
	return pasted && uses_paste_slots(r->e) ? pasted : NULL;
}

/* compact: the title and what decided it only (a ruled-out cause, or any
 * other cause once one is confirmed on this machine). */
static void text_cause(struct strbuf *out, const struct explain_view *v, const struct cause_rank *r,
		       const struct evidence *pasted, const char *label, bool compact)
{
	const struct kb_entry *e = r->e;
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s (%s)", e->title, e->id);
	if (r->v != V_UNCHECKED) {
		sb_addf(&sb, "  %s", r->v == V_NOT_HERE && r->why == R_TEXT ? "[not on the log's platform]"
									 : verdict_tag(r->v));
		sb_addc(&sb, '\n');
		cause_evidence(r, &sb);
	}
	for (unsigned char i = 0; i < r->nsupport; i++)
		sb_addf(&sb, "%s\"%s\"", i ? ", " : "\nthe log shows ", r->support[i]);
	for (unsigned char i = 0; i < r->nexclude; i++)
		sb_addf(&sb, "%s\"%s\"", i ? ", " : r->nsupport ? "; against it: " : "\nagainst it, the log shows ",
			r->exclude[i]);
	labelled(out, label, sb.buf);
	sb_reset(&sb);
	if (compact) {
		sb_release(&sb);
		return;
	}
	struct finding_view fv;
	finding_expand(&fv, e, cause_fill(r, pasted), NULL);
	order_fixes(&fv, r, v->log);
	if (fv.cause)
		finding_text_line(&sb, 4, "", fv.cause);
	/* A log from Windows itself: the check that tells the causes apart
	 * runs in WSL on that machine, not where the log came from. */
	bool windows_log = log_is_windows(v->log);
	finding_text(&sb, &fv, 4, FT_FIXES | (windows_log ? 0 : FT_CONFIRM));
	if (windows_log && e->confirm) {
		char *in_wsl = xasprintf("in WSL: %s", e->confirm);
		finding_command_line(&sb, 4, "check", in_wsl);
		free(in_wsl);
	}
	if (v->verbose)
		finding_text(&sb, &fv, 4, FT_SOURCES);
	sb_add(out, sb.buf);
	finding_view_release(&fv);
	sb_release(&sb);
}

static void text_match(struct strbuf *out, const struct explain_view *v, size_t mi)
{
	const struct explain_match *m = v->scan->found[mi];
	const struct explain_sig *sig = &v->scan->db->sig[m->sig];
	const char *kind = explain_match_kind(v->scan, v->ranks, mi);
	const char *on = v->color ? colour(kind) : "", *off = v->color ? "\033[0m" : "";
	struct strbuf head = STRBUF_INIT;
	sb_addf(&head, "%s%s%s %s: ", on, mark(kind), off, sig->e->layer);
	text_sanitize(&head, sig->e->title);
	if (!strcmp(kind, "noise"))
		sb_add(&head, " (harmless)");
	else if (!strcmp(kind, "myth"))
		sb_add(&head, " (a myth)");
	put_wrapped(out, head.buf, 2);
	sb_release(&head);

	size_t nshow = v->verbose ? m->nocc : (m->nocc ? 1 : 0);
	for (size_t i = 0; i < nshow; i++) {
		const struct explain_occ *o = &m->occ[i];
		char label[48];
		if (o->wrapped)
			snprintf(label, sizeof label, "lines %lu-%lu", o->line, o->line + o->lines - 1);
		else
			snprintf(label, sizeof label, "line %lu", o->line);
		if (o->cut) {
			struct strbuf t = STRBUF_INIT;
			sb_addf(&t, "%s  (the text ends here, inside the message)", o->text);
			labelled(out, label, t.buf);
			sb_release(&t);
		} else {
			labelled(out, label, o->text);
		}
	}
	if (m->count > 1) {
		char buf[128];
		snprintf(buf, sizeof buf, "seen %lu times, first at line %lu, last at line %lu",
			 m->count, m->first_line, m->last_line);
		labelled(out, "", buf);
	}
	/* A family reads any wording: say what this one saw. */
	if (sig->e->family && m->nocc) {
		struct names nm;
		names_read(m->occ[0].text, strlen(m->occ[0].text), &nm);
		struct strbuf sb = STRBUF_INIT;
		names_describe(&nm, &sb);
		if (v->application)
			sb_addf(&sb, "%s%s", nm.n ? ", in " : "in ", v->application);
		if (sb.len)
			labelled(out, "seen", sb.buf);
		sb_release(&sb);
	}
	const struct cause_rank *ranks = v->ranks[mi];
	bool confirmed = sig->ncause && ranks[0].v == V_CONFIRMED;
	/* The two most likely causes; -v shows them all. */
	size_t nshow_cause = v->verbose || sig->ncause <= 2 ? sig->ncause : 2;
	struct evidence pasted = EVIDENCE_INIT;
	paste_evidence(v, mi, &pasted);
	for (size_t i = 0; i < nshow_cause; i++) {
		char label[32];
		if (sig->ncause == 1)
			snprintf(label, sizeof label, "cause");
		else
			snprintf(label, sizeof label, "%zu.", i + 1);
		text_cause(out, v, &ranks[i], &pasted, label,
			   ranks[i].v == V_RULED_OUT || ranks[i].v == V_NOT_HERE ||
				   (confirmed && ranks[i].v != V_CONFIRMED));
	}
	ev_release(&pasted);
	if (nshow_cause < sig->ncause) {
		char more[64];
		size_t left = sig->ncause - nshow_cause;
		snprintf(more, sizeof more, "+%zu more cause%s: -v", left, left == 1 ? "" : "s");
		labelled(out, "", more);
	}
	for (size_t i = 0; i < sig->e->source.n; i++)
		labelled(out, i ? "" : "source", sig->e->source.v[i]);
	if (v->verbose) {
		struct strbuf sb = STRBUF_INIT;
		struct finding_view more = { .e = sig->e };
		finding_text(&sb, &more, 4, FT_MORE);
		sb_add(out, sb.buf);
		sb_release(&sb);
	}
	sb_addc(out, '\n');
}

/* What an unrecognised line names of the stack, its layer and the checks
 * that tell its causes apart (names.h). */
static void text_names(struct strbuf *out, const char *text)
{
	struct names nm;
	names_read(text, strlen(text), &nm);
	if (!nm.n)
		return;
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, "names ");
	names_describe(&nm, &sb);
	sb_addf(&sb, ": layer %s; what tells its causes apart:", nm.layer);
	labelled(out, "", sb.buf);
	sb_reset(&sb);
	sb_addf(&sb, "wslgpu check --only %s", nm.check);
	labelled(out, "check", sb.buf);
	sb_release(&sb);
}

/* The GPU-looking error lines nothing recognised, and how to report them. */
static void text_unknown(struct strbuf *out, const struct explain_view *v)
{
	const struct explain_scan *s = v->scan;
	if (!s->st.unknown)
		return;
	unsigned long n = s->st.unknown;
	if (s->nfound && n == 1)
		sb_add(out, "  also: 1 other line looks like a GPU error but is not known:\n");
	else if (s->nfound)
		sb_addf(out, "  also: %lu other lines look like GPU errors but are not known:\n", n);
	size_t show = v->verbose ? s->nunk : (s->nunk < EXPLAIN_UNKNOWN_SHOW ? s->nunk
									: EXPLAIN_UNKNOWN_SHOW);
	for (size_t i = 0; i < show; i++) {
		const struct explain_unknown *u = &s->unk[i];
		char label[48];
		snprintf(label, sizeof label, "line %lu", u->line);
		if (u->count > 1) {
			struct strbuf t = STRBUF_INIT;
			sb_addf(&t, "%s  (%lu times)", u->text, u->count);
			labelled(out, label, t.buf);
			sb_release(&t);
		} else {
			labelled(out, label, u->text);
		}
		text_names(out, u->text);
	}
	unsigned long kept = 0;
	for (size_t i = 0; i < s->nunk; i++)
		kept += s->unk[i].count;
	if (show < s->nunk)
		sb_addf(out, "    ... %zu more (-v shows them)\n", s->nunk - show);
	else if (kept < n)
		sb_addf(out, "    ... and %lu more lines (the first %d different ones are kept)\n",
			n - kept, EXPLAIN_UNKNOWN_KEEP);
	sb_addf(out, "  To get %s recognised: %s.\n", n == 1 ? "it" : "them", EXPLAIN_REPORT_HOW);
}

void explain_report_text(struct strbuf *out, const struct explain_view *v)
{
	const struct explain_scan *s = v->scan;
	/* Problems first, then the harmless messages. */
	for (int noise = 0; noise < 2; noise++)
		for (size_t i = 0; i < s->nfound; i++)
			if ((strcmp(explain_match_kind(s, v->ranks, i), "noise") == 0) == (noise == 1))
				text_match(out, v, i);

	struct explain_tally t;
	explain_tally(s, v->ranks, &t);
	const char *off = v->color ? "\033[0m" : "";
	unsigned long lines = s->st.lines;
	const char *ls = lines == 1 ? "" : "s";
	struct strbuf sb = STRBUF_INIT;
	if (t.findings + t.myths) {
		size_t n = t.findings + t.myths;
		sb_addf(&sb, "%s%s %zu known problem%s in %lu line%s%s", v->color ? "\033[1;31m" : "",
			status_mark(ST_FAIL), n, n == 1 ? "" : "s", lines, ls, off);
		if (t.myths)
			sb_addf(&sb, " (%zu of them a myth being followed)", t.myths);
		if (t.noise)
			sb_addf(&sb, ", and %zu harmless message%s", t.noise, t.noise == 1 ? "" : "s");
		sb_addc(&sb, '.');
		if (!v->checked)
			sb_add(&sb, " To see which cause applies on this machine: wslgpu explain --check");
	} else if (t.noise && !s->st.unknown) {
		sb_addf(&sb, "%s%s Only harmless messages (%zu) in %lu line%s%s; nothing to fix.",
			v->color ? "\033[1;32m" : "", status_mark(ST_PASS), t.noise, lines, ls, off);
	} else {
		/* Harmless messages beside lines that look like GPU errors are
		 * no all-clear: the error itself is what is not known. */
		bool one = s->st.unknown == 1;
		if (s->st.unknown && t.noise)
			sb_addf(&sb, "? No known problem in %lu line%s: %zu harmless message%s, but %lu "
				     "other line%s look%s like %s (below).",
				lines, ls, t.noise, t.noise == 1 ? "" : "s", s->st.unknown, one ? "" : "s",
				one ? "s" : "", one ? "a GPU error" : "GPU errors");
		else if (s->st.unknown)
			sb_addf(&sb, "? No known signature in %lu line%s, but %lu of them look%s like %s "
				     "(below).",
				lines, ls, s->st.unknown, one ? "s" : "", one ? "a GPU error" : "GPU errors");
		else
			sb_addf(&sb, "? No known signature in %lu line%s.", lines, ls);
		sb_add(&sb, " Run 'wslgpu check' to test the GPU chain on this machine; "
			    "'wslgpu explain --list' shows what is known.");
	}
	put_wrapped(out, sb.buf, 2);
	sb_release(&sb);
	text_unknown(out, v);
	if (v->paste)
		paste_text(out, v->paste);
	if (s->st.clipped)
		sb_addf(out, "  note: %lu line%s longer than %u KiB %s matched on the first %u KiB "
			     "and after each carriage return.\n",
			s->st.clipped, s->st.clipped == 1 ? "" : "s", EXPLAIN_LINE_MAX >> 10,
			s->st.clipped == 1 ? "was" : "were", EXPLAIN_LINE_MAX >> 10);
	if (s->st.utf16)
		sb_add(out, "  note: the input was UTF-16 (as Windows PowerShell's '>' writes it); it was "
			    "read as text.\n");
	if (s->st.nul_bytes)
		sb_addf(out, "  note: the input holds %llu NUL byte%s (binary data?); they were read "
			   "as blanks.\n", s->st.nul_bytes, s->st.nul_bytes == 1 ? "" : "s");
}

/* ---- JSON ---- */

static void json_cause(struct json_writer *jw, const struct cause_rank *r,
		       const struct rank_platform *log, const struct evidence *pasted)
{
	const struct kb_entry *e = r->e;
	struct finding_view fv;
	finding_expand(&fv, e, cause_fill(r, pasted), NULL);
	order_fixes(&fv, r, log);
	jw_object_begin(jw);
	jw_kv_str(jw, "id", e->id);
	jw_kv_str(jw, "kind", e->kind);
	jw_kv_str(jw, "layer", e->layer);
	jw_kv_str(jw, "title", e->title);
	jw_kv_str(jw, "cause", fv.cause);
	/* lines of shell, remarks as # comments, as check --json has them */
	finding_fix_json(jw, &fv, true);
	jw_kv_str(jw, "confirm", e->confirm);
	jw_kv_strings(jw, "source", e->source.v, e->source.n);
	jw_kv_str(jw, "machine", verdict_name(r->v));
	if (r->nsupport || r->nexclude) {
		jw_kv_object(jw, "words");
		jw_kv_strings(jw, "support", r->support, r->nsupport);
		jw_kv_strings(jw, "exclude", r->exclude, r->nexclude);
		jw_end(jw);
	} else {
		jw_kv_null(jw, "words");
	}
	struct strbuf t = STRBUF_INIT;
	cause_evidence(r, &t);
	jw_kv_str(jw, "evidence", t.len ? t.buf : NULL);
	sb_release(&t);
	jw_end(jw);
	finding_view_release(&fv);
}

/* "names": what a line names of the stack (names.h). */
static void json_names(struct json_writer *jw, const struct names *nm)
{
	jw_kv_array(jw, "names");
	for (size_t i = 0; i < nm->n; i++) {
		const struct name_hit *h = &nm->hit[i];
		static const char *const kinds[] = { "library", "call", "code" };
		jw_object_begin(jw);
		jw_kv_str(jw, "text", h->text);
		jw_kv_str(jw, "kind", kinds[h->kind]);
		jw_kv_str(jw, "role", h->role);
		jw_kv_str(jw, "what", h->what);
		jw_kv_str(jw, "version", *h->version ? h->version : NULL);
		if (h->code >= 0)
			jw_kv_uint(jw, "code", (unsigned long long)h->code);
		else
			jw_kv_null(jw, "code");
		jw_kv_str(jw, "layer", h->layer);
		jw_end(jw);
	}
	jw_end(jw);
}

void explain_report_json(struct strbuf *out, const struct explain_view *v)
{
	const struct explain_scan *s = v->scan;
	struct json_writer jw;
	jw_init(&jw, out);
	jw_object_begin(&jw);
	jw_kv_str(&jw, "schema", "wslgpu/explain/2");
	jw_kv_object(&jw, "tool");
	jw_kv_str(&jw, "name", "wslgpu");
	jw_kv_str(&jw, "version", WSLGPU_VERSION);
	jw_end(&jw);
	jw_kv_object(&jw, "input");
	jw_kv_str(&jw, "source", v->source);
	jw_kv_uint(&jw, "bytes", s->st.bytes);
	jw_kv_uint(&jw, "lines", s->st.lines);
	jw_kv_uint(&jw, "clipped_lines", s->st.clipped);
	jw_kv_uint(&jw, "nul_bytes", s->st.nul_bytes);
	jw_kv_uint(&jw, "invalid_utf8_bytes", s->st.bad_utf8);
	jw_kv_str(&jw, "encoding", s->st.utf16 ? "utf-16" : "utf-8");
	jw_end(&jw);
	jw_kv_bool(&jw, "checked", v->checked);
	jw_kv_str(&jw, "application", v->application);
	if (v->paste)
		paste_json(&jw, v->paste);
	/* What the causes were ranked by (platform.kind, read even without --check). */
	if (v->platform) {
		jw_kv_object(&jw, "platform");
		jw_kv_str(&jw, "kind", res_get(v->platform, "kind"));
		jw_kv_str(&jw, "distro", res_get(v->platform, "distro"));
		jw_end(&jw);
	} else {
		jw_kv_null(&jw, "platform");
	}
	if (v->log && v->log->kind) {
		jw_kv_object(&jw, "log_platform");
		jw_kv_str(&jw, "kind", v->log->kind);
		jw_kv_str(&jw, "from", v->log->from);
		jw_kv_bool(&jw, "established", v->log->established);
		jw_kv_str(&jw, "marker", v->log->marker && *v->log->marker ? v->log->marker : NULL);
		jw_end(&jw);
	} else {
		jw_kv_null(&jw, "log_platform");
	}
	jw_kv_array_lines(&jw, "matches");
	for (size_t i = 0; i < s->nfound; i++) {
		const struct explain_match *m = s->found[i];
		const struct explain_sig *sig = &s->db->sig[m->sig];
		jw_object_begin(&jw);
		jw_kv_str(&jw, "signature", sig->e->id);
		jw_kv_str(&jw, "layer", sig->e->layer);
		jw_kv_str(&jw, "kind", explain_match_kind(s, v->ranks, i));
		jw_kv_str(&jw, "title", sig->e->title);
		jw_kv_str(&jw, "family", sig->e->family);
		struct names nm = { .n = 0 };
		if (m->nocc)
			names_read(m->occ[0].text, strlen(m->occ[0].text), &nm);
		json_names(&jw, &nm);
		jw_kv_uint(&jw, "count", m->count);
		jw_kv_uint(&jw, "first_line", m->first_line);
		jw_kv_uint(&jw, "last_line", m->last_line);
		jw_kv_array(&jw, "lines");
		for (size_t j = 0; j < m->nocc; j++) {
			jw_object_begin(&jw);
			jw_kv_uint(&jw, "line", m->occ[j].line);
			jw_kv_bool(&jw, "wrapped", m->occ[j].wrapped);
			jw_kv_bool(&jw, "cut", m->occ[j].cut);
			jw_kv_str(&jw, "text", m->occ[j].text);
			jw_end(&jw);
		}
		jw_end(&jw);
		jw_kv_array(&jw, "causes");
		struct evidence pasted = EVIDENCE_INIT;
		paste_evidence(v, i, &pasted);
		for (size_t j = 0; j < sig->ncause; j++)
			json_cause(&jw, &v->ranks[i][j], v->log, &pasted);
		ev_release(&pasted);
		jw_end(&jw);
		jw_kv_str(&jw, "confirm", sig->e->confirm);
		jw_kv_strings(&jw, "source", sig->e->source.v, sig->e->source.n);
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_kv_array_lines(&jw, "unrecognised");
	for (size_t i = 0; i < s->nunk; i++) {
		jw_object_begin(&jw);
		jw_kv_uint(&jw, "line", s->unk[i].line);
		jw_kv_uint(&jw, "count", s->unk[i].count);
		jw_kv_str(&jw, "text", s->unk[i].text);
		struct names nm;
		names_read(s->unk[i].text, strlen(s->unk[i].text), &nm);
		json_names(&jw, &nm);
		jw_kv_str(&jw, "layer", nm.layer);
		jw_kv_str(&jw, "check", nm.n ? nm.check : NULL);
		jw_end(&jw);
	}
	jw_end(&jw);
	struct explain_tally t;
	explain_tally(s, v->ranks, &t);
	jw_kv_object(&jw, "summary");
	jw_kv_str(&jw, "status", t.status);
	jw_kv_uint(&jw, "signatures", s->nfound);
	jw_kv_uint(&jw, "findings", t.findings);
	jw_kv_uint(&jw, "myths", t.myths);
	jw_kv_uint(&jw, "noise", t.noise);
	jw_kv_uint(&jw, "recognised_lines", s->st.recognised);
	jw_kv_uint(&jw, "unrecognised_lines", s->st.unknown);
	const char *first = NULL;
	for (size_t i = 0; i < s->nfound && !first; i++)
		if (strcmp(explain_match_kind(s, v->ranks, i), "noise"))
			first = s->db->sig[s->found[i]->sig].e->id;
	jw_kv_str(&jw, "first_problem", first);
	jw_end(&jw);
	jw_end(&jw);
	sb_addc(out, '\n');
}

/* ---- list ---- */

/* Layers in chain order, then the ones the chain does not know. */
static size_t layer_order(const struct explain_db *db, const char **out, size_t max)
{
	size_t k = layer_list_begin(out, max);
	for (size_t i = 0; i < db->n; i++)
		k = layer_list_add(out, k, max, db->sig[i].e->layer);
	return k;
}

void explain_list_text(struct strbuf *out, const struct explain_db *db)
{
	const char *layers[64];
	size_t nl = layer_order(db, layers, 64);
	size_t w = 0;
	for (size_t i = 0; i < db->n; i++)
		if (strlen(db->sig[i].e->id) > w)
			w = strlen(db->sig[i].e->id);
	if (w > 32) /* titles need the room more; a longer id pushes its title */
		w = 32;
	for (size_t l = 0; l < nl; l++) {
		bool head = false;
		for (size_t i = 0; i < db->n; i++) {
			const struct explain_sig *s = &db->sig[i];
			if (strcmp(s->e->layer, layers[l]))
				continue;
			if (!head)
				sb_addf(out, "%s\n", layers[l]);
			head = true;
			struct strbuf line = STRBUF_INIT;
			sb_addf(&line, "  %-*s %-7s ", (int)w, s->e->id, s->kind);
			struct text_wrap tw = { text_columns(), text_width(line.buf), (int)w + 11, 0,
						NULL };
			text_wrap(&line, s->e->title, &tw);
			sb_addf(out, "%s\n", line.buf);
			sb_release(&line);
		}
	}
	sb_addf(out, "\n%zu signatures. 'wslgpu kb ID' shows one in full.\n", db->n);
}

void explain_list_json(struct strbuf *out, const struct explain_db *db)
{
	const char *layers[64];
	size_t nl = layer_order(db, layers, 64);
	struct json_writer jw;
	jw_init(&jw, out);
	jw_object_begin(&jw);
	jw_kv_str(&jw, "schema", "wslgpu/explain/2");
	jw_kv_array_lines(&jw, "signatures");
	for (size_t l = 0; l < nl; l++)
		for (size_t i = 0; i < db->n; i++) {
			const struct explain_sig *s = &db->sig[i];
			if (strcmp(s->e->layer, layers[l]))
				continue;
			jw_object_begin(&jw);
			jw_kv_str(&jw, "id", s->e->id);
			jw_kv_str(&jw, "layer", s->e->layer);
			jw_kv_str(&jw, "kind", s->kind);
			jw_kv_str(&jw, "title", s->e->title);
			jw_kv_strings(&jw, "match", s->e->match.v, s->e->match.n);
			jw_kv_strings(&jw, "regex", s->e->regex.v, s->e->regex.n);
			jw_kv_array(&jw, "causes");
			for (size_t j = 0; j < s->ncause; j++)
				jw_str(&jw, s->cause[j]->id);
			jw_end(&jw);
			jw_kv_array(&jw, "refines");
			for (size_t j = 0; j < s->nrefines; j++)
				jw_str(&jw, db->sig[s->refines[j]].e->id);
			jw_end(&jw);
			jw_kv_str(&jw, "confirm", s->e->confirm);
			jw_kv_strings(&jw, "source", s->e->source.v, s->e->source.n);
			jw_end(&jw);
		}
	jw_end(&jw);
	jw_kv_uint(&jw, "count", db->n);
	jw_end(&jw);
	sb_addc(out, '\n');
}

void explain_dump_patterns(struct strbuf *out, const struct explain_db *db)
{
	for (size_t i = 0; i < db->n; i++) {
		const struct kb_entry *e = db->sig[i].e;
		for (size_t j = 0; j < e->regex.n; j++)
			sb_addf(out, "%s\n", e->regex.v[j]);
		for (size_t j = 0; j < e->match.n; j++) {
			struct mpat mp;
			struct strbuf sb = STRBUF_INIT;
			if (mpat_parse(e->match.v[j], &mp, &sb) < 0) {
				sb_release(&sb);
				continue;
			}
			if (mp.kind == MP_ERE) {
				sb_addf(out, "%s\n", mp.text);
			} else if (mp.kind == MP_CODE) {
				codes_ere(mp.code, &sb);
				sb_addf(out, "%s\n", sb.buf);
			} else {
				for (const char *p = mp.text; *p; p++) {
					if (strchr("\\.[]()*+?{}|^$", *p))
						sb_addc(out, '\\');
					sb_addc(out, *p);
				}
				sb_addc(out, '\n');
			}
			sb_release(&sb);
			mpat_free(&mp);
		}
	}
}

void explain_dump_keys(struct strbuf *out, const struct explain_db *db)
{
	for (size_t i = 0; i < db->nkeys; i++) {
		const struct explain_key *k = &db->key[i];
		if (k->kind != EK_LIT && k->kind != EK_RE && k->kind != EK_CODE)
			continue;
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			dup = !strcmp(db->key[j].text, k->text);
		if (!dup)
			sb_addf(out, "%s\n", k->text);
	}
}
