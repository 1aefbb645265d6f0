/* toolkit.c: CUDA toolkit and distro packages (issue: check part 3). */
#include "probes.h"

const struct check_def toolkit_checks[] = {
	{ "toolkit.nvcc", "toolkit", "CUDA toolkit (nvcc)", "nvcc found, its version, and whether the driver supports it", { "platform.kind" }, NULL },
	{ "toolkit.packages", "toolkit", "Distro GPU packages", "packages that must not be installed in WSL, and the CUDA apt repositories", { "platform.kind" }, NULL },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL },
};
