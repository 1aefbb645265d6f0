/*
 * buildinfo: what this binary was built from and with, for --version and
 * for reports: the version, the git commit, the libraries linked in (with
 * the versions they report at run time) and what a static build lacks.
 * The static build (make static) defines WSLGPU_STATIC and WSLGPU_NO_CURL;
 * this is the one place that says what that costs. The dynamic build links
 * neither libcurl nor libarchive: it opens them at use (dynlib.h).
 */
#ifndef WSLGPU_BUILDINFO_H
#define WSLGPU_BUILDINFO_H

#include <stdbool.h>

#include "strbuf.h"

const char *buildinfo_commit(void);
bool buildinfo_is_static(void);
/*
 * NULL in a dynamic build. In a static one, why vendor libraries are not
 * loaded: a static program that dlopens libcuda gets a second C library
 * inside it, and the driver's thread-local variables crash it (measured
 * with the fake libcuda: SIGSEGV in the first call that uses them). The
 * loaders (cudaapi, nvmlapi) refuse with this text, so bench gpu and watch
 * say so instead of crashing.
 */
const char *buildinfo_no_vendor_libs(void);
/* The same reason for the checks that load vendor libraries (the cuda
 * layer, nvml.init, nvml.devices), which the runner then skips; NULL for
 * every other check, and for every check in a dynamic build. */
const char *buildinfo_static_skip(const char *check_id);
/* The lines of the --version text that the build decides (three), each
 * ending in a newline; the knowledge line names the version tables' date
 * and when they were last checked (src/kb/versions.h, a layer above). */
void buildinfo_build_lines(struct strbuf *out, const char *knowledge_date,
			   const char *knowledge_checked);
/* The whole --version text: those lines, and in the dynamic build a fourth
 * saying where the loader would find the libraries opened at use. Defined
 * by the command line (src/cli/version.c), which reads this machine's
 * ld.so.cache with src/parse/ldcache.h: core/ includes no parser, and
 * nothing in core/ calls this. */
void buildinfo_describe(struct strbuf *out);

#endif
