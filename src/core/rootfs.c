/* rootfs.c: root-prefixed file access and command lookup. See rootfs.h. */
#include "rootfs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json.h"
#include "path.h"
#include "proc.h"
#include "result.h"

static char *root_dir; /* without trailing slash; "" means the real root */

/*
 * What lstat said of a resolved guest path on a walk, while a cache is on
 * (rootfs_cache): a directory, or nothing there (ENOENT). A probe child
 * then looks at /usr, /usr/lib, /usr/lib/wsl... once, not once for every
 * path under them, nor at a missing /usr/local for every command it looks
 * for (873 lstat calls in one check of a fixture, /usr 150 times). Never
 * a symlink: it is read again at each walk, so a retargeted link is seen
 * at once. The key is the resolved guest path, which names one host path
 * (the root's). Open addressing, no removal: full, it stops growing.
 */
#define DIR_CACHE_SLOTS 256
static struct dir_cache {
	bool on;
	size_t n;
	struct {
		uint32_t hash;
		bool missing; /* ENOENT; else a directory */
		char *path;
	} slot[DIR_CACHE_SLOTS];
} dir_cache;

static uint32_t path_hash(const char *p, size_t len)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 16777619u;
	return h;
}

/* The slot of path, or of the empty place where it would go. */
static size_t dir_cache_find(const char *p, size_t len, uint32_t h)
{
	size_t i = h & (DIR_CACHE_SLOTS - 1);
	while (dir_cache.slot[i].path &&
	       (dir_cache.slot[i].hash != h || strncmp(dir_cache.slot[i].path, p, len) ||
		dir_cache.slot[i].path[len]))
		i = (i + 1) & (DIR_CACHE_SLOTS - 1);
	return i;
}

/* 0: not known; 1: a directory; -ENOENT: nothing there. */
static int dir_cached(const struct strbuf *guest)
{
	if (!dir_cache.on)
		return 0;
	uint32_t h = path_hash(guest->buf, guest->len);
	size_t i = dir_cache_find(guest->buf, guest->len, h);
	if (!dir_cache.slot[i].path)
		return 0;
	return dir_cache.slot[i].missing ? -ENOENT : 1;
}

static void dir_cache_add(const struct strbuf *guest, bool missing)
{
	if (!dir_cache.on || dir_cache.n >= DIR_CACHE_SLOTS * 3 / 4)
		return;
	uint32_t h = path_hash(guest->buf, guest->len);
	size_t i = dir_cache_find(guest->buf, guest->len, h);
	if (dir_cache.slot[i].path)
		return;
	dir_cache.slot[i].hash = h;
	dir_cache.slot[i].missing = missing;
	dir_cache.slot[i].path = xstrndup(guest->buf, guest->len);
	dir_cache.n++;
}

void rootfs_cache(bool on)
{
	if (!dir_cache.n && dir_cache.on == on)
		return; /* nothing to forget: its pages stay untouched */
	for (size_t i = 0; dir_cache.n && i < DIR_CACHE_SLOTS; i++) {
		free(dir_cache.slot[i].path);
		dir_cache.slot[i].path = NULL;
	}
	dir_cache.n = 0;
	dir_cache.on = on;
}

int rootfs_set(const char *root)
{
	struct strbuf sb = STRBUF_INIT;
	if (!root || !*root)
		root = "/";
	char *real = realpath(root, NULL);
	if (!real)
		return -errno;
	struct stat st;
	if (stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		free(real);
		return -ENOTDIR;
	}
	sb_add(&sb, real);
	free(real);
	while (sb.len && sb.buf[sb.len - 1] == '/')
		sb.buf[--sb.len] = '\0';
	free(root_dir);
	root_dir = sb_detach(&sb);
	rootfs_cache(dir_cache.on); /* what it knew was of the old root */
	return 0;
}

const char *rootfs_root(void)
{
	return root_dir && *root_dir ? root_dir : "/";
}

bool rootfs_is_real(void)
{
	return !root_dir || !*root_dir;
}

/*
 * Resolves guest into a normalised guest path with every symlink followed
 * inside the root, in the manner of the kernel's path walk. With missing
 * NULL a missing directory on the way is -ENOENT; otherwise the rest is
 * appended as written and *missing set. first_link (may be NULL) receives
 * the first symlink's target.
 */
static int resolve_guest(const char *guest, bool follow_last, struct strbuf *out,
			 bool *missing, struct strbuf *first_link)
{
	struct strbuf todo = STRBUF_INIT, done = STRBUF_INIT, host = STRBUF_INIT,
		      link = STRBUF_INIT;
	int hops = 0, rc = 0;

	sb_add(&todo, guest);
	sb_add(&done, "");
	size_t pos = 0;
	while (pos < todo.len) {
		while (pos < todo.len && todo.buf[pos] == '/')
			pos++;
		if (pos >= todo.len)
			break;
		size_t end = pos;
		while (end < todo.len && todo.buf[end] != '/')
			end++;
		bool last = true;
		for (size_t k = end; k < todo.len; k++)
			if (todo.buf[k] != '/') {
				last = false;
				break;
			}
		bool named = path_push(&done, todo.buf + pos, end - pos, false);
		pos = end;
		if (!named) /* "." or ".." */
			continue;
		if (last && !follow_last)
			continue;
		if (missing && *missing)
			continue;
		int known = dir_cached(&done);
		if (known > 0)
			continue; /* a directory: nothing to follow */
		sb_reset(&host);
		sb_add(&host, root_dir ? root_dir : "");
		sb_add(&host, done.buf);
		struct stat st;
		if (known < 0 || lstat(host.buf, &st) < 0) {
			if (known < 0)
				errno = -known;
			else if (errno == ENOENT)
				dir_cache_add(&done, true);
			if (missing && (errno == ENOENT || errno == ENOTDIR)) {
				*missing = true;
				continue;
			}
			if (errno == ENOENT && last)
				break; /* a missing final component is the caller's ENOENT */
			rc = -errno;
			goto out;
		}
		if (S_ISDIR(st.st_mode))
			dir_cache_add(&done, false);
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++hops > 40) {
			rc = -ELOOP;
			goto out;
		}
		sb_reset(&link);
		sb_grow(&link, PATH_MAX);
		ssize_t n = readlink(host.buf, link.buf, PATH_MAX);
		if (n < 0) {
			rc = -errno;
			goto out;
		}
		link.len = (size_t)n;
		link.buf[n] = '\0';
		if (first_link && !first_link->len)
			sb_addn(first_link, link.buf, link.len);
		/* New work list: link target, then the rest of the old one. */
		sb_addn(&link, todo.buf + pos, todo.len - pos);
		if (link.buf[0] == '/')
			sb_reset(&done);
		else
			path_push(&done, "..", 2, false); /* relative to the link's directory */
		sb_reset(&todo);
		sb_addn(&todo, link.buf, link.len);
		pos = 0;
	}
	if (!done.len)
		sb_add(&done, "/");
	sb_reset(out);
	sb_addn(out, done.buf, done.len);
out:
	sb_release(&todo);
	sb_release(&done);
	sb_release(&host);
	sb_release(&link);
	return rc;
}

int rootfs_host_path(const char *guest, bool follow_last, struct strbuf *host)
{
	if (!guest || guest[0] != '/')
		return -EINVAL;
	sb_reset(host);
	if (rootfs_is_real()) {
		sb_add(host, guest);
		return 0;
	}
	struct strbuf g = STRBUF_INIT;
	int rc = resolve_guest(guest, follow_last, &g, NULL, NULL);
	if (rc == -ENOENT || rc == -ENOTDIR) {
		/* Where it would be, for the caller's message. */
		bool missing = false;
		if (resolve_guest(guest, follow_last, &g, &missing, NULL) < 0)
			sb_reset(&g);
	}
	if (g.len) {
		sb_add(host, root_dir);
		sb_add(host, g.buf);
	}
	sb_release(&g);
	return rc;
}

int rootfs_guest_path(const char *host, struct strbuf *guest)
{
	/* Copied first: host may be guest's own buffer. */
	struct strbuf given = STRBUF_INIT, norm = STRBUF_INIT;
	sb_add(&given, host ? host : "");
	sb_reset(guest);
	int rc = 0;
	const char *root = root_dir ? root_dir : "";
	if (given.buf[0] != '/') {
		rc = -EINVAL;
	} else {
		path_normalize(given.buf, &norm);
		if (!path_within(norm.buf, root))
			rc = -EXDEV;
	}
	if (rc == 0) {
		const char *g = norm.buf + strlen(root);
		sb_add(guest, *g ? g : "/");
	} else {
		sb_addn(guest, given.buf, given.len);
	}
	sb_release(&given);
	sb_release(&norm);
	return rc;
}

/* Whether c can end a path written in a message ("DIR: ...", "'DIR/x'"). */
static bool ends_path(char c)
{
	return !c || isspace((unsigned char)c) || strchr("'\"`:,;()[]<>", c);
}

void rootfs_guest_text(const char *text, struct strbuf *out)
{
	sb_reset(out);
	if (!text)
		text = "";
	if (rootfs_is_real()) {
		sb_add(out, text);
		return;
	}
	size_t rl = strlen(root_dir);
	const char *p = text;
	for (const char *hit; (hit = strstr(p, root_dir));) {
		sb_addn(out, p, (size_t)(hit - p));
		p = hit + rl;
		/* Whole components only: not the root inside another path, nor
		 * a prefix of a sibling (DIR2). DIR/x is /x; DIR alone is /. */
		bool whole = (hit == text || ends_path(hit[-1])) && (*p == '/' || ends_path(*p));
		if (!whole)
			sb_addn(out, hit, rl);
		else if (*p != '/')
			sb_addc(out, '/');
	}
	sb_add(out, p);
}

int rootfs_realpath(const char *guest, struct strbuf *out, struct strbuf *host)
{
	struct strbuf h = STRBUF_INIT, g = STRBUF_INIT;
	int rc = rootfs_host_path(guest, true, &h);
	struct stat st;
	if (rc == 0 && !rootfs_is_real()) {
		/* The walk followed every link already: h is the real path,
		 * once it exists (realpath(3) would readlink each component
		 * again). */
		if (stat(h.buf, &st) < 0)
			rc = -errno;
		else
			rc = rootfs_guest_path(h.buf, &g);
		if (rc == 0 && host) {
			sb_reset(host);
			sb_addn(host, h.buf, h.len);
		}
	} else if (rc == 0) {
		char *real = realpath(h.buf, NULL);
		if (!real) {
			rc = -errno;
		} else {
			rc = rootfs_guest_path(real, &g);
			if (rc == 0 && host) {
				sb_reset(host);
				sb_add(host, real);
			}
			free(real);
		}
	}
	if (rc < 0) { /* guest may be out's own buffer: copy before resetting */
		sb_reset(&g);
		sb_add(&g, guest ? guest : "");
	}
	sb_reset(out);
	sb_addn(out, g.buf, g.len);
	sb_release(&h);
	sb_release(&g);
	return rc;
}

int rootfs_cwd(struct strbuf *out)
{
	sb_reset(out);
	if (!rootfs_is_real()) {
		const char *pwd = getenv("PWD");
		if (!pwd || pwd[0] != '/')
			return -ENOENT;
		sb_add(out, pwd);
		return 0;
	}
	char *cwd = getcwd(NULL, 0);
	if (!cwd)
		return -errno;
	sb_add(out, cwd);
	free(cwd);
	return 0;
}

int rootfs_absolute(const char *path, struct strbuf *out)
{
	sb_reset(out);
	if (path[0] == '/') {
		sb_add(out, path);
		return 0;
	}
	int rc = rootfs_cwd(out);
	if (rc < 0)
		sb_reset(out);
	if (!out->len || out->buf[out->len - 1] != '/')
		sb_addc(out, '/');
	sb_add(out, path);
	return rc;
}

int rootfs_resolve(const char *guest, struct strbuf *out, bool *missing,
		   struct strbuf *first_link)
{
	if (!guest || guest[0] != '/')
		return -EINVAL;
	*missing = false;
	sb_reset(first_link);
	return resolve_guest(guest, true, out, missing, first_link);
}

int rootfs_stat(const char *guest, struct stat *st)
{
	struct strbuf h = STRBUF_INIT;
	int rc = rootfs_host_path(guest, true, &h);
	if (rc == 0 && stat(h.buf, st) < 0)
		rc = -errno;
	sb_release(&h);
	return rc;
}

int rootfs_lstat(const char *guest, struct stat *st)
{
	struct strbuf h = STRBUF_INIT;
	int rc = rootfs_host_path(guest, false, &h);
	if (rc == 0 && lstat(h.buf, st) < 0)
		rc = -errno;
	sb_release(&h);
	return rc;
}

int rootfs_readlink(const char *guest, struct strbuf *target)
{
	struct strbuf h = STRBUF_INIT;
	int rc = rootfs_host_path(guest, false, &h);
	if (rc == 0) {
		sb_reset(target);
		sb_grow(target, PATH_MAX);
		ssize_t n = readlink(h.buf, target->buf, PATH_MAX);
		if (n < 0) {
			rc = -errno;
		} else {
			target->len = (size_t)n;
			target->buf[n] = '\0';
		}
	}
	sb_release(&h);
	return rc;
}

int rootfs_access(const char *guest, int mode)
{
	struct strbuf h = STRBUF_INIT;
	int rc = rootfs_host_path(guest, true, &h);
	if (rc == 0 && access(h.buf, mode) < 0)
		rc = -errno;
	sb_release(&h);
	return rc;
}

int rootfs_open(const char *guest, int flags)
{
	struct strbuf h = STRBUF_INIT;
	int rc = rootfs_host_path(guest, true, &h);
	if (rc == 0) {
		/* O_NONBLOCK: a FIFO planted where a file belongs must not hang us. */
		rc = open(h.buf, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (rc < 0)
			rc = -errno;
	}
	sb_release(&h);
	return rc;
}

const char *rootfs_mode_name(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISDIR(m) ? "a directory" : "not a regular file";
}

const char *rootfs_strerror(int rc)
{
	if (rc == -EINVAL)
		return "not a regular file";
	if (rc == -ETIMEDOUT)
		return "the read did not finish in time (a hung network or Windows drive?)";
	return strerror(rc < 0 ? -rc : rc);
}

/* The running probe's evidence, while the runner has it set. */
static struct evidence *notes;

void rootfs_notes_to(struct evidence *ev)
{
	notes = ev;
}

void rootfs_note_cut(const char *guest, const char *what)
{
	if (notes) {
		ev_add(notes, "input_cut", "%s: %s", guest, what);
		return;
	}
	/* Once per file: a sampler (watch) reads the same file again and again. */
	static char *warned[32];
	static size_t nwarned;
	for (size_t i = 0; i < nwarned; i++)
		if (!strcmp(warned[i], guest))
			return;
	if (nwarned < sizeof warned / sizeof warned[0])
		warned[nwarned++] = xstrdup(guest);
	struct strbuf g = STRBUF_INIT;
	text_sanitize(&g, guest);
	fprintf(stderr, "wslgpu: warning: %s: %s\n", g.buf, what);
	sb_release(&g);
}

/* "1 MiB", "64 KiB", "100 bytes". */
static void size_words(struct strbuf *sb, size_t n)
{
	if (n >= (1u << 20) && n % (1u << 20) == 0)
		sb_addf(sb, "%zu MiB", n >> 20);
	else if (n >= 1024 && n % 1024 == 0)
		sb_addf(sb, "%zu KiB", n >> 10);
	else
		sb_addf(sb, "%zu bytes", n);
}

int rootfs_open_regular(const char *guest, struct stat *st)
{
	int fd = rootfs_open(guest, O_RDONLY);
	if (fd < 0)
		return fd;
	if (fstat(fd, st) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	if (S_ISDIR(st->st_mode)) {
		close(fd);
		return -EISDIR;
	}
	if (!S_ISREG(st->st_mode)) {
		/* FIFOs, sockets and devices: refuse rather than block (a FIFO
		 * with no writer, a hung tty) or read forever (/dev/zero). */
		if (notes)
			ev_add(notes, "not_regular", "%s: %s, not a regular file: not read", guest,
			       rootfs_mode_name(st->st_mode));
		close(fd);
		return -EINVAL;
	}
	/* Back to blocking reads (O_NONBLOCK was for the open only): of the
	 * flags F_SETFL sets, rootfs_open gave it no other. */
	fcntl(fd, F_SETFL, 0);
	return fd;
}

/* "read only its first 4 MiB of N bytes": the note of a file cut at cap. */
static void note_read_cut(const char *guest, size_t cap, off_t size)
{
	struct strbuf w = STRBUF_INIT;
	sb_add(&w, "read only its first ");
	size_words(&w, cap);
	if (size > 0)
		sb_addf(&w, " of %lld bytes", (long long)size);
	else
		sb_add(&w, "; it is longer");
	rootfs_note_cut(guest, w.buf);
	sb_release(&w);
}

/* The rest of rootfs_read, on the regular file fd that opened guest with
 * its fstat *st: into out, at most cap bytes, the cut noted; closes fd. */
static int read_opened(const char *guest, int fd, const struct stat *st, size_t cap,
		       struct strbuf *out, bool *truncated)
{
	/* Room for the whole file and its end-of-file read at once: a file
	 * of 1 MB is one read, not 16 and four copies as the buffer grows. */
	if (st->st_size > 0)
		sb_grow(out, ((size_t)st->st_size < cap ? (size_t)st->st_size : cap) + 4096);
	bool cut = false;
	int rc = sb_read_fd(out, fd, cap, &cut);
	close(fd);
	if (cut)
		note_read_cut(guest, cap, st->st_size);
	if (truncated)
		*truncated = cut;
	return rc;
}

int rootfs_read(const char *guest, size_t cap, struct strbuf *out, bool *truncated)
{
	if (!cap)
		cap = ROOTFS_READ_CAP_DEFAULT;
	if (truncated)
		*truncated = false;
	sb_reset(out);
	struct stat st;
	int fd = rootfs_open_regular(guest, &st);
	if (fd < 0)
		return fd;
	return read_opened(guest, fd, &st, cap, out, truncated);
}

int rootfs_view(const char *guest, size_t cap, struct rootfs_view *v, bool *truncated)
{
	if (!cap)
		cap = ROOTFS_READ_CAP_DEFAULT;
	memset(v, 0, sizeof *v);
	v->p = "";
	if (truncated)
		*truncated = false;
	struct stat st;
	int fd = rootfs_open_regular(guest, &st);
	if (fd < 0)
		return fd;
	if (st.st_size > 0) {
		size_t n = (size_t)st.st_size < cap ? (size_t)st.st_size : cap;
		void *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (m != MAP_FAILED) {
			close(fd);
			v->p = m;
			v->n = n;
			v->map = m;
			if ((size_t)st.st_size > cap) {
				note_read_cut(guest, cap, st.st_size);
				if (truncated)
					*truncated = true;
			}
			return 0;
		}
	}
	/* No size to map (a /proc file) or a file system that cannot map it:
	 * read from the same descriptor. */
	int rc = read_opened(guest, fd, &st, cap, &v->owned, truncated);
	if (v->owned.buf)
		v->p = v->owned.buf;
	v->n = v->owned.len;
	return rc;
}

void rootfs_view_release(struct rootfs_view *v)
{
	if (v->map)
		munmap(v->map, v->n);
	sb_release(&v->owned);
	memset(v, 0, sizeof *v);
	v->p = "";
}

int rootfs_lines_open(struct rootfs_lines *l, const char *guest)
{
	memset(l, 0, sizeof *l);
	l->fd = -1;
	struct stat st;
	int fd = rootfs_open_regular(guest, &st);
	if (fd < 0)
		return fd;
	l->fd = fd;
	l->guest = xstrdup(guest);
	return 0;
}

int rootfs_lines_openat(struct rootfs_lines *l, DIR *dir, const char *name, const char *guest)
{
	memset(l, 0, sizeof *l);
	l->fd = -1;
	/* O_NOFOLLOW: a symlink is not opened here (its target is resolved
	 * inside the root by rootfs_lines_open, which the caller falls back to). */
	int fd = openat(dirfd(dir), name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return rootfs_lines_open(l, guest);
	}
	l->fd = fd;
	l->guest = xstrdup(guest);
	return 0;
}

/* Read size: small enough that the buffers stay below malloc's mmap
 * threshold, so that a scan of 2,000 small files reuses them instead of
 * mapping and faulting in fresh pages for each. */
#define LINES_CHUNK 16384

/* Refills buf from the file; false at the end of it. */
static bool lines_fill(struct rootfs_lines *l)
{
	if (l->eof)
		return false;
	if (l->pos) {
		memmove(l->buf.buf, l->buf.buf + l->pos, l->buf.len - l->pos);
		l->buf.len -= l->pos;
		l->pos = 0;
	}
	sb_grow(&l->buf, LINES_CHUNK);
	ssize_t n;
	do
		n = read(l->fd, l->buf.buf + l->buf.len, LINES_CHUNK);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		l->err = -errno;
	if (n <= 0) {
		l->eof = true;
		return false;
	}
	l->buf.len += (size_t)n;
	l->buf.buf[l->buf.len] = '\0';
	return true;
}

int rootfs_lines_next(struct rootfs_lines *l)
{
	if (l->fd < 0)
		return 0;
	sb_reset(&l->cur);
	bool cut = false, any = false;
	for (;;) {
		const char *start = l->buf.buf ? l->buf.buf + l->pos : NULL;
		size_t avail = l->buf.len - l->pos;
		const char *nl = avail ? memchr(start, '\n', avail) : NULL;
		size_t take = nl ? (size_t)(nl - start) : avail;
		if (take || nl)
			any = true;
		size_t room = l->cur.len < ROOTFS_LINE_MAX ? ROOTFS_LINE_MAX - l->cur.len : 0;
		if (take > room)
			cut = true;
		sb_addn(&l->cur, start ? start : "", take < room ? take : room);
		l->pos += take;
		l->bytes += take;
		if (nl) {
			l->pos++; /* the newline */
			l->bytes++;
			break;
		}
		if (!lines_fill(l))
			break;
	}
	if (!any)
		return 0;
	l->lineno++;
	if (cut) {
		l->cut_lines++;
		struct strbuf w = STRBUF_INIT;
		sb_addf(&w, "line %zu is longer than ", l->lineno);
		size_words(&w, ROOTFS_LINE_MAX);
		sb_add(&w, ": only its start was read");
		rootfs_note_cut(l->guest, w.buf);
		sb_release(&w);
	}
	l->line = l->cur.buf;
	l->len = l->cur.len;
	return 1;
}

void rootfs_lines_close(struct rootfs_lines *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	free(l->guest);
	l->guest = NULL;
	sb_release(&l->buf);
	sb_release(&l->cur);
	l->line = NULL;
	l->len = 0;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int rootfs_isolated(int (*fn)(void *arg, struct strbuf *out), void *arg, int timeout_ms,
		    size_t cap, struct strbuf *out)
{
	if (!cap)
		cap = 64u << 20;
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		int e = -errno;
		close(p[0]);
		close(p[1]);
		return e;
	}
	if (pid == 0) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGPIPE, SIG_IGN);
		struct strbuf sb = STRBUF_INIT;
		int32_t rc = fn(arg, &sb);
		fflush(stderr);
		if (write_all(p[1], &rc, sizeof rc) == 0)
			write_all(p[1], sb.buf ? sb.buf : "", sb.len < cap ? sb.len : cap);
		_exit(0);
	}
	close(p[1]);
	struct strbuf got = STRBUF_INIT;
	double deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 10000);
	bool timed_out = false;
	for (;;) {
		double left = deadline - now_ms();
		if (left <= 0) {
			timed_out = true;
			break;
		}
		struct pollfd pf = { p[0], POLLIN, 0 };
		int pr = poll(&pf, 1, (int)left + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0) {
			timed_out = pr == 0;
			break;
		}
		sb_grow(&got, 65536);
		ssize_t n = read(p[0], got.buf + got.len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got.len += (size_t)n;
		got.buf[got.len] = '\0';
	}
	close(p[0]);
	int rc;
	if (timed_out) {
		kill(pid, SIGKILL);
		/* A child stuck in the kernel (a hung 9p request) may take a while
		 * to die: reap it if it goes at once, never wait for it. */
		for (int i = 0; i < 10 && waitpid(pid, NULL, WNOHANG) == 0; i++)
			usleep(1000);
		rc = -ETIMEDOUT;
	} else {
		waitpid(pid, NULL, 0);
		int32_t r32;
		if (got.len < sizeof r32) {
			rc = -EIO; /* the child died before it answered */
		} else {
			memcpy(&r32, got.buf, sizeof r32);
			rc = r32;
			sb_addn(out, got.buf + sizeof r32, got.len - sizeof r32);
		}
	}
	sb_release(&got);
	return rc;
}

struct bounded_read {
	const char *guest;
	size_t cap;
};

/* In the child: [truncated: 1 byte][the bytes]. */
static int bounded_read_child(void *arg, struct strbuf *out)
{
	struct bounded_read *b = arg;
	struct strbuf t = STRBUF_INIT;
	bool truncated = false;
	int rc = rootfs_read(b->guest, b->cap, &t, &truncated);
	sb_addc(out, truncated ? 'T' : '-');
	sb_addn(out, t.buf ? t.buf : "", t.len);
	sb_release(&t);
	return rc;
}

int rootfs_read_bounded(const char *guest, size_t cap, int timeout_ms, struct strbuf *out,
			bool *truncated)
{
	if (!cap)
		cap = ROOTFS_READ_CAP_DEFAULT;
	if (truncated)
		*truncated = false;
	sb_reset(out);
	struct bounded_read b = { guest, cap };
	struct strbuf got = STRBUF_INIT;
	int rc = rootfs_isolated(bounded_read_child, &b, timeout_ms, cap + 1, &got);
	if (got.len) {
		if (truncated)
			*truncated = got.buf[0] == 'T';
		sb_addn(out, got.buf + 1, got.len - 1);
	}
	sb_release(&got);
	return rc;
}

DIR *rootfs_opendir(const char *guest)
{
	struct strbuf h = STRBUF_INIT;
	int rc = rootfs_host_path(guest, true, &h);
	DIR *d = NULL;
	if (rc == 0)
		d = opendir(h.buf);
	else
		errno = -rc;
	int saved = errno;
	sb_release(&h);
	errno = saved;
	return d;
}

static bool try_dir(const char *dir, size_t dlen, const char *cmd,
		    struct strbuf *guest, struct strbuf *host)
{
	struct strbuf g = STRBUF_INIT, h = STRBUF_INIT;
	bool found = false;
	if (dlen == 0 || dir[0] != '/') /* relative PATH entries mean nothing here */
		goto out;
	sb_addn(&g, dir, dlen);
	while (g.len > 1 && g.buf[g.len - 1] == '/')
		g.buf[--g.len] = '\0';
	sb_addc(&g, '/');
	sb_add(&g, cmd);
	struct stat st;
	if (rootfs_host_path(g.buf, true, &h) == 0 && stat(h.buf, &st) == 0 &&
	    S_ISREG(st.st_mode) && access(h.buf, X_OK) == 0) {
		found = true;
		if (guest) {
			sb_reset(guest);
			sb_addn(guest, g.buf, g.len);
		}
		if (host) {
			sb_reset(host);
			sb_addn(host, h.buf, h.len);
		}
	}
out:
	sb_release(&g);
	sb_release(&h);
	return found;
}

int rootfs_which(const char *cmd, struct strbuf *guest, struct strbuf *host, bool *on_path)
{
	static const char *const fixed[] = { "/usr/local/bin", "/usr/bin", "/bin",
					     "/usr/lib/wsl/lib" };
	if (on_path)
		*on_path = false;
	if (!cmd || !*cmd || strchr(cmd, '/'))
		return -EINVAL;
	const char *path = getenv("PATH");
	if (path) {
		const char *p = path;
		for (;;) {
			const char *e = strchr(p, ':');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			if (try_dir(p, n, cmd, guest, host)) {
				if (on_path)
					*on_path = true;
				return 0;
			}
			if (!e)
				break;
			p = e + 1;
		}
	}
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (try_dir(fixed[i], strlen(fixed[i]), cmd, guest, host))
			return 0;
	return -ENOENT;
}
