/*
 * utf8: the one walk over machine text that every escaper shares -- the
 * JSON writer (json.c), the terminal sanitiser below, the JUnit and
 * Prometheus writers (src/report/junit.c, prom.c). Each says only what its
 * format makes of a character; how the bytes are split into characters,
 * and what counts as invalid UTF-8, is decided here once.
 */
#ifndef WSLGPU_UTF8_H
#define WSLGPU_UTF8_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

/* Length of a valid UTF-8 sequence at s (1..4), or 0 if invalid
 * (overlong, a surrogate, above U+10FFFF, or cut short by avail). */
int utf8_seq_len(const unsigned char *s, size_t avail);

/*
 * What one format makes of the characters it does not copy as they are.
 * put gets each of them: an ASCII byte (n 1: a control, DEL, or a byte of
 * special), a valid multi-byte character (n 2..4), or a byte that starts
 * no valid sequence (n 0; that one byte is consumed).
 */
typedef void utf8_put_fn(struct strbuf *out, const unsigned char *ch, int n, const void *ctx);
struct utf8_escape {
	const char *special; /* printable ASCII that put handles too ("\"\\") */
	utf8_put_fn *put;
	const void *ctx;     /* for put */
	size_t max;          /* stop before a character once this many bytes
			      * were written (0: no limit) */
};
/* Appends the first len bytes of s to out, escaped as e says. */
void utf8_escape(struct strbuf *out, const char *s, size_t len, const struct utf8_escape *e);
/* The C escape of a newline, tab or carriage return ("\\n") appended to
 * out, as JSON and text_escape write them; false for any other byte. */
bool utf8_c_escape(struct strbuf *out, unsigned char c);

/*
 * Terminal- and text-file-safe copies of machine text: the one sanitiser
 * for every value shown on a terminal or written into a text file (a
 * report, a plan, a README, an error message). Invalid UTF-8, C1 controls
 * and bidirectional overrides become '?'; ESC, CR, DEL and the other C0
 * controls are dropped. The rule for line breaks (\n, \v, \f, U+2028,
 * U+2029):
 *  - text_sanitize_line, for a one-line field (a check's detail, a title,
 *    a name or path, a fix command, a comment of the plan): each becomes
 *    TEXT_LINE_BREAK, visible and on the same line, and a tab a space, so
 *    that no value can print a line of its own ("✗ libs.libcuda ...");
 *  - text_sanitize, for a multi-line block (a cause, an evidence value,
 *    probe output): each is kept as \n, and the renderer must indent every
 *    continuation line under the block's label.
 */
#define TEXT_LINE_BREAK "\xe2\x8f\x8e" /* U+23CE RETURN SYMBOL */
void text_sanitize(struct strbuf *sb, const char *s);
void text_sanitize_line(struct strbuf *sb, const char *s);
/*
 * What the user typed, shown in a message: C0 controls, DEL and C1
 * controls as C escapes (\n, \t, \x1b, \u0085), bytes that are not UTF-8
 * as \xNN, bidirectional overrides and line separators as \uNNNN, so that
 * the message stays one line, moves no cursor and shows what was typed.
 */
void text_escape(struct strbuf *sb, const char *s);

#endif
