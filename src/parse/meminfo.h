/*
 * meminfo: the "key value" files of /proc, as pure functions over a buffer.
 *
 * /proc/meminfo ("MemTotal:       16303444 kB"), /proc/vmstat ("pswpin 0")
 * and /proc/stat ("ctxt 1234567") share one shape: a key at the start of a
 * line, an optional colon, blanks, a decimal number and an optional unit.
 * procfile_u64 reads one value of any of them; meminfo_parse and
 * vmstat_parse pick out what the perf layer needs.
 *
 * Like every parser in src/parse/, these never fail on odd input (empty,
 * truncated, binary, a 10 MB line): a key that is not there is -ENOENT, a
 * value that is not a number is -EINVAL, a number that does not fit in 64
 * bits is -ERANGE.
 */
#ifndef WSLGPU_MEMINFO_H
#define WSLGPU_MEMINFO_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Value of the first line that starts with key followed by ':' or a blank.
 * A "kB" unit after the number (as /proc/meminfo writes) is multiplied out,
 * so meminfo values come back in bytes. Returns 0 or a negative errno.
 */
int procfile_u64(const char *buf, size_t len, const char *key, unsigned long long *val);

enum {
	MI_MEM_TOTAL = 1 << 0,
	MI_MEM_FREE = 1 << 1,
	MI_MEM_AVAILABLE = 1 << 2,
	MI_SWAP_TOTAL = 1 << 3,
	MI_SWAP_FREE = 1 << 4,
	MI_SWAP_CACHED = 1 << 5,
};

/* The /proc/meminfo figures the perf layer uses, in bytes. */
struct meminfo {
	unsigned long long mem_total, mem_free, mem_available;
	unsigned long long swap_total, swap_free, swap_cached;
	unsigned have; /* MI_* bits of the fields that were found */
};

/* Returns 0 when MemTotal was found (the rest may be missing), else -EINVAL. */
int meminfo_parse(const char *buf, size_t len, struct meminfo *mi);
/* The same, read line by line from a file of the described machine
 * (/proc/meminfo through rootfs): no size cap, a junk line of any length
 * before MemTotal costs one line's memory. 0, -ENODATA when there is no
 * MemTotal line, or -errno when it cannot be read (-EINVAL: not a regular
 * file, as rootfs_read). */
int meminfo_read(const char *guest, struct meminfo *mi);
/* Swap in use (SwapTotal - SwapFree, never negative); 0 if either is unknown. */
unsigned long long meminfo_swap_used(const struct meminfo *mi);

/* Pages swapped in and out since boot (/proc/vmstat pswpin, pswpout). */
struct vmstat {
	unsigned long long pswpin, pswpout;
	bool have_pswp; /* both counters were found */
};

/* Returns 0 when both counters were found, else -ENOENT. */
int vmstat_parse(const char *buf, size_t len, struct vmstat *vs);
/* The same from a file of the described machine (/proc/vmstat), streamed. */
int vmstat_read(const char *guest, struct vmstat *vs);

#endif
