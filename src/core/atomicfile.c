/* atomicfile.c: temp file + fsync + rename, or a write-through (see atomicfile.h). */
#include "atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Symlink hops followed, as the kernel's MAXSYMLINKS. */
#define MAX_LINKS 40

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

/* Follows a dangling symlink chain by hand (realpath needs the end to
 * exist): the path the last link names, which does not exist yet. */
static char *dangling_target(const char *path, struct strbuf *err)
{
	char *cur = xstrdup(path);
	for (int hop = 0; hop < MAX_LINKS; hop++) {
		struct stat st;
		if (lstat(cur, &st) < 0) {
			if (errno == ENOENT)
				return cur;
			sb_addf(err, "%s: %s: %s", path, cur, strerror(errno));
			free(cur);
			return NULL;
		}
		if (!S_ISLNK(st.st_mode)) {
			/* it appeared meanwhile: let the caller look again */
			sb_addf(err, "%s: changed while it was being written", path);
			free(cur);
			return NULL;
		}
		char buf[PATH_MAX];
		ssize_t n = readlink(cur, buf, sizeof buf - 1);
		if (n < 0) {
			sb_addf(err, "%s: %s: %s", path, cur, strerror(errno));
			free(cur);
			return NULL;
		}
		buf[n] = '\0';
		char *next;
		const char *slash = strrchr(cur, '/');
		if (buf[0] == '/' || !slash)
			next = xstrdup(buf);
		else
			next = xasprintf("%.*s/%s", (int)(slash - cur), cur, buf);
		free(cur);
		cur = next;
	}
	sb_addf(err, "%s: %s", path, strerror(ELOOP));
	free(cur);
	return NULL;
}

static void af_clear(struct atomic_file *af)
{
	free(af->path);
	free(af->target);
	free(af->tmp);
	af->path = af->target = af->tmp = NULL;
	af->fd = -1;
	af->through = af->borrowed = false;
}

/* Opens a device or FIFO to write through. */
static int open_through(struct atomic_file *af, const char *path, struct strbuf *err)
{
	/* O_NONBLOCK: a FIFO nobody reads is an error now, not a hang. */
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENXIO)
			sb_addf(err, "%s: a FIFO that no process is reading", path);
		else
			sb_addf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	af->fd = fd;
	af->through = true;
	return fd;
}

/* The temporary file next to target. */
static int open_temp(struct atomic_file *af, int mode, struct strbuf *err)
{
	/* Same directory, so that rename() never crosses file systems; a
	 * leading dot keeps node_exporter from reading it half-written
	 * (it reads only *.prom). */
	const char *t = af->target;
	const char *slash = strrchr(t, '/');
	size_t dirlen = slash ? (size_t)(slash - t + 1) : 0;
	af->tmp = xasprintf("%.*s.%s.tmp.XXXXXX", (int)dirlen, t, slash ? slash + 1 : t);
	af->fd = mkostemp(af->tmp, O_CLOEXEC);
	if (af->fd < 0) {
		sb_addf(err, "%s: cannot create a temporary file next to %s: %s", af->path, t,
			strerror(errno));
		free(af->tmp);
		af->tmp = NULL;
		return -1;
	}
	if (fchmod(af->fd, (mode_t)mode) < 0) {
		sb_addf(err, "%s: %s", af->tmp, strerror(errno));
		close(af->fd);
		unlink(af->tmp);
		free(af->tmp);
		af->tmp = NULL;
		af->fd = -1;
		return -1;
	}
	return af->fd;
}

int atomic_open(struct atomic_file *af, const char *path, int mode, struct strbuf *err)
{
	memset(af, 0, sizeof *af);
	af->fd = -1;
	af->path = xstrdup(path);
	int fd = -1;
	struct stat st;
	if (!strcmp(path, "-")) {
		af->fd = fd = STDOUT_FILENO;
		af->through = af->borrowed = true;
	} else if (stat(path, &st) == 0) {
		int std = same_as_std(&st);
		if (std >= 0) {
			af->fd = fd = std;
			af->through = af->borrowed = true;
		} else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
			fd = open_through(af, path, err);
		} else if (!S_ISREG(st.st_mode)) {
			sb_addf(err, "%s: is %s; refusing to replace it", path, kind_of(st.st_mode));
		} else {
			/* A symlink's target is replaced, not the link. */
			char *real = realpath(path, NULL);
			if (!real)
				sb_addf(err, "%s: %s", path, strerror(errno));
			else {
				af->target = real;
				fd = open_temp(af, mode, err);
			}
		}
	} else if (errno == ENOENT || errno == ENOTDIR) {
		struct stat lst;
		if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
			af->target = dangling_target(path, err); /* created where the link points */
		} else {
			af->target = xstrdup(path);
		}
		if (af->target)
			fd = open_temp(af, mode, err);
	} else {
		sb_addf(err, "%s: %s", path, strerror(errno));
	}
	if (fd < 0)
		af_clear(af);
	return fd;
}

void atomic_abort(struct atomic_file *af)
{
	if (af->fd >= 0 && !af->borrowed)
		close(af->fd);
	if (af->tmp)
		unlink(af->tmp);
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
	if (af->tmp && rename(af->tmp, af->target) < 0) {
		sb_addf(err, "%s: %s", af->path, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	free(af->tmp);
	af->tmp = NULL;
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
