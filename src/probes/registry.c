/* registry.c: the flat check table, in the chain order of src/core/layers.c. */
#include "registry.h"

#include <string.h>

#include "probes.h"
#include "../core/error.h"
#include "../core/layers.h"
#include "../core/strbuf.h"

/* Every layer's tables of checks; each check names its layer, which files
 * it in the chain (host takes its checks from two files: the driver-store
 * files and the driver as NVML reports it). */
static const struct check_def *const tables[] = {
	platform_checks, bridge_checks, host_checks, host_driver_checks, libs_checks,
	cuda_checks, nvml_checks, toolkit_checks, frameworks_checks, containers_checks,
	perf_checks, policy_checks,
};
#define NTABLES (sizeof tables / sizeof tables[0])

const struct check_def *registry_checks(size_t *n)
{
	static struct check_def *all;
	static size_t count;
	if (!all) {
		size_t total = 0, nl;
		for (size_t t = 0; t < NTABLES; t++)
			for (const struct check_def *c = tables[t]; c->id; c++) {
				if (layer_index(c->layer) < 0)
					bugf("check %s names the layer '%s', which is not in the chain",
					     c->id, c->layer);
				total++;
			}
		all = xcalloc(total ? total : 1, sizeof *all);
		const struct layer *layers = layers_in_order(&nl);
		for (size_t l = 0; l < nl; l++)
			for (size_t t = 0; t < NTABLES; t++)
				for (const struct check_def *c = tables[t]; c->id; c++)
					if (!strcmp(c->layer, layers[l].name))
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
	return layer_index(name) >= 0;
}

bool registry_early_pays(const struct check_def *def)
{
	if (strcmp(def->id, "toolkit.nvcc") == 0)
		return toolkit_nvcc_found();
	return true;
}
