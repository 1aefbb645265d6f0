/*
 * registry: the one table of checks, in chain order (after git's command
 * table). Each layer's checks come from its src/probes/<layer>.c; the
 * order of the layers is src/core/layers.h's.
 */
#ifndef WSLGPU_REGISTRY_H
#define WSLGPU_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/check.h"

/* All checks in chain order. */
const struct check_def *registry_checks(size_t *n);
/* Index of a check id, or -1. */
int registry_find(const char *id);
/* True if name is a layer name. */
int registry_is_layer(const char *name);
/* run_opts.early_pays: whether the early probe def has its command to run
 * (toolkit.nvcc: nvcc is found); true for any other. */
bool registry_early_pays(const struct check_def *def);

#endif
