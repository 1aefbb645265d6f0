/* test_judge_policy.c: policy.memory's judge, fed from a table (src/probes/
 * policy_judge.h): the policy's [memory] minimums and what /proc/meminfo
 * said; nothing is read. Each row is one verdict branch. */
#include "judgeutil.h"

#include "probes/policy_judge.h"

#define GiB (1ull << 30)

struct row {
	const char *name;
	unsigned long long min_total, min_available; /* 0: not set */
	int meminfo_rc;
	unsigned long long total, available;         /* available 0: no MemAvailable line */
	/* expected */
	enum status st;
	const char *kb, *detail, *ev_key, *ev_val;
};

static const struct row rows[] = {
	{ "/proc/meminfo unreadable", 16 * GiB, 0, -EACCES, 0, 0,
	  ST_WARN, "policy.memory.unreadable", "cannot be read (Permission denied)", "file",
	  "/proc/meminfo" },
	{ "no MemTotal", 16 * GiB, 0, -ENODATA, 0, 0,
	  ST_WARN, "policy.memory.unreadable", "(no MemTotal line)", NULL, NULL },
	{ "less memory than the minimum", 16 * GiB, 0, 0, 8 * GiB, 6 * GiB,
	  ST_FAIL, "policy.memory.low", "8.0 GiB of memory in all, less than the policy minimum "
	  "16G (16.0 GiB)", "policy", "fleet.ini:3: [memory] min_total 16G" },
	{ "enough memory", 8 * GiB, 0, 0, 16 * GiB, 12 * GiB,
	  ST_PASS, NULL, "16.0 GiB of memory (minimum 8G)", "policy_minimum", "8G" },
	{ "too little available", 0, 8 * GiB, 0, 16 * GiB, 4 * GiB,
	  ST_FAIL, "policy.memory.low", "4.0 GiB of memory available, less than the policy "
	  "minimum 8G", "mem_available", "4.0 GiB" },
	{ "enough available", 0, 8 * GiB, 0, 16 * GiB, 12 * GiB,
	  ST_PASS, NULL, "12.0 GiB available (minimum 8G)", "policy",
	  "fleet.ini:4: [memory] min_available 8G" },
	{ "no MemAvailable line", 0, 8 * GiB, 0, 16 * GiB, 0,
	  ST_WARN, "policy.memory.unreadable", "no MemAvailable line", "mem_total", "16.0 GiB" },
	{ "both: total fine, available short", 8 * GiB, 8 * GiB, 0, 16 * GiB, 4 * GiB,
	  ST_FAIL, "policy.memory.low", "available, less than", "also", NULL },
};

static void size_of(struct policy_size *ps, unsigned long long bytes, char *text, int line)
{
	ps->set = bytes != 0;
	ps->bytes = bytes;
	snprintf(text, 16, "%lluG", bytes / GiB);
	ps->text = text;
	ps->line = line;
}

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *w = &rows[i];
		struct policy p;
		char total_text[16], avail_text[16];
		memset(&p, 0, sizeof p);
		p.path = "fleet.ini";
		size_of(&p.mem_min_total, w->min_total, total_text, 3);
		size_of(&p.mem_min_available, w->min_available, avail_text, 4);
		struct meminfo mi = { .mem_total = w->total, .mem_available = w->available,
				      .have = MI_MEM_TOTAL | (w->available ? MI_MEM_AVAILABLE : 0) };
		struct result r;
		result_init(&r, NULL);
		judge_policy_memory(&p, w->meminfo_rc, &mi, &r);
		ju_expect(w->name, &r, w->st, w->kb, w->detail, w->ev_key, w->ev_val);
		result_release(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
