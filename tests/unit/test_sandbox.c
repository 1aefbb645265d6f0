/*
 * test_sandbox.c: the filter vendor code runs under (src/core/sandbox.c):
 * in a child that entered it, creating, removing, renaming or changing a
 * file answers EROFS and mknod EPERM, while opening existing files (also
 * for writing) still works; what changed in /dev since a mark; and where a
 * command of a described machine runs (chrooted when the root can start
 * it, here with the reason otherwise).
 */
#include "testutil.h"

#include <elf.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "core/rootfs.h"
#include "core/sandbox.h"
#include "core/strbuf.h"

/* Each attempt in the sandboxed child: the errno it must answer (0: works). */
enum { T_CREAT, T_TRUNC, T_MKDIR, T_UNLINK, T_RENAME, T_CHMOD, T_SYMLINK, T_MKNOD, T_READ,
       T_RDWR, T_N };

static int attempt(const char *dir, int what)
{
	char a[4200], b[4200];
	snprintf(a, sizeof a, "%s/existing", dir);
	snprintf(b, sizeof b, "%s/new", dir);
	int rc = 0, fd = -1;
	switch (what) {
	case T_CREAT:
		rc = fd = open(b, O_WRONLY | O_CREAT, 0644);
		break;
	case T_TRUNC:
		rc = fd = open(a, O_WRONLY | O_TRUNC);
		break;
	case T_MKDIR:
		rc = fd = mkdir(b, 0755);
		break;
	case T_UNLINK:
		rc = fd = unlink(a);
		break;
	case T_RENAME:
		rc = fd = rename(a, b);
		break;
	case T_CHMOD:
		rc = fd = chmod(a, 0600);
		break;
	case T_SYMLINK:
		rc = fd = symlink(a, b);
		break;
	case T_MKNOD:
		rc = fd = mknod(b, S_IFIFO | 0600, 0);
		break;
	case T_READ:
		rc = fd = open(a, O_RDONLY);
		break;
	case T_RDWR:
		rc = fd = open(a, O_RDWR);
		break;
	}
	if (rc >= 0 && (what == T_CREAT || what == T_TRUNC || what == T_READ || what == T_RDWR))
		close(fd);
	return rc < 0 ? errno : 0;
}

static void test_filter(void **state)
{
	(void)state;
	static const int want[T_N] = { EROFS, EROFS, EROFS, EROFS, EROFS, EROFS, EROFS, EPERM, 0, 0 };
	char *dir = tu_mkdtemp();
	assert_non_null(dir);
	tu_write_str(dir, "existing", "keep me\n");
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		int got[T_N + 1];
		got[T_N] = sandbox_enter(SANDBOX_VENDOR, NULL);
		for (int i = 0; i < T_N; i++)
			got[i] = attempt(dir, i);
		ssize_t w = write(p[1], got, sizeof got);
		_exit(w == (ssize_t)sizeof got ? 0 : 1);
	}
	close(p[1]);
	int got[T_N + 1];
	assert_int_equal(read(p[0], got, sizeof got), (ssize_t)sizeof got);
	close(p[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(got[T_N], 0);
	for (int i = 0; i < T_N; i++)
		if (got[i] != want[i])
			fail_msg("attempt %d answered %s, expected %s", i, strerror(got[i]),
				 strerror(want[i]));
	/* Nothing changed on disk. */
	struct stat st;
	char path[4200];
	snprintf(path, sizeof path, "%s/new", dir);
	assert_int_equal(lstat(path, &st), -1);
	snprintf(path, sizeof path, "%s/existing", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 8);
	assert_int_equal(st.st_mode & 0777, 0644);
	tu_rmtree(dir);
	free(dir);
}

/* A command's filter: a shell's >/dev/null (O_CREAT | O_TRUNC) and a file
 * of its own work; a device node does not. */
static void test_filter_command(void **state)
{
	(void)state;
	char *dir = tu_mkdtemp();
	assert_non_null(dir);
	tu_write_str(dir, "existing", "keep me\n");
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		int got[4];
		got[0] = sandbox_enter(SANDBOX_COMMAND, NULL);
		int fd = open("/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
		got[1] = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		got[2] = attempt(dir, T_CREAT);
		got[3] = attempt(dir, T_MKNOD);
		ssize_t w = write(p[1], got, sizeof got);
		_exit(w == (ssize_t)sizeof got ? 0 : 1);
	}
	close(p[1]);
	int got[4];
	assert_int_equal(read(p[0], got, sizeof got), (ssize_t)sizeof got);
	close(p[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(got[0], 0);
	assert_int_equal(got[1], 0);
	assert_int_equal(got[2], 0);
	/* T_MKNOD after T_CREAT made "new": EPERM comes before EEXIST. */
	assert_int_equal(got[3], EPERM);
	tu_rmtree(dir);
	free(dir);
}

static void test_dir_changes(void **state)
{
	(void)state;
	char *dir = tu_mkdtemp();
	assert_non_null(dir);
	tu_write_str(dir, "a", "");
	tu_write_str(dir, "gone", "");
	usleep(20 * 1000); /* past the coarse clock's tick of the writes above */
	struct sandbox_mark m;
	struct strbuf out = STRBUF_INIT;
	sandbox_dir_mark(dir, &m);
	assert_true(m.known);
	assert_false(sandbox_dir_changes(dir, &m, &out));
	assert_int_equal(out.len, 0);
	/* A new entry is named with its type; the old ones are not. */
	char path[4200];
	snprintf(path, sizeof path, "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_true(sandbox_dir_changes(dir, &m, &out));
	char want[4300];
	snprintf(want, sizeof want, "%s/fifo (a FIFO)", dir);
	assert_string_equal(out.buf, want);
	/* Only a removal: said as such. */
	unlink(path);
	sandbox_dir_mark(dir, &m);
	usleep(20 * 1000);
	snprintf(path, sizeof path, "%s/gone", dir);
	assert_int_equal(unlink(path), 0);
	assert_true(sandbox_dir_changes(dir, &m, &out));
	assert_non_null(strstr(out.buf, "was removed or renamed"));
	/* A directory that cannot be read tells nothing. */
	sandbox_dir_mark("/nonexistent-dir", &m);
	assert_false(m.known);
	assert_false(sandbox_dir_changes("/nonexistent-dir", &m, &out));
	sb_release(&out);
	tu_rmtree(dir);
	free(dir);
}

/* Where a command of a fixture root runs: a #!/bin/sh script in a root
 * without /bin/sh runs here, and says why; on the real root nothing is
 * said. */
static void test_cmd_plan(void **state)
{
	(void)state;
	struct sandbox_cmd c;
	assert_int_equal(rootfs_set("/"), 0);
	sandbox_cmd_plan("/bin/sh", &c);
	assert_false(c.chroot);
	assert_int_equal(c.here.len, 0);
	sandbox_cmd_release(&c);

	char *dir = tu_mkdtemp();
	assert_non_null(dir);
	tu_write_str(dir, "usr/bin/tool", "#!/bin/sh\necho hi\n");
	tu_write_str(dir, "usr/bin/elf", "\177ELF");
	assert_int_equal(rootfs_set(dir), 0);
	char host[4200];
	snprintf(host, sizeof host, "%s/usr/bin/tool", dir);
	sandbox_cmd_plan(host, &c);
	assert_false(c.chroot);
	assert_string_equal(c.path.buf, "/usr/bin/tool");
	assert_string_equal(c.here.buf, "the described machine has no /bin/sh");
	sandbox_cmd_release(&c);
	/* Its interpreter there: it may run in the root (where this user may
	 * chroot), and would be started as /usr/bin/tool. */
	Elf64_Ehdr eh = { .e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64 } };
	tu_write(dir, "bin/sh", &eh, sizeof eh); /* an ELF with no loader: static */
	sandbox_cmd_plan(host, &c);
	assert_true(c.chroot || strstr(c.here.buf, "chroot"));
	sandbox_cmd_release(&c);
	/* A program of this machine (outside the root) runs here. */
	sandbox_cmd_plan("/bin/sh", &c);
	assert_false(c.chroot);
	assert_non_null(strstr(c.here.buf, "program of this machine"));
	sandbox_cmd_release(&c);
	/* Truncated ELF: what it needs cannot be told. */
	snprintf(host, sizeof host, "%s/usr/bin/elf", dir);
	sandbox_cmd_plan(host, &c);
	assert_false(c.chroot);
	assert_non_null(strstr(c.here.buf, "cannot tell"));
	sandbox_cmd_release(&c);
	assert_int_equal(rootfs_set("/"), 0);
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_filter_command),
		cmocka_unit_test(test_dir_changes),
		cmocka_unit_test(test_cmd_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
