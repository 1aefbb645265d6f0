/*
 * nvsmi: what nvidia-smi (or Windows' nvidia-smi.exe) printed, as facts.
 *
 * nvidia-smi has no stable machine format for its failures, so we read its
 * human output: the header line
 *   | NVIDIA-SMI 550.54.10   Driver Version: 551.23   CUDA Version: 12.4 |
 * (also the "Driver Version : x" lines of `nvidia-smi -q`), the GPU rows of
 * the table (whose first cell ends in the persistence mode on Linux and in
 * the driver model, WDDM or TCC, on Windows; indented rows, as pasted in
 * threads, count too), `-L` lines, the GPU blocks of `-q` ("GPU
 * 00000000:01:00.0", then "Product Name" and "Driver Model / Current"; their
 * index is their order), and the failure messages seen in the field (research/wsl-facts.md §2.6, §2.7; cases N01,
 * N03, N05, R07, H01, H05).
 *
 * On WSL the NVIDIA-SMI number is a Linux-branch number and the Driver
 * Version the Windows one; "CUDA Version" is the newest CUDA the driver
 * supports, "ERR!" when it could not tell (case N03). The parser only
 * records; deciding is the probe's job.
 *
 * Pure: works on (buf, len) with NULs, truncation, binary, UTF-16 remnants
 * and very long lines, allocates nothing, and is linear in len.
 */
#ifndef WSLGPU_NVSMI_H
#define WSLGPU_NVSMI_H

#include <stdbool.h>
#include <stddef.h>

#define NVSMI_MAX_GPUS 16

enum nvsmi_failure {
	NVSMI_FAIL_NONE,
	NVSMI_FAIL_OS_BLOCKED,   /* "GPU access blocked by the operating system" */
	NVSMI_FAIL_NO_LIBNVML,   /* "couldn't find libnvidia-ml.so library" */
	NVSMI_FAIL_NO_DRIVER,    /* "couldn't communicate with the NVIDIA driver" */
	NVSMI_FAIL_NO_DEVICES,   /* "No devices were found" */
	NVSMI_FAIL_NVML_INIT,    /* "Failed to initialize NVML: <other reason>" */
};

struct nvsmi_gpu {
	int index;
	char name[96];
	char model[8];    /* "WDDM", "TCC", "MCDM" (Windows table), else "" */
};

struct nvsmi_info {
	bool have_header;        /* a version line was found */
	char smi_version[32];    /* "550.54.10" */
	char driver_version[32]; /* "551.23" */
	char cuda_version[16];   /* "12.4", "ERR!", "N/A"; "" when absent */
	bool cuda_err;           /* CUDA Version: ERR! */
	enum nvsmi_failure failure;
	char reason[128];        /* the failure's line (or NVML's reason), trimmed */
	int handle_errors;       /* "Unable to determine the device handle" lines */
	size_t ngpus;
	struct nvsmi_gpu gpu[NVSMI_MAX_GPUS];
};

/* Fills info from nvidia-smi's output (stdout and stderr together). */
void nvsmi_parse(const char *buf, size_t len, struct nvsmi_info *info);
/* "os_blocked", "no_libnvml", ... ("none" for NVSMI_FAIL_NONE). */
const char *nvsmi_failure_name(enum nvsmi_failure f);

#endif
