/* pyprobe.c: the framework probe script's output. See pyprobe.h. */
#include "pyprobe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../core/text.h"
#include "jsonscan.h"

static bool key_ok(const char *s, size_t n)
{
	if (n == 0 || n > PYPROBE_MAX_KEY)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'))
			return false;
	}
	return true;
}

void pyprobe_free(struct pyprobe *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->kv[i].key);
		free(p->kv[i].val);
	}
	free(p->kv);
	p->kv = NULL;
	p->n = 0;
}

/* Value text of a scalar, or of an array of scalars (space-joined). */
static bool value_text(const struct js_val *v, struct strbuf *out)
{
	sb_reset(out);
	if (v->type == JS_NULL || v->type == JS_OBJECT)
		return false;
	if (v->type != JS_ARRAY)
		return js_string(v, out) == 0;
	size_t pos = 0;
	struct js_val e;
	struct strbuf one = STRBUF_INIT;
	bool first = true;
	while (js_array_next(v, &pos, &e) == 1) {
		if (e.type == JS_ARRAY || e.type == JS_OBJECT || e.type == JS_NULL)
			continue;
		if (js_string(&e, &one) < 0)
			continue;
		if (!first)
			sb_addc(out, ' ');
		first = false;
		sb_addn(out, one.buf, one.len);
		if (out->len > PYPROBE_MAX_VALUE)
			break;
	}
	sb_release(&one);
	if (!out->buf)
		sb_addn(out, "", 0);
	return true;
}

/* Replaces out's contents with the members of obj. */
static void take_object(const struct js_val *obj, struct pyprobe *out)
{
	pyprobe_free(out);
	out->kv = xcalloc(PYPROBE_MAX_KEYS, sizeof *out->kv);
	size_t pos = 0;
	struct js_val k, v;
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	while (out->n < PYPROBE_MAX_KEYS && js_object_next(obj, &pos, &k, &v) == 1) {
		if (js_string(&k, &key) < 0 || !key_ok(key.buf, key.len))
			continue;
		if (!value_text(&v, &val))
			continue;
		/* A repeated key: the later value wins, as in Python's json. */
		size_t slot = out->n;
		for (size_t i = 0; i < out->n; i++)
			if (!strcmp(out->kv[i].key, key.buf))
				slot = i;
		if (val.len > PYPROBE_MAX_VALUE)
			val.len = PYPROBE_MAX_VALUE;
		/* Keep the value a C string of what was decoded (it may hold a
		 * NUL from \u0000 only as U+FFFD, see jsonscan.c). */
		char *copy = xstrndup(val.buf, val.len);
		if (slot < out->n) {
			free(out->kv[slot].val);
			out->kv[slot].val = copy;
		} else {
			out->kv[out->n].key = xstrdup(key.buf);
			out->kv[out->n].val = copy;
			out->n++;
		}
	}
	sb_release(&key);
	sb_release(&val);
}

int pyprobe_parse(const char *buf, size_t len, struct pyprobe *out)
{
	memset(out, 0, sizeof *out);
	if (!buf)
		return -ENOENT;
	const size_t ml = sizeof PYPROBE_MARK - 1;
	size_t pos = 0;
	const char *line;
	size_t ll;
	while (text_next_line(buf, len, &pos, &line, &ll)) {
		/* The marker may follow junk another library wrote without a
		 * newline; find it anywhere in the line. */
		const char *m = ll >= ml ? memmem(line, ll, PYPROBE_MARK, ml) : NULL;
		if (!m)
			continue;
		const char *j = m + ml;
		size_t jl = ll - (size_t)(j - line);
		struct js_val obj;
		if (js_parse_all(j, jl, &obj) < 0 || obj.type != JS_OBJECT) {
			out->bad_lines++;
			continue;
		}
		take_object(&obj, out);
		out->snapshots++;
	}
	if (out->snapshots)
		return 0;
	return out->bad_lines ? -EINVAL : -ENOENT;
}

const char *pyprobe_get(const struct pyprobe *p, const char *key)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->kv[i].key, key))
			return p->kv[i].val;
	return NULL;
}

bool pyprobe_true(const struct pyprobe *p, const char *key)
{
	const char *v = pyprobe_get(p, key);
	return v && !strcmp(v, "true");
}
