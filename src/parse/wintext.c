/* wintext.c: Windows command output and files as UTF-8 with LF. See wintext.h. */
#include "wintext.h"

#include <string.h>

bool wintext_sniff_utf16(const unsigned char *b, size_t len, bool *bom, bool *be)
{
	bool bom_ = false, be_ = false, yes = false;
	if (len >= 2 && b[0] == 0xff && b[1] == 0xfe) {
		bom_ = yes = true;
	} else if (len >= 2 && b[0] == 0xfe && b[1] == 0xff) {
		bom_ = be_ = yes = true;
	} else {
		/* No BOM: ASCII text in UTF-16 has a NUL in every other byte. */
		size_t even = 0, odd = 0, pairs = len / 2;
		for (size_t i = 0; i + 1 < len; i += 2) {
			even += b[i] == 0;
			odd += b[i + 1] == 0;
		}
		if (pairs >= 2 && odd * 10 >= pairs * 9 && even * 10 < pairs)
			yes = true;
		else if (pairs >= 2 && even * 10 >= pairs * 9 && odd * 10 < pairs)
			yes = be_ = true;
	}
	if (bom)
		*bom = bom_;
	if (be)
		*be = be_;
	return yes;
}

int wintext_utf16_start(const unsigned char *b, size_t len, bool *bom, bool *be)
{
	if (!wintext_sniff_utf16(b, len, bom, be))
		return -1;
	if (*bom)
		return 2;
	if (*be) {
		*be = false;
		return 1;
	}
	return 0;
}

static void put_utf8(struct strbuf *out, unsigned cp)
{
	if (cp < 0x80) {
		sb_addc(out, (char)cp);
	} else if (cp < 0x800) {
		sb_addc(out, (char)(0xc0 | cp >> 6));
		sb_addc(out, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		sb_addc(out, (char)(0xe0 | cp >> 12));
		sb_addc(out, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sb_addc(out, (char)(0x80 | (cp & 0x3f)));
	} else {
		sb_addc(out, (char)(0xf0 | cp >> 18));
		sb_addc(out, (char)(0x80 | ((cp >> 12) & 0x3f)));
		sb_addc(out, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sb_addc(out, (char)(0x80 | (cp & 0x3f)));
	}
}

size_t wintext_utf16_to_utf8(const unsigned char *b, size_t len, bool be, struct strbuf *out)
{
	size_t bad = 0;
	for (size_t i = 0; i + 1 < len; i += 2) {
		unsigned u = be ? (unsigned)b[i] << 8 | b[i + 1] : (unsigned)b[i + 1] << 8 | b[i];
		unsigned cp = u;
		if (u >= 0xd800 && u <= 0xdbff && i + 3 < len) {
			unsigned lo = be ? (unsigned)b[i + 2] << 8 | b[i + 3]
					 : (unsigned)b[i + 3] << 8 | b[i + 2];
			if (lo >= 0xdc00 && lo <= 0xdfff) {
				cp = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				i += 2;
			} else {
				cp = '?';
				bad++;
			}
		} else if (u >= 0xd800 && u <= 0xdfff) {
			cp = '?';
			bad++;
		}
		if (cp)
			put_utf8(out, cp);
	}
	return bad;
}

void wintext_decode(const char *buf, size_t len, struct strbuf *out, struct wintext *info)
{
	struct wintext w;
	memset(&w, 0, sizeof w);
	const unsigned char *b = (const unsigned char *)(buf ? buf : "");
	if (!buf)
		len = 0;
	struct strbuf mid = STRBUF_INIT;
	bool bom, be;
	int skip = wintext_utf16_start(b, len, &bom, &be);
	if (skip >= 0) {
		w.bom = bom;
		w.shifted = !bom && skip == 1;
		w.enc = be ? WINTEXT_UTF16BE : WINTEXT_UTF16LE;
		w.bad = wintext_utf16_to_utf8(b + skip, len - skip, be, &mid);
		b = (const unsigned char *)mid.buf;
		len = mid.len;
		if (!b)
			b = (const unsigned char *)"";
	} else if (len >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) {
		w.bom = true;
		b += 3;
		len -= 3;
	}
	sb_grow(out, len);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = b[i];
		if (c == 0) {
			w.nul = true;
			continue;
		}
		if (c != '\r') {
			sb_addc(out, (char)c);
			continue;
		}
		/* CR LF, CR CR LF (wsl.exe's help), or a lone CR: one line end.
		 * NULs between them (UTF-16 read as bytes) do not count. */
		size_t j = i + 1;
		while (j < len && (b[j] == '\r' || b[j] == 0))
			j++;
		if (j < len && b[j] == '\n') {
			w.crlf = true;
			i = j;
		}
		sb_addc(out, '\n');
	}
	sb_release(&mid);
	if (info)
		*info = w;
}

const char *wintext_trim(const char *s, const char *e, size_t *n)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*n = (size_t)(e - s);
	return s;
}
