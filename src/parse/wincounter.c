/* wincounter.c: Get-Counter and typeperf output. See wincounter.h. */
#include "wincounter.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/strbuf.h"
#include "wintext.h"

int wincounter_split_path(const char *s, size_t n, struct wincounter_sample *out)
{
	/* "\\HOST\object(instance)\counter", or "\object(instance)\counter" */
	if (n < 4 || s[0] != '\\')
		return -1;
	const char *p = s, *e = s + n;
	if (p[1] == '\\') {
		p += 2;
		const char *bs = memchr(p, '\\', (size_t)(e - p));
		if (!bs)
			return -1;
		p = bs;
	}
	p++; /* past the '\' before the object */
	const char *last = NULL;
	for (const char *q = p; q < e; q++)
		if (*q == '\\')
			last = q;
	if (!last || last == p || last + 1 >= e)
		return -1;
	const char *oe = last;
	const char *inst = NULL, *inst_e = NULL;
	if (oe[-1] == ')') {
		int depth = 0;
		for (const char *q = oe - 1; q >= p; q--) {
			if (*q == ')')
				depth++;
			else if (*q == '(' && --depth == 0) {
				inst = q + 1;
				inst_e = oe - 1;
				oe = q;
				break;
			}
		}
	}
	snprintf(out->path, sizeof out->path, "%.*s", (int)n, s);
	snprintf(out->object, sizeof out->object, "%.*s", (int)(oe - p), p);
	if (inst)
		snprintf(out->instance, sizeof out->instance, "%.*s", (int)(inst_e - inst), inst);
	else
		out->instance[0] = '\0';
	snprintf(out->counter, sizeof out->counter, "%.*s", (int)(e - last - 1), last + 1);
	return 0;
}

/* A number as Get-Counter or typeperf prints it: 12, 0.5, 0,5, 1.2E-05. */
static bool number(const char *s, size_t n, double *v)
{
	char tmp[64];
	if (!n || n >= sizeof tmp)
		return false;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	char *comma = strchr(tmp, ',');
	if (comma && !strchr(tmp, '.'))
		*comma = '.';
	char *end;
	double d = strtod(tmp, &end);
	if (end == tmp || *end)
		return false;
	*v = d;
	return true;
}

static struct wincounter_sample *add(struct wincounters *c)
{
	if (c->n == WINCOUNTER_MAX) {
		c->more++;
		return NULL;
	}
	if ((c->n & (c->n - 1)) == 0) /* 0, 1, 2, 4, ...: double */
		c->v = xrealloc(c->v, (c->n ? c->n * 2 : 1) * sizeof *c->v);
	struct wincounter_sample *s = &c->v[c->n++];
	memset(s, 0, sizeof *s);
	return s;
}

/* Splits a CSV line of quoted fields ("a","b"); returns the count. */
static size_t csv_fields(const char *s, const char *e, const char **f, size_t *fl, size_t max)
{
	size_t k = 0;
	while (s < e && k < max) {
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (s >= e)
			break;
		if (*s == '"') {
			const char *q = memchr(s + 1, '"', (size_t)(e - s - 1));
			if (!q)
				q = e;
			f[k] = s + 1;
			fl[k++] = (size_t)(q - s - 1);
			s = q < e ? q + 1 : e;
		} else {
			const char *comma = memchr(s, ',', (size_t)(e - s));
			const char *fe = comma ? comma : e;
			f[k] = wintext_trim(s, fe, &fl[k]);
			k++;
			s = fe;
		}
		while (s < e && *s != ',')
			s++;
		if (s < e)
			s++;
	}
	return k;
}

static void parse_typeperf(struct wincounters *c, const char *hdr, const char *hdr_e,
			   const char *rows, const char *end)
{
	enum { MAXF = 1024 };
	const char **hf = xcalloc(MAXF, sizeof *hf), **rf = xcalloc(MAXF, sizeof *rf);
	size_t *hl = xcalloc(MAXF, sizeof *hl), *rl = xcalloc(MAXF, sizeof *rl);
	size_t nh = csv_fields(hdr, hdr_e, hf, hl, MAXF);
	/* The last row whose first field is a timestamp holds the sample. */
	for (const char *p = rows; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		size_t ln;
		const char *s = wintext_trim(p, e, &ln);
		if (ln > 2 && *s == '"' && s[1] >= '0' && s[1] <= '9') {
			if (csv_fields(s, s + ln, rf, rl, MAXF) != nh)
				goto next;
			for (size_t i = 1; i < nh; i++) {
				struct wincounter_sample tmp;
				memset(&tmp, 0, sizeof tmp);
				if (wincounter_split_path(hf[i], hl[i], &tmp) < 0)
					continue;
				/* A counter seen again (a later row) is updated in place. */
				struct wincounter_sample *smp = NULL;
				for (size_t j = 0; j < c->n && !smp; j++)
					if (!strcmp(c->v[j].path, tmp.path))
						smp = &c->v[j];
				if (!smp && !(smp = add(c)))
					continue;
				*smp = tmp;
				size_t vl;
				const char *v = wintext_trim(rf[i], rf[i] + rl[i], &vl);
				smp->have_value = number(v, vl, &smp->value);
			}
		}
next:
		p = nl ? nl + 1 : end;
	}
	free(hf);
	free(rf);
	free(hl);
	free(rl);
}

size_t wincounter_parse(const char *buf, size_t len, struct wincounters *c)
{
	memset(c, 0, sizeof *c);
	struct strbuf t = STRBUF_INIT;
	wintext_decode(buf, len > (16u << 20) ? 16u << 20 : len, &t, NULL);
	const char *p = sb_str(&t), *end = p + t.len;
	size_t col_inst = 0; /* the InstanceName column of a CounterSamples table */
	struct wincounter_sample *pending = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		size_t ln;
		const char *s = wintext_trim(p, e, &ln);
		const char *pdh = ln > 16 ? strstr(s, "(PDH-CSV") : NULL;
		if (pdh && pdh < s + ln && *s == '"') {
			parse_typeperf(c, s, s + ln, nl ? nl + 1 : end, end);
			break;
		}
		if (pending && ln) {
			/* Get-Counter: the value on the line after its path. */
			pending->have_value = number(s, ln, &pending->value);
			pending = NULL;
			goto next;
		}
		if (ln >= 4 && !strncmp(s, "Path", 4) && strstr(s, "CookedValue") && s + ln <= e) {
			const char *ic = strstr(s, "InstanceName");
			col_inst = ic && ic < s + ln ? (size_t)(ic - p) : 0;
			goto next;
		}
		const char *bs = memmem(s, ln, "\\\\", 2);
		if (!bs)
			goto next;
		if (ln >= 2 && s[ln - 1] == ':' && s[ln - 2] == ' ') {
			/* "...\\host\object(inst)\counter :" */
			size_t pl;
			const char *path = wintext_trim(bs, s + ln - 1, &pl);
			struct wincounter_sample tmp;
			memset(&tmp, 0, sizeof tmp);
			if (wincounter_split_path(path, pl, &tmp) == 0 && (pending = add(c)))
				*pending = tmp;
		} else if (col_inst && (size_t)(bs - p) < col_inst && p + col_inst < e) {
			/* A CounterSamples row: path, instance, value (last word). */
			size_t pl;
			const char *path = wintext_trim(bs, p + col_inst, &pl);
			const char *ve = s + ln, *vs = ve;
			while (vs > s && vs[-1] != ' ' && vs[-1] != '\t')
				vs--;
			struct wincounter_sample tmp;
			memset(&tmp, 0, sizeof tmp);
			struct wincounter_sample *smp;
			if (wincounter_split_path(path, pl, &tmp) == 0 && (smp = add(c))) {
				*smp = tmp;
				smp->have_value = number(vs, (size_t)(ve - vs), &smp->value);
			}
		}
next:
		p = nl ? nl + 1 : end;
	}
	sb_release(&t);
	return c->n;
}

void wincounter_free(struct wincounters *c)
{
	free(c->v);
	memset(c, 0, sizeof *c);
}

int wincounter_gpu_instance(const char *inst, struct wingpu_instance *g)
{
	memset(g, 0, sizeof *g);
	g->pid = g->phys = g->eng = -1;
	const char *s = inst;
	bool any = false;
	while (s && *s) {
		if (!strncasecmp(s, "pid_", 4)) {
			g->pid = strtol(s + 4, NULL, 10);
			any = true;
		} else if (!strncasecmp(s, "luid_", 5)) {
			const char *a = s + 5;
			const char *u = strchr(a, '_');
			const char *b = u ? u + 1 : NULL;
			size_t al = u ? (size_t)(u - a) : strlen(a);
			size_t bl = 0;
			if (b && !strncasecmp(b, "0x", 2))
				while (b[bl] && b[bl] != '_')
					bl++;
			snprintf(g->luid, sizeof g->luid, "%.*s%s%.*s", (int)al, a, bl ? "_" : "",
				 (int)bl, b ? b : "");
			for (char *q = g->luid; *q; q++)
				*q = (char)tolower((unsigned char)*q);
			any = true;
		} else if (!strncasecmp(s, "phys_", 5)) {
			g->phys = strtol(s + 5, NULL, 10);
		} else if (!strncasecmp(s, "eng_", 4)) {
			g->eng = strtol(s + 4, NULL, 10);
		} else if (!strncasecmp(s, "engtype_", 8)) {
			snprintf(g->engtype, sizeof g->engtype, "%s", s + 8);
			break; /* the rest is the type itself ("engtype_Video Codec") */
		}
		s = strchr(s, '_');
		if (s)
			s++;
	}
	return any ? 0 : -1;
}
