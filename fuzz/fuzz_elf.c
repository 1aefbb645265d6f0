/* fuzz_elf.c: the ELF reader and the driver-library classifier on any
 * bytes: a file named libcuda.so.1 can hold anything. Every offset, size
 * and count in the input is hostile; nothing may be read outside it. The
 * classifier reads the file in windows: with any window size its answer
 * must be the same (a marker or a version across a window's edge). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/drvlib.h"
#include "parse/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same(const struct drvlib *a, const struct drvlib *b)
{
	if (a->kind != b->kind || strcmp(a->version, b->version) != 0 ||
	    strcmp(a->soname, b->soname) != 0 || a->defined != b->defined || a->marker != b->marker)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes, so that ASan sees any overread. */
	unsigned char *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	struct elf_info e;
	struct strbuf err = STRBUF_INIT;
	if (elf_parse(buf, size, &e, &err) == 0) {
		elf_defines(&e, "cuInit");
		unsigned char code[32];
		uint64_t at;
		size_t n;
		if (elf_code(&e, "cuInit", sizeof code, code, &at, &n) == 0 && n)
			(void)code[n - 1];
		uint64_t off;
		size_t avail;
		if (elf_vaddr_offset(&e, 0x1000, &off, &avail) == 0 && avail)
			(void)buf[off + avail - 1];
		for (size_t i = 0; i < e.nneeded; i++)
			(void)strlen(e.needed[i]);
		if (e.soname)
			(void)strlen(e.soname);
		for (size_t i = 0; i < e.ndata; i++)
			if (e.data[i].off + e.data[i].len > size)
				abort();
	}
	elf_free(&e);
	struct elf_src src;
	elf_src_mem(&src, buf, size);
	struct drvlib d, small;
	drvlib_classify(buf, size, "libcuda.so.1", "cuInit", &d);
	drvlib_classify_src(&src, "libcuda.so.1", "cuInit", 128, &small);
	same(&d, &small);
	drvlib_classify(buf, size, "libnvidia-ml.so.1", "nvmlInit_v2", &d);
	drvlib_classify_src(&src, "libnvidia-ml.so.1", "nvmlInit_v2", 200, &small);
	same(&d, &small);
	char v[32];
	char name[64];
	size_t k = size < sizeof name - 1 ? size : sizeof name - 1;
	memcpy(name, data, k);
	name[k] = '\0';
	drvlib_version_from_name(name, "libcuda.so.1", v, sizeof v);
	sb_release(&err);
	free(buf);
	return 0;
}
