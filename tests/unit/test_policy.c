/* test_policy.c: the smoke policy file: every key, every error with its
 * line, globs, version ranges, sizes, durations, and hostile input. */
#include "testutil.h"

#include <time.h>

#include "core/strbuf.h"
#include "kb/kb.h"
#include "parse/policy.h"

static int parse(const char *text, struct policy *p)
{
	return policy_parse(text, strlen(text), "p.ini", p);
}

/* Asserts that text fails with an error at line whose message contains
 * needle. */
static void expect_error(const char *text, int line, const char *needle)
{
	struct policy p;
	if (parse(text, &p) == 0)
		fail_msg("no error for:\n%s", text);
	bool hit = false;
	for (size_t i = 0; i < p.nerrors; i++)
		if (p.errors[i].line == line && strstr(p.errors[i].msg, needle))
			hit = true;
	if (!hit) {
		for (size_t i = 0; i < p.nerrors; i++)
			print_message("  got %d: %s\n", p.errors[i].line, p.errors[i].msg);
		fail_msg("no error at line %d containing '%s' for:\n%s", line, needle, text);
	}
	policy_free(&p);
}

static void test_every_key(void **state)
{
	(void)state;
	const char *t =
		"; a comment\n"
		"# another\n"
		"[driver]\n"
		"min = 531.79\n"
		"max = 560.99 ; inline comment\n"
		"[wsl]\n"
		"min_kernel = 5.15.90.1\n"
		"min_version = 2.0.14\n"
		"[distro]\n"
		"allowed = ubuntu:22.04, ubuntu:24.*, debian\n"
		"[packages]\n"
		"required = cuda-toolkit-12-*\n"
		"forbidden = libnvidia-compute-*, nvidia-driver-*,\n"
		"    cuda-drivers\n"
		"\tnvidia-utils-[0-9]*\n"
		"[frameworks]\n"
		"torch = 2.5.*\n"
		"torch_cuda = 12.4\n"
		"tensorflow = 2.17.*\n"
		"jax = 0.4.*\n"
		"cupy = 13.*\n"
		"matmul = yes\n"
		"[memory]\n"
		"min_available = 8G\n"
		"min_total = 15.5 GiB\n"
		"[data]\n"
		"paths = ~/datasets, /data\n"
		"forbidden = /mnt/*\n"
		"[tolerate]\n"
		"findings = perf.storage, nvml.*\n"
		"[smoke]\n"
		"budget = 90s\n"
		"timeout = 1.5m\n"
		"layers = platform, cuda\n"
		"strict = no\n";
	struct policy p;
	int rc = parse(t, &p);
	for (size_t i = 0; i < p.nerrors; i++)
		print_message("%d: %s\n", p.errors[i].line, p.errors[i].msg);
	assert_int_equal(rc, 0);
	assert_true(p.driver_min.set);
	assert_string_equal(p.driver_min.text, "531.79");
	assert_int_equal(p.driver_min.line, 4);
	assert_int_equal(p.driver_min.v.n, 2);
	assert_int_equal(p.driver_min.v.part[1], 79);
	assert_string_equal(p.driver_max.text, "560.99");
	assert_string_equal(p.min_kernel.text, "5.15.90.1");
	assert_int_equal(p.min_kernel.v.n, 4);
	assert_string_equal(p.min_wsl.text, "2.0.14");
	assert_int_equal(p.distros.n, 3);
	assert_string_equal(p.distros.v[1].text, "ubuntu:24.*");
	assert_string_equal(p.distros.v[2].text, "debian");
	assert_int_equal(p.pkg_required.n, 1);
	assert_int_equal(p.pkg_forbidden.n, 4);
	assert_string_equal(p.pkg_forbidden.v[2].text, "cuda-drivers");
	assert_int_equal(p.pkg_forbidden.v[2].line, 14);
	assert_string_equal(p.pkg_forbidden.v[3].text, "nvidia-utils-[0-9]*");
	assert_int_equal(p.pkg_forbidden.v[3].line, 15);
	assert_string_equal(p.fw_torch.text, "2.5.*");
	assert_string_equal(p.fw_torch_cuda.text, "12.4");
	assert_string_equal(p.fw_tensorflow.text, "2.17.*");
	assert_string_equal(p.fw_jax.text, "0.4.*");
	assert_string_equal(p.fw_cupy.text, "13.*");
	assert_int_equal(p.fw_matmul, 1);
	assert_int_equal(p.fw_line, 17);
	assert_true(p.mem_min_available.set);
	assert_true(p.mem_min_available.bytes == 8ull << 30);
	assert_true(p.mem_min_total.bytes == (unsigned long long)(15.5 * (1 << 30)));
	assert_int_equal(p.data_paths.n, 2);
	assert_string_equal(p.data_paths.v[0].text, "~/datasets");
	assert_int_equal(p.data_forbidden.n, 1);
	assert_int_equal(p.tolerate.n, 2);
	assert_string_equal(p.tolerate.v[1].text, "nvml.*");
	assert_int_equal(p.budget_ms, 90000);
	assert_int_equal(p.budget_line, 32);
	assert_int_equal(p.timeout_ms, 90000);
	assert_int_equal(p.layers.n, 2);
	assert_int_equal(p.strict, 0);
	assert_string_equal(p.path, "p.ini");
	policy_free(&p);

	/* Empty file, comments only, BOM + CRLF, upper-case names: all fine. */
	assert_int_equal(parse("", &p), 0);
	assert_false(p.driver_min.set);
	assert_int_equal(p.fw_matmul, -1);
	assert_int_equal(p.strict, -1);
	policy_free(&p);
	assert_int_equal(parse("\xef\xbb\xbf[Driver]\r\nMIN = 551.23\r\n", &p), 0);
	assert_string_equal(p.driver_min.text, "551.23");
	assert_int_equal(p.driver_min.line, 2);
	policy_free(&p);
	/* "key: value" is INI too (inih). */
	assert_int_equal(parse("[distro]\nallowed: ubuntu:22.04\n", &p), 0);
	assert_string_equal(p.distros.v[0].text, "ubuntu:22.04");
	policy_free(&p);
	/* A comment between continuation lines; a trailing comma before one. */
	assert_int_equal(parse("[packages]\nforbidden = a,\n ; note\n  b\n", &p), 0);
	assert_int_equal(p.pkg_forbidden.n, 2);
	assert_int_equal(p.pkg_forbidden.v[1].line, 4);
	policy_free(&p);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("[drivers]\nmin = 1\n", 1, "unknown section [drivers] (did you mean [driver]?)");
	expect_error("[gpu]\nx = 1\n", 1, "unknown section [gpu] (known:");
	expect_error("[driver]\nminimum = 551\n", 2, "unknown key 'minimum' in [driver]");
	expect_error("[driver]\nmni = 551\n", 2, "did you mean 'min'?");
	expect_error("[driver]\nmin_kernel = 5.15\n", 2, "it belongs in [wsl]");
	expect_error("min = 1\n", 1, "comes before any [section]");
	expect_error("[driver]\nmin = 551.23\nmin = 552\n", 3, "set again (first at line 2)");
	expect_error("[driver]\n\nmin =\n", 3, "has no value");
	expect_error("[driver]\nmin = abc\n", 2, "'abc' is not a version");
	expect_error("[driver]\nmin = 551..23\n", 2, "not a version");
	expect_error("[driver]\nmin = 551.\n", 2, "not a version");
	expect_error("[driver]\nmin = 551.23 # the floor\n", 2, "' ;'");
	expect_error("[wsl]\nmin_kernel = 5.15.90.1-microsoft-standard-WSL2\n", 2, "digits and dots");
	expect_error("[driver]\nmin = 560\nmax = 551.23\n", 3, "max 551.23 is below min 560 (line 2)");
	expect_error("[memory]\nmin_available = 8 gigs\n", 2, "is not a size");
	expect_error("[memory]\nmin_available = -8G\n", 2, "is not a size");
	expect_error("[memory]\nmin_available = 0\n", 2, "is not a size");
	expect_error("[memory]\nmin_total = 99999999999T\n", 2, "is not a size");
	expect_error("[smoke]\nbudget = soon\n", 2, "is not a duration");
	expect_error("[smoke]\nbudget = 0.5s\n", 2, "too short (at least 1s)");
	expect_error("[smoke]\nbudget = 2h\n", 2, "is not a duration");
	expect_error("[smoke]\ntimeout = 61m\n", 2, "is not a duration");
	expect_error("[smoke]\nstrict = maybe\n", 2, "is not yes or no");
	expect_error("[frameworks]\nmatmul = 2\n", 2, "is not yes or no");
	expect_error("[packages]\nforbidden = libnvidia-[\n", 2, "'[' is never closed");
	expect_error("[packages]\nforbidden = LibNvidia\n", 2, "lower case");
	expect_error("[packages]\nforbidden = a,,b\n", 2, "an empty entry");
	expect_error("[packages]\nforbidden = a,\n", 2, "an empty entry");
	expect_error("[packages]\nforbidden = a b\n", 2, "is not a package name");
	expect_error("[data]\nforbidden = mnt/c\n", 2, "not an absolute path");
	expect_error("[data]\npaths = /data/*\n", 2, "without globs");
	expect_error("[data]\nforbidden = /mnt/[c\n", 2, "never closed");
	expect_error("[tolerate]\nfindings = Perf.Storage\n", 2, "is not a check id");
	expect_error("[smoke]\nlayers = cuda*\n", 2, "without globs");
	expect_error("[distro]\nallowed = Ubuntu:22.04\n", 2, "is not an os-release ID");
	expect_error("[distro]\nallowed = ubuntu:\n", 2, "no version after");
	expect_error("[distro]\nallowed = :22.04\n", 2, "is not ID or ID:VERSION");
	expect_error("[frameworks]\ntorch = 2.5 .1\n", 2, "blank");
	expect_error("[frameworks]\ntorch = 2.[5\n", 2, "never closed");
	expect_error("[driver]\nmin = 551\n  552\n", 3, "takes one value");
	expect_error("[driver]\n\n  ubuntu\n", 3, "continues a list only right after");
	expect_error("[driver]\njust words\n", 2, "not 'key = value'");
	expect_error("[driver\nmin = 1\n", 1, "[name] alone on its line");
	expect_error("[driver]\nmin = 1\n[wsl]\n[driver]\n", 4, "[driver] again (first at line 1)");
	/* Several errors are all reported, each with its line. */
	struct policy p;
	assert_int_equal(parse("[driver]\nmin = x\nmax = y\n[nope]\n", &p), -1);
	assert_int_equal(p.nerrors, 3);
	assert_int_equal(p.errors[0].line, 4); /* pass 1 sees sections first */
	assert_int_equal(p.errors[1].line, 2);
	assert_int_equal(p.errors[2].line, 3);
	policy_free(&p);
	/* Keys of an unknown section are not reported one by one. */
	assert_int_equal(parse("[nope]\na = 1\nb = 2\n  c\n", &p), -1);
	assert_int_equal(p.nerrors, 1);
	policy_free(&p);
	/* policy_error adds the caller's own; printing names file and line. */
	assert_int_equal(parse("[driver]\nmin = 1\n", &p), 0);
	policy_error(&p, 2, "custom %d", 7);
	policy_error(&p, 0, "whole file");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	policy_print_errors(&p, f);
	fclose(f);
	assert_string_equal(buf, "p.ini:2: custom 7\np.ini: whole file\n");
	free(buf);
	policy_free(&p);
}

static void test_values(void **state)
{
	(void)state;
	struct version v;
	assert_int_equal(policy_parse_version("551.23", &v), 0);
	assert_int_equal(policy_parse_version("5.15.167.4", &v), 0);
	assert_int_equal(v.n, 4);
	assert_int_equal(policy_parse_version("1.2.3.4.5.6", &v), 0);
	assert_int_equal(policy_parse_version("1.2.3.4.5.6.7", &v), -1);
	assert_int_equal(policy_parse_version("", &v), -1);
	assert_int_equal(policy_parse_version("v551", &v), -1);
	assert_int_equal(policy_parse_version("1234567890", &v), -1);
	assert_int_equal(policy_parse_version(".5", &v), -1);

	unsigned long long b;
	assert_int_equal(policy_parse_size("8G", &b), 0);
	assert_true(b == 8ull << 30);
	assert_int_equal(policy_parse_size("512 MiB", &b), 0);
	assert_true(b == 512ull << 20);
	assert_int_equal(policy_parse_size("1.5gb", &b), 0);
	assert_true(b == 3ull << 29);
	assert_int_equal(policy_parse_size("1024", &b), 0);
	assert_true(b == 1024);
	assert_int_equal(policy_parse_size("2T", &b), 0);
	assert_int_equal(policy_parse_size("8X", &b), -1);
	assert_int_equal(policy_parse_size("G", &b), -1);
	assert_int_equal(policy_parse_size("8.G", &b), -1);
	assert_int_equal(policy_parse_size("0.1B", &b), -1);

	assert_int_equal(policy_parse_duration("60"), 60000);
	assert_int_equal(policy_parse_duration("60s"), 60000);
	assert_int_equal(policy_parse_duration("2m"), 120000);
	assert_int_equal(policy_parse_duration("0.5 s"), 500);
	assert_int_equal(policy_parse_duration("60 min"), 3600000);
	assert_int_equal(policy_parse_duration("61m"), -1);
	assert_int_equal(policy_parse_duration("1h"), -1);
	assert_int_equal(policy_parse_duration("-1"), -1);
	assert_int_equal(policy_parse_duration(""), -1);
}

static void test_matching(void **state)
{
	(void)state;
	assert_true(policy_glob_match("libnvidia-compute-*", "libnvidia-compute-535"));
	assert_false(policy_glob_match("libnvidia-compute-*", "libnvidia-common-535"));
	assert_true(policy_glob_match("nvidia-utils-[0-9]*", "nvidia-utils-550"));
	assert_true(policy_glob_match("nvml.*", "nvml.smi"));
	assert_false(policy_glob_match("nvml.*", "nvml"));

	assert_true(policy_path_forbidden("/mnt/*", "/mnt/c/data/x"));
	assert_true(policy_path_forbidden("/mnt/*", "/mnt/c"));
	assert_true(policy_path_forbidden("/mnt/*", "/mnt/c/"));
	assert_false(policy_path_forbidden("/mnt/*", "/mnt"));
	assert_false(policy_path_forbidden("/mnt/*", "/home/user/mnt/c"));
	assert_true(policy_path_forbidden("/mnt/c", "/mnt/c/Users"));
	assert_false(policy_path_forbidden("/mnt/c", "/mnt/cc"));
	assert_true(policy_path_forbidden("/mnt/[a-z]", "/mnt/d/x"));
	assert_false(policy_path_forbidden("/mnt/[a-z]", "/mnt/wsl/x"));
	assert_true(policy_path_forbidden("/", "/anything"));
	assert_true(policy_path_forbidden("/", "/"));

	assert_true(policy_pin_match("2.5.*", "2.5.1+cu124"));
	assert_true(policy_pin_match("2.5.1", "2.5.1+cu124"));
	assert_true(policy_pin_match("2.5.1+cu124", "2.5.1+cu124"));
	assert_false(policy_pin_match("2.5.1", "2.5.10"));
	assert_false(policy_pin_match("2.5.*", "2.6.0+cu124"));
	assert_true(policy_pin_match("12.4", "12.4"));
	assert_false(policy_pin_match("12.4", "none (a CPU-only build)"));
}

static void test_hostile(void **state)
{
	(void)state;
	struct policy p;
	/* A line longer than inih takes whole. */
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, "[packages]\nforbidden = ");
	for (int i = 0; i < 300; i++)
		sb_addc(&sb, 'a');
	sb_add(&sb, "\n");
	expect_error(sb.buf, 2, "more than 198");
	/* ... and one of a megabyte, one without a newline at all. */
	sb_reset(&sb);
	sb_add(&sb, "[driver]\nmin = ");
	while (sb.len < (1u << 20) - 10)
		sb_addc(&sb, '5');
	expect_error(sb.buf, 2, "more than 198");
	/* Exactly at the limit is fine. */
	sb_reset(&sb);
	sb_add(&sb, "[data]\nforbidden = /");
	while (sb.len - 7 < POLICY_MAX_LINE)
		sb_addc(&sb, 'x');
	assert_int_equal(parse(sb.buf, &p), 0);
	assert_int_equal(strlen(p.data_forbidden.v[0].text), POLICY_MAX_LINE - 12);
	policy_free(&p);
	/* Over the size cap. */
	sb_reset(&sb);
	while (sb.len <= POLICY_MAX_BYTES)
		sb_add(&sb, "; padding padding padding padding padding padding padding\n");
	assert_int_equal(policy_parse(sb.buf, sb.len, "big", &p), -1);
	assert_int_equal(p.errors[0].line, 0);
	assert_non_null(strstr(p.errors[0].msg, "larger than"));
	policy_free(&p);

	/* NUL bytes, non-UTF-8, UTF-16. */
	static const char nul[] = "[driver]\nmin = 5\0" "51\n";
	assert_int_equal(policy_parse(nul, sizeof nul - 1, "n", &p), -1);
	assert_int_equal(p.errors[0].line, 2);
	assert_non_null(strstr(p.errors[0].msg, "NUL"));
	policy_free(&p);
	expect_error("[driver]\n; caf\xe9\nmin = 1\n", 2, "not UTF-8 (byte 0xe9 at column 6)");
	expect_error("[distro]\nallowed = \xc3\x28\n", 2, "not UTF-8");
	static const char u16[] = "\xff\xfe[\0d\0";
	assert_int_equal(policy_parse(u16, sizeof u16 - 1, "u", &p), -1);
	assert_non_null(strstr(p.errors[0].msg, "UTF-16"));
	policy_free(&p);
	/* Valid UTF-8 in a comment is fine. */
	assert_int_equal(parse("; café ☕\n[driver]\nmin = 1\n", &p), 0);
	policy_free(&p);

	/* 10,000 unknown sections: linear, errors capped and counted. */
	sb_reset(&sb);
	for (int i = 0; i < 10000; i++)
		sb_addf(&sb, "[s%d]\nk = v\n", i);
	clock_t t0 = clock();
	assert_int_equal(parse(sb.buf, &p), -1);
	assert_int_equal(p.nerrors, POLICY_MAX_ERRORS);
	assert_int_equal(p.more_errors, 10000 - POLICY_MAX_ERRORS);
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 10.0);
	policy_free(&p);
	/* 10,000 repeats of a known section and key. */
	sb_reset(&sb);
	for (int i = 0; i < 10000; i++)
		sb_add(&sb, "[driver]\nmin = 1\n");
	assert_int_equal(parse(sb.buf, &p), -1);
	assert_int_equal(p.nerrors + p.more_errors, 2 * 9999);
	policy_free(&p);
	/* A list over its cap. */
	sb_reset(&sb);
	sb_add(&sb, "[packages]\nforbidden = a\n");
	for (int i = 0; i < POLICY_MAX_LIST + 5; i++)
		sb_addf(&sb, "  p%d\n", i);
	expect_error(sb.buf, 2 + POLICY_MAX_LIST, "more than 256 entries");
	/* Random bytes never crash it. */
	unsigned seed = 12345;
	for (int round = 0; round < 200; round++) {
		sb_reset(&sb);
		size_t n = (size_t)(rand_r(&seed) % 600);
		for (size_t i = 0; i < n; i++) {
			static const char alphabet[] = "[]=:;# \t\n\r,*?!abcmin0123456789.\\\xc3\xff";
			sb_addc(&sb, alphabet[rand_r(&seed) % (sizeof alphabet - 1)]);
		}
		policy_parse(sb.buf ? sb.buf : "", sb.len, "r", &p);
		policy_free(&p);
	}
	sb_release(&sb);
}

static void test_load(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	char path[4096];
	struct policy p;
	snprintf(path, sizeof path, "%s/none.ini", d);
	assert_int_equal(policy_load(path, &p), -1);
	assert_int_equal(p.errors[0].line, 0);
	assert_string_equal(p.errors[0].msg, "No such file or directory");
	assert_string_equal(p.path, path);
	policy_free(&p);

	assert_int_equal(policy_load(d, &p), -1);
	assert_non_null(strstr(p.errors[0].msg, "is a directory"));
	policy_free(&p);

	assert_int_equal(policy_load("/dev/null", &p), -1);
	assert_non_null(strstr(p.errors[0].msg, "not a regular file"));
	policy_free(&p);

	/* A FIFO: refused without blocking on it. */
	snprintf(path, sizeof path, "%s/fifo", d);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(policy_load(path, &p), -1);
	assert_non_null(strstr(p.errors[0].msg, "not a regular file"));
	policy_free(&p);

	tu_write(d, "ok.ini", "[driver]\nmin = 551.23\n", 22);
	snprintf(path, sizeof path, "%s/ok.ini", d);
	assert_int_equal(policy_load(path, &p), 0);
	assert_string_equal(p.driver_min.text, "551.23");
	policy_free(&p);

	if (geteuid() != 0) {
		chmod(path, 0);
		assert_int_equal(policy_load(path, &p), -1);
		assert_string_equal(p.errors[0].msg, "Permission denied");
		policy_free(&p);
		chmod(path, 0644);
	}

	/* Larger than the cap: refused by its size, not read. */
	snprintf(path, sizeof path, "%s/big.ini", d);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fseek(f, POLICY_MAX_BYTES + 1, SEEK_SET), 0);
	fputc('x', f);
	fclose(f);
	assert_int_equal(policy_load(path, &p), -1);
	assert_non_null(strstr(p.errors[0].msg, "larger than 1 MiB"));
	policy_free(&p);

	/* The shipped example parses. */
	assert_int_equal(policy_load("tools/policy.example.ini", &p), 0);
	assert_true(p.driver_min.set);
	policy_free(&p);
	tu_rmtree(d);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_key), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_values),    cmocka_unit_test(test_matching),
		cmocka_unit_test(test_hostile),   cmocka_unit_test(test_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
