/*
 * layers: the chain of layers in the order the GPU path is proven, with
 * the title each is shown under. The order is a fact every part of the
 * house reads -- the registry of checks (src/probes/registry.c) files its
 * checks under it, the views (check --list, the Markdown report, explain's
 * list, kb) list by it -- so it lives here, below all of them, and no view
 * needs the probes to know it.
 */
#ifndef WSLGPU_LAYERS_H
#define WSLGPU_LAYERS_H

#include <stddef.h>

struct layer {
	const char *name;  /* "libs": the first part of its checks' ids */
	const char *title;
};

/* The layers in chain order; *n is how many. */
const struct layer *layers_in_order(size_t *n);
/* The position of layer name in the chain, or -1 when it is none. */
int layer_index(const char *name);
/* A list of layer names for a listing: layer_list_begin puts the chain's
 * names into out (at most max) and returns how many; layer_list_add
 * appends name, a layer only the knowledge base has ("core"), unless the
 * list holds it, and returns the new count. */
size_t layer_list_begin(const char **out, size_t max);
size_t layer_list_add(const char **out, size_t k, size_t max, const char *name);

#endif
