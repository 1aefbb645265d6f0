/* drvlib.c: which driver library a file is, by its content. See drvlib.h. */
#include "drvlib.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/rootfs.h"

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

/* What the data sections say, gathered in one pass. */
enum mark { MARK_NVML_STUB, MARK_WSL, MARK_LINUX, MARK_COUNT };

/* The markers, each found through one of its bytes (its anchor) that
 * memchr looks for: three passes over a window, whatever the number of
 * markers. at: where the anchor is in the text. */
static const struct marker {
	const char *text;
	unsigned char at, len;
	enum mark mark;
} markers[] = {
#define M(text, anchor_at, mark) { text, anchor_at, sizeof text - 1, mark }
	M("You should always run with libnvidia-ml.so", 39, MARK_NVML_STUB),
	M("libdxcore.so", 9, MARK_WSL),
	M("D3DKMT", 3, MARK_WSL),
	M("/usr/lib/wsl/", 0, MARK_WSL),
	M("/dev/nvidiactl", 0, MARK_LINUX),
	M("/proc/driver/nvidia", 0, MARK_LINUX),
#undef M
};
/* Each anchor with its markers (indexes into markers[]; -1 ends). A '.'
 * may also be a driver version's first dot. */
static const struct anchor {
	char c;
	signed char m[4];
} anchors[] = {
	{ '.', { 0, 1, -1 } },
	{ 'K', { 2, -1 } },
	{ '/', { 3, 4, 5, -1 } },
};
/* Bytes kept from one window to the next: the longest marker, and a
 * version with the NULs around it (16 + 2), fit. */
#define CARRY 64

struct scan {
	bool found[MARK_COUNT];
	char version[32];
};

/* The first NUL-delimited driver version whose first dot is at b[d]
 * (b[0..n) a window): 3 digits before it, a NUL before those. */
static bool version_at(const unsigned char *b, size_t n, size_t d, char *out, size_t outn)
{
	if (d < 4 || b[d - 4] != '\0')
		return false;
	size_t i = d - 3, j = i;
	while (j < n && j - i < 16 && (isdigit(b[j]) || b[j] == '.'))
		j++;
	if (j >= n || b[j] != '\0' || !is_driver_version((const char *)b + i, j - i))
		return false;
	snprintf(out, outn, "%.*s", (int)(j - i), (const char *)b + i);
	return true;
}

/* Looks for every marker and the first version in b[0..n). */
static void scan_window(struct scan *sc, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < sizeof anchors / sizeof anchors[0]; i++) {
		const struct anchor *a = &anchors[i];
		const unsigned char *p = b, *end = b + n;
		while (p < end && (p = memchr(p, a->c, (size_t)(end - p)))) {
			size_t d = (size_t)(p - b);
			p++;
			for (const signed char *k = a->m; *k >= 0; k++) {
				const struct marker *m = &markers[*k];
				if (sc->found[m->mark] || d < m->at || d - m->at + m->len > n)
					continue;
				const unsigned char *at = b + d - m->at;
				/* Two bytes first: most anchors begin no marker. */
				if (at[0] == (unsigned char)m->text[0] &&
				    at[1] == (unsigned char)m->text[1] && !memcmp(at, m->text, m->len))
					sc->found[m->mark] = true;
			}
			if (a->c == '.' && !sc->version[0])
				version_at(b, n, d, sc->version, sizeof sc->version);
		}
	}
}

/* Reads the data sections window by window (CARRY bytes of each kept in
 * front of the next, so that nothing across a boundary is missed). A
 * section is read with the byte before it (a version must follow a NUL;
 * the file's start counts as one) and the byte after it. Only the NVML
 * stub's text ends the reading early: nothing found later outranks it. */
static void scan_data(const struct elf_info *e, size_t window, struct scan *sc)
{
	if (window < 2 * CARRY)
		window = 2 * CARRY;
	unsigned char *b = xmalloc(CARRY + window);
	size_t have = 0;
	uint64_t held_end = 0; /* b[0..have) ends at this file offset */
	for (size_t r = 0; r < e->ndata; r++) {
		uint64_t off = e->data[r].off, end = e->data[r].off + e->data[r].len;
		if (off > 0)
			off--;
		if (end < e->src.size)
			end++;
		if (have && off <= held_end && held_end < end) {
			off = held_end; /* it goes on from the bytes held */
		} else if (have && held_end >= end) {
			continue; /* read already */
		} else if (off == 0) {
			b[0] = '\0';
			have = 1;
		} else {
			have = 0;
		}
		while (off < end) {
			if (have > CARRY) {
				memmove(b, b + have - CARRY, CARRY);
				have = CARRY;
			}
			size_t want = end - off < window ? (size_t)(end - off) : window;
			long got = elf_read(e, off, b + have, want);
			if (got <= 0)
				break; /* a read error or a file that shrank: what was read counts */
			have += (size_t)got;
			off += (uint64_t)got;
			held_end = off;
			scan_window(sc, b, have);
			if (sc->found[MARK_NVML_STUB])
				goto done;
		}
		if (off < end)
			break;
	}
done:
	free(b);
}

/* Whether the code of an entry point (c[0..n), at file offset at) returns
 * value at once (x86-64: optional endbr64 and frame setup, then mov
 * $value, %eax; AArch64: optional bti/paciasp, then mov w0, #value),
 * following one jmp. */
static bool returns_at_once(const struct elf_info *e, const unsigned char *c, size_t n,
			    uint64_t at, unsigned value, int hops)
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
		/* jmp rel32 to a shared "return the stub error". */
		if (hops > 0 && i + 5 <= n && c[i] == 0xe9) {
			int32_t rel = (int32_t)((uint32_t)c[i + 1] | (uint32_t)c[i + 2] << 8 |
						(uint32_t)c[i + 3] << 16 | (uint32_t)c[i + 4] << 24);
			uint64_t to = at + i + 5 + (uint64_t)(int64_t)rel;
			unsigned char t[32];
			long got = to < e->src.size ? elf_read(e, to, t, sizeof t) : -1;
			if (got > 0)
				return returns_at_once(e, t, (size_t)got, to, value, hops - 1);
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

static void classify_elf(const struct elf_info *e, const char *soname, const char *entry,
			 size_t window, struct drvlib *out)
{
	if (e->type != 3) {
		out->kind = DRVLIB_NOT_ELF;
		out->marker = "not an ELF shared object";
		return;
	}
	out->defined = e->ndefined;
	if (e->soname)
		snprintf(out->soname, sizeof out->soname, "%s", e->soname);
	if (!e->soname || strcmp(e->soname, soname) != 0) {
		out->kind = DRVLIB_OTHER;
		out->marker = e->soname ? "its SONAME is another library's" : "it has no SONAME";
		return;
	}
	if (!elf_defines(e, entry)) {
		out->kind = DRVLIB_OTHER;
		out->marker = "it does not define the library's entry point";
		return;
	}
	unsigned char code[32];
	uint64_t at;
	size_t n;
	if (!strncmp(entry, "cu", 2) && elf_code(e, entry, sizeof code, code, &at, &n) == 0 &&
	    returns_at_once(e, code, n, at, CUDA_ERROR_STUB_LIBRARY, 1)) {
		out->kind = DRVLIB_STUB;
		out->marker = "its cuInit returns CUDA_ERROR_STUB_LIBRARY (34) without doing anything";
		return;
	}
	struct scan sc;
	memset(&sc, 0, sizeof sc);
	scan_data(e, window ? window : DRVLIB_WINDOW, &sc);
	if (sc.found[MARK_NVML_STUB]) {
		out->kind = DRVLIB_STUB;
		out->marker = "it carries the NVML stub's warning to use the driver's library";
		return;
	}
	if (sc.found[MARK_WSL]) {
		out->kind = DRVLIB_WSL;
		out->marker = "it reaches the GPU through WSL's libdxcore (D3DKMT)";
	} else if (sc.found[MARK_LINUX]) {
		out->kind = DRVLIB_LINUX;
		out->marker = "it opens the Linux kernel driver (/dev/nvidiactl)";
	} else {
		out->kind = DRVLIB_UNKNOWN;
		out->marker = "no marker of WSL's, a Linux driver's or the stub library";
		return;
	}
	snprintf(out->version, sizeof out->version, "%s", sc.version);
}

void drvlib_classify_src(const struct elf_src *src, const char *soname, const char *entry,
			 size_t window, struct drvlib *out)
{
	memset(out, 0, sizeof *out);
	struct elf_info e;
	if (elf_parse_src(src, &e, NULL) < 0) {
		out->kind = DRVLIB_NOT_ELF;
		out->marker = "not an ELF shared object";
	} else {
		classify_elf(&e, soname, entry, window, out);
	}
	elf_free(&e);
}

void drvlib_classify(const unsigned char *buf, size_t len, const char *soname, const char *entry,
		     struct drvlib *out)
{
	struct elf_src src;
	elf_src_mem(&src, buf, len);
	drvlib_classify_src(&src, soname, entry, 0, out);
}

/* The answers given in this process, by file identity. */
static struct known {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec ctime;
	char soname[64], entry[64];
	struct drvlib d;
} known[4];
static size_t nknown;

int drvlib_classify_file(const char *guest, const char *soname, const char *entry,
			 struct drvlib *out)
{
	memset(out, 0, sizeof *out);
	struct stat st;
	int fd = rootfs_open_regular(guest, &st);
	if (fd < 0) {
		out->kind = DRVLIB_UNKNOWN;
		out->marker = "it cannot be read";
		return fd;
	}
	for (size_t i = 0; i < nknown && i < sizeof known / sizeof known[0]; i++) {
		const struct known *k = &known[i];
		if (k->dev == st.st_dev && k->ino == st.st_ino && k->size == st.st_size &&
		    k->ctime.tv_sec == st.st_ctim.tv_sec && k->ctime.tv_nsec == st.st_ctim.tv_nsec &&
		    !strcmp(k->soname, soname) && !strcmp(k->entry, entry)) {
			*out = k->d;
			close(fd);
			return 0;
		}
	}
	struct elf_src src;
	elf_src_fd(&src, fd, st.st_size > 0 ? (uint64_t)st.st_size : 0);
	drvlib_classify_src(&src, soname, entry, 0, out);
	close(fd);
	struct known *k = &known[nknown++ % (sizeof known / sizeof known[0])];
	*k = (struct known){ .dev = st.st_dev, .ino = st.st_ino, .size = st.st_size,
			     .ctime = st.st_ctim, .d = *out };
	snprintf(k->soname, sizeof k->soname, "%s", soname);
	snprintf(k->entry, sizeof k->entry, "%s", entry);
	return 0;
}
