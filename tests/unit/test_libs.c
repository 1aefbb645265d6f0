/* test_libs.c: the libs layer's parsers and the loader prediction: glibc's
 * ld.so.cache (caches written by the real ldconfig in all three formats, and
 * hand-built ones cut at every length or with bad counts and offsets),
 * /proc/modules, dpkg's .list files, ELF header checks, and which file
 * ld.so would load for a bare soname. */
#include "testutil.h"

#include <sys/wait.h>

#include "core/strbuf.h"
#include "kb/kb.h"
#include "parse/dpkg.h"
#include "parse/kmodules.h"
#include "parse/ldcache.h"
#include "parse/ldpredict.h"

#define X8664 0x0303

/* ---------------------------------------------------------------- helpers */

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

/*
 * A minimal ELF shared object with a soname: the ELF header, a PT_LOAD
 * covering the file, a PT_DYNAMIC with DT_STRTAB, DT_STRSZ and DT_SONAME.
 * That is all ldconfig reads, so the real ldconfig indexes it.
 */
static size_t make_elf(unsigned char *b, size_t cap, const char *soname, int class64,
		       unsigned machine)
{
	memset(b, 0, cap);
	size_t sl = strlen(soname);
	size_t strtab = 64 + 2 * 56, strsz = sl + 2;
	size_t dyn = (strtab + strsz + 7) & ~(size_t)7, total = dyn + 4 * 16;
	assert_true(total <= cap);
	memcpy(b, "\177ELF", 4);
	b[4] = class64 ? 2 : 1;
	b[5] = 1;
	b[6] = 1;
	put16(b + 16, 3); /* ET_DYN */
	put16(b + 18, machine);
	put32(b + 20, 1);
	put64(b + 32, 64); /* e_phoff */
	put16(b + 52, 64);
	put16(b + 54, 56);
	put16(b + 56, 2);
	unsigned char *ph = b + 64;
	put32(ph, 1);               /* PT_LOAD */
	put32(ph + 4, 4);           /* PF_R */
	put64(ph + 8, 0);           /* p_offset */
	put64(ph + 16, 0);          /* p_vaddr */
	put64(ph + 24, 0);
	put64(ph + 32, total);
	put64(ph + 40, total);
	put64(ph + 48, 4096);
	ph += 56;
	put32(ph, 2);               /* PT_DYNAMIC */
	put32(ph + 4, 4);
	put64(ph + 8, dyn);
	put64(ph + 16, dyn);
	put64(ph + 24, dyn);
	put64(ph + 32, 4 * 16);
	put64(ph + 40, 4 * 16);
	put64(ph + 48, 8);
	memcpy(b + strtab + 1, soname, sl);
	unsigned char *d = b + dyn;
	put64(d, 5), put64(d + 8, strtab);  /* DT_STRTAB */
	put64(d + 16, 10), put64(d + 24, strsz); /* DT_STRSZ */
	put64(d + 32, 14), put64(d + 40, 1); /* DT_SONAME */
	return total;
}

static void write_elf(const char *root, const char *rel, const char *soname)
{
	unsigned char b[512];
	size_t n = make_elf(b, sizeof b, soname, 1, 62);
	tu_write(root, rel, b, n);
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_addn(&sb, buf, n);
	fclose(f);
	*len = sb.len;
	return sb_detach(&sb);
}

/* Runs the real ldconfig on root (as root, or in a user namespace).
 * Returns 0 when it wrote its cache. */
static int run_ldconfig(const char *root, const char *format, const char *cache)
{
	static const char *const where[] = { "/sbin/ldconfig", "/usr/sbin/ldconfig", "/usr/bin/ldconfig" };
	const char *lc = NULL;
	for (size_t i = 0; i < 3; i++)
		if (access(where[i], X_OK) == 0) {
			lc = where[i];
			break;
		}
	if (!lc)
		return -1;
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "%s%s -X -c %s -C %s -r '%s' >/dev/null 2>&1",
		 getuid() == 0 ? "" : "unshare -r ", lc, format, cache, root);
	int rc = system(cmd);
	char path[4096];
	snprintf(path, sizeof path, "%s%s", root, cache);
	return rc == 0 && access(path, R_OK) == 0 ? 0 : -1;
}

/* Hand-built caches. */
struct hent {
	int32_t flags;
	const char *name;
	const char *path;
	uint64_t hwcap;
};

/* Strings for a table that starts at base; fills key/value offsets. */
static void add_strings(struct strbuf *s, const struct hent *e, size_t n, uint32_t base,
			uint32_t *key, uint32_t *val)
{
	for (size_t i = 0; i < n; i++) {
		val[i] = base + (uint32_t)s->len;
		sb_add(s, e[i].path);
		sb_addc(s, '\0');
		key[i] = base + (uint32_t)s->len;
		sb_add(s, e[i].name);
		sb_addc(s, '\0');
	}
}

static void new_part(struct strbuf *out, const struct hent *e, size_t n)
{
	uint32_t key[16], val[16];
	struct strbuf s = STRBUF_INIT;
	uint32_t base = 48 + (uint32_t)n * 24;
	add_strings(&s, e, n, base, key, val);
	unsigned char h[48] = { 0 };
	memcpy(h, "glibc-ld.so.cache1.1", 20);
	put32(h + 20, (uint32_t)n);
	put32(h + 24, (uint32_t)s.len);
	h[28] = 2; /* little-endian */
	sb_addn(out, h, 48);
	for (size_t i = 0; i < n; i++) {
		unsigned char r[24] = { 0 };
		put32(r, (uint32_t)e[i].flags);
		put32(r + 4, key[i]);
		put32(r + 8, val[i]);
		put64(r + 16, e[i].hwcap);
		sb_addn(out, r, 24);
	}
	sb_addn(out, s.buf, s.len);
	sb_release(&s);
}

static char *build_cache(const char *format, const struct hent *e, size_t n, size_t *len)
{
	struct strbuf out = STRBUF_INIT;
	if (!strcmp(format, "new")) {
		new_part(&out, e, n);
	} else {
		unsigned char h[16] = { 0 };
		memcpy(h, "ld.so-1.7.0", 11);
		put32(h + 12, (uint32_t)n);
		sb_addn(&out, h, 16);
		size_t table = 16 + n * 12;
		uint32_t key[16], val[16];
		struct strbuf s = STRBUF_INIT;
		bool compat = !strcmp(format, "compat");
		size_t newbase = (table + 7) & ~(size_t)7;
		/* In the compat layout the old entries' offsets count from the
		 * new header, where the strings are. */
		add_strings(&s, e, n, compat ? 48 + (uint32_t)n * 24 : 0, key, val);
		for (size_t i = 0; i < n; i++) {
			unsigned char r[12];
			put32(r, (uint32_t)e[i].flags);
			put32(r + 4, key[i]);
			put32(r + 8, val[i]);
			sb_addn(&out, r, 12);
		}
		if (compat) {
			while (out.len < newbase)
				sb_addc(&out, '\0');
			new_part(&out, e, n);
		} else {
			sb_addn(&out, s.buf, s.len);
		}
		sb_release(&s);
	}
	*len = out.len;
	return sb_detach(&out);
}

static const struct hent three[] = {
	{ X8664, "libnvidia-ml.so.1", "/usr/lib/wsl/lib/libnvidia-ml.so.1", 0 },
	{ X8664, "libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1", 0 },
	{ X8664, "libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", 0 },
};

/* ---------------------------------------------------------------- ldcache: real ldconfig */

static void test_ldcache_real_ldconfig(void **state)
{
	(void)state;
	char *d = tu_mkdtemp();
	assert_non_null(d);
	write_elf(d, "usr/lib/wsl/lib/libcuda.so.1", "libcuda.so.1");
	write_elf(d, "usr/lib/wsl/lib/libnvidia-ml.so.1", "libnvidia-ml.so.1");
	write_elf(d, "usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "libcuda.so.1");
	tu_symlink(d, "usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.535.104.05");
	tu_symlink(d, "usr/lib/x86_64-linux-gnu/libcuda.so", "libcuda.so.1");
	tu_write_str(d, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
	tu_write_str(d, "etc/ld.so.conf.d/ld.wsl.conf", "# WSL\n/usr/lib/wsl/lib");
	tu_write_str(d, "etc/ld.so.conf.d/x86_64-linux-gnu.conf", "/usr/lib/x86_64-linux-gnu\n");
	static const char *const formats[] = { "new", "compat", "old" };
	static const enum ldcache_format want[] = { LDCACHE_NEW, LDCACHE_COMPAT, LDCACHE_OLD };
	int ran = 0;
	for (size_t f = 0; f < 3; f++) {
		char cache[64], path[4096];
		snprintf(cache, sizeof cache, "/etc/ld.so.cache.%s", formats[f]);
		if (run_ldconfig(d, formats[f], cache) < 0)
			continue;
		ran++;
		snprintf(path, sizeof path, "%s%s", d, cache);
		size_t len = 0;
		char *buf = read_all(path, &len);
		assert_non_null(buf);
		struct ldcache c;
		struct strbuf why = STRBUF_INIT;
		if (ldcache_parse(buf, len, &c, &why) < 0)
			fail_msg("%s cache: %s", formats[f], why.buf);
		assert_int_equal(c.format, want[f]);
		/* Same name: the order ldconfig scanned the directories in. */
		ssize_t first = -1, second = -1, dev = -1;
		for (size_t i = 0; i < c.n; i++) {
			if (!strcmp(c.e[i].name, "libcuda.so.1")) {
				if (first < 0)
					first = (ssize_t)i;
				else
					second = (ssize_t)i;
			}
			if (!strcmp(c.e[i].name, "libcuda.so"))
				dev = (ssize_t)i;
		}
		assert_true(first >= 0 && second > first);
		assert_string_equal(c.e[first].path, "/usr/lib/wsl/lib/libcuda.so.1");
		assert_string_equal(c.e[second].path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
		assert_true(dev >= 0); /* the .so dev symlink is cached */
		assert_string_equal(c.e[dev].path, "/usr/lib/x86_64-linux-gnu/libcuda.so");
		assert_int_equal(c.e[first].flags, X8664);
		ssize_t k = ldcache_lookup(&c, "libcuda.so.1", X8664);
		assert_int_equal(k, first);
		k = ldcache_lookup(&c, "libnvidia-ml.so.1", X8664);
		assert_true(k >= 0);
		assert_string_equal(c.e[k].path, "/usr/lib/wsl/lib/libnvidia-ml.so.1");
		assert_int_equal(ldcache_lookup(&c, "libcuda.so.2", X8664), -1);
		assert_int_equal(ldcache_lookup(&c, "libcuda.so.1", 0x0003), -1);
		if (want[f] != LDCACHE_OLD)
			assert_non_null(c.generator); /* "ldconfig (... GLIBC 2.xx) ..." */
		/* Cut at every length: never a crash, and a cut inside what the
		 * header promises is an error. */
		for (size_t cut = 0; cut < len; cut++) {
			struct ldcache t;
			int rc = ldcache_parse(buf, cut, &t, &why);
			if (rc == 0)
				ldcache_free(&t);
			else
				assert_true(why.len > 0);
			if (cut < 16)
				assert_int_equal(rc, -EINVAL);
		}
		ldcache_free(&c);
		sb_release(&why);
		free(buf);
	}
	tu_rmtree(d);
	free(d);
	if (!ran)
		skip(); /* no ldconfig, or neither root nor a user namespace */
}

/* ---------------------------------------------------------------- ldcache: hand-built */

static void test_ldcache_hand_built(void **state)
{
	(void)state;
	static const char *const formats[] = { "new", "compat", "old" };
	static const enum ldcache_format want[] = { LDCACHE_NEW, LDCACHE_COMPAT, LDCACHE_OLD };
	struct strbuf why = STRBUF_INIT;
	for (size_t f = 0; f < 3; f++) {
		size_t len;
		char *buf = build_cache(formats[f], three, 3, &len);
		struct ldcache c;
		if (ldcache_parse(buf, len, &c, &why) < 0)
			fail_msg("%s: %s", formats[f], why.buf);
		assert_int_equal(c.format, want[f]);
		assert_int_equal(c.n, 3);
		assert_string_equal(c.e[2].path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
		assert_int_equal(ldcache_lookup(&c, "libcuda.so.1", X8664), 1);
		ldcache_free(&c);
		/* Truncated at every length. */
		size_t old_end = 16 + 3 * 12;
		for (size_t cut = 0; cut < len; cut++) {
			struct ldcache t;
			int rc = ldcache_parse(buf, cut, &t, &why);
			if (f != 1) {
				/* new and old: every byte up to the end is promised */
				if (rc == 0)
					fail_msg("%s cut at %zu of %zu parsed", formats[f], cut, len);
				assert_true(why.len > 0);
			} else if (rc == 0) {
				/* compat: a cut into the new part falls back to the old
				 * part, as ld.so does; its strings must still be inside. */
				assert_true(cut >= old_end);
				for (size_t i = 0; i < t.n; i++)
					assert_true(t.e[i].path >= buf && t.e[i].path < buf + cut);
				ldcache_free(&t);
			}
		}
		free(buf);
	}
	sb_release(&why);
}

static void test_ldcache_corrupt(void **state)
{
	(void)state;
	struct strbuf why = STRBUF_INIT;
	struct ldcache c;
	assert_int_equal(ldcache_parse("", 0, &c, &why), -EINVAL);
	assert_string_equal(why.buf, "the file is empty");
	assert_int_equal(ldcache_parse("glibc-ld", 8, &c, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "truncated"));
	assert_int_equal(ldcache_parse("ld.so", 5, &c, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "truncated"));
	const char junk[] = "\x7f" "ELF this is not a cache at all...........................";
	assert_int_equal(ldcache_parse(junk, sizeof junk - 1, &c, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "unknown magic"));

	size_t len;
	char *buf = build_cache("new", three, 3, &len);
	unsigned char *u = (unsigned char *)buf;
	/* nlibs overflow: 2^32-1 entries, and a count whose byte size wraps 32 bits. */
	static const uint32_t counts[] = { 0xffffffffu, 0x0aaaaaabu, 50 };
	for (size_t i = 0; i < 3; i++) {
		put32(u + 20, counts[i]);
		assert_int_equal(ldcache_parse(buf, len, &c, &why), -EINVAL);
		assert_non_null(strstr(why.buf, "the header claims"));
	}
	put32(u + 20, 3);
	/* String table said to run past the end. */
	put32(u + 24, 100000);
	assert_int_equal(ldcache_parse(buf, len, &c, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "string table ends"));
	put32(u + 24, 0);
	/* A key beyond the end, and one whose string is not terminated. */
	uint32_t key0;
	memcpy(&key0, u + 48 + 4, 4);
	put32(u + 48 + 4, (uint32_t)len + 5);
	assert_int_equal(ldcache_parse(buf, len, &c, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "entry 0: the library name is at offset"));
	put32(u + 48 + 4, key0);
	buf[len - 1] = 'x'; /* the last string loses its NUL */
	assert_int_equal(ldcache_parse(buf, len, &c, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "runs off the end"));
	buf[len - 1] = '\0';
	/* Big-endian and invalid byte-order flags. */
	u[28] = 3;
	assert_int_equal(ldcache_parse(buf, len, &c, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "big-endian"));
	u[28] = 1;
	assert_int_equal(ldcache_parse(buf, len, &c, &why), -EINVAL);
	u[28] = 0; /* not recorded: accepted, as glibc does */
	assert_int_equal(ldcache_parse(buf, len, &c, &why), 0);
	ldcache_free(&c);
	free(buf);

	/* Old format: a count too large for the file. */
	buf = build_cache("old", three, 3, &len);
	put32((unsigned char *)buf + 12, 1000);
	assert_int_equal(ldcache_parse(buf, len, &c, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "claims 1000 entries"));
	free(buf);

	/* Huge but honest: 200000 entries that all name the header's own
	 * string; parses, quickly. */
	size_t n = 200000;
	size_t big = 48 + n * 24;
	unsigned char *h = calloc(1, big);
	memcpy(h, "glibc-ld.so.cache1.1", 20);
	put32(h + 20, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		put32(h + 48 + i * 24, X8664);
	assert_int_equal(ldcache_parse((char *)h, big, &c, &why), 0);
	assert_int_equal(c.n, n);
	assert_int_equal(ldcache_lookup(&c, "libcuda.so.1", X8664), -1);
	ldcache_free(&c);
	free(h);

	/* Random bytes behind a valid magic: never a crash. */
	srand(7);
	char r[512];
	for (int round = 0; round < 3000; round++) {
		size_t rl = (size_t)(rand() % (int)sizeof r);
		for (size_t i = 0; i < rl; i++)
			r[i] = (char)(rand() & 0xff);
		if (rl >= 20 && (round & 1))
			memcpy(r, "glibc-ld.so.cache1.1", 20);
		else if (rl >= 11)
			memcpy(r, "ld.so-1.7.0", 11);
		if (rl >= 24 && (round & 2))
			put32((unsigned char *)r + (round & 1 ? 20 : 12), (uint32_t)(rand() % 8));
		if (ldcache_parse(r, rl, &c, &why) == 0) {
			for (size_t i = 0; i < c.n; i++) {
				assert_true(c.e[i].name >= r && c.e[i].name < r + rl);
				assert_true(c.e[i].path >= r && c.e[i].path < r + rl);
			}
			ldcache_free(&c);
		}
	}
	sb_release(&why);
}

static void test_ldcache_lookup(void **state)
{
	(void)state;
	/* Sorted as ldconfig sorts (descending by _dl_cache_libcmp); the same
	 * name keeps directory order; i386 and glibc-hwcaps entries are passed
	 * over. */
	static const struct hent e[] = {
		{ X8664, "libz.so.1", "/usr/lib/libz.so.1", 0 },
		{ 0x0003, "libcuda.so.1", "/usr/lib/i386-linux-gnu/libcuda.so.1", 0 },
		{ X8664, "libcuda.so.1", "/usr/lib/glibc-hwcaps/x86-64-v3/libcuda.so.1",
		  LDCACHE_HWCAP_EXTENSION | 1 },
		{ X8664, "libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1", 0 },
		{ X8664, "libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", 0 },
		{ X8664, "libcuda.so", "/usr/lib/x86_64-linux-gnu/libcuda.so", 0 },
		{ X8664, "liba.so.1", "/usr/lib/liba.so.1", 0 },
	};
	size_t len;
	char *buf = build_cache("new", e, 7, &len);
	struct ldcache c;
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(ldcache_parse(buf, len, &c, &why), 0);
	assert_int_equal(ldcache_lookup(&c, "libcuda.so.1", X8664), 3);
	assert_int_equal(ldcache_lookup(&c, "libcuda.so.1", 0x0003), 1);
	assert_int_equal(ldcache_lookup(&c, "libcuda.so", X8664), 5);
	assert_int_equal(ldcache_lookup(&c, "libz.so.1", X8664), 0);
	assert_int_equal(ldcache_lookup(&c, "liba.so.1", X8664), 6);
	assert_int_equal(ldcache_lookup(&c, "libq.so.1", X8664), -1);
	assert_int_equal(ldcache_lookup(NULL, "libq.so.1", X8664), -1);
	ldcache_free(&c);
	free(buf);
	/* _dl_cache_libcmp compares numbers by value. */
	assert_true(ldcache_libcmp("libcuda.so.10", "libcuda.so.9") > 0);
	assert_int_equal(ldcache_libcmp("libcuda.so.01", "libcuda.so.1"), 0);
	assert_true(ldcache_libcmp("libcuda.so", "libcuda.so.1") < 0);
	assert_true(ldcache_libcmp("libcuda.so.1", "libcuda.so.a") > 0);
	assert_true(ldcache_libcmp("libcuda.so.99999999999999999999", "libcuda.so.1") > 0);
	struct strbuf fl = STRBUF_INIT;
	ldcache_describe_flags(X8664, &fl);
	assert_string_equal(fl.buf, "libc6,x86-64");
	sb_reset(&fl);
	ldcache_describe_flags(0x0003, &fl);
	assert_string_equal(fl.buf, "libc6");
	sb_release(&fl);
	sb_release(&why);
}

/* ---------------------------------------------------------------- ELF headers */

static void test_ld_classify(void **state)
{
	(void)state;
	unsigned char b[512];
	const char *why;
	make_elf(b, sizeof b, "libcuda.so.1", 1, 62);
	assert_int_equal(ld_classify(b, 64, &ld_abi_x86_64, &why), LD_LOADABLE);
	assert_int_equal(ld_classify(b, 63, &ld_abi_x86_64, &why), LD_BROKEN);
	assert_string_equal(why, "file too short");
	make_elf(b, sizeof b, "libcuda.so.1", 0, 3);
	assert_int_equal(ld_classify(b, 64, &ld_abi_x86_64, &why), LD_OTHER_ABI);
	assert_string_equal(why, "wrong ELF class: ELFCLASS32");
	make_elf(b, sizeof b, "libcuda.so.1", 1, 183); /* aarch64 */
	assert_int_equal(ld_classify(b, 64, &ld_abi_x86_64, &why), LD_OTHER_ABI);
	make_elf(b, sizeof b, "libcuda.so.1", 1, 62);
	b[5] = 2;
	assert_int_equal(ld_classify(b, 64, &ld_abi_x86_64, &why), LD_BROKEN);
	assert_string_equal(why, "ELF file data encoding not little-endian");
	b[5] = 1;
	b[12] = 1;
	assert_int_equal(ld_classify(b, 64, &ld_abi_x86_64, &why), LD_BROKEN);
	assert_string_equal(why, "nonzero padding in e_ident");
	b[12] = 0;
	put16(b + 16, 1); /* ET_REL */
	assert_int_equal(ld_classify(b, 64, &ld_abi_x86_64, &why), LD_BROKEN);
	assert_string_equal(why, "only ET_DYN and ET_EXEC can be loaded");
	memset(b, 'a', 200);
	assert_int_equal(ld_classify(b, 200, &ld_abi_x86_64, &why), LD_BROKEN);
	assert_string_equal(why, "invalid ELF header");
	assert_int_equal(ld_classify(b, 0, &ld_abi_x86_64, NULL), LD_BROKEN);
	assert_non_null(ld_abi_host());
}

/* ---------------------------------------------------------------- the prediction */

/* A machine described as a table of paths. */
struct ffile {
	const char *path;
	enum ld_kind kind;
	uint64_t ino;
};

struct fmachine {
	const struct ffile *f;
	size_t n;
};

static void fake_stat(const char *path, struct ld_file *out, void *arg)
{
	const struct fmachine *m = arg;
	out->kind = LD_MISSING;
	out->why = NULL;
	out->dev = out->ino = 0;
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->f[i].path, path)) {
			out->kind = m->f[i].kind;
			out->why = m->f[i].kind == LD_BROKEN ? "invalid ELF header" : NULL;
			out->dev = 1;
			out->ino = m->f[i].ino ? m->f[i].ino : i + 100;
			return;
		}
}

static const char *const debian_dirs[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
					   "/lib", "/usr/lib", NULL };

static void predict(const struct ffile *f, size_t n, const char *llp, const struct ldcache *c,
		    struct ld_prediction *p)
{
	static struct fmachine m;
	m.f = f;
	m.n = n;
	struct ld_search s = { llp, "/home/user", c, debian_dirs, &ld_abi_x86_64, fake_stat, &m };
	ld_predict("libcuda.so.1", &s, p);
}

static void parsed(const struct hent *e, size_t n, char **buf, struct ldcache *c)
{
	size_t len;
	struct strbuf why = STRBUF_INIT;
	*buf = build_cache("new", e, n, &len);
	assert_int_equal(ldcache_parse(*buf, len, c, &why), 0);
	sb_release(&why);
}

static void test_predict_order(void **state)
{
	(void)state;
	static const struct hent e[] = {
		{ 0x0003, "libcuda.so.1", "/usr/lib/i386-linux-gnu/libcuda.so.1", 0 },
		{ X8664, "libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1", 0 },
		{ X8664, "libcuda.so.1", "/lib/x86_64-linux-gnu/libcuda.so.1", 0 },
	};
	char *buf;
	struct ldcache c;
	parsed(e, 3, &buf, &c);
	static const struct ffile f[] = {
		{ "/usr/lib/wsl/lib/libcuda.so.1", LD_LOADABLE, 0 },
		{ "/lib/x86_64-linux-gnu/libcuda.so.1", LD_LOADABLE, 7 },
		{ "/usr/lib/x86_64-linux-gnu/libcuda.so.1", LD_LOADABLE, 7 }, /* merged /usr */
		{ "/usr/lib/i386-linux-gnu/libcuda.so.1", LD_OTHER_ABI, 0 },
		{ "/usr/local/cuda/lib64/stubs/libcuda.so.1", LD_LOADABLE, 0 },
		{ "/home/user/libcuda.so.1", LD_LOADABLE, 0 },
		{ "/home/user/env/lib/libcuda.so.1", LD_LOADABLE, 0 },
		{ "/opt/a/libcuda.so.1", LD_LOADABLE, 0 },
		{ "/opt/b/libcuda.so.1", LD_LOADABLE, 0 },
	};
	struct ld_prediction p;
	size_t nf = sizeof f / sizeof f[0];

	/* The cache alone: the first entry of the name with x86-64 flags. */
	predict(f, nf, NULL, &c, &p);
	assert_string_equal(p.resolved, "/usr/lib/wsl/lib/libcuda.so.1");
	assert_int_equal(p.via, LD_VIA_CACHE);
	assert_string_equal(ld_via_name(p.via), "ld.so.cache");
	/* Seen: the i386 copy, WSL's, and the distro's once (same inode). */
	assert_int_equal(p.nseen, 3);
	assert_true(p.seen[1].chosen);
	assert_string_equal(p.seen[2].path, "/lib/x86_64-linux-gnu/libcuda.so.1");
	ld_prediction_free(&p);

	/* LD_LIBRARY_PATH first, in its order; the stubs directory wins when first. */
	predict(f, nf, "/usr/local/cuda/lib64/stubs:/opt/a", &c, &p);
	assert_string_equal(p.resolved, "/usr/local/cuda/lib64/stubs/libcuda.so.1");
	assert_int_equal(p.via, LD_VIA_LD_LIBRARY_PATH);
	assert_string_equal(ld_via_name(p.via), "LD_LIBRARY_PATH");
	assert_string_equal(p.seen[1].path, "/opt/a/libcuda.so.1");
	ld_prediction_free(&p);
	predict(f, nf, "/opt/b;/opt/a", &c, &p); /* ';' separates too */
	assert_string_equal(p.resolved, "/opt/b/libcuda.so.1");
	ld_prediction_free(&p);

	/* Empty entry = current directory; relative entries and trailing slashes. */
	predict(f, nf, ":/opt/a", &c, &p);
	assert_string_equal(p.resolved, "/home/user/libcuda.so.1");
	ld_prediction_free(&p);
	predict(f, nf, "env/lib/:/opt/a", &c, &p);
	assert_string_equal(p.resolved, "/home/user/env/lib/libcuda.so.1");
	ld_prediction_free(&p);
	predict(f, nf, "/usr/lib/x86_64-linux-gnu/", &c, &p);
	assert_string_equal(p.resolved, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	assert_int_equal(p.via, LD_VIA_LD_LIBRARY_PATH);
	ld_prediction_free(&p);
	/* An empty variable is no list at all (not the current directory). */
	predict(f, nf, "", &c, &p);
	assert_int_equal(p.via, LD_VIA_CACHE);
	ld_prediction_free(&p);
	/* $ORIGIN and friends are reported and skipped. */
	predict(f, nf, "$ORIGIN/lib:/opt/a", &c, &p);
	assert_string_equal(p.resolved, "/opt/a/libcuda.so.1");
	assert_int_equal(p.nskipped, 1);
	assert_string_equal(p.skipped[0], "$ORIGIN/lib");
	ld_prediction_free(&p);

	/* No cache: the default directories. */
	predict(f, nf, NULL, NULL, &p);
	assert_string_equal(p.resolved, "/lib/x86_64-linux-gnu/libcuda.so.1");
	assert_int_equal(p.via, LD_VIA_DEFAULT);
	assert_string_equal(ld_via_name(p.via), "default path");
	assert_int_equal(p.nseen, 1);
	ld_prediction_free(&p);
	ldcache_free(&c);
	free(buf);
}

static void test_predict_failures(void **state)
{
	(void)state;
	static const struct hent e[] = {
		{ X8664, "libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1", 0 },
		{ X8664, "libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", 0 },
	};
	char *buf;
	struct ldcache c;
	parsed(e, 2, &buf, &c);
	struct ld_prediction p;

	/* A file that is no ELF stops dlopen, even with a good one behind it. */
	static const struct ffile broken[] = {
		{ "/opt/bad/libcuda.so.1", LD_BROKEN, 0 },
		{ "/usr/lib/wsl/lib/libcuda.so.1", LD_LOADABLE, 0 },
	};
	predict(broken, 2, "/opt/bad", &c, &p);
	assert_null(p.resolved);
	assert_string_equal(p.broken, "/opt/bad/libcuda.so.1");
	assert_string_equal(p.broken_why, "invalid ELF header");
	assert_int_equal(p.broken_via, LD_VIA_LD_LIBRARY_PATH);
	ld_prediction_free(&p);

	/* Another class is passed over, like a missing file. */
	static const struct ffile other[] = {
		{ "/opt/x/libcuda.so.1", LD_OTHER_ABI, 0 },
		{ "/usr/lib/wsl/lib/libcuda.so.1", LD_LOADABLE, 0 },
	};
	predict(other, 2, "/opt/x", &c, &p);
	assert_string_equal(p.resolved, "/usr/lib/wsl/lib/libcuda.so.1");
	assert_true(p.other_abi);
	ld_prediction_free(&p);

	/* An open error (ELOOP...) ends the LD_LIBRARY_PATH search there. */
	static const struct ffile loop[] = {
		{ "/opt/loop/libcuda.so.1", LD_UNREADABLE, 0 },
		{ "/opt/a/libcuda.so.1", LD_LOADABLE, 0 },
		{ "/usr/lib/wsl/lib/libcuda.so.1", LD_LOADABLE, 0 },
	};
	predict(loop, 3, "/opt/loop:/opt/a", &c, &p);
	assert_string_equal(p.resolved, "/usr/lib/wsl/lib/libcuda.so.1");
	assert_true(p.llp_abandoned);
	ld_prediction_free(&p);

	/* The cache's file is gone: the loader does not take the next entry,
	 * it goes to the default directories. */
	static const struct ffile stale[] = {
		{ "/usr/lib/x86_64-linux-gnu/libcuda.so.1", LD_LOADABLE, 0 },
	};
	predict(stale, 1, NULL, &c, &p);
	assert_string_equal(p.stale, "/usr/lib/wsl/lib/libcuda.so.1");
	assert_string_equal(p.resolved, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	assert_int_equal(p.via, LD_VIA_DEFAULT);
	ld_prediction_free(&p);

	/* Nothing anywhere. */
	predict(NULL, 0, "/opt/none", &c, &p);
	assert_null(p.resolved);
	assert_null(p.broken);
	assert_int_equal(p.nseen, 0);
	ld_prediction_free(&p);
	ldcache_free(&c);
	free(buf);
}

static void test_paths(void **state)
{
	(void)state;
	/* path_normalize and path_join: tests/unit/test_rootfs.c. */
	char **d;
	size_t k = ld_split_path("::/x;rel/../y:$LIB", "/cwd", &d);
	assert_int_equal(k, 5);
	assert_string_equal(d[0], "/cwd");
	assert_string_equal(d[1], "/cwd");
	assert_string_equal(d[2], "/x");
	assert_string_equal(d[3], "/cwd/y");
	assert_string_equal(d[4], "$LIB");
	ld_free_dirs(d, k);
	assert_int_equal(ld_split_path(NULL, "/", &d), 0);
	assert_int_equal(ld_split_path("", "/", &d), 0);
	k = ld_split_path(":", NULL, &d);
	assert_int_equal(k, 2);
	assert_string_equal(d[0], "/");
	ld_free_dirs(d, k);
}

/* ---------------------------------------------------------------- /proc/modules */

static void test_kmodules(void **state)
{
	(void)state;
	const char *t = "nvidia_uvm 1437696 0 - Live 0x0000000000000000 (POE)\n"
			"nvidia 56811520 2 nvidia_uvm,nvidia_modeset, Live 0xffffffffc0000000 (POE)\r\n"
			"nouveau 2433024 0 - Loading 0x0000000000000000\n"
			"\n"
			"broken line\n"
			"x 12 -1 - Live 0x0\n"
			"y 12 - - Unloading 0x0\n"
			"bad$name 1 0 - Live 0x0\n"
			"z 1 0 - Dead 0x0\n"
			"toolong_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1 0 - Live 0x0\n"
			"w 99999999999999999999999 0 - Live 0x0\n"
			"v 1 0 - Live";
	struct kmodule *m;
	size_t n, bad;
	assert_int_equal(kmodules_parse(t, strlen(t), &m, &n, &bad), 0);
	assert_int_equal(n, 3 + 1);
	assert_string_equal(m[0].name, "nvidia_uvm");
	assert_int_equal(m[0].size, 1437696);
	assert_int_equal(m[0].refcount, 0);
	assert_string_equal(m[0].state, "Live");
	assert_string_equal(m[0].taint, "(POE)");
	assert_string_equal(m[1].name, "nvidia");
	assert_int_equal(m[1].refcount, 2);
	assert_string_equal(m[2].state, "Loading");
	assert_string_equal(m[3].name, "y");
	assert_int_equal(m[3].refcount, -1);
	assert_int_equal(bad, 7);
	assert_true(kmodule_is_nvidia("nvidia"));
	assert_true(kmodule_is_nvidia("nvidia_drm"));
	assert_false(kmodule_is_nvidia("nvidiafb_not"));
	assert_false(kmodule_is_nvidia("nvme"));
	assert_true(kmodule_is_nouveau("nouveau"));
	free(m);
	assert_int_equal(kmodules_parse("", 0, &m, &n, &bad), 0);
	assert_int_equal(n, 0);
	free(m);
	/* Binary input. */
	char r[8192];
	srand(3);
	for (int round = 0; round < 200; round++) {
		size_t rl = (size_t)(rand() % (int)sizeof r);
		for (size_t i = 0; i < rl; i++)
			r[i] = (char)(rand() % 4 == 0 ? ' ' : rand() % 5 == 0 ? '\n' : rand() & 0xff);
		kmodules_parse(r, rl, &m, &n, &bad);
		for (size_t i = 0; i < n; i++)
			assert_true(strlen(m[i].name) < KMODULE_NAME_MAX);
		free(m);
	}
}

/* ---------------------------------------------------------------- dpkg */

static int count_line(const char *line, size_t n, void *arg)
{
	(void)line;
	(void)n;
	(*(int *)arg)++;
	return 0;
}

static int stop_at_two(const char *line, size_t n, void *arg)
{
	(void)line;
	(void)n;
	return ++*(int *)arg == 2 ? 42 : 0;
}

static void test_dpkg(void **state)
{
	(void)state;
	const char *l = "/.\n/usr\n/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05\r\n\n"
			"/usr/lib/x86_64-linux-gnu/libcuda.so.1";
	assert_true(dpkg_list_has(l, strlen(l), "/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
	assert_true(dpkg_list_has(l, strlen(l), "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05"));
	assert_false(dpkg_list_has(l, strlen(l), "/usr/lib/x86_64-linux-gnu/libcuda.so"));
	assert_false(dpkg_list_has(l, strlen(l), "/usr/lib"));
	assert_false(dpkg_list_has(l, strlen(l), ""));
	int n = 0;
	assert_int_equal(dpkg_list_each(l, strlen(l), count_line, &n), 0);
	assert_int_equal(n, 4);
	n = 0;
	assert_int_equal(dpkg_list_each(l, strlen(l), stop_at_two, &n), 42);
	n = 0;
	assert_int_equal(dpkg_list_each("", 0, count_line, &n), 0);
	assert_int_equal(n, 0);
	const char bin[] = "\0\0/usr/lib/x\0\n\xff\xfe\n/usr/lib/x\n";
	assert_true(dpkg_list_has(bin, sizeof bin - 1, "/usr/lib/x"));

	struct strbuf p = STRBUF_INIT;
	assert_int_equal(dpkg_list_package("libnvidia-compute-535:amd64.list", &p), 0);
	assert_string_equal(p.buf, "libnvidia-compute-535");
	assert_int_equal(dpkg_list_package("nvidia-utils-535.list", &p), 0);
	assert_string_equal(p.buf, "nvidia-utils-535");
	assert_int_equal(dpkg_list_package("libstdc++6:i386.list", &p), 0);
	assert_string_equal(p.buf, "libstdc++6");
	static const char *const badnames[] = {
		"libc6.md5sums", ".list", "a.list", "Bad.list", "x;rm -rf ~.list",
		"pkg:.list", "pkg:AMD64.list", "-pkg.list", "pkg name.list", "",
	};
	for (size_t i = 0; i < sizeof badnames / sizeof badnames[0]; i++)
		if (dpkg_list_package(badnames[i], &p) != -EINVAL)
			fail_msg("'%s' accepted", badnames[i]);
	assert_true(dpkg_valid_name("cuda-driver-dev-12-4", 20));
	assert_false(dpkg_valid_name("a", 1));
	sb_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ldcache_real_ldconfig),
		cmocka_unit_test(test_ldcache_hand_built),
		cmocka_unit_test(test_ldcache_corrupt),
		cmocka_unit_test(test_ldcache_lookup),
		cmocka_unit_test(test_ld_classify),
		cmocka_unit_test(test_predict_order),
		cmocka_unit_test(test_predict_failures),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_kmodules),
		cmocka_unit_test(test_dpkg),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
