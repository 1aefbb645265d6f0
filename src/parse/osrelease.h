/*
 * osrelease: os-release(5) parsing. KEY=value lines; values may be quoted
 * with " or ' and use backslash escapes inside double quotes.
 */
#ifndef WSLGPU_OSRELEASE_H
#define WSLGPU_OSRELEASE_H

#include "../core/strbuf.h"

/* Finds key in text (length len; NULs allowed, they end a line).
 * Returns 0 and the unquoted value, or -1 if absent. */
int osrelease_get(const char *text, size_t len, const char *key, struct strbuf *val);

#endif
