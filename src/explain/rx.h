/*
 * rx: a small POSIX extended regular expression engine for the signature
 * matcher, run as a lazily built DFA.
 *
 * glibc's regexec costs about a microsecond of set-up per call before it
 * reads a byte; on a log where every line is a known error that was more
 * than half of explain's time. The KB's patterns are simple (literals,
 * brackets, groups, alternation, * + ? {m,n}, ^ and $), and a signature only
 * needs "does this line contain a match", so a DFA answers with one table
 * load per byte and no allocation once its states are built.
 *
 * Semantics are regexec's with REG_EXTENDED | REG_ICASE | REG_NOSUB in the C
 * locale (bytes, ASCII case folded on both sides): ^ holds at the start of
 * the text, $ at its end, both zero-width. What this engine does not
 * implement it refuses at compile time (rx_compile returns -1) and the
 * caller keeps using regexec for that pattern: GNU escapes (\w \b \< \1),
 * a quantifier with nothing to repeat, an unmatched ')', upper-case letters
 * or [:upper:]/[:lower:] inside brackets (whose case folding glibc treats
 * its own way), collating elements longer than one byte, bounds above 255
 * and patterns that expand to more than RX_MAX_NFA states. The unit test
 * and the fuzz target compare it with regexec.
 *
 * DFA states are built on first use and kept, RX_MAX_DFA at most per
 * pattern; a pattern that needs more answers -1 from rx_search from then on
 * (the caller falls back to regexec), so memory stays bounded whatever the
 * input.
 */
#ifndef WSLGPU_EXPLAIN_RX_H
#define WSLGPU_EXPLAIN_RX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RX_MAX_NFA 4096
#define RX_MAX_DFA 512

struct rx_nfa;
struct rx_dfa;

struct rx {
	struct rx_nfa *nfa;
	struct rx_dfa *dfa;
	bool overflow;    /* the DFA outgrew RX_MAX_DFA: rx_search answers -1 */
	const char *lazy; /* rx_defer: compiled on first use (not owned) */
};

/* Compiles re (POSIX ERE, matched case-insensitively). Returns 0, or -1
 * when the pattern uses something this engine leaves to regexec (rx is
 * then empty and rx_search answers -1). */
int rx_compile(struct rx *rx, const char *re);
/* The same on first use: a matcher with hundreds of patterns starts
 * without compiling those the input never asks about. re is kept, not
 * copied: it must live as long as rx (the matcher's tables, generated at
 * build time, set lazy to their own copy). */
void rx_defer(struct rx *rx, const char *re);
/* 1 if s[0..len) contains a match, 0 if not, -1 if this pattern must be
 * run with regexec instead. The DFA cache inside rx grows (rx is not
 * const); one scan at a time per rx. */
int rx_search(struct rx *rx, const char *s, size_t len);
void rx_free(struct rx *rx);

/*
 * The same search in pieces, for text that arrives line by line (a wrapped
 * message): a state stands for everything read so far. RX_START is the
 * state before the first byte. rx_feed reads s[0..len) from *state and
 * returns 1 as soon as a match ends inside, 0 when none did (then *state
 * is the state after the last byte), -1 when regexec must be used. After
 * the last piece, rx_at_end says whether a match ends there ($). rx_idle
 * says that no match is under way in a state: then whatever follows can
 * only match on its own, as if the text had started there.
 */
#define RX_START (-2)
/* Like RX_START, but in the middle of a text (^ does not hold): a search
 * that skips a part known not to matter. */
#define RX_MID (-3)
int rx_feed(struct rx *rx, int32_t *state, const char *s, size_t len);
bool rx_at_end(struct rx *rx, int32_t state);
bool rx_idle(struct rx *rx, int32_t state);

#endif
