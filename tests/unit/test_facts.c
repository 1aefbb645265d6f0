/*
 * test_facts.c: the version facts users act on, and the commands that act.
 *
 *  - Every version a knowledge-base text names (a driver branch R580, a
 *    CUDA release, a PyTorch release or wheel tag, a WSL release) is one the
 *    dated tables know (src/kb/versions.h, driver_table.h), so that a fact
 *    that went stale shows as a table to update; the tables are in order and
 *    their stated newest rows are their newest.
 *
 *  - Advice that only a thread supports says it is reported.
 */
#include "testutil.h"

#include <ctype.h>
#include <regex.h>

#include "core/result.h"
#include "kb/driver_table.h"
#include "kb/kb.h"
#include "kb/versions.h"
#include "parse/version.h"

/* cmocka cuts long messages: print every line, then fail. */
static void fail_with(struct strbuf *errs)
{
	if (!errs->len)
		return;
	fprintf(stderr, "%s", errs->buf);
	fail_msg("problems above");
}

/* ---- every version the knowledge base names is in a table ---- */

static bool branch_known(int b)
{
	if (driver_branch_find(b))
		return true;
	/* Or the branch of a driver of the CUDA release -> driver table. */
	size_t n;
	const struct cuda_driver_row *r = cuda_driver_table(&n);
	for (size_t i = 0; i < n; i++)
		if ((r[i].linux_min && atoi(r[i].linux_min) == b) ||
		    (r[i].windows_min && atoi(r[i].windows_min) == b))
			return true;
	return false;
}

static bool cuda_known(const char *v)
{
	int major = atoi(v);
	const char *dot = strchr(v, '.');
	if (!dot || !isdigit((unsigned char)dot[1]))
		/* "CUDA 13", "CUDA 12.x": a major the tables know */
		return cuda_family_min_driver(major, false) || cuda_arch_floor_of(major);
	return cuda_driver_row_for(v) != NULL;
}

static bool torch_known(const char *v)
{
	size_t n;
	const struct torch_wheel *w = torch_wheels(&n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w[i].torch, v))
			return true;
	const struct torch_note *t = torch_notes(&n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].torch, v))
			return true;
	return false;
}

static bool tag_known(const char *tag)
{
	size_t n;
	const struct torch_wheel *w = torch_wheels(&n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w[i].tag, tag))
			return true;
	return false;
}

static bool wsl_known(const char *v)
{
	struct version want, a, b;
	if (version_parse(v, &want) < 0)
		return false;
	size_t n;
	const struct wsl_release *r = wsl_releases(&n);
	for (size_t i = 0; i < n; i++) {
		version_parse(r[i].first, &a);
		version_parse(r[i].last, &b);
		/* within a range of one release line (2.8.5 to 2.8.8) */
		if (a.part[0] == want.part[0] && a.part[1] == want.part[1] &&
		    version_cmp(&want, &a) >= 0 && version_cmp(&want, &b) <= 0)
			return true;
		if (version_cmp(&want, &a) >= 0 && version_cmp(&want, &b) <= 0 &&
		    !strcmp(r[i].first, r[i].last))
			return true;
	}
	return false;
}

enum vkind { V_BRANCH, V_CUDA, V_TOOLKIT_PKG, V_TORCH, V_TAG, V_WSL };

static const struct {
	enum vkind kind;
	const char *re; /* the version is the first subexpression */
	const char *what;
} version_res[] = {
	{ V_BRANCH, "(^|[^A-Za-z0-9])R([0-9]{3})([^0-9]|$)", "driver branch R" },
	{ V_CUDA, "CUDA ([0-9]+(\\.[0-9x]+)?)", "CUDA " },
	{ V_TOOLKIT_PKG, "cuda-toolkit-([0-9]+-[0-9]+)", "cuda-toolkit-" },
	{ V_TORCH, "(PyTorch|torch) ([0-9]+\\.[0-9]+)", "PyTorch " },
	{ V_TAG, "(^|[^A-Za-z0-9])(cu1[0-9][0-9])([^0-9]|$)", "wheel tag " },
	{ V_WSL, "WSL ([0-9]+\\.[0-9]+\\.[0-9]+)", "WSL " },
};

static bool known(enum vkind k, const char *v)
{
	char buf[32];
	switch (k) {
	case V_BRANCH: return branch_known(atoi(v));
	case V_CUDA: return cuda_known(v);
	case V_TOOLKIT_PKG:
		snprintf(buf, sizeof buf, "%s", v);
		if (strchr(buf, '-'))
			*strchr(buf, '-') = '.';
		return cuda_known(buf);
	case V_TORCH: return torch_known(v);
	case V_TAG: return tag_known(v);
	case V_WSL: return wsl_known(v);
	}
	return false;
}

/* The versions text names that no table knows, into errs. */
static void check_versions(const char *what, const char *text, struct strbuf *errs)
{
	if (!text)
		return;
	for (size_t r = 0; r < sizeof version_res / sizeof version_res[0]; r++) {
		regex_t re;
		assert_int_equal(regcomp(&re, version_res[r].re, REG_EXTENDED), 0);
		/* The version: the subexpression after any leading context. */
		int sub = version_res[r].kind == V_BRANCH || version_res[r].kind == V_TORCH ||
				  version_res[r].kind == V_TAG
			  ? 2
			  : 1;
		regmatch_t m[4];
		for (const char *p = text; regexec(&re, p, 4, m, p == text ? 0 : REG_NOTBOL) == 0;
		     p += m[0].rm_eo ? m[0].rm_eo : 1) {
			char v[32];
			int len = (int)(m[sub].rm_eo - m[sub].rm_so);
			snprintf(v, sizeof v, "%.*s", len < 31 ? len : 31, p + m[sub].rm_so);
			if (!known(version_res[r].kind, v))
				sb_addf(errs, "%s names %s%s, which no version table knows\n", what,
					version_res[r].what, v);
			if (!*p)
				break;
		}
		regfree(&re);
	}
}

static void test_kb_versions_known(void **state)
{
	(void)state;
	/* The checker itself. */
	struct strbuf errs = STRBUF_INIT;
	check_versions("t", "R580 is the last; CUDA 13.0 and CUDA 12.x; cuda-toolkit-12-9; "
			    "PyTorch 2.14 with cu126; WSL 2.8.7 and WSL 0.67.6; CUDA 9", &errs);
	assert_int_equal(errs.len, 0);
	check_versions("t", "R999, CUDA 12.7, cuda-toolkit-13-9, torch 2.16, cu129, WSL 2.8.13",
		       &errs);
	for (const char *w = "R999|CUDA 12.7|cuda-toolkit-13-9|PyTorch 2.16|tag cu129|WSL 2.8.13";
	     *w;) {
		size_t n = strcspn(w, "|");
		char one[32];
		snprintf(one, sizeof one, "%.*s", (int)n, w);
		if (!strstr(errs.buf, one))
			fail_msg("not caught: %s in %s", one, errs.buf);
		w += n + (w[n] == '|');
	}
	sb_reset(&errs);

	const struct kb *kb = kb_builtin();
	struct strbuf what = STRBUF_INIT;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		sb_reset(&what);
		sb_addf(&what, "%s:%d: [%s]", e->file, e->line, e->id);
		check_versions(what.buf, e->title, &errs);
		check_versions(what.buf, e->cause, &errs);
		for (size_t j = 0; j < e->fix.n; j++)
			check_versions(what.buf, e->fix.v[j], &errs);
	}
	fail_with(&errs);
	sb_release(&errs);
	sb_release(&what);
}

/* ---- advice that only a thread supports says it is reported ---- */

/*
 * WSL start-up fixes and single-application commands (explain.wslstart.*,
 * explain.apps.*) whose every source is an issue, pull request, discussion
 * or forum thread: the cause says the advice is reported (a workaround
 * users or maintainers reported), so that nobody takes it for documented
 * behaviour. The others cite a primary source (Microsoft's WSL
 * documentation, the project's own documentation or code).
 */
static bool thread_source(const char *url)
{
	regex_t re;
	assert_int_equal(regcomp(&re,
				 "github\\.com/[^/]+/[^/]+/(issues|pull|discussions)/|forums?\\.|"
				 "discuss\\.|stackoverflow\\.com|superuser\\.com|askubuntu\\.com|reddit\\.com",
				 REG_EXTENDED | REG_NOSUB | REG_ICASE),
			 0);
	bool hit = regexec(&re, url, 0, NULL, 0) == 0;
	regfree(&re);
	return hit;
}

static void test_thread_only_advice_says_reported(void **state)
{
	(void)state;
	assert_true(thread_source("https://github.com/microsoft/WSL/issues/9866"));
	assert_true(thread_source("https://forums.developer.nvidia.com/t/x/1"));
	assert_false(thread_source("https://learn.microsoft.com/en-us/windows/wsl/troubleshooting"));
	assert_false(thread_source("https://github.com/microsoft/WSL/blob/master/src/windows/common/WslCoreConfig.cpp"));
	const struct kb *kb = kb_builtin();
	struct strbuf errs = STRBUF_INIT;
	size_t checked = 0;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		if ((strncmp(e->id, "explain.wslstart.", 17) && strncmp(e->id, "explain.apps.", 13)) ||
		    !strcmp(e->kind, "signature") || !e->source.n)
			continue;
		bool only = true;
		for (size_t j = 0; j < e->source.n && only; j++)
			only = thread_source(e->source.v[j]);
		if (!only)
			continue;
		checked++;
		if (!e->cause || !strcasestr(e->cause, "report"))
			sb_addf(&errs, "%s:%d: [%s] cites only threads and does not say its advice is "
				"reported\n", e->file, e->line, e->id);
	}
	assert_true(checked > 0);
	fail_with(&errs);
	sb_release(&errs);
}

/* ---- the tables: in order, their newest rows as stated ---- */

static void test_tables_in_order(void **state)
{
	(void)state;
	size_t n;
	const struct driver_branch *b = driver_branches(&n);
	for (size_t i = 1; i < n; i++)
		assert_true(b[i - 1].branch > b[i].branch);
	assert_int_equal(driver_last_branch_for_cc(61), 580);
	assert_int_equal(driver_last_branch_for_cc(70), 580);
	assert_int_equal(driver_last_branch_for_cc(75), 0);
	assert_int_equal(driver_last_branch_for_cc(37), 470);
	assert_true(driver_newer_than_known("640.10"));
	assert_false(driver_newer_than_known("620.01"));
	assert_false(driver_newer_than_known("580.95.05"));

	const struct torch_wheel *w = torch_wheels(&n);
	struct version a, c;
	for (size_t i = 1; i < n; i++) {
		version_parse(w[i - 1].torch, &a);
		version_parse(w[i].torch, &c);
		int d = version_cmp(&a, &c);
		assert_true(d > 0 || (d == 0 && w[i - 1].cuda > w[i].cuda));
		assert_true(w[i].announced <= w[i - 1].announced || d > 0);
	}
	assert_string_equal(torch_newest_known(), "2.14");
	/* The architectures are those of RELEASE.md's support matrix. */
	const struct torch_wheel *cu126 = NULL, *cu132 = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(w[i].torch, "2.14") && !strcmp(w[i].tag, "cu126"))
			cu126 = &w[i];
		if (!strcmp(w[i].torch, "2.14") && !strcmp(w[i].tag, "cu132"))
			cu132 = &w[i];
	}
	assert_true(cu126 && cu132 && cu132->pypi && !cu126->pypi);
	assert_true(torch_wheel_covers(cu126, 61) && torch_wheel_covers(cu126, 52));
	assert_false(torch_wheel_covers(cu126, 120));
	assert_false(torch_wheel_covers(cu132, 61));
	assert_true(torch_wheel_covers(cu132, 89) && torch_wheel_covers(cu132, 121));

	const struct wsl_release *r = wsl_releases(&n);
	for (size_t i = 1; i < n; i++) {
		version_parse(r[i - 1].first, &a);
		version_parse(r[i].first, &c);
		assert_true(version_cmp(&a, &c) > 0);
	}
	char buf[128];
	assert_string_equal(wsl_releases_of_kernel("6.6.87.2-microsoft-standard-WSL2", buf,
						   sizeof buf),
			    "2.5.9 to 2.6.3");
	assert_string_equal(wsl_releases_of_kernel("6.6.114.1", buf, sizeof buf),
			    "2.8.0 to 2.8.4, 2.7.0 to 2.7.3");
	assert_null(wsl_releases_of_kernel("5.15.167.4-microsoft-standard-WSL2", buf, sizeof buf));
	assert_true(wsl_kernel_newer_than_known("6.18.40.1-microsoft-standard-WSL2"));
	assert_false(wsl_kernel_newer_than_known("5.15.167.4-microsoft-standard-WSL2"));
	assert_true(wsl_newer_than_known("2.10.0"));
	assert_false(wsl_newer_than_known("2.9.4"));

	const struct ctk_release *k = ctk_releases(&n);
	for (size_t i = 1; i < n; i++) {
		version_parse(k[i - 1].version, &a);
		version_parse(k[i].version, &c);
		assert_true(version_cmp(&a, &c) > 0);
	}
	assert_true(ctk_newer_than_known("1.21.0"));
	assert_false(ctk_newer_than_known("1.18.2"));

	const struct tf_build *t = tf_builds(&n);
	for (size_t i = 1; i < n; i++) {
		version_parse(t[i - 1].tensorflow, &a);
		version_parse(t[i].tensorflow, &c);
		assert_true(version_cmp(&a, &c) > 0);
	}
	assert_int_equal(cuda_arch_floor_of(13), 75);
	assert_int_equal(cuda_arch_floor_of(12), 50);

	/* Each table names its sources, its date, and its newest row. */
	const struct version_table *vt = version_tables(&n);
	assert_true(n >= 8);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(strstr(vt[i].sources, "https://"));
		assert_int_equal(strlen(vt[i].checked), 10);
		assert_true(strncmp(vt[i].checked, KNOWLEDGE_DATE, strlen(KNOWLEDGE_DATE)) <= 0);
	}
	char newest[64];
	snprintf(newest, sizeof newest, "CUDA %s", cuda_newest_known()->release);
	assert_string_equal(vt[0].newest, newest);
	bool torch = false, wsl = false, ctk = false;
	for (size_t i = 0; i < n; i++) {
		char want[64];
		snprintf(want, sizeof want, "PyTorch %s", torch_newest_known());
		torch |= !strncmp(vt[i].newest, want, strlen(want));
		snprintf(want, sizeof want, "WSL %s, kernel %s", wsl_newest_known(),
			 wsl_newest_kernel_known());
		wsl |= !strcmp(vt[i].newest, want);
		ctk |= !strcmp(vt[i].newest, k[0].version);
	}
	assert_true(torch && wsl && ctk);
}

/* ---- newer than known: said so, never an older row ---- */

static void test_newer_than_known(void **state)
{
	(void)state;
	struct strbuf w = STRBUF_INIT;
	versions_newer_words(&w, "CUDA", "14.0", "CUDA 13.5 GA");
	assert_string_equal(w.buf, "CUDA 14.0 is newer than this tool's knowledge of " KNOWLEDGE_DATE
				   " (its table ends at CUDA 13.5 GA)");
	sb_release(&w);
	assert_true(cuda_newer_than_known(13, 6));
	assert_false(cuda_newer_than_known(13, 5));
	assert_string_equal(KNOWLEDGE_DATE, "2026-12");

	/* Each kind against its own table; not newer: nothing written. */
	static const struct {
		const char *kind, *version, *words;
	} t[] = {
		{ "cuda", "13.6", "CUDA 13.6 is newer than this tool's knowledge of 2026-12 (its "
				  "table ends at CUDA 13.5 GA)" },
		{ "cuda", "14.0.48", "CUDA 14.0.48 is newer" },
		{ "cuda", "13.5", NULL },
		{ "cuda", "12.9", NULL },
		{ "driver", "640.10.01", "driver 640.10.01 is newer than this tool's knowledge of "
					 "2026-12 (its table ends at R620)" },
		{ "driver", "595.71.05", NULL },
		{ "wsl", "2.10.2", "WSL 2.10.2 is newer" },
		{ "wsl", "2.9.4", NULL },
		{ "wsl-kernel", "6.19.1.1-microsoft-standard-WSL2", "kernel 6.19.1.1-microsoft-standard-WSL2 is newer" },
		{ "torch", "2.16.0+cu132", "PyTorch 2.16.0+cu132 is newer than this tool's knowledge of "
					   "2026-12 (its table ends at PyTorch 2.15)" },
		{ "torch", "2.15.1", NULL },
		{ "torch", "2.14.0+cu126", NULL },
		{ "tensorflow", "2.22.0", "TensorFlow 2.22.0 is newer" },
		{ "tensorflow", "2.21.0", NULL },
		{ "container-toolkit", "1.21.0", "NVIDIA Container Toolkit 1.21.0 is newer" },
		{ "container-toolkit", "1.18.2", NULL },
		{ "jax", "0.12.0", NULL },
		{ "cuda", "junk", NULL },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct strbuf o = STRBUF_INIT;
		bool n = versions_newer(t[i].kind, t[i].version, &o);
		if (n != (t[i].words != NULL) || (t[i].words && strncmp(o.buf, t[i].words, strlen(t[i].words))) ||
		    (!n && o.len))
			fail_msg("%s %s: %d \"%s\"", t[i].kind, t[i].version, n, sb_str(&o));
		sb_release(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kb_versions_known),
		cmocka_unit_test(test_thread_only_advice_says_reported),
		cmocka_unit_test(test_tables_in_order),
		cmocka_unit_test(test_newer_than_known),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
