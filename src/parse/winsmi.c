/* winsmi.c: nvidia-smi's CSV and -q details. See winsmi.h. */
#include "winsmi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "wintext.h"

/* Splits one line at commas into at most WINSMI_MAX_COLS trimmed cells. */
static size_t cells(const char *s, const char *e, const char *c[], size_t cl[])
{
	size_t k = 0;
	while (k < WINSMI_MAX_COLS) {
		const char *comma = memchr(s, ',', (size_t)(e - s));
		const char *ce = comma ? comma : e;
		c[k] = wintext_trim(s, ce, &cl[k]);
		k++;
		if (!comma)
			break;
		s = comma + 1;
	}
	return k;
}

/* A query field name: lower case letters, digits, '.' and '_', with a letter. */
static bool field_name(const char *s, size_t n)
{
	if (!n)
		return false;
	bool letter = false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] >= 'a' && s[i] <= 'z')
			letter = true;
		else if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == '_'))
			return false;
	}
	return letter; /* a row of numbers is no header */
}

int winsmi_csv_parse(const char *buf, size_t len, struct winsmi_csv *c)
{
	memset(c, 0, sizeof *c);
	struct strbuf t = STRBUF_INIT;
	wintext_decode(buf, len > (1u << 20) ? 1u << 20 : len, &t, NULL);
	const char *p = sb_str(&t), *end = p + t.len;
	bool header = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *cv[WINSMI_MAX_COLS];
		size_t cl[WINSMI_MAX_COLS];
		size_t k = cells(p, e, cv, cl);
		if (!header) {
			/* The header: every cell a field name, maybe "[unit]"ed. */
			size_t ok = 0;
			for (size_t i = 0; i < k; i++) {
				size_t fl = cl[i];
				const char *br = memchr(cv[i], '[', cl[i]);
				if (br)
					fl = (size_t)(br - cv[i]);
				while (fl && cv[i][fl - 1] == ' ')
					fl--;
				if (!field_name(cv[i], fl))
					break;
				ok++;
				snprintf(c->col[i], sizeof c->col[i], "%.*s", (int)fl, cv[i]);
			}
			if (ok == k && k && (k > 1 || cl[0] > 0)) {
				header = true;
				c->ncols = k;
			} else {
				memset(c->col, 0, sizeof c->col);
			}
		} else if (cl[0] || k > 1) {
			if (k == c->ncols && c->nrows < WINSMI_MAX_ROWS) {
				for (size_t i = 0; i < k; i++)
					snprintf(c->val[c->nrows][i], sizeof c->val[0][0], "%.*s", (int)cl[i],
						 cv[i]);
				c->nrows++;
			}
		}
		p = nl ? nl + 1 : end;
	}
	sb_release(&t);
	return header ? (int)c->nrows : -1;
}

const char *winsmi_csv_get(const struct winsmi_csv *c, size_t row, const char *field)
{
	if (row >= c->nrows)
		return "";
	for (size_t i = 0; i < c->ncols; i++)
		if (!strcmp(c->col[i], field))
			return c->val[row][i];
	return "";
}

/* "GPU 00000000:01:00.0" (a -q block header) */
static bool gpu_header(const char *s, size_t n)
{
	if (n < 12 || strncmp(s, "GPU ", 4))
		return false;
	for (size_t i = 4; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F') || s[i] == ':' || s[i] == '.'))
			return false;
	return true;
}

void winsmi_q_parse(const char *buf, size_t len, struct winsmi_q *q)
{
	memset(q, 0, sizeof *q);
	struct strbuf t = STRBUF_INIT;
	wintext_decode(buf, len > (1u << 20) ? 1u << 20 : len, &t, NULL);
	const char *p = sb_str(&t), *end = p + t.len;
	struct winsmi_gpu *g = &q->loose;
	char section[48] = "";
	size_t section_indent = 0;
	int limit_rank = 0; /* what filled power_limit: 3 enforced, 2 current, 1 plain */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		size_t indent = 0;
		while (p + indent < e && p[indent] == ' ')
			indent++;
		size_t n;
		const char *s = wintext_trim(p, e, &n);
		const char *colon = memchr(s, ':', n);
		if (gpu_header(s, n) && indent == 0) {
			if (q->ngpus < WINSMI_MAX_GPUS) {
				g = &q->gpu[q->ngpus++];
				memset(g, 0, sizeof *g);
			} else {
				g = NULL;
			}
			section[0] = '\0';
			limit_rank = 0;
		} else if (n && !colon) {
			snprintf(section, sizeof section, "%.*s", (int)n, s);
			section_indent = indent;
		} else if (colon && g) {
			size_t kl, vl;
			const char *k = wintext_trim(s, colon, &kl);
			const char *v = wintext_trim(colon + 1, s + n, &vl);
			if (indent <= section_indent)
				section[0] = '\0';
			char key[64];
			snprintf(key, sizeof key, "%.*s", (int)kl, k);
			char *dst = NULL;
			size_t cap = 0;
			int rank = 0;
			if (!strcmp(key, "Product Name")) {
				dst = g->name, cap = sizeof g->name;
			} else if (!strcmp(key, "Current") && !strcmp(section, "Driver Model")) {
				dst = g->model, cap = sizeof g->model;
			} else if (!strcmp(key, "Performance State")) {
				dst = g->pstate, cap = sizeof g->pstate;
			} else if (!strcmp(key, "Power Draw") || !strcmp(key, "Instantaneous Power Draw")) {
				if (!g->power_draw[0])
					dst = g->power_draw, cap = sizeof g->power_draw;
			} else if (!strcmp(key, "Enforced Power Limit")) {
				rank = 3;
			} else if (!strcmp(key, "Current Power Limit")) {
				rank = 2;
			} else if (!strcmp(key, "Power Limit")) {
				rank = 1;
			} else if (!strcmp(section, "FB Memory Usage") && !strcmp(key, "Total")) {
				dst = g->mem_total, cap = sizeof g->mem_total;
			} else if (!strcmp(section, "FB Memory Usage") && !strcmp(key, "Used")) {
				dst = g->mem_used, cap = sizeof g->mem_used;
			}
			if (rank > limit_rank && !(vl == 3 && !memcmp(v, "N/A", 3))) {
				limit_rank = rank;
				dst = g->power_limit, cap = sizeof g->power_limit;
			}
			if (dst)
				snprintf(dst, cap, "%.*s", (int)vl, v);
		}
		p = nl ? nl + 1 : end;
	}
	sb_release(&t);
}

long long winsmi_mib(const char *s)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	char *end;
	double v = strtod(s, &end);
	while (*end == ' ')
		end++;
	if (*end && strncmp(end, "MiB", 3))
		return -1;
	return (long long)(v * 1048576.0);
}
