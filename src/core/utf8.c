/* utf8.c: splitting machine text into characters, and the sanitiser.
 * See utf8.h. */
#include "utf8.h"

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

void utf8_escape(struct strbuf *out, const char *s, size_t len, const struct utf8_escape *e)
{
	/* Printable ASCII that is not special is copied in runs. */
	bool plain[128] = { false };
	for (int c = 0x20; c < 0x7f; c++)
		plain[c] = true;
	for (const char *p = e->special ? e->special : ""; *p; p++)
		plain[(unsigned char)*p & 0x7f] = false;
	const unsigned char *p = (const unsigned char *)s;
	size_t start = out->len;
	for (size_t i = 0; i < len;) {
		size_t written = out->len - start;
		if (e->max && written >= e->max)
			break;
		size_t run = i;
		while (run < len && p[run] < 0x80 && plain[p[run]])
			run++;
		if (run > i) {
			size_t n = run - i;
			if (e->max && n > e->max - written)
				n = e->max - written;
			sb_addn(out, p + i, n);
			i += n;
			continue;
		}
		int n = p[i] < 0x80 ? 1 : utf8_seq_len(p + i, len - i);
		e->put(out, p + i, n, e->ctx);
		i += n ? (size_t)n : 1;
	}
}

bool utf8_c_escape(struct strbuf *out, unsigned char c)
{
	const char *e = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
	if (e)
		sb_add(out, e);
	return e != NULL;
}

/* ---- the sanitiser ---- */

/* Unicode characters that start a line or reorder what a terminal shows
 * (bidirectional overrides and isolates: "Trojan source", CVE-2021-42574). */
static int unicode_trap(const unsigned char *p, int n)
{
	if (n != 3 || p[0] != 0xe2)
		return 0;
	if (p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
		return '\n'; /* U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR */
	if ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) || /* U+202A..U+202E */
	    (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9))   /* U+2066..U+2069 */
		return '?';
	return 0;
}

static void sanitize_put(struct strbuf *sb, const unsigned char *p, int n, const void *ctx)
{
	bool one_line = *(const bool *)ctx;
	if (n == 1) {
		if (p[0] == '\n' || p[0] == '\v' || p[0] == '\f')
			/* A one-line field must not start a line of its own. */
			sb_add(sb, one_line ? TEXT_LINE_BREAK : "\n");
		else if (p[0] == '\t')
			sb_addc(sb, one_line ? ' ' : '\t');
		/* else ESC and its sequences' introducer, CR, other controls,
		 * DEL: dropped */
		return;
	}
	int trap = n ? unicode_trap(p, n) : 0;
	/* C1 controls (U+0080..U+009F) are terminal escapes too. */
	if ((n == 2 && p[0] == 0xc2 && p[1] < 0xa0) || n == 0 || trap == '?')
		sb_addc(sb, '?');
	else if (trap == '\n')
		sb_add(sb, one_line ? TEXT_LINE_BREAK : "\n");
	else
		sb_addn(sb, p, (size_t)n);
}

static void sanitize(struct strbuf *sb, const char *s, bool one_line)
{
	struct utf8_escape e = { "", sanitize_put, &one_line, 0 };
	utf8_escape(sb, s, strlen(s), &e);
}

void text_sanitize(struct strbuf *sb, const char *s)
{
	sanitize(sb, s, false);
}

void text_sanitize_line(struct strbuf *sb, const char *s)
{
	sanitize(sb, s, true);
}

/* ---- escaping ---- */

static void escape_put(struct strbuf *sb, const unsigned char *p, int n, const void *ctx)
{
	(void)ctx;
	if (n == 0) {
		sb_addf(sb, "\\x%02x", p[0]);
	} else if (n == 1) {
		if (!utf8_c_escape(sb, p[0]))
			sb_addf(sb, "\\x%02x", p[0]);
	} else if ((n == 2 && p[0] == 0xc2 && p[1] < 0xa0) || unicode_trap(p, n)) {
		unsigned cp = n == 2 ? ((p[0] & 0x1fu) << 6) | (p[1] & 0x3fu)
				     : ((p[0] & 0x0fu) << 12) | ((p[1] & 0x3fu) << 6) | (p[2] & 0x3fu);
		sb_addf(sb, "\\u%04x", cp);
	} else {
		sb_addn(sb, p, (size_t)n);
	}
}

void text_escape(struct strbuf *sb, const char *s)
{
	static const struct utf8_escape e = { "", escape_put, NULL, 0 };
	utf8_escape(sb, s, strlen(s), &e);
}
