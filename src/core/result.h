/*
 * result: what one check found. Probes fill a result and never print;
 * src/report/ turns results into text, JSON and the rest.
 *
 * A result carries a status, a one-line detail, the id of the knowledge-base
 * entry that explains it (src/kb/), and evidence: ordered key/value pairs
 * naming the files, values and command outputs the decision rested on.
 * Evidence keys double as the placeholders of the KB entry's text, so
 * "{package}" in a fix command is filled from the evidence "package".
 * A key may repeat; JSON shows repeated keys as an array.
 */
#ifndef WSLGPU_RESULT_H
#define WSLGPU_RESULT_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

enum status {
	ST_PASS,
	ST_WARN,
	ST_FAIL,
	ST_SKIP,
	ST_CRASH,
	ST_TIMEOUT,
	/* The check could not find out (a file it needs cannot be read, what it
	 * would verify cannot be seen without running more): neither a pass
	 * nor a problem. Last, so that the wire format's and history's numbers
	 * of the others stay what they were. */
	ST_UNKNOWN,
	ST__COUNT
};

/* Evidence: what a decision rested on, as ordered key/value pairs. A key
 * may repeat. The knowledge base's texts are filled from it
 * (kb_expand), so it is also what a cause may state about the machine. */
struct ev_pair {
	char *key;
	char *val;
};

struct evidence {
	struct ev_pair *v;
	size_t n, alloc;
};

#define EVIDENCE_INIT { NULL, 0, 0 }

void ev_add(struct evidence *ev, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Adds a whole text (command output, file excerpt), clipped to max bytes
 * with a marker. */
void ev_add_text(struct evidence *ev, const char *key, const char *text, size_t max);
/* First value of key, n-th value (0-based), how many values: */
const char *ev_get(const struct evidence *ev, const char *key);
const char *ev_get_nth(const struct evidence *ev, const char *key, size_t n);
size_t ev_count(const struct evidence *ev, const char *key);
/* Appends copies of every pair of from. */
void ev_copy(struct evidence *to, const struct evidence *from);
void ev_release(struct evidence *ev);

/* Why the runner, not the probe, ended a check. */
enum cut {
	CUT_NONE,
	CUT_TIMEOUT,     /* the probe ran past its own time limit (--timeout) */
	CUT_BUDGET,      /* it was cut short at the end of the run's time budget */
	CUT_NOT_STARTED, /* the budget was spent before it could start */
	CUT_INTERRUPTED, /* SIGINT or SIGTERM ended the run before it finished */
};

struct check_def;

struct result {
	const struct check_def *def;
	enum status status;
	bool ran;         /* false until the probe finished or was skipped */
	char *detail;     /* one line */
	char *kb;         /* KB entry id, or NULL */
	struct evidence ev;
	enum cut cut;
	/* smoke: the policy line that tolerates this warning or failure
	 * ("FILE:LINE: [tolerate] PATTERN"): the status stays what it is for
	 * JUnit, Prometheus and history, but the run does not fail. NULL when
	 * not tolerated. */
	char *tolerated_by;
	/* The check whose finding this one follows from (its id), or NULL:
	 * one root cause is one problem with one fix, so the views show this
	 * finding under that cause and do not count it again
	 * (src/fix/consequence.h marks it after the run). The status stays
	 * what it is, for the exit code, JUnit, Prometheus and history. */
	const char *consequence_of;
	/* The platform kind its fix lines are chosen for (platform.kind's,
	 * a static string; finding_mark_platform sets it after the run), or
	 * NULL where no run established one: then a line for WSL or for
	 * native Linux comes after those that hold everywhere. */
	const char *platform;
	char *step;       /* last step the probe announced (for time-outs) */
	char *output;     /* captured stdout/stderr of the probe process */
	bool output_truncated;
	double ms;
	/* CHECK_EARLY (check.h): the part of ms its probe ran before its deps
	 * were done; the rest ran after them (the critical path's view). */
	double ms_before_deps;
};

const char *status_name(enum status s);      /* "pass", "warn", ..., "unknown" */
/* The status of a name status_name gives; -1 for any other text. */
int status_parse(const char *name);
/* The report's mark for a status, one column wide: ✓ ! ✗ - ☠ T ? (flutter
 * doctor's habit; T a time-out, ? not found out), in ASCII + ! x - X T ?
 * where the locale is not UTF-8 (text_utf8). */
const char *status_mark(enum status s);
bool status_is_failure(enum status s);       /* fail, crash, timeout */
/* The same for a status by its name (history's stored statuses). */
bool status_name_is_failure(const char *name);
/*
 * The one ordering of findings, worst last: skip < pass < note (a pass with
 * a KB entry: harmless, but worth explaining) < unknown < warn < fail =
 * crash = timeout. A check's worst finding becomes its result; a verdict's
 * worst status is the run's. Unknown is above a pass (a check whose one
 * part could not be found out is not verified as a whole) and below a
 * warning (nothing wrong was seen): it is never a failure, counts as no
 * problem and changes no exit status, --strict's included.
 */
int status_severity(enum status s, bool note);
/* A failure that does not fail the run (tolerated by the smoke policy). */
bool result_tolerated(const struct result *r);
/* The status people are shown: a tolerated failure reads as a warning. */
enum status result_shown_status(const struct result *r);
/* Counts as a failure of the run: fail, crash or timeout, not tolerated. */
bool result_fails_run(const struct result *r);

void result_init(struct result *r, const struct check_def *def);
void result_release(struct result *r);

/* Sets status, KB entry (may be NULL) and detail in one go. */
void res_set(struct result *r, enum status st, const char *kb, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void res_ev(struct result *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Adds evidence holding a whole text (command output, file excerpt),
 * clipped to max bytes with a marker. */
void res_ev_text(struct result *r, const char *key, const char *text, size_t max);
/* First value of key, or NULL. */
const char *res_get(const struct result *r, const char *key);
/* n-th value (0-based) of a repeated key, or NULL. */
const char *res_get_nth(const struct result *r, const char *key, size_t n);

/*
 * Several findings in one check: the worst by status_severity becomes the
 * result; among equals the lower priority number wins (findings_add_prio;
 * findings_add uses 0), then the one found first. Each other finding is
 * kept as "also" evidence, and one given a label is named in the detail
 * ("...; also swap in use").
 */
struct finding {
	enum status st;
	int prio;
	const char *kb;
	char *detail;
	const char *label;
};

struct findings {
	struct finding *v;
	size_t n, alloc;
};

#define FINDINGS_INIT { NULL, 0, 0 }

void findings_add(struct findings *f, enum status st, const char *kb, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void findings_add_prio(struct findings *f, enum status st, int prio, const char *kb,
		       const char *label, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* The index of the finding that decides, or -1 when there is none. */
long findings_worst(const struct findings *f);
/* Its status; ST_PASS when there is none. */
enum status findings_status(const struct findings *f);
/* Sets r from the worst finding (status, KB entry, detail), keeps the
 * others as "also" evidence and releases f. When everything passed, the
 * detail names each pass in the order found. With no finding, r is left
 * as it is. */
void findings_settle(struct result *r, struct findings *f);
void findings_release(struct findings *f);

/*
 * Wire format between a probe's child process and the runner: records of
 * [type:1][length:4, little endian][payload]. Written as the probe goes, so a
 * crash still leaves its last step; parsed defensively (the child may have
 * been killed mid-record, or a vendor library may have scribbled on memory).
 */
void wire_put(int fd, char type, const void *data, size_t len);
void wire_put_result(int fd, const struct result *r);
/* The same records appended to sb, for a writer that sends several in one
 * write(2) (wire_write): a result's evidence, a batch of results. The
 * caller writes them before anything that may not return (vendor code, a
 * wait for the runner), so that a crash loses none. */
void wire_add(struct strbuf *sb, char type, const void *data, size_t len);
void wire_add_result(struct strbuf *sb, const struct result *r);
/* Writes sb whole (retrying short writes and EINTR) and empties it;
 * returns 0, or -errno (EPIPE: the reader is gone) with sb emptied too. */
int wire_write(int fd, struct strbuf *sb);
/* Applies every complete record in buf to r; returns bytes consumed. */
size_t wire_apply(struct result *r, const char *buf, size_t len);

#endif
