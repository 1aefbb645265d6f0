/* sigmatch.c: KB signatures in captured output. See sigmatch.h. */
#include "sigmatch.h"

#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/strbuf.h"

/* A C string of text with NULs turned into spaces (regexec and strcasestr
 * stop at the first NUL; a vendor library's output may hold several). */
static char *c_copy(const char *text, size_t len)
{
	char *s = xmalloc(len + 1);
	for (size_t i = 0; i < len; i++)
		s[i] = text[i] ? text[i] : ' ';
	s[len] = '\0';
	return s;
}

/* Compiled regexes of the built-in KB, made once per process (a probe
 * child asks a few times; the fuzzer millions), indexed by entry, then by
 * pattern. A pattern that does not compile stays !ok (make check rejects
 * those; here they must never crash). */
struct compiled_re {
	bool ok;
	regex_t re;
};
static struct compiled_re **compiled;

static const regex_t *regex_for(const struct kb_entry *e, size_t k)
{
	const struct kb *kb = kb_builtin();
	if (e < kb->e || e >= kb->e + kb->n)
		return NULL; /* not a built-in entry: compiled by the caller */
	if (!compiled)
		compiled = xcalloc(kb->n ? kb->n : 1, sizeof *compiled);
	size_t i = (size_t)(e - kb->e);
	if (!compiled[i]) {
		compiled[i] = xcalloc(e->regex.n ? e->regex.n : 1, sizeof **compiled);
		for (size_t j = 0; j < e->regex.n; j++)
			compiled[i][j].ok = regcomp(&compiled[i][j].re, e->regex.v[j],
						    REG_EXTENDED | REG_ICASE | REG_NOSUB) == 0;
	}
	return compiled[i][k].ok ? &compiled[i][k].re : NULL;
}

static bool matches(const struct kb_entry *e, const char *s)
{
	for (size_t i = 0; i < e->match.n; i++)
		if (*e->match.v[i] && strcasestr(s, e->match.v[i]))
			return true;
	for (size_t i = 0; i < e->regex.n; i++) {
		const regex_t *re = regex_for(e, i);
		if (re) {
			if (regexec(re, s, 0, NULL, 0) == 0)
				return true;
			continue;
		}
		regex_t own;
		if (regcomp(&own, e->regex.v[i], REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0)
			continue;
		int rc = regexec(&own, s, 0, NULL, 0);
		regfree(&own);
		if (rc == 0)
			return true;
	}
	return false;
}

int sig_entry_matches(const struct kb_entry *e, const char *text, size_t len)
{
	if (!e || !text)
		return 0;
	char *s = c_copy(text, len);
	bool hit = matches(e, s);
	free(s);
	return hit;
}

const struct kb_entry *sig_match(const char *prefix, const char *text, size_t len)
{
	if (!text || !len)
		return NULL;
	const struct kb *kb = kb_builtin();
	size_t pl = strlen(prefix);
	char *s = c_copy(text, len);
	const struct kb_entry *hit = NULL;
	for (size_t i = 0; i < kb->n && !hit; i++) {
		const struct kb_entry *e = &kb->e[i];
		if (strncmp(e->id, prefix, pl) != 0 || (!e->match.n && !e->regex.n))
			continue;
		if (matches(e, s))
			hit = e;
	}
	free(s);
	return hit;
}
