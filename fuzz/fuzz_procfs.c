/* fuzz_procfs.c: the readers of the kernel's and dpkg's text files, which
 * on a broken machine can hold anything (truncated, binary, one huge
 * line): /proc/self/mountinfo (and the lookups on it, and what is kept of
 * it within a memory budget), /proc/modules,
 * /proc/meminfo, /proc/vmstat, /proc/stat, /proc/PID/stat and io,
 * /proc/diskstats, and dpkg's info/NAME.list files and their names. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/dpkg.h"
#include "parse/kmodules.h"
#include "parse/meminfo.h"
#include "parse/mountinfo.h"
#include "parse/procstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_line(const char *line, size_t n, void *arg)
{
	(void)line;
	*(size_t *)arg += n;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	struct strbuf sb = STRBUF_INIT;

	struct mountinfo mi;
	mountinfo_parse(p, size, &mi);
	for (size_t i = 0; i < mi.n; i++) {
		const struct mount_entry *m = &mi.m[i];
		mountinfo_windows_drive(m, NULL);
		mountinfo_windows_drive(m, "/win/");
		mountinfo_option(m->super_options, "aname", &sb);
		mountinfo_option(m->options, "ro", &sb);
		if (m->mount_point[0] == '/')
			mountinfo_find(&mi, m->mount_point);
	}
	mountinfo_find(&mi, "/home/user/data");
	mountinfo_free(&mi);
	mountinfo_unescape(p, size, &sb);
	/* mountinfo_read's rules, with a budget small enough that inputs of a
	 * few KiB go past it: one entry per mount point, within the budget. */
	for (size_t budget = 12u << 10; budget <= 48u << 10; budget += 36u << 10) {
		mountinfo_parse_bounded(p, size, budget, &mi);
		if (mi.bytes > budget)
			abort();
		for (size_t i = 0; i < mi.n; i++) {
			if (!mountinfo_find(&mi, mi.m[i].mount_point))
				abort();
			for (size_t j = i + 1; j < mi.n; j++)
				if (!strcmp(mi.m[i].mount_point, mi.m[j].mount_point))
					abort();
		}
		mountinfo_free(&mi);
	}

	struct kmodule *mods;
	size_t n, bad;
	kmodules_parse(p, size, &mods, &n, &bad);
	for (size_t i = 0; i < n; i++) {
		kmodule_is_nvidia(mods[i].name);
		kmodule_is_nouveau(mods[i].name);
	}
	free(mods);

	struct meminfo mem;
	meminfo_parse(p, size, &mem);
	meminfo_swap_used(&mem);
	struct vmstat vs;
	vmstat_parse(p, size, &vs);
	unsigned long long v;
	procfile_u64(p, size, "ctxt", &v);

	struct cpu_times ct;
	unsigned ncpu;
	if (procstat_cpu_parse(p, size, &ct, &ncpu) == 0)
		cpu_times_total(&ct);
	struct pid_stat ps;
	procstat_pid_parse(p, size, &ps);
	struct pid_io io;
	procstat_io_parse(p, size, &io);
	struct disk_totals dt;
	procstat_diskstats_parse(p, size, &dt);

	size_t total = 0;
	dpkg_list_each(p, size, count_line, &total);
	dpkg_list_has(p, size, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	dpkg_valid_name(p, size);

	/* String-taking helpers get a NUL-terminated copy. */
	char *s = strndup(p, size < 4096 ? size : 4096);
	if (s) {
		dpkg_list_package(s, &sb);
		procstat_disk_is_virtual(s);
		kmodule_is_nvidia(s);
		free(s);
	}
	sb_release(&sb);
	return 0;
}
