/*
 * json: string escaping for the JSON writers in src/report/. Input is
 * whatever the machine gave us (file contents, command output, library
 * strings), so invalid UTF-8 is replaced by U+FFFD rather than passed on:
 * the output is always valid JSON.
 */
#ifndef WSLGPU_JSON_H
#define WSLGPU_JSON_H

#include "strbuf.h"

/* Appends s as a quoted JSON string. */
void json_str(struct strbuf *sb, const char *s);
/* Length of a valid UTF-8 sequence at s (1..4), or 0 if invalid. */
int utf8_seq_len(const unsigned char *s, size_t avail);
/* Copies s with invalid UTF-8 replaced by '?' and control characters other
 * than tab and newline dropped: safe to print on a terminal. */
void text_sanitize(struct strbuf *sb, const char *s);

#endif
