/* host_driver.c: the driver version from NVML/nvidia-smi/driver store,
 * against the minimums for WSL and for the installed CUDA software. */
#include "probes.h"

const struct check_def host_driver_checks[] = {
	{ "host.driver", "host", "NVIDIA driver version", "driver version and the CUDA version it supports, against the minimums", { "host.driver_store" }, NULL },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL },
};
