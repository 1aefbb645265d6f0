/*
 * version: dotted version numbers ("5.15.167.4-microsoft-standard-WSL2",
 * "551.23", "12.4") for comparisons against minimums. The leading run of
 * dot-separated integers is taken; the rest is ignored.
 */
#ifndef WSLGPU_VERSION_PARSE_H
#define WSLGPU_VERSION_PARSE_H

#define VERSION_MAX_PARTS 6

struct version {
	long part[VERSION_MAX_PARTS];
	int n;
};

/* Returns 0, or -1 when s does not start with a number. */
int version_parse(const char *s, struct version *v);
/* <0, 0, >0 like strcmp; missing parts count as 0. */
int version_cmp(const struct version *a, const struct version *b);

#endif
