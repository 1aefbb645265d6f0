/*
 * main.c: the command table, the global options and dispatch (after git.c).
 *
 *   wslgpu [GLOBAL OPTIONS] COMMAND [OPTIONS]
 *   wslgpu [GLOBAL OPTIONS] [CHECK OPTIONS]      the same as wslgpu check ...
 *
 * Only global options go before the command word, as in git. Each command
 * declares its options once (parse-options.h); main reads those
 * declarations to find the command word (whether an option takes a value)
 * and to say where a misplaced option belongs. Without a command word the
 * arguments are check's (`wslgpu` alone is `wslgpu check`). At exit a
 * failed write to standard output is an error, as in git: output a script
 * relies on must not vanish silently.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/buildinfo.h"
#include "../core/error.h"
#include "../core/layers.h"
#include "../core/interrupt.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../core/strbuf.h"
#include "../core/text.h"
#include "../core/utf8.h"
#include "../kb/fixline.h"
#include "../probes/registry.h"
#include "../version.h"
#include "cli.h"

static int cmd_help(int argc, char **argv);
static int cmd_complete(int argc, char **argv);

static const char *const help_usage[] = { "wslgpu help [COMMAND]", NULL };
static const struct cli_command help_command = {
	.name = "help",
	.run = cmd_help,
	.summary = "show a command's manual page, or its help (wslgpu help check)",
	.root = ROOT_IGNORED,
	.usage = help_usage,
	.about = "Shows the manual page wslgpu-COMMAND with man(1) when man finds it (installed\n"
		 "by 'make install', or on MANPATH), else what 'wslgpu COMMAND --help' prints.\n"
		 "Without COMMAND, lists the commands and the global options.\n",
};

/* For completions/: what the command line is, from the declarations. */
static const char *const complete_usage[] = {
	"wslgpu __complete commands | options [COMMAND] | checks", NULL,
};
static const struct cli_command complete_command = {
	.name = "__complete",
	.run = cmd_complete,
	.root = ROOT_IGNORED,
	.usage = complete_usage,
	.flags = PARSE_HIDDEN_COMMAND,
};

static const struct cli_command *const commands[] = {
	&check_command, &explain_command, &bench_command, &watch_command, &smoke_command,
	&history_command, &report_command, &fix_command, &kb_command, &help_command,
	&complete_command,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The global options: only these go before the command word. Their
 * values are main's (struct globals). */
struct globals {
	const char *root;
	bool help, version;
};

static int global_no_pager(struct parse_state *ps, const struct cli_option *o, const char *arg,
			   void *value)
{
	(void)ps, (void)o, (void)arg, (void)value;
	pager_disable();
	return 0;
}

static int global_color(struct parse_state *ps, const struct cli_option *o, const char *arg,
			void *value)
{
	(void)ps, (void)o, (void)value;
	return cli_color_option(NULL, arg ? arg : "never");
}

static const struct cli_option global_options[] = {
	{ .type = OPTION_STRING, .long_name = "root", .offset = offsetof(struct globals, root),
	  .argh = "DIR", .help = "describe the machine whose root file system is DIR",
	  .complete = COMPLETE_DIR },
	{ .type = OPTION_CALLBACK, .long_name = "color", .argh = "WHEN",
	  .help = "auto, always or never; NO_COLOR makes never the default",
	  .callback = global_color, .complete = COMPLETE_WORDS, .words = "auto always never" },
	{ .type = OPTION_CALLBACK, .long_name = "no-color", .help = "the same as --color never",
	  .callback = global_color },
	{ .type = OPTION_CALLBACK, .long_name = "no-pager",
	  .help = "never page long output (default on a terminal: $WSLGPU_PAGER, $PAGER or less)",
	  .callback = global_no_pager },
	OPT_BOOL('V', "version", struct globals, version,
		 "show the version, the commit and the libraries"),
	{ .type = OPTION_HELP, .short_name = 'h', .long_name = "help",
	  .offset = offsetof(struct globals, help),
	  .help = "show this help (wslgpu --help COMMAND: the command's)" },
	OPT_END(),
};
static const char *const global_usage[] = {
	"wslgpu [--root DIR] [--color WHEN] COMMAND [OPTIONS]",
	"wslgpu [--root DIR] [--color WHEN] [CHECK OPTIONS]   (wslgpu check)",
	"wslgpu --version | --help",
	NULL,
};
static const struct cli_command global_command = {
	.name = "wslgpu",
	.usage = global_usage,
	.options = global_options,
};

static void usage(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; global_usage[i]; i++)
		sb_addf(&sb, "%s%s\n", i ? "       " : "usage: ", global_usage[i]);
	sb_add(&sb, "\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!(commands[i]->flags & PARSE_HIDDEN_COMMAND))
			sb_addf(&sb, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
	sb_add(&sb, "\nglobal options (before the command word):\n");
	parse_options_lines(&global_command, &sb);
	sb_add(&sb, "\nRun 'wslgpu COMMAND --help' for a command's options, 'wslgpu help COMMAND'\n"
		   "for its manual page.\n"
		   "\nExit status: 0 fine, 1 something failed (each command says what), 2 usage\n"
		   "error, 3 the tool itself could not run or could not write its output,\n"
		   "130/143 interrupted by SIGINT/SIGTERM.\n");
	fputs(sb.buf, f);
	sb_release(&sb);
}

/* ---- the command word ---- */

static const struct cli_command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

/* The length of an option word's name: "--root=x" -> 6. */
static size_t opt_name_len(const char *a)
{
	const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
	return eq ? (size_t)(eq - a) : strlen(a);
}

/* Whether option o takes the next word as its value. */
static bool valued(const struct cli_option *o)
{
	return o->argh && !(o->flags & OPT_OPTARG);
}

/* Whether the non-global option a, with no "=VALUE", takes the next word
 * as its value: check's declaration decides (the arguments are check's
 * when no command word follows), else any command's, unless the next word
 * is a command. */
static bool takes_next(const char *a, const char *next)
{
	struct cli_option tmp;
	const struct cli_option *o = parse_options_find(&check_command, a, &tmp);
	if (o)
		return valued(o);
	bool any = false;
	for (size_t c = 0; c < NCOMMANDS; c++) {
		o = parse_options_find(commands[c], a, &tmp);
		any |= o && valued(o);
	}
	return any && next && !find_command(next);
}

/* "; did you mean '--json'?" for a mistyped option word a ("--jsn"), from
 * every option of every command and the global ones; into sb. */
static const char *did_you_mean(const char *a, struct strbuf *sb)
{
	const char *names[NCOMMANDS * PARSE_MAX_OPTIONS], *near[4];
	struct cli_option opts[PARSE_MAX_OPTIONS]; /* their names are static strings */
	size_t k = 0;
	sb_reset(sb);
	if (a[0] != '-' || a[1] != '-')
		return "";
	for (size_t c = 0; c <= NCOMMANDS; c++) {
		const struct cli_command *cmd = c < NCOMMANDS ? commands[c] : &global_command;
		size_t n = parse_options_list(cmd, opts, PARSE_MAX_OPTIONS);
		for (size_t i = 0; i < n; i++) {
			const char *l = opts[i].long_name;
			bool seen = !l || (opts[i].flags & OPT_HIDDEN);
			for (size_t j = 0; j < k && !seen; j++)
				seen = !strcmp(names[j], l);
			if (!seen && k < sizeof names / sizeof names[0])
				names[k++] = l;
		}
	}
	size_t m = cli_similar(a + 2, names, k, near, 4);
	for (size_t i = 0; i < m; i++)
		sb_addf(sb, "%s'--%s'", i ? ", " : m == 1 ? "; did you mean " : "; did you mean one of ",
			near[i]);
	if (m)
		sb_addc(sb, '?');
	return sb_str(sb);
}

/* A non-global option before the command word: say where it belongs. */
static int misplaced(const char *a, const char *value, const char *cmd)
{
	size_t n = opt_name_len(a);
	char *name = xstrndup(a, n);
	struct strbuf owners = STRBUF_INIT;
	struct cli_option tmp;
	bool mine = false;
	for (size_t c = 0; c < NCOMMANDS; c++) {
		if (!parse_options_find(commands[c], name, &tmp))
			continue;
		mine |= !strcmp(commands[c]->name, cmd);
		sb_addf(&owners, "%s%s", owners.len ? ", " : "", commands[c]->name);
	}
	if (mine)
		cli_usage_error(NULL, "'%s' is an option of '%s', not a global one: put it after "
				      "the command word (wslgpu %s %s%s%s)", name, cmd, cmd, a,
				value ? " " : "", value ? value : "");
	else if (owners.len)
		cli_usage_error(NULL, "'%s' is not a global option, nor an option of '%s' (it "
				      "is one of: %s)", name, cmd, owners.buf);
	else
		cli_usage_error(NULL, "unknown option '%s'%s", a, did_you_mean(name, &owners));
	sb_release(&owners);
	free(name);
	return EXIT_USAGE;
}

static int not_a_command(const char *who, const char *name)
{
	const char *names[NCOMMANDS], *near[NCOMMANDS];
	size_t n = 0;
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!(commands[i]->flags & PARSE_HIDDEN_COMMAND))
			names[n++] = commands[i]->name;
	size_t k = cli_similar(name, names, n, near, n);
	struct strbuf shown = STRBUF_INIT;
	text_escape(&shown, name);
	fprintf(stderr, "%s: '%s' is not a wslgpu command. See 'wslgpu --help'.\n", who,
		shown.buf);
	sb_release(&shown);
	if (k) {
		fprintf(stderr, "\nThe most similar command%s\n", k == 1 ? " is" : "s are");
		for (size_t i = 0; i < k; i++)
			fprintf(stderr, "\t%s\n", near[i]);
	}
	return EXIT_USAGE;
}

/* ---- help ---- */

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
	struct { int unused; } none;
	int n = parse_options(&help_command, argc, argv, &none);
	if (n < 0)
		return parse_exit(n);
	if (n == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (n > 1) {
		cli_usage_error("help", "one command at a time ('%s' is extra)", argv[1]);
		return EXIT_USAGE;
	}
	const struct cli_command *c = find_command(argv[0]);
	if (!c || (c->flags & PARSE_HIDDEN_COMMAND))
		return not_a_command("wslgpu help", argv[0]);
	if (c == &help_command) {
		struct strbuf sb = STRBUF_INIT;
		parse_options_help(c, &sb);
		fputs(sb.buf, stdout);
		sb_release(&sb);
		return EXIT_OK;
	}
	char *page = xasprintf("wslgpu-%s", c->name);
	show_man_page(page);
	free(page);
	char *args[] = { (char *)c->name, "--help", NULL };
	error_set_command(c->name);
	return c->run(2, args);
}

/* ---- completions ---- */

/* `wslgpu __complete WHAT`: the command line as completions/ need it,
 * from the declarations, so that the scripts never go out of date. */
static int cmd_complete(int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	int rc = EXIT_OK;
	if (argc == 2 && !strcmp(argv[1], "commands")) {
		for (size_t i = 0; i < NCOMMANDS; i++)
			if (!(commands[i]->flags & PARSE_HIDDEN_COMMAND))
				sb_addf(&out, "%s\t%s\n", commands[i]->name, commands[i]->summary);
	} else if (argc == 2 && !strcmp(argv[1], "options")) {
		parse_options_complete(&global_command, &out);
	} else if (argc == 3 && !strcmp(argv[1], "options") && find_command(argv[2])) {
		parse_options_complete(find_command(argv[2]), &out);
	} else if (argc == 2 && !strcmp(argv[1], "checks")) {
		/* What --only takes: layers and check ids, but not the policy
		 * layer: smoke --policy FILE selects its checks from the rules
		 * the file sets, and check refuses them. */
		size_t n, nl;
		const struct layer *layers = layers_in_order(&nl);
		const struct check_def *defs = registry_checks(&n);
		for (size_t l = 0; l < nl; l++) {
			if (!strcmp(layers[l].name, "policy"))
				continue;
			sb_addf(&out, "%s\n", layers[l].name);
			for (size_t i = 0; i < n; i++)
				if (!strcmp(defs[i].layer, layers[l].name))
					sb_addf(&out, "%s\n", defs[i].id);
		}
	} else {
		cli_usage_error("__complete", "usage: %s", complete_usage[0]);
		rc = EXIT_USAGE;
	}
	fputs(sb_str(&out), stdout);
	sb_release(&out);
	return rc;
}

/* ---- standard output ---- */

/*
 * As git's run_builtin: output that did not reach its file (a full disk,
 * an I/O error) is an error, EXIT_INTERNAL. A terminal and pipes are left
 * alone: a reader that stops early (wslgpu kb | head) is not a failure of
 * wslgpu.
 *
 * To a file or a device, stdout goes through a writer that keeps the errno
 * of the first failed write: stdio forgets it (a failed fflush drops the
 * buffer, and a large fputs writes past it), and the message should say
 * why, e.g. "No space left on device".
 *
 * A closed standard output (>&-) is opened on /dev/null first, as git's
 * sanitize_stdfds does, so that no file wslgpu opens becomes descriptor 1
 * and receives its output; a command whose output then went nowhere exits
 * EXIT_INTERNAL too. wslgpu --version and --help, which are not a
 * command's result, keep git's answer: nothing to report.
 */
static int stdout_errno;
static size_t stdout_bytes;
static bool stdout_closed, command_ran;

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
	stdout_bytes += done;
	return (ssize_t)done;
}

static bool stdout_checked(void)
{
	struct stat st;
	return fstat(1, &st) == 0 && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode) && !isatty(1);
}

/* Descriptors 0, 1 and 2 open, on /dev/null where they were closed. */
static void open_std_fds(void)
{
	stdout_closed = fcntl(1, F_GETFD) < 0 && errno == EBADF;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	while (fd >= 0 && fd <= 2) {
		fcntl(fd, F_SETFD, 0); /* a standard descriptor: inherited */
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	}
	if (fd > 2)
		close(fd);
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
	error_set_command(NULL); /* what main says is main's: "wslgpu: ..." */
	errno = 0;
	bool bad = fflush(stdout) != 0 || ferror(stdout);
	int err = stdout_errno ? stdout_errno : errno;
	if (fclose(stdout) != 0 && !bad) {
		bad = true;
		err = stdout_errno ? stdout_errno : errno;
	}
	if (stdout_closed && command_ran && stdout_bytes) {
		errorf("standard output is closed: what the command printed was lost");
		return EXIT_INTERNAL;
	}
	if (!bad)
		return rc;
	if (err)
		errorf("write error on standard output: %s", strerror(err));
	else
		errorf("write error on standard output");
	return EXIT_INTERNAL;
}

static int run(int argc, char **argv)
{
	struct globals g = { 0 };
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
		struct cli_option tmp;
		const struct cli_option *o = parse_options_find(&global_command, a, &tmp);
		if (!o) {
			/* check's, when no command word follows */
			bool next = !strchr(a, '=') && i + 1 < argc && takes_next(a, argv[i + 1]);
			if (stray < 0) {
				stray = i;
				stray_value = next ? argv[i + 1] : NULL;
			}
			rest[nrest++] = argv[i];
			if (next)
				rest[nrest++] = argv[++i];
			continue;
		}
		const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
		const char *val = NULL;
		if (o->argh) {
			val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
			if (!val) {
				cli_usage_error(NULL, "option '%s' needs a value", a);
				free(rest);
				return EXIT_USAGE;
			}
		} else if (eq) {
			cli_usage_error(NULL, "option '--%s' takes no value", o->long_name);
			free(rest);
			return EXIT_USAGE;
		}
		if (o->type == OPTION_HELP)
			g.help = true;
		else if (o->type == OPTION_BOOL)
			*(bool *)((char *)&g + o->offset) = true;
		else if (o->type == OPTION_STRING)
			*(const char **)((char *)&g + o->offset) = val;
		else if (o->callback(NULL, o, val, NULL) < 0) {
			free(rest);
			return EXIT_USAGE;
		}
	}
	if (g.version) {
		struct strbuf sb = STRBUF_INIT;
		buildinfo_describe(&sb);
		fputs(sb.buf, stdout);
		sb_release(&sb);
		free(rest);
		return EXIT_OK;
	}
	const char *name = word < 0 ? "check" : argv[word];
	const struct cli_command *cmd = find_command(name);
	int rc;
	if (!cmd) {
		rc = not_a_command("wslgpu", name);
	} else if (word >= 0 && stray >= 0) {
		rc = misplaced(argv[stray], stray_value, name);
	} else if (g.help && word < 0) {
		usage(stdout);
		rc = EXIT_OK;
	} else if (g.root && cmd->root == ROOT_REFUSED) {
		cli_usage_error(name, "--root does not apply: %s samples the live /proc of this "
				      "machine", name);
		rc = EXIT_USAGE;
	} else if (g.root && cmd->root == ROOT_USED && (rc = cli_set_root(g.root))) {
		/* cli_set_root said why */
	} else {
		/* `wslgpu --help COMMAND` is `wslgpu help COMMAND`. */
		if (g.help) {
			rest[nrest++] = (char *)name;
			cmd = &help_command;
		}
		rest[0] = (char *)cmd->name;
		for (int k = word < 0 ? i : word + 1; k < argc; k++)
			rest[nrest++] = argv[k];
		rest[nrest] = NULL;
		error_set_command(cmd->name);
		/* Fix lines are for whoever runs this, on the machine described
		 * (decided at first use: --root may come after the command word). */
		fix_user_set(FIX_USER_DETECT);
		command_ran = true;
		rc = cmd->run(nrest, rest);
	}
	free(rest);
	return rc;
}

int main(int argc, char **argv)
{
	open_std_fds();
	interrupt_catch_xfsz();
	watch_stdout();
	/* Human output is wrapped to the width of where it goes, with marks
	 * the locale can show (src/core/text.h). */
	text_set_terminal(text_terminal_columns(STDOUT_FILENO), text_utf8_locale());
	int rc = finish_stdout(run(argc, argv));
	pager_stop();
	return rc;
}
