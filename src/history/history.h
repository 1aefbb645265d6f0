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
 * (src/bundle/redact.h: user and host names become <user-1>, <host-1>...).
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
	/* Runs and machines that match the query's filters, its limit left
	 * out (history_load sets them; 0: unknown, taken as n and the
	 * machines of v). "20 runs" of a database that holds 41 must say so. */
	size_t total, total_machines;
};

struct history_query {
	size_t limit;        /* the most recent N runs; 0: all */
	const char *machine; /* a prefix of the machine hash; NULL: every machine */
	time_t since;        /* runs started at or after; 0: no bound */
};

/*
 * Reading runs one at a time, in bounded memory whatever the database
 * holds: history_open, then history_count and history_each (any number of
 * times, all in one read transaction, so they agree), history_close.
 * history_open returns 0 (also for an empty file: a reader of no runs),
 * -ENOENT (err set) when the file does not exist, -1 with a one-line
 * message when it is not a wslgpu history database, is of a newer schema,
 * or cannot be read. The file is never modified; a WAL database in a
 * directory we cannot write is opened immutable when its log is empty.
 */
struct history_reader;
struct history_counts {
	size_t runs, machines;        /* what the query selects (its limit too) */
	size_t total, total_machines; /* its filters only */
};
typedef int (*history_run_fn)(const struct history_run *run, void *arg);
int history_open(const char *db_path, struct history_reader **out, struct strbuf *err);
int history_count(struct history_reader *r, const struct history_query *q,
		  struct history_counts *c, struct strbuf *err);
/* Calls fn with each run the query selects, oldest first; the run lives
 * until fn returns. Stops when fn returns non-zero and returns that; 0
 * after the last run, -1 with err set when the database fails. */
int history_each(struct history_reader *r, const struct history_query *q, history_run_fn fn,
		 void *arg, struct strbuf *err);
void history_close(struct history_reader *r);
/*
 * What the table of runs shows of one run, and no more: reading every
 * check and fact of 100,000 runs cost seconds. Strings live until fn
 * returns.
 */
struct history_row {
	long long id;
	time_t when;
	const char *machine, *verdict;
	const char *driver, *kernel;         /* the facts; NULL: not recorded */
	const char *failing[3], *warning[3]; /* the first checks that failed (fail,
					      * crash, timeout) / warned, in chain order */
	size_t nfailing, nwarning;           /* how many in all */
};
typedef int (*history_row_fn)(const struct history_row *row, int pass, void *arg);
/*
 * The rows of the runs the query selects, oldest first, passes times
 * (pass 0, 1, ...: a table measures its columns, then prints). The
 * database is read once, only the columns shown (a partial index on the
 * failing and warning checks, which history_record creates, finds the
 * problems without reading the other checks); for a second pass the rows
 * wait in an SQLite temporary table (a file past its page cache: memory
 * stays bounded), or, where none can be made, the database is read again.
 * Returns 0, fn's non-zero answer, or -1 with err set.
 */
int history_each_row(struct history_reader *r, const struct history_query *q, int passes,
		     history_row_fn fn, void *arg, struct strbuf *err);
/* The row of a run in memory (what history_print_runs shows). */
void history_row_of_run(const struct history_run *run, struct history_row *row);

/* A deep copy (dst is overwritten), and its release. */
void history_run_copy(struct history_run *dst, const struct history_run *src);
void history_run_release(struct history_run *r);

/*
 * All the selected runs in memory, oldest first (history_each into an
 * array: for tests and small queries; `wslgpu history` streams). Returns 0;
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

/*
 * The same, one run at a time (history_each's order, oldest first), in
 * memory bounded by the number of machines: the tracker keeps a copy of
 * each machine's latest run. history_track fills t (t->n may be 0) and
 * returns true when the run's machine was seen before; t->from points
 * into the tracker and t->to at run, both valid until the next call;
 * t->v is the caller's to free.
 */
struct history_tracker {
	struct history_run *last; /* per machine */
	size_t n;
	struct history_run retired; /* the run t->from points at */
};
#define HISTORY_TRACKER_INIT { NULL, 0, { 0 } }
bool history_track(struct history_tracker *tr, const struct history_run *run,
		   struct history_transition *t);
void history_tracker_release(struct history_tracker *tr);

/* ---- output for `wslgpu history` ---- */

/* "Mon 3 Nov 09:00" in local time; the year is added when it is not now's. */
void history_human_time(time_t t, time_t now, struct strbuf *out);
/* Runs in memory (history_load), changes computed (history_changes). */
void history_print_runs(FILE *f, const char *db_path, const struct history_runs *runs, bool json);
void history_print_changes(FILE *f, const char *db_path, const struct history_runs *runs,
			   const struct history_changes *ch, bool json);
/* The same output, streamed from the database in bounded memory (the
 * text table reads the runs twice: once for its column widths). Returns
 * 0, or -1 with err set when the database fails part-way. */
int history_stream_runs(FILE *f, const char *db_path, struct history_reader *r,
			const struct history_query *q, bool json, struct strbuf *err);
int history_stream_changes(FILE *f, const char *db_path, struct history_reader *r,
			   const struct history_query *q, bool json, struct strbuf *err);

#endif
