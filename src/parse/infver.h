/*
 * infver: the driver version a Windows driver package states in its .inf,
 * and the NVIDIA version number estimated from it.
 *
 * A Windows .inf says "DriverVer = 01/19/2024, 31.0.15.5123" (date, then
 * the four-part Windows file version). NVIDIA's own number is conventionally
 * the last digit of the third part followed by the fourth part, with a dot
 * before the last two digits: 31.0.15.5123 -> 551.23, 27.21.14.5541 -> 455.41.
 * research/wsl-facts.md §2.7 found one data point for the rule and no
 * official statement, so callers must label the result as an estimate.
 *
 * .inf files may be UTF-16; both byte orders are decoded for the search.
 * Pure functions over a buffer; odd input is -ENOENT or -EINVAL, never a crash.
 */
#ifndef WSLGPU_INFVER_H
#define WSLGPU_INFVER_H

#include <stddef.h>

/* The DriverVer date ("01/19/2024") and Windows version ("31.0.15.5123"). */
struct infver {
	char date[16];
	char windows[32];
};

/* Finds the first DriverVer line. Returns 0, -ENOENT (none) or -EINVAL
 * (a DriverVer line whose value is not "date, a.b.c.d"). */
int infver_find(const char *buf, size_t len, struct infver *iv);

/* "31.0.15.5123" -> "551.23" in out. Returns 0, or -EINVAL when the text is
 * not four numeric parts with a fourth part below 10000, or the result is
 * not an NVIDIA-style number (at least 100). */
int infver_nvidia(const char *windows, char *out, size_t outlen);

#endif
