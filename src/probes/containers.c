/*
 * containers.c: can Docker give a container the GPU — without starting one?
 *
 * Read, in order: the docker CLI (rootfs_which; Docker Desktop's WSL
 * integration links /usr/bin/docker into /mnt/wsl/docker-desktop/cli-tools,
 * a link that dangles while Desktop is stopped), `docker info --format
 * '{{json .}}'` with the time limit (engine version, Docker Desktop or an
 * engine inside the distribution, registered runtimes, CDI spec
 * directories, or why the daemon did not answer), /etc/docker/daemon.json,
 * the CDI specs in /etc/cdi and /var/run/cdi, the NVIDIA Container Toolkit
 * binaries, and `nvidia-container-cli info` (how libnvidia-container sees
 * the GPU: on WSL through libdxcore).
 *
 * The facts that decide (research/wsl-facts.md §7, FACTS.md):
 *  - dockerd registers its built-in nvidia device driver (what --gpus
 *    uses) only if nvidia-container-runtime-hook or nvidia-cdi-hook is on
 *    ITS PATH when it starts; otherwise `docker run --gpus all` fails with
 *    'could not select device driver "" with capabilities: [[gpu]]' (D01).
 *  - Docker Desktop's daemon runs in its own docker-desktop distribution
 *    with GPU support built in (WSL2 backend): a toolkit installed in this
 *    distribution changes nothing for it.
 *
 * --docker-image IMAGE additionally runs `docker run --rm --gpus all IMAGE
 * nvidia-smi` with the time limit, and explains its failure from the
 * `match:` lines of src/kb/containers.kb. Docker absent is a skip.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/json.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../explain/matcher.h"
#include "../parse/dockerinfo.h"
#include "../parse/jsonscan.h"
#include "probes.h"

/* One command with the time limit; output kept in pr. */
static int run_cmd(struct probe_ctx *ctx, struct result *r, const char *const *argv,
		   int limit_ms, struct proc_result *pr, const char *step)
{
	probe_step(ctx, "%s", step);
	struct proc_opts po = { limit_ms, 256u << 10, NULL, NULL };
	return probe_run(ctx, r, argv, &po, pr);
}

static bool has(const char *cmd, struct strbuf *guest)
{
	return rootfs_which(cmd, guest, NULL, NULL) == 0;
}

/* A "docker" link into Docker Desktop's CLI mount that no longer resolves:
 * Desktop is stopped (its CLI disappears with it). */
static bool desktop_link(const char *dir, struct strbuf *target)
{
	struct strbuf p = STRBUF_INIT;
	sb_addf(&p, "%s/docker", dir);
	bool yes = rootfs_readlink(p.buf, target) == 0 && strstr(target->buf, "/mnt/wsl/docker-desktop");
	sb_release(&p);
	return yes;
}

/* Appends the texts docker info gave about its failure. */
static void failure_text(const struct dockerinfo *di, const struct proc_result *pr,
			 struct strbuf *t)
{
	for (size_t i = 0; i < di->nerrors; i++) {
		sb_add(t, di->errors[i]);
		sb_addc(t, '\n');
	}
	if (pr->err.len)
		sb_addn(t, pr->err.buf, pr->err.len);
	if (!di->json && pr->out.len)
		sb_addn(t, pr->out.buf, pr->out.len);
}

/* First line of a text, trimmed, for a detail. A line that is not text
 * (a crashed or corrupt docker printing binary) is named, not quoted. */
static void first_line(const char *s, size_t n, char *out, size_t on)
{
	size_t i = 0, k = 0, bad = 0, end;
	while (i < n && (s[i] == '\n' || s[i] == ' ' || s[i] == '\r'))
		i++;
	for (end = i; end < n && s[end] != '\n'; end++)
		;
	for (size_t j = i; j < end;) {
		const unsigned char *u = (const unsigned char *)s + j;
		int len = *u < 0x80 ? 1 : utf8_seq_len(u, end - j);
		if (len == 0 || (*u < 0x20 && *u != '\t' && *u != '\r') || *u == 0x7f) {
			bad++;
			len = 1;
		}
		j += (size_t)len;
	}
	if (bad * 10 > end - i) {
		snprintf(out, on, "(binary output, %zu bytes)", n);
		return;
	}
	struct strbuf clean = STRBUF_INIT;
	char *line = xstrndup(s + i, end - i);
	text_sanitize(&clean, line);
	free(line);
	for (size_t j = 0; j < clean.len && k + 1 < on; j++)
		out[k++] = clean.buf[j] == '\t' || clean.buf[j] == '\r' ? ' ' : clean.buf[j];
	/* Cut short: never inside a UTF-8 sequence. */
	while (k && k < clean.len && ((unsigned char)clean.buf[k] & 0xc0) == 0x80)
		k--;
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
	sb_release(&clean);
}

/* ---- CDI specs ---- */

struct cdi {
	int specs, nvidia, stale;
	char stale_path[256];
	char stale_file[256];
};

/* Every /usr/lib/wsl/drivers/<dir> a spec names must exist: a Windows
 * driver update replaces the driver-store folder (case D08). */
static void check_spec_paths(const char *file, const char *t, size_t n, struct cdi *c)
{
	static const char key[] = "/usr/lib/wsl/drivers/";
	const char *p = t, *end = t + n;
	while (p < end) {
		const char *m = memmem(p, (size_t)(end - p), key, sizeof key - 1);
		if (!m)
			break;
		const char *e = m + sizeof key - 1;
		while (e < end && *e != '/' && *e != '"' && *e != '\'' && *e != ' ' && *e != '\n')
			e++;
		char dir[256];
		size_t l = (size_t)(e - m);
		if (l < sizeof dir && l > sizeof key - 1) {
			memcpy(dir, m, l);
			dir[l] = '\0';
			struct stat st;
			if (rootfs_stat(dir, &st) < 0 && !c->stale++) {
				snprintf(c->stale_path, sizeof c->stale_path, "%s", dir);
				snprintf(c->stale_file, sizeof c->stale_file, "%s", file);
			}
		}
		p = e;
	}
}

static void scan_cdi_dir(const char *dir, struct result *r, struct cdi *c)
{
	DIR *d = rootfs_opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;
	int seen = 0;
	while ((de = readdir(d)) && seen < 32) {
		const char *nm = de->d_name;
		size_t l = strlen(nm);
		if (!((l > 5 && !strcmp(nm + l - 5, ".yaml")) || (l > 4 && !strcmp(nm + l - 4, ".yml")) ||
		      (l > 5 && !strcmp(nm + l - 5, ".json"))))
			continue;
		seen++;
		sb_reset(&p);
		sb_addf(&p, "%s/%s", dir, nm);
		if (rootfs_read(p.buf, 4 << 20, &t, NULL) < 0)
			continue;
		c->specs++;
		bool nv = memmem(t.buf, t.len, "nvidia.com/gpu", 14) != NULL;
		if (nv)
			c->nvidia++;
		res_ev(r, "cdi_spec", "%s%s", p.buf, nv ? " (nvidia.com/gpu)" : "");
		if (nv)
			check_spec_paths(p.buf, t.buf, t.len, c);
	}
	closedir(d);
	sb_release(&p);
	sb_release(&t);
}

/* ---- /etc/docker/daemon.json ---- */

static void read_daemon_json(struct result *r, bool *nvidia_runtime)
{
	struct strbuf t = STRBUF_INIT;
	*nvidia_runtime = false;
	if (rootfs_read("/etc/docker/daemon.json", 1 << 20, &t, NULL) < 0) {
		sb_release(&t);
		return;
	}
	struct js_val obj, v, k, e;
	if (js_parse_all(t.buf, t.len, &obj) < 0 || obj.type != JS_OBJECT) {
		res_ev(r, "daemon_json", "/etc/docker/daemon.json is not valid JSON (dockerd refuses "
		       "to start with it)");
		sb_release(&t);
		return;
	}
	struct strbuf names = STRBUF_INIT, one = STRBUF_INIT;
	if (js_object_get(&obj, "runtimes", &v) == 0 && v.type == JS_OBJECT) {
		size_t pos = 0;
		while (js_object_next(&v, &pos, &k, &e) == 1) {
			if (js_string(&k, &one) < 0)
				continue;
			if (!strcmp(one.buf, "nvidia"))
				*nvidia_runtime = true;
			sb_addf(&names, "%s%s", names.len ? " " : "", one.buf);
		}
	}
	if (js_object_get(&obj, "default-runtime", &v) == 0 && js_string(&v, &one) == 0)
		res_ev(r, "daemon_json_default_runtime", "%s", one.buf);
	res_ev(r, "daemon_json", "/etc/docker/daemon.json: runtimes %s",
	       names.len ? names.buf : "(none)");
	sb_release(&names);
	sb_release(&one);
	sb_release(&t);
}

/* ---- the probe ---- */

static void probe_docker(struct probe_ctx *ctx, struct result *r)
{
	bool wsl = probe_is_wsl2(ctx);
	struct strbuf g = STRBUF_INIT, h = STRBUF_INIT, tgt = STRBUF_INIT, tool = STRBUF_INIT;
	struct findings fs = FINDINGS_INIT;
	if (rootfs_which("docker", &g, &h, NULL) < 0) {
		if (wsl && (desktop_link("/usr/bin", &tgt) || desktop_link("/usr/local/bin", &tgt))) {
			res_ev(r, "docker_link", "%s", tgt.buf);
			res_set(r, ST_WARN, "containers.docker.desktop_stopped",
				"docker is Docker Desktop's CLI (%s), which is gone: Docker Desktop is "
				"not running", tgt.buf);
		} else {
			struct stat st;
			bool desktop = wsl && rootfs_stat("/mnt/wsl/docker-desktop", &st) == 0;
			res_set(r, ST_SKIP, NULL, "skipped: docker is not installed%s",
				desktop ? " in this distribution (Docker Desktop runs: its WSL "
					  "integration for this distribution is off)" : "");
		}
		goto out;
	}
	res_ev(r, "docker", "%s", g.buf);
	if (wsl)
		res_ev(r, "on_wsl", "yes"); /* Docker Desktop is advice only there */
	const char *dh = getenv("DOCKER_HOST");
	if (dh)
		res_ev(r, "DOCKER_HOST", "%s", dh);
	bool desktop_cli = false;
	if (rootfs_readlink(g.buf, &tgt) == 0 && strstr(tgt.buf, "docker-desktop")) {
		desktop_cli = true;
		res_ev(r, "docker_link", "%s (Docker Desktop's WSL integration)", tgt.buf);
	}

	int timeout = ctx->opts && ctx->opts->timeout_ms > 0 ? ctx->opts->timeout_ms : 10000;
	const char *image = ctx->opts ? ctx->opts->docker_image : NULL;
	int usable = (timeout - 300) * 9 / 10;
	int info_limit = image ? usable / 4 : usable / 2;
	int cli_limit = image ? usable / 8 : usable / 3;
	if (info_limit < 200)
		info_limit = 200;
	if (cli_limit < 200)
		cli_limit = 200;
	double t0 = now_ms();

	const char *info_argv[] = { h.buf, "info", "--format", "{{json .}}", NULL };
	struct proc_result pr;
	proc_result_init(&pr);
	int rc = run_cmd(ctx, r, info_argv, info_limit, &pr, "docker info --format '{{json .}}'");
	struct dockerinfo di;
	dockerinfo_parse(pr.out.buf, pr.out.len, &di);
	bool reachable = rc == 0 && pr.end != PROC_TIMEOUT && di.json && di.server_version[0] &&
			 !di.nerrors;
	struct strbuf ft = STRBUF_INIT;
	if (!reachable) {
		/* How the daemon's service is started here: systemctl where
		 * systemd is PID 1, the service command without it
		 * (platform.systemd read PID 1's name). */
		const char *pid1 = probe_dep_get(ctx, "platform.systemd", "pid1");
		if (pid1)
			res_ev(r, "pid1_systemd", "%s", !strcmp(pid1, "systemd") ? "yes" : "no");
		failure_text(&di, &pr, &ft);
		char line[256];
		first_line(ft.buf ? ft.buf : "", ft.len, line, sizeof line);
		if (line[0])
			res_ev(r, "docker_error", "%s", line);
		const struct kb_entry *e =
			ft.len ? explain_best(explain_db_builtin(), "containers.docker.", ft.buf, ft.len)
			       : NULL;
		if (rc < 0 || pr.end == PROC_EXEC_FAILED) {
			findings_add(&fs, ST_WARN, "containers.docker.info_failed",
				    "cannot run %s: %s", g.buf,
				    strerror(rc < 0 ? -rc : pr.code));
		} else if (pr.end == PROC_TIMEOUT) {
			res_ev(r, "limit", "%.1f s", info_limit / 1000.0);
			findings_add(&fs, ST_WARN, "containers.docker.hang",
				    "docker info did not answer within %.1f s", info_limit / 1000.0);
		} else if (e) {
			findings_add(&fs, ST_WARN, e->id, "%s", line[0] ? line : e->title);
		} else {
			struct strbuf d = STRBUF_INIT;
			proc_describe_end(&pr, &d);
			findings_add(&fs, ST_WARN, "containers.docker.info_failed",
				    "docker info %s%s%s", d.buf, line[0] ? ": " : "", line);
			sb_release(&d);
		}
		res_ev(r, "engine", "%s", desktop_cli ? "Docker Desktop (by its CLI link)" : "unknown");
	} else {
		res_ev(r, "server_version", "%s", di.server_version);
		res_ev(r, "operating_system", "%s", di.os);
		if (di.name[0])
			res_ev(r, "engine_name", "%s", di.name);
		if (di.kernel[0])
			res_ev(r, "engine_kernel", "%s", di.kernel);
		res_ev(r, "engine", "%s", di.desktop ? "Docker Desktop" : "docker engine in this "
		       "distribution");
		struct strbuf rt = STRBUF_INIT;
		for (size_t i = 0; i < di.nruntimes; i++)
			sb_addf(&rt, "%s%s", i ? " " : "", di.runtimes[i]);
		res_ev(r, "runtimes", "%s", rt.len ? rt.buf : "(none)");
		sb_release(&rt);
		if (di.default_runtime[0])
			res_ev(r, "default_runtime", "%s", di.default_runtime);
		for (size_t i = 0; i < di.ncdi_dirs; i++)
			res_ev(r, "cdi_dir", "%s", di.cdi_dirs[i]);
		if (di.rootless)
			res_ev(r, "rootless", "yes");
	}
	proc_result_release(&pr);

	/* The toolkit, as dockerd in this distribution would find it. */
	bool hook = false, nvcli = false;
	static const char *const tools[] = { "nvidia-container-runtime-hook", "nvidia-cdi-hook",
					     "nvidia-container-runtime", "nvidia-ctk",
					     "nvidia-container-cli" };
	for (size_t i = 0; i < 5; i++)
		if (has(tools[i], &tool)) {
			res_ev(r, "toolkit_binary", "%s", tool.buf);
			if (i < 2)
				hook = true;
			if (i == 4)
				nvcli = true;
		}
	bool json_nvidia = false;
	read_daemon_json(r, &json_nvidia);
	struct cdi cdi;
	memset(&cdi, 0, sizeof cdi);
	scan_cdi_dir("/etc/cdi", r, &cdi);
	scan_cdi_dir("/var/run/cdi", r, &cdi);
	bool nvidia_runtime = (reachable && dockerinfo_has_runtime(&di, "nvidia")) || json_nvidia;

	bool desktop = reachable ? di.desktop : desktop_cli;
	if (reachable && desktop) {
		if (res_get(r, "toolkit_binary"))
			res_ev(r, "note", "the NVIDIA Container Toolkit in this distribution is not "
			       "used by Docker Desktop, whose engine runs in its own distribution");
		if (dockerinfo_has_runtime(&di, "nvidia"))
			findings_add(&fs, ST_PASS, NULL, "Docker Desktop (engine %s) with the nvidia "
				    "runtime: GPU containers work with --gpus all", di.server_version);
		else
			findings_add(&fs, ST_PASS, "containers.docker.desktop_unverified",
				    "Docker Desktop (engine %s): GPU support is built into its WSL2 "
				    "backend; it cannot be confirmed without starting a container "
				    "(--docker-image)", di.server_version);
	} else if (reachable) {
		if (!hook && !nvidia_runtime && !cdi.nvidia)
			findings_add(&fs, ST_WARN, "containers.docker.no_toolkit",
				    "docker %s runs in this distribution without the NVIDIA Container "
				    "Toolkit: docker run --gpus all will fail", di.server_version);
		else if (nvidia_runtime && !hook && !has("nvidia-container-runtime", &tool))
			findings_add(&fs, ST_WARN, "containers.docker.runtime_missing",
				    "the nvidia runtime is registered but nvidia-container-runtime is "
				    "not installed");
		else if (!hook)
			findings_add(&fs, ST_WARN, "containers.docker.no_toolkit",
				    "docker %s: no nvidia-container-runtime-hook or nvidia-cdi-hook on "
				    "PATH, so --gpus cannot select the NVIDIA device driver",
				    di.server_version);
		else
			findings_add(&fs, ST_PASS, NULL, "docker %s in this distribution with the "
				    "NVIDIA Container Toolkit%s", di.server_version,
				    nvidia_runtime ? " (nvidia runtime registered)" : "");
	}
	if (cdi.stale) {
		res_ev(r, "stale_path", "%s", cdi.stale_path);
		res_ev(r, "cdi_file", "%s", cdi.stale_file);
		findings_add(&fs, ST_WARN, "containers.cdi.stale",
			    "the CDI spec %s names %s, which no longer exists (the Windows driver was "
			    "updated)", cdi.stale_file, cdi.stale_path);
	}

	/* How libnvidia-container sees the GPU (not for Docker Desktop). */
	if (nvcli && !(reachable && desktop)) {
		struct strbuf ncg = STRBUF_INIT, nch = STRBUF_INIT;
		if (rootfs_which("nvidia-container-cli", &ncg, &nch, NULL) == 0) {
			const char *argv[] = { nch.buf, "info", NULL };
			struct proc_result np;
			proc_result_init(&np);
			int nrc = run_cmd(ctx, r, argv, cli_limit, &np, "nvidia-container-cli info");
			struct strbuf all = STRBUF_INIT;
			sb_addn(&all, np.out.buf ? np.out.buf : "", np.out.len);
			sb_addc(&all, '\n');
			sb_addn(&all, np.err.buf ? np.err.buf : "", np.err.len);
			struct nvcli_info ni;
			nvcli_info_parse(all.buf, all.len, &ni);
			if (nrc == 0 && np.end == PROC_TIMEOUT) {
				res_ev(r, "nvcli_limit", "%.1f s", cli_limit / 1000.0);
				findings_add(&fs, ST_FAIL, "containers.nvcli.hang",
					    "nvidia-container-cli info did not finish within %.1f s",
					    cli_limit / 1000.0);
			} else if (nrc == 0 && np.end == PROC_EXITED && np.code == 0 && ni.nvrm[0]) {
				res_ev(r, "nvcli", "NVRM %s, CUDA %s, %d device%s%s%s", ni.nvrm,
				       ni.cuda[0] ? ni.cuda : "?", ni.devices, ni.devices == 1 ? "" : "s",
				       ni.model[0] ? ": " : "", ni.model);
			} else {
				const struct kb_entry *e = explain_best(explain_db_builtin(),
									"containers.", all.buf, all.len);
				char line[256];
				if (ni.error[0])
					snprintf(line, sizeof line, "%s", ni.error);
				else
					first_line(all.buf, all.len, line, sizeof line);
				res_ev(r, "nvcli_error", "%s", line);
				findings_add(&fs, ST_FAIL, e ? e->id : "containers.nvcli.failed",
					    "nvidia-container-cli info: %s", line[0] ? line : "failed");
			}
			sb_release(&all);
			proc_result_release(&np);
		}
		sb_release(&ncg);
		sb_release(&nch);
	}

	/* The opt-in smoke test. */
	if (image) {
		res_ev(r, "image", "%s", image);
		if (!reachable) {
			res_ev(r, "gpu_run", "not run: the daemon did not answer");
		} else {
			int left = usable - (int)(now_ms() - t0);
			if (left < 500)
				left = 500;
			const char *argv[] = { h.buf, "run", "--rm", "--gpus", "all", image,
					       "nvidia-smi", NULL };
			struct proc_result rp;
			proc_result_init(&rp);
			struct strbuf step = STRBUF_INIT;
			sb_addf(&step, "docker run --rm --gpus all %s nvidia-smi", image);
			int rrc = run_cmd(ctx, r, argv, left, &rp, step.buf);
			sb_release(&step);
			struct strbuf all = STRBUF_INIT;
			sb_addn(&all, rp.err.buf ? rp.err.buf : "", rp.err.len);
			sb_addc(&all, '\n');
			sb_addn(&all, rp.out.buf ? rp.out.buf : "", rp.out.len);
			bool ok = rrc == 0 && rp.end == PROC_EXITED && rp.code == 0 &&
				  (memmem(rp.out.buf ? rp.out.buf : "", rp.out.len, "NVIDIA-SMI", 10) ||
				   memmem(rp.out.buf ? rp.out.buf : "", rp.out.len, "Driver Version", 14));
			if (ok) {
				res_ev(r, "gpu_run", "docker run --gpus all %s nvidia-smi: works", image);
				findings_add(&fs, ST_PASS, NULL, "docker run --rm --gpus all %s nvidia-smi "
					    "works", image);
			} else if (rrc == 0 && rp.end == PROC_TIMEOUT) {
				res_ev(r, "run_limit", "%.1f s", left / 1000.0);
				findings_add(&fs, ST_FAIL, "containers.docker.run_timeout",
					    "docker run --gpus all %s did not finish within %.1f s", image,
					    left / 1000.0);
			} else {
				const struct kb_entry *e = explain_best(explain_db_builtin(),
									"containers.", all.buf, all.len);
				char line[256];
				first_line(all.buf, all.len, line, sizeof line);
				res_ev_text(r, "gpu_run_output", all.buf, 1500);
				struct strbuf d = STRBUF_INIT;
				proc_describe_end(&rp, &d);
				res_ev(r, "gpu_run", "docker run %s", d.buf);
				sb_release(&d);
				findings_add(&fs, ST_FAIL, e ? e->id : "containers.docker.gpu_run_failed",
					    "docker run --gpus all %s failed: %s", image,
					    line[0] ? line : "(no output)");
			}
			sb_release(&all);
			proc_result_release(&rp);
		}
	}
	sb_release(&ft);
	if (!fs.n)
		findings_add(&fs, ST_PASS, NULL, "docker is installed");
	findings_settle(r, &fs);
out:
	sb_release(&g);
	sb_release(&h);
	sb_release(&tgt);
	sb_release(&tool);
}

const struct check_def containers_checks[] = {
	{ "containers.docker", "containers", "Docker GPU support", "docker engine, NVIDIA runtime or CDI spec, without starting a container", { "platform.kind", "platform.systemd" }, probe_docker, CHECK_COMMANDS },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
