/*
 * normalize: turns one line of what people paste (terminal output, journal
 * excerpts, CI logs, Docker and Python tracebacks) into the text that
 * signatures are matched against.
 *
 * Three steps, each for a reason:
 *   1. clean    ANSI escape sequences go (colour codes split words), and so
 *               do their orphan "[31m" remains when the ESC byte was lost in
 *               a copy; control bytes, NULs and C1 controls become blanks so
 *               a binary file cannot smuggle a terminal escape or a NUL into
 *               the output. Invalid UTF-8 is kept (it matches nothing) and
 *               counted; the report layer sanitises it.
 *   2. prefix   timestamps, glog/TensorFlow headers ("E0501 12:00:00.123
 *               1234 file.cc:42]"), levels ("W ", "ERROR:root:"),
 *               "[rank0]:", dmesg "[  5.12]", syslog and compose prefixes are
 *               measured, so that anchored patterns ("^Killed$") see the
 *               message itself, and so that the indent of a Python traceback
 *               line is known after the prefix.
 *   3. collapse runs of blanks become one space, so that a pattern with one
 *               space matches text aligned with many, and so that a message
 *               wrapped over two lines can be joined with a single space.
 *               Done in the same pass as step 1 (the prefix is measured on
 *               the collapsed text); the blanks a run stood for are kept
 *               for the indent after the prefix.
 *
 * Everything here is a pure function over (buf, len): no allocation, no
 * state, safe on binary input of any size.
 */
#ifndef WSLGPU_EXPLAIN_NORMALIZE_H
#define WSLGPU_EXPLAIN_NORMALIZE_H

#include <stddef.h>

struct norm_line {
	char *text;      /* the cleaned, collapsed line (prefix included) */
	size_t len;
	size_t msg;      /* offset of the message, after the prefix */
	unsigned indent; /* blanks between the prefix and the message */
	size_t nul_bytes;
	size_t bad_utf8; /* bytes that start no valid UTF-8 sequence */
	size_t cols;     /* characters of the cleaned line before blanks collapse
			    (what a terminal showed: its width, for hard wraps) */
};

/*
 * Normalises in[0..len) into out, which must have room for len + 1 bytes
 * (the result never grows). out is NUL-terminated; nl->text == out.
 */
void norm_line(const char *in, size_t len, char *out, struct norm_line *nl);

/* Length of the prefix (timestamps, levels, tags) at the start of s, not
 * counting the blanks after it. Exposed for the unit tests. */
size_t norm_prefix_len(const char *s, size_t len);

#endif
