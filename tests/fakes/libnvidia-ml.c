// soname: libnvidia-ml.so.1
/* A fake libnvidia-ml.so.1 for the tests; see tests/fakes/README.md. */
int wslgpu_fake_nvml(void);
int wslgpu_fake_nvml(void)
{
	return 1;
}
