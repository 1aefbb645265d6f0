/* frameworks.c: PyTorch, TensorFlow, JAX, CuPy (issue: check part 3). */
#include "probes.h"

const struct check_def frameworks_checks[] = {
	{ "frameworks.torch", "frameworks", "PyTorch", "version, CUDA build, device arch coverage and a GPU matmul", { "libs.libcuda" }, NULL },
	{ "frameworks.tensorflow", "frameworks", "TensorFlow", "version, CUDA build and visible GPUs", { "libs.libcuda" }, NULL },
	{ "frameworks.jax", "frameworks", "JAX", "jaxlib CUDA build and devices", { "libs.libcuda" }, NULL },
	{ "frameworks.cupy", "frameworks", "CuPy", "CuPy CUDA build and a GPU computation", { "libs.libcuda" }, NULL },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL },
};
