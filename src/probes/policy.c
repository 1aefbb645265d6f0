/*
 * policy.c: the policy layer: compares the machine with the fleet policy
 * of `wslgpu smoke --policy FILE` (src/parse/policy.h). It runs only when a
 * policy is given, after the layers it judges ("after:" dependencies), and
 * mostly reads their evidence, so a fact is established once: the driver
 * version as host.driver settled it, the kernel as platform.kind read it,
 * the paths perf.storage resolved. dpkg's status and /proc/meminfo are
 * read here through rootfs, as the other layers read them.
 *
 * Each check skips when the policy does not set its keys. When what it
 * judges is unknown because an earlier check failed, it is skipped naming
 * that check ("fix that first"): the policy is not blamed for a broken
 * layer. Details say what the policy wants and what the machine has.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/check.h"
#include "../core/rootfs.h"
#include "../parse/dpkgstatus.h"
#include "../parse/meminfo.h"
#include "../parse/policy.h"
#include "../parse/version.h"
#include "policy_judge.h"
#include "probes.h"
#include "kb_ids.h"

static const struct policy *policy_of(struct probe_ctx *ctx, struct result *r)
{
	const struct policy *p = ctx->opts ? ctx->opts->policy : NULL;
	if (!p)
		res_set(r, ST_SKIP, NULL, "skipped: no policy file (wslgpu smoke --policy FILE)");
	return p;
}

static void ev_rule(struct result *r, const struct policy *p, const char *what, const char *text,
		    int line)
{
	res_ev(r, "policy", "%s:%d: %s %s", p->path, line, what, text);
}

static void ev_rule_list(struct result *r, const struct policy *p, const char *what,
			 const struct policy_list *l)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < l->n; i++)
		sb_addf(&sb, "%s%s", i ? ", " : "", l->v[i].text);
	ev_rule(r, p, what, sb.buf, l->line);
	sb_release(&sb);
}

/*
 * Called when the fact a check judges is missing from dep's evidence.
 * Skips naming the first broken check when dep failed or was blocked, or
 * the budget when dep never started; returns false (nothing set) when dep
 * ran fine and simply did not know.
 */
static bool skip_if_blocked(struct probe_ctx *ctx, struct result *r, const char *dep,
			    const char *what)
{
	const struct result *d = probe_dep(ctx, dep);
	if (!d) {
		res_set(r, ST_SKIP, NULL, "skipped: %s is unknown because %s did not run", what, dep);
		return true;
	}
	if (d->cut == CUT_NOT_STARTED) {
		res_set(r, ST_SKIP, KB_CORE_BUDGET_SPENT, "skipped: %s is unknown: %s did not start "
			"within the run's time budget", what, dep);
		return true;
	}
	const char *root = res_get(d, "blocked_by");
	if (d->status == ST_SKIP && root) {
		res_set(r, ST_SKIP, NULL, "skipped: %s is unknown because %s failed, fix that first",
			what, root);
		res_ev(r, "blocked_by", "%s", root);
		return true;
	}
	if (status_is_failure(d->status)) {
		res_set(r, ST_SKIP, NULL, "skipped: %s is unknown because %s failed, fix that first",
			what, dep);
		res_ev(r, "blocked_by", "%s", dep);
		return true;
	}
	return false;
}

/* ---- policy.driver ---- */

static void probe_driver(struct probe_ctx *ctx, struct result *r)
{
	const struct policy *p = policy_of(ctx, r);
	if (!p)
		return;
	if (!p->driver_min.set && !p->driver_max.set) {
		res_set(r, ST_SKIP, NULL, "the policy sets no driver range ([driver] min, max)");
		return;
	}
	if (p->driver_min.set)
		ev_rule(r, p, "[driver] min", p->driver_min.text, p->driver_min.line);
	if (p->driver_max.set)
		ev_rule(r, p, "[driver] max", p->driver_max.text, p->driver_max.line);
	const char *ver = probe_dep_get(ctx, "host.driver", "driver_version");
	struct version v;
	if (!ver || version_parse(ver, &v) < 0) {
		if (skip_if_blocked(ctx, r, "host.driver", "the driver version"))
			return;
		const struct result *d = probe_dep(ctx, "host.driver");
		res_set(r, ST_WARN, KB_POLICY_DRIVER_UNKNOWN,
			"the driver version could not be read (host.driver: %s), so the policy's "
			"range cannot be checked", d && d->detail ? d->detail : "no answer");
		return;
	}
	const char *source = probe_dep_get(ctx, "host.driver", "driver_source");
	const char *who = probe_is_wsl2(ctx) ? "Windows driver" : "driver";
	res_ev(r, "driver_version", "%s", ver);
	if (source)
		res_ev(r, "driver_source", "%s%s", source,
		       !strcmp(source, "driver store") ? " (estimated from the .inf)" : "");
	res_ev(r, "policy_min", "%s", p->driver_min.set ? p->driver_min.text : "none");
	res_ev(r, "policy_max", "%s", p->driver_max.set ? p->driver_max.text : "none");
	if (p->driver_min.set && version_cmp(&v, &p->driver_min.v) < 0)
		res_set(r, ST_FAIL, KB_POLICY_DRIVER_TOO_OLD, "%s %s is below the policy minimum %s",
			who, ver, p->driver_min.text);
	else if (p->driver_max.set && version_cmp(&v, &p->driver_max.v) > 0)
		res_set(r, ST_FAIL, KB_POLICY_DRIVER_TOO_NEW, "%s %s is above the policy maximum %s",
			who, ver, p->driver_max.text);
	else if (p->driver_min.set && p->driver_max.set)
		res_set(r, ST_PASS, NULL, "%s %s is within the policy range %s to %s", who, ver,
			p->driver_min.text, p->driver_max.text);
	else if (p->driver_min.set)
		res_set(r, ST_PASS, NULL, "%s %s meets the policy minimum %s", who, ver,
			p->driver_min.text);
	else
		res_set(r, ST_PASS, NULL, "%s %s is within the policy maximum %s", who, ver,
			p->driver_max.text);
}

/* ---- policy.wsl ---- */

static void probe_wsl(struct probe_ctx *ctx, struct result *r)
{
	const struct policy *p = policy_of(ctx, r);
	if (!p)
		return;
	if (!p->min_kernel.set && !p->min_wsl.set) {
		res_set(r, ST_SKIP, NULL, "the policy sets no WSL minimums ([wsl] min_kernel, "
			"min_version)");
		return;
	}
	struct findings w = FINDINGS_INIT;
	if (p->min_kernel.set) {
		ev_rule(r, p, "[wsl] min_kernel", p->min_kernel.text, p->min_kernel.line);
		const char *k = probe_dep_get(ctx, "platform.kind", "kernel");
		struct version v;
		if (!k || version_parse(k, &v) < 0) {
			if (skip_if_blocked(ctx, r, "platform.kind", "the kernel release")) {
				findings_release(&w);
				return;
			}
			findings_add(&w, ST_WARN, KB_POLICY_WSL_UNKNOWN,
				     "the kernel release could not be read, so [wsl] min_kernel %s "
				     "cannot be checked", p->min_kernel.text);
		} else {
			res_ev(r, "kernel", "%s", k);
			if (version_cmp(&v, &p->min_kernel.v) < 0)
				findings_add(&w, ST_FAIL, KB_POLICY_WSL_KERNEL_TOO_OLD,
					     "kernel %s is older than the policy minimum %s", k,
					     p->min_kernel.text);
			else
				findings_add(&w, ST_PASS, NULL, "kernel %s (minimum %s)", k,
					     p->min_kernel.text);
		}
	}
	if (p->min_wsl.set) {
		ev_rule(r, p, "[wsl] min_version", p->min_wsl.text, p->min_wsl.line);
		const char *wv = probe_dep_get(ctx, "host.driver", "wsl_version");
		struct version v;
		if (!probe_is_wsl2(ctx)) {
			findings_add(&w, ST_PASS, NULL, "not WSL 2: [wsl] min_version does not "
				     "apply");
		} else if (!wv || version_parse(wv, &v) < 0) {
			res_ev(r, "wsl_version", "%s", wv ? wv : "unknown");
			findings_add(&w, ST_WARN, KB_POLICY_WSL_UNKNOWN,
				     "the WSL version could not be read (%s), so [wsl] min_version "
				     "%s cannot be checked", wv ? wv : "host.driver asked no wsl.exe",
				     p->min_wsl.text);
		} else {
			res_ev(r, "wsl_version", "%s", wv);
			if (version_cmp(&v, &p->min_wsl.v) < 0)
				findings_add(&w, ST_FAIL, KB_POLICY_WSL_TOO_OLD,
					     "WSL %s is older than the policy minimum %s", wv,
					     p->min_wsl.text);
			else
				findings_add(&w, ST_PASS, NULL, "WSL %s (minimum %s)", wv,
					     p->min_wsl.text);
		}
	}
	findings_settle(r, &w);
}

/* ---- policy.distro ---- */

static void probe_distro(struct probe_ctx *ctx, struct result *r)
{
	const struct policy *p = policy_of(ctx, r);
	if (!p)
		return;
	if (!p->distros.n) {
		res_set(r, ST_SKIP, NULL, "the policy allows any distribution ([distro] allowed)");
		return;
	}
	struct strbuf list = STRBUF_INIT;
	for (size_t i = 0; i < p->distros.n; i++)
		sb_addf(&list, "%s%s", i ? ", " : "", p->distros.v[i].text);
	ev_rule(r, p, "[distro] allowed =", list.buf, p->distros.line);
	const char *id = probe_dep_get(ctx, "platform.distro", "ID");
	const char *ver = probe_dep_get(ctx, "platform.distro", "VERSION_ID");
	const char *pretty = probe_dep_get(ctx, "platform.distro", "PRETTY_NAME");
	if (!id || !*id) {
		if (!skip_if_blocked(ctx, r, "platform.distro", "the distribution"))
			res_set(r, ST_FAIL, KB_POLICY_DISTRO_UNKNOWN,
				"os-release names no distribution ID, and the policy allows only %s",
				list.buf);
		sb_release(&list);
		return;
	}
	res_ev(r, "ID", "%s", id);
	res_ev(r, "VERSION_ID", "%s", ver ? ver : "none");
	res_ev(r, "allowed", "%s", list.buf);
	const char *hit = NULL;
	for (size_t i = 0; i < p->distros.n && !hit; i++) {
		const char *e = p->distros.v[i].text, *colon = strchr(e, ':');
		size_t idlen = colon ? (size_t)(colon - e) : strlen(e);
		if (strlen(id) != idlen || strncasecmp(id, e, idlen))
			continue;
		if (!colon || (ver && policy_glob_match(colon + 1, ver)))
			hit = e;
	}
	const char *name = pretty && *pretty ? pretty : id;
	if (hit)
		res_set(r, ST_PASS, NULL, "%s (%s:%s) is allowed by the policy (%s)", name, id,
			ver ? ver : "", hit);
	else
		res_set(r, ST_FAIL, KB_POLICY_DISTRO_NOT_ALLOWED,
			"%s (%s:%s) is not an allowed distribution: the policy allows %s", name, id,
			ver ? ver : "", list.buf);
	sb_release(&list);
}

/* ---- policy.packages ---- */

struct pkg_scan {
	const struct policy *p;
	bool *found;           /* per required pattern */
	struct strbuf hits;    /* "name (pattern)" of forbidden packages */
	struct strbuf names;   /* their names, for the fix */
	struct result *r;
	size_t nforbidden;
};

static int on_pkg(const struct dpkg_pkg *pkg, void *arg)
{
	struct pkg_scan *s = arg;
	if (!dpkgstatus_present(pkg) || !pkg->name.n || pkg->name.n > 200)
		return 0;
	char name[256];
	memcpy(name, pkg->name.p, pkg->name.n);
	name[pkg->name.n] = '\0';
	for (size_t i = 0; i < s->p->pkg_required.n; i++)
		if (policy_glob_match(s->p->pkg_required.v[i].text, name))
			s->found[i] = true;
	for (size_t i = 0; i < s->p->pkg_forbidden.n; i++)
		if (policy_glob_match(s->p->pkg_forbidden.v[i].text, name)) {
			if (s->nforbidden++ < 20) {
				res_ev(s->r, "forbidden_installed", "%s %.*s (matches %s, policy line %d)",
				       name, (int)(pkg->version.n < 100 ? pkg->version.n : 100),
				       pkg->version.p ? pkg->version.p : "", s->p->pkg_forbidden.v[i].text,
				       s->p->pkg_forbidden.v[i].line);
				sb_addf(&s->names, "%s%s", s->names.len ? " " : "", name);
				sb_addf(&s->hits, "%s%s", s->hits.len ? ", " : "", name);
			}
			break;
		}
	return 0;
}

static void probe_packages(struct probe_ctx *ctx, struct result *r)
{
	const struct policy *p = policy_of(ctx, r);
	if (!p)
		return;
	if (!p->pkg_required.n && !p->pkg_forbidden.n) {
		res_set(r, ST_SKIP, NULL, "the policy names no packages ([packages] required, "
			"forbidden)");
		return;
	}
	if (p->pkg_required.n)
		ev_rule_list(r, p, "[packages] required =", &p->pkg_required);
	if (p->pkg_forbidden.n)
		ev_rule_list(r, p, "[packages] forbidden =", &p->pkg_forbidden);
	struct strbuf missing = STRBUF_INIT;
	probe_step(ctx, "reading /var/lib/dpkg/status");
	struct pkg_scan s = { p, xcalloc(p->pkg_required.n + 1, sizeof(bool)), STRBUF_INIT,
			      STRBUF_INIT, r, 0 };
	/* Read once per process, whole (src/parse/dpkgstatus.h). */
	const struct dpkgstatus_info *si;
	int rc = dpkgstatus_read_each(on_pkg, &s, &si);
	if (rc < 0) {
		res_ev(r, "dpkg_status", "/var/lib/dpkg/status: %s", strerror(-rc));
		if (p->pkg_required.n)
			res_set(r, ST_FAIL, KB_POLICY_PACKAGES_NO_DPKG,
				"no dpkg database (/var/lib/dpkg/status: %s), and the policy requires "
				"packages", strerror(-rc));
		else
			res_set(r, ST_PASS, NULL, "no dpkg database: no forbidden package is "
				"installed through dpkg");
		goto out;
	}
	res_ev(r, "dpkg_status", "/var/lib/dpkg/status (%zu packages)", si->packages);
	size_t nmissing = 0;
	for (size_t i = 0; i < p->pkg_required.n; i++)
		if (!s.found[i]) {
			sb_addf(&missing, "%s%s", missing.len ? " " : "", p->pkg_required.v[i].text);
			res_ev(r, "missing", "%s (policy line %d)", p->pkg_required.v[i].text,
			       p->pkg_required.v[i].line);
			nmissing++;
		}
	struct findings w = FINDINGS_INIT;
	if (s.nforbidden) {
		res_ev(r, "forbidden_names", "%s", s.names.buf);
		findings_add(&w, ST_FAIL, KB_POLICY_PACKAGES_FORBIDDEN,
			     "%zu package%s the policy forbids %s installed: %s%s", s.nforbidden,
			     s.nforbidden == 1 ? "" : "s", s.nforbidden == 1 ? "is" : "are", s.hits.buf,
			     s.nforbidden > 20 ? ", ..." : "");
	}
	if (nmissing) {
		res_ev(r, "missing_names", "%s", missing.buf);
		findings_add(&w, ST_FAIL, KB_POLICY_PACKAGES_MISSING,
			     "%zu package%s the policy requires %s not installed: %s", nmissing,
			     nmissing == 1 ? "" : "s", nmissing == 1 ? "is" : "are", missing.buf);
	}
	if (!w.n)
		findings_add(&w, ST_PASS, NULL, "%zu required package%s installed, none of %zu "
			     "forbidden pattern%s", p->pkg_required.n, p->pkg_required.n == 1 ? "" : "s",
			     p->pkg_forbidden.n, p->pkg_forbidden.n == 1 ? "" : "s");
	findings_settle(r, &w);
out:
	free(s.found);
	sb_release(&s.hits);
	sb_release(&s.names);
	sb_release(&missing);
}

/* ---- policy.frameworks ---- */

struct fw_rule {
	const char *name;  /* "torch" */
	const char *check; /* "frameworks.torch" */
	const struct policy_item *pin, *cuda_pin;
};

static void judge_framework(struct probe_ctx *ctx, struct result *r, struct findings *w,
			    const struct policy *p, const struct fw_rule *f, bool *blocked)
{
	const struct result *d = probe_dep(ctx, f->check);
	const char *ver = d ? res_get(d, "version") : NULL;
	if (ver && !strcmp(ver, "unknown"))
		ver = NULL;
	if (!d || (d->status == ST_SKIP && !res_get(d, "blocked_by") &&
		   d->cut != CUT_NOT_STARTED)) {
		/* Not installed, or no Python at all. */
		res_ev(r, "missing", "%s", f->name);
		findings_add(w, ST_FAIL, KB_POLICY_FRAMEWORKS_MISSING,
			     "the policy pins %s %s, but %s", f->name,
			     f->pin && f->pin->text ? f->pin->text : "(matmul = yes)",
			     d && d->detail ? d->detail : "the frameworks layer did not run");
		return;
	}
	if (!ver) {
		struct result tmp;
		result_init(&tmp, r->def);
		char what[64];
		snprintf(what, sizeof what, "%s's version", f->name);
		if (skip_if_blocked(ctx, &tmp, f->check, what)) {
			findings_add(w, ST_SKIP,
				     tmp.kb && !strcmp(tmp.kb, KB_CORE_BUDGET_SPENT) ? KB_CORE_BUDGET_SPENT
										   : NULL,
				     "%s", tmp.detail);
			const char *b = res_get(&tmp, "blocked_by");
			if (b)
				res_ev(r, "blocked_by", "%s", b);
			*blocked = true;
		} else {
			findings_add(w, ST_WARN, KB_POLICY_FRAMEWORKS_UNKNOWN,
				     "%s's version could not be read (%s: %s)", f->name, f->check,
				     d->detail ? d->detail : "");
		}
		result_release(&tmp);
		return;
	}
	res_ev(r, f->name, "%s", ver);
	if (f->pin && f->pin->text) {
		if (!policy_pin_match(f->pin->text, ver)) {
			findings_add(w, ST_FAIL, KB_POLICY_FRAMEWORKS_VERSION,
				     "%s %s does not match the policy pin %s (line %d)", f->name, ver,
				     f->pin->text, f->pin->line);
			res_ev(r, "pin", "%s==%s", f->name, f->pin->text);
		} else {
			findings_add(w, ST_PASS, NULL, "%s %s matches %s", f->name, ver, f->pin->text);
		}
	}
	if (f->cuda_pin && f->cuda_pin->text) {
		const char *cb = res_get(d, "cuda_build");
		if (!cb || !strcmp(cb, "unknown") || !strcmp(cb, "None") || !*cb)
			cb = "none (a CPU-only build)";
		if (!policy_pin_match(f->cuda_pin->text, cb))
			findings_add(w, ST_FAIL, KB_POLICY_FRAMEWORKS_CUDA,
				     "%s %s is built for CUDA %s; the policy pins CUDA %s (line %d)",
				     f->name, ver, cb, f->cuda_pin->text, f->cuda_pin->line);
		else
			findings_add(w, ST_PASS, NULL, "%s built for CUDA %s", f->name, cb);
	}
	if (p->fw_matmul == 1) {
		/* The framework probe records how its GPU matmul compared with the
		 * CPU as evidence "matmul" (ok, error, mismatch). */
		const char *mm = res_get(d, "matmul");
		bool ok = (d->status == ST_PASS || d->status == ST_WARN) && mm && !strcmp(mm, "ok");
		if (ok)
			findings_add(w, ST_PASS, NULL, "%s GPU matmul OK", f->name);
		else if (status_is_failure(d->status)) {
			findings_add(w, ST_SKIP, NULL, "skipped: %s's GPU matmul is unproven because "
				     "%s failed, fix that first", f->name, f->check);
			res_ev(r, "blocked_by", "%s", f->check);
			*blocked = true;
		} else
			findings_add(w, ST_FAIL, KB_POLICY_FRAMEWORKS_MATMUL,
				     "the policy wants a GPU matmul from %s, but %s says: %s", f->name,
				     f->check, d->detail ? d->detail : "");
	}
}

static void probe_frameworks(struct probe_ctx *ctx, struct result *r)
{
	const struct policy *p = policy_of(ctx, r);
	if (!p)
		return;
	struct fw_rule rules[] = {
		{ "torch", "frameworks.torch", &p->fw_torch, &p->fw_torch_cuda },
		{ "tensorflow", "frameworks.tensorflow", &p->fw_tensorflow, NULL },
		{ "jax", "frameworks.jax", &p->fw_jax, NULL },
		{ "cupy", "frameworks.cupy", &p->fw_cupy, NULL },
	};
	bool any = false;
	for (size_t i = 0; i < 4; i++)
		if (rules[i].pin->text || (rules[i].cuda_pin && rules[i].cuda_pin->text))
			any = true;
	if (!any && p->fw_matmul != 1) {
		res_set(r, ST_SKIP, NULL, "the policy pins no framework ([frameworks])");
		return;
	}
	res_ev(r, "policy", "%s:%d: [frameworks]", p->path, p->fw_line);
	struct findings w = FINDINGS_INIT;
	bool blocked = false;
	for (size_t i = 0; i < 4; i++) {
		bool pinned = rules[i].pin->text || (rules[i].cuda_pin && rules[i].cuda_pin->text);
		/* matmul = yes with no pin means torch. */
		if (pinned || (!any && i == 0))
			judge_framework(ctx, r, &w, p, &rules[i], &blocked);
	}
	findings_settle(r, &w);
	/* A framework whose own check failed cannot be judged: the policy
	 * check is skipped, not passed, and that failure is what to fix. */
	if (blocked && r->status == ST_PASS)
		r->status = ST_SKIP;
}

/* ---- policy.memory ---- */

static void gib(unsigned long long b, char *out, size_t n)
{
	snprintf(out, n, "%.1f GiB", (double)b / (1024.0 * 1024 * 1024));
}

void judge_policy_memory(const struct policy *p, int meminfo_rc, const struct meminfo *mi,
			 struct result *r)
{
	if (meminfo_rc < 0) {
		res_ev(r, "file", "/proc/meminfo");
		res_set(r, ST_WARN, KB_POLICY_MEMORY_UNREADABLE,
			"/proc/meminfo cannot be read (%s), so the policy's memory minimum cannot be "
			"checked", meminfo_rc == -ENODATA ? "no MemTotal line"
							   : rootfs_strerror(meminfo_rc));
		return;
	}
	char have[32], want[32];
	struct findings w = FINDINGS_INIT;
	gib(mi->mem_total, have, sizeof have);
	res_ev(r, "mem_total", "%s", have);
	if (mi->have & MI_MEM_AVAILABLE) {
		gib(mi->mem_available, have, sizeof have);
		res_ev(r, "mem_available", "%s", have);
	}
	if (p->mem_min_total.set) {
		ev_rule(r, p, "[memory] min_total", p->mem_min_total.text, p->mem_min_total.line);
		gib(mi->mem_total, have, sizeof have);
		gib(p->mem_min_total.bytes, want, sizeof want);
		if (mi->mem_total < p->mem_min_total.bytes)
			findings_add(&w, ST_FAIL, KB_POLICY_MEMORY_LOW,
				     "%s of memory in all, less than the policy minimum %s (%s)", have,
				     p->mem_min_total.text, want);
		else
			findings_add(&w, ST_PASS, NULL, "%s of memory (minimum %s)", have,
				     p->mem_min_total.text);
	}
	if (p->mem_min_available.set) {
		ev_rule(r, p, "[memory] min_available", p->mem_min_available.text,
			p->mem_min_available.line);
		if (!(mi->have & MI_MEM_AVAILABLE)) {
			findings_add(&w, ST_WARN, KB_POLICY_MEMORY_UNREADABLE,
				     "/proc/meminfo has no MemAvailable line, so [memory] "
				     "min_available cannot be checked");
		} else {
			gib(mi->mem_available, have, sizeof have);
			gib(p->mem_min_available.bytes, want, sizeof want);
			if (mi->mem_available < p->mem_min_available.bytes)
				findings_add(&w, ST_FAIL, KB_POLICY_MEMORY_LOW,
					     "%s of memory available, less than the policy minimum %s "
					     "(%s)", have, p->mem_min_available.text, want);
			else
				findings_add(&w, ST_PASS, NULL, "%s available (minimum %s)", have,
					     p->mem_min_available.text);
		}
	}
	res_ev(r, "policy_minimum", "%s", p->mem_min_available.set ? p->mem_min_available.text
								 : p->mem_min_total.text);
	findings_settle(r, &w);
}

static void probe_memory(struct probe_ctx *ctx, struct result *r)
{
	const struct policy *p = policy_of(ctx, r);
	if (!p)
		return;
	if (!p->mem_min_available.set && !p->mem_min_total.set) {
		res_set(r, ST_SKIP, NULL, "the policy sets no memory minimum ([memory])");
		return;
	}
	struct meminfo mi;
	probe_step(ctx, "reading /proc/meminfo");
	int rc = meminfo_read("/proc/meminfo", &mi);
	judge_policy_memory(p, rc, &mi, r);
}

/* ---- policy.data ---- */

static void probe_data(struct probe_ctx *ctx, struct result *r)
{
	const struct policy *p = policy_of(ctx, r);
	if (!p)
		return;
	if (!p->data_forbidden.n) {
		res_set(r, ST_SKIP, NULL, "the policy forbids no data location ([data] forbidden)");
		return;
	}
	ev_rule_list(r, p, "[data] forbidden =", &p->data_forbidden);
	const struct result *d = probe_dep(ctx, "perf.storage");
	if (!d || !res_get(d, "path")) {
		if (!skip_if_blocked(ctx, r, "perf.storage", "where the data lives"))
			res_set(r, ST_WARN, KB_POLICY_DATA_UNKNOWN,
				"perf.storage resolved no path (%s), so [data] forbidden cannot be "
				"checked", d && d->detail ? d->detail : "it did not run");
		return;
	}
	size_t bad = 0, n = 0;
	for (size_t i = 0;; i++) {
		const char *path = res_get_nth(d, "path", i);
		if (!path)
			break;
		n++;
		const char *role = res_get_nth(d, "role", i);
		const char *resolved = res_get_nth(d, "resolved", i);
		if (resolved && resolved[0] != '/')
			resolved = NULL; /* "(a symlink loop)" */
		for (size_t k = 0; k < p->data_forbidden.n; k++) {
			const char *g = p->data_forbidden.v[k].text;
			bool hit = policy_path_forbidden(g, path) ||
				   (resolved && policy_path_forbidden(g, resolved));
			if (!hit)
				continue;
			if (!bad++) {
				res_ev(r, "forbidden_path", "%s", path);
				if (resolved && strcmp(resolved, path))
					res_set(r, ST_FAIL, KB_POLICY_DATA_FORBIDDEN,
						"%s %s (really %s) is in a location the policy forbids: %s "
						"(line %d)", role ? role : "path", path, resolved, g,
						p->data_forbidden.v[k].line);
				else
					res_set(r, ST_FAIL, KB_POLICY_DATA_FORBIDDEN,
						"%s %s is in a location the policy forbids: %s (line %d)",
						role ? role : "path", path, g, p->data_forbidden.v[k].line);
			}
			res_ev(r, "forbidden", "%s%s%s matches %s (line %d)", path,
			       resolved && strcmp(resolved, path) ? " -> " : "",
			       resolved && strcmp(resolved, path) ? resolved : "", g,
			       p->data_forbidden.v[k].line);
			break;
		}
	}
	if (!bad && n == 1)
		res_set(r, ST_PASS, NULL, "%s is not in a forbidden location", res_get(d, "path"));
	else if (!bad)
		res_set(r, ST_PASS, NULL, "none of the %zu checked paths is in a forbidden location",
			n);
}

const struct check_def policy_checks[] = {
	{ "policy.driver", "policy", "Driver version against the policy",
	  "the driver version host.driver settled, within [driver] min and max",
	  { "after:host.driver" }, probe_driver, CHECK_FILES },
	{ "policy.wsl", "policy", "Kernel and WSL version against the policy",
	  "the kernel release against [wsl] min_kernel; the WSL version (wsl.exe --version) "
	  "against min_version",
	  { "after:platform.kind", "after:host.driver" }, probe_wsl, CHECK_FILES },
	{ "policy.distro", "policy", "Distribution against the policy",
	  "os-release ID and VERSION_ID among [distro] allowed", { "after:platform.distro" },
	  probe_distro, CHECK_FILES },
	{ "policy.packages", "policy", "Packages against the policy",
	  "dpkg's installed packages: every [packages] required glob present, no forbidden one",
	  { "platform.kind" }, probe_packages, CHECK_FILES },
	{ "policy.frameworks", "policy", "Framework versions against the policy",
	  "framework versions and CUDA builds against [frameworks] pins; a verified GPU matmul "
	  "when matmul = yes",
	  { "after:frameworks.torch", "after:frameworks.tensorflow", "after:frameworks.jax",
	    "after:frameworks.cupy" },
	  probe_frameworks, CHECK_FILES },
	{ "policy.memory", "policy", "Memory against the policy",
	  "MemTotal and MemAvailable against [memory] min_total and min_available",
	  { "platform.kind" }, probe_memory, CHECK_FILES },
	{ "policy.data", "policy", "Data locations against the policy",
	  "the current directory and each --data path (symlinks followed) outside every [data] "
	  "forbidden location",
	  { "after:perf.storage" }, probe_data, CHECK_FILES },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
