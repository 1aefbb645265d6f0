/* cudart_dl.c: cudaGetDeviceCount from a CUDA runtime named on the command
 * line (dlopen'd, our own declarations), reported as cudaGetErrorName:
 * cudaGetErrorString: a program shipping its own runtime (a framework's
 * wheel, Debian's libcudart11.0). */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 2;
	}
	int (*count)(int *) = (int (*)(int *))dlsym(h, "cudaGetDeviceCount");
	const char *(*name)(int) = (const char *(*)(int))dlsym(h, "cudaGetErrorName");
	const char *(*str)(int) = (const char *(*)(int))dlsym(h, "cudaGetErrorString");
	if (!count || !name || !str)
		return 2;
	int n = 0;
	int e = count(&n);
	if (e != 0) {
		fprintf(stderr, "%s: %s\n", name(e), str(e));
		return 1;
	}
	printf("%d CUDA devices\n", n);
	return 0;
}
