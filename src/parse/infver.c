/* infver.c: DriverVer of a Windows .inf. See infver.h. */
#include "infver.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../core/strbuf.h"

/* Keeps the ASCII of UTF-16 text (either byte order), else copies. */
static void ascii_text(const unsigned char *b, size_t len, struct strbuf *out)
{
	size_t even = 0, odd = 0;
	for (size_t i = 0; i + 1 < len; i += 2) {
		even += b[i] == 0;
		odd += b[i + 1] == 0;
	}
	size_t pairs = len / 2;
	bool le = len >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (pairs && odd * 2 > pairs));
	bool be = !le && len >= 2 && ((b[0] == 0xfe && b[1] == 0xff) || (pairs && even * 2 > pairs));
	if (!le && !be) {
		sb_addn(out, b, len);
		return;
	}
	for (size_t i = 0; i + 1 < len; i += 2) {
		unsigned char lo = le ? b[i] : b[i + 1], hi = le ? b[i + 1] : b[i];
		if (hi == 0 && lo)
			sb_addc(out, (char)lo);
	}
}

static int parse_value(const char *p, const char *end, struct infver *iv)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	/* mm/dd/yyyy */
	const char *d = p;
	while (p < end && (isdigit((unsigned char)*p) || *p == '/'))
		p++;
	size_t dn = (size_t)(p - d);
	if (dn < 8 || dn >= sizeof iv->date)
		return -EINVAL;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != ',')
		return -EINVAL;
	p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	const char *v = p;
	while (p < end && (isdigit((unsigned char)*p) || *p == '.'))
		p++;
	size_t vn = (size_t)(p - v);
	if (vn == 0 || vn >= sizeof iv->windows)
		return -EINVAL;
	memcpy(iv->date, d, dn);
	iv->date[dn] = '\0';
	memcpy(iv->windows, v, vn);
	iv->windows[vn] = '\0';
	return 0;
}

int infver_find(const char *buf, size_t len, struct infver *iv)
{
	memset(iv, 0, sizeof *iv);
	if (!buf || !len)
		return -ENOENT;
	struct strbuf t = STRBUF_INIT;
	ascii_text((const unsigned char *)buf, len, &t);
	if (!t.len) { /* nothing text-like: t.buf is still NULL */
		sb_release(&t);
		return -ENOENT;
	}
	int rc = -ENOENT;
	const char *p = t.buf, *end = t.buf + t.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *s = p;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (eol - s > 9 && strncasecmp(s, "DriverVer", 9) == 0) {
			s += 9;
			while (s < eol && (*s == ' ' || *s == '\t'))
				s++;
			if (s < eol && *s == '=') {
				rc = parse_value(s + 1, eol, iv);
				break;
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	sb_release(&t);
	return rc;
}

int infver_nvidia(const char *windows, char *out, size_t outlen)
{
	unsigned long part[4];
	int n = 0;
	const char *p = windows;
	if (!p)
		return -EINVAL;
	while (n < 4) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		unsigned long x = 0;
		int digits = 0;
		for (; isdigit((unsigned char)*p); p++) {
			if (++digits > 9)
				return -EINVAL;
			x = x * 10 + (unsigned long)(*p - '0');
		}
		part[n++] = x;
		if (n < 4) {
			if (*p != '.')
				return -EINVAL;
			p++;
		}
	}
	if (*p || part[3] > 9999)
		return -EINVAL;
	unsigned long major = (part[2] % 10) * 100 + part[3] / 100;
	unsigned long minor = part[3] % 100;
	if (major < 100)
		return -EINVAL;
	int w = snprintf(out, outlen, "%lu.%02lu", major, minor);
	return w > 0 && (size_t)w < outlen ? 0 : -EINVAL;
}
