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
