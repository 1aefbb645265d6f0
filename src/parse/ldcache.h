/*
 * ldcache: a reader of glibc's binary /etc/ld.so.cache, and the lookup
 * ld.so does in it.
 *
 * ldconfig writes one of three layouts (glibc elf/cache.c, dl-cache.h):
 *
 *  - new:    "glibc-ld.so.cache1.1", a 48-byte header, nlibs 24-byte
 *            entries {flags, key, value, osversion, hwcap}, the strings,
 *            and an optional extension directory (the generator string);
 *  - old:    "ld.so-1.7.0", nlibs at offset 12, 12-byte entries
 *            {flags, key, value} from offset 16, then the strings;
 *  - compat: the old layout followed, at the next 8-aligned offset, by a
 *            complete new one, which is what ld.so then uses.
 *
 * String offsets (key = the soname, value = the file) count from the start
 * of the new header in the new and compat layouts, and from the end of the
 * entry array in the old one; the extension offsets count from the start
 * of the file. Checked against real `ldconfig -c new|compat|old` output.
 *
 * The parser trusts nothing: every count, offset and string is checked
 * against the file size, and a file that fails any check is rejected with
 * a one-line reason, so that a truncated or scribbled-on cache is reported
 * ("ldconfig rebuilds it") instead of read past its end. Entries are kept in
 * file order, which is the order ld.so searches them in.
 */
#ifndef WSLGPU_LDCACHE_H
#define WSLGPU_LDCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../core/strbuf.h"

/* Entry flags (glibc sysdeps/generic/ldconfig.h). */
#define LDCACHE_FLAG_TYPE_MASK 0x00ff
#define LDCACHE_FLAG_ELF_LIBC6 0x0003
#define LDCACHE_FLAG_X8664_LIB64 0x0300
#define LDCACHE_FLAG_AARCH64_LIB64 0x0a00

/* hwcap of an entry from a glibc-hwcaps subdirectory (dl-cache.h). */
#define LDCACHE_HWCAP_EXTENSION (1ULL << 62)
#define LDCACHE_HWCAP_TLS (1ULL << 63)

enum ldcache_format { LDCACHE_NEW, LDCACHE_COMPAT, LDCACHE_OLD };

struct ldcache_entry {
	int32_t flags;
	uint64_t hwcap;   /* 0 in the old layout */
	const char *name; /* soname; points into the parsed buffer */
	const char *path; /* file; points into the parsed buffer */
};

struct ldcache {
	enum ldcache_format format;
	struct ldcache_entry *e;
	size_t n;
	char *generator; /* "ldconfig (Ubuntu GLIBC 2.35-...) ..." or NULL (owned) */
};

/*
 * Parses a whole cache file. The entries point into buf, which must outlive
 * the result. Returns 0, or -EINVAL with a one-line reason in why ("the
 * header claims 1000 entries but the file has room for 3").
 */
int ldcache_parse(const char *buf, size_t len, struct ldcache *c, struct strbuf *why);
void ldcache_free(struct ldcache *c);

const char *ldcache_format_name(enum ldcache_format f);
/* "libc6,x86-64" for 0x303, as ldconfig -p prints it; unknown bits in hex. */
void ldcache_describe_flags(int32_t flags, struct strbuf *out);

/* glibc's _dl_cache_libcmp: compares runs of digits as numbers. */
int ldcache_libcmp(const char *a, const char *b);

/*
 * The entry ld.so takes for name, as glibc's search_cache picks it: a binary
 * search over the (sorted) entries, back to the first entry of that name,
 * then the first one whose flags equal want_flags. Entries of glibc-hwcaps
 * subdirectories are passed over (whether this CPU accepts one cannot be
 * told from the file). Returns the index, or -1.
 */
ssize_t ldcache_lookup(const struct ldcache *c, const char *name, int32_t want_flags);

#endif
