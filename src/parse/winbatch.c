/* winbatch.c: the batched query's sections. See winbatch.h. */
#include "winbatch.h"

#include <stdio.h>
#include <string.h>

#include "wintext.h"

static bool name_ok(const char *s, size_t n)
{
	if (!n || n >= sizeof ((struct winbatch_section *)0)->name)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		      s[i] == '-'))
			return false;
	return true;
}

size_t winbatch_parse(const char *buf, size_t len, struct winbatch *b)
{
	memset(b, 0, sizeof *b);
	wintext_decode(buf, len, &b->text, NULL);
	const char *t = sb_str(&b->text), *p = t, *end = t + b->text.len;
	struct winbatch_section *open = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *next = nl ? nl + 1 : end;
		size_t bl = sizeof WINBATCH_BEGIN - 1, el = sizeof WINBATCH_END - 1;
		if ((size_t)(e - p) > bl && !memcmp(p, WINBATCH_BEGIN, bl)) {
			const char *nm = p + bl, *ne = nm;
			while (ne < e && *ne != ' ' && *ne != '\t')
				ne++;
			if (name_ok(nm, (size_t)(ne - nm)) && b->n < WINBATCH_MAX) {
				/* A begin inside an open section: that one was cut. */
				open = &b->s[b->n++];
				memset(open, 0, sizeof *open);
				snprintf(open->name, sizeof open->name, "%.*s", (int)(ne - nm), nm);
				open->status = WINBATCH_CUT;
				open->off = (size_t)(next - t);
				p = next;
				continue;
			}
		} else if (open && (size_t)(e - p) > el && !memcmp(p, WINBATCH_END, el)) {
			const char *nm = p + el, *ne = nm;
			while (ne < e && *ne != ' ')
				ne++;
			if ((size_t)(ne - nm) == strlen(open->name) && !memcmp(nm, open->name, (size_t)(ne - nm))) {
				const char *st = ne;
				while (st < e && *st == ' ')
					st++;
				size_t sl = (size_t)(e - st);
				while (sl && (st[sl - 1] == ' ' || st[sl - 1] == '\t'))
					sl--;
				if (sl == 2 && !memcmp(st, "ok", 2))
					open->status = WINBATCH_OK;
				else if (sl == 6 && !memcmp(st, "absent", 6))
					open->status = WINBATCH_ABSENT;
				else
					open->status = WINBATCH_ERROR;
				open->len = (size_t)(p - t) - open->off;
				open = NULL;
				p = next;
				continue;
			}
		}
		if (!open)
			b->outside += (size_t)(next - p);
		p = next;
	}
	if (open)
		open->len = b->text.len - open->off;
	/* A section cut by the next begin ends where that begin starts. */
	for (size_t i = 0; i + 1 < b->n; i++)
		if (b->s[i].status == WINBATCH_CUT) {
			size_t stop = b->s[i + 1].off;
			/* back over the begin line of the next section */
			size_t k = stop ? stop - 1 : 0;
			while (k > b->s[i].off && t[k - 1] != '\n')
				k--;
			b->s[i].len = k > b->s[i].off ? k - b->s[i].off : 0;
		}
	return b->n;
}

void winbatch_free(struct winbatch *b)
{
	sb_release(&b->text);
	memset(b, 0, sizeof *b);
}

const struct winbatch_section *winbatch_get(const struct winbatch *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->s[i].name, name))
			return &b->s[i];
	return NULL;
}

const char *winbatch_body(const struct winbatch *b, const struct winbatch_section *s, size_t *len)
{
	if (!s) {
		*len = 0;
		return "";
	}
	*len = s->len;
	return sb_str(&b->text) + s->off;
}

const char *winbatch_status_name(enum winbatch_status st)
{
	switch (st) {
	case WINBATCH_OK: return "ok";
	case WINBATCH_ABSENT: return "absent";
	case WINBATCH_ERROR: return "error";
	case WINBATCH_CUT: return "cut";
	}
	return "?";
}
