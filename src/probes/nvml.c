/*
 * nvml.c: the management path — NVML (libnvidia-ml.so.1) and nvidia-smi.
 *
 * nvml.init loads NVML the way an application does (the bare soname with
 * --root /, the library that libs.libnvml predicts under a fixture root)
 * and reports the file really loaded and nvmlInit's answer by name.
 * nvml.devices asks the driver and each GPU what NVML knows; queries that
 * WSL does not implement (utilisation, process lists: NVIDIA's CUDA on WSL
 * guide §5.2, microsoft/WSL#7162, Syllo/nvtop#109, 999 from the process
 * list: dask/distributed#5567) are listed as "unsupported", never failed.
 * nvml.smi runs nvidia-smi with a time limit and names its failure.
 *
 * Cross-layer consistency lives in nvml.devices, because the nvml layer
 * sits after cuda in the chain: its warnings explain a cuda failure (NVML
 * works, cuInit does not: two different driver libraries) without
 * pre-empting the cuda layer's own verdict. It compares NVML's device count
 * with cuda.init's, and NVML's driver version with the driver store's. The
 * checks it reads are "after:" deps (src/core/check.h): they order, and
 * never skip, it.
 *
 * Every call into the vendor library is announced with probe_step first,
 * so that a crash or hang in it (the runner isolates each probe in its own
 * process) names the call.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../gpu/nvmlapi.h"
#include "../parse/cudaver.h"
#include "../parse/dpkg.h"
#include "../parse/nvsmi.h"
#include "../parse/version.h"
#include "nvml_judge.h"
#include "probes.h"
#include "kb_ids.h"

#define WSL_LIB_DIR "/usr/lib/wsl/lib/"
#define WSL_NVML WSL_LIB_DIR "libnvidia-ml.so.1"
#define WSL_SMI WSL_LIB_DIR "nvidia-smi"

/* ---- helpers ---- */

/*
 * Which libnvidia-ml.so.1 to load. With the real root, the bare soname:
 * the loader decides, as it does for every application. Under a fixture
 * root, the file libs.libnvml predicts the loader would pick, taken under
 * the root; without that prediction, WSL's own copy on WSL2 (said in the
 * evidence) or the usual distribution directories elsewhere.
 */
static int choose_library(struct probe_ctx *ctx, struct result *r, struct strbuf *guest,
			  struct strbuf *host)
{
	if (rootfs_is_real()) {
		sb_add(guest, "libnvidia-ml.so.1");
		sb_add(host, "libnvidia-ml.so.1");
		return 0;
	}
	const char *resolved = probe_dep_get(ctx, "libs.libnvml", "resolved");
	if (resolved && resolved[0] == '/') {
		sb_add(guest, resolved);
	} else if (probe_is_wsl2(ctx)) {
		sb_add(guest, WSL_NVML);
		res_ev(r, "note", "libs.libnvml predicted no library; loading WSL's own %s",
		       WSL_NVML);
	} else {
		static const char *const dirs[] = { "/usr/lib/x86_64-linux-gnu/", "/usr/lib64/",
						    "/usr/lib/" };
		for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
			struct strbuf p = STRBUF_INIT;
			struct stat st;
			sb_addf(&p, "%slibnvidia-ml.so.1", dirs[i]);
			if (rootfs_stat(p.buf, &st) == 0) {
				sb_add(guest, p.buf);
				sb_release(&p);
				break;
			}
			sb_release(&p);
		}
		if (!guest->len)
			sb_add(guest, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1");
		res_ev(r, "note", "libs.libnvml predicted no library; loading %s", guest->buf);
	}
	return rootfs_host_path(guest->buf, true, host);
}

/* Loads NVML for a probe; on failure sets r and returns -1. */
static int load(struct probe_ctx *ctx, struct result *r, struct nvmlapi *n,
		struct strbuf *loaded_guest)
{
	struct strbuf guest = STRBUF_INIT, host = STRBUF_INIT, err = STRBUF_INIT;
	int rc = choose_library(ctx, r, &guest, &host);
	res_ev(r, "library", "%s", guest.buf);
	if (rc < 0) {
		memset(n, 0, sizeof *n);
		res_ev(r, "library_error", "%s", strerror(-rc));
		res_ev(r, "error", "%s: %s", guest.buf, strerror(-rc));
		res_set(r, ST_FAIL, KB_NVML_INIT_LOAD_FAILED, "cannot load %s: %s", guest.buf,
			strerror(-rc));
		goto out;
	}
	probe_step(ctx, "dlopen %s", guest.buf);
	rc = nvmlapi_open(n, host.buf, &err);
	if (rc < 0) {
		/* dlerror names host paths; show the guest's. */
		struct strbuf msg = STRBUF_INIT;
		rootfs_guest_text(err.buf, &msg);
		res_ev(r, "error", "%s", msg.buf);
		res_set(r, ST_FAIL, KB_NVML_INIT_LOAD_FAILED, "cannot load %s: %s", guest.buf,
			msg.buf);
		sb_release(&msg);
		rc = -1;
		goto out;
	}
	rootfs_guest_path(n->loaded.buf, loaded_guest);
	res_ev(r, "loaded", "%s", loaded_guest->buf);
out:
	sb_release(&guest);
	sb_release(&host);
	sb_release(&err);
	return rc < 0 ? -1 : 0;
}

/* On plain WSL2 every NVIDIA driver library belongs under /usr/lib/wsl/
 * (containers map them elsewhere: research/wsl-facts.md §1.4). */
static bool foreign_on_wsl(struct probe_ctx *ctx, const char *guest_path)
{
	return !strcmp(probe_platform(ctx), "wsl2") && strncmp(guest_path, "/usr/lib/wsl/", 13);
}

/* ---- nvml.init ---- */

static void probe_init(struct probe_ctx *ctx, struct result *r)
{
	struct nvmlapi n;
	struct strbuf loaded = STRBUF_INIT;
	if (load(ctx, r, &n, &loaded) < 0)
		goto out;
	if (!n.fn_init) {
		res_set(r, ST_FAIL, KB_NVML_INIT_NOT_NVML,
			"%s exports neither nvmlInit_v2 nor nvmlInit: it is not NVML", loaded.buf);
		goto out;
	}
	probe_step(ctx, "calling %s in %s", n.sym_init, loaded.buf);
	int rc = nvmlapi_init(&n);
	res_ev(r, "init_symbol", "%s", n.sym_init);
	res_ev(r, "code", "%d", rc);
	res_ev(r, "code_name", "%s", nvml_return_name(rc));
	res_ev(r, "message", "%s", nvmlapi_error_string(&n, rc));
	bool foreign = foreign_on_wsl(ctx, loaded.buf);
	if (foreign)
		res_ev(r, "foreign", "%s is not WSL's copy (%s)", loaded.buf, WSL_NVML);
	if (rc == NVML_SUCCESS) {
		res_set(r, ST_PASS, NULL, "NVML initialised (%s)", loaded.buf);
		goto out;
	}
	const char *what = nvml_return_name(rc);
	if (foreign) {
		res_set(r, ST_FAIL, KB_NVML_INIT_LINUX_NVML,
			"%s returned %s (%d): a Linux driver's NVML, not WSL's, was loaded",
			n.sym_init, what, rc);
	} else if (rc == NVML_ERROR_DRIVER_NOT_LOADED) {
		res_set(r, ST_FAIL, probe_is_wsl2(ctx) ? KB_NVML_INIT_DRIVER_NOT_LOADED
						       : KB_NVML_INIT_NATIVE_DRIVER_NOT_LOADED,
			"%s returned %s (9): NVML cannot reach the NVIDIA driver", n.sym_init,
			what);
	} else if (rc == NVML_ERROR_OPERATING_SYSTEM) {
		res_set(r, ST_FAIL,
			probe_is_wsl2(ctx) ? KB_NVML_INIT_OS_BLOCKED : KB_NVML_INIT_NATIVE_OS_BLOCKED,
			"%s returned %s (17): GPU access blocked by the operating system",
			n.sym_init, what);
	} else if (rc == NVML_ERROR_LIBRARY_NOT_FOUND) {
		res_set(r, ST_FAIL, KB_NVML_INIT_LIBRARY_NOT_FOUND,
			"%s returned %s (12): NVML could not load a library it needs",
			n.sym_init, what);
	} else if (rc == NVML_ERROR_NO_PERMISSION) {
		res_set(r, ST_FAIL, KB_NVML_INIT_NO_PERMISSION,
			"%s returned %s (4): no permission to open the GPU", n.sym_init, what);
	} else if (rc == NVML_ERROR_LIB_RM_VERSION_MISMATCH) {
		res_set(r, ST_FAIL, KB_NVML_INIT_VERSION_MISMATCH,
			"%s returned %s (18): the driver library and the kernel driver differ",
			n.sym_init, what);
	} else if (rc == NVML_ERROR_UNKNOWN) {
		res_set(r, ST_FAIL, KB_NVML_INIT_UNKNOWN,
			"%s returned %s (999): an internal driver error", n.sym_init, what);
	} else {
		res_set(r, ST_FAIL, KB_NVML_INIT_FAILED, "%s returned %s (%d): %s", n.sym_init,
			what, rc, nvmlapi_error_string(&n, rc));
	}
out:
	nvmlapi_close(&n);
	sb_release(&loaded);
}

/* ---- nvml.devices ---- */

/* Unsupported queries are recorded once each, with the first answer. */
struct unsupported {
	unsigned seen;
	struct result *r;
};

static const char *const query_names[] = { "driver_version", "cuda_version", "name", "memory",
					   "pci", "driver_model", "utilization", "processes" };
enum query { Q_DRIVER, Q_CUDA, Q_NAME, Q_MEMORY, Q_PCI, Q_MODEL, Q_UTIL, Q_PROCS };

/* Records a query's non-success answer; returns true if it was merely
 * "not available here", false for a real error (also recorded). */
static bool note_answer(struct unsupported *u, enum query q, const char *symbol, int rc,
			int device)
{
	if (nvml_rc_unavailable(rc)) {
		if (!(u->seen & (1u << q))) {
			u->seen |= 1u << q;
			res_ev(u->r, "unsupported", "%s", query_names[q]);
			res_ev(u->r, "unsupported_detail", "%s: %s (%d)", symbol,
			       nvml_return_name(rc), rc);
		}
		return true;
	}
	if (device >= 0)
		res_ev(u->r, "query_error", "GPU %d: %s: %s (%d)", device, symbol,
		       nvml_return_name(rc), rc);
	else
		res_ev(u->r, "query_error", "%s: %s (%d)", symbol, nvml_return_name(rc), rc);
	return false;
}

static long to_mib(unsigned long long bytes)
{
	return (long)(bytes / (1024ull * 1024ull));
}

/* The driver version NVML gave, or NULL. */
static const char *nvml_driver(const struct nvml_facts *f)
{
	return f->driver_rc == NVML_SUCCESS && f->driver && *f->driver ? f->driver : NULL;
}

/* Cross-layer checks: NVML against cuda.init, nvml.smi and the driver store. */
static void cross_check(const struct nvml_facts *f, struct result *r, struct findings *v)
{
	const struct result *cuda = f->cuda_init;
	const struct result *smi = f->smi;
	const char *cvd = f->cuda_visible_devices;
	unsigned count = f->count;
	if (cuda && status_is_failure(cuda->status) && cvd && (!*cvd || !strcmp(cvd, "-1"))) {
		/* FACTS.md: set to "" or -1 it hides every GPU, from CUDA only. */
		res_ev(r, "cuda_visible_devices", "%s", cvd);
		res_ev(r, "cuda_device_count", "0 (cuda.init failed)");
		findings_add(v, ST_WARN, KB_NVML_DEVICES_COUNT_MISMATCH,
			 "NVML sees %u GPU%s; CUDA none, because CUDA_VISIBLE_DEVICES=\"%s\" hides them",
			 count, count == 1 ? "" : "s", cvd);
	} else if (cuda && status_is_failure(cuda->status)) {
		res_ev(r, "cuda_status", "%s", status_name(cuda->status));
		res_ev(r, "cuda_detail", "%s", cuda->detail ? cuda->detail : "");
		/* What the other layers saw, so that the cause names the one that
		 * fits: a libcuda other than WSL's only when libs says so. */
		const struct result *lc = f->libcuda;
		bool lc_ok = lc && lc->ran && lc->status == ST_PASS;
		bool lc_bad = lc && lc->ran && status_is_failure(lc->status);
		if (lc_ok)
			res_ev(r, "libcuda_ok", "%s", lc->detail ? lc->detail : "yes");
		else if (lc_bad)
			res_ev(r, "libcuda_bad", "%s", lc->detail ? lc->detail : "yes");
		const char *cres = res_get(cuda, "result");
		if (cres)
			res_ev(r, "cuda_result", "%s", cres);
		if (cvd)
			res_ev(r, "cuda_visible_devices", "%s", cvd);
		if (smi && smi->status == ST_PASS)
			res_ev(r, "smi_status", "nvidia-smi works");
		/* Which library CUDA loads is libs.libcuda's to say: never
		 * "a different one" under its pass. */
		findings_add(v, ST_WARN, KB_NVML_DEVICES_CUDA_CONFLICT,
			 "NVML sees %u GPU%s but cuda.init failed%s", count, count == 1 ? "" : "s",
			 lc_bad ? ": CUDA loads a different driver library (see libs.libcuda)"
			 : lc_ok ? ", although the expected libcuda.so.1 loads" : "");
	} else if (cuda && cuda->status == ST_PASS) {
		const char *cc = res_get(cuda, "device_count");
		if (cc) {
			char *end;
			long c = strtol(cc, &end, 10);
			res_ev(r, "cuda_device_count", "%s", cc);
			if (end != cc && c != (long)count) {
				res_ev(r, "cuda_visible_devices", "%s", cvd ? cvd : "not set");
				findings_add(v, ST_WARN, KB_NVML_DEVICES_COUNT_MISMATCH,
					 "NVML sees %u GPU%s, CUDA %ld", count,
					 count == 1 ? "" : "s", c);
			}
		}
	}
	const char *store = f->driver_store;
	const char *driver = nvml_driver(f);
	if (store && driver && f->wsl) {
		struct version a, b;
		res_ev(r, "driver_store_version", "%s", store);
		if (version_parse(store, &a) == 0 && version_parse(driver, &b) == 0 &&
		    version_cmp(&a, &b) != 0)
			findings_add(v, ST_WARN, KB_NVML_DEVICES_DRIVER_STORE_MISMATCH,
				 "NVML reports driver %s, the driver store's files say %s", driver,
				 store);
	}
}

/* The symbol NVML resolved, or the name it usually has. */
static const char *sym(const char *resolved, const char *usual)
{
	return resolved ? resolved : usual;
}

/* One GPU's answers as evidence; returns false when a query failed for
 * real (not merely "not available here"). names collects the names. */
static bool gpu_evidence(const struct nvml_facts *f, unsigned i, struct unsupported *u,
			 struct strbuf *names)
{
	const struct nvml_gpu *g = &f->gpu[i];
	struct result *r = u->r;
	char key[48];
	bool ok = true;
	if (g->handle_rc != NVML_SUCCESS) {
		res_ev(r, "query_error", "GPU %u: %s: %s (%d)", i,
		       sym(f->sym_handle, "nvmlDeviceGetHandleByIndex_v2"),
		       nvml_return_name(g->handle_rc), g->handle_rc);
		return false;
	}
	if (g->name_rc == NVML_SUCCESS) {
		snprintf(key, sizeof key, "device.%u.name", i);
		res_ev(r, key, "%s", g->name ? g->name : "");
		if (names->len)
			sb_add(names, ", ");
		sb_add(names, g->name ? g->name : "");
	} else {
		ok &= note_answer(u, Q_NAME, "nvmlDeviceGetName", g->name_rc, (int)i);
	}
	if (g->memory_rc == NVML_SUCCESS) {
		snprintf(key, sizeof key, "device.%u.memory_total_mib", i);
		res_ev(r, key, "%ld", to_mib(g->memory_total));
		snprintf(key, sizeof key, "device.%u.memory_used_mib", i);
		res_ev(r, key, "%ld", to_mib(g->memory_used));
		if (i == 0)
			sb_addf(names, " (%ld MiB)", to_mib(g->memory_total));
	} else {
		ok &= note_answer(u, Q_MEMORY, "nvmlDeviceGetMemoryInfo", g->memory_rc, (int)i);
	}
	if (g->pci_rc == NVML_SUCCESS) {
		snprintf(key, sizeof key, "device.%u.pci_bus_id", i);
		res_ev(r, key, "%s", g->pci_bus_id);
	} else {
		ok &= note_answer(u, Q_PCI, "nvmlDeviceGetPciInfo_v3", g->pci_rc, (int)i);
	}
	if (g->model_rc == NVML_SUCCESS) {
		snprintf(key, sizeof key, "device.%u.driver_model", i);
		res_ev(r, key, "%s", nvml_driver_model_name(g->model));
	} else {
		ok &= note_answer(u, Q_MODEL, sym(f->sym_model, "nvmlDeviceGetDriverModel_v2"),
				  g->model_rc, (int)i);
	}
	if (g->util_rc == NVML_SUCCESS) {
		snprintf(key, sizeof key, "device.%u.utilization_gpu", i);
		res_ev(r, key, "%u", g->util_gpu);
	} else {
		ok &= note_answer(u, Q_UTIL, "nvmlDeviceGetUtilizationRates", g->util_rc, (int)i);
	}
	if (g->procs_rc == NVML_SUCCESS) {
		snprintf(key, sizeof key, "device.%u.processes", i);
		res_ev(r, key, "%u", g->procs);
	} else {
		ok &= note_answer(u, Q_PROCS,
				  sym(f->sym_procs, "nvmlDeviceGetComputeRunningProcesses_v3"),
				  g->procs_rc, (int)i);
	}
	return ok;
}

/* A call that ended the queries: NVML cannot go on. */
static void query_failed(struct result *r, const char *call, int rc, const char *what)
{
	res_ev(r, "failed_call", "%s", call);
	res_ev(r, "code_name", "%s", nvml_return_name(rc));
	res_set(r, ST_FAIL, KB_NVML_DEVICES_QUERY_FAILED, "%s: %s (%d)", what, nvml_return_name(rc),
		rc);
}

void judge_nvml_devices(const struct nvml_facts *f, struct result *r)
{
	struct unsupported u = { 0, r };
	if (f->init_rc != NVML_SUCCESS) {
		query_failed(r, sym(f->sym_init, "nvmlInit_v2"), f->init_rc,
			     "NVML did not initialise this time");
		return;
	}
	const char *driver = nvml_driver(f);
	if (driver) {
		res_ev(r, "driver_version", "%s", driver);
		struct version dv;
		if (f->wsl && version_parse(driver, &dv) == 0 && dv.n >= 3)
			res_ev(r, "note", "on WSL the driver version is the Windows one, with two "
					  "parts; %s has three, like a Linux driver's", driver);
	} else {
		note_answer(&u, Q_DRIVER, "nvmlSystemGetDriverVersion", f->driver_rc, -1);
	}
	if (f->cuda_rc == NVML_SUCCESS && f->cuda > 0) {
		char buf[16];
		cudaver_format(f->cuda, buf, sizeof buf);
		res_ev(r, "cuda_version", "%s", buf);
		res_ev(r, "cuda_version_raw", "%d", f->cuda);
	} else {
		note_answer(&u, Q_CUDA, sym(f->sym_cuda, "nvmlSystemGetCudaDriverVersion_v2"),
			    f->cuda_rc, -1);
	}
	if (f->count_rc != NVML_SUCCESS) {
		query_failed(r, sym(f->sym_count, "nvmlDeviceGetCount_v2"), f->count_rc,
			     "NVML could not count the GPUs");
		return;
	}
	res_ev(r, "device_count", "%u", f->count);
	if (f->count == 0) {
		res_set(r, ST_FAIL, KB_NVML_DEVICES_NONE, "NVML works but sees no GPU");
		return;
	}
	struct strbuf names = STRBUF_INIT;
	struct findings v = FINDINGS_INIT;
	bool errors = false;
	for (unsigned i = 0; i < f->count && i < NVML_MAX_DEVICES; i++)
		errors |= !gpu_evidence(f, i, &u, &names);
	const char *cuda = res_get(r, "cuda_version");
	findings_add(&v, ST_PASS, u.seen && f->wsl ? KB_NVML_DEVICES_WSL_PARTIAL : NULL,
		 "%u GPU%s: %s; driver %s, CUDA %s", f->count, f->count == 1 ? "" : "s",
		 names.len ? names.buf : "(no names)", driver ? driver : "unknown",
		 cuda ? cuda : "unknown");
	if (u.seen && f->wsl)
		res_ev(r, "note", "not supported on WSL: NVML on WSL implements only part of its "
				  "queries (NVIDIA's CUDA on WSL guide, 5.2); this is expected");
	if (errors)
		findings_add(&v, ST_WARN, KB_NVML_DEVICES_QUERY_ERROR,
			 "NVML sees %u GPU%s, but some queries failed", f->count,
			 f->count == 1 ? "" : "s");
	cross_check(f, r, &v);
	findings_settle(r, &v);
	sb_release(&names);
}

/* ---- nvml.devices' collector: the calls into NVML ---- */

/* What nvml.devices asked, and the facts that point into it. */
struct nvml_collect {
	struct nvml_facts f;
	struct nvml_gpu gpu[NVML_MAX_DEVICES];
	struct strbuf driver, names[NVML_MAX_DEVICES];
	struct nvmlapi_pci pci[NVML_MAX_DEVICES];
};

static void collect_gpu(struct probe_ctx *ctx, struct nvmlapi *n, unsigned i,
			struct nvml_collect *c)
{
	struct nvml_gpu *g = &c->gpu[i];
	nvmlapi_device dev;
	probe_step(ctx, "calling %s(%u)",
		   n->sym_handle ? n->sym_handle : "nvmlDeviceGetHandleByIndex_v2", i);
	g->handle_rc = nvmlapi_device_handle(n, i, &dev);
	if (g->handle_rc != NVML_SUCCESS)
		return;
	probe_step(ctx, "calling nvmlDeviceGetName(GPU %u)", i);
	g->name_rc = nvmlapi_device_name(n, dev, &c->names[i]);
	g->name = sb_str(&c->names[i]);
	struct nvmlapi_memory m;
	probe_step(ctx, "calling nvmlDeviceGetMemoryInfo(GPU %u)", i);
	g->memory_rc = nvmlapi_device_memory(n, dev, &m);
	if (g->memory_rc == NVML_SUCCESS) {
		g->memory_total = m.total;
		g->memory_used = m.used;
	}
	probe_step(ctx, "calling nvmlDeviceGetPciInfo_v3(GPU %u)", i);
	g->pci_rc = nvmlapi_device_pci(n, dev, &c->pci[i]);
	g->pci_bus_id = c->pci[i].bus_id;
	int pend;
	probe_step(ctx, "calling %s(GPU %u)",
		   n->sym_model ? n->sym_model : "nvmlDeviceGetDriverModel_v2", i);
	g->model_rc = nvmlapi_device_driver_model(n, dev, &g->model, &pend);
	struct nvmlapi_utilization ut;
	probe_step(ctx, "calling nvmlDeviceGetUtilizationRates(GPU %u)", i);
	g->util_rc = nvmlapi_device_utilization(n, dev, &ut);
	if (g->util_rc == NVML_SUCCESS)
		g->util_gpu = ut.gpu;
	probe_step(ctx, "calling %s(GPU %u)",
		   n->sym_procs ? n->sym_procs : "nvmlDeviceGetComputeRunningProcesses_v3", i);
	g->procs_rc = nvmlapi_device_process_count(n, dev, &g->procs);
}

/* The calls, in order, each announced; the first that fails for good
 * ends them (as the judge then ends). */
static void collect_nvml(struct probe_ctx *ctx, struct nvmlapi *n, struct nvml_collect *c)
{
	struct nvml_facts *f = &c->f;
	f->wsl = probe_is_wsl2(ctx);
	f->sym_init = n->sym_init;
	f->sym_cuda = n->sym_cuda;
	f->sym_count = n->sym_count;
	f->sym_handle = n->sym_handle;
	f->sym_model = n->sym_model;
	f->sym_procs = n->sym_procs;
	f->gpu = c->gpu;
	f->cuda_init = probe_dep(ctx, "cuda.init");
	f->smi = probe_dep(ctx, "nvml.smi");
	f->libcuda = probe_dep(ctx, "libs.libcuda");
	f->driver_store = probe_dep_get(ctx, "host.driver_store", "version");
	f->cuda_visible_devices = getenv("CUDA_VISIBLE_DEVICES");
	probe_step(ctx, "calling %s", n->sym_init ? n->sym_init : "nvmlInit");
	f->init_rc = nvmlapi_init(n);
	if (f->init_rc != NVML_SUCCESS)
		return;
	probe_step(ctx, "calling nvmlSystemGetDriverVersion");
	f->driver_rc = nvmlapi_driver_version(n, &c->driver);
	f->driver = sb_str(&c->driver);
	probe_step(ctx, "calling %s", n->sym_cuda ? n->sym_cuda : "nvmlSystemGetCudaDriverVersion");
	f->cuda_rc = nvmlapi_cuda_driver_version(n, &f->cuda);
	probe_step(ctx, "calling %s", n->sym_count ? n->sym_count : "nvmlDeviceGetCount_v2");
	f->count_rc = nvmlapi_device_count(n, &f->count);
	if (f->count_rc != NVML_SUCCESS)
		return;
	for (unsigned i = 0; i < f->count && i < NVML_MAX_DEVICES; i++)
		collect_gpu(ctx, n, i, c);
}

static void probe_devices(struct probe_ctx *ctx, struct result *r)
{
	struct nvmlapi n;
	struct strbuf loaded = STRBUF_INIT;
	if (load(ctx, r, &n, &loaded) == 0) {
		struct nvml_collect c;
		memset(&c, 0, sizeof c);
		collect_nvml(ctx, &n, &c);
		judge_nvml_devices(&c.f, r);
		sb_release(&c.driver);
		for (size_t i = 0; i < NVML_MAX_DEVICES; i++)
			sb_release(&c.names[i]);
	}
	nvmlapi_close(&n);
	sb_release(&loaded);
}

/* ---- nvml.smi ---- */

/* nvidia-smi may run twice (the one on PATH and WSL's own); each run gets
 * part of the probe's time so that a hang is reported by us, not by the
 * runner's time-out. */
static int smi_limit_ms(struct probe_ctx *ctx)
{
	int t = ctx->opts && ctx->opts->timeout_ms > 0 ? ctx->opts->timeout_ms : 10000;
	int l = t * 2 / 5;
	return l < 100 ? 100 : l;
}

struct smi_run {
	struct proc_result pr;
	struct nvsmi_info info;
	struct strbuf end;    /* "exited with status 0", "killed by SIGSEGV" */
	struct strbuf output; /* stdout then stderr */
};

static void smi_run(struct probe_ctx *ctx, struct result *r, const char *guest,
		    const char *host, struct smi_run *s)
{
	const char *argv[] = { host, NULL };
	struct proc_opts po = { .timeout_ms = smi_limit_ms(ctx) };
	proc_result_init(&s->pr);
	sb_init(&s->end);
	sb_init(&s->output);
	probe_step(ctx, "running %s", guest);
	probe_run(ctx, r, argv, &po, &s->pr);
	proc_describe_end(&s->pr, &s->end);
	sb_addn(&s->output, sb_str(&s->pr.out), s->pr.out.len);
	if (s->pr.err.len) {
		if (s->output.len && s->output.buf[s->output.len - 1] != '\n')
			sb_addc(&s->output, '\n');
		sb_addn(&s->output, sb_str(&s->pr.err), s->pr.err.len);
	}
	nvsmi_parse(sb_str(&s->output), s->output.len, &s->info);
}

static void smi_release(struct smi_run *s)
{
	proc_result_release(&s->pr);
	sb_release(&s->end);
	sb_release(&s->output);
}

static bool smi_ok(const struct smi_run *s)
{
	return s->pr.end == PROC_EXITED && s->pr.code == 0 && s->info.failure == NVSMI_FAIL_NONE;
}

static void smi_evidence(struct result *r, const struct smi_run *s)
{
	res_ev(r, "exit", "%s", s->end.buf);
	if (s->info.smi_version[0])
		res_ev(r, "smi_version", "%s", s->info.smi_version);
	if (s->info.driver_version[0])
		res_ev(r, "driver_version", "%s", s->info.driver_version);
	if (s->info.cuda_version[0])
		res_ev(r, "cuda_version", "%s", s->info.cuda_version);
	for (size_t i = 0; i < s->info.ngpus; i++) {
		char key[32];
		snprintf(key, sizeof key, "gpu.%d.name", s->info.gpu[i].index);
		res_ev(r, key, "%s", s->info.gpu[i].name);
	}
	if (s->info.reason[0])
		res_ev(r, "reason", "%s", s->info.reason);
	if (s->output.len)
		res_ev_text(r, "output", s->output.buf, 2000);
}

/* Names what went wrong with one run: status, KB id and detail. */
static void smi_classify(struct probe_ctx *ctx, struct result *r, const struct smi_run *s,
			 const char *guest, struct findings *v)
{
	const struct nvsmi_info *in = &s->info;
	double secs = (double)smi_limit_ms(ctx) / 1000.0;
	switch (s->pr.end) {
	case PROC_EXEC_FAILED:
		res_ev(r, "error", "%s", strerror(s->pr.code));
		findings_add(v, ST_FAIL, KB_NVML_SMI_EXEC_FAILED, "%s could not be started: %s", guest,
			 strerror(s->pr.code));
		return;
	case PROC_TIMEOUT:
		findings_add(v, ST_FAIL, KB_NVML_SMI_HANG,
			 "%s did not finish within %.1f s and was killed", guest, secs);
		return;
	case PROC_STOPPED: {
		char sig[16];
		res_ev(r, "stopped_by", "%s", signal_name(s->pr.sig, sig));
		res_ev(r, "during", "%s", guest);
		findings_add(v, ST_FAIL, KB_CORE_PROBE_STOPPED, "%s was stopped (%s) and killed", guest,
			 signal_name(s->pr.sig, sig));
		return;
	}
	case PROC_SIGNALED: {
		char sig[16];
		res_ev(r, "signal", "%s", signal_name(s->pr.sig, sig));
		findings_add(v, ST_FAIL, KB_NVML_SMI_CRASH, "%s crashed (%s)%s", guest,
			 signal_name(s->pr.sig, sig),
			 in->have_header ? " after printing its header" : "");
		return;
	}
	case PROC_OUTPUT_OVER: /* not asked for: its output is read to its end */
	case PROC_EXITED:
		break;
	}
	switch (in->failure) {
	case NVSMI_FAIL_OS_BLOCKED:
		findings_add(v, ST_FAIL,
			 probe_is_wsl2(ctx) ? KB_NVML_SMI_OS_BLOCKED : KB_NVML_SMI_NATIVE_OS_BLOCKED,
			 "nvidia-smi: GPU access blocked by the operating system");
		return;
	case NVSMI_FAIL_NO_LIBNVML:
		findings_add(v, ST_FAIL,
			 probe_is_wsl2(ctx) ? KB_NVML_SMI_NO_LIBNVML : KB_NVML_SMI_NATIVE_NO_LIBNVML,
			 "nvidia-smi could not find libnvidia-ml.so");
		return;
	case NVSMI_FAIL_NO_DRIVER:
		findings_add(v, ST_FAIL,
			 probe_is_wsl2(ctx) ? KB_NVML_SMI_NO_DRIVER : KB_NVML_SMI_NATIVE_NO_DRIVER,
			 "nvidia-smi couldn't communicate with the NVIDIA driver");
		return;
	case NVSMI_FAIL_NO_DEVICES:
		findings_add(v, ST_FAIL, KB_NVML_SMI_NO_DEVICES, "nvidia-smi: No devices were found");
		return;
	case NVSMI_FAIL_NVML_INIT:
		findings_add(v, ST_FAIL, KB_NVML_SMI_NVML_FAILED, "nvidia-smi: %s", in->reason);
		return;
	case NVSMI_FAIL_NONE:
		break;
	}
	if (s->pr.code != 0) {
		findings_add(v, ST_FAIL, KB_NVML_SMI_FAILED, "%s %s", guest, s->end.buf);
		return;
	}
	if (!in->have_header) {
		findings_add(v, ST_WARN, KB_NVML_SMI_UNPARSED,
			 "%s exited 0 but printed no version header", guest);
		return;
	}
	if (in->cuda_err) {
		findings_add(v, ST_WARN, KB_NVML_SMI_CUDA_ERR,
			 "nvidia-smi works but shows \"CUDA Version: ERR!\" (driver %s)",
			 in->driver_version[0] ? in->driver_version : "unknown");
		return;
	}
	findings_add(v, ST_PASS, NULL, "nvidia-smi works: driver %s, CUDA %s",
		 in->driver_version[0] ? in->driver_version : "unknown",
		 in->cuda_version[0] ? in->cuda_version : "unknown");
}

static void probe_smi(struct probe_ctx *ctx, struct result *r)
{
	struct strbuf guest = STRBUF_INIT, host = STRBUF_INIT;
	struct findings v = FINDINGS_INIT;
	bool on_path = false, wsl = probe_is_wsl2(ctx);
	int rc = rootfs_which("nvidia-smi", &guest, &host, &on_path);
	if (rc < 0) {
		if (wsl)
			res_set(r, ST_FAIL, KB_NVML_SMI_MISSING,
				"nvidia-smi not found, not even WSL's %s", WSL_SMI);
		else
			res_set(r, ST_WARN, KB_NVML_SMI_NOT_INSTALLED,
				"nvidia-smi is not installed (NVML itself is checked by nvml.init)");
		goto out;
	}
	res_ev(r, "path", "%s", guest.buf);
	res_ev(r, "on_path", "%s", on_path ? "yes" : "no (found in a fixed directory)");
	bool wsl_copy = !strcmp(guest.buf, WSL_SMI);

	struct smi_run s;
	smi_run(ctx, r, guest.buf, host.buf, &s);
	smi_evidence(r, &s);
	if (!wsl || wsl_copy || strcmp(probe_platform(ctx), "wsl2") != 0) {
		smi_classify(ctx, r, &s, guest.buf, &v);
		/* Found only in the fixed directories: works here, but "command
		 * not found" for the user under sudo, ssh or a service. */
		if (!on_path && wsl_copy)
			findings_add(&v, ST_WARN, KB_NVML_SMI_NOT_ON_PATH,
				 "%s works but is not on PATH (sudo, ssh and services do not get "
				 "WSL's PATH)", guest.buf);
		smi_release(&s);
		findings_settle(r, &v);
		goto out;
	}

	/* Plain WSL2 whose nvidia-smi is not WSL's: a Linux driver's userland
	 * shadows the Windows driver's (case R07). That is the finding, whatever
	 * this nvidia-smi said; what it said, and whether WSL's own copy works,
	 * is evidence. */
	struct findings said = FINDINGS_INIT;
	smi_classify(ctx, r, &s, guest.buf, &said);
	long said_w = findings_worst(&said);
	res_ev(r, "smi_result", "%s", said_w >= 0 ? said.v[said_w].detail : "");
	bool first_ok = smi_ok(&s);
	findings_release(&said);
	smi_release(&s);
	struct strbuf wh = STRBUF_INIT;
	struct stat st;
	res_ev(r, "wsl_smi", "%s", WSL_SMI);
	if (rootfs_stat(WSL_SMI, &st) == 0 && rootfs_host_path(WSL_SMI, true, &wh) == 0) {
		struct smi_run w;
		smi_run(ctx, r, WSL_SMI, wh.buf, &w);
		res_ev(r, "wsl_smi_exit", "%s", w.end.buf);
		if (w.info.driver_version[0])
			res_ev(r, "wsl_smi_driver_version", "%s", w.info.driver_version);
		res_ev(r, "wsl_smi_result", "%s",
		       smi_ok(&w) ? "WSL's own nvidia-smi works" : "WSL's own nvidia-smi fails too");
		smi_release(&w);
	} else {
		res_ev(r, "wsl_smi_result", "WSL's own %s is missing", WSL_SMI);
	}
	sb_release(&wh);
	/* Who installed it: dpkg -S answers for the file, not for a Debian
	 * alternatives link to it (/usr/bin/nvidia-smi -> /etc/alternatives/
	 * nvidia--nvidia-smi -> /usr/lib/nvidia/current/nvidia-smi). */
	struct strbuf canon = STRBUF_INIT;
	const char *pkg = dpkg_index_owner(guest.buf);
	if (rootfs_realpath(guest.buf, &canon, NULL) == 0 && canon.len &&
	    strcmp(canon.buf, guest.buf) != 0) {
		res_ev(r, "target", "%s", canon.buf);
		if (!pkg)
			pkg = dpkg_index_owner(canon.buf);
	}
	const struct dpkg_index_info *db = dpkg_index();
	if (pkg)
		res_ev(r, "package", "%s", pkg);
	else if (db->present && !db->unreadable && !db->capped)
		res_ev(r, "unowned", "no package of the %zu in dpkg's database owns it", db->lists);
	sb_release(&canon);
	findings_add(&v, first_ok ? ST_WARN : ST_FAIL, KB_NVML_SMI_LINUX_SHADOW,
		 "%s comes before WSL's %s on PATH%s", guest.buf, WSL_SMI,
		 first_ok ? "" : ", and fails");
	findings_settle(r, &v);
out:
	sb_release(&guest);
	sb_release(&host);
	findings_release(&v);
}

const struct check_def nvml_checks[] = {
	{ "nvml.init", "nvml", "Load and initialise NVML",
	  "dlopen libnvidia-ml.so.1 and nvmlInit; the file really loaded and the return code by name",
	  { "platform.kind", "libs.libnvml" }, probe_init, 0 },
	{ "nvml.devices", "nvml", "NVML devices",
	  "driver version, CUDA version, device names and memory from NVML; NVML against CUDA and the driver store",
	  { "nvml.init", "after:nvml.smi", "after:cuda.init", "after:host.driver_store" },
	  probe_devices, 0 },
	{ "nvml.smi", "nvml", "nvidia-smi", "run nvidia-smi with a time limit and interpret its failures",
	  { "platform.kind", "libs.wsl_dir" }, probe_smi, CHECK_COMMANDS },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
