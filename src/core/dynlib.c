/* dynlib.c: libraries loaded at first use (see dynlib.h). */
#include "dynlib.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
