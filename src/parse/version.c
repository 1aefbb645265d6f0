/* version.c: dotted version numbers. See version.h. */
#include "version.h"

#include <ctype.h>
#include <limits.h>
#include <string.h>

int version_parse(const char *s, struct version *v)
{
	memset(v, 0, sizeof *v);
	while (*s == ' ' || *s == 'v' || *s == 'V')
		s++;
	while (v->n < VERSION_MAX_PARTS && isdigit((unsigned char)*s)) {
		long x = 0;
		while (isdigit((unsigned char)*s)) {
			if (x < LONG_MAX / 10)
				x = x * 10 + (*s - '0');
			s++;
		}
		v->part[v->n++] = x;
		if (*s != '.' || !isdigit((unsigned char)s[1]))
			break;
		s++;
	}
	return v->n ? 0 : -1;
}

int version_cmp(const struct version *a, const struct version *b)
{
	for (int i = 0; i < VERSION_MAX_PARTS; i++) {
		long x = i < a->n ? a->part[i] : 0, y = i < b->n ? b->part[i] : 0;
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}
