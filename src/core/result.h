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
	ST__COUNT
};

struct evidence {
	char *key;
	char *val;
};

struct check_def;

struct result {
	const struct check_def *def;
	enum status status;
	bool ran;         /* false until the probe finished or was skipped */
	char *detail;     /* one line */
	char *kb;         /* KB entry id, or NULL */
	struct evidence *ev;
	size_t nev, aev;
	char *step;       /* last step the probe announced (for time-outs) */
	char *output;     /* captured stdout/stderr of the probe process */
	bool output_truncated;
	double ms;
};

const char *status_name(enum status s);      /* "pass", "warn", ... */
/* The report's mark for a status: ✓ ! ✗ - ☠ ⌛ (flutter doctor's habit). */
const char *status_mark(enum status s);
bool status_is_failure(enum status s);       /* fail, crash, timeout */
/* Orders statuses by how bad they are for the verdict. */
int status_rank(enum status s);

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
 * Several findings in one check: the worst (by status_rank) becomes the
 * result, each other one is kept as "also" evidence.
 */
struct res_worst {
	enum status st;
	const char *kb;
	struct strbuf detail;
	bool set;
};
#define RES_WORST_INIT { ST_PASS, NULL, STRBUF_INIT, false }

void res_consider(struct result *r, struct res_worst *w, enum status st, const char *kb,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Sets r from the worst finding and releases w. */
void res_finish(struct result *r, struct res_worst *w);

/*
 * Wire format between a probe's child process and the runner: records of
 * [type:1][length:4, little endian][payload]. Written as the probe goes, so a
 * crash still leaves its last step; parsed defensively (the child may have
 * been killed mid-record, or a vendor library may have scribbled on memory).
 */
void wire_put(int fd, char type, const void *data, size_t len);
void wire_put_result(int fd, const struct result *r);
/* Applies every complete record in buf to r; returns bytes consumed. */
size_t wire_apply(struct result *r, const char *buf, size_t len);

#endif
