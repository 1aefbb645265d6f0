/*
 * winreg: registry values as `reg.exe query KEY` prints them
 *
 *   HKEY_LOCAL_MACHINE\SYSTEM\CurrentControlSet\Control\GraphicsDrivers
 *       TdrDelay    REG_DWORD    0x3c
 *
 * and as regedit exports them (a .reg file: [KEY], "TdrDelay"=dword:0000003c).
 * Value names and REG_* types are never translated, so nothing here depends
 * on the display language; reg.exe's error messages are, and are only
 * noted as "no value". Pure, bounded (WINREG_MAX_VALUES values).
 */
#ifndef WSLGPU_WINREG_H
#define WSLGPU_WINREG_H

#include <stdbool.h>
#include <stddef.h>

#define WINREG_MAX_VALUES 64

struct winreg_value {
	char key[256];     /* the key it was listed under, "" if none */
	char name[96];     /* "TdrDelay"; "" for a key's default value */
	char type[24];     /* "REG_DWORD", "REG_SZ", ... */
	char data[256];    /* as printed (for .reg dwords: decimal) */
	bool is_number;    /* REG_DWORD / REG_QWORD */
	unsigned long long number;
};

struct winreg {
	char key[256];     /* the first key named */
	size_t n;
	size_t more;       /* values past WINREG_MAX_VALUES, not kept */
	struct winreg_value v[WINREG_MAX_VALUES];
};

/* Parses reg.exe's or a .reg export's text (UTF-16 or UTF-8). Returns n. */
size_t winreg_parse(const char *buf, size_t len, struct winreg *r);
/* The first value named name (case-insensitive), or NULL. */
const struct winreg_value *winreg_get(const struct winreg *r, const char *name);

#endif
