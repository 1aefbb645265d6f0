/* edit.c: back up, edit and atomically replace a startup file (see edit.h). */
#include "edit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/atomicfile.h"
#include "../core/rootfs.h"

/* Startup files are small; anything bigger is not one. */
#define EDIT_MAX_BYTES (1u << 20)

int fix_edit_check(const char *guest, struct strbuf *host, struct strbuf *why)
{
	sb_reset(why);
	/* On the real root the kernel follows a symlinked ~/.bashrc: write
	 * the file it leads to, not a new file in place of the link. */
	struct strbuf g = STRBUF_INIT, h = STRBUF_INIT;
	int rc = rootfs_realpath(guest, &g, &h);
	sb_release(&g);
	if (rc < 0) {
		if (rc == -EXDEV)
			sb_addf(why, "%s: leads out of the root %s", guest, rootfs_root());
		else
			sb_addf(why, "%s: %s", guest, strerror(-rc));
		sb_release(&h);
		return -1;
	}
	const char *real = h.buf;
	struct stat st;
	rc = -1;
	if (lstat(real, &st) < 0)
		sb_addf(why, "%s: %s", guest, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		sb_addf(why, "%s is not a regular file", guest);
	else if (st.st_uid != geteuid())
		sb_addf(why, "%s belongs to uid %u, not to you (uid %u)", guest, (unsigned)st.st_uid,
			(unsigned)geteuid());
	else if ((size_t)st.st_size > EDIT_MAX_BYTES)
		sb_addf(why, "%s is larger than %u bytes: not a startup file", guest, EDIT_MAX_BYTES);
	else
		rc = 0;
	if (rc == 0) {
		sb_reset(host);
		sb_add(host, real);
	}
	sb_release(&h);
	return rc;
}

static int read_all(const char *path, struct strbuf *out, struct stat *st, struct strbuf *err)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, st) < 0) {
		sb_addf(err, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int rc = sb_read_fd(out, fd, EDIT_MAX_BYTES + 1, NULL);
	close(fd);
	if (rc < 0 || out->len > EDIT_MAX_BYTES) {
		sb_addf(err, "%s: %s", path, rc < 0 ? strerror(-rc) : "too large");
		return -1;
	}
	return 0;
}

/* Writes data to a new backup file next to path; never replaces one. */
static int write_backup(const char *path, const char *stamp, const struct strbuf *data, mode_t mode,
			struct strbuf *backup, struct strbuf *err)
{
	for (int n = 1; n < 100; n++) {
		sb_reset(backup);
		sb_addf(backup, "%s.wslgpu-backup-%s", path, stamp);
		if (n > 1)
			sb_addf(backup, "-%d", n);
		int fd = open(backup->buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0) {
			sb_addf(err, "%s: %s", backup->buf, strerror(errno));
			return -1;
		}
		size_t off = 0;
		while (off < data->len) {
			ssize_t w = write(fd, data->buf + off, data->len - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			off += (size_t)w;
		}
		int ok = off == data->len && fsync(fd) == 0;
		int saved = errno;
		if (close(fd) < 0)
			ok = 0;
		if (!ok) {
			sb_addf(err, "%s: %s", backup->buf, strerror(saved ? saved : EIO));
			unlink(backup->buf);
			return -1;
		}
		return 0;
	}
	sb_addf(err, "%s: too many backups from this second", path);
	return -1;
}

static const struct line_edit *edit_for(const struct line_edit *edits, size_t n, int line)
{
	for (size_t i = 0; i < n; i++)
		if (edits[i].line == line)
			return &edits[i];
	return NULL;
}

int fix_edit_file(const char *guest, const struct line_edit *edits, size_t n, const char *stamp,
		  const char *note, struct strbuf *backup, struct strbuf *err)
{
	struct strbuf host = STRBUF_INIT, why = STRBUF_INIT, orig = STRBUF_INIT,
		      out = STRBUF_INIT;
	struct stat st;
	int rc = -1;
	sb_reset(err);
	if (fix_edit_check(guest, &host, &why) < 0) {
		sb_add(err, why.buf);
		goto done;
	}
	if (read_all(host.buf, &orig, &st, err) < 0)
		goto done;
	/* Rebuild the file line by line; a planned line that is not there
	 * any more (the file changed since the plan) stops everything. */
	size_t matched = 0;
	int lineno = 0;
	for (size_t at = 0; at < orig.len;) {
		const char *s = orig.buf + at;
		const char *nl = memchr(s, '\n', orig.len - at);
		size_t len = nl ? (size_t)(nl - s) : orig.len - at;
		size_t textlen = len && s[len - 1] == '\r' ? len - 1 : len;
		const char *eol = nl ? (textlen < len ? "\r\n" : "\n") : "";
		lineno++;
		const struct line_edit *e = edit_for(edits, n, lineno);
		if (e) {
			if (strlen(e->expect) != textlen || memcmp(e->expect, s, textlen) != 0) {
				sb_addf(err, "%s: line %d is not what the plan saw any more; "
					"run wslgpu fix again", guest, lineno);
				goto done;
			}
			matched++;
			sb_addf(&out, "# %s: ", note);
			sb_addn(&out, s, textlen);
			sb_add(&out, *eol ? eol : "\n");
			if (e->replacement) {
				sb_add(&out, e->replacement);
				sb_add(&out, eol);
			}
		} else {
			sb_addn(&out, s, len + (nl ? 1 : 0));
		}
		at += len + (nl ? 1 : 0);
	}
	if (matched != n) {
		sb_addf(err, "%s: the file is shorter than the plan saw; run wslgpu fix again", guest);
		goto done;
	}
	mode_t mode = st.st_mode & 07777;
	if (write_backup(host.buf, stamp, &orig, mode, backup, err) < 0)
		goto done;
	if (atomic_write_file(host.buf, out.buf, out.len, (int)mode, err) < 0)
		goto done;
	rc = 0;
done:
	sb_release(&host);
	sb_release(&why);
	sb_release(&orig);
	sb_release(&out);
	return rc;
}
