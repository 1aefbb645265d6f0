/* test_history.c: the run history database -- SHA-256 against the FIPS
 * vectors, the hashed machine id, facts from evidence, recording and
 * reading back, the table's rows read from the columns it shows (with and
 * without the index of problem checks), what changed between runs, the
 * text and JSON output, and
 * the reliability promises: a foreign, non-SQLite, damaged or newer file
 * is refused and left byte for byte; a read-only directory is an error,
 * not a crash; two concurrent writers lose nothing; a writer killed with
 * SIGKILL mid-transaction leaves a consistent database holding every run
 * whose record call returned. */
#include "testutil.h"

#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>

#include "core/result.h"
#include "core/rootfs.h"
#include "core/text.h"
#include "history/history.h"
#include "core/sha256.h"
#include "kb/kb.h"
#include "probes/registry.h"
#include "kb_ids.h"

#define MACHINE_ID_A "0123456789abcdef0123456789abcdef"
#define MACHINE_ID_B "fedcba9876543210fedcba9876543210"

/* ---- helpers: a report of hand-made results ---- */

struct fake {
	struct result *res;
	bool *shown;
	size_t n;
	struct report rep;
};

static void fake_init(struct fake *f)
{
	const struct check_def *defs = registry_checks(&f->n);
	f->res = xcalloc(f->n, sizeof *f->res);
	f->shown = xcalloc(f->n, sizeof *f->shown);
	for (size_t i = 0; i < f->n; i++) {
		result_init(&f->res[i], &defs[i]);
		f->shown[i] = true;
	}
	f->rep.results = f->res;
	f->rep.shown = f->shown;
	f->rep.n = f->n;
	f->rep.verbose = false;
	f->rep.color = false;
}

static struct result *fake_set(struct fake *f, const char *id, enum status st, const char *kb,
			       const char *detail)
{
	int i = registry_find(id);
	assert_true(i >= 0);
	struct result *r = &f->res[i];
	/* A clean slate: a test that sets a check twice means the second. */
	result_release(r);
	result_init(r, r->def);
	r->ran = true;
	res_set(r, st, kb, "%s", detail);
	return r;
}

static void fake_release(struct fake *f)
{
	for (size_t i = 0; i < f->n; i++)
		result_release(&f->res[i]);
	free(f->res);
	free(f->shown);
}

/* A WSL2 machine with driver, kernel and torch as given; cuda.kernel and
 * frameworks.torch with the statuses given. */
static void fake_machine(struct fake *f, const char *driver, const char *kernel, const char *torch,
			 enum status kernel_st, enum status torch_st)
{
	fake_init(f);
	struct result *r = fake_set(f, "platform.kind", ST_PASS, NULL, "WSL2");
	res_ev(r, "kind", "wsl2");
	res_ev(r, "kernel", "%s", kernel);
	res_ev(r, "distro", "Ubuntu 22.04.4 LTS");
	r = fake_set(f, "platform.distro", ST_PASS, NULL, "Ubuntu 22.04.4 LTS");
	res_ev(r, "PRETTY_NAME", "Ubuntu 22.04.4 LTS");
	r = fake_set(f, "host.driver", ST_PASS, NULL, "driver");
	res_ev(r, "driver_version", "%s", driver);
	res_ev(r, "driver_cuda_version", "12.4");
	res_ev(r, "wsl_version", "unknown (wsl.exe not found)");
	r = fake_set(f, "cuda.load", ST_PASS, NULL, "loaded");
	res_ev(r, "loaded", "/usr/lib/wsl/lib/libcuda.so.1");
	r = fake_set(f, "cuda.devices", ST_PASS, NULL, "1 device");
	res_ev(r, "device.0.name", "NVIDIA GeForce RTX 3080");
	fake_set(f, "cuda.kernel", kernel_st, kernel_st == ST_PASS ? NULL : KB_CUDA_KERNEL_LAUNCH_FAILED,
		 kernel_st == ST_PASS ? "a kernel ran" : "the kernel launch failed");
	r = fake_set(f, "frameworks.torch", torch_st, torch_st == ST_PASS ? NULL : KB_FRAMEWORKS_TORCH_CPU_ONLY,
		     "PyTorch in /home/alice/venv/lib/python3.10/site-packages/torch");
	res_ev(r, "version", "%s", torch);
	res_ev(r, "cuda_build", "12.4");
	res_ev(r, "python_version", "3.10.12");
}

static char *scratch_root(const char *machine_id)
{
	char *dir = tu_mkdtemp();
	assert_non_null(dir);
	if (machine_id) {
		struct strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "%s\n", machine_id);
		tu_write_str(dir, "root/etc/machine-id", sb.buf);
		sb_release(&sb);
	} else {
		tu_write_str(dir, "root/etc/.keep", "");
	}
	struct strbuf root = STRBUF_INIT;
	sb_addf(&root, "%s/root", dir);
	assert_int_equal(rootfs_set(root.buf), 0);
	sb_release(&root);
	return dir;
}

static char *path_in(const char *dir, const char *rel)
{
	return xasprintf("%s/%s", dir, rel);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_addn(&sb, buf, n);
	fclose(f);
	*len = sb.len;
	return sb_detach(&sb);
}

static int record(const char *db, struct fake *f, time_t when, struct strbuf *err)
{
	struct history_meta meta = { when, 1234.5, "smoke", 0, NULL };
	return history_record(db, &f->rep, &meta, err);
}

static long long sql_int(const char *db_path, const char *sql)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	long long v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static char *sql_text(const char *db_path, const char *sql)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	char *v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static time_t utc(int y, int mo, int d, int h, int mi)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	return timegm(&tm);
}

/* ---- SHA-256 ---- */

static void test_sha256_vectors(void **state)
{
	(void)state;
	char hex[65];
	/* FIPS 180-4 examples (NIST CSRC "Example Algorithms", SHA256.pdf). */
	sha256_hex("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha256_hex("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_hex(two, strlen(two), hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	const char *four = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	sha256_hex(four, strlen(four), hex);
	assert_string_equal(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	/* One million 'a', fed in odd-sized pieces across block boundaries. */
	struct sha256 s;
	unsigned char d[32];
	char piece[997];
	memset(piece, 'a', sizeof piece);
	sha256_init(&s);
	size_t left = 1000000;
	while (left) {
		size_t n = left < sizeof piece ? left : sizeof piece;
		sha256_update(&s, piece, n);
		left -= n;
	}
	sha256_final(&s, d);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* 55, 56 and 64 bytes: the padding edge cases. */
	static const struct {
		size_t n;
		const char *hex;
	} edges[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
	};
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
		sha256_hex(piece, edges[i].n, hex);
		assert_string_equal(hex, edges[i].hex);
	}
}

/* ---- machine id, default path ---- */

static void test_machine_hash(void **state)
{
	(void)state;
	char *dir = scratch_root(MACHINE_ID_A);
	struct strbuf a = STRBUF_INIT, a2 = STRBUF_INIT, b = STRBUF_INIT;
	history_machine_hash(&a);
	assert_int_equal(a.len, 16);
	for (size_t i = 0; i < a.len; i++)
		assert_true(strchr("0123456789abcdef", a.buf[i]) != NULL);
	/* Not the id, nor a plain unsalted hash of it. */
	assert_null(strstr(MACHINE_ID_A, a.buf));
	char plain[65];
	sha256_hex(MACHINE_ID_A, 32, plain);
	assert_memory_not_equal(plain, a.buf, 16);
	history_machine_hash(&a2);
	assert_string_equal(a.buf, a2.buf);
	tu_write_str(dir, "root/etc/machine-id", MACHINE_ID_B "\n");
	history_machine_hash(&b);
	assert_string_not_equal(a.buf, b.buf);

	/* systemd's first-boot placeholder: fall back to D-Bus's copy. */
	tu_write_str(dir, "root/etc/machine-id", "uninitialized\n");
	tu_write_str(dir, "root/var/lib/dbus/machine-id", MACHINE_ID_A "\n");
	sb_reset(&a2);
	history_machine_hash(&a2);
	assert_string_equal(a.buf, a2.buf);
	/* Neither: unknown. */
	tu_write_str(dir, "root/var/lib/dbus/machine-id", "");
	sb_reset(&a2);
	history_machine_hash(&a2);
	assert_string_equal(a2.buf, "unknown");
	sb_release(&a);
	sb_release(&a2);
	sb_release(&b);
	tu_rmtree(dir);
	free(dir);
}

static void test_default_path(void **state)
{
	(void)state;
	struct strbuf p = STRBUF_INIT;
	setenv("XDG_STATE_HOME", "/x/state", 1);
	history_default_path(&p);
	assert_string_equal(p.buf, "/x/state/wslgpu/history.db");
	/* A relative XDG_STATE_HOME is invalid (XDG spec): ignored. */
	setenv("XDG_STATE_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	sb_reset(&p);
	history_default_path(&p);
	assert_string_equal(p.buf, "/home/u/.local/state/wslgpu/history.db");
	unsetenv("XDG_STATE_HOME");
	sb_reset(&p);
	history_default_path(&p);
	assert_string_equal(p.buf, "/home/u/.local/state/wslgpu/history.db");
	sb_release(&p);
}

/* ---- facts ---- */

static void test_facts(void **state)
{
	(void)state;
	struct fake f;
	fake_machine(&f, "551.23", "5.15.167.4-microsoft-standard-WSL2", "2.6.0+cu124", ST_PASS, ST_PASS);
	struct result *r = fake_set(&f, "nvml.smi", ST_PASS, NULL, "ok");
	res_ev(r, "driver_version", "999.99"); /* host.driver comes first */
	r = fake_set(&f, "cuda.devices", ST_PASS, NULL, "2 devices");
	res_ev(r, "device.0.name", "GPU Zero");
	res_ev(r, "device.1.name", "GPU One");
	r = fake_set(&f, "containers.docker", ST_PASS, NULL, "docker");
	res_ev(r, "server_version", "26.1.3");
	struct history_kv *kv;
	size_t n;
	history_extract_facts(&f.rep, &kv, &n);
	struct {
		const char *key, *val;
	} want[] = {
		{ "platform", "wsl2" },
		{ "kernel", "5.15.167.4-microsoft-standard-WSL2" },
		{ "distro", "Ubuntu 22.04.4 LTS" },
		{ "driver.version", "551.23" },
		{ "driver.cuda", "12.4" },
		{ "gpu", "GPU Zero, GPU One" },
		{ "libcuda", "/usr/lib/wsl/lib/libcuda.so.1" },
		{ "python", "3.10.12" },
		{ "torch", "2.6.0+cu124" },
		{ "torch.cuda", "12.4" },
		{ "docker", "26.1.3" },
	};
	for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
		const char *got = NULL;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(kv[i].key, want[w].key))
				got = kv[i].val;
		if (!got || strcmp(got, want[w].val))
			fail_msg("fact %s: '%s', expected '%s'", want[w].key, got ? got : "(none)", want[w].val);
	}
	/* "unknown (...)" is no fact. */
	for (size_t i = 0; i < n; i++)
		assert_string_not_equal(kv[i].key, "wsl.version");
	history_kv_free(kv, n);
	fake_release(&f);

	/* Fallbacks: no host.driver -> nvml.smi's driver; no CUDA devices ->
	 * nvidia-smi's names; CPU-only torch's CUDA "None" is no fact. */
	fake_init(&f);
	r = fake_set(&f, "nvml.smi", ST_PASS, NULL, "ok");
	res_ev(r, "driver_version", "531.79");
	res_ev(r, "gpu.0.name", "NVIDIA T4");
	r = fake_set(&f, "frameworks.torch", ST_FAIL, "x", "cpu");
	res_ev(r, "version", "2.6.0+cpu");
	res_ev(r, "cuda_build", "None");
	history_extract_facts(&f.rep, &kv, &n);
	assert_int_equal(n, 3);
	assert_string_equal(kv[0].key, "driver.version");
	assert_string_equal(kv[0].val, "531.79");
	assert_string_equal(kv[1].key, "gpu");
	assert_string_equal(kv[1].val, "NVIDIA T4");
	assert_string_equal(kv[2].key, "torch");
	history_kv_free(kv, n);
	fake_release(&f);

	assert_string_equal(history_fact_label("driver.version", "wsl2"), "Windows driver");
	assert_string_equal(history_fact_label("driver.version", "native"), "driver");
	assert_string_equal(history_fact_label("torch", NULL), "PyTorch");
	assert_string_equal(history_fact_label("no.such", NULL), "no.such");
}

/* ---- record and read back ---- */

static void test_record_roundtrip(void **state)
{
	(void)state;
	char *dir = scratch_root(MACHINE_ID_A);
	/* Missing directories are created. */
	char *db = path_in(dir, "state/wslgpu/history.db");
	struct strbuf err = STRBUF_INIT;
	struct fake f;
	fake_machine(&f, "551.23", "5.15.167.4-microsoft-standard-WSL2", "2.6.0+cu124", ST_PASS, ST_PASS);
	assert_int_equal(record(db, &f, utc(2025, 11, 3, 9, 0), &err), 0);
	fake_release(&f);
	fake_machine(&f, "531.79", "5.15.167.4-microsoft-standard-WSL2", "2.6.0+cu124", ST_FAIL, ST_PASS);
	struct history_meta meta = { utc(2025, 11, 10, 9, 0), 2500, "smoke", 1,
				     "/home/alice/fleet/policy.ini" };
	assert_int_equal(history_record(db, &f.rep, &meta, &err), 0);
	fake_release(&f);

	struct stat st;
	assert_int_equal(stat(db, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	char *wdir = path_in(dir, "state/wslgpu");
	assert_int_equal(stat(wdir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	free(wdir);
	assert_int_equal(sql_int(db, "PRAGMA application_id"), HISTORY_APPLICATION_ID);
	assert_int_equal(sql_int(db, "PRAGMA user_version"), HISTORY_SCHEMA_VERSION);
	char *mode = sql_text(db, "PRAGMA journal_mode");
	assert_string_equal(mode, "wal");
	free(mode);
	assert_int_equal(sql_int(db, "SELECT count(*) FROM runs"), 2);
	/* Nothing stored says alice or the raw machine id. */
	assert_int_equal(sql_int(db, "SELECT count(*) FROM checks WHERE detail LIKE '%alice%'"), 0);
	assert_int_equal(sql_int(db, "SELECT count(*) FROM runs WHERE policy_path LIKE '%alice%' "
				     "OR machine LIKE '%" MACHINE_ID_A "%'"), 0);

	struct history_runs runs;
	struct history_query q = { 0, NULL, 0 };
	assert_int_equal(history_load(db, &q, &runs, &err), 0);
	assert_int_equal(runs.n, 2);
	const struct history_run *a = &runs.v[0], *b = &runs.v[1];
	assert_string_equal(a->started_at, "2025-11-03T09:00:00Z");
	assert_int_equal(a->when, utc(2025, 11, 3, 9, 0));
	assert_string_equal(a->verdict, "ok");
	assert_null(a->first_failure);
	assert_string_equal(a->command, "smoke");
	assert_int_equal(a->exit_status, 0);
	assert_true(a->duration_ms > 1234 && a->duration_ms < 1235);
	assert_null(a->policy_path);
	assert_string_equal(b->verdict, "fail");
	assert_string_equal(b->first_failure, "cuda.kernel");
	assert_int_equal(b->exit_status, 1);
	assert_string_equal(b->policy_path, "/home/<user-1>/fleet/policy.ini");
	assert_string_equal(a->machine, b->machine);
	assert_int_equal(strlen(a->machine), 16);
	assert_string_equal(history_run_fact(a, "driver.version"), "551.23");
	assert_string_equal(history_run_fact(b, "driver.version"), "531.79");
	assert_null(history_run_fact(b, "wsl.version"));
	/* Checks in chain order, with KB and the scrubbed detail. */
	assert_int_equal(a->nchecks, 7);
	assert_string_equal(a->checks[0].id, "platform.kind");
	const struct history_check *k = history_run_check(b, "cuda.kernel");
	assert_non_null(k);
	assert_string_equal(k->status, "fail");
	assert_string_equal(k->kb, KB_CUDA_KERNEL_LAUNCH_FAILED);
	k = history_run_check(b, "frameworks.torch");
	assert_string_equal(k->detail, "PyTorch in /home/<user-1>/venv/lib/python3.10/site-packages/torch");
	assert_null(history_run_check(b, "nvml.smi")); /* did not run */
	history_runs_release(&runs);

	/* Queries: the most recent N (still oldest first), a machine prefix,
	 * a start time. */
	q.limit = 1;
	assert_int_equal(history_load(db, &q, &runs, &err), 0);
	assert_int_equal(runs.n, 1);
	assert_string_equal(runs.v[0].started_at, "2025-11-10T09:00:00Z");
	char prefix[5];
	memcpy(prefix, runs.v[0].machine, 4);
	prefix[4] = '\0';
	history_runs_release(&runs);
	q.limit = 0;
	q.machine = prefix;
	assert_int_equal(history_load(db, &q, &runs, &err), 0);
	assert_int_equal(runs.n, 2);
	history_runs_release(&runs);
	q.machine = "ffffffffffffffff";
	assert_int_equal(history_load(db, &q, &runs, &err), 0);
	assert_int_equal(runs.n, 0);
	history_runs_release(&runs);
	q.machine = NULL;
	q.since = utc(2025, 11, 5, 0, 0);
	assert_int_equal(history_load(db, &q, &runs, &err), 0);
	assert_int_equal(runs.n, 1);
	assert_string_equal(runs.v[0].started_at, "2025-11-10T09:00:00Z");
	history_runs_release(&runs);

	/* Missing and empty files. */
	char *missing = path_in(dir, "nope.db");
	sb_reset(&err);
	assert_int_equal(history_load(missing, &q, &runs, &err), -ENOENT);
	assert_int_equal(runs.n, 0);
	tu_write_str(dir, "empty.db", "");
	char *empty = path_in(dir, "empty.db");
	assert_int_equal(history_load(empty, &q, &runs, &err), 0);
	assert_int_equal(runs.n, 0);
	/* An empty file is a database not yet written: the first run goes in. */
	fake_machine(&f, "551.23", "6.6.36.6-microsoft-standard-WSL2", "2.6.0", ST_PASS, ST_PASS);
	assert_int_equal(record(empty, &f, utc(2025, 11, 3, 9, 0), &err), 0);
	fake_release(&f);
	assert_int_equal(sql_int(empty, "SELECT count(*) FROM runs"), 1);
	free(missing);
	free(empty);
	sb_release(&err);
	free(db);
	tu_rmtree(dir);
	free(dir);
}

/* ---- the table's rows: only what it shows ---- */

/* The rows of pass 0, their strings copied into sb (kept as offsets + 1
 * while sb grows; fix turns them back into pointers). */
struct rows_seen {
	struct history_row v[16];
	struct strbuf sb;
	size_t n;
};

static const char *keep(struct rows_seen *s, const char *t)
{
	if (!t)
		return NULL;
	size_t at = s->sb.len;
	sb_add(&s->sb, t);
	sb_addc(&s->sb, '\0');
	return (const char *)(uintptr_t)(at + 1);
}

static int keep_row(const struct history_row *r, int pass, void *arg)
{
	struct rows_seen *s = arg;
	if (pass > 0)
		return 0; /* the later passes: counted by count_pass */
	assert_true(s->n < 16);
	struct history_row *k = &s->v[s->n++];
	*k = *r;
	k->machine = keep(s, r->machine);
	k->verdict = keep(s, r->verdict);
	k->driver = keep(s, r->driver);
	k->kernel = keep(s, r->kernel);
	for (size_t i = 0; i < 3; i++) {
		k->failing[i] = i < r->nfailing ? keep(s, r->failing[i]) : NULL;
		k->warning[i] = i < r->nwarning ? keep(s, r->warning[i]) : NULL;
	}
	return 0;
}

static int count_pass(const struct history_row *r, int pass, void *arg)
{
	(void)r;
	int *seen = arg;
	seen[pass]++;
	return 0;
}

static const char *fix(const struct rows_seen *s, const char *p)
{
	return p ? s->sb.buf + ((uintptr_t)p - 1) : NULL;
}

static void expect_str(const char *got, const char *want)
{
	if (!want)
		assert_null(got);
	else
		assert_string_equal(got, want);
}

/* history_each_row (passes 1 and 2, with and without the temporary
 * table) against history_row_of_run of the runs history_load reads. */
static void expect_rows(const char *db, const struct history_query *q, size_t n)
{
	struct strbuf err = STRBUF_INIT;
	struct history_runs runs;
	assert_int_equal(history_load(db, q, &runs, &err), 0);
	assert_int_equal(runs.n, n);
	for (int passes = 1; passes <= 2; passes++) {
		struct history_reader *r;
		assert_int_equal(history_open(db, &r, &err), 0);
		struct rows_seen s;
		memset(&s, 0, sizeof s);
		sb_init(&s.sb);
		assert_int_equal(history_each_row(r, q, passes, keep_row, &s, &err), 0);
		int seen[2] = { 0, 0 };
		assert_int_equal(history_each_row(r, q, passes, count_pass, seen, &err), 0);
		assert_int_equal(seen[0], (int)n);
		assert_int_equal(seen[1], passes == 2 ? (int)n : 0);
		history_close(r);
		assert_int_equal(s.n, n);
		for (size_t i = 0; i < n; i++) {
			struct history_row want;
			history_row_of_run(&runs.v[i], &want);
			const struct history_row *got = &s.v[i];
			assert_int_equal(got->id, want.id);
			assert_int_equal(got->when, want.when);
			expect_str(fix(&s, got->machine), want.machine);
			expect_str(fix(&s, got->verdict), want.verdict);
			expect_str(fix(&s, got->driver), want.driver);
			expect_str(fix(&s, got->kernel), want.kernel);
			assert_int_equal(got->nfailing, want.nfailing);
			assert_int_equal(got->nwarning, want.nwarning);
			for (size_t k = 0; k < 3; k++) {
				expect_str(fix(&s, got->failing[k]), k < want.nfailing ? want.failing[k] : NULL);
				expect_str(fix(&s, got->warning[k]), k < want.nwarning ? want.warning[k] : NULL);
			}
		}
		sb_release(&s.sb);
	}
	history_runs_release(&runs);
	sb_release(&err);
}

static void exec_sql(const char *db_path, const char *sql)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void test_table_rows(void **state)
{
	(void)state;
	char *dir = scratch_root(MACHINE_ID_A);
	char *db = path_in(dir, "rows.db");
	struct strbuf err = STRBUF_INIT;
	struct fake f;
	/* Run 1: all well. Run 2: four checks fail (three named, "+1"), two
	 * warn, in chain order. Run 3: only warnings; no kernel fact. */
	fake_machine(&f, "551.23", "5.15.167.4-microsoft-standard-WSL2", "2.6.0", ST_PASS, ST_PASS);
	assert_int_equal(record(db, &f, utc(2025, 11, 3, 9, 0), &err), 0);
	fake_release(&f);
	fake_machine(&f, "531.79", "6.6.87.2-microsoft-standard-WSL2", "2.6.0", ST_FAIL, ST_CRASH);
	fake_set(&f, "libs.libcuda", ST_WARN, NULL, "a copy");
	fake_set(&f, "cuda.devices", ST_TIMEOUT, NULL, "no answer");
	fake_set(&f, "cuda.init", ST_FAIL, NULL, "cuInit 100");
	fake_set(&f, "nvml.smi", ST_WARN, NULL, "slow");
	assert_int_equal(record(db, &f, utc(2025, 11, 4, 9, 0), &err), 0);
	fake_release(&f);
	fake_init(&f);
	fake_set(&f, "platform.kind", ST_PASS, NULL, "WSL2");
	fake_set(&f, "nvml.smi", ST_WARN, NULL, "slow");
	assert_int_equal(record(db, &f, utc(2025, 11, 5, 9, 0), &err), 0);
	fake_release(&f);
	/* Every record keeps the index of problem checks. */
	assert_int_equal(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'checks_problems'"), 1);

	struct history_query q = { 0, NULL, 0 };
	expect_rows(db, &q, 3);
	struct history_runs runs;
	assert_int_equal(history_load(db, &q, &runs, &err), 0);
	struct history_row row;
	history_row_of_run(&runs.v[1], &row);
	assert_int_equal(row.nfailing, 4);
	assert_string_equal(row.failing[0], "cuda.init");
	assert_int_equal(row.nwarning, 2);
	history_row_of_run(&runs.v[2], &row);
	assert_null(row.kernel);
	history_runs_release(&runs);
	q.limit = 2;
	expect_rows(db, &q, 2);
	q.limit = 0;
	q.since = utc(2025, 11, 4, 0, 0);
	expect_rows(db, &q, 2);
	q.since = 0;
	q.machine = "ffff";
	expect_rows(db, &q, 0);
	q.machine = NULL;

	/* A database of an earlier version (no index): the same rows, in
	 * chain order; its next record creates the index. */
	exec_sql(db, "DROP INDEX checks_problems");
	expect_rows(db, &q, 3);
	fake_machine(&f, "551.23", "5.15.167.4-microsoft-standard-WSL2", "2.6.0", ST_PASS, ST_WARN);
	assert_int_equal(record(db, &f, utc(2025, 11, 6, 9, 0), &err), 0);
	fake_release(&f);
	assert_int_equal(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'checks_problems'"), 1);
	expect_rows(db, &q, 4);

	/* The table printed from the database is the table printed from the
	 * runs in memory. */
	char *out_a = path_in(dir, "a.txt"), *out_b = path_in(dir, "b.txt");
	FILE *fa = fopen(out_a, "w"), *fb = fopen(out_b, "w");
	assert_int_equal(history_load(db, &q, &runs, &err), 0);
	history_print_runs(fa, db, &runs, false);
	history_runs_release(&runs);
	struct history_reader *r;
	assert_int_equal(history_open(db, &r, &err), 0);
	assert_int_equal(history_stream_runs(fb, db, r, &q, false, &err), 0);
	history_close(r);
	fclose(fa);
	fclose(fb);
	size_t na, nb;
	char *ta = slurp(out_a, &na), *tb = slurp(out_b, &nb);
	assert_string_equal(ta, tb);
	assert_non_null(strstr(ta, "cuda.init,cuda.devices,cuda.kernel +1"));
	free(ta);
	free(tb);
	free(out_a);
	free(out_b);
	sb_release(&err);
	free(db);
	tu_rmtree(dir);
	free(dir);
}

/* ---- changes ---- */

static const struct history_change *find_change(const struct history_transition *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].key, key))
			return &t->v[i];
	return NULL;
}

/* A driver downgrade is Windows Update's reading only on WSL; on native
 * Linux (or with no platform recorded) the distribution's packages did it. */
static void test_downgrade_by_platform(void **state)
{
	(void)state;
	static const struct {
		const char *platform, *kb;
	} t[] = { { "wsl2", KB_HISTORY_DRIVER_DOWNGRADE },
		  { "container-in-wsl2", KB_HISTORY_DRIVER_DOWNGRADE },
		  { "native", KB_HISTORY_DRIVER_DOWNGRADE_NATIVE },
		  { "container", KB_HISTORY_DRIVER_DOWNGRADE_NATIVE },
		  { NULL, KB_HISTORY_DRIVER_DOWNGRADE_NATIVE } };
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct history_kv a[] = { { (char *)"driver.version", (char *)"560.35.03" },
					  { (char *)"platform", (char *)t[i].platform } };
		struct history_kv b[] = { { (char *)"driver.version", (char *)"550.54.14" },
					  { (char *)"platform", (char *)t[i].platform } };
		struct history_run r[2];
		memset(r, 0, sizeof r);
		r[0].machine = r[1].machine = (char *)"m";
		r[0].started_at = (char *)"2025-11-03T09:00:00Z";
		r[1].started_at = (char *)"2025-11-10T09:00:00Z";
		r[0].facts = a;
		r[1].facts = b;
		r[0].nfacts = r[1].nfacts = t[i].platform ? 2 : 1;
		struct history_runs runs;
		memset(&runs, 0, sizeof runs);
		runs.v = r;
		runs.n = 2;
		struct history_changes ch;
		history_changes(&runs, &ch);
		assert_int_equal(ch.n, 1);
		const struct history_change *c = find_change(&ch.v[0], "driver.version");
		assert_non_null(c);
		assert_string_equal(c->how, "downgrade");
		assert_string_equal(c->kb, t[i].kb);
		history_changes_release(&ch);
	}
}

static void test_changes(void **state)
{
	(void)state;
	char *dir = scratch_root(MACHINE_ID_A);
	char *db = path_in(dir, "h.db");
	struct strbuf err = STRBUF_INIT;
	struct fake f;
	/* Machine A: run 1 healthy; run 2 (a week later) driver downgraded,
	 * cuda.kernel broken, torch upgraded and now CPU-only failing; run 3
	 * driver back up, both fixed. Machine B in between, unchanged. */
	fake_machine(&f, "551.23", "5.15.167.4-microsoft-standard-WSL2", "2.5.1+cu124", ST_PASS, ST_PASS);
	assert_int_equal(record(db, &f, utc(2025, 11, 3, 9, 0), &err), 0);
	fake_release(&f);
	tu_write_str(dir, "root/etc/machine-id", MACHINE_ID_B "\n");
	fake_machine(&f, "560.70", "6.6.36.6-microsoft-standard-WSL2", "2.6.0+cu124", ST_PASS, ST_PASS);
	assert_int_equal(record(db, &f, utc(2025, 11, 4, 9, 0), &err), 0);
	assert_int_equal(record(db, &f, utc(2025, 11, 11, 9, 0), &err), 0);
	fake_release(&f);
	tu_write_str(dir, "root/etc/machine-id", MACHINE_ID_A "\n");
	fake_machine(&f, "531.79", "5.15.167.4-microsoft-standard-WSL2", "2.6.0+cu124", ST_FAIL, ST_FAIL);
	/* A check skipped after an earlier break is not listed. */
	fake_set(&f, "cuda.devices", ST_SKIP, NULL, "skipped: cuda.init failed");
	assert_int_equal(record(db, &f, utc(2025, 11, 10, 9, 0), &err), 0);
	fake_release(&f);
	fake_machine(&f, "552.44", "5.15.167.4-microsoft-standard-WSL2", "2.6.0+cu124", ST_PASS, ST_PASS);
	assert_int_equal(record(db, &f, utc(2025, 11, 17, 9, 0), &err), 0);
	fake_release(&f);

	struct history_runs runs;
	struct history_query q = { 0, NULL, 0 };
	assert_int_equal(history_load(db, &q, &runs, &err), 0);
	assert_int_equal(runs.n, 5);
	struct history_changes ch;
	history_changes(&runs, &ch);
	assert_int_equal(ch.machines, 2);
	/* A: 1->2 and 2->3; B: nothing changed. */
	assert_int_equal(ch.n, 2);
	const struct history_transition *t = &ch.v[0];
	assert_string_equal(t->from->started_at, "2025-11-03T09:00:00Z");
	assert_string_equal(t->to->started_at, "2025-11-10T09:00:00Z");
	const struct history_change *c = find_change(t, "driver.version");
	assert_non_null(c);
	assert_false(c->is_check);
	assert_string_equal(c->old, "551.23");
	assert_string_equal(c->new, "531.79");
	assert_string_equal(c->how, "downgrade");
	assert_string_equal(c->kb, KB_HISTORY_DRIVER_DOWNGRADE);
	c = find_change(t, "torch");
	assert_string_equal(c->how, "upgrade");
	assert_string_equal(c->kb, KB_HISTORY_FRAMEWORK_CHANGED);
	c = find_change(t, "cuda.kernel");
	assert_true(c->is_check);
	assert_string_equal(c->old, "pass");
	assert_string_equal(c->new, "fail");
	assert_string_equal(c->how, "broke");
	assert_string_equal(c->kb, KB_CUDA_KERNEL_LAUNCH_FAILED);
	assert_string_equal(c->detail, "the kernel launch failed");
	assert_null(find_change(t, "cuda.devices"));
	assert_null(find_change(t, "kernel"));
	assert_null(find_change(t, "platform.kind"));
	t = &ch.v[1];
	c = find_change(t, "driver.version");
	assert_string_equal(c->how, "upgrade");
	assert_string_equal(c->kb, KB_HISTORY_DRIVER_UPGRADE);
	c = find_change(t, "cuda.kernel");
	assert_string_equal(c->how, "fixed");
	assert_string_equal(c->kb, KB_CUDA_KERNEL_LAUNCH_FAILED); /* what was fixed */
	c = find_change(t, "frameworks.torch");
	assert_string_equal(c->how, "fixed");
	assert_null(find_change(t, "torch"));

	/* Text: the sentence a platform team reads on Monday (on a wide
	 * terminal, so that each is on one line). */
	setenv("TZ", "UTC", 1);
	tzset();
	text_set_terminal(1000, true);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	history_print_changes(out, db, &runs, &ch, false);
	fclose(out);
	assert_non_null(strstr(buf, "Mon 3 Nov 2025 09:00 → Mon 10 Nov 2025 09:00"));
	assert_non_null(strstr(buf, "! Windows driver 551.23 → 531.79: a downgrade — a Windows update may have reinstalled an older (OEM) driver"));
	assert_non_null(strstr(buf, "cause  The Windows driver went from 551.23 to 531.79"));
	assert_non_null(strstr(buf, "✗ cuda.kernel pass → fail: broke — the kernel launch failed"));
	assert_non_null(strstr(buf, "✓ cuda.kernel fail → pass: fixed"));
	assert_non_null(strstr(buf, "· PyTorch 2.5.1+cu124 → 2.6.0+cu124: an upgrade"));
	char summary[64];
	snprintf(summary, sizeof summary, "\n%zu changes; 5 runs of 2 machines", ch.v[0].n + ch.v[1].n);
	assert_non_null(strstr(buf, summary));
	free(buf);
	/* JSON: the same, for programs. */
	buf = NULL;
	out = open_memstream(&buf, &len);
	history_print_changes(out, db, &runs, &ch, true);
	fclose(out);
	assert_non_null(strstr(buf, "{\"schema\":\"wslgpu/history-changes/1\""));
	assert_non_null(strstr(buf, "\"key\":\"driver.version\",\"label\":\"Windows driver\",\"old\":\"551.23\",\"new\":\"531.79\",\"how\":\"downgrade\",\"kb\":\"history.driver_downgrade\""));
	free(buf);
	buf = NULL;
	out = open_memstream(&buf, &len);
	history_print_runs(out, db, &runs, false);
	fclose(out);
	assert_non_null(strstr(buf, "Mon 10 Nov 2025 09:00"));
	assert_non_null(strstr(buf, "✗ fail   cuda.kernel,frameworks.torch  531.79"));
	assert_non_null(strstr(buf, "5 runs of 2 machines"));
	free(buf);
	/* At 80 columns every line fits: the changes wrap, the kernel goes
	 * under its run. */
	text_set_terminal(80, true);
	for (int table = 0; table < 2; table++) {
		buf = NULL;
		out = open_memstream(&buf, &len);
		if (table)
			history_print_runs(out, db, &runs, false);
		else
			history_print_changes(out, db, &runs, &ch, false);
		fclose(out);
		for (char *l = buf, *nl; *l; l = nl + 1) {
			nl = strchr(l, '\n');
			if (!nl)
				break;
			*nl = '\0';
			if (text_width(l) > 80)
				fail_msg("wider than 80 columns: %s", l);
		}
		free(buf);
	}
	buf = NULL;
	out = open_memstream(&buf, &len);
	history_print_runs(out, db, &runs, true);
	fclose(out);
	assert_non_null(strstr(buf, "{\"schema\":\"wslgpu/history/1\""));
	assert_non_null(strstr(buf, "\"failing\":[\"cuda.kernel\",\"frameworks.torch\"]"));
	free(buf);
	history_changes_release(&ch);
	history_runs_release(&runs);

	/* Nothing changed / nothing recorded. */
	struct history_runs none = { NULL, 0, 0, 0 };
	history_changes(&none, &ch);
	assert_int_equal(ch.n, 0);
	buf = NULL;
	out = open_memstream(&buf, &len);
	history_print_changes(out, db, &none, &ch, false);
	fclose(out);
	assert_non_null(strstr(buf, "No runs recorded yet"));
	free(buf);
	history_changes_release(&ch);
	sb_release(&err);
	free(db);
	tu_rmtree(dir);
	free(dir);
}

/* The history.* entries: sourced, linked, and filled only from the three
 * values a change has ({old}, {new}, {what}). */
static void test_kb_entries(void **state)
{
	(void)state;
	const struct kb *kb = kb_builtin();
	size_t mine = 0;
	struct result r;
	result_init(&r, NULL);
	res_ev(&r, "old", "1");
	res_ev(&r, "new", "2");
	res_ev(&r, "what", "x");
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		if (strncmp(e->id, "history.", 8) != 0)
			continue;
		mine++;
		assert_true(e->source.n > 0);
		for (size_t j = 0; j < e->source.n; j++)
			if (strncmp(e->source.v[j], "https://", 8) != 0)
				fail_msg("%s: source is not a URL: %s", e->id, e->source.v[j]);
		for (size_t j = 0; j < e->see.n; j++)
			if (!kb_find(e->see.v[j]))
				fail_msg("%s: see: %s does not exist", e->id, e->see.v[j]);
		if (!e->cause || e->fix.n == 0)
			fail_msg("%s: needs a cause and a fix", e->id);
		sb_reset(&sb);
		kb_expand(e->cause, &r.ev, NULL, &sb);
		for (size_t j = 0; j < e->fix.n; j++)
			kb_expand(e->fix.v[j], &r.ev, NULL, &sb);
		if (strchr(sb.buf, '{') || strstr(sb.buf, "<old>") || strstr(sb.buf, "<new>") ||
		    strstr(sb.buf, "<what>"))
			fail_msg("%s: a placeholder is not filled: %s", e->id, sb.buf);
	}
	assert_int_equal(mine, 6);
	static const char *const used[] = { KB_HISTORY_DRIVER_DOWNGRADE,
					    KB_HISTORY_DRIVER_DOWNGRADE_NATIVE, KB_HISTORY_DRIVER_UPGRADE,
					    KB_HISTORY_KERNEL_CHANGED, KB_HISTORY_LIBCUDA_CHANGED,
					    KB_HISTORY_FRAMEWORK_CHANGED };
	for (size_t i = 0; i < sizeof used / sizeof used[0]; i++)
		assert_non_null(kb_find(used[i]));
	sb_release(&sb);
	result_release(&r);
}

/* Every kind of change, on runs built in memory. */
static void test_change_kinds(void **state)
{
	(void)state;
	struct history_kv fa[] = { { "kernel", "5.15.167.4-microsoft-standard-WSL2" },
				   { "libcuda", "/usr/lib/wsl/lib/libcuda.so.1" },
				   { "driver.version", "551.23" },
				   { "nvcc", "12.4.131" } };
	struct history_kv fb[] = { { "kernel", "5.15.167.4-custom" },
				   { "libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.1" },
				   { "driver.version", "551.23" },
				   { "torch", "2.6.0+cu124" } };
	struct history_check ca[] = {
		{ "a.pass_warn", "pass", NULL, "" },    { "b.warn_pass", "warn", "k1", "" },
		{ "c.warn_warn", "warn", "k1", "" },    { "d.fail_skip", "fail", "k2", "" },
		{ "e.fail_timeout", "fail", "k3", "" }, { "f.skip_pass", "skip", NULL, "" },
		{ "g.pass_skip", "pass", NULL, "" },    { "h.fail_fail", "fail", "k4", "" },
		{ "i.only_old", "fail", NULL, "" },
		/* unknown (the check could not find out): news only next to a problem */
		{ "k.fail_unknown", "fail", "k7", "" }, { "l.pass_unknown", "pass", NULL, "" },
		{ "m.unknown_pass", "unknown", NULL, "" }, { "n.unknown_fail", "unknown", NULL, "" },
		{ "o.warn_unknown", "warn", "k9", "" },
	};
	struct history_check cb[] = {
		{ "a.pass_warn", "warn", "k5", "slow" }, { "b.warn_pass", "pass", NULL, "" },
		{ "c.warn_warn", "warn", "k6", "" },     { "d.fail_skip", "skip", NULL, "" },
		{ "e.fail_timeout", "timeout", NULL, "" }, { "f.skip_pass", "pass", NULL, "" },
		{ "g.pass_skip", "skip", NULL, "" },     { "h.fail_fail", "fail", "k4", "" },
		{ "j.only_new", "fail", NULL, "" },
		{ "k.fail_unknown", "unknown", NULL, "cannot be read" },
		{ "l.pass_unknown", "unknown", NULL, "" }, { "m.unknown_pass", "pass", NULL, "" },
		{ "n.unknown_fail", "fail", "k8", "" }, { "o.warn_unknown", "unknown", NULL, "" },
	};
	struct history_run v[2];
	memset(v, 0, sizeof v);
	char m[] = "abcd";
	v[0].machine = v[1].machine = m;
	v[0].facts = fa;
	v[0].nfacts = 4;
	v[0].checks = ca;
	v[0].nchecks = sizeof ca / sizeof ca[0];
	v[1].facts = fb;
	v[1].nfacts = 4;
	v[1].checks = cb;
	v[1].nchecks = sizeof cb / sizeof cb[0];
	struct history_runs runs = { v, 2, 0, 0 };
	struct history_changes ch;
	history_changes(&runs, &ch);
	assert_int_equal(ch.machines, 1);
	assert_int_equal(ch.n, 1);
	const struct history_transition *t = &ch.v[0];
	static const struct {
		const char *key, *how, *kb;
	} want[] = {
		/* worse first, then better, then the rest */
		{ "a.pass_warn", "warns", "k5" },
		{ "c.warn_warn", "cause", "k6" },
		{ "n.unknown_fail", "broke", "k8" },
		{ "b.warn_pass", "fixed", "k1" },
		{ "kernel", "changed", KB_HISTORY_KERNEL_CHANGED },
		{ "libcuda", "changed", KB_HISTORY_LIBCUDA_CHANGED },
		{ "torch", "added", KB_HISTORY_FRAMEWORK_CHANGED },
		{ "nvcc", "removed", NULL },
		{ "d.fail_skip", "skipped", "k2" },
		{ "e.fail_timeout", "changed", NULL },
		/* not "fixed": the problem can no longer be seen */
		{ "k.fail_unknown", "unverified", "k7" },
		{ "o.warn_unknown", "unverified", "k9" },
	};
	assert_int_equal(t->n, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < t->n; i++) {
		assert_string_equal(t->v[i].key, want[i].key);
		assert_string_equal(t->v[i].how, want[i].how);
		if (want[i].kb)
			assert_string_equal(t->v[i].kb, want[i].kb);
		else
			assert_null(t->v[i].kb);
	}
	assert_null(t->v[7].new);
	assert_null(t->v[6].old);
	history_changes_release(&ch);
}

static void test_human_time(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	struct strbuf sb = STRBUF_INIT;
	history_human_time(utc(2025, 11, 3, 9, 5), utc(2025, 12, 1, 0, 0), &sb);
	assert_string_equal(sb.buf, "Mon 3 Nov 09:05");
	sb_reset(&sb);
	history_human_time(utc(2025, 11, 10, 23, 59), utc(2026, 1, 2, 0, 0), &sb);
	assert_string_equal(sb.buf, "Mon 10 Nov 2025 23:59");
	sb_release(&sb);
}

/* ---- refusing what is not ours ---- */

static void assert_unchanged(const char *path, const char *before, size_t len)
{
	size_t n;
	char *now = slurp(path, &n);
	assert_int_equal(n, len);
	assert_memory_equal(now, before, len);
	free(now);
}

static void test_foreign_sqlite(void **state)
{
	(void)state;
	char *dir = scratch_root(MACHINE_ID_A);
	char *db = path_in(dir, "other.db");
	sqlite3 *s;
	assert_int_equal(sqlite3_open(db, &s), SQLITE_OK);
	assert_int_equal(sqlite3_exec(s, "CREATE TABLE notes(x); INSERT INTO notes VALUES('mine');", NULL,
				      NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	size_t len;
	char *before = slurp(db, &len);
	struct strbuf err = STRBUF_INIT;
	struct fake f;
	fake_machine(&f, "551.23", "5.15", "2.6.0", ST_PASS, ST_PASS);
	assert_int_equal(record(db, &f, 1000, &err), -1);
	assert_non_null(strstr(err.buf, "another program"));
	assert_non_null(strstr(err.buf, "left untouched"));
	assert_unchanged(db, before, len);
	struct history_runs runs;
	struct history_query q = { 0, NULL, 0 };
	sb_reset(&err);
	assert_int_equal(history_load(db, &q, &runs, &err), -1);
	assert_non_null(strstr(err.buf, "another program"));
	assert_unchanged(db, before, len);
	free(before);

	/* Ours, but from a newer wslgpu: refused too. */
	char *newer = path_in(dir, "newer.db");
	assert_int_equal(record(newer, &f, 1000, &err), 0);
	assert_int_equal(sqlite3_open(newer, &s), SQLITE_OK);
	assert_int_equal(sqlite3_exec(s, "PRAGMA user_version=99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	before = slurp(newer, &len);
	sb_reset(&err);
	assert_int_equal(record(newer, &f, 2000, &err), -1);
	assert_non_null(strstr(err.buf, "newer wslgpu"));
	assert_unchanged(newer, before, len);
	sb_reset(&err);
	assert_int_equal(history_load(newer, &q, &runs, &err), -1);
	assert_non_null(strstr(err.buf, "newer wslgpu"));
	free(before);
	free(newer);
	fake_release(&f);
	sb_release(&err);
	free(db);
	tu_rmtree(dir);
	free(dir);
}

static void test_not_a_database(void **state)
{
	(void)state;
	char *dir = scratch_root(MACHINE_ID_A);
	static const char text[] = "my notes, not a database\n\x01\x02\x03 binary tail";
	tu_write(dir, "notes.db", text, sizeof text - 1);
	char *db = path_in(dir, "notes.db");
	struct strbuf err = STRBUF_INIT;
	struct fake f;
	fake_machine(&f, "551.23", "5.15", "2.6.0", ST_PASS, ST_PASS);
	assert_int_equal(record(db, &f, 1000, &err), -1);
	assert_non_null(strstr(err.buf, "not an SQLite database"));
	assert_unchanged(db, text, sizeof text - 1);
	struct history_runs runs;
	struct history_query q = { 0, NULL, 0 };
	sb_reset(&err);
	assert_int_equal(history_load(db, &q, &runs, &err), -1);
	assert_non_null(strstr(err.buf, "not an SQLite database"));
	assert_unchanged(db, text, sizeof text - 1);
	/* No -wal or -shm was left next to it either. */
	char *wal = path_in(dir, "notes.db-wal");
	assert_int_equal(access(wal, F_OK), -1);
	free(wal);
	/* A directory where the file should be. */
	char *d = path_in(dir, "adir.db");
	mkdir(d, 0700);
	sb_reset(&err);
	assert_int_equal(record(d, &f, 1000, &err), -1);
	assert_non_null(strstr(err.buf, "not a regular file"));
	free(d);

	/* A damaged database of ours: refused, not written. */
	char *dmg = path_in(dir, "damaged.db");
	for (int i = 0; i < 5; i++)
		assert_int_equal(record(dmg, &f, 1000 + i, &err), 0);
	size_t len;
	char *bytes = slurp(dmg, &len);
	assert_true(len >= 3 * 4096);
	/* Scribble over the second page (a b-tree page of one of our tables). */
	memset(bytes + 4096, 0x5a, 4096);
	tu_write(dir, "damaged.db", bytes, len);
	sb_reset(&err);
	assert_int_equal(record(dmg, &f, 9999, &err), -1);
	assert_non_null(strstr(err.buf, "damaged"));
	assert_unchanged(dmg, bytes, len);
	free(bytes);
	free(dmg);
	fake_release(&f);
	sb_release(&err);
	free(db);
	tu_rmtree(dir);
	free(dir);
}

/* As root, permissions do not stop writes: a child that gives up root
 * (to nobody) proves the same behaviour an ordinary user gets. */
static void test_readonly_directory(void **state)
{
	(void)state;
	char *dir = scratch_root(MACHINE_ID_A);
	char *ro = path_in(dir, "ro");
	assert_int_equal(mkdir(ro, 0755), 0);
	char *db = path_in(dir, "ro/history.db");
	char *sub = path_in(dir, "ro/sub/history.db");
	chmod(dir, 0755);
	chmod(ro, 0555);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
			_exit(2);
		struct strbuf err = STRBUF_INIT;
		struct fake f;
		fake_machine(&f, "551.23", "5.15", "2.6.0", ST_PASS, ST_PASS);
		int a = record(db, &f, 1000, &err);
		bool a_ok = a == -1 && strstr(err.buf, "cannot create") && strstr(err.buf, "ermission denied");
		sb_reset(&err);
		int b = record(sub, &f, 1000, &err);
		bool b_ok = b == -1 && strstr(err.buf, "cannot create the directory") != NULL;
		fake_release(&f);
		_exit(a_ok && b_ok ? 0 : 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(access(db, F_OK), -1);
	free(db);
	free(sub);
	chmod(ro, 0755);
	free(ro);
	tu_rmtree(dir);
	free(dir);
}

/* ---- concurrency and crashes ---- */

static void check_integrity(const char *db)
{
	char *ok = sql_text(db, "PRAGMA integrity_check");
	assert_string_equal(ok, "ok");
	free(ok);
	/* Every run is whole: all its checks and facts or nothing. */
	assert_int_equal(sql_int(db, "SELECT count(*) FROM runs WHERE (SELECT count(*) FROM checks "
				     "WHERE run_id = runs.id) != 7"), 0);
	assert_int_equal(sql_int(db, "SELECT count(*) FROM runs WHERE (SELECT count(*) FROM facts "
				     "WHERE run_id = runs.id) = 0"), 0);
}

static void test_concurrent_writers(void **state)
{
	(void)state;
	char *dir = scratch_root(MACHINE_ID_A);
	char *db = path_in(dir, "shared/history.db");
	pid_t kids[2];
	for (int k = 0; k < 2; k++) {
		kids[k] = fork();
		assert_true(kids[k] >= 0);
		if (kids[k] == 0) {
			struct fake f;
			fake_machine(&f, "551.23", "5.15", "2.6.0", ST_PASS, ST_PASS);
			struct strbuf err = STRBUF_INIT;
			int bad = 0;
			for (int i = 0; i < 50; i++)
				if (record(db, &f, 1000000 * (k + 1) + i, &err) < 0) {
					fprintf(stderr, "writer %d run %d: %s\n", k, i, err.buf);
					sb_reset(&err);
					bad++;
				}
			fake_release(&f);
			_exit(bad ? 1 : 0);
		}
	}
	for (int k = 0; k < 2; k++) {
		int status;
		assert_int_equal(waitpid(kids[k], &status, 0), kids[k]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(sql_int(db, "SELECT count(*) FROM runs"), 100);
	assert_int_equal(sql_int(db, "SELECT count(DISTINCT started_at) FROM runs"), 100);
	check_integrity(db);
	free(db);
	tu_rmtree(dir);
	free(dir);
}

static void test_kill_during_write(void **state)
{
	(void)state;
	char *dir = scratch_root(MACHINE_ID_A);
	char *db = path_in(dir, "history.db");
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	int *done = NULL;
	size_t ndone = 0, alloc = 0;
	for (int round = 0; round < 6; round++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			struct fake f;
			fake_machine(&f, "551.23", "5.15", "2.6.0", ST_PASS, ST_PASS);
			struct strbuf err = STRBUF_INIT;
			for (int i = 0;; i++) {
				int when = 100000 * (round + 1) + i;
				if (record(db, &f, when, &err) == 0) {
					/* Reported only after history_record returned. */
					if (write(fds[1], &when, sizeof when) != (ssize_t)sizeof when)
						_exit(1);
				} else {
					sb_reset(&err);
				}
			}
		}
		close(fds[1]);
		/* Wait for its first committed run (however slow this machine
		 * is), then kill it at a random moment of the runs that follow:
		 * most of a record call's time is inside the transaction. */
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		assert_int_equal(poll(&pfd, 1, 60000), 1);
		struct timespec ts = { 0, (long)(rand() % 120) * 1000000L };
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		int status;
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		int when;
		while (read(fds[0], &when, sizeof when) == (ssize_t)sizeof when) {
			if (ndone == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				done = xrealloc(done, alloc * sizeof *done);
			}
			done[ndone++] = when;
		}
		close(fds[0]);
	}
	assert_true(ndone > 0);
	check_integrity(db);
	struct history_runs runs;
	struct history_query q = { 0, NULL, 0 };
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(history_load(db, &q, &runs, &err), 0);
	assert_true(runs.n >= ndone);
	for (size_t i = 0; i < ndone; i++) {
		bool found = false;
		for (size_t r = 0; r < runs.n && !found; r++)
			found = runs.v[r].when == (time_t)done[i];
		if (!found)
			fail_msg("run at %d was committed but is missing", done[i]);
	}
	history_runs_release(&runs);
	/* The database still takes new runs after all that. */
	struct fake f;
	fake_machine(&f, "551.23", "5.15", "2.6.0", ST_PASS, ST_PASS);
	assert_int_equal(record(db, &f, 42, &err), 0);
	fake_release(&f);
	sb_release(&err);
	free(done);
	free(db);
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_machine_hash),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_record_roundtrip),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_changes),
		cmocka_unit_test(test_downgrade_by_platform),
		cmocka_unit_test(test_change_kinds),
		cmocka_unit_test(test_human_time),
		cmocka_unit_test(test_kb_entries),
		cmocka_unit_test(test_foreign_sqlite),
		cmocka_unit_test(test_not_a_database),
		cmocka_unit_test(test_readonly_directory),
		cmocka_unit_test(test_concurrent_writers),
		cmocka_unit_test(test_kill_during_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
