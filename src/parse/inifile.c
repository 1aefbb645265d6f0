/* ini.c: INI files through inih, with encoding detection. See ini.h. */
#include "inifile.h"

#include <ctype.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct ini_state {
	struct inifile *ini;
	int line;
};

static int on_item(void *user, const char *section, const char *name, const char *value)
{
	struct inifile *ini = user;
	if (!name)
		return 1; /* section start (INI_CALL_HANDLER_ON_NEW_SECTION builds) */
	if (ini->n == ini->alloc) { /* doubling: a huge file stays linear */
		ini->alloc = ini->alloc ? ini->alloc * 2 : 16;
		ini->items = xrealloc(ini->items, ini->alloc * sizeof *ini->items);
	}
	struct inifile_item *it = &ini->items[ini->n++];
	it->section = xstrdup(section ? section : "");
	it->key = xstrdup(name);
	it->value = xstrdup(value ? value : "");
	it->line = 0;
	return 1;
}

/* inih's string reader does not pass line numbers to the handler; we feed
 * it one line at a time to know them. */
void inifile_parse(const char *text, size_t len, struct inifile *ini)
{
	memset(ini, 0, sizeof *ini);
	if (len >= 2 && (((unsigned char)text[0] == 0xff && (unsigned char)text[1] == 0xfe) ||
			 ((unsigned char)text[0] == 0xfe && (unsigned char)text[1] == 0xff)))
		ini->utf16 = true;
	size_t nuls = 0;
	for (size_t i = 0; i < len; i++)
		if (!text[i])
			nuls++;
	if (!ini->utf16 && nuls && nuls * 3 >= len)
		ini->utf16 = true; /* UTF-16 without BOM: every other byte NUL */
	if (ini->utf16)
		return;
	if (nuls)
		ini->nul_bytes = true;
	size_t start = 0;
	if (len >= 3 && (unsigned char)text[0] == 0xef && (unsigned char)text[1] == 0xbb &&
	    (unsigned char)text[2] == 0xbf) {
		ini->utf8_bom = true;
		start = 3;
	}
	struct strbuf section = STRBUF_INIT, doc = STRBUF_INIT;
	int lineno = 0;
	size_t pos = start;
	while (pos < len) {
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		lineno++;
		size_t ll = end - pos;
		const char *line = text + pos;
		if (ll && line[ll - 1] == '\r') {
			ini->crlf = true;
			ll--;
		}
		/* One line, preceded by its section, through inih. */
		sb_reset(&doc);
		if (section.len)
			sb_addf(&doc, "[%s]\n", section.buf);
		for (size_t i = 0; i < ll; i++)
			sb_addc(&doc, line[i] ? line[i] : ' ');
		sb_addc(&doc, '\n');
		size_t before = ini->n;
		int rc = ini_parse_string(doc.buf, on_item, ini);
		for (size_t i = before; i < ini->n; i++)
			ini->items[i].line = lineno;
		if (rc != 0 && !ini->error_line)
			ini->error_line = lineno;
		/* Track the section ourselves for the next line. */
		const char *p = line;
		size_t k = 0;
		while (k < ll && isspace((unsigned char)p[k]))
			k++;
		if (k < ll && p[k] == '[') {
			size_t e = k + 1;
			while (e < ll && p[e] != ']')
				e++;
			if (e < ll) {
				sb_reset(&section);
				sb_addn(&section, p + k + 1, e - k - 1);
			}
		}
		pos = end + 1;
	}
	sb_release(&section);
	sb_release(&doc);
}

void inifile_free(struct inifile *ini)
{
	for (size_t i = 0; i < ini->n; i++) {
		free(ini->items[i].section);
		free(ini->items[i].key);
		free(ini->items[i].value);
	}
	free(ini->items);
	memset(ini, 0, sizeof *ini);
}

const struct inifile_item *inifile_find(const struct inifile *ini, const char *section, const char *key)
{
	const struct inifile_item *hit = NULL;
	for (size_t i = 0; i < ini->n; i++)
		if (!strcasecmp(ini->items[i].section, section) && !strcasecmp(ini->items[i].key, key))
			hit = &ini->items[i];
	return hit;
}

int inifile_bool(const char *v)
{
	static const char *const t[] = { "true", "yes", "1", "on" };
	static const char *const f[] = { "false", "no", "0", "off" };
	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(v, t[i]))
			return 1;
		if (!strcasecmp(v, f[i]))
			return 0;
	}
	return -1;
}

long long inifile_size(const char *v)
{
	char *end;
	while (isspace((unsigned char)*v))
		v++;
	if (!isdigit((unsigned char)*v))
		return -1;
	double x = strtod(v, &end);
	while (isspace((unsigned char)*end))
		end++;
	double mul = 1;
	if (!*end || !strcasecmp(end, "B")) mul = 1;
	else if (!strcasecmp(end, "K") || !strcasecmp(end, "KB")) mul = 1024.0;
	else if (!strcasecmp(end, "M") || !strcasecmp(end, "MB")) mul = 1024.0 * 1024;
	else if (!strcasecmp(end, "G") || !strcasecmp(end, "GB")) mul = 1024.0 * 1024 * 1024;
	else if (!strcasecmp(end, "T") || !strcasecmp(end, "TB")) mul = 1024.0 * 1024 * 1024 * 1024;
	else return -1;
	double r = x * mul;
	if (r > 9.0e18)
		return -1;
	return (long long)r;
}
