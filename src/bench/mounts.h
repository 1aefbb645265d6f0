/*
 * mounts: which mount is the Windows system drive C:, for the default
 * locations of `bench io`. Whether a mount is a Windows drive at all is
 * src/parse/mountinfo's mountinfo_windows_drive (research/wsl-facts.md §8).
 */
#ifndef WSLGPU_BENCH_MOUNTS_H
#define WSLGPU_BENCH_MOUNTS_H

#include <stdbool.h>

#include "../core/strbuf.h"
#include "../parse/mountinfo.h"

/* Whether m is a Windows drive: mountinfo_windows_drive with WSL's default
 * automount root /mnt/ (kept for src/watch/datafs.c, which uses it). */
bool mount_is_windows_drive(const struct mount_entry *m);

/*
 * The mount point of the Windows system drive C: — the Windows-drive mount
 * whose source starts with "C:" or, failing that, whose mount point ends in
 * "/c". 0 with the mount point in mnt, or -ENOENT.
 */
int mount_windows_c(const struct mountinfo *mi, struct strbuf *mnt);

#endif
