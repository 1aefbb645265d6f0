/*
 * history: the SQLite database of recorded smoke runs (smoke --record,
 * wslgpu history). WAL mode, one transaction per run; a file that is not
 * our database is reported, never overwritten.
 */
#ifndef WSLGPU_HISTORY_H
#define WSLGPU_HISTORY_H

#include <stdbool.h>
#include <time.h>

#include "../core/strbuf.h"
#include "../report/report.h"

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
 * Records one run (every check's status, detail, KB id and evidence; the
 * key facts; the hashed machine id) in one transaction, creating the
 * database and its directory when missing. Returns 0, or -1 with a
 * one-line message in err (the run itself is not affected).
 */
int history_record(const char *db_path, const struct report *rep,
		   const struct history_meta *meta, struct strbuf *err);

#endif
