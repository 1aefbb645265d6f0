/*
 * answer: what the real NVIDIA libraries answer, for tests/real/ to hold
 * wslgpu's evidence against. Built by the tests at run time.
 *
 *   answer [-C DIR] cuda [LIB]
 *                       dlopen LIB (default the soname libcuda.so.1, found
 *                       by this process's loader), then cuDriverGetVersion
 *                       (before cuInit, as the driver allows) and cuInit(0)
 *   answer nvml [LIB]   the same for libnvidia-ml.so.1 and nvmlInit_v2
 *   answer which NAME   dlopen NAME (RTLD_LAZY) and print the file the
 *                       loader mapped, nothing called
 *   answer realpath PATH   where PATH leads (loaded=...), links followed
 *   answer statuses LIB   every status code the library names, as it
 *                       names and words it: a CUDA runtime
 *                       (cudaGetErrorName/cudaGetErrorString) or libcuda
 *                       (cuGetErrorName/cuGetErrorString, no cuInit
 *                       needed), one "status=CODE<TAB>NAME<TAB>TEXT" a line
 *
 * One "key=value" a line: loaded=FILE (realpath of what the loader mapped)
 * or dlerror=MESSAGE; cuDriverGetVersion=RC VERSION; cuInit=RC;
 * nvmlInit_v2=RC. Exit status 0 when the library loaded, 1 when not.
 * -C DIR: change to DIR first (an empty LD_LIBRARY_PATH entry is the
 * current directory; the tests run this in the user's directory).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *load(const char *name)
{
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("dlerror=%s\n", dlerror());
		return NULL;
	}
	struct link_map *lm = NULL;
	char real[PATH_MAX];
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm)
		printf("loaded=%s\n", realpath(lm->l_name, real) ? real : lm->l_name);
	return h;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "-C")) {
		if (chdir(argv[2]) < 0)
			perror(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: answer cuda|nvml|which|statuses [LIB]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	const char *what = argv[1];
	if (!strcmp(what, "realpath")) {
		char real[PATH_MAX];
		if (argc != 3 || !realpath(argv[2], real))
			return 1;
		printf("loaded=%s\n", real);
		return 0;
	}
	if (!strcmp(what, "which"))
		return argc == 3 && load(argv[2]) ? 0 : 1;
	if (!strcmp(what, "cuda")) {
		void *h = load(argc == 3 ? argv[2] : "libcuda.so.1");
		if (!h)
			return 1;
		int (*ver)(int *) = (int (*)(int *))dlsym(h, "cuDriverGetVersion");
		int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "cuInit");
		int v = 0;
		if (ver) {
			int rc = ver(&v);
			printf("cuDriverGetVersion=%d %d\n", rc, v);
		}
		if (init)
			printf("cuInit=%d\n", init(0));
		return 0;
	}
	if (!strcmp(what, "nvml")) {
		void *h = load(argc == 3 ? argv[2] : "libnvidia-ml.so.1");
		if (!h)
			return 1;
		int (*init)(void) = (int (*)(void))dlsym(h, "nvmlInit_v2");
		const char *(*str)(int) = (const char *(*)(int))dlsym(h, "nvmlErrorString");
		if (init) {
			int rc = init();
			printf("nvmlInit_v2=%d\n", rc);
			if (str)
				printf("nvmlErrorString=%s\n", str(rc));
		}
		return 0;
	}
	if (!strcmp(what, "statuses")) {
		void *h = argc == 3 ? load(argv[2]) : NULL;
		if (!h)
			return 1;
		const char *(*rt_name)(int) = (const char *(*)(int))dlsym(h, "cudaGetErrorName");
		const char *(*rt_text)(int) = (const char *(*)(int))dlsym(h, "cudaGetErrorString");
		int (*cu_name)(int, const char **) = (int (*)(int, const char **))dlsym(h, "cuGetErrorName");
		int (*cu_text)(int, const char **) = (int (*)(int, const char **))dlsym(h, "cuGetErrorString");
		for (int code = 1; code < 1000; code++) {
			const char *name = NULL, *text = NULL;
			if (rt_name && rt_text) {
				name = rt_name(code);
				text = rt_text(code);
				/* a code this runtime does not have: "unrecognized error code" */
				if (!name || strncmp(name, "cudaError", 9) != 0)
					continue;
			} else if (cu_name && cu_text) {
				if (cu_name(code, &name) != 0 || cu_text(code, &text) != 0)
					continue; /* CUDA_ERROR_INVALID_VALUE: no such code */
			} else {
				return 1;
			}
			if (name && text)
				printf("status=%d\t%s\t%s\n", code, name, text);
		}
		return 0;
	}
	fprintf(stderr, "answer: unknown request '%s'\n", what);
	return 2;
}
