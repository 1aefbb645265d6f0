/*
 * consequence: which findings follow from an earlier one. One root cause is
 * one problem with one fix: a check whose failure follows from another's
 * (a check it depends on failed, or its finding names the same root) is
 * marked with that check's id (result.consequence_of), and every view
 * (check, --brief, fix, smoke, report, JSON) shows it under its cause
 * instead of counting it again. The status is left as it is.
 */
#ifndef WSLGPU_FIX_CONSEQUENCE_H
#define WSLGPU_FIX_CONSEQUENCE_H

#include <stddef.h>

#include "../core/result.h"

/* Marks the consequences among results (indexed like the registry, in
 * chain order); a consequence points at its root, never at another
 * consequence. */
void consequences_mark(struct result *results, size_t n);

/* Whether r shows a problem of its own: a failure or warning that is not
 * the consequence of another. */
bool result_is_root_problem(const struct result *r);

#endif
