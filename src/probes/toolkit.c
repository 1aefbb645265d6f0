/*
 * toolkit.c: the CUDA toolkit (nvcc) and the distribution's GPU packages.
 *
 * toolkit.nvcc finds every toolkit on the machine — the nvcc PATH picks,
 * $CUDA_HOME/$CUDA_PATH, /usr/local/cuda and /usr/local/cuda-*, /opt/cuda —
 * reads each version from version.json / version.txt or `nvcc --version`,
 * and compares the one PATH picks with the CUDA version the driver
 * supports (cuda.init's driver_cuda_version, else nvidia-smi's). Minor-
 * version compatibility (CUDA Compatibility guide): code built with any
 * 12.x toolkit runs on any driver of the 12 family (>= 525), so only a
 * newer *major* fails; a newer minor works except for PTX JIT and new
 * features, which is a warning. No toolkit is a pass: PyTorch and
 * TensorFlow wheels bring their own runtime; a toolkit is needed only to
 * compile CUDA code (FACTS.md).
 *
 * toolkit.packages reads dpkg's status database and apt's sources, with
 * no apt or dpkg run: a Linux display driver, libnvidia-compute-* (a Linux
 * libcuda), nvidia-utils-* (a Linux nvidia-smi) or the cuda / cuda-12-x /
 * cuda-drivers meta-packages that pull them in must not be installed in
 * WSL (NVIDIA's CUDA on WSL guide); NVIDIA's wsl-ubuntu repository is the
 * right one there, a native-distribution CUDA repository a risk. pip and
 * conda CUDA runtime packages are listed as evidence only.
 *
 * toolkit.nvcc waits for cuda.init, nvml.smi and host.driver ("after:" deps) only to
 * read the driver's CUDA version; it runs whatever their status.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/path.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../parse/aptsources.h"
#include "../parse/cudaver.h"
#include "../parse/dpkgstatus.h"
#include "../parse/nvccver.h"
#include "../kb/driver_table.h"
#include "../kb/versions.h"
#include "probes.h"
#include "toolkit_judge.h"
#include "kb_ids.h"

static bool is_dir(const char *guest)
{
	struct stat st;
	return rootfs_stat(guest, &st) == 0 && S_ISDIR(st.st_mode);
}

static void add_toolkit(struct toolkit *tk, size_t *n, const char *dir)
{
	if (*n >= MAX_TOOLKITS || !dir || dir[0] != '/' || !is_dir(dir))
		return;
	struct strbuf real = STRBUF_INIT;
	rootfs_realpath(dir, &real, NULL);
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(tk[i].real, real.buf)) {
			sb_release(&real);
			return;
		}
	struct strbuf nv = STRBUF_INIT;
	sb_addf(&nv, "%s/bin/nvcc", dir);
	struct stat st;
	bool has = rootfs_stat(nv.buf, &st) == 0 && S_ISREG(st.st_mode);
	sb_release(&nv);
	/* A bare /usr/local/cuda-x.y with neither nvcc nor version file is a
	 * leftover of an uninstall: not a toolkit. */
	struct strbuf vf = STRBUF_INIT, txt = STRBUF_INIT;
	char ver[32] = "";
	const char *how = NULL;
	static const char *const files[] = { "version.json", "version.txt" };
	for (size_t f = 0; f < 2 && !ver[0]; f++) {
		sb_reset(&vf);
		sb_addf(&vf, "%s/%s", dir, files[f]);
		if (rootfs_read(vf.buf, 1 << 20, &txt, NULL) == 0 &&
		    cudaver_toolkit_parse(txt.buf, txt.len, ver, sizeof ver) == 0)
			how = files[f];
	}
	sb_release(&vf);
	sb_release(&txt);
	if (!has && !ver[0]) {
		sb_release(&real);
		return;
	}
	tk[*n].dir = xstrdup(dir);
	tk[*n].real = sb_detach(&real);
	tk[*n].version = ver[0] ? xstrdup(ver) : NULL;
	tk[*n].how = how ? xstrdup(how) : NULL;
	tk[*n].has_nvcc = has;
	tk[*n].on_path = false;
	(*n)++;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs nvcc --version; fills ver on success, error (how it failed) else. */
static void nvcc_version(struct probe_ctx *ctx, const char *guest, const char *host, int limit_ms,
			 char *ver, size_t n, struct result *r, struct strbuf *error)
{
	probe_step(ctx, "%s --version", guest);
	const char *argv[] = { host, "--version", NULL };
	struct proc_opts po = { .timeout_ms = limit_ms, .cap = 64 << 10 };
	struct proc_result pr;
	proc_result_init(&pr);
	if (probe_run(ctx, r, argv, &po, &pr) == 0) {
		if (nvccver_parse(pr.out.buf, pr.out.len, ver, n) < 0) {
			struct strbuf d = STRBUF_INIT;
			proc_describe_end(&pr, &d);
			sb_addf(error, "%s --version %s and printed no version", guest, d.buf);
			sb_release(&d);
		}
	}
	proc_result_release(&pr);
}

/* The CUDA version the driver supports, from the layers that asked it. */
static const char *driver_cuda(struct probe_ctx *ctx, const char **from)
{
	static const struct { const char *id, *key; } srcs[] = {
		{ "cuda.init", "driver_cuda_version" },
		{ "nvml.smi", "cuda_version" },
		{ "nvml.devices", "cuda_version" },
		{ "nvml.smi", "driver_cuda_version" },
		{ "host.driver", "driver_cuda_max" }, /* the driver's branch, NVIDIA's table */
	};
	for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
		const char *v = probe_dep_get(ctx, srcs[i].id, srcs[i].key);
		if (v && cudaver_from_string(v) > 0) {
			*from = srcs[i].id;
			return v;
		}
	}
	return NULL;
}

/* The myth of a special WSL toolkit path (FACTS.md, "Myths"): where it
 * is named ("$PATH", "/usr/local/cuda-wsl"), or NULL. */
static const char *cuda_wsl_myth(void)
{
	static const char *const vars[] = { "$PATH", "$CUDA_HOME", "$CUDA_PATH",
					    "$LD_LIBRARY_PATH" };
	for (size_t i = 0; i < 4; i++) {
		const char *v = getenv(vars[i] + 1);
		if (v && strstr(v, "cuda-wsl"))
			return vars[i];
	}
	if (is_dir("/usr/local/cuda-wsl"))
		return "/usr/local/cuda-wsl";
	if (is_dir("/opt/cuda-wsl"))
		return "/opt/cuda-wsl";
	return NULL;
}

/* ---- toolkit.nvcc's judge: facts in, result out, no I/O ---- */

/* The toolkit in use: PATH's nvcc, else CUDA_HOME's, else the newest. */
static const struct toolkit *toolkit_in_use(const struct nvcc_facts *f)
{
	const struct toolkit *use = f->picked;
	for (size_t i = 0; i < f->n && !use; i++)
		if (f->env[0] && !strcmp(f->tk[i].dir, f->env[0]))
			use = &f->tk[i];
	if (use)
		return use;
	for (size_t i = 0; i < f->n; i++)
		if (!use || (f->tk[i].version &&
			     (!use->version || cudaver_from_string(f->tk[i].version) >
						       cudaver_from_string(use->version))))
			use = &f->tk[i];
	return use;
}

static void nvcc_evidence(const struct nvcc_facts *f, struct result *r)
{
	static const char *const vars[] = { "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT" };
	if (f->nvcc)
		res_ev(r, "nvcc", "%s%s", f->nvcc, f->nvcc_on_path ? "" : " (not on PATH)");
	for (size_t i = 0; i < 3; i++)
		if (f->env[i])
			res_ev(r, vars[i], "%s", f->env[i]);
	if (f->nvcc_error)
		res_ev(r, "nvcc_error", "%s", f->nvcc_error);
	for (size_t i = 0; i < f->n; i++) {
		const struct toolkit *t = &f->tk[i];
		bool link = strcmp(t->dir, t->real) != 0;
		res_ev(r, "toolkit", "%s%s%s: CUDA %s%s%s%s%s", t->dir, link ? " -> " : "",
		       link ? t->real : "", t->version ? t->version : "(version unknown)",
		       t->how ? " (" : "", t->how ? t->how : "", t->how ? ")" : "",
		       t->has_nvcc ? "" : ", no bin/nvcc");
	}
	if (f->n)
		res_ev(r, "toolkits", "%zu", f->n);
	if (f->driver_cuda) {
		res_ev(r, "driver_cuda", "%s", f->driver_cuda);
		res_ev(r, "driver_cuda_from", "%s", f->driver_cuda_from);
	}
	if (f->myth_in)
		res_ev(r, "myth_in", "%s", f->myth_in);
}

/* Where the driver a toolkit needs is installed: "windows" (WSL2, and
 * containers in it), "host" (a container), "linux"; NULL when unknown. */
static const char *driver_home(const char *platform)
{
	if (!platform)
		return NULL;
	if (!strcmp(platform, "wsl2") || !strcmp(platform, "container-in-wsl2"))
		return "windows";
	if (!strcmp(platform, "container"))
		return "host";
	if (!strcmp(platform, "native"))
		return "linux";
	return NULL;
}

/* The toolkit against the driver; also: the other toolkits installed. */
static void nvcc_verdict(const struct nvcc_facts *f, const struct toolkit *use, const char *also,
			 struct result *r)
{
	int tv = use->version ? cudaver_from_string(use->version) : -1;
	int dv = f->driver_cuda ? cudaver_from_string(f->driver_cuda) : -1;
	bool home_mismatch = f->cuda_home_real && strcmp(f->cuda_home_real, use->real) != 0;
	char tvs[16], dvs[16];
	cudaver_format(tv, tvs, sizeof tvs);
	cudaver_format(dv, dvs, sizeof dvs);
	if (tv > 0 && dv > 0 && tv / 1000 > dv / 1000) {
		res_ev(r, "toolkit_major", "%d", tv / 1000);
		/* A driver reports the CUDA it supports (R565: 12.7), which need
		 * not be a released toolkit: name the newest one that is. */
		char rel[16];
		if (cuda_released_upto(dv / 1000, (dv % 1000) / 10, rel, sizeof rel) == 0) {
			char *dot = strchr(rel, '.');
			if (dot)
				*dot = '-';
			res_ev(r, "driver_toolkit_pkg", "cuda-toolkit-%s", rel);
		}
		/* Where the driver is updated: Windows for WSL, the host for a
		 * container, this system on native Linux. */
		const char *on = driver_home(f->platform);
		if (on)
			res_ev(r, "driver_on", "%s", on);
		const char *fam = cuda_family_min_driver(tv / 1000, false);
		if (fam)
			res_ev(r, "toolkit_family_min", "%s", fam);
		res_set(r, ST_FAIL, KB_TOOLKIT_NVCC_DRIVER_TOO_OLD,
			"CUDA %s toolkit at %s, but the driver supports only CUDA %s: programs it "
			"builds cannot run%s", tvs, use->real, dvs, also);
	} else if (tv > 0 && dv > 0 && tv > dv) {
		res_set(r, ST_WARN, KB_TOOLKIT_NVCC_MINOR_COMPAT,
			"CUDA %s toolkit at %s on a driver for CUDA %s: its programs run by minor-"
			"version compatibility, but PTX it builds cannot be JIT-compiled%s", tvs,
			use->real, dvs, also);
	} else if (f->myth_in) {
		res_set(r, ST_WARN, KB_TOOLKIT_NVCC_CUDA_WSL_MYTH,
			"%s names /usr/local/cuda-wsl, which NVIDIA never shipped (the toolkit is at %s)",
			f->myth_in, use->real);
	} else if (!f->picked || !f->picked->on_path) {
		res_ev(r, "bin", "%s/bin", use->dir);
		res_set(r, ST_WARN, KB_TOOLKIT_NVCC_NOT_ON_PATH,
			"CUDA %s toolkit at %s, but nvcc is not on PATH%s",
			use->version ? use->version : "", use->real, also);
	} else if (home_mismatch) {
		res_set(r, ST_WARN, KB_TOOLKIT_NVCC_CUDA_HOME_MISMATCH,
			"nvcc on PATH is CUDA %s (%s) but CUDA_HOME is %s: builds mix two toolkits",
			use->version ? use->version : "?", use->real, f->env[0]);
	} else if (tv > 0 && dv > 0) {
		res_set(r, ST_PASS, NULL, "CUDA %s (nvcc %s); the driver supports CUDA %s%s",
			use->version, f->nvcc, dvs, also);
	} else if (!use->version && f->nvcc_error) {
		/* An nvcc that hangs, crashes or prints junk is no working toolkit. */
		res_set(r, ST_WARN, KB_TOOLKIT_NVCC_BROKEN, "%s", f->nvcc_error);
	} else {
		/* Whether the driver supports this toolkit is half of the check:
		 * without the driver's CUDA version (or the toolkit's) it could
		 * not be found out. */
		if (!use->version)
			res_set(r, ST_UNKNOWN, NULL, "a CUDA toolkit at %s (nvcc %s) whose version is "
				"unknown: whether the driver supports it is too%s", use->real,
				f->nvcc ? f->nvcc : use->dir, also);
		else
			res_set(r, ST_UNKNOWN, NULL, "CUDA %s (nvcc %s); the driver's CUDA version is "
				"unknown%s", use->version, f->nvcc ? f->nvcc : use->dir, also);
	}
}

void judge_nvcc(const struct nvcc_facts *f, struct result *r)
{
	nvcc_evidence(f, r);
	if (!f->n) {
		if (f->myth_in)
			res_set(r, ST_WARN, KB_TOOLKIT_NVCC_CUDA_WSL_MYTH,
				"no CUDA toolkit; %s names /usr/local/cuda-wsl, which NVIDIA never shipped",
				f->myth_in);
		else
			res_set(r, ST_PASS, KB_TOOLKIT_NVCC_NONE,
				"no CUDA toolkit (not needed to run PyTorch or TensorFlow: their wheels "
				"bring the CUDA runtime; install one only to compile CUDA code)");
		return;
	}
	const struct toolkit *use = toolkit_in_use(f);
	res_ev(r, "toolkit_dir", "%s", use->real);
	if (use->version)
		res_ev(r, "toolkit_version", "%s", use->version);
	struct strbuf known = STRBUF_INIT;
	if (versions_newer("cuda", use->version, &known))
		res_ev(r, "toolkit_known", "%s", known.buf);
	sb_release(&known);
	struct strbuf others = STRBUF_INIT;
	for (size_t i = 0; i < f->n; i++)
		if (&f->tk[i] != use)
			sb_addf(&others, "%s%s %s%s", others.len ? ", " : "",
				f->tk[i].version ? f->tk[i].version : "?", f->tk[i].real,
				f->tk[i].has_nvcc ? "" : " (no nvcc)");
	char also[512] = "";
	if (others.len)
		snprintf(also, sizeof also, "; also installed: %s", others.buf);
	sb_release(&others);
	nvcc_verdict(f, use, also, r);
}

/* ---- toolkit.nvcc's collector ---- */

/* What toolkit.nvcc read, and the facts that point into it. */
struct nvcc_collect {
	struct nvcc_facts f;
	struct toolkit tk[MAX_TOOLKITS];
	struct strbuf guest, host, nvcc_error, home_real;
};

/* Every toolkit: PATH's nvcc's, $CUDA_HOME and its kin, /usr/local/cuda,
 * /usr/local/cuda-*, /opt/cuda. Returns nvcc's realpath in path_real. */
static void find_toolkits(struct nvcc_collect *c, char *path_real, size_t path_real_size)
{
	struct nvcc_facts *f = &c->f;
	struct strbuf d = STRBUF_INIT;
	if (f->nvcc) {
		struct strbuf rr = STRBUF_INIT;
		rootfs_realpath(f->nvcc, &rr, NULL);
		snprintf(path_real, path_real_size, "%s", rr.buf);
		sb_release(&rr);
		/* .../bin/nvcc -> the toolkit directory. */
		struct strbuf bin = STRBUF_INIT, top = STRBUF_INIT;
		path_dirname(path_real, &bin);
		if (!strcmp(path_basename(bin.buf), "bin")) {
			path_dirname(bin.buf, &top);
			add_toolkit(c->tk, &f->n, top.buf);
		}
		sb_release(&bin);
		sb_release(&top);
	}
	static const char *const vars[] = { "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT" };
	for (size_t i = 0; i < 3; i++) {
		const char *v = getenv(vars[i]);
		if (v && *v) {
			f->env[i] = v;
			add_toolkit(c->tk, &f->n, v);
		}
	}
	add_toolkit(c->tk, &f->n, "/usr/local/cuda");
	DIR *dh = rootfs_opendir("/usr/local");
	if (dh) {
		char *names[64];
		size_t nn = 0;
		struct dirent *de;
		while ((de = readdir(dh)) && nn < 64)
			if (!strncmp(de->d_name, "cuda-", 5))
				names[nn++] = xstrdup(de->d_name);
		closedir(dh);
		qsort(names, nn, sizeof *names, cmp_names);
		for (size_t i = 0; i < nn; i++) {
			sb_reset(&d);
			sb_addf(&d, "/usr/local/%s", names[i]);
			add_toolkit(c->tk, &f->n, d.buf);
			free(names[i]);
		}
	}
	add_toolkit(c->tk, &f->n, "/opt/cuda");
	sb_release(&d);
}

static void collect_nvcc(struct probe_ctx *ctx, struct result *r, struct nvcc_collect *c)
{
	memset(c, 0, sizeof *c);
	struct nvcc_facts *f = &c->f;
	char path_real[PATH_MAX] = "";
	if (rootfs_which("nvcc", &c->guest, &c->host, &f->nvcc_on_path) == 0)
		f->nvcc = c->guest.buf;
	find_toolkits(c, path_real, sizeof path_real);
	f->tk = c->tk;

	int timeout = ctx->opts && ctx->opts->timeout_ms > 0 ? ctx->opts->timeout_ms : 10000;
	struct toolkit *picked = NULL;
	struct strbuf d = STRBUF_INIT;
	for (size_t i = 0; i < f->n; i++) {
		sb_reset(&d);
		sb_addf(&d, "%s/bin/nvcc", c->tk[i].real);
		if (f->nvcc && !strcmp(d.buf, path_real)) {
			c->tk[i].on_path = f->nvcc_on_path;
			picked = &c->tk[i];
		}
	}
	sb_release(&d);
	if (picked && picked->has_nvcc) {
		char ver[32] = "";
		nvcc_version(ctx, c->guest.buf, c->host.buf, timeout / 3, ver, sizeof ver, r,
			     &c->nvcc_error);
		if (ver[0] && (!picked->version || strncmp(picked->version, ver, strlen(ver)))) {
			free(picked->version);
			picked->version = xstrdup(ver);
			free(picked->how);
			picked->how = xstrdup("nvcc --version");
		}
	}
	f->picked = picked;
	f->nvcc_error = c->nvcc_error.len ? c->nvcc_error.buf : NULL;
	/* What ran so far needs no other check (CHECK_EARLY: nvcc ran beside
	 * the CUDA chain); what the driver supports does. */
	probe_wait_deps(ctx);
	f->driver_cuda = driver_cuda(ctx, &f->driver_cuda_from);
	f->myth_in = cuda_wsl_myth();
	f->platform = probe_platform(ctx);
	if (f->env[0] && is_dir(f->env[0])) {
		rootfs_realpath(f->env[0], &c->home_real, NULL);
		f->cuda_home_real = c->home_real.buf;
	}
}

static void nvcc_collect_release(struct nvcc_collect *c)
{
	for (size_t i = 0; i < c->f.n; i++) {
		free(c->tk[i].dir);
		free(c->tk[i].real);
		free(c->tk[i].version);
		free(c->tk[i].how);
	}
	sb_release(&c->guest);
	sb_release(&c->host);
	sb_release(&c->nvcc_error);
	sb_release(&c->home_real);
}

/* collect_nvcc runs nvcc only when this finds one: the same lookup. */
bool toolkit_nvcc_found(void)
{
	return rootfs_which("nvcc", NULL, NULL, NULL) == 0;
}

static void probe_nvcc(struct probe_ctx *ctx, struct result *r)
{
	struct nvcc_collect c;
	collect_nvcc(ctx, r, &c);
	judge_nvcc(&c.f, r);
	nvcc_collect_release(&c);
}

/* ---- toolkit.packages ---- */

struct pkgscan {
	struct strbuf flagged;   /* space-separated names, for the fix */
	struct strbuf meta;      /* the meta-packages among them */
	struct strbuf toolkit;   /* cuda-toolkit-X-Y installed or implied */
	struct result *r;
	bool wsl;
	int nflagged, nnvidia;
};

static int on_package(const struct dpkg_pkg *p, void *arg)
{
	struct pkgscan *s = arg;
	if (!dpkgstatus_present(p) || p->name.n >= 128)
		return 0;
	char name[128];
	memcpy(name, p->name.p, p->name.n);
	name[p->name.n] = '\0';
	/* Names end up in a command line the user types: policy names only. */
	for (size_t i = 0; name[i]; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
		      c == '.'))
			return 0;
	}
	enum gpupkg_kind k = gpupkg_classify(name, p->provides.p, p->provides.n);
	if (k == GPUPKG_OTHER)
		return 0;
	char ver[64] = "";
	if (p->version.n && p->version.n < sizeof ver) {
		memcpy(ver, p->version.p, p->version.n);
		ver[p->version.n] = '\0';
	}
	s->nnvidia++;
	if (k == GPUPKG_TOOLKIT) {
		res_ev(s->r, "toolkit_package", "%s %s", name, ver);
		if (!s->toolkit.len && strncmp(name, "cuda-toolkit-", 13) == 0)
			sb_add(&s->toolkit, name);
		return 0;
	}
	res_ev(s->r, s->wsl ? "harmful" : "driver_package", "%s %s (%s)", name, ver,
	       gpupkg_kind_name(k));
	if (s->flagged.len)
		sb_addc(&s->flagged, ' ');
	sb_add(&s->flagged, name);
	s->nflagged++;
	if (k == GPUPKG_META) {
		if (s->meta.len)
			sb_addc(&s->meta, ' ');
		sb_add(&s->meta, name);
		/* cuda-12-4 / cuda-runtime-12-4 -> cuda-toolkit-12-4 */
		const char *v = NULL;
		if (!strncmp(name, "cuda-runtime-", 13))
			v = name + 13;
		else if (!strncmp(name, "cuda-", 5) && name[5] >= '0' && name[5] <= '9')
			v = name + 5;
		if (v && !s->toolkit.len)
			sb_addf(&s->toolkit, "cuda-toolkit-%s", v);
	}
	return 0;
}

struct reposcan {
	struct result *r;
	const char *file;
	int wsl_repos, linux_repos;
	char linux_flavour[64];
	char linux_file[256];
};

static int on_repo(const struct aptrepo *repo, void *arg)
{
	struct reposcan *s = arg;
	if (repo->kind == APTREPO_OTHER)
		return 0;
	res_ev(s->r, "repo", "%s:%d %s (%s%s%s)", s->file, repo->line, repo->uri,
	       aptrepo_kind_name(repo->kind), repo->enabled ? "" : ", disabled",
	       repo->deb_src ? ", deb-src" : "");
	if (!repo->enabled || repo->deb_src)
		return 0;
	if (repo->kind == APTREPO_CUDA_WSL) {
		s->wsl_repos++;
	} else if (repo->kind == APTREPO_CUDA_LINUX) {
		if (!s->linux_repos++) {
			snprintf(s->linux_flavour, sizeof s->linux_flavour, "%s", repo->flavour);
			snprintf(s->linux_file, sizeof s->linux_file, "%s", s->file);
		}
	}
	return 0;
}

static void scan_sources(struct reposcan *s)
{
	struct strbuf t = STRBUF_INIT, p = STRBUF_INIT;
	if (rootfs_read("/etc/apt/sources.list", 4 << 20, &t, NULL) == 0) {
		s->file = "/etc/apt/sources.list";
		aptsources_each(t.buf, t.len, false, on_repo, s);
	}
	DIR *d = rootfs_opendir("/etc/apt/sources.list.d");
	if (d) {
		char *names[128];
		size_t nn = 0;
		struct dirent *de;
		while ((de = readdir(d)) && nn < 128) {
			size_t l = strlen(de->d_name);
			if ((l > 5 && !strcmp(de->d_name + l - 5, ".list")) ||
			    (l > 8 && !strcmp(de->d_name + l - 8, ".sources")))
				names[nn++] = xstrdup(de->d_name);
		}
		closedir(d);
		qsort(names, nn, sizeof *names, cmp_names);
		for (size_t i = 0; i < nn; i++) {
			sb_reset(&p);
			sb_addf(&p, "/etc/apt/sources.list.d/%s", names[i]);
			size_t l = strlen(names[i]);
			if (rootfs_read(p.buf, 4 << 20, &t, NULL) == 0) {
				s->file = p.buf;
				aptsources_each(t.buf, t.len, l > 8 && !strcmp(names[i] + l - 8, ".sources"),
						on_repo, s);
			}
			free(names[i]);
		}
	}
	sb_release(&t);
	sb_release(&p);
}

/* pip and conda CUDA runtime packages: evidence only (wheels bring their
 * own runtime; they never conflict with WSL's libcuda). */
static void list_python_cuda(struct result *r)
{
	static const char *const bases[] = { "/usr/lib", "/usr/local/lib", "/opt/conda/lib" };
	struct strbuf dir = STRBUF_INIT, sp = STRBUF_INIT;
	int shown = 0;
	const char *home = getenv("HOME");
	const char *venv = getenv("VIRTUAL_ENV");
	const char *conda = getenv("CONDA_PREFIX");
	const char *extra[6] = { NULL };
	size_t ne = 0;
	struct strbuf hb = STRBUF_INIT, vb = STRBUF_INIT, cb = STRBUF_INIT;
	if (home && home[0] == '/') {
		sb_addf(&hb, "%s/.local/lib", home);
		extra[ne++] = hb.buf;
	}
	if (venv && venv[0] == '/') {
		sb_addf(&vb, "%s/lib", venv);
		extra[ne++] = vb.buf;
	}
	if (conda && conda[0] == '/') {
		sb_addf(&cb, "%s/lib", conda);
		extra[ne++] = cb.buf;
	}
	for (size_t b = 0; b < 3 + ne && shown < 40; b++) {
		const char *base = b < 3 ? bases[b] : extra[b - 3];
		DIR *d = rootfs_opendir(base);
		if (!d)
			continue;
		struct dirent *de;
		char *pys[16];
		size_t np = 0;
		while ((de = readdir(d)) && np < 16)
			if (!strncmp(de->d_name, "python3", 7))
				pys[np++] = xstrdup(de->d_name);
		closedir(d);
		qsort(pys, np, sizeof *pys, cmp_names);
		for (size_t i = 0; i < np; i++) {
			static const char *const subs[] = { "site-packages", "dist-packages" };
			for (size_t k = 0; k < 2; k++) {
				sb_reset(&sp);
				sb_addf(&sp, "%s/%s/%s", base, pys[i], subs[k]);
				DIR *s = rootfs_opendir(sp.buf);
				if (!s)
					continue;
				while ((de = readdir(s)) && shown < 40) {
					const char *nm = de->d_name;
					size_t l = strlen(nm);
					if (strncmp(nm, "nvidia_", 7) || l < 10 ||
					    strcmp(nm + l - 10, ".dist-info"))
						continue;
					res_ev(r, "pip_cuda", "%.*s (%s)", (int)(l - 10), nm, sp.buf);
					shown++;
				}
				closedir(s);
			}
			free(pys[i]);
		}
	}
	/* conda environments record their packages in conda-meta/NAME-VER-BUILD.json. */
	const char *metas[4] = { NULL };
	size_t nm = 0;
	struct strbuf m1 = STRBUF_INIT;
	if (conda && conda[0] == '/') {
		sb_addf(&m1, "%s/conda-meta", conda);
		metas[nm++] = m1.buf;
	}
	metas[nm++] = "/opt/conda/conda-meta";
	for (size_t i = 0; i < nm && shown < 40; i++) {
		DIR *d = rootfs_opendir(metas[i]);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d)) && shown < 40) {
			const char *f = de->d_name;
			if (!strncmp(f, "cuda-", 5) || !strncmp(f, "cudatoolkit-", 12) ||
			    !strncmp(f, "cudnn-", 6) || !strncmp(f, "pytorch-cuda-", 13) ||
			    !strncmp(f, "libcublas-", 10)) {
				res_ev(r, "conda_cuda", "%s (%s)", f, metas[i]);
				shown++;
			}
		}
		closedir(d);
	}
	sb_release(&m1);
	sb_release(&dir);
	sb_release(&sp);
	sb_release(&hb);
	sb_release(&vb);
	sb_release(&cb);
}

static void probe_packages(struct probe_ctx *ctx, struct result *r)
{
	bool wsl = probe_is_wsl2(ctx);
	struct pkgscan ps = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, r, wsl, 0, 0 };
	/* Read once per process, whole (src/parse/dpkgstatus.h). */
	const struct dpkgstatus_info *si;
	int rc = dpkgstatus_read_each(on_package, &ps, &si);
	if (rc == 0)
		res_ev(r, "dpkg_status", "/var/lib/dpkg/status (%zu packages)", si->packages);
	struct reposcan rs;
	memset(&rs, 0, sizeof rs);
	rs.r = r;
	scan_sources(&rs);
	list_python_cuda(r);
	if (rc < 0) {
		struct stat sd;
		if (rootfs_stat("/var/lib/dpkg", &sd) < 0 || !S_ISDIR(sd.st_mode)) {
			res_set(r, ST_SKIP, NULL, "skipped: no dpkg database: not a Debian or Ubuntu "
				"system");
			goto out;
		}
		/* dpkg's directory without a status file: nothing recorded. */
		res_ev(r, "dpkg_status", "/var/lib/dpkg/status: %s", strerror(-rc));
	}
	if (ps.nflagged)
		res_ev(r, "packages", "%s", ps.flagged.buf);
	if (!wsl) {
		if (ps.nflagged)
			res_set(r, ST_PASS, NULL, "native Linux: NVIDIA driver packages installed, as "
				"expected (%s)", ps.flagged.buf);
		else
			res_set(r, ST_PASS, NULL, "no NVIDIA driver packages from the distribution "
				"(a .run driver or a container?)");
		goto out;
	}
	if (ps.meta.len) {
		res_ev(r, "meta", "%s", ps.meta.buf);
		res_ev(r, "toolkit_pkg", "%s", ps.toolkit.len ? ps.toolkit.buf : "cuda-toolkit-12-x");
		res_set(r, ST_FAIL, KB_TOOLKIT_PACKAGES_CUDA_META,
			"the %s meta-package%s installed: %s pull%s in the Linux NVIDIA driver, which "
			"must not be in WSL (%d harmful package%s)", ps.meta.buf,
			strchr(ps.meta.buf, ' ') ? "s are" : " is", strchr(ps.meta.buf, ' ') ? "they" : "it",
			strchr(ps.meta.buf, ' ') ? "" : "s", ps.nflagged, ps.nflagged == 1 ? "" : "s");
	} else if (ps.nflagged) {
		res_set(r, ST_FAIL, KB_TOOLKIT_PACKAGES_LINUX_DRIVER,
			"Linux NVIDIA driver packages are installed inside WSL: %s", ps.flagged.buf);
	} else if (rs.linux_repos && !rs.wsl_repos) {
		res_ev(r, "flavour", "%s", rs.linux_flavour);
		res_ev(r, "repo_file", "%s", rs.linux_file);
		res_set(r, ST_WARN, KB_TOOLKIT_PACKAGES_LINUX_REPO,
			"NVIDIA's %s CUDA repository is configured (%s): its cuda and cuda-drivers "
			"packages install the Linux driver; WSL should use the wsl-ubuntu repository",
			rs.linux_flavour, rs.linux_file);
	} else if (rs.linux_repos) {
		res_ev(r, "flavour", "%s", rs.linux_flavour);
		res_ev(r, "repo_file", "%s", rs.linux_file);
		res_set(r, ST_WARN, KB_TOOLKIT_PACKAGES_LINUX_REPO,
			"both NVIDIA's wsl-ubuntu and %s CUDA repositories are configured (%s): apt "
			"may take the driver from the latter", rs.linux_flavour, rs.linux_file);
	} else if (rc < 0) {
		/* No status file: dpkg recorded nothing we can read, which says
		 * nothing about what is installed (the libs layer may still name
		 * a package from dpkg's file lists): not a pass, unknown. */
		res_set(r, ST_UNKNOWN, NULL, "dpkg's status file cannot be read (%s): installed "
			"packages unknown%s", strerror(-rc),
			rs.wsl_repos ? "; CUDA repository: NVIDIA's wsl-ubuntu" : "");
	} else {
		res_set(r, ST_PASS, NULL, "no Linux NVIDIA driver packages%s%s",
			rs.wsl_repos ? "; CUDA repository: NVIDIA's wsl-ubuntu" : "",
			ps.nnvidia ? "" : "; dpkg records no NVIDIA packages");
	}
out:
	sb_release(&ps.flagged);
	sb_release(&ps.meta);
	sb_release(&ps.toolkit);
}

const struct check_def toolkit_checks[] = {
	{ "toolkit.nvcc", "toolkit", "CUDA toolkit (nvcc)", "nvcc found, its version, and whether the driver supports it", { "platform.kind", CHECK_AFTER "cuda.init", CHECK_AFTER "nvml.smi", CHECK_AFTER "host.driver" }, probe_nvcc, CHECK_COMMANDS | CHECK_EARLY },
	{ "toolkit.packages", "toolkit", "Distro GPU packages", "packages that must not be installed in WSL, and the CUDA apt repositories", { "platform.kind" }, probe_packages, CHECK_FILES },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
