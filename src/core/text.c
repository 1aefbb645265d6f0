/* text.c: see text.h. */
#include "text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "json.h"

#define TEXT_DISTANCE_MAX_LEN 40

const char *text_casestr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	if (!n)
		return hay;
	/* Candidates found by libc's vectorised scans (strchr, strcspn), not
	 * a byte loop: the fix-line classifiers try a hundred words on each
	 * line (half of a one-line explain's own work). */
	int lo = tolower((unsigned char)needle[0]), up = toupper((unsigned char)needle[0]);
	const char set[3] = { (char)lo, (char)up, '\0' };
	for (const char *p = hay;; p++) {
		p = lo == up ? strchr(p, lo) : p + strcspn(p, set);
		if (!p || !*p)
			return NULL;
		if (!strncasecmp(p, needle, n))
			return p;
	}
}

int text_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > TEXT_DISTANCE_MAX_LEN || lb > TEXT_DISTANCE_MAX_LEN)
		return 99;
	int prev[TEXT_DISTANCE_MAX_LEN + 1], cur[TEXT_DISTANCE_MAX_LEN + 1];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			int best = prev[j - 1] + cost;
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			cur[j] = best;
		}
		memcpy(prev, cur, sizeof cur);
	}
	return prev[lb];
}

bool text_shell_safe(const char *v)
{
	if (!*v)
		return false;
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;
		if (!(c < 0x80 && isalnum(c)) && !strchr("@%+=:,./-_", c))
			return false;
	}
	return true;
}

void text_shell_quote(struct strbuf *out, const char *v)
{
	if (text_shell_safe(v)) {
		sb_add(out, v);
		return;
	}
	sb_addc(out, '\'');
	for (; *v; v++)
		if (*v == '\'')
			sb_add(out, "'\\''");
		else
			sb_addc(out, *v);
	sb_addc(out, '\'');
}

/* ---- the terminal ---- */

static int term_columns = 80;
static bool term_utf8 = true;

void text_set_terminal(int columns, bool utf8)
{
	term_columns = columns > 0 ? columns : 80;
	term_utf8 = utf8;
}

int text_columns(void)
{
	return term_columns;
}

bool text_utf8(void)
{
	return term_utf8;
}

const char *text_glyph(const char *utf8, const char *ascii)
{
	return term_utf8 ? utf8 : ascii;
}

#define MIN_COLUMNS 40
#define MAX_COLUMNS 1000

int text_terminal_columns(int fd)
{
	int cols = 0;
	const char *c = getenv("COLUMNS");
	if (c && *c) {
		char *end;
		long v = strtol(c, &end, 10);
		if (!*end && v > 0)
			cols = v > MAX_COLUMNS ? MAX_COLUMNS : (int)v;
	}
	struct winsize ws;
	if (!cols && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		cols = ws.ws_col > MAX_COLUMNS ? MAX_COLUMNS : ws.ws_col;
	if (!cols)
		cols = 80;
	return cols < MIN_COLUMNS ? MIN_COLUMNS : cols;
}

bool text_utf8_locale(void)
{
	const char *vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);
		if (v && *v)
			return strcasestr(v, "utf-8") || strcasestr(v, "utf8");
	}
	return false;
}

/* ---- display width ---- */

struct range {
	unsigned lo, hi;
};

/* Combining marks and invisible format characters: no column. */
static const struct range zero_width[] = {
	{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd }, { 0x0610, 0x061a },
	{ 0x064b, 0x065f }, { 0x1ab0, 0x1aff }, { 0x1dc0, 0x1dff }, { 0x200b, 0x200f },
	{ 0x202a, 0x202e }, { 0x2060, 0x2064 }, { 0x20d0, 0x20ff }, { 0xfe00, 0xfe0f },
	{ 0xfe20, 0xfe2f }, { 0xfeff, 0xfeff }, { 0xe0100, 0xe01ef },
};

/* East Asian Wide and Fullwidth, and the emoji shown as emoji by default
 * (Emoji_Presentation): two columns, as wcwidth() and terminals count
 * them. ⌛ (U+231B) is one of them; ✓ ✗ ! ☠ are not. */
static const struct range wide[] = {
	{ 0x1100, 0x115f },   { 0x231a, 0x231b },   { 0x2329, 0x232a },   { 0x23e9, 0x23ec },
	{ 0x23f0, 0x23f0 },   { 0x23f3, 0x23f3 },   { 0x25fd, 0x25fe },   { 0x2614, 0x2615 },
	{ 0x2648, 0x2653 },   { 0x267f, 0x267f },   { 0x2693, 0x2693 },   { 0x26a1, 0x26a1 },
	{ 0x26aa, 0x26ab },   { 0x26bd, 0x26be },   { 0x26c4, 0x26c5 },   { 0x26ce, 0x26ce },
	{ 0x26d4, 0x26d4 },   { 0x26ea, 0x26ea },   { 0x26f2, 0x26f3 },   { 0x26f5, 0x26f5 },
	{ 0x26fa, 0x26fa },   { 0x26fd, 0x26fd },   { 0x2705, 0x2705 },   { 0x270a, 0x270b },
	{ 0x2728, 0x2728 },   { 0x274c, 0x274c },   { 0x274e, 0x274e },   { 0x2753, 0x2755 },
	{ 0x2757, 0x2757 },   { 0x2795, 0x2797 },   { 0x27b0, 0x27b0 },   { 0x27bf, 0x27bf },
	{ 0x2b1b, 0x2b1c },   { 0x2b50, 0x2b50 },   { 0x2b55, 0x2b55 },   { 0x2e80, 0x303e },
	{ 0x3041, 0x33ff },   { 0x3400, 0x4dbf },   { 0x4e00, 0x9fff },   { 0xa000, 0xa4cf },
	{ 0xa960, 0xa97f },   { 0xac00, 0xd7a3 },   { 0xf900, 0xfaff },   { 0xfe10, 0xfe19 },
	{ 0xfe30, 0xfe6f },   { 0xff00, 0xff60 },   { 0xffe0, 0xffe6 },   { 0x16fe0, 0x18cff },
	{ 0x1b000, 0x1b2ff }, { 0x1f004, 0x1f004 }, { 0x1f0cf, 0x1f0cf }, { 0x1f18e, 0x1f18e },
	{ 0x1f191, 0x1f19a }, { 0x1f200, 0x1f265 }, { 0x1f300, 0x1f320 }, { 0x1f32d, 0x1f335 },
	{ 0x1f337, 0x1f37c }, { 0x1f37e, 0x1f393 }, { 0x1f3a0, 0x1f3ca }, { 0x1f3cf, 0x1f3d3 },
	{ 0x1f3e0, 0x1f3f0 }, { 0x1f3f4, 0x1f3f4 }, { 0x1f3f8, 0x1f43e }, { 0x1f440, 0x1f440 },
	{ 0x1f442, 0x1f4fc }, { 0x1f4ff, 0x1f53d }, { 0x1f54b, 0x1f54e }, { 0x1f550, 0x1f567 },
	{ 0x1f57a, 0x1f57a }, { 0x1f595, 0x1f596 }, { 0x1f5a4, 0x1f5a4 }, { 0x1f5fb, 0x1f64f },
	{ 0x1f680, 0x1f6c5 }, { 0x1f6cc, 0x1f6cc }, { 0x1f6d0, 0x1f6d2 }, { 0x1f6d5, 0x1f6d7 },
	{ 0x1f6dc, 0x1f6df }, { 0x1f6eb, 0x1f6ec }, { 0x1f6f4, 0x1f6fc }, { 0x1f7e0, 0x1f7eb },
	{ 0x1f7f0, 0x1f7f0 }, { 0x1f90c, 0x1f93a }, { 0x1f93c, 0x1f945 }, { 0x1f947, 0x1f9ff },
	{ 0x1fa70, 0x1faff }, { 0x20000, 0x2fffd }, { 0x30000, 0x3fffd },
};

static bool in(const struct range *t, size_t n, unsigned cp)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cp < t[mid].lo)
			hi = mid;
		else if (cp > t[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

/* Columns of the character at s (len bytes available), its length in *used. */
static int char_width(const unsigned char *s, size_t len, size_t *used)
{
	if (s[0] == 0x1b && len > 1 && s[1] == '[') { /* a colour sequence */
		size_t i = 2;
		while (i < len && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
			i++;
		*used = i < len ? i + 1 : i;
		return 0;
	}
	if (s[0] < 0x80) {
		*used = 1;
		return s[0] >= 0x20 && s[0] != 0x7f ? 1 : 0;
	}
	int n = utf8_seq_len(s, len);
	if (n == 0) {
		*used = 1;
		return 1;
	}
	*used = (size_t)n;
	unsigned cp = s[0] & (0x3f >> (n - 1));
	for (int i = 1; i < n; i++)
		cp = (cp << 6) | (s[i] & 0x3f);
	if (cp < 0xa0)
		return 0; /* C1 controls */
	if (in(zero_width, sizeof zero_width / sizeof zero_width[0], cp))
		return 0;
	return in(wide, sizeof wide / sizeof wide[0], cp) ? 2 : 1;
}

int text_width_n(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	int w = 0;
	for (size_t i = 0, used; i < n && p[i]; i += used)
		w += char_width(p + i, n - i, &used);
	return w;
}

int text_width(const char *s)
{
	return text_width_n(s, strlen(s));
}

/* ---- wrapping ---- */

void text_wrap(struct strbuf *out, const char *text, const struct text_wrap *w)
{
	int col = w->col;
	size_t len = strlen(text);
	size_t i = 0;
	bool line_start = true; /* nothing of the current text line written yet */
	while (i < len) {
		if (text[i] == '\n') {
			sb_addf(out, "\n%*s", w->indent, "");
			col = w->indent;
			line_start = true;
			i++;
			continue;
		}
		/* The next word: up to a space where a break is allowed. The
		 * spaces before it (sp..i) are its separator. */
		size_t sp = i;
		while (i < len && text[i] == ' ')
			i++;
		size_t start = i, end = i;
		while (end < len && text[end] != '\n') {
			if (text[end] == ' ' && end >= w->keep && end > start &&
			    (!w->can_break || w->can_break(text, end)))
				break;
			end++;
		}
		int sepw = (int)(start - sp);
		int ww = text_width_n(text + start, end - start);
		if (line_start) {
			/* Spaces at the start of a line of text are indentation. */
			sb_addn(out, text + sp, end - sp);
			col += sepw + ww;
			line_start = false;
		} else if (col + sepw + ww <= w->width || end == start) {
			sb_addn(out, text + sp, end - sp);
			col += sepw + ww;
		} else {
			sb_addf(out, "\n%*s", w->indent, "");
			sb_addn(out, text + start, end - start);
			col = w->indent + ww;
		}
		i = end;
	}
}

void text_wrap_line(struct strbuf *out, const char *text, int indent, size_t keep)
{
	struct text_wrap w = { text_columns(), 0, indent, keep, NULL };
	text_wrap(out, text, &w);
	sb_addc(out, '\n');
}

void text_print_line(FILE *f, const char *text, int indent, size_t keep)
{
	struct strbuf sb = STRBUF_INIT;
	text_wrap_line(&sb, text, indent, keep);
	fputs(sb.buf, f);
	sb_release(&sb);
}

void text_wrap_remark(struct strbuf *out, int col, const char *remark, int indent)
{
	struct strbuf c = STRBUF_INIT;
	sb_add(&c, "# ");
	sb_add(&c, remark);
	int width = text_columns();
	/* a remark cut after a word or two reads badly: then below */
	if (col + 3 + text_width(c.buf) > width && col + 3 + TEXT_REMARK_MIN_COLUMNS > width) {
		sb_addf(out, "\n%*s", indent, "");
		col = indent;
	} else {
		sb_add(out, "   ");
		col += 3;
	}
	struct text_wrap w = { width, col, indent + 2, 0, NULL };
	text_wrap_comment(out, sb_str(&c), &w, indent);
	sb_release(&c);
}

void text_wrap_comment(struct strbuf *out, const char *text, const struct text_wrap *w,
		       int indent)
{
	struct strbuf t = STRBUF_INIT;
	text_wrap(&t, text, w);
	for (const char *p = sb_str(&t); *p; p++) {
		sb_addc(out, *p);
		if (*p == '\n') {
			sb_addf(out, "%*s# ", indent, "");
			p += strspn(p + 1, " ");
		}
	}
	sb_release(&t);
}

bool text_next_line(const char *buf, size_t len, size_t *pos, const char **line, size_t *n)
{
	if (!buf || *pos >= len)
		return false;
	const char *nl = memchr(buf + *pos, '\n', len - *pos);
	size_t end = nl ? (size_t)(nl - buf) : len;
	*line = buf + *pos;
	*n = end - *pos;
	*pos = end + 1;
	return true;
}
