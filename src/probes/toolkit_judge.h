/*
 * toolkit_judge.h: the decision of toolkit.nvcc, apart from the reading
 * (src/probes/toolkit.c). The collector finds every CUDA toolkit (PATH's
 * nvcc, $CUDA_HOME and its kin, /usr/local/cuda*, /opt/cuda), reads each
 * version, runs PATH's nvcc --version, and takes the driver's CUDA version
 * from the checks that asked it; it fills a struct nvcc_facts. judge_nvcc
 * turns them into the result with no I/O, so a unit test can judge any
 * machine from a table (tests/unit/test_judge_toolkit.c).
 */
#ifndef WSLGPU_TOOLKIT_JUDGE_H
#define WSLGPU_TOOLKIT_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/result.h"

#define MAX_TOOLKITS 12

struct toolkit {
	char *dir;       /* as found: /usr/local/cuda */
	char *real;      /* symlinks resolved: /usr/local/cuda-12.4 */
	char *version;   /* "12.4.1", or NULL */
	char *how;       /* where the version came from */
	bool has_nvcc;
	bool on_path;    /* PATH's nvcc is this toolkit's */
};

struct nvcc_facts {
	const char *nvcc;         /* the nvcc found on PATH or in the usual places (guest) */
	bool nvcc_on_path;        /* PATH found it */
	const char *env[3];       /* $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT (NULL: unset or empty) */
	const char *cuda_home_real; /* $CUDA_HOME with symlinks followed, when a directory */
	const struct toolkit *tk; /* in the order found */
	size_t n;
	const struct toolkit *picked; /* nvcc's own toolkit, or NULL */
	const char *nvcc_error;   /* nvcc --version failed: how */
	const char *driver_cuda;  /* the CUDA version the driver supports, or NULL */
	const char *driver_cuda_from; /* the check that said so */
	const char *myth_in;      /* where /usr/local/cuda-wsl is named, or NULL */
	const char *platform;     /* platform.kind's kind ("wsl2", "native", "container"...),
				   * for where the driver is updated; NULL: unknown */
};

/* Fills r (evidence, then the verdict) from the facts. */
void judge_nvcc(const struct nvcc_facts *f, struct result *r);

#endif
