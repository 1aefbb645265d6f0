/*
 * path: lexical operations on '/'-separated paths. Nothing here touches a
 * file system: what a path means on the described machine (symlinks, the
 * root prefix) is rootfs's business (rootfs.h).
 */
#ifndef WSLGPU_PATH_H
#define WSLGPU_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

/*
 * Appends the component comp[0..n) to the normalised path in sb, as the
 * path walk takes it: "." adds nothing, ".." drops the last component
 * (never going above the start), anything else is added after a '/' (none
 * before the first component of a relative path). An absolute path is
 * built from "", which stands for "/". Returns whether a name was added.
 */
bool path_push(struct strbuf *sb, const char *comp, size_t n, bool relative);

/* Lexical normalisation: "//", "/./", "/x/../" and trailing slashes go;
 * "/.." is "/", "" and "a/.." are ".". out is replaced. */
void path_normalize(const char *path, struct strbuf *out);
/* dir + "/" + name, normalised (a new string). */
char *path_join(const char *dir, const char *name);

/* The directory part: "/a/b" -> "/a", "/b" -> "/", "b" -> ".". out is replaced. */
void path_dirname(const char *path, struct strbuf *out);
/* The last component: "/a/b" -> "b" (a pointer into path). */
const char *path_basename(const char *path);

/* Whether path is dir or lies below it, by whole components: "/root2" is
 * not within "/root"; every absolute path is within "/". Both normalised. */
bool path_within(const char *path, const char *dir);

#endif
