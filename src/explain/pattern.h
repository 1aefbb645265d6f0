/*
 * pattern: what a `match:` line means (src/kb/README.md).
 *
 * Plain text is a literal, found anywhere in the normalised message, case
 * and runs of blanks ignored, as it always was. Braces add classes for the
 * parts of a message that vary between users, so that one signature covers
 * every version, path, size or GPU name:
 *
 *   {n}     a number            {ver}   a version (12.4, 535.104.05, 2.1.0+cu121)
 *   {hex}   a hex number        {size}  a size (2.00 GiB, 374391296 bytes, 20MiB)
 *   {path}  a file path         {word}  any run of non-blanks
 *   {gpu}   a GPU name          {any}   anything, or nothing
 *   {cuda:X} {nvml:X} {nccl:X} {hresult:X}
 *           that error code, by any of its names or by its number (codes.h);
 *           X is a name or a number. Alone on a `match:` line it also matches
 *           the number after an error word on a line that names the family
 *           ("cuda error 100", "code=100", "cuInit returned 100").
 *   {{      a literal '{'
 *
 * A `match:` with classes becomes a POSIX ERE (literal parts escaped) and
 * is matched like a `regex:` line.
 */
#ifndef WSLGPU_EXPLAIN_PATTERN_H
#define WSLGPU_EXPLAIN_PATTERN_H

#include "../core/strbuf.h"

enum mpat_kind { MP_LITERAL, MP_ERE, MP_CODE };

struct mpat {
	enum mpat_kind kind;
	char *text; /* MP_LITERAL: the key (lower case, blanks collapsed); MP_ERE: the ERE */
	int code;   /* MP_CODE: index into codes_table() */
};

/* Returns 0, or -1 with a message in err (an unknown class, an unknown code). */
int mpat_parse(const char *match, struct mpat *out, struct strbuf *err);
void mpat_free(struct mpat *p);

#endif
