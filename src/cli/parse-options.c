/* parse-options.c: parsing, help and completions from one declaration.
 * See parse-options.h. */
#include "parse-options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/error.h"
#include "../core/text.h"
#include "../report/format.h"
#include "cli.h"

#define MAX_OPTIONS PARSE_MAX_OPTIONS
/* Where the help text starts, and the width --help is written for. */
#define HELP_COLUMN 23
#define HELP_WIDTH 80

static const struct cli_option help_option = {
	.type = OPTION_HELP, .short_name = 'h', .long_name = "help", .help = "show this help",
};

size_t parse_options_list(const struct cli_command *c, struct cli_option *out, size_t max)
{
	size_t k = 0;
	for (const struct cli_option *o = c->options; o && o->type != OPTION_END; o++) {
		if (o->type != OPTION_FORMATS) {
			if (k < max)
				out[k++] = *o;
			continue;
		}
		size_t nf;
		const struct format *f = formats(&nf);
		for (size_t i = 0; i < nf; i++) {
			if (!f[i].help || !format_offered(&f[i], c->name) || k >= max)
				continue;
			out[k++] = (struct cli_option){
				.type = OPTION_FORMATS, .long_name = f[i].name, .offset = o->offset,
				.argh = f[i].argh, .help = f[i].help,
				.flags = f[i].argh ? OPT_OUTPUT | OPT_NONEMPTY : 0,
				.complete = f[i].argh ? COMPLETE_FILE : COMPLETE_NOTHING,
				.format = &f[i],
			};
		}
	}
	bool help = false;
	for (size_t i = 0; i < k; i++)
		help |= out[i].type == OPTION_HELP;
	if (!help && k < max)
		out[k++] = help_option;
	if (k == max)
		bugf("%s declares more than %d options", c->name, MAX_OPTIONS - 1);
	return k;
}

/* ---- finding an option ---- */

static bool is_option(const struct cli_option *o)
{
	return o->type != OPTION_GROUP && o->type != OPTION_END;
}

/* The option whose long name is name[0..len): exact, else the one option
 * it is a prefix of. NULL when none; *ambiguous when several. */
static const struct cli_option *find_long(const struct cli_option *opts, size_t n,
					  const char *name, size_t len, bool *ambiguous)
{
	const struct cli_option *prefix = NULL;
	*ambiguous = false;
	for (size_t i = 0; i < n; i++) {
		const char *l = opts[i].long_name;
		if (!is_option(&opts[i]) || !l || strncmp(l, name, len))
			continue;
		if (!l[len])
			return &opts[i];
		if (prefix)
			*ambiguous = true;
		prefix = &opts[i];
	}
	return *ambiguous || !len ? NULL : prefix;
}

static const struct cli_option *find_short(const struct cli_option *opts, size_t n, int c)
{
	for (size_t i = 0; i < n; i++)
		if (is_option(&opts[i]) && opts[i].short_name == c)
			return &opts[i];
	return NULL;
}

const struct cli_option *parse_options_find(const struct cli_command *c, const char *a,
					    struct cli_option *tmp)
{
	struct cli_option opts[MAX_OPTIONS];
	size_t n = parse_options_list(c, opts, MAX_OPTIONS);
	const struct cli_option *o = NULL;
	if (a[0] == '-' && a[1] == '-' && a[2]) {
		size_t len = strcspn(a + 2, "=");
		for (size_t i = 0; i < n && !o; i++)
			if (is_option(&opts[i]) && opts[i].long_name &&
			    strlen(opts[i].long_name) == len && !strncmp(opts[i].long_name, a + 2, len))
				o = &opts[i];
	} else if (a[0] == '-' && a[1] && !a[2]) {
		o = find_short(opts, n, a[1]);
	}
	if (!o)
		return NULL;
	*tmp = *o;
	return tmp;
}

/* ---- parsing ---- */

int parse_error(struct parse_state *ps, const char *fmt, ...)
{
	struct strbuf m = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&m, fmt, ap);
	va_end(ap);
	cli_usage_error(ps->cmd->name, "%s", m.buf);
	sb_release(&m);
	return -1;
}

int parse_exit(int parsed)
{
	return parsed == PARSE_HELP ? EXIT_OK : EXIT_USAGE;
}

/* "; did you mean '--json'?" for a mistyped long option, or "". */
static void did_you_mean(const struct cli_option *opts, size_t n, const char *name, size_t len,
			 struct strbuf *out)
{
	const char *names[MAX_OPTIONS], *near[4];
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (is_option(&opts[i]) && opts[i].long_name && !(opts[i].flags & OPT_HIDDEN))
			names[k++] = opts[i].long_name;
	char *word = xstrndup(name, len);
	size_t m = cli_similar(word, names, k, near, 4);
	free(word);
	for (size_t i = 0; i < m; i++)
		sb_addf(out, "%s'--%s'", i ? ", " : m == 1 ? "; did you mean " : "; did you mean one of ",
			near[i]);
	if (m)
		sb_addc(out, '?');
}

static int unknown(struct parse_state *ps, const struct cli_option *opts, size_t n,
		   const char *word, bool long_opt)
{
	struct strbuf hint = STRBUF_INIT;
	if (long_opt)
		did_you_mean(opts, n, word + 2, strcspn(word + 2, "="), &hint);
	if (ps->cmd->unknown_hint)
		sb_addf(&hint, " (%s)", ps->cmd->unknown_hint);
	/* what was typed is shown escaped (cli_usage_error) */
	parse_error(ps, "unknown option '%s'%s", word, sb_str(&hint));
	sb_release(&hint);
	return PARSE_ERROR;
}

/* An output's file, as a path to compare with another's: the real path
 * when the file exists, else its directory's real path and its name. */
static char *output_path(const char *path)
{
	char *real = realpath(path, NULL);
	if (real)
		return real;
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	char *rdir = realpath(dir, NULL);
	char *out = rdir ? xasprintf("%s/%s", rdir, slash ? slash + 1 : path) : xstrdup(path);
	free(rdir);
	free(dir);
	return out;
}

struct given_output {
	const struct cli_option *o;
	char option[48]; /* as typed: "--junit", "-o" */
	const char *path;
};

/* Records the file output option o names; a repeated option's last value
 * is the one the command writes. */
static void record_output(struct given_output *outs, size_t *n, const struct cli_option *o,
			  const char *typed, const char *path)
{
	size_t k = 0;
	while (k < *n && outs[k].o != o)
		k++;
	if (k == *n) {
		if (*n == MAX_OPTIONS)
			return;
		++*n;
	}
	outs[k].o = o;
	snprintf(outs[k].option, sizeof outs[k].option, "%s", typed);
	outs[k].path = path;
}

/* Whether writing path replaces a file (core/atomicfile.h): a regular file
 * or a new one. Standard output ("-", or the file it goes to), a device
 * such as /dev/null and a FIFO are written through, and take any number
 * of writers. */
static bool is_replaced(const char *path)
{
	struct stat st, out, err;
	if (!strcmp(path, "-"))
		return false;
	if (stat(path, &st) < 0)
		return true;
	bool std = (fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == st.st_dev &&
		    out.st_ino == st.st_ino) ||
		   (fstat(STDERR_FILENO, &err) == 0 && err.st_dev == st.st_dev &&
		    err.st_ino == st.st_ino);
	return S_ISREG(st.st_mode) && !std;
}

/* Two outputs naming one file would each replace the other, and all but
 * the last be lost: a usage error, before anything runs. */
static int check_outputs(struct parse_state *ps, const struct given_output *g, size_t n)
{
	int rc = 0;
	char **real = xcalloc(n ? n : 1, sizeof *real);
	for (size_t i = 0; i < n; i++)
		real[i] = output_path(g[i].path);
	for (size_t i = 0; i < n && !rc; i++)
		for (size_t j = i + 1; j < n && !rc; j++)
			if (!strcmp(real[i], real[j]) && is_replaced(g[i].path))
				rc = parse_error(ps, "%s and %s name the same file (%s): give each "
						 "output its own", g[i].option, g[j].option, g[i].path);
	for (size_t i = 0; i < n; i++)
		free(real[i]);
	free(real);
	return rc;
}

/* Takes the value of o; 0, PARSE_HELP or PARSE_ERROR. */
static int take(struct parse_state *ps, const struct cli_option *o, const char *arg, void *base)
{
	void *value = (char *)base + o->offset;
	size_t k = 0;
	while (k < ps->nseen && ps->seen[k] != o)
		k++;
	if (k == ps->nseen && k < PARSE_MAX_OPTIONS)
		ps->seen[ps->nseen++] = o;
	if (arg && !*arg && (o->flags & OPT_NONEMPTY))
		return parse_error(ps, "%s: the value is empty", ps->given), PARSE_ERROR;
	switch (o->type) {
	case OPTION_HELP: {
		struct strbuf sb = STRBUF_INIT;
		parse_options_help(ps->cmd, &sb);
		fputs(sb.buf, stdout);
		sb_release(&sb);
		return PARSE_HELP;
	}
	case OPTION_BOOL:
		*(bool *)value = true;
		return 0;
	case OPTION_STRING:
		*(const char **)value = arg;
		return 0;
	case OPTION_CALLBACK:
		return o->callback(ps, o, arg, value) < 0 ? PARSE_ERROR : 0;
	case OPTION_FORMATS: {
		struct format_choice *fc = value;
		const struct format *f = o->format;
		if (f->argh) {
			fc->file[format_index(f)] = arg;
		} else {
			if (fc->out && fc->out != f)
				return parse_error(ps, "--%s and --%s exclude each other", fc->out->name,
						   f->name), PARSE_ERROR;
			fc->out = f;
		}
		return 0;
	}
	default:
		return 0;
	}
}

int parse_options(const struct cli_command *c, int argc, char **argv, void *base)
{
	struct cli_option opts[MAX_OPTIONS];
	size_t n = parse_options_list(c, opts, MAX_OPTIONS);
	struct parse_state ps = { .cmd = c };
	struct given_output outs[MAX_OPTIONS];
	size_t nouts = 0;
	struct strbuf given = STRBUF_INIT;
	int nops = 0, rc = 0;
	int i;
	for (i = 1; i < argc && !rc; i++) {
		char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (c->flags & PARSE_STOP_AT_NON_OPTION)
				break;
			argv[nops++] = a;
			continue;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			bool ambiguous;
			const struct cli_option *o = find_long(opts, n, name, len, &ambiguous);
			if (ambiguous) {
				struct strbuf which = STRBUF_INIT;
				for (size_t k = 0; k < n; k++)
					if (is_option(&opts[k]) && opts[k].long_name &&
					    !strncmp(opts[k].long_name, name, len))
						sb_addf(&which, "%s--%s", which.len ? ", " : "",
							opts[k].long_name);
				rc = parse_error(&ps, "option '%s' is ambiguous: %s", a, which.buf);
				sb_release(&which);
				rc = PARSE_ERROR;
				break;
			}
			if (!o) {
				rc = unknown(&ps, opts, n, a, true);
				break;
			}
			sb_reset(&given);
			sb_addf(&given, "--%s", o->long_name);
			ps.given = given.buf;
			const char *val = NULL;
			if (o->argh && (o->flags & OPT_OPTARG)) {
				val = eq ? eq + 1 : NULL;
			} else if (o->argh) {
				val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
				if (!val) {
					rc = parse_error(&ps, "option '%s' needs a value", given.buf);
					rc = PARSE_ERROR;
					break;
				}
			} else if (eq) {
				rc = parse_error(&ps, "option '%s' takes no value", given.buf);
				rc = PARSE_ERROR;
				break;
			}
			if (val && *val && (o->flags & OPT_OUTPUT))
				record_output(outs, &nouts, o, given.buf, val);
			rc = take(&ps, o, val, base);
			continue;
		}
		/* -v, -vq, -o FILE, -oFILE */
		for (const char *p = a + 1; *p && !rc; p++) {
			const struct cli_option *o = find_short(opts, n, *p);
			if (!o) {
				char word[3] = { '-', *p, '\0' };
				rc = unknown(&ps, opts, n, word, false);
				break;
			}
			sb_reset(&given);
			sb_addf(&given, "-%c", *p);
			ps.given = given.buf;
			const char *val = NULL;
			if (o->argh) {
				val = p[1] ? p + 1 : i + 1 < argc ? argv[++i] : NULL;
				if (!val) {
					rc = parse_error(&ps, "option '%s' needs a value", given.buf);
					rc = PARSE_ERROR;
					break;
				}
				if (*val && (o->flags & OPT_OUTPUT))
					record_output(outs, &nouts, o, given.buf, val);
				rc = take(&ps, o, val, base);
				break;
			}
			rc = take(&ps, o, NULL, base);
		}
	}
	if (!rc) {
		while (i < argc)
			argv[nops++] = argv[i++];
		argv[nops] = NULL;
		if (check_outputs(&ps, outs, nouts) < 0 || (c->check && c->check(&ps, base) < 0))
			rc = PARSE_ERROR;
	}
	sb_release(&given);
	if (rc)
		return rc;
	return nops;
}

/* ---- help ---- */

static void option_column(struct strbuf *out, const struct cli_option *o)
{
	size_t start = out->len;
	if (o->short_name)
		sb_addf(out, "  -%c%s", o->short_name, o->long_name ? ", " : "");
	else
		sb_add(out, "      ");
	if (o->long_name)
		sb_addf(out, "--%s", o->long_name);
	if (o->argh)
		sb_addf(out, o->flags & OPT_OPTARG ? "[=%s]" : " %s", o->argh);
	size_t w = out->len - start;
	if (w + 1 < HELP_COLUMN)
		sb_addf(out, "%*s", (int)(HELP_COLUMN - w), "");
	else
		sb_addf(out, "\n%*s", HELP_COLUMN, "");
}

void parse_options_help(const struct cli_command *c, struct strbuf *out)
{
	for (size_t i = 0; c->usage && c->usage[i]; i++)
		sb_addf(out, "%s%s\n", i ? "       " : "usage: ", c->usage[i]);
	if (c->about)
		sb_addf(out, "\n%s", c->about);
	sb_addc(out, '\n');
	parse_options_lines(c, out);
	if (c->epilog)
		sb_addf(out, "\n%s", c->epilog);
}

void parse_options_lines(const struct cli_command *c, struct strbuf *out)
{
	struct cli_option opts[MAX_OPTIONS];
	size_t n = parse_options_list(c, opts, MAX_OPTIONS);
	for (size_t i = 0; i < n; i++) {
		const struct cli_option *o = &opts[i];
		if (o->type == OPTION_GROUP) {
			sb_addf(out, "%s\n", o->help);
			continue;
		}
		if (o->flags & OPT_HIDDEN)
			continue;
		option_column(out, o);
		struct text_wrap w = { HELP_WIDTH, HELP_COLUMN, HELP_COLUMN, 0, NULL };
		text_wrap(out, o->help ? o->help : "", &w);
		sb_addc(out, '\n');
	}
}

/* ---- completions ---- */

static const char *complete_name(enum opt_complete k)
{
	switch (k) {
	case COMPLETE_FILE: return "file";
	case COMPLETE_DIR: return "dir";
	case COMPLETE_CHECKS: return "checks";
	case COMPLETE_PID: return "pid";
	case COMPLETE_URL: return "url";
	case COMPLETE_WORDS: return "words";
	default: return "nothing";
	}
}

void parse_options_complete(const struct cli_command *c, struct strbuf *out)
{
	struct cli_option opts[MAX_OPTIONS];
	size_t n = parse_options_list(c, opts, MAX_OPTIONS);
	for (size_t i = 0; i < n; i++) {
		const struct cli_option *o = &opts[i];
		if (!is_option(o) || (o->flags & OPT_HIDDEN))
			continue;
		if (o->short_name)
			sb_addf(out, "-%c\t", o->short_name);
		else
			sb_add(out, "-\t");
		sb_addf(out, "%s%s\t", o->long_name ? "--" : "-", o->long_name ? o->long_name : "");
		if (o->argh)
			sb_addf(out, "%s%s\t", o->flags & OPT_OPTARG ? "=" : "", o->argh);
		else
			sb_add(out, "-\t");
		sb_add(out, complete_name(o->complete));
		if (o->complete == COMPLETE_WORDS)
			for (const char *w = o->words; *w;) {
				size_t l = strcspn(w, " ");
				sb_addf(out, "%c%.*s", w == o->words ? ':' : ',', (int)l, w);
				w += l + strspn(w + l, " ");
			}
		/* one line: the help as one line of words */
		sb_addc(out, '\t');
		for (const char *h = o->help ? o->help : "-"; *h; h++)
			sb_addc(out, *h == '\n' || *h == '\t' ? ' ' : *h);
		sb_addc(out, '\n');
	}
}
