/*
 * policy_judge.h: the decision of policy.memory, apart from reading
 * /proc/meminfo (src/probes/policy.c): the policy's [memory] minimums
 * against the machine's memory, with no I/O, so a unit test can judge it
 * from a table (tests/unit/test_judge_policy.c).
 */
#ifndef WSLGPU_POLICY_JUDGE_H
#define WSLGPU_POLICY_JUDGE_H

#include "../core/result.h"
#include "../parse/meminfo.h"
#include "../parse/policy.h"

/* meminfo_rc: meminfo_read's answer (0, or -errno; -ENODATA: no MemTotal),
 * mi what it read. The policy sets at least one minimum. */
void judge_policy_memory(const struct policy *p, int meminfo_rc, const struct meminfo *mi,
			 struct result *r);

#endif
