/*
 * test_rootfs.c: the lexical path helpers (src/core/path.c) and the one way
 * between guest and host paths (rootfs_host_path, rootfs_guest_path,
 * rootfs_guest_text, rootfs_realpath, rootfs_cwd, rootfs_absolute), with their edge cases:
 * the real root, trailing slashes, a root that is only a string prefix of
 * another directory, relative paths, "..", and symlinks kept inside the root.
 * Reading: only regular files (a FIFO, /dev/null refused at once), a cut
 * said, lines of any length, a read in a child that is cut off in time.
 */
#include "testutil.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/proc.h"
#include "facts/osrelease.h"
#include "parse/dpkg.h"
#include "parse/dpkgstatus.h"
#include "parse/meminfo.h"
#include "parse/mountinfo.h"

#include "core/path.h"
#include "core/rootfs.h"
#include "core/strbuf.h"

static void expect_norm(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	path_normalize(in, &sb);
	if (strcmp(sb.buf, want))
		fail_msg("path_normalize(\"%s\") is \"%s\", expected \"%s\"", in, sb.buf, want);
	sb_release(&sb);
}

static void test_path_normalize(void **state)
{
	(void)state;
	expect_norm("/a/./b/../c//", "/a/c");
	expect_norm("/usr/lib/wsl/lib/", "/usr/lib/wsl/lib");
	expect_norm("/..", "/");
	expect_norm("/../../etc", "/etc");
	expect_norm("//", "/");
	expect_norm("/", "/");
	expect_norm("a/b/..", "a");
	expect_norm("a/..", ".");
	expect_norm("./a//b/", "a/b");
	expect_norm("", ".");
	char *j = path_join("/usr/lib/wsl/lib/", "libcuda.so.1");
	assert_string_equal(j, "/usr/lib/wsl/lib/libcuda.so.1");
	free(j);
	j = path_join("/home/u", "../data/./x");
	assert_string_equal(j, "/home/data/x");
	free(j);
}

static void test_path_parts(void **state)
{
	(void)state;
	struct strbuf d = STRBUF_INIT;
	path_dirname("/usr/lib/wsl/lib/libcuda.so.1", &d);
	assert_string_equal(d.buf, "/usr/lib/wsl/lib");
	path_dirname("/libcuda.so.1", &d);
	assert_string_equal(d.buf, "/");
	path_dirname("libcuda.so.1", &d);
	assert_string_equal(d.buf, ".");
	path_dirname(NULL, &d);
	assert_string_equal(d.buf, ".");
	sb_release(&d);
	assert_string_equal(path_basename("/usr/local/cuda/lib64/stubs"), "stubs");
	assert_string_equal(path_basename("libcuda.so.1"), "libcuda.so.1");
	assert_string_equal(path_basename("/"), "");

	assert_true(path_within("/root", "/root"));
	assert_true(path_within("/root/x", "/root"));
	assert_true(path_within("/root/x", "/root/"));
	assert_false(path_within("/root2", "/root"));
	assert_false(path_within("/root2/x", "/root"));
	assert_false(path_within("/ro", "/root"));
	assert_true(path_within("/anything", "/"));
	assert_false(path_within("relative", "/"));

	/* path_push: the step both path_normalize and rootfs's walk take. */
	struct strbuf p = STRBUF_INIT;
	sb_add(&p, "");
	assert_true(path_push(&p, "usr", 3, false));
	assert_false(path_push(&p, ".", 1, false));
	assert_true(path_push(&p, "lib", 3, false));
	assert_string_equal(p.buf, "/usr/lib");
	assert_false(path_push(&p, "..", 2, false));
	assert_false(path_push(&p, "..", 2, false));
	assert_false(path_push(&p, "..", 2, false));
	assert_string_equal(p.buf, "");
	sb_reset(&p);
	assert_true(path_push(&p, "a", 1, true));
	assert_string_equal(p.buf, "a");
	sb_release(&p);
}

static void expect_guest(const char *host, int rc, const char *want)
{
	struct strbuf g = STRBUF_INIT;
	int got = rootfs_guest_path(host, &g);
	if (got != rc || strcmp(g.buf, want))
		fail_msg("rootfs_guest_path(\"%s\") is %d \"%s\", expected %d \"%s\"", host, got,
			 g.buf, rc, want);
	sb_release(&g);
}

static void expect_text(const char *text, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	rootfs_guest_text(text, &out);
	if (strcmp(out.buf, want))
		fail_msg("rootfs_guest_text(\"%s\") is \"%s\", expected \"%s\"", text ? text : "NULL",
			 out.buf, want);
	sb_release(&out);
}

/* The real root: every absolute path is its own guest path. */
static void test_real_root(void **state)
{
	(void)state;
	assert_int_equal(rootfs_set("/"), 0);
	assert_true(rootfs_is_real());
	expect_guest("/usr/lib/wsl/lib/libcuda.so.1", 0, "/usr/lib/wsl/lib/libcuda.so.1");
	expect_guest("/usr//lib/", 0, "/usr/lib");
	expect_guest("/", 0, "/");
	expect_guest("libcuda.so.1", -EINVAL, "libcuda.so.1");
	expect_guest("", -EINVAL, "");
	expect_text("/usr/lib/x.so: cannot open", "/usr/lib/x.so: cannot open");
	expect_text(NULL, "");
	struct strbuf h = STRBUF_INIT;
	assert_int_equal(rootfs_host_path("/usr/lib/x", true, &h), 0);
	assert_string_equal(h.buf, "/usr/lib/x");
	assert_int_equal(rootfs_host_path("usr/lib/x", true, &h), -EINVAL);
	/* The user's directory is ours. */
	char buf[4096];
	assert_non_null(getcwd(buf, sizeof buf));
	assert_int_equal(rootfs_cwd(&h), 0);
	assert_string_equal(h.buf, buf);
	sb_release(&h);
}

/* The links every resolver test walks: a WSL libcuda reached through an
 * absolute link and a relative one, a link out of the root, a loop. */
static void link_tree(const char *d)
{
	tu_write_str(d, "usr/lib/wsl/lib/libcuda.so.1", "wsl");
	tu_symlink(d, "usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1");
	tu_symlink(d, "lib", "usr/lib");
	tu_symlink(d, "escape", "../../../../../../../etc");
	tu_symlink(d, "loop/a", "/loop/b");
	tu_symlink(d, "loop/b", "/loop/a");
}

static void test_fixture_root(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	assert_non_null(d);
	link_tree(d);
	tu_symlink(d, "usr/local/cuda", "cuda-12.4");
	tu_write_str(d, "usr/local/cuda-12.4/bin/nvcc", "");
	tu_symlink(d, "dangling", "/nowhere/file");
	/* A trailing slash on --root changes nothing. */
	char withslash[4096];
	snprintf(withslash, sizeof withslash, "%s/", d);
	assert_int_equal(rootfs_set(withslash), 0);
	assert_false(rootfs_is_real());
	/* TMPDIR may itself be behind a symlink: the root is its real path. */
	const char *R = rootfs_root();
	assert_true(R[0] == '/' && R[strlen(R) - 1] != '/');
	char host[4096];

	/* host -> guest */
	expect_guest(R, 0, "/");
	snprintf(host, sizeof host, "%s/", R);
	expect_guest(host, 0, "/");
	snprintf(host, sizeof host, "%s/usr/lib/wsl/lib/libcuda.so.1", R);
	expect_guest(host, 0, "/usr/lib/wsl/lib/libcuda.so.1");
	snprintf(host, sizeof host, "%s/usr/lib/", R);
	expect_guest(host, 0, "/usr/lib");
	snprintf(host, sizeof host, "%s/a/../usr", R);
	expect_guest(host, 0, "/usr");
	/* A directory whose name only starts with the root's is outside it. */
	snprintf(host, sizeof host, "%s2/usr/lib", R);
	expect_guest(host, -EXDEV, host);
	/* So is one reached by climbing out of it. */
	snprintf(host, sizeof host, "%s/../x", R);
	expect_guest(host, -EXDEV, host);
	expect_guest("/usr/lib/wsl/lib/libcuda.so.1", -EXDEV, "/usr/lib/wsl/lib/libcuda.so.1");
	expect_guest("usr/lib", -EINVAL, "usr/lib");
	expect_guest(NULL, -EINVAL, "");

	/* guest may be host's own buffer. */
	struct strbuf same = STRBUF_INIT;
	sb_addf(&same, "%s/usr/lib", R);
	assert_int_equal(rootfs_guest_path(same.buf, &same), 0);
	assert_string_equal(same.buf, "/usr/lib");
	sb_reset(&same);
	sb_add(&same, "/elsewhere");
	assert_int_equal(rootfs_guest_path(same.buf, &same), -EXDEV);
	assert_string_equal(same.buf, "/elsewhere");
	sb_release(&same);

	/* guest -> host: symlinks followed inside the root, absolute or not. */
	struct strbuf h = STRBUF_INIT, g = STRBUF_INIT;
	assert_int_equal(rootfs_host_path("/lib/x86_64-linux-gnu/libcuda.so.1", true, &h), 0);
	snprintf(host, sizeof host, "%s/usr/lib/wsl/lib/libcuda.so.1", R);
	assert_string_equal(h.buf, host);
	assert_int_equal(rootfs_host_path("/lib/x86_64-linux-gnu/libcuda.so.1", false, &h), 0);
	snprintf(host, sizeof host, "%s/usr/lib/x86_64-linux-gnu/libcuda.so.1", R);
	assert_string_equal(h.buf, host);
	/* ".." stops at the root; trailing slashes and "." go. */
	assert_int_equal(rootfs_host_path("/../../usr/./lib/", true, &h), 0);
	snprintf(host, sizeof host, "%s/usr/lib", R);
	assert_string_equal(h.buf, host);
	assert_int_equal(rootfs_host_path("/escape", true, &h), 0);
	snprintf(host, sizeof host, "%s/etc", R);
	assert_string_equal(h.buf, host);
	assert_int_equal(rootfs_host_path("usr/lib", true, &h), -EINVAL);
	/* A missing last component is no error; a missing directory is, and
	 * host still names where the path would be. */
	assert_int_equal(rootfs_host_path("/usr/lib/wsl/lib/libnvidia-ml.so.1", true, &h), 0);
	snprintf(host, sizeof host, "%s/usr/lib/wsl/lib/libnvidia-ml.so.1", R);
	assert_string_equal(h.buf, host);
	assert_int_equal(rootfs_host_path("/lib/no/such/file", true, &h), -ENOENT);
	snprintf(host, sizeof host, "%s/usr/lib/no/such/file", R);
	assert_string_equal(h.buf, host);
	assert_int_equal(rootfs_host_path("/loop/a", true, &h), -ELOOP);

	/* Both ways round: the guest of a guest's host is the canonical guest. */
	assert_int_equal(rootfs_host_path("/lib/x86_64-linux-gnu/libcuda.so.1", true, &h), 0);
	assert_int_equal(rootfs_guest_path(h.buf, &g), 0);
	assert_string_equal(g.buf, "/usr/lib/wsl/lib/libcuda.so.1");

	/* realpath under the root */
	assert_int_equal(rootfs_realpath("/lib/x86_64-linux-gnu/libcuda.so.1", &g, &h), 0);
	assert_string_equal(g.buf, "/usr/lib/wsl/lib/libcuda.so.1");
	snprintf(host, sizeof host, "%s/usr/lib/wsl/lib/libcuda.so.1", R);
	assert_string_equal(h.buf, host);
	assert_int_equal(rootfs_realpath("/usr/local/cuda/", &g, NULL), 0);
	assert_string_equal(g.buf, "/usr/local/cuda-12.4");
	assert_int_equal(rootfs_realpath("/usr/local/cuda/bin/../bin/nvcc", &g, NULL), 0);
	assert_string_equal(g.buf, "/usr/local/cuda-12.4/bin/nvcc");
	assert_int_equal(rootfs_realpath("/", &g, NULL), 0);
	assert_string_equal(g.buf, "/");
	/* Missing, dangling, looping or relative: the path as given. */
	assert_int_equal(rootfs_realpath("/usr/lib/wsl/lib/libnvidia-ml.so.1", &g, NULL), -ENOENT);
	assert_string_equal(g.buf, "/usr/lib/wsl/lib/libnvidia-ml.so.1");
	assert_int_equal(rootfs_realpath("/dangling", &g, NULL), -ENOENT);
	assert_string_equal(g.buf, "/dangling");
	assert_int_equal(rootfs_realpath("/loop/a", &g, NULL), -ELOOP);
	assert_string_equal(g.buf, "/loop/a");
	assert_int_equal(rootfs_realpath("lib", &g, NULL), -EINVAL);
	assert_string_equal(g.buf, "lib");
	/* out may be the caller's own buffer. */
	sb_reset(&g);
	sb_add(&g, "/lib/x86_64-linux-gnu/libcuda.so.1");
	assert_int_equal(rootfs_realpath(g.buf, &g, NULL), 0);
	assert_string_equal(g.buf, "/usr/lib/wsl/lib/libcuda.so.1");
	sb_reset(&g);
	sb_add(&g, "/no/such");
	assert_int_equal(rootfs_realpath(g.buf, &g, NULL), -ENOENT);
	assert_string_equal(g.buf, "/no/such");

	/* host paths inside messages */
	char text[8192], want[8192];
	snprintf(text, sizeof text, "%s/usr/lib/wsl/lib/libcuda.so.1: wrong ELF class", R);
	expect_text(text, "/usr/lib/wsl/lib/libcuda.so.1: wrong ELF class");
	snprintf(text, sizeof text, "cannot open '%s/a' or %s/b", R, R);
	expect_text(text, "cannot open '/a' or /b");
	snprintf(text, sizeof text, "cannot read %s: denied", R);
	expect_text(text, "cannot read /: denied");
	snprintf(text, sizeof text, "%s", R);
	expect_text(text, "/");
	/* Not the root: a sibling that shares its prefix, or the root's name
	 * inside another path. */
	snprintf(text, sizeof text, "%s2/x and /elsewhere%s/y", R, R);
	snprintf(want, sizeof want, "%s", text);
	expect_text(text, want);
	expect_text("no paths here", "no paths here");
	expect_text(NULL, "");

	/* The user's directory is the fixture's $PWD. */
	const char *old = getenv("PWD");
	char *saved = old ? strdup(old) : NULL;
	setenv("PWD", "/home/user/project", 1);
	assert_int_equal(rootfs_cwd(&g), 0);
	assert_string_equal(g.buf, "/home/user/project");
	setenv("PWD", "relative", 1);
	assert_int_equal(rootfs_cwd(&g), -ENOENT);
	assert_int_equal((int)g.len, 0);
	/* A typed path is taken from there; joined, not normalised. */
	setenv("PWD", "/home/user/project", 1);
	assert_int_equal(rootfs_absolute("venv/bin/python", &g), 0);
	assert_string_equal(g.buf, "/home/user/project/venv/bin/python");
	assert_int_equal(rootfs_absolute("../data", &g), 0);
	assert_string_equal(g.buf, "/home/user/project/../data");
	assert_int_equal(rootfs_absolute("/opt/py", &g), 0);
	assert_string_equal(g.buf, "/opt/py");
	setenv("PWD", "/", 1);
	assert_int_equal(rootfs_absolute("x", &g), 0);
	assert_string_equal(g.buf, "/x");
	unsetenv("PWD");
	assert_int_equal(rootfs_cwd(&g), -ENOENT);
	/* Without a current directory, from "/", with the error. */
	assert_int_equal(rootfs_absolute("x", &g), -ENOENT);
	assert_string_equal(g.buf, "/x");
	if (saved)
		setenv("PWD", saved, 1);
	free(saved);

	sb_release(&h);
	sb_release(&g);
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
}

/* Where guest resolves to (rc, host path, and rootfs_resolve's answer)
 * as one line, to compare runs with and without the cache. */
static void resolve_line(const char *guest, bool follow, struct strbuf *out)
{
	struct strbuf h = STRBUF_INIT, r = STRBUF_INIT, link = STRBUF_INIT;
	int rc = rootfs_host_path(guest, follow, &h);
	bool missing = false;
	int rrc = rootfs_resolve(guest, &r, &missing, &link);
	sb_addf(out, "%s %d %s | %d %s %d %s\n", guest, rc, h.buf ? h.buf : "", rrc,
		r.buf ? r.buf : "", missing, link.buf ? link.buf : "");
	sb_release(&h);
	sb_release(&r);
	sb_release(&link);
}

static void path_of(const char *R, const char *rel, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", R, rel);
}

/* rootfs_cache: the same answers as without it; a symlink retargeted after
 * a walk is seen at once; what changed under a remembered path is seen
 * after the next rootfs_cache(true), or without the cache, or under a new
 * root. */
static void test_dir_cache(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	assert_non_null(d);
	link_tree(d);
	tu_write_str(d, "etc/os-release", "ID=x\n");
	tu_write_str(d, "a/x", "a");
	tu_write_str(d, "b/x", "b");
	tu_write_str(d, "dir/x", "dir");
	tu_symlink(d, "l", "/a");
	assert_int_equal(rootfs_set(d), 0);
	const char *R = rootfs_root();
	static const char *const guests[] = {
		"/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1",
		"/usr/lib/wsl/lib/libnvidia-ml.so.1", "/usr/local/bin/nvcc", "/usr/local",
		"/usr/../../usr/./lib/", "/escape/passwd", "/loop/a", "/loop/a/x",
		"/etc/os-release/x", "/etc/os-release", "/l/x", "/no/such/file", "/",
		"/lib/../etc", "/usr/lib/wsl/lib",
	};
	struct strbuf plain = STRBUF_INIT, cached = STRBUF_INIT, again = STRBUF_INIT;
	for (int follow = 0; follow < 2; follow++)
		for (size_t i = 0; i < sizeof guests / sizeof guests[0]; i++)
			resolve_line(guests[i], follow, &plain);
	rootfs_cache(true);
	for (int follow = 0; follow < 2; follow++)
		for (size_t i = 0; i < sizeof guests / sizeof guests[0]; i++)
			resolve_line(guests[i], follow, &cached);
	/* the second time from what was remembered */
	for (int follow = 0; follow < 2; follow++)
		for (size_t i = 0; i < sizeof guests / sizeof guests[0]; i++)
			resolve_line(guests[i], follow, &again);
	assert_string_equal(cached.buf, plain.buf);
	assert_string_equal(again.buf, plain.buf);

	/* A symlink is read at every walk: retargeted, it leads elsewhere. */
	struct strbuf h = STRBUF_INIT;
	char want[4096], p[4096], q[4096];
	assert_int_equal(rootfs_host_path("/l/x", true, &h), 0);
	path_of(R, "a/x", want, sizeof want);
	assert_string_equal(h.buf, want);
	path_of(R, "l", p, sizeof p);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink("/b", p), 0);
	assert_int_equal(rootfs_host_path("/l/x", true, &h), 0);
	path_of(R, "b/x", want, sizeof want);
	assert_string_equal(h.buf, want);

	/* A directory remembered, then replaced by a symlink (to elsewhere
	 * inside the root), and a missing one created: the next cache, or
	 * none, sees both. */
	assert_int_equal(rootfs_host_path("/dir/x", true, &h), 0);
	assert_int_equal(rootfs_host_path("/new/x", true, &h), -ENOENT);
	path_of(R, "dir", p, sizeof p);
	path_of(R, "dir.old", q, sizeof q);
	assert_int_equal(rename(p, q), 0);
	assert_int_equal(symlink("/b", p), 0);
	tu_write_str(R, "new/x", "new");
	rootfs_cache(true);
	assert_int_equal(rootfs_host_path("/dir/x", true, &h), 0);
	path_of(R, "b/x", want, sizeof want);
	assert_string_equal(h.buf, want);
	assert_int_equal(rootfs_host_path("/new/x", true, &h), 0);
	path_of(R, "new/x", want, sizeof want);
	assert_string_equal(h.buf, want);
	/* and back, now without a cache */
	rootfs_cache(false);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(rename(q, p), 0);
	assert_int_equal(rootfs_host_path("/dir/x", true, &h), 0);
	path_of(R, "dir/x", want, sizeof want);
	assert_string_equal(h.buf, want);

	/* A new root forgets what the old one had. */
	char *e = tu_mkdtemp();
	assert_non_null(e);
	tu_symlink(e, "usr", "/opt");
	tu_write_str(e, "opt/lib/x", "e");
	rootfs_cache(true);
	assert_int_equal(rootfs_host_path("/usr/lib/wsl/lib/libcuda.so.1", true, &h), 0);
	assert_int_equal(rootfs_set(e), 0);
	assert_int_equal(rootfs_host_path("/usr/lib/x", true, &h), 0);
	path_of(rootfs_root(), "opt/lib/x", want, sizeof want);
	assert_string_equal(h.buf, want);
	assert_int_equal(rootfs_host_path("/usr/lib/wsl/lib/libcuda.so.1", true, &h), -ENOENT);

	rootfs_cache(false);
	sb_release(&h);
	sb_release(&plain);
	sb_release(&cached);
	sb_release(&again);
	rootfs_set("/");
	tu_rmtree(d);
	tu_rmtree(e);
	free(d);
	free(e);
}

static void test_read_rules(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	assert_non_null(d);
	char fifo[2048];
	snprintf(fifo, sizeof fifo, "%s/etc/wsl.conf", d);
	tu_mkparents(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* Three lines, the second 3 MiB long. */
	struct strbuf big = STRBUF_INIT;
	sb_add(&big, "first\n");
	for (size_t i = 0; i < (3u << 20); i++)
		sb_addc(&big, 'x');
	sb_add(&big, "\nlast");
	tu_write(d, "proc/meminfo", big.buf, big.len);
	assert_int_equal(rootfs_set(d), 0);

	struct strbuf t = STRBUF_INIT;
	bool cut = true;
	double t0 = now_ms();
	assert_int_equal(rootfs_read("/etc/wsl.conf", 0, &t, &cut), -EINVAL);
	assert_true(now_ms() - t0 < 1000);
	assert_false(cut);
	assert_string_equal(rootfs_strerror(-EINVAL), "not a regular file");
	assert_int_equal(rootfs_read("/proc/meminfo", 1u << 20, &t, &cut), 0);
	assert_true(cut);
	assert_int_equal(t.len, 1u << 20);

	struct rootfs_lines l;
	assert_int_equal(rootfs_lines_open(&l, "/etc/wsl.conf"), -EINVAL);
	assert_int_equal(rootfs_lines_open(&l, "/proc/meminfo"), 0);
	assert_int_equal(rootfs_lines_next(&l), 1);
	assert_string_equal(l.line, "first");
	assert_int_equal(rootfs_lines_next(&l), 1);
	assert_int_equal(l.len, ROOTFS_LINE_MAX);
	assert_int_equal(l.cut_lines, 1);
	assert_int_equal(rootfs_lines_next(&l), 1);
	assert_string_equal(l.line, "last");
	assert_int_equal(l.lineno, 3);
	assert_int_equal(rootfs_lines_next(&l), 0);
	rootfs_lines_close(&l);

	/* Bounded in a child: the same answers. */
	assert_int_equal(rootfs_read_bounded("/etc/wsl.conf", 0, 2000, &t, &cut), -EINVAL);
	assert_int_equal(rootfs_read_bounded("/proc/meminfo", 1u << 20, 2000, &t, &cut), 0);
	assert_true(cut);
	assert_int_equal(t.len, 1u << 20);
	assert_int_equal(rootfs_read_bounded("/nope", 0, 2000, &t, &cut), -ENOENT);

	/* The real root: a character device (/dev/null) is refused too. */
	rootfs_set("/");
	assert_int_equal(rootfs_read("/dev/null", 0, &t, NULL), -EINVAL);
	sb_release(&t);
	sb_release(&big);
	tu_rmtree(d);
	free(d);
}

/* A step that never returns (a hung 9p read) is cut off at the limit. */
static int sleeper(void *arg, struct strbuf *out)
{
	(void)arg;
	sb_add(out, "never sent");
	sleep(30);
	return 0;
}

static int answerer(void *arg, struct strbuf *out)
{
	sb_add(out, (const char *)arg);
	return 42;
}

/* os-release(5): /etc/os-release first, /usr/lib/os-release without it. */
static void test_os_release(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	assert_non_null(d);
	tu_write_str(d, "usr/lib/os-release", "ID=debian\nPRETTY_NAME=\"Debian GNU/Linux 12\"\n");
	assert_int_equal(rootfs_set(d), 0);
	struct strbuf t = STRBUF_INIT, v = STRBUF_INIT;
	const char *path = NULL;
	assert_int_equal(os_release_read(&t, &path), 0);
	assert_string_equal(path, "/usr/lib/os-release");
	assert_int_equal(os_release_value("PRETTY_NAME", &v), 0);
	assert_string_equal(v.buf, "Debian GNU/Linux 12");
	tu_write_str(d, "etc/os-release", "ID=ubuntu\n");
	assert_int_equal(os_release_value("ID", &v), 0);
	assert_string_equal(v.buf, "ubuntu");
	assert_int_equal(os_release_value("VERSION_ID", &v), -1);
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
	sb_release(&t);
	sb_release(&v);
}

static void test_isolated(void **state)
{
	(void)state;
	struct strbuf out = STRBUF_INIT;
	double t0 = now_ms();
	assert_int_equal(rootfs_isolated(sleeper, NULL, 300, 0, &out), -ETIMEDOUT);
	double ms = now_ms() - t0;
	assert_true(ms >= 290 && ms < 2000);
	assert_int_equal(out.len, 0);
	assert_int_equal(rootfs_isolated(answerer, "hello", 2000, 0, &out), 42);
	assert_string_equal(out.buf, "hello");
	sb_release(&out);
}

static int count_pkg(const struct dpkg_pkg *p, void *arg)
{
	(void)p;
	++*(int *)arg;
	return 0;
}

/* dpkg's database is read once per process, whatever asks how often. */
static void test_dpkg_once(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	assert_non_null(d);
	tu_write_str(d, "var/lib/dpkg/info/libnvidia-compute-535:amd64.list",
		     "/.\n/usr\n/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01\n");
	tu_write_str(d, "var/lib/dpkg/info/nvidia-dkms-535.list",
		     "/usr/src/nvidia-535.183.01/Makefile\n/lib/modules/6.1/updates/dkms/nvidia.ko\n");
	tu_write_str(d, "var/lib/dpkg/status",
		     "Package: a\nStatus: install ok installed\n\nPackage: b\nStatus: install ok installed\n"
		     "Provides: x,\n y\n");
	tu_write_str(d, "proc/self/mountinfo",
		     "62 67 8:48 / / rw - ext4 /dev/sdd rw\njunk\n75 62 0:40 / /mnt/c rw - 9p C:\\134 rw,aname=drvfs\n"
		     "76 62 0:41 / /mnt/c rw - drvfs C: rw\n");
	tu_write_str(d, "proc/meminfo", "MemTotal: 16 kB\nSwapTotal: 0 kB\n");
	assert_int_equal(rootfs_set(d), 0);
	dpkg_index_reset();
	size_t before = dpkg_index_builds();
	assert_string_equal(dpkg_index_owner("/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01"),
			    "libnvidia-compute-535");
	assert_null(dpkg_index_owner("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
	assert_string_equal(dpkg_index_owner("/usr/src/nvidia-535.183.01/Makefile"), "nvidia-dkms-535");
	assert_int_equal(dpkg_index()->lists, 2);
	assert_int_equal(dpkg_index_builds(), before + 1);
	int seen = 0;
	dpkgstatus_reset();
	assert_int_equal(dpkgstatus_read_each(count_pkg, &seen, NULL), 0);
	assert_int_equal(dpkgstatus_read_each(count_pkg, &seen, NULL), 0);
	assert_int_equal(seen, 4);
	struct mountinfo mi;
	/* One entry per mount point: the last one listed, the one on top. */
	assert_int_equal(mountinfo_read("/proc/self/mountinfo", &mi), 2);
	assert_int_equal(mi.bad_lines, 1);
	assert_string_equal(mi.m[1].mount_point, "/mnt/c");
	assert_string_equal(mi.m[1].fstype, "drvfs");
	assert_int_equal(mi.m[1].line, 4);
	mountinfo_free(&mi);
	struct meminfo m;
	assert_int_equal(meminfo_read("/proc/meminfo", &m), 0);
	assert_true(m.mem_total == 16 * 1024);
	assert_int_equal(meminfo_read("/proc/nothing", &m), -ENOENT);
	dpkg_index_reset();
	dpkgstatus_reset();
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
}

struct seen_pkg {
	char name[16], version[16], arch[16];
	bool provides_p2, present;
	int line;
};

static int keep_seen(const struct dpkg_pkg *p, void *arg)
{
	struct seen_pkg *v = arg;
	while (v->line)
		v++;
	snprintf(v->name, sizeof v->name, "%.*s", (int)p->name.n, p->name.p);
	snprintf(v->version, sizeof v->version, "%.*s", (int)p->version.n,
		 p->version.p ? p->version.p : "");
	snprintf(v->arch, sizeof v->arch, "%.*s", (int)p->arch.n, p->arch.p ? p->arch.p : "");
	v->provides_p2 = dpkgstatus_provides(p, "p2");
	v->present = dpkgstatus_present(p);
	v->line = p->line;
	return 0;
}

/* The database as read: the kept fields, their continuation lines, and
 * the line a package begins at, whatever fields and lines around them
 * (a description, a leading stray continuation) are skipped. */
static void test_dpkg_fields(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	assert_non_null(d);
	tu_write_str(d, "var/lib/dpkg/status",
		     "Description: first\n more description\nPackage: c\nStatus: install ok installed\n"
		     "Depends: libc6\nDescription: x\n Provides: p9\nProvides: p1,\n p2\nVersion: 1.0\n"
		     "Architecture: amd64\n\n stray continuation\nPackage: d\nVersion: 2\nConffiles:\n"
		     " /etc/x abc\nstatus: deinstall ok config-files\n");
	assert_int_equal(rootfs_set(d), 0);
	dpkgstatus_reset();
	struct seen_pkg v[3];
	memset(v, 0, sizeof v);
	assert_int_equal(dpkgstatus_read_each(keep_seen, v, NULL), 0);
	assert_string_equal(v[0].name, "c");
	assert_int_equal(v[0].line, 1);
	assert_string_equal(v[0].version, "1.0");
	assert_string_equal(v[0].arch, "amd64");
	assert_true(v[0].provides_p2);
	assert_true(v[0].present);
	assert_string_equal(v[1].name, "d");
	assert_int_equal(v[1].line, 14);
	assert_string_equal(v[1].version, "2");
	assert_false(v[1].provides_p2);
	assert_false(v[1].present);
	assert_int_equal(v[2].line, 0);
	dpkgstatus_reset();
	rootfs_set("/");
	tu_rmtree(d);
	free(d);
}

/* A file viewed in place: mapped whole, cut at the cap (and said), an
 * empty one, a missing one; a /proc file (no size to map) is read. */
static void test_view(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	assert_non_null(d);
	tu_write_str(d, "var/lib/dpkg/status", "Package: a\nStatus: install ok installed\n");
	tu_write_str(d, "empty", "");
	assert_int_equal(rootfs_set(d), 0);
	struct rootfs_view v;
	bool cut = true;
	assert_int_equal(rootfs_view("/var/lib/dpkg/status", 0, &v, &cut), 0);
	assert_false(cut);
	assert_int_equal(v.n, 40);
	assert_memory_equal(v.p, "Package: a\nStatus: install ok installed\n", 40);
	rootfs_view_release(&v);
	assert_int_equal(rootfs_view("/var/lib/dpkg/status", 7, &v, &cut), 0);
	assert_true(cut);
	assert_int_equal(v.n, 7);
	assert_memory_equal(v.p, "Package", 7);
	rootfs_view_release(&v);
	assert_int_equal(rootfs_view("/empty", 0, &v, &cut), 0);
	assert_false(cut);
	assert_int_equal(v.n, 0);
	rootfs_view_release(&v);
	assert_int_equal(rootfs_view("/missing", 0, &v, NULL), -ENOENT);
	assert_string_equal(v.p, "");
	rootfs_view_release(&v);
	assert_int_equal(rootfs_view("/var/lib", 0, &v, NULL), -EISDIR); /* as rootfs_read */
	rootfs_view_release(&v);
	rootfs_set("/");
	assert_int_equal(rootfs_view("/proc/self/status", 0, &v, NULL), 0);
	assert_null(v.map);
	assert_true(v.n > 0 && memmem(v.p, v.n, "Pid:", 4));
	rootfs_view_release(&v);
	tu_rmtree(d);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_normalize), cmocka_unit_test(test_path_parts),
		cmocka_unit_test(test_real_root),      cmocka_unit_test(test_fixture_root),
		cmocka_unit_test(test_read_rules),     cmocka_unit_test(test_isolated), cmocka_unit_test(test_os_release),
		cmocka_unit_test(test_dpkg_fields),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_dpkg_once),
		cmocka_unit_test(test_dir_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
