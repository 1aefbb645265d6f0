/*
 * cuda.c: the CUDA driver API layer. It proves, in order, that libcuda.so.1
 * loads (and which file the loader really picked), that cuInit finds the
 * driver and its devices, what each device is, and that a real kernel runs
 * and writes what it should.
 *
 * Each probe runs in its own child process (src/core/runner.c), so each
 * loads the library afresh through src/gpu/cudaapi.c; a driver that
 * crashes or hangs costs one probe, and the runner names the step it was
 * in (probe_step before every call that can block). The report process
 * itself never loads vendor code.
 *
 * Which file is loaded:
 *   real machine (--root /): dlopen("libcuda.so.1"), exactly as an
 *     application would (the tool's LD_LIBRARY_PATH, then ld.so.cache);
 *     the file the loader picked is compared with the one libs.libcuda
 *     predicted from ld.so.cache and LD_LIBRARY_PATH.
 *   fixture (--root DIR): the predicted guest file under DIR, which is
 *     what the loader would pick on the machine DIR describes; without a
 *     prediction nothing (never a default file in its place: that would
 *     judge a library the machine does not load). cuda.init, cuda.devices
 *     and cuda.kernel load the file cuda.load reported.
 *
 * The decisions themselves (which KB entry a CUresult means, whether the
 * loaded file is the right one, whether the kernel's output is right) are
 * pure functions in src/gpu/cudafacts.c, unit-tested without a library.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/path.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../gpu/cudaapi.h"
#include "../gpu/cudafacts.h"
#include "../gpu/kernels.h"
#include "../parse/dpkg.h"
#include "cuda_judge.h"
#include "probes.h"
#include "kb_ids.h"

#define WSL_LIBCUDA "/usr/lib/wsl/lib/libcuda.so.1"
/* Elements the probe kernel writes: 4 MiB, a real grid (4096 blocks);
 * wslgpu_check checks them all on the device. */
#define KERNEL_ELEMENTS (1u << 20)
#define KERNEL_BLOCK 256u

/* The entry of a ':'-separated list at index i (n bytes), or NULL. */
static const char *list_entry(const char *list, size_t i, size_t *n)
{
	if (!list)
		return NULL;
	const char *p = list;
	for (; i > 0; i--) {
		p = strchr(p, ':');
		if (!p)
			return NULL;
		p++;
	}
	*n = strcspn(p, ":");
	return p;
}

/* Whether the n bytes at p name dir (trailing slashes aside). */
static bool names_dir(const char *p, size_t n, const char *dir)
{
	if (!dir || !*dir)
		return false;
	size_t dn = strlen(dir);
	while (dn > 1 && dir[dn - 1] == '/')
		dn--;
	while (n > 1 && p[n - 1] == '/')
		n--;
	return n == dn && !strncmp(p, dir, dn);
}

/* LD_LIBRARY_PATH (lp) without the entries that name dir, or whose real
 * path (lp_real: each entry's, in the same order; NULL: unknown) is
 * real_dir: the toolkit's links make /usr/local/cuda/lib64/stubs and
 * /usr/local/cuda-13.0/lib/stubs one directory. "" when nothing is left. */
static void ld_path_without(const char *dir, const char *real_dir, const char *lp,
			    const char *lp_real, struct strbuf *out)
{
	sb_reset(out);
	if (!lp)
		return;
	size_t i = 0;
	for (const char *p = lp; *p; i++) {
		size_t n = strcspn(p, ":"), rn = 0;
		const char *real = list_entry(lp_real, i, &rn);
		bool drop = names_dir(p, n, dir) || (real && rn && names_dir(real, rn, real_dir));
		if (n && !drop) {
			if (out->len)
				sb_addc(out, ':');
			sb_addn(out, p, n);
		}
		p += n;
		if (*p == ':')
			p++;
	}
}

/* Each entry of LD_LIBRARY_PATH with its symlinks followed in the root,
 * ':'-joined in the same order ("" for an entry that does not resolve). */
static void ld_path_real(const char *lp, struct strbuf *out)
{
	sb_reset(out);
	if (!lp)
		return;
	struct strbuf e = STRBUF_INIT, r = STRBUF_INIT;
	for (const char *p = lp;; ) {
		size_t n = strcspn(p, ":");
		sb_reset(&e);
		sb_addn(&e, p, n);
		sb_reset(&r);
		if (n && e.buf[0] == '/')
			rootfs_realpath(e.buf, &r, NULL);
		sb_add(out, sb_str(&r));
		p += n;
		if (*p != ':')
			break;
		sb_addc(out, ':');
		p++;
	}
	sb_release(&e);
	sb_release(&r);
}

/* Stub evidence: the directory and the fixed LD_LIBRARY_PATH (llp). */
static void stub_evidence(struct result *r, const char *loaded_as, const char *loaded,
			  const char *real_file, const char *llp, const char *llp_real)
{
	struct strbuf dir = STRBUF_INIT, real_dir = STRBUF_INIT, fixed = STRBUF_INIT;
	if (!cuda_path_in_stubs(loaded_as, &dir) && !cuda_path_in_stubs(loaded, &dir))
		path_dirname(loaded_as, &dir);
	path_dirname(real_file ? real_file : loaded, &real_dir); /* symlinks followed */
	res_ev(r, "stubs_dir", "%s", dir.buf);
	ld_path_without(dir.buf, real_dir.buf, llp, llp_real, &fixed);
	res_ev(r, "ld_library_path_fixed", "%s", fixed.buf ? fixed.buf : "");
	sb_release(&dir);
	sb_release(&real_dir);
	sb_release(&fixed);
}

/* ---- reporting a CUresult ---- */

static bool visible_hides_all(struct result *r, const char *v)
{
	if (!v)
		return false;
	res_ev(r, "cuda_visible_devices", "'%s'", v);
	return cuda_visible_devices_hide_all(v);
}

void cuda_fail_call(struct result *r, enum cuda_step step, const char *call, int code,
		    const char *kb_override, bool wsl2, const char *cvd)
{
	struct strbuf res = STRBUF_INIT;
	cuda_result_describe(code, &res);
	res_ev(r, "call", "%s", call);
	res_ev(r, "result", "%s", res.buf);
	res_ev(r, "result_text", "%s", cuda_result_text(code));
	bool hidden = code == CUDA_ERROR_NO_DEVICE && visible_hides_all(r, cvd);
	const char *kb = kb_override ? kb_override : cuda_result_kb(step, code, hidden, wsl2);
	res_set(r, ST_FAIL, kb, "%s returned %s: %s", call, res.buf, cuda_result_text(code));
	sb_release(&res);
}

/* Fails r for a call that returned code, with the KB entry of the step
 * (or kb, when the caller knows better). */
static void fail_call_kb(struct probe_ctx *ctx, struct result *r, enum cuda_step step,
			 const char *call, int code, const char *kb_override)
{
	cuda_fail_call(r, step, call, code, kb_override, probe_is_wsl2(ctx),
		       getenv("CUDA_VISIBLE_DEVICES"));
}

static void fail_call(struct probe_ctx *ctx, struct result *r, enum cuda_step step,
		      const char *call, int code)
{
	fail_call_kb(ctx, r, step, call, code, NULL);
}

/* ---- loading ---- */

/*
 * Loads the driver for cuda.init, cuda.devices and cuda.kernel: the file
 * cuda.load decided on. Returns false with r failed.
 */
static bool open_driver(struct probe_ctx *ctx, struct result *r, struct cuda_api *api)
{
	struct strbuf file = STRBUF_INIT, err = STRBUF_INIT;
	const char *loaded = probe_dep_get(ctx, "cuda.load", "loaded");
	bool ok = false;
	if (rootfs_is_real()) {
		sb_add(&file, "libcuda.so.1");
	} else if (!loaded || rootfs_host_path(loaded, true, &file) < 0) {
		res_set(r, ST_SKIP, NULL, "skipped: cuda.load loaded no library");
		goto out;
	}
	if (loaded)
		res_ev(r, "loaded", "%s", loaded);
	probe_step(ctx, "dlopen %s", rootfs_is_real() ? file.buf : loaded);
	int rc = cuda_api_load(api, file.buf, &err);
	if (rc < 0) {
		struct strbuf msg = STRBUF_INIT;
		rootfs_guest_text(err.buf, &msg);
		res_ev(r, "file", "%s", loaded ? loaded : file.buf);
		res_ev(r, "error", "%s", msg.buf ? msg.buf : "");
		res_set(r, ST_FAIL, rc == -ENOSYS ? KB_CUDA_LOAD_NOT_CUDA : KB_CUDA_LOAD_DLOPEN_FAILED,
			"could not load libcuda.so.1: %s", msg.buf ? msg.buf : "");
		sb_release(&msg);
		goto out;
	}
	ok = true;
out:
	sb_release(&file);
	sb_release(&err);
	return ok;
}

/* cuInit(0) in this process; false with r failed. */
static bool init_driver(struct probe_ctx *ctx, struct result *r, struct cuda_api *api)
{
	probe_step(ctx, "cuInit(0)");
	int rc = api->cuInit(0);
	if (rc == CUDA_SUCCESS)
		return true;
	const char *kb = NULL;
	if (rc == CUDA_ERROR_STUB_LIBRARY && api->loaded_path) {
		/* The stub in its toolkit directory is found through a search
		 * path; a copy of it elsewhere replaced (or shadows) a driver
		 * file, and the fix differs. */
		struct strbuf g = STRBUF_INIT, as = STRBUF_INIT;
		rootfs_guest_path(api->loaded_path, &g);
		rootfs_guest_path(api->loaded_as ? api->loaded_as : api->loaded_path, &as);
		if (cuda_path_in_stubs(as.buf, NULL) || cuda_path_in_stubs(g.buf, NULL))
		{
			struct strbuf lp_real = STRBUF_INIT, real = STRBUF_INIT;
			ld_path_real(getenv("LD_LIBRARY_PATH"), &lp_real);
			rootfs_realpath(g.buf, &real, NULL);
			stub_evidence(r, as.buf, g.buf, real.len ? real.buf : NULL,
				      getenv("LD_LIBRARY_PATH"), lp_real.buf);
			sb_release(&lp_real);
			sb_release(&real);
		}
		else
			kb = KB_CUDA_INIT_STUB_COPY;
		sb_release(&g);
		sb_release(&as);
	}
	fail_call_kb(ctx, r, CUDA_STEP_INIT, "cuInit", rc, kb);
	return false;
}

/* The device count, checked; false with r failed. */
static bool device_count(struct probe_ctx *ctx, struct result *r, struct cuda_api *api, int *count)
{
	*count = 0;
	if (!api->cuDeviceGetCount) {
		res_ev(r, "error", "no cuDeviceGetCount");
		res_set(r, ST_FAIL, KB_CUDA_LOAD_NOT_CUDA,
			"the loaded libcuda.so.1 exports no cuDeviceGetCount");
		return false;
	}
	probe_step(ctx, "cuDeviceGetCount");
	int rc = api->cuDeviceGetCount(count);
	if (rc != CUDA_SUCCESS) {
		fail_call(ctx, r, CUDA_STEP_INIT, "cuDeviceGetCount", rc);
		return false;
	}
	res_ev(r, "device_count", "%d", *count);
	if (*count == 0) {
		visible_hides_all(r, getenv("CUDA_VISIBLE_DEVICES"));
		res_set(r, ST_FAIL, KB_CUDA_INIT_ZERO_DEVICES,
			"cuInit succeeded but the driver reports no CUDA device");
		return false;
	}
	if (*count < 0 || *count > CUDA_MAX_PLAUSIBLE_DEVICES) {
		res_set(r, ST_FAIL, KB_CUDA_INIT_BAD_COUNT,
			"the driver reports an impossible device count (%d)", *count);
		return false;
	}
	return true;
}

/* ---- cuda.load's judge: facts in, result out, no I/O ---- */

/* The loaded file against the prediction, once it answered as a driver. */
static void load_verdict(const struct cuda_load_facts *f, struct result *r)
{
	const char *loaded = f->loaded, *loaded_as = f->loaded_as;
	enum cuda_load_verdict verdict = cuda_judge_loaded(f->pred_real, loaded, f->wsl2);
	if (f->init_asked && f->init_rc == CUDA_ERROR_STUB_LIBRARY && verdict != CUDA_LOAD_STUB) {
		res_ev(r, "stub_place", "%s",
		       !strncmp(loaded_as, "/usr/lib/wsl/", 13) ? "wsl" : "elsewhere");
		res_set(r, ST_FAIL, KB_CUDA_INIT_STUB_COPY,
			"loaded %s, but its cuInit answers CUDA_ERROR_STUB_LIBRARY (34): it is a copy "
			"of the CUDA toolkit's stub", loaded_as);
		return;
	}
	switch (verdict) {
	case CUDA_LOAD_STUB:
		stub_evidence(r, loaded_as, loaded, f->pred_real, f->ld_library_path,
			      f->ld_library_path_real);
		res_set(r, ST_FAIL, KB_CUDA_LOAD_STUB,
			"the loader picked the CUDA toolkit's stub %s, which cannot run anything",
			loaded_as);
		break;
	case CUDA_LOAD_SHADOWED: {
		/* The package the libs layer found for this file, for the fix. */
		const char *lp = f->libs ? res_get(f->libs, "package") : NULL;
		const char *lres = f->libs ? res_get(f->libs, "resolved") : NULL;
		const char *ltgt = f->libs ? res_get(f->libs, "target") : NULL;
		bool same = (lres && !strcmp(lres, loaded_as)) || (ltgt && !strcmp(ltgt, loaded)) ||
			    (lres && !strcmp(lres, loaded));
		if (lp && same)
			res_ev(r, "package", "%s", lp);
		/* No package to ask dpkg -S about: a conda environment's file,
		 * or one no package owns (libs.libcuda looked). */
		const char *conda = f->libs ? res_get(f->libs, "conda_prefix") : NULL;
		if (same && conda)
			res_ev(r, "conda_prefix", "%s", conda);
		else if (same && !lp && f->dpkg_whole)
			res_ev(r, "unowned", "no package owns %s", loaded);
	}
		/* fall through */
		res_set(r, ST_FAIL, KB_CUDA_LOAD_SHADOWED,
			"the loader picked %s, not WSL's %s: a Linux driver's libcuda shadows "
			"the Windows driver's", loaded, WSL_LIBCUDA);
		break;
	case CUDA_LOAD_MISMATCH:
		res_set(r, ST_WARN, KB_CUDA_LOAD_MISMATCH,
			"the loader picked %s, but libs.libcuda predicted %s", loaded, f->pred_real);
		break;
	case CUDA_LOAD_NO_PREDICTION:
		res_set(r, ST_PASS, NULL, "loaded %s (libs.libcuda made no prediction to compare)",
			loaded);
		break;
	case CUDA_LOAD_OK:
		res_set(r, ST_PASS, NULL, "loaded %s, the file libs.libcuda predicted", loaded);
		break;
	}
}

void judge_cuda_load(const struct cuda_load_facts *f, struct result *r)
{
	if (f->real) {
		res_ev(r, "requested", "libcuda.so.1 (as an application loads it: "
					"LD_LIBRARY_PATH, then ld.so.cache)");
	} else {
		if (!f->guest) {
			res_set(r, ST_SKIP, NULL,
				"skipped: libs.libcuda predicted no libcuda.so.1, and with --root "
				"only the predicted file can be loaded");
			return;
		}
		res_ev(r, "requested", "%s (under the root: the file the loader would pick there)",
		       f->guest);
		if (f->host_rc < 0) {
			res_ev(r, "file", "%s", f->guest);
			res_ev(r, "error", "%s", strerror(-f->host_rc));
			res_set(r, ST_FAIL, KB_CUDA_LOAD_DLOPEN_FAILED, "%s cannot be opened: %s",
				f->guest, strerror(-f->host_rc));
			return;
		}
	}
	res_ev(r, "predicted", "%s",
	       f->predicted ? f->predicted : "none (libs.libcuda made no prediction)");
	if (f->dlinfo) {
		res_ev(r, "loaded", "%s", f->loaded);
		if (strcmp(f->loaded, f->loaded_as))
			res_ev(r, "loaded_as", "%s", f->loaded_as);
	}
	if (f->load_rc < 0)
		res_ev(r, "error", "%s", f->error ? f->error : "");
	if (f->load_rc == -ENOENT) {
		res_ev(r, "file", "%s", f->real ? f->file : f->pred_real ? f->pred_real : "");
		res_set(r, ST_FAIL, KB_CUDA_LOAD_DLOPEN_FAILED, "dlopen(libcuda.so.1) failed: %s",
			res_get(r, "error"));
		return;
	}
	if (!f->dlinfo) /* dlinfo gave no name: nothing to compare, but it loaded */
		res_ev(r, "loaded", "%s", f->loaded);
	if (f->load_rc == -ENOSYS) {
		res_set(r, ST_FAIL, KB_CUDA_LOAD_NOT_CUDA,
			"%s loaded, but it is not a CUDA driver (no cuInit)", f->loaded);
		return;
	}
	if (!f->basic_calls) {
		res_ev(r, "error", "missing %s", f->missing);
		res_set(r, ST_FAIL, KB_CUDA_LOAD_NOT_CUDA,
			"%s lacks the basic CUDA calls (%s)", f->loaded, f->missing);
		return;
	}
	if (f->missing)
		res_ev(r, "not_supported", "%s", f->missing);
	/* What the libs layer predicted, and what the file answers: both are
	 * shown, and the answer wins (a stub copied anywhere answers 34). */
	const struct result *lr = f->libs;
	if (lr && lr->ran)
		res_ev(r, "prediction", "libs.libcuda %s%s%s", status_name(lr->status),
		       lr->detail ? ": " : "", lr->detail ? lr->detail : "");
	if (f->init_asked) {
		struct strbuf res = STRBUF_INIT;
		cuda_result_describe(f->init_rc, &res);
		res_ev(r, "cuinit", "%s", res.buf);
		sb_release(&res);
	}
	load_verdict(f, r);
}

/* ---- cuda.load's collector: dlopen, and cuInit when libs.libcuda warned ---- */

/* What cuda.load found, and the facts that point into it. */
struct load_collect {
	struct cuda_load_facts f;
	struct strbuf file, pred, loaded, loaded_as, err, msg, lp_real;
};

static void collect_load(struct probe_ctx *ctx, struct cuda_api *api, struct load_collect *c)
{
	struct cuda_load_facts *f = &c->f;
	f->wsl2 = probe_is_wsl2(ctx);
	f->real = rootfs_is_real();
	f->ld_library_path = getenv("LD_LIBRARY_PATH");
	ld_path_real(f->ld_library_path, &c->lp_real);
	f->ld_library_path_real = c->lp_real.buf;
	f->libs = probe_dep(ctx, "libs.libcuda");
	f->predicted = probe_dep_get(ctx, "libs.libcuda", "resolved");
	if (f->predicted && f->predicted[0] != '/')
		f->predicted = NULL; /* not a path: no prediction */
	if (f->real) {
		sb_add(&c->file, "libcuda.so.1");
		if (f->predicted)
			rootfs_realpath(f->predicted, &c->pred, NULL);
	} else {
		/* Only the file the loader would pick there: a default in its
		 * place would judge a library that machine never loads. */
		f->guest = f->predicted;
		if (!f->guest)
			return;
		f->host_rc = rootfs_host_path(f->guest, true, &c->file);
		if (f->host_rc < 0)
			return;
		rootfs_realpath(f->guest, &c->pred, NULL);
	}
	f->pred_real = c->pred.len ? c->pred.buf : NULL;
	f->file = c->file.buf;

	probe_step(ctx, "dlopen libcuda.so.1");
	f->load_rc = cuda_api_load(api, c->file.buf, &c->err);
	f->dlinfo = api->loaded_path != NULL;
	if (f->dlinfo) {
		rootfs_guest_path(api->loaded_path, &c->loaded);
		rootfs_guest_path(api->loaded_as ? api->loaded_as : api->loaded_path, &c->loaded_as);
	} else {
		rootfs_guest_path(c->file.buf, &c->loaded);
		sb_add(&c->loaded_as, c->loaded.buf);
	}
	f->loaded = c->loaded.buf;
	f->loaded_as = c->loaded_as.buf;
	if (f->load_rc < 0) {
		rootfs_guest_text(c->err.buf, &c->msg);
		f->error = sb_str(&c->msg);
	}
	f->basic_calls = api->cuDeviceGetCount && api->cuDeviceGet;
	f->missing = api->missing;
	/* When the libs layer predicts trouble, this probe observes: it asks
	 * the loaded file's cuInit here (cuda.init, which does it otherwise,
	 * runs only after a load that passed). */
	const struct result *lr = f->libs;
	if (lr && lr->ran && lr->status != ST_PASS && f->load_rc != -ENOENT &&
	    f->load_rc != -ENOSYS && f->basic_calls &&
	    cuda_judge_loaded(f->pred_real, f->loaded, f->wsl2) == CUDA_LOAD_SHADOWED) {
		/* Whether "no package owns it" would be true (the shadowed fix,
		 * its only use): every dpkg list read, so not for a load that
		 * failed (1,150 lists, 50-250 ms of CPU on a Debian host). */
		const struct dpkg_index_info *db = dpkg_index();
		f->dpkg_whole = db->present && !db->unreadable && !db->capped;
	}
	if (f->basic_calls && api->cuInit && lr && lr->ran && lr->status != ST_PASS) {
		probe_step(ctx, "cuInit(0) (what the loaded file answers)");
		f->init_asked = true;
		f->init_rc = api->cuInit(0);
	}
}

static void probe_load(struct probe_ctx *ctx, struct result *r)
{
	struct cuda_api api;
	struct load_collect c;
	memset(&api, 0, sizeof api);
	memset(&c, 0, sizeof c);
	collect_load(ctx, &api, &c);
	judge_cuda_load(&c.f, r);
	cuda_api_close(&api);
	sb_release(&c.file);
	sb_release(&c.pred);
	sb_release(&c.loaded);
	sb_release(&c.loaded_as);
	sb_release(&c.err);
	sb_release(&c.msg);
	sb_release(&c.lp_real);
}

static void probe_init(struct probe_ctx *ctx, struct result *r)
{
	struct cuda_api api;
	memset(&api, 0, sizeof api);
	if (!open_driver(ctx, r, &api))
		goto out;
	/* The driver tells the newest CUDA it runs before cuInit (NVIDIA's
	 * libcuda answers 11040 for 470, 12020 for 535 even where cuInit then
	 * finds no device): kept when cuInit fails, toolkit.nvcc needs it. */
	char ver[16] = "unknown";
	bool have_ver = false;
	if (api.cuDriverGetVersion) {
		int v = 0;
		probe_step(ctx, "cuDriverGetVersion (before cuInit)");
		if (api.cuDriverGetVersion(&v) == CUDA_SUCCESS && v > 0) {
			cuda_version_str(v, ver, sizeof ver);
			res_ev(r, "driver_version_raw", "%d", v);
			res_ev(r, "driver_cuda_version", "%s", ver);
			have_ver = true;
		}
	}
	if (!init_driver(ctx, r, &api))
		goto out;
	if (!have_ver && api.cuDriverGetVersion) {
		int v = 0;
		probe_step(ctx, "cuDriverGetVersion");
		int rc = api.cuDriverGetVersion(&v);
		if (rc == CUDA_SUCCESS) {
			cuda_version_str(v, ver, sizeof ver);
			res_ev(r, "driver_version_raw", "%d", v);
		} else {
			struct strbuf res = STRBUF_INIT;
			cuda_result_describe(rc, &res);
			res_ev(r, "driver_version_error", "%s", res.buf);
			sb_release(&res);
		}
	} else if (!have_ver) {
		res_ev(r, "driver_version_error", "cuDriverGetVersion not supported by this driver");
	}
	if (!have_ver)
		res_ev(r, "driver_cuda_version", "%s", ver);
	int count;
	if (!device_count(ctx, r, &api, &count))
		goto out;
	res_set(r, ST_PASS, NULL, "driver supports CUDA %s; %d CUDA device%s", ver, count,
		count == 1 ? "" : "s");
out:
	cuda_api_close(&api);
}

/* cuDeviceGetAttribute, or -1 when the driver lacks it or it failed. */
static int attribute(struct cuda_api *api, CUdevice dev, int id, int *value)
{
	*value = -1;
	if (!api->cuDeviceGetAttribute)
		return -1;
	int rc = api->cuDeviceGetAttribute(value, id, dev);
	if (rc != CUDA_SUCCESS) {
		*value = -1;
		return rc;
	}
	return 0;
}

/* ---- cuda.devices' judge: facts in, result out, no I/O ---- */

/* "8.6", or "unknown". */
static void cc_text(const struct cuda_dev *d, char *cc, size_t n)
{
	if (d->major >= 0 && d->minor >= 0)
		snprintf(cc, n, "%d.%d", d->major, d->minor);
	else
		snprintf(cc, n, "unknown");
}

/* One device's evidence (device.I.*); its line for the detail. */
static void device_evidence(const struct cuda_devices_facts *f, int i, struct result *r,
			    struct strbuf *line)
{
	const struct cuda_dev *d = &f->dev[i];
	struct strbuf key = STRBUF_INIT;
#define DEV_EV(field, ...)                                  \
	do {                                                \
		sb_reset(&key);                             \
		sb_addf(&key, "device.%d." field, i);       \
		res_ev(r, key.buf, __VA_ARGS__);            \
	} while (0)
	const char *name = d->name ? d->name : "(name unavailable)";
	DEV_EV("name", "%s", name);
	char cc[24];
	cc_text(d, cc, sizeof cc);
	DEV_EV("cc", "%s", cc);
	char mem[48] = "unknown";
	if (d->have_memory)
		snprintf(mem, sizeof mem, "%llu", cuda_bytes_to_mib(d->bytes));
	DEV_EV("memory_mib", "%s", mem);
	char pci[32];
	cuda_format_pci(d->pci_domain, d->pci_bus, d->pci_device, pci, sizeof pci);
	DEV_EV("pci", "%s", pci);
	char uuid[64] = "not supported by this driver";
	if (d->uuid_rc == CUDA_SUCCESS)
		cuda_format_uuid(d->uuid, uuid, sizeof uuid);
	else if (d->uuid_rc != -1)
		snprintf(uuid, sizeof uuid, "unavailable");
	DEV_EV("uuid", "%s", uuid);
	DEV_EV("tcc", "%s", d->tcc < 0 ? "unknown" : d->tcc ? "1 (TCC driver model)" : "0");
	if (d->managed == 0 && f->wsl2)
		DEV_EV("concurrent_managed_access",
		       "0 (expected on WSL 2: concurrent CPU/GPU access to managed "
		       "memory is not supported)");
	else
		DEV_EV("concurrent_managed_access", "%s",
		       d->managed < 0 ? "unknown" : d->managed ? "1" : "0");
#undef DEV_EV
	sb_addf(line, "%s (compute capability %s, %s MiB, PCI %s)", name, cc, mem, pci);
	sb_release(&key);
}

void judge_cuda_devices(const struct cuda_devices_facts *f, struct result *r)
{
	struct strbuf detail = STRBUF_INIT;
	enum status st = ST_PASS;
	const char *kb = NULL;
	int shown = f->count < CUDA_MAX_REPORTED_DEVICES ? f->count : CUDA_MAX_REPORTED_DEVICES;
	if (f->count > 1)
		sb_addf(&detail, "%d devices: ", f->count);
	for (int i = 0; i < shown; i++) {
		const struct cuda_dev *d = &f->dev[i];
		if (d->get_rc != CUDA_SUCCESS) {
			res_ev(r, "device", "%d", i);
			cuda_fail_call(r, CUDA_STEP_DEVICES, "cuDeviceGet", d->get_rc, NULL, f->wsl2,
				       f->cuda_visible_devices);
			sb_release(&detail);
			return;
		}
		if (i)
			sb_add(&detail, "; ");
		device_evidence(f, i, r, &detail);
		/* Findings, worst first; the detail names the device. */
		const char *name = d->name ? d->name : "(name unavailable)";
		if (d->major >= 0 && (d->major < 5 || (f->wsl2 && d->major < 6)) && st == ST_PASS) {
			st = ST_WARN;
			kb = KB_CUDA_DEVICES_OLD_ARCH;
			char cc[24];
			cc_text(d, cc, sizeof cc);
			res_ev(r, "cc", "%s", cc);
			res_ev(r, "device", "%s", name);
		} else if (d->have_memory && d->bytes == 0 && st == ST_PASS) {
			st = ST_WARN;
			kb = KB_CUDA_DEVICES_NO_MEMORY;
			res_ev(r, "device", "%s", name);
		}
	}
	if (f->count > shown)
		sb_addf(&detail, "; and %d more", f->count - shown);
	if (st == ST_WARN && !strcmp(kb, KB_CUDA_DEVICES_OLD_ARCH))
		res_set(r, st, kb, "%s: compute capability %s is older than %s supports",
			res_get(r, "device"), res_get(r, "cc"),
			f->wsl2 ? "CUDA on WSL 2 (Pascal, 6.0)" : "the probe kernel (5.0)");
	else if (st == ST_WARN)
		res_set(r, st, kb, "%s reports 0 bytes of memory", res_get(r, "device"));
	else
		res_set(r, ST_PASS, NULL, "%s", detail.buf);
	sb_release(&detail);
}

/* ---- cuda.devices' collector: the calls into libcuda ---- */

static void collect_device(struct probe_ctx *ctx, struct cuda_api *api, int i, struct cuda_dev *d,
			   struct strbuf *name)
{
	CUdevice dev = 0;
	probe_step(ctx, "cuDeviceGet(%d)", i);
	d->get_rc = api->cuDeviceGet(&dev, i);
	if (d->get_rc != CUDA_SUCCESS)
		return;
	/* One more byte than we offer: the driver may not terminate. */
	char raw[257];
	memset(raw, 0, sizeof raw);
	probe_step(ctx, "cuDeviceGetName(%d)", i);
	if ((api->cuDeviceGetName ? api->cuDeviceGetName(raw, 256, dev) : -1) == CUDA_SUCCESS) {
		cuda_clean_name(raw, 256, name);
		d->name = sb_str(name);
	}
	attribute(api, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &d->major);
	attribute(api, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &d->minor);
	size_t bytes = 0;
	probe_step(ctx, "cuDeviceTotalMem(%d)", i);
	d->have_memory = api->cuDeviceTotalMem && api->cuDeviceTotalMem(&bytes, dev) == CUDA_SUCCESS;
	d->bytes = bytes;
	attribute(api, dev, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, &d->pci_domain);
	attribute(api, dev, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, &d->pci_bus);
	attribute(api, dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, &d->pci_device);
	d->uuid_rc = -1;
	if (api->cuDeviceGetUuid) {
		CUuuid u;
		memset(&u, 0, sizeof u);
		d->uuid_rc = api->cuDeviceGetUuid(&u, dev);
		if (d->uuid_rc == -1)
			d->uuid_rc = CUDA_ERROR_UNKNOWN; /* -1 means "no such call" here */
		memcpy(d->uuid, u.bytes, sizeof d->uuid);
	}
	attribute(api, dev, CU_DEVICE_ATTRIBUTE_TCC_DRIVER, &d->tcc);
	attribute(api, dev, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, &d->managed);
}

static void probe_devices(struct probe_ctx *ctx, struct result *r)
{
	struct cuda_api api;
	memset(&api, 0, sizeof api);
	struct cuda_devices_facts f;
	memset(&f, 0, sizeof f);
	struct cuda_dev *dev = NULL;
	struct strbuf *names = NULL;
	int shown = 0;
	if (!open_driver(ctx, r, &api) || !init_driver(ctx, r, &api) ||
	    !device_count(ctx, r, &api, &f.count))
		goto out;
	f.wsl2 = probe_is_wsl2(ctx);
	f.cuda_visible_devices = getenv("CUDA_VISIBLE_DEVICES");
	shown = f.count < CUDA_MAX_REPORTED_DEVICES ? f.count : CUDA_MAX_REPORTED_DEVICES;
	dev = xcalloc((size_t)shown, sizeof *dev);
	names = xcalloc((size_t)shown, sizeof *names);
	for (int i = 0; i < shown; i++) {
		collect_device(ctx, &api, i, &dev[i], &names[i]);
		if (dev[i].get_rc != CUDA_SUCCESS)
			break;
	}
	f.dev = dev;
	judge_cuda_devices(&f, r);
out:
	cuda_api_close(&api);
	for (int i = 0; i < shown; i++)
		sb_release(&names[i]);
	free(names);
	free(dev);
}

/* ---- the kernel ---- */

/* What the device buffer holds before each launch: no wslgpu_fill pattern
 * has this value at more than one index (i * 2654435761 is a bijection of
 * 32-bit words), so a launch that does nothing cannot pass. */
#define KERNEL_POISON 0xa5a5a5a5u

enum kernel_check cuda_kernel_check(const unsigned result[KERNEL_CHECK_WORDS], unsigned n)
{
	if (result[0] > n || (result[0] && result[1] >= n) || (!result[0] && result[1] != ~0u))
		return KERNEL_NO_ROUND_TRIP;
	return result[0] ? KERNEL_WRONG : KERNEL_OK;
}

struct launch {
	struct cuda_api *api;
	CUfunction fill, check;
	CUdeviceptr dptr;   /* n elements, then wslgpu_check's KERNEL_CHECK_WORDS */
	unsigned n;
};

/* Launches kernel name (fn) over n threads with params; what says which
 * launch it is. Fails r and returns -1 on error. */
static int launch(struct probe_ctx *ctx, struct result *r, struct launch *l, CUfunction fn,
		  const char *name, void **params, const char *what)
{
	unsigned grid = (l->n + KERNEL_BLOCK - 1) / KERNEL_BLOCK;
	probe_step(ctx, "cuLaunchKernel %s (%s, %u blocks of %u threads)", name, what, grid,
		   KERNEL_BLOCK);
	int rc = l->api->cuLaunchKernel(fn, grid, 1, 1, KERNEL_BLOCK, 1, 1, 0, NULL, params, NULL);
	if (rc != CUDA_SUCCESS) {
		fail_call(ctx, r, CUDA_STEP_LAUNCH, "cuLaunchKernel", rc);
		return -1;
	}
	return 0;
}

/*
 * One launch of wslgpu_fill with seed, checked on the device by
 * wslgpu_check: the buffer is poisoned on the device (cuMemsetD32), the
 * check's two counters go to the device (cuMemcpyHtoD) and come back
 * (cuMemcpyDtoH), so both copies and both kernels are proven without a
 * pass of the host over the buffer. Returns 0, or fails r and returns -1.
 */
static int launch_and_verify(struct probe_ctx *ctx, struct result *r, struct launch *l,
			     unsigned seed, const char *which)
{
	struct cuda_api *api = l->api;
	unsigned n = l->n;
	CUdeviceptr out = l->dptr, res = l->dptr + (CUdeviceptr)n * sizeof(unsigned);
	probe_step(ctx, "cuMemsetD32 (%u words, before the %s launch)", n + KERNEL_CHECK_WORDS,
		   which);
	int rc = api->cuMemsetD32(out, KERNEL_POISON, (size_t)n + KERNEL_CHECK_WORDS);
	if (rc != CUDA_SUCCESS) {
		fail_call(ctx, r, CUDA_STEP_MEMORY, "cuMemsetD32", rc);
		return -1;
	}
	unsigned counters[KERNEL_CHECK_WORDS] = { 0, ~0u };
	probe_step(ctx, "cuMemcpyHtoD (%zu bytes, before the %s launch)", sizeof counters, which);
	rc = api->cuMemcpyHtoD(res, counters, sizeof counters);
	if (rc != CUDA_SUCCESS) {
		fail_call(ctx, r, CUDA_STEP_MEMORY, "cuMemcpyHtoD", rc);
		return -1;
	}
	char what[64];
	void *fill_params[] = { &out, &n, &seed };
	snprintf(what, sizeof what, "%s launch", which);
	if (launch(ctx, r, l, l->fill, WSLGPU_KERNEL_FILL, fill_params, what) < 0)
		return -1;
	void *check_params[] = { &out, &n, &seed, &res };
	snprintf(what, sizeof what, "checking the %s launch", which);
	if (launch(ctx, r, l, l->check, WSLGPU_KERNEL_CHECK, check_params, what) < 0)
		return -1;
	probe_step(ctx, "cuCtxSynchronize (waiting for the %s launch and its check to finish)",
		   which);
	rc = api->cuCtxSynchronize();
	if (rc != CUDA_SUCCESS) {
		fail_call(ctx, r, CUDA_STEP_LAUNCH, "cuCtxSynchronize", rc);
		return -1;
	}
	/* What a copy that moved nothing leaves: a count no check can give. */
	counters[0] = ~0u;
	counters[1] = 0;
	probe_step(ctx, "cuMemcpyDtoH (%zu bytes, after the %s launch)", sizeof counters, which);
	rc = api->cuMemcpyDtoH(counters, res, sizeof counters);
	if (rc != CUDA_SUCCESS) {
		fail_call(ctx, r, CUDA_STEP_MEMORY, "cuMemcpyDtoH", rc);
		return -1;
	}
	switch (cuda_kernel_check(counters, n)) {
	case KERNEL_OK:
		return 0;
	case KERNEL_NO_ROUND_TRIP:
		res_ev(r, "call", "cuMemcpyHtoD and cuMemcpyDtoH");
		res_ev(r, "result", "CUDA_SUCCESS (0)");
		res_ev(r, "result_text", "but the %zu bytes sent to the device came back as "
		       "0x%08x 0x%08x", sizeof counters, counters[0], counters[1]);
		res_set(r, ST_FAIL, KB_CUDA_KERNEL_MEMORY_FAILED,
			"after the %s launch, the %zu bytes copied to the device and back came back "
			"as 0x%08x 0x%08x: the copies moved no data", which, sizeof counters,
			counters[0], counters[1]);
		return -1;
	case KERNEL_WRONG:
		break;
	}
	unsigned first = counters[1], got = 0;
	probe_step(ctx, "cuMemcpyDtoH (element %u, after the %s launch)", first, which);
	rc = api->cuMemcpyDtoH(&got, out + (CUdeviceptr)first * sizeof got, sizeof got);
	if (rc != CUDA_SUCCESS) {
		fail_call(ctx, r, CUDA_STEP_MEMORY, "cuMemcpyDtoH", rc);
		return -1;
	}
	res_ev(r, "wrong_elements", "%u of %u", counters[0], n);
	res_ev(r, "first_wrong", "index %u: expected 0x%08x, got 0x%08x", first,
	       wslgpu_fill_value(first, seed), got);
	res_set(r, ST_FAIL, KB_CUDA_KERNEL_WRONG_DATA,
		"the %s launch of wslgpu_fill wrote %u of %u elements wrong (first at index %u)",
		which, counters[0], n, first);
	return -1;
}

/* The calls a kernel launch needs that the driver lacks, comma-separated. */
static void kernel_calls_missing(const struct cuda_api *api, struct strbuf *missing)
{
	const struct { const char *name; bool have; } need[] = {
		{ "cuDeviceGet", api->cuDeviceGet != NULL },
		{ "cuDevicePrimaryCtxRetain", api->cuDevicePrimaryCtxRetain != NULL },
		{ "cuCtxSetCurrent", api->cuCtxSetCurrent != NULL },
		{ "cuCtxSynchronize", api->cuCtxSynchronize != NULL },
		{ "cuModuleLoadData", api->cuModuleLoadDataEx || api->cuModuleLoadData },
		{ "cuModuleGetFunction", api->cuModuleGetFunction != NULL },
		{ "cuLaunchKernel", api->cuLaunchKernel != NULL },
		{ "cuMemAlloc", api->cuMemAlloc != NULL },
		{ "cuMemsetD32", api->cuMemsetD32 != NULL },
		{ "cuMemcpyHtoD", api->cuMemcpyHtoD != NULL },
		{ "cuMemcpyDtoH", api->cuMemcpyDtoH != NULL },
	};
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		if (!need[i].have) {
			if (missing->len)
				sb_add(missing, ", ");
			sb_add(missing, need[i].name);
		}
}

/* Loads (JIT-compiles) the embedded PTX into *mod and finds both kernels;
 * returns 0, or fails r and returns -1. */
static int load_kernels(struct probe_ctx *ctx, struct result *r, struct cuda_api *api,
			CUmodule *mod, struct launch *l)
{
	res_ev(r, "ptx", "embedded, PTX ISA 7.0, target sm_50, %lu bytes",
	       wslgpu_kernels_ptx_len);
	double t0 = now_ms();
	char log[8192];
	memset(log, 0, sizeof log);
	int rc;
	if (api->cuModuleLoadDataEx) {
		CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
		void *vals[] = { log, (void *)(uintptr_t)(sizeof log - 1) };
		probe_step(ctx, "cuModuleLoadDataEx (PTX JIT)");
		rc = api->cuModuleLoadDataEx(mod, wslgpu_kernels_ptx, 2, opts, vals);
	} else {
		probe_step(ctx, "cuModuleLoadData (PTX JIT)");
		rc = api->cuModuleLoadData(mod, wslgpu_kernels_ptx);
	}
	log[sizeof log - 1] = '\0';
	double t_jit = now_ms();
	if (rc != CUDA_SUCCESS) {
		*mod = NULL;
		if (log[0])
			res_ev_text(r, "jit_log", log, 2000);
		else
			res_ev(r, "jit_log", "(the driver wrote no JIT log)");
		fail_call(ctx, r, CUDA_STEP_MODULE,
			  api->cuModuleLoadDataEx ? "cuModuleLoadDataEx" : "cuModuleLoadData", rc);
		return -1;
	}
	res_ev(r, "jit_ms", "%.2f", t_jit - t0);
	probe_step(ctx, "cuModuleGetFunction(" WSLGPU_KERNEL_FILL ")");
	rc = api->cuModuleGetFunction(&l->fill, *mod, WSLGPU_KERNEL_FILL);
	if (rc == CUDA_SUCCESS) {
		probe_step(ctx, "cuModuleGetFunction(" WSLGPU_KERNEL_CHECK ")");
		rc = api->cuModuleGetFunction(&l->check, *mod, WSLGPU_KERNEL_CHECK);
	}
	if (rc != CUDA_SUCCESS) {
		res_ev(r, "jit_log", "(none: the module loaded, but %s could not be found in it)",
		       l->fill ? WSLGPU_KERNEL_CHECK : WSLGPU_KERNEL_FILL);
		fail_call(ctx, r, CUDA_STEP_MODULE, "cuModuleGetFunction", rc);
		return -1;
	}
	return 0;
}

static void probe_kernel(struct probe_ctx *ctx, struct result *r)
{
	struct cuda_api api;
	memset(&api, 0, sizeof api);
	CUdevice dev = 0;
	CUcontext cu_ctx = NULL;
	CUmodule mod = NULL;
	struct launch l = { &api, NULL, NULL, 0, KERNEL_ELEMENTS };
	bool retained = false;
	int rc;

	if (!open_driver(ctx, r, &api) || !init_driver(ctx, r, &api))
		goto out;
	struct strbuf missing = STRBUF_INIT;
	kernel_calls_missing(&api, &missing);
	if (missing.len) {
		res_ev(r, "missing", "%s", missing.buf);
		res_set(r, ST_FAIL, KB_CUDA_KERNEL_MISSING_CALL,
			"the driver lacks calls needed to run a kernel: %s", missing.buf);
		sb_release(&missing);
		goto out;
	}
	sb_release(&missing);

	const char *devname = probe_dep_get(ctx, "cuda.devices", "device.0.name");
	if (devname)
		res_ev(r, "device", "0 (%s)", devname);
	probe_step(ctx, "cuDeviceGet(0)");
	rc = api.cuDeviceGet(&dev, 0);
	if (rc != CUDA_SUCCESS) {
		fail_call(ctx, r, CUDA_STEP_DEVICES, "cuDeviceGet", rc);
		goto out;
	}
	probe_step(ctx, "cuDevicePrimaryCtxRetain (creating the GPU context)");
	rc = api.cuDevicePrimaryCtxRetain(&cu_ctx, dev);
	if (rc != CUDA_SUCCESS) {
		fail_call(ctx, r, CUDA_STEP_CONTEXT, "cuDevicePrimaryCtxRetain", rc);
		goto out;
	}
	retained = true;
	probe_step(ctx, "cuCtxSetCurrent");
	rc = api.cuCtxSetCurrent(cu_ctx);
	if (rc != CUDA_SUCCESS) {
		fail_call(ctx, r, CUDA_STEP_CONTEXT, "cuCtxSetCurrent", rc);
		goto out;
	}

	size_t bytes = ((size_t)l.n + KERNEL_CHECK_WORDS) * sizeof(unsigned);
	probe_step(ctx, "cuMemAlloc (%zu bytes)", bytes);
	rc = api.cuMemAlloc(&l.dptr, bytes);
	if (rc != CUDA_SUCCESS) {
		l.dptr = 0;
		fail_call(ctx, r, CUDA_STEP_MEMORY, "cuMemAlloc", rc);
		goto out;
	}

	/* The first launch's time includes loading (JIT-compiling) the PTX,
	 * which is what an application's first kernel costs. */
	double t0 = now_ms();
	if (load_kernels(ctx, r, &api, &mod, &l) < 0)
		goto out;
	if (launch_and_verify(ctx, r, &l, 0x5eed0001u, "first") < 0)
		goto out;
	double t1 = now_ms();
	if (launch_and_verify(ctx, r, &l, 0x5eed0002u, "second") < 0)
		goto out;
	double t2 = now_ms();
	res_ev(r, "elements", "%u", l.n);
	res_ev(r, "first_launch_ms", "%.2f", t1 - t0);
	res_ev(r, "second_launch_ms", "%.2f", t2 - t1);
	res_set(r, ST_PASS, NULL,
		"wslgpu_fill wrote all %u elements correctly, twice; first launch %.1f ms "
		"(with PTX JIT), second %.1f ms", l.n, t1 - t0, t2 - t1);
out:
	/* Free everything, in reverse order; errors here change nothing. */
	if (mod && api.cuModuleUnload) {
		probe_step(ctx, "cuModuleUnload");
		api.cuModuleUnload(mod);
	}
	if (l.dptr && api.cuMemFree) {
		probe_step(ctx, "cuMemFree");
		api.cuMemFree(l.dptr);
	}
	if (retained && api.cuDevicePrimaryCtxRelease) {
		probe_step(ctx, "cuDevicePrimaryCtxRelease");
		api.cuDevicePrimaryCtxRelease(dev);
	}
	cuda_api_close(&api);
}

const struct check_def cuda_checks[] = {
	{ "cuda.load", "cuda", "Load libcuda.so.1", "dlopen libcuda.so.1 as an application would; report the file really loaded and what its cuInit answers", { CHECK_AFTER "libs.libcuda" }, probe_load, 0 },
	{ "cuda.init", "cuda", "cuInit and driver version", "cuInit, cuDriverGetVersion and the device count", { "cuda.load" }, probe_init, 0 },
	{ "cuda.devices", "cuda", "CUDA devices", "name, compute capability, memory and PCI bus id of each device", { "cuda.init" }, probe_devices, 0 },
	{ "cuda.kernel", "cuda", "A real kernel launch", "launch an embedded PTX kernel and verify every element it wrote", { "cuda.devices" }, probe_kernel, 0 },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
