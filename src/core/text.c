/* text.c: see text.h. */
#include "text.h"

#include <ctype.h>
#include <string.h>

#define TEXT_DISTANCE_MAX_LEN 40

int text_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > TEXT_DISTANCE_MAX_LEN || lb > TEXT_DISTANCE_MAX_LEN)
		return 99;
	int prev[TEXT_DISTANCE_MAX_LEN + 1], cur[TEXT_DISTANCE_MAX_LEN + 1];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			int best = prev[j - 1] + cost;
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			cur[j] = best;
		}
		memcpy(prev, cur, sizeof cur);
	}
	return prev[lb];
}

bool text_shell_safe(const char *v)
{
	if (!*v)
		return false;
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;
		if (!(c < 0x80 && isalnum(c)) && !strchr("@%+=:,./-_", c))
			return false;
	}
	return true;
}

void text_shell_quote(struct strbuf *out, const char *v)
{
	if (text_shell_safe(v)) {
		sb_add(out, v);
		return;
	}
	sb_addc(out, '\'');
	for (; *v; v++)
		if (*v == '\'')
			sb_add(out, "'\\''");
		else
			sb_addc(out, *v);
	sb_addc(out, '\'');
}
