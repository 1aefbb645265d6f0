/*
 * test_cuda.c: the cuda layer without a GPU: the CUresult table, the
 * embedded PTX, the pure decisions of src/gpu/cudafacts.c, and the loader
 * of src/gpu/cudaapi.c against the fake libraries that `make check` builds
 * ($BUILD/fakes): the fake libcuda (versioned names), the legacy one (plain
 * names only) and libdxcore.so (a library that is not CUDA at all).
 */
#include <dlfcn.h>

#include "testutil.h"

#include "gpu/cudaapi.h"
#include "gpu/cudafacts.h"
#include "gpu/kernels.h"
#include "kb/kb.h"
#include "kb_ids.h"

/* Every CUresult of cuda.h (CUDA 12.6 and 13.0) has a name and a text. */
static void test_result_table(void **state)
{
	(void)state;
	static const struct { int code; const char *name; } known[] = {
		{ 0, "CUDA_SUCCESS" },
		{ 1, "CUDA_ERROR_INVALID_VALUE" },
		{ 3, "CUDA_ERROR_NOT_INITIALIZED" },
		{ 34, "CUDA_ERROR_STUB_LIBRARY" },
		{ 36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER" },
		{ 46, "CUDA_ERROR_DEVICE_UNAVAILABLE" },
		{ 100, "CUDA_ERROR_NO_DEVICE" },
		{ 209, "CUDA_ERROR_NO_BINARY_FOR_GPU" },
		{ 218, "CUDA_ERROR_INVALID_PTX" },
		{ 221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND" },
		{ 222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" },
		{ 223, "CUDA_ERROR_JIT_COMPILATION_DISABLED" },
		{ 304, "CUDA_ERROR_OPERATING_SYSTEM" },
		{ 700, "CUDA_ERROR_ILLEGAL_ADDRESS" },
		{ 719, "CUDA_ERROR_LAUNCH_FAILED" },
		{ 803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH" },
		{ 804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE" },
		{ 916, "CUDA_ERROR_KEY_ROTATION" },
		{ 999, "CUDA_ERROR_UNKNOWN" },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		assert_string_equal(cuda_result_name_builtin(known[i].code), known[i].name);
		assert_non_null(cuda_result_text_builtin(known[i].code));
		/* No library loaded: the public names come from our table. */
		assert_string_equal(cuda_result_name(known[i].code), known[i].name);
	}
	/* 35 is the runtime's cudaErrorInsufficientDriver, not a CUresult. */
	assert_null(cuda_result_name_builtin(35));
	assert_string_equal(cuda_result_name(35), "CUDA_ERROR_UNRECOGNISED");
	assert_string_equal(cuda_result_text(-1), "unrecognised CUresult");
	assert_null(cuda_result_name_builtin(1000));

	/* The table is sorted (binary search) and every name is upper case. */
	int prev = -1, found = 0;
	for (int c = 0; c <= 1000; c++) {
		const char *n = cuda_result_name_builtin(c);
		if (!n)
			continue;
		assert_true(c > prev);
		prev = c;
		found++;
		assert_true(strncmp(n, "CUDA_", 5) == 0);
		for (const char *p = n; *p; p++)
			assert_true((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_');
	}
	assert_true(found >= 100);

	struct strbuf sb = STRBUF_INIT;
	cuda_result_describe(100, &sb);
	assert_string_equal(sb.buf, "CUDA_ERROR_NO_DEVICE (100)");
	sb_release(&sb);
}

static void test_version_str(void **state)
{
	(void)state;
	char b[16];
	assert_string_equal(cuda_version_str(12040, b, sizeof b), "12.4");
	assert_string_equal(cuda_version_str(12010, b, sizeof b), "12.1");
	assert_string_equal(cuda_version_str(11080, b, sizeof b), "11.8");
	assert_string_equal(cuda_version_str(13000, b, sizeof b), "13.0");
	assert_string_equal(cuda_version_str(10020, b, sizeof b), "10.2");
	assert_string_equal(cuda_version_str(0, b, sizeof b), "unknown");
	assert_string_equal(cuda_version_str(-5, b, sizeof b), "unknown");
	assert_string_equal(cuda_version_str(2147483647, b, sizeof b), "unknown");
	char tiny[3];
	cuda_version_str(12040, tiny, sizeof tiny); /* truncates, never overflows */
	assert_string_equal(tiny, "12");
}

/* The PTX is embedded, NUL-terminated, old enough, and has both kernels. */
static void test_ptx_embedded(void **state)
{
	(void)state;
	assert_true(wslgpu_kernels_ptx_len > 200);
	assert_int_equal(strlen(wslgpu_kernels_ptx), wslgpu_kernels_ptx_len);
	assert_int_equal(wslgpu_kernels_ptx[wslgpu_kernels_ptx_len], '\0');
	assert_non_null(strstr(wslgpu_kernels_ptx, "\n.version 7.0\n"));
	assert_non_null(strstr(wslgpu_kernels_ptx, "\n.target sm_50\n"));
	assert_non_null(strstr(wslgpu_kernels_ptx, "\n.address_size 64\n"));
	assert_non_null(strstr(wslgpu_kernels_ptx, ".entry " WSLGPU_KERNEL_FILL "("));
	assert_non_null(strstr(wslgpu_kernels_ptx, ".entry " WSLGPU_KERNEL_EMPTY "("));
	/* The pattern the PTX computes: 2654435761 is -1640531535 as s32. */
	assert_non_null(strstr(wslgpu_kernels_ptx, "-1640531535"));
	assert_int_equal(wslgpu_fill_value(0, 7), 7u);
	assert_int_equal(wslgpu_fill_value(1, 0), 2654435761u);
	assert_int_equal(wslgpu_fill_value(2, 0), (unsigned)(2u * 2654435761u));
}

static void test_judge_loaded(void **state)
{
	(void)state;
	const char *wsl = "/usr/lib/wsl/lib/libcuda.so.1";
	assert_int_equal(cuda_judge_loaded(wsl, wsl, true), CUDA_LOAD_OK);
	assert_int_equal(cuda_judge_loaded(NULL, wsl, true), CUDA_LOAD_NO_PREDICTION);
	assert_int_equal(cuda_judge_loaded("", wsl, true), CUDA_LOAD_NO_PREDICTION);
	/* Docker on WSL maps the driver store: still WSL's driver. */
	const char *store = "/usr/lib/wsl/drivers/nv_dispi.inf_amd64_1/libcuda.so.1.1";
	assert_int_equal(cuda_judge_loaded(store, store, true), CUDA_LOAD_OK);
	assert_int_equal(cuda_judge_loaded(wsl, store, true), CUDA_LOAD_MISMATCH);
	/* A Linux driver's copy on WSL2 (R03). */
	const char *distro = "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05";
	assert_int_equal(cuda_judge_loaded(wsl, distro, true), CUDA_LOAD_SHADOWED);
	assert_int_equal(cuda_judge_loaded(distro, distro, true), CUDA_LOAD_SHADOWED);
	/* ... is the normal case on native Linux. */
	assert_int_equal(cuda_judge_loaded(distro, distro, false), CUDA_LOAD_OK);
	assert_int_equal(cuda_judge_loaded("/usr/lib64/libcuda.so.1", distro, false),
			 CUDA_LOAD_MISMATCH);
	/* The toolkit stub wins over everything. */
	const char *stub = "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so";
	assert_int_equal(cuda_judge_loaded(stub, stub, true), CUDA_LOAD_STUB);
	assert_int_equal(cuda_judge_loaded(NULL, stub, false), CUDA_LOAD_STUB);
	/* "stubs" only as a whole directory name. */
	assert_int_equal(cuda_judge_loaded(NULL, "/opt/mystubsx/libcuda.so.1", false),
			 CUDA_LOAD_NO_PREDICTION);
}

static void test_paths(void **state)
{
	(void)state;
	struct strbuf d = STRBUF_INIT;
	assert_true(cuda_path_in_stubs("/usr/local/cuda/lib64/stubs/libcuda.so.1", &d));
	assert_string_equal(d.buf, "/usr/local/cuda/lib64/stubs");
	assert_true(cuda_path_in_stubs("/a/stubs/b/stubs/libcuda.so", &d));
	assert_string_equal(d.buf, "/a/stubs/b/stubs");
	assert_true(cuda_path_in_stubs("/x/stubs", NULL));
	assert_false(cuda_path_in_stubs("/x/stubsy/libcuda.so", NULL));
	assert_false(cuda_path_in_stubs("/usr/lib/wsl/lib/libcuda.so.1", NULL));
	assert_false(cuda_path_in_stubs(NULL, NULL));
	sb_release(&d);
}

static void test_visible_devices(void **state)
{
	(void)state;
	assert_false(cuda_visible_devices_hide_all(NULL));
	assert_true(cuda_visible_devices_hide_all(""));
	assert_true(cuda_visible_devices_hide_all("-1"));
	assert_true(cuda_visible_devices_hide_all("none"));
	assert_true(cuda_visible_devices_hide_all(",0"));
	assert_false(cuda_visible_devices_hide_all("0"));
	assert_false(cuda_visible_devices_hide_all("1,0"));
	assert_false(cuda_visible_devices_hide_all(" 0"));
	assert_false(cuda_visible_devices_hide_all("GPU-5a1e3c7d"));
	assert_false(cuda_visible_devices_hide_all("MIG-1234"));
}

/* Every CUresult at every step maps to an entry that exists in the KB. */
static void test_result_kb(void **state)
{
	(void)state;
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 34, false, true), KB_CUDA_INIT_STUB);
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 100, false, true), KB_CUDA_INIT_NO_DEVICE);
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 100, false, false),
			    KB_CUDA_INIT_NO_DEVICE_NATIVE);
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 100, true, true), KB_CUDA_INIT_HIDDEN);
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 999, false, true), KB_CUDA_INIT_UNKNOWN);
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 999, false, false),
			    KB_CUDA_INIT_UNKNOWN_NATIVE);
	assert_string_equal(cuda_result_kb(CUDA_STEP_CONTEXT, 999, false, false),
			    KB_CUDA_INIT_UNKNOWN_NATIVE);
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 304, false, true), KB_CUDA_INIT_OS_ERROR);
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 3, false, true),
			    KB_CUDA_INIT_NOT_INITIALIZED);
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 803, false, true),
			    KB_CUDA_INIT_DRIVER_MISMATCH);
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 804, false, true),
			    KB_CUDA_INIT_COMPAT_UNSUPPORTED);
	assert_string_equal(cuda_result_kb(CUDA_STEP_INIT, 2, false, true), KB_CUDA_INIT_ERROR);
	assert_string_equal(cuda_result_kb(CUDA_STEP_MODULE, 222, false, true),
			    KB_CUDA_KERNEL_PTX_UNSUPPORTED);
	assert_string_equal(cuda_result_kb(CUDA_STEP_MODULE, 221, false, true),
			    KB_CUDA_KERNEL_JIT_MISSING);
	assert_string_equal(cuda_result_kb(CUDA_STEP_MODULE, 223, false, true),
			    KB_CUDA_KERNEL_JIT_DISABLED);
	assert_string_equal(cuda_result_kb(CUDA_STEP_MODULE, 218, false, true),
			    KB_CUDA_KERNEL_JIT_FAILED);
	assert_string_equal(cuda_result_kb(CUDA_STEP_CONTEXT, 46, false, true),
			    KB_CUDA_KERNEL_DEVICE_UNAVAILABLE);
	assert_string_equal(cuda_result_kb(CUDA_STEP_MEMORY, 2, false, true),
			    KB_CUDA_KERNEL_OUT_OF_MEMORY);
	assert_string_equal(cuda_result_kb(CUDA_STEP_LAUNCH, 719, false, true),
			    KB_CUDA_KERNEL_LAUNCH_FAILED);
	assert_string_equal(cuda_result_kb(CUDA_STEP_DEVICES, 101, false, true),
			    KB_CUDA_DEVICES_QUERY_FAILED);
	static const enum cuda_step steps[] = { CUDA_STEP_INIT, CUDA_STEP_DEVICES,
						CUDA_STEP_CONTEXT, CUDA_STEP_MODULE,
						CUDA_STEP_MEMORY, CUDA_STEP_LAUNCH };
	for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++)
		for (int code = -2; code <= 1000; code++)
			for (int h = 0; h < 2; h++)
				for (int w = 0; w < 2; w++) {
					const char *id = cuda_result_kb(steps[s], code, h, w);
					if (!kb_find(id))
						fail_msg("no KB entry %s (step %d, code %d)", id,
							 (int)steps[s], code);
				}
	/* And the ids the probes name directly. */
	static const char *const direct[] = {
		KB_CUDA_LOAD_DLOPEN_FAILED, KB_CUDA_LOAD_NOT_CUDA, KB_CUDA_LOAD_STUB,
		KB_CUDA_LOAD_SHADOWED, KB_CUDA_LOAD_MISMATCH, KB_CUDA_INIT_ZERO_DEVICES,
		KB_CUDA_INIT_BAD_COUNT, KB_CUDA_DEVICES_OLD_ARCH, KB_CUDA_DEVICES_NO_MEMORY,
		KB_CUDA_KERNEL_MISSING_CALL, KB_CUDA_KERNEL_WRONG_DATA, KB_CUDA_KERNEL_MEMORY_FAILED,
		KB_CUDA_KERNEL_CONTEXT_FAILED, KB_CUDA_INIT_STUB_COPY,
	};
	for (size_t i = 0; i < sizeof direct / sizeof direct[0]; i++) {
		const struct kb_entry *e = kb_find(direct[i]);
		if (!e)
			fail_msg("no KB entry %s", direct[i]);
		assert_string_equal(e->layer, "cuda");
		assert_true(e->source.n > 0);
	}
}

/* Every entry of the layer: a title, https sources, related entries that
 * exist, and a fix to type for every finding. */
static void test_kb_entries(void **state)
{
	(void)state;
	const struct kb *kb = kb_builtin();
	size_t mine = 0;
	for (size_t i = 0; i < kb->n; i++) {
		const struct kb_entry *e = &kb->e[i];
		if (strncmp(e->id, "cuda.", 5) != 0)
			continue;
		mine++;
		assert_string_equal(e->layer, "cuda");
		assert_true(e->source.n > 0);
		for (size_t j = 0; j < e->source.n; j++)
			if (strncmp(e->source.v[j], "https://", 8) != 0)
				fail_msg("%s: source is not a URL: %s", e->id, e->source.v[j]);
		for (size_t j = 0; j < e->see.n; j++)
			if (!kb_find(e->see.v[j]))
				fail_msg("%s: see: %s does not exist", e->id, e->see.v[j]);
		if (!e->cause || e->fix.n == 0)
			fail_msg("%s: a finding needs a cause and a fix", e->id);
	}
	assert_true(mine >= 30);
}

static void test_format(void **state)
{
	(void)state;
	char b[64];
	cuda_format_pci(0, 1, 0, b, sizeof b);
	assert_string_equal(b, "0000:01:00.0");
	cuda_format_pci(0x10, 0xaf, 0x1f, b, sizeof b);
	assert_string_equal(b, "0010:af:1f.0");
	cuda_format_pci(-1, 1, 0, b, sizeof b);
	assert_string_equal(b, "unknown");
	cuda_format_pci(0, 256, 0, b, sizeof b);
	assert_string_equal(b, "unknown");
	const unsigned char u[16] = { 0x5a, 0x1e, 0x3c, 0x7d, 0x21, 0x9b, 0x4f, 0x02,
				      0x8e, 0x6a, 0xd4, 0x10, 0xbe, 0xef, 0x00, 0x01 };
	cuda_format_uuid(u, b, sizeof b);
	assert_string_equal(b, "GPU-5a1e3c7d-219b-4f02-8e6a-d410beef0001");
	assert_int_equal(cuda_bytes_to_mib(10737418240ull), 10240);
	assert_int_equal(cuda_bytes_to_mib(0), 0);
	assert_int_equal(cuda_bytes_to_mib((1ull << 20) - 1), 0);
}

static void test_clean_name(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	cuda_clean_name("NVIDIA GeForce RTX 3080", 256, &sb);
	assert_string_equal(sb.buf, "NVIDIA GeForce RTX 3080");
	/* Not terminated within the buffer: stops at cap. */
	char raw[8];
	memset(raw, 'A', sizeof raw);
	cuda_clean_name(raw, sizeof raw, &sb);
	assert_string_equal(sb.buf, "AAAAAAAA");
	cuda_clean_name("  \x1b[31mGPU\t\r\n  ", 256, &sb);
	assert_string_equal(sb.buf, "[31mGPU");
	cuda_clean_name("", 256, &sb);
	assert_string_equal(sb.buf, "(no name)");
	cuda_clean_name(NULL, 256, &sb);
	assert_string_equal(sb.buf, "(no name)");
	/* Non-UTF-8 bytes are kept for the reports to escape. */
	cuda_clean_name("\xff\xfe" "bad", 256, &sb);
	assert_string_equal(sb.buf, "\xff\xfe" "bad");
	sb_release(&sb);
}

static void test_verify_fill(void **state)
{
	(void)state;
	enum { N = 10000 };
	unsigned *buf = malloc(N * sizeof *buf);
	assert_non_null(buf);
	for (unsigned i = 0; i < N; i++)
		buf[i] = wslgpu_fill_value(i, 42);
	size_t first;
	assert_int_equal(cuda_verify_fill(buf, N, 42, &first), 0);
	assert_int_equal(first, N);
	/* Another seed: every element differs. */
	assert_int_equal(cuda_verify_fill(buf, N, 43, &first), N);
	assert_int_equal(first, 0);
	buf[4095] ^= 1;
	buf[N - 1] ^= 0x80000000u;
	assert_int_equal(cuda_verify_fill(buf, N, 42, &first), 2);
	assert_int_equal(first, 4095);
	assert_int_equal(cuda_verify_fill(buf, 0, 42, NULL), 0);
	free(buf);
}

/* ---- the loader, against the fake libraries ---- */

static char *fake_path(const char *name)
{
	const char *build = getenv("BUILD");
	char *p = malloc(4096);
	const char *top = getenv("WSLGPU_TOP");
	if (!build || !*build)
		build = "build";
	if (build[0] == '/' || !top)
		snprintf(p, 4096, "%s/fakes/%s", build, name);
	else
		snprintf(p, 4096, "%s/%s/fakes/%s", top, build, name);
	if (access(p, R_OK) != 0) {
		free(p);
		return NULL;
	}
	char *real = realpath(p, NULL);
	free(p);
	return real;
}

static void test_load_fake(void **state)
{
	(void)state;
	char *path = fake_path("libcuda.so.1");
	if (!path) {
		/* The fakes are built by make check before the unit tests. */
		fail_msg("fake libcuda not found under $BUILD/fakes (run via make check)");
	}
	struct cuda_api api;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(cuda_api_load(&api, path, &err), 0);
	assert_string_equal(api.loaded_path, path);
	/* The fake exports every call we resolve, under the versioned names. */
	if (api.missing)
		fail_msg("fake libcuda lacks: %s", api.missing);
	assert_non_null(api.cuMemAlloc);
	assert_ptr_equal((void *)api.cuMemAlloc, dlsym(api.handle, "cuMemAlloc_v2"));
	assert_ptr_equal((void *)api.cuCtxCreate, dlsym(api.handle, "cuCtxCreate_v2"));
	assert_ptr_equal((void *)api.cuDeviceGetUuid, dlsym(api.handle, "cuDeviceGetUuid_v2"));
	assert_null(dlsym(api.handle, "cuMemAlloc"));

	/* A short life of a CUDA program on the fake. */
	assert_int_equal(api.cuDeviceGetCount(&(int){ 0 }), CUDA_ERROR_NOT_INITIALIZED);
	assert_int_equal(api.cuInit(0), CUDA_SUCCESS);
	int v = 0, n = 0;
	assert_int_equal(api.cuDriverGetVersion(&v), CUDA_SUCCESS);
	assert_int_equal(v, 12040);
	assert_int_equal(api.cuDeviceGetCount(&n), CUDA_SUCCESS);
	assert_int_equal(n, 1);
	CUdevice dev;
	CUcontext ctx;
	assert_int_equal(api.cuDeviceGet(&dev, 0), CUDA_SUCCESS);
	CUdeviceptr d;
	assert_int_equal(api.cuMemAlloc(&d, 4096), CUDA_ERROR_INVALID_CONTEXT);
	assert_int_equal(api.cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
	assert_int_equal(api.cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	CUmodule mod;
	CUfunction fn;
	assert_int_equal(api.cuModuleLoadData(&mod, wslgpu_kernels_ptx), CUDA_SUCCESS);
	assert_int_equal(api.cuModuleGetFunction(&fn, mod, WSLGPU_KERNEL_FILL), CUDA_SUCCESS);
	assert_int_equal(api.cuModuleGetFunction(&fn, mod, "nope"), CUDA_ERROR_NOT_FOUND);
	assert_int_equal(api.cuModuleGetFunction(&fn, mod, WSLGPU_KERNEL_FILL), CUDA_SUCCESS);
	enum { N = 1000 };
	unsigned host[N];
	assert_int_equal(api.cuMemAlloc(&d, sizeof host), CUDA_SUCCESS);
	unsigned nn = N, seed = 9;
	void *params[] = { &d, &nn, &seed };
	assert_int_equal(api.cuLaunchKernel(fn, 4, 1, 1, 256, 1, 1, 0, NULL, params, NULL),
			 CUDA_SUCCESS);
	assert_int_equal(api.cuLaunchKernel(fn, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL),
			 CUDA_ERROR_INVALID_VALUE);
	assert_int_equal(api.cuCtxSynchronize(), CUDA_SUCCESS);
	assert_int_equal(api.cuMemcpyDtoH(host, d, sizeof host), CUDA_SUCCESS);
	assert_int_equal(cuda_verify_fill(host, N, 9, NULL), 0);
	/* Beyond the allocation: refused, as a driver would. */
	assert_int_equal(api.cuMemcpyDtoH(host, d + 8, sizeof host), CUDA_ERROR_INVALID_VALUE);
	/* Events give elapsed milliseconds. */
	CUevent a, b;
	float ms = -1;
	assert_int_equal(api.cuEventCreate(&a, 0), CUDA_SUCCESS);
	assert_int_equal(api.cuEventCreate(&b, 0), CUDA_SUCCESS);
	assert_int_equal(api.cuEventElapsedTime(&ms, a, b), CUDA_ERROR_INVALID_HANDLE);
	assert_int_equal(api.cuEventRecord(a, NULL), CUDA_SUCCESS);
	assert_int_equal(api.cuEventRecord(b, NULL), CUDA_SUCCESS);
	assert_int_equal(api.cuEventSynchronize(b), CUDA_SUCCESS);
	assert_int_equal(api.cuEventElapsedTime(&ms, a, b), CUDA_SUCCESS);
	assert_true(ms >= 0 && ms < 1000);
	assert_int_equal(api.cuEventDestroy(a), CUDA_SUCCESS);
	assert_int_equal(api.cuEventDestroy(b), CUDA_SUCCESS);
	assert_int_equal(api.cuMemFree(d), CUDA_SUCCESS);
	assert_int_equal(api.cuModuleUnload(mod), CUDA_SUCCESS);
	assert_int_equal(api.cuDevicePrimaryCtxRelease(dev), CUDA_SUCCESS);

	/* The library names codes it knows; ours answers for the rest. */
	assert_string_equal(cuda_result_name(100), "CUDA_ERROR_NO_DEVICE");
	assert_string_equal(cuda_result_text(100), "no CUDA-capable device is detected");
	assert_string_equal(cuda_result_name(34), "CUDA_ERROR_STUB_LIBRARY");
	cuda_api_close(&api);
	assert_null(api.handle);
	sb_release(&err);
	free(path);
}

/* An old driver: plain names only; what it lacks is "not supported". */
static void test_load_legacy(void **state)
{
	(void)state;
	char *path = fake_path("libcuda-legacy.so.1");
	if (!path)
		fail_msg("fake libcuda-legacy not found under $BUILD/fakes");
	struct cuda_api api;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(cuda_api_load(&api, path, &err), 0);
	assert_ptr_equal((void *)api.cuMemAlloc, dlsym(api.handle, "cuMemAlloc"));
	assert_ptr_equal((void *)api.cuCtxCreate, dlsym(api.handle, "cuCtxCreate"));
	assert_non_null(api.cuDeviceGetUuid); /* the v1 fallback */
	assert_null(api.cuModuleLoadDataEx);
	assert_null(api.cuGetErrorName);
	assert_null(api.cuGetErrorString);
	assert_non_null(api.missing);
	assert_non_null(strstr(api.missing, "cuModuleLoadDataEx"));
	assert_non_null(strstr(api.missing, "cuGetErrorName"));
	assert_null(strstr(api.missing, "cuMemAlloc"));
	/* Names come from our table. */
	assert_string_equal(cuda_result_name(222), "CUDA_ERROR_UNSUPPORTED_PTX_VERSION");
	cuda_api_close(&api);
	sb_release(&err);
	free(path);
}

static void test_load_errors(void **state)
{
	(void)state;
	struct cuda_api api;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(cuda_api_load(&api, "/nonexistent/libcuda.so.1", &err), -ENOENT);
	assert_non_null(strstr(err.buf, "/nonexistent/libcuda.so.1"));
	assert_null(api.handle);
	cuda_api_close(&api); /* safe on a failed load */
	/* A shared library that is not CUDA at all. */
	char *dx = fake_path("libdxcore.so");
	if (!dx)
		fail_msg("fake libdxcore not found under $BUILD/fakes");
	sb_reset(&err);
	assert_int_equal(cuda_api_load(&api, dx, &err), -ENOSYS);
	assert_non_null(strstr(err.buf, "no cuInit"));
	assert_non_null(api.missing);
	cuda_api_close(&api);
	/* Not a shared object. */
	char *d = tu_mkdtemp();
	tu_write_str(d, "libcuda.so.1", "#fake libcuda.so.1\n");
	char p[4200];
	snprintf(p, sizeof p, "%s/libcuda.so.1", d);
	sb_reset(&err);
	assert_int_equal(cuda_api_load(&api, p, &err), -ENOENT);
	assert_true(err.len > 0);
	cuda_api_close(&api);
	tu_rmtree(d);
	free(d);
	free(dx);
	sb_release(&err);
}

/* A library whose error-name calls return garbage: our table answers. */
static void test_garbage_names(void **state)
{
	(void)state;
	char *path = fake_path("libcuda.so.1");
	if (!path)
		fail_msg("fake libcuda not found under $BUILD/fakes");
	setenv("FAKE_CUDA_ODD", "garbage-error-names", 1);
	struct cuda_api api;
	struct strbuf err = STRBUF_INIT;
	/* The fake reads its environment once per process: a fresh copy. */
	char *d = tu_mkdtemp();
	char copy[4200], cmd[9000];
	snprintf(copy, sizeof copy, "%s/libcuda-odd.so.1", d);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, copy);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(cuda_api_load(&api, copy, &err), 0);
	assert_string_equal(cuda_result_name(100), "CUDA_ERROR_NO_DEVICE");
	assert_string_equal(cuda_result_text(100), "the driver detected no CUDA-capable device");
	cuda_api_close(&api);
	unsetenv("FAKE_CUDA_ODD");
	tu_rmtree(d);
	free(d);
	sb_release(&err);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result_table), cmocka_unit_test(test_version_str),
		cmocka_unit_test(test_ptx_embedded), cmocka_unit_test(test_judge_loaded),
		cmocka_unit_test(test_paths),        cmocka_unit_test(test_visible_devices),
		cmocka_unit_test(test_result_kb),    cmocka_unit_test(test_kb_entries),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_clean_name),   cmocka_unit_test(test_verify_fill),
		cmocka_unit_test(test_load_errors),  cmocka_unit_test(test_garbage_names),
		cmocka_unit_test(test_load_legacy),  cmocka_unit_test(test_load_fake),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
