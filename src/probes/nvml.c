/* nvml.c: NVML and nvidia-smi (issue: check part 2). */
#include "probes.h"

const struct check_def nvml_checks[] = {
	{ "nvml.init", "nvml", "Load and initialise NVML", "dlopen libnvidia-ml.so.1 and nvmlInit", { "libs.libnvml" }, NULL },
	{ "nvml.devices", "nvml", "NVML devices", "driver version, CUDA version, device names and memory from NVML", { "nvml.init" }, NULL },
	{ "nvml.smi", "nvml", "nvidia-smi", "run nvidia-smi with a time limit and interpret its failures", { "libs.wsl_dir" }, NULL },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL },
};
