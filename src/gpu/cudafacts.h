/*
 * cudafacts: the decisions of the cuda layer as pure functions, so that
 * they are unit-tested without any library (tests/unit/test_cuda.c):
 * which KB entry a CUresult at a given step means, whether the loaded
 * libcuda is the one the loader analysis predicted, what a device's PCI
 * address and UUID look like, whether a kernel wrote what it should.
 * src/probes/cuda.c calls these; the bench command may too.
 */
#ifndef WSLGPU_CUDAFACTS_H
#define WSLGPU_CUDAFACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/strbuf.h"

/* More devices than this is a broken driver, not a machine. */
#define CUDA_MAX_PLAUSIBLE_DEVICES 1024
/* Devices whose details cuda.devices reports (the count is always told). */
#define CUDA_MAX_REPORTED_DEVICES 64

enum cuda_load_verdict {
	CUDA_LOAD_OK,            /* the predicted file, or WSL's on WSL2 */
	CUDA_LOAD_NO_PREDICTION, /* loaded fine; libs.libcuda made no prediction */
	CUDA_LOAD_MISMATCH,      /* a file other than the predicted one (warn) */
	CUDA_LOAD_SHADOWED,      /* WSL2, but not WSL's libcuda: a Linux driver's copy (fail) */
	CUDA_LOAD_STUB,          /* the toolkit's link-time stub (fail) */
};

/*
 * Judges the file the loader really picked (loaded, canonical guest path)
 * against the one libs.libcuda predicted (canonical guest path, or NULL).
 * On WSL2 the driver's libcuda lives under /usr/lib/wsl/ (lib/, or the
 * driver store drivers/ that container runtimes map); any other file is a
 * Linux driver's copy that shadows it (field case R03).
 */
enum cuda_load_verdict cuda_judge_loaded(const char *predicted, const char *loaded, bool wsl2);

/* True when a directory of path is named "stubs" (the CUDA toolkit's
 * lib64/stubs, targets/<arch>/lib/stubs); dir receives that directory. */
bool cuda_path_in_stubs(const char *path, struct strbuf *dir);

/*
 * Whether a value of CUDA_VISIBLE_DEVICES hides every GPU: the driver takes
 * the leading valid entries, so "", "-1", "none" and "x,0" leave nothing
 * visible. NULL (unset) hides nothing. GPU UUIDs ("GPU-...", "MIG-...")
 * count as valid: we cannot check them without the driver.
 */
bool cuda_visible_devices_hide_all(const char *value);

/* Steps of the layer, for the KB mapping below. */
enum cuda_step {
	CUDA_STEP_INIT,     /* cuInit, cuDriverGetVersion, cuDeviceGetCount */
	CUDA_STEP_DEVICES,  /* cuDeviceGet*, attributes */
	CUDA_STEP_CONTEXT,  /* primary context retain / set current */
	CUDA_STEP_MODULE,   /* cuModuleLoadData(Ex), cuModuleGetFunction */
	CUDA_STEP_MEMORY,   /* cuMemAlloc, copies */
	CUDA_STEP_LAUNCH,   /* cuLaunchKernel, cuCtxSynchronize */
};

/* KB entry id for a failed CUresult at a step. hidden: CUDA_VISIBLE_DEVICES
 * hides every device (100 then has that cause); wsl2: the causes of 100
 * differ between WSL2 and native Linux. Never NULL. */
const char *cuda_result_kb(enum cuda_step step, int code, bool hidden, bool wsl2);

/* "0000:01:00.0" from attributes 50/33/34 (negative: unknown -> "unknown"). */
void cuda_format_pci(int domain, int bus, int device, char *buf, size_t size);
/* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi -L writes it. */
void cuda_format_uuid(const unsigned char bytes[16], char *buf, size_t size);
/*
 * A device name from a buffer the driver filled: stops at the first NUL
 * or at cap bytes (a driver may not terminate it), drops control
 * characters, trims blanks; "(no name)" when nothing is left. Non-UTF-8
 * bytes are kept: the reports escape them.
 */
void cuda_clean_name(const char *raw, size_t cap, struct strbuf *out);

/* MiB from bytes, rounded down. */
unsigned long long cuda_bytes_to_mib(unsigned long long bytes);

/*
 * Checks a buffer that wslgpu_fill(buf, n, seed) wrote: returns how many
 * elements differ from wslgpu_fill_value(i, seed); *first_bad (if given)
 * receives the first such index (n when none).
 */
size_t cuda_verify_fill(const unsigned *buf, size_t n, unsigned seed, size_t *first_bad);

#endif
