/* policy.c: the smoke policy file. See policy.h. */
#include "policy.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/json.h"
#include "../core/strbuf.h"
#include "../core/text.h"
#include "inifile.h"
#include "wslconfig.h"

enum key_type {
	K_VERSION,
	K_SIZE,
	K_DURATION,
	K_BOOL,
	K_PIN,       /* one version glob */
	K_DISTROS,   /* list of ID[:VERSION-GLOB] */
	K_PACKAGES,  /* list of dpkg name globs */
	K_PATHS,     /* list of absolute paths (or ~/...) */
	K_PATH_GLOBS,
	K_IDS,       /* list of check/KB id globs */
	K_NAMES,     /* list of layer names or check ids */
};

struct key_def {
	const char *section;
	const char *key;
	enum key_type type;
	size_t offset; /* of the field in struct policy */
};

#define F(field) offsetof(struct policy, field)

static const struct key_def keys[] = {
	{ "driver", "min", K_VERSION, F(driver_min) },
	{ "driver", "max", K_VERSION, F(driver_max) },
	{ "wsl", "min_kernel", K_VERSION, F(min_kernel) },
	{ "wsl", "min_version", K_VERSION, F(min_wsl) },
	{ "distro", "allowed", K_DISTROS, F(distros) },
	{ "packages", "required", K_PACKAGES, F(pkg_required) },
	{ "packages", "forbidden", K_PACKAGES, F(pkg_forbidden) },
	{ "frameworks", "torch", K_PIN, F(fw_torch) },
	{ "frameworks", "torch_cuda", K_PIN, F(fw_torch_cuda) },
	{ "frameworks", "tensorflow", K_PIN, F(fw_tensorflow) },
	{ "frameworks", "jax", K_PIN, F(fw_jax) },
	{ "frameworks", "cupy", K_PIN, F(fw_cupy) },
	{ "frameworks", "matmul", K_BOOL, F(fw_matmul) },
	{ "memory", "min_available", K_SIZE, F(mem_min_available) },
	{ "memory", "min_total", K_SIZE, F(mem_min_total) },
	{ "data", "paths", K_PATHS, F(data_paths) },
	{ "data", "forbidden", K_PATH_GLOBS, F(data_forbidden) },
	{ "tolerate", "findings", K_IDS, F(tolerate) },
	{ "smoke", "budget", K_DURATION, F(budget_ms) },
	{ "smoke", "timeout", K_DURATION, F(timeout_ms) },
	{ "smoke", "layers", K_NAMES, F(layers) },
	{ "smoke", "strict", K_BOOL, F(strict) },
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const char *const sections[] = { "driver", "wsl", "distro", "packages", "frameworks",
					"memory", "data", "tolerate", "smoke" };
#define NSECTIONS (sizeof sections / sizeof sections[0])

/* ---- errors ---- */

static void verror(struct policy *pol, int line, const char *fmt, va_list ap)
{
	if (pol->nerrors >= POLICY_MAX_ERRORS) {
		pol->more_errors++;
		return;
	}
	pol->errors = xrealloc(pol->errors, (pol->nerrors + 1) * sizeof *pol->errors);
	struct strbuf sb = STRBUF_INIT;
	sb_vaddf(&sb, fmt, ap);
	pol->errors[pol->nerrors].line = line;
	pol->errors[pol->nerrors].msg = sb_detach(&sb);
	pol->nerrors++;
}

void policy_error(struct policy *pol, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(pol, line, fmt, ap);
	va_end(ap);
}

void policy_print_errors(const struct policy *pol, FILE *f)
{
	const char *path = pol->path ? pol->path : "policy";
	for (size_t i = 0; i < pol->nerrors; i++) {
		struct strbuf m = STRBUF_INIT;
		text_sanitize(&m, pol->errors[i].msg);
		if (pol->errors[i].line > 0)
			fprintf(f, "%s:%d: %s\n", path, pol->errors[i].line, sb_str(&m));
		else
			fprintf(f, "%s: %s\n", path, sb_str(&m));
		sb_release(&m);
	}
	if (pol->more_errors)
		fprintf(f, "%s: %zu more errors not shown\n", path, pol->more_errors);
}

/* ---- value syntax ---- */

int policy_parse_version(const char *s, struct version *v)
{
	size_t parts = 0, digits = 0;
	for (const char *p = s;; p++) {
		if (isdigit((unsigned char)*p)) {
			if (++digits > 9)
				return -1; /* no real version part is that long */
			continue;
		}
		if (*p != '.' && *p != '\0')
			return -1;
		if (!digits)
			return -1; /* "", ".5", "5..1", "5." */
		parts++;
		digits = 0;
		if (!*p)
			break;
	}
	if (parts > VERSION_MAX_PARTS)
		return -1;
	return version_parse(s, v);
}

static int parse_number(const char *s, double *x, const char **end)
{
	const char *p = s;
	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (p - s > 20)
		return -1;
	char buf[32];
	memcpy(buf, s, (size_t)(p - s));
	buf[p - s] = '\0';
	*x = strtod(buf, NULL);
	*end = p;
	return 0;
}

int policy_parse_size(const char *s, unsigned long long *bytes)
{
	double x;
	const char *u;
	if (parse_number(s, &x, &u) < 0)
		return -1;
	while (*u == ' ')
		u++;
	static const struct {
		const char *unit;
		int shift;
	} units[] = {
		{ "", 0 },   { "B", 0 },   { "K", 10 },  { "KB", 10 }, { "KiB", 10 },
		{ "M", 20 }, { "MB", 20 }, { "MiB", 20 }, { "G", 30 }, { "GB", 30 },
		{ "GiB", 30 }, { "T", 40 }, { "TB", 40 }, { "TiB", 40 },
	};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcasecmp(u, units[i].unit)) {
			double b = ldexp(x, units[i].shift);
			if (b >= 9.0e18 || b < 1)
				return -1;
			*bytes = (unsigned long long)b;
			return 0;
		}
	return -1;
}

int policy_parse_duration(const char *s)
{
	double x;
	const char *u;
	if (parse_number(s, &x, &u) < 0)
		return -1;
	while (*u == ' ')
		u++;
	double ms;
	if (!*u || !strcasecmp(u, "s") || !strcasecmp(u, "sec"))
		ms = x * 1000;
	else if (!strcasecmp(u, "m") || !strcasecmp(u, "min"))
		ms = x * 60000;
	else
		return -1;
	if (ms > 3600e3)
		return -1;
	return (int)ms;
}

/* NULL when the glob's brackets close; otherwise why not. */
static const char *glob_problem(const char *g)
{
	for (size_t i = 0; g[i]; i++) {
		if (g[i] == '\\') {
			if (!g[i + 1])
				return "it ends in a lone backslash";
			i++;
			continue;
		}
		if (g[i] != '[')
			continue;
		size_t j = i + 1;
		if (g[j] == '!' || g[j] == '^')
			j++;
		if (g[j] == ']')
			j++;
		while (g[j] && g[j] != ']')
			j++;
		if (!g[j])
			return "a '[' is never closed by ']'";
		i = j;
	}
	return NULL;
}

static bool only_chars(const char *s, const char *extra, bool lower_only)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (isdigit(*p) || (*p >= 'a' && *p <= 'z') || strchr(extra, *p))
			continue;
		if (!lower_only && *p >= 'A' && *p <= 'Z')
			continue;
		return false;
	}
	return true;
}

#define GLOB_CHARS "*?[]!^\\"

/* Checks one list entry; returns NULL or the problem. */
static const char *entry_problem(enum key_type t, const char *e, struct strbuf *why)
{
	const char *g;
	switch (t) {
	case K_PACKAGES:
		/* Debian Policy 5.6.7: lower case letters, digits, + - . */
		if (!only_chars(e, "+-." GLOB_CHARS, true)) {
			sb_addf(why, "'%s' is not a package name or glob (dpkg names are lower "
				     "case letters, digits and + - .)", e);
			return why->buf;
		}
		break;
	case K_IDS:
	case K_NAMES:
		if (!only_chars(e, "._-" GLOB_CHARS, true)) {
			sb_addf(why, "'%s' is not a check id, KB id or layer name (lower case "
				     "letters, digits and . _ -)", e);
			return why->buf;
		}
		if (t == K_NAMES && strpbrk(e, GLOB_CHARS)) {
			sb_addf(why, "'%s': layers are named exactly, without globs", e);
			return why->buf;
		}
		break;
	case K_PATHS:
	case K_PATH_GLOBS:
		if (e[0] != '/' && !(e[0] == '~' && (e[1] == '/' || !e[1]))) {
			sb_addf(why, "'%s' is not an absolute path (start it with / or ~/)", e);
			return why->buf;
		}
		if (t == K_PATHS && strpbrk(e, "*?[")) {
			sb_addf(why, "'%s': paths to check are named exactly, without globs", e);
			return why->buf;
		}
		break;
	case K_DISTROS: {
		const char *colon = strchr(e, ':');
		size_t idlen = colon ? (size_t)(colon - e) : strlen(e);
		char id[64];
		if (!idlen || idlen >= sizeof id) {
			sb_addf(why, "'%s' is not ID or ID:VERSION (an os-release ID such as "
				     "ubuntu, then an optional version glob: ubuntu:22.04)", e);
			return why->buf;
		}
		memcpy(id, e, idlen);
		id[idlen] = '\0';
		/* os-release(5): ID is 0-9, a-z, ".", "_" and "-". */
		if (!only_chars(id, "._-", true)) {
			sb_addf(why, "'%s' is not an os-release ID (lower case letters, digits and "
				     ". _ -, as in /etc/os-release: ubuntu, debian, fedora)", id);
			return why->buf;
		}
		if (colon && !colon[1]) {
			sb_addf(why, "'%s': no version after the ':'", e);
			return why->buf;
		}
		break;
	}
	default:
		break;
	}
	for (const unsigned char *p = (const unsigned char *)e; *p; p++)
		if (*p <= ' ' || *p == 0x7f) {
			sb_addf(why, "'%s' contains a blank or control character (separate "
				     "entries with commas)", e);
			return why->buf;
		}
	if ((g = glob_problem(e))) {
		sb_addf(why, "'%s' is not a valid glob: %s", e, g);
		return why->buf;
	}
	return NULL;
}

/* ---- matching ---- */

bool policy_glob_match(const char *pattern, const char *name)
{
	return fnmatch(pattern, name, 0) == 0;
}

bool policy_path_forbidden(const char *pattern, const char *path)
{
	struct strbuf pre = STRBUF_INIT;
	bool hit = path[0] == '/' && fnmatch(pattern, "/", FNM_PATHNAME) == 0;
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--; /* "/mnt/c/" is /mnt/c */
	for (size_t i = 1; i <= n && !hit; i++) {
		if (i < n && path[i] != '/')
			continue;
		sb_reset(&pre);
		sb_addn(&pre, path, i);
		hit = fnmatch(pattern, pre.buf, FNM_PATHNAME) == 0;
	}
	sb_release(&pre);
	return hit;
}

bool policy_pin_match(const char *pin, const char *version)
{
	if (fnmatch(pin, version, 0) == 0)
		return true;
	const char *plus = strchr(version, '+');
	if (!plus)
		return false;
	char *base = xstrndup(version, (size_t)(plus - version));
	bool hit = fnmatch(pin, base, 0) == 0;
	free(base);
	return hit;
}

/* ---- the parse ---- */

/* A continuation line: an indented line after a key line, appended to its
 * list. */
struct cont {
	int line;     /* its own line */
	int key_line; /* the key line it continues */
	char *text;
};

struct section_seen {
	int line;
};

static void trim(const char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

static bool valid_utf8(const char *s, size_t n, size_t *bad_at)
{
	for (size_t i = 0; i < n;) {
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		int k = utf8_seq_len((const unsigned char *)s + i, n - i);
		if (!k) {
			*bad_at = i;
			return false;
		}
		i += (size_t)k;
	}
	return true;
}

static int find_key(const char *section, const char *key)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcasecmp(keys[i].section, section) && !strcasecmp(keys[i].key, key))
			return (int)i;
	return -1;
}

static int find_section(const char *name)
{
	for (size_t i = 0; i < NSECTIONS; i++)
		if (!strcasecmp(sections[i], name))
			return (int)i;
	return -1;
}

/* "did you mean" for a key: the closest key of the section, or the section
 * that has a key of this name. */
static void key_hint(const char *section, const char *key, struct strbuf *out)
{
	const char *best = NULL;
	int bestd = 3;
	for (size_t i = 0; i < NKEYS; i++) {
		if (strcasecmp(keys[i].section, section))
			continue;
		int d = text_distance(key, keys[i].key);
		if (d < bestd) {
			bestd = d;
			best = keys[i].key;
		}
	}
	if (best) {
		sb_addf(out, " (did you mean '%s'?)", best);
		return;
	}
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcasecmp(keys[i].key, key)) {
			sb_addf(out, " (it belongs in [%s])", keys[i].section);
			return;
		}
	sb_addf(out, " ([%s] knows:", section);
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcasecmp(keys[i].section, section))
			sb_addf(out, " %s", keys[i].key);
	sb_addc(out, ')');
}

static void section_hint(const char *name, struct strbuf *out)
{
	const char *best = NULL;
	int bestd = 3;
	for (size_t i = 0; i < NSECTIONS; i++) {
		int d = text_distance(name, sections[i]);
		if (d < bestd) {
			bestd = d;
			best = sections[i];
		}
	}
	if (best)
		sb_addf(out, " (did you mean [%s]?)", best);
	else
		sb_add(out, " (known: [driver] [wsl] [distro] [packages] [frameworks] [memory] "
			    "[data] [tolerate] [smoke])");
}

static bool is_list(enum key_type t)
{
	return t == K_DISTROS || t == K_PACKAGES || t == K_PATHS || t == K_PATH_GLOBS ||
	       t == K_IDS || t == K_NAMES;
}

/* Splits one segment (a key's value or a continuation line) into entries.
 * A trailing comma is fine when more segments follow. */
static void add_segment(struct policy *pol, const struct key_def *k, struct policy_list *l,
			const char *seg, int line, bool more_follow)
{
	const char *p = seg;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		const char *e = p;
		trim(&e, &n);
		if (!n) {
			if (!(comma == NULL && more_follow && p != seg))
				policy_error(pol, line, "[%s] %s: an empty entry in the list (two commas "
					     "in a row, or a comma at the end)", k->section, k->key);
		} else if (l->n >= POLICY_MAX_LIST) {
			policy_error(pol, line, "[%s] %s: more than %d entries", k->section, k->key,
				     POLICY_MAX_LIST);
			return;
		} else {
			char *text = xstrndup(e, n);
			struct strbuf why = STRBUF_INIT;
			if (entry_problem(k->type, text, &why)) {
				policy_error(pol, line, "[%s] %s: %s", k->section, k->key, why.buf);
				free(text);
			} else {
				l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
				l->v[l->n].text = text;
				l->v[l->n].line = line;
				l->n++;
			}
			sb_release(&why);
		}
		if (!comma)
			break;
		p = comma + 1;
	}
}

static void set_value(struct policy *pol, const struct key_def *k, const char *val, int line,
		      const struct cont *conts, size_t nconts)
{
	void *field = (char *)pol + k->offset;
	struct strbuf why = STRBUF_INIT;
	switch (k->type) {
	case K_VERSION: {
		struct policy_version *v = field;
		if (policy_parse_version(val, &v->v) < 0) {
			policy_error(pol, line, "[%s] %s: '%s' is not a version (digits and dots "
				     "only, such as 551.23 or 5.15.90.1%s)", k->section, k->key, val,
				     strchr(val, '#') ? "; a comment after a value starts with ' ;'"
						      : "");
			break;
		}
		v->set = true;
		v->text = xstrdup(val);
		v->line = line;
		break;
	}
	case K_SIZE: {
		struct policy_size *s = field;
		if (policy_parse_size(val, &s->bytes) < 0) {
			policy_error(pol, line, "[%s] %s: '%s' is not a size (a number and a unit "
				     "B, K, M, G or T, such as 8G or 512MiB)", k->section, k->key, val);
			break;
		}
		s->set = true;
		s->text = xstrdup(val);
		s->line = line;
		break;
	}
	case K_DURATION: {
		int ms = policy_parse_duration(val);
		int min = !strcmp(k->key, "budget") ? 1000 : 100;
		if (ms < 0) {
			policy_error(pol, line, "[%s] %s: '%s' is not a duration (seconds, such as "
				     "60 or 60s, or minutes: 2m)", k->section, k->key, val);
			break;
		}
		if (ms < min) {
			policy_error(pol, line, "[%s] %s: '%s' is too short (at least %s)", k->section,
				     k->key, val, min == 1000 ? "1s" : "0.1s");
			break;
		}
		*(int *)field = ms;
		if (!strcmp(k->key, "budget"))
			pol->budget_line = line;
		else
			pol->timeout_line = line;
		break;
	}
	case K_BOOL: {
		int b = inifile_bool(val);
		if (b < 0) {
			policy_error(pol, line, "[%s] %s: '%s' is not yes or no", k->section, k->key,
				     val);
			break;
		}
		*(int *)field = b;
		if (!strcmp(k->section, "frameworks") && (!pol->fw_line || line < pol->fw_line))
			pol->fw_line = line;
		break;
	}
	case K_PIN: {
		struct policy_item *it = field;
		if (entry_problem(K_PIN, val, &why)) {
			policy_error(pol, line, "[%s] %s: %s", k->section, k->key, why.buf);
			break;
		}
		it->text = xstrdup(val);
		it->line = line;
		if (!pol->fw_line || line < pol->fw_line)
			pol->fw_line = line;
		break;
	}
	default: {
		struct policy_list *l = field;
		size_t errors_before = pol->nerrors + pol->more_errors;
		l->line = line;
		size_t mine = 0;
		for (size_t i = 0; i < nconts; i++)
			if (conts[i].key_line == line)
				mine++;
		add_segment(pol, k, l, val, line, mine > 0);
		size_t seen = 0;
		for (size_t i = 0; i < nconts; i++)
			if (conts[i].key_line == line) {
				seen++;
				add_segment(pol, k, l, conts[i].text, conts[i].line, seen < mine);
			}
		if (!l->n && pol->nerrors + pol->more_errors == errors_before)
			policy_error(pol, line, "[%s] %s: the list is empty", k->section, k->key);
		break;
	}
	}
	sb_release(&why);
}

int policy_parse(const char *text, size_t len, const char *path, struct policy *pol)
{
	memset(pol, 0, sizeof *pol);
	pol->path = xstrdup(path ? path : "policy");
	pol->fw_matmul = -1;
	pol->strict = -1;
	if (len > POLICY_MAX_BYTES) {
		policy_error(pol, 0, "larger than %u bytes: not a policy file", POLICY_MAX_BYTES);
		return -1;
	}
	if (len >= 2 && (((unsigned char)text[0] == 0xff && (unsigned char)text[1] == 0xfe) ||
			 ((unsigned char)text[0] == 0xfe && (unsigned char)text[1] == 0xff))) {
		policy_error(pol, 1, "the file is UTF-16 (Notepad's \"Unicode\"): save it as UTF-8");
		return -1;
	}
	size_t pos = 0;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3; /* a UTF-8 byte-order mark is harmless */

	/* Pass 1, line by line: what inih must not see (bytes, over-long
	 * lines), sections, and continuation lines; the rest goes to inih
	 * with the line numbers kept (rejected lines become blank). */
	struct strbuf doc = STRBUF_INIT;
	struct cont *conts = NULL;
	size_t nconts = 0;
	int section_line[NSECTIONS] = { 0 };
	int lineno = 0, last_key_line = 0;
	bool in_unknown_section = false;
	while (pos < len) {
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		lineno++;
		const char *line = text + pos;
		size_t ll = end - pos;
		pos = end + 1;
		if (ll && line[ll - 1] == '\r')
			ll--;
		size_t bad;
		bool ok = true;
		if (memchr(line, '\0', ll)) {
			policy_error(pol, lineno, "a NUL byte: this is not a text file");
			ok = false;
		} else if (!valid_utf8(line, ll, &bad)) {
			policy_error(pol, lineno, "not UTF-8 (byte 0x%02x at column %zu): save the "
				     "file as UTF-8", (unsigned char)line[bad], bad + 1);
			ok = false;
		} else if (ll > POLICY_MAX_LINE) {
			policy_error(pol, lineno, "the line is %zu bytes long, more than %d: continue "
				     "a long list on indented lines", ll, POLICY_MAX_LINE);
			ok = false;
		}
		const char *t = line;
		size_t tl = ll;
		trim(&t, &tl);
		bool indented = ll && (line[0] == ' ' || line[0] == '\t');
		if (!ok || !tl || t[0] == ';' || t[0] == '#') {
			/* A comment may sit inside a list; a blank line ends it. */
			if (!ok || !tl)
				last_key_line = 0;
			sb_addc(&doc, '\n');
			continue;
		}
		if (t[0] == '[') {
			last_key_line = 0;
			const char *close = memchr(t, ']', tl);
			if (!close || close != t + tl - 1) {
				policy_error(pol, lineno, "a section header is [name] alone on its line");
				in_unknown_section = true;
				/* Its keys must not land in the section before. */
				sb_add(&doc, "[?]\n");
				continue;
			}
			char *name = xstrndup(t + 1, (size_t)(close - t - 1));
			int s = find_section(name);
			if (s < 0) {
				struct strbuf h = STRBUF_INIT;
				section_hint(name, &h);
				policy_error(pol, lineno, "unknown section [%s]%s", name, h.buf);
				sb_release(&h);
				in_unknown_section = true;
			} else if (section_line[s]) {
				policy_error(pol, lineno, "[%s] again (first at line %d): put all its "
					     "keys in one section", sections[s], section_line[s]);
				in_unknown_section = false;
			} else {
				section_line[s] = lineno;
				in_unknown_section = false;
			}
			free(name);
			sb_addn(&doc, line, ll);
			sb_addc(&doc, '\n');
			continue;
		}
		bool has_eq = memchr(t, '=', tl) != NULL;
		if (indented && !has_eq && in_unknown_section) {
			sb_addc(&doc, '\n'); /* its section is reported already */
			continue;
		}
		if (indented && !has_eq && last_key_line) {
			conts = xrealloc(conts, (nconts + 1) * sizeof *conts);
			conts[nconts].line = lineno;
			conts[nconts].key_line = last_key_line;
			/* Drop an inline " ;" comment as inih does on key lines. */
			size_t n = tl;
			for (size_t i = 1; i < tl; i++)
				if (t[i] == ';' && isspace((unsigned char)t[i - 1])) {
					n = i;
					break;
				}
			const char *c = t;
			trim(&c, &n);
			conts[nconts].text = xstrndup(c, n);
			nconts++;
			sb_addc(&doc, '\n');
			continue;
		}
		if (!has_eq && !memchr(t, ':', tl)) {
			if (indented)
				policy_error(pol, lineno, "an indented line continues a list only right "
					     "after its key line");
			else
				policy_error(pol, lineno, "not 'key = value', a [section] or a comment");
			last_key_line = 0;
			sb_addc(&doc, '\n');
			continue;
		}
		last_key_line = in_unknown_section ? 0 : lineno;
		sb_addn(&doc, line, ll);
		sb_addc(&doc, '\n');
	}

	/* Pass 2: inih splits the key lines. */
	struct inifile ini;
	inifile_parse(doc.buf ? doc.buf : "", doc.len, &ini);
	int key_seen[NKEYS] = { 0 };
	for (size_t i = 0; i < ini.n; i++) {
		const struct inifile_item *it = &ini.items[i];
		if (!*it->section) {
			policy_error(pol, it->line, "'%s' comes before any [section]", it->key);
			continue;
		}
		if (find_section(it->section) < 0)
			continue; /* reported at its header */
		int k = find_key(it->section, it->key);
		if (k < 0) {
			struct strbuf h = STRBUF_INIT;
			key_hint(it->section, it->key, &h);
			policy_error(pol, it->line, "unknown key '%s' in [%s]%s", it->key, it->section,
				     h.buf);
			sb_release(&h);
			continue;
		}
		if (key_seen[k]) {
			policy_error(pol, it->line, "[%s] %s is set again (first at line %d)",
				     keys[k].section, keys[k].key, key_seen[k]);
			continue;
		}
		key_seen[k] = it->line;
		if (!*it->value) {
			policy_error(pol, it->line, "[%s] %s has no value", keys[k].section, keys[k].key);
			continue;
		}
		if (!is_list(keys[k].type))
			for (size_t c = 0; c < nconts; c++)
				if (conts[c].key_line == it->line)
					policy_error(pol, conts[c].line, "[%s] %s takes one value; only "
						     "lists go on over indented lines", keys[k].section,
						     keys[k].key);
		set_value(pol, &keys[k], it->value, it->line, conts, nconts);
	}
	if (ini.error_line) {
		bool known = false;
		for (size_t i = 0; i < pol->nerrors; i++)
			if (pol->errors[i].line == ini.error_line)
				known = true;
		if (!known)
			policy_error(pol, ini.error_line, "this line cannot be parsed as INI");
	}
	if (pol->driver_min.set && pol->driver_max.set &&
	    version_cmp(&pol->driver_min.v, &pol->driver_max.v) > 0)
		policy_error(pol, pol->driver_max.line, "[driver] max %s is below min %s (line %d)",
			     pol->driver_max.text, pol->driver_min.text, pol->driver_min.line);
	inifile_free(&ini);
	for (size_t i = 0; i < nconts; i++)
		free(conts[i].text);
	free(conts);
	sb_release(&doc);
	return pol->nerrors || pol->more_errors ? -1 : 0;
}

int policy_load(const char *path, struct policy *pol)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	const char *why = NULL;
	int err = 0;
	if (fd < 0)
		err = errno;
	else if (fstat(fd, &st) < 0)
		err = errno;
	else if (S_ISDIR(st.st_mode))
		why = "is a directory, not a policy file";
	else if (!S_ISREG(st.st_mode))
		why = "is not a regular file";
	else if (st.st_size > (off_t)POLICY_MAX_BYTES)
		why = "is larger than 1 MiB: not a policy file";
	if (err || why) {
		memset(pol, 0, sizeof *pol);
		pol->path = xstrdup(path);
		policy_error(pol, 0, "%s", why ? why : strerror(err));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	struct strbuf sb = STRBUF_INIT;
	/* One byte over the limit: if it grew while we read, policy_parse says so. */
	err = -sb_read_fd(&sb, fd, POLICY_MAX_BYTES + 1, NULL);
	close(fd);
	int rc;
	if (err) {
		memset(pol, 0, sizeof *pol);
		pol->path = xstrdup(path);
		policy_error(pol, 0, "%s", strerror(err));
		rc = -1;
	} else {
		rc = policy_parse(sb.buf ? sb.buf : "", sb.len, path, pol);
	}
	sb_release(&sb);
	return rc;
}

static void free_list(struct policy_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
}

void policy_free(struct policy *pol)
{
	free(pol->path);
	free(pol->driver_min.text);
	free(pol->driver_max.text);
	free(pol->min_kernel.text);
	free(pol->min_wsl.text);
	free_list(&pol->distros);
	free_list(&pol->pkg_required);
	free_list(&pol->pkg_forbidden);
	free(pol->fw_torch.text);
	free(pol->fw_torch_cuda.text);
	free(pol->fw_tensorflow.text);
	free(pol->fw_jax.text);
	free(pol->fw_cupy.text);
	free(pol->mem_min_available.text);
	free(pol->mem_min_total.text);
	free_list(&pol->data_paths);
	free_list(&pol->data_forbidden);
	free_list(&pol->tolerate);
	free_list(&pol->layers);
	for (size_t i = 0; i < pol->nerrors; i++)
		free(pol->errors[i].msg);
	free(pol->errors);
	memset(pol, 0, sizeof *pol);
}
