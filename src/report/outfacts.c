/* outfacts.c: facts shared by the JUnit and Prometheus writers. See outfacts.h. */
#include "outfacts.h"

#include <string.h>

#include "../core/check.h"

static const char *fact(const struct report *rep, const char *id, const char *key)
{
	const struct result *r = report_find(rep, id);
	const char *v = r ? res_get(r, key) : NULL;
	return v && *v ? v : NULL;
}

void out_facts(const struct report *rep, struct out_facts *f)
{
	f->kind = report_platform(rep, "kind");
	f->kernel = report_platform(rep, "kernel");
	if (f->kernel && !*f->kernel)
		f->kernel = NULL;
	f->distro = report_platform(rep, "distro");
	f->driver = fact(rep, "host.driver", "driver_version");
	/* host.driver's "driver_cuda" may be an estimate in words; only the
	 * exact figures become a label. */
	f->driver_cuda = fact(rep, "host.driver", "driver_cuda_version");
	if (!f->driver_cuda)
		f->driver_cuda = fact(rep, "cuda.init", "driver_cuda_version");
	/* "unknown (wsl.exe not found)" and the like are no version. */
	f->wsl = fact(rep, "host.driver", "wsl_version");
	if (f->wsl && !strncmp(f->wsl, "unknown", 7))
		f->wsl = NULL;
	f->windows = fact(rep, "host.driver", "windows_version");
	f->host_key = fact(rep, "host.driver", "windows_host_hash");
	f->tdr_resets = fact(rep, "host.driver", "tdr_resets_7d");
	f->gpu_model = fact(rep, "cuda.devices", "device.0.name");
	if (!f->gpu_model || !strncmp(f->gpu_model, "(name", 5))
		f->gpu_model = fact(rep, "nvml.devices", "device.0.name");
	/* "not supported by this driver", "unavailable" are no UUID. */
	f->gpu_uuid = fact(rep, "cuda.devices", "device.0.uuid");
	if (f->gpu_uuid && strncmp(f->gpu_uuid, "GPU-", 4))
		f->gpu_uuid = NULL;
}
