/* cudafacts.c: the cuda layer's decisions as pure functions. See cudafacts.h. */
#include "cudafacts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudaapi.h"
#include "kernels.h"
#include "kb_ids.h"

enum cuda_load_verdict cuda_judge_loaded(const char *predicted, const char *loaded, bool wsl2)
{
	if (cuda_path_in_stubs(loaded, NULL))
		return CUDA_LOAD_STUB;
	if (wsl2 && strncmp(loaded, "/usr/lib/wsl/", 13) != 0)
		return CUDA_LOAD_SHADOWED;
	if (!predicted || !*predicted)
		return CUDA_LOAD_NO_PREDICTION;
	if (strcmp(predicted, loaded) != 0)
		return CUDA_LOAD_MISMATCH;
	return CUDA_LOAD_OK;
}

bool cuda_path_in_stubs(const char *path, struct strbuf *dir)
{
	if (!path)
		return false;
	const char *found = NULL;
	for (const char *p = path; (p = strstr(p, "/stubs")) != NULL; p += 6)
		if (p[6] == '/' || p[6] == '\0')
			found = p;
	if (!found)
		return false;
	if (dir) {
		sb_reset(dir);
		sb_addn(dir, path, (size_t)(found - path) + 6);
	}
	return true;
}

bool cuda_visible_devices_hide_all(const char *value)
{
	if (!value)
		return false;
	while (*value == ' ')
		value++;
	if (isdigit((unsigned char)*value))
		return false;
	/* GPU-<uuid> and MIG-<uuid> select devices by UUID. */
	if (!strncmp(value, "GPU-", 4) || !strncmp(value, "MIG-", 4))
		return false;
	return true;
}

const char *cuda_result_kb(enum cuda_step step, int code, bool hidden, bool wsl2)
{
	/* Codes that mean the same whatever the step. */
	switch (code) {
	case CUDA_ERROR_STUB_LIBRARY:
		return KB_CUDA_INIT_STUB;
	case CUDA_ERROR_NO_DEVICE:
		if (hidden)
			return KB_CUDA_INIT_HIDDEN;
		return wsl2 ? KB_CUDA_INIT_NO_DEVICE : KB_CUDA_INIT_NO_DEVICE_NATIVE;
	case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
		return KB_CUDA_INIT_DRIVER_MISMATCH;
	case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
		return KB_CUDA_INIT_COMPAT_UNSUPPORTED;
	case CUDA_ERROR_OPERATING_SYSTEM:
		return KB_CUDA_INIT_OS_ERROR;
	case CUDA_ERROR_UNKNOWN:
		return wsl2 ? KB_CUDA_INIT_UNKNOWN : KB_CUDA_INIT_UNKNOWN_NATIVE;
	case CUDA_ERROR_NOT_INITIALIZED:
		return KB_CUDA_INIT_NOT_INITIALIZED;
	default:
		break;
	}
	switch (step) {
	case CUDA_STEP_INIT:
		return KB_CUDA_INIT_ERROR;
	case CUDA_STEP_DEVICES:
		return KB_CUDA_DEVICES_QUERY_FAILED;
	case CUDA_STEP_CONTEXT:
		if (code == CUDA_ERROR_DEVICE_UNAVAILABLE)
			return KB_CUDA_KERNEL_DEVICE_UNAVAILABLE;
		if (code == CUDA_ERROR_OUT_OF_MEMORY)
			return KB_CUDA_KERNEL_OUT_OF_MEMORY;
		return KB_CUDA_KERNEL_CONTEXT_FAILED;
	case CUDA_STEP_MODULE:
		switch (code) {
		case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
			return KB_CUDA_KERNEL_PTX_UNSUPPORTED;
		case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
			return KB_CUDA_KERNEL_JIT_MISSING;
		case CUDA_ERROR_JIT_COMPILATION_DISABLED:
			return KB_CUDA_KERNEL_JIT_DISABLED;
		case CUDA_ERROR_OUT_OF_MEMORY:
			return KB_CUDA_KERNEL_OUT_OF_MEMORY;
		default:
			return KB_CUDA_KERNEL_JIT_FAILED;
		}
	case CUDA_STEP_MEMORY:
		if (code == CUDA_ERROR_OUT_OF_MEMORY)
			return KB_CUDA_KERNEL_OUT_OF_MEMORY;
		return KB_CUDA_KERNEL_MEMORY_FAILED;
	case CUDA_STEP_LAUNCH:
		if (code == CUDA_ERROR_DEVICE_UNAVAILABLE)
			return KB_CUDA_KERNEL_DEVICE_UNAVAILABLE;
		return KB_CUDA_KERNEL_LAUNCH_FAILED;
	}
	return KB_CUDA_INIT_ERROR;
}

void cuda_format_pci(int domain, int bus, int device, char *buf, size_t size)
{
	if (domain < 0 || bus < 0 || device < 0 || domain > 0xffff || bus > 0xff || device > 0x1f)
		snprintf(buf, size, "unknown");
	else
		snprintf(buf, size, "%04x:%02x:%02x.0", (unsigned)domain, (unsigned)bus,
			 (unsigned)device);
}

void cuda_format_uuid(const unsigned char b[16], char *buf, size_t size)
{
	snprintf(buf, size,
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
		 b[13], b[14], b[15]);
}

void cuda_clean_name(const char *raw, size_t cap, struct strbuf *out)
{
	sb_reset(out);
	const char *end = raw ? memchr(raw, '\0', cap) : NULL;
	size_t n = raw ? (end ? (size_t)(end - raw) : cap) : 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)raw[i];
		if (c < 0x20 || c == 0x7f)
			continue;
		sb_addc(out, (char)c);
	}
	sb_rtrim(out);
	size_t lead = 0;
	while (lead < out->len && out->buf[lead] == ' ')
		lead++;
	if (lead) {
		memmove(out->buf, out->buf + lead, out->len - lead + 1);
		out->len -= lead;
	}
	if (!out->len)
		sb_add(out, "(no name)");
}

unsigned long long cuda_bytes_to_mib(unsigned long long bytes)
{
	return bytes >> 20;
}

size_t cuda_verify_fill(const unsigned *buf, size_t n, unsigned seed, size_t *first_bad)
{
	size_t bad = 0, first = n;
	for (size_t i = 0; i < n; i++)
		if (buf[i] != wslgpu_fill_value((unsigned)i, seed)) {
			if (!bad)
				first = i;
			bad++;
		}
	if (first_bad)
		*first_bad = first;
	return bad;
}
