/*
 * nvmlapi: NVML (libnvidia-ml.so.1) loaded with dlopen, declared by us.
 *
 * After nvtop's extract_gpuinfo_nvidia.c: no vendor header, only the few
 * types and entry points we use (research/wsl-facts.md §4.5, NVIDIA's
 * nvml.h of CUDA 12.6). Each entry point is resolved by its versioned name
 * first and its older name second (nvmlInit_v2, then nvmlInit); an entry
 * point the library does not export makes that one query answer
 * NVMLAPI_NO_SYMBOL ("not supported by this library"), never a failure of
 * the whole library — NVML on WSL is partial by design (NVIDIA's CUDA on
 * WSL guide §5.2).
 *
 * Used by the nvml layer of `wslgpu check` and by `wslgpu watch`, which
 * samples memory and utilisation. Calls into the vendor library can crash
 * or hang; callers run them in a process of their own (the probe runner's
 * children) and announce each call with probe_step first.
 *
 * Query functions return NVML's own return code (0 = NVML_SUCCESS, see
 * nvml_return_name) or NVMLAPI_NO_SYMBOL; nvmlapi_open returns 0 or a
 * negative errno value, like the rest of the project.
 */
#ifndef WSLGPU_NVMLAPI_H
#define WSLGPU_NVMLAPI_H

#include <stdbool.h>

#include "../core/strbuf.h"

/* NVML return codes we act on (nvmlReturn_t). */
#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NO_PERMISSION 4
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_DRIVER_NOT_LOADED 9
#define NVML_ERROR_LIBRARY_NOT_FOUND 12
#define NVML_ERROR_FUNCTION_NOT_FOUND 13
#define NVML_ERROR_GPU_IS_LOST 15
#define NVML_ERROR_OPERATING_SYSTEM 17
#define NVML_ERROR_LIB_RM_VERSION_MISMATCH 18
#define NVML_ERROR_UNKNOWN 999
/* Ours, not NVML's: the library exports no such entry point. */
#define NVMLAPI_NO_SYMBOL (-1)

/* Driver models (nvmlDriverModel_t, Windows only). */
#define NVML_DRIVER_WDDM 0
#define NVML_DRIVER_WDM 1  /* "TCC" in nvidia-smi */
#define NVML_DRIVER_MCDM 2

/* Buffer sizes from nvml.h. */
#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE 80
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE 96

typedef struct nvmlapi_device_st *nvmlapi_device;

struct nvmlapi_memory {        /* nvmlMemory_t (v1), bytes */
	unsigned long long total;
	unsigned long long free;
	unsigned long long used;
};

struct nvmlapi_utilization {   /* nvmlUtilization_t, percent */
	unsigned int gpu;
	unsigned int memory;
};

struct nvmlapi_pci {           /* nvmlPciInfo_t, as nvmlDeviceGetPciInfo_v3 fills it */
	char bus_id_legacy[16];
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pci_device_id;
	unsigned int pci_subsystem_id;
	char bus_id[32];
};

struct nvmlapi {
	void *handle;
	struct strbuf loaded;  /* the file the loader really mapped */
	bool initialized;
	/* The exported names that were found, for evidence (NULL: none). */
	const char *sym_init, *sym_count, *sym_handle, *sym_cuda, *sym_procs, *sym_model;
	/* Entry points (NULL when not exported). */
	int (*fn_init)(void);
	int (*fn_shutdown)(void);
	const char *(*fn_error_string)(int);
	int (*fn_driver_version)(char *, unsigned int);
	int (*fn_cuda_version)(int *);
	int (*fn_count)(unsigned int *);
	int (*fn_handle)(unsigned int, nvmlapi_device *);
	int (*fn_name)(nvmlapi_device, char *, unsigned int);
	int (*fn_memory)(nvmlapi_device, struct nvmlapi_memory *);
	int (*fn_utilization)(nvmlapi_device, struct nvmlapi_utilization *);
	int (*fn_procs)(nvmlapi_device, unsigned int *, void *);
	int (*fn_pci)(nvmlapi_device, struct nvmlapi_pci *);
	int (*fn_model)(nvmlapi_device, int *, int *);
};

/*
 * Loads the library at path ("libnvidia-ml.so.1" to search like an
 * application, or an absolute host path) and resolves every entry point.
 * Returns 0, or -ENOENT with dlerror's text in err when it cannot be loaded.
 * Even on failure nvmlapi_close must be called.
 */
int nvmlapi_open(struct nvmlapi *n, const char *path, struct strbuf *err);
/* nvmlInit_v2 (or nvmlInit). */
int nvmlapi_init(struct nvmlapi *n);
/* nvmlShutdown if initialised; unloads the library. */
void nvmlapi_close(struct nvmlapi *n);

int nvmlapi_driver_version(struct nvmlapi *n, struct strbuf *out);
/* 1000*major + 10*minor of the newest CUDA the driver supports (12040). */
int nvmlapi_cuda_driver_version(struct nvmlapi *n, int *version);
int nvmlapi_device_count(struct nvmlapi *n, unsigned int *count);
int nvmlapi_device_handle(struct nvmlapi *n, unsigned int index, nvmlapi_device *dev);
int nvmlapi_device_name(struct nvmlapi *n, nvmlapi_device dev, struct strbuf *out);
int nvmlapi_device_memory(struct nvmlapi *n, nvmlapi_device dev, struct nvmlapi_memory *m);
int nvmlapi_device_utilization(struct nvmlapi *n, nvmlapi_device dev,
			       struct nvmlapi_utilization *u);
/* Number of processes with a compute context on the device. */
int nvmlapi_device_process_count(struct nvmlapi *n, nvmlapi_device dev, unsigned int *count);
int nvmlapi_device_pci(struct nvmlapi *n, nvmlapi_device dev, struct nvmlapi_pci *p);
int nvmlapi_device_driver_model(struct nvmlapi *n, nvmlapi_device dev, int *current,
				int *pending);

/* "NVML_ERROR_OPERATING_SYSTEM" for 17, from our own table (nvml.h of CUDA
 * 12.x); "NVMLAPI_NO_SYMBOL" for ours; "unrecognised" otherwise. */
const char *nvml_return_name(int rc);
/* The library's own nvmlErrorString when it has one (valid until
 * nvmlapi_close), else a short text of ours; n may be NULL. */
const char *nvmlapi_error_string(struct nvmlapi *n, int rc);
/* "WDDM", "TCC", "MCDM", or "unknown". */
const char *nvml_driver_model_name(int model);
/* True for the answers that mean "this query is not available here" rather
 * than "NVML is broken": not exported, NOT_SUPPORTED, FUNCTION_NOT_FOUND and
 * UNKNOWN (WSL's process list answers 999: dask/distributed#5567). */
bool nvml_rc_unavailable(int rc);

#endif
