/*
 * history: the SQLite database of recorded smoke runs (smoke --record,
 * wslgpu history). WAL mode, one transaction per run; a file that is not
 * our database is reported, never overwritten.
 *
 * The database (history.c): history_record() stores one run,
 * history_load() returns runs oldest first. Facts (facts.c): the key values
 * a fleet follows (driver version, kernel, torch...), taken from the check
 * evidence by one table. Changes (changes.c): what differs between
 * consecutive runs of one machine, with the KB entry that explains it.
 * Output (show.c): text and JSON for `wslgpu history`.
 */
#ifndef WSLGPU_HISTORY_H
#define WSLGPU_HISTORY_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "../core/strbuf.h"
#include "../report/report.h"

/* The schema this code writes (PRAGMA user_version) and the marker that
 * tells our database from any other SQLite file (PRAGMA application_id,
 * "wGPU" in ASCII). */
#define HISTORY_SCHEMA_VERSION 1
#define HISTORY_APPLICATION_ID 0x77475055
/* How long a writer waits for another one to finish its transaction. */
#define HISTORY_BUSY_TIMEOUT_MS 5000

/* What a run is, beyond its check results. */
struct history_meta {
	time_t when;             /* start of the run */
	double duration_ms;
	const char *command;     /* "smoke" */
	int exit_status;
	const char *policy_path; /* NULL: none */
};

/* The default database path: $XDG_STATE_HOME/wslgpu/history.db, else
 * ~/.local/state/wslgpu/history.db. Never under --root: history belongs to
 * the user running the tool. */
void history_default_path(struct strbuf *out);

/*
 * Records one run (every check that ran: status, detail, KB id; the key
 * facts; the hashed machine id) in one transaction, creating the database
 * (0600) and its directory (0700) when missing. Stored text is redacted
 * (src/report/redact.h: user and host names become <user-1>, <host-1>...).
 * Returns 0, or -1 with a one-line message in err (the run itself is not
 * affected).
 */
int history_record(const char *db_path, const struct report *rep,
		   const struct history_meta *meta, struct strbuf *err);

/* The machine id of the described machine (/etc/machine-id, else
 * /var/lib/dbus/machine-id, read through rootfs) as 16 hex digits of a
 * salted SHA-256; "unknown" when neither holds an id. */
void history_machine_hash(struct strbuf *out);

/* ---- facts: the key values of a run ---- */

struct history_kv {
	char *key;
	char *val;
};

/* Extracts the facts of a run from its results (the table in facts.c). */
void history_extract_facts(const struct report *rep, struct history_kv **facts, size_t *n);
void history_kv_free(struct history_kv *kv, size_t n);
/* For people: "driver", "kernel", "PyTorch"...; platform names the run's
 * platform kind ("wsl2" makes the driver the "Windows driver"). */
const char *history_fact_label(const char *key, const char *platform);

/* ---- reading ---- */

struct history_check {
	char *id;
	char *status; /* pass, warn, fail, skip, crash, timeout */
	char *kb;     /* NULL: none */
	char *detail;
};

struct history_run {
	long long id;
	char *started_at; /* UTC, ISO-8601: 2025-11-03T09:00:00Z */
	time_t when;
	double duration_ms;
	char *command;
	int exit_status;
	char *machine;
	char *tool_version;
	char *policy_path; /* NULL: none */
	char *verdict;     /* ok, warn, fail */
	char *first_failure;
	struct history_kv *facts;
	size_t nfacts;
	struct history_check *checks;
	size_t nchecks;
};

struct history_runs {
	struct history_run *v;
	size_t n;
};

struct history_query {
	size_t limit;        /* the most recent N runs; 0: all */
	const char *machine; /* a prefix of the machine hash; NULL: every machine */
	time_t since;        /* runs started at or after; 0: no bound */
};

/*
 * Opens the database read-only and loads the runs, oldest first. Returns 0;
 * -ENOENT (err set) when the file does not exist; -1 with a one-line
 * message when it is not a wslgpu history database, is of a newer schema,
 * or cannot be read. The file is never modified.
 */
int history_load(const char *db_path, const struct history_query *q,
		 struct history_runs *out, struct strbuf *err);
void history_runs_release(struct history_runs *runs);
const char *history_run_fact(const struct history_run *run, const char *key);
const struct history_check *history_run_check(const struct history_run *run, const char *id);

/* ---- changes between consecutive runs of one machine ---- */

struct history_change {
	bool is_check;      /* a check's status, else a fact */
	const char *key;    /* fact key or check id */
	const char *old;    /* NULL: absent before */
	const char *new;    /* NULL: absent now */
	/* downgrade, upgrade, changed, added, removed (facts);
	 * broke, fixed, warns, cause (checks: cause = same status, other KB entry) */
	const char *how;
	const char *kb;     /* the KB entry explaining it, or NULL */
	const char *detail; /* checks: the check's detail in the newer run */
};

struct history_transition {
	const struct history_run *from, *to;
	struct history_change *v;
	size_t n;
};

struct history_changes {
	struct history_transition *v; /* only transitions with changes */
	size_t n;
	size_t machines;              /* machines seen in the runs */
};

/* Pointers in the result point into runs, which must outlive it. */
void history_changes(const struct history_runs *runs, struct history_changes *out);
void history_changes_release(struct history_changes *ch);

/* ---- output for `wslgpu history` ---- */

/* "Mon 3 Nov 09:00" in local time; the year is added when it is not now's. */
void history_human_time(time_t t, time_t now, struct strbuf *out);
void history_print_runs(FILE *f, const char *db_path, const struct history_runs *runs, bool json);
void history_print_changes(FILE *f, const char *db_path, const struct history_runs *runs,
			   const struct history_changes *ch, bool json);

#endif
