/* fuzz_ldcache.c: the libs layer's readers of binary and path input — a
 * whole /etc/ld.so.cache (any of the three layouts, or junk that claims to
 * be one), the lookups ld.so does in it, the loader-search replay over
 * that cache with an LD_LIBRARY_PATH taken from the same bytes, and the
 * ELF header classifier. The first byte picks how files look to the
 * replay, so every ld_kind is exercised without touching the disk. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "parse/ldcache.h"
#include "parse/ldpredict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A file's kind from a hash of its path and the input's first byte. */
static void fake_stat(const char *path, struct ld_file *f, void *arg)
{
	unsigned h = *(const unsigned char *)arg;
	for (const char *c = path; *c; c++)
		h = h * 31 + (unsigned char)*c;
	f->kind = (enum ld_kind)(h % 5);
	f->why = f->kind == LD_LOADABLE ? NULL : "fuzz";
	f->dev = 1;
	f->ino = h % 7; /* collisions: the same file reached by two paths */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	struct strbuf why = STRBUF_INIT, sb = STRBUF_INIT;
	struct ldcache c;
	bool have_cache = ldcache_parse(p, size, &c, &why) == 0;
	if (have_cache) {
		for (size_t i = 0; i < c.n; i++) {
			sb_reset(&sb);
			ldcache_describe_flags(c.e[i].flags, &sb);
			ldcache_libcmp(c.e[i].name, c.e[0].name);
			ldcache_lookup(&c, c.e[i].name, c.e[i].flags);
		}
		ldcache_lookup(&c, "libcuda.so.1", LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_X8664_LIB64);
		ldcache_format_name(c.format);
	}

	const char *why_kind;
	ld_classify(data, size < 64 ? size : 64, &ld_abi_x86_64, &why_kind);

	/* The same bytes as a path list and as a path. */
	char *s = strndup(p, size < 4096 ? size : 4096);
	if (s) {
		char **dirs;
		size_t n = ld_split_path(s, "/home/user", &dirs);
		ld_free_dirs(dirs, n);
		sb_reset(&sb);
		if (s[0] == '/')
			path_normalize(s, &sb);
		free(path_join("/usr/lib", s));

		unsigned char sel = size ? data[0] : 0;
		static const char *const defaults[] = { "/lib/x86_64-linux-gnu", "/usr/lib", NULL };
		struct ld_search srch = { s, "/home/user", have_cache ? &c : NULL, defaults,
					  &ld_abi_x86_64, fake_stat, &sel };
		struct ld_prediction pr;
		ld_predict("libcuda.so.1", &srch, &pr);
		ld_prediction_free(&pr);
		free(s);
	}
	if (have_cache)
		ldcache_free(&c);
	sb_release(&why);
	sb_release(&sb);
	return 0;
}
