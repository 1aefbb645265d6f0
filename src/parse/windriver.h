/*
 * windriver: which driver Windows runs for its display adapters, from
 *
 *  - Win32_VideoController or Win32_PnPSignedDriver in PowerShell's
 *    Format-List ("DriverVersion : 32.0.15.6094"; Get-WmiObject's __GENUS
 *    and friends included), or wmic's list form ("DriverVersion=...").
 *    WMI property names are never translated, so records are read by them
 *    (Name/Caption/DeviceName, AdapterCompatibility/DriverProviderName,
 *    DriverVersion, DriverDate, InfFilename/InfName, PNPDeviceID/DeviceID,
 *    DeviceClass);
 *  - pnputil's listing of the driver store (`pnputil -e`, `pnputil
 *    /enum-drivers`), whose labels ARE translated ("Published name",
 *    "发布名称"...). Its lines keep their order in every language, so a
 *    package is read by the shape of its values: the oemN.inf published
 *    name, the original .inf, then the provider and the class, the "date
 *    version" line (the INF's DriverVer, always month/day/year:
 *    https://learn.microsoft.com/en-us/windows-hardware/drivers/install/inf-driverver-directive),
 *    the class GUID in braces.
 * Dates become YYYY-MM-DD: WMI's CIM form (20180816000000.000000-000),
 * ISO, and DriverVer's mm/dd/yyyy. Pure, bounded.
 */
#ifndef WSLGPU_WINDRIVER_H
#define WSLGPU_WINDRIVER_H

#include <stdbool.h>
#include <stddef.h>

#define WINDRIVER_MAX 32
#define WINPNP_MAX 256

struct windriver_adapter {
	char name[96];
	char provider[64];
	char version[32];   /* Windows' form: 32.0.15.6094 */
	char date[16];      /* YYYY-MM-DD, "" if none */
	char inf[64];       /* oem12.inf */
	char vendor[8];     /* PCI vendor id from the device id, lower case: "10de" */
	char devclass[24];  /* Win32_PnPSignedDriver's DeviceClass ("DISPLAY") */
	bool nvidia;        /* vendor 10de, or NVIDIA in provider or name */
};

struct windriver {
	size_t n;
	struct windriver_adapter a[WINDRIVER_MAX];
};

/* Format-List or wmic key=value records. Returns n. */
size_t windriver_parse(const char *buf, size_t len, struct windriver *d);

struct winpnp_driver {
	char published[24]; /* oem12.inf */
	char original[64];  /* nv_dispi.inf ("" for `pnputil -e`) */
	char provider[64];
	char devclass[64];  /* as printed, translated */
	char class_guid[40];
	char date[16];      /* YYYY-MM-DD */
	char version[32];
};

struct winpnp {
	size_t n, more;
	struct winpnp_driver v[WINPNP_MAX];
};

size_t winpnp_parse(const char *buf, size_t len, struct winpnp *p);

/* "20180816000000.000000-000", "2018-08-16T00:00:00", "08/16/2018" ->
 * "2018-08-16". Returns 0, or -1 (out is then "") when not a date. */
int windriver_date(const char *s, char *out, size_t cap);

#endif
