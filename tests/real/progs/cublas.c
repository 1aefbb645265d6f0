/* cublas.c: cublasCreate from cuBLAS 13 (dlopen'd, our own declarations),
 * reported with cublasGetStatusName and cublasGetStatusString. */
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	void *h = dlopen("libcublas.so.13", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 2;
	}
	int (*create)(void **) = (int (*)(void **))dlsym(h, "cublasCreate_v2");
	const char *(*name)(int) = (const char *(*)(int))dlsym(h, "cublasGetStatusName");
	const char *(*str)(int) = (const char *(*)(int))dlsym(h, "cublasGetStatusString");
	if (!create || !name || !str)
		return 2;
	void *handle = NULL;
	int s = create(&handle);
	if (s != 0) {
		fprintf(stderr, "cublasCreate failed: %s: %s\n", name(s), str(s));
		return 1;
	}
	printf("cuBLAS handle created\n");
	return 0;
}
