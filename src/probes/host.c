/*
 * host.c: the NVIDIA driver as far as files show it — on WSL the Windows
 * driver's store under /usr/lib/wsl/drivers, on native Linux the loaded
 * kernel module. (host.driver, in host_driver.c, asks NVML and compares the
 * version with the minimums.)
 *
 * On WSL, WSL mounts the Windows DriverStore FileRepository at
 * /usr/lib/wsl/drivers; the NVIDIA folder is the one holding libcuda.so.1.1
 * (see src/facts/wslhost.h). Several can coexist after driver updates; tools
 * that pick the wrong one have linked a stale nvidia-smi
 * (nvidia-container-toolkit v1.14.0-rc.2 changelog), so every one is listed
 * and the newest named. The version comes from the .inf's DriverVer by a
 * digit rule that is not an official NVIDIA statement, and is labelled as an
 * estimate.
 *
 * On native Linux the loaded module writes its version to
 * /proc/driver/nvidia/version: "NVRM version: NVIDIA UNIX x86_64 Kernel
 * Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024" (or "... Open Kernel
 * Module for x86_64  550.54.14 ..." for the open modules).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "../core/rootfs.h"
#include "../facts/osrelease.h"
#include "../facts/wslhost.h"
#include "probes.h"
#include "kb_ids.h"

static void fmt_time(time_t t, char *buf, size_t n)
{
	struct tm tm;
	if (t <= 0 || !gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, n, "unknown");
}

/* One line per store: where, what version, from which file, when. */
static void store_line(const struct nv_store *s, struct strbuf *out)
{
	char when[40];
	fmt_time(s->mtime, when, sizeof when);
	sb_reset(out);
	sb_add(out, s->path);
	if (s->version[0])
		sb_addf(out, " (driver %s, DriverVer %s %s)", s->version, s->date, s->windows);
	else if (s->windows[0])
		sb_addf(out, " (DriverVer %s %s)", s->date, s->windows);
	else
		sb_add(out, " (no DriverVer found)");
	sb_addf(out, ", modified %s", when);
}

static void wsl_store(struct probe_ctx *ctx, struct result *r)
{
	probe_step(ctx, "scanning %s", WSLHOST_DRIVERS);
	struct nv_stores s;
	int rc = wslhost_scan_stores(&s);
	struct strbuf line = STRBUF_INIT;
	if (rc < 0) {
		res_ev(r, "path", "%s", WSLHOST_DRIVERS);
		res_ev(r, "error", "%s", strerror(-rc));
		probe_image_ev(ctx, r);
		res_set(r, ST_FAIL, KB_HOST_DRIVER_STORE_NO_MOUNT, "%s %s", WSLHOST_DRIVERS,
			rc == -ENOENT ? "is missing: WSL did not mount the Windows driver store"
				      : "cannot be read");
		goto out;
	}
	res_ev(r, "folders", "%zu", s.entries);
	if (!s.n) {
		for (size_t i = 0; i < s.nnamed; i++)
			res_ev(r, "nvidia_named", "%s/%s has no libcuda.so.1.1", WSLHOST_DRIVERS,
			       s.nv_named[i]);
		res_set(r, ST_FAIL, KB_HOST_DRIVER_STORE_NONE,
			"no NVIDIA driver store in %s (%zu folder%s): no NVIDIA Windows driver with "
			"WSL support", WSLHOST_DRIVERS, s.entries, s.entries == 1 ? "" : "s");
		goto out;
	}
	size_t newest = wslhost_newest_store(&s);
	const struct nv_store *n = &s.v[newest];
	res_ev(r, "store", "%s", n->path);
	if (n->version[0]) {
		res_ev(r, "version", "%s", n->version);
		res_ev(r, "version_source", "estimated from the .inf DriverVer %s in %s (the last "
					    "digit of the third part and the fourth part; not an "
					    "official NVIDIA rule)", n->windows, n->inf);
	} else if (n->windows[0]) {
		res_ev(r, "version_source", "the .inf DriverVer %s in %s does not follow NVIDIA's "
					    "numbering; ask NVML (host.driver)", n->windows, n->inf);
	} else {
		res_ev(r, "version_source", "%s", n->inf ? "its .inf has no DriverVer line; ask "
							   "NVML (host.driver)"
							 : "the store has no .inf; ask NVML (host.driver)");
	}
	if (n->windows[0])
		res_ev(r, "driver_ver", "%s, %s", n->date, n->windows);
	for (size_t i = 0; i < s.n; i++) {
		store_line(&s.v[i], &line);
		res_ev(r, "found", "%s%s", line.buf, i == newest && s.n > 1 ? " (newest)" : "");
	}
	const char *ver = n->version[0] ? n->version : NULL;
	if (s.n == 1) {
		res_set(r, ST_PASS, NULL, "NVIDIA driver store %s%s%s%s", n->name,
			ver ? " (driver " : "", ver ? ver : "", ver ? ", estimated from its .inf)" : "");
		goto out;
	}
	struct strbuf stale = STRBUF_INIT;
	for (size_t i = 0; i < s.n; i++) {
		if (i == newest)
			continue;
		res_ev(r, "stale", "%s", s.v[i].path);
		sb_addf(&stale, "%s%s%s%s%s", stale.len ? ", " : "", s.v[i].name,
			s.v[i].version[0] ? " (" : "", s.v[i].version, s.v[i].version[0] ? ")" : "");
	}
	res_set(r, ST_WARN, KB_HOST_DRIVER_STORE_SEVERAL,
		"%zu NVIDIA driver stores: the newest is %s%s%s%s; older: %s", s.n, n->name,
		ver ? " (" : "", ver ? ver : "", ver ? ")" : "", stale.buf);
	sb_release(&stale);
out:
	wslhost_free_stores(&s);
	sb_release(&line);
}

/* The version in the NVRM line: the first blank-separated token made of
 * digits and dots with at least one dot. */
static bool nvrm_version(const char *text, char *out, size_t n)
{
	const char *line = strstr(text, "NVRM version:");
	if (!line)
		return false;
	const char *eol = strchr(line, '\n');
	if (!eol)
		eol = line + strlen(line);
	for (const char *p = line + 13; p < eol;) {
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		const char *s = p;
		bool dot = false, ok = p < eol;
		while (p < eol && *p != ' ' && *p != '\t') {
			if (*p == '.')
				dot = true;
			else if (!isdigit((unsigned char)*p))
				ok = false;
			p++;
		}
		size_t len = (size_t)(p - s);
		if (ok && dot && len < n && isdigit((unsigned char)*s)) {
			memcpy(out, s, len);
			out[len] = '\0';
			return true;
		}
	}
	return false;
}

static void native_driver(struct probe_ctx *ctx, struct result *r)
{
	const char *file = "/proc/driver/nvidia/version";
	probe_step(ctx, "reading %s", file);
	struct strbuf t = STRBUF_INIT;
	int rc = rootfs_read(file, 64 << 10, &t, NULL);
	res_ev(r, "file", "%s", file);
	if (rc < 0) {
		res_ev(r, "error", "%s", strerror(-rc));
		/* Which advice fits: a container shares the host's kernel, so
		 * the module is the host's to load; ubuntu-drivers exists only
		 * on Ubuntu (the container's os-release says nothing of the
		 * host's). */
		if (!strcmp(probe_platform(ctx), "container")) {
			res_ev(r, "in_container", "yes");
		} else {
			struct strbuf id = STRBUF_INIT;
			if (os_release_value("ID", &id) == 0 && id.len)
				res_ev(r, "distro_id", "%s", id.buf);
			sb_release(&id);
		}
		struct strbuf mods = STRBUF_INIT;
		if (rootfs_read("/proc/modules", 1 << 20, &mods, NULL) == 0) {
			bool found = !strncmp(mods.buf, "nvidia ", 7) || strstr(mods.buf, "\nnvidia ");
			res_ev(r, "module", "%s", found ? "nvidia is in /proc/modules"
						       : "no nvidia module in /proc/modules");
		}
		sb_release(&mods);
		probe_image_ev(ctx, r);
		res_set(r, ST_FAIL, KB_HOST_DRIVER_STORE_NO_KERNEL_DRIVER,
			"no NVIDIA kernel driver loaded (%s: %s)", file, strerror(-rc));
		goto out;
	}
	char ver[32];
	const char *nl = memchr(t.buf, '\n', t.len);
	struct strbuf first = STRBUF_INIT;
	sb_addn(&first, t.buf, nl ? (size_t)(nl - t.buf) : t.len);
	res_ev_text(r, "nvrm", first.buf, 200);
	sb_release(&first);
	bool open = strcasestr(t.buf, "Open Kernel Module") != NULL;
	if (nvrm_version(t.buf, ver, sizeof ver)) {
		res_ev(r, "version", "%s", ver);
		res_ev(r, "version_source", "%s (the loaded kernel module)", file);
		res_ev(r, "flavour", "%s", open ? "open kernel modules" : "proprietary kernel module");
		res_set(r, ST_PASS, NULL, "NVIDIA kernel module %s loaded (%s)", ver,
			open ? "open" : "proprietary");
	} else {
		res_ev(r, "version_source", "%s names no version", file);
		res_set(r, ST_PASS, NULL, "an NVIDIA kernel module is loaded (%s names no version)",
			file);
	}
out:
	sb_release(&t);
}

static void probe_driver_store(struct probe_ctx *ctx, struct result *r)
{
	const char *kind = probe_platform(ctx);
	struct stat st;
	if (probe_is_wsl2(ctx) ||
	    (!strcmp(kind, "unknown") && rootfs_stat(WSLHOST_DRIVERS, &st) == 0))
		wsl_store(ctx, r);
	else
		native_driver(ctx, r);
}

const struct check_def host_checks[] = {
	{ "host.driver_store", "host", "NVIDIA driver files", "WSL: the NVIDIA store in /usr/lib/wsl/drivers and the version its .inf shows; native: the loaded kernel module", { "bridge.dxg" }, probe_driver_store, CHECK_FILES },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
