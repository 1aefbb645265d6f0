/*
 * atomicfile: write a whole output file so that a reader (node_exporter's
 * textfile collector, a CI job, a user) sees the old contents or the new
 * ones, never half a file: write to a temporary file in the same directory,
 * fsync, rename over the target. On any error the temporary file is removed
 * and the target is left as it was.
 *
 * What the target is decides how it is written, as a shell's "> PATH"
 * would, without ever replacing something that is not a regular file:
 *   "-", or the file standard output (or error) already is  written to that
 *                              descriptor (so --junit /dev/stdout never
 *                              replaces the /dev/stdout link);
 *   a character device, a FIFO written through (/dev/null; a FIFO needs a
 *                              reader already, else an error: never a hang);
 *   a regular file, or none    replaced atomically as above;
 *   a symbolic link            its final target is replaced (or created)
 *                              atomically; the link stays a link; but a link
 *                              in a world-writable sticky directory (/tmp)
 *                              that another user owns is refused, as the
 *                              kernel's fs.protected_symlinks would, whether
 *                              that sysctl is on or not;
 *   anything else              refused (a directory, a block device, a socket).
 * A new file gets mode & ~umask; a replaced one keeps its mode (and, for
 * root, its owner and group). Every write error is reported: ENOSPC on
 * /dev/full is an error, not success. While a temporary file exists, a
 * SIGHUP, SIGINT, SIGTERM or SIGPIPE that would end the process removes it
 * first (a handler someone else installed, and an ignored signal, are left
 * as they are).
 */
#ifndef WSLGPU_ATOMICFILE_H
#define WSLGPU_ATOMICFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

/* Returns 0, or -1 with a one-line message ("PATH: reason") in err. */
int atomic_write_file(const char *path, const void *data, size_t len, int mode,
		      struct strbuf *err);

/*
 * For writers that stream (libarchive): opens the target as above and
 * returns the fd to write to (-1 with err set). atomic_commit() fsyncs,
 * closes and renames the temporary file over the target (or, written
 * through, flushes and closes); atomic_abort() closes and removes the
 * temporary file. tmp is NULL when nothing is renamed.
 */
struct atomic_file {
	char *path;   /* as given, for messages */
	char *target; /* the file the rename replaces (a symlink's target), for messages */
	char *tmp;    /* the temporary file, for messages */
	int fd;
	int dirfd;     /* the directory of target (O_PATH), where tmpname is renamed to name */
	char *name;    /* target's name in dirfd */
	char *tmpname; /* tmp's name in dirfd */
	int live;      /* its slot among the temporary files a signal removes */
	bool through; /* written straight to a device, FIFO or standard output */
	bool borrowed; /* fd is 1 or 2: never closed here */
};
int atomic_open(struct atomic_file *af, const char *path, int mode, struct strbuf *err);
int atomic_commit(struct atomic_file *af, struct strbuf *err);
void atomic_abort(struct atomic_file *af);

#endif
