/* buildinfo.c: version, commit and libraries of this binary (see buildinfo.h). */
#include "buildinfo.h"

#include <string.h>

#include <gnu/libc-version.h>
#include <sqlite3.h>

#ifndef WSLGPU_NO_CURL
#include <curl/curl.h>
#endif
#ifndef WSLGPU_NO_ARCHIVE
#include <archive.h>
#endif

#include "../version.h"

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

void buildinfo_describe(struct strbuf *out)
{
	sb_addf(out, "wslgpu %s (commit %s)%s\n", WSLGPU_VERSION, WSLGPU_COMMIT,
		buildinfo_is_static() ? ", static build" : "");
	sb_addf(out, "built with: inih, sqlite %s", sqlite3_libversion());
#ifndef WSLGPU_NO_CURL
	const curl_version_info_data *cv = curl_version_info(CURLVERSION_NOW);
	sb_addf(out, ", libcurl %s", cv && cv->version ? cv->version : "?");
#endif
#ifndef WSLGPU_NO_ARCHIVE
	/* "libarchive 3.6.2" */
	sb_addf(out, ", %s", archive_version_string());
#endif
#ifdef WSLGPU_NO_CURL
	sb_add(out, "; libcurl: no (static build: smoke --push is not available)");
#endif
#ifdef WSLGPU_NO_ARCHIVE
	sb_add(out, "; libarchive: no (report cannot write a bundle; report --markdown works)");
#endif
	sb_addc(out, '\n');
	if (buildinfo_is_static())
		sb_addf(out, "dlopen at run time: nothing (static build, glibc %s): the cuda layer, "
			     "nvml.init, nvml.devices and bench gpu need the dynamic build; the libs "
			     "layer still predicts which libcuda.so.1 the loader picks\n",
			gnu_get_libc_version());
	else
		sb_add(out, "dlopen at run time: libcuda.so.1, libnvidia-ml.so.1\n");
}
