/*
 * dpkgstatus: the installed packages, from dpkg's status database
 * (/var/lib/dpkg/status), without running dpkg or apt.
 *
 * The file is a sequence of deb822 stanzas separated by blank lines:
 *
 *   Package: libnvidia-compute-535
 *   Status: install ok installed
 *   Architecture: amd64
 *   Version: 535.183.01-0ubuntu0.22.04.1
 *   Provides: libcuda-5.0-1, ..., libcuda.so.1 (= 535.183.01), libcuda1
 *
 * Field names are case-insensitive; a line starting with a space or tab
 * continues the previous field (deb-control(5), dpkg's own parser). The
 * Status field is "want flag status"; a package counts as present when its
 * status is anything but not-installed or config-files (its files are on
 * disk, possibly half-configured).
 *
 * Pure: spans point into the caller's buffer; any bytes are accepted.
 */
#ifndef WSLGPU_DPKGSTATUS_H
#define WSLGPU_DPKGSTATUS_H

#include <stdbool.h>
#include <stddef.h>

struct dpkg_span {
	const char *p;
	size_t n;
};

struct dpkg_pkg {
	struct dpkg_span name, status, version, provides, arch;
	int line; /* 1-based line of the stanza's first field */
};

/* Calls fn for each stanza that names a Package; stops when fn returns
 * non-zero and returns that value (0 after the last stanza). */
int dpkgstatus_each(const char *buf, size_t len,
		    int (*fn)(const struct dpkg_pkg *pkg, void *arg), void *arg);
/*
 * The status file of the described machine (through rootfs), read once per
 * process and kept (name, status, version, provides, architecture and line
 * of each package): every probe of the process, and report, ask it without
 * reading it again. Read whole up to 64 MiB (a big system's is a few MB);
 * a longer file is cut there and the cut noted. Calls fn for
 * each package, in file order (spans valid for the process); stops when fn
 * returns non-zero and returns that. -errno (info->err) when the file cannot
 * be read; *info, if given, says what was read.
 */
#define DPKG_STATUS_FILE "/var/lib/dpkg/status"
struct dpkgstatus_info {
	int err;            /* -errno of the open or a read, else 0 */
	size_t packages;
	bool cut;           /* longer than the cap: only its start was read */
};
int dpkgstatus_read_each(int (*fn)(const struct dpkg_pkg *pkg, void *arg), void *arg,
			 const struct dpkgstatus_info **info);
/* Forgets what was read (tests that change the file). */
void dpkgstatus_reset(void);

/* True when the package's files are installed (see above). */
bool dpkgstatus_present(const struct dpkg_pkg *pkg);
/* True when the Provides field names virtual package name (any version). */
bool dpkgstatus_provides(const struct dpkg_pkg *pkg, const char *name);

/*
 * `dpkg -l` (dpkg-query --list), the table users paste:
 *
 *   ii  libnvidia-compute-535:amd64  535.183.01-0ubuntu0.22.04.1  amd64  NVIDIA libcompute package
 *
 * Each row is two or three state letters (desired: u i h r p; status: n c H
 * U F W t i; an error flag R), the name, version, architecture and
 * description. dpkg cuts names and versions to its column widths
 * ("libnvidia-compute-470:am", "470.57.02-0ubuntu"), so the name span stops
 * at ':' (the architecture qualifier, whole or cut) and the version is
 * what was printed ("<none>" for packages never installed). Header rows and
 * other lines (a prompt, grep's matches of something else) are skipped.
 * Calls fn for each row, status holding the letters; stops when fn returns
 * non-zero and returns that value (0 after the last row).
 */
int dpkglist_each(const char *buf, size_t len,
		  int (*fn)(const struct dpkg_pkg *pkg, void *arg), void *arg);
/* True when a dpkg -l row's status letter says the files are installed
 * (anything but n, not installed, and c, config-files only), as
 * dpkgstatus_present says for the status database. */
bool dpkglist_present(const struct dpkg_pkg *pkg);

/*
 * What a package is to a WSL GPU setup. NVIDIA's CUDA on WSL guide: "Do not
 * install any Linux display driver in WSL", and not the "cuda", "cuda-12-x"
 * or "cuda-drivers" meta-packages, which pull it in; the CUDA Installation
 * Guide for Linux says cuda-runtime-12-x installs "the Driver packages" too.
 */
enum gpupkg_kind {
	GPUPKG_OTHER,
	GPUPKG_DRIVER,   /* kernel driver / display driver pieces */
	GPUPKG_UTILS,    /* Linux nvidia-smi and friends (nvidia-utils-*) */
	GPUPKG_LIBCUDA,  /* a Linux user-mode driver: libcuda, libnvidia-ml */
	GPUPKG_META,     /* meta-packages that pull the driver in */
	GPUPKG_TOOLKIT,  /* cuda-toolkit-*: what WSL should have */
};

/* Classifies a package by name and, when given, its Provides field text. */
enum gpupkg_kind gpupkg_classify(const char *name, const char *provides, size_t plen);
/* "driver", "utils", "libcuda", "meta", "toolkit", "other". */
const char *gpupkg_kind_name(enum gpupkg_kind k);

#endif
