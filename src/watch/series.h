/*
 * series: what watch records — the columns, one point per interval, and
 * the statistics the verdict is computed from.
 *
 * A point is computed from two raw readings (cumulative counters) as
 * rates over the time between them: CPU shares from /proc/stat, the job's
 * CPU in cores and I/O in MB/s from its process tree, disk and swap in
 * MB/s (MB = 10^6 bytes), memory in MiB. A figure that is not available
 * (no NVML, utilisation not supported, /proc/PID/io not readable) is NaN,
 * which CSV writes as an empty field and JSON as null.
 *
 * Every point updates exact per-column statistics (count, sum, min, max).
 * The points themselves are kept for the sparklines, the SVG and the JSON,
 * at most WATCH_KEEP_POINTS of them: when the store is full, neighbours are
 * averaged in pairs and later points are averaged over the doubled bucket,
 * so a week-long job costs the same memory as a minute. The CSV gets every
 * point as it is taken.
 */
#ifndef WSLGPU_WATCH_SERIES_H
#define WSLGPU_WATCH_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "gpumon.h"
#include "sysread.h"
#include "tree.h"

#define WATCH_KEEP_POINTS 2048

enum watch_col {
	WC_T,
	WC_GPU_UTIL,
	WC_GPU_MEM,
	WC_CPU_USER,
	WC_CPU_SYS,
	WC_CPU_IOWAIT,
	WC_JOB_CPU,
	WC_JOB_TOP,
	WC_JOB_PROCS,
	WC_JOB_RUNNABLE,
	WC_JOB_BLOCKED,
	WC_DISK_READ,
	WC_DISK_WRITE,
	WC_JOB_READ,
	WC_JOB_WRITE,
	WC_JOB_RCHAR,
	WC_SWAP_IN,
	WC_SWAP_OUT,
	WC_MEM_AVAIL,
	WC__COUNT
};

struct watch_col_def {
	const char *name;  /* CSV header and JSON column: gpu_util_pct */
	const char *label; /* for people: "GPU util" */
	const char *unit;  /* "%", "MiB", "cores", "MB/s", "" */
	int decimals;      /* in CSV and JSON */
};

extern const struct watch_col_def watch_cols[WC__COUNT];

/* Where a GPU figure came from. */
enum gpu_src {
	GSRC_NONE,
	GSRC_NVML,       /* libnvidia-ml: the GPUs this machine sees */
	GSRC_WIN_VM,     /* Windows' counters for WSL's VM processes (the job among them) */
	GSRC_WIN_GPU,    /* Windows' counters for the whole adapter */
	GSRC__COUNT
};
/* "", "nvml", "windows-vm", "windows-gpu" (CSV and JSON). */
extern const char *const gpu_src_names[GSRC__COUNT];

struct watch_point {
	double v[WC__COUNT];
	unsigned char util_src, mem_src; /* enum gpu_src of v[WC_GPU_UTIL], v[WC_GPU_MEM] */
};

/* Cumulative readings at one instant. */
struct watch_raw {
	double t_ms;
	struct machine_counters mc;
	struct tree_totals tree;
	bool have_tree;
	struct gpu_reading gpu;
	struct gpu_reading win; /* Windows' counters: for a figure NVML lacks */
};

/*
 * The point for the interval from a to b. start_ms is the time of t = 0;
 * clk_tck and page_size are sysconf's; a GPU reading older than
 * stale_ms counts as missing. Each GPU figure comes from NVML where it has
 * it, else from Windows' counters (b->win).
 */
void watch_point_from(const struct watch_raw *a, const struct watch_raw *b, double start_ms,
		      long clk_tck, long page_size, double stale_ms, struct watch_point *p);

struct watch_stat {
	size_t n;
	double sum, min, max;
};

struct watch_series {
	struct watch_point *pts;
	size_t n;
	unsigned bucket;             /* points averaged into each kept one */
	double pend_sum[WC__COUNT];  /* the bucket being filled */
	unsigned pend_cnt[WC__COUNT];
	unsigned pend_n;
	struct watch_stat stat[WC__COUNT];
	size_t nsamples;
	size_t util_src_n[GSRC__COUNT], mem_src_n[GSRC__COUNT]; /* points per source */
};

void series_init(struct watch_series *s);
void series_release(struct watch_series *s);
void series_add(struct watch_series *s, const struct watch_point *p);
/* Mean / min / max of a column over every point; NaN when none had it. */
double series_mean(const struct watch_series *s, enum watch_col c);
double series_min(const struct watch_series *s, enum watch_col c);
double series_max(const struct watch_series *s, enum watch_col c);
/* The kept points, with the partial bucket appended (for plots): fills
 * out (n values of column c, NaN for gaps); returns n. Caller frees. */
/* The source most points' utilisation (mem: memory) came from. */
enum gpu_src series_gpu_src(const struct watch_series *s, bool mem);
size_t series_column(const struct watch_series *s, enum watch_col c, double **out);

#endif
