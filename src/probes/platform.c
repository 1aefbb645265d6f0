/*
 * platform.c: which kind of machine is this — native Linux, WSL1, WSL2, a
 * container inside WSL2, another container — and its kernel, distribution,
 * Windows interop and systemd.
 *
 * platform.kind is written as ordered evidence in the manner of systemd's
 * src/basic/virt.c: each marker is a small named test that says yes, no or
 * don't know, and all markers are kept for -v. The kernel string decides
 * first (WSL1 "4.4.0-<build>-Microsoft", capital M; WSL2
 * "...-microsoft-standard[-WSL2]"), because WSL's own maintainers call it
 * the official marker (microsoft/WSL#423); the other markers confirm it
 * and catch custom kernels whose string names no Microsoft.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/rootfs.h"
#include "../facts/osrelease.h"
#include "../kb/versions.h"
#include "../parse/inifile.h"
#include "../parse/osrelease.h"
#include "../parse/version.h"
#include "probes.h"
#include "kb_ids.h"

static bool exists(const char *path)
{
	struct stat st;
	return rootfs_lstat(path, &st) == 0;
}

/* First line of a small file, trimmed; empty on error. */
static int read_line(const char *path, struct strbuf *out)
{
	int rc = rootfs_read(path, 4096, out, NULL);
	if (rc < 0)
		return rc;
	char *nl = memchr(out->buf, '\n', out->len);
	if (nl) {
		*nl = '\0';
		out->len = (size_t)(nl - out->buf);
	}
	sb_rtrim(out);
	return 0;
}

static bool container_markers(struct result *r)
{
	bool found = false;
	if (exists("/.dockerenv")) {
		res_ev(r, "marker", "/.dockerenv exists (Docker)");
		found = true;
	}
	if (exists("/run/.containerenv")) {
		res_ev(r, "marker", "/run/.containerenv exists (Podman)");
		found = true;
	}
	const char *c = getenv("container");
	if (c && *c) {
		res_ev(r, "marker", "$container=%s", c);
		found = true;
	}
	struct strbuf cg = STRBUF_INIT;
	if (rootfs_read("/proc/1/cgroup", 65536, &cg, NULL) == 0) {
		static const char *const words[] = { "docker", "kubepods", "containerd", "lxc", "libpod" };
		for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
			if (strstr(cg.buf, words[i])) {
				res_ev(r, "marker", "/proc/1/cgroup mentions %s", words[i]);
				found = true;
				break;
			}
	}
	sb_release(&cg);
	return found;
}

static void probe_kind(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	struct strbuf rel = STRBUF_INIT, ver = STRBUF_INIT, v = STRBUF_INIT;
	bool have_rel = read_line("/proc/sys/kernel/osrelease", &rel) == 0 && rel.len;
	if (!have_rel && read_line("/proc/version", &ver) == 0 && ver.len) {
		/* "Linux version 5.15.0-... (" : take the third word. */
		const char *p = ver.buf;
		if (strncmp(p, "Linux version ", 14) == 0) {
			p += 14;
			size_t n = strcspn(p, " ");
			sb_addn(&rel, p, n);
			have_rel = n > 0;
		}
	}
	if (have_rel) {
		struct strbuf clean = STRBUF_INIT;
		for (size_t i = 0; i < rel.len; i++)
			if (isprint((unsigned char)rel.buf[i]))
				sb_addc(&clean, rel.buf[i]);
		res_ev(r, "kernel", "%s", clean.buf ? clean.buf : "");
		sb_release(&clean);
	}

	const char *distro = NULL;
	if (os_release_value("PRETTY_NAME", &v) == 0 && v.len)
		distro = v.buf;
	res_ev(r, "distro", "%s", distro ? distro : "unknown");

	/* Marker 1: the kernel string. */
	bool k_wsl1 = false, k_wsl2 = false;
	if (have_rel) {
		if (strstr(rel.buf, "Microsoft"))
			k_wsl1 = true; /* WSL1: 4.4.0-19041-Microsoft, capital M */
		else if (strcasestr(rel.buf, "microsoft") || strstr(rel.buf, "WSL"))
			k_wsl2 = true;
	}
	/* Markers 2..n: what WSL's init sets up (research/wsl-facts.md §1.2). */
	int wsl_markers = 0;
	bool binfmt_f = false;
	struct strbuf bf = STRBUF_INIT;
	if (rootfs_read("/proc/sys/fs/binfmt_misc/WSLInterop", 4096, &bf, NULL) == 0) {
		wsl_markers++;
		res_ev(r, "marker", "binfmt_misc/WSLInterop registered");
		const char *fl = strstr(bf.buf, "flags:");
		if (fl && strchr(fl + 6, 'F') && (strchr(fl + 6, '\n') == NULL ||
						   strchr(fl + 6, 'F') < strchr(fl + 6, '\n')))
			binfmt_f = true; /* the F flag is only used in WSL2 */
	}
	sb_release(&bf);
	const char *dn = getenv("WSL_DISTRO_NAME");
	if (dn && *dn) {
		wsl_markers++;
		res_ev(r, "marker", "WSL_DISTRO_NAME=%s", dn);
		res_ev(r, "distro_name", "%s", dn); /* fills fix lines (wsl.exe -d NAME) */
	}
	const char *wi = getenv("WSL_INTEROP");
	if (wi && *wi) {
		wsl_markers++;
		res_ev(r, "marker", "WSL_INTEROP is set (WSL2 only)");
	}
	if (exists("/usr/lib/wsl")) {
		wsl_markers++;
		res_ev(r, "marker", "/usr/lib/wsl exists");
	}
	if (exists("/dev/dxg")) {
		wsl_markers++;
		res_ev(r, "marker", "/dev/dxg exists");
	}
	if (exists("/run/WSL")) {
		wsl_markers++;
		res_ev(r, "marker", "/run/WSL exists");
	}
	bool in_container = container_markers(r);

	const char *kind;
	if (!have_rel && !exists("/proc/self") && !exists("/proc/version")) {
		kind = "unknown";
		res_set(r, ST_WARN, KB_PLATFORM_KIND_UNKNOWN,
			"cannot tell what this machine is: /proc is not readable");
	} else if (k_wsl1) {
		kind = "wsl1";
		res_set(r, ST_FAIL, KB_PLATFORM_KIND_WSL1,
			"this distribution runs under WSL1, which has no GPU support");
	} else if (k_wsl2 || (wsl_markers >= 2 && (binfmt_f || (wi && *wi))) ||
		   (exists("/dev/dxg") && exists("/usr/lib/wsl"))) {
		/* /dev/dxg with WSL's directory is WSL2 even where the kernel
		 * string, interop and the variables say nothing (a custom kernel,
		 * interop off, a shell under sudo): native driver advice there
		 * would be wrong. */
		kind = in_container ? "container-in-wsl2" : "wsl2";
		if (!k_wsl2)
			res_ev(r, "note", "the kernel string names no Microsoft (custom kernel?); "
					  "WSL2 decided from the other markers");
		if (in_container)
			res_set(r, ST_PASS, NULL, "a container inside WSL2 (kernel %s)", rel.buf);
		else
			res_set(r, ST_PASS, NULL, "WSL2 (kernel %s)", rel.buf);
	} else if (in_container) {
		kind = "container";
		res_set(r, ST_PASS, NULL, "a container on native Linux (kernel %s)",
			have_rel ? rel.buf : "unknown");
	} else {
		kind = "native";
		res_set(r, ST_PASS, NULL, "native Linux (kernel %s)", have_rel ? rel.buf : "unknown");
	}
	res_ev(r, "kind", "%s", kind);
	sb_release(&rel);
	sb_release(&ver);
	sb_release(&v);
}

/*
 * NVIDIA's CUDA on WSL guide: "Ensure you are on the latest WSL Kernel or at
 * least 4.19.121+. We recommend 5.10.16.3 or later." (research §3.3)
 */
static void probe_kernel(struct probe_ctx *ctx, struct result *r)
{
	const char *rel = probe_dep_get(ctx, "platform.kind", "kernel");
	if (!rel) {
		res_set(r, ST_WARN, KB_PLATFORM_KERNEL_UNREADABLE,
			"the kernel release could not be read");
		return;
	}
	res_ev(r, "kernel", "%s", rel);
	if (!probe_is_wsl2(ctx)) {
		res_set(r, ST_PASS, NULL, "kernel %s", rel);
		return;
	}
	struct version v;
	if (version_parse(rel, &v) < 0) {
		res_set(r, ST_WARN, KB_PLATFORM_KERNEL_UNPARSED,
			"cannot read a version number in the kernel release '%s'", rel);
		return;
	}
	struct version minimum, recommended;
	version_parse("4.19.121", &minimum);
	version_parse("5.10.16.3", &recommended);
	res_ev(r, "minimum", "4.19.121");
	res_ev(r, "recommended", "5.10.16.3");
	if (version_cmp(&v, &minimum) < 0)
		res_set(r, ST_FAIL, KB_PLATFORM_KERNEL_TOO_OLD,
			"WSL kernel %s is older than 4.19.121, the minimum for GPU compute", rel);
	else if (version_cmp(&v, &recommended) < 0)
		res_set(r, ST_WARN, KB_PLATFORM_KERNEL_OLD,
			"WSL kernel %s is older than the recommended 5.10.16.3", rel);
	else {
		/* Which WSL releases ship it (src/kb/versions.c), or that it is
		 * newer than the table: never guessed into an older release. */
		char rels[160];
		struct strbuf w = STRBUF_INIT;
		if (wsl_releases_of_kernel(rel, rels, sizeof rels))
			res_ev(r, "wsl_releases", "WSL %s", rels);
		else if (wsl_kernel_newer_than_known(rel))
			versions_newer_words(&w, "kernel", rel, wsl_newest_kernel_known());
		if (w.len)
			res_ev(r, "kernel_known", "%s", w.buf);
		sb_release(&w);
		res_set(r, ST_PASS, NULL, "WSL kernel %s", rel);
	}
}

static void probe_distro(struct probe_ctx *ctx, struct result *r)
{
	(void)ctx;
	struct strbuf osr = STRBUF_INIT, v = STRBUF_INIT;
	const char *path = NULL;
	int rc = os_release_read(&osr, &path);
	if (rc < 0) {
		res_ev(r, "error", "%s", strerror(-rc));
		res_set(r, ST_WARN, KB_PLATFORM_DISTRO_UNKNOWN,
			"no readable os-release: the distribution is unknown");
		goto out;
	}
	res_ev(r, "file", "%s", path);
	static const char *const keys[] = { "ID", "VERSION_ID", "PRETTY_NAME", "ID_LIKE" };
	for (size_t i = 0; i < 4; i++)
		if (osrelease_get(osr.buf, osr.len, keys[i], &v) == 0)
			res_ev(r, keys[i], "%s", v.buf ? v.buf : "");
	const char *id = res_get(r, "ID"), *pretty = res_get(r, "PRETTY_NAME");
	if (!id && !pretty) {
		res_set(r, ST_WARN, KB_PLATFORM_DISTRO_UNKNOWN,
			"%s names no distribution (no ID or PRETTY_NAME)", path);
		goto out;
	}
	/* NixOS is not FHS: WSL's /usr/lib/wsl/lib binaries need nix-ld
	 * (field case L03, nix-community/NixOS-WSL#246, #578). */
	if (id && !strcmp(id, "nixos") && probe_is_wsl2(ctx)) {
		res_set(r, ST_WARN, KB_PLATFORM_DISTRO_NIXOS,
			"NixOS: WSL's GPU libraries and nvidia-smi need nix-ld to run");
		goto out;
	}
	res_set(r, ST_PASS, NULL, "%s", pretty ? pretty : id);
out:
	sb_release(&osr);
	sb_release(&v);
}

/* Reads /etc/wsl.conf into ini; returns false if there is none. */
static bool load_wsl_conf(struct result *r, struct inifile *ini)
{
	struct strbuf t = STRBUF_INIT;
	int rc = rootfs_read("/etc/wsl.conf", 1 << 20, &t, NULL);
	if (rc < 0) {
		memset(ini, 0, sizeof *ini);
		sb_release(&t);
		if (rc != -ENOENT)
			res_ev(r, "wsl.conf", "unreadable: %s", strerror(-rc));
		return false;
	}
	inifile_parse(t.buf, t.len, ini);
	sb_release(&t);
	return true;
}

static void probe_interop(struct probe_ctx *ctx, struct result *r)
{
	if (!probe_is_wsl2(ctx)) {
		res_set(r, ST_SKIP, NULL, "skipped: not WSL (Windows interop exists only there)");
		return;
	}
	struct inifile conf;
	bool have = load_wsl_conf(r, &conf);
	const struct inifile_item *en = have ? inifile_find(&conf, "interop", "enabled") : NULL;
	if (en)
		res_ev(r, "wsl.conf", "[interop] enabled=%s (line %d)", en->value, en->line);
	struct strbuf bf = STRBUF_INIT;
	int rc = rootfs_read("/proc/sys/fs/binfmt_misc/WSLInterop", 4096, &bf, NULL);
	if (rc == 0) {
		res_ev_text(r, "binfmt", bf.buf, 512);
		if (strncmp(bf.buf, "enabled", 7) == 0)
			res_set(r, ST_PASS, NULL, "Windows programs can be run from Linux");
		else
			res_set(r, ST_PASS, KB_PLATFORM_INTEROP_DISABLED,
				"Windows interop is registered but disabled: --windows checks cannot run");
	} else if (en && inifile_bool(en->value) == 0) {
		res_set(r, ST_PASS, KB_PLATFORM_INTEROP_DISABLED,
			"Windows interop is turned off in /etc/wsl.conf: --windows checks cannot run");
	} else {
		res_set(r, ST_PASS, KB_PLATFORM_INTEROP_DISABLED,
			"Windows interop is not available: --windows checks cannot run");
	}
	sb_release(&bf);
	if (have)
		inifile_free(&conf);
}

static void probe_systemd(struct probe_ctx *ctx, struct result *r)
{
	struct strbuf comm = STRBUF_INIT;
	bool pid1_systemd = read_line("/proc/1/comm", &comm) == 0 && !strcmp(comm.buf, "systemd");
	if (comm.len)
		res_ev(r, "pid1", "%s", comm.buf);
	sb_release(&comm);
	if (!probe_is_wsl2(ctx)) {
		res_set(r, ST_PASS, NULL, pid1_systemd ? "systemd is PID 1" : "systemd is not PID 1");
		return;
	}
	struct inifile conf;
	bool have = load_wsl_conf(r, &conf);
	const struct inifile_item *sd = have ? inifile_find(&conf, "boot", "systemd") : NULL;
	int want = sd ? inifile_bool(sd->value) : 0;
	if (sd)
		res_ev(r, "wsl.conf", "[boot] systemd=%s (line %d)", sd->value, sd->line);
	if (want == 1 && !pid1_systemd)
		res_set(r, ST_WARN, KB_PLATFORM_SYSTEMD_PENDING,
			"/etc/wsl.conf enables systemd but it is not running: WSL was not restarted");
	else if (pid1_systemd)
		res_set(r, ST_PASS, NULL, "systemd is running (PID 1)");
	else
		res_set(r, ST_PASS, NULL, "systemd is off (WSL's default); services such as dockerd "
					  "need starting by hand");
	if (have)
		inifile_free(&conf);
}

const struct check_def platform_checks[] = {
	{ "platform.kind", "platform", "Platform", "tell native Linux, WSL1, WSL2 and containers apart", { NULL }, probe_kind, CHECK_FILES },
	{ "platform.kernel", "platform", "Kernel", "the kernel version, and whether WSL's is recent enough", { "platform.kind" }, probe_kernel, CHECK_FILES },
	{ "platform.distro", "platform", "Distribution", "the distribution from os-release", { "platform.kind" }, probe_distro, CHECK_FILES },
	{ "platform.interop", "platform", "Windows interop", "whether Windows programs can be run (for --windows)", { "platform.kind" }, probe_interop, CHECK_FILES },
	{ "platform.systemd", "platform", "systemd", "wsl.conf [boot] systemd and whether systemd runs", { "platform.kind" }, probe_systemd, CHECK_FILES },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
