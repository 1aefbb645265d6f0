/* cudaarch.c: arch-list coverage of a compute capability. See cudaarch.h. */
#include "cudaarch.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct entry {
	bool ptx;
	char suffix;   /* '\0', 'a' or 'f' */
	int major, minor;
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "86" -> 8.6, "120" -> 12.0 (the last digit is the minor). */
static bool split_number(const char *d, size_t n, int *major, int *minor)
{
	if (n < 2 || n > 4)
		return false;
	int v = 0;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (d[i] - '0');
	*major = v / 10;
	*minor = v % 10;
	return *major > 0;
}

/* Parses one token; false if it is not an arch entry. */
static bool parse_entry(const char *t, size_t n, struct entry *e)
{
	memset(e, 0, sizeof *e);
	size_t i;
	if (n > 3 && !memcmp(t, "sm_", 3)) {
		i = 3;
	} else if (n > 8 && !memcmp(t, "compute_", 8)) {
		i = 8;
		e->ptx = true;
	} else {
		/* TORCH_CUDA_ARCH_LIST style: "8.6" or "9.0+PTX". */
		size_t k = 0;
		int maj = 0, min;
		while (k < n && k < 3 && is_digit(t[k]))
			maj = maj * 10 + (t[k++] - '0');
		if (!k || k >= n || t[k] != '.' || k + 1 >= n || !is_digit(t[k + 1]))
			return false;
		min = t[k + 1] - '0';
		k += 2;
		if (k == n || (n - k == 4 && !memcmp(t + k, "+PTX", 4))) {
			e->major = maj;
			e->minor = min;
			e->ptx = k != n;
			return maj > 0;
		}
		return false;
	}
	size_t d = i;
	while (i < n && is_digit(t[i]))
		i++;
	if (!split_number(t + d, i - d, &e->major, &e->minor))
		return false;
	if (i < n && (t[i] == 'a' || t[i] == 'f')) {
		e->suffix = t[i];
		i++;
	}
	return i == n;
}

static void name_entry(const struct entry *e, char *out, size_t n)
{
	if (e->suffix)
		snprintf(out, n, "%s_%d%d%c", e->ptx ? "compute" : "sm", e->major, e->minor,
			 e->suffix);
	else
		snprintf(out, n, "%s_%d%d", e->ptx ? "compute" : "sm", e->major, e->minor);
}

static bool sass_runs(const struct entry *e, int major, int minor)
{
	if (e->suffix == 'a')
		return e->major == major && e->minor == minor;
	return e->major == major && e->minor <= minor;
}

static bool ptx_runs(const struct entry *e, int major, int minor)
{
	if (e->suffix == 'a')
		return e->major == major && e->minor == minor;
	if (e->suffix == 'f')
		return e->major == major && e->minor <= minor;
	return e->major < major || (e->major == major && e->minor <= minor);
}

void cudaarch_check(const char *list, size_t len, int major, int minor,
		    struct cudaarch_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->cover = CUDAARCH_UNKNOWN;
	struct entry best_sass = { 0 }, best_ptx = { 0 }, newest = { 0 };
	bool have_sass = false, have_ptx = false, have_newest = false;
	size_t i = 0;
	while (list && i < len) {
		while (i < len && !(is_digit(list[i]) || (list[i] >= 'a' && list[i] <= 'z') ||
				    list[i] == '_' || list[i] == '.' || list[i] == '+' ||
				    (list[i] >= 'A' && list[i] <= 'Z')))
			i++;
		size_t s = i;
		while (i < len && (is_digit(list[i]) || (list[i] >= 'a' && list[i] <= 'z') ||
				   list[i] == '_' || list[i] == '.' || list[i] == '+' ||
				   (list[i] >= 'A' && list[i] <= 'Z')))
			i++;
		struct entry e;
		if (i == s || !parse_entry(list + s, i - s, &e))
			continue;
		v->entries++;
		if (!have_newest || e.major > newest.major ||
		    (e.major == newest.major && e.minor > newest.minor)) {
			newest = e;
			have_newest = true;
		}
		if (!e.ptx && sass_runs(&e, major, minor)) {
			/* Prefer the closest SASS: the one the runtime picks. */
			if (!have_sass || e.minor > best_sass.minor ||
			    (e.minor == best_sass.minor && e.suffix == 'a'))
				best_sass = e;
			have_sass = true;
		} else if (e.ptx && ptx_runs(&e, major, minor)) {
			if (!have_ptx || e.major > best_ptx.major ||
			    (e.major == best_ptx.major && e.minor > best_ptx.minor))
				best_ptx = e;
			have_ptx = true;
		}
	}
	if (have_newest)
		name_entry(&newest, v->newest, sizeof v->newest);
	if (have_sass) {
		v->cover = CUDAARCH_NATIVE;
		name_entry(&best_sass, v->entry, sizeof v->entry);
	} else if (have_ptx) {
		v->cover = CUDAARCH_PTX;
		name_entry(&best_ptx, v->entry, sizeof v->entry);
	} else if (v->entries) {
		v->cover = CUDAARCH_NONE;
	}
}

int cudaarch_parse_cc(const char *s, int *major, int *minor)
{
	if (!s)
		return -1;
	int maj = 0, min = 0, k = 0;
	while (is_digit(*s) && k < 3) {
		maj = maj * 10 + (*s++ - '0');
		k++;
	}
	if (!k || *s != '.' || !is_digit(s[1]))
		return -1;
	s++;
	k = 0;
	while (is_digit(*s) && k < 2) {
		min = min * 10 + (*s++ - '0');
		k++;
	}
	if (*s && *s != ' ' && *s != ')' && *s != ',')
		return -1;
	if (maj == 0 || min > 9)
		return -1;
	*major = maj;
	*minor = min;
	return 0;
}

const char *cudaarch_cover_name(enum cudaarch_cover c)
{
	switch (c) {
	case CUDAARCH_NATIVE: return "native";
	case CUDAARCH_PTX: return "ptx";
	case CUDAARCH_NONE: return "none";
	default: return "unknown";
	}
}
