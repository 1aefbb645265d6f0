/*
 * matcher: recognises knowledge-base signatures in a stream of text.
 *
 * A signature is any KB entry with `match:` (literal) or `regex:` (POSIX
 * ERE) lines, both case-insensitive. Entries of kind `signature` name their
 * causes in `see:`, most likely first; an entry of another kind (finding,
 * noise, myth) that has patterns is its own first cause. A `see:` target
 * that is itself a `kind: signature` entry is not a cause: it means "this
 * signature is a more precise reading of that one", and where both match
 * the same line only the precise one is reported (the pinned-memory OOM
 * over the generic CUDA OOM, say).
 *
 * The scan is one pass with bounded memory, for logs of any size:
 *   - input is split into lines; a line longer than EXPLAIN_LINE_MAX is
 *     matched on its first EXPLAIN_LINE_MAX bytes and counted as clipped;
 *   - each line is normalised (normalize.h) and run through one
 *     Aho-Corasick automaton holding every signature's prefilter keys
 *     (literal.h); regexec runs only for signatures whose key occurs;
 *   - a message wrapped over two lines is matched on the joined pair: the
 *     automaton's state carries over the line break (joined by one space),
 *     so a key split by the wrap is still found, and a signature that did
 *     not match either line alone is tried on the pair;
 *   - the source lines a Python traceback echoes (`raise X("...")` under
 *     `File "...", line N`) are skipped, so the exception line is the one
 *     reported;
 *   - occurrences of one signature are grouped: a count, the first and last
 *     line, and the text of the first EXPLAIN_SAMPLES occurrences.
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

#define EXPLAIN_LINE_MAX (64u << 10)
#define EXPLAIN_SAMPLES 8
#define EXPLAIN_SAMPLE_TEXT 512

struct explain_sig {
	const struct kb_entry *e;
	const char *kind;              /* finding, noise or myth */
	const struct kb_entry **cause; /* most likely first */
	size_t ncause;
	size_t *refines;               /* signatures this one is a precise reading of */
	size_t nrefines;
	size_t *refined_by;            /* ...and the other way round */
	size_t nrefined_by;
	regex_t *re;
	size_t nre;
	bool always;                   /* no prefilter key: tried on every line */
};

struct explain_key {
	size_t sig;
	bool literal; /* from `match:`: finding the key is the match */
	char *text;   /* the key, lower case */
};

struct explain_db {
	struct explain_sig *sig;
	size_t n;
	struct explain_key *key;
	size_t nkeys;
	size_t *always;
	size_t nalways;
	struct ac ac;
};

/* Builds the matcher from every entry of kb that has patterns. Returns 0,
 * or -1 with "entry-id: message" in err (a regex that does not compile). */
int explain_db_build(struct explain_db *db, const struct kb *kb, struct strbuf *err);
void explain_db_free(struct explain_db *db);
/* The matcher over the built-in KB (built on first use). */
const struct explain_db *explain_db_builtin(void);
/* Index of the signature with this entry id, or -1. */
int explain_db_find(const struct explain_db *db, const char *id);

struct explain_occ {
	unsigned long line; /* first line of the occurrence (1-based) */
	bool wrapped;       /* the message continued on the next line */
	char *text;         /* cleaned line(s), clipped to EXPLAIN_SAMPLE_TEXT */
};

struct explain_match {
	size_t sig;
	unsigned long count, first_line, last_line;
	struct explain_occ occ[EXPLAIN_SAMPLES];
	size_t nocc;
	unsigned long order; /* of first appearance */
};

struct explain_stats {
	unsigned long long bytes;
	unsigned long lines;
	unsigned long clipped;      /* lines longer than EXPLAIN_LINE_MAX */
	unsigned long long nul_bytes;
	unsigned long long bad_utf8;
};

struct explain_scan {
	const struct explain_db *db;
	struct explain_stats st;
	/* after explain_scan_finish: the signatures seen, in order of appearance */
	struct explain_match **found;
	size_t nfound;

	/* private */
	struct explain_match *m;   /* per signature */
	unsigned long *last;       /* last line covered by a match, per signature */
	unsigned long *stamp;      /* de-duplicates pair candidates */
	unsigned char *flags[2];   /* keys seen on the line, per signature */
	size_t *cand[2];
	size_t ncand[2];
	size_t *hits;
	char *raw;
	size_t rawlen;
	bool clipped, partial, finished;
	char *buf[2];
	struct norm_line nl[2];
	int cur;
	bool prev_valid, prev_frame;
	int32_t prev_state;
	long hit_prevlen;
	char *joined;
	unsigned long norder;
};

void explain_scan_init(struct explain_scan *s, const struct explain_db *db);
/* Feeds any chunk of input; lines may span chunks. */
void explain_scan_feed(struct explain_scan *s, const char *buf, size_t len);
/* Ends the input (a last line without newline counts) and sorts the matches. */
void explain_scan_finish(struct explain_scan *s);
void explain_scan_release(struct explain_scan *s);

/* The match of signature id after finish, or NULL (for tests and --check). */
const struct explain_match *explain_scan_get(const struct explain_scan *s, const char *id);

#endif
