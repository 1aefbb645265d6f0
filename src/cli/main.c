/*
 * main.c: the command table, the global options and dispatch (after git.c).
 *
 *   wslgpu [GLOBAL OPTIONS] COMMAND [OPTIONS]
 *   wslgpu [GLOBAL OPTIONS] [CHECK OPTIONS]      the same as wslgpu check ...
 *
 * Only global options go before the command word, as in git; every option
 * the tool knows is in one table below, which says whether it takes a
 * value, whether it is global and which commands take it after their word,
 * so that main can find the command word and say where a misplaced option
 * belongs. Without a command word the arguments are check's (`wslgpu`
 * alone is `wslgpu check`). At exit a failed write to standard output is
 * an error, as in git: output a script relies on must not vanish silently.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/buildinfo.h"
#include "../core/interrupt.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../core/strbuf.h"
#include "../core/text.h"
#include "../version.h"
#include "cli.h"

static int cmd_help(int argc, char **argv);

/* What a global --root means to a command. */
enum root_use {
	ROOT_USED,    /* the machine it describes */
	ROOT_IGNORED, /* nothing: the user's own history, the built-in KB, help */
	ROOT_REFUSED, /* a mistake: watch samples this machine's live /proc */
};

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	enum root_use root;
};

static const struct command commands[] = {
	{ "check", cmd_check, "prove the GPU compute chain, layer by layer (default)", ROOT_USED },
	{ "explain", cmd_explain, "paste an error or a log: get the layer, cause and fix", ROOT_USED },
	{ "bench", cmd_bench, "measure disk I/O where the data lives, and the GPU path", ROOT_USED },
	{ "watch", cmd_watch, "run or attach to a job: is it GPU-, input-, CPU- or memory-bound?", ROOT_REFUSED },
	{ "smoke", cmd_smoke, "scheduled smoke test: checks + policy, history, JUnit/Prometheus", ROOT_USED },
	{ "history", cmd_history, "list recorded smoke runs and what changed between them", ROOT_IGNORED },
	{ "report", cmd_report, "write a support bundle (redacted) or a Markdown report", ROOT_USED },
	{ "fix", cmd_fix, "the remediation plan for the findings (--apply makes its safe edits)", ROOT_USED },
	{ "kb", cmd_kb, "show knowledge-base entries (causes and fixes)", ROOT_IGNORED },
	{ "help", cmd_help, "show a command's manual page, or its help (wslgpu help check)", ROOT_IGNORED },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/*
 * Every option: whether it takes a value (OPTIONAL: only as --name=VALUE),
 * whether it is global (it may go before the command word), and the
 * commands that take it after their word (NULL: every command). An option
 * whose value-ness differs between commands has a row per kind (--csv).
 */
enum opt_arg { NOARG, VALUE, OPTIONAL };
struct option_row {
	const char *name;
	enum opt_arg arg;
	bool global;
	const char *commands;
};

#define RUN_CMDS "check smoke report fix"
static const struct option_row options[] = {
	/* global */
	{ "--root", VALUE, true, RUN_CMDS " explain bench history" },
	{ "--color", VALUE, true, RUN_CMDS " explain bench" },
	{ "--no-color", NOARG, true, RUN_CMDS " explain bench" },
	{ "-h", NOARG, true, NULL },
	{ "--help", NOARG, true, NULL },
	{ "-V", NOARG, true, "" },
	{ "--version", NOARG, true, "" },
	/* the run options (src/cli/checkrun.h) */
	{ "--only", VALUE, false, RUN_CMDS },
	{ "--data", VALUE, false, RUN_CMDS },
	{ "--timeout", VALUE, false, RUN_CMDS " explain bench" },
	{ "--windows", NOARG, false, RUN_CMDS " explain" },
	{ "--python", VALUE, false, RUN_CMDS },
	{ "--docker-image", VALUE, false, RUN_CMDS },
	{ "--no-fork", NOARG, false, RUN_CMDS " explain" },
	/* shared by several commands */
	{ "-v", NOARG, false, "check explain bench smoke" },
	{ "--verbose", NOARG, false, "check explain bench smoke" },
	{ "--json", NOARG, false, "check explain bench smoke history fix" },
	{ "--json", OPTIONAL, false, "watch" },
	{ "--list", NOARG, false, "check explain" },
	{ "--strict", NOARG, false, "check smoke" },
	{ "--db", VALUE, false, "smoke history" },
	/* explain */
	{ "-f", VALUE, false, "explain" },
	{ "--file", VALUE, false, "explain" },
	{ "--check", NOARG, false, "explain" },
	{ "--dump-patterns", NOARG, false, "explain" },
	/* bench */
	{ "--size", VALUE, false, "bench" },
	{ "--block", VALUE, false, "bench" },
	{ "--files", VALUE, false, "bench" },
	{ "--file-size", VALUE, false, "bench" },
	{ "--seconds", VALUE, false, "bench" },
	{ "--device", VALUE, false, "bench" },
	{ "--min-size", VALUE, false, "bench" },
	{ "--max-size", VALUE, false, "bench" },
	{ "--launches", VALUE, false, "bench" },
	{ "--batch", VALUE, false, "bench" },
	{ "--lib", VALUE, false, "bench" },
	{ "--csv", NOARG, false, "bench" },
	/* watch */
	{ "--csv", VALUE, false, "watch" },
	{ "--svg", VALUE, false, "watch" },
	{ "--interval", VALUE, false, "watch" },
	{ "--pid", VALUE, false, "watch" },
	{ "-q", NOARG, false, "watch" },
	{ "--quiet", NOARG, false, "watch" },
	{ "--self-stats", NOARG, false, "watch" },
	{ "--nvml-lib", OPTIONAL, false, "watch" },
	/* smoke */
	{ "--policy", VALUE, false, "smoke" },
	{ "--budget", VALUE, false, "smoke" },
	{ "--junit", VALUE, false, "smoke" },
	{ "--prom", VALUE, false, "smoke" },
	{ "--push", VALUE, false, "smoke" },
	{ "--push-delete", VALUE, false, "smoke" },
	{ "--job", VALUE, false, "smoke" },
	{ "--instance", VALUE, false, "smoke" },
	{ "--record", NOARG, false, "smoke" },
	/* history */
	{ "--limit", VALUE, false, "history" },
	{ "--since", VALUE, false, "history" },
	{ "--machine", VALUE, false, "history" },
	{ "--changes", NOARG, false, "history" },
	/* report */
	{ "-o", VALUE, false, "report" },
	{ "--output", VALUE, false, "report" },
	{ "--markdown", NOARG, false, "report" },
	{ "--no-redact", NOARG, false, "report" },
	/* fix */
	{ "--apply", NOARG, false, "fix" },
	{ "--yes", NOARG, false, "fix" },
};
#define NOPTIONS (sizeof options / sizeof options[0])

static void usage(FILE *f)
{
	fprintf(f, "usage: wslgpu [--root DIR] [--color WHEN] COMMAND [OPTIONS]\n"
		   "       wslgpu [--root DIR] [--color WHEN] [CHECK OPTIONS]   (wslgpu check)\n"
		   "       wslgpu --version | --help\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fputs("\nglobal options (before the command word):\n"
	      "      --root DIR       describe the machine whose root file system is DIR\n"
	      "      --color WHEN     auto, always or never; NO_COLOR makes never the default\n"
	      "      --no-color       the same as --color never\n"
	      "  -V, --version        show the version, the commit and the libraries\n"
	      "  -h, --help           show this help (wslgpu --help COMMAND: the command's)\n"
	      "\nRun 'wslgpu COMMAND --help' for a command's options, 'wslgpu help COMMAND'\n"
	      "for its manual page.\n"
	      "\nExit status: 0 fine, 1 something failed (each command says what), 2 usage\n"
	      "error, 3 the tool itself could not run or could not write its output,\n"
	      "130/143 interrupted by SIGINT/SIGTERM.\n",
	      f);
}

/* ---- shared option handling (cli.h) ---- */

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
		fprintf(stderr, "wslgpu: --root %s: %s\n", dir, strerror(-rc));
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
	va_list ap;
	fprintf(stderr, cmd ? "wslgpu %s: " : "wslgpu: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "\nTry 'wslgpu %s --help'.\n", cmd);
	else
		fprintf(stderr, "\nSee 'wslgpu --help'.\n");
}

/* ---- the command word ---- */

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* The length of an option word's name: "--root=x" -> 6. */
static size_t opt_name_len(const char *a)
{
	const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
	return eq ? (size_t)(eq - a) : strlen(a);
}

static bool row_is(const struct option_row *o, const char *a)
{
	size_t n = opt_name_len(a);
	return strlen(o->name) == n && !strncmp(o->name, a, n);
}

static bool row_for(const struct option_row *o, const char *cmd)
{
	if (!o->commands)
		return true;
	size_t n = strlen(cmd);
	for (const char *p = strstr(o->commands, cmd); p; p = strstr(p + 1, cmd))
		if ((p == o->commands || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

static const struct option_row *global_option(const char *a)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].global && row_is(&options[i], a))
			return &options[i];
	return NULL;
}

/* Whether the non-global option a, with no "=VALUE", takes the next word
 * as its value: check's kind decides (the arguments are check's when no
 * command word follows), else any command's, unless the next word is a
 * command. */
static bool takes_next(const char *a, const char *next)
{
	bool valued = false;
	for (size_t i = 0; i < NOPTIONS; i++)
		if (row_is(&options[i], a)) {
			if (row_for(&options[i], "check"))
				return options[i].arg == VALUE;
			valued |= options[i].arg == VALUE;
		}
	return valued && next && !find_command(next);
}

/* A non-global option before the command word: say where it belongs. */
static int misplaced(const char *a, const char *value, const char *cmd)
{
	size_t n = opt_name_len(a);
	struct strbuf owners = STRBUF_INIT;
	bool known = false, mine = false;
	for (size_t i = 0; i < NOPTIONS; i++) {
		if (!row_is(&options[i], a))
			continue;
		known = true;
		mine |= row_for(&options[i], cmd);
		for (size_t c = 0; c < NCOMMANDS; c++)
			if (row_for(&options[i], commands[c].name) &&
			    !strstr(owners.buf ? owners.buf : "", commands[c].name)) {
				sb_add(&owners, owners.len ? ", " : "");
				sb_add(&owners, commands[c].name);
			}
	}
	if (mine)
		cli_usage_error(NULL, "'%.*s' is an option of '%s', not a global one: put it after "
				      "the command word (wslgpu %s %s%s%s)", (int)n, a, cmd, cmd, a,
				value ? " " : "", value ? value : "");
	else if (known)
		cli_usage_error(NULL, "'%.*s' is not a global option, nor an option of '%s' (it "
				      "is one of: %s)", (int)n, a, cmd, sb_str(&owners));
	else
		cli_usage_error(NULL, "unknown option '%s'", a);
	sb_release(&owners);
	return EXIT_USAGE;
}

static int not_a_command(const char *who, const char *name)
{
	const char *names[NCOMMANDS], *near[NCOMMANDS];
	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	size_t k = cli_similar(name, names, NCOMMANDS, near, NCOMMANDS);
	fprintf(stderr, "%s: '%s' is not a wslgpu command. See 'wslgpu --help'.\n", who, name);
	if (k) {
		fprintf(stderr, "\nThe most similar command%s\n", k == 1 ? " is" : "s are");
		for (size_t i = 0; i < k; i++)
			fprintf(stderr, "\t%s\n", near[i]);
	}
	return EXIT_USAGE;
}

/* ---- help ---- */

static const char help_usage[] =
	"usage: wslgpu help [COMMAND]\n"
	"\n"
	"Shows the manual page wslgpu-COMMAND with man(1) when man finds it (installed\n"
	"by 'make install', or on MANPATH), else what 'wslgpu COMMAND --help' prints.\n"
	"Without COMMAND, lists the commands and the global options.\n";

/* Replaces the process with `man PAGE` when man knows PAGE; returns if not. */
static void show_man_page(const char *page)
{
	struct strbuf guest = STRBUF_INIT, host = STRBUF_INIT;
	if (rootfs_which("man", &guest, &host, NULL) == 0) {
		const char *where[] = { host.buf, "-w", page, NULL };
		struct proc_opts po = { .timeout_ms = 10000 };
		struct proc_result r;
		proc_result_init(&r);
		if (proc_run(where, &po, &r) == 0 && r.end == PROC_EXITED && r.code == 0) {
			/* man needs the terminal (its pager): it replaces wslgpu. */
			const char *argv[] = { host.buf, page, NULL };
			proc_exec_replace(argv);
		}
		proc_result_release(&r);
	}
	sb_release(&guest);
	sb_release(&host);
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(help_usage, stdout);
		return EXIT_OK;
	}
	if (argv[1][0] == '-') {
		cli_usage_error("help", "unknown option '%s'", argv[1]);
		return EXIT_USAGE;
	}
	if (argc > 2) {
		cli_usage_error("help", "one command at a time ('%s' is extra)", argv[2]);
		return EXIT_USAGE;
	}
	const struct command *c = find_command(argv[1]);
	if (!c)
		return not_a_command("wslgpu help", argv[1]);
	if (c->fn == cmd_help) {
		fputs(help_usage, stdout);
		return EXIT_OK;
	}
	char *page = xasprintf("wslgpu-%s", c->name);
	show_man_page(page);
	free(page);
	char *args[] = { (char *)c->name, "--help", NULL };
	return c->fn(2, args);
}

/* ---- standard output ---- */

/*
 * As git's run_builtin: output that did not reach its file (a full disk,
 * an I/O error) is an error, EXIT_INTERNAL. A terminal, pipes and a closed
 * standard output are left alone: a reader that stops early (wslgpu kb |
 * head) is not a failure of wslgpu.
 *
 * To a file or a device, stdout goes through a writer that keeps the errno
 * of the first failed write: stdio forgets it (a failed fflush drops the
 * buffer, and a large fputs writes past it), and the message should say
 * why, e.g. "No space left on device".
 */
static int stdout_errno;

static ssize_t stdout_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(1, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!stdout_errno)
				stdout_errno = w < 0 ? errno : EIO;
			return 0; /* fopencookie(3): 0 is the error */
		}
		done += (size_t)w;
	}
	return (ssize_t)done;
}

static bool stdout_checked(void)
{
	struct stat st;
	return fstat(1, &st) == 0 && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode) && !isatty(1);
}

static void watch_stdout(void)
{
	if (!stdout_checked())
		return;
	cookie_io_functions_t io = { .write = stdout_write };
	FILE *f = fopencookie(NULL, "w", io);
	if (f)
		stdout = f;
}

static int finish_stdout(int rc)
{
	if (!stdout_checked())
		return rc;
	errno = 0;
	bool bad = fflush(stdout) != 0 || ferror(stdout);
	int err = stdout_errno ? stdout_errno : errno;
	if (fclose(stdout) != 0 && !bad) {
		bad = true;
		err = stdout_errno ? stdout_errno : errno;
	}
	if (!bad)
		return rc;
	if (err)
		fprintf(stderr, "wslgpu: write error on standard output: %s\n", strerror(err));
	else
		fprintf(stderr, "wslgpu: write error on standard output\n");
	return EXIT_INTERNAL;
}

static int run(int argc, char **argv)
{
	const char *root = NULL;
	bool help = false, version = false;
	int word = -1, stray = -1;
	const char *stray_value = NULL;
	char **rest = xcalloc((size_t)argc + 2, sizeof *rest);
	int nrest = 1;
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			break;
		if (a[0] != '-' || !a[1]) {
			word = i;
			break;
		}
		const struct option_row *o = global_option(a);
		if (!o) {
			/* check's, when no command word follows */
			bool valued = !strchr(a, '=') && i + 1 < argc && takes_next(a, argv[i + 1]);
			if (stray < 0) {
				stray = i;
				stray_value = valued ? argv[i + 1] : NULL;
			}
			rest[nrest++] = argv[i];
			if (valued)
				rest[nrest++] = argv[++i];
			continue;
		}
		const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
		const char *val = NULL;
		if (o->arg == VALUE) {
			val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
			if (!val) {
				cli_usage_error(NULL, "option '%s' needs a value", a);
				free(rest);
				return EXIT_USAGE;
			}
		} else if (eq) {
			cli_usage_error(NULL, "option '%s' takes no value", o->name);
			free(rest);
			return EXIT_USAGE;
		}
		if (!strcmp(o->name, "--root"))
			root = val;
		else if (!strcmp(o->name, "--color") && cli_color_option(NULL, val) < 0) {
			free(rest);
			return EXIT_USAGE;
		} else if (!strcmp(o->name, "--no-color"))
			cli_color_option(NULL, "never");
		else if (!strcmp(o->name, "-h") || !strcmp(o->name, "--help"))
			help = true;
		else if (!strcmp(o->name, "-V") || !strcmp(o->name, "--version"))
			version = true;
	}
	if (version) {
		struct strbuf sb = STRBUF_INIT;
		buildinfo_describe(&sb);
		fputs(sb.buf, stdout);
		sb_release(&sb);
		free(rest);
		return EXIT_OK;
	}
	const char *name = word < 0 ? "check" : argv[word];
	const struct command *cmd = find_command(name);
	int rc;
	if (!cmd) {
		rc = not_a_command("wslgpu", name);
	} else if (word >= 0 && stray >= 0) {
		rc = misplaced(argv[stray], stray_value, name);
	} else if (help && word < 0) {
		usage(stdout);
		rc = EXIT_OK;
	} else if (root && cmd->root == ROOT_REFUSED) {
		cli_usage_error(name, "--root does not apply: %s samples the live /proc of this "
				      "machine", name);
		rc = EXIT_USAGE;
	} else if (root && cmd->root == ROOT_USED && (rc = cli_set_root(root))) {
		/* cli_set_root said why */
	} else {
		/* `wslgpu --help COMMAND` is `wslgpu help COMMAND`. */
		if (help) {
			rest[nrest++] = (char *)name;
			cmd = find_command("help");
		}
		rest[0] = (char *)cmd->name;
		for (int k = word < 0 ? i : word + 1; k < argc; k++)
			rest[nrest++] = argv[k];
		rest[nrest] = NULL;
		rc = cmd->fn(nrest, rest);
	}
	free(rest);
	return rc;
}

int main(int argc, char **argv)
{
	interrupt_catch_xfsz();
	watch_stdout();
	/* Human output is wrapped to the width of where it goes, with marks
	 * the locale can show (src/core/text.h). */
	text_set_terminal(text_terminal_columns(STDOUT_FILENO), text_utf8_locale());
	return finish_stdout(run(argc, argv));
}
