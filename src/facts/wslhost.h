/*
 * wslhost: what the Windows side leaves visible inside a WSL distribution,
 * read for the bridge, host and perf probes, bench io, watch and report's
 * bundle; facts only, no check of its own:
 *
 *  - /etc/wsl.conf (the distribution's own settings) and the automount root
 *    it names ([automount] root=, default /mnt/);
 *  - the users' %UserProfile%\.wslconfig files, found as
 *    <automount root>c/Users/<name>/.wslconfig (research/wsl-facts.md §9:
 *    without interop there is no telling which Windows user runs WSL, so
 *    every profile that has one is reported);
 *  - the NVIDIA driver stores under /usr/lib/wsl/drivers: WSL mounts the
 *    whole Windows DriverStore FileRepository there, and the NVIDIA folder's
 *    name varies (nv_dispi.inf_amd64_*, nvmdi.inf_*, nvltwi.inf_*, ...), so a
 *    folder counts as an NVIDIA store when it holds libcuda.so.1.1 — the
 *    rule nvidia-container-toolkit uses to find it. Old stores can remain
 *    after a driver update.
 *
 * Everything is read through rootfs, so it works on fixture roots.
 */
#ifndef WSLGPU_WSLHOST_H
#define WSLGPU_WSLHOST_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "../core/strbuf.h"
#include "../parse/inifile.h"

#define WSLHOST_DRIVERS "/usr/lib/wsl/drivers"

/* Reads /etc/wsl.conf. Returns 0, or -errno (-ENOENT: there is none; ini
 * is then empty and may still be passed to inifile_free). */
int wslhost_wsl_conf(struct inifile *ini);

/* [automount] root= of /etc/wsl.conf, ending in '/' ("/mnt/" by default). */
void wslhost_automount_root(struct strbuf *root);

/* Guest paths of every <root>c/Users/<name>/.wslconfig, sorted; the caller
 * frees with wslhost_free_list. */
char **wslhost_wslconfigs(size_t *n);
void wslhost_free_list(char **v, size_t n);

/* "/mnt/c/Users/alice/.wslconfig" -> "C:\Users\alice\.wslconfig"; a path
 * that is not under the automount root is copied as it is. */
void wslhost_windows_path(const char *guest, struct strbuf *out);

struct nv_store {
	char *path;        /* guest path of the folder */
	char *name;        /* the folder's name */
	time_t mtime;
	char version[16];  /* NVIDIA version estimated from the .inf, "" if none */
	char windows[32];  /* the .inf's DriverVer version, "" if none */
	char date[16];     /* the .inf's DriverVer date, "" if none */
	char *inf;         /* guest path of that .inf, NULL if none was found */
};

struct nv_stores {
	struct nv_store *v;
	size_t n;
	size_t entries;    /* folders looked at in /usr/lib/wsl/drivers */
	char **nv_named;   /* "nv*.inf_*" folders without libcuda.so.1.1 */
	size_t nnamed;
};

/* Scans /usr/lib/wsl/drivers. Returns 0, or -errno when it cannot be read. */
int wslhost_scan_stores(struct nv_stores *s);
void wslhost_free_stores(struct nv_stores *s);
/* Index of the most recently modified store (ties: the higher version). */
size_t wslhost_newest_store(const struct nv_stores *s);

#endif
