/* elf.c: a bounds-checked reader of ELF shared objects. See elf.h. */
#include "elf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PT_LOAD = 1, PT_DYNAMIC = 2, SHT_PROGBITS = 1, SHT_STRTAB = 3, SHT_DYNAMIC = 6,
       SHT_NOTE = 7, SHT_DYNSYM = 11, SHF_ALLOC = 2, SHF_EXECINSTR = 4, DT_NULL = 0,
       DT_NEEDED = 1, DT_STRTAB = 5, DT_STRSZ = 10, DT_SONAME = 14 };

#define MAX_SECTIONS 4096
#define MAX_SEGMENTS 256
#define MAX_DYN 4096
/* A header table larger than this is not a library (a real one: ~2 KiB). */
#define MAX_HEADER_TABLE (256u << 10)

static uint64_t rd(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* [off, off + n) lies inside a file of len bytes (no overflow). */
static bool in(uint64_t len, uint64_t off, uint64_t n)
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

void elf_src_mem(struct elf_src *src, const unsigned char *buf, size_t len)
{
	src->mem = buf ? buf : (const unsigned char *)"";
	src->fd = -1;
	src->size = buf ? len : 0;
}

void elf_src_fd(struct elf_src *src, int fd, uint64_t size)
{
	src->mem = NULL;
	src->fd = fd;
	src->size = size;
}

static long src_read(const struct elf_src *s, uint64_t off, void *dst, size_t n)
{
	if (off >= s->size)
		return 0;
	if (n > s->size - off)
		n = (size_t)(s->size - off);
	if (s->mem) {
		memcpy(dst, s->mem + off, n);
		return (long)n;
	}
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(s->fd, (char *)dst + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break; /* the file shrank since its size was taken */
		got += (size_t)r;
	}
	return (long)got;
}

long elf_read(const struct elf_info *e, uint64_t off, void *dst, size_t n)
{
	return src_read(&e->src, off, dst, n);
}

/* Exactly n bytes at off in a new buffer, NUL-terminated; NULL if the file
 * does not have them. */
static unsigned char *load(const struct elf_src *s, uint64_t off, size_t n)
{
	if (!in(s->size, off, n))
		return NULL;
	unsigned char *b = xmalloc(n + 1);
	if (src_read(s, off, b, n) != (long)n) {
		free(b);
		return NULL;
	}
	b[n] = '\0';
	return b;
}

/* The NUL-terminated string at offset i of the table tab[0..size). */
static const char *table_str(const char *tab, uint64_t size, uint64_t i)
{
	if (!tab || i >= size)
		return NULL;
	const char *s = tab + i;
	return memchr(s, '\0', (size_t)(size - i)) ? s : NULL;
}

int elf_vaddr_offset(const struct elf_info *e, uint64_t vaddr, uint64_t *off, size_t *n)
{
	bool b64 = e->cls == 2;
	uint64_t len = e->src.size;
	for (uint16_t i = 0; e->ph && i < e->phnum; i++) {
		const unsigned char *ph = e->ph + (uint64_t)i * e->phentsize;
		if (rd(ph, 4) != PT_LOAD)
			continue;
		uint64_t p_off = b64 ? rd(ph + 8, 8) : rd(ph + 4, 4);
		uint64_t p_vaddr = b64 ? rd(ph + 16, 8) : rd(ph + 8, 4);
		uint64_t p_filesz = b64 ? rd(ph + 32, 8) : rd(ph + 16, 4);
		if (vaddr < p_vaddr || vaddr - p_vaddr >= p_filesz)
			continue;
		uint64_t o = p_off + (vaddr - p_vaddr);
		if (o < p_off || o >= len)
			return -1;
		uint64_t avail = p_filesz - (vaddr - p_vaddr);
		if (avail > len - o)
			avail = len - o;
		*off = o;
		*n = (size_t)avail;
		return 0;
	}
	return -1;
}

/* Reads the dynamic entries at [off, off + size) with the string table
 * they name (or the section's, sec_str*, when they name none). */
static void read_dynamic(struct elf_info *e, uint64_t off, uint64_t size, uint64_t sec_stroff,
			 uint64_t sec_strsize)
{
	bool b64 = e->cls == 2;
	size_t ent = b64 ? 16 : 8;
	if (!in(e->src.size, off, size))
		return;
	size_t n = (size_t)(size / ent);
	if (n > MAX_DYN)
		n = MAX_DYN;
	unsigned char *dyn = load(&e->src, off, n * ent);
	if (!dyn)
		return;
	uint64_t strtab = 0, strsz = 0;
	bool have_strtab = false;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *d = dyn + i * ent;
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
	if (strsize > ELF_MAX_TABLE)
		strsize = ELF_MAX_TABLE; /* a name past this is not found */
	const char *str = NULL;
	if (e->dynstr && stroff == e->dynstr_off && strsize <= e->dynstr_size)
		str = e->dynstr; /* the table the section names: read once */
	else if (strsize && (e->dynamic_str = (char *)load(&e->src, stroff, (size_t)strsize)))
		str = e->dynamic_str;
	for (size_t i = 0; str && i < n; i++) {
		const unsigned char *d = dyn + i * ent;
		uint64_t tag = rd(d, (int)ent / 2), val = rd(d + ent / 2, (int)ent / 2);
		if (tag == DT_NULL)
			break;
		const char *s = NULL;
		if (tag == DT_SONAME || tag == DT_NEEDED)
			s = table_str(str, strsize, val);
		if (!s)
			continue;
		if (tag == DT_SONAME && !e->soname)
			e->soname = s;
		else if (tag == DT_NEEDED && e->nneeded < ELF_MAX_NEEDED)
			e->needed[e->nneeded++] = s;
	}
	free(dyn);
}

static int range_cmp(const void *a, const void *b)
{
	const struct elf_range *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* r[0..n) sorted and joined into e->data: pieces that overlap or touch
 * become one, and past ELF_MAX_RANGES the rest is joined into the last. */
static void set_data(struct elf_info *e, struct elf_range *r, size_t n)
{
	if (n)
		qsort(r, n, sizeof *r, range_cmp);
	for (size_t i = 0; i < n; i++) {
		struct elf_range *last = e->ndata ? &e->data[e->ndata - 1] : NULL;
		uint64_t end = r[i].off + r[i].len;
		if (last && (r[i].off <= last->off + last->len ||
			     e->ndata == ELF_MAX_RANGES)) {
			if (end > last->off + last->len)
				last->len = end - last->off;
			continue;
		}
		e->data[e->ndata++] = r[i];
	}
}

int elf_parse(const unsigned char *buf, size_t len, struct elf_info *e, struct strbuf *err)
{
	struct elf_src src;
	elf_src_mem(&src, buf, len);
	return elf_parse_src(&src, e, err);
}

int elf_parse_src(const struct elf_src *src, struct elf_info *e, struct strbuf *err)
{
	memset(e, 0, sizeof *e);
	e->src = *src;
	uint64_t len = src->size;
	unsigned char h[64];
	long got = src_read(src, 0, h, sizeof h);
	if (got < 52 || memcmp(h, "\177ELF", 4) != 0)
		return fail(err, "not an ELF file");
	e->cls = h[4];
	if (e->cls != 1 && e->cls != 2)
		return fail(err, "unknown ELF class");
	if (h[5] != 1)
		return fail(err, "not a little-endian ELF file");
	bool b64 = e->cls == 2;
	if (b64 && got < 64)
		return fail(err, "ELF header cut short");
	e->type = (uint16_t)rd(h + 16, 2);
	e->machine = (uint16_t)rd(h + 18, 2);
	uint64_t phoff = b64 ? rd(h + 32, 8) : rd(h + 28, 4);
	uint64_t shoff = b64 ? rd(h + 40, 8) : rd(h + 32, 4);
	uint16_t phentsize = (uint16_t)rd(h + (b64 ? 54 : 42), 2);
	uint16_t phnum = (uint16_t)rd(h + (b64 ? 56 : 44), 2);
	uint16_t shentsize = (uint16_t)rd(h + (b64 ? 58 : 46), 2);
	uint16_t shnum = (uint16_t)rd(h + (b64 ? 60 : 48), 2);

	/* Program headers: the loader's view (segments, PT_DYNAMIC). */
	if (phnum) {
		uint64_t tsize = (uint64_t)phnum * phentsize;
		if (phentsize < (b64 ? 56 : 32) || phnum > MAX_SEGMENTS || !in(len, phoff, tsize) ||
		    tsize > MAX_HEADER_TABLE || !(e->ph = load(src, phoff, (size_t)tsize)))
			return fail(err, "program header table out of bounds");
		e->phnum = phnum;
		e->phentsize = phentsize;
	}
	/* Section headers: the dynamic symbol table and its strings, the data. */
	uint64_t dyn_off = 0, dyn_size = 0, dyn_stroff = 0, dyn_strsize = 0;
	uint64_t dynsym_off = 0;
	bool sec_dynamic = false;
	struct elf_range *r = NULL;
	size_t nr = 0;
	if (shnum && shoff) {
		uint64_t tsize = (uint64_t)shnum * shentsize;
		unsigned char *shdr = NULL;
		if (shentsize < (b64 ? 64 : 40) || shnum > MAX_SECTIONS || !in(len, shoff, tsize) ||
		    tsize > MAX_HEADER_TABLE || !(shdr = load(src, shoff, (size_t)tsize)))
			return fail(err, "section header table out of bounds");
		r = xmalloc(shnum * sizeof *r);
		for (uint16_t i = 0; i < shnum; i++) {
			const unsigned char *sh = shdr + (uint64_t)i * shentsize;
			uint32_t type = (uint32_t)rd(sh + 4, 4);
			uint64_t flags = b64 ? rd(sh + 8, 8) : rd(sh + 8, 4);
			uint64_t off = b64 ? rd(sh + 24, 8) : rd(sh + 16, 4);
			uint64_t size = b64 ? rd(sh + 32, 8) : rd(sh + 20, 4);
			if ((type == SHT_PROGBITS || type == SHT_STRTAB || type == SHT_NOTE) &&
			    (flags & SHF_ALLOC) && !(flags & SHF_EXECINSTR) && size && in(len, off, size))
				r[nr++] = (struct elf_range){ off, size };
			if (type != SHT_DYNSYM && type != SHT_DYNAMIC)
				continue;
			uint32_t link = (uint32_t)(b64 ? rd(sh + 40, 4) : rd(sh + 24, 4));
			uint64_t entsize = b64 ? rd(sh + 56, 8) : rd(sh + 36, 4);
			if (!in(len, off, size) || link >= shnum)
				continue;
			const unsigned char *ls = shdr + (uint64_t)link * shentsize;
			uint64_t loff = b64 ? rd(ls + 24, 8) : rd(ls + 16, 4);
			uint64_t lsize = b64 ? rd(ls + 32, 8) : rd(ls + 20, 4);
			if (!in(len, loff, lsize))
				continue;
			if (type == SHT_DYNSYM && !e->dynsym_size) {
				dynsym_off = off;
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
		free(shdr);
	} else if (e->ph) {
		/* No section table (stripped with sstrip): the loaded segments. */
		r = xmalloc(phnum * sizeof *r);
		for (uint16_t i = 0; i < phnum; i++) {
			const unsigned char *ph = e->ph + (uint64_t)i * phentsize;
			uint64_t off = b64 ? rd(ph + 8, 8) : rd(ph + 4, 4);
			uint64_t size = b64 ? rd(ph + 32, 8) : rd(ph + 16, 4);
			if (rd(ph, 4) == PT_LOAD && size && in(len, off, size))
				r[nr++] = (struct elf_range){ off, size };
		}
	}
	set_data(e, r, nr);
	free(r);

	/* The dynamic symbols and their names, bounded. */
	size_t nsym = e->dynsym_ent ? (size_t)(e->dynsym_size / e->dynsym_ent) : 0;
	if (nsym > ELF_MAX_SYMBOLS)
		nsym = ELF_MAX_SYMBOLS;
	if (nsym && nsym > ELF_MAX_TABLE / e->dynsym_ent)
		nsym = (size_t)(ELF_MAX_TABLE / e->dynsym_ent);
	e->dynsym_size = nsym * e->dynsym_ent;
	if (e->dynstr_size > ELF_MAX_TABLE)
		e->dynstr_size = ELF_MAX_TABLE; /* a name past this is not found */
	if (nsym && !(e->dynsym = load(src, dynsym_off, (size_t)e->dynsym_size)))
		nsym = 0, e->dynsym_size = 0;
	if (e->dynstr_size && !(e->dynstr = (char *)load(src, e->dynstr_off, (size_t)e->dynstr_size)))
		e->dynstr_size = 0;
	for (size_t i = 0; i < nsym; i++) {
		const unsigned char *s = e->dynsym + i * e->dynsym_ent;
		uint16_t shndx = (uint16_t)rd(s + (b64 ? 6 : 14), 2);
		if (shndx != 0)
			e->ndefined++;
	}

	/* The dynamic section as the loader finds it, else as a section. */
	bool done = false;
	for (uint16_t i = 0; i < e->phnum && !done; i++) {
		const unsigned char *ph = e->ph + (uint64_t)i * phentsize;
		if (rd(ph, 4) != PT_DYNAMIC)
			continue;
		uint64_t off = b64 ? rd(ph + 8, 8) : rd(ph + 4, 4);
		uint64_t size = b64 ? rd(ph + 32, 8) : rd(ph + 16, 4);
		read_dynamic(e, off, size, dyn_stroff, dyn_strsize);
		done = true;
	}
	if (!done && sec_dynamic)
		read_dynamic(e, dyn_off, dyn_size, dyn_stroff, dyn_strsize);
	return 0;
}

void elf_free(struct elf_info *e)
{
	free(e->ph);
	free(e->dynsym);
	free(e->dynstr);
	free(e->dynamic_str);
	memset(e, 0, sizeof *e);
}

/* The defined symbol named name: its value and size. */
static bool find_symbol(const struct elf_info *e, const char *name, uint64_t *value, uint64_t *size)
{
	bool b64 = e->cls == 2;
	size_t nsym = e->dynsym && e->dynsym_ent ? (size_t)(e->dynsym_size / e->dynsym_ent) : 0;
	for (size_t i = 0; i < nsym; i++) {
		const unsigned char *s = e->dynsym + i * e->dynsym_ent;
		uint16_t shndx = (uint16_t)rd(s + (b64 ? 6 : 14), 2);
		if (shndx == 0)
			continue;
		const char *nm = table_str(e->dynstr, e->dynstr_size, rd(s, 4));
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

int elf_code(const struct elf_info *e, const char *name, size_t max, unsigned char *dst,
	     uint64_t *off, size_t *n)
{
	uint64_t value, size;
	size_t avail;
	if (!find_symbol(e, name, &value, &size) || elf_vaddr_offset(e, value, off, &avail) < 0)
		return -1;
	size_t want = size && size < max ? (size_t)size : max;
	long got = src_read(&e->src, *off, dst, want < avail ? want : avail);
	if (got < 0)
		return -1;
	*n = (size_t)got;
	return 0;
}
