/*
 * winwslver: what `wsl.exe --version` printed: the versions of WSL, its
 * kernel, WSLg, MSRDC, Direct3D, DXCore and Windows.
 *
 * The labels are translated (WSL's localization/strings/<lang>/Resources.resw,
 * MessagePackageVersions: "WSL version:", "WSL-Version:", "Version WSL :",
 * "WSL 版本:", "WSL バージョン:", "Версия WSL:"...), and older releases
 * worded them differently ("Windowsバージョン:", "Windows:", "version
 * Windows :") or printed six lines (no DXCore before WSL 0.6x). What every
 * translation keeps are the product names: WSLg, MSRDC, Direct3D, DXCore,
 * Windows and WSL are never translated, and the kernel's line, the one
 * label without a product name, comes right after WSL's. So a field is
 * recognised by the product name in its label (case-insensitive), the
 * kernel by its place, and nothing depends on the display language or on
 * the number of lines. The colon may be ASCII or full-width (zh-TW) and
 * follow a space (French); the fields may be one a line or, as issue forms
 * paste them, all on one line; prompts and other lines are skipped.
 *
 * Pure: decodes UTF-16/UTF-8/CR LF itself (wintext.h), bounded work.
 */
#ifndef WSLGPU_WINWSLVER_H
#define WSLGPU_WINWSLVER_H

#include <stdbool.h>
#include <stddef.h>

struct winwslver {
	char wsl[64];
	char kernel[64];
	char wslg[64];
	char msrdc[64];
	char direct3d[64];
	char dxcore[96];
	char windows[64];
	int fields; /* how many of the seven were found */
};

/* Fills v from the output (UTF-16 or UTF-8). Returns v->fields. */
int winwslver_parse(const char *buf, size_t len, struct winwslver *v);

#endif
