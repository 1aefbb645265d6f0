/* buildinfo.c: version, commit and libraries of this binary (see buildinfo.h). */
#include "buildinfo.h"

#include <string.h>

#include <gnu/libc-version.h>
#include <sqlite3.h>

#include "../version.h"

#ifdef WSLGPU_STATIC
/* Linked into the static build (bundle.c declares the rest of its API). */
extern const char *archive_version_string(void);
#endif

/* The Makefile passes the commit to this file alone, so that a new commit
 * rebuilds one object; the rest of the program asks buildinfo_commit(). */
#ifndef WSLGPU_COMMIT
#define WSLGPU_COMMIT "unknown"
#endif

const char *buildinfo_commit(void)
{
	return WSLGPU_COMMIT;
}

bool buildinfo_is_static(void)
{
#ifdef WSLGPU_STATIC
	return true;
#else
	return false;
#endif
}

const char *buildinfo_no_vendor_libs(void)
{
	if (!buildinfo_is_static())
		return NULL;
	return "this static build of wslgpu does not load the driver's libraries (a static "
	       "program cannot run their thread-local code); the dynamic build runs this check";
}

const char *buildinfo_static_skip(const char *check_id)
{
	if (!buildinfo_is_static() || !check_id)
		return NULL;
	if (!strncmp(check_id, "cuda.", 5) || !strcmp(check_id, "nvml.init") ||
	    !strcmp(check_id, "nvml.devices"))
		return buildinfo_no_vendor_libs();
	return NULL;
}

void buildinfo_build_lines(struct strbuf *out, const char *knowledge_date,
			   const char *knowledge_checked)
{
	sb_addf(out, "wslgpu %s (commit %s)%s\n", WSLGPU_VERSION, WSLGPU_COMMIT,
		buildinfo_is_static() ? ", static build" : "");
	/* The version facts the advice relies on, as of this month (the
	 * caller's, from src/kb/versions.h: core/ is below kb/): newer
	 * releases are said to be newer. */
	sb_addf(out, "knowledge: version tables of %s, last checked %s\n", knowledge_date,
		knowledge_checked);
#ifdef WSLGPU_STATIC
	sb_addf(out, "built with: inih, sqlite %s", sqlite3_libversion());
#else
	/* Opened at use: the version of the headers it was built with. */
	sb_add(out, "built with: inih, sqlite " SQLITE_VERSION);
#endif
#ifdef WSLGPU_STATIC
	/* "libarchive 3.6.2" */
	sb_addf(out, ", %s; libcurl: no (static build: smoke --push is not available)\n",
		archive_version_string());
	sb_addf(out, "dlopen at run time: nothing (static build, glibc %s): the cuda layer, "
		     "nvml.init, nvml.devices and bench gpu need the dynamic build; the libs "
		     "layer still predicts which libcuda.so.1 the loader picks\n",
		gnu_get_libc_version());
#else
	sb_add(out, "\ndlopen at run time: libcuda.so.1, libnvidia-ml.so.1\n");
#endif
}
