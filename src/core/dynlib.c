/* dynlib.c: libraries loaded at first use (see dynlib.h). */
#include "dynlib.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../parse/ldcache.h"

/* The answers of earlier dynlib_open calls, by soname. */
struct opened {
	const char *soname;
	int rc;
	char *err;
};
static struct opened opened[4];
static size_t nopened;

int dynlib_open(const char *soname, const char *package, const struct dynlib_sym *syms,
		struct strbuf *err)
{
	for (size_t i = 0; i < nopened; i++)
		if (!strcmp(opened[i].soname, soname)) {
			if (opened[i].rc < 0 && err)
				sb_add(err, opened[i].err);
			return opened[i].rc;
		}
	struct strbuf why = STRBUF_INIT;
	int rc = 0;
	dlerror();
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		sb_addf(&why, "%s could not be loaded (%s); install the package %s", soname,
			e ? e : "dlopen failed", package);
		rc = -1;
	}
	for (const struct dynlib_sym *s = syms; h && s->name; s++) {
		*s->slot = dlsym(h, s->name);
		if (!*s->slot) {
			sb_addf(&why, "%s has no %s (too old?); install a current %s", soname,
				s->name, package);
			rc = -1;
			break;
		}
	}
	/* A failed library stays mapped: closing it could run its destructors
	 * against a half-resolved table, and the process ends soon anyway. */
	if (nopened < sizeof opened / sizeof opened[0]) {
		opened[nopened].soname = soname;
		opened[nopened].rc = rc;
		opened[nopened].err = rc < 0 ? xstrdup(why.buf) : NULL;
		nopened++;
	}
	if (rc < 0 && err)
		sb_add(err, why.buf);
	sb_release(&why);
	return rc;
}

void dynlib_locate(const char *soname, struct strbuf *out)
{
	sb_reset(out);
	/* This machine's loader cache, not the described machine's: the
	 * question is what this binary can load. */
	int fd = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	int rc = sb_read_fd(&buf, fd, 64u << 20, NULL);
	close(fd);
	struct ldcache c;
	if (rc == 0 && ldcache_parse(buf.buf ? buf.buf : "", buf.len, &c, &why) == 0) {
#if defined(__x86_64__)
		int32_t want = LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_X8664_LIB64;
#elif defined(__aarch64__)
		int32_t want = LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_AARCH64_LIB64;
#else
		int32_t want = LDCACHE_FLAG_ELF_LIBC6;
#endif
		ssize_t i = ldcache_lookup(&c, soname, want);
		if (i >= 0) {
			char *real = realpath(c.e[i].path, NULL);
			sb_add(out, real ? real : c.e[i].path);
			free(real);
		}
		ldcache_free(&c);
	}
	sb_release(&buf);
	sb_release(&why);
}
