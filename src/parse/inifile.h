/*
 * ini: INI files (.wslconfig, /etc/wsl.conf, later the smoke policy),
 * parsed with inih into a flat list of section/key/value with line numbers,
 * so that callers can both look values up and report "file:line" errors.
 *
 * .wslconfig is often saved by Windows editors as UTF-16 or with a BOM and
 * CRLF; WSL then ignores it silently (microsoft/WSL#7851). ini_load reports
 * the encoding it saw so that the probe can say so.
 */
#ifndef WSLGPU_INIFILE_H
#define WSLGPU_INIFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/strbuf.h"

struct inifile_item {
	char *section;
	char *key;
	char *value;
	int line;
};

struct inifile {
	struct inifile_item *items;
	size_t n, alloc;
	int error_line;      /* first line inih could not parse, 0 if none */
	bool utf16;          /* the bytes look like UTF-16 (BOM or NUL pattern) */
	bool utf8_bom;
	bool crlf;
	bool nul_bytes;      /* NULs that were not UTF-16: binary garbage */
};

/* Parses text of len bytes. Never fails: problems are recorded in ini. */
void inifile_parse(const char *text, size_t len, struct inifile *ini);
void inifile_free(struct inifile *ini);
/* Last value of section.key (case-insensitive, as WSL does), or NULL. */
const struct inifile_item *inifile_find(const struct inifile *ini, const char *section, const char *key);
/* Parses a boolean as WSL does: true/false, yes/no, 1/0, on/off. -1 if not one. */
int inifile_bool(const char *v);
/* Parses a size like 8GB, 512MB, 1024 (bytes). Returns -1 if malformed. */
long long inifile_size(const char *v);

#endif
