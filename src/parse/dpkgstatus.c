/* dpkgstatus.c: dpkg's status database and GPU package classes. See dpkgstatus.h. */
#include "dpkgstatus.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/rootfs.h"
#include "../core/text.h"
#include "dpkg.h"

static bool field_is(const char *line, size_t n, const char *name, size_t *value_at)
{
	size_t l = strlen(name);
	if (n <= l || line[l] != ':' || strncasecmp(line, name, l) != 0)
		return false;
	size_t i = l + 1;
	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	*value_at = i;
	return true;
}

/* The fields a struct dpkg_pkg keeps, in its order: name, status,
 * version, provides, arch. */
static const char *const kept_fields[] = { "Package", "Status", "Version", "Provides",
					   "Architecture" };

/* Which of them the field line l[0..n) is (its value at *value_at), or -1.
 * Each line of the status file is asked: the first letter first. */
static int kept_field(const char *l, size_t n, size_t *value_at)
{
	char c = n ? (char)(l[0] | 0x20) : 0;
	for (int k = 0; k < 5; k++)
		if (c == (kept_fields[k][0] | 0x20) && field_is(l, n, kept_fields[k], value_at))
			return k;
	return -1;
}

static void trim_span(struct dpkg_span *s)
{
	while (s->n && (s->p[s->n - 1] == ' ' || s->p[s->n - 1] == '\t' || s->p[s->n - 1] == '\r'))
		s->n--;
}

int dpkgstatus_each(const char *buf, size_t len,
		    int (*fn)(const struct dpkg_pkg *pkg, void *arg), void *arg)
{
	struct dpkg_pkg pkg;
	memset(&pkg, 0, sizeof pkg);
	bool in_stanza = false;
	struct dpkg_span *last = NULL; /* the field a continuation line extends */
	size_t pos = 0;
	int line = 0;
	while (buf && pos <= len) {
		const char *nl = pos < len ? memchr(buf + pos, '\n', len - pos) : NULL;
		size_t end = nl ? (size_t)(nl - buf) : len;
		const char *l = buf + pos;
		size_t ll = end - pos;
		bool at_end = pos >= len;
		pos = end + 1;
		line++;
		size_t blank = 0;
		while (blank < ll && (l[blank] == ' ' || l[blank] == '\t' || l[blank] == '\r'))
			blank++;
		if (at_end || blank == ll) {
			if (in_stanza && pkg.name.n) {
				int rc = fn(&pkg, arg);
				if (rc)
					return rc;
			}
			memset(&pkg, 0, sizeof pkg);
			in_stanza = false;
			last = NULL;
			if (at_end)
				break;
			continue;
		}
		if (l[0] == ' ' || l[0] == '\t') {
			/* Continuation: extend the span to this line's end. Only
			 * fields we keep need it; the span stays inside buf. */
			if (last && last->p)
				last->n = (size_t)(l + ll - last->p);
			continue;
		}
		if (!in_stanza) {
			in_stanza = true;
			pkg.line = line;
		}
		size_t v;
		struct dpkg_span *const spans[5] = { &pkg.name, &pkg.status, &pkg.version,
						     &pkg.provides, &pkg.arch };
		int k = kept_field(l, ll, &v);
		struct dpkg_span *f = k >= 0 ? spans[k] : NULL;
		last = f;
		if (f) {
			f->p = l + v;
			f->n = ll - v;
			trim_span(f);
		}
	}
	/* A last stanza without a trailing newline. */
	if (in_stanza && pkg.name.n)
		return fn(&pkg, arg);
	return 0;
}

bool dpkgstatus_present(const struct dpkg_pkg *pkg)
{
	/* "want flag status": the status is the last word. */
	const char *p = pkg->status.p;
	size_t n = pkg->status.n;
	if (!p || !n)
		return true; /* no Status field: an old or hand-made file; assume yes */
	size_t s = n;
	while (s && p[s - 1] != ' ' && p[s - 1] != '\t')
		s--;
	const char *st = p + s;
	size_t sl = n - s;
	if ((sl == 13 && !memcmp(st, "not-installed", 13)) ||
	    (sl == 12 && !memcmp(st, "config-files", 12)))
		return false;
	return true;
}

/* The state letters of a dpkg -l row: desired, status, optional error flag. */
static bool list_state(const char *s, size_t n)
{
	/* strchr would also find the NUL that ends its set. */
	if (n < 2 || n > 3 || !s[0] || !s[1] || !strchr("uihrp", s[0]) || !strchr("ncHUFWti", s[1]))
		return false;
	return n == 2 || s[2] == 'R';
}

int dpkglist_each(const char *buf, size_t len,
		  int (*fn)(const struct dpkg_pkg *pkg, void *arg), void *arg)
{
	size_t pos = 0;
	int line = 0;
	const char *l;
	size_t ll;
	while (text_next_line(buf, len, &pos, &l, &ll)) {
		line++;
		/* The first four words; the description is the rest. */
		struct dpkg_span w[4];
		size_t nw = 0, i = 0;
		while (nw < 4 && i < ll) {
			while (i < ll && (l[i] == ' ' || l[i] == '\t' || l[i] == '\r'))
				i++;
			if (i >= ll)
				break;
			size_t s0 = i;
			while (i < ll && l[i] != ' ' && l[i] != '\t' && l[i] != '\r')
				i++;
			w[nw].p = l + s0;
			w[nw].n = i - s0;
			nw++;
		}
		if (nw < 4 || w[0].p != l || !list_state(w[0].p, w[0].n))
			continue;
		const char *colon = memchr(w[1].p, ':', w[1].n);
		size_t name_n = colon ? (size_t)(colon - w[1].p) : w[1].n;
		if (!dpkg_valid_name(w[1].p, name_n))
			continue;
		struct dpkg_pkg pkg;
		memset(&pkg, 0, sizeof pkg);
		pkg.status = w[0];
		pkg.name.p = w[1].p;
		pkg.name.n = name_n;
		pkg.version = w[2];
		pkg.arch = w[3];
		pkg.line = line;
		int rc = fn(&pkg, arg);
		if (rc)
			return rc;
	}
	return 0;
}

bool dpkglist_present(const struct dpkg_pkg *pkg)
{
	return pkg->status.n >= 2 && pkg->status.p[1] != 'n' && pkg->status.p[1] != 'c';
}

bool dpkgstatus_provides(const struct dpkg_pkg *pkg, const char *name)
{
	size_t l = strlen(name);
	const char *p = pkg->provides.p;
	size_t n = pkg->provides.n;
	size_t i = 0;
	while (p && i < n) {
		while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == ',' || p[i] == '\n' ||
				 p[i] == '\r'))
			i++;
		size_t s = i;
		while (i < n && p[i] != ' ' && p[i] != '\t' && p[i] != ',' && p[i] != '(' &&
		       p[i] != '\n' && p[i] != '\r' && p[i] != ':')
			i++;
		if (i - s == l && !memcmp(p + s, name, l))
			return true;
		/* Skip a version restriction "(= 1.2)" and an ":any" qualifier. */
		while (i < n && p[i] != ',')
			i++;
	}
	return false;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* "cuda-12-4" style: prefix followed by digits-dash-digits and nothing else. */
static bool versioned(const char *s, const char *prefix)
{
	if (!has_prefix(s, prefix))
		return false;
	s += strlen(prefix);
	int parts = 0;
	for (;;) {
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
		parts++;
		if (!*s)
			return parts == 2;
		if (*s++ != '-')
			return false;
	}
}

enum gpupkg_kind gpupkg_classify(const char *name, const char *provides, size_t plen)
{
	if (!name)
		return GPUPKG_OTHER;
	/* Every name below has one of these words: the other thousand
	 * packages of a desktop are asked once, not two dozen times. */
	if (!strstr(name, "nvidia") && !strstr(name, "cuda"))
		goto by_provides;
	/* The toolkit itself is what WSL should have. */
	if (!strcmp(name, "cuda-toolkit") || has_prefix(name, "cuda-toolkit-") ||
	    !strcmp(name, "nvidia-cuda-toolkit"))
		return GPUPKG_TOOLKIT;
	if (!strcmp(name, "cuda") || versioned(name, "cuda-") || versioned(name, "cuda-runtime-") ||
	    !strcmp(name, "cuda-runtime") || !strcmp(name, "cuda-drivers") ||
	    has_prefix(name, "cuda-drivers-"))
		return GPUPKG_META;
	if (has_prefix(name, "libnvidia-compute-") || !strcmp(name, "libcuda1") ||
	    has_prefix(name, "libcuda1-") || !strcmp(name, "libnvidia-ml1") ||
	    !strcmp(name, "nvidia-libopencl1") || !strcmp(name, "libnvidia-ptxjitcompiler1") ||
	    has_prefix(name, "libnvidia-tesla-"))
		return GPUPKG_LIBCUDA; /* Debian's: the PTX JIT libcuda loads, tesla-NNN's libraries */
	size_t nl = strlen(name);
	if (has_prefix(name, "nvidia-utils-") || !strcmp(name, "nvidia-smi") ||
	    has_prefix(name, "nvidia-compute-utils-") ||
	    (has_prefix(name, "nvidia-tesla-") && nl > 4 && !strcmp(name + nl - 4, "-smi")))
		return GPUPKG_UTILS;
	if (!strcmp(name, "nvidia-driver") || has_prefix(name, "nvidia-driver-") ||
	    has_prefix(name, "nvidia-dkms-") || !strcmp(name, "nvidia-kernel-dkms") ||
	    has_prefix(name, "nvidia-kernel-") || has_prefix(name, "nvidia-headless-") ||
	    has_prefix(name, "linux-modules-nvidia-") || has_prefix(name, "linux-objects-nvidia-") ||
	    has_prefix(name, "xserver-xorg-video-nvidia") || !strcmp(name, "nvidia-open") ||
	    has_prefix(name, "nvidia-open-"))
		return GPUPKG_DRIVER;
by_provides:
	if (provides && plen) {
		struct dpkg_pkg p;
		memset(&p, 0, sizeof p);
		p.provides.p = provides;
		p.provides.n = plen;
		if (dpkgstatus_provides(&p, "libcuda.so.1") || dpkgstatus_provides(&p, "libcuda1") ||
		    dpkgstatus_provides(&p, "libnvidia-ml.so.1"))
			return GPUPKG_LIBCUDA;
	}
	return GPUPKG_OTHER;
}

const char *gpupkg_kind_name(enum gpupkg_kind k)
{
	switch (k) {
	case GPUPKG_DRIVER: return "driver";
	case GPUPKG_UTILS: return "utils";
	case GPUPKG_LIBCUDA: return "libcuda";
	case GPUPKG_META: return "meta";
	case GPUPKG_TOOLKIT: return "toolkit";
	default: return "other";
	}
}

/* ---- the status file, read once per process ---- */

/* A big system's status file is a few MB; a bigger one is cut, and said. */
#define STATUS_CAP (64u << 20)

static struct {
	bool read;
	struct dpkgstatus_info info;
	struct rootfs_view text; /* the whole file: the kept spans point into it */
	struct dpkg_pkg *v;
	size_t n, alloc;
} st;

static int keep_pkg(const struct dpkg_pkg *pkg, void *arg)
{
	(void)arg;
	if (st.n == st.alloc) {
		st.alloc = st.alloc ? 2 * st.alloc : 256;
		st.v = xrealloc(st.v, st.alloc * sizeof *st.v);
	}
	st.v[st.n++] = *pkg;
	return 0;
}

/* The whole file viewed in place (mapped) and one pass over it, the
 * spans kept where they are: no stanza or field is copied (the file is ~1
 * MB on a desktop, read on the critical path of check). */
static void read_status(void)
{
	st.read = true;
	bool cut = false;
	int rc = rootfs_view(DPKG_STATUS_FILE, STATUS_CAP, &st.text, &cut);
	if (rc < 0) {
		st.info.err = rc;
		return;
	}
	st.info.cut = cut; /* and rootfs_view noted it */
	dpkgstatus_each(st.text.p, st.text.n, keep_pkg, NULL);
	st.info.packages = st.n;
}

int dpkgstatus_read_each(int (*fn)(const struct dpkg_pkg *pkg, void *arg), void *arg,
			 const struct dpkgstatus_info **info)
{
	if (!st.read)
		read_status();
	if (info)
		*info = &st.info;
	if (st.info.err < 0 && !st.n)
		return st.info.err;
	for (size_t i = 0; i < st.n; i++) {
		int rc = fn(&st.v[i], arg);
		if (rc)
			return rc;
	}
	return 0;
}

void dpkgstatus_reset(void)
{
	rootfs_view_release(&st.text);
	free(st.v);
	memset(&st, 0, sizeof st);
}
