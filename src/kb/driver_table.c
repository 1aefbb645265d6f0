/*
 * driver_table.c: CUDA release -> minimum driver, as data. See driver_table.h.
 *
 * Every row is from NVIDIA's CUDA Toolkit Release Notes, Table 3 "CUDA
 * Toolkit and Corresponding Driver Versions" (13.2 Update 2 edition),
 * https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html,
 * transcribed in research/wsl-facts.md §5. "Starting with CUDA 13.1, the
 * Windows display driver is no longer bundled with the CUDA Toolkit
 * package": the Windows column is N/A for 13.x. There is no CUDA 12.7.
 * To add a release, add its row in order; test_nvml.c checks the order.
 */
#include "driver_table.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../parse/version.h"

static const struct cuda_driver_row rows[] = {
	/* Released after the 13.2 Update 2 edition (NVIDIA's release notes
	 * 13.3 to 13.5; 13.4 GA is versioned 13.4.1, its 13.4.0 was a
	 * developer preview). From 13.4 the Linux driver is no longer bundled
	 * with the toolkit either; the per-release toolkit driver of these rows
	 * is not transcribed here (NULL): what holds is the 13.x family
	 * minimum (minor-version compatibility, >= 580). */
	{ "13.5.0", "13.5 GA", NULL, NULL },
	{ "13.4.2", "13.4 Update 1", NULL, NULL },
	{ "13.4.1", "13.4 GA", NULL, NULL },
	{ "13.3.1", "13.3 Update 1", NULL, NULL },
	{ "13.3.0", "13.3 GA", NULL, NULL },
	{ "13.2.2", "13.2 Update 2", "595.71.05", NULL },
	{ "13.2.1", "13.2 Update 1", "595.58.03", NULL },
	{ "13.2.0", "13.2 GA", "595.45.04", NULL },
	{ "13.1.1", "13.1 Update 1", "590.48.01", NULL },
	{ "13.1.0", "13.1 GA", "590.44.01", NULL },
	{ "13.0.2", "13.0 Update 2", "580.95.05", NULL },
	{ "13.0.1", "13.0 Update 1", "580.82.07", NULL },
	{ "13.0.0", "13.0 GA", "580.65.06", NULL },
	{ "12.9.1", "12.9 Update 1", "575.57.08", "576.57" },
	{ "12.9.0", "12.9 GA", "575.51.03", "576.02" },
	{ "12.8.1", "12.8 Update 1", "570.124.06", "572.61" },
	{ "12.8.0", "12.8 GA", "570.26", "570.65" },
	{ "12.6.3", "12.6 Update 3", "560.35.05", "561.17" },
	{ "12.6.2", "12.6 Update 2", "560.35.03", "560.94" },
	{ "12.6.1", "12.6 Update 1", "560.35.03", "560.94" },
	{ "12.6.0", "12.6 GA", "560.28.03", "560.76" },
	{ "12.5.1", "12.5 Update 1", "555.42.06", "555.85" },
	{ "12.5.0", "12.5 GA", "555.42.02", "555.85" },
	{ "12.4.1", "12.4 Update 1", "550.54.15", "551.78" },
	{ "12.4.0", "12.4 GA", "550.54.14", "551.61" },
	{ "12.3.1", "12.3 Update 1", "545.23.08", "546.12" },
	{ "12.3.0", "12.3 GA", "545.23.06", "545.84" },
	{ "12.2.2", "12.2 Update 2", "535.104.05", "537.13" },
	{ "12.2.1", "12.2 Update 1", "535.86.09", "536.67" },
	{ "12.2.0", "12.2 GA", "535.54.03", "536.25" },
	{ "12.1.1", "12.1 Update 1", "530.30.02", "531.14" },
	{ "12.1.0", "12.1 GA", "530.30.02", "531.14" },
	{ "12.0.1", "12.0 Update 1", "525.85.12", "528.33" },
	{ "12.0.0", "12.0 GA", "525.60.13", "527.41" },
	{ "11.8.0", "11.8 GA", "520.61.05", "520.06" },
	{ "11.7.1", "11.7 Update 1", "515.48.07", "516.31" },
	{ "11.7.0", "11.7 GA", "515.43.04", "516.01" },
	{ "11.6.2", "11.6 Update 2", "510.47.03", "511.65" },
	{ "11.6.1", "11.6 Update 1", "510.47.03", "511.65" },
	{ "11.6.0", "11.6 GA", "510.39.01", "511.23" },
	{ "11.5.2", "11.5 Update 2", "495.29.05", "496.13" },
	{ "11.5.1", "11.5 Update 1", "495.29.05", "496.13" },
	{ "11.5.0", "11.5 GA", "495.29.05", "496.04" },
	{ "11.4.4", "11.4 Update 4", "470.82.01", "472.50" },
	{ "11.4.3", "11.4 Update 3", "470.82.01", "472.50" },
	{ "11.4.2", "11.4 Update 2", "470.57.02", "471.41" },
	{ "11.4.1", "11.4 Update 1", "470.57.02", "471.41" },
	{ "11.4.0", "11.4.0 GA", "470.42.01", "471.11" },
	{ "11.3.1", "11.3.1 Update 1", "465.19.01", "465.89" },
	{ "11.3.0", "11.3.0 GA", "465.19.01", "465.89" },
	{ "11.2.2", "11.2.2 Update 2", "460.32.03", "461.33" },
	{ "11.2.1", "11.2.1 Update 1", "460.32.03", "461.09" },
	{ "11.2.0", "11.2.0 GA", "460.27.03", "460.82" },
	{ "11.1.1", "11.1.1 Update 1", "455.32", "456.81" },
	{ "11.1.0", "11.1 GA", "455.23", "456.38" },
	{ "11.0.3", "11.0.3 Update 1", "450.51.06", "451.82" },
	{ "11.0.2", "11.0.2 GA", "450.51.05", "451.48" },
	{ "11.0.1", "11.0.1 RC", "450.36.06", "451.22" },
};

/*
 * Table 2 "CUDA Toolkit and Minimum Required Driver Version for CUDA Minor
 * Version Compatibility" of the same release notes, and its footnote for
 * 11.x ("by upgrading to Tesla Recommended Drivers 450.80.02 (Linux) /
 * 452.39 (Windows), minor version compatibility is possible across the
 * CUDA 11.x family"). The 12.x value is the exact 12.0 GA driver
 * (FACTS.md: ">= 525.60.13"); 13.x is given only as ">= 580".
 */
static const struct {
	int major;
	const char *linux_min;
	const char *windows_min;
} families[] = {
	{ 13, "580", NULL },
	{ 12, "525.60.13", NULL },
	{ 11, "450.80.02", "452.39" },
};

const struct cuda_driver_row *cuda_driver_table(size_t *n)
{
	*n = sizeof rows / sizeof rows[0];
	return rows;
}

const struct cuda_driver_row *cuda_driver_row_for(const char *toolkit)
{
	struct version want;
	if (version_parse(toolkit, &want) < 0 || want.n < 2)
		return NULL;
	const struct cuda_driver_row *ga = NULL;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct version v;
		version_parse(rows[i].toolkit, &v);
		if (v.part[0] != want.part[0] || v.part[1] != want.part[1])
			continue;
		if (want.n >= 3 && v.part[2] == want.part[2])
			return &rows[i];
		ga = &rows[i]; /* rows of a minor end with its GA (the oldest) */
	}
	return ga;
}

const char *cuda_family_min_driver(int major, bool windows)
{
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (families[i].major == major)
			return windows ? families[i].windows_min : families[i].linux_min;
	return NULL;
}

/* The CUDA release ("12.4") of the first row (newest first) whose minimum
 * driver is at most driver_version, or with same_branch, whose minimum is
 * of driver_version's branch (its first number). */
static int release_of(const char *driver_version, bool windows, bool same_branch, char *out,
		      size_t n)
{
	struct version d;
	if (n)
		out[0] = '\0';
	if (version_parse(driver_version, &d) < 0)
		return -1;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *min = windows ? rows[i].windows_min : rows[i].linux_min;
		struct version m, t;
		if (!min || version_parse(min, &m) < 0)
			continue;
		if (same_branch ? m.part[0] == d.part[0] : version_cmp(&d, &m) >= 0) {
			version_parse(rows[i].toolkit, &t);
			snprintf(out, n, "%ld.%ld", t.part[0], t.part[1]);
			return 0;
		}
	}
	return -1;
}

int cuda_driver_newest_release(const char *driver_version, bool windows, char *out, size_t n)
{
	return release_of(driver_version, windows, false, out, n);
}

int cuda_driver_branch_release(const char *driver_version, bool windows, char *out, size_t n)
{
	return release_of(driver_version, windows, true, out, n);
}

int driver_version_normalize(const char *s, char *out, size_t n)
{
	struct version v;
	if (!n)
		return -1;
	out[0] = '\0';
	if (version_parse(s, &v) < 0)
		return -1;
	if (v.n == 4 && v.part[0] >= 10 && v.part[0] < 100 && v.part[3] < 10000) {
		/* 31.0.15.5123: "5" + "5123" = 55123 = 551.23 */
		long nv = (v.part[2] % 10) * 10000 + v.part[3];
		snprintf(out, n, "%ld.%02ld", nv / 100, nv % 100);
		return 0;
	}
	/* Otherwise the leading dotted number as written ("470.82.01"). */
	while (*s == ' ' || *s == 'v' || *s == 'V')
		s++;
	size_t k = 0;
	while ((isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) &&
	       k + 1 < n)
		out[k++] = *s++;
	out[k] = '\0';
	return 0;
}

const struct cuda_driver_row *cuda_newest_known(void)
{
	return &rows[0];
}

int cuda_newer_than_known(int major, int minor)
{
	struct version v;
	version_parse(rows[0].toolkit, &v);
	return major > v.part[0] || (major == v.part[0] && minor > v.part[1]);
}

int cuda_released_upto(int major, int minor, char *out, size_t n)
{
	if (n)
		out[0] = '\0';
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct version v;
		version_parse(rows[i].toolkit, &v);
		if (v.part[0] < major || (v.part[0] == major && v.part[1] <= minor)) {
			if (v.part[0] != major)
				return -1; /* none of that major up to minor */
			snprintf(out, n, "%ld.%ld", v.part[0], v.part[1]);
			return 0;
		}
	}
	return -1;
}
