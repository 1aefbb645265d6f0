/* registry.c: layers in chain order and the flat check table. */
#include "registry.h"

#include <string.h>

#include "probes.h"
#include "../core/strbuf.h"

static const struct layer_def layers[] = {
	{ "platform", "WSL version, kernel and distribution", { platform_checks } },
	{ "bridge", "The paravirtual GPU device (/dev/dxg)", { bridge_checks } },
	{ "host", "The Windows (or native) NVIDIA driver", { host_checks, host_driver_checks } },
	{ "libs", "Driver libraries and how the loader finds them", { libs_checks } },
	{ "cuda", "CUDA driver API: init, devices, a real kernel launch", { cuda_checks } },
	{ "nvml", "NVML and nvidia-smi", { nvml_checks } },
	{ "toolkit", "CUDA toolkit and distro packages", { toolkit_checks } },
	{ "frameworks", "PyTorch, TensorFlow, JAX, CuPy", { frameworks_checks } },
	{ "containers", "Docker and the NVIDIA container toolkit", { containers_checks } },
	{ "perf", "Where the data lives; memory and swap", { perf_checks } },
	{ "policy", "The fleet policy (smoke --policy): does this machine match it?", { policy_checks } },
};

const struct layer_def *registry_layers(size_t *n)
{
	*n = sizeof layers / sizeof layers[0];
	return layers;
}

const struct check_def *registry_checks(size_t *n)
{
	static struct check_def *all;
	static size_t count;
	if (!all) {
		size_t total = 0;
		for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
			for (size_t t = 0; t < 3 && layers[i].checks[t]; t++)
				for (const struct check_def *c = layers[i].checks[t]; c->id; c++)
					total++;
		all = xcalloc(total ? total : 1, sizeof *all);
		for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
			for (size_t t = 0; t < 3 && layers[i].checks[t]; t++)
				for (const struct check_def *c = layers[i].checks[t]; c->id; c++)
					all[count++] = *c;
	}
	*n = count;
	return all;
}

int registry_find(const char *id)
{
	size_t n;
	const struct check_def *all = registry_checks(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i].id, id) == 0)
			return (int)i;
	return -1;
}

int registry_is_layer(const char *name)
{
	for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
		if (strcmp(layers[i].name, name) == 0)
			return 1;
	return 0;
}
