/*
 * judgeutil.h: what the judge tests (test_judge_*.c) assert of a result a
 * judge filled from a row of facts, failing with the row's name.
 */
#ifndef WSLGPU_JUDGEUTIL_H
#define WSLGPU_JUDGEUTIL_H

#include "testutil.h"

#include "core/result.h"

/* Whether key has the value val among its values (val NULL: any value). */
static inline bool ju_has_ev(const struct result *r, const char *key, const char *val)
{
	const char *v;
	for (size_t k = 0; (v = res_get_nth(r, key, k)); k++)
		if (!val || !strcmp(v, val))
			return true;
	return false;
}

/* r has status st, KB entry kb (NULL: none), a detail containing detail
 * (NULL: any) and, when ev_key is given, the evidence ev_key=ev_val. */
static inline void ju_expect(const char *row, const struct result *r, enum status st,
			     const char *kb, const char *detail, const char *ev_key,
			     const char *ev_val)
{
	const char *d = r->detail ? r->detail : "";
	if (r->status != st)
		fail_msg("%s: status %s, expected %s (%s)", row, status_name(r->status),
			 status_name(st), d);
	if (kb ? !r->kb || strcmp(r->kb, kb) : r->kb != NULL)
		fail_msg("%s: kb %s, expected %s (%s)", row, r->kb ? r->kb : "none",
			 kb ? kb : "none", d);
	if (detail && !strstr(d, detail))
		fail_msg("%s: detail \"%s\" lacks \"%s\"", row, d, detail);
	if (ev_key && !ju_has_ev(r, ev_key, ev_val))
		fail_msg("%s: no evidence %s=%s (first: %s)", row, ev_key, ev_val ? ev_val : "*",
			 res_get(r, ev_key) ? res_get(r, ev_key) : "none");
}

#endif
