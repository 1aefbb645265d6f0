/* winwslver.c: `wsl.exe --version` in any language. See winwslver.h. */
#include "winwslver.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../core/strbuf.h"
#include "wintext.h"

enum field { F_NONE, F_WSL, F_KERNEL, F_WSLG, F_MSRDC, F_D3D, F_DXCORE, F_WINDOWS };

static bool has_word(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w);
	for (size_t i = 0; i + wl <= n; i++)
		if (!strncasecmp(s + i, w, wl))
			return true;
	return false;
}

/* "WSL" but not as the start of "WSLg". */
static bool has_wsl(const char *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if (!strncasecmp(s + i, "WSL", 3) && (i + 3 == n || (s[i + 3] != 'g' && s[i + 3] != 'G')))
			return true;
	return false;
}

static enum field classify(const char *label, size_t n, enum field prev)
{
	if (has_word(label, n, "WSLg"))
		return F_WSLG;
	if (has_word(label, n, "MSRDC"))
		return F_MSRDC;
	if (has_word(label, n, "Direct3D"))
		return F_D3D;
	if (has_word(label, n, "DXCore"))
		return F_DXCORE;
	if (has_wsl(label, n))
		return F_WSL;
	if (has_word(label, n, "Windows"))
		return F_WINDOWS;
	/* The one label without a product name follows WSL's: the kernel. */
	return prev == F_WSL ? F_KERNEL : F_NONE;
}

static char *slot(struct winwslver *v, enum field f, size_t *cap)
{
	switch (f) {
	case F_WSL: *cap = sizeof v->wsl; return v->wsl;
	case F_KERNEL: *cap = sizeof v->kernel; return v->kernel;
	case F_WSLG: *cap = sizeof v->wslg; return v->wslg;
	case F_MSRDC: *cap = sizeof v->msrdc; return v->msrdc;
	case F_D3D: *cap = sizeof v->direct3d; return v->direct3d;
	case F_DXCORE: *cap = sizeof v->dxcore; return v->dxcore;
	case F_WINDOWS: *cap = sizeof v->windows; return v->windows;
	default: *cap = 0; return NULL;
	}
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f';
}

int winwslver_parse(const char *buf, size_t len, struct winwslver *v)
{
	memset(v, 0, sizeof *v);
	struct strbuf t = STRBUF_INIT;
	/* The real output is seven short lines; a megabyte says nothing more. */
	wintext_decode(buf, len > (1u << 20) ? 1u << 20 : len, &t, NULL);
	const char *s = sb_str(&t);
	size_t n = t.len, from = 0;
	enum field prev = F_NONE;
	for (size_t i = 0; i < n; i++) {
		size_t seplen = 0;
		if (s[i] == ':')
			seplen = 1;
		else if (i + 2 < n && (unsigned char)s[i] == 0xef && (unsigned char)s[i + 1] == 0xbc &&
			 (unsigned char)s[i + 2] == 0x9a)
			seplen = 3; /* U+FF1A, the full-width colon */
		if (!seplen)
			continue;
		/* The label: from the end of the previous value (or the line's
		 * start, whichever is later) to the colon. */
		size_t ls = from;
		for (size_t k = i; k > from; k--)
			if (s[k - 1] == '\n') {
				ls = k;
				break;
			}
		size_t le = i;
		while (le > ls && is_space(s[le - 1]))
			le--;
		while (ls < le && is_space(s[ls]))
			ls++;
		/* The value: the next word, which must start with a digit. */
		size_t vs = i + seplen;
		while (vs < n && (s[vs] == ' ' || s[vs] == '\t'))
			vs++;
		size_t ve = vs;
		while (ve < n && !is_space(s[ve]))
			ve++;
		i = vs > i ? vs - 1 : i;
		if (vs >= n || s[vs] < '0' || s[vs] > '9' || le - ls > 80) {
			continue;
		}
		enum field f = classify(s + ls, le - ls, prev);
		size_t cap;
		char *dst = slot(v, f, &cap);
		if (dst && !dst[0]) {
			snprintf(dst, cap, "%.*s", (int)(ve - vs), s + vs);
			v->fields++;
		}
		prev = f;
		from = ve;
		i = ve > 0 ? ve - 1 : 0;
	}
	sb_release(&t);
	return v->fields;
}
