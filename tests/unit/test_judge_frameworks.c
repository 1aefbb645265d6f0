/* test_judge_frameworks.c: the frameworks' judge, fed from a table of runs
 * of the probe script (src/probes/frameworks_judge.h): how the interpreter
 * ended, the snapshot it printed, its stderr, CUDA_VISIBLE_DEVICES; no
 * Python runs. Each row is one verdict branch. */
#include "judgeutil.h"

#include "probes/frameworks_judge.h"

static const struct fwdesc TORCH = { "torch", "PyTorch" };

/* Pieces of the snapshot of a torch wheel on an RTX 3080, from which the
 * rows build theirs. */
#define HEAD "\"probe\": \"wslgpu-pyprobe/1\", \"framework\": \"torch\", \"python\": \"3.10.12\", " \
	"\"installed\": true, \"version\": \"2.6.0+cu124\", \"cuda_build\": \"12.4\", " \
	"\"driver_cuda\": \"12040\", \"module_file\": \"/home/user/venv/lib/python3.10/site-" \
	"packages/torch/__init__.py\", \"prefix\": \"/home/user/venv\", \"installer\": \"pip\""
#define GPU ", \"available\": true, \"device_count\": \"1\", \"device.0.name\": \"NVIDIA " \
	"GeForce RTX 3080\", \"device.0.cc\": \"8.6\", \"libcuda.0\": \"/usr/lib/wsl/lib/libcuda.so.1\""
#define ARCH ", \"arch_list\": [\"sm_50\", \"sm_60\", \"sm_70\", \"sm_75\", \"sm_80\", \"sm_86\", " \
	"\"sm_90\"]"
#define DONE ", \"stage\": \"done\""
#define OK ", \"compute\": \"ok\", \"conv\": \"ok\", \"cudnn\": \"90100\""

struct row {
	const char *name;
	int missing;          /* --python not there: -errno */
	int started;          /* probe_run's answer */
	enum proc_end end;
	int code;
	const char *json;     /* the last snapshot; NULL: the output is out_text */
	const char *out_text;
	const char *err;      /* stderr */
	const char *cvd;
	/* expected */
	enum status st;
	const char *kb, *detail, *ev_key, *ev_val;
};

static const struct row rows[] = {
	{ "torch works", 0, 0, PROC_EXITED, 0, HEAD GPU ARCH DONE OK, NULL, "", NULL,
	  ST_PASS, NULL, "torch 2.6.0+cu124 (CUDA 12.4): NVIDIA GeForce RTX 3080, compute 8.6, "
	  "matmul OK, cuDNN 90100", "install_fix", NULL },
	{ "torch is not installed", 0, 0, PROC_EXITED, 0,
	  "\"probe\": \"wslgpu-pyprobe/1\", \"installed\": false, \"stage\": \"done\", "
	  "\"import_error\": \"ModuleNotFoundError: No module named 'torch'\"", NULL, "", NULL,
	  ST_SKIP, NULL, "torch is not installed for /usr/bin/python3", "python", "/usr/bin/python3" },
	{ "a CPU-only build", 0, 0, PROC_EXITED, 0, HEAD DONE ", \"cpu_only\": true", NULL, "",
	  NULL,
	  ST_FAIL, "frameworks.torch.cpu_only", "torch 2.6.0+cu124 is a CPU-only build",
	  "libcuda", "none" },
	{ "CUDA_VISIBLE_DEVICES hides the GPU", 0, 0, PROC_EXITED, 0, HEAD DONE
	  ", \"available\": false", NULL, "", "-1",
	  ST_FAIL, "frameworks.cuda_visible_devices", "CUDA_VISIBLE_DEVICES=\"-1\" hides every "
	  "device", "CUDA_VISIBLE_DEVICES", "-1" },
	{ "a Linux driver's libcuda in the process", 0, 0, PROC_EXITED, 0, HEAD DONE
	  ", \"available\": false, \"libcuda.0\": \"/usr/lib/x86_64-linux-gnu/libcuda.so.1\"", NULL,
	  "", NULL,
	  ST_FAIL, "frameworks.wrong_libcuda", "torch loaded /usr/lib/x86_64-linux-gnu/libcuda.so.1, "
	  "not WSL's", "libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.1" },
	{ "no GPU, and a known signature", 0, 0, PROC_EXITED, 0, HEAD DONE
	  ", \"available\": false, \"warning.0\": \"Found no NVIDIA driver on your system.\"", NULL,
	  "", NULL,
	  ST_FAIL, "frameworks.torch.no_driver", "torch 2.6.0+cu124 sees no GPU: ", NULL, NULL },
	{ "no GPU, no signature", 0, 0, PROC_EXITED, 0, HEAD DONE ", \"available\": false", NULL, "",
	  NULL,
	  ST_FAIL, "frameworks.no_gpu", "torch 2.6.0+cu124 sees no GPU", "driver_cuda", "12.4" },
	{ "no kernels for the GPU, the matmul failed", 0, 0, PROC_EXITED, 0, HEAD GPU DONE
	  ", \"arch_list\": [\"sm_50\", \"sm_60\"], \"compute\": \"error\", \"compute_error\": "
	  "\"CUDA error: no kernel image is available for execution on the device\"", NULL, "", NULL,
	  ST_FAIL, "frameworks.arch_missing", "has no kernels for NVIDIA GeForce RTX 3080 (sm_86)",
	  "newest_arch", NULL },
	{ "the matmul failed otherwise", 0, 0, PROC_EXITED, 0, HEAD GPU ARCH DONE
	  ", \"compute\": \"error\", \"compute_error\": \"RuntimeError: odd\"", NULL, "", NULL,
	  ST_FAIL, "frameworks.compute_failed", "torch sees the GPU but a small matmul on it failed",
	  "error", "RuntimeError: odd" },
	{ "the matmul gave a wrong answer", 0, 0, PROC_EXITED, 0, HEAD GPU ARCH DONE
	  ", \"compute\": \"mismatch\"", NULL, "", NULL,
	  ST_FAIL, "frameworks.compute_wrong", "gave a different result than the CPU", NULL, NULL },
	{ "cuDNN failed", 0, 0, PROC_EXITED, 0, HEAD GPU ARCH DONE
	  ", \"compute\": \"ok\", \"conv\": \"error\", \"conv_error\": \"CUDNN_STATUS_BAD\"", NULL,
	  "", NULL,
	  ST_FAIL, "frameworks.torch.cudnn_failed", "its cuDNN convolution failed", "error",
	  "CUDNN_STATUS_BAD" },
	{ "only PTX for the GPU", 0, 0, PROC_EXITED, 0, HEAD GPU DONE OK
	  ", \"arch_list\": [\"sm_50\", \"sm_60\", \"compute_80\"]", NULL, "", NULL,
	  ST_WARN, "frameworks.arch_ptx_only", "but no native kernels for NVIDIA GeForce RTX 3080 "
	  "(sm_86)", "ptx_entry", NULL },
	{ "built for a newer minor CUDA", 0, 0, PROC_EXITED, 0, HEAD GPU ARCH DONE OK
	  ", \"cuda_build\": \"12.6\"", NULL, "", NULL,
	  ST_PASS, "frameworks.minor_compat", "built for CUDA 12.6, the driver supports 12.4",
	  "wheel_index", NULL },
	{ "--python that is not there", -ENOENT, 0, PROC_EXITED, 0, NULL, "", "", NULL,
	  ST_WARN, "frameworks.python_unusable", "/usr/bin/python3 (from --python) does not exist",
	  "exit", "does not exist" },
	{ "the interpreter cannot be started", 0, -EMFILE, PROC_EXITED, 0, NULL, "", "", NULL,
	  ST_WARN, "frameworks.python_unusable", "could not start /usr/bin/python3: Too many open",
	  "limit", "3.0 s" },
	{ "the interpreter cannot be executed", 0, 0, PROC_EXEC_FAILED, EACCES, NULL, "", "", NULL,
	  ST_WARN, "frameworks.python_unusable", "cannot execute /usr/bin/python3: Permission",
	  NULL, NULL },
	{ "hung before the probe started", 0, 0, PROC_TIMEOUT, 0, NULL, "", "", NULL,
	  ST_FAIL, "frameworks.probe_hang", "did not start the probe within 3.0 s", "stage",
	  "starting Python" },
	{ "killed before the probe started", 0, 0, PROC_SIGNALED, 0, NULL, "", "Fatal\n", NULL,
	  ST_FAIL, "frameworks.probe_crash", "was killed by SIGHUP before the probe started",
	  "stderr", "Fatal" },
	{ "not found by the shell", 0, 0, PROC_EXITED, 127, NULL, "", "", NULL,
	  ST_WARN, "frameworks.python_unusable", "exited with status 127 and printed no probe "
	  "result: is it Python 3?", NULL, NULL },
	{ "output that is no probe result", 0, 0, PROC_EXITED, 0, NULL, "hello\n", "", NULL,
	  ST_WARN, "frameworks.probe_garbled", "printed output the probe cannot read", "stdout",
	  "hello" },
	{ "hung in import", 0, 0, PROC_TIMEOUT, 0,
	  "\"probe\": \"wslgpu-pyprobe/1\", \"stage\": \"import\"", NULL, "", NULL,
	  ST_FAIL, "frameworks.probe_hang", "torch did not finish within 3.0 s: stuck at import "
	  "torch", "stage", "import torch" },
	{ "died initialising CUDA", 0, 0, PROC_EXITED, 1, HEAD ", \"stage\": \"cuda\"", NULL,
	  "Traceback ...\nRuntimeError: x\n", NULL,
	  ST_FAIL, "frameworks.probe_crash", "exited with status 1 during PyTorch initialising CUDA",
	  NULL, NULL },
	{ "import failed: a CUDA library is missing", 0, 0, PROC_EXITED, 0, HEAD DONE
	  ", \"import_error\": \"ImportError: libcudnn.so.9: cannot open shared object file: No "
	  "such file or directory\"", NULL, "", NULL,
	  ST_FAIL, "frameworks.import_libs_missing", "import torch failed: ", "error", NULL },
	{ "import failed otherwise", 0, 0, PROC_EXITED, 0, HEAD DONE
	  ", \"import_error\": \"SyntaxError: odd\"", NULL, "", NULL,
	  ST_FAIL, "frameworks.import_failed", "import torch failed in /usr/bin/python3: "
	  "SyntaxError: odd", NULL, NULL },
};

/* Judges row w's run on WSL 2 (wsl) or elsewhere and checks its verdict. */
static void judge_row(const struct row *w, bool wsl)
{
	{
		struct fw_run run;
		memset(&run, 0, sizeof run);
		proc_result_init(&run.pr);
		run.python = "/usr/bin/python3";
		run.missing = w->missing;
		run.started = w->started;
		run.limit_ms = 3000;
		run.pr.end = w->end;
		run.pr.code = w->code;
		run.pr.sig = 1;
		run.apt = true;
		if (w->json)
			sb_addf(&run.pr.out, "@@wslgpu-pyprobe@@ {%s}\n", w->json);
		else
			sb_add(&run.pr.out, w->out_text);
		sb_add(&run.pr.err, w->err);
		if (!w->missing && w->started >= 0)
			run.parsed = pyprobe_parse(run.pr.out.buf, run.pr.out.len, &run.snap);
		struct result r;
		result_init(&r, NULL);
		judge_framework_run(&TORCH, &run, wsl, w->cvd, &r);
		ju_expect(w->name, &r, w->st, w->kb, w->detail, w->ev_key, w->ev_val);
		result_release(&r);
		pyprobe_free(&run.snap);
		proc_result_release(&run.pr);
	}
}

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		judge_row(&rows[i], true);
}

/* cuDNN's "libcuda.so: cannot open shared object file" is WSL's missing
 * unversioned name (its fix is /usr/lib/wsl/lib on LD_LIBRARY_PATH) only on
 * WSL; elsewhere it is a cuDNN failure, with no WSL step. */
static void test_cudnn_libcuda_by_platform(void **state)
{
	(void)state;
	static const struct row wsl = {
		"cuDNN cannot load libcuda.so, WSL", 0, 0, PROC_EXITED, 0, HEAD GPU ARCH DONE
		", \"compute\": \"ok\", \"conv\": \"error\", \"conv_error\": \"Could not load "
		"library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object "
		"file: No such file or directory\"", NULL, "", NULL,
		ST_FAIL, "frameworks.cudnn_libcuda", NULL, NULL, NULL
	};
	judge_row(&wsl, true);
	struct row native = wsl;
	native.name = "cuDNN cannot load libcuda.so, native";
	native.kb = "frameworks.torch.cudnn_failed";
	native.detail = "its cuDNN convolution failed";
	judge_row(&native, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_cudnn_libcuda_by_platform),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
