/*
 * fwadvice: the command that gets a framework build using the GPU, in the
 * way this interpreter's copy was installed, so that the fix works where it
 * is typed.
 *
 * A fix that is right for a pip wheel is wrong elsewhere: on a PEP 668
 * "externally managed" interpreter (Debian 12, Ubuntu 23.04+) pip refuses
 * to install at all; over a distribution package it fights apt for the
 * same files; in a conda environment the package may be conda's; a venv
 * made by uv has no pip. The probe script reports the facts (where the
 * module lives, the dist-info INSTALLER, sys.prefix and sys.base_prefix,
 * pyvenv.cfg, conda-meta, the EXTERNALLY-MANAGED marker), frameworks.c adds
 * dpkg's answer, and this file decides. Pure, so the choices are tested
 * as tables (tests/unit/test_fwadvice.c).
 */
#ifndef WSLGPU_FWADVICE_H
#define WSLGPU_FWADVICE_H

#include <stdbool.h>

#include "../core/strbuf.h"
#include "../kb/versions.h"
#include "../parse/pyprobe.h"

enum fw_install {
	FWI_UNKNOWN,   /* no facts (an older probe, or nothing conclusive) */
	FWI_DISTRO,    /* a distribution package (dpkg lists the file, or INSTALLER rpm/debian) */
	FWI_VENV,      /* pip in a virtual environment (pyvenv.cfg) */
	FWI_UV,        /* a virtual environment made by uv, which has no pip */
	FWI_PIPX,      /* the environment of a pipx application */
	FWI_CONDA,     /* a conda package in a conda environment (conda-meta) */
	FWI_CONDA_PIP, /* pip in a conda environment */
	FWI_USER,      /* pip --user (site.USER_SITE) */
	FWI_SYSTEM,    /* pip into the interpreter's own site-packages */
	FWI_WINDOWS,   /* a Windows python.exe reached through WSL interop */
};

struct fw_origin {
	enum fw_install kind;
	/* The interpreter carries the PEP 668 marker and is not a venv: pip
	 * (also --user) refuses to install into it. */
	bool externally_managed;
	bool has_pip, has_ensurepip, site_writable;
	const char *prefix;        /* sys.prefix (the venv or conda environment) */
	const char *dpkg_package;  /* the package dpkg says owns the module, or NULL */
	const char *conda_package; /* conda-meta's record ("pytorch-2.5.1-py3.12_cuda12.4_0") */
	const char *installer;     /* the dist-info's INSTALLER ("pip", "uv", "conda") */
	const char *dist;          /* the installed distribution ("torch", "cupy-cuda12x") */
	char pipx_app[128];        /* pipx: the application whose venv it is */
};

/* Decides o from the probe's snapshot and dpkg's owner of its module file
 * (NULL when dpkg does not know it). Strings point into s. */
void fw_origin_judge(const struct pyprobe *s, const char *dpkg_package, struct fw_origin *o);

/* "distro", "venv", "uv", "pipx", "conda", "conda-pip", "user", "system",
 * "windows", "unknown": the evidence value. */
const char *fw_install_name(enum fw_install k);

/* One line for the user: "the Debian package python3-torch", "pip in the
 * virtual environment /home/u/venv", ... */
void fw_install_words(const struct fw_origin *o, const char *user_site, const char *site_dir,
		      struct strbuf *out);

/*
 * The PyTorch wheel for a driver that supports CUDA drv_major.drv_minor and
 * a GPU of compute capability cc_major.cc_minor (0 for unknown), from the
 * wheel table (src/kb/versions.h): the newest released PyTorch with a wheel
 * that has kernels for the GPU and that the driver runs, its newest CUDA
 * (without the driver's version, its most compatible one). cu126 is the
 * only tag that carries Maxwell, Pascal and Volta (up to PyTorch 2.14);
 * CUDA 13 wheels need a driver of R580 or newer and Turing or newer;
 * Blackwell on a CUDA 12 driver gets cu128 (up to PyTorch 2.11).
 */
struct torch_pick {
	const struct torch_wheel *wheel;
	int cc, driver_cuda;  /* as given: 61, 13000 (0: unknown) */
	bool minor_compat;    /* the wheel's CUDA minor is newer than the driver's */
	bool driver_newer;    /* the driver's CUDA is newer than the tables know */
	bool none_fits;       /* no wheel has kernels for the GPU that the driver runs */
};
void fw_torch_pick(int drv_major, int drv_minor, int cc_major, int cc_minor, struct torch_pick *p);
/* The tag of fw_torch_pick's wheel ("cu126"). */
const char *fw_torch_tag(int drv_major, int drv_minor, int cc_major, int cc_minor);
/* Which PyTorch the pick yields and why, in words: "cu126 gets PyTorch
 * 2.14, the last release with cu126 wheels (for compute capability 6.1);
 * ...; R580 is NVIDIA's last driver branch for this GPU". */
void fw_torch_words(const struct torch_pick *p, struct strbuf *out);

/* The JAX extra ("cuda13" or "cuda12") and the CUDA major of the CuPy
 * package (cupy-cudaNNx) for a driver of CUDA major drv_major and a GPU of
 * compute capability cc (61 for 6.1; 0 unknown): CUDA 13 builds need a 13.x
 * driver and a GPU CUDA 13 still supports (Turing or newer, versions.h). */
const char *fw_jax_extra(int drv_major, int cc);
int fw_cupy_cuda(int drv_major, int cc);

/* What to install, per framework. */
struct fw_want {
	const char *framework; /* torch, tensorflow, jax, cupy */
	const char *python;    /* the interpreter as the user names it */
	const char *pkgs;      /* pip requirements, shell-quoted as needed: "torch torchvision" */
	const char *pip_args;  /* after the requirements ("--index-url URL"), or NULL */
	bool reinstall;        /* replace an installed build (pip --force-reinstall) */
	const char *conda_spec;/* conda-forge's GPU build: "'pytorch=*=*cuda*'" */
	bool apt;              /* a dpkg system: python3-venv may be what is missing */
};

/* The command that installs w's GPU build where o says the copy lives. */
void fw_install_cmd(const struct fw_origin *o, const struct fw_want *w, struct strbuf *out);
/* The command that reinstalls the same package (a broken install). */
void fw_repair_cmd(const struct fw_origin *o, const struct fw_want *w, struct strbuf *out);
/* A read-only check of the environment's consistency (pip check, dpkg --verify). */
void fw_check_cmd(const struct fw_origin *o, const struct fw_want *w, struct strbuf *out);

/* When the imported copy is a distribution's and another copy lies further
 * down sys.path (a user's install): the command that stops Python from
 * importing the distribution's, into out (PYTHONPATH without its
 * directory, or removing the package). False when there is none. */
bool fw_shadow_cmd(const struct fw_origin *o, const char *site_dir, const char *pythonpath,
		   struct strbuf *out);

/* Appends s as one shell word (single-quoted when it needs to be). */
void fw_shell_word(struct strbuf *out, const char *s);

#endif
