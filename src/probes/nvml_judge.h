/*
 * nvml_judge.h: the decision of nvml.devices, apart from the calls into
 * NVML (src/probes/nvml.c). The collector loads NVML, initialises it and
 * asks the driver and each GPU what NVML knows, keeping every answer (the
 * return code, and the value on success) in a struct nvml_facts, with the
 * results of the checks it is compared with. judge_nvml_devices turns them
 * into the result with no I/O, so a unit test can judge any machine from
 * a table (tests/unit/test_judge_nvml.c).
 */
#ifndef WSLGPU_NVML_JUDGE_H
#define WSLGPU_NVML_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/result.h"

#define NVML_MAX_DEVICES 16

/* One GPU's answers: an NVML return code per query, the value on success. */
struct nvml_gpu {
	int handle_rc;
	int name_rc;
	const char *name;
	int memory_rc;
	unsigned long long memory_total, memory_used; /* bytes */
	int pci_rc;
	const char *pci_bus_id;
	int model_rc;
	int model;                 /* NVML_DRIVER_WDDM, ... */
	int util_rc;
	unsigned util_gpu;         /* percent */
	int procs_rc;
	unsigned procs;
};

struct nvml_facts {
	bool wsl;                  /* WSL2, or a container in it */
	/* The entry points NVML resolved, as the messages name them (NULL:
	 * the usual name). */
	const char *sym_init, *sym_cuda, *sym_count, *sym_handle, *sym_model, *sym_procs;
	int init_rc;
	int driver_rc;
	const char *driver;        /* nvmlSystemGetDriverVersion */
	int cuda_rc;
	int cuda;                  /* nvmlSystemGetCudaDriverVersion: 12040 */
	int count_rc;
	unsigned count;
	const struct nvml_gpu *gpu; /* min(count, NVML_MAX_DEVICES) of them */
	/* What the other checks found (NULL: not run), for the cross-checks. */
	const struct result *cuda_init, *smi, *libcuda;
	const char *driver_store;  /* host.driver_store's version */
	const char *cuda_visible_devices;
};

/* Fills r (evidence, then the verdict) from the facts. */
void judge_nvml_devices(const struct nvml_facts *f, struct result *r);

#endif
