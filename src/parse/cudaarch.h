/*
 * cudaarch: does a framework build hold code that runs on this GPU?
 *
 * A build lists what it carries: torch.cuda.get_arch_list() gives
 * "sm_80 sm_86 sm_90 compute_90", TensorFlow's build info
 * "sm_60 sm_70 compute_80". The rules (CUDA C++ Programming Guide,
 * "Binary Compatibility" and "PTX Compatibility"):
 *
 *  - sm_XY (SASS, a cubin) runs on devices of the same major version X with
 *    a minor version >= Y, and on nothing else: sm_80 runs on 8.6 and 8.9,
 *    never on 9.0 or 12.0. "A cubin object generated for compute
 *    capability X.y will only execute on devices of compute capability X.z
 *    where z >= y."
 *  - compute_XY (PTX) is compiled by the driver at load time ("JIT") for
 *    any device of compute capability >= X.Y, whatever its major version —
 *    slower to start, and only when the driver's JIT understands that PTX.
 *  - An "a" suffix (sm_90a, compute_100a: architecture-specific features)
 *    runs only on exactly that compute capability; an "f" suffix
 *    (sm_100f, CUDA 12.9: family-specific) runs within the same major
 *    version on minors >= Y, and its PTX does not move to other majors
 *    (NVIDIA, "Blackwell and CUDA 12.9 introduce family-specific
 *    architecture features").
 *
 * Pure: the list is any text, the decision a small struct.
 */
#ifndef WSLGPU_CUDAARCH_H
#define WSLGPU_CUDAARCH_H

#include <stddef.h>

enum cudaarch_cover {
	CUDAARCH_NATIVE,   /* a SASS entry runs as is */
	CUDAARCH_PTX,      /* only PTX covers it: the driver compiles at start */
	CUDAARCH_NONE,     /* "no kernel image is available for execution" */
	CUDAARCH_UNKNOWN,  /* the list held no recognisable entry */
};

struct cudaarch_verdict {
	enum cudaarch_cover cover;
	char entry[24];    /* the entry that decided ("sm_86", "compute_90") */
	char newest[24];   /* the newest entry of the list, for messages */
	int entries;       /* recognised entries */
};

/* Decides for a device of compute capability major.minor. */
void cudaarch_check(const char *list, size_t len, int major, int minor,
		    struct cudaarch_verdict *v);
/* "8.6" -> 8, 6. Returns 0, or -1 when s is not major.minor. */
int cudaarch_parse_cc(const char *s, int *major, int *minor);
/* "sm_86", "ptx", "none", "unknown". */
const char *cudaarch_cover_name(enum cudaarch_cover c);

#endif
