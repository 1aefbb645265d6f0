/*
 * test_mountinfo.c: what mountinfo_read keeps of a mount table too large
 * for its memory bound (MOUNTINFO_MAX_MEMORY): the deepest mount points go
 * first, never the root, a Windows drive, WSL's 9p and /usr/lib/wsl mounts
 * or a mount inside a Windows drive; the last mount listed on a point is
 * the one kept, whatever the budget; a table of 400,000 distinct mount
 * points is read within the bound, its 9p drive (listed last) found.
 * Fields with escapes and optional fields come out as before the entries
 * were packed into one allocation each.
 */
#include "testutil.h"

#include <stdbool.h>
#include <sys/resource.h>

#include "core/rootfs.h"
#include "parse/mountinfo.h"

/* A table: the machine's own mounts around n container layers. */
static char *table(size_t n, bool stacked_over_drive)
{
	struct strbuf t = STRBUF_INIT;
	sb_add(&t, "62 1 8:48 / / rw,relatime - ext4 /dev/sdd rw\n"
		   "64 62 0:28 / /usr/lib/wsl/drivers ro - 9p drivers ro,aname=drivers;fmask=222\n"
		   "68 62 0:32 / /usr/lib/wsl/lib rw - overlay none rw,lowerdir=/gpu_lib_packaged\n"
		   "70 62 8:48 / /home rw - ext4 /dev/sdd rw\n");
	for (size_t i = 0; i < n; i++)
		sb_addf(&t, "%zu 62 0:%zu / /var/lib/docker/overlay2/%032zu/merged rw - overlay overlay "
			    "rw,lowerdir=/l/%zu\n", 1000 + i, i % 900, i, i);
	sb_add(&t, "80 62 8:64 / /home/user/data/set rw - xfs /dev/sde rw\n"
		   "90 62 0:40 / /mnt/c rw,noatime - 9p C:\\134 rw,aname=drvfs;path=C:\\;uid=1000\n"
		   "91 90 8:48 /proj /mnt/c/proj rw - ext4 /dev/sdd rw\n");
	if (stacked_over_drive)
		sb_add(&t, "92 90 0:50 / /mnt/c rw - overlay none rw\n");
	for (size_t i = 0; i < n; i++)
		sb_addf(&t, "%zu 62 0:%zu / /run/containerd/io/%zu/rootfs/x rw - tmpfs tmpfs rw\n",
			500000 + i, i % 900, i);
	return sb_detach(&t);
}

static const char *fstype_at(const struct mountinfo *mi, const char *path)
{
	const struct mount_entry *m = mountinfo_find(mi, path);
	return m ? m->fstype : "(none)";
}

static void test_bounded(void **state)
{
	(void)state;
	char *t = table(3000, false);
	struct mountinfo all, some;
	/* Room for everything: every mount point once, none dropped. */
	size_t n = mountinfo_parse_bounded(t, strlen(t), 64u << 20, &all);
	assert_int_equal(n, 4 + 3 + 2 * 3000);
	assert_int_equal(all.dropped, 0);
	assert_int_equal(all.bad_lines, 0);
	/* Room for about a third: the deep layers go, what matters stays. */
	size_t budget = 400u << 10;
	mountinfo_parse_bounded(t, strlen(t), budget, &some);
	assert_true(some.bytes <= budget);
	assert_true(some.dropped >= 3000);
	assert_int_equal(some.n + some.dropped, all.n);
	assert_string_equal(fstype_at(&some, "/mnt/c/Users/alice/data"), "9p");
	assert_string_equal(fstype_at(&some, "/mnt/c/proj/src"), "ext4");
	assert_string_equal(fstype_at(&some, "/usr/lib/wsl/lib/libcuda.so.1"), "overlay");
	assert_string_equal(fstype_at(&some, "/usr/lib/wsl/drivers/nv.inf"), "9p");
	assert_string_equal(fstype_at(&some, "/home/user/data/set/x"), "xfs");
	assert_string_equal(fstype_at(&some, "/etc"), "ext4");
	const struct mount_entry *c = mountinfo_find(&some, "/mnt/c");
	assert_string_equal(c->source, "C:\\");
	assert_string_equal(c->super_options, "rw,aname=drvfs;path=C:\\;uid=1000");
	assert_int_equal(c->line, 4 + 3000 + 2);
	assert_true(mountinfo_windows_drive(c, NULL));
	/* The same answers as with room for all, for what was kept. */
	for (size_t i = 0; i < some.n; i++) {
		const struct mount_entry *a = mountinfo_find(&all, some.m[i].mount_point);
		assert_string_equal(a->mount_point, some.m[i].mount_point);
		assert_string_equal(a->fstype, some.m[i].fstype);
		assert_string_equal(a->super_options, some.m[i].super_options);
	}
	mountinfo_free(&all);
	mountinfo_free(&some);
	free(t);

	/* A mount stacked over the drive later, the budget past: the one on
	 * top is what is kept. */
	t = table(3000, true);
	mountinfo_parse_bounded(t, strlen(t), budget, &some);
	assert_string_equal(fstype_at(&some, "/mnt/c/Users"), "overlay");
	mountinfo_free(&some);
	free(t);

	/* No room at all: nothing kept, nothing broken. */
	t = table(10, false);
	mountinfo_parse_bounded(t, strlen(t), 100, &some);
	assert_int_equal(some.n, 0);
	assert_int_equal(some.dropped, 4 + 3 + 20);
	assert_null(mountinfo_find(&some, "/"));
	mountinfo_free(&some);
	free(t);
}

/* The fields as mountinfo_parse gives them (escapes, optional fields). */
static void test_fields(void **state)
{
	(void)state;
	static const char line[] =
		"36 35 98:0 /mnt\\0401 /mnt/my\\040disk rw,noatime master:1  shared:2\tx - ext3 "
		"/dev/r\\134oot rw,errors=continue\n"
		"37 35 98:0 / /b rw master:1 shared:2 - ext3 /dev/b\n";
	struct mountinfo a, b;
	mountinfo_parse(line, sizeof line - 1, &a);
	mountinfo_parse_bounded(line, sizeof line - 1, 1u << 20, &b);
	assert_int_equal(a.n, 2);
	assert_int_equal(b.n, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(a.m[i].root, b.m[i].root);
		assert_string_equal(a.m[i].mount_point, b.m[i].mount_point);
		assert_string_equal(a.m[i].optional, b.m[i].optional);
		assert_string_equal(a.m[i].super_options, b.m[i].super_options);
	}
	assert_string_equal(a.m[0].root, "/mnt 1");
	assert_string_equal(a.m[0].mount_point, "/mnt/my disk");
	assert_string_equal(a.m[0].optional, "master:1 shared:2 x");
	assert_string_equal(a.m[0].source, "/dev/r\\oot");
	assert_string_equal(a.m[1].optional, "master:1 shared:2");
	assert_string_equal(a.m[1].super_options, "");
	mountinfo_free(&a);
	mountinfo_free(&b);
	struct strbuf sb = STRBUF_INIT;
	mountinfo_unescape("a\\040b\\1c\\134", 13, &sb);
	assert_string_equal(sb.buf, "a b\\1c\\");
	sb_release(&sb);
}

/* Peak RSS (KiB) of mountinfo_read on ROOT's table in a fresh process (this
 * binary again, --read ROOT), and what it kept. */
static void read_fresh(const char *root, long *kib, size_t *n, size_t *dropped, char *fstype)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "/proc/%d/exe --read '%s' 2>/dev/null", (int)getpid(), root);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[256] = "";
	assert_non_null(fgets(line, sizeof line, p));
	pclose(p);
	assert_int_equal(sscanf(line, "%ld %zu %zu %31s", kib, n, dropped, fstype), 4);
}

/* 400,000 distinct mount points (20 MB): read within the bound, the 9p
 * drive listed last found. Under AddressSanitizer the peak memory is its
 * own (quarantine, redzones), so only the kept bytes are checked there. */
static void test_many(void **state)
{
	(void)state;
	char *dir = tu_mkdtemp();
	assert_non_null(dir);
	char path[4096];
	snprintf(path, sizeof path, "%s/proc/self/mountinfo", dir);
	tu_mkparents(path);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("1 0 8:1 / / rw - ext4 /dev/sda rw\n", f);
	for (int i = 0; i < 400000; i++)
		fprintf(f, "%d 1 0:%d / /m/%d rw - ext4 /dev/sda rw\n", 100 + i, i % 900, i);
	fputs("99 1 0:40 / /mnt/c rw - 9p C:\\134 rw,aname=drvfs;path=C:\\\n", f);
	fclose(f);
	long kib, small_kib;
	size_t n, dropped;
	char fstype[32];
	read_fresh(dir, &kib, &n, &dropped, fstype);
	assert_string_equal(fstype, "9p");
	assert_true(dropped > 0);
	assert_true(n + dropped == 400002);
	/* The same program on a table of three mounts. */
	char *small = tu_mkdtemp();
	tu_write_str(small, "proc/self/mountinfo",
		     "1 0 8:1 / / rw - ext4 /dev/sda rw\n"
		     "99 1 0:40 / /mnt/c rw - 9p C:\\134 rw,aname=drvfs;path=C:\\\n");
	read_fresh(small, &small_kib, &n, &dropped, fstype);
	assert_string_equal(fstype, "9p");
#if defined(__SANITIZE_ADDRESS__)
	(void)kib;
	(void)small_kib;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	(void)kib;
	(void)small_kib;
#else
	if (kib - small_kib > (long)(MOUNTINFO_MAX_MEMORY >> 10) + 8192)
		fail_msg("400,000 mount points: peak RSS %ld KiB, three: %ld KiB", kib, small_kib);
#endif
#else
	if (kib - small_kib > (long)(MOUNTINFO_MAX_MEMORY >> 10) + 8192)
		fail_msg("400,000 mount points: peak RSS %ld KiB, three: %ld KiB", kib, small_kib);
#endif
	tu_rmtree(small);
	free(small);
	tu_rmtree(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--read")) {
		/* For test_many: one read, then the peak RSS and what was kept. */
		rootfs_set(argv[2]);
		struct mountinfo mi;
		mountinfo_read("/proc/self/mountinfo", &mi);
		if (mi.bytes > MOUNTINFO_MAX_MEMORY)
			return 1;
		const struct mount_entry *m = mountinfo_find(&mi, "/mnt/c/Users");
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		printf("%ld %zu %zu %s\n", ru.ru_maxrss, mi.n, mi.dropped, m ? m->fstype : "none");
		mountinfo_free(&mi);
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
