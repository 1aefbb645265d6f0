/*
 * testutil.h: shared helpers for the cmocka unit tests: a scratch directory
 * per test and small file writers, so that parsers and probes can be fed
 * exactly the bytes a test needs.
 */
#ifndef WSLGPU_TESTUTIL_H
#define WSLGPU_TESTUTIL_H

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

/* WSLGPU_TEST_CASE (tests/run-tests.sh NAME:CASE) runs only the test
 * functions whose names match it, a pattern with * and ?; every test's
 * main gets it through cmocka_run_group_tests. */
static inline void tu_select_tests(void)
{
	const char *c = getenv("WSLGPU_TEST_CASE");
	if (c && *c)
		cmocka_set_test_filter(c);
}
#undef cmocka_run_group_tests
#define cmocka_run_group_tests(tests, setup, teardown)                                       \
	(tu_select_tests(), _cmocka_run_group_tests(#tests, tests, sizeof(tests) / sizeof((tests)[0]), \
						   setup, teardown))

/* Creates a fresh directory; the caller frees the returned path. */
static inline char *tu_mkdtemp(void)
{
	const char *base = getenv("TMPDIR");
	char *p = malloc(4096);
	snprintf(p, 4096, "%s/wslgpu-unit.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(p)) {
		free(p);
		return NULL;
	}
	return p;
}

/* mkdir -p for the parent directories of path. */
static inline void tu_mkparents(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *s = buf + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(buf, 0755);
			*s = '/';
		}
}

/* Writes len bytes to dir/rel, creating parent directories. */
static inline void tu_write(const char *dir, const char *rel, const void *data, size_t len)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	tu_mkparents(path);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static inline void tu_write_str(const char *dir, const char *rel, const char *s)
{
	tu_write(dir, rel, s, strlen(s));
}

static inline void tu_symlink(const char *dir, const char *rel, const char *target)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	tu_mkparents(path);
	assert_int_equal(symlink(target, path), 0);
}

/* rm -rf dir (test scratch only). */
static inline void tu_rmtree(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

#endif
