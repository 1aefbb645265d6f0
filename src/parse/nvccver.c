/* nvccver.c: nvcc --version. See nvccver.h. */
#include "nvccver.h"

#include <string.h>

static size_t take_dotted(const char *p, const char *end, char *out, size_t n)
{
	size_t k = 0;
	while (p < end && ((*p >= '0' && *p <= '9') || *p == '.') && k + 1 < n)
		out[k++] = *p++;
	while (k && out[k - 1] == '.')
		k--;
	out[k] = '\0';
	return k;
}

int nvccver_parse(const char *buf, size_t len, char *out, size_t n)
{
	static const char key[] = "Cuda compilation tools, release ";
	if (!n)
		return -1;
	out[0] = '\0';
	const char *m = buf ? memmem(buf, len, key, sizeof key - 1) : NULL;
	if (!m)
		return -1;
	const char *end = buf + len;
	const char *eol = memchr(m, '\n', (size_t)(end - m));
	if (eol)
		end = eol;
	const char *p = m + sizeof key - 1;
	char release[32];
	if (!take_dotted(p, end, release, sizeof release) || release[0] == '.')
		return -1;
	/* Prefer the full ", V12.4.131" when it agrees with the release. */
	const char *v = memmem(p, (size_t)(end - p), ", V", 3);
	char full[32];
	if (v && take_dotted(v + 3, end, full, sizeof full) &&
	    !strncmp(full, release, strlen(release))) {
		if (strlen(full) + 1 > n)
			return -1;
		strcpy(out, full);
		return 0;
	}
	if (strlen(release) + 1 > n)
		return -1;
	strcpy(out, release);
	return 0;
}
