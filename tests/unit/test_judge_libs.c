/* test_judge_libs.c: libs.libcuda's and libs.libnvml's judge, fed from a
 * table of machines (src/probes/libs_judge.h): what the loader picks, what
 * each file's bytes say, who owns it, the state of ld.so.cache; no file is
 * read. Each row is one verdict branch. */
#include "judgeutil.h"

#include "core/path.h"
#include "core/result.h"
#include "probes/libs_judge.h"

static const struct libspec LIBCUDA = { "libcuda.so.1", "libcuda.so", "cuInit" };

#define WSL "/usr/lib/wsl/lib/libcuda.so.1"
#define STUBS "/usr/local/cuda/lib64/stubs"
#define DISTRO "/usr/lib/x86_64-linux-gnu/libcuda.so.1"

/* One file the loader would open; path NULL: none. */
struct file_row {
	const char *path;
	enum ld_via via;
	enum drvlib_kind kind;
	const char *owner;
	const char *conda;   /* the conda prefix, when it is in one */
	const char *version; /* in its content */
};

struct row {
	const char *name;
	bool wsl, container;
	enum cache_state cache;
	const char *llp;
	struct file_row res;        /* what dlopen("libcuda.so.1") loads */
	const char *broken, *stale; /* what the search ran into */
	struct file_row copy;       /* another copy on the loader path */
	struct file_row unv;        /* what dlopen("libcuda.so") loads */
	bool wsl_copy;              /* /usr/lib/wsl/lib/libcuda.so.1 exists */
	/* expected */
	enum status st;
	const char *kb;
	const char *detail;         /* a part of the detail */
	const char *ev_key, *ev_val; /* evidence that must be there (val NULL: any) */
};

static const struct row rows[] = {
	{ "WSL's copy through the cache; no libcuda.so", true, false, CACHE_OK, NULL,
	  { WSL, LD_VIA_CACHE, DRVLIB_WSL, NULL, NULL, NULL }, NULL, NULL, { NULL }, { NULL }, true,
	  ST_PASS, "libs.loader.unversioned_missing",
	  "libcuda.so.1 -> " WSL " (WSL's copy, via ld.so.cache)", "resolved", WSL },
	{ "WSL's directory decides an unmarked file; libcuda.so WSL's too", true, false, CACHE_OK,
	  NULL, { WSL, LD_VIA_CACHE, DRVLIB_UNKNOWN, NULL, NULL, NULL }, NULL, NULL, { NULL },
	  { "/usr/lib/wsl/lib/libcuda.so", LD_VIA_DEFAULT, DRVLIB_UNKNOWN, NULL, NULL, NULL },
	  true, ST_PASS, NULL, "(WSL's copy, via ld.so.cache)", "unversioned_path",
	  "/usr/lib/wsl/lib/libcuda.so" },
	{ "the driver store's copy in a container in WSL2", true, true, CACHE_OK, NULL,
	  { "/usr/lib/wsl/drivers/nv_dispi.inf_amd64_1/libcuda.so.1", LD_VIA_CACHE, DRVLIB_UNKNOWN,
	    NULL, NULL, NULL }, NULL, NULL, { NULL }, { NULL }, false,
	  ST_PASS, "libs.loader.unversioned_missing", "WSL's copy", "dir",
	  "/usr/lib/wsl/drivers/nv_dispi.inf_amd64_1" },
	{ "the toolkit's stub through LD_LIBRARY_PATH", true, false, CACHE_OK, STUBS,
	  { STUBS "/libcuda.so.1", LD_VIA_LD_LIBRARY_PATH, DRVLIB_STUB, NULL, NULL, NULL }, NULL,
	  NULL, { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.stub", "the loader picks the CUDA toolkit's stub", "ldpath_fix",
	  "unset LD_LIBRARY_PATH" },
	{ "the stub through the cache", true, false, CACHE_OK, NULL,
	  { STUBS "/libcuda.so.1", LD_VIA_CACHE, DRVLIB_UNKNOWN, NULL, NULL, NULL }, NULL, NULL,
	  { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.stub_cached", "(via ld.so.cache): every call fails", "library_kind",
	  "unknown" },
	{ "a stub copied over WSL's file", true, false, CACHE_OK, NULL,
	  { WSL, LD_VIA_CACHE, DRVLIB_STUB, NULL, NULL, NULL }, NULL, NULL, { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.stub_copy", "a copy outside the toolkit's stubs directory",
	  "stub_place", "wsl" },
	{ "a conda environment's compat libcuda", true, false, CACHE_OK, NULL,
	  { "/opt/conda/lib/libcuda.so.1", LD_VIA_CACHE, DRVLIB_LINUX, NULL, "/opt/conda",
	    "535.104.05" }, NULL, NULL, { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.conda",
	  "(/opt/conda/lib/libcuda.so.1, via ld.so.cache, a CUDA compatibility package's library "
	  "(a Linux driver's libcuda) (535.104.05)), not WSL's", "conda_prefix", "/opt/conda" },
	{ "a Linux driver's package through the cache", true, false, CACHE_OK, NULL,
	  { DISTRO, LD_VIA_CACHE, DRVLIB_LINUX, "libnvidia-compute-535", NULL, NULL }, NULL, NULL,
	  { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.distro_package",
	  "the loader picks " DISTRO " from libnvidia-compute-535 (via ld.so.cache, a Linux "
	  "driver's library), not WSL's /usr/lib/wsl/lib/libcuda.so.1", "package",
	  "libnvidia-compute-535" },
	{ "a package's copy through LD_LIBRARY_PATH", true, false, CACHE_OK,
	  "/usr/lib/x86_64-linux-gnu",
	  { DISTRO, LD_VIA_LD_LIBRARY_PATH, DRVLIB_UNKNOWN, "libnvidia-compute-535", NULL, NULL },
	  NULL, NULL, { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.ldpath_package", "via LD_LIBRARY_PATH", "ldpath_fix",
	  "unset LD_LIBRARY_PATH" },
	{ "nobody's copy through the cache", true, false, CACHE_OK, NULL,
	  { "/opt/x/libcuda.so.1", LD_VIA_CACHE, DRVLIB_UNKNOWN, NULL, NULL, NULL }, NULL, NULL,
	  { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.foreign", "which no package owns", "via", "ld.so.cache" },
	{ "nobody's copy through LD_LIBRARY_PATH, another entry kept", true, false, CACHE_OK,
	  "/opt/x:/opt/mine",
	  { "/opt/x/libcuda.so.1", LD_VIA_LD_LIBRARY_PATH, DRVLIB_UNKNOWN, NULL, NULL, NULL }, NULL,
	  NULL, { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.ldpath_foreign", "which no package owns", "ldpath_kept",
	  "/opt/mine" },
	{ "native Linux: the distribution's driver is right", false, false, CACHE_OK, NULL,
	  { DISTRO, LD_VIA_CACHE, DRVLIB_LINUX, "libnvidia-compute-535", NULL, NULL }, NULL, NULL,
	  { NULL }, { NULL }, false,
	  ST_PASS, NULL, "libcuda.so.1 -> " DISTRO " (via ld.so.cache, from libnvidia-compute-535)",
	  "package", "libnvidia-compute-535" },
	{ "native Linux: a stub is a stub", false, false, CACHE_OK, NULL,
	  { STUBS "/libcuda.so.1", LD_VIA_CACHE, DRVLIB_STUB, NULL, NULL, NULL }, NULL, NULL,
	  { NULL }, { NULL }, false,
	  ST_FAIL, "libs.loader.stub_cached", "stub", NULL, NULL },
	{ "a file that is no library stops dlopen", true, false, CACHE_OK, NULL, { NULL },
	  "/usr/lib/wsl/lib/libcuda.so.1", NULL, { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.not_elf", "is not a loadable library", "broken", WSL },
	{ "nothing found, the cache corrupt", true, false, CACHE_CORRUPT, NULL, { NULL }, NULL, NULL,
	  { NULL }, { NULL }, true,
	  ST_FAIL, "libs.ldcache.corrupt", "ld.so.cache is corrupt: bad magic", "why", "bad magic" },
	{ "nothing found, no cache", true, false, CACHE_MISSING, NULL, { NULL }, NULL, NULL,
	  { NULL }, { NULL }, true,
	  ST_FAIL, "libs.ldcache.missing", "/etc/ld.so.cache is missing", "ld.so.cache",
	  "missing" },
	{ "nothing found, the cache names a file that is gone", true, false, CACHE_OK, NULL,
	  { NULL }, NULL, "/usr/lib/wsl/lib/libcuda.so.1", { NULL }, { NULL }, false,
	  ST_FAIL, "libs.ldcache.stale", "but that file is not there", "stale", WSL },
	{ "nothing found, WSL's file there without a cache entry", true, false, CACHE_OK, NULL,
	  { NULL }, NULL, NULL, { NULL }, { NULL }, true,
	  ST_FAIL, "libs.ldcache.no_entry", "although /usr/lib/wsl/lib/libcuda.so.1 exists",
	  "unversioned", "libcuda.so: not found (no ld.so.cache entry)" },
	{ "nothing found on WSL", true, false, CACHE_OK, NULL, { NULL }, NULL, NULL, { NULL },
	  { NULL }, false,
	  ST_FAIL, "libs.loader.not_found", "the loader finds no libcuda.so.1 (not in", NULL,
	  NULL },
	{ "nothing found on native Linux", false, false, CACHE_OK, NULL, { NULL }, NULL, NULL,
	  { NULL }, { NULL }, false,
	  ST_FAIL, "libs.loader.not_found_native", "driver's libraries are not installed", NULL,
	  NULL },
	{ "found on the default path, the cache corrupt", true, false, CACHE_CORRUPT, NULL,
	  { WSL, LD_VIA_DEFAULT, DRVLIB_WSL, NULL, NULL, NULL }, NULL, NULL, { NULL }, { NULL },
	  true, ST_WARN, "libs.ldcache.corrupt", "(only default path keeps libcuda.so.1 reachable)",
	  "ld.so.cache", "corrupt: bad magic" },
	{ "found through LD_LIBRARY_PATH, no cache", true, false, CACHE_MISSING, "/usr/lib/wsl/lib",
	  { WSL, LD_VIA_LD_LIBRARY_PATH, DRVLIB_WSL, NULL, NULL, NULL }, NULL, NULL, { NULL },
	  { NULL }, true, ST_WARN, "libs.ldcache.missing", "only LD_LIBRARY_PATH keeps", NULL,
	  NULL },
	{ "found, but the cache is stale", true, false, CACHE_OK, NULL,
	  { WSL, LD_VIA_DEFAULT, DRVLIB_WSL, NULL, NULL, NULL }, NULL, "/old/libcuda.so.1", { NULL },
	  { NULL }, true, ST_WARN, "libs.ldcache.stale", "names /old/libcuda.so.1", "stale_why",
	  "" },
	{ "WSL's, but libcuda.so is the stub through LD_LIBRARY_PATH", true, false, CACHE_OK, STUBS,
	  { WSL, LD_VIA_CACHE, DRVLIB_WSL, NULL, NULL, NULL }, NULL, NULL, { NULL },
	  { STUBS "/libcuda.so", LD_VIA_LD_LIBRARY_PATH, DRVLIB_STUB, NULL, NULL, NULL }, true,
	  ST_WARN, "libs.loader.unversioned_stub", "-> the CUDA toolkit's stub", "ldpath_fix",
	  "unset LD_LIBRARY_PATH" },
	{ "WSL's, but libcuda.so is a package's", true, false, CACHE_OK, NULL,
	  { WSL, LD_VIA_CACHE, DRVLIB_WSL, NULL, NULL, NULL }, NULL, NULL, { NULL },
	  { "/usr/lib/x86_64-linux-gnu/libcuda.so", LD_VIA_CACHE, DRVLIB_LINUX, "libnvidia-compute-535",
	    NULL, NULL }, true,
	  ST_WARN, "libs.loader.unversioned_shadow", "from libnvidia-compute-535",
	  "unversioned_package", "libnvidia-compute-535" },
	{ "WSL's, but a package's copy is on the loader path", true, false, CACHE_OK, NULL,
	  { WSL, LD_VIA_CACHE, DRVLIB_WSL, NULL, NULL, NULL }, NULL, NULL,
	  { DISTRO, LD_VIA_DEFAULT, DRVLIB_LINUX, "libnvidia-compute-535", NULL, NULL }, { NULL },
	  true, ST_WARN, "libs.loader.other_copies",
	  "1 other copy is on the loader path (first: " DISTRO " from libnvidia-compute-535)",
	  "other_package", "libnvidia-compute-535" },
	{ "WSL's, but nobody's copy is on the loader path", true, false, CACHE_OK, NULL,
	  { WSL, LD_VIA_CACHE, DRVLIB_WSL, NULL, NULL, NULL }, NULL, NULL,
	  { "/opt/x/libcuda.so.1", LD_VIA_DEFAULT, DRVLIB_UNKNOWN, NULL, NULL, NULL }, { NULL },
	  true, ST_WARN, "libs.loader.other_copies_unowned", "(first: /opt/x/libcuda.so.1)",
	  "copy", "/opt/x/libcuda.so.1 (no package)" },
	{ "WSL's; a stub behind it is evidence only", true, false, CACHE_OK, NULL,
	  { WSL, LD_VIA_CACHE, DRVLIB_WSL, NULL, NULL, NULL }, NULL, NULL,
	  { STUBS "/libcuda.so.1", LD_VIA_LD_LIBRARY_PATH, DRVLIB_STUB, NULL, NULL, NULL },
	  { "/usr/lib/wsl/lib/libcuda.so", LD_VIA_DEFAULT, DRVLIB_WSL, NULL, NULL, NULL }, true,
	  ST_PASS, NULL, "WSL's copy", "stub_copy", STUBS "/libcuda.so.1" },
};

/* libs.wsl_dir failed (ld.wsl.conf missing): a wrong file the loader
 * picks all the same is still this check's finding; nothing found or
 * WSL's own file is libs.wsl_dir's. */
static const struct row after_wsl_dir_failed[] = {
	{ "no ld.wsl.conf, the stub on LD_LIBRARY_PATH", true, false, CACHE_OK, STUBS,
	  { STUBS "/libcuda.so.1", LD_VIA_LD_LIBRARY_PATH, DRVLIB_STUB, NULL, NULL, NULL }, NULL,
	  NULL, { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.stub", "the loader picks the CUDA toolkit's stub", "resolved",
	  STUBS "/libcuda.so.1" },
	{ "no ld.wsl.conf, the stubs directory in ld.so.conf.d", true, false, CACHE_OK, NULL,
	  { STUBS "/libcuda.so.1", LD_VIA_CACHE, DRVLIB_STUB, NULL, NULL, NULL }, NULL, NULL,
	  { NULL }, { NULL }, true,
	  ST_FAIL, "libs.loader.stub_cached", "(via ld.so.cache): every call fails", "resolved",
	  STUBS "/libcuda.so.1" },
	{ "no ld.wsl.conf, nothing found", true, false, CACHE_OK, NULL, { NULL }, NULL, NULL,
	  { NULL }, { NULL }, true,
	  ST_SKIP, NULL, "skipped: libs.wsl_dir failed, fix that first", "blocked_by",
	  "libs.wsl_dir" },
	{ "no ld.wsl.conf, WSL's copy through LD_LIBRARY_PATH", true, false, CACHE_OK,
	  "/usr/lib/wsl/lib", { WSL, LD_VIA_LD_LIBRARY_PATH, DRVLIB_WSL, NULL, NULL, NULL }, NULL,
	  NULL, { NULL }, { NULL }, true,
	  ST_SKIP, NULL, "skipped: libs.wsl_dir failed", "resolved", WSL },
};

/* The strings one struct lib_file points to. */
struct file_buf {
	struct strbuf dir;
};

static void make_file(const struct file_row *fr, struct lib_file *f, struct file_buf *b)
{
	memset(f, 0, sizeof *f);
	sb_init(&b->dir);
	if (!fr->path)
		return;
	path_dirname(fr->path, &b->dir);
	f->path = fr->path;
	f->owner = fr->owner;
	f->dir = b->dir.buf;
	f->canon = fr->path;
	f->canon_dir = b->dir.buf;
	f->conda = fr->conda;
	f->content.kind = fr->kind;
	f->content.marker = "test";
	if (fr->version)
		snprintf(f->content.version, sizeof f->content.version, "%s", fr->version);
}

static void judge_row(const struct row *w, const char *blocked_by, struct result *r)
{
	struct ld_seen seen[2];
	struct ld_prediction p, u;
	memset(seen, 0, sizeof seen);
	memset(&p, 0, sizeof p);
	memset(&u, 0, sizeof u);
	size_t n = 0;
	if (w->res.path)
		seen[n++] = (struct ld_seen){ (char *)w->res.path, w->res.via, LD_LOADABLE, NULL, true };
	if (w->copy.path)
		seen[n++] = (struct ld_seen){ (char *)w->copy.path, w->copy.via, LD_LOADABLE, NULL,
					      false };
	p.resolved = (char *)w->res.path;
	p.via = w->res.path ? w->res.via : LD_VIA_NONE;
	p.broken = (char *)w->broken;
	p.broken_why = w->broken ? "invalid ELF header" : NULL;
	p.broken_via = LD_VIA_CACHE;
	p.stale = (char *)w->stale;
	p.seen = seen;
	p.nseen = n;
	u.resolved = (char *)w->unv.path;
	u.via = w->unv.via;

	struct lib_file copies[2];
	struct file_buf bufs[3];
	memset(copies, 0, sizeof copies);
	struct lib_facts f = {
		.ls = &LIBCUDA,
		.wsl = w->wsl,
		.container = w->container,
		.llp = w->llp,
		.cwd = "/home/user",
		.cache = w->cache,
		.cache_text = "glibc-ld.so.cache1.1, 3 entries, 307 bytes",
		.cache_why = "bad magic",
		.default_dirs = "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib:/usr/lib",
		.p = &p,
		.u = &u,
		.copies = copies,
		.conda_package = w->res.conda ? "cuda-compat-12.4.1-0" : NULL,
		.wsl_copy_exists = w->wsl_copy,
		.blocked_by = blocked_by,
	};
	make_file(&w->res, &f.resolved, &bufs[0]);
	make_file(&w->unv, &f.unv, &bufs[1]);
	if (w->copy.path)
		make_file(&w->copy, &copies[n - 1], &bufs[2]); /* seen's last */
	else
		sb_init(&bufs[2].dir);
	result_init(r, NULL);
	judge_library(&f, r);
	for (int i = 0; i < 3; i++)
		sb_release(&bufs[i].dir);
}

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *w = &rows[i];
		struct result r;
		judge_row(w, NULL, &r);
		ju_expect(w->name, &r, w->st, w->kb, w->detail, w->ev_key, w->ev_val);
		assert_string_equal(res_get(&r, "soname"), "libcuda.so.1");
		result_release(&r);
	}
	for (size_t i = 0; i < sizeof after_wsl_dir_failed / sizeof after_wsl_dir_failed[0]; i++) {
		const struct row *w = &after_wsl_dir_failed[i];
		struct result r;
		judge_row(w, "libs.wsl_dir", &r);
		ju_expect(w->name, &r, w->st, w->kb, w->detail, w->ev_key, w->ev_val);
		result_release(&r);
	}
}

/* Content first, then place; on native Linux anything but a stub is right. */
static void test_origin(void **state)
{
	(void)state;
	static const struct {
		const char *dir, *owner, *conda;
		enum drvlib_kind kind;
		bool wsl, container;
		enum origin want;
	} t[] = {
		{ "/usr/lib/wsl/lib", NULL, NULL, DRVLIB_WSL, true, false, ORIGIN_OK },
		{ "/usr/lib/wsl/lib", NULL, NULL, DRVLIB_LINUX, true, false, ORIGIN_FOREIGN },
		{ "/usr/lib/wsl/lib", "libnvidia-compute-535", NULL, DRVLIB_LINUX, true, false,
		  ORIGIN_PACKAGE },
		{ "/usr/lib/wsl/lib", NULL, NULL, DRVLIB_STUB, true, false, ORIGIN_STUB },
		{ "/mnt/c/Windows/System32/lxss/lib", NULL, NULL, DRVLIB_UNKNOWN, true, false,
		  ORIGIN_OK },
		{ "/usr/lib/wsl/drivers/x", NULL, NULL, DRVLIB_UNKNOWN, true, false, ORIGIN_FOREIGN },
		{ "/usr/lib/wsl/drivers/x", NULL, NULL, DRVLIB_UNKNOWN, true, true, ORIGIN_OK },
		{ STUBS, NULL, NULL, DRVLIB_UNKNOWN, true, false, ORIGIN_STUB },
		{ STUBS, NULL, NULL, DRVLIB_WSL, true, false, ORIGIN_OK },
		{ "/opt/conda/lib", "x", "/opt/conda", DRVLIB_LINUX, true, false, ORIGIN_CONDA },
		{ "/opt/conda/lib", NULL, "/opt/conda", DRVLIB_LINUX, false, false, ORIGIN_OK },
		{ STUBS, NULL, NULL, DRVLIB_UNKNOWN, false, false, ORIGIN_STUB },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct lib_file f;
		memset(&f, 0, sizeof f);
		f.path = "x/libcuda.so.1";
		f.dir = f.canon_dir = t[i].dir;
		f.owner = t[i].owner;
		f.conda = t[i].conda;
		f.content.kind = t[i].kind;
		if (lib_origin(&f, t[i].wsl, t[i].container) != t[i].want)
			fail_msg("row %zu: origin %d, expected %d", i,
				 (int)lib_origin(&f, t[i].wsl, t[i].container), (int)t[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_origin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
