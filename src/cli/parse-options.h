/*
 * parse-options: every command's options declared once (after git's
 * parse-options.h). A command is one struct cli_command: its name, entry
 * point, summary, usage lines, and an array of struct cli_option -- type,
 * short and long name, where the value goes, the value's name, the help
 * line and flags. From that one declaration come
 *   - the parsing (parse_options),
 *   - the command's --help (usage, the option lines, the epilog),
 *   - main's rules for options before the command word (which commands
 *     take an option, and whether it takes a value: src/cli/main.c),
 *   - the completions (`wslgpu __complete`, read by completions/), and
 *   - the output format options (--json, --brief, --junit FILE), one per
 *     row of src/report/format.c that names the command (OPTION_FORMATS).
 * Adding an option is one row here; its documentation is the man page.
 *
 * Values are stored at an offset in the command's own struct of options
 * (the base parse_options is given), so that the declarations are static
 * tables that main can read without running the command.
 */
#ifndef WSLGPU_PARSE_OPTIONS_H
#define WSLGPU_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/strbuf.h"

enum parse_opt_type {
	OPTION_END,
	OPTION_GROUP,    /* a heading in --help ("io options:") */
	OPTION_BOOL,     /* sets a bool */
	OPTION_STRING,   /* stores the value, a const char * into argv */
	OPTION_CALLBACK, /* the callback takes the value */
	OPTION_FORMATS,  /* stands for the format options of the command:
			  * the value is a struct format_choice */
	OPTION_HELP,     /* -h, --help: added to every command */
};

/* What the completions offer for an option's value. */
enum opt_complete {
	COMPLETE_NOTHING, /* a number, a name: nothing to offer */
	COMPLETE_FILE,
	COMPLETE_DIR,
	COMPLETE_CHECKS,  /* layers and check ids, comma-separated (--only) */
	COMPLETE_PID,
	COMPLETE_URL,
	COMPLETE_WORDS,   /* one of .words, space-separated */
};

#define OPT_HIDDEN (1u << 0)   /* parsed, but not in --help nor offered */
#define OPT_OPTARG (1u << 1)   /* the value only as --name=VALUE; NULL alone */
#define OPT_OUTPUT (1u << 2)   /* the value names a file the command writes:
				* two outputs naming one file are a usage error */
#define OPT_NONEMPTY (1u << 3) /* an empty value is a usage error */

struct cli_option;
struct parse_state;
/* Takes arg (NULL for a flag) for option o; value is the command's field
 * at o->offset. Returns 0, or -1 after a usage error (parse_error). */
typedef int parse_opt_cb(struct parse_state *ps, const struct cli_option *o, const char *arg,
			 void *value);

struct cli_option {
	enum parse_opt_type type;
	int short_name;        /* 'v', or 0 */
	const char *long_name; /* "verbose", or NULL */
	size_t offset;         /* of the value in the command's struct */
	const char *argh;      /* the value's name in --help ("FILE"); NULL: a flag */
	const char *help;
	unsigned flags;        /* OPT_HIDDEN... */
	parse_opt_cb *callback;
	enum opt_complete complete;
	const char *words;     /* COMPLETE_WORDS: "auto always never" */
	const void *format;    /* OPTION_FORMATS, expanded: its row (report/format.h) */
};

#define OPT_END() { .type = OPTION_END }
#define OPT_GROUP(h) { .type = OPTION_GROUP, .help = (h) }
#define OPT_BOOL(s, l, T, f, h) \
	{ .type = OPTION_BOOL, .short_name = (s), .long_name = (l), .offset = offsetof(T, f), \
	  .help = (h) }
#define OPT_STRING(s, l, T, f, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .offset = offsetof(T, f), \
	  .argh = (a), .help = (h), .flags = OPT_NONEMPTY }
/* A file the command reads. */
#define OPT_FILE(s, l, T, f, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .offset = offsetof(T, f), \
	  .argh = (a), .help = (h), .flags = OPT_NONEMPTY, .complete = COMPLETE_FILE }
/* A file the command writes. */
#define OPT_OUTPUT_FILE(s, l, T, f, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .offset = offsetof(T, f), \
	  .argh = (a), .help = (h), .flags = OPT_NONEMPTY | OPT_OUTPUT, \
	  .complete = COMPLETE_FILE }
#define OPT_CALLBACK(s, l, T, f, a, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .offset = offsetof(T, f), \
	  .argh = (a), .help = (h), .callback = (cb) }
/* The output formats of src/report/format.c that name this command. */
#define OPT_FORMATS(T, f) { .type = OPTION_FORMATS, .offset = offsetof(T, f) }

/* What a global --root means to a command. */
enum root_use {
	ROOT_USED,    /* the machine it describes */
	ROOT_IGNORED, /* nothing: the user's own history, the built-in KB, help */
	ROOT_REFUSED, /* a mistake: watch samples this machine's live /proc */
};

#define PARSE_STOP_AT_NON_OPTION (1u << 0) /* the first operand ends the options
					    * (watch: the rest is the command's) */
#define PARSE_HIDDEN_COMMAND (1u << 1)     /* not listed in wslgpu --help */

struct parse_state;

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;          /* its line in wslgpu --help */
	enum root_use root;
	const char *const *usage;     /* the usage lines, NULL-terminated */
	const char *about;            /* what it does: the paragraph after usage */
	const struct cli_option *options;
	const char *epilog;           /* after the options: operands, exit status */
	unsigned flags;               /* PARSE_STOP_AT_NON_OPTION... */
	const char *unknown_hint;     /* said after "unknown option '-x'" */
	/* After the options, before anything runs: the rules between them
	 * (one that excludes the others); 0, or -1 after parse_error. */
	int (*check)(struct parse_state *ps, void *base);
};

#define PARSE_MAX_OPTIONS 64 /* more than any command declares, --help included */

struct parse_state {
	const struct cli_command *cmd;
	const char *given; /* the option as typed, for messages ("--only", "-o") */
	/* the options given, each once, in the order first given */
	const struct cli_option *seen[PARSE_MAX_OPTIONS];
	size_t nseen;
};

/* parse_options's answers besides the number of operands. */
#define PARSE_HELP (-1)  /* --help was given and printed: exit EXIT_OK */
#define PARSE_ERROR (-2) /* a usage error was printed: exit EXIT_USAGE */

/*
 * Parses argv[1..argc) for command c, storing values into base (the struct
 * the options' offsets are of). Operands (words that are not options, and
 * everything after "--") are moved to argv[0..n), argv[n] = NULL; returns
 * n, PARSE_HELP or PARSE_ERROR. Options may follow operands unless c has
 * PARSE_STOP_AT_NON_OPTION. Long options may be abbreviated to a unique
 * prefix, as getopt_long allows.
 */
int parse_options(const struct cli_command *c, int argc, char **argv, void *base);
/* The exit status for PARSE_HELP or PARSE_ERROR. */
int parse_exit(int parsed);
/* A usage error of the command being parsed; returns -1. */
int parse_error(struct parse_state *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* c's options with the format options expanded and -h/--help added, in
 * order (groups included), at most max into out; returns how many. */
size_t parse_options_list(const struct cli_command *c, struct cli_option *out, size_t max);
/* The option of c named by the option word a ("--only=x", "-o"), or NULL;
 * *tmp holds an expanded format option. */
const struct cli_option *parse_options_find(const struct cli_command *c, const char *a,
					    struct cli_option *tmp);
/* c's --help text: the usage lines, what it does, the option lines, the
 * epilog. */
void parse_options_help(const struct cli_command *c, struct strbuf *out);
/* Only the option lines ("  -v, --verbose        show ..."). */
void parse_options_lines(const struct cli_command *c, struct strbuf *out);
/* c's options for the completions, one a line:
 *   SHORT <tab> LONG <tab> ARG <tab> COMPLETE <tab> HELP
 * each field "-" when empty; ARG is the value's name, "=NAME" when it is
 * given only as --name=VALUE; COMPLETE is nothing, file, dir, checks, pid,
 * url or words:W1,W2. c may be a table of global options only. */
void parse_options_complete(const struct cli_command *c, struct strbuf *out);

#endif
