/*
 * codes: the error codes of the GPU chain, by number and by name, so that a
 * signature written once as `match: {cuda:100}` recognises
 * CUDA_ERROR_NO_DEVICE, cudaErrorNoDevice, "CUDA error 100", "cuInit
 * returned 100" and "code=100" alike (src/kb/README.md).
 *
 * Families and where their numbers come from:
 *   cuda     CUresult (driver API, CUDA_ERROR_*) and cudaError_t (runtime
 *            API, cudaError*), which share numbers since CUDA 10.1 where
 *            both have the code; one row holds both names.
 *   nvml     nvmlReturn_t (NVML_ERROR_*), with pynvml's class names
 *            (NVMLError_DriverNotLoaded) derived from them.
 *   nccl     ncclResult_t (ncclSystemError...).
 *   cublas, cudnn, cufft, cusparse, curand
 *            the math libraries' status codes (CUBLAS_STATUS_*,
 *            CUDNN_STATUS_* in cuDNN 9's numbering and in cuDNN 7/8's,
 *            cufftResult CUFFT_*, CUSPARSE_STATUS_*, CURAND_STATUS_*).
 *   hresult  the Windows HRESULTs WSL reports (0x80370102,
 *            HCS_E_HYPERV_NOT_INSTALLED...), written in hex, in signed
 *            decimal (-2144862974) or by name.
 *
 * A number counts as a code only where the text shows it as one: after an
 * error word ("error 100", "code=100", "returned 100", "status: 100") on a
 * line that names the family ("cuda", "cuInit", "CUresult", "nvml",
 * "nccl"), and only that API's where one is named among the three words
 * before the error word ("nccl error 2" is NCCL's even on a line that names
 * CUDA; "cusolverDnCreate failed with error 7", "nvjpeg error 6": an API
 * with codes of its own, none of ours). A bare "error 100" names no family
 * and matches nothing. An
 * HRESULT is its own context: 0x8XXXXXXX with eight hex digits.
 */
#ifndef WSLGPU_EXPLAIN_CODES_H
#define WSLGPU_EXPLAIN_CODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/strbuf.h"

enum code_family {
	CF_CUDA, CF_NVML, CF_NCCL, CF_CUBLAS, CF_CUDNN, CF_CUFFT, CF_CUSPARSE, CF_CURAND,
	CF_HRESULT, /* last: the only family not written after an error word */
	CF_COUNT
};

#define CODE_NAMES 3

struct err_code {
	unsigned char family;
	uint32_t value;
	const char *name[CODE_NAMES]; /* spellings, packed: the first NULL ends them (any case) */
};

const struct err_code *codes_table(size_t *n);
/* "cuda", "nvml", "nccl", "cublas", "cudnn", "cufft", "cusparse",
 * "curand", "hresult" -> family, or -1. */
int codes_family(const char *name, size_t len);
/* The code of family f named by s (a name or a number: decimal, or 0x hex
 * and signed decimal for HRESULTs); index into codes_table, or -1. */
int codes_lookup(int f, const char *s, size_t len);
/* The code with this value; -1 if none. */
int codes_by_value(int f, uint32_t value);
/* The one code whose name s[0..len) begins and does not finish (a paste
 * cut off inside it: "cudaErrorNoDevic"), of any family; -1 if s is
 * shorter than min bytes or half the name, a whole name, or the start of
 * names of two codes. */
int codes_by_prefix(const char *s, size_t len, size_t min);
/* Words that make a line "name" a family (lower case), NULL-terminated. */
const char *const *codes_context_words(int f);

/* Calls fn for every code of a family in mask that s[0..len) shows by
 * number (see the top of this file): fn(ctx, index into codes_table). */
typedef void (*codes_fn)(void *ctx, int code);
void codes_numbers(const char *s, size_t len, unsigned mask, codes_fn fn, void *ctx);

/* A POSIX ERE that matches one of the code's names or its number, for a
 * code class inside a longer `match:` ("failed call to cuInit: {cuda:100}"). */
void codes_ere(int code, struct strbuf *out);

#endif
