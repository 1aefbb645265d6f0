/*
 * cudaver: the ways CUDA versions are written down.
 *
 *  - cuDriverGetVersion / nvmlSystemGetCudaDriverVersion: 1000*major +
 *    10*minor (12040 = 12.4; NVML_CUDA_DRIVER_VERSION_MAJOR/MINOR in nvml.h);
 *  - the toolkit's version.json (CUDA 11.1 and later):
 *      { "cuda" : { "name" : "CUDA SDK", "version" : "12.4.1" }, ... }
 *  - its version.txt (older toolkits): "CUDA Version 11.0.228".
 *
 * Pure functions over (buf, len), safe on any input.
 */
#ifndef WSLGPU_CUDAVER_H
#define WSLGPU_CUDAVER_H

#include <stddef.h>

/* "12.4" for 12040 into buf (size n >= 16); "" for v <= 0. */
void cudaver_format(int v, char *buf, size_t n);
/* 12040 for "12.4" or "12.4.1"; -1 when s has no major.minor. */
int cudaver_from_string(const char *s);
/*
 * The toolkit version from the text of version.json or version.txt into
 * out (size n): "12.4.1". Returns 0, or -1 when the text names none.
 */
int cudaver_toolkit_parse(const char *buf, size_t len, char *out, size_t n);

#endif
