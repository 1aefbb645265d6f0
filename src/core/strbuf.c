/* strbuf.c: growable strings and checked allocation. See strbuf.h. */
#include "strbuf.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

static void die_oom(size_t n)
{
	errorf("out of memory (%zu bytes)", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die_oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	return sb_detach(&sb);
}

void sb_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need < sb->len)
		die_oom(SIZE_MAX);
	if (need <= sb->alloc)
		return;
	size_t n = sb->alloc ? sb->alloc : 64;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			die_oom(need);
		n *= 2;
	}
	sb->buf = xrealloc(sb->buf, n);
	sb->alloc = n;
	sb->buf[sb->len] = '\0'; /* a first allocation holds "" at once */
}

void sb_addn(struct strbuf *sb, const void *data, size_t n)
{
	sb_grow(sb, n);
	if (n)
		memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_add(struct strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addc(struct strbuf *sb, char c)
{
	sb_addn(sb, &c, 1);
}

void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	sb_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *sb_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");
	sb_init(sb);
	return p;
}

void sb_rtrim(struct strbuf *sb)
{
	while (sb->len && strchr(" \t\r\n", sb->buf[sb->len - 1]))
		sb->buf[--sb->len] = '\0';
}

const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

int sb_read_fd(struct strbuf *sb, int fd, size_t cap, bool *truncated)
{
	if (truncated)
		*truncated = false;
	for (;;) {
		size_t want = cap > sb->len ? cap - sb->len : 0;
		if (want == 0) {
			char probe;
			ssize_t m;
			do
				m = read(fd, &probe, 1);
			while (m < 0 && errno == EINTR);
			if (m > 0 && truncated)
				*truncated = true;
			return 0;
		}
		/* Into the room there is (a caller that knows the size made it:
		 * one read, no copy), else 64 KiB more. */
		size_t room = sb->alloc > sb->len ? sb->alloc - sb->len - 1 : 0;
		if (room >= 4096 || room >= want) {
			if (want > room)
				want = room;
		} else {
			if (want > 65536)
				want = 65536;
			sb_grow(sb, want);
		}
		ssize_t n = read(fd, sb->buf + sb->len, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return 0;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
}

void sb_add_base64(struct strbuf *sb, const void *data, size_t n, bool url)
{
	static const char std[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	const char *b64 = url ? safe : std;
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		sb_addc(sb, b64[(v >> 18) & 63]);
		sb_addc(sb, b64[(v >> 12) & 63]);
		sb_addc(sb, i + 1 < n ? b64[(v >> 6) & 63] : '=');
		sb_addc(sb, i + 2 < n ? b64[v & 63] : '=');
	}
}
