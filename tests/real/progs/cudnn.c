/* cudnn.c: cudnnCreate from cuDNN 9 (dlopen'd, our own declarations),
 * reported with cudnnGetErrorString and cuDNN's own last-error text. */
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	void *h = dlopen("libcudnn.so.9", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 2;
	}
	int (*create)(void **) = (int (*)(void **))dlsym(h, "cudnnCreate");
	const char *(*str)(int) = (const char *(*)(int))dlsym(h, "cudnnGetErrorString");
	void (*last)(char *, size_t) = (void (*)(char *, size_t))dlsym(h, "cudnnGetLastErrorString");
	if (!create || !str)
		return 2;
	void *handle = NULL;
	int s = create(&handle);
	if (s != 0) {
		fprintf(stderr, "cudnnCreate failed: %s\n", str(s));
		if (last) {
			char buf[1024] = "";
			last(buf, sizeof buf);
			if (buf[0])
				fprintf(stderr, "%s\n", buf);
		}
		return 1;
	}
	printf("cuDNN handle created\n");
	return 0;
}
