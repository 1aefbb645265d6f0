/* mountinfo.c: /proc/self/mountinfo. See mountinfo.h. */
#include "mountinfo.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/rootfs.h"

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

void mountinfo_unescape(const char *s, size_t n, struct strbuf *out)
{
	sb_reset(out);
	sb_addn(out, "", 0);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && n - i >= 4 && is_octal(s[i + 1]) && is_octal(s[i + 2]) &&
		    is_octal(s[i + 3])) {
			unsigned v = (unsigned)(s[i + 1] - '0') * 64 + (unsigned)(s[i + 2] - '0') * 8 +
				     (unsigned)(s[i + 3] - '0');
			sb_addc(out, (char)(v & 0xff));
			i += 3;
		} else {
			sb_addc(out, s[i]);
		}
	}
}

static char *unescaped(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	mountinfo_unescape(s, n, &sb);
	return sb_detach(&sb);
}

/* Parses an unsigned decimal of exactly n bytes; false on anything else. */
static bool parse_ulong(const char *s, size_t n, unsigned long *v)
{
	if (n == 0 || n > 19)
		return false;
	unsigned long x = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + (unsigned long)(s[i] - '0');
	}
	*v = x;
	return true;
}

struct token {
	const char *s;
	size_t n;
};

/* Parses one line; returns false if it is not a mountinfo line. */
static bool parse_line(const char *line, size_t len, struct mount_entry *e)
{
	struct token head[6], tail[3];
	size_t nhead = 0, ntail = 0;
	bool sep = false;
	struct strbuf optional = STRBUF_INIT;
	size_t pos = 0;
	while (pos < len) {
		while (pos < len && (line[pos] == ' ' || line[pos] == '\t'))
			pos++;
		if (pos >= len)
			break;
		size_t start = pos;
		while (pos < len && line[pos] != ' ' && line[pos] != '\t')
			pos++;
		struct token t = { line + start, pos - start };
		if (nhead < 6) {
			head[nhead++] = t;
		} else if (!sep) {
			if (t.n == 1 && t.s[0] == '-') {
				sep = true;
			} else {
				if (optional.len)
					sb_addc(&optional, ' ');
				sb_addn(&optional, t.s, t.n);
			}
		} else if (ntail < 3) {
			tail[ntail++] = t;
		}
		/* Extra tokens after the super options are ignored. */
	}
	bool ok = nhead == 6 && sep && ntail >= 2;
	unsigned long maj = 0, min = 0;
	const char *colon = ok ? memchr(head[2].s, ':', head[2].n) : NULL;
	if (ok && (!colon || !parse_ulong(head[0].s, head[0].n, &e->id) ||
		   !parse_ulong(head[1].s, head[1].n, &e->parent) ||
		   !parse_ulong(head[2].s, (size_t)(colon - head[2].s), &maj) ||
		   !parse_ulong(colon + 1, head[2].n - (size_t)(colon - head[2].s) - 1, &min)))
		ok = false;
	if (ok && (head[4].n == 0 || head[4].s[0] != '/'))
		ok = false; /* a mount point is always absolute */
	if (!ok) {
		sb_release(&optional);
		return false;
	}
	e->major = (unsigned)maj;
	e->minor = (unsigned)min;
	e->root = unescaped(head[3].s, head[3].n);
	e->mount_point = unescaped(head[4].s, head[4].n);
	e->options = unescaped(head[5].s, head[5].n);
	e->optional = sb_detach(&optional);
	e->fstype = unescaped(tail[0].s, tail[0].n);
	e->source = unescaped(tail[1].s, tail[1].n);
	e->super_options = ntail == 3 ? unescaped(tail[2].s, tail[2].n) : xstrdup("");
	return true;
}

typedef bool (*line_parser)(const char *line, size_t len, struct mount_entry *e);

/* One line of a mount table, at lineno. pasted: also drop the blanks and
 * the quote marks ("> ") a paste adds around a line. */
static void table_line(struct mountinfo *mi, size_t *alloc, const char *l, size_t n, int lineno,
		       line_parser fn, bool pasted)
{
	while (pasted && n && (*l == ' ' || *l == '\t' || *l == '>')) {
		l++;
		n--;
	}
	while (n && (l[n - 1] == '\r' || (pasted && (l[n - 1] == ' ' || l[n - 1] == '\t'))))
		n--;
	bool blank = true;
	for (size_t i = 0; i < n; i++)
		if (l[i] != ' ' && l[i] != '\t') {
			blank = false;
			break;
		}
	if (blank)
		return;
	struct mount_entry e;
	memset(&e, 0, sizeof e);
	if (fn(l, n, &e)) {
		if (mi->n == *alloc) {
			*alloc = *alloc ? *alloc * 2 : 32;
			mi->m = xrealloc(mi->m, *alloc * sizeof *mi->m);
		}
		e.line = lineno;
		mi->m[mi->n++] = e;
	} else {
		mi->bad_lines++;
	}
}

/* Walks the lines of a mount table in a buffer. Never fails. */
static size_t parse_table(const char *buf, size_t len, struct mountinfo *mi, line_parser fn,
			  bool pasted)
{
	memset(mi, 0, sizeof *mi);
	size_t alloc = 0;
	const char *p = buf, *end = buf ? buf + len : buf;
	int lineno = 0;
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *l = p;
		lineno++;
		p = nl ? nl + 1 : end;
		table_line(mi, &alloc, l, (size_t)(eol - l), lineno, fn, pasted);
	}
	return mi->n;
}

static void entry_free(struct mount_entry *e);

/* mountinfo_read's bounds: far above a real table (100,000 container
 * mounts are about 20 MB), low enough that a file of junk costs seconds
 * at most. */
#define READ_MAX_BYTES (64u << 20)

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Mount point -> entry index, open addressing (index + 1; 0 empty). */
struct mp_set {
	size_t *slot;
	size_t cap;
};

static size_t *mp_find(struct mp_set *set, const struct mountinfo *mi, const char *mp)
{
	size_t i = (size_t)hash_str(mp) & (set->cap - 1);
	while (set->slot[i] && strcmp(mi->m[set->slot[i] - 1].mount_point, mp) != 0)
		i = (i + 1) & (set->cap - 1);
	return &set->slot[i];
}

/* Rehashes the first n entries into a table twice the size. */
static void mp_grow(struct mp_set *set, const struct mountinfo *mi, size_t n)
{
	struct mp_set bigger = { xcalloc(set->cap ? 2 * set->cap : 1024, sizeof(size_t)),
				 set->cap ? 2 * set->cap : 1024 };
	for (size_t k = 0; k < n; k++)
		*mp_find(&bigger, mi, mi->m[k].mount_point) = k + 1;
	free(set->slot);
	*set = bigger;
}

int mountinfo_read(const char *guest, struct mountinfo *mi)
{
	memset(mi, 0, sizeof *mi);
	struct rootfs_lines l;
	int rc = rootfs_lines_open(&l, guest);
	if (rc < 0)
		return rc;
	size_t alloc = 0;
	struct mp_set set = { NULL, 0 };
	bool cut = false;
	while (rootfs_lines_next(&l) > 0) {
		if (l.bytes > READ_MAX_BYTES) {
			cut = true;
			break;
		}
		size_t before = mi->n;
		table_line(mi, &alloc, l.line, l.len, l.lineno > INT_MAX ? INT_MAX : (int)l.lineno,
			   parse_line, false);
		if (mi->n == before)
			continue;
		/* One entry per mount point, the last one listed: it is the one
		 * on top, which is what mountinfo_find answers, and a table of
		 * the same line repeated costs one entry. */
		if (10 * (mi->n + 1) > 7 * set.cap)
			mp_grow(&set, mi, mi->n - 1); /* all but the new one */
		size_t *at = mp_find(&set, mi, mi->m[mi->n - 1].mount_point);
		if (*at) {
			struct mount_entry *old = &mi->m[*at - 1];
			entry_free(old);
			*old = mi->m[--mi->n];
		} else {
			*at = mi->n;
		}
	}
	free(set.slot);
	if (cut) {
		char what[96];
		snprintf(what, sizeof what, "read only its first %u MiB", READ_MAX_BYTES >> 20);
		rootfs_note_cut(guest, what);
	}
	rc = l.err;
	rootfs_lines_close(&l);
	if (rc < 0 && !mi->n) {
		mountinfo_free(mi);
		return rc;
	}
	return mi->n > INT_MAX ? INT_MAX : (int)mi->n;
}

size_t mountinfo_parse(const char *buf, size_t len, struct mountinfo *mi)
{
	return parse_table(buf, len, mi, parse_line, false);
}

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Fills e from the four fields; false (nothing allocated) if they are not
 * a mount: the mount point must be absolute and the type one word. */
static bool mounts_entry(struct mount_entry *e, struct token src, struct token mp,
			 struct token type, struct token opts)
{
	if (!mp.n || mp.s[0] != '/' || !type.n || memchr(type.s, ' ', type.n) || !src.n)
		return false;
	e->root = xstrdup("");
	e->mount_point = unescaped(mp.s, mp.n);
	e->options = unescaped(opts.s, opts.n);
	e->optional = xstrdup("");
	e->fstype = unescaped(type.s, type.n);
	e->source = unescaped(src.s, src.n);
	e->super_options = unescaped(opts.s, opts.n);
	return true;
}

/* "source on mount-point type fstype (options)", as mount(8) lists. */
static bool mount8_line(const char *l, size_t n, struct mount_entry *e)
{
	if (n < 2 || l[n - 1] != ')')
		return false;
	const char *open = NULL;
	for (size_t i = n - 1; i > 0; i--)
		if (l[i] == '(' && l[i - 1] == ' ') {
			open = l + i;
			break;
		}
	if (!open)
		return false;
	size_t head = (size_t)(open - 1 - l);
	const char *type = NULL;
	for (size_t i = head; i >= 6; i--)
		if (!memcmp(l + i - 6, " type ", 6)) {
			type = l + i;
			break;
		}
	const char *on = type ? memmem(l, (size_t)(type - 6 - l), " on ", 4) : NULL;
	if (!on)
		return false;
	struct token src = { l, (size_t)(on - l) };
	struct token mp = { on + 4, (size_t)(type - 6 - (on + 4)) };
	struct token ty = { type, (size_t)(l + head - type) };
	struct token op = { open + 1, (size_t)(l + n - 1 - (open + 1)) };
	return mounts_entry(e, src, mp, ty, op);
}

/* "source mount-point fstype options dump pass", as /proc/mounts holds. */
static bool fstab_line(const char *l, size_t n, struct mount_entry *e)
{
	struct token t[7];
	size_t nt = 0, pos = 0;
	while (pos < n && nt < 7) {
		while (pos < n && (l[pos] == ' ' || l[pos] == '\t'))
			pos++;
		if (pos >= n)
			break;
		size_t start = pos;
		while (pos < n && l[pos] != ' ' && l[pos] != '\t')
			pos++;
		t[nt].s = l + start;
		t[nt].n = pos - start;
		nt++;
	}
	if (nt != 6 || !all_digits(t[4].s, t[4].n) || !all_digits(t[5].s, t[5].n))
		return false;
	return mounts_entry(e, t[0], t[1], t[2], t[3]);
}

static bool mounts_line(const char *l, size_t n, struct mount_entry *e)
{
	return mount8_line(l, n, e) || fstab_line(l, n, e);
}

size_t mounts_parse(const char *buf, size_t len, struct mountinfo *mi)
{
	return parse_table(buf, len, mi, mounts_line, true);
}

static void entry_free(struct mount_entry *e)
{
	free(e->root);
	free(e->mount_point);
	free(e->options);
	free(e->optional);
	free(e->fstype);
	free(e->source);
	free(e->super_options);
}

void mountinfo_free(struct mountinfo *mi)
{
	for (size_t i = 0; i < mi->n; i++)
		entry_free(&mi->m[i]);
	free(mi->m);
	memset(mi, 0, sizeof *mi);
}

const struct mount_entry *mountinfo_find(const struct mountinfo *mi, const char *path)
{
	const struct mount_entry *best = NULL;
	size_t best_len = 0;
	if (!path || path[0] != '/')
		return NULL;
	for (size_t i = 0; i < mi->n; i++) {
		const char *mp = mi->m[i].mount_point;
		size_t l = strlen(mp);
		while (l > 1 && mp[l - 1] == '/')
			l--; /* tolerate "/mnt/c/" */
		bool hit;
		if (l == 1 && mp[0] == '/')
			hit = true;
		else
			hit = strncmp(path, mp, l) == 0 && (path[l] == '\0' || path[l] == '/');
		if (hit && (!best || l >= best_len)) {
			best = &mi->m[i];
			best_len = l;
		}
	}
	return best;
}

bool mountinfo_option(const char *options, const char *name, struct strbuf *value)
{
	size_t nlen = strlen(name);
	const char *p = options;
	if (!p || !nlen)
		return false;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n >= nlen && memcmp(p, name, nlen) == 0 && (n == nlen || p[nlen] == '=')) {
			if (value) {
				sb_reset(value);
				sb_addn(value, "", 0);
				if (n > nlen)
					sb_addn(value, p + nlen + 1, n - nlen - 1);
			}
			return true;
		}
		if (!comma)
			return false;
		p = comma + 1;
	}
}

bool mountinfo_windows_drive(const struct mount_entry *m, const char *automount_root)
{
	if (!m || !m->fstype)
		return false;
	if (!strcmp(m->fstype, "drvfs"))
		return true;
	if (!strcmp(m->fstype, "9p")) {
		struct strbuf v = STRBUF_INIT;
		bool drive = mountinfo_option(m->super_options, "aname", &v) &&
			     !strncmp(v.buf, "drvfs", 5) &&
			     (v.buf[5] == '\0' || v.buf[5] == ';' || v.buf[5] == 'a');
		sb_release(&v);
		return drive;
	}
	if (!strcmp(m->fstype, "virtiofs")) {
		const char *root = automount_root && *automount_root ? automount_root : "/mnt/";
		size_t n = strlen(root);
		while (n > 1 && root[n - 1] == '/')
			n--;
		return !strncmp(m->mount_point, root, n) && m->mount_point[n] == '/' &&
		       m->mount_point[n + 1] != '\0';
	}
	return false;
}
