/* host.c: the Windows driver as WSL sees it (driver store), or the native driver. */
#include "probes.h"

const struct check_def host_checks[] = {
	{ "host.driver_store", "host", "Windows driver store", "an NVIDIA folder in /usr/lib/wsl/drivers, and the driver version its files show", { "bridge.dxg" }, NULL },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL },
};
