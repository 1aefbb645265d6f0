/* atomicfile.c: temp file + fsync + rename, or a write-through (see atomicfile.h). */
#include "atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Symlink hops followed, as the kernel's MAXSYMLINKS. */
#define MAX_LINKS 40
/* Temporary files that may exist at once (a bundle and a few outputs). */
#define MAX_LIVE 8

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m)) return "a directory";
	if (S_ISBLK(m)) return "a block device";
	if (S_ISSOCK(m)) return "a socket";
	return "not a regular file";
}

/* The descriptor (1 or 2) that is already the file st describes, or -1. */
static int same_as_std(const struct stat *st)
{
	for (int fd = 1; fd <= 2; fd++) {
		struct stat s;
		if (fstat(fd, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
			return fd;
	}
	return -1;
}

/* ---- the temporary files that exist, removed by a signal that ends us ---- */

static struct {
	volatile sig_atomic_t used;
	int dirfd;
	char name[NAME_MAX + 1];
} live[MAX_LIVE];
static int nlive;
/* The process that made them: a forked child that inherits the handler
 * (a reading child of report) removes nothing of its parent's. */
static volatile pid_t live_pid;
/* The signals that end the tool by default; while a temporary file exists
 * they get on_fatal. A handler someone else installed (the runner's,
 * bench's: they end the run themselves and the writer then finishes or
 * aborts) is left alone, and so is an ignored SIGHUP (nohup) or SIGPIPE;
 * an ignored SIGINT is not (a shell starts background commands so, and
 * `kill -INT` ends them as it ends a run: src/core/interrupt.c). */
static const int fatal_signals[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction saved[NFATAL];
static bool installed[NFATAL];

static void on_fatal(int sig)
{
	for (int i = 0; i < MAX_LIVE && getpid() == live_pid; i++)
		if (live[i].used)
			unlinkat(live[i].dirfd, live[i].name, 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void block_fatal(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t k = 0; k < NFATAL; k++)
		sigaddset(&set, fatal_signals[k]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static int live_add(int dirfd, const char *name)
{
	sigset_t old;
	block_fatal(&old);
	int slot = -1;
	for (int i = 0; i < MAX_LIVE && slot < 0; i++)
		if (!live[i].used)
			slot = i;
	if (slot >= 0) {
		live[slot].dirfd = dirfd;
		snprintf(live[slot].name, sizeof live[slot].name, "%s", name);
		live[slot].used = 1;
		live_pid = getpid();
		if (nlive++ == 0) {
			for (size_t k = 0; k < NFATAL; k++) {
				struct sigaction sa;
				memset(&sa, 0, sizeof sa);
				sigaction(fatal_signals[k], NULL, &saved[k]);
				bool ign_kept = fatal_signals[k] == SIGHUP || fatal_signals[k] == SIGPIPE;
				installed[k] = saved[k].sa_handler == SIG_DFL ||
					       (saved[k].sa_handler == SIG_IGN && !ign_kept);
				if (!installed[k])
					continue;
				sa.sa_handler = on_fatal;
				sigemptyset(&sa.sa_mask);
				sigaction(fatal_signals[k], &sa, NULL);
			}
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return slot;
}

static void live_remove(int slot)
{
	if (slot < 0)
		return;
	sigset_t old;
	block_fatal(&old);
	live[slot].used = 0;
	if (--nlive == 0)
		for (size_t k = 0; k < NFATAL; k++)
			if (installed[k]) {
				sigaction(fatal_signals[k], &saved[k], NULL);
				installed[k] = false;
			}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- resolving the path ---- */

/*
 * The kernel's fs.protected_symlinks rule (Documentation/admin-guide/
 * sysctl/fs.rst): a link in a sticky world-writable directory (/tmp) is
 * followed only by its owner, or when the directory's owner owns the link.
 * Applied here to every link of the path, so that it holds where the sysctl
 * is off (a container, an old kernel) and a link another user planted in
 * /tmp never makes us replace or create a file elsewhere.
 */
static bool link_allowed(int dirfd, const struct stat *link)
{
	struct stat d;
	if (fstat(dirfd, &d) < 0)
		return false;
	if (!(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH))
		return true;
	return link->st_uid == geteuid() || link->st_uid == d.st_uid;
}

/* Moves the first component of *rest (a path, slashes collapsed) to comp. */
static bool next_component(struct strbuf *rest, struct strbuf *comp)
{
	size_t i = 0;
	while (i < rest->len && rest->buf[i] == '/')
		i++;
	size_t s = i;
	while (i < rest->len && rest->buf[i] != '/')
		i++;
	sb_reset(comp);
	sb_addn(comp, rest->buf + s, i - s);
	struct strbuf t = STRBUF_INIT;
	sb_addn(&t, rest->buf + i, rest->len - i);
	sb_release(rest);
	*rest = t;
	return comp->len > 0;
}

static bool only_slashes(const struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++)
		if (sb->buf[i] != '/')
			return false;
	return true;
}

/*
 * Walks path one component at a time with O_PATH descriptors, following
 * links as open(2) would, under the rule above. On success af->dirfd is
 * the directory that holds the file, af->name its name there, af->target
 * the path for messages; *st is the file (not a link) when *exists.
 * A walk by descriptors cannot be raced: a directory swapped for a link
 * after it was looked at is not followed.
 */
static int resolve(struct atomic_file *af, const char *path, struct stat *st, bool *exists,
		   struct strbuf *err)
{
	struct strbuf rest = STRBUF_INIT, comp = STRBUF_INIT, shown = STRBUF_INIT;
	int links = 0, rc = -1;
	int cur = open(path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0) {
		sb_addf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	sb_add(&rest, path);
	if (path[0] == '/')
		sb_add(&shown, "/");
	*exists = false;
	for (;;) {
		if (!next_component(&rest, &comp)) {
			/* "/", ".", "dir/": a directory, never a file to replace */
			sb_addf(err, "%s: is a directory; refusing to replace it", path);
			goto out;
		}
		bool last = only_slashes(&rest);
		bool dir_wanted = !last || rest.len > 0; /* "name/" must be a directory */
		struct stat lst;
		if (fstatat(cur, comp.buf, &lst, AT_SYMLINK_NOFOLLOW) < 0) {
			int e = errno;
			if (e == ENOENT && last && !dir_wanted) {
				rc = 0;
				break;
			}
			sb_addf(err, "%s: %s%s: %s", path, shown.buf, comp.buf, strerror(e));
			goto out;
		}
		if (S_ISLNK(lst.st_mode)) {
			if (!link_allowed(cur, &lst)) {
				sb_addf(err, "%s: refusing to follow the symbolic link %s%s: it is in a "
					     "world-writable sticky directory and belongs to another user "
					     "(uid %lu)", path, shown.buf, comp.buf,
					(unsigned long)lst.st_uid);
				goto out;
			}
			if (++links > MAX_LINKS) {
				sb_addf(err, "%s: %s", path, strerror(ELOOP));
				goto out;
			}
			char buf[PATH_MAX];
			ssize_t n = readlinkat(cur, comp.buf, buf, sizeof buf - 1);
			if (n <= 0) {
				sb_addf(err, "%s: %s%s: %s", path, shown.buf, comp.buf,
					n < 0 ? strerror(errno) : "an empty symbolic link");
				goto out;
			}
			buf[n] = '\0';
			struct strbuf t = STRBUF_INIT;
			sb_add(&t, buf);
			sb_addc(&t, '/');
			sb_addn(&t, rest.buf, rest.len);
			if (!dir_wanted) /* the link is the file: no trailing slash to demand a directory */
				while (t.len > 1 && t.buf[t.len - 1] == '/')
					t.buf[--t.len] = '\0';
			sb_release(&rest);
			rest = t;
			if (buf[0] == '/') {
				int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
				if (root < 0) {
					sb_addf(err, "%s: /: %s", path, strerror(errno));
					goto out;
				}
				close(cur);
				cur = root;
				sb_reset(&shown);
				sb_add(&shown, "/");
			}
			continue;
		}
		if (last && !dir_wanted) {
			*st = lst;
			*exists = true;
			rc = 0;
			break;
		}
		if (!S_ISDIR(lst.st_mode)) {
			sb_addf(err, "%s: %s%s: %s", path, shown.buf, comp.buf, strerror(ENOTDIR));
			goto out;
		}
		if (last) { /* "dir/" */
			sb_addf(err, "%s: is a directory; refusing to replace it", path);
			goto out;
		}
		int next = openat(cur, comp.buf, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			sb_addf(err, "%s: %s%s: %s", path, shown.buf, comp.buf, strerror(errno));
			goto out;
		}
		close(cur);
		cur = next;
		sb_addn(&shown, comp.buf, comp.len);
		sb_addc(&shown, '/');
	}
	af->dirfd = cur;
	af->name = xstrdup(comp.buf);
	af->target = xasprintf("%s%s", shown.buf, comp.buf);
	cur = -1;
out:
	if (cur >= 0)
		close(cur);
	sb_release(&rest);
	sb_release(&comp);
	sb_release(&shown);
	return rc;
}

static void af_clear(struct atomic_file *af)
{
	live_remove(af->live);
	if (af->dirfd >= 0)
		close(af->dirfd);
	free(af->path);
	free(af->target);
	free(af->tmp);
	free(af->name);
	free(af->tmpname);
	af->path = af->target = af->tmp = af->name = af->tmpname = NULL;
	af->fd = af->dirfd = af->live = -1;
	af->through = af->borrowed = false;
}

/* Opens a device or FIFO (already looked at: not a link) to write through. */
static int open_through(struct atomic_file *af, struct strbuf *err)
{
	/* O_NONBLOCK: a FIFO nobody reads is an error now, not a hang. */
	int fd = openat(af->dirfd, af->name,
			O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0) {
		if (errno == ENXIO)
			sb_addf(err, "%s: a FIFO that no process is reading", af->path);
		else
			sb_addf(err, "%s: %s", af->path, strerror(errno));
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	af->fd = fd;
	af->through = true;
	return fd;
}

/* The process's umask, which umask(2) reads only by setting it. */
static mode_t current_umask(void)
{
	mode_t u = umask(022);
	umask(u);
	return u;
}

/*
 * The temporary file next to the target, in af->dirfd. A new file gets
 * mode & ~umask, as open(2) would give it; a file that is replaced keeps
 * its mode and, where we may set it (root), its owner and group: an output
 * that root rewrites stays the user's.
 */
static int open_temp(struct atomic_file *af, int mode, const struct stat *old, struct strbuf *err)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	/* A leading dot keeps node_exporter from reading it half-written
	 * (it reads only *.prom); the same directory, so that rename() never
	 * crosses file systems. */
	const char *slash = strrchr(af->target, '/');
	size_t dirlen = slash ? (size_t)(slash - af->target + 1) : 0;
	int fd = -1, e = EEXIST;
	for (int tries = 0; tries < 100 && fd < 0 && e == EEXIST; tries++) {
		unsigned char rnd[6];
		if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
			for (size_t k = 0; k < sizeof rnd; k++)
				rnd[k] = (unsigned char)(rand() ^ getpid() ^ tries);
		char suffix[7];
		for (size_t k = 0; k < 6; k++)
			suffix[k] = alphabet[rnd[k] % (sizeof alphabet - 1)];
		suffix[6] = '\0';
		free(af->tmpname);
		af->tmpname = xasprintf(".%s.tmp.%s", af->name, suffix);
		if (strlen(af->tmpname) > NAME_MAX) /* a long name: a short temporary one */
			snprintf(af->tmpname, strlen(af->tmpname) + 1, ".wslgpu.tmp.%s", suffix);
		fd = openat(af->dirfd, af->tmpname,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		e = fd < 0 ? errno : 0;
	}
	if (fd < 0) {
		sb_addf(err, "%s: cannot create a temporary file next to %s: %s", af->path,
			af->target, strerror(e));
		free(af->tmpname); /* not ours: never removed */
		af->tmpname = NULL;
		return -1;
	}
	af->tmp = xasprintf("%.*s%s", (int)dirlen, af->target, af->tmpname);
	af->fd = fd;
	af->live = live_add(af->dirfd, af->tmpname);
	mode_t want = old ? old->st_mode & 07777 : (mode_t)mode & ~current_umask() & 0777;
	/* chown first: it clears set-id bits, which fchmod then puts back */
	if (old && (old->st_uid != geteuid() || old->st_gid != getegid()))
		if (fchown(fd, old->st_uid, old->st_gid) < 0 && errno != EPERM) {
			sb_addf(err, "%s: %s", af->tmp, strerror(errno));
			return -1;
		}
	if (fchmod(fd, want) < 0) {
		sb_addf(err, "%s: %s", af->tmp, strerror(errno));
		return -1;
	}
	return fd;
}

int atomic_open(struct atomic_file *af, const char *path, int mode, struct strbuf *err)
{
	memset(af, 0, sizeof *af);
	af->fd = af->dirfd = af->live = -1;
	af->path = xstrdup(path);
	int fd = -1;
	struct stat st;
	bool exists = false;
	if (!strcmp(path, "-")) {
		af->fd = fd = STDOUT_FILENO;
		af->through = af->borrowed = true;
		return fd;
	}
	/* The file standard output or error already is (/dev/stdout, a link
	 * to it, /proc/self/fd/1): that descriptor, whatever the path is. */
	if (stat(path, &st) == 0 && (fd = same_as_std(&st)) >= 0) {
		af->fd = fd;
		af->through = af->borrowed = true;
		return fd;
	}
	fd = -1;
	if (!*path)
		sb_addf(err, "an empty path");
	else if (resolve(af, path, &st, &exists, err) == 0) {
		if (!exists)
			fd = open_temp(af, mode, NULL, err);
		else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
			fd = open_through(af, err);
		else if (!S_ISREG(st.st_mode))
			sb_addf(err, "%s: is %s; refusing to replace it", path, kind_of(st.st_mode));
		else
			fd = open_temp(af, mode, &st, err);
	}
	if (fd < 0)
		atomic_abort(af);
	return fd;
}

void atomic_abort(struct atomic_file *af)
{
	if (af->fd >= 0 && !af->borrowed)
		close(af->fd);
	if (af->tmpname && af->dirfd >= 0)
		unlinkat(af->dirfd, af->tmpname, 0);
	af->fd = -1;
	af_clear(af);
}

int atomic_commit(struct atomic_file *af, struct strbuf *err)
{
	/* EINVAL: pipes, terminals and most devices cannot be synced. */
	if (fsync(af->fd) < 0 && errno != EINVAL && errno != EROFS) {
		sb_addf(err, "%s: %s", af->path, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	if (af->borrowed) {
		af->fd = -1;
		af_clear(af);
		return 0;
	}
	int fd = af->fd;
	af->fd = -1;
	if (close(fd) < 0) {
		sb_addf(err, "%s: %s", af->path, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	if (af->tmpname && renameat(af->dirfd, af->tmpname, af->dirfd, af->name) < 0) {
		sb_addf(err, "%s: %s", af->path, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	free(af->tmpname);
	af->tmpname = NULL;
	af_clear(af);
	return 0;
}

int atomic_write_file(const char *path, const void *data, size_t len, int mode,
		      struct strbuf *err)
{
	struct atomic_file af;
	if (atomic_open(&af, path, mode, err) < 0)
		return -1;
	/* stdio may hold output for the same descriptor: it goes first. */
	if (af.borrowed)
		fflush(af.fd == STDOUT_FILENO ? stdout : stderr);
	/* A FIFO whose reader goes away: EPIPE, reported, not death by SIGPIPE. */
	struct sigaction ign, old;
	bool pipe_ignored = af.through && !af.borrowed;
	if (pipe_ignored) {
		memset(&ign, 0, sizeof ign);
		ign.sa_handler = SIG_IGN;
		sigaction(SIGPIPE, &ign, &old);
	}
	const char *p = data;
	int rc = 0;
	while (len) {
		ssize_t w = write(af.fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			sb_addf(err, "%s: %s", path, w < 0 ? strerror(errno) : "short write");
			atomic_abort(&af);
			rc = -1;
			break;
		}
		p += w;
		len -= (size_t)w;
	}
	if (rc == 0)
		rc = atomic_commit(&af, err);
	if (pipe_ignored)
		sigaction(SIGPIPE, &old, NULL);
	return rc;
}
