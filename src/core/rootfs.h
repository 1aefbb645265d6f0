/*
 * rootfs: every file a probe reads, and every command it runs, goes through
 * here, relative to one root prefix (--root DIR, default "/").
 *
 * With the real root the kernel resolves paths as usual. With a fixture root
 * we resolve each path component ourselves so that an absolute symlink inside
 * the fixture (usr/lib/x86_64-linux-gnu/libcuda.so.1 -> /usr/lib/...) stays
 * inside the fixture, as it would on the machine the fixture describes, and a
 * symlink loop is reported as ELOOP instead of escaping or spinning.
 *
 * "Guest" paths are the paths as seen on the described machine
 * (/usr/lib/wsl/lib/libcuda.so.1); "host" paths are where those bytes are
 * on this machine (DIR/usr/lib/wsl/lib/libcuda.so.1). Reports show guest
 * paths; only exec and dlopen see host paths.
 *
 * All functions return 0 or a negative errno value.
 */
#ifndef WSLGPU_ROOTFS_H
#define WSLGPU_ROOTFS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "strbuf.h"

/* Files larger than this are read only up to it and flagged as truncated. */
#define ROOTFS_READ_CAP_DEFAULT (4u << 20)

int rootfs_set(const char *root);
const char *rootfs_root(void);
/* True when the root is "/": the probes look at this very machine. */
bool rootfs_is_real(void);
/* The user's current directory on the described machine (replacing out):
 * under a root, $PWD when it is absolute (a fixture's env sets it); else
 * ours ("/" if unknown). */
void rootfs_user_cwd(struct strbuf *out);

/* Host path for a guest path, following symlinks inside the root
 * (the last component too when follow_last). */
int rootfs_host_path(const char *guest, bool follow_last, struct strbuf *host);

/*
 * Where an absolute guest path really leads: every symlink followed inside
 * the root the way the kernel's path walk does, also on the real root. A
 * missing component ends the walk: the rest is appended as written and
 * *missing set. first_link receives the first symlink's target ("" if
 * none). Returns 0, -ELOOP after 40 links, or another -errno.
 */
int rootfs_resolve(const char *guest, struct strbuf *out, bool *missing,
		   struct strbuf *first_link);

int rootfs_stat(const char *guest, struct stat *st);
int rootfs_lstat(const char *guest, struct stat *st);
int rootfs_readlink(const char *guest, struct strbuf *target);
int rootfs_access(const char *guest, int mode);
/* open(2) under the root; returns an fd or -errno. */
int rootfs_open(const char *guest, int flags);
/* Reads at most cap bytes (0 = ROOTFS_READ_CAP_DEFAULT) into out (replacing
 * its contents). *truncated, if given, says whether the file had more. */
int rootfs_read(const char *guest, size_t cap, struct strbuf *out, bool *truncated);
/* opendir(3) under the root; NULL with errno set on failure. */
DIR *rootfs_opendir(const char *guest);

/*
 * Finds an external command: each directory of the tool's own PATH, taken
 * under the root, then the fixed directories /usr/local/bin, /usr/bin, /bin,
 * /usr/lib/wsl/lib (WSL puts nvidia-smi on PATH only for sessions it starts,
 * so sudo, ssh and services miss it; see FACTS.md). guest receives where it
 * is on the described machine, host where to exec it. on_path says whether
 * PATH found it (false: only the fixed directories did).
 */
int rootfs_which(const char *cmd, struct strbuf *guest, struct strbuf *host, bool *on_path);

#endif
