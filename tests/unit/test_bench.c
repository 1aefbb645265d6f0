/* test_bench.c: the benchmarks' pure parts — size parsing, statistics, the
 * free-space decision, verdicts and ratios, the output formats — plus a
 * tiny real `bench io` run in a scratch directory (cleanup, also when
 * interrupted) and the GPU engine on the fake libcuda. No assertion is
 * about speed: numbers are measured, never asserted. */
#include "testutil.h"

#include <math.h>
#include <signal.h>
#include <dirent.h>

#include "bench/bench.h"
#include "core/json.h"
#include "core/interrupt.h"
#include "bench/mounts.h"
#include "bench/stats.h"
#include "core/rootfs.h"
#include "kb/kb.h"
#include "kb_ids.h"

/* ---- sizes ---- */

static void test_parse_size(void **state)
{
	(void)state;
	uint64_t v;
	struct { const char *s; uint64_t want; } good[] = {
		{ "0", 0 }, { "4096", 4096 }, { "4K", 4096 }, { "4k", 4096 }, { "4KiB", 4096 },
		{ "4kb", 4096 }, { "4Ki", 4096 }, { "256M", 256ull << 20 }, { "1G", 1ull << 30 },
		{ "2t", 2ull << 40 }, { "512B", 512 }, { "512b", 512 },
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		v = 12345;
		assert_int_equal(bench_parse_size(good[i].s, &v), 0);
		assert_true(v == good[i].want);
	}
	const char *bad[] = { "", "-1", "+4K", "1.5G", "K", "4X", "4KB5", " 4K", "4 K", "4KK",
			      "4iB", "4Bx", "0x10", NULL };
	for (size_t i = 0; bad[i]; i++)
		assert_int_equal(bench_parse_size(bad[i], &v), -EINVAL);
	assert_int_equal(bench_parse_size(NULL, &v), -EINVAL);
	assert_int_equal(bench_parse_size("99999999999999999999", &v), -ERANGE);
	assert_int_equal(bench_parse_size("17179869184G", &v), -ERANGE);
	assert_int_equal(bench_parse_size("16777215T", &v), 0);
	assert_int_equal(bench_parse_size("16777216T", &v), -ERANGE);
}

static void test_format(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	bench_format_size(&sb, 512);
	assert_string_equal(sb.buf, "512 B");
	sb_reset(&sb);
	bench_format_size(&sb, 4096);
	assert_string_equal(sb.buf, "4 KiB");
	sb_reset(&sb);
	bench_format_size(&sb, 256ull << 20);
	assert_string_equal(sb.buf, "256 MiB");
	sb_reset(&sb);
	bench_format_size(&sb, 3ull << 29);
	assert_string_equal(sb.buf, "1.5 GiB");
	sb_reset(&sb);
	bench_format_rate(&sb, 1.5 * 1048576);
	assert_string_equal(sb.buf, "1.5 MiB/s");
	sb_reset(&sb);
	bench_format_rate(&sb, NAN);
	assert_string_equal(sb.buf, "?");
	sb_reset(&sb);
	bench_format_ratio(&sb, 2.44);
	assert_string_equal(sb.buf, "2.4×");
	sb_reset(&sb);
	bench_format_ratio(&sb, 38.2);
	assert_string_equal(sb.buf, "38×");
	sb_reset(&sb);
	bench_format_ratio(&sb, 0);
	assert_string_equal(sb.buf, "?×");
	sb_release(&sb);
}

/* ---- statistics ---- */

static void test_percentiles(void **state)
{
	(void)state;
	struct bench_summary s;
	bench_summarise(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(s.median == 0 && s.p99 == 0);

	double one[] = { 7 };
	bench_summarise(one, 1, &s);
	assert_true(s.median == 7 && s.p99 == 7 && s.min == 7 && s.max == 7);

	/* Unsorted 1..10: median is the mean of 5 and 6; p99 at rank 8.91. */
	double ten[] = { 10, 3, 1, 8, 2, 9, 4, 7, 5, 6 };
	bench_summarise(ten, 10, &s);
	assert_true(fabs(s.median - 5.5) < 1e-9);
	assert_true(fabs(s.p99 - 9.91) < 1e-9);
	assert_true(fabs(s.mean - 5.5) < 1e-9);
	assert_true(s.min == 1 && s.max == 10 && fabs(s.total - 55) < 1e-9);
	for (int i = 1; i < 10; i++)
		assert_true(ten[i - 1] <= ten[i]); /* sorted in place */

	/* 1000 samples with one outlier: the median ignores it, p99 does not
	 * reach it, the maximum is it. */
	double *v = malloc(1000 * sizeof *v);
	for (int i = 0; i < 1000; i++)
		v[i] = 1.0;
	v[500] = 1000.0;
	bench_summarise(v, 1000, &s);
	assert_true(s.median == 1.0);
	assert_true(s.p99 == 1.0);
	assert_true(s.max == 1000.0);
	for (int i = 0; i < 1000; i++)
		v[i] = i < 980 ? 1.0 : 50.0; /* 2 % slow */
	bench_summarise(v, 1000, &s);
	assert_true(s.p99 == 50.0);
	free(v);

	double e[] = { 1, 2 };
	assert_true(bench_percentile_sorted(e, 2, 0) == 1);
	assert_true(bench_percentile_sorted(e, 2, 100) == 2);
	assert_true(bench_percentile_sorted(e, 2, 50) == 1.5);
}

/* ---- free space ---- */

static void test_space(void **state)
{
	(void)state;
	struct bench_io_params p = { .size = 256ull << 20, .block = 1 << 20, .files = 2000,
				     .file_size = 4096, .seconds = 10 };
	uint64_t need;
	/* 256 MiB + 2000 x 4 KiB, and the 64 MiB minimum margin. */
	uint64_t writes = (256ull << 20) + 2000ull * 4096;
	assert_true(bench_io_space_ok(writes + BENCH_IO_MARGIN, &p, &need));
	assert_true(need == writes + BENCH_IO_MARGIN);
	assert_false(bench_io_space_ok(need - 1, &p, &need));
	assert_false(bench_io_space_ok(0, &p, &need));
	/* Small files occupy a whole 4 KiB block each, even of 1 byte. */
	p.size = 0;
	p.file_size = 1;
	bench_io_space_ok(0, &p, &need);
	assert_true(need == 2000ull * 4096 + BENCH_IO_MARGIN);
	/* Large runs keep a tenth as margin. */
	p.size = 10ull << 30;
	p.files = 0;
	bench_io_space_ok(0, &p, &need);
	assert_true(need == (10ull << 30) + (1ull << 30));
}

/* Out of space: the run suggested instead is smaller than asked, never larger. */
static void test_space_fit(void **state)
{
	(void)state;
	struct bench_io_params p = { .size = 1ull << 30, .block = 1 << 20, .files = 2000,
				     .file_size = 4096, .seconds = 10 };
	uint64_t size, need;
	unsigned files;
	assert_true(bench_io_fit(200ull << 20, &p, &size, &files));
	assert_true(size <= p.size && size >= (1ull << 20));
	assert_true(files <= p.files && files > 0);
	struct bench_io_params q = p;
	q.size = size;
	q.files = files;
	assert_true(bench_io_space_ok(200ull << 20, &q, &need));
	assert_true(size == 128ull << 20); /* 128 MiB + 2000 x 4 KiB + the 64 MiB margin */
	/* A small run asked for, on a disk too small for it: nothing larger is
	 * offered, and below the margin nothing fits at all. */
	p.size = 1ull << 20;
	p.files = 20;
	assert_false(bench_io_fit(2ull << 20, &p, &size, &files));
	assert_true(size == 0);
	assert_true(bench_io_fit(70ull << 20, &p, &size, &files));
	assert_true(size == 1ull << 20 && files <= 20);
	/* Many small files on little room: fewer of them. */
	p.size = 8ull << 20;
	p.files = 100000;
	assert_true(bench_io_fit(80ull << 20, &p, &size, &files));
	assert_true(files < 100000 && size <= p.size);
	q = p;
	q.size = size;
	q.files = files;
	assert_true(bench_io_space_ok(80ull << 20, &q, &need));
}

/* ---- mounts ---- */

static const char mountinfo_wsl2[] =
	"62 67 8:48 / / rw,relatime - ext4 /dev/sdd rw,discard,errors=remount-ro\n"
	"64 62 0:28 / /usr/lib/wsl/drivers ro,nosuid - 9p drivers ro,aname=drivers;fmask=222,cache=5\n"
	"75 62 0:40 / /mnt/c rw,noatime - 9p C:\\134 rw,dirsync,aname=drvfs;path=C:\\;uid=1000,mmap\n"
	"76 62 0:41 / /mnt/d rw,noatime - virtiofs drvfsa rw\n"
	"77 62 0:42 / /mnt/wsl rw - tmpfs none rw\n"
	"78 62 0:43 / /mnt/e rw - drvfs E: rw\n"
	"79 62 0:44 / /srv/9p rw - 9p tag rw,aname=drvfsX\n";

static void test_mounts(void **state)
{
	(void)state;
	struct mountinfo mi;
	mountinfo_parse(mountinfo_wsl2, sizeof mountinfo_wsl2 - 1, &mi);
	struct { const char *path; const char *fs; bool win; } cases[] = {
		{ "/home/user", "ext4", false },
		{ "/mnt/c/Users/alice", "9p", true },
		{ "/mnt/c", "9p", true },
		{ "/mnt/cc", "ext4", false },
		{ "/usr/lib/wsl/drivers/x", "9p", false },
		{ "/mnt/d/data", "virtiofs", true },
		{ "/mnt/wsl", "tmpfs", false },
		{ "/mnt/e", "drvfs", true },
		{ "/srv/9p", "9p", false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct mount_entry *m = mountinfo_find(&mi, cases[i].path);
		assert_non_null(m);
		assert_string_equal(m->fstype, cases[i].fs);
		assert_int_equal(mountinfo_windows_drive(m, NULL), cases[i].win);
	}
	struct strbuf c = STRBUF_INIT;
	assert_int_equal(mount_windows_c(&mi, NULL, &c), 0);
	assert_string_equal(c.buf, "/mnt/c");
	mountinfo_free(&mi);
	/* No Windows drive at all: native Linux. */
	const char native[] = "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n";
	mountinfo_parse(native, sizeof native - 1, &mi);
	assert_int_equal(mount_windows_c(&mi, NULL, &c), -ENOENT);
	mountinfo_free(&mi);
	/* A C: drive mounted elsewhere is still found by its source. */
	const char moved[] = "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
			     "2 1 0:9 / /win/sys rw - 9p C:\\134 rw,aname=drvfs;path=C:\\\n";
	mountinfo_parse(moved, sizeof moved - 1, &mi);
	assert_int_equal(mount_windows_c(&mi, NULL, &c), 0);
	assert_string_equal(c.buf, "/win/sys");
	mountinfo_free(&mi);
	/* virtiofs drives under wsl.conf's [automount] root = /windrives/. */
	const char moved_root[] = "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
				  "2 1 0:9 / /windrives/c rw - virtiofs drvfsC rw\n";
	mountinfo_parse(moved_root, sizeof moved_root - 1, &mi);
	assert_int_equal(mount_windows_c(&mi, NULL, &c), -ENOENT);
	assert_int_equal(mount_windows_c(&mi, "/windrives/", &c), 0);
	assert_string_equal(c.buf, "/windrives/c");
	mountinfo_free(&mi);
	assert_false(mountinfo_windows_drive(NULL, NULL));
	sb_release(&c);
}

/* ---- io verdict ---- */

static void loc_init(struct bench_io_loc *l, const char *path, const char *fs, bool win,
		     double per_file_us, double rd, double wr)
{
	memset(l, 0, sizeof *l);
	l->path = (char *)path;
	l->resolved = (char *)path;
	l->fstype = (char *)fs;
	l->source = (char *)"src";
	l->windows_drive = win;
	l->state = BENCH_LOC_DONE;
	l->per_file_us = per_file_us;
	l->op[BENCH_OP_CREATE].ops = 100;
	l->read.bytes_per_s = rd;
	l->write.bytes_per_s = wr;
	l->cache_resident_pct = -1;
	/* Three trials that agree: no noise. */
	l->trials = 3;
	for (unsigned i = 0; i < 3; i++) {
		l->t_small.v[i] = per_file_us;
		l->t_read.v[i] = rd;
		l->t_write.v[i] = wr;
	}
	l->t_small.n = l->t_read.n = l->t_write.n = 3;
}

/* The trials of one figure, from a row of a table; 0 ends the row. */
static void set_trials(struct bench_trials *t, const double *v)
{
	t->n = 0;
	for (unsigned i = 0; i < BENCH_IO_MAX_TRIALS && v[i] > 0; i++)
		t->v[t->n++] = v[i];
}

static const struct result *find_kb(const struct bench_verdict *v, const char *kb, size_t nth)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->findings[i].kb && !strcmp(v->findings[i].kb, kb) && nth-- == 0)
			return &v->findings[i];
	return NULL;
}

static void test_verdict_io(void **state)
{
	(void)state;
	struct bench_io_loc l[3];
	loc_init(&l[0], "/home/you", "ext4", false, 20, 2e9, 1e9);
	loc_init(&l[1], "/mnt/c/data", "9p", true, 764, 2e8, 0.9e9);
	struct bench_verdict v;
	bench_verdict_io(l, 2, &v);
	assert_int_equal(v.status, ST_WARN);
	assert_string_equal(v.fastest, "/home/you");
	const struct result *r = find_kb(&v, KB_BENCH_IO_WINDOWS_DRIVE, 0);
	assert_non_null(r);
	assert_string_equal(r->detail, "/mnt/c/data: 38× slower for small files than /home/you");
	assert_string_equal(res_get(r, "ratio"), "38×");
	assert_string_equal(res_get(r, "copy_from"), "/mnt/c/<your data>");
	r = find_kb(&v, KB_BENCH_IO_WINDOWS_DRIVE, 1);
	assert_non_null(r);
	assert_string_equal(r->detail, "/mnt/c/data: 10× slower for sequential reads than /home/you");
	assert_null(find_kb(&v, KB_BENCH_IO_WINDOWS_DRIVE, 2)); /* writes: only 1.1× */
	assert_string_equal(v.summary, "/mnt/c/data: 38× slower for small files than /home/you "
				       "(and 1 more finding)");
	assert_string_equal(res_get(r - 1, "measured"),
			    "here 38× slower for small files than /home/you");
	/* Every KB id a finding names exists, with a source. */
	for (size_t i = 0; i < v.n; i++) {
		const struct kb_entry *e = kb_find(v.findings[i].kb);
		assert_non_null(e);
		assert_true(e->source.n > 0);
	}
	bench_verdict_release(&v);

	/* A named slow location that is not a Windows drive; the copy source
	 * is the named path. */
	l[1].windows_drive = false;
	l[1].named = true;
	bench_verdict_io(l, 2, &v);
	r = find_kb(&v, KB_BENCH_IO_SLOW_LOCATION, 0);
	assert_non_null(r);
	assert_string_equal(res_get(r, "copy_from"), "/mnt/c/data");
	bench_verdict_release(&v);

	/* Within the ratio: pass, with a summary saying so. */
	loc_init(&l[1], "/data", "xfs", false, 30, 1.5e9, 0.8e9);
	bench_verdict_io(l, 2, &v);
	assert_int_equal(v.status, ST_PASS);
	assert_int_equal(v.n, 0);
	assert_string_equal(v.summary, "no location is 2× or more slower than the fastest (/home/you)");
	bench_verdict_release(&v);

	/* tmpfs is memory: measured, never the reference for a disk. */
	loc_init(&l[1], "/dev/shm", "tmpfs", false, 2, 9e9, 9e9);
	bench_verdict_io(l, 2, &v);
	assert_int_equal(v.status, ST_PASS);
	assert_string_equal(v.fastest, "/home/you");
	bench_verdict_release(&v);
	loc_init(&l[0], "/run/x", "tmpfs", false, 20, 2e9, 1e9);
	bench_verdict_io(l, 2, &v); /* only memory: compared among themselves */
	assert_string_equal(v.fastest, "/dev/shm");
	bench_verdict_release(&v);
	loc_init(&l[0], "/home/you", "ext4", false, 20, 2e9, 1e9);

	/* A failed location fails the verdict with its KB entry; a skipped
	 * one is ignored. */
	loc_init(&l[2], "/full", "ext4", false, 0, 0, 0);
	l[2].state = BENCH_LOC_FAILED;
	l[2].error = (char *)"not enough free space: 10 MiB free, the benchmark needs 330 MiB";
	l[2].kb = (char *)KB_BENCH_IO_NO_SPACE;
	l[2].free_bytes = 10 << 20;
	l[2].need_bytes = 330 << 20;
	bench_verdict_io(l, 3, &v);
	assert_int_equal(v.status, ST_FAIL);
	r = find_kb(&v, KB_BENCH_IO_NO_SPACE, 0);
	assert_non_null(r);
	assert_string_equal(res_get(r, "free"), "10 MiB");
	assert_string_equal(res_get(r, "need"), "330 MiB");
	assert_string_equal(v.summary, "1 location could not be measured");
	bench_verdict_release(&v);
	l[2].state = BENCH_LOC_SKIPPED;
	bench_verdict_io(l, 3, &v);
	assert_int_equal(v.status, ST_PASS);
	bench_verdict_release(&v);

	/* Only a Windows drive measured: nothing to compare, still a warning. */
	loc_init(&l[0], "/mnt/c/Users/alice", "9p", true, 700, 1e8, 1e8);
	bench_verdict_io(l, 1, &v);
	assert_int_equal(v.status, ST_WARN);
	assert_non_null(find_kb(&v, KB_BENCH_IO_WINDOWS_DRIVE, 0));
	bench_verdict_release(&v);
	l[0].windows_drive = false;
	bench_verdict_io(l, 1, &v);
	assert_int_equal(v.status, ST_PASS);
	assert_string_equal(v.summary, "one location measured: nothing to compare");
	bench_verdict_release(&v);

	/* Nothing measured. */
	l[0].state = BENCH_LOC_SKIPPED;
	bench_verdict_io(l, 1, &v);
	assert_string_equal(v.summary, "no location could be measured");
	bench_verdict_release(&v);
}

/*
 * Trials against noise: a table of per-file costs (µs) at a Linux
 * directory and a second location, and what the verdict must say. One
 * noisy sample is no verdict; trials that overlap are "no difference
 * beyond the noise"; trials that stay apart are a finding whatever their
 * spread.
 */
static void test_verdict_io_trials(void **state)
{
	(void)state;
	static const struct {
		const char *what;
		double fast[6], other[6];
		enum status st;
		const char *summary;
	} rows[] = {
		{ "one noisy sample: 5.6x, then 0.7x and 1.2x",
		  { 100, 100, 100 }, { 560, 70, 120 }, ST_PASS,
		  "no location is 2× or more slower than the fastest (/home/you)" },
		{ "a 3x median whose trials overlap the fastest's",
		  { 100, 110, 260 }, { 300, 90, 330 }, ST_PASS,
		  "no difference beyond the noise (±136 %)" },
		{ "one trial each: noise unknown, no verdict",
		  { 100 }, { 600 }, ST_PASS,
		  "measured once: a difference cannot be told from noise (--trials 3)" },
		{ "clearly apart: every trial 10x or more slower",
		  { 50, 55, 48 }, { 1000, 1100, 950 }, ST_WARN,
		  "/mnt/c/data: 20× slower for small files than /home/you" },
		{ "apart despite a wide spread",
		  { 40, 60, 50 }, { 300, 600, 450 }, ST_WARN,
		  "/mnt/c/data: 9.0× slower for small files than /home/you" },
		{ "2x by the medians but not between best and worst",
		  { 100, 100, 120 }, { 200, 230, 210 }, ST_PASS,
		  "no difference beyond the noise (±20 %)" },
		{ "five trials, one outlier at the slow side",
		  { 20, 21, 22, 20, 21 }, { 700, 720, 760, 40, 710 }, ST_PASS,
		  "no difference beyond the noise (±94 %)" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct bench_io_loc l[2];
		loc_init(&l[0], "/home/you", "ext4", false, 0, 1e9, 1e9);
		loc_init(&l[1], "/mnt/c/data", "9p", true, 0, 1e9, 1e9);
		l[1].source = (char *)"C:\\";
		set_trials(&l[0].t_small, rows[i].fast);
		set_trials(&l[1].t_small, rows[i].other);
		struct bench_spread a, b;
		bench_spread_of(&l[0].t_small, &a);
		bench_spread_of(&l[1].t_small, &b);
		l[0].per_file_us = a.median;
		l[1].per_file_us = b.median;
		struct bench_verdict v;
		bench_verdict_io(l, 2, &v);
		if (v.status != rows[i].st || strcmp(v.summary, rows[i].summary))
			fail_msg("%s: status %s, summary \"%s\"; expected %s, \"%s\"", rows[i].what,
				 status_name(v.status), v.summary, status_name(rows[i].st),
				 rows[i].summary);
		/* A warning carries the noise it is beyond; a pass names no KB
		 * entry that would print a cause. */
		for (size_t k = 0; k < v.n; k++) {
			assert_non_null(res_get(&v.findings[k], "noise"));
			assert_non_null(res_get(&v.findings[k], "trials"));
			if (v.findings[k].status == ST_PASS)
				assert_null(v.findings[k].kb);
		}
		bench_verdict_release(&v);
	}
	/* The spread itself: median, range, the largest distance from it. */
	struct bench_trials t = { 3, { 100, 70, 120 } };
	struct bench_spread sp;
	bench_spread_of(&t, &sp);
	assert_true(sp.n == 3 && sp.median == 100 && sp.min == 70 && sp.max == 120);
	assert_true(fabs(sp.noise - 0.30) < 1e-9);
	t.n = 1;
	bench_spread_of(&t, &sp);
	assert_true(sp.n == 1 && sp.noise == 0);
	t.n = 0;
	bench_spread_of(&t, &sp);
	assert_true(sp.n == 0 && sp.median == 0);
}

/* ---- gpu verdict and helpers ---- */

static void test_pcie(void **state)
{
	(void)state;
	assert_int_equal(bench_pcie_gen_from_speed("16.0 GT/s PCIe\n", 15), 4);
	assert_int_equal(bench_pcie_gen_from_speed("8 GT/s", 6), 3);
	assert_int_equal(bench_pcie_gen_from_speed("2.5 GT/s PCIe", 13), 1);
	assert_int_equal(bench_pcie_gen_from_speed("5.0 GT/s PCIe", 13), 2);
	assert_int_equal(bench_pcie_gen_from_speed("32.0 GT/s PCIe", 14), 5);
	assert_int_equal(bench_pcie_gen_from_speed("64.0 GT/s PCIe", 14), 6);
	assert_int_equal(bench_pcie_gen_from_speed("Unknown", 7), 0);
	assert_int_equal(bench_pcie_gen_from_speed("", 0), 0);
	assert_int_equal(bench_pcie_gen_from_speed("12 GT/s", 7), 0);
	assert_int_equal(bench_pcie_gen_from_speed("16.0 MT/s", 9), 0);
	assert_int_equal(bench_pcie_gen_from_speed("\xff\x00\x01", 3), 0);
	char big[100];
	memset(big, '9', sizeof big);
	assert_int_equal(bench_pcie_gen_from_speed(big, sizeof big), 0);

	assert_true(fabs(bench_pcie_bytes_per_s(3, 16) - 15.75e9) < 0.01e9);
	assert_true(fabs(bench_pcie_bytes_per_s(4, 16) - 31.5e9) < 0.01e9);
	assert_true(fabs(bench_pcie_bytes_per_s(1, 1) - 0.25e9) < 1e6);
	assert_true(bench_pcie_bytes_per_s(0, 16) == 0);
	assert_true(bench_pcie_bytes_per_s(4, 0) == 0);
	assert_true(bench_pcie_bytes_per_s(9, 16) == 0);
}

static void test_pattern(void **state)
{
	(void)state;
	unsigned char buf[4099];
	size_t bad = 0;
	for (size_t n = 0; n <= 10; n++) {
		bench_fill_pattern(buf, n, 7);
		assert_int_equal(bench_check_pattern(buf, n, 7, &bad), 0);
	}
	bench_fill_pattern(buf, sizeof buf, 42);
	assert_int_equal(bench_check_pattern(buf, sizeof buf, 42, &bad), 0);
	assert_int_equal(bench_check_pattern(buf, sizeof buf, 43, &bad), -1);
	buf[2049] ^= 0x10;
	assert_int_equal(bench_check_pattern(buf, sizeof buf, 42, &bad), -1);
	assert_int_equal(bad, 2049);
	buf[2049] ^= 0x10;
	buf[4098] ^= 1; /* the tail */
	assert_int_equal(bench_check_pattern(buf, sizeof buf, 42, &bad), -1);
	assert_int_equal(bad, 4098);
	/* All zeros (a copy that did nothing) is caught at once. */
	memset(buf, 0, sizeof buf);
	assert_int_equal(bench_check_pattern(buf, sizeof buf, 42, &bad), -1);
}

static void gpu_init(struct bench_gpu *g)
{
	memset(g, 0, sizeof *g);
	g->ok = 1;
	snprintf(g->name, sizeof g->name, "Test GPU");
	g->nsizes = 2;
	g->sizes[0] = 4096;
	g->sizes[1] = 64ull << 20;
	for (int c = 0; c < BENCH_COPY__COUNT; c++)
		for (size_t i = 0; i < 2; i++) {
			g->copy[c][i].size = g->sizes[i];
			g->copy[c][i].measured = true;
			g->copy[c][i].verified = true;
			g->copy[c][i].reps = 3;
			g->copy[c][i].bytes_per_s = i ? 25e9 : 1e9;
		}
	g->sync_launches = 5000;
	g->sync_median_us = 8;
	g->sync_p99_us = 15;
	g->stream_launches = 20000;
	g->stream_us_per_launch = 2.5;
	g->stream_launches_per_s = 400000;
}

static void test_verdict_gpu(void **state)
{
	(void)state;
	struct bench_gpu g;
	struct bench_verdict v;
	gpu_init(&g);
	g.pcie_gen = 4;
	g.pcie_width = 16;
	bench_verdict_gpu(&g, &v);
	assert_int_equal(v.status, ST_PASS);
	assert_int_equal(v.n, 2);
	assert_non_null(strstr(v.findings[0].detail, "79% (host→device)"));
	assert_non_null(strstr(v.findings[0].detail, "PCIe 4.0 x16 link's 31.5 GB/s"));
	assert_string_equal(v.summary, "no problem found on the GPU path");
	bench_verdict_release(&v);

	/* Under half the link; slow launches; a pinned allocation refused. */
	for (size_t i = 0; i < 2; i++)
		g.copy[BENCH_D2H_PINNED][i].bytes_per_s = 10e9;
	g.stream_us_per_launch = 20;
	g.pinned_failed_size = 256ull << 20;
	snprintf(g.pinned_error, sizeof g.pinned_error, "CUDA_ERROR_OUT_OF_MEMORY (2)");
	bench_verdict_gpu(&g, &v);
	assert_int_equal(v.status, ST_WARN);
	const struct result *r = find_kb(&v, KB_BENCH_GPU_PCIE_LOW, 0);
	assert_non_null(r);
	assert_string_equal(res_get(r, "link"), "PCIe 4.0 x16");
	r = find_kb(&v, KB_BENCH_GPU_LAUNCH_SLOW, 0);
	assert_non_null(r);
	assert_string_equal(res_get(r, "each_us"), "20.0");
	r = find_kb(&v, KB_BENCH_GPU_PINNED_LIMIT, 0);
	assert_non_null(r);
	assert_string_equal(res_get(r, "size"), "256 MiB");
	for (size_t i = 0; i < v.n; i++)
		if (v.findings[i].status != ST_PASS)
			assert_non_null(kb_find(v.findings[i].kb));
	bench_verdict_release(&v);

	/* Unknown link: a pass that says so, never a guess. */
	gpu_init(&g);
	snprintf(g.pcie_note, sizeof g.pcie_note, "no PCIe link is visible");
	bench_verdict_gpu(&g, &v);
	assert_int_equal(v.status, ST_PASS);
	assert_non_null(strstr(v.findings[0].detail, "PCIe link unknown: no PCIe link is visible"));
	bench_verdict_release(&v);

	/* An error: fail, with its KB entry, whatever else was measured. */
	gpu_init(&g);
	g.ok = 0;
	snprintf(g.error, sizeof g.error, "cuInit failed: CUDA_ERROR_NO_DEVICE (100)");
	snprintf(g.error_kb, sizeof g.error_kb, KB_BENCH_GPU_INIT_FAILED);
	bench_verdict_gpu(&g, &v);
	assert_int_equal(v.status, ST_FAIL);
	assert_string_equal(v.findings[0].kb, KB_BENCH_GPU_INIT_FAILED);
	assert_string_equal(v.summary, "the GPU path could not be measured to the end");
	bench_verdict_release(&v);
}

/* ---- output ---- */

/* True when s is balanced JSON-ish: braces and brackets outside strings. */
static bool balanced(const char *s)
{
	int depth = 0;
	bool str = false;
	for (const char *p = s; *p; p++) {
		if (str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				str = false;
			continue;
		}
		if (*p == '"')
			str = true;
		else if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			if (--depth < 0)
				return false;
	}
	return depth == 0 && !str;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_output(void **state)
{
	(void)state;
	struct bench_io_params p = { .size = 1 << 20, .block = 1 << 20, .files = 10,
				     .file_size = 4096, .seconds = 1 };
	struct bench_io_loc l[2];
	loc_init(&l[0], "/home/a,b \"q\"", "ext4", false, 20, 2e9, 1e9);
	loc_init(&l[1], "/mnt/c/x", "9p", true, 800, 1e8, 1e8);
	l[1].state = BENCH_LOC_DONE;
	struct bench_verdict v;
	bench_verdict_io(l, 2, &v);

	struct strbuf sb = STRBUF_INIT;
	bench_csv_header(&sb);
	assert_string_equal(sb.buf, "bench,target,metric,stat,size_bytes,value,unit\n");
	bench_csv_io(&sb, l, 2);
	/* Per location: 2 sequential + 4 kinds x 3 + the per-file mean. */
	assert_int_equal(count_lines(sb.buf), 1 + 2 * 15);
	assert_non_null(strstr(sb.buf, "io,\"/home/a,b \"\"q\"\"\",seq_read,rate,"));
	assert_non_null(strstr(sb.buf, "io,/mnt/c/x,create,median,,"));
	sb_reset(&sb);

	struct json_writer jw;
	jw_init(&jw, &sb);
	bench_json_begin(&jw);
	bench_json_io(&jw, &p, l, 2, &v);
	bench_json_end(&jw);
	assert_true(balanced(sb.buf));
	assert_true(!strncmp(sb.buf, "{\"schema\":\"wslgpu/bench/1\",\"io\":{\"params\":", 41));
	assert_non_null(strstr(sb.buf, "\"windows_drive\":true"));
	assert_non_null(strstr(sb.buf, "\"kb\":\"bench.io.windows_drive\""));
	/* the unnamed folder is a template slot, quoted like any value; a
	 * template is a comment in the JSON (never a live line) */
	assert_non_null(strstr(sb.buf, "\"fix\":[\"# cp -a '/mnt/c/<your data>' ~/"));
	assert_null(strstr(sb.buf, "nan"));
	sb_reset(&sb);

	struct bench_out o = { .color = false, .utf8 = true };
	bench_text_io(&sb, &o, &p, l, 2, &v);
	assert_non_null(strstr(sb.buf, "! /mnt/c/x: 40× slower for small files than /home/a,b \"q\""));
	assert_non_null(strstr(sb.buf, "      fix    cp -a '/mnt/c/<your data>' ~/"));
	assert_null(strstr(sb.buf, "\033[")); /* no colour unless asked */
	bench_verdict_release(&v);
	sb_reset(&sb);

	struct bench_gpu g;
	gpu_init(&g);
	g.copy[BENCH_D2D][0].bytes_per_s = NAN; /* must not become invalid JSON */
	bench_verdict_gpu(&g, &v);
	jw_init(&jw, &sb);
	bench_json_begin(&jw);
	bench_json_gpu(&jw, &g, &v);
	bench_json_end(&jw);
	assert_true(balanced(sb.buf));
	assert_non_null(strstr(sb.buf, "\"kind\":\"h2d_pinned\",\"size_bytes\":67108864"));
	assert_non_null(strstr(sb.buf, "\"bytes_per_s\":null"));
	assert_non_null(strstr(sb.buf, "\"pcie\":{\"gen\":null,\"width\":null"));
	sb_reset(&sb);
	bench_csv_gpu(&sb, &g);
	assert_int_equal(count_lines(sb.buf), 5 * 2 + 3);
	sb_reset(&sb);
	o.color = true;
	bench_text_gpu(&sb, &o, &g, &v);
	assert_non_null(strstr(sb.buf, "host→device (pinned) by copy size"));
	assert_non_null(strstr(sb.buf, "\033[32m✓"));
	bench_verdict_release(&v);
	sb_release(&sb);
}

static void test_bar(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	bench_bar(&sb, 10, 10, 4, true);
	assert_string_equal(sb.buf, "████");
	sb_reset(&sb);
	bench_bar(&sb, 5, 10, 4, true);
	assert_string_equal(sb.buf, "██  ");
	sb_reset(&sb);
	bench_bar(&sb, 1, 10, 2, true); /* 1.6 eighths: rounds to 2 */
	assert_string_equal(sb.buf, "▎ ");
	sb_reset(&sb);
	bench_bar(&sb, 0, 10, 3, true);
	assert_string_equal(sb.buf, "   ");
	sb_reset(&sb);
	bench_bar(&sb, 1e-9, 10, 3, true); /* measured: never invisible */
	assert_string_equal(sb.buf, "▏  ");
	sb_reset(&sb);
	bench_bar(&sb, 5, 10, 4, false);
	assert_string_equal(sb.buf, "##  ");
	sb_reset(&sb);
	bench_bar(&sb, 20, 10, 2, false); /* clipped at max */
	assert_string_equal(sb.buf, "##");
	sb_reset(&sb);
	bench_bar(&sb, NAN, 10, 2, true);
	assert_string_equal(sb.buf, "  ");
	sb_release(&sb);
}

/* ---- a real, tiny bench io run ---- */

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_io_run(void **state)
{
	(void)state;
	char *dir = tu_mkdtemp();
	assert_non_null(dir);
	tu_write_str(dir, "keep.txt", "the user's own file\n");
	assert_int_equal(rootfs_set("/"), 0);
	const char *paths[] = { dir };
	struct bench_io_loc *locs;
	size_t n;
	bench_io_locations(paths, 1, &locs, &n);
	assert_int_equal(n, 1);
	assert_true(locs[0].named);
	struct bench_io_params p = { .size = 2 << 20, .block = 1 << 20, .files = 25,
				     .file_size = 100, .seconds = 30 };
	assert_int_equal(bench_io_run(&locs[0], &p), 0);
	assert_int_equal(locs[0].state, BENCH_LOC_DONE);
	assert_true(locs[0].write.bytes == 2 << 20);
	assert_true(locs[0].read.bytes == 2 << 20);
	assert_int_equal(locs[0].files_created, 25);
	for (int k = 0; k < BENCH_OP__COUNT; k++)
		assert_int_equal(locs[0].op[k].ops, 25);
	assert_non_null(locs[0].method);
	assert_true(locs[0].cache_resident_pct >= -1 && locs[0].cache_resident_pct <= 100);
	/* Only the user's file is left. */
	assert_int_equal(entries(dir), 1);
	bench_io_free(locs, n);

	/* Interrupted before it starts work: -EINTR, and nothing left. */
	bench_io_locations(paths, 1, &locs, &n);
	interrupt_install();
	raise(SIGINT);
	assert_int_equal(interrupt_signal(), SIGINT);
	assert_int_equal(interrupt_status(), 130);
	assert_int_equal(bench_io_run(&locs[0], &p), -EINTR);
	interrupt_restore();
	assert_int_equal(entries(dir), 1);
	bench_io_free(locs, n);

	/* Not a directory, and not there at all. */
	char file[4200];
	snprintf(file, sizeof file, "%s/keep.txt", dir);
	const char *bad[] = { file, "/nonexistent/wslgpu-bench-test" };
	bench_io_locations(bad, 2, &locs, &n);
	assert_int_equal(locs[0].state, BENCH_LOC_FAILED);
	assert_non_null(strstr(locs[0].error, "is not a directory"));
	assert_int_equal(locs[1].state, BENCH_LOC_FAILED);
	assert_non_null(strstr(locs[1].error, "No such file"));
	assert_int_equal(bench_io_run(&locs[0], &p), 0); /* a no-op */
	bench_io_free(locs, n);

	/* The same directory twice (also spelt differently) is measured once. */
	char other[4200];
	snprintf(other, sizeof other, "%s/./", dir);
	const char *twice[] = { dir, dir, other };
	bench_io_locations(twice, 3, &locs, &n);
	assert_int_equal(n, 1);
	bench_io_free(locs, n);
	const char *up[] = { "/.." };
	bench_io_locations(up, 1, &locs, &n);
	assert_string_equal(locs[0].resolved, "/");
	bench_io_free(locs, n);
	tu_rmtree(dir);
	free(dir);
}

/* ---- the GPU engine on the fake libcuda (tests/fakes/libcuda.c) ---- */

static void test_gpu_fake(void **state)
{
	(void)state;
	const char *build = getenv("BUILD");
	char lib[4096];
	snprintf(lib, sizeof lib, "%s/fakes/libcuda.so.1", build && *build ? build : "build");
	if (access(lib, R_OK) != 0) {
		fprintf(stderr, "skipping: no %s (make check builds it)\n", lib);
		return;
	}
	char *abs = realpath(lib, NULL);
	assert_non_null(abs);
	struct bench_gpu_params p = { .library = abs, .min_size = 4096, .max_size = 1 << 20,
				      .launches = 200, .stream_launches = 500, .seconds = 30,
				      .timeout_ms = 60000 };
	struct bench_gpu *g = calloc(1, sizeof *g);
	/* Through the isolating child, as the command runs it (in this
	 * process the fake's deliberate leak of unloaded modules would trip
	 * LeakSanitizer). */
	assert_int_equal(bench_gpu_run(&p, g), 0);
	assert_string_equal(g->error, "");
	assert_int_equal(g->ok, 1);
	assert_int_equal(g->nsizes, 5); /* 4K 16K 64K 256K 1M */
	for (int c = 0; c < BENCH_COPY__COUNT; c++)
		for (size_t i = 0; i < g->nsizes; i++) {
			assert_true(g->copy[c][i].measured);
			assert_true(g->copy[c][i].verified);
			assert_true(g->copy[c][i].reps >= 3);
		}
	/* Warm-up happened: one untimed copy per kind and size, 100 launches. */
	assert_int_equal(g->warmup_copies, BENCH_COPY__COUNT * g->nsizes);
	assert_int_equal(g->warmup_launches, 100);
	/* Verified: 5 kinds x 5 sizes round trips, plus the kernel check. */
	assert_int_equal(g->verified_copies, BENCH_COPY__COUNT * g->nsizes + 1);
	assert_int_equal(g->allocations, 3);
	assert_int_equal(g->frees, g->allocations);
	assert_int_equal(g->sync_launches, 200);
	assert_int_equal(g->stream_launches, 500);
	assert_string_equal(g->step, "");
	free(g);
	free(abs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),  cmocka_unit_test(test_format),
		cmocka_unit_test(test_percentiles), cmocka_unit_test(test_space),
		cmocka_unit_test(test_space_fit),
		cmocka_unit_test(test_mounts),
		cmocka_unit_test(test_verdict_io),  cmocka_unit_test(test_verdict_io_trials),
		cmocka_unit_test(test_pcie),
		cmocka_unit_test(test_pattern),     cmocka_unit_test(test_verdict_gpu),
		cmocka_unit_test(test_output),      cmocka_unit_test(test_bar),
		cmocka_unit_test(test_io_run),      cmocka_unit_test(test_gpu_fake),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
