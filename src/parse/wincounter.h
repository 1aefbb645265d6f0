/*
 * wincounter: performance-counter samples as Windows prints them:
 *
 *  - Get-Counter's default table: a Timestamp column and, in the
 *    CounterSamples column, each sample's path ending in " :" with its
 *    value on the next line (Microsoft's Get-Counter reference, examples 2
 *    to 10);
 *  - a CounterSamples object as a table (Path, InstanceName, CookedValue);
 *  - typeperf's CSV: a "(PDH-CSV 4.0)" header row naming each counter by
 *    its full path, then one row of values a sample (the last row is kept).
 *
 * Counter paths are "\\HOST\object(instance)\counter". Object and counter
 * names are translated on a localized Windows (Get-Counter's reference:
 * "Performance counter names are localized"); instance names are not
 * ("pid_1234_luid_0x00000000_0x0000D2B1_phys_0_eng_0_engtype_3D"), nor
 * the property names of the tables. So the GPU counters are asked for by
 * their English names (PowerShell maps them, see facts/windows.c) and read
 * here by their instance names. Values may use a decimal comma (Get-Counter
 * formats with the display culture). Pure, bounded (WINCOUNTER_MAX).
 */
#ifndef WSLGPU_WINCOUNTER_H
#define WSLGPU_WINCOUNTER_H

#include <stdbool.h>
#include <stddef.h>

#define WINCOUNTER_MAX 4096

struct wincounter_sample {
	char path[320];     /* as printed */
	char object[96];    /* "gpu engine", "processor" (as printed: Get-Counter lowercases) */
	char instance[160]; /* "" for a single-instance object */
	char counter[96];   /* "utilization percentage" */
	double value;
	bool have_value;
};

struct wincounters {
	size_t n, more;
	struct wincounter_sample *v;
};

/* Parses any of the three forms (UTF-16 or UTF-8). Returns n. Free with
 * wincounter_free. */
size_t wincounter_parse(const char *buf, size_t len, struct wincounters *c);
void wincounter_free(struct wincounters *c);

/* Splits a counter path into object, instance and counter. Returns 0, or -1
 * when s is not a counter path. */
int wincounter_split_path(const char *s, size_t n, struct wincounter_sample *out);

/* The fields of a GPU counter's instance name ("pid_1234_luid_0x00000000_
 * 0x0000D2B1_phys_0_eng_3_engtype_Compute"); absent ones are -1 / "". */
struct wingpu_instance {
	long pid;
	char luid[24];      /* "0x00000000_0x0000d2b1", lower case */
	long phys;
	long eng;
	char engtype[32];   /* "3D", "Compute", "Copy", "VideoDecode"... */
};
int wincounter_gpu_instance(const char *instance, struct wingpu_instance *g);

#endif
