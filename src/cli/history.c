/*
 * history.c: `wslgpu history` -- the runs `wslgpu smoke --record` stored,
 * and with --changes what changed between consecutive runs of a machine.
 * The database and its rules live in src/history/; this file is options
 * and exit status only.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"
#include "../history/history.h"
#include "../history/page.h"
#include "../report/html.h"
#include "cli.h"

#define DEFAULT_LIMIT 20

/* "2025-11-03" (local midnight) or an age "12h", "7d", "4w". 0 on success. */
static int parse_since(const char *s, time_t now, time_t *out)
{
	int y, m, d;
	char tail;
	if (sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &tail) == 3) {
		if (m < 1 || m > 12 || d < 1 || d > 31)
			return -1;
		struct tm tm;
		memset(&tm, 0, sizeof tm);
		tm.tm_year = y - 1900;
		tm.tm_mon = m - 1;
		tm.tm_mday = d;
		tm.tm_isdst = -1;
		*out = mktime(&tm);
		return *out == (time_t)-1 ? -1 : 0;
	}
	char *end;
	errno = 0;
	long n = strtol(s, &end, 10);
	if (errno || end == s || n < 0 || n > 100000 || end[0] == '\0' || end[1] != '\0')
		return -1;
	long unit = end[0] == 'h' ? 3600 : end[0] == 'd' ? 86400 : end[0] == 'w' ? 7 * 86400 : 0;
	if (!unit)
		return -1;
	*out = now - (time_t)(n * unit);
	return 0;
}

static bool is_hex(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

struct history_args {
	const char *db;
	bool json, changes, html;
	const char *root; /* accepted, ignored */
	struct history_query q;
	char machine[17];
};

static int opt_limit(struct parse_state *ps, const struct cli_option *o, const char *arg,
		     void *value)
{
	(void)o;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || n > 1000000000ULL)
		return parse_error(ps, "--limit needs a number of runs, not '%s'", arg);
	*(size_t *)value = (size_t)n;
	return 0;
}

static int opt_since(struct parse_state *ps, const struct cli_option *o, const char *arg,
		     void *value)
{
	(void)o;
	if (parse_since(arg, time(NULL), value) < 0)
		return parse_error(ps, "--since needs a date (2025-11-03) or an age (7d), not '%s'",
				   arg);
	return 0;
}

static int opt_machine(struct parse_state *ps, const struct cli_option *o, const char *arg,
		       void *value)
{
	(void)o;
	struct history_args *a = value;
	if (!is_hex(arg) || strlen(arg) > 16)
		return parse_error(ps, "--machine needs a machine hash (hex digits), not '%s'", arg);
	size_t i = 0;
	for (; arg[i]; i++)
		a->machine[i] = (char)tolower((unsigned char)arg[i]);
	a->machine[i] = '\0';
	a->q.machine = a->machine;
	return 0;
}

#define ARGS struct history_args
static const struct cli_option history_options[] = {
	OPT_BOOL(0, "changes", ARGS, changes, "what changed between runs, instead of the list"),
	OPT_FILE(0, "db", ARGS, db, "PATH",
		 "the database (default $XDG_STATE_HOME/wslgpu/history.db, else "
		 "~/.local/state/wslgpu/history.db)"),
	OPT_CALLBACK(0, "limit", ARGS, q.limit, "N", "the most recent N runs (default 20; 0: all)",
		     opt_limit),
	OPT_CALLBACK(0, "since", ARGS, q.since, "WHEN",
		     "runs since a date (2025-11-03, local time) or an age (12h, 7d, 4w)", opt_since),
	{ .type = OPTION_CALLBACK, .long_name = "machine", .argh = "HASH",
	  .help = "only this machine (a prefix of its 16-digit hash)", .callback = opt_machine },
	OPT_BOOL(0, "json", ARGS, json, "JSON (schemas wslgpu/history/1, wslgpu/history-changes/1)"),
	OPT_BOOL(0, "html", ARGS, html,
		 "the runs as a timeline on one self-contained HTML page, driver, kernel and WSL "
		 "changes marked"),
	/* So that `wslgpu --root DIR history` works: the history belongs to
	 * the user running the tool, not to the machine a root describes. */
	{ .type = OPTION_STRING, .long_name = "root", .offset = offsetof(ARGS, root), .argh = "DIR",
	  .help = "accepted and ignored: the history is the user's own", .complete = COMPLETE_DIR },
	OPT_END(),
};
#undef ARGS

static const char *const history_usage[] = {
	"wslgpu history [--changes] [--db PATH] [--limit N] [--since WHEN]",
	"               [--machine HASH] [--json | --html]",
	NULL,
};

const struct cli_command history_command = {
	.name = "history",
	.run = cmd_history,
	.summary = "list recorded smoke runs and what changed between them",
	.root = ROOT_IGNORED,
	.usage = history_usage,
	.about = "Lists the runs recorded by 'wslgpu smoke --record' (oldest first), or with\n"
		 "--changes what changed between consecutive runs of each machine: facts such\n"
		 "as the driver or kernel version (with what a downgrade means) and checks\n"
		 "whose status flipped.\n",
	.options = history_options,
	.epilog = "Exit status: 0 shown (also when no run is recorded yet), 1 the database\n"
		  "could not be read (missing --db file, not a wslgpu history, damaged),\n"
		  "2 usage error, 3 the output could not be written.\n",
};

/* --html: the selected runs in memory (at most --limit, default 20), as a
 * timeline page on stdout. */
static int history_html_page(const char *db_opt, const struct history_query *q)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT, page = STRBUF_INIT;
	if (db_opt)
		sb_add(&path, db_opt);
	else
		history_default_path(&path);
	struct history_runs runs;
	memset(&runs, 0, sizeof runs);
	int rc = history_load(path.buf, q, &runs, &err);
	int status = EXIT_OK;
	if (rc < 0 && !(rc == -ENOENT && !db_opt)) {
		errorf("%s", err.buf);
		status = EXIT_FAILED;
	} else {
		html_page_begin(&page, "wslgpu history");
		sb_add(&page, "<h1>wslgpu history</h1>\n");
		history_timeline_html(&page, &runs);
		html_page_end(&page);
		fwrite(page.buf, 1, page.len, stdout);
		if (fflush(stdout) != 0)
			status = EXIT_INTERNAL;
	}
	history_runs_release(&runs);
	sb_release(&path);
	sb_release(&err);
	sb_release(&page);
	return status;
}

int cmd_history(int argc, char **argv)
{
	struct history_args a = { .q = { DEFAULT_LIMIT, NULL, 0 } };
	int n = parse_options(&history_command, argc, argv, &a);
	if (n < 0)
		return parse_exit(n);
	if (n > 0) {
		cli_usage_error("history", "unexpected argument '%s'", argv[0]);
		return EXIT_USAGE;
	}
	const char *db_opt = a.db;
	bool json = a.json, changes = a.changes;
	if (a.html && (json || changes)) {
		cli_usage_error("history", "--html shows the timeline: give it without --json and "
			       "--changes");
		return EXIT_USAGE;
	}
	if (a.html)
		return history_html_page(db_opt, &a.q);
	struct history_query q = a.q;
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	if (db_opt)
		sb_add(&path, db_opt);
	else
		history_default_path(&path);
	/* Streamed: memory stays bounded whatever --limit (0: all runs). */
	struct history_reader *reader = NULL;
	int rc = history_open(path.buf, &reader, &err);
	int status = EXIT_OK;
	if (rc == -ENOENT && !db_opt) {
		/* Nothing recorded on this account yet: not an error. */
		if (changes)
			history_print_changes(stdout, path.buf, &(struct history_runs){ 0 },
					      &(struct history_changes){ 0 }, json);
		else
			history_print_runs(stdout, path.buf, &(struct history_runs){ 0 }, json);
	} else if (rc == -ENOENT) {
		errorf("%s: no such database (record into it with: wslgpu smoke --db %s)",
			path.buf, path.buf);
		status = EXIT_FAILED;
	} else if (rc < 0 ||
		   (changes ? history_stream_changes(stdout, path.buf, reader, &q, json, &err)
			    : history_stream_runs(stdout, path.buf, reader, &q, json, &err)) < 0) {
		fflush(stdout);
		errorf("%s", err.buf);
		status = EXIT_FAILED;
	}
	history_close(reader);
	sb_release(&path);
	sb_release(&err);
	return status;
}
