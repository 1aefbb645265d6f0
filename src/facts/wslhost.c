/* wslhost.c: wsl.conf, .wslconfig files and driver stores. See wslhost.h. */
#include "wslhost.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/rootfs.h"
#include "../parse/infver.h"
#include "../parse/version.h"

/* A DriverStore holds hundreds to a few thousand packages; more than this
 * is not a real machine. */
#define MAX_DIR_ENTRIES 16384

int wslhost_wsl_conf(struct inifile *ini)
{
	struct strbuf t = STRBUF_INIT;
	int rc = rootfs_read("/etc/wsl.conf", 1 << 20, &t, NULL);
	if (rc < 0)
		memset(ini, 0, sizeof *ini);
	else
		inifile_parse(t.buf, t.len, ini);
	sb_release(&t);
	return rc;
}

void wslhost_automount_root(struct strbuf *root)
{
	struct inifile ini;
	sb_reset(root);
	if (wslhost_wsl_conf(&ini) == 0) {
		const struct inifile_item *it = inifile_find(&ini, "automount", "root");
		if (it && it->value[0] == '/')
			sb_add(root, it->value);
		inifile_free(&ini);
	}
	if (!root->len)
		sb_add(root, "/mnt/");
	if (root->buf[root->len - 1] != '/')
		sb_addc(root, '/');
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **wslhost_wslconfigs(size_t *n)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	char **v = NULL;
	*n = 0;
	wslhost_automount_root(&dir);
	sb_add(&dir, "c/Users");
	DIR *d = rootfs_opendir(dir.buf);
	if (d) {
		struct dirent *de;
		size_t seen = 0;
		while ((de = readdir(d)) && seen++ < MAX_DIR_ENTRIES) {
			if (de->d_name[0] == '.')
				continue;
			sb_reset(&path);
			sb_addf(&path, "%s/%s/.wslconfig", dir.buf, de->d_name);
			struct stat st;
			if (rootfs_lstat(path.buf, &st) < 0)
				continue;
			v = xrealloc(v, (*n + 1) * sizeof *v);
			v[(*n)++] = xstrdup(path.buf);
		}
		closedir(d);
	}
	if (*n > 1)
		qsort(v, *n, sizeof *v, cmp_str);
	sb_release(&dir);
	sb_release(&path);
	return v;
}

void wslhost_free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void wslhost_windows_path(const char *guest, struct strbuf *out)
{
	struct strbuf root = STRBUF_INIT;
	wslhost_automount_root(&root);
	sb_reset(out);
	size_t rl = root.len;
	if (strncmp(guest, root.buf, rl) == 0 && isalpha((unsigned char)guest[rl]) &&
	    (guest[rl + 1] == '/' || guest[rl + 1] == '\0')) {
		sb_addc(out, (char)toupper((unsigned char)guest[rl]));
		sb_addc(out, ':');
		const char *rest = guest + rl + 1;
		if (!*rest)
			sb_addc(out, '\\');
		for (; *rest; rest++)
			sb_addc(out, *rest == '/' ? '\\' : *rest);
	} else {
		sb_add(out, guest);
	}
	sb_release(&root);
}

/* The .inf a store folder is named after ("nv_dispi.inf_amd64_x" ->
 * "nv_dispi.inf"), else the first *.inf in it. */
static char *find_inf(const char *folder, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	const char *dot = strcasestr(name, ".inf_");
	if (dot) {
		sb_addf(&p, "%s/%.*s", folder, (int)(dot - name + 4), name);
		if (rootfs_stat(p.buf, &st) == 0 && S_ISREG(st.st_mode))
			return sb_detach(&p);
	}
	DIR *d = rootfs_opendir(folder);
	char *found = NULL;
	if (d) {
		struct dirent *de;
		size_t seen = 0;
		while (!found && (de = readdir(d)) && seen++ < MAX_DIR_ENTRIES) {
			size_t l = strlen(de->d_name);
			if (l > 4 && !strcasecmp(de->d_name + l - 4, ".inf")) {
				sb_reset(&p);
				sb_addf(&p, "%s/%s", folder, de->d_name);
				found = sb_detach(&p);
			}
		}
		closedir(d);
	}
	sb_release(&p);
	return found;
}

static void read_version(struct nv_store *s)
{
	s->inf = find_inf(s->path, s->name);
	if (!s->inf)
		return;
	struct strbuf t = STRBUF_INIT;
	/* DriverVer sits in [Version] at the top; the rest can be megabytes. */
	if (rootfs_read(s->inf, 256 << 10, &t, NULL) == 0) {
		struct infver iv;
		if (infver_find(t.buf, t.len, &iv) == 0) {
			memcpy(s->windows, iv.windows, sizeof s->windows);
			memcpy(s->date, iv.date, sizeof s->date);
			if (infver_nvidia(iv.windows, s->version, sizeof s->version) < 0)
				s->version[0] = '\0';
		}
	}
	sb_release(&t);
}

int wslhost_scan_stores(struct nv_stores *s)
{
	memset(s, 0, sizeof *s);
	DIR *d = rootfs_opendir(WSLHOST_DRIVERS);
	if (!d)
		return -errno;
	struct strbuf p = STRBUF_INIT;
	struct dirent *de;
	while ((de = readdir(d)) && s->entries < MAX_DIR_ENTRIES) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		s->entries++;
		sb_reset(&p);
		sb_addf(&p, "%s/%s/libcuda.so.1.1", WSLHOST_DRIVERS, de->d_name);
		struct stat st;
		if (rootfs_stat(p.buf, &st) == 0 && !S_ISDIR(st.st_mode)) {
			s->v = xrealloc(s->v, (s->n + 1) * sizeof *s->v);
			struct nv_store *e = &s->v[s->n++];
			memset(e, 0, sizeof *e);
			e->name = xstrdup(de->d_name);
			e->path = xasprintf("%s/%s", WSLHOST_DRIVERS, de->d_name);
			if (rootfs_stat(e->path, &st) == 0)
				e->mtime = st.st_mtime;
			read_version(e);
		} else if (!strncasecmp(de->d_name, "nv", 2) && strcasestr(de->d_name, ".inf_")) {
			s->nv_named = xrealloc(s->nv_named, (s->nnamed + 1) * sizeof *s->nv_named);
			s->nv_named[s->nnamed++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	sb_release(&p);
	/* readdir order is arbitrary: sort by name so reports are stable. */
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0 && strcmp(s->v[j - 1].name, s->v[j].name) > 0; j--) {
			struct nv_store t = s->v[j];
			s->v[j] = s->v[j - 1];
			s->v[j - 1] = t;
		}
	if (s->nnamed > 1)
		qsort(s->nv_named, s->nnamed, sizeof *s->nv_named, cmp_str);
	return 0;
}

void wslhost_free_stores(struct nv_stores *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].path);
		free(s->v[i].name);
		free(s->v[i].inf);
	}
	free(s->v);
	wslhost_free_list(s->nv_named, s->nnamed);
	memset(s, 0, sizeof *s);
}

size_t wslhost_newest_store(const struct nv_stores *s)
{
	size_t best = 0;
	for (size_t i = 1; i < s->n; i++) {
		const struct nv_store *a = &s->v[i], *b = &s->v[best];
		if (a->mtime > b->mtime) {
			best = i;
		} else if (a->mtime == b->mtime && a->version[0]) {
			struct version va, vb;
			if (version_parse(a->version, &va) == 0 &&
			    (!b->version[0] || version_parse(b->version, &vb) < 0 ||
			     version_cmp(&va, &vb) > 0))
				best = i;
		}
	}
	return best;
}
