/* test_runner.c: the probe runner and the command runner — isolation,
 * time limits, crashes, output caps, dependencies and concurrency. */
#include "testutil.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "core/check.h"
#include "core/proc.h"
#include "core/runner.h"
#include "probes/registry.h"
#include "kb_ids.h"

static void p_ok(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	res_ev(r, "k", "v");
	res_set(r, ST_PASS, NULL, "fine");
}

static void p_fail(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	res_set(r, ST_FAIL, KB_CORE_PROBE_CRASH, "broken");
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

/* Sleeps 300 ms and says when (now_ms: the clock every process shares),
 * so that a test sees which ran at the same time whatever the machine's
 * load does to the total. */
static void p_sleep300(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	res_ev(r, "start", "%.3f", now_ms());
	usleep(300 * 1000);
	res_ev(r, "end", "%.3f", now_ms());
	res_set(r, ST_PASS, NULL, "slept");
}

/* A meeting of the probes that run p_meet, in memory every child shares:
 * with meet_expect(n) each one, once started, waits (up to a second) for
 * all n to have started, so the n overlap exactly when the runner ran
 * them at once, however slowly a loaded machine forks them -- where four
 * fixed 300 ms sleeps stopped overlapping once forking four took longer.
 * With meet_expect(0) each sleeps 300 ms. */
static struct meeting {
	atomic_int arrived;
	int expect;
} *meeting;

static void meet_expect(int n)
{
	if (!meeting) {
		meeting = mmap(NULL, sizeof *meeting, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		assert_true(meeting != MAP_FAILED);
	}
	atomic_store(&meeting->arrived, 0);
	meeting->expect = n;
}

static void p_meet(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	double t0 = now_ms();
	res_ev(r, "start", "%.3f", t0);
	if (meeting && meeting->expect) {
		atomic_fetch_add(&meeting->arrived, 1);
		while (atomic_load(&meeting->arrived) < meeting->expect && now_ms() - t0 < 1000)
			usleep(1000);
	} else {
		usleep(300 * 1000);
	}
	res_ev(r, "end", "%.3f", now_ms());
	res_set(r, ST_PASS, NULL, "met");
}

static void p_dep_reader(struct probe_ctx *ctx, struct result *r)
{
	const char *v = probe_dep_get(ctx, "t.ok", "k");
	res_set(r, ST_PASS, NULL, "dep said %s", v ? v : "nothing");
}

/* Where the probes below leave what the test looks at afterwards: their
 * descriptors are closed, so a file. A vendor probe's child may create no
 * file (src/core/sandbox.h): the test makes it first (make_pid_file), the
 * probe writes into it. */
static char scratch[64];

static void make_pid_file(const char *what)
{
	char path[128];
	snprintf(path, sizeof path, "%s.%s", scratch, what);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
}

static void note_pid(const char *what, pid_t pid)
{
	char path[128], line[32];
	snprintf(path, sizeof path, "%s.%s", scratch, what);
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd >= 0) {
		int n = snprintf(line, sizeof line, "%ld\n", (long)pid);
		ssize_t w = write(fd, line, (size_t)n);
		(void)w;
		close(fd);
	}
}

static long read_pid(const char *what)
{
	char path[128];
	snprintf(path, sizeof path, "%s.%s", scratch, what);
	FILE *f = fopen(path, "r");
	long pid = -1;
	if (f) {
		if (fscanf(f, "%ld", &pid) != 1)
			pid = -1;
		fclose(f);
	}
	unlink(path);
	return pid;
}

static bool alive(long pid)
{
	char path[64], buf[256];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool live = fgets(buf, sizeof buf, f) && !strstr(buf, ") Z ");
	fclose(f);
	return live;
}

/* A vendor library's helper: a child that keeps every descriptor (the
 * result pipe too) and outlives the probe. Its pid is noted by the probe,
 * which knows it at once (the helper itself may not have run yet on a
 * loaded machine when the probe's end kills it). */
static void p_helper(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	pid_t p = fork();
	if (p == 0) {
		sleep(30);
		_exit(0);
	}
	note_pid("helper", p);
	usleep(50 * 1000);
	res_set(r, ST_PASS, NULL, "started a helper");
}

/* A daemon: double fork, setsid, sleep; the middle child notes the
 * daemon's pid before it exits, and the probe waits for it. */
static void p_daemon(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	pid_t p = fork();
	if (p == 0) {
		setsid();
		pid_t d = fork();
		if (d == 0) {
			sleep(30);
			_exit(0);
		}
		note_pid("daemon", d);
		_exit(0);
	}
	waitpid(p, NULL, 0);
	usleep(50 * 1000);
	res_set(r, ST_PASS, NULL, "started a daemon");
}

/* Whether the probes ids[0..n) all ran at the same time (each started
 * before any ended), and whether they ran one at a time instead (each
 * started after the one before ended), from the times they noted. */
static double ev_ms(const struct result *r, const char *key)
{
	const char *v = res_get(r, key);
	assert_non_null(v);
	return strtod(v, NULL);
}

static bool all_at_once(const struct result *res, const int *ids, size_t n)
{
	double last_start = 0, first_end = 1e300;
	for (size_t i = 0; i < n; i++) {
		double s = ev_ms(&res[ids[i]], "start"), e = ev_ms(&res[ids[i]], "end");
		last_start = s > last_start ? s : last_start;
		first_end = e < first_end ? e : first_end;
	}
	return last_start < first_end;
}

static bool one_at_a_time(const struct result *res, const int *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double si = ev_ms(&res[ids[i]], "start"), ei = ev_ms(&res[ids[i]], "end");
			double sj = ev_ms(&res[ids[j]], "start");
			if (i != j && sj > si && sj < ei)
				return false;
		}
	return true;
}

/* Tells the runner to stop (as kill would), then hangs. */
static void p_term_runner(struct probe_ctx *ctx, struct result *r)
{
	(void)r;
	probe_step(ctx, "waiting forever");
	kill(getppid(), SIGTERM);
	for (;;)
		pause();
}

static void p_say_one(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	printf("one");
	fflush(stdout);
	res_set(r, ST_PASS, NULL, "said one");
}

static void p_say_two(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	fprintf(stderr, "two");
	res_set(r, ST_PASS, NULL, "said two");
}

/* CHECK_COMMANDS: in a shared child its command is handed over. */
static void p_command(struct probe_ctx *ctx, struct result *r)
{
	const char *argv[] = { "/bin/sh", "-c", "echo $PPID", NULL };
	struct proc_result pr;
	proc_result_init(&pr);
	int rc = probe_run(ctx, r, argv, NULL, &pr);
	if (rc < 0)
		res_set(r, ST_FAIL, NULL, "proc_run: %d", rc);
	else
		res_set(r, ST_PASS, NULL, "ran in %ld", strtol(pr.out.buf, NULL, 10));
	res_ev(r, "prober", "%ld", (long)getpid());
	proc_result_release(&pr);
}

static void p_pid(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	res_set(r, ST_PASS, NULL, "in %ld", (long)getpid());
}

static const struct check_def table[] = {
	{ "t.ok", "t", "ok", "", { NULL }, p_ok, 0 },
	{ "t.fail", "t", "fail", "", { NULL }, p_fail, 0 },
	{ "t.after_fail", "t", "after fail", "", { "t.fail" }, p_ok, 0 },
	{ "t.after_after", "t", "after after", "", { "t.after_fail" }, p_ok, 0 },
	{ "t.crash", "t", "crash", "", { NULL }, p_crash, 0 },
	{ "t.hang", "t", "hang", "", { NULL }, p_hang, 0 },
	{ "t.exit", "t", "exit", "", { NULL }, p_exit, 0 },
	{ "t.flood", "t", "flood", "", { NULL }, p_flood, 0 },
	{ "t.reader", "t", "reader", "", { "t.ok" }, p_dep_reader, 0 },
	{ "t.after_unknown", "t", "after unknown", "", { "t.no_such_check" }, p_ok, 0 },
	{ "t.s1", "t", "s", "", { NULL }, p_meet, 0 },
	{ "t.s2", "t", "s", "", { NULL }, p_meet, 0 },
	{ "t.s3", "t", "s", "", { NULL }, p_meet, 0 },
	{ "t.s4", "t", "s", "", { NULL }, p_meet, 0 },
};
#define N (sizeof table / sizeof table[0])

/* What a probe leaves behind, and a signal to the runner. */
static const struct check_def table2[] = {
	{ "t.ok", "t", "ok", "", { NULL }, p_ok, 0 },
	{ "t.helper", "t", "helper", "", { NULL }, p_helper, 0 },
	{ "t.daemon", "t", "daemon", "", { NULL }, p_daemon, 0 },
	{ "t.term", "t", "term", "", { NULL }, p_term_runner, 0 },
	{ "t.after_term", "t", "after term", "", { "t.term" }, p_ok, 0 },
};
#define N2 (sizeof table2 / sizeof table2[0])

static int idx(const char *id)
{
	for (size_t i = 0; i < N; i++)
		if (!strcmp(table[i].id, id))
			return (int)i;
	return -1;
}

static int idx2(const char *id)
{
	for (size_t i = 0; i < N2; i++)
		if (!strcmp(table2[i].id, id))
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
	meet_expect(4);
	double t0 = now_ms();
	runner_run_table(table, N, &opts, want, res);

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
	/* Four probes that wait for each other and a 1.5 s hang ran
	 * concurrently: the four at once, and before the hang's limit ran
	 * out. */
	const int s[] = { idx("t.s1"), idx("t.s2"), idx("t.s3"), idx("t.s4") };
	assert_true(all_at_once(res, s, 4));
	for (size_t i = 0; i < 4; i++)
		assert_true(ev_ms(&res[s[i]], "start") < t0 + 1500);
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
	const int s[] = { idx("t.s1"), idx("t.s2"), idx("t.s3"), idx("t.s4") };
	meet_expect(4);
	runner_run_table(table, N, &opts, want, res);
	/* Parallel: the four at once (they wait for each other, so a busy
	 * machine does not blur it); serial takes ~4 x 300 ms, one after
	 * another. */
	assert_true(all_at_once(res, s, 4));
	for (size_t i = 0; i < N; i++)
		result_release(&res[i]);
	opts.max_parallel = 1;
	meet_expect(0);
	double t0 = now_ms();
	runner_run_table(table, N, &opts, want, res);
	double ser = now_ms() - t0;
	assert_true(ser >= 1150);
	assert_true(one_at_a_time(res, s, 4));
	for (size_t i = 0; i < N; i++)
		result_release(&res[i]);
}

/* The deadline holds until the result is in, not until the probe exits;
 * what a probe started ends with it, daemons that setsid() too. */
static void test_runner_leftovers(void **state)
{
	(void)state;
	bool want[N2] = { false };
	struct result res[N2];
	want[idx2("t.helper")] = want[idx2("t.daemon")] = true;
	make_pid_file("helper");
	make_pid_file("daemon");
	/* The helpers live 30 s and the limit is 25 s: a runner that waited
	 * for them would take that long; one that does not, seconds even on a
	 * loaded machine. */
	struct run_opts opts = { .timeout_ms = 25000, .max_parallel = 16 };
	double t0 = now_ms();
	assert_int_equal(runner_run_table(table2, N2, &opts, want, res), 0);
	assert_true(now_ms() - t0 < 10000);
	assert_int_equal(res[idx2("t.helper")].status, ST_PASS);
	assert_int_equal(res[idx2("t.daemon")].status, ST_PASS);
	long helper = read_pid("helper"), daemon = read_pid("daemon");
	assert_true(helper > 0 && daemon > 0);
	usleep(100 * 1000);
	assert_false(alive(helper));
	assert_false(alive(daemon));
	for (size_t i = 0; i < N2; i++)
		result_release(&res[i]);
}

/* SIGTERM during the run: the hung probe is killed, the run returns the
 * signal, and the unfinished checks say they were interrupted. */
static void test_runner_interrupt(void **state)
{
	(void)state;
	bool want[N2] = { false };
	struct result res[N2];
	want[idx2("t.term")] = want[idx2("t.after_term")] = want[idx2("t.ok")] = true;
	struct run_opts opts = { .timeout_ms = 20000, .max_parallel = 16 };
	double t0 = now_ms();
	assert_int_equal(runner_run_table(table2, N2, &opts, want, res), SIGTERM);
	assert_true(now_ms() - t0 < 5000);
	struct result *t = &res[idx2("t.term")];
	assert_int_equal(t->status, ST_SKIP);
	assert_int_equal(t->cut, CUT_INTERRUPTED);
	assert_string_equal(t->detail,
			    "interrupted by SIGTERM before it finished while waiting for: waiting forever");
	struct result *a = &res[idx2("t.after_term")];
	assert_int_equal(a->cut, CUT_INTERRUPTED);
	assert_string_equal(a->detail, "not run: interrupted by SIGTERM");
	/* The handler is gone again: the next SIGTERM would be fatal. */
	struct sigaction sa;
	sigaction(SIGTERM, NULL, &sa);
	assert_true(sa.sa_handler == SIG_DFL);
	for (size_t i = 0; i < N2; i++)
		result_release(&res[i]);
}

/* File probes share a child; each keeps its own result and output; one
 * that crashes or hangs costs only itself. */
static void test_runner_shared(void **state)
{
	(void)state;
	static const struct check_def files[] = {
		{ "f.a", "f", "a", "", { NULL }, p_pid, CHECK_FILES },
		{ "f.b", "f", "b", "", { "f.a" }, p_pid, CHECK_FILES },
		{ "f.one", "f", "one", "", { "f.a" }, p_say_one, CHECK_FILES },
		{ "f.two", "f", "two", "", { "f.one" }, p_say_two, CHECK_FILES },
		{ "f.crash", "f", "crash", "", { "f.a" }, p_crash, CHECK_FILES },
		{ "f.after_crash", "f", "after crash", "", { "f.crash" }, p_ok, CHECK_FILES },
		{ "f.hang", "f", "hang", "", { "f.a" }, p_hang, CHECK_FILES },
		{ "f.c", "f", "c", "", { "f.b" }, p_pid, CHECK_FILES },
		{ "f.cmd", "f", "cmd", "", { "f.a" }, p_command, CHECK_COMMANDS },
		{ "f.vendor", "f", "vendor", "", { "f.a" }, p_pid, 0 },
	};
	enum { NF = sizeof files / sizeof files[0] };
	bool want[NF];
	struct result res[NF];
	for (size_t i = 0; i < NF; i++)
		want[i] = true;
	struct run_opts opts = { .timeout_ms = 1500, .max_parallel = 16 };
	double t0 = now_ms();
	assert_int_equal(runner_run_table(files, NF, &opts, want, res), 0);
	assert_true(now_ms() - t0 < 1500 + 1500);
	/* f.a and f.b ran in one child; the vendor probe in another. */
	assert_string_equal(res[0].detail, res[1].detail);
	assert_string_not_equal(res[0].detail, res[9].detail);
	assert_string_equal(res[2].output, "one");
	assert_string_equal(res[3].output, "two");
	assert_int_equal(res[4].status, ST_CRASH);
	assert_string_equal(res_get(&res[4], "signal"), "SIGSEGV");
	assert_int_equal(res[5].status, ST_SKIP);
	assert_int_equal(res[6].status, ST_TIMEOUT);
	assert_int_equal(res[7].status, ST_PASS);
	/* The command ran, in a child of its own, not in the shared one. */
	struct result *c = &res[8];
	assert_int_equal(c->status, ST_PASS);
	assert_non_null(res_get(c, "ran"));
	char shared[32];
	snprintf(shared, sizeof shared, "%s", res[0].detail + 3);
	assert_string_not_equal(res_get(c, "prober"), shared);
	for (size_t i = 0; i < NF; i++)
		assert_true(res[i].ran);
	for (size_t i = 0; i < NF; i++)
		result_release(&res[i]);
}

/* on_result sees each result a probe reported, once, complete, while the
 * run goes on; the results the runner writes itself (a crash, a skip) it
 * does not see. */
struct seen_results {
	int calls[16];
	char *detail[16];
	bool before_end[16];
};

static void note_result(void *arg, size_t i, const struct result *r)
{
	struct seen_results *s = arg;
	if (i >= 16)
		return;
	s->calls[i]++;
	free(s->detail[i]);
	s->detail[i] = r->detail ? strdup(r->detail) : NULL;
	s->before_end[i] = r->ran && r->status != ST_SKIP;
}

static void test_runner_on_result(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "o.a", "o", "a", "", { NULL }, p_pid, CHECK_FILES },
		{ "o.b", "o", "b", "", { "o.a" }, p_pid, CHECK_FILES },
		{ "o.vendor", "o", "vendor", "", { "o.a" }, p_pid, 0 },
		{ "o.crash", "o", "crash", "", { NULL }, p_crash, CHECK_FILES },
		{ "o.after_crash", "o", "after crash", "", { "o.crash" }, p_ok, CHECK_FILES },
	};
	enum { NO = sizeof defs / sizeof defs[0] };
	bool want[NO];
	struct result res[NO];
	for (size_t i = 0; i < NO; i++)
		want[i] = true;
	struct seen_results seen;
	memset(&seen, 0, sizeof seen);
	struct run_opts opts = { .timeout_ms = 5000, .max_parallel = 16, .on_result = note_result,
				 .on_result_arg = &seen };
	assert_int_equal(runner_run_table(defs, NO, &opts, want, res), 0);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(seen.calls[i], 1);
		assert_true(seen.before_end[i]);
		assert_non_null(seen.detail[i]);
		assert_string_equal(seen.detail[i], res[i].detail);
	}
	assert_int_equal(res[3].status, ST_CRASH);
	assert_int_equal(seen.calls[3], 0);
	assert_int_equal(res[4].status, ST_SKIP);
	assert_int_equal(seen.calls[4], 0);
	for (size_t i = 0; i < NO; i++) {
		free(seen.detail[i]);
		result_release(&res[i]);
	}
}

/* A file probe about to wait on a timer asks to run alone. */
static void p_alone(struct probe_ctx *ctx, struct result *r)
{
	if (probe_alone(ctx)) {
		res_set(r, ST_FAIL, NULL, "still in the shared child");
		return;
	}
	res_set(r, ST_PASS, NULL, "in %ld", (long)getpid());
}

/* probe_alone hands a shared child's probe over to a child of its own; the
 * other members stay where they were; in-process it is false. */
static void test_runner_alone(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "s.a", "s", "a", "", { NULL }, p_pid, CHECK_FILES },
		{ "s.alone", "s", "alone", "", { "s.a" }, p_alone, CHECK_FILES },
		{ "s.b", "s", "b", "", { "s.alone" }, p_pid, CHECK_FILES },
	};
	enum { NS = sizeof defs / sizeof defs[0] };
	for (int no_fork = 0; no_fork < 2; no_fork++) {
		bool want[NS] = { true, true, true };
		struct result res[NS];
		struct run_opts opts = { .timeout_ms = 5000, .max_parallel = 16,
					 .no_fork = no_fork != 0 };
		assert_int_equal(runner_run_table(defs, NS, &opts, want, res), 0);
		for (size_t i = 0; i < NS; i++)
			assert_int_equal(res[i].status, ST_PASS);
		if (no_fork)
			assert_string_equal(res[0].detail, res[1].detail);
		else
			assert_string_not_equal(res[0].detail, res[1].detail);
		for (size_t i = 0; i < NS; i++)
			result_release(&res[i]);
	}
}

/* A child that finished its checks waits for more: a shareable probe that
 * becomes ready later runs in the shared child, a vendor probe in the
 * child of its chain. */
static void test_runner_reuse(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "w.a", "w", "a", "", { NULL }, p_pid, CHECK_FILES },
		{ "w.v1", "w", "v1", "", { "w.a" }, p_pid, 0 },
		{ "w.slow", "w", "slow", "", { "w.a" }, p_sleep300, 0 },
		{ "w.v2", "w", "v2", "", { "w.v1", "after:w.slow" }, p_pid, 0 },
		{ "w.f2", "w", "f2", "", { "after:w.slow" }, p_pid, CHECK_FILES },
		{ "w.other", "w", "other", "", { "after:w.slow" }, p_pid, 0 },
	};
	enum { NW = sizeof defs / sizeof defs[0] };
	bool want[NW];
	struct result res[NW];
	for (size_t i = 0; i < NW; i++)
		want[i] = true;
	struct run_opts opts = { .timeout_ms = 5000, .max_parallel = 16 };
	assert_int_equal(runner_run_table(defs, NW, &opts, want, res), 0);
	for (size_t i = 0; i < NW; i++)
		assert_int_equal(res[i].status, ST_PASS);
	assert_string_equal(res[4].detail, res[0].detail);  /* the shared child again */
	assert_string_equal(res[3].detail, res[1].detail);  /* v1's child again */
	assert_string_not_equal(res[5].detail, res[1].detail); /* not of v1's chain */
	for (size_t i = 0; i < NW; i++)
		result_release(&res[i]);
}

/* Waits (up to 4 s) for the child that ran r.a to be gone (exited and
 * reaped by the runner): its pid is in r.a's detail ("in PID"). */
static void p_wait_gone(struct probe_ctx *ctx, struct result *r)
{
	const struct result *a = probe_dep(ctx, "r.a");
	long pid = a && a->detail ? atol(a->detail + 3) : 0;
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld", pid);
	double end = now_ms() + 4000;
	while (pid > 0 && access(path, F_OK) == 0 && now_ms() < end)
		usleep(5000);
	if (pid > 0 && access(path, F_OK) != 0)
		res_set(r, ST_PASS, NULL, "gone");
	else
		res_set(r, ST_FAIL, NULL, "the shared child %ld is still there", pid);
}

/* A child that no check still to run can go to ends while the others run,
 * not after the last result: the shared child, once its checks are done
 * and only a vendor check is left, is gone before that check ends. */
static void test_runner_release(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "r.a", "r", "a", "", { NULL }, p_pid, CHECK_FILES },
		{ "r.vendor", "r", "vendor", "", { "r.a" }, p_wait_gone, 0 },
	};
	enum { NR = sizeof defs / sizeof defs[0] };
	bool want[NR] = { true, true };
	struct result res[NR];
	struct run_opts opts = { .timeout_ms = 10000, .max_parallel = 16 };
	assert_int_equal(runner_run_table(defs, NR, &opts, want, res), 0);
	assert_int_equal(res[0].status, ST_PASS);
	assert_string_equal(res[1].detail, "gone");
	for (size_t i = 0; i < NR; i++)
		result_release(&res[i]);
}

/* The critical path: the chain of deps whose times add up to the most. */
static void test_critical_path(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "c.root", "c", "", "", { NULL }, p_ok, 0 },
		{ "c.fast", "c", "", "", { "c.root" }, p_ok, 0 },
		{ "c.slow", "c", "", "", { "c.root" }, p_ok, 0 },
		{ "c.end", "c", "", "", { "c.fast", "after:c.slow" }, p_ok, 0 },
		{ "c.skipped", "c", "", "", { "c.end" }, p_ok, 0 },
	};
	struct result res[5];
	double ms[5] = { 10, 5, 300, 20, 0 };
	for (size_t i = 0; i < 5; i++) {
		result_init(&res[i], &defs[i]);
		res[i].ran = true;
		res[i].ms = ms[i];
	}
	res_ev(&res[4], "blocked_by", "c.end");
	size_t path[5];
	double total;
	size_t k = runner_critical_path(defs, 5, res, path, &total);
	assert_int_equal(k, 3);
	assert_int_equal(path[0], 0);
	assert_int_equal(path[1], 2);
	assert_int_equal(path[2], 3);
	assert_true(total > 329.9 && total < 330.1);
	for (size_t i = 0; i < 5; i++)
		result_release(&res[i]);
}

/* CHECK_EARLY: starts before its deps are done, waits for their results
 * before it reads them. */
static void p_early(struct probe_ctx *ctx, struct result *r)
{
	res_ev(r, "start", "%.3f", now_ms());
	printf("before the wait\n");
	fflush(stdout);
	probe_wait_deps(ctx);
	const char *end = probe_dep_get(ctx, "e.slow", "end");
	res_set(r, ST_PASS, NULL, "%s", end ? end : "no result of e.slow");
}

/* An early probe starts with the run, beside its deps, and reads their
 * results after they are done; its time is its own (not the wait); when a
 * dep fails, it is skipped as any check, what it found is dropped. */
static void test_runner_early(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "e.slow", "e", "", "", { NULL }, p_sleep300, 0 },
		{ "e.fail", "e", "", "", { NULL }, p_fail, CHECK_FILES },
		{ "e.early", "e", "", "", { "after:e.slow" }, p_early, CHECK_COMMANDS | CHECK_EARLY },
		{ "e.blocked", "e", "", "", { "e.fail", "after:e.slow" }, p_early,
		  CHECK_COMMANDS | CHECK_EARLY },
	};
	enum { NE = sizeof defs / sizeof defs[0] };
	bool want[NE];
	struct result res[NE];
	for (size_t i = 0; i < NE; i++)
		want[i] = true;
	struct run_opts opts = { .timeout_ms = 5000, .max_parallel = 16 };
	assert_int_equal(runner_run_table(defs, NE, &opts, want, res), 0);
	assert_int_equal(res[2].status, ST_PASS);
	/* It read e.slow's result, and began before e.slow ended. */
	assert_string_equal(res[2].detail, res_get(&res[0], "end"));
	assert_true(strtod(res_get(&res[2], "start"), NULL) < strtod(res_get(&res[0], "end"), NULL));
	assert_non_null(res[2].output);
	assert_true(res[2].ms < 250);
	assert_true(res[2].ms_before_deps <= res[2].ms);
	/* Blocked: skipped, its output void. */
	assert_int_equal(res[3].status, ST_SKIP);
	assert_string_equal(res_get(&res[3], "blocked_by"), "e.fail");
	assert_null(res_get(&res[3], "start"));
	assert_null(res[3].output);
	/* The critical path: e.early ran beside e.slow, not after it. */
	size_t path[NE];
	double total;
	size_t k = runner_critical_path(defs, NE, res, path, &total);
	assert_true(k >= 1);
	assert_true(total < res[0].ms + res[2].ms);
	for (size_t i = 0; i < NE; i++)
		result_release(&res[i]);
}

/* An early probe that would find nothing to run beside its deps
 * (run_opts.early_pays false) gets no child of its own: it runs after its
 * deps, in the shared child of the file probes, and reads their results. */
static bool early_never_pays(const struct check_def *def)
{
	(void)def;
	return false;
}

static void p_pid_after(struct probe_ctx *ctx, struct result *r)
{
	probe_wait_deps(ctx);
	res_ev(r, "start", "%.3f", now_ms());
	const char *end = probe_dep_get(ctx, "e.slow", "end");
	res_set(r, ST_PASS, NULL, "in %ld after %s", (long)getpid(), end ? end : "nothing");
}

static void test_runner_early_unpaid(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "e.slow", "e", "", "", { NULL }, p_sleep300, 0 },
		{ "e.files", "e", "", "", { NULL }, p_pid, CHECK_FILES },
		{ "e.early", "e", "", "", { "after:e.slow" }, p_pid_after, CHECK_COMMANDS | CHECK_EARLY },
	};
	enum { NE = sizeof defs / sizeof defs[0] };
	bool want[NE] = { true, true, true };
	struct result res[NE];
	struct run_opts opts = { .timeout_ms = 5000, .max_parallel = 16,
				 .early_pays = early_never_pays };
	assert_int_equal(runner_run_table(defs, NE, &opts, want, res), 0);
	assert_int_equal(res[2].status, ST_PASS);
	/* After e.slow ended, in the file probes' child, with e.slow's result. */
	assert_true(strtod(res_get(&res[2], "start"), NULL) >= strtod(res_get(&res[0], "end"), NULL));
	char expect[128];
	snprintf(expect, sizeof expect, "%s after %s", res[1].detail, res_get(&res[0], "end"));
	assert_string_equal(res[2].detail, expect);
	assert_true(res[2].ms < 250); /* the wait is not its time */
	for (size_t i = 0; i < NE; i++)
		result_release(&res[i]);
}

/* An early probe whose code crashes or hangs, before its wait or after it,
 * costs only itself: a crash is a crash, a hang its time limit; the wait
 * for its deps is no hang. */
static void p_early_crash(struct probe_ctx *ctx, struct result *r)
{
	(void)r;
	probe_step(ctx, "before the wait");
	raise(SIGSEGV);
}

static void p_early_hang_after(struct probe_ctx *ctx, struct result *r)
{
	(void)r;
	probe_wait_deps(ctx);
	probe_step(ctx, "after the wait");
	for (;;)
		pause();
}

static void p_early_crash_after(struct probe_ctx *ctx, struct result *r)
{
	(void)r;
	probe_wait_deps(ctx);
	probe_step(ctx, "after the wait");
	raise(SIGSEGV);
}

static void test_runner_early_faults(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "e.slow", "e", "", "", { NULL }, p_sleep300, 0 },
		{ "e.crash", "e", "", "", { "after:e.slow" }, p_early_crash, CHECK_COMMANDS | CHECK_EARLY },
		{ "e.hang", "e", "", "", { "after:e.slow" }, p_hang, CHECK_COMMANDS | CHECK_EARLY },
		{ "e.hang_after", "e", "", "", { "after:e.slow" }, p_early_hang_after,
		  CHECK_COMMANDS | CHECK_EARLY },
		{ "e.crash_after", "e", "", "", { "after:e.slow" }, p_early_crash_after,
		  CHECK_COMMANDS | CHECK_EARLY },
		{ "e.next", "e", "", "", { "e.crash" }, p_ok, 0 },
	};
	enum { NE = sizeof defs / sizeof defs[0] };
	bool want[NE];
	struct result res[NE];
	for (size_t i = 0; i < NE; i++)
		want[i] = true;
	struct run_opts opts = { .timeout_ms = 1500, .max_parallel = 16 };
	double t0 = now_ms();
	assert_int_equal(runner_run_table(defs, NE, &opts, want, res), 0);
	/* Each hang ends at its limit, not the run's sum of them. */
	assert_true(now_ms() - t0 < 1500 + 300 + 1500);
	assert_int_equal(res[0].status, ST_PASS);
	assert_int_equal(res[1].status, ST_CRASH);
	assert_string_equal(res_get(&res[1], "signal"), "SIGSEGV");
	assert_int_equal(res[2].status, ST_TIMEOUT);
	assert_int_equal(res[3].status, ST_TIMEOUT);
	assert_int_equal(res[4].status, ST_CRASH);
	assert_string_equal(res_get(&res[4], "signal"), "SIGSEGV");
	/* What depends on a crashed early probe is skipped as after any crash. */
	assert_int_equal(res[5].status, ST_SKIP);
	for (size_t i = 0; i < NE; i++)
		result_release(&res[i]);
}

/* An early probe whose deps are done before it asks for them: their
 * results wait for it (no round trip through the runner), its time is
 * its own; one whose dep failed is ended then, not when it asks. */
static void p_early_busy(struct probe_ctx *ctx, struct result *r)
{
	usleep(300000);
	double asked = now_ms();
	probe_wait_deps(ctx);
	res_ev(r, "waited", "%.3f", now_ms() - asked);
	const char *ok = probe_dep_get(ctx, "e.quick", "ok");
	res_set(r, ST_PASS, NULL, "%s", ok ? ok : "no result of e.quick");
}

static void p_quick(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	res_ev(r, "ok", "quick");
	res_set(r, ST_PASS, NULL, "quick");
}

static void p_early_long(struct probe_ctx *ctx, struct result *r)
{
	usleep(3000000);
	probe_wait_deps(ctx);
	res_set(r, ST_PASS, NULL, "ran");
}

static void test_runner_early_ready(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "e.quick", "e", "", "", { NULL }, p_quick, CHECK_FILES },
		{ "e.fail", "e", "", "", { NULL }, p_fail, CHECK_FILES },
		{ "e.early", "e", "", "", { "e.quick" }, p_early_busy, CHECK_COMMANDS | CHECK_EARLY },
		{ "e.blocked", "e", "", "", { "e.fail" }, p_early_long, CHECK_COMMANDS | CHECK_EARLY },
	};
	enum { NE = sizeof defs / sizeof defs[0] };
	bool want[NE] = { true, true, true, true };
	struct result res[NE];
	struct run_opts opts = { .timeout_ms = 5000, .max_parallel = 16 };
	double t0 = now_ms();
	assert_int_equal(runner_run_table(defs, NE, &opts, want, res), 0);
	/* not the 3 s that e.blocked would have run before it asked */
	assert_true(now_ms() - t0 < 2000);
	assert_int_equal(res[2].status, ST_PASS);
	assert_string_equal(res[2].detail, "quick");
	assert_true(strtod(res_get(&res[2], "waited"), NULL) < 100);
	assert_true(res[2].ms >= 290 && res[2].ms_before_deps >= 290);
	assert_int_equal(res[3].status, ST_SKIP);
	assert_string_equal(res_get(&res[3], "blocked_by"), "e.fail");
	for (size_t i = 0; i < NE; i++)
		result_release(&res[i]);
}

/* A child that runs only our code (shareable probes) gets a process
 * group of its own, out of the terminal's foreground group; one that runs
 * vendor code a session of its own too. */
static void p_group(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	res_ev(r, "own_group", "%s", getpgid(0) == getpid() ? "yes" : "no");
	res_ev(r, "own_session", "%s", getsid(0) == getpid() ? "yes" : "no");
	res_set(r, ST_PASS, NULL, "looked");
}

static void test_runner_groups(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "g.files", "g", "", "", { NULL }, p_group, CHECK_FILES },
		{ "g.command", "g", "", "", { NULL }, p_group, CHECK_COMMANDS },
		{ "g.vendor", "g", "", "", { NULL }, p_group, 0 },
	};
	enum { NG = sizeof defs / sizeof defs[0] };
	bool want[NG] = { true, true, true };
	struct result res[NG];
	struct run_opts opts = { .timeout_ms = 5000, .max_parallel = 16 };
	assert_int_equal(runner_run_table(defs, NG, &opts, want, res), 0);
	for (size_t i = 0; i < NG; i++) {
		assert_int_equal(res[i].status, ST_PASS);
		assert_string_equal(res_get(&res[i], "own_group"), "yes");
	}
	assert_string_equal(res_get(&res[2], "own_session"), "yes");
	for (size_t i = 0; i < NG; i++)
		result_release(&res[i]);
}

/* How long this process has lived, from /proc/self/stat (ticks since boot). */
static void p_age(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[got] = '\0';
	const char *p = strrchr(buf, ')');
	unsigned long long start = 0;
	/* after the name: state is field 3, starttime field 22 */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	double now = (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
	res_ev(r, "age_ms", "%.0f", now - (double)start * 1000.0 / (double)sysconf(_SC_CLK_TCK));
	res_set(r, ST_PASS, NULL, "in %ld", (long)getpid());
}

/* A vendor probe whose deps take a while finds its child started already
 * (the spare, forked beside them), not forked when they are done; a
 * second one, ready at the same time, gets a child of its own. */
static void test_runner_spare(void **state)
{
	(void)state;
	static const struct check_def defs[] = {
		{ "s.files", "s", "", "", { NULL }, p_sleep300, CHECK_FILES },
		{ "s.v1", "s", "", "", { "s.files" }, p_age, 0 },
		{ "s.v2", "s", "", "", { "s.files" }, p_age, 0 },
	};
	enum { NS = sizeof defs / sizeof defs[0] };
	bool want[NS] = { true, true, true };
	struct result res[NS];
	struct run_opts opts = { .timeout_ms = 5000, .max_parallel = 16 };
	assert_int_equal(runner_run_table(defs, NS, &opts, want, res), 0);
	for (size_t i = 0; i < NS; i++)
		assert_int_equal(res[i].status, ST_PASS);
	double a1 = strtod(res_get(&res[1], "age_ms"), NULL);
	double a2 = strtod(res_get(&res[2], "age_ms"), NULL);
	assert_string_not_equal(res[1].detail, res[2].detail);
	/* one of them lived through s.files' 300 ms */
	assert_true((a1 > a2 ? a1 : a2) >= 200);
	for (size_t i = 0; i < NS; i++)
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
	assert_true(now_ms() - t0 < 10000); /* at its limit, not the sleep's 30 s */
	proc_result_release(&r);

	const char *segv[] = { "/bin/sh", "-c", "kill -SEGV $$", NULL };
	proc_result_init(&r);
	proc_run(segv, NULL, &r);
	assert_int_equal(r.end, PROC_SIGNALED);
	assert_int_equal(r.sig, SIGSEGV);
	proc_result_release(&r);

	/* env_set: a name replaced, one added, in the command only; the
	 * caller's environment and signal mask as they were. */
	setenv("WSLGPU_TEST_A", "old", 1);
	unsetenv("WSLGPU_TEST_B");
	const char *env[] = { "WSLGPU_TEST_A=new", "WSLGPU_TEST_B=added", NULL };
	const char *show[] = { "/bin/sh", "-c", "echo \"$WSLGPU_TEST_A $WSLGPU_TEST_B\"", NULL };
	struct proc_opts eo = { .env_set = env };
	sigset_t usr2, before, after;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, &before);
	proc_result_init(&r);
	assert_int_equal(proc_run(show, &eo, &r), 0);
	assert_string_equal(r.out.buf, "new added\n");
	assert_string_equal(getenv("WSLGPU_TEST_A"), "old");
	assert_null(getenv("WSLGPU_TEST_B"));
	proc_result_release(&r);
	/* ...and the command starts with none blocked: the command reads its
	 * own mask (a shell reading its parent's would race with the mask
	 * dash holds while it forks, all signals blocked) */
	const char *mask[] = { "/bin/grep", "SigBlk", "/proc/self/status", NULL };
	proc_result_init(&r);
	assert_int_equal(proc_run(mask, NULL, &r), 0);
	assert_string_equal(r.out.buf, "SigBlk:\t0000000000000000\n");
	sigprocmask(SIG_BLOCK, NULL, &after);
	assert_true(sigismember(&after, SIGUSR2));
	assert_false(sigismember(&after, SIGTERM));
	sigprocmask(SIG_SETMASK, &before, NULL);
	unsetenv("WSLGPU_TEST_A");
	proc_result_release(&r);

	const char *missing[] = { "/nonexistent/nvidia-smi", NULL };
	proc_result_init(&r);
	proc_run(missing, NULL, &r);
	assert_int_equal(r.end, PROC_EXEC_FAILED);
	assert_int_equal(r.code, ENOENT);
	proc_result_release(&r);

	/* A grandchild that keeps stdout open must not keep us waiting: not
	 * for its 30 s, nor for the limit (20 s, which a loaded machine never
	 * needs to run the shell; 300 ms was not always enough). */
	const char *gc[] = { "/bin/sh", "-c", "sleep 30 & echo started", NULL };
	struct proc_opts slow = { .timeout_ms = 20000 };
	proc_result_init(&r);
	t0 = now_ms();
	proc_run(gc, &slow, &r);
	assert_true(now_ms() - t0 < 10000);
	assert_int_equal(r.end, PROC_EXITED);
	assert_string_equal(r.out.buf, "started\n");
	proc_result_release(&r);

	/* Closing its output is not its end: wait for the exit status. */
	const char *closes[] = { "/bin/sh", "-c", "echo hi; exec >&- 2>&-; sleep 0.3; exit 4", NULL };
	struct proc_opts longer = { .timeout_ms = 5000 };
	proc_result_init(&r);
	proc_run(closes, &longer, &r);
	assert_int_equal(r.end, PROC_EXITED);
	assert_int_equal(r.code, 4);
	assert_string_equal(r.out.buf, "hi\n");
	proc_result_release(&r);

	/* No descriptor of ours reaches the command. */
	int fd = open("/dev/null", O_RDONLY); /* not close-on-exec */
	assert_true(fd > 2);
	char script[96];
	snprintf(script, sizeof script, "test -e /proc/$$/fd/%d && echo inherited; exit 0", fd);
	const char *fds[] = { "/bin/sh", "-c", script, NULL };
	proc_result_init(&r);
	proc_run(fds, NULL, &r);
	assert_int_equal(r.end, PROC_EXITED);
	assert_string_equal(sb_str(&r.out), "");
	proc_result_release(&r);
	close(fd);

	/* Output beyond the cap is drained and flagged, not kept. */
	const char *flood[] = { "/bin/sh", "-c", "head -c 5000000 /dev/zero | tr '\\0' x", NULL };
	struct proc_opts small = { .timeout_ms = 5000, .cap = 1000 };
	proc_result_init(&r);
	proc_run(flood, &small, &r);
	assert_int_equal(r.out.len, 1000);
	assert_true(r.out_truncated);
	assert_int_equal(r.end, PROC_EXITED);
	proc_result_release(&r);

	/* With stop_at_cap, a command that prints without end is killed once
	 * its output passes the cap, its whole group with it (the grandchild
	 * sleep here), long before its limit; what it printed up to the cap
	 * is kept. */
	char pidfile[] = "/tmp/wslgpu-test-overXXXXXX";
	int pfd = mkstemp(pidfile);
	assert_true(pfd >= 0);
	close(pfd);
	char endless[160];
	snprintf(endless, sizeof endless, "sleep 60 & echo $! >%s; exec yes", pidfile);
	const char *over[] = { "/bin/sh", "-c", endless, NULL };
	struct proc_opts stop = { .timeout_ms = 60000, .cap = 1000, .stop_at_cap = true };
	proc_result_init(&r);
	t0 = now_ms();
	assert_int_equal(proc_run(over, &stop, &r), 0);
	assert_true(now_ms() - t0 < 30000); /* not at its 60 s limit */
	assert_int_equal(r.end, PROC_OUTPUT_OVER);
	assert_int_equal(r.out.len, 1000);
	assert_true(r.out_truncated);
	assert_int_equal(memcmp(r.out.buf, "y\ny\n", 4), 0);
	struct strbuf how = STRBUF_INIT;
	proc_describe_end(&r, &how);
	assert_string_equal(how.buf, "printed more than 1000 bytes and was stopped");
	sb_release(&how);
	proc_result_release(&r);
	FILE *pf = fopen(pidfile, "r");
	assert_non_null(pf);
	int gc_pid = 0;
	assert_int_equal(fscanf(pf, "%d", &gc_pid), 1);
	fclose(pf);
	unlink(pidfile);
	/* gone (or a zombie until init reaps it), within seconds, not 60 */
	bool gone = false;
	for (int i = 0; i < 1000 && !gone; i++) {
		char stat_path[64], st[256] = "";
		snprintf(stat_path, sizeof stat_path, "/proc/%d/stat", gc_pid);
		FILE *sf = fopen(stat_path, "r");
		if (!sf) {
			gone = true;
			break;
		}
		size_t n = fread(st, 1, sizeof st - 1, sf);
		fclose(sf);
		st[n] = '\0';
		const char *close_paren = strrchr(st, ')');
		gone = close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z';
		if (!gone)
			poll(NULL, 0, 10);
	}
	assert_true(gone);

	/* Output up to the cap is no reason to stop it. */
	const char *fits[] = { "/bin/sh", "-c", "head -c 1000 /dev/zero; exit 5", NULL };
	proc_result_init(&r);
	proc_run(fits, &stop, &r);
	assert_int_equal(r.end, PROC_EXITED);
	assert_int_equal(r.code, 5);
	assert_int_equal(r.out.len, 1000);
	assert_false(r.out_truncated);
	proc_result_release(&r);
}

/* ---- probes that touch the terminal, stop, or write where they must not ---- */

/* What a vendor library could reach: its session, a terminal, descriptors. */
static void p_detached(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
	res_ev(r, "tty", "%s", tty >= 0 ? "opened" : "none");
	if (tty >= 0)
		close(tty);
	res_ev(r, "own_session", "%s", getsid(0) == getpid() ? "yes" : "no");
	int low = 0;
	for (int fd = 3; fd < 64; fd++)
		low += fcntl(fd, F_GETFD) >= 0;
	res_ev(r, "low_fds", "%d", low);
	res_set(r, ST_PASS, NULL, "looked");
}

static void p_stop(struct probe_ctx *ctx, struct result *r)
{
	(void)r;
	probe_step(ctx, "cuInit");
	raise(SIGSTOP);
	res_set(r, ST_PASS, NULL, "continued");
}

/* A job control stop from no terminal: its group is orphaned, so the
 * kernel lets it go on. */
static void p_ttou(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	raise(SIGTTOU);
	raise(SIGTTIN);
	raise(SIGTSTP);
	res_set(r, ST_PASS, NULL, "continued");
}

/* Writes a line into every descriptor open for writing (the result pipe,
 * wherever it is), then would pass. */
static void p_scribble(struct probe_ctx *ctx, struct result *r)
{
	probe_step(ctx, "cuInit");
	static const char line[] = "a driver's line in a descriptor it does not own\n";
	for (int fd = 3; fd < 4096; fd++) {
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY && write(fd, line, sizeof line - 1) < 0) {
			/* best effort */
		}
	}
	res_set(r, ST_PASS, NULL, "wrote");
}

static const struct check_def hostile[] = {
	{ "h.detached", "t", "", "", { NULL }, p_detached, 0 },
	{ "h.stop", "t", "", "", { NULL }, p_stop, 0 },
	{ "h.ttou", "t", "", "", { NULL }, p_ttou, 0 },
	{ "h.scribble", "t", "", "", { NULL }, p_scribble, 0 },
	{ "h.after_scribble", "t", "", "", { "h.scribble", NULL }, p_ok, 0 },
};
#define NH (sizeof hostile / sizeof hostile[0])

static void test_runner_hostile(void **state)
{
	(void)state;
	bool want[NH];
	struct result res[NH];
	for (size_t i = 0; i < NH; i++)
		want[i] = true;
	/* A time limit no loaded machine reaches: "at once" is below it. */
	struct run_opts opts = { .timeout_ms = 20000, .max_parallel = 16 };
	int keep = open("/dev/null", O_WRONLY); /* a caller's descriptor */
	assert_true(keep > 2);
	double t0 = now_ms();
	runner_run_table(hostile, NH, &opts, want, res);
	assert_true(now_ms() - t0 < 15000);
	close(keep);

	struct result *d = &res[0];
	assert_int_equal(d->status, ST_PASS);
	assert_string_equal(res_get(d, "tty"), "none");
	assert_string_equal(res_get(d, "own_session"), "yes");
	assert_string_equal(res_get(d, "low_fds"), "0");
	struct result *s = &res[1];
	assert_int_equal(s->status, ST_CRASH);
	assert_string_equal(s->kb, KB_CORE_PROBE_STOPPED);
	assert_string_equal(res_get(s, "stopped_by"), "SIGSTOP");
	assert_non_null(strstr(s->detail, "stopped (SIGSTOP)"));
	assert_non_null(strstr(s->detail, "cuInit"));
	assert_int_equal(res[2].status, ST_PASS);
	struct result *w = &res[3];
	assert_int_equal(w->status, ST_CRASH);
	assert_string_equal(w->kb, KB_CORE_PROBE_FOREIGN_WRITE);
	assert_non_null(strstr(res_get(w, "foreign_bytes"), "a driver's line"));
	assert_non_null(strstr(w->detail, "cuInit"));
	assert_int_equal(res[4].status, ST_SKIP);
	for (size_t i = 0; i < NH; i++)
		result_release(&res[i]);

	/* A command: its own session, no terminal; stopped is not a hang. */
	struct proc_result pr;
	const char *look[] = { "/bin/sh", "-c",
			       "if (: </dev/tty) 2>/dev/null; then echo tty; else echo no-tty; fi; "
			       "ps -o sid= -p $$ | tr -d ' '; echo $$", NULL };
	proc_result_init(&pr);
	assert_int_equal(proc_run(look, NULL, &pr), 0);
	assert_int_equal(pr.end, PROC_EXITED);
	assert_non_null(strstr(pr.out.buf, "no-tty\n"));
	long sid = 0, pid = -1;
	const char *nl = strchr(pr.out.buf, '\n');
	if (nl && sscanf(nl + 1, "%ld %ld", &sid, &pid) == 2)
		assert_int_equal(sid, pid);
	proc_result_release(&pr);

	const char *stop[] = { "/bin/sh", "-c", "kill -STOP $$; exit 0", NULL };
	struct proc_opts o = { .timeout_ms = 20000 };
	proc_result_init(&pr);
	t0 = now_ms();
	assert_int_equal(proc_run(stop, &o, &pr), 0);
	assert_true(now_ms() - t0 < 15000);
	assert_int_equal(pr.end, PROC_STOPPED);
	assert_int_equal(pr.sig, SIGSTOP);
	struct strbuf sb = STRBUF_INIT;
	proc_describe_end(&pr, &sb);
	assert_string_equal(sb.buf, "was stopped by SIGSTOP and killed");
	sb_release(&sb);
	proc_result_release(&pr);
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
	snprintf(scratch, sizeof scratch, "/tmp/test_runner.%ld", (long)getpid());
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runner_leftovers),
		cmocka_unit_test(test_runner_interrupt),
		cmocka_unit_test(test_runner_shared),
		cmocka_unit_test(test_runner_on_result),
		cmocka_unit_test(test_runner_alone),
		cmocka_unit_test(test_runner_reuse),
		cmocka_unit_test(test_runner_release),
		cmocka_unit_test(test_critical_path),
		cmocka_unit_test(test_runner_early),
		cmocka_unit_test(test_runner_early_unpaid),
		cmocka_unit_test(test_runner_early_faults),
		cmocka_unit_test(test_runner_early_ready),
		cmocka_unit_test(test_runner_groups),
		cmocka_unit_test(test_runner_spare),
		cmocka_unit_test(test_runner_isolation),
		cmocka_unit_test(test_registry_complete),
		cmocka_unit_test(test_runner_parallel_limit),
		cmocka_unit_test(test_proc_run),
		cmocka_unit_test(test_runner_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
