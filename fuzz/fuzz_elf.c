/* fuzz_elf.c: the ELF reader and the driver-library classifier on any
 * bytes: a file named libcuda.so.1 can hold anything. Every offset, size
 * and count in the input is hostile; nothing may be read outside it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/drvlib.h"
#include "parse/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
		const unsigned char *code;
		size_t n;
		if (elf_code(&e, "cuInit", 32, &code, &n) == 0 && n)
			(void)code[n - 1];
		uint64_t off;
		size_t avail;
		if (elf_vaddr_offset(&e, 0x1000, &off, &avail) == 0 && avail)
			(void)buf[off + avail - 1];
		for (size_t i = 0; i < e.nneeded; i++)
			(void)strlen(e.needed[i]);
		if (e.soname)
			(void)strlen(e.soname);
	}
	struct drvlib d;
	drvlib_classify(buf, size, "libcuda.so.1", "cuInit", &d);
	drvlib_classify(buf, size, "libnvidia-ml.so.1", "nvmlInit_v2", &d);
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
