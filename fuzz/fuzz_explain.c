/* fuzz_explain.c: `wslgpu explain`'s engine on arbitrary bytes — the line
 * normaliser, the matcher fed in chunks of varying size (lines spanning
 * chunks, clipped lines, wrapped and cut messages), the text and JSON
 * reports of what it found (every byte of the input that reaches them must
 * be sanitised), explain_best as the probes call it, the error-code number
 * forms, the pasted listings it reads (`ldconfig -p` with the loader's pick
 * from it, pip's three forms: explain/paste.h, parse/ldconfigp.h,
 * parse/piplist.h) and their text and JSON, the platform the text shows
 * (explain/textplat.h: its markers, Compose's line prefix), and, with the input read as a
 * pattern: the prefilter-key and
 * literal-set derivation, `match:` classes, a KB built from it, and the DFA
 * engine checked against regexec (a difference aborts). */
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/codes.h"
#include "explain/confirm.h"
#include "explain/literal.h"
#include "explain/matcher.h"
#include "explain/normalize.h"
#include "explain/paste.h"
#include "explain/pattern.h"
#include "explain/report.h"
#include "explain/rx.h"
#include "explain/textplat.h"
#include "report/explain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count(void *ctx, int code)
{
	(void)code;
	++*(int *)ctx;
}

/* Patterns glibc's regcomp compiles in reasonable time: short, and no
 * quantifier on a quantifier. It takes seconds on "a{255}{255}" or
 * "a++++++*+++" (exponential closures), which is glibc, not what is fuzzed
 * here. */
static bool tame(const char *re)
{
	if (strlen(re) > 64)
		return false;
	for (const char *q = re; *q; q++)
		if (strchr("*+?}", q[0]) && q[1] && strchr("*+?{", q[1]))
			return false;
	return true;
}

/* rx must answer as regexec does wherever it accepts a pattern. */
static void differential(const char *re, const char *texts[], size_t n)
{
	if (!tame(re))
		return;
	regex_t r;
	if (regcomp(&r, re, REG_EXTENDED | REG_ICASE | REG_NOSUB))
		return;
	struct rx x;
	if (rx_compile(&x, re) == 0) {
		for (size_t i = 0; i < n; i++) {
			int want = regexec(&r, texts[i], 0, NULL, 0) == 0;
			int got = rx_search(&x, texts[i], strlen(texts[i]));
			if (got >= 0 && got != want) {
				fprintf(stderr, "rx /%s/ on \"%s\": %d, regexec %d\n", re, texts[i], got,
					want);
				abort();
			}
		}
		rx_free(&x);
	}
	regfree(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;

	char *out = malloc(size + 1);
	struct norm_line nl;
	norm_line(p, size, out, &nl);
	if (nl.len > size || nl.msg > nl.len || strlen(nl.text) != nl.len)
		abort();
	free(out);

	/* Chunk sizes come from the first byte, so lines straddle chunks. */
	size_t step = size ? (size_t)data[0] % 97 + 1 : 1;
	struct explain_scan s;
	explain_scan_init(&s, explain_db_builtin());
	for (size_t off = 0; off < size; off += step)
		explain_scan_feed(&s, p + off, size - off < step ? size - off : step);
	explain_scan_finish(&s);
	if (s.nunk > EXPLAIN_UNKNOWN_KEEP || s.st.recognised > s.st.lines)
		abort();

	struct cause_rank **ranks = calloc(s.nfound ? s.nfound : 1, sizeof *ranks);
	for (size_t i = 0; i < s.nfound; i++) {
		const struct explain_sig *sig = &s.db->sig[s.found[i]->sig];
		ranks[i] = calloc(sig->ncause ? sig->ncause : 1, sizeof **ranks);
		rank_causes(sig, NULL, NULL, 0, NULL, ranks[i]);
	}
	struct paste paste;
	paste_read(p, size, &paste);
	struct explain_view v = { .scan = &s, .source = "fuzz", .ranks = ranks, .color = true,
				  .verbose = true, .paste = &paste };
	struct strbuf shown = STRBUF_INIT;
	explain_report_text(&shown, &v);
	explain_report_json(&shown, &v);
	sb_release(&shown);
	/* the pasted listings' lines: one line each, sanitised (no ESC, no CR) */
	struct strbuf ps = STRBUF_INIT;
	paste_text(&ps, &paste);
	if (memchr(ps.buf ? ps.buf : "", '\033', ps.len) || memchr(ps.buf ? ps.buf : "", '\r', ps.len))
		abort();
	sb_release(&ps);
	paste_free(&paste);
	for (size_t i = 0; i < s.nfound; i++)
		free(ranks[i]);
	free(ranks);
	explain_scan_release(&s);

	/* The input repeated, after enough lines for the message memo to be
	 * used: replaying a message must find what matching it again finds. */
	if (size && size <= 4096) {
		struct strbuf rep = STRBUF_INIT, with = STRBUF_INIT, without = STRBUF_INIT;
		for (int i = 0; i < EXPLAIN_MEMO_AFTER; i++)
			sb_addf(&rep, "%d\n", i);
		for (int i = 0; i < 4; i++) {
			sb_addn(&rep, p, size);
			sb_addc(&rep, '\n');
		}
		for (int memo = 0; memo < 2; memo++) {
			struct explain_scan r;
			explain_scan_init(&r, explain_db_builtin());
			r.no_memo = !memo;
			for (size_t off = 0; off < rep.len; off += step)
				explain_scan_feed(&r, rep.buf + off, rep.len - off < step ? rep.len - off : step);
			explain_scan_finish(&r);
			explain_scan_dump(&r, memo ? &with : &without);
			explain_scan_release(&r);
		}
		if (strcmp(sb_str(&with), sb_str(&without))) {
			fprintf(stderr, "the message memo changed the scan:\n%s\n--- without:\n%s\n",
				sb_str(&with), sb_str(&without));
			abort();
		}
		sb_release(&rep);
		sb_release(&with);
		sb_release(&without);
	}

	struct text_platform tp;
	text_platform_read(p, size, &tp);
	if (!memchr(tp.marker, '\0', sizeof tp.marker)) /* a C string, whatever the text */
		abort();

	explain_best(explain_db_builtin(), "frameworks.", p, size);
	int n = 0;
	codes_numbers(p, size, (1u << CF_COUNT) - 1, count, &n);

	/* The input as a pattern: its first line, as text without NULs. */
	size_t l1 = 0;
	while (l1 < size && l1 < 512 && p[l1] != '\n' && p[l1] != '\0')
		l1++;
	char *re = malloc(l1 + 1);
	memcpy(re, p, l1);
	re[l1] = '\0';
	size_t from = l1 < size ? l1 + 1 : size; /* the next line: a text to match */
	char *text = malloc(size - from + 1);
	size_t tn = 0;
	for (size_t i = from; i < size && p[i] && p[i] != '\n'; i++)
		text[tn++] = p[i];
	text[tn] = '\0';
	const char *texts[] = { text, re, "", "abc", "CUDA error 100", "x a-b_c.d/e:f" };
	differential(re, texts, sizeof texts / sizeof texts[0]);

	struct litset a, b;
	unsigned edge;
	if (ere_required2(re, &a, &b, &edge) == 0) {
		litset_free(&a);
		litset_free(&b);
	}
	if (ere_literal_set(re, &a) == 0)
		litset_free(&a);

	struct mpat mp;
	struct strbuf err = STRBUF_INIT;
	if (mpat_parse(re, &mp, &err) == 0) {
		if (mp.kind == MP_ERE)
			differential(mp.text, texts, sizeof texts / sizeof texts[0]);
		mpat_free(&mp);
	}
	sb_release(&err);

	/* A KB of one signature whose match: and regex: come from the input. */
	if (tame(re)) {
		struct strbuf kt = STRBUF_INIT;
		sb_addf(&kt, "[f.x]\nlayer: cuda\ntitle: x\nsource: https://x.invalid/\nmatch: %s\n"
			     "regex: %s\n", re, re);
		struct kb kb;
		struct strbuf e2 = STRBUF_INIT;
		if (kb_parse(kt.buf, kt.len, &kb, &e2) == 0) {
			struct explain_db db;
			const struct kb *kbs[] = { &kb };
			if (explain_db_build(&db, kbs, 1, &e2) == 0) {
				explain_best(&db, "f.", text, tn);
				explain_best(&db, "f.", p, size);
				explain_db_free(&db);
			}
			kb_free(&kb);
		}
		sb_release(&e2);
		sb_release(&kt);
	}
	free(text);
	free(re);
	return 0;
}
