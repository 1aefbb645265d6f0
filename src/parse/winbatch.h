/*
 * winbatch: the sections of the batched Windows query's output (the
 * PowerShell script of facts/windows.c, or its stand-ins).
 *
 * Each fact comes between two marker lines that nothing else prints:
 *
 *   ##wslgpu-begin NAME
 *   ...the fact, as its program printed it...
 *   ##wslgpu-end NAME STATUS
 *
 * NAME is [a-z0-9.-]; STATUS is "ok", "absent" (the program or data is not
 * there) or "error" (the body then holds the error). Markers are ASCII and
 * outside any translated text, so a localized Windows changes nothing. A
 * section whose end is missing (time-out, crash) is kept as "cut"; text
 * outside sections (PowerShell's own errors, a profile's noise) is kept as
 * `outside`. Pure; works on the decoded text (wintext.h), bounded.
 */
#ifndef WSLGPU_WINBATCH_H
#define WSLGPU_WINBATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/strbuf.h"

#define WINBATCH_MAX 32

enum winbatch_status {
	WINBATCH_OK,
	WINBATCH_ABSENT,
	WINBATCH_ERROR,
	WINBATCH_CUT, /* no end marker */
};

struct winbatch_section {
	char name[32];
	enum winbatch_status status;
	size_t off, len; /* the body within winbatch.text */
};

struct winbatch {
	struct strbuf text; /* the decoded output */
	size_t n;
	struct winbatch_section s[WINBATCH_MAX];
	size_t outside;     /* bytes of text outside any section */
};

/* Decodes and splits the output. Free with winbatch_free. Returns n. */
size_t winbatch_parse(const char *buf, size_t len, struct winbatch *b);
void winbatch_free(struct winbatch *b);
/* The section named name, or NULL. */
const struct winbatch_section *winbatch_get(const struct winbatch *b, const char *name);
/* Its body as a C string pointer and length ("" / 0 when absent). */
const char *winbatch_body(const struct winbatch *b, const struct winbatch_section *s, size_t *len);
const char *winbatch_status_name(enum winbatch_status st);

#define WINBATCH_BEGIN "##wslgpu-begin "
#define WINBATCH_END "##wslgpu-end "

#endif
