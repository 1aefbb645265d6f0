/* winver.c: `ver`'s version number. See winver.h. */
#include "winver.h"

#include <stdio.h>
#include <string.h>

#include "../core/strbuf.h"
#include "wintext.h"

/* Reads "a.b.c[.d]" at s (digits only); returns its length, 0 if none. */
static size_t dotted(const char *s, size_t n, long part[4], int *nparts)
{
	size_t i = 0;
	int k = 0;
	while (k < 4) {
		size_t st = i;
		long val = 0;
		while (i < n && s[i] >= '0' && s[i] <= '9' && i - st < 9)
			val = val * 10 + (s[i++] - '0');
		if (i == st)
			break;
		part[k++] = val;
		if (i + 1 < n && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9')
			i++;
		else
			break;
	}
	*nparts = k;
	return k >= 3 ? i : 0;
}

int winver_parse(const char *buf, size_t len, struct winver *w)
{
	memset(w, 0, sizeof *w);
	w->build = w->revision = -1;
	struct strbuf t = STRBUF_INIT;
	wintext_decode(buf, len > (64u << 10) ? 64u << 10 : len, &t, NULL);
	const char *s = sb_str(&t);
	int rc = -1;
	for (const char *open = strchr(s, '['); open && rc; open = strchr(open + 1, '[')) {
		const char *close = strchr(open, ']');
		if (!close)
			break;
		for (const char *p = open + 1; p < close; p++) {
			if (*p < '0' || *p > '9' || (p > open + 1 && p[-1] >= '0' && p[-1] <= '9'))
				continue;
			long part[4];
			int np;
			size_t l = dotted(p, (size_t)(close - p), part, &np);
			if (!l)
				continue;
			snprintf(w->version, sizeof w->version, "%.*s", (int)l, p);
			w->build = part[2];
			w->revision = np == 4 ? part[3] : -1;
			rc = 0;
			break;
		}
	}
	sb_release(&t);
	return rc;
}

int winver_from_build(long build, long ubr, struct winver *w)
{
	memset(w, 0, sizeof *w);
	w->build = w->revision = -1;
	if (build <= 0 || build > 9999999 || ubr > 9999999)
		return -1;
	w->build = build;
	w->revision = ubr >= 0 ? ubr : -1;
	char tmp[64];
	if (ubr >= 0)
		snprintf(tmp, sizeof tmp, "10.0.%ld.%ld", build, ubr);
	else
		snprintf(tmp, sizeof tmp, "10.0.%ld", build);
	snprintf(w->version, sizeof w->version, "%.31s", tmp);
	return 0;
}
