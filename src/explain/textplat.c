/* textplat.c: the platform a log comes from, by its markers. See textplat.h. */
#include "textplat.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { P_WSL, P_WIN, P_NATIVE, P_CTR, P_GUEST, P_DD_LINUX, P_N };

static const struct {
	const char *text;
	int plat;
} markers[] = {
	{ "/usr/lib/wsl", P_WSL }, { "ld.wsl.conf", P_WSL }, { "/dev/dxg", P_WSL },
	{ "dxgkrnl", P_WSL }, { "dxgk", P_WSL },
	/* WSL's dxcore by what only WSL prints: its library's file, named
	 * by a loader or a tool ("libdxcore.so: cannot open shared object
	 * file", nvidia-ctk's "Could not locate libdxcore.so"), the
	 * toolkit's adapter lines (dxcore.c), its failure and Mesa's. Not
	 * the bare word: libnvidia-container probes for dxcore on every
	 * host and says so on native Linux too ("dxcore initialization
	 * failed, continuing assuming a non-WSL environment"). */
	{ "libdxcore", P_WSL }, { "dxcore.c:", P_WSL }, { "failed to initialize dxcore", P_WSL },
	{ "dxcore adapter", P_WSL },
	/* dxgkrnl's VMBus source file and its functions (dxgvmb_send_*) */
	{ "dxgvmbus", P_WSL }, { "dxgvmb", P_WSL },
	/* its ioctl handlers, quoted without the "dxgk:" prefix
	 * ("dxgkio_make_resident: Ioctl failed: -12"), and the WSL kernel
	 * a reporter names: both outrank a "Windows 10" in the same text */
	{ "dxgkio_", P_WSL }, { "wsl kernel", P_WSL },
	{ "microsoft-standard-wsl2", P_WSL }, { "wsl.exe", P_WSL }, { "wsl/service", P_WSL },
	{ "wslregisterdistribution", P_WSL }, { "hcs_e_", P_WSL }, { "wsl2", P_WSL },
	{ "\\\\wsl$", P_WSL }, { "\\\\wsl.localhost", P_WSL }, { "/mnt/c/", P_WSL },
	/* Windows drives as WSL mounts them (C: is the usual, data drives next) */
	{ "/mnt/d/", P_WSL }, { "/mnt/e/", P_WSL },
	{ "wsl environment detected", P_WSL }, { "docker desktop", P_WSL },

	{ "c:\\", P_WIN }, { "d:\\", P_WIN }, { "e:\\", P_WIN }, { "f:\\", P_WIN },
	{ ".dll", P_WIN }, { ".exe", P_WIN },
	{ "ps c:", P_WIN }, { "powershell", P_WIN }, { "hresult", P_WIN }, { "0x8007", P_WIN },
	{ "appdata", P_WIN }, { "program files", P_WIN },
	/* Windows' loader call for a DLL's function (Linux's is dlsym; Rust's
	 * libloading names it in its error), and a user folder whose "\" after
	 * the drive a Markdown renderer ate ("C:Users\runneradmin\.cargo\...":
	 * github.com/koharu-rs/koharu/issues/168) */
	{ "getprocaddress", P_WIN }, { "c:users\\", P_WIN },
	/* what programs on Windows print: Go's exit status of an NTSTATUS
	 * (Ollama's runner), a batch launcher and its pause, ComfyUI's
	 * portable Python, a venv's Scripts folder, PyTorch's own source
	 * paths; and the version a reporter names (WSL's markers win) */
	{ "exit status 0xc0000", P_WIN }, { "ntstatus", P_WIN }, { ".bat", P_WIN },
	{ "press any key to continue", P_WIN }, { "python_embeded", P_WIN },
	{ "win10", P_WIN }, { "win11", P_WIN }, { "windows 10", P_WIN }, { "windows 11", P_WIN },
	{ "\\scripts\\python", P_WIN }, { "venv\\scripts", P_WIN }, { "\\aten\\src\\", P_WIN },
	/* the NVIDIA driver's Windows kernel part, named in the event log
	 * (Display event 4101, its own events 153 and 13); WSL has none */
	{ "nvlddmkm", P_WIN },
	/* nvcc's and MSVC's own words for the host compiler (WSL's markers win) */
	{ "microsoft visual studio", P_WIN },
	/* MSVC's linker's fatal errors (LNK1181: cannot open input file 'cuda.lib'),
	 * and MSBuild's project files in its error lines */
	{ "fatal error lnk1", P_WIN }, { ".vcxproj", P_WIN },
	/* Python's words on Windows alone for a module's DLL (Linux's is
	 * "cannot open shared object file"), and a Windows user's folder
	 * written with forward slashes, as CMake and torch's headers print it */
	{ "dll load failed while importing", P_WIN }, { "c:/users/", P_WIN },
	/* cmd's and PowerShell's words for a command they cannot find */
	{ "is not recognized as an internal or external command", P_WIN },
	{ "is not recognized as the name of a cmdlet", P_WIN },
	/* what environment dumps print for Windows: Python's platform.platform()
	 * ("Windows-10-10.0.19045-SP0", Python's platform module docs; transformers'
	 * and diffusers' env reports), PyTorch's collect_env ("OS: Microsoft
	 * Windows 11 Pro"), a wheel's platform tag (PEP 425: win_amd64), a
	 * server edition, a Python package folder with Windows' separators and
	 * PowerShell's scripts (WSL's and Linux's markers win) */
	{ "windows-10-10.0", P_WIN }, { "windows-11-10.0", P_WIN },
	{ "os: microsoft windows", P_WIN }, { "win_amd64", P_WIN },
	{ "windows server 20", P_WIN }, { "\\site-packages\\", P_WIN }, { ".ps1", P_WIN },
	{ "%userprofile%", P_WIN },
	/* the Windows installers' own dialogs (Linux's is "nvidia-installer") */
	{ "nvidia installer cannot continue", P_WIN }, { "nvidia installer failed", P_WIN },

	{ "nvrm:", P_NATIVE }, { "nvidia.ko", P_NATIVE }, { "dkms", P_NATIVE },
	/* /proc/driver/nvidia/version's content: a loaded Linux kernel
	 * module (WSL has none; its path alone is what WSL users look for) */
	{ "nvrm version:", P_NATIVE },
	/* not /dev/nvidia0: "cannot access /dev/nvidia0" is what WSL users
	 * paste when they look for it, a myth there, no sign of native Linux */
	{ "secure boot", P_NATIVE },
	{ "xid", P_NATIVE }, { "rminitadapter", P_NATIVE }, { "modprobe", P_NATIVE },
	{ "nouveau", P_NATIVE }, { "/lib/modules/", P_NATIVE }, { "nvidia-installer", P_NATIVE },
	{ "mokutil", P_NATIVE }, { "linux-headers", P_NATIVE }, { "akmod", P_NATIVE },
	{ "akmods", P_NATIVE }, { "akmodsbuild", P_NATIVE },
	/* the driver's display modules by name (kernel lines, hung tasks,
	 * module lists: WSL has none), the initramfs builders a driver
	 * install runs, and a virtual console a user switches to when the
	 * desktop is black (WSL has none; WSL's and containers' markers win) */
	{ "nvidia-modeset", P_NATIVE }, { "nvidia_modeset", P_NATIVE }, { "nvidia-drm", P_NATIVE },
	{ "nvidia_drm", P_NATIVE }, { "mkinitcpio", P_NATIVE }, { "dracut", P_NATIVE },
	{ "update-initramfs", P_NATIVE }, { "another tty", P_NATIVE }, { "switch to tty", P_NATIVE },
	{ "switched to tty", P_NATIVE }, { "ctrl+alt+f", P_NATIVE },
	/* a kernel stack frame or module list entry in the driver's core and
	 * UVM modules ("RIP: 0010:nvidia_vma_access+0x1b/0x350 [nvidia]",
	 * "uvm_va_block_... [nvidia_uvm]"): a Linux kernel running NVIDIA's
	 * modules, which WSL's kernel never loads (its GPU is dxgkrnl's) */
	{ "[nvidia]", P_NATIVE }, { "[nvidia_uvm]", P_NATIVE },

	{ "/.dockerenv", P_CTR }, { "docker run", P_CTR }, { "docker: error response", P_CTR },
	{ "nvidia-container-cli", P_CTR }, { "nvidia-container-runtime", P_CTR },
	{ "nvidia-container-toolkit", P_CTR }, { "nvidia-ctk", P_CTR }, { "containerd", P_CTR },
	{ "runc", P_CTR }, { "oci runtime", P_CTR }, { "kubectl", P_CTR }, { "kubelet", P_CTR },
	{ "k8s-device-plugin", P_CTR }, { "pod/", P_CTR }, { "podman", P_CTR },
	{ "docker compose", P_CTR }, { "docker-compose", P_CTR }, { "--gpus", P_CTR },
	/* an NGC image's banner at its entrypoint ("Container image Copyright
	 * (c) 2025, NVIDIA CORPORATION"), and HPC's container runtimes */
	{ "container image copyright", P_CTR }, { "apptainer", P_CTR }, { "singularity", P_CTR },
	/* a pod's state in kubectl's listing, containerd's docker-like CLI,
	 * HAMi's in-container vGPU interposer (its "[HAMI-core ERROR ...]"
	 * lines, libvgpu.so), and a GitHub Actions job container's workspace
	 * ("/__w/_temp/...sh: line 1: nvidia-smi: command not found") */
	{ "crashloopbackoff", P_CTR }, { "nerdctl", P_CTR }, { "hami-core", P_CTR },
	{ "libvgpu", P_CTR }, { "/__w/", P_CTR },
	/* a pod spec's runtime class and the GPU resource Kubernetes schedules
	 * (the device plugin's nvidia.com/gpu, also CDI's device name in
	 * docker and podman), and NVIDIA's GPU Operator
	 * (github.com/gpustack/gpustack/issues/5122) */
	{ "runtimeclassname", P_CTR }, { "runtimeclass", P_CTR }, { "nvidia.com/gpu", P_CTR },
	{ "gpu operator", P_CTR }, { "gpu-operator", P_CTR },
	/* the command that printed the paste: a container's own output
	 * ("docker logs -f ollama", "docker container logs ab3d7ca114c0",
	 * "docker log xinference_gpu"; ollama/ollama#7786, #4216, #12352) */
	{ "docker logs", P_CTR }, { "docker log", P_CTR }, { "docker container logs", P_CTR },
	/* sandboxed runtimes (gVisor's runsc, Kata Containers) and Slurm's
	 * container plugin pyxis with its runtime enroot */
	{ "runsc", P_CTR }, { "gvisor", P_CTR }, { "nvproxy", P_CTR }, { "kata-containers", P_CTR },
	{ "kata-runtime", P_CTR }, { "pyxis", P_CTR }, { "enroot", P_CTR },

	/* A Hyper-V guest given a GPU by paravirtualisation borrows WSL's
	 * stack: dxgkrnl built out of tree (WSL's kernel has it built in,
	 * github.com/staralt/dxgkrnl-dkms), so its dxg markers say nothing
	 * about WSL, and no WSL or Windows step applies inside it. */
	{ "dxgkrnl: loading out-of-tree module", P_GUEST },
	{ "dxgkrnl: module verification failed", P_GUEST }, { "dxgkrnl-dkms", P_GUEST },
	/* DKMS building dxgkrnl, or modprobe looking for it: a module WSL's
	 * kernel never needs (github.com/staralt/dxgkrnl-dkms/issues/10,
	 * github.com/seflerZ/oneclick-gpu-pv/issues/2) */
	{ "dkms/dxgkrnl", P_GUEST }, { "dkms make.log for dxgkrnl", P_GUEST },
	{ "module dxgkrnl not found", P_GUEST },

	/* Docker Desktop for Linux, whose "Docker Desktop" is no WSL: its
	 * per-user socket (Windows' Docker Desktop listens on a named pipe;
	 * github.com/docker/docs/issues/23308, testcontainers-java#6426)
	 * and its name. Its containers run in its own VM on Linux. */
	{ "/.docker/desktop/docker.sock", P_DD_LINUX }, { "docker desktop for linux", P_DD_LINUX },
	{ "docker desktop on linux", P_DD_LINUX },
};

#define NMARKERS (sizeof markers / sizeof markers[0])

/* A marker that is a word ("xid", "runc", "wsl2") must not be part of a longer one;
 * one that starts with a sign (".bat") must end its word. */
static bool word_at(const char *lo, size_t len, size_t at, size_t n)
{
	bool before = at > 0 && isalnum((unsigned char)lo[at - 1]);
	/* a marker that ends in a digit is a prefix ("0x8007" of an HRESULT) */
	bool after = at + n < len && isalnum((unsigned char)lo[at + n]) &&
		     isalpha((unsigned char)lo[at + n - 1]);
	/* a kernel frame's module ("... [nvidia]"), not a Markdown link's
	 * text ("[NVIDIA](https://...)", pasted with an issue's template) */
	if (lo[at + n - 1] == ']' && at + n < len && lo[at + n] == '(')
		return false;
	/* ".bat" ends a word too (not ".battery") */
	if (!isalnum((unsigned char)lo[at]))
		return !after;
	return !before && !after;
}

/* A path marker ("/usr/lib/wsl") inside a word with a "*" is a pattern a
 * program searches on every host, not a path this one has: Ollama's GPU
 * discovery logs its globs ("gpu library search" globs="[...
 * /usr/lib/wsl/lib/libcuda.so* ...]") on native Linux
 * and in containers too (github.com/ollama/ollama/issues/11519). */
static bool in_glob(const char *lo, size_t len, size_t at)
{
	static const char stop[] = " \t\n\r\"'[],";
	size_t b = at, e = at;
	while (b > 0 && !strchr(stop, lo[b - 1]))
		b--;
	while (e < len && !strchr(stop, lo[e]))
		e++;
	return memchr(lo + b, '*', e - b) != NULL;
}

/* Docker Compose's prefix of a container's line, at a line's start: the
 * service's container name, which ends in its replica number (v2
 * "ollama-1", v1 "ml_api_1"), padded with spaces to the longest, then
 * "|" ("ollama-1  | text"); its colour codes and an indent may come first.
 * Not a table's row: one that starts with "|", or whose text has a further
 * cell ("gpu_1 | 45C | ok"). Returns the prefix's length, or 0. */
/* Past a colour code ("\033[1;32m") at p; p where none begins. */
static size_t after_sgr(const char *s, size_t len, size_t p)
{
	if (p + 1 >= len || s[p] != '\033' || s[p + 1] != '[')
		return p;
	p += 2;
	while (p < len && (isdigit((unsigned char)s[p]) || s[p] == ';'))
		p++;
	return p < len && s[p] == 'm' ? p + 1 : p;
}

static size_t compose_prefix(const char *s, size_t len)
{
	size_t p = 0;
	for (size_t was = SIZE_MAX; p != was;) {
		was = p;
		while (p < len && (s[p] == ' ' || s[p] == '\t'))
			p++;
		p = after_sgr(s, len, p);
	}
	size_t name = p;
	if (p >= len || !isalpha((unsigned char)s[p]))
		return 0;
	while (p < len && (isalnum((unsigned char)s[p]) || strchr("_.-", s[p])))
		p++;
	size_t e = p;
	while (e > name && isdigit((unsigned char)s[e - 1]))
		e--;
	if (e == p || e < name + 2 || (s[e - 1] != '-' && s[e - 1] != '_'))
		return 0;
	/* the padding (one space at least), and a colour's end in it */
	size_t spaces = 0;
	for (size_t was = SIZE_MAX; p != was;) {
		was = p;
		while (p < len && s[p] == ' ') {
			p++;
			spaces++;
		}
		p = after_sgr(s, len, p);
	}
	if (!spaces)
		return 0;
	if (p >= len || s[p] != '|' || (p + 1 < len && s[p + 1] != ' ' && s[p + 1] != '\n' &&
					 s[p + 1] != '\r'))
		return 0;
	size_t bar = ++p;
	/* a table's further cell: " | " or a "|" that ends the line */
	for (size_t q = bar; q < len && s[q] != '\n'; q++)
		if (s[q] == '|' && s[q - 1] == ' ' &&
		    (q + 1 == len || s[q + 1] == ' ' || s[q + 1] == '\n' || s[q + 1] == '\r'))
			return 0;
	return bar;
}

/* The first line of buf[0, len) with Compose's prefix, lower-cased into
 * out (the prefix, without colour codes); whether there is one. */
static bool compose_line(const char *buf, size_t len, char *out, size_t outsz)
{
	for (size_t p = 0; p < len;) {
		const char *nl = memchr(buf + p, '\n', len - p);
		size_t end = nl ? (size_t)(nl - buf) : len;
		size_t n = compose_prefix(buf + p, end - p);
		if (n) {
			size_t o = 0;
			for (size_t i = 0; i < n && o + 1 < outsz; i++) {
				size_t past = after_sgr(buf + p, n, i);
				if (past > i) { /* compose_prefix let only colour codes in */
					i = past - 1;
					continue;
				}
				if (o || buf[p + i] != ' ')
					out[o++] = (char)tolower((unsigned char)buf[p + i]);
			}
			out[o] = 0;
			return true;
		}
		p = end + 1;
	}
	return false;
}

void text_platform_read(const char *buf, size_t len, struct text_platform *tp)
{
	tp->kind = NULL;
	tp->marker[0] = 0;
	const char *first[P_N] = { NULL };
	/* the markers by their first byte: head[c], then next[m] */
	int head[256], next[NMARKERS];
	size_t mlen[NMARKERS];
	for (int c = 0; c < 256; c++)
		head[c] = -1;
	for (int m = (int)NMARKERS - 1; m >= 0; m--) {
		mlen[m] = strlen(markers[m].text);
		next[m] = head[(unsigned char)markers[m].text[0]];
		head[(unsigned char)markers[m].text[0]] = m;
	}
	/* One lower-cased window at a time: the kept paste is at most 4 MiB. */
	char lo[8192 + 64];
	size_t keep = 0;
	/* A paste is short; of a long log the first MiB says where it ran
	 * (and reading more would cost a big log's throughput). */
	if (len > TEXT_PLATFORM_READ)
		len = TEXT_PLATFORM_READ;
	for (size_t off = 0; off < len;) {
		size_t n = len - off < 8192 ? len - off : 8192;
		for (size_t i = 0; i < n; i++)
			lo[keep + i] = (char)tolower((unsigned char)buf[off + i]);
		size_t have = keep + n;
		lo[have] = 0;
		/* One pass over the window, trying at each byte the markers
		 * that begin with it (a memmem per marker read it ~60 times,
		 * a tenth of explain's time on a big log); then, in list order,
		 * the first marker found names its platform, as before. */
		bool found[NMARKERS] = { false };
		for (size_t i = 0; i < have; i++)
			for (int m = head[(unsigned char)lo[i]]; m >= 0; m = next[m]) {
				size_t ml = mlen[m];
				if (i + ml <= have && lo[i + 1] == markers[m].text[1] &&
				    !found[m] && !first[markers[m].plat] &&
				    !memcmp(lo + i, markers[m].text, ml) && word_at(lo, have, i, ml) &&
				    (markers[m].text[0] != '/' || !in_glob(lo, have, i)))
					found[m] = true;
			}
		for (size_t m = 0; m < NMARKERS; m++)
			if (found[m] && !first[markers[m].plat])
				first[markers[m].plat] = markers[m].text;
		off += n;
		/* keep the tail, for a marker split by the window */
		keep = have < 48 ? have : 48;
		memmove(lo, lo + have - keep, keep);
	}
	/* no container word: a line of Docker Compose's output */
	char compose[48];
	if (!first[P_CTR] && compose_line(buf, len, compose, sizeof compose))
		first[P_CTR] = compose;
	/* "docker desktop" is last of WSL's markers: first only when alone */
	if (first[P_DD_LINUX]) {
		if (first[P_WSL] && !strcmp(first[P_WSL], "docker desktop"))
			first[P_WSL] = NULL;
		if (!first[P_CTR])
			first[P_CTR] = first[P_DD_LINUX];
	}
	const char *why = NULL;
	if (first[P_GUEST] && !first[P_CTR]) {
		/* neither WSL nor native Linux: unknown */
	} else if (first[P_CTR]) {
		tp->kind = first[P_WSL] ? "container-in-wsl2" : "container";
		why = first[P_CTR];
	} else if (first[P_WSL]) {
		tp->kind = "wsl2";
		why = first[P_WSL];
	} else if (first[P_NATIVE]) {
		tp->kind = "native";
		why = first[P_NATIVE];
	} else if (first[P_WIN]) {
		tp->kind = "windows";
		why = first[P_WIN];
	}
	if (why) {
		strncpy(tp->marker, why, sizeof tp->marker - 1);
		tp->marker[sizeof tp->marker - 1] = 0;
	}
}

int text_platform_valid(const char *kind)
{
	static const char *const kinds[] = { "wsl1", "wsl2", "container-in-wsl2", "container",
					     "native", "windows", NULL };
	for (size_t i = 0; kinds[i]; i++)
		if (!strcmp(kind, kinds[i]))
			return 1;
	return 0;
}
