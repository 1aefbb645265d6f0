/* jsonscan.c: bounded, tree-less JSON reading. See jsonscan.h. */
#include "jsonscan.h"

#include <string.h>

#define BAD ((size_t)-1)

static size_t skip_ws(const char *p, size_t n, size_t i)
{
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
		i++;
	return i;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* p[i] is '"'; returns the index after the closing quote. */
static size_t skip_string(const char *p, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c == '"')
			return i + 1;
		if (c < 0x20)
			return BAD;
		if (c == '\\') {
			if (++i >= n)
				return BAD;
			switch (p[i]) {
			case '"': case '\\': case '/': case 'b': case 'f':
			case 'n': case 'r': case 't':
				break;
			case 'u':
				if (n - i < 5)
					return BAD;
				for (int k = 1; k <= 4; k++)
					if (hexval(p[i + k]) < 0)
						return BAD;
				i += 4;
				break;
			default:
				return BAD;
			}
		}
	}
	return BAD;
}

static size_t skip_digits(const char *p, size_t n, size_t i)
{
	size_t start = i;
	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++;
	return i > start ? i : BAD;
}

static size_t skip_number(const char *p, size_t n, size_t i)
{
	if (i < n && p[i] == '-')
		i++;
	if (i < n && p[i] == '0')
		i++;
	else if ((i = skip_digits(p, n, i)) == BAD)
		return BAD;
	if (i < n && p[i] == '.' && (i = skip_digits(p, n, i + 1)) == BAD)
		return BAD;
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		i++;
		if (i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		if ((i = skip_digits(p, n, i)) == BAD)
			return BAD;
	}
	return i;
}

static size_t skip_literal(const char *p, size_t n, size_t i, const char *lit)
{
	size_t l = strlen(lit);
	return n - i >= l && memcmp(p + i, lit, l) == 0 ? i + l : BAD;
}

/* Skips the value at p[i] (no leading whitespace); returns the index after
 * it, or BAD. *type receives its type. */
static size_t skip_value(const char *p, size_t n, size_t i, int depth, enum js_type *type)
{
	enum js_type dummy;
	if (!type)
		type = &dummy;
	if (i >= n || depth > JSONSCAN_MAX_DEPTH)
		return BAD;
	switch (p[i]) {
	case '"':
		*type = JS_STRING;
		return skip_string(p, n, i);
	case 't':
		*type = JS_BOOL;
		return skip_literal(p, n, i, "true");
	case 'f':
		*type = JS_BOOL;
		return skip_literal(p, n, i, "false");
	case 'n':
		*type = JS_NULL;
		return skip_literal(p, n, i, "null");
	case '{':
	case '[': {
		bool obj = p[i] == '{';
		char close = obj ? '}' : ']';
		*type = obj ? JS_OBJECT : JS_ARRAY;
		i = skip_ws(p, n, i + 1);
		if (i < n && p[i] == close)
			return i + 1;
		for (;;) {
			if (obj) {
				if (i >= n || p[i] != '"' || (i = skip_string(p, n, i)) == BAD)
					return BAD;
				i = skip_ws(p, n, i);
				if (i >= n || p[i] != ':')
					return BAD;
				i = skip_ws(p, n, i + 1);
			}
			if ((i = skip_value(p, n, i, depth + 1, NULL)) == BAD)
				return BAD;
			i = skip_ws(p, n, i);
			if (i >= n)
				return BAD;
			if (p[i] == close)
				return i + 1;
			if (p[i] != ',')
				return BAD;
			i = skip_ws(p, n, i + 1);
		}
	}
	default:
		*type = JS_NUMBER;
		if (p[i] == '-' || (p[i] >= '0' && p[i] <= '9'))
			return skip_number(p, n, i);
		return BAD;
	}
}

int js_parse(const char *buf, size_t len, struct js_val *v, size_t *used)
{
	if (!buf)
		return -1;
	size_t i = skip_ws(buf, len, 0);
	enum js_type t;
	size_t e = skip_value(buf, len, i, 0, &t);
	if (e == BAD)
		return -1;
	v->p = buf + i;
	v->n = e - i;
	v->type = t;
	if (used)
		*used = e;
	return 0;
}

int js_parse_all(const char *buf, size_t len, struct js_val *v)
{
	size_t used;
	if (js_parse(buf, len, v, &used) < 0)
		return -1;
	return skip_ws(buf, len, used) == len ? 0 : -1;
}

/* Shared walker: for objects, *key is set too. */
static int next_member(const struct js_val *c, size_t *pos, struct js_val *key,
		       struct js_val *val, bool obj)
{
	const char *p = c->p;
	size_t n = c->n, i = *pos;
	if (c->type != (obj ? JS_OBJECT : JS_ARRAY) || n < 2)
		return -1;
	char close = obj ? '}' : ']';
	if (i == 0)
		i = 1;
	i = skip_ws(p, n, i);
	if (i < n && p[i] == ',')
		i = skip_ws(p, n, i + 1);
	if (i >= n)
		return -1;
	if (p[i] == close)
		return 0;
	if (obj) {
		size_t ke = p[i] == '"' ? skip_string(p, n, i) : BAD;
		if (ke == BAD)
			return -1;
		key->p = p + i;
		key->n = ke - i;
		key->type = JS_STRING;
		i = skip_ws(p, n, ke);
		if (i >= n || p[i] != ':')
			return -1;
		i = skip_ws(p, n, i + 1);
	}
	enum js_type t;
	size_t e = skip_value(p, n, i, 1, &t);
	if (e == BAD)
		return -1;
	val->p = p + i;
	val->n = e - i;
	val->type = t;
	*pos = e;
	return 1;
}

int js_object_next(const struct js_val *obj, size_t *pos, struct js_val *key,
		   struct js_val *val)
{
	return next_member(obj, pos, key, val, true);
}

int js_array_next(const struct js_val *arr, size_t *pos, struct js_val *elem)
{
	return next_member(arr, pos, NULL, elem, false);
}

int js_object_get(const struct js_val *obj, const char *key, struct js_val *val)
{
	size_t pos = 0;
	struct js_val k, v;
	int rc;
	while ((rc = js_object_next(obj, &pos, &k, &v)) == 1)
		if (js_string_is(&k, key)) {
			*val = v;
			return 0;
		}
	return -1;
}

static void add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		cp = 0xFFFD;
	if (cp < 0x80) {
		sb_addc(sb, (char)cp);
	} else if (cp < 0x800) {
		sb_addc(sb, (char)(0xC0 | (cp >> 6)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		sb_addc(sb, (char)(0xE0 | (cp >> 12)));
		sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3F)));
	} else {
		sb_addc(sb, (char)(0xF0 | (cp >> 18)));
		sb_addc(sb, (char)(0x80 | ((cp >> 12) & 0x3F)));
		sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3F)));
	}
}

static unsigned hex4(const char *p)
{
	unsigned v = 0;
	for (int k = 0; k < 4; k++)
		v = v << 4 | (unsigned)hexval(p[k]);
	return v;
}

int js_string(const struct js_val *v, struct strbuf *out)
{
	sb_reset(out);
	sb_addn(out, "", 0);
	if (v->type != JS_STRING) {
		sb_addn(out, v->p, v->n);
		return 0;
	}
	const char *p = v->p;
	size_t n = v->n;
	if (n < 2 || p[0] != '"' || p[n - 1] != '"')
		return -1;
	for (size_t i = 1; i + 1 < n; i++) {
		char c = p[i];
		if (c == '\0') {
			sb_add(out, "\xEF\xBF\xBD");
			continue;
		}
		if (c != '\\') {
			sb_addc(out, c);
			continue;
		}
		if (++i + 1 > n - 1)
			return -1;
		switch (p[i]) {
		case 'b': sb_addc(out, '\b'); break;
		case 'f': sb_addc(out, '\f'); break;
		case 'n': sb_addc(out, '\n'); break;
		case 'r': sb_addc(out, '\r'); break;
		case 't': sb_addc(out, '\t'); break;
		case 'u': {
			if (n - 1 - i < 5 || hexval(p[i + 1]) < 0 || hexval(p[i + 2]) < 0 ||
			    hexval(p[i + 3]) < 0 || hexval(p[i + 4]) < 0)
				return -1;
			unsigned cp = hex4(p + i + 1);
			i += 4;
			/* A high surrogate followed by a low one is one character. */
			if (cp >= 0xD800 && cp <= 0xDBFF && n - 1 - i >= 7 && p[i + 1] == '\\' &&
			    p[i + 2] == 'u' && hexval(p[i + 3]) >= 0 && hexval(p[i + 4]) >= 0 &&
			    hexval(p[i + 5]) >= 0 && hexval(p[i + 6]) >= 0) {
				unsigned lo = hex4(p + i + 3);
				if (lo >= 0xDC00 && lo <= 0xDFFF) {
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
					i += 6;
				}
			}
			add_utf8(out, cp);
			break;
		}
		default:
			sb_addc(out, p[i]); /* '"', '\\', '/' */
		}
	}
	return 0;
}

bool js_string_is(const struct js_val *v, const char *s)
{
	if (v->type != JS_STRING)
		return false;
	size_t l = strlen(s);
	/* Fast path: no escapes, exact bytes. */
	if (v->n == l + 2 && memcmp(v->p + 1, s, l) == 0)
		return true;
	if (!memchr(v->p, '\\', v->n))
		return false;
	struct strbuf sb = STRBUF_INIT;
	bool eq = js_string(v, &sb) == 0 && sb.len == l && memcmp(sb.buf, s, l) == 0;
	sb_release(&sb);
	return eq;
}
