/*
 * test_drvlib.c: which driver library a file is, from its content
 * (src/parse/drvlib.c on src/parse/elf.c). Built ELF shared objects carry
 * each marker in a data section, in code, in a section that is not loaded,
 * across the edge of a read window, with and without a section table; the
 * answer must not depend on the window size. Files are read through rootfs
 * in pieces: a 64 MiB library costs a window, a FIFO is refused unread.
 * The real NVIDIA libraries (Debian non-free's 535 and 470 libcuda, the
 * 535 NVML, fetched by tools/install-deps --test) and the CUDA toolkit's
 * stub are classified when this machine has them (a skip otherwise).
 */
#include "testutil.h"

#include <stdbool.h>
#include <sys/resource.h>

#include "core/rootfs.h"
#include "parse/drvlib.h"
#include "parse/elf.h"

/* What a built library holds. */
struct spec {
	const char *soname; /* NULL: no DT_SONAME */
	const char *entry;  /* the defined function */
	const unsigned char *code;
	size_t ncode;
	const unsigned char *rodata; /* an allocated, non-code section */
	size_t nrodata;
	const unsigned char *comment; /* a section that is not loaded */
	size_t ncomment;
	bool no_sections;   /* no section table: only the segments */
};

static void put(unsigned char *b, size_t off, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		b[off + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* An x86-64 ELF shared object: ELF header, PT_LOAD (the whole file) and
 * PT_DYNAMIC, then .dynstr, .dynsym, .dynamic, .text, .rodata, .comment,
 * .shstrtab and the section table. Returns the file's size; *out (the
 * caller frees it) holds it all but the first hole bytes of .rodata,
 * zeros left out (*hole_at: where they begin) so that a test can write a
 * large sparse library without holding it. */
static size_t build_holed(const struct spec *s, size_t hole, size_t *hole_at, unsigned char **out)
{
	char dynstr[256];
	size_t nstr = 1, so_at = 0, entry_at = 0, libc_at;
	dynstr[0] = '\0';
	if (s->soname) {
		so_at = nstr;
		nstr += (size_t)sprintf(dynstr + nstr, "%s", s->soname) + 1;
	}
	entry_at = nstr;
	nstr += (size_t)sprintf(dynstr + nstr, "%s", s->entry) + 1;
	libc_at = nstr;
	nstr += (size_t)sprintf(dynstr + nstr, "libc.so.6") + 1;
	static const char shstr[] =
		"\0.dynstr\0.dynsym\0.dynamic\0.text\0.rodata\0.comment\0.shstrtab";
	const size_t shname[] = { 0, 1, 9, 17, 26, 32, 40, 49 };
	size_t o_dynstr = 64 + 2 * 56, o_dynsym = (o_dynstr + nstr + 7) & ~(size_t)7;
	size_t o_dynamic = o_dynsym + 2 * 24, ndyn = s->soname ? 5 : 4;
	size_t o_text = o_dynamic + ndyn * 16, o_rodata = o_text + s->ncode;
	size_t o_comment = o_rodata + hole + s->nrodata, o_shstr = o_comment + s->ncomment;
	size_t o_sh = (o_shstr + sizeof shstr + 7) & ~(size_t)7, size = o_sh + 8 * 64;
	/* Built whole in the buffer, except the hole: offsets past it are
	 * written hole bytes lower. */
	unsigned char *b = calloc(1, size - hole);
	assert_non_null(b);
	*hole_at = o_rodata;
	memcpy(b, "\177ELF\2\1\1", 7);
	put(b, 16, 3, 2);  /* ET_DYN */
	put(b, 18, 62, 2); /* x86-64 */
	put(b, 20, 1, 4);
	put(b, 32, 64, 8);                       /* phoff */
	put(b, 40, s->no_sections ? 0 : o_sh, 8); /* shoff */
	put(b, 52, 64, 2);
	put(b, 54, 56, 2);
	put(b, 56, 2, 2);
	put(b, 58, 64, 2);
	put(b, 60, s->no_sections ? 0 : 8, 2);
	put(b, 62, 7, 2);
	/* PT_LOAD: the file at vaddr = offset; PT_DYNAMIC. */
	put(b, 64, 1, 4);
	put(b, 68, 7, 4);
	put(b, 64 + 32, size, 8);
	put(b, 64 + 40, size, 8);
	put(b, 120, 2, 4);
	put(b, 120 + 8, o_dynamic, 8);
	put(b, 120 + 16, o_dynamic, 8);
	put(b, 120 + 32, ndyn * 16, 8);
	memcpy(b + o_dynstr, dynstr, nstr);
	/* dynsym[1]: the entry point, a global function in .text (section 4). */
	put(b, o_dynsym + 24, entry_at, 4);
	b[o_dynsym + 24 + 4] = 0x12;
	put(b, o_dynsym + 24 + 6, 4, 2);
	put(b, o_dynsym + 24 + 8, o_text, 8);
	put(b, o_dynsym + 24 + 16, s->ncode, 8);
	size_t d = o_dynamic;
	if (s->soname) {
		put(b, d, 14, 8), put(b, d + 8, so_at, 8);
		d += 16;
	}
	put(b, d, 1, 8), put(b, d + 8, libc_at, 8);
	put(b, d + 16, 5, 8), put(b, d + 24, o_dynstr, 8);
	put(b, d + 32, 10, 8), put(b, d + 40, nstr, 8);
	if (s->ncode)
		memcpy(b + o_text, s->code, s->ncode);
	if (s->nrodata)
		memcpy(b + o_rodata, s->rodata, s->nrodata);
	if (s->ncomment)
		memcpy(b + o_comment - hole, s->comment, s->ncomment);
	memcpy(b + o_shstr - hole, shstr, sizeof shstr);
	/* name, type, flags, offset, size, link, entsize per section. */
	const struct { uint32_t type; uint64_t flags, off, size; uint32_t link; uint64_t ent; } sh[8] = {
		{ 0, 0, 0, 0, 0, 0 },
		{ 3, 2, o_dynstr, nstr, 0, 0 },
		{ 11, 2, o_dynsym, 48, 1, 24 },
		{ 6, 3, o_dynamic, ndyn * 16, 1, 16 },
		{ 1, 6, o_text, s->ncode, 0, 0 },
		{ 1, 2, o_rodata, hole + s->nrodata, 0, 0 },
		{ 1, 0x30, o_comment, s->ncomment, 0, 1 },
		{ 3, 0, o_shstr, sizeof shstr, 0, 0 },
	};
	for (size_t i = 0; i < 8; i++) {
		size_t h = o_sh - hole + i * 64;
		put(b, h, shname[i], 4);
		put(b, h + 4, sh[i].type, 4);
		put(b, h + 8, sh[i].flags, 8);
		put(b, h + 16, sh[i].flags & 2 ? sh[i].off : 0, 8);
		put(b, h + 24, sh[i].off, 8);
		put(b, h + 32, sh[i].size, 8);
		put(b, h + 40, sh[i].link, 4);
		put(b, h + 56, sh[i].ent, 8);
	}
	*out = b;
	return size;
}

static size_t build(const struct spec *s, unsigned char **out)
{
	size_t at;
	return build_holed(s, 0, &at, out);
}

static const unsigned char ret0[] = { 0x31, 0xc0, 0xc3, 0 };          /* xor %eax,%eax; ret */
static const unsigned char ret34[] = { 0xb8, 34, 0, 0, 0, 0xc3 };      /* mov $34,%eax; ret */
static const unsigned char endbr_jmp[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0xe9, 0, 0, 0, 0 };

/* Classifies the library s describes as libcuda.so.1 / cuInit, with the
 * default window and with windows of 128 to 1100 bytes: all must agree. */
static void classify(const struct spec *s, struct drvlib *d)
{
	unsigned char *b;
	size_t n = build(s, &b);
	drvlib_classify(b, n, "libcuda.so.1", "cuInit", d);
	struct elf_src src;
	elf_src_mem(&src, b, n);
	for (size_t w = 128; w <= 1100; w += 61) {
		struct drvlib o;
		drvlib_classify_src(&src, "libcuda.so.1", "cuInit", w, &o);
		if (o.kind != d->kind || strcmp(o.version, d->version) || o.marker != d->marker)
			fail_msg("window %zu: %s %s, default window: %s %s", w,
				 drvlib_kind_name(o.kind), o.version, drvlib_kind_name(d->kind),
				 d->version);
	}
	free(b);
}

/* A data section of n bytes of filler with text at offset at. */
static unsigned char *data_with(size_t n, size_t at, const char *text)
{
	unsigned char *r = malloc(n);
	assert_non_null(r);
	for (size_t i = 0; i < n; i++)
		r[i] = (unsigned char)("K./xy\0\0z"[i % 8]); /* anchors everywhere, no marker */
	size_t len = strlen(text) + 1;
	assert_true(at + len <= n);
	memcpy(r + at, text, len);
	return r;
}

static void expect_kind(const char *text, enum drvlib_kind kind, const char *version)
{
	unsigned char *ro = data_with(700, 333, text);
	struct spec s = { "libcuda.so.1", "cuInit", ret0, sizeof ret0, ro, 700, NULL, 0, false };
	struct drvlib d;
	classify(&s, &d);
	if (d.kind != kind || strcmp(d.version, version))
		fail_msg("\"%s\": %s \"%s\", expected %s \"%s\"", text, drvlib_kind_name(d.kind),
			 d.version, drvlib_kind_name(kind), version);
	free(ro);
}

static void test_markers(void **state)
{
	(void)state;
	expect_kind("/dev/nvidiactl", DRVLIB_LINUX, "");
	expect_kind("/proc/driver/nvidia/version", DRVLIB_LINUX, "");
	expect_kind("libdxcore.so", DRVLIB_WSL, "");
	expect_kind("D3DKMTEnumAdapters2", DRVLIB_WSL, "");
	expect_kind("/usr/lib/wsl/drivers", DRVLIB_WSL, "");
	expect_kind("WARNING: You should always run with libnvidia-ml.so.1", DRVLIB_STUB, "");
	expect_kind("nothing to see", DRVLIB_UNKNOWN, "");
	/* Both: WSL's library wins (its code base shares the Linux paths). */
	unsigned char ro[600];
	memset(ro, 'x', sizeof ro);
	memcpy(ro + 10, "\0/dev/nvidiactl\0", 16);
	memcpy(ro + 400, "\0libdxcore.so\0", 14);
	memcpy(ro + 500, "\0" "535.261.03\0", 12);
	struct spec s = { "libcuda.so.1", "cuInit", ret0, sizeof ret0, ro, sizeof ro, NULL, 0, false };
	struct drvlib d;
	classify(&s, &d);
	assert_int_equal(d.kind, DRVLIB_WSL);
	assert_string_equal(d.version, "535.261.03");
}

static void test_versions(void **state)
{
	(void)state;
	unsigned char ro[400];
	memset(ro, 0, sizeof ro);
	/* Not versions: a 2-digit branch, a version inside a longer string,
	 * one part, four parts, a 1-digit part; then the first real one. */
	const char *texts[] = { "99.12.01", "v535.104.05", "535", "535.1.2.3", "535.1",
				"/dev/nvidiactl", "470.256.02", "535.261.03" };
	size_t at = 1;
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		memcpy(ro + at, texts[i], strlen(texts[i]));
		at += strlen(texts[i]) + 3;
	}
	struct spec s = { "libcuda.so.1", "cuInit", ret0, sizeof ret0, ro, sizeof ro, NULL, 0, false };
	struct drvlib d;
	classify(&s, &d);
	assert_int_equal(d.kind, DRVLIB_LINUX);
	assert_string_equal(d.version, "470.256.02");
	/* A version at the very start of a section counts (a NUL before it in
	 * the previous section); one not ended by a NUL does not. */
	unsigned char v[] = "550.54.15";
	unsigned char *ro2 = data_with(300, 100, "/dev/nvidiactl");
	memcpy(ro2, v, sizeof v);
	s.rodata = ro2;
	s.nrodata = 300;
	classify(&s, &d);
	assert_string_equal(d.version, "550.54.15");
	memcpy(ro2, "550.54.15x", 10);
	classify(&s, &d);
	assert_string_equal(d.version, "");
	free(ro2);
}

/* Where the bytes are: code and sections that are not loaded carry no
 * marker; without a section table the loaded segments are read. */
static void test_where(void **state)
{
	(void)state;
	unsigned char code[64] = { 0x31, 0xc0, 0xc3 };
	memcpy(code + 8, "\0/dev/nvidiactl\0", 16);
	static const unsigned char nothing[] = "\0nothing here\0";
	struct spec s = { "libcuda.so.1", "cuInit", code, sizeof code, nothing, sizeof nothing,
			  NULL, 0, false };
	struct drvlib d;
	classify(&s, &d);
	assert_int_equal(d.kind, DRVLIB_UNKNOWN);
	unsigned char *b;
	size_t n = build(&s, &b);
	struct elf_info e;
	assert_int_equal(elf_parse(b, n, &e, NULL), 0);
	assert_int_equal(e.ndata, 2); /* .dynstr, .rodata */
	assert_int_equal(e.nneeded, 1);
	assert_string_equal(e.needed[0], "libc.so.6");
	elf_free(&e);
	free(b);
	static const unsigned char comment[] = "\0GCC 12\0/dev/nvidiactl\0libdxcore.so\0" "535.104.05";
	s.code = ret0;
	s.ncode = sizeof ret0;
	s.comment = comment;
	s.ncomment = sizeof comment;
	classify(&s, &d);
	assert_int_equal(d.kind, DRVLIB_UNKNOWN);
	/* Without a section table the loaded segments are the data; but the
	 * dynamic symbols are found through the section table only, so the
	 * entry point is not seen (as before reading in pieces). */
	s.no_sections = true;
	classify(&s, &d);
	assert_int_equal(d.kind, DRVLIB_OTHER);
	n = build(&s, &b);
	assert_int_equal(elf_parse(b, n, &e, NULL), 0);
	assert_int_equal(e.ndata, 1);
	assert_int_equal(e.data[0].off, 0);
	assert_int_equal(e.data[0].len, n);
	assert_string_equal(e.soname, "libcuda.so.1");
	elf_free(&e);
	free(b);
}

/* Markers and versions across every window edge: one at each offset of a
 * long section, classified with windows of 128 to 1100 bytes (classify). */
static void test_window_edges(void **state)
{
	(void)state;
	for (size_t at = 100; at < 400; at += 7) {
		unsigned char *ro = data_with(1500, at, "/proc/driver/nvidia");
		memcpy(ro + at + 600, "\0" "570.86.10", 11);
		struct spec s = { "libcuda.so.1", "cuInit", ret0, sizeof ret0, ro, 1500, NULL, 0, false };
		struct drvlib d;
		classify(&s, &d);
		assert_int_equal(d.kind, DRVLIB_LINUX);
		assert_string_equal(d.version, "570.86.10");
		free(ro);
	}
	/* The default window: a marker across its edge. */
	size_t n = DRVLIB_WINDOW + 4096;
	unsigned char *ro = data_with(n, DRVLIB_WINDOW - 300 - 5, "/usr/lib/wsl/lib/libdxcore.so");
	struct spec s = { "libcuda.so.1", "cuInit", ret0, sizeof ret0, ro, n, NULL, 0, false };
	unsigned char *b;
	size_t len = build(&s, &b);
	struct drvlib d;
	drvlib_classify(b, len, "libcuda.so.1", "cuInit", &d);
	assert_int_equal(d.kind, DRVLIB_WSL);
	free(b);
	free(ro);
}

static void test_stub_and_other(void **state)
{
	(void)state;
	struct spec s = { "libcuda.so.1", "cuInit", ret34, sizeof ret34, NULL, 0, NULL, 0, false };
	struct drvlib d;
	classify(&s, &d);
	assert_int_equal(d.kind, DRVLIB_STUB);
	/* endbr64; jmp to a shared "return 34" (the jump lands on the next
	 * function's code: the rel32 is 0, and the code after it is ret34). */
	unsigned char code[sizeof endbr_jmp + sizeof ret34];
	memcpy(code, endbr_jmp, sizeof endbr_jmp);
	memcpy(code + sizeof endbr_jmp, ret34, sizeof ret34);
	s.code = code;
	s.ncode = sizeof code;
	classify(&s, &d);
	assert_int_equal(d.kind, DRVLIB_STUB);
	s.code = ret0;
	s.ncode = sizeof ret0;
	s.soname = "libcudart.so.12";
	classify(&s, &d);
	assert_int_equal(d.kind, DRVLIB_OTHER);
	assert_string_equal(d.soname, "libcudart.so.12");
	s.soname = NULL;
	classify(&s, &d);
	assert_int_equal(d.kind, DRVLIB_OTHER);
	s.soname = "libcuda.so.1";
	s.entry = "cuInitX";
	classify(&s, &d);
	assert_int_equal(d.kind, DRVLIB_OTHER);
	drvlib_classify((const unsigned char *)"#fake libcuda.so.1\n", 19, "libcuda.so.1", "cuInit", &d);
	assert_int_equal(d.kind, DRVLIB_NOT_ELF);
	drvlib_classify(NULL, 0, "libcuda.so.1", "cuInit", &d);
	assert_int_equal(d.kind, DRVLIB_NOT_ELF);
	/* Every cut of a real library is an answer, never a crash. */
	s.entry = "cuInit";
	unsigned char *ro = data_with(200, 50, "/dev/nvidiactl");
	s.rodata = ro;
	s.nrodata = 200;
	unsigned char *b;
	size_t n = build(&s, &b);
	for (size_t cut = 0; cut <= n; cut++)
		drvlib_classify(b, cut, "libcuda.so.1", "cuInit", &d);
	drvlib_classify(b, n, "libcuda.so.1", "cuInit", &d);
	assert_int_equal(d.kind, DRVLIB_LINUX);
	free(b);
	free(ro);
}

/* Peak RSS (KiB) and kind of classifying path in a fresh process: this
 * binary run again with --classify (see main). */
static void classify_fresh(const char *path, long *kib, char *kind, size_t n)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "/proc/%d/exe --classify '%s'", (int)getpid(), path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[256] = "";
	assert_non_null(fgets(line, sizeof line, p));
	pclose(p);
	char k[32];
	assert_int_equal(sscanf(line, "%31s %ld", k, kib), 2);
	snprintf(kind, n, "%s", k);
}

/* A file through rootfs: read in windows (a 256 MiB library costs no 256
 * MiB), a FIFO refused unread, an unreadable file unknown, one answer per
 * file kept for the process. */
static void test_file(void **state)
{
	(void)state;
	char *dir = tu_mkdtemp();
	assert_non_null(dir);
	assert_int_equal(rootfs_set(dir), 0);
	/* A library whose .rodata is 256 MiB of zeros (a hole in a sparse file)
	 * with the marker and the version at its end. */
	unsigned char tail[] = "\0/dev/nvidiactl\0" "535.104.05";
	struct spec s = { "libcuda.so.1", "cuInit", ret0, sizeof ret0, tail, sizeof tail, NULL, 0, false };
	size_t hole = 256u << 20, hole_at;
	unsigned char *b;
	size_t len = build_holed(&s, hole, &hole_at, &b);
	char path[4096];
	snprintf(path, sizeof path, "%s/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", dir);
	tu_mkparents(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, b, hole_at, 0), (ssize_t)hole_at);
	assert_int_equal(pwrite(fd, b + hole_at, len - hole - hole_at, (off_t)(hole_at + hole)),
			 (ssize_t)(len - hole - hole_at));
	close(fd);
	free(b);
	struct drvlib d;
	assert_int_equal(drvlib_classify_file("/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05",
					      "libcuda.so.1", "cuInit", &d), 0);
	assert_int_equal(d.kind, DRVLIB_LINUX);
	assert_string_equal(d.version, "535.104.05");
	/* Its peak memory, against a small library's, each in a fresh process. */
	long big_kib, small_kib;
	char kind[32];
	classify_fresh(path, &big_kib, kind, sizeof kind);
	assert_string_equal(kind, "linux");
	s.rodata = tail;
	len = build(&s, &b);
	tu_write(dir, "small.so", b, len);
	free(b);
	char small[4096];
	snprintf(small, sizeof small, "%s/small.so", dir);
	classify_fresh(small, &small_kib, kind, sizeof kind);
	assert_string_equal(kind, "linux");
	if (big_kib - small_kib > 4 * 1024)
		fail_msg("a 256 MiB library: peak RSS %ld KiB, a small one %ld KiB", big_kib, small_kib);
	/* The same file again (through a link): the answer kept. */
	tu_symlink(dir, "usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.535.104.05");
	assert_int_equal(drvlib_classify_file("/usr/lib/x86_64-linux-gnu/libcuda.so.1",
					      "libcuda.so.1", "cuInit", &d), 0);
	assert_int_equal(d.kind, DRVLIB_LINUX);
	/* Changed since: read again. */
	tu_write_str(dir, "usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "not a library");
	assert_int_equal(drvlib_classify_file("/usr/lib/x86_64-linux-gnu/libcuda.so.1",
					      "libcuda.so.1", "cuInit", &d), 0);
	assert_int_equal(d.kind, DRVLIB_NOT_ELF);
	/* A FIFO where the library belongs: refused at once, not read. */
	char fifo[4096];
	snprintf(fifo, sizeof fifo, "%s/usr/lib/wsl/lib/libcuda.so.1", dir);
	tu_mkparents(fifo);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	assert_int_equal(drvlib_classify_file("/usr/lib/wsl/lib/libcuda.so.1", "libcuda.so.1",
					      "cuInit", &d), -EINVAL);
	assert_int_equal(d.kind, DRVLIB_UNKNOWN);
	assert_string_equal(d.marker, "it cannot be read");
	assert_int_equal(drvlib_classify_file("/nowhere/libcuda.so.1", "libcuda.so.1", "cuInit", &d),
			 -ENOENT);
	assert_int_equal(d.kind, DRVLIB_UNKNOWN);
	/* A sparse 1 GiB file is no ELF: its first bytes say so. */
	char big[4096];
	snprintf(big, sizeof big, "%s/big.so", dir);
	fd = open(big, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1L << 30), 0);
	close(fd);
	assert_int_equal(drvlib_classify_file("/big.so", "libcuda.so.1", "cuInit", &d), 0);
	assert_int_equal(d.kind, DRVLIB_NOT_ELF);
	rootfs_set("/");
	tu_rmtree(dir);
	free(dir);
}

/* A real library on this machine (path relative to the repository, or
 * absolute): its kind and version, or a skip when it is not here. */
static bool real(const char *path, const char *soname, const char *entry, enum drvlib_kind kind,
		 const char *version)
{
	char *abs = realpath(path, NULL);
	if (!abs)
		return false;
	struct drvlib d;
	rootfs_set("/");
	assert_int_equal(drvlib_classify_file(abs, soname, entry, &d), 0);
	if (d.kind != kind || strcmp(d.version, version) || strcmp(d.soname, soname))
		fail_msg("%s: %s \"%s\" (%s), expected %s \"%s\"", path, drvlib_kind_name(d.kind),
			 d.version, d.marker, drvlib_kind_name(kind), version);
	free(abs);
	return true;
}

#define NV ".cache/debian/real/"
static void test_real_linux_drivers(void **state)
{
	(void)state;
	/* The version each file carries is in its real name (dpkg's). */
	bool any = real(NV "libcuda1/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.261.03",
			"libcuda.so.1", "cuInit", DRVLIB_LINUX, "535.261.03");
	any |= real(NV "libnvidia-tesla-470-cuda1/usr/lib/x86_64-linux-gnu/nvidia/tesla-470/"
		       "libcuda.so.470.256.02",
		    "libcuda.so.1", "cuInit", DRVLIB_LINUX, "470.256.02");
	any |= real(NV "libnvidia-ml1/usr/lib/x86_64-linux-gnu/nvidia/current/libnvidia-ml.so.535.261.03",
		    "libnvidia-ml.so.1", "nvmlInit_v2", DRVLIB_LINUX, "535.261.03");
	if (!any)
		skip(); /* tools/install-deps --test was not run */
}

static void test_real_toolkit_stub(void **state)
{
	(void)state;
	if (!real("/usr/local/cuda/lib64/stubs/libcuda.so", "libcuda.so.1", "cuInit", DRVLIB_STUB, ""))
		skip(); /* no CUDA toolkit here */
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--classify")) {
		/* For test_file: one classification, then the peak RSS. */
		struct drvlib d;
		rootfs_set("/");
		drvlib_classify_file(argv[2], "libcuda.so.1", "cuInit", &d);
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		printf("%s %ld\n", drvlib_kind_name(d.kind), ru.ru_maxrss);
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markers),		  cmocka_unit_test(test_versions),
		cmocka_unit_test(test_where),		  cmocka_unit_test(test_window_edges),
		cmocka_unit_test(test_stub_and_other),	  cmocka_unit_test(test_file),
		cmocka_unit_test(test_real_linux_drivers), cmocka_unit_test(test_real_toolkit_stub),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
