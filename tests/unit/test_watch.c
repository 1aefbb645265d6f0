/*
 * test_watch.c: the counter parsers of `wslgpu watch` (src/parse/procstat)
 * on recorded /proc files (tests/unit/data/watch/) and hostile input, and
 * the pure parts of src/watch: points from raw readings, the series store,
 * sparklines, the live line, CSV rows.
 */
#include <math.h>

#include "testutil.h"

#include "core/rootfs.h"
#include "core/strbuf.h"
#include "parse/procstat.h"
#include "watch/watch.h"

static char *slurp(const char *rel, size_t *len)
{
	char path[4096];
	const char *top = getenv("TOP");
	snprintf(path, sizeof path, "%s%stests/unit/data/watch/%s", top ? top : "",
		 top ? "/" : "", rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s (run from the repository root or set TOP)", path);
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_addn(&sb, buf, n);
	fclose(f);
	*len = sb.len;
	return sb_detach(&sb);
}

/* ---- /proc/stat ---- */

static void test_cpu_parse(void **state)
{
	(void)state;
	struct cpu_times t;
	unsigned ncpu;
	const char *s = "cpu  100 5 50 1000 20 3 2 1 0 0\ncpu0 50 2 25 500 10 1 1 0 0 0\n"
			"cpu1 50 3 25 500 10 2 1 1 0 0\nintr 1 2 3\nctxt 99\n";
	assert_int_equal(procstat_cpu_parse(s, strlen(s), &t, &ncpu), 0);
	assert_int_equal(ncpu, 2);
	assert_int_equal(t.user, 100);
	assert_int_equal(t.nice, 5);
	assert_int_equal(t.system, 50);
	assert_int_equal(t.idle, 1000);
	assert_int_equal(t.iowait, 20);
	assert_int_equal(t.irq, 3);
	assert_int_equal(t.softirq, 2);
	assert_int_equal(t.steal, 1);
	assert_int_equal(cpu_times_total(&t), 1181);

	/* A 2.4-era line with four fields still counts. */
	const char *old = "cpu 1 2 3 4\n";
	assert_int_equal(procstat_cpu_parse(old, strlen(old), &t, NULL), 0);
	assert_int_equal(t.idle, 4);
	assert_int_equal(t.iowait, 0);

	/* The recorded file of a 2-CPU VM. */
	size_t len;
	char *rec = slurp("proc-stat", &len);
	assert_int_equal(procstat_cpu_parse(rec, len, &t, &ncpu), 0);
	assert_int_equal(ncpu, 2);
	assert_true(cpu_times_total(&t) > 0);
	/* Cut anywhere: parsed (four fields or more before the cut) or
	 * refused, never read past the end. */
	for (size_t n = 0; n < len; n++) {
		char *cut = xstrndup(rec, n);
		int rc = procstat_cpu_parse(cut, n, &t, &ncpu);
		assert_true(rc == 0 || rc == -EINVAL);
		if (n < 8)
			assert_int_equal(rc, -EINVAL);
		free(cut);
	}
	free(rec);

	const char *bad[] = { "", "cpu\n", "cpu0 1 2 3 4\n", "cpu x y z\n", "cpu 1 2 3\n",
			      "\x01\xff\xfe cpu 1 2 3 4" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(procstat_cpu_parse(bad[i], strlen(bad[i]), &t, &ncpu), -EINVAL);
	assert_int_equal(procstat_cpu_parse(NULL, 0, &t, NULL), -EINVAL);
	/* Overflowing numbers saturate instead of wrapping. */
	const char *huge = "cpu 99999999999999999999999 0 0 0\n";
	assert_int_equal(procstat_cpu_parse(huge, strlen(huge), &t, NULL), 0);
	assert_true(t.user == ~0ULL);
}

/* ---- /proc/PID/stat ---- */

static void test_pid_parse(void **state)
{
	(void)state;
	struct pid_stat ps;
	size_t len;
	char *rec = slurp("pid-stat-worker", &len);
	assert_int_equal(procstat_pid_parse(rec, len, &ps), 0);
	assert_int_equal(ps.pid, 31337);
	assert_string_equal(ps.comm, "pt (data) wkr");
	assert_int_equal(ps.state, 'D');
	assert_int_equal(ps.ppid, 31300);
	assert_int_equal(ps.utime, 5123);
	assert_int_equal(ps.stime, 877);
	assert_int_equal(ps.cutime, 40);
	assert_int_equal(ps.cstime, 9);
	assert_int_equal(ps.num_threads, 18);
	assert_int_equal(ps.starttime, 336557);
	/* Every prefix is either parsed or refused, never read past. */
	for (size_t n = 0; n < len; n++) {
		char *cut = xstrndup(rec, n);
		int rc = procstat_pid_parse(cut, n, &ps);
		assert_true(rc == 0 || rc == -EINVAL);
		free(cut);
	}
	free(rec);

	/* A negative nice value, and ")" in the name. */
	const char *neg = "7 (a) b) S 1 7 7 0 -1 0 0 0 0 0 10 20 0 0 -2 -20 1 0 500 0 0\n";
	assert_int_equal(procstat_pid_parse(neg, strlen(neg), &ps), 0);
	assert_string_equal(ps.comm, "a) b");
	assert_int_equal(ps.utime, 10);
	assert_int_equal(ps.starttime, 500);

	/* A name longer than the kernel's 15 bytes is cut, not overflowed. */
	const char *longname = "8 (abcdefghijklmnopqrstuvwxyz0123456789) R 1 8 8 0 -1 0 0 0 0 0 1 1 0 0 "
			       "20 0 1 0 9 0 0\n";
	assert_int_equal(procstat_pid_parse(longname, strlen(longname), &ps), 0);
	assert_int_equal(strlen(ps.comm), sizeof ps.comm - 1);

	const char *bad[] = { "", "(x) S", "0 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19",
			      "12 x S 1 2", "12 (x)", "12 (x) S 1 2 3", "\xff\xfe\x00" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(procstat_pid_parse(bad[i], strlen(bad[i]), &ps), -EINVAL);
}

/* ---- /proc/PID/io ---- */

static void test_io_parse(void **state)
{
	(void)state;
	struct pid_io io;
	size_t len;
	char *rec = slurp("pid-io", &len);
	assert_int_equal(procstat_io_parse(rec, len, &io), 0);
	assert_true(io.rchar == 1073741824ULL);
	assert_true(io.read_bytes == 536870912ULL);
	assert_int_equal(io.write_bytes, 4096);
	assert_int_equal(io.wchar, 2048);
	free(rec);
	/* Another user's process: the read fails, or gives nothing. */
	assert_int_equal(procstat_io_parse("", 0, &io), -EINVAL);
	const char *half = "rchar: 5\nwchar: 6\n";
	assert_int_equal(procstat_io_parse(half, strlen(half), &io), -EINVAL);
	assert_int_equal(io.rchar, 5);
}

/* ---- /proc/diskstats ---- */

static void test_diskstats_parse(void **state)
{
	(void)state;
	struct disk_totals t;
	size_t len;
	char *rec = slurp("diskstats-wsl", &len);
	assert_int_equal(procstat_diskstats_parse(rec, len, &t), 0);
	/* sda sdb sdc sdd nvme0n1; not sdd1, nvme0n1p1, loop, ram, dm, zram. */
	assert_int_equal(t.ndisks, 5);
	assert_true(t.sectors_read == 143466ULL + 5904 + 1294730 + 9381120 + 100000);
	assert_true(t.sectors_written == 0ULL + 8 + 4219752 + 30210032 + 50000);
	free(rec);

	/* A partition whose disk is not listed counts as a disk. */
	const char *lone = "8 1 sda1 1 0 10 0 1 0 20 0 0 0 0\n";
	assert_int_equal(procstat_diskstats_parse(lone, strlen(lone), &t), 0);
	assert_int_equal(t.ndisks, 1);
	assert_int_equal(t.sectors_read, 10);
	/* Only virtual devices: parsed, no disk. */
	const char *virt = "7 0 loop0 1 0 10 0 1 0 20 0 0 0 0\n";
	assert_int_equal(procstat_diskstats_parse(virt, strlen(virt), &t), 0);
	assert_int_equal(t.ndisks, 0);
	assert_true(procstat_disk_is_virtual("dm-3"));
	assert_false(procstat_disk_is_virtual("sdc"));

	const char *bad[] = { "", "garbage\n", "8 0 sda 1 2\n", "\xff\xff\xff" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(procstat_diskstats_parse(bad[i], strlen(bad[i]), &t), -EINVAL);
	/* A huge file of bad lines ends, in bounded time. */
	struct strbuf big = STRBUF_INIT;
	for (int i = 0; i < 100000; i++)
		sb_add(&big, "x y z\n");
	assert_int_equal(procstat_diskstats_parse(big.buf, big.len, &t), -EINVAL);
	sb_release(&big);
}

/* ---- points from raw readings ---- */

static void raw_at(struct watch_raw *r, double t_ms, unsigned long long busy,
		   unsigned long long idle, unsigned long long iowait)
{
	memset(r, 0, sizeof *r);
	r->t_ms = t_ms;
	r->mc.t_ms = t_ms;
	r->mc.have_cpu = true;
	r->mc.ncpu = 4;
	r->mc.cpu.user = busy;
	r->mc.cpu.system = busy / 2;
	r->mc.cpu.idle = idle;
	r->mc.cpu.iowait = iowait;
	r->have_tree = true;
	r->tree.io_ok = true;
}

static void test_point_from(void **state)
{
	(void)state;
	struct watch_raw a, b;
	raw_at(&a, 1000, 100, 1000, 0);
	raw_at(&b, 3000, 300, 1500, 100); /* 2 s later */
	a.tree.cpu = 50;
	b.tree.cpu = 450;                 /* 400 ticks in 2 s at 100 Hz = 2 cores */
	b.tree.top_delta = 180;           /* 0.9 cores */
	b.tree.nprocs = 3;
	b.tree.nrunnable = 2;
	b.tree.nblocked = 1;
	a.tree.rchar = 0;
	b.tree.rchar = 40000000;          /* 20 MB/s */
	a.tree.rd = 1000000;
	b.tree.rd = 3000000;              /* 1 MB/s */
	a.mc.have_disk = b.mc.have_disk = true;
	a.mc.disk.ndisks = b.mc.disk.ndisks = 1;
	b.mc.disk.sectors_read = 2000000 * 2; /* 4e6 sectors * 512 B / 2 s = 1024 MB/s */
	a.mc.vm.have_pswp = b.mc.vm.have_pswp = true;
	b.mc.vm.pswpin = 1000;            /* 1000 pages * 4096 / 2 s = 2.048 MB/s */
	b.mc.have_mem = true;
	b.mc.mem.mem_available = 2048ULL << 20;
	b.gpu.valid = true;
	b.gpu.t_ms = 2900;
	b.gpu.util_ok = true;
	b.gpu.util = 87;
	b.gpu.mem_ok = true;
	b.gpu.mem_used_mib = 5000;

	struct watch_point p;
	watch_point_from(&a, &b, 0, 100, 4096, 1000, &p);
	assert_float_equal(p.v[WC_T], 3.0, 1e-9);
	/* CPU: busy 200 user + 100 system, idle 500, iowait 100 of 900. */
	assert_float_equal(p.v[WC_CPU_USER], 200.0 * 100 / 900, 1e-9);
	assert_float_equal(p.v[WC_CPU_SYS], 100.0 * 100 / 900, 1e-9);
	assert_float_equal(p.v[WC_CPU_IOWAIT], 100.0 * 100 / 900, 1e-9);
	assert_float_equal(p.v[WC_JOB_CPU], 2.0, 1e-9);
	assert_float_equal(p.v[WC_JOB_TOP], 0.9, 1e-9);
	assert_float_equal(p.v[WC_JOB_PROCS], 3, 1e-9);
	assert_float_equal(p.v[WC_JOB_RUNNABLE], 2, 1e-9);
	assert_float_equal(p.v[WC_JOB_BLOCKED], 1, 1e-9);
	assert_float_equal(p.v[WC_JOB_RCHAR], 20.0, 1e-9);
	assert_float_equal(p.v[WC_JOB_READ], 1.0, 1e-9);
	assert_float_equal(p.v[WC_DISK_READ], 1024.0, 1e-6);
	assert_float_equal(p.v[WC_SWAP_IN], 2.048, 1e-9);
	assert_float_equal(p.v[WC_SWAP_OUT], 0, 1e-9);
	assert_float_equal(p.v[WC_MEM_AVAIL], 2048, 1e-9);
	assert_float_equal(p.v[WC_GPU_UTIL], 87, 1e-9);
	assert_float_equal(p.v[WC_GPU_MEM], 5000, 1e-9);

	/* A GPU reading older than stale_ms is missing, not repeated. */
	b.gpu.t_ms = 1000;
	watch_point_from(&a, &b, 0, 100, 4096, 1000, &p);
	assert_true(isnan(p.v[WC_GPU_UTIL]));
	/* /proc/PID/io unreadable: no job I/O figures. */
	b.tree.io_ok = false;
	/* A counter that went backwards (a member left without its parent)
	 * reads as 0, never negative. */
	b.tree.cpu = 10;
	watch_point_from(&a, &b, 0, 100, 4096, 1000, &p);
	assert_true(isnan(p.v[WC_JOB_RCHAR]));
	assert_float_equal(p.v[WC_JOB_CPU], 0, 1e-9);
	/* No time between the readings: nothing but the time. */
	watch_point_from(&a, &a, 0, 100, 4096, 1000, &p);
	assert_true(isnan(p.v[WC_CPU_USER]));
	assert_float_equal(p.v[WC_T], 1.0, 1e-9);
	/* Utilisation not supported: NaN, memory still there. */
	b.gpu.t_ms = 2900;
	b.gpu.util_ok = false;
	watch_point_from(&a, &b, 0, 100, 4096, 1000, &p);
	assert_true(isnan(p.v[WC_GPU_UTIL]));
	assert_float_equal(p.v[WC_GPU_MEM], 5000, 1e-9);
}

/* ---- the series store ---- */

static void test_series(void **state)
{
	(void)state;
	struct watch_series s;
	series_init(&s);
	struct watch_point p;
	size_t total = 3 * WATCH_KEEP_POINTS + 7;
	for (size_t i = 0; i < total; i++) {
		for (int c = 0; c < WC__COUNT; c++)
			p.v[c] = NAN;
		p.v[WC_T] = (double)i;
		p.v[WC_JOB_CPU] = (double)(i % 10);
		if (i % 2 == 0)
			p.v[WC_GPU_UTIL] = 50;
		series_add(&s, &p);
	}
	assert_int_equal(s.nsamples, total);
	assert_true(s.n <= WATCH_KEEP_POINTS);
	assert_int_equal(s.bucket, 4);
	/* Statistics are exact whatever was merged. */
	assert_int_equal(s.stat[WC_JOB_CPU].n, total);
	assert_float_equal(series_max(&s, WC_JOB_CPU), 9, 1e-9);
	assert_float_equal(series_min(&s, WC_JOB_CPU), 0, 1e-9);
	assert_float_equal(series_mean(&s, WC_GPU_UTIL), 50, 1e-9);
	assert_true(isnan(series_mean(&s, WC_SWAP_IN)));
	/* Kept points are in time order and average their buckets. */
	double *t;
	size_t n = series_column(&s, WC_T, &t);
	assert_true(n >= s.n);
	for (size_t i = 1; i < n; i++)
		assert_true(t[i] > t[i - 1]);
	assert_float_equal(t[0], 1.5, 1e-9); /* mean of 0,1,2,3 */
	free(t);
	double *g;
	n = series_column(&s, WC_GPU_UTIL, &g);
	for (size_t i = 0; i < n; i++) /* NaN halves do not drag it down */
		if (i + 1 < n || !isnan(g[i]))
			assert_float_equal(g[i], 50, 1e-9);
	free(g);
	series_release(&s);
}

/* ---- what people see ---- */

static void test_render(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	double v[] = { 0, 50, 100, NAN, 25 };
	watch_sparkline(&sb, v, 5, 32, 100);
	assert_string_equal(sb.buf, "\u2581\u2585\u2588 \u2583");
	sb_reset(&sb);
	/* More values than cells: averaged down to the width. */
	double many[100];
	for (int i = 0; i < 100; i++)
		many[i] = i < 50 ? 0 : 100;
	watch_sparkline(&sb, many, 100, 4, 100);
	assert_string_equal(sb.buf, "\u2581\u2581\u2588\u2588");
	sb_reset(&sb);
	watch_sparkline(&sb, many, 100, 4, 0); /* no scale: lowest block */
	assert_string_equal(sb.buf, "\u2581\u2581\u2581\u2581");

	sb_reset(&sb);
	watch_duration(&sb, 12.34);
	assert_string_equal(sb.buf, "12.3s");
	sb_reset(&sb);
	watch_duration(&sb, 133);
	assert_string_equal(sb.buf, "2m13s");
	sb_reset(&sb);
	watch_duration(&sb, 7322);
	assert_string_equal(sb.buf, "2h02m");

	struct watch_point p;
	for (int c = 0; c < WC__COUNT; c++)
		p.v[c] = 1;
	p.v[WC_GPU_UTIL] = NAN;
	for (int width = 0; width < 200; width += 7) {
		sb_reset(&sb);
		watch_live_line(&sb, &p, 61, NULL, width);
		assert_true(sb.len <= (size_t)(width > 1 ? width - 1 : 0));
		for (size_t i = 0; i < sb.len; i++)
			assert_true((unsigned char)sb.buf[i] >= 0x20 && (unsigned char)sb.buf[i] < 0x7f);
	}
	sb_reset(&sb);
	watch_live_line(&sb, &p, 61, NULL, 400);
	assert_non_null(strstr(sb.buf, "watch 1:01"));
	assert_non_null(strstr(sb.buf, "GPU util n/a"));
	sb_release(&sb);
}

static void test_csv(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	watch_csv_header(f);
	struct watch_point p;
	for (int c = 0; c < WC__COUNT; c++)
		p.v[c] = NAN;
	p.v[WC_T] = 1.5;
	p.v[WC_JOB_CPU] = 0.25;
	p.v[WC_GPU_UTIL] = 90;
	p.util_src = GSRC_WIN_VM; /* from Windows' counters; memory from nowhere */
	p.mem_src = GSRC_NONE;
	watch_csv_row(f, &p);
	fclose(f);
	char *nl = strchr(buf, '\n');
	assert_non_null(nl);
	assert_int_equal(strncmp(buf, "t_s,gpu_util_pct,", 17), 0);
	/* One field per column in both lines, then the two GPU sources. */
	size_t commas_head = 0, commas_row = 0;
	for (char *q = buf; q < nl; q++)
		commas_head += *q == ',';
	for (char *q = nl + 1; *q && *q != '\n'; q++)
		commas_row += *q == ',';
	assert_int_equal(commas_head, WC__COUNT + 1);
	assert_int_equal(commas_row, WC__COUNT + 1);
	assert_non_null(strstr(buf, ",gpu_util_source,gpu_mem_source\n"));
	assert_int_equal(strncmp(nl + 1, "1.50,90.0,,", 11), 0);
	assert_non_null(strstr(nl + 1, ",0.25,"));
	assert_non_null(strstr(nl + 1, ",windows-vm,\n"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_parse),     cmocka_unit_test(test_pid_parse),
		cmocka_unit_test(test_io_parse),      cmocka_unit_test(test_diskstats_parse),
		cmocka_unit_test(test_point_from),    cmocka_unit_test(test_series),
		cmocka_unit_test(test_render),        cmocka_unit_test(test_csv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
