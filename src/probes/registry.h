/*
 * registry: the one table of checks, in chain order (after git's command
 * table). Layers are listed here in the order the GPU path is proven; each
 * layer's checks come from its src/probes/<layer>.c.
 */
#ifndef WSLGPU_REGISTRY_H
#define WSLGPU_REGISTRY_H

#include <stddef.h>

#include "../core/check.h"

struct layer_def {
	const char *name;
	const char *title;
	/* Tables of checks, each terminated by an entry with id NULL. A layer
	 * may take its checks from more than one file (host: the driver-store
	 * files and the driver as NVML reports it). */
	const struct check_def *checks[3];
};

const struct layer_def *registry_layers(size_t *n);
/* All checks in chain order. */
const struct check_def *registry_checks(size_t *n);
/* Index of a check id, or -1. */
int registry_find(const char *id);
/* True if name is a layer name. */
int registry_is_layer(const char *name);

#endif
