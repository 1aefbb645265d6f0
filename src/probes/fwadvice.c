/* fwadvice.c: the install kind of a framework and the fix that works there.
 * See fwadvice.h. */
#include "fwadvice.h"

#include "../core/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/path.h"
#include "../kb/driver_table.h"
#include "../kb/kb.h"
#include "../kb/versions.h"

static const char *get(const struct pyprobe *s, const char *k)
{
	const char *v = pyprobe_get(s, k);
	return v && *v ? v : NULL;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* Installers that are a distribution's package manager (Fedora's RPM
 * writes "rpm"); every other INSTALLER is a Python tool. */
static bool distro_installer(const char *inst)
{
	static const char *const names[] = { "rpm", "dpkg", "debian", "apt", "pacman", "portage",
					     "apk", "zypper", "dnf", NULL };
	for (size_t i = 0; inst && names[i]; i++)
		if (!strcasecmp(inst, names[i]))
			return true;
	return false;
}

/* pipx keeps each application's venv in .../pipx/venvs/APP. */
static bool pipx_app(const char *prefix, char *app, size_t n)
{
	const char *p = prefix ? strstr(prefix, "/pipx/venvs/") : NULL;
	if (!p)
		return false;
	p += strlen("/pipx/venvs/");
	size_t len = strcspn(p, "/");
	if (len == 0 || len >= n)
		return false;
	memcpy(app, p, len);
	app[len] = '\0';
	return true;
}

void fw_origin_judge(const struct pyprobe *s, const char *dpkg_package, struct fw_origin *o)
{
	memset(o, 0, sizeof *o);
	const char *module = get(s, "module_file");
	const char *prefix = get(s, "prefix"), *base = get(s, "base_prefix");
	const char *exe = get(s, "executable"), *plat = get(s, "platform");
	const char *user_site = get(s, "user_site"), *site = get(s, "site_dir");
	o->prefix = prefix;
	o->installer = get(s, "installer");
	o->dist = get(s, "dist");
	o->conda_package = get(s, "conda_package");
	o->dpkg_package = dpkg_package && *dpkg_package ? dpkg_package : NULL;
	o->has_pip = pyprobe_true(s, "has_pip");
	o->has_ensurepip = pyprobe_true(s, "has_ensurepip");
	o->site_writable = pyprobe_true(s, "site_writable");
	bool venv = prefix && base && strcmp(prefix, base) != 0;
	/* PEP 668: the marker counts only outside a virtual environment. */
	o->externally_managed = get(s, "externally_managed") && !venv;

	if ((plat && !strncmp(plat, "win", 3)) || (exe && ends_with(exe, ".exe")))
		o->kind = FWI_WINDOWS;
	else if (!module)
		o->kind = FWI_UNKNOWN;
	else if (get(s, "conda_meta"))
		o->kind = o->conda_package || (o->installer && !strcasecmp(o->installer, "conda"))
				  ? FWI_CONDA
				  : FWI_CONDA_PIP;
	else if (venv && pipx_app(prefix, o->pipx_app, sizeof o->pipx_app))
		o->kind = FWI_PIPX;
	else if (venv && (get(s, "venv.uv") || (!o->has_pip && o->installer &&
						 !strcasecmp(o->installer, "uv"))))
		o->kind = FWI_UV;
	else if (venv)
		o->kind = FWI_VENV;
	else if (o->dpkg_package || distro_installer(o->installer))
		o->kind = FWI_DISTRO;
	else if (user_site && path_within(module, user_site))
		o->kind = FWI_USER;
	else if (o->installer)
		o->kind = FWI_SYSTEM;
	else if (site && !strncmp(site, "/usr/lib", 8))
		/* No INSTALLER under /usr/lib: what distributions' packages
		 * look like (Debian's carry egg-info without one). */
		o->kind = FWI_DISTRO;
	else
		o->kind = FWI_UNKNOWN;
}

const char *fw_install_name(enum fw_install k)
{
	switch (k) {
	case FWI_DISTRO: return "distro";
	case FWI_VENV: return "venv";
	case FWI_UV: return "uv";
	case FWI_PIPX: return "pipx";
	case FWI_CONDA: return "conda";
	case FWI_CONDA_PIP: return "conda-pip";
	case FWI_USER: return "user";
	case FWI_SYSTEM: return "system";
	case FWI_WINDOWS: return "windows";
	case FWI_UNKNOWN: break;
	}
	return "unknown";
}

void fw_install_words(const struct fw_origin *o, const char *user_site, const char *site_dir,
		      struct strbuf *out)
{
	const char *pfx = o->prefix ? o->prefix : "?";
	switch (o->kind) {
	case FWI_DISTRO:
		if (o->dpkg_package)
			sb_addf(out, "dpkg, as the Debian package %s", o->dpkg_package);
		else if (o->installer)
			sb_addf(out, "the system's package manager (INSTALLER %s)", o->installer);
		else
			sb_addf(out, "the system's package manager, as far as its place shows (%s, "
				"with no INSTALLER record)", site_dir ? site_dir : "/usr/lib");
		return;
	case FWI_VENV:
		sb_addf(out, "%s in the virtual environment %s", o->installer ? o->installer : "pip", pfx);
		return;
	case FWI_UV:
		sb_addf(out, "uv, in the virtual environment %s (made by uv, without pip)", pfx);
		return;
	case FWI_PIPX:
		sb_addf(out, "pipx, in the environment of the application %s", o->pipx_app);
		return;
	case FWI_CONDA:
		sb_addf(out, "the conda package %s in the conda environment %s",
			o->conda_package ? o->conda_package : "(INSTALLER conda)", pfx);
		return;
	case FWI_CONDA_PIP:
		sb_addf(out, "%s in the conda environment %s", o->installer ? o->installer : "pip", pfx);
		return;
	case FWI_USER:
		sb_addf(out, "%s --user, in %s", o->installer ? o->installer : "pip",
			user_site ? user_site : "the user's site-packages");
		return;
	case FWI_SYSTEM:
		sb_addf(out, "%s into the interpreter's own site-packages (%s)", o->installer,
			site_dir ? site_dir : pfx);
		return;
	case FWI_WINDOWS:
		sb_add(out, "pip on Windows (this is a Windows Python, run through WSL interop)");
		return;
	case FWI_UNKNOWN:
		break;
	}
	sb_add(out, "unknown");
}

/* The driver's CUDA as 1000 x major + 10 x minor; 0 when unknown. */
static int driver_cuda(int major, int minor)
{
	return major > 0 ? major * 1000 + minor * 10 : 0;
}

/* A wheel this driver runs: its CUDA at most the driver's, or (minor) of
 * the same major (minor-version compatibility, without PTX JIT). */
static bool driver_runs(const struct torch_wheel *w, int dc, bool minor)
{
	if (!dc)
		return true;
	return w->cuda <= dc || (minor && w->cuda / 1000 == dc / 1000);
}

/* Within the newest release that has a wheel for the GPU the driver runs:
 * the newest CUDA the driver fully supports, else the oldest of its
 * major (minor-version compatibility); without the driver's version, the
 * oldest CUDA (the most compatible). */
static const struct torch_wheel *pick_wheel(int dc, int cc, bool *minor)
{
	size_t n;
	const struct torch_wheel *w = torch_wheels(&n);
	const struct torch_wheel *exact = NULL, *compat = NULL;
	*minor = false;
	for (size_t i = 0; i < n; i++) {
		const struct torch_wheel *r = exact ? exact : compat;
		if (r && strcmp(w[i].torch, r->torch))
			break; /* only the newest release that has one */
		if (w[i].announced || !torch_wheel_covers(&w[i], cc) || !driver_runs(&w[i], dc, true))
			continue;
		if (driver_runs(&w[i], dc, false)) {
			if (!exact || (!dc && w[i].cuda < exact->cuda))
				exact = &w[i];
		} else if (!compat || w[i].cuda < compat->cuda) {
			compat = &w[i];
		}
	}
	*minor = !exact && compat;
	return exact ? exact : compat;
}

void fw_torch_pick(int drv_major, int drv_minor, int cc_major, int cc_minor, struct torch_pick *p)
{
	memset(p, 0, sizeof p[0]);
	int dc = driver_cuda(drv_major, drv_minor);
	int cc = cc_major > 0 ? cc_major * 10 + cc_minor : 0;
	p->cc = cc;
	p->driver_cuda = dc;
	/* A driver newer than the tables runs every wheel they know. */
	p->driver_newer = dc && cuda_newer_than_known(drv_major, drv_minor);
	p->wheel = pick_wheel(dc, cc, &p->minor_compat);
	if (!p->wheel) { /* nothing fits: the most compatible wheel, for the words */
		p->none_fits = true;
		p->wheel = pick_wheel(0, 0, &p->minor_compat);
	}
}

const char *fw_torch_tag(int drv_major, int drv_minor, int cc_major, int cc_minor)
{
	struct torch_pick p;
	fw_torch_pick(drv_major, drv_minor, cc_major, cc_minor, &p);
	return p.wheel->tag;
}

/* The first (newest) wheel of a release newer than w's that covers cc, or
 * NULL. */
static const struct torch_wheel *newer_for_gpu(const struct torch_wheel *w, int cc,
					       bool announced)
{
	size_t n;
	const struct torch_wheel *t = torch_wheels(&n);
	const struct torch_wheel *hit = NULL;
	for (size_t i = 0; i < n && &t[i] != w; i++)
		if (strcmp(t[i].torch, w->torch) && t[i].announced == announced &&
		    torch_wheel_covers(&t[i], cc) && (!hit || t[i].cuda < hit->cuda))
			hit = &t[i]; /* the lowest CUDA such a release needs */
	return hit;
}

/* Whether a release newer than w's (announced or not) still has w's tag. */
static bool tag_continues(const struct torch_wheel *w)
{
	size_t n;
	const struct torch_wheel *t = torch_wheels(&n);
	for (size_t i = 0; i < n && &t[i] != w; i++)
		if (!strcmp(t[i].tag, w->tag) && strcmp(t[i].torch, w->torch))
			return true;
	return false;
}

static void cuda_words(struct strbuf *out, int cuda)
{
	const char *fam = cuda_family_min_driver(cuda / 1000, false);
	sb_addf(out, "a driver for CUDA %d.%d", cuda / 1000, (cuda % 1000) / 10);
	if (fam)
		sb_addf(out, " (R%.3s or newer)", fam);
}

void fw_torch_words(const struct torch_pick *p, struct strbuf *out)
{
	const struct torch_wheel *w = p->wheel;
	const char *newest = torch_newest_known();
	if (p->none_fits) {
		sb_add(out, "no PyTorch wheel has kernels for ");
		if (p->cc)
			sb_addf(out, "compute capability %d.%d", p->cc / 10, p->cc % 10);
		else
			sb_add(out, "this GPU");
		sb_addf(out, " and runs on a driver for CUDA %d.%d: update the driver",
			p->driver_cuda / 1000, (p->driver_cuda % 1000) / 10);
		return;
	}
	sb_addf(out, "%s gets PyTorch %s", w->tag, w->torch);
	if (!tag_continues(w))
		sb_addf(out, ", the last release with %s wheels", w->tag);
	if (p->cc)
		sb_addf(out, " (for compute capability %d.%d)", p->cc / 10, p->cc % 10);
	const struct torch_wheel *later = newer_for_gpu(w, p->cc, false);
	if (strcmp(w->torch, newest)) {
		if (later) {
			sb_addf(out, "; PyTorch %s needs ", later->torch);
			cuda_words(out, later->cuda);
		} else {
			sb_add(out, "; newer releases have no kernels for this GPU");
		}
	} else {
		const struct torch_wheel *gone = newer_for_gpu(w, p->cc, true);
		size_t n;
		const struct torch_wheel *t = torch_wheels(&n);
		if (!gone && t[0].announced && p->cc)
			sb_addf(out, "; PyTorch announced that %s brings none for this GPU", t[0].torch);
		else if (!tag_continues(w) && t[0].announced)
			sb_addf(out, "; PyTorch announced that %s brings no %s wheels", t[0].torch,
				w->tag);
	}
	/* What a plain `pip install torch` gets, where it does not fit. */
	size_t n;
	const struct torch_wheel *t = torch_wheels(&n);
	for (size_t i = 0; i < n; i++) {
		if (t[i].announced || !t[i].pypi)
			continue;
		if (&t[i] == w)
			sb_add(out, "; it is also what pip install torch gets from PyPI");
		else if (!torch_wheel_covers(&t[i], p->cc))
			sb_addf(out, "; a plain pip install torch (CUDA %d.%d from PyPI, PyTorch %s) has "
				"no kernels for this GPU", t[i].cuda / 1000, (t[i].cuda % 1000) / 10,
				t[i].torch);
		else if (!driver_runs(&t[i], p->driver_cuda, true)) {
			sb_addf(out, "; a plain pip install torch (CUDA %d.%d from PyPI, PyTorch %s) "
				"needs ", t[i].cuda / 1000, (t[i].cuda % 1000) / 10, t[i].torch);
			cuda_words(out, t[i].cuda);
		}
		break;
	}
	int last = driver_last_branch_for_cc(p->cc);
	if (last)
		sb_addf(out, "; R%d is NVIDIA's last driver branch for this GPU", last);
	if (p->minor_compat)
		sb_add(out, "; it runs on this driver by minor-version compatibility (no PTX JIT)");
	if (p->driver_newer) {
		char v[16], known[48];
		snprintf(v, sizeof v, "%d.%d", p->driver_cuda / 1000, (p->driver_cuda % 1000) / 10);
		snprintf(known, sizeof known, "CUDA %s", cuda_newest_known()->release);
		sb_add(out, "; ");
		versions_newer_words(out, "the driver's CUDA", v, known);
	}
}

/* Whether CUDA major m has code for a GPU of compute capability cc. */
static bool cuda_builds_for(int m, int cc)
{
	int floor = cuda_arch_floor_of(m);
	return !cc || !floor || cc >= floor;
}

const char *fw_jax_extra(int drv_major, int cc)
{
	size_t n;
	const struct jax_wheel *j = jax_wheels(&n);
	for (size_t i = 0; i < n; i++) {
		int major = atoi(j[i].built_with);
		if (drv_major >= major && (!cc || cc >= j[i].cc_min))
			return j[i].extra;
	}
	return j[n - 1].extra;
}

int fw_cupy_cuda(int drv_major, int cc)
{
	if (drv_major == 11)
		return 11; /* cupy-cuda11x: CuPy 13 and older */
	if (drv_major >= 13 && cuda_builds_for(13, cc))
		return 13;
	return 12;
}

void fw_shell_word(struct strbuf *out, const char *s)
{
	text_shell_quote(out, s);
}

static void pip_tail(const struct fw_want *w, bool reinstall, struct strbuf *out)
{
	if (reinstall)
		sb_add(out, " --upgrade --force-reinstall");
	sb_addf(out, " %s", w->pkgs);
	if (w->pip_args && *w->pip_args)
		sb_addf(out, " %s", w->pip_args);
}

static void py_pip(const struct fw_want *w, const char *extra, bool reinstall, struct strbuf *out)
{
	fw_shell_word(out, w->python);
	sb_addf(out, " -m pip install%s", extra ? extra : "");
	pip_tail(w, reinstall, out);
}

/* A new virtual environment: the one way to pip-install on an externally
 * managed interpreter, and beside a distribution's package. */
static void new_venv(const struct fw_origin *o, const struct fw_want *w, struct strbuf *out)
{
	if (!o->has_ensurepip && w->apt)
		/* Debian and Ubuntu ship venv's pip in python3-venv. */
		sb_add(out, "sudo apt-get install python3-venv && ");
	fw_shell_word(out, w->python);
	sb_addf(out, " -m venv ~/venvs/%s && ~/venvs/%s/bin/python -m pip install", w->framework,
		w->framework);
	pip_tail(w, false, out);
}

static void uv_pip(const struct fw_want *w, bool reinstall, struct strbuf *out)
{
	sb_add(out, "uv pip install --python ");
	fw_shell_word(out, w->python);
	if (reinstall)
		sb_add(out, " --reinstall");
	sb_addf(out, " %s", w->pkgs);
	if (w->pip_args && *w->pip_args)
		sb_addf(out, " %s", w->pip_args);
}

void fw_install_cmd(const struct fw_origin *o, const struct fw_want *w, struct strbuf *out)
{
	switch (o->kind) {
	case FWI_DISTRO:
		new_venv(o, w, out);
		return;
	case FWI_VENV:
		if (!o->has_pip) {
			fw_shell_word(out, w->python);
			sb_add(out, " -m ensurepip && ");
		}
		py_pip(w, NULL, w->reinstall, out);
		return;
	case FWI_UV:
		uv_pip(w, w->reinstall, out);
		return;
	case FWI_PIPX:
		sb_addf(out, "pipx runpip %s install", o->pipx_app);
		pip_tail(w, w->reinstall, out);
		return;
	case FWI_CONDA:
		/* PyTorch no longer publishes to its conda channel (2.5 was the
		 * last); conda-forge builds the CUDA variants. */
		sb_add(out, "conda install -p ");
		fw_shell_word(out, o->prefix ? o->prefix : "\"$CONDA_PREFIX\"");
		sb_addf(out, " -c conda-forge %s", w->conda_spec);
		return;
	case FWI_USER:
		if (o->externally_managed)
			new_venv(o, w, out);
		else
			py_pip(w, " --user", w->reinstall, out);
		return;
	case FWI_SYSTEM:
		if (o->externally_managed || !o->site_writable)
			new_venv(o, w, out);
		else
			py_pip(w, NULL, w->reinstall, out);
		return;
	case FWI_CONDA_PIP:
	case FWI_WINDOWS:
		py_pip(w, NULL, w->reinstall, out);
		return;
	case FWI_UNKNOWN:
		break;
	}
	if (o->externally_managed)
		new_venv(o, w, out);
	else
		py_pip(w, NULL, w->reinstall, out);
}

/* The conda package's name from its conda-meta record NAME-VERSION-BUILD. */
static void conda_name(const char *rec, struct strbuf *out)
{
	const char *end = rec + strlen(rec);
	for (int dashes = 0; end > rec; end--)
		if (end[-1] == '-' && ++dashes == 2) {
			end--;
			break;
		}
	sb_addn(out, rec, end > rec ? (size_t)(end - rec) : strlen(rec));
}

void fw_repair_cmd(const struct fw_origin *o, const struct fw_want *w, struct strbuf *out)
{
	struct fw_want same = *w;
	same.pkgs = o->dist ? o->dist : w->pkgs;
	same.pip_args = NULL;
	switch (o->kind) {
	case FWI_DISTRO:
		if (o->dpkg_package) {
			sb_addf(out, "sudo apt-get install --reinstall %s", o->dpkg_package);
			return;
		}
		break;
	case FWI_CONDA:
		sb_add(out, "conda install -p ");
		fw_shell_word(out, o->prefix ? o->prefix : "\"$CONDA_PREFIX\"");
		sb_add(out, " --force-reinstall ");
		if (o->conda_package)
			conda_name(o->conda_package, out);
		else
			sb_add(out, w->conda_spec);
		return;
	case FWI_UV:
		uv_pip(&same, true, out);
		return;
	default:
		break;
	}
	same.reinstall = true;
	fw_install_cmd(o, &same, out);
}

void fw_check_cmd(const struct fw_origin *o, const struct fw_want *w, struct strbuf *out)
{
	if (o->kind == FWI_DISTRO && o->dpkg_package) {
		sb_addf(out, "dpkg --verify %s   (no output: its files are intact)", o->dpkg_package);
	} else if (o->kind == FWI_UV) {
		sb_add(out, "uv pip check --python ");
		fw_shell_word(out, w->python);
	} else if (o->kind == FWI_PIPX) {
		sb_addf(out, "pipx runpip %s check", o->pipx_app);
	} else if (o->has_pip || o->kind == FWI_UNKNOWN) {
		fw_shell_word(out, w->python);
		sb_add(out, " -m pip check");
	} else {
		fw_shell_word(out, w->python);
		sb_addf(out, " -c \"import %s\"   (the whole error)", w->framework);
	}
}

bool fw_shadow_cmd(const struct fw_origin *o, const char *site_dir, const char *pythonpath,
		   struct strbuf *out)
{
	if (o->kind != FWI_DISTRO || !site_dir)
		return false;
	/* PYTHONPATH entries come first on sys.path: one naming the
	 * distribution's directory puts its copy ahead of the user's. */
	bool listed = false;
	struct strbuf kept = STRBUF_INIT;
	for (const char *p = pythonpath ? pythonpath : ""; *p;) {
		size_t n = strcspn(p, ":");
		if (n == strlen(site_dir) && !strncmp(p, site_dir, n))
			listed = true;
		else if (n) {
			if (kept.len)
				sb_addc(&kept, ':');
			sb_addn(&kept, p, n);
		}
		p += n + (p[n] == ':');
	}
	if (listed) {
		if (kept.len) {
			sb_add(out, "export PYTHONPATH=");
			fw_shell_word(out, kept.buf);
		} else {
			sb_add(out, "unset PYTHONPATH");
		}
		sb_addf(out, "   (also where it is set, such as ~/.bashrc: it puts %s, the distribution's copy, first)",
			site_dir);
	} else if (o->dpkg_package) {
		sb_addf(out, "sudo apt-get remove %s", o->dpkg_package);
	}
	sb_release(&kept);
	return out->len > 0;
}
