/*
 * cudaapi: the CUDA driver API, loaded at run time, declared by us.
 *
 * The tool must build and run on a machine with no NVIDIA software, so no
 * vendor header is included: we declare only the types, constants and entry
 * points we call (in the manner of nvtop's extract_gpuinfo_nvidia.c), with
 * the signatures of NVIDIA's cuda.h (research/wsl-facts.md §4.1-4.4).
 *
 * cuda.h #defines the plain names to versioned ones (cuMemAlloc ->
 * cuMemAlloc_v2), so the loader dlsyms the versioned exported name first and
 * falls back to the old plain name where an old driver exports only that. A
 * symbol the library does not export leaves its pointer NULL: callers treat
 * NULL as "not supported by this driver", never as a crash.
 *
 * Vendor code is loaded only inside a probe's child process (or the bench
 * command's worker), never in the process that writes the report: a driver
 * that crashes or hangs costs one probe, not the report.
 */
#ifndef WSLGPU_CUDAAPI_H
#define WSLGPU_CUDAAPI_H

#include <stddef.h>

#include "../core/strbuf.h"

/* ---- types (cuda.h, 64-bit Linux) ---- */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef int CUjit_option;
typedef int CUdevice_attribute;
typedef struct { char bytes[16]; } CUuuid;

/* ---- CUresult values we decide on (the full table is in cudaapi.c) ---- */
enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NOT_INITIALIZED = 3,
	CUDA_ERROR_DEINITIALIZED = 4,
	CUDA_ERROR_STUB_LIBRARY = 34,
	CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36,
	CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_INVALID_IMAGE = 200,
	CUDA_ERROR_INVALID_CONTEXT = 201,
	CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
	CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	CUDA_ERROR_JIT_COMPILATION_DISABLED = 223,
	CUDA_ERROR_OPERATING_SYSTEM = 304,
	CUDA_ERROR_INVALID_HANDLE = 400,
	CUDA_ERROR_NOT_FOUND = 500,
	CUDA_ERROR_NOT_READY = 600,
	CUDA_ERROR_ILLEGAL_ADDRESS = 700,
	CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
	CUDA_ERROR_LAUNCH_TIMEOUT = 702,
	CUDA_ERROR_LAUNCH_FAILED = 719,
	CUDA_ERROR_NOT_PERMITTED = 800,
	CUDA_ERROR_NOT_SUPPORTED = 801,
	CUDA_ERROR_SYSTEM_NOT_READY = 802,
	CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
	CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
	CUDA_ERROR_UNKNOWN = 999,
};

/* ---- CUdevice_attribute ids (research §4.3) ---- */
enum {
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
	CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
	CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
	CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
	CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
	CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19,
	CU_DEVICE_ATTRIBUTE_COMPUTE_MODE = 20,
	CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
	CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
	CU_DEVICE_ATTRIBUTE_TCC_DRIVER = 35,
	CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
	CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
	CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
	CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
	CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
	CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
	CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
	CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 88,
	CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
	CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95,
	CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED = 99,
	CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 102,
	CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115,
};

/* ---- other constants ---- */
enum {
	CU_JIT_INFO_LOG_BUFFER = 3,
	CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
	CU_CTX_SCHED_AUTO = 0x00,
	CU_MEMHOSTALLOC_PORTABLE = 0x01,
	CU_MEMHOSTALLOC_DEVICEMAP = 0x02,
	CU_MEMHOSTALLOC_WRITECOMBINED = 0x04,
	CU_EVENT_DEFAULT = 0x0,
	CU_EVENT_BLOCKING_SYNC = 0x1,
	CU_EVENT_DISABLE_TIMING = 0x2,
	CU_STREAM_DEFAULT = 0x0,
	CU_STREAM_NON_BLOCKING = 0x1,
};

/*
 * The entry points. Each member is named after the call as cuda.h spells
 * it; the comment names the symbols tried, in order. NULL = not exported.
 */
struct cuda_api {
	void *handle;          /* from dlopen; NULL when not loaded */
	char *loaded_path;     /* the file really loaded (realpath of l_name) */
	char *loaded_as;       /* l_name: the path as the loader found it (may be a symlink) */
	char *missing;         /* comma-separated calls the library lacks, or NULL */

	CUresult (*cuInit)(unsigned flags);
	CUresult (*cuDriverGetVersion)(int *version);
	CUresult (*cuDeviceGetCount)(int *count);
	CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
	CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
	CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice dev);        /* _v2, plain */
	CUresult (*cuDeviceGetAttribute)(int *value, CUdevice_attribute attr, CUdevice dev);
	CUresult (*cuDeviceGetUuid)(CUuuid *uuid, CUdevice dev);          /* _v2, plain */
	CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
	CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);              /* _v2, plain */
	CUresult (*cuCtxCreate)(CUcontext *ctx, unsigned flags, CUdevice dev); /* _v2, plain */
	CUresult (*cuCtxDestroy)(CUcontext ctx);                          /* _v2, plain */
	CUresult (*cuCtxSetCurrent)(CUcontext ctx);
	CUresult (*cuCtxSynchronize)(void);
	CUresult (*cuModuleLoadData)(CUmodule *mod, const void *image);
	CUresult (*cuModuleLoadDataEx)(CUmodule *mod, const void *image, unsigned nopts,
				       CUjit_option *opts, void **values);
	CUresult (*cuModuleGetFunction)(CUfunction *fn, CUmodule mod, const char *name);
	CUresult (*cuModuleUnload)(CUmodule mod);
	CUresult (*cuLaunchKernel)(CUfunction fn, unsigned gx, unsigned gy, unsigned gz,
				   unsigned bx, unsigned by, unsigned bz, unsigned shared_bytes,
				   CUstream stream, void **params, void **extra);
	CUresult (*cuMemAlloc)(CUdeviceptr *dptr, size_t bytes);          /* _v2, plain */
	CUresult (*cuMemFree)(CUdeviceptr dptr);                          /* _v2, plain */
	CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);   /* _v2, plain */
	CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);         /* _v2, plain */
	CUresult (*cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);   /* _v2, plain */
	CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t bytes,
				      CUstream stream);                   /* _v2, plain */
	CUresult (*cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t bytes,
				      CUstream stream);                   /* _v2, plain */
	CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
				      CUstream stream);                   /* _v2, plain */
	CUresult (*cuMemsetD32)(CUdeviceptr dst, unsigned value, size_t count); /* _v2, plain */
	CUresult (*cuMemHostAlloc)(void **p, size_t bytes, unsigned flags);
	CUresult (*cuMemFreeHost)(void *p);
	CUresult (*cuMemGetInfo)(size_t *free_bytes, size_t *total_bytes); /* _v2, plain */
	CUresult (*cuEventCreate)(CUevent *ev, unsigned flags);
	CUresult (*cuEventRecord)(CUevent ev, CUstream stream);
	CUresult (*cuEventQuery)(CUevent ev);
	CUresult (*cuEventSynchronize)(CUevent ev);
	CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end); /* _v2, plain */
	CUresult (*cuEventDestroy)(CUevent ev);                           /* _v2, plain */
	CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
	CUresult (*cuStreamSynchronize)(CUstream stream);
	CUresult (*cuStreamDestroy)(CUstream stream);                     /* _v2, plain */
	CUresult (*cuGetErrorName)(CUresult code, const char **name);
	CUresult (*cuGetErrorString)(CUresult code, const char **text);
};

/*
 * Loads a CUDA driver library: file is a soname ("libcuda.so.1", searched
 * as an application's dlopen would: the process's LD_LIBRARY_PATH, then
 * ld.so.cache) or a path. Resolves every entry point above and records the
 * file really loaded in api->loaded_path. Returns 0; -ENOENT with dlerror()'s
 * text in err when the library cannot be loaded (missing file, wrong ELF
 * class, unresolved dependencies); -ENOSYS when it loads but exports no
 * cuInit (not a CUDA driver). api is zeroed first; release it with
 * cuda_api_close. The first loaded api also answers cuda_result_name.
 */
int cuda_api_load(struct cuda_api *api, const char *file, struct strbuf *err);
/* Frees what cuda_api_load allocated (the library itself stays mapped:
 * see cudaapi.c). Safe on a zeroed or failed api. */
void cuda_api_close(struct cuda_api *api);

/*
 * The CUresult's name ("CUDA_ERROR_NO_DEVICE") and description. They ask
 * the loaded library (cuGetErrorName/cuGetErrorString) and fall back to our
 * own table of every CUresult of CUDA 12 and 13's cuda.h. Never NULL: an
 * unknown code gives "CUDA_ERROR_UNRECOGNISED" / "unrecognised CUresult".
 */
const char *cuda_result_name(int code);
const char *cuda_result_text(int code);
/* Our table only (no library asked): NULL for an unknown code. */
const char *cuda_result_name_builtin(int code);
const char *cuda_result_text_builtin(int code);
/* "CUDA_ERROR_NO_DEVICE (100)" appended to out. */
void cuda_result_describe(int code, struct strbuf *out);

/* "12.4" from cuDriverGetVersion's 12040 (1000*major + 10*minor); "unknown"
 * for a value no driver gives (<= 0 or absurdly large). buf >= 16 bytes. */
const char *cuda_version_str(int version, char *buf, size_t size);

#endif
