/* libs.c: WSL's driver libraries and how the dynamic loader resolves them. */
#include "probes.h"

const struct check_def libs_checks[] = {
	{ "libs.wsl_dir", "libs", "WSL driver libraries", "/usr/lib/wsl/lib holds libcuda, libnvidia-ml, libdxcore, nvidia-smi; ld.wsl.conf exists", { "bridge.dxg", "bridge.nvidia_dev" }, NULL },
	{ "libs.kernel_modules", "libs", "Kernel modules", "no nvidia or nouveau module loaded inside WSL", { "platform.kind" }, NULL },
	{ "libs.libcuda", "libs", "libcuda.so.1 resolution", "which libcuda.so.1 the loader will pick (ld.so.cache, LD_LIBRARY_PATH)", { "libs.wsl_dir" }, NULL },
	{ "libs.libnvml", "libs", "libnvidia-ml.so.1 resolution", "which libnvidia-ml.so.1 the loader will pick", { "libs.wsl_dir" }, NULL },
	{ "libs.env", "libs", "GPU environment variables", "LD_LIBRARY_PATH, CUDA_HOME, CUDA_PATH, CUDA_VISIBLE_DEVICES", { "platform.kind" }, NULL },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL },
};
