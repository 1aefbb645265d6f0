/*
 * elf: what a shared library says about itself, read from its bytes.
 *
 * The libs layer names the file the loader will pick; which library that
 * file really is (WSL's libcuda, a Linux driver's, the CUDA toolkit's stub,
 * a compatibility package's copy) is decided from its content, not from
 * the directory it happens to sit in: a stub copied next to other
 * libraries is still a stub. This reader gives what that decision needs:
 * the ELF class and machine, DT_SONAME and DT_NEEDED, the defined dynamic
 * symbols, the file bytes of a symbol's code, and where the file keeps its
 * data (the sections that can hold string constants).
 *
 * The bytes come through a reader (struct elf_src): a whole buffer, or a
 * file read in bounded pieces at given offsets, so that a 30 MB driver
 * library costs the headers and tables it needs (tens of KiB), not its
 * size. What the reader copies is bounded: the header tables to 256 KiB
 * each, the dynamic symbol and string tables to ELF_MAX_TABLE each.
 *
 * The input is hostile by nature (any file on the machine can be named
 * libcuda.so.1), so every offset and size is checked against the file
 * size before it is used, counts are capped, and a malformed file is an
 * error with a reason, never a crash. Only little-endian ELF is read
 * (x86-64 and AArch64, the ABIs the loader accepts here); 32- and 64-bit
 * both.
 */
#ifndef WSLGPU_ELF_H
#define WSLGPU_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/strbuf.h"

#define ELF_MAX_NEEDED 64
#define ELF_MAX_SYMBOLS 200000 /* a real libcuda exports a few thousand */
#define ELF_MAX_TABLE (4u << 20) /* dynsym, dynstr: a real libcuda's are ~20 KiB */
#define ELF_MAX_RANGES 64

/* Where the bytes of one file come from: a buffer, or an open file (pread). */
struct elf_src {
	const unsigned char *mem; /* or NULL: fd */
	int fd;
	uint64_t size; /* the file's size */
};

/* A reader over buf[0..len) / over an open file of size bytes (pread). */
void elf_src_mem(struct elf_src *src, const unsigned char *buf, size_t len);
void elf_src_fd(struct elf_src *src, int fd, uint64_t size);

/* A piece of the file: [off, off + len). */
struct elf_range {
	uint64_t off, len;
};

struct elf_info {
	unsigned char cls;     /* 1: 32-bit, 2: 64-bit */
	uint16_t type;         /* 3: ET_DYN */
	uint16_t machine;      /* 62: x86-64, 183: AArch64 */
	const char *soname;    /* points into info's own copy; NULL if none */
	const char *needed[ELF_MAX_NEEDED];
	size_t nneeded;
	size_t ndefined;       /* defined dynamic symbols (functions and data) */
	/*
	 * The file's data: every allocated section that is neither code nor
	 * a table this reader interprets itself (.rodata, .data, .dynstr...),
	 * in file order, adjacent ones joined; without a section table, every
	 * loaded segment. String constants live here. ndata is 0 when the
	 * file has none; a file with more than ELF_MAX_RANGES pieces has its
	 * last ones joined into one (the span between them included).
	 */
	struct elf_range data[ELF_MAX_RANGES];
	size_t ndata;
	/* Private (for elf_defines, elf_code, elf_read, elf_free). */
	struct elf_src src;
	unsigned char *ph;     /* program headers */
	unsigned char *dynsym;
	char *dynstr, *dynamic_str;
	uint64_t dynsym_size, dynsym_ent, dynstr_off, dynstr_size;
	uint16_t phnum, phentsize;
};

/* Parses the file src reads (a copy of src is kept: the buffer or the
 * descriptor must stay valid while info is used). Returns 0, or -1 with
 * the reason in err ("not an ELF file", "section header table out of
 * bounds", ...). Either way elf_free releases what info holds. */
int elf_parse_src(const struct elf_src *src, struct elf_info *info, struct strbuf *err);
/* elf_parse_src on buf[0..len). */
int elf_parse(const unsigned char *buf, size_t len, struct elf_info *info, struct strbuf *err);
void elf_free(struct elf_info *info);

/* Whether the dynamic symbol table defines name. */
bool elf_defines(const struct elf_info *info, const char *name);

/* The file bytes of a defined function: up to max bytes of its code (its
 * symbol size when known and smaller), never past the end of its loaded
 * segment or of the file, copied to dst (max bytes). *off receives its
 * file offset, *n the bytes copied. Returns 0, or -1. */
int elf_code(const struct elf_info *info, const char *name, size_t max, unsigned char *dst,
	     uint64_t *off, size_t *n);
/* The file offset of a virtual address inside a PT_LOAD segment, with the
 * bytes readable from there in *n. Returns 0, or -1. */
int elf_vaddr_offset(const struct elf_info *info, uint64_t vaddr, uint64_t *off, size_t *n);
/* Up to n bytes of the file at off into dst: the count copied (0 past the
 * end), or -1 on a read error. */
long elf_read(const struct elf_info *info, uint64_t off, void *dst, size_t n);

#endif
