/* result.c: the results model and its wire format. See result.h. */
#include "result.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const status_names[ST__COUNT] = {
	"pass", "warn", "fail", "skip", "crash", "timeout",
};

const char *status_name(enum status s)
{
	return (unsigned)s < ST__COUNT ? status_names[s] : "unknown";
}

const char *status_mark(enum status s)
{
	static const char *const marks[ST__COUNT] = {
		[ST_PASS] = "✓", [ST_WARN] = "!", [ST_FAIL] = "✗",
		[ST_SKIP] = "-", [ST_CRASH] = "☠", [ST_TIMEOUT] = "⌛",
	};
	return (unsigned)s < ST__COUNT ? marks[s] : "?";
}

bool status_is_failure(enum status s)
{
	return s == ST_FAIL || s == ST_CRASH || s == ST_TIMEOUT;
}

int status_rank(enum status s)
{
	switch (s) {
	case ST_PASS: return 0;
	case ST_SKIP: return 1;
	case ST_WARN: return 2;
	default: return 3;
	}
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
	for (size_t i = 0; i < r->nev; i++) {
		free(r->ev[i].key);
		free(r->ev[i].val);
	}
	free(r->ev);
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

static void ev_add(struct result *r, const char *key, char *val)
{
	if (r->nev == r->aev) {
		r->aev = r->aev ? r->aev * 2 : 8;
		r->ev = xrealloc(r->ev, r->aev * sizeof *r->ev);
	}
	r->ev[r->nev].key = xstrdup(key);
	r->ev[r->nev].val = val;
	r->nev++;
}

void res_ev(struct result *r, const char *key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	ev_add(r, key, sb_detach(&sb));
}

void res_ev_text(struct result *r, const char *key, const char *text, size_t max)
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
	ev_add(r, key, sb_detach(&sb));
}

const char *res_get_nth(const struct result *r, const char *key, size_t n)
{
	for (size_t i = 0; i < r->nev; i++)
		if (strcmp(r->ev[i].key, key) == 0 && n-- == 0)
			return r->ev[i].val;
	return NULL;
}

const char *res_get(const struct result *r, const char *key)
{
	return res_get_nth(r, key, 0);
}

void res_consider(struct result *r, struct res_worst *w, enum status st, const char *kb,
		  const char *fmt, ...)
{
	struct strbuf d = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&d, fmt, ap);
	va_end(ap);
	if (!w->set || status_rank(st) > status_rank(w->st)) {
		if (w->set)
			res_ev(r, "also", "%s", w->detail.buf);
		sb_release(&w->detail);
		w->detail = d;
		w->st = st;
		w->kb = kb;
		w->set = true;
	} else {
		res_ev(r, "also", "%s", d.buf);
		sb_release(&d);
	}
}

void res_finish(struct result *r, struct res_worst *w)
{
	res_set(r, w->st, w->kb, "%s", sb_str(&w->detail));
	sb_release(&w->detail);
}

/* ---- wire format ---- */

#define WIRE_MAX_RECORD (1u << 20)

void wire_put(int fd, char type, const void *data, size_t len)
{
	if (len > WIRE_MAX_RECORD)
		len = WIRE_MAX_RECORD;
	unsigned char hdr[5] = { (unsigned char)type, (unsigned char)(len & 0xff),
				 (unsigned char)((len >> 8) & 0xff),
				 (unsigned char)((len >> 16) & 0xff),
				 (unsigned char)((len >> 24) & 0xff) };
	struct strbuf sb = STRBUF_INIT;
	sb_addn(&sb, hdr, sizeof hdr);
	sb_addn(&sb, data, len);
	size_t off = 0;
	while (off < sb.len) {
		ssize_t n = write(fd, sb.buf + off, sb.len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		off += (size_t)n;
	}
	sb_release(&sb);
}

void wire_put_result(int fd, const struct result *r)
{
	unsigned char st = (unsigned char)r->status;
	for (size_t i = 0; i < r->nev; i++) {
		struct strbuf sb = STRBUF_INIT;
		sb_add(&sb, r->ev[i].key);
		sb_addc(&sb, '\0');
		sb_add(&sb, r->ev[i].val);
		wire_put(fd, 'E', sb.buf, sb.len);
		sb_release(&sb);
	}
	if (r->kb)
		wire_put(fd, 'K', r->kb, strlen(r->kb));
	if (r->detail)
		wire_put(fd, 'D', r->detail, strlen(r->detail));
	/* Status last: its arrival marks a complete result. */
	wire_put(fd, 'S', &st, 1);
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
				ev_add(r, key, dup_payload(nul + 1, n - kl - 1));
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
