/* winevent.c: event-log records from XML and Event Viewer text. See winevent.h. */
#include "winevent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/strbuf.h"
#include "wintext.h"

static struct winevent *add(struct winevents *ev)
{
	if (ev->n == WINEVENT_MAX) {
		ev->more++;
		return NULL;
	}
	struct winevent *e = &ev->v[ev->n++];
	memset(e, 0, sizeof *e);
	e->id = -1;
	return e;
}

/* The value of attribute attr in the first <tag ...> of [s, e). */
static bool attr(const char *s, const char *e, const char *tag, const char *name, char *out,
		 size_t cap)
{
	size_t tl = strlen(tag), nl = strlen(name);
	for (const char *p = s; p + tl + 1 < e; p++) {
		if (*p != '<' || strncmp(p + 1, tag, tl) || (p[tl + 1] != ' ' && p[tl + 1] != '/' &&
							     p[tl + 1] != '>'))
			continue;
		const char *gt = memchr(p, '>', (size_t)(e - p));
		if (!gt)
			return false;
		for (const char *q = p + tl + 1; q + nl + 2 < gt; q++) {
			if (strncmp(q, name, nl) || q[nl] != '=' || (q[-1] != ' ' && q[-1] != '\t' &&
								     q[-1] != '\n'))
				continue;
			char quote = q[nl + 1];
			if (quote != '"' && quote != '\'')
				return false;
			const char *v = q + nl + 2;
			const char *ve = memchr(v, quote, (size_t)(gt - v));
			if (!ve)
				return false;
			snprintf(out, cap, "%.*s", (int)(ve - v), v);
			return true;
		}
		return false;
	}
	return false;
}

/* The text of the first <tag ...>text</tag> in [s, e). */
static bool element(const char *s, const char *e, const char *tag, char *out, size_t cap)
{
	size_t tl = strlen(tag);
	for (const char *p = s; p + tl + 1 < e; p++) {
		if (*p != '<' || strncmp(p + 1, tag, tl) || (p[tl + 1] != ' ' && p[tl + 1] != '>'))
			continue;
		const char *gt = memchr(p, '>', (size_t)(e - p));
		if (!gt || gt[-1] == '/')
			return false;
		const char *lt = memchr(gt + 1, '<', (size_t)(e - gt - 1));
		if (!lt)
			return false;
		snprintf(out, cap, "%.*s", (int)(lt - gt - 1), gt + 1);
		return true;
	}
	return false;
}

/* "2023-02-09T15:15:31.3464479Z" -> epoch seconds (UTC), 0 if malformed. */
static time_t iso_utc(const char *s)
{
	int y, mo, d, h, mi, sec;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &sec) != 6 || y < 1970 ||
	    mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return 0;
	/* Days from the civil date (Howard Hinnant's algorithm): no timegm,
	 * no time zone. */
	y -= mo <= 2;
	long era = y / 400;
	long yoe = y - era * 400;
	long doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	long days = era * 146097 + doe - 719468;
	return (time_t)(days * 86400L + h * 3600L + mi * 60L + sec);
}

static void xml_event(struct winevents *ev, const char *s, const char *e)
{
	struct winevent *x = add(ev);
	if (!x)
		return;
	char tmp[64];
	attr(s, e, "Provider", "Name", x->provider, sizeof x->provider);
	if (element(s, e, "EventID", tmp, sizeof tmp))
		x->id = strtol(tmp, NULL, 10);
	if (element(s, e, "Level", tmp, sizeof tmp))
		x->level = (int)strtol(tmp, NULL, 10);
	char iso[48] = "";
	if (attr(s, e, "TimeCreated", "SystemTime", iso, sizeof iso)) {
		x->when = iso_utc(iso);
		snprintf(x->time, sizeof x->time, "%.19s%s", iso, strchr(iso, 'Z') ? "Z" : "");
	}
	const char *data = strstr(s, "<EventData");
	if (data && data < e) {
		element(data, e, "Data", x->driver, sizeof x->driver);
		/* Windows Update's events name their update in updateTitle. */
		const char *ut = strstr(data, "Name=\"updateTitle\"");
		if (!ut || ut > e)
			ut = strstr(data, "Name='updateTitle'");
		if (ut && ut < e) {
			const char *gt = memchr(ut, '>', (size_t)(e - ut));
			const char *lt = gt ? memchr(gt, '<', (size_t)(e - gt)) : NULL;
			if (lt)
				snprintf(x->title, sizeof x->title, "%.*s", (int)(lt - gt - 1), gt + 1);
		}
	}
}

/* Copies s into out (cap bytes), cut if needed. */
static void copy(char *out, size_t cap, const char *s)
{
	size_t n = strlen(s);
	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* "4/21/2024 18:11" -> "2024-04-21 18:11" when the day cannot be the month. */
static void table_time(const char *s, size_t n, char *out, size_t cap)
{
	int a, b, y, h = -1, mi = -1;
	char tmp[48], res[64];
	snprintf(tmp, sizeof tmp, "%.*s", (int)(n < sizeof tmp ? n : sizeof tmp - 1), s);
	if (sscanf(tmp, "%d/%d/%d %d:%d", &a, &b, &y, &h, &mi) >= 3 && y > 1970 && y < 10000) {
		int mo = -1, d = -1;
		if (a > 12 && b <= 12)
			d = a, mo = b;
		else if (b > 12 && a <= 12)
			mo = a, d = b;
		if (mo > 0 && d > 0 && d <= 31) {
			if (h >= 0 && h < 24 && mi >= 0 && mi < 60)
				snprintf(res, sizeof res, "%04d-%02d-%02d %02d:%02d", y, mo, d, h, mi);
			else
				snprintf(res, sizeof res, "%04d-%02d-%02d", y, mo, d);
			copy(out, cap, res);
			return;
		}
	}
	copy(out, cap, tmp);
}

static void text_line(struct winevents *ev, const char *s, const char *e)
{
	static const char desc[] = "The description for Event ID ";
	static const char disp[] = "Display driver ";
	static const char disp_end[] = " stopped responding and has successfully recovered";
	const char *p;
	if ((p = memmem(s, (size_t)(e - s), desc, sizeof desc - 1))) {
		p += sizeof desc - 1;
		const char *end = p;
		long id = 0;
		while (end < e && *end >= '0' && *end <= '9' && id < 1000000)
			id = id * 10 + (*end++ - '0'); /* within the line, unlike strtol */
		const char *src = memmem(end, (size_t)(e - end), " from source ", 13);
		if (end == p || !src)
			return;
		src += 13;
		const char *se = src;
		while (se < e && *se != ' ' && *se != '.')
			se++;
		struct winevent *x = add(ev);
		if (x) {
			x->id = id;
			snprintf(x->provider, sizeof x->provider, "%.*s", (int)(se - src), src);
		}
		return;
	}
	if ((p = memmem(s, (size_t)(e - s), disp, sizeof disp - 1))) {
		const char *q = memmem(p, (size_t)(e - p), disp_end, sizeof disp_end - 1);
		if (!q)
			return;
		const char *d = p + sizeof disp - 1;
		struct winevent *x = add(ev);
		if (x) {
			x->id = 4101; /* this message is Display's event 4101 */
			snprintf(x->provider, sizeof x->provider, "Display");
			snprintf(x->driver, sizeof x->driver, "%.*s", (int)(q - d), d);
		}
		return;
	}
	/* An Event Viewer row: Level | Date and Time | Source | Event ID | Task | ... */
	const char *cell[6];
	size_t cl[6], k = 0;
	for (const char *c = s; k < 6 && c <= e;) {
		const char *bar = memchr(c, '|', (size_t)(e - c));
		const char *ce = bar ? bar : e;
		cell[k] = wintext_trim(c, ce, &cl[k]);
		k++;
		if (!bar)
			break;
		c = bar + 1;
	}
	if (k < 5 || !cl[3] || cl[3] > 6)
		return;
	for (size_t i = 0; i < cl[3]; i++)
		if (cell[3][i] < '0' || cell[3][i] > '9')
			return;
	struct winevent *x = add(ev);
	if (!x)
		return;
	x->id = strtol(cell[3], NULL, 10);
	snprintf(x->provider, sizeof x->provider, "%.*s", (int)cl[2], cell[2]);
	table_time(cell[1], cl[1], x->time, sizeof x->time);
}

/* The next "<Event " or "<Event>" (not <Events>, <EventID>, <EventData>...). */
static const char *next_event(const char *s)
{
	while ((s = strstr(s, "<Event")) && s[6] != ' ' && s[6] != '>')
		s++;
	return s;
}

size_t winevent_parse(const char *buf, size_t len, struct winevents *ev)
{
	memset(ev, 0, sizeof *ev);
	struct strbuf t = STRBUF_INIT;
	wintext_decode(buf, len > (16u << 20) ? 16u << 20 : len, &t, NULL);
	const char *p = sb_str(&t), *end = p + t.len;
	const char *first = next_event(p);
	if (first) {
		for (const char *s = first; s;) {
			const char *close = strstr(s, "</Event>");
			const char *e = close ? close : end;
			xml_event(ev, s, e);
			if (!close)
				break;
			s = next_event(close + 8);
		}
	} else {
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *e = nl ? nl : end;
			text_line(ev, p, e);
			p = nl ? nl + 1 : end;
		}
	}
	sb_release(&t);
	return ev->n;
}

bool winevent_is_reset(const struct winevent *e)
{
	return e->id == 4101 && !strcasecmp(e->provider, "Display");
}

bool winevent_is_nvidia(const struct winevent *e)
{
	return !strcasecmp(e->provider, "nvlddmkm");
}
