/*
 * host_driver.c: the NVIDIA driver's version, from the best source there
 * is, against the minimums for WSL and for the installed CUDA software.
 *
 * Sources, best first: NVML (nvml.devices), nvidia-smi's header (nvml.smi),
 * the files of the Windows driver store (host.driver_store). On WSL the
 * version is the Windows driver's ("551.23"); NVIDIA supports CUDA on WSL
 * from R495 (CUDA on WSL guide §2.1). The CUDA version the driver supports
 * (nvidia-smi's "CUDA Version", not an installed toolkit) is compared with
 * the toolkit in /usr/local/cuda, major against major (a 13.x toolkit's
 * programs need a 13.x driver) and minor against minor (newer minors run by
 * minor-version compatibility, with a limited feature set). Where the
 * driver did not say its CUDA version, src/kb/driver_table.c estimates it.
 *
 * With --windows it also asks the Windows side through interop: the
 * nvidia-smi.exe table (its TCC/WDDM column: TCC GPUs are invisible to WSL,
 * case H01) and `wsl.exe --version`.
 *
 * Its sources are "after:" deps (src/core/check.h): it runs after them
 * whatever they found, so that a broken NVML still leaves a driver version
 * from the driver store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../kb/driver_table.h"
#include "../kb/versions.h"
#include "../parse/cudaver.h"
#include "../parse/nvsmi.h"
#include "../parse/version.h"
#include "probes.h"
#include "kb_ids.h"

/* A value of a check's evidence, if that check passed or warned. */
static const char *usable(struct probe_ctx *ctx, const char *id, const char *key)
{
	const struct result *d = probe_dep(ctx, id);
	if (!d || (d->status != ST_PASS && d->status != ST_WARN))
		return NULL;
	const char *v = res_get(d, key);
	return v && *v ? v : NULL;
}

/*
 * What WSL's nvidia-smi printed in its header, whatever nvml.smi concluded:
 * a header printed before a crash (case H05) is still the driver talking.
 * Not when the nvidia-smi on PATH was another one (case R07): then only
 * WSL's own copy counts.
 */
static const char *smi_value(struct probe_ctx *ctx, const char *key)
{
	const struct result *d = probe_dep(ctx, "nvml.smi");
	if (!d)
		return NULL;
	const char *v;
	if (d->kb && !strcmp(d->kb, KB_NVML_SMI_LINUX_SHADOW))
		v = strcmp(key, "driver_version") ? NULL : res_get(d, "wsl_smi_driver_version");
	else
		v = res_get(d, key);
	return v && *v ? v : NULL;
}

/* The installed toolkit: /usr/local/cuda/version.json, or version.txt. */
static bool toolkit_version(struct result *r, char *out, size_t n)
{
	static const char *const files[] = { "/usr/local/cuda/version.json",
					     "/usr/local/cuda/version.txt" };
	for (size_t i = 0; i < 2; i++) {
		struct strbuf t = STRBUF_INIT;
		int rc = rootfs_read(files[i], 1 << 20, &t, NULL);
		if (rc == 0 && cudaver_toolkit_parse(t.buf, t.len, out, n) == 0) {
			res_ev(r, "toolkit_file", "%s", files[i]);
			res_ev(r, "toolkit_version", "%s", out);
			sb_release(&t);
			return true;
		}
		sb_release(&t);
	}
	return false;
}

/* Driver against the toolkit: major.minor of the toolkit (tk) and of what
 * the driver supports (dc), both as 1000*major + 10*minor. */
static void compare_toolkit(struct result *r, struct findings *v, const char *toolkit, int tk,
			    int dc, bool estimated)
{
	char dcs[16];
	cudaver_format(dc, dcs, sizeof dcs);
	if (tk / 1000 > dc / 1000 && !estimated) {
		const char *fam = cuda_family_min_driver(tk / 1000, false);
		if (fam)
			res_ev(r, "toolkit_family_min_linux", "%s", fam);
		findings_add(v, ST_FAIL, KB_HOST_DRIVER_TOOLKIT_TOO_NEW,
			 "CUDA toolkit %s needs a driver for CUDA %d.x; this driver supports CUDA %s",
			 toolkit, tk / 1000, dcs);
	} else if (tk > dc) {
		const struct cuda_driver_row *row = cuda_driver_row_for(toolkit);
		struct strbuf known = STRBUF_INIT;
		if (versions_newer("cuda", toolkit, &known))
			res_ev(r, "toolkit_known", "%s", known.buf);
		sb_release(&known);
		if (row && row->linux_min) {
			res_ev(r, "toolkit_driver_linux", "%s", row->linux_min);
			if (row->windows_min)
				res_ev(r, "toolkit_driver_windows", "%s", row->windows_min);
		}
		if (estimated)
			findings_add(v, ST_WARN, KB_HOST_DRIVER_TOOLKIT_MINOR_NEWER,
				 "CUDA toolkit %s may need a newer driver: this one supports CUDA %s "
				 "or newer (estimated)", toolkit, dcs);
		else
			findings_add(v, ST_WARN, KB_HOST_DRIVER_TOOLKIT_MINOR_NEWER,
				 "CUDA toolkit %s is newer than CUDA %s, the newest this driver "
				 "supports", toolkit, dcs);
	}
}

/* ---- --windows: the Windows view through interop ---- */

static int cmd_limit_ms(struct probe_ctx *ctx)
{
	int t = ctx->opts && ctx->opts->timeout_ms > 0 ? ctx->opts->timeout_ms : 10000;
	int l = t * 2 / 5;
	return l < 100 ? 100 : l;
}

/* Finds a Windows program: PATH (WSL appends the Windows PATH), else its
 * usual place on C:. */
static int find_windows(const char *name, const char *const *fallbacks, struct strbuf *guest,
			struct strbuf *host)
{
	bool on_path;
	if (rootfs_which(name, guest, host, &on_path) == 0)
		return 0;
	for (size_t i = 0; fallbacks[i]; i++) {
		struct stat st;
		sb_reset(guest);
		sb_reset(host);
		if (rootfs_stat(fallbacks[i], &st) == 0 &&
		    rootfs_host_path(fallbacks[i], true, host) == 0) {
			sb_add(guest, fallbacks[i]);
			return 0;
		}
	}
	return -1;
}

/* wsl.exe writes UTF-16LE unless WSL_UTF8=1 reached it; drop NULs and CRs
 * either way (microsoft/WSL#4607). */
static void plain_text(const struct strbuf *in, struct strbuf *out)
{
	for (size_t i = 0; i < in->len; i++)
		if (in->buf[i] != '\0' && in->buf[i] != '\r')
			sb_addc(out, in->buf[i]);
}

static void wsl_version(struct probe_ctx *ctx, struct result *r)
{
	static const char *const where[] = { "/mnt/c/Windows/System32/wsl.exe", NULL };
	struct strbuf guest = STRBUF_INIT, host = STRBUF_INIT, wslenv = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT, end = STRBUF_INIT;
	if (find_windows("wsl.exe", where, &guest, &host) < 0) {
		res_ev(r, "wsl_version", "unknown (wsl.exe not found)");
		goto out;
	}
	const char *old = getenv("WSLENV");
	sb_addf(&wslenv, "WSLENV=%s%sWSL_UTF8", old && *old ? old : "", old && *old ? ":" : "");
	const char *env[] = { "WSL_UTF8=1", wslenv.buf, NULL };
	const char *argv[] = { host.buf, "--version", NULL };
	struct proc_opts po = { cmd_limit_ms(ctx), 0, env, NULL };
	struct proc_result pr;
	proc_result_init(&pr);
	probe_step(ctx, "running %s --version", guest.buf);
	probe_run(ctx, r, argv, &po, &pr);
	proc_describe_end(&pr, &end);
	plain_text(&pr.out, &text);
	res_ev(r, "wsl_exe", "%s (%s)", guest.buf, end.buf);
	static const struct {
		const char *label, *key;
	} lines[] = {
		{ "WSL version:", "wsl_version" },
		{ "Kernel version:", "wsl_kernel_version" },
		{ "Windows version:", "windows_version" },
	};
	bool any = false;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		const char *p = strstr(sb_str(&text), lines[i].label);
		if (!p)
			continue;
		p += strlen(lines[i].label);
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, "\n");
		res_ev(r, lines[i].key, "%.*s", (int)n, p);
		any = true;
	}
	if (!any)
		res_ev(r, "wsl_version", "unknown (wsl.exe --version %s)", end.buf);
	struct strbuf known = STRBUF_INIT;
	if (versions_newer("wsl", res_get(r, "wsl_version"), &known))
		res_ev(r, "wsl_known", "%s", known.buf);
	sb_release(&known);
	proc_result_release(&pr);
out:
	sb_release(&guest);
	sb_release(&host);
	sb_release(&wslenv);
	sb_release(&text);
	sb_release(&end);
}

static void windows_view(struct probe_ctx *ctx, struct result *r, struct findings *v,
			 const char *driver)
{
	if (!probe_is_wsl2(ctx)) {
		res_ev(r, "windows", "not WSL: there is no Windows side to ask");
		return;
	}
	const struct result *interop = probe_dep(ctx, "platform.interop");
	if (interop && interop->kb && !strcmp(interop->kb, KB_PLATFORM_INTEROP_DISABLED)) {
		res_ev(r, "windows", "Windows interop is not available, so --windows cannot ask");
		return;
	}
	static const char *const where[] = {
		"/mnt/c/Windows/System32/nvidia-smi.exe",
		"/mnt/c/Program Files/NVIDIA Corporation/NVSMI/nvidia-smi.exe",
		NULL,
	};
	struct strbuf guest = STRBUF_INIT, host = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf end = STRBUF_INIT;
	if (find_windows("nvidia-smi.exe", where, &guest, &host) < 0) {
		res_ev(r, "windows_smi", "nvidia-smi.exe not found on PATH or in C:\\Windows\\System32");
		goto wsl;
	}
	const char *argv[] = { host.buf, NULL };
	struct proc_opts po = { cmd_limit_ms(ctx), 0, NULL, NULL };
	struct proc_result pr;
	proc_result_init(&pr);
	probe_step(ctx, "running %s", guest.buf);
	probe_run(ctx, r, argv, &po, &pr);
	proc_describe_end(&pr, &end);
	plain_text(&pr.out, &out);
	plain_text(&pr.err, &out);
	struct nvsmi_info in;
	nvsmi_parse(sb_str(&out), out.len, &in);
	res_ev(r, "windows_smi", "%s (%s)", guest.buf, end.buf);
	proc_result_release(&pr);
	if (!in.have_header) {
		if (out.len)
			res_ev_text(r, "windows_smi_output", out.buf, 1000);
		goto wsl;
	}
	if (in.driver_version[0])
		res_ev(r, "windows_driver_version", "%s", in.driver_version);
	if (in.cuda_version[0])
		res_ev(r, "windows_cuda_version", "%s", in.cuda_version);
	res_ev(r, "windows_gpu_count", "%zu", in.ngpus);
	size_t tcc = 0;
	for (size_t i = 0; i < in.ngpus; i++) {
		char key[48];
		snprintf(key, sizeof key, "windows.gpu.%d.name", in.gpu[i].index);
		res_ev(r, key, "%s", in.gpu[i].name);
		if (in.gpu[i].model[0]) {
			snprintf(key, sizeof key, "windows.gpu.%d.driver_model", in.gpu[i].index);
			res_ev(r, key, "%s", in.gpu[i].model);
		}
		if (!strcmp(in.gpu[i].model, "TCC")) {
			res_ev(r, "tcc_gpu", "GPU %d: %s", in.gpu[i].index, in.gpu[i].name);
			tcc++;
		}
	}
	if (tcc)
		findings_add(v, ST_WARN, KB_HOST_DRIVER_TCC,
			 "Windows has %zu GPU%s in TCC mode, which WSL cannot see", tcc,
			 tcc == 1 ? "" : "s");
	const char *wsl_count = usable(ctx, "nvml.devices", "device_count");
	if (wsl_count)
		res_ev(r, "wsl_gpu_count", "%s", wsl_count);
	struct version a, b;
	if (driver && in.driver_version[0] && version_parse(driver, &a) == 0 &&
	    version_parse(in.driver_version, &b) == 0 && version_cmp(&a, &b) != 0)
		findings_add(v, ST_WARN, KB_HOST_DRIVER_WINDOWS_MISMATCH,
			 "Windows' nvidia-smi.exe reports driver %s, WSL sees %s", in.driver_version,
			 driver);
	else if (wsl_count && !tcc && (size_t)atol(wsl_count) < in.ngpus)
		findings_add(v, ST_WARN, KB_HOST_DRIVER_WINDOWS_MISMATCH,
			 "Windows lists %zu GPU%s, WSL's NVML %s", in.ngpus, in.ngpus == 1 ? "" : "s",
			 wsl_count);
wsl:
	wsl_version(ctx, r);
	sb_release(&guest);
	sb_release(&host);
	sb_release(&out);
	sb_release(&end);
}

/* ---- host.driver ---- */

static void probe_driver(struct probe_ctx *ctx, struct result *r)
{
	struct findings v = FINDINGS_INIT;
	bool wsl = probe_is_wsl2(ctx);
	const char *raw = NULL, *source = NULL, *cuda = NULL;
	char driver[48] = "", cuda_est[16] = "", toolkit[32] = "";

	/* The first source whose answer reads as a driver version. */
	const struct {
		const char *value, *name;
	} sources[] = {
		{ usable(ctx, "nvml.devices", "driver_version"), "NVML" },
		{ smi_value(ctx, "driver_version"), "nvidia-smi" },
		{ usable(ctx, "host.driver_store", "version"), wsl ? "driver store" : "kernel module" },
	};
	for (size_t i = 0; i < sizeof sources / sizeof sources[0] && !source; i++)
		if (sources[i].value &&
		    driver_version_normalize(sources[i].value, driver, sizeof driver) == 0 &&
		    driver[0]) {
			raw = sources[i].value;
			source = sources[i].name;
		}
	if (!(cuda = usable(ctx, "nvml.devices", "cuda_version"))) {
		const char *s = smi_value(ctx, "cuda_version");
		if (s && cudaver_from_string(s) > 0)
			cuda = s; /* not "ERR!" (case N03) */
	}
	if (!source) {
		res_set(r, ST_WARN, KB_HOST_DRIVER_UNKNOWN,
			"the driver version could not be read from NVML, nvidia-smi or the driver "
			"store");
		goto windows_only;
	}
	res_ev(r, "driver_version", "%s", driver);
	res_ev(r, "driver_source", "%s", source);
	if (strcmp(raw, driver))
		res_ev(r, "driver_version_raw", "%s (converted by a convention, not an official "
						"rule)", raw);
	struct strbuf known = STRBUF_INIT;
	if (cuda) {
		res_ev(r, "driver_cuda_version", "%s", cuda);
		res_ev(r, "driver_cuda", "%s", cuda);
		if (versions_newer("cuda", cuda, &known))
			res_ev(r, "driver_cuda_known", "%s", known.buf);
	} else if (cuda_driver_newest_release(driver, wsl, cuda_est, sizeof cuda_est) == 0) {
		res_ev(r, "driver_cuda", "%s or newer (estimated from NVIDIA's table of the "
					 "drivers each CUDA release ships with)", cuda_est);
	}

	/* A Linux driver's branch against the branch table (on WSL the
	 * Windows numbering differs; its CUDA version is what counts). */
	sb_reset(&known);
	if (!wsl && versions_newer("driver", driver, &known))
		res_ev(r, "driver_known", "%s", known.buf);
	sb_release(&known);
	struct version dv, min;
	version_parse(driver, &dv);
	version_parse(WSL_MIN_WINDOWS_DRIVER, &min);
	if (wsl) {
		res_ev(r, "wsl_minimum", "R%s", WSL_MIN_WINDOWS_DRIVER);
		if (version_cmp(&dv, &min) < 0)
			findings_add(&v, ST_FAIL, KB_HOST_DRIVER_TOO_OLD_WSL,
				 "Windows driver %s is older than R%s, the first with CUDA on WSL",
				 driver, WSL_MIN_WINDOWS_DRIVER);
	}

	if (toolkit_version(r, toolkit, sizeof toolkit)) {
		int tk = cudaver_from_string(toolkit);
		int dc = cuda ? cudaver_from_string(cuda) : cudaver_from_string(cuda_est);
		if (tk > 0 && dc > 0)
			compare_toolkit(r, &v, toolkit, tk, dc, !cuda);
		/* Natively the family minimum is documented: below it nothing
		 * built with the toolkit runs. */
		const char *fam = tk > 0 ? cuda_family_min_driver(tk / 1000, wsl) : NULL;
		struct version fv;
		if (!wsl && fam && version_parse(fam, &fv) == 0 && version_cmp(&dv, &fv) < 0)
			findings_add(&v, ST_FAIL, KB_HOST_DRIVER_TOOLKIT_TOO_NEW,
				 "CUDA toolkit %s needs driver %s or newer; this one is %s", toolkit,
				 fam, driver);
	}
	if (ctx->opts && ctx->opts->windows)
		windows_view(ctx, r, &v, driver);
	if (!v.n) {
		if (cuda)
			findings_add(&v, ST_PASS, NULL, "driver %s, CUDA %s (from %s)", driver, cuda,
				 source);
		else if (cuda_est[0])
			findings_add(&v, ST_PASS, NULL, "driver %s, CUDA %s or newer (from %s)",
				 driver, cuda_est, source);
		else
			findings_add(&v, ST_PASS, NULL, "driver %s (from %s)", driver, source);
	}
	findings_settle(r, &v);
	return;

windows_only:
	if (ctx->opts && ctx->opts->windows) {
		struct findings w = FINDINGS_INIT;
		findings_add(&w, ST_WARN, KB_HOST_DRIVER_UNKNOWN, "%s", r->detail);
		windows_view(ctx, r, &w, NULL);
		findings_settle(r, &w);
	}
	findings_release(&v);
}

const struct check_def host_driver_checks[] = {
	{ "host.driver", "host", "NVIDIA driver version",
	  "driver version and the CUDA version it supports, against the minimums",
	  { "platform.kind", "host.driver_store", "after:nvml.devices", "after:nvml.smi",
	    "after:platform.interop" },
	  probe_driver, CHECK_COMMANDS },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
