// soname: libcuda-legacy.so.1
/*
 * The fake libcuda.so.1 (libcuda.c) as an old driver would export it: only
 * the plain names of the calls cuda.h later versioned (cuMemAlloc, not
 * cuMemAlloc_v2), and no cuGetErrorName, cuGetErrorString,
 * cuModuleLoadDataEx or cuDeviceGetUuid_v2. The tests copy it over a
 * fixture's libcuda.so.1 to prove that the loader falls back to the old
 * names and treats the missing calls as "not supported".
 */
#define FAKE_CUDA_LEGACY 1
#include "libcuda.c"
