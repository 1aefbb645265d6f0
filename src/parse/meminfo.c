/* meminfo.c: /proc "key value" files. See meminfo.h. */
#include "meminfo.h"

#include <errno.h>
#include <string.h>

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

int meminfo_parse(const char *buf, size_t len, struct meminfo *mi)
{
	static const struct {
		const char *key;
		unsigned bit;
		size_t off;
	} fields[] = {
		{ "MemTotal", MI_MEM_TOTAL, offsetof(struct meminfo, mem_total) },
		{ "MemFree", MI_MEM_FREE, offsetof(struct meminfo, mem_free) },
		{ "MemAvailable", MI_MEM_AVAILABLE, offsetof(struct meminfo, mem_available) },
		{ "SwapTotal", MI_SWAP_TOTAL, offsetof(struct meminfo, swap_total) },
		{ "SwapFree", MI_SWAP_FREE, offsetof(struct meminfo, swap_free) },
		{ "SwapCached", MI_SWAP_CACHED, offsetof(struct meminfo, swap_cached) },
	};
	memset(mi, 0, sizeof *mi);
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		unsigned long long v;
		if (procfile_u64(buf, len, fields[i].key, &v) == 0) {
			memcpy((char *)mi + fields[i].off, &v, sizeof v);
			mi->have |= fields[i].bit;
		}
	}
	return (mi->have & MI_MEM_TOTAL) ? 0 : -EINVAL;
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
