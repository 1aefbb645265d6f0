/* test_judge_toolkit.c: toolkit.nvcc's judge, fed from a table of machines
 * (src/probes/toolkit_judge.h): the toolkits found and their versions,
 * PATH's nvcc, $CUDA_HOME, the driver's CUDA version; nothing is read or
 * run. Each row is one verdict branch. */
#include "judgeutil.h"

#include "probes/toolkit_judge.h"

/* A toolkit; dir NULL: none. */
struct tk_row {
	const char *dir, *real, *version;
	bool nvcc;
};

struct row {
	const char *name;
	struct tk_row tk[2];
	int picked;              /* index of PATH's nvcc's toolkit, -1: none */
	bool on_path;
	const char *cuda_home, *cuda_home_real;
	const char *nvcc_error;
	const char *driver;      /* the driver's CUDA version */
	const char *myth;
	/* expected */
	enum status st;
	const char *kb, *detail, *ev_key, *ev_val;
};

#define CUDA124 { "/usr/local/cuda", "/usr/local/cuda-12.4", "12.4.1", true }
#define CUDA118 { "/usr/local/cuda-11.8", "/usr/local/cuda-11.8", "11.8.89", true }
#define NONE { NULL, NULL, NULL, false }

static const struct row rows[] = {
	{ "no toolkit", { NONE, NONE }, -1, false, NULL, NULL, NULL, "12.4", NULL,
	  ST_PASS, "toolkit.nvcc.none", "no CUDA toolkit (not needed to run PyTorch",
	  "driver_cuda", "12.4" },
	{ "no toolkit, but a cuda-wsl path", { NONE, NONE }, -1, false, NULL, NULL, NULL, NULL,
	  "$PATH",
	  ST_WARN, "toolkit.nvcc.cuda_wsl_myth", "no CUDA toolkit; $PATH names /usr/local/cuda-wsl",
	  "myth_in", "$PATH" },
	{ "12.4 on PATH, driver 12.4", { CUDA124, NONE }, 0, true, NULL, NULL, NULL, "12.4", NULL,
	  ST_PASS, NULL, "CUDA 12.4.1 (nvcc /usr/local/cuda/bin/nvcc); the driver supports CUDA 12.4",
	  "toolkit", "/usr/local/cuda -> /usr/local/cuda-12.4: CUDA 12.4.1 (version.json)" },
	{ "13.0 on a 12.4 driver", { { "/usr/local/cuda-13.0", "/usr/local/cuda-13.0", "13.0.88",
				       true }, NONE }, 0, true, NULL, NULL, NULL, "12.4", NULL,
	  ST_FAIL, "toolkit.nvcc.driver_too_old", "CUDA 13.0 toolkit at /usr/local/cuda-13.0, but the "
	  "driver supports only CUDA 12.4", "driver_toolkit_pkg", "cuda-toolkit-12-4" },
	/* The real 470 answers cuDriverGetVersion 11040 before cuInit, which
	 * then finds no device: a CUDA 13 runtime gets error 35. */
	{ "13.0 on a 470 driver (CUDA 11.4)", { { "/usr/local/cuda-13.0", "/usr/local/cuda-13.0",
						  "13.0.88", true }, NONE }, 0, true, NULL, NULL, NULL,
	  "11.4", NULL,
	  ST_FAIL, "toolkit.nvcc.driver_too_old", "but the driver supports only CUDA 11.4",
	  "driver_toolkit_pkg", "cuda-toolkit-11-4" },
	{ "12.6 on a 12.4 driver", { { "/usr/local/cuda-12.6", "/usr/local/cuda-12.6", "12.6.2",
				       true }, NONE }, 0, true, NULL, NULL, NULL, "12.4", NULL,
	  ST_WARN, "toolkit.nvcc.minor_compat", "by minor-version compatibility", "toolkit_version",
	  "12.6.2" },
	{ "a toolkit and a cuda-wsl directory", { CUDA124, NONE }, 0, true, NULL, NULL, NULL, "12.4",
	  "/usr/local/cuda-wsl",
	  ST_WARN, "toolkit.nvcc.cuda_wsl_myth", "(the toolkit is at /usr/local/cuda-12.4)",
	  "myth_in", "/usr/local/cuda-wsl" },
	{ "nvcc not on PATH; the newest is the one", { CUDA118,
	  { "/usr/local/cuda-12.4", "/usr/local/cuda-12.4", "12.4.1", true } }, -1, false, NULL,
	  NULL, NULL, "12.4", NULL,
	  ST_WARN, "toolkit.nvcc.not_on_path", "CUDA 12.4.1 toolkit at /usr/local/cuda-12.4, but "
	  "nvcc is not on PATH; also installed: 11.8.89 /usr/local/cuda-11.8", "bin",
	  "/usr/local/cuda-12.4/bin" },
	{ "nvcc found off PATH; CUDA_HOME's is the one", { CUDA118,
	  { "/usr/local/cuda-12.4", "/usr/local/cuda-12.4", "12.4.1", true } }, 0, false,
	  "/usr/local/cuda-11.8", "/usr/local/cuda-11.8", NULL, "12.4", NULL,
	  ST_WARN, "toolkit.nvcc.not_on_path", "CUDA 11.8.89 toolkit at /usr/local/cuda-11.8",
	  "CUDA_HOME", "/usr/local/cuda-11.8" },
	{ "CUDA_HOME names another toolkit", { CUDA124, CUDA118 }, 0, true, "/usr/local/cuda-11.8",
	  "/usr/local/cuda-11.8", NULL, "12.4", NULL,
	  ST_WARN, "toolkit.nvcc.cuda_home_mismatch", "nvcc on PATH is CUDA 12.4.1 "
	  "(/usr/local/cuda-12.4) but CUDA_HOME is /usr/local/cuda-11.8", "toolkits", "2" },
	{ "an nvcc that prints no version", { { "/usr/local/cuda", "/usr/local/cuda", NULL, true },
					      NONE }, 0, true, NULL, NULL,
	  "/usr/local/cuda/bin/nvcc --version killed by SIGSEGV and printed no version", "12.4",
	  NULL,
	  ST_WARN, "toolkit.nvcc.broken", "killed by SIGSEGV", "nvcc_error", NULL },
	/* Whether the driver supports the toolkit could not be found out:
	 * not a pass (issue 29: ✓ only for what was verified). */
	{ "the driver's CUDA version unknown", { CUDA124, NONE }, 0, true, NULL, NULL, NULL, NULL,
	  NULL,
	  ST_UNKNOWN, NULL, "CUDA 12.4.1 (nvcc /usr/local/cuda/bin/nvcc); the driver's CUDA version "
	  "is unknown", "toolkit_dir", "/usr/local/cuda-12.4" },
	{ "the toolkit's version unknown", { { "/usr/local/cuda", "/usr/local/cuda-12.4", NULL, true },
					     NONE }, 0, true, NULL, NULL, NULL, "12.4", NULL,
	  ST_UNKNOWN, NULL, "a CUDA toolkit at /usr/local/cuda-12.4 (nvcc /usr/local/cuda/bin/nvcc) "
	  "whose version is unknown: whether the driver supports it is too", "driver_cuda", "12.4" },
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *w = &rows[i];
		struct toolkit tk[2];
		memset(tk, 0, sizeof tk);
		size_t n = 0;
		for (size_t k = 0; k < 2 && w->tk[k].dir; k++, n++) {
			tk[k].dir = (char *)w->tk[k].dir;
			tk[k].real = (char *)w->tk[k].real;
			tk[k].version = (char *)w->tk[k].version;
			tk[k].how = w->tk[k].version ? (char *)"version.json" : NULL;
			tk[k].has_nvcc = w->tk[k].nvcc;
			tk[k].on_path = (int)k == w->picked && w->on_path;
		}
		struct nvcc_facts f = {
			.nvcc = w->picked >= 0 ? "/usr/local/cuda/bin/nvcc" : NULL,
			.nvcc_on_path = w->on_path,
			.env = { w->cuda_home, NULL, NULL },
			.cuda_home_real = w->cuda_home_real,
			.tk = tk,
			.n = n,
			.picked = w->picked >= 0 ? &tk[w->picked] : NULL,
			.nvcc_error = w->nvcc_error,
			.driver_cuda = w->driver,
			.driver_cuda_from = "cuda.init",
			.myth_in = w->myth,
		};
		struct result r;
		result_init(&r, NULL);
		judge_nvcc(&f, &r);
		ju_expect(w->name, &r, w->st, w->kb, w->detail, w->ev_key, w->ev_val);
		result_release(&r);
	}
}

/* The driver a too-new toolkit needs is updated where it lives: Windows
 * for WSL, the host for a container, this system on native Linux (a 470
 * driver, CUDA 11.4, with nvcc 13.0: the real cudart 13 answers 35). */
static void test_driver_home(void **state)
{
	(void)state;
	static const struct { const char *platform, *on; } homes[] = {
		{ "wsl2", "windows" }, { "container-in-wsl2", "windows" },
		{ "native", "linux" }, { "container", "host" }, { NULL, NULL },
	};
	struct toolkit tk = { (char *)"/usr/local/cuda", (char *)"/usr/local/cuda-13.0",
			      (char *)"13.0.88", (char *)"version.json", true, true };
	for (size_t i = 0; i < sizeof homes / sizeof homes[0]; i++) {
		struct nvcc_facts f = {
			.nvcc = "/usr/local/cuda/bin/nvcc", .nvcc_on_path = true, .tk = &tk, .n = 1,
			.picked = &tk, .driver_cuda = "11.4", .driver_cuda_from = "cuda.init",
			.platform = homes[i].platform,
		};
		struct result r;
		result_init(&r, NULL);
		judge_nvcc(&f, &r);
		ju_expect(homes[i].platform ? homes[i].platform : "unknown platform", &r, ST_FAIL,
			  "toolkit.nvcc.driver_too_old", "the driver supports only CUDA 11.4",
			  "toolkit_family_min", "580");
		if (homes[i].on)
			assert_string_equal(res_get(&r, "driver_on"), homes[i].on);
		else
			assert_null(res_get(&r, "driver_on"));
		result_release(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_driver_home),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
