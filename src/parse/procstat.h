/*
 * procstat: the counters `wslgpu watch` samples, as pure functions over a
 * buffer (proc(5)):
 *
 *   /proc/stat           the "cpu" line: user nice system idle iowait irq
 *                        softirq steal, in clock ticks, and the number of
 *                        "cpuN" lines (online CPUs)
 *   /proc/PID/stat       state, ppid, utime, stime, cutime, cstime,
 *                        num_threads, starttime (comm may hold blanks and
 *                        parentheses, so fields are counted from the last ')')
 *   /proc/PID/io         rchar, wchar, read_bytes, write_bytes
 *   /proc/diskstats      sectors read and written, summed over whole disks
 *                        (partitions, loop, ram, zram and device-mapper
 *                        devices would count the same bytes twice)
 *
 * /proc/meminfo and /proc/vmstat are src/parse/meminfo's.
 *
 * Like every parser in src/parse/, these never fail on odd input (empty,
 * truncated, binary, a 10 MB line); they return 0 or a negative errno
 * (-EINVAL: not the expected shape).
 */
#ifndef WSLGPU_PROCSTAT_H
#define WSLGPU_PROCSTAT_H

#include <stdbool.h>
#include <stddef.h>

/* Clock ticks (USER_HZ) spent in each state, summed over all CPUs. */
struct cpu_times {
	unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
};

/* Sum of every field: the elapsed ticks times the number of CPUs. */
unsigned long long cpu_times_total(const struct cpu_times *t);

/* The aggregate "cpu " line of /proc/stat; ncpu (may be NULL) receives the
 * number of "cpuN" lines. Missing trailing fields (old kernels) are 0. */
int procstat_cpu_parse(const char *buf, size_t len, struct cpu_times *t, unsigned *ncpu);

struct pid_stat {
	int pid;
	char comm[32];  /* what the kernel shows, at most 15 bytes plus NUL */
	char state;     /* R, S, D, Z, T, t, X, I, ... */
	int ppid;
	int pgrp;
	unsigned long long utime, stime;   /* ticks, whole thread group */
	unsigned long long cutime, cstime; /* ticks of reaped children */
	long num_threads;
	unsigned long long starttime;      /* ticks after boot */
};

/* /proc/PID/stat. -EINVAL when the line has too few fields. */
int procstat_pid_parse(const char *buf, size_t len, struct pid_stat *ps);

enum {
	PIO_RCHAR = 1 << 0,
	PIO_WCHAR = 1 << 1,
	PIO_READ_BYTES = 1 << 2,
	PIO_WRITE_BYTES = 1 << 3,
};

/* /proc/PID/io, in bytes. rchar/wchar count every read(2)/write(2)
 * (page cache, pipes, 9p); read_bytes/write_bytes what reached the block
 * layer. */
struct pid_io {
	unsigned long long rchar, wchar, read_bytes, write_bytes;
	unsigned have; /* PIO_* bits */
};

/* Returns 0 when read_bytes and write_bytes were found, else -EINVAL. */
int procstat_io_parse(const char *buf, size_t len, struct pid_io *io);

struct disk_totals {
	unsigned long long sectors_read, sectors_written; /* 512-byte units */
	unsigned ndisks;
};

/*
 * Sums /proc/diskstats over whole disks: lines whose device is neither a
 * partition of another listed device (sda1 of sda, nvme0n1p2 of nvme0n1)
 * nor a virtual block device (loop, ram, zram, dm-, md, sr, fd). Returns 0
 * even when no disk qualifies (ndisks 0); -EINVAL when no line parses.
 */
int procstat_diskstats_parse(const char *buf, size_t len, struct disk_totals *t);

/* True for the device names procstat_diskstats_parse skips as virtual. */
bool procstat_disk_is_virtual(const char *name);

#endif
