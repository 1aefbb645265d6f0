/* test_judge_cuda.c: cuda.load's and cuda.devices' judges, fed from tables
 * of machines (src/probes/cuda_judge.h): what dlopen loaded and what
 * libs.libcuda predicted, what each device answered; no library is loaded.
 * Each row is one verdict branch. */
#include "judgeutil.h"

#include "gpu/cudaapi.h"
#include "probes/cuda_judge.h"

#define WSL "/usr/lib/wsl/lib/libcuda.so.1"
#define DISTRO "/usr/lib/x86_64-linux-gnu/libcuda.so.1"
#define STUB "/usr/local/cuda/lib64/stubs/libcuda.so.1"

/* ---- cuda.load ---- */

struct load_row {
	const char *name;
	bool wsl2, real;
	const char *predicted;   /* libs.libcuda's resolved */
	enum status libs_st;     /* libs.libcuda's status */
	const char *libs_package;
	int host_rc, load_rc;
	bool dlinfo;
	const char *loaded, *loaded_as;
	bool basic;
	const char *missing;
	bool init_asked;
	int init_rc;
	/* expected */
	enum status st;
	const char *kb, *detail, *ev_key, *ev_val;
};

static const struct load_row load_rows[] = {
	{ "the predicted file", true, false, WSL, ST_PASS, NULL, 0, 0, true, WSL, WSL, true, NULL,
	  false, 0,
	  ST_PASS, NULL, "loaded " WSL ", the file libs.libcuda predicted", "prediction", NULL },
	/* Never WSL's default in its place: the loader may map the stub there
	 * (ld.wsl.conf missing, the stubs directory on LD_LIBRARY_PATH). */
	{ "no prediction under a WSL root: nothing loaded", true, false, NULL, ST_FAIL, NULL, 0, 0,
	  false, NULL, NULL, false, NULL, false, 0,
	  ST_SKIP, NULL, "skipped: libs.libcuda predicted no libcuda.so.1", NULL, NULL },
	{ "no prediction under a native root", false, false, NULL, ST_FAIL, NULL, 0, 0, false, NULL,
	  NULL, false, NULL, false, 0,
	  ST_SKIP, NULL, "skipped: libs.libcuda predicted no libcuda.so.1", NULL, NULL },
	{ "the predicted file cannot be found under the root", true, false, WSL, ST_PASS, NULL,
	  -ELOOP, 0, false, NULL, NULL, false, NULL, false, 0,
	  ST_FAIL, "cuda.load.dlopen_failed", WSL " cannot be opened: Too many levels of symbolic",
	  "file", WSL },
	{ "dlopen fails", true, false, WSL, ST_PASS, NULL, 0, -ENOENT, false, WSL, WSL, false, NULL,
	  false, 0,
	  ST_FAIL, "cuda.load.dlopen_failed", "dlopen(libcuda.so.1) failed: libcuda.so.1: cannot", "error",
	  "libcuda.so.1: cannot open shared object file" },
	{ "no cuInit", true, false, WSL, ST_PASS, NULL, 0, -ENOSYS, true, WSL, WSL, false,
	  "cuInit", false, 0,
	  ST_FAIL, "cuda.load.not_cuda", WSL " loaded, but it is not a CUDA driver (no cuInit)",
	  "loaded", WSL },
	{ "no cuDeviceGet", true, false, WSL, ST_PASS, NULL, 0, 0, true, WSL, WSL, false,
	  "cuDeviceGet", false, 0,
	  ST_FAIL, "cuda.load.not_cuda", "lacks the basic CUDA calls (cuDeviceGet)", "error",
	  "missing cuDeviceGet" },
	{ "some calls missing, the rest works", true, false, WSL, ST_PASS, NULL, 0, 0, true, WSL,
	  WSL, true, "cuDeviceGetUuid", false, 0,
	  ST_PASS, NULL, "the file libs.libcuda predicted", "not_supported", "cuDeviceGetUuid" },
	{ "the toolkit's stub", false, true, STUB, ST_FAIL, NULL, 0, 0, true, STUB, STUB, true, NULL,
	  true, CUDA_ERROR_STUB_LIBRARY,
	  ST_FAIL, "cuda.load.stub", "the loader picked the CUDA toolkit's stub " STUB,
	  "stubs_dir", "/usr/local/cuda/lib64/stubs" },
	{ "a Linux driver's libcuda on WSL", true, false, DISTRO, ST_FAIL,
	  "libnvidia-compute-535", 0, 0, true, DISTRO, DISTRO, true, NULL, true, CUDA_ERROR_NO_DEVICE,
	  ST_FAIL, "cuda.load.shadowed", "the loader picked " DISTRO ", not WSL's", "package",
	  "libnvidia-compute-535" },
	{ "another file than predicted (native)", false, true, DISTRO, ST_PASS, NULL, 0, 0, true,
	  "/opt/nvidia/libcuda.so.1", "/opt/nvidia/libcuda.so.1", true, NULL, false, 0,
	  ST_WARN, "cuda.load.mismatch", "but libs.libcuda predicted " DISTRO, "loaded",
	  "/opt/nvidia/libcuda.so.1" },
	{ "no prediction on the real machine", false, true, NULL, ST_FAIL, NULL, 0, 0, true,
	  DISTRO, DISTRO, true, NULL, false, 0,
	  ST_PASS, NULL, "(libs.libcuda made no prediction to compare)", "predicted",
	  "none (libs.libcuda made no prediction)" },
	{ "a stub copied over WSL's file answers 34", true, false, WSL, ST_WARN, NULL, 0, 0, true,
	  WSL, WSL, true, NULL, true, CUDA_ERROR_STUB_LIBRARY,
	  ST_FAIL, "cuda.init.stub_copy", "its cuInit answers CUDA_ERROR_STUB_LIBRARY", "stub_place",
	  "wsl" },
};

static void test_load(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof load_rows / sizeof load_rows[0]; i++) {
		const struct load_row *w = &load_rows[i];
		struct result libs, r;
		result_init(&libs, NULL);
		res_set(&libs, w->libs_st, NULL, "libcuda.so.1 -> somewhere");
		if (w->predicted)
			res_ev(&libs, "resolved", "%s", w->predicted);
		if (w->libs_package)
			res_ev(&libs, "package", "%s", w->libs_package);
		libs.ran = true;
		const char *guest = w->real ? NULL : w->predicted; /* collect_load's */
		struct cuda_load_facts f = {
			.wsl2 = w->wsl2,
			.real = w->real,
			.predicted = w->predicted,
			.guest = guest,
			.host_rc = w->host_rc,
			.pred_real = w->real ? w->predicted : guest,
			.load_rc = w->load_rc,
			.error = w->load_rc < 0 ? "libcuda.so.1: cannot open shared object file" : NULL,
			.dlinfo = w->dlinfo,
			.loaded = w->loaded,
			.loaded_as = w->loaded_as,
			.file = w->real ? "libcuda.so.1" : guest,
			.basic_calls = w->basic,
			.missing = w->missing,
			.libs = &libs,
			.init_asked = w->init_asked,
			.init_rc = w->init_rc,
			.ld_library_path = "/usr/local/cuda/lib64/stubs:/opt/lib",
		};
		result_init(&r, NULL);
		judge_cuda_load(&f, &r);
		ju_expect(w->name, &r, w->st, w->kb, w->detail, w->ev_key, w->ev_val);
		if (w->st == ST_FAIL && w->kb && !strcmp(w->kb, "cuda.load.stub"))
			assert_string_equal(res_get(&r, "ld_library_path_fixed"), "/opt/lib");
		result_release(&r);
		result_release(&libs);
	}
}

/* The stubs directory named through the toolkit's links: LD_LIBRARY_PATH
 * says /usr/local/cuda/lib64/stubs, the loader mapped the file in
 * /usr/local/cuda-13.0/lib/stubs (its real path): the fix drops both
 * spellings (tests/real/stub.sh holds it against the real loader). */
static void test_load_stub_through_links(void **state)
{
	(void)state;
	struct result libs, r;
	result_init(&libs, NULL);
	res_set(&libs, ST_FAIL, "libs.loader.stub", "the stub");
	res_ev(&libs, "resolved", "/usr/local/cuda-13.0/lib/stubs/libcuda.so");
	struct cuda_load_facts f = {
		.real = true,
		.predicted = "/usr/local/cuda-13.0/lib/stubs/libcuda.so",
		.pred_real = "/usr/local/cuda-13.0/lib/stubs/libcuda.so",
		.load_rc = 0,
		.dlinfo = true,
		.loaded = "/usr/local/cuda/lib64/stubs/libcuda.so.1",
		.loaded_as = "/usr/local/cuda/lib64/stubs/libcuda.so.1",
		.file = "libcuda.so.1",
		.basic_calls = true,
		.libs = &libs,
		.ld_library_path = "/usr/local/cuda-13.0/lib/stubs:/usr/local/cuda/lib64/stubs:/opt/lib",
		.ld_library_path_real =
			"/usr/local/cuda-13.0/lib/stubs:/usr/local/cuda-13.0/lib/stubs:/opt/lib",
	};
	result_init(&r, NULL);
	judge_cuda_load(&f, &r);
	if (r.status == ST_FAIL && r.kb && !strcmp(r.kb, "cuda.load.stub"))
		assert_string_equal(res_get(&r, "ld_library_path_fixed"), "/opt/lib");
	else
		fail_msg("expected cuda.load.stub, got %s", r.kb ? r.kb : "(none)");
	result_release(&r);
	result_release(&libs);
}

/* A Linux libcuda no package owns, or a conda environment's, shadows
 * WSL's: the fix must not send the user to dpkg -S, which finds nothing. */
static void test_load_unowned(void **state)
{
	(void)state;
	static const struct { const char *conda; bool whole; const char *key, *val; } rows[] = {
		{ NULL, true, "unowned", "no package owns /opt/x/libcuda.so.1" },
		{ "/opt/conda", true, "conda_prefix", "/opt/conda" },
		{ NULL, false, "unowned", NULL }, /* dpkg not read whole: no claim */
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct result libs, r;
		result_init(&libs, NULL);
		res_set(&libs, ST_FAIL, NULL, "the loader picks /opt/x/libcuda.so.1");
		res_ev(&libs, "resolved", "%s", "/opt/x/libcuda.so.1");
		if (rows[i].conda)
			res_ev(&libs, "conda_prefix", "%s", rows[i].conda);
		libs.ran = true;
		struct cuda_load_facts f = {
			.wsl2 = true, .predicted = "/opt/x/libcuda.so.1", .guest = "/opt/x/libcuda.so.1",
			.pred_real = "/opt/x/libcuda.so.1", .dlinfo = true,
			.loaded = "/opt/x/libcuda.so.1", .loaded_as = "/opt/x/libcuda.so.1",
			.file = "/opt/x/libcuda.so.1", .basic_calls = true, .libs = &libs,
			.init_asked = true, .init_rc = CUDA_ERROR_NO_DEVICE, .dpkg_whole = rows[i].whole,
		};
		result_init(&r, NULL);
		judge_cuda_load(&f, &r);
		ju_expect(rows[i].key, &r, ST_FAIL, "cuda.load.shadowed", "not WSL's", rows[i].val ?
			  rows[i].key : "loaded", rows[i].val ? rows[i].val : "/opt/x/libcuda.so.1");
		if (!rows[i].val)
			assert_null(res_get(&r, "unowned"));
		result_release(&r);
		result_release(&libs);
	}
}

/* ---- cuda.devices ---- */

#define MiB (1ull << 20)
/* A device that answers everything. */
#define DEV(name, major, minor, mib) \
	{ CUDA_SUCCESS, name, major, minor, true, (mib) * MiB, 0, 1, 0, CUDA_SUCCESS, { 0x5a }, 0, 0 }

struct dev_row {
	const char *name;
	bool wsl2;
	int count;
	struct cuda_dev dev[2];
	/* expected */
	enum status st;
	const char *kb, *detail, *ev_key, *ev_val;
};

static const struct dev_row dev_rows[] = {
	{ "one GPU on WSL", true, 1, { DEV("NVIDIA GeForce RTX 3080", 8, 6, 10240) },
	  ST_PASS, NULL, "NVIDIA GeForce RTX 3080 (compute capability 8.6, 10240 MiB, PCI "
	  "0000:01:00.0)", "device.0.concurrent_managed_access", "0 (expected on WSL 2: concurrent "
	  "CPU/GPU access to managed memory is not supported)" },
	{ "two GPUs on native Linux", false, 2,
	  { DEV("NVIDIA RTX A4000", 8, 6, 16376), DEV("NVIDIA RTX A2000", 8, 6, 6138) },
	  ST_PASS, NULL, "2 devices: NVIDIA RTX A4000 (compute capability 8.6, 16376 MiB, PCI "
	  "0000:01:00.0); NVIDIA RTX A2000", "device.1.concurrent_managed_access", "0" },
	{ "Maxwell on WSL", true, 1, { DEV("NVIDIA GeForce GTX 970", 5, 2, 4096) },
	  ST_WARN, "cuda.devices.old_arch", "NVIDIA GeForce GTX 970: compute capability 5.2 is "
	  "older than CUDA on WSL 2 (Pascal, 6.0) supports", "cc", "5.2" },
	{ "Kepler on native Linux", false, 1, { DEV("Tesla K80", 3, 7, 11441) },
	  ST_WARN, "cuda.devices.old_arch", "older than the probe kernel (5.0) supports", "device",
	  "Tesla K80" },
	{ "a GPU with no memory", true, 1, { DEV("Odd GPU", 8, 6, 0) },
	  ST_WARN, "cuda.devices.no_memory", "Odd GPU reports 0 bytes of memory", "device.0.memory_mib",
	  "0" },
	{ "the second GPU cannot be opened", true, 2,
	  { DEV("NVIDIA GeForce RTX 3080", 8, 6, 10240),
	    { CUDA_ERROR_INVALID_DEVICE, NULL, -1, -1, false, 0, -1, -1, -1, -1, { 0 }, -1, -1 } },
	  ST_FAIL, "cuda.devices.query_failed", "cuDeviceGet returned CUDA_ERROR_INVALID_DEVICE",
	  "device", "1" },
	{ "an old driver: no name, no UUID, no attributes", true, 1,
	  { { CUDA_SUCCESS, NULL, -1, -1, false, 0, -1, -1, -1, -1, { 0 }, -1, -1 } },
	  ST_PASS, NULL, "(name unavailable) (compute capability unknown, unknown MiB", "device.0.uuid",
	  "not supported by this driver" },
};

static void test_devices(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof dev_rows / sizeof dev_rows[0]; i++) {
		const struct dev_row *w = &dev_rows[i];
		struct cuda_devices_facts f = { w->wsl2, w->count, w->dev, NULL };
		struct result r;
		result_init(&r, NULL);
		judge_cuda_devices(&f, &r);
		ju_expect(w->name, &r, w->st, w->kb, w->detail, w->ev_key, w->ev_val);
		result_release(&r);
	}
	/* More than are reported: named by number. */
	struct cuda_dev many[CUDA_MAX_REPORTED_DEVICES];
	for (size_t i = 0; i < CUDA_MAX_REPORTED_DEVICES; i++)
		many[i] = (struct cuda_dev)DEV("GPU", 9, 0, 81920);
	struct cuda_devices_facts f = { false, CUDA_MAX_REPORTED_DEVICES + 6, many, NULL };
	struct result r;
	result_init(&r, NULL);
	judge_cuda_devices(&f, &r);
	ju_expect("70 GPUs", &r, ST_PASS, NULL, "; and 6 more", "device.63.name", "GPU");
	result_release(&r);
}

/* CUDA_VISIBLE_DEVICES="" turns "no device" into "hidden". */
static void test_fail_call(void **state)
{
	(void)state;
	struct result r;
	result_init(&r, NULL);
	cuda_fail_call(&r, CUDA_STEP_INIT, "cuInit", CUDA_ERROR_NO_DEVICE, NULL, true, "");
	ju_expect("hidden", &r, ST_FAIL, "cuda.init.hidden", "cuInit returned CUDA_ERROR_NO_DEVICE",
		  "cuda_visible_devices", "''");
	result_release(&r);
	result_init(&r, NULL);
	cuda_fail_call(&r, CUDA_STEP_INIT, "cuInit", CUDA_ERROR_NO_DEVICE, NULL, false, NULL);
	ju_expect("no device, native", &r, ST_FAIL, "cuda.init.no_device_native", NULL, "call",
		  "cuInit");
	result_release(&r);
	/* The unknown error (999): WSL's reading (restart the VM) on WSL 2,
	 * nvidia_uvm's elsewhere; wsl.exe is no step on native Linux. */
	result_init(&r, NULL);
	cuda_fail_call(&r, CUDA_STEP_INIT, "cuInit", CUDA_ERROR_UNKNOWN, NULL, true, NULL);
	ju_expect("unknown, WSL", &r, ST_FAIL, "cuda.init.unknown", NULL, "call", "cuInit");
	result_release(&r);
	result_init(&r, NULL);
	cuda_fail_call(&r, CUDA_STEP_INIT, "cuInit", CUDA_ERROR_UNKNOWN, NULL, false, NULL);
	ju_expect("unknown, native", &r, ST_FAIL, "cuda.init.unknown_native",
		  "cuInit returned CUDA_ERROR_UNKNOWN", "call", "cuInit");
	result_release(&r);
}

/* What wslgpu_check's counters say once copied back. */
static void test_kernel_check(void **state)
{
	(void)state;
	static const struct {
		unsigned words[KERNEL_CHECK_WORDS];
		enum kernel_check want;
	} t[] = {
		{ { 0, ~0u }, KERNEL_OK },
		{ { 256, 4095 }, KERNEL_WRONG },
		{ { 1048576, 0 }, KERNEL_WRONG },              /* nothing written */
		{ { ~0u, 0 }, KERNEL_NO_ROUND_TRIP },          /* DtoH moved nothing */
		{ { 0xa5a5a5a5u, 0xa5a5a5a5u }, KERNEL_NO_ROUND_TRIP }, /* HtoD moved nothing */
		{ { 0, 0 }, KERNEL_NO_ROUND_TRIP },
		{ { 3, 1048576 }, KERNEL_NO_ROUND_TRIP },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (cuda_kernel_check(t[i].words, 1048576) != t[i].want)
			fail_msg("row %zu: %d", i, (int)cuda_kernel_check(t[i].words, 1048576));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_load_unowned),
		cmocka_unit_test(test_load_stub_through_links),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_fail_call),
		cmocka_unit_test(test_kernel_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
