/*
 * names: what a line names of the NVIDIA stack, when no signature reads it.
 *
 * A line that nothing recognised can still name a library by its file
 * (libcudart.so.12, cublas64_12.dll), a call of a CUDA API (cuInit,
 * cudaMalloc, nvmlInit_v2, cublasCreate_v2) or an error code
 * (CUDA_ERROR_NO_DEVICE, CUBLAS_STATUS_NOT_INITIALIZED, ncclSystemError).
 * One table (names.c) maps each library, call prefix and code prefix to
 * its role in the stack (driver, runtime, math library, cuDNN...), the
 * layer of the chain it belongs to and the checks that tell its causes
 * apart. A library's file name also gives its major version: the CUDA
 * major for the runtime and the math libraries (libcudart.so.12 is the
 * CUDA 12 runtime, cublas64_12.dll cuBLAS for CUDA 12), the library's own
 * for cuDNN, TensorRT and NCCL; none for the driver and NVML, whose .so.1
 * is an ABI number.
 *
 * The same reading fills in a family signature's match (the library and
 * version it saw) and names the application a paste comes from.
 */
#ifndef WSLGPU_EXPLAIN_NAMES_H
#define WSLGPU_EXPLAIN_NAMES_H

#include <stddef.h>

#include "../core/strbuf.h"

enum name_kind { NK_LIBRARY, NK_CALL, NK_CODE };

#define NAMES_MAX 6

struct name_hit {
	unsigned char kind;  /* enum name_kind */
	const char *role;    /* "CUDA runtime", "cuBLAS (math library)"... */
	const char *layer;   /* the chain's layer it belongs to */
	const char *check;   /* layers for `wslgpu check --only` */
	char text[64];       /* as it appears on the line (clipped) */
	char version[8];     /* major version from a library's file name, or "" */
	char what[96];       /* role with the version: "CUDA runtime 12" */
	long code;           /* an error code's number where the tables know it, or -1 */
};

struct names {
	struct name_hit hit[NAMES_MAX]; /* distinct, in order on the line */
	size_t n;
	const char *layer;  /* the lowest layer in chain order of those named */
	char check[64];     /* the union of their check layers, in chain order */
};

/* What s[0..len) names (case as pasted). n is 0 when it names nothing. */
void names_read(const char *s, size_t len, struct names *out);
/* "cuDNN 9 (libcudnn_ops.so.9), cuBLAS for CUDA 12 (cublas64_12.dll)" */
void names_describe(const struct names *nm, struct strbuf *out);
/* The application the paste names (first NAMES_APP_READ bytes), or NULL. */
#define NAMES_APP_READ (256u << 10)
const char *names_application(const char *buf, size_t len);

#endif
