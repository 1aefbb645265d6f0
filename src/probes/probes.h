/* probes.h: each layer's check table, defined in src/probes/<layer>.c. */
#ifndef WSLGPU_PROBES_H
#define WSLGPU_PROBES_H

#include "../core/check.h"

extern const struct check_def platform_checks[];
extern const struct check_def bridge_checks[];
extern const struct check_def host_checks[];
extern const struct check_def host_driver_checks[];
extern const struct check_def libs_checks[];
extern const struct check_def cuda_checks[];
extern const struct check_def nvml_checks[];
extern const struct check_def toolkit_checks[];
/* Whether toolkit.nvcc finds an nvcc to run (its early start pays). */
bool toolkit_nvcc_found(void);
extern const struct check_def frameworks_checks[];
extern const struct check_def containers_checks[];
extern const struct check_def perf_checks[];
extern const struct check_def policy_checks[];

#endif
