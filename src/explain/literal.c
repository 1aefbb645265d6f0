/*
 * literal.c: required-literal sets of a POSIX ERE, by recursive descent.
 * See literal.h for what the set means and why.
 *
 * Grammar walked (POSIX ERE, REG_EXTENDED):
 *   alt    := branch ('|' branch)*
 *   branch := (atom quant?)*
 *   atom   := '(' alt ')' | '[' bracket ']' | '.' | '^' | '$' | '\' c | c
 *   quant  := '*' | '+' | '?' | '{' m (',' n?)? '}'
 * A set is "none" (no requirement known) or a non-empty list of strings.
 */
#include "literal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"

struct lset {
	bool none;
	struct litset s;
	unsigned char edge; /* LIT_LEAD, LIT_TRAIL: where the set stands in every match */
};

static void lset_clear(struct lset *l)
{
	litset_free(&l->s);
	l->none = true;
}

static size_t lset_score(const struct lset *l)
{
	if (l->none || l->s.n == 0)
		return 0;
	size_t m = (size_t)-1;
	for (size_t i = 0; i < l->s.n; i++)
		if (strlen(l->s.v[i]) < m)
			m = strlen(l->s.v[i]);
	return m;
}

static void lset_add(struct lset *l, const char *s)
{
	for (size_t i = 0; i < l->s.n; i++)
		if (!strcmp(l->s.v[i], s))
			return;
	l->s.v = xrealloc(l->s.v, (l->s.n + 1) * sizeof *l->s.v);
	l->s.v[l->s.n++] = xstrdup(s);
}

/* Words of failure most lines of an error log hold, whatever failed: a
 * key made of them lets most lines of an error-dense log through to its
 * regex (" failed: " beside "ibv_reg_", "undefined symbol" beside
 * "nccl"), so their bytes count a quarter. */
static const char *const common_words[] = {
	"error", "fail", "unknown", "invalid", "cannot", "can't", "could not", "unable",
	"not found", "no such file", "not supported", "unsupported", "undefined symbol",
	"open shared object file", "shared object", "dynamic link library", "warning",
	"exception", "is not", "the ", " to ", NULL,
};

/* A key's worth: its bytes, those of common words a quarter (keys are in
 * lower case already: the parser folds every literal it keeps). */
static long rare_len(const char *key)
{
	size_t n = strlen(key);
	unsigned char *common = xcalloc(n + 1, 1);
	for (size_t w = 0; common_words[w]; w++) {
		size_t wl = strlen(common_words[w]);
		for (const char *p = key; (p = strstr(p, common_words[w])); p++)
			memset(common + (p - key), 1, wl);
	}
	size_t plain = 0;
	for (size_t i = 0; i < n; i++)
		plain += !common[i];
	free(common);
	return (long)(4 * plain + (n - plain));
}

/* How selective a set is: its least worth member (rare_len, in quarter
 * bytes), less a byte per extra member (each alternative roughly doubles
 * the lines that get through). */
static long lset_value(const struct lset *l)
{
	if (l->none || l->s.n == 0)
		return -1000000;
	long m = -1;
	for (size_t i = 0; i < l->s.n; i++) {
		long v = rare_len(l->s.v[i]);
		if (m < 0 || v < m)
			m = v;
	}
	return m - 4 * (long)(l->s.n - 1);
}

/* Keeps the better of *best and *cand in *best; frees the other. */
static bool better(const struct lset *cand, const struct lset *than)
{
	long a = lset_value(than), b = lset_value(cand);
	return lset_score(cand) >= LITERAL_MIN &&
	       (b > a || (b == a && lset_score(cand) > lset_score(than)));
}

/* Keeps the better of *best and *cand in *best, and, if second is given,
 * the runner-up there; frees what is left over. */
static void consider(struct lset *best, struct lset *second, struct lset *cand)
{
	if (better(cand, best)) {
		if (second && better(best, second)) {
			lset_clear(second);
			*second = *best;
		} else {
			lset_clear(best);
		}
		*best = *cand;
	} else if (second && better(cand, second)) {
		lset_clear(second);
		*second = *cand;
	} else {
		lset_clear(cand);
	}
	memset(cand, 0, sizeof *cand);
	cand->none = true;
}

struct parser {
	const char *p;
	int depth;
	struct lset second; /* the runner-up of the top level's only branch */
	bool alt;           /* the top level has alternatives */
};

static struct lset parse_alt(struct parser *ps);

/* 0: no quantifier, 1: the atom may be absent, 2: present at least once */
static int quantifier(struct parser *ps)
{
	int q = 0;
	for (;;) {
		char c = *ps->p;
		if (c == '*' || c == '?') {
			q = 1;
			ps->p++;
		} else if (c == '+') {
			if (q == 0)
				q = 2;
			ps->p++;
		} else if (c == '{') {
			const char *s = ps->p + 1;
			long m = 0;
			bool any = false;
			while (*s >= '0' && *s <= '9') {
				if (m < 1000000)
					m = m * 10 + (*s - '0');
				s++;
				any = true;
			}
			if (!any) /* not a bound: a literal '{' (regcomp decides) */
				return q;
			while (*s && *s != '}')
				s++;
			if (*s == '}')
				s++;
			ps->p = s;
			if (m == 0)
				q = 1;
			else if (q == 0)
				q = 2;
		} else {
			return q;
		}
	}
}

static void skip_bracket(struct parser *ps)
{
	const char *s = ps->p + 1;
	if (*s == '^')
		s++;
	if (*s == ']')
		s++;
	while (*s && *s != ']') {
		if (*s == '[' && (s[1] == ':' || s[1] == '.' || s[1] == '=')) {
			char close = s[1];
			s += 2;
			while (*s && !(s[0] == close && s[1] == ']'))
				s++;
			if (*s)
				s += 2;
			continue;
		}
		s++;
	}
	if (*s == ']')
		s++;
	ps->p = s;
}

static void flush_run(struct lset *best, struct lset *second, struct strbuf *run,
		      unsigned char edge)
{
	if (run->len == 0)
		return;
	struct lset cand = { false, { NULL, 0 }, edge };
	lset_add(&cand, run->buf);
	consider(best, second, &cand);
	sb_reset(run);
}

static struct lset parse_branch(struct parser *ps)
{
	struct lset best = { true, { NULL, 0 }, 0 };
	struct lset *sec = ps->depth == 0 && !ps->alt ? &ps->second : NULL;
	struct strbuf run = STRBUF_INIT;
	/* Whether anything but ^ came before the current run: a run at the
	 * very start of the top level begins every match (LIT_LEAD). */
	bool began = false;
	unsigned char lead = 0;
	for (;;) {
		char c = *ps->p;
		if (!c || c == '|' || (c == ')' && ps->depth > 0))
			break;
		if (c == '(') {
			flush_run(&best, sec, &run, lead);
			ps->p++;
			ps->depth++;
			struct lset inner = parse_alt(ps);
			ps->depth--;
			if (*ps->p == ')')
				ps->p++;
			if (quantifier(ps) == 1)
				lset_clear(&inner);
			consider(&best, sec, &inner);
			began = true;
		} else if (c == '[') {
			flush_run(&best, sec, &run, lead);
			skip_bracket(ps);
			quantifier(ps);
			began = true;
		} else if (c == '.' || c == '^' || c == '$') {
			flush_run(&best, sec, &run, lead);
			ps->p++;
			quantifier(ps);
			began |= c != '^';
		} else if (c == '*' || c == '+' || c == '?' || c == '{') {
			/* a quantifier with nothing before it */
			flush_run(&best, sec, &run, lead);
			ps->p++;
			began = true;
		} else {
			char lit = c;
			if (c == '\\') {
				ps->p++;
				lit = *ps->p;
				if (!lit)
					break;
				if ((lit >= 'a' && lit <= 'z') || (lit >= 'A' && lit <= 'Z') ||
				    (lit >= '0' && lit <= '9')) {
					/* \b \w \< \1 ...: not a plain character */
					flush_run(&best, sec, &run, lead);
					ps->p++;
					quantifier(ps);
					began = true;
					continue;
				}
			}
			ps->p++;
			if (lit >= 'A' && lit <= 'Z')
				lit = (char)(lit + 32);
			int q = quantifier(ps);
			if (q == 1) {
				flush_run(&best, sec, &run, lead);
			} else {
				if (run.len == 0)
					lead = !began && ps->depth == 0 ? LIT_LEAD : 0;
				sb_addc(&run, lit);
				if (q == 2)
					flush_run(&best, sec, &run, lead);
			}
			began = true;
		}
	}
	flush_run(&best, sec, &run, lead | (ps->depth == 0 && !*ps->p ? LIT_TRAIL : 0));
	sb_release(&run);
	return best;
}

static struct lset parse_alt(struct parser *ps)
{
	struct lset all = { false, { NULL, 0 }, 0 };
	for (int nb = 0;; nb++) {
		struct lset b = parse_branch(ps);
		if (b.none || all.none) {
			lset_clear(&b);
			lset_clear(&all);
		} else {
			all.edge = nb == 0 ? b.edge : 0; /* a second branch: no edge */
			for (size_t i = 0; i < b.s.n; i++)
				lset_add(&all, b.s.v[i]);
			lset_clear(&b);
			if (all.s.n > LITERAL_MAX)
				lset_clear(&all);
		}
		if (*ps->p != '|')
			break;
		if (ps->depth == 0) { /* alternatives: no second requirement */
			lset_clear(&ps->second);
			ps->alt = true;
		}
		ps->p++;
	}
	return all;
}

int ere_required2(const char *re, struct litset *set, struct litset *second, unsigned *edge)
{
	struct parser ps = { re, 0, { true, { NULL, 0 }, 0 }, false };
	struct lset all = parse_alt(&ps);
	memset(set, 0, sizeof *set);
	if (second)
		memset(second, 0, sizeof *second);
	if (all.none || lset_score(&all) < LITERAL_MIN) {
		lset_clear(&all);
		lset_clear(&ps.second);
		return -1;
	}
	*set = all.s;
	if (edge)
		*edge = ps.alt ? 0 : all.edge;
	if (second && !ps.second.none && lset_score(&ps.second) >= LITERAL_MIN)
		*second = ps.second.s;
	else
		lset_clear(&ps.second);
	return 0;
}

int ere_required(const char *re, struct litset *set)
{
	return ere_required2(re, set, NULL, NULL);
}

void litset_free(struct litset *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i]);
	free(set->v);
	set->v = NULL;
	set->n = 0;
}

/* ---- exact literal sets ---- */

struct xparser {
	const char *p;
	int depth;
	bool bad;
};

static void set_cross(struct litset *acc, const struct litset *x, bool *bad)
{
	struct litset out = { NULL, 0 };
	for (size_t i = 0; i < acc->n && !*bad; i++)
		for (size_t j = 0; j < x->n && !*bad; j++) {
			struct strbuf sb = STRBUF_INIT;
			sb_add(&sb, acc->v[i]);
			sb_add(&sb, x->v[j]);
			struct lset l = { false, out, 0 };
			lset_add(&l, sb.buf);
			out = l.s;
			sb_release(&sb);
			if (out.n > LITERAL_MAX)
				*bad = true;
		}
	litset_free(acc);
	*acc = out;
}

static struct litset x_alt(struct xparser *xp);

static struct litset x_branch(struct xparser *xp)
{
	struct litset acc = { NULL, 0 };
	struct lset one = { false, { NULL, 0 }, 0 };
	lset_add(&one, "");
	acc = one.s;
	while (!xp->bad && *xp->p && *xp->p != '|' && !(*xp->p == ')' && xp->depth > 0)) {
		struct litset atom = { NULL, 0 };
		char c = *xp->p;
		if (c == '(') {
			if (++xp->depth > 32) {
				xp->bad = true;
				break;
			}
			xp->p++;
			atom = x_alt(xp);
			if (*xp->p != ')')
				xp->bad = true;
			else
				xp->p++;
			xp->depth--;
		} else if (strchr("[.^$*+{})", c)) {
			xp->bad = true;
			break;
		} else {
			char lit = c;
			if (c == '\\') {
				lit = xp->p[1];
				if (!lit || (lit >= 'a' && lit <= 'z') || (lit >= 'A' && lit <= 'Z') ||
				    (lit >= '0' && lit <= '9')) {
					xp->bad = true;
					break;
				}
				xp->p++;
			}
			xp->p++;
			char s[2] = { lit >= 'A' && lit <= 'Z' ? (char)(lit + 32) : lit, '\0' };
			struct lset l = { false, { NULL, 0 }, 0 };
			lset_add(&l, s);
			atom = l.s;
		}
		if (*xp->p == '?') {
			xp->p++;
			struct lset l = { false, atom, 0 };
			lset_add(&l, "");
			atom = l.s;
		}
		if (*xp->p == '*' || *xp->p == '+' || *xp->p == '{' || *xp->p == '?')
			xp->bad = true;
		if (!xp->bad)
			set_cross(&acc, &atom, &xp->bad);
		litset_free(&atom);
	}
	return acc;
}

static struct litset x_alt(struct xparser *xp)
{
	struct litset all = { NULL, 0 };
	for (;;) {
		struct litset b = x_branch(xp);
		struct lset l = { false, all, 0 };
		for (size_t i = 0; i < b.n; i++)
			lset_add(&l, b.v[i]);
		all = l.s;
		litset_free(&b);
		if (all.n > LITERAL_MAX)
			xp->bad = true;
		if (xp->bad || *xp->p != '|')
			break;
		xp->p++;
	}
	return all;
}

int ere_literal_set(const char *re, struct litset *set)
{
	struct xparser xp = { re, 0, false };
	*set = x_alt(&xp);
	if (*xp.p)
		xp.bad = true;
	for (size_t i = 0; i < set->n && !xp.bad; i++)
		if (strlen(set->v[i]) < LITERAL_MIN)
			xp.bad = true;
	if (xp.bad || set->n == 0) {
		litset_free(set);
		return -1;
	}
	return 0;
}
