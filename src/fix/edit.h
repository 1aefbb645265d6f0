/*
 * edit: the only way `wslgpu fix --apply` changes a file. An edit comments
 * a line out (never deletes it) and may put a corrected line after it, so
 * the user can see in the file what changed and why; the whole file is
 * backed up first and then replaced atomically, keeping its mode.
 *
 * Only a regular file of the caller's own, inside the root, is edited:
 * the path is resolved through rootfs (symlinks stay inside a fixture
 * root), then checked again on the host path that will be written.
 */
#ifndef WSLGPU_FIX_EDIT_H
#define WSLGPU_FIX_EDIT_H

#include <stddef.h>

#include "../core/strbuf.h"

struct line_edit {
	int line;                /* 1-based */
	const char *expect;      /* the line as planned; a changed file is refused */
	const char *replacement; /* NULL: only comment the line out */
};

/* Resolves guest to the host file to write and checks that it may be
 * edited. Returns 0, or -1 with the reason in why. */
int fix_edit_check(const char *guest, struct strbuf *host, struct strbuf *why);

/*
 * Applies the edits (any order) to guest. stamp ("20261202-154500") names
 * the backup, FILE.wslgpu-backup-STAMP (-2, -3... if that exists: a backup
 * is never overwritten); note is written into the commented-out line.
 * Returns 0 with the backup's host path in backup, or -1 with err set and
 * the file untouched.
 */
int fix_edit_file(const char *guest, const struct line_edit *edits, size_t n, const char *stamp,
		  const char *note, struct strbuf *backup, struct strbuf *err);

#endif
