/*
 * fixline: what one fix line of the knowledge base is -- where it runs,
 * whether it needs root, how risky it is and why, and whether it is a
 * command or words for a person. Read by the fix plan (src/fix/plan.h) and
 * by every view that shows a fix (src/report/finding.c keeps a command
 * whole and lets words wrap), so it lives with the KB, below both.
 *
 * A small pattern table (fixline.c) instead of a field in every KB entry:
 * the same few commands (apt-get remove, wsl.exe --shutdown, ldconfig,
 * ls...) carry the same risk wherever they appear.
 */
#ifndef WSLGPU_FIXLINE_H
#define WSLGPU_FIXLINE_H

#include <stdbool.h>

enum fix_where { FIX_LINUX, FIX_POWERSHELL, FIX_WINDOWS };
enum fix_risk { RISK_NONE, RISK_LOW, RISK_MEDIUM, RISK_HIGH };

struct fix_command {
	char *text;          /* expanded from the KB fix line */
	char *note;          /* its "(...)" remark, without the parentheses; or NULL */
	enum fix_where where;
	bool instruction;    /* words for a person ("update the driver"), not a command */
	bool template;       /* a command with <slots> to fill in (kb_fix_is_template) */
	bool needs_root;
	enum fix_risk risk;
	const char *risk_reason;
	int same_as;         /* the fix plan: an earlier step with the same command, or 0 */
};

/* Classifies one expanded KB fix line; fills every field but same_as
 * (text and note are allocated: the caller frees them). */
void fix_classify(const char *line, struct fix_command *c);
const char *fix_risk_name(enum fix_risk r);
const char *fix_where_name(enum fix_where w);

/*
 * One expanded fix line as a line of shell that runs as printed (bash -n),
 * for the views that hand fix lines over whole (JSON, Markdown, HTML,
 * JUnit), and its parts for programs. A command keeps its remark as a
 * comment ("unset LD_LIBRARY_PATH   # for this shell"); words for a
 * person, a template with slots to fill in and a command for another
 * machine ("on the host: sudo modprobe nvidia") are wholly a comment, so
 * that nothing runs here that should not. The terminal writes the same
 * lines, wrapped (src/report/finding.c).
 */
struct fix_shell {
	char *line;        /* the line of shell */
	char *command;     /* the command alone (a template's text); NULL for words */
	char *remark;      /* the remark, without its parentheses; NULL when none */
	const char *where; /* fix_where_name's, or "host": on the container's host */
	const char *kind;  /* "command", "instruction" (words) or "template" */
};
void fix_shell_of(const char *line, struct fix_shell *s);
void fix_shell_release(struct fix_shell *s);

#endif
