/*
 * test_bph.c: the bridge, host and perf layers — their parsers (meminfo and
 * vmstat, mountinfo, .wslconfig, the .inf DriverVer rule) with hostile input
 * (empty, truncated, binary, 10 MB lines, escapes at the end of the buffer),
 * and each probe's decisions, run in-process on small scratch roots.
 */
#include "testutil.h"

#include <sys/wait.h>

#include "core/check.h"
#include "core/result.h"
#include "core/rootfs.h"
#include "facts/wslhost.h"
#include "kb/kb.h"
#include "parse/infver.h"
#include "parse/meminfo.h"
#include "parse/mountinfo.h"
#include "parse/wslconfig.h"
#include "probes/probes.h"
#include "kb_ids.h"

/* A buffer of n bytes of c, NUL-terminated (for 10 MB lines). */
static char *filled(size_t n, char c)
{
	char *p = malloc(n + 1);
	assert_non_null(p);
	memset(p, c, n);
	p[n] = '\0';
	return p;
}

/* ---- meminfo / vmstat / generic key value ---- */

static void test_procfile(void **state)
{
	(void)state;
	const char *mi = "MemTotal:       16303444 kB\nMemFree:        14208996 kB\n"
			 "MemAvailable:   15301212 kB\nSwapCached:            0 kB\n"
			 "SwapTotal:       4194304 kB\nSwapFree:        3145728 kB\n"
			 "HugePages_Total:       0\n";
	unsigned long long v;
	assert_int_equal(procfile_u64(mi, strlen(mi), "MemTotal", &v), 0);
	assert_true(v == 16303444ULL * 1024);
	/* No unit: the number as it is. */
	assert_int_equal(procfile_u64(mi, strlen(mi), "HugePages_Total", &v), 0);
	assert_true(v == 0);
	/* A key is matched whole: "Mem" is not "MemTotal". */
	assert_int_equal(procfile_u64(mi, strlen(mi), "Mem", &v), -ENOENT);
	assert_int_equal(procfile_u64(mi, strlen(mi), "Nope", &v), -ENOENT);

	struct meminfo m;
	assert_int_equal(meminfo_parse(mi, strlen(mi), &m), 0);
	assert_true(m.have & MI_SWAP_FREE);
	assert_true(meminfo_swap_used(&m) == 1048576ULL * 1024);

	/* /proc/vmstat and /proc/stat shapes. */
	const char *vm = "nr_free_pages 123\npswpin 42\npswpout 7\n";
	struct vmstat vs;
	assert_int_equal(vmstat_parse(vm, strlen(vm), &vs), 0);
	assert_true(vs.pswpin == 42 && vs.pswpout == 7);
	const char *st = "cpu  10 20 30\nctxt 987654321\nbtime 1700000000\n";
	assert_int_equal(procfile_u64(st, strlen(st), "ctxt", &v), 0);
	assert_true(v == 987654321ULL);
	assert_int_equal(procfile_u64(st, strlen(st), "cpu", &v), 0);
	assert_true(v == 10);

	/* Hostile input. */
	assert_int_equal(meminfo_parse("", 0, &m), -EINVAL);
	assert_int_equal(meminfo_parse(NULL, 0, &m), -EINVAL);
	assert_int_equal(vmstat_parse("pswpin 1", 8, &vs), -ENOENT);
	const char trunc[] = "MemTotal:    163";
	assert_int_equal(procfile_u64(trunc, sizeof trunc - 1, "MemTotal", &v), 0);
	assert_true(v == 163);
	const char cut[] = "MemTotal:";
	assert_int_equal(procfile_u64(cut, sizeof cut - 1, "MemTotal", &v), -EINVAL);
	/* The buffer ends in the middle of the key. */
	assert_int_equal(procfile_u64("MemTot", 6, "MemTotal", &v), -ENOENT);
	assert_int_equal(procfile_u64("MemTotal: abc kB\n", 17, "MemTotal", &v), -EINVAL);
	assert_int_equal(procfile_u64("MemTotal: 99999999999999999999999 kB\n", 37, "MemTotal", &v),
			 -ERANGE);
	assert_int_equal(procfile_u64("MemTotal: 18446744073709551615 kB\n", 34, "MemTotal", &v),
			 -ERANGE);
	const char bin[] = "\x00\xff\xfeMemTotal: 5 kB\n\x00MemFree 2\nMemFree 1";
	assert_int_equal(procfile_u64(bin, sizeof bin - 1, "MemFree", &v), 0);
	assert_true(v == 1);
	/* A 10 MB line before the key, and a 10 MB number. */
	size_t big = 10u << 20;
	char *line = filled(big + 64, 'x');
	line[big] = '\n';
	strcpy(line + big + 1, "SwapTotal: 8 kB\n");
	assert_int_equal(procfile_u64(line, strlen(line), "SwapTotal", &v), 0);
	assert_true(v == 8192);
	free(line);
	char *digits = filled(big, '9');
	memcpy(digits, "MemTotal: ", 10);
	assert_int_equal(procfile_u64(digits, big, "MemTotal", &v), -ERANGE);
	free(digits);
}

/* ---- mountinfo ---- */

static const char *healthy_mountinfo =
	"62 67 8:48 / / rw,relatime - ext4 /dev/sdd rw,discard,errors=remount-ro,data=ordered\n"
	"63 67 0:27 / /mnt/wsl rw,relatime shared:1 - tmpfs none rw\n"
	"64 62 0:28 / /usr/lib/wsl/drivers ro,nosuid,nodev,noatime - 9p drivers "
	"ro,aname=drivers;fmask=222;dmask=222,cache=5,access=client,msize=65536,trans=fd,rfd=8,wfd=8\n"
	"75 62 0:40 / /mnt/c rw,noatime - 9p C:\\134 rw,dirsync,aname=drvfs;path=C:\\;uid=1000;"
	"gid=1000;symlinkroot=/mnt/,mmap,access=client,msize=65536,trans=fd,rfd=5,wfd=5\n"
	"80 62 0:50 / /mnt/my\\040disk rw master:3 shared:7 propagate_from:2 - ext4 /dev/sde rw\n"
	"81 62 0:51 / /mnt/cdrom rw - iso9660 /dev/sr0 ro\n";

static void test_mountinfo(void **state)
{
	(void)state;
	struct mountinfo mi;
	assert_int_equal(mountinfo_parse(healthy_mountinfo, strlen(healthy_mountinfo), &mi), 6);
	assert_int_equal(mi.bad_lines, 0);
	assert_string_equal(mi.m[3].source, "C:\\");
	assert_string_equal(mi.m[3].fstype, "9p");
	assert_string_equal(mi.m[4].mount_point, "/mnt/my disk");
	assert_string_equal(mi.m[4].optional, "master:3 shared:7 propagate_from:2");
	assert_string_equal(mi.m[0].optional, "");
	assert_int_equal(mi.m[0].major, 8);
	assert_int_equal(mi.m[0].minor, 48);

	/* Longest prefix, on a component boundary. */
	assert_string_equal(mountinfo_find(&mi, "/mnt/c/Users/alice")->mount_point, "/mnt/c");
	assert_string_equal(mountinfo_find(&mi, "/mnt/c")->mount_point, "/mnt/c");
	assert_string_equal(mountinfo_find(&mi, "/mnt/cd")->mount_point, "/");
	assert_string_equal(mountinfo_find(&mi, "/mnt/cdrom/x")->mount_point, "/mnt/cdrom");
	assert_string_equal(mountinfo_find(&mi, "/home/user")->mount_point, "/");
	assert_string_equal(mountinfo_find(&mi, "/mnt/my disk/data")->fstype, "ext4");
	assert_null(mountinfo_find(&mi, "relative"));

	/* Windows drives: 9p drvfs yes, the driver store's 9p no. */
	assert_true(mountinfo_windows_drive(&mi.m[3], "/mnt/"));
	assert_false(mountinfo_windows_drive(&mi.m[2], "/mnt/"));
	assert_false(mountinfo_windows_drive(&mi.m[0], NULL));
	struct strbuf v = STRBUF_INIT;
	assert_true(mountinfo_option(mi.m[2].super_options, "aname", &v));
	assert_string_equal(v.buf, "drivers;fmask=222;dmask=222");
	assert_true(mountinfo_option(mi.m[2].super_options, "ro", &v));
	assert_string_equal(v.buf, "");
	assert_true(mountinfo_option(mi.m[2].super_options, "rfd", &v));
	assert_string_equal(v.buf, "8");
	assert_false(mountinfo_option(mi.m[2].super_options, "ana", &v));
	mountinfo_free(&mi);

	/* A later mount on the same point is on top. */
	const char *stack = "1 0 0:1 / / rw - ext4 /dev/a rw\n"
			    "2 1 0:2 / /data rw - ext4 /dev/b rw\n"
			    "3 1 0:3 / /data rw - 9p drvfs rw,aname=drvfs;path=D:\\\n";
	mountinfo_parse(stack, strlen(stack), &mi);
	assert_int_equal(mountinfo_find(&mi, "/data/x")->id, 3);
	mountinfo_free(&mi);

	/* WSL1 drvfs, virtiofs under the automount root or elsewhere. */
	const char *kinds = "1 0 0:1 / / rw - wslfs rootfs rw\n"
			    "2 1 0:2 / /mnt/c rw - drvfs C:\\134 rw\n"
			    "3 1 0:3 / /win/d rw - virtiofs drvfsD rw\n"
			    "4 1 0:4 / /srv rw - virtiofs share rw\n";
	mountinfo_parse(kinds, strlen(kinds), &mi);
	assert_int_equal(mi.n, 4);
	assert_true(mountinfo_windows_drive(&mi.m[1], NULL));
	assert_true(mountinfo_windows_drive(&mi.m[2], "/win/"));
	assert_false(mountinfo_windows_drive(&mi.m[2], NULL));
	assert_false(mountinfo_windows_drive(&mi.m[3], "/mnt/"));
	mountinfo_free(&mi);

	/* Hostile input: nothing crashes, bad lines are counted. */
	assert_int_equal(mountinfo_parse("", 0, &mi), 0);
	mountinfo_free(&mi);
	assert_int_equal(mountinfo_parse(NULL, 0, &mi), 0);
	mountinfo_free(&mi);
	const char *bad = "garbage\n1 2 3\n1 0 8:1 / / rw ext4 /dev/sda rw\n"
			  "x 0 8:1 / / rw - ext4 /dev/sda rw\n1 0 81 / / rw - ext4 a b\n"
			  "1 0 8:1 / relative rw - ext4 /dev/sda rw\n\n\n";
	assert_int_equal(mountinfo_parse(bad, strlen(bad), &mi), 0);
	assert_int_equal(mi.bad_lines, 6);
	mountinfo_free(&mi);
	/* Truncated in the middle of a line (no super options, no newline). */
	const char *cut = "62 67 8:48 / / rw,relatime - ext4 /dev/sdd";
	assert_int_equal(mountinfo_parse(cut, strlen(cut), &mi), 1);
	assert_string_equal(mi.m[0].super_options, "");
	mountinfo_free(&mi);
	/* Escapes cut at the end of the buffer stay literal. */
	const char esc[] = "1 0 8:1 / /a\\04 rw - ext4 src\\1 rw\\";
	assert_int_equal(mountinfo_parse(esc, sizeof esc - 1, &mi), 1);
	assert_string_equal(mi.m[0].mount_point, "/a\\04");
	assert_string_equal(mi.m[0].source, "src\\1");
	assert_string_equal(mi.m[0].super_options, "rw\\");
	mountinfo_free(&mi);
	struct strbuf u = STRBUF_INIT;
	mountinfo_unescape("a\\040b\\134\\011\\012\\777\\8", 24, &u);
	assert_string_equal(u.buf, "a b\\\t\n\xff\\8");
	mountinfo_unescape("\\0", 2, &u);
	assert_string_equal(u.buf, "\\0");
	sb_release(&u);
	/* Binary and a 10 MB line. */
	char binbuf[4096];
	for (size_t i = 0; i < sizeof binbuf; i++)
		binbuf[i] = (char)(i * 131 + 7);
	mountinfo_parse(binbuf, sizeof binbuf, &mi);
	mountinfo_free(&mi);
	size_t big = 10u << 20;
	char *huge = filled(big, 'a');
	memcpy(huge, "1 0 8:1 / /", 11);
	memcpy(huge + big - 20, " rw - ext4 /dev/x rw", 20);
	assert_int_equal(mountinfo_parse(huge, big, &mi), 1);
	assert_int_equal(strlen(mi.m[0].mount_point), big - 20 - 10);
	mountinfo_free(&mi);
	memset(huge, ' ', big);
	assert_int_equal(mountinfo_parse(huge, big, &mi), 0);
	mountinfo_free(&mi);
	free(huge);
	sb_release(&v);
}

/* ---- .wslconfig ---- */

static const struct wslconfig_issue *issue(const struct wslconfig *wc, enum wslconfig_problem k)
{
	for (size_t i = 0; i < wc->nissues; i++)
		if (wc->issues[i].kind == k)
			return &wc->issues[i];
	return NULL;
}

static void test_wslconfig(void **state)
{
	(void)state;
	struct wslconfig wc;
	const char *ok = "[wsl2]\nmemory=16GB\nswap=4GB\nprocessors=8\n# comment\n";
	wslconfig_check(ok, strlen(ok), &wc);
	assert_int_equal(wc.nissues, 0);
	assert_true(wc.memory.set && wc.memory.val == 16ULL << 30);
	assert_int_equal(wc.memory.line, 2);
	assert_true(wc.swap.set && wc.swap.val == 4ULL << 30);
	assert_true(wc.processors.set && wc.processors.val == 8);
	wslconfig_free(&wc);

	/* WSL's size rule: capitals, whole numbers, one of its units. */
	unsigned long long b;
	assert_int_equal(wslconfig_size("8GB", &b), 0);
	assert_true(b == 8ULL << 30);
	assert_int_equal(wslconfig_size("512M", &b), 0);
	assert_true(b == 512ULL << 20);
	assert_int_equal(wslconfig_size("0", &b), 0);
	assert_true(b == 0);
	assert_int_equal(wslconfig_size("1024", &b), 0);
	assert_true(b == 1024);
	const char *bad_sizes[] = { "8gb", "8 GB", "1.5GB", "", "GB", "-1GB", " 8GB", "8GiB",
				    "00", "99999999999TB", "8GBB" };
	for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++)
		assert_int_equal(wslconfig_size(bad_sizes[i], &b), -1);
	assert_int_equal(wslconfig_bool("True"), 1);
	assert_int_equal(wslconfig_bool("0"), 0);
	assert_int_equal(wslconfig_bool("yes"), -1);

	/* Mistakes WSL warns about and skips, each with its line. */
	const char *bad = "memory=4GB\n"                  /* 1: before any section */
			  "[wsl2]\n"                      /* 2 */
			  "memroy=8GB\n"                  /* 3: typo */
			  "memory=8gb\n"                  /* 4: bad size */
			  "memory=6GB\n"                  /* 5: duplicate (WSL keeps line 4) */
			  "processors=many\n"             /* 6 */
			  "gpuSupport=yes\n"              /* 7 */
			  "autoMemoryReclaim=gradual\n"   /* 8: belongs in [experimental] */
			  "this is not ini\n"             /* 9 */
			  "[wsl]\n"                       /* 10: wrong section */
			  "swap=0\n"                      /* 11 */
			  "[experimental]\n"
			  "sparseVhd=true # trailing comment\n";
	wslconfig_check(bad, strlen(bad), &wc);
	assert_non_null(issue(&wc, WC_NO_SECTION));
	assert_int_equal(issue(&wc, WC_NO_SECTION)->line, 1);
	const struct wslconfig_issue *typo = issue(&wc, WC_UNKNOWN_KEY);
	assert_non_null(typo);
	assert_int_equal(typo->line, 3);
	assert_non_null(strstr(typo->msg, "did you mean memory?"));
	assert_int_equal(issue(&wc, WC_BAD_SIZE)->line, 4);
	assert_int_equal(issue(&wc, WC_DUPLICATE)->line, 5);
	assert_int_equal(issue(&wc, WC_BAD_NUMBER)->line, 6);
	assert_int_equal(issue(&wc, WC_BAD_BOOL)->line, 7);
	assert_int_equal(issue(&wc, WC_SYNTAX)->line, 9);
	const struct wslconfig_issue *sec = issue(&wc, WC_UNKNOWN_SECTION);
	assert_int_equal(sec->line, 11);
	assert_non_null(strstr(sec->msg, "[wsl2]"));
	bool other = false;
	for (size_t i = 0; i < wc.nissues; i++) {
		if (wc.issues[i].line == 8 && strstr(wc.issues[i].msg, "belongs in [experimental]"))
			other = true;
		if (i)
			assert_true(wc.issues[i - 1].line <= wc.issues[i].line);
	}
	assert_true(other);
	/* WSL keeps the first memory= (invalid here), so memory is not set. */
	assert_false(wc.memory.set);
	assert_string_equal(wc.memory.text, "8gb");
	assert_false(wc.swap.set);
	wslconfig_free(&wc);

	/* Keys of current WSL (WslCoreConfig.h's table, 2.7 to 2.9) are known,
	 * and networkingMode takes consomme: no issue at all. safeMode is
	 * remembered (it turns GPU support off). */
	const char *current = "[wsl2]\n"
			      "virtio=true\n"
			      "virtiofs=true\n"
			      "hostFileSystemAccess=false\n"
			      "loadKernelModules=vfio_pci\n"
			      "loadDefaultKernelModules=true\n"
			      "isolateDistroCgroup=true\n"
			      "networkingMode=consomme\n"
			      "safeMode=true\n"
			      "[experimental]\n"
			      "virtioFsAggregateShares=true\n"
			      "swiotlb=64MB\n";
	wslconfig_check(current, strlen(current), &wc);
	for (size_t i = 0; i < wc.nissues; i++)
		fail_msg("line %d: %s", wc.issues[i].line, wc.issues[i].msg);
	assert_true(wc.safe_mode.set && wc.safe_mode.val == 1);
	assert_int_equal(wc.safe_mode.line, 9);
	wslconfig_free(&wc);

	/* UTF-16LE with BOM and CRLF (field case M03): decoded and flagged. */
	const char *text = "[wsl2]\r\nmemory=6GB\r\n";
	size_t n = strlen(text);
	char *u16 = malloc(2 + 2 * n);
	u16[0] = (char)0xff;
	u16[1] = (char)0xfe;
	for (size_t i = 0; i < n; i++) {
		u16[2 + 2 * i] = text[i];
		u16[3 + 2 * i] = 0;
	}
	wslconfig_check(u16, 2 + 2 * n, &wc);
	assert_true(wc.utf16 && wc.utf16_bom && !wc.utf16_be && wc.crlf);
	assert_non_null(issue(&wc, WC_UTF16));
	assert_true(wc.memory.set && wc.memory.val == 6ULL << 30);
	wslconfig_free(&wc);
	/* Without the BOM, and big-endian. */
	wslconfig_check(u16 + 2, 2 * n, &wc);
	assert_true(wc.utf16 && !wc.utf16_bom);
	assert_true(wc.memory.set);
	wslconfig_free(&wc);
	for (size_t i = 0; i < n; i++) {
		u16[2 + 2 * i] = 0;
		u16[3 + 2 * i] = text[i];
	}
	u16[0] = (char)0xfe;
	u16[1] = (char)0xff;
	wslconfig_check(u16, 2 + 2 * n, &wc);
	assert_true(wc.utf16 && wc.utf16_be);
	assert_true(wc.memory.set && wc.memory.val == 6ULL << 30);
	wslconfig_free(&wc);
	/* Truncated UTF-16: an odd byte at the end. */
	wslconfig_check(u16, 2 + 2 * n - 1, &wc);
	wslconfig_free(&wc);
	free(u16);

	/* UTF-8 BOM is fine for WSL; binary is not text. */
	const char bom[] = "\xef\xbb\xbf[wsl2]\nmemory=2GB\n";
	wslconfig_check(bom, sizeof bom - 1, &wc);
	assert_true(wc.utf8_bom);
	assert_true(wc.memory.set && wc.memory.line == 2);
	assert_int_equal(wc.nissues, 0);
	wslconfig_free(&wc);
	const char bin[] = "[wsl2]\nmem\0ory=\xff\xfe\x01\nmemory=1GB\n";
	wslconfig_check(bin, sizeof bin - 1, &wc);
	assert_true(wc.binary);
	assert_non_null(issue(&wc, WC_BINARY));
	wslconfig_free(&wc);
	wslconfig_check("", 0, &wc);
	assert_int_equal(wc.nissues, 0);
	assert_false(wc.memory.set);
	wslconfig_free(&wc);
	wslconfig_check(NULL, 0, &wc);
	wslconfig_free(&wc);
	/* Quotes and escapes as WSL reads them. */
	const char *q = "[wsl2]\nmemory=\"4GB\"\nkernel=C:\\\\k\\\\bzImage\n";
	wslconfig_check(q, strlen(q), &wc);
	assert_true(wc.memory.set && wc.memory.val == 4ULL << 30);
	assert_string_equal(wc.kernel.text, "C:\\k\\bzImage");
	wslconfig_free(&wc);

	/* A 10 MB line and a file of many settings stay bounded. */
	size_t big = 10u << 20;
	char *huge = filled(big, 'm');
	memcpy(huge, "[wsl2]\nmemory=", 14);
	wslconfig_check(huge, big, &wc);
	assert_false(wc.memory.set);
	wslconfig_free(&wc);
	struct strbuf many = STRBUF_INIT;
	sb_add(&many, "[wsl2]\n");
	while (many.len < (1u << 20))
		sb_add(&many, "swap=1GB\nbogus line\n");
	wslconfig_check(many.buf, many.len, &wc);
	assert_true(wc.nissues <= WSLCONFIG_MAX_ISSUES);
	assert_true(wc.more_issues > 0);
	assert_true(wc.swap.set);
	assert_non_null(strstr(wc.issues[0].msg, "only the first 64 KiB were checked"));
	wslconfig_free(&wc);
	sb_release(&many);
	free(huge);
}

/* ---- the .inf DriverVer rule ---- */

static void test_infver(void **state)
{
	(void)state;
	struct infver iv;
	const char *inf = "; NVIDIA\r\n[Version]\r\nSignature = \"$Windows NT$\"\r\n"
			  "  DriverVer   = 01/19/2024, 31.0.15.5123 ; comment\r\n";
	assert_int_equal(infver_find(inf, strlen(inf), &iv), 0);
	assert_string_equal(iv.date, "01/19/2024");
	assert_string_equal(iv.windows, "31.0.15.5123");
	char v[16];
	assert_int_equal(infver_nvidia(iv.windows, v, sizeof v), 0);
	assert_string_equal(v, "551.23");
	assert_int_equal(infver_nvidia("27.21.14.5541", v, sizeof v), 0);
	assert_string_equal(v, "455.41");
	assert_int_equal(infver_nvidia("32.0.15.6094", v, sizeof v), 0);
	assert_string_equal(v, "560.94");
	assert_int_equal(infver_nvidia("31.0.15.0123", v, sizeof v), 0);
	assert_string_equal(v, "501.23");
	const char *bad[] = { "31.0.15", "31.0.15.51234", "a.b.c.d", "31.0.10.0099", "",
			      "31.0.15.5123.1", "31..15.5123", "1234567890.0.15.5123" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(infver_nvidia(bad[i], v, sizeof v), -EINVAL);
	char tiny[4];
	assert_int_equal(infver_nvidia("31.0.15.5123", tiny, sizeof tiny), -EINVAL);

	/* UTF-16LE .inf files. */
	const char *t = "[Version]\nDriverVer=12/01/2023,31.0.15.4633\n";
	size_t n = strlen(t);
	char *u = malloc(2 * n + 2);
	u[0] = (char)0xff;
	u[1] = (char)0xfe;
	for (size_t i = 0; i < n; i++) {
		u[2 + 2 * i] = t[i];
		u[3 + 2 * i] = 0;
	}
	assert_int_equal(infver_find(u, 2 * n + 2, &iv), 0);
	assert_string_equal(iv.windows, "31.0.15.4633");
	free(u);

	assert_int_equal(infver_find("", 0, &iv), -ENOENT);
	assert_int_equal(infver_find(NULL, 0, &iv), -ENOENT);
	assert_int_equal(infver_find("[Version]\nClass=Display\n", 24, &iv), -ENOENT);
	assert_int_equal(infver_find("DriverVer = soon\n", 17, &iv), -EINVAL);
	assert_int_equal(infver_find("DriverVer = 01/19/2024\n", 23, &iv), -EINVAL);
	/* Truncated right after the '='. */
	assert_int_equal(infver_find("DriverVer =", 11, &iv), -EINVAL);
	size_t big = 10u << 20;
	char *huge = filled(big, '9');
	memcpy(huge, "DriverVer = 01/19/2024, ", 24);
	assert_int_equal(infver_find(huge, big, &iv), -EINVAL);
	free(huge);
}

/* ---- probes, in-process on scratch roots ---- */

static const struct check_def *find_def(const char *id)
{
	const struct check_def *tables[] = { bridge_checks, host_checks, perf_checks };
	for (size_t t = 0; t < 3; t++)
		for (const struct check_def *c = tables[t]; c->id; c++)
			if (!strcmp(c->id, id))
				return c;
	fail_msg("no check %s", id);
	return NULL;
}

static void no_run(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	(void)r;
}

struct probe_run {
	struct check_def defs[2];
	struct result results[2];
	struct run_opts opts;
};

/* Runs check id with platform.kind saying kind and kernel; the result is
 * pr->results[1]. */
static enum status run_probe(struct probe_run *pr, const char *id, const char *kind,
			     const char *kernel, const char **data, size_t ndata)
{
	memset(pr, 0, sizeof *pr);
	pr->defs[0] = (struct check_def){ "platform.kind", "platform", "Platform", "", { NULL }, no_run, CHECK_FILES };
	pr->defs[1] = *find_def(id);
	pr->opts.data_paths = data;
	pr->opts.ndata = ndata;
	pr->opts.timeout_ms = 10000;
	result_init(&pr->results[0], &pr->defs[0]);
	res_ev(&pr->results[0], "kind", "%s", kind);
	if (kernel)
		res_ev(&pr->results[0], "kernel", "%s", kernel);
	pr->results[0].ran = true;
	result_init(&pr->results[1], &pr->defs[1]);
	struct probe_ctx ctx = { pr->defs, pr->results, 2, &pr->opts, -1, NULL };
	pr->defs[1].run(&ctx, &pr->results[1]);
	/* Every non-pass names a KB entry that exists. */
	const struct result *r = &pr->results[1];
	if (r->status != ST_PASS && r->status != ST_SKIP) {
		assert_non_null(r->kb);
		if (!kb_find(r->kb))
			fail_msg("%s names KB entry %s, which does not exist", id, r->kb);
	}
	if (r->kb && !kb_find(r->kb))
		fail_msg("%s names KB entry %s, which does not exist", id, r->kb);
	return r->status;
}

static void release_run(struct probe_run *pr)
{
	result_release(&pr->results[0]);
	result_release(&pr->results[1]);
}

#define WSL_KERNEL "5.15.167.4-microsoft-standard-WSL2"

static const char *meminfo_16g =
	"MemTotal:       16303444 kB\nMemFree:        14208996 kB\nMemAvailable:   15301212 kB\n"
	"SwapCached:            0 kB\nSwapTotal:       4194304 kB\nSwapFree:        4194304 kB\n";

/* A small WSL2 machine that passes every check of these layers. */
static char *wsl_root(void)
{
	char *d = tu_mkdtemp();
	assert_non_null(d);
	tu_write_str(d, "dev/dxg", "");
	tu_write_str(d, "etc/wsl.conf", "[boot]\nsystemd=true\n");
	tu_write_str(d, "usr/lib/wsl/lib/libdxcore.so", "x");
	tu_write_str(d, "usr/lib/wsl/drivers/nv_dispi.inf_amd64_aaaa/libcuda.so.1.1", "x");
	tu_write_str(d, "usr/lib/wsl/drivers/nv_dispi.inf_amd64_aaaa/nv_dispi.inf",
		     "[Version]\nDriverVer = 01/19/2024, 31.0.15.5123\n");
	tu_write_str(d, "usr/lib/wsl/drivers/wvmbus.inf_amd64_bbbb/wvmbus.sys", "x");
	tu_write_str(d, "proc/meminfo", meminfo_16g);
	tu_write_str(d, "proc/vmstat", "pswpin 0\npswpout 0\n");
	tu_write_str(d, "proc/self/mountinfo", healthy_mountinfo);
	tu_write_str(d, "mnt/c/Users/alice/.wslconfig", "[wsl2]\nmemory=16GB\nswap=4GB\n");
	tu_write_str(d, "home/user/.keep", "");
	assert_int_equal(rootfs_set(d), 0);
	return d;
}

static void drop_root(char *d)
{
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
}

static void rm_path(const char *d, const char *rel)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", d, rel);
	assert_int_equal(unlink(p), 0);
}

static void test_bridge_dxg(void **state)
{
	(void)state;
	struct probe_run pr;
	char *d = wsl_root();
	assert_int_equal(run_probe(&pr, "bridge.dxg", "wsl2", WSL_KERNEL, NULL, 0), ST_PASS);
	assert_string_equal(res_get(&pr.results[1], "type"), "regular file (fixture stand-in)");
	release_run(&pr);
	assert_int_equal(run_probe(&pr, "bridge.dxg", "native", "6.8.0-45-generic", NULL, 0), ST_SKIP);
	assert_non_null(strstr(pr.results[1].detail, "native Linux"));
	release_run(&pr);
	assert_int_equal(run_probe(&pr, "bridge.dxg", "container", "6.8.0", NULL, 0), ST_SKIP);
	release_run(&pr);

	/* .wslconfig gpuSupport=false with /dev/dxg present: a warning. */
	tu_write_str(d, "mnt/c/Users/bob/.wslconfig", "[wsl2]\ngpuSupport=false\n");
	assert_int_equal(run_probe(&pr, "bridge.dxg", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_DXG_GPU_SUPPORT_OFF);
	release_run(&pr);
	/* Safe mode turns GPU support off too (WslCoreConfig.cpp). */
	tu_write_str(d, "mnt/c/Users/bob/.wslconfig", "[wsl2]\nsafeMode=true\n");
	assert_int_equal(run_probe(&pr, "bridge.dxg", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, "bridge.dxg.gpu_support_off");
	assert_non_null(strstr(res_get(&pr.results[1], "wslconfig"), "line 2: safeMode=true"));
	release_run(&pr);
	tu_write_str(d, "mnt/c/Users/bob/.wslconfig", "[wsl2]\nsafeMode=false\n");
	assert_int_equal(run_probe(&pr, "bridge.dxg", "wsl2", WSL_KERNEL, NULL, 0), ST_PASS);
	release_run(&pr);
	tu_write_str(d, "mnt/c/Users/bob/.wslconfig", "[wsl2]\ngpuSupport=false\n");

	/* Missing: nothing on the Windows side or in wsl.conf removes /dev/dxg
	 * (dxgkrnl creates it at module load); what is left is the kernel. */
	rm_path(d, "dev/dxg");
	assert_int_equal(run_probe(&pr, "bridge.dxg", "wsl2", WSL_KERNEL, NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_DXG_MISSING);
	assert_non_null(strstr(res_get(&pr.results[1], "wslconfig"), "C:\\Users\\bob\\.wslconfig line 2"));
	release_run(&pr);
	rm_path(d, "mnt/c/Users/bob/.wslconfig");
	tu_write_str(d, "etc/wsl.conf", "[gpu]\nenabled = false\n");
	assert_int_equal(run_probe(&pr, "bridge.dxg", "wsl2", WSL_KERNEL, NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_DXG_MISSING);
	assert_non_null(strstr(res_get(&pr.results[1], "note"), "does not remove /dev/dxg"));
	release_run(&pr);
	assert_int_equal(run_probe(&pr, "bridge.dxg", "container-in-wsl2", WSL_KERNEL, NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_DXG_CONTAINER);
	release_run(&pr);
	assert_int_equal(run_probe(&pr, "bridge.dxg", "wsl2", "6.6.36-custom", NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_DXG_CUSTOM_KERNEL);
	release_run(&pr);
	/* An old driver store: evidence, not the reason. */
	tu_write_str(d, "usr/lib/wsl/drivers/nv_dispi.inf_amd64_aaaa/nv_dispi.inf",
		     "DriverVer=06/01/2021,27.21.14.7212\n");
	assert_int_equal(run_probe(&pr, "bridge.dxg", "wsl2", WSL_KERNEL, NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_DXG_MISSING);
	assert_string_equal(res_get(&pr.results[1], "driver"), "472.12");
	release_run(&pr);
	tu_write_str(d, "usr/lib/wsl/drivers/nv_dispi.inf_amd64_aaaa/nv_dispi.inf",
		     "DriverVer=01/19/2024,31.0.15.5123\n");

	/* Not a character device, or a loop where the node should be. */
	char p[4096];
	snprintf(p, sizeof p, "%s/dev/dxg", d);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(run_probe(&pr, "bridge.dxg", "wsl2", WSL_KERNEL, NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_DXG_NOT_CHARDEV);
	release_run(&pr);
	rmdir(p);
	tu_symlink(d, "dev/dxg", "/dev/dxg");
	assert_int_equal(run_probe(&pr, "bridge.dxg", "wsl2", WSL_KERNEL, NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_DXG_OPEN_FAILED);
	release_run(&pr);
	drop_root(d);
}

/* EACCES needs a user the file's mode applies to: run as nobody when root. */
static void test_bridge_denied(void **state)
{
	(void)state;
	char *d = wsl_root();
	char p[4096];
	snprintf(p, sizeof p, "%s/dev/dxg", d);
	chmod(d, 0755);
	chmod(p, 0444);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
			_exit(99);
		struct probe_run pr;
		enum status s = run_probe(&pr, "bridge.dxg", "wsl2", WSL_KERNEL, NULL, 0);
		int ok = s == ST_FAIL && !strcmp(pr.results[1].kb, KB_BRIDGE_DXG_DENIED) &&
			 strstr(res_get(&pr.results[1], "owner"), "mode 0444");
		_exit(ok ? 0 : 1);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 99)
		skip();
	assert_int_equal(WEXITSTATUS(st), 0);
	drop_root(d);
}

static void test_bridge_nvidia_dev(void **state)
{
	(void)state;
	struct probe_run pr;
	char *d = wsl_root();
	assert_int_equal(run_probe(&pr, "bridge.nvidia_dev", "wsl2", WSL_KERNEL, NULL, 0), ST_SKIP);
	release_run(&pr);
	/* /dev/nvidia* in WSL2: the myth. */
	tu_write_str(d, "dev/nvidia0", "");
	tu_write_str(d, "dev/nvidiactl", "");
	assert_int_equal(run_probe(&pr, "bridge.nvidia_dev", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_NVIDIA_DEV_ON_WSL);
	assert_string_equal(res_get(&pr.results[1], "nodes"), "/dev/nvidia0, /dev/nvidiactl");
	release_run(&pr);

	/* Native: nvidia-uvm missing is a warning, in a container a failure. */
	assert_int_equal(run_probe(&pr, "bridge.nvidia_dev", "native", "6.8.0", NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_NVIDIA_DEV_NO_UVM);
	release_run(&pr);
	assert_int_equal(run_probe(&pr, "bridge.nvidia_dev", "container", "6.8.0", NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_NVIDIA_DEV_NO_UVM);
	release_run(&pr);
	tu_write_str(d, "dev/nvidia-uvm", "");
	tu_write_str(d, "dev/nvidia1", "");
	tu_write_str(d, "dev/nvidia-modeset", "");
	assert_int_equal(run_probe(&pr, "bridge.nvidia_dev", "native", "6.8.0", NULL, 0), ST_PASS);
	assert_string_equal(pr.results[1].detail,
			    "/dev/nvidiactl, 2 GPU nodes and /dev/nvidia-uvm open read-write");
	release_run(&pr);

	/* Missing nodes: no driver, driver without nodes, container. */
	rm_path(d, "dev/nvidia0");
	rm_path(d, "dev/nvidia1");
	tu_write_str(d, "proc/modules", "snd 1 0 - Live 0x0\n");
	assert_int_equal(run_probe(&pr, "bridge.nvidia_dev", "native", "6.8.0", NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_NVIDIA_DEV_NO_DRIVER);
	assert_string_equal(res_get(&pr.results[1], "missing"), "/dev/nvidia0");
	release_run(&pr);
	tu_write_str(d, "proc/modules", "nvidia_uvm 1 0 - Live 0x0\nnvidia 2 1 nvidia_uvm, Live 0x0\n");
	assert_int_equal(run_probe(&pr, "bridge.nvidia_dev", "native", "6.8.0", NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_NVIDIA_DEV_MISSING);
	release_run(&pr);
	assert_int_equal(run_probe(&pr, "bridge.nvidia_dev", "container", "6.8.0", NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_NVIDIA_DEV_CONTAINER);
	release_run(&pr);
	char p[4096];
	snprintf(p, sizeof p, "%s/dev/nvidia0", d);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(run_probe(&pr, "bridge.nvidia_dev", "native", "6.8.0", NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_BRIDGE_NVIDIA_DEV_NOT_CHARDEV);
	assert_string_equal(res_get(&pr.results[1], "path"), "/dev/nvidia0");
	release_run(&pr);
	drop_root(d);
}

static void test_host_driver_store(void **state)
{
	(void)state;
	struct probe_run pr;
	char *d = wsl_root();
	assert_int_equal(run_probe(&pr, "host.driver_store", "wsl2", WSL_KERNEL, NULL, 0), ST_PASS);
	const struct result *r = &pr.results[1];
	assert_string_equal(res_get(r, "store"), "/usr/lib/wsl/drivers/nv_dispi.inf_amd64_aaaa");
	assert_string_equal(res_get(r, "version"), "551.23");
	assert_non_null(strstr(res_get(r, "version_source"), "estimated from the .inf DriverVer"));
	release_run(&pr);

	/* A second, older store: listed, the newest named, the other stale. */
	tu_write_str(d, "usr/lib/wsl/drivers/nvmdi.inf_amd64_cccc/libcuda.so.1.1", "x");
	tu_write_str(d, "usr/lib/wsl/drivers/nvmdi.inf_amd64_cccc/nvmdi.inf",
		     "DriverVer = 10/01/2023, 31.0.15.4601\n");
	char p[4096];
	snprintf(p, sizeof p, "touch -d '2023-10-01' '%s/usr/lib/wsl/drivers/nvmdi.inf_amd64_cccc'", d);
	assert_int_equal(system(p), 0);
	snprintf(p, sizeof p, "touch -d '2024-01-19' '%s/usr/lib/wsl/drivers/nv_dispi.inf_amd64_aaaa'", d);
	assert_int_equal(system(p), 0);
	assert_int_equal(run_probe(&pr, "host.driver_store", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	r = &pr.results[1];
	assert_string_equal(r->kb, KB_HOST_DRIVER_STORE_SEVERAL);
	assert_string_equal(res_get(r, "stale"), "/usr/lib/wsl/drivers/nvmdi.inf_amd64_cccc");
	assert_string_equal(res_get(r, "version"), "551.23");
	assert_non_null(strstr(r->detail, "older: nvmdi.inf_amd64_cccc (546.01)"));
	release_run(&pr);

	/* No .inf: still the store, version left to NVML. */
	rm_path(d, "usr/lib/wsl/drivers/nvmdi.inf_amd64_cccc/nvmdi.inf");
	rm_path(d, "usr/lib/wsl/drivers/nvmdi.inf_amd64_cccc/libcuda.so.1.1");
	rm_path(d, "usr/lib/wsl/drivers/nv_dispi.inf_amd64_aaaa/nv_dispi.inf");
	assert_int_equal(run_probe(&pr, "host.driver_store", "wsl2", WSL_KERNEL, NULL, 0), ST_PASS);
	assert_null(res_get(&pr.results[1], "version"));
	release_run(&pr);
	/* No libcuda.so.1.1 anywhere: no NVIDIA driver with WSL support. */
	rm_path(d, "usr/lib/wsl/drivers/nv_dispi.inf_amd64_aaaa/libcuda.so.1.1");
	assert_int_equal(run_probe(&pr, "host.driver_store", "wsl2", WSL_KERNEL, NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_HOST_DRIVER_STORE_NONE);
	assert_non_null(res_get(&pr.results[1], "nvidia_named"));
	release_run(&pr);

	/* Native: /proc/driver/nvidia/version, proprietary and open. */
	tu_write_str(d, "proc/driver/nvidia/version",
		     "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n"
		     "GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n");
	assert_int_equal(run_probe(&pr, "host.driver_store", "native", "6.8.0", NULL, 0), ST_PASS);
	assert_string_equal(res_get(&pr.results[1], "version"), "550.54.14");
	assert_string_equal(pr.results[1].detail, "NVIDIA kernel module 550.54.14 loaded (proprietary)");
	release_run(&pr);
	tu_write_str(d, "proc/driver/nvidia/version",
		     "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.54.03  Release Build\n");
	assert_int_equal(run_probe(&pr, "host.driver_store", "native", "6.8.0", NULL, 0), ST_PASS);
	assert_string_equal(res_get(&pr.results[1], "version"), "535.54.03");
	release_run(&pr);
	tu_write_str(d, "proc/driver/nvidia/version", "\x00\xff garbage");
	assert_int_equal(run_probe(&pr, "host.driver_store", "native", "6.8.0", NULL, 0), ST_PASS);
	assert_null(res_get(&pr.results[1], "version"));
	release_run(&pr);
	rm_path(d, "proc/driver/nvidia/version");
	assert_int_equal(run_probe(&pr, "host.driver_store", "native", "6.8.0", NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_HOST_DRIVER_STORE_NO_KERNEL_DRIVER);
	release_run(&pr);
	drop_root(d);

	/* WSL without the driver store mount. */
	d = wsl_root();
	snprintf(p, sizeof p, "%s/usr/lib/wsl/drivers", d);
	tu_rmtree(p);
	assert_int_equal(run_probe(&pr, "host.driver_store", "wsl2", WSL_KERNEL, NULL, 0), ST_FAIL);
	assert_string_equal(pr.results[1].kb, KB_HOST_DRIVER_STORE_NO_MOUNT);
	assert_string_equal(pr.results[1].detail,
			    "/usr/lib/wsl/drivers is missing: WSL did not mount the Windows driver store");
	release_run(&pr);
	drop_root(d);
}

static void test_perf_memory(void **state)
{
	(void)state;
	struct probe_run pr;
	char *d = wsl_root();
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_PASS);
	assert_string_equal(pr.results[1].detail,
			    "15.5 GiB of memory (.wslconfig memory=16GB), 4.0 GiB of swap, none in use");
	release_run(&pr);

	/* Not applied: the file asks for 6GB, Linux sees 15.5 GiB. */
	tu_write_str(d, "mnt/c/Users/alice/.wslconfig", "[wsl2]\nmemory=6GB\n");
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_MEMORY_WSLCONFIG_NOT_APPLIED);
	assert_string_equal(res_get(&pr.results[1], "asked"),
			    "memory=6GB (C:\\Users\\alice\\.wslconfig line 2)");
	release_run(&pr);
	/* Swap not applied. */
	tu_write_str(d, "mnt/c/Users/alice/.wslconfig", "[wsl2]\nswap=0\n");
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_MEMORY_WSLCONFIG_NOT_APPLIED);
	release_run(&pr);
	/* Processors not applied. */
	tu_write_str(d, "mnt/c/Users/alice/.wslconfig", "[wsl2]\nprocessors=4\n");
	tu_write_str(d, "sys/devices/system/cpu/online", "0-7\n");
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_MEMORY_WSLCONFIG_NOT_APPLIED);
	release_run(&pr);
	tu_write_str(d, "mnt/c/Users/alice/.wslconfig", "[wsl2]\nprocessors=8\n");
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_PASS);
	release_run(&pr);

	/* A typo: the headline names the file and line. */
	tu_write_str(d, "mnt/c/Users/alice/.wslconfig", "[wsl2]\nmemroy=16GB\nswap=4GB\n");
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_MEMORY_WSLCONFIG_INVALID);
	assert_string_equal(pr.results[1].detail,
			    "C:\\Users\\alice\\.wslconfig:2: unknown key memroy= in [wsl2] (did you mean memory?)");
	release_run(&pr);

	/* Small memory and swapping: small is the headline, swap named too. */
	tu_write_str(d, "mnt/c/Users/alice/.wslconfig", "[wsl2]\nmemory=2GB\n");
	tu_write_str(d, "proc/meminfo", "MemTotal: 2012345 kB\nMemAvailable: 102400 kB\n"
					"SwapTotal: 1048576 kB\nSwapFree: 262144 kB\n");
	tu_write_str(d, "proc/vmstat", "pswpin 123456\npswpout 234567\n");
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_MEMORY_SMALL);
	assert_string_equal(pr.results[1].detail,
			    "only 1.9 GiB of memory (.wslconfig memory=2GB): too little for GPU "
			    "training; also swap in use");
	assert_non_null(strstr(res_get(&pr.results[1], "also"), "768 MiB of swap in use"));
	release_run(&pr);
	/* Native: the same thresholds, no .wslconfig. */
	assert_int_equal(run_probe(&pr, "perf.memory", "native", "6.8.0", NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_MEMORY_SMALL);
	assert_null(res_get(&pr.results[1], "wslconfig"));
	release_run(&pr);

	/* Unreadable, empty, binary, truncated /proc/meminfo. */
	tu_write_str(d, "proc/meminfo", "");
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_MEMORY_UNREADABLE);
	release_run(&pr);
	tu_write(d, "proc/meminfo", "\x00\x01\xffMemTotal", 11);
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_MEMORY_UNREADABLE);
	release_run(&pr);
	tu_write_str(d, "proc/meminfo", "MemTotal:       16303444 kB\nSwapTot");
	tu_write_str(d, "proc/vmstat", "pswp");
	tu_write_str(d, "mnt/c/Users/alice/.wslconfig", "");
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_PASS);
	release_run(&pr);
	rm_path(d, "proc/meminfo");
	assert_int_equal(run_probe(&pr, "perf.memory", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_MEMORY_UNREADABLE);
	release_run(&pr);
	drop_root(d);
}

static void test_perf_storage(void **state)
{
	(void)state;
	struct probe_run pr;
	char *d = wsl_root();
	setenv("PWD", "/home/user", 1);
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, NULL, 0), ST_PASS);
	assert_string_equal(pr.results[1].detail, "/home/user is on ext4 (/dev/sdd, a Linux file system)");
	release_run(&pr);
	/* The current directory need not exist in a fixture; a --data path must. */
	setenv("PWD", "/home/nobody", 1);
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, NULL, 0), ST_PASS);
	assert_non_null(strstr(res_get(&pr.results[1], "note"), "not in this root"));
	release_run(&pr);
	const char *nobody[] = { "/home/nobody" };
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, nobody, 1), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_STORAGE_BAD_PATH);
	release_run(&pr);
	setenv("PWD", "/home/user", 1);

	/* A symlink into /mnt/c is followed (ollama#8043). */
	tu_write_str(d, "mnt/c/Users/alice/.ollama/models/blob", "x");
	tu_symlink(d, "home/user/.ollama", "/mnt/c/Users/alice/.ollama");
	const char *data[] = { "/home/user/.ollama/models" };
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, data, 1), ST_WARN);
	const struct result *r = &pr.results[1];
	assert_string_equal(r->kb, KB_PERF_STORAGE_WINDOWS_DRIVE);
	assert_string_equal(res_get(r, "slow_resolved"), "/mnt/c/Users/alice/.ollama/models");
	assert_string_equal(res_get(r, "slow_source"), "C:\\");
	assert_string_equal(res_get_nth(r, "fstype", 1), "9p");
	assert_string_equal(r->detail, "/home/user/.ollama/models (-> /mnt/c/Users/alice/.ollama/models) "
				       "is on a Windows drive (9p at /mnt/c): file access there is slow");
	release_run(&pr);
	/* Relative --data paths are taken from the current directory. */
	const char *rel[] = { ".ollama" };
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, rel, 1), ST_WARN);
	release_run(&pr);
	/* The driver store's 9p mount is not a Windows drive. */
	tu_write_str(d, "usr/lib/wsl/drivers/x", "");
	const char *drv[] = { "/usr/lib/wsl/drivers" };
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, drv, 1), ST_PASS);
	release_run(&pr);

	/* Dangling link, missing path, symlink loop: a finding, no hang. */
	tu_symlink(d, "home/user/gone", "/mnt/e/nothing");
	tu_symlink(d, "home/user/loop1", "/home/user/loop2");
	tu_symlink(d, "home/user/loop2", "/home/user/loop1");
	const char *dangling[] = { "/home/user/gone" };
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, dangling, 1), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_STORAGE_BAD_PATH);
	assert_string_equal(pr.results[1].detail,
			    "/home/user/gone: a dangling symlink (its target does not exist)");
	release_run(&pr);
	const char *loop[] = { "/home/user/loop1/x" };
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, loop, 1), ST_WARN);
	assert_string_equal(pr.results[1].detail, "/home/user/loop1/x: its symlinks form a loop");
	release_run(&pr);
	const char *missing[] = { "/srv/none/../none2" };
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, missing, 1), ST_WARN);
	assert_string_equal(res_get_nth(&pr.results[1], "resolved", 1), "/srv/none2");
	release_run(&pr);

	/* Bad /proc/self/mountinfo. */
	tu_write_str(d, "proc/self/mountinfo", "\x01\x02 junk\n");
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_STORAGE_NO_MOUNTINFO);
	release_run(&pr);
	rm_path(d, "proc/self/mountinfo");
	assert_int_equal(run_probe(&pr, "perf.storage", "wsl2", WSL_KERNEL, NULL, 0), ST_WARN);
	assert_string_equal(pr.results[1].kb, KB_PERF_STORAGE_NO_MOUNTINFO);
	release_run(&pr);
	unsetenv("PWD");
	drop_root(d);
}

static void test_wslhost(void **state)
{
	(void)state;
	char *d = wsl_root();
	struct strbuf sb = STRBUF_INIT;
	wslhost_windows_path("/mnt/c/Users/alice/.wslconfig", &sb);
	assert_string_equal(sb.buf, "C:\\Users\\alice\\.wslconfig");
	wslhost_windows_path("/mnt/d", &sb);
	assert_string_equal(sb.buf, "D:\\");
	wslhost_windows_path("/home/user", &sb);
	assert_string_equal(sb.buf, "/home/user");
	/* [automount] root= moves the drives. */
	tu_write_str(d, "etc/wsl.conf", "[automount]\nroot = /win\n");
	wslhost_automount_root(&sb);
	assert_string_equal(sb.buf, "/win/");
	tu_write_str(d, "win/c/Users/zed/.wslconfig", "[wsl2]\n");
	size_t n;
	char **v = wslhost_wslconfigs(&n);
	assert_int_equal(n, 1);
	assert_string_equal(v[0], "/win/c/Users/zed/.wslconfig");
	wslhost_free_list(v, n);
	sb_release(&sb);
	drop_root(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_procfile),       cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_wslconfig),      cmocka_unit_test(test_infver),
		cmocka_unit_test(test_bridge_dxg),     cmocka_unit_test(test_bridge_denied),
		cmocka_unit_test(test_bridge_nvidia_dev), cmocka_unit_test(test_host_driver_store),
		cmocka_unit_test(test_perf_memory),    cmocka_unit_test(test_perf_storage),
		cmocka_unit_test(test_wslhost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
