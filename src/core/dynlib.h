/*
 * dynlib: a shared library loaded when it is first needed, not at start-up.
 *
 * libcurl (smoke --push) and libarchive (report's bundle) bring about forty
 * shared libraries with them (GnuTLS, Kerberos, LDAP, ICU, libxml2...):
 * linked in, every command paid ~10 ms to map and relocate them. They are
 * opened here by their runtime soname with our own minimal declarations
 * (as src/gpu/nvmlapi.c does for NVML), the first time a command needs
 * them; doc/architecture.md has the measurement.
 *
 * A static build cannot dlopen (buildinfo.h): there the callers use the
 * statically linked symbols instead, through the same table.
 */
#ifndef WSLGPU_DYNLIB_H
#define WSLGPU_DYNLIB_H

#include <stdbool.h>

#include "strbuf.h"

/* One entry point to resolve into *slot; the table ends with name NULL. */
struct dynlib_sym {
	const char *name;
	void **slot;
};

/*
 * Opens soname (RTLD_NOW | RTLD_LOCAL) once per process and resolves every
 * symbol of syms; the next call returns the first call's answer. Returns 0,
 * or -1 with a one-line message in err naming the library, what is missing
 * and the Debian package that provides it (package, e.g. "libcurl4").
 */
int dynlib_open(const char *soname, const char *package, const struct dynlib_sym *syms,
		struct strbuf *err);

#endif
