/*
 * winver: the Windows version as `cmd /c ver` prints it,
 * "Microsoft Windows [Version 10.0.26100.2894]".
 *
 * The word before the number is translated ("[Version ...]", "[version
 * ...]" in French, "[版本 ...]" in Chinese), so the number is found by its
 * shape inside the brackets: major.minor.build, and the revision (the
 * update build revision, UBR) when there is one. Pure, bounded.
 */
#ifndef WSLGPU_WINVER_H
#define WSLGPU_WINVER_H

#include <stddef.h>

struct winver {
	char version[32]; /* "10.0.26100.2894", "" when not found */
	long build;       /* 26100, -1 when not found */
	long revision;    /* 2894, -1 when the output has none */
};

/* Returns 0 when a version was found, -1 otherwise. */
int winver_parse(const char *buf, size_t len, struct winver *w);
/* The same from the registry's CurrentBuild (or CurrentBuildNumber) and UBR
 * values (-1: absent): "10.0.BUILD.UBR". Returns 0, or -1 without a build. */
int winver_from_build(long build, long ubr, struct winver *w);

#endif
