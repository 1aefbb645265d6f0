/*
 * ldpredict: which file glibc's dynamic loader will open for
 * dlopen("libcuda.so.1") — predicted from files, without loading anything.
 *
 * For a bare soname glibc's _dl_map_object (elf/dl-load.c) tries, in order:
 * the calling object's DT_RPATH, LD_LIBRARY_PATH, its DT_RUNPATH,
 * /etc/ld.so.cache, and the default system directories. We predict for a
 * program with neither RPATH nor RUNPATH (python, a shell tool), which is
 * what the user runs; so the order is LD_LIBRARY_PATH, cache, defaults.
 *
 * The rules copied from glibc, because each one decides real cases:
 *  - LD_LIBRARY_PATH is split at ':' and ';'; an empty entry is the current
 *    directory; an empty variable is no list at all (_dl_init_paths).
 *  - In each directory the file is opened and its ELF header checked
 *    (open_verify): a missing or unreadable file is skipped; a 64/32-bit
 *    class or machine mismatch is skipped too (remembered for the error
 *    message); but an existing file with an invalid header ("invalid ELF
 *    header", "file too short") stops dlopen with an error. Any other open
 *    error (ELOOP, EIO, ...) abandons the rest of that directory list.
 *  - The cache gives one file (ldcache_lookup); if that file cannot be
 *    opened the loader does not try other cache entries but falls through
 *    to the default directories.
 *
 * Not modelled, because driver libraries never live there: glibc-hwcaps
 * and legacy hwcap subdirectories of each search directory, and $ORIGIN /
 * $LIB / $PLATFORM tokens in LD_LIBRARY_PATH (such entries are reported
 * and skipped).
 *
 * The decision is pure: files are looked at through a callback, so unit
 * tests can describe a machine in a table.
 */
#ifndef WSLGPU_LDPREDICT_H
#define WSLGPU_LDPREDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/strbuf.h"
#include "ldcache.h"

/* What the loader accepts: cache entry flags, ELF class and machine. */
struct ld_abi {
	const char *name;
	int32_t cache_flags;
	unsigned char elf_class; /* 2 = ELFCLASS64 */
	uint16_t elf_machine;
	const char *multiarch;   /* "x86_64-linux-gnu" */
};

extern const struct ld_abi ld_abi_x86_64;
/* The ABI this binary was built for (x86-64 or arm64). */
const struct ld_abi *ld_abi_host(void);

enum ld_kind {
	LD_MISSING,    /* ENOENT, ENOTDIR, EACCES: the loader moves on */
	LD_LOADABLE,   /* an ELF object of our class and machine */
	LD_OTHER_ABI,  /* other class or machine: skipped, like a missing file */
	LD_UNREADABLE, /* opening failed otherwise: the rest of that list is skipped */
	LD_BROKEN,     /* exists but is no loadable ELF: dlopen fails right there */
};

struct ld_file {
	enum ld_kind kind;
	const char *why;     /* static text for the non-loadable kinds */
	uint64_t dev, ino;   /* identity of the file, 0 if unknown */
};

typedef void (*ld_stat_fn)(const char *path, struct ld_file *out, void *arg);

/*
 * Classifies the first bytes of a file as glibc's open_verify does. hdr
 * holds up to 64 bytes of it; why gets glibc's own words ("invalid ELF
 * header", "file too short", "wrong ELF class: ELFCLASS32").
 */
enum ld_kind ld_classify(const unsigned char *hdr, size_t len, const struct ld_abi *abi,
			 const char **why);

enum ld_via { LD_VIA_NONE, LD_VIA_LD_LIBRARY_PATH, LD_VIA_CACHE, LD_VIA_DEFAULT };
/* "LD_LIBRARY_PATH", "ld.so.cache", "default path" */
const char *ld_via_name(enum ld_via v);

/* One file of the wanted name that the loader could reach. */
struct ld_seen {
	char *path;
	enum ld_via via;
	enum ld_kind kind;
	const char *why;
	bool chosen;   /* the one the loader will load */
};

struct ld_prediction {
	char *resolved;          /* the file dlopen will load, or NULL */
	enum ld_via via;
	char *broken;            /* dlopen stops with an error at this file */
	const char *broken_why;
	enum ld_via broken_via;
	char *stale;             /* the cache's file for the name is not there */
	const char *stale_why;
	bool other_abi;          /* a file of another class/machine was passed over */
	bool llp_abandoned;      /* an open error ended the LD_LIBRARY_PATH search */
	struct ld_seen *seen;    /* every such file, in search order, each once */
	size_t nseen;
	char **skipped;          /* LD_LIBRARY_PATH entries not searched ($ORIGIN...) */
	size_t nskipped;
};

struct ld_search {
	const char *ld_library_path;     /* NULL: unset */
	const char *cwd;                 /* for empty and relative entries */
	const struct ldcache *cache;     /* NULL: missing or unusable */
	const char *const *default_dirs; /* NULL-terminated */
	const struct ld_abi *abi;
	ld_stat_fn stat;
	void *arg;
};

void ld_predict(const char *soname, const struct ld_search *s, struct ld_prediction *p);
void ld_prediction_free(struct ld_prediction *p);

/*
 * Splits an LD_LIBRARY_PATH value as glibc does: at ':' and ';', an empty
 * entry meaning cwd, relative entries taken from cwd, each normalised
 * ("/usr/lib/wsl/lib/" -> "/usr/lib/wsl/lib"). Entries holding a '$' are
 * returned as they are, for the caller to report. Returns the count.
 */
size_t ld_split_path(const char *llp, const char *cwd, char ***dirs);
void ld_free_dirs(char **dirs, size_t n);

#endif
