/*
 * drvlib: which NVIDIA driver library a file is, judged by its content.
 *
 * libcuda.so.1 and libnvidia-ml.so.1 come from four places that all use
 * the same SONAME: WSL's copies from the Windows driver (/usr/lib/wsl/lib),
 * a Linux driver's (libnvidia-compute-*, the .run installer, a cuda-compat
 * package in conda or pip), and the CUDA toolkit's link-time stubs. Where
 * the file lies says little once someone copies it; its bytes say more:
 *
 *  - the toolkit's stub: its entry point does nothing but return the stub
 *    error at once (cuInit: CUDA_ERROR_STUB_LIBRARY, 34; the code of the
 *    function is "mov $34, %eax; ret", seen in the toolkit's stubs/
 *    libcuda.so with objdump), or, for NVML, the stub's own warning text
 *    ("... is a stub library");
 *  - WSL's library: it reaches the GPU through libdxcore / the D3DKMT
 *    interface and names WSL's directories (strings in the file);
 *  - a Linux driver's library: it opens /dev/nvidiactl and
 *    /proc/driver/nvidia, and carries its driver version ("535.104.05",
 *    also in its real file name libcuda.so.535.104.05);
 *  - otherwise unknown: the caller falls back to where the file is.
 *
 * The markers for WSL's and a Linux driver's library are the strings
 * their job needs; they are evidence, not proof, and every decision is
 * shown with the marker that made it.
 *
 * What is read: the ELF headers and dynamic tables (elf.h), 32 bytes of
 * the entry point's code, and the file's data sections (.rodata, .data,
 * .dynstr: where string constants live; not its code, relocations or
 * symbols), in windows of DRVLIB_WINDOW bytes, all markers looked for in
 * one pass. Memory stays at a window whatever the file's size; a real
 * Linux libcuda (20-40 MB) keeps ~70 % of its bytes in those sections, a
 * file that is no ELF library costs its first 64 bytes.
 */
#ifndef WSLGPU_DRVLIB_H
#define WSLGPU_DRVLIB_H

#include <stddef.h>

#include "elf.h"

#define DRVLIB_WINDOW (128u << 10)

enum drvlib_kind {
	DRVLIB_UNKNOWN,   /* an ELF library with the SONAME, no marker */
	DRVLIB_WSL,       /* WSL's library from the Windows driver */
	DRVLIB_LINUX,     /* a Linux driver's library */
	DRVLIB_STUB,      /* the CUDA toolkit's link-time stub */
	DRVLIB_OTHER,     /* not this library (another SONAME, no entry point) */
	DRVLIB_NOT_ELF,   /* not a readable ELF shared object */
};

struct drvlib {
	enum drvlib_kind kind;
	char version[32];  /* driver version found in the content, or "" */
	char soname[64];
	const char *marker; /* static text: what decided kind */
	size_t defined;     /* defined dynamic symbols */
};

/* Classifies the file src reads. soname is the wanted SONAME
 * ("libcuda.so.1"), entry the entry point the stub test reads ("cuInit"
 * or "nvmlInit_v2"). window: the bytes read at a time (0: DRVLIB_WINDOW;
 * any size gives the same answer, which the tests and the fuzz target
 * check). */
void drvlib_classify_src(const struct elf_src *src, const char *soname, const char *entry,
			 size_t window, struct drvlib *out);
/* The same for the bytes buf[0..len). */
void drvlib_classify(const unsigned char *buf, size_t len, const char *soname, const char *entry,
		     struct drvlib *out);
/*
 * The same for a file on the described machine (guest path, rootfs), read
 * in pieces. Returns 0, or -errno when it cannot be opened (then kind is
 * DRVLIB_UNKNOWN and marker says so). The answer for a file is kept for
 * the process (by device, inode, size and change time): libcuda.so and
 * libcuda.so.1 are often one file.
 */
int drvlib_classify_file(const char *guest, const char *soname, const char *entry,
			 struct drvlib *out);
/* "WSL's driver library", "a Linux driver's library", ... */
const char *drvlib_kind_text(enum drvlib_kind k);
/* "wsl", "linux", "stub", "unknown", "other", "not-elf" (for evidence). */
const char *drvlib_kind_name(enum drvlib_kind k);
/* A driver version in a file name: libcuda.so.535.104.05 -> 535.104.05.
 * Returns 0, or -1 when the name carries none. */
int drvlib_version_from_name(const char *base, const char *soname, char *out, size_t n);

#endif
