/*
 * ac: an Aho-Corasick automaton over the prefilter keys of every signature,
 * so that one pass over a line finds every key in it, whatever the number
 * of signatures. ASCII case is folded (the patterns are case-insensitive).
 *
 * The automaton is a table of transitions over byte classes: only bytes
 * that occur in some key get their own class, everything else shares class
 * 0. The states near the root, which every line's bytes pass through, have
 * complete rows (an edge for every class), so the scan there is one table
 * load per byte; an entry holds the next state and, in its top bit, whether
 * a key ends there. The deeper states, most of them (a key's tail), keep
 * only their trie edges and fall back along their failure links to a
 * complete row: a complete table for all would be states x classes x 4
 * bytes, about 20 MB for a few thousand keys, and every byte of an error
 * line a cache miss in it.
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
	int32_t ndense;          /* states 0..ndense-1 have complete rows */
	const uint32_t *next;    /* ndense * ncls: the next state | AC_OUT */
	const uint32_t *edge_at; /* state ndense + i's trie edges: edge[edge_at[i]..edge_at[i+1]) */
	const uint32_t *edge;    /* the next state | class << AC_EDGE_SHIFT | AC_OUT */
	uint32_t nedges;
	const int32_t *own;   /* first own output, index into outs, or -1 */
	const int32_t *dict;  /* nearest proper suffix state with own output, or -1 */
	const struct ac_out *outs;
	const size_t *keylen;
	size_t nkeys;
	const int32_t *fail;  /* longest proper suffix that is a trie state */
	const int32_t *depth; /* length of the prefix a state stands for */
	const int32_t *owner; /* a marked key through this state, or -1 */
};

/* How many states get complete rows: a few hundred kilobytes of table,
 * which stays in the cache. */
#define AC_DENSE_STATES 1024

/* Builds the automaton for keys[0..n) (their lengths in lens; a key is
 * matched case-insensitively). Key i is reported as i. Empty keys are
 * ignored. mark (may be NULL) says which keys may be owners (see above).
 * Returns 0. */
int ac_build(struct ac *ac, const char *const *keys, const size_t *lens, size_t n,
	     const unsigned char *mark);
/* The same with at most max_dense (at least 1) complete rows: the scan
 * finds the same whatever the number (the tests compare them). */
int ac_build_dense(struct ac *ac, const char *const *keys, const size_t *lens, size_t n,
		   const unsigned char *mark, int32_t max_dense);
void ac_free(struct ac *ac);

/* Called for each key occurrence: key index and the position of its last
 * byte relative to base. */
typedef void (*ac_hit_fn)(void *ctx, size_t key, long end);

#define AC_OUT 0x80000000u /* a key ends at the state entered */
#define AC_EDGE_SHIFT 23
#define AC_EDGE_TO ((1u << AC_EDGE_SHIFT) - 1) /* the state of an edge */

/* The transition from state st on byte class c: the next state | AC_OUT. */
static inline uint32_t ac_next(const struct ac *ac, uint32_t st, uint32_t c)
{
	const uint32_t nd = (uint32_t)ac->ndense;
	while (st >= nd) {
		const uint32_t *e = ac->edge + ac->edge_at[st - nd];
		const uint32_t *end = ac->edge + ac->edge_at[st - nd + 1];
		for (; e < end; e++)
			if ((*e >> AC_EDGE_SHIFT & 0xffu) == c)
				return (*e & AC_EDGE_TO) | (*e & AC_OUT);
		st = (uint32_t)ac->fail[st];
	}
	return ac->next[st * (uint32_t)ac->ncls + c];
}

/* Runs the automaton from state over s[0..len); returns the final state.
 * Position i of s is reported as base + i. State 0 is the start. */
static inline int32_t ac_feed(const struct ac *ac, int32_t state, const char *s, size_t len,
			      long base, ac_hit_fn hit, void *ctx)
{
	const unsigned char *cls = ac->cls;
	uint32_t st = (uint32_t)state;
	for (size_t i = 0; i < len; i++) {
		uint32_t t = ac_next(ac, st, cls[(unsigned char)s[i]]);
		st = t & ~AC_OUT;
		if (t & AC_OUT) {
			for (int32_t u = ac->own[st] >= 0 ? (int32_t)st : ac->dict[st]; u >= 0;
			     u = ac->dict[u])
				for (int32_t o = ac->own[u]; o >= 0; o = ac->outs[o].next)
					hit(ctx, (size_t)ac->outs[o].key, base + (long)i);
		}
	}
	return (int32_t)st;
}

#endif
