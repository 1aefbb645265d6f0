/*
 * perf.c: what makes GPU work slow without breaking it — too little memory,
 * swapping, a .wslconfig that is not applied, and data on a Windows drive.
 *
 * perf.memory reads /proc/meminfo and /proc/vmstat, and on WSL every
 * %UserProfile%\.wslconfig it can see (src/facts/wslhost.h). WSL2's memory
 * is capped by .wslconfig memory= (default half the PC's RAM) and it has a
 * swap file (swap=, default a quarter of that); swapping during training
 * shows as low GPU utilisation (FACTS.md). A .wslconfig applies only after
 * `wsl --shutdown`, and WSL silently keeps its defaults for a value it
 * cannot read (wslconfig.h), so the configured limits are compared with
 * what Linux sees.
 *
 * Thresholds, and why:
 *  - small memory: MemTotal under 3.5 GiB (a 4 GB VM shows about 3.8 GiB).
 *    A PyTorch process that has done one CUDA operation holds about 1–2 GB
 *    of host memory before any data is loaded (pytorch/pytorch#12873: 1.9 GB
 *    RSS after one tiny convolution), so under 4 GB a training job with a
 *    DataLoader has little room before it swaps or is killed.
 *  - swap: 256 MiB or more in use (a few MiB are normal housekeeping), or,
 *    on the real machine with swap in use, pages moving in or out during
 *    a half-second sample (none is taken without swap in use).
 *  - not applied: configured and seen differ by more than 10 % (the kernel
 *    keeps a few per cent of the VM's memory for itself).
 *
 * perf.storage finds the mount that holds the current directory and each
 * --data path (symlinks followed: ~/.ollama -> /mnt/c/... is common, field
 * case P01) in /proc/self/mountinfo. Windows drives are reached over 9p and
 * are many times slower than the distribution's ext4 disk (research §8).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "../core/rootfs.h"
#include "../facts/wslhost.h"
#include "../parse/meminfo.h"
#include "../parse/mountinfo.h"
#include "../parse/wslconfig.h"
#include "perf_judge.h"
#include "probes.h"
#include "kb_ids.h"

#define GIB (1024.0 * 1024 * 1024)
#define MIB (1024.0 * 1024)
#define SMALL_MEMORY (3.5 * GIB)
#define SWAP_IN_USE (256ULL << 20)
#define MISMATCH 0.10

static void fmt_bytes(unsigned long long b, char *buf, size_t n)
{
	if ((double)b >= GIB)
		snprintf(buf, n, "%.1f GiB", (double)b / GIB);
	else
		snprintf(buf, n, "%.0f MiB", (double)b / MIB);
}

/* ---- perf.memory ---- */

/* Every perf.memory finding is a warning; prio orders them (lower is more
 * important) and label names the others in the detail ("; also swap in
 * use"). Takes ownership of detail. */
static void add_finding(struct findings *f, int prio, const char *kb, const char *label,
			char *detail)
{
	findings_add_prio(f, ST_WARN, prio, kb, label, "%s", detail);
	free(detail);
}

/* Online CPUs from /sys/devices/system/cpu/online ("0-7,9"), 0 if unknown. */
static unsigned online_cpus(void)
{
	struct strbuf t = STRBUF_INIT;
	unsigned n = 0;
	if (rootfs_read("/sys/devices/system/cpu/online", 4096, &t, NULL) == 0) {
		const char *p = t.buf;
		while (*p >= '0' && *p <= '9') {
			char *end;
			unsigned long a = strtoul(p, &end, 10), b = a;
			if (*end == '-')
				b = strtoul(end + 1, &end, 10);
			if (b < a || b - a > 65535) {
				n = 0;
				break;
			}
			n += (unsigned)(b - a + 1);
			if (*end != ',')
				break;
			p = end + 1;
		}
	}
	sb_release(&t);
	return n;
}

static bool differs(unsigned long long want, unsigned long long seen)
{
	double w = (double)want, s = (double)seen;
	if (want == 0)
		return seen != 0;
	return s < w * (1 - MISMATCH) || s > w * (1 + MISMATCH);
}

static void load_configs(struct config_file **out, size_t *n)
{
	char **paths = wslhost_wslconfigs(n);
	struct config_file *v = *n ? xcalloc(*n, sizeof *v) : NULL;
	struct strbuf t = STRBUF_INIT, w = STRBUF_INIT;
	for (size_t i = 0; i < *n; i++) {
		v[i].guest = paths[i];
		wslhost_windows_path(paths[i], &w);
		v[i].windows = xstrdup(w.buf);
		v[i].read_error = rootfs_read(paths[i], 1 << 20, &t, &v[i].truncated);
		wslconfig_check(v[i].read_error == 0 ? t.buf : NULL, v[i].read_error == 0 ? t.len : 0,
				&v[i].wc);
	}
	free(paths);
	sb_release(&t);
	sb_release(&w);
	*out = v;
}

static void free_configs(struct config_file *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].guest);
		free(v[i].windows);
		wslconfig_free(&v[i].wc);
	}
	free(v);
}

/* "memory=16GB (line 2), swap=4GB (line 3); UTF-16LE with BOM, CRLF". */
static void describe_config(const struct config_file *c, struct strbuf *out)
{
	const struct wslconfig *wc = &c->wc;
	sb_reset(out);
	sb_addf(out, "%s: ", c->windows);
	if (c->read_error) {
		sb_addf(out, "unreadable (%s)", strerror(-c->read_error));
		return;
	}
	const struct {
		const char *name;
		const struct wslconfig_setting *s;
	} keys[] = { { "memory", &wc->memory }, { "swap", &wc->swap }, { "processors", &wc->processors } };
	bool any = false;
	for (size_t i = 0; i < 3; i++) {
		if (!keys[i].s->text)
			continue;
		sb_addf(out, "%s%s=%s (line %d%s)", any ? ", " : "", keys[i].name, keys[i].s->text,
			keys[i].s->line, keys[i].s->set ? "" : ", invalid");
		any = true;
	}
	if (!any)
		sb_add(out, "no memory, swap or processors setting");
	if (wc->utf16)
		sb_addf(out, "; UTF-16%s %s", wc->utf16_be ? "BE" : "LE",
			wc->utf16_bom ? "with a byte-order mark" : "without a byte-order mark");
	if (wc->utf8_bom)
		sb_add(out, "; UTF-8 with a byte-order mark");
	if (wc->crlf)
		sb_add(out, "; CRLF line ends");
	if (c->truncated)
		sb_add(out, "; longer than 1 MiB, only the start was read");
}

/* ---- perf.memory's judge: facts in, result out, no I/O ---- */

bool memory_swap_sample_useful(const struct meminfo *mi)
{
	return (mi->have & MI_SWAP_TOTAL) && mi->swap_total && meminfo_swap_used(mi) > 0;
}

/* What the .wslconfig files ask for, and what is wrong with them. */
struct config_verdict {
	bool any_memory, memory_applied;
	const struct config_file *memory_file;   /* memory= not what Linux sees */
	const struct config_file *encoding_file; /* WSL may read none of it */
	const struct config_file *invalid_file;  /* a mistake WSL skips */
};

static void config_evidence(const struct memory_facts *f, struct result *r,
			    struct config_verdict *cv)
{
	struct strbuf line = STRBUF_INIT;
	memset(cv, 0, sizeof *cv);
	for (size_t i = 0; i < f->ncfg; i++) {
		const struct config_file *c = &f->cfg[i];
		describe_config(c, &line);
		res_ev(r, "wslconfig", "%s", line.buf);
		if (c->read_error) {
			res_ev(r, "problem", "%s: cannot be read: %s", c->windows,
			       strerror(-c->read_error));
			if (!cv->invalid_file)
				cv->invalid_file = c;
			continue;
		}
		for (size_t k = 0; k < c->wc.nissues; k++) {
			const struct wslconfig_issue *is = &c->wc.issues[k];
			if (is->kind == WC_UTF16 || is->kind == WC_BINARY) {
				if (!cv->encoding_file)
					cv->encoding_file = c;
				continue;
			}
			if (is->line)
				res_ev(r, "problem", "%s:%d: %s", c->windows, is->line, is->msg);
			else
				res_ev(r, "problem", "%s: %s", c->windows, is->msg);
			if (!cv->invalid_file)
				cv->invalid_file = c;
		}
		if (c->wc.more_issues)
			res_ev(r, "problem", "%s: %zu more problems not listed", c->windows,
			       c->wc.more_issues);
		if (c->wc.memory.set) {
			cv->any_memory = true;
			if (!differs(c->wc.memory.val, f->mi.mem_total))
				cv->memory_applied = true;
			else if (!cv->memory_file)
				cv->memory_file = c;
		}
	}
	sb_release(&line);
}

/* Encoding: WSL may read none of the file. */
static void judge_encoding(const struct memory_facts *f, const struct config_file *c,
			   struct result *r, struct findings *fs)
{
	const struct wslconfig *wc = &c->wc;
	char total[32];
	fmt_bytes(f->mi.mem_total, total, sizeof total);
	struct strbuf d = STRBUF_INIT;
	if (wc->binary)
		sb_addf(&d, "%s is not a text file (it holds NUL bytes): WSL cannot read it",
			c->windows);
	else
		sb_addf(&d, "%s is saved as UTF-16%s %s: WSL may ignore it", c->windows,
			wc->utf16_be ? "BE" : "LE",
			wc->utf16_bom ? "with a byte-order mark" : "without a byte-order mark");
	if (wc->memory.set) {
		bool ignored = differs(wc->memory.val, f->mi.mem_total);
		sb_addf(&d, " (it asks for memory=%s; Linux sees %s%s)", wc->memory.text, total,
			ignored ? ": it was ignored" : ": this WSL read it");
		res_ev(r, "applied", "%s", ignored
			? "no: the memory Linux sees is not what the file asks for"
			: "yes: the memory Linux sees matches the file");
	}
	res_ev(r, "encoding_file", "%s", c->guest);
	add_finding(fs, 0, KB_PERF_MEMORY_WSLCONFIG_ENCODING, "the .wslconfig encoding",
		    sb_detach(&d));
}

/* A mistake in a file: the first problem the evidence names. */
static void judge_invalid(const struct config_file *c, struct result *r, struct findings *fs)
{
	const char *first = NULL;
	size_t count = 0;
	for (size_t i = 0; i < r->ev.n; i++)
		if (!strcmp(r->ev.v[i].key, "problem")) {
			if (!first)
				first = r->ev.v[i].val;
			count++;
		}
	struct strbuf d = STRBUF_INIT;
	sb_add(&d, first ? first : c->windows);
	if (count > 1)
		sb_addf(&d, " (and %zu more)", count - 1);
	add_finding(fs, 1, KB_PERF_MEMORY_WSLCONFIG_INVALID, "a .wslconfig mistake", sb_detach(&d));
}

/* Configured but not what Linux sees: not applied (or clamped). */
static void judge_not_applied(const struct memory_facts *f, const struct config_verdict *cv,
			      struct result *r, struct findings *fs)
{
	char b[32];
	if (cv->any_memory && !cv->memory_applied && cv->memory_file &&
	    cv->memory_file != cv->encoding_file) {
		const struct config_file *m = cv->memory_file;
		fmt_bytes(f->mi.mem_total, b, sizeof b);
		add_finding(fs, 2, KB_PERF_MEMORY_WSLCONFIG_NOT_APPLIED, "the .wslconfig not applied",
			    xasprintf("%s asks for memory=%s, but Linux sees %s: not applied",
				      m->windows, m->wc.memory.text, b));
		res_ev(r, "asked", "memory=%s (%s line %d)", m->wc.memory.text, m->windows,
		       m->wc.memory.line);
	}
	for (size_t i = 0; i < f->ncfg && !cv->memory_file; i++) {
		const struct config_file *c = &f->cfg[i];
		if (c == cv->encoding_file)
			continue;
		if (c->wc.swap.set && (f->mi.have & MI_SWAP_TOTAL) &&
		    differs(c->wc.swap.val, f->mi.swap_total)) {
			fmt_bytes(f->mi.swap_total, b, sizeof b);
			res_ev(r, "asked", "swap=%s (%s line %d)", c->wc.swap.text, c->windows,
			       c->wc.swap.line);
			add_finding(fs, 2, KB_PERF_MEMORY_WSLCONFIG_NOT_APPLIED, "the .wslconfig not applied",
				    xasprintf("%s asks for swap=%s, but Linux sees %s of swap: not "
					      "applied", c->windows, c->wc.swap.text, b));
			break;
		}
		if (c->wc.processors.set && f->cpus && f->cpus > c->wc.processors.val) {
			res_ev(r, "asked", "processors=%s (%s line %d)", c->wc.processors.text,
			       c->windows, c->wc.processors.line);
			add_finding(fs, 2, KB_PERF_MEMORY_WSLCONFIG_NOT_APPLIED, "the .wslconfig not applied",
				    xasprintf("%s asks for processors=%s, but Linux has %u CPU%s: not "
					      "applied", c->windows, c->wc.processors.text, f->cpus,
					      f->cpus == 1 ? "" : "s"));
			break;
		}
	}
}

/* " (.wslconfig memory=16GB)" for the first file that sets it. */
static void add_memory_setting(const struct memory_facts *f, struct strbuf *d)
{
	for (size_t i = 0; i < f->ncfg; i++)
		if (f->cfg[i].wc.memory.set) {
			sb_addf(d, " (.wslconfig memory=%s)", f->cfg[i].wc.memory.text);
			break;
		}
}

/* Too little memory, or swapping. */
static void judge_pressure(const struct memory_facts *f, struct result *r, struct findings *fs)
{
	char b[32];
	unsigned long long swap_used = meminfo_swap_used(&f->mi);
	if ((double)f->mi.mem_total < SMALL_MEMORY) {
		struct strbuf d = STRBUF_INIT;
		fmt_bytes(f->mi.mem_total, b, sizeof b);
		sb_addf(&d, "only %s of memory", b);
		add_memory_setting(f, &d);
		sb_add(&d, ": too little for GPU training");
		res_ev(r, "threshold", "3.5 GiB");
		add_finding(fs, 3, KB_PERF_MEMORY_SMALL, "small memory", sb_detach(&d));
	}
	if (swap_used >= SWAP_IN_USE || f->rate > 0) {
		fmt_bytes(swap_used, b, sizeof b);
		struct strbuf d = STRBUF_INIT;
		sb_addf(&d, "%s of swap in use", b);
		if (f->rate)
			sb_addf(&d, ", %llu pages/s moving now", f->rate);
		else if (f->have_vmstat && (f->vs.pswpin || f->vs.pswpout))
			sb_addf(&d, " (%llu pages swapped in since boot)", f->vs.pswpin);
		add_finding(fs, 4, KB_PERF_MEMORY_SWAPPING, "swap in use", sb_detach(&d));
	}
}

/* No finding: the memory and swap, in words. */
static void memory_pass(const struct memory_facts *f, struct result *r)
{
	char b[32];
	unsigned long long swap_used = meminfo_swap_used(&f->mi);
	struct strbuf d = STRBUF_INIT;
	fmt_bytes(f->mi.mem_total, b, sizeof b);
	sb_addf(&d, "%s of memory", b);
	add_memory_setting(f, &d);
	if ((f->mi.have & MI_SWAP_TOTAL) && f->mi.swap_total) {
		fmt_bytes(f->mi.swap_total, b, sizeof b);
		sb_addf(&d, ", %s of swap", b);
		if (swap_used) {
			fmt_bytes(swap_used, b, sizeof b);
			sb_addf(&d, ", %s in use", b);
		} else {
			sb_add(&d, ", none in use");
		}
	} else {
		sb_add(&d, ", no swap");
	}
	res_set(r, ST_PASS, NULL, "%s", d.buf);
	sb_release(&d);
}

void judge_memory(const struct memory_facts *f, struct result *r)
{
	const struct meminfo *mi = &f->mi;
	char b[32];
	if (f->meminfo_rc < 0) {
		const char *why = f->meminfo_rc == -ENODATA ? "no MemTotal line"
							    : rootfs_strerror(f->meminfo_rc);
		res_ev(r, "file", "/proc/meminfo");
		res_ev(r, "error", "%s", why);
		res_set(r, ST_WARN, KB_PERF_MEMORY_UNREADABLE,
			"cannot read the memory size: /proc/meminfo: %s", why);
		return;
	}
	fmt_bytes(mi->mem_total, b, sizeof b);
	res_ev(r, "mem_total", "%s (%llu kB)", b, mi->mem_total / 1024);
	if (mi->have & MI_MEM_AVAILABLE) {
		fmt_bytes(mi->mem_available, b, sizeof b);
		res_ev(r, "mem_available", "%s", b);
	}
	if (mi->have & MI_SWAP_TOTAL)
		fmt_bytes(mi->swap_total, b, sizeof b);
	res_ev(r, "swap_total", "%s", mi->have & MI_SWAP_TOTAL ? b : "unknown");
	fmt_bytes(meminfo_swap_used(mi), b, sizeof b);
	res_ev(r, "swap_used", "%s", b);
	if (f->have_vmstat) {
		res_ev(r, "pswpin", "%llu", f->vs.pswpin);
		res_ev(r, "pswpout", "%llu", f->vs.pswpout);
		if (f->sampled)
			res_ev(r, "swapping_now", "%llu pages/s", f->rate);
	}
	if (f->ncfg)
		res_ev(r, "config_file", "%s", f->cfg[0].windows);
	else if (f->wsl)
		res_ev(r, "config_file", "%%UserProfile%%\\.wslconfig");
	if (f->cpus)
		res_ev(r, "cpus", "%u online", f->cpus);

	struct config_verdict cv;
	struct findings fs = FINDINGS_INIT;
	config_evidence(f, r, &cv);
	if (cv.encoding_file)
		judge_encoding(f, cv.encoding_file, r, &fs);
	if (cv.invalid_file)
		judge_invalid(cv.invalid_file, r, &fs);
	judge_not_applied(f, &cv, r, &fs);
	judge_pressure(f, r, &fs);
	if (fs.n)
		findings_settle(r, &fs);
	else
		memory_pass(f, r);
}

/* ---- perf.memory's collector ---- */

/* Counters since boot say little about now: on the real machine, with
 * swap in use, /proc/vmstat is read again half a second later (a
 * fixture's files do not move). With no swap, or none in use, nothing
 * is swapping now (memory pressure would have put some there), and no
 * timer runs. The sample runs in a child of its own (probe_alone), so
 * that it holds up no other check of the shared child. Returns false
 * when the probe must return at once to run again alone. */
static bool sample_swap(struct probe_ctx *ctx, struct memory_facts *f)
{
	if (!rootfs_is_real() || !memory_swap_sample_useful(&f->mi))
		return true;
	if (probe_alone(ctx))
		return false;
	probe_step(ctx, "sampling /proc/vmstat for half a second");
	struct timespec ts = { 0, 500 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	struct vmstat vs2;
	if (vmstat_read("/proc/vmstat", &vs2) == 0 && vs2.pswpin >= f->vs.pswpin &&
	    vs2.pswpout >= f->vs.pswpout) {
		f->rate = (vs2.pswpin - f->vs.pswpin + vs2.pswpout - f->vs.pswpout) * 2;
		f->sampled = true;
	}
	return true;
}

static void probe_memory(struct probe_ctx *ctx, struct result *r)
{
	struct memory_facts f;
	struct config_file *cfg = NULL;
	memset(&f, 0, sizeof f);
	f.wsl = probe_is_wsl2(ctx);
	probe_step(ctx, "reading /proc/meminfo");
	f.meminfo_rc = meminfo_read("/proc/meminfo", &f.mi);
	if (f.meminfo_rc == 0) {
		f.have_vmstat = vmstat_read("/proc/vmstat", &f.vs) == 0;
		if (f.have_vmstat && !sample_swap(ctx, &f))
			return;
		/* .wslconfig: what the user asked for. */
		if (f.wsl) {
			probe_step(ctx, "reading .wslconfig files");
			load_configs(&cfg, &f.ncfg);
			f.cfg = cfg;
		}
		f.cpus = online_cpus();
	}
	judge_memory(&f, r);
	free_configs(cfg, f.ncfg);
}

/* ---- perf.storage ---- */

static const char *where(const struct mount_entry *m, const char *automount)
{
	if (mountinfo_windows_drive(m, automount))
		return "Windows drive";
	if (!strcmp(m->fstype, "9p")) {
		struct strbuf v = STRBUF_INIT;
		bool drivers = mountinfo_option(m->super_options, "aname", &v) &&
			       !strncmp(v.buf, "drivers", 7);
		sb_release(&v);
		return drivers ? "WSL's read-only view of the Windows driver store"
			       : "a 9p share (not a Windows drive)";
	}
	if (!strcmp(m->fstype, "tmpfs") || !strcmp(m->fstype, "ramfs"))
		return "memory (tmpfs)";
	if (!strcmp(m->fstype, "nfs") || !strcmp(m->fstype, "nfs4") || !strcmp(m->fstype, "cifs") ||
	    !strcmp(m->fstype, "smb3") || !strncmp(m->fstype, "fuse", 4))
		return "a network or FUSE file system";
	return "a Linux file system";
}

static void probe_storage(struct probe_ctx *ctx, struct result *r)
{
	struct strbuf t = STRBUF_INIT, automount = STRBUF_INIT, cwd = STRBUF_INIT,
		      abs = STRBUF_INIT, res = STRBUF_INIT, link = STRBUF_INIT;
	struct mountinfo mi;
	memset(&mi, 0, sizeof mi);

	probe_step(ctx, "reading /proc/self/mountinfo");
	/* Line by line, whole: the 9p drive may come after 100,000 other mounts. */
	int rc = mountinfo_read("/proc/self/mountinfo", &mi);
	if (rc <= 0) {
		res_ev(r, "file", "/proc/self/mountinfo");
		res_ev(r, "error", "%s", rc < 0 ? rootfs_strerror(rc) : "no mount entries");
		res_set(r, ST_WARN, KB_PERF_STORAGE_NO_MOUNTINFO,
			"cannot tell where the data lives: /proc/self/mountinfo: %s",
			rc < 0 ? rootfs_strerror(rc) : "no mount entries");
		goto out;
	}
	if (mi.bad_lines)
		res_ev(r, "note", "%zu line%s of /proc/self/mountinfo could not be read", mi.bad_lines,
		       mi.bad_lines == 1 ? "" : "s");
	wslhost_automount_root(&automount);

	/* The user's current directory, then each --data path. */
	int cwd_rc = rootfs_cwd(&cwd);
	if (cwd_rc < 0 && rootfs_is_real())
		res_ev(r, "note", "the current directory is unknown: %s", strerror(-cwd_rc));
	else if (cwd_rc < 0)
		res_ev(r, "note", "PWD is not set: the current directory is not checked");
	size_t npaths = (cwd.len ? 1 : 0) + ctx->opts->ndata;
	size_t slow = 0, bad = 0;
	for (size_t i = 0; i < npaths; i++) {
		bool is_cwd = cwd.len && i == 0;
		const char *p = is_cwd ? cwd.buf : ctx->opts->data_paths[i - (cwd.len ? 1 : 0)];
		const char *role = is_cwd ? "current directory" : "--data";
		rootfs_absolute(p, &abs);
		probe_step(ctx, "resolving %s", abs.buf);
		bool missing;
		int lr = rootfs_resolve(abs.buf, &res, &missing, &link);
		res_ev(r, "path", "%s", p);
		res_ev(r, "role", "%s", role);
		if (lr < 0) {
			res_ev(r, "resolved", "(%s)", lr == -ELOOP ? "a symlink loop" : strerror(-lr));
			res_ev(r, "fstype", "unknown");
			res_ev(r, "mount", "unknown");
			res_ev(r, "source", "unknown");
			res_ev(r, "where", "unknown");
			if (!bad++) {
				res_ev(r, "bad", "%s: %s", p,
				       lr == -ELOOP ? "its symlinks form a loop" : strerror(-lr));
				res_ev(r, "bad_path", "%s", p);
			}
			continue;
		}
		res_ev(r, "resolved", "%s", res.buf);
		if (link.len)
			res_ev(r, "link", "%s -> %s", p, link.buf);
		probe_step(ctx, "stat %s", res.buf);
		struct stat st;
		if ((missing || rootfs_stat(res.buf, &st) < 0) && is_cwd && !rootfs_is_real()) {
			/* A fixture describes only what the probes read; the
			 * user's directory need not be in it. */
			res_ev(r, "note", "the current directory %s is not in this root; its "
					  "mount is judged by its path", p);
		} else if (missing || rootfs_stat(res.buf, &st) < 0) {
			if (!bad++) {
				res_ev(r, "bad", "%s: %s", p,
				       link.len ? "a dangling symlink (its target does not exist)"
						: "does not exist");
				res_ev(r, "bad_path", "%s", p);
			}
		}
		const struct mount_entry *m = mountinfo_find(&mi, res.buf);
		if (!m) {
			res_ev(r, "fstype", "unknown");
			res_ev(r, "mount", "none listed");
			res_ev(r, "source", "unknown");
			res_ev(r, "where", "unknown");
			continue;
		}
		const char *w = where(m, automount.buf);
		res_ev(r, "fstype", "%s", m->fstype);
		res_ev(r, "mount", "%s", m->mount_point);
		res_ev(r, "source", "%s", m->source);
		res_ev(r, "where", "%s", w);
		if (!strcmp(w, "Windows drive") && !slow++) {
			res_ev(r, "slow", "%s", p);
			res_ev(r, "slow_resolved", "%s", res.buf);
			res_ev(r, "slow_fstype", "%s", m->fstype);
			res_ev(r, "slow_mount", "%s", m->mount_point);
			res_ev(r, "slow_source", "%s", m->source);
		}
	}

	if (slow) {
		const char *s = res_get(r, "slow"), *sr = res_get(r, "slow_resolved");
		bool via_link = strcmp(s, sr) != 0;
		struct strbuf d = STRBUF_INIT;
		sb_add(&d, s);
		if (via_link)
			sb_addf(&d, " (-> %s)", sr);
		sb_addf(&d, " is on a Windows drive (%s at %s): file access there is slow",
			res_get(r, "slow_fstype"), res_get(r, "slow_mount"));
		if (slow > 1)
			sb_addf(&d, "; %zu of %zu paths are on Windows drives", slow, npaths);
		res_set(r, ST_WARN, KB_PERF_STORAGE_WINDOWS_DRIVE, "%s", d.buf);
		sb_release(&d);
	} else if (bad) {
		res_set(r, ST_WARN, KB_PERF_STORAGE_BAD_PATH, "%s", res_get(r, "bad"));
	} else if (!npaths) {
		res_set(r, ST_UNKNOWN, NULL, "no path to check (no current directory, no --data)");
	} else {
		if (npaths == 1)
			res_set(r, ST_PASS, NULL, "%s is on %s (%s, %s)", res_get(r, "path"),
				res_get(r, "fstype"), res_get(r, "source"), res_get(r, "where"));
		else
			res_set(r, ST_PASS, NULL, "none of the %zu paths is on a Windows drive", npaths);
	}
out:
	mountinfo_free(&mi);
	sb_release(&t);
	sb_release(&automount);
	sb_release(&cwd);
	sb_release(&abs);
	sb_release(&res);
	sb_release(&link);
}

const struct check_def perf_checks[] = {
	{ "perf.memory", "perf", "Memory and swap", "MemTotal, swap in use, and .wslconfig memory/swap/processors: valid, applied, enough", { "platform.kind" }, probe_memory, CHECK_FILES },
	{ "perf.storage", "perf", "Where the data lives", "file system of the current directory and of each --data path (symlinks followed): Windows drive or Linux disk", { "platform.kind" }, probe_storage, CHECK_FILES },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
