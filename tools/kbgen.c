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
 * address a user can open; a kind the tool knows; signatures that name a
 * cause and whose regexes have a prefilter key. */
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

/* The list values of every entry, in one array; l's place in it. */
static size_t put_list_values(struct strbuf *o, const struct kb_list *l, size_t *at)
{
	size_t start = *at;
	for (size_t i = 0; i < l->n; i++) {
		sb_add(o, "\t");
		put_str(o, l->v[i]);
		sb_add(o, ",\n");
	}
	*at += l->n;
	return start;
}

static void put_field(struct strbuf *o, const char *name, const char *v)
{
	sb_addf(o, "\t\t.%s = ", name);
	put_str(o, v);
	sb_add(o, ",\n");
}

static void put_list(struct strbuf *o, const char *name, const struct kb_list *l, size_t off)
{
	if (l->n)
		sb_addf(o, "\t\t.%s = { kb_values + %zu, %zu },\n", name, off, l->n);
}

static void put_entries(struct strbuf *o)
{
	/* Values first, then the entries that point into them. */
	size_t at = 0, (*off)[8] = xcalloc(kb.n ? kb.n : 1, sizeof *off);
	sb_add(o, "static const char *kb_values[] = {\n");
	for (size_t i = 0; i < kb.n; i++) {
		const struct kb_entry *e = &kb.e[i];
		off[i][0] = put_list_values(o, &e->fix, &at);
		off[i][1] = put_list_values(o, &e->source, &at);
		off[i][2] = put_list_values(o, &e->match, &at);
		off[i][3] = put_list_values(o, &e->regex, &at);
		off[i][4] = put_list_values(o, &e->see, &at);
		off[i][5] = put_list_values(o, &e->support, &at);
		off[i][6] = put_list_values(o, &e->exclude, &at);
		off[i][7] = put_list_values(o, &e->context, &at);
	}
	sb_add(o, "\tNULL\n};\n\n");
	sb_addf(o, "static struct kb_entry kb_entries[%zu] = {\n", kb.n);
	for (size_t i = 0; i < kb.n; i++) {
		const struct kb_entry *e = &kb.e[i];
		sb_add(o, "\t{\n");
		put_field(o, "id", e->id);
		put_field(o, "layer", e->layer);
		put_field(o, "kind", e->kind);
		put_field(o, "title", e->title);
		put_field(o, "cause", e->cause);
		put_field(o, "confirm", e->confirm);
		put_list(o, "fix", &e->fix, off[i][0]);
		put_list(o, "source", &e->source, off[i][1]);
		put_list(o, "match", &e->match, off[i][2]);
		put_list(o, "regex", &e->regex, off[i][3]);
		put_list(o, "see", &e->see, off[i][4]);
		put_list(o, "support", &e->support, off[i][5]);
		put_list(o, "exclude", &e->exclude, off[i][6]);
		put_list(o, "context", &e->context, off[i][7]);
		put_field(o, "platform", e->platform);
		put_field(o, "family", e->family);
		put_field(o, "file", e->file);
		sb_addf(o, "\t\t.line = %d,\n\t},\n", e->line);
	}
	sb_add(o, "};\n\n");
	free(off);
	sb_addf(o, "static size_t kb_byid[%zu] = {", kb.n);
	for (size_t i = 0; i < kb.n; i++)
		sb_addf(o, "%s%zu,", i % 16 ? " " : "\n\t", kb.byid[i]);
	sb_add(o, "\n};\n\n");
	sb_addf(o, "static struct kb kb_compiled = { .e = kb_entries, .n = %zu, .byid = kb_byid };\n\n",
		kb.n);
	sb_add(o, "const struct kb *kb_builtin(void)\n{\n\treturn &kb_compiled;\n}\n\n");
}

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

static void put_ref(struct strbuf *o, const char *field, const char *array, size_t off, size_t n)
{
	if (n)
		sb_addf(o, " .%s = %s + %zu,", field, array, off);
}

static size_t entry_index(const struct kb_entry *e)
{
	if (e < kb.e || e >= kb.e + kb.n) {
		fprintf(stderr, "kbgen: a signature points outside the KB\n");
		exit(1);
	}
	return (size_t)(e - kb.e);
}

static const char *const key_kinds[] = {
	[EK_LIT] = "EK_LIT", [EK_RE] = "EK_RE",   [EK_RE2] = "EK_RE2", [EK_CODE] = "EK_CODE",
	[EK_CTX] = "EK_CTX", [EK_ERR] = "EK_ERR", [EK_GPU] = "EK_GPU", [EK_WORD] = "EK_WORD",
};

/* The automaton's integer tables, in the order TABLES.bin holds them. */
struct blob_part {
	const char *field, *type;
	const void *data;
	size_t n; /* 4-byte elements */
};

static void put_matcher(struct strbuf *o, const struct explain_db *db, const char *bin_path,
			struct strbuf *bin)
{
	/* Causes, and the index lists: refinements both ways, then the rest. */
	size_t ncause = 0, nidx = 0, nre = 0;
	for (size_t i = 0; i < db->n; i++) {
		ncause += db->sig[i].ncause;
		nidx += db->sig[i].nrefines + db->sig[i].nrefined_by;
		nre += db->sig[i].nre;
	}
	if (ncause) {
		sb_addf(o, "static const struct kb_entry *ex_causes[%zu] = {\n", ncause);
		for (size_t i = 0; i < db->n; i++)
			for (size_t j = 0; j < db->sig[i].ncause; j++)
				sb_addf(o, "\t&kb_entries[%zu],\n", entry_index(db->sig[i].cause[j]));
		sb_add(o, "};\n");
	}
	size_t *idx = xcalloc(nidx ? nidx : 1, sizeof *idx), ni = 0;
	for (size_t i = 0; i < db->n; i++) {
		memcpy(idx + ni, db->sig[i].refines, db->sig[i].nrefines * sizeof *idx);
		ni += db->sig[i].nrefines;
		memcpy(idx + ni, db->sig[i].refined_by, db->sig[i].nrefined_by * sizeof *idx);
		ni += db->sig[i].nrefined_by;
	}
	put_sizes(o, "static size_t ex_refs", idx, nidx);
	free(idx);
	put_sizes(o, "static size_t ex_always", db->always, db->nalways);
	put_sizes(o, "static size_t ex_byid", db->byid, db->n);
	if (nre) {
		sb_addf(o, "static struct explain_re ex_regexes[%zu] = {\n", nre);
		for (size_t i = 0; i < db->n; i++)
			for (size_t j = 0; j < db->sig[i].nre; j++) {
				const struct explain_re *r = &db->sig[i].re[j];
				sb_add(o, "\t{ .src = ");
				put_str(o, r->src);
				sb_add(o, ", .rx = { .lazy = ");
				put_str(o, r->src);
				sb_addf(o, " }, .id = %zu, .edge = %u },\n", r->id, r->edge);
			}
		sb_add(o, "};\n");
	}
	sb_addf(o, "\nstatic struct explain_sig ex_sigs[%zu] = {\n", db->n ? db->n : 1);
	size_t oc = 0, oi = 0, orx = 0;
	for (size_t i = 0; i < db->n; i++) {
		const struct explain_sig *g = &db->sig[i];
		sb_addf(o, "\t{ .e = &kb_entries[%zu], .kind = ", entry_index(g->e));
		put_str(o, g->kind);
		sb_add(o, ",");
		put_ref(o, "cause", "ex_causes", oc, g->ncause);
		sb_addf(o, " .ncause = %zu,", g->ncause);
		oc += g->ncause;
		put_ref(o, "refines", "ex_refs", oi, g->nrefines);
		sb_addf(o, " .nrefines = %zu,", g->nrefines);
		oi += g->nrefines;
		put_ref(o, "refined_by", "ex_refs", oi, g->nrefined_by);
		sb_addf(o, " .nrefined_by = %zu,", g->nrefined_by);
		oi += g->nrefined_by;
		put_ref(o, "re", "ex_regexes", orx, g->nre);
		sb_addf(o, " .nre = %zu,", g->nre);
		orx += g->nre;
		sb_addf(o, " .always = %s, .and = %s, .context = %s, .edge = %u, .keymax = %zu },\n",
			g->always ? "true" : "false", g->and ? "true" : "false",
			g->context ? "true" : "false", g->edge, g->keymax);
	}
	sb_add(o, "};\n\n");
	sb_addf(o, "static struct explain_key ex_keys[%zu] = {\n", db->nkeys ? db->nkeys : 1);
	for (size_t i = 0; i < db->nkeys; i++) {
		const struct explain_key *k = &db->key[i];
		sb_addf(o, "\t{ .kind = %s, .arg = %zu, .text = ", key_kinds[k->kind], k->arg);
		put_str(o, k->text);
		sb_addf(o, ", .same = %zu },\n", k->same);
	}
	sb_add(o, "};\n\n");
	if (db->ncodesig) {
		sb_addf(o, "static struct explain_codesig ex_codesigs[%zu] = {\n", db->ncodesig);
		for (size_t i = 0; i < db->ncodesig; i++)
			sb_addf(o, "\t{ .code = %d, .sig = %zu },\n", db->codesig[i].code, db->codesig[i].sig);
		sb_add(o, "};\n");
	}

	const struct ac *ac = &db->ac;
	size_t ns = (size_t)ac->nstates;
	const struct blob_part parts[] = {
		{ "next", "const uint32_t *", ac->next, ns * (size_t)ac->ncls },
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

	sb_addf(o, "\nstatic struct explain_db ex_compiled = {\n\t.sig = ex_sigs,\n\t.n = %zu,\n", db->n);
	if (db->n)
		sb_add(o, "\t.byid = ex_byid,\n");
	sb_addf(o, "\t.key = ex_keys,\n\t.nkeys = %zu,\n", db->nkeys);
	if (db->nalways)
		sb_add(o, "\t.always = ex_always,\n");
	sb_addf(o, "\t.nalways = %zu,\n\t.nre = %zu,\n", db->nalways, db->nre);
	if (db->ncodesig)
		sb_add(o, "\t.codesig = ex_codesigs,\n");
	sb_addf(o, "\t.ncodesig = %zu,\n\t.code_families = %uu,\n", db->ncodesig, db->code_families);
	sb_add(o, "\t.ac = {\n\t\t.cls = {");
	for (int i = 0; i < 256; i++)
		sb_addf(o, "%s%u,", i % 16 ? " " : "\n\t\t\t", ac->cls[i]);
	sb_addf(o, "\n\t\t},\n\t\t.ncls = %d,\n\t\t.nstates = %d,\n", ac->ncls, ac->nstates);
	size_t at = 0;
	for (size_t i = 0; i < nparts; i++) {
		sb_addf(o, "\t\t.%s = (%s)(kb_automaton + %zu),\n", parts[i].field, parts[i].type, at);
		at += parts[i].n;
	}
	sb_add(o, "\t\t.outs = ex_outs,\n");
	if (ac->nkeys)
		sb_add(o, "\t\t.keylen = ex_keylen,\n");
	sb_addf(o, "\t\t.nkeys = %zu,\n\t},\n};\n\n", ac->nkeys);
	sb_add(o, "const struct explain_db *explain_db_builtin(void)\n{\n\treturn &ex_compiled;\n}\n");
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

	struct strbuf c = STRBUF_INIT, bin = STRBUF_INIT, ids = STRBUF_INIT;
	sb_add(&c, "/* Generated by tools/kbgen from the files below: the knowledge base and\n"
		   " * its signature matcher as data. Do not edit.\n");
	for (int i = 4; i < argc; i++)
		sb_addf(&c, " *   %s\n", argv[i]);
	sb_add(&c, " */\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
		   "#include \"explain/matcher.h\"\n#include \"kb/kb.h\"\n\n");
	put_entries(&c);
	put_matcher(&c, &db, argv[2], &bin);
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
	return 0;
}
