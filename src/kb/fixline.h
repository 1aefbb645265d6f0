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

#include "../core/strbuf.h"

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

/*
 * Who types the fix lines, which decides their sudo. The KB writes
 * "sudo CMD" for a user with sudo; root needs no sudo, and a container's
 * root (a docker image's default) often has none installed, where
 * "sudo CMD" is "command not found".
 *
 *   FIX_USER_KEEP     the KB's text as it is (unit tests, kb, no machine)
 *   FIX_USER_DETECT   decide at first use (fix_user_get): the effective
 *                     uid, and whether sudo is a command on the described
 *                     machine (rootfs_which, inside --root)
 *   FIX_USER_ROOT     root: every sudo dropped (sudoedit F: ${EDITOR:-vi} F)
 *   FIX_USER_SUDO     not root, sudo exists: as the KB wrote it
 *   FIX_USER_NO_SUDO  not root and no sudo: the command without sudo and
 *                     the remark "as root: there is no sudo here"
 *
 * WSLGPU_TEST_EUID=N in the environment stands for the effective uid: for
 * tests only (tools/fixture sets 1000, a fixture's env may say 0), so that
 * what the tests see does not depend on who runs them.
 */
enum fix_user { FIX_USER_KEEP, FIX_USER_DETECT, FIX_USER_ROOT, FIX_USER_SUDO, FIX_USER_NO_SUDO };
void fix_user_set(enum fix_user u);
enum fix_user fix_user_get(void); /* never FIX_USER_DETECT */
/* What FIX_USER_DETECT decides. */
enum fix_user fix_user_detect(void);
/* The remark a line gets for FIX_USER_NO_SUDO. */
#define FIX_AS_ROOT_REMARK "as root: there is no sudo here"
/*
 * The expanded fix line as u can type it, into out (replaced). Every sudo
 * in a command's place is rewritten: at the start, after | && || ; $( and
 * after ": " or "then " (a command inside words: "then: sudo ldconfig"),
 * in the command and in its remark. "sudo -E CMD" is CMD; a sudo with
 * other options is left as it is. A line for another machine (PowerShell,
 * Windows, "on the host") keeps its own sudo. Returns whether it changed.
 */
bool fix_for_user(const char *line, enum fix_user u, struct strbuf *out);
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

/*
 * Which platform a fix line is for. The KB writes a line for WSL or for
 * native Linux into an entry that holds everywhere with the platform in
 * its command (wsl.exe, PowerShell, .wslconfig, /usr/lib/wsl; modprobe,
 * dkms, lspci, /dev/nvidia*) or in its remark's first words ("(on WSL, in
 * PowerShell)", "(Debian/Ubuntu, native Linux only)"); a remark that
 * says "on WSL: ..." with a colon is an aside to a line for everyone
 * ("update the NVIDIA driver   (on WSL: the Windows driver; ...)"), which
 * fix_remark_for leaves out off WSL. One decision, read by every view and
 * the plan through finding_for_platform (finding.h) and by explain's
 * order_fixes.
 */
enum fix_platform { FIX_ANY_PLATFORM, FIX_WSL_ONLY, FIX_NATIVE_ONLY };
enum fix_platform fix_platform_of(const char *line);
/* The line with the clauses of its remark that are for platform other
 * ("on WSL: ...", "in WSL, wsl.exe --shutdown also works" for
 * FIX_WSL_ONLY; "natively: ..." for FIX_NATIVE_ONLY) left out, and the
 * remark with them when nothing else is left; into out (replaced).
 * Returns whether it changed. */
bool fix_remark_for(const char *line, enum fix_platform other, struct strbuf *out);
/* A cause's text with the sentences for another platform left out: those
 * that start as a remark's clause for it does ("On WSL, ...", "In WSL the
 * driver is the Windows one.", "On Windows ..." for FIX_WSL_ONLY;
 * "Natively, ...", "On native Linux ..." for FIX_NATIVE_ONLY; on a log
 * from Windows itself, both but Windows' own). The text as it was when
 * nothing else would be left; into out (replaced). Returns whether it
 * changed. */
bool cause_text_for(const char *text, enum fix_platform other, bool windows_log,
		    struct strbuf *out);
/* Which platform a source URL documents: FIX_WSL_ONLY for WSL's and
 * Windows' own pages (a "wsl" in the address: NVIDIA's CUDA on WSL guide,
 * Microsoft's WSL docs and tracker; learn.microsoft.com's Windows pages),
 * FIX_ANY_PLATFORM otherwise. */
enum fix_platform source_platform_of(const char *url);
/* Whether a line names WSL or Windows (wsl.exe, PowerShell, /usr/lib/wsl,
 * .wslconfig, nvidia-smi.exe, the Windows driver, --windows) anywhere. */
bool fix_is_wsl_only(const char *line);
/* Whether a fix line runs only in a Linux shell: sudo, apt, dpkg, ldconfig,
 * modprobe, export, /usr/ and /etc/ paths, a venv's bin/python, 2>/dev/null,
 * a pipe into grep, python3, wslgpu itself, NAME=value before a command
 * (PowerShell sets $env:NAME). A PowerShell or Windows line, words with
 * none of these, nvidia-smi or python -m pip are not; nor is a line that
 * says "in WSL:". */
bool fix_is_linux_only(const char *line);
/* Whether a fix line is about WSL itself (wsl.exe, .wslconfig, /usr/lib/wsl):
 * on a Windows log it goes after the lines for Windows itself. */
bool fix_names_wsl(const char *line);
/* Whether a fix line removes packages or files, reinstalls a driver or
 * changes the system. */
bool fix_is_destructive(const char *line);
/* Whether a fix line changes the system, as a command or in words: it
 * installs, removes or reinstalls software or a driver, edits system or
 * WSL configuration, loads a module, or restarts a service, WSL's VM or
 * the machine (fix_is_destructive's lines included). A step that only
 * looks, or changes this shell alone (export, unset), does not. The one
 * definition the KB's rule "no system-changing first step on a guess"
 * is tested by (test_explain). */
bool fix_changes_system(const char *line);
/* Whether a fix line is a command that only looks (nvidia-smi, ls, grep,
 * dpkg -l, wsl.exe --version, wslgpu check; a template of one too) and
 * reads the machine as it is, not after a change ("(afterwards: ...)"):
 * the step explain puts before a system change on a guess. */
bool fix_only_looks(const char *line);

#endif
