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
 * With --windows it also asks the Windows side through interop, in one
 * batched query (src/facts/windows.h): nvidia-smi.exe (the driver model:
 * TCC GPUs are invisible to WSL, case H01), `wsl.exe --version`, the
 * Windows build, display-driver resets of the last 7 days and the TDR
 * settings, the display driver Windows runs against its driver store and
 * Windows Update's installs, and what Windows programs hold of the GPU's
 * memory; and says so when Windows cannot be asked.
 *
 * Its sources are "after:" deps (src/core/check.h): it runs after them
 * whatever they found, so that a broken NVML still leaves a driver version
 * from the driver store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stddef.h>

#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../facts/windows.h"
#include "../facts/wslhost.h"
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
		/* the first fix: the newest released toolkit this driver runs */
		char rel[16];
		if (cuda_released_upto(dc / 1000, (dc % 1000) / 10, rel, sizeof rel) == 0) {
			char *dot = strchr(rel, '.');
			if (dot)
				*dot = '-';
			res_ev(r, "driver_toolkit_pkg", "cuda-toolkit-%s", rel);
		}
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

/* The whole Windows query's share of the probe's time limit: most of it,
 * since PowerShell alone takes a second or more to start. */
static int windows_limit_ms(struct probe_ctx *ctx)
{
	int t = ctx->opts && ctx->opts->timeout_ms > 0 ? ctx->opts->timeout_ms : 10000;
	int l = t * 7 / 10;
	return l < 200 ? 200 : l;
}

static void mib(struct strbuf *sb, long long bytes)
{
	sb_addf(sb, "%lld MiB", (bytes + (1 << 19)) >> 20);
}

/* What each part of the query did: "smi-q ok; events-tdr absent (...)". */
static void parts_evidence(struct result *r, const struct winfacts *f)
{
	for (size_t i = 0; i < f->nparts; i++) {
		char key[48];
		snprintf(key, sizeof key, "windows.part.%s", f->part[i].name);
		if (f->part[i].note[0])
			res_ev(r, key, "%s: %s", f->part[i].state, f->part[i].note);
		else
			res_ev(r, key, "%s", f->part[i].state);
	}
}

/* nvidia-smi.exe: the driver Windows runs and its GPUs (TCC ones are
 * invisible to WSL, case H01; MCDM ones too where WSL's count says so). */
static void windows_gpus(struct probe_ctx *ctx, struct result *r, struct findings *v,
			 const struct winfacts *f, const char *driver)
{
	const struct nvsmi_info *in = &f->smi;
	if (in->driver_version[0])
		res_ev(r, "windows_driver_version", "%s", in->driver_version);
	if (in->cuda_version[0])
		res_ev(r, "windows_cuda_version", "%s", in->cuda_version);
	res_ev(r, "windows_gpu_count", "%zu", in->ngpus);
	size_t tcc = 0, mcdm = 0;
	for (size_t i = 0; i < in->ngpus; i++) {
		char key[48];
		int idx = in->gpu[i].index;
		snprintf(key, sizeof key, "windows.gpu.%d.name", idx);
		res_ev(r, key, "%s", in->gpu[i].name);
		if (in->gpu[i].model[0]) {
			snprintf(key, sizeof key, "windows.gpu.%d.driver_model", idx);
			res_ev(r, key, "%s", in->gpu[i].model);
		}
		if (i < f->ngpus) {
			const struct winfacts_gpu *g = &f->gpu[i];
			if (g->pstate[0]) {
				snprintf(key, sizeof key, "windows.gpu.%d.pstate", idx);
				res_ev(r, key, "%s", g->pstate);
			}
			if (g->power_draw[0] || g->power_limit[0]) {
				snprintf(key, sizeof key, "windows.gpu.%d.power", idx);
				res_ev(r, key, "%s of %s", g->power_draw[0] ? g->power_draw : "?",
				       g->power_limit[0] ? g->power_limit : "?");
			}
			if (g->mem_total > 0) {
				struct strbuf m = STRBUF_INIT;
				mib(&m, g->mem_used);
				sb_add(&m, " of ");
				mib(&m, g->mem_total);
				snprintf(key, sizeof key, "windows.gpu.%d.memory", idx);
				res_ev(r, key, "%s in use", m.buf);
				sb_release(&m);
			}
		}
		if (!strcmp(in->gpu[i].model, "TCC")) {
			res_ev(r, "tcc_gpu", "GPU %d: %s", idx, in->gpu[i].name);
			tcc++;
		}
		mcdm += !strcmp(in->gpu[i].model, "MCDM");
	}
	if (tcc)
		findings_add(v, ST_WARN, KB_HOST_DRIVER_TCC,
			 "Windows has %zu GPU%s in TCC mode, which WSL cannot see", tcc,
			 tcc == 1 ? "" : "s");
	const char *wsl_count = usable(ctx, "nvml.devices", "device_count");
	if (wsl_count)
		res_ev(r, "wsl_gpu_count", "%s", wsl_count);
	struct version a, b;
	if (driver && in->driver_version[0] && version_parse(driver, &a) == 0 &&
	    version_parse(in->driver_version, &b) == 0 && version_cmp(&a, &b) != 0)
		findings_add(v, ST_WARN, KB_HOST_DRIVER_WINDOWS_MISMATCH,
			 "Windows' nvidia-smi.exe reports driver %s, WSL sees %s", in->driver_version,
			 driver);
	else if (wsl_count && !tcc && (size_t)atol(wsl_count) < in->ngpus)
		findings_add(v, ST_WARN, KB_HOST_DRIVER_WINDOWS_MISMATCH,
			 "Windows lists %zu GPU%s%s, WSL's NVML %s", in->ngpus, in->ngpus == 1 ? "" : "s",
			 mcdm ? " (in the MCDM driver model: some)" : "", wsl_count);
}

/* Display-driver resets of the last 7 days, and the TDR settings. */
static void windows_tdr(struct result *r, struct findings *v, const struct winfacts *f)
{
	if (f->have_tdr_reg) {
		if (f->tdr_delay >= 0)
			res_ev(r, "tdr_delay", "%ld s (TdrDelay)", f->tdr_delay);
		else
			res_ev(r, "tdr_delay", "2 s (Windows' default: TdrDelay is not set)");
		if (f->tdr_level >= 0)
			res_ev(r, "tdr_level", "%ld%s", f->tdr_level,
			       f->tdr_level == 0 ? " (detection off)" : "");
	}
	if (!f->have_events)
		return;
	res_ev(r, "tdr_resets_7d", "%zu", f->resets);
	res_ev(r, "nvlddmkm_events_7d", "%zu", f->nv_errors);
	if (f->resets) {
		res_ev(r, "tdr_last", "%s%s%s", f->last_reset, f->reset_driver[0] ? ", driver " : "",
		       f->reset_driver);
		findings_add(v, ST_WARN, KB_HOST_WINDOWS_TDR,
			 "Windows reset the display driver %zu time%s in the last 7 days (last %s)",
			 f->resets, f->resets == 1 ? "" : "s", f->last_reset);
	} else if (f->nv_errors) {
		findings_add(v, ST_WARN, KB_HOST_WINDOWS_TDR,
			 "NVIDIA's Windows driver logged %zu error%s in the last 7 days", f->nv_errors,
			 f->nv_errors == 1 ? "" : "s");
	}
}

/* The driver Windows runs against the NVIDIA packages in its driver store
 * (WSL sees the store in /usr/lib/wsl/drivers), and Windows Update's
 * driver installs. */
static void windows_driver(struct result *r, struct findings *v, const struct winfacts *f)
{
	if (f->have_driver) {
		res_ev(r, "windows_driver_wmi", "%s %s (%s%s%s%s%s)", f->drv_provider, f->drv_version,
		       f->drv_name, f->drv_date[0] ? ", dated " : "", f->drv_date,
		       f->drv_inf[0] ? ", " : "", f->drv_inf);
	}
	if (f->have_wu && f->wu_nvidia)
		res_ev(r, "wu_driver_install", "%s, %s", f->wu_title, f->wu_time);
	if (!f->have_driver || !f->drv_version[0])
		return;
	struct version active, best, x;
	if (version_parse(f->drv_version, &active) < 0)
		return;
	struct nv_stores st;
	if (wslhost_scan_stores(&st) < 0)
		return;
	const struct nv_store *newer = NULL;
	for (size_t i = 0; i < st.n; i++)
		if (st.v[i].windows[0] && version_parse(st.v[i].windows, &x) == 0 &&
		    version_cmp(&x, &active) > 0 && (!newer || version_cmp(&x, &best) > 0)) {
			newer = &st.v[i];
			best = x;
		}
	if (newer) {
		res_ev(r, "newer_store_driver", "%s%s%s%s in %s", newer->windows,
		       newer->version[0] ? " (NVIDIA " : "", newer->version, newer->version[0] ? ")" : "",
		       newer->name);
		bool by_wu = f->wu_nvidia && strstr(f->wu_title, f->drv_version);
		if (by_wu)
			res_ev(r, "wu_installed_active", "yes");
		findings_add(v, ST_WARN, KB_HOST_WINDOWS_DRIVER_REPLACED,
			 "Windows runs NVIDIA driver %s%s, older than %s in its driver store",
			 f->drv_version, by_wu ? ", installed by Windows Update" : "", newer->windows);
	}
	wslhost_free_stores(&st);
}

/* The GPU's memory: what Windows programs hold of it. */
static void windows_memory(struct result *r, struct findings *v, const struct winfacts *f)
{
	if (!f->have_mem)
		return;
	long long total = f->ngpus && f->gpu[0].mem_total > 0 ? f->gpu[0].mem_total : -1;
	struct strbuf sb = STRBUF_INIT;
	mib(&sb, f->mem_adapter);
	if (total > 0) {
		sb_add(&sb, " of ");
		mib(&sb, total);
	}
	res_ev(r, "gpu_memory_in_use", "%s", sb.buf);
	res_ev(r, "gpu_memory_adapter", "luid %s (the most dedicated memory in use)", f->mem_luid);
	sb_reset(&sb);
	mib(&sb, f->mem_windows);
	res_ev(r, "gpu_memory_windows", "%s", sb.buf);
	sb_reset(&sb);
	mib(&sb, f->mem_vm);
	res_ev(r, "gpu_memory_vm", "%s (vmmem, vmmemWSL)", sb.buf);
	for (size_t i = 0; i < f->nprocs; i++) {
		sb_reset(&sb);
		mib(&sb, f->proc[i].bytes);
		res_ev(r, "gpu_memory_user", "%s (pid %ld): %s", f->proc[i].name[0] ? f->proc[i].name : "?",
		       f->proc[i].pid, sb.buf);
	}
	/* More than half of the GPU's memory held by Windows programs leaves a
	 * job in WSL less than it expects from nvidia-smi's total. */
	if (total > 0 && f->mem_windows * 2 > total) {
		const struct winfacts_proc *top = NULL;
		for (size_t i = 0; i < f->nprocs && !top; i++)
			if (!f->proc[i].vm)
				top = &f->proc[i];
		sb_reset(&sb);
		mib(&sb, f->mem_windows);
		sb_add(&sb, " of ");
		mib(&sb, total);
		if (top)
			res_ev(r, "gpu_memory_top", "%s", top->name[0] ? top->name : "?");
		findings_add(v, ST_WARN, KB_HOST_WINDOWS_GPU_MEMORY,
			 "Windows programs hold %s of the GPU's memory%s%s", sb.buf,
			 top ? ", most of it " : "", top ? (top->name[0] ? top->name : "an unnamed process") : "");
	}
	sb_release(&sb);
}

static void windows_view(struct probe_ctx *ctx, struct result *r, struct findings *v,
			 const char *driver)
{
	if (!probe_is_wsl2(ctx)) {
		const char *pf = probe_platform(ctx);
		res_ev(r, "windows", "not WSL: there is no Windows side to ask");
		findings_add(v, ST_PASS, KB_HOST_WINDOWS_NOT_WSL,
			 "--windows: this machine (%s) has no Windows side to ask", pf ? pf : "not WSL");
		return;
	}
	const struct result *interop = probe_dep(ctx, "platform.interop");
	if (interop && interop->kb && !strcmp(interop->kb, KB_PLATFORM_INTEROP_DISABLED)) {
		res_ev(r, "windows", "Windows interop is not available, so --windows cannot ask");
		findings_add(v, ST_WARN, KB_HOST_WINDOWS_UNREACHABLE,
			 "--windows: Windows cannot be asked: interop is not available");
		return;
	}
	probe_step(ctx, "asking Windows (powershell.exe, or its programs one by one)");
	struct winfacts_opts o = { .timeout_ms = windows_limit_ms(ctx) };
	const struct winfacts *f = winfacts_get(&o);
	if (!f)
		return; /* o.run deferred: the probe runs again where it may run commands */
	res_ev(r, "windows_query", "%s, %.1f s", f->via == WINFACTS_VIA_POWERSHELL ?
	       "one PowerShell run" : f->via == WINFACTS_VIA_PROGRAMS ? "the programs one by one (no PowerShell)" :
	       "nothing could be run", f->ms / 1000.0);
	parts_evidence(r, f);
	if (f->host_key[0]) /* hashed: the fleet's join key, never the GUID */
		res_ev(r, "windows_host_hash", "%s", f->host_key);
	if (!f->reached) {
		res_ev(r, "windows", "%s", f->why);
		findings_add(v, ST_WARN, KB_HOST_WINDOWS_UNREACHABLE,
			 "--windows: Windows did not answer: %s", f->why);
		return;
	}
	if (f->why[0])
		res_ev(r, "windows_partial", "%s", f->why);
	if (f->have_smi)
		windows_gpus(ctx, r, v, f, driver);
	if (f->have_wsl) {
		static const struct {
			const char *key;
			size_t off;
		} w[] = {
			{ "wsl_version", offsetof(struct winwslver, wsl) },
			{ "wsl_kernel_version", offsetof(struct winwslver, kernel) },
			{ "wslg_version", offsetof(struct winwslver, wslg) },
			{ "msrdc_version", offsetof(struct winwslver, msrdc) },
			{ "direct3d_version", offsetof(struct winwslver, direct3d) },
			{ "dxcore_version", offsetof(struct winwslver, dxcore) },
			{ "windows_version", offsetof(struct winwslver, windows) },
		};
		for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
			const char *val = (const char *)&f->wsl + w[i].off;
			if (*val)
				res_ev(r, w[i].key, "%s", val);
		}
		struct strbuf known = STRBUF_INIT;
		if (versions_newer("wsl", res_get(r, "wsl_version"), &known))
			res_ev(r, "wsl_known", "%s", known.buf);
		sb_release(&known);
	} else {
		res_ev(r, "wsl_version", "unknown (wsl.exe --version did not answer)");
	}
	if (f->have_ver) {
		if (!f->have_wsl || !f->wsl.windows[0])
			res_ev(r, "windows_version", "%s", f->ver.version);
		res_ev(r, "windows_build", "%ld%s%s", f->ver.build, f->display_version[0] ? ", " : "",
		       f->display_version);
	}
	windows_tdr(r, v, f);
	windows_driver(r, v, f);
	windows_memory(r, v, f);
}

/* ---- host.driver ---- */

static void probe_driver(struct probe_ctx *ctx, struct result *r)
{
	struct findings v = FINDINGS_INIT;
	bool wsl = probe_is_wsl2(ctx);
	const char *raw = NULL, *source = NULL, *cuda = NULL;
	char driver[48] = "", cuda_est[16] = "", toolkit[32] = "";
	bool branch_cuda = false; /* cuda_est is the branch's own CUDA */

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
	} else if (cuda_driver_branch_release(driver, wsl, cuda_est, sizeof cuda_est) == 0) {
		/* Every driver of a branch reports the CUDA its branch shipped
		 * with: the newest it runs, never a minimum (470: 11.4). */
		branch_cuda = true;
		res_ev(r, "driver_cuda", "%s at most (the CUDA release this driver's branch "
					 "shipped with, from NVIDIA's table)", cuda_est);
		res_ev(r, "driver_cuda_max", "%s", cuda_est);
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
			compare_toolkit(r, &v, toolkit, tk, dc, !cuda && !branch_cuda);
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
		else if (branch_cuda)
			findings_add(&v, ST_PASS, NULL, "driver %s, CUDA %s at most (from %s)",
				 driver, cuda_est, source);
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
