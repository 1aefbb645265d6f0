/*
 * ac: an Aho-Corasick automaton over the prefilter keys of every signature,
 * so that one pass over a line finds every key in it, whatever the number
 * of signatures. ASCII case is folded (the patterns are case-insensitive).
 *
 * The automaton is a complete transition table (every state has an edge for
 * every byte class), so the scan is one table load per byte. Bytes are
 * mapped to classes first: only bytes that occur in some key get their own
 * class, everything else shares class 0, which keeps the table small
 * (states x classes x 4 bytes, about a megabyte for a few hundred keys).
 */
#ifndef WSLGPU_EXPLAIN_AC_H
#define WSLGPU_EXPLAIN_AC_H

#include <stddef.h>
#include <stdint.h>

struct ac {
	unsigned char cls[256];
	int ncls;
	int32_t nstates;
	int32_t *delta;       /* nstates * ncls */
	unsigned char *out;   /* nonzero if a key ends here (or at a suffix) */
	int32_t *own;         /* first own output, index into outs, or -1 */
	int32_t *dict;        /* nearest proper suffix state with own output, or -1 */
	struct { int32_t key, next; } *outs;
	size_t *keylen;
	size_t nkeys;
};

/* Builds the automaton for keys[0..n) (their lengths in lens; a key is
 * matched case-insensitively). Key i is reported as i. Empty keys are
 * ignored. Returns 0. */
int ac_build(struct ac *ac, const char *const *keys, const size_t *lens, size_t n);
void ac_free(struct ac *ac);

/* Called for each key occurrence: key index and the position of its last
 * byte relative to base. */
typedef void (*ac_hit_fn)(void *ctx, size_t key, long end);

/* Runs the automaton from state over s[0..len); returns the final state.
 * Position i of s is reported as base + i. State 0 is the start. */
static inline int32_t ac_feed(const struct ac *ac, int32_t state, const char *s, size_t len,
			      long base, ac_hit_fn hit, void *ctx)
{
	const int32_t *d = ac->delta;
	const unsigned char *cls = ac->cls;
	const int ncls = ac->ncls;
	for (size_t i = 0; i < len; i++) {
		state = d[(size_t)state * (size_t)ncls + cls[(unsigned char)s[i]]];
		if (ac->out[state]) {
			for (int32_t t = ac->own[state] >= 0 ? state : ac->dict[state]; t >= 0;
			     t = ac->dict[t])
				for (int32_t o = ac->own[t]; o >= 0; o = ac->outs[o].next)
					hit(ctx, (size_t)ac->outs[o].key, base + (long)i);
		}
	}
	return state;
}

#endif
