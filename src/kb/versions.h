/*
 * versions: the version facts users act on, as dated tables.
 *
 * Prose goes stale silently; a table says what it knows and when it was
 * last checked. Each table below names its sources (primary ones: the
 * vendor's release notes, documentation or repository) and the date they
 * were read; doc/facts.md lists them for people, `wslgpu kb` and `wslgpu
 * --version` show the knowledge date. A version newer than a table's
 * newest row is "newer than this tool's knowledge of KNOWLEDGE_DATE",
 * never guessed into an older row (versions_newer_words).
 *
 * The CUDA release -> driver table is driver_table.h's; the others are
 * here. tests/unit/test_facts.c checks their order and that every version
 * a knowledge-base sentence names is one these tables know.
 */
#ifndef WSLGPU_VERSIONS_H
#define WSLGPU_VERSIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/strbuf.h"

/* The month the tables were last checked as a whole ("newer than this
 * tool's knowledge of 2026-12"), and the day. */
#define KNOWLEDGE_DATE "2026-12"
#define KNOWLEDGE_CHECKED "2026-12-05"

struct version_table {
	const char *name;    /* "PyTorch wheels" */
	const char *checked; /* the day its sources were last read */
	const char *newest;  /* its newest row, in words */
	const char *sources; /* addresses, blank-separated */
};
/* Every table, the driver table first. */
const struct version_table *version_tables(size_t *n);

/* ---- NVIDIA driver branches ---- */

struct driver_branch {
	int branch;              /* 580 (Linux numbering; R580) */
	const char *designation; /* NVIDIA's: "Long Term Support Branch", or NULL */
	const char *end_of_life; /* "June 2028", or NULL where NVIDIA gives none */
	const char *note;        /* what makes it matter here, or NULL */
};
/* Newest first. */
const struct driver_branch *driver_branches(size_t *n);
const struct driver_branch *driver_branch_find(int branch);
/* The last driver branch for a GPU of compute capability cc (10 x major +
 * minor: 61 for 6.1): 580 below Turing (7.5), 470 below Maxwell (5.0);
 * 0 when NVIDIA has announced no last branch for it. */
int driver_last_branch_for_cc(int cc);
/* Whether a driver version ("640.10", "581.57") is of a branch newer than
 * the newest this table knows. */
bool driver_newer_than_known(const char *version);

/* ---- PyTorch wheels (x86_64 Linux and Windows builds) ---- */

struct torch_wheel {
	const char *torch;    /* the release, "2.14" */
	const char *tag;      /* the wheel index tag, "cu132" */
	int cuda;             /* its CUDA as 1000 x major + 10 x minor: 13020 */
	const int *archs;     /* compute capabilities with kernels (10 x major +
			       * minor), ending in 0; NULL where not transcribed */
	bool ptx;             /* the newest arch also carries PTX (Linux builds) */
	bool pypi;            /* what a plain `pip install torch` gets from PyPI */
	bool announced;       /* announced for a release not known to be out */
};
/* Newest release first; within a release, newest CUDA first. */
const struct torch_wheel *torch_wheels(size_t *n);
/* Whether w has kernels for (or PTX that JITs to) compute capability cc. A
 * row whose architectures are not transcribed covers every cc. */
bool torch_wheel_covers(const struct torch_wheel *w, int cc);
/* The newest released PyTorch this table knows ("2.14"). */
const char *torch_newest_known(void);
/* PyTorch releases the knowledge base names for another fact. */
struct torch_note {
	const char *torch; /* "2.4" */
	const char *fact;
};
const struct torch_note *torch_notes(size_t *n);

/* ---- the oldest GPU each CUDA major compiles for ---- */

struct cuda_arch_floor {
	int major;     /* 13 */
	int oldest_cc; /* 75: CUDA 13 builds for Turing (7.5) and newer */
};
/* Newest major first. */
const struct cuda_arch_floor *cuda_arch_floors(size_t *n);
/* The oldest compute capability a CUDA major builds for; 0 if unknown. */
int cuda_arch_floor_of(int major);

/* ---- TensorFlow, JAX, CuPy: their CUDA pairings ---- */

struct tf_build {
	const char *tensorflow; /* "2.21.0" */
	const char *cuda;       /* "12.5" */
	const char *cudnn;      /* "9.3" */
};
const struct tf_build *tf_builds(size_t *n);

struct jax_wheel {
	const char *extra;      /* pip extra: "cuda13" (jax[cuda13]) */
	const char *built_with; /* "13.0" */
	const char *compatible; /* "CUDA >= 13.0" */
	int cc_min;             /* 75 */
	const char *driver;     /* Linux driver: ">= 580" */
	const char *since;      /* the first JAX release documenting it, or NULL */
};
const struct jax_wheel *jax_wheels(size_t *n);

struct cupy_wheel {
	const char *package; /* "cupy-cuda13x" */
	const char *cuda;    /* "13.0 to 13.3" */
};
const struct cupy_wheel *cupy_wheels(size_t *n);

/* ---- WSL releases and their kernels ---- */

struct wsl_release {
	const char *first, *last; /* releases "2.7.4".."2.7.7" that ship kernel */
	const char *kernel;       /* "6.18.26.1" (uname -r: 6.18.26.1-microsoft-standard-WSL2) */
	const char *note;         /* or NULL */
};
/* Newest kernel first. */
const struct wsl_release *wsl_releases(size_t *n);
/* The WSL releases that ship a kernel release ("6.6.87.2-microsoft-
 * standard-WSL2" or "6.6.87.2"), as words ("2.5.9 to 2.6.3"), or NULL. */
const char *wsl_releases_of_kernel(const char *kernel, char *buf, size_t n);
/* The newest WSL release and kernel this table knows. */
const char *wsl_newest_known(void);
const char *wsl_newest_kernel_known(void);
/* Whether a WSL version (2.10.1) or a WSL kernel release is newer than the
 * table's newest. */
bool wsl_newer_than_known(const char *version);
bool wsl_kernel_newer_than_known(const char *kernel);

/* ---- the NVIDIA Container Toolkit and Docker ---- */

struct ctk_release {
	const char *version; /* "1.18.0" */
	const char *date;    /* its tag's date */
	const char *note;    /* or NULL */
};
const struct ctk_release *ctk_releases(size_t *n);
/* The first release with the nvidia-cdi-refresh service. */
#define CTK_CDI_REFRESH_SINCE "1.18.0"
/* The last nvidia-docker2 meta package (its 2.x numbering is not the
 * toolkit's): 2.14.0, part of toolkit 1.14.0. */
#define NVIDIA_DOCKER2_LAST "2.14.0"
bool ctk_newer_than_known(const char *version);
/* Docker Engine: CDI opt-in from 25.0, on by default from 28.2.0. */
#define DOCKER_CDI_OPT_IN "25.0"
#define DOCKER_CDI_DEFAULT "28.2.0"

/* ---- newer than known ---- */

/* "WHAT VERSION is newer than this tool's knowledge of 2026-12 (its table
 * ends at NEWEST)" into out. */
void versions_newer_words(struct strbuf *out, const char *what, const char *version,
			  const char *newest);
/*
 * Whether a version of one of the things the tables know is newer than the
 * newest they know; if so, versions_newer_words into out. kind: "cuda" (a
 * toolkit or the CUDA a driver supports), "driver" (a Linux driver
 * version: its branch), "wsl" (wsl.exe --version's), "wsl-kernel",
 * "torch", "tensorflow", "container-toolkit". A version of an unknown kind
 * or one that does not parse is not newer.
 */
bool versions_newer(const char *kind, const char *version, struct strbuf *out);

#endif
