/* perf.c: memory, swap and .wslconfig; where the data lives (9p vs ext4). */
#include "probes.h"

const struct check_def perf_checks[] = {
	{ "perf.memory", "perf", "Memory and swap", "MemTotal, swap in use, and .wslconfig memory/swap/processors", { "platform.kind" }, NULL },
	{ "perf.storage", "perf", "Where the data lives", "file system of the current directory and of each --data path", { "platform.kind" }, NULL },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL },
};
