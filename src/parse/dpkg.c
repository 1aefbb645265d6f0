/* dpkg.c: dpkg's .list files. See dpkg.h. */
#include "dpkg.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/rootfs.h"

int dpkg_list_each(const char *buf, size_t len,
		   int (*fn)(const char *line, size_t n, void *arg), void *arg)
{
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		size_t n = end - pos;
		if (n && buf[pos + n - 1] == '\r')
			n--;
		if (n) {
			int rc = fn(buf + pos, n, arg);
			if (rc)
				return rc;
		}
		pos = end + 1;
	}
	return 0;
}

struct has_arg {
	const char *path;
	size_t n;
};

static int has_line(const char *line, size_t n, void *arg)
{
	const struct has_arg *a = arg;
	return n == a->n && memcmp(line, a->path, n) == 0;
}

bool dpkg_list_has(const char *buf, size_t len, const char *path)
{
	struct has_arg a = { path, strlen(path) };
	return a.n && dpkg_list_each(buf, len, has_line, &a) == 1;
}

bool dpkg_valid_name(const char *s, size_t n)
{
	/* Debian policy 5.6.1: at least two characters, lower case letters,
	 * digits, '+', '-', '.', starting with an alphanumeric. */
	if (n < 2 || n > 200)
		return false;
	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
		return false;
	for (size_t i = 1; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
		      c == '.'))
			return false;
	}
	return true;
}

int dpkg_list_package(const char *fname, struct strbuf *pkg)
{
	sb_reset(pkg);
	size_t n = strlen(fname);
	if (n <= 5 || strcmp(fname + n - 5, ".list") != 0)
		return -EINVAL;
	n -= 5;
	const char *colon = memchr(fname, ':', n);
	size_t name_len = colon ? (size_t)(colon - fname) : n;
	if (!dpkg_valid_name(fname, name_len))
		return -EINVAL;
	if (colon) {
		/* The architecture qualifier: amd64, i386, arm64, all, ... */
		size_t alen = n - name_len - 1;
		if (alen == 0 || alen > 32)
			return -EINVAL;
		for (size_t i = 0; i < alen; i++) {
			char c = colon[1 + i];
			if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
				return -EINVAL;
		}
	}
	sb_addn(pkg, fname, name_len);
	return 0;
}

/* ---- the owner index ---- */

#define INDEX_MAX_LISTS 50000
#define INDEX_MAX_BYTES (256u << 20) /* of .list text read, all lists together */

/* One path of the index in 8 bytes: the top 40 bits of its hash, and the
 * owning package + 1 in the low 24. A path that is not in the index is
 * taken for one that is with odds of about 1 in 10^12 per question. The
 * entries are appended as the lists are read, then radix-sorted by tag
 * (stable, so the first list that names a path stays first): sequential
 * passes, where a hash table's random writes cost a cache miss a path. */
typedef uint64_t slot_t;
#define SLOT_PKG_BITS 24
#define SLOT_PKG_MASK ((1u << SLOT_PKG_BITS) - 1)
#define SLOT_TAG(h) ((h) & ~(uint64_t)SLOT_PKG_MASK)

struct kept_path {
	uint32_t pkg;
	char *path;
};

static struct {
	bool built;
	size_t builds;
	struct dpkg_index_info info;
	char **pkgs;
	size_t npkgs, apkgs;
	slot_t *tab;
	size_t used, cap;
	struct kept_path *kept;
	size_t nkept, akept;
} ix;

static uint64_t mix64(uint64_t h)
{
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

/* A 64-bit hash of the path, 8 bytes at a time, finished by splitmix64's
 * finaliser. */
static uint64_t hash_path(const char *s, size_t n)
{
	uint64_t h = 0x243f6a8885a308d3ULL ^ n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 32;
	}
	uint64_t w = 0;
	memcpy(&w, s + i, n - i);
	return mix64((h ^ w) * 0x9e3779b97f4a7c15ULL);
}

/* LSD radix sort of v by the 40 tag bits, 10 bits a pass, stable. */
static void sort_tags(slot_t *v, size_t n)
{
	if (!n)
		return;
	slot_t *tmp = xmalloc(n * sizeof *tmp);
	for (int shift = SLOT_PKG_BITS; shift < 64; shift += 10) {
		size_t count[1025] = { 0 };
		for (size_t i = 0; i < n; i++)
			count[((v[i] >> shift) & 1023) + 1]++;
		for (size_t d = 1; d < 1025; d++)
			count[d] += count[d - 1];
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i] >> shift) & 1023]++] = v[i];
		memcpy(v, tmp, n * sizeof *v);
	}
	free(tmp);
}

/* The first entry with h's tag, or NULL. */
static const slot_t *find_tag(uint64_t h)
{
	size_t lo = 0, hi = ix.used;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (SLOT_TAG(ix.tab[mid]) < SLOT_TAG(h))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix.used && SLOT_TAG(ix.tab[lo]) == SLOT_TAG(h) ? &ix.tab[lo] : NULL;
}

/* The paths kept whole, for questions that are not exact lookups: kernel
 * modules (a .ko by name) and DKMS sources. */
static bool kept_whole(const char *p, size_t n)
{
	return (n > 13 && !memcmp(p, "/lib/modules/", 13)) ||
	       (n > 17 && !memcmp(p, "/usr/lib/modules/", 17)) ||
	       (n > 9 && !memcmp(p, "/usr/src/", 9));
}

static void index_path(uint32_t pkg, const char *p, size_t n)
{
	/* Only absolute paths: junk in a damaged list is no file of anyone's. */
	if (!n || p[0] != '/' || memchr(p, '\0', n))
		return;
	while (n > 1 && p[n - 1] == '/')
		n--;
	if (ix.used == ix.cap) {
		ix.cap = ix.cap ? 2 * ix.cap : 1u << 14;
		ix.tab = xrealloc(ix.tab, ix.cap * sizeof *ix.tab);
	}
	ix.tab[ix.used++] = SLOT_TAG(hash_path(p, n)) | (pkg + 1);
	if (kept_whole(p, n)) {
		if (ix.nkept == ix.akept) {
			ix.akept = ix.akept ? 2 * ix.akept : 256;
			ix.kept = xrealloc(ix.kept, ix.akept * sizeof *ix.kept);
		}
		ix.kept[ix.nkept].pkg = pkg;
		ix.kept[ix.nkept++].path = xstrndup(p, n);
	}
}

static void build_index(void)
{
	ix.built = true;
	ix.builds++;
	struct dpkg_index_info *in = &ix.info;
	DIR *d = rootfs_opendir(DPKG_INFO_DIR);
	if (!d)
		return;
	in->present = true;
	struct strbuf path = STRBUF_INIT, pkg = STRBUF_INIT;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (dpkg_list_package(de->d_name, &pkg) < 0)
			continue;
		if (in->lists >= INDEX_MAX_LISTS || ix.npkgs >= SLOT_PKG_MASK - 1 || in->bytes >= INDEX_MAX_BYTES) {
			in->capped = true;
			break;
		}
		in->lists++;
		sb_reset(&path);
		sb_addf(&path, "%s/%s", DPKG_INFO_DIR, de->d_name);
		struct rootfs_lines l;
		int orc = de->d_type == DT_REG ? rootfs_lines_openat(&l, d, de->d_name, path.buf)
					       : rootfs_lines_open(&l, path.buf);
		if (orc < 0) {
			in->unreadable++;
			continue;
		}
		if (ix.npkgs == ix.apkgs) {
			ix.apkgs = ix.apkgs ? 2 * ix.apkgs : 256;
			ix.pkgs = xrealloc(ix.pkgs, ix.apkgs * sizeof *ix.pkgs);
		}
		uint32_t id = (uint32_t)ix.npkgs;
		ix.pkgs[ix.npkgs++] = xstrdup(pkg.buf);
		while (in->bytes < INDEX_MAX_BYTES && rootfs_lines_next(&l) > 0) {
			in->bytes += l.len + 1;
			size_t n = l.len;
			if (n && l.line[n - 1] == '\r')
				n--;
			index_path(id, l.line, n);
		}
		if (l.err < 0)
			in->unreadable++;
		rootfs_lines_close(&l);
	}
	closedir(d);
	if (in->capped || in->bytes >= INDEX_MAX_BYTES) {
		in->capped = true;
		struct strbuf w = STRBUF_INIT;
		sb_addf(&w, "stopped after %zu package lists and %zu MiB of them: owners of files in "
			    "the rest are unknown", in->lists, in->bytes >> 20);
		rootfs_note_cut(DPKG_INFO_DIR, w.buf);
		sb_release(&w);
	}
	sort_tags(ix.tab, ix.used);
	/* A path in several lists (directories): the first one stays. */
	size_t w = 0;
	for (size_t i = 0; i < ix.used; i++)
		if (!w || SLOT_TAG(ix.tab[i]) != SLOT_TAG(ix.tab[w - 1]))
			ix.tab[w++] = ix.tab[i];
	ix.used = w;
	in->paths = ix.used;
	sb_release(&path);
	sb_release(&pkg);
}

const struct dpkg_index_info *dpkg_index(void)
{
	if (!ix.built)
		build_index();
	return &ix.info;
}

const char *const *dpkg_index_packages(size_t *n)
{
	dpkg_index();
	*n = ix.npkgs;
	return (const char *const *)ix.pkgs;
}

size_t dpkg_index_builds(void)
{
	return ix.builds;
}

const char *dpkg_index_owner(const char *path)
{
	dpkg_index();
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	const slot_t *sl = find_tag(hash_path(path, n));
	return sl ? ix.pkgs[(*sl & SLOT_PKG_MASK) - 1] : NULL;
}

int dpkg_index_each(int (*fn)(const char *pkg, const char *path, size_t n, void *arg), void *arg)
{
	dpkg_index();
	for (size_t i = 0; i < ix.nkept; i++) {
		int rc = fn(ix.pkgs[ix.kept[i].pkg], ix.kept[i].path, strlen(ix.kept[i].path), arg);
		if (rc)
			return rc;
	}
	return 0;
}

void dpkg_index_reset(void)
{
	for (size_t i = 0; i < ix.npkgs; i++)
		free(ix.pkgs[i]);
	for (size_t i = 0; i < ix.nkept; i++)
		free(ix.kept[i].path);
	free(ix.pkgs);
	free(ix.tab);
	free(ix.kept);
	size_t builds = ix.builds;
	memset(&ix, 0, sizeof ix);
	ix.builds = builds;
}
