// soname: libdxcore.so
/* A fake libdxcore.so: only its presence and ELF-ness matter to the tests. */
int wslgpu_fake_dxcore(void);
int wslgpu_fake_dxcore(void)
{
	return 1;
}
