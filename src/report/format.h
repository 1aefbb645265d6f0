/*
 * format: every output format of the results, in one table (name -> writer),
 * each written through one signature: it appends to out what in holds.
 * check, smoke, report, fix and explain choose a format by name and
 * dispatch through the table; the command line offers each row as an
 * option of the commands the row names (--json, --brief, --junit FILE),
 * with the row's help, in --help, parsing and the completions
 * (src/cli/parse-options.h). A new format is one file (its writer) and one
 * row in format.c.
 *
 * bench, watch and history measure and show their own kind of data and
 * write it in their own directories (doc/architecture.md).
 */
#ifndef WSLGPU_FORMAT_H
#define WSLGPU_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/json.h"
#include "../core/strbuf.h"
#include "../explain/report.h"
#include "../fix/plan.h"
#include "outputs.h"
#include "report.h"

/* What a command has to write; each writer reads the part it formats. */
struct format_input {
	const struct report *rep;           /* the checks: check, smoke, report */
	const struct output_meta *meta;     /* the run, for JUnit and Prometheus */
	const char *note;                   /* Markdown: the line under the report */
	const struct explain_view *explain; /* explain's answer */
	const struct fix_plan *plan;        /* fix's plan ... */
	const struct fix_meta *fix_meta;    /* ... and where it was made */
	/* JSON of the checks: members a command adds to the report's object
	 * (smoke's "smoke"), or NULL. */
	void (*members)(struct json_writer *jw, const void *ctx);
	const void *members_ctx;
	/* report --html: the directory where watch and bench keep their last
	 * results, and the history timeline as HTML (history/page.c), or NULL */
	const char *state_dir;
	const char *history_html;
};

typedef void format_writer(struct strbuf *out, const struct format_input *in);

struct format {
	const char *name;     /* its option: --NAME */
	const char *commands; /* the commands that offer it, space-separated */
	format_writer *write;
	/* NULL: written to standard output instead of the command's default;
	 * "FILE": also written to the file the option names (smoke's outputs) */
	const char *argh;
	/* The option's line in --help; NULL: the command's default format,
	 * which no option selects. */
	const char *help;
};

/* The most rows the table may have (struct format_choice holds one file
 * per row). */
#define FORMAT_MAX 24

const struct format *formats(size_t *n);
/* The row of format name that cmd offers (or whose default it is); NULL
 * when cmd has none by that name. */
const struct format *format_find(const char *cmd, const char *name);
/* Whether row f is offered by cmd. */
bool format_offered(const struct format *f, const char *cmd);
/* The row's index in the table (for struct format_choice). */
size_t format_index(const struct format *f);

/* What a command's format options chose (src/cli/parse-options.h fills it). */
struct format_choice {
	const struct format *out;       /* standard output's; NULL: the default */
	const char *file[FORMAT_MAX];   /* by format_index: the FILE of --NAME FILE */
};

/* Writes in with the format cmd names name (its default when name is
 * NULL) into out. */
void format_write(const char *cmd, const char *name, struct strbuf *out,
		  const struct format_input *in);

#endif
