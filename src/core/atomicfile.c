/* atomicfile.c: temp file + fsync + rename (see atomicfile.h). */
#include "atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int atomic_open(struct atomic_file *af, const char *path, int mode, struct strbuf *err)
{
	af->path = xstrdup(path);
	/* Same directory, so that rename() never crosses file systems; a
	 * leading dot keeps node_exporter from reading it half-written
	 * (it reads only *.prom). */
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
	af->tmp = xasprintf("%.*s.%s.tmp.XXXXXX", (int)dirlen, path, slash ? slash + 1 : path);
	af->fd = mkostemp(af->tmp, O_CLOEXEC);
	if (af->fd < 0) {
		sb_addf(err, "%s: cannot create a temporary file next to it: %s", path,
			strerror(errno));
		free(af->path);
		free(af->tmp);
		af->path = af->tmp = NULL;
		return -1;
	}
	if (fchmod(af->fd, (mode_t)mode) < 0) {
		sb_addf(err, "%s: %s", af->tmp, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	return af->fd;
}

void atomic_abort(struct atomic_file *af)
{
	if (af->fd >= 0)
		close(af->fd);
	if (af->tmp)
		unlink(af->tmp);
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	af->fd = -1;
}

int atomic_commit(struct atomic_file *af, struct strbuf *err)
{
	if (fsync(af->fd) < 0 && errno != EINVAL) {
		sb_addf(err, "%s: %s", af->path, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	if (close(af->fd) < 0) {
		af->fd = -1;
		sb_addf(err, "%s: %s", af->path, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	af->fd = -1;
	if (rename(af->tmp, af->path) < 0) {
		sb_addf(err, "%s: %s", af->path, strerror(errno));
		atomic_abort(af);
		return -1;
	}
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	return 0;
}

int atomic_write_file(const char *path, const void *data, size_t len, int mode,
		      struct strbuf *err)
{
	struct atomic_file af;
	if (atomic_open(&af, path, mode, err) < 0)
		return -1;
	const char *p = data;
	while (len) {
		ssize_t w = write(af.fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			sb_addf(err, "%s: %s", path, w < 0 ? strerror(errno) : "short write");
			atomic_abort(&af);
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return atomic_commit(&af, err);
}
