/* piplist.c: pip list / pip freeze / collect_env package lines. See piplist.h. */
#include "piplist.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "../core/text.h"

/* PEP 508: letters and digits, with '.', '-', '_' inside. */
static bool valid_name(const char *s, size_t n)
{
	if (n == 0 || n >= sizeof((struct pip_pkg *)0)->name || !isalnum((unsigned char)s[0]) ||
	    !isalnum((unsigned char)s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '-' && s[i] != '_')
			return false;
	return true;
}

/* A version as pip prints it: a digit first, then PEP 440's characters. */
static bool valid_version(const char *s, size_t n)
{
	if (n == 0 || n >= sizeof((struct pip_pkg *)0)->version || !isdigit((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && (!s[i] || !strchr(".+!_-", s[i])))
			return false;
	return true;
}

struct word {
	const char *s;
	size_t n;
};

static size_t split(const char *l, size_t n, struct word *w, size_t max)
{
	size_t nw = 0, i = 0;
	while (i < n && nw < max + 1) {
		while (i < n && (l[i] == ' ' || l[i] == '\t'))
			i++;
		if (i >= n)
			break;
		size_t s = i;
		while (i < n && l[i] != ' ' && l[i] != '\t')
			i++;
		if (nw < max) {
			w[nw].s = l + s;
			w[nw].n = i - s;
		}
		nw++;
	}
	return nw; /* may exceed max: the caller sees there were more */
}

static void add(struct piplist *pl, size_t *alloc, struct word name, const char *ver,
		size_t vn, bool conda, int line)
{
	if (pl->n == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 64;
		pl->p = xrealloc(pl->p, *alloc * sizeof *pl->p);
	}
	struct pip_pkg *p = &pl->p[pl->n++];
	memset(p, 0, sizeof *p);
	memcpy(p->name, name.s, name.n);
	memcpy(p->version, ver, vn);
	p->conda = conda;
	p->line = line;
	if (conda)
		pl->nconda++;
	else
		pl->npip++;
}

/* "name==version", "name===version" or "name @ url" in w[0..nw). */
static bool freeze_line(struct word *w, size_t nw, struct word *name, struct word *ver)
{
	if (nw == 1) {
		const char *eq = memmem(w[0].s, w[0].n, "==", 2);
		if (!eq)
			return false;
		name->s = w[0].s;
		name->n = (size_t)(eq - w[0].s);
		ver->s = eq + 2;
		if (ver->s < w[0].s + w[0].n && *ver->s == '=')
			ver->s++;
		ver->n = (size_t)(w[0].s + w[0].n - ver->s);
		return valid_name(name->s, name->n) && valid_version(ver->s, ver->n);
	}
	if (nw == 3 && w[1].n == 1 && w[1].s[0] == '@') {
		*name = w[0];
		ver->s = "";
		ver->n = 0;
		return valid_name(name->s, name->n);
	}
	return false;
}

size_t piplist_parse(const char *buf, size_t len, struct piplist *pl)
{
	memset(pl, 0, sizeof *pl);
	size_t alloc = 0;
	bool table = false; /* inside a pip list table, after its header */
	int line = 0;
	size_t pos = 0;
	const char *l;
	size_t n;
	while (text_next_line(buf, len, &pos, &l, &n)) {
		line++;
		while (n && (l[n - 1] == '\r' || l[n - 1] == ' ' || l[n - 1] == '\t'))
			n--;
		struct word w[5];
		size_t nw = split(l, n, w, 4);
		if (nw == 0) {
			table = false;
			continue;
		}
		if (nw >= 2 && w[0].n == 7 && !memcmp(w[0].s, "Package", 7) && w[1].n == 7 &&
		    !memcmp(w[1].s, "Version", 7)) {
			table = true;
			continue;
		}
		size_t dashes = 0;
		while (dashes < w[0].n && w[0].s[dashes] == '-')
			dashes++;
		if (dashes && dashes == w[0].n)
			continue; /* the table's rule */
		struct word *r = w;
		size_t rn = nw > 4 ? 4 : nw;
		if ((w[0].n == 6 && !memcmp(w[0].s, "[pip3]", 6)) ||
		    (w[0].n == 5 && !memcmp(w[0].s, "[pip]", 5))) {
			r = w + 1;
			rn = nw - 1 > 3 ? 3 : nw - 1;
			nw--;
		} else if (w[0].n == 7 && !memcmp(w[0].s, "[conda]", 7)) {
			/* "[conda] name version build channel" */
			if (nw >= 3 && valid_name(w[1].s, w[1].n) && valid_version(w[2].s, w[2].n))
				add(pl, &alloc, w[1], w[2].s, w[2].n, true, line);
			continue;
		}
		struct word name, ver;
		if (freeze_line(r, nw > rn ? 0 : rn, &name, &ver)) {
			add(pl, &alloc, name, ver.s, ver.n, false, line);
			continue;
		}
		/* pip list rows: "name version" anywhere, a location or editable
		 * path as a third word only under the table's header. */
		if ((nw == 2 || (table && nw == 3)) && r == w && valid_name(w[0].s, w[0].n) &&
		    valid_version(w[1].s, w[1].n)) {
			add(pl, &alloc, w[0], w[1].s, w[1].n, false, line);
			continue;
		}
		if (table && r == w)
			table = false;
	}
	return pl->n;
}

void piplist_free(struct piplist *pl)
{
	free(pl->p);
	memset(pl, 0, sizeof *pl);
}

/* The next character of a normalised name, advancing *s; '\0' at the end. */
static char norm_next(const char **s)
{
	char c = **s;
	if (!c)
		return '\0';
	(*s)++;
	if (c == '-' || c == '_' || c == '.') {
		while (**s == '-' || **s == '_' || **s == '.')
			(*s)++;
		return '-';
	}
	return (char)tolower((unsigned char)c);
}

bool piplist_same_name(const char *a, const char *b)
{
	for (;;) {
		char x = norm_next(&a), y = norm_next(&b);
		if (x != y)
			return false;
		if (!x)
			return true;
	}
}

const struct pip_pkg *piplist_find(const struct piplist *pl, const char *name, bool conda)
{
	for (size_t i = 0; i < pl->n; i++)
		if (pl->p[i].conda == conda && piplist_same_name(pl->p[i].name, name))
			return &pl->p[i];
	return NULL;
}

void piplist_torch_cuda(const char *version, char *out, size_t n)
{
	if (!n)
		return;
	out[0] = '\0';
	const char *plus = version ? strchr(version, '+') : NULL;
	if (!plus)
		return;
	const char *l = plus + 1;
	if (!strcmp(l, "cpu") || !strncmp(l, "rocm", 4)) {
		snprintf(out, n, "%s", l);
		return;
	}
	if (strncmp(l, "cu", 2) != 0)
		return;
	const char *d = l + 2;
	size_t nd = strspn(d, "0123456789");
	if (nd < 2 || nd > 4 || d[nd] != '\0')
		return;
	/* The last digit is the minor release: cu121 is 12.1, cu92 is 9.2. */
	snprintf(out, n, "%.*s.%c", (int)(nd - 1), d, d[nd - 1]);
}

bool piplist_is_nvidia_wheel(const char *name)
{
	if (!name || strncmp(name, "nvidia", 6) != 0 || (name[6] != '-' && name[6] != '_'))
		return false;
	size_t n = strlen(name);
	if (n < 12)
		return false;
	const char *t = name + n - 5; /* "-cu12" */
	return (t[0] == '-' || t[0] == '_') && t[1] == 'c' && t[2] == 'u' &&
	       isdigit((unsigned char)t[3]) && isdigit((unsigned char)t[4]);
}
