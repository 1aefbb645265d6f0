// soname: libcuda.so.1
/*
 * A fake libcuda.so.1 for the tests. Its behaviour is chosen by environment
 * variables (documented in tests/fakes/README.md); placed in a fixture, it
 * also stands in for the real file so that ldconfig indexes it.
 */
int wslgpu_fake_libcuda(void);
int wslgpu_fake_libcuda(void)
{
	return 1;
}
