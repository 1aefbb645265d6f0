/*
 * nvccver: the toolkit version in `nvcc --version` output:
 *
 *   nvcc: NVIDIA (R) Cuda compiler driver
 *   Copyright (c) 2005-2024 NVIDIA Corporation
 *   Built on Thu_Mar_28_02:18:24_PDT_2024
 *   Cuda compilation tools, release 12.4, V12.4.131
 *   Build cuda_12.4.r12.4/compiler.34097967_0
 *
 * "V12.4.131" is the full version, "release 12.4" the major.minor; older
 * releases print the same line. Pure over (buf, len).
 */
#ifndef WSLGPU_NVCCVER_H
#define WSLGPU_NVCCVER_H

#include <stddef.h>

/* Writes "12.4.131" (or "12.4" when only the release is given) into out
 * (size n). Returns 0, or -1 when the text holds no such line. */
int nvccver_parse(const char *buf, size_t len, char *out, size_t n);

#endif
