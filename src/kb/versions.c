/*
 * versions.c: the version tables. See versions.h; the sources of each are
 * in its version_tables() row and, with what was read where, in
 * doc/facts.md. To add a release, add its row in order (newest first) and
 * update the table's checked date; tests/unit/test_facts.c checks order.
 */
#include "versions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parse/version.h"
#include "driver_table.h"

/* ---- the index of tables ---- */

static const struct version_table tables[] = {
	{ "CUDA release -> minimum driver", "2026-12-05", "CUDA 13.5 GA",
	  "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html "
	  "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html" },
	{ "NVIDIA driver branches", "2026-12-05", "R620",
	  "https://docs.nvidia.com/datacenter/tesla/drivers/620/supported-drivers-and-cuda-toolkit-versions.html "
	  "https://forums.developer.nvidia.com/t/unix-graphics-feature-deprecation-schedule/60588 "
	  "https://docs.nvidia.com/cuda/wsl-user-guide/index.html" },
	{ "CUDA major -> oldest GPU it builds for", "2026-12-05", "CUDA 13: compute capability 7.5",
	  "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html "
	  "https://docs.jax.dev/en/latest/installation.html" },
	{ "PyTorch wheels", "2026-12-05", "PyTorch 2.14 (2.15 announced)",
	  "https://github.com/pytorch/pytorch/blob/main/RELEASE.md "
	  "https://github.com/pytorch/pytorch/pull/182849 "
	  "https://github.com/pytorch/pytorch/issues/190355 "
	  "https://github.com/pytorch/pytorch/issues/190385 "
	  "https://dev-discuss.pytorch.org/t/notice-cuda-12-6-wheels-will-no-longer-be-published-from-pytorch-2-15-drops-maxwell-pascal-volta/3432 "
	  "https://pytorch.org/get-started/previous-versions/ "
	  "https://pytorch.org/tutorials/intermediate/TCPStore_libuv_backend.html" },
	{ "TensorFlow tested builds", "2026-12-05", "TensorFlow 2.21.0",
	  "https://www.tensorflow.org/install/source#gpu https://www.tensorflow.org/install/pip" },
	{ "JAX CUDA wheels", "2026-12-05", "jax[cuda13]",
	  "https://docs.jax.dev/en/latest/installation.html" },
	{ "CuPy wheels", "2026-12-05", "cupy-cuda13x (CuPy v14)",
	  "https://docs.cupy.dev/en/stable/install.html" },
	{ "WSL release -> kernel", "2026-12-05", "WSL 2.9.4, kernel 6.18.35.2",
	  "https://github.com/microsoft/WSL/releases "
	  "https://github.com/microsoft/WSL/blob/master/packages.config" },
	{ "NVIDIA Container Toolkit releases", "2026-12-05", "1.20.0",
	  "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/release-notes.html "
	  "https://github.com/NVIDIA/nvidia-container-toolkit/blob/main/CHANGELOG.md "
	  "https://docs.docker.com/engine/release-notes/28/" },
};

const struct version_table *version_tables(size_t *n)
{
	*n = sizeof tables / sizeof tables[0];
	return tables;
}

/* ---- driver branches ---- */

/*
 * NVIDIA's data-center driver documentation, "Supported Drivers and CUDA
 * Toolkit Versions" (620 and 615 editions): designations and end of life.
 * The 580 note is NVIDIA's Unix Graphics Feature Deprecation Schedule:
 * "The release 580 series will be the last to support GPUs based on the
 * Maxwell, Pascal, and Volta architectures"; the 470 one NVIDIA's list of
 * legacy releases (Kepler). 495 and 510 are from the CUDA on WSL guide.
 */
static const struct driver_branch branches[] = {
	{ 620, "Long Term Support Branch", "September 2029", NULL },
	{ 610, "New Feature Branch", "August 2026", NULL },
	{ 595, "Production Branch", "March 2027", NULL },
	{ 590, "New Feature Branch", NULL, NULL },
	{ 580, "Long Term Support Branch", "June 2028",
	  "the last branch for Maxwell, Pascal and Volta GPUs, and the first for CUDA 13.x" },
	{ 535, "Long Term Support Branch", "June 2026", NULL },
	{ 525, NULL, NULL, "the CUDA 12.x minimum (minor-version compatibility: 525.60.13)" },
	{ 510, NULL, NULL, "the first with legacy CUDA IPC on WSL" },
	{ 495, NULL, NULL, "the first Windows driver with CUDA on WSL 2" },
	{ 470, NULL, NULL, "the last branch for Kepler GPUs" },
};

const struct driver_branch *driver_branches(size_t *n)
{
	*n = sizeof branches / sizeof branches[0];
	return branches;
}

const struct driver_branch *driver_branch_find(int branch)
{
	for (size_t i = 0; i < sizeof branches / sizeof branches[0]; i++)
		if (branches[i].branch == branch)
			return &branches[i];
	return NULL;
}

int driver_last_branch_for_cc(int cc)
{
	if (cc <= 0)
		return 0;
	if (cc < 50)
		return 470;
	if (cc < 75)
		return 580;
	return 0;
}

bool driver_newer_than_known(const char *version)
{
	struct version v;
	return version && version_parse(version, &v) == 0 && v.part[0] > branches[0].branch;
}

/* ---- PyTorch ---- */

/*
 * RELEASE.md's "PyTorch CUDA Support Matrix" (x86_64 Linux and Windows):
 * 2.9 and 2.10 (pytorch/pytorch#164471, #175253), 2.11 (#175253: Volta
 * dropped from the cu128 builds), 2.12 to 2.14 (#182849, #187075, #197555:
 * "2.13 is the same as 2.14"). 2.14's default on PyPI is CUDA 13.2
 * (#190355). 2.15 drops cu126 (#190385; PyTorch's notice of 2026-09-04:
 * "PyTorch 2.14 is the last release to ship any CUDA 12.x wheels"); it is
 * marked announced until known to be released. 2.7 shipped cu118, cu126
 * and cu128 and was the last with cu118 (#145544, #147383); 2.6 cu118,
 * cu124 and cu126 (get-started/previous-versions); their architectures are
 * not transcribed (such a row is taken to cover every GPU). Which wheel
 * PyPI served before 2.14 is not recorded.
 */
static const int arch_cu126[] = { 50, 60, 70, 75, 80, 86, 90, 0 };
static const int arch_cu128_29[] = { 70, 75, 80, 86, 90, 100, 120, 0 };
static const int arch_cu128_211[] = { 75, 80, 86, 90, 100, 120, 0 };
static const int arch_cu13[] = { 75, 80, 86, 90, 100, 120, 0 };

static const struct torch_wheel wheels[] = {
	{ "2.15", "cu132", 13020, arch_cu13, true, true, true },
	{ "2.15", "cu130", 13000, arch_cu13, true, false, true },
	{ "2.14", "cu132", 13020, arch_cu13, true, true, false },
	{ "2.14", "cu130", 13000, arch_cu13, true, false, false },
	{ "2.14", "cu126", 12060, arch_cu126, false, false, false },
	{ "2.13", "cu132", 13020, arch_cu13, true, false, false },
	{ "2.13", "cu130", 13000, arch_cu13, true, false, false },
	{ "2.13", "cu126", 12060, arch_cu126, false, false, false },
	{ "2.12", "cu132", 13020, arch_cu13, true, false, false },
	{ "2.12", "cu130", 13000, arch_cu13, true, false, false },
	{ "2.12", "cu126", 12060, arch_cu126, false, false, false },
	{ "2.11", "cu130", 13000, arch_cu13, true, false, false },
	{ "2.11", "cu128", 12080, arch_cu128_211, false, false, false },
	{ "2.11", "cu126", 12060, arch_cu126, false, false, false },
	{ "2.10", "cu130", 13000, arch_cu13, true, false, false },
	{ "2.10", "cu128", 12080, arch_cu128_29, false, false, false },
	{ "2.10", "cu126", 12060, arch_cu126, false, false, false },
	{ "2.9", "cu130", 13000, arch_cu13, true, false, false },
	{ "2.9", "cu128", 12080, arch_cu128_29, false, false, false },
	{ "2.9", "cu126", 12060, arch_cu126, false, false, false },
	{ "2.7", "cu128", 12080, NULL, false, false, false },
	{ "2.7", "cu126", 12060, NULL, false, false, false },
	{ "2.7", "cu118", 11080, NULL, false, false, false },
	{ "2.6", "cu126", 12060, NULL, false, false, false },
	{ "2.6", "cu124", 12040, NULL, false, false, false },
	{ "2.6", "cu118", 11080, NULL, false, false, false },
};

/* Releases the knowledge base names for something other than their wheels. */
static const struct torch_note notes[] = {
	/* huggingface/diffusers#9704, ostris/ai-toolkit#203 (2024-10) */
	{ "2.5", "2.5.0's scaled_dot_product_attention picks cuDNN attention, which stops with \"No execution plans support the graph\" where cuDNN has no engine; 2.4.1 did not" },
	{ "2.4", "torch.distributed's TCPStore uses libuv by default" },
	/* pytorch/pytorch#121834 and #125790 (2024-05) */
	{ "2.3", "2.3.0's cuDNN v8 convolutions warn \"Plan failed with a cudnnException\"; 2.3.1 does not" },
};

const struct torch_note *torch_notes(size_t *n)
{
	*n = sizeof notes / sizeof notes[0];
	return notes;
}

const struct torch_wheel *torch_wheels(size_t *n)
{
	*n = sizeof wheels / sizeof wheels[0];
	return wheels;
}

bool torch_wheel_covers(const struct torch_wheel *w, int cc)
{
	if (!w->archs || cc <= 0)
		return true;
	int top = 0;
	for (const int *a = w->archs; *a; a++) {
		/* Binary compatibility: sm_X.y code runs on X.z for z >= y. */
		if (*a / 10 == cc / 10 && *a % 10 <= cc % 10)
			return true;
		top = *a;
	}
	return w->ptx && cc >= top;
}

const char *torch_newest_known(void)
{
	for (size_t i = 0; i < sizeof wheels / sizeof wheels[0]; i++)
		if (!wheels[i].announced)
			return wheels[i].torch;
	return NULL;
}

/* ---- the oldest GPU each CUDA major compiles for ---- */

/*
 * The CUDA Toolkit release notes, "Deprecated or Dropped Architectures" of
 * each major: CUDA 9 removed Fermi (sm_2x), CUDA 11 sm_30, CUDA 12 sm_35 and
 * sm_37 (Kepler), CUDA 13.0 Maxwell, Pascal and Volta (offline compilation
 * and library support; JAX's installation guide: "On CUDA 13 ... SM version
 * 7.5 or newer").
 */
static const struct cuda_arch_floor floors[] = {
	{ 13, 75 }, { 12, 50 }, { 11, 35 }, { 10, 30 }, { 9, 30 },
};

const struct cuda_arch_floor *cuda_arch_floors(size_t *n)
{
	*n = sizeof floors / sizeof floors[0];
	return floors;
}

int cuda_arch_floor_of(int major)
{
	for (size_t i = 0; i < sizeof floors / sizeof floors[0]; i++)
		if (floors[i].major == major)
			return floors[i].oldest_cc;
	return 0;
}

/* ---- TensorFlow, JAX, CuPy ---- */

/* tensorflow.org/install/source, "Tested build configurations", GPU. */
static const struct tf_build tf[] = {
	{ "2.21.0", "12.5", "9.3" }, { "2.20.0", "12.5", "9.3" }, { "2.19.0", "12.5", "9.3" },
	{ "2.18.0", "12.5", "9.3" }, { "2.17.0", "12.3", "8.9" }, { "2.16.1", "12.3", "8.9" },
	{ "2.15.0", "12.2", "8.9" }, { "2.14.0", "11.8", "8.7" }, { "2.13.0", "11.8", "8.6" },
	{ "2.12.0", "11.8", "8.6" },
};

const struct tf_build *tf_builds(size_t *n)
{
	*n = sizeof tf / sizeof tf[0];
	return tf;
}

/* JAX's installation guide: "On CUDA 13, JAX supports NVIDIA GPUs that
 * have SM version 7.5 or newer"; drivers >= 525 (CUDA 12), >= 580 (13). */
static const struct jax_wheel jax[] = {
	{ "cuda13", "13.0", "CUDA >= 13.0", 75, ">= 580", "0.8.0" },
	{ "cuda12", "12.3", "CUDA >= 12.1", 52, ">= 525", NULL },
};

const struct jax_wheel *jax_wheels(size_t *n)
{
	*n = sizeof jax / sizeof jax[0];
	return jax;
}

/* CuPy's installation guide (v14). */
static const struct cupy_wheel cupy[] = {
	{ "cupy-cuda13x", "13.0 to 13.3" },
	{ "cupy-cuda12x", "12.0 to 12.9" },
};

const struct cupy_wheel *cupy_wheels(size_t *n)
{
	*n = sizeof cupy / sizeof cupy[0];
	return cupy;
}

/* ---- WSL ---- */

/*
 * microsoft/WSL packages.config, the Microsoft.WSL.Kernel package of each
 * release tag (tags before 2.5.8 name no kernel package there). Two
 * release lines ran side by side: 2.7 and 2.8 both moved from 6.6.114.1 to
 * 6.18 in May 2026 (2.7.4, 2.8.5). 0.67.6: Microsoft's systemd page; 1.1.3:
 * the start failure of March 2023 (microsoft/WSL#9866).
 */
static const struct wsl_release wsl[] = {
	{ "2.9.1", "2.9.4", "6.18.35.2", NULL },
	{ "2.9.0", "2.9.0", "6.18.35.1", NULL },
	{ "2.8.12", "2.8.12", "6.18.35.1", NULL },
	{ "2.8.9", "2.8.11", "6.18.26.3", NULL },
	{ "2.8.5", "2.8.8", "6.18.26.1", NULL },
	{ "2.8.0", "2.8.4", "6.6.114.1", NULL },
	{ "2.7.9", "2.7.11", "6.18.33.2", NULL },
	{ "2.7.8", "2.7.8", "6.18.33.1", NULL },
	{ "2.7.4", "2.7.7", "6.18.26.1", NULL },
	{ "2.7.0", "2.7.3", "6.6.114.1", NULL },
	{ "2.5.9", "2.6.3", "6.6.87.2", NULL },
	{ "2.5.8", "2.5.8", "6.6.87.1", NULL },
	{ "1.1.3", "1.1.3", NULL, "many installs failed to start with 0x80040326 (March 2023)" },
	{ "0.67.6", "0.67.6", NULL, "the first with systemd" },
};

const struct wsl_release *wsl_releases(size_t *n)
{
	*n = sizeof wsl / sizeof wsl[0];
	return wsl;
}

/* "6.6.87.2-microsoft-standard-WSL2" -> 6.6.87.2 */
static int kernel_parse(const char *k, struct version *v)
{
	return k ? version_parse(k, v) : -1;
}

const char *wsl_releases_of_kernel(const char *kernel, char *buf, size_t n)
{
	struct version want, v;
	if (!n || kernel_parse(kernel, &want) < 0)
		return NULL;
	buf[0] = '\0';
	size_t len = 0;
	for (size_t i = 0; i < sizeof wsl / sizeof wsl[0]; i++) {
		if (!wsl[i].kernel || kernel_parse(wsl[i].kernel, &v) < 0 || version_cmp(&v, &want))
			continue;
		int w = strcmp(wsl[i].first, wsl[i].last)
				? snprintf(buf + len, n - len, "%s%s to %s", len ? ", " : "", wsl[i].first,
					   wsl[i].last)
				: snprintf(buf + len, n - len, "%s%s", len ? ", " : "", wsl[i].first);
		if (w < 0 || (size_t)w >= n - len)
			break;
		len += (size_t)w;
	}
	return len ? buf : NULL;
}

const char *wsl_newest_known(void)
{
	return wsl[0].last;
}

const char *wsl_newest_kernel_known(void)
{
	struct version best, v;
	const char *k = NULL;
	for (size_t i = 0; i < sizeof wsl / sizeof wsl[0]; i++)
		if (wsl[i].kernel && version_parse(wsl[i].kernel, &v) == 0 &&
		    (!k || version_cmp(&v, &best) > 0)) {
			best = v;
			k = wsl[i].kernel;
		}
	return k;
}

static bool newer(const char *version, const char *newest)
{
	struct version a, b;
	return version && newest && version_parse(version, &a) == 0 &&
	       version_parse(newest, &b) == 0 && version_cmp(&a, &b) > 0;
}

bool wsl_newer_than_known(const char *version)
{
	return newer(version, wsl_newest_known());
}

bool wsl_kernel_newer_than_known(const char *kernel)
{
	return newer(kernel, wsl_newest_kernel_known());
}

/* ---- the container toolkit ---- */

/* NVIDIA/nvidia-container-toolkit tags and CHANGELOG.md; the packages of
 * every 1.x release: nvidia-container-toolkit, nvidia-container-toolkit-
 * base, libnvidia-container-tools, libnvidia-container1. */
static const struct ctk_release ctk[] = {
	{ "1.20.0", "2026-08-12", NULL },
	{ "1.19.1", "2026-05-21", NULL },
	{ "1.19.0", "2026-03-10", NULL },
	{ "1.18.2", "2026-01-21", NULL },
	{ "1.18.1", "2025-11-24", NULL },
	{ "1.18.0", "2025-10-21",
	  "the nvidia-cdi-refresh systemd service writes /var/run/cdi/nvidia.yaml" },
	{ "1.17.8", "2025-05-30", NULL },
	{ "1.17.2", "2024-11-15",
	  "legacy images' NVIDIA_IMEX_CHANNELS handled again (1.17.0 and 1.17.1 set it to all and failed)" },
	{ "1.17.1", "2024-11-08", NULL },
	{ "1.17.0", "2024-10-31", NULL },
	{ "1.14.0", "2023-08-29", "the last nvidia-docker2 meta package, 2.14.0, came with it" },
};

const struct ctk_release *ctk_releases(size_t *n)
{
	*n = sizeof ctk / sizeof ctk[0];
	return ctk;
}

bool ctk_newer_than_known(const char *version)
{
	return newer(version, ctk[0].version);
}

/* ---- newer than known ---- */

bool versions_newer(const char *kind, const char *version, struct strbuf *out)
{
	struct version v;
	if (!kind || !version || version_parse(version, &v) < 0)
		return false;
	char newest[64];
	if (!strcmp(kind, "cuda")) {
		if (!cuda_newer_than_known((int)v.part[0], v.n > 1 ? (int)v.part[1] : 0))
			return false;
		snprintf(newest, sizeof newest, "CUDA %s", cuda_newest_known()->release);
		versions_newer_words(out, "CUDA", version, newest);
	} else if (!strcmp(kind, "driver")) {
		if (!driver_newer_than_known(version))
			return false;
		snprintf(newest, sizeof newest, "R%d", branches[0].branch);
		versions_newer_words(out, "driver", version, newest);
	} else if (!strcmp(kind, "wsl")) {
		if (!wsl_newer_than_known(version))
			return false;
		versions_newer_words(out, "WSL", version, wsl_newest_known());
	} else if (!strcmp(kind, "wsl-kernel")) {
		if (!wsl_kernel_newer_than_known(version))
			return false;
		versions_newer_words(out, "kernel", version, wsl_newest_kernel_known());
	} else if (!strcmp(kind, "torch")) {
		/* Against the newest row, announced or not: an installed 2.15 is
		 * out, and the table knows what PyTorch announced for it. */
		struct version w;
		version_parse(wheels[0].torch, &w);
		w.n = 2;
		struct version mm = v;
		mm.n = 2;
		for (int i = 2; i < VERSION_MAX_PARTS; i++)
			mm.part[i] = w.part[i] = 0;
		if (version_cmp(&mm, &w) <= 0)
			return false;
		snprintf(newest, sizeof newest, "PyTorch %s", wheels[0].torch);
		versions_newer_words(out, "PyTorch", version, newest);
	} else if (!strcmp(kind, "tensorflow")) {
		if (!newer(version, tf[0].tensorflow))
			return false;
		snprintf(newest, sizeof newest, "TensorFlow %s", tf[0].tensorflow);
		versions_newer_words(out, "TensorFlow", version, newest);
	} else if (!strcmp(kind, "container-toolkit")) {
		if (!ctk_newer_than_known(version))
			return false;
		versions_newer_words(out, "NVIDIA Container Toolkit", version, ctk[0].version);
	} else {
		return false;
	}
	return true;
}

void versions_newer_words(struct strbuf *out, const char *what, const char *version,
			  const char *newest)
{
	sb_addf(out, "%s%s%s is newer than this tool's knowledge of %s", what ? what : "",
		what && *what ? " " : "", version, KNOWLEDGE_DATE);
	if (newest)
		sb_addf(out, " (its table ends at %s)", newest);
}
