/*
 * kmodules: the kernel's list of loaded modules, /proc/modules.
 *
 * Each line is "NAME SIZE REFCOUNT DEPS STATE ADDRESS [TAINT]", e.g.
 *   nvidia_uvm 1437696 0 - Live 0x0000000000000000 (POE)
 *   nvidia 56487936 1 nvidia_uvm, Live 0x0000000000000000 (POE)
 * (kernel/module/procfs.c). A line that does not have that shape is
 * counted as malformed and skipped, so a garbled or binary file gives a
 * short list and a count, never a crash.
 */
#ifndef WSLGPU_KMODULES_H
#define WSLGPU_KMODULES_H

#include <stddef.h>

#define KMODULE_NAME_MAX 64 /* the kernel's MODULE_NAME_LEN is 56 */

struct kmodule {
	char name[KMODULE_NAME_MAX];
	unsigned long size;
	long refcount; /* -1 when the kernel shows "-" */
	char state[12]; /* Live, Loading, Unloading */
	char taint[16]; /* "(POE)" or "" */
};

/* Parses buf; *mods is allocated (free() it, also when *n is 0), *n set,
 * *bad the number of malformed lines. At most 65536 modules are kept.
 * Never fails: returns 0. */
int kmodules_parse(const char *buf, size_t len, struct kmodule **mods, size_t *n, size_t *bad);

/* NVIDIA's own modules: "nvidia", and "nvidia_uvm", "nvidia_drm",
 * "nvidia_modeset", "nvidia_peermem" and the like (not nvidiafb, which is
 * the kernel's framebuffer driver). */
int kmodule_is_nvidia(const char *name);
int kmodule_is_nouveau(const char *name);

#endif
