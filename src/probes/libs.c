/*
 * libs.c: WSL's driver libraries and how the dynamic loader resolves them.
 *
 * On WSL2 the Windows NVIDIA driver brings its Linux user-mode libraries
 * itself: /usr/lib/wsl/lib (libcuda.so.1, libnvidia-ml.so.1, libdxcore.so,
 * nvidia-smi), put on the loader path by /etc/ld.so.conf.d/ld.wsl.conf,
 * which WSL writes and then runs ldconfig at every start (research §2.4).
 * The commonest self-inflicted breakage is another libcuda.so.1 or
 * libnvidia-ml.so.1 that the loader finds first: a Linux driver package
 * (libnvidia-compute-*), the CUDA toolkit's link-time stub, a conda
 * environment's copy, or LD_LIBRARY_PATH putting any of them ahead
 * (field cases R03, R05, R07; FACTS.md).
 *
 * So libs.libcuda and libs.libnvml do not guess: they read the binary
 * /etc/ld.so.cache (src/parse/ldcache.c) and replay glibc's search for a
 * bare soname (src/parse/ldpredict.c) over the files of the machine, then
 * name the file the loader will load ("resolved"), how it got there
 * ("via"), every other copy ("copy", with the Debian package that owns it,
 * from dpkg's database), and, when it is not WSL's copy, the culprit.
 * cuda.load later dlopens the library for real and compares.
 *
 * libs.kernel_modules reads /proc/modules (WSL's kernel loads no NVIDIA
 * module: one there was installed by hand); libs.env reads the variables
 * that change what CUDA sees (LD_LIBRARY_PATH, CUDA_HOME, CUDA_PATH,
 * CUDA_VISIBLE_DEVICES) and names the myths around them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../core/path.h"
#include "../core/rootfs.h"
#include "../core/text.h"
#include "../parse/dpkg.h"
#include "../parse/drvlib.h"
#include "../parse/inifile.h"
#include "../parse/kmodules.h"
#include "../parse/ldcache.h"
#include "../parse/ldpredict.h"
#include "libs_judge.h"
#include "probes.h"
#include "kb_ids.h"

#define WSL_LIB "/usr/lib/wsl/lib"
#define WSL_DRIVERS "/usr/lib/wsl/drivers"
#define LD_WSL_CONF "/etc/ld.so.conf.d/ld.wsl.conf"
#define LD_SO_CONF "/etc/ld.so.conf"
#define LD_SO_CACHE "/etc/ld.so.cache"
#define DPKG_INFO "/var/lib/dpkg/info"

#define CACHE_CAP (16u << 20)     /* real caches are 10 KiB .. 2 MiB */

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */
/* ------------------------------------------------------------------ */

static bool exists(const char *path)
{
	struct stat st;
	return rootfs_lstat(path, &st) == 0;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return rootfs_stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Static text for an errno, so that it can live in an ld_file. */
static const char *errno_text(int e)
{
	switch (e) {
	case ELOOP: return "too many levels of symbolic links";
	case EIO: return "input/output error";
	case ENAMETOOLONG: return "file name too long";
	case EISDIR: return "is a directory";
	case ENXIO: return "no such device or address";
	case EINVAL: return "not a regular file";
	default: return "cannot be opened";
	}
}

/* /mnt/c/Windows/System32/lxss/lib: the Windows folder WSL mounts as
 * /usr/lib/wsl/lib (research §2.2), reached over 9p. */
static bool is_lxss_dir(const char *dir)
{
	return strlen(dir) == strlen("/mnt/c/Windows/System32/lxss/lib") &&
	       strncmp(dir, "/mnt/", 5) == 0 && dir[6] == '/' &&
	       strcasecmp(dir + 6, "/Windows/System32/lxss/lib") == 0;
}

/* Reads /etc/wsl.conf; false if there is none. */
static bool load_wsl_conf(struct inifile *ini)
{
	struct strbuf t = STRBUF_INIT;
	memset(ini, 0, sizeof *ini);
	int rc = rootfs_read("/etc/wsl.conf", 1 << 20, &t, NULL);
	if (rc == 0)
		inifile_parse(t.buf ? t.buf : "", t.len, ini);
	sb_release(&t);
	return rc == 0;
}


/* LD_LIBRARY_PATH without the entries for which drop() is true, as
 * evidence for the fixes and for `wslgpu fix`: ldpath_kept, the value that
 * is left (absent when nothing is), and ldpath_fix, the command that sets
 * it ("export LD_LIBRARY_PATH='/opt/my libs'", quoted for the shell) or
 * "unset LD_LIBRARY_PATH". The first reason found names the fix. */
static void ldpath_fix_ev(struct result *r, const char *llp, const char *cwd,
			  bool (*drop)(const char *dir, void *arg), void *arg)
{
	if (res_get(r, "ldpath_fix"))
		return;
	struct strbuf kept = STRBUF_INIT, fix = STRBUF_INIT;
	const char *p = llp ? llp : "";
	for (;;) {
		size_t len = strcspn(p, ":;");
		/* Empty entries (the current directory, usually by accident of
		 * "$LD_LIBRARY_PATH:/x") are left out as well. */
		if (len) {
			char *raw = xstrndup(p, len);
			char **dirs;
			size_t n = ld_split_path(raw, cwd, &dirs);
			if (n && !drop(dirs[0], arg)) {
				if (kept.len)
					sb_addc(&kept, ':');
				sb_add(&kept, raw);
			}
			ld_free_dirs(dirs, n);
			free(raw);
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	if (kept.len) {
		sb_add(&fix, "export LD_LIBRARY_PATH=");
		text_shell_quote(&fix, kept.buf);
		res_ev(r, "ldpath_kept", "%s", kept.buf);
	} else {
		sb_add(&fix, "unset LD_LIBRARY_PATH");
	}
	res_ev(r, "ldpath_fix", "%s", fix.buf);
	sb_release(&kept);
	sb_release(&fix);
}

static bool drop_same_dir(const char *dir, void *arg)
{
	return strcmp(dir, (const char *)arg) == 0;
}

/* ------------------------------------------------------------------ */
/* dpkg's database: which package installed a path                     */
/* ------------------------------------------------------------------ */

typedef int (*dpkg_line_fn)(const char *pkg, const char *line, size_t n, void *arg);

/*
 * dpkg's database, from the per-process index (src/parse/dpkg.h): built
 * once, whichever probe of the process asks first. fn (may be NULL) sees
 * the paths the index keeps whole (kernel modules, /usr/src); fn returns
 * non-zero to stop.
 */
static void dpkg_scan(struct dpkg_db *db, dpkg_line_fn fn, void *arg)
{
	const struct dpkg_index_info *in = dpkg_index();
	db->scanned = true;
	db->present = in->present;
	db->lists = in->lists;
	db->unreadable = in->unreadable;
	db->capped = in->capped;
	if (fn)
		dpkg_index_each(fn, arg);
}

static void dpkg_note(struct result *r, const struct dpkg_db *db)
{
	if (!db->scanned)
		return;
	if (!db->present)
		res_ev(r, "dpkg", "no dpkg database (%s): package owners unknown", DPKG_INFO);
	else if (db->unreadable || db->capped)
		res_ev(r, "dpkg", "%zu package lists, %zu unreadable%s", db->lists, db->unreadable,
		       db->capped ? ", the rest not read (too many)" : "");
}

/*
 * Owner lookup for a handful of paths in one pass over the database. A
 * path is also looked for under its other names: its target when it is a
 * symlink (libcuda.so.1 -> libcuda.so.535.104.05), and the /lib <-> /usr/lib
 * spelling when /lib is a symlink to usr/lib (merged /usr: the cache says
 * /lib/x86_64-linux-gnu/..., the package lists /usr/lib/x86_64-linux-gnu/...).
 */
struct owners {
	size_t n;          /* queries */
	char **owner;      /* per query: package, or NULL */
	char **alias;      /* names to look for */
	size_t *query;     /* alias -> query */
	size_t nalias;
	size_t found;      /* queries answered */
};

static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;
	return rootfs_stat(a, &sa) == 0 && rootfs_stat(b, &sb) == 0 && S_ISDIR(sa.st_mode) &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static void owners_alias(struct owners *o, size_t q, const char *name)
{
	for (size_t i = 0; i < o->nalias; i++)
		if (o->query[i] == q && !strcmp(o->alias[i], name))
			return;
	o->alias = xrealloc(o->alias, (o->nalias + 1) * sizeof *o->alias);
	o->query = xrealloc(o->query, (o->nalias + 1) * sizeof *o->query);
	o->alias[o->nalias] = xstrdup(name);
	o->query[o->nalias++] = q;
}

static void owners_merged_usr(struct owners *o, size_t q, const char *name)
{
	static const char *const pairs[][2] = {
		{ "/lib", "/usr/lib" }, { "/lib64", "/usr/lib64" }, { "/lib32", "/usr/lib32" },
		{ "/bin", "/usr/bin" }, { "/sbin", "/usr/sbin" },
	};
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		for (int side = 0; side < 2; side++) {
			const char *from = pairs[i][side], *to = pairs[i][!side];
			if (!path_within(name, from) || !same_dir(from, to))
				continue;
			struct strbuf alt = STRBUF_INIT;
			sb_addf(&alt, "%s%s", to, name + strlen(from));
			owners_alias(o, q, alt.buf);
			sb_release(&alt);
		}
}

static bool wsl_location(const char *dir, bool container);

static size_t owners_add(struct owners *o, const char *path)
{
	size_t q = o->n++;
	o->owner = xrealloc(o->owner, o->n * sizeof *o->owner);
	o->owner[q] = NULL;
	/* WSL's own files belong to no package: do not search for them. */
	struct strbuf dir = STRBUF_INIT;
	path_dirname(path, &dir);
	bool wsl = wsl_location(dir.buf, true);
	sb_release(&dir);
	if (wsl) {
		o->found++;
		return q;
	}
	owners_alias(o, q, path);
	owners_merged_usr(o, q, path);
	struct strbuf canon = STRBUF_INIT;
	rootfs_realpath(path, &canon, NULL);
	if (strcmp(canon.buf, path) != 0) {
		owners_alias(o, q, canon.buf);
		owners_merged_usr(o, q, canon.buf);
	}
	sb_release(&canon);
	return q;
}

static void owners_resolve(struct owners *o, struct dpkg_db *db)
{
	memset(db, 0, sizeof *db);
	if (o->found >= o->n)
		return;
	dpkg_scan(db, NULL, NULL);
	for (size_t i = 0; i < o->nalias && o->found < o->n; i++) {
		size_t q = o->query[i];
		if (o->owner[q])
			continue;
		const char *pkg = dpkg_index_owner(o->alias[i]);
		if (pkg) {
			o->owner[q] = xstrdup(pkg);
			o->found++;
		}
	}
}

static void owners_free(struct owners *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->owner[i]);
	for (size_t i = 0; i < o->nalias; i++)
		free(o->alias[i]);
	free(o->owner);
	free(o->alias);
	free(o->query);
	memset(o, 0, sizeof *o);
}

/* ------------------------------------------------------------------ */
/* libs.wsl_dir                                                         */
/* ------------------------------------------------------------------ */

/* Describes dir/name in evidence; true if it is there (following links). */
static bool wsl_file(struct result *r, const char *name, struct stat *st)
{
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;
	sb_addf(&p, "%s/%s", WSL_LIB, name);
	struct stat lst;
	bool present = false;
	memset(st, 0, sizeof *st);
	if (rootfs_lstat(p.buf, &lst) < 0) {
		res_ev(r, "file", "%s: missing", name);
	} else if (S_ISLNK(lst.st_mode)) {
		rootfs_readlink(p.buf, &t);
		present = rootfs_stat(p.buf, st) == 0;
		res_ev(r, "file", "%s -> %s%s", name, sb_str(&t), present ? "" : " (dangling)");
	} else {
		*st = lst;
		present = true;
		res_ev(r, "file", "%s: %s, %lld bytes", name,
		       S_ISREG(lst.st_mode) ? "regular file" : "not a regular file",
		       (long long)lst.st_size);
	}
	sb_release(&p);
	sb_release(&t);
	return present;
}

/* The first driver-store folder that holds libcuda.so.1.1, into out. */
static bool find_store_libcuda(struct strbuf *out)
{
	sb_reset(out);
	DIR *d = rootfs_opendir(WSL_DRIVERS);
	if (!d)
		return false;
	struct dirent *de;
	struct strbuf p = STRBUF_INIT;
	bool found = false;
	int budget = 4096; /* the store holds every driver package of Windows */
	while (!found && budget-- > 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		sb_reset(&p);
		sb_addf(&p, "%s/%s/libcuda.so.1.1", WSL_DRIVERS, de->d_name);
		if (exists(p.buf)) {
			sb_add(out, p.buf);
			found = true;
		}
	}
	closedir(d);
	sb_release(&p);
	return found;
}

/* ldconfig reads one directory per line of a conf file (elf/ldconfig.c
 * parse_conf); '#' starts a comment. True if the text names dir. */
static bool conf_names_dir(const char *text, size_t len, const char *dir)
{
	size_t pos = 0, dl = strlen(dir);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		const char *s = text + pos, *e = text + end;
		const char *hash = memchr(s, '#', (size_t)(e - s));
		if (hash)
			e = hash;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '/'))
			e--;
		if ((size_t)(e - s) == dl && memcmp(s, dir, dl) == 0)
			return true;
		pos = end + 1;
	}
	return false;
}

/* True if /etc/ld.so.conf makes ldconfig read ld.wsl.conf (an "include"
 * whose pattern matches it; relative patterns are from /etc) or names
 * /usr/lib/wsl/lib itself. */
static bool ld_so_conf_reaches_wsl(const char *text, size_t len)
{
	if (conf_names_dir(text, len, WSL_LIB))
		return true;
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		char *line = xstrndup(text + pos, end - pos);
		char *s = line;
		char *hash = strchr(s, '#');
		if (hash)
			*hash = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		bool hit = false;
		if (strncmp(s, "include", 7) == 0 && (s[7] == ' ' || s[7] == '\t')) {
			char *save = NULL;
			for (char *pat = strtok_r(s + 7, " \t\r", &save); pat && !hit;
			     pat = strtok_r(NULL, " \t\r", &save)) {
				struct strbuf full = STRBUF_INIT;
				if (pat[0] != '/')
					sb_add(&full, "/etc/");
				sb_add(&full, pat);
				hit = fnmatch(full.buf, LD_WSL_CONF, FNM_PATHNAME) == 0;
				sb_release(&full);
			}
		}
		free(line);
		if (hit)
			return true;
		pos = end + 1;
	}
	return false;
}

static void check_ld_conf(struct result *r, struct findings *v)
{
	struct strbuf t = STRBUF_INIT;
	int rc = rootfs_read(LD_WSL_CONF, 65536, &t, NULL);
	if (rc < 0) {
		struct inifile conf;
		bool have = load_wsl_conf(&conf);
		const struct inifile_item *it = have ? inifile_find(&conf, "automount", "ldconfig") : NULL;
		res_ev(r, "ld.wsl.conf", "%s: %s", LD_WSL_CONF, strerror(-rc));
		if (it && inifile_bool(it->value) == 0) {
			res_ev(r, "wsl.conf", "[automount] ldconfig=%s (line %d)", it->value, it->line);
			findings_add(v, ST_FAIL, KB_LIBS_WSL_DIR_LDCONFIG_DISABLED,
				    "%s is missing: /etc/wsl.conf sets [automount] ldconfig=false, so "
				    "WSL no longer puts %s on the loader path", LD_WSL_CONF, WSL_LIB);
		} else {
			findings_add(v, ST_FAIL, KB_LIBS_WSL_DIR_NO_LD_CONF,
				    "%s is missing, so ldconfig does not index %s", LD_WSL_CONF,
				    WSL_LIB);
		}
		if (have)
			inifile_free(&conf);
		goto out;
	}
	if (!conf_names_dir(t.buf ? t.buf : "", t.len, WSL_LIB)) {
		res_ev_text(r, "ld.wsl.conf", sb_str(&t), 512);
		findings_add(v, ST_FAIL, KB_LIBS_WSL_DIR_LD_CONF_EDITED,
			    "%s does not name %s", LD_WSL_CONF, WSL_LIB);
		goto out;
	}
	res_ev(r, "ld.wsl.conf", "%s names %s", LD_WSL_CONF, WSL_LIB);
	rc = rootfs_read(LD_SO_CONF, 1 << 20, &t, NULL);
	if (rc < 0) {
		res_ev(r, "ld.so.conf", "%s: %s", LD_SO_CONF, strerror(-rc));
		findings_add(v, ST_FAIL, KB_LIBS_WSL_DIR_CONF_NOT_INCLUDED,
			    "%s is missing, so ldconfig never reads %s", LD_SO_CONF, LD_WSL_CONF);
	} else if (!ld_so_conf_reaches_wsl(t.buf ? t.buf : "", t.len)) {
		res_ev_text(r, "ld.so.conf", sb_str(&t), 512);
		findings_add(v, ST_FAIL, KB_LIBS_WSL_DIR_CONF_NOT_INCLUDED,
			    "%s does not include /etc/ld.so.conf.d/*.conf, so ldconfig never "
			    "reads %s", LD_SO_CONF, LD_WSL_CONF);
	}
out:
	sb_release(&t);
}

static void probe_wsl_dir(struct probe_ctx *ctx, struct result *r)
{
	if (!probe_is_wsl2(ctx)) {
		res_set(r, ST_SKIP, NULL, "skipped: not WSL2 (%s exists only there)", WSL_LIB);
		return;
	}
	bool container = !strcmp(probe_platform(ctx), "container-in-wsl2");
	struct findings v = FINDINGS_INIT;
	res_ev(r, "dir", "%s", WSL_LIB);
	struct strbuf store = STRBUF_INIT;
	bool have_store = find_store_libcuda(&store);
	if (have_store)
		res_ev(r, "driver_store", "%s", store.buf);

	if (!is_dir(WSL_LIB)) {
		if (container) {
			probe_image_ev(ctx, r);
			res_set(r, ST_FAIL, KB_LIBS_WSL_DIR_CONTAINER_NO_GPU,
				"this container has no %s: it was started without the GPU "
				"(docker run --gpus all)", WSL_LIB);
		} else {
			struct inifile conf;
			bool have = load_wsl_conf(&conf);
			const struct inifile_item *g = have ? inifile_find(&conf, "gpu", "enabled") : NULL;
			if (g)
				res_ev(r, "wsl.conf", "[gpu] enabled=%s (line %d)", g->value, g->line);
			/* WSL's parser takes true/false/1/0 (wslconfig_bool). */
			bool off = g && (!strcasecmp(g->value, "false") || !strcmp(g->value, "0"));
			if (off)
				res_set(r, ST_FAIL, KB_LIBS_WSL_DIR_GPU_DISABLED,
					"%s does not exist: /etc/wsl.conf turns WSL's GPU libraries off "
					"([gpu] enabled=%s)", WSL_LIB, g->value);
			else
				res_set(r, ST_FAIL, KB_LIBS_WSL_DIR_NO_DIR,
					"%s does not exist: WSL did not mount the Windows driver's "
					"libraries", WSL_LIB);
			if (have)
				inifile_free(&conf);
		}
		sb_release(&store);
		return;
	}

	struct stat cuda, nvml, dxcore, smi, cuda11, cuda0;
	bool has_cuda = wsl_file(r, "libcuda.so.1", &cuda);
	bool has_nvml = wsl_file(r, "libnvidia-ml.so.1", &nvml);
	bool has_dxcore = wsl_file(r, "libdxcore.so", &dxcore);
	bool has_smi = wsl_file(r, "nvidia-smi", &smi);
	bool has_cuda11 = wsl_file(r, "libcuda.so.1.1", &cuda11);
	wsl_file(r, "libcuda.so", &cuda0);

	struct strbuf missing = STRBUF_INIT;
	if (container) {
		/* The container toolkit maps the driver store's libcuda.so.1.1 and
		 * WSL's libdxcore.so, not /usr/lib/wsl/lib/libcuda.so.1 (§1.6). */
		if (!has_cuda && !have_store) {
			res_ev(r, "missing", "libcuda.so.1 (neither in %s nor in a driver store folder)",
			       WSL_LIB);
			probe_image_ev(ctx, r);
			findings_add(&v, ST_FAIL, KB_LIBS_WSL_DIR_CONTAINER_NO_GPU,
				    "this container has no WSL libcuda (neither %s/libcuda.so.1 nor "
				    "%s/*/libcuda.so.1.1): it was started without the GPU", WSL_LIB,
				    WSL_DRIVERS);
		}
		res_ev(r, "note", "inside a container the NVIDIA container toolkit indexes the "
				  "libraries itself; ld.wsl.conf is not used");
	} else {
		if (!has_cuda)
			sb_add(&missing, "libcuda.so.1");
		if (!has_nvml)
			sb_addf(&missing, "%slibnvidia-ml.so.1", missing.len ? ", " : "");
		if (missing.len) {
			res_ev(r, "missing", "%s", missing.buf);
			findings_add(&v, ST_FAIL, KB_LIBS_WSL_DIR_MISSING_DRIVER_LIBS,
				    "%s lacks the NVIDIA driver's %s", WSL_LIB, missing.buf);
		}
		check_ld_conf(r, &v);
	}
	if (!has_dxcore) {
		res_ev(r, "missing", "libdxcore.so");
		findings_add(&v, ST_WARN, KB_LIBS_WSL_DIR_NO_DXCORE,
			    "%s has no libdxcore.so: this Windows build may lack GPU "
			    "paravirtualisation for WSL", WSL_LIB);
	}
	if (!has_smi && !container) {
		res_ev(r, "missing", "nvidia-smi");
		findings_add(&v, ST_WARN, KB_LIBS_WSL_DIR_NO_SMI, "%s has no nvidia-smi", WSL_LIB);
	}
	/* The three libcuda names are identical copies as the driver ships
	 * them (microsoft/WSL#5663, #7314); a size that differs means one was
	 * overwritten (tracker row 3). */
	if (has_cuda && has_cuda11 && S_ISREG(cuda.st_mode) && S_ISREG(cuda11.st_mode) &&
	    cuda.st_size != cuda11.st_size) {
		res_ev(r, "sizes", "libcuda.so.1 %lld bytes, libcuda.so.1.1 %lld bytes",
		       (long long)cuda.st_size, (long long)cuda11.st_size);
		findings_add(&v, ST_WARN, KB_LIBS_WSL_DIR_COPIES_DIFFER,
			    "%s/libcuda.so.1 and libcuda.so.1.1 differ in size: one of WSL's "
			    "copies was overwritten", WSL_LIB);
	}
	/* ldconfig's "is not a symbolic link" message about these copies. */
	struct stat l1;
	struct strbuf p = STRBUF_INIT;
	sb_addf(&p, "%s/libcuda.so.1", WSL_LIB);
	bool copies = has_cuda && has_cuda11 && rootfs_lstat(p.buf, &l1) == 0 && S_ISREG(l1.st_mode);
	sb_release(&p);
	if (findings_status(&v) == ST_PASS) {
		if (container)
			findings_add(&v, ST_PASS, NULL, "WSL's driver libraries reach this container (%s)",
				    has_cuda ? WSL_LIB : store.buf);
		else if (copies)
			findings_add(&v, ST_PASS, KB_LIBS_WSL_DIR_NOT_A_SYMLINK,
				    "WSL's driver libraries are in %s and on the loader path", WSL_LIB);
		else
			findings_add(&v, ST_PASS, NULL,
				    "WSL's driver libraries are in %s and on the loader path", WSL_LIB);
	}
	findings_settle(r, &v);
	sb_release(&missing);
	sb_release(&store);
}

/* ------------------------------------------------------------------ */
/* libs.kernel_modules                                                  */
/* ------------------------------------------------------------------ */

/* Finds the package that installed a kernel module: a .ko of that name
 * under /lib/modules, or (DKMS) NVIDIA's sources under /usr/src. */
struct module_owner {
	const char *module; /* "nvidia_uvm" */
	bool nvidia;
	char *by_file;      /* package shipping the .ko itself */
	char *by_source;    /* package shipping the sources DKMS builds from */
	char *by_name;      /* an installed nvidia-dkms-* / nvidia-kernel-dkms */
};

static bool module_file_matches(const char *base, size_t n, const char *module)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
	for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++) {
		size_t el = strlen(ext[e]);
		if (n <= el || memcmp(base + n - el, ext[e], el) != 0)
			continue;
		size_t ml = n - el;
		if (ml != strlen(module))
			return false;
		for (size_t i = 0; i < ml; i++) {
			char a = base[i] == '-' ? '_' : base[i], b = module[i] == '-' ? '_' : module[i];
			if (a != b)
				return false;
		}
		return true;
	}
	return false;
}

static int module_line(const char *pkg, const char *line, size_t n, void *arg)
{
	struct module_owner *m = arg;
	bool in_modules = (n > 13 && !memcmp(line, "/lib/modules/", 13)) ||
			  (n > 17 && !memcmp(line, "/usr/lib/modules/", 17));
	if (in_modules && !m->by_file) {
		const char *slash = memrchr(line, '/', n);
		const char *base = slash ? slash + 1 : line;
		if (module_file_matches(base, n - (size_t)(base - line), m->module))
			m->by_file = xstrdup(pkg);
	}
	if (m->nvidia && !m->by_source && n > 15 && !memcmp(line, "/usr/src/nvidia", 15))
		m->by_source = xstrdup(pkg);
	return m->by_file ? 1 : 0;
}

static void probe_kernel_modules(struct probe_ctx *ctx, struct result *r)
{
	bool wsl = probe_is_wsl2(ctx);
	struct strbuf t = STRBUF_INIT;
	bool trunc = false;
	int rc = rootfs_read("/proc/modules", 4u << 20, &t, &trunc);
	if (rc < 0) {
		res_ev(r, "error", "/proc/modules: %s", strerror(-rc));
		res_set(r, ST_WARN, KB_LIBS_KERNEL_MODULES_UNREADABLE,
			"/proc/modules cannot be read (%s): loaded kernel modules unknown",
			strerror(-rc));
		sb_release(&t);
		return;
	}
	struct kmodule *mods;
	size_t n, bad;
	kmodules_parse(t.buf ? t.buf : "", t.len, &mods, &n, &bad);
	res_ev(r, "modules", "%zu loaded%s", n, trunc ? " (list cut short)" : "");
	if (bad)
		res_ev(r, "malformed", "%zu line%s of /proc/modules %s not module entries", bad,
		       bad == 1 ? "" : "s", bad == 1 ? "is" : "are");
	const struct kmodule *nv = NULL, *nouveau = NULL;
	struct strbuf nvnames = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (kmodule_is_nvidia(mods[i].name)) {
			res_ev(r, "module", "%s (%lu bytes, used by %ld, %s%s%s)", mods[i].name,
			       mods[i].size, mods[i].refcount, mods[i].state,
			       mods[i].taint[0] ? ", taint " : "", mods[i].taint);
			sb_addf(&nvnames, "%s%s", nvnames.len ? ", " : "", mods[i].name);
			/* Report the core module, "nvidia", when it is there. */
			if (!nv || !strcmp(mods[i].name, "nvidia"))
				nv = &mods[i];
		} else if (kmodule_is_nouveau(mods[i].name)) {
			res_ev(r, "module", "%s (%lu bytes, used by %ld, %s)", mods[i].name,
			       mods[i].size, mods[i].refcount, mods[i].state);
			nouveau = &mods[i];
		}
	}
	if (wsl && (nv || nouveau)) {
		const struct kmodule *m = nv ? nv : nouveau;
		probe_step(ctx, "searching dpkg's database for the package of %s", m->name);
		struct module_owner mo = { m->name, nv != NULL, NULL, NULL, NULL };
		struct dpkg_db db;
		dpkg_scan(&db, module_line, &mo);
		size_t np;
		const char *const *pkgs = dpkg_index_packages(&np);
		for (size_t i = 0; mo.nvidia && !mo.by_name && i < np; i++)
			if (!strncmp(pkgs[i], "nvidia-dkms-", 12) || !strcmp(pkgs[i], "nvidia-kernel-dkms"))
				mo.by_name = xstrdup(pkgs[i]);
		dpkg_note(r, &db);
		const char *pkg = mo.by_file ? mo.by_file : mo.by_source ? mo.by_source : mo.by_name;
		res_ev(r, "name", "%s", m->name);
		if (pkg)
			res_ev(r, "package", "%s", pkg);
		if (nv)
			res_set(r, ST_FAIL, KB_LIBS_KERNEL_MODULES_NVIDIA_IN_WSL,
				"a Linux NVIDIA kernel module is loaded inside WSL2 (%s)%s%s%s",
				nvnames.buf, pkg ? ", installed by " : "", pkg ? pkg : "",
				"; WSL's kernel needs none");
		else
			res_set(r, ST_FAIL, KB_LIBS_KERNEL_MODULES_NOUVEAU_IN_WSL,
				"the nouveau kernel module is loaded inside WSL2%s%s; WSL's GPU "
				"path needs no GPU kernel driver", pkg ? ", installed by " : "",
				pkg ? pkg : "");
		free(mo.by_file);
		free(mo.by_source);
		free(mo.by_name);
	} else if (wsl) {
		res_set(r, ST_PASS, NULL,
			"no NVIDIA or nouveau kernel module (WSL2 reaches the GPU through /dev/dxg)");
	} else if (nv) {
		res_set(r, ST_PASS, NULL, "NVIDIA kernel module loaded (%s)", nvnames.buf);
	} else if (exists("/sys/module/nvidia")) {
		res_ev(r, "sysfs", "/sys/module/nvidia exists");
		res_set(r, ST_PASS, NULL, "NVIDIA kernel module present (/sys/module/nvidia)");
	} else if (nouveau) {
		res_set(r, ST_WARN, KB_LIBS_KERNEL_MODULES_NOUVEAU_NATIVE,
			"nouveau drives the GPU, not NVIDIA's driver: nouveau has no CUDA");
	} else {
		if (!strcmp(probe_platform(ctx), "container"))
			res_ev(r, "in_container", "yes"); /* the module is the host's */
		res_set(r, ST_WARN, KB_LIBS_KERNEL_MODULES_NO_DRIVER_NATIVE,
			"no NVIDIA kernel module is loaded (yet)");
	}
	free(mods);
	sb_release(&nvnames);
	sb_release(&t);
}

/* ------------------------------------------------------------------ */
/* libs.libcuda, libs.libnvml: the loader's choice                      */
/* ------------------------------------------------------------------ */

struct cache_load {
	enum cache_state st;
	struct strbuf buf;
	struct strbuf why;
	struct strbuf text; /* CACHE_OK: what it is, for the evidence */
	struct ldcache c;
};

static void cache_load(struct cache_load *cl)
{
	memset(cl, 0, sizeof *cl);
	bool trunc = false;
	int rc = rootfs_read(LD_SO_CACHE, CACHE_CAP, &cl->buf, &trunc);
	if (rc == -ENOENT) {
		cl->st = CACHE_MISSING;
		return;
	}
	if (rc < 0) {
		cl->st = CACHE_CORRUPT;
		sb_addf(&cl->why, "it cannot be read (%s)", strerror(-rc));
	} else if (trunc) {
		struct stat st;
		cl->st = CACHE_CORRUPT;
		sb_addf(&cl->why, "it is larger than %u MiB (%lld bytes), far beyond any real cache",
			CACHE_CAP >> 20, rootfs_stat(LD_SO_CACHE, &st) == 0 ? (long long)st.st_size : -1LL);
	} else if (ldcache_parse(cl->buf.buf ? cl->buf.buf : "", cl->buf.len, &cl->c, &cl->why) < 0) {
		cl->st = CACHE_CORRUPT;
	} else {
		cl->st = CACHE_OK;
		sb_addf(&cl->text, "%s, %zu entries, %zu bytes%s%s%s",
			ldcache_format_name(cl->c.format), cl->c.n, cl->buf.len,
			cl->c.generator ? " (" : "", cl->c.generator ? cl->c.generator : "",
			cl->c.generator ? ")" : "");
	}
}

static void cache_release(struct cache_load *cl)
{
	ldcache_free(&cl->c);
	sb_release(&cl->buf);
	sb_release(&cl->why);
	sb_release(&cl->text);
}

/* The loader's built-in directories (glibc's trusted-dirs: slibdir and
 * libdir of the build). Debian and Ubuntu build glibc for multiarch and
 * search /lib/<triplet>, /usr/lib/<triplet>, /lib, /usr/lib (LD_DEBUG=libs
 * on Debian 12 shows exactly these); upstream x86-64 builds use /lib64 and
 * /usr/lib64 (ld.so(8)). */
static void default_dirs(const struct ld_abi *abi, char *store[4], const char *dirs[5])
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	sb_addf(&a, "/lib/%s", abi->multiarch);
	sb_addf(&b, "/usr/lib/%s", abi->multiarch);
	if (is_dir(a.buf) || is_dir(b.buf)) {
		store[0] = sb_detach(&a);
		store[1] = sb_detach(&b);
		store[2] = xstrdup("/lib");
		store[3] = xstrdup("/usr/lib");
	} else {
		store[0] = xstrdup("/lib64");
		store[1] = xstrdup("/usr/lib64");
		store[2] = NULL;
		store[3] = NULL;
	}
	sb_release(&a);
	sb_release(&b);
	size_t k = 0;
	for (int i = 0; i < 4; i++)
		if (store[i])
			dirs[k++] = store[i];
	dirs[k] = NULL;
}

/* The loader's view of one file (ldpredict's callback). */
static void guest_stat(const char *path, struct ld_file *f, void *arg)
{
	(void)arg;
	f->kind = LD_MISSING;
	f->why = NULL;
	f->dev = f->ino = 0;
	struct stat st;
	int rc = rootfs_stat(path, &st);
	if (rc == -ENOENT || rc == -ENOTDIR || rc == -EACCES)
		return;
	if (rc < 0) {
		f->kind = LD_UNREADABLE;
		f->why = errno_text(-rc);
		return;
	}
	f->dev = (uint64_t)st.st_dev;
	f->ino = (uint64_t)st.st_ino;
	if (S_ISDIR(st.st_mode)) {
		f->kind = LD_BROKEN;
		f->why = "cannot read file data: Is a directory";
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		/* glibc would open a FIFO and wait on it; say what it is. */
		f->kind = LD_BROKEN;
		f->why = "not a regular file";
		return;
	}
	int fd = rootfs_open(path, O_RDONLY);
	if (fd < 0) {
		if (fd == -EACCES)
			return;
		f->kind = LD_UNREADABLE;
		f->why = errno_text(-fd);
		return;
	}
	unsigned char hdr[64];
	size_t got = 0;
	while (got < sizeof hdr) {
		ssize_t n = read(fd, hdr + got, sizeof hdr - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	f->kind = ld_classify(hdr, got, ld_abi_host(), &f->why);
}

static bool is_stub_dir(const char *dir)
{
	return !strcmp(path_basename(dir), "stubs");
}

/* A conda environment: PREFIX/lib with PREFIX/conda-meta beside it. */
static bool conda_prefix_of(const char *dir, struct strbuf *prefix)
{
	path_dirname(dir, prefix);
	struct strbuf meta = STRBUF_INIT;
	sb_addf(&meta, "%s/conda-meta", prefix->buf);
	bool yes = is_dir(meta.buf);
	sb_release(&meta);
	return yes;
}

static bool wsl_location(const char *dir, bool container)
{
	return !strcmp(dir, WSL_LIB) || is_lxss_dir(dir) ||
	       (container && path_within(dir, WSL_DRIVERS));
}

/* What the file's bytes say it is (drvlib.h); unreadable counts as unknown. */
static void content_of(const char *path, const struct libspec *ls, struct drvlib *d)
{
	drvlib_classify_file(path, ls->soname, ls->entry, d);
}

enum origin lib_origin(const struct lib_file *f, bool wsl, bool container)
{
	const struct drvlib *d = &f->content;
	bool known = d->kind == DRVLIB_WSL || d->kind == DRVLIB_LINUX;
	enum origin o;
	if (d->kind == DRVLIB_STUB || (!known && (is_stub_dir(f->dir) || is_stub_dir(f->canon_dir))))
		o = ORIGIN_STUB;
	else if (wsl && d->kind == DRVLIB_WSL)
		o = ORIGIN_OK;
	else if (wsl && d->kind != DRVLIB_LINUX &&
		 (wsl_location(f->dir, container) || wsl_location(f->canon_dir, container)))
		o = ORIGIN_OK;
	else if (f->conda)
		o = ORIGIN_CONDA;
	else if (f->owner)
		o = ORIGIN_PACKAGE;
	else
		o = ORIGIN_FOREIGN;
	if (!wsl && o != ORIGIN_STUB)
		o = ORIGIN_OK; /* native: the distro's driver is the right one */
	return o;
}

/* The strings a struct lib_file points to. */
struct lib_file_store {
	struct strbuf dir, canon, canon_dir, conda;
};

/* Reads what the judge needs to know of one file the loader would open. */
static void collect_file(const char *path, const char *owner, const struct libspec *ls,
			 struct lib_file *f, struct lib_file_store *st)
{
	memset(st, 0, sizeof *st);
	path_dirname(path, &st->dir);
	rootfs_realpath(path, &st->canon, NULL);
	path_dirname(st->canon.buf, &st->canon_dir);
	bool conda = conda_prefix_of(st->dir.buf, &st->conda) ||
		     conda_prefix_of(st->canon_dir.buf, &st->conda);
	content_of(path, ls, &f->content);
	f->path = path;
	f->owner = owner;
	f->dir = st->dir.buf;
	f->canon = st->canon.buf;
	f->canon_dir = st->canon_dir.buf;
	f->conda = conda ? st->conda.buf : NULL;
}

static void lib_file_store_release(struct lib_file_store *st)
{
	sb_release(&st->dir);
	sb_release(&st->canon);
	sb_release(&st->canon_dir);
	sb_release(&st->conda);
}

/* The conda package (conda-meta/NAME-VERSION-BUILD.json) listing a file. */
static void conda_owner(const char *prefix, const char *path, struct strbuf *out)
{
	sb_reset(out);
	size_t pl = strlen(prefix);
	if (strncmp(path, prefix, pl) != 0 || path[pl] != '/')
		return;
	struct strbuf meta = STRBUF_INIT, f = STRBUF_INIT, text = STRBUF_INIT, needle = STRBUF_INIT;
	sb_addf(&meta, "%s/conda-meta", prefix);
	sb_addf(&needle, "\"%s\"", path + pl + 1);
	DIR *d = rootfs_opendir(meta.buf);
	int budget = 2000;
	struct dirent *de;
	while (d && budget-- > 0 && (de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		if (n <= 5 || strcmp(de->d_name + n - 5, ".json") != 0)
			continue;
		sb_reset(&f);
		sb_addf(&f, "%s/%s", meta.buf, de->d_name);
		if (rootfs_read(f.buf, 4u << 20, &text, NULL) == 0 && text.buf &&
		    memmem(text.buf, text.len, needle.buf, needle.len)) {
			sb_addn(out, de->d_name, n - 5);
			break;
		}
	}
	if (d)
		closedir(d);
	sb_release(&meta);
	sb_release(&f);
	sb_release(&text);
	sb_release(&needle);
}

/* ---- the judge: facts in, result out, no I/O ---- */

static void cache_evidence(const struct lib_facts *f, struct result *r)
{
	if (f->cache == CACHE_MISSING) {
		res_ev(r, "ld.so.cache", "missing");
	} else if (f->cache == CACHE_CORRUPT) {
		res_ev(r, "ld.so.cache", "corrupt: %s", f->cache_why);
		res_ev(r, "why", "%s", f->cache_why);
	} else {
		res_ev(r, "ld.so.cache", "%s", f->cache_text);
	}
}

/* The file the loader picks: what it is, where it is and who owns it.
 * desc receives ", a Linux driver's library (535.104.05)" for a Linux
 * driver's, for the details. */
static void resolved_evidence(const struct lib_facts *f, enum origin origin, struct result *r,
			      struct strbuf *desc)
{
	const struct ld_prediction *p = f->p;
	const struct lib_file *rf = &f->resolved;
	struct drvlib lib = rf->content;
	if (!lib.version[0])
		drvlib_version_from_name(path_basename(rf->canon), f->ls->soname, lib.version,
					 sizeof lib.version);
	/* NVIDIA's forward-compatibility libcuda (cuda-compat: conda's
	 * cuda-compat, pip wheels, .../compat/) is a Linux driver's. */
	bool compat = lib.kind == DRVLIB_LINUX &&
		      (origin == ORIGIN_CONDA || strstr(rf->canon, "/site-packages/") ||
		       strstr(rf->canon, "/compat/") || !strcmp(path_basename(rf->dir), "compat"));
	res_ev(r, "library", "%s",
	       compat ? "a CUDA compatibility package's library (a Linux driver's libcuda)"
		      : drvlib_kind_text(lib.kind));
	res_ev(r, "library_kind", "%s", drvlib_kind_name(lib.kind));
	res_ev(r, "library_marker", "%s", lib.marker ? lib.marker : "");
	if (lib.version[0])
		res_ev(r, "library_version", "%s", lib.version);
	if (lib.kind == DRVLIB_LINUX)
		sb_addf(desc, ", %s%s%s%s", res_get(r, "library"), lib.version[0] ? " (" : "",
			lib.version, lib.version[0] ? ")" : "");
	res_ev(r, "resolved", "%s", p->resolved);
	res_ev(r, "via", "%s", ld_via_name(p->via));
	if (rf->owner)
		res_ev(r, "package", "%s", rf->owner);
	if (strcmp(rf->canon, p->resolved) != 0)
		res_ev(r, "target", "%s", rf->canon);
	res_ev(r, "dir", "%s", rf->dir);
	if (p->via == LD_VIA_LD_LIBRARY_PATH)
		ldpath_fix_ev(r, f->llp, f->cwd, drop_same_dir, (void *)rf->dir);
}

/* Every other copy, with its owner (the contract other layers read), and
 * what the search passed over. Returns how many copies are not right for
 * WSL; *first is the first of them. */
static size_t copies_evidence(const struct lib_facts *f, struct result *r,
			      const struct lib_file **first)
{
	const struct ld_prediction *p = f->p;
	size_t others = 0;
	*first = NULL;
	for (size_t i = 0; i < p->nseen; i++) {
		const struct ld_seen *e = &p->seen[i];
		if (e->chosen)
			continue;
		const struct lib_file *c = &f->copies[i];
		res_ev(r, "copy", "%s (%s)", e->path, c->owner ? c->owner : "no package");
		if (e->kind != LD_LOADABLE)
			res_ev(r, "copy_note", "%s: %s", e->path, e->why ? e->why : "not loadable");
		enum origin o = lib_origin(c, f->wsl, f->container);
		/* A stub behind the chosen file is libs.env's finding (the stubs
		 * directory on LD_LIBRARY_PATH); removing its package would only
		 * break linking, so it is evidence here, not a warning. */
		if (f->wsl && o == ORIGIN_STUB) {
			res_ev(r, "stub_copy", "%s", e->path);
		} else if (f->wsl && o != ORIGIN_OK) {
			if (!*first)
				*first = c;
			others++;
		}
	}
	for (size_t i = 0; i < p->nskipped; i++)
		res_ev(r, "skipped", "LD_LIBRARY_PATH entry %s: $ tokens are not expanded here",
		       p->skipped[i]);
	if (p->other_abi)
		res_ev(r, "note", "a %s of another class or machine (32-bit?) was passed over",
		       f->ls->soname);
	if (p->llp_abandoned)
		res_ev(r, "note", "an entry of LD_LIBRARY_PATH could not be opened, so the loader "
				  "stopped searching LD_LIBRARY_PATH there");
	if (p->stale) {
		res_ev(r, "stale", "%s", p->stale);
		res_ev(r, "stale_why", "%s", p->stale_why ? p->stale_why : "");
	}
	return others;
}

/* The unversioned name, which some programs dlopen (cuDNN 8: R01). */
static void unversioned_evidence(const struct lib_facts *f, struct result *r)
{
	const struct libspec *ls = f->ls;
	const struct ld_prediction *u = f->u;
	const char *pkg = f->unv.owner;
	res_ev(r, "unversioned_name", "%s", ls->unversioned);
	if (u->resolved) {
		res_ev(r, "unversioned", "%s -> %s (%s)%s%s", ls->unversioned, u->resolved,
		       ld_via_name(u->via), pkg ? ", from " : "", pkg ? pkg : "");
		res_ev(r, "unversioned_path", "%s", u->resolved);
		if (pkg)
			res_ev(r, "unversioned_package", "%s", pkg);
		/* dpkg -S names no owner of a Debian alternatives link; the
		 * owner above may be its target's. */
		if (f->unv.canon && strcmp(f->unv.canon, u->resolved) != 0)
			res_ev(r, "unversioned_target", "%s", f->unv.canon);
	} else {
		res_ev(r, "unversioned", "%s: not found%s", ls->unversioned,
		       f->cache == CACHE_OK ? " (no ld.so.cache entry)" : "");
	}
}

/* dlopen of the soname would fail: a broken file, or none found. */
static void verdict_unresolved(const struct lib_facts *f, struct result *r, struct findings *v)
{
	const struct libspec *ls = f->ls;
	const struct ld_prediction *p = f->p;
	if (p->broken) {
		res_ev(r, "broken", "%s", p->broken);
		res_ev(r, "error", "%s", p->broken_why ? p->broken_why : "");
		findings_add(v, ST_FAIL, KB_LIBS_LOADER_NOT_ELF,
			    "dlopen(\"%s\") would fail: %s (%s) is not a loadable library: %s",
			    ls->soname, p->broken, ld_via_name(p->broken_via),
			    p->broken_why ? p->broken_why : "");
	} else if (f->cache == CACHE_CORRUPT) {
		findings_add(v, ST_FAIL, KB_LIBS_LDCACHE_CORRUPT,
			    "ld.so.cache is corrupt: %s — ldconfig rebuilds it", f->cache_why);
	} else if (f->cache == CACHE_MISSING) {
		findings_add(v, ST_FAIL, KB_LIBS_LDCACHE_MISSING,
			    "%s is missing, so the loader finds no %s — ldconfig rebuilds it",
			    LD_SO_CACHE, ls->soname);
	} else if (p->stale) {
		findings_add(v, ST_FAIL, KB_LIBS_LDCACHE_STALE,
			    "ld.so.cache names %s for %s, but that file is not there (a stale "
			    "cache: ldconfig rebuilds it)", p->stale, ls->soname);
	} else if (f->wsl && f->wsl_copy_exists) {
		findings_add(v, ST_FAIL, KB_LIBS_LDCACHE_NO_ENTRY,
			    "ld.so.cache has no entry for %s although %s/%s exists (a stale "
			    "cache: ldconfig rebuilds it)", ls->soname, WSL_LIB, ls->soname);
	} else if (f->wsl) {
		findings_add(v, ST_FAIL, KB_LIBS_LOADER_NOT_FOUND,
			    "the loader finds no %s (not in LD_LIBRARY_PATH, ld.so.cache or "
			    "the default directories)", ls->soname);
	} else {
		findings_add(v, ST_FAIL, KB_LIBS_LOADER_NOT_FOUND_NATIVE,
			    "the loader finds no %s: the NVIDIA driver's libraries are not "
			    "installed", ls->soname);
	}
}

/* The loader picks a file: is it the right one, and can the loader keep
 * finding it? desc: resolved_evidence's. */
static void verdict_resolved(const struct lib_facts *f, enum origin origin, const char *desc,
			     struct result *r, struct findings *v)
{
	const struct libspec *ls = f->ls;
	const struct ld_prediction *p = f->p;
	const struct lib_file *rf = &f->resolved;
	const char *via = ld_via_name(p->via);
	bool by_llp = p->via == LD_VIA_LD_LIBRARY_PATH;
	switch (origin) {
	case ORIGIN_STUB: {
		/* A stub outside a stubs/ directory was copied there: the
		 * fix is that file, not the toolkit's directory. */
		bool copied = !is_stub_dir(rf->dir) && !is_stub_dir(rf->canon_dir);
		if (copied)
			res_ev(r, "stub_place", "%s",
			       wsl_location(rf->dir, f->container) ? "wsl" : "elsewhere");
		findings_add(v, ST_FAIL,
			    copied ? KB_LIBS_LOADER_STUB_COPY
			    : by_llp ? KB_LIBS_LOADER_STUB : KB_LIBS_LOADER_STUB_CACHED,
			    "the loader picks the CUDA toolkit's stub %s (via %s)%s: every call "
			    "fails with CUDA_ERROR_STUB_LIBRARY", p->resolved, via,
			    copied ? ", a copy outside the toolkit's stubs directory" : "");
		break;
	}
	case ORIGIN_CONDA:
		res_ev(r, "conda_prefix", "%s", rf->conda);
		if (f->conda_package)
			res_ev(r, "conda_package", "%s", f->conda_package);
		findings_add(v, ST_FAIL, KB_LIBS_LOADER_CONDA,
			    "the loader picks a conda environment's %s (%s, via %s%s), not WSL's "
			    "%s/%s", ls->soname, p->resolved, via, desc, WSL_LIB, ls->soname);
		break;
	case ORIGIN_PACKAGE:
		findings_add(v, ST_FAIL,
			    by_llp ? KB_LIBS_LOADER_LDPATH_PACKAGE : KB_LIBS_LOADER_DISTRO_PACKAGE,
			    "the loader picks %s from %s (via %s%s), not WSL's %s/%s",
			    p->resolved, rf->owner, via, desc, WSL_LIB, ls->soname);
		break;
	case ORIGIN_FOREIGN:
		findings_add(v, ST_FAIL,
			    by_llp ? KB_LIBS_LOADER_LDPATH_FOREIGN : KB_LIBS_LOADER_FOREIGN,
			    "the loader picks %s (via %s%s), which no package owns, not WSL's "
			    "%s/%s", p->resolved, via, desc, WSL_LIB, ls->soname);
		break;
	case ORIGIN_OK:
		if (f->wsl)
			findings_add(v, ST_PASS, NULL, "%s -> %s (WSL's copy, via %s)",
				    ls->soname, p->resolved, via);
		else
			findings_add(v, ST_PASS, NULL, "%s -> %s (via %s%s%s)", ls->soname,
				    p->resolved, via, rf->owner ? ", from " : "",
				    rf->owner ? rf->owner : "");
		break;
	}
	/* Works, but: a cache the loader cannot use. */
	if (f->cache == CACHE_CORRUPT)
		findings_add(v, ST_WARN, KB_LIBS_LDCACHE_CORRUPT,
			    "ld.so.cache is corrupt: %s — ldconfig rebuilds it (only %s keeps "
			    "%s reachable)", f->cache_why, via, ls->soname);
	else if (f->cache == CACHE_MISSING)
		findings_add(v, ST_WARN, KB_LIBS_LDCACHE_MISSING,
			    "%s is missing — ldconfig rebuilds it (only %s keeps %s reachable)",
			    LD_SO_CACHE, via, ls->soname);
	else if (p->stale)
		findings_add(v, ST_WARN, KB_LIBS_LDCACHE_STALE,
			    "ld.so.cache names %s for %s, but that file is not there (a stale "
			    "cache: ldconfig rebuilds it)", p->stale, ls->soname);
}

/* On WSL, with the soname right: what else a program could open instead
 * (the unversioned name, other copies on the loader path). */
static void verdict_shadows(const struct lib_facts *f, size_t others,
			    const struct lib_file *other, struct result *r, struct findings *v)
{
	const struct libspec *ls = f->ls;
	const struct ld_prediction *p = f->p, *u = f->u;
	const char *unv_pkg = f->unv.owner;
	enum origin uorigin = u->resolved ? lib_origin(&f->unv, f->wsl, f->container) : ORIGIN_OK;
	if (u->resolved && uorigin == ORIGIN_STUB) {
		if (u->via == LD_VIA_LD_LIBRARY_PATH)
			ldpath_fix_ev(r, f->llp, f->cwd, drop_same_dir, (void *)f->unv.dir);
		findings_add(v, ST_WARN, KB_LIBS_LOADER_UNVERSIONED_STUB,
			    "%s is WSL's, but %s (which some programs open) -> the CUDA "
			    "toolkit's stub %s", ls->soname, ls->unversioned, u->resolved);
	} else if (u->resolved && uorigin != ORIGIN_OK) {
		findings_add(v, ST_WARN, KB_LIBS_LOADER_UNVERSIONED_SHADOW,
			    "%s is WSL's, but %s (which some programs open) -> %s%s%s",
			    ls->soname, ls->unversioned, u->resolved,
			    unv_pkg ? " from " : "", unv_pkg ? unv_pkg : "");
	} else if (others) {
		findings_add(v, ST_WARN,
			    other->owner ? KB_LIBS_LOADER_OTHER_COPIES : KB_LIBS_LOADER_OTHER_COPIES_UNOWNED,
			    "%s is WSL's, but %zu other %s %s on the loader path (first: %s%s%s)",
			    ls->soname, others, others == 1 ? "copy" : "copies",
			    others == 1 ? "is" : "are", other->path, other->owner ? " from " : "",
			    other->owner ? other->owner : "");
	} else if (!u->resolved && p->resolved) {
		findings_add(v, ST_PASS, KB_LIBS_LOADER_UNVERSIONED_MISSING,
			    "%s -> %s (WSL's copy, via %s)", ls->soname, p->resolved,
			    ld_via_name(p->via));
	}
	if (other) {
		res_ev(r, "other_path", "%s", other->path);
		if (other->canon && strcmp(other->canon, other->path) != 0)
			res_ev(r, "other_target", "%s", other->canon);
		if (other->owner)
			res_ev(r, "other_package", "%s", other->owner);
	}
}

void judge_library(const struct lib_facts *f, struct result *r)
{
	const struct ld_prediction *p = f->p;
	res_ev(r, "soname", "%s", f->ls->soname);
	cache_evidence(f, r);
	res_ev(r, "default_dirs", "%s", f->default_dirs);
	if (f->llp)
		res_ev(r, "LD_LIBRARY_PATH", "%s", f->llp);
	dpkg_note(r, &f->dpkg);

	struct strbuf desc = STRBUF_INIT; /* ", a Linux driver's library (535.104.05)" */
	enum origin origin = ORIGIN_OK;
	if (p->resolved) {
		origin = lib_origin(&f->resolved, f->wsl, f->container);
		resolved_evidence(f, origin, r, &desc);
	}
	const struct lib_file *other;
	size_t others = copies_evidence(f, r, &other);
	unversioned_evidence(f, r);

	/* With libs.wsl_dir failed, a missing library or WSL's own is that
	 * check's finding (its fix comes first); a wrong file the loader picks
	 * all the same (the stub on LD_LIBRARY_PATH or in an ld.so.conf.d file)
	 * is this check's, which no fix of WSL's directory changes. */
	if (f->blocked_by && (p->broken || !p->resolved || origin == ORIGIN_OK)) {
		res_ev(r, "blocked_by", "%s", f->blocked_by);
		res_set(r, ST_SKIP, NULL, "skipped: %s failed, fix that first", f->blocked_by);
		sb_release(&desc);
		return;
	}
	struct findings v = FINDINGS_INIT;
	if (p->broken || !p->resolved)
		verdict_unresolved(f, r, &v);
	else
		verdict_resolved(f, origin, desc.buf ? desc.buf : "", r, &v);
	if (f->wsl && findings_status(&v) != ST_FAIL)
		verdict_shadows(f, others, other, r, &v);
	findings_settle(r, &v);
	sb_release(&desc);
}

/* ---- the collector: everything read through rootfs and dpkg ---- */

/* What libs.libcuda and libs.libnvml read, and the facts that point into it. */
struct lib_collect {
	struct lib_facts f;
	struct strbuf cwd, dirs, conda_package;
	struct cache_load cl;
	char *store[4];
	struct ld_prediction p, u;
	struct owners o;
	struct lib_file *copies;
	struct lib_file_store resolved, unv, *copy_store;
};

static void collect_library(struct probe_ctx *ctx, const struct libspec *ls, struct lib_collect *c)
{
	memset(c, 0, sizeof *c);
	struct lib_facts *f = &c->f;
	f->ls = ls;
	f->wsl = probe_is_wsl2(ctx);
	f->container = !strcmp(probe_platform(ctx), "container-in-wsl2");
	const struct result *wd = probe_dep(ctx, "libs.wsl_dir");
	if (wd && wd->ran &&
	    (status_is_failure(wd->status) || (wd->status == ST_SKIP && res_get(wd, "blocked_by"))))
		f->blocked_by = res_get(wd, "blocked_by") ? res_get(wd, "blocked_by") : "libs.wsl_dir";
	const struct ld_abi *abi = ld_abi_host();
	if (rootfs_cwd(&c->cwd) < 0)
		sb_add(&c->cwd, "/");
	f->cwd = c->cwd.buf;
	f->llp = getenv("LD_LIBRARY_PATH");

	probe_step(ctx, "reading %s", LD_SO_CACHE);
	cache_load(&c->cl);
	f->cache = c->cl.st;
	f->cache_text = sb_str(&c->cl.text);
	f->cache_why = sb_str(&c->cl.why);
	const char *dirs[5];
	default_dirs(abi, c->store, dirs);
	for (int i = 0; dirs[i]; i++)
		sb_addf(&c->dirs, "%s%s", i ? ":" : "", dirs[i]);
	f->default_dirs = c->dirs.buf;

	/* glibc ignores a cache it cannot use, and so does the prediction. */
	struct ld_search s = { f->llp, f->cwd, c->cl.st == CACHE_OK ? &c->cl.c : NULL, dirs, abi,
			       guest_stat, NULL };
	probe_step(ctx, "replaying the loader's search for %s", ls->soname);
	ld_predict(ls->soname, &s, &c->p);
	ld_predict(ls->unversioned, &s, &c->u);
	f->p = &c->p;
	f->u = &c->u;

	/* Owners of the resolved file, every copy, and the unversioned pick. */
	probe_step(ctx, "searching dpkg's database for the owners of %s", ls->soname);
	size_t q_resolved = c->p.resolved ? owners_add(&c->o, c->p.resolved) : SIZE_MAX;
	size_t *q_seen = xcalloc(c->p.nseen + 1, sizeof *q_seen);
	for (size_t i = 0; i < c->p.nseen; i++)
		q_seen[i] = owners_add(&c->o, c->p.seen[i].path);
	size_t q_unv = c->u.resolved ? owners_add(&c->o, c->u.resolved) : SIZE_MAX;
	owners_resolve(&c->o, &f->dpkg);

	if (c->p.resolved) {
		probe_step(ctx, "reading %s to tell which library it is", c->p.resolved);
		collect_file(c->p.resolved, c->o.owner[q_resolved], ls, &f->resolved, &c->resolved);
		if (lib_origin(&f->resolved, f->wsl, f->container) == ORIGIN_CONDA) {
			conda_owner(f->resolved.conda, c->p.resolved, &c->conda_package);
			f->conda_package = c->conda_package.len ? c->conda_package.buf : NULL;
		}
	}
	c->copies = xcalloc(c->p.nseen + 1, sizeof *c->copies);
	c->copy_store = xcalloc(c->p.nseen + 1, sizeof *c->copy_store);
	for (size_t i = 0; i < c->p.nseen; i++)
		if (!c->p.seen[i].chosen)
			collect_file(c->p.seen[i].path, c->o.owner[q_seen[i]], ls, &c->copies[i],
				     &c->copy_store[i]);
	f->copies = c->copies;
	if (c->u.resolved)
		collect_file(c->u.resolved, c->o.owner[q_unv], ls, &f->unv, &c->unv);
	struct strbuf wslfile = STRBUF_INIT;
	sb_addf(&wslfile, "%s/%s", WSL_LIB, ls->soname);
	f->wsl_copy_exists = exists(wslfile.buf);
	sb_release(&wslfile);
	free(q_seen);
}

static void lib_collect_release(struct lib_collect *c)
{
	for (size_t i = 0; i < c->p.nseen; i++)
		lib_file_store_release(&c->copy_store[i]);
	free(c->copy_store);
	free(c->copies);
	lib_file_store_release(&c->resolved);
	lib_file_store_release(&c->unv);
	owners_free(&c->o);
	ld_prediction_free(&c->p);
	ld_prediction_free(&c->u);
	for (int i = 0; i < 4; i++)
		free(c->store[i]);
	cache_release(&c->cl);
	sb_release(&c->dirs);
	sb_release(&c->cwd);
	sb_release(&c->conda_package);
}

static void probe_library(struct probe_ctx *ctx, struct result *r, const struct libspec *ls)
{
	struct lib_collect c;
	collect_library(ctx, ls, &c);
	judge_library(&c.f, r);
	lib_collect_release(&c);
}

static void probe_libcuda(struct probe_ctx *ctx, struct result *r)
{
	static const struct libspec ls = { "libcuda.so.1", "libcuda.so", "cuInit" };
	probe_library(ctx, r, &ls);
}

static void probe_libnvml(struct probe_ctx *ctx, struct result *r)
{
	static const struct libspec ls = { "libnvidia-ml.so.1", "libnvidia-ml.so", "nvmlInit_v2" };
	probe_library(ctx, r, &ls);
}

/* ------------------------------------------------------------------ */
/* libs.env                                                             */
/* ------------------------------------------------------------------ */

static bool system_lib_dir(const char *dir)
{
	static const char *const sys[] = { "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
					   "/usr/lib64", "/lib64", "/usr/lib", "/lib",
					   "/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu" };
	for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++)
		if (!strcmp(dir, sys[i]))
			return true;
	return false;
}

static bool drop_stub(const char *dir, void *arg)
{
	(void)arg;
	return is_stub_dir(dir);
}

static bool drop_system(const char *dir, void *arg)
{
	(void)arg;
	return system_lib_dir(dir);
}

static bool drop_missing(const char *dir, void *arg)
{
	(void)arg;
	return !strchr(dir, '$') && !exists(dir);
}

static bool drop_cuda_wsl(const char *dir, void *arg)
{
	(void)arg;
	return strstr(dir, "cuda-wsl") != NULL;
}

/* One CUDA_VISIBLE_DEVICES token: an index, or a GPU-/MIG- UUID prefix. */
static bool cvd_token_ok(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0)
		return false;
	if ((n > 4 && !strncasecmp(s, "GPU-", 4)) || (n > 4 && !strncasecmp(s, "MIG-", 4)))
		return true;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

static void check_cvd(struct result *r, struct findings *v, bool wsl)
{
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
	if (!cvd) {
		res_ev(r, "CUDA_VISIBLE_DEVICES", "unset (every GPU is visible)");
		return;
	}
	res_ev(r, "CUDA_VISIBLE_DEVICES", "\"%s\"", cvd);
	res_ev(r, "cvd", "%s", cvd);
	if (!*cvd) {
		findings_add(v, ST_FAIL, KB_LIBS_ENV_CVD_HIDDEN,
			    "CUDA_VISIBLE_DEVICES is set to the empty string: CUDA sees no GPU");
		return;
	}
	/* "If an invalid index is encountered, only devices with indices that
	 * appear before the invalid index in the list are visible." */
	size_t idx = 0;
	for (const char *p = cvd;; idx++) {
		size_t n = strcspn(p, ",");
		if (!cvd_token_ok(p, n)) {
			res_ev(r, "invalid", "%.*s", (int)n, p);
			if (idx == 0)
				findings_add(v, ST_FAIL, KB_LIBS_ENV_CVD_HIDDEN,
					    "CUDA_VISIBLE_DEVICES=%s hides every GPU (its first entry "
					    "is not a device)", cvd);
			else
				findings_add(v, ST_WARN, KB_LIBS_ENV_CVD_PARTIAL,
					    "CUDA_VISIBLE_DEVICES=%s hides every GPU listed after "
					    "\"%.*s\"", cvd, (int)n, p);
			return;
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	if (wsl && !strcmp(cvd, "0"))
		findings_add(v, ST_PASS, KB_LIBS_ENV_CVD_ZERO,
			    "CUDA_VISIBLE_DEVICES=0: only the first GPU is visible (WSL does not "
			    "need it set)");
	else
		res_ev(r, "cvd_note", "only the GPUs listed are visible, renumbered from 0");
}

static void check_dir_var(struct result *r, struct findings *v, const char *name)
{
	const char *val = getenv(name);
	if (!val)
		return;
	res_ev(r, name, "%s", val);
	if (strstr(val, "cuda-wsl")) {
		res_ev(r, "myth_var", "%s=%s", name, val);
		findings_add(v, ST_WARN, KB_LIBS_ENV_CUDA_WSL_MYTH,
			    "%s=%s: there is no cuda-wsl toolkit (a myth); use /usr/local/cuda",
			    name, val);
		return;
	}
	if (!*val || val[0] != '/' || !is_dir(val)) {
		res_ev(r, "var", "%s", name);
		res_ev(r, "value", "%s", val);
		/* the fix points it at the toolkit only where there is one */
		res_ev(r, "toolkit", "%s", is_dir("/usr/local/cuda") ? "yes" : "no");
		findings_add(v, ST_WARN, KB_LIBS_ENV_CUDA_HOME_MISSING,
			    "%s=%s does not exist", name, val);
	}
}

static void probe_env(struct probe_ctx *ctx, struct result *r)
{
	bool wsl = probe_is_wsl2(ctx);
	struct findings v = FINDINGS_INIT;
	struct strbuf cwdbuf = STRBUF_INIT, list = STRBUF_INIT;
	if (rootfs_cwd(&cwdbuf) < 0)
		sb_add(&cwdbuf, "/");
	const char *cwd = cwdbuf.buf;
	const char *llp = getenv("LD_LIBRARY_PATH");
	if (!llp) {
		res_ev(r, "LD_LIBRARY_PATH", "unset");
	} else {
		res_ev(r, "LD_LIBRARY_PATH", "%s", llp);
		char **dirs;
		size_t n = ld_split_path(llp, cwd, &dirs);
		ssize_t first_wsl = -1, first_sys = -1;
		size_t missing = 0, stubs = 0, myth = 0;
		const char *p = llp;
		for (size_t i = 0; i < n; i++) {
			size_t len = strcspn(p, ":;");
			const char *d = dirs[i];
			if (len == 0)
				res_ev(r, "entry", "#%zu is empty: the current directory (%s)", i + 1, d);
			else if (strchr(d, '$'))
				res_ev(r, "entry", "#%zu %s: a $ token, expanded by the loader", i + 1, d);
			if (strstr(d, "cuda-wsl"))
				myth++;
			if (!strchr(d, '$') && !exists(d)) {
				/* Name the first few; a pasted PATH can hold thousands. */
				if (missing < 5)
					sb_addf(&list, "%s%s", missing ? ", " : "", d);
				missing++;
			}
			if (is_stub_dir(d)) {
				stubs++;
				res_ev(r, "stubs", "%s", d);
			}
			if (first_wsl < 0 && wsl_location(d, false))
				first_wsl = (ssize_t)i;
			if (first_sys < 0 && system_lib_dir(d)) {
				first_sys = (ssize_t)i;
				res_ev(r, "system_dir", "%s", d);
			}
			p += len + (p[len] ? 1 : 0);
		}
		if (stubs) {
			ldpath_fix_ev(r, llp, cwd, drop_stub, NULL);
			findings_add(&v, ST_WARN, KB_LIBS_ENV_STUBS_ON_PATH,
				    "LD_LIBRARY_PATH holds the CUDA toolkit's stubs directory (%s): "
				    "programs can load its stub libcuda instead of the driver",
				    res_get(r, "stubs"));
		}
		if (wsl && first_sys >= 0 && (first_wsl < 0 || first_sys < first_wsl)) {
			ldpath_fix_ev(r, llp, cwd, drop_system, NULL);
			findings_add(&v, ST_WARN, KB_LIBS_ENV_SYSTEM_DIR_FIRST,
				    "LD_LIBRARY_PATH puts %s ahead of %s: Linux-driver libraries "
				    "there win over WSL's", res_get(r, "system_dir"), WSL_LIB);
		}
		if (myth) {
			ldpath_fix_ev(r, llp, cwd, drop_cuda_wsl, NULL);
			res_ev(r, "myth_var", "LD_LIBRARY_PATH=%s", llp);
			findings_add(&v, ST_WARN, KB_LIBS_ENV_CUDA_WSL_MYTH,
				    "LD_LIBRARY_PATH names a cuda-wsl directory: there is no such "
				    "toolkit (a myth)");
		} else if (missing) {
			if (missing > 5)
				sb_addf(&list, ", ... (%zu in all)", missing);
			ldpath_fix_ev(r, llp, cwd, drop_missing, NULL);
			res_ev(r, "missing", "%s", list.buf);
			findings_add(&v, ST_WARN, KB_LIBS_ENV_LDPATH_MISSING,
				    "LD_LIBRARY_PATH names %zu director%s that do%s not exist: %s",
				    missing, missing == 1 ? "y" : "ies", missing == 1 ? "es" : "",
				    list.buf);
		}
		ld_free_dirs(dirs, n);
	}
	check_dir_var(r, &v, "CUDA_HOME");
	check_dir_var(r, &v, "CUDA_PATH");
	check_cvd(r, &v, wsl);
	if (!v.n)
		findings_add(&v, ST_PASS, NULL, "%s",
			    llp ? "LD_LIBRARY_PATH and the CUDA variables are in order"
				: "no variable hides or shadows the GPU (LD_LIBRARY_PATH unset)");
	findings_settle(r, &v);
	sb_release(&cwdbuf);
	sb_release(&list);
}

const struct check_def libs_checks[] = {
	{ "libs.wsl_dir", "libs", "WSL driver libraries", "/usr/lib/wsl/lib holds libcuda, libnvidia-ml, libdxcore, nvidia-smi; ld.wsl.conf exists", { "platform.kind", "bridge.dxg", "bridge.nvidia_dev" }, probe_wsl_dir, CHECK_FILES },
	{ "libs.kernel_modules", "libs", "Kernel modules", "no nvidia or nouveau module loaded inside WSL", { "platform.kind" }, probe_kernel_modules, CHECK_FILES },
	{ "libs.libcuda", "libs", "libcuda.so.1 resolution", "which libcuda.so.1 the loader will pick (ld.so.cache, LD_LIBRARY_PATH)", { CHECK_AFTER "libs.wsl_dir", "platform.kind", "bridge.dxg", "bridge.nvidia_dev" }, probe_libcuda, CHECK_FILES },
	{ "libs.libnvml", "libs", "libnvidia-ml.so.1 resolution", "which libnvidia-ml.so.1 the loader will pick", { CHECK_AFTER "libs.wsl_dir", "platform.kind", "bridge.dxg", "bridge.nvidia_dev" }, probe_libnvml, CHECK_FILES },
	{ "libs.env", "libs", "GPU environment variables", "LD_LIBRARY_PATH, CUDA_HOME, CUDA_PATH, CUDA_VISIBLE_DEVICES", { "platform.kind" }, probe_env, CHECK_FILES },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL, 0 },
};
