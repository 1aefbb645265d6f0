/* result.c: the results model and its wire format. See result.h. */
#include "result.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text.h"

static const char *const status_names[ST__COUNT] = {
	"pass", "warn", "fail", "skip", "crash", "timeout", "unknown",
};

const char *status_name(enum status s)
{
	return (unsigned)s < ST__COUNT ? status_names[s] : "invalid";
}

int status_parse(const char *name)
{
	for (int s = 0; name && s < ST__COUNT; s++)
		if (!strcmp(name, status_names[s]))
			return s;
	return -1;
}

const char *status_mark(enum status s)
{
	/* One column each (wcwidth), so that the id column stays aligned: the
	 * hourglass U+231B is two wide, hence T for a time-out. */
	static const char *const marks[ST__COUNT] = {
		[ST_PASS] = "✓", [ST_WARN] = "!", [ST_FAIL] = "✗",
		[ST_SKIP] = "-", [ST_CRASH] = "☠", [ST_TIMEOUT] = "T",
		[ST_UNKNOWN] = "?",
	};
	/* A locale that is not UTF-8 (LC_ALL=C) gets ASCII. */
	static const char *const ascii[ST__COUNT] = {
		[ST_PASS] = "+", [ST_WARN] = "!", [ST_FAIL] = "x",
		[ST_SKIP] = "-", [ST_CRASH] = "X", [ST_TIMEOUT] = "T",
		[ST_UNKNOWN] = "?",
	};
	if ((unsigned)s >= ST__COUNT)
		return "?";
	return text_utf8() ? marks[s] : ascii[s];
}

bool status_is_failure(enum status s)
{
	return s == ST_FAIL || s == ST_CRASH || s == ST_TIMEOUT;
}

bool status_name_is_failure(const char *name)
{
	int s = status_parse(name);
	return s >= 0 && status_is_failure((enum status)s);
}

int status_severity(enum status s, bool note)
{
	switch (s) {
	case ST_SKIP: return 0;
	case ST_PASS: return note ? 2 : 1;
	case ST_UNKNOWN: return 3;
	case ST_WARN: return 4;
	default: return 5;
	}
}

bool result_tolerated(const struct result *r)
{
	return r->tolerated_by != NULL && (status_is_failure(r->status) || r->status == ST_WARN);
}

enum status result_shown_status(const struct result *r)
{
	return result_tolerated(r) && status_is_failure(r->status) ? ST_WARN : r->status;
}

bool result_fails_run(const struct result *r)
{
	return status_is_failure(r->status) && !result_tolerated(r);
}

void result_init(struct result *r, const struct check_def *def)
{
	memset(r, 0, sizeof *r);
	r->def = def;
	r->status = ST_PASS;
}

void result_release(struct result *r)
{
	free(r->detail);
	free(r->kb);
	ev_release(&r->ev);
	free(r->tolerated_by);
	free(r->step);
	free(r->output);
	result_init(r, r->def);
}

void res_set(struct result *r, enum status st, const char *kb, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->status = st;
	free(r->detail);
	r->detail = sb_detach(&sb);
	free(r->kb);
	r->kb = kb ? xstrdup(kb) : NULL;
}

/* ---- evidence ---- */

static void ev_put(struct evidence *ev, const char *key, char *val)
{
	if (ev->n == ev->alloc) {
		ev->alloc = ev->alloc ? ev->alloc * 2 : 8;
		ev->v = xrealloc(ev->v, ev->alloc * sizeof *ev->v);
	}
	ev->v[ev->n].key = xstrdup(key);
	ev->v[ev->n].val = val;
	ev->n++;
}

void ev_add(struct evidence *ev, const char *key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	ev_put(ev, key, sb_detach(&sb));
}

void ev_add_text(struct evidence *ev, const char *key, const char *text, size_t max)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(text);
	if (n > max) {
		sb_addn(&sb, text, max);
		sb_addf(&sb, "\n[... %zu more bytes not shown]", n - max);
	} else {
		sb_addn(&sb, text, n);
	}
	sb_rtrim(&sb);
	ev_put(ev, key, sb_detach(&sb));
}

const char *ev_get_nth(const struct evidence *ev, const char *key, size_t n)
{
	for (size_t i = 0; ev && i < ev->n; i++)
		if (strcmp(ev->v[i].key, key) == 0 && n-- == 0)
			return ev->v[i].val;
	return NULL;
}

const char *ev_get(const struct evidence *ev, const char *key)
{
	return ev_get_nth(ev, key, 0);
}

size_t ev_count(const struct evidence *ev, const char *key)
{
	size_t c = 0;
	for (size_t i = 0; ev && i < ev->n; i++)
		if (strcmp(ev->v[i].key, key) == 0)
			c++;
	return c;
}

void ev_copy(struct evidence *to, const struct evidence *from)
{
	for (size_t i = 0; i < from->n; i++)
		ev_put(to, from->v[i].key, xstrdup(from->v[i].val));
}

void ev_release(struct evidence *ev)
{
	for (size_t i = 0; i < ev->n; i++) {
		free(ev->v[i].key);
		free(ev->v[i].val);
	}
	free(ev->v);
	memset(ev, 0, sizeof *ev);
}

void res_ev(struct result *r, const char *key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	ev_put(&r->ev, key, sb_detach(&sb));
}

void res_ev_text(struct result *r, const char *key, const char *text, size_t max)
{
	ev_add_text(&r->ev, key, text, max);
}

const char *res_get_nth(const struct result *r, const char *key, size_t n)
{
	return ev_get_nth(&r->ev, key, n);
}

const char *res_get(const struct result *r, const char *key)
{
	return ev_get(&r->ev, key);
}

/* ---- several findings in one check ---- */

static void findings_put(struct findings *f, enum status st, int prio, const char *kb,
			 const char *label, char *detail)
{
	if (f->n == f->alloc) {
		f->alloc = f->alloc ? f->alloc * 2 : 8;
		f->v = xrealloc(f->v, f->alloc * sizeof *f->v);
	}
	f->v[f->n++] = (struct finding){ st, prio, kb, detail, label };
}

void findings_add(struct findings *f, enum status st, const char *kb, const char *fmt, ...)
{
	struct strbuf d = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&d, fmt, ap);
	va_end(ap);
	findings_put(f, st, 0, kb, NULL, sb_detach(&d));
}

void findings_add_prio(struct findings *f, enum status st, int prio, const char *kb,
		       const char *label, const char *fmt, ...)
{
	struct strbuf d = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&d, fmt, ap);
	va_end(ap);
	findings_put(f, st, prio, kb, label, sb_detach(&d));
}

long findings_worst(const struct findings *f)
{
	long w = -1;
	for (size_t i = 0; i < f->n; i++) {
		const struct finding *a = &f->v[i];
		if (w < 0) {
			w = (long)i;
			continue;
		}
		const struct finding *b = &f->v[w];
		int sa = status_severity(a->st, a->kb != NULL), sb = status_severity(b->st, b->kb != NULL);
		if (sa > sb || (sa == sb && a->prio < b->prio))
			w = (long)i;
	}
	return w;
}

enum status findings_status(const struct findings *f)
{
	long w = findings_worst(f);
	return w < 0 ? ST_PASS : f->v[w].st;
}

void findings_settle(struct result *r, struct findings *f)
{
	long w = findings_worst(f);
	if (w < 0) {
		findings_release(f);
		return;
	}
	struct strbuf d = STRBUF_INIT;
	if (f->v[w].st == ST_PASS) {
		/* Everything passed: one detail that says each once, in the order
		 * found. */
		for (size_t i = 0; i < f->n; i++) {
			bool said = false;
			for (size_t j = 0; j < i && !said; j++)
				said = !strcmp(f->v[j].detail, f->v[i].detail);
			if (!said)
				sb_addf(&d, "%s%s", d.len ? "; " : "", f->v[i].detail);
		}
	} else {
		sb_add(&d, f->v[w].detail);
		size_t labelled = 0;
		for (size_t i = 0; i < f->n; i++) {
			if ((long)i == w)
				continue;
			res_ev(r, "also", "%s", f->v[i].detail);
			/* its status and entry, n-th beside the n-th "also": a
			 * problem of its own gets a step of its own (fix/plan.c) */
			res_ev(r, "also_kb", "%s %s", status_name(f->v[i].st),
			       f->v[i].kb ? f->v[i].kb : "-");
			if (f->v[i].label)
				sb_addf(&d, "%s%s", labelled++ ? ", " : "; also ", f->v[i].label);
		}
	}
	res_set(r, f->v[w].st, f->v[w].kb, "%s", d.buf);
	sb_release(&d);
	findings_release(f);
}

void findings_release(struct findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i].detail);
	free(f->v);
	memset(f, 0, sizeof *f);
}

/* ---- wire format ---- */

#define WIRE_MAX_RECORD (1u << 20)

/* Appends a record's header for a payload of len bytes; returns the
 * payload's length as sent (a longer one is cut at WIRE_MAX_RECORD). */
static size_t wire_add_header(struct strbuf *sb, char type, size_t len)
{
	if (len > WIRE_MAX_RECORD)
		len = WIRE_MAX_RECORD;
	unsigned char hdr[5] = { (unsigned char)type, (unsigned char)(len & 0xff),
				 (unsigned char)((len >> 8) & 0xff),
				 (unsigned char)((len >> 16) & 0xff),
				 (unsigned char)((len >> 24) & 0xff) };
	sb_addn(sb, hdr, sizeof hdr);
	return len;
}

void wire_add(struct strbuf *sb, char type, const void *data, size_t len)
{
	sb_addn(sb, data, wire_add_header(sb, type, len));
}

int wire_write(int fd, struct strbuf *sb)
{
	size_t off = 0;
	int rc = 0;
	while (off < sb->len) {
		ssize_t n = write(fd, sb->buf + off, sb->len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		off += (size_t)n;
	}
	sb_reset(sb);
	return rc;
}

void wire_put(int fd, char type, const void *data, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	wire_add(&sb, type, data, len);
	wire_write(fd, &sb);
	sb_release(&sb);
}

void wire_add_result(struct strbuf *sb, const struct result *r)
{
	unsigned char st = (unsigned char)r->status;
	for (size_t i = 0; i < r->ev.n; i++) {
		/* "key\0value" built in place, cut as wire_add cuts a payload */
		size_t kl = strlen(r->ev.v[i].key), vl = strlen(r->ev.v[i].val);
		size_t len = wire_add_header(sb, 'E', kl + 1 + vl);
		size_t start = sb->len;
		sb_addn(sb, r->ev.v[i].key, kl);
		sb_addc(sb, '\0');
		sb_addn(sb, r->ev.v[i].val, vl);
		sb->len = start + len;
		sb->buf[sb->len] = '\0';
	}
	if (r->kb)
		wire_add(sb, 'K', r->kb, strlen(r->kb));
	if (r->detail)
		wire_add(sb, 'D', r->detail, strlen(r->detail));
	/* Status last: its arrival marks a complete result. */
	wire_add(sb, 'S', &st, 1);
}

void wire_put_result(int fd, const struct result *r)
{
	struct strbuf sb = STRBUF_INIT;
	wire_add_result(&sb, r);
	wire_write(fd, &sb);
	sb_release(&sb);
}

static char *dup_payload(const char *p, size_t n)
{
	/* Payloads are text; a NUL inside ends the string. */
	return xstrndup(p, n);
}

size_t wire_apply(struct result *r, const char *buf, size_t len)
{
	size_t off = 0;
	while (len - off >= 5) {
		const unsigned char *h = (const unsigned char *)buf + off;
		uint32_t n = (uint32_t)h[1] | (uint32_t)h[2] << 8 | (uint32_t)h[3] << 16 |
			     (uint32_t)h[4] << 24;
		if (n > WIRE_MAX_RECORD)
			return len; /* garbage: drop the rest */
		if (len - off - 5 < n)
			break;
		const char *p = buf + off + 5;
		switch (h[0]) {
		case 'S':
			if (n == 1 && (unsigned char)p[0] < ST__COUNT) {
				r->status = (enum status)(unsigned char)p[0];
				r->ran = true;
			}
			break;
		case 'D':
			free(r->detail);
			r->detail = dup_payload(p, n);
			break;
		case 'K':
			free(r->kb);
			r->kb = dup_payload(p, n);
			break;
		case 'T':
			free(r->step);
			r->step = dup_payload(p, n);
			break;
		case 'E': {
			const char *nul = memchr(p, '\0', n);
			if (nul) {
				size_t kl = (size_t)(nul - p);
				char *key = xstrndup(p, kl);
				ev_put(&r->ev, key, dup_payload(nul + 1, n - kl - 1));
				free(key);
			}
			break;
		}
		default:
			break;
		}
		off += 5 + n;
	}
	return off;
}
