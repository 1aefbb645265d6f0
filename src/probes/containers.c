/*
 * containers.c: can Docker give a container the GPU — without starting one?
 *
 * Read, in order: the docker CLI (rootfs_which; Docker Desktop's WSL
 * integration links /usr/bin/docker into /mnt/wsl/docker-desktop/cli-tools,
 * a link that dangles while Desktop is stopped), `docker info --format
 * '{{json .}}'` with the time limit (engine version, Docker Desktop or an
 * engine inside the distribution, registered runtimes, CDI spec
 * directories, or why the daemon did not answer) unless nothing is at the
 * socket it would dial (docker_socket_absent), /etc/docker/daemon.json,
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
#include <sys/stat.h>
#include <unistd.h>

#include "../core/json.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../explain/matcher.h"
#include "../parse/dockerinfo.h"
#include "../parse/jsonscan.h"
#include "containers_judge.h"
#include "probes.h"
#include "kb_ids.h"

/* One command with the time limit; output kept in pr. */
static int run_cmd(struct probe_ctx *ctx, struct result *r, const char *const *argv,
		   int limit_ms, struct proc_result *pr, const char *step)
{
	probe_step(ctx, "%s", step);
	struct proc_opts po = { .timeout_ms = limit_ms, .cap = 256u << 10 };
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

/* ---- the judge: facts in, result out, no I/O ---- */

bool docker_reachable(const struct docker_cmd *info, const struct dockerinfo *di)
{
	return info->rc == 0 && info->pr->end != PROC_TIMEOUT && di->json && di->server_version[0] &&
	       !di->nerrors;
}

/* No docker CLI: Docker Desktop stopped, its integration off, or none. */
static void judge_no_docker(const struct docker_facts *f, struct result *r)
{
	if (f->wsl && f->desktop_link) {
		res_ev(r, "docker_link", "%s", f->desktop_link);
		res_set(r, ST_WARN, KB_CONTAINERS_DOCKER_DESKTOP_STOPPED,
			"docker is Docker Desktop's CLI (%s), which is gone: Docker Desktop is "
			"not running", f->desktop_link);
	} else {
		bool desktop = f->wsl && f->desktop_mount;
		res_set(r, ST_SKIP, NULL, "skipped: docker is not installed%s",
			desktop ? " in this distribution (Docker Desktop runs: its WSL "
				  "integration for this distribution is off)" : "");
	}
}

/* docker info did not reach a daemon: why. */
static void judge_info_failure(const struct docker_facts *f, struct result *r,
			       struct findings *fs)
{
	const struct docker_cmd *c = &f->info;
	/* How the daemon's service is started here: systemctl where
	 * systemd is PID 1, the service command without it
	 * (platform.systemd read PID 1's name). */
	if (f->pid1)
		res_ev(r, "pid1_systemd", "%s", !strcmp(f->pid1, "systemd") ? "yes" : "no");
	if (f->no_socket) {
		res_ev(r, "docker_socket", "%s: no such file (docker info was not run: with no "
		       "DOCKER_HOST and no docker context, the CLI dials this socket)", f->no_socket);
		res_ev(r, "docker_error", "no socket at %s", f->no_socket);
		findings_add(fs, ST_WARN, KB_CONTAINERS_DOCKER_DAEMON_DOWN,
			    "no Docker daemon: nothing at %s, the socket docker connects to",
			    f->no_socket);
		res_ev(r, "engine", "%s", f->cli_link ? "Docker Desktop (by its CLI link)" : "unknown");
		return;
	}
	struct strbuf ft = STRBUF_INIT;
	failure_text(f->di, c->pr, &ft);
	char line[256];
	first_line(ft.buf ? ft.buf : "", ft.len, line, sizeof line);
	if (line[0])
		res_ev(r, "docker_error", "%s", line);
	const struct kb_entry *e =
		ft.len ? explain_best(explain_db_builtin(), "containers.docker.", ft.buf, ft.len)
		       : NULL;
	if (c->rc < 0 || c->pr->end == PROC_EXEC_FAILED) {
		findings_add(fs, ST_WARN, KB_CONTAINERS_DOCKER_INFO_FAILED, "cannot run %s: %s",
			    f->docker, strerror(c->rc < 0 ? -c->rc : c->pr->code));
	} else if (c->pr->end == PROC_TIMEOUT) {
		res_ev(r, "limit", "%.1f s", c->limit_ms / 1000.0);
		findings_add(fs, ST_WARN, KB_CONTAINERS_DOCKER_HANG,
			    "docker info did not answer within %.1f s", c->limit_ms / 1000.0);
	} else if (e) {
		findings_add(fs, ST_WARN, e->id, "%s", line[0] ? line : e->title);
	} else {
		struct strbuf d = STRBUF_INIT;
		proc_describe_end(c->pr, &d);
		findings_add(fs, ST_WARN, KB_CONTAINERS_DOCKER_INFO_FAILED, "docker info %s%s%s",
			    d.buf, line[0] ? ": " : "", line);
		sb_release(&d);
	}
	res_ev(r, "engine", "%s", f->cli_link ? "Docker Desktop (by its CLI link)" : "unknown");
	sb_release(&ft);
}

/* What docker info says of the engine. */
static void engine_evidence(const struct dockerinfo *di, struct result *r)
{
	res_ev(r, "server_version", "%s", di->server_version);
	res_ev(r, "operating_system", "%s", di->os);
	if (di->name[0])
		res_ev(r, "engine_name", "%s", di->name);
	if (di->kernel[0])
		res_ev(r, "engine_kernel", "%s", di->kernel);
	res_ev(r, "engine", "%s", di->desktop ? "Docker Desktop" : "docker engine in this "
	       "distribution");
	struct strbuf rt = STRBUF_INIT;
	for (size_t i = 0; i < di->nruntimes; i++)
		sb_addf(&rt, "%s%s", i ? " " : "", di->runtimes[i]);
	res_ev(r, "runtimes", "%s", rt.len ? rt.buf : "(none)");
	sb_release(&rt);
	if (di->default_runtime[0])
		res_ev(r, "default_runtime", "%s", di->default_runtime);
	for (size_t i = 0; i < di->ncdi_dirs; i++)
		res_ev(r, "cdi_dir", "%s", di->cdi_dirs[i]);
	if (di->rootless)
		res_ev(r, "rootless", "yes");
}

/* /etc/docker/daemon.json: its runtimes as evidence; returns whether it
 * registers one named nvidia. */
static bool daemon_json_evidence(const struct docker_facts *f, struct result *r)
{
	bool nvidia = false;
	if (!f->daemon_json)
		return false;
	struct js_val obj, v, k, e;
	if (js_parse_all(f->daemon_json, f->daemon_json_len, &obj) < 0 || obj.type != JS_OBJECT) {
		res_ev(r, "daemon_json", "/etc/docker/daemon.json is not valid JSON (dockerd refuses "
		       "to start with it)");
		return false;
	}
	struct strbuf names = STRBUF_INIT, one = STRBUF_INIT;
	if (js_object_get(&obj, "runtimes", &v) == 0 && v.type == JS_OBJECT) {
		size_t pos = 0;
		while (js_object_next(&v, &pos, &k, &e) == 1) {
			if (js_string(&k, &one) < 0)
				continue;
			if (!strcmp(one.buf, "nvidia"))
				nvidia = true;
			sb_addf(&names, "%s%s", names.len ? " " : "", one.buf);
		}
	}
	if (js_object_get(&obj, "default-runtime", &v) == 0 && js_string(&v, &one) == 0)
		res_ev(r, "daemon_json_default_runtime", "%s", one.buf);
	res_ev(r, "daemon_json", "/etc/docker/daemon.json: runtimes %s",
	       names.len ? names.buf : "(none)");
	sb_release(&names);
	sb_release(&one);
	return nvidia;
}

/* Can this daemon give a container the GPU, as far as its configuration
 * shows? nvidia_runtime: a runtime named nvidia is registered. */
static void judge_engine(const struct docker_facts *f, bool nvidia_runtime, bool nvidia_cdi,
			 struct result *r, struct findings *fs)
{
	const struct dockerinfo *di = f->di;
	bool hook = f->toolkit[NCT_RUNTIME_HOOK] || f->toolkit[NCT_CDI_HOOK];
	if (di->desktop) {
		if (res_get(r, "toolkit_binary"))
			res_ev(r, "note", "the NVIDIA Container Toolkit in this distribution is not "
			       "used by Docker Desktop, whose engine runs in its own distribution");
		if (dockerinfo_has_runtime(di, "nvidia"))
			findings_add(fs, ST_PASS, NULL, "Docker Desktop (engine %s) with the nvidia "
				    "runtime: GPU containers work with --gpus all", di->server_version);
		else if (f->image) /* the container started below decides */
			findings_add(fs, ST_PASS, NULL, "Docker Desktop (engine %s): GPU support is "
				    "built into its WSL2 backend", di->server_version);
		else
			/* documented, but not seen: unknown until a container runs */
			findings_add(fs, ST_UNKNOWN, KB_CONTAINERS_DOCKER_DESKTOP_UNVERIFIED,
				    "Docker Desktop (engine %s): GPU support is built into its WSL2 "
				    "backend; it cannot be confirmed without starting a container "
				    "(--docker-image)", di->server_version);
	} else if (!hook && !nvidia_runtime && !nvidia_cdi) {
		findings_add(fs, ST_WARN, KB_CONTAINERS_DOCKER_NO_TOOLKIT,
			    "docker %s runs in this distribution without the NVIDIA Container "
			    "Toolkit: docker run --gpus all will fail", di->server_version);
	} else if (nvidia_runtime && !hook && !f->toolkit[NCT_RUNTIME]) {
		findings_add(fs, ST_WARN, KB_CONTAINERS_DOCKER_RUNTIME_MISSING,
			    "the nvidia runtime is registered but nvidia-container-runtime is "
			    "not installed");
	} else if (!hook) {
		findings_add(fs, ST_WARN, KB_CONTAINERS_DOCKER_NO_TOOLKIT,
			    "docker %s: no nvidia-container-runtime-hook or nvidia-cdi-hook on "
			    "PATH, so --gpus cannot select the NVIDIA device driver",
			    di->server_version);
	} else {
		findings_add(fs, ST_PASS, NULL, "docker %s in this distribution with the "
			    "NVIDIA Container Toolkit%s", di->server_version,
			    nvidia_runtime ? " (nvidia runtime registered)" : "");
	}
}

/* How libnvidia-container sees the GPU. */
static void judge_nvcli(const struct docker_facts *f, struct result *r, struct findings *fs)
{
	const struct docker_cmd *c = &f->nvcli;
	const struct proc_result *np = c->pr;
	struct strbuf all = STRBUF_INIT;
	sb_addn(&all, np->out.buf ? np->out.buf : "", np->out.len);
	sb_addc(&all, '\n');
	sb_addn(&all, np->err.buf ? np->err.buf : "", np->err.len);
	struct nvcli_info ni;
	nvcli_info_parse(all.buf, all.len, &ni);
	if (c->rc == 0 && np->end == PROC_TIMEOUT) {
		res_ev(r, "nvcli_limit", "%.1f s", c->limit_ms / 1000.0);
		findings_add(fs, ST_FAIL, KB_CONTAINERS_NVCLI_HANG,
			    "nvidia-container-cli info did not finish within %.1f s",
			    c->limit_ms / 1000.0);
	} else if (c->rc == 0 && np->end == PROC_EXITED && np->code == 0 && ni.nvrm[0]) {
		res_ev(r, "nvcli", "NVRM %s, CUDA %s, %d device%s%s%s", ni.nvrm,
		       ni.cuda[0] ? ni.cuda : "?", ni.devices, ni.devices == 1 ? "" : "s",
		       ni.model[0] ? ": " : "", ni.model);
	} else {
		const struct kb_entry *e = explain_best(explain_db_builtin(), "containers.",
							all.buf, all.len);
		char line[256];
		if (ni.error[0])
			snprintf(line, sizeof line, "%s", ni.error);
		else
			first_line(all.buf, all.len, line, sizeof line);
		res_ev(r, "nvcli_error", "%s", line);
		findings_add(fs, ST_FAIL, e ? e->id : KB_CONTAINERS_NVCLI_FAILED,
			    "nvidia-container-cli info: %s", line[0] ? line : "failed");
	}
	sb_release(&all);
}

/* The opt-in smoke test: docker run --gpus all IMAGE nvidia-smi. */
static void judge_gpu_run(const struct docker_facts *f, struct result *r, struct findings *fs)
{
	const char *image = f->image;
	res_ev(r, "image", "%s", image);
	if (!f->run.ran) {
		res_ev(r, "gpu_run", "not run: the daemon did not answer");
		return;
	}
	const struct proc_result *rp = f->run.pr;
	struct strbuf all = STRBUF_INIT;
	sb_addn(&all, rp->err.buf ? rp->err.buf : "", rp->err.len);
	sb_addc(&all, '\n');
	sb_addn(&all, rp->out.buf ? rp->out.buf : "", rp->out.len);
	bool ok = f->run.rc == 0 && rp->end == PROC_EXITED && rp->code == 0 &&
		  (memmem(rp->out.buf ? rp->out.buf : "", rp->out.len, "NVIDIA-SMI", 10) ||
		   memmem(rp->out.buf ? rp->out.buf : "", rp->out.len, "Driver Version", 14));
	if (ok) {
		res_ev(r, "gpu_run", "docker run --gpus all %s nvidia-smi: works", image);
		findings_add(fs, ST_PASS, NULL, "docker run --rm --gpus all %s nvidia-smi works",
			    image);
	} else if (f->run.rc == 0 && rp->end == PROC_TIMEOUT) {
		res_ev(r, "run_limit", "%.1f s", f->run.limit_ms / 1000.0);
		findings_add(fs, ST_FAIL, KB_CONTAINERS_DOCKER_RUN_TIMEOUT,
			    "docker run --gpus all %s did not finish within %.1f s", image,
			    f->run.limit_ms / 1000.0);
	} else {
		const struct kb_entry *e = explain_best(explain_db_builtin(), "containers.",
							all.buf, all.len);
		char line[256];
		first_line(all.buf, all.len, line, sizeof line);
		res_ev_text(r, "gpu_run_output", all.buf, 1500);
		struct strbuf d = STRBUF_INIT;
		proc_describe_end(rp, &d);
		res_ev(r, "gpu_run", "docker run %s", d.buf);
		sb_release(&d);
		findings_add(fs, ST_FAIL, e ? e->id : KB_CONTAINERS_DOCKER_GPU_RUN_FAILED,
			    "docker run --gpus all %s failed: %s", image,
			    line[0] ? line : "(no output)");
	}
	sb_release(&all);
}

void judge_docker(const struct docker_facts *f, struct result *r)
{
	if (!f->docker) {
		judge_no_docker(f, r);
		return;
	}
	struct findings fs = FINDINGS_INIT;
	res_ev(r, "docker", "%s", f->docker);
	if (f->wsl)
		res_ev(r, "on_wsl", "yes"); /* Docker Desktop is advice only there */
	if (f->docker_host)
		res_ev(r, "DOCKER_HOST", "%s", f->docker_host);
	if (f->cli_link)
		res_ev(r, "docker_link", "%s (Docker Desktop's WSL integration)", f->cli_link);
	bool reachable = docker_reachable(&f->info, f->di);
	if (reachable)
		engine_evidence(f->di, r);
	else
		judge_info_failure(f, r, &fs);

	/* The toolkit, as dockerd in this distribution would find it. */
	for (size_t i = 0; i < NCT__COUNT; i++)
		if (f->toolkit[i])
			res_ev(r, "toolkit_binary", "%s", f->toolkit[i]);
	bool json_nvidia = daemon_json_evidence(f, r);
	bool nvidia_cdi = false;
	for (size_t i = 0; i < f->ncdi; i++) {
		res_ev(r, "cdi_spec", "%s%s", f->cdi[i].path,
		       f->cdi[i].nvidia ? " (nvidia.com/gpu)" : "");
		nvidia_cdi |= f->cdi[i].nvidia;
	}
	if (reachable)
		judge_engine(f, dockerinfo_has_runtime(f->di, "nvidia") || json_nvidia, nvidia_cdi,
			     r, &fs);
	if (f->stale_path) {
		res_ev(r, "stale_path", "%s", f->stale_path);
		res_ev(r, "cdi_file", "%s", f->stale_file);
		findings_add(&fs, ST_WARN, KB_CONTAINERS_CDI_STALE,
			    "the CDI spec %s names %s, which no longer exists (the Windows driver was "
			    "updated)", f->stale_file, f->stale_path);
	}
	if (f->nvcli.ran)
		judge_nvcli(f, r, &fs);
	if (f->image)
		judge_gpu_run(f, r, &fs);
	if (!fs.n)
		findings_add(&fs, ST_PASS, NULL, "docker is installed");
	findings_settle(r, &fs);
}

/* ---- the collector: the CLI, its commands, the files ---- */

/* Every /usr/lib/wsl/drivers/<dir> a spec names must exist: a Windows
 * driver update replaces the driver-store folder (case D08). The first
 * one missing goes to stale_path, its spec to stale_file. */
static void check_spec_paths(const char *file, const char *t, size_t n, struct strbuf *stale_path,
			     struct strbuf *stale_file)
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
			if (rootfs_stat(dir, &st) < 0 && !stale_path->len) {
				sb_addf(stale_path, "%.255s", dir);
				sb_addf(stale_file, "%.255s", file);
			}
		}
		p = e;
	}
}

/* What containers.docker read and ran, and the facts that point into it. */
struct docker_collect {
	struct docker_facts f;
	struct strbuf guest, host, link, tool[NCT__COUNT], daemon_json, stale_path, stale_file;
	struct proc_result info, nvcli, run;
	struct dockerinfo di;
	struct cdi_spec cdi[64];
	char *cdi_paths[64];
};

static void scan_cdi_dir(const char *dir, struct docker_collect *c)
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
		bool nv = memmem(t.buf, t.len, "nvidia.com/gpu", 14) != NULL;
		size_t k = c->f.ncdi++;
		c->cdi_paths[k] = xstrdup(p.buf);
		c->cdi[k] = (struct cdi_spec){ c->cdi_paths[k], nv };
		if (nv)
			check_spec_paths(p.buf, t.buf, t.len, &c->stale_path, &c->stale_file);
	}
	closedir(d);
	sb_release(&p);
	sb_release(&t);
}

/*
 * The socket the docker CLI would dial, when nothing is there: then docker
 * info (a Go program: 40-70 ms of start-up, most of check's wall time on a
 * machine with the CLI and no daemon) could only say that it found none.
 * Only where the answer is certain: no DOCKER_HOST, no DOCKER_CONTEXT, no
 * current context in the CLI's config.json but "default" (any of them may
 * name another endpoint: rootless docker, a remote engine), the CLI a
 * compiled program (an ELF file: podman-docker's `docker` is a script that
 * runs podman, which needs no daemon), and nothing at all, not even a
 * dangling link, at /var/run/docker.sock, the default endpoint on Linux
 * (where Docker Desktop's WSL integration puts its socket too:
 * https://github.com/docker/for-win/issues/14686). Returns the path, or
 * NULL: run docker info.
 */
static const char *docker_socket_absent(const char *cli)
{
	static const char sock[] = "/var/run/docker.sock";
	if (getenv("DOCKER_HOST") || getenv("DOCKER_CONTEXT"))
		return NULL;
	struct strbuf cfg = STRBUF_INIT, text = STRBUF_INIT, ctx = STRBUF_INIT;
	const char *dir = getenv("DOCKER_CONFIG"), *home = getenv("HOME");
	bool sure = false;
	if (dir && dir[0] == '/')
		sb_addf(&cfg, "%s/config.json", dir);
	else if (!dir && home && home[0] == '/')
		sb_addf(&cfg, "%s/.docker/config.json", home);
	if (cfg.len) {
		int rc = rootfs_read(cfg.buf, 1 << 20, &text, NULL);
		struct js_val obj, v;
		if (rc == -ENOENT)
			sure = true;
		else if (rc == 0 && js_parse_all(text.buf, text.len, &obj) == 0 &&
			 obj.type == JS_OBJECT)
			sure = js_object_get(&obj, "currentContext", &v) < 0 ||
			       (js_string(&v, &ctx) == 0 && (!ctx.len || !strcmp(ctx.buf, "default")));
	}
	if (sure) {
		struct stat st;
		char magic[4] = { 0 };
		int fd = rootfs_open_regular(cli, &st);
		sure = fd >= 0 && pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
		       !memcmp(magic, "\177ELF", 4);
		if (fd >= 0)
			close(fd);
	}
	if (sure) {
		struct stat st;
		sure = rootfs_lstat(sock, &st) == -ENOENT;
	}
	sb_release(&cfg);
	sb_release(&text);
	sb_release(&ctx);
	return sure ? sock : NULL;
}

/* The time limits of docker's commands, from the probe's own. */
struct docker_limits {
	int usable, info, cli;
};

static void docker_limits(const struct probe_ctx *ctx, bool image, struct docker_limits *l)
{
	int timeout = ctx->opts && ctx->opts->timeout_ms > 0 ? ctx->opts->timeout_ms : 10000;
	l->usable = (timeout - 300) * 9 / 10;
	l->info = image ? l->usable / 4 : l->usable / 2;
	l->cli = image ? l->usable / 8 : l->usable / 3;
	if (l->info < 200)
		l->info = 200;
	if (l->cli < 200)
		l->cli = 200;
}

static void collect_docker(struct probe_ctx *ctx, struct result *r, struct docker_collect *c)
{
	memset(c, 0, sizeof *c);
	struct docker_facts *f = &c->f;
	f->wsl = probe_is_wsl2(ctx);
	if (rootfs_which("docker", &c->guest, &c->host, NULL) < 0) {
		if (f->wsl && (desktop_link("/usr/bin", &c->link) ||
			       desktop_link("/usr/local/bin", &c->link)))
			f->desktop_link = c->link.buf;
		struct stat st;
		f->desktop_mount = f->wsl && rootfs_stat("/mnt/wsl/docker-desktop", &st) == 0;
		return;
	}
	f->docker = c->guest.buf;
	f->docker_host = getenv("DOCKER_HOST");
	if (rootfs_readlink(c->guest.buf, &c->link) == 0 && strstr(c->link.buf, "docker-desktop"))
		f->cli_link = c->link.buf;
	f->pid1 = probe_dep_get(ctx, "platform.systemd", "pid1");
	f->image = ctx->opts ? ctx->opts->docker_image : NULL;
	struct docker_limits lim;
	docker_limits(ctx, f->image != NULL, &lim);
	double t0 = now_ms();

	proc_result_init(&c->info);
	f->no_socket = docker_socket_absent(c->guest.buf);
	if (!f->no_socket) {
		const char *info_argv[] = { c->host.buf, "info", "--format", "{{json .}}", NULL };
		f->info = (struct docker_cmd){ true, 0, &c->info, lim.info };
		f->info.rc = run_cmd(ctx, r, info_argv, lim.info, &c->info,
				     "docker info --format '{{json .}}'");
	} else {
		f->info = (struct docker_cmd){ false, -ENOENT, &c->info, lim.info };
	}
	dockerinfo_parse(c->info.out.buf, c->info.out.len, &c->di);
	f->di = &c->di;
	bool reachable = docker_reachable(&f->info, &c->di);

	static const char *const tools[NCT__COUNT] = {
		"nvidia-container-runtime-hook", "nvidia-cdi-hook", "nvidia-container-runtime",
		"nvidia-ctk", "nvidia-container-cli"
	};
	for (size_t i = 0; i < NCT__COUNT; i++)
		if (has(tools[i], &c->tool[i]))
			f->toolkit[i] = c->tool[i].buf;
	if (rootfs_read("/etc/docker/daemon.json", 1 << 20, &c->daemon_json, NULL) == 0) {
		f->daemon_json = sb_str(&c->daemon_json);
		f->daemon_json_len = c->daemon_json.len;
	}
	scan_cdi_dir("/etc/cdi", c);
	scan_cdi_dir("/var/run/cdi", c);
	f->cdi = c->cdi;
	f->stale_path = c->stale_path.len ? c->stale_path.buf : NULL;
	f->stale_file = c->stale_file.len ? c->stale_file.buf : NULL;

	/* How libnvidia-container sees the GPU (not for Docker Desktop). */
	bool desktop = reachable ? c->di.desktop : f->cli_link != NULL;
	if (f->toolkit[NCT_CLI] && !(reachable && desktop)) {
		struct strbuf ncg = STRBUF_INIT, nch = STRBUF_INIT;
		if (rootfs_which("nvidia-container-cli", &ncg, &nch, NULL) == 0) {
			const char *argv[] = { nch.buf, "info", NULL };
			proc_result_init(&c->nvcli);
			f->nvcli = (struct docker_cmd){ true, 0, &c->nvcli, lim.cli };
			f->nvcli.rc = run_cmd(ctx, r, argv, lim.cli, &c->nvcli,
					      "nvidia-container-cli info");
		}
		sb_release(&ncg);
		sb_release(&nch);
	}

	/* The opt-in smoke test, with what is left of the time. */
	if (f->image && reachable) {
		int left = lim.usable - (int)(now_ms() - t0);
		if (left < 500)
			left = 500;
		const char *argv[] = { c->host.buf, "run", "--rm", "--gpus", "all", f->image,
				       "nvidia-smi", NULL };
		struct strbuf step = STRBUF_INIT;
		sb_addf(&step, "docker run --rm --gpus all %s nvidia-smi", f->image);
		proc_result_init(&c->run);
		f->run = (struct docker_cmd){ true, 0, &c->run, left };
		f->run.rc = run_cmd(ctx, r, argv, left, &c->run, step.buf);
		sb_release(&step);
	}
}

static void docker_collect_release(struct docker_collect *c)
{
	sb_release(&c->guest);
	sb_release(&c->host);
	sb_release(&c->link);
	for (size_t i = 0; i < NCT__COUNT; i++)
		sb_release(&c->tool[i]);
	sb_release(&c->daemon_json);
	sb_release(&c->stale_path);
	sb_release(&c->stale_file);
	proc_result_release(&c->info);
	if (c->f.nvcli.ran)
		proc_result_release(&c->nvcli);
	if (c->f.run.ran)
		proc_result_release(&c->run);
	for (size_t i = 0; i < c->f.ncdi; i++)
		free(c->cdi_paths[i]);
}

static void probe_docker(struct probe_ctx *ctx, struct result *r)
{
	struct docker_collect c;
	collect_docker(ctx, r, &c);
	judge_docker(&c.f, r);
	docker_collect_release(&c);
}

const struct check_def containers_checks[] = {
	{ "containers.docker", "containers", "Docker GPU support", "docker engine, NVIDIA runtime or CDI spec, without starting a container", { "platform.kind", "platform.systemd" }, probe_docker, CHECK_COMMANDS },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
