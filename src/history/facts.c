/*
 * facts.c: the key values of a run that a platform team follows from week
 * to week, taken from the checks' evidence. One table says which fact comes
 * from which check and evidence key; the first source that holds a usable
 * value wins, so a fact survives when one probe (say NVML) fails but another
 * (nvidia-smi, the driver store) still knows it.
 */
#include "history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/check.h"

#define FACT_MAX_SOURCES 5
/* Devices are listed as device.N.name; more than this many are not joined. */
#define FACT_MAX_DEVICES 16

struct fact_source {
	const char *check;
	const char *ev; /* evidence key; "%d" in it means one key per device */
};

struct fact_def {
	const char *key;
	const char *label;
	struct fact_source from[FACT_MAX_SOURCES];
};

static const struct fact_def facts[] = {
	{ "platform", "platform", { { "platform.kind", "kind" } } },
	{ "kernel", "kernel", { { "platform.kind", "kernel" }, { "platform.kernel", "kernel" } } },
	{ "distro", "distribution",
	  { { "platform.distro", "PRETTY_NAME" }, { "platform.kind", "distro" } } },
	{ "wsl.version", "WSL", { { "host.driver", "wsl_version" } } },
	{ "windows.version", "Windows", { { "host.driver", "windows_version" } } },
	{ "driver.version", "driver",
	  { { "host.driver", "driver_version" },
	    { "nvml.devices", "driver_version" },
	    { "nvml.smi", "driver_version" },
	    { "host.driver", "windows_driver_version" },
	    { "host.driver_store", "version" } } },
	{ "driver.cuda", "CUDA the driver supports",
	  { { "host.driver", "driver_cuda_version" },
	    { "cuda.init", "driver_cuda_version" },
	    { "nvml.devices", "cuda_version" },
	    { "nvml.smi", "cuda_version" } } },
	{ "gpu", "GPU",
	  { { "cuda.devices", "device.%d.name" },
	    { "nvml.devices", "device.%d.name" },
	    { "nvml.smi", "gpu.%d.name" } } },
	{ "libcuda", "libcuda.so.1 the loader picks",
	  { { "cuda.load", "loaded" }, { "libs.libcuda", "resolved" } } },
	{ "libnvml", "libnvidia-ml.so.1 the loader picks",
	  { { "nvml.init", "loaded" }, { "libs.libnvml", "resolved" } } },
	{ "nvcc", "CUDA toolkit (nvcc)", { { "toolkit.nvcc", "toolkit_version" } } },
	{ "python", "Python",
	  { { "frameworks.torch", "python_version" },
	    { "frameworks.tensorflow", "python_version" },
	    { "frameworks.jax", "python_version" },
	    { "frameworks.cupy", "python_version" } } },
	{ "torch", "PyTorch", { { "frameworks.torch", "version" } } },
	{ "torch.cuda", "PyTorch's CUDA", { { "frameworks.torch", "cuda_build" } } },
	{ "tensorflow", "TensorFlow", { { "frameworks.tensorflow", "version" } } },
	{ "tensorflow.cuda", "TensorFlow's CUDA", { { "frameworks.tensorflow", "cuda_build" } } },
	{ "jax", "JAX", { { "frameworks.jax", "version" } } },
	{ "jax.cuda", "JAX's CUDA", { { "frameworks.jax", "cuda_build" } } },
	{ "cupy", "CuPy", { { "frameworks.cupy", "version" } } },
	{ "cupy.cuda", "CuPy's CUDA", { { "frameworks.cupy", "cuda_build" } } },
	{ "docker", "Docker engine", { { "containers.docker", "server_version" } } },
	{ "docker.where", "Docker engine location", { { "containers.docker", "engine" } } },
	{ "docker.runtimes", "Docker runtimes", { { "containers.docker", "runtimes" } } },
};

/* Values that say the probe could not tell ("unknown (wsl.exe not found)",
 * "None" for a CPU-only build's CUDA) are no fact: recording them would
 * report a change whenever a probe fails. */
static bool usable(const char *v)
{
	return v && *v && strncmp(v, "unknown", 7) != 0 && strcmp(v, "None") != 0 &&
	       strcmp(v, "none") != 0;
}

static void value_of(const struct result *r, const char *ev, struct strbuf *out)
{
	if (!strstr(ev, "%d")) {
		const char *v = res_get(r, ev);
		if (usable(v))
			sb_add(out, v);
		return;
	}
	for (int d = 0; d < FACT_MAX_DEVICES; d++) {
		char key[64];
		snprintf(key, sizeof key, ev, d);
		const char *v = res_get(r, key);
		if (!usable(v))
			break;
		if (out->len)
			sb_add(out, ", ");
		sb_add(out, v);
	}
}

void history_extract_facts(const struct report *rep, struct history_kv **out, size_t *n)
{
	size_t nfacts = sizeof facts / sizeof facts[0];
	*out = xcalloc(nfacts, sizeof **out);
	*n = 0;
	struct strbuf v = STRBUF_INIT;
	for (size_t i = 0; i < nfacts; i++) {
		sb_reset(&v);
		for (size_t s = 0; s < FACT_MAX_SOURCES && facts[i].from[s].check && !v.len; s++) {
			const struct result *r = report_find(rep, facts[i].from[s].check);
			if (r)
				value_of(r, facts[i].from[s].ev, &v);
		}
		if (!v.len)
			continue;
		(*out)[*n].key = xstrdup(facts[i].key);
		(*out)[*n].val = sb_detach(&v);
		(*n)++;
	}
	sb_release(&v);
}

void history_kv_free(struct history_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].val);
	}
	free(kv);
}

const char *history_fact_label(const char *key, const char *platform)
{
	if (!strcmp(key, "driver.version") && platform &&
	    (!strcmp(platform, "wsl2") || !strcmp(platform, "container-in-wsl2")))
		return "Windows driver";
	for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++)
		if (!strcmp(facts[i].key, key))
			return facts[i].label;
	return key;
}
