/* nccl.c: ncclCommInitAll on one device from NCCL 2 (dlopen'd, our own
 * declarations), reported with ncclGetErrorString and ncclGetLastError;
 * NCCL_DEBUG=WARN makes NCCL print its own warnings too. */
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	void *h = dlopen("libnccl.so.2", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 2;
	}
	int (*init_all)(void **, int, const int *) =
		(int (*)(void **, int, const int *))dlsym(h, "ncclCommInitAll");
	const char *(*str)(int) = (const char *(*)(int))dlsym(h, "ncclGetErrorString");
	const char *(*last)(void *) = (const char *(*)(void *))dlsym(h, "ncclGetLastError");
	if (!init_all || !str)
		return 2;
	void *comm = NULL;
	int r = init_all(&comm, 1, NULL);
	if (r != 0) {
		fprintf(stderr, "ncclCommInitAll failed: %s\n", str(r));
		if (last && last(NULL) && last(NULL)[0])
			fprintf(stderr, "%s\n", last(NULL));
		return 1;
	}
	printf("NCCL communicator created\n");
	return 0;
}
