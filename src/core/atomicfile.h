/*
 * atomicfile: write a whole file so that a reader (node_exporter's textfile
 * collector, a CI job, a user) sees the old contents or the new ones, never
 * half a file: write to a temporary file in the same directory, fsync,
 * rename over the target. On any error the temporary file is removed and
 * the target is left as it was.
 */
#ifndef WSLGPU_ATOMICFILE_H
#define WSLGPU_ATOMICFILE_H

#include <stddef.h>

#include "strbuf.h"

/* Returns 0, or -1 with a one-line message ("PATH: reason") in err. */
int atomic_write_file(const char *path, const void *data, size_t len, int mode,
		      struct strbuf *err);

/*
 * For writers that stream (libarchive): opens a temporary file next to path
 * and returns its fd (-1 with err set). atomic_commit() fsyncs, closes and
 * renames it over path; atomic_abort() closes and removes it.
 */
struct atomic_file {
	char *path;
	char *tmp;
	int fd;
};
int atomic_open(struct atomic_file *af, const char *path, int mode, struct strbuf *err);
int atomic_commit(struct atomic_file *af, struct strbuf *err);
void atomic_abort(struct atomic_file *af);

#endif
