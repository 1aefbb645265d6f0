/* test_judge_nvml.c: nvml.devices' judge, fed from a table of machines
 * (src/probes/nvml_judge.h): what each NVML query answered, and what
 * cuda.init, nvml.smi, libs.libcuda and the driver store found; no library
 * is loaded. Each row is one verdict branch. */
#include "judgeutil.h"

#include "gpu/nvmlapi.h"
#include "probes/nvml_judge.h"

#define MiB (1ull << 20)
#define NS NVML_ERROR_NOT_SUPPORTED

/* A GPU that answers everything; util and procs as given. */
#define GPU(name, util_rc, procs_rc)                                                \
	{ NVML_SUCCESS, NVML_SUCCESS, name, NVML_SUCCESS, 10240 * MiB, 1024 * MiB,  \
	  NVML_SUCCESS, "00000000:01:00.0", NVML_SUCCESS, NVML_DRIVER_WDDM, util_rc, 3, \
	  procs_rc, 0 }
#define RTX GPU("NVIDIA GeForce RTX 3080", NS, NS)

/* What another check found; id NULL: not run. */
struct dep_row {
	const char *id;
	enum status st;
	const char *key, *val; /* one evidence pair */
};

struct row {
	const char *name;
	bool wsl;
	int init_rc, count_rc;
	unsigned count;
	const char *driver;
	struct nvml_gpu gpu[2];
	struct dep_row cuda, libcuda;
	const char *store, *cvd;
	/* expected */
	enum status st;
	const char *kb, *detail, *ev_key, *ev_val;
};

static const struct row rows[] = {
	{ "NVML does not initialise", true, NVML_ERROR_DRIVER_NOT_LOADED, 0, 0, "551.23", { { 0 } },
	  { NULL }, { NULL }, NULL, NULL,
	  ST_FAIL, "nvml.devices.query_failed", "NVML did not initialise this time: "
	  "NVML_ERROR_DRIVER_NOT_LOADED (9)", "failed_call", "nvmlInit_v2" },
	{ "NVML cannot count", true, 0, NVML_ERROR_GPU_IS_LOST, 0, "551.23", { { 0 } }, { NULL },
	  { NULL }, NULL, NULL,
	  ST_FAIL, "nvml.devices.query_failed", "NVML could not count the GPUs", "code_name",
	  "NVML_ERROR_GPU_IS_LOST" },
	{ "NVML sees no GPU", true, 0, 0, 0, "551.23", { { 0 } }, { NULL }, { NULL }, NULL, NULL,
	  ST_FAIL, "nvml.devices.none", "NVML works but sees no GPU", "device_count", "0" },
	{ "WSL: part of the queries, as expected", true, 0, 0, 1, "551.23", { RTX },
	  { "cuda.init", ST_PASS, "device_count", "1" }, { NULL }, "551.23", NULL,
	  ST_PASS, "nvml.devices.wsl_partial",
	  "1 GPU: NVIDIA GeForce RTX 3080 (10240 MiB); driver 551.23, CUDA 12.4", "unsupported",
	  "processes" },
	{ "native: every query answers", false, 0, 0, 1, "550.54.14",
	  { GPU("NVIDIA RTX A2000", NVML_SUCCESS, NVML_SUCCESS) }, { NULL }, { NULL }, NULL, NULL,
	  ST_PASS, NULL, "1 GPU: NVIDIA RTX A2000 (10240 MiB); driver 550.54.14, CUDA 12.4",
	  "device.0.utilization_gpu", "3" },
	{ "a query fails for real", true, 0, 0, 1, "551.23",
	  { { 0, 0, "NVIDIA GeForce RTX 3080", NVML_ERROR_GPU_IS_LOST, 0, 0, 0, "00000000:01:00.0",
	      0, 0, NS, 0, NS, 0 } }, { NULL }, { NULL }, NULL, NULL,
	  ST_WARN, "nvml.devices.query_error", "NVML sees 1 GPU, but some queries failed",
	  "query_error", "GPU 0: nvmlDeviceGetMemoryInfo: NVML_ERROR_GPU_IS_LOST (15)" },
	{ "a GPU without a handle", true, 0, 0, 2, "551.23",
	  { RTX, { NVML_ERROR_GPU_IS_LOST, 0, NULL, 0, 0, 0, 0, NULL, 0, 0, 0, 0, 0, 0 } },
	  { NULL }, { NULL }, NULL, NULL,
	  ST_WARN, "nvml.devices.query_error", "NVML sees 2 GPUs", "query_error",
	  "GPU 1: nvmlDeviceGetHandleByIndex_v2: NVML_ERROR_GPU_IS_LOST (15)" },
	{ "CUDA_VISIBLE_DEVICES hides the GPU from CUDA", true, 0, 0, 1, "551.23", { RTX },
	  { "cuda.init", ST_FAIL, "result", "CUDA_ERROR_NO_DEVICE (100)" }, { NULL }, NULL, "",
	  ST_WARN, "nvml.devices.count_mismatch", "CUDA none, because CUDA_VISIBLE_DEVICES=\"\"",
	  "cuda_device_count", "0 (cuda.init failed)" },
	{ "cuda.init failed: CUDA loads another library", true, 0, 0, 1, "551.23", { RTX },
	  { "cuda.init", ST_FAIL, "result", "CUDA_ERROR_NO_DEVICE (100)" },
	  { "libs.libcuda", ST_FAIL, "resolved", "/usr/lib/x86_64-linux-gnu/libcuda.so.1" }, NULL,
	  NULL,
	  ST_WARN, "nvml.devices.cuda_conflict", "but cuda.init failed: CUDA loads a different "
	  "driver library (see libs.libcuda)", "cuda_result", "CUDA_ERROR_NO_DEVICE (100)" },
	{ "cuda.init failed although the right libcuda loads", true, 0, 0, 1, "551.23", { RTX },
	  { "cuda.init", ST_FAIL, "result", "CUDA_ERROR_UNKNOWN (999)" },
	  { "libs.libcuda", ST_PASS, "resolved", "/usr/lib/wsl/lib/libcuda.so.1" }, NULL, NULL,
	  ST_WARN, "nvml.devices.cuda_conflict", ", although the expected libcuda.so.1 loads",
	  "libcuda_ok", NULL },
	{ "NVML and CUDA count differently", true, 0, 0, 1, "551.23", { RTX },
	  { "cuda.init", ST_PASS, "device_count", "2" }, { NULL }, NULL, NULL,
	  ST_WARN, "nvml.devices.count_mismatch", "NVML sees 1 GPU, CUDA 2", "cuda_visible_devices",
	  "not set" },
	{ "the driver store says another version", true, 0, 0, 1, "551.23", { RTX }, { NULL },
	  { NULL }, "552.44", NULL,
	  ST_WARN, "nvml.devices.driver_store_mismatch", "NVML reports driver 551.23, the driver "
	  "store's files say 552.44", "driver_store_version", "552.44" },
	{ "WSL with a Linux-style driver version", true, 0, 0, 1, "550.54.14", { RTX }, { NULL },
	  { NULL }, NULL, NULL,
	  ST_PASS, "nvml.devices.wsl_partial", "driver 550.54.14", "note",
	  "on WSL the driver version is the Windows one, with two parts; 550.54.14 has three, "
	  "like a Linux driver's" },
};

static void dep_of(const struct dep_row *d, struct result *r, const struct result **out)
{
	result_init(r, NULL);
	*out = NULL;
	if (!d->id)
		return;
	res_set(r, d->st, NULL, "%s: %s", d->id, status_name(d->st));
	res_ev(r, d->key, "%s", d->val);
	r->ran = true;
	*out = r;
}

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *w = &rows[i];
		struct result cuda, libcuda, r;
		struct nvml_facts f = {
			.wsl = w->wsl,
			.init_rc = w->init_rc,
			.driver = w->driver,
			.cuda = 12040,
			.count_rc = w->count_rc,
			.count = w->count,
			.gpu = w->gpu,
			.driver_store = w->store,
			.cuda_visible_devices = w->cvd,
		};
		dep_of(&w->cuda, &cuda, &f.cuda_init);
		dep_of(&w->libcuda, &libcuda, &f.libcuda);
		result_init(&r, NULL);
		judge_nvml_devices(&f, &r);
		ju_expect(w->name, &r, w->st, w->kb, w->detail, w->ev_key, w->ev_val);
		result_release(&r);
		result_release(&cuda);
		result_release(&libcuda);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
