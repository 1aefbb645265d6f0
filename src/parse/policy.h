/*
 * policy: the fleet policy file of `wslgpu smoke --policy FILE` — what a
 * platform team pins for its machines (driver range, kernel, distributions,
 * packages, framework versions, memory, where data may not live, which
 * findings it tolerates, and the smoke run's time budget).
 *
 * The file is INI, split into items by src/parse/inifile (inih underneath).
 * A policy is a contract, so nothing in it is guessed or ignored: an unknown
 * section or key, a repeated key, an empty or malformed value, bytes that are
 * not UTF-8, a line inih cannot take whole (it reads at most 200 bytes a
 * line) are all errors with the line number, and smoke exits 2. Lists are
 * comma-separated and may go on over indented lines:
 *
 *   [packages]
 *   forbidden = libnvidia-compute-*, nvidia-driver-*,
 *       cuda-drivers, nvidia-utils-*
 *
 * policy_parse() is pure (text in, struct out); policy_load() reads the
 * user's own file (directly: a policy describes the fleet, not the machine
 * under --root).
 */
#ifndef WSLGPU_POLICY_H
#define WSLGPU_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "version.h"

/* Bounds: a real policy is a page; anything beyond these is not one. */
#define POLICY_MAX_BYTES (1u << 20)
#define POLICY_MAX_LINE 198   /* inih's line buffer is 200 bytes with "\n\0" */
#define POLICY_MAX_ERRORS 20  /* errors kept; the rest are only counted */
#define POLICY_MAX_LIST 256   /* entries in one list */

/* One entry of a list, with the line it came from (for messages). */
struct policy_item {
	char *text;
	int line;
};

struct policy_list {
	struct policy_item *v;
	size_t n;
	int line; /* the key's line; 0 when the key is absent */
};

/* A dotted version bound ("551.23", "5.15.90.1"). */
struct policy_version {
	bool set;
	struct version v;
	char *text;
	int line;
};

struct policy_size {
	bool set;
	unsigned long long bytes;
	char *text;
	int line;
};

struct policy_error {
	int line; /* 0: the whole file */
	char *msg;
};

struct policy {
	char *path; /* as given, for messages */

	/* [driver]: the driver version host.driver settles (on WSL the Windows
	 * driver, "551.23"), inclusive bounds. */
	struct policy_version driver_min, driver_max;
	/* [wsl]: the running kernel's release, and the WSL app version that
	 * `wsl.exe --version` reports (needs interop; smoke then asks Windows). */
	struct policy_version min_kernel, min_wsl;
	/* [distro] allowed = ID[:VERSION-GLOB], ... (os-release ID, VERSION_ID) */
	struct policy_list distros;
	/* [packages] dpkg package-name globs. */
	struct policy_list pkg_required, pkg_forbidden;
	/* [frameworks] version globs; matmul: each pinned framework (torch when
	 * none is) must run its verified GPU matmul. */
	struct policy_item fw_torch, fw_torch_cuda, fw_tensorflow, fw_jax, fw_cupy;
	int fw_matmul;    /* -1 unset, 0 no, 1 yes */
	int fw_line;      /* first line of [frameworks] keys, 0 if none */
	/* [memory] */
	struct policy_size mem_min_available, mem_min_total;
	/* [data] paths to check (added to --data) and forbidden path globs. */
	struct policy_list data_paths, data_forbidden;
	/* [tolerate] findings = check-id or KB-id globs. */
	struct policy_list tolerate;
	/* [smoke] */
	int budget_ms, timeout_ms;  /* 0: unset */
	int budget_line, timeout_line;
	struct policy_list layers;  /* layer names or check ids */
	int strict;                 /* -1 unset, 0, 1: warnings fail the run */

	struct policy_error *errors;
	size_t nerrors;
	size_t more_errors; /* beyond POLICY_MAX_ERRORS */
};

/* Parses len bytes (any bytes: they are checked). path is only used in
 * messages. Returns 0, or -1 when pol->errors holds at least one error. */
int policy_parse(const char *text, size_t len, const char *path, struct policy *pol);
/* Reads and parses the file at path: a missing, unreadable, non-regular or
 * too large file is an error (line 0) as well. Returns 0 or -1. */
int policy_load(const char *path, struct policy *pol);
/* Adds an error (the caller's own checks, e.g. unknown check ids). */
void policy_error(struct policy *pol, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Writes each error as "FILE:LINE: message" (or "FILE: message"), one a
 * line, to f. */
void policy_print_errors(const struct policy *pol, FILE *f);
void policy_free(struct policy *pol);

/* True when pattern (a dpkg-style glob) matches name (fnmatch, no flags). */
bool policy_glob_match(const char *pattern, const char *name);
/* True when a [data] forbidden glob matches path or one of its parent
 * directories (/mnt/[a-z] forbids /mnt/c/data; '*' does not cross '/'). */
bool policy_path_forbidden(const char *pattern, const char *path);
/* True when a version pin matches a framework version: the glob against
 * the whole version or against it without its "+local" part
 * ("2.5.1" and "2.5.*" both match "2.5.1+cu124"). */
bool policy_pin_match(const char *pin, const char *version);
/* Parses a strict dotted version ("551.23"): digits and single dots only. */
int policy_parse_version(const char *s, struct version *v);
/* Parses a size: a number, optional blank, unit B K KB KiB M MB MiB G GB
 * GiB T TB TiB (any case; all powers of 1024, as .wslconfig means them). */
int policy_parse_size(const char *s, unsigned long long *bytes);
/* Parses a duration: a number with an optional unit s or m ("60", "90s",
 * "1.5m"). Returns milliseconds, or -1. */
int policy_parse_duration(const char *s);

#endif
