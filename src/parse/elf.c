/* elf.c: a bounds-checked reader of ELF shared objects. See elf.h. */
#include "elf.h"

#include <string.h>

enum { PT_LOAD = 1, PT_DYNAMIC = 2, SHT_DYNAMIC = 6, SHT_DYNSYM = 11, DT_NULL = 0,
       DT_NEEDED = 1, DT_STRTAB = 5, DT_STRSZ = 10, DT_SONAME = 14 };

#define MAX_SECTIONS 4096
#define MAX_SEGMENTS 256
#define MAX_DYN 4096

static uint64_t rd(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* [off, off + n) lies inside a buffer of len bytes (no overflow). */
static bool in(size_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off;
}

static int fail(struct strbuf *err, const char *why)
{
	if (err) {
		sb_reset(err);
		sb_add(err, why);
	}
	return -1;
}

/* The NUL-terminated string at offset i of the table [off, off + size). */
static const char *table_str(const struct elf_info *e, uint64_t off, uint64_t size, uint64_t i)
{
	if (!in(e->len, off, size) || i >= size)
		return NULL;
	const char *s = (const char *)e->buf + off + i;
	return memchr(s, '\0', (size_t)(size - i)) ? s : NULL;
}

int elf_vaddr_offset(const struct elf_info *e, uint64_t vaddr, uint64_t *off, size_t *n)
{
	bool b64 = e->cls == 2;
	for (uint16_t i = 0; i < e->phnum; i++) {
		const unsigned char *ph = e->buf + e->phoff + (uint64_t)i * e->phentsize;
		if (rd(ph, 4) != PT_LOAD)
			continue;
		uint64_t p_off = b64 ? rd(ph + 8, 8) : rd(ph + 4, 4);
		uint64_t p_vaddr = b64 ? rd(ph + 16, 8) : rd(ph + 8, 4);
		uint64_t p_filesz = b64 ? rd(ph + 32, 8) : rd(ph + 16, 4);
		if (vaddr < p_vaddr || vaddr - p_vaddr >= p_filesz)
			continue;
		uint64_t o = p_off + (vaddr - p_vaddr);
		if (o < p_off || o >= e->len)
			return -1;
		uint64_t avail = p_filesz - (vaddr - p_vaddr);
		if (avail > e->len - o)
			avail = e->len - o;
		*off = o;
		*n = (size_t)avail;
		return 0;
	}
	return -1;
}

/* Reads the dynamic entries at [off, off + size) with the string table
 * found there (or strtab_* when the table names none). */
static void read_dynamic(struct elf_info *e, uint64_t off, uint64_t size, uint64_t sec_stroff,
			 uint64_t sec_strsize)
{
	bool b64 = e->cls == 2;
	size_t ent = b64 ? 16 : 8;
	if (!in(e->len, off, size))
		return;
	size_t n = (size_t)(size / ent);
	if (n > MAX_DYN)
		n = MAX_DYN;
	uint64_t strtab = 0, strsz = 0;
	bool have_strtab = false;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *d = e->buf + off + i * ent;
		uint64_t tag = rd(d, (int)ent / 2), val = rd(d + ent / 2, (int)ent / 2);
		if (tag == DT_NULL)
			break;
		if (tag == DT_STRTAB) {
			strtab = val;
			have_strtab = true;
		} else if (tag == DT_STRSZ) {
			strsz = val;
		}
	}
	uint64_t stroff = sec_stroff, strsize = sec_strsize;
	size_t avail;
	if (have_strtab && elf_vaddr_offset(e, strtab, &stroff, &avail) == 0)
		strsize = strsz && strsz <= avail ? strsz : avail;
	if (!stroff && !strsize)
		return;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *d = e->buf + off + i * ent;
		uint64_t tag = rd(d, (int)ent / 2), val = rd(d + ent / 2, (int)ent / 2);
		if (tag == DT_NULL)
			break;
		const char *s = NULL;
		if (tag == DT_SONAME || tag == DT_NEEDED)
			s = table_str(e, stroff, strsize, val);
		if (!s)
			continue;
		if (tag == DT_SONAME && !e->soname)
			e->soname = s;
		else if (tag == DT_NEEDED && e->nneeded < ELF_MAX_NEEDED)
			e->needed[e->nneeded++] = s;
	}
}

int elf_parse(const unsigned char *buf, size_t len, struct elf_info *e, struct strbuf *err)
{
	memset(e, 0, sizeof *e);
	e->buf = buf;
	e->len = len;
	if (len < 52 || memcmp(buf, "\177ELF", 4) != 0)
		return fail(err, "not an ELF file");
	e->cls = buf[4];
	if (e->cls != 1 && e->cls != 2)
		return fail(err, "unknown ELF class");
	if (buf[5] != 1)
		return fail(err, "not a little-endian ELF file");
	bool b64 = e->cls == 2;
	if (b64 && len < 64)
		return fail(err, "ELF header cut short");
	e->type = (uint16_t)rd(buf + 16, 2);
	e->machine = (uint16_t)rd(buf + 18, 2);
	uint64_t phoff = b64 ? rd(buf + 32, 8) : rd(buf + 28, 4);
	uint64_t shoff = b64 ? rd(buf + 40, 8) : rd(buf + 32, 4);
	uint16_t phentsize = (uint16_t)rd(buf + (b64 ? 54 : 42), 2);
	uint16_t phnum = (uint16_t)rd(buf + (b64 ? 56 : 44), 2);
	uint16_t shentsize = (uint16_t)rd(buf + (b64 ? 58 : 46), 2);
	uint16_t shnum = (uint16_t)rd(buf + (b64 ? 60 : 48), 2);

	/* Program headers: the loader's view (segments, PT_DYNAMIC). */
	if (phnum) {
		if (phentsize < (b64 ? 56 : 32) || phnum > MAX_SEGMENTS ||
		    !in(len, phoff, (uint64_t)phnum * phentsize))
			return fail(err, "program header table out of bounds");
		e->phoff = phoff;
		e->phnum = phnum;
		e->phentsize = phentsize;
	}
	/* Section headers: the dynamic symbol table and its strings. */
	uint64_t dyn_off = 0, dyn_size = 0, dyn_stroff = 0, dyn_strsize = 0;
	bool sec_dynamic = false;
	if (shnum && shoff) {
		if (shentsize < (b64 ? 64 : 40) || shnum > MAX_SECTIONS ||
		    !in(len, shoff, (uint64_t)shnum * shentsize))
			return fail(err, "section header table out of bounds");
		for (uint16_t i = 0; i < shnum; i++) {
			const unsigned char *sh = buf + shoff + (uint64_t)i * shentsize;
			uint32_t type = (uint32_t)rd(sh + 4, 4);
			if (type != SHT_DYNSYM && type != SHT_DYNAMIC)
				continue;
			uint64_t off = b64 ? rd(sh + 24, 8) : rd(sh + 16, 4);
			uint64_t size = b64 ? rd(sh + 32, 8) : rd(sh + 20, 4);
			uint32_t link = (uint32_t)(b64 ? rd(sh + 40, 4) : rd(sh + 24, 4));
			uint64_t entsize = b64 ? rd(sh + 56, 8) : rd(sh + 36, 4);
			if (!in(len, off, size) || link >= shnum)
				continue;
			const unsigned char *ls = buf + shoff + (uint64_t)link * shentsize;
			uint64_t loff = b64 ? rd(ls + 24, 8) : rd(ls + 16, 4);
			uint64_t lsize = b64 ? rd(ls + 32, 8) : rd(ls + 20, 4);
			if (!in(len, loff, lsize))
				continue;
			if (type == SHT_DYNSYM && !e->dynsym_size) {
				e->dynsym_off = off;
				e->dynsym_size = size;
				e->dynsym_ent = entsize >= (b64 ? 24u : 16u) ? entsize : (b64 ? 24 : 16);
				e->dynstr_off = loff;
				e->dynstr_size = lsize;
			} else if (type == SHT_DYNAMIC && !sec_dynamic) {
				sec_dynamic = true;
				dyn_off = off;
				dyn_size = size;
				dyn_stroff = loff;
				dyn_strsize = lsize;
			}
		}
	}
	/* The dynamic section as the loader finds it, else as a section. */
	bool done = false;
	for (uint16_t i = 0; i < e->phnum && !done; i++) {
		const unsigned char *ph = buf + phoff + (uint64_t)i * phentsize;
		if (rd(ph, 4) != PT_DYNAMIC)
			continue;
		uint64_t off = b64 ? rd(ph + 8, 8) : rd(ph + 4, 4);
		uint64_t size = b64 ? rd(ph + 32, 8) : rd(ph + 16, 4);
		read_dynamic(e, off, size, dyn_stroff, dyn_strsize);
		done = true;
	}
	if (!done && sec_dynamic)
		read_dynamic(e, dyn_off, dyn_size, dyn_stroff, dyn_strsize);

	size_t nsym = e->dynsym_ent ? (size_t)(e->dynsym_size / e->dynsym_ent) : 0;
	if (nsym > ELF_MAX_SYMBOLS)
		nsym = ELF_MAX_SYMBOLS;
	e->dynsym_size = nsym * e->dynsym_ent;
	for (size_t i = 0; i < nsym; i++) {
		const unsigned char *s = buf + e->dynsym_off + i * e->dynsym_ent;
		uint16_t shndx = (uint16_t)rd(s + (b64 ? 6 : 14), 2);
		if (shndx != 0)
			e->ndefined++;
	}
	return 0;
}

/* The defined symbol named name: its value and size. */
static bool find_symbol(const struct elf_info *e, const char *name, uint64_t *value, uint64_t *size)
{
	bool b64 = e->cls == 2;
	size_t nsym = e->dynsym_ent ? (size_t)(e->dynsym_size / e->dynsym_ent) : 0;
	for (size_t i = 0; i < nsym; i++) {
		const unsigned char *s = e->buf + e->dynsym_off + i * e->dynsym_ent;
		uint16_t shndx = (uint16_t)rd(s + (b64 ? 6 : 14), 2);
		if (shndx == 0)
			continue;
		const char *nm = table_str(e, e->dynstr_off, e->dynstr_size, rd(s, 4));
		if (!nm || strcmp(nm, name) != 0)
			continue;
		*value = b64 ? rd(s + 8, 8) : rd(s + 4, 4);
		*size = b64 ? rd(s + 16, 8) : rd(s + 8, 4);
		return true;
	}
	return false;
}

bool elf_defines(const struct elf_info *e, const char *name)
{
	uint64_t v, s;
	return find_symbol(e, name, &v, &s);
}

int elf_code(const struct elf_info *e, const char *name, size_t max, const unsigned char **code,
	     size_t *n)
{
	uint64_t value, size, off;
	size_t avail;
	if (!find_symbol(e, name, &value, &size) || elf_vaddr_offset(e, value, &off, &avail) < 0)
		return -1;
	size_t want = size && size < max ? (size_t)size : max;
	*code = e->buf + off;
	*n = want < avail ? want : avail;
	return 0;
}
