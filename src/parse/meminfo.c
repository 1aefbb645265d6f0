/* meminfo.c: /proc "key value" files. See meminfo.h. */
#include "meminfo.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "../core/rootfs.h"

/* Parses the value that starts at p (at most end - p bytes). */
static int parse_value(const char *p, const char *end, unsigned long long *val)
{
	if (p < end && *p == ':')
		p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p < '0' || *p > '9')
		return -EINVAL;
	unsigned long long v = 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (~0ULL - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p >= 2 && (p[0] == 'k' || p[0] == 'K') && p[1] == 'B' &&
	    (end - p == 2 || p[2] == '\n' || p[2] == ' ' || p[2] == '\r')) {
		if (v > ~0ULL / 1024)
			return -ERANGE;
		v *= 1024;
	}
	*val = v;
	return 0;
}

int procfile_u64(const char *buf, size_t len, const char *key, unsigned long long *val)
{
	size_t klen = strlen(key);
	if (!buf || !klen)
		return -ENOENT;
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		if ((size_t)(eol - p) > klen && memcmp(p, key, klen) == 0 &&
		    (p[klen] == ':' || p[klen] == ' ' || p[klen] == '\t'))
			return parse_value(p + klen, eol, val);
		if (!nl)
			break;
		p = nl + 1;
	}
	return -ENOENT;
}

static const struct {
	const char *key;
	unsigned bit;
	size_t off;
} mem_fields[] = {
	{ "MemTotal", MI_MEM_TOTAL, offsetof(struct meminfo, mem_total) },
	{ "MemFree", MI_MEM_FREE, offsetof(struct meminfo, mem_free) },
	{ "MemAvailable", MI_MEM_AVAILABLE, offsetof(struct meminfo, mem_available) },
	{ "SwapTotal", MI_SWAP_TOTAL, offsetof(struct meminfo, swap_total) },
	{ "SwapFree", MI_SWAP_FREE, offsetof(struct meminfo, swap_free) },
	{ "SwapCached", MI_SWAP_CACHED, offsetof(struct meminfo, swap_cached) },
};

/* The fields a line (or a whole buffer) holds that are not known yet:
 * the first line with a key wins, as in procfile_u64. */
static void meminfo_scan(const char *buf, size_t len, struct meminfo *mi)
{
	for (size_t i = 0; i < sizeof mem_fields / sizeof mem_fields[0]; i++) {
		unsigned long long v;
		if (!(mi->have & mem_fields[i].bit) && procfile_u64(buf, len, mem_fields[i].key, &v) == 0) {
			memcpy((char *)mi + mem_fields[i].off, &v, sizeof v);
			mi->have |= mem_fields[i].bit;
		}
	}
}

int meminfo_parse(const char *buf, size_t len, struct meminfo *mi)
{
	memset(mi, 0, sizeof *mi);
	meminfo_scan(buf, len, mi);
	return (mi->have & MI_MEM_TOTAL) ? 0 : -EINVAL;
}

int meminfo_read(const char *guest, struct meminfo *mi)
{
	memset(mi, 0, sizeof *mi);
	struct rootfs_lines l;
	int rc = rootfs_lines_open(&l, guest);
	if (rc < 0)
		return rc;
	const unsigned all = MI_MEM_TOTAL | MI_MEM_FREE | MI_MEM_AVAILABLE | MI_SWAP_TOTAL |
			     MI_SWAP_FREE | MI_SWAP_CACHED;
	while (mi->have != all && rootfs_lines_next(&l) > 0)
		meminfo_scan(l.line, l.len, mi);
	rc = l.err;
	rootfs_lines_close(&l);
	if (mi->have & MI_MEM_TOTAL)
		return 0;
	return rc < 0 ? rc : -ENODATA;
}

unsigned long long meminfo_swap_used(const struct meminfo *mi)
{
	if (!(mi->have & MI_SWAP_TOTAL) || !(mi->have & MI_SWAP_FREE))
		return 0;
	return mi->swap_total > mi->swap_free ? mi->swap_total - mi->swap_free : 0;
}

int vmstat_parse(const char *buf, size_t len, struct vmstat *vs)
{
	memset(vs, 0, sizeof *vs);
	int a = procfile_u64(buf, len, "pswpin", &vs->pswpin);
	int b = procfile_u64(buf, len, "pswpout", &vs->pswpout);
	vs->have_pswp = a == 0 && b == 0;
	return vs->have_pswp ? 0 : -ENOENT;
}

int vmstat_read(const char *guest, struct vmstat *vs)
{
	memset(vs, 0, sizeof *vs);
	struct rootfs_lines l;
	int rc = rootfs_lines_open(&l, guest);
	if (rc < 0)
		return rc;
	bool in = false, out = false;
	while ((!in || !out) && rootfs_lines_next(&l) > 0) {
		if (!in)
			in = procfile_u64(l.line, l.len, "pswpin", &vs->pswpin) == 0;
		if (!out)
			out = procfile_u64(l.line, l.len, "pswpout", &vs->pswpout) == 0;
	}
	rootfs_lines_close(&l);
	vs->have_pswp = in && out;
	return vs->have_pswp ? 0 : -ENOENT;
}
