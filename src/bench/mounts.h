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

/*
 * The mount point of the Windows system drive C: — the Windows-drive mount
 * whose source starts with "C:" or, failing that, whose mount point ends in
 * "/c", under automount_root (wsl.conf [automount] root; NULL: /mnt/).
 * 0 with the mount point in mnt, or -ENOENT.
 */
int mount_windows_c(const struct mountinfo *mi, const char *automount_root, struct strbuf *mnt);

#endif
