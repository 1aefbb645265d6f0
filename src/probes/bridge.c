/* bridge.c: the paravirtual GPU device /dev/dxg (WSL) or /dev/nvidia* (native). */
#include "probes.h"

const struct check_def bridge_checks[] = {
	{ "bridge.dxg", "bridge", "GPU paravirtualisation device", "/dev/dxg exists, is a character device and can be opened", { "platform.kind" }, NULL },
	{ "bridge.nvidia_dev", "bridge", "NVIDIA device nodes", "native Linux: /dev/nvidiactl and /dev/nvidia0 exist and can be opened", { "platform.kind" }, NULL },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL },
};
