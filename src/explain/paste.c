/* paste.c: what a pasted ldconfig -p or pip listing shows (see paste.h). */
#include "paste.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parse/ldconfigp.h"
#include "../parse/piplist.h"

static const char *const sonames[2] = { "libcuda.so.1", "libnvidia-ml.so.1" };

static bool wsl_path(const char *p)
{
	return p && strncmp(p, "/usr/lib/wsl/", 13) == 0;
}

static void read_ldconfig(const char *buf, size_t len, struct paste *p)
{
	/* Every entry of the listing has ") => " and its header "libs found
	 * in cache": a paste with neither has none, and is not copied and
	 * parsed (for a big log, megabytes) to learn that. */
	if (!memmem(buf, len, ") => ", 5) && !memmem(buf, len, " libs found in cache ", 21))
		return;
	struct ldconfig_text t;
	ldconfig_text_parse(buf, len, &t);
	p->ld_entries = t.cache.n;
	p->ld_full = t.libs_found >= 0;
	for (int k = 0; k < 2 && t.cache.n; k++) {
		struct paste_lib *l = &p->lib[k];
		l->soname = sonames[k];
		/* the loader's pick for this machine's ABI: x86-64, else AArch64 */
		ssize_t at = ldcache_lookup(&t.cache, sonames[k],
					    LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_X8664_LIB64);
		if (at < 0)
			at = ldcache_lookup(&t.cache, sonames[k],
					    LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_AARCH64_LIB64);
		if (at >= 0)
			l->taken = xstrdup(t.cache.e[at].path);
		for (size_t i = 0; i < t.cache.n && l->nother < PASTE_COPIES; i++)
			if ((ssize_t)i != at && strcmp(t.cache.e[i].name, sonames[k]) == 0 &&
			    (!l->taken || strcmp(t.cache.e[i].path, l->taken) != 0))
				l->other[l->nother++] = xstrdup(t.cache.e[i].path);
	}
	ldconfig_text_free(&t);
}

/* "nvidia-cudnn-cu12" -> 12 (0 when the name has no -cuNN). */
static int wheel_cuda(const char *name)
{
	const char *c = strstr(name, "-cu");
	int v = 0;
	while (c) {
		v = atoi(c + 3);
		c = strstr(c + 3, "-cu");
	}
	return v;
}

static void read_pip(const char *buf, size_t len, struct paste *p)
{
	struct piplist pl;
	piplist_parse(buf, len, &pl);
	const struct pip_pkg *t = piplist_find(&pl, "torch", false);
	if (t) {
		snprintf(p->torch, sizeof p->torch, "%s", t->version);
		piplist_torch_cuda(t->version, p->torch_cuda, sizeof p->torch_cuda);
	}
	int major = 0;
	for (size_t i = 0; i < pl.n; i++) {
		const struct pip_pkg *x = &pl.p[i];
		if (x->conda || !piplist_is_nvidia_wheel(x->name))
			continue;
		int cu = wheel_cuda(x->name);
		if (cu && major && cu != major)
			p->mixed_cuda = true;
		if (cu && !major)
			major = cu;
		if (p->nwheel == PASTE_WHEELS) {
			p->more_wheels++;
			continue;
		}
		snprintf(p->wheel[p->nwheel].name, sizeof p->wheel[0].name, "%s", x->name);
		snprintf(p->wheel[p->nwheel].version, sizeof p->wheel[0].version, "%s", x->version);
		p->nwheel++;
	}
	piplist_free(&pl);
}

void paste_read(const char *buf, size_t len, struct paste *p)
{
	memset(p, 0, sizeof *p);
	p->lib[0].soname = sonames[0];
	p->lib[1].soname = sonames[1];
	if (!len)
		return;
	read_ldconfig(buf, len, p);
	read_pip(buf, len, p);
}

static bool lib_said(const struct paste *p, int k)
{
	/* a listing that names it, or a whole one that does not */
	return p->ld_entries && (p->lib[k].taken || p->lib[k].nother || p->ld_full);
}

bool paste_any(const struct paste *p)
{
	return lib_said(p, 0) || lib_said(p, 1) || p->torch[0] || p->nwheel;
}

void paste_text(struct strbuf *out, const struct paste *p)
{
	if (!paste_any(p))
		return;
	sb_add(out, "  In the pasted listings:\n");
	for (int k = 0; k < 2; k++) {
		const struct paste_lib *l = &p->lib[k];
		if (!lib_said(p, k))
			continue;
		if (!l->taken) {
			sb_addf(out, "    ldconfig -p: no %s for this ABI in the cache%s\n", l->soname,
				l->nother ? " (only other ABIs' copies)" : "");
			continue;
		}
		sb_addf(out, "    ldconfig -p: the loader takes %s => ", l->soname);
		text_sanitize_line(out, l->taken);
		sb_addf(out, "%s\n", wsl_path(l->taken) ? " (WSL's copy)" : "");
		for (size_t i = 0; i < l->nother; i++) {
			sb_add(out, "                 also listed: ");
			text_sanitize_line(out, l->other[i]);
			sb_addc(out, '\n');
		}
		bool wsl_listed = false;
		for (size_t i = 0; i < l->nother; i++)
			wsl_listed |= wsl_path(l->other[i]);
		if (!wsl_path(l->taken) && wsl_listed)
			sb_addf(out, "                 a Linux driver's copy comes before WSL's:\n"
				     "                 wslgpu kb libs.loader.distro_package\n");
	}
	if (p->torch[0]) {
		sb_add(out, "    pip: torch ");
		text_sanitize_line(out, p->torch);
		if (!strcmp(p->torch_cuda, "cpu"))
			sb_add(out, " (a CPU-only build: it cannot use the GPU)");
		else if (p->torch_cuda[0]) {
			sb_add(out, " (built for CUDA ");
			text_sanitize_line(out, p->torch_cuda);
			sb_add(out, ")");
		}
		sb_addc(out, '\n');
	}
	if (p->nwheel) {
		size_t line = out->len;
		sb_addf(out, "    pip: %zu CUDA wheel%s:", p->nwheel + p->more_wheels,
			p->nwheel + p->more_wheels == 1 ? "" : "s");
		struct strbuf w = STRBUF_INIT;
		for (size_t i = 0; i < p->nwheel; i++) {
			sb_reset(&w);
			text_sanitize_line(&w, p->wheel[i].name);
			sb_addc(&w, ' ');
			text_sanitize_line(&w, p->wheel[i].version);
			if (i + 1 < p->nwheel || p->more_wheels)
				sb_addc(&w, ',');
			/* 80 columns: a wheel that would cross them starts a line */
			if (out->len - line + 1 + w.len > 79) {
				sb_add(out, "\n        ");
				line = out->len - 8;
			}
			sb_addc(out, ' ');
			sb_addn(out, w.buf, w.len);
		}
		sb_release(&w);
		if (p->more_wheels)
			sb_addf(out, " and %zu more", p->more_wheels);
		sb_addc(out, '\n');
		if (p->mixed_cuda)
			sb_add(out, "         wheels of two CUDA majors (-cu11 with -cu12 or -cu13):\n"
				    "         each framework loads its own; pip check lists conflicts\n");
	}
}

void paste_json(struct json_writer *jw, const struct paste *p)
{
	if (!paste_any(p)) {
		jw_kv_null(jw, "pasted");
		return;
	}
	jw_kv_object(jw, "pasted");
	if (p->ld_entries) {
		jw_kv_object(jw, "ldconfig_p");
		jw_kv_uint(jw, "entries", p->ld_entries);
		for (int k = 0; k < 2; k++) {
			const struct paste_lib *l = &p->lib[k];
			if (!lib_said(p, k))
				continue;
			jw_kv_object(jw, l->soname);
			jw_kv_str(jw, "taken", l->taken);
			jw_kv_bool(jw, "wsl", wsl_path(l->taken));
			jw_kv_strings(jw, "also", (const char *const *)l->other, l->nother);
			jw_end(jw);
		}
		jw_end(jw);
	}
	if (p->torch[0] || p->nwheel) {
		jw_kv_object(jw, "pip");
		jw_kv_str(jw, "torch", p->torch[0] ? p->torch : NULL);
		jw_kv_str(jw, "torch_cuda", p->torch_cuda[0] ? p->torch_cuda : NULL);
		jw_kv_array(jw, "cuda_wheels");
		for (size_t i = 0; i < p->nwheel; i++) {
			jw_object_begin(jw);
			jw_kv_str(jw, "name", p->wheel[i].name);
			jw_kv_str(jw, "version", p->wheel[i].version);
			jw_end(jw);
		}
		jw_end(jw);
		jw_kv_bool(jw, "mixed_cuda", p->mixed_cuda);
		jw_end(jw);
	}
	jw_end(jw);
}

void paste_free(struct paste *p)
{
	for (int k = 0; k < 2; k++) {
		free(p->lib[k].taken);
		for (size_t i = 0; i < p->lib[k].nother; i++)
			free(p->lib[k].other[i]);
	}
	memset(p, 0, sizeof *p);
}
