/* kmodules.c: /proc/modules. See kmodules.h. */
#include "kmodules.h"

#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"

#define KMODULES_MAX 65536

/* Next space-separated field of [*p, end); returns its length. */
static size_t field(const char **p, const char *end, const char **start)
{
	while (*p < end && **p == ' ')
		(*p)++;
	*start = *p;
	while (*p < end && **p != ' ')
		(*p)++;
	return (size_t)(*p - *start);
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

static int all_digits(const char *s, size_t n)
{
	if (n == 0 || n > 19)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* The value of n digits (all_digits checked them). Not strtoul: the field
 * may end the buffer, which need not be NUL-terminated. */
static unsigned long digits_value(const char *s, size_t n)
{
	unsigned long v = 0;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (unsigned long)(s[i] - '0');
	return v;
}

static int parse_line(const char *s, size_t n, struct kmodule *m)
{
	const char *end = s + n, *f;
	size_t len = field(&s, end, &f);
	if (len == 0 || len >= sizeof m->name)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!is_name_char(f[i]))
			return -1;
	memset(m, 0, sizeof *m);
	memcpy(m->name, f, len);
	len = field(&s, end, &f);
	if (!all_digits(f, len))
		return -1;
	m->size = digits_value(f, len);
	len = field(&s, end, &f);
	if (len == 1 && f[0] == '-')
		m->refcount = -1;
	else if (all_digits(f, len))
		m->refcount = (long)digits_value(f, len);
	else
		return -1;
	len = field(&s, end, &f); /* dependents: "-" or "a,b," */
	if (len == 0)
		return -1;
	len = field(&s, end, &f);
	if (len == 0 || len >= sizeof m->state)
		return -1;
	if (!(len == 4 && !memcmp(f, "Live", 4)) && !(len == 7 && !memcmp(f, "Loading", 7)) &&
	    !(len == 9 && !memcmp(f, "Unloading", 9)))
		return -1;
	memcpy(m->state, f, len);
	len = field(&s, end, &f); /* address */
	if (len < 3 || f[0] != '0' || f[1] != 'x')
		return -1;
	len = field(&s, end, &f);
	if (len && f[0] == '(' && len < sizeof m->taint)
		memcpy(m->taint, f, len);
	return 0;
}

int kmodules_parse(const char *buf, size_t len, struct kmodule **mods, size_t *n, size_t *bad)
{
	*mods = NULL;
	*n = 0;
	*bad = 0;
	size_t cap = 0, pos = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		size_t ln = end - pos;
		if (ln && buf[pos + ln - 1] == '\r')
			ln--;
		if (ln) {
			struct kmodule m;
			if (parse_line(buf + pos, ln, &m) < 0) {
				(*bad)++;
			} else if (*n < KMODULES_MAX) {
				if (*n == cap) {
					cap = cap ? cap * 2 : 64;
					*mods = xrealloc(*mods, cap * sizeof **mods);
				}
				(*mods)[(*n)++] = m;
			}
		}
		pos = end + 1;
	}
	return 0;
}

int kmodule_is_nvidia(const char *name)
{
	return !strcmp(name, "nvidia") || !strncmp(name, "nvidia_", 7) ||
	       !strncmp(name, "nvidia-", 7);
}

int kmodule_is_nouveau(const char *name)
{
	return !strcmp(name, "nouveau");
}
