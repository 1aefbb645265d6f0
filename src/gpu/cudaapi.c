/*
 * cudaapi.c: loading libcuda at run time and naming its results.
 * See cudaapi.h.
 *
 * The CUresult table below lists every value of the CUresult enum of
 * NVIDIA's cuda.h for CUDA 12.6 (research/wsl-facts.md §4.4) and 13.0
 * (/usr/local/cuda-13.0/include/cuda.h, a superset); the descriptions are
 * our own one-line summaries of the header's comments. The library's own
 * cuGetErrorName/cuGetErrorString are asked first, because a newer driver
 * knows codes we do not; the table answers when the library is a stub (its
 * cuGetErrorName fails too), is not loaded, or returns nonsense.
 */
#include "cudaapi.h"

#include <ctype.h>
#include <stdbool.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/buildinfo.h"
#include "../core/sandbox.h"

struct cu_code {
	int code;
	const char *name;
	const char *text;
};

static const struct cu_code cu_codes[] = {
	{ 0, "CUDA_SUCCESS", "no error" },
	{ 1, "CUDA_ERROR_INVALID_VALUE", "a parameter passed to the call is out of range" },
	{ 2, "CUDA_ERROR_OUT_OF_MEMORY", "not enough memory or other resources for the operation" },
	{ 3, "CUDA_ERROR_NOT_INITIALIZED", "the driver is not initialised: cuInit was not called or failed" },
	{ 4, "CUDA_ERROR_DEINITIALIZED", "the driver is shutting down" },
	{ 5, "CUDA_ERROR_PROFILER_DISABLED", "the profiler is not initialised for this run" },
	{ 6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED", "deprecated profiler error" },
	{ 7, "CUDA_ERROR_PROFILER_ALREADY_STARTED", "deprecated profiler error" },
	{ 8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED", "deprecated profiler error" },
	{ 34, "CUDA_ERROR_STUB_LIBRARY", "the loaded libcuda is the toolkit's link-time stub, not a driver" },
	{ 36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", "the call needs a newer CUDA driver" },
	{ 46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "the device is unavailable now (exclusive or prohibited compute mode)" },
	{ 100, "CUDA_ERROR_NO_DEVICE", "the driver detected no CUDA-capable device" },
	{ 101, "CUDA_ERROR_INVALID_DEVICE", "the device ordinal is not a valid CUDA device" },
	{ 102, "CUDA_ERROR_DEVICE_NOT_LICENSED", "the GRID licence is not applied" },
	{ 200, "CUDA_ERROR_INVALID_IMAGE", "the kernel image or module is invalid" },
	{ 201, "CUDA_ERROR_INVALID_CONTEXT", "no valid context is current on this thread" },
	{ 202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "deprecated: the context was already current" },
	{ 205, "CUDA_ERROR_MAP_FAILED", "a map or register operation failed" },
	{ 206, "CUDA_ERROR_UNMAP_FAILED", "an unmap or unregister operation failed" },
	{ 207, "CUDA_ERROR_ARRAY_IS_MAPPED", "the array is mapped and cannot be destroyed" },
	{ 208, "CUDA_ERROR_ALREADY_MAPPED", "the resource is already mapped" },
	{ 209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image in the module suits this device" },
	{ 210, "CUDA_ERROR_ALREADY_ACQUIRED", "the resource is already acquired" },
	{ 211, "CUDA_ERROR_NOT_MAPPED", "the resource is not mapped" },
	{ 212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY", "the mapped resource is not accessible as an array" },
	{ 213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER", "the mapped resource is not accessible as a pointer" },
	{ 214, "CUDA_ERROR_ECC_UNCORRECTABLE", "an uncorrectable ECC error was detected" },
	{ 215, "CUDA_ERROR_UNSUPPORTED_LIMIT", "the device does not support this limit" },
	{ 216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "the context is already bound to another thread" },
	{ 217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "peer access is not supported between these devices" },
	{ 218, "CUDA_ERROR_INVALID_PTX", "PTX JIT compilation failed" },
	{ 219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", "an OpenGL or DirectX context error" },
	{ 220, "CUDA_ERROR_NVLINK_UNCORRECTABLE", "an uncorrectable NVLink error was detected" },
	{ 221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "the PTX JIT compiler library was not found" },
	{ 222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the PTX was made by a toolchain newer than the driver supports" },
	{ 223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "PTX JIT compilation is disabled" },
	{ 224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", "the execution affinity type is not supported" },
	{ 225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", "the PTX calls cudaDeviceSynchronize from the device, which is unsupported" },
	{ 226, "CUDA_ERROR_CONTAINED", "a device exception was contained by the GPU's error containment" },
	{ 300, "CUDA_ERROR_INVALID_SOURCE", "the device kernel source is invalid" },
	{ 301, "CUDA_ERROR_FILE_NOT_FOUND", "the file was not found" },
	{ 302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", "a link to a shared object failed to resolve" },
	{ 303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "a shared object failed to initialise" },
	{ 304, "CUDA_ERROR_OPERATING_SYSTEM", "an operating-system call made by the driver failed" },
	{ 400, "CUDA_ERROR_INVALID_HANDLE", "a resource handle (stream, event, ...) is not valid" },
	{ 401, "CUDA_ERROR_ILLEGAL_STATE", "a resource is not in a valid state for the operation" },
	{ 402, "CUDA_ERROR_LOSSY_QUERY", "the query would discard important information" },
	{ 500, "CUDA_ERROR_NOT_FOUND", "a named symbol (function, variable) was not found" },
	{ 600, "CUDA_ERROR_NOT_READY", "asynchronous work has not completed yet" },
	{ 700, "CUDA_ERROR_ILLEGAL_ADDRESS", "a kernel accessed an invalid memory address" },
	{ 701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "the launch lacked resources (registers, threads)" },
	{ 702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the kernel ran too long and was stopped by the watchdog" },
	{ 703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", "the launch uses an incompatible texturing mode" },
	{ 704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access is already enabled" },
	{ 705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access was not enabled" },
	{ 708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "the primary context is already initialised" },
	{ 709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "the current context was destroyed" },
	{ 710, "CUDA_ERROR_ASSERT", "a device-side assert fired; the context is unusable" },
	{ 711, "CUDA_ERROR_TOO_MANY_PEERS", "peer-access hardware resources are exhausted" },
	{ 712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", "the host memory range is already registered" },
	{ 713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "the host memory range is not registered" },
	{ 714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "a kernel hit a stack error" },
	{ 715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "a kernel executed an illegal instruction" },
	{ 716, "CUDA_ERROR_MISALIGNED_ADDRESS", "a kernel accessed a misaligned address" },
	{ 717, "CUDA_ERROR_INVALID_ADDRESS_SPACE", "a kernel used an address in the wrong address space" },
	{ 718, "CUDA_ERROR_INVALID_PC", "a kernel's program counter wrapped its address space" },
	{ 719, "CUDA_ERROR_LAUNCH_FAILED", "an exception occurred on the device while running a kernel" },
	{ 720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "too many blocks for a cooperative launch" },
	{ 721, "CUDA_ERROR_TENSOR_MEMORY_LEAK", "a kernel exited without freeing its tensor memory" },
	{ 800, "CUDA_ERROR_NOT_PERMITTED", "the operation is not permitted" },
	{ 801, "CUDA_ERROR_NOT_SUPPORTED", "the operation is not supported on this system or device" },
	{ 802, "CUDA_ERROR_SYSTEM_NOT_READY", "the system is not ready for CUDA work (e.g. fabric manager not running)" },
	{ 803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "the display driver and the CUDA driver versions do not match" },
	{ 804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward-compatibility CUDA is installed but this GPU does not support it" },
	{ 805, "CUDA_ERROR_MPS_CONNECTION_FAILED", "could not connect to the MPS daemon or server" },
	{ 806, "CUDA_ERROR_MPS_RPC_FAILURE", "a remote call between MPS server and client failed" },
	{ 807, "CUDA_ERROR_MPS_SERVER_NOT_READY", "the MPS server is not ready for new clients" },
	{ 808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", "MPS client resources are exhausted" },
	{ 809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED", "MPS device-connection resources are exhausted" },
	{ 810, "CUDA_ERROR_MPS_CLIENT_TERMINATED", "the MPS server terminated this client" },
	{ 811, "CUDA_ERROR_CDP_NOT_SUPPORTED", "CUDA dynamic parallelism is not supported in this configuration" },
	{ 812, "CUDA_ERROR_CDP_VERSION_MISMATCH", "the module mixes incompatible dynamic-parallelism versions" },
	{ 900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "not permitted while the stream is capturing" },
	{ 901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", "the stream capture was invalidated by an earlier error" },
	{ 902, "CUDA_ERROR_STREAM_CAPTURE_MERGE", "the operation would merge two capture sequences" },
	{ 903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "the capture was not started in this stream" },
	{ 904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", "the capture forked without joining the origin stream" },
	{ 905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", "a dependency would cross the capture boundary" },
	{ 906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", "a disallowed implicit dependency on a capture" },
	{ 907, "CUDA_ERROR_CAPTURED_EVENT", "the event was last recorded in a capturing stream" },
	{ 908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", "the capture was ended from another thread" },
	{ 909, "CUDA_ERROR_TIMEOUT", "the wait timed out" },
	{ 910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", "the graph update violated instantiated-graph constraints" },
	{ 911, "CUDA_ERROR_EXTERNAL_DEVICE", "an asynchronous error occurred in a device outside CUDA" },
	{ 912, "CUDA_ERROR_INVALID_CLUSTER_SIZE", "the launch's cluster configuration is invalid" },
	{ 913, "CUDA_ERROR_FUNCTION_NOT_LOADED", "the function handle is not loaded" },
	{ 914, "CUDA_ERROR_INVALID_RESOURCE_TYPE", "a resource is of the wrong type for the operation" },
	{ 915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION", "resources are insufficient or unsuitable for the operation" },
	{ 916, "CUDA_ERROR_KEY_ROTATION", "an error occurred during key rotation" },
	{ 999, "CUDA_ERROR_UNKNOWN", "an unknown internal driver error" },
};

static const struct cu_code *find_code(int code)
{
	size_t lo = 0, hi = sizeof cu_codes / sizeof cu_codes[0];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cu_codes[mid].code == code)
			return &cu_codes[mid];
		if (cu_codes[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *cuda_result_name_builtin(int code)
{
	const struct cu_code *c = find_code(code);
	return c ? c->name : NULL;
}

const char *cuda_result_text_builtin(int code)
{
	const struct cu_code *c = find_code(code);
	return c ? c->text : NULL;
}

/* The library whose cuGetErrorName/String answer; set by the first load. */
static const struct cuda_api *naming_api;

/* A string from vendor code is used only if it is short, printable ASCII:
 * a broken library must not put garbage into the report. */
static bool sane_vendor_string(const char *s, bool name)
{
	if (!s)
		return false;
	size_t i = 0;
	for (; s[i] && i < 512; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c > 0x7e)
			return false;
		if (name && !(isupper(c) || isdigit(c) || c == '_'))
			return false;
	}
	return i > 0 && i < 512;
}

const char *cuda_result_name(int code)
{
	const char *s = NULL;
	if (naming_api && naming_api->cuGetErrorName &&
	    naming_api->cuGetErrorName(code, &s) == CUDA_SUCCESS && sane_vendor_string(s, true))
		return s;
	s = cuda_result_name_builtin(code);
	return s ? s : "CUDA_ERROR_UNRECOGNISED";
}

const char *cuda_result_text(int code)
{
	const char *s = NULL;
	if (naming_api && naming_api->cuGetErrorString &&
	    naming_api->cuGetErrorString(code, &s) == CUDA_SUCCESS && sane_vendor_string(s, false))
		return s;
	s = cuda_result_text_builtin(code);
	return s ? s : "unrecognised CUresult";
}

void cuda_result_describe(int code, struct strbuf *out)
{
	sb_addf(out, "%s (%d)", cuda_result_name(code), code);
}

const char *cuda_version_str(int version, char *buf, size_t size)
{
	/* 1000*major + 10*minor; CUDA 1.0 is 1000, and no major above 99 exists. */
	if (version < 1000 || version > 99990)
		snprintf(buf, size, "unknown");
	else
		snprintf(buf, size, "%d.%d", version / 1000, (version % 1000) / 10);
	return buf;
}

/* ---- loading ---- */

/* Resolves the first of the names that the library exports. */
static void *sym_first(void *h, const char *const *names)
{
	for (; *names; names++) {
		dlerror();
		void *p = dlsym(h, *names);
		if (p && !dlerror())
			return p;
	}
	return NULL;
}

#define NAMES(...) ((const char *const[]){ __VA_ARGS__, NULL })

struct sym_spec {
	size_t offset;              /* of the pointer in struct cuda_api */
	const char *call;           /* as cuda.h spells it */
	const char *const *names;   /* exported symbols, best first */
};

#define PLAIN(fn) { offsetof(struct cuda_api, fn), #fn, NAMES(#fn) }
/* Versioned first: cuda.h maps the plain name to this version. */
#define VERSIONED(fn, v) { offsetof(struct cuda_api, fn), #fn, NAMES(#fn "_" #v, #fn) }

static const struct sym_spec syms[] = {
	PLAIN(cuInit),
	PLAIN(cuDriverGetVersion),
	PLAIN(cuDeviceGetCount),
	PLAIN(cuDeviceGet),
	PLAIN(cuDeviceGetName),
	VERSIONED(cuDeviceTotalMem, v2),
	PLAIN(cuDeviceGetAttribute),
	VERSIONED(cuDeviceGetUuid, v2),
	PLAIN(cuDevicePrimaryCtxRetain),
	VERSIONED(cuDevicePrimaryCtxRelease, v2),
	/* Not _v4: CUDA 13's cuCtxCreate_v4 takes a parameter struct. */
	VERSIONED(cuCtxCreate, v2),
	VERSIONED(cuCtxDestroy, v2),
	PLAIN(cuCtxSetCurrent),
	PLAIN(cuCtxSynchronize),
	PLAIN(cuModuleLoadData),
	PLAIN(cuModuleLoadDataEx),
	PLAIN(cuModuleGetFunction),
	PLAIN(cuModuleUnload),
	PLAIN(cuLaunchKernel),
	VERSIONED(cuMemAlloc, v2),
	VERSIONED(cuMemFree, v2),
	VERSIONED(cuMemcpyHtoD, v2),
	VERSIONED(cuMemcpyDtoH, v2),
	VERSIONED(cuMemcpyDtoD, v2),
	VERSIONED(cuMemcpyHtoDAsync, v2),
	VERSIONED(cuMemcpyDtoHAsync, v2),
	VERSIONED(cuMemcpyDtoDAsync, v2),
	VERSIONED(cuMemsetD32, v2),
	PLAIN(cuMemHostAlloc),
	PLAIN(cuMemFreeHost),
	VERSIONED(cuMemGetInfo, v2),
	PLAIN(cuEventCreate),
	PLAIN(cuEventRecord),
	PLAIN(cuEventQuery),
	PLAIN(cuEventSynchronize),
	/* CUDA 13's cuda.h maps cuEventElapsedTime to _v2, same signature. */
	VERSIONED(cuEventElapsedTime, v2),
	VERSIONED(cuEventDestroy, v2),
	PLAIN(cuStreamCreate),
	PLAIN(cuStreamSynchronize),
	VERSIONED(cuStreamDestroy, v2),
	PLAIN(cuGetErrorName),
	PLAIN(cuGetErrorString),
};

/* The file behind a dlopen handle: as the loader named it (*as), and
 * with every symlink resolved (the return value). */
static char *handle_path(void *h, char **as)
{
	struct link_map *lm = NULL;
	*as = NULL;
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name || !lm->l_name[0])
		return NULL;
	*as = xstrdup(lm->l_name);
	char *real = realpath(lm->l_name, NULL);
	if (real) {
		char *copy = xstrdup(real); /* one allocator for everything we free */
		free(real);
		return copy;
	}
	return xstrdup(lm->l_name);
}

int cuda_api_load(struct cuda_api *api, const char *file, struct strbuf *err)
{
	memset(api, 0, sizeof *api);
	if (buildinfo_no_vendor_libs()) {
		sb_add(err, buildinfo_no_vendor_libs());
		return -ENOTSUP;
	}
	/* In a probe's child, from here on nothing may change this machine
	 * (core/sandbox.h). */
	sandbox_before_vendor_code();
	dlerror();
	/* RTLD_NOW: an unresolvable dependency fails here, with dlerror()'s
	 * text, instead of in the middle of a call. RTLD_LOCAL: nothing of the
	 * driver leaks into the symbol namespace of what we load later. */
	void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		sb_add(err, e ? e : "dlopen failed");
		return -ENOENT;
	}
	api->handle = h;
	api->loaded_path = handle_path(h, &api->loaded_as);
	struct strbuf missing = STRBUF_INIT;
	for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		void *p = sym_first(h, syms[i].names);
		/* POSIX guarantees that object and function pointers convert. */
		memcpy((char *)api + syms[i].offset, &p, sizeof p);
		if (!p) {
			if (missing.len)
				sb_addc(&missing, ',');
			sb_add(&missing, syms[i].call);
		}
	}
	if (missing.len)
		api->missing = sb_detach(&missing);
	sb_release(&missing);
	if (!api->cuInit) {
		sb_addf(err, "%s exports no cuInit: it is not a CUDA driver library",
			api->loaded_path ? api->loaded_path : file);
		return -ENOSYS;
	}
	if (!naming_api)
		naming_api = api;
	return 0;
}

/*
 * The library is deliberately not dlclosed: libcuda starts threads in
 * cuInit, and unloading the code under them is a known way to crash at
 * exit. Loading happens in short-lived processes, so nothing accumulates;
 * a second load of the same file gets the same handle back.
 */
void cuda_api_close(struct cuda_api *api)
{
	if (naming_api == api)
		naming_api = NULL;
	free(api->loaded_path);
	free(api->loaded_as);
	free(api->missing);
	memset(api, 0, sizeof *api);
}
