/* matcher.c: build the signature matcher and scan text with it. See matcher.h. */
#include "matcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "literal.h"

enum {
	F_WLIT = 1, /* a literal key lies within the line */
	F_WRE = 2,  /* a regex's key lies within the line */
	F_SLIT = 4, /* a literal key spans the break from the previous line */
	F_SRE = 8,  /* a regex's key spans the break */
};

/* ---- building ---- */

static const struct kb_entry *find_in(const struct kb *kb, const char *id)
{
	for (size_t i = 0; i < kb->n; i++)
		if (!strcmp(kb->e[i].id, id))
			return &kb->e[i];
	return NULL;
}

static bool has_patterns(const struct kb_entry *e)
{
	return e->match.n || e->regex.n;
}

static bool is_signature(const struct kb_entry *e)
{
	return !strcmp(e->kind, "signature");
}

/* A `match:` literal as a key: lower case, blanks collapsed like the text. */
static char *literal_key(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	bool pending = false;
	for (const char *p = s; *p; p++) {
		char c = *p;
		if (c == ' ' || c == '\t') {
			pending = true;
			continue;
		}
		if (pending && sb.len)
			sb_addc(&sb, ' ');
		pending = false;
		sb_addc(&sb, c >= 'A' && c <= 'Z' ? (char)(c + 32) : c);
	}
	return sb_detach(&sb);
}

static void add_key(struct explain_db *db, size_t sig, bool literal, char *text)
{
	if (!*text) {
		free(text);
		return;
	}
	db->key = xrealloc(db->key, (db->nkeys + 1) * sizeof *db->key);
	db->key[db->nkeys++] = (struct explain_key){ sig, literal, text };
}

int explain_db_build(struct explain_db *db, const struct kb *kb, struct strbuf *err)
{
	memset(db, 0, sizeof *db);
	for (size_t i = 0; i < kb->n; i++)
		if (has_patterns(&kb->e[i]))
			db->n++;
	db->sig = xcalloc(db->n ? db->n : 1, sizeof *db->sig);
	size_t k = 0;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		if (!has_patterns(e))
			continue;
		struct explain_sig *s = &db->sig[k];
		s->e = e;
		s->cause = xcalloc(e->see.n + 1, sizeof *s->cause);
		if (!is_signature(e))
			s->cause[s->ncause++] = e;
		for (size_t j = 0; j < e->see.n; j++) {
			const struct kb_entry *t = find_in(kb, e->see.v[j]);
			if (t && !is_signature(t))
				s->cause[s->ncause++] = t;
		}
		s->kind = s->ncause ? s->cause[0]->kind : "finding";
		if (strcmp(s->kind, "noise") && strcmp(s->kind, "myth"))
			s->kind = "finding";
		s->re = xcalloc(e->regex.n ? e->regex.n : 1, sizeof *s->re);
		for (size_t j = 0; j < e->regex.n; j++) {
			int rc = regcomp(&s->re[j], e->regex.v[j], REG_EXTENDED | REG_ICASE | REG_NOSUB);
			if (rc) {
				char msg[256];
				regerror(rc, &s->re[j], msg, sizeof msg);
				sb_addf(err, "%s: regex %zu: %s", e->id, j + 1, msg);
				db->n = k; /* free what was compiled */
				for (size_t q = 0; q < s->nre; q++)
					regfree(&s->re[q]);
				free(s->re);
				free(s->cause);
				explain_db_free(db);
				return -1;
			}
			s->nre++;
			struct litset ls;
			if (ere_required(e->regex.v[j], &ls) < 0) {
				s->always = true;
				continue;
			}
			for (size_t m = 0; m < ls.n; m++)
				add_key(db, k, false, xstrdup(ls.v[m]));
			litset_free(&ls);
		}
		for (size_t j = 0; j < e->match.n; j++)
			add_key(db, k, true, literal_key(e->match.v[j]));
		if (s->always) {
			db->always = xrealloc(db->always, (db->nalways + 1) * sizeof *db->always);
			db->always[db->nalways++] = k;
		}
		k++;
	}
	/* Refinements, now that every signature has an index. */
	for (size_t i = 0; i < db->n; i++) {
		struct explain_sig *s = &db->sig[i];
		for (size_t j = 0; j < s->e->see.n; j++) {
			int t = explain_db_find(db, s->e->see.v[j]);
			if (t < 0 || (size_t)t == i)
				continue;
			s->refines = xrealloc(s->refines, (s->nrefines + 1) * sizeof *s->refines);
			s->refines[s->nrefines++] = (size_t)t;
			struct explain_sig *o = &db->sig[t];
			o->refined_by = xrealloc(o->refined_by, (o->nrefined_by + 1) * sizeof *o->refined_by);
			o->refined_by[o->nrefined_by++] = i;
		}
	}
	const char **texts = xcalloc(db->nkeys ? db->nkeys : 1, sizeof *texts);
	size_t *lens = xcalloc(db->nkeys ? db->nkeys : 1, sizeof *lens);
	for (size_t i = 0; i < db->nkeys; i++) {
		texts[i] = db->key[i].text;
		lens[i] = strlen(texts[i]);
	}
	ac_build(&db->ac, texts, lens, db->nkeys);
	free(texts);
	free(lens);
	return 0;
}

void explain_db_free(struct explain_db *db)
{
	for (size_t i = 0; i < db->n; i++) {
		for (size_t j = 0; j < db->sig[i].nre; j++)
			regfree(&db->sig[i].re[j]);
		free(db->sig[i].re);
		free(db->sig[i].cause);
		free(db->sig[i].refines);
		free(db->sig[i].refined_by);
	}
	free(db->sig);
	for (size_t i = 0; i < db->nkeys; i++)
		free(db->key[i].text);
	free(db->key);
	free(db->always);
	ac_free(&db->ac);
	memset(db, 0, sizeof *db);
}

const struct explain_db *explain_db_builtin(void)
{
	static struct explain_db db;
	static int built;
	if (!built) {
		struct strbuf err = STRBUF_INIT;
		/* make check compiles every pattern; failing here is a broken build. */
		if (explain_db_build(&db, kb_builtin(), &err) < 0) {
			fprintf(stderr, "wslgpu: internal signature table is invalid: %s\n", err.buf);
			abort();
		}
		sb_release(&err);
		built = 1;
	}
	return &db;
}

int explain_db_find(const struct explain_db *db, const char *id)
{
	for (size_t i = 0; i < db->n; i++)
		if (!strcmp(db->sig[i].e->id, id))
			return (int)i;
	return -1;
}

/* ---- scanning ---- */

void explain_scan_init(struct explain_scan *s, const struct explain_db *db)
{
	memset(s, 0, sizeof *s);
	s->db = db;
	size_t n = db->n ? db->n : 1;
	s->m = xcalloc(n, sizeof *s->m);
	s->last = xcalloc(n, sizeof *s->last);
	s->stamp = xcalloc(n, sizeof *s->stamp);
	s->hits = xcalloc(n, sizeof *s->hits);
	for (int i = 0; i < 2; i++) {
		s->flags[i] = xcalloc(n, 1);
		s->cand[i] = xcalloc(n, sizeof *s->cand[i]);
		s->buf[i] = xmalloc(EXPLAIN_LINE_MAX + 1);
	}
	s->raw = xmalloc(EXPLAIN_LINE_MAX);
	s->joined = xmalloc(2 * EXPLAIN_LINE_MAX + 2);
}

static void on_hit(void *ctx, size_t key, long end)
{
	struct explain_scan *s = ctx;
	const struct explain_key *k = &s->db->key[key];
	long start = end - (long)s->db->ac.keylen[key] + 1;
	unsigned char bit;
	if (start >= 0)
		bit = k->literal ? F_WLIT : F_WRE;
	else if (s->prev_valid && start >= -(s->hit_prevlen + 1))
		bit = k->literal ? F_SLIT : F_SRE;
	else
		return;
	int c = s->cur;
	if (!s->flags[c][k->sig])
		s->cand[c][s->ncand[c]++] = k->sig;
	s->flags[c][k->sig] |= bit;
}

static bool sig_regex(const struct explain_sig *sig, const char *text)
{
	for (size_t i = 0; i < sig->nre; i++)
		if (regexec(&sig->re[i], text, 0, NULL, 0) == 0)
			return true;
	return false;
}

/* Drops, from the signatures matched on one line, those that another one
 * matched there refines. */
static size_t refine(const struct explain_db *db, size_t *hits, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		bool drop = false;
		for (size_t j = 0; j < n && !drop; j++) {
			const struct explain_sig *o = &db->sig[hits[j]];
			for (size_t r = 0; r < o->nrefines; r++)
				if (o->refines[r] == hits[i] && hits[j] != hits[i])
					drop = true;
		}
		if (!drop)
			hits[w++] = hits[i];
	}
	return w;
}

/* True if a signature that refines sig matched on this line or the one
 * before: then the pair of them is its message, not sig's. */
static bool refined_nearby(const struct explain_scan *s, size_t sig, unsigned long line)
{
	const struct explain_sig *g = &s->db->sig[sig];
	for (size_t i = 0; i < g->nrefined_by; i++)
		if (s->last[g->refined_by[i]] + 1 >= line)
			return true;
	return false;
}

/* Copies up to EXPLAIN_SAMPLE_TEXT bytes of a[..an) + " " + b[..bn), cut at
 * a UTF-8 character boundary, with "…" when cut. */
static char *sample(const char *a, size_t an, const char *b, size_t bn)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addn(&sb, a, an);
	if (b) {
		sb_addc(&sb, ' ');
		sb_addn(&sb, b, bn);
	}
	if (sb.len > EXPLAIN_SAMPLE_TEXT) {
		size_t cut = EXPLAIN_SAMPLE_TEXT;
		while (cut > 0 && ((unsigned char)sb.buf[cut] & 0xc0) == 0x80)
			cut--;
		sb.len = cut;
		sb.buf[cut] = '\0';
		sb_add(&sb, "…");
	}
	return sb_detach(&sb);
}

static void record(struct explain_scan *s, size_t sig, unsigned long line, unsigned long end,
		   bool wrapped)
{
	struct explain_match *m = &s->m[sig];
	if (m->count == 0) {
		m->sig = sig;
		m->first_line = line;
		m->order = s->norder++;
	}
	m->count++;
	m->last_line = end;
	s->last[sig] = end;
	if (m->nocc == EXPLAIN_SAMPLES)
		return;
	struct explain_occ *o = &m->occ[m->nocc++];
	const struct norm_line *cur = &s->nl[s->cur], *prev = &s->nl[!s->cur];
	o->line = line;
	o->wrapped = wrapped;
	o->text = wrapped ? sample(prev->text, prev->len, cur->text, cur->len)
			  : sample(cur->text, cur->len, NULL, 0);
}

static void process_line(struct explain_scan *s, const char *raw, size_t len, bool clipped)
{
	const struct explain_db *db = s->db;
	int c = s->cur, p = !c;
	struct norm_line *nl = &s->nl[c];
	norm_line(raw, len, s->buf[c], nl);
	s->st.lines++;
	s->st.nul_bytes += nl->nul_bytes;
	s->st.bad_utf8 += nl->bad_utf8;
	if (clipped)
		s->st.clipped++;
	unsigned long line = s->st.lines;
	const char *msg = nl->text + nl->msg;
	size_t mlen = nl->len - nl->msg;

	for (size_t i = 0; i < s->ncand[c]; i++)
		s->flags[c][s->cand[c][i]] = 0;
	s->ncand[c] = 0;

	bool frame = mlen > 6 && !memcmp(msg, "File \"", 6) && memmem(msg, mlen, "\", line ", 8);
	/* The source line a traceback prints under a frame is indented deeper;
	 * it repeats what the exception line says, so it is not matched. */
	bool echo = s->prev_valid && s->prev_frame && nl->indent > s->nl[p].indent;
	if (echo || mlen == 0) {
		s->prev_valid = false;
		s->prev_frame = false;
		s->cur = p;
		return;
	}

	const struct norm_line *pl = &s->nl[p];
	s->hit_prevlen = s->prev_valid ? (long)(pl->len - pl->msg) : 0;
	int32_t st = 0;
	if (s->prev_valid)
		st = ac_feed(&db->ac, s->prev_state, " ", 1, -1, on_hit, s);
	st = ac_feed(&db->ac, st, msg, mlen, 0, on_hit, s);

	/* The line alone. */
	size_t nh = 0;
	for (size_t i = 0; i < s->ncand[c]; i++) {
		size_t sig = s->cand[c][i];
		unsigned char f = s->flags[c][sig];
		if ((f & F_WLIT) || ((f & F_WRE) && sig_regex(&db->sig[sig], msg)))
			s->hits[nh++] = sig;
	}
	for (size_t i = 0; i < db->nalways; i++)
		if (!s->flags[c][db->always[i]] && sig_regex(&db->sig[db->always[i]], msg))
			s->hits[nh++] = db->always[i];
	nh = refine(db, s->hits, nh);
	for (size_t i = 0; i < nh; i++)
		record(s, s->hits[i], line, line, false);

	/* The line joined to the one before, for messages the paste wrapped. */
	if (s->prev_valid) {
		const char *pmsg = pl->text + pl->msg;
		size_t plen = pl->len - pl->msg;
		bool built = false;
		nh = 0;
		for (int side = 0; side < 3; side++) {
			size_t ncand = side == 0 ? s->ncand[p] : side == 1 ? s->ncand[c] : db->nalways;
			for (size_t i = 0; i < ncand; i++) {
				size_t sig = side == 0 ? s->cand[p][i] : side == 1 ? s->cand[c][i]
										 : db->always[i];
				if (s->stamp[sig] == line || s->last[sig] + 1 >= line)
					continue;
				s->stamp[sig] = line;
				if (refined_nearby(s, sig, line))
					continue;
				unsigned char f = (unsigned char)((s->flags[p][sig] & (F_WLIT | F_WRE)) |
								  s->flags[c][sig]);
				bool hit = f & F_SLIT;
				if (!hit && db->sig[sig].nre && (side == 2 || (f & (F_WRE | F_SRE)))) {
					if (!built) {
						memcpy(s->joined, pmsg, plen);
						s->joined[plen] = ' ';
						memcpy(s->joined + plen + 1, msg, mlen);
						s->joined[plen + 1 + mlen] = '\0';
						built = true;
					}
					hit = sig_regex(&db->sig[sig], s->joined);
				}
				if (hit)
					s->hits[nh++] = sig;
			}
		}
		nh = refine(db, s->hits, nh);
		for (size_t i = 0; i < nh; i++)
			record(s, s->hits[i], line - 1, line, true);
	}

	s->prev_valid = true;
	s->prev_frame = frame;
	s->prev_state = st;
	s->cur = p;
}

void explain_scan_feed(struct explain_scan *s, const char *buf, size_t len)
{
	s->st.bytes += len;
	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t take = nl ? (size_t)(nl - buf) : len;
		size_t room = EXPLAIN_LINE_MAX - s->rawlen;
		if (take > room) {
			s->clipped = true;
			memcpy(s->raw + s->rawlen, buf, room);
			s->rawlen += room;
		} else {
			memcpy(s->raw + s->rawlen, buf, take);
			s->rawlen += take;
		}
		s->partial = true;
		if (!nl)
			break;
		process_line(s, s->raw, s->rawlen, s->clipped);
		s->rawlen = 0;
		s->clipped = false;
		s->partial = false;
		buf += take + 1;
		len -= take + 1;
	}
}

static int by_order(const void *a, const void *b)
{
	const struct explain_match *x = *(struct explain_match *const *)a;
	const struct explain_match *y = *(struct explain_match *const *)b;
	return x->order < y->order ? -1 : x->order > y->order;
}

void explain_scan_finish(struct explain_scan *s)
{
	if (s->finished)
		return;
	if (s->partial)
		process_line(s, s->raw, s->rawlen, s->clipped);
	s->partial = false;
	s->finished = true;
	s->found = xcalloc(s->db->n ? s->db->n : 1, sizeof *s->found);
	for (size_t i = 0; i < s->db->n; i++)
		if (s->m[i].count)
			s->found[s->nfound++] = &s->m[i];
	qsort(s->found, s->nfound, sizeof *s->found, by_order);
}

const struct explain_match *explain_scan_get(const struct explain_scan *s, const char *id)
{
	int i = explain_db_find(s->db, id);
	return i >= 0 && s->m[i].count ? &s->m[i] : NULL;
}

void explain_scan_release(struct explain_scan *s)
{
	if (s->m)
		for (size_t i = 0; i < s->db->n; i++)
			for (size_t j = 0; j < s->m[i].nocc; j++)
				free(s->m[i].occ[j].text);
	free(s->m);
	free(s->last);
	free(s->stamp);
	free(s->hits);
	for (int i = 0; i < 2; i++) {
		free(s->flags[i]);
		free(s->cand[i]);
		free(s->buf[i]);
	}
	free(s->raw);
	free(s->joined);
	free(s->found);
	memset(s, 0, sizeof *s);
}
