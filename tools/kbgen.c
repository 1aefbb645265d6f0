/*
 * kbgen: the knowledge base compiled at build time (make runs it).
 *
 *   kbgen TABLES.c TABLES.bin IDS.h FILE.kb...
 *
 * Reads the .kb files with the parser the binary itself uses for
 * `explain --kb` (src/kb/kb.c), builds the signature matcher with the
 * same code (explain_db_build: every pattern compiled, every literal and
 * prefilter key derived, the Aho-Corasick automaton), checks what
 * src/kb/README.md promises of every entry, and writes
 *
 *   TABLES.c    the entries and the matcher as C data, with kb_builtin()
 *               and explain_db_builtin() returning them: a run parses and
 *               builds nothing;
 *   TABLES.bin  the automaton's integer tables (megabytes: C initialisers
 *               of that size take seconds to compile), which TABLES.c
 *               includes with .incbin, by the path given here (relative to
 *               where the compiler runs: the top directory). Host byte
 *               order: the build and the binary run on one machine;
 *   IDS.h       one constant per entry id, KB_LIBS_LIBCUDA_DISTRO_COPY for
 *               [libs.libcuda.distro_copy], so that code naming an entry
 *               that does not exist does not compile.
 *
 * Each output is rewritten only when its text changes, so that editing a
 * cause rebuilds the tables, not every file that includes IDS.h.
 * A mistake is reported as "file:line: message" and the exit status is 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../src/core/strbuf.h"
#include "../src/explain/matcher.h"
#include "../src/kb/kb.h"

static struct kb kb;

/* kb.c's kb_find looks here: the entries being compiled. */
const struct kb *kb_builtin(void)
{
	return &kb;
}

const struct kb_entry *kb_builtin_find(const char *id)
{
	return kb_find_in(&kb, id);
}

static int failed;

static void complain(const struct kb_entry *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void complain(const struct kb_entry *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s:%d: [%s] ", e->file, e->line, e->id);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	failed = 1;
}

/* What make promises of the built-in KB beyond what kb_parse and
 * explain_db_build check (src/kb/README.md): a source to cite, as an
 * address a user can open; a kind the tool knows; established: only on a
 * cause; signatures that name a cause and whose regexes have a prefilter
 * key; fix lines with no bare "..." to stand for what the user supplies. */
static void check_entries(const struct explain_db *db)
{
	for (size_t i = 0; i < kb.n; i++) {
		const struct kb_entry *e = &kb.e[i];
		if (!e->source.n)
			complain(e, "has no source");
		for (size_t j = 0; j < e->source.n; j++)
			if (strncmp(e->source.v[j], "https://", 8))
				complain(e, "source is not an https:// address: %s", e->source.v[j]);
		if (strcmp(e->kind, "finding") && strcmp(e->kind, "noise") && strcmp(e->kind, "myth") &&
		    strcmp(e->kind, "signature"))
			complain(e, "kind: %s is not finding, noise, myth or signature", e->kind);
		if (e->established && !strcmp(e->kind, "signature"))
			complain(e, "established: is a cause's (what establishes it), not a signature's");
		for (size_t j = 0; j < e->fix.n; j++)
			if (kb_fix_bare_ellipsis(e->fix.v[j]))
				complain(e, "fix %zu has a bare '...' that cannot be typed as shown: name "
					    "what goes there in capitals with a template remark "
					    "(IMAGE, PROGRAM: src/kb/README.md): %s",
					 j + 1, e->fix.v[j]);
		if (e->rare && (strcmp(e->rare, "yes") || !e->platform || !e->support.n ||
				!strcmp(e->kind, "signature")))
			complain(e, "rare: yes is for a cause with platform: and support: lines "
				    "(what makes it lead on its platform)");
		int si = explain_db_find(db, e->id);
		if (!strcmp(e->kind, "signature") && si < 0)
			complain(e, "a signature needs match: or regex: lines");
		if (si < 0)
			continue;
		if (!strcmp(e->kind, "signature") && !db->sig[si].ncause)
			complain(e, "a signature needs see: with a cause");
		if (db->sig[si].always)
			complain(e, "a regex has no literal of three characters that every match "
				    "holds, so it would run on every line");
	}
}

/* ---- writing C ---- */

static void put_str(struct strbuf *o, const char *s)
{
	if (!s) {
		sb_add(o, "NULL");
		return;
	}
	sb_addc(o, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\' || *p == '?') /* '?': no trigraphs */
			sb_addf(o, "\\%c", *p);
		else if (*p == '\n')
			sb_add(o, "\\n");
		else if (*p == '\t')
			sb_add(o, "\\t");
		else if (*p < 0x20 || *p >= 0x7f)
			sb_addf(o, "\\%03o", *p);
		else
			sb_addc(o, (char)*p);
	}
	sb_addc(o, '"');
}

/*
 * The tables hold no pointers: a string is an offset into one pool
 * (kb_pool), an entry or a signature an index. Pointers in static data are
 * relocations the loader writes at every start of every command (19,000 of
 * them were 81 % of the relocations, and ~90 pages copied and written
 * before main); offsets keep the tables in .rodata, shared with the page
 * cache and never written. The structs the rest of the tool reads (kb.h,
 * matcher.h) are filled from them at first use (kb_builtin_entry,
 * explain_db_builtin), in memory of their own: an entry when it is looked
 * up, the matcher when a process first matches.
 */

/* The pool: every distinct string once, NUL-terminated. */
struct pool {
	struct strbuf text; /* the C initialiser, one literal per string */
	size_t len;         /* bytes so far */
	char **key;         /* open addressing: the strings... */
	size_t *off;        /* ...and their offsets */
	size_t cap, n;
};

static size_t hash_str(const char *s)
{
	size_t h = 5381;
	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

/* s's offset in the pool, adding it if it is new. */
static size_t pool_add(struct pool *p, const char *s)
{
	if (p->n * 2 >= p->cap) {
		struct pool old = *p;
		p->cap = old.cap ? old.cap * 2 : 4096;
		p->key = xcalloc(p->cap, sizeof *p->key);
		p->off = xcalloc(p->cap, sizeof *p->off);
		p->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.key[i]) {
				size_t h = hash_str(old.key[i]) & (p->cap - 1);
				while (p->key[h])
					h = (h + 1) & (p->cap - 1);
				p->key[h] = old.key[i];
				p->off[h] = old.off[i];
				p->n++;
			}
		free(old.key);
		free(old.off);
	}
	size_t h = hash_str(s) & (p->cap - 1);
	while (p->key[h]) {
		if (!strcmp(p->key[h], s))
			return p->off[h];
		h = (h + 1) & (p->cap - 1);
	}
	p->key[h] = xstrdup(s);
	p->off[h] = p->len;
	p->n++;
	sb_add(&p->text, "\t");
	put_str(&p->text, s);
	sb_add(&p->text, " \"\\0\"\n");
	p->len += strlen(s) + 1;
	return p->off[h];
}

/* A field that may be NULL: 0, or its offset + 1. */
static size_t pool_ref(struct pool *p, const char *s)
{
	return s ? pool_add(p, s) + 1 : 0;
}

static void pool_free(struct pool *p)
{
	for (size_t i = 0; i < p->cap; i++)
		free(p->key[i]);
	free(p->key);
	free(p->off);
	sb_release(&p->text);
}

/* An entry's lists, in the order of struct kb_packed's. */
static const struct kb_list *entry_list(const struct kb_entry *e, int k)
{
	const struct kb_list *l[8] = { &e->fix, &e->source, &e->match, &e->regex,
				       &e->see, &e->support, &e->exclude, &e->context };
	return l[k];
}

/* What the generated code defines before the tables: the packed forms. */
static const char packed_types[] =
	"/* An entry as offsets: strings into kb_pool (+ 1; 0 is NULL), lists as\n"
	" * their first value in kb_values and how many. */\n"
	"struct kb_packed {\n"
	"\tuint32_t id, layer, kind, title, cause, confirm, platform, family, established, rare, file;\n"
	"\tuint32_t list[8]; /* fix source match regex see support exclude context */\n"
	"\tuint16_t nlist[8];\n"
	"\tint32_t line;\n"
	"};\n\n"
	"struct sig_packed {\n"
	"\tuint32_t e, kind, cause, ncause, refines, nrefines, refined_by, nrefined_by, re, nre;\n"
	"\tuint32_t keymax;\n"
	"\tbool always, and, context;\n"
	"\tunsigned char edge;\n"
	"};\n\n"
	"struct key_packed {\n"
	"\tuint32_t arg, text, same;\n"
	"\tunsigned char kind;\n"
	"};\n\n"
	"struct re_packed {\n"
	"\tuint32_t src, id;\n"
	"\tunsigned char edge;\n"
	"};\n\n";

static void put_entries(struct strbuf *o, struct pool *pool)
{
	size_t at = 0;
	struct strbuf vals = STRBUF_INIT;
	sb_addf(o, "static const struct kb_packed kb_packed[%zu] = {\n", kb.n ? kb.n : 1);
	for (size_t i = 0; i < kb.n; i++) {
		const struct kb_entry *e = &kb.e[i];
		sb_addf(o, "\t{ %zu, %zu, %zu, %zu, %zu, %zu, %zu, %zu, %zu, %zu, %zu,\n\t  {",
			pool_ref(pool, e->id), pool_ref(pool, e->layer), pool_ref(pool, e->kind),
			pool_ref(pool, e->title), pool_ref(pool, e->cause),
			pool_ref(pool, e->confirm), pool_ref(pool, e->platform),
			pool_ref(pool, e->family), pool_ref(pool, e->established),
			pool_ref(pool, e->rare), pool_ref(pool, e->file));
		for (int k = 0; k < 8; k++) {
			const struct kb_list *l = entry_list(e, k);
			sb_addf(o, " %zu,", l->n ? at : 0);
			for (size_t j = 0; j < l->n; j++)
				sb_addf(&vals, "%s%zu,", at++ % 16 ? " " : "\n\t", pool_add(pool, l->v[j]));
		}
		sb_add(o, " }, {");
		for (int k = 0; k < 8; k++) {
			if (entry_list(e, k)->n > 65535) {
				complain(e, "a list of more than 65535 values");
				break;
			}
			sb_addf(o, " %zu,", entry_list(e, k)->n);
		}
		sb_addf(o, " }, %d },\n", e->line);
	}
	sb_add(o, "};\n\n");
	sb_addf(o, "static const uint32_t kb_values[%zu] = {%s\n};\n\n", at ? at : 1,
		at ? vals.buf : " 0");
	sb_release(&vals);
	sb_addf(o, "static const size_t kb_byid[%zu] = {", kb.n ? kb.n : 1);
	for (size_t i = 0; i < kb.n; i++)
		sb_addf(o, "%s%zu,", i % 16 ? " " : "\n\t", kb.byid[i]);
	sb_add(o, "\n};\n\n");
	sb_addf(o, "#define KB_N %zuu\n#define KB_NVALUES %zuu\n\n", kb.n, at);
}

/* The code that fills kb.h's structs from the packed tables. */
static const char entries_code[] =
	"/* The entries as kb.h has them, each filled at its first use; the\n"
	" * arrays are static and whole so that an entry has one address however\n"
	" * it was reached (zero pages from the kernel: untouched ones cost\n"
	" * nothing, where calloc cleared them all by hand). */\n"
	"static struct kb_entry kb_filled[KB_N ? KB_N : 1];\n"
	"static const char *kb_filled_values[KB_NVALUES ? KB_NVALUES : 1];\n\n"
	"static const char *kb_str(uint32_t ref)\n"
	"{\n"
	"\treturn ref ? kb_pool + ref - 1 : NULL;\n"
	"}\n\n"
	"const struct kb_entry *kb_builtin_entry(size_t i)\n"
	"{\n"

	"\tstruct kb_entry *e = &kb_filled[i];\n"
	"\tif (e->id)\n"
	"\t\treturn e;\n"
	"\tconst struct kb_packed *p = &kb_packed[i];\n"
	"\tstruct kb_list *l[8] = { &e->fix, &e->source, &e->match, &e->regex,\n"
	"\t\t\t\t &e->see, &e->support, &e->exclude, &e->context };\n"
	"\tfor (int k = 0; k < 8; k++) {\n"
	"\t\tif (!p->nlist[k])\n"
	"\t\t\tcontinue;\n"
	"\t\tconst char **v = kb_filled_values + p->list[k];\n"
	"\t\tfor (size_t j = 0; j < p->nlist[k]; j++)\n"
	"\t\t\tv[j] = kb_pool + kb_values[p->list[k] + j];\n"
	"\t\tl[k]->v = v;\n"
	"\t\tl[k]->n = p->nlist[k];\n"
	"\t}\n"
	"\te->layer = kb_str(p->layer);\n"
	"\te->kind = kb_str(p->kind);\n"
	"\te->title = kb_str(p->title);\n"
	"\te->cause = kb_str(p->cause);\n"
	"\te->confirm = kb_str(p->confirm);\n"
	"\te->platform = kb_str(p->platform);\n"
	"\te->family = kb_str(p->family);\n"
	"\te->established = kb_str(p->established);\n"
	"\te->rare = kb_str(p->rare);\n"
	"\te->file = kb_str(p->file);\n"
	"\te->line = p->line;\n"
	"\te->id = kb_str(p->id); /* last: it marks the entry filled */\n"
	"\treturn e;\n"
	"}\n\n"
	"const struct kb_entry *kb_builtin_find(const char *id)\n"
	"{\n"
	"\tsize_t lo = 0, hi = KB_N;\n"
	"\twhile (lo < hi) {\n"
	"\t\tsize_t mid = lo + (hi - lo) / 2;\n"
	"\t\tint c = strcmp(kb_pool + kb_packed[kb_byid[mid]].id - 1, id);\n"
	"\t\tif (!c)\n"
	"\t\t\treturn kb_builtin_entry(kb_byid[mid]);\n"
	"\t\tif (c < 0)\n"
	"\t\t\tlo = mid + 1;\n"
	"\t\telse\n"
	"\t\t\thi = mid;\n"
	"\t}\n"
	"\treturn NULL;\n"
	"}\n\n"
	"const struct kb *kb_builtin(void)\n"
	"{\n"
	"\tstatic struct kb kb;\n"
	"\tif (!kb.e) {\n"
	"\t\tfor (size_t i = 0; i < KB_N; i++)\n"
	"\t\t\tkb_builtin_entry(i);\n"
	"\t\tkb.e = kb_filled;\n"
	"\t\tkb.n = KB_N;\n"
	"\t\tkb.byid = (size_t *)kb_byid; /* never written */\n"
	"\t}\n"
	"\treturn &kb;\n"
	"}\n\n";

/* An array of numbers, or nothing when n is 0 (C has no empty arrays);
 * the reference to it is then NULL. */
static void put_sizes(struct strbuf *o, const char *decl, const size_t *v, size_t n)
{
	if (!n)
		return;
	sb_addf(o, "%s[%zu] = {", decl, n);
	for (size_t i = 0; i < n; i++)
		sb_addf(o, "%s%zu,", i % 16 ? " " : "\n\t", v[i]);
	sb_add(o, "\n};\n");
}

static size_t entry_index(const struct kb_entry *e)
{
	if (e < kb.e || e >= kb.e + kb.n) {
		fprintf(stderr, "kbgen: a signature points outside the KB\n");
		exit(1);
	}
	return (size_t)(e - kb.e);
}

/* The automaton's integer tables, in the order TABLES.bin holds them. */
struct blob_part {
	const char *field, *type;
	const void *data;
	size_t n; /* 4-byte elements */
};

static void put_matcher(struct strbuf *o, const struct explain_db *db, const char *bin_path,
			struct strbuf *bin, struct pool *pool)
{
	/* Causes, and the index lists: refinements both ways, then the rest. */
	size_t ncause = 0, nidx = 0, nre = 0;
	for (size_t i = 0; i < db->n; i++) {
		ncause += db->sig[i].ncause;
		nidx += db->sig[i].nrefines + db->sig[i].nrefined_by;
		nre += db->sig[i].nre;
	}
	sb_addf(o, "static const uint32_t ex_causes[%zu] = {", ncause ? ncause : 1);
	size_t k = 0;
	for (size_t i = 0; i < db->n; i++)
		for (size_t j = 0; j < db->sig[i].ncause; j++)
			sb_addf(o, "%s%zu,", k++ % 16 ? " " : "\n\t", entry_index(db->sig[i].cause[j]));
	sb_add(o, ncause ? "\n};\n" : " 0 };\n");
	size_t *idx = xcalloc(nidx ? nidx : 1, sizeof *idx), ni = 0;
	for (size_t i = 0; i < db->n; i++) {
		memcpy(idx + ni, db->sig[i].refines, db->sig[i].nrefines * sizeof *idx);
		ni += db->sig[i].nrefines;
		memcpy(idx + ni, db->sig[i].refined_by, db->sig[i].nrefined_by * sizeof *idx);
		ni += db->sig[i].nrefined_by;
	}
	put_sizes(o, "static const size_t ex_refs", idx, nidx);
	free(idx);
	put_sizes(o, "static const size_t ex_always", db->always, db->nalways);
	put_sizes(o, "static const size_t ex_byid", db->byid, db->n);
	sb_addf(o, "static const struct re_packed ex_regexes[%zu] = {\n", nre ? nre : 1);
	for (size_t i = 0; i < db->n; i++)
		for (size_t j = 0; j < db->sig[i].nre; j++) {
			const struct explain_re *r = &db->sig[i].re[j];
			sb_addf(o, "\t{ %zu, %zu, %u },\n", pool_add(pool, r->src), r->id, r->edge);
		}
	sb_add(o, nre ? "};\n" : "\t{ 0, 0, 0 }\n};\n");
	sb_addf(o, "\nstatic const struct sig_packed ex_sigs[%zu] = {\n", db->n ? db->n : 1);
	size_t oc = 0, oi = 0, orx = 0;
	for (size_t i = 0; i < db->n; i++) {
		const struct explain_sig *g = &db->sig[i];
		sb_addf(o, "\t{ %zu, %zu, %zu, %zu, ", entry_index(g->e), pool_ref(pool, g->kind), oc,
			g->ncause);
		oc += g->ncause;
		sb_addf(o, "%zu, %zu, ", oi, g->nrefines);
		oi += g->nrefines;
		sb_addf(o, "%zu, %zu, ", oi, g->nrefined_by);
		oi += g->nrefined_by;
		sb_addf(o, "%zu, %zu, %zu, %s, %s, %s, %u },\n", orx, g->nre, g->keymax,
			g->always ? "true" : "false", g->and ? "true" : "false",
			g->context ? "true" : "false", g->edge);
		orx += g->nre;
	}
	sb_add(o, "};\n\n");
	sb_addf(o, "static const struct key_packed ex_keys[%zu] = {\n", db->nkeys ? db->nkeys : 1);
	for (size_t i = 0; i < db->nkeys; i++) {
		const struct explain_key *q = &db->key[i];
		sb_addf(o, "\t{ %zu, %zu, %zu, %u },\n", q->arg, pool_ref(pool, q->text), q->same,
			q->kind);
	}
	sb_add(o, "};\n\n");
	if (db->ncodesig) {
		sb_addf(o, "static const struct explain_codesig ex_codesigs[%zu] = {\n", db->ncodesig);
		for (size_t i = 0; i < db->ncodesig; i++)
			sb_addf(o, "\t{ .code = %d, .sig = %zu },\n", db->codesig[i].code, db->codesig[i].sig);
		sb_add(o, "};\n");
	}

	const struct ac *ac = &db->ac;
	size_t ns = (size_t)ac->nstates;
	const struct blob_part parts[] = {
		{ "next", "const uint32_t *", ac->next, (size_t)ac->ndense * (size_t)ac->ncls },
		{ "edge_at", "const uint32_t *", ac->edge_at, ns - (size_t)ac->ndense + 1 },
		{ "edge", "const uint32_t *", ac->edge, ac->nedges },
		{ "own", "const int32_t *", ac->own, ns },
		{ "dict", "const int32_t *", ac->dict, ns },
		{ "fail", "const int32_t *", ac->fail, ns },
		{ "depth", "const int32_t *", ac->depth, ns },
		{ "owner", "const int32_t *", ac->owner, ns },
	};
	size_t nparts = sizeof parts / sizeof parts[0];
	for (size_t i = 0; i < nparts; i++)
		sb_addn(bin, parts[i].data, parts[i].n * 4);
	sb_add(o, "/* The automaton's tables, from the file kbgen wrote beside this one. */\n"
		  "__asm__(\".pushsection .rodata\\n\"\n"
		  "\t\".balign 64\\n\"\n"
		  "\t\".globl kb_automaton\\n\"\n"
		  "\t\".hidden kb_automaton\\n\"\n"
		  "\t\"kb_automaton:\\n\"\n"
		  "\t\".incbin \\\"");
	sb_add(o, bin_path);
	sb_add(o, "\\\"\\n\"\n"
		  "\t\".popsection\\n\");\n"
		  "extern const uint32_t kb_automaton[];\n\n");
	sb_add(o, "static const struct ac_out ex_outs[] = {\n");
	for (size_t i = 0; i < ac->nkeys; i++)
		sb_addf(o, "\t{ %d, %d },\n", ac->outs[i].key, ac->outs[i].next);
	sb_add(o, "\t{ -1, -1 }\n};\n");
	put_sizes(o, "static const size_t ex_keylen", ac->keylen, ac->nkeys);

	/* What has no pointer is constant as it is; the rest is filled in. */
	sb_add(o, "\nstatic const struct explain_db ex_shape = {\n");
	sb_addf(o, "\t.n = %zu,\n\t.nkeys = %zu,\n", db->n, db->nkeys);
	sb_addf(o, "\t.nalways = %zu,\n\t.nre = %zu,\n", db->nalways, db->nre);
	sb_addf(o, "\t.ncodesig = %zu,\n\t.code_families = %uu,\n", db->ncodesig, db->code_families);
	sb_add(o, "\t.ac = {\n\t\t.cls = {");
	for (int i = 0; i < 256; i++)
		sb_addf(o, "%s%u,", i % 16 ? " " : "\n\t\t\t", ac->cls[i]);
	sb_addf(o, "\n\t\t},\n\t\t.ncls = %d,\n\t\t.nstates = %d,\n\t\t.ndense = %d,\n", ac->ncls,
		ac->nstates, ac->ndense);
	sb_addf(o, "\t\t.nedges = %uu,\n", ac->nedges);
	sb_addf(o, "\t\t.nkeys = %zu,\n\t},\n};\n\n", ac->nkeys);

	sb_add(o, "/* The matcher as matcher.h has it, filled at the first call (a process\n"
		  " * that matches nothing never builds it). */\n"
		  "const struct explain_db *explain_db_builtin(void)\n{\n"
		  "\tstatic struct explain_db db;\n"
		  "\tif (db.sig)\n\t\treturn &db;\n"
		  "\tstruct explain_db d = ex_shape;\n"
		  "\t/* static, as kb_filled: zero pages, not cleared by hand */\n"
		  "\tstatic const struct kb_entry *causes[sizeof ex_causes / sizeof ex_causes[0]];\n"
		  "\tfor (size_t i = 0; i < sizeof ex_causes / sizeof ex_causes[0]; i++)\n"
		  "\t\tcauses[i] = kb_builtin_entry(ex_causes[i]);\n"
		  "\tstatic struct explain_re re[sizeof ex_regexes / sizeof ex_regexes[0]];\n"
		  "\tfor (size_t i = 0; i < sizeof ex_regexes / sizeof ex_regexes[0]; i++) {\n"
		  "\t\tre[i].src = kb_pool + ex_regexes[i].src;\n"
		  "\t\tre[i].rx.lazy = re[i].src;\n"
		  "\t\tre[i].id = ex_regexes[i].id;\n"
		  "\t\tre[i].edge = ex_regexes[i].edge;\n"
		  "\t}\n"
		  "\tstatic struct explain_sig sig[sizeof ex_sigs / sizeof ex_sigs[0]];\n"
		  "\tfor (size_t i = 0; i < d.n; i++) {\n"
		  "\t\tconst struct sig_packed *p = &ex_sigs[i];\n"
		  "\t\tsig[i] = (struct explain_sig){\n"
		  "\t\t\t.e = kb_builtin_entry(p->e),\n"
		  "\t\t\t.kind = kb_str(p->kind),\n"
		  "\t\t\t.cause = p->ncause ? causes + p->cause : NULL,\n"
		  "\t\t\t.ncause = p->ncause,\n");
	/* ex_refs exists only when some signature refines another. */
	sb_addf(o, "\t\t\t.refines = %s,\n", nidx ? "p->nrefines ? (size_t *)ex_refs + p->refines : NULL"
						: "NULL");
	sb_add(o, "\t\t\t.nrefines = p->nrefines,\n");
	sb_addf(o, "\t\t\t.refined_by = %s,\n",
		nidx ? "p->nrefined_by ? (size_t *)ex_refs + p->refined_by : NULL" : "NULL");
	sb_add(o, "\t\t\t.nrefined_by = p->nrefined_by,\n"
		  "\t\t\t.re = p->nre ? re + p->re : NULL,\n"
		  "\t\t\t.nre = p->nre,\n"
		  "\t\t\t.always = p->always,\n"
		  "\t\t\t.and = p->and,\n"
		  "\t\t\t.context = p->context,\n"
		  "\t\t\t.edge = p->edge,\n"
		  "\t\t\t.keymax = p->keymax,\n"
		  "\t\t};\n"
		  "\t}\n"
		  "\tstatic struct explain_key key[sizeof ex_keys / sizeof ex_keys[0]];\n"
		  "\tfor (size_t i = 0; i < d.nkeys; i++) {\n"
		  "\t\tkey[i].kind = ex_keys[i].kind;\n"
		  "\t\tkey[i].arg = ex_keys[i].arg;\n"
		  "\t\tkey[i].text = (char *)kb_str(ex_keys[i].text); /* never written */\n"
		  "\t\tkey[i].same = ex_keys[i].same;\n"
		  "\t}\n"
		  "\td.key = key;\n");
	if (db->n)
		sb_add(o, "\td.byid = (size_t *)ex_byid;\n");
	if (db->nalways)
		sb_add(o, "\td.always = (size_t *)ex_always;\n");
	if (db->ncodesig)
		sb_add(o, "\td.codesig = (struct explain_codesig *)ex_codesigs;\n");
	size_t off = 0;
	for (size_t i = 0; i < nparts; i++) {
		sb_addf(o, "\td.ac.%s = (%s)(kb_automaton + %zu);\n", parts[i].field, parts[i].type, off);
		off += parts[i].n;
	}
	sb_add(o, "\td.ac.outs = ex_outs;\n");
	if (ac->nkeys)
		sb_add(o, "\td.ac.keylen = ex_keylen;\n");
	sb_add(o, "\td.sig = sig;\n\tdb = d;\n\treturn &db;\n}\n");
}

/* KB_ and the id in capitals, '.' and '-' as '_'. */
static void constant_name(struct strbuf *o, const char *id)
{
	sb_add(o, "KB_");
	for (const char *p = id; *p; p++)
		sb_addc(o, *p == '.' || *p == '-' ? '_' : (*p >= 'a' && *p <= 'z') ? (char)(*p - 32) : *p);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void put_ids(struct strbuf *o)
{
	sb_add(o, "/* Generated by tools/kbgen from the src/kb files: one constant per entry\n"
		  " * id. Do not edit. See src/kb/kb.h. */\n"
		  "#ifndef WSLGPU_KB_IDS_H\n#define WSLGPU_KB_IDS_H\n\n");
	/* Two ids that differ only in '.', '_' or '-' would make one name. */
	char **names = xcalloc(kb.n ? kb.n : 1, sizeof *names);
	for (size_t i = 0; i < kb.n; i++) {
		struct strbuf n = STRBUF_INIT;
		constant_name(&n, kb.e[kb.byid[i]].id);
		names[i] = sb_detach(&n);
		sb_addf(o, "#define %s ", names[i]);
		put_str(o, kb.e[kb.byid[i]].id);
		sb_addc(o, '\n');
	}
	qsort(names, kb.n, sizeof *names, by_name);
	for (size_t i = 1; i < kb.n; i++)
		if (!strcmp(names[i - 1], names[i])) {
			for (size_t j = 0; j < kb.n; j++) {
				struct strbuf n = STRBUF_INIT;
				constant_name(&n, kb.e[j].id);
				if (!strcmp(n.buf, names[i]))
					complain(&kb.e[j], "its constant %s names another entry too",
						 names[i]);
				sb_release(&n);
			}
			break;
		}
	for (size_t i = 0; i < kb.n; i++)
		free(names[i]);
	free(names);
	sb_add(o, "\n#endif\n");
}

/* ---- files ---- */

static int read_file(const char *path, struct strbuf *sb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int rc = sb_read_fd(sb, fd, (size_t)1 << 30, NULL);
	close(fd);
	return rc;
}

/* Writes data to path unless path holds exactly that already. */
static int write_if_changed(const char *path, const struct strbuf *data)
{
	struct strbuf old = STRBUF_INIT;
	bool same = read_file(path, &old) == 0 && old.len == data->len &&
		    !memcmp(old.buf, data->buf, data->len);
	sb_release(&old);
	if (same)
		return 0;
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "wb");
	bool ok = f && fwrite(data->buf, 1, data->len, f) == data->len;
	if (f && fclose(f))
		ok = false;
	if (!ok || rename(tmp, path)) {
		fprintf(stderr, "kbgen: cannot write %s: %s\n", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: kbgen TABLES.c TABLES.bin IDS.h FILE.kb...\n");
		return 2;
	}
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	for (int i = 4; i < argc; i++) {
		sb_addf(&text, "@file %s\n", argv[i]);
		int rc = read_file(argv[i], &text);
		if (rc < 0) {
			fprintf(stderr, "kbgen: %s: %s\n", argv[i], strerror(-rc));
			return 1;
		}
		if (text.len && text.buf[text.len - 1] != '\n')
			sb_addc(&text, '\n');
	}
	if (kb_parse(text.buf, text.len, &kb, &err) < 0) {
		fprintf(stderr, "%s\n", err.buf);
		return 1;
	}
	struct explain_db db;
	const struct kb *kbs[] = { &kb };
	if (explain_db_build(&db, kbs, 1, &err) < 0) {
		fprintf(stderr, "%s\n", err.buf);
		return 1;
	}
	check_entries(&db);

	struct strbuf c = STRBUF_INIT, bin = STRBUF_INIT, ids = STRBUF_INIT, body = STRBUF_INIT;
	struct pool pool = { STRBUF_INIT, 0, NULL, NULL, 0, 0 };
	sb_add(&c, "/* Generated by tools/kbgen from the files below: the knowledge base and\n"
		   " * its signature matcher as data. Do not edit.\n");
	for (int i = 4; i < argc; i++)
		sb_addf(&c, " *   %s\n", argv[i]);
	sb_add(&c, " */\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n"
		   "#include <string.h>\n\n"
		   "#include \"core/strbuf.h\"\n#include \"explain/matcher.h\"\n#include \"kb/kb.h\"\n\n");
	sb_add(&c, packed_types);
	put_entries(&body, &pool);
	sb_add(&body, entries_code);
	put_matcher(&body, &db, argv[2], &bin, &pool);
	/* The pool first: the tables and the code after it point into it. */
	sb_addf(&c, "static const char kb_pool[%zu] =\n", pool.len + 1);
	sb_add(&c, pool.len ? pool.text.buf : "\t\"\"\n");
	sb_add(&c, "\t;\n\n");
	sb_add(&c, body.buf);
	put_ids(&ids);
	if (failed)
		return 1;
	if (write_if_changed(argv[2], &bin) < 0 || write_if_changed(argv[1], &c) < 0 ||
	    write_if_changed(argv[3], &ids) < 0)
		return 1;
	explain_db_free(&db);
	kb_free(&kb);
	sb_release(&text);
	sb_release(&err);
	sb_release(&c);
	sb_release(&bin);
	sb_release(&ids);
	sb_release(&body);
	pool_free(&pool);
	return 0;
}
