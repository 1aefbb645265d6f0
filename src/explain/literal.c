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

/* How selective a set is: its shortest member, less one per extra member
 * (each alternative roughly doubles the lines that get through). */
static long lset_value(const struct lset *l)
{
	if (l->none || l->s.n == 0)
		return -1000000;
	return (long)lset_score(l) - (long)(l->s.n - 1);
}

/* Keeps the better of *best and *cand in *best; frees the other. */
static void consider(struct lset *best, struct lset *cand)
{
	long a = lset_value(best), b = lset_value(cand);
	if (lset_score(cand) >= LITERAL_MIN &&
	    (b > a || (b == a && lset_score(cand) > lset_score(best)))) {
		lset_clear(best);
		*best = *cand;
	} else {
		lset_clear(cand);
	}
	memset(cand, 0, sizeof *cand);
	cand->none = true;
}

struct parser {
	const char *p;
	int depth;
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

static void flush_run(struct lset *best, struct strbuf *run)
{
	if (run->len == 0)
		return;
	struct lset cand = { false, { NULL, 0 } };
	lset_add(&cand, run->buf);
	consider(best, &cand);
	sb_reset(run);
}

static struct lset parse_branch(struct parser *ps)
{
	struct lset best = { true, { NULL, 0 } };
	struct strbuf run = STRBUF_INIT;
	for (;;) {
		char c = *ps->p;
		if (!c || c == '|' || (c == ')' && ps->depth > 0))
			break;
		if (c == '(') {
			flush_run(&best, &run);
			ps->p++;
			ps->depth++;
			struct lset inner = parse_alt(ps);
			ps->depth--;
			if (*ps->p == ')')
				ps->p++;
			if (quantifier(ps) == 1)
				lset_clear(&inner);
			consider(&best, &inner);
		} else if (c == '[') {
			flush_run(&best, &run);
			skip_bracket(ps);
			quantifier(ps);
		} else if (c == '.' || c == '^' || c == '$') {
			flush_run(&best, &run);
			ps->p++;
			quantifier(ps);
		} else if (c == '*' || c == '+' || c == '?' || c == '{') {
			/* a quantifier with nothing before it */
			flush_run(&best, &run);
			ps->p++;
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
					flush_run(&best, &run);
					ps->p++;
					quantifier(ps);
					continue;
				}
			}
			ps->p++;
			if (lit >= 'A' && lit <= 'Z')
				lit = (char)(lit + 32);
			int q = quantifier(ps);
			if (q == 1) {
				flush_run(&best, &run);
			} else {
				sb_addc(&run, lit);
				if (q == 2)
					flush_run(&best, &run);
			}
		}
	}
	flush_run(&best, &run);
	sb_release(&run);
	return best;
}

static struct lset parse_alt(struct parser *ps)
{
	struct lset all = { false, { NULL, 0 } };
	for (;;) {
		struct lset b = parse_branch(ps);
		if (b.none || all.none) {
			lset_clear(&b);
			lset_clear(&all);
		} else {
			for (size_t i = 0; i < b.s.n; i++)
				lset_add(&all, b.s.v[i]);
			lset_clear(&b);
			if (all.s.n > LITERAL_MAX)
				lset_clear(&all);
		}
		if (*ps->p != '|')
			break;
		ps->p++;
	}
	return all;
}

int ere_required(const char *re, struct litset *set)
{
	struct parser ps = { re, 0 };
	struct lset all = parse_alt(&ps);
	memset(set, 0, sizeof *set);
	if (all.none || lset_score(&all) < LITERAL_MIN) {
		lset_clear(&all);
		return -1;
	}
	*set = all.s;
	return 0;
}

void litset_free(struct litset *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i]);
	free(set->v);
	set->v = NULL;
	set->n = 0;
}
