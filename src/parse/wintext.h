/*
 * wintext: the text a Windows program hands back through WSL interop, made
 * plain UTF-8 with LF line ends, whatever encoding it came in.
 *
 * What comes through is not always UTF-8:
 *  - wsl.exe writes UTF-16LE without a byte-order mark unless WSL_UTF8=1
 *    reaches it (microsoft/WSL src/windows/common/WslClient.cpp sets the C
 *    runtime to _O_U16TEXT; microsoft/WSL#4607), and its help text ends
 *    lines with CR CR LF (microsoft/WSL#4456);
 *  - PowerShell reading such output as 8-bit text keeps a NUL after every
 *    ASCII letter (microsoft/WSL#6787), and writes its own output in the
 *    console's code page unless told otherwise;
 *  - a .wslconfig saved by Notepad is UTF-16LE with a byte-order mark, or
 *    UTF-8 with one.
 * Windows programs never write UTF-16BE; a file may (an editor's choice),
 * so the sniffer reports it and wintext_decode, for command output, reads
 * the big-endian NUL pattern as little-endian text that lost its first byte.
 *
 * Pure functions over a buffer; no allocation beyond the output strbuf.
 */
#ifndef WSLGPU_WINTEXT_H
#define WSLGPU_WINTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/strbuf.h"

enum wintext_encoding {
	WINTEXT_UTF8,    /* or plain ASCII, or an 8-bit code page */
	WINTEXT_UTF16LE,
	WINTEXT_UTF16BE,
};

struct wintext {
	enum wintext_encoding enc;
	bool bom;      /* a byte-order mark (UTF-8 or UTF-16) was there */
	bool shifted;  /* UTF-16LE that lost its first byte (read from the second) */
	bool crlf;     /* CR LF (or CR CR LF) line ends were turned into LF */
	bool nul;      /* NUL bytes in 8-bit text were dropped */
	size_t bad;    /* lone UTF-16 surrogates written as '?' */
};

/* Says whether b looks like UTF-16: a byte-order mark, or the NUL in every
 * other byte that ASCII text has in UTF-16 (at least 90% of the pairs).
 * *bom and *be (may be NULL) say which. */
bool wintext_sniff_utf16(const unsigned char *b, size_t len, bool *bom, bool *be);
/* Where Windows text that wintext_sniff_utf16 calls UTF-16 starts, and its
 * byte order: past a byte-order mark (*bom); or, for the big-endian
 * pattern with no mark, one byte in, read as little-endian (Windows
 * programs write little-endian: that is text that lost its first byte,
 * and a big-endian file with no mark reads the same way). -1 when b is
 * not UTF-16. */
int wintext_utf16_start(const unsigned char *b, size_t len, bool *bom, bool *be);
/* Appends UTF-16 (no byte-order mark handling) as UTF-8: surrogate pairs
 * combined, a lone surrogate written as '?', NUL code units dropped.
 * Returns how many lone surrogates there were. */
size_t wintext_utf16_to_utf8(const unsigned char *b, size_t len, bool be, struct strbuf *out);
/* The whole conversion for a command's output: byte-order marks dropped,
 * UTF-16 decoded, NULs dropped, CR LF, CR CR LF and lone CR turned into
 * LF. Appends to out; info (may be NULL) says what was found. */
void wintext_decode(const char *buf, size_t len, struct strbuf *out, struct wintext *info);

/* [s, e) without the blanks (spaces, tabs) at either end: returns the
 * start, *n the length. For the line parsers of src/parse/win*.c. */
const char *wintext_trim(const char *s, const char *e, size_t *n);

#endif
