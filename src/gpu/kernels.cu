/*
 * kernels.cu: the source of the PTX kernels embedded in wslgpu
 * (src/gpu/kernels.ptx, compiled into the binary as the C string
 * wslgpu_kernels_ptx; see kernels.h). The build never needs nvcc: the
 * checked-in kernels.ptx is what gets embedded.
 *
 * The PTX must use an old ISA so that every driver that can run CUDA on
 * WSL can JIT it: PTX newer than the driver fails to load with
 * CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222), while old PTX is JIT-compiled
 * forward for any newer GPU. We pin ".version 7.0" (CUDA 11.0, driver R450)
 * and ".target sm_50" (Maxwell, the oldest architecture the CUDA 12
 * toolkit targets).
 *
 * To regenerate kernels.ptx after changing this file (needs nvcc):
 *
 *     make ptx
 *
 * which runs, in effect:
 *
 *     nvcc -ptx -arch=compute_75 -o - src/gpu/kernels.cu |
 *       sed -e 's/^\.version .*$/.version 7.0/' \
 *           -e 's/^\.target .*$/.target sm_50/' > src/gpu/kernels.ptx
 *     ptxas -arch=sm_75 -o /dev/null src/gpu/kernels.ptx   # still valid?
 *
 * CUDA 13's nvcc no longer accepts compute_50 and writes ".version 9.0",
 * so the ISA version and target are lowered by the sed step; that is
 * sound only while the kernels use instructions that PTX ISA 7.0 and
 * sm_50 have (plain integer arithmetic, loads, stores and 32-bit global
 * atomics, as here), which ptxas confirms. An older nvcc (11.x, 12.x)
 * may use -arch=compute_50 directly; the sed step is still needed for the
 * ".version" line.
 *
 * The kernels are extern "C" so that their PTX names are not mangled.
 */

/* Writes out[i] = i * 2654435761 ^ seed (mod 2^32) for every i < n: a
 * pattern that differs at every index and for every seed, so a launch that
 * did nothing, ran twice or wrote the wrong elements is caught by checking
 * every element (wslgpu_check, on the device). */
extern "C" __global__ void wslgpu_fill(unsigned *out, unsigned n, unsigned seed)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = (i * 2654435761u) ^ seed;
}

/* Checks every element wslgpu_fill(buf, n, seed) should have written, on
 * the device: result[0] counts the wrong ones (from the 0 the host put
 * there), result[1] keeps the lowest wrong index (from ~0). The host then
 * reads 8 bytes back instead of the whole buffer (src/probes/cuda.c). */
extern "C" __global__ void wslgpu_check(const unsigned *buf, unsigned n, unsigned seed,
					unsigned *result)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n && buf[i] != ((i * 2654435761u) ^ seed)) {
		atomicAdd(&result[0], 1u);
		atomicMin(&result[1], i);
	}
}

/* Does nothing: `wslgpu bench gpu` times its launches (launch latency). */
extern "C" __global__ void wslgpu_empty(void)
{
}
