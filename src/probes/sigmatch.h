/*
 * sigmatch: which knowledge-base entry explains an error text.
 *
 * Entries carry `match:` (literal, case-insensitive) and `regex:` (POSIX
 * extended, case-insensitive) lines for the messages that identify them in
 * a log (src/kb/README.md). The frameworks and containers probes capture
 * what a framework or docker printed and ask here which entry, among those
 * whose id starts with a prefix ("frameworks.", "containers."), the text
 * shows; the first entry in KB order wins, so a .kb file lists the specific
 * signatures before the general ones.
 */
#ifndef WSLGPU_SIGMATCH_H
#define WSLGPU_SIGMATCH_H

#include <stddef.h>

#include "../kb/kb.h"

/* The first entry whose id starts with prefix and whose signature occurs
 * in text (len bytes, NULs allowed), or NULL. */
const struct kb_entry *sig_match(const char *prefix, const char *text, size_t len);
/* True if entry e's signature occurs in text. */
int sig_entry_matches(const struct kb_entry *e, const char *text, size_t len);

#endif
