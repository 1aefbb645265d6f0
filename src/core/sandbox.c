/* sandbox.c: what vendor code may not do to this machine. See sandbox.h. */
#include "sandbox.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "result.h"
#include "rootfs.h"

/* ---- the filter ---- */

#if defined(__x86_64__)
#define SB_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SB_ARCH AUDIT_ARCH_AARCH64
#endif

#ifdef SB_ARCH
/* Syscalls that change files, answered EROFS. Those an ABI lacks (aarch64
 * has no open, mkdir, unlink, ...: only the *at forms) are left out. */
static const int sb_erofs[] = {
#ifdef __NR_creat
	__NR_creat,
#endif
#ifdef __NR_mkdir
	__NR_mkdir,
#endif
	__NR_mkdirat,
#ifdef __NR_rmdir
	__NR_rmdir,
#endif
#ifdef __NR_unlink
	__NR_unlink,
#endif
	__NR_unlinkat,
#ifdef __NR_rename
	__NR_rename,
#endif
#ifdef __NR_renameat
	__NR_renameat,
#endif
#ifdef __NR_renameat2
	__NR_renameat2,
#endif
#ifdef __NR_link
	__NR_link,
#endif
	__NR_linkat,
#ifdef __NR_symlink
	__NR_symlink,
#endif
	__NR_symlinkat,
#ifdef __NR_chmod
	__NR_chmod,
#endif
	__NR_fchmod,
	__NR_fchmodat,
#ifdef __NR_fchmodat2
	__NR_fchmodat2,
#endif
#ifdef __NR_chown
	__NR_chown,
#endif
#ifdef __NR_lchown
	__NR_lchown,
#endif
	__NR_fchown,
	__NR_fchownat,
	__NR_truncate,
#ifdef __NR_utime
	__NR_utime,
#endif
#ifdef __NR_utimes
	__NR_utimes,
#endif
#ifdef __NR_futimesat
	__NR_futimesat,
#endif
	__NR_utimensat,
	__NR_setxattr,
	__NR_lsetxattr,
	__NR_fsetxattr,
	__NR_removexattr,
	__NR_lremovexattr,
	__NR_fremovexattr,
};

/* Device nodes, mounts, kernel modules: EPERM, as without the capability. */
static const int sb_eperm[] = {
#ifdef __NR_mknod
	__NR_mknod,
#endif
	__NR_mknodat,
	__NR_mount,
	__NR_umount2,
	__NR_pivot_root,
#ifdef __NR_open_tree
	__NR_open_tree,
#endif
#ifdef __NR_move_mount
	__NR_move_mount,
#endif
#ifdef __NR_fsopen
	__NR_fsopen,
#endif
#ifdef __NR_fsmount
	__NR_fsmount,
#endif
#ifdef __NR_mount_setattr
	__NR_mount_setattr,
#endif
	__NR_init_module,
	__NR_finit_module,
	__NR_delete_module,
};

#define ARG_LO(n) (offsetof(struct seccomp_data, args) + (n) * sizeof(__u64))
#define NSB(a) (sizeof(a) / sizeof((a)[0]))
enum { MAXF = 128 };
_Static_assert(NSB(sb_erofs) + NSB(sb_eperm) + 20 <= MAXF, "the filter outgrew its array");
#endif

int sandbox_enter(enum sandbox_scope scope, struct strbuf *why)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		int e = errno;
		if (why)
			sb_addf(why, "no_new_privs: %s", strerror(e));
		return -e;
	}
#ifdef SB_ARCH
	struct sock_filter f[MAXF];
	size_t n = 0;
#define PUT(code, k, jt, jf) (f[n++] = (struct sock_filter)BPF_JUMP(code, k, jt, jf))
	/* Another ABI (a 32-bit program, x32): refused whole. */
	PUT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch), 0, 0);
	PUT(BPF_JMP | BPF_JEQ | BPF_K, SB_ARCH, 1, 0);
	PUT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS, 0, 0);
	PUT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr), 0, 0);
#ifdef __x86_64__
	PUT(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1); /* __X32_SYSCALL_BIT */
	PUT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS, 0, 0);
#endif
	/* Jumps forward to the three answers at the end: the offset from the
	 * instruction after the jump is filled in below. */
	size_t to_erofs[NSB(sb_erofs) + 4], to_eperm[NSB(sb_eperm)], to_enosys[2];
	size_t ne = 0, np = 0, nn = 0;
	for (size_t i = 0; i < NSB(sb_eperm); i++) {
		to_eperm[np++] = n;
		PUT(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)sb_eperm[i], 0, 0);
	}
	if (scope == SANDBOX_COMMAND) {
		/* A command may write files: a shell's >/dev/null is an open
		 * with O_CREAT | O_TRUNC, which the filter cannot tell from
		 * creating a file (it sees flags, not paths). */
		PUT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
		goto answers;
	}
	for (size_t i = 0; i < NSB(sb_erofs); i++) {
		to_erofs[ne++] = n;
		PUT(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)sb_erofs[i], 0, 0);
	}
#ifdef __NR_openat2
	/* Its flags are in memory, out of the filter's reach: callers fall
	 * back to openat on ENOSYS, as on kernels before 5.6. */
	to_enosys[nn++] = n;
	PUT(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 0, 0);
#endif
	/* open(path, flags) and openat(dirfd, path, flags): O_CREAT or
	 * O_TRUNC changes a file; any other open is allowed. */
#ifdef __NR_open
	PUT(BPF_JMP | BPF_JEQ | BPF_K, __NR_open, 0, 3);
	PUT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(1), 0, 0);
	to_erofs[ne++] = n;
	PUT(BPF_JMP | BPF_JSET | BPF_K, O_CREAT | O_TRUNC, 0, 0);
	PUT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
#endif
	PUT(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 3);
	PUT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(2), 0, 0);
	to_erofs[ne++] = n;
	PUT(BPF_JMP | BPF_JSET | BPF_K, O_CREAT | O_TRUNC, 0, 0);
	PUT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
	PUT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0); /* every other syscall */
answers:;
	size_t erofs = n;
	PUT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EROFS, 0, 0);
	size_t eperm = n;
	PUT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM, 0, 0);
	size_t enosys = n;
	PUT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS, 0, 0);
#undef PUT
	for (size_t i = 0; i < ne; i++)
		f[to_erofs[i]].jt = (unsigned char)(erofs - to_erofs[i] - 1);
	for (size_t i = 0; i < np; i++)
		f[to_eperm[i]].jt = (unsigned char)(eperm - to_eperm[i] - 1);
	for (size_t i = 0; i < nn; i++)
		f[to_enosys[i]].jt = (unsigned char)(enosys - to_enosys[i] - 1);
	struct sock_fprog prog = { (unsigned short)n, f };
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0) {
		int e = errno;
		if (why)
			sb_addf(why, "seccomp filter: %s", strerror(e));
		return -e;
	}
	return 0;
#else
	if (why)
		sb_add(why, "no seccomp filter for this architecture");
	return -ENOSYS;
#endif
}

/* ---- what changed in /dev ---- */

/*
 * Watched around every vendor check, in a fresh fork: listing /dev there
 * each time cost 5-10 ms of CPU under AddressSanitizer (each page the
 * allocator touches is copied). The directory itself says whether it
 * changed: creating, removing or renaming an entry updates its mtime and
 * ctime (and on devtmpfs, a tmpfs, its size); only then is it listed, for
 * the entries whose ctime is not older than the mark (new, or changed).
 */
void sandbox_dir_mark(const char *dir, struct sandbox_mark *m)
{
	memset(m, 0, sizeof *m);
	m->known = stat(dir, &m->st) == 0;
	clock_gettime(CLOCK_REALTIME_COARSE, &m->since);
}

static bool same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

static const char *type_of(const struct stat *st, char *buf, size_t n)
{
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		snprintf(buf, n, "%s %u:%u", S_ISCHR(st->st_mode) ? "character device" : "block device",
			 major(st->st_rdev), minor(st->st_rdev));
	else
		snprintf(buf, n, "%s", rootfs_mode_name(st->st_mode));
	return buf;
}

bool sandbox_dir_changes(const char *dir, const struct sandbox_mark *m, struct strbuf *out)
{
	sb_reset(out);
	struct stat now;
	if (!m->known || stat(dir, &now) < 0)
		return false;
	if (now.st_ino == m->st.st_ino && now.st_size == m->st.st_size &&
	    now.st_nlink == m->st.st_nlink && same_time(now.st_mtim, m->st.st_mtim) &&
	    same_time(now.st_ctim, m->st.st_ctim))
		return false;
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			struct stat st;
			char type[64];
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
			    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			if (st.st_ctim.tv_sec < m->since.tv_sec ||
			    (st.st_ctim.tv_sec == m->since.tv_sec && st.st_ctim.tv_nsec < m->since.tv_nsec))
				continue;
			sb_addf(out, "%s%s/%s (%s)", out->len ? "; " : "", dir, e->d_name,
				type_of(&st, type, sizeof type));
		}
		closedir(d);
	}
	if (!out->len)
		sb_addf(out, "an entry of %s was removed or renamed", dir);
	return true;
}

static bool child_entered;
static struct strbuf child_failed = STRBUF_INIT;
static struct sandbox_mark dev_mark;

static bool child_armed;

void sandbox_child_begin(void)
{
	child_armed = true;
	sandbox_dir_mark("/dev", &dev_mark);
}

void sandbox_before_vendor_code(void)
{
	if (child_armed && !child_entered) {
		child_entered = true;
		sb_reset(&child_failed);
		sandbox_enter(SANDBOX_VENDOR, &child_failed);
	}
}

void sandbox_child_end(struct result *r)
{
	struct strbuf diff = STRBUF_INIT;
	if (sandbox_dir_changes("/dev", &dev_mark, &diff))
		res_ev(r, "dev_changed", "while this check ran, on this machine: %s", diff.buf);
	if (child_failed.len)
		res_ev(r, "sandbox", "vendor code ran unconfined (%s): it could change this "
				     "machine", child_failed.buf);
	sb_release(&diff);
}

/* ---- commands of the described machine ---- */

/* What a program needs the kernel to start first: 1 an ELF loader
 * (PT_INTERP of a 64-bit ELF), 2 a script's interpreter (after "#!"), with
 * its path in out; 0 nothing (a static ELF); -1 cannot tell. */
static int interpreter_of(const char *host, struct strbuf *out)
{
	sb_reset(out);
	int fd = open(host, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	unsigned char b[256];
	ssize_t got = read(fd, b, sizeof b);
	int rc = -1;
	if (got >= 2 && b[0] == '#' && b[1] == '!') {
		size_t i = 2, end = (size_t)got;
		while (i < end && (b[i] == ' ' || b[i] == '\t'))
			i++;
		size_t s = i;
		while (i < end && b[i] != ' ' && b[i] != '\t' && b[i] != '\n')
			i++;
		if (i > s && b[s] == '/' && i < end) {
			sb_addn(out, b + s, i - s);
			rc = 2;
		}
	} else if (got >= (ssize_t)sizeof(Elf64_Ehdr) && !memcmp(b, ELFMAG, SELFMAG) &&
		   b[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr eh;
		memcpy(&eh, b, sizeof eh);
		rc = 0;
		for (unsigned i = 0; i < eh.e_phnum && i < 256 && rc == 0; i++) {
			Elf64_Phdr ph;
			off_t at = (off_t)eh.e_phoff + (off_t)i * eh.e_phentsize;
			char path[4096];
			if (eh.e_phentsize < sizeof ph ||
			    pread(fd, &ph, sizeof ph, at) != (ssize_t)sizeof ph)
				rc = -1;
			else if (ph.p_type != PT_INTERP)
				continue;
			else if (ph.p_filesz < 2 || ph.p_filesz > sizeof path ||
				 pread(fd, path, ph.p_filesz, (off_t)ph.p_offset) !=
					 (ssize_t)ph.p_filesz)
				rc = -1;
			else {
				path[ph.p_filesz - 1] = '\0';
				sb_add(out, path);
				rc = path[0] == '/' ? 1 : -1;
			}
		}
	}
	close(fd);
	return rc;
}

/* Whether the root has what the program at host path host needs to start:
 * its loader, or its script interpreter and that one's loader (one level,
 * as every #! program we run has). Else says what is missing in why. */
static bool root_can_start(const char *host, struct strbuf *why)
{
	struct strbuf want = STRBUF_INIT, at = STRBUF_INIT;
	bool ok = false;
	sb_add(&at, host);
	for (int depth = 0; depth < 2; depth++) {
		int k = interpreter_of(at.buf, &want);
		if (k == 0) {
			ok = true; /* static */
			break;
		}
		if (k < 0) {
			sb_add(why, "this tool cannot tell what it needs to start");
			break;
		}
		struct strbuf wh = STRBUF_INIT;
		struct stat st;
		bool there = rootfs_host_path(want.buf, true, &wh) == 0 && stat(wh.buf, &st) == 0 &&
			     S_ISREG(st.st_mode);
		if (!there)
			sb_addf(why, "the described machine has no %s", want.buf);
		sb_reset(&at);
		sb_add(&at, sb_str(&wh));
		sb_release(&wh);
		if (!there)
			break;
		if (k == 1) {
			ok = true; /* its loader is there */
			break;
		}
	}
	if (!ok && !why->len)
		sb_add(why, "its interpreter is a script too");
	sb_release(&want);
	sb_release(&at);
	return ok;
}

/* Enters a chroot of dir: as root directly; otherwise in a user namespace
 * of our own (mapping our own ids, so files keep their owners). */
static int enter_root(const char *dir)
{
	if (geteuid() != 0) {
		uid_t uid = geteuid();
		gid_t gid = getegid();
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			return -errno;
		char map[64];
		int fd = open("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			ssize_t w = write(fd, "deny", 4);
			(void)w;
			close(fd);
		}
		static const char *const files[] = { "/proc/self/uid_map", "/proc/self/gid_map" };
		for (int i = 0; i < 2; i++) {
			int len = snprintf(map, sizeof map, "%u %u 1\n", i ? (unsigned)gid : (unsigned)uid,
					   i ? (unsigned)gid : (unsigned)uid);
			fd = open(files[i], O_WRONLY | O_CLOEXEC);
			if (fd < 0)
				return -errno;
			ssize_t w = write(fd, map, (size_t)len);
			int e = errno;
			close(fd);
			if (w != len)
				return -(w < 0 ? e : EIO);
		}
	}
	if (chroot(dir) < 0)
		return -errno;
	return 0;
}

/* Whether this process may chroot (root with CAP_SYS_CHROOT, or a user
 * with user namespaces): tried once, in a child. */
static bool may_chroot(void)
{
	static int known = -1;
	if (known >= 0)
		return known;
	pid_t pid = fork();
	if (pid == 0)
		_exit(enter_root("/") == 0 ? 0 : 1);
	int status = 0;
	known = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		WEXITSTATUS(status) == 0;
	return known;
}

void sandbox_cmd_plan(const char *prog, struct sandbox_cmd *c)
{
	memset(c, 0, sizeof *c);
	sb_init(&c->root);
	sb_init(&c->path);
	sb_init(&c->cwd);
	sb_init(&c->here);
	if (rootfs_is_real())
		return;
	if (rootfs_guest_path(prog, &c->path) < 0) {
		sb_add(&c->here, "it is a program of this machine, not of the described one");
		return;
	}
	if (!root_can_start(prog, &c->here))
		return;
	if (!may_chroot()) {
		sb_reset(&c->here);
		sb_add(&c->here, "this user may not chroot (no user namespaces)");
		return;
	}
	sb_add(&c->root, rootfs_root());
	if (rootfs_cwd(&c->cwd) < 0 || !c->cwd.len)
		sb_add(&c->cwd, "/");
	c->chroot = true;
}

const char *sandbox_cmd_enter(const struct sandbox_cmd *c, const char *prog)
{
	const char *path = prog;
	if (c->chroot) {
		int rc = enter_root(c->root.buf);
		if (rc == 0 && chdir(c->cwd.buf) < 0 && chdir("/") < 0)
			rc = -errno;
		if (rc < 0) {
			errno = -rc;
			return NULL;
		}
		path = c->path.buf;
	}
	sandbox_enter(SANDBOX_COMMAND, NULL);
	return path;
}

void sandbox_cmd_release(struct sandbox_cmd *c)
{
	sb_release(&c->root);
	sb_release(&c->path);
	sb_release(&c->cwd);
	sb_release(&c->here);
}
