/*
 * jsonscan: reading JSON that other programs printed, without building a
 * tree. A value is a span of the input; objects and arrays are walked member
 * by member; strings are decoded only when asked for.
 *
 * The inputs are hostile by nature — `docker info --format '{{json .}}'`,
 * the framework probe's output line, a CDI spec someone hand-edited — so
 * every function is bounded by the span it is given, nesting is limited to
 * JSONSCAN_MAX_DEPTH, and invalid input is an error, never a crash. Strings
 * are decoded to UTF-8; escapes that do not form valid characters (lone
 * surrogates, \u0000) become U+FFFD, so the result is always a C string.
 *
 * The writer side lives in src/core/json.h; this is only the reader.
 */
#ifndef WSLGPU_JSONSCAN_H
#define WSLGPU_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/strbuf.h"

#define JSONSCAN_MAX_DEPTH 64

enum js_type { JS_NULL, JS_BOOL, JS_NUMBER, JS_STRING, JS_ARRAY, JS_OBJECT };

struct js_val {
	const char *p; /* first byte of the value ('"', '{', '[', digit, ...) */
	size_t n;      /* bytes of the value, quotes and brackets included */
	enum js_type type;
};

/*
 * Parses the value at the start of buf (leading whitespace skipped) and
 * validates all of it. *used (if given) receives the offset just after it.
 * Returns 0, or -1 when buf does not start with one valid JSON value.
 */
int js_parse(const char *buf, size_t len, struct js_val *v, size_t *used);
/* Like js_parse, but the value must be all of buf (whitespace aside). */
int js_parse_all(const char *buf, size_t len, struct js_val *v);

/* Walks an object: *pos starts at 0. Returns 1 with the next member's key
 * (a JS_STRING span) and value, 0 after the last one, -1 on a malformed
 * span (only possible for spans that did not come from js_parse). */
int js_object_next(const struct js_val *obj, size_t *pos, struct js_val *key,
		   struct js_val *val);
/* Walks an array the same way. */
int js_array_next(const struct js_val *arr, size_t *pos, struct js_val *elem);
/* The first member of obj named key. Returns 0, or -1 if there is none. */
int js_object_get(const struct js_val *obj, const char *key, struct js_val *val);

/* Decodes a JS_STRING into out (replacing its contents). Other types are
 * copied as their JSON text ("true", "12.5", "null", "[...]"). Returns 0,
 * or -1 for a malformed string. */
int js_string(const struct js_val *v, struct strbuf *out);
/* True if the JS_STRING v decodes to exactly s. */
bool js_string_is(const struct js_val *v, const char *s);

#endif
