/* json.c: JSON string escaping and terminal-safe text. See json.h. */
#include "json.h"

#include <string.h>

int utf8_seq_len(const unsigned char *s, size_t avail)
{
	unsigned c = s[0];
	int n;
	unsigned min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) { n = 2; min = 0x80; }
	else if (c >= 0xe0 && c <= 0xef) { n = 3; min = 0x800; }
	else if (c >= 0xf0 && c <= 0xf4) { n = 4; min = 0x10000; }
	else return 0;
	if ((size_t)n > avail)
		return 0;
	unsigned cp = c & (0x3f >> (n - 1));
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void json_str(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	sb_addc(sb, '"');
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		if (c == '"' || c == '\\') {
			sb_addc(sb, '\\');
			sb_addc(sb, (char)c);
			i++;
		} else if (c == '\n') {
			sb_add(sb, "\\n"); i++;
		} else if (c == '\t') {
			sb_add(sb, "\\t"); i++;
		} else if (c == '\r') {
			sb_add(sb, "\\r"); i++;
		} else if (c < 0x20 || c == 0x7f) {
			sb_addf(sb, "\\u%04x", c); i++;
		} else if (c < 0x80) {
			sb_addc(sb, (char)c); i++;
		} else {
			int n = utf8_seq_len(p + i, len - i);
			if (n == 0) {
				sb_add(sb, "\\ufffd");
				i++;
			} else {
				sb_addn(sb, p + i, (size_t)n);
				i += (size_t)n;
			}
		}
	}
	sb_addc(sb, '"');
}

void text_sanitize(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
			sb_addc(sb, (char)c);
			i++;
		} else if (c < 0x80) {
			i++; /* escape sequences and other controls */
		} else {
			int n = utf8_seq_len(p + i, len - i);
			/* C1 controls (U+0080..U+009F) are terminal escapes too. */
			if (n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) {
				sb_addc(sb, '?');
				i += 2;
			} else if (n == 0) {
				sb_addc(sb, '?');
				i++;
			} else {
				sb_addn(sb, p + i, (size_t)n);
				i += (size_t)n;
			}
		}
	}
}
