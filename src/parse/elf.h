/*
 * elf: what a shared library says about itself, read from its bytes.
 *
 * The libs layer names the file the loader will pick; which library that
 * file really is (WSL's libcuda, a Linux driver's, the CUDA toolkit's stub,
 * a compatibility package's copy) is decided from its content, not from
 * the directory it happens to sit in: a stub copied next to other
 * libraries is still a stub. This reader gives what that decision needs:
 * the ELF class and machine, DT_SONAME and DT_NEEDED, the defined dynamic
 * symbols, and the file bytes of a symbol's code.
 *
 * The input is hostile by nature (any file on the machine can be named
 * libcuda.so.1), so every offset and size is checked against the buffer
 * before it is used, counts are capped, and a malformed file is an error
 * with a reason, never a crash. Only little-endian ELF is read (x86-64 and
 * AArch64, the ABIs the loader accepts here); 32- and 64-bit both.
 */
#ifndef WSLGPU_ELF_H
#define WSLGPU_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/strbuf.h"

#define ELF_MAX_NEEDED 64
#define ELF_MAX_SYMBOLS 200000 /* a real libcuda exports a few thousand */

struct elf_info {
	unsigned char cls;     /* 1: 32-bit, 2: 64-bit */
	uint16_t type;         /* 3: ET_DYN */
	uint16_t machine;      /* 62: x86-64, 183: AArch64 */
	const char *soname;    /* points into the buffer; NULL if none */
	const char *needed[ELF_MAX_NEEDED];
	size_t nneeded;
	size_t ndefined;       /* defined dynamic symbols (functions and data) */
	/* For elf_symbol and elf_code (private). */
	const unsigned char *buf;
	size_t len;
	uint64_t dynsym_off, dynsym_size, dynsym_ent, dynstr_off, dynstr_size;
	uint64_t phoff;
	uint16_t phnum, phentsize;
};

/* Parses buf (the whole file). Returns 0, or -1 with the reason in err
 * ("not an ELF file", "section table out of bounds", ...). buf must stay
 * alive while info is used: the strings point into it. */
int elf_parse(const unsigned char *buf, size_t len, struct elf_info *info, struct strbuf *err);

/* Whether the dynamic symbol table defines name. */
bool elf_defines(const struct elf_info *info, const char *name);

/* The file bytes of a defined function: *code points at its first byte in
 * the buffer, *n is how many bytes may be read there (up to its symbol
 * size, at least up to max when the size is unknown, and never past the
 * end of its loaded segment or of the file). Returns 0, or -1. */
int elf_code(const struct elf_info *info, const char *name, size_t max, const unsigned char **code,
	     size_t *n);
/* The file offset of a virtual address inside a PT_LOAD segment, with the
 * bytes readable from there in *n. Returns 0, or -1. */
int elf_vaddr_offset(const struct elf_info *info, uint64_t vaddr, uint64_t *off, size_t *n);

#endif
