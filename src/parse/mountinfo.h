/*
 * mountinfo: /proc/self/mountinfo (proc(5)), parsed into entries, and the
 * lookup "which mount holds this path".
 *
 * A line reads
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   id parent major:minor root mount-point options [optional fields...] - fstype source super-options
 * The optional fields are zero or more; a lone "-" ends them. The kernel
 * escapes space, tab, newline and backslash in paths as \ooo octal (\040,
 * \011, \012, \134), so WSL's "C:\" source shows as "C:\134".
 *
 * Lines that do not have this shape are counted in bad_lines and skipped:
 * the parser never fails, whatever the bytes.
 */
#ifndef WSLGPU_MOUNTINFO_H
#define WSLGPU_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/strbuf.h"

struct mount_entry {
	unsigned long id, parent;
	unsigned major, minor;
	char *root;          /* unescaped, as every path field */
	char *mount_point;
	char *options;       /* per-mount options */
	char *optional;      /* optional fields joined by spaces ("" if none) */
	char *fstype;
	char *source;
	char *super_options; /* "" when the line ends after the source */
	int line;            /* 1-based line number */
};

struct mountinfo {
	struct mount_entry *m;
	size_t n;
	size_t bad_lines;
	/* mountinfo_read only: mount points left out to stay within
	 * MOUNTINFO_MAX_MEMORY, and what the kept entries' strings take. */
	size_t dropped;
	size_t bytes;
};

/* Parses len bytes. Never fails; returns the number of entries. */
size_t mountinfo_parse(const char *buf, size_t len, struct mountinfo *mi);
/* What mountinfo_read holds at most: its entries (records, strings,
 * index). A real table of 100,000 container mounts takes about 35 MiB. */
#define MOUNTINFO_MAX_MEMORY (48u << 20)

/*
 * Reads and parses a mount table file of the described machine
 * (/proc/self/mountinfo, through rootfs) line by line: a machine with
 * 100,000 container mounts has its 9p drive at the end, and that one must
 * be seen. One entry per mount point, the last one listed (the one on top,
 * which mountinfo_find answers), at the place of the first: memory grows
 * with the mount points, not with the lines, and stays within
 * MOUNTINFO_MAX_MEMORY: past it the mounts that matter least go first
 * (the deepest mount points; never the root, a Windows drive or WSL's other
 * 9p mounts, /usr/lib/wsl, or a mount inside a Windows drive; see rank_of
 * in mountinfo.c), counted in dropped. At most 64 MiB are read. Either
 * cut is noted (rootfs_note_cut). Returns the number of entries, or -errno
 * when the file cannot be read (a read error after some lines keeps them).
 */
int mountinfo_read(const char *guest, struct mountinfo *mi);
/* mountinfo_read's rules on a buffer, with budget in place of
 * MOUNTINFO_MAX_MEMORY (for tests and fuzzing; no cut is noted). */
size_t mountinfo_parse_bounded(const char *buf, size_t len, size_t budget, struct mountinfo *mi);
void mountinfo_free(struct mountinfo *mi);

/*
 * The other two views of the mount table, which are what users paste:
 * /proc/mounts (also /proc/self/mounts, /etc/mtab; fstab format,
 * "source mount-point fstype options 0 0") and the list mount(8) prints
 * ("source on mount-point type fstype (options)"). Neither has ids, device
 * numbers or roots (left 0 and ""), and both print the mount's own flags
 * and its superblock's options as one list: each entry gets that list as
 * both options and super_options, so that mountinfo_option,
 * mountinfo_windows_drive and mountinfo_find work on them unchanged. A line
 * may start with quote marks ("> ") that mail and GitHub quoting add. Lines
 * of neither form are counted in bad_lines. Never fails; returns the number
 * of entries.
 */
size_t mounts_parse(const char *buf, size_t len, struct mountinfo *mi);

/* Replaces out's contents with s (n bytes) with \ooo escapes decoded. A
 * backslash not followed by three octal digits stays as it is. */
void mountinfo_unescape(const char *s, size_t n, struct strbuf *out);

/*
 * The mount that holds the absolute path: the longest mount point that is a
 * prefix of path at a component boundary; among equal mount points the last
 * one listed, since a later mount stacks on top. NULL if none (no "/" entry).
 * The path should be normalised and have its symlinks resolved.
 */
const struct mount_entry *mountinfo_find(const struct mountinfo *mi, const char *path);

/*
 * Value of option name in a comma-separated option string ("aname=drvfs;path=C:\"
 * for name "aname"). An option without '=' has the value "". Returns true if
 * present.
 */
bool mountinfo_option(const char *options, const char *name, struct strbuf *value);

/*
 * Whether a mount is a Windows drive (research/wsl-facts.md §8): fstype
 * "drvfs" (WSL1), "9p" whose aname is drvfs (WSL2: the super options read
 * "aname=drvfs;path=C:\;uid=1000;..."; the driver store's 9p mount says
 * aname=drivers and is not a drive), or "virtiofs" (WSL2 with virtiofs=true,
 * whose options carry no aname) mounted under the automount root. root may
 * be NULL for the default "/mnt/".
 */
bool mountinfo_windows_drive(const struct mount_entry *m, const char *automount_root);

#endif
