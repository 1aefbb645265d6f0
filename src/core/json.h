/*
 * json: the one JSON writer (after git's json-writer.c). Every command's
 * --json output is built with it, so escaping, commas and nesting are
 * decided in one place and the output is always well-formed.
 *
 * The writer appends to a strbuf and tracks the open containers: a member
 * of an object is a key and a value (jw_kv_*), an element of an array a
 * value (jw_*). Strings are whatever the machine gave us (file contents,
 * command output, library strings), so invalid UTF-8 is replaced by U+FFFD
 * rather than passed on. Misuse (a value where a key is due, more nesting
 * than JW_MAX_DEPTH, an unbalanced end) is a bug in the caller and aborts.
 */
#ifndef WSLGPU_JSON_H
#define WSLGPU_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"
#include "utf8.h" /* text_sanitize, utf8_seq_len: most writers use both */

#define JW_MAX_DEPTH 32

struct json_writer {
	struct strbuf *out;
	int depth;
	/* Per open container: '{' or '[', whether it holds a member yet, and
	 * whether each member starts on a line of its own. */
	char kind[JW_MAX_DEPTH];
	bool nonempty[JW_MAX_DEPTH];
	bool lines[JW_MAX_DEPTH];
};

void jw_init(struct json_writer *jw, struct strbuf *out);
/* True once every container that was begun has been ended. */
bool jw_complete(const struct json_writer *jw);

/* Containers: at the top level, as an array element, or as a member. The
 * _lines forms put each member on its own line (long arrays that people
 * also read with grep). */
void jw_object_begin(struct json_writer *jw);
void jw_array_begin(struct json_writer *jw);
void jw_array_begin_lines(struct json_writer *jw);
void jw_kv_object(struct json_writer *jw, const char *key);
void jw_kv_array(struct json_writer *jw, const char *key);
void jw_kv_array_lines(struct json_writer *jw, const char *key);
void jw_end(struct json_writer *jw);

/* Array elements. A NULL string is null. */
void jw_str(struct json_writer *jw, const char *s);
void jw_int(struct json_writer *jw, intmax_t v);
void jw_uint(struct json_writer *jw, uintmax_t v);
/* Numbers: %.6g (jw_num) or a fixed number of decimals; NaN and the
 * infinities, which JSON cannot hold, are null. */
void jw_num(struct json_writer *jw, double v);
void jw_fixed(struct json_writer *jw, int decimals, double v);
void jw_bool(struct json_writer *jw, bool v);
void jw_null(struct json_writer *jw);

/* Object members. */
void jw_kv_str(struct json_writer *jw, const char *key, const char *s);
void jw_kv_int(struct json_writer *jw, const char *key, intmax_t v);
void jw_kv_uint(struct json_writer *jw, const char *key, uintmax_t v);
void jw_kv_num(struct json_writer *jw, const char *key, double v);
void jw_kv_fixed(struct json_writer *jw, const char *key, int decimals, double v);
void jw_kv_bool(struct json_writer *jw, const char *key, bool v);
void jw_kv_null(struct json_writer *jw, const char *key);
/* A string list as an array member. */
void jw_kv_strings(struct json_writer *jw, const char *key, const char *const *v, size_t n);

/* Appends s as a quoted JSON string (the writer's escaping, for the rare
 * output that embeds one JSON string in another format). */
void json_quote(struct strbuf *sb, const char *s);

#endif
