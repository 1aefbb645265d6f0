/*
 * test_watch_proc.c: the samplers of `wslgpu watch` on a recorded /proc
 * (a fixture root given to rootfs): machine counters, the process tree's
 * membership and its CPU accounting across exits and reparenting, where
 * the open files live, and the isolated GPU sampler (with the fake NVML
 * when make check built it).
 */
#include <math.h>
#include <signal.h>
#include <sys/wait.h>

#include "testutil.h"

#include "core/rootfs.h"
#include "watch/datafs.h"
#include "watch/gpumon.h"
#include "watch/sysread.h"
#include "watch/tree.h"

/* Pids above PID_MAX_LIMIT (4194304): no real process can collide. */
#define P_ROOT 5000001
#define P_CHILD 5000002
#define P_GRAND 5000003
#define P_OTHER 5000004
#define P_GREAT 5000005
#define P_LATE 5000006

static void write_stat(const char *dir, int pid, char state, int ppid, unsigned long long ut,
		       unsigned long long st, unsigned long long cut, unsigned long long cst)
{
	char rel[64], line[512];
	snprintf(rel, sizeof rel, "proc/%d/stat", pid);
	snprintf(line, sizeof line,
		 "%d (w %d) %c %d %d 0 0 -1 0 0 0 0 0 %llu %llu %llu %llu 20 0 1 0 %d 0 0\n", pid,
		 pid % 10, state, ppid, pid, ut, st, cut, cst, 1000 + pid % 100);
	tu_write_str(dir, rel, line);
}

static void write_io(const char *dir, int pid, unsigned long long rchar, unsigned long long rd,
		     unsigned long long wr)
{
	char rel[64], text[256];
	snprintf(rel, sizeof rel, "proc/%d/io", pid);
	snprintf(text, sizeof text,
		 "rchar: %llu\nwchar: 0\nsyscr: 0\nsyscw: 0\nread_bytes: %llu\n"
		 "write_bytes: %llu\ncancelled_write_bytes: 0\n",
		 rchar, rd, wr);
	tu_write_str(dir, rel, text);
}

/* The process is gone: its /proc files read as nothing. */
static void vanish(const char *dir, int pid)
{
	char rel[64];
	snprintf(rel, sizeof rel, "proc/%d/stat", pid);
	tu_write_str(dir, rel, "");
	snprintf(rel, sizeof rel, "proc/%d/io", pid);
	tu_write_str(dir, rel, "");
}

static void test_machine(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	tu_write_str(d, "proc/stat", "cpu  10 0 5 100 3 0 0 0 0 0\ncpu0 10 0 5 100 3 0 0 0 0 0\n");
	tu_write_str(d, "proc/diskstats", "8 0 sda 1 0 64 0 1 0 128 0 0 0 0\n");
	tu_write_str(d, "proc/vmstat", "nr_free_pages 1\npswpin 7\npswpout 9\n");
	tu_write_str(d, "proc/meminfo", "MemTotal: 1024 kB\nMemAvailable: 512 kB\n");
	assert_int_equal(rootfs_set(d), 0);
	struct machine_reader m;
	machine_open(&m);
	struct machine_counters c;
	machine_read(&m, &c);
	assert_true(c.have_cpu);
	assert_int_equal(c.ncpu, 1);
	assert_int_equal(c.cpu.iowait, 3);
	assert_true(c.have_disk);
	assert_int_equal(c.disk.sectors_written, 128);
	assert_true(c.vm.have_pswp);
	assert_int_equal(c.vm.pswpout, 9);
	assert_true(c.have_mem);
	assert_int_equal(c.mem.mem_available, 512 * 1024);
	/* The same fds see new contents (pread from offset 0). */
	tu_write_str(d, "proc/stat", "cpu  20 0 5 100 3 0 0 0 0 0\ncpu0 20 0 5 100 3 0 0 0 0 0\n");
	machine_read(&m, &c);
	assert_int_equal(c.cpu.user, 20);
	machine_close(&m);

	/* A container without /proc/diskstats and an old kernel's meminfo. */
	char rel[4096];
	snprintf(rel, sizeof rel, "%s/proc/diskstats", d);
	unlink(rel);
	tu_write_str(d, "proc/meminfo", "MemTotal: 1024 kB\nMemFree: 100 kB\n");
	machine_open(&m);
	machine_read(&m, &c);
	assert_true(c.have_cpu);
	assert_false(c.have_disk);
	assert_false(c.have_mem);
	machine_close(&m);
	assert_int_equal(rootfs_set("/"), 0);
	tu_rmtree(d);
	free(d);
}

static void test_tree(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	write_stat(d, P_ROOT, 'S', 1, 10, 5, 0, 0);
	write_io(d, P_ROOT, 1000, 0, 0);
	write_stat(d, P_CHILD, 'R', P_ROOT, 100, 10, 0, 0);
	write_io(d, P_CHILD, 5000, 4096, 0);
	write_stat(d, P_GRAND, 'D', P_CHILD, 50, 20, 0, 0);
	write_io(d, P_GRAND, 70000, 65536, 0);
	/* Listed before its parent would be read if pids wrapped: the scan
	 * repeats until nothing joins. */
	write_stat(d, P_GREAT, 'S', P_GRAND, 1, 1, 0, 0);
	write_io(d, P_GREAT, 0, 0, 0);
	write_stat(d, P_OTHER, 'R', 1, 999, 999, 0, 0);
	write_io(d, P_OTHER, 1, 1, 1);
	tu_write_str(d, "proc/stat", "cpu 1 1 1 1\n"); /* not a pid: skipped */
	assert_int_equal(rootfs_set(d), 0);

	struct proc_tree t;
	tree_init(&t, P_ROOT);
	assert_int_equal(t.n, 1);
	assert_int_equal(tree_scan(&t, true), 3);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.nout, 1); /* P_OTHER, remembered as outside */
	assert_int_equal(t.outside[0], P_OTHER);
	struct tree_totals tot;
	/* What the members had done before they were found does not count. */
	tree_sample(&t, &tot);
	assert_true(tot.cpu == 0);
	assert_true(tot.rchar == 0);
	assert_int_equal(tot.nprocs, 4);
	assert_int_equal(tot.nrunnable, 1);
	assert_int_equal(tot.nblocked, 1);
	assert_true(tot.io_ok);
	assert_true(tot.root_alive);

	/* The grandchild runs 30 more ticks and reads 1000 bytes... */
	write_stat(d, P_GRAND, 'R', P_CHILD, 70, 30, 0, 0);
	write_io(d, P_GRAND, 71000, 65536, 0);
	tree_sample(&t, &tot);
	assert_true(tot.cpu == 30);
	assert_true(tot.rchar == 1000);
	assert_int_equal(tot.top_pid, P_GRAND);
	assert_int_equal(tot.top_delta, 30);
	/* ...then exits; its parent reaps it and the kernel adds its whole
	 * life (100 ticks, 71000 bytes) to the parent's c* fields and I/O. Its
	 * child (P_GREAT) is reparented to init. */
	vanish(d, P_GRAND);
	write_stat(d, P_CHILD, 'S', P_ROOT, 100, 10, 70, 30);
	write_io(d, P_CHILD, 5000 + 71000, 4096 + 65536, 0);
	write_stat(d, P_GREAT, 'S', 1, 1, 1, 0, 0);
	tree_sample(&t, &tot);
	assert_int_equal(t.n, 3);
	/* Continuous: nothing lost, nothing counted twice, no burst. */
	assert_true(tot.cpu == 30);
	assert_true(tot.rchar == 1000);
	/* The orphan runs 3 ticks and exits, reaped by init: its figures are
	 * retired, so the total does not drop. */
	write_stat(d, P_GREAT, 'S', 1, 4, 1, 0, 0);
	tree_sample(&t, &tot);
	assert_true(tot.cpu == 33);
	vanish(d, P_GREAT);
	tree_sample(&t, &tot);
	assert_int_equal(t.n, 2);
	assert_true(tot.cpu == 33);
	assert_true(t.retired_cpu == 3 - 70);

	/* A process started later joins at the next scan, from its base; the
	 * outside one is not read again. */
	write_stat(d, P_LATE, 'R', P_CHILD, 7, 0, 0, 0);
	write_io(d, P_LATE, 0, 0, 0);
	assert_int_equal(tree_scan(&t, false), 1);
	tree_sample(&t, &tot);
	assert_true(tot.cpu == 33);
	write_stat(d, P_LATE, 'R', P_CHILD, 17, 0, 0, 0);
	tree_sample(&t, &tot);
	assert_true(tot.cpu == 43);

	/* A process once seen outside is not read again until a full scan
	 * (no real process changes parent into the tree: this shows the cache). */
	write_stat(d, P_OTHER, 'R', P_CHILD, 999, 999, 0, 0);
	assert_int_equal(tree_scan(&t, false), 0);
	assert_int_equal(tree_scan(&t, true), 1);
	tree_sample(&t, &tot);
	assert_true(tot.cpu == 43);
	assert_int_equal(tot.nprocs, 4);

	/* A member whose io cannot be read (another user's process). */
	tu_write_str(d, "proc/5000006/io", "garbage");
	tree_sample(&t, &tot);
	assert_false(tot.io_ok);

	/* The root exits: a zombie first (still readable), then gone. */
	write_stat(d, P_ROOT, 'Z', 1, 10, 5, 0, 0);
	tree_sample(&t, &tot);
	assert_false(tot.root_alive);
	assert_int_equal(tot.root_state, 'Z');
	vanish(d, P_ROOT);
	tree_sample(&t, &tot);
	assert_false(tot.root_alive);
	tree_release(&t);

	/* A root that does not exist: an empty tree, and no crash. */
	tree_init(&t, 4999999);
	assert_int_equal(t.n, 0);
	assert_int_equal(tree_scan(&t, false), 0);
	tree_sample(&t, &tot);
	assert_false(tot.root_alive);
	tree_release(&t);
	assert_int_equal(rootfs_set("/"), 0);
	tu_rmtree(d);
	free(d);
}

/* With /proc/loadavg, a scan reads /proc only when a pid was handed out
 * since the last one. */
static void test_tree_quiet(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	write_stat(d, P_ROOT, 'S', 1, 10, 5, 0, 0);
	write_io(d, P_ROOT, 0, 0, 0);
	write_stat(d, P_CHILD, 'R', P_ROOT, 1, 0, 0, 0);
	write_io(d, P_CHILD, 0, 0, 0);
	tu_write_str(d, "proc/loadavg", "0.10 0.20 0.30 1/100 5000006\n");
	assert_int_equal(rootfs_set(d), 0);
	struct proc_tree t;
	tree_init(&t, P_ROOT);
	assert_int_equal(tree_scan(&t, false), 1);
	write_stat(d, P_GRAND, 'R', P_CHILD, 0, 0, 0, 0);
	write_io(d, P_GRAND, 0, 0, 0);
	assert_int_equal(tree_scan(&t, false), 0); /* same last pid: /proc not read */
	assert_int_equal(tree_scan(&t, true), 1);  /* a full scan reads it anyway */
	write_stat(d, P_GREAT, 'R', P_GRAND, 0, 0, 0, 0);
	write_io(d, P_GREAT, 0, 0, 0);
	tu_write_str(d, "proc/loadavg", "0.10 0.20 0.30 1/100 5000007\n");
	assert_int_equal(tree_scan(&t, false), 1);
	tu_write_str(d, "proc/loadavg", "garbage");
	write_stat(d, P_LATE, 'R', P_ROOT, 0, 0, 0, 0);
	write_io(d, P_LATE, 0, 0, 0);
	assert_int_equal(tree_scan(&t, false), 1); /* unreadable: always scans */
	struct tree_totals tot;
	tree_sample(&t, &tot);
	assert_int_equal(tot.nprocs, 5);
	tree_release(&t);
	assert_int_equal(rootfs_set("/"), 0);
	tu_rmtree(d);
	free(d);
}

static void test_datafs(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	const char *top = getenv("TOP");
	char src[4096];
	snprintf(src, sizeof src, "%s%stests/unit/data/watch/mountinfo-wsl", top ? top : "",
		 top ? "/" : "");
	FILE *f = fopen(src, "rb");
	assert_non_null(f);
	char mi[4096];
	size_t n = fread(mi, 1, sizeof mi - 1, f);
	fclose(f);
	mi[n] = '\0';
	tu_write_str(d, "proc/5000001/mountinfo", mi);
	tu_symlink(d, "proc/5000001/fd/3", "/mnt/c/Users/alice/data/000001.jpg");
	tu_symlink(d, "proc/5000001/fd/4", "/home/user/model.bin");
	tu_symlink(d, "proc/5000001/fd/5", "pipe:[4242]");
	tu_symlink(d, "proc/5000001/fd/6", "/mnt/c/Users/alice/train.log");
	tu_write_str(d, "proc/5000001/fdinfo/6", "pos:\t0\nflags:\t0102001\nmnt_id:\t75\n");
	tu_symlink(d, "proc/5000001/fd/7", "/srv/nas/shard-0001.tar (deleted)");
	tu_symlink(d, "proc/5000001/fd/8", "/dev/dxg");
	tu_symlink(d, "proc/5000001/fd/9", "/mnt/c/Users/alice/data/000002.jpg");
	tu_write_str(d, "proc/5000001/maps",
		     "7f0000000000-7f0000100000 r--p 00000000 00:28 12 /mnt/d/venv/libtorch.so\n"
		     "7f0000100000-7f0000200000 r-xp 00100000 00:28 12 /mnt/d/venv/libtorch.so\n"
		     "7f1000000000-7f2000000000 r--s 00000000 00:29 99 /mnt/d/models/llama.gguf\n"
		     "7f3000000000-7f3000001000 rw-p 00000000 00:00 0 [heap]\n"
		     "7f4000000000-7f4000001000 r--p 00000000 00:00 0\n"
		     "7f5000000000-7f5000001000 r--p 00000000 08:30 7 /usr/lib/wsl/lib/libcuda.so.1\n"
		     "garbage line\n");
	assert_int_equal(rootfs_set(d), 0);

	struct data_seen ds;
	datafs_init(&ds);
	datafs_scan(&ds, 5000001, false);
	datafs_scan(&ds, 5000001, true);
	datafs_scan(&ds, 5000001, true); /* seen files count once */
	assert_true(ds.have_mi);
	assert_int_equal(ds.n, 3); /* /mnt/c, /srv/nas, /mnt/d */
	const struct data_place *c = NULL, *nas = NULL, *dd = NULL;
	for (size_t i = 0; i < ds.n; i++) {
		if (!strcmp(ds.p[i].mount, "/mnt/c"))
			c = &ds.p[i];
		if (!strcmp(ds.p[i].mount, "/srv/nas"))
			nas = &ds.p[i];
		if (!strcmp(ds.p[i].mount, "/mnt/d"))
			dd = &ds.p[i];
	}
	assert_non_null(c);
	assert_int_equal(c->files, 2); /* the two images; the write-only log is not data */
	assert_string_equal(c->kind, "windows-drive");
	assert_string_equal(c->what, "9p, aname=drvfs");
	assert_string_equal(c->example, "/mnt/c/Users/alice/data/000001.jpg");
	assert_non_null(nas);
	assert_string_equal(nas->kind, "network");
	assert_string_equal(nas->example, "/srv/nas/shard-0001.tar");
	assert_non_null(dd);
	assert_int_equal(dd->files, 1); /* the mapped model, not the library */
	assert_string_equal(dd->example, "/mnt/d/models/llama.gguf");
	assert_int_equal(ds.local_files, 1); /* /home/user/model.bin */
	const struct data_place *w = datafs_worst(&ds);
	assert_non_null(w);
	assert_string_equal(w->mount, "/mnt/c");
	datafs_release(&ds);

	/* No mountinfo (a sandbox): nothing, no crash. */
	datafs_init(&ds);
	datafs_scan(&ds, 5000099, true);
	assert_null(datafs_worst(&ds));
	datafs_release(&ds);

	/* The classification alone. */
	struct mountinfo m;
	mountinfo_parse(mi, n, &m);
	struct strbuf what = STRBUF_INIT;
	const char *kinds[] = { NULL, NULL, NULL, NULL, "windows-drive", "windows-drive", "network" };
	assert_int_equal(m.n, 7);
	for (size_t i = 0; i < m.n; i++) {
		const char *k = datafs_classify(&m.m[i], NULL, &what);
		if (kinds[i])
			assert_string_equal(k, kinds[i]);
		else
			assert_null(k);
	}
	assert_null(datafs_classify(NULL, NULL, &what));
	/* virtiofs is a Windows drive under the automount root only. */
	const char *vfs = "90 62 0:60 / /win/c rw - virtiofs drvfsC rw\n";
	struct mountinfo mv;
	mountinfo_parse(vfs, strlen(vfs), &mv);
	assert_int_equal(mv.n, 1);
	assert_null(datafs_classify(&mv.m[0], NULL, &what));
	assert_string_equal(datafs_classify(&mv.m[0], "/win/", &what), "windows-drive");
	mountinfo_free(&mv);
	sb_release(&what);
	mountinfo_free(&m);
	assert_int_equal(rootfs_set("/"), 0);
	tu_rmtree(d);
	free(d);
}

static void test_gpumon_missing_library(void **state)
{
	(void)state;
	struct gpu_monitor g;
	gpumon_start(&g, 100, "/nonexistent/libnvidia-ml.so.1");
	gpumon_wait(&g, 5000);
	assert_int_equal(g.state, GPUMON_UNAVAILABLE);
	assert_non_null(strstr(g.note.buf, "could not be loaded"));
	assert_false(g.last.valid);
	gpumon_check(&g);
	gpumon_release(&g);
	/* Reaped: no child is left behind. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

/* The fake NVML of tests/fakes, when make check built it into $BUILD. */
static bool fake_nvml(char *path, size_t size)
{
	const char *build = getenv("BUILD");
	if (!build)
		return false;
	const char *top = getenv("TOP");
	if (build[0] == '/' || !top)
		snprintf(path, size, "%s/fakes/libnvidia-ml.so.1", build);
	else
		snprintf(path, size, "%s/%s/fakes/libnvidia-ml.so.1", top, build);
	return access(path, R_OK) == 0;
}

static void test_gpumon_fake(void **state)
{
	(void)state;
	char lib[4096];
	if (!fake_nvml(lib, sizeof lib)) {
		fprintf(stderr, "skipping: the fake libnvidia-ml.so.1 is not built\n");
		skip();
	}
	/* Utilisation supported and busy. */
	setenv("FAKE_NVML_UNSUPPORTED", "processes", 1);
	setenv("FAKE_NVML_UTIL", "87", 1);
	struct gpu_monitor g;
	gpumon_start(&g, 50, lib);
	gpumon_wait(&g, 5000);
	assert_int_equal(g.state, GPUMON_RUNNING);
	assert_true(g.last.valid);
	assert_true(g.last.util_ok);
	assert_float_equal(g.last.util, 87, 1e-9);
	assert_true(g.last.mem_ok);
	assert_float_equal(g.last.mem_used_mib, 1024, 1e-9);
	assert_float_equal(g.last.mem_total_mib, 10240, 1e-9);
	assert_string_equal(g.name, "NVIDIA GeForce RTX 3080");
	gpumon_release(&g);

	/* WSL's default: utilisation not supported, memory still there. */
	unsetenv("FAKE_NVML_UNSUPPORTED");
	gpumon_start(&g, 50, lib);
	gpumon_wait(&g, 5000);
	assert_true(g.last.valid);
	assert_false(g.last.util_ok);
	assert_true(g.util_unsupported);
	assert_int_equal(g.util_rc, 3);
	assert_true(g.last.mem_ok);
	gpumon_release(&g);

	/* The library crashes at every reading: restarted, then given up on;
	 * the parent (this test) lives on. */
	setenv("FAKE_NVML_CRASH", "nvmlDeviceGetMemoryInfo", 1);
	gpumon_start(&g, 50, lib);
	for (int i = 0; i < 200 && g.state != GPUMON_GAVE_UP; i++) {
		gpumon_wait(&g, 50);
		gpumon_check(&g);
	}
	assert_int_equal(g.state, GPUMON_GAVE_UP);
	assert_int_equal(g.crashes, GPUMON_MAX_CRASHES);
	assert_non_null(strstr(g.note.buf, "SIGSEGV"));
	gpumon_release(&g);
	unsetenv("FAKE_NVML_CRASH");
	unsetenv("FAKE_NVML_UTIL");
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machine),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_tree_quiet),
		cmocka_unit_test(test_datafs),
		cmocka_unit_test(test_gpumon_missing_library),
		cmocka_unit_test(test_gpumon_fake),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
