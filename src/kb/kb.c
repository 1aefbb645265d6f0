/* kb.c: parse the knowledge base text and look entries up. See kb.h. */
#include "kb.h"

#include "../core/check.h"
#include "../core/layers.h"
#include "../core/text.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void list_add(struct kb_list *l, const char *s)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = s;
}

static bool id_valid(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '.' &&
		    *s != '_' && *s != '-')
			return false;
	return true;
}

static void free_entries(struct kb *kb)
{
	for (size_t i = 0; i < kb->nowned; i++)
		free(kb->owned[i]);
	free(kb->owned);
	for (size_t i = 0; i < kb->n; i++) {
		free(kb->e[i].fix.v);
		free(kb->e[i].source.v);
		free(kb->e[i].match.v);
		free(kb->e[i].regex.v);
		free(kb->e[i].see.v);
		free(kb->e[i].support.v);
		free(kb->e[i].exclude.v);
		free(kb->e[i].context.v);
	}
	free(kb->e);
	free(kb->byid);
	free(kb->text);
	memset(kb, 0, sizeof *kb);
}

static const struct kb_entry *sorting; /* for by_id: qsort has no context */

/* By id, then by place in the text, so that of two entries with one id
 * the second is the one a duplicate is reported at. */
static int by_id(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sorting[x].id, sorting[y].id);
	return c ? c : (x < y ? -1 : x > y);
}

/* Fills kb->byid; -1 with the message at the first entry (in text order)
 * whose id an earlier one has. Sorting keeps this n log n: comparing every
 * pair was n²/2 strcmp calls (277k for the 745 built-in entries). */
static int index_ids(struct kb *kb, struct strbuf *err)
{
	kb->byid = xcalloc(kb->n ? kb->n : 1, sizeof *kb->byid);
	for (size_t i = 0; i < kb->n; i++)
		kb->byid[i] = i;
	sorting = kb->e;
	qsort(kb->byid, kb->n, sizeof *kb->byid, by_id);
	size_t dup = kb->n;
	for (size_t i = 1; i < kb->n; i++)
		if (!strcmp(kb->e[kb->byid[i - 1]].id, kb->e[kb->byid[i]].id) && kb->byid[i] < dup)
			dup = kb->byid[i];
	if (dup == kb->n)
		return 0;
	const struct kb_entry *e = &kb->e[dup];
	sb_addf(err, "%s:%d: duplicate entry id '%s'", e->file, e->line, e->id);
	return -1;
}

/*
 * The format, line by line:
 *   @file NAME      set by the build: names the source file for messages
 *   # ...           comment;  blank lines are ignored
 *   [id]            starts an entry
 *   key: value      a field; fix, source, match, regex, see, support, exclude, context
 *                   may repeat
 *   <space>text     continues the previous value (joined with one space)
 */
int kb_parse(const char *text, size_t len, struct kb *kb, struct strbuf *err)
{
	memset(kb, 0, sizeof *kb);
	kb->text = xmalloc(len + 1);
	memcpy(kb->text, text, len);
	kb->text[len] = '\0';

	const char *file = "kb";
	int line = 0;
	struct kb_entry *cur = NULL;
	const char **last_value = NULL; /* for continuation lines */
	struct strbuf joined = STRBUF_INIT;
	char *p = kb->text;
	/* Continuations need new storage; keep joined strings here. */
	char **owned = NULL;
	size_t nowned = 0;

	while (p && *p) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		char *s = p;
		p = nl ? nl + 1 : NULL;
		line++;
		size_t sl = strlen(s);
		if (sl && s[sl - 1] == '\r')
			s[--sl] = '\0';
		if (strncmp(s, "@file ", 6) == 0) {
			file = s + 6;
			line = 0;
			continue;
		}
		if ((s[0] == ' ' || s[0] == '\t') && last_value) {
			while (*s == ' ' || *s == '\t')
				s++;
			if (!*s)
				continue;
			sb_reset(&joined);
			sb_add(&joined, *last_value);
			sb_addc(&joined, ' ');
			sb_add(&joined, s);
			owned = xrealloc(owned, (nowned + 1) * sizeof *owned);
			owned[nowned] = sb_detach(&joined);
			*last_value = owned[nowned++];
			continue;
		}
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#') {
			last_value = NULL;
			continue;
		}
		if (*s == '[') {
			char *e = strchr(s, ']');
			if (!e || e[1]) {
				sb_addf(err, "%s:%d: malformed entry header", file, line);
				goto fail;
			}
			*e = '\0';
			if (!id_valid(s + 1)) {
				sb_addf(err, "%s:%d: bad entry id '%s'", file, line, s + 1);
				goto fail;
			}
			kb->e = xrealloc(kb->e, (kb->n + 1) * sizeof *kb->e);
			cur = &kb->e[kb->n++];
			memset(cur, 0, sizeof *cur);
			cur->id = s + 1;
			cur->file = file;
			cur->line = line;
			last_value = NULL;
			continue;
		}
		char *colon = strchr(s, ':');
		if (!cur || !colon) {
			sb_addf(err, "%s:%d: expected '[id]' or 'key: value'", file, line);
			goto fail;
		}
		*colon = '\0';
		char *key = s, *val = colon + 1;
		while (*val == ' ' || *val == '\t')
			val++;
		char *ke = colon;
		while (ke > key && (ke[-1] == ' ' || ke[-1] == '\t'))
			*--ke = '\0';
		const char **single = NULL;
		struct kb_list *multi = NULL;
		if (!strcmp(key, "layer")) single = &cur->layer;
		else if (!strcmp(key, "kind")) single = &cur->kind;
		else if (!strcmp(key, "title")) single = &cur->title;
		else if (!strcmp(key, "cause")) single = &cur->cause;
		else if (!strcmp(key, "confirm")) single = &cur->confirm;
		else if (!strcmp(key, "platform")) single = &cur->platform;
		else if (!strcmp(key, "family")) single = &cur->family;
		else if (!strcmp(key, "established")) single = &cur->established;
		else if (!strcmp(key, "rare")) single = &cur->rare;
		else if (!strcmp(key, "fix")) multi = &cur->fix;
		else if (!strcmp(key, "source")) multi = &cur->source;
		else if (!strcmp(key, "match")) multi = &cur->match;
		else if (!strcmp(key, "regex")) multi = &cur->regex;
		else if (!strcmp(key, "see")) multi = &cur->see;
		else if (!strcmp(key, "support")) multi = &cur->support;
		else if (!strcmp(key, "exclude")) multi = &cur->exclude;
		else if (!strcmp(key, "context")) multi = &cur->context;
		else {
			sb_addf(err, "%s:%d: unknown key '%s'", file, line, key);
			goto fail;
		}
		if (single) {
			if (*single) {
				sb_addf(err, "%s:%d: '%s' given twice in [%s]", file, line, key, cur->id);
				goto fail;
			}
			*single = val;
			last_value = single;
		} else {
			list_add(multi, val);
			last_value = &multi->v[multi->n - 1];
		}
	}
	if (index_ids(kb, err) < 0)
		goto fail;
	for (size_t i = 0; i < kb->n; i++) {
		struct kb_entry *e = &kb->e[i];
		if (!e->layer || !e->title) {
			sb_addf(err, "%s:%d: [%s] needs layer and title", e->file, e->line, e->id);
			goto fail;
		}
		if (!e->kind)
			e->kind = "finding";
		/* a layer no view lists would file the entry nowhere ("apps") */
		if (layer_index(e->layer) < 0 && strcmp(e->layer, "core")) {
			sb_addf(err, "%s:%d: [%s] layer: '%s' is no layer of the chain (src/core/layers.c) "
				"nor core", e->file, e->line, e->id, e->layer);
			goto fail;
		}
		if (e->platform && !kb_platform_valid(e->platform)) {
			sb_addf(err, "%s:%d: [%s] platform: '%s' names no platform kind (wsl1, wsl2, "
				"container-in-wsl2, native, container, wsl, not-wsl)", e->file, e->line,
				e->id, e->platform);
			goto fail;
		}
	}
	sb_release(&joined);
	kb->owned = owned;
	kb->nowned = nowned;
	return 0;
fail:
	sb_release(&joined);
	kb->owned = owned;
	kb->nowned = nowned;
	free_entries(kb);
	return -1;
}

void kb_free(struct kb *kb)
{
	free_entries(kb);
}

const struct kb_entry *kb_find_in(const struct kb *kb, const char *id)
{
	if (!id)
		return NULL;
	size_t lo = 0, hi = kb->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct kb_entry *e = &kb->e[kb->byid[mid]];
		int c = strcmp(e->id, id);
		if (!c)
			return e;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct kb_entry *kb_find(const char *id)
{
	return id ? kb_builtin_find(id) : NULL;
}

static const char *const platform_words[] = {
	"wsl1", "wsl2", "container-in-wsl2", "native", "container", "windows", "wsl", "not-wsl",
	NULL,
};

bool kb_kind_is_wsl(const char *kind)
{
	return kind && (!strcmp(kind, "wsl1") || !strcmp(kind, "wsl2") ||
			!strcmp(kind, "container-in-wsl2"));
}

const char *kb_platform_kind(const char *kind)
{
	/* the kinds lead platform_words; "wsl" and "not-wsl" name groups */
	for (size_t i = 0; kind && i < 6; i++)
		if (!strcmp(kind, platform_words[i]))
			return platform_words[i];
	return NULL;
}

/* Whether the word w (length n) covers platform kind. */
static bool platform_word_covers(const char *w, size_t n, const char *kind)
{
	bool wsl = kb_kind_is_wsl(kind);
	if (n == 3 && !strncmp(w, "wsl", 3))
		return wsl;
	/* Linux outside WSL: a Windows log (kind "windows") is neither. */
	if (n == 7 && !strncmp(w, "not-wsl", 7))
		return !wsl && strcmp(kind, "windows");
	return strlen(kind) == n && !strncmp(w, kind, n);
}

bool kb_platform_valid(const char *value)
{
	bool any = false;
	for (const char *p = value; *p;) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, " \t");
		if (!n)
			break;
		bool known = false;
		for (size_t i = 0; platform_words[i] && !known; i++)
			known = strlen(platform_words[i]) == n && !strncmp(p, platform_words[i], n);
		if (!known)
			return false;
		any = true;
		p += n;
	}
	return any;
}

bool kb_applies(const struct kb_entry *e, const char *kind)
{
	if (!e || !e->platform || !kind || !*kind || !strcmp(kind, "unknown"))
		return true;
	for (const char *p = e->platform; *p;) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, " \t");
		if (!n)
			break;
		if (platform_word_covers(p, n, kind))
			return true;
		p += n;
	}
	return false;
}

/* A single path (Linux or Windows): a value a fix must keep one word. */
static bool looks_like_path(const char *v)
{
	return v[0] == '/' ||
	       (isalpha((unsigned char)v[0]) && v[1] == ':' && (v[2] == '\\' || v[2] == '/'));
}

/* Evidence named *_fix or *_cmd holds a whole command line ("arch_fix"),
 * which its probe built from quoted parts (text_shell_quote). */
static bool is_command_key(const char *key)
{
	size_t n = strlen(key);
	return n > 4 && (!strcmp(key + n - 4, "_fix") || !strcmp(key + n - 4, "_cmd"));
}

/* The quote (' or ") the template has open at at, or 0. */
static char open_quote(const char *tmpl, const char *at)
{
	char q = 0;
	for (const char *p = tmpl; p < at; p++) {
		if (*p == '\n')
			q = 0;
		else if (!q && (*p == '\'' || *p == '"'))
			q = *p;
		else if (q && *p == q)
			q = 0;
	}
	return q;
}

/*
 * A value from the machine in a fix line, so that the shell reads it as
 * the data it is wherever the template put it: inside the template's '...'
 * each ' is closed and escaped; inside "..." a value with $ ` \ " or ! is
 * closed out of the double quotes and single-quoted; elsewhere a path is
 * one quoted word and other values (package lists) are quoted word by
 * word. *_fix and *_cmd values are whole commands, already quoted.
 */
static void put_shell_value(struct strbuf *out, const char *key, const char *v, char q)
{
	if (is_command_key(key)) {
		sb_add(out, v);
	} else if (q == '\'') {
		for (; *v; v++)
			if (*v == '\'')
				sb_add(out, "'\\''");
			else
				sb_addc(out, *v);
	} else if (q == '"') {
		if (strpbrk(v, "$`\\\"!")) {
			sb_addc(out, '"');
			text_shell_quote(out, v);
			sb_addc(out, '"');
		} else {
			sb_add(out, v);
		}
	} else if (looks_like_path(v)) {
		text_shell_quote(out, v);
	} else {
		while (*v) {
			size_t sp = strspn(v, " ");
			sb_addn(out, v, sp);
			v += sp;
			size_t wl = strcspn(v, " ");
			if (!wl)
				break;
			char *w = xstrndup(v, wl);
			text_shell_quote(out, w);
			free(w);
			v += wl;
		}
	}
}

/* The end of the {...} that starts at p (nested braces counted), or NULL. */
static const char *closing_brace(const char *p)
{
	int depth = 0;
	for (; *p; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}' && --depth == 0)
			return p;
	}
	return NULL;
}

/* Whether a condition "key", "key=value" or "!key" holds in ev. */
static bool condition_holds(const char *cond, size_t len, const struct evidence *ev)
{
	bool negate = len && cond[0] == '!';
	if (negate) {
		cond++;
		len--;
	}
	char key[64];
	const char *eq = memchr(cond, '=', len);
	size_t kl = eq ? (size_t)(eq - cond) : len;
	if (kl == 0 || kl >= sizeof key)
		return false;
	memcpy(key, cond, kl);
	key[kl] = '\0';
	const char *v = ev_get(ev, key);
	bool holds = v != NULL;
	if (holds && eq) {
		size_t vl = len - kl - 1;
		holds = strlen(v) == vl && strncmp(v, eq + 1, vl) == 0;
	}
	return negate ? !holds : holds;
}

/* An unfilled slot: the key in capitals (VERSION), a metavariable as man
 * pages write one, which a shell pasting it takes for a plain word (never
 * the redirection "<version>" would be); its name goes to missing. */
static void unfilled(const char *key, struct strbuf *out, struct strbuf *missing)
{
	for (const char *k = key; *k; k++)
		sb_addc(out, (char)toupper((unsigned char)*k));
	if (!missing)
		return;
	struct strbuf up = STRBUF_INIT;
	for (const char *k = key; *k; k++)
		sb_addc(&up, (char)toupper((unsigned char)*k));
	/* each key once, in the order met */
	const char *hay = sb_str(missing);
	size_t ul = up.len;
	bool seen = false;
	for (const char *h = hay; (h = strstr(h, up.buf)) != NULL; h += ul)
		if ((h == hay || h[-1] == ' ') && (h[ul] == ',' || h[ul] == '\0'))
			seen = true;
	if (!seen) {
		if (missing->len)
			sb_add(missing, ", ");
		sb_add(missing, up.buf);
	}
	sb_release(&up);
}

static void expand(const char *tmpl, size_t len, const struct evidence *ev, const char *self_id,
		   struct strbuf *out, bool shell, const char *whole, struct strbuf *missing)
{
	const char *end = tmpl + len;
	for (const char *p = tmpl; p < end;) {
		if (*p == '{' && p + 1 < end && p[1] == '?') {
			/* {?COND:text}: text only when the evidence shows COND. */
			const char *e = closing_brace(p);
			const char *colon = e ? memchr(p, ':', (size_t)(e - p)) : NULL;
			if (e && e < end && colon) {
				if (condition_holds(p + 2, (size_t)(colon - p - 2), ev))
					expand(colon + 1, (size_t)(e - colon - 1), ev, self_id, out, shell,
					       whole, missing);
				p = e + 1;
				continue;
			}
		}
		if (*p == '{') {
			const char *e = memchr(p, '}', (size_t)(end - p));
			/* {key} names evidence; anything else ({{.Name}} of a
			 * docker template, JSON) is text. */
			size_t kl = e ? (size_t)(e - p - 1) : 0;
			for (size_t k = 0; k < kl; k++)
				if (!isalnum((unsigned char)p[1 + k]) && p[1 + k] != '_')
					kl = 0;
			if (kl && kl < 64) {
				char key[64];
				memcpy(key, p + 1, (size_t)(e - p - 1));
				key[e - p - 1] = '\0';
				const char *v = ev_get(ev, key);
				if (!v && self_id && !strcmp(key, "id"))
					v = self_id; /* built in: the check's own id */
				if (!v)
					unfilled(key, out, missing);
				else if (shell)
					put_shell_value(out, key, v, open_quote(whole, p));
				else
					sb_add(out, v);
				p = e + 1;
				continue;
			}
		}
		sb_addc(out, *p++);
	}
}

/* The end of the sentence that starts at p: just after a '.', '!' or '?'
 * that ends the text or is followed by a space, outside braces, brackets
 * and double quotes (a quoted message keeps its own full stops). */
static const char *sentence_end(const char *p)
{
	int braces = 0, parens = 0;
	bool quoted = false;
	for (; *p; p++) {
		if (*p == '{')
			braces++;
		else if (*p == '}' && braces)
			braces--;
		else if (*p == '(' && !braces)
			parens++;
		else if (*p == ')' && parens && !braces)
			parens--;
		else if (*p == '"' && !braces)
			quoted = !quoted;
		else if ((*p == '.' || *p == '!' || *p == '?') && !braces && !parens && !quoted &&
			 (p[1] == ' ' || p[1] == '\0'))
			return p + 1;
	}
	return p;
}

void kb_expand(const char *tmpl, const struct evidence *ev, const char *self_id,
	       struct strbuf *out)
{
	/* Prose, sentence by sentence: a sentence whose slots this evidence
	 * cannot fill states something about a machine that this run did not
	 * show, so it is left out (without any evidence, as in wslgpu kb and
	 * explain, what remains is the general explanation). */
	struct strbuf one = STRBUF_INIT, missing = STRBUF_INIT;
	size_t start = out->len;
	for (const char *p = tmpl; *p;) {
		const char *e = sentence_end(p);
		sb_reset(&one);
		sb_reset(&missing);
		expand(p, (size_t)(e - p), ev, self_id, &one, false, tmpl, &missing);
		if (!missing.len)
			sb_add(out, sb_str(&one));
		p = e;
		while (*p == ' ')
			p++;
		if (!missing.len && *p && out->len > start)
			sb_addc(out, ' ');
	}
	while (out->len > start && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	sb_release(&one);
	sb_release(&missing);
}

void kb_expand_fix(const char *tmpl, const struct evidence *ev, const char *self_id,
		   struct strbuf *out)
{
	struct strbuf missing = STRBUF_INIT;
	expand(tmpl, strlen(tmpl), ev, self_id, out, true, tmpl, &missing);
	/* A command with a slot this run could not fill is a template, and
	 * says so where it is read. */
	/* A whole command (*_FIX, *_CMD) this run did not compute has no
	 * general form: the line is left out. */
	bool whole = strstr(sb_str(&missing), "_FIX") || strstr(sb_str(&missing), "_CMD");
	if (whole)
		sb_reset(out);
	else if (missing.len)
		sb_addf(out, "   " KB_TEMPLATE_MARK "put in %s)", missing.buf);
	sb_release(&missing);
}

size_t kb_unfilled(const char *tmpl, const struct evidence *ev, const char *self_id,
		   struct strbuf *keys)
{
	struct strbuf out = STRBUF_INIT, missing = STRBUF_INIT;
	expand(tmpl, strlen(tmpl), ev, self_id, &out, false, tmpl, &missing);
	size_t n = 0;
	if (missing.len) {
		n = 1;
		for (const char *p = missing.buf; (p = strchr(p, ',')) != NULL; p++)
			n++;
	}
	if (keys) {
		sb_reset(keys);
		sb_add(keys, sb_str(&missing));
	}
	sb_release(&out);
	sb_release(&missing);
	return n;
}

const char *kb_fix_remark(const char *line, struct strbuf *text)
{
	const char *rem = strstr(line, "   (");
	size_t ll = strlen(line);
	if (!rem || ll == 0 || line[ll - 1] != ')')
		return NULL;
	if (text) {
		/* A second remark ("(for a .run install: ...)   (a template:
		 * ...)", kb_expand_fix's mark) joins the first with "; ". */
		sb_reset(text);
		const char *end = line + ll - 1;
		for (const char *p = rem + 4; p < end; p++) {
			if (!strncmp(p, ")   (", 5) && p + 5 <= end) {
				sb_add(text, "; ");
				p += 4;
			} else {
				sb_addc(text, *p);
			}
		}
	}
	return rem;
}

const char *kb_fix_bare_ellipsis(const char *line)
{
	const char *rem = kb_fix_remark(line, NULL);
	size_t len = rem ? (size_t)(rem - line) : strlen(line);
	static const char *const dots[] = { "...", "\xe2\x80\xa6" };
	for (size_t d = 0; d < sizeof dots / sizeof dots[0]; d++) {
		size_t n = strlen(dots[d]);
		for (const char *p = line; (p = strstr(p, dots[d])) != NULL && p + n <= line + len;
		     p += n) {
			/* a word of its own: a blank, a quote or the line's (or a
			 * {?key:...} condition's) edge on both sides */
			char before = p > line ? p[-1] : ' ';
			char after = p + n < line + len ? p[n] : ' ';
			if ((before == ' ' || before == ':' || before == '"' || before == '\'') &&
			    (after == ' ' || after == '}' || after == '"' || after == '\''))
				return p;
		}
	}
	return NULL;
}

bool kb_fix_is_template(const char *line)
{
	/* kb_expand_fix marks a line whose slots this run could not fill. */
	if (strstr(line, KB_TEMPLATE_MARK))
		return true;
	for (const char *p = line; (p = strchr(p, '<')) != NULL; p++) {
		/* "<<" is a here-document, "<&" and "< file" redirections */
		if (!isalpha((unsigned char)p[1]) || (p > line && p[-1] == '<'))
			continue;
		size_t n = strcspn(p + 1, "<>\n");
		if (p[1 + n] == '>' && n <= 80)
			return true;
	}
	return false;
}
