/*
 * matcher: recognises knowledge-base signatures in a stream of text. The
 * one signature matcher of the tool: `wslgpu explain` reads logs with it,
 * and the probes classify what a framework or docker printed with
 * explain_best().
 *
 * A signature is any KB entry with `match:` lines (literal text, or text
 * with classes such as {ver}, {path} or {cuda:100}: pattern.h) or `regex:`
 * lines (POSIX ERE), all case-insensitive. Entries of kind `signature` name
 * their causes in `see:`, most likely first; an entry of another kind
 * (finding, noise, myth) that has patterns is its own first cause. A `see:`
 * target that is itself a `kind: signature` entry is not a cause: it means
 * "this signature is a more precise reading of that one", and where both
 * match the same line only the precise one is reported (the pinned-memory
 * OOM over the generic CUDA OOM, say).
 *
 * The scan is one pass with bounded memory, for logs of any size:
 *   - input is split into lines; a line longer than EXPLAIN_LINE_MAX is
 *     matched on its first EXPLAIN_LINE_MAX bytes and counted as clipped;
 *     the rest of it is matched piece by piece, split at each carriage
 *     return (each piece, like a line, on its first EXPLAIN_LINE_MAX
 *     bytes), on the same line number: a progress bar redrawn with CR
 *     thousands of times is one line, and an error printed on it after
 *     64 KiB is still found;
 *   - each line is normalised (normalize.h) and run through one
 *     Aho-Corasick automaton (ac.h) holding every signature's keys: the
 *     literals of `match:` lines, the literal sets that some regexes are
 *     exactly (literal.h: no regex runs for those), the prefilter keys of
 *     the other regexes, error-code names, and the words that say "GPU" and
 *     "error"; a regex runs (rx.h, regexec for what rx leaves to it) only
 *     for a signature whose key occurs on the line;
 *   - a message wrapped over up to EXPLAIN_WRAP lines is matched on the
 *     joined lines: the automaton's state carries over the line breaks, so
 *     a key split by a wrap is still found, and a signature that did not
 *     match on one line alone is tried on the lines before it joined. Lines
 *     join with one blank, or with none where the line before was cut by a
 *     terminal in the middle of a word (it is as wide as a terminal: 80 or
 *     120 columns, or the width two equally long lines of 40 or more showed);
 *   - a paste cut off inside a message (at the end of the input, or at a
 *     trailing "..." or "…") matches the signature whose
 *     `match:` literal it ends inside, once at least EXPLAIN_CUT_MIN bytes
 *     and half of the literal are there; such occurrences are marked cut;
 *     so does a status code's name cut there ("cudaErrorNoDevic"), once
 *     EXPLAIN_CUT_CODE bytes and half the name are there and they begin
 *     one code's names only;
 *   - the source lines a Python traceback echoes (`raise X("...")` under
 *     `File "...", line N`) are skipped, so the exception line is the one
 *     reported;
 *   - a message read before (from the same automaton state) is not read
 *     again: its automaton hits, its regexes' results and its error codes
 *     are replayed from a bounded memo (struct explain_memo_line), which is
 *     what an error-dense log, the same messages with new timestamps, costs;
 *   - occurrences of one signature are grouped: a count, the first and last
 *     line, and the text of the first EXPLAIN_SAMPLES occurrences;
 *   - lines that nothing recognised but that carry an error word and a GPU
 *     word ("failed", "cannot", "exception"... with "cuda", "nvml", "dxg",
 *     "libcu"...) are counted and the first EXPLAIN_UNKNOWN_KEEP distinct
 *     ones kept, so that explain can say what it did not recognise.
 */
#ifndef WSLGPU_EXPLAIN_MATCHER_H
#define WSLGPU_EXPLAIN_MATCHER_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/strbuf.h"
#include "../kb/kb.h"
#include "ac.h"
#include "normalize.h"
#include "rx.h"

#define EXPLAIN_LINE_MAX (64u << 10)
#define EXPLAIN_SAMPLES 8
#define EXPLAIN_SAMPLE_TEXT 512
#define EXPLAIN_WRAP 4
#define EXPLAIN_CUT_MIN 20
#define EXPLAIN_CUT_CODE 12
#define EXPLAIN_UNKNOWN_KEEP 50
/* The message memo (struct explain_memo_line): slots, longest message and
 * most automaton hits kept per message (a key counts once in a message:
 * its first hit), regex results and codes kept per message, and the lines
 * read before it is used (a paste of a few lines never allocates it). At
 * most about 32 MB whatever the input; a message past a limit is matched
 * as if new (a line full of common words holds over a hundred keys and
 * runs dozens of regexes: with 128 hits and 32 results kept, such lines
 * were never replayed, and regexes read 86 MB per 100 MB of an
 * error-dense log; with these limits, 20 MB). */
#define EXPLAIN_MEMO_SLOTS 4096
#define EXPLAIN_MEMO_TEXT 512
#define EXPLAIN_MEMO_EVENTS 256
#define EXPLAIN_MEMO_RESULTS 256
#define EXPLAIN_MEMO_CODES 32
#define EXPLAIN_MEMO_AFTER 64

/* One regular expression of a signature: a `regex:` line, or a `match:`
 * line with classes. rx is the fast engine; re is regcomp's, used where rx
 * declines (rx.nfa NULL, or rx_search answers -1). Both are compiled from
 * src on first use in the built-in matcher (its tables are generated at
 * build time, where every pattern was compiled once to check it). */
struct explain_re {
	const char *src;    /* the ERE */
	regex_t re;         /* valid once compiled is set */
	struct rx rx;
	size_t id;          /* index among all the matcher's regexes */
	unsigned char edge; /* LIT_LEAD: every match begins with a key (literal.h) */
	bool compiled;      /* re holds regcomp's result */
};

struct explain_sig {
	const struct kb_entry *e;
	const char *kind;              /* finding, noise or myth */
	const struct kb_entry **cause; /* most likely first */
	size_t ncause;
	size_t *refines;               /* signatures this one is a precise reading of */
	size_t nrefines;
	size_t *refined_by;            /* ...and the other way round */
	size_t nrefined_by;
	struct explain_re *re;
	size_t nre;
	bool always;                   /* a regex without a prefilter key: tried on every line */
	bool and;                      /* its regexes need an EK_RE2 key on the line too */
	bool context;                  /* counts only where an EK_WORD key of it was seen
					  (KB context:), anywhere in the input */
	unsigned char edge;            /* LIT_LEAD/LIT_TRAIL that all its regexes share */
	size_t keymax;                 /* its longest regex key */
};

enum explain_key_kind {
	EK_LIT,  /* a literal: finding it is the match (arg: signature) */
	EK_RE,   /* a regex's prefilter key (arg: signature) */
	EK_RE2,  /* a key of the second set a regex also needs (arg: signature) */
	EK_CODE, /* an error code's name, as a whole word (arg: code) */
	EK_CTX,  /* a word that names a code family (arg: family) */
	EK_ERR,  /* an error word, for the unrecognised lines */
	EK_GPU,  /* a GPU word, for the unrecognised lines */
	EK_WORD, /* a context: word of a signature, anywhere in the input (arg: signature) */
	EK_VENDOR, /* a word of another GPU vendor's stack (arg 0) or NVIDIA's own (arg 1) */
};

struct explain_key {
	unsigned char kind;
	size_t arg;
	char *text;   /* lower case */
	size_t same;  /* EK_LIT: the next literal key with this text, or itself */
};

struct explain_codesig {
	int code;
	size_t sig;
};

struct explain_db {
	struct explain_sig *sig;
	size_t n;
	size_t *byid;                    /* signatures in strcmp order of their ids */
	struct explain_key *key;
	size_t nkeys;
	size_t *always;
	size_t nalways;
	size_t nre;                      /* regexes, all signatures together */
	struct explain_codesig *codesig; /* `match: {cuda:100}` lines, by code */
	size_t ncodesig;
	unsigned code_families;          /* bit per family that codesig names */
	struct ac ac;
};

/* Builds the matcher from every entry of kbs[0..nkb) that has patterns, in
 * that order (the KB order explain_best relies on). Returns 0, or -1 with
 * "file:line: entry-id: message" in err (a pattern that does not compile,
 * an unknown class or code, an id given twice). */
int explain_db_build(struct explain_db *db, const struct kb *const *kbs, size_t nkb,
		     struct strbuf *err);
void explain_db_free(struct explain_db *db);
/* The matcher over the built-in KB: explain_db_build's result, computed at
 * build time (tools/kbgen.c) and compiled into the binary as tables. */
const struct explain_db *explain_db_builtin(void);
/* How general a signature's reading is: 0 a specific message, 1 a family
 * (KB `family:`), 2 a generic wrapper (`family: wrapper`). A match of a
 * lower tier leads the answer and wins a line both read. */
int explain_sig_tier(const struct explain_sig *sig);
/* Index of the signature with this entry id (a binary search), or -1. */
int explain_db_find(const struct explain_db *db, const char *id);

/*
 * The entry, among those whose id starts with prefix, that text[0..len)
 * (any bytes) shows, or NULL: what the probes ask of a framework's or
 * docker's output. Precedence, where several match: an entry that refines
 * another (see above) wins over it; otherwise the first in KB order. A .kb
 * file therefore lists its specific entries before the general ones, and
 * tests/unit/test_explain.c checks that no entry's literal is shadowed by
 * an earlier one.
 */
const struct kb_entry *explain_best(const struct explain_db *db, const char *prefix,
				    const char *text, size_t len);

struct explain_occ {
	unsigned long line; /* first line of the occurrence (1-based) */
	unsigned lines;     /* how many lines it spans (1, or more when wrapped) */
	bool wrapped;       /* the message continued on the next line(s) */
	bool cut;           /* the text ends inside the message */
	char *text;         /* cleaned line(s), clipped to EXPLAIN_SAMPLE_TEXT */
};

struct explain_match {
	size_t sig;
	unsigned long count, first_line, last_line;
	struct explain_occ occ[EXPLAIN_SAMPLES];
	size_t nocc;
	unsigned long order; /* of first appearance */
	unsigned char tier;  /* explain_sig_tier of its signature */
};

/* A line that looks like a GPU-chain error and that nothing recognised. */
struct explain_unknown {
	unsigned long line;  /* first time this text was seen */
	unsigned long count; /* times it was seen */
	char *text;          /* the cleaned line, clipped to EXPLAIN_SAMPLE_TEXT */
	char *msg;           /* private: the message part, for de-duplication */
};

struct explain_stats {
	unsigned long long bytes;
	unsigned long lines;
	unsigned long clipped;      /* lines longer than EXPLAIN_LINE_MAX */
	unsigned long long nul_bytes;
	unsigned long long bad_utf8;
	bool utf16;                 /* the reader decoded UTF-16 input to UTF-8 */
	unsigned long unknown;      /* GPU-looking error lines nothing recognised */
	unsigned long recognised;   /* lines some signature covers */
	unsigned long replayed;     /* lines read back from the message memo */
};

/* Where a regex's DFA stood after lines from..upto (private). */
struct explain_memo {
	unsigned long from, upto;
	int32_t state;
};

/* A message seen before, with what matching it alone found (private to
 * matcher.c): an error-dense log repeats a few messages with different
 * timestamps, and each of these results is a function of the message's
 * bytes (and of the automaton's state before it) alone, so a repeat
 * replays them instead of running the automaton, the regexes and the
 * error-code reader again. */
struct explain_memo_ev {
	uint32_t key; /* an automaton hit, as on_hit gets it */
	int32_t end;
};
struct explain_memo_re {
	uint32_t id, at; /* regex, and where in the message it ran from: an
			    offset, or for a window the DFA state it went on from */
	int32_t state;   /* its DFA state at the end, when memo is set */
	bool hit, memo;
	bool window;     /* read on from the lines before, not alone */
};
struct explain_memo_line {
	char *msg;      /* NULL: an empty slot */
	size_t len;
	int32_t from, to; /* automaton state before and after the message */
	struct explain_memo_ev *ev; /* the hits whose effect depends on order or place */
	size_t nev;
	uint32_t *sets;   /* the rest, each a set's member: nre2 signatures whose second
			     key the line has, then nword whose context word */
	size_t nre2, nword;
	unsigned bits;    /* and the line's words' bits (LB_*, code families) */
	struct explain_memo_re *re;
	size_t nre, are;
	size_t re_next;   /* where the next lookup looks first: a replay asks in
			     the order the first reading added them */
	int *codes;       /* codes_numbers' answer for code_mask */
	size_t ncodes;
	unsigned code_mask;
	bool codes_known;
	unsigned long used; /* the last line that read it */
	unsigned long gen;  /* which filling of the slot this is (memo_add's count) */
};

/* One line of the wrap window (private to matcher.c). */
struct explain_slot {
	char *buf;
	struct norm_line nl;
	unsigned long line;
	unsigned char *flags; /* per signature: which keys were found */
	size_t *cand;         /* signatures with flags set */
	size_t ncand;
	size_t *wcand;        /* ...of those, the ones a window may still match:
				 a regex's key, or a literal spanning the break */
	size_t nwcand;
	unsigned bits;        /* error/GPU words and code families seen */
	size_t cols;          /* characters of the raw line */
	bool lead_blank, trail_blank;
	bool space;           /* joined to the line before with a blank */
	bool suspect;         /* GPU-looking error, nothing recognised yet */
	bool hit;             /* some signature covers the line */
	struct explain_memo_line *lm; /* the line's memo entry, while its gen is lm_gen */
	unsigned long lm_gen;
};

struct explain_scan {
	const struct explain_db *db;
	struct explain_stats st;
	/* after explain_scan_finish: the signatures seen, in order of appearance */
	struct explain_match **found;
	size_t nfound;
	/* ...and the unrecognised GPU-looking lines, in order of appearance */
	struct explain_unknown unk[EXPLAIN_UNKNOWN_KEEP];
	size_t nunk;

	/* private */
	const unsigned char *only; /* if set: the signatures looked for */
	bool in_context;           /* the text is known to be the GPU chain's: context: words are not needed */
	void *block;               /* the arrays below, from m to the slots' wcand, in one */
	struct explain_match *m;   /* per signature */
	unsigned long *last;       /* last line covered by a match, per signature */
	unsigned long *refined_last; /* the greatest `last` of the signatures that refine it */
	unsigned long *stamp;      /* matched on the current line alone */
	unsigned char *ctxseen;    /* per signature: one of its context: words was seen */
	unsigned long *stamp2;     /* de-duplicates window candidates */
	unsigned long *span;       /* first line of a literal that spans into this line */
	size_t *kpos;              /* where a regex key first starts on the last line */
	unsigned long *re2;        /* last line a key of a regex's second set was on */
	size_t *hits, *from;
	struct explain_memo *alone, *win; /* per regex: the last line alone, the last window */
	int codes[64];             /* codes named on the current line */
	size_t ncodes;
	struct explain_slot slot[EXPLAIN_WRAP];
	int cur;                   /* slot of the last line */
	int chain;                 /* joinable lines in the window, the last one included */
	int32_t state;             /* automaton state after the last line */
	size_t width;              /* terminal width seen, 0 if none */
	bool prev_frame;
	char *raise;               /* a traceback's `raise X("text")` source line, held:
				      read where no exception line follows it */
	size_t raiselen;
	unsigned long raise_line;
	bool replay;               /* reading the held line: not an echo */
	const char *cmsg;          /* the last line's message, and how much of it was fed */
	size_t cmlen, cfeed;
	size_t joff[EXPLAIN_WRAP + 1];
	char *raw;
	size_t rawlen;
	char *tail;                /* the piece of a clipped line being read (since its
				      last CR), allocated at the first clipped line */
	size_t taillen;
	bool piece_cut;            /* the piece being read was cut: dropped to its CR */
	bool clipped, partial, finished;
	char *joined;
	unsigned long norder;
	struct explain_memo_line *lmemo; /* hash table of messages, allocated
					    when a long input first needs it */
	uint64_t *lhash;                 /* lmemo's hashes, looked at first */
	uint64_t *lseen;                 /* hashes of messages seen once */
	struct explain_memo_line *lcur;  /* the current line's entry, or NULL */
	struct explain_memo_ev *rec;     /* automaton hits of the line being read */
	size_t nrec;
	uint32_t *rec_set;               /* memo_add's room: second keys, then context words */
	unsigned long *rec_walk;         /* per key: the recorded walk it last hit in */
	unsigned long walk;              /* recorded walks so far */
	unsigned long memo_gen;          /* memo entries filled so far */
	bool rec_over;                   /* more than EXPLAIN_MEMO_EVENTS */
	bool no_memo;                    /* tests: never replay (same results, slower) */
};

void explain_scan_init(struct explain_scan *s, const struct explain_db *db);
/* Feeds any chunk of input; lines may span chunks. */
void explain_scan_feed(struct explain_scan *s, const char *buf, size_t len);
/* Ends the input (a last line without newline counts) and sorts the matches. */
void explain_scan_finish(struct explain_scan *s);
void explain_scan_release(struct explain_scan *s);

/* Everything a finished scan found, one fact a line (the matches with
 * their occurrences, the unrecognised lines, the counts): for tests and
 * the fuzz target, which compare scans that must agree. */
void explain_scan_dump(const struct explain_scan *s, struct strbuf *out);

/* The match of signature id after finish, or NULL (for tests and --check). */
const struct explain_match *explain_scan_get(const struct explain_scan *s, const char *id);

#endif
