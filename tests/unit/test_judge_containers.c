/* test_judge_containers.c: containers.docker's judge, fed from a table of
 * machines (src/probes/containers_judge.h): what docker info printed, which
 * toolkit programs are there, daemon.json, the CDI specs, and what
 * nvidia-container-cli and docker run answered; nothing is run. Each row is
 * one verdict branch. */
#include "judgeutil.h"

#include "probes/containers_judge.h"

/* A command's end; ran false: not run. */
struct cmd_row {
	bool ran;
	int rc;
	enum proc_end end;
	int code;
	const char *out, *err;
};

#define EXITED(code, out, err) { true, 0, PROC_EXITED, code, out, err }
#define TIMED_OUT { true, 0, PROC_TIMEOUT, 0, "", "" }

#define ENGINE "{\"ServerVersion\":\"24.0.7\",\"OperatingSystem\":\"Ubuntu 22.04.4 LTS\"," \
	"\"Runtimes\":{\"runc\":{\"path\":\"runc\"}},\"DefaultRuntime\":\"runc\"}"
#define ENGINE_NV "{\"ServerVersion\":\"24.0.7\",\"OperatingSystem\":\"Ubuntu 22.04.4 LTS\"," \
	"\"Runtimes\":{\"runc\":{\"path\":\"runc\"},\"nvidia\":{\"path\":" \
	"\"nvidia-container-runtime\"}},\"DefaultRuntime\":\"runc\"}"
#define DESKTOP "{\"ServerVersion\":\"27.2.0\",\"OperatingSystem\":\"Docker Desktop\"," \
	"\"Name\":\"docker-desktop\",\"Runtimes\":{\"runc\":{\"path\":\"runc\"}}}"
#define DESKTOP_NV "{\"ServerVersion\":\"27.2.0\",\"OperatingSystem\":\"Docker Desktop\"," \
	"\"Runtimes\":{\"runc\":{\"path\":\"runc\"},\"nvidia\":{\"path\":\"x\"}}}"
#define SMI "+---+\n| NVIDIA-SMI 550.54.10  Driver Version: 551.23  CUDA Version: 12.4 |\n"

/* Toolkit programs, as bits of NCT_*. */
#define HOOK (1u << NCT_RUNTIME_HOOK)
#define RUNTIME (1u << NCT_RUNTIME)
#define CLI (1u << NCT_CLI)

struct row {
	const char *name;
	bool wsl;
	bool docker;              /* the CLI is there */
	const char *desktop_link; /* when it is not */
	bool desktop_mount;
	const char *cli_link;
	struct cmd_row info;      /* docker info; its stdout is parsed */
	unsigned toolkit;
	const char *daemon_json;
	bool cdi_nvidia;          /* an nvidia.com/gpu CDI spec */
	const char *stale;        /* a driver-store path a spec names that is gone */
	struct cmd_row nvcli;
	const char *image;
	struct cmd_row run;
	/* expected */
	enum status st;
	const char *kb, *detail, *ev_key, *ev_val;
};

static const struct row rows[] = {
	{ "no docker on native Linux", false, false, NULL, false, NULL, { 0 }, 0, NULL, false,
	  NULL, { 0 }, NULL, { 0 },
	  ST_SKIP, NULL, "skipped: docker is not installed", NULL, NULL },
	{ "no docker in WSL, Desktop's integration off", true, false, NULL, true, NULL, { 0 }, 0,
	  NULL, false, NULL, { 0 }, NULL, { 0 },
	  ST_SKIP, NULL, "its WSL integration for this distribution is off", NULL, NULL },
	{ "Desktop's CLI link dangles: Desktop stopped", true, false,
	  "/mnt/wsl/docker-desktop/cli-tools/usr/bin/docker", true, NULL, { 0 }, 0, NULL, false,
	  NULL, { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.desktop_stopped", "Docker Desktop is not running",
	  "docker_link", "/mnt/wsl/docker-desktop/cli-tools/usr/bin/docker" },
	{ "docker info hangs", true, true, NULL, false, NULL, TIMED_OUT, 0, NULL, false, NULL,
	  { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.hang", "docker info did not answer within 4.0 s", "limit",
	  "4.0 s" },
	{ "docker cannot be run", false, true, NULL, false, NULL,
	  { true, 0, PROC_EXEC_FAILED, 13, "", "" }, 0, NULL, false, NULL, { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.info_failed", "cannot run /usr/bin/docker: Permission denied",
	  "engine", "unknown" },
	{ "no permission on the socket", false, true, NULL, false, NULL,
	  EXITED(1, "", "permission denied while trying to connect to the Docker daemon socket at "
		 "unix:///var/run/docker.sock: Get ..."), 0, NULL, false, NULL, { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.permission", "permission denied while trying to connect",
	  "docker_error", NULL },
	{ "the daemon is down", true, true, NULL, false, NULL,
	  EXITED(1, "", "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is "
		 "the docker daemon running?"), 0, NULL, false, NULL, { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.daemon_down", "Cannot connect to the Docker daemon",
	  "pid1_systemd", "yes" },
	{ "an answer nobody recognises", false, true, NULL, false, NULL,
	  EXITED(2, "", "something odd\n"), 0, NULL, false, NULL, { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.info_failed", "docker info exited with status 2: something odd",
	  NULL, NULL },
	{ "Desktop's CLI, daemon not answering", true, true, NULL, false,
	  "/mnt/wsl/docker-desktop/cli-tools/usr/bin/docker", TIMED_OUT, 0, NULL, false, NULL,
	  { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.hang", "did not answer", "engine",
	  "Docker Desktop (by its CLI link)" },
	{ "an engine without the toolkit", true, true, NULL, false, NULL, EXITED(0, ENGINE, ""),
	  0, NULL, false, NULL, { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.no_toolkit", "without the NVIDIA Container Toolkit",
	  "runtimes", "runc" },
	{ "the nvidia runtime registered, its program missing", true, true, NULL, false, NULL,
	  EXITED(0, ENGINE, ""), 0, "{\"runtimes\":{\"nvidia\":{\"path\":\"x\"}}}", false, NULL,
	  { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.runtime_missing", "nvidia-container-runtime is not installed",
	  "daemon_json", "/etc/docker/daemon.json: runtimes nvidia" },
	{ "the runtime, but no hook on PATH", true, true, NULL, false, NULL,
	  EXITED(0, ENGINE_NV, ""), RUNTIME, NULL, false, NULL, { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.no_toolkit", "no nvidia-container-runtime-hook or "
	  "nvidia-cdi-hook on PATH", "toolkit_binary", "/usr/bin/nvidia-container-runtime" },
	{ "a CDI spec but no hook", true, true, NULL, false, NULL, EXITED(0, ENGINE, ""), 0, NULL,
	  true, NULL, { 0 }, NULL, { 0 },
	  ST_WARN, "containers.docker.no_toolkit", "no nvidia-container-runtime-hook",
	  "cdi_spec", "/etc/cdi/nvidia.yaml (nvidia.com/gpu)" },
	{ "an engine with the toolkit", true, true, NULL, false, NULL, EXITED(0, ENGINE_NV, ""),
	  HOOK | RUNTIME, NULL, false, NULL, { 0 }, NULL, { 0 },
	  ST_PASS, NULL, "docker 24.0.7 in this distribution with the NVIDIA Container Toolkit "
	  "(nvidia runtime registered)", "server_version", "24.0.7" },
	{ "an engine with the hook alone", false, true, NULL, false, NULL, EXITED(0, ENGINE, ""),
	  HOOK, "not json", false, NULL, { 0 }, NULL, { 0 },
	  ST_PASS, NULL, "with the NVIDIA Container Toolkit", "daemon_json",
	  "/etc/docker/daemon.json is not valid JSON (dockerd refuses to start with it)" },
	{ "Docker Desktop with the nvidia runtime", true, true, NULL, false, NULL,
	  EXITED(0, DESKTOP_NV, ""), HOOK, NULL, false, NULL, { 0 }, NULL, { 0 },
	  ST_PASS, NULL, "Docker Desktop (engine 27.2.0) with the nvidia runtime", "note", NULL },
	/* documented, not seen: unknown, not a pass, until a container runs */
	{ "Docker Desktop, unconfirmed", true, true, NULL, false, NULL, EXITED(0, DESKTOP, ""), 0,
	  NULL, false, NULL, { 0 }, NULL, { 0 },
	  ST_UNKNOWN, "containers.docker.desktop_unverified", "cannot be confirmed without starting",
	  "engine", "Docker Desktop" },
	{ "a CDI spec names a driver store that is gone", true, true, NULL, false, NULL,
	  EXITED(0, ENGINE, ""), HOOK, NULL, true, "/usr/lib/wsl/drivers/nv_old", { 0 }, NULL,
	  { 0 },
	  ST_WARN, "containers.cdi.stale", "names /usr/lib/wsl/drivers/nv_old, which no longer",
	  "cdi_file", "/etc/cdi/nvidia.yaml" },
	{ "nvidia-container-cli sees the GPU", true, true, NULL, false, NULL,
	  EXITED(0, ENGINE, ""), HOOK | CLI, NULL, false, NULL,
	  EXITED(0, "NVRM version:   551.23\nCUDA version:   12.4\n\nDevice Index:   0\n"
		 "Model:          NVIDIA GeForce RTX 3080\n", ""), NULL, { 0 },
	  ST_PASS, NULL, "with the NVIDIA Container Toolkit", "nvcli",
	  "NVRM 551.23, CUDA 12.4, 1 device: NVIDIA GeForce RTX 3080" },
	{ "nvidia-container-cli hangs", true, true, NULL, false, NULL, EXITED(0, ENGINE, ""),
	  HOOK | CLI, NULL, false, NULL, TIMED_OUT, NULL, { 0 },
	  ST_FAIL, "containers.nvcli.hang", "did not finish within 2.0 s", "nvcli_limit", "2.0 s" },
	{ "nvidia-container-cli finds no adapter", true, true, NULL, false, NULL,
	  EXITED(0, ENGINE, ""), HOOK | CLI, NULL, false, NULL,
	  EXITED(1, "", "nvidia-container-cli: initialization error: WSL environment detected but "
		 "no adapters were found: unknown error\n"), NULL, { 0 },
	  ST_FAIL, "containers.nvcli.no_adapters", "nvidia-container-cli info: nvidia-container-cli:",
	  "nvcli_error", NULL },
	{ "nvidia-container-cli fails otherwise", true, true, NULL, false, NULL,
	  EXITED(0, ENGINE, ""), HOOK | CLI, NULL, false, NULL, EXITED(1, "", "odd\n"), NULL,
	  { 0 },
	  ST_FAIL, "containers.nvcli.failed", "nvidia-container-cli info: odd", "nvcli_error",
	  "odd" },
	{ "docker run --gpus all works", true, true, NULL, false, NULL, EXITED(0, DESKTOP_NV, ""), 0,
	  NULL, false, NULL, { 0 }, "nvidia/cuda:12.4.1-base-ubuntu22.04", EXITED(0, SMI, ""),
	  ST_PASS, NULL, "docker run --rm --gpus all nvidia/cuda:12.4.1-base-ubuntu22.04 "
	  "nvidia-smi works", "gpu_run", NULL },
	/* Docker Desktop without the nvidia runtime, shown by a container:
	 * a pass, not the unknown of the row without one. */
	{ "Docker Desktop confirmed by docker run", true, true, NULL, false, NULL,
	  EXITED(0, DESKTOP, ""), 0, NULL, false, NULL, { 0 }, "img", EXITED(0, SMI, ""),
	  ST_PASS, NULL, "Docker Desktop (engine 27.2.0): GPU support is built into its WSL2 "
	  "backend; docker run --rm --gpus all img nvidia-smi works", "gpu_run", NULL },
	{ "docker run hangs", true, true, NULL, false, NULL, EXITED(0, DESKTOP, ""), 0, NULL, false,
	  NULL, { 0 }, "img", TIMED_OUT,
	  ST_FAIL, "containers.docker.run_timeout", "docker run --gpus all img did not finish",
	  "run_limit", "2.0 s" },
	{ "docker run: no device driver", true, true, NULL, false, NULL, EXITED(0, ENGINE, ""),
	  HOOK, NULL, false, NULL, { 0 }, "img",
	  EXITED(125, "", "docker: Error response from daemon: could not select device driver \"\" "
		 "with capabilities: [[gpu]].\n"),
	  ST_FAIL, "containers.docker.no_toolkit", "docker run --gpus all img failed: docker: Error",
	  "gpu_run", "docker run exited with status 125" },
	{ "docker run fails otherwise", true, true, NULL, false, NULL, EXITED(0, ENGINE, ""), HOOK,
	  NULL, false, NULL, { 0 }, "img", EXITED(1, "", ""),
	  ST_FAIL, "containers.docker.gpu_run_failed", "failed: (no output)", "gpu_run_output",
	  NULL },
	{ "docker run not tried: no daemon", true, true, NULL, false, NULL, TIMED_OUT, 0, NULL,
	  false, NULL, { 0 }, "img", { 0 },
	  ST_WARN, "containers.docker.hang", "did not answer", "gpu_run",
	  "not run: the daemon did not answer" },
};

static void cmd_of(const struct cmd_row *c, int limit_ms, struct proc_result *pr,
		   struct docker_cmd *out)
{
	proc_result_init(pr);
	*out = (struct docker_cmd){ c->ran, c->rc, pr, limit_ms };
	pr->end = c->end;
	pr->code = c->code;
	if (c->out)
		sb_add(&pr->out, c->out);
	if (c->err)
		sb_add(&pr->err, c->err);
}

static void test_rows(void **state)
{
	(void)state;
	static const char *const paths[NCT__COUNT] = {
		"/usr/bin/nvidia-container-runtime-hook", "/usr/bin/nvidia-cdi-hook",
		"/usr/bin/nvidia-container-runtime", "/usr/bin/nvidia-ctk",
		"/usr/bin/nvidia-container-cli"
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *w = &rows[i];
		struct proc_result info, nvcli, run;
		struct dockerinfo di;
		struct cdi_spec spec = { "/etc/cdi/nvidia.yaml", true };
		struct docker_facts f = {
			.wsl = w->wsl,
			.docker = w->docker ? "/usr/bin/docker" : NULL,
			.desktop_link = w->desktop_link,
			.desktop_mount = w->desktop_mount,
			.cli_link = w->cli_link,
			.pid1 = "systemd",
			.di = &di,
			.daemon_json = w->daemon_json,
			.daemon_json_len = w->daemon_json ? strlen(w->daemon_json) : 0,
			.cdi = &spec,
			.ncdi = w->cdi_nvidia,
			.stale_path = w->stale,
			.stale_file = w->stale ? spec.path : NULL,
			.image = w->image,
		};
		cmd_of(&w->info, 4000, &info, &f.info);
		dockerinfo_parse(info.out.buf, info.out.len, &di);
		cmd_of(&w->nvcli, 2000, &nvcli, &f.nvcli);
		cmd_of(&w->run, 2000, &run, &f.run);
		for (size_t k = 0; k < NCT__COUNT; k++)
			if (w->toolkit & (1u << k))
				f.toolkit[k] = paths[k];
		struct result r;
		result_init(&r, NULL);
		judge_docker(&f, &r);
		ju_expect(w->name, &r, w->st, w->kb, w->detail, w->ev_key, w->ev_val);
		result_release(&r);
		proc_result_release(&info);
		proc_result_release(&nvcli);
		proc_result_release(&run);
	}
}

/* docker info reached a daemon only with a JSON answer that has a server
 * version and no server errors, in time. */
static void test_reachable(void **state)
{
	(void)state;
	static const struct {
		int rc;
		enum proc_end end;
		const char *out;
		bool want;
	} t[] = {
		{ 0, PROC_EXITED, ENGINE, true },
		{ -EAGAIN, PROC_EXITED, ENGINE, false },
		{ 0, PROC_TIMEOUT, ENGINE, false },
		{ 0, PROC_EXITED, "{\"ServerVersion\":\"\"}", false },
		{ 0, PROC_EXITED, "{\"ServerVersion\":\"24.0.7\",\"ServerErrors\":[\"x\"]}", false },
		{ 0, PROC_EXITED, "Server Version: 24.0.7", false },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct proc_result pr;
		struct dockerinfo di;
		proc_result_init(&pr);
		pr.end = t[i].end;
		sb_add(&pr.out, t[i].out);
		dockerinfo_parse(pr.out.buf, pr.out.len, &di);
		struct docker_cmd c = { true, t[i].rc, &pr, 1000 };
		if (docker_reachable(&c, &di) != t[i].want)
			fail_msg("row %zu: reachable %d", i, !t[i].want);
		proc_result_release(&pr);
	}
}

/* Nothing at the socket the CLI would dial (and nothing names another):
 * docker info was not run; the daemon is down, said without it. */
static void test_no_socket(void **state)
{
	(void)state;
	static const struct {
		bool wsl;
		const char *image;
	} t[] = { { true, NULL }, { false, NULL }, { false, "img" } };
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct proc_result pr;
		struct dockerinfo di;
		proc_result_init(&pr);
		dockerinfo_parse(pr.out.buf, pr.out.len, &di);
		struct docker_facts f = {
			.wsl = t[i].wsl,
			.docker = "/usr/bin/docker",
			.pid1 = "systemd",
			.no_socket = "/var/run/docker.sock",
			.info = { false, -ENOENT, &pr, 4000 },
			.di = &di,
			.image = t[i].image,
		};
		struct docker_cmd none = { false, 0, &pr, 0 };
		f.nvcli = none;
		f.run = none;
		struct result r;
		result_init(&r, NULL);
		judge_docker(&f, &r);
		ju_expect("no socket", &r, ST_WARN, "containers.docker.daemon_down",
			  "no Docker daemon: nothing at /var/run/docker.sock", "docker_socket",
			  "/var/run/docker.sock: no such file (docker info was not run: with no "
			  "DOCKER_HOST and no docker context, the CLI dials this socket)");
		assert_string_equal(res_get(&r, "docker_error"), "no socket at /var/run/docker.sock");
		assert_string_equal(res_get(&r, "pid1_systemd"), "yes");
		assert_null(res_get(&r, "ran"));
		if (t[i].image)
			assert_string_equal(res_get(&r, "gpu_run"), "not run: the daemon did not answer");
		result_release(&r);
		proc_result_release(&pr);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_reachable),
		cmocka_unit_test(test_no_socket),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
