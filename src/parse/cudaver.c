/* cudaver.c: CUDA version encodings. See cudaver.h. */
#include "cudaver.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void cudaver_format(int v, char *buf, size_t n)
{
	if (!n)
		return;
	if (v <= 0) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

int cudaver_from_string(const char *s)
{
	long major = 0, minor = 0;
	int digits = 0;
	while (isdigit((unsigned char)*s) && digits < 6) {
		major = major * 10 + (*s++ - '0');
		digits++;
	}
	if (!digits || *s != '.' || !isdigit((unsigned char)s[1]))
		return -1;
	s++;
	digits = 0;
	while (isdigit((unsigned char)*s) && digits < 3) {
		minor = minor * 10 + (*s++ - '0');
		digits++;
	}
	if (major > 1000 || minor > 99)
		return -1;
	return (int)(major * 1000 + minor * 10);
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* Copies a dotted number at p (up to end) into out; returns 0 if any. */
static int take_version(const char *p, const char *end, char *out, size_t n)
{
	size_t k = 0;
	while (p < end && (isdigit((unsigned char)*p) || *p == '.') && k + 1 < n)
		out[k++] = *p++;
	while (k && out[k - 1] == '.')
		k--;
	out[k] = '\0';
	return k && isdigit((unsigned char)out[0]) ? 0 : -1;
}

/* In [p, end): the string value of "key" : "value" inside the first object. */
static int json_version(const char *p, const char *end, char *out, size_t n)
{
	static const char key[] = "\"version\"";
	int depth = 0;
	while (p < end) {
		if (*p == '{') {
			depth++;
		} else if (*p == '}') {
			if (--depth < 0)
				return -1;
		} else if (depth == 0 && (size_t)(end - p) >= sizeof key - 1 &&
			   memcmp(p, key, sizeof key - 1) == 0) {
			const char *q = skip_space(p + sizeof key - 1, end);
			if (q < end && *q == ':') {
				q = skip_space(q + 1, end);
				if (q < end && *q == '"')
					return take_version(q + 1, end, out, n);
			}
		}
		p++;
	}
	return -1;
}

int cudaver_toolkit_parse(const char *buf, size_t len, char *out, size_t n)
{
	if (!n)
		return -1;
	out[0] = '\0';
	const char *end = buf + len;
	static const char key[] = "\"cuda\"";
	for (const char *p = buf; p && p < end;) {
		p = memmem(p, (size_t)(end - p), key, sizeof key - 1);
		if (!p)
			break;
		const char *q = skip_space(p + sizeof key - 1, end);
		if (q < end && *q == ':') {
			q = skip_space(q + 1, end);
			if (q < end && *q == '{' && json_version(q + 1, end, out, n) == 0)
				return 0;
		}
		p += sizeof key - 1;
	}
	static const char txt[] = "CUDA Version ";
	const char *t = memmem(buf, len, txt, sizeof txt - 1);
	if (t)
		return take_version(t + sizeof txt - 1, end, out, n);
	return -1;
}
