/* dpkg.c: dpkg's .list files. See dpkg.h. */
#include "dpkg.h"

#include <errno.h>
#include <string.h>

int dpkg_list_each(const char *buf, size_t len,
		   int (*fn)(const char *line, size_t n, void *arg), void *arg)
{
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		size_t n = end - pos;
		if (n && buf[pos + n - 1] == '\r')
			n--;
		if (n) {
			int rc = fn(buf + pos, n, arg);
			if (rc)
				return rc;
		}
		pos = end + 1;
	}
	return 0;
}

struct has_arg {
	const char *path;
	size_t n;
};

static int has_line(const char *line, size_t n, void *arg)
{
	const struct has_arg *a = arg;
	return n == a->n && memcmp(line, a->path, n) == 0;
}

bool dpkg_list_has(const char *buf, size_t len, const char *path)
{
	struct has_arg a = { path, strlen(path) };
	return a.n && dpkg_list_each(buf, len, has_line, &a) == 1;
}

bool dpkg_valid_name(const char *s, size_t n)
{
	/* Debian policy 5.6.1: at least two characters, lower case letters,
	 * digits, '+', '-', '.', starting with an alphanumeric. */
	if (n < 2 || n > 200)
		return false;
	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
		return false;
	for (size_t i = 1; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
		      c == '.'))
			return false;
	}
	return true;
}

int dpkg_list_package(const char *fname, struct strbuf *pkg)
{
	sb_reset(pkg);
	size_t n = strlen(fname);
	if (n <= 5 || strcmp(fname + n - 5, ".list") != 0)
		return -EINVAL;
	n -= 5;
	const char *colon = memchr(fname, ':', n);
	size_t name_len = colon ? (size_t)(colon - fname) : n;
	if (!dpkg_valid_name(fname, name_len))
		return -EINVAL;
	if (colon) {
		/* The architecture qualifier: amd64, i386, arm64, all, ... */
		size_t alen = n - name_len - 1;
		if (alen == 0 || alen > 32)
			return -EINVAL;
		for (size_t i = 0; i < alen; i++) {
			char c = colon[1 + i];
			if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
				return -EINVAL;
		}
	}
	sb_addn(pkg, fname, name_len);
	return 0;
}
