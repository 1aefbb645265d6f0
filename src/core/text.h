/* text: small operations on human text, shared by the parsers and the CLI. */
#ifndef WSLGPU_TEXT_H
#define WSLGPU_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "strbuf.h"

/*
 * Edit distance (insertions, deletions, substitutions; no transpositions),
 * ignoring ASCII case, for "did you mean" hints. Strings longer than 40
 * bytes are never a typo of a known name: 99.
 */
int text_distance(const char *a, const char *b);

/*
 * The first place in hay where needle occurs, ignoring ASCII case, or
 * NULL; strcasestr's answer. For the short needles of word lists looked
 * for in a KB line: glibc's strcasestr prepares a two-way search for
 * each call, which costs more than the search itself there.
 */
const char *text_casestr(const char *hay, const char *needle);

/*
 * Shell quoting, the one way every value from the machine (a path, a
 * directory list, a package name) enters a command that is printed for a
 * person to paste. A word of letters, digits and @%+=:,./-_ only is used
 * as it is; any other (a space, $, `, quotes, ;, &, |, <, >, *, ?, ~, !,
 * a newline, bytes above 0x7f, the empty string) is put in POSIX single
 * quotes, inside which nothing is special, with each ' written as '\''.
 * Single quotes also stop bash's history expansion (!) and work in
 * PowerShell for values without a quote.
 */
bool text_shell_safe(const char *v);
void text_shell_quote(struct strbuf *out, const char *v);

/*
 * The terminal people read: how wide human output is wrapped and whether
 * it may use UTF-8 marks. The CLI sets both once (text_set_terminal);
 * until then 80 columns and UTF-8, so that library code and unit tests
 * see the default layout.
 */
void text_set_terminal(int columns, bool utf8);
int text_columns(void);
bool text_utf8(void);
/* utf8 where the locale is UTF-8, else ascii (a mark, a bullet); the
 * marks of a status are status_mark's (result.h). */
const char *text_glyph(const char *utf8, const char *ascii);
/* The width for output written to fd: COLUMNS when it is set to a
 * number, else the terminal's width (TIOCGWINSZ) when fd is one, else 80
 * (a pipe, a file). At least 40, so a hanging indent always has room. */
int text_terminal_columns(int fd);
/* Whether the locale (LC_ALL, else LC_CTYPE, else LANG) is UTF-8; the C
 * or POSIX locale, and none set, are not. */
bool text_utf8_locale(void);

/* Display columns of UTF-8 text: wide (East Asian wide, emoji) characters
 * take 2, combining marks and controls 0, terminal colour sequences
 * (ESC [ ... m) 0, an invalid byte 1. n bytes, or up to the NUL. */
int text_width(const char *s);
int text_width_n(const char *s, size_t n);

/*
 * Wrapping: text is appended to out wrapped at width columns. The first
 * line continues a line that is already col columns wide; each following
 * line starts with indent spaces (a hanging indent). Lines break only at
 * spaces (the run of spaces is dropped); a word wider than the line stays
 * whole and overflows. The first keep bytes are never broken: a command
 * meant to be copied stays on its line, however long. can_break, when
 * set, is asked about each other space (text, and its byte offset) and
 * may refuse a break there. A newline in text starts a new indented line.
 * No newline is added at the end.
 */
struct text_wrap {
	int width;
	int col;
	int indent;
	size_t keep;
	bool (*can_break)(const char *text, size_t at);
};
void text_wrap(struct strbuf *out, const char *text, const struct text_wrap *w);
/* A whole line wrapped at the terminal's width (text_columns), from column
 * 0, continuation lines indented, its first keep bytes whole, with the
 * newline; appended to out, or written to f. */
void text_wrap_line(struct strbuf *out, const char *text, int indent, size_t keep);
void text_print_line(FILE *f, const char *text, int indent, size_t keep);
/*
 * The remark of a command, after the command (already in out, ending at
 * column col) as a shell comment: "   # remark" on the command's line when
 * it fits there, or when a good part of it does (at least
 * TEXT_REMARK_MIN_COLUMNS), wrapped onto lines of "# " at column indent;
 * else all of it on such lines below the command. The command itself is
 * never wrapped; every line stays a comment, so a pasted block still runs
 * (bash, zsh and PowerShell read # as a comment). No newline at the end.
 */
#define TEXT_REMARK_MIN_COLUMNS 20
void text_wrap_remark(struct strbuf *out, int col, const char *remark, int indent);
/* text (a comment, "# ...") wrapped by w, every further line a comment too:
 * "# " at column indent. No newline at the end. */
void text_wrap_comment(struct strbuf *out, const char *text, const struct text_wrap *w,
		       int indent);

/*
 * The next line of buf[0..len) from *pos: *line and *n get its start and
 * length without the '\n' (a '\r' stays); *pos moves past it. Returns
 * false at the end (and for a NULL buf). A last line without '\n' counts.
 */
bool text_next_line(const char *buf, size_t len, size_t *pos, const char **line, size_t *n);

#endif
