/*
 * test_real.c: the parsers on real outputs that users pasted in public
 * threads (tests/fixtures/real/, format in its README.md). Every fixture's
 * "# expect:" lines must hold, and an expect key the harness does not know
 * fails too, so that a typo cannot pass silently. The focused cases after
 * the walk pin down what those outputs broke or needed.
 */
#include "testutil.h"

#include <dirent.h>

#include "core/strbuf.h"
#include "parse/dockerinfo.h"
#include "parse/dpkgstatus.h"
#include "parse/ldconfigp.h"
#include "parse/ldpredict.h"
#include "parse/mountinfo.h"
#include "parse/nvsmi.h"
#include "parse/piplist.h"
#include "parse/wincounter.h"
#include "parse/windriver.h"
#include "parse/winevent.h"
#include "parse/winreg.h"
#include "parse/winsmi.h"
#include "parse/winver.h"
#include "parse/winwslver.h"
#include "parse/wslconfig.h"

#define REAL_DIR "tests/fixtures/real"
#define MAX_EXPECT 64

struct expect {
	char key[160];
	char value[512];
	int line;
};

struct fixture {
	char path[600];
	const char *kind;
	char *buf;
	size_t len;
	const char *body;
	size_t blen;
	struct expect ex[MAX_EXPECT];
	size_t nex;
	bool has_source;
	char shape[32]; /* windows/: which parser ("# shape: NAME") */
};

/* Adds "path: message" to errs. */
static void fail_at(struct strbuf *errs, const struct fixture *f, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fail_at(struct strbuf *errs, const struct fixture *f, int line, const char *fmt, ...)
{
	sb_addf(errs, "%s:%d: ", f->path, line);
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(errs, fmt, ap);
	va_end(ap);
	sb_addc(errs, '\n');
}

static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	int rc = sb_read_fd(&sb, fd, 1u << 20, NULL);
	close(fd);
	if (rc < 0) {
		sb_release(&sb);
		return NULL;
	}
	*len = sb.len;
	return sb_detach(&sb);
}

/* Splits the header ("# " lines up to "# ---") from the verbatim body. */
static bool read_header(struct fixture *f, struct strbuf *errs)
{
	const char *p = f->buf, *end = f->buf + f->len;
	int line = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		size_t n = (size_t)(eol - p);
		line++;
		if (n == 5 && !memcmp(p, "# ---", 5)) {
			f->body = nl ? nl + 1 : end;
			f->blen = (size_t)(end - f->body);
			return true;
		}
		if (n < 2 || p[0] != '#' || p[1] != ' ') {
			fail_at(errs, f, line, "header line does not start with \"# \" (no \"# ---\" before it?)");
			return false;
		}
		if (n > 10 && !memcmp(p, "# source: ", 10))
			f->has_source = !memcmp(p + 10, "https://", 8);
		if (n > 9 && !memcmp(p, "# shape: ", 9))
			snprintf(f->shape, sizeof f->shape, "%.*s", (int)(n - 9), p + 9);
		if (n > 10 && !memcmp(p, "# expect: ", 10)) {
			const char *kv = p + 10, *eq = memchr(kv, '=', (size_t)(eol - kv));
			if (!eq || f->nex == MAX_EXPECT) {
				fail_at(errs, f, line, "expect line without key=value (or too many)");
				return false;
			}
			struct expect *e = &f->ex[f->nex++];
			snprintf(e->key, sizeof e->key, "%.*s", (int)(eq - kv), kv);
			snprintf(e->value, sizeof e->value, "%.*s", (int)(eol - eq - 1), eq + 1);
			e->line = line;
		}
		p = nl ? nl + 1 : end;
	}
	fail_at(errs, f, line, "no \"# ---\" line ends the header");
	return false;
}

/* "name(arg)" -> arg into out; false if key is not of that form. */
static bool arg_of(const char *key, const char *name, char *out, size_t n)
{
	size_t l = strlen(name), kl = strlen(key);
	if (strncmp(key, name, l) || key[l] != '(' || kl < l + 2 || key[kl - 1] != ')')
		return false;
	snprintf(out, n, "%.*s", (int)(kl - l - 2), key + l + 1);
	return true;
}

static const char *yn(bool b)
{
	return b ? "yes" : "no";
}

/* ---- nvidia-smi ---- */

static bool get_nvsmi(const struct nvsmi_info *in, const char *k, struct strbuf *v)
{
	unsigned idx;
	char field[16];
	if (!strcmp(k, "header"))
		sb_add(v, yn(in->have_header));
	else if (!strcmp(k, "smi_version"))
		sb_add(v, in->smi_version);
	else if (!strcmp(k, "driver_version"))
		sb_add(v, in->driver_version);
	else if (!strcmp(k, "cuda_version"))
		sb_add(v, in->cuda_version);
	else if (!strcmp(k, "cuda_err"))
		sb_add(v, yn(in->cuda_err));
	else if (!strcmp(k, "failure"))
		sb_add(v, nvsmi_failure_name(in->failure));
	else if (!strcmp(k, "reason"))
		sb_add(v, in->reason);
	else if (!strcmp(k, "gpus"))
		sb_addf(v, "%zu", in->ngpus);
	else if (!strcmp(k, "handle_errors"))
		sb_addf(v, "%d", in->handle_errors);
	else if (sscanf(k, "gpu%u.%15s", &idx, field) == 2) {
		if (idx >= in->ngpus)
			sb_add(v, "(no such GPU)");
		else if (!strcmp(field, "name"))
			sb_add(v, in->gpu[idx].name);
		else if (!strcmp(field, "model"))
			sb_add(v, in->gpu[idx].model);
		else if (!strcmp(field, "index"))
			sb_addf(v, "%d", in->gpu[idx].index);
		else
			return false;
	} else
		return false;
	return true;
}

/* ---- docker info ---- */

static bool get_docker(const struct dockerinfo *di, const char *format, const char *k,
		       struct strbuf *v)
{
	if (!strcmp(k, "format"))
		sb_add(v, format);
	else if (!strcmp(k, "server_version"))
		sb_add(v, di->server_version);
	else if (!strcmp(k, "os"))
		sb_add(v, di->os);
	else if (!strcmp(k, "name"))
		sb_add(v, di->name);
	else if (!strcmp(k, "kernel"))
		sb_add(v, di->kernel);
	else if (!strcmp(k, "default_runtime"))
		sb_add(v, di->default_runtime);
	else if (!strcmp(k, "context"))
		sb_add(v, di->context);
	else if (!strcmp(k, "runtimes"))
		for (size_t i = 0; i < di->nruntimes; i++)
			sb_addf(v, "%s%s", i ? " " : "", di->runtimes[i]);
	else if (!strcmp(k, "cdi_dirs"))
		for (size_t i = 0; i < di->ncdi_dirs; i++)
			sb_addf(v, "%s%s", i ? " " : "", di->cdi_dirs[i]);
	else if (!strcmp(k, "nvidia"))
		sb_add(v, yn(dockerinfo_has_runtime(di, "nvidia")));
	else if (!strcmp(k, "desktop"))
		sb_add(v, yn(di->desktop));
	else if (!strcmp(k, "rootless"))
		sb_add(v, yn(di->rootless));
	else if (!strcmp(k, "errors"))
		sb_addf(v, "%zu", di->nerrors);
	else if (!strcmp(k, "error0"))
		sb_add(v, di->nerrors ? di->errors[0] : "");
	else
		return false;
	return true;
}

/* ---- ldconfig -p ---- */

static bool get_ldconfig(const struct ldconfig_text *t, const char *k, struct strbuf *v)
{
	char name[128];
	if (!strcmp(k, "entries"))
		sb_addf(v, "%zu", t->cache.n);
	else if (!strcmp(k, "libs_found"))
		sb_addf(v, "%ld", t->libs_found);
	else if (!strcmp(k, "generator"))
		sb_add(v, t->cache.generator ? t->cache.generator : "");
	else if (arg_of(k, "lookup", name, sizeof name)) {
		/* The outputs are all from x86-64 machines. */
		ssize_t i = ldcache_lookup(&t->cache, name, ld_abi_x86_64.cache_flags);
		sb_add(v, i >= 0 ? t->cache.e[i].path : "");
	} else if (arg_of(k, "count", name, sizeof name)) {
		size_t c = 0;
		for (size_t i = 0; i < t->cache.n; i++)
			c += !strcmp(t->cache.e[i].name, name);
		sb_addf(v, "%zu", c);
	} else
		return false;
	return true;
}

/* ---- mounts ---- */

static bool get_mount_field(const struct mount_entry *m, const char *field, struct strbuf *v)
{
	char opt[64];
	if (!m) {
		sb_add(v, "(no mount)");
		return true;
	}
	if (!strcmp(field, "fstype"))
		sb_add(v, m->fstype);
	else if (!strcmp(field, "source"))
		sb_add(v, m->source);
	else if (!strcmp(field, "point"))
		sb_add(v, m->mount_point);
	else if (!strcmp(field, "windows_drive"))
		sb_add(v, yn(mountinfo_windows_drive(m, NULL)));
	else if (arg_of(field, "option", opt, sizeof opt)) {
		struct strbuf o = STRBUF_INIT;
		if (mountinfo_option(m->super_options, opt, &o))
			sb_add(v, o.buf);
		else
			sb_add(v, "(absent)");
		sb_release(&o);
	} else
		return false;
	return true;
}

static bool get_mounts(const struct mountinfo *mi, const char *format, const char *k,
		       struct strbuf *v)
{
	char arg[256];
	unsigned idx;
	int used = 0;
	if (!strcmp(k, "format"))
		sb_add(v, format);
	else if (!strcmp(k, "mounts"))
		sb_addf(v, "%zu", mi->n);
	else if (!strcmp(k, "bad_lines"))
		sb_addf(v, "%zu", mi->bad_lines);
	else if (sscanf(k, "mount(%u).%n", &idx, &used) == 1 && used > 0)
		return get_mount_field(idx >= 1 && idx <= mi->n ? &mi->m[idx - 1] : NULL, k + used, v);
	else if (arg_of(k, "option", arg, sizeof arg)) {
		/* option(PATH,NAME) */
		char *comma = strrchr(arg, ',');
		if (!comma)
			return false;
		*comma = '\0';
		char field[80];
		snprintf(field, sizeof field, "option(%s)", comma + 1);
		return get_mount_field(mountinfo_find(mi, arg), field, v);
	} else {
		static const char *const fields[] = { "fstype", "source", "windows_drive" };
		for (size_t i = 0; i < 3; i++)
			if (arg_of(k, fields[i], arg, sizeof arg))
				return get_mount_field(mountinfo_find(mi, arg), fields[i], v);
		return false;
	}
	return true;
}

/* ---- .wslconfig ---- */

static const char *problem_name(enum wslconfig_problem p)
{
	switch (p) {
	case WC_UTF16: return "utf16";
	case WC_BINARY: return "binary";
	case WC_SYNTAX: return "syntax";
	case WC_NO_SECTION: return "no_section";
	case WC_UNKNOWN_SECTION: return "unknown_section";
	case WC_UNKNOWN_KEY: return "unknown_key";
	case WC_BAD_SIZE: return "bad_size";
	case WC_BAD_NUMBER: return "bad_number";
	case WC_BAD_BOOL: return "bad_bool";
	case WC_DUPLICATE: return "duplicate";
	}
	return "?";
}

static bool get_setting(const struct wslconfig_setting *s, const char *sub, struct strbuf *v)
{
	if (!*sub)
		sb_add(v, s->text ? s->text : "");
	else if (!strcmp(sub, ".bytes") || !strcmp(sub, ".value"))
		sb_addf(v, "%llu", s->set ? s->val : 0ull);
	else if (!strcmp(sub, ".set"))
		sb_add(v, yn(s->set));
	else
		return false;
	return true;
}

static bool get_wslconfig(const struct wslconfig *wc, const char *k, struct strbuf *v)
{
	static const struct {
		const char *name;
		size_t off;
	} settings[] = {
		{ "memory", offsetof(struct wslconfig, memory) },
		{ "swap", offsetof(struct wslconfig, swap) },
		{ "processors", offsetof(struct wslconfig, processors) },
		{ "gpu_support", offsetof(struct wslconfig, gpu_support) },
		{ "kernel", offsetof(struct wslconfig, kernel) },
	};
	char arg[16];
	for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
		size_t l = strlen(settings[i].name);
		if (!strncmp(k, settings[i].name, l) && (k[l] == '\0' || k[l] == '.'))
			return get_setting((const struct wslconfig_setting *)((const char *)wc +
									       settings[i].off),
					   k + l, v);
	}
	if (!strcmp(k, "issues"))
		sb_addf(v, "%zu", wc->nissues + wc->more_issues);
	else if (!strcmp(k, "utf16"))
		sb_add(v, yn(wc->utf16));
	else if (arg_of(k, "issue", arg, sizeof arg)) {
		int line = atoi(arg);
		for (size_t i = 0; i < wc->nissues; i++)
			if (wc->issues[i].line == line) {
				sb_add(v, problem_name(wc->issues[i].kind));
				return true;
			}
		sb_add(v, "(none)");
	} else
		return false;
	return true;
}

/* ---- dpkg -l ---- */

struct dpkg_rows {
	struct dpkg_pkg row[256];
	size_t n;
};

static int keep_row(const struct dpkg_pkg *p, void *arg)
{
	struct dpkg_rows *r = arg;
	if (r->n < sizeof r->row / sizeof r->row[0])
		r->row[r->n++] = *p;
	return 0;
}

static const struct dpkg_pkg *find_row(const struct dpkg_rows *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->row[i].name.n == strlen(name) && !memcmp(r->row[i].name.p, name, r->row[i].name.n))
			return &r->row[i];
	return NULL;
}

static bool get_dpkg(const struct dpkg_rows *r, const char *k, struct strbuf *v)
{
	char name[128];
	const struct dpkg_pkg *p = NULL;
	if (!strcmp(k, "rows")) {
		sb_addf(v, "%zu", r->n);
		return true;
	}
	if (!strcmp(k, "present")) {
		size_t c = 0;
		for (size_t i = 0; i < r->n; i++)
			c += dpkglist_present(&r->row[i]);
		sb_addf(v, "%zu", c);
		return true;
	}
	static const char *const fields[] = { "status", "version", "arch", "class", "present" };
	for (size_t i = 0; i < 5; i++) {
		if (!arg_of(k, fields[i], name, sizeof name))
			continue;
		p = find_row(r, name);
		if (!p)
			sb_add(v, "(no row)");
		else if (i == 0)
			sb_addn(v, p->status.p, p->status.n);
		else if (i == 1)
			sb_addn(v, p->version.p, p->version.n);
		else if (i == 2)
			sb_addn(v, p->arch.p, p->arch.n);
		else if (i == 3)
			sb_add(v, gpupkg_kind_name(gpupkg_classify(name, NULL, 0)));
		else
			sb_add(v, yn(dpkglist_present(p)));
		return true;
	}
	return false;
}

/* ---- pip ---- */

static bool get_pip(const struct piplist *pl, const char *k, struct strbuf *v)
{
	char name[128];
	if (!strcmp(k, "packages"))
		sb_addf(v, "%zu", pl->npip);
	else if (!strcmp(k, "conda_packages"))
		sb_addf(v, "%zu", pl->nconda);
	else if (!strcmp(k, "nvidia_wheels")) {
		size_t c = 0;
		for (size_t i = 0; i < pl->n; i++)
			c += !pl->p[i].conda && piplist_is_nvidia_wheel(pl->p[i].name);
		sb_addf(v, "%zu", c);
	} else if (!strcmp(k, "torch_cuda")) {
		const struct pip_pkg *t = piplist_find(pl, "torch", false);
		char c[32] = "";
		if (t)
			piplist_torch_cuda(t->version, c, sizeof c);
		sb_add(v, c);
	} else if (arg_of(k, "version", name, sizeof name)) {
		const struct pip_pkg *p = piplist_find(pl, name, false);
		sb_add(v, p ? p->version : "");
	} else if (arg_of(k, "conda", name, sizeof name)) {
		const struct pip_pkg *p = piplist_find(pl, name, true);
		sb_add(v, p ? p->version : "");
	} else
		return false;
	return true;
}

/* ---- windows/: outputs of Windows programs, one parser per shape ---- */

/* UTF-8 text as wsl.exe writes it: UTF-16LE, CR LF line ends. */
static void to_utf16_crlf(const char *s, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		unsigned cp;
		size_t l = 1;
		if (c < 0x80)
			cp = c;
		else if ((c & 0xe0) == 0xc0 && i + 1 < n)
			cp = (c & 0x1fu) << 6 | (s[i + 1] & 0x3f), l = 2;
		else if ((c & 0xf0) == 0xe0 && i + 2 < n)
			cp = (c & 0x0fu) << 12 | (s[i + 1] & 0x3fu) << 6 | (s[i + 2] & 0x3f), l = 3;
		else
			cp = '?';
		i += l;
		if (cp == '\n') {
			sb_addn(out, "\r\0", 2);
		}
		char u[2] = { (char)(cp & 0xff), (char)(cp >> 8) };
		sb_addn(out, u, 2);
	}
}

static bool get_wslver(const struct winwslver *w, const char *k, struct strbuf *v)
{
	static const struct {
		const char *key;
		size_t off;
	} f[] = {
		{ "wsl", offsetof(struct winwslver, wsl) },
		{ "kernel", offsetof(struct winwslver, kernel) },
		{ "wslg", offsetof(struct winwslver, wslg) },
		{ "msrdc", offsetof(struct winwslver, msrdc) },
		{ "direct3d", offsetof(struct winwslver, direct3d) },
		{ "dxcore", offsetof(struct winwslver, dxcore) },
		{ "windows", offsetof(struct winwslver, windows) },
	};
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (!strcmp(k, f[i].key)) {
			sb_add(v, (const char *)w + f[i].off);
			return true;
		}
	if (!strcmp(k, "fields")) {
		sb_addf(v, "%d", w->fields);
		return true;
	}
	return false;
}

static bool get_winsmi_gpu(const struct winsmi_gpu *g, const char *field, struct strbuf *v)
{
	if (!strcmp(field, "pstate"))
		sb_add(v, g->pstate);
	else if (!strcmp(field, "power_draw"))
		sb_add(v, g->power_draw);
	else if (!strcmp(field, "power_limit"))
		sb_add(v, g->power_limit);
	else if (!strcmp(field, "mem_total"))
		sb_add(v, g->mem_total);
	else if (!strcmp(field, "mem_used"))
		sb_add(v, g->mem_used);
	else
		return false;
	return true;
}

static bool get_sample(const struct wincounters *c, const char *k, struct strbuf *v)
{
	unsigned idx;
	char field[16];
	if (!strcmp(k, "samples")) {
		sb_addf(v, "%zu", c->n);
		return true;
	}
	if (sscanf(k, "sample%u.%15s", &idx, field) != 2)
		return false;
	if (idx >= c->n) {
		sb_add(v, "(no such sample)");
		return true;
	}
	const struct wincounter_sample *x = &c->v[idx];
	if (!strcmp(field, "object"))
		sb_add(v, x->object);
	else if (!strcmp(field, "instance"))
		sb_add(v, x->instance);
	else if (!strcmp(field, "counter"))
		sb_add(v, x->counter);
	else if (!strcmp(field, "value"))
		sb_addf(v, x->have_value ? "%.15g" : "", x->value);
	else
		return false;
	return true;
}

static bool get_event(const struct winevents *ev, const char *k, struct strbuf *v)
{
	unsigned idx;
	char field[16];
	if (!strcmp(k, "events")) {
		sb_addf(v, "%zu", ev->n);
	} else if (!strcmp(k, "resets") || !strcmp(k, "nv_errors")) {
		size_t n = 0;
		for (size_t i = 0; i < ev->n; i++)
			n += k[0] == 'r' ? winevent_is_reset(&ev->v[i]) : winevent_is_nvidia(&ev->v[i]);
		sb_addf(v, "%zu", n);
	} else if (sscanf(k, "event%u.%15s", &idx, field) == 2) {
		if (idx >= ev->n) {
			sb_add(v, "(no such event)");
			return true;
		}
		const struct winevent *e = &ev->v[idx];
		if (!strcmp(field, "id"))
			sb_addf(v, "%ld", e->id);
		else if (!strcmp(field, "provider"))
			sb_add(v, e->provider);
		else if (!strcmp(field, "time"))
			sb_add(v, e->time);
		else if (!strcmp(field, "driver"))
			sb_add(v, e->driver);
		else
			return false;
	} else {
		return false;
	}
	return true;
}

static bool get_adapter(const struct windriver *d, const char *k, struct strbuf *v)
{
	unsigned idx;
	char field[16];
	if (!strcmp(k, "adapters")) {
		sb_addf(v, "%zu", d->n);
		return true;
	}
	if (sscanf(k, "adapter%u.%15s", &idx, field) != 2)
		return false;
	if (idx >= d->n) {
		sb_add(v, "(no such adapter)");
		return true;
	}
	const struct windriver_adapter *a = &d->a[idx];
	if (!strcmp(field, "name"))
		sb_add(v, a->name);
	else if (!strcmp(field, "provider"))
		sb_add(v, a->provider);
	else if (!strcmp(field, "version"))
		sb_add(v, a->version);
	else if (!strcmp(field, "date"))
		sb_add(v, a->date);
	else if (!strcmp(field, "vendor"))
		sb_add(v, a->vendor);
	else if (!strcmp(field, "nvidia"))
		sb_add(v, yn(a->nvidia));
	else
		return false;
	return true;
}

static bool get_pnp(const struct winpnp *pp, const char *k, struct strbuf *v)
{
	char inf[64];
	if (!strcmp(k, "drivers")) {
		sb_addf(v, "%zu", pp->n);
		return true;
	}
	const char *dot = strrchr(k, '.');
	if (strncmp(k, "driver(", 7) || !dot || dot < k + 8 || dot[-1] != ')')
		return false;
	snprintf(inf, sizeof inf, "%.*s", (int)(dot - 1 - (k + 7)), k + 7);
	const struct winpnp_driver *d = NULL;
	for (size_t i = 0; i < pp->n && !d; i++)
		if (!strcmp(pp->v[i].published, inf))
			d = &pp->v[i];
	if (!d) {
		sb_add(v, "(no such package)");
		return true;
	}
	const char *field = dot + 1;
	if (!strcmp(field, "provider"))
		sb_add(v, d->provider);
	else if (!strcmp(field, "class"))
		sb_add(v, d->devclass);
	else if (!strcmp(field, "date"))
		sb_add(v, d->date);
	else if (!strcmp(field, "version"))
		sb_add(v, d->version);
	else if (!strcmp(field, "original"))
		sb_add(v, d->original);
	else
		return false;
	return true;
}

static bool get_reg(const struct winreg *r, const char *k, struct strbuf *v)
{
	char name[96];
	if (!strcmp(k, "key")) {
		sb_add(v, r->key);
	} else if (!strcmp(k, "values")) {
		sb_addf(v, "%zu", r->n);
	} else if (arg_of(k, "value", name, sizeof name)) {
		const struct winreg_value *x = winreg_get(r, name);
		if (x && x->is_number)
			sb_addf(v, "%llu", x->number);
		else if (x)
			sb_add(v, x->data);
	} else {
		return false;
	}
	return true;
}

/* Parses the body as its shape says and checks every expect line. */
static void check_windows_fixture(struct fixture *f, struct strbuf *errs)
{
	const char *sh = f->shape;
	struct winwslver wv, wv16;
	struct winsmi_csv *csv = calloc(1, sizeof *csv);
	struct winsmi_q *q = calloc(1, sizeof *q);
	struct nvsmi_info nv;
	struct wincounters wc;
	struct winevents *ev = calloc(1, sizeof *ev);
	struct winreg *reg = calloc(1, sizeof *reg);
	struct windriver *drv = calloc(1, sizeof *drv);
	struct winpnp *pnp = calloc(1, sizeof *pnp);
	struct winver ver;
	assert_true(csv && q && ev && reg && drv && pnp);
	memset(&wc, 0, sizeof wc);
	memset(&nv, 0, sizeof nv);
	static const char *const shapes[] = { "wsl-version", "smi-csv", "smi-q", "smi-table", "counter",
					      "typeperf", "event", "reg", "ver", "driver", "pnputil" };
	bool known_shape = false;
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		known_shape |= !strcmp(sh, shapes[i]);
	if (!known_shape)
		fail_at(errs, f, 1, "no \"# shape:\" line naming a known shape ('%s')", sh);
	if (!strcmp(sh, "wsl-version")) {
		winwslver_parse(f->body, f->blen, &wv);
		/* The same text as wsl.exe writes it must read the same. */
		struct strbuf u = STRBUF_INIT;
		to_utf16_crlf(f->body, f->blen, &u);
		winwslver_parse(u.buf, u.len, &wv16);
		if (memcmp(&wv, &wv16, sizeof wv))
			fail_at(errs, f, 1, "reads differently as UTF-16LE with CR LF");
		sb_release(&u);
	} else if (!strcmp(sh, "smi-csv")) {
		winsmi_csv_parse(f->body, f->blen, csv);
	} else if (!strcmp(sh, "smi-q") || !strcmp(sh, "smi-table")) {
		nvsmi_parse(f->body, f->blen, &nv);
		winsmi_q_parse(f->body, f->blen, q);
	} else if (!strcmp(sh, "counter") || !strcmp(sh, "typeperf")) {
		wincounter_parse(f->body, f->blen, &wc);
	} else if (!strcmp(sh, "event")) {
		winevent_parse(f->body, f->blen, ev);
	} else if (!strcmp(sh, "reg")) {
		winreg_parse(f->body, f->blen, reg);
	} else if (!strcmp(sh, "ver")) {
		winver_parse(f->body, f->blen, &ver);
	} else if (!strcmp(sh, "driver")) {
		windriver_parse(f->body, f->blen, drv);
	} else if (!strcmp(sh, "pnputil")) {
		winpnp_parse(f->body, f->blen, pnp);
	}
	for (size_t i = 0; known_shape && i < f->nex; i++) {
		const struct expect *e = &f->ex[i];
		struct strbuf v = STRBUF_INIT;
		sb_addn(&v, "", 0);
		bool known = false;
		unsigned idx;
		char field[24], col[64];
		if (!strcmp(sh, "wsl-version")) {
			known = get_wslver(&wv, e->key, &v);
		} else if (!strcmp(sh, "smi-csv")) {
			if (!strcmp(e->key, "rows"))
				sb_addf(&v, "%zu", csv->nrows), known = true;
			else if (!strcmp(e->key, "columns"))
				sb_addf(&v, "%zu", csv->ncols), known = true;
			else if (sscanf(e->key, "row%u(%63[^)])", &idx, col) == 2)
				sb_add(&v, winsmi_csv_get(csv, idx, col)), known = true;
		} else if (!strcmp(sh, "smi-q") || !strcmp(sh, "smi-table")) {
			const struct winsmi_gpu *g0 = q->ngpus ? &q->gpu[0] : &q->loose;
			if (sscanf(e->key, "gpu%u.%23s", &idx, field) == 2 && idx < q->ngpus &&
			    get_winsmi_gpu(&q->gpu[idx], field, &v))
				known = true;
			else if (get_winsmi_gpu(g0, e->key, &v))
				known = true;
			else
				known = get_nvsmi(&nv, e->key, &v);
		} else if (!strcmp(sh, "counter") || !strcmp(sh, "typeperf")) {
			known = get_sample(&wc, e->key, &v);
		} else if (!strcmp(sh, "event")) {
			known = get_event(ev, e->key, &v);
		} else if (!strcmp(sh, "reg")) {
			known = get_reg(reg, e->key, &v);
		} else if (!strcmp(sh, "ver")) {
			known = true;
			if (!strcmp(e->key, "version"))
				sb_add(&v, ver.version);
			else if (!strcmp(e->key, "build"))
				sb_addf(&v, "%ld", ver.build);
			else if (!strcmp(e->key, "revision"))
				sb_addf(&v, "%ld", ver.revision);
			else
				known = false;
		} else if (!strcmp(sh, "driver")) {
			known = get_adapter(drv, e->key, &v);
		} else if (!strcmp(sh, "pnputil")) {
			known = get_pnp(pnp, e->key, &v);
		}
		if (!known)
			fail_at(errs, f, e->line, "unknown expect key '%s' for windows/%s", e->key, sh);
		else if (strcmp(v.buf, e->value))
			fail_at(errs, f, e->line, "%s: expected '%s', parsed '%s'", e->key, e->value,
				v.buf);
		sb_release(&v);
	}
	wincounter_free(&wc);
	free(csv);
	free(q);
	free(ev);
	free(reg);
	free(drv);
	free(pnp);
}

/* ---- the walk ---- */

static const char *const kinds[] = { "nvidia-smi", "docker-info", "ldconfig-p", "mounts",
				      "wslconfig",  "dpkg-l",      "pip",        "windows" };
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* Parses the body as its kind says and checks every expect line. */
static void check_fixture(struct fixture *f, struct strbuf *errs)
{
	struct nvsmi_info nv;
	struct dockerinfo di;
	struct ldconfig_text lt;
	struct mountinfo mi;
	struct wslconfig wc;
	struct dpkg_rows *rows = NULL;
	struct piplist pl;
	const char *format = "none";
	const char *k = f->kind;
	if (!strcmp(k, "windows")) {
		check_windows_fixture(f, errs);
		return;
	}
	memset(&nv, 0, sizeof nv);
	memset(&di, 0, sizeof di);
	memset(&lt, 0, sizeof lt);
	memset(&mi, 0, sizeof mi);
	memset(&wc, 0, sizeof wc);
	memset(&pl, 0, sizeof pl);
	if (!strcmp(k, "nvidia-smi")) {
		nvsmi_parse(f->body, f->blen, &nv);
	} else if (!strcmp(k, "docker-info")) {
		if (dockerinfo_parse(f->body, f->blen, &di) == 0)
			format = "json";
		else if (dockerinfo_parse_text(f->body, f->blen, &di) == 0)
			format = "text";
	} else if (!strcmp(k, "ldconfig-p")) {
		ldconfig_text_parse(f->body, f->blen, &lt);
	} else if (!strcmp(k, "mounts")) {
		if (mountinfo_parse(f->body, f->blen, &mi) > 0) {
			format = "mountinfo";
		} else {
			mountinfo_free(&mi);
			if (mounts_parse(f->body, f->blen, &mi) > 0)
				format = "mounts";
		}
	} else if (!strcmp(k, "wslconfig")) {
		wslconfig_check(f->body, f->blen, &wc);
	} else if (!strcmp(k, "dpkg-l")) {
		rows = calloc(1, sizeof *rows);
		assert_non_null(rows);
		dpkglist_each(f->body, f->blen, keep_row, rows);
	} else if (!strcmp(k, "pip")) {
		piplist_parse(f->body, f->blen, &pl);
	}
	for (size_t i = 0; i < f->nex; i++) {
		const struct expect *e = &f->ex[i];
		struct strbuf v = STRBUF_INIT;
		sb_addn(&v, "", 0);
		bool known;
		if (!strcmp(k, "nvidia-smi"))
			known = get_nvsmi(&nv, e->key, &v);
		else if (!strcmp(k, "docker-info"))
			known = get_docker(&di, format, e->key, &v);
		else if (!strcmp(k, "ldconfig-p"))
			known = get_ldconfig(&lt, e->key, &v);
		else if (!strcmp(k, "mounts"))
			known = get_mounts(&mi, format, e->key, &v);
		else if (!strcmp(k, "wslconfig"))
			known = get_wslconfig(&wc, e->key, &v);
		else if (!strcmp(k, "dpkg-l"))
			known = get_dpkg(rows, e->key, &v);
		else
			known = get_pip(&pl, e->key, &v);
		if (!known)
			fail_at(errs, f, e->line, "unknown expect key '%s' for %s", e->key, k);
		else if (strcmp(v.buf, e->value))
			fail_at(errs, f, e->line, "%s: expected '%s', parsed '%s'", e->key, e->value,
				v.buf);
		sb_release(&v);
	}
	if (!strcmp(k, "ldconfig-p"))
		ldconfig_text_free(&lt);
	else if (!strcmp(k, "mounts"))
		mountinfo_free(&mi);
	else if (!strcmp(k, "wslconfig"))
		wslconfig_free(&wc);
	else if (!strcmp(k, "pip"))
		piplist_free(&pl);
	free(rows);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_real_outputs(void **state)
{
	(void)state;
	struct strbuf errs = STRBUF_INIT;
	size_t per_kind[NKINDS] = { 0 }, total = 0, expects = 0;
	sb_addn(&errs, "", 0);
	for (size_t ki = 0; ki < NKINDS; ki++) {
		char dir[256];
		snprintf(dir, sizeof dir, "%s/%s", REAL_DIR, kinds[ki]);
		DIR *d = opendir(dir);
		if (!d) {
			sb_addf(&errs, "%s: cannot open the directory\n", dir);
			continue;
		}
		char *names[512];
		size_t nn = 0;
		struct dirent *de;
		while ((de = readdir(d)) && nn < 512) {
			size_t l = strlen(de->d_name);
			if (l > 4 && !strcmp(de->d_name + l - 4, ".txt"))
				names[nn++] = strdup(de->d_name);
		}
		closedir(d);
		qsort(names, nn, sizeof names[0], by_name);
		for (size_t i = 0; i < nn; i++) {
			struct fixture *f = calloc(1, sizeof *f);
			assert_non_null(f);
			snprintf(f->path, sizeof f->path, "%s/%s", dir, names[i]);
			f->kind = kinds[ki];
			f->buf = slurp(f->path, &f->len);
			if (!f->buf) {
				sb_addf(&errs, "%s: cannot read\n", f->path);
			} else if (read_header(f, &errs)) {
				if (!f->has_source)
					fail_at(&errs, f, 1, "no \"# source: https://...\" line");
				if (!f->nex)
					fail_at(&errs, f, 1, "no \"# expect:\" line");
				if (!f->blen)
					fail_at(&errs, f, 1, "empty output after \"# ---\"");
				check_fixture(f, &errs);
				per_kind[ki]++;
				total++;
				expects += f->nex;
			}
			free(f->buf);
			free(f);
			free(names[i]);
		}
	}
	struct strbuf sum = STRBUF_INIT;
	for (size_t ki = 0; ki < NKINDS; ki++)
		sb_addf(&sum, "%s%s %zu", ki ? ", " : "", kinds[ki], per_kind[ki]);
	print_message("real outputs: %zu (%s), %zu expect lines\n", total, sum.buf, expects);
	sb_release(&sum);
	if (total < 40)
		sb_addf(&errs, "only %zu real outputs; the corpus promises at least 40\n", total);
	if (errs.len) {
		/* One line at a time: cmocka cuts long messages. */
		for (const char *p = errs.buf; *p;) {
			const char *nl = strchr(p, '\n');
			int n = nl ? (int)(nl - p) : (int)strlen(p);
			print_error("%.*s\n", n, p);
			p += n + (nl != NULL);
		}
		fail_msg("real outputs not read to the facts their threads show (above)");
	}
	sb_release(&errs);
}

/* ---- focused cases: what the real outputs broke or needed ---- */

/* `nvidia-smi -q` names its GPUs in blocks; the Driver Model's Current
 * line (and no other Current) gives the model. Was: no GPU at all. */
static void test_nvsmi_q_blocks(void **state)
{
	(void)state;
	static const char q[] = "Driver Version                            : 537.42\n"
				"Attached GPUs                             : 2\n"
				"GPU 00000000:01:00.0\n"
				"    Product Name                          : NVIDIA GeForce RTX 2060\n"
				"    MIG Mode\n"
				"        Current                           : N/A\n"
				"    Driver Model\n"
				"        Current                           : WDDM\n"
				"        Pending                           : WDDM\n"
				"GPU 00000000:81:00.0\n"
				"    Product Name                          : NVIDIA RTX A6000\n"
				"    Driver Model\n"
				"        Current                           : TCC\n";
	struct nvsmi_info in;
	nvsmi_parse(q, sizeof q - 1, &in);
	assert_string_equal(in.driver_version, "537.42");
	assert_int_equal(in.ngpus, 2);
	assert_string_equal(in.gpu[0].name, "NVIDIA GeForce RTX 2060");
	assert_string_equal(in.gpu[0].model, "WDDM");
	assert_int_equal(in.gpu[1].index, 1);
	assert_string_equal(in.gpu[1].model, "TCC");

	/* A "Current" not under Driver Model sets nothing; a bus id with
	 * text after it is not a block header. */
	static const char q2[] = "GPU 00000000:01:00.0\n"
				 "    Product Name : X\n"
				 "    MIG Mode\n"
				 "        Current : WDDM\n"
				 "GPU 00000000:02:00.0 is lost\n";
	nvsmi_parse(q2, sizeof q2 - 1, &in);
	assert_int_equal(in.ngpus, 1);
	assert_string_equal(in.gpu[0].model, "");
}

/* Tables pasted indented (as in microsoft/WSL#9134) keep their GPU rows;
 * processes rows, indented or not, are still no GPUs. */
static void test_nvsmi_indented_rows(void **state)
{
	(void)state;
	static const char t[] =
		"  |   0  NVIDIA GeForce ... WDDM  | 00000000:0A:00.0  On |                  N/A |\n"
		"\t|   1  NVIDIA GeForce ... TCC   | 00000000:43:00.0 Off |                  N/A |\n"
		"  |    0   N/A  N/A      1752    C+G   Insufficient Permissions        N/A      |\n";
	struct nvsmi_info in;
	nvsmi_parse(t, sizeof t - 1, &in);
	assert_int_equal(in.ngpus, 2);
	assert_string_equal(in.gpu[0].model, "WDDM");
	assert_string_equal(in.gpu[1].model, "TCC");
}

/* docker info's text: CDI directories and rootless are lists under their
 * key; an ERROR line from a daemon that cannot be reached is an error. */
static void test_dockerinfo_text_lists(void **state)
{
	(void)state;
	static const char t[] = "Client:\n"
				" Context:    rootless\n"
				"\n"
				"Server:\n"
				" Server Version: 27.3.1\n"
				" Runtimes: io.containerd.runc.v2 nvidia runc\n"
				" Default Runtime: runc\n"
				" Security Options:\n"
				"  seccomp\n"
				"   Profile: builtin\n"
				"  rootless\n"
				"  cgroupns\n"
				" Kernel Version: 5.15.167.4-microsoft-standard-WSL2\n"
				" CDI spec directories:\n"
				"  /etc/cdi\n"
				"  /var/run/cdi\n"
				" Name: docker-desktop\n";
	struct dockerinfo di;
	assert_int_equal(dockerinfo_parse_text(t, sizeof t - 1, &di), 0);
	assert_false(di.json);
	assert_true(di.rootless);
	assert_true(dockerinfo_has_runtime(&di, "nvidia"));
	assert_int_equal(di.ncdi_dirs, 2);
	assert_string_equal(di.cdi_dirs[1], "/var/run/cdi");
	assert_string_equal(di.kernel, "5.15.167.4-microsoft-standard-WSL2");
	assert_true(di.desktop);

	static const char down[] = "Client:\n Context:    default\n\nServer:\n"
				   "ERROR: Cannot connect to the Docker daemon at "
				   "unix:///var/run/docker.sock. Is the docker daemon running?\n"
				   "errors pretty printing info\n";
	assert_int_equal(dockerinfo_parse_text(down, sizeof down - 1, &di), 0);
	assert_int_equal(di.nerrors, 1);
	assert_string_equal(di.server_version, "");
	assert_int_equal(dockerinfo_parse_text("hello\nworld: 1\n", 15, &di), -1);
}

/* ldconfig -p flags back to cache flags: 32-bit entries, hwcaps
 * subdirectories and words no ABI asks for are never taken. */
static void test_ldconfig_text_flags(void **state)
{
	(void)state;
	static const char t[] =
		"1712 libs found in cache `/etc/ld.so.cache'\n"
		"\tlibz.so.1 (libc6,x86-64, hwcap: \"x86-64-v3\") => /usr/lib/glibc-hwcaps/x86-64-v3/libz.so.1\n"
		"\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1\n"
		"\tlibfoo.so (libc6,IA-64) => /lib/libfoo.so\n"
		"\tlibcuda.so.1 (libc6) => /usr/lib/i386-linux-gnu/libcuda.so.1\n"
		"\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so.1\n"
		"\tlibc.so.6 (libc6,x86-64, OS ABI: Linux 3.2.0) => /lib/x86_64-linux-gnu/libc.so.6\n"
		"Cache generated by: ldconfig (Ubuntu GLIBC 2.35-0ubuntu3.8) stable release version 2.35\n";
	struct ldconfig_text lt;
	assert_int_equal(ldconfig_text_parse(t, sizeof t - 1, &lt), 6);
	assert_int_equal(lt.libs_found, 1712);
	assert_non_null(lt.cache.generator);
	int32_t x64 = ld_abi_x86_64.cache_flags;
	ssize_t i = ldcache_lookup(&lt.cache, "libz.so.1", x64);
	assert_true(i >= 0);
	assert_string_equal(lt.cache.e[i].path, "/lib/x86_64-linux-gnu/libz.so.1");
	i = ldcache_lookup(&lt.cache, "libcuda.so.1", x64);
	assert_true(i >= 0);
	assert_string_equal(lt.cache.e[i].path, "/usr/lib/wsl/lib/libcuda.so.1");
	assert_true(ldcache_lookup(&lt.cache, "libfoo.so", x64) < 0);
	assert_true(ldcache_lookup(&lt.cache, "libc.so.6", x64) >= 0);
	ldconfig_text_free(&lt);
}

/* /proc/mounts and mount(8) lines: escapes, spaces, quote marks. */
static void test_mounts_formats(void **state)
{
	(void)state;
	static const char t[] =
		"> D:\\134 /mnt/d 9p rw,noatime,aname=drvfs;path=D:\\;uid=1000,trans=virtio 0 0\n"
		"/dev/sdc /mnt/my\\040data ext4 rw,relatime 0 0\n"
		"C:\\ on /mnt/c type 9p (rw,noatime,aname=drvfs;path=C:\\;symlinkroot=/mnt/)\n"
		"none on /mnt/wsl type tmpfs (rw,relatime)\n"
		"garbage line\n"
		"a b c d e f\n";
	struct mountinfo mi;
	assert_int_equal(mounts_parse(t, sizeof t - 1, &mi), 4);
	assert_int_equal(mi.bad_lines, 2);
	assert_string_equal(mi.m[0].source, "D:\\");
	assert_true(mountinfo_windows_drive(&mi.m[0], NULL));
	assert_string_equal(mi.m[1].mount_point, "/mnt/my data");
	assert_string_equal(mountinfo_find(&mi, "/mnt/c/Users")->fstype, "9p");
	assert_true(mountinfo_windows_drive(mountinfo_find(&mi, "/mnt/c"), NULL));
	assert_false(mountinfo_windows_drive(mountinfo_find(&mi, "/mnt/wsl"), NULL));
	mountinfo_free(&mi);
}

/* .wslconfig as WSL's own parser reads it, not as an INI library would:
 * the Fedora-Remix thread's ';' lines and dashed section were warnings. */
static void test_wslconfig_wsl_grammar(void **state)
{
	(void)state;
	struct wslconfig wc;
	/* " ; ..." is part of the value: WSL cannot read "8GB ; limit". */
	static const char semi[] = "[wsl2]\nmemory=8GB ; limit\n";
	wslconfig_check(semi, sizeof semi - 1, &wc);
	assert_false(wc.memory.set);
	assert_int_equal(wc.nissues, 1);
	assert_int_equal(wc.issues[0].kind, WC_BAD_SIZE);
	wslconfig_free(&wc);
	/* An invalid [section] keeps the previous one: memory is wsl2's. */
	static const char dash[] = "[wsl2]\n[wsl-2]\nmemory=4GB\n";
	wslconfig_check(dash, sizeof dash - 1, &wc);
	assert_true(wc.memory.set && wc.memory.val == 4ULL << 30);
	assert_int_equal(wc.issues[0].kind, WC_SYNTAX);
	assert_int_equal(wc.issues[0].line, 2);
	wslconfig_free(&wc);
	/* "C:\Users" has the unknown escape \U: WSL skips the line, so the
	 * next kernel= is the first it reads (no duplicate). */
	static const char bs[] = "[wsl2]\nkernel=C:\\Users\\me\\bzImage\nkernel=C:\\\\k\n";
	wslconfig_check(bs, sizeof bs - 1, &wc);
	assert_string_equal(wc.kernel.text, "C:\\k");
	assert_int_equal(wc.nissues, 1);
	assert_int_equal(wc.issues[0].line, 2);
	assert_non_null(strstr(wc.issues[0].msg, "\\U"));
	wslconfig_free(&wc);
	/* An unclosed quote skips the line; a backslash at the end of a line
	 * continues the value; a key needs '=' right after its name. */
	static const char misc[] = "[wsl2]\nswap=\"4GB\nmemory=4\\\nGB\nprocessors 4\n";
	wslconfig_check(misc, sizeof misc - 1, &wc);
	assert_false(wc.swap.set);
	assert_true(wc.memory.set && wc.memory.val == 4ULL << 30);
	assert_int_equal(wc.memory.line, 3);
	assert_false(wc.processors.set);
	assert_int_equal(wc.nissues, 2);
	assert_int_equal(wc.issues[1].line, 5);
	wslconfig_free(&wc);
}

static int count_rows(const struct dpkg_pkg *p, void *arg)
{
	(void)p;
	(*(int *)arg)++;
	return 0;
}

/* dpkg -l state letters; headers and other lines are no rows. */
static void test_dpkglist_states(void **state)
{
	(void)state;
	static const char t[] = "||/ Name   Version  Architecture Description\n"
				"+++-======-========-============-===========\n"
				"iU  libnvidia-compute-550:amd64 550.54.15-0ubuntu1 amd64 x\n"
				"iF  nvidia-utils-550 550.54.15-0ubuntu1 amd64 x\n"
				"iiR nvidia-dkms-550 550.54.15-0ubuntu1 amd64 x\n"
				"pn  cuda-drivers <none> <none> (no description available)\n"
				"xx  not-a-state 1.0 amd64 x\n"
				"ii  Bad_Name 1.0 amd64 x\n"
				"  ii  indented 1.0 amd64 x\n";
	struct dpkg_rows *r = calloc(1, sizeof *r);
	assert_non_null(r);
	dpkglist_each(t, sizeof t - 1, keep_row, r);
	assert_int_equal(r->n, 4);
	assert_true(dpkglist_present(&r->row[0]));
	assert_int_equal(r->row[0].name.n, strlen("libnvidia-compute-550"));
	assert_true(dpkglist_present(&r->row[1]));
	assert_true(dpkglist_present(&r->row[2]));
	assert_false(dpkglist_present(&r->row[3]));
	free(r);
	int n = 0;
	assert_int_equal(dpkglist_each("ii", 2, count_rows, &n), 0);
	assert_int_equal(n, 0);
}

/* pip's forms, PEP 503 names and the wheels' CUDA labels. */
static void test_pip_forms(void **state)
{
	(void)state;
	static const char t[] = "torch==2.3.1+cu121\n"
				"mylib @ file:///home/me/mylib\n"
				"-e git+https://github.com/x/y.git@abc#egg=y\n"
				"Torch_Vision===0.18.1\n"
				"numpy 1.26.4\n"
				"Is debug build: False\n"
				"GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090\n";
	struct piplist pl;
	assert_int_equal(piplist_parse(t, sizeof t - 1, &pl), 4);
	assert_non_null(piplist_find(&pl, "torch", false));
	assert_string_equal(piplist_find(&pl, "torch.vision", false)->version, "0.18.1");
	assert_string_equal(piplist_find(&pl, "MyLib", false)->version, "");
	assert_string_equal(piplist_find(&pl, "numpy", false)->version, "1.26.4");
	assert_null(piplist_find(&pl, "numpy", true));
	piplist_free(&pl);

	char c[16];
	piplist_torch_cuda("2.3.1+cu121", c, sizeof c);
	assert_string_equal(c, "12.1");
	piplist_torch_cuda("1.8.1+cu102", c, sizeof c);
	assert_string_equal(c, "10.2");
	piplist_torch_cuda("1.4.0+cu92", c, sizeof c);
	assert_string_equal(c, "9.2");
	piplist_torch_cuda("2.9.0+cu130", c, sizeof c);
	assert_string_equal(c, "13.0");
	piplist_torch_cuda("2.2.0+cpu", c, sizeof c);
	assert_string_equal(c, "cpu");
	piplist_torch_cuda("2.4.0+rocm6.1", c, sizeof c);
	assert_string_equal(c, "rocm6.1");
	piplist_torch_cuda("2.3.1", c, sizeof c);
	assert_string_equal(c, "");
	piplist_torch_cuda("2.3.1+cu1x", c, sizeof c);
	assert_string_equal(c, "");
	assert_true(piplist_is_nvidia_wheel("nvidia-cudnn-cu12"));
	assert_true(piplist_is_nvidia_wheel("nvidia_cublas_cu11"));
	assert_false(piplist_is_nvidia_wheel("nvidia-ml-py"));
	assert_false(piplist_is_nvidia_wheel("nvidia-cu12"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_outputs),
		cmocka_unit_test(test_nvsmi_q_blocks),
		cmocka_unit_test(test_nvsmi_indented_rows),
		cmocka_unit_test(test_dockerinfo_text_lists),
		cmocka_unit_test(test_ldconfig_text_flags),
		cmocka_unit_test(test_mounts_formats),
		cmocka_unit_test(test_wslconfig_wsl_grammar),
		cmocka_unit_test(test_dpkglist_states),
		cmocka_unit_test(test_pip_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
