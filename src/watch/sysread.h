/*
 * sysread: the machine-wide counters `wslgpu watch` samples, read cheaply.
 *
 * /proc/stat, /proc/diskstats, /proc/vmstat and /proc/meminfo are opened
 * once (through rootfs, so unit tests can point the reader at recorded
 * files) and re-read on every tick with pread at offset 0: the kernel
 * regenerates a /proc file for each read from the start, so no reopen and
 * no path walk is needed. A file that cannot be opened leaves its series
 * unavailable (a container may hide /proc/diskstats); nothing fails.
 */
#ifndef WSLGPU_WATCH_SYSREAD_H
#define WSLGPU_WATCH_SYSREAD_H

#include <stdbool.h>

#include "../core/strbuf.h"
#include "../parse/meminfo.h"
#include "../parse/procstat.h"

/* Replaces sb with the whole file behind fd, read from offset 0 (at most
 * 1 MiB). Returns 0 or a negative errno (-ESRCH: the process is gone). */
int proc_pread(int fd, struct strbuf *sb);

struct machine_counters {
	double t_ms;              /* monotonic time of the reading */
	struct cpu_times cpu;
	unsigned ncpu;
	bool have_cpu;
	struct disk_totals disk;
	bool have_disk;
	struct vmstat vm;         /* have_pswp says whether it was read */
	struct meminfo mem;
	bool have_mem;            /* MemTotal and MemAvailable */
};

struct machine_reader {
	int fd_stat, fd_disk, fd_vm, fd_mem;
	struct strbuf buf;
};

/* Opens the four files; never fails (missing files read as unavailable). */
void machine_open(struct machine_reader *m);
void machine_read(struct machine_reader *m, struct machine_counters *c);
void machine_close(struct machine_reader *m);

#endif
