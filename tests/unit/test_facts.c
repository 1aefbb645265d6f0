/*
 * test_facts.c: the version facts users act on, and the commands that act.
 *
 *  - A removal command names its packages, never a pattern: every fix line
 *    of every knowledge-base entry, as written and as rendered without
 *    evidence, and (when KBTRUTH_DIR names tests/e2e/kbtruth.sh's runs)
 *    rendered with every fixture's evidence and every fixture's `wslgpu
 *    fix` plan. `apt-get remove 'libnvidia-*'` also removes
 *    libnvidia-container1 and libnvidia-container-tools, the NVIDIA
 *    Container Toolkit (its release notes list them as its packages).
 */
#include "testutil.h"

#include <ctype.h>
#include <dirent.h>

#include "core/result.h"
#include "kb/kb.h"
#include "parse/jsonscan.h"
#include "report/finding.h"

/* cmocka cuts long messages: print every line, then fail. */
static void fail_with(struct strbuf *errs)
{
	if (!errs->len)
		return;
	fprintf(stderr, "%s", errs->buf);
	fail_msg("problems above");
}

/* ---- removal commands ---- */

static bool word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && !strncmp(w, s, n);
}

/*
 * Whether one shell command (no separators) removes packages named by a
 * pattern: apt-get/apt/aptitude remove|purge|autoremove, dpkg -r|-P|
 * --remove|--purge, yum/dnf remove|erase, with an argument holding * ? [
 * ^ or $ (apt-get reads a name with * or ? as a pattern or a regex).
 */
static bool segment_removes_by_pattern(const char *s, size_t len)
{
	const char *w[32];
	size_t wl[32], n = 0;
	for (size_t i = 0; i < len && n < 32;) {
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		if (i >= len)
			break;
		size_t st = i;
		char q = 0;
		while (i < len && (q || !isspace((unsigned char)s[i]))) {
			if (q && s[i] == q)
				q = 0;
			else if (!q && (s[i] == '\'' || s[i] == '"'))
				q = s[i];
			i++;
		}
		w[n] = s + st;
		wl[n++] = i - st;
	}
	size_t k = 0;
	while (k < n && (word_is(w[k], wl[k], "sudo") || memchr(w[k], '=', wl[k])))
		k++;
	if (k >= n)
		return false;
	bool apt = word_is(w[k], wl[k], "apt-get") || word_is(w[k], wl[k], "apt") ||
		   word_is(w[k], wl[k], "aptitude") || word_is(w[k], wl[k], "yum") ||
		   word_is(w[k], wl[k], "dnf");
	bool dpkg = word_is(w[k], wl[k], "dpkg");
	if (!apt && !dpkg)
		return false;
	bool removing = false;
	for (size_t j = k + 1; j < n; j++) {
		if (apt && (word_is(w[j], wl[j], "remove") || word_is(w[j], wl[j], "purge") ||
			    word_is(w[j], wl[j], "autoremove") || word_is(w[j], wl[j], "erase"))) {
			removing = true;
			continue;
		}
		if (dpkg && (word_is(w[j], wl[j], "-r") || word_is(w[j], wl[j], "-P") ||
			     word_is(w[j], wl[j], "--remove") || word_is(w[j], wl[j], "--purge"))) {
			removing = true;
			continue;
		}
		if (!removing || w[j][0] == '-')
			continue;
		for (size_t c = 0; c < wl[j]; c++)
			if (strchr("*?[^$", w[j][c]))
				return true;
	}
	return false;
}

/* The command part of a fix line or a plan line: before the KB's
 * "   (remark)" and a shell comment. */
static size_t command_length(const char *line)
{
	const char *rem = strstr(line, "   (");
	size_t n = rem ? (size_t)(rem - line) : strlen(line);
	for (size_t i = 0; i < n; i++)
		if (line[i] == '#' && (i == 0 || isspace((unsigned char)line[i - 1])))
			return i;
	return n;
}

/* Whether a line holds a removal command with a pattern, in any of its
 * commands (split at && || ; and |). */
static bool removes_by_pattern(const char *line)
{
	size_t n = command_length(line);
	size_t st = 0;
	char q = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && q) {
			q = line[i] == q ? 0 : q;
			continue;
		}
		if (i < n && (line[i] == '\'' || line[i] == '"')) {
			q = line[i];
			continue;
		}
		if (i == n || line[i] == ';' || line[i] == '|' || line[i] == '&') {
			if (segment_removes_by_pattern(line + st, i - st))
				return true;
			while (i + 1 < n && (line[i + 1] == '|' || line[i + 1] == '&'))
				i++;
			st = i + 1;
		}
	}
	return false;
}

static void test_removal_pattern_detector(void **state)
{
	(void)state;
	assert_true(removes_by_pattern("sudo apt-get remove --purge 'nvidia-driver-*' 'libnvidia-*'"));
	assert_true(removes_by_pattern("sudo apt purge nvidia-*"));
	assert_true(removes_by_pattern("sudo dpkg -P $(dpkg -l | awk '{print $2}') libnvidia-[a-z]*"));
	assert_true(removes_by_pattern("apt list --installed && sudo apt-get -y remove '^libnvidia'"));
	assert_true(removes_by_pattern("sudo DEBIAN_FRONTEND=noninteractive apt-get autoremove 'cuda-*'"));
	assert_false(removes_by_pattern("sudo apt-get remove --purge libnvidia-compute-535 nvidia-utils-535"));
	assert_false(removes_by_pattern("sudo apt-get remove --purge PACKAGES   (never libnvidia-*)"));
	assert_false(removes_by_pattern("sudo apt-get remove --purge cuda-drivers   # not libnvidia-*"));
	assert_false(removes_by_pattern("dpkg -l | grep -E '^ii +(nvidia-driver|libnvidia-compute)'"));
	assert_false(removes_by_pattern("sudo apt-get install 'cuda-toolkit-12-*'"));
	assert_false(removes_by_pattern("ls /usr/lib/wsl/lib/libnvidia-*"));
}

static void check_fix(const char *what, const char *line, struct strbuf *errs)
{
	if (line && removes_by_pattern(line))
		sb_addf(errs, "%s: removes packages by a pattern (name each package): %s\n", what,
			line);
}

static void test_kb_removals_name_packages(void **state)
{
	(void)state;
	const struct kb *kb = kb_builtin();
	struct strbuf errs = STRBUF_INIT, what = STRBUF_INIT;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		sb_reset(&what);
		sb_addf(&what, "%s:%d: [%s]", e->file, e->line, e->id);
		for (size_t j = 0; j < e->fix.n; j++)
			check_fix(what.buf, e->fix.v[j], &errs);
		struct finding_view v;
		finding_expand(&v, e, NULL, NULL);
		for (size_t j = 0; j < v.nfix; j++)
			check_fix(what.buf, v.fix[j], &errs);
		finding_view_release(&v);
	}
	fail_with(&errs);
	sb_release(&errs);
	sb_release(&what);
}

/* ---- with every fixture's evidence and plan (tests/e2e/kbtruth.sh) ---- */

static void json_evidence(const struct js_val *obj, struct evidence *ev)
{
	size_t pos = 0;
	struct js_val k, v, el;
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	while (js_object_next(obj, &pos, &k, &v) == 1) {
		js_string(&k, &key);
		if (v.type == JS_ARRAY) {
			size_t p2 = 0;
			while (js_array_next(&v, &p2, &el) == 1) {
				js_string(&el, &val);
				ev_add(ev, key.buf, "%s", sb_str(&val));
			}
		} else {
			js_string(&v, &val);
			ev_add(ev, key.buf, "%s", sb_str(&val));
		}
	}
	sb_release(&key);
	sb_release(&val);
}

static void check_run(const char *file, const char *buf, size_t len, struct strbuf *errs)
{
	struct js_val top, checks, c, evo, s;
	if (js_parse(buf, len, &top, NULL) < 0 || js_object_get(&top, "checks", &checks) < 0 ||
	    checks.type != JS_ARRAY) {
		sb_addf(errs, "%s: not a check --json run\n", file);
		return;
	}
	struct strbuf id = STRBUF_INIT, kbid = STRBUF_INIT, what = STRBUF_INIT;
	size_t pos = 0;
	while (js_array_next(&checks, &pos, &c) == 1) {
		sb_reset(&id);
		sb_reset(&kbid);
		if (js_object_get(&c, "id", &s) == 0)
			js_string(&s, &id);
		if (js_object_get(&c, "kb", &s) == 0 && s.type == JS_STRING)
			js_string(&s, &kbid);
		const struct kb_entry *e = kbid.len ? kb_find(kbid.buf) : NULL;
		if (!e)
			continue;
		struct evidence ev = EVIDENCE_INIT;
		if (js_object_get(&c, "evidence", &evo) == 0 && evo.type == JS_OBJECT)
			json_evidence(&evo, &ev);
		struct finding_view v;
		finding_expand(&v, e, &ev, id.buf);
		sb_reset(&what);
		sb_addf(&what, "%s: %s with [%s]", file, id.buf, e->id);
		for (size_t j = 0; j < v.nfix; j++)
			check_fix(what.buf, v.fix[j], errs);
		finding_view_release(&v);
		ev_release(&ev);
	}
	sb_release(&id);
	sb_release(&kbid);
	sb_release(&what);
}

static void check_plan(const char *file, const char *text, struct strbuf *errs)
{
	struct strbuf what = STRBUF_INIT;
	size_t lineno = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, n);
		lineno++;
		sb_reset(&what);
		sb_addf(&what, "%s:%zu", file, lineno);
		check_fix(what.buf, line, errs);
		free(line);
		p += n + (nl != NULL);
	}
	sb_release(&what);
}

static void test_fixture_removals(void **state)
{
	(void)state;
	const char *dir = getenv("KBTRUTH_DIR");
	if (!dir) {
		print_message("skip: KBTRUTH_DIR unset (tests/e2e/kbtruth.sh sets it)\n");
		return;
	}
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct strbuf errs = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	struct dirent *de;
	size_t runs = 0, plans = 0;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		bool json = n > 5 && !strcmp(de->d_name + n - 5, ".json");
		bool plan = n > 5 && !strcmp(de->d_name + n - 5, ".plan");
		if (!json && !plan)
			continue;
		sb_reset(&path);
		sb_addf(&path, "%s/%s", dir, de->d_name);
		int fd = open(path.buf, O_RDONLY);
		assert_true(fd >= 0);
		sb_reset(&text);
		assert_int_equal(sb_read_fd(&text, fd, 64u << 20, NULL), 0);
		close(fd);
		if (json) {
			check_run(de->d_name, sb_str(&text), text.len, &errs);
			runs++;
		} else {
			check_plan(de->d_name, sb_str(&text), &errs);
			plans++;
		}
	}
	closedir(d);
	assert_true(runs > 0);
	assert_true(plans > 0);
	fail_with(&errs);
	sb_release(&errs);
	sb_release(&path);
	sb_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_removal_pattern_detector),
		cmocka_unit_test(test_kb_removals_name_packages),
		cmocka_unit_test(test_fixture_removals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
