/* osrelease.c: os-release(5) values. See osrelease.h. */
#include "osrelease.h"

#include <string.h>

static void unquote(const char *v, size_t n, struct strbuf *out)
{
	sb_reset(out);
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
		n--;
	if (n >= 1 && (v[0] == '"' || v[0] == '\'')) {
		char q = v[0];
		size_t i = 1;
		for (; i < n && v[i] != q; i++) {
			if (q == '"' && v[i] == '\\' && i + 1 < n)
				i++;
			sb_addc(out, v[i]);
		}
		return;
	}
	sb_addn(out, v, n);
}

int osrelease_get(const char *text, size_t len, const char *key, struct strbuf *val)
{
	size_t kl = strlen(key);
	size_t pos = 0;
	while (pos < len) {
		size_t end = pos;
		while (end < len && text[end] != '\n' && text[end] != '\0')
			end++;
		const char *line = text + pos;
		size_t ll = end - pos;
		while (ll && (*line == ' ' || *line == '\t')) {
			line++;
			ll--;
		}
		if (ll > kl && memcmp(line, key, kl) == 0 && line[kl] == '=') {
			unquote(line + kl + 1, ll - kl - 1, val);
			return 0;
		}
		pos = end + 1;
	}
	return -1;
}
