/* ldcache.c: glibc ld.so.cache reader and lookup. See ldcache.h. */
#include "ldcache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC_OLD "ld.so-1.7.0"        /* 11 bytes, no NUL in the file */
#define MAGIC_NEW "glibc-ld.so.cache1.1" /* magic[17] + version[3] */
#define OLD_HEADER 16u                 /* magic[11], pad, uint32 nlibs */
#define OLD_ENTRY 12u
#define NEW_HEADER 48u
#define NEW_ENTRY 24u
#define EXT_MAGIC 0xeaa42174u          /* (uint32_t) -358342284 */
#define EXT_TAG_GENERATOR 0u

/* The file is little-endian on every platform we diagnose (x86-64, arm64);
 * a big-endian cache is refused by its header flags before we get here. */
static uint32_t le32(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;
	return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 |
	       (uint32_t)u[3] << 24;
}

static uint64_t le64(const char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* A string at off within a table of size bytes, or NULL with why filled. */
static const char *table_string(const char *table, size_t size, uint32_t off, size_t idx,
				const char *what, struct strbuf *why)
{
	if (off >= size) {
		sb_addf(why, "entry %zu: the %s is at offset %u, beyond the end of the file",
			idx, what, off);
		return NULL;
	}
	if (!memchr(table + off, '\0', size - off)) {
		sb_addf(why, "entry %zu: the %s runs off the end of the file", idx, what);
		return NULL;
	}
	return table + off;
}

/* The generator string from the extension directory, if it is sound.
 * glibc ignores a damaged extension directory; so do we. */
static void read_generator(const char *buf, size_t len, uint32_t ext, struct ldcache *c)
{
	if (ext == 0 || ext % 4 || ext > len || len - ext < 8)
		return;
	if (le32(buf + ext) != EXT_MAGIC)
		return;
	uint32_t count = le32(buf + ext + 4);
	if (count > (len - ext - 8) / 16)
		return;
	for (uint32_t i = 0; i < count; i++) {
		const char *s = buf + ext + 8 + (size_t)i * 16;
		uint32_t tag = le32(s), off = le32(s + 8), size = le32(s + 12);
		if (tag != EXT_TAG_GENERATOR || off > len || size > len - off || size > 4096)
			continue;
		free(c->generator);
		c->generator = xstrndup(buf + off, size);
		return;
	}
}

/* Parses the new layout whose header starts at base. */
static int parse_new(const char *buf, size_t len, size_t base, struct ldcache *c,
		     struct strbuf *why)
{
	size_t avail = len - base;
	if (avail < NEW_HEADER) {
		sb_addf(why, "truncated: the header needs %u bytes, the file has %zu", NEW_HEADER,
			avail);
		return -EINVAL;
	}
	const char *h = buf + base;
	uint32_t nlibs = le32(h + 20), len_strings = le32(h + 24);
	uint8_t flags = (uint8_t)h[28];
	uint32_t ext = le32(h + 32);
	/* cache_file_new_matches_endian: 0 means "not recorded". */
	if (flags != 0 && (flags & 3) != 2) {
		sb_addf(why, "its header marks it as %s",
			(flags & 3) == 3 ? "big-endian (written on another machine)"
					 : "having an invalid byte order");
		return -EINVAL;
	}
	size_t room = (avail - NEW_HEADER) / NEW_ENTRY;
	if (nlibs > room) {
		sb_addf(why, "the header claims %u entr%s but the file has room for %zu", nlibs,
			nlibs == 1 ? "y" : "ies", room);
		return -EINVAL;
	}
	uint64_t strings_end = (uint64_t)NEW_HEADER + (uint64_t)nlibs * NEW_ENTRY + len_strings;
	if (strings_end > avail) {
		sb_addf(why, "truncated: the string table ends at byte %llu, the file has %zu",
			(unsigned long long)(strings_end + base), len);
		return -EINVAL;
	}
	c->e = nlibs ? xcalloc(nlibs, sizeof *c->e) : NULL;
	for (uint32_t i = 0; i < nlibs; i++) {
		const char *p = h + NEW_HEADER + (size_t)i * NEW_ENTRY;
		struct ldcache_entry *e = &c->e[i];
		e->flags = (int32_t)le32(p);
		e->hwcap = le64(p + 16);
		e->name = table_string(h, avail, le32(p + 4), i, "library name", why);
		if (!e->name)
			return -EINVAL;
		e->path = table_string(h, avail, le32(p + 8), i, "file name", why);
		if (!e->path)
			return -EINVAL;
		c->n = i + 1;
	}
	read_generator(buf, len, ext, c);
	return 0;
}

static int parse_old(const char *buf, size_t len, struct ldcache *c, struct strbuf *why)
{
	if (len < OLD_HEADER) {
		sb_addf(why, "truncated: the header needs %u bytes, the file has %zu", OLD_HEADER,
			len);
		return -EINVAL;
	}
	uint32_t nlibs = le32(buf + 12);
	size_t room = (len - OLD_HEADER) / OLD_ENTRY;
	if (nlibs > room) {
		sb_addf(why, "the header claims %u entr%s but the file has room for %zu", nlibs,
			nlibs == 1 ? "y" : "ies", room);
		return -EINVAL;
	}
	size_t table = OLD_HEADER + (size_t)nlibs * OLD_ENTRY;
	/* compat: a whole new-format cache follows, aligned to 8 (ALIGN_CACHE);
	 * ld.so uses that part and ignores the old entries. */
	size_t next = (table + 7) & ~(size_t)7;
	if (next <= len && len - next >= NEW_HEADER &&
	    memcmp(buf + next, MAGIC_NEW, sizeof MAGIC_NEW - 1) == 0) {
		c->format = LDCACHE_COMPAT;
		return parse_new(buf, len, next, c, why);
	}
	c->format = LDCACHE_OLD;
	c->e = nlibs ? xcalloc(nlibs, sizeof *c->e) : NULL;
	for (uint32_t i = 0; i < nlibs; i++) {
		const char *p = buf + OLD_HEADER + (size_t)i * OLD_ENTRY;
		struct ldcache_entry *e = &c->e[i];
		e->flags = (int32_t)le32(p);
		e->name = table_string(buf + table, len - table, le32(p + 4), i, "library name",
				       why);
		if (!e->name)
			return -EINVAL;
		e->path = table_string(buf + table, len - table, le32(p + 8), i, "file name", why);
		if (!e->path)
			return -EINVAL;
		c->n = i + 1;
	}
	return 0;
}

int ldcache_parse(const char *buf, size_t len, struct ldcache *c, struct strbuf *why)
{
	memset(c, 0, sizeof *c);
	sb_reset(why);
	int rc;
	if (len == 0) {
		sb_add(why, "the file is empty");
		return -EINVAL;
	}
	if (len >= sizeof MAGIC_NEW - 1 && memcmp(buf, MAGIC_NEW, sizeof MAGIC_NEW - 1) == 0) {
		c->format = LDCACHE_NEW;
		rc = parse_new(buf, len, 0, c, why);
	} else if (len >= sizeof MAGIC_OLD - 1 &&
		   memcmp(buf, MAGIC_OLD, sizeof MAGIC_OLD - 1) == 0) {
		rc = parse_old(buf, len, c, why);
	} else if (len < sizeof MAGIC_NEW - 1 &&
		   (memcmp(buf, MAGIC_NEW, len) == 0 ||
		    memcmp(buf, MAGIC_OLD, len < sizeof MAGIC_OLD - 1 ? len : sizeof MAGIC_OLD - 1) == 0)) {
		sb_addf(why, "truncated: only %zu bytes of the header are there", len);
		rc = -EINVAL;
	} else {
		sb_add(why, "it does not start with an ld.so.cache header (unknown magic)");
		rc = -EINVAL;
	}
	if (rc < 0)
		ldcache_free(c);
	return rc;
}

void ldcache_free(struct ldcache *c)
{
	free(c->e);
	free(c->generator);
	c->e = NULL;
	c->generator = NULL;
	c->n = 0;
}

const char *ldcache_format_name(enum ldcache_format f)
{
	switch (f) {
	case LDCACHE_NEW: return "glibc-ld.so.cache1.1";
	case LDCACHE_COMPAT: return "ld.so-1.7.0 + glibc-ld.so.cache1.1 (compat)";
	case LDCACHE_OLD: return "ld.so-1.7.0 (old)";
	}
	return "unknown";
}

void ldcache_describe_flags(int32_t flags, struct strbuf *out)
{
	static const char *const type[] = { "libc4", "ELF", "libc5", "libc6" };
	uint32_t f = (uint32_t)flags;
	if ((f & LDCACHE_FLAG_TYPE_MASK) <= 3)
		sb_add(out, type[f & LDCACHE_FLAG_TYPE_MASK]);
	else
		sb_addf(out, "type %#x", f & LDCACHE_FLAG_TYPE_MASK);
	switch (f & 0xff00u) {
	case 0: break;
	case LDCACHE_FLAG_X8664_LIB64: sb_add(out, ",x86-64"); break;
	case 0x0800: sb_add(out, ",x32"); break;
	case LDCACHE_FLAG_AARCH64_LIB64: sb_add(out, ",AArch64"); break;
	default: sb_addf(out, ",%#x", f & 0xff00u); break;
	}
	if (f & ~0xffffu)
		sb_addf(out, ",unknown bits %#x", f & ~0xffffu);
}

int ldcache_libcmp(const char *p1, const char *p2)
{
	while (*p1 != '\0') {
		if (*p1 >= '0' && *p1 <= '9') {
			if (*p2 >= '0' && *p2 <= '9') {
				/* Numbers compare by value; saturate so that absurd
				 * digit runs cannot overflow. */
				unsigned long v1 = 0, v2 = 0;
				while (*p1 >= '0' && *p1 <= '9') {
					if (v1 < 100000000ul)
						v1 = v1 * 10 + (unsigned long)(*p1 - '0');
					p1++;
				}
				while (*p2 >= '0' && *p2 <= '9') {
					if (v2 < 100000000ul)
						v2 = v2 * 10 + (unsigned long)(*p2 - '0');
					p2++;
				}
				if (v1 != v2)
					return v1 < v2 ? -1 : 1;
			} else {
				return 1;
			}
		} else if (*p2 >= '0' && *p2 <= '9') {
			return -1;
		} else if (*p1 != *p2) {
			return (unsigned char)*p1 - (unsigned char)*p2;
		} else {
			p1++;
			p2++;
		}
	}
	return (unsigned char)*p1 - (unsigned char)*p2;
}

/* Entries from glibc-hwcaps subdirectories, and legacy hwcap entries other
 * than "tls", depend on the CPU; ld.so itself prefers them when the CPU
 * qualifies. Driver libraries are never installed there. */
static int plain_entry(const struct ldcache_entry *e)
{
	if (e->hwcap == 0 || e->hwcap == LDCACHE_HWCAP_TLS)
		return 1;
	return 0;
}

ssize_t ldcache_lookup(const struct ldcache *c, const char *name, int32_t want_flags)
{
	if (!c || c->n == 0)
		return -1;
	/* glibc elf/dl-cache.c search_cache, without the hwcaps priorities. */
	ssize_t left = 0, right = (ssize_t)c->n - 1;
	while (left <= right) {
		ssize_t middle = left + (right - left) / 2;
		int cmp = ldcache_libcmp(name, c->e[middle].name);
		if (cmp == 0) {
			left = middle;
			while (middle > 0 && ldcache_libcmp(name, c->e[middle - 1].name) == 0)
				middle--;
			do {
				const struct ldcache_entry *e = &c->e[middle];
				if (middle > left && ldcache_libcmp(name, e->name) != 0)
					break;
				if (e->flags == want_flags && plain_entry(e))
					return middle;
			} while (++middle <= right);
			return -1;
		}
		if (cmp < 0)
			left = middle + 1;
		else
			right = middle - 1;
	}
	return -1;
}
