/*
 * rx.c: POSIX ERE -> syntax tree -> Thompson NFA -> DFA built on demand.
 * See rx.h for the semantics and what is left to regexec.
 *
 * The DFA runs the NFA of ".*(re)" without building that prefix: the start
 * state is added after every byte. ^ and $ are zero-width nodes passed only
 * at position 0 and at the end, so a state is the set of NFA nodes that
 * consume a byte (plus the $ nodes still waiting for the end and MATCH).
 */
#include "rx.h"

#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"

#define MAX_DEPTH 64

typedef uint64_t bset[4]; /* 256 bits */

static void bs_add(uint64_t *s, unsigned c) { s[c >> 6] |= 1ull << (c & 63); }
static bool bs_has(const uint64_t *s, unsigned c) { return s[c >> 6] >> (c & 63) & 1; }
static unsigned char lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c; }
static bool is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* ---- syntax tree ---- */

enum { A_SET, A_CAT, A_ALT, A_REP, A_BOL, A_EOL, A_EMPTY };

struct ast {
	int type;
	int set;    /* A_SET */
	int *kid;   /* A_CAT, A_ALT */
	int nkid;
	int sub;    /* A_REP */
	int min, max; /* max -1: unbounded */
};

struct parser {
	const char *p;
	int depth;
	bool bad;
	struct ast *a;
	int na, cap;
	bset *set;
	int nset, setcap;
	int one[256]; /* the set of one byte, + 1 (0: none yet): shared, never written */
};

static int new_ast(struct parser *ps, int type)
{
	if (ps->na == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 32;
		ps->a = xrealloc(ps->a, (size_t)ps->cap * sizeof *ps->a);
	}
	memset(&ps->a[ps->na], 0, sizeof *ps->a);
	ps->a[ps->na].type = type;
	return ps->na++;
}

static int new_set(struct parser *ps)
{
	if (ps->nset == ps->setcap) {
		ps->setcap = ps->setcap ? 2 * ps->setcap : 16;
		ps->set = xrealloc(ps->set, (size_t)ps->setcap * sizeof *ps->set);
	}
	memset(ps->set[ps->nset], 0, sizeof(bset));
	return ps->nset++;
}

static int set_ast(struct parser *ps, int set)
{
	int n = new_ast(ps, A_SET);
	ps->a[n].set = set;
	return n;
}

static int char_ast(struct parser *ps, unsigned char c)
{
	/* A literal byte's set is made once per pattern: a phrase of a
	 * hundred letters needs some twenty, and the byte classes and the
	 * DFA's work grow with the number of sets. */
	int *one = &ps->one[lower(c)];
	if (!*one) {
		int s = new_set(ps);
		bs_add(ps->set[s], lower(c));
		*one = s + 1;
	}
	return set_ast(ps, *one - 1);
}

static void add_kid(struct parser *ps, int node, int kid)
{
	struct ast *a = &ps->a[node];
	/* room doubles at 4, 8, 16...: a phrase is a concatenation of its bytes */
	if (a->nkid < 4 ? !a->nkid : !(a->nkid & (a->nkid - 1)))
		a->kid = xrealloc(a->kid, (size_t)(a->nkid < 4 ? 4 : 2 * a->nkid) * sizeof *a->kid);
	a->kid[a->nkid++] = kid;
}

/* [:name:] into set; false for a class whose case folding differs. */
static bool add_class(uint64_t *set, const char *name, size_t n)
{
	static const char *const names[] = { "alpha", "digit", "alnum", "space", "blank", "punct",
					     "print", "graph", "cntrl", "xdigit", NULL };
	int which = -1;
	for (int i = 0; names[i]; i++)
		if (strlen(names[i]) == n && !memcmp(names[i], name, n))
			which = i;
	if (which < 0)
		return false;
	for (unsigned c = 0; c < 128; c++) {
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
		bool digit = c >= '0' && c <= '9';
		bool print = c >= 0x20 && c < 0x7f;
		bool in;
		switch (which) {
		case 0: in = alpha; break;
		case 1: in = digit; break;
		case 2: in = alpha || digit; break;
		case 3: in = c == ' ' || (c >= '\t' && c <= '\r'); break;
		case 4: in = c == ' ' || c == '\t'; break;
		case 5: in = print && c != ' ' && !alpha && !digit; break;
		case 6: in = print; break;
		case 7: in = print && c != ' '; break;
		case 8: in = c < 0x20 || c == 0x7f; break;
		default: in = digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); break;
		}
		if (in)
			bs_add(set, lower((unsigned char)c));
	}
	return true;
}

/* One bracket element: a byte, or [.x.] / [=x=] of one byte. -1: none. */
static int bracket_char(struct parser *ps)
{
	const char *p = ps->p;
	if (p[0] == '[' && (p[1] == '.' || p[1] == '=')) {
		char close = p[1];
		if (!p[2] || p[3] != close || p[4] != ']') {
			ps->bad = true; /* multi-byte collating element */
			return -1;
		}
		ps->p += 5;
		return (unsigned char)p[2];
	}
	if (!*p) {
		ps->bad = true;
		return -1;
	}
	ps->p++;
	return (unsigned char)*p;
}

static int parse_bracket(struct parser *ps)
{
	ps->p++; /* '[' */
	bool neg = false;
	if (*ps->p == '^') {
		neg = true;
		ps->p++;
	}
	int s = new_set(ps);
	bset tmp = { 0 };
	bool first = true;
	for (;;) {
		if (!*ps->p) {
			ps->bad = true;
			break;
		}
		if (*ps->p == ']' && !first) {
			ps->p++;
			break;
		}
		first = false;
		if (ps->p[0] == '[' && ps->p[1] == ':') {
			const char *name = ps->p + 2, *e = strstr(name, ":]");
			if (!e || !add_class(tmp, name, (size_t)(e - name))) {
				ps->bad = true;
				break;
			}
			ps->p = e + 2;
			continue;
		}
		int lo = bracket_char(ps);
		if (lo < 0)
			break;
		int hi = lo;
		if (ps->p[0] == '-' && ps->p[1] && ps->p[1] != ']') {
			ps->p++;
			hi = bracket_char(ps);
			if (hi < 0 || hi < lo) {
				ps->bad = true;
				break;
			}
		}
		/* glibc folds bracket contents its own way: leave those to it. */
		if (hi >= 'A' && lo <= 'Z') {
			ps->bad = true;
			break;
		}
		for (int c = lo; c <= hi; c++)
			bs_add(tmp, (unsigned)c);
	}
	for (unsigned c = 0; c < 256; c++)
		if (bs_has(tmp, c) != neg)
			bs_add(ps->set[s], c);
	return set_ast(ps, s);
}

static int parse_alt(struct parser *ps);

/* A bound {m}, {m,} or {m,n}; false if malformed or too large. */
static bool parse_bound(struct parser *ps, int *min, int *max)
{
	const char *p = ps->p + 1;
	long m = 0, n;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9' && m <= 255)
		m = m * 10 + (*p++ - '0');
	n = m;
	if (*p == ',') {
		p++;
		if (*p == '}') {
			n = -1;
		} else {
			n = 0;
			if (*p < '0' || *p > '9')
				return false;
			while (*p >= '0' && *p <= '9' && n <= 255)
				n = n * 10 + (*p++ - '0');
		}
	}
	if (*p != '}' || m > 255 || n > 255 || (n >= 0 && n < m))
		return false;
	ps->p = p + 1;
	*min = (int)m;
	*max = (int)n;
	return true;
}

static int parse_atom(struct parser *ps)
{
	unsigned char c = (unsigned char)*ps->p;
	switch (c) {
	case '(': {
		if (++ps->depth > MAX_DEPTH) {
			ps->bad = true;
			return -1;
		}
		ps->p++;
		int inner = parse_alt(ps);
		if (*ps->p != ')')
			ps->bad = true;
		else
			ps->p++;
		ps->depth--;
		return inner;
	}
	case '[':
		return parse_bracket(ps);
	case '.': {
		ps->p++;
		int s = new_set(ps);
		memset(ps->set[s], 0xff, sizeof(bset));
		return set_ast(ps, s);
	}
	case '^':
		ps->p++;
		return new_ast(ps, A_BOL);
	case '$':
		ps->p++;
		return new_ast(ps, A_EOL);
	case '\\':
		c = (unsigned char)ps->p[1];
		if (!c || is_alnum(c)) { /* GNU escapes: regexec's business */
			ps->bad = true;
			return -1;
		}
		ps->p += 2;
		return char_ast(ps, c);
	case '*': case '+': case '?': case '{': case ')':
		ps->bad = true; /* nothing to repeat, unmatched ')' */
		return -1;
	default:
		ps->p++;
		return char_ast(ps, c);
	}
}

static bool has_anchor(const struct parser *ps, int id)
{
	const struct ast *a = &ps->a[id];
	if (a->type == A_BOL || a->type == A_EOL)
		return true;
	if (a->type == A_REP)
		return has_anchor(ps, a->sub);
	for (int i = 0; i < a->nkid; i++)
		if (has_anchor(ps, a->kid[i]))
			return true;
	return false;
}

static int parse_branch(struct parser *ps)
{
	int cat = -1, last = -1, n = 0;
	while (!ps->bad && *ps->p && *ps->p != '|' && !(*ps->p == ')' && ps->depth > 0)) {
		int atom = parse_atom(ps);
		if (ps->bad)
			break;
		while (*ps->p == '*' || *ps->p == '+' || *ps->p == '?' || *ps->p == '{') {
			int min, max;
			char q = *ps->p;
			if (q == '{') {
				if (!parse_bound(ps, &min, &max)) {
					ps->bad = true;
					break;
				}
			} else {
				ps->p++;
				min = q == '+';
				max = q == '?' ? 1 : -1;
			}
			/* An anchor under a quantifier ("^*", "(^a)+"): glibc's
			 * answers there are its own, so leave those to it. */
			if (has_anchor(ps, atom)) {
				ps->bad = true;
				break;
			}
			int r = new_ast(ps, A_REP);
			ps->a[r].sub = atom;
			ps->a[r].min = min;
			ps->a[r].max = max;
			atom = r;
		}
		if (ps->bad)
			break;
		if (n == 1) {
			cat = new_ast(ps, A_CAT);
			add_kid(ps, cat, last);
		}
		if (n >= 1)
			add_kid(ps, cat, atom);
		last = atom;
		n++;
	}
	if (n == 0)
		return new_ast(ps, A_EMPTY);
	return n == 1 ? last : cat;
}

static int parse_alt(struct parser *ps)
{
	int first = parse_branch(ps);
	if (*ps->p != '|' || ps->bad)
		return first;
	int alt = new_ast(ps, A_ALT);
	add_kid(ps, alt, first);
	while (*ps->p == '|' && !ps->bad) {
		ps->p++;
		add_kid(ps, alt, parse_branch(ps));
	}
	return alt;
}

/* ---- NFA ---- */

enum { N_SET, N_SPLIT, N_BOL, N_EOL, N_MATCH };

struct node {
	int type;
	int32_t a, b; /* successors (b: SPLIT only) */
	int32_t set;
};

struct rx_nfa {
	struct node *n;
	int nn, cap;
	int32_t start;
	bset *set;
	int nset;
	unsigned char cls[256]; /* input byte (any case) -> class */
	unsigned char *rep;     /* a byte of each class */
	int ncls;
};

static int new_node(struct rx_nfa *f, int type, int a, int b, int set)
{
	if (f->nn >= RX_MAX_NFA)
		return -1;
	if (f->nn == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->n = xrealloc(f->n, (size_t)f->cap * sizeof *f->n);
	}
	f->n[f->nn] = (struct node){ type, a, b, set };
	return f->nn++;
}

/* Emits the NFA of tree node id so that it continues at next; returns its
 * entry, or -1 when the NFA grows past RX_MAX_NFA. Called once per copy:
 * x{2,3} emits x three times. */
static int emit(struct rx_nfa *f, const struct parser *ps, int id, int next)
{
	if (next < 0)
		return -1;
	const struct ast *a = &ps->a[id];
	switch (a->type) {
	case A_SET:
		return new_node(f, N_SET, next, -1, a->set);
	case A_BOL:
		return new_node(f, N_BOL, next, -1, -1);
	case A_EOL:
		return new_node(f, N_EOL, next, -1, -1);
	case A_EMPTY:
		return next;
	case A_CAT:
		for (int i = a->nkid - 1; i >= 0 && next >= 0; i--)
			next = emit(f, ps, a->kid[i], next);
		return next;
	case A_ALT: {
		int e = emit(f, ps, a->kid[a->nkid - 1], next);
		for (int i = a->nkid - 2; i >= 0 && e >= 0; i--) {
			int k = emit(f, ps, a->kid[i], next);
			e = k < 0 ? -1 : new_node(f, N_SPLIT, k, e, -1);
		}
		return e;
	}
	default: { /* A_REP */
		int cur = next;
		if (a->max < 0) {
			int loop = new_node(f, N_SPLIT, -1, next, -1);
			if (loop < 0)
				return -1;
			int body = emit(f, ps, a->sub, loop);
			if (body < 0)
				return -1;
			f->n[loop].a = body;
			cur = loop;
		} else {
			for (int i = a->min; i < a->max && cur >= 0; i++) {
				int body = emit(f, ps, a->sub, cur);
				cur = body < 0 ? -1 : new_node(f, N_SPLIT, body, next, -1);
			}
		}
		for (int i = 0; i < a->min && cur >= 0; i++)
			cur = emit(f, ps, a->sub, cur);
		return cur;
	}
	}
}

/* Byte classes: bytes that every set treats alike share one. Most sets
 * hold one byte (the letters of the literal parts), which only splits
 * that byte off its class. */
static void make_classes(struct rx_nfa *f)
{
	unsigned char cls[256] = { 0 };
	int size[256] = { 256 };
	int ncls = 1;
	for (int s = 0; s < f->nset; s++) {
		int one = -1, members = 0;
		for (int w = 0; w < 4 && members < 2; w++)
			for (uint64_t x = f->set[s][w]; x && members < 2; x &= x - 1) {
				one = w * 64 + __builtin_ctzll(x);
				members++;
			}
		if (members == 1) {
			if (size[cls[one]] > 1) {
				size[cls[one]]--;
				cls[one] = (unsigned char)ncls;
				size[ncls++] = 1;
			}
			continue;
		}
		int map[2][256];
		for (int k = 0; k < ncls; k++)
			map[0][k] = map[1][k] = -1;
		int n = 0;
		unsigned char next[256];
		for (unsigned c = 0; c < 256; c++) {
			int in = bs_has(f->set[s], c);
			int *m = &map[in][cls[c]];
			if (*m < 0)
				*m = n++;
			next[c] = (unsigned char)*m;
		}
		memcpy(cls, next, sizeof cls);
		ncls = n;
		memset(size, 0, sizeof size);
		for (unsigned c = 0; c < 256; c++)
			size[cls[c]]++;
	}
	f->ncls = ncls;
	f->rep = xmalloc((size_t)ncls);
	for (int c = 255; c >= 0; c--)
		f->rep[cls[c]] = (unsigned char)c;
	for (unsigned c = 0; c < 256; c++)
		f->cls[c] = cls[lower((unsigned char)c)];
}

/* ---- DFA ---- */

struct rx_dfa {
	uint32_t *trans;     /* nstates * ncls: the next state's row (state x ncls),
				TR_MATCH if it holds MATCH, or TR_UNKNOWN */
	unsigned char *acc;  /* ACC_* */
	int32_t **list;      /* NFA nodes of each state, sorted */
	int *len;
	int nstates, cap;
	int32_t *hash;       /* state ids, -1 empty; size hcap (power of two) */
	int hcap;
	int32_t init, idle;
	/* scratch */
	int32_t *stack, *buf;
	uint32_t *mark;
	uint32_t gen;
};

enum { ACC_MATCH = 1, ACC_END_KNOWN = 2, ACC_END = 4 };
/* Transition entries: a row offset, so the scan needs no multiply, with the
 * top bit for "a match ends here" (the scan stops there) or for "not
 * built yet" (all bits). */
#define TR_MATCH 0x80000000u
#define TR_UNKNOWN 0xffffffffu

static struct rx_dfa *dfa_new(const struct rx_nfa *f)
{
	struct rx_dfa *d = xcalloc(1, sizeof *d);
	d->init = d->idle = -1;
	d->hcap = 64;
	d->hash = xmalloc((size_t)d->hcap * sizeof *d->hash);
	for (int i = 0; i < d->hcap; i++)
		d->hash[i] = -1;
	d->stack = xmalloc(((size_t)f->nn * 3 + 2) * sizeof *d->stack);
	d->buf = xmalloc((size_t)f->nn * sizeof *d->buf);
	d->mark = xcalloc((size_t)f->nn, sizeof *d->mark);
	return d;
}

static void dfa_free(struct rx_dfa *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->nstates; i++)
		free(d->list[i]);
	free(d->list);
	free(d->len);
	free(d->trans);
	free(d->acc);
	free(d->hash);
	free(d->stack);
	free(d->buf);
	free(d->mark);
	free(d);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

/* The epsilon closure of seeds[0..n) into d->buf, sorted; returns its size
 * and whether it holds MATCH. ^ is passed only if bol, $ only if eol. */
static int closure(const struct rx_nfa *f, struct rx_dfa *d, const int32_t *seeds, int n, bool bol,
		   bool eol, bool *match)
{
	if (++d->gen == 0) {
		memset(d->mark, 0, (size_t)f->nn * sizeof *d->mark);
		d->gen = 1;
	}
	int sp = 0, out = 0;
	*match = false;
	for (int i = 0; i < n; i++)
		d->stack[sp++] = seeds[i];
	while (sp) {
		int32_t s = d->stack[--sp];
		if (s < 0 || d->mark[s] == d->gen)
			continue;
		d->mark[s] = d->gen;
		const struct node *nd = &f->n[s];
		switch (nd->type) {
		case N_SPLIT:
			d->stack[sp++] = nd->b;
			d->stack[sp++] = nd->a;
			break;
		case N_BOL:
			if (bol)
				d->stack[sp++] = nd->a;
			break;
		case N_EOL:
			if (eol)
				d->stack[sp++] = nd->a;
			else
				d->buf[out++] = s;
			break;
		case N_MATCH:
			*match = true;
			d->buf[out++] = s;
			break;
		default:
			d->buf[out++] = s;
			break;
		}
	}
	qsort(d->buf, (size_t)out, sizeof *d->buf, cmp_i32);
	return out;
}

static uint32_t hash_list(const int32_t *l, int n)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < n; i++) {
		h ^= (uint32_t)l[i];
		h *= 16777619u;
	}
	return h;
}

static void rehash(struct rx_dfa *d)
{
	d->hcap *= 2;
	d->hash = xrealloc(d->hash, (size_t)d->hcap * sizeof *d->hash);
	for (int i = 0; i < d->hcap; i++)
		d->hash[i] = -1;
	for (int s = 0; s < d->nstates; s++) {
		uint32_t h = hash_list(d->list[s], d->len[s]) & (uint32_t)(d->hcap - 1);
		while (d->hash[h] >= 0)
			h = (h + 1) & (uint32_t)(d->hcap - 1);
		d->hash[h] = s;
	}
}

/* The state for the set in d->buf[0..n), made if new; -1 past RX_MAX_DFA. */
static int32_t intern(const struct rx_nfa *f, struct rx_dfa *d, int n, bool match)
{
	uint32_t h = hash_list(d->buf, n) & (uint32_t)(d->hcap - 1);
	for (; d->hash[h] >= 0; h = (h + 1) & (uint32_t)(d->hcap - 1)) {
		int32_t s = d->hash[h];
		if (d->len[s] == n && !memcmp(d->list[s], d->buf, (size_t)n * sizeof *d->buf))
			return s;
	}
	if (d->nstates >= RX_MAX_DFA)
		return -1;
	if (d->nstates == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 16;
		d->trans = xrealloc(d->trans, (size_t)d->cap * (size_t)f->ncls * sizeof *d->trans);
		d->acc = xrealloc(d->acc, (size_t)d->cap);
		d->list = xrealloc(d->list, (size_t)d->cap * sizeof *d->list);
		d->len = xrealloc(d->len, (size_t)d->cap * sizeof *d->len);
	}
	int32_t s = d->nstates++;
	for (int k = 0; k < f->ncls; k++)
		d->trans[(size_t)s * (size_t)f->ncls + (size_t)k] = TR_UNKNOWN;
	d->acc[s] = match ? ACC_MATCH : 0;
	d->list[s] = xmalloc((size_t)(n ? n : 1) * sizeof *d->buf);
	memcpy(d->list[s], d->buf, (size_t)n * sizeof *d->buf);
	d->len[s] = n;
	d->hash[h] = s;
	if (2 * d->nstates > d->hcap)
		rehash(d);
	return s;
}

static int32_t step(const struct rx_nfa *f, struct rx_dfa *d, int32_t s, int k)
{
	unsigned char c = f->rep[k];
	int n = 0;
	int32_t *seeds = xmalloc((size_t)(d->len[s] + 1) * sizeof *seeds);
	for (int i = 0; i < d->len[s]; i++) {
		const struct node *nd = &f->n[d->list[s][i]];
		if (nd->type == N_SET && bs_has(f->set[nd->set], c))
			seeds[n++] = nd->a;
	}
	seeds[n++] = f->start; /* the search may begin at the next byte */
	bool match;
	int m = closure(f, d, seeds, n, false, false, &match);
	free(seeds);
	int32_t t = intern(f, d, m, match);
	if (t >= 0)
		d->trans[(size_t)s * (size_t)f->ncls + (size_t)k] =
			(uint32_t)t * (uint32_t)f->ncls | (match ? TR_MATCH : 0);
	return t;
}

/* Does state s match once the text ends here? */
static bool at_end(const struct rx_nfa *f, struct rx_dfa *d, int32_t s)
{
	if (!(d->acc[s] & ACC_END_KNOWN)) {
		int32_t *seeds = xmalloc((size_t)(d->len[s] + 1) * sizeof *seeds);
		int n = 0;
		for (int i = 0; i < d->len[s]; i++)
			if (f->n[d->list[s][i]].type == N_EOL)
				seeds[n++] = f->n[d->list[s][i]].a;
		bool match = false;
		if (n)
			closure(f, d, seeds, n, false, true, &match);
		free(seeds);
		d->acc[s] |= ACC_END_KNOWN | (match ? ACC_END : 0);
	}
	return d->acc[s] & ACC_END;
}

/* ---- API ---- */

int rx_compile(struct rx *rx, const char *re)
{
	memset(rx, 0, sizeof *rx);
	struct parser ps = { .p = re };
	int root = parse_alt(&ps);
	if (*ps.p)
		ps.bad = true; /* an unmatched ')' stopped the parse */
	struct rx_nfa *f = NULL;
	if (!ps.bad) {
		f = xcalloc(1, sizeof *f);
		int m = new_node(f, N_MATCH, -1, -1, -1);
		f->start = emit(f, &ps, root, m);
		if (f->start < 0) {
			ps.bad = true;
		} else {
			f->set = ps.set;
			f->nset = ps.nset;
			ps.set = NULL;
			make_classes(f);
		}
	}
	for (int i = 0; i < ps.na; i++)
		free(ps.a[i].kid);
	free(ps.a);
	free(ps.set);
	if (ps.bad) {
		if (f) {
			free(f->n);
			free(f);
		}
		return -1;
	}
	rx->nfa = f;
	return 0;
}

/* The state at the start of the text (^ holds), or, for idle, the one a
 * search is in when nothing is under way. -1 past RX_MAX_DFA. */
static int32_t start_state(struct rx *rx, bool idle)
{
	const struct rx_nfa *f = rx->nfa;
	struct rx_dfa *d = rx->dfa;
	int32_t *slot = idle ? &d->idle : &d->init;
	if (*slot < 0) {
		bool match;
		int n = closure(f, d, &f->start, 1, !idle, false, &match);
		*slot = intern(f, d, n, match);
		if (*slot < 0)
			rx->overflow = true;
	}
	return *slot;
}

void rx_defer(struct rx *rx, const char *re)
{
	memset(rx, 0, sizeof *rx);
	rx->lazy = re;
}

int rx_feed(struct rx *rx, int32_t *state, const char *s, size_t len)
{
	if (rx->lazy)
		rx_compile(rx, rx->lazy); /* clears rx->lazy */
	const struct rx_nfa *f = rx->nfa;
	if (!f || rx->overflow)
		return -1;
	if (!rx->dfa)
		rx->dfa = dfa_new(f);
	struct rx_dfa *d = rx->dfa;
	int32_t st = *state;
	if (st == RX_START || st == RX_MID) {
		st = start_state(rx, st == RX_MID);
		if (st < 0)
			return -1;
		if (d->acc[st] & ACC_MATCH)
			return 1;
	}
	const uint32_t ncls = (uint32_t)f->ncls;
	const unsigned char *cls = f->cls;
	const uint32_t *tr = d->trans;
	uint32_t row = (uint32_t)st * ncls;
	for (size_t i = 0; i < len; i++) {
		unsigned k = cls[(unsigned char)s[i]];
		uint32_t t = tr[row + k];
		if (t & TR_MATCH) {
			if (t != TR_UNKNOWN)
				return 1;
			if (step(f, d, (int32_t)(row / ncls), (int)k) < 0) {
				rx->overflow = true;
				return -1;
			}
			tr = d->trans; /* it may have moved */
			t = tr[row + k];
			if (t & TR_MATCH)
				return 1;
		}
		row = t;
	}
	*state = (int32_t)(row / ncls);
	return 0;
}

bool rx_at_end(struct rx *rx, int32_t state)
{
	if (!rx->nfa)
		return false;
	if (!rx->dfa)
		rx->dfa = dfa_new(rx->nfa);
	if (state == RX_START) { /* the empty text: ^ and $ both hold */
		bool match;
		closure(rx->nfa, rx->dfa, &rx->nfa->start, 1, true, true, &match);
		return match;
	}
	return at_end(rx->nfa, rx->dfa, state);
}

bool rx_idle(struct rx *rx, int32_t state)
{
	if (state == RX_START || state == RX_MID)
		return true;
	if (!rx->nfa || !rx->dfa)
		return false;
	int32_t idle = start_state(rx, true);
	return idle >= 0 && state == idle;
}

int rx_search(struct rx *rx, const char *s, size_t len)
{
	int32_t st = RX_START;
	int r = rx_feed(rx, &st, s, len);
	if (r != 0)
		return r;
	/* The empty text: ^ and $ both hold at once ("$^" matches it). */
	return rx_at_end(rx, len ? st : RX_START);
}

void rx_free(struct rx *rx)
{
	if (rx->nfa) {
		free(rx->nfa->n);
		free(rx->nfa->set);
		free(rx->nfa->rep);
		free(rx->nfa);
	}
	dfa_free(rx->dfa);
	memset(rx, 0, sizeof *rx);
}
