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

/* s[0..n) with \ooo decoded into dst (room for n bytes); returns the
 * length written. Runs without a backslash are copied whole. */
static size_t unescape_to(char *dst, const char *s, size_t n)
{
	size_t w = 0, i = 0;
	while (i < n) {
		const char *bs = memchr(s + i, '\\', n - i);
		size_t run = bs ? (size_t)(bs - (s + i)) : n - i;
		memcpy(dst + w, s + i, run);
		w += run;
		i += run;
		if (i >= n)
			break;
		if (n - i >= 4 && is_octal(s[i + 1]) && is_octal(s[i + 2]) && is_octal(s[i + 3])) {
			unsigned v = (unsigned)(s[i + 1] - '0') * 64 + (unsigned)(s[i + 2] - '0') * 8 +
				     (unsigned)(s[i + 3] - '0');
			dst[w++] = (char)(v & 0xff);
			i += 4;
		} else {
			dst[w++] = s[i++];
		}
	}
	return w;
}

void mountinfo_unescape(const char *s, size_t n, struct strbuf *out)
{
	sb_reset(out);
	sb_grow(out, n);
	out->len = unescape_to(out->buf, s, n);
	out->buf[out->len] = '\0';
}

/* One field of an entry: its bytes, unescaped or as they are. */
struct field {
	const char *s;
	size_t n;
	bool raw;
};

#define ENTRY_FIELDS 7
/* The seven strings of an entry in one allocation (root, mount point,
 * options, optional, fstype, source, super options, in that order: root
 * owns the block, entry_free frees it). Returns the block's size. */
static size_t pack(struct mount_entry *e, const struct field f[ENTRY_FIELDS])
{
	size_t size = 0;
	for (int i = 0; i < ENTRY_FIELDS; i++)
		size += f[i].n + 1;
	char *b = xmalloc(size), *p = b;
	char **dst[ENTRY_FIELDS] = { &e->root, &e->mount_point, &e->options, &e->optional,
				     &e->fstype, &e->source, &e->super_options };
	for (int i = 0; i < ENTRY_FIELDS; i++) {
		*dst[i] = p;
		if (f[i].raw) {
			memcpy(p, f[i].s, f[i].n);
			p += f[i].n;
		} else {
			p += unescape_to(p, f[i].s, f[i].n);
		}
		*p++ = '\0';
	}
	return size;
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
	/* The optional fields joined by single spaces: as they stand when
	 * the line has single spaces between them, else copied. */
	struct strbuf optional = STRBUF_INIT;
	const char *opt_start = NULL, *opt_end = NULL;
	bool opt_copied = false;
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
			} else if (!opt_start) {
				opt_start = t.s;
				opt_end = t.s + t.n;
			} else {
				if (!opt_copied && (t.s != opt_end + 1 || *opt_end != ' ')) {
					sb_addn(&optional, opt_start, (size_t)(opt_end - opt_start));
					opt_copied = true;
				}
				if (opt_copied) {
					sb_addc(&optional, ' ');
					sb_addn(&optional, t.s, t.n);
				}
				opt_end = t.s + t.n;
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
	if (ok) {
		e->major = (unsigned)maj;
		e->minor = (unsigned)min;
		struct field f[ENTRY_FIELDS] = {
			{ head[3].s, head[3].n, false },
			{ head[4].s, head[4].n, false },
			{ head[5].s, head[5].n, false },
			{ opt_copied ? optional.buf : opt_start ? opt_start : "",
			  opt_copied ? optional.len : opt_start ? (size_t)(opt_end - opt_start) : 0, true },
			{ tail[0].s, tail[0].n, false },
			{ tail[1].s, tail[1].n, false },
			{ ntail == 3 ? tail[2].s : "", ntail == 3 ? tail[2].n : 0, false },
		};
		pack(e, f);
	}
	sb_release(&optional);
	return ok;
}

typedef bool (*line_parser)(const char *line, size_t len, struct mount_entry *e);

/* A line of a mount table without its CR; pasted: also without the blanks
 * and the quote marks ("> ") a paste adds around it. False when nothing
 * is left but blanks. */
static bool trim_line(const char **line, size_t *len, bool pasted)
{
	const char *l = *line;
	size_t n = *len;
	while (pasted && n && (*l == ' ' || *l == '\t' || *l == '>')) {
		l++;
		n--;
	}
	while (n && (l[n - 1] == '\r' || (pasted && (l[n - 1] == ' ' || l[n - 1] == '\t'))))
		n--;
	*line = l;
	*len = n;
	for (size_t i = 0; i < n; i++)
		if (l[i] != ' ' && l[i] != '\t')
			return true;
	return false;
}

/* One line of a mount table, at lineno. */
static void table_line(struct mountinfo *mi, size_t *alloc, const char *l, size_t n, int lineno,
		       line_parser fn, bool pasted)
{
	if (!trim_line(&l, &n, pasted))
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

/* The first n entries indexed again, in a table of cap slots (0: twice the
 * present size). */
static void mp_rebuild(struct mp_set *set, const struct mountinfo *mi, size_t n, size_t cap)
{
	if (!cap)
		cap = set->cap ? 2 * set->cap : 1024;
	struct mp_set fresh = { xcalloc(cap, sizeof(size_t)), cap };
	for (size_t k = 0; k < n; k++)
		*mp_find(&fresh, mi, mi->m[k].mount_point) = k + 1;
	free(set->slot);
	*set = fresh;
}

/*
 * How much a mount matters, for what is kept when a table does not fit
 * MOUNTINFO_MAX_MEMORY: 3, always kept (within the bound itself): the root,
 * Windows drives and WSL's other 9p mounts (9p, drvfs, virtiofs), WSL's
 * library and driver store mounts (/usr/lib/wsl), and any mount inside a
 * Windows drive (it decides whether a path there is on the drive or not);
 * then the fewer components, the more it matters: one (/home, /data), two
 * (/mnt/wsl, /home/user), three or four, then deeper ones (container
 * layers: /var/lib/docker/overlay2/ID/merged), dropped first. A rank goes
 * whole, and is not taken in again.
 */
enum { RANK_DEEP, RANK_MID, RANK_TWO, RANK_ONE, RANK_KEEP, RANKS };

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

static bool windows_fstype(const char *fstype)
{
	return !strcmp(fstype, "9p") || !strcmp(fstype, "drvfs") || !strcmp(fstype, "virtiofs");
}

/* What mountinfo_read keeps while it reads. */
struct keeper {
	struct mountinfo *mi;
	size_t alloc;       /* of mi->m */
	struct mp_set set;
	size_t count[RANKS];
	int admit;          /* the least rank still taken in */
	size_t budget;
	/* Mount points of the Windows-ish mounts kept (for RANK_KEEP of what
	 * is inside them); the first ones, a few dozen in any real table. */
	char *win[64];
	size_t nwin;
	unsigned char *rank; /* per entry */
};

#define ENTRY_OVERHEAD 16 /* malloc's own, per block */

static size_t entry_cost(const struct mount_entry *e)
{
	/* The block pack made: seven strings and their NULs. */
	size_t n = 0;
	const char *f[ENTRY_FIELDS] = { e->root, e->mount_point, e->options, e->optional,
					e->fstype, e->source, e->super_options };
	for (int i = 0; i < ENTRY_FIELDS; i++)
		n += strlen(f[i]) + 1;
	return n + ENTRY_OVERHEAD;
}

static int rank_of(const struct keeper *k, const struct mount_entry *e)
{
	const char *mp = e->mount_point;
	if (windows_fstype(e->fstype) || !strcmp(mp, "/") || under(mp, "/usr/lib/wsl"))
		return RANK_KEEP;
	for (size_t i = 0; i < k->nwin; i++)
		if (under(mp, k->win[i]))
			return RANK_KEEP;
	int depth = 0;
	for (const char *p = mp; *p; p++)
		depth += *p == '/' && p[1] && p[1] != '/';
	return depth <= 1 ? RANK_ONE : depth == 2 ? RANK_TWO : depth <= 4 ? RANK_MID : RANK_DEEP;
}

/* What the kept entries hold: their records (the array as allocated),
 * their strings, the index and the ranks. */
static size_t keeper_bytes(const struct keeper *k)
{
	return k->alloc * (sizeof(struct mount_entry) + 1) + k->set.cap * sizeof(size_t) +
	       k->mi->bytes;
}

/* Every entry of rank r dropped; the index and the sums rebuilt. */
static void drop_rank(struct keeper *k, int r)
{
	struct mountinfo *mi = k->mi;
	size_t w = 0;
	for (size_t i = 0; i < mi->n; i++) {
		if (k->rank[i] == r) {
			mi->bytes -= entry_cost(&mi->m[i]);
			entry_free(&mi->m[i]);
			mi->dropped++;
			continue;
		}
		mi->m[w] = mi->m[i];
		k->rank[w++] = k->rank[i];
	}
	mi->n = w;
	k->count[r] = 0;
	mp_rebuild(&k->set, mi, mi->n, k->set.cap);
}

/* Takes the parsed entry e (its owner now). */
static void keep(struct keeper *k, struct mount_entry *e)
{
	struct mountinfo *mi = k->mi;
	if (!k->set.cap)
		mp_rebuild(&k->set, mi, 0, 1024);
	size_t cost = entry_cost(e);
	/* One entry per mount point, the last one listed: it is the one on
	 * top, which is what mountinfo_find answers, and a table of the same
	 * line repeated costs one entry. It replaces the one before whatever
	 * its rank (an older entry answering for that path would be wrong). */
	size_t *at = mp_find(&k->set, mi, e->mount_point);
	int r = rank_of(k, e);
	if (*at) {
		size_t i = *at - 1;
		mi->bytes -= entry_cost(&mi->m[i]);
		entry_free(&mi->m[i]);
		mi->m[i] = *e;
		mi->bytes += cost;
		k->count[k->rank[i]]--;
		k->count[r]++;
		k->rank[i] = (unsigned char)r;
		/* A longer line in its place can go past the budget: then the
		 * lowest ranks go, this one's too if it is the lowest. */
		while (keeper_bytes(k) > k->budget && mi->n) {
			int low = RANK_DEEP;
			while (!k->count[low])
				low++;
			drop_rank(k, low);
			if (k->admit < low + 1)
				k->admit = low + 1;
		}
		return;
	}
	for (;;) {
		if (r < k->admit)
			break;
		size_t grow_slots = 10 * (mi->n + 1) > 7 * k->set.cap ? k->set.cap : 0;
		size_t grow_array = mi->n == k->alloc ? (k->alloc ? k->alloc / 2 : 32) : 0;
		size_t need = cost + grow_slots * sizeof(size_t) +
			      grow_array * (sizeof(struct mount_entry) + 1);
		if (keeper_bytes(k) + need <= k->budget) {
			if (grow_array) {
				k->alloc += grow_array;
				mi->m = xrealloc(mi->m, k->alloc * sizeof *mi->m);
				k->rank = xrealloc(k->rank, k->alloc);
			}
			if (grow_slots) {
				mp_rebuild(&k->set, mi, mi->n, 0);
				at = mp_find(&k->set, mi, e->mount_point);
			}
			mi->m[mi->n] = *e;
			k->rank[mi->n] = (unsigned char)r;
			*at = ++mi->n;
			mi->bytes += cost;
			k->count[r]++;
			if (windows_fstype(e->fstype) && k->nwin < sizeof k->win / sizeof k->win[0])
				k->win[k->nwin++] = xstrdup(e->mount_point);
			return;
		}
		/* No room: the lowest rank kept goes, if it is below this one;
		 * else this one and every later one of its rank stay out. */
		int low = RANK_DEEP;
		while (low < r && !k->count[low])
			low++;
		if (low >= r) {
			k->admit = r + 1;
			break;
		}
		drop_rank(k, low);
		if (k->admit < low + 1)
			k->admit = low + 1;
		at = mp_find(&k->set, mi, e->mount_point);
	}
	entry_free(e);
	mi->dropped++;
}

static void keeper_init(struct keeper *k, struct mountinfo *mi, size_t budget)
{
	memset(mi, 0, sizeof *mi);
	memset(k, 0, sizeof *k);
	k->mi = mi;
	k->budget = budget;
}

static void keeper_line(struct keeper *k, const char *l, size_t n, int lineno)
{
	if (!trim_line(&l, &n, false))
		return;
	struct mount_entry e;
	memset(&e, 0, sizeof e);
	if (!parse_line(l, n, &e)) {
		k->mi->bad_lines++;
		return;
	}
	e.line = lineno;
	keep(k, &e);
}

static void keeper_done(struct keeper *k)
{
	free(k->set.slot);
	free(k->rank);
	for (size_t i = 0; i < k->nwin; i++)
		free(k->win[i]);
}

size_t mountinfo_parse_bounded(const char *buf, size_t len, size_t budget, struct mountinfo *mi)
{
	struct keeper k;
	keeper_init(&k, mi, budget);
	const char *p = buf, *end = buf ? buf + len : buf;
	int lineno = 0;
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		keeper_line(&k, p, (size_t)(eol - p), ++lineno);
		p = nl ? nl + 1 : end;
	}
	keeper_done(&k);
	return mi->n;
}

int mountinfo_read(const char *guest, struct mountinfo *mi)
{
	memset(mi, 0, sizeof *mi);
	struct rootfs_lines l;
	int rc = rootfs_lines_open(&l, guest);
	if (rc < 0)
		return rc;
	struct keeper k;
	keeper_init(&k, mi, MOUNTINFO_MAX_MEMORY);
	bool cut = false;
	while (rootfs_lines_next(&l) > 0) {
		if (l.bytes > READ_MAX_BYTES) {
			cut = true;
			break;
		}
		keeper_line(&k, l.line, l.len, l.lineno > INT_MAX ? INT_MAX : (int)l.lineno);
	}
	keeper_done(&k);
	if (cut || mi->dropped) {
		char what[200];
		int w = 0;
		if (cut)
			w = snprintf(what, sizeof what, "read only its first %u MiB%s", READ_MAX_BYTES >> 20,
				     mi->dropped ? "; " : "");
		if (mi->dropped)
			snprintf(what + w, sizeof what - (size_t)w,
				 "kept %zu of %zu mount points (%u MiB at most: the deepest went first)",
				 mi->n, mi->n + mi->dropped, MOUNTINFO_MAX_MEMORY >> 20);
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
	struct field f[ENTRY_FIELDS] = {
		{ "", 0, true },	  { mp.s, mp.n, false },     { opts.s, opts.n, false },
		{ "", 0, true },	  { type.s, type.n, false }, { src.s, src.n, false },
		{ opts.s, opts.n, false },
	};
	pack(e, f);
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
	free(e->root); /* the block of all seven (pack) */
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
