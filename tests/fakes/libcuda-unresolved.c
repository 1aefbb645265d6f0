// soname: libcuda-unresolved.so.1
/*
 * A libcuda.so.1 that the dynamic loader cannot bind: it calls a function
 * no library defines, so dlopen(RTLD_NOW) fails with "undefined symbol",
 * as a real libcuda does when one of its own dependencies is missing or
 * from another driver version. The tests copy it over a fixture's
 * libcuda.so.1 to prove that cuda.load reports dlerror()'s text.
 */
int wslgpu_symbol_no_library_defines(void);
int cuInit(unsigned flags);
int cuInit(unsigned flags)
{
	return wslgpu_symbol_no_library_defines() + (int)flags;
}
