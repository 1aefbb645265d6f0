/* aptsources.c: apt repository entries and NVIDIA's CUDA repositories. See aptsources.h. */
#include "aptsources.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/strbuf.h"
#include "../core/text.h"

#define URI_MAX 1024

enum aptrepo_kind aptrepo_classify(const char *uri, char *flavour, size_t n)
{
	if (n)
		flavour[0] = '\0';
	if (!uri)
		return APTREPO_OTHER;
	static const char repos[] = "/compute/cuda/repos/";
	const char *r = strstr(uri, repos);
	if (r && strstr(uri, "nvidia.com")) {
		r += sizeof repos - 1;
		size_t l = strcspn(r, "/");
		if (n) {
			size_t k = l < n - 1 ? l : n - 1;
			memcpy(flavour, r, k);
			flavour[k] = '\0';
		}
		return l == 10 && !strncmp(r, "wsl-ubuntu", 10) ? APTREPO_CUDA_WSL
								 : APTREPO_CUDA_LINUX;
	}
	/* The local installers: file:/var/cuda-repo-wsl-ubuntu-12-4-local,
	 * file:/var/cuda-repo-ubuntu2204-12-4-local. */
	const char *loc = strstr(uri, "cuda-repo-");
	if (loc && !strncmp(uri, "file:", 5)) {
		loc += 10;
		bool wsl = !strncmp(loc, "wsl-ubuntu", 10);
		if (n) {
			size_t l = wsl ? 10 : strcspn(loc, "-/");
			size_t k = l < n - 1 ? l : n - 1;
			memcpy(flavour, loc, k);
			flavour[k] = '\0';
		}
		return wsl ? APTREPO_CUDA_WSL : APTREPO_CUDA_LINUX;
	}
	if (strstr(uri, "nvidia.github.io/libnvidia-container") ||
	    strstr(uri, "nvidia.github.io/nvidia-docker") ||
	    strstr(uri, "nvidia.github.io/nvidia-container-runtime"))
		return APTREPO_CONTAINER;
	return APTREPO_OTHER;
}

const char *aptrepo_kind_name(enum aptrepo_kind k)
{
	switch (k) {
	case APTREPO_CUDA_WSL: return "cuda-wsl";
	case APTREPO_CUDA_LINUX: return "cuda-linux";
	case APTREPO_CONTAINER: return "container-toolkit";
	default: return "other";
	}
}

static int emit(const char *uri, size_t ul, bool enabled, bool src_only, int line,
		int (*fn)(const struct aptrepo *, void *), void *arg)
{
	if (!ul || ul >= URI_MAX)
		return 0;
	char copy[URI_MAX];
	memcpy(copy, uri, ul);
	copy[ul] = '\0';
	/* NULs or control bytes: not a URI anyone wrote. */
	for (size_t i = 0; i < ul; i++)
		if ((unsigned char)copy[i] < 0x20)
			return 0;
	char flavour[64];
	struct aptrepo r = { copy, flavour, APTREPO_OTHER, enabled, src_only, line };
	r.kind = aptrepo_classify(copy, flavour, sizeof flavour);
	return fn(&r, arg);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* deb [opts] URI suite... */
static int one_line(const char *l, size_t n, int line,
		    int (*fn)(const struct aptrepo *, void *), void *arg)
{
	const char *hash = memchr(l, '#', n);
	if (hash)
		n = (size_t)(hash - l);
	size_t i = 0;
	while (i < n && is_space(l[i]))
		i++;
	bool src;
	if (n - i > 4 && !memcmp(l + i, "deb", 3) && is_space(l[i + 3]))
		src = false;
	else if (n - i > 8 && !memcmp(l + i, "deb-src", 7) && is_space(l[i + 7]))
		src = true;
	else
		return 0;
	i += src ? 7 : 3;
	while (i < n && is_space(l[i]))
		i++;
	if (i < n && l[i] == '[') {
		const char *close = memchr(l + i, ']', n - i);
		if (!close)
			return 0;
		i = (size_t)(close - l) + 1;
		while (i < n && is_space(l[i]))
			i++;
	}
	size_t s = i;
	while (i < n && !is_space(l[i]))
		i++;
	return emit(l + s, i - s, true, src, line, fn, arg);
}

struct stanza {
	const char *uris;
	size_t uris_n;
	int uris_line;
	bool enabled;
	bool deb, deb_src;
	bool have_types;
};

static int flush_stanza(struct stanza *st, int (*fn)(const struct aptrepo *, void *), void *arg)
{
	int rc = 0;
	if (st->uris && (st->deb || st->deb_src || !st->have_types)) {
		const char *p = st->uris;
		size_t n = st->uris_n, i = 0;
		while (i < n && !rc) {
			while (i < n && (is_space(p[i]) || p[i] == '\n'))
				i++;
			size_t s = i;
			while (i < n && !is_space(p[i]) && p[i] != '\n')
				i++;
			if (i > s)
				rc = emit(p + s, i - s, st->enabled, !st->deb && st->deb_src,
					  st->uris_line, fn, arg);
		}
	}
	memset(st, 0, sizeof *st);
	st->enabled = true;
	return rc;
}

static bool key_is(const char *l, size_t n, const char *key, size_t *v)
{
	size_t k = strlen(key);
	if (n <= k || l[k] != ':' || strncasecmp(l, key, k))
		return false;
	size_t i = k + 1;
	while (i < n && is_space(l[i]))
		i++;
	*v = i;
	return true;
}

static bool word_in(const char *p, size_t n, const char *w)
{
	size_t wl = strlen(w), i = 0;
	while (i < n) {
		while (i < n && is_space(p[i]))
			i++;
		size_t s = i;
		while (i < n && !is_space(p[i]))
			i++;
		if (i - s == wl && !memcmp(p + s, w, wl))
			return true;
	}
	return false;
}

int aptsources_each(const char *buf, size_t len, bool is_deb822,
		    int (*fn)(const struct aptrepo *repo, void *arg), void *arg)
{
	struct stanza st;
	memset(&st, 0, sizeof st);
	st.enabled = true;
	bool in_uris = false;
	size_t pos = 0;
	int line = 0, rc = 0;
	const char *l;
	size_t n;
	while (!rc && text_next_line(buf, len, &pos, &l, &n)) {
		line++;
		if (!is_deb822) {
			rc = one_line(l, n, line, fn, arg);
			continue;
		}
		size_t b = 0;
		while (b < n && is_space(l[b]))
			b++;
		if (b == n) {
			rc = flush_stanza(&st, fn, arg);
			in_uris = false;
			continue;
		}
		if (l[0] == '#')
			continue;
		if (b > 0) {
			/* A continuation line: only URIs: spans several. */
			if (in_uris)
				st.uris_n = (size_t)(l + n - st.uris);
			continue;
		}
		in_uris = false;
		size_t v;
		if (key_is(l, n, "URIs", &v) || key_is(l, n, "URI", &v)) {
			st.uris = l + v;
			st.uris_n = n - v;
			st.uris_line = line;
			in_uris = true;
		} else if (key_is(l, n, "Types", &v)) {
			st.have_types = true;
			st.deb = word_in(l + v, n - v, "deb");
			st.deb_src = word_in(l + v, n - v, "deb-src");
		} else if (key_is(l, n, "Enabled", &v)) {
			st.enabled = !(n - v >= 2 && !strncasecmp(l + v, "no", 2));
		}
	}
	if (is_deb822 && !rc)
		rc = flush_stanza(&st, fn, arg);
	return rc;
}
