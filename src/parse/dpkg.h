/*
 * dpkg: which Debian package installed a file, from dpkg's own database.
 *
 * dpkg keeps one file per installed package, /var/lib/dpkg/info/NAME.list
 * (NAME[:ARCH].list for multi-arch packages), holding every path the
 * package installed, one absolute path per line, directories included.
 * `dpkg -S PATH` is a search of those files; we do the same search without
 * running dpkg, so that it also works on a fixture or a mounted image.
 *
 * These are the pure parts: walking the lines of one .list file and
 * turning a file name into a package name. Package names are checked
 * against Debian policy (lower-case letters, digits, "+", "-", "."),
 * because they end up in fix commands the user types.
 */
#ifndef WSLGPU_DPKG_H
#define WSLGPU_DPKG_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/strbuf.h"

/* Calls fn for each non-empty line (without its newline, not
 * NUL-terminated); stops early when fn returns non-zero, and returns that
 * value (0 when every line was seen). Binary junk is just more lines. */
int dpkg_list_each(const char *buf, size_t len,
		   int (*fn)(const char *line, size_t n, void *arg), void *arg);

/* True if the .list contents name exactly path (a trailing "/." or "/"
 * is not special: dpkg writes paths without them). */
bool dpkg_list_has(const char *buf, size_t len, const char *path);

/* "libnvidia-compute-535:amd64.list" -> "libnvidia-compute-535". Returns 0,
 * or -EINVAL for a name that is not NAME[:ARCH].list with a valid NAME. */
int dpkg_list_package(const char *fname, struct strbuf *pkg);

/* True for a valid Debian package name. */
bool dpkg_valid_name(const char *s, size_t n);

#endif
