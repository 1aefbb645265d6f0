/*
 * kernels: the PTX of src/gpu/kernels.cu, embedded in the binary at build
 * time (src/gpu/kernels.ptx through tools/text2c.awk), so that proving a
 * kernel launch needs no file and no compiler on the user's machine.
 */
#ifndef WSLGPU_KERNELS_H
#define WSLGPU_KERNELS_H

/* NUL-terminated PTX text, as cuModuleLoadData expects it. */
extern const char wslgpu_kernels_ptx[];
/* strlen(wslgpu_kernels_ptx). */
extern const unsigned long wslgpu_kernels_ptx_len;

/* Kernel names in the PTX (extern "C", so unmangled). */
#define WSLGPU_KERNEL_FILL "wslgpu_fill"   /* (unsigned *out, unsigned n, unsigned seed) */
#define WSLGPU_KERNEL_EMPTY "wslgpu_empty" /* () */
/* (const unsigned *buf, unsigned n, unsigned seed, unsigned result[2]):
 * result[0] += wrong elements, result[1] = min(result[1], lowest wrong index) */
#define WSLGPU_KERNEL_CHECK "wslgpu_check"

/* What wslgpu_fill writes at index i; wslgpu_check and the host's checks
 * use the same formula. */
static inline unsigned wslgpu_fill_value(unsigned i, unsigned seed)
{
	return (i * 2654435761u) ^ seed;
}

#endif
