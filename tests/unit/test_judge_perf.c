/* test_judge_perf.c: perf.memory's judge, fed from a table of machines
 * (src/probes/perf_judge.h): /proc/meminfo's numbers, the swap counters and
 * their sample, the .wslconfig files as WSL would read them, the online
 * CPUs; nothing is read. Each row is one verdict branch. */
#include "judgeutil.h"

#include "probes/perf_judge.h"

#define GiB (1ull << 30)
#define MiB (1ull << 20)

/* A .wslconfig; text NULL: none. */
struct cfg_row {
	const char *text;
	size_t len;      /* 0: strlen(text) */
	int read_error;
};

struct row {
	const char *name;
	int meminfo_rc;
	unsigned long long total, swap_total, swap_free;
	bool vmstat;
	unsigned long long pswpin;
	bool sampled;
	unsigned long long rate;
	struct cfg_row cfg;
	unsigned cpus;
	/* expected */
	enum status st;
	const char *kb, *detail, *ev_key, *ev_val;
};

/* "[wsl2]\r\nmemory=16GB\r\n" in UTF-16LE with a byte-order mark. */
static const char utf16[] = "\xff\xfe[\0w\0s\0l\0002\0]\0\r\0\n\0m\0e\0m\0o\0r\0y\0=\0"
			    "1\0006\0G\0B\0\r\0\n\0";

static const struct row rows[] = {
	{ "no /proc/meminfo", -ENOENT, 0, 0, 0, false, 0, false, 0, { NULL, 0, 0 }, 0,
	  ST_WARN, "perf.memory.unreadable", "/proc/meminfo: No such file or directory", "file",
	  "/proc/meminfo" },
	{ "/proc/meminfo without MemTotal", -ENODATA, 0, 0, 0, false, 0, false, 0,
	  { NULL, 0, 0 }, 0,
	  ST_WARN, "perf.memory.unreadable", "no MemTotal line", "error", "no MemTotal line" },
	{ "16 GB asked and seen, swap unused", 0, 16 * GiB - 600 * MiB, 4 * GiB, 4 * GiB, true, 0,
	  false, 0, { "[wsl2]\nmemory=16GB\nswap=4GB\n", 0, 0 }, 8,
	  ST_PASS, NULL, "15.4 GiB of memory (.wslconfig memory=16GB), 4.0 GiB of swap, none in use",
	  "wslconfig", "C:\\Users\\alice\\.wslconfig: memory=16GB (line 2), swap=4GB (line 3)" },
	{ "no swap, no .wslconfig", 0, 8 * GiB, 0, 0, true, 0, false, 0, { NULL, 0, 0 }, 4,
	  ST_PASS, NULL, "8.0 GiB of memory, no swap", "config_file",
	  "%UserProfile%\\.wslconfig" },
	{ "a little swap in use, nothing moving", 0, 8 * GiB, 2 * GiB, 2 * GiB - 20 * MiB, true, 3,
	  true, 0, { NULL, 0, 0 }, 4,
	  ST_PASS, NULL, "2.0 GiB of swap, 20 MiB in use", "swapping_now", "0 pages/s" },
	{ "a little swap in use, pages moving now", 0, 8 * GiB, 2 * GiB, 2 * GiB - 20 * MiB, true,
	  3, true, 40, { NULL, 0, 0 }, 4,
	  ST_WARN, "perf.memory.swapping", "20 MiB of swap in use, 40 pages/s moving now",
	  "swapping_now", "40 pages/s" },
	{ "much swap in use, not sampled (fixture)", 0, 8 * GiB, 2 * GiB, 1 * GiB, true, 1234,
	  false, 0, { NULL, 0, 0 }, 4,
	  ST_WARN, "perf.memory.swapping", "1.0 GiB of swap in use (1234 pages swapped in since "
	  "boot)", "pswpin", "1234" },
	{ "small memory", 0, 3 * GiB, 1 * GiB, 1 * GiB, true, 0, false, 0,
	  { "[wsl2]\nmemory=3GB\n", 0, 0 }, 4,
	  ST_WARN, "perf.memory.small", "only 3.0 GiB of memory (.wslconfig memory=3GB): too little",
	  "threshold", "3.5 GiB" },
	{ "small memory, and swapping: the more important first", 0, 3 * GiB, 1 * GiB,
	  512 * MiB, true, 0, false, 0, { NULL, 0, 0 }, 4,
	  ST_WARN, "perf.memory.small", "; also swap in use", "also", NULL },
	{ "memory= not applied", 0, 8 * GiB, 2 * GiB, 2 * GiB, true, 0, false, 0,
	  { "[wsl2]\nmemory=24GB\n", 0, 0 }, 4,
	  ST_WARN, "perf.memory.wslconfig_not_applied",
	  "C:\\Users\\alice\\.wslconfig asks for memory=24GB, but Linux sees 8.0 GiB: not applied",
	  "asked", "memory=24GB (C:\\Users\\alice\\.wslconfig line 2)" },
	{ "swap= not applied", 0, 8 * GiB, 2 * GiB, 2 * GiB, true, 0, false, 0,
	  { "[wsl2]\nswap=8GB\n", 0, 0 }, 4,
	  ST_WARN, "perf.memory.wslconfig_not_applied", "asks for swap=8GB, but Linux sees 2.0 GiB "
	  "of swap", "asked", "swap=8GB (C:\\Users\\alice\\.wslconfig line 2)" },
	{ "processors= not applied", 0, 8 * GiB, 2 * GiB, 2 * GiB, true, 0, false, 0,
	  { "[wsl2]\nprocessors=4\n", 0, 0 }, 16,
	  ST_WARN, "perf.memory.wslconfig_not_applied", "asks for processors=4, but Linux has 16 "
	  "CPUs", "cpus", "16 online" },
	{ "a mistake WSL skips", 0, 8 * GiB, 2 * GiB, 2 * GiB, true, 0, false, 0,
	  { "[wsl2]\nmemmory=16GB\nswap=lots\n", 0, 0 }, 4,
	  ST_WARN, "perf.memory.wslconfig_invalid", "C:\\Users\\alice\\.wslconfig:2: ", "problem",
	  NULL },
	{ "a file that cannot be read", 0, 8 * GiB, 2 * GiB, 2 * GiB, true, 0, false, 0,
	  { "", 0, -EACCES }, 4,
	  ST_WARN, "perf.memory.wslconfig_invalid", "cannot be read: Permission denied",
	  "wslconfig", "C:\\Users\\alice\\.wslconfig: unreadable (Permission denied)" },
	{ "UTF-16 that this WSL read", 0, 16 * GiB - 600 * MiB, 2 * GiB, 2 * GiB, true, 0, false,
	  0, { utf16, sizeof utf16 - 1, 0 }, 4,
	  ST_WARN, "perf.memory.wslconfig_encoding", "is saved as UTF-16LE with a byte-order mark: "
	  "WSL may ignore it (it asks for memory=16GB; Linux sees 15.4 GiB: this WSL read it)",
	  "applied", "yes: the memory Linux sees matches the file" },
	{ "UTF-16 that was ignored", 0, 8 * GiB, 2 * GiB, 2 * GiB, true, 0, false, 0,
	  { utf16, sizeof utf16 - 1, 0 }, 4,
	  ST_WARN, "perf.memory.wslconfig_encoding", ": it was ignored)", "encoding_file",
	  "/mnt/c/Users/alice/.wslconfig" },
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *w = &rows[i];
		struct config_file cfg;
		memset(&cfg, 0, sizeof cfg);
		struct memory_facts f = {
			.wsl = true,
			.meminfo_rc = w->meminfo_rc,
			.have_vmstat = w->vmstat,
			.sampled = w->sampled,
			.rate = w->rate,
			.cpus = w->cpus,
		};
		f.mi.mem_total = w->total;
		f.mi.mem_available = w->total / 2;
		f.mi.swap_total = w->swap_total;
		f.mi.swap_free = w->swap_free;
		f.mi.have = MI_MEM_TOTAL | MI_MEM_AVAILABLE | MI_SWAP_TOTAL | MI_SWAP_FREE;
		f.vs.pswpin = w->pswpin;
		f.vs.have_pswp = w->vmstat;
		if (w->cfg.text) {
			cfg.guest = "/mnt/c/Users/alice/.wslconfig";
			cfg.windows = "C:\\Users\\alice\\.wslconfig";
			cfg.read_error = w->cfg.read_error;
			size_t len = w->cfg.len ? w->cfg.len : strlen(w->cfg.text);
			wslconfig_check(cfg.read_error ? NULL : w->cfg.text, cfg.read_error ? 0 : len,
					&cfg.wc);
			f.cfg = &cfg;
			f.ncfg = 1;
		}
		struct result r;
		result_init(&r, NULL);
		judge_memory(&f, &r);
		ju_expect(w->name, &r, w->st, w->kb, w->detail, w->ev_key, w->ev_val);
		result_release(&r);
		wslconfig_free(&cfg.wc);
	}
}

/* The swap sample runs only with swap in use. */
static void test_sample_useful(void **state)
{
	(void)state;
	struct meminfo mi = { .swap_total = 0, .swap_free = 0, .have = MI_SWAP_TOTAL | MI_SWAP_FREE };
	assert_false(memory_swap_sample_useful(&mi));
	mi.swap_total = mi.swap_free = 4 * GiB;
	assert_false(memory_swap_sample_useful(&mi));
	mi.swap_free -= MiB;
	assert_true(memory_swap_sample_useful(&mi));
	mi.have = 0; /* SwapTotal unknown */
	assert_false(memory_swap_sample_useful(&mi));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_sample_useful),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
