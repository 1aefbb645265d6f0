/* test_nvml.c: the nvidia-smi output parser on real outputs from the field
 * cases, NVML return-code names, CUDA version encodings, the toolkit ->
 * driver table and its comparisons, and driver version forms (two parts on
 * WSL, three natively, four in a Windows .inf). */
#include "testutil.h"

#include "gpu/nvmlapi.h"
#include "kb/driver_table.h"
#include "parse/cudaver.h"
#include "parse/nvsmi.h"
#include "parse/version.h"

static void parse_str(const char *s, struct nvsmi_info *in)
{
	nvsmi_parse(s, strlen(s), in);
}

/* The healthy WSL header: NVIDIA-SMI is a Linux-branch number, Driver
 * Version the Windows driver (research/wsl-facts.md §2.7). */
static void test_nvsmi_header(void **state)
{
	(void)state;
	struct nvsmi_info in;
	parse_str("Wed Dec  2 13:00:00 2026\n"
		  "+-----------------------------------------------------------------------------------------+\n"
		  "| NVIDIA-SMI 550.54.10              Driver Version: 551.23         CUDA Version: 12.4     |\n"
		  "|-----------------------------------------+------------------------+----------------------+\n"
		  "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n"
		  "|   0  NVIDIA GeForce RTX 3080        On  |   00000000:01:00.0  On |                  N/A |\n"
		  "| N/A   53C    P8    17W /  N/A |    603MiB /  6144MiB |      8%      Default |\n"
		  "|    0   N/A  N/A     23116      C   /python3.10                           N/A      |\n",
		  &in);
	assert_true(in.have_header);
	assert_string_equal(in.smi_version, "550.54.10");
	assert_string_equal(in.driver_version, "551.23");
	assert_string_equal(in.cuda_version, "12.4");
	assert_false(in.cuda_err);
	assert_int_equal(in.failure, NVSMI_FAIL_NONE);
	assert_int_equal(in.ngpus, 1);
	assert_int_equal(in.gpu[0].index, 0);
	assert_string_equal(in.gpu[0].name, "NVIDIA GeForce RTX 3080");
	assert_string_equal(in.gpu[0].model, "");

	/* Older layout (XuehaiPan/nvitop#49), CRLF. */
	parse_str("| NVIDIA-SMI 525.60.02    Driver Version: 526.98       CUDA Version: 12.0     |\r\n", &in);
	assert_string_equal(in.smi_version, "525.60.02");
	assert_string_equal(in.driver_version, "526.98");
	assert_string_equal(in.cuda_version, "12.0");
}

/* Case N03, microsoft/WSL#11589, verbatim. */
static void test_nvsmi_cuda_err(void **state)
{
	(void)state;
	struct nvsmi_info in;
	parse_str("| NVIDIA-SMI 545.46                 Driver Version: 546.80       CUDA Version: ERR!     |\n",
		  &in);
	assert_true(in.have_header);
	assert_string_equal(in.smi_version, "545.46");
	assert_string_equal(in.driver_version, "546.80");
	assert_string_equal(in.cuda_version, "ERR!");
	assert_true(in.cuda_err);
	assert_int_equal(in.failure, NVSMI_FAIL_NONE);
}

/* The failure messages, as users posted them. */
static void test_nvsmi_failures(void **state)
{
	(void)state;
	struct nvsmi_info in;
	/* N01, microsoft/WSL#9134 */
	parse_str("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
		  "that the latest NVIDIA driver is installed and running.\n\n"
		  "Failed to properly shut down NVML: Driver Not Loaded\n",
		  &in);
	assert_int_equal(in.failure, NVSMI_FAIL_NO_DRIVER);
	assert_false(in.have_header);
	assert_string_equal(nvsmi_failure_name(in.failure), "no_driver");
	assert_non_null(strstr(in.reason, "couldn't communicate"));

	/* N05 / R07, microsoft/WSL#9166: the specific message wins over the
	 * generic "Failed to initialize NVML" line. */
	parse_str("Failed to initialize NVML: GPU access blocked by the operating system\n"
		  "Failed to properly shut down NVML: GPU access blocked by the operating system\n",
		  &in);
	assert_int_equal(in.failure, NVSMI_FAIL_OS_BLOCKED);
	assert_string_equal(in.reason,
			    "Failed to initialize NVML: GPU access blocked by the operating system");

	/* microsoft/WSL#11888, NVIDIA/nvidia-docker#1163 */
	parse_str("NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that "
		  "the NVIDIA Display Driver is properly installed and present in your system.\n"
		  "Please also try adding directory that contains libnvidia-ml.so to your system PATH.\n",
		  &in);
	assert_int_equal(in.failure, NVSMI_FAIL_NO_LIBNVML);
	assert_false(in.have_header);
	assert_string_equal(in.smi_version, "");

	/* microsoft/WSL#13027 */
	parse_str("Unable to determine the device handle for GPU0: 0000:C1:00.0: Unknown Error\n"
		  "Unable to determine the device handle for GPU1: 0000:E1:00.0: Unknown Error\n"
		  "No devices were found\n",
		  &in);
	assert_int_equal(in.failure, NVSMI_FAIL_NO_DEVICES);
	assert_int_equal(in.handle_errors, 2);

	parse_str("Failed to initialize NVML: Driver/library version mismatch\n", &in);
	assert_int_equal(in.failure, NVSMI_FAIL_NVML_INIT);
	assert_string_equal(in.reason, "Failed to initialize NVML: Driver/library version mismatch");

	/* H05: header, then the shell's report of the crash. */
	parse_str("| NVIDIA-SMI 555.42.03              Driver Version: 555.85         CUDA Version: 12.5     |\n"
		  "|=========================================+========================+======================|\n"
		  "[1]    494 segmentation fault  nvidia-smi\n",
		  &in);
	assert_true(in.have_header);
	assert_string_equal(in.driver_version, "555.85");
	assert_int_equal(in.failure, NVSMI_FAIL_NONE);
}

/* Windows' table has TCC/WDDM where Linux has Persistence-M; -q and -L. */
static void test_nvsmi_windows_and_forms(void **state)
{
	(void)state;
	struct nvsmi_info in;
	parse_str("| NVIDIA-SMI 551.76                 Driver Version: 551.76         CUDA Version: 12.4     |\r\n"
		  "| GPU  Name                     TCC/WDDM  | Bus-Id          Disp.A | Volatile Uncorr. ECC |\r\n"
		  "|   0  NVIDIA GeForce GTX 1650      WDDM  |   00000000:01:00.0 Off |                  N/A |\r\n"
		  "|   1  NVIDIA L40S                  TCC   |   00000000:02:00.0 Off |                    0 |\r\n",
		  &in);
	assert_int_equal(in.ngpus, 2);
	assert_string_equal(in.gpu[0].name, "NVIDIA GeForce GTX 1650");
	assert_string_equal(in.gpu[0].model, "WDDM");
	assert_string_equal(in.gpu[1].name, "NVIDIA L40S");
	assert_string_equal(in.gpu[1].model, "TCC");
	assert_int_equal(in.gpu[1].index, 1);

	/* nvidia-smi -q (NVIDIA/nvidia-container-toolkit#271) */
	parse_str("==============NVSMI LOG==============\n\n"
		  "Driver Version                            : 510.06\n"
		  "CUDA Version                              : 11.6\n",
		  &in);
	assert_true(in.have_header);
	assert_string_equal(in.driver_version, "510.06");
	assert_string_equal(in.cuda_version, "11.6");

	/* nvidia-smi -L */
	parse_str("GPU 0: NVIDIA GeForce RTX 3080 (UUID: GPU-6b4c5e1a-1111-2222-3333-444455556666)\n"
		  "GPU 1: NVIDIA A2000\n",
		  &in);
	assert_int_equal(in.ngpus, 2);
	assert_string_equal(in.gpu[0].name, "NVIDIA GeForce RTX 3080");
	assert_string_equal(in.gpu[1].name, "NVIDIA A2000");

	/* UTF-16LE (as wsl.exe and some Windows tools write) reads the same. */
	const char u16[] = "D\0r\0i\0v\0e\0r\0 \0V\0e\0r\0s\0i\0o\0n\0:\0 \0005\0005\0001\0.\0002\0003\0\n";
	nvsmi_parse(u16, sizeof u16 - 1, &in);
	assert_string_equal(in.driver_version, "551.23");
}

/* Empty, truncated, binary, huge: no crash, no hang, nothing invented. */
static void test_nvsmi_hostile(void **state)
{
	(void)state;
	struct nvsmi_info in;
	nvsmi_parse("", 0, &in);
	assert_false(in.have_header);
	assert_int_equal(in.failure, NVSMI_FAIL_NONE);
	nvsmi_parse(NULL, 0, &in);
	assert_false(in.have_header);
	parse_str("| NVIDIA-SMI ", &in);
	assert_false(in.have_header);
	parse_str("Driver Version:", &in);
	assert_string_equal(in.driver_version, "");
	parse_str("CUDA Version: ", &in);
	assert_string_equal(in.cuda_version, "");
	parse_str("|   0  |", &in);
	assert_int_equal(in.ngpus, 0);
	parse_str("|99999999999999999999  x |  0:0.0 |\n", &in);
	assert_true(in.ngpus <= 1);

	/* A long run of GPU rows is capped. */
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 100; i++)
		sb_addf(&sb, "|   %d  GPU %d  On  |   00000000:%02X:00.0  On |  N/A |\n", i, i, i & 0xff);
	nvsmi_parse(sb.buf, sb.len, &in);
	assert_int_equal(in.ngpus, NVSMI_MAX_GPUS);

	/* One huge line, then a header: the header still counts. */
	sb_reset(&sb);
	for (int i = 0; i < 200000; i++)
		sb_addc(&sb, 'x');
	sb_add(&sb, "\nDriver Version: 551.23\n");
	nvsmi_parse(sb.buf, sb.len, &in);
	assert_string_equal(in.driver_version, "551.23");

	/* Pseudo-random bytes. */
	unsigned int seed = 12345;
	char buf[4096];
	for (int round = 0; round < 500; round++) {
		size_t n = (size_t)(round * 7) % sizeof buf;
		for (size_t k = 0; k < n; k++) {
			seed = seed * 1103515245u + 12345u;
			buf[k] = (char)(seed >> 16);
			if ((seed >> 8) % 13 == 0)
				buf[k] = "|:. \nDriverCUDA Version0123"[(seed >> 4) % 26];
		}
		nvsmi_parse(buf, n, &in);
		assert_true(strlen(in.driver_version) < sizeof in.driver_version);
		assert_true(in.ngpus <= NVSMI_MAX_GPUS);
		char out[32];
		cudaver_toolkit_parse(buf, n, out, sizeof out);
		assert_true(strlen(out) < sizeof out);
	}
	sb_release(&sb);
}

static void test_nvml_return_names(void **state)
{
	(void)state;
	assert_string_equal(nvml_return_name(0), "NVML_SUCCESS");
	assert_string_equal(nvml_return_name(3), "NVML_ERROR_NOT_SUPPORTED");
	assert_string_equal(nvml_return_name(9), "NVML_ERROR_DRIVER_NOT_LOADED");
	assert_string_equal(nvml_return_name(12), "NVML_ERROR_LIBRARY_NOT_FOUND");
	assert_string_equal(nvml_return_name(17), "NVML_ERROR_OPERATING_SYSTEM");
	assert_string_equal(nvml_return_name(18), "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
	assert_string_equal(nvml_return_name(28), "NVML_ERROR_GPU_NOT_FOUND");
	assert_string_equal(nvml_return_name(999), "NVML_ERROR_UNKNOWN");
	assert_string_equal(nvml_return_name(NVMLAPI_NO_SYMBOL), "NVMLAPI_NO_SYMBOL");
	assert_string_equal(nvml_return_name(12345), "unrecognised");
	assert_string_equal(nvml_return_name(-77), "unrecognised");
	/* Our texts stand in when the library has none (or is not loaded). */
	assert_string_equal(nvmlapi_error_string(NULL, 17),
			    "GPU access blocked by the operating system");
	assert_string_equal(nvmlapi_error_string(NULL, 4242), "unrecognised NVML return code");
	/* Per-query answers that mean "not here", not "broken". */
	assert_true(nvml_rc_unavailable(NVMLAPI_NO_SYMBOL));
	assert_true(nvml_rc_unavailable(3));
	assert_true(nvml_rc_unavailable(13));
	assert_true(nvml_rc_unavailable(999));
	assert_false(nvml_rc_unavailable(0));
	assert_false(nvml_rc_unavailable(15));
	assert_false(nvml_rc_unavailable(17));
	assert_string_equal(nvml_driver_model_name(0), "WDDM");
	assert_string_equal(nvml_driver_model_name(1), "TCC");
	assert_string_equal(nvml_driver_model_name(2), "MCDM");
	assert_string_equal(nvml_driver_model_name(-1), "unknown");
}

/* A library that is not there: an error with text, and a safe close. */
static void test_nvmlapi_missing(void **state)
{
	(void)state;
	struct nvmlapi n;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(nvmlapi_open(&n, "/nonexistent/libnvidia-ml.so.1", &err), -ENOENT);
	assert_true(err.len > 0);
	assert_int_equal(nvmlapi_init(&n), NVMLAPI_NO_SYMBOL);
	unsigned int count = 7;
	assert_int_equal(nvmlapi_device_count(&n, &count), NVMLAPI_NO_SYMBOL);
	assert_int_equal(count, 0);
	nvmlapi_close(&n);
	nvmlapi_close(&n);
	sb_release(&err);

	/* A real shared object that is not NVML: loads, exports nothing. */
	assert_int_equal(nvmlapi_open(&n, "libm.so.6", NULL), 0);
	assert_null(n.fn_init);
	assert_null(n.sym_init);
	assert_true(n.loaded.len > 0);
	struct strbuf v = STRBUF_INIT;
	assert_int_equal(nvmlapi_driver_version(&n, &v), NVMLAPI_NO_SYMBOL);
	nvmlapi_close(&n);
	sb_release(&v);
}

static void test_cudaver(void **state)
{
	(void)state;
	char b[16];
	cudaver_format(12040, b, sizeof b);
	assert_string_equal(b, "12.4");
	cudaver_format(11080, b, sizeof b);
	assert_string_equal(b, "11.8");
	cudaver_format(13000, b, sizeof b);
	assert_string_equal(b, "13.0");
	cudaver_format(9020, b, sizeof b);
	assert_string_equal(b, "9.2");
	cudaver_format(0, b, sizeof b);
	assert_string_equal(b, "");
	assert_int_equal(cudaver_from_string("12.4"), 12040);
	assert_int_equal(cudaver_from_string("12.4.1"), 12040);
	assert_int_equal(cudaver_from_string("11.0.228"), 11000);
	assert_int_equal(cudaver_from_string("ERR!"), -1);
	assert_int_equal(cudaver_from_string("12"), -1);
	assert_int_equal(cudaver_from_string(""), -1);
	assert_int_equal(cudaver_from_string("99999999.1"), -1);

	char v[32];
	const char *json = "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n      \"version\" : \"12.4.1\"\n"
			   "   },\n   \"cuda_cccl\" : {\n      \"name\" : \"CUDA C++ Core Compute Libraries\",\n"
			   "      \"version\" : \"12.4.127\"\n   }\n}\n";
	assert_int_equal(cudaver_toolkit_parse(json, strlen(json), v, sizeof v), 0);
	assert_string_equal(v, "12.4.1");
	/* The first "version" is a component's, not the toolkit's. */
	const char *later = "{ \"cuda_nvcc\": { \"version\": \"12.6.77\" }, \"cuda\": { \"name\": \"x\", "
			    "\"sub\": { \"version\": \"1.0\" }, \"version\": \"12.6.3\" } }";
	assert_int_equal(cudaver_toolkit_parse(later, strlen(later), v, sizeof v), 0);
	assert_string_equal(v, "12.6.3");
	const char *txt = "CUDA Version 11.0.228\n";
	assert_int_equal(cudaver_toolkit_parse(txt, strlen(txt), v, sizeof v), 0);
	assert_string_equal(v, "11.0.228");
	assert_int_equal(cudaver_toolkit_parse("{\"cuda\": {}}", 12, v, sizeof v), -1);
	assert_int_equal(cudaver_toolkit_parse("{\"cuda\": {\"version\": \"", 22, v, sizeof v), -1);
	assert_int_equal(cudaver_toolkit_parse("", 0, v, sizeof v), -1);
	assert_string_equal(v, "");
}

/* The table is data: newest first, every row parses, and the comparisons
 * give the answers of NVIDIA's release notes. */
static void test_driver_table(void **state)
{
	(void)state;
	size_t n;
	const struct cuda_driver_row *t = cuda_driver_table(&n);
	assert_true(n > 40);
	for (size_t i = 0; i < n; i++) {
		struct version a, l;
		assert_int_equal(version_parse(t[i].toolkit, &a), 0);
		assert_int_equal(a.n, 3);
		/* Rows after the 13.2 Update 2 edition carry no toolkit driver. */
		if (!t[i].linux_min) {
			assert_true(a.part[0] >= 13);
			continue;
		}
		assert_int_equal(version_parse(t[i].linux_min, &l), 0);
		if (a.part[0] >= 13)
			assert_null(t[i].windows_min);
		else
			assert_non_null(t[i].windows_min);
		if (i) {
			struct version b, lp;
			version_parse(t[i - 1].toolkit, &b);
			assert_true(version_cmp(&b, &a) > 0);
			if (t[i - 1].linux_min) {
				version_parse(t[i - 1].linux_min, &lp);
				assert_true(version_cmp(&lp, &l) >= 0);
			}
		}
	}
	const struct cuda_driver_row *r = cuda_driver_row_for("12.4.1");
	assert_non_null(r);
	assert_string_equal(r->windows_min, "551.78");
	assert_string_equal(r->linux_min, "550.54.15");
	r = cuda_driver_row_for("12.4");
	assert_string_equal(r->release, "12.4 GA");
	assert_string_equal(r->windows_min, "551.61");
	r = cuda_driver_row_for("12.6.77"); /* a component version: the GA row */
	assert_string_equal(r->release, "12.6 GA");
	r = cuda_driver_row_for("13.0.1");
	assert_string_equal(r->linux_min, "580.82.07");
	assert_null(r->windows_min);
	assert_null(cuda_driver_row_for("12.7"));
	/* The newest release known is an explicit, tested fact. */
	assert_string_equal(cuda_newest_known()->toolkit, "13.5.0");
	assert_true(cuda_newer_than_known(13, 6));
	assert_true(cuda_newer_than_known(14, 0));
	assert_false(cuda_newer_than_known(13, 5));
	r = cuda_driver_row_for("13.4");
	assert_non_null(r);
	assert_string_equal(r->toolkit, "13.4.1"); /* 13.4's GA is 13.4.1 */
	char rel[16];
	assert_int_equal(cuda_released_upto(12, 7, rel, sizeof rel), 0);
	assert_string_equal(rel, "12.6"); /* R565 reports 12.7: no such toolkit */
	assert_int_equal(cuda_released_upto(13, 9, rel, sizeof rel), 0);
	assert_string_equal(rel, "13.5");
	assert_int_equal(cuda_released_upto(10, 2, rel, sizeof rel), -1);
	assert_null(cuda_driver_row_for("10.2"));
	assert_null(cuda_driver_row_for("twelve"));

	assert_string_equal(cuda_family_min_driver(12, false), "525.60.13");
	assert_string_equal(cuda_family_min_driver(11, false), "450.80.02");
	assert_string_equal(cuda_family_min_driver(11, true), "452.39");
	assert_string_equal(cuda_family_min_driver(13, false), "580");
	assert_null(cuda_family_min_driver(12, true));
	assert_null(cuda_family_min_driver(10, false));

	char c[16];
	assert_int_equal(cuda_driver_newest_release("551.23", true, c, sizeof c), 0);
	assert_string_equal(c, "12.3"); /* 12.4 GA ships 551.61 */
	assert_int_equal(cuda_driver_newest_release("551.61", true, c, sizeof c), 0);
	assert_string_equal(c, "12.4");
	assert_int_equal(cuda_driver_newest_release("576.57", true, c, sizeof c), 0);
	assert_string_equal(c, "12.9");
	assert_int_equal(cuda_driver_newest_release("470.82.01", false, c, sizeof c), 0);
	assert_string_equal(c, "11.4");
	assert_int_equal(cuda_driver_newest_release("580.65.06", false, c, sizeof c), 0);
	assert_string_equal(c, "13.0");
	assert_int_equal(cuda_driver_newest_release("400.1", false, c, sizeof c), -1);
	assert_int_equal(cuda_driver_newest_release("junk", false, c, sizeof c), -1);

	/* The branch's own CUDA: what cuDriverGetVersion answers (the real
	 * 470.256.02: 11040, 535.261.03: 12020; Windows 551.23: CUDA 12.4). */
	assert_int_equal(cuda_driver_branch_release("470.256.02", false, c, sizeof c), 0);
	assert_string_equal(c, "11.4");
	assert_int_equal(cuda_driver_branch_release("535.261.03", false, c, sizeof c), 0);
	assert_string_equal(c, "12.2");
	assert_int_equal(cuda_driver_branch_release("551.23", true, c, sizeof c), 0);
	assert_string_equal(c, "12.4");
	/* R565 reports CUDA 12.7, a release with no toolkit: unknown here. */
	assert_int_equal(cuda_driver_branch_release("565.57.01", false, c, sizeof c), -1);
	assert_int_equal(cuda_driver_branch_release("junk", false, c, sizeof c), -1);
}

/* Driver versions: two parts on WSL (the Windows driver), three natively,
 * four as a Windows file version. */
static void test_driver_versions(void **state)
{
	(void)state;
	struct version a, b, m;
	assert_int_equal(version_parse("551.23", &a), 0);
	assert_int_equal(a.n, 2);
	assert_int_equal(version_parse("550.54.14", &b), 0);
	assert_int_equal(b.n, 3);
	assert_true(version_cmp(&a, &b) > 0);
	version_parse(WSL_MIN_WINDOWS_DRIVER, &m);
	version_parse("472.12", &a);
	assert_true(version_cmp(&a, &m) < 0); /* too old for CUDA on WSL */
	version_parse("495.0", &a);
	assert_true(version_cmp(&a, &m) == 0);
	version_parse("496.13", &a);
	assert_true(version_cmp(&a, &m) > 0);

	char out[32];
	assert_int_equal(driver_version_normalize("31.0.15.5123", out, sizeof out), 0);
	assert_string_equal(out, "551.23");
	assert_int_equal(driver_version_normalize("27.21.14.5541", out, sizeof out), 0);
	assert_string_equal(out, "455.41"); /* microsoft/WSL#6423 */
	assert_int_equal(driver_version_normalize("32.0.15.6094", out, sizeof out), 0);
	assert_string_equal(out, "560.94");
	assert_int_equal(driver_version_normalize("31.0.15.5001", out, sizeof out), 0);
	assert_string_equal(out, "550.01");
	assert_int_equal(driver_version_normalize("551.23", out, sizeof out), 0);
	assert_string_equal(out, "551.23");
	assert_int_equal(driver_version_normalize("470.82.01", out, sizeof out), 0);
	assert_string_equal(out, "470.82.01");
	assert_int_equal(driver_version_normalize("  v555.85 (WDDM)", out, sizeof out), 0);
	assert_string_equal(out, "555.85");
	assert_int_equal(driver_version_normalize("", out, sizeof out), -1);
	assert_int_equal(driver_version_normalize("N/A", out, sizeof out), -1);
	char tiny[4];
	assert_int_equal(driver_version_normalize("550.54.14", tiny, sizeof tiny), 0);
	assert_string_equal(tiny, "550");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvsmi_header),
		cmocka_unit_test(test_nvsmi_cuda_err),
		cmocka_unit_test(test_nvsmi_failures),
		cmocka_unit_test(test_nvsmi_windows_and_forms),
		cmocka_unit_test(test_nvsmi_hostile),
		cmocka_unit_test(test_nvml_return_names),
		cmocka_unit_test(test_nvmlapi_missing),
		cmocka_unit_test(test_cudaver),
		cmocka_unit_test(test_driver_table),
		cmocka_unit_test(test_driver_versions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
