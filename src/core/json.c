/* json.c: the JSON writer, its string escaping, and terminal-safe text.
 * See json.h. */
#include "json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

void json_quote(struct strbuf *sb, const char *s)
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

/* ---- the writer ---- */

static void jw_bug(const char *what)
{
	fprintf(stderr, "wslgpu: internal error: JSON writer: %s\n", what);
	abort();
}

void jw_init(struct json_writer *jw, struct strbuf *out)
{
	memset(jw, 0, sizeof *jw);
	jw->out = out;
}

bool jw_complete(const struct json_writer *jw)
{
	return jw->depth == 0;
}

/* Before a value that is an array element (or the top-level value). */
static void element(struct json_writer *jw)
{
	if (jw->depth == 0)
		return;
	int d = jw->depth - 1;
	if (jw->kind[d] != '[')
		jw_bug("a value where an object member is due");
	if (jw->nonempty[d])
		sb_addc(jw->out, ',');
	if (jw->lines[d])
		sb_addc(jw->out, '\n');
	jw->nonempty[d] = true;
}

/* Before an object member: the comma, the key and the colon. */
static void member(struct json_writer *jw, const char *key)
{
	int d = jw->depth - 1;
	if (d < 0 || jw->kind[d] != '{')
		jw_bug("an object member outside an object");
	if (jw->nonempty[d])
		sb_addc(jw->out, ',');
	if (jw->lines[d])
		sb_addc(jw->out, '\n');
	jw->nonempty[d] = true;
	json_quote(jw->out, key);
	sb_addc(jw->out, ':');
}

static void open_container(struct json_writer *jw, char kind, bool lines)
{
	if (jw->depth >= JW_MAX_DEPTH)
		jw_bug("nested too deep");
	jw->kind[jw->depth] = kind;
	jw->nonempty[jw->depth] = false;
	jw->lines[jw->depth] = lines;
	jw->depth++;
	sb_addc(jw->out, kind);
}

void jw_object_begin(struct json_writer *jw)
{
	element(jw);
	open_container(jw, '{', false);
}

void jw_array_begin(struct json_writer *jw)
{
	element(jw);
	open_container(jw, '[', false);
}

void jw_array_begin_lines(struct json_writer *jw)
{
	element(jw);
	open_container(jw, '[', true);
}

void jw_kv_object(struct json_writer *jw, const char *key)
{
	member(jw, key);
	open_container(jw, '{', false);
}

void jw_kv_array(struct json_writer *jw, const char *key)
{
	member(jw, key);
	open_container(jw, '[', false);
}

void jw_kv_array_lines(struct json_writer *jw, const char *key)
{
	member(jw, key);
	open_container(jw, '[', true);
}

void jw_end(struct json_writer *jw)
{
	if (jw->depth == 0)
		jw_bug("end without a begin");
	jw->depth--;
	if (jw->lines[jw->depth] && jw->nonempty[jw->depth])
		sb_addc(jw->out, '\n');
	sb_addc(jw->out, jw->kind[jw->depth] == '{' ? '}' : ']');
}

static void put_str(struct json_writer *jw, const char *s)
{
	if (s)
		json_quote(jw->out, s);
	else
		sb_add(jw->out, "null");
}

static void put_fixed(struct json_writer *jw, int decimals, double v)
{
	if (isnan(v) || isinf(v))
		sb_add(jw->out, "null");
	else if (decimals < 0)
		sb_addf(jw->out, "%.6g", v);
	else
		sb_addf(jw->out, "%.*f", decimals, v);
}

void jw_str(struct json_writer *jw, const char *s) { element(jw); put_str(jw, s); }
void jw_int(struct json_writer *jw, intmax_t v) { element(jw); sb_addf(jw->out, "%" PRIdMAX, v); }
void jw_uint(struct json_writer *jw, uintmax_t v) { element(jw); sb_addf(jw->out, "%" PRIuMAX, v); }
void jw_num(struct json_writer *jw, double v) { element(jw); put_fixed(jw, -1, v); }
void jw_fixed(struct json_writer *jw, int decimals, double v) { element(jw); put_fixed(jw, decimals, v); }
void jw_bool(struct json_writer *jw, bool v) { element(jw); sb_add(jw->out, v ? "true" : "false"); }
void jw_null(struct json_writer *jw) { element(jw); sb_add(jw->out, "null"); }

void jw_kv_str(struct json_writer *jw, const char *key, const char *s)
{
	member(jw, key);
	put_str(jw, s);
}

void jw_kv_int(struct json_writer *jw, const char *key, intmax_t v)
{
	member(jw, key);
	sb_addf(jw->out, "%" PRIdMAX, v);
}

void jw_kv_uint(struct json_writer *jw, const char *key, uintmax_t v)
{
	member(jw, key);
	sb_addf(jw->out, "%" PRIuMAX, v);
}

void jw_kv_num(struct json_writer *jw, const char *key, double v)
{
	member(jw, key);
	put_fixed(jw, -1, v);
}

void jw_kv_fixed(struct json_writer *jw, const char *key, int decimals, double v)
{
	member(jw, key);
	put_fixed(jw, decimals, v);
}

void jw_kv_bool(struct json_writer *jw, const char *key, bool v)
{
	member(jw, key);
	sb_add(jw->out, v ? "true" : "false");
}

void jw_kv_null(struct json_writer *jw, const char *key)
{
	member(jw, key);
	sb_add(jw->out, "null");
}

void jw_kv_strings(struct json_writer *jw, const char *key, const char *const *v, size_t n)
{
	jw_kv_array(jw, key);
	for (size_t i = 0; i < n; i++)
		jw_str(jw, v[i]);
	jw_end(jw);
}

/* ---- terminal-safe text ---- */

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

static void sanitize(struct strbuf *sb, const char *s, bool one_line)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		if (c == '\n' || c == '\v' || c == '\f') {
			/* A one-line field must not start a line of its own. */
			sb_add(sb, one_line ? TEXT_LINE_BREAK : "\n");
			i++;
		} else if (c == '\t') {
			sb_addc(sb, one_line ? ' ' : '\t');
			i++;
		} else if (c >= 0x20 && c < 0x7f) {
			sb_addc(sb, (char)c);
			i++;
		} else if (c < 0x80) {
			i++; /* ESC and its sequences' introducer, CR, other controls, DEL */
		} else {
			int n = utf8_seq_len(p + i, len - i);
			int trap = n ? unicode_trap(p + i, n) : 0;
			/* C1 controls (U+0080..U+009F) are terminal escapes too. */
			if ((n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) || n == 0 || trap == '?') {
				sb_addc(sb, '?');
				i += n ? (size_t)n : 1;
			} else if (trap == '\n') {
				sb_add(sb, one_line ? TEXT_LINE_BREAK : "\n");
				i += (size_t)n;
			} else {
				sb_addn(sb, p + i, (size_t)n);
				i += (size_t)n;
			}
		}
	}
}

void text_sanitize(struct strbuf *sb, const char *s)
{
	sanitize(sb, s, false);
}

void text_sanitize_line(struct strbuf *sb, const char *s)
{
	sanitize(sb, s, true);
}
