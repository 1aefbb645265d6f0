/*
 * kb.c: `wslgpu kb [WORD...]` — list the knowledge base, or show entries.
 * The same entries explain check findings; this makes them readable alone.
 * A word is an entry's id (shown in full), a layer (its entries listed),
 * a check id or the start of ids (the entries under it listed): the way
 * from a finding or a check line to its entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"
#include "../core/layers.h"
#include "../core/strbuf.h"
#include "../core/text.h"
#include "../core/utf8.h"
#include "../kb/kb.h"
#include "../kb/versions.h"
#include "../probes/registry.h"
#include "../report/finding.h"
#include "cli.h"

/* Entries are listed with the id first on the line (completions read
 * it), the title wrapped under itself, in a column after the widest id
 * listed, but at most at this one. */
#define TITLE_COLUMN_MAX 36

static size_t id_width(const struct kb *kb, const char *layer, const char *word, bool check);

static void list_entry(struct strbuf *out, const struct kb_entry *e, size_t idw)
{
	sb_addf(out, "%-*s  ", (int)idw, e->id);
	int col = (int)(strlen(e->id) > idw ? strlen(e->id) : idw) + 2;
	int indent = (int)idw + 2;
	struct strbuf t = STRBUF_INIT;
	text_sanitize(&t, e->title ? e->title : "");
	struct text_wrap w = { text_columns(), col, indent, 0, NULL };
	text_wrap(out, t.buf, &w);
	sb_addc(out, '\n');
	sb_release(&t);
}

/* Layers in chain order, then those only the knowledge base has (core,
 * policy), in the order their entries first appear. */
static size_t kb_layers(const struct kb *kb, const char **out, size_t max)
{
	size_t k = layer_list_begin(out, max);
	for (size_t i = 0; i < kb->n; i++)
		k = layer_list_add(out, k, max, kb->e[i].layer);
	return k;
}

static size_t layer_count(const struct kb *kb, const char *layer)
{
	size_t n = 0;
	for (size_t i = 0; i < kb->n; i++)
		n += !strcmp(kb->e[i].layer, layer);
	return n;
}

static void list_layer(struct strbuf *out, const struct kb *kb, const char *layer)
{
	size_t n = layer_count(kb, layer);
	if (!n)
		return;
	sb_addf(out, "%s%s: %zu entr%s (wslgpu kb %s)\n", out->len ? "\n" : "", layer, n,
		n == 1 ? "y" : "ies", layer);
	size_t idw = id_width(kb, layer, NULL, false);
	for (size_t i = 0; i < kb->n; i++)
		if (!strcmp(kb->e[i].layer, layer))
			list_entry(out, &kb->e[i], idw);
}

/* Whether the entry's confirm line runs check id first ("wslgpu check
 * --only ID" or "--only ID,..."): the check that proves it. */
static bool confirmed_by(const struct kb_entry *e, const char *id)
{
	static const char pre[] = "wslgpu check --only ";
	if (!e->confirm || strncmp(e->confirm, pre, sizeof pre - 1))
		return false;
	const char *p = e->confirm + sizeof pre - 1;
	size_t n = strlen(id);
	return !strncmp(p, id, n) && (p[n] == '\0' || p[n] == ',' || p[n] == ' ');
}

/* Whether e is under word: its id starts with word (at a dot, for a check
 * id: "bridge.nvidia_dev" is not "bridge.nvidia_device"), or word is a
 * check and e an entry of its layer that it confirms (libs.libcuda's
 * findings are libs.loader.*). */
static bool under(const struct kb_entry *e, const char *word, bool check)
{
	size_t n = strlen(word);
	if (!strncmp(e->id, word, n) && (!check || e->id[n] == '.' || word[n - 1] == '.'))
		return true;
	size_t l = strcspn(word, ".");
	return check && !strncmp(e->id, word, l) && e->id[l] == '.' && confirmed_by(e, word);
}

/* The entries under word, listed; returns how many. */
static size_t list_under(struct strbuf *out, const struct kb *kb, const char *word)
{
	bool check = registry_find(word) >= 0;
	size_t k = 0;
	for (size_t i = 0; i < kb->n; i++)
		k += under(&kb->e[i], word, check);
	if (!k)
		return 0;
	sb_addf(out, "%s%s: %zu entr%s %s\n", out->len ? "\n" : "", word, k, k == 1 ? "y" : "ies",
		check ? (k == 1 ? "explains this check" : "explain this check")
		      : "whose id starts with it");
	size_t idw = id_width(kb, NULL, word, check);
	for (size_t i = 0; i < kb->n; i++)
		if (under(&kb->e[i], word, check))
			list_entry(out, &kb->e[i], idw);
	return k;
}

/* The id column of a listing: the entries of layer, or those under word. */
static size_t id_width(const struct kb *kb, const char *layer, const char *word, bool check)
{
	size_t w = 0;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		if ((layer && !strcmp(e->layer, layer)) || (word && under(e, word, check)))
			if (strlen(e->id) > w)
				w = strlen(e->id);
	}
	return w > TITLE_COLUMN_MAX - 2 ? TITLE_COLUMN_MAX - 2 : w;
}

static void show_list(struct strbuf *out, const char *label, const struct kb_list *l, bool cmd)
{
	for (size_t i = 0; i < l->n; i++)
		(cmd ? finding_command_line : finding_text_line)(out, 2, i ? "" : label, l->v[i]);
}

/* Log patterns as they are: never wrapped (a space inside a literal is
 * part of it) and never taken for a command or words. */
static void show_patterns(struct strbuf *out, const char *label, const struct kb_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct strbuf clean = STRBUF_INIT;
		text_sanitize(&clean, l->v[i]);
		sb_addf(out, "  %-*s %s\n", FINDING_TEXT_COLUMN - 3, i ? "" : label, clean.buf);
		sb_release(&clean);
	}
}

/* One entry in full, in the finding layout, its texts as they read
 * without a machine's evidence. */
static void show_entry(struct strbuf *out, const struct kb_entry *e)
{
	struct strbuf l = STRBUF_INIT;
	sb_addf(out, "%s[%s] ", out->len ? "\n" : "", e->id);
	struct strbuf t = STRBUF_INIT;
	text_sanitize(&t, e->title ? e->title : "");
	struct text_wrap w = { text_columns(), (int)strlen(e->id) + 3, 2, 0, NULL };
	text_wrap(out, t.buf, &w);
	sb_addc(out, '\n');
	sb_release(&t);
	sb_addf(&l, "%s (%s)", e->layer, e->kind);
	finding_text_line(out, 2, "layer", l.buf);
	sb_release(&l);
	if (e->platform)
		finding_text_line(out, 2, "platform", e->platform);
	/* Read without a machine's evidence, the way explain shows it:
	 * general advice, a slot no run filled in capitals (VERSION). */
	struct finding_view fv;
	finding_expand(&fv, e, NULL, NULL);
	if (fv.cause)
		finding_text_line(out, 2, "cause", fv.cause);
	struct kb_list fixes = { (const char **)fv.fix, fv.nfix };
	show_list(out, "fix", &fixes, true);
	finding_view_release(&fv);
	if (e->confirm)
		finding_command_line(out, 2, "confirm", e->confirm);
	show_list(out, "source", &e->source, false);
	show_patterns(out, "match", &e->match);
	show_patterns(out, "regex", &e->regex);
	show_list(out, "see", &e->see, true);
}

/* "no entry" with the closest ids. */
static void no_entry(const struct kb *kb, const char *id)
{
	const char **ids = xcalloc(kb->n, sizeof *ids), *near[4];
	for (size_t i = 0; i < kb->n; i++)
		ids[i] = kb->e[i].id;
	size_t k = cli_similar(id, ids, kb->n, near, 4);
	struct strbuf m = STRBUF_INIT;
	for (size_t i = 0; i < k; i++)
		sb_addf(&m, "%s%s", i ? ", " : k == 1 ? "; did you mean " : "; did you mean one of: ",
			near[i]);
	errorf("no entry '%s'%s%s (list them all: wslgpu kb)", id, sb_str(&m), k ? "?" : "");
	sb_release(&m);
	free(ids);
}

/* Whether the entry mentions word (any case): in its id, title, cause,
 * fixes or the text it matches in a log. */
static bool mentions(const struct kb_entry *e, const char *word)
{
	if (strcasestr(e->id, word) || (e->title && strcasestr(e->title, word)) ||
	    (e->cause && strcasestr(e->cause, word)))
		return true;
	for (size_t i = 0; i < e->fix.n; i++)
		if (strcasestr(e->fix.v[i], word))
			return true;
	for (size_t i = 0; i < e->match.n; i++)
		if (strcasestr(e->match.v[i], word))
			return true;
	return false;
}

/* --search WORD: the entries that mention it, listed; how many. */
static size_t search(struct strbuf *out, const struct kb *kb, const char *word)
{
	size_t k = 0, idw = 0;
	for (size_t i = 0; i < kb->n; i++)
		if (mentions(&kb->e[i], word)) {
			k++;
			idw = strlen(kb->e[i].id) > idw ? strlen(kb->e[i].id) : idw;
		}
	if (!k)
		return 0;
	struct strbuf w = STRBUF_INIT;
	text_sanitize_line(&w, word);
	sb_addf(out, "%zu entr%s mention%s '%s' (wslgpu kb ID shows one in full)\n", k,
		k == 1 ? "y" : "ies", k == 1 ? "s" : "", w.buf);
	sb_release(&w);
	if (idw > TITLE_COLUMN_MAX - 2)
		idw = TITLE_COLUMN_MAX - 2;
	for (size_t i = 0; i < kb->n; i++)
		if (mentions(&kb->e[i], word))
			list_entry(out, &kb->e[i], idw);
	return k;
}

struct kb_args {
	const char *search;
};

#define ARGS struct kb_args
static const struct cli_option kb_options[] = {
	OPT_STRING(0, "search", ARGS, search, "WORD",
		   "list the entries whose id, title, cause, fixes or log text mention WORD (any "
		   "case)"),
	OPT_END(),
};
#undef ARGS

static const char *const kb_usage[] = { "wslgpu kb [WORD...]", "wslgpu kb --search WORD", NULL };

const struct cli_command kb_command = {
	.name = "kb",
	.run = cmd_kb,
	.summary = "show knowledge-base entries (causes and fixes)",
	.root = ROOT_IGNORED,
	.usage = kb_usage,
	.about = "Without words, lists every knowledge-base entry, layer by layer. A word\n"
		 "that is an entry's id shows it in full; a layer (libs) lists its entries;\n"
		 "a check id (bridge.dxg) or the start of ids (libs.loader) lists the\n"
		 "entries under it.\n",
	.options = kb_options,
	.epilog = "Exit status: 0 shown, 1 --search found nothing, 2 a word names no entry (or\n"
		  "another usage error), 3 the output could not be written.\n",
};

int cmd_kb(int argc, char **argv)
{
	const struct kb *kb = kb_builtin();
	struct kb_args args = { 0 };
	int n = parse_options(&kb_command, argc, argv, &args);
	if (n < 0)
		return parse_exit(n);
	struct strbuf out = STRBUF_INIT;
	int rc = EXIT_OK;
	if (args.search) {
		if (n > 0) {
			cli_usage_error("kb", "--search takes one word, not words as well ('%s')",
					argv[0]);
			sb_release(&out);
			return EXIT_USAGE;
		}
		if (!search(&out, kb, args.search)) {
			struct strbuf w = STRBUF_INIT;
			text_escape(&w, args.search);
			errorf("no entry mentions '%s' (list them all: wslgpu kb)", w.buf);
			sb_release(&w);
			rc = EXIT_FAILED;
		}
	} else if (n == 0) {
		sb_addf(&out, "knowledge: version tables of %s, last checked %s (doc/facts.md)\n",
			KNOWLEDGE_DATE, KNOWLEDGE_CHECKED);
		const char *layers[64];
		size_t nl = kb_layers(kb, layers, 64);
		for (size_t l = 0; l < nl; l++)
			list_layer(&out, kb, layers[l]);
	}
	for (int i = 0; i < n; i++) {
		const char *word = argv[i];
		const struct kb_entry *e = kb_find(word);
		if (e)
			show_entry(&out, e);
		else if (*word && layer_count(kb, word))
			list_layer(&out, kb, word);
		else if (!*word || !list_under(&out, kb, word)) {
			fputs(sb_str(&out), stdout);
			sb_reset(&out);
			no_entry(kb, word);
			rc = EXIT_USAGE;
		}
	}
	/* read on a terminal: ~1,300 lines for the whole list */
	if (out.len)
		pager_start();
	fputs(sb_str(&out), stdout);
	sb_release(&out);
	return rc;
}
