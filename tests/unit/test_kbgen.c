/* test_kbgen.c: the knowledge base compiled at build time (tools/kbgen.c)
 * is exactly what the run-time path builds from the same files: kb_parse
 * of every src/kb file and explain_db_build over it (what `explain --kb` does).
 * Every entry field, every signature, key and automaton table is compared,
 * and the automaton is run on sample text from both. Also the parser's
 * messages name the file and line, as `make` prints them. */
#include "testutil.h"

#include <glob.h>

#include "core/strbuf.h"
#include "explain/matcher.h"
#include "kb/kb.h"

/* The .kb files in the order the Makefile passes them ($(sort ...)). */
static void read_kb_files(struct strbuf *text)
{
	glob_t g;
	assert_int_equal(glob("src/kb/*.kb", 0, NULL, &g), 0);
	assert_true(g.gl_pathc > 10);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		sb_addf(text, "@file %s\n", g.gl_pathv[i]);
		int fd = open(g.gl_pathv[i], O_RDONLY);
		assert_true(fd >= 0);
		assert_int_equal(sb_read_fd(text, fd, (size_t)1 << 30, NULL), 0);
		close(fd);
		if (text->buf[text->len - 1] != '\n')
			sb_addc(text, '\n');
	}
	globfree(&g);
}

static void same_str(const char *a, const char *b, const char *what, const char *id)
{
	if ((a == NULL) != (b == NULL) || (a && strcmp(a, b)))
		fail_msg("%s: %s differs: '%s' / '%s'", id, what, a ? a : "(null)", b ? b : "(null)");
}

static void same_list(const struct kb_list *a, const struct kb_list *b, const char *what,
		      const char *id)
{
	if (a->n != b->n)
		fail_msg("%s: %s: %zu values / %zu", id, what, a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		same_str(a->v[i], b->v[i], what, id);
}

struct fresh {
	struct kb kb;
	struct explain_db db;
};

static void build_fresh(struct fresh *f)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	read_kb_files(&text);
	if (kb_parse(text.buf, text.len, &f->kb, &err) < 0)
		fail_msg("kb_parse: %s", err.buf);
	const struct kb *kbs[] = { &f->kb };
	if (explain_db_build(&f->db, kbs, 1, &err) < 0)
		fail_msg("explain_db_build: %s", err.buf);
	sb_release(&text);
	sb_release(&err);
}

static void free_fresh(struct fresh *f)
{
	explain_db_free(&f->db);
	kb_free(&f->kb);
}

static void test_entries(void **state)
{
	(void)state;
	struct fresh f;
	build_fresh(&f);
	const struct kb *c = kb_builtin();
	assert_int_equal(c->n, f.kb.n);
	for (size_t i = 0; i < c->n; i++) {
		const struct kb_entry *a = &c->e[i], *b = &f.kb.e[i];
		same_str(a->id, b->id, "id", b->id);
		same_str(a->layer, b->layer, "layer", b->id);
		same_str(a->kind, b->kind, "kind", b->id);
		same_str(a->title, b->title, "title", b->id);
		same_str(a->cause, b->cause, "cause", b->id);
		same_str(a->confirm, b->confirm, "confirm", b->id);
		same_str(a->platform, b->platform, "platform", b->id);
		same_str(a->file, b->file, "file", b->id);
		assert_int_equal(a->line, b->line);
		same_list(&a->fix, &b->fix, "fix", b->id);
		same_list(&a->source, &b->source, "source", b->id);
		same_list(&a->match, &b->match, "match", b->id);
		same_list(&a->regex, &b->regex, "regex", b->id);
		same_list(&a->see, &b->see, "see", b->id);
		assert_int_equal(c->byid[i], f.kb.byid[i]);
		/* kb_find is a binary search over byid: every id is found. */
		assert_ptr_equal(kb_find(b->id), a);
	}
	assert_null(kb_find("no.such.entry"));
	assert_null(kb_find(""));
	assert_null(kb_find(NULL));
	free_fresh(&f);
}

/* The entry a pointer of the compiled tables stands for, as an index. */
static size_t at(const struct kb_entry *e)
{
	const struct kb *c = kb_builtin();
	assert_true(e >= c->e && e < c->e + c->n);
	return (size_t)(e - c->e);
}

static size_t at_fresh(const struct fresh *f, const struct kb_entry *e)
{
	assert_true(e >= f->kb.e && e < f->kb.e + f->kb.n);
	return (size_t)(e - f->kb.e);
}

static void same_sizes(const size_t *a, const size_t *b, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			fail_msg("%s[%zu]: %zu / %zu", what, i, a[i], b[i]);
}

static void test_matcher(void **state)
{
	(void)state;
	struct fresh f;
	build_fresh(&f);
	const struct explain_db *c = explain_db_builtin(), *d = &f.db;
	assert_int_equal(c->n, d->n);
	assert_true(c->n > 100);
	same_sizes(c->byid, d->byid, d->n, "byid");
	for (size_t i = 0; i < d->n; i++) {
		const struct explain_sig *a = &c->sig[i], *b = &d->sig[i];
		const char *id = b->e->id;
		assert_int_equal(at(a->e), at_fresh(&f, b->e));
		same_str(a->kind, b->kind, "kind", id);
		assert_int_equal(a->ncause, b->ncause);
		for (size_t j = 0; j < b->ncause; j++)
			assert_int_equal(at(a->cause[j]), at_fresh(&f, b->cause[j]));
		assert_int_equal(a->nrefines, b->nrefines);
		same_sizes(a->refines, b->refines, b->nrefines, "refines");
		assert_int_equal(a->nrefined_by, b->nrefined_by);
		same_sizes(a->refined_by, b->refined_by, b->nrefined_by, "refined_by");
		assert_int_equal(a->nre, b->nre);
		for (size_t j = 0; j < b->nre; j++) {
			same_str(a->re[j].src, b->re[j].src, "regex", id);
			assert_int_equal(a->re[j].id, b->re[j].id);
			assert_int_equal(a->re[j].edge, b->re[j].edge);
		}
		assert_int_equal(a->always, b->always);
		assert_int_equal(a->and, b->and);
		assert_int_equal(a->edge, b->edge);
		assert_int_equal(a->keymax, b->keymax);
		assert_int_equal(explain_db_find(c, id), (int)i);
	}
	assert_int_equal(explain_db_find(c, "no.such.entry"), -1);
	assert_int_equal(c->nkeys, d->nkeys);
	for (size_t i = 0; i < d->nkeys; i++) {
		assert_int_equal(c->key[i].kind, d->key[i].kind);
		assert_int_equal(c->key[i].arg, d->key[i].arg);
		assert_int_equal(c->key[i].same, d->key[i].same);
		same_str(c->key[i].text, d->key[i].text, "key", "keys");
	}
	assert_int_equal(c->nalways, d->nalways);
	same_sizes(c->always, d->always, d->nalways, "always");
	assert_int_equal(c->nre, d->nre);
	assert_int_equal(c->ncodesig, d->ncodesig);
	for (size_t i = 0; i < d->ncodesig; i++) {
		assert_int_equal(c->codesig[i].code, d->codesig[i].code);
		assert_int_equal(c->codesig[i].sig, d->codesig[i].sig);
	}
	assert_int_equal(c->code_families, d->code_families);

	const struct ac *x = &c->ac, *y = &d->ac;
	assert_memory_equal(x->cls, y->cls, sizeof x->cls);
	assert_int_equal(x->ncls, y->ncls);
	assert_int_equal(x->nstates, y->nstates);
	size_t ns = (size_t)y->nstates;
	assert_int_equal(x->ndense, y->ndense);
	assert_int_equal(x->nedges, y->nedges);
	assert_memory_equal(x->next, y->next, (size_t)y->ndense * (size_t)y->ncls * sizeof *y->next);
	assert_memory_equal(x->edge_at, y->edge_at, (ns - (size_t)y->ndense + 1) * sizeof *y->edge_at);
	if (y->nedges)
		assert_memory_equal(x->edge, y->edge, y->nedges * sizeof *y->edge);
	assert_memory_equal(x->own, y->own, ns * sizeof *y->own);
	assert_memory_equal(x->dict, y->dict, ns * sizeof *y->dict);
	assert_memory_equal(x->fail, y->fail, ns * sizeof *y->fail);
	assert_memory_equal(x->depth, y->depth, ns * sizeof *y->depth);
	assert_memory_equal(x->owner, y->owner, ns * sizeof *y->owner);
	assert_int_equal(x->nkeys, y->nkeys);
	assert_memory_equal(x->outs, y->outs, y->nkeys * sizeof *y->outs);
	same_sizes(x->keylen, y->keylen, y->nkeys, "keylen");
	free_fresh(&f);
}

/* Both matchers find the same on text that exercises literals, regexes
 * (compiled on first use in the built-in one), wraps and a cut paste. */
static void test_same_findings(void **state)
{
	(void)state;
	static const char text[] =
		"RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.\n"
		"Error! Your kernel headers for kernel 5.15.90.1-microsoft-standard-WSL2\n"
		"cannot be found.\n"
		"docker: Error response from daemon: could not select device driver \"\" with "
		"capabilities: [[gpu]].\n"
		"nvidia-container-cli: initialization error: WSL environment detected but no "
		"adapters were found: unknown\n"
		"CUDA error: no kernel image is available for execution on the device\n"
		"Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open "
		"shared object file: No such file or directory\n"
		"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
		"CUDA driver version is insufficient for CUDA runtime vers";
	struct fresh f;
	build_fresh(&f);
	struct explain_scan a, b;
	explain_scan_init(&a, explain_db_builtin());
	explain_scan_init(&b, &f.db);
	explain_scan_feed(&a, text, sizeof text - 1);
	explain_scan_feed(&b, text, sizeof text - 1);
	explain_scan_finish(&a);
	explain_scan_finish(&b);
	assert_true(a.nfound >= 6);
	assert_int_equal(a.nfound, b.nfound);
	for (size_t i = 0; i < a.nfound; i++) {
		assert_int_equal(a.found[i]->sig, b.found[i]->sig);
		assert_int_equal(a.found[i]->first_line, b.found[i]->first_line);
		assert_int_equal(a.found[i]->count, b.found[i]->count);
	}
	assert_int_equal(a.st.recognised, b.st.recognised);
	explain_scan_release(&a);
	explain_scan_release(&b);
	free_fresh(&f);
}

/* What make prints for a broken entry: file:line: message. */
static void test_messages(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "@file a.kb\n[x.one]\nlayer: core\ntitle: t\n\n[x.two]\nlayer: core\ntitle: t\n"
		  "@file b.kb\n# c\n[x.one]\nlayer: core\ntitle: t\n",
		  "b.kb:2: duplicate entry id 'x.one'" },
		{ "@file a.kb\n[x.one]\nlayer: core\nbogus\n", "a.kb:3: expected '[id]' or 'key: value'" },
		{ "@file a.kb\n\n[Bad]\n", "a.kb:2: bad entry id 'Bad'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct kb kb;
		struct strbuf err = STRBUF_INIT;
		assert_int_equal(kb_parse(cases[i].text, strlen(cases[i].text), &kb, &err), -1);
		assert_string_equal(err.buf, cases[i].want);
		sb_release(&err);
	}
	/* A pattern that does not compile: the entry's file and line, its id. */
	static const char bad[] = "@file c.kb\n\n[x.re]\nlayer: core\ntitle: t\nregex: (open\n";
	struct kb kb;
	struct explain_db db;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(kb_parse(bad, strlen(bad), &kb, &err), 0);
	const struct kb *kbs[] = { &kb };
	assert_int_equal(explain_db_build(&db, kbs, 1, &err), -1);
	assert_non_null(strstr(err.buf, "c.kb:2: x.re: regex 1: "));
	kb_free(&kb);
	sb_release(&err);
}

/* A fix line whose command holds a bare "..." cannot be typed as shown:
 * kbgen refuses it (the KB names what goes there: IMAGE, PROGRAM). The
 * built-in KB has none, and the rule leaves code and remarks alone. */
static void test_bare_ellipsis(void **state)
{
	(void)state;
	static const char *const bare[] = {
		"docker run --gpus all ...",
		"docker run --gpus all ...   (or --gpus 1)",
		"NCCL_DEBUG=INFO torchrun ...   (the WARN lines name the failing call)",
		"or request the GPU the classic way: docker run --gpus all ...",
		"{?image:docker run ...}",
		"torchrun \xe2\x80\xa6 --nproc 2",
		"... then nvidia-smi",
	};
	static const char *const fine[] = {
		"docker run --rm --gpus all IMAGE nvidia-smi   (a template: put in IMAGE, the image)",
		"DataLoader(..., pin_memory=False)   (slower copies, but it runs)",
		"echo $LD_LIBRARY_PATH   (remove any .../compat directory)",
		"ls -l /dev/dxg   (expect \"crw-rw-rw- ... 10, N\")",
		"for a link into /mnt (such as ~/.ollama -> /mnt/c/...), move the data into your home",
		"python -m pip install PACKAGE   (a template: put in PACKAGE, e.g. .../nvidia/cuda_runtime/lib)",
	};
	for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++)
		if (!kb_fix_bare_ellipsis(bare[i]))
			fail_msg("not seen as a bare '...': %s", bare[i]);
	for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++)
		if (kb_fix_bare_ellipsis(fine[i]))
			fail_msg("seen as a bare '...': %s", fine[i]);
	struct fresh f;
	build_fresh(&f);
	for (size_t i = 0; i < f.kb.n; i++)
		for (size_t j = 0; j < f.kb.e[i].fix.n; j++)
			if (kb_fix_bare_ellipsis(f.kb.e[i].fix.v[j]))
				fail_msg("%s: fix %zu has a bare '...': %s", f.kb.e[i].id, j + 1,
					 f.kb.e[i].fix.v[j]);
	free_fresh(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_same_findings),
		cmocka_unit_test(test_matcher),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_bare_ellipsis),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
