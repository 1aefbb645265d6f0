/* test_runner.c: the probe runner and the command runner — isolation,
 * time limits, crashes, output caps, dependencies and concurrency. */
#include "testutil.h"

#include <signal.h>
#include <sys/wait.h>

#include "core/check.h"
#include "core/proc.h"
#include "core/registry.h"
#include "core/runner.h"

static void p_ok(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	res_ev(r, "k", "v");
	res_set(r, ST_PASS, NULL, "fine");
}

static void p_fail(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	res_set(r, ST_FAIL, "core.probe_crash", "broken");
}

static void p_crash(struct probe_ctx *ctx, struct result *r)
{
	(void)r;
	probe_step(ctx, "calling the bad library");
	raise(SIGSEGV);
}

static void p_hang(struct probe_ctx *ctx, struct result *r)
{
	(void)r;
	probe_step(ctx, "cuInit");
	for (;;)
		pause();
}

static void p_exit(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	(void)r;
	_exit(3);
}

static void p_flood(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	char buf[4096];
	memset(buf, 'x', sizeof buf);
	for (int i = 0; i < 2560; i++) /* 10 MiB on stdout */
		if (write(1, buf, sizeof buf) < 0)
			break;
	res_set(r, ST_PASS, NULL, "flooded");
}

static void p_sleep300(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	usleep(300 * 1000);
	res_set(r, ST_PASS, NULL, "slept");
}

static void p_dep_reader(struct probe_ctx *ctx, struct result *r)
{
	const char *v = probe_dep_get(ctx, "t.ok", "k");
	res_set(r, ST_PASS, NULL, "dep said %s", v ? v : "nothing");
}

static const struct check_def table[] = {
	{ "t.ok", "t", "ok", "", { NULL }, p_ok },
	{ "t.fail", "t", "fail", "", { NULL }, p_fail },
	{ "t.after_fail", "t", "after fail", "", { "t.fail" }, p_ok },
	{ "t.after_after", "t", "after after", "", { "t.after_fail" }, p_ok },
	{ "t.crash", "t", "crash", "", { NULL }, p_crash },
	{ "t.hang", "t", "hang", "", { NULL }, p_hang },
	{ "t.exit", "t", "exit", "", { NULL }, p_exit },
	{ "t.flood", "t", "flood", "", { NULL }, p_flood },
	{ "t.reader", "t", "reader", "", { "t.ok" }, p_dep_reader },
	{ "t.after_unknown", "t", "after unknown", "", { "t.no_such_check" }, p_ok },
	{ "t.s1", "t", "s", "", { NULL }, p_sleep300 },
	{ "t.s2", "t", "s", "", { NULL }, p_sleep300 },
	{ "t.s3", "t", "s", "", { NULL }, p_sleep300 },
	{ "t.s4", "t", "s", "", { NULL }, p_sleep300 },
};
#define N (sizeof table / sizeof table[0])

static int idx(const char *id)
{
	for (size_t i = 0; i < N; i++)
		if (!strcmp(table[i].id, id))
			return (int)i;
	return -1;
}

static void test_runner_isolation(void **state)
{
	(void)state;
	bool want[N];
	struct result res[N];
	for (size_t i = 0; i < N; i++)
		want[i] = true;
	struct run_opts opts = { .timeout_ms = 1500, .max_parallel = 16 };
	double t0 = now_ms();
	runner_run_table(table, N, &opts, want, res);
	double took = now_ms() - t0;

	assert_int_equal(res[idx("t.ok")].status, ST_PASS);
	assert_string_equal(res_get(&res[idx("t.ok")], "k"), "v");
	assert_int_equal(res[idx("t.fail")].status, ST_FAIL);
	/* Skips name the first broken check, through the chain. */
	assert_int_equal(res[idx("t.after_fail")].status, ST_SKIP);
	assert_string_equal(res[idx("t.after_after")].detail,
			    "skipped: t.fail failed, fix that first");
	struct result *c = &res[idx("t.crash")];
	assert_int_equal(c->status, ST_CRASH);
	assert_string_equal(res_get(c, "signal"), "SIGSEGV");
	assert_non_null(strstr(c->detail, "calling the bad library"));
	struct result *h = &res[idx("t.hang")];
	assert_int_equal(h->status, ST_TIMEOUT);
	assert_non_null(strstr(h->detail, "while waiting for: cuInit"));
	assert_int_equal(res[idx("t.exit")].status, ST_CRASH);
	struct result *f = &res[idx("t.flood")];
	assert_int_equal(f->status, ST_PASS);
	assert_true(f->output_truncated);
	assert_true(strlen(f->output) <= RUNNER_OUTPUT_CAP);
	assert_string_equal(res[idx("t.reader")].detail, "dep said v");
	/* A dep that names no check blocks nothing. */
	assert_int_equal(res[idx("t.after_unknown")].status, ST_PASS);
	/* Four 300 ms probes and a 1.5 s hang ran concurrently. */
	assert_true(took < 1500 + 800);
	for (size_t i = 0; i < N; i++)
		result_release(&res[i]);
}

static void test_runner_parallel_limit(void **state)
{
	(void)state;
	bool want[N] = { false };
	struct result res[N];
	want[idx("t.s1")] = want[idx("t.s2")] = want[idx("t.s3")] = want[idx("t.s4")] = true;
	struct run_opts opts = { .timeout_ms = 5000, .max_parallel = 4 };
	double t0 = now_ms();
	runner_run_table(table, N, &opts, want, res);
	double par = now_ms() - t0;
	for (size_t i = 0; i < N; i++)
		result_release(&res[i]);
	opts.max_parallel = 1;
	t0 = now_ms();
	runner_run_table(table, N, &opts, want, res);
	double ser = now_ms() - t0;
	/* Serial takes ~4 x 300 ms; parallel about one. */
	assert_true(ser >= 1150);
	assert_true(par < ser * 0.6);
	for (size_t i = 0; i < N; i++)
		result_release(&res[i]);
}

static void test_proc_run(void **state)
{
	(void)state;
	struct proc_result r;
	const char *echo[] = { "/bin/sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	proc_result_init(&r);
	assert_int_equal(proc_run(echo, NULL, &r), 0);
	assert_int_equal(r.end, PROC_EXITED);
	assert_int_equal(r.code, 3);
	assert_string_equal(r.out.buf, "out\n");
	assert_string_equal(r.err.buf, "err\n");
	proc_result_release(&r);

	const char *hang[] = { "/bin/sh", "-c", "sleep 30", NULL };
	struct proc_opts o = { .timeout_ms = 300 };
	proc_result_init(&r);
	double t0 = now_ms();
	assert_int_equal(proc_run(hang, &o, &r), 0);
	assert_int_equal(r.end, PROC_TIMEOUT);
	assert_true(now_ms() - t0 < 2000);
	proc_result_release(&r);

	const char *segv[] = { "/bin/sh", "-c", "kill -SEGV $$", NULL };
	proc_result_init(&r);
	proc_run(segv, NULL, &r);
	assert_int_equal(r.end, PROC_SIGNALED);
	assert_int_equal(r.sig, SIGSEGV);
	proc_result_release(&r);

	const char *missing[] = { "/nonexistent/nvidia-smi", NULL };
	proc_result_init(&r);
	proc_run(missing, NULL, &r);
	assert_int_equal(r.end, PROC_EXEC_FAILED);
	assert_int_equal(r.code, ENOENT);
	proc_result_release(&r);

	/* A grandchild that keeps stdout open must not keep us waiting. */
	const char *gc[] = { "/bin/sh", "-c", "sleep 30 & echo started", NULL };
	proc_result_init(&r);
	t0 = now_ms();
	proc_run(gc, &o, &r);
	assert_true(now_ms() - t0 < 1500);
	assert_int_equal(r.end, PROC_EXITED);
	assert_string_equal(r.out.buf, "started\n");
	proc_result_release(&r);

	/* Output beyond the cap is drained and flagged, not kept. */
	const char *flood[] = { "/bin/sh", "-c", "head -c 5000000 /dev/zero | tr '\\0' x", NULL };
	struct proc_opts small = { .timeout_ms = 5000, .cap = 1000 };
	proc_result_init(&r);
	proc_run(flood, &small, &r);
	assert_int_equal(r.out.len, 1000);
	assert_true(r.out_truncated);
	assert_int_equal(r.end, PROC_EXITED);
	proc_result_release(&r);
}

/* Every registered check has its probe: the runner calls it unconditionally. */
static void test_registry_complete(void **state)
{
	(void)state;
	size_t n;
	const struct check_def *defs = registry_checks(&n);
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++)
		if (!defs[i].run)
			fail_msg("check %s has no probe function", defs[i].id);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runner_isolation),
		cmocka_unit_test(test_registry_complete),
		cmocka_unit_test(test_runner_parallel_limit),
		cmocka_unit_test(test_proc_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
