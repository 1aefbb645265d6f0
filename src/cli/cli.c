/*
 * cli.c: the option handling every command shares (cli.h): --root, --color,
 * numbers of seconds, "did you mean" and the usage error, so that an
 * option means the same and a mistake reads the same everywhere.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/rootfs.h"
#include "../core/strbuf.h"
#include "../core/text.h"
#include "../core/utf8.h"
#include "cli.h"

static int color_forced = -1; /* -1 auto, 0 never, 1 always */

int cli_set_root(const char *dir)
{
	if (!*dir) {
		cli_usage_error(NULL, "--root: the directory name is empty (to describe this "
				      "machine, leave --root out)");
		return EXIT_USAGE;
	}
	int rc = rootfs_set(dir);
	if (rc < 0) {
		cli_usage_error(NULL, "--root %s: %s", dir, strerror(-rc));
		return EXIT_USAGE;
	}
	/* A directory with neither proc/ nor etc/ describes no machine; a
	 * fixture's directory holds its machine in root/ (tests/fixtures). */
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	bool machine = false;
	sb_addf(&p, "%s/proc", dir);
	machine |= stat(p.buf, &st) == 0 && S_ISDIR(st.st_mode);
	sb_reset(&p);
	sb_addf(&p, "%s/etc", dir);
	machine |= stat(p.buf, &st) == 0 && S_ISDIR(st.st_mode);
	sb_reset(&p);
	sb_addf(&p, "%s%sroot", dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
	if (!machine && stat(p.buf, &st) == 0 && S_ISDIR(st.st_mode)) {
		cli_usage_error(NULL, "--root %s: no proc/ or etc/ in it, so it is not a root file "
				      "system; did you mean %s?", dir, p.buf);
		sb_release(&p);
		return EXIT_USAGE;
	}
	sb_release(&p);
	return 0;
}

int cli_color_option(const char *cmd, const char *when)
{
	if (!strcmp(when, "auto"))
		color_forced = -1;
	else if (!strcmp(when, "always"))
		color_forced = 1;
	else if (!strcmp(when, "never"))
		color_forced = 0;
	else {
		cli_usage_error(cmd, "--color: '%s' is not auto, always or never", when);
		return -1;
	}
	return 0;
}

int cli_opt_color(struct parse_state *ps, const struct cli_option *o, const char *arg,
		  void *value)
{
	(void)o, (void)value;
	return cli_color_option(ps->cmd->name, arg);
}

int cli_opt_no_color(struct parse_state *ps, const struct cli_option *o, const char *arg,
		     void *value)
{
	(void)o, (void)arg, (void)value;
	return cli_color_option(ps->cmd->name, "never");
}

int cli_opt_root(struct parse_state *ps, const struct cli_option *o, const char *arg,
		 void *value)
{
	(void)ps, (void)o, (void)value;
	return cli_set_root(arg) ? -1 : 0;
}

int cli_want_color(int fd)
{
	if (color_forced >= 0)
		return color_forced;
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		return 0;
	const char *term = getenv("TERM");
	if (term && strcmp(term, "dumb") == 0)
		return 0;
	/* a pager on the terminal shows colours (LESS=R) */
	if (pager_in_use() && (fd == STDOUT_FILENO || fd == STDERR_FILENO))
		return 1;
	return isatty(fd);
}

int cli_parse_seconds(const char *cmd, const char *opt, const char *v, double min, double max,
		      double *out)
{
	/* Digits with at most one decimal point, nothing else: strtod would
	 * also take "0x10", "1e3", " 5" and "inf", which nobody means. */
	const char *p = v;
	size_t digits = 0;
	while (*p >= '0' && *p <= '9')
		p++, digits++;
	if (digits && *p == '.') {
		p++;
		size_t frac = 0;
		while (*p >= '0' && *p <= '9')
			p++, frac++;
		if (!frac)
			digits = 0;
	}
	double s = digits && !*p && strlen(v) < 32 ? strtod(v, NULL) : -1;
	if (!(s >= min && s <= max)) {
		cli_usage_error(cmd, "%s: '%s' is not a number of seconds from %g to %g "
				     "(a plain decimal such as 10 or 2.5)", opt, v, min, max);
		return -1;
	}
	*out = s;
	return 0;
}

size_t cli_similar(const char *word, const char *const *cands, size_t n, const char **out,
		   size_t max)
{
	/* As git's help.c: the closest by edit distance, if it is close
	 * (at most 2 edits, and fewer than the word's length), and any
	 * candidate the word begins. */
	size_t len = strlen(word);
	int best = 99;
	for (size_t i = 0; i < n; i++) {
		int d = text_distance(word, cands[i]);
		if (d < best)
			best = d;
	}
	bool close = best <= 2 && (size_t)best < len;
	size_t k = 0;
	for (size_t i = 0; i < n && k < max; i++) {
		bool prefix = len >= 2 && !strncmp(cands[i], word, len);
		if ((close && text_distance(word, cands[i]) == best) || prefix)
			out[k++] = cands[i];
	}
	return k;
}

void cli_usage_error(const char *cmd, const char *fmt, ...)
{
	struct strbuf m = STRBUF_INIT, shown = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&m, fmt, ap);
	va_end(ap);
	text_escape(&shown, m.buf);
	if (cmd)
		fprintf(stderr, "wslgpu %s: %s\nTry 'wslgpu %s --help'.\n", cmd, shown.buf, cmd);
	else
		fprintf(stderr, "wslgpu: %s\nSee 'wslgpu --help'.\n", shown.buf);
	sb_release(&m);
	sb_release(&shown);
}
