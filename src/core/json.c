/* json.c: the JSON writer and its string escaping. See json.h. */
#include "json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/* The characters JSON must escape (RFC 8259, section 7); invalid UTF-8
 * becomes U+FFFD rather than being passed on. */
static void json_put(struct strbuf *sb, const unsigned char *p, int n, const void *ctx)
{
	(void)ctx;
	if (n == 0)
		sb_add(sb, "\\ufffd");
	else if (n > 1)
		sb_addn(sb, p, (size_t)n);
	else if (p[0] == '"' || p[0] == '\\') {
		sb_addc(sb, '\\');
		sb_addc(sb, (char)p[0]);
	} else if (!utf8_c_escape(sb, p[0])) {
		sb_addf(sb, "\\u%04x", p[0]);
	}
}

void json_quote(struct strbuf *sb, const char *s)
{
	static const struct utf8_escape e = { "\"\\", json_put, NULL, 0 };
	sb_addc(sb, '"');
	utf8_escape(sb, s, strlen(s), &e);
	sb_addc(sb, '"');
}

/* ---- the writer ---- */

static void jw_bug(const char *what)
{
	bugf("JSON writer: %s", what);
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
