/* fuzz_nvml.c: the nvml layer's parsers of untrusted bytes — nvidia-smi's
 * output (Linux and Windows, any junk a broken driver prints), the CUDA
 * toolkit's version.json / version.txt, a Windows driver package's .inf
 * (DriverVer, UTF-8 or UTF-16 of either byte order) and driver version
 * strings. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kb/driver_table.h"
#include "parse/cudaver.h"
#include "parse/infver.h"
#include "parse/nvsmi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	struct nvsmi_info in;
	nvsmi_parse(p, size, &in);

	char out[32];
	cudaver_toolkit_parse(p, size, out, sizeof out);

	struct infver iv;
	if (infver_find(p, size, &iv) == 0) {
		char nv[32];
		infver_nvidia(iv.windows, nv, sizeof nv);
	}

	char *s = strndup(p, size);
	if (s) {
		char v[48], c[16];
		cudaver_from_string(s);
		if (driver_version_normalize(s, v, sizeof v) == 0) {
			cuda_driver_newest_release(v, true, c, sizeof c);
			cuda_driver_newest_release(v, false, c, sizeof c);
		}
		cuda_driver_row_for(s);
		char nv[32];
		infver_nvidia(s, nv, sizeof nv);
		free(s);
	}
	return 0;
}
