/* nvmlapi.c: NVML through dlopen, without vendor headers. See nvmlapi.h. */
#include "nvmlapi.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "../core/buildinfo.h"
#include "../core/sandbox.h"

/* Resolves the first name of a NULL-terminated list that the library
 * exports; returns the symbol and stores which name it was. */
static void *resolve(void *handle, const char *const *names, const char **which)
{
	for (size_t i = 0; names[i]; i++) {
		dlerror();
		void *p = dlsym(handle, names[i]);
		if (p) {
			if (which)
				*which = names[i];
			return p;
		}
	}
	if (which)
		*which = NULL;
	return NULL;
}

#define NAMES(...) ((const char *const[]){ __VA_ARGS__, NULL })

int nvmlapi_open(struct nvmlapi *n, const char *path, struct strbuf *err)
{
	memset(n, 0, sizeof *n);
	sb_init(&n->loaded);
	if (buildinfo_no_vendor_libs()) {
		if (err)
			sb_add(err, buildinfo_no_vendor_libs());
		return -ENOTSUP;
	}
	/* In a probe's child, from here on nothing may change this machine
	 * (core/sandbox.h). */
	sandbox_before_vendor_code();
	dlerror();
	/* RTLD_LOCAL: the vendor library's symbols must not leak into the
	 * resolution of anything loaded later (libcuda in the same process). */
	n->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!n->handle) {
		const char *e = dlerror();
		if (err)
			sb_add(err, e ? e : "dlopen failed");
		return -ENOENT;
	}
	struct link_map *lm = NULL;
	if (dlinfo(n->handle, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && *lm->l_name)
		sb_add(&n->loaded, lm->l_name);
	else
		sb_add(&n->loaded, path);

	void *h = n->handle;
	n->fn_init = (int (*)(void))resolve(h, NAMES("nvmlInit_v2", "nvmlInit"), &n->sym_init);
	n->fn_shutdown = (int (*)(void))resolve(h, NAMES("nvmlShutdown"), NULL);
	n->fn_error_string = (const char *(*)(int))resolve(h, NAMES("nvmlErrorString"), NULL);
	n->fn_driver_version = (int (*)(char *, unsigned int))resolve(
		h, NAMES("nvmlSystemGetDriverVersion"), NULL);
	n->fn_cuda_version = (int (*)(int *))resolve(
		h, NAMES("nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"),
		&n->sym_cuda);
	n->fn_count = (int (*)(unsigned int *))resolve(
		h, NAMES("nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"), &n->sym_count);
	n->fn_handle = (int (*)(unsigned int, nvmlapi_device *))resolve(
		h, NAMES("nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"),
		&n->sym_handle);
	n->fn_name = (int (*)(nvmlapi_device, char *, unsigned int))resolve(
		h, NAMES("nvmlDeviceGetName"), NULL);
	/* The v1 struct on purpose: nvmlDeviceGetMemoryInfo_v2 needs a
	 * versioned struct some older drivers reject. */
	n->fn_memory = (int (*)(nvmlapi_device, struct nvmlapi_memory *))resolve(
		h, NAMES("nvmlDeviceGetMemoryInfo"), NULL);
	n->fn_utilization = (int (*)(nvmlapi_device, struct nvmlapi_utilization *))resolve(
		h, NAMES("nvmlDeviceGetUtilizationRates"), NULL);
	n->fn_procs = (int (*)(nvmlapi_device, unsigned int *, void *))resolve(
		h, NAMES("nvmlDeviceGetComputeRunningProcesses_v3",
			 "nvmlDeviceGetComputeRunningProcesses_v2",
			 "nvmlDeviceGetComputeRunningProcesses"), &n->sym_procs);
	n->fn_pci = (int (*)(nvmlapi_device, struct nvmlapi_pci *))resolve(
		h, NAMES("nvmlDeviceGetPciInfo_v3"), NULL);
	n->fn_model = (int (*)(nvmlapi_device, int *, int *))resolve(
		h, NAMES("nvmlDeviceGetDriverModel_v2", "nvmlDeviceGetDriverModel"),
		&n->sym_model);
	return 0;
}

int nvmlapi_init(struct nvmlapi *n)
{
	if (!n->fn_init)
		return NVMLAPI_NO_SYMBOL;
	int rc = n->fn_init();
	if (rc == NVML_SUCCESS)
		n->initialized = true;
	return rc;
}

void nvmlapi_close(struct nvmlapi *n)
{
	if (n->initialized && n->fn_shutdown)
		n->fn_shutdown();
	n->initialized = false;
	if (n->handle)
		dlclose(n->handle);
	n->handle = NULL;
	sb_release(&n->loaded);
}

/* Calls a string query with a buffer of size len and copies the answer. */
static int string_query(int rc, const char *buf, size_t len, struct strbuf *out)
{
	sb_reset(out);
	if (rc == NVML_SUCCESS)
		sb_addn(out, buf, strnlen(buf, len));
	return rc;
}

int nvmlapi_driver_version(struct nvmlapi *n, struct strbuf *out)
{
	char buf[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = "";
	if (!n->fn_driver_version)
		return NVMLAPI_NO_SYMBOL;
	return string_query(n->fn_driver_version(buf, sizeof buf), buf, sizeof buf, out);
}

int nvmlapi_cuda_driver_version(struct nvmlapi *n, int *version)
{
	*version = 0;
	return n->fn_cuda_version ? n->fn_cuda_version(version) : NVMLAPI_NO_SYMBOL;
}

int nvmlapi_device_count(struct nvmlapi *n, unsigned int *count)
{
	*count = 0;
	return n->fn_count ? n->fn_count(count) : NVMLAPI_NO_SYMBOL;
}

int nvmlapi_device_handle(struct nvmlapi *n, unsigned int index, nvmlapi_device *dev)
{
	*dev = NULL;
	return n->fn_handle ? n->fn_handle(index, dev) : NVMLAPI_NO_SYMBOL;
}

int nvmlapi_device_name(struct nvmlapi *n, nvmlapi_device dev, struct strbuf *out)
{
	char buf[NVML_DEVICE_NAME_V2_BUFFER_SIZE] = "";
	if (!n->fn_name)
		return NVMLAPI_NO_SYMBOL;
	return string_query(n->fn_name(dev, buf, sizeof buf), buf, sizeof buf, out);
}

int nvmlapi_device_memory(struct nvmlapi *n, nvmlapi_device dev, struct nvmlapi_memory *m)
{
	memset(m, 0, sizeof *m);
	return n->fn_memory ? n->fn_memory(dev, m) : NVMLAPI_NO_SYMBOL;
}

int nvmlapi_device_utilization(struct nvmlapi *n, nvmlapi_device dev,
			       struct nvmlapi_utilization *u)
{
	memset(u, 0, sizeof *u);
	return n->fn_utilization ? n->fn_utilization(dev, u) : NVMLAPI_NO_SYMBOL;
}

int nvmlapi_device_process_count(struct nvmlapi *n, nvmlapi_device dev, unsigned int *count)
{
	*count = 0;
	if (!n->fn_procs)
		return NVMLAPI_NO_SYMBOL;
	/* Asking with room for none returns the count (SUCCESS when there are
	 * no processes, INSUFFICIENT_SIZE otherwise), so we never need to know
	 * the layout of nvmlProcessInfo_t, which changed between versions. */
	unsigned int room = 0;
	int rc = n->fn_procs(dev, &room, NULL);
	if (rc == NVML_SUCCESS || rc == NVML_ERROR_INSUFFICIENT_SIZE) {
		*count = room;
		return NVML_SUCCESS;
	}
	return rc;
}

int nvmlapi_device_pci(struct nvmlapi *n, nvmlapi_device dev, struct nvmlapi_pci *p)
{
	memset(p, 0, sizeof *p);
	if (!n->fn_pci)
		return NVMLAPI_NO_SYMBOL;
	int rc = n->fn_pci(dev, p);
	p->bus_id[sizeof p->bus_id - 1] = '\0';
	p->bus_id_legacy[sizeof p->bus_id_legacy - 1] = '\0';
	return rc;
}

int nvmlapi_device_driver_model(struct nvmlapi *n, nvmlapi_device dev, int *current,
				int *pending)
{
	*current = *pending = -1;
	return n->fn_model ? n->fn_model(dev, current, pending) : NVMLAPI_NO_SYMBOL;
}

/* nvml.h (CUDA 12.x) names and our one-line descriptions. */
static const struct {
	int rc;
	const char *name;
	const char *text;
} returns[] = {
	{ NVMLAPI_NO_SYMBOL, "NVMLAPI_NO_SYMBOL", "the library does not export this function" },
	{ 0, "NVML_SUCCESS", "success" },
	{ 1, "NVML_ERROR_UNINITIALIZED", "NVML was not initialised" },
	{ 2, "NVML_ERROR_INVALID_ARGUMENT", "invalid argument" },
	{ 3, "NVML_ERROR_NOT_SUPPORTED", "not supported" },
	{ 4, "NVML_ERROR_NO_PERMISSION", "insufficient permissions" },
	{ 5, "NVML_ERROR_ALREADY_INITIALIZED", "already initialised" },
	{ 6, "NVML_ERROR_NOT_FOUND", "not found" },
	{ 7, "NVML_ERROR_INSUFFICIENT_SIZE", "insufficient size" },
	{ 8, "NVML_ERROR_INSUFFICIENT_POWER", "insufficient external power" },
	{ 9, "NVML_ERROR_DRIVER_NOT_LOADED", "driver not loaded" },
	{ 10, "NVML_ERROR_TIMEOUT", "timeout" },
	{ 11, "NVML_ERROR_IRQ_ISSUE", "interrupt request issue" },
	{ 12, "NVML_ERROR_LIBRARY_NOT_FOUND", "a library NVML needs was not found" },
	{ 13, "NVML_ERROR_FUNCTION_NOT_FOUND", "function not found in this NVML" },
	{ 14, "NVML_ERROR_CORRUPTED_INFOROM", "corrupted infoROM" },
	{ 15, "NVML_ERROR_GPU_IS_LOST", "the GPU has fallen off the bus" },
	{ 16, "NVML_ERROR_RESET_REQUIRED", "the GPU needs a reset" },
	{ 17, "NVML_ERROR_OPERATING_SYSTEM", "GPU access blocked by the operating system" },
	{ 18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "driver/library version mismatch" },
	{ 19, "NVML_ERROR_IN_USE", "the GPU is in use" },
	{ 20, "NVML_ERROR_MEMORY", "insufficient memory" },
	{ 21, "NVML_ERROR_NO_DATA", "no data" },
	{ 22, "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED", "not available while ECC is enabled" },
	{ 23, "NVML_ERROR_INSUFFICIENT_RESOURCES", "insufficient resources" },
	{ 24, "NVML_ERROR_FREQ_NOT_SUPPORTED", "frequency not supported" },
	{ 25, "NVML_ERROR_ARGUMENT_VERSION_MISMATCH", "struct version not supported" },
	{ 26, "NVML_ERROR_DEPRECATED", "deprecated" },
	{ 27, "NVML_ERROR_NOT_READY", "the system is not ready" },
	{ 28, "NVML_ERROR_GPU_NOT_FOUND", "no GPUs were found" },
	{ 29, "NVML_ERROR_INVALID_STATE", "invalid state" },
	{ 30, "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED", "reset type not supported" },
	{ 999, "NVML_ERROR_UNKNOWN", "unknown error" },
};

const char *nvml_return_name(int rc)
{
	for (size_t i = 0; i < sizeof returns / sizeof returns[0]; i++)
		if (returns[i].rc == rc)
			return returns[i].name;
	return "unrecognised";
}

const char *nvmlapi_error_string(struct nvmlapi *n, int rc)
{
	if (n && n->fn_error_string && rc != NVMLAPI_NO_SYMBOL) {
		const char *s = n->fn_error_string(rc);
		if (s && *s)
			return s;
	}
	for (size_t i = 0; i < sizeof returns / sizeof returns[0]; i++)
		if (returns[i].rc == rc)
			return returns[i].text;
	return "unrecognised NVML return code";
}

const char *nvml_driver_model_name(int model)
{
	switch (model) {
	case NVML_DRIVER_WDDM: return "WDDM";
	case NVML_DRIVER_WDM: return "TCC";
	case NVML_DRIVER_MCDM: return "MCDM";
	default: return "unknown";
	}
}

bool nvml_rc_unavailable(int rc)
{
	return rc == NVMLAPI_NO_SYMBOL || rc == NVML_ERROR_NOT_SUPPORTED ||
	       rc == NVML_ERROR_FUNCTION_NOT_FOUND || rc == NVML_ERROR_UNKNOWN;
}
