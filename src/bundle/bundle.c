/*
 * bundle.c: the support bundle of `wslgpu report` (see bundle.h).
 *
 * Everything is collected into memory first (each member capped at
 * BUNDLE_MEMBER_CAP), then the redactor learns from all of it, so that a
 * value first seen in a late member is replaced in the early ones too, then
 * every member is redacted and the archive is written in one go to a
 * temporary file that is renamed into place.
 *
 * Why libarchive: it is the library behind bsdtar (FreeBSD, macOS,
 * Windows' own tar.exe), maintained for two decades, and writes pax/ustar
 * and gzip through one streaming API to any file descriptor, which is what
 * the atomic temporary file needs. Running tar(1) would need the members on
 * disk first (unredacted secrets in a temporary directory) and a command
 * outside the described machine. libarchive is used in this file only,
 * opened when a bundle is written (src/core/dynlib.h), so that no other
 * command pays for loading it; the static build links it instead.
 */
#include "bundle.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/atomicfile.h"
#include "../core/check.h"
#include "../core/dynlib.h"
#include "../core/json.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../facts/wslhost.h"
#include "../kb/kb.h"
#include "../parse/dpkgstatus.h"
#include "../parse/ldcache.h"
#include "../parse/wintext.h"
#include "../report/finding.h"
#include "../version.h"

extern char **environ;

struct member {
	char *name;          /* below the top directory: "evidence/mountinfo" */
	const char *what;    /* one line for the README's list */
	struct strbuf data;
};

struct members {
	struct member *v;
	size_t n, alloc;
};

static struct member *add_member(struct members *m, const char *name, const char *what)
{
	if (m->n == m->alloc) {
		m->alloc = m->alloc ? 2 * m->alloc : 32;
		m->v = xrealloc(m->v, m->alloc * sizeof *m->v);
	}
	struct member *x = &m->v[m->n++];
	x->name = xstrdup(name);
	x->what = what;
	sb_init(&x->data);
	return x;
}

static void free_members(struct members *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].name);
		sb_release(&m->v[i].data);
	}
	free(m->v);
}

/* Cuts sb to the cap at a line end (never in the middle of a value that
 * redaction must see whole) and says so. */
static void cap_text(struct strbuf *sb, size_t cap)
{
	if (sb->len <= cap)
		return;
	size_t keep = cap;
	while (keep > 0 && sb->buf[keep - 1] != '\n')
		keep--;
	sb->len = keep;
	sb->buf[keep] = '\0';
	sb_addf(sb, "\n[wslgpu: truncated at %zu KiB]\n", (cap + 1023) / 1024);
}

/* UTF-16 (a .wslconfig saved by Notepad) as UTF-8, so that the names in
 * it can be seen and redacted; line ends are kept as they are. */
static void utf16_to_utf8(struct strbuf *sb)
{
	bool bom, be;
	if (!wintext_sniff_utf16((const unsigned char *)sb->buf, sb->len, &bom, &be))
		return;
	struct strbuf out = STRBUF_INIT;
	wintext_utf16_to_utf8((const unsigned char *)sb->buf + (bom ? 2 : 0), sb->len - (bom ? 2 : 0),
			      be, &out);
	sb_release(sb);
	*sb = out;
	sb_add(sb, "\n[wslgpu: the file is UTF-16; shown here as UTF-8]\n");
}

/*
 * report runs in the main process, without the probe runner around it, so
 * every step that touches the described machine's files runs in a child
 * with the time limit (rootfs_isolated): a hung 9p mount (/mnt/c, where
 * .wslconfig lives) costs that step the limit, not the whole report.
 */
static int step_timeout_ms = 10000;

/* Runs fn in such a child; its text (or a line saying it was cut off)
 * goes to out. Returns fn's answer or -ETIMEDOUT. */
static int isolated(int (*fn)(void *, struct strbuf *), void *arg, const char *what,
		    struct strbuf *out)
{
	size_t before = out->len;
	int rc = rootfs_isolated(fn, arg, step_timeout_ms, BUNDLE_MEMBER_CAP + 65536, out);
	if (rc == -ETIMEDOUT)
		sb_addf(out, "[wslgpu: %s did not finish within %d s (a hung network or Windows "
			     "drive?): left out]\n", what, (step_timeout_ms + 999) / 1000);
	else if (rc == -EIO && out->len == before)
		sb_addf(out, "[wslgpu: %s: the process reading it died]\n", what);
	else if (rc < 0 && out->len == before)
		/* no child (EMFILE under a low `ulimit -n`, EAGAIN), or the
		 * step failed: the member says why instead of being empty */
		sb_addf(out, "[wslgpu: %s failed: %s]\n", what, strerror(-rc));
	return rc;
}

/* In the child: a file of the described machine, or a line saying why
 * there is none (a FIFO or device in its place is named, not read). */
static int read_child(void *arg, struct strbuf *sb)
{
	const char *guest = arg;
	struct strbuf t = STRBUF_INIT;
	bool truncated = false;
	int rc = rootfs_read(guest, BUNDLE_MEMBER_CAP, &t, &truncated);
	struct stat st;
	if (rc == -EINVAL && rootfs_stat(guest, &st) == 0) {
		sb_addf(sb, "[wslgpu: %s is %s, not a regular file: not read]\n", guest,
			rootfs_mode_name(st.st_mode));
	} else if (rc < 0) {
		sb_addf(sb, "[wslgpu: %s could not be read: %s]\n", guest, rootfs_strerror(rc));
	} else if (!t.len) {
		/* said, so that an empty member is never a read that failed */
		sb_addf(sb, "[wslgpu: %s is empty]\n", guest);
	} else {
		sb_addn(sb, t.buf, t.len);
		if (truncated)
			cap_text(sb, BUNDLE_MEMBER_CAP - 1);
	}
	sb_release(&t);
	return 0;
}

static void read_into(struct strbuf *sb, const char *guest)
{
	struct strbuf what = STRBUF_INIT;
	sb_addf(&what, "reading %s", guest);
	isolated(read_child, (void *)guest, what.buf, sb);
	sb_release(&what);
}

static void add_file(struct members *m, const char *name, const char *guest, const char *what)
{
	struct member *x = add_member(m, name, what);
	read_into(&x->data, guest);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* In the child: the names in /etc/ld.so.conf.d, each ended by a NUL (a
 * name may hold a newline), at most 64. */
static int list_ld_conf_d(void *arg, struct strbuf *out)
{
	(void)arg;
	DIR *d = rootfs_opendir("/etc/ld.so.conf.d");
	if (!d) /* none is no error; anything else (EMFILE, EACCES) is said */
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	struct dirent *de;
	size_t n = 0;
	while ((de = readdir(d)) && n < 64) {
		if (de->d_name[0] == '.')
			continue;
		sb_addn(out, de->d_name, strlen(de->d_name) + 1);
		n++;
	}
	closedir(d);
	return 0;
}

/* /etc/ld.so.conf and every file of /etc/ld.so.conf.d, sorted as ldconfig
 * reads them. */
static void add_ld_conf(struct members *m)
{
	add_file(m, "evidence/ld.so.conf", "/etc/ld.so.conf", "/etc/ld.so.conf");
	struct strbuf list = STRBUF_INIT;
	if (isolated(list_ld_conf_d, NULL, "listing /etc/ld.so.conf.d", &list) < 0) {
		struct member *x = add_member(m, "evidence/ld.so.conf.d.txt", "/etc/ld.so.conf.d");
		sb_addn(&x->data, list.buf, list.len);
		sb_release(&list);
		return;
	}
	char **names = NULL;
	size_t n = 0;
	for (size_t at = 0; at < list.len;) {
		const char *p = list.buf + at;
		const char *end = memchr(p, '\0', list.len - at);
		if (!end)
			break;
		names = xrealloc(names, (n + 1) * sizeof *names);
		names[n++] = xstrndup(p, (size_t)(end - p));
		at += (size_t)(end - p) + 1;
	}
	sb_release(&list);
	if (n) /* with none, names is NULL, which qsort may not be given */
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		/* The member's name in printable ASCII: tar listings print it
		 * (an ESC, a newline), and libarchive cannot write a name it
		 * cannot convert from the locale (wslgpu runs in "C"), which
		 * would lose the whole bundle. */
		char *name = xasprintf("evidence/ld.so.conf.d/%s", names[i]);
		for (char *c = name; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
				*c = '?';
		char *guest = xasprintf("/etc/ld.so.conf.d/%s", names[i]);
		add_file(m, name, guest, "a file of /etc/ld.so.conf.d");
		free(name);
		free(guest);
		free(names[i]);
	}
	free(names);
}

/* In the child: what `ldconfig -p` would print, from the cache file itself. */
static int ldcache_child(void *arg, struct strbuf *out)
{
	(void)arg;
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT, flags = STRBUF_INIT;
	bool truncated = false;
	int rc = rootfs_read("/etc/ld.so.cache", 64u << 20, &buf, &truncated);
	struct ldcache c;
	if (rc < 0) {
		sb_addf(out, "[wslgpu: /etc/ld.so.cache could not be read: %s]\n", rootfs_strerror(rc));
	} else if (ldcache_parse(buf.buf, buf.len, &c, &why) < 0) {
		sb_addf(out, "[wslgpu: /etc/ld.so.cache (%zu bytes%s) is not a valid cache: %s]\n",
			buf.len, truncated ? ", cut at 64 MiB" : "", why.buf);
	} else {
		sb_addf(out, "%zu libs found in cache `/etc/ld.so.cache' (format: %s)\n", c.n,
			ldcache_format_name(c.format));
		for (size_t i = 0; i < c.n && out->len < BUNDLE_MEMBER_CAP; i++) {
			sb_reset(&flags);
			ldcache_describe_flags(c.e[i].flags, &flags);
			sb_addf(out, "\t%s (%s", c.e[i].name, flags.buf);
			if (c.e[i].hwcap)
				sb_addf(out, ", hwcap: 0x%016llx", (unsigned long long)c.e[i].hwcap);
			sb_addf(out, ") => %s\n", c.e[i].path);
		}
		if (c.generator)
			sb_addf(out, "Cache generated by: %s\n", c.generator);
		ldcache_free(&c);
	}
	cap_text(out, BUNDLE_MEMBER_CAP);
	sb_release(&buf);
	sb_release(&why);
	sb_release(&flags);
	return 0;
}

static void add_ldcache(struct members *m)
{
	struct member *x = add_member(m, "evidence/ld.so.cache.txt",
				      "/etc/ld.so.cache, listed like ldconfig -p");
	isolated(ldcache_child, NULL, "reading /etc/ld.so.cache", &x->data);
}

/* Runs a command of the described machine with the time limit; the member
 * says how it was found, how it ended, and what it printed. */
static void add_command(struct members *m, const char *name, const char *what,
			const char *cmd, const char *arg, int timeout_ms)
{
	struct member *x = add_member(m, name, what);
	struct strbuf guest = STRBUF_INIT, host = STRBUF_INIT, end = STRBUF_INIT;
	bool on_path = false;
	sb_addf(&x->data, "$ %s %s\n", cmd, arg);
	if (rootfs_which(cmd, &guest, &host, &on_path) < 0) {
		sb_addf(&x->data, "[wslgpu: %s was not found (PATH and /usr/local/bin, /usr/bin, "
			"/bin, /usr/lib/wsl/lib searched)]\n", cmd);
		goto out;
	}
	const char *argv[] = { host.buf, arg, NULL };
	struct proc_opts po = { .timeout_ms = timeout_ms };
	struct proc_result r;
	proc_result_init(&r);
	int started = proc_run(argv, &po, &r);
	if (started < 0) {
		sb_addf(&x->data, "[wslgpu: %s could not be started: %s]\n", guest.buf,
			strerror(-started));
		proc_result_release(&r);
		goto out;
	}
	proc_describe_end(&r, &end);
	sb_addf(&x->data, "[wslgpu: %s (%s PATH) %s after %.0f ms%s]\n\n", guest.buf,
		on_path ? "on" : "not on", end.buf, r.ms,
		r.end == PROC_TIMEOUT ? ", killed at the time limit" : "");
	sb_addn(&x->data, r.out.buf ? r.out.buf : "", r.out.len);
	if (r.out_truncated)
		sb_add(&x->data, "\n[wslgpu: standard output truncated]\n");
	if (r.err.len) {
		sb_add(&x->data, "\n--- standard error ---\n");
		sb_addn(&x->data, r.err.buf, r.err.len);
		if (r.err_truncated)
			sb_add(&x->data, "\n[wslgpu: standard error truncated]\n");
	}
	proc_result_release(&r);
out:
	cap_text(&x->data, BUNDLE_MEMBER_CAP);
	sb_release(&guest);
	sb_release(&host);
	sb_release(&end);
}

static bool gpu_package(const char *name, size_t n)
{
	static const char *const words[] = { "nvidia", "cuda", "cudnn", "nccl", "tensorrt",
					     "nvinfer", "docker", "container-toolkit", "moby", NULL };
	for (const char *const *w = words; *w; w++) {
		size_t wl = strlen(*w);
		for (size_t i = 0; i + wl <= n; i++)
			if (strncasecmp(name + i, *w, wl) == 0)
				return true;
	}
	return false;
}

static int dpkg_line(const struct dpkg_pkg *p, void *arg)
{
	struct strbuf *sb = arg;
	if (!gpu_package(p->name.p, p->name.n))
		return 0;
	sb_addf(sb, "%-40.*s %-36.*s %-6.*s %.*s\n", (int)p->name.n, p->name.p, (int)p->version.n,
		p->version.p, (int)p->arch.n, p->arch.p, (int)p->status.n, p->status.p);
	return sb->len > BUNDLE_MEMBER_CAP;
}

/* In the child: the GPU packages of dpkg's status file, read whole. */
static int dpkg_child(void *arg, struct strbuf *out)
{
	(void)arg;
	struct strbuf list = STRBUF_INIT;
	sb_add(&list, "# packages whose name contains nvidia, cuda, cudnn, nccl, tensorrt, "
		      "nvinfer, docker, container-toolkit or moby\n");
	sb_addf(&list, "%-40s %-36s %-6s %s\n", "Package", "Version", "Arch", "Status");
	int rc = dpkgstatus_read_each(dpkg_line, &list, NULL);
	if (rc < 0)
		sb_addf(out, "[wslgpu: /var/lib/dpkg/status could not be read: %s]\n",
			rootfs_strerror(rc));
	else
		sb_addn(out, list.buf, list.len);
	sb_release(&list);
	cap_text(out, BUNDLE_MEMBER_CAP);
	return 0;
}

static void add_dpkg(struct members *m)
{
	struct member *x = add_member(m, "evidence/dpkg-gpu-packages.txt",
				      "GPU-related packages in /var/lib/dpkg/status");
	isolated(dpkg_child, NULL, "reading /var/lib/dpkg/status", &x->data);
}

/* The frameworks checks' results with their evidence and probe output. */
static void add_frameworks(struct members *m, const struct report *rep)
{
	struct member *x = add_member(m, "evidence/frameworks.txt",
				      "the frameworks checks' evidence and probe output");
	size_t found = 0;
	for (size_t i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];
		if (!r->ran || !r->def || strcmp(r->def->layer, "frameworks") != 0)
			continue;
		found++;
		sb_addf(&x->data, "== %s: %s\n%s\n", r->def->id, status_name(r->status),
			r->detail ? r->detail : "");
		for (size_t k = 0; k < r->ev.n; k++)
			sb_addf(&x->data, "  %s: %s\n", r->ev.v[k].key, r->ev.v[k].val);
		if (r->output && *r->output)
			sb_addf(&x->data, "  --- probe output%s ---\n%s\n",
				r->output_truncated ? " (truncated)" : "", r->output);
		sb_addc(&x->data, '\n');
	}
	if (!found)
		sb_add(&x->data, "[wslgpu: no frameworks check ran (--only)]\n");
	cap_text(&x->data, BUNDLE_MEMBER_CAP);
}

/* In the child: wslhost_wslconfigs, one path a line. */
static int list_wslconfigs(void *arg, struct strbuf *out)
{
	(void)arg;
	size_t n;
	char **v = wslhost_wslconfigs(&n);
	for (size_t i = 0; i < n; i++)
		if (!strchr(v[i], '\n'))
			sb_addf(out, "%s\n", v[i]);
	wslhost_free_list(v, n);
	if (n)
		return 0;
	/* None found: say so only when the folder could really be listed. */
	struct strbuf dir = STRBUF_INIT;
	wslhost_automount_root(&dir);
	sb_add(&dir, "c/Users");
	DIR *d = rootfs_opendir(dir.buf);
	int rc = d || errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	if (d)
		closedir(d);
	sb_release(&dir);
	return rc;
}

static void add_wsl_files(struct members *m)
{
	add_file(m, "evidence/wsl.conf", "/etc/wsl.conf", "/etc/wsl.conf");
	/* The listing walks the automount root's c/Users: a 9p mount. */
	struct strbuf list = STRBUF_INIT;
	size_t n = 0;
	char **v = NULL;
	if (isolated(list_wslconfigs, NULL, "looking for .wslconfig files", &list) < 0) {
		struct member *x = add_member(m, "evidence/wslconfig", "the Windows user's .wslconfig");
		sb_addn(&x->data, list.buf, list.len);
		sb_release(&list);
		return;
	}
	for (char *p = list.buf, *nl; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		v = xrealloc(v, (n + 1) * sizeof *v);
		v[n++] = xstrndup(p, (size_t)(nl - p));
	}
	sb_release(&list);
	if (!n) {
		struct member *x = add_member(m, "evidence/wslconfig", "the Windows user's .wslconfig");
		sb_add(&x->data, "[wslgpu: no .wslconfig was found under the automount root's "
				 "c/Users/*/]\n");
	}
	for (size_t i = 0; i < n; i++) {
		char *name = n == 1 ? xstrdup("evidence/wslconfig") : xasprintf("evidence/wslconfig-%zu", i + 1);
		struct member *x = add_member(m, name, "a Windows user's .wslconfig");
		struct strbuf win = STRBUF_INIT, body = STRBUF_INIT;
		wslhost_windows_path(v[i], &win);
		sb_addf(&x->data, "# %s (%s)\n", win.buf, v[i]);
		read_into(&body, v[i]);
		utf16_to_utf8(&body);
		sb_addn(&x->data, body.buf, body.len);
		sb_release(&win);
		sb_release(&body);
		free(name);
	}
	wslhost_free_list(v, n);
}

/* The variables that decide where GPU libraries and tools come from; and
 * the names of those that look secret (their values are redacted). */
static bool gpu_env(const char *e, size_t kn)
{
	static const char *const prefixes[] = { "CUDA", "NVIDIA_", "NV_", "__NV", "__GL", "LD_",
						"TF_", "XLA_", "JAX_", "PYTORCH_", "TORCH", "NCCL_",
						"CONDA", "WSL", "DOCKER_", "PYTHON", "MESA_", "GALLIUM_",
						"LIBGL_", "HF_", "TRANSFORMERS_",
						/* the index a CUDA wheel comes from */
						"PIP_", NULL };
	static const char *const names[] = { "PATH", "HOME", "USER", "SHELL", "LANG", "PWD",
					     "VIRTUAL_ENV", "DISPLAY", "WAYLAND_DISPLAY", "container",
					     "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY",
					     "no_proxy", "NO_PROXY", NULL };
	for (const char *const *p = prefixes; *p; p++)
		if (strncmp(e, *p, strlen(*p)) == 0)
			return true;
	for (const char *const *p = names; *p; p++)
		if (strlen(*p) == kn && strncmp(e, *p, kn) == 0)
			return true;
	return redact_secret_name(e, kn);
}

static void add_environment(struct members *m)
{
	struct member *x = add_member(m, "evidence/environment.txt",
				      "GPU-related environment variables (and secret-looking ones)");
	char **v = NULL;
	size_t n = 0;
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq || !gpu_env(*e, (size_t)(eq - *e)))
			continue;
		v = xrealloc(v, (n + 1) * sizeof *v);
		v[n++] = *e;
	}
	if (n) /* qsort of no array is undefined (an environment with no GPU variable) */
		qsort(v, n, sizeof *v, cmp_str);
	sb_add(&x->data, "# the environment wslgpu ran in, GPU-related variables only\n");
	for (size_t i = 0; i < n; i++)
		sb_addf(&x->data, "%s\n", v[i]);
	free(v);
	cap_text(&x->data, BUNDLE_MEMBER_CAP);
}

static void collect(struct members *m, const struct report *rep, const struct bundle_opts *o)
{
	if (o->timeout_ms > 0)
		step_timeout_ms = o->timeout_ms;
	struct member *osr = add_member(m, "evidence/etc-os-release", "/etc/os-release");
	read_into(&osr->data, "/etc/os-release");
	if (!strncmp(sb_str(&osr->data), "[wslgpu: /etc/os-release could not be read: No such file", 55)) {
		sb_reset(&osr->data);
		read_into(&osr->data, "/usr/lib/os-release");
	}
	add_file(m, "evidence/proc-version", "/proc/version", "/proc/version");
	add_file(m, "evidence/mountinfo", "/proc/self/mountinfo", "/proc/self/mountinfo");
	add_file(m, "evidence/proc-modules", "/proc/modules", "/proc/modules");
	add_ldcache(m);
	add_ld_conf(m);
	add_command(m, "evidence/nvidia-smi-q.txt", "nvidia-smi -q, with the time limit",
		    "nvidia-smi", "-q", o->timeout_ms);
	add_dpkg(m);
	add_command(m, "evidence/docker-info.txt", "docker info, with the time limit", "docker",
		    "info", o->timeout_ms);
	add_frameworks(m, rep);
	add_wsl_files(m);
	add_environment(m);
}

/* ---- the README ---- */

static void put_driver(struct strbuf *sb, const struct report *rep)
{
	const struct result *r = report_find(rep, "host.driver");
	const char *v = r ? res_get(r, "driver_version") : NULL;
	if (v) {
		sb_add(sb, ", driver ");
		text_sanitize_line(sb, v);
	}
}

/* A value of the machine on one line of the README (text_sanitize_line):
 * a name with a newline or an escape sequence forges no line. */
static const char *one_line(struct strbuf *tmp, const char *s)
{
	sb_reset(tmp);
	text_sanitize_line(tmp, s ? s : "");
	return sb_str(tmp);
}

static void readme(struct strbuf *sb, const struct report *rep, const struct bundle_opts *o,
		   const char *top, const struct members *m, const char *command_line)
{
	struct strbuf t1 = STRBUF_INIT, t2 = STRBUF_INIT, t3 = STRBUF_INIT;
	struct summary sum;
	report_summarize(rep, &sum);
	char when[64];
	struct tm tm;
	gmtime_r(&o->now, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
	if (!o->redactor)
		sb_add(sb, "##################################################################\n"
			   "###                                                            ###\n"
			   "###   THIS BUNDLE IS NOT REDACTED (wslgpu report --no-redact)  ###\n"
			   "###                                                            ###\n"
			   "###   It holds user and host names, home paths, addresses,     ###\n"
			   "###   machine ids and possibly secrets. Do not post it in a    ###\n"
			   "###   public place; send it only to someone you trust.         ###\n"
			   "###                                                            ###\n"
			   "##################################################################\n\n");
	sb_addf(sb, "wslgpu support bundle %s\n\n", top);
	sb_addf(sb, "Created   %s by wslgpu %s\n", when, WSLGPU_VERSION);
	if (command_line)
		sb_addf(sb, "Command   %s\n", one_line(&t1, command_line));
	const char *kind = report_platform(rep, "kind"), *kernel = report_platform(rep, "kernel"),
		   *distro = report_platform(rep, "distro");
	sb_addf(sb, "Machine   %s, kernel %s, %s", one_line(&t1, kind ? kind : "unknown"),
		one_line(&t2, kernel ? kernel : "unknown"),
		one_line(&t3, distro ? distro : "unknown distribution"));
	put_driver(sb, rep);
	sb_addf(sb, "\nChecks    %d pass, %d warn, %d fail, %d skip, %d crash, %d timeout, "
		    "%d unknown (check.json has every one)\n\n",
		sum.counts[ST_PASS], sum.counts[ST_WARN], sum.counts[ST_FAIL], sum.counts[ST_SKIP],
		sum.counts[ST_CRASH], sum.counts[ST_TIMEOUT], sum.counts[ST_UNKNOWN]);
	const struct result *r = sum.first_failure ? sum.first_failure : sum.first_warning;
	if (!r) {
		sb_add(sb, "Verdict   no problems found\n");
	} else {
		sb_addf(sb, "Verdict   %s at the %s layer: %s (%s)\n",
			sum.first_failure ? "broken" : "no failures, first warning", r->def->layer,
			one_line(&t1, r->detail), r->def->id);
		struct finding_view v;
		finding_of_result(&v, r);
		finding_text(sb, &v, 0, FT_CAUSE | FT_FIXES | FT_MORE);
		finding_view_release(&v);
	}

	sb_add(sb, "\nRedaction\n---------\n");
	if (!o->redactor) {
		sb_add(sb, "NONE. --no-redact was given: every member holds the machine's values as "
			   "they are.\n");
	} else {
		sb_add(sb, "Redacted by default. Each value below is replaced by a placeholder such as\n"
			   "<user-1> or <ip-2>; the same value has the same placeholder in every member.\n"
			   "The values themselves are not in the bundle.\n\n");
		size_t total = 0;
		for (int c = 0; c < REDACT__COUNT; c++) {
			size_t values, hits;
			redact_stats(o->redactor, (enum redact_cat)c, &values, &hits);
			total += hits;
			char tag[32];
			snprintf(tag, sizeof tag, "<%s-N>", redact_cat_tag((enum redact_cat)c));
			sb_addf(sb, "  %-14s %3zu %-7s %4zu %-12s %s\n", tag, values,
				values == 1 ? "value," : "values,", hits,
				hits == 1 ? "occurrence" : "occurrences", redact_cat_title((enum redact_cat)c));
		}
		sb_addf(sb, "\n%zu replacement%s in all. Not redacted: GPU names, driver and package\n"
			    "versions, system paths, loopback addresses. Names shorter than 3 characters\n"
			    "and generic ones (user, ubuntu...) are replaced only where the context says\n"
			    "they are names (/home/NAME, USER=NAME). Read the files before you share them.\n",
			total, total == 1 ? "" : "s");
	}

	sb_add(sb, "\nMembers\n-------\n");
	sb_addf(sb, "  %-44s %s\n", "README.txt", "this summary");
	for (size_t i = 0; i < m->n; i++)
		sb_addf(sb, "  %-44s %s, %zu bytes\n", one_line(&t1, m->v[i].name), m->v[i].what,
			m->v[i].data.len);
	sb_release(&t1);
	sb_release(&t2);
	sb_release(&t3);
}

/* ---- the archive ---- */

/* ---- libarchive, declared by us (archive.h, archive_entry.h of 3.6) ---- */

struct archive;
struct archive_entry;
#define ARCHIVE_OK 0
#define ARCHIVE_FATAL (-30)
#define AE_IFREG 0100000
#define AE_IFDIR 0040000

/* X(return type, name, parameters): every entry point this file uses. */
#define ARCHIVE_API(X)                                                                  \
	X(struct archive *, archive_write_new, (void))                                   \
	X(int, archive_write_add_filter_gzip, (struct archive *))                        \
	X(int, archive_write_set_format_pax_restricted, (struct archive *))              \
	X(int, archive_write_open_fd, (struct archive *, int))                           \
	X(int, archive_write_header, (struct archive *, struct archive_entry *))         \
	X(ssize_t, archive_write_data, (struct archive *, const void *, size_t))         \
	X(int, archive_write_close, (struct archive *))                                  \
	X(int, archive_write_free, (struct archive *))                                   \
	X(const char *, archive_error_string, (struct archive *))                        \
	X(int, archive_errno, (struct archive *))                                        \
	X(struct archive_entry *, archive_entry_new, (void))                             \
	X(void, archive_entry_free, (struct archive_entry *))                            \
	X(void, archive_entry_set_pathname, (struct archive_entry *, const char *))      \
	X(void, archive_entry_set_mtime, (struct archive_entry *, time_t, long))         \
	X(void, archive_entry_set_filetype, (struct archive_entry *, unsigned int))      \
	X(void, archive_entry_set_perm, (struct archive_entry *, mode_t))                \
	X(void, archive_entry_set_size, (struct archive_entry *, int64_t))

#define LA_FIELD(ret, name, params) ret(*name) params;
static struct {
	ARCHIVE_API(LA_FIELD)
} la;
#undef LA_FIELD

#ifdef WSLGPU_STATIC
/* Linked in: the same declarations, resolved by the static linker. */
#define LA_DECL(ret, name, params) extern ret name params;
ARCHIVE_API(LA_DECL)
#undef LA_DECL
#endif

static int load_archive(struct strbuf *err)
{
#ifdef WSLGPU_STATIC
	(void)err;
#define LA_SET(ret, name, params) la.name = name;
	ARCHIVE_API(LA_SET)
#undef LA_SET
	return 0;
#else
#define LA_SYM(ret, name, params) { #name, (void **)&la.name },
	static const struct dynlib_sym syms[] = { ARCHIVE_API(LA_SYM){ NULL, NULL } };
#undef LA_SYM
	return dynlib_open("libarchive.so.13", "libarchive13", syms, err);
#endif
}


/* libarchive's message, with the system's reason when it has one
 * ("Write error: No space left on device"). */
static void archive_why(struct archive *a, const char *what, struct strbuf *err)
{
	const char *m = la.archive_error_string(a);
	int e = la.archive_errno(a);
	sb_addf(err, "%s: %s", what, m ? m : "write error");
	if (e > 0 && (!m || !strstr(m, strerror(e))))
		sb_addf(err, ": %s", strerror(e));
}

static int put_entry(struct archive *a, const char *path, const struct strbuf *data,
		     time_t now, struct strbuf *err)
{
	struct archive_entry *e = la.archive_entry_new();
	la.archive_entry_set_pathname(e, path);
	la.archive_entry_set_mtime(e, now, 0);
	if (data) {
		la.archive_entry_set_filetype(e, AE_IFREG);
		la.archive_entry_set_perm(e, 0600);
		la.archive_entry_set_size(e, (int64_t)data->len);
	} else {
		la.archive_entry_set_filetype(e, AE_IFDIR);
		la.archive_entry_set_perm(e, 0700);
	}
	int rc = la.archive_write_header(a, e);
	if (rc == ARCHIVE_OK && data && data->len &&
	    la.archive_write_data(a, data->buf, data->len) != (ssize_t)data->len)
		rc = ARCHIVE_FATAL;
	la.archive_entry_free(e);
	if (rc != ARCHIVE_OK) {
		sb_addf(err, "writing ");
		archive_why(a, path, err);
		return -1;
	}
	return 0;
}

/* Writes the archive to fd; 0, or -1 with err set. */
static int write_archive(int fd, const struct bundle_opts *o, const char *top,
			 const struct strbuf *readme_text, const struct members *m,
			 struct strbuf *err)
{
	struct archive *a = la.archive_write_new();
	int rc = -1;
	if (la.archive_write_add_filter_gzip(a) != ARCHIVE_OK ||
	    la.archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    la.archive_write_open_fd(a, fd) != ARCHIVE_OK) {
		archive_why(a, o->path, err);
		la.archive_write_free(a);
		return -1;
	}
	struct strbuf path = STRBUF_INIT;
	sb_addf(&path, "%s/", top);
	rc = put_entry(a, path.buf, NULL, o->now, err);
	sb_reset(&path);
	sb_addf(&path, "%s/README.txt", top);
	if (!rc)
		rc = put_entry(a, path.buf, readme_text, o->now, err);
	bool dir_evidence = false, dir_ldconf = false;
	for (size_t i = 0; !rc && i < m->n; i++) {
		const char *name = m->v[i].name;
		if (!dir_evidence && strncmp(name, "evidence/", 9) == 0) {
			sb_reset(&path);
			sb_addf(&path, "%s/evidence/", top);
			rc = put_entry(a, path.buf, NULL, o->now, err);
			dir_evidence = true;
		}
		if (!rc && !dir_ldconf && strncmp(name, "evidence/ld.so.conf.d/", 22) == 0) {
			sb_reset(&path);
			sb_addf(&path, "%s/evidence/ld.so.conf.d/", top);
			rc = put_entry(a, path.buf, NULL, o->now, err);
			dir_ldconf = true;
		}
		sb_reset(&path);
		sb_addf(&path, "%s/%s", top, name);
		if (!rc)
			rc = put_entry(a, path.buf, &m->v[i].data, o->now, err);
	}
	sb_release(&path);
	if (la.archive_write_close(a) != ARCHIVE_OK && !rc) {
		archive_why(a, o->path, err);
		rc = -1;
	}
	la.archive_write_free(a);
	return rc;
}

int bundle_write(const struct report *rep, const struct bundle_opts *o,
		 struct strbuf *listing, struct strbuf *err)
{
	/* Before anything is collected: without libarchive there is no bundle. */
	if (load_archive(err) < 0)
		return -1;
	/* The output next: a path that cannot be written is said before the
	 * work, and the descriptors it needs are taken before collecting (which
	 * says in each member what it could not read for want of one). A signal
	 * that ends us while the temporary file exists removes it (atomicfile.h);
	 * a file size limit makes the write fail with EFBIG. */
	struct atomic_file af = { .fd = -1 };
	int fd = STDOUT_FILENO;
	bool to_stdout = strcmp(o->path, "-") == 0;
	if (!to_stdout && (fd = atomic_open(&af, o->path, 0600, err)) < 0)
		return -1;
	struct members m = { NULL, 0, 0 };
	collect(&m, rep, o);

	char top[64];
	struct tm tm;
	gmtime_r(&o->now, &tm);
	strftime(top, sizeof top, "wslgpu-report-%Y%m%dT%H%M%SZ", &tm);

	/* The results as the bundle shows them: redacted copies, or the
	 * originals with --no-redact. */
	struct result *red = NULL;
	struct report shown = *rep;
	shown.verbose = true;
	shown.color = false;
	char *command_line = o->command_line ? xstrdup(o->command_line) : NULL;
	if (o->redactor) {
		struct redactor *x = o->redactor;
		redact_learn_results(x, rep->results, rep->n);
		for (size_t i = 0; i < m.n; i++) {
			redact_learn(x, m.v[i].name, strlen(m.v[i].name));
			redact_learn(x, m.v[i].data.buf ? m.v[i].data.buf : "", m.v[i].data.len);
		}
		if (command_line)
			redact_learn(x, command_line, strlen(command_line));
		red = xcalloc(rep->n, sizeof *red);
		redact_results(x, rep->results, rep->n, red);
		shown.results = red;
		for (size_t i = 0; i < m.n; i++) {
			struct strbuf t = STRBUF_INIT;
			redact_text(x, NULL, m.v[i].data.buf ? m.v[i].data.buf : "", m.v[i].data.len, &t);
			cap_text(&t, BUNDLE_MEMBER_CAP);
			sb_release(&m.v[i].data);
			m.v[i].data = t;
			char *name = redact_dup(x, NULL, m.v[i].name);
			free(m.v[i].name);
			m.v[i].name = name;
		}
		if (command_line) {
			char *c = redact_dup(x, NULL, command_line);
			free(command_line);
			command_line = c;
		}
	}

	/* check.json: what `check -v --json` prints, first in the list. */
	struct member json = { xstrdup("check.json"), "wslgpu check -v --json", STRBUF_INIT };
	report_json(&json.data, &shown);
	struct members all = { xcalloc(m.n + 1, sizeof *all.v), m.n + 1, m.n + 1 };
	all.v[0] = json;
	memcpy(all.v + 1, m.v, m.n * sizeof *m.v);
	free(m.v);

	struct strbuf readme_text = STRBUF_INIT;
	readme(&readme_text, &shown, o, top, &all, command_line);
	int rc = write_archive(fd, o, top, &readme_text, &all, err);
	if (!to_stdout) {
		if (rc == 0)
			rc = atomic_commit(&af, err);
		else
			atomic_abort(&af);
	}
	if (rc == 0 && listing) {
		sb_addf(listing, "%s/README.txt  %zu\n", top, readme_text.len);
		for (size_t i = 0; i < all.n; i++)
			sb_addf(listing, "%s/%s  %zu\n", top, all.v[i].name, all.v[i].data.len);
	}
	sb_release(&readme_text);
	free_members(&all);
	if (red) {
		for (size_t i = 0; i < rep->n; i++)
			result_release(&red[i]);
		free(red);
	}
	free(command_line);
	return rc;
}
