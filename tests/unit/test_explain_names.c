/* test_explain_names: what an unrecognised line names of the NVIDIA stack
 * (explain/names.h): role, version, layer and the checks that tell its
 * causes apart; and the application a paste names. */
#include "testutil.h"
#include "explain/codes.h"
#include "explain/matcher.h"
#include "explain/names.h"

static const struct name_hit *find(const struct names *nm, const char *text)
{
	for (size_t i = 0; i < nm->n; i++)
		if (!strcmp(nm->hit[i].text, text))
			return &nm->hit[i];
	return NULL;
}

static struct names read_line(const char *s)
{
	struct names nm;
	names_read(s, strlen(s), &nm);
	return nm;
}

static void test_names_libraries(void **state)
{
	(void)state;
	struct names nm = read_line("OSError: libcudart.so.12: cannot open shared object file");
	assert_int_equal(nm.n, 1);
	assert_string_equal(nm.hit[0].what, "CUDA runtime 12");
	assert_string_equal(nm.hit[0].role, "runtime");
	assert_string_equal(nm.hit[0].version, "12");
	assert_string_equal(nm.layer, "toolkit");
	assert_string_equal(nm.check, "cuda,toolkit");

	nm = read_line("Could not locate cublas64_12.dll. Please make sure it is in your library path!");
	assert_int_equal(nm.n, 1);
	assert_string_equal(nm.hit[0].what, "cuBLAS for CUDA 12");
	assert_string_equal(nm.hit[0].role, "math library");

	nm = read_line("Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found");
	assert_int_equal(nm.n, 1);
	assert_string_equal(nm.hit[0].what, "CUDA runtime 11.0");

	nm = read_line("Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9}");
	assert_non_null(find(&nm, "libcudnn_ops.so.9"));
	assert_string_equal(find(&nm, "libcudnn_ops.so.9")->what, "cuDNN 9");
	assert_string_equal(find(&nm, "libcudnn_ops.so.9.1.0")->what, "cuDNN 9");

	/* PyTorch's DynamicLibrary glues the next word onto the name */
	nm = read_line("Error in dlopen for library libnvrtc.so.12and libnvrtc-XXXXXXXX.so.12");
	assert_non_null(find(&nm, "libnvrtc.so.12"));
	assert_null(find(&nm, "libnvrtc.so.12and"));
	assert_string_equal(find(&nm, "libnvrtc.so.12")->what, "NVRTC for CUDA 12");

	/* the driver's .so.1 is an ABI number, not a version */
	nm = read_line("RuntimeError: libcuda.so.1: cannot open shared object file.");
	assert_int_equal(nm.n, 1);
	assert_string_equal(nm.hit[0].what, "CUDA driver");
	assert_string_equal(nm.hit[0].version, "");
	assert_string_equal(nm.layer, "libs");

	nm = read_line("[TRT] libnvinfer.so.10 failed; libnccl.so.2 also; nvml.dll missing");
	assert_string_equal(find(&nm, "libnvinfer.so.10")->what, "TensorRT 10");
	assert_string_equal(find(&nm, "libnvinfer.so.10")->role, "TensorRT");
	assert_string_equal(find(&nm, "libnccl.so.2")->what, "NCCL 2");
	assert_string_equal(find(&nm, "nvml.dll")->layer, "nvml");
	/* the lowest layer in chain order decides the line's */
	assert_string_equal(nm.layer, "nvml");
}

/* The driver's video libraries and more CUDA libraries' status codes,
 * placed by layer (NVENC/NVDEC and OptiX ship with the driver). */
static void test_names_video_and_more_codes(void **state)
{
	(void)state;
	struct names nm = read_line("[h264_nvenc @ 0x55] Cannot load libnvidia-encode.so.1 (nvcuvid.dll too)");
	assert_string_equal(find(&nm, "libnvidia-encode.so.1")->what, "the driver's video encoder (NVENC)");
	assert_string_equal(find(&nm, "nvcuvid.dll")->what, "the driver's video decoder (NVDEC)");
	assert_string_equal(nm.layer, "libs");
	nm = read_line("Cannot load nvEncodeAPI64.dll");
	assert_string_equal(find(&nm, "nvEncodeAPI64.dll")->role, "driver");

	nm = read_line("error NV_ENC_ERR_UNSUPPORTED_DEVICE from the encoder");
	assert_int_equal(nm.hit[0].kind, NK_CODE);
	assert_string_equal(nm.layer, "libs");
	nm = read_line("OPTIX_ERROR_INVALID_VALUE while building the scene");
	assert_string_equal(nm.hit[0].what, "OptiX");
	assert_string_equal(nm.layer, "cuda");
	nm = read_line("got CUSOLVER_STATUS_INTERNAL_ERROR then NVRTC_ERROR_COMPILATION");
	assert_string_equal(find(&nm, "CUSOLVER_STATUS_INTERNAL_ERROR")->what, "cuSOLVER");
	assert_string_equal(find(&nm, "NVRTC_ERROR_COMPILATION")->role, "runtime compiler");
	assert_string_equal(nm.layer, "toolkit");
	nm = read_line("NVJPEG_STATUS_EXECUTION_FAILED and CUTENSOR_STATUS_NOT_SUPPORTED");
	assert_string_equal(find(&nm, "NVJPEG_STATUS_EXECUTION_FAILED")->what, "nvJPEG");
	assert_string_equal(find(&nm, "CUTENSOR_STATUS_NOT_SUPPORTED")->what, "cuTENSOR");
}

static void test_names_calls_codes(void **state)
{
	(void)state;
	struct names nm = read_line("cudnnCreate failed: CUDNN_STATUS_SOMETHING_NEW");
	assert_int_equal(nm.n, 2);
	assert_int_equal(nm.hit[0].kind, NK_CALL);
	assert_string_equal(nm.hit[0].role, "cuDNN");
	assert_int_equal(nm.hit[1].kind, NK_CODE);
	assert_string_equal(nm.hit[1].layer, "toolkit");

	nm = read_line("cuModuleLoadData returned CUDA_ERROR_NO_DEVICE");
	assert_int_equal(nm.n, 2);
	assert_string_equal(nm.hit[0].what, "CUDA driver API");
	assert_int_equal(nm.hit[1].code, 100);
	assert_string_equal(nm.layer, "cuda");
	assert_string_equal(nm.check, "libs,cuda");

	nm = read_line("cudaMallocAsync: cudaErrorMemoryAllocation, then nvmlDeviceGetFoo: NVML_ERROR_UNKNOWN");
	assert_string_equal(find(&nm, "cudaMallocAsync")->role, "runtime");
	assert_int_equal(find(&nm, "cudaErrorMemoryAllocation")->code, 2);
	assert_int_equal(find(&nm, "NVML_ERROR_UNKNOWN")->code, 999);
	assert_string_equal(nm.layer, "cuda");

	nm = read_line("NCCL WARN ncclCommInitRank failed: ncclSystemError");
	assert_int_equal(find(&nm, "ncclCommInitRank")->kind, NK_CALL);
	assert_int_equal(find(&nm, "ncclSystemError")->kind, NK_CODE);
	assert_int_equal(find(&nm, "ncclSystemError")->code, 2);

	/* words that only look like it name nothing */
	nm = read_line("cuda out of memory: cut the batch; current count; nccl debug info; cudart");
	assert_int_equal(nm.n, 0);
	nm = read_line("error: libfoo.so.3 missing; lib.so; x.dll; libcudartx");
	assert_int_equal(nm.n, 0);
	assert_null(nm.layer);
	nm = read_line("");
	assert_int_equal(nm.n, 0);
}

static void test_names_bounds(void **state)
{
	(void)state;
	/* more names than kept, a huge token, repeats counted once */
	char line[4096] = "";
	for (int i = 0; i < 20; i++)
		strcat(line, i % 2 ? "cuInit cudaFree " : "libcublas.so.12 ");
	struct names nm = read_line(line);
	assert_int_equal(nm.n, 3);
	memset(line, 'a', sizeof line - 1);
	line[sizeof line - 1] = '\0';
	memcpy(line + 100, "libcudart.so.12", 15);
	nm = read_line(line);
	assert_int_equal(nm.n, 0);
}

static void test_names_application(void **state)
{
	(void)state;
	const char *t = "time=... level=INFO source=server.go msg=\"ollama runner\"\nimport torch\n";
	assert_string_equal(names_application(t, strlen(t)), "Ollama");
	t = "File \"/home/u/ComfyUI/execution.py\", line 3\n  torch.cuda";
	assert_string_equal(names_application(t, strlen(t)), "ComfyUI");
	t = "Traceback: File \"site-packages/torch/cuda/__init__.py\"";
	assert_string_equal(names_application(t, strlen(t)), "PyTorch");
	t = "nothing here at all";
	assert_null(names_application(t, strlen(t)));
}

static const char *first_id(const char *text)
{
	static char id[128];
	struct explain_scan s;
	explain_scan_init(&s, explain_db_builtin());
	explain_scan_feed(&s, text, strlen(text));
	explain_scan_finish(&s);
	snprintf(id, sizeof id, "%s", s.nfound ? s.db->sig[s.found[0]->sig].e->id : "-");
	explain_scan_release(&s);
	return id;
}

/* The most specific reading leads: a specific signature over a family, a
 * family over a generic wrapper, wherever in the paste each is. */
static void test_rank_specific_first(void **state)
{
	(void)state;
	const struct explain_db *db = explain_db_builtin();
	int w = explain_db_find(db, "explain.sig.ollama_runner");
	int f = explain_db_find(db, "explain.sig.wide_oom");
	int sp = explain_db_find(db, "explain.sig.cuda_no_device");
	assert_true(w >= 0 && f >= 0 && sp >= 0);
	assert_int_equal(explain_sig_tier(&db->sig[w]), 2);
	assert_int_equal(explain_sig_tier(&db->sig[f]), 1);
	assert_int_equal(explain_sig_tier(&db->sig[sp]), 0);

	/* Ollama's wrapper first, the CUDA error it wraps later (tuning thread
	 * https://github.com/ollama/ollama/issues/5113, shortened) */
	assert_string_equal(first_id("Error: llama runner process has terminated: signal: aborted\n"
				     "level=INFO msg=\"loading\"\n"
				     "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9000.00 MiB "
				     "on device 0: cudaMalloc failed: out of memory\n"),
			    "explain.sig.wide_oom");
	/* ...and on one line the wrapper gives way */
	assert_string_equal(first_id("Error: llama runner process has terminated: error loading model: "
				     "unable to allocate CUDA0 buffer\n"),
			    "explain.sig.wide_oom");
	/* a family first, a specific signature later: the specific leads */
	assert_string_equal(first_id("ggml_cuda: cudaMalloc failed: out of memory\n"
				     "RuntimeError: No CUDA GPUs are available\n"),
			    first_id("RuntimeError: No CUDA GPUs are available\n"));
	assert_string_not_equal(first_id("RuntimeError: No CUDA GPUs are available\n"), "-");
	assert_string_not_equal(first_id("RuntimeError: No CUDA GPUs are available\n"),
				"explain.sig.wide_oom");
	/* the wrapper alone is still the answer */
	assert_string_equal(first_id("Error: llama runner process has terminated: exit status 2\n"),
			    "explain.sig.ollama_runner");
}

static void count_code(void *ctx, int code)
{
	size_t n;
	const struct err_code *t = codes_table(&n);
	if (t[code].family == CF_CUDNN && t[code].value == 3000)
		++*(int *)ctx;
}

/* The math libraries' and NCCL's status codes, by number and by name
 * (numbers as the CUDA 13.0 and cuDNN 9 headers define them). */
static void test_library_codes(void **state)
{
	(void)state;
	size_t n;
	const struct err_code *t = codes_table(&n);
	struct {
		const char *family, *name;
		uint32_t value;
	} want[] = {
		{ "cublas", "CUBLAS_STATUS_NOT_INITIALIZED", 1 },
		{ "cublas", "CUBLAS_STATUS_EXECUTION_FAILED", 13 },
		{ "cudnn", "CUDNN_STATUS_NOT_INITIALIZED", 1001 },
		{ "cudnn", "CUDNN_STATUS_BAD_PARAM", 2000 },
		{ "cudnn", "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", 3007 },
		{ "cudnn", "CUDNN_STATUS_EXECUTION_FAILED", 5000 },
		{ "cufft", "CUFFT_INVALID_PLAN", 1 },
		{ "cufft", "CUFFT_NOT_SUPPORTED", 16 },
		{ "cusparse", "CUSPARSE_STATUS_ZERO_PIVOT", 9 },
		{ "curand", "CURAND_STATUS_INITIALIZATION_FAILED", 203 },
		{ "curand", "CURAND_STATUS_INTERNAL_ERROR", 999 },
		{ "nccl", "ncclRemoteError", 6 },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int f = codes_family(want[i].family, strlen(want[i].family));
		assert_true(f >= 0);
		int c = codes_lookup(f, want[i].name, strlen(want[i].name));
		assert_true(c >= 0);
		assert_int_equal(t[c].value, want[i].value);
		char num[16];
		snprintf(num, sizeof num, "%u", want[i].value);
		assert_int_equal(codes_lookup(f, num, strlen(num)), codes_by_value(f, want[i].value));
		assert_true(codes_by_value(f, want[i].value) >= 0);
	}
	/* cuDNN 7/8 numbered its statuses 1-13: both numberings are read */
	int dnn = codes_family("cudnn", 5);
	assert_string_equal(t[codes_by_value(dnn, 3)].name[0], "CUDNN_STATUS_BAD_PARAM");
	assert_int_equal(codes_by_value(dnn, 42), -1);
	/* a number counts after an error word on a line that names the library */
	int seen = 0;
	const char *line = "cudnnConvolutionForward failed with status 3000";
	codes_numbers(line, strlen(line), 1u << dnn, count_code, &seen);
	assert_int_equal(seen, 1);
	/* the unknown-line reader gives the number of a name it sees */
	struct names nm = read_line("cufftExecC2C returned CUFFT_INVALID_DEVICE");
	assert_int_equal(nm.n, 2);
	assert_int_equal(nm.hit[1].code, 11);
	assert_string_equal(nm.hit[1].what, "cuFFT, code 11");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_libraries),
		cmocka_unit_test(test_names_calls_codes),
		cmocka_unit_test(test_names_video_and_more_codes),
		cmocka_unit_test(test_names_bounds),
		cmocka_unit_test(test_names_application),
		cmocka_unit_test(test_rank_specific_first),
		cmocka_unit_test(test_library_codes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
