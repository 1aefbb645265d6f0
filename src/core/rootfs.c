/* rootfs.c: root-prefixed file access and command lookup. See rootfs.h. */
#include "rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *root_dir; /* without trailing slash; "" means the real root */

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

void rootfs_user_cwd(struct strbuf *out)
{
	sb_reset(out);
	const char *pwd = getenv("PWD");
	if (!rootfs_is_real() && pwd && pwd[0] == '/') {
		sb_add(out, pwd);
		return;
	}
	char buf[PATH_MAX];
	sb_add(out, getcwd(buf, sizeof buf) ? buf : "/");
}

/* Appends one component to a normalised guest path held in sb. */
static void push_component(struct strbuf *sb, const char *c, size_t n)
{
	if (n == 1 && c[0] == '.')
		return;
	if (n == 2 && c[0] == '.' && c[1] == '.') {
		while (sb->len > 0 && sb->buf[sb->len - 1] != '/')
			sb->len--;
		if (sb->len > 0)
			sb->len--; /* the slash */
		sb->buf[sb->len] = '\0';
		return;
	}
	sb_addc(sb, '/');
	sb_addn(sb, c, n);
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
		size_t before = done.len;
		push_component(&done, todo.buf + pos, end - pos);
		pos = end;
		if (done.len <= before) /* "." or ".." */
			continue;
		if (last && !follow_last)
			continue;
		if (missing && *missing)
			continue;
		sb_reset(&host);
		sb_add(&host, root_dir ? root_dir : "");
		sb_add(&host, done.buf);
		struct stat st;
		if (lstat(host.buf, &st) < 0) {
			if (missing && (errno == ENOENT || errno == ENOTDIR)) {
				*missing = true;
				continue;
			}
			if (errno == ENOENT && last)
				break; /* a missing final component is the caller's ENOENT */
			rc = -errno;
			goto out;
		}
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
		if (link.buf[0] == '/') {
			sb_reset(&done);
		} else {
			while (done.len > 0 && done.buf[done.len - 1] != '/')
				done.len--;
			if (done.len > 0)
				done.len--;
			done.buf[done.len] = '\0';
		}
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
	if (rc == 0) {
		sb_add(host, root_dir);
		sb_add(host, g.buf);
	}
	sb_release(&g);
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

int rootfs_read(const char *guest, size_t cap, struct strbuf *out, bool *truncated)
{
	if (!cap)
		cap = ROOTFS_READ_CAP_DEFAULT;
	if (truncated)
		*truncated = false;
	sb_reset(out);
	int fd = rootfs_open(guest, O_RDONLY);
	if (fd < 0)
		return fd;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) {
		/* FIFOs and sockets: refuse rather than block or read forever. */
		close(fd);
		return -EINVAL;
	}
	/* Back to blocking reads for regular files and /proc entries. */
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	int rc = sb_read_fd(out, fd, cap, truncated);
	close(fd);
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
