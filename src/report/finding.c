/* finding.c: showing knowledge-base findings. See finding.h. */
#include "finding.h"

#include <stdlib.h>
#include <string.h>

#include "../core/text.h"
#include "../kb/fixline.h"

/* ---- text ---- */

/* A fix line that is words for a person ("update the NVIDIA driver on
 * Windows, then ..."), not a command: as the fix plan classifies it. */
static bool fix_is_words(const char *s)
{
	struct fix_command c;
	fix_classify(s, &c);
	free(c.text);
	free(c.note);
	return c.instruction;
}

/* A word of plain prose: letters, digits and apostrophes, perhaps in
 * parentheses or before a comma; anything else (a path, an option, a
 * variable, name=value, sudo) is part of a command, or, for a path alone
 * in the words, a value they name. */
static bool plain_word(const char *w, size_t n)
{
	size_t i = 0;
	if (i < n && w[i] == '(')
		i++;
	size_t letters = 0;
	while (i < n && ((w[i] >= 'a' && w[i] <= 'z') || (w[i] >= 'A' && w[i] <= 'Z') ||
			 (w[i] >= '0' && w[i] <= '9') || w[i] == '\''))
		i++, letters++;
	while (i < n && strchr(",.;:)", w[i]))
		i++;
	return letters && i == n && !(n == 4 && !strncmp(w, "sudo", 4));
}

/* Where words for a person may break: between plain words, but not
 * inside a command written among them, which runs from its first word
 * that is not plain to a word ending in , ; : or ); and before such a
 * command only after punctuation ("links: cd /usr/lib/wsl/lib && ..."
 * keeps cd with its path). The scan starts after the "   (" that opens a
 * command's note. */
static bool fix_can_break(const char *text, size_t at)
{
	const char *note = strstr(text, "   (");
	size_t open = note ? (size_t)(note - text) : 0;
	if (note && at >= open && at < open + 3)
		return true; /* before the note */
	size_t i = note && open < at ? open + 3 : 0;
	bool code = false;
	char last = '\0';
	while (i < at) {
		while (i < at && text[i] == ' ')
			i++;
		size_t b = i;
		while (i < at && text[i] != ' ')
			i++;
		if (i == b)
			break;
		last = text[i - 1];
		/* A path alone is a value the words name ("remove /opt/x where
		 * it is set"); other words that are not plain start a command. */
		bool path = text[b] == '/' || (text[b] == '~' && text[b + 1] == '/');
		if (!plain_word(text + b, i - b) && !path)
			code = true;
		if (code && strchr(",;:)", last))
			code = false; /* the command ended with this word */
	}
	if (code)
		return false;
	size_t b = at;
	while (text[b] == ' ')
		b++;
	size_t e = b;
	while (text[e] && text[e] != ' ' && text[e] != '\n')
		e++;
	return plain_word(text + b, e - b) || (last && strchr(",;:.)", last));
}

/* In a comment, "#" stays with the word after it (no line ending in "#"). */
static bool comment_can_break(const char *text, size_t at)
{
	return !(at >= 1 && text[at - 1] == '#');
}

/*
 * A command with a remark ("cmd   (for this shell)") is shown as the command
 * whole and the remark as a shell comment ("cmd   # for this shell"), so the
 * line pasted whole still runs (PowerShell reads # as a comment too). A
 * remark that does not fit wraps onto lines of its own, each a comment
 * (text_wrap_remark).
 */
static void put_remarked_command(struct strbuf *out, int col, const char *text, size_t cmd_len,
				 const char *remark)
{
	sb_addn(out, text, cmd_len);
	col += (int)text_width_n(text, cmd_len);
	text_wrap_remark(out, col, remark, FINDING_TEXT_COLUMN);
}

static void put_line(struct strbuf *out, int indent, const char *label, const char *text,
		     bool command)
{
	struct strbuf clean = STRBUF_INIT;
	text_sanitize(&clean, text ? text : "");
	int pad = FINDING_TEXT_COLUMN - indent - 1;
	if (pad < 1)
		pad = 1;
	sb_addf(out, "%*s%-*s ", indent, "", pad, label);
	int col = indent + pad + 1;
	int lw = text_width(label);
	if (lw > pad)
		col += lw - pad;
	struct text_wrap w = { text_columns(), col, FINDING_TEXT_COLUMN, 0, NULL };
	struct strbuf remark = STRBUF_INIT;
	const char *note = command ? kb_fix_remark(clean.buf, &remark) : NULL;
	bool words = command && fix_is_words(clean.buf);
	if (command && note && !words) {
		put_remarked_command(out, col, clean.buf, (size_t)(note - clean.buf), sb_str(&remark));
	} else if (words) {
		/* Words for a person are a comment, every wrapped line of them,
		 * so that a pasted block still runs (as the Markdown report). */
		struct strbuf c = STRBUF_INIT;
		/* its remark, as in the JSON's line (fix_shell_of): "# words   # remark" */
		if (note)
			sb_addf(&c, "# %.*s   # %s", (int)(note - clean.buf), clean.buf, sb_str(&remark));
		else
			sb_addf(&c, "# %s", clean.buf);
		w.indent = FINDING_TEXT_COLUMN + 2;
		w.can_break = comment_can_break;
		text_wrap_comment(out, sb_str(&c), &w, FINDING_TEXT_COLUMN);
		sb_release(&c);
	} else {
		if (command) {
			/* The command stays whole; only words for a person wrap. */
			if (!fix_is_words(clean.buf))
				w.keep = clean.len;
			w.can_break = fix_can_break;
		}
		text_wrap(out, sb_str(&clean), &w);
	}
	sb_addc(out, '\n');
	sb_release(&remark);
	sb_release(&clean);
}

void finding_text_line(struct strbuf *out, int indent, const char *label, const char *text)
{
	put_line(out, indent, label, text, false);
}

void finding_command_line(struct strbuf *out, int indent, const char *label, const char *text)
{
	put_line(out, indent, label, text, true);
}

void finding_text(struct strbuf *out, const struct finding_view *v, int indent, unsigned what)
{
	const struct kb_entry *e = v->e;
	if (!e)
		return;
	if ((what & FT_CAUSE) && v->cause)
		finding_text_line(out, indent, what & FT_NOTE ? "note" : "cause", v->cause);
	if (what & FT_FIXES)
		for (size_t i = 0; i < v->nfix; i++) {
			/* A line with <slots> is a template, not one to paste as is
			 * (kb_expand_fix has already marked one it could not fill). */
			bool tmpl = kb_fix_is_template(v->fix[i]) && !strstr(v->fix[i], "replace") &&
				    !strstr(v->fix[i], KB_TEMPLATE_MARK);
			char *t = tmpl ? xasprintf("%s   (a template: fill in each <...>)", v->fix[i]) : NULL;
			finding_command_line(out, indent, i ? "" : "fix", t ? t : v->fix[i]);
			free(t);
		}
	if ((what & FT_CONFIRM) && e->confirm)
		finding_command_line(out, indent, "check", e->confirm);
	if (what & FT_SOURCES)
		for (size_t i = 0; i < v->nsource; i++)
			finding_text_line(out, indent, i ? "" : "source", v->source[i]);
	if (what & FT_MORE) {
		struct strbuf m = STRBUF_INIT;
		sb_addf(&m, "wslgpu kb %s", e->id);
		finding_command_line(out, indent, "more", m.buf);
		sb_release(&m);
	}
}

void finding_json(struct json_writer *jw, const struct finding_view *v, bool with_fix)
{
	jw_kv_str(jw, "cause", v->cause);
	finding_fix_json(jw, v, with_fix);
	jw_kv_array(jw, "source");
	for (size_t i = 0; i < v->nsource; i++)
		jw_str(jw, v->source[i]);
	jw_end(jw);
}

void finding_fix_json(struct json_writer *jw, const struct finding_view *v, bool with_fix)
{
	/* each a line of shell, as the terminal and Markdown show it */
	jw_kv_array(jw, "fix");
	for (size_t i = 0; with_fix && i < v->nfix; i++) {
		struct fix_shell fs;
		fix_shell_of(v->fix[i], &fs);
		jw_str(jw, fs.line);
		fix_shell_release(&fs);
	}
	jw_end(jw);
	jw_kv_array(jw, "fix_steps");
	for (size_t i = 0; with_fix && i < v->nfix; i++) {
		struct fix_shell fs;
		fix_shell_of(v->fix[i], &fs);
		jw_object_begin(jw);
		jw_kv_str(jw, "command", fs.command);
		jw_kv_str(jw, "remark", fs.remark);
		jw_kv_str(jw, "where", fs.where);
		jw_kv_str(jw, "kind", fs.kind);
		jw_end(jw);
		fix_shell_release(&fs);
	}
	jw_end(jw);
}

void evidence_json(struct json_writer *jw, const char *key, const struct evidence *ev)
{
	jw_kv_object(jw, key);
	for (size_t i = 0; ev && i < ev->n; i++) {
		const char *k = ev->v[i].key;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(ev->v[j].key, k) == 0;
		if (seen)
			continue;
		if (ev_count(ev, k) == 1) {
			jw_kv_str(jw, k, ev->v[i].val);
			continue;
		}
		jw_kv_array(jw, k);
		for (size_t j = i; j < ev->n; j++)
			if (strcmp(ev->v[j].key, k) == 0)
				jw_str(jw, ev->v[j].val);
		jw_end(jw);
	}
	jw_end(jw);
}
