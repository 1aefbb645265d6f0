/*
 * redact.c: the redactor behind `wslgpu report` (see redact.h).
 *
 * One left-to-right pass over the bytes. At each position, in this order:
 * a placeholder we wrote is copied as it is (so redacting twice is a no-op);
 * a context that says what the next word is (/home/NAME, Users\NAME,
 * KEY=VALUE with a secret-looking KEY, USER=, HOSTNAME=, "Serial Number :",
 * scheme://[user[:password]@]host, NO_PROXY lists, "# password: ..." in a
 * comment) replaces that word and learns it; secrets of a known shape
 * (private key blocks, conda channel tokens, ghp_/glpat-/AKIA... tokens, a
 * random word after a secret-like one) are replaced wherever they are; a
 * value known from the machine or learned earlier is replaced (longest
 * first); then MAC addresses, UUIDs, IPv6 and IPv4 addresses are
 * recognised by shape.
 *
 * Known values live in one hash table keyed by the lower-cased value, so
 * the same value always gets the same placeholder, whichever rule found it.
 * Values replaced anywhere ("global") are capped per category, so hostile
 * input with a million home paths costs memory and time in proportion to
 * its size, not its square.
 */
#include "redact.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/rootfs.h"
#include "../facts/wslhost.h"
#include "../parse/inifile.h"

/* Values shorter than these are replaced only in their context. */
#define MIN_NAME 3
#define MIN_SECRET 6
#define MIN_SERIAL 4
/* Global (replaced-anywhere) values per category; more are context-only. */
#define MAX_GLOBAL 256
/* A placeholder is "<tag-N>"; no tag is longer than this. */
#define MAX_PLACEHOLDER 24
/* What redact_scrub_results puts for a secret. */
#define SECRET_MARK "<secret>"
/* How far back a version keyword protects a dotted quad. */
#define VERSION_LOOKBACK 32

struct value {
	enum redact_cat cat;
	char *v;
	size_t len;
	bool global; /* replaced anywhere, not only in its context */
	bool word;   /* only as a whole word (names) */
	bool exact;  /* case-sensitive (secrets) */
	unsigned num; /* placeholder number, 0 until first used */
};

struct redactor {
	struct value *v;
	size_t n, alloc;
	size_t *slot; /* hash table of indices + 1; 0 is empty */
	size_t nslot;
	size_t *glob; /* global values, longest first */
	size_t nglob;
	bool glob_dirty;
	bool first[256]; /* lower-cased first bytes of global values */
	size_t nglobal_cat[REDACT__COUNT];
	unsigned next[REDACT__COUNT];
	size_t hits[REDACT__COUNT];
	bool secrets_only; /* redact_scrub_results: secrets, as "<secret>" */
};

static const char *const tags[REDACT__COUNT] = {
	"user", "host", "ip", "mac", "machine-id", "uuid", "serial", "secret",
};
static const char *const titles[REDACT__COUNT] = {
	"user names (Linux and Windows, home folders)",
	"host names (the machine's, a company's servers)",
	"IP addresses (IPv4, IPv6)",
	"MAC addresses",
	"machine ids",
	"UUIDs (GPU UUIDs and others)",
	"serial numbers",
	/* one literal: clang reads two in an array as a missing comma */
	"secrets (TOKEN, KEY, PASSWORD... values; URL credentials; tokens; private keys)",
};

const char *redact_cat_tag(enum redact_cat cat) { return tags[cat]; }
const char *redact_cat_title(enum redact_cat cat) { return titles[cat]; }

/* Names that say nothing about a person: replaced only in context, so that
 * a user called "user" does not turn every "user" of the text into <user-1>. */
static const char *const generic_names[] = {
	"user", "users", "root", "ubuntu", "debian", "admin", "administrator", "default",
	"public", "guest", "nobody", "test", "dev", "docker", "wsl", "home", "nvidia",
	"cuda", "local", "localhost", "localhost.localdomain", "runner", "vscode", "git",
	"none", "null", NULL,
};
/* Values of secret-looking settings that are not secrets. */
static const char *const non_secrets[] = {
	"none", "null", "nil", "n/a", "[n/a]", "true", "false", "yes", "no", "on", "off",
	"unset", "enabled", "disabled", "0", "1", NULL,
};
/* Folders of C:\Users that belong to no person. */
static const char *const windows_system_folders[] = {
	"default", "public", "all users", "default user", "desktop.ini", "defaultuser0",
	"wdagutilityaccount", NULL,
};

static bool in_list(const char *const *list, const char *s, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && strncasecmp(*list, s, n) == 0)
			return true;
	return false;
}

static bool is_word(unsigned char c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

static uint64_t hash_ci(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)tolower((unsigned char)s[i]);
		h *= 1099511628211ULL;
	}
	return h;
}

struct redactor *redactor_new(void)
{
	struct redactor *r = xcalloc(1, sizeof *r);
	r->nslot = 64;
	r->slot = xcalloc(r->nslot, sizeof *r->slot);
	return r;
}

void redactor_free(struct redactor *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].v);
	free(r->v);
	free(r->slot);
	free(r->glob);
	free(r);
}

static ssize_t find(const struct redactor *r, const char *s, size_t n)
{
	size_t m = r->nslot - 1;
	for (size_t h = (size_t)hash_ci(s, n) & m;; h = (h + 1) & m) {
		size_t k = r->slot[h];
		if (!k)
			return -1;
		const struct value *v = &r->v[k - 1];
		if (v->len == n && strncasecmp(v->v, s, n) == 0)
			return (ssize_t)(k - 1);
	}
}

static void rehash(struct redactor *r)
{
	free(r->slot);
	r->nslot *= 2;
	r->slot = xcalloc(r->nslot, sizeof *r->slot);
	size_t m = r->nslot - 1;
	for (size_t i = 0; i < r->n; i++) {
		size_t h = (size_t)hash_ci(r->v[i].v, r->v[i].len) & m;
		while (r->slot[h])
			h = (h + 1) & m;
		r->slot[h] = i + 1;
	}
}

/*
 * Registers a value; returns its index. A value already known keeps its
 * category and placeholder (first finder wins), but may become global.
 */
static size_t add_value(struct redactor *r, enum redact_cat cat, const char *s, size_t n)
{
	bool global, word = false, exact = false;
	switch (cat) {
	case REDACT_USER:
	case REDACT_HOST:
		global = n >= MIN_NAME && !in_list(generic_names, s, n);
		word = true;
		break;
	case REDACT_SECRET:
		global = n >= MIN_SECRET && !in_list(non_secrets, s, n);
		exact = true;
		break;
	case REDACT_SERIAL:
		global = n >= MIN_SERIAL;
		word = true;
		break;
	case REDACT_IP:
	case REDACT_MAC:
	case REDACT_UUID:
		global = false; /* found by their shape wherever they are */
		break;
	default:
		global = n >= MIN_NAME;
		break;
	}
	if (global && r->nglobal_cat[cat] >= MAX_GLOBAL)
		global = false;
	ssize_t k = find(r, s, n);
	if (k >= 0) {
		struct value *v = &r->v[k];
		if (global && !v->global) {
			v->global = true;
			r->nglobal_cat[v->cat]++;
			r->glob_dirty = true;
		}
		return (size_t)k;
	}
	if (r->n + 1 > r->nslot / 2)
		rehash(r);
	if (r->n == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 32;
		r->v = xrealloc(r->v, r->alloc * sizeof *r->v);
	}
	struct value *v = &r->v[r->n];
	v->cat = cat;
	v->v = xstrndup(s, n);
	v->len = n;
	v->global = global;
	v->word = word;
	v->exact = exact;
	v->num = 0;
	size_t m = r->nslot - 1, h = (size_t)hash_ci(s, n) & m;
	while (r->slot[h])
		h = (h + 1) & m;
	r->slot[h] = r->n + 1;
	if (global) {
		r->nglobal_cat[cat]++;
		r->glob_dirty = true;
	}
	return r->n++;
}

static size_t trim_len(const char *s, size_t n, const char **start)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	*start = s;
	return n;
}

void redact_add(struct redactor *r, enum redact_cat cat, const char *value)
{
	const char *s;
	size_t n = trim_len(value, strlen(value), &s);
	if (n && n < 4096)
		add_value(r, cat, s, n);
}

static int cmp_glob(const void *a, const void *b, void *arg)
{
	const struct redactor *r = arg;
	size_t la = r->v[*(const size_t *)a].len, lb = r->v[*(const size_t *)b].len;
	return la < lb ? 1 : la > lb ? -1 : 0;
}

static void build_glob(struct redactor *r)
{
	if (!r->glob_dirty)
		return;
	free(r->glob);
	r->glob = xcalloc(r->n + 1, sizeof *r->glob);
	r->nglob = 0;
	memset(r->first, 0, sizeof r->first);
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].global) {
			r->glob[r->nglob++] = i;
			r->first[(unsigned char)tolower((unsigned char)r->v[i].v[0])] = true;
			r->first[(unsigned char)toupper((unsigned char)r->v[i].v[0])] = true;
		}
	qsort_r(r->glob, r->nglob, sizeof *r->glob, cmp_glob, r);
	r->glob_dirty = false;
}

bool redact_secret_name(const char *name, size_t len)
{
	static const char *const words[] = {
		"token", "key", "secret", "password", "passwd", "auth", "credential",
		"cookie", "session", NULL,
	};
	/* Desktop session bookkeeping, not secrets. */
	if ((len >= 12 && strncasecmp(name, "XDG_SESSION_", 12) == 0) ||
	    (len == 15 && strncasecmp(name, "DESKTOP_SESSION", 15) == 0))
		return false;
	for (const char *const *w = words; *w; w++) {
		size_t wl = strlen(*w);
		/* the first letter before the call: the scrub of a check's
		 * results asks this of every key it meets */
		for (size_t i = 0; i + wl <= len; i++)
			if (tolower((unsigned char)name[i]) == (*w)[0] &&
			    strncasecmp(name + i, *w, wl) == 0)
				return true;
	}
	return false;
}

/* ---- the scanner ---- */

struct scan {
	struct redactor *r;
	const char *s;
	size_t len;
	size_t from;       /* bytes before this are context (key=), not output */
	struct strbuf *out; /* NULL: learn only */
};

static void emit(struct scan *sc, size_t at, const char *p, size_t n)
{
	if (!sc->out)
		return;
	if (at < sc->from) { /* skip the part that is context */
		size_t skip = sc->from - at;
		if (skip >= n)
			return;
		p += skip;
		n -= skip;
	}
	sb_addn(sc->out, p, n);
}

static void emit_value(struct scan *sc, size_t at, size_t idx)
{
	if (!sc->out || at < sc->from)
		return;
	struct redactor *r = sc->r;
	struct value *v = &r->v[idx];
	if (!v->num)
		v->num = ++r->next[v->cat];
	r->hits[v->cat]++;
	if (r->secrets_only)
		sb_add(sc->out, SECRET_MARK);
	else
		sb_addf(sc->out, "<%s-%u>", tags[v->cat], v->num);
}

/* Length of a placeholder at p ("<user-12>", or the "<secret>" of
 * redact_scrub_results), or 0. */
static size_t placeholder_len(const char *p, size_t n)
{
	size_t i = 1;
	if (n < 5 || p[0] != '<')
		return 0;
	if (n >= sizeof SECRET_MARK - 1 && !memcmp(p, SECRET_MARK, sizeof SECRET_MARK - 1))
		return sizeof SECRET_MARK - 1;
	while (i < n && i < MAX_PLACEHOLDER && (islower((unsigned char)p[i]) || p[i] == '-'))
		i++;
	if (i < 3 || p[i - 1] != '-')
		return 0;
	size_t d = i;
	while (i < n && i < MAX_PLACEHOLDER && isdigit((unsigned char)p[i]))
		i++;
	if (i == d || i >= n || p[i] != '>')
		return 0;
	return i + 1;
}

static bool ci_at(const char *s, size_t len, size_t i, const char *word)
{
	size_t n = strlen(word);
	return i + n <= len && strncasecmp(s + i, word, n) == 0;
}

/* Longest known value (any category, global or not) at s[i] that ends where
 * a delimiter (or the end) follows; returns its index or -1, length in *n. */
static ssize_t known_at(struct scan *sc, size_t i, const char *delims, size_t *n)
{
	struct redactor *r = sc->r;
	ssize_t best = -1;
	*n = 0;
	for (size_t g = 0; g < r->nglob; g++) {
		size_t k = r->glob[g];
		const struct value *v = &r->v[k];
		if (v->len <= *n || i + v->len > sc->len ||
		    strncasecmp(sc->s + i, v->v, v->len) != 0)
			continue;
		size_t e = i + v->len;
		if (e < sc->len && !strchr(delims, sc->s[e]) && sc->s[e] != '\0')
			continue;
		best = (ssize_t)k;
		*n = v->len;
	}
	return best;
}

/* A path component at s[i] ending at a delimiter; its length. */
static size_t component(const struct scan *sc, size_t i, const char *delims)
{
	size_t j = i;
	while (j < sc->len && j - i < 255 && sc->s[j] && !strchr(delims, sc->s[j]))
		j++;
	return j - i;
}

#define HOME_DELIMS "/ \t\r\n\"'`:;,=()<>[]{}|\\"
#define WIN_DELIMS "/\\ \t\r\n\"'`:;,=<>|*?"

/* The user-name component at s[i] after /home/ or Users\: replaced (and
 * learned) unless it is a placeholder or a system folder. Returns the
 * bytes consumed, 0 when nothing was done. */
static size_t user_component(struct scan *sc, size_t i, const char *delims, bool windows)
{
	if (i >= sc->len)
		return 0;
	char c = sc->s[i];
	if (c == '<' || c == '$' || c == '%' || c == '{' || c == '.' || c == '*')
		return 0;
	size_t n;
	ssize_t k = known_at(sc, i, windows ? "/\\\t\r\n\"'`:;,=<>|*?" : HOME_DELIMS, &n);
	if (k < 0) {
		n = component(sc, i, delims);
		if (!n || (windows && in_list(windows_system_folders, sc->s + i, n)) ||
		    (n == 4 && strncmp(sc->s + i, "root", 4) == 0))
			return 0;
		k = (ssize_t)add_value(sc->r, REDACT_USER, sc->s + i, n);
	}
	emit_value(sc, i, (size_t)k);
	return n;
}

/* ...Users\NAME, /Users/NAME, C:\\Users\\NAME at s[i] (a slash). */
static size_t rule_users(struct scan *sc, size_t i)
{
	size_t j = i;
	while (j < sc->len && (sc->s[j] == '/' || sc->s[j] == '\\'))
		j++;
	if (!ci_at(sc->s, sc->len, j, "users"))
		return 0;
	size_t k = j + 5;
	if (k >= sc->len || (sc->s[k] != '/' && sc->s[k] != '\\'))
		return 0;
	while (k < sc->len && (sc->s[k] == '/' || sc->s[k] == '\\'))
		k++;
	return k - i; /* the caller emits the prefix, then the component */
}

/* The key before a separator at s[i]: its start and length (0: none). */
static size_t key_before(const struct scan *sc, size_t i, size_t *start)
{
	size_t j = i;
	while (j > 0 && (sc->s[j - 1] == ' ' || sc->s[j - 1] == '\t'))
		j--;
	if (j > 0 && (sc->s[j - 1] == '"' || sc->s[j - 1] == '\''))
		j--;
	size_t e = j;
	while (j > 0 && e - j < 64) {
		unsigned char c = (unsigned char)sc->s[j - 1];
		if (!isalnum(c) && c != '_' && c != '-' && c != '.')
			break;
		j--;
	}
	*start = j;
	return e - j;
}

enum key_kind { KEY_NONE, KEY_USER, KEY_HOST, KEY_SECRET, KEY_SERIAL };

static enum key_kind classify_key(const struct scan *sc, size_t k, size_t n)
{
	const char *key = sc->s + k;
	static const char *const user_keys[] = { "user", "username", "user_name", "logname",
						 "sudo_user", NULL };
	static const char *const host_keys[] = { "hostname", "host_name", "computername", NULL };
	static const char *const serial_keys[] = { "serial", "serial_number", "serialnumber",
						   "serial-number", NULL };
	if (in_list(user_keys, key, n))
		return KEY_USER;
	if (in_list(host_keys, key, n))
		return KEY_HOST;
	if (in_list(serial_keys, key, n))
		return KEY_SERIAL;
	/* nvidia-smi -q: "Serial Number                         : 0323..." */
	if (n == 6 && strncasecmp(key, "number", 6) == 0 && k > 0) {
		size_t j = k;
		while (j > 0 && sc->s[j - 1] == ' ')
			j--;
		if (j >= 6 && strncasecmp(sc->s + j - 6, "serial", 6) == 0)
			return KEY_SERIAL;
	}
	if (redact_secret_name(key, n))
		return KEY_SECRET;
	return KEY_NONE;
}

/* Whether the line of s[k] is a comment ("# proxy password: ...", "; ...",
 * "// ..."): words before k on it are allowed. */
static bool comment_line(const struct scan *sc, size_t k)
{
	size_t b = k;
	while (b > 0 && sc->s[b - 1] != '\n' && k - b < 80)
		b--;
	while (b < k && (sc->s[b] == ' ' || sc->s[b] == '\t'))
		b++;
	return b < k && (sc->s[b] == '#' || sc->s[b] == ';' ||
			 (sc->s[b] == '/' && b + 1 < k && sc->s[b + 1] == '/'));
}

/* KEY=VALUE, KEY: VALUE, "KEY":"VALUE" at the separator s[i]. */
static size_t rule_assignment(struct scan *sc, size_t i)
{
	char sep = sc->s[i];
	if (i + 1 < sc->len && (sc->s[i + 1] == '=' || sc->s[i + 1] == '>' ||
				(sep == ':' && sc->s[i + 1] == '/') || (sep == ':' && sc->s[i + 1] == ':')))
		return 0;
	if (i > 0 && strchr("=!<>:", sc->s[i - 1]))
		return 0;
	size_t ks, kn = key_before(sc, i, &ks);
	if (!kn)
		return 0;
	enum key_kind kind = classify_key(sc, ks, kn);
	if (kind == KEY_NONE || (sc->r->secrets_only && kind != KEY_SECRET))
		return 0;
	/* "KEY: value" only as a header line or a quoted (JSON) key, so that
	 * prose ("the user: ...") is left alone; KEY=value anywhere. */
	if (sep == ':' && !(ks > 0 && (sc->s[ks - 1] == '"' || sc->s[ks - 1] == '\'')) &&
	    !(kind == KEY_SECRET && comment_line(sc, ks))) {
		size_t b = ks;
		if (kind == KEY_SERIAL && kn == 6 && strncasecmp(sc->s + ks, "number", 6) == 0) {
			while (b > 0 && sc->s[b - 1] == ' ')
				b--;
			b -= 6; /* "Serial" */
		}
		while (b > 0 && (sc->s[b - 1] == ' ' || sc->s[b - 1] == '\t'))
			b--;
		if (b > 0 && sc->s[b - 1] != '\n')
			return 0;
	}
	size_t j = i + 1;
	while (j < sc->len && (sc->s[j] == ' ' || sc->s[j] == '\t'))
		j++;
	/* A JSON value (DOCKER_AUTH_CONFIG={"auths":...}) is not one secret:
	 * the scan goes on inside it, where its own keys say what is secret,
	 * and the text stays JSON. */
	if (j < sc->len && (sc->s[j] == '{' || sc->s[j] == '['))
		return 0;
	char q = 0;
	if (j < sc->len && (sc->s[j] == '"' || sc->s[j] == '\''))
		q = sc->s[j++];
	/* "Authorization: Bearer xyz": the credential is the second word. */
	if (kind == KEY_SECRET && (ci_at(sc->s, sc->len, j, "bearer ") ||
				   ci_at(sc->s, sc->len, j, "basic ") ||
				   ci_at(sc->s, sc->len, j, "token "))) {
		while (j < sc->len && sc->s[j] != ' ')
			j++;
		while (j < sc->len && sc->s[j] == ' ')
			j++;
	}
	size_t vs = j, v = j;
	if (q) {
		while (v < sc->len && sc->s[v] != q && sc->s[v] != '\n' && sc->s[v] != '\0') {
			if (sc->s[v] == '\\' && q == '"' && v + 1 < sc->len)
				v++;
			v++;
		}
	} else {
		/* a name ends at a colon (USER=bob:...), a secret does not */
		bool name = kind == KEY_USER || kind == KEY_HOST;
		const char *stop = name ? ",;}]&)\"':/" : ",;}]&)\"'";
		while (v < sc->len && sc->s[v] && !isspace((unsigned char)sc->s[v]) &&
		       !strchr(stop, sc->s[v]))
			v++;
	}
	if (v > sc->len)
		v = sc->len;
	size_t n = v - vs;
	if (!n || placeholder_len(sc->s + vs, n) == n)
		return 0;
	const char *val = sc->s + vs;
	if (kind == KEY_SECRET && in_list(non_secrets, val, n))
		return 0;
	if (kind == KEY_SERIAL && (in_list(non_secrets, val, n) || (n >= 3 && strncasecmp(val, "N/A", 3) == 0) ||
				   (n >= 4 && strncasecmp(val, "[N/A", 4) == 0) ||
				   (n >= 3 && strncasecmp(val, "Not", 3) == 0)))
		return 0;
	if (kind == KEY_USER && n == 4 && strncmp(val, "root", 4) == 0)
		return 0; /* names no one */
	enum redact_cat cat = kind == KEY_USER ? REDACT_USER : kind == KEY_HOST ? REDACT_HOST
			      : kind == KEY_SERIAL ? REDACT_SERIAL : REDACT_SECRET;
	/* a runaway "value": remember a bounded prefix, replace it whole */
	size_t idx = add_value(sc->r, cat, val, n > 4096 ? 4096 : n);
	emit(sc, i, sc->s + i, vs - i);
	/* "KEY": 12345 in JSON: the placeholder becomes a string, still JSON */
	bool json = !q && ks > 0 && sc->s[ks - 1] == '"';
	if (json)
		emit(sc, vs, "\"", 1);
	emit_value(sc, vs, idx);
	if (json)
		emit(sc, vs, "\"", 1);
	return vs + n - i;
}

/* ---- secrets and names by their shape ---- */

static size_t rule_shapes(struct scan *sc, size_t i);
static bool looks_random(const char *s, size_t n);

static bool tok_char(unsigned char c, const char *extra)
{
	return (c < 0x80 && isalnum(c)) || (c && strchr(extra, c));
}

/*
 * Secrets by their shape: tokens that their issuer gives a fixed prefix
 * (so that leaked ones can be found, which is what lets us find them too),
 * replaced wherever they are, inside a path or a comment. One entry per
 * format: the prefix (case-sensitive, it must start a word), the characters
 * of the rest besides ASCII letters and digits, how long the rest is, and
 * the provider's page that documents the format (or shows one). The shapes
 * that are more than a prefix (JWTs, SendGrid, Discord and Telegram bot
 * tokens, webhook URLs, Azure SAS signatures, PuTTY and PEM keys, an AWS
 * secret key beside its key id) have rules of their own below, listed in
 * redact_shapes too.
 */
enum body { BODY_ANY, BODY_HEX, BODY_UPPER };
static const struct secret_prefix {
	const char *prefix, *extra;
	unsigned short min, max; /* length of the rest (max 0: up to 512) */
	enum body body;
	const char *what, *source;
} prefixes[] = {
	{ "ghp_", "", 20, 0, BODY_ANY, "GitHub personal access token (classic)",
	  "https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/" },
	{ "gho_", "", 20, 0, BODY_ANY, "GitHub OAuth access token",
	  "https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/" },
	{ "ghu_", "", 20, 0, BODY_ANY, "GitHub user-to-server token",
	  "https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/" },
	{ "ghs_", "", 20, 0, BODY_ANY, "GitHub server-to-server (Actions, app) token",
	  "https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/" },
	{ "ghr_", "", 20, 0, BODY_ANY, "GitHub refresh token",
	  "https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/" },
	{ "github_pat_", "_", 20, 0, BODY_ANY, "GitHub fine-grained personal access token",
	  "https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens" },
	{ "glpat-", "_-.", 20, 0, BODY_ANY, "GitLab personal, project or group access token",
	  "https://docs.gitlab.com/security/tokens/#token-prefixes" },
	{ "gldt-", "_-", 20, 0, BODY_ANY, "GitLab deploy token", "https://docs.gitlab.com/security/tokens/#token-prefixes" },
	{ "glrt-", "_-.", 20, 0, BODY_ANY, "GitLab runner authentication token", "https://docs.gitlab.com/security/tokens/#token-prefixes" },
	{ "glptt-", "_-", 20, 0, BODY_ANY, "GitLab pipeline trigger token", "https://docs.gitlab.com/security/tokens/#token-prefixes" },
	{ "glcbt-", "_-", 20, 0, BODY_ANY, "GitLab CI/CD job token", "https://docs.gitlab.com/security/tokens/#token-prefixes" },
	{ "gloas-", "_-", 20, 0, BODY_ANY, "GitLab OAuth application secret", "https://docs.gitlab.com/security/tokens/#token-prefixes" },
	{ "GR1348941", "_-", 20, 0, BODY_ANY, "GitLab runner registration token", "https://docs.gitlab.com/security/tokens/#token-prefixes" },
	{ "xoxb-", "-", 10, 0, BODY_ANY, "Slack bot token", "https://api.slack.com/concepts/token-types" },
	{ "xoxp-", "-", 10, 0, BODY_ANY, "Slack user token", "https://api.slack.com/concepts/token-types" },
	{ "xoxa-", "-", 10, 0, BODY_ANY, "Slack workspace access token", "https://api.slack.com/concepts/token-types" },
	{ "xoxr-", "-", 10, 0, BODY_ANY, "Slack refresh token", "https://api.slack.com/concepts/token-types" },
	{ "xoxs-", "-", 10, 0, BODY_ANY, "Slack session token", "https://api.slack.com/concepts/token-types" },
	{ "xoxe.xoxp-", "-", 10, 0, BODY_ANY, "Slack rotating user token", "https://api.slack.com/authentication/rotation" },
	{ "xoxe-", "-", 10, 0, BODY_ANY, "Slack refresh token (rotation)", "https://api.slack.com/authentication/rotation" },
	{ "xapp-", "-", 10, 0, BODY_ANY, "Slack app-level token", "https://api.slack.com/concepts/token-types" },
	{ "AKIA", "", 16, 16, BODY_UPPER, "AWS access key id",
	  "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids" },
	{ "ASIA", "", 16, 16, BODY_UPPER, "AWS temporary access key id",
	  "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids" },
	{ "ABIA", "", 16, 16, BODY_UPPER, "AWS STS service bearer token id",
	  "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids" },
	{ "ACCA", "", 16, 16, BODY_UPPER, "AWS context-specific credential id",
	  "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids" },
	{ "AIza", "_-", 35, 35, BODY_ANY, "Google API key", "https://cloud.google.com/docs/authentication/api-keys" },
	{ "ya29.", "_-.", 20, 0, BODY_ANY, "Google OAuth 2.0 access token",
	  "https://developers.google.com/identity/protocols/oauth2" },
	{ "GOCSPX-", "_-", 20, 0, BODY_ANY, "Google OAuth client secret",
	  "https://developers.google.com/identity/protocols/oauth2" },
	{ "hf_", "", 30, 0, BODY_ANY, "Hugging Face user access token", "https://huggingface.co/docs/hub/security-tokens" },
	{ "api_org_", "", 30, 0, BODY_ANY, "Hugging Face organization API token", "https://huggingface.co/docs/hub/security-tokens" },
	{ "sk-ant-", "_-", 32, 0, BODY_ANY, "Anthropic API key", "https://docs.anthropic.com/en/api/overview" },
	{ "sk-proj-", "_-", 32, 0, BODY_ANY, "OpenAI project API key", "https://platform.openai.com/docs/api-reference/authentication" },
	{ "sk-svcacct-", "_-", 32, 0, BODY_ANY, "OpenAI service account key", "https://platform.openai.com/docs/api-reference/authentication" },
	{ "sk-admin-", "_-", 32, 0, BODY_ANY, "OpenAI admin key", "https://platform.openai.com/docs/api-reference/authentication" },
	{ "sk-", "_-", 32, 0, BODY_ANY, "OpenAI API key (and others of the sk- family)",
	  "https://platform.openai.com/docs/api-reference/authentication" },
	{ "sk_live_", "", 20, 0, BODY_ANY, "Stripe secret key", "https://docs.stripe.com/keys" },
	{ "rk_live_", "", 20, 0, BODY_ANY, "Stripe restricted key", "https://docs.stripe.com/keys" },
	{ "sk_test_", "", 20, 0, BODY_ANY, "Stripe test secret key", "https://docs.stripe.com/keys" },
	{ "rk_test_", "", 20, 0, BODY_ANY, "Stripe test restricted key", "https://docs.stripe.com/keys" },
	{ "whsec_", "", 20, 0, BODY_ANY, "Stripe webhook signing secret", "https://docs.stripe.com/webhooks" },
	{ "dckr_pat_", "_-", 20, 0, BODY_ANY, "Docker Hub personal access token",
	  "https://docs.docker.com/reference/api/hub/latest/operations/AuthCreateAccessToken.md" },
	{ "dckr_oat_", "_-", 20, 0, BODY_ANY, "Docker Hub organization access token",
	  "https://docs.docker.com/security/for-admins/access-tokens/" },
	{ "nvapi-", "_-", 30, 0, BODY_ANY, "NVIDIA NGC / build.nvidia.com API key",
	  "https://nvidia.github.io/NeMo-Retriever/extraction/api-keys/" },
	{ "npm_", "", 30, 0, BODY_ANY, "npm access token", "https://docs.npmjs.com/about-access-tokens" },
	{ "pypi-", "_-", 50, 0, BODY_ANY, "PyPI API token", "https://pypi.org/help/#apitoken" },
	{ "SK", "", 32, 32, BODY_HEX, "Twilio API key SID", "https://www.twilio.com/docs/iam/api-keys" },
	{ "key-", "", 32, 32, BODY_HEX, "Mailgun API key (legacy format)",
	  "https://documentation.mailgun.com/docs/mailgun/user-manual/get-started/#primary-account-api-key" },
	{ "dop_v1_", "", 64, 64, BODY_HEX, "DigitalOcean personal access token",
	  "https://docs.digitalocean.com/reference/api/create-personal-access-token/" },
	{ "shpat_", "", 32, 32, BODY_HEX, "Shopify admin API access token",
	  "https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens" },
	{ "hvs.", "_-", 24, 0, BODY_ANY, "HashiCorp Vault service token", "https://developer.hashicorp.com/vault/docs/concepts/tokens#token-prefixes" },
	{ "hvb.", "_-", 24, 0, BODY_ANY, "HashiCorp Vault batch token", "https://developer.hashicorp.com/vault/docs/concepts/tokens#token-prefixes" },
	{ "AGE-SECRET-KEY-1", "", 40, 80, BODY_UPPER, "age secret key", "https://age-encryption.org/v1" },
	{ "r8_", "", 30, 0, BODY_ANY, "Replicate API token", "https://replicate.com/docs/topics/security/api-tokens" },
	{ "gsk_", "", 40, 0, BODY_ANY, "Groq API key", "https://console.groq.com/docs/quickstart" },
};

static bool body_ok(unsigned char c, const struct secret_prefix *k)
{
	switch (k->body) {
	case BODY_HEX: return isdigit(c) || (c >= 'a' && c <= 'f');
	case BODY_UPPER: return isdigit(c) || isupper(c);
	default: return tok_char(c, k->extra);
	}
}

/* A token of a known prefix at s[i] (its length, or 0). The prefix must
 * start a word; the rest must be long enough to be a token, and end the word. */
static size_t token_len(const struct scan *sc, size_t i)
{
	/* The prefixes' first bytes, so that a word that starts with none
	 * of them costs one look, not one per prefix. */
	static bool first[256], known;
	if (!known) {
		for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++)
			first[(unsigned char)prefixes[k].prefix[0]] = true;
		known = true;
	}
	if (!first[(unsigned char)sc->s[i]])
		return 0;
	if (i > 0 && tok_char((unsigned char)sc->s[i - 1], "_"))
		return 0;
	for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
		const struct secret_prefix *p = &prefixes[k];
		if (sc->s[i] != p->prefix[0]) /* before strlen: this runs at every word */
			continue;
		size_t pl = strlen(p->prefix);
		if (i + pl > sc->len || memcmp(sc->s + i, p->prefix, pl) != 0)
			continue;
		size_t max = p->max ? p->max : 512;
		size_t j = i + pl;
		while (j < sc->len && j - i - pl <= max && body_ok((unsigned char)sc->s[j], p))
			j++;
		size_t body = j - i - pl;
		if (body < p->min || body > max)
			continue;
		/* a fixed-length token is a whole word (AKIA + 16: not inside a longer one) */
		if (p->max && j < sc->len && tok_char((unsigned char)sc->s[j], ""))
			continue;
		/* "SK" + 32 hex: not inside a hex run or a longer name */
		if (p->body == BODY_HEX && body == 32 && pl == 2 && i > 0 && sc->s[i - 1] == '-')
			continue;
		return j - i;
	}
	return 0;
}

/* Base64url characters (RFC 4648 §5), the alphabet of JWTs and most tokens. */
static size_t b64url_run(const struct scan *sc, size_t i, size_t max)
{
	size_t j = i;
	while (j < sc->len && j - i < max && tok_char((unsigned char)sc->s[j], "_-"))
		j++;
	return j - i;
}

/* A JSON Web Token (RFC 7519 §3, https://www.rfc-editor.org/rfc/rfc7519):
 * header.payload.signature in base64url; header and payload are JSON
 * objects, so both start with "eyJ" ('{"'). */
static size_t jwt_len(const struct scan *sc, size_t i)
{
	if (!ci_at(sc->s, sc->len, i, "eyJ") || sc->s[i] != 'e')
		return 0;
	size_t h = b64url_run(sc, i, 4096);
	if (h < 10 || i + h >= sc->len || sc->s[i + h] != '.' ||
	    sc->len < i + h + 4 || memcmp(sc->s + i + h + 1, "eyJ", 3) != 0)
		return 0;
	size_t p = b64url_run(sc, i + h + 1, 16384);
	size_t e = i + h + 1 + p;
	if (p < 10 || e >= sc->len || sc->s[e] != '.')
		return 0;
	return e + 1 + b64url_run(sc, e + 1, 4096) - i;
}

/* A SendGrid API key: "SG." + 22 + "." + 43 base64url characters
 * (https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys). */
static size_t sendgrid_len(const struct scan *sc, size_t i)
{
	if (i + 3 > sc->len || memcmp(sc->s + i, "SG.", 3) != 0)
		return 0;
	size_t a = b64url_run(sc, i + 3, 64);
	size_t e = i + 3 + a;
	if (a < 16 || e >= sc->len || sc->s[e] != '.')
		return 0;
	size_t b = b64url_run(sc, e + 1, 128);
	return b >= 30 ? e + 1 + b - i : 0;
}

/* A Discord bot token: the bot's id in base64, a timestamp, an HMAC, joined
 * by dots (https://discord.com/developers/docs/reference#authentication). */
static size_t discord_len(const struct scan *sc, size_t i)
{
	char c = sc->s[i];
	if (c != 'M' && c != 'N' && c != 'O')
		return 0;
	size_t a = b64url_run(sc, i, 40);
	size_t e = i + a;
	if (a < 24 || a > 28 || e >= sc->len || sc->s[e] != '.')
		return 0;
	size_t b = b64url_run(sc, e + 1, 16);
	size_t f = e + 1 + b;
	if (b < 6 || b > 7 || f >= sc->len || sc->s[f] != '.')
		return 0;
	size_t m = b64url_run(sc, f + 1, 64);
	return m >= 27 ? f + 1 + m - i : 0;
}

/* A Telegram bot token: the bot's numeric id, ':', 35 characters
 * (https://core.telegram.org/bots/api#authorizing-your-bot). */
static size_t telegram_len(const struct scan *sc, size_t i)
{
	size_t j = i;
	while (j < sc->len && j - i <= 12 && isdigit((unsigned char)sc->s[j]))
		j++;
	if (j - i < 6 || j - i > 12 || j >= sc->len || sc->s[j] != ':')
		return 0;
	size_t b = b64url_run(sc, j + 1, 64);
	if (b < 30 || b > 40 || (j + 1 + b < sc->len && tok_char((unsigned char)sc->s[j + 1 + b], "")))
		return 0;
	return looks_random(sc->s + j + 1, b) ? j + 1 + b - i : 0;
}

/* An AWS secret access key (40 characters of base64) on the line of an
 * access key id, as the credentials CSV and `aws configure list` show them
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html). */
static size_t aws_secret_len(const struct scan *sc, size_t i)
{
	size_t j = i;
	while (j < sc->len && j - i <= 40 && tok_char((unsigned char)sc->s[j], "/+"))
		j++;
	if (j - i != 40 || (j < sc->len && tok_char((unsigned char)sc->s[j], "/+=")) ||
	    !looks_random(sc->s + i, 40))
		return 0;
	for (size_t b = i; b > 0 && i - b < 256 && sc->s[b - 1] != '\n'; b--)
		if (b >= 20 && (memcmp(sc->s + b - 20, "AKIA", 4) == 0 ||
				memcmp(sc->s + b - 20, "ASIA", 4) == 0)) {
			bool id = true;
			for (size_t q = b - 16; q < b && id; q++)
				id = isupper((unsigned char)sc->s[q]) || isdigit((unsigned char)sc->s[q]);
			if (id)
				return 40;
		}
	return 0;
}

/* One of the shapes above at s[i], which starts a word: its length. */
static size_t shaped_secret_len(const struct scan *sc, size_t i)
{
	unsigned char c = (unsigned char)sc->s[i];
	if (!isalnum(c) || (i > 0 && tok_char((unsigned char)sc->s[i - 1], "_-.")))
		return 0;
	size_t n;
	if ((n = token_len(sc, i)) || (n = jwt_len(sc, i)) || (n = sendgrid_len(sc, i)) ||
	    (n = discord_len(sc, i)))
		return n;
	/* base64 holds '/' and '+': a 40-character run starts after neither */
	if ((i == 0 || !strchr("/+", sc->s[i - 1])) && (n = aws_secret_len(sc, i)))
		return n;
	if (isdigit(c) && (n = telegram_len(sc, i)))
		return n;
	return 0;
}

/* The secret path of a Slack or Discord webhook URL, at the '/' before it:
 * hooks.slack.com/services/T…/B…/SECRET
 * (https://api.slack.com/messaging/webhooks), hooks.slack.com/workflows/…,
 * discord.com/api/webhooks/ID/TOKEN
 * (https://discord.com/developers/docs/resources/webhook). */
static size_t rule_webhook(struct scan *sc, size_t i)
{
	static const struct { const char *host, *path; } hooks[] = {
		{ "hooks.slack.com", "/services/" }, { "hooks.slack.com", "/workflows/" },
		{ "hooks.slack.com", "/triggers/" }, { "discord.com", "/api/webhooks/" },
		{ "discordapp.com", "/api/webhooks/" },
	};
	for (size_t k = 0; k < sizeof hooks / sizeof hooks[0]; k++) {
		size_t hl = strlen(hooks[k].host), pl = strlen(hooks[k].path);
		if (i < hl || !ci_at(sc->s, sc->len, i - hl, hooks[k].host) ||
		    !ci_at(sc->s, sc->len, i, hooks[k].path))
			continue;
		size_t j = i + pl;
		while (j < sc->len && j - i < 512 && tok_char((unsigned char)sc->s[j], "/_-"))
			j++;
		if (j - i - pl < 8)
			return 0;
		emit(sc, i, sc->s + i, pl);
		emit_value(sc, i + pl, add_value(sc->r, REDACT_SECRET, sc->s + i + pl, j - i - pl));
		return j - i;
	}
	return 0;
}

/* The signature of an Azure shared access signature, "sig=" in its query
 * (https://learn.microsoft.com/en-us/rest/api/storageservices/create-service-sas#specify-the-signature),
 * at the '='. */
static size_t rule_sas(struct scan *sc, size_t i)
{
	if (i < 3 || memcmp(sc->s + i - 3, "sig", 3) != 0 ||
	    (i > 3 && !strchr("?&;\"' \t", sc->s[i - 4])))
		return 0;
	size_t j = i + 1;
	while (j < sc->len && j - i < 1024 && tok_char((unsigned char)sc->s[j], "%+/=_-"))
		j++;
	size_t n = j - i - 1;
	if (n < 16)
		return 0;
	emit(sc, i, "=", 1);
	emit_value(sc, i + 1, add_value(sc->r, REDACT_SECRET, sc->s + i + 1, n));
	return j - i;
}

/* A PuTTY private key file (.ppk,
 * https://tartarus.org/~simon/putty-snapshots/htmldoc/AppendixC.html): the
 * N lines after "Private-Lines: N" are the private key, "Private-MAC:"
 * authenticates it. At the start of a line. */
static size_t rule_putty(struct scan *sc, size_t i)
{
	if (i > 0 && sc->s[i - 1] != '\n')
		return 0;
	bool mac = ci_at(sc->s, sc->len, i, "Private-MAC:");
	if (!mac && !ci_at(sc->s, sc->len, i, "Private-Lines:"))
		return 0;
	size_t j = i + (mac ? 12 : 14);
	while (j < sc->len && sc->s[j] == ' ')
		j++;
	size_t v = j;
	if (mac) {
		while (j < sc->len && isxdigit((unsigned char)sc->s[j]))
			j++;
		if (j - v < 16)
			return 0;
		emit(sc, i, sc->s + i, v - i);
		emit_value(sc, v, add_value(sc->r, REDACT_SECRET, sc->s + v, j - v));
		return j - i;
	}
	unsigned lines = 0;
	while (j < sc->len && isdigit((unsigned char)sc->s[j]) && lines < 10000)
		lines = lines * 10 + (unsigned)(sc->s[j++] - '0');
	if (!lines || j >= sc->len || (sc->s[j] != '\n' && sc->s[j] != '\r'))
		return 0;
	while (j < sc->len && sc->s[j] != '\n')
		j++;
	size_t body = j + 1, end = body;
	for (unsigned l = 0; l < lines && end < sc->len; l++) {
		while (end < sc->len && sc->s[end] != '\n')
			end++;
		if (l + 1 < lines && end < sc->len)
			end++;
	}
	if (body >= end || placeholder_len(sc->s + body, end - body) == end - body)
		return 0; /* redacted already */
	emit(sc, i, sc->s + i, body - i);
	emit_value(sc, body, add_value(sc->r, REDACT_SECRET, sc->s + body,
				       end - body > 4096 ? 4096 : end - body));
	return end - i;
}

/* Shannon entropy of s[0..n) in bits per byte. */
static double entropy(const char *s, size_t n)
{
	unsigned count[256] = { 0 };
	for (size_t i = 0; i < n; i++)
		count[(unsigned char)s[i]]++;
	double h = 0;
	for (int c = 0; c < 256; c++)
		if (count[c]) {
			double p = (double)count[c] / (double)n;
			h -= p * log2(p);
		}
	return h;
}

/* A random-looking string: long, of at least two of lower case, upper case
 * and digits, and of high entropy (a word or a version is not). */
static bool looks_random(const char *s, size_t n)
{
	if (n < 12 || n > 4096)
		return false;
	int lower = 0, upper = 0, digit = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		lower |= islower(c) != 0;
		upper |= isupper(c) != 0;
		digit |= isdigit(c) != 0;
	}
	return lower + upper + digit >= 2 && entropy(s, n) >= 3.0;
}

/* Domains that name a public service, never a person or a company's own
 * network: left as they are (they are in fixes and sources too). */
static const char *const public_domains[] = {
	"pytorch.org", "pypi.org", "pythonhosted.org", "python.org", "anaconda.org",
	"anaconda.com", "conda-forge.org", "nvidia.com", "nvidia.github.io", "github.com",
	"githubusercontent.com", "github.io", "gitlab.com", "docker.io", "docker.com", "ghcr.io",
	"nvcr.io", "quay.io", "gcr.io", "k8s.io", "ubuntu.com", "launchpad.net", "debian.org",
	"fedoraproject.org", "microsoft.com", "tensorflow.org", "google.com", "googleapis.com",
	"huggingface.co", "hf.co", "kernel.org", "archlinux.org", "opensuse.org", NULL,
};

/* Top-level domains that no public host has (reserved, RFC 2606/6761) or
 * that companies use for their own networks. */
static const char *const private_tlds[] = {
	"internal", "intranet", "corp", "lan", "home", "local", "localdomain", "private",
	"example", "test", "invalid", NULL,
};

static bool is_public_host(const char *h, size_t n)
{
	if ((n == 9 && strncasecmp(h, "localhost", 9) == 0))
		return true;
	for (const char *const *d = public_domains; *d; d++) {
		size_t dl = strlen(*d);
		if (n >= dl && strncasecmp(h + n - dl, *d, dl) == 0 && (n == dl || h[n - dl - 1] == '.'))
			return true;
	}
	return false;
}

/* Length of a host name at s[i] (letters, digits, '-', '.'), 0 if none or
 * an address (the address shapes redact those). */
static size_t hostname_len(const struct scan *sc, size_t i)
{
	size_t j = i;
	bool alpha = false;
	while (j < sc->len && j - i < 253 && (tok_char((unsigned char)sc->s[j], "-.") ||
					       sc->s[j] == '_')) {
		alpha |= isalpha((unsigned char)sc->s[j]) != 0;
		j++;
	}
	while (j > i && sc->s[j - 1] == '.')
		j--;
	return alpha && j > i && isalnum((unsigned char)sc->s[i]) ? j - i : 0;
}

static bool private_tld(const char *h, size_t n)
{
	const char *dot = NULL;
	for (size_t k = 0; k < n; k++)
		if (h[k] == '.')
			dot = h + k;
	if (!dot)
		return true; /* one label: a name on the local network ("proxy") */
	return in_list(private_tlds, dot + 1, (size_t)(h + n - dot - 1));
}

/* Registers a company's host name, and its organisation's domain (the last
 * two labels), so that registry.corp.example is replaced wherever
 * corp.example was seen. Returns the host's index. */
static size_t add_host(struct redactor *r, const char *h, size_t n)
{
	size_t idx = add_value(r, REDACT_HOST, h, n);
	size_t dots = 0, second = n;
	for (size_t k = n; k > 0; k--)
		if (h[k - 1] == '.' && ++dots == 2) {
			second = k;
			break;
		}
	if (second < n && !is_public_host(h + second, n - second))
		add_value(r, REDACT_HOST, h + second, n - second);
	return idx;
}

/* Whether the key before a URL (or host list) at s[i] says it names a
 * server of the user's network: a proxy, a package index or mirror, a
 * registry, a channel. */
static bool server_context(const struct scan *sc, size_t i)
{
	static const char *const words[] = { "proxy", "index", "mirror", "registry", "channel",
					     "url", "repo", "hub", "endpoint", "server", "host",
					     NULL };
	size_t j = i;
	while (j > 0 && (isalnum((unsigned char)sc->s[j - 1]) || sc->s[j - 1] == '+'))
		j--; /* the scheme */
	while (j > 0 && strchr(" \t\"'", sc->s[j - 1]))
		j--;
	if (j == 0 || (sc->s[j - 1] != '=' && sc->s[j - 1] != ':'))
		return false;
	size_t ks, kn = key_before(sc, j - 1, &ks);
	for (const char *const *w = words; *w; w++)
		for (size_t k = 0; k + strlen(*w) <= kn; k++)
			if (strncasecmp(sc->s + ks + k, *w, strlen(*w)) == 0)
				return true;
	return false;
}

/*
 * scheme://[user[:password]@]host at s[i] == ':' followed by "//". A
 * password is a secret; a user alone is a token when it looks like one
 * (https://ghp_...@github.com), else a user name. The host is replaced when
 * it is a company's own: a private or reserved top-level domain, one label,
 * or a proxy's, index's or registry's host that is not a public service.
 */
static size_t rule_url(struct scan *sc, size_t i)
{
	if (i + 3 > sc->len || strncmp(sc->s + i, "://", 3) != 0)
		return 0;
	size_t u = i + 3, aend = u, at = 0;
	while (aend < sc->len && aend - u < 512 && sc->s[aend] &&
	       !strchr("/ \t\r\n\"'<>?#\\", sc->s[aend])) {
		if (sc->s[aend] == '@')
			at = aend;
		aend++;
	}
	size_t h = at ? at + 1 : u;
	size_t hn = h < aend && sc->s[h] != '<' ? hostname_len(sc, h) : 0;
	bool host = hn && (h + hn == aend || sc->s[h + hn] == ':') &&
		    !is_public_host(sc->s + h, hn) &&
		    (private_tld(sc->s + h, hn) || server_context(sc, i)) && !sc->r->secrets_only;
	if (!at && !host)
		return 0;
	emit(sc, i, "://", 3);
	if (at) {
		const char *colon = memchr(sc->s + u, ':', at - u);
		if (colon) {
			size_t c = (size_t)(colon - sc->s);
			if (c > u && sc->r->secrets_only)
				emit(sc, u, sc->s + u, c - u);
			else if (c > u)
				emit_value(sc, u, add_value(sc->r, REDACT_USER, sc->s + u, c - u));
			emit(sc, c, ":", 1);
			if (at > c + 1)
				emit_value(sc, c + 1,
					   add_value(sc->r, REDACT_SECRET, sc->s + c + 1, at - c - 1));
		} else if (at > u && placeholder_len(sc->s + u, at - u) == at - u) {
			emit(sc, u, sc->s + u, at - u);
		} else if (at > u) {
			bool token = shaped_secret_len(sc, u) == at - u || looks_random(sc->s + u, at - u);
			if (!token && ((at - u == 3 && strncmp(sc->s + u, "git", 3) == 0) ||
				       sc->r->secrets_only))
				emit(sc, u, sc->s + u, at - u); /* git@host: names no one */
			else
				emit_value(sc, u, add_value(sc->r, token ? REDACT_SECRET : REDACT_USER,
							    sc->s + u, at - u));
		}
		emit(sc, at, "@", 1);
	}
	if (host) {
		emit_value(sc, h, add_host(sc->r, sc->s + h, hn));
		return h + hn - i;
	}
	return h - i;
}

/* NO_PROXY=.corp.example,gitlab.corp.example,10.0.0.0/8,localhost: every
 * host name of the list is the company's own. At the '=' or ':' of a
 * no_proxy key; returns the bytes consumed. */
static size_t rule_no_proxy(struct scan *sc, size_t i)
{
	size_t ks, kn = key_before(sc, i, &ks);
	if (kn != 8 || strncasecmp(sc->s + ks, "no_proxy", 8) != 0)
		return 0;
	size_t j = i + 1;
	emit(sc, i, sc->s + i, 1);
	while (j < sc->len && (sc->s[j] == ' ' || sc->s[j] == '"' || sc->s[j] == '\''))
		emit(sc, j, sc->s + j, 1), j++;
	while (j < sc->len && !isspace((unsigned char)sc->s[j]) && !strchr("\"'", sc->s[j])) {
		if (strchr(",.*", sc->s[j])) {
			emit(sc, j, sc->s + j, 1);
			j++;
			continue;
		}
		size_t n = hostname_len(sc, j);
		size_t e = j;
		while (e < sc->len && !isspace((unsigned char)sc->s[e]) && !strchr(",\"'", sc->s[e]))
			e++;
		if (n && j + n == e && !is_public_host(sc->s + j, n)) {
			emit_value(sc, j, add_host(sc->r, sc->s + j, n));
		} else {
			/* an address or a range: the address shapes see it */
			for (size_t k = j; k < e;) {
				size_t m = rule_shapes(sc, k);
				if (!m) {
					emit(sc, k, sc->s + k, 1);
					m = 1;
				}
				k += m;
			}
		}
		j = e;
	}
	return j - i;
}

/* -----BEGIN ... PRIVATE KEY----- ... -----END ... -----: the body is one
 * secret; the two markers stay, to say what was there. The body may be on
 * the lines between them, or on the marker's own line (a key pasted into
 * one line, or a JSON string with \n escapes, as a GCP service account's
 * "private_key"). */
static bool escaped_nl(const struct scan *sc, size_t k)
{
	return k + 1 < sc->len && sc->s[k] == '\\' && sc->s[k + 1] == 'n';
}

static size_t rule_key_block(struct scan *sc, size_t i)
{
	if (!ci_at(sc->s, sc->len, i, "-----BEGIN "))
		return 0;
	size_t eol = i;
	while (eol < sc->len && sc->s[eol] != '\n')
		eol++;
	size_t m = i + 11;
	while (m + 5 <= eol && m - i < 100 && memcmp(sc->s + m, "-----", 5) != 0)
		m++;
	if (m + 5 > eol || memcmp(sc->s + m, "-----", 5) != 0 ||
	    !memmem(sc->s + i, m - i, "PRIVATE KEY", 11))
		return 0;
	size_t mend = m + 5, k = mend;
	while (k < eol && (sc->s[k] == ' ' || sc->s[k] == '\t' || sc->s[k] == '\r'))
		k++;
	size_t body, end, n;
	if (k >= eol) { /* the body on the lines below */
		if (eol >= sc->len)
			return 0;
		body = eol + 1;
		end = body;
		while (end < sc->len && !ci_at(sc->s, sc->len, end, "-----END "))
			end++;
		n = end - body;
		while (n && sc->s[body + n - 1] == '\n')
			n--;
	} else { /* on this line, up to the END marker, a quote or the line's end */
		body = mend;
		while (body < eol && (sc->s[body] == ' ' || escaped_nl(sc, body)))
			body += sc->s[body] == ' ' ? 1 : 2;
		end = body;
		while (end < eol && !ci_at(sc->s, sc->len, end, "-----END ") && sc->s[end] != '"')
			end++;
		n = end - body;
		for (;;) {
			if (n && (sc->s[body + n - 1] == ' ' || sc->s[body + n - 1] == '\r'))
				n--;
			else if (n >= 2 && escaped_nl(sc, body + n - 2))
				n -= 2;
			else
				break;
		}
	}
	if (n && placeholder_len(sc->s + body, n) == n)
		return 0; /* redacted already: copied as it is */
	emit(sc, i, sc->s + i, body - i);
	if (n) {
		emit_value(sc, body, add_value(sc->r, REDACT_SECRET, sc->s + body, n > 4096 ? 4096 : n));
		emit(sc, body + n, sc->s + body + n, end - body - n);
	}
	return end - i;
}

/* .../t/<token>/...: an anaconda.org channel token in a URL's path. */
static size_t rule_conda_token(struct scan *sc, size_t i)
{
	if (!ci_at(sc->s, sc->len, i, "/t/"))
		return 0;
	size_t j = i + 3;
	while (j < sc->len && j - i < 256 && tok_char((unsigned char)sc->s[j], "-_"))
		j++;
	size_t n = j - i - 3;
	if (n < 8 || j >= sc->len || sc->s[j] != '/')
		return 0;
	bool digit = false, alpha = false;
	for (size_t k = i + 3; k < j; k++) {
		digit |= isdigit((unsigned char)sc->s[k]) != 0;
		alpha |= isalpha((unsigned char)sc->s[k]) != 0;
	}
	if (!digit || !alpha)
		return 0;
	emit(sc, i, "/t/", 3);
	emit_value(sc, i + 3, add_value(sc->r, REDACT_SECRET, sc->s + i + 3, n));
	return n + 3;
}

/* "token Xy7...", "api key: ...", "--password ...": a random-looking word
 * right after a secret-like word. At the blank after that word. */
static size_t rule_beside(struct scan *sc, size_t i)
{
	size_t w = i;
	while (w > 0 && (isalnum((unsigned char)sc->s[w - 1]) || sc->s[w - 1] == '_' ||
			 sc->s[w - 1] == '-'))
		w--;
	if (w == i || !redact_secret_name(sc->s + w, i - w))
		return 0;
	size_t j = i;
	while (j < sc->len && (sc->s[j] == ' ' || sc->s[j] == '\t'))
		j++;
	size_t e = j;
	while (e < sc->len && e - j <= 4096 && !isspace((unsigned char)sc->s[e]) &&
	       !strchr("\"',;)(<>", sc->s[e]))
		e++;
	if (!looks_random(sc->s + j, e - j) || placeholder_len(sc->s + j, e - j))
		return 0;
	emit(sc, i, sc->s + i, j - i);
	emit_value(sc, j, add_value(sc->r, REDACT_SECRET, sc->s + j, e - j));
	return e - i;
}

/* The registry host names a Docker auth config keys its credentials by
 * ({"auths":{"registry.corp.example":{...},...}}): at the quote of "auths". */
static size_t rule_docker_auths(struct scan *sc, size_t i)
{
	if (!ci_at(sc->s, sc->len, i, "\"auths\""))
		return 0;
	size_t j = i + 7;
	while (j < sc->len && (sc->s[j] == ' ' || sc->s[j] == ':'))
		j++;
	if (j >= sc->len || sc->s[j] != '{')
		return 0;
	/* learn the keys of this object; the scan then replaces them */
	int depth = 0;
	for (size_t k = j; k < sc->len && k - j < 65536; k++) {
		char c = sc->s[k];
		if (c == '{')
			depth++;
		else if (c == '}' && --depth == 0)
			break;
		else if (c == '"' && depth == 1) {
			size_t e = k + 1;
			while (e < sc->len && sc->s[e] != '"' && sc->s[e] != '\n')
				e++;
			size_t n = e - k - 1;
			const char *h = sc->s + k + 1;
			/* "https://index.docker.io/v1/" and the like: the URL rule */
			if (n && !memchr(h, '/', n) && !is_public_host(h, n) && hostname_len(sc, k + 1) == n)
				add_host(sc->r, h, n);
			k = e;
		}
	}
	return 0;
}

static int hexval(unsigned char c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

static bool is_alnum_at(const struct scan *sc, size_t i)
{
	return i < sc->len && isalnum((unsigned char)sc->s[i]);
}

/* aa:bb:cc:dd:ee:ff or aa-bb-cc-dd-ee-ff. */
static size_t mac_len(const struct scan *sc, size_t i)
{
	if (i + 17 > sc->len)
		return 0;
	const char *p = sc->s + i;
	char sep = p[2];
	if (sep != ':' && sep != '-')
		return 0;
	for (int g = 0; g < 6; g++) {
		if (hexval((unsigned char)p[3 * g]) < 0 || hexval((unsigned char)p[3 * g + 1]) < 0)
			return 0;
		if (g < 5 && p[3 * g + 2] != sep)
			return 0;
	}
	if (is_alnum_at(sc, i + 17) || (i + 18 < sc->len && sc->s[i + 17] == sep &&
					hexval((unsigned char)sc->s[i + 18]) >= 0))
		return 0;
	return 17;
}

/* 8-4-4-4-12 hex digits. */
static size_t uuid_len(const struct scan *sc, size_t i)
{
	static const int groups[] = { 8, 4, 4, 4, 12 };
	size_t j = i;
	for (int g = 0; g < 5; g++) {
		for (int k = 0; k < groups[g]; k++, j++)
			if (j >= sc->len || hexval((unsigned char)sc->s[j]) < 0)
				return 0;
		if (g < 4) {
			if (j >= sc->len || sc->s[j] != '-')
				return 0;
			j++;
		}
	}
	if (is_alnum_at(sc, j))
		return 0;
	return j - i;
}

/* Dotted quad at s[i]: length, or 0. Leading zeros ("05") mean a version. */
static size_t quad_len(const struct scan *sc, size_t i)
{
	size_t j = i;
	for (int part = 0; part < 4; part++) {
		size_t d = j;
		unsigned val = 0;
		while (j < sc->len && j - d < 4 && isdigit((unsigned char)sc->s[j]))
			val = val * 10 + (unsigned)(sc->s[j++] - '0');
		size_t nd = j - d;
		if (nd == 0 || nd > 3 || val > 255 || (nd > 1 && sc->s[d] == '0'))
			return 0;
		if (part < 3) {
			if (j >= sc->len || sc->s[j] != '.')
				return 0;
			j++;
		}
	}
	return j - i;
}

/* Whether a version word comes shortly before s[i] on the same line. */
static bool version_context(const struct scan *sc, size_t i)
{
	/* also a pip pin (==) and the CUDA wheels pip lists (nvidia-cudnn-cu12
	 * 9.1.0.70, nvidia-cublas-cu12 12.4.5.8): their versions have four parts */
	static const char *const words[] = { "version", "kernel", "release", "build", "minimum",
					     "recommended", "required", "driver", "cuda", "==",
					     "-cu11", "-cu12", "-cu13", "cudnn", "cublas", "nccl",
					     "tensorrt", NULL };
	size_t lo = i > VERSION_LOOKBACK ? i - VERSION_LOOKBACK : 0;
	for (size_t j = i; j > lo; j--) {
		if (sc->s[j - 1] == '\n')
			break;
		for (const char *const *w = words; *w; w++)
			if (ci_at(sc->s, sc->len, j - 1, *w))
				return true;
	}
	return false;
}

static size_t ipv4_len(const struct scan *sc, size_t i)
{
	size_t n = quad_len(sc, i);
	if (!n)
		return 0;
	size_t e = i + n;
	if (e < sc->len) {
		unsigned char c = (unsigned char)sc->s[e];
		if (isalnum(c) || c == '_')
			return 0;
		/* more parts: a longer version number */
		if (c == '.' && e + 1 < sc->len && isdigit((unsigned char)sc->s[e + 1]))
			return 0;
		/* 5.15.167.4-microsoft, 8.9.7.29-1+cuda12.2: a version */
		if ((c == '-' || c == '+' || c == '~') && is_alnum_at(sc, e + 1))
			return 0;
	}
	if (i >= 2 && sc->s[i - 1] == '-' && isalnum((unsigned char)sc->s[i - 2]))
		return 0;
	if (version_context(sc, i))
		return 0;
	const char *p = sc->s + i;
	/* Not identifying: loopback, "any", broadcast and netmasks. */
	if (strncmp(p, "127.", 4) == 0 || (n == 7 && strncmp(p, "0.0.0.0", 7) == 0) ||
	    strncmp(p, "255.", 4) == 0)
		return 0;
	return n;
}

/* IPv6: eight groups, or fewer with one "::"; an IPv4 tail is allowed. */
static size_t ipv6_len(const struct scan *sc, size_t i)
{
	size_t j = i;
	int groups = 0, colons = 0;
	bool dbl = false, digit = false;
	if (j + 1 < sc->len && sc->s[j] == ':' && sc->s[j + 1] == ':') {
		dbl = true;
		colons = 2;
		j += 2;
	}
	for (;;) {
		size_t g = j;
		while (j < sc->len && j - g < 5 && hexval((unsigned char)sc->s[j]) >= 0)
			j++;
		size_t nd = j - g;
		if (nd > 4)
			return 0;
		if (nd == 0)
			break;
		for (size_t d = g; d < j; d++)
			digit |= isdigit((unsigned char)sc->s[d]) != 0;
		/* An embedded IPv4 tail (::ffff:1.2.3.4). */
		if (j < sc->len && sc->s[j] == '.' && colons >= 2) {
			size_t q = quad_len(sc, g);
			if (!q)
				return 0;
			j = g + q;
			groups += 2;
			break;
		}
		groups++;
		if (j < sc->len && sc->s[j] == ':') {
			if (j + 1 < sc->len && sc->s[j + 1] == ':') {
				if (dbl)
					return 0;
				dbl = true;
				colons += 2;
				j += 2;
				continue;
			}
			if (j + 1 < sc->len && hexval((unsigned char)sc->s[j + 1]) >= 0) {
				colons++;
				j++;
				continue;
			}
		}
		break;
	}
	if (colons < 2 || groups > 8 || (!dbl && groups != 8) || (dbl && groups > 7))
		return 0;
	if (j < sc->len && (isalnum((unsigned char)sc->s[j]) || sc->s[j] == ':' || sc->s[j] == '_'))
		return 0;
	size_t n = j - i;
	/* Loopback and "any" say nothing. */
	if ((n == 3 && strncmp(sc->s + i, "::1", 3) == 0) || (n == 2 && strncmp(sc->s + i, "::", 2) == 0))
		return 0;
	/* "a::b" is C++, not an address: real ones have digits. */
	if (!groups || !digit)
		return 0;
	return n;
}

/* A value found by its shape: registered under its lower-case form. */
static size_t shaped(struct scan *sc, size_t i, size_t n, enum redact_cat cat)
{
	size_t idx = add_value(sc->r, cat, sc->s + i, n);
	emit_value(sc, i, idx);
	return n;
}

static size_t rule_shapes(struct scan *sc, size_t i)
{
	unsigned char c = (unsigned char)sc->s[i];
	if (hexval(c) < 0 && c != ':')
		return 0;
	unsigned char p = i ? (unsigned char)sc->s[i - 1] : ' ';
	if (isalnum(p) || p == '_' || p == '.' || p == ':')
		return 0;
	size_t n;
	if (p != '-' || i < 2 || !isalnum((unsigned char)sc->s[i - 2])) {
		if ((n = mac_len(sc, i))) {
			/* all zeros / broadcast identify nothing */
			if (strncmp(sc->s + i, "00:00:00:00:00:00", 17) == 0 ||
			    strncasecmp(sc->s + i, "ff:ff:ff:ff:ff:ff", 17) == 0)
				return 0;
			/* one MAC, whether written 00-15-5D-... or 00:15:5d:... */
			char norm[18];
			for (size_t k = 0; k < 17; k++)
				norm[k] = (char)(k % 3 == 2 ? ':' : tolower((unsigned char)sc->s[i + k]));
			norm[17] = '\0';
			emit_value(sc, i, add_value(sc->r, REDACT_MAC, norm, 17));
			return n;
		}
	}
	if (p != '-' && (n = ipv6_len(sc, i)))
		return shaped(sc, i, n, REDACT_IP);
	if ((n = uuid_len(sc, i)))
		return shaped(sc, i, n, REDACT_UUID);
	if (p != '-' && isdigit(c) && (n = ipv4_len(sc, i)))
		return shaped(sc, i, n, REDACT_IP);
	return 0;
}

/* A known global value at s[i]. */
static size_t rule_known(struct scan *sc, size_t i)
{
	struct redactor *r = sc->r;
	if (!r->first[(unsigned char)sc->s[i]])
		return 0;
	bool left = i == 0 || !is_word((unsigned char)sc->s[i - 1]);
	for (size_t g = 0; g < r->nglob; g++) {
		const struct value *v = &r->v[r->glob[g]];
		if (i + v->len > sc->len)
			continue;
		if (v->exact ? memcmp(sc->s + i, v->v, v->len) != 0
			     : strncasecmp(sc->s + i, v->v, v->len) != 0)
			continue;
		if (v->word && (!left || (i + v->len < sc->len &&
					  is_word((unsigned char)sc->s[i + v->len]))))
			continue;
		emit_value(sc, i, r->glob[g]);
		return v->len;
	}
	return 0;
}

static void scan_run(struct scan *sc)
{
	build_glob(sc->r);
	/* names, hosts and addresses too, or only secrets (scrubbing) */
	bool all = !sc->r->secrets_only;
	size_t i = 0;
	while (i < sc->len) {
		char c = sc->s[i];
		size_t n = 0;
		if (c == '<' && (n = placeholder_len(sc->s + i, sc->len - i))) {
			emit(sc, i, sc->s + i, n);
			i += n;
			continue;
		}
		if (all && c == '/' && i + 6 <= sc->len && strncmp(sc->s + i, "/home/", 6) == 0) {
			emit(sc, i, "/home/", 6);
			i += 6;
			i += user_component(sc, i, HOME_DELIMS, false);
			build_glob(sc->r);
			continue;
		}
		if (all && (c == '/' || c == '\\') && (n = rule_users(sc, i))) {
			emit(sc, i, sc->s + i, n);
			i += n;
			i += user_component(sc, i, WIN_DELIMS, true);
			build_glob(sc->r);
			continue;
		}
		if (c == ':' && (n = rule_url(sc, i))) {
			i += n;
			build_glob(sc->r);
			continue;
		}
		if ((c == '-' && (n = rule_key_block(sc, i))) ||
		    (c == '/' && (n = rule_conda_token(sc, i))) ||
		    (c == '/' && (n = rule_webhook(sc, i))) ||
		    (c == '=' && (n = rule_sas(sc, i))) ||
		    (c == 'P' && (n = rule_putty(sc, i))) ||
		    (all && (c == '=' || c == ':') && (n = rule_no_proxy(sc, i))) ||
		    ((c == '=' || c == ':') && (n = rule_assignment(sc, i))) ||
		    ((c == ' ' || c == '\t') && (n = rule_beside(sc, i)))) {
			i += n;
			build_glob(sc->r);
			continue;
		}
		if (all && c == '"') {
			rule_docker_auths(sc, i); /* learns the registries' names */
			build_glob(sc->r);
		}
		if ((n = shaped_secret_len(sc, i))) {
			emit_value(sc, i, add_value(sc->r, REDACT_SECRET, sc->s + i, n));
			i += n;
			build_glob(sc->r);
			continue;
		}
		if (sc->out && (n = rule_known(sc, i))) {
			i += n;
			continue;
		}
		if (all && sc->out && (n = rule_shapes(sc, i))) {
			i += n;
			continue;
		}
		emit(sc, i, sc->s + i, 1);
		i++;
	}
}

static void scan_text(struct redactor *r, const char *key, const char *text, size_t len,
		      struct strbuf *out)
{
	struct scan sc = { r, text, len, 0, out };
	struct strbuf buf = STRBUF_INIT;
	if (key && *key) {
		sb_add(&buf, key);
		sb_addc(&buf, '=');
		sc.from = buf.len;
		sb_addn(&buf, text, len);
		sc.s = buf.buf;
		sc.len = buf.len;
	}
	scan_run(&sc);
	sb_release(&buf);
}

void redact_learn(struct redactor *r, const char *text, size_t len)
{
	scan_text(r, NULL, text, len, NULL);
}

void redact_text(struct redactor *r, const char *key, const char *text, size_t len,
		 struct strbuf *out)
{
	scan_text(r, key, text, len, out);
}

char *redact_dup(struct redactor *r, const char *key, const char *s)
{
	if (!s)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	redact_text(r, key, s, strlen(s), &sb);
	return sb_detach(&sb);
}

/* What a result says: its detail, its evidence (each value with its key),
 * its output. */
static void learn_result(struct redactor *r, const struct result *x)
{
	if (x->detail)
		redact_learn(r, x->detail, strlen(x->detail));
	for (size_t k = 0; k < x->ev.n; k++)
		scan_text(r, x->ev.v[k].key, x->ev.v[k].val, strlen(x->ev.v[k].val), NULL);
	if (x->output)
		redact_learn(r, x->output, strlen(x->output));
}

void redact_learn_results(struct redactor *r, const struct result *in, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (in[i].ran)
			learn_result(r, &in[i]);
}

void redact_results(struct redactor *r, const struct result *in, size_t n,
		    struct result *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct result *x = &in[i];
		struct result *y = &out[i];
		result_init(y, x->def);
		y->status = x->status;
		y->ran = x->ran;
		y->ms = x->ms;
		y->output_truncated = x->output_truncated;
		y->kb = x->kb ? xstrdup(x->kb) : NULL;
		y->detail = redact_dup(r, NULL, x->detail);
		y->step = redact_dup(r, NULL, x->step);
		y->output = redact_dup(r, NULL, x->output);
		y->cut = x->cut;
		y->tolerated_by = redact_dup(r, NULL, x->tolerated_by);
		y->consequence_of = x->consequence_of; /* a check id: nothing to redact */
		y->platform = x->platform;             /* a platform kind, likewise */
		for (size_t k = 0; k < x->ev.n; k++) {
			char *v = redact_dup(r, x->ev.v[k].key, x->ev.v[k].val);
			ev_add(&y->ev, x->ev.v[k].key, "%s", v);
			free(v);
		}
	}
}

/* ---- the shapes, listed (documentation, tests) ---- */

/* The shapes that are rules, not prefixes, and the secrets found by their
 * name, each with a made-up example and the part of it that must go (the
 * literals are split so that no scanner takes them for leaked secrets). */
static const struct {
	const char *what, *source, *example, *secret;
} rules[] = {
	{ "JSON Web Token", "https://www.rfc-editor.org/rfc/rfc7519",
	  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." "eyJzdWIiOiJ3c2xncHUtdGVzdCJ9.dGhpcy1pcy1ub3QtYS1zaWduYXR1cmU",
	  "eyJzdWIiOiJ3c2xncHUtdGVzdCJ9.dGhpcy1pcy1ub3QtYS1zaWduYXR1cmU" },
	{ "SendGrid API key", "https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys",
	  "SG." "aB3dE5gH7jK9mN1pQ3sT5v.wX7yZ9aB3dE5gH7jK9mN1pQ3sT5vW7yZ9aB3dE5gH7j",
	  "wX7yZ9aB3dE5gH7jK9mN1pQ3sT5vW7yZ9aB3dE5gH7j" },
	{ "Discord bot token", "https://discord.com/developers/docs/reference#authentication",
	  "MTIzNDU2Nzg5MDEyMzQ1Njc4." "GaBcDe.aB3dE5gH7jK9mN1pQ3sT5vW7yZ9aB3",
	  "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9aB3" },
	{ "Telegram bot token", "https://core.telegram.org/bots/api#authorizing-your-bot",
	  "123456789:" "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw" },
	{ "Slack incoming webhook URL", "https://api.slack.com/messaging/webhooks",
	  "https://hooks.slack.com/services/" "T0A1B2C3D/B4E5F6G7H/aB3dE5gH7jK9mN1pQ3sT5vW7",
	  "aB3dE5gH7jK9mN1pQ3sT5vW7" },
	{ "Discord webhook URL", "https://discord.com/developers/docs/resources/webhook",
	  "https://discord.com/api/webhooks/" "123456789012345678/aB3dE5gH7jK9mN1pQ3sT5vW7yZ9-Qr",
	  "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9-Qr" },
	{ "Azure shared access signature (sig=)",
	  "https://learn.microsoft.com/en-us/rest/api/storageservices/create-service-sas",
	  "https://acme.blob.core.windows.net/c/b.bin?sv=2022-11-02&sp=r&se=2030-01-01&sig=" "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9%2BaB3dE5gH7jK9%3D",
	  "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9%2BaB3dE5gH7jK9%3D" },
	{ "PuTTY private key (Private-Lines)",
	  "https://tartarus.org/~simon/putty-snapshots/htmldoc/AppendixC.html",
	  "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 1\n"
	  "AAAAC3NzaC1lZDI1NTE5AAAAIHB1YmxpYy1wYXJ0\nPrivate-" "Lines: 1\nAAAAIHByaXZhdGUtcGFydC1ub3QtcmVhbC1rZXk\n"
	  "Private-MAC: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n",
	  "AAAAIHByaXZhdGUtcGFydC1ub3QtcmVhbC1rZXk" },
	{ "PuTTY private key MAC (Private-MAC)",
	  "https://tartarus.org/~simon/putty-snapshots/htmldoc/AppendixC.html",
	  "Private-" "MAC: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n",
	  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" },
	{ "PEM private key on one line", "https://www.rfc-editor.org/rfc/rfc7468",
	  "-----BEGIN RSA PRIVATE" " KEY----- MIIEowIBAAKCAQEA0Z3VS5JJcds3xfnOtherBits -----END RSA PRIVATE KEY-----",
	  "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfnOtherBits" },
	{ "PEM private key in a JSON string (\\n escapes)", "https://www.rfc-editor.org/rfc/rfc7468",
	  "\"-----BEGIN PRIVATE" " KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKc\\nAnotherLine0123\\n-----END PRIVATE KEY-----\\n\"",
	  "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKc" },
	{ "AWS secret access key beside its key id",
	  "https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html",
	  "AKIAIOSFODNN7" "EXAMPLE,wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
	{ "GCP service account key file (private_key, by its name)",
	  "https://cloud.google.com/iam/docs/keys-create-delete",
	  "{\"type\": \"service_account\", \"private_key_id\": \"0a1b2c3d4e5f60718293a4b5c6d7e8f901234567\", "
	  "\"private_key\": \"-----BEGIN PRIVATE" " KEY-----\\nMIIEvgIBADANBgkqhkiG9w0BAQ\\n-----END PRIVATE KEY-----\\n\"}",
	  "MIIEvgIBADANBgkqhkiG9w0BAQ" },
	{ "Azure storage connection string (AccountKey, by its name)",
	  "https://learn.microsoft.com/en-us/azure/storage/common/storage-configure-connection-string",
	  "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9/aB3dE5+H7jK9mN1pQ==;EndpointSuffix=core.windows.net",
	  "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9/aB3dE5+H7jK9mN1pQ==" },
	{ "Datadog API key (DD_API_KEY, by its name)",
	  "https://docs.datadoghq.com/account_management/api-app-keys/",
	  "DD_API_KEY=" "0a1b2c3d4e5f60718293a4b5c6d7e8f9", "0a1b2c3d4e5f60718293a4b5c6d7e8f9" },
	{ "Weights & Biases API key (WANDB_API_KEY, or a .netrc password)",
	  "https://docs.wandb.ai/guides/track/environment-variables/",
	  "machine api.wandb.ai login user password " "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
	  "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567" },
	{ "Twilio auth token (TWILIO_AUTH_TOKEN, by its name)",
	  "https://www.twilio.com/docs/iam/access-tokens",
	  "TWILIO_AUTH_TOKEN=" "9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0" },
};

size_t redact_shape_count(void)
{
	return sizeof prefixes / sizeof prefixes[0] + sizeof rules / sizeof rules[0];
}

void redact_shape(size_t k, struct redact_shape *out, struct strbuf *example, struct strbuf *secret)
{
	size_t np = sizeof prefixes / sizeof prefixes[0];
	sb_reset(example);
	sb_reset(secret);
	if (k >= np) {
		k -= np;
		out->what = rules[k].what;
		out->source = rules[k].source;
		sb_add(example, rules[k].example);
		sb_add(secret, rules[k].secret);
		return;
	}
	/* a made-up token: the prefix, and the body its table entry asks for */
	static const char any[] = "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9xR2cF4hL6";
	static const char hex[] = "0a1b2c3d4e5f6789", upper[] = "A1B2C3D4E5F6G7H8J9K0";
	const struct secret_prefix *p = &prefixes[k];
	out->what = p->what;
	out->source = p->source;
	sb_add(example, p->prefix);
	const char *alpha = p->body == BODY_HEX ? hex : p->body == BODY_UPPER ? upper : any;
	size_t na = strlen(alpha), n = p->min > 24 ? p->min : 24;
	if (p->max && n > p->max)
		n = p->max;
	for (size_t i = 0; i < n; i++)
		sb_addc(example, alpha[(i * 7 + k) % na]);
	sb_add(secret, example->buf);
}

/* One string of a result, scrubbed in place. */
static void scrub(struct redactor *r, const char *key, char **s)
{
	if (!*s)
		return;
	char *t = redact_dup(r, key, *s);
	free(*s);
	*s = t;
}

/* What a result held when it was learnt: a text that changed after (the
 * probe's output, attached when the run ends) is learnt again. */
struct learnt {
	const char *detail, *step, *output;
	size_t nev;
	bool seen;
};

struct secret_scrub {
	struct redactor *r;
	struct learnt *at;
	size_t n;
};

struct secret_scrub *secret_scrub_new(size_t n)
{
	struct secret_scrub *s = xcalloc(1, sizeof *s);
	s->r = redactor_new();
	s->r->secrets_only = true;
	s->at = xcalloc(n ? n : 1, sizeof *s->at);
	s->n = n;
	return s;
}

/* learn_result, and the step the probe was at (a scrub rewrites it too) */
static void learn_result_step(struct redactor *r, const struct result *x)
{
	learn_result(r, x);
	if (x->step)
		redact_learn(r, x->step, strlen(x->step));
}

void secret_scrub_learn(struct secret_scrub *s, size_t i, const struct result *x)
{
	if (i >= s->n || !x->ran)
		return;
	learn_result_step(s->r, x);
	s->at[i] = (struct learnt){ x->detail, x->step, x->output, x->ev.n, true };
}

void secret_scrub_finish(struct secret_scrub *s, struct result *res, size_t n)
{
	struct redactor *r = s->r;
	for (size_t i = 0; i < n; i++) {
		const struct result *x = &res[i];
		const struct learnt *a = i < s->n ? &s->at[i] : NULL;
		if (!x->ran)
			continue;
		/* one it was not shown (or past the n it was made for: learnt
		 * all the same, since every result is scrubbed) */
		if (!a || !a->seen || a->detail != x->detail || a->step != x->step ||
		    a->nev != x->ev.n)
			learn_result_step(r, x);
		else if (x->output && a->output != x->output)
			redact_learn(r, x->output, strlen(x->output));
	}
	/* Every change a scrub makes puts a placeholder for a value that the
	 * same scan of the same text adds (add_value), and learning scanned
	 * each text the scrub would, with the same key: where it found none,
	 * the scrub would copy every text as it is (the common run). */
	for (size_t i = 0; i < n && r->n; i++) {
		struct result *x = &res[i];
		if (!x->ran)
			continue;
		scrub(r, NULL, &x->detail);
		scrub(r, NULL, &x->step);
		scrub(r, NULL, &x->output);
		for (size_t k = 0; k < x->ev.n; k++)
			scrub(r, x->ev.v[k].key, &x->ev.v[k].val);
	}
	redactor_free(r);
	free(s->at);
	free(s);
}

void redact_scrub_results(struct result *res, size_t n)
{
	secret_scrub_finish(secret_scrub_new(n), res, n);
}

void redact_stats(const struct redactor *r, enum redact_cat cat, size_t *values,
		  size_t *replacements)
{
	*values = r->next[cat];
	*replacements = r->hits[cat];
}

/* ---- what the machine tells us ---- */

static void add_first_line(struct redactor *r, enum redact_cat cat, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	if (rootfs_read(path, 4096, &sb, NULL) == 0) {
		char *nl = strchr(sb.buf, '\n');
		if (nl)
			*nl = '\0';
		redact_add(r, cat, sb.buf);
	}
	sb_release(&sb);
}

static void add_dir_names(struct redactor *r, const char *dir, bool windows)
{
	DIR *d = rootfs_opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	size_t seen = 0;
	while ((de = readdir(d)) && seen++ < 4096) {
		size_t n = strlen(de->d_name);
		if (de->d_name[0] == '.' ||
		    (windows && in_list(windows_system_folders, de->d_name, n)))
			continue;
		redact_add(r, REDACT_USER, de->d_name);
	}
	closedir(d);
}

/* /etc/passwd: people (uid 1000..59999) and their full names (GECOS). */
static void add_passwd(struct redactor *r)
{
	struct strbuf sb = STRBUF_INIT;
	if (rootfs_read("/etc/passwd", 1u << 20, &sb, NULL) < 0) {
		sb_release(&sb);
		return;
	}
	char *save = NULL;
	for (char *line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[7] = { 0 };
		int nf = 0;
		for (char *p = line; nf < 7; nf++) {
			f[nf] = p;
			p = strchr(p, ':');
			if (!p) {
				nf++;
				break;
			}
			*p++ = '\0';
		}
		if (nf < 6)
			continue;
		char *end;
		long uid = strtol(f[2], &end, 10);
		if (*end || uid < 1000 || uid >= 60000)
			continue;
		redact_add(r, REDACT_USER, f[0]);
		char *comma = strchr(f[4], ',');
		if (comma)
			*comma = '\0';
		redact_add(r, REDACT_USER, f[4]);
		redact_learn(r, f[5], strlen(f[5]));
	}
	sb_release(&sb);
}

void redact_learn_machine(struct redactor *r, char *const *envp)
{
	/* Host name first: it often contains the user's name
	 * (alice-laptop), and the longer value must win. */
	add_first_line(r, REDACT_HOST, "/etc/hostname");
	add_first_line(r, REDACT_HOST, "/proc/sys/kernel/hostname");
	add_first_line(r, REDACT_MACHINE_ID, "/etc/machine-id");
	add_first_line(r, REDACT_MACHINE_ID, "/var/lib/dbus/machine-id");
	add_passwd(r);
	add_dir_names(r, "/home", false);
	struct strbuf dir = STRBUF_INIT;
	wslhost_automount_root(&dir);
	sb_add(&dir, "c/Users");
	add_dir_names(r, dir.buf, true);
	sb_release(&dir);

	struct inifile ini;
	if (wslhost_wsl_conf(&ini) == 0) {
		const struct inifile_item *it = inifile_find(&ini, "user", "default");
		if (it)
			redact_add(r, REDACT_USER, it->value);
		it = inifile_find(&ini, "network", "hostname");
		if (it)
			redact_add(r, REDACT_HOST, it->value);
	}
	inifile_free(&ini);

	for (char *const *e = envp; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		size_t kn = (size_t)(eq - *e);
		/* WSL sets NAME to the computer name (ISDuBA/ISDuBA#664,
		 * ohmyzsh/ohmyzsh#9447). */
		if ((kn == 8 && strncmp(*e, "HOSTNAME", 8) == 0) || (kn == 4 && strncmp(*e, "NAME", 4) == 0))
			redact_add(r, REDACT_HOST, eq + 1);
		else if (redact_secret_name(*e, kn) && eq[1] && eq[1] != '{' && eq[1] != '[')
			redact_add(r, REDACT_SECRET, eq + 1); /* JSON: its keys say what is secret */
		redact_learn(r, *e, strlen(*e));
	}
}
