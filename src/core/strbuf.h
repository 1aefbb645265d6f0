/*
 * strbuf: the one growable string of the project (after git's strbuf).
 *
 * A strbuf is always NUL-terminated, so buf can be passed to any C string
 * function; len counts bytes without the terminator and may include NULs
 * when binary data was appended with sb_addn. Allocation failure aborts:
 * a diagnostic tool that cannot allocate a few KiB cannot say anything
 * useful anyway, and threading ENOMEM through every caller hides bugs.
 */
#ifndef WSLGPU_STRBUF_H
#define WSLGPU_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void sb_init(struct strbuf *sb);
void sb_release(struct strbuf *sb);
void sb_reset(struct strbuf *sb);
void sb_grow(struct strbuf *sb, size_t extra);
void sb_addn(struct strbuf *sb, const void *data, size_t n);
void sb_add(struct strbuf *sb, const char *s);
void sb_addc(struct strbuf *sb, char c);
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Returns the buffer ("" for an empty strbuf) and leaves sb empty. */
char *sb_detach(struct strbuf *sb);
/* Appends n bytes as base64 with '=' padding (RFC 4648): the standard
 * alphabet (section 4), or with url the URL-safe one (section 5). */
void sb_add_base64(struct strbuf *sb, const void *data, size_t n, bool url);
/* Strips trailing whitespace (spaces, tabs, CR, LF). */
void sb_rtrim(struct strbuf *sb);
/*
 * Appends what fd holds until end of file, or until sb holds cap bytes;
 * *truncated (may be NULL) then says whether there was more. Returns 0
 * or -errno (what was read so far stays in sb).
 */
int sb_read_fd(struct strbuf *sb, int fd, size_t cap, bool *truncated);
/* Never returns NULL: "" for a strbuf that holds nothing. */
const char *sb_str(const struct strbuf *sb);

/* xmalloc family: abort with a message on allocation failure. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
