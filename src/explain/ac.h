/*
 * ac: an Aho-Corasick automaton over the prefilter keys of every signature,
 * so that one pass over a line finds every key in it, whatever the number
 * of signatures. ASCII case is folded (the patterns are case-insensitive).
 *
 * The automaton is a complete transition table (every state has an edge for
 * every byte class), so the scan is one table load per byte: an entry holds
 * the next state's row offset (state x classes, so no multiply) and, in its
 * top bit, whether a key ends there, so no second load either. Bytes are
 * mapped to classes first: only bytes that occur in some key get their own
 * class, everything else shares class 0, which keeps the table small
 * (states x classes x 4 bytes, about a megabyte for a few hundred keys).
 *
 * For a paste cut off mid-message the automaton also answers "which key
 * does the text end inside, and how far into it": every state knows its
 * depth (the length of the key prefix it stands for), its failure link,
 * and one key, among those the caller marked, that passes through it.
 */
#ifndef WSLGPU_EXPLAIN_AC_H
#define WSLGPU_EXPLAIN_AC_H

#include <stddef.h>
#include <stdint.h>

struct ac_out {
	int32_t key, next; /* next: the state's next output, or -1 */
};

/* The tables are read-only once built: the built-in matcher's are
 * generated at build time (tools/kbgen.c) and live in the binary. */
struct ac {
	unsigned char cls[256];
	int ncls;
	int32_t nstates;
	const uint32_t *next; /* nstates * ncls: row of the next state | AC_OUT */
	const int32_t *own;   /* first own output, index into outs, or -1 */
	const int32_t *dict;  /* nearest proper suffix state with own output, or -1 */
	const struct ac_out *outs;
	const size_t *keylen;
	size_t nkeys;
	const int32_t *fail;  /* longest proper suffix that is a trie state */
	const int32_t *depth; /* length of the prefix a state stands for */
	const int32_t *owner; /* a marked key through this state, or -1 */
};

/* Builds the automaton for keys[0..n) (their lengths in lens; a key is
 * matched case-insensitively). Key i is reported as i. Empty keys are
 * ignored. mark (may be NULL) says which keys may be owners (see above).
 * Returns 0. */
int ac_build(struct ac *ac, const char *const *keys, const size_t *lens, size_t n,
	     const unsigned char *mark);
void ac_free(struct ac *ac);

/* Called for each key occurrence: key index and the position of its last
 * byte relative to base. */
typedef void (*ac_hit_fn)(void *ctx, size_t key, long end);

#define AC_OUT 0x80000000u /* a key ends at the state entered */

/* Runs the automaton from state over s[0..len); returns the final state.
 * Position i of s is reported as base + i. State 0 is the start. */
static inline int32_t ac_feed(const struct ac *ac, int32_t state, const char *s, size_t len,
			      long base, ac_hit_fn hit, void *ctx)
{
	const uint32_t *d = ac->next;
	const unsigned char *cls = ac->cls;
	const uint32_t ncls = (uint32_t)ac->ncls;
	uint32_t row = (uint32_t)state * ncls;
	for (size_t i = 0; i < len; i++) {
		uint32_t t = d[row + cls[(unsigned char)s[i]]];
		row = t & ~AC_OUT;
		if (t & AC_OUT) {
			int32_t st = (int32_t)(row / ncls);
			for (int32_t u = ac->own[st] >= 0 ? st : ac->dict[st]; u >= 0; u = ac->dict[u])
				for (int32_t o = ac->own[u]; o >= 0; o = ac->outs[o].next)
					hit(ctx, (size_t)ac->outs[o].key, base + (long)i);
		}
	}
	return (int32_t)(row / ncls);
}

#endif
