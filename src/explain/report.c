/* report.c: text, JSON, list and pattern dump for `wslgpu explain`. See report.h. */
#include "report.h"

#include <string.h>

#include "../core/json.h"
#include "../core/registry.h"
#include "../version.h"
#include "codes.h"
#include "pattern.h"

/* Where unrecognised messages go, so that the next version knows them.
 * The project's issue tracker has no fixed address in the code yet. */
#define EXPLAIN_REPORT_HOW \
	"run 'wslgpu report --markdown' and open an issue for wslgpu with its output and these lines"
/* Unrecognised lines shown without -v. */
#define EXPLAIN_UNKNOWN_SHOW 3

void explain_tally(const struct explain_scan *s, struct explain_tally *t)
{
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < s->nfound; i++) {
		const char *k = s->db->sig[s->found[i]->sig].kind;
		if (!strcmp(k, "noise"))
			t->noise++;
		else if (!strcmp(k, "myth"))
			t->myths++;
		else
			t->findings++;
	}
	t->status = t->findings + t->myths ? "problem" : t->noise ? "ok" : "unknown";
}

/* ---- text ---- */

static const char *mark(const char *kind)
{
	return !strcmp(kind, "noise") ? "·" : !strcmp(kind, "myth") ? "!" : "✗";
}

static const char *colour(const char *kind)
{
	return !strcmp(kind, "noise") ? "\033[2m" : !strcmp(kind, "myth") ? "\033[33m" : "\033[31m";
}

static void put_clean(FILE *f, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	text_sanitize(&sb, s ? s : "");
	fputs(sb_str(&sb), f);
	sb_release(&sb);
}

/* "    label    text", continuation lines of text under the text. */
static void labelled(FILE *f, const char *label, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	text_sanitize(&sb, text ? text : "");
	const char *p = sb_str(&sb);
	fprintf(f, "    %-8s ", label);
	for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1)
		fprintf(f, "%.*s\n%13s", (int)(nl - p), p, "");
	fprintf(f, "%s\n", p);
	sb_release(&sb);
}

static const char *verdict_tag(enum verdict v)
{
	switch (v) {
	case V_CONFIRMED: return "[confirmed on this machine]";
	case V_LIKELY: return "[likely: its check reports a problem here]";
	case V_OPEN: return "[not determined here]";
	case V_RULED_OUT: return "[ruled out on this machine]";
	default: return "";
	}
}

/* compact: the title and what decided it only (a ruled-out cause, or any
 * other cause once one is confirmed on this machine). */
static void text_cause(FILE *f, const struct explain_view *v, const struct cause_rank *r,
		       const char *label, bool compact)
{
	const struct kb_entry *e = r->e;
	const struct result *ev = r->v == V_CONFIRMED ? r->by : NULL;
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s (%s)", e->title, e->id);
	if (r->v != V_UNCHECKED) {
		sb_addf(&sb, "  %s", verdict_tag(r->v));
		sb_addc(&sb, '\n');
		cause_evidence(r, &sb);
	}
	labelled(f, label, sb.buf);
	sb_reset(&sb);
	if (compact) {
		sb_release(&sb);
		return;
	}
	if (e->cause) {
		kb_expand(e->cause, ev, &sb);
		labelled(f, "", sb.buf);
		sb_reset(&sb);
	}
	for (size_t i = 0; i < e->fix.n; i++) {
		kb_expand_fix(e->fix.v[i], ev, &sb);
		labelled(f, i ? "" : "fix", sb.buf);
		sb_reset(&sb);
	}
	if (e->confirm)
		labelled(f, "check", e->confirm);
	if (v->verbose)
		for (size_t i = 0; i < e->source.n; i++)
			labelled(f, i ? "" : "see", e->source.v[i]);
	sb_release(&sb);
}

static void text_match(FILE *f, const struct explain_view *v, size_t mi)
{
	const struct explain_match *m = v->scan->found[mi];
	const struct explain_sig *sig = &v->scan->db->sig[m->sig];
	const char *on = v->color ? colour(sig->kind) : "", *off = v->color ? "\033[0m" : "";
	fprintf(f, "%s%s%s %s: ", on, mark(sig->kind), off, sig->e->layer);
	put_clean(f, sig->e->title);
	if (!strcmp(sig->kind, "noise"))
		fputs(" (harmless)", f);
	else if (!strcmp(sig->kind, "myth"))
		fputs(" (a myth)", f);
	fputc('\n', f);

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
			labelled(f, label, t.buf);
			sb_release(&t);
		} else {
			labelled(f, label, o->text);
		}
	}
	if (m->count > 1) {
		char buf[128];
		snprintf(buf, sizeof buf, "seen %lu times, first at line %lu, last at line %lu",
			 m->count, m->first_line, m->last_line);
		labelled(f, "", buf);
	}
	const struct cause_rank *ranks = v->ranks[mi];
	bool confirmed = sig->ncause && ranks[0].v == V_CONFIRMED;
	for (size_t i = 0; i < sig->ncause; i++) {
		char label[32];
		if (sig->ncause == 1)
			snprintf(label, sizeof label, "cause");
		else
			snprintf(label, sizeof label, "%zu.", i + 1);
		text_cause(f, v, &ranks[i], label,
			   ranks[i].v == V_RULED_OUT || (confirmed && ranks[i].v != V_CONFIRMED));
	}
	for (size_t i = 0; i < sig->e->source.n; i++)
		labelled(f, i ? "" : "source", sig->e->source.v[i]);
	if (v->verbose)
		labelled(f, "id", sig->e->id);
	fputc('\n', f);
}

/* The GPU-looking error lines nothing recognised, and how to report them. */
static void text_unknown(FILE *f, const struct explain_view *v)
{
	const struct explain_scan *s = v->scan;
	if (!s->st.unknown)
		return;
	unsigned long n = s->st.unknown;
	if (s->nfound && n == 1)
		fputs("  also: 1 other line looks like a GPU error but is not known:\n", f);
	else if (s->nfound)
		fprintf(f, "  also: %lu other lines look like GPU errors but are not known:\n", n);
	size_t show = v->verbose ? s->nunk : (s->nunk < EXPLAIN_UNKNOWN_SHOW ? s->nunk
									: EXPLAIN_UNKNOWN_SHOW);
	for (size_t i = 0; i < show; i++) {
		const struct explain_unknown *u = &s->unk[i];
		char label[48];
		snprintf(label, sizeof label, "line %lu", u->line);
		if (u->count > 1) {
			struct strbuf t = STRBUF_INIT;
			sb_addf(&t, "%s  (%lu times)", u->text, u->count);
			labelled(f, label, t.buf);
			sb_release(&t);
		} else {
			labelled(f, label, u->text);
		}
	}
	unsigned long kept = 0;
	for (size_t i = 0; i < s->nunk; i++)
		kept += s->unk[i].count;
	if (show < s->nunk)
		fprintf(f, "    ... %zu more (-v shows them)\n", s->nunk - show);
	else if (kept < n)
		fprintf(f, "    ... and %lu more lines (the first %d different ones are kept)\n",
			n - kept, EXPLAIN_UNKNOWN_KEEP);
	fprintf(f, "  To get %s recognised: %s.\n", n == 1 ? "it" : "them", EXPLAIN_REPORT_HOW);
}

void explain_report_text(FILE *f, const struct explain_view *v)
{
	const struct explain_scan *s = v->scan;
	for (size_t i = 0; i < s->nfound; i++)
		text_match(f, v, i);

	struct explain_tally t;
	explain_tally(s, &t);
	const char *off = v->color ? "\033[0m" : "";
	unsigned long lines = s->st.lines;
	const char *ls = lines == 1 ? "" : "s";
	if (t.findings + t.myths) {
		size_t n = t.findings + t.myths;
		fprintf(f, "%s✗ %zu known problem%s in %lu line%s%s",
			v->color ? "\033[1;31m" : "", n, n == 1 ? "" : "s", lines, ls, off);
		if (t.myths)
			fprintf(f, " (%zu of them a myth being followed)", t.myths);
		if (t.noise)
			fprintf(f, ", and %zu harmless message%s", t.noise, t.noise == 1 ? "" : "s");
		fputc('.', f);
		if (!v->checked)
			fputs(" To see which cause applies on this machine: wslgpu explain --check", f);
		fputc('\n', f);
	} else if (t.noise) {
		fprintf(f, "%s✓ Only harmless messages (%zu) in %lu line%s%s; nothing to fix.\n",
			v->color ? "\033[1;32m" : "", t.noise, lines, ls, off);
	} else if (s->st.unknown) {
		bool one = s->st.unknown == 1;
		fprintf(f, "? No known signature in %lu line%s, but %lu of them look%s like %s "
			   "(below). Run 'wslgpu check' to test the GPU chain on this machine; "
			   "'wslgpu explain --list' shows what is known.\n",
			lines, ls, s->st.unknown, one ? "s" : "", one ? "a GPU error" : "GPU errors");
	} else {
		fprintf(f, "? No known signature in %lu line%s. Run 'wslgpu check' to test the GPU "
			   "chain on this machine; 'wslgpu explain --list' shows what is known.\n",
			lines, ls);
	}
	text_unknown(f, v);
	if (s->st.clipped)
		fprintf(f, "  note: %lu line%s longer than %u KiB %s matched on the first %u KiB.\n",
			s->st.clipped, s->st.clipped == 1 ? "" : "s", EXPLAIN_LINE_MAX >> 10,
			s->st.clipped == 1 ? "was" : "were", EXPLAIN_LINE_MAX >> 10);
	if (s->st.nul_bytes)
		fprintf(f, "  note: the input holds %llu NUL byte%s (binary data?); they were read "
			   "as blanks.\n", s->st.nul_bytes, s->st.nul_bytes == 1 ? "" : "s");
}

/* ---- JSON ---- */

static void kv(struct strbuf *sb, const char *k, const char *v)
{
	json_str(sb, k);
	sb_addc(sb, ':');
	if (v)
		json_str(sb, v);
	else
		sb_add(sb, "null");
}

static void list_json(struct strbuf *sb, const char *k, const struct kb_list *l)
{
	json_str(sb, k);
	sb_add(sb, ":[");
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			sb_addc(sb, ',');
		json_str(sb, l->v[i]);
	}
	sb_addc(sb, ']');
}

static void json_cause(struct strbuf *sb, const struct cause_rank *r)
{
	const struct kb_entry *e = r->e;
	const struct result *ev = r->v == V_CONFIRMED ? r->by : NULL;
	struct strbuf t = STRBUF_INIT;
	sb_addc(sb, '{');
	kv(sb, "id", e->id);
	sb_addc(sb, ',');
	kv(sb, "kind", e->kind);
	sb_addc(sb, ',');
	kv(sb, "layer", e->layer);
	sb_addc(sb, ',');
	kv(sb, "title", e->title);
	sb_addc(sb, ',');
	if (e->cause)
		kb_expand(e->cause, ev, &t);
	kv(sb, "cause", e->cause ? t.buf : NULL);
	sb_add(sb, ",\"fix\":[");
	for (size_t i = 0; i < e->fix.n; i++) {
		sb_reset(&t);
		kb_expand_fix(e->fix.v[i], ev, &t);
		if (i)
			sb_addc(sb, ',');
		json_str(sb, sb_str(&t));
	}
	sb_add(sb, "],");
	kv(sb, "confirm", e->confirm);
	sb_addc(sb, ',');
	list_json(sb, "source", &e->source);
	sb_addc(sb, ',');
	kv(sb, "machine", verdict_name(r->v));
	sb_addc(sb, ',');
	sb_reset(&t);
	cause_evidence(r, &t);
	kv(sb, "evidence", t.len ? t.buf : NULL);
	sb_addc(sb, '}');
	sb_release(&t);
}

void explain_report_json(FILE *f, const struct explain_view *v)
{
	const struct explain_scan *s = v->scan;
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, "{\"schema\":\"wslgpu/explain/1\",\"tool\":{");
	kv(&sb, "name", "wslgpu");
	sb_addc(&sb, ',');
	kv(&sb, "version", WSLGPU_VERSION);
	sb_add(&sb, "},\"input\":{");
	kv(&sb, "source", v->source);
	sb_addf(&sb, ",\"bytes\":%llu,\"lines\":%lu,\"clipped_lines\":%lu,\"nul_bytes\":%llu,"
		     "\"invalid_utf8_bytes\":%llu},",
		s->st.bytes, s->st.lines, s->st.clipped, s->st.nul_bytes, s->st.bad_utf8);
	sb_addf(&sb, "\"checked\":%s,\"matches\":[", v->checked ? "true" : "false");
	for (size_t i = 0; i < s->nfound; i++) {
		const struct explain_match *m = s->found[i];
		const struct explain_sig *sig = &s->db->sig[m->sig];
		sb_add(&sb, i ? ",\n{" : "\n{");
		kv(&sb, "signature", sig->e->id);
		sb_addc(&sb, ',');
		kv(&sb, "layer", sig->e->layer);
		sb_addc(&sb, ',');
		kv(&sb, "kind", sig->kind);
		sb_addc(&sb, ',');
		kv(&sb, "title", sig->e->title);
		sb_addf(&sb, ",\"count\":%lu,\"first_line\":%lu,\"last_line\":%lu,\"lines\":[",
			m->count, m->first_line, m->last_line);
		for (size_t j = 0; j < m->nocc; j++) {
			sb_addf(&sb, "%s{\"line\":%lu,\"wrapped\":%s,\"cut\":%s,", j ? "," : "",
				m->occ[j].line, m->occ[j].wrapped ? "true" : "false",
				m->occ[j].cut ? "true" : "false");
			kv(&sb, "text", m->occ[j].text);
			sb_addc(&sb, '}');
		}
		sb_add(&sb, "],\"causes\":[");
		for (size_t j = 0; j < sig->ncause; j++) {
			if (j)
				sb_addc(&sb, ',');
			json_cause(&sb, &v->ranks[i][j]);
		}
		sb_add(&sb, "],");
		kv(&sb, "confirm", sig->e->confirm);
		sb_addc(&sb, ',');
		list_json(&sb, "source", &sig->e->source);
		sb_addc(&sb, '}');
	}
	sb_add(&sb, "\n],\"unrecognised\":[");
	for (size_t i = 0; i < s->nunk; i++) {
		sb_addf(&sb, "%s{\"line\":%lu,\"count\":%lu,", i ? ",\n" : "\n", s->unk[i].line,
			s->unk[i].count);
		kv(&sb, "text", s->unk[i].text);
		sb_addc(&sb, '}');
	}
	struct explain_tally t;
	explain_tally(s, &t);
	sb_add(&sb, "\n],\"summary\":{");
	kv(&sb, "status", t.status);
	sb_addf(&sb, ",\"signatures\":%zu,\"findings\":%zu,\"myths\":%zu,\"noise\":%zu,", s->nfound,
		t.findings, t.myths, t.noise);
	sb_addf(&sb, "\"recognised_lines\":%lu,\"unrecognised_lines\":%lu,", s->st.recognised,
		s->st.unknown);
	const char *first = NULL;
	for (size_t i = 0; i < s->nfound && !first; i++)
		if (strcmp(s->db->sig[s->found[i]->sig].kind, "noise"))
			first = s->db->sig[s->found[i]->sig].e->id;
	kv(&sb, "first_problem", first);
	sb_add(&sb, "}}\n");
	fputs(sb.buf, f);
	sb_release(&sb);
}

/* ---- list ---- */

/* Layers in chain order, then the ones the registry does not know. */
static size_t layer_order(const struct explain_db *db, const char **out, size_t max)
{
	size_t nl, k = 0;
	const struct layer_def *layers = registry_layers(&nl);
	for (size_t i = 0; i < nl && k < max; i++)
		out[k++] = layers[i].name;
	for (size_t i = 0; i < db->n && k < max; i++) {
		bool seen = false;
		for (size_t j = 0; j < k; j++)
			seen |= !strcmp(out[j], db->sig[i].e->layer);
		if (!seen)
			out[k++] = db->sig[i].e->layer;
	}
	return k;
}

void explain_list_text(FILE *f, const struct explain_db *db)
{
	const char *layers[64];
	size_t nl = layer_order(db, layers, 64);
	size_t w = 0;
	for (size_t i = 0; i < db->n; i++)
		if (strlen(db->sig[i].e->id) > w)
			w = strlen(db->sig[i].e->id);
	for (size_t l = 0; l < nl; l++) {
		bool head = false;
		for (size_t i = 0; i < db->n; i++) {
			const struct explain_sig *s = &db->sig[i];
			if (strcmp(s->e->layer, layers[l]))
				continue;
			if (!head)
				fprintf(f, "%s\n", layers[l]);
			head = true;
			fprintf(f, "  %-*s %-7s %s\n", (int)w, s->e->id, s->kind, s->e->title);
		}
	}
	fprintf(f, "\n%zu signatures. 'wslgpu kb ID' shows one in full.\n", db->n);
}

void explain_list_json(FILE *f, const struct explain_db *db)
{
	const char *layers[64];
	size_t nl = layer_order(db, layers, 64);
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, "{\"schema\":\"wslgpu/explain/1\",\"signatures\":[");
	bool first = true;
	for (size_t l = 0; l < nl; l++)
		for (size_t i = 0; i < db->n; i++) {
			const struct explain_sig *s = &db->sig[i];
			if (strcmp(s->e->layer, layers[l]))
				continue;
			sb_add(&sb, first ? "\n{" : ",\n{");
			first = false;
			kv(&sb, "id", s->e->id);
			sb_addc(&sb, ',');
			kv(&sb, "layer", s->e->layer);
			sb_addc(&sb, ',');
			kv(&sb, "kind", s->kind);
			sb_addc(&sb, ',');
			kv(&sb, "title", s->e->title);
			sb_addc(&sb, ',');
			list_json(&sb, "match", &s->e->match);
			sb_addc(&sb, ',');
			list_json(&sb, "regex", &s->e->regex);
			sb_add(&sb, ",\"causes\":[");
			for (size_t j = 0; j < s->ncause; j++) {
				if (j)
					sb_addc(&sb, ',');
				json_str(&sb, s->cause[j]->id);
			}
			sb_add(&sb, "],\"refines\":[");
			for (size_t j = 0; j < s->nrefines; j++) {
				if (j)
					sb_addc(&sb, ',');
				json_str(&sb, db->sig[s->refines[j]].e->id);
			}
			sb_add(&sb, "],");
			kv(&sb, "confirm", s->e->confirm);
			sb_addc(&sb, ',');
			list_json(&sb, "source", &s->e->source);
			sb_addc(&sb, '}');
		}
	sb_addf(&sb, "\n],\"count\":%zu}\n", db->n);
	fputs(sb.buf, f);
	sb_release(&sb);
}

void explain_dump_patterns(FILE *f, const struct explain_db *db)
{
	for (size_t i = 0; i < db->n; i++) {
		const struct kb_entry *e = db->sig[i].e;
		for (size_t j = 0; j < e->regex.n; j++)
			fprintf(f, "%s\n", e->regex.v[j]);
		for (size_t j = 0; j < e->match.n; j++) {
			struct mpat mp;
			struct strbuf sb = STRBUF_INIT;
			if (mpat_parse(e->match.v[j], &mp, &sb) < 0) {
				sb_release(&sb);
				continue;
			}
			if (mp.kind == MP_ERE) {
				fprintf(f, "%s\n", mp.text);
			} else if (mp.kind == MP_CODE) {
				codes_ere(mp.code, &sb);
				fprintf(f, "%s\n", sb.buf);
			} else {
				for (const char *p = mp.text; *p; p++) {
					if (strchr("\\.[]()*+?{}|^$", *p))
						fputc('\\', f);
					fputc(*p, f);
				}
				fputc('\n', f);
			}
			sb_release(&sb);
			mpat_free(&mp);
		}
	}
}

void explain_dump_keys(FILE *f, const struct explain_db *db)
{
	for (size_t i = 0; i < db->nkeys; i++) {
		const struct explain_key *k = &db->key[i];
		if (k->kind != EK_LIT && k->kind != EK_RE && k->kind != EK_CODE)
			continue;
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			dup = !strcmp(db->key[j].text, k->text);
		if (!dup)
			fprintf(f, "%s\n", k->text);
	}
}
