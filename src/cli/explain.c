/*
 * explain.c: `wslgpu explain` — paste an error (or pipe a whole log) and get,
 * for every message the knowledge base knows, the layer it comes from, the
 * likely causes in order, the commands that fix each, the `wslgpu check`
 * that tells them apart, and where the facts come from.
 *
 * The matching is src/explain/ (one streaming pass, bounded memory); the
 * signatures are data in src/kb/explain-*.kb. This file reads the input,
 * runs the checks for --check, and decides the exit status:
 *   0  nothing recognised, or only harmless messages
 *   1  a problem was recognised (a finding, or a myth being followed)
 *   2  usage error (including an input file that cannot be opened)
 *   3  the tool itself could not run (a read error)
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bundle/redact.h"
#include "../core/runner.h"
#include "../explain/confirm.h"
#include "../explain/matcher.h"
#include "../explain/paste.h"
#include "../explain/report.h"
#include "../probes/registry.h"
#include "checkrun.h"
#include "cli.h"

static void explain_help(FILE *f)
{
	fputs("usage: wslgpu explain [OPTIONS] [TEXT...]\n"
	      "       some-command 2>&1 | wslgpu explain [OPTIONS]\n"
	      "\n"
	      "Recognises known GPU error messages in TEXT, a file or standard input and\n"
	      "says, for each: the layer it comes from, the likely causes (most likely\n"
	      "first), the commands that fix each, and the check that tells them apart.\n"
	      "Harmless messages and popular myths are labelled as such. Causes that apply\n"
	      "only to another platform than this machine's (platform.kind, read from\n"
	      "files even without --check) are shown last.\n"
	      "\n"
	      "  -f, --file FILE      read FILE ('-' for standard input)\n"
	      "      --check          also run the checks that tell the causes apart, and\n"
	      "                       put the cause this machine shows first\n"
	      "      --json           print JSON (schema wslgpu/explain/1)\n"
	      "      --list           list every known signature, by layer\n"

	      "  -v, --verbose        every kept occurrence, each cause's sources, ids\n"
	      "      --root DIR       describe the machine whose root is DIR (its platform;\n"
	      "                       with --check, what the checks find)\n"
	      "      --timeout SEC    with --check: time limit per probe (default 10)\n"
	      "      --windows        with --check: also ask the Windows side (TCC mode...)\n"
	      "      --color WHEN     auto, always or never; NO_COLOR makes never the default\n"
	      "  -h, --help           show this help\n"
	      "\n"
	      "Without TEXT or --file, standard input is read. A TEXT that starts with\n"
	      "'-' goes after --:  wslgpu explain -- \"-bash: nvcc: command not found\"\n"
	      "\n"
	      "Exit status: 0 nothing recognised or only harmless messages, 1 a problem\n"
	      "was recognised, 2 usage error (or FILE cannot be opened), 3 read error,\n"
	      "130/143 --check interrupted by SIGINT/SIGTERM (what finished is used).\n",
	      f);
}

/* The first PASTE_KEEP bytes, for the pasted listings (explain/paste.h). */
static void keep(struct strbuf *kept, const char *buf, size_t n)
{
	if (kept->len < PASTE_KEEP)
		sb_addn(kept, buf, n < PASTE_KEEP - kept->len ? n : PASTE_KEEP - kept->len);
}

static int read_fd(struct explain_scan *s, int fd, struct strbuf *kept)
{
	size_t cap = 256u << 10;
	char *buf = xmalloc(cap);
	int rc = 0;
	for (;;) {
		ssize_t n = read(fd, buf, cap);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		explain_scan_feed(s, buf, (size_t)n);
		keep(kept, buf, (size_t)n);
	}
	free(buf);
	return rc;
}

/* Marks the checks that the causes of every recognised signature name. */
static bool want_checks(const struct explain_scan *s, const struct check_def *defs, size_t n,
			bool *want)
{
	bool any = false;
	size_t idx[64];
	for (size_t i = 0; i < s->nfound; i++) {
		const struct explain_sig *sig = &s->db->sig[s->found[i]->sig];
		for (size_t c = 0; c <= sig->ncause; c++) {
			const char *confirm = c < sig->ncause ? sig->cause[c]->confirm : sig->e->confirm;
			size_t k = confirm_checks(confirm, defs, n, idx, 64);
			for (size_t j = 0; j < k; j++)
				want[idx[j]] = any = true;
		}
	}
	return any;
}

/* --kb FILE: the built-in signatures and those of FILE, in one matcher. */
static int load_extra(const char *path, struct kb *extra, struct explain_db *db)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "wslgpu explain: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	sb_addf(&text, "@file %s\n", path);
	int rc = sb_read_fd(&text, fd, 64u << 20, NULL);
	close(fd);
	if (rc < 0) {
		fprintf(stderr, "wslgpu explain: reading %s: %s\n", path, strerror(-rc));
	} else if (kb_parse(text.buf, text.len, extra, &err) < 0) {
		fprintf(stderr, "wslgpu explain: %s\n", err.buf);
		rc = -1;
	} else {
		const struct kb *kbs[] = { kb_builtin(), extra };
		rc = explain_db_build(db, kbs, 2, &err);
		if (rc < 0) {
			fprintf(stderr, "wslgpu explain: %s: %s\n", path, err.buf);
			kb_free(extra);
		}
	}
	sb_release(&text);
	sb_release(&err);
	return rc < 0 ? -1 : 0;
}

/* What the command line asked for. */
struct explain_cmd {
	bool json, check, list, verbose, dump, dump_keys;
	const char *file, *kbfile;
	int first; /* the first word of the text in argv (argc when none) */
};

/* Parses the options into cmd; returns -1 to go on, else the exit status. */
static int explain_parse(struct checkrun *cr, int argc, char **argv, struct explain_cmd *cmd)
{
	enum { OPT_JSON = 256, OPT_CHECK, OPT_LIST, OPT_DUMP, OPT_DUMP_KEYS, OPT_KB };
	/* The run options that make sense for --check; parsed by checkrun. */
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "verbose", no_argument, NULL, 'v' },
		{ "root", required_argument, NULL, CR_OPT_ROOT },
		{ "timeout", required_argument, NULL, CR_OPT_TIMEOUT },
		{ "windows", no_argument, NULL, CR_OPT_WINDOWS },
		{ "color", required_argument, NULL, CR_OPT_COLOR },
		{ "no-color", no_argument, NULL, CR_OPT_NO_COLOR },
		{ "kb", required_argument, NULL, OPT_KB }, /* for KB authors: src/kb/README.md */
		{ "dump-patterns", no_argument, NULL, OPT_DUMP }, /* for bench/explain.sh */
		{ "dump-keys", no_argument, NULL, OPT_DUMP_KEYS }, /* for bench/explain.sh */
		{ "no-fork", no_argument, NULL, CR_OPT_NO_FORK }, /* debugging only */
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":f:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': cmd->file = optarg; break;
		case 'v': cmd->verbose = true; break;
		case OPT_JSON: cmd->json = true; break;
		case OPT_CHECK: cmd->check = true; break;
		case OPT_LIST: cmd->list = true; break;
		case OPT_DUMP: cmd->dump = true; break;
		case OPT_DUMP_KEYS: cmd->dump_keys = true; break;
		case OPT_KB: cmd->kbfile = optarg; break;
		case 'h':
			explain_help(stdout);
			return EXIT_OK;
		case ':':
			cli_usage_error("explain", "option '%s' needs a value", argv[optind - 1]);
			return EXIT_USAGE;
		default: {
			int h = checkrun_option(cr, c, optarg);
			if (h > 0)
				break;
			if (h < 0)
				return EXIT_USAGE;
			/* Pasted messages can start with '-' ("-bash: nvcc: command
			 * not found"); say how to pass them. optopt names a bad short
			 * option; argv[optind - 1] is then not always the word. */
			if (optopt)
				cli_usage_error("explain", "unknown option '-%c' (to explain a text "
					       "that starts with '-', put -- before it)", optopt);
			else
				cli_usage_error("explain", "unknown option '%s' (to explain a text "
					       "that starts with '-', put -- before it)", argv[optind - 1]);
			return EXIT_USAGE;
		}
		}
	}
	cmd->first = optind;
	if (optind < argc && cmd->file) {
		cli_usage_error("explain", "give the text as arguments or with --file, not both");
		return EXIT_USAGE;
	}
	return -1;
}

/* Feeds the text (the words, --file or standard input) to scan; returns
 * -1 to go on, else the exit status. */
static int explain_read(const struct explain_cmd *cmd, int argc, char **argv,
			struct explain_scan *scan, const char **source, struct strbuf *kept)
{
	if (cmd->first < argc) {
		*source = "argv";
		for (int i = cmd->first; i < argc; i++) {
			if (i > cmd->first) {
				explain_scan_feed(scan, " ", 1);
				keep(kept, " ", 1);
			}
			explain_scan_feed(scan, argv[i], strlen(argv[i]));
			keep(kept, argv[i], strlen(argv[i]));
		}
		return -1;
	}
	int fd = 0;
	const char *file = cmd->file;
	*source = "stdin";
	if (file && strcmp(file, "-")) {
		/* The log is the user's document, read where they point, not a
		 * file of the machine described by --root. */
		/* O_NONBLOCK: a FIFO without a writer must not hang the open. */
		fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0) {
			fprintf(stderr, "wslgpu explain: cannot open %s: %s\n", file,
				strerror(errno));
			return EXIT_USAGE;
		}
		/* A device (/dev/zero) or a FIFO may never end: those come on
		 * standard input, where the user chose to wait. */
		struct stat st;
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			fprintf(stderr, "wslgpu explain: %s is not a regular file; give a "
				"pipe or a device on standard input (-f -)\n", file);
			close(fd);
			return EXIT_USAGE;
		}
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		*source = file;
	} else if (isatty(0)) {
		fputs("Paste the error or the log, then press Ctrl-D.\n", stderr);
	}
	int err = read_fd(scan, fd, kept);
	if (fd > 0)
		close(fd);
	if (err < 0) {
		fprintf(stderr, "wslgpu explain: reading %s: %s\n", *source, strerror(-err));
		return EXIT_INTERNAL;
	}
	return -1;
}

/* Runs the checks that confirm what was found (--check), ranks each
 * signature's causes by them, prints the answer; the exit status. */
static int explain_answer(struct checkrun *cr, const struct explain_cmd *cmd,
			  const struct explain_db *db, const struct explain_scan *scan,
			  const char *source, const struct paste *paste)
{
	size_t n;
	const struct check_def *defs = registry_checks(&n);
	struct result *results = NULL;
	int interrupted = 0;
	const struct result *platform = NULL;
	if (scan->nfound) {
		/* The cheap fact, even without --check: platform.kind only
		 * reads files (/proc, os-release: its evidence has the
		 * distribution too), and a cause that applies only to another
		 * platform goes last. */
		bool *want = xcalloc(n, sizeof *want);
		results = xcalloc(n, sizeof *results);
		if (cmd->check)
			want_checks(scan, defs, n, want);
		int ik = registry_find("platform.kind");
		if (ik >= 0)
			want[ik] = true;
		interrupted = runner_run_table(defs, n, &cr->opts, want, results);
		redact_scrub_results(results, n);
		if (ik >= 0 && results[ik].ran && results[ik].status != ST_SKIP)
			platform = &results[ik];
		free(want);
	}
	struct cause_rank **ranks = xcalloc(scan->nfound ? scan->nfound : 1, sizeof *ranks);
	for (size_t i = 0; i < scan->nfound; i++) {
		const struct explain_sig *sig = &db->sig[scan->found[i]->sig];
		ranks[i] = xcalloc(sig->ncause ? sig->ncause : 1, sizeof **ranks);
		rank_causes(sig, defs, cmd->check ? results : NULL, n, platform, ranks[i]);
	}
	struct explain_view view = { scan, source, cmd->check, ranks, cli_want_color(1),
				     cmd->verbose, platform, paste };
	if (cmd->json)
		explain_report_json(stdout, &view);
	else
		explain_report_text(stdout, &view);
	fflush(stdout);

	struct explain_tally t;
	explain_tally(scan, ranks, &t);
	int rc = t.findings + t.myths ? EXIT_FAILED : EXIT_OK;
	if (interrupted)
		rc = checkrun_interrupt_note("explain", interrupted, results, n);

	for (size_t i = 0; i < scan->nfound; i++)
		free(ranks[i]);
	free(ranks);
	if (results) {
		for (size_t i = 0; i < n; i++)
			result_release(&results[i]);
		free(results);
	}
	return rc;
}

static int explain_run(struct checkrun *cr, const struct explain_cmd *cmd,
		       const struct explain_db *db, int argc, char **argv)
{
	if (cmd->list || cmd->dump || cmd->dump_keys) {
		if (cmd->dump_keys)
			explain_dump_keys(stdout, db);
		else if (cmd->dump)
			explain_dump_patterns(stdout, db);
		else if (cmd->json)
			explain_list_json(stdout, db);
		else
			explain_list_text(stdout, db);
		return EXIT_OK;
	}
	struct explain_scan scan;
	explain_scan_init(&scan, db);
	const char *source = NULL;
	struct strbuf kept = STRBUF_INIT;
	int rc = explain_read(cmd, argc, argv, &scan, &source, &kept);
	if (rc < 0) {
		explain_scan_finish(&scan);
		struct paste paste;
		paste_read(kept.buf ? kept.buf : "", kept.len, &paste);
		rc = explain_answer(cr, cmd, db, &scan, source, &paste);
		paste_free(&paste);
	}
	sb_release(&kept);
	explain_scan_release(&scan);
	return rc;
}

static int explain_main(struct checkrun *cr, int argc, char **argv)
{
	struct explain_cmd cmd = { 0 };
	int rc = explain_parse(cr, argc, argv, &cmd);
	if (rc >= 0)
		return rc;
	if (!cmd.kbfile)
		return explain_run(cr, &cmd, explain_db_builtin(), argc, argv);
	struct kb extra;
	struct explain_db own;
	if (load_extra(cmd.kbfile, &extra, &own) < 0)
		return EXIT_USAGE;
	rc = explain_run(cr, &cmd, &own, argc, argv);
	explain_db_free(&own);
	kb_free(&extra);
	return rc;
}

int cmd_explain(int argc, char **argv)
{
	struct checkrun cr;
	checkrun_init(&cr, "explain");
	int rc = explain_main(&cr, argc, argv);
	checkrun_release(&cr);
	return rc;
}
