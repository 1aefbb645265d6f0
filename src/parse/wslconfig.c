/* wslconfig.c: .wslconfig as WSL reads it. See wslconfig.h. */
#include "wslconfig.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/strbuf.h"
#include "../core/text.h"
#include "inifile.h"

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
	{ "general", "guiApplications", T_ANY },
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
	{ "experimental", "portRelay", T_ANY },
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

/*
 * Decodes UTF-16 into UTF-8. Code units below 0x80 are copied, others are
 * encoded as UTF-8 (surrogate pairs combined; a lone surrogate becomes '?').
 */
static void decode_utf16(const unsigned char *b, size_t len, bool be, struct strbuf *out)
{
	for (size_t i = 0; i + 1 < len; i += 2) {
		unsigned u = be ? (unsigned)b[i] << 8 | b[i + 1] : (unsigned)b[i + 1] << 8 | b[i];
		unsigned cp = u;
		if (u >= 0xd800 && u <= 0xdbff && i + 3 < len) {
			unsigned lo = be ? (unsigned)b[i + 2] << 8 | b[i + 3]
					 : (unsigned)b[i + 3] << 8 | b[i + 2];
			if (lo >= 0xdc00 && lo <= 0xdfff) {
				cp = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				i += 2;
			} else {
				cp = '?';
			}
		} else if (u >= 0xd800 && u <= 0xdfff) {
			cp = '?';
		}
		if (cp == 0)
			continue;
		if (cp < 0x80) {
			sb_addc(out, (char)cp);
		} else if (cp < 0x800) {
			sb_addc(out, (char)(0xc0 | cp >> 6));
			sb_addc(out, (char)(0x80 | (cp & 0x3f)));
		} else if (cp < 0x10000) {
			sb_addc(out, (char)(0xe0 | cp >> 12));
			sb_addc(out, (char)(0x80 | ((cp >> 6) & 0x3f)));
			sb_addc(out, (char)(0x80 | (cp & 0x3f)));
		} else {
			sb_addc(out, (char)(0xf0 | cp >> 18));
			sb_addc(out, (char)(0x80 | ((cp >> 12) & 0x3f)));
			sb_addc(out, (char)(0x80 | ((cp >> 6) & 0x3f)));
			sb_addc(out, (char)(0x80 | (cp & 0x3f)));
		}
	}
}

/* Says whether b looks like UTF-16, and which byte order. */
static bool sniff_utf16(const unsigned char *b, size_t len, bool *bom, bool *be)
{
	*bom = *be = false;
	if (len >= 2 && b[0] == 0xff && b[1] == 0xfe) {
		*bom = true;
		return true;
	}
	if (len >= 2 && b[0] == 0xfe && b[1] == 0xff) {
		*bom = *be = true;
		return true;
	}
	/* No BOM: ASCII text in UTF-16 has a NUL in every other byte. */
	size_t even = 0, odd = 0, pairs = len / 2;
	for (size_t i = 0; i + 1 < len; i += 2) {
		even += b[i] == 0;
		odd += b[i + 1] == 0;
	}
	if (pairs >= 2 && odd * 10 >= pairs * 9 && even * 10 < pairs) {
		return true; /* little endian */
	}
	if (pairs >= 2 && even * 10 >= pairs * 9 && odd * 10 < pairs) {
		*be = true;
		return true;
	}
	return false;
}

/*
 * The value as WSL sees it: an unquoted '#' starts a comment, quotes are
 * removed, \\ \" \n \t \b are escapes, trailing blanks are dropped.
 */
static char *wsl_value(const char *raw)
{
	struct strbuf sb = STRBUF_INIT;
	bool quoted = false;
	size_t keep = 0;
	sb_addn(&sb, "", 0);
	for (const char *p = raw; *p; p++) {
		if (*p == '"') {
			quoted = !quoted;
			continue;
		}
		if (*p == '#' && !quoted)
			break;
		if (*p == '\\' && p[1]) {
			p++;
			char c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == 'b' ? '\b' : *p;
			sb_addc(&sb, c);
			keep = sb.len;
			continue;
		}
		sb_addc(&sb, *p);
		if (*p != ' ' && *p != '\t')
			keep = sb.len;
	}
	sb.len = keep;
	sb.buf[keep] = '\0';
	return sb_detach(&sb);
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
	if (buf && sniff_utf16(b, len, &bom, &be)) {
		wc->utf16 = true;
		wc->utf16_bom = bom;
		wc->utf16_be = be;
		decode_utf16(b + (bom ? 2 : 0), len - (bom ? 2 : 0), be, &text);
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
	struct inifile ini;
	inifile_parse(text.buf ? text.buf : "", text.len, &ini);
	wc->utf8_bom = ini.utf8_bom;
	wc->crlf = ini.crlf;
	if (ini.nul_bytes || ini.utf16) {
		wc->binary = true;
		add_issue(wc, WC_BINARY, 0, "contains NUL bytes: not a text file");
	}

	/* Lines inih could not parse. inifile records only the first; find
	 * the rest ourselves so that each is reported with its number. */
	if (ini.error_line) {
		int lineno = 0;
		const char *p = text.buf ? text.buf : "", *end = p + text.len;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *eol = nl ? nl : end;
			lineno++;
			const char *s = p;
			if (lineno == 1 && ini.utf8_bom && eol - s >= 3)
				s += 3;
			while (s < eol && (*s == ' ' || *s == '\t'))
				s++;
			size_t n = (size_t)(eol - s);
			while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
				n--;
			bool comment = n == 0 || *s == '#' || *s == ';';
			bool section = n && *s == '[' && memchr(s, ']', n);
			bool kv = n && memchr(s, '=', n) && *s != '=';
			if (!comment && !section && !kv) {
				struct strbuf l = STRBUF_INIT;
				sb_addn(&l, s, n > 60 ? 60 : n);
				char *shown = show(l.buf);
				add_issue(wc, WC_SYNTAX, lineno,
					  "'%s' is not [section], key=value or a # comment", shown);
				free(shown);
				sb_release(&l);
			}
			if (!nl)
				break;
			p = nl + 1;
		}
	}

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
		char *val = wsl_value(it->value);
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
	memset(wc, 0, sizeof *wc);
}
