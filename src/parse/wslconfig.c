/* wslconfig.c: .wslconfig as WSL reads it. See wslconfig.h. */
#include "wslconfig.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/strbuf.h"
#include "../core/text.h"
#include "inifile.h"
#include "wintext.h"

enum key_type { T_ANY, T_SIZE, T_INT, T_BOOL };

struct known_key {
	const char *section;
	const char *key;
	enum key_type type;
};

/*
 * The keys WSL's parser knows: ConfigSetting in
 * microsoft/WSL src/windows/common/WslCoreConfig.h (research/wsl-facts.md §9),
 * plus the [experimental] aliases it still accepts.
 */
static const struct known_key known_keys[] = {
	{ "wsl2", "kernel", T_ANY },
	{ "wsl2", "kernelCommandLine", T_ANY },
	{ "wsl2", "kernelModules", T_ANY },
	{ "wsl2", "memory", T_SIZE },
	{ "wsl2", "processors", T_INT },
	{ "wsl2", "debugConsole", T_BOOL },
	{ "wsl2", "earlyBootLogging", T_BOOL },
	{ "wsl2", "swap", T_SIZE },
	{ "wsl2", "swapFile", T_ANY },
	{ "wsl2", "localhostForwarding", T_BOOL },
	{ "wsl2", "nestedVirtualization", T_BOOL },
	{ "wsl2", "virtio9p", T_BOOL },
	{ "wsl2", "virtiofs", T_BOOL },
	{ "wsl2", "kernelDebugPort", T_INT },
	{ "wsl2", "gpuSupport", T_BOOL },
	{ "wsl2", "guiApplications", T_BOOL },
	{ "wsl2", "systemDistro", T_ANY },
	{ "wsl2", "telemetry", T_BOOL },
	{ "wsl2", "vmIdleTimeout", T_INT },
	{ "wsl2", "debugConsoleLogFile", T_ANY },
	{ "wsl2", "kernelBootTimeout", T_INT },
	{ "wsl2", "distributionStartTimeout", T_INT },
	{ "wsl2", "virtio", T_BOOL },
	{ "wsl2", "hostFileSystemAccess", T_BOOL },
	{ "wsl2", "mountDeviceTimeout", T_INT },
	{ "wsl2", "hardwarePerformanceCounters", T_BOOL },
	{ "wsl2", "networkingMode", T_ANY },
	{ "wsl2", "vmSwitch", T_ANY },
	{ "wsl2", "macAddress", T_ANY },
	{ "wsl2", "dhcp", T_BOOL },
	{ "wsl2", "dhcpTimeout", T_INT },
	{ "wsl2", "ipv6", T_BOOL },
	{ "wsl2", "dnsProxy", T_BOOL },
	{ "wsl2", "safeMode", T_BOOL },
	{ "wsl2", "defaultVhdSize", T_SIZE },
	{ "wsl2", "crashDumpFolder", T_ANY },
	{ "wsl2", "maxCrashDumpCount", T_INT },
	{ "wsl2", "dnsTunneling", T_BOOL },
	{ "wsl2", "firewall", T_BOOL },
	{ "wsl2", "autoProxy", T_BOOL },
	{ "wsl2", "loadKernelModules", T_ANY },
	{ "wsl2", "loadDefaultKernelModules", T_BOOL },
	{ "wsl2", "isolateDistroCgroup", T_ANY },
	{ "general", "distributionInstallPath", T_ANY },
	{ "general", "instanceIdleTimeout", T_INT },
	{ "experimental", "networkingMode", T_ANY },
	{ "experimental", "autoMemoryReclaim", T_ANY },
	{ "experimental", "sparseVhd", T_BOOL },
	{ "experimental", "dnsTunneling", T_BOOL },
	{ "experimental", "bestEffortDnsParsing", T_BOOL },
	{ "experimental", "dnsTunnelingIpAddress", T_ANY },
	{ "experimental", "firewall", T_BOOL },
	{ "experimental", "autoProxy", T_BOOL },
	{ "experimental", "initialAutoProxyTimeout", T_INT },
	{ "experimental", "ignoredPorts", T_ANY },
	{ "experimental", "hostAddressLoopback", T_BOOL },
	{ "experimental", "setVersionDebug", T_BOOL },
	{ "experimental", "swiotlb", T_ANY },
	{ "experimental", "virtioFsAggregateShares", T_ANY },
};
#define NKNOWN (sizeof known_keys / sizeof known_keys[0])

static const char *const known_sections[] = { "wsl2", "general", "experimental" };

int wslconfig_size(const char *v, unsigned long long *bytes)
{
	static const struct {
		const char *unit;
		unsigned shift;
	} units[] = { { "B", 0 }, { "K", 10 }, { "KB", 10 }, { "M", 20 }, { "MB", 20 },
		      { "G", 30 }, { "GB", 30 }, { "T", 40 }, { "TB", 40 } };
	if (!v || !isdigit((unsigned char)*v))
		return -1; /* strtoull would accept blanks and signs; WSL then rejects 0 */
	unsigned long long x = 0;
	const char *p = v;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (x > (ULLONG_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	if (x == 0 && p != v + 1)
		return -1; /* "00" is not "0" to WSL */
	if (!*p) {
		*bytes = x;
		return 0;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(p, units[i].unit)) {
			if (units[i].shift && x > (ULLONG_MAX >> units[i].shift))
				return -1;
			*bytes = x << units[i].shift;
			return 0;
		}
	return -1;
}

int wslconfig_bool(const char *v)
{
	if (!v)
		return -1;
	if (!strcmp(v, "1") || !strcasecmp(v, "true"))
		return 1;
	if (!strcmp(v, "0") || !strcasecmp(v, "false"))
		return 0;
	return -1;
}

/* WSL reads integers with strtol(value, &end, 0) and wants all of it used. */
static bool wsl_int(const char *v, long *out)
{
	if (!*v)
		return false;
	char *end;
	errno = 0;
	long x = strtol(v, &end, 0);
	if (*end || errno || x < INT_MIN || x > INT_MAX)
		return false;
	*out = x;
	return true;
}

static void add_issue(struct wslconfig *wc, enum wslconfig_problem kind, int line,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void add_issue(struct wslconfig *wc, enum wslconfig_problem kind, int line,
		      const char *fmt, ...)
{
	if (wc->nissues >= WSLCONFIG_MAX_ISSUES) {
		wc->more_issues++;
		return;
	}
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* Keep the list in line order (file-wide issues, line 0, first). */
	wc->issues = xrealloc(wc->issues, (wc->nissues + 1) * sizeof *wc->issues);
	size_t at = wc->nissues;
	while (at > 0 && wc->issues[at - 1].line > line)
		at--;
	memmove(wc->issues + at + 1, wc->issues + at, (wc->nissues - at) * sizeof *wc->issues);
	wc->issues[at].kind = kind;
	wc->issues[at].line = line;
	wc->issues[at].msg = sb_detach(&sb);
	wc->nissues++;
}

/* Printable copy of a value for messages: control bytes become '?', long
 * values are cut. */
static char *show(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	for (const char *p = s; *p && n < 60; p++, n++)
		sb_addc(&sb, (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p);
	if (strlen(s) > 60)
		sb_add(&sb, "...");
	return sb_detach(&sb);
}

static bool ascii_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool ascii_alnum(char c)
{
	return ascii_alpha(c) || (c >= '0' && c <= '9');
}

static void add_item(struct inifile *ini, const char *section, const char *key, size_t kn,
		     const char *value, size_t vn, int line)
{
	if (ini->n == ini->alloc) {
		ini->alloc = ini->alloc ? ini->alloc * 2 : 16;
		ini->items = xrealloc(ini->items, ini->alloc * sizeof *ini->items);
	}
	struct inifile_item *it = &ini->items[ini->n++];
	it->section = xstrdup(section);
	it->key = xstrndup(key, kn);
	it->value = xstrndup(value, vn);
	it->line = line;
}

/* A syntax issue quoting the start of line [s, e). */
static void bad_line(struct wslconfig *wc, int line, const char *s, const char *e,
		     const char *why)
{
	struct strbuf l = STRBUF_INIT;
	size_t n = (size_t)(e - s);
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	sb_addn(&l, s, n > 60 ? 60 : n);
	char *shown = show(l.buf ? l.buf : "");
	add_issue(wc, WC_SYNTAX, line, "'%s': %s; WSL skips this line", shown, why);
	free(shown);
	sb_release(&l);
}

/*
 * The structure of the file as WSL's own parser reads it
 * (microsoft/WSL src/shared/configfile/configfile.cpp, ParseConfigFile):
 * after leading blanks a line is empty, a '#' comment, "[section]" whose
 * name is a letter then letters and digits, or "key = value" whose key is
 * a letter then letters and digits. Anything else — a ';' comment, a '-'
 * or '_' in a name — is an invalid line that WSL warns about and skips; an
 * invalid "[...]" leaves the previous section in force. A value runs to
 * the end of the line or an unquoted '#'; quotes are removed; \\ \" \b \n
 * \t are escapes and a backslash at the end of a line continues the value
 * on the next; any other escape (\U in "C:\Users") makes the whole line
 * invalid; trailing blanks are dropped. Items hold the decoded values.
 */
static void wsl_scan(const char *text, size_t len, struct inifile *ini, struct wslconfig *wc)
{
	struct strbuf section = STRBUF_INIT, value = STRBUF_INIT;
	sb_addn(&section, "", 0);
	const char *p = text, *end = text + len;
	int line = 1;
	while (p < end) {
		const char *ls = p; /* the line as the user sees it, for messages */
		int at = line;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *next = eol < end ? eol + 1 : end;
		if (p == eol || *p == '\r' || *p == '#') {
			p = next;
			line++;
			continue;
		}
		if (*p == '[') {
			const char *n = p + 1, *q = n;
			while (q < eol && ascii_alnum(*q))
				q++;
			const char *t = q + 1;
			while (t < eol && (*t == ' ' || *t == '\t'))
				t++;
			if (!ascii_alpha(*n) || q == eol || *q != ']')
				bad_line(wc, at, ls, eol, "a section name is a letter then letters and "
					 "digits in ']' (WSL says \"Expected ']'\" or \"Invalid section "
					 "name\")");
			else if (t < eol && *t != '#' && *t != '\r')
				bad_line(wc, at, ls, eol, "nothing but a '#' comment may follow ']'");
			else {
				sb_reset(&section);
				sb_addn(&section, n, (size_t)(q - n));
			}
			p = next;
			line++;
			continue;
		}
		if (!ascii_alpha(*p)) {
			bad_line(wc, at, ls, eol, *p == ';' ? "comments start with '#', not ';' (WSL "
				 "says \"Invalid key name\")" : "a key starts with a letter (WSL says "
				 "\"Invalid key name\")");
			p = next;
			line++;
			continue;
		}
		const char *key = p;
		while (p < eol && ascii_alnum(*p))
			p++;
		size_t kn = (size_t)(p - key);
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p == eol || *p != '=') {
			bad_line(wc, at, ls, eol, "a key is letters and digits followed by '=' (WSL "
				 "says \"Expected '='\")");
			p = next;
			line++;
			continue;
		}
		p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		sb_reset(&value);
		sb_addn(&value, "", 0);
		size_t keep = 0;
		bool quoted = false, invalid = false;
		const char *why = NULL;
		char esc[2] = { 0, 0 }, msg[160];
		while (p < end && *p != '\n' && *p != '\r') {
			char c = *p++;
			if (c == '"') {
				quoted = !quoted;
			} else if (c == '\\') {
				char c2 = p < end ? *p++ : '\0';
				if (c2 == '\\' || c2 == '"')
					sb_addc(&value, c2);
				else if (c2 == 'b')
					sb_addc(&value, '\b');
				else if (c2 == 'n')
					sb_addc(&value, '\n');
				else if (c2 == 't')
					sb_addc(&value, '\t');
				else if (c2 == '\n')
					line++; /* continued on the next line */
				else {
					invalid = true;
					esc[0] = c2 >= 0x20 && c2 < 0x7f ? c2 : '?';
					break;
				}
			} else if (c == '#' && !quoted) {
				break;
			} else {
				sb_addc(&value, c);
			}
			if (c != ' ' && c != '\t')
				keep = value.len;
		}
		if (invalid) {
			snprintf(msg, sizeof msg, "\\%s is not an escape WSL knows (write \\\\ for a "
				 "backslash: C:\\\\Users\\\\...)", esc);
			why = msg;
		} else if (quoted) {
			why = "a '\"' is not closed (WSL says \"Expected '\"'\")";
		}
		/* The rest of the line: a comment, or what an invalid line left. */
		const char *rest = memchr(p < end ? p : end, '\n', (size_t)(end - (p < end ? p : end)));
		const char *stop = rest ? rest : end;
		if (why) {
			bad_line(wc, at, ls, stop, why);
		} else {
			add_item(ini, section.buf, key, kn, value.buf, keep, at);
		}
		p = rest ? rest + 1 : end;
		line++;
	}
	sb_release(&section);
	sb_release(&value);
}

static const struct known_key *find_key(const char *section, const char *key)
{
	for (size_t i = 0; i < NKNOWN; i++)
		if (!strcasecmp(known_keys[i].section, section) && !strcasecmp(known_keys[i].key, key))
			return &known_keys[i];
	return NULL;
}

static bool known_section(const char *s)
{
	for (size_t i = 0; i < sizeof known_sections / sizeof known_sections[0]; i++)
		if (!strcasecmp(known_sections[i], s))
			return true;
	return false;
}

/* The known key of this section closest to key, if it is a likely typo. */
static const char *suggest_key(const char *section, const char *key)
{
	const char *best = NULL;
	int bestd = 3;
	for (size_t i = 0; i < NKNOWN; i++) {
		if (strcasecmp(known_keys[i].section, section))
			continue;
		int d = text_distance(key, known_keys[i].key);
		if (d < bestd) {
			bestd = d;
			best = known_keys[i].key;
		}
	}
	/* A key that belongs to another section is the likelier mistake. */
	if (!best)
		for (size_t i = 0; i < NKNOWN; i++)
			if (!strcasecmp(known_keys[i].key, key))
				return known_keys[i].section;
	return best;
}

static void remember(struct wslconfig_setting *s, const char *text, int line,
		     unsigned long long val, bool valid)
{
	s->text = xstrdup(text);
	s->line = line;
	s->val = val;
	s->set = valid;
}

void wslconfig_check(const char *buf, size_t len, struct wslconfig *wc)
{
	memset(wc, 0, sizeof *wc);
	const unsigned char *b = (const unsigned char *)buf;
	struct strbuf text = STRBUF_INIT;
	bool bom, be;
	if (buf && wintext_sniff_utf16(b, len, &bom, &be)) {
		wc->utf16 = true;
		wc->utf16_bom = bom;
		wc->utf16_be = be;
		wintext_utf16_to_utf8(b + (bom ? 2 : 0), len - (bom ? 2 : 0), be, &text);
		add_issue(wc, WC_UTF16, 0, "saved as UTF-16%s%s", be ? "BE" : "LE",
			  bom ? " with a byte-order mark" : " without a byte-order mark");
	} else if (buf) {
		sb_addn(&text, buf, len);
	}
	/* A real .wslconfig is a few hundred bytes; checking the start of a
	 * huge one says all there is to say and bounds the work. */
	if (text.len > WSLCONFIG_MAX_BYTES) {
		add_issue(wc, WC_SYNTAX, 0, "is %zu bytes long; only the first %d KiB were checked",
			  text.len, WSLCONFIG_MAX_BYTES >> 10);
		text.len = WSLCONFIG_MAX_BYTES;
		text.buf[text.len] = '\0';
	}
	const char *t = text.buf ? text.buf : "";
	size_t tl = text.len;
	/* WSL opens the file with ccs=UTF-8, which consumes a UTF-8 BOM. */
	if (tl >= 3 && (unsigned char)t[0] == 0xef && (unsigned char)t[1] == 0xbb &&
	    (unsigned char)t[2] == 0xbf) {
		wc->utf8_bom = true;
		t += 3;
		tl -= 3;
	}
	wc->crlf = memmem(t, tl, "\r\n", 2) != NULL;
	if (memchr(t, '\0', tl)) {
		wc->binary = true;
		add_issue(wc, WC_BINARY, 0, "contains NUL bytes: not a text file");
	}
	struct inifile ini;
	memset(&ini, 0, sizeof ini);
	wsl_scan(t, tl, &ini, wc);

	/* A real .wslconfig has a few dozen lines; bound the work (the checks
	 * below compare items pairwise) on a hostile or corrupt file. */
	size_t nitems = ini.n;
	if (nitems > WSLCONFIG_MAX_ITEMS) {
		add_issue(wc, WC_SYNTAX, 0, "has %zu settings; only the first %d were checked",
			  ini.n, WSLCONFIG_MAX_ITEMS);
		nitems = WSLCONFIG_MAX_ITEMS;
	}

	/* Sections that WSL does not know, reported once each. */
	for (size_t i = 0; i < nitems; i++) {
		const struct inifile_item *it = &ini.items[i];
		if (!*it->section || known_section(it->section))
			continue;
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			if (!strcasecmp(ini.items[j].section, it->section))
				seen = true;
		if (seen)
			continue;
		const char *hint = NULL;
		for (size_t k = 0; k < sizeof known_sections / sizeof known_sections[0]; k++)
			if (text_distance(it->section, known_sections[k]) <= 2)
				hint = known_sections[k];
		char *shown = show(it->section);
		add_issue(wc, WC_UNKNOWN_SECTION, it->line,
			  "[%s] is not a .wslconfig section%s%s%s: WSL ignores its keys", shown,
			  hint ? " (did you mean [" : "", hint ? hint : "", hint ? "]?)" : "");
		free(shown);
	}

	for (size_t i = 0; i < nitems; i++) {
		const struct inifile_item *it = &ini.items[i];
		char *key = show(it->key);
		if (!*it->section) {
			add_issue(wc, WC_NO_SECTION, it->line,
				  "%s= comes before any [section]: WSL ignores it (put it under [wsl2])",
				  key);
			free(key);
			continue;
		}
		if (!known_section(it->section)) {
			free(key);
			continue;
		}
		const struct known_key *k = find_key(it->section, it->key);
		if (!k) {
			const char *hint = suggest_key(it->section, it->key);
			bool other_section = hint && find_key(hint, it->key);
			if (other_section)
				add_issue(wc, WC_UNKNOWN_KEY, it->line,
					  "%s= belongs in [%s], not [%s]", key, hint, it->section);
			else
				add_issue(wc, WC_UNKNOWN_KEY, it->line,
					  "unknown key %s= in [%s]%s%s%s", key, it->section,
					  hint ? " (did you mean " : "", hint ? hint : "",
					  hint ? "?)" : "");
			free(key);
			continue;
		}
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			if (!strcasecmp(ini.items[j].section, it->section) &&
			    !strcasecmp(ini.items[j].key, it->key))
				dup = true;
		if (dup) {
			add_issue(wc, WC_DUPLICATE, it->line,
				  "%s= repeats an earlier line: WSL keeps the first and ignores this one",
				  k->key);
			free(key);
			continue;
		}
		char *val = xstrdup(it->value);
		char *shown = show(val);
		unsigned long long bytes = 0;
		long num = 0;
		bool valid = true;
		switch (k->type) {
		case T_SIZE:
			if (wslconfig_size(val, &bytes) < 0) {
				valid = false;
				add_issue(wc, WC_BAD_SIZE, it->line,
					  "%s=%s is not a size WSL reads (a whole number with B, K, KB, "
					  "M, MB, G, GB, T or TB in capitals, e.g. 8GB): WSL uses its "
					  "default", k->key, shown);
			}
			break;
		case T_INT:
			if (!wsl_int(val, &num)) {
				valid = false;
				add_issue(wc, WC_BAD_NUMBER, it->line,
					  "%s=%s is not a whole number: WSL uses its default", k->key,
					  shown);
			}
			break;
		case T_BOOL:
			if (wslconfig_bool(val) < 0) {
				valid = false;
				add_issue(wc, WC_BAD_BOOL, it->line,
					  "%s=%s is not true or false: WSL uses its default", k->key, shown);
			}
			break;
		case T_ANY:
			break;
		}
		if (!strcasecmp(it->section, "wsl2")) {
			if (!strcasecmp(k->key, "memory"))
				remember(&wc->memory, val, it->line, bytes, valid);
			else if (!strcasecmp(k->key, "swap"))
				remember(&wc->swap, val, it->line, bytes, valid);
			else if (!strcasecmp(k->key, "processors"))
				remember(&wc->processors, val, it->line,
					 num > 0 ? (unsigned long long)num : 0, valid);
			else if (!strcasecmp(k->key, "gpuSupport"))
				remember(&wc->gpu_support, val, it->line,
					 wslconfig_bool(val) == 1, valid);
			else if (!strcasecmp(k->key, "kernel"))
				remember(&wc->kernel, val, it->line, 0, *val != '\0');
			else if (!strcasecmp(k->key, "safeMode"))
				remember(&wc->safe_mode, val, it->line,
					 wslconfig_bool(val) == 1, valid);
		}
		free(val);
		free(shown);
		free(key);
	}
	inifile_free(&ini);
	sb_release(&text);
}

void wslconfig_free(struct wslconfig *wc)
{
	for (size_t i = 0; i < wc->nissues; i++)
		free(wc->issues[i].msg);
	free(wc->issues);
	free(wc->memory.text);
	free(wc->swap.text);
	free(wc->processors.text);
	free(wc->gpu_support.text);
	free(wc->kernel.text);
	free(wc->safe_mode.text);
	memset(wc, 0, sizeof *wc);
}
