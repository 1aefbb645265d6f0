/*
 * outfacts: what the JUnit and Prometheus writers (junit.c, prom.c) both
 * read from a report: the machine facts they label their output with.
 */
#ifndef WSLGPU_OUTFACTS_H
#define WSLGPU_OUTFACTS_H

#include <stdbool.h>

#include "report.h"

struct out_facts {
	const char *kind;        /* platform.kind: "wsl2", "native", ...; NULL: unknown */
	const char *kernel;      /* kernel release */
	const char *distro;
	const char *driver;      /* driver version as host.driver settled it */
	const char *driver_cuda; /* newest CUDA the driver supports, when known exactly */
	const char *wsl;         /* wsl.exe --version's WSL version (only with --windows) */
	const char *windows;     /* and its Windows version */
	const char *host_key;    /* the Windows machine's hashed id (only with --windows) */
	const char *gpu_model;   /* the first GPU's name (cuda.devices, else nvml.devices) */
	const char *gpu_uuid;    /* its UUID, when CUDA gave one */
	const char *tdr_resets;  /* Windows' display-driver resets in 7 days (only with --windows) */
};

void out_facts(const struct report *rep, struct out_facts *f);
#endif
