/* layers.c: the chain of layers, in order. See layers.h. */
#include "layers.h"

#include <string.h>

static const struct layer chain[] = {
	{ "platform", "WSL version, kernel and distribution" },
	{ "bridge", "The paravirtual GPU device (/dev/dxg)" },
	{ "host", "The Windows (or native) NVIDIA driver" },
	{ "libs", "Driver libraries and how the loader finds them" },
	{ "cuda", "CUDA driver API: init, devices, a real kernel launch" },
	{ "nvml", "NVML and nvidia-smi" },
	{ "toolkit", "CUDA toolkit and distro packages" },
	{ "frameworks", "PyTorch, TensorFlow, JAX, CuPy" },
	{ "containers", "Docker and the NVIDIA container toolkit" },
	{ "perf", "Where the data lives; memory and swap" },
	{ "policy", "The fleet policy (smoke --policy): does this machine match it?" },
};

const struct layer *layers_in_order(size_t *n)
{
	*n = sizeof chain / sizeof chain[0];
	return chain;
}

int layer_index(const char *name)
{
	for (size_t i = 0; i < sizeof chain / sizeof chain[0]; i++)
		if (!strcmp(chain[i].name, name))
			return (int)i;
	return -1;
}

size_t layer_list_begin(const char **out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < sizeof chain / sizeof chain[0] && k < max; i++)
		out[k++] = chain[i].name;
	return k;
}

size_t layer_list_add(const char **out, size_t k, size_t max, const char *name)
{
	for (size_t j = 0; j < k; j++)
		if (!strcmp(out[j], name))
			return k;
	if (k < max)
		out[k++] = name;
	return k;
}
