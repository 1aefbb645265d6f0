/* drvlib.c: which driver library a file is, by its content. See drvlib.h. */
#include "drvlib.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "elf.h"

#define CUDA_ERROR_STUB_LIBRARY 34

const char *drvlib_kind_text(enum drvlib_kind k)
{
	switch (k) {
	case DRVLIB_WSL: return "WSL's driver library (from the Windows driver)";
	case DRVLIB_LINUX: return "a Linux driver's library";
	case DRVLIB_STUB: return "the CUDA toolkit's stub";
	case DRVLIB_OTHER: return "not this driver library";
	case DRVLIB_NOT_ELF: return "not a shared library";
	case DRVLIB_UNKNOWN: break;
	}
	return "a library of unknown origin";
}

const char *drvlib_kind_name(enum drvlib_kind k)
{
	switch (k) {
	case DRVLIB_WSL: return "wsl";
	case DRVLIB_LINUX: return "linux";
	case DRVLIB_STUB: return "stub";
	case DRVLIB_OTHER: return "other";
	case DRVLIB_NOT_ELF: return "not-elf";
	case DRVLIB_UNKNOWN: break;
	}
	return "unknown";
}

/* Whether s[0..n) is a driver version: 3-digit branch, then 2-3 digits,
 * optionally 2 more (535.104.05, 570.26, 550.54.15). */
static bool is_driver_version(const char *s, size_t n)
{
	size_t i = 0, parts = 0;
	while (i < n) {
		size_t d = 0;
		while (i < n && isdigit((unsigned char)s[i]))
			i++, d++;
		if (parts == 0 && (d != 3 || s[0] < '3'))
			return false;
		if (parts > 0 && (d < 2 || d > 3))
			return false;
		parts++;
		if (i == n)
			break;
		if (s[i] != '.' || parts == 3)
			return false;
		i++;
		if (i == n)
			return false;
	}
	return parts >= 2;
}

int drvlib_version_from_name(const char *base, const char *soname, char *out, size_t n)
{
	/* libcuda.so.1 -> stem "libcuda.so." */
	const char *dot = strstr(soname, ".so");
	if (!dot || !n)
		return -1;
	size_t stem = (size_t)(dot - soname) + 4;
	if (strncmp(base, soname, stem - 1) != 0 || base[stem - 1] != '.')
		return -1;
	const char *v = base + stem;
	if (!is_driver_version(v, strlen(v)))
		return -1;
	snprintf(out, n, "%s", v);
	return 0;
}

static bool has(const unsigned char *buf, size_t len, const char *s)
{
	return memmem(buf, len, s, strlen(s)) != NULL;
}

/* The first NUL-delimited string of the file that is a driver version. */
static void find_version(const unsigned char *buf, size_t len, char *out, size_t n)
{
	size_t i = 0;
	while (i < len) {
		if (!isdigit(buf[i]) || (i && buf[i - 1] != '\0')) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < len && j - i < 16 && (isdigit(buf[j]) || buf[j] == '.'))
			j++;
		if (j < len && buf[j] == '\0' && is_driver_version((const char *)buf + i, j - i)) {
			snprintf(out, n, "%.*s", (int)(j - i), (const char *)buf + i);
			return;
		}
		i = j + 1;
	}
}

/* Whether the code of an entry point returns value at once (x86-64:
 * optional endbr64 and frame setup, then mov $value, %eax; AArch64:
 * optional bti/paciasp, then mov w0, #value), following one jmp. */
static bool returns_at_once(const struct elf_info *e, const unsigned char *c, size_t n,
			    unsigned value, int hops)
{
	if (e->machine == 62) {
		size_t i = 0;
		if (n >= 4 && !memcmp(c, "\xf3\x0f\x1e\xfa", 4))
			i += 4; /* endbr64 */
		if (i < n && c[i] == 0x55)
			i++; /* push %rbp */
		if (i + 3 <= n && !memcmp(c + i, "\x48\x89\xe5", 3))
			i += 3; /* mov %rsp,%rbp */
		if (i + 5 <= n && c[i] == 0xb8) {
			unsigned imm = (unsigned)c[i + 1] | (unsigned)c[i + 2] << 8 |
				       (unsigned)c[i + 3] << 16 | (unsigned)c[i + 4] << 24;
			return imm == value;
		}
		/* jmp rel32 / rel8 to a shared "return the stub error". */
		if (hops > 0 && i + 5 <= n && c[i] == 0xe9) {
			int32_t rel = (int32_t)((uint32_t)c[i + 1] | (uint32_t)c[i + 2] << 8 |
						(uint32_t)c[i + 3] << 16 | (uint32_t)c[i + 4] << 24);
			uint64_t at = (uint64_t)(c - e->buf) + i + 5;
			uint64_t to = at + (uint64_t)(int64_t)rel;
			if (to < e->len)
				return returns_at_once(e, e->buf + to, e->len - to < 32 ? e->len - to : 32,
						       value, hops - 1);
		}
		return false;
	}
	if (e->machine == 183) {
		size_t i = 0;
		while (i + 4 <= n && i < 8) {
			uint32_t w = (uint32_t)c[i] | (uint32_t)c[i + 1] << 8 | (uint32_t)c[i + 2] << 16 |
				     (uint32_t)c[i + 3] << 24;
			if (w == 0xd503245f || w == 0xd503233f) /* bti c, paciasp */
				i += 4;
			else
				break;
		}
		if (i + 4 > n)
			return false;
		uint32_t w = (uint32_t)c[i] | (uint32_t)c[i + 1] << 8 | (uint32_t)c[i + 2] << 16 |
			     (uint32_t)c[i + 3] << 24;
		return w == (0x52800000u | (value & 0xffffu) << 5); /* movz w0, #value */
	}
	return false;
}

void drvlib_classify(const unsigned char *buf, size_t len, const char *soname, const char *entry,
		     struct drvlib *out)
{
	memset(out, 0, sizeof *out);
	struct elf_info e;
	if (elf_parse(buf, len, &e, NULL) < 0 || e.type != 3) {
		out->kind = DRVLIB_NOT_ELF;
		out->marker = "not an ELF shared object";
		return;
	}
	out->defined = e.ndefined;
	if (e.soname)
		snprintf(out->soname, sizeof out->soname, "%s", e.soname);
	if (!e.soname || strcmp(e.soname, soname) != 0) {
		out->kind = DRVLIB_OTHER;
		out->marker = e.soname ? "its SONAME is another library's" : "it has no SONAME";
		return;
	}
	if (!elf_defines(&e, entry)) {
		out->kind = DRVLIB_OTHER;
		out->marker = "it does not define the library's entry point";
		return;
	}
	const unsigned char *code;
	size_t n;
	if (!strncmp(entry, "cu", 2) && elf_code(&e, entry, 32, &code, &n) == 0 &&
	    returns_at_once(&e, code, n, CUDA_ERROR_STUB_LIBRARY, 1)) {
		out->kind = DRVLIB_STUB;
		out->marker = "its cuInit returns CUDA_ERROR_STUB_LIBRARY (34) without doing anything";
		return;
	}
	if (has(buf, len, "You should always run with libnvidia-ml.so")) {
		out->kind = DRVLIB_STUB;
		out->marker = "it carries the NVML stub's warning to use the driver's library";
		return;
	}
	if (has(buf, len, "libdxcore.so") || has(buf, len, "D3DKMT") || has(buf, len, "/usr/lib/wsl/")) {
		out->kind = DRVLIB_WSL;
		out->marker = "it reaches the GPU through WSL's libdxcore (D3DKMT)";
	} else if (has(buf, len, "/dev/nvidiactl") || has(buf, len, "/proc/driver/nvidia")) {
		out->kind = DRVLIB_LINUX;
		out->marker = "it opens the Linux kernel driver (/dev/nvidiactl)";
	} else {
		out->kind = DRVLIB_UNKNOWN;
		out->marker = "no marker of WSL's, a Linux driver's or the stub library";
		return;
	}
	find_version(buf, len, out->version, sizeof out->version);
}
