/* normalize.c: clean, de-prefix and collapse one pasted log line. See normalize.h. */
#include "normalize.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../core/json.h"

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }
/* strchr(set, c) that is false for NUL (strchr finds the terminator). */
/* Character classes of the prefix tokens, as bits of one table: the
 * tokenizer asks several per byte, and strchr over a set string each time
 * was a fifth of explain's time. */
enum {
	C_BRACKET = 1, /* inside [...]: alnum and " _.:,/+-|=#" */
	C_SRC = 2,     /* a source path: alnum and "_./+-" */
	C_NAME = 4,    /* a host or container name: alnum and "_.-" */
	C_TAG = 8,     /* a syslog tag: alnum and "_./-" */
	C_LEVEL = 16,  /* a glog level letter: IWEFD */
	C_END = 32,    /* a token's own closing punctuation: ":]|)" */
	C_SEP = 64,    /* a separator token: "-|:" */
};
static unsigned char ctab[256];

static void ctab_init(void)
{
	static const struct {
		int bit;
		const char *chars;
	} sets[] = {
		{ C_BRACKET, " _.:,/+-|=#" }, { C_SRC, "_./+-" }, { C_NAME, "_.-" },
		{ C_TAG, "_./-" }, { C_LEVEL, "IWEFD" }, { C_END, ":]|)" }, { C_SEP, "-|:" },
	};
	if (ctab['I'])
		return;
	for (int c = 0; c < 256; c++)
		if (is_alnum((char)c))
			ctab[c] |= C_BRACKET | C_SRC | C_NAME | C_TAG;
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
		for (const char *p = sets[i].chars; *p; p++)
			ctab[(unsigned char)*p] |= (unsigned char)sets[i].bit;
}

static bool in(char c, int bit) { return ctab[(unsigned char)c] & bit; }

/* ---- step 1: clean ---- */

/* Skips an escape sequence starting at in[i] == ESC; returns the index after it. */
/* The ASCII character a typographic one stands for in a pasted message
 * (U+2018/2019 ' , U+201C/201D " , U+FF1A : , U+FF08/FF09 ( ) , U+FF0C , ,
 * U+3000 a blank), or 0 for any other sequence. */
static char typographic(const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;
	if (n != 3)
		return 0;
	if (u[0] == 0xe2 && u[1] == 0x80) {
		if (u[2] == 0x98 || u[2] == 0x99)
			return '\'';
		if (u[2] == 0x9c || u[2] == 0x9d)
			return '"';
	}
	if (u[0] == 0xef && u[1] == 0xbc) {
		switch (u[2]) {
		case 0x9a: return ':';
		case 0x88: return '(';
		case 0x89: return ')';
		case 0x8c: return ',';
		default: return 0;
		}
	}
	if (u[0] == 0xe3 && u[1] == 0x80 && u[2] == 0x80)
		return ' ';
	return 0;
}

static size_t skip_escape(const char *in, size_t len, size_t i)
{
	i++;
	if (i >= len)
		return i;
	unsigned char c = (unsigned char)in[i];
	if (c == '[') { /* CSI: parameters, intermediates, one final byte */
		i++;
		while (i < len && (unsigned char)in[i] >= 0x20 && (unsigned char)in[i] <= 0x3f)
			i++;
		if (i < len && (unsigned char)in[i] >= 0x40 && (unsigned char)in[i] <= 0x7e)
			i++;
		return i;
	}
	if (c == ']') { /* OSC: up to BEL or ESC \ */
		i++;
		while (i < len && in[i] != 0x07 && !(in[i] == 0x1b && i + 1 < len && in[i + 1] == '\\'))
			i++;
		if (i < len)
			i += in[i] == 0x07 ? 1 : 2;
		return i > len ? len : i;
	}
	if (c == '(' || c == ')' || c == '*' || c == '+') /* charset designation */
		return i + 2 > len ? len : i + 2;
	return i + 1;
}

/* "[31m", "[1;32m", "[0m": an SGR sequence whose ESC byte was lost. */
static size_t orphan_sgr(const char *in, size_t len, size_t i)
{
	size_t j = i + 1;
	bool digit = false;
	while (j < len && j - i <= 12 && (is_digit(in[j]) || in[j] == ';')) {
		digit |= is_digit(in[j]);
		j++;
	}
	return digit && j < len && in[j] == 'm' ? j + 1 : 0;
}

/* Blank runs the collapsed text replaced by one space, for the indent of
 * the message (a traceback's source line is indented deeper than its frame). */
#define RUNS 32
struct runs {
	size_t lead;     /* blanks before the first character */
	size_t n;
	size_t pos[RUNS]; /* where the one space stands in the output */
	size_t len[RUNS]; /* how many blanks it stands for (single blanks
			     between words are not kept: they are 1) */
};

struct cleaner {
	char *out;
	size_t o;
	size_t pending; /* blanks since the last character */
	size_t cols;
	struct runs *rs;
};

static inline void blank(struct cleaner *c)
{
	c->pending++;
	c->cols++;
}

static void flush_run(struct cleaner *c);

/* Writes the blanks pending before a character: one space, none at the start. */
static inline void flush_blanks(struct cleaner *c)
{
	if (__builtin_expect(!c->pending, 1))
		return;
	flush_run(c);
}

static void flush_run(struct cleaner *c)
{
	if (c->o == 0) {
		c->rs->lead = c->pending;
	} else {
		if (c->rs->n < RUNS) {
			c->rs->pos[c->rs->n] = c->o;
			c->rs->len[c->rs->n++] = c->pending;
		}
		c->out[c->o++] = ' ';
	}
	c->pending = 0;
}

/* 1: printable ASCII other than blank and '[', copied a run at a time. */
static const unsigned char plain[256] = {
	[0x21] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x21-0x2f */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,          /* 0x30-0x3f */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,          /* 0x40-0x4f */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1,          /* 0x50-0x5f, '[' */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,          /* 0x60-0x6f */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,          /* 0x70-0x7f, DEL */
};

/* Bytes of x that are zero: their high bit set, exactly. */
static inline uint64_t zero_bytes(uint64_t x)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	return ~(((x & low7) + low7) | x | low7);
}

/* Copies, eight bytes at a time, text that needs no change: printable
 * ASCII but '[', blanks only single, and not ending in one (the caller
 * has just written a non-blank). Returns where it stopped. */
static inline const char *copy_words(char **w, const char *r, const char *e)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	while (e - r >= 8) {
		uint64_t x;
		memcpy(&x, r, 8);
		uint64_t below = ~((x & low7) + 0x6060606060606060ull) & ~x & high; /* < 0x20 */
		uint64_t above = (x | ((x & low7) + ones)) & high;                  /* > 0x7e */
		uint64_t sp = zero_bytes(x ^ (ones * ' '));
		if (below | above | zero_bytes(x ^ (ones * '[')) | (sp & (sp << 8)) | (sp >> 63 << 63))
			break;
		memcpy(*w, &x, 8);
		*w += 8;
		r += 8;
	}
	return r;
}

/* Steps 1 and 3 in one pass: the cleaned text with each run of blanks
 * written as one space and none at either end. */
static size_t clean(const char *in, size_t len, char *out, struct norm_line *nl, struct runs *rs)
{
	struct cleaner c = { out, 0, 0, 0, rs };
	size_t i = 0;
	memset(rs, 0, sizeof *rs);
	while (i < len) {
		unsigned char ch = (unsigned char)in[i];
		if (plain[ch]) {
			/* the common case, a word: copied here, not by memcpy
			 * (a call per word cost more than the copy) */
			flush_blanks(&c);
			char *w = out + c.o;
			const char *r = in + i, *e = in + len;
			for (;;) {
				r = copy_words(&w, r, e);
				while (r < e && plain[(unsigned char)*r])
					*w++ = *r++;
				/* one blank between words stays as it is */
				if (r + 1 < e && *r == ' ' && plain[(unsigned char)r[1]]) {
					*w++ = *r++;
					continue;
				}
				break;
			}
			size_t n = (size_t)(w - (out + c.o));
			c.o += n;
			c.cols += n;
			i += n;
		} else if (ch == ' ') {
			blank(&c);
			i++;
		} else if (ch == '[') {
			size_t e = orphan_sgr(in, len, i);
			if (e) {
				i = e;
			} else {
				flush_blanks(&c);
				out[c.o++] = '[';
				c.cols++;
				i++;
			}
		} else if (ch == 0x1b) {
			i = skip_escape(in, len, i);
		} else if (ch < 0x80) { /* other C0 controls, DEL, NUL, CR, tab */
			if (ch == 0)
				nl->nul_bytes++;
			blank(&c);
			i++;
		} else {
			int n = utf8_seq_len((const unsigned char *)in + i, len - i);
			if (n == 0) {
				nl->bad_utf8++;
				flush_blanks(&c);
				out[c.o++] = (char)ch;
				c.cols++;
				i++;
			} else if (n == 2 && ch == 0xc2 && (unsigned char)in[i + 1] < 0xa0) {
				blank(&c); /* C1 control */
				i += 2;
			} else if (n == 2 && ch == 0xc2 && (unsigned char)in[i + 1] == 0xa0) {
				blank(&c); /* no-break space */
				i += 2;
			} else if (typographic(in + i, (size_t)n)) {
				/* Curly quotes, full-width colons and brackets, as
				 * editors and translated pastes have them: matched as
				 * the ASCII the messages print. */
				char a = typographic(in + i, (size_t)n);
				if (a == ' ') {
					blank(&c);
				} else {
					flush_blanks(&c);
					out[c.o++] = a;
					c.cols++;
					if (a == ':' || a == ',')
						blank(&c); /* full-width: the space is in the glyph */
				}
				i += (size_t)n;
			} else {
				flush_blanks(&c);
				memcpy(out + c.o, in + i, (size_t)n);
				c.o += (size_t)n;
				c.cols++;
				i += (size_t)n;
			}
		}
	}
	if (c.o == 0)
		rs->lead = c.pending;
	nl->cols = c.cols;
	return c.o;
}

/* ---- step 2: prefixes ---- */

enum tok { T_NONE, T_DATE, T_TIME, T_MONTH, T_OTHER };

static size_t digits(const char *s, size_t len, size_t p)
{
	size_t q = p;
	while (q < len && is_digit(s[q]))
		q++;
	return q - p;
}

/* 12:00, 12:00:00, 12:00:00.123456, 00:00:1753232013.685876, then a zone. */
static size_t tok_time(const char *s, size_t len, size_t p)
{
	size_t n = digits(s, len, p);
	if (n < 1 || n > 2)
		return 0;
	size_t q = p + n;
	if (q >= len || s[q] != ':' || digits(s, len, q + 1) != 2)
		return 0;
	q += 3;
	size_t d;
	if (q < len && s[q] == ':' && (d = digits(s, len, q + 1)) >= 1) {
		q += 1 + d;
		if (q < len && (s[q] == '.' || s[q] == ',') && (d = digits(s, len, q + 1)) >= 1)
			q += 1 + d;
	}
	if (q < len && s[q] == 'Z') {
		q++;
	} else if (q < len && (s[q] == '+' || s[q] == '-') && digits(s, len, q + 1) == 2) {
		size_t z = q + 3;
		if (z < len && s[z] == ':')
			z++;
		if (digits(s, len, z) == 2)
			q = z + 2;
	}
	if (q < len && (s[q] == ':' || s[q] == ','))
		q++;
	return q;
}

/* 2024-05-01, 2024/05/01 or 2024.05.01, with the time that may follow. */
static size_t tok_date(const char *s, size_t len, size_t p)
{
	if (digits(s, len, p) != 4)
		return 0;
	size_t q = p + 4;
	if (q >= len || (s[q] != '-' && s[q] != '/' && s[q] != '.'))
		return 0;
	char sep = s[q++];
	if (digits(s, len, q) != 2)
		return 0;
	q += 2;
	if (q >= len || s[q] != sep || digits(s, len, q + 1) != 2)
		return 0;
	q += 3;
	if (q < len && (s[q] == 'T' || s[q] == ' ')) {
		size_t t = tok_time(s, len, q + 1);
		if (t)
			return t;
	}
	if (q < len && (s[q] == ':' || s[q] == ','))
		q++;
	return q;
}

static size_t tok_month(const char *s, size_t len, size_t p)
{
	static const char months[] = "janfebmaraprmayjunjulaugsepoctnovdec";
	if (p + 3 >= len || s[p + 3] != ' ')
		return 0;
	char m[3] = { lower(s[p]), lower(s[p + 1]), lower(s[p + 2]) };
	bool hit = false;
	for (size_t i = 0; i < 36; i += 3)
		if (!memcmp(months + i, m, 3))
			hit = true;
	if (!hit)
		return 0;
	size_t q = p + 3;
	if (q >= len || s[q] != ' ')
		return 0;
	while (q < len && s[q] == ' ')
		q++;
	size_t n = digits(s, len, q);
	return n >= 1 && n <= 2 ? q + n : 0;
}

/* [2024-05-01 12:00:00], [  5.123456], [rank0], [INFO], [W] — then ':'.
 * A label and a colon before words ("[Hint: cudnn_dso_handle should not
 * be null.]", PaddlePaddle's) is a message in brackets, not a prefix. */
static size_t tok_bracket(const char *s, size_t len, size_t p)
{
	if (s[p] != '[')
		return 0;
	size_t q = p + 1;
	while (q < len && q - p <= 48 && s[q] != ']') {
		char c = s[q];
		if (!in(c, C_BRACKET) || (c == ':' && q + 1 < len && s[q + 1] == ' '))
			return 0;
		q++;
	}
	if (q >= len || s[q] != ']' || q == p + 1)
		return 0;
	q++;
	if (q < len && s[q] == ':')
		q++;
	return q;
}

/* (pid=1234), (RayWorker pid=1234, ip=10.0.0.1) */
static size_t tok_paren_pid(const char *s, size_t len, size_t p)
{
	if (s[p] != '(')
		return 0;
	size_t q = p + 1;
	bool pid = false;
	while (q < len && q - p <= 64 && s[q] != ')' && s[q] != '(') {
		if (q + 4 <= len && !memcmp(s + q, "pid=", 4))
			pid = true;
		q++;
	}
	if (!pid || q >= len || s[q] != ')')
		return 0;
	q++;
	if (q < len && s[q] == ':')
		q++;
	return q;
}

/* gpu_device.cc:2251]   tensorflow/core/util/port.cc:113]   __init__.py:52: */
static size_t tok_source_loc(const char *s, size_t len, size_t p)
{
	static const char exts[] = " cc cpp cxx c h hpp py cu go rs java ";
	size_t q = p;
	while (q < len && in(s[q], C_SRC))
		q++;
	if (q >= len || s[q] != ':' || q == p)
		return 0;
	size_t dot = q;
	while (dot > p && s[dot - 1] != '.')
		dot--;
	if (dot == p)
		return 0;
	char ext[8] = " ";
	if (q - dot > 4)
		return 0;
	memcpy(ext + 1, s + dot, q - dot);
	ext[q - dot + 1] = ' ';
	ext[q - dot + 2] = '\0';
	if (!strstr(exts, ext))
		return 0;
	size_t n = digits(s, len, q + 1);
	if (n == 0)
		return 0;
	q += 1 + n;
	/* A C compiler's diagnostic, "nv-pci.c:240:9: error: ...", is the
	 * message: its file names what was being built (a kernel module's
	 * source), so a C file with a line and a column stays text. */
	size_t col = q < len && s[q] == ':' ? digits(s, len, q + 1) : 0;
	if (col && (!strcmp(ext, " c ") || !strcmp(ext, " h ")) && q + 1 + col + 1 < len &&
	    s[q + 1 + col] == ':' && s[q + 2 + col] == ' ')
		return 0;
	if (q < len && s[q] == ']')
		q++;
	if (q < len && s[q] == ':')
		q++;
	return q;
}

/* A level word, in lower case: English, and the translations that
 * localised tools print ("Fehler:", "Erreur :" is two tokens, "AVISO"). */
static bool level_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"info", "warn", "warning", "error", "err", "debug", "fatal", "critical", "trace",
		"notice", "fehler", "warnung", "erreur", "avertissement", "errore", "avviso", "erro",
		"aviso", "advertencia", "fout", "waarschuwing",
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (words[i][0] == w[0] && strlen(words[i]) == n && !memcmp(words[i], w, n))
			return true;
	return false;
}

/* INFO, WARNING:, ERROR:root:, error:, FATAL */
static size_t tok_level(const char *s, size_t len, size_t p)
{
	size_t q = p;
	while (q < len && is_alpha(s[q]) && q - p < 16)
		q++;
	size_t n = q - p;
	bool upper = true;
	if (n < 3 || n > 13 || (q < len && is_alpha(s[q])))
		return 0;
	char w[16];
	for (size_t i = 0; i < n; i++)
		w[i] = lower(s[p + i]);
	if (!level_word(w, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[p + i] >= 'a' && s[p + i] <= 'z')
			upper = false;
	if (q < len && s[q] == ':') {
		q++;
		/* Python logging: "WARNING:absl:No GPU/TPU found" — the logger name. */
		size_t r = q;
		while (r < len && (is_alnum(s[r]) || s[r] == '_' || s[r] == '.' || s[r] == '-'))
			r++;
		if (r > q && r < len && s[r] == ':')
			q = r + 1;
		return q;
	}
	/* A bare word only when written like a level, not like a sentence. */
	return upper && (q == len || s[q] == ' ' || s[q] == ']') ? q : 0;
}

/* glog and absl: E0501 (followed by the time) */
static size_t tok_glog(const char *s, size_t len, size_t p)
{
	if (!in(s[p], C_LEVEL) || digits(s, len, p + 1) != 4)
		return 0;
	size_t q = p + 5;
	return q < len && s[q] == ' ' ? q : 0;
}

/* docker compose: "webui-docker-hlky-1  | " */
static size_t tok_compose(const char *s, size_t len, size_t p)
{
	size_t q = p;
	while (q < len && in(s[q], C_NAME))
		q++;
	size_t e = q;
	size_t n = 0;
	while (e > p && is_digit(s[e - 1])) {
		e--;
		n++;
	}
	if (n == 0 || e <= p + 1 || (s[e - 1] != '-' && s[e - 1] != '_'))
		return 0;
	while (q < len && s[q] == ' ')
		q++;
	return q < len && s[q] == '|' ? q + 1 : 0;
}

/* A provisioner's prefix of a step's output: Packer's "==> amazon-ebs.jammy: "
 * (github.com/compiler-explorer/infra/issues/1722), Vagrant's
 * "==> default: "; mkinitcpio's "==> ERROR: " reads the same. */
static size_t tok_arrow(const char *s, size_t len, size_t p)
{
	if (p + 4 > len || memcmp(s + p, "==> ", 4))
		return 0;
	size_t q = p + 4, name = q;
	while (q < len && in(s[q], C_NAME))
		q++;
	if (q == name || q - name > 64 || q >= len || s[q] != ':')
		return 0;
	return q + 1 == len || s[q + 1] == ' ' ? q + 1 : 0;
}

/* user@host:~/dir$   and a lone "$", "#" or ">>>" */
static size_t tok_prompt(const char *s, size_t len, size_t p)
{
	if (s[p] == '$' || s[p] == '#')
		return p + 1 < len && s[p + 1] == ' ' ? p + 1 : 0;
	if (p + 3 <= len && !memcmp(s + p, ">>>", 3))
		return p + 3;
	size_t q = p;
	bool at = false, colon = false;
	while (q < len && s[q] != ' ') {
		if (s[q] == '@')
			at = true;
		if (s[q] == ':' && at)
			colon = true;
		q++;
	}
	return at && colon && q > p && (s[q - 1] == '$' || s[q - 1] == '#') ? q : 0;
}

/* syslog: "host kernel:" or "host dockerd[123]:" after a month-day-time. */
static size_t tok_syslog_tail(const char *s, size_t len, size_t p)
{
	size_t q = p;
	while (q < len && in(s[q], C_NAME))
		q++;
	if (q == p || q >= len || s[q] != ' ')
		return 0;
	q++;
	size_t t = q;
	while (q < len && in(s[q], C_TAG))
		q++;
	if (q == t)
		return 0;
	if (q < len && s[q] == '[') {
		size_t n = digits(s, len, q + 1);
		if (n == 0 || q + 1 + n >= len || s[q + 1 + n] != ']')
			return 0;
		q += 2 + n;
	}
	return q < len && s[q] == ':' ? q + 1 : 0;
}

/* "#8", "Step 5/9 :" (docker build), "24341", "0.123" (only after another token) */
static size_t tok_number(const char *s, size_t len, size_t p)
{
	size_t q = p;
	if (s[q] == '#')
		q++;
	size_t n = digits(s, len, q);
	if (n == 0)
		return 0;
	q += n;
	if (q < len && s[q] == '.' && digits(s, len, q + 1) > 0)
		q += 1 + digits(s, len, q + 1);
	return q;
}

static size_t tok_step(const char *s, size_t len, size_t p)
{
	if (p + 5 > len || memcmp(s + p, "Step ", 5))
		return 0;
	size_t q = p + 5, n = digits(s, len, q);
	if (n == 0 || q + n >= len || s[q + n] != '/')
		return 0;
	q += n + 1;
	n = digits(s, len, q);
	if (n == 0)
		return 0;
	q += n;
	if (q + 2 <= len && s[q] == ' ' && s[q + 1] == ':')
		q += 2;
	return q;
}

/* What a word holds, for next_token: the characters some tokens need. */
enum { W_COLON = 1, W_AT = 2, W_PIPE = 4 };
static const unsigned char wtab[256] = { [':'] = W_COLON, ['@'] = W_AT, ['|'] = W_PIPE };

/* A token counts only where it ends: at a blank, the end, or its own punctuation. */
static bool boundary(const char *s, size_t len, size_t t)
{
	return t == len || s[t] == ' ' || in(s[t - 1], C_END);
}

/* The token at p, in order of preference; 0 if none. k is the number of
 * tokens before it: bare numbers and separators count only after another. */
static size_t next_token(const char *s, size_t len, size_t p, int k, bool after_syslog_time,
			 enum tok *kind)
{
	size_t t;
	if ((t = tok_date(s, len, p))) {
		*kind = T_DATE;
		return t;
	}
	if ((t = tok_time(s, len, p))) {
		*kind = T_TIME;
		return t;
	}
	if ((t = tok_month(s, len, p))) {
		*kind = T_MONTH;
		return t;
	}
	if (after_syslog_time && (t = tok_syslog_tail(s, len, p)))
		return t;
	if (s[p] == '#' && p + 1 < len && s[p + 1] >= '0' && s[p + 1] <= '9')
		return tok_number(s, len, p); /* BuildKit's step: "#8 [4/6] COPY ..." */
	if (s[p] == '=' && (t = tok_arrow(s, len, p)))
		return t;
	/* The word at p, once: the tokens that need a ':', '@' or '|' in it
	 * (or, for a compose name, a '|' after it) are not tried without. */
	unsigned w = 0;
	size_t we = p;
	while (we < len && s[we] != ' ')
		w |= wtab[(unsigned char)s[we++]];
	while (we < len && s[we] == ' ')
		we++;
	if (we < len && s[we] == '|')
		w |= W_PIPE;
	if ((t = tok_glog(s, len, p)) || (t = tok_bracket(s, len, p)) ||
	    (t = tok_paren_pid(s, len, p)) ||
	    ((w & W_COLON) && (t = tok_source_loc(s, len, p))) ||
	    (is_alpha(s[p]) && (t = tok_level(s, len, p))) || (t = tok_step(s, len, p)) ||
	    ((w & W_PIPE) && (t = tok_compose(s, len, p))) ||
	    ((w & W_AT || s[p] == '$' || s[p] == '#' || s[p] == '>') && (t = tok_prompt(s, len, p))))
		return t;
	if (p + 1 < len && in(s[p], C_LEVEL) && s[p + 1] == ' ')
		return p + 1; /* a glog/TensorFlow level letter: "E ", "W " */
	if (k > 0 && in(s[p], C_SEP) && (p + 1 == len || s[p + 1] == ' '))
		return p + 1;
	if (k > 0 && (t = tok_number(s, len, p)))
		return t;
	return 0;
}

size_t norm_prefix_len(const char *s, size_t len)
{
	ctab_init();
	size_t p = 0, end = 0;
	enum tok prev = T_NONE;
	bool month = false;
	while (p < len && s[p] == ' ')
		p++;
	for (int k = 0; k < 12 && p < len; k++) {
		enum tok kind = T_OTHER;
		size_t t = next_token(s, len, p, k, prev == T_TIME && month, &kind);
		if (!t || !boundary(s, len, t))
			break;
		if (kind == T_MONTH)
			month = true;
		prev = kind;
		end = t;
		p = t;
		while (p < len && s[p] == ' ')
			p++;
	}
	return end;
}

void norm_line(const char *in, size_t len, char *out, struct norm_line *nl)
{
	memset(nl, 0, sizeof *nl);
	struct runs rs;
	size_t n = clean(in, len, out, nl, &rs);
	size_t pend = norm_prefix_len(out, n);
	if (pend == 0) {
		nl->indent = (unsigned)rs.lead;
	} else if (pend < n && out[pend] == ' ') {
		nl->indent = 1; /* a single blank, or one past the RUNS kept */
		for (size_t i = 0; i < rs.n; i++)
			if (rs.pos[i] == pend)
				nl->indent = (unsigned)rs.len[i];
		nl->msg = pend + 1;
	} else {
		nl->msg = pend;
	}
	out[n] = '\0';
	nl->text = out;
	nl->len = n;
}
