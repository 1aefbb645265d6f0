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

#endif
