/*
 * test_outputs.c: the smoke outputs on hand-made results: JUnit XML
 * (structure, escaping, validated with xmllint against Jenkins'
 * junit.xsd), Prometheus text (escaping, validated with `promtool check
 * metrics`), and the Pushgateway client: bad URLs refused without the
 * network, a closed port, a gateway that never answers, and a real
 * prometheus-pushgateway on 127.0.0.1 read back over HTTP.
 *
 * The external tools are skipped (cmocka "SKIPPED") when not installed;
 * CI installs them (tools/install-deps --test).
 */
#include "testutil.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>

#include "core/check.h"
#include "core/result.h"
#include "core/strbuf.h"
#include "net/push.h"
#include "report/outputs.h"
#include "kb_ids.h"

#define SCHEMA "tests/schemas/junit.xsd"
#define REPLACEMENT "\xef\xbf\xbd"
#define HOSTILE "q\"uote <tag> &amp; 'apos' ]]> ctl\x01\x1b[31m bad\xff\xc3 nl\nback\\slash \xef\xbf\xbf end"

static const struct check_def defs[] = {
	{ "platform.kind", "platform", "Platform", "", { NULL }, NULL, 0 },
	{ "platform.kernel", "platform", "Kernel", "", { NULL }, NULL, 0 },
	{ "libs.wsl_dir", "libs", "WSL driver libraries", "", { NULL }, NULL, 0 },
	{ "cuda.init", "cuda", "cuInit", "", { NULL }, NULL, 0 },
	{ "cuda.kernel", "cuda", "A real kernel launch", "", { NULL }, NULL, 0 },
	{ "nvml.smi", "nvml", "nvidia-smi", "", { NULL }, NULL, 0 },
	{ "perf.memory", "perf", "Memory", "", { NULL }, NULL, 0 },
	{ "host.driver", "host", "NVIDIA driver version", "", { NULL }, NULL, 0 },
	{ "perf.storage", "perf", "Where the data lives", "", { NULL }, NULL, 0 },
};
#define NDEFS (sizeof defs / sizeof defs[0])

struct fixture {
	struct result res[NDEFS];
	bool shown[NDEFS];
	struct report rep;
	struct output_meta meta;
};

/* A run that has every status, a tolerated failure, a hidden check, KB
 * text with placeholders, hostile evidence and bench figures. */
static void fixture_init(struct fixture *f, const char *kernel, const char *detail)
{
	for (size_t i = 0; i < NDEFS; i++) {
		result_init(&f->res[i], &defs[i]);
		f->res[i].ran = true;
		f->res[i].ms = 12.5 * (double)(i + 1);
		f->shown[i] = true;
	}
	struct result *r = f->res;
	res_set(&r[0], ST_PASS, NULL, "WSL2");
	res_ev(&r[0], "kind", "wsl2");
	res_ev(&r[0], "kernel", "%s", kernel);
	res_ev(&r[0], "distro", "Ubuntu 24.04 LTS");
	res_set(&r[1], ST_WARN, NULL, "kernel %s is older than 5.10.16.3", "5.4.72");
	res_set(&r[2], ST_FAIL, KB_LIBS_WSL_DIR_MISSING_DRIVER_LIBS, "%s", detail);
	res_ev(&r[2], "missing", "%s", HOSTILE);
	res_ev(&r[2], "dir", "/usr/lib/wsl/lib");
	res_set(&r[3], ST_SKIP, NULL, "skipped: libs.wsl_dir failed, fix that first");
	res_set(&r[4], ST_CRASH, NULL, "the probe crashed (SIGSEGV) in cuLaunchKernel");
	r[4].output = xstrdup("probe output with <xml> & \x02 control\n");
	res_ev(&r[4], "jit_ms", "41.50");
	res_ev(&r[4], "first_launch_ms", "52.25");
	res_ev(&r[4], "second_launch_ms", "0.75");
	res_set(&r[5], ST_TIMEOUT, NULL, "timed out after 10 s in nvidia-smi");
	res_set(&r[6], ST_FAIL, NULL, "only 3.1 GiB of memory");
	res_ev(&r[6], "tolerated", "yes");
	r[6].tolerated_by = xstrdup("fleet.ini:7: [tolerate] perf.memory");
	res_set(&r[7], ST_PASS, NULL, "driver 551.23");
	res_ev(&r[7], "driver_version", "551.23");
	res_ev(&r[7], "driver_cuda_version", "12.4");
	res_ev(&r[7], "wsl_version", "2.3.26.0");
	res_ev(&r[7], "windows_version", "10.0.22631.4460");
	res_set(&r[8], ST_PASS, NULL, "hidden");
	f->shown[8] = false; /* ran as a dependency only: not reported */

	f->rep = (struct report){ f->res, f->shown, NDEFS, false, false, false };
	f->meta = (struct output_meta){ "wslgpu smoke", 1764690345, 1234.5, 1, "/etc/wslgpu/policy.ini",
					60000, true };
}

static void fixture_release(struct fixture *f)
{
	for (size_t i = 0; i < NDEFS; i++)
		result_release(&f->res[i]);
}

/* Runs a shell command; returns its exit status and its output in out. */
static int run_cmd(const char *cmd, struct strbuf *out)
{
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		sb_addn(out, buf, n);
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool have(const char *tool)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

static char *write_tmp(const char *dir, const char *name, const struct strbuf *sb)
{
	tu_write(dir, name, sb->buf, sb->len);
	return xasprintf("%s/%s", dir, name);
}

/* xmllint --xpath EXPR on file: the string it prints. */
static char *xpath(const char *file, const char *expr)
{
	char *cmd = xasprintf("xmllint --xpath '%s' '%s' 2>&1", expr, file);
	struct strbuf out = STRBUF_INIT;
	run_cmd(cmd, &out);
	free(cmd);
	/* newer xmllint ends the result with a newline */
	if (out.len && out.buf[out.len - 1] == '\n')
		out.buf[--out.len] = '\0';
	return sb_detach(&out);
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("expected to find\n  %s\nin:\n%.3000s", needle, hay);
}

/* ---- JUnit ---- */

static void test_junit_structure(void **state)
{
	(void)state;
	struct fixture f;
	fixture_init(&f, "5.15.167.4-microsoft-standard-WSL2", "libcuda.so.1 is missing");
	struct strbuf x = STRBUF_INIT;
	report_junit(&x, &f.rep, &f.meta);
	const char *s = x.buf;

	assert_true(strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", 50) == 0);
	/* 8 shown checks; fail, crash, timeout count; the tolerated one does not. */
	assert_contains(s, "<testsuites name=\"wslgpu smoke\" tests=\"8\" failures=\"3\" errors=\"0\" time=\"1.234\">");
	/* 12.5 + 25 ms, rounded down so that the suites never add up to more
	 * than the total */
	assert_contains(s, "<testsuite name=\"wslgpu.platform\" tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0.037\" id=\"0\" timestamp=\"2025-12-02T15:45:45Z\">");
	assert_contains(s, "<testsuite name=\"wslgpu.cuda\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"1\"");
	assert_contains(s, "<testsuite name=\"wslgpu.perf\" tests=\"1\" failures=\"0\"");
	assert_contains(s, "<testcase classname=\"wslgpu.platform\" name=\"platform.kind\" time=\"0.013\"/>");
	assert_contains(s, "<testcase classname=\"wslgpu.libs\" name=\"libs.wsl_dir\" time=\"0.037\">\n"
			   "      <failure type=\"fail\" message=\"libcuda.so.1 is missing\">");
	assert_contains(s, "<failure type=\"crash\" message=\"the probe crashed (SIGSEGV) in cuLaunchKernel\">");
	assert_contains(s, "<failure type=\"timeout\"");
	assert_contains(s, "<skipped message=\"skipped: libs.wsl_dir failed, fix that first\"/>");
	assert_contains(s, "<system-out>warning (does not fail the run)\nstatus   warn\n");
	assert_contains(s, "<system-out>tolerated by policy (does not fail the run)\nstatus   fail\n");
	/* cause and fix from the KB, with the evidence filled in and escaped */
	assert_contains(s, "cause    The NVIDIA Windows driver installs libcuda.so.1");
	assert_contains(s, "fix      ");
	assert_contains(s, "evidence missing: q\"uote &lt;tag&gt; &amp;amp; 'apos' ]]&gt; ctl"
			   REPLACEMENT REPLACEMENT "[31m bad" REPLACEMENT REPLACEMENT " nl\n");
	assert_contains(s, "source   https://");
	assert_contains(s, "kb       libs.wsl_dir.missing_driver_libs");
	/* the crashed probe's output as system-err */
	assert_contains(s, "<system-err>probe output with &lt;xml&gt; &amp; " REPLACEMENT " control\n</system-err>");
	/* machine facts as properties of each suite */
	assert_contains(s, "<property name=\"platform.kernel\" value=\"5.15.167.4-microsoft-standard-WSL2\"/>");
	assert_contains(s, "<property name=\"driver.version\" value=\"551.23\"/>");
	assert_contains(s, "<property name=\"driver.cuda\" value=\"12.4\"/>");
	assert_contains(s, "<property name=\"smoke.policy\" value=\"/etc/wslgpu/policy.ini\"/>");
	assert_contains(s, "<property name=\"smoke.exit_status\" value=\"1\"/>");
	/* not shown: not reported */
	assert_null(strstr(s, "perf.storage"));
	/* no U+FFFF, no raw control byte other than newline survives */
	assert_null(strstr(s, "\xef\xbf\xbf"));
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		assert_true(*p >= 0x20 || *p == '\n');
	sb_release(&x);

	/* Probes that ran in parallel took longer, added up, than the run:
	 * the suites share the run's time and add up to at most the total. */
	f.meta.duration_ms = 100;
	report_junit(&x, &f.rep, &f.meta);
	assert_contains(x.buf, "time=\"0.100\">");
	double suites = 0;
	for (const char *p = x.buf; (p = strstr(p, "<testsuite ")); p++) {
		const char *t = strstr(p, " time=\"");
		assert_non_null(t);
		suites += strtod(t + 7, NULL);
	}
	assert_true(suites > 0.09 && suites <= 0.100);
	/* a testcase keeps its probe's time */
	assert_contains(x.buf, "name=\"libs.wsl_dir\" time=\"0.037\"");
	sb_release(&x);
	fixture_release(&f);
}

/* Well-formed and schema-valid, with hostile text everywhere, a 100 KB
 * detail, and the hostile text read back intact by a real XML parser. */
static void test_junit_schema_hostile(void **state)
{
	(void)state;
	if (!have("xmllint"))
		skip();
	struct strbuf big = STRBUF_INIT;
	for (int i = 0; i < 100 * 1024 / 16; i++)
		sb_add(&big, "<&\"'\x01\xfe long det ");
	struct fixture f;
	fixture_init(&f, HOSTILE, big.buf);
	free(f.res[1].detail);
	f.res[1].detail = xstrdup(HOSTILE);
	struct strbuf x = STRBUF_INIT;
	report_junit(&x, &f.rep, &f.meta);
	assert_true(x.len > 100 * 1024);

	char *dir = tu_mkdtemp();
	char *file = write_tmp(dir, "junit.xml", &x);
	char *cmd = xasprintf("xmllint --noout --schema %s '%s' 2>&1", SCHEMA, file);
	struct strbuf out = STRBUF_INIT;
	int rc = run_cmd(cmd, &out);
	if (rc != 0)
		fail_msg("xmllint --schema failed (%d):\n%s", rc, out.buf);
	assert_contains(out.buf, "validates");

	char *v = xpath(file, "count(//testcase)");
	assert_string_equal(v, "8");
	free(v);
	v = xpath(file, "count(//failure)");
	assert_string_equal(v, "3");
	free(v);
	/* The kernel property reads back as the original with the bytes XML
	 * cannot carry replaced. */
	v = xpath(file, "string(//testsuite[1]/properties/property[@name=\"platform.kernel\"]/@value)");
	assert_string_equal(v, "q\"uote <tag> &amp; 'apos' ]]> ctl" REPLACEMENT REPLACEMENT
			       "[31m bad" REPLACEMENT REPLACEMENT " nl\nback\\slash " REPLACEMENT " end");
	free(v);
	/* The warning's system-out holds the hostile detail, newline kept. */
	v = xpath(file, "string(//testcase[@name=\"platform.kernel\"]/system-out)");
	assert_contains(v, "detail   q\"uote <tag> &amp; 'apos' ]]> ctl");
	assert_contains(v, " nl\n         back\\slash ");
	free(v);
	/* The 100 KB detail: the message attribute is clipped, the body whole. */
	v = xpath(file, "string-length(//testcase[@name=\"libs.wsl_dir\"]/failure/@message)");
	assert_true(atoi(v) > 500 && atoi(v) < 1100);
	free(v);
	v = xpath(file, "string-length(//testcase[@name=\"libs.wsl_dir\"]/failure)");
	assert_true(atoi(v) > 100000);
	free(v);

	free(cmd);
	free(file);
	sb_release(&out);
	sb_release(&x);
	sb_release(&big);
	fixture_release(&f);
	tu_rmtree(dir);
	free(dir);
}

static void test_junit_empty(void **state)
{
	(void)state;
	struct report rep = { NULL, NULL, 0, false, false, false };
	struct strbuf x = STRBUF_INIT;
	report_junit(&x, &rep, NULL);
	assert_string_equal(x.buf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				   "<testsuites name=\"wslgpu\" tests=\"0\" failures=\"0\" errors=\"0\" "
				   "time=\"0.000\">\n</testsuites>\n");
	if (!have("xmllint")) {
		sb_release(&x);
		skip();
	}
	char *dir = tu_mkdtemp();
	char *file = write_tmp(dir, "empty.xml", &x);
	char *cmd = xasprintf("xmllint --noout --schema %s '%s' 2>&1", SCHEMA, file);
	struct strbuf out = STRBUF_INIT;
	assert_int_equal(run_cmd(cmd, &out), 0);
	free(cmd);
	free(file);
	sb_release(&out);
	sb_release(&x);
	tu_rmtree(dir);
	free(dir);
}

/* ---- Prometheus ---- */

static void promtool_ok(const struct strbuf *text)
{
	if (!have("promtool"))
		return;
	char *dir = tu_mkdtemp();
	char *file = write_tmp(dir, "wslgpu.prom", text);
	char *cmd = xasprintf("promtool check metrics < '%s' 2>&1", file);
	struct strbuf out = STRBUF_INIT;
	int rc = run_cmd(cmd, &out);
	if (rc != 0 || out.len)
		fail_msg("promtool check metrics: exit %d:\n%s\n---- input:\n%.4000s", rc,
			 out.buf ? out.buf : "", text->buf);
	free(cmd);
	free(file);
	sb_release(&out);
	tu_rmtree(dir);
	free(dir);
}

static void test_prom_metrics(void **state)
{
	(void)state;
	struct fixture f;
	fixture_init(&f, "5.15.167.4-microsoft-standard-WSL2", "libcuda.so.1 is missing");
	struct strbuf m = STRBUF_INIT;
	report_prom(&m, &f.rep, &f.meta);
	const char *s = m.buf;
	assert_contains(s, "# HELP wslgpu_check_status ");
	assert_contains(s, "# TYPE wslgpu_check_status gauge\n");
	assert_contains(s, "wslgpu_check_status{check=\"libs.wsl_dir\",layer=\"libs\",status=\"fail\"} 1\n");
	assert_contains(s, "wslgpu_check_status{check=\"libs.wsl_dir\",layer=\"libs\",status=\"pass\"} 0\n");
	assert_contains(s, "wslgpu_check_status{check=\"cuda.kernel\",layer=\"cuda\",status=\"crash\"} 1\n");
	assert_contains(s, "wslgpu_check_status{check=\"nvml.smi\",layer=\"nvml\",status=\"timeout\"} 1\n");
	assert_contains(s, "wslgpu_check_tolerated{check=\"perf.memory\",layer=\"perf\"} 1\n");
	assert_contains(s, "wslgpu_check_tolerated{check=\"libs.wsl_dir\",layer=\"libs\"} 0\n");
	assert_contains(s, "wslgpu_check_duration_seconds{check=\"platform.kind\",layer=\"platform\"} 0.0125\n");
	assert_contains(s, "wslgpu_checks{status=\"fail\"} 2\n");
	assert_contains(s, "wslgpu_checks{status=\"pass\"} 2\n");
	assert_contains(s, "\nwslgpu_failures 3\n");
	assert_contains(s, "\nwslgpu_smoke_success 0\n");
	assert_contains(s, "\nwslgpu_smoke_exit_status 1\n");
	assert_contains(s, "\nwslgpu_smoke_last_run_timestamp_seconds 1764690345\n");
	assert_contains(s, "\nwslgpu_smoke_duration_seconds 1.2345\n");
	assert_contains(s, "wslgpu_build_info{version=\"");
	assert_contains(s, "wslgpu_platform_info{kind=\"wsl2\",distro=\"Ubuntu 24.04 LTS\"} 1\n");
	assert_contains(s, "wslgpu_kernel_info{release=\"5.15.167.4-microsoft-standard-WSL2\"} 1\n");
	assert_contains(s, "wslgpu_driver_info{version=\"551.23\",cuda=\"12.4\"} 1\n");
	assert_contains(s, "\nwslgpu_driver_version 551023000\n");
	assert_contains(s, "wslgpu_wsl_info{version=\"2.3.26.0\",windows=\"10.0.22631.4460\"} 1\n");
	/* the first failure in chain order, not the crash or the time-out after it */
	assert_contains(s, "\nwslgpu_smoke_first_failure_info{check=\"libs.wsl_dir\",layer=\"libs\","
			   "kb=\"libs.wsl_dir.missing_driver_libs\"} 1\n");
	assert_contains(s, "\nwslgpu_policy_violations 0\n");
	assert_contains(s, "\nwslgpu_smoke_budget_seconds 60\n");
	assert_contains(s, "\nwslgpu_smoke_budget_exhausted 1\n");
	assert_contains(s, "wslgpu_cuda_ptx_jit_seconds 0.0415\n");
	assert_contains(s, "# TYPE wslgpu_cuda_kernel_launch_seconds gauge\n"
			   "wslgpu_cuda_kernel_launch_seconds{launch=\"first\"} 0.05225\n"
			   "wslgpu_cuda_kernel_launch_seconds{launch=\"second\"} 0.00075\n");
	/* one series per status per shown check: bounded (seven statuses,
	 * unknown the last) */
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, "\nwslgpu_check_status{")); p++)
		n++;
	assert_int_equal(n, 8 * ST__COUNT);
	assert_int_equal(ST__COUNT, 7);
	assert_contains(s, "status=\"unknown\"} 0\n");
	assert_null(strstr(s, "perf.storage"));
	promtool_ok(&m);
	sb_release(&m);
	fixture_release(&f);
}

static void test_prom_escaping(void **state)
{
	(void)state;
	struct fixture f;
	fixture_init(&f, HOSTILE, HOSTILE);
	struct strbuf m = STRBUF_INIT;
	report_prom(&m, &f.rep, &f.meta);
	assert_contains(m.buf, "wslgpu_kernel_info{release=\"q\\\"uote <tag> &amp; 'apos' ]]> ctl"
			       REPLACEMENT REPLACEMENT "[31m bad" REPLACEMENT REPLACEMENT
			       " nl\\nback\\\\slash \xef\xbf\xbf end\"} 1\n");
	/* A huge machine string is clipped, not carried into every scrape. */
	struct fixture g;
	struct strbuf big = STRBUF_INIT;
	for (int i = 0; i < 4096; i++)
		sb_add(&big, "k\"\\");
	fixture_init(&g, big.buf, "x");
	struct strbuf m2 = STRBUF_INIT;
	report_prom(&m2, &g.rep, &g.meta);
	const char *k = strstr(m2.buf, "wslgpu_kernel_info{release=\"");
	assert_non_null(k);
	assert_true(strcspn(k, "\n") < 300);
	if (have("promtool")) {
		promtool_ok(&m);
		promtool_ok(&m2);
	}
	sb_release(&m);
	sb_release(&m2);
	sb_release(&big);
	fixture_release(&f);
	fixture_release(&g);
}

/* What the fleet's alerts compare: the driver as a number that sorts like
 * the version, policy violations, the first failure without a KB entry. */
static void test_prom_fleet(void **state)
{
	(void)state;
	static const struct check_def pdefs[] = {
		{ "host.driver", "host", "NVIDIA driver version", "", { NULL }, NULL, 0 },
		{ "cuda.init", "cuda", "cuInit", "", { NULL }, NULL, 0 },
		{ "policy.driver", "policy", "Driver policy", "", { NULL }, NULL, 0 },
		{ "policy.wsl", "policy", "WSL policy", "", { NULL }, NULL, 0 },
		{ "policy.memory", "policy", "Memory policy", "", { NULL }, NULL, 0 },
	};
	static const struct {
		const char *version;
		const char *number; /* NULL: no wslgpu_driver_version */
	} drivers[] = {
		{ "551.23", "551023000" },   { "531.79", "531079000" },
		{ "535.104.05", "535104005" }, { "535.54.03", "535054003" },
		{ "580", "580000000" },      { "32.0.15.6636", NULL }, /* Windows' form */
		{ "551.1234", NULL },        { "unknown", NULL },
	};
	for (size_t k = 0; k < sizeof drivers / sizeof drivers[0]; k++) {
		struct result res[5];
		bool shown[5] = { true, true, true, true, true };
		for (size_t i = 0; i < 5; i++) {
			result_init(&res[i], &pdefs[i]);
			res[i].ran = true;
		}
		res_set(&res[0], ST_PASS, NULL, "driver %s", drivers[k].version);
		res_ev(&res[0], "driver_version", "%s", drivers[k].version);
		res_ev(&res[0], "wsl_version", "unknown (wsl.exe not found)");
		res_set(&res[1], ST_CRASH, NULL, "the probe crashed");
		res_set(&res[2], ST_FAIL, KB_POLICY_DRIVER_TOO_OLD, "driver below the minimum");
		res_set(&res[3], ST_FAIL, KB_POLICY_WSL_KERNEL_TOO_OLD, "kernel too old");
		res_set(&res[4], ST_FAIL, NULL, "too little memory");
		res_ev(&res[4], "tolerated", "yes");
		res[4].tolerated_by = xstrdup("policy.ini:9: [tolerate] policy.memory");
		struct report rep = { res, shown, 5, false, false, false };
		struct output_meta meta = { "wslgpu smoke", 1700000000, 10, 1, "policy.ini", 20000,
					    false };
		struct strbuf m = STRBUF_INIT;
		report_prom(&m, &rep, &meta);
		if (drivers[k].number) {
			char want[64];
			snprintf(want, sizeof want, "\nwslgpu_driver_version %s\n", drivers[k].number);
			assert_contains(m.buf, want);
		} else {
			assert_null(strstr(m.buf, "wslgpu_driver_version"));
		}
		assert_contains(m.buf, "\nwslgpu_policy_violations 2\n"); /* not the tolerated one */
		assert_contains(m.buf, "\nwslgpu_failures 3\n");
		/* a crash has no KB entry: no kb label rather than an empty one */
		assert_contains(m.buf, "\nwslgpu_smoke_first_failure_info{check=\"cuda.init\","
				       "layer=\"cuda\"} 1\n");
		assert_contains(m.buf, "\nwslgpu_smoke_budget_exhausted 0\n");
		assert_contains(m.buf, "\nwslgpu_smoke_budget_seconds 20\n");
		assert_null(strstr(m.buf, "wslgpu_wsl_info")); /* "unknown (...)" is no version */
		if (k == 0)
			promtool_ok(&m);
		sb_release(&m);
		for (size_t i = 0; i < 5; i++)
			result_release(&res[i]);
	}
}

static void test_prom_empty(void **state)
{
	(void)state;
	struct report rep = { NULL, NULL, 0, false, false, false };
	struct strbuf m = STRBUF_INIT;
	report_prom(&m, &rep, NULL);
	assert_null(strstr(m.buf, "wslgpu_check_status"));
	assert_contains(m.buf, "\nwslgpu_failures 0\n");
	assert_contains(m.buf, "wslgpu_checks{status=\"pass\"} 0\n");
	assert_null(strstr(m.buf, "wslgpu_kernel_info"));
	assert_null(strstr(m.buf, "wslgpu_driver_version"));
	assert_null(strstr(m.buf, "wslgpu_smoke_first_failure_info"));
	assert_null(strstr(m.buf, "wslgpu_policy_violations"));
	assert_null(strstr(m.buf, "wslgpu_smoke_budget"));
	promtool_ok(&m);
	struct output_meta meta = { "wslgpu smoke", 1700000000, 0, 3, NULL, 0, false };
	sb_reset(&m);
	report_prom(&m, &rep, &meta);
	assert_contains(m.buf, "\nwslgpu_smoke_success 0\n");
	assert_contains(m.buf, "\nwslgpu_smoke_exit_status 3\n");
	assert_contains(m.buf, "\nwslgpu_smoke_budget_exhausted 0\n");
	assert_null(strstr(m.buf, "wslgpu_smoke_budget_seconds"));
	assert_null(strstr(m.buf, "wslgpu_policy_violations")); /* no policy: no count */
	promtool_ok(&m);
	sb_release(&m);
	if (!have("promtool"))
		skip();
}

/* ---- Pushgateway ---- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_push_bad_urls(void **state)
{
	(void)state;
	static const struct {
		const char *url, *want;
	} cases[] = {
		{ "ftp://gw:9091", "only http:// and https:// URLs are accepted, not ftp://" },
		{ "file:///etc/passwd", "only http:// and https:// URLs are accepted, not file://" },
		{ "gw:9091", "not a URL; expected http://HOST:PORT" },
		{ "", "not a URL" },
		{ "http://", "the URL names no host" },
		{ "http:///metrics", "the URL names no host" },
		{ "https://user@/x", "the URL names no host" },
		{ "http://gw 9091", "may not contain spaces or control characters" },
		{ "http://gw:9091/?x=1", "may not contain a query (?)" },
		{ "http://gw:9091/#top", "may not contain a fragment (#)" },
		{ "http://gw:99999", "not a valid URL" },
		{ "http://gw:port", "not a valid URL" },
		/* a password never appears in a message */
		{ "http://user:s3cret@gw 9091", "the URL may not contain spaces" },
		{ "http://user:s3cret@gw:99999", "not a valid URL" },
	};
	double t0 = now_s();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct strbuf err = STRBUF_INIT;
		assert_int_equal(prom_push(cases[i].url, "wslgpu", "ws1", "x 1\n", 1000, &err), -1);
		assert_null(strstr(sb_str(&err), "s3cret"));
		if (!strstr(sb_str(&err), cases[i].want))
			fail_msg("%s: got \"%s\", want \"%s\"", cases[i].url, sb_str(&err), cases[i].want);
		sb_release(&err);
	}
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(prom_push("http://127.0.0.1:1", "", "ws1", "x 1\n", 1000, &err), -1);
	assert_contains(err.buf, "needs a job name");
	sb_release(&err);
	/* no network was touched: all of them answer at once */
	assert_true(now_s() - t0 < 2.0);
}

/* A loopback port nothing listens on (bound, then closed). */
static int closed_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	socklen_t len = sizeof a;
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	return ntohs(a.sin_port);
}

static void test_push_refused(void **state)
{
	(void)state;
	char *url = xasprintf("http://127.0.0.1:%d", closed_port());
	struct strbuf err = STRBUF_INIT;
	double t0 = now_s();
	assert_int_equal(prom_push(url, "wslgpu", "ws1", "x 1\n", 10000, &err), -1);
	assert_true(now_s() - t0 < 5.0); /* refused at once, not after the time-out */
	char *want = xasprintf("cannot push to %s/metrics/job/wslgpu/instance/ws1: Connection refused "
			       "(is the Pushgateway running there?)", url);
	assert_string_equal(err.buf, want);
	free(want);
	free(url);
	/* credentials in the URL are left out of the message */
	sb_reset(&err);
	url = xasprintf("http://user:s3cret@127.0.0.1:%d", closed_port());
	assert_int_equal(prom_push(url, "wslgpu", "ws1", "x 1\n", 10000, &err), -1);
	assert_contains(err.buf, "Connection refused");
	assert_null(strstr(err.buf, "s3cret"));
	/* --push-delete: the same checks and messages, its own verb */
	sb_reset(&err);
	assert_int_equal(prom_push_delete(url, "wslgpu", "ws1", 10000, &err), -1);
	assert_contains(err.buf, "cannot delete http://127.0.0.1:");
	assert_contains(err.buf, "/metrics/job/wslgpu/instance/ws1: Connection refused");
	assert_null(strstr(err.buf, "s3cret"));
	sb_reset(&err);
	assert_int_equal(prom_push_delete("ftp://gw:9091", "wslgpu", "ws1", 1000, &err), -1);
	assert_string_equal(err.buf, "only http:// and https:// URLs are accepted, not ftp://");
	free(url);
	sb_release(&err);
}

/* A gateway that accepts the connection and never answers: the kernel
 * completes the handshake for a listening socket nobody accept()s. */
static void test_push_slow(void **state)
{
	(void)state;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 4), 0);
	socklen_t len = sizeof a;
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	char *url = xasprintf("http://127.0.0.1:%d/", ntohs(a.sin_port));
	struct strbuf err = STRBUF_INIT;
	double t0 = now_s();
	assert_int_equal(prom_push(url, "wslgpu", "ws1", "x 1\n", 1500, &err), -1);
	double took = now_s() - t0;
	assert_true(took >= 1.4);
	assert_true(took < 10.0); /* the time-out plus a generous margin */
	char *want = xasprintf("the Pushgateway at http://127.0.0.1:%d/metrics/job/wslgpu/instance/ws1 "
			       "did not answer within 1.5 s", ntohs(a.sin_port));
	assert_string_equal(err.buf, want);
	free(want);
	free(url);
	close(fd);
	sb_release(&err);
}

static size_t collect(char *data, size_t size, size_t n, void *user)
{
	sb_addn(user, data, size * n);
	return size * n;
}

/* GET url; returns the HTTP status (0: no answer), body in out. */
static long http_get(const char *url, struct strbuf *out)
{
	CURL *h = curl_easy_init();
	assert_non_null(h);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 2000L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
	long code = 0;
	if (curl_easy_perform(h) == CURLE_OK)
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_cleanup(h);
	return code;
}

/* GET url into out until it no longer holds absent (up to 5 s): the
 * Pushgateway answers a DELETE with 202 Accepted and applies it after
 * (handler/delete.go submits the write without waiting for it). */
static long http_get_without(const char *url, struct strbuf *out, const char *absent)
{
	long code = 0;
	for (int i = 0; i < 50; i++) {
		sb_reset(out);
		code = http_get(url, out);
		if (code != 200 || !strstr(out->buf ? out->buf : "", absent))
			break;
		usleep(100 * 1000);
	}
	return code;
}

/* The gateway's pid, so that a failed assertion (which leaves the test
 * early) does not leave it running: main stops it. */
static pid_t gateway_pid = -1;

static void stop_gateway(void)
{
	if (gateway_pid > 0) {
		kill(gateway_pid, SIGTERM);
		waitpid(gateway_pid, NULL, 0);
	}
	gateway_pid = -1;
}

static void test_push_real_gateway(void **state)
{
	(void)state;
	if (!have("prometheus-pushgateway"))
		skip();
	int port = closed_port();
	char listen_arg[64];
	snprintf(listen_arg, sizeof listen_arg, "--web.listen-address=127.0.0.1:%d", port);
	char *dir = tu_mkdtemp();
	char *log = xasprintf("%s/pushgateway.log", dir);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int lfd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (lfd >= 0) {
			dup2(lfd, 1);
			dup2(lfd, 2);
		}
		execlp("prometheus-pushgateway", "prometheus-pushgateway", listen_arg,
		       "--persistence.file=", (char *)NULL);
		_exit(127);
	}
	gateway_pid = pid;
	char *base = xasprintf("http://127.0.0.1:%d", port);
	char *ready = xasprintf("%s/-/ready", base);
	char *metrics = xasprintf("%s/metrics", base);
	bool up = false;
	for (int i = 0; i < 200 && !up; i++) { /* up to 20 s on a loaded machine */
		struct strbuf b = STRBUF_INIT;
		up = http_get(ready, &b) == 200;
		sb_release(&b);
		if (!up)
			usleep(100 * 1000);
	}
	if (!up) {
		stop_gateway();
		fail_msg("the pushgateway did not become ready on %s (log %s)", base, log);
	}

	struct fixture f;
	fixture_init(&f, "5.15.167.4-microsoft-standard-WSL2", "libcuda.so.1 is missing");
	struct strbuf body = STRBUF_INIT;
	report_prom(&body, &f.rep, &f.meta);
	struct strbuf err = STRBUF_INIT;
	int rc = prom_push(base, "wslgpu", "ws-01", body.buf, 5000, &err);
	if (rc != 0)
		fail_msg("push failed: %s", err.buf);
	/* an instance with '/' and spaces goes as @base64 */
	rc = prom_push(base, "wslgpu", "lab/rack 7", body.buf, 5000, &err);
	if (rc != 0)
		fail_msg("push failed: %s", err.buf);

	struct strbuf got = STRBUF_INIT;
	assert_int_equal(http_get(metrics, &got), 200);
	/* the gateway adds job/instance and sorts the labels */
	assert_contains(got.buf, "wslgpu_check_status{check=\"libs.wsl_dir\",instance=\"ws-01\","
				 "job=\"wslgpu\",layer=\"libs\",status=\"fail\"} 1\n");
	assert_contains(got.buf, "wslgpu_check_status{check=\"libs.wsl_dir\",instance=\"lab/rack 7\","
				 "job=\"wslgpu\",layer=\"libs\",status=\"fail\"} 1\n");
	assert_contains(got.buf, "wslgpu_failures{instance=\"ws-01\",job=\"wslgpu\"} 3\n");
	assert_contains(got.buf, "wslgpu_driver_info{cuda=\"12.4\",instance=\"ws-01\",job=\"wslgpu\","
				 "version=\"551.23\"} 1\n");
	assert_contains(got.buf, "wslgpu_smoke_last_run_timestamp_seconds{instance=\"ws-01\",job=\"wslgpu\"} 1.764690345e+09\n");

	/* PUT replaces the group: a check gone from the run is gone there. */
	f.shown[2] = false;
	sb_reset(&body);
	report_prom(&body, &f.rep, &f.meta);
	assert_int_equal(prom_push(base, "wslgpu", "ws-01", body.buf, 5000, &err), 0);
	sb_reset(&got);
	assert_int_equal(http_get(metrics, &got), 200);
	assert_null(strstr(got.buf, "check=\"libs.wsl_dir\",instance=\"ws-01\""));
	assert_contains(got.buf, "check=\"libs.wsl_dir\",instance=\"lab/rack 7\"");
	assert_contains(got.buf, "wslgpu_failures{instance=\"ws-01\",job=\"wslgpu\"} 2\n");

	/* DELETE removes one group (a retired machine), and only that one. */
	assert_int_equal(prom_push_delete(base, "wslgpu", "lab/rack 7", 5000, &err), 0);
	assert_int_equal(http_get_without(metrics, &got, "instance=\"lab/rack 7\""), 200);
	assert_null(strstr(got.buf, "instance=\"lab/rack 7\""));
	assert_contains(got.buf, "wslgpu_failures{instance=\"ws-01\",job=\"wslgpu\"} 2\n");

	/* A body the gateway rejects: its status and first line come back. */
	assert_int_equal(prom_push(base, "wslgpu", "ws-02", "not metrics{\n", 5000, &err), -1);
	assert_contains(err.buf, "/metrics/job/wslgpu/instance/ws-02 answered HTTP 400: ");

	kill(pid, SIGTERM);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	gateway_pid = -1;
	sb_release(&got);
	sb_release(&err);
	sb_release(&body);
	fixture_release(&f);
	free(base);
	free(ready);
	free(metrics);
	free(log);
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	/* Loopback only: no proxy from the developer's environment. */
	unsetenv("http_proxy");
	unsetenv("https_proxy");
	unsetenv("HTTPS_PROXY");
	unsetenv("all_proxy");
	unsetenv("ALL_PROXY");
	/* The schema path is relative to the repository root. */
	if (access(SCHEMA, R_OK) != 0 && getenv("TOP") && chdir(getenv("TOP")) != 0)
		return 3;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_junit_structure),
		cmocka_unit_test(test_junit_schema_hostile),
		cmocka_unit_test(test_junit_empty),
		cmocka_unit_test(test_prom_metrics),
		cmocka_unit_test(test_prom_escaping),
		cmocka_unit_test(test_prom_fleet),
		cmocka_unit_test(test_prom_empty),
		cmocka_unit_test(test_push_bad_urls),
		cmocka_unit_test(test_push_refused),
		cmocka_unit_test(test_push_slow),
		cmocka_unit_test(test_push_real_gateway),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	stop_gateway();
	curl_global_cleanup();
	return rc;
}
