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

/*
 * Which package installed a path, for every probe of a process from one
 * scan of the database: the first question reads every
 * /var/lib/dpkg/info/NAME.list of the described machine (through rootfs,
 * line by line, so a list of any size is read whole) into an index of
 * two 64-bit hashes per path; later questions are binary searches. Before,
 * each probe that asked rescanned every list. Paths under /lib/modules,
 * /usr/lib/modules and /usr/src are also kept whole for dpkg_index_each.
 * Bounds: 50,000 lists and 256 MiB of list text; past them the index is
 * marked capped and the cut noted (rootfs_note_cut).
 */
#define DPKG_INFO_DIR "/var/lib/dpkg/info"
struct dpkg_index_info {
	bool present;       /* the directory exists */
	size_t lists;       /* NAME.list files read */
	size_t unreadable;  /* lists that could not be read (or not to the end) */
	size_t paths;       /* paths indexed */
	size_t bytes;       /* list text read */
	bool capped;        /* a bound above stopped the scan */
};
const struct dpkg_index_info *dpkg_index(void);
/* The package whose list names path (the first list read, in directory
 * order, as dpkg -S would name one of them), or NULL. */
const char *dpkg_index_owner(const char *path);
/* Calls fn with each path kept whole and its package, in list order;
 * stops when fn returns non-zero and returns that. */
int dpkg_index_each(int (*fn)(const char *pkg, const char *path, size_t n, void *arg), void *arg);
/* The packages whose lists were read, in directory order. */
const char *const *dpkg_index_packages(size_t *n);
/* How many times this process built the index (1 after any question):
 * for tests and bench/. dpkg_index_reset forgets it (another --root). */
size_t dpkg_index_builds(void);
void dpkg_index_reset(void);

#endif
