/*
 * frameworks.c: does PyTorch, TensorFlow, JAX or CuPy actually use the GPU?
 *
 * Each check runs the embedded probe script (pyprobe.py, passed with -c,
 * never written to disk) in every interpreter we know of — the python3
 * PATH picks, plus each --python — as a child with the time limit. The
 * script imports the framework and reports, stage by stage, its build's
 * CUDA version, CPU-only builds, the devices it sees, the arch list the
 * build carries, a small GPU matmul checked against the CPU, cuDNN, and the
 * libcuda the process mapped (/proc/self/maps). Everything is decided here,
 * in C: the script only reports.
 *
 * What a framework prints when it fails is matched against the `match:` and
 * `regex:` lines of src/kb/frameworks.kb by explain's matcher (explain_best
 * in src/explain/matcher.h), so a new signature is a KB edit. A framework
 * that is not installed is a skip, not a failure.
 *
 * Dependencies: platform.kind and libs.libcuda only. A framework brings its
 * own CUDA runtime, cuBLAS and cuDNN and needs nothing from the system but
 * the driver's libcuda (FACTS.md), so it does not wait for our cuda layer:
 * it runs beside it, and a full check takes about as long as the slowest
 * import. If libs.libcuda failed, the framework would load the same wrong
 * or missing libcuda, so the runner skips it with "fix that first"; if the
 * cuda layer fails, the summary names that layer first anyway.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../core/text.h"
#include "../explain/matcher.h"
#include "../parse/cudaarch.h"
#include "../parse/dpkg.h"
#include "../parse/pyprobe.h"
#include "frameworks_judge.h"
#include "fwadvice.h"
#include "probes.h"
#include "pyprobe_script.h"
#include "kb_ids.h"

#define MAX_INTERPRETERS 8

struct interp {
	char *guest;         /* as the user would name it */
	char *host;          /* what we exec */
	const char *origin;  /* "PATH", "--python" */
	int missing;         /* -errno when an explicit --python does not exist */
};

/* ---- finding the interpreters ---- */

static void add_interp(struct interp *ips, size_t *n, const char *guest, const char *host,
		       const char *origin, int missing)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(ips[i].guest, guest))
			return;
	if (*n >= MAX_INTERPRETERS)
		return;
	ips[*n].guest = xstrdup(guest);
	ips[*n].host = xstrdup(host ? host : "");
	ips[*n].origin = origin;
	ips[*n].missing = missing;
	(*n)++;
}

static size_t find_interpreters(struct probe_ctx *ctx, struct interp *ips)
{
	size_t n = 0;
	struct strbuf g = STRBUF_INIT, h = STRBUF_INIT;
	if (rootfs_which("python3", &g, &h, NULL) == 0)
		add_interp(ips, &n, g.buf, h.buf, "PATH", 0);
	for (size_t i = 0; ctx->opts && i < ctx->opts->npythons; i++) {
		const char *p = ctx->opts->pythons[i];
		if (!p || !*p)
			continue;
		rootfs_absolute(p, &g);
		int rc = rootfs_host_path(g.buf, true, &h);
		if (rc == 0 && access(h.buf, X_OK) < 0)
			rc = -errno;
		add_interp(ips, &n, g.buf, rc == 0 ? h.buf : NULL, "--python", rc);
	}
	sb_release(&g);
	sb_release(&h);
	return n;
}

/* ---- small helpers ---- */

/* "12.4" for "12040"; NULL input gives NULL. */
static const char *cuda_from_int(const char *v, char *buf, size_t n)
{
	if (!v)
		return NULL;
	char *end;
	long x = strtol(v, &end, 10);
	if (*end || x <= 0 || x > 1000000)
		return NULL;
	snprintf(buf, n, "%ld.%ld", x / 1000, (x % 1000) / 10);
	return buf;
}

static int major_of(const char *v)
{
	return v ? atoi(v) : 0;
}

static int minor_of(const char *v)
{
	const char *d = v ? strchr(v, '.') : NULL;
	return d ? atoi(d + 1) : 0;
}

/*
 * The PyTorch wheel index for this driver and GPU (fw_torch_pick: the newest
 * release's wheel the driver runs that has kernels for the GPU), and into
 * words which PyTorch that yields. The GPU is the one the arch check named,
 * else the framework's first device, else the driver's first (a CPU-only
 * build sees none).
 */
static void gpu_cc(const struct pyprobe *s, const struct result *t, int *cmaj, int *cmin)
{
	*cmaj = *cmin = 0;
	const char *cc = res_get(t, "cc"); /* "sm_61" */
	if (cc && !strncmp(cc, "sm_", 3) && strlen(cc) >= 5) {
		*cmin = cc[strlen(cc) - 1] - '0';
		*cmaj = atoi(cc + 3) / 10;
	} else {
		cc = pyprobe_get(s, "device.0.cc");
		if (!cc)
			cc = pyprobe_get(s, "cuda_device.0.cc");
		if (cc && cudaarch_parse_cc(cc, cmaj, cmin) < 0)
			*cmaj = *cmin = 0;
	}
}

static void torch_index(const struct pyprobe *s, const char *driver_cuda, const struct result *t,
			char *out, size_t n, struct strbuf *words)
{
	int cmaj, cmin;
	gpu_cc(s, t, &cmaj, &cmin);
	struct torch_pick p;
	fw_torch_pick(major_of(driver_cuda), minor_of(driver_cuda), cmaj, cmin, &p);
	snprintf(out, n, "https://download.pytorch.org/whl/%s", p.wheel->tag);
	fw_torch_words(&p, words);
}

/* ---- one run of the probe script ---- */

static const char *stage_words(const char *stage, const struct fwdesc *d, char *buf, size_t n)
{
	if (!stage || !strcmp(stage, "start"))
		return "starting Python";
	if (!strcmp(stage, "import"))
		snprintf(buf, n, "import %s", d->name);
	else if (!strcmp(stage, "cuda"))
		snprintf(buf, n, "%s initialising CUDA", d->label);
	else if (!strcmp(stage, "compute"))
		snprintf(buf, n, "a %s matmul on the GPU", d->label);
	else if (!strcmp(stage, "conv"))
		snprintf(buf, n, "a cuDNN convolution in %s", d->label);
	else if (!strcmp(stage, "done"))
		snprintf(buf, n, "%s finishing", d->label);
	else
		snprintf(buf, n, "%s (%s)", d->label, stage);
	return buf;
}

/* The texts a failure is explained by: the script's error fields and
 * warnings, then the interpreter's stderr. */
static void signature_text(const struct fw_run *run, struct strbuf *out)
{
	static const char *const keys[] = { "import_error", "cuda_error", "compute_error",
					    "conv_error", "build_error", "build_info_error",
					    "driver_error", "probe_error" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *v = pyprobe_get(&run->snap, keys[i]);
		if (v) {
			sb_add(out, v);
			sb_addc(out, '\n');
		}
	}
	for (int i = 0; i < 8; i++) {
		char k[32];
		snprintf(k, sizeof k, "warning.%d", i);
		const char *v = pyprobe_get(&run->snap, k);
		if (v) {
			sb_add(out, v);
			sb_addc(out, '\n');
		}
	}
	sb_addn(out, run->pr.err.buf ? run->pr.err.buf : "", run->pr.err.len);
}

/* The last non-empty lines of stderr, for evidence. */
static void stderr_tail(const struct proc_result *pr, struct result *t)
{
	if (!pr->err.len)
		return;
	const char *s = pr->err.buf;
	size_t n = pr->err.len;
	size_t start = n > 1500 ? n - 1500 : 0;
	struct strbuf sb = STRBUF_INIT;
	if (start)
		sb_add(&sb, "[...] ");
	sb_addn(&sb, s + start, n - start);
	res_ev_text(t, "stderr", sb.buf, 1600);
	sb_release(&sb);
}

static void snap_ev(struct result *t, const struct fw_run *run, const char *key, const char *as)
{
	const char *v = pyprobe_get(&run->snap, key);
	if (v && *v)
		res_ev(t, as ? as : key, "%s", v);
}

/* Sets t from a KB entry found by signature, with the matched text as
 * evidence. */
static void set_from_signature(struct result *t, const struct kb_entry *e, const char *what)
{
	res_set(t, ST_FAIL, e->id, "%s: %s", what, e->title);
}

/* ---- how the framework was installed ---- */

#define DPKG_INFO "/var/lib/dpkg/info"

/* Whether dpkg's list of package pkg (NAME.list or NAME:ARCH.list) names
 * path: `dpkg -S` for the one package the Debian Python policy names
 * python3-MODULE, without scanning every list. */
static bool dpkg_lists(const char *pkg, const char *path)
{
	struct strbuf p = STRBUF_INIT, buf = STRBUF_INIT;
	bool found = false;
	sb_addf(&p, "%s/%s.list", DPKG_INFO, pkg);
	if (rootfs_read(p.buf, 16u << 20, &buf, NULL) == 0) {
		found = dpkg_list_has(buf.buf ? buf.buf : "", buf.len, path);
	} else {
		DIR *d = rootfs_opendir(DPKG_INFO);
		struct dirent *de;
		size_t n = strlen(pkg);
		while (d && !found && (de = readdir(d)) != NULL) {
			if (strncmp(de->d_name, pkg, n) != 0 || de->d_name[n] != ':' ||
			    !strstr(de->d_name + n, ".list"))
				continue;
			sb_reset(&p);
			sb_addf(&p, "%s/%s", DPKG_INFO, de->d_name);
			if (rootfs_read(p.buf, 16u << 20, &buf, NULL) == 0)
				found = dpkg_list_has(buf.buf ? buf.buf : "", buf.len, path);
		}
		if (d)
			closedir(d);
	}
	sb_release(&p);
	sb_release(&buf);
	return found;
}

/* The Debian package that installed the module file, if dpkg says so. */
static void dpkg_owner(const struct fwdesc *d, const struct pyprobe *s, struct strbuf *pkg)
{
	const char *file = pyprobe_get(s, "module_file");
	const char *dist = pyprobe_get(s, "dist");
	if (!file || strncmp(file, "/usr/lib/", 9) != 0)
		return; /* Debian's Python packages live in /usr/lib/python3 */
	const char *names[] = { d->name, dist };
	for (size_t i = 0; i < 2 && !pkg->len; i++) {
		if (!names[i] || !*names[i])
			continue;
		struct strbuf cand = STRBUF_INIT;
		sb_add(&cand, "python3-");
		for (const char *c = names[i]; *c; c++)
			sb_addc(&cand, *c == '_' ? '-' : (char)tolower((unsigned char)*c));
		if (dpkg_valid_name(cand.buf, cand.len) && dpkg_lists(cand.buf, file))
			sb_add(pkg, cand.buf);
		sb_release(&cand);
	}
}

/* arch_fix: the framework's own way to a build with the GPU's code (the
 * frameworks.arch_* fixes), in the way it was installed. */
static void arch_fix_ev(const struct fwdesc *d, const struct fw_origin *o, const struct fw_want *w,
			struct result *t)
{
	struct strbuf cmd = STRBUF_INIT, pkgs = STRBUF_INIT;
	struct fw_want up = *w;
	const char *cc = res_get(t, "cc");
	if (!strcmp(d->name, "tensorflow")) {
		up.pkgs = "--upgrade 'tensorflow[and-cuda]'";
	} else if (strcmp(d->name, "torch") != 0) {
		sb_addf(&pkgs, "--upgrade %s", o->dist ? o->dist : d->name);
		up.pkgs = pkgs.buf;
		up.reinstall = false;
	}
	fw_install_cmd(o, &up, &cmd);
	if (strcmp(d->name, "torch") != 0 && strcmp(d->name, "tensorflow") != 0)
		sb_addf(&cmd, "   (a release built for %s)", cc ? cc : "this GPU");
	res_ev(t, "arch_fix", "%s", cmd.buf);
	sb_release(&cmd);
	sb_release(&pkgs);
}

/* Evidence on where the framework came from, and the commands that
 * install a GPU build there (install_fix, arch_fix), reinstall it
 * (repair_fix) and check it (check_cmd): every fix of frameworks.kb that
 * installs something uses these, so none is a plain pip into an
 * interpreter that refuses it. */
static void origin_evidence(const struct fwdesc *d, const struct fw_run *run, struct result *t,
			    const char *idx)
{
	const struct pyprobe *s = &run->snap;
	struct strbuf words = STRBUF_INIT, pkgs = STRBUF_INIT;
	struct strbuf args = STRBUF_INIT, cmd = STRBUF_INIT;
	struct fw_origin o;
	fw_origin_judge(s, run->dpkg_package, &o);
	const char *site = pyprobe_get(s, "site_dir");
	fw_install_words(&o, pyprobe_get(s, "user_site"), site, &words);
	res_ev(t, "install_kind", "%s", fw_install_name(o.kind));
	if (o.kind != FWI_UNKNOWN)
		res_ev(t, "install", "%s", words.buf);
	snap_ev(t, run, "module_file", NULL);
	snap_ev(t, run, "installer", NULL);
	snap_ev(t, run, "direct_url", NULL);
	if (o.dpkg_package)
		res_ev(t, "dpkg_package", "%s", o.dpkg_package);
	if (o.externally_managed)
		snap_ev(t, run, "externally_managed", NULL);
	if (o.kind == FWI_CONDA || o.kind == FWI_CONDA_PIP || o.kind == FWI_VENV ||
	    o.kind == FWI_UV)
		snap_ev(t, run, "prefix", "environment");
	const char *ver = pyprobe_get(s, "version");
	if (ver && strstr(ver, "+cpu"))
		res_ev(t, "cpu_tag", "+cpu");
	const char *url = pyprobe_get(s, "direct_url");
	if (url && strstr(url, "download.pytorch.org/whl/cpu"))
		res_ev(t, "cpu_index", "%s", url);
	/* A copy the imported one hides (PYTHONPATH ahead of it, a package
	 * over a user's install). */
	const char *other = pyprobe_get(s, "other_copy.0");
	if (other) {
		res_ev(t, "shadowed", "%s", other);
		snap_ev(t, run, "pythonpath", NULL);
	}

	const char *py = res_get(t, "python");
	struct fw_want w = { d->name, py ? py : "python3", NULL, NULL, true, NULL,
			     false };
	w.apt = run->apt;
	const char *drv = res_get(t, "driver_cuda");
	int dmaj = drv && strcmp(drv, "unknown") ? major_of(drv) : 0;
	if (!strcmp(d->name, "torch")) {
		/* torchvision and torchaudio must come from the same index. */
		const char *comp = pyprobe_get(s, "companions");
		sb_addf(&pkgs, "torch %s", comp ? comp : (o.kind == FWI_UNKNOWN ? "torchvision torchaudio" : ""));
		sb_rtrim(&pkgs);
		sb_addf(&args, "--index-url %s", idx);
		w.conda_spec = "'pytorch=*=*cuda*'";
	} else if (!strcmp(d->name, "tensorflow")) {
		sb_add(&pkgs, "'tensorflow[and-cuda]'");
		w.reinstall = false;
		w.conda_spec = "'tensorflow=*=*cuda*'";
	} else if (!strcmp(d->name, "jax")) {
		int cmaj, cmin;
		gpu_cc(s, t, &cmaj, &cmin);
		sb_addf(&pkgs, "-U \"jax[%s]\"", fw_jax_extra(dmaj, cmaj * 10 + cmin));
		w.reinstall = false;
		w.conda_spec = "'jaxlib=*=*cuda*' jax";
	} else {
		int cmaj, cmin;
		gpu_cc(s, t, &cmaj, &cmin);
		sb_addf(&pkgs, "cupy-cuda%dx", fw_cupy_cuda(dmaj, cmaj * 10 + cmin));
		w.reinstall = false;
		w.conda_spec = "cupy";
	}
	w.pkgs = pkgs.buf;
	w.pip_args = args.len ? args.buf : NULL;
	fw_install_cmd(&o, &w, &cmd);
	struct strbuf shadow = STRBUF_INIT;
	if (other && fw_shadow_cmd(&o, site, pyprobe_get(s, "pythonpath"), &shadow)) {
		/* The user's own copy is there: stop importing the distribution's. */
		res_ev(t, "shadow_fix", "%s", shadow.buf);
		sb_reset(&cmd);
		sb_add(&cmd, shadow.buf);
	}
	sb_release(&shadow);
	res_ev(t, "install_fix", "%s", cmd.buf);
	arch_fix_ev(d, &o, &w, t);
	sb_reset(&cmd);
	fw_repair_cmd(&o, &w, &cmd);
	res_ev(t, "repair_fix", "%s", cmd.buf);
	sb_reset(&cmd);
	fw_check_cmd(&o, &w, &cmd);
	res_ev(t, "check_cmd", "%s", cmd.buf);
	sb_release(&words);
	sb_release(&pkgs);
	sb_release(&args);
	sb_release(&cmd);
}

/* ---- the decisions ---- */

/* The failure when CUDA is unavailable to the framework. */
static void judge_unavailable(const struct fwdesc *d, const struct fw_run *run, bool wsl,
			      const char *cvd, const char *sigtext, size_t siglen, struct result *t)
{
	const char *lib = pyprobe_get(&run->snap, "libcuda.0");
	const char *ver = pyprobe_get(&run->snap, "version");
	if (cvd && (!*cvd || !strcmp(cvd, "-1") || !strcasecmp(cvd, "none") ||
		    !strcasecmp(cvd, "NoDevFiles"))) {
		res_ev(t, "CUDA_VISIBLE_DEVICES", "%s", cvd);
		res_set(t, ST_FAIL, KB_FRAMEWORKS_CUDA_VISIBLE_DEVICES,
			"%s %s sees no GPU: CUDA_VISIBLE_DEVICES=\"%s\" hides every device",
			d->name, ver ? ver : "", cvd);
		return;
	}
	if (lib && wsl && strncmp(lib, "/usr/lib/wsl/", 13) != 0) {
		res_set(t, ST_FAIL, KB_FRAMEWORKS_WRONG_LIBCUDA,
			"%s loaded %s, not WSL's /usr/lib/wsl/lib/libcuda.so.1", d->name, lib);
		return;
	}
	const struct kb_entry *e = explain_best(explain_db_builtin(), "frameworks.", sigtext, siglen);
	if (e) {
		char what[128];
		snprintf(what, sizeof what, "%s %s sees no GPU", d->name, ver ? ver : "");
		set_from_signature(t, e, what);
		return;
	}
	res_set(t, ST_FAIL, KB_FRAMEWORKS_NO_GPU, "%s %s sees no GPU", d->name, ver ? ver : "");
}

/* Arch coverage of every device; returns the worst verdict's status and
 * names that device in the evidence (device, cc, newest_arch). */
static enum status judge_arch(const struct fw_run *run, bool compute_ok, struct result *t)
{
	const char *list = pyprobe_get(&run->snap, "arch_list");
	if (!list || !*list)
		return ST_PASS;
	enum status worst = ST_PASS;
	int worst_dev = -1;
	struct cudaarch_verdict wv;
	int wmaj = 0, wmin = 0;
	for (int i = 0; i < 8; i++) {
		char k[32];
		snprintf(k, sizeof k, "device.%d.cc", i);
		const char *cc = pyprobe_get(&run->snap, k);
		int maj, min;
		if (!cc || cudaarch_parse_cc(cc, &maj, &min) < 0)
			continue;
		struct cudaarch_verdict v;
		cudaarch_check(list, strlen(list), maj, min, &v);
		snprintf(k, sizeof k, "device.%d.name", i);
		const char *name = pyprobe_get(&run->snap, k);
		res_ev(t, "arch_cover", "device %d (%s, sm_%d%d): %s%s%s", i, name ? name : "?", maj,
		       min, cudaarch_cover_name(v.cover), v.entry[0] ? " via " : "", v.entry);
		enum status st = ST_PASS;
		if (v.cover == CUDAARCH_NONE)
			st = compute_ok ? ST_WARN : ST_FAIL;
		else if (v.cover == CUDAARCH_PTX)
			st = ST_WARN;
		if (worst_dev < 0 || status_severity(st, false) > status_severity(worst, false)) {
			worst = st;
			worst_dev = i;
			wv = v;
			wmaj = maj;
			wmin = min;
		}
	}
	if (worst_dev >= 0 && worst != ST_PASS) {
		char k[32];
		snprintf(k, sizeof k, "device.%d.name", worst_dev);
		const char *name = pyprobe_get(&run->snap, k);
		res_ev(t, "device", "%s", name ? name : "?");
		res_ev(t, "cc", "sm_%d%d", wmaj, wmin);
		if (wv.newest[0])
			res_ev(t, "newest_arch", "%s", wv.newest);
		if (wv.cover == CUDAARCH_PTX)
			res_ev(t, "ptx_entry", "%s", wv.entry);
	}
	return worst;
}

/* What the snapshot says: versions, devices, the libcuda it mapped. */
static void snapshot_evidence(const struct fw_run *run, const char *driver_cuda, struct result *t)
{
	const struct pyprobe *s = &run->snap;
	snap_ev(t, run, "version", NULL);
	snap_ev(t, run, "cuda_build", NULL);
	snap_ev(t, run, "cudnn", NULL);
	snap_ev(t, run, "jaxlib", NULL);
	snap_ev(t, run, "cuda_plugin", NULL);
	snap_ev(t, run, "package", NULL);
	snap_ev(t, run, "backend", NULL);
	snap_ev(t, run, "arch_list", NULL);
	snap_ev(t, run, "device_count", NULL);
	snap_ev(t, run, "compute", "matmul"); /* ok, error or mismatch: the GPU matmul */
	for (int i = 0; i < 8; i++) {
		char kn[32], kc[32];
		snprintf(kn, sizeof kn, "device.%d.name", i);
		snprintf(kc, sizeof kc, "device.%d.cc", i);
		const char *nm = pyprobe_get(s, kn), *cc = pyprobe_get(s, kc);
		if (nm || cc)
			res_ev(t, "gpu", "%d: %s%s%s%s", i, nm ? nm : "?", cc ? " (compute " : "",
			       cc ? cc : "", cc ? ")" : "");
		/* The driver's view, when the framework saw no device. */
		snprintf(kn, sizeof kn, "cuda_device.%d.name", i);
		snprintf(kc, sizeof kc, "cuda_device.%d.cc", i);
		nm = pyprobe_get(s, kn);
		cc = pyprobe_get(s, kc);
		if (nm || cc)
			res_ev(t, "driver_gpu", "%d: %s%s%s%s", i, nm ? nm : "?",
			       cc ? " (compute " : "", cc ? cc : "", cc ? ")" : "");
	}
	if (driver_cuda)
		res_ev(t, "driver_cuda", "%s", driver_cuda);
	for (int i = 0; i < 4; i++) {
		char k[32];
		snprintf(k, sizeof k, "libcuda.%d", i);
		const char *v = pyprobe_get(s, k);
		if (v)
			res_ev(t, "libcuda", "%s", v);
	}
	if (!res_get(t, "libcuda"))
		res_ev(t, "libcuda", "none");
	snap_ev(t, run, "libcuda_dlopen", NULL);
	/* Placeholders of frameworks.kb that a sparse snapshot leaves out. */
	static const char *const keys[] = { "version", "cuda_build", "driver_cuda",
					    "libcuda_dlopen", "jaxlib" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!res_get(t, keys[i]))
			res_ev(t, keys[i], "%s", "unknown");
	snap_ev(t, run, "t_import", NULL);
	snap_ev(t, run, "elapsed", NULL);
}

/* It works: say on what, and what is merely risky. */
static void judge_working(const struct fwdesc *d, const struct fw_run *run, enum status arch,
			  const char *driver_cuda, struct result *t)
{
	const struct pyprobe *s = &run->snap;
	const char *ver = pyprobe_get(s, "version");
	const char *build = pyprobe_get(s, "cuda_build");
	const char *cc0 = pyprobe_get(s, "device.0.cc");
	const char *compute = pyprobe_get(s, "compute");
	const char *conv = pyprobe_get(s, "conv");
	struct strbuf detail = STRBUF_INIT;
	sb_addf(&detail, "%s %s", d->name, ver ? ver : "");
	if (build)
		sb_addf(&detail, " (CUDA %s)", build);
	const char *n0 = pyprobe_get(s, "device.0.name");
	const char *count = pyprobe_get(s, "device_count");
	if (n0)
		sb_addf(&detail, ": %s%s%s", n0, cc0 ? ", compute " : "", cc0 ? cc0 : "");
	if (count && strcmp(count, "1") != 0)
		sb_addf(&detail, " (%s GPUs)", count);
	if (compute && !strcmp(compute, "ok"))
		sb_add(&detail, ", matmul OK");
	const char *cudnn = pyprobe_get(s, "cudnn");
	if (cudnn && conv)
		sb_addf(&detail, ", cuDNN %s", cudnn);
	if (arch == ST_WARN && !res_get(t, "ptx_entry")) {
		/* The list covers nothing, yet the test kernel ran: other kernels
		 * of this build will still fail. */
		res_set(t, ST_WARN, KB_FRAMEWORKS_ARCH_MISSING, "%s; but its arch list has nothing for "
			"%s (%s)", detail.buf, res_get(t, "device"), res_get(t, "cc"));
	} else if (arch == ST_WARN) {
		res_set(t, ST_WARN, KB_FRAMEWORKS_ARCH_PTX_ONLY, "%s; but no native kernels for %s (%s)",
			detail.buf, res_get(t, "device") ? res_get(t, "device") : "the GPU",
			res_get(t, "cc") ? res_get(t, "cc") : "?");
	} else if (build && driver_cuda && major_of(build) == major_of(driver_cuda) &&
		   (minor_of(build) > minor_of(driver_cuda))) {
		/* Minor-version compatibility: runs, with limited features. */
		res_set(t, ST_PASS, KB_FRAMEWORKS_MINOR_COMPAT, "%s; built for CUDA %s, the driver "
			"supports %s: runs by minor-version compatibility", detail.buf, build,
			driver_cuda);
	} else {
		res_set(t, ST_PASS, NULL, "%s", detail.buf);
	}
	sb_release(&detail);
}

static void judge_snapshot(const struct fwdesc *d, const struct fw_run *run, bool wsl,
			   const char *cvd, struct result *t)
{
	const struct pyprobe *s = &run->snap;
	const char *ver = pyprobe_get(s, "version");
	char drvbuf[16];
	const char *driver_cuda = cuda_from_int(pyprobe_get(s, "driver_cuda"), drvbuf,
						sizeof drvbuf);
	snapshot_evidence(run, driver_cuda, t);

	struct strbuf sig = STRBUF_INIT;
	signature_text(run, &sig);
	const char *err;

	if (pyprobe_true(s, "cpu_only")) {
		res_set(t, ST_FAIL, strcmp(d->name, "torch") == 0 ? KB_FRAMEWORKS_TORCH_CPU_ONLY
				    : strcmp(d->name, "tensorflow") == 0 ? KB_FRAMEWORKS_TENSORFLOW_CPU_ONLY
				    : strcmp(d->name, "jax") == 0 ? KB_FRAMEWORKS_JAX_CPU_ONLY
				    : KB_FRAMEWORKS_NO_GPU,
			"%s %s is a CPU-only build: it cannot use the GPU", d->name, ver ? ver : "");
		goto out;
	}
	if (!pyprobe_true(s, "available")) {
		judge_unavailable(d, run, wsl, cvd, sig.buf, sig.len, t);
		goto out;
	}
	const char *compute = pyprobe_get(s, "compute");
	bool compute_ok = compute && !strcmp(compute, "ok");
	enum status arch = judge_arch(run, compute_ok, t);
	if (arch == ST_FAIL) {
		res_set(t, ST_FAIL, KB_FRAMEWORKS_ARCH_MISSING,
			"%s %s has no kernels for %s (%s): \"no kernel image is available\"", d->name,
			ver ? ver : "", res_get(t, "device"), res_get(t, "cc"));
		goto out;
	}
	if (compute && !strcmp(compute, "error")) {
		err = pyprobe_get(s, "compute_error");
		res_ev(t, "error", "%s", err ? err : "");
		const struct kb_entry *e = explain_best(explain_db_builtin(), "frameworks.",
							  err ? err : "", err ? strlen(err) : 0);
		if (e) {
			char what[128];
			snprintf(what, sizeof what, "the %s test matmul failed", d->name);
			set_from_signature(t, e, what);
		} else {
			res_set(t, ST_FAIL, KB_FRAMEWORKS_COMPUTE_FAILED,
				"%s sees the GPU but a small matmul on it failed", d->name);
		}
		goto out;
	}
	if (compute && !strcmp(compute, "mismatch")) {
		res_set(t, ST_FAIL, KB_FRAMEWORKS_COMPUTE_WRONG,
			"%s's GPU matmul gave a different result than the CPU", d->name);
		goto out;
	}
	const char *conv = pyprobe_get(s, "conv");
	if (conv && strcmp(conv, "ok") != 0) {
		err = pyprobe_get(s, "conv_error");
		res_ev(t, "error", "%s", err ? err : "");
		const struct kb_entry *e =
			explain_best(explain_db_builtin(), "frameworks.", sig.buf, sig.len);
		if (wsl && e && strcmp(e->id, KB_FRAMEWORKS_CUDNN_LIBCUDA) == 0)
			set_from_signature(t, e, "the cuDNN convolution failed");
		else
			res_set(t, ST_FAIL, KB_FRAMEWORKS_TORCH_CUDNN_FAILED,
				"torch works on the GPU but its cuDNN convolution failed");
		goto out;
	}
	judge_working(d, run, arch, driver_cuda, t);
out:
	sb_release(&sig);
}

/* No snapshot: the interpreter never ran our script as Python would. */
static void judge_no_snapshot(const struct fw_run *run, struct result *t)
{
	const struct proc_result *pr = &run->pr;
	const char *python = run->python;
	char pbuf[64];
	stderr_tail(pr, t);
	if (pr->out_truncated) {
		res_set(t, ST_WARN, KB_FRAMEWORKS_PROBE_GARBLED,
			"%s printed more than %u KiB that is not the probe's output%s",
			python, FW_OUTPUT_CAP >> 10,
			pr->end == PROC_TIMEOUT ? " (and was stopped at the time limit)"
			: pr->end == PROC_OUTPUT_OVER ? " (and was stopped there)" : "");
	} else if (pr->end == PROC_TIMEOUT) {
		res_set(t, ST_FAIL, KB_FRAMEWORKS_PROBE_HANG,
			"%s did not start the probe within %.1f s", python,
			run->limit_ms / 1000.0);
		res_ev(t, "stage", "starting Python");
	} else if (pr->end == PROC_SIGNALED) {
		res_ev(t, "signal", "%s", signal_name(pr->sig, pbuf));
		res_set(t, ST_FAIL, KB_FRAMEWORKS_PROBE_CRASH, "%s was killed by %s before the "
			"probe started", python, signal_name(pr->sig, pbuf));
		res_ev(t, "stage", "starting Python");
	} else if (pr->end == PROC_EXITED && (pr->code == 126 || pr->code == 127)) {
		/* The shell's "cannot execute" / "not found" statuses. */
		if (pr->out.len)
			res_ev_text(t, "stdout", pr->out.buf, 300);
		res_set(t, ST_WARN, KB_FRAMEWORKS_PYTHON_UNUSABLE,
			"%s %s and printed no probe result: is it Python 3?", python,
			res_get(t, "exit"));
	} else if (run->parsed == -EINVAL || pr->out.len) {
		res_ev_text(t, "stdout", pr->out.buf ? pr->out.buf : "", 300);
		res_set(t, ST_WARN, KB_FRAMEWORKS_PROBE_GARBLED,
			"%s printed output the probe cannot read", python);
	} else {
		res_set(t, ST_WARN, KB_FRAMEWORKS_PYTHON_UNUSABLE,
			"%s %s and printed no probe result: is it Python 3?", python,
			res_get(t, "exit"));
	}
}

/* Judges one interpreter's run into t. */
static void judge_run_status(const struct fwdesc *d, const struct fw_run *run, bool wsl,
			     const char *cvd, struct result *t)
{
	char sbuf[128], pbuf[64];
	const char *python = run->python;
	res_ev(t, "python", "%s", python);
	if (run->missing) {
		res_ev(t, "exit", "%s", run->missing == -ENOENT ? "does not exist"
								 : strerror(-run->missing));
		res_set(t, ST_WARN, KB_FRAMEWORKS_PYTHON_UNUSABLE, "%s (from --python) %s", python,
			res_get(t, "exit"));
		return;
	}
	res_ev(t, "limit", "%.1f s", run->limit_ms / 1000.0);
	if (run->started < 0) {
		res_set(t, ST_WARN, KB_FRAMEWORKS_PYTHON_UNUSABLE, "could not start %s: %s", python,
			strerror(-run->started));
		return;
	}
	const struct proc_result *pr = &run->pr;
	struct strbuf end = STRBUF_INIT;
	proc_describe_end(pr, &end);
	res_ev(t, "exit", "%s", end.buf);
	sb_release(&end);
	if (pr->end == PROC_EXEC_FAILED) {
		res_set(t, ST_WARN, KB_FRAMEWORKS_PYTHON_UNUSABLE, "cannot execute %s: %s", python,
			strerror(pr->code));
		return;
	}
	const char *pyver = run->parsed == 0 ? pyprobe_get(&run->snap, "python") : NULL;
	if (pyver)
		res_ev(t, "python_version", "%s", pyver);
	const char *stage = run->parsed == 0 ? pyprobe_get(&run->snap, "stage") : NULL;
	if (stage)
		res_ev(t, "stage", "%s", stage_words(stage, d, sbuf, sizeof sbuf));

	if (run->parsed != 0) {
		judge_no_snapshot(run, t);
		return;
	}
	const char *installed = pyprobe_get(&run->snap, "installed");
	if (installed && !strcmp(installed, "false")) {
		res_set(t, ST_SKIP, NULL, "%s is not installed for %s", d->name, python);
		return;
	}
	struct strbuf sig = STRBUF_INIT;
	signature_text(run, &sig);
	if (pr->end == PROC_TIMEOUT) {
		stderr_tail(pr, t);
		res_set(t, ST_FAIL, KB_FRAMEWORKS_PROBE_HANG, "%s did not finish within %.1f s: stuck at %s",
			d->name, run->limit_ms / 1000.0, stage_words(stage, d, sbuf, sizeof sbuf));
		goto out;
	}
	if (pr->end == PROC_SIGNALED || !stage || strcmp(stage, "done") != 0) {
		stderr_tail(pr, t);
		const struct kb_entry *e =
			explain_best(explain_db_builtin(), "frameworks.", sig.buf, sig.len);
		if (pr->end == PROC_SIGNALED)
			res_ev(t, "signal", "%s", signal_name(pr->sig, pbuf));
		if (e) {
			char what[160];
			snprintf(what, sizeof what, "%s died during %s", d->name,
				 stage_words(stage, d, sbuf, sizeof sbuf));
			set_from_signature(t, e, what);
		} else if (pr->end == PROC_SIGNALED) {
			res_set(t, ST_FAIL, KB_FRAMEWORKS_PROBE_CRASH, "%s crashed (%s) during %s",
				python, signal_name(pr->sig, pbuf),
				stage_words(stage, d, sbuf, sizeof sbuf));
		} else if (pr->end == PROC_OUTPUT_OVER) {
			res_set(t, ST_WARN, KB_FRAMEWORKS_PROBE_GARBLED,
				"%s printed more than %u KiB during %s and was stopped there", python,
				FW_OUTPUT_CAP >> 10, stage_words(stage, d, sbuf, sizeof sbuf));
		} else {
			res_set(t, ST_FAIL, KB_FRAMEWORKS_PROBE_CRASH, "%s exited with status %d during %s",
				python, pr->code, stage_words(stage, d, sbuf, sizeof sbuf));
		}
		goto out;
	}
	const char *ierr = pyprobe_get(&run->snap, "import_error");
	if (ierr) {
		res_ev(t, "error", "%s", ierr);
		stderr_tail(pr, t);
		const struct kb_entry *e =
			explain_best(explain_db_builtin(), "frameworks.", sig.buf, sig.len);
		if (e) {
			char what[128];
			snprintf(what, sizeof what, "import %s failed", d->name);
			set_from_signature(t, e, what);
		} else {
			res_set(t, ST_FAIL, KB_FRAMEWORKS_IMPORT_FAILED, "import %s failed in %s: %.160s",
				d->name, python, ierr);
		}
		goto out;
	}
	judge_snapshot(d, run, wsl, cvd, t);
	if (t->status != ST_PASS)
		stderr_tail(pr, t);
out:
	sb_release(&sig);
}

/* The interpreter runs here and reports this machine's paths; a root
 * prefix's own interpreter (a conda tree in an image) names files inside
 * it, which the user knows by their guest paths. */
static void guest_paths(struct pyprobe *s)
{
	static const char *const keys[] = { "module_file", "site_dir", "prefix", "base_prefix",
					    "user_site", "externally_managed", "pyvenv_cfg",
					    "conda_meta", "dist_info", "other_copy.0", "other_copy.1",
					    "other_copy.2", "other_copy.3" };
	for (size_t i = 0; i < s->n; i++)
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
			if (strcmp(s->kv[i].key, keys[k]) != 0 || s->kv[i].val[0] != '/')
				continue;
			struct strbuf g = STRBUF_INIT;
			if (rootfs_guest_path(s->kv[i].val, &g) == 0) {
				free(s->kv[i].val);
				s->kv[i].val = sb_detach(&g);
			}
			sb_release(&g);
		}
}

/* Whether the run reported a framework that is there (then it has a
 * verdict, an origin and fixes). */
static bool framework_there(const struct fw_run *run)
{
	if (run->missing || run->started < 0 || run->parsed != 0)
		return false;
	const char *installed = pyprobe_get(&run->snap, "installed");
	return !(installed && !strcmp(installed, "false"));
}

/* The verdict, then, for a framework that is there, where it came from and
 * the commands that fix it there. */
void judge_framework_run(const struct fwdesc *d, const struct fw_run *run, bool wsl,
			 const char *cvd, struct result *t)
{
	judge_run_status(d, run, wsl, cvd, t);
	if (!framework_there(run))
		return;
	char drvbuf[16], idx[96];
	const char *driver_cuda = cuda_from_int(pyprobe_get(&run->snap, "driver_cuda"), drvbuf,
						sizeof drvbuf);
	struct strbuf words = STRBUF_INIT;
	torch_index(&run->snap, driver_cuda, t, idx, sizeof idx, &words);
	if (!strcmp(d->name, "torch")) {
		res_ev(t, "wheel_index", "%s", idx);
		res_ev(t, "wheel_torch", "%s", words.buf);
	}
	sb_reset(&words);
	if (versions_newer(d->name, pyprobe_get(&run->snap, "version"), &words))
		res_ev(t, "version_known", "%s", words.buf);
	sb_release(&words);
	origin_evidence(d, run, t, idx);
}

/* ---- the collector: the probe script in one interpreter ---- */

/* Runs the probe script in ip, reads what it reported and, for a
 * framework that is there, how it was installed (owner receives the
 * Debian package's name). */
static void collect_run(struct probe_ctx *ctx, struct result *r, const struct fwdesc *d,
			const struct interp *ip, int limit, struct fw_run *run, struct strbuf *owner)
{
	memset(run, 0, sizeof *run);
	proc_result_init(&run->pr);
	run->python = ip->guest;
	run->missing = ip->missing;
	run->limit_ms = limit;
	if (!ip->missing) {
		probe_step(ctx, "%s running the %s probe (import %s)", ip->guest, d->label, d->name);
		const char *argv[] = { ip->host, "-c", pyprobe_script, d->name, NULL };
		static const char *const env[] = { "PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1",
						   NULL };
		/* past the cap its result lines could not be read: stop it there */
		struct proc_opts po = { .timeout_ms = limit, .cap = FW_OUTPUT_CAP, .env_set = env,
					.stop_at_cap = true };
		run->started = probe_run(ctx, r, argv, &po, &run->pr);
		run->parsed = pyprobe_parse(run->pr.out.buf, run->pr.out.len, &run->snap);
	}
	if (!framework_there(run))
		return;
	guest_paths(&run->snap);
	dpkg_owner(d, &run->snap, owner);
	run->dpkg_package = owner->len ? owner->buf : NULL;
	struct stat st;
	run->apt = rootfs_stat("/var/lib/dpkg/status", &st) == 0;
}

static void probe_framework(struct probe_ctx *ctx, struct result *r, const struct fwdesc *d)
{
	struct interp ips[MAX_INTERPRETERS];
	size_t n = find_interpreters(ctx, ips);
	if (n == 0) {
		res_set(r, ST_SKIP, NULL, "skipped: no python3 on PATH (and no --python given)");
		return;
	}
	bool wsl = probe_is_wsl2(ctx);
	int timeout = ctx->opts && ctx->opts->timeout_ms > 0 ? ctx->opts->timeout_ms : 10000;
	/* Leave the runner's own limit room to collect our result. */
	int budget = (timeout - 300) * 9 / 10;
	int limit = budget / (int)n;
	if (limit < 200)
		limit = 200;
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
	struct result *t = xcalloc(n, sizeof *t);
	size_t best = 0;
	for (size_t i = 0; i < n; i++) {
		result_init(&t[i], r->def);
		struct fw_run run;
		struct strbuf owner = STRBUF_INIT;
		collect_run(ctx, r, d, &ips[i], limit, &run, &owner);
		judge_framework_run(d, &run, wsl, cvd, &t[i]);
		res_ev(&t[i], "found_by", "%s", ips[i].origin);
		pyprobe_free(&run.snap);
		proc_result_release(&run.pr);
		sb_release(&owner);
		if (i && status_severity(t[i].status, false) > status_severity(t[best].status, false))
			best = i;
	}
	/* The decisive interpreter's evidence first (KB placeholders read the
	 * first value of a key), then one line per other interpreter. */
	res_set(r, t[best].status, t[best].kb, "%s", t[best].detail ? t[best].detail : "");
	res_ev(r, "framework", "%s", d->label);
	ev_copy(&r->ev, &t[best].ev);
	for (size_t i = 0; i < n; i++) {
		if (i != best)
			res_ev(r, "other_python", "%s: %s: %s", ips[i].guest, status_name(t[i].status),
			       t[i].detail ? t[i].detail : "");
		result_release(&t[i]);
		free(ips[i].guest);
		free(ips[i].host);
	}
	free(t);
}

static const struct fwdesc FW_TORCH = { "torch", "PyTorch" };
static const struct fwdesc FW_TF = { "tensorflow", "TensorFlow" };
static const struct fwdesc FW_JAX = { "jax", "JAX" };
static const struct fwdesc FW_CUPY = { "cupy", "CuPy" };

static void probe_torch(struct probe_ctx *ctx, struct result *r) { probe_framework(ctx, r, &FW_TORCH); }
static void probe_tf(struct probe_ctx *ctx, struct result *r) { probe_framework(ctx, r, &FW_TF); }
static void probe_jax(struct probe_ctx *ctx, struct result *r) { probe_framework(ctx, r, &FW_JAX); }
static void probe_cupy(struct probe_ctx *ctx, struct result *r) { probe_framework(ctx, r, &FW_CUPY); }

const struct check_def frameworks_checks[] = {
	{ "frameworks.torch", "frameworks", "PyTorch", "version, CUDA build, device arch coverage and a GPU matmul", { "platform.kind", "libs.libcuda" }, probe_torch, CHECK_COMMANDS },
	{ "frameworks.tensorflow", "frameworks", "TensorFlow", "version, CUDA build and visible GPUs", { "platform.kind", "libs.libcuda" }, probe_tf, CHECK_COMMANDS },
	{ "frameworks.jax", "frameworks", "JAX", "jaxlib CUDA build and devices", { "platform.kind", "libs.libcuda" }, probe_jax, CHECK_COMMANDS },
	{ "frameworks.cupy", "frameworks", "CuPy", "CuPy CUDA build and a GPU computation", { "platform.kind", "libs.libcuda" }, probe_cupy, CHECK_COMMANDS },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
