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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bundle/redact.h"
#include "../core/error.h"
#include "../core/runner.h"
#include "../explain/confirm.h"
#include "../explain/matcher.h"
#include "../explain/names.h"
#include "../explain/paste.h"
#include "../explain/textplat.h"
#include "../parse/wintext.h"
#include "../report/explain.h"
#include "../report/format.h"
#include "../probes/registry.h"
#include "checkrun.h"
#include "cli.h"

/* The first PASTE_KEEP bytes, for the pasted listings (explain/paste.h). */
static void keep(struct strbuf *kept, const char *buf, size_t n)
{
	if (kept->len < PASTE_KEEP)
		sb_addn(kept, buf, n < PASTE_KEEP - kept->len ? n : PASTE_KEEP - kept->len);
}

static void feed(struct explain_scan *s, struct strbuf *kept, const char *buf, size_t n)
{
	explain_scan_feed(s, buf, n);
	keep(kept, buf, n);
}

/* A log saved on Windows is often UTF-16: Windows PowerShell 5.1's `>` and
 * Out-File write UTF-16LE with a byte-order mark (learn.microsoft.com:
 * about_Character_Encoding), as do Notepad's "Unicode" and wsl.exe's own
 * output (src/parse/wintext.h). Read as bytes it is a NUL after every
 * letter and matches nothing, so it is decoded as it streams: *carry holds
 * a code unit cut by a read, or a high surrogate waiting for its pair. */
struct utf16_stream {
	bool on, be;
	unsigned char carry[4];
	size_t ncarry;
	struct strbuf out;
};

static void utf16_feed(struct utf16_stream *u, const unsigned char *b, size_t n, bool last,
		       struct explain_scan *s, struct strbuf *kept)
{
	unsigned char *in = xmalloc(u->ncarry + n + 1);
	memcpy(in, u->carry, u->ncarry);
	if (n)
		memcpy(in + u->ncarry, b, n);
	size_t len = u->ncarry + n, use = len;
	if (!last) {
		use = len & ~(size_t)1;
		unsigned hi = use < 2 ? 0 : u->be ? in[use - 2] : in[use - 1];
		if (hi >= 0xd8 && hi <= 0xdb) /* a pair's first half: wait for the second */
			use -= 2;
	}
	u->ncarry = len - use;
	memcpy(u->carry, in + use, u->ncarry);
	sb_reset(&u->out);
	wintext_utf16_to_utf8(in, use, u->be, &u->out); /* a lone surrogate reads as '?' */
	free(in);
	if (u->out.len)
		feed(s, kept, u->out.buf, u->out.len);
}

static int read_fd(struct explain_scan *s, int fd, struct strbuf *kept)
{
	size_t cap = 256u << 10;
	unsigned char *buf = xmalloc(cap);
	struct utf16_stream u = { .out = STRBUF_INIT };
	bool first = true;
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
		size_t skip = 0;
		if (first) {
			bool bom;
			int start = wintext_utf16_start(buf, (size_t)n, &bom, &u.be);
			u.on = start >= 0;
			skip = u.on ? (size_t)start : 0;
			s->st.utf16 = u.on;
			first = false;
		}
		if (u.on)
			utf16_feed(&u, buf + skip, (size_t)n - skip, false, s, kept);
		else
			feed(s, kept, (const char *)buf, (size_t)n);
	}
	if (u.on && u.ncarry)
		utf16_feed(&u, NULL, 0, true, s, kept);
	sb_release(&u.out);
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
		errorf("cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	sb_addf(&text, "@file %s\n", path);
	int rc = sb_read_fd(&text, fd, 64u << 20, NULL);
	close(fd);
	if (rc < 0) {
		errorf("reading %s: %s", path, strerror(-rc));
	} else if (kb_parse(text.buf, text.len, extra, &err) < 0) {
		errorf("%s", err.buf);
		rc = -1;
	} else {
		const struct kb *kbs[] = { kb_builtin(), extra };
		rc = explain_db_build(db, kbs, 2, &err);
		if (rc < 0) {
			errorf("%s: %s", path, err.buf);
			kb_free(extra);
		}
	}
	sb_release(&text);
	sb_release(&err);
	return rc < 0 ? -1 : 0;
}

/* What the command line asked for. */
struct explain_cmd {
	bool check, list, verbose, dump, dump_keys;
	struct format_choice format;
	const char *file, *kbfile;
	const char *platform; /* --platform KIND: where the log ran */
	struct checkrun cr;
	int ntext; /* the words of the text: argv[0..ntext) after parsing */
};

#define ARGS struct explain_cmd
static const struct cli_option explain_options[] = {
	OPT_FILE('f', "file", ARGS, file, "FILE", "read FILE ('-' for standard input)"),
	OPT_BOOL(0, "check", ARGS, check,
		 "also run the checks that tell the causes apart, and put the cause this machine "
		 "shows first"),
	OPT_FORMATS(ARGS, format),
	OPT_BOOL(0, "list", ARGS, list, "list every known signature, by layer"),
	OPT_FILE(0, "kb", ARGS, kbfile, "FILE",
		 "also match with the signatures of FILE, a knowledge-base entry file (for "
		 "trying a new entry out)"),
	{ .type = OPTION_STRING, .long_name = "platform", .offset = offsetof(ARGS, platform),
	  .argh = "KIND", .flags = OPT_NONEMPTY, .complete = COMPLETE_WORDS,
	  .words = "wsl2 wsl1 container-in-wsl2 container native windows",
	  .help = "the platform the log comes from (wsl2, wsl1, container-in-wsl2, container, "
		  "native, windows): wins over what its text shows and over this machine" },
	OPT_BOOL('v', "verbose", ARGS, verbose, "every kept occurrence, each cause's sources, ids"),
	OPT_ROOT(ARGS, cr,
		 "describe the machine whose root is DIR (its platform; with --check, what the "
		 "checks find)"),
	OPT_RUN_TIMEOUT(ARGS, cr, "with --check: time limit per probe (default 10)"),
	OPT_RUN_WINDOWS(ARGS, cr, "with --check: also ask the Windows side (TCC mode...)"),
	OPT_COLOR(ARGS, cr),
	/* for bench/explain.sh */
	{ .type = OPTION_BOOL, .long_name = "dump-patterns", .offset = offsetof(ARGS, dump),
	  .help = "one POSIX ERE per line (the benchmark's grep baseline)", .flags = OPT_HIDDEN },
	{ .type = OPTION_BOOL, .long_name = "dump-keys", .offset = offsetof(ARGS, dump_keys),
	  .help = "the automaton's keys, one per line", .flags = OPT_HIDDEN },
	OPT_RUN_NO_FORK(ARGS, cr),
	OPT_END(),
};
#undef ARGS

static const char *const explain_usage[] = {
	"wslgpu explain [OPTIONS] [TEXT...]",
	"some-command 2>&1 | wslgpu explain [OPTIONS]",
	NULL,
};

const struct cli_command explain_command = {
	.name = "explain",
	.run = cmd_explain,
	.summary = "paste an error or a log: get the layer, cause and fix",
	.root = ROOT_USED,
	.usage = explain_usage,
	.about = "Recognises known GPU error messages in TEXT, a file or standard input and\n"
		 "says, for each: the layer it comes from, the likely causes (most likely\n"
		 "first), the commands that fix each, and the check that tells them apart.\n"
		 "Harmless messages and popular myths are labelled as such. The platform the\n"
		 "log comes from is read from its text (/usr/lib/wsl, NVRM:, nvidia-container-cli,\n"
		 "C:\\...), or given with --platform; causes for another platform are shown\n"
		 "last. Where neither says, this machine's platform is only a prior: causes\n"
		 "that hold everywhere come first, those bound to one platform after, marked.\n",
	.options = explain_options,
	.epilog = "Without TEXT or --file, standard input is read. A TEXT that starts with\n"
		  "'-' goes after --:  wslgpu explain -- \"-bash: nvcc: command not found\"\n"
		  "\n"
		  "Exit status: 0 nothing recognised or only harmless messages, 1 a problem\n"
		  "was recognised, 2 usage error (or FILE cannot be opened), 3 read error or\n"
		  "the output could not be written, 130/143 --check interrupted by\n"
		  "SIGINT/SIGTERM (what finished is used).\n",
	/* Pasted messages can start with '-' ("-bash: nvcc: command not found"). */
	.unknown_hint = "to explain a text that starts with '-', put -- before it",
};

/* Parses the options into cmd; returns -1 to go on, else the exit status. */
static int explain_parse(int argc, char **argv, struct explain_cmd *cmd)
{
	int n = parse_options(&explain_command, argc, argv, cmd);
	if (n < 0)
		return parse_exit(n);
	cmd->ntext = n;
	if (cmd->platform && !text_platform_valid(cmd->platform)) {
		cli_usage_error("explain", "--platform: unknown kind; one of wsl2, wsl1, "
					   "container-in-wsl2, container, native, windows");
		return EXIT_USAGE;
	}
	if (n > 0 && cmd->file) {
		cli_usage_error("explain", "give the text as arguments or with --file, not both");
		return EXIT_USAGE;
	}
	return -1;
}

/* Feeds the text (the words, --file or standard input) to scan; returns
 * -1 to go on, else the exit status. */
static int explain_read(const struct explain_cmd *cmd, char **argv,
			struct explain_scan *scan, const char **source, struct strbuf *kept)
{
	if (cmd->ntext > 0) {
		*source = "argv";
		for (int i = 0; i < cmd->ntext; i++) {
			if (i > 0) {
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
			errorf("cannot open %s: %s", file,
				strerror(errno));
			return EXIT_USAGE;
		}
		/* A device (/dev/zero) or a FIFO may never end: those come on
		 * standard input, where the user chose to wait. */
		struct stat st;
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			errorf("%s is not a regular file; give a "
				"pipe or a device on standard input (-f -)", file);
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
		errorf("reading %s: %s", *source, strerror(-err));
		return EXIT_INTERNAL;
	}
	return -1;
}

/* Runs the checks that confirm what was found (--check), ranks each
 * signature's causes by them, prints the answer; the exit status. */
static int explain_answer(const struct explain_cmd *cmd, const struct explain_db *db,
			  const struct explain_scan *scan, const char *source,
			  const struct paste *paste, const struct text_platform *tp,
			  const struct strbuf *kept)
{
	const struct checkrun *cr = &cmd->cr;
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
	struct rank_platform pf;
	rank_platform_pick(&pf, cmd->platform, tp->kind, tp->marker, platform);
	struct paste_words words = { .text = kept->buf ? kept->buf : "", .len = kept->len };
	pf.words = &words;
	struct cause_rank **ranks = xcalloc(scan->nfound ? scan->nfound : 1, sizeof *ranks);
	for (size_t i = 0; i < scan->nfound; i++) {
		const struct explain_sig *sig = &db->sig[scan->found[i]->sig];
		ranks[i] = xcalloc(sig->ncause ? sig->ncause : 1, sizeof **ranks);
		rank_causes(sig, defs, cmd->check ? results : NULL, n, &pf, ranks[i]);
	}
	struct explain_view view = { scan, source, cmd->check, ranks, cli_want_color(1),
				     cmd->verbose, platform, paste, &pf,
				     names_application(kept->buf ? kept->buf : "", kept->len) };
	struct strbuf out = STRBUF_INIT;
	struct format_input in = { .explain = &view };
	format_write("explain", cmd->format.out ? cmd->format.out->name : NULL, &out, &in);
	fwrite(out.buf, 1, out.len, stdout);
	sb_release(&out);
	fflush(stdout);

	struct explain_tally t;
	explain_tally(scan, ranks, &t);
	int rc = t.findings + t.myths ? EXIT_FAILED : EXIT_OK;
	if (interrupted)
		rc = checkrun_interrupt_note(interrupted, results, n);

	for (size_t i = 0; i < scan->nfound; i++)
		free(ranks[i]);
	free(ranks);
	paste_words_release(&words);
	if (results) {
		for (size_t i = 0; i < n; i++)
			result_release(&results[i]);
		free(results);
	}
	return rc;
}

static int explain_run(const struct explain_cmd *cmd, const struct explain_db *db,
		       char **argv)
{
	if (cmd->list || cmd->dump || cmd->dump_keys) {
		struct strbuf out = STRBUF_INIT;
		if (cmd->dump_keys)
			explain_dump_keys(&out, db);
		else if (cmd->dump)
			explain_dump_patterns(&out, db);
		else if (cmd->format.out)
			explain_list_json(&out, db);
		else
			explain_list_text(&out, db);
		fwrite(out.buf, 1, out.len, stdout);
		sb_release(&out);
		return EXIT_OK;
	}
	struct explain_scan scan;
	explain_scan_init(&scan, db);
	const char *source = NULL;
	struct strbuf kept = STRBUF_INIT;
	int rc = explain_read(cmd, argv, &scan, &source, &kept);
	if (rc < 0) {
		explain_scan_finish(&scan);
		struct paste paste;
		paste_read(kept.buf ? kept.buf : "", kept.len, &paste);
		struct text_platform tp;
		text_platform_read(kept.buf ? kept.buf : "", kept.len, &tp);
		rc = explain_answer(cmd, db, &scan, source, &paste, &tp, &kept);
		paste_free(&paste);
	}
	sb_release(&kept);
	explain_scan_release(&scan);
	return rc;
}

static int explain_main(struct explain_cmd *cmd, int argc, char **argv)
{
	int rc = explain_parse(argc, argv, cmd);
	if (rc >= 0)
		return rc;
	if (!cmd->kbfile)
		return explain_run(cmd, explain_db_builtin(), argv);
	struct kb extra;
	struct explain_db own;
	if (load_extra(cmd->kbfile, &extra, &own) < 0)
		return EXIT_USAGE;
	rc = explain_run(cmd, &own, argv);
	explain_db_free(&own);
	kb_free(&extra);
	return rc;
}

int cmd_explain(int argc, char **argv)
{
	struct explain_cmd cmd = { 0 };
	checkrun_init(&cmd.cr, "explain");
	int rc = explain_main(&cmd, argc, argv);
	checkrun_release(&cmd.cr);
	return rc;
}
