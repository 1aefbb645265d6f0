/*
 * libs_judge.h: the decision of libs.libcuda and libs.libnvml, apart from
 * the reading (src/probes/libs.c). The collector reads ld.so.cache, replays
 * the loader's search, asks dpkg for owners and reads what each file's
 * bytes say; it fills a struct lib_facts. judge_library turns those facts
 * into the result (evidence, status, KB entry, detail) with no I/O, so a
 * unit test can judge any machine from a table (tests/unit/test_judge_libs.c).
 */
#ifndef WSLGPU_LIBS_JUDGE_H
#define WSLGPU_LIBS_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/result.h"
#include "../parse/drvlib.h"
#include "../parse/ldpredict.h"

struct libspec {
	const char *soname;      /* libcuda.so.1 */
	const char *unversioned; /* libcuda.so */
	const char *entry;       /* the entry point drvlib's stub test reads */
};

enum cache_state { CACHE_OK, CACHE_MISSING, CACHE_CORRUPT };

/* What dpkg's database was like when owners were looked up. */
struct dpkg_db {
	bool scanned;
	bool present;
	size_t lists, unreadable;
	bool capped;
};

/* Where a file comes from, as far as it decides the finding. ORIGIN_OK:
 * the right library for this platform (WSL's copy on WSL2, any non-stub
 * copy on native Linux). */
enum origin { ORIGIN_OK, ORIGIN_STUB, ORIGIN_CONDA, ORIGIN_PACKAGE, ORIGIN_FOREIGN };

/* A file the loader would open, as the collector found it. */
struct lib_file {
	const char *path;      /* as the loader opens it */
	const char *owner;     /* the Debian package that owns it, or NULL */
	const char *dir;       /* of path */
	const char *canon;     /* path with every symlink followed */
	const char *canon_dir; /* of canon */
	const char *conda;     /* PREFIX when dir or canon_dir is PREFIX/lib of a conda
				* environment (PREFIX/conda-meta exists), else NULL */
	struct drvlib content; /* what its bytes say (drvlib.h); unreadable: unknown */
};

struct lib_facts {
	const struct libspec *ls;
	bool wsl;                /* WSL2, or a container in it */
	bool container;          /* a container in WSL2 */
	const char *llp;         /* LD_LIBRARY_PATH, NULL when unset */
	const char *cwd;         /* for its relative entries */
	enum cache_state cache;
	const char *cache_text;  /* CACHE_OK: "glibc-ld.so.cache1.1, 3 entries, ..." */
	const char *cache_why;   /* CACHE_CORRUPT: why it cannot be used */
	const char *default_dirs; /* the loader's built-in directories, ':'-separated */
	struct dpkg_db dpkg;
	const struct ld_prediction *p; /* the search for the soname */
	const struct ld_prediction *u; /* the search for the unversioned name */
	struct lib_file resolved;      /* p->resolved, when there is one */
	const struct lib_file *copies; /* indexed like p->seen; the chosen one unused */
	struct lib_file unv;           /* u->resolved, when there is one */
	const char *conda_package;     /* the conda package of a resolved conda file */
	bool wsl_copy_exists;          /* /usr/lib/wsl/lib/SONAME exists */
	const char *blocked_by;        /* the check before it that failed (libs.wsl_dir), or
					* NULL: its fix comes first, unless the loader picks a
					* wrong file anyway */
};

/* The file's content decides first: the toolkit's stub is a stub wherever
 * it was copied, a Linux driver's library is one even in WSL's directory;
 * only a file whose content names no origin is judged by its place. */
enum origin lib_origin(const struct lib_file *f, bool wsl, bool container);
/* Fills r (evidence first, then the verdict) from the facts. */
void judge_library(const struct lib_facts *f, struct result *r);

#endif
