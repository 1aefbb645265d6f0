/*
 * history.c: `wslgpu history` -- the runs `wslgpu smoke --record` stored,
 * and with --changes what changed between consecutive runs of a machine.
 * The database and its rules live in src/history/; this file is options
 * and exit status only.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"
#include "../history/history.h"
#include "cli.h"

#define DEFAULT_LIMIT 20

static const char usage_text[] =
	"usage: wslgpu history [--changes] [--db PATH] [--limit N] [--since WHEN]\n"
	"                      [--machine HASH] [--json]\n"
	"\n"
	"Lists the runs recorded by 'wslgpu smoke --record' (oldest first), or with\n"
	"--changes what changed between consecutive runs of each machine: facts such\n"
	"as the driver or kernel version (with what a downgrade means) and checks\n"
	"whose status flipped.\n"
	"\n"
	"      --changes        what changed between runs, instead of the list\n"
	"      --db PATH        the database (default $XDG_STATE_HOME/wslgpu/history.db,\n"
	"                       else ~/.local/state/wslgpu/history.db)\n"
	"      --limit N        the most recent N runs (default 20; 0: all)\n"
	"      --since WHEN     runs since a date (2025-11-03, local time) or an age\n"
	"                       (12h, 7d, 4w)\n"
	"      --machine HASH   only this machine (a prefix of its 16-digit hash)\n"
	"      --json           JSON (schemas wslgpu/history/1, wslgpu/history-changes/1)\n"
	"      --root DIR       accepted and ignored: the history is the user's own\n"
	"\n"
	"Exit status: 0 shown (also when no run is recorded yet), 1 the database\n"
	"could not be read (missing --db file, not a wslgpu history, damaged),\n"
	"2 usage error.\n";

enum { OPT_DB = 1, OPT_LIMIT, OPT_SINCE, OPT_MACHINE, OPT_JSON, OPT_CHANGES, OPT_ROOT };

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

int cmd_history(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "limit", required_argument, NULL, OPT_LIMIT },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "machine", required_argument, NULL, OPT_MACHINE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "changes", no_argument, NULL, OPT_CHANGES },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_opt = NULL;
	bool json = false, changes = false;
	struct history_query q = { DEFAULT_LIMIT, NULL, 0 };
	char *machine = NULL;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			free(machine);
			return EXIT_OK;
		case OPT_DB:
			db_opt = optarg;
			break;
		case OPT_LIMIT: {
			char *end;
			errno = 0;
			unsigned long long n = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' || n > 1000000000ULL) {
				cli_usage_error("history", "--limit needs a number of runs, not '%s'", optarg);
				free(machine);
				return EXIT_USAGE;
			}
			q.limit = (size_t)n;
			break;
		}
		case OPT_SINCE:
			if (parse_since(optarg, time(NULL), &q.since) < 0) {
				cli_usage_error("history", "--since needs a date (2025-11-03) or an age (7d), not '%s'",
						optarg);
				free(machine);
				return EXIT_USAGE;
			}
			break;
		case OPT_MACHINE:
			if (!is_hex(optarg) || strlen(optarg) > 16) {
				cli_usage_error("history", "--machine needs a machine hash (hex digits), not '%s'",
						optarg);
				free(machine);
				return EXIT_USAGE;
			}
			free(machine);
			machine = xstrdup(optarg);
			for (char *p = machine; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			q.machine = machine;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_ROOT:
			/* Accepted so that `wslgpu --root DIR history` works, and
			 * ignored: the history belongs to the user running the tool,
			 * not to the machine a root describes. */
			break;
		case OPT_CHANGES:
			changes = true;
			break;
		case ':':
			cli_usage_error("history", "%s needs a value", argv[optind - 1]);
			free(machine);
			return EXIT_USAGE;
		default:
			cli_usage_error("history", "unknown option '%s'", argv[optind - 1]);
			free(machine);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cli_usage_error("history", "unexpected argument '%s'", argv[optind]);
		free(machine);
		return EXIT_USAGE;
	}
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
	free(machine);
	return status;
}
