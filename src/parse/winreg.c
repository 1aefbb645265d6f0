/* winreg.c: reg.exe query output and .reg exports. See winreg.h. */
#include "winreg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/strbuf.h"
#include "wintext.h"

static struct winreg_value *add(struct winreg *r, const char *key)
{
	if (r->n == WINREG_MAX_VALUES) {
		r->more++;
		return NULL;
	}
	struct winreg_value *v = &r->v[r->n++];
	memset(v, 0, sizeof *v);
	snprintf(v->key, sizeof v->key, "%s", key);
	return v;
}

static void set_number(struct winreg_value *v, const char *s, size_t n, int base)
{
	char tmp[40];
	if (!n || n >= sizeof tmp)
		return;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	char *end;
	unsigned long long x = strtoull(tmp, &end, base);
	if (*end == '\0') {
		v->is_number = true;
		v->number = x;
	}
}

/* "    Name    REG_TYPE    data" */
static void query_line(struct winreg *r, const char *key, const char *s, const char *e)
{
	const char *t = NULL;
	for (const char *p = s; p + 5 <= e; p++)
		if (!memcmp(p, "REG_", 4) && p > s && (p[-1] == ' ' || p[-1] == '\t')) {
			t = p;
			break;
		}
	if (!t)
		return;
	const char *te = t;
	while (te < e && *te != ' ' && *te != '\t')
		te++;
	size_t nl, dl;
	const char *name = wintext_trim(s, t, &nl);
	const char *data = wintext_trim(te, e, &dl);
	struct winreg_value *v = add(r, key);
	if (!v)
		return;
	snprintf(v->name, sizeof v->name, "%.*s", (int)nl, name);
	snprintf(v->type, sizeof v->type, "%.*s", (int)(te - t), t);
	snprintf(v->data, sizeof v->data, "%.*s", (int)dl, data);
	if (!strcmp(v->type, "REG_DWORD") || !strcmp(v->type, "REG_QWORD"))
		set_number(v, data, dl, 0);
}

/* "\"Name\"=dword:0000003c", "\"Name\"=\"text\"", "@=..." */
static void export_line(struct winreg *r, const char *key, const char *s, const char *e)
{
	const char *name = s, *ne;
	if (*s == '@') {
		ne = s + 1;
		name = s + 1;
		if (ne >= e || *ne != '=')
			return;
	} else {
		if (*s != '"')
			return;
		name = s + 1;
		ne = name;
		while (ne < e && *ne != '"') {
			if (*ne == '\\' && ne + 1 < e)
				ne++;
			ne++;
		}
		if (ne >= e || ne + 1 >= e || ne[1] != '=')
			return;
	}
	const char *val = (*s == '@') ? ne + 1 : ne + 2;
	struct winreg_value *v = add(r, key);
	if (!v)
		return;
	snprintf(v->name, sizeof v->name, "%.*s", (int)(ne - name), name);
	size_t vl = (size_t)(e - val);
	if (vl >= 6 && !strncasecmp(val, "dword:", 6)) {
		snprintf(v->type, sizeof v->type, "REG_DWORD");
		size_t hl;
		const char *h = wintext_trim(val + 6, e, &hl);
		set_number(v, h, hl, 16);
		if (v->is_number)
			snprintf(v->data, sizeof v->data, "%llu", v->number);
		else
			snprintf(v->data, sizeof v->data, "%.*s", (int)hl, h);
	} else if (vl && *val == '"') {
		snprintf(v->type, sizeof v->type, "REG_SZ");
		const char *de = e;
		if (de > val + 1 && de[-1] == '"')
			de--;
		snprintf(v->data, sizeof v->data, "%.*s", (int)(de - val - 1), val + 1);
	} else {
		const char *colon = memchr(val, ':', vl);
		snprintf(v->type, sizeof v->type, "%.*s", colon ? (int)(colon - val) : 0, val);
		snprintf(v->data, sizeof v->data, "%.*s", colon ? (int)(e - colon - 1) : (int)vl,
			 colon ? colon + 1 : val);
	}
}

size_t winreg_parse(const char *buf, size_t len, struct winreg *r)
{
	memset(r, 0, sizeof *r);
	struct strbuf t = STRBUF_INIT;
	wintext_decode(buf, len > (1u << 20) ? 1u << 20 : len, &t, NULL);
	const char *p = sb_str(&t), *end = p + t.len;
	char key[256] = "";
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		size_t n;
		const char *s = wintext_trim(p, e, &n);
		const char *se = s + n;
		if (n > 5 && !strncmp(s, "HKEY_", 5) && !memmem(s, n, " REG_", 5) &&
		    !memmem(s, n, "\tREG_", 5)) {
			snprintf(key, sizeof key, "%.*s", (int)n, s);
		} else if (n > 2 && *s == '[' && se[-1] == ']') {
			snprintf(key, sizeof key, "%.*s", (int)(n - 2), s + 1);
		} else if (n > 5 && (*s == '"' || *s == '@')) {
			export_line(r, key, s, se);
		} else if (n > 5) {
			query_line(r, key, s, se);
		}
		if (!r->key[0] && key[0])
			snprintf(r->key, sizeof r->key, "%s", key);
		p = nl ? nl + 1 : end;
	}
	sb_release(&t);
	return r->n;
}

const struct winreg_value *winreg_get(const struct winreg *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcasecmp(r->v[i].name, name))
			return &r->v[i];
	return NULL;
}
