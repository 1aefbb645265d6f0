/*
 * perf_judge.h: the decision of perf.memory, apart from the reading
 * (src/probes/perf.c). The collector reads /proc/meminfo, /proc/vmstat
 * (twice, half a second apart, only on the real machine with swap in use),
 * every .wslconfig it can see and the online CPUs into a struct
 * memory_facts; judge_memory turns them into the result with no I/O, so a
 * unit test can judge any machine from a table
 * (tests/unit/test_judge_perf.c).
 */
#ifndef WSLGPU_PERF_JUDGE_H
#define WSLGPU_PERF_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/result.h"
#include "../parse/meminfo.h"
#include "../parse/wslconfig.h"

/* A .wslconfig file, checked. */
struct config_file {
	char *guest;       /* where we read it */
	char *windows;     /* C:\Users\NAME\.wslconfig, as the user knows it */
	struct wslconfig wc;
	int read_error;    /* -errno, 0 when read */
	bool truncated;
};

struct memory_facts {
	bool wsl;
	int meminfo_rc;             /* meminfo_read's answer: 0, or -errno (-ENODATA: no MemTotal) */
	struct meminfo mi;
	bool have_vmstat;           /* /proc/vmstat's swap counters were read */
	struct vmstat vs;           /* since boot */
	bool sampled;               /* read again after half a second */
	unsigned long long rate;    /* pages/s swapped in and out meanwhile */
	const struct config_file *cfg; /* every .wslconfig, the first the one WSL reads */
	size_t ncfg;
	unsigned cpus;              /* online, 0 if unknown */
};

/* Whether the sample of /proc/vmstat can tell anything: swap is in use
 * (with no swap, or none of it used, no page can be moving in). */
bool memory_swap_sample_useful(const struct meminfo *mi);
/* Fills r (evidence, then the verdict) from the facts. */
void judge_memory(const struct memory_facts *f, struct result *r);

#endif
