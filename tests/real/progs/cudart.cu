// cudart.cu: the first call of a CUDA program built with nvcc -cudart shared,
// reported the way NVIDIA's samples do (helper_cuda.h's checkCudaErrors)
// and as cudaGetErrorName: cudaGetErrorString.
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);
	if (e != cudaSuccess) {
		fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", "cudart.cu", 11,
			static_cast<int>(e), cudaGetErrorName(e), "cudaGetDeviceCount(&n)");
		fprintf(stderr, "%s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
		return 1;
	}
	printf("%d CUDA devices\n", n);
	return 0;
}
