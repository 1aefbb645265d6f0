/* text: small operations on human text, shared by the parsers and the CLI. */
#ifndef WSLGPU_TEXT_H
#define WSLGPU_TEXT_H

#include <stdbool.h>

#include "strbuf.h"

/*
 * Edit distance (insertions, deletions, substitutions; no transpositions),
 * ignoring ASCII case, for "did you mean" hints. Strings longer than 40
 * bytes are never a typo of a known name: 99.
 */
int text_distance(const char *a, const char *b);

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

#endif
