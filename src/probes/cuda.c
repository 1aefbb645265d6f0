/* cuda.c: the CUDA driver API layer (issue: check part 2). Planned checks
 * are listed so that --list shows the whole chain already. */
#include "probes.h"

const struct check_def cuda_checks[] = {
	{ "cuda.load", "cuda", "Load libcuda.so.1", "dlopen libcuda.so.1 as an application would; report the file really loaded", { "libs.libcuda" }, NULL },
	{ "cuda.init", "cuda", "cuInit and driver version", "cuInit, cuDriverGetVersion and the device count", { "cuda.load" }, NULL },
	{ "cuda.devices", "cuda", "CUDA devices", "name, compute capability, memory and PCI bus id of each device", { "cuda.init" }, NULL },
	{ "cuda.kernel", "cuda", "A real kernel launch", "launch an embedded PTX kernel and verify every element it wrote", { "cuda.devices" }, NULL },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL },
};
