/*
 * literal: the prefilter keys of a POSIX extended regular expression.
 *
 * Running regexec on every line of a 100 MB log is what makes naive log
 * matchers slow. Almost every useful pattern contains plain text that any
 * match must include ("no kernel image is available", "code=35"); if a line
 * contains none of a signature's keys, its regexes cannot match and are not
 * run. This file derives those keys from the regex text itself, so KB
 * authors write natural patterns and the prefilter stays correct by
 * construction.
 *
 * The result is a set S of lower-case strings such that every string the
 * regex matches (case-insensitively) contains at least one member of S.
 * Derivation is conservative: optional atoms (x*, x?, x{0,n}, (..)?) and
 * anything inside brackets contribute nothing; a group contributes the
 * union of its branches; within a sequence the candidate whose shortest
 * member is longest wins. GNU escapes (\b, \w, \<) count as unknown atoms.
 */
#ifndef WSLGPU_EXPLAIN_LITERAL_H
#define WSLGPU_EXPLAIN_LITERAL_H

#include <stddef.h>

#define LITERAL_MIN 3   /* shorter keys would let most lines through */
#define LITERAL_MAX 24  /* members of one set; more means "no usable key" */

struct litset {
	char **v; /* lower-case, NUL-terminated */
	size_t n;
};

/* Fills set with the required literals of re. Returns 0, or -1 when no set
 * of keys of at least LITERAL_MIN bytes can be derived (set is empty). */
int ere_required(const char *re, struct litset *set);
void litset_free(struct litset *set);
/* The same, and when every match must also contain a member of a second,
 * independent set (a pattern without top-level alternatives: "(copy|add)
 * +[^ ]*(libcuda|libnvidia-ml)"), that set in second (else it is empty).
 * A line then needs both before the regex is worth running. edge (may be
 * NULL) gets LIT_LEAD if every match begins with a member of set ("nvcc
 * fatal *:"), LIT_TRAIL if every match ends with one: a match wrapped over
 * two lines then needs the key before, or after, the break. */
#define LIT_LEAD 1
#define LIT_TRAIL 2
int ere_required2(const char *re, struct litset *set, struct litset *second, unsigned *edge);

/* Fills set with the finite list of strings re matches when re is nothing
 * but literal text, groups, alternation and `?` ("cuda_error_no_device|
 * cudaerrornodevice", "docker (daemon socket|api)"): then "the line
 * contains one of them" is exactly "re matches", and no regex needs to
 * run. Returns 0, or -1 (set empty) when re has anything else, expands to
 * more than LITERAL_MAX strings, or one is shorter than LITERAL_MIN. */
int ere_literal_set(const char *re, struct litset *set);

#endif
