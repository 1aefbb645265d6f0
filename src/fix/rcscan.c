/* rcscan.c: find where a variable is set in the shell startup files (see rcscan.h). */
#include "rcscan.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/rootfs.h"
#include "../core/strbuf.h"

static const char *const home_files[] = { ".bashrc", ".bash_profile", ".bash_login", ".profile",
					  ".zshenv", ".zprofile", ".zshrc", ".zlogin", NULL };
static const char *const etc_files[] = { "/etc/environment", "/etc/profile", "/etc/bash.bashrc",
					 "/etc/zsh/zshenv", "/etc/zsh/zprofile", "/etc/zsh/zshrc",
					 NULL };

static bool word_start(const char *line, size_t at)
{
	if (at == 0)
		return true;
	char c = line[at - 1];
	return c == ' ' || c == '\t' || c == ';' || c == '&' || c == '|' || c == '(';
}

/* End of the shell word starting at s: quotes and backslashes kept whole. */
static size_t word_end(const char *s, size_t i)
{
	while (s[i] && s[i] != ' ' && s[i] != '\t' && s[i] != ';' && s[i] != '&' && s[i] != '|' &&
	       s[i] != ')') {
		if (s[i] == '\\' && s[i + 1]) {
			i += 2;
		} else if (s[i] == '\'' || s[i] == '"') {
			char q = s[i++];
			while (s[i] && s[i] != q)
				i += (q == '"' && s[i] == '\\' && s[i + 1]) ? 2 : 1;
			if (s[i])
				i++;
		} else {
			i++;
		}
	}
	return i;
}

bool rc_line_assigns(const char *line, const char *var, size_t *vs, size_t *ve)
{
	size_t lead = strspn(line, " \t");
	if (line[lead] == '#' || !line[lead])
		return false;
	size_t vl = strlen(var);
	for (const char *p = strstr(line, var); p; p = strstr(p + 1, var)) {
		size_t at = (size_t)(p - line);
		if (!word_start(line, at))
			continue;
		size_t eq = at + vl;
		if (line[eq] == '+')
			eq++;
		if (line[eq] != '=')
			continue;
		/* Past an unquoted comment: not an assignment. */
		const char *hash = strstr(line + lead, " #");
		if (hash && hash < p)
			return false;
		*vs = eq + 1;
		*ve = word_end(line, eq + 1);
		return true;
	}
	return false;
}

static void strip_quotes(const char *s, struct strbuf *out)
{
	for (; *s; s++)
		if (*s != '"' && *s != '\'')
			sb_addc(out, *s);
}

bool rc_value_has_dir(const char *value, const char *dir)
{
	struct strbuf v = STRBUF_INIT;
	strip_quotes(value, &v);
	size_t dl = strlen(dir);
	bool hit = false;
	for (const char *tok = sb_str(&v); tok && !hit;) {
		/* "$" too: dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ends at the "$" */
		size_t len = strcspn(tok, ":$");
		if ((len == dl || (len == dl + 1 && tok[dl] == '/')) && strncmp(tok, dir, dl) == 0)
			hit = true;
		tok = tok[len] ? tok + len + 1 : NULL;
	}
	sb_release(&v);
	return hit;
}

static bool entry_edge(char c)
{
	return c == ':' || c == '"' || c == '\'' || c == '$' || c == '\0';
}

/* What a value still sets once var's own old value is taken out. */
static bool adds_something(const char *value, const char *var)
{
	struct strbuf v = STRBUF_INIT, pat = STRBUF_INIT;
	strip_quotes(value, &v);
	const char *forms[] = { "${%s:+:$%s}", "${%s:+$%s:}", "${%s}", "$%s" };
	for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
		sb_reset(&pat);
		sb_addf(&pat, forms[f], var, var);
		char *hit;
		while (v.len && (hit = strstr(v.buf, pat.buf)) != NULL)
			memmove(hit, hit + pat.len, strlen(hit + pat.len) + 1);
	}
	bool some = false;
	for (const char *s = sb_str(&v); *s; s++)
		if (*s != ':')
			some = true;
	sb_release(&v);
	sb_release(&pat);
	return some;
}

char *rc_line_without_dir(const char *line, const char *var, const char *dir)
{
	size_t vs, ve;
	if (!rc_line_assigns(line, var, &vs, &ve))
		return NULL;
	struct strbuf val = STRBUF_INIT;
	sb_addn(&val, line + vs, ve - vs);
	size_t dl = strlen(dir);
	for (size_t i = 0; i + dl <= val.len;) {
		bool starts = i == 0 || val.buf[i - 1] == ':' || val.buf[i - 1] == '"' ||
			      val.buf[i - 1] == '\'' || val.buf[i - 1] == '}';
		size_t end = i + dl;
		if (starts && strncmp(val.buf + i, dir, dl) == 0 && val.buf[end] == '/' &&
		    entry_edge(val.buf[end + 1]))
			end++;
		if (!starts || strncmp(val.buf + i, dir, dl) != 0 || !entry_edge(val.buf[end])) {
			i++;
			continue;
		}
		size_t from = i, to = end;
		if (val.buf[to] == ':')
			to++;
		else if (from > 0 && val.buf[from - 1] == ':')
			from--;
		memmove(val.buf + from, val.buf + to, val.len - to + 1);
		val.len -= to - from;
		i = from;
	}
	char *out = NULL;
	if (adds_something(sb_str(&val), var)) {
		struct strbuf l = STRBUF_INIT;
		sb_addn(&l, line, vs);
		sb_add(&l, sb_str(&val));
		sb_add(&l, line + ve);
		out = sb_detach(&l);
	}
	sb_release(&val);
	return out;
}

static void unread(struct rc_hits *hits, const char *guest, const char *why)
{
	hits->unread = xrealloc(hits->unread, (hits->nunread + 1) * sizeof *hits->unread);
	hits->unread[hits->nunread++] = xasprintf("%s: %s", guest, why);
}

static void scan_file(const char *guest, const char *var, bool user_file, struct rc_hits *hits)
{
	struct strbuf text = STRBUF_INIT;
	bool cut = false;
	int rc = rootfs_read_bounded(guest, 0, RC_READ_TIMEOUT_MS, &text, &cut);
	if (rc == -EINVAL) {
		struct stat st;
		const char *what = rootfs_stat(guest, &st) == 0 ? rootfs_mode_name(st.st_mode)
								 : "not a regular file";
		struct strbuf w = STRBUF_INIT;
		sb_addf(&w, "%s, not a regular file: not read", what);
		unread(hits, guest, w.buf);
		sb_release(&w);
	} else if (rc == -ETIMEDOUT) {
		char why[96];
		snprintf(why, sizeof why, "the read did not finish within %d s: not read",
			 RC_READ_TIMEOUT_MS / 1000);
		unread(hits, guest, why);
	} else if (rc >= 0 && cut) {
		char why[96];
		snprintf(why, sizeof why, "longer than %u MiB: only its start was read",
			 ROOTFS_READ_CAP_DEFAULT >> 20);
		unread(hits, guest, why);
	}
	if (rc < 0) {
		sb_release(&text);
		return;
	}
	int lineno = 0;
	for (char *s = text.buf; s && *s;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		size_t len = strlen(s);
		if (len && s[len - 1] == '\r')
			s[--len] = '\0';
		size_t vs, ve;
		if (rc_line_assigns(s, var, &vs, &ve)) {
			hits->v = xrealloc(hits->v, (hits->n + 1) * sizeof *hits->v);
			struct rc_hit *h = &hits->v[hits->n++];
			h->file = xstrdup(guest);
			h->line = lineno;
			h->text = xstrdup(s);
			h->value = xstrndup(s + vs, ve - vs);
			h->user_file = user_file;
		}
		s = nl ? nl + 1 : NULL;
	}
	sb_release(&text);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void rc_scan(const char *var, const char *home, struct rc_hits *hits)
{
	if (home && home[0] == '/')
		for (size_t i = 0; home_files[i]; i++) {
			char *p = xasprintf("%s%s%s", home,
					    home[strlen(home) - 1] == '/' ? "" : "/", home_files[i]);
			scan_file(p, var, true, hits);
			free(p);
		}
	for (size_t i = 0; etc_files[i]; i++)
		scan_file(etc_files[i], var, false, hits);
	DIR *d = rootfs_opendir("/etc/profile.d");
	if (!d)
		return;
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);
		if (l > 3 && strcmp(de->d_name + l - 3, ".sh") == 0) {
			names = xrealloc(names, (n + 1) * sizeof *names);
			names[n++] = xasprintf("/etc/profile.d/%s", de->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		scan_file(names[i], var, false, hits);
		free(names[i]);
	}
	free(names);
}

void rc_hits_release(struct rc_hits *hits)
{
	for (size_t i = 0; i < hits->n; i++) {
		free(hits->v[i].file);
		free(hits->v[i].text);
		free(hits->v[i].value);
	}
	free(hits->v);
	hits->v = NULL;
	hits->n = 0;
	for (size_t i = 0; i < hits->nunread; i++)
		free(hits->unread[i]);
	free(hits->unread);
	hits->unread = NULL;
	hits->nunread = 0;
}
